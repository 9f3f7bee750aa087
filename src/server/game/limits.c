/* limits.c: the bookkeeping of the server's limits on what one client, or
 * everyone together, may hold or do (issue 19, "limits everywhere"; the
 * table with defaults and how to change them is in docs/protocol.md,
 * "Limits"):
 *   - games created per address per minute (a token bucket per address);
 *   - games waiting for players: at most so many per address and in all, and
 *     a waiting game expires after a day (srv_limits_tick), so the memory
 *     held by games created and never started is bounded;
 *   - WebSocket connections per address;
 *   - a game in play with human seats and no person connected for a day is
 *     ended as "abandoned" (issue 16);
 *   - the time a request may take to arrive (CHARTERED_REQUEST_SECONDS,
 *     kept by rawguard.c from this file's tick).
 * The client's address every per-address limit counts is srv_client_addr's
 * (below: with --trust-proxy, the address the proxy appended).
 * Each limit is read once from its environment variable (CHARTERED_...),
 * else its default. Peers on loopback (127.0.0.0/8, ::1: a reverse proxy on
 * the same machine, the load generator, the tests) are exempt from the
 * per-address limits unless CHARTERED_LIMIT_LOOPBACK=1: behind a proxy every
 * client has the proxy's address, unless the server is told to trust the
 * proxy's X-Forwarded-For (--trust-proxy), and then each client counts.
 * Everything here runs on the event-loop thread.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game_impl.h"

typedef struct limit_def {
    const char *env;
    long long def, lo, hi;
} limit_def;

static const limit_def defs[SRV_LIMIT_COUNT] = {
    [SRV_LIMIT_CREATES_PER_MIN] = {"CHARTERED_CREATES_PER_MINUTE", 20, 1, 1000000},
    [SRV_LIMIT_WAITING_PER_ADDR] = {"CHARTERED_WAITING_PER_ADDRESS", 50, 1, 1000000},
    [SRV_LIMIT_WAITING_MAX] = {"CHARTERED_WAITING_GAMES_MAX", 5000, 1, 10000000},
    [SRV_LIMIT_WAITING_EXPIRE_S] = {"CHARTERED_WAITING_EXPIRE_SECONDS", 86400, 1, 100000000},
    [SRV_LIMIT_CONNS_PER_ADDR] = {"CHARTERED_CONNECTIONS_PER_ADDRESS", 64, 1, 1000000},
    [SRV_LIMIT_ABANDON_S] = {"CHARTERED_ABANDON_SECONDS", 86400, 1, 100000000},
    [SRV_LIMIT_LOOPBACK] = {"CHARTERED_LIMIT_LOOPBACK", 0, 0, 1},
    /* a request's headers and body from its first byte (rawguard.c) */
    [SRV_LIMIT_REQUEST_S] = {"CHARTERED_REQUEST_SECONDS", 20, 1, 3600},
};

long long srv_limit(int which)
{
    static long long val[SRV_LIMIT_COUNT];
    static int read[SRV_LIMIT_COUNT];
    if (which < 0 || which >= SRV_LIMIT_COUNT)
        return 0;
    if (!read[which]) {
        const limit_def *d = &defs[which];
        val[which] = d->def;
        const char *v = getenv(d->env);
        if (v && *v) {
            char *end;
            long long x = strtoll(v, &end, 10);
            if (*end || x < d->lo || x > d->hi)
                srv_logf(SRV_LOG_WARN, "config.ignored", "variable=%s value=%.40s must be a whole "
                        "number from %lld to %lld: using %lld", d->env, v, d->lo, d->hi, d->def);
            else
                val[which] = x;
        }
        read[which] = 1;
    }
    return val[which];
}

/* ---- per-address records ---------------------------------------------------- */

typedef struct addr_rec {
    struct addr_rec *next;
    char addr[64];
    int conns;                  /* open WebSocket connections */
    int waiting;                /* waiting games it created (still waiting) */
    double bucket;              /* game creations left (token bucket) */
    int64_t bucket_ms;
} addr_rec;

#define ADDR_BUCKETS 1024
static addr_rec *table[ADDR_BUCKETS];

static unsigned addr_hash(const char *a)
{
    unsigned h = 2166136261u;
    for (; *a; a++)
        h = (h ^ (unsigned char)*a) * 16777619u;
    return h % ADDR_BUCKETS;
}

static addr_rec *rec_get(const char *addr, int create)
{
    unsigned h = addr_hash(addr);
    for (addr_rec *r = table[h]; r; r = r->next)
        if (strcmp(r->addr, addr) == 0)
            return r;
    if (!create)
        return NULL;
    addr_rec *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    snprintf(r->addr, sizeof r->addr, "%s", addr);
    r->bucket = (double)srv_limit(SRV_LIMIT_CREATES_PER_MIN);
    r->bucket_ms = srv_now_ms();
    r->next = table[h];
    table[h] = r;
    return r;
}

/* A record that holds nothing and whose bucket is full again is freed by
 * the sweep, so the table holds only the addresses active lately. */
static void sweep(int64_t now)
{
    double cap = (double)srv_limit(SRV_LIMIT_CREATES_PER_MIN);
    for (int h = 0; h < ADDR_BUCKETS; h++)
        for (addr_rec **pp = &table[h]; *pp;) {
            addr_rec *r = *pp;
            double b = r->bucket + (double)(now - r->bucket_ms) * cap / 60000.0;
            if (r->conns == 0 && r->waiting == 0 && b >= cap) {
                *pp = r->next;
                free(r);
            } else {
                pp = &r->next;
            }
        }
}

int srv_addr_exempt(const char *addr)
{
    if (srv_limit(SRV_LIMIT_LOOPBACK))
        return 0;
    return !addr[0] || strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0 ||
           strncmp(addr, "::ffff:127.", 11) == 0;
}

/* ---- game creation ---------------------------------------------------------- */

int srv_limit_waiting(const srv_game *g, const char *addr, char *why, size_t n, int *retry_s)
{
    *retry_s = 0;
    if (g->status != GAME_WAITING)
        return 0;
    int waiting_all = 0;
    for (srv_game *g = g_tables.games; g; g = g->lnext)
        waiting_all += g->status == GAME_WAITING;
    if (waiting_all >= srv_limit(SRV_LIMIT_WAITING_MAX)) {
        snprintf(why, n, "the server holds %d games waiting for players, its limit: try again "
                 "later", waiting_all);
        *retry_s = 60;
        return 503;
    }
    if (srv_addr_exempt(addr))
        return 0;
    addr_rec *r = rec_get(addr, 1);
    if (r && r->waiting >= srv_limit(SRV_LIMIT_WAITING_PER_ADDR)) {
        snprintf(why, n, "you have %d games waiting for players, the limit per address: start "
                 "or let some expire first", r->waiting);
        *retry_s = 60;
        return 429;
    }
    return 0;
}

int srv_limit_create(const char *addr, int64_t now, char *why, size_t n, int *retry_s)
{
    *retry_s = 0;
    if (srv_addr_exempt(addr))
        return 0;
    addr_rec *r = rec_get(addr, 1);
    if (!r) {
        snprintf(why, n, "out of memory");
        return 503;
    }
    double cap = (double)srv_limit(SRV_LIMIT_CREATES_PER_MIN);
    /* the caller read `now` before rec_get made the record with a later
       reading: time never runs back here, or a new address's first creation
       finds its bucket a hair under one and is refused (cli_config saw 429
       for the first of two creations with one a minute) */
    if (now > r->bucket_ms) {
        r->bucket += (double)(now - r->bucket_ms) * cap / 60000.0;
        r->bucket_ms = now;
    }
    if (r->bucket > cap)
        r->bucket = cap;
    if (r->bucket < 1.0) {
        *retry_s = (int)((1.0 - r->bucket) * 60.0 / cap) + 1;
        snprintf(why, n, "too many games created: at most %lld a minute per address; try again "
                 "in %d s", (long long)cap, *retry_s);
        return 429;
    }
    r->bucket -= 1.0;
    return 0;
}

void srv_limit_created(srv_game *g, const char *addr)
{
    snprintf(g->creator_addr, sizeof g->creator_addr, "%s", addr ? addr : "");
    if (g->status != GAME_WAITING || srv_addr_exempt(g->creator_addr))
        return;
    addr_rec *r = rec_get(g->creator_addr, 1);
    if (r) {
        r->waiting++;
        g->counted_waiting = 1;
    }
}

void srv_limit_unwait(srv_game *g)
{
    if (!g->counted_waiting)
        return;
    g->counted_waiting = 0;
    addr_rec *r = rec_get(g->creator_addr, 0);
    if (r && r->waiting > 0)
        r->waiting--;
}

/* ---- connections ------------------------------------------------------------ */

int srv_limit_connect(const char *addr)
{
    if (srv_addr_exempt(addr))
        return 0;
    addr_rec *r = rec_get(addr, 1);
    if (!r || r->conns >= srv_limit(SRV_LIMIT_CONNS_PER_ADDR))
        return -1;
    r->conns++;
    return 0;
}

void srv_limit_disconnect(const char *addr)
{
    if (srv_addr_exempt(addr))
        return;
    addr_rec *r = rec_get(addr, 0);
    if (r && r->conns > 0)
        r->conns--;
}

/* ---- periodic: expiry, abandonment ----------------------------------------- */

static int has_person_seat(const srv_game *g)
{
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_HUMAN)
            return 1;
    return 0;
}

static int person_connected(const srv_game *g)
{
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_HUMAN && g->seat[i].nconn > 0)
            return 1;
    return 0;
}

/* End g as abandoned: over, stored as "abandoned", no result, not rated.
 * `ended` says why, for the log: NULL when nobody came back. */
static void abandon(srv_game *g, const char *ended)
{
    g->status = GAME_OVER;
    g->abandoned = 1;
    g->meta_dirty = 1;
    for (int s = 0; s < g->nseats; s++)
        g->seat[s].away = 0;
    srv_commit_schedule(g);
    for (srv_client *c = g->clients; c; c = c->gnext)
        srv_client_want_state(c);
    /* the "game.ended" line follows once it is stored (commit.c) */
    if (ended)
        srv_logf(SRV_LOG_INFO, "game.abandoned", "game=%s game %s abandoned: %s", g->id, g->id,
                ended);
    else
        srv_logf(SRV_LOG_INFO, "game.abandoned", "game=%s idle_s=%lld game %s abandoned: no player "
                "connected", g->id, srv_limit(SRV_LIMIT_ABANDON_S), g->id);
}

/* POST /api/games/ID/end: a practice game that one person plays against
 * bots only, ended by that person (docs/protocol.md "Abandoned games").
 * The tutorial starts a game for each step (web/js/tutorial.js,
 * docs/tutorial.md) and ends it when the learner leaves the step: without
 * this each step stayed in play, in "My games" with the learner to move,
 * for a day. Nobody else plays it and it is unrated, so nobody loses
 * anything; a game of two people, or a rated one, cannot be ended so. */
int srv_game_end_practice(srv_game *g, const char *owner, const char **why)
{
    int mine = owner && owner[0] ? srv_seat_of(g, owner) : -1;
    if (mine < 0) {
        *why = "only the person who plays this game may end it";
        return 403;
    }
    if (!g->practice) {
        *why = "only a practice game (unrated) can be ended: a rated game is played out";
        return 403;
    }
    for (int s = 0; s < g->nseats; s++) {
        if (s != mine && g->seat[s].kind != SEAT_BOT) {
            *why = "only a game of one person against bots can be ended";
            return 403;
        }
    }
    if (g->status != GAME_PLAYING) {
        *why = "the game is not in play";
        return 409;
    }
    /* as the periodic abandonment: not while a move is on its way to the
       database (its commit would write the game back in play) */
    if (g->npending || g->commit_busy) {
        *why = "a move is being stored: try again in a moment";
        return 409;
    }
    abandon(g, "ended by its player (a practice game against bots)");
    g_tables.games_abandoned++;
    return 0;
}

/* A moderator ends g (api/moderation_api.c, docs/moderation.md): over,
 * stored as "aborted", with no result and no rating change, as an abandoned
 * game. Not while a move is on its way to the database (as above): 409, and
 * the caller tries again. */
int srv_game_abort(srv_game *g, const char **why)
{
    if (g->status == GAME_OVER) {
        *why = "the game is over already";
        return 409;
    }
    if (g->npending || g->commit_busy) {
        *why = "a move is being stored: try again in a moment";
        return 409;
    }
    if (g->status == GAME_WAITING)
        srv_limit_unwait(g);
    abandon(g, "aborted by a moderator");
    g->abandoned = 2;
    return 0;
}

void srv_limits_tick(int64_t now)
{
    static int64_t last_sweep;
    int64_t expire_ms = srv_limit(SRV_LIMIT_WAITING_EXPIRE_S) * 1000;
    int64_t abandon_ms = srv_limit(SRV_LIMIT_ABANDON_S) * 1000;
    for (srv_game **pp = &g_tables.games; *pp;) {
        srv_game *g = *pp;
        if (g->status == GAME_WAITING && now - g->created * 1000 >= expire_ms && !g->clients &&
            !g->npending && !g->queued && !g->commit_busy && !g->views_job) {
            /* never started: nothing was played, so it goes from memory and
               from the database */
            *pp = g->lnext;
            srv_game_unhash(g);
            srv_limit_unwait(g);
            srv_store_delete_game(g_storage.store, g->id);
            g_tables.ngames--;
            g_tables.games_expired++;
            srv_game_free(g);
            continue;
        }
        if (g->status == GAME_PLAYING && g->days == 0 && has_person_seat(g)) {
            if (person_connected(g))
                g->alone_since_ms = 0;
            else if (!g->alone_since_ms)
                g->alone_since_ms = now;
            else if (now - g->alone_since_ms >= abandon_ms && !g->npending && !g->commit_busy) {
                abandon(g, NULL);
                g_tables.games_abandoned++;
            }
        }
        pp = &g->lnext;
    }
    srv_rawguard_tick(now, srv_limit(SRV_LIMIT_REQUEST_S) * 1000);
    if (now - last_sweep >= 60000) {
        sweep(now);
        last_sweep = now;
    }
}
