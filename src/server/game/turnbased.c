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

#include "game/game_impl.h"

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
            srv_logf(SRV_LOG_WARN, "config.ignored", "variable=CHARTERED_DAY_SECONDS value=%.40s "
                    "must be seconds above 0: using %d", v, DAY_SECONDS_DEFAULT);
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

int srv_turn_write(db_conn *db, const srv_batch_item *it)
{
    if (!it->clock)
        return 0;
    if (it->clock == 2)
        return db_exec(db, "DELETE FROM turn_clock WHERE game=$1", DB_P(DB_T(it->id))) ? -1 : 0;
    return db_exec(db, "INSERT INTO turn_clock(game, since, days, to_move) VALUES($1,$2,$3,$4) "
                   "ON CONFLICT(game) DO UPDATE SET since=excluded.since, days=excluded.days, "
                   "to_move=excluded.to_move",
                   DB_P(DB_T(it->id), DB_I(it->since), DB_I(it->days), DB_I(it->to_move)))
               ? -1 : 0;
}

int srv_turn_loaded(db_conn *db, srv_game *g)
{
    if (g->days <= 0 || g->status != GAME_PLAYING)
        return 0;
    int rc;
    int64_t since = db_one_int(db, "SELECT since FROM turn_clock WHERE game=$1",
                               DB_P(DB_T(g->id)), 0, &rc);
    if (since > 0)
        /* the clock goes on from when the decision began, not from the load */
        g->decide_since_ms = since;
    return rc == 0 ? 0 : -1;
}

/* The clocks' once-a-second query is read on the writer thread
 * (srv_dbjob_submit, as reads.c does: the loop never waits on the
 * database for it); the games it names are acted on, on the loop, when it
 * is back. One at a time: while the writer is slow, no queries pile up. */
typedef struct wake_job {
    int64_t now_ms, day;
    int n;
    char ids[64][SRV_ID_HEX + 1];
} wake_job;
static int wake_busy;

/* On the writer thread, with its connection. */
static void wake_run(db_conn *db, void *arg)
{
    wake_job *w = arg;
    /* the clock is at least one day: the index on since narrows it down */
    db_rows *r = db_query(db, "SELECT game FROM turn_clock WHERE since <= $1 AND "
                          "since + days * $2 <= $3 ORDER BY since LIMIT 64",
                          DB_P(DB_I(w->now_ms - w->day), DB_I(w->day), DB_I(w->now_ms)));
    if (!r)
        return;
    while (w->n < 64 && db_next(r) == 1) {
        const char *id = db_text(r, 0);
        if (id && strlen(id) == SRV_ID_HEX)
            memcpy(w->ids[w->n++], id, SRV_ID_HEX + 1);
    }
    db_end(r);
}

/* On the loop. */
static void wake_done(void *arg)
{
    wake_job *w = arg;
    wake_busy = 0;
    for (int i = 0; i < w->n && g_storage.store && !g_tables.stopping; i++) {
        if (srv_game_held(w->ids[i]))
            continue; /* in memory: the timers (play.c) look after it */
        srv_game *g = NULL;
        if (srv_table_up.wake) {
            /* a cluster node: the game is played by the node that takes its
               lease first (cluster.c); another node's game is its own */
            int r = srv_table_up.wake(w->ids[i], &g);
            if (r == 0)
                continue;
        } else {
            g = srv_game_find(w->ids[i]);
        }
        if (!g) {
            /* it cannot be read back (logged by the load): do not try again
               every second */
            db_exec(srv_store_db(g_storage.store), "DELETE FROM turn_clock WHERE game=$1",
                    DB_P(DB_T(w->ids[i])));
            continue;
        }
        srv_game_kick_bots(g);
    }
    free(w);
}

void srv_turn_wake(int64_t now_ms)
{
    static int64_t last;
    if (wake_busy || now_ms - last < 1000) /* once a second is enough for clocks in days */
        return;
    last = now_ms;
    wake_job *w = calloc(1, sizeof *w);
    if (!w)
        return;
    w->now_ms = now_ms;
    w->day = srv_day_ms(); /* (set here, on the loop: the writer does not touch it) */
    wake_busy = 1;
    srv_dbjob_submit(wake_run, wake_done, w); /* may call wake_done at once */
}

int srv_turn_count(const char *owner, int64_t user_id)
{
    int n = 0;
    for (srv_game *g = g_tables.games; g; g = g->lnext)
        if (g->days > 0 && g->status != GAME_OVER && srv_seat_of(g, owner) >= 0)
            n++;
    /* and those out of memory (accounts only: game_players) */
    db_rows *r;
    if (user_id > 0 && g_storage.store &&
        (r = db_query(srv_store_db(g_storage.store), "SELECT t.game FROM turn_clock t JOIN "
                      "game_players p ON p.game=t.game WHERE p.user_id=$1",
                      DB_P(DB_I(user_id))))) {
        while (db_next(r) == 1) {
            const char *id = db_text(r, 0);
            if (id && !srv_game_held(id))
                n++;
        }
        db_end(r);
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
