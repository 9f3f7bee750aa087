/* lease.c: game leases and cross-node events, over PostgreSQL, on a thread
 * and a database connection of their own (docs/cluster.md "Leases").
 *
 * A game is played by exactly one node: the one whose row in
 * chartered_lease (game, owner, expires) names it. The thread
 *   - takes leases the event loop asks for (a new game; a game a client asks
 *     for whose lease ran out) with one INSERT ... ON CONFLICT that succeeds
 *     only when the row is free, expired or already ours;
 *   - renews every lease of this node in one UPDATE every third of the lease,
 *     whose RETURNING list is the set of games the node holds;
 *   - claims, at the same time, games whose lease ran out (their node died:
 *     failover), at most SRV_CLAIM_BATCH a round, FOR UPDATE SKIP LOCKED so
 *     that two nodes never claim the same game;
 *   - LISTENs on channel "chartered" and sends NOTIFYs for the loop: the
 *     payloads carry ids only, the receiver re-reads.
 * Expiry is the database's clock (now()), so the nodes' clocks need not
 * agree. This node's own bound is its clock: a renewal sent at t makes the
 * leases good until t + lease - margin here (the database's expiry is later
 * than that), so when renewals stop (the database is gone) the node stops
 * playing before any other node can take its games. The (game, seq) primary
 * key of the moves is the last guard: a move written late by a node whose
 * lease ran out is refused by the database.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "cluster/cluster.h"

#define SRV_CLAIM_BATCH 200      /* expired games claimed per round */
#define SRV_RETRY_MS 500         /* between connection attempts */
#define SRV_PAYLOAD_MAX 120
#define SRV_CLAIM_SETTLE_MS (4 * SRV_RETRY_MS) /* no claims this soon after connecting */

enum { REQ_RELEASE, REQ_NOTIFY };
enum { RES_WON, RES_LOST, RES_HELD, RES_EVENT };

typedef struct item {
    struct item *next;
    int kind;
    char text[SRV_PAYLOAD_MAX + 1]; /* a game id or an event's payload */
    char *ids;                  /* RES_HELD: NUL-separated ids */
    size_t nids;
    int64_t t0;                 /* RES_HELD: when the renewal was sent */
} item;

static struct {
    int on;
    char conninfo[1024];
    char node[SRV_NODE_MAX + 1];
    int64_t lease_ms;
    pthread_t th;
    int started;
    int efd;
    pthread_mutex_t mu;         /* guards everything below */
    int stop;
    int handback;               /* at the stop: hand this node's leases back */
    int renew_now;              /* another node handed its leases back: claim now */
    item *req, **req_tail;
    item *res, **res_tail;
    int link_up;
    int64_t link_since;
    char link_err[200];
    int64_t valid_until;        /* this node's leases are good until (ms) */
} L = {.mu = PTHREAD_MUTEX_INITIALIZER, .efd = -1};

static void push(item **head, item ***tail, item *it)
{
    it->next = NULL;
    if (!*head)
        *tail = head;
    **tail = it;
    *tail = &it->next;
}

static item *new_item(int kind, const char *text)
{
    item *it = calloc(1, sizeof *it);
    if (it) {
        it->kind = kind;
        snprintf(it->text, sizeof it->text, "%s", text ? text : "");
    }
    return it;
}

/* thread -> loop */
static void post(item *it)
{
    if (!it)
        return;
    pthread_mutex_lock(&L.mu);
    push(&L.res, &L.res_tail, it);
    pthread_mutex_unlock(&L.mu);
    if (g_net.ctx)
        lws_cancel_service(g_net.ctx);
}

/* loop -> thread */
static void ask(int kind, const char *text)
{
    if (!L.on)
        return;
    item *it = new_item(kind, text);
    if (!it)
        return;
    pthread_mutex_lock(&L.mu);
    push(&L.req, &L.req_tail, it);
    pthread_mutex_unlock(&L.mu);
    uint64_t one = 1;
    if (write(L.efd, &one, sizeof one) < 0) {
        /* the counter is full: the thread is awake anyway */
    }
}

static void set_link(int up, const char *why)
{
    static int was_up; /* the link stood once: a later connection is a reconnection */
    char err[sizeof L.link_err];
    int changed = 0;
    pthread_mutex_lock(&L.mu);
    if (up != L.link_up) {
        L.link_up = up;
        L.link_since = srv_now_ms();
        changed = 1;
    }
    if (!up && why) {
        snprintf(L.link_err, sizeof L.link_err, "%s", why);
        /* libpq's message as one line (its FATAL/DETAIL lines, its newline) */
        srv_log_one_line(L.link_err, sizeof L.link_err);
    }
    snprintf(err, sizeof err, "%s", L.link_err);
    pthread_mutex_unlock(&L.mu);
    if (changed && !up && was_up)
        srv_logf(SRV_LOG_WARN, "db.lost", "node=%s link=lease the lease thread lost the "
                "database: %s", L.node, err);
    else if (changed && up && was_up)
        srv_logf(SRV_LOG_INFO, "db.reconnected", "node=%s link=lease the lease thread is "
                "connected to the database again", L.node);
    if (up)
        was_up = 1;
}

/* What the server says on a connection of this file (a warning, the
 * "FATAL: terminating connection" of a server shutting down), through the
 * one log as one line instead of libpq's default, raw lines on standard
 * error. */
static void notice(void *arg, const PGresult *res)
{
    (void)arg;
    db_pg_notice(PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED), PQresultErrorMessage(res),
                 "lease");
}

/* ---- on the thread ------------------------------------------------------------ */

static PGconn *pc;
static int64_t conn_since;      /* when pc connected */

static void drop_conn(const char *why)
{
    set_link(0, why ? why : (pc ? PQerrorMessage(pc) : "no connection"));
    if (pc)
        PQfinish(pc);
    pc = NULL;
}

/* Run a statement; the result when it returned tuples or completed, else
 * NULL (the connection is dropped when it is bad). */
static PGresult *run(const char *sql, int nparams, const char *const *params)
{
    PGresult *r = PQexecParams(pc, sql, nparams, NULL, params, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK)
        return r;
    char why[200];
    snprintf(why, sizeof why, "%s", PQresultErrorMessage(r));
    PQclear(r);
    if (PQstatus(pc) != CONNECTION_OK)
        drop_conn(why);
    else
        set_link(1, NULL);
    srv_log_one_line(why, sizeof why);
    srv_logf(SRV_LOG_WARN, "db.error", "node=%s the lease thread's statement failed: %s",
            L.node, why);
    return NULL;
}

static int connect_db(void)
{
    const char *keys[] = {"dbname", "connect_timeout", "options", NULL};
    const char *vals[] = {L.conninfo, "2", "-c client_min_messages=warning", NULL};
    pc = PQconnectdbParams(keys, vals, 1);
    if (PQstatus(pc) != CONNECTION_OK) {
        drop_conn(PQerrorMessage(pc));
        return -1;
    }
    PQsetNoticeReceiver(pc, notice, NULL);
    /* two nodes starting at once may both create the table: the loser's
       error is a unique violation, and the table is there */
    PGresult *r = PQexec(pc, "CREATE TABLE IF NOT EXISTS chartered_lease ("
                             "game text PRIMARY KEY, owner text NOT NULL, "
                             "expires timestamptz NOT NULL)");
    PQclear(r);
    r = PQexec(pc, "CREATE INDEX IF NOT EXISTS chartered_lease_owner ON chartered_lease (owner)");
    PQclear(r);
    r = PQexec(pc, "LISTEN chartered");
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok) {
        drop_conn(PQerrorMessage(pc));
        return -1;
    }
    set_link(1, NULL);
    conn_since = srv_now_ms();
    /* the other nodes' games, for the lobby: events may have been missed
       while the link was down (or this node just started) */
    const char *p[1] = {L.node};
    r = PQexecParams(pc, "SELECT game FROM chartered_lease WHERE owner <> $1", 1, NULL, p, NULL,
                     NULL, 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        for (int i = 0; i < PQntuples(r); i++) {
            char ev[SRV_PAYLOAD_MAX + 1];
            snprintf(ev, sizeof ev, "game %s", PQgetvalue(r, i, 0));
            post(new_item(RES_EVENT, ev));
        }
    PQclear(r);
    return 0;
}

static void post_ids(int kind, PGresult *r, int64_t t0)
{
    int n = PQntuples(r);
    if (kind != RES_HELD) {
        for (int i = 0; i < n; i++)
            post(new_item(kind, PQgetvalue(r, i, 0)));
        return;
    }
    item *it = new_item(RES_HELD, NULL);
    if (!it)
        return;
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(PQgetvalue(r, i, 0)) + 1;
    it->ids = malloc(len);
    if (!it->ids) {
        free(it);
        return;
    }
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(PQgetvalue(r, i, 0));
        memcpy(it->ids + at, PQgetvalue(r, i, 0), l + 1);
        at += l + 1;
    }
    it->nids = (size_t)n;
    it->t0 = t0;
    post(it);
}

/* Renew every lease of this node and claim the games whose node died. */
static int renew(void)
{
    char secs[32];
    snprintf(secs, sizeof secs, "%.3f", (double)L.lease_ms / 1000.0);
    const char *p[2] = {L.node, secs};
    int64_t t0 = srv_now_ms();
    PGresult *r = run("UPDATE chartered_lease SET expires = now() + $2::float8 * interval '1 second' "
                      "WHERE owner = $1 RETURNING game", 2, p);
    if (!r)
        return -1;
    pthread_mutex_lock(&L.mu);
    /* a tenth of the lease as margin for the clocks' rates and the trip */
    L.valid_until = t0 + L.lease_ms - L.lease_ms / 10;
    pthread_mutex_unlock(&L.mu);
    post_ids(RES_HELD, r, t0);
    PQclear(r);
    /* just (re)connected after the database was away: every node's leases
       ran out meanwhile; the others reconnect too (every SRV_RETRY_MS) and
       renew their own first. Claims wait, or the first node back would take
       every game of the others, which are alive */
    if (t0 - conn_since < SRV_CLAIM_SETTLE_MS)
        return 0;
    char lim[16];
    snprintf(lim, sizeof lim, "%d", SRV_CLAIM_BATCH);
    const char *q[3] = {L.node, secs, lim};
    r = run("UPDATE chartered_lease SET owner = $1, "
            "expires = now() + $2::float8 * interval '1 second' "
            "WHERE game IN (SELECT game FROM chartered_lease WHERE expires < now() "
            "AND owner <> $1 ORDER BY expires LIMIT $3::int FOR UPDATE SKIP LOCKED) "
            "RETURNING game", 3, q);
    if (!r)
        return -1;
    post_ids(RES_WON, r, t0);
    PQclear(r);
    return 0;
}

static int serve_req(item *it)
{
    char secs[32];
    snprintf(secs, sizeof secs, "%.3f", (double)L.lease_ms / 1000.0);
    PGresult *r = NULL;
    if (it->kind == REQ_RELEASE) {
        const char *p[2] = {it->text, L.node};
        r = run("DELETE FROM chartered_lease WHERE game = $1 AND owner = $2", 2, p);
    } else {
        const char *p[1] = {it->text};
        r = run("SELECT pg_notify('chartered', $1)", 1, p);
    }
    if (!r)
        return pc ? 0 : -1; /* a bad statement is dropped; a lost link keeps it */
    PQclear(r);
    return 0;
}

static void read_events(void)
{
    if (!PQconsumeInput(pc)) {
        drop_conn(PQerrorMessage(pc));
        return;
    }
    PGnotify *nf;
    while ((nf = PQnotifies(pc))) {
        /* our own NOTIFYs come back too: the loop knows them already */
        if (nf->be_pid != PQbackendPID(pc))
            post(new_item(RES_EVENT, nf->extra));
        PQfreemem(nf);
    }
}

/* The graceful stop (SIGTERM, serve.c), once the loop committed what was
 * pending and closed its clients: the requests still queued (a finished
 * game's release, a notice) are sent, then every lease of this node is
 * made to run out now, and the other nodes are told: each renews at once
 * and so claims the games (bot-only ones too), while the players'
 * reconnections take them at once where they land. Before, the leases
 * were kept and the games waited for them to run out (issue 28, "What to
 * build" 6: 4.7 s median). */
static void hand_back(void)
{
    for (item *it = L.req; it && pc; it = it->next)
        serve_req(it);
    const char *p[1] = {L.node};
    PGresult *r = run("UPDATE chartered_lease SET expires = now() - interval '1 second' "
                      "WHERE owner = $1", 1, p);
    if (!r)
        return;
    PQclear(r);
    char payload[SRV_PAYLOAD_MAX + 1];
    snprintf(payload, sizeof payload, "handback %s", L.node);
    const char *q[1] = {payload};
    r = run("SELECT pg_notify('chartered', $1)", 1, q);
    if (r)
        PQclear(r);
}

static void *thread_main(void *arg)
{
    (void)arg;
    int64_t next_renew = 0;
    for (;;) {
        pthread_mutex_lock(&L.mu);
        int stop = L.stop;
        if (L.renew_now) {
            L.renew_now = 0;
            next_renew = 0;
        }
        pthread_mutex_unlock(&L.mu);
        if (stop)
            break;
        int64_t now = srv_now_ms();
        if (!pc) {
            if (connect_db() != 0) {
                struct pollfd w = {L.efd, POLLIN, 0};
                poll(&w, 1, SRV_RETRY_MS);
                if (w.revents & POLLIN) {
                    uint64_t v;
                    if (read(L.efd, &v, sizeof v) < 0) {
                        /* nothing to read after all */
                    }
                }
                continue;
            }
            next_renew = 0;
        }
        if (now >= next_renew) {
            if (renew() != 0)
                continue;
            next_renew = now + L.lease_ms / 3;
        }
        /* the requests, one at a time: a failed one stays first in line */
        for (;;) {
            pthread_mutex_lock(&L.mu);
            item *it = L.req;
            if (it) {
                L.req = it->next;
                if (!L.req)
                    L.req_tail = &L.req;
            }
            pthread_mutex_unlock(&L.mu);
            if (!it)
                break;
            if (serve_req(it) != 0) {
                pthread_mutex_lock(&L.mu);
                it->next = L.req;
                if (!L.req)
                    L.req_tail = &it->next;
                L.req = it;
                pthread_mutex_unlock(&L.mu);
                break;
            }
            free(it);
        }
        if (!pc)
            continue;
        read_events();
        if (!pc)
            continue;
        int64_t wait = next_renew - srv_now_ms();
        if (wait < 0)
            wait = 0;
        struct pollfd f[2] = {{PQsocket(pc), POLLIN, 0}, {L.efd, POLLIN, 0}};
        if (poll(f, 2, (int)wait) > 0 && (f[1].revents & POLLIN)) {
            uint64_t v;
            if (read(L.efd, &v, sizeof v) < 0) {
                /* nothing to read after all */
            }
        }
    }
    if (pc && L.handback)
        hand_back();
    if (pc)
        PQfinish(pc);
    pc = NULL;
    return NULL;
}

/* ---- on the event loop --------------------------------------------------------- */

/* The loop's own connection, for the few questions that cannot wait for
 * the thread (a creation, a join): bounded by connect_timeout and
 * statement_timeout, and not tried while the thread sees the link down. */
static PGconn *lpc;

int srv_lease_start(const char *conninfo, char *why, size_t n)
{
    snprintf(L.conninfo, sizeof L.conninfo, "%s", conninfo);
    snprintf(L.node, sizeof L.node, "%s", srv_node_name());
    L.lease_ms = srv_lease_ms();
    L.req_tail = &L.req;
    L.res_tail = &L.res;
    L.link_since = srv_now_ms();
    snprintf(L.link_err, sizeof L.link_err, "not connected yet");
    L.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (L.efd < 0) {
        snprintf(why, n, "eventfd: %s", strerror(errno));
        return -1;
    }
    L.on = 1;
    if (pthread_create(&L.th, NULL, thread_main, NULL) != 0) {
        snprintf(why, n, "cannot start the lease thread");
        close(L.efd);
        L.efd = -1;
        L.on = 0;
        return -1;
    }
    L.started = 1;
    return 0;
}

void srv_lease_stop(void)
{
    if (!L.started)
        return;
    pthread_mutex_lock(&L.mu);
    L.stop = 1;
    pthread_mutex_unlock(&L.mu);
    uint64_t one = 1;
    if (write(L.efd, &one, sizeof one) < 0) {
        /* awake anyway */
    }
    pthread_join(L.th, NULL);
    L.started = 0;
    if (lpc)
        PQfinish(lpc);
    lpc = NULL;
    close(L.efd);
    L.efd = -1;
    for (item *it = L.req, *nx; it; it = nx) {
        nx = it->next;
        free(it);
    }
    for (item *it = L.res, *nx; it; it = nx) {
        nx = it->next;
        free(it->ids);
        free(it);
    }
    L.req = L.res = NULL;
    L.on = 0;
}

void srv_lease_handback(void)
{
    pthread_mutex_lock(&L.mu);
    L.handback = 1;
    pthread_mutex_unlock(&L.mu);
}

void srv_lease_renew_now(void)
{
    if (!L.started)
        return;
    pthread_mutex_lock(&L.mu);
    L.renew_now = 1;
    pthread_mutex_unlock(&L.mu);
    uint64_t one = 1;
    if (write(L.efd, &one, sizeof one) < 0) {
        /* awake anyway */
    }
}

int srv_lease_on(void)
{
    return L.on;
}

#define TAKE_SQL "INSERT INTO chartered_lease (game, owner, expires) " \
    "VALUES ($1, $2, now() + $3::float8 * interval '1 second') " \
    "ON CONFLICT (game) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires " \
    "WHERE chartered_lease.owner = EXCLUDED.owner OR chartered_lease.expires < now() " \
    "RETURNING game"


static PGconn *loop_conn(char *why, size_t n)
{
    if (lpc && PQstatus(lpc) == CONNECTION_OK)
        return lpc;
    if (lpc)
        PQfinish(lpc);
    lpc = NULL;
    const char *lwhy;
    if (!srv_lease_link(NULL, &lwhy)) {
        snprintf(why, n, "the database is unreachable (%s)", lwhy);
        return NULL;
    }
    const char *keys[] = {"dbname", "connect_timeout", "options", NULL};
    const char *vals[] = {L.conninfo, "2",
                          "-c statement_timeout=2000 -c client_min_messages=warning", NULL};
    lpc = PQconnectdbParams(keys, vals, 1);
    if (PQstatus(lpc) != CONNECTION_OK) {
        snprintf(why, n, "the database is unreachable (%s)", PQerrorMessage(lpc));
        srv_log_one_line(why, n);
        PQfinish(lpc);
        lpc = NULL;
    } else
        PQsetNoticeReceiver(lpc, notice, NULL);
    return lpc;
}

int srv_lease_take(srv_game *g, const char *id, char *owner, size_t on, char *why, size_t n)
{
    if (!L.on) {
        if (g)
            g->lease = SRV_LEASE_HELD;
        return 1;
    }
    PGconn *c = loop_conn(why, n);
    if (!c)
        return -1;
    char secs[32];
    snprintf(secs, sizeof secs, "%.3f", (double)L.lease_ms / 1000.0);
    const char *p[3] = {id, L.node, secs};
    int64_t t0 = srv_now_ms();
    PGresult *r = PQexecParams(c, TAKE_SQL, 3, NULL, p, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        snprintf(why, n, "the lease of game %s: %s", id, PQresultErrorMessage(r));
        PQclear(r);
        return -1;
    }
    int won = PQntuples(r) > 0;
    PQclear(r);
    if (won) {
        if (g) {
            g->lease = SRV_LEASE_HELD;
            g->lease_at = t0;
        }
        return 1;
    }
    r = PQexecParams(c, "SELECT owner FROM chartered_lease WHERE game = $1", 1, NULL, p, NULL,
                     NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
        snprintf(why, n, "the lease of game %s: %s", id,
                 PQresultStatus(r) == PGRES_TUPLES_OK ? "it changed hands meanwhile" :
                 PQresultErrorMessage(r));
        PQclear(r);
        return -1;
    }
    snprintf(owner, on, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return 0;
}

void srv_lease_release(const char *id)
{
    ask(REQ_RELEASE, id);
}

void srv_lease_notify(const char *payload)
{
    ask(REQ_NOTIFY, payload);
}

int srv_lease_valid(int64_t now)
{
    if (!L.on)
        return 1;
    pthread_mutex_lock(&L.mu);
    int ok = now < L.valid_until;
    pthread_mutex_unlock(&L.mu);
    return ok;
}

int srv_lease_link(int64_t *since, const char **why)
{
    if (!L.on) {
        if (since)
            *since = 0;
        if (why)
            *why = "";
        return 1;
    }
    pthread_mutex_lock(&L.mu);
    int up = L.link_up;
    if (since)
        *since = L.link_since;
    if (why)
        *why = L.link_err; /* written only by the thread, under the lock; a
                              torn read shows a mixed reason at worst */
    pthread_mutex_unlock(&L.mu);
    return up;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The renewal's list: every game this node holds. A game held in memory
 * and not in it is lost; one in it and not in memory is loaded (a node
 * restarted under its old name). */
static void held(item *it)
{
    const char **v = it->nids ? malloc(it->nids * sizeof *v) : NULL;
    if (it->nids && !v)
        return;
    const char *p = it->ids;
    for (size_t i = 0; i < it->nids; i++) {
        v[i] = p;
        p += strlen(p) + 1;
    }
    if (it->nids)
        qsort(v, it->nids, sizeof *v, cmp_str);
    for (srv_game *g = g_tables.games, *nx; g; g = nx) {
        nx = g->lnext;
        /* a lease taken after the renewal was sent is not in its list */
        if (g->lease != SRV_LEASE_HELD || g->lease_at >= it->t0)
            continue;
        const char *key = g->id;
        if (!it->nids || !bsearch(&key, v, it->nids, sizeof *v, cmp_str))
            srv_cluster_lost(g->id);
    }
    for (size_t i = 0; i < it->nids; i++) {
        srv_game *g = srv_game_held(v[i]);
        if (!g && srv_cluster_released_lately(v[i]))
            continue; /* it left memory and its lease is being given back */
        if (!g || g->lease != SRV_LEASE_HELD)
            srv_cluster_won(v[i]);
        else
            srv_game_kick_bots(g); /* the leases are good again after a loss
                                      of the database: bots skipped meanwhile */
    }
    free(v);
}

void srv_lease_drain(void)
{
    if (!L.on)
        return;
    pthread_mutex_lock(&L.mu);
    item *list = L.res;
    L.res = NULL;
    L.res_tail = &L.res;
    pthread_mutex_unlock(&L.mu);
    for (item *it = list, *nx; it; it = nx) {
        nx = it->next;
        if (it->kind == RES_WON)
            srv_cluster_won(it->text);
        else if (it->kind == RES_LOST)
            srv_cluster_lost(it->text);
        else if (it->kind == RES_HELD)
            held(it);
        else
            srv_cluster_event(it->text);
        free(it->ids);
        free(it);
    }
}
