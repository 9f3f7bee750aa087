/* loadgen.c: load generator for `chartered serve` (docs/protocol.md). Creates
 * N games of 4 human seats over HTTP, opens a guest session per client
 * (POST /api/guest; the server must allow that many: CHARTERED_AUTH_LIMITS=
 * 10,200,0; these set-up requests go 16 at a time), connects 4 WebSocket
 * clients per game with their session's cookie, each taking its seat by its
 * invite token (raw sockets + epoll, one thread, so the generator itself
 * stays cheap), and has every client answer each state frame in which it decides with a
 * random legal move. It reports the connections held, the moves per second
 * that were accepted, committed and broadcast (a move counts when its mover
 * receives the state frame that follows it), the p50/p99/max latency from
 * sending a move to receiving that frame, and the server's resident memory
 * per connected client (from /proc/PID/status, VmRSS), and its own CPU per
 * move (it shares the machine's cores with the server).
 *
 *   loadgen [--host 127.0.0.1] [--port 8080] [--games 2000] [--seconds 30]
 *           [--think MS] [--warmup 5] [--server-pid PID] [--edition amsterdam|golden-age]
 *
 * --think MS: each client waits a random 0..2*MS before its move (default 0:
 * at once, which saturates the server); --warmup S: seconds played before
 * the measurement starts; --frames patch|full: the state frames asked for
 * in the join (default patch: views as JSON Patches after the first,
 * docs/protocol.md; full: every view whole, as before deltas). It also
 * reports the median and mean size of the state frames (bytes per client
 * per move: every move sends one state frame to each client of its game).
 *
 * What it checks of each frame: its WebSocket framing, its type (state or
 * error, and which error), its `decision` (a move counts once a later
 * decision comes back), `status` (over) and its `legal` array, which must be
 * a well-formed JSON array of strings to be answered. It does not apply the
 * patches or read the view (tests/support/wsclient.py and the browser client
 * check those against full views). It is written to cost the machine it
 * shares with the server little (docs/performance.md, "The load generator's
 * own cost"): moves waiting for their think time sit in a heap ordered by
 * time instead of a scan of every client at each wake-up; frames are read
 * into one shared buffer (a client keeps only the part of a frame still
 * coming); the sockets are edge-triggered and a read that does not fill the
 * buffer is not repeated until epoll reports more; the `legal` array is read
 * in place instead of through jansson. What is left is mostly the kernel's
 * part of one send() per move and one recv() per frame.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

typedef struct conn {
    int fd;
    int state;              /* 0 connecting, 1 handshake sent, 2 open, 3 dead */
    int game, seat;
    char *in;               /* the start of a frame still coming (or of the
                               upgrade's answer), kept between reads */
    size_t inlen, incap;
    char out[512];          /* a move frame waiting for the socket */
    char cookie[96];        /* its guest session */
    size_t outlen;
    int sent_decision;      /* decision our last move was made for, -1 none */
    double sent_at;
    double due;             /* think time: send the move at this time */
    char move[96];
    char last_move[96];
    int move_decision;
    int fresh;              /* move chosen anew by the frames just read */
    int over;
} conn;

typedef struct game {
    char id[32];
    char token[4][40];
} game;

static const char *host = "127.0.0.1";
static int port = 8080;
static int ngames = 2000, seconds = 30, think_ms = 0, server_pid = 0, warmup = 5;
static const char *edition = "amsterdam";
static const char *frames_mode = "patch";
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int connect_to(int nonblock)
{
    int fd = socket(AF_INET, SOCK_STREAM | (nonblock ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, host, &a.sin_addr);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0 && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

/* ---- set-up requests: many HTTP requests, SETUP_PARALLEL at a time ----
 * Creating the games and one guest session per client is the set-up's
 * cost (each a durable write on the server's writer thread); requests in
 * flight together let the server's loop and writer take them back to back
 * instead of waiting on this process between them. Each request is its own
 * connection (Connection: close); an answer is whole when its body has the
 * Content-Length of its head, or when the server closes. */
#define SETUP_PARALLEL 16

typedef struct hslot {
    int fd, i;                  /* the socket (-1: free); request index */
    char req[768];
    size_t reqlen, sent;
    char resp[8192];
    size_t rlen;
} hslot;

/* Request i into req (at most cap bytes); its length. */
typedef size_t (*req_fn)(int i, char *req, size_t cap);
/* Answer i (NUL-terminated, len bytes); 0 if it is as expected. */
typedef int (*resp_fn)(int i, char *resp, size_t len);

static int answer_whole(const char *r, size_t len)
{
    const char *h = memmem(r, len, "\r\n\r\n", 4);
    if (!h)
        return 0;
    const char *cl = strcasestr(r, "\r\ncontent-length:");
    if (!cl || cl > h)
        return 0;
    return (size_t)(r + len - (h + 4)) >= (size_t)atol(cl + 17);
}

/* Make requests 0..n-1; -1 - i if request i failed (no connection, or an
 * unexpected answer), else 0. */
static int http_many(int n, req_fn make, resp_fn check)
{
    hslot *sl = calloc(SETUP_PARALLEL, sizeof *sl);
    int ep = epoll_create1(0), next = 0, done = 0, rc = 0;
    if (!sl || ep < 0) {
        fprintf(stderr, "loadgen: out of memory\n");
        exit(1);
    }
    for (int k = 0; k < SETUP_PARALLEL; k++)
        sl[k].fd = -1;
    while (done < n && rc == 0) {
        for (int k = 0; k < SETUP_PARALLEL && next < n; k++) {
            if (sl[k].fd >= 0)
                continue;
            hslot *h = &sl[k];
            h->i = next++;
            h->reqlen = make(h->i, h->req, sizeof h->req);
            h->sent = h->rlen = 0;
            h->fd = connect_to(1);
            if (h->fd < 0) {
                rc = -1 - h->i;
                break;
            }
            struct epoll_event ev = {.events = EPOLLOUT, .data.ptr = h};
            epoll_ctl(ep, EPOLL_CTL_ADD, h->fd, &ev);
        }
        struct epoll_event evs[SETUP_PARALLEL];
        int m = rc ? 0 : epoll_wait(ep, evs, SETUP_PARALLEL, 10000);
        if (m == 0 && rc == 0) {
            fprintf(stderr, "loadgen: no answer from the server in 10 s\n");
            rc = -1 - next;
        }
        for (int e = 0; e < m && rc == 0; e++) {
            hslot *h = evs[e].data.ptr;
            int finished = 0;
            if (h->sent < h->reqlen) {
                ssize_t w = send(h->fd, h->req + h->sent, h->reqlen - h->sent, MSG_NOSIGNAL);
                if (w < 0 && errno != EAGAIN) {
                    rc = -1 - h->i;
                    break;
                }
                if (w > 0)
                    h->sent += (size_t)w;
                if (h->sent == h->reqlen) {
                    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = h};
                    epoll_ctl(ep, EPOLL_CTL_MOD, h->fd, &ev);
                }
                continue;
            }
            for (;;) {
                ssize_t r = recv(h->fd, h->resp + h->rlen, sizeof h->resp - 1 - h->rlen,
                                 MSG_DONTWAIT);
                if (r > 0)
                    h->rlen += (size_t)r;
                h->resp[h->rlen] = 0;
                if (r == 0 || h->rlen == sizeof h->resp - 1 || answer_whole(h->resp, h->rlen)) {
                    finished = 1;
                    break;
                }
                if (r < 0) {
                    if (errno != EAGAIN && errno != EWOULDBLOCK)
                        finished = 1;
                    break;
                }
            }
            if (finished) {
                if (check(h->i, h->resp, h->rlen) != 0)
                    rc = -1 - h->i;
                close(h->fd);
                h->fd = -1;
                done++;
            }
        }
    }
    for (int k = 0; k < SETUP_PARALLEL; k++)
        if (sl[k].fd >= 0)
            close(sl[k].fd);
    close(ep);
    free(sl);
    return rc;
}

static game *games;
static struct conn *clients;

/* POST /api/guest: a guest session per client. A seat is played by a
 * session, which the WebSocket's upgrade carries in its Cookie header, as a
 * browser's would (docs/protocol.md). */
static size_t guest_req(int i, char *req, size_t cap)
{
    (void)i;
    return (size_t)snprintf(req, cap,
                            "POST /api/guest HTTP/1.1\r\nHost: %s\r\nContent-Type: "
                            "application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
                            host);
}

/* Its "chartered_session=..." cookie into the client. */
static int guest_resp(int i, char *resp, size_t len)
{
    (void)len;
    char *c = strstr(resp, "chartered_session=");
    if (!strstr(resp, " 201 ") || !c)
        return -1;
    size_t l = strcspn(c, ";\r\n");
    if (l >= sizeof clients[i].cookie)
        return -1;
    memcpy(clients[i].cookie, c, l);
    clients[i].cookie[l] = 0;
    return 0;
}

/* POST /api/games with 4 human seats (seed 1000 + k). */
static size_t game_req(int k, char *req, size_t cap)
{
    char body[256];
    snprintf(body, sizeof body,
             "{\"edition\":\"%s\",\"players\":4,\"seed\":%d,\"seats\":[{\"kind\":\"human\"},"
             "{\"kind\":\"human\"},{\"kind\":\"human\"},{\"kind\":\"human\"}]}",
             edition, 1000 + k);
    return (size_t)snprintf(req, cap,
                            "POST /api/games HTTP/1.1\r\nHost: %s\r\nContent-Type: "
                            "application/json\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
                            host, strlen(body), body);
}

/* The game's id and seat tokens into games[k]. */
static int game_resp(int k, char *resp, size_t len)
{
    (void)len;
    char *b = strstr(resp, "\r\n\r\n");
    if (!b || !strstr(resp, " 201 "))
        return -1;
    json_t *j = json_loads(b + 4, 0, NULL);
    if (!j)
        return -1;
    game *g = &games[k];
    const char *id = json_string_value(json_object_get(j, "id"));
    json_t *seats = json_object_get(j, "seats");
    int ok = id != NULL && json_array_size(seats) == 4;
    snprintf(g->id, sizeof g->id, "%s", id ? id : "");
    for (int s = 0; s < 4 && ok; s++) {
        const char *t = json_string_value(json_object_get(json_array_get(seats, (size_t)s), "token"));
        ok = t != NULL;
        snprintf(g->token[s], sizeof g->token[s], "%s", t ? t : "");
    }
    json_decref(j);
    return ok ? 0 : -1;
}

static void ws_frame(conn *c, const char *text)
{
    size_t n = strlen(text);
    unsigned char *p = (unsigned char *)c->out + c->outlen;
    if (c->outlen + n + 14 > sizeof c->out)
        return;
    size_t h = 0;
    p[h++] = 0x81;
    if (n < 126) {
        p[h++] = (unsigned char)(0x80 | n);
    } else {
        p[h++] = 0x80 | 126;
        p[h++] = (unsigned char)(n >> 8);
        p[h++] = (unsigned char)n;
    }
    uint32_t key = (uint32_t)rnd();
    memcpy(p + h, &key, 4);
    unsigned char *k = p + h;
    h += 4;
    for (size_t i = 0; i < n; i++)
        p[h + i] = (unsigned char)text[i] ^ k[i & 3];
    c->outlen += h + n;
}

static void flush_out(conn *c)
{
    while (c->outlen) {
        ssize_t w = send(c->fd, c->out, c->outlen, MSG_NOSIGNAL);
        if (w <= 0)
            return;
        memmove(c->out, c->out + w, c->outlen - (size_t)w);
        c->outlen -= (size_t)w;
    }
}

/* ---- statistics ---- */
static double *lat;
static size_t nlat, caplat;
static long moves_acked, frames_in, errors_in, stale_in, games_over, rate_limited;
/* the first error frame neither stale nor throttled, said at the end (a
   test that counts errors then shows which one it was) */
static char other_error[200];
static uint32_t *fsize;         /* sizes of the state frames received */
static size_t nfsize, capfsize;

static void add_fsize(size_t n)
{
    if (nfsize == capfsize) {
        capfsize = capfsize ? capfsize * 2 : 1 << 16;
        fsize = realloc(fsize, capfsize * sizeof *fsize);
    }
    fsize[nfsize++] = (uint32_t)n;
}

static int cmpu(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void add_lat(double v)
{
    if (nlat == caplat) {
        caplat = caplat ? caplat * 2 : 1 << 16;
        lat = realloc(lat, caplat * sizeof *lat);
    }
    lat[nlat++] = v;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One JSON string at *pp (which is at its opening quote), no further than
 * end: checked as JSON allows (escapes, no raw control characters) and, when
 * out is not NULL, decoded into out (n bytes, cut short if longer; \u
 * escapes of non-ASCII characters become '?': move notation is ASCII).
 * *pp is left after the closing quote. Returns 0, or -1 if malformed. */
static int json_str(const char **pp, const char *end, char *out, size_t n)
{
    const char *p = *pp + 1;
    size_t k = 0;
    while (p < end && *p != '"') {
        unsigned char ch = (unsigned char)*p++;
        if (ch < 0x20)
            return -1;
        if (ch == '\\') {
            if (p >= end)
                return -1;
            char e = *p++;
            switch (e) {
            case '"': case '\\': case '/': ch = (unsigned char)e; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            case 'n': ch = '\n'; break;
            case 'r': ch = '\r'; break;
            case 't': ch = '\t'; break;
            case 'u': {
                unsigned v = 0;
                for (int i = 0; i < 4; i++, p++) {
                    if (p >= end)
                        return -1;
                    char h = *p;
                    int d = h >= '0' && h <= '9'   ? h - '0'
                            : h >= 'a' && h <= 'f' ? h - 'a' + 10
                            : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                   : -1;
                    if (d < 0)
                        return -1;
                    v = v << 4 | (unsigned)d;
                }
                ch = v < 0x80 ? (unsigned char)v : '?';
                break;
            }
            default:
                return -1;
            }
        }
        if (out && k + 1 < n)
            out[k++] = (char)ch;
    }
    if (p >= end)
        return -1;
    if (out)
        out[k] = 0;
    *pp = p + 1;
    return 0;
}

/* The legal moves' array at p (its '['), no further than end: -1 if it is
 * not a well-formed JSON array of strings, else how many strings it has;
 * with want >= 0, the string of index want decoded into out. */
static long legal_array(const char *p, const char *end, long want, char *out, size_t n)
{
    long count = 0;
    p++;
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
            p++;
        if (p >= end)
            return -1;
        if (*p == ']' && count == 0)
            return 0;
        if (*p != '"' || json_str(&p, end, count == want ? out : NULL, n) != 0)
            return -1;
        count++;
        while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
            p++;
        if (p >= end)
            return -1;
        if (*p == ']')
            return count;
        if (*p++ != ',')
            return -1;
    }
}

/* Choose a random move from the "legal" array of a state frame (read in
 * place: it must be a well-formed array of JSON strings, as jansson required
 * before). */
static int pick(const char *frame, size_t len, char *out, size_t n)
{
    const char *p = memmem(frame, len > 4096 ? 4096 : len, "\"legal\":[", 9);
    if (!p)
        return 0;
    p += 8;
    const char *end = frame + len;
    long count = legal_array(p, end, -1, NULL, 0);
    if (count <= 0)
        return 0;
    char line[256];
    legal_array(p, end, (long)(rnd() % (uint64_t)count), line, sizeof line);
    if (strncmp(line, "range ", 6) == 0) {
        char prefix[64];
        long lo, hi;
        const char *sp = strrchr(line, ' ');
        hi = atol(sp + 2);
        const char *sp2 = sp - 1;
        while (sp2 > line && *sp2 != ' ')
            sp2--;
        lo = atol(sp2 + 2);
        if (hi < lo)
            return 0;
        snprintf(prefix, sizeof prefix, "%.*s", (int)(sp2 - (line + 6)) & 63, line + 6);
        snprintf(out, n, "%s f%ld", prefix, lo + (long)(rnd() % (uint64_t)(hi - lo + 1)));
    } else {
        size_t l = strlen(line);
        if (l >= n)
            l = n - 1;
        memcpy(out, line, l);
        out[l] = 0;
    }
    return 1;
}

static long field_int(const char *frame, size_t len, const char *key)
{
    const char *p = memmem(frame, len > 512 ? 512 : len, key, strlen(key));
    return p ? atol(p + strlen(key)) : -1;
}

static void on_frame(conn *c, const char *f, size_t len, double t)
{
    frames_in++;
    if (len > 20 && memmem(f, 40, "\"type\":\"error\"", 14)) {
        errors_in++;
        int stale = memmem(f, len, "\"stale\"", 7) != NULL;
        stale_in += stale;
        if (!stale && !memmem(f, len, "\"rate_limited\"", 14) && !other_error[0])
            snprintf(other_error, sizeof other_error, "%.*s",
                     (int)(len < sizeof other_error ? len : sizeof other_error - 1), f);
        if (memmem(f, len, "\"rate_limited\"", 14) && c->sent_decision >= 0) {
            /* throttled: send the same move again a little later */
            rate_limited++;
            snprintf(c->move, sizeof c->move, "%s", c->last_move);
            c->move_decision = c->sent_decision;
            c->sent_decision = -1;
            c->due = t + 0.1;
            c->fresh = 1;
        }
        return;
    }
    if (!memmem(f, len > 64 ? 64 : len, "\"type\":\"state\"", 14))
        return;
    add_fsize(len);
    long dec = field_int(f, len, "\"decision\":");
    if (c->sent_decision >= 0 && dec > c->sent_decision) {
        add_lat(t - c->sent_at);
        moves_acked++;
        c->sent_decision = -1;
    }
    const char *st = memmem(f, len > 512 ? 512 : len, "\"status\":\"", 10);
    if (st && (size_t)(f + len - st) >= 15 && memcmp(st + 10, "over\"", 5) == 0) {
        if (!c->over && c->seat == 0)
            games_over++;
        c->over = 1;
        return;
    }
    char mv[96];
    if (c->sent_decision < 0 && pick(f, len, mv, sizeof mv)) {
        snprintf(c->move, sizeof c->move, "%s", mv);
        c->move_decision = (int)dec;
        c->due = t + (think_ms ? (double)(rnd() % (uint64_t)(2 * think_ms)) / 1000.0 : 0);
        c->fresh = 1;
    }
}

/* ---- moves waiting for their think time: a binary heap by due time ----
 * A client's move goes in when it is chosen with a think time, or when a
 * throttled one is to be sent again. An entry whose client has since sent
 * its move, or chosen another (which has its own entry), is dropped when it
 * comes out; so the heap holds at most a few entries per client. */
typedef struct due_ent {
    double due;
    conn *c;
} due_ent;
static due_ent *heap;
static size_t nheap, capheap;

static void heap_push(conn *c)
{
    if (nheap == capheap) {
        capheap = capheap ? capheap * 2 : 4096;
        heap = realloc(heap, capheap * sizeof *heap);
        if (!heap) {
            fprintf(stderr, "loadgen: out of memory\n");
            exit(1);
        }
    }
    size_t i = nheap++;
    while (i > 0 && heap[(i - 1) / 2].due > c->due) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = (due_ent){c->due, c};
}

static void heap_pop(void)
{
    due_ent last = heap[--nheap];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        double best = last.due;
        if (l < nheap && heap[l].due < best)
            m = l, best = heap[l].due;
        if (l + 1 < nheap && heap[l + 1].due < best)
            m = l + 1;
        if (m == i)
            break;
        heap[i] = heap[m];
        i = m;
    }
    if (nheap)
        heap[i] = last;
}

static void send_move(conn *c, double t)
{
    char buf[256];
    snprintf(buf, sizeof buf, "{\"type\":\"move\",\"move\":\"%s\",\"decision\":%d}", c->move,
             c->move_decision);
    ws_frame(c, buf);
    flush_out(c);
    c->sent_decision = c->move_decision;
    c->sent_at = t;
    memcpy(c->last_move, c->move, sizeof c->last_move);
    c->move[0] = 0;
}

/* Send every move whose think time is over. */
static void send_due(double t)
{
    while (nheap && heap[0].due <= t) {
        conn *c = heap[0].c;
        heap_pop();
        if (c->state == 2 && c->move[0] && c->due <= t)
            send_move(c, t);
    }
}

/* Consume the whole frames of buf (len bytes, read from c); returns how many
 * bytes were consumed (the rest is the start of a frame still coming), or -1
 * if the connection is to be dropped (a refused upgrade, a close frame). */
static long parse_in(conn *c, char *buf, size_t len, double t)
{
    size_t off = 0;
    if (c->state == 1) {
        char *e = memmem(buf, len, "\r\n\r\n", 4);
        if (!e)
            return 0;
        if (!memmem(buf, (size_t)(e - buf), " 101 ", 5))
            return -1;
        off = (size_t)(e - buf) + 4;
        c->state = 2;
    }
    for (;;) {
        unsigned char *p = (unsigned char *)buf + off;
        size_t avail = len - off;
        if (avail < 2)
            break;
        size_t n = p[1] & 127, h = 2;
        if (n == 126) {
            if (avail < 4)
                break;
            n = (size_t)p[2] << 8 | p[3];
            h = 4;
        } else if (n == 127) {
            if (avail < 10)
                break;
            n = 0;
            for (int i = 0; i < 8; i++)
                n = n << 8 | p[2 + i];
            h = 10;
        }
        if (avail < h + n)
            break;
        int op = p[0] & 15;
        if (op == 1)
            on_frame(c, (char *)p + h, n, t);
        else if (op == 8) {
            return -1;
        }
        off += h + n;
    }
    return (long)off;
}

/* The shared read buffer: a client's kept partial frame is copied to its
 * start, then the socket is read after it, and the whole frames are handled
 * in place. */
static char *rbuf;
static size_t rcap;
static long bytes_in;

/* Read what c's socket has and handle its whole frames. Returns 0, or -1 if
 * the connection is closed or dropped. */
static int read_conn(conn *c, double t)
{
    for (;;) {
        if (rcap < c->inlen + 65536) {
            rcap = c->inlen + 262144;
            rbuf = realloc(rbuf, rcap);
            if (!rbuf) {
                fprintf(stderr, "loadgen: out of memory\n");
                exit(1);
            }
        }
        size_t have = c->inlen;
        if (have) /* memcpy from a NULL buffer is undefined even for 0 bytes */
            memcpy(rbuf, c->in, have);
        size_t room = rcap - have;
        ssize_t r = recv(c->fd, rbuf + have, room, MSG_DONTWAIT);
        if (r <= 0)
            return r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) ? -1 : 0;
        bytes_in += r;
        size_t len = have + (size_t)r;
        long used = parse_in(c, rbuf, len, t);
        if (used < 0)
            return -1;
        size_t rest = len - (size_t)used;
        if (rest > c->incap) {
            c->incap = rest + 4096;
            free(c->in);
            c->in = malloc(c->incap);
            if (!c->in) {
                fprintf(stderr, "loadgen: out of memory\n");
                exit(1);
            }
        }
        if (rest)
            memcpy(c->in, rbuf + used, rest);
        c->inlen = rest;
        if ((size_t)r < room) /* the socket is empty: epoll (edge-triggered)
                                 says when it is not */
            break;
    }
    /* the move chosen from the last frame read, as before: at once, or
       after its think time */
    if (c->move[0] && c->state == 2) {
        if (c->due <= t)
            send_move(c, t);
        else if (c->fresh)
            heap_push(c);
    }
    c->fresh = 0;
    return 0;
}

/* CPU seconds (user + system) the process has used. */
static double cpu_s(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    unsigned long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* This process's CPU seconds (user + system), to the nanosecond: /proc
 * counts in clock ticks of 10 ms, too coarse for the 1-3 s a run takes. */
static double own_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long rss_kib(int pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    long v = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            v = atol(line + 6);
    if (f)
        fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i += 2) { /* every flag takes a value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "usage: loadgen [--host H] [--port P] [--games N] [--seconds S] "
                            "[--think MS] [--warmup S] [--server-pid PID] [--edition E] "
                            "[--frames patch|full]\n");
            return 2;
        }
        if (!strcmp(a, "--host"))
            host = v;
        else if (!strcmp(a, "--port"))
            port = atoi(v);
        else if (!strcmp(a, "--games"))
            ngames = atoi(v);
        else if (!strcmp(a, "--seconds"))
            seconds = atoi(v);
        else if (!strcmp(a, "--think"))
            think_ms = atoi(v);
        else if (!strcmp(a, "--server-pid"))
            server_pid = atoi(v);
        else if (!strcmp(a, "--edition"))
            edition = v;
        else if (!strcmp(a, "--warmup"))
            warmup = atoi(v);
        else if (!strcmp(a, "--frames") && (!strcmp(v, "patch") || !strcmp(v, "full")))
            frames_mode = v;
        else {
            fprintf(stderr, "loadgen: unknown flag %s\n", a);
            return 2;
        }
    }
    if (ngames < 1 || seconds < 1) {
        fprintf(stderr, "loadgen: --games and --seconds must be at least 1\n");
        return 2;
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
        /* one descriptor per client, and a few of its own: say so now
           rather than fail connections one by one later */
        if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (rlim_t)ngames * 4 + 64) {
            fprintf(stderr, "loadgen: %d clients need %d open files; the limit is %llu "
                    "(hard limit %llu: raise it with ulimit -Hn as root, or use fewer games)\n",
                    ngames * 4, ngames * 4 + 64, (unsigned long long)rl.rlim_cur,
                    (unsigned long long)rl.rlim_max);
            return 2;
        }
    }
    long rss0 = server_pid ? rss_kib(server_pid) : -1;
    games = calloc((size_t)ngames, sizeof *games);
    double t0 = now_s();
    int rc = http_many(ngames, game_req, game_resp);
    if (rc != 0) {
        fprintf(stderr, "loadgen: creating game %d failed (is the server on %s:%d?)\n", -1 - rc,
                host, port);
        return 1;
    }
    printf("created %d games in %.1f s\n", ngames, now_s() - t0);
    fflush(stdout);

    int nconn = ngames * 4;
    conn *cs = clients = calloc((size_t)nconn, sizeof *cs);
    t0 = now_s();
    rc = http_many(nconn, guest_req, guest_resp);
    if (rc != 0) {
        fprintf(stderr, "loadgen: guest session %d refused (start the server with "
                "CHARTERED_AUTH_LIMITS=10,200,0: no limit on guests)\n", -1 - rc);
        return 1;
    }
    printf("opened %d guest sessions in %.1f s (%d requests at a time)\n", nconn, now_s() - t0,
           SETUP_PARALLEL);
    fflush(stdout);
    int ep = epoll_create1(0);
    int opened = 0, open_ok = 0, dead = 0;
    t0 = now_s();
    /* connect in waves so the listen queue never overflows */
    while (open_ok + dead < nconn) {
        while (opened < nconn && opened - open_ok - dead < 256) {
            conn *c = &cs[opened];
            c->game = opened / 4;
            c->seat = opened % 4;
            c->sent_decision = -1;
            c->fd = connect_to(1);
            if (c->fd < 0) {
                fprintf(stderr, "loadgen: connect failed: %s\n", strerror(errno));
                c->state = 3;
                dead++;
                opened++;
                continue;
            }
            struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT, .data.ptr = c};
            epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
            opened++;
        }
        struct epoll_event evs[512];
        int n = epoll_wait(ep, evs, 512, 1000);
        double t = now_s();
        for (int i = 0; i < n; i++) {
            conn *c = evs[i].data.ptr;
            if (c->state == 0 && (evs[i].events & EPOLLOUT)) {
                char req[640], join[300];
                snprintf(req, sizeof req,
                         "GET /ws HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                         "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\nCookie: %s\r\n\r\n", host, port,
                         c->cookie);
                if (send(c->fd, req, strlen(req), MSG_NOSIGNAL) < 0) {
                    c->state = 3;
                    dead++;
                    continue;
                }
                c->state = 1;
                /* edge-triggered: a read that does not fill the buffer has
                   emptied the socket (read_conn), and the next bytes to come
                   wake us again; epoll does not look at the socket again
                   until they do */
                struct epoll_event ev = {.events = EPOLLIN | EPOLLET, .data.ptr = c};
                epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
                snprintf(join, sizeof join, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\","
                         "\"frames\":\"%s\"}",
                         games[c->game].id, games[c->game].token[c->seat], frames_mode);
                ws_frame(c, join);
            }
            if ((evs[i].events & EPOLLIN) && c->state != 3) {
                int was = c->state;
                if (read_conn(c, t) != 0) {
                    c->state = 3;
                    dead++;
                    continue;
                }
                if (was == 1 && c->state == 2) {
                    flush_out(c);
                    open_ok++;
                }
            }
        }
    }
    printf("connected %d of %d WebSocket clients in %.1f s (%d failed)\n", open_ok, nconn,
           now_s() - t0, dead);
    fflush(stdout);

    /* a warm-up (the join frames of every client are still going out),
       then the measured run */
    double start = now_s(), end = start + warmup + seconds;
    double cpu0 = 0, own0 = 0;
    int measuring = warmup <= 0;
    if (measuring) {
        cpu0 = server_pid ? cpu_s(server_pid) : 0;
        own0 = own_cpu_s();
    }
    long rss_peak = 0;
    double next_rss = start;
    for (;;) {
        double t = now_s();
        if (t >= end)
            break;
        /* sleep until the next move is due (at most 20 ms: the clock, the
           end and the memory samples are looked at on waking) */
        double wake = t + 0.02;
        if (nheap && heap[0].due < wake)
            wake = heap[0].due;
        int ms = wake > t ? (int)((wake - t) * 1000 + 0.999) : 0;
        struct epoll_event evs[1024];
        int n = epoll_wait(ep, evs, 1024, ms);
        t = now_s();
        if (!measuring && t >= start + warmup) {
            measuring = 1;
            start = t;
            moves_acked = 0;
            nlat = 0;
            frames_in = errors_in = stale_in = rate_limited = bytes_in = 0;
            other_error[0] = 0;
            nfsize = 0;
            cpu0 = server_pid ? cpu_s(server_pid) : 0;
            own0 = own_cpu_s();
        }
        for (int i = 0; i < n; i++) {
            conn *c = evs[i].data.ptr;
            if (c->state == 3)
                continue;
            if (read_conn(c, t) != 0) {
                c->state = 3;
                dead++;
            }
        }
        send_due(t); /* moves whose think time is over */
        if (server_pid && t >= next_rss) {
            long r = rss_kib(server_pid);
            if (r > rss_peak)
                rss_peak = r;
            next_rss = t + 1.0;
        }
    }
    double el = now_s() - start;
    long held = 0;
    for (int i = 0; i < nconn; i++)
        held += cs[i].state == 2;
    qsort(lat, nlat, sizeof *lat, cmpd);
    double p50 = nlat ? lat[nlat / 2] * 1000 : 0, p99 = nlat ? lat[(size_t)(nlat * 0.99)] * 1000 : 0;
    double mx = nlat ? lat[nlat - 1] * 1000 : 0;
    printf("connections held: %ld of %d (games %d x 4 clients)\n", held, nconn, ngames);
    printf("moves accepted, committed and broadcast: %ld in %.1f s = %.0f moves/s\n", moves_acked,
           el, moves_acked / el);
    printf("move-to-broadcast latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples)\n",
           p50, p99, mx, nlat);
    printf("frames received: %ld (%.1f MB), errors %ld (stale %ld, rate limited %ld), "
           "games finished %ld\n", frames_in, bytes_in / 1e6, errors_in, stale_in, rate_limited,
           games_over);
    if (other_error[0])
        printf("first other error: %s\n", other_error);
    if (nfsize) {
        double sum = 0;
        for (size_t i = 0; i < nfsize; i++)
            sum += fsize[i];
        qsort(fsize, nfsize, sizeof *fsize, cmpu);
        printf("state frames (%s): %zu, median %u bytes, mean %.0f bytes, p90 %u bytes "
               "(bytes per client per move)\n", frames_mode, nfsize, fsize[nfsize / 2],
               sum / (double)nfsize, fsize[(size_t)(nfsize * 0.9)]);
    }
    {
        /* the load generator shares the machine with the server: its own
           cost, to tell how much of the cores it took */
        double own = own_cpu_s() - own0;
        printf("loadgen CPU: %.2f s in %.1f s (%.0f%% of one core); %.3f ms per move\n", own, el,
               100 * own / el, moves_acked ? 1000 * own / (double)moves_acked : 0);
    }
    if (server_pid) {
        double cpu = cpu_s(server_pid) - cpu0;
        printf("server CPU: %.1f s in %.1f s (%.0f%% of one core); %.2f ms CPU per move, "
               "%.0f moves/s per fully used core\n", cpu, el, 100 * cpu / el,
               moves_acked ? 1000 * cpu / (double)moves_acked : 0,
               cpu > 0 ? (double)moves_acked / cpu : 0);
        long rss = rss_kib(server_pid);
        printf("server RSS: %ld KiB before, %ld KiB now, %ld KiB peak; per client %.1f KiB "
               "(total/clients), %.1f KiB (growth/clients)\n",
               rss0, rss, rss_peak, (double)rss / (double)(held ? held : 1),
               (double)(rss - rss0) / (double)(held ? held : 1));
    }
    for (int i = 0; i < nconn; i++) {
        if (cs[i].fd > 0)
            close(cs[i].fd);
        free(cs[i].in);
    }
    free(cs);
    free(games);
    free(lat);
    free(fsize);
    free(heap);
    free(rbuf);
    return 0;
}
