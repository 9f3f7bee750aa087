/* store.c: persistence, through the database interface of db.h (SQLite by
 * default, or PostgreSQL; docs/storage.md). A game is stored as its setup,
 * its seats (seat tokens as hashes, the sessions they are bound to) and its move list; the state is never stored
 * but rebuilt by replaying the moves (the engine is deterministic), which is
 * how every game resumes after a restart or a kill -9. All the moves made
 * during one turn of the event loop are written in one transaction (by the
 * writer thread, committer.c, from copies: srv_batch_fill and
 * srv_store_write), and no client hears of a move before that transaction
 * has committed.
 *
 * Finished games (and turn-based games in play, turnbased.c) are not loaded at start: they are read back one at a time
 * when someone asks for one (srv_store_load_over), and listed from here
 * (srv_store_list_over), so memory holds only the games in play and the
 * finished ones looked at lately (lobby.c drops them again).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

/* The moves of a batch go up to MOVES_PER_INSERT to a statement: a round
 * trip per statement matters on PostgreSQL (a socket away), and SQLite
 * takes them as fast. */
#define MOVES_PER_INSERT 16

struct srv_store {
    db_conn *db;
    char *ins_moves[MOVES_PER_INSERT + 1]; /* [k]: the insert of k moves */
    char err[300];              /* the last failed write's reason (backoff.c logs it,
                                   rate-limited: not here, once per failure) */
    int errclass;               /* its class: DB_ERR, DB_CONFLICT, DB_LOST */
};

srv_storage g_storage;

static char *moves_insert(int k);

const char *srv_store_errmsg(srv_store *s)
{
    return s->err;
}

int srv_store_errclass(srv_store *s)
{
    return s->errclass;
}

/* Keep the reason of a failed write (db.h: with the system's reason for an
 * I/O error: EFBIG, EROFS, ENOSPC). */
void srv_store_note_err(srv_store *s)
{
    snprintf(s->err, sizeof s->err, "%s", db_errmsg(s->db));
    s->errclass = db_errclass(s->db);
}

db_conn *srv_store_db(srv_store *s)
{
    return s->db;
}

srv_store *srv_store_open(const char *path, int sync_full, char *why, size_t n)
{
    srv_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    s->db = db_open(path, sync_full, why, n);
    if (!s->db) {
        free(s);
        return NULL;
    }
    for (int k = 1; k <= MOVES_PER_INSERT; k++)
        if (!(s->ins_moves[k] = moves_insert(k))) {
            snprintf(why, n, "out of memory");
            srv_store_close(s);
            return NULL;
        }
    char mwhy[300];
    if (srv_schema_migrate(s->db, mwhy, sizeof mwhy) != 0) {
        /* a migration that failed because nothing can be written (a
           read-only PostgreSQL database or standby; a read-only file) says
           so, rather than which statement was refused */
        char wwhy[300];
        if (db_writable(s->db, wwhy, sizeof wwhy) != 0)
            snprintf(mwhy, sizeof mwhy, "%s", wwhy);
        snprintf(why, n, "database %s: %s", db_kind(s->db) == DB_PG ? "(PostgreSQL)" : path,
                 mwhy);
        srv_store_close(s);
        return NULL;
    }
    return s;
}

void srv_store_close(srv_store *s)
{
    if (!s)
        return;
    db_close(s->db);
    for (int k = 0; k <= MOVES_PER_INSERT; k++)
        free(s->ins_moves[k]);
    free(s);
}

int srv_store_delete_game(srv_store *s, const char *id)
{
    /* only a game that never started (waiting, no move), with what refers
       to it: its seats' accounts (game_players) and its chat */
    static const char *const sql[] = {
        "DELETE FROM chat WHERE game=$1 AND EXISTS (SELECT 1 FROM games WHERE id=$1 AND "
        "status='waiting') AND NOT EXISTS (SELECT 1 FROM moves WHERE game=$1)",
        "DELETE FROM game_players WHERE game=$1 AND EXISTS (SELECT 1 FROM games WHERE id=$1 AND "
        "status='waiting') AND NOT EXISTS (SELECT 1 FROM moves WHERE game=$1)",
        "DELETE FROM games WHERE id=$1 AND status='waiting' AND "
        "NOT EXISTS (SELECT 1 FROM moves WHERE game=$1)"};
    if (db_begin(s->db) != 0)
        goto fail;
    for (size_t i = 0; i < sizeof sql / sizeof *sql; i++)
        if (db_exec(s->db, sql[i], DB_P(DB_T(id))) != 0)
            goto fail;
    if (db_commit(s->db) == 0)
        return 0;
fail:
    srv_store_note_err(s);
    db_rollback(s->db);
    return -1;
}

void srv_batch_free(srv_batch_item *it)
{
    free(it->moves);
    free(it->seats);
    free(it->result);
    it->moves = NULL;
    it->seats = NULL;
    it->result = NULL;
}

static const char *sql_upd_meta = "UPDATE games SET seats=$1, status=$2 WHERE id=$3";

/* The text of an insert of k moves (the store's, made at its open). */
static char *moves_insert(int k)
{
    size_t cap = 64 + (size_t)k * 40;
    char *t = malloc(cap);
    if (!t)
        return NULL;
    size_t l = (size_t)snprintf(t, cap, "INSERT INTO moves(game,n,player,move) VALUES");
    for (int i = 0; i < k; i++)
        l += (size_t)snprintf(t + l, cap - l, "%s($%d,$%d,$%d,$%d)", i ? "," : "", 4 * i + 1,
                              4 * i + 2, 4 * i + 3, 4 * i + 4);
    return t;
}

static int write_moves(srv_store *s, const srv_batch_item *it)
{
    for (int i = 0; i < it->nmoves; i += MOVES_PER_INSERT) {
        int k = it->nmoves - i < MOVES_PER_INSERT ? it->nmoves - i : MOVES_PER_INSERT;
        db_val v[4 * MOVES_PER_INSERT];
        for (int j = 0; j < k; j++) {
            const srv_pending *p = &it->moves[i + j];
            v[4 * j] = DB_T(it->id);
            v[4 * j + 1] = DB_I(p->n);
            v[4 * j + 2] = DB_I(p->player);
            v[4 * j + 3] = DB_T(p->move);
        }
        if (db_exec(s->db, s->ins_moves[k], 4 * k, v) != 0)
            return -1;
    }
    return 0;
}

int srv_store_write(srv_store *s, const srv_batch_item *items, int n)
{
    if (db_begin(s->db) != 0)
        goto fail;
    for (int k = 0; k < n; k++) {
        const srv_batch_item *it = &items[k];
        if (write_moves(s, it) != 0)
            goto fail;
        if (it->seats && db_exec(s->db, sql_upd_meta,
                                 DB_P(DB_T(it->seats), DB_T(it->status), DB_T(it->id))) != 0)
            goto fail;
        /* the rest of its rows, by the writer the item carries (saved.c) */
        if (it->write_rows && it->write_rows(s->db, it) != 0)
            goto fail;
    }
    if (db_commit(s->db) != 0)
        goto fail;
    return 0;
fail:
    srv_store_note_err(s);
    db_rollback(s->db);
    return s->errclass == DB_CONFLICT ? SRV_STORE_CONFLICT : -1;
}

json_t *srv_store_moves(srv_store *s, const char *id)
{
    return srv_moves_read(s->db, id);
}

json_t *srv_moves_read(db_conn *db, const char *id)
{
    json_t *a = json_array();
    db_rows *r = db_query(db, "SELECT player, move FROM moves WHERE game=$1 ORDER BY n",
                          DB_P(DB_T(id)));
    if (!r) {
        json_decref(a);
        return NULL;
    }
    while (db_next(r) == 1)
        json_array_append_new(a, json_pack("{s:i,s:s}", "player", (int)db_int(r, 0), "move",
                                           db_text(r, 1) ? db_text(r, 1) : ""));
    if (db_end(r) != 0) {
        json_decref(a);
        return NULL;
    }
    return a;
}

int srv_store_writable(srv_store *s, char *why, size_t n)
{
    return db_writable(s->db, why, n);
}

