/* store.c: persistence in SQLite (WAL mode). A game is stored as its setup,
 * its seats (tokens included) and its move list; the state is never stored
 * but rebuilt by replaying the moves (the engine is deterministic), which is
 * how every game resumes after a restart or a kill -9. All the moves made
 * during one turn of the event loop are written in one transaction, and no
 * client hears of a move before that transaction has committed.
 */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "server.h"

struct srv_store {
    sqlite3 *db;
    sqlite3_stmt *ins_move, *upd_meta, *ins_game, *sel_moves;
};

static const char *schema =
    "CREATE TABLE IF NOT EXISTS games ("
    " id TEXT PRIMARY KEY, setup TEXT NOT NULL, seats TEXT NOT NULL,"
    " status TEXT NOT NULL, turn_timer INTEGER NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS moves ("
    " game TEXT NOT NULL, n INTEGER NOT NULL, player INTEGER NOT NULL, move TEXT NOT NULL,"
    " PRIMARY KEY (game, n)) WITHOUT ROWID;";

srv_store *srv_store_open(const char *path, int sync_full, char *why, size_t n)
{
    srv_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    if (sqlite3_open(path, &s->db) != SQLITE_OK) {
        snprintf(why, n, "cannot open database %s: %s", path,
                 s->db ? sqlite3_errmsg(s->db) : "out of memory");
        goto fail;
    }
    char sql[512];
    snprintf(sql, sizeof sql, "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s; %s",
             sync_full ? "FULL" : "NORMAL", schema);
    char *err = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &err) != SQLITE_OK) {
        snprintf(why, n, "database %s: %s", path, err ? err : "error");
        sqlite3_free(err);
        goto fail;
    }
    sqlite3_busy_timeout(s->db, 2000);
    if (sqlite3_prepare_v2(s->db, "INSERT INTO moves(game,n,player,move) VALUES(?,?,?,?)", -1,
                           &s->ins_move, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "UPDATE games SET seats=?, status=? WHERE id=?", -1,
                           &s->upd_meta, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "INSERT INTO games(id,setup,seats,status,turn_timer,created) "
                           "VALUES(?,?,?,?,?,?)", -1, &s->ins_game, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "SELECT player, move FROM moves WHERE game=? ORDER BY n", -1,
                           &s->sel_moves, NULL) != SQLITE_OK) {
        snprintf(why, n, "database %s: %s", path, sqlite3_errmsg(s->db));
        goto fail;
    }
    return s;
fail:
    srv_store_close(s);
    return NULL;
}

void srv_store_close(srv_store *s)
{
    if (!s)
        return;
    sqlite3_finalize(s->ins_move);
    sqlite3_finalize(s->upd_meta);
    sqlite3_finalize(s->ins_game);
    sqlite3_finalize(s->sel_moves);
    sqlite3_close(s->db);
    free(s);
}

/* Compact text of j, which is released. */
static char *dump_free(json_t *j)
{
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    return s;
}

static int bind_meta(srv_store *s, srv_game *g)
{
    char *seats = dump_free(srv_seats_store_json(g));
    if (!seats)
        return -1;
    sqlite3_reset(s->upd_meta);
    sqlite3_bind_text(s->upd_meta, 1, seats, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s->upd_meta, 2, srv_status_name(g->status), -1, SQLITE_STATIC);
    sqlite3_bind_text(s->upd_meta, 3, g->id, -1, SQLITE_TRANSIENT);
    free(seats);
    return sqlite3_step(s->upd_meta) == SQLITE_DONE ? 0 : -1;
}

int srv_store_create_game(srv_store *s, srv_game *g)
{
    char *setup = dump_free(srv_setup_json(g));
    char *seats = dump_free(srv_seats_store_json(g));
    int rc = -1;
    if (setup && seats) {
        sqlite3_reset(s->ins_game);
        sqlite3_bind_text(s->ins_game, 1, g->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s->ins_game, 2, setup, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s->ins_game, 3, seats, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s->ins_game, 4, srv_status_name(g->status), -1, SQLITE_STATIC);
        sqlite3_bind_int(s->ins_game, 5, g->turn_timer);
        sqlite3_bind_int64(s->ins_game, 6, g->created);
        rc = sqlite3_step(s->ins_game) == SQLITE_DONE ? 0 : -1;
        if (rc)
            lwsl_err("database: %s\n", sqlite3_errmsg(s->db));
    }
    free(setup);
    free(seats);
    return rc;
}

int srv_store_update_meta(srv_store *s, srv_game *g)
{
    return bind_meta(s, g);
}

int srv_store_commit(srv_store *s, srv_game *list)
{
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        lwsl_err("database: %s\n", sqlite3_errmsg(s->db));
        return -1;
    }
    for (srv_game *g = list; g; g = g->next_commit) {
        for (int i = 0; i < g->npending; i++) {
            srv_pending *p = &g->pending[i];
            sqlite3_reset(s->ins_move);
            sqlite3_bind_text(s->ins_move, 1, g->id, -1, SQLITE_STATIC);
            sqlite3_bind_int(s->ins_move, 2, p->n);
            sqlite3_bind_int(s->ins_move, 3, p->player);
            sqlite3_bind_text(s->ins_move, 4, p->move, -1, SQLITE_STATIC);
            if (sqlite3_step(s->ins_move) != SQLITE_DONE)
                goto fail;
        }
        if (g->meta_dirty && bind_meta(s, g) != 0)
            goto fail;
    }
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    return 0;
fail:
    lwsl_err("database: %s\n", sqlite3_errmsg(s->db));
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

json_t *srv_store_moves(srv_store *s, const char *id)
{
    json_t *a = json_array();
    sqlite3_reset(s->sel_moves);
    sqlite3_bind_text(s->sel_moves, 1, id, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(s->sel_moves)) == SQLITE_ROW)
        json_array_append_new(a, json_pack("{s:i,s:s}", "player",
                                           sqlite3_column_int(s->sel_moves, 0), "move",
                                           (const char *)sqlite3_column_text(s->sel_moves, 1)));
    sqlite3_reset(s->sel_moves);
    if (rc != SQLITE_DONE) {
        json_decref(a);
        return NULL;
    }
    return a;
}

int srv_store_load(srv_store *s, char *why, size_t n)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT id, setup, seats, status, turn_timer, created "
                           "FROM games ORDER BY created, id", -1, &st, NULL) != SQLITE_OK) {
        snprintf(why, n, "database: %s", sqlite3_errmsg(s->db));
        return -1;
    }
    int count = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(st, 0);
        srv_game *g = calloc(1, sizeof *g);
        if (g)
            g->vcache_decision = -1;
        json_t *setup = json_loads((const char *)sqlite3_column_text(st, 1), 0, NULL);
        json_t *seats = json_loads((const char *)sqlite3_column_text(st, 2), 0, NULL);
        json_t *moves = NULL;
        char err[300];
        if (!g || !setup || !seats) {
            snprintf(err, sizeof err, "unreadable setup or seats");
            goto bad;
        }
        snprintf(g->id, sizeof g->id, "%s", id);
        if (srv_setup_from_json(g, setup, err, sizeof err) != 0 ||
            srv_seats_from_store(g, seats, err, sizeof err) != 0)
            goto bad;
        g->turn_timer = sqlite3_column_int(st, 4);
        g->created = sqlite3_column_int64(st, 5);
        moves = srv_store_moves(s, g->id);
        if (!moves || srv_replay_moves(g, moves, -1, err, sizeof err) != 0)
            goto bad;
        const char *status = (const char *)sqlite3_column_text(st, 3);
        unsigned mask;
        int claimed_all = 1;
        for (int i = 0; i < g->nseats; i++)
            if (g->seat[i].kind == SEAT_HUMAN && !g->seat[i].claimed)
                claimed_all = 0;
        g->status = claimed_all || strcmp(status, "waiting") != 0 ? GAME_PLAYING : GAME_WAITING;
        if (ch_decider(&g->st, &mask) == CH_DEC_TERMINAL) {
            ch_scores(&g->st, g->scores, &g->winners);
            g->status = GAME_OVER;
        }
        for (int i = 0; i < g->nseats; i++)
            if (g->seat[i].kind == SEAT_BOT && srv_seat_make_bot(g, i, err, sizeof err) != 0)
                goto bad;
        g->decide_since_ms = srv_now_ms();
        json_decref(setup);
        json_decref(seats);
        json_decref(moves);
        srv_game_add(g);
        count++;
        continue;
    bad:
        lwsl_err("game %s not resumed: %s\n", id, err);
        fprintf(stderr, "chartered: game %s not resumed: %s\n", id, err);
        json_decref(setup);
        json_decref(seats);
        json_decref(moves);
        srv_game_free(g);
    }
    sqlite3_finalize(st);
    return count;
}
