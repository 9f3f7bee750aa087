/* saved.c: games stored and loaded, the game layer's side of persistence
 * (store/ knows games only as rows). A game is stored as its setup, its
 * seats (seat tokens as hashes, the sessions they are bound to) and its move
 * list; the state is never stored but rebuilt by replaying the moves (the
 * engine is deterministic), which is how every game resumes after a restart
 * or a kill -9. What a commit writes is copied from the game on the loop
 * (srv_batch_fill) and written by store.c's srv_store_write, on the writer
 * thread (committer.c); the turn clock, players and result rows of an item
 * are written by the writer the batch carries (write_rows, below).
 *
 * Finished games (and turn-based games in play, turnbased.c) are not loaded
 * at start: they are read back one at a time when someone asks for one
 * (srv_store_load_over), and listed from here (srv_store_list_over), so
 * memory holds only the games in play and the finished ones looked at
 * lately (lobby.c drops them again).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game_impl.h"

#define GAME_COLUMNS "id, setup, seats, status, turn_timer, created"
/* The public lists leave out unlisted practice games (lobby.c, "listed"):
 * their stored setup, written compact by srv_setup_json, holds the member
 * "unlisted":true (a string member cannot: its quotes are escaped). */
#define NOT_UNLISTED "setup NOT LIKE '%\"unlisted\":true%' "


/* Compact text of j, which is released. */
static char *dump_free(json_t *j)
{
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    return s;
}

static const char *sql_upd_meta = "UPDATE games SET seats=$1, status=$2 WHERE id=$3";

static int bind_meta(srv_store *s, srv_game *g)
{
    db_conn *db = srv_store_db(s);
    char *seats = dump_free(srv_seats_store_json(g));
    if (!seats)
        return -1;
    int rc = db_exec(db, sql_upd_meta,
                     DB_P(DB_T(seats), DB_T(srv_game_status(g)), DB_T(g->id)));
    free(seats);
    if (rc)
        srv_store_note_err(s);
    return rc ? -1 : 0;
}

int srv_store_create_game(srv_store *s, srv_game *g)
{
    db_conn *db = srv_store_db(s);
    g->away_stored = 0;
    char *setup = dump_free(srv_setup_json(g));
    char *seats = dump_free(srv_seats_store_json(g));
    int rc = -1;
    /* the game and its rows in game_players and turn_clock: one transaction,
       one sync (the writer thread waits for the lock meanwhile) */
    if (setup && seats && db_begin(db) == 0) {
        rc = db_exec(db, "INSERT INTO games(id,setup,seats,status,turn_timer,created) "
                     "VALUES($1,$2,$3,$4,$5,$6)",
                     DB_P(DB_T(g->id), DB_T(setup), DB_T(seats), DB_T(srv_game_status(g)),
                          DB_I(g->turn_timer), DB_I(g->created)));
        if (rc == 0) { /* the creator's seat, for profiles and "My games" */
            int64_t users[CH_MAX_PLAYERS];
            srv_players_of(g, users);
            rc = srv_players_write(db, g->id, users, CH_MAX_PLAYERS);
        }
        if (rc == 0 && g->days > 0) { /* a turn-based game in play at once */
            srv_batch_item it;
            memset(&it, 0, sizeof it);
            memcpy(it.id, g->id, sizeof it.id);
            srv_turn_batch(&it, g);
            rc = it.clock == 1 ? srv_turn_write(db, &it) : 0;
        }
        if (rc == 0 && db_commit(db) != 0)
            rc = -1;
        if (rc) {
            srv_store_note_err(s);
            db_rollback(db);
        }
    } else if (setup && seats) {
        srv_store_note_err(s);
        db_rollback(db);
    }
    free(setup);
    free(seats);
    return rc ? -1 : 0;
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

/* The rows of an item beyond its moves and seats, in the writer's
 * transaction (srv_store_write calls it, on the writer thread): its turn
 * clock, who sits where, and its result once over. */
static int write_rows(db_conn *db, const srv_batch_item *it)
{
    if (srv_turn_write(db, it) != 0)
        return -1;
    if (it->seats && srv_players_write(db, it->id, it->users, CH_MAX_PLAYERS) != 0)
        return -1;
    return srv_result_write(db, it->id, it->result);
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
    it->write_rows = write_rows;
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

/* A game from a row of GAME_COLUMNS (setup and seats only: no moves), or
 * NULL with the reason in why. */
static srv_game *game_from_row(db_rows *st, char *why, size_t n)
{
    srv_game *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    g->vcache_decision = -1;
    const char *id = db_text(st, 0);
    const char *st_setup = db_text(st, 1);
    const char *st_seats = db_text(st, 2);
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
    g->turn_timer = (int)db_int(st, 4);
    g->created = db_int(st, 5);
    return g;
}

/* The game of the current row with its moves replayed, or NULL with the
 * reason in err (not logged). */
static srv_game *load_row_why(db_conn *db, db_rows *st, char *err, size_t errn)
{
    json_t *moves = NULL;
    srv_game *g = game_from_row(st, err, errn);
    if (!g)
        goto bad;
    moves = srv_moves_read(db, g->id);
    if (!moves || srv_replay_moves(g, moves, -1, err, errn) != 0) {
        if (!moves)
            snprintf(err, errn, "the moves cannot be read: %s", db_errmsg(db));
        goto bad;
    }
    json_decref(moves);
    moves = NULL;
    const char *status = db_text(st, 3);
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
    if (status && strcmp(status, "aborted") == 0) { /* a moderator's (limits.c) */
        g->status = GAME_OVER;
        g->abandoned = 2;
    }
    g->end_logged = g->status == GAME_OVER; /* its end was said when it was stored */
    /* a finished game needs no bots (they are made when needed anyway) */
    for (int i = 0; i < g->nseats && g->status != GAME_OVER; i++)
        if (g->seat[i].kind == SEAT_BOT && srv_seat_make_bot(g, i, err, errn) != 0)
            goto bad;
    g->decide_since_ms = srv_now_ms();
    if (srv_turn_loaded(db, g) != 0 || srv_results_loaded(db, g) != 0) {
        snprintf(err, errn, "its turn clock or result cannot be read: %s", db_errmsg(db));
        goto bad;
    }
    return g;
bad:
    json_decref(moves);
    srv_game_free(g);
    return NULL;
}

/* The game of the current row with its moves replayed, or NULL (logged). */
static srv_game *load_row(db_conn *db, db_rows *st)
{
    const char *id = db_text(st, 0);
    char err[300];
    srv_game *g = load_row_why(db, st, err, sizeof err);
    if (!g)
        srv_logf(SRV_LOG_ERROR, "game.unreadable", "game=%s game %s cannot be loaded: %s",
                id ? id : "?", id ? id : "?", err);
    return g;
}

int srv_store_load(srv_store *s, int skip_damaged, char *why, size_t n)
{
    db_conn *db = srv_store_db(s);
    /* The start's check of the whole database (db_check; SQLite: PRAGMA
     * quick_check: every page, every index, no row lost). A damaged file is
     * never silently half-used: the start is refused unless told to skip
     * what cannot be read (--skip-damaged). */
    int problems = db_check(db);
    /* finished games stay in the database until asked for, and so do the
       turn-based games in play (turnbased.c) */
    db_rows *st = db_query(db, "SELECT " GAME_COLUMNS " FROM games WHERE status NOT IN "
                           "('over','abandoned','aborted') AND id NOT IN (SELECT game FROM turn_clock) "
                           "ORDER BY created, id", 0, NULL);
    if (!st) {
        snprintf(why, n, "database: %s", db_errmsg(db));
        return -1;
    }
    int count = 0, bad = 0, rc;
    while ((rc = db_next(st)) == 1) {
        const char *id = db_text(st, 0);
        char err[300];
        srv_game *g = load_row_why(db, st, err, sizeof err);
        if (g) {
            srv_game_add(g);
            count++;
        } else {
            srv_logf(SRV_LOG_ERROR, "game.unreadable", "game=%s game %s cannot be loaded: %s",
                    id ? id : "?", id ? id : "?", err);
            bad++;
        }
    }
    /* the loop also stops on an error (a damaged page): then games after
       it were never seen, which must not pass for "no more games" */
    if (rc != 0) {
        srv_logf(SRV_LOG_ERROR, "db.error", "games=%d reading the games stopped: %s", count + bad,
                db_errmsg(db));
        problems++;
    }
    db_end(st);
    if (problems || bad) {
        if (!skip_damaged) {
            snprintf(why, n, "the database is damaged: %d game%s cannot be loaded, %d "
                     "problem%s in the file (listed above). Restore a backup, or start with "
                     "--skip-damaged to serve the %d game%s that load (the rest stays in "
                     "the file as it is)", bad, bad == 1 ? "" : "s", problems,
                     problems == 1 ? "" : "s", count, count == 1 ? "" : "s");
            return -1;
        }
        srv_logf(SRV_LOG_WARN, "games.damaged", "games=%d unreadable=%d problems=%d "
                "--skip-damaged: serving the games that load; the others and the file's "
                "problems are listed above", count, bad, problems);
    }
    return count;
}

srv_game *srv_store_load_over(srv_store *s, const char *id)
{
    return srv_store_load_db(srv_store_db(s), id);
}

srv_game *srv_store_load_db(db_conn *db, const char *id)
{
    srv_game *g = NULL;
    db_rows *st = db_query(db, "SELECT " GAME_COLUMNS " FROM games WHERE id=$1",
                           DB_P(DB_T(id)));
    if (st && db_next(st) == 1)
        g = load_row(db, st);
    db_end(st);
    return g;
}

json_t *srv_store_list_idle_db(db_conn *db, int limit)
{
    json_t *a = json_array();
    db_rows *st = db_query(db, "SELECT " GAME_COLUMNS ", (SELECT count(*) FROM moves "
                           "WHERE game=games.id), t.days FROM games JOIN turn_clock t ON "
                           "t.game=games.id WHERE status NOT IN ('over','abandoned','aborted') AND "
                           NOT_UNLISTED "ORDER BY created DESC, id DESC LIMIT $1", DB_P(DB_I(limit)));
    int rc = st ? 0 : -1;
    while (st && (rc = db_next(st)) == 1) {
        const char *id = db_text(st, 0), *status = db_text(st, 3);
        if (!id)
            continue; /* (games held in memory are dropped by srv_list_held) */
        /* setup, seats and move count: no replay, nothing kept in memory */
        char why[300];
        srv_game *g = game_from_row(st, why, sizeof why);
        if (!g)
            continue;
        g->status = status && !strcmp(status, "waiting") ? GAME_WAITING : GAME_PLAYING;
        g->nmoves = g->ncommitted = (int)db_int(st, 6);
        g->days = (int)db_int(st, 7);
        json_array_append_new(a, srv_game_summary(g));
        srv_game_free(g);
    }
    if (st && db_end(st) != 0)
        rc = -1;
    if (rc != 0) {
        srv_logf(SRV_LOG_ERROR, "db.error", "%s", db_errmsg(db));
        json_decref(a);
        return NULL;
    }
    return a;
}

json_t *srv_store_list_over_db(db_conn *db, int limit)
{
    json_t *a = json_array();
    db_rows *st = db_query(db, "SELECT " GAME_COLUMNS ", (SELECT count(*) FROM moves "
                           "WHERE game=games.id), r.finished, r.scores, r.winners FROM games "
                           "LEFT JOIN results r ON r.game=games.id "
                           "WHERE status IN ('over','abandoned','aborted') AND " NOT_UNLISTED
                           "ORDER BY created DESC, id DESC LIMIT $1", DB_P(DB_I(limit)));
    int rc = st ? 0 : -1;
    while (st && (rc = db_next(st)) == 1) {
        json_t *summary;
        {
            /* the summary needs the setup, the seats and the move count only:
               no replay (a game held in memory takes its place on the loop:
               srv_list_held) */
            char why[300];
            srv_game *g = game_from_row(st, why, sizeof why);
            if (!g)
                continue;
            g->status = GAME_OVER;
            g->nmoves = g->ncommitted = (int)db_int(st, 6);
            summary = srv_game_summary(g);
            srv_game_free(g);
            /* the scores come from the stored result (results.c) */
            json_object_del(summary, "scores");
            json_object_del(summary, "winners");
        }
        if (!db_null(st, 7)) {
            json_t *sc = json_loads(db_text(st, 8), 0, NULL);
            json_t *w = json_loads(db_text(st, 9), 0, NULL);
            json_object_set_new(summary, "finished", json_integer(db_int(st, 7)));
            if (sc)
                json_object_set_new(summary, "scores", sc);
            if (w)
                json_object_set_new(summary, "winners", w);
        }
        json_array_append_new(a, summary);
    }
    if (st && db_end(st) != 0)
        rc = -1;
    if (rc != 0) {
        srv_logf(SRV_LOG_ERROR, "db.error", "%s", db_errmsg(db));
        json_decref(a);
        return NULL;
    }
    return a;
}

void srv_list_held(json_t *a, int over)
{
    for (size_t i = 0; i < json_array_size(a);) {
        json_t *old = json_array_get(a, i);
        srv_game *held = srv_game_held(json_string_value(json_object_get(old, "id")));
        if (!held) {
            i++;
        } else if (!over) { /* in play and in memory: listed from there */
            json_array_remove(a, i);
        } else { /* in memory: its summary shows who is connected */
            json_t *summary = srv_game_summary(held);
            if (json_object_get(old, "finished")) /* the stored result wins */
                for (const char *const *k = (const char *const[]){"finished", "scores",
                                                                   "winners", NULL};
                     *k; k++)
                    if (json_object_get(old, *k))
                        json_object_set(summary, *k, json_object_get(old, *k));
            json_array_set_new(a, i++, summary);
        }
    }
}

json_t *srv_store_list_over(srv_store *s, int limit)
{
    json_t *a = srv_store_list_over_db(srv_store_db(s), limit);
    srv_list_held(a, 1);
    return a;
}

json_t *srv_store_list_idle(srv_store *s, int limit)
{
    json_t *a = srv_store_list_idle_db(srv_store_db(s), limit);
    srv_list_held(a, 0);
    return a;
}
