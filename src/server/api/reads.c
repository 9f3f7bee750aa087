/* reads.c: the database reads a request waits for, made off the event loop
 * (the server's rule: one event loop that never blocks). A summary, a
 * replay or a watch of a game that is not in memory (finished and evicted,
 * turn-based and idle, or another node's game), and the session of a
 * request's cookie, the lobby's lists, and the players' pages (a profile,
 * a leaderboard, "My games": profile_api.c), are read on the writer thread (srv_dbjob_submit, in
 * order with the commits, so a read sees every write made before it); the
 * request is answered when the read is back (http_api.c, ws_session.c).
 *
 * A read is asked with srv_read_new and srv_read_submit; on the loop its
 * done function gets it back with the game loaded (and put in memory, unless
 * another read or a client loaded it meanwhile: then that copy is used) and
 * the session found. A request that goes away meanwhile clears its waiter
 * (wsi or client); the read then just ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api/api.h"

srv_read *srv_read_new(void)
{
    return calloc(1, sizeof(srv_read));
}

/* On the writer thread, with its connection. */
static void run(db_conn *db, void *arg)
{
    srv_read *r = arg;
    if (r->want_ident)
        r->ident_found = srv_session_lookup_db(db, r->token, &r->ident) == 0;
    if (r->want_alive)
        r->alive = srv_session_alive_db(db, r->hash);
    if (r->want_alive && r->alive && r->uid > 0) /* a chat's sender muted? */
        r->muted = srv_mod_sanction_db(db, r->uid, "mute", srv_now_ms(), &r->muted_until,
                                       NULL, 0) > 0;
    if (r->want_game)
        r->g = srv_store_load_db(db, r->game);
    if (r->want_list)
        r->list = r->list_over ? srv_store_list_over_db(db, 200) : srv_store_list_idle_db(db, 200);
    if (r->want_profile) /* after the session: "My games" is the session's */
        srv_profile_read_db(db, r);
    sodium_memzero(r->token, sizeof r->token);
}

/* On the loop. */
static void done(void *arg)
{
    srv_read *r = arg;
    if (r->want_game) {
        srv_game *held = srv_game_held(r->game);
        if (held) { /* loaded meanwhile (another read, a client): that one */
            if (r->g)
                srv_game_free(r->g);
            r->g = held;
        } else if (r->g) {
            srv_game_add(r->g);
            g_tables.games_reloaded++;
        }
        r->game_absent = r->g == NULL;
    }
    if (r->want_list)
        srv_list_held(r->list, r->list_over);
    r->done(r);
}

int srv_read_submit(srv_read *r, void (*fn)(srv_read *))
{
    r->done = fn;
    return srv_dbjob_submit(run, done, r);
}

/* Replays (GET /api/games/ID/replay) are rebuilt on the event loop: the
 * stored moves read, every move applied again and described, a few
 * milliseconds for a whole game. Unbounded, a client asking in a loop held
 * the loop and every game's frames (issue 28, low). A token bucket for the
 * whole server bounds their share of the loop: CHARTERED_REPLAYS_PER_SECOND
 * (default 20, 1 to 100,000), bursts of twice that; past it, 503 with the
 * reason and retry_after. */
int srv_replay_admit(int64_t now_ms, char *why, size_t n, int *retry_s)
{
    static double rate = -1, tokens;
    static int64_t last;
    if (rate < 0) {
        const char *e = getenv("CHARTERED_REPLAYS_PER_SECOND");
        char *end = NULL;
        long v = e && *e ? strtol(e, &end, 10) : 20;
        if (e && *e && (*end || v < 1 || v > 100000)) {
            srv_logf(SRV_LOG_WARN, "config.ignored", "variable=CHARTERED_REPLAYS_PER_SECOND "
                    "value=%s must be 1 to 100000: 20 kept", e);
            v = 20;
        }
        rate = (double)v;
        tokens = 2 * rate;
        last = now_ms;
    }
    tokens += (double)(now_ms - last) * rate / 1000.0;
    if (tokens > 2 * rate)
        tokens = 2 * rate;
    last = now_ms;
    if (tokens >= 1) {
        tokens -= 1;
        return 0;
    }
    *retry_s = 1;
    snprintf(why, n, "too many replays asked of this server: at most %.0f a second; "
             "try again in a second", rate);
    return -1;
}
