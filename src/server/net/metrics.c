/* metrics.c: the server's counters, gauges and histograms, and their text
 * in the Prometheus exposition format (issue 35 item 2, docs/deploy.md
 * "Metrics"). Every layer counts here (moves in game/, commits in game/,
 * database errors in store/, connections and HTTP answers in api/ and net/),
 * so the registry sits in the lowest layer; each value is one atomic, so a
 * count costs a relaxed atomic add on whatever thread makes it, and the text
 * can be made on any thread without a lock.
 *
 * The text is served in two ways, both optional:
 *  - on a separate address (--metrics-listen HOST:PORT) by a thread of its
 *    own (srv_metrics_listen): it answers GET /metrics from the atomics
 *    alone, so a scrape never waits for the event loop, and a slow or
 *    stuck scraper never holds the loop (each connection has a 5 s
 *    deadline, one at a time);
 *  - on the main port behind a bearer token (--metrics-token-file FILE,
 *    api/metrics_api.c): the token is kept only as its BLAKE2b hash, the
 *    one presented is hashed and the two hashes compared in constant time
 *    (sodium_memcmp), and neither is ever written to a log. With a token
 *    set, the separate address asks for it too.
 * Values that belong to the loop (games in memory by state) are gauges the
 * loop sets from its periodic tick (srv_metrics_refresh, api/), so the
 * thread reads numbers at most 250 ms old rather than the loop's lists.
 */
#include <errno.h>
#include <stdarg.h>
#include <strings.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "net/net.h"

/* ---- the families ---------------------------------------------------------- */

typedef struct m_counter_def {
    const char *family, *help, *label; /* label: `key="value"` or NULL */
} m_counter_def;

/* Counters; a family's entries are next to each other (rendered under one
 * HELP/TYPE). */
static const m_counter_def counter_def[SRV_M_NCOUNTERS] = {
    [SRV_M_MOVES_RECEIVED_PLAYER] = {"chartered_moves_received_total",
                                     "Moves the server was asked to make: players' move frames "
                                     "(source=\"player\") and bots' and stand-ins' moves "
                                     "(source=\"bot\").", "source=\"player\""},
    [SRV_M_MOVES_RECEIVED_BOT] = {"chartered_moves_received_total", NULL, "source=\"bot\""},
    [SRV_M_MOVES_REFUSED_ILLEGAL] = {"chartered_moves_refused_total",
                                     "Moves refused, by reason: illegal (not a legal move), "
                                     "stale (made for an earlier decision), not_your_turn (not "
                                     "this seat's decision, a spectator, the game over), "
                                     "not_started, no_game (no game joined), unavailable (the "
                                     "database, another node, the server stopping).",
                                     "reason=\"illegal\""},
    [SRV_M_MOVES_REFUSED_STALE] = {"chartered_moves_refused_total", NULL, "reason=\"stale\""},
    [SRV_M_MOVES_REFUSED_TURN] = {"chartered_moves_refused_total", NULL,
                                  "reason=\"not_your_turn\""},
    [SRV_M_MOVES_REFUSED_NOT_STARTED] = {"chartered_moves_refused_total", NULL,
                                         "reason=\"not_started\""},
    [SRV_M_MOVES_REFUSED_NO_GAME] = {"chartered_moves_refused_total", NULL,
                                     "reason=\"no_game\""},
    [SRV_M_MOVES_REFUSED_UNAVAILABLE] = {"chartered_moves_refused_total", NULL,
                                         "reason=\"unavailable\""},
    [SRV_M_MOVES_ACKNOWLEDGED] = {"chartered_moves_acknowledged_total",
                                  "Moves stored in the database (committed), after which the "
                                  "players are told.", NULL},
    [SRV_M_MOVES_ROLLED_BACK] = {"chartered_moves_rolled_back_total",
                                 "Moves taken back because their commit failed (never "
                                 "acknowledged).", NULL},
    [SRV_M_COMMITS] = {"chartered_commits_total",
                       "Commits (one database transaction each, holding the moves of one or "
                       "more games) written.", NULL},
    [SRV_M_COMMIT_FAILURES] = {"chartered_commit_failures_total",
                               "Commits the database refused or could not be reached for.",
                               NULL},
    [SRV_M_DB_ERRORS_ERROR] = {"chartered_database_errors_total",
                               "Statements the database answered with an error, by class: "
                               "error, conflict (a unique key: another writer was first), lost "
                               "(the connection).", "class=\"error\""},
    [SRV_M_DB_ERRORS_CONFLICT] = {"chartered_database_errors_total", NULL, "class=\"conflict\""},
    [SRV_M_DB_ERRORS_LOST] = {"chartered_database_errors_total", NULL, "class=\"lost\""},
    [SRV_M_DB_RECONNECTS] = {"chartered_database_reconnects_total",
                             "Connections to PostgreSQL made again after one was lost.", NULL},
    [SRV_M_WS_OPENED] = {"chartered_websocket_connections_opened_total",
                         "WebSocket connections accepted.", NULL},
    [SRV_M_HTTP_1XX] = {"chartered_http_requests_total",
                        "HTTP requests answered, by the status class of the answer.",
                        "code=\"1xx\""},
    [SRV_M_HTTP_2XX] = {"chartered_http_requests_total", NULL, "code=\"2xx\""},
    [SRV_M_HTTP_3XX] = {"chartered_http_requests_total", NULL, "code=\"3xx\""},
    [SRV_M_HTTP_4XX] = {"chartered_http_requests_total", NULL, "code=\"4xx\""},
    [SRV_M_HTTP_5XX] = {"chartered_http_requests_total", NULL, "code=\"5xx\""},
    [SRV_M_MAIL_SENT] = {"chartered_mail_sent_total", "E-mails the relay accepted.", NULL},
    [SRV_M_MAIL_FAILED] = {"chartered_mail_failures_total",
                           "E-mail attempts the relay refused or that could not reach it (each "
                           "is tried again).", NULL},
};

typedef struct m_gauge_def {
    const char *family, *help, *label;
    int optional;               /* shown only once set (SRV_M_UNSET before) */
} m_gauge_def;

static const m_gauge_def gauge_def[SRV_G_NGAUGES] = {
    [SRV_G_WS_OPEN] = {"chartered_websocket_connections", "WebSocket connections open.", NULL, 0},
    [SRV_G_GAMES_WAITING] = {"chartered_games_in_memory",
                             "Games held in memory, by state: waiting (seats open), playing, "
                             "over (finished, kept until evicted).", "state=\"waiting\"", 0},
    [SRV_G_GAMES_PLAYING] = {"chartered_games_in_memory", NULL, "state=\"playing\"", 0},
    [SRV_G_GAMES_OVER] = {"chartered_games_in_memory", NULL, "state=\"over\"", 0},
    [SRV_G_MOVES_PENDING] = {"chartered_moves_pending",
                             "Moves made and not yet committed (waiting for the database).",
                             NULL, 0},
    [SRV_G_BOT_QUEUE] = {"chartered_bot_queue_depth",
                         "Bot and stand-in jobs waiting for a worker thread.", NULL, 0},
    [SRV_G_MAIL_QUEUE] = {"chartered_mail_queue_depth",
                          "E-mails in the queue not yet sent (rows of mail_queue; counted by "
                          "the mailer thread, only with --smtp).", NULL, 1},
};

/* Histogram buckets, in microseconds, and the families. */
static const int64_t commit_bounds[] = {500, 1000, 2500, 5000, 10000, 25000, 50000, 100000,
                                        250000, 500000, 1000000, 2500000, 5000000, 10000000};
static const int64_t bot_bounds[] = {1000, 5000, 10000, 25000, 50000, 100000, 250000, 500000,
                                     1000000, 2500000, 5000000, 10000000, 30000000, 60000000};
static const int64_t lag_bounds[] = {1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000,
                                     500000, 1000000, 2500000};
#define NB(a) ((int)(sizeof a / sizeof a[0]))
#define M_MAX_BUCKETS 16

typedef struct m_hist_def {
    const char *family, *help;
    const int64_t *bounds;
    int nbounds;
} m_hist_def;

static const m_hist_def hist_def[SRV_H_NHISTS] = {
    [SRV_H_COMMIT_LATENCY] = {"chartered_commit_latency_seconds",
                              "From a move received to its commit acknowledged by the "
                              "database, per move.", commit_bounds, NB(commit_bounds)},
    [SRV_H_BOT_WAIT] = {"chartered_bot_wait_seconds",
                        "How long a bot or stand-in job waited in line for a worker thread.",
                        bot_bounds, NB(bot_bounds)},
    [SRV_H_LOOP_LAG] = {"chartered_event_loop_lag_seconds",
                        "How late the event loop's periodic tick (every 250 ms) ran: time the "
                        "loop was busy with other work.", lag_bounds, NB(lag_bounds)},
};

typedef struct m_hist {
    _Atomic uint64_t bucket[M_MAX_BUCKETS + 1]; /* not cumulative; the last: +Inf */
    _Atomic uint64_t sum_us;
} m_hist;

static struct {
    _Atomic uint64_t c[SRV_M_NCOUNTERS];
    _Atomic int64_t g[SRV_G_NGAUGES];
    m_hist h[SRV_H_NHISTS];
    char node_label[SRV_M_LABEL_MAX]; /* `node="NAME",` or "" */
    char node[64];
    double start_s;             /* process start, Unix time */
    /* the bearer token's hash; have_token: asked for */
    int have_token;
    unsigned char token_hash[32];
    /* the separate listener */
    int lfd, stop_pipe[2];
    pthread_t th;
    int running;
} M = {.g = {[SRV_G_MAIL_QUEUE] = SRV_M_UNSET}, .lfd = -1, .stop_pipe = {-1, -1}};

void srv_metrics_inc(int counter, uint64_t by)
{
    if (counter >= 0 && counter < SRV_M_NCOUNTERS)
        atomic_fetch_add_explicit(&M.c[counter], by, memory_order_relaxed);
}

void srv_metrics_set(int gauge, int64_t v)
{
    if (gauge >= 0 && gauge < SRV_G_NGAUGES)
        atomic_store_explicit(&M.g[gauge], v, memory_order_relaxed);
}

void srv_metrics_add(int gauge, int64_t d)
{
    if (gauge >= 0 && gauge < SRV_G_NGAUGES)
        atomic_fetch_add_explicit(&M.g[gauge], d, memory_order_relaxed);
}

void srv_metrics_observe(int hist, int64_t us)
{
    if (hist < 0 || hist >= SRV_H_NHISTS)
        return;
    if (us < 0)
        us = 0;
    const m_hist_def *d = &hist_def[hist];
    int b = 0;
    while (b < d->nbounds && us > d->bounds[b])
        b++;
    atomic_fetch_add_explicit(&M.h[hist].bucket[b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&M.h[hist].sum_us, (uint64_t)us, memory_order_relaxed);
}

void srv_metrics_http_status(unsigned status)
{
    if (status >= 100 && status < 600)
        srv_metrics_inc(SRV_M_HTTP_1XX + (int)(status / 100) - 1, 1);
}

int64_t srv_metrics_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

uint64_t srv_metrics_counter(int counter)
{
    return counter >= 0 && counter < SRV_M_NCOUNTERS
               ? atomic_load_explicit(&M.c[counter], memory_order_relaxed) : 0;
}

void srv_metrics_init(const char *node, int label_node)
{
    snprintf(M.node, sizeof M.node, "%s", node ? node : "");
    /* node names are letters, digits, '.', '_', '-' (cluster.c): nothing to
       escape in a label value */
    if (label_node && M.node[0])
        snprintf(M.node_label, sizeof M.node_label, "node=\"%s\"", M.node);
    else
        M.node_label[0] = 0;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    M.start_s = (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the text ------------------------------------------------------------- */

typedef struct m_buf {
    char *p;
    size_t len, cap;
    int failed;
} m_buf;

static void put(m_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(m_buf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap * 2 + (size_t)n;
        char *np = realloc(b->p, cap);
        if (!np) {
            b->failed = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
}

/* `{a,b}` of the node label and one other (either may be empty) */
static void labels(m_buf *b, const char *other, const char *more)
{
    const char *parts[3] = {M.node_label, other, more};
    int any = 0;
    for (int i = 0; i < 3; i++)
        if (parts[i] && *parts[i]) {
            put(b, "%s%s", any ? "," : "{", parts[i]);
            any = 1;
        }
    if (any)
        put(b, "}");
}

static void head(m_buf *b, const char *family, const char *help, const char *type)
{
    put(b, "# HELP %s %s\n# TYPE %s %s\n", family, help, family, type);
}

static void seconds(char *out, size_t n, int64_t us)
{
    snprintf(out, n, "%.6f", (double)us / 1e6);
}

char *srv_metrics_render(size_t *len)
{
    m_buf b = {malloc(16384), 0, 16384, 0};
    if (!b.p)
        return NULL;
    b.p[0] = 0;
    head(&b, "chartered_build_info", "The program's version; always 1.", "gauge");
    put(&b, "chartered_build_info{");
    if (M.node[0])
        put(&b, "node=\"%s\",", M.node);
    put(&b, "version=\"%s\"} 1\n", CH_VERSION);
    head(&b, "chartered_start_time_seconds", "When the server started, in seconds since the "
         "Unix epoch.", "gauge");
    put(&b, "chartered_start_time_seconds");
    labels(&b, NULL, NULL);
    put(&b, " %.3f\n", M.start_s);
    for (int i = 0; i < SRV_M_NCOUNTERS; i++) {
        const m_counter_def *d = &counter_def[i];
        if (d->help)
            head(&b, d->family, d->help, "counter");
        put(&b, "%s", d->family);
        labels(&b, d->label, NULL);
        put(&b, " %llu\n", (unsigned long long)atomic_load_explicit(&M.c[i],
                                                                    memory_order_relaxed));
    }
    for (int i = 0; i < SRV_G_NGAUGES; i++) {
        const m_gauge_def *d = &gauge_def[i];
        int64_t v = atomic_load_explicit(&M.g[i], memory_order_relaxed);
        if (d->optional && v == SRV_M_UNSET)
            continue;
        if (d->help)
            head(&b, d->family, d->help, "gauge");
        put(&b, "%s", d->family);
        labels(&b, d->label, NULL);
        put(&b, " %lld\n", (long long)v);
    }
    for (int i = 0; i < SRV_H_NHISTS; i++) {
        const m_hist_def *d = &hist_def[i];
        head(&b, d->family, d->help, "histogram");
        /* _count is the buckets' total as read here, so that it equals the
           +Inf bucket whatever is counted meanwhile */
        uint64_t cum = 0;
        char le[40], sum[40];
        for (int k = 0; k <= d->nbounds; k++) {
            cum += atomic_load_explicit(&M.h[i].bucket[k], memory_order_relaxed);
            if (k < d->nbounds) /* the shortest form: le="0.0005", le="10" */
                snprintf(le, sizeof le, "%g", (double)d->bounds[k] / 1e6);
            else
                snprintf(le, sizeof le, "+Inf");
            char lab[64];
            snprintf(lab, sizeof lab, "le=\"%s\"", le);
            put(&b, "%s_bucket", d->family);
            labels(&b, lab, NULL);
            put(&b, " %llu\n", (unsigned long long)cum);
        }
        seconds(sum, sizeof sum,
                (int64_t)atomic_load_explicit(&M.h[i].sum_us, memory_order_relaxed));
        put(&b, "%s_sum", d->family);
        labels(&b, NULL, NULL);
        put(&b, " %s\n%s_count", sum, d->family);
        labels(&b, NULL, NULL);
        put(&b, " %llu\n", (unsigned long long)cum);
    }
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    *len = b.len;
    return b.p;
}

/* ---- the bearer token ------------------------------------------------------ */

int srv_metrics_token_file(const char *path, char *why, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, n, "metrics-token-file %s: %s", path, strerror(errno));
        return -1;
    }
    char tok[1024];
    size_t got = fread(tok, 1, sizeof tok - 1, f);
    int more = fgetc(f) != EOF;
    fclose(f);
    tok[got] = 0;
    /* one line: the token, a line end allowed after it */
    int nul = memchr(tok, 0, got) != NULL;
    size_t l = got;
    while (l && (tok[l - 1] == '\n' || tok[l - 1] == '\r'))
        tok[--l] = 0;
    int visible = 1;
    for (size_t i = 0; i < l; i++)
        if ((unsigned char)tok[i] <= ' ' || (unsigned char)tok[i] >= 127)
            visible = 0;
    if (more || nul || l < 16 || l > 1000 || !visible) {
        /* the token itself is never said */
        snprintf(why, n, "metrics-token-file %s must hold one token of 16 to 1000 visible "
                 "ASCII characters (no spaces), on one line", path);
        sodium_memzero(tok, sizeof tok);
        return -1;
    }
    crypto_generichash(M.token_hash, sizeof M.token_hash, (const unsigned char *)tok, l, NULL,
                       0);
    sodium_memzero(tok, sizeof tok);
    M.have_token = 1;
    return 0;
}

int srv_metrics_token_on(void)
{
    return M.have_token;
}

int srv_metrics_authorized(const char *authorization)
{
    if (!M.have_token)
        return 1;
    if (!authorization)
        return 0;
    /* RFC 6750 2.1: "Bearer" (case-insensitive) and the token */
    if (strncasecmp(authorization, "Bearer ", 7) != 0)
        return 0;
    const char *t = authorization + 7;
    while (*t == ' ')
        t++;
    size_t l = strlen(t);
    while (l && (t[l - 1] == ' ' || t[l - 1] == '\t'))
        l--;
    unsigned char h[32];
    crypto_generichash(h, sizeof h, (const unsigned char *)t, l, NULL, 0);
    return sodium_memcmp(h, M.token_hash, sizeof h) == 0;
}

/* ---- the separate address --------------------------------------------------- */

#define M_IO_MS 5000            /* a scraper's request and our answer, at most */
#define M_REQ_MAX 8192

static int send_all(int fd, const char *p, size_t n)
{
    int64_t deadline = srv_metrics_now_us() + M_IO_MS * 1000LL;
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k > 0) {
            p += k;
            n -= (size_t)k;
            continue;
        }
        if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            return -1;
        int64_t left = (deadline - srv_metrics_now_us()) / 1000;
        if (left <= 0)
            return -1;
        struct pollfd pf = {fd, POLLOUT, 0};
        if (poll(&pf, 1, (int)left) < 0 && errno != EINTR)
            return -1;
    }
    return 0;
}

static void answer(int fd, unsigned status, const char *reason, const char *extra,
                   const char *ctype, const char *body, size_t bl)
{
    char headb[512];
    int hl = snprintf(headb, sizeof headb,
                      "HTTP/1.1 %u %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                      "Cache-Control: no-store\r\nConnection: close\r\n%s\r\n",
                      status, reason, ctype, bl, extra ? extra : "");
    srv_metrics_http_status(status);
    if (hl > 0 && (size_t)hl < sizeof headb && send_all(fd, headb, (size_t)hl) == 0 && body)
        send_all(fd, body, bl);
}

/* The value of header `name` (lower case, with its colon) in req, copied to
 * out; 0 if absent. */
static int header(const char *req, const char *name, char *out, size_t n)
{
    size_t nl = strlen(name);
    for (const char *line = strstr(req, "\r\n"); line && line[2]; line = strstr(line + 2, "\r\n")) {
        const char *h = line + 2;
        if (!strncasecmp(h, name, nl)) {
            const char *v = h + nl;
            while (*v == ' ' || *v == '\t')
                v++;
            const char *e = strstr(v, "\r\n");
            size_t l = e ? (size_t)(e - v) : strlen(v);
            if (l >= n)
                l = n - 1;
            memcpy(out, v, l);
            out[l] = 0;
            return 1;
        }
    }
    return 0;
}

static void serve_one(int fd)
{
    char req[M_REQ_MAX + 1];
    size_t got = 0;
    int64_t deadline = srv_metrics_now_us() + M_IO_MS * 1000LL;
    for (;;) {
        int64_t left = (deadline - srv_metrics_now_us()) / 1000;
        if (left <= 0)
            return; /* a request that never ends: closed without an answer */
        struct pollfd pf = {fd, POLLIN, 0};
        int pr = poll(&pf, 1, (int)left);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            return;
        ssize_t k = recv(fd, req + got, M_REQ_MAX - got, MSG_DONTWAIT);
        if (k < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (k <= 0)
            return;
        got += (size_t)k;
        req[got] = 0;
        if (strstr(req, "\r\n\r\n"))
            break;
        if (got == M_REQ_MAX) {
            static const char b[] = "request headers too large\n";
            answer(fd, 431, "Request Header Fields Too Large", NULL, "text/plain", b,
                   sizeof b - 1);
            return;
        }
    }
    static const char text[] = "text/plain; charset=utf-8";
    int get = !strncmp(req, "GET ", 4), headm = !strncmp(req, "HEAD ", 5);
    const char *path = get ? req + 4 : headm ? req + 5 : NULL;
    if (!path) {
        static const char b[] = "only GET here\n";
        answer(fd, 405, "Method Not Allowed", "Allow: GET, HEAD\r\n", text, b, sizeof b - 1);
        return;
    }
    size_t pl = strcspn(path, " ?\r\n");
    if (pl != 8 || strncmp(path, "/metrics", 8)) {
        static const char b[] = "not found: the metrics are at /metrics\n";
        answer(fd, 404, "Not Found", NULL, text, b, sizeof b - 1);
        return;
    }
    char auth[1200];
    if (!srv_metrics_authorized(header(req, "authorization:", auth, sizeof auth) ? auth : NULL)) {
        static const char b[] = "a bearer token is needed (--metrics-token-file)\n";
        answer(fd, 401, "Unauthorized", "WWW-Authenticate: Bearer realm=\"metrics\"\r\n", text,
               b, sizeof b - 1);
        sodium_memzero(auth, sizeof auth);
        return;
    }
    sodium_memzero(auth, sizeof auth);
    size_t bl = 0;
    char *body = srv_metrics_render(&bl);
    if (!body) {
        static const char b[] = "out of memory\n";
        answer(fd, 500, "Internal Server Error", NULL, text, b, sizeof b - 1);
        return;
    }
    if (headm) { /* the length of what GET would send, no body */
        char headb[256];
        int hl = snprintf(headb, sizeof headb, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\n"
                          "Content-Length: %zu\r\nConnection: close\r\n\r\n",
                          SRV_METRICS_CTYPE, bl);
        srv_metrics_http_status(200);
        send_all(fd, headb, (size_t)hl);
    } else
        answer(fd, 200, "OK", NULL, SRV_METRICS_CTYPE, body, bl);
    free(body);
}

static void *listener(void *arg)
{
    (void)arg;
    for (;;) {
        struct pollfd pf[2] = {{M.lfd, POLLIN, 0}, {M.stop_pipe[0], POLLIN, 0}};
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (pf[1].revents)
            break;
        if (!(pf[0].revents & POLLIN))
            continue;
        int fd = accept(M.lfd, NULL, NULL); /* non-blocking: a client gone meanwhile is EAGAIN */
        if (fd < 0)
            continue;
        serve_one(fd);
        close(fd);
    }
    return NULL;
}

/* "HOST:PORT", "[V6]:PORT" or ":PORT" (every interface) split. */
static int split_hostport(const char *s, char *host, size_t hn, char *port, size_t pn)
{
    const char *colon;
    if (s[0] == '[') {
        const char *close = strchr(s, ']');
        if (!close || close[1] != ':')
            return -1;
        snprintf(host, hn, "%.*s", (int)(close - s - 1), s + 1);
        colon = close + 1;
    } else {
        colon = strrchr(s, ':');
        if (!colon || strchr(s, ':') != colon)
            return -1;
        snprintf(host, hn, "%.*s", (int)(colon - s), s);
    }
    const char *p = colon + 1;
    if (!*p || strlen(p) > 5 || strspn(p, "0123456789") != strlen(p) || atoi(p) > 65535)
        return -1;
    snprintf(port, pn, "%s", p);
    return 0;
}

int srv_metrics_addr_ok(const char *s)
{
    char h[256], p[8];
    return s && strlen(s) < 256 && split_hostport(s, h, sizeof h, p, sizeof p) == 0;
}

int srv_metrics_listen(const char *hostport, char *shown, size_t sn, char *why, size_t n)
{
    char host[256], port[8];
    if (!srv_metrics_addr_ok(hostport) ||
        split_hostport(hostport, host, sizeof host, port, sizeof port) != 0) {
        snprintf(why, n, "metrics-listen must be HOST:PORT, [IPV6]:PORT or :PORT, not '%.60s'",
                 hostport);
        return -1;
    }
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    int gr = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
    if (gr != 0) {
        snprintf(why, n, "metrics-listen %s: %s", hostport, gai_strerror(gr));
        return -1;
    }
    int fd = -1, err = 0;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, 16) != 0) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(why, n, "metrics-listen %s: %s", hostport, strerror(err ? err : EINVAL));
        return -1;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    char hb[256] = "?", pb[32] = "?";
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
        getnameinfo((struct sockaddr *)&ss, sl, hb, sizeof hb, pb, sizeof pb,
                    NI_NUMERICHOST | NI_NUMERICSERV);
    snprintf(shown, sn, "%s%s%s:%s", strchr(hb, ':') ? "[" : "", hb, strchr(hb, ':') ? "]" : "",
             pb);
    if (pipe(M.stop_pipe) != 0) {
        snprintf(why, n, "metrics-listen: %s", strerror(errno));
        close(fd);
        return -1;
    }
    M.lfd = fd;
    if (pthread_create(&M.th, NULL, listener, NULL) != 0) {
        snprintf(why, n, "metrics-listen: cannot start its thread");
        srv_metrics_stop();
        return -1;
    }
    M.running = 1;
    return 0;
}

void srv_metrics_stop(void)
{
    if (M.running) {
        ssize_t w = write(M.stop_pipe[1], "x", 1);
        (void)w;
        pthread_join(M.th, NULL);
        M.running = 0;
    }
    for (int i = 0; i < 2; i++)
        if (M.stop_pipe[i] >= 0) {
            close(M.stop_pipe[i]);
            M.stop_pipe[i] = -1;
        }
    if (M.lfd >= 0) {
        close(M.lfd);
        M.lfd = -1;
    }
}
