/* turnbased.c: turn-based games (docs/protocol.md, "Turn-based games"). A
 * game is live (the default: an optional turn timer in seconds) or
 * turn-based: each decision of a person may take 1, 2, 3 or 7 days; when the
 * clock runs out the stand-in bot of the turn timer plays for that seat
 * (play.c) until the person comes back.
 *
 * A turn-based game that nobody looks at costs no memory: once it has had no
 * client for the eviction delay and waits on a person, it is dropped like a
 * finished game (lobby.c) and read back when someone asks for it
 * (srv_game_find). What brings it back on its own is the table turn_clock,
 * one row per turn-based game in play: when its current decision began
 * (since; 0 when a bot must move), its days per move, and the seats of the
 * people to move (to_move, bit s: seat s; for "My games"). The writer thread
 * keeps the row with each commit (srv_turn_batch, srv_turn_write); the tick
 * reads the games whose clock has run out or whose bot must move
 * (srv_turn_wake). At start, turn-based games in play are not loaded at all.
 * The row holds the start of the decision, not its deadline, so the clock
 * follows the length of a day the server runs with.
 *
 * The length of a "day" is 86,400 s; the environment variable
 * CHARTERED_DAY_SECONDS sets another (the tests use a few seconds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "server.h"

#define DAY_SECONDS_DEFAULT 86400

int64_t srv_day_ms(void)
{
    static int64_t ms = -1;
    if (ms >= 0)
        return ms;
    ms = (int64_t)DAY_SECONDS_DEFAULT * 1000;
    const char *v = getenv("CHARTERED_DAY_SECONDS");
    if (v && *v) {
        char *end;
        double d = strtod(v, &end);
        if (*end || !(d > 0 && d <= 1e7))
            fprintf(stderr, "chartered: CHARTERED_DAY_SECONDS must be seconds above 0, not "
                    "'%.40s': using %d\n", v, DAY_SECONDS_DEFAULT);
        else
            ms = (int64_t)(d * 1000);
    }
    return ms;
}

int64_t srv_game_clock_ms(const srv_game *g)
{
    if (g->days > 0)
        return g->days * srv_day_ms();
    return (int64_t)g->turn_timer * 1000;
}

int srv_turn_schema(sqlite3 *db)
{
    /* a database of the few builds that made turn_clock before the schema
       had versions lacks to_move: the table held only clocks, which the
       next commit of each game writes again */
    sqlite3_stmt *st;
    int has_to_move = 0, exists = 0;
    if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info('turn_clock')", -1, &st,
                           NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            exists = 1;
            has_to_move |= !strcmp((const char *)sqlite3_column_text(st, 0), "to_move");
        }
        sqlite3_finalize(st);
    }
    if (exists && !has_to_move &&
        sqlite3_exec(db, "ALTER TABLE turn_clock ADD COLUMN to_move INTEGER NOT NULL DEFAULT 0",
                     NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    return sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS turn_clock ("
                        " game TEXT PRIMARY KEY, since INTEGER NOT NULL, days INTEGER NOT NULL,"
                        " to_move INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;"
                        "CREATE INDEX IF NOT EXISTS turn_clock_since ON turn_clock(since);",
                        NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

int srv_turn_read(srv_game *g, json_t *req, char *why, size_t n)
{
    json_t *mode = json_object_get(req, "mode"), *days = json_object_get(req, "days");
    const char *m = json_string_value(mode);
    if (mode && !json_is_null(mode) && (!m || (strcmp(m, "live") && strcmp(m, "turn-based")))) {
        snprintf(why, n, "mode must be \"live\" or \"turn-based\"");
        return -1;
    }
    int turn = m && !strcmp(m, "turn-based");
    if (!turn) {
        if (days && !json_is_null(days)) {
            snprintf(why, n, "days is for turn-based games only (\"mode\":\"turn-based\")");
            return -1;
        }
        g->days = 0;
        return 0;
    }
    json_int_t d = 3; /* the default clock: 3 days per move */
    if (days && !json_is_null(days)) {
        d = json_is_integer(days) ? json_integer_value(days) : -1;
        if (d != 1 && d != 2 && d != 3 && d != 7) {
            snprintf(why, n, "days must be 1, 2, 3 or 7 (per move)");
            return -1;
        }
    }
    if (g->turn_timer) {
        snprintf(why, n, "a turn-based game has its clock in days: no turn_timer");
        return -1;
    }
    g->days = (int)d;
    return 0;
}

/* A bot (or a stand-in) must move now: the game cannot wait out of memory. */
static int bot_decides(const srv_game *g)
{
    for (int s = 0; s < g->nseats; s++)
        if ((g->seat[s].kind == SEAT_BOT || g->seat[s].away) && srv_seat_decides(g, s))
            return 1;
    return 0;
}

int srv_turn_idle(const srv_game *g)
{
    if (g->days <= 0 || g->status != GAME_PLAYING || g->clients || g->npending || g->queued ||
        g->commit_busy || g->meta_dirty || g->views_job || bot_decides(g))
        return 0;
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].job)
            return 0;
    return 1;
}

void srv_turn_batch(srv_batch_item *it, const srv_game *g)
{
    it->clock = 0;
    if (g->days <= 0)
        return;
    if (g->status != GAME_PLAYING) {
        it->clock = 2; /* waiting has no row yet; over: no more */
        return;
    }
    it->clock = 1;
    /* a new decision starts with these moves (the clock starts again);
       else the seats changed and the clock goes on */
    it->since = bot_decides(g) ? 0 : it->nmoves ? srv_now_ms() : g->decide_since_ms;
    it->days = g->days;
    it->to_move = 0;
    for (int s = 0; s < g->nseats; s++)
        if (g->seat[s].kind == SEAT_HUMAN && !g->seat[s].away && srv_seat_decides(g, s))
            it->to_move |= 1u << s;
}

int srv_turn_write(sqlite3 *db, const srv_batch_item *it)
{
    if (!it->clock)
        return 0;
    sqlite3_stmt *st;
    const char *sql = it->clock == 1
        ? "INSERT INTO turn_clock(game, since, days, to_move) VALUES(?1, ?2, ?3, ?4) "
          "ON CONFLICT(game) DO UPDATE SET since=excluded.since, days=excluded.days, "
          "to_move=excluded.to_move"
        : "DELETE FROM turn_clock WHERE game=?1";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, it->id, -1, SQLITE_STATIC);
    if (it->clock == 1) {
        sqlite3_bind_int64(st, 2, it->since);
        sqlite3_bind_int(st, 3, it->days);
        sqlite3_bind_int(st, 4, (int)it->to_move);
    }
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int srv_turn_loaded(sqlite3 *db, srv_game *g)
{
    if (g->days <= 0 || g->status != GAME_PLAYING)
        return 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT since FROM turn_clock WHERE game=?", -1, &st,
                           NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0)
        /* the clock goes on from when the decision began, not from the load */
        g->decide_since_ms = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return 0;
}

void srv_turn_wake(sqlite3 *db, int64_t now_ms)
{
    static int64_t last;
    if (now_ms - last < 1000) /* once a second is enough for clocks in days */
        return;
    last = now_ms;
    sqlite3_stmt *st;
    /* the clock is at least one day: the index on since narrows it down */
    if (sqlite3_prepare_v2(db, "SELECT game FROM turn_clock WHERE since <= ?1 - ?2 AND "
                           "since + days * ?2 <= ?1 ORDER BY since LIMIT 64", -1, &st,
                           NULL) != SQLITE_OK)
        return;
    sqlite3_bind_int64(st, 1, now_ms);
    sqlite3_bind_int64(st, 2, srv_day_ms());
    char ids[64][SRV_ID_HEX + 1];
    int n = 0;
    while (n < 64 && sqlite3_step(st) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(st, 0);
        if (id && strlen(id) == SRV_ID_HEX)
            memcpy(ids[n++], id, SRV_ID_HEX + 1);
    }
    sqlite3_finalize(st);
    for (int i = 0; i < n; i++) {
        if (srv_game_held(ids[i]))
            continue; /* in memory: the timers (play.c) look after it */
        srv_game *g = srv_game_find(ids[i]);
        if (!g) {
            /* it cannot be read back (logged by the load): do not try again
               every second */
            sqlite3_stmt *del;
            if (sqlite3_prepare_v2(db, "DELETE FROM turn_clock WHERE game=?", -1, &del,
                                   NULL) == SQLITE_OK) {
                sqlite3_bind_text(del, 1, ids[i], -1, SQLITE_STATIC);
                sqlite3_step(del);
                sqlite3_finalize(del);
            }
            continue;
        }
        srv_game_kick_bots(g);
    }
}

int srv_turn_count(const char *owner, int64_t user_id)
{
    int n = 0;
    for (srv_game *g = g_srv->games; g; g = g->lnext)
        if (g->days > 0 && g->status != GAME_OVER && srv_seat_of(g, owner) >= 0)
            n++;
    /* and those out of memory (accounts only: game_players) */
    sqlite3_stmt *st;
    if (user_id > 0 && g_srv->store &&
        sqlite3_prepare_v2(srv_store_sqlite(g_srv->store), "SELECT t.game FROM turn_clock t JOIN "
                           "game_players p ON p.game=t.game WHERE p.user_id=?", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, user_id);
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *id = (const char *)sqlite3_column_text(st, 0);
            if (id && !srv_game_held(id))
                n++;
        }
        sqlite3_finalize(st);
    }
    return n;
}

int srv_turn_full(const srv_game *g, const char *owner, int64_t user_id, char *why, size_t n)
{
    if (g->days <= 0 || !owner || !owner[0] || srv_seat_of(g, owner) >= 0)
        return 0;
    if (srv_turn_count(owner, user_id) < SRV_TURN_GAMES_MAX)
        return 0;
    snprintf(why, n, "you already have %d turn-based games in play: finish one first",
             SRV_TURN_GAMES_MAX);
    return 1;
}
