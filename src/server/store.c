/* store.c: persistence in SQLite (WAL mode). A game is stored as its setup,
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

#include <sqlite3.h>

#include "server.h"

/* How long a write waits for another process's lock on the database
 * (sqlite3_busy_timeout) before it fails with SQLITE_BUSY. Commits run on
 * the writer thread, but a game's creation and the loop's reads wait this
 * long on the event loop, and every connection with them: the only
 * writer is this server, a lock held by another process (an administrator's
 * sqlite3 shell, a backup) is the exception, and then the moves of that loop
 * turn are refused with a "storage" error rather than stall everyone. */
#define SRV_STORE_BUSY_MS 250

struct srv_store {
    sqlite3 *db;
    sqlite3_stmt *ins_move, *upd_meta, *ins_game, *sel_moves, *sel_over, *list_over;
    char err[200];              /* the last failed write's reason (backoff.c logs it,
                                   rate-limited: not here, once per failure) */
};

const char *srv_store_errmsg(srv_store *s)
{
    return s->err;
}

/* Keep the reason of a failed write: SQLite's message and, for an I/O
 * error, the system's (EFBIG, EROFS, ENOSPC). */
static void note_err(srv_store *s)
{
    int sys = sqlite3_system_errno(s->db);
    if (sys)
        snprintf(s->err, sizeof s->err, "%s: %s", sqlite3_errmsg(s->db), strerror(sys));
    else
        snprintf(s->err, sizeof s->err, "%s", sqlite3_errmsg(s->db));
}

#define GAME_COLUMNS "id, setup, seats, status, turn_timer, created"

/* The schema is versioned (PRAGMA user_version) and upgraded in place by
 * the migrations below, in order, in one transaction: a database made by an
 * older chartered opens and is brought up to date; one made by a newer
 * chartered is refused rather than misread.
 *
 * Version 1: games and moves (databases from before versioning say 0 and
 * have exactly these tables). */
static const char *schema_v1 =
    "CREATE TABLE IF NOT EXISTS games ("
    " id TEXT PRIMARY KEY, setup TEXT NOT NULL, seats TEXT NOT NULL,"
    " status TEXT NOT NULL, turn_timer INTEGER NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS moves ("
    " game TEXT NOT NULL, n INTEGER NOT NULL, player INTEGER NOT NULL, move TEXT NOT NULL,"
    " PRIMARY KEY (game, n)) WITHOUT ROWID;"
    /* finished games are listed newest first from the database */
    "CREATE INDEX IF NOT EXISTS games_status ON games(status, created);";

/* Version 2: accounts and sessions (session.c); seat tokens kept as hashes
 * (hash_seat_tokens). */
static const char *schema_v2 =
    "CREATE TABLE IF NOT EXISTS accounts ("
    " id INTEGER PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,"
    " pwhash TEXT NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sessions ("
    " hash TEXT PRIMARY KEY, sid TEXT NOT NULL UNIQUE, user_id INTEGER REFERENCES accounts(id),"
    " guest_name TEXT, created INTEGER NOT NULL);";

/* Version 4: the chat of each table (chat.c), kept with the game. */
static const char *schema_v4 =
    "CREATE TABLE IF NOT EXISTS chat ("
    " game TEXT NOT NULL, n INTEGER NOT NULL, decision INTEGER NOT NULL,"
    " channel INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL,"
    " at INTEGER NOT NULL, PRIMARY KEY (game, n)) WITHOUT ROWID;";

/* Version 2: every stored seat token becomes its hash (tokens.c). */
static int hash_seat_tokens(sqlite3 *db)
{
    sqlite3_stmt *sel = NULL, *upd = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(db, "SELECT id, seats FROM games", -1, &sel, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "UPDATE games SET seats = ? WHERE id = ?", -1, &upd, NULL) !=
            SQLITE_OK)
        goto done;
    int st;
    while ((st = sqlite3_step(sel)) == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(sel, 1);
        json_t *seats = text ? json_loads(text, 0, NULL) : NULL;
        size_t i;
        json_t *o;
        int changed = 0;
        json_array_foreach(seats, i, o) {
            const char *tok = json_string_value(json_object_get(o, "token"));
            if (tok) {
                char h[SRV_HASH_HEX + 1];
                srv_token_hash(tok, h);
                json_object_set_new(o, "token_hash", json_string(h));
                json_object_del(o, "token");
                changed = 1;
            }
        }
        char *out = changed ? json_dumps(seats, JSON_COMPACT) : NULL;
        json_decref(seats);
        if (!out)
            continue;
        sqlite3_reset(upd);
        sqlite3_bind_text(upd, 1, out, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(upd, 2, (const char *)sqlite3_column_text(sel, 0), -1,
                          SQLITE_TRANSIENT);
        free(out);
        if (sqlite3_step(upd) != SQLITE_DONE)
            goto done;
    }
    rc = st == SQLITE_DONE ? 0 : -1;
done:
    sqlite3_finalize(sel);
    sqlite3_finalize(upd);
    return rc;
}

static int migrate(sqlite3 *db, char *why, size_t n)
{
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(why, n, "%s", sqlite3_errmsg(db));
        return -1;
    }
    sqlite3_stmt *st = NULL;
    int v = -1;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    const char *step = "reading the schema version";
    if (v < 0)
        goto fail;
    if (v > SRV_SCHEMA_VERSION) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        snprintf(why, n, "the database has schema version %d, made by a newer chartered "
                 "(this one knows up to %d)", v, SRV_SCHEMA_VERSION);
        return -1;
    }
    step = "migration to version 1";
    if (v < 1 && sqlite3_exec(db, schema_v1, NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    step = "migration to version 2";
    if (v < 2 && (sqlite3_exec(db, schema_v2, NULL, NULL, NULL) != SQLITE_OK ||
                  hash_seat_tokens(db) != 0))
        goto fail;
    /* Version 3: turn-based clocks (turnbased.c), results, ratings and who
       played which game (results.c) */
    step = "migration to version 3";
    if (v < 3 && (srv_turn_schema(db) != 0 || srv_players_schema(db) != 0))
        goto fail;
    step = "migration to version 4";
    if (v < 4 && sqlite3_exec(db, schema_v4, NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", SRV_SCHEMA_VERSION);
    step = "setting the schema version";
    if (v != SRV_SCHEMA_VERSION && sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    step = "committing the migration";
fail:
    snprintf(why, n, "%s: %s", step, sqlite3_errmsg(db));
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

struct sqlite3 *srv_store_sqlite(srv_store *s)
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
    if (sqlite3_open(path, &s->db) != SQLITE_OK) {
        snprintf(why, n, "cannot open database %s: %s", path,
                 s->db ? sqlite3_errmsg(s->db) : "out of memory");
        goto fail;
    }
    char sql[512];
    snprintf(sql, sizeof sql, "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s;",
             sync_full ? "FULL" : "NORMAL");
    char *err = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &err) != SQLITE_OK) {
        snprintf(why, n, "database %s: %s", path, err ? err : "error");
        sqlite3_free(err);
        goto fail;
    }
    sqlite3_busy_timeout(s->db, SRV_STORE_BUSY_MS);
    char mwhy[300];
    if (migrate(s->db, mwhy, sizeof mwhy) != 0) {
        snprintf(why, n, "database %s: %s", path, mwhy);
        goto fail;
    }
    if (sqlite3_prepare_v2(s->db, "INSERT INTO moves(game,n,player,move) VALUES(?,?,?,?)", -1,
                           &s->ins_move, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "UPDATE games SET seats=?, status=? WHERE id=?", -1,
                           &s->upd_meta, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "INSERT INTO games(id,setup,seats,status,turn_timer,created) "
                           "VALUES(?,?,?,?,?,?)", -1, &s->ins_game, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "SELECT player, move FROM moves WHERE game=? ORDER BY n", -1,
                           &s->sel_moves, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "SELECT " GAME_COLUMNS " FROM games WHERE id=?", -1,
                           &s->sel_over, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "SELECT " GAME_COLUMNS ", (SELECT count(*) FROM moves "
                           "WHERE game=games.id), r.finished, r.scores, r.winners FROM games "
                           "LEFT JOIN results r ON r.game=games.id "
                           "WHERE status IN ('over','abandoned') "
                           "ORDER BY created DESC, id DESC LIMIT ?", -1, &s->list_over,
                           NULL) != SQLITE_OK) {
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
    sqlite3_finalize(s->sel_over);
    sqlite3_finalize(s->list_over);
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

/* Run a write statement once and reset it at once: a statement left
 * unreset after an error (SQLITE_BUSY while another process holds the lock)
 * counts as still running, and then every later COMMIT of this connection
 * fails with "SQL statements in progress", long after the lock is gone. */
static int step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int bind_meta(srv_store *s, srv_game *g)
{
    char *seats = dump_free(srv_seats_store_json(g));
    if (!seats)
        return -1;
    sqlite3_reset(s->upd_meta);
    sqlite3_bind_text(s->upd_meta, 1, seats, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s->upd_meta, 2, srv_game_status(g), -1, SQLITE_STATIC);
    sqlite3_bind_text(s->upd_meta, 3, g->id, -1, SQLITE_TRANSIENT);
    free(seats);
    return step_done(s->upd_meta);
}

int srv_store_create_game(srv_store *s, srv_game *g)
{
    g->away_stored = 0;
    char *setup = dump_free(srv_setup_json(g));
    char *seats = dump_free(srv_seats_store_json(g));
    int rc = -1;
    /* the game and its rows in game_players and turn_clock: one transaction,
       one sync (the writer thread waits for the lock meanwhile) */
    if (setup && seats && sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK) {
        sqlite3_reset(s->ins_game);
        sqlite3_bind_text(s->ins_game, 1, g->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s->ins_game, 2, setup, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s->ins_game, 3, seats, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s->ins_game, 4, srv_game_status(g), -1, SQLITE_STATIC);
        sqlite3_bind_int(s->ins_game, 5, g->turn_timer);
        sqlite3_bind_int64(s->ins_game, 6, g->created);
        rc = step_done(s->ins_game);
        if (rc == 0) { /* the creator's seat, for profiles and "My games" */
            int64_t users[CH_MAX_PLAYERS];
            srv_players_of(g, users);
            rc = srv_players_write(s->db, g->id, users, CH_MAX_PLAYERS);
        }
        if (rc == 0 && g->days > 0) { /* a turn-based game in play at once */
            srv_batch_item it;
            memset(&it, 0, sizeof it);
            memcpy(it.id, g->id, sizeof it.id);
            srv_turn_batch(&it, g);
            rc = it.clock == 1 ? srv_turn_write(s->db, &it) : 0;
        }
        if (rc == 0 && sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
            rc = -1;
        if (rc) {
            note_err(s);
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        }
    } else if (setup && seats) {
        note_err(s);
    }
    free(setup);
    free(seats);
    return rc;
}

int srv_store_delete_game(srv_store *s, const char *id)
{
    /* only a game that never started (waiting, no move), with what refers
       to it: its seats' accounts (game_players) and its chat */
    static const char *const sql[] = {
        "DELETE FROM chat WHERE game=?1 AND EXISTS (SELECT 1 FROM games WHERE id=?1 AND "
        "status='waiting') AND NOT EXISTS (SELECT 1 FROM moves WHERE game=?1)",
        "DELETE FROM game_players WHERE game=?1 AND EXISTS (SELECT 1 FROM games WHERE id=?1 AND "
        "status='waiting') AND NOT EXISTS (SELECT 1 FROM moves WHERE game=?1)",
        "DELETE FROM games WHERE id=?1 AND status='waiting' AND "
        "NOT EXISTS (SELECT 1 FROM moves WHERE game=?1)"};
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        note_err(s);
        return -1;
    }
    for (size_t i = 0; i < sizeof sql / sizeof *sql; i++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(s->db, sql[i], -1, &st, NULL) != SQLITE_OK)
            goto fail;
        sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
        int rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE)
            goto fail;
    }
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return 0;
fail:
    note_err(s);
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

int srv_store_update_meta(srv_store *s, srv_game *g)
{
    return bind_meta(s, g);
}

static unsigned away_mask(const srv_game *g)
{
    unsigned m = 0;
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_HUMAN && g->seat[i].away)
            m |= 1u << i;
    return m;
}

int srv_batch_fill(srv_batch_item *it, srv_game *g)
{
    memset(it, 0, sizeof *it);
    memcpy(it->id, g->id, sizeof it->id);
    it->away = away_mask(g);
    if (g->npending) {
        it->moves = malloc((size_t)g->npending * sizeof *it->moves);
        if (!it->moves)
            return -1;
        memcpy(it->moves, g->pending, (size_t)g->npending * sizeof *it->moves);
        it->nmoves = g->npending;
    }
    /* a seat handed to a stand-in bot (turn timer) or taken back: the seats
       are written again with the moves, so a restart keeps the stand-in
       playing */
    if (g->meta_dirty || it->away != g->away_stored) {
        it->seats = dump_free(srv_seats_store_json(g));
        if (!it->seats) {
            free(it->moves);
            it->moves = NULL;
            return -1;
        }
        snprintf(it->status, sizeof it->status, "%s", srv_game_status(g));
    }
    srv_turn_batch(it, g);
    if (it->seats) { /* who sits where (profiles), and the result once over */
        srv_players_of(g, it->users);
        /* a game ended as abandoned (limits.c) has no result and no rating */
        if (g->status == GAME_OVER && !g->abandoned && !(it->result = srv_result_make(g))) {
            srv_batch_free(it);
            return -1;
        }
    }
    return 0;
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

int srv_store_write(srv_store *s, const srv_batch_item *items, int n)
{
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        note_err(s);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        const srv_batch_item *it = &items[k];
        for (int i = 0; i < it->nmoves; i++) {
            const srv_pending *p = &it->moves[i];
            sqlite3_reset(s->ins_move);
            sqlite3_bind_text(s->ins_move, 1, it->id, -1, SQLITE_STATIC);
            sqlite3_bind_int(s->ins_move, 2, p->n);
            sqlite3_bind_int(s->ins_move, 3, p->player);
            sqlite3_bind_text(s->ins_move, 4, p->move, -1, SQLITE_STATIC);
            if (step_done(s->ins_move) != 0)
                goto fail;
        }
        if (it->seats) {
            sqlite3_reset(s->upd_meta);
            sqlite3_bind_text(s->upd_meta, 1, it->seats, -1, SQLITE_STATIC);
            sqlite3_bind_text(s->upd_meta, 2, it->status, -1, SQLITE_STATIC);
            sqlite3_bind_text(s->upd_meta, 3, it->id, -1, SQLITE_STATIC);
            if (step_done(s->upd_meta) != 0)
                goto fail;
        }
        if (srv_turn_write(s->db, it) != 0)
            goto fail;
        if (it->seats && srv_players_write(s->db, it->id, it->users, CH_MAX_PLAYERS) != 0)
            goto fail;
        if (srv_result_write(s->db, it->id, it->result) != 0)
            goto fail;
    }
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    return 0;
fail:
    note_err(s);
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

int srv_store_commit(srv_store *s, srv_game *list)
{
    int n = 0;
    for (srv_game *g = list; g; g = g->next_commit)
        n++;
    srv_batch_item *items = calloc((size_t)(n ? n : 1), sizeof *items);
    if (!items)
        return -1;
    int k = 0, rc = 0;
    for (srv_game *g = list; g && rc == 0; g = g->next_commit)
        rc = srv_batch_fill(&items[k++], g);
    if (rc == 0)
        rc = srv_store_write(s, items, n);
    if (rc == 0) {
        k = 0;
        for (srv_game *g = list; g; g = g->next_commit)
            g->away_stored = items[k++].away;
    }
    for (int i = 0; i < n; i++)
        srv_batch_free(&items[i]);
    free(items);
    return rc;
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

/* A game from a row of GAME_COLUMNS (setup and seats only: no moves), or
 * NULL with the reason in why. */
static srv_game *game_from_row(sqlite3_stmt *st, char *why, size_t n)
{
    srv_game *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    g->vcache_decision = -1;
    const char *id = (const char *)sqlite3_column_text(st, 0);
    const char *st_setup = (const char *)sqlite3_column_text(st, 1);
    const char *st_seats = (const char *)sqlite3_column_text(st, 2);
    json_t *setup = st_setup ? json_loads(st_setup, 0, NULL) : NULL;
    json_t *seats = st_seats ? json_loads(st_seats, 0, NULL) : NULL;
    int ok = 0;
    if (!id || !setup || !seats)
        snprintf(why, n, "unreadable setup or seats");
    else if (srv_setup_from_json(g, setup, why, n) == 0 &&
             srv_seats_from_store(g, seats, why, n) == 0)
        ok = 1;
    json_decref(setup);
    json_decref(seats);
    if (!ok) {
        srv_game_free(g);
        return NULL;
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    g->turn_timer = sqlite3_column_int(st, 4);
    g->created = sqlite3_column_int64(st, 5);
    return g;
}

/* The game of the current row with its moves replayed, or NULL with the
 * reason in err (not logged). */
static srv_game *load_row_why(srv_store *s, sqlite3_stmt *st, char *err, size_t errn)
{
    json_t *moves = NULL;
    srv_game *g = game_from_row(st, err, errn);
    if (!g)
        goto bad;
    moves = srv_store_moves(s, g->id);
    if (!moves || srv_replay_moves(g, moves, -1, err, errn) != 0) {
        if (!moves)
            snprintf(err, errn, "the moves cannot be read: %s", sqlite3_errmsg(s->db));
        goto bad;
    }
    json_decref(moves);
    moves = NULL;
    const char *status = (const char *)sqlite3_column_text(st, 3);
    unsigned mask;
    int claimed_all = 1;
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_HUMAN && !g->seat[i].claimed)
            claimed_all = 0;
    g->status = claimed_all || !status || strcmp(status, "waiting") != 0 ? GAME_PLAYING
                                                                         : GAME_WAITING;
    if (ch_decider(&g->st, &mask) == CH_DEC_TERMINAL) {
        ch_scores(&g->st, g->scores, &g->winners);
        g->status = GAME_OVER;
    }
    if (status && strcmp(status, "abandoned") == 0) { /* limits.c */
        g->status = GAME_OVER;
        g->abandoned = 1;
    }
    /* a finished game needs no bots (they are made when needed anyway) */
    for (int i = 0; i < g->nseats && g->status != GAME_OVER; i++)
        if (g->seat[i].kind == SEAT_BOT && srv_seat_make_bot(g, i, err, errn) != 0)
            goto bad;
    g->decide_since_ms = srv_now_ms();
    if (srv_turn_loaded(s->db, g) != 0 || srv_results_loaded(s->db, g) != 0) {
        snprintf(err, errn, "its turn clock or result cannot be read: %s", sqlite3_errmsg(s->db));
        goto bad;
    }
    return g;
bad:
    json_decref(moves);
    srv_game_free(g);
    return NULL;
}

/* The game of the current row with its moves replayed, or NULL (logged). */
static srv_game *load_row(srv_store *s, sqlite3_stmt *st)
{
    const char *id = (const char *)sqlite3_column_text(st, 0);
    char err[300];
    srv_game *g = load_row_why(s, st, err, sizeof err);
    if (!g)
        fprintf(stderr, "chartered: game %s cannot be loaded: %s\n", id ? id : "?", err);
    return g;
}

/* The start's check of the whole file (PRAGMA quick_check: every page, every
 * index, no row lost) and of whether it can be written. A damaged file is
 * never silently half-used: the caller refuses to start unless told to skip
 * what cannot be read (--skip-damaged). 0 when fine, else the number of
 * problems, each printed on standard error. */
static int check_file(srv_store *s)
{
    sqlite3_stmt *st;
    int problems = 0;
    if (sqlite3_prepare_v2(s->db, "PRAGMA quick_check(20)", -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "chartered: database check: %s\n", sqlite3_errmsg(s->db));
        return 1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        if (line && strcmp(line, "ok") != 0) {
            fprintf(stderr, "chartered: database check: %s\n", line);
            problems++;
        }
    }
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "chartered: database check stopped: %s\n", sqlite3_errmsg(s->db));
        problems++;
    }
    sqlite3_finalize(st);
    return problems;
}

int srv_store_writable(srv_store *s, char *why, size_t n)
{
    /* a file the server may read but not write: SQLite opens it read-only
       without a word, and every creation and move would fail later */
    if (sqlite3_db_readonly(s->db, "main") == 1) {
        snprintf(why, n, "the database is read-only (its file or folder cannot be written)");
        return -1;
    }
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS write_probe(x); "
                     "DROP TABLE write_probe; ROLLBACK", NULL, NULL, NULL) != SQLITE_OK) {
        note_err(s);
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        snprintf(why, n, "the database cannot be written: %s", s->err);
        return -1;
    }
    return 0;
}

int srv_store_load(srv_store *s, int skip_damaged, char *why, size_t n)
{
    sqlite3_stmt *st;
    int problems = check_file(s);
    /* finished games stay in the database until asked for, and so do the
       turn-based games in play (turnbased.c) */
    if (sqlite3_prepare_v2(s->db, "SELECT " GAME_COLUMNS " FROM games WHERE status NOT IN ('over','abandoned') "
                           "AND id NOT IN (SELECT game FROM turn_clock) "
                           "ORDER BY created, id", -1, &st, NULL) != SQLITE_OK) {
        snprintf(why, n, "database: %s", sqlite3_errmsg(s->db));
        return -1;
    }
    int count = 0, bad = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(st, 0);
        char err[300];
        srv_game *g = load_row_why(s, st, err, sizeof err);
        if (g) {
            srv_game_add(g);
            count++;
        } else {
            fprintf(stderr, "chartered: game %s cannot be loaded: %s\n", id ? id : "?", err);
            bad++;
        }
    }
    /* the loop also stops on an error (a damaged page): then games after
       it were never seen, which must not pass for "no more games" */
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "chartered: reading the games stopped after %d: %s\n", count + bad,
                sqlite3_errmsg(s->db));
        problems++;
    }
    sqlite3_finalize(st);
    if (problems || bad) {
        if (!skip_damaged) {
            snprintf(why, n, "the database is damaged: %d game%s cannot be loaded, %d "
                     "problem%s in the file (listed above). Restore a backup, or start with "
                     "--skip-damaged to serve the %d game%s that load (the rest stays in "
                     "the file as it is)", bad, bad == 1 ? "" : "s", problems,
                     problems == 1 ? "" : "s", count, count == 1 ? "" : "s");
            return -1;
        }
        fprintf(stderr, "chartered: --skip-damaged: serving %d game%s; %d game%s not loaded, "
                "%d problem%s in the file (listed above)\n", count, count == 1 ? "" : "s", bad,
                bad == 1 ? "" : "s", problems, problems == 1 ? "" : "s");
    }
    return count;
}

srv_game *srv_store_load_over(srv_store *s, const char *id)
{
    srv_game *g = NULL;
    sqlite3_reset(s->sel_over);
    sqlite3_bind_text(s->sel_over, 1, id, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(s->sel_over) == SQLITE_ROW)
        g = load_row(s, s->sel_over);
    sqlite3_reset(s->sel_over);
    sqlite3_clear_bindings(s->sel_over);
    return g;
}

json_t *srv_store_list_over(srv_store *s, int limit)
{
    json_t *a = json_array();
    sqlite3_reset(s->list_over);
    sqlite3_bind_int(s->list_over, 1, limit);
    int rc;
    while ((rc = sqlite3_step(s->list_over)) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(s->list_over, 0);
        srv_game *held = id ? srv_game_held(id) : NULL;
        json_t *summary;
        if (held) { /* in memory: its summary shows who is connected */
            summary = srv_game_summary(held);
        } else {
            /* the summary needs the setup, the seats and the move count only:
               no replay */
            char why[300];
            srv_game *g = game_from_row(s->list_over, why, sizeof why);
            if (!g)
                continue;
            g->status = GAME_OVER;
            g->nmoves = g->ncommitted = sqlite3_column_int(s->list_over, 6);
            summary = srv_game_summary(g);
            srv_game_free(g);
            /* the scores come from the stored result (results.c) */
            json_object_del(summary, "scores");
            json_object_del(summary, "winners");
        }
        if (sqlite3_column_type(s->list_over, 7) != SQLITE_NULL) {
            json_t *sc = json_loads((const char *)sqlite3_column_text(s->list_over, 8), 0, NULL);
            json_t *w = json_loads((const char *)sqlite3_column_text(s->list_over, 9), 0, NULL);
            json_object_set_new(summary, "finished",
                                json_integer(sqlite3_column_int64(s->list_over, 7)));
            if (sc)
                json_object_set_new(summary, "scores", sc);
            if (w)
                json_object_set_new(summary, "winners", w);
        }
        json_array_append_new(a, summary);
    }
    sqlite3_reset(s->list_over);
    if (rc != SQLITE_DONE) {
        lwsl_err("database: %s\n", sqlite3_errmsg(s->db));
        json_decref(a);
        return NULL;
    }
    return a;
}
