/* rawguard.c: checks on the raw bytes libwebsockets reads from a client,
 * for two rules libwebsockets 4.1 (Debian's) does not keep itself:
 *
 * - RFC 6455 5.1: a server MUST close the connection when a client frame is
 *   not masked. lws 4.1 parses the mask bit into a private member and
 *   accepts the frame (newer lws close it); its callbacks never say whether
 *   a frame was masked.
 * - RFC 6585 5: request headers too large get 431. lws 4.1 closes the
 *   connection without a status line when its header buffer overflows.
 *
 * Where the bytes are seen: lws reads a plain (non-TLS) socket with recv()
 * only (lws_ssl_capable_read_no_ssl in lib/core-net/output.c), so this file
 * defines recv(). The program's definition takes the place of libc's for
 * every shared library (ELF symbol interposition; ASan's interceptor is
 * weak, so it gives way too); it calls recvfrom(), which is what libc's
 * recv() does. Only sockets accepted by our listener on the event loop's
 * thread are looked at (srv_rawguard_accept, from
 * LWS_CALLBACK_FILTER_NETWORK_CONNECTION, before anything is read); every
 * other caller (libpq, any other thread) passes straight through. A
 * socket's entry remembers its inode, so a descriptor number reused by
 * anything else is not mistaken for the old connection.
 *
 * Per connection, a small parser follows the byte stream exactly as lws
 * gets it: request lines and headers (counting their bytes and lines, and
 * noting "Upgrade: websocket", "Content-Length" and "Transfer-Encoding"),
 * request bodies (skipped by their length), and after an upgrade the
 * WebSocket frame headers (the mask bit of each, payloads skipped by their
 * length).
 *
 * - A URL with more than SRV_QUERY_ARGS "&": 414 (lws 4.1 keeps each query
 *   argument, like each known header line, in a fixed table of 95 entries,
 *   and closes without an answer when it overflows: measured with 200
 *   arguments, or 100 Cookie lines).
 * - Headers past SRV_HEADER_MAX bytes or SRV_HEADER_LINES lines: the
 *   server writes "431 Request Header Fields Too Large" (a JSON body saying
 *   which limit) on the socket itself, shuts its side down, and from then
 *   on reads and discards what the client still sends (at most 1 MiB, then
 *   the connection is closed) so that the answer is not destroyed by a
 *   reset; lws never sees the oversized request. Each answer written here
 *   has its access line (raw_access), as lws' answers have theirs. lws' own header buffer is
 *   made larger than anything that passes these limits can fill (serve.c),
 *   so lws cannot fail first.
 * - An unmasked client frame: the WebSocket connection is closed with code
 *   1002 (protocol error) and the reason "unmasked frame"
 *   (srv_ws_protocol_error in ws_session.c); nothing of that frame or after
 *   it is acted on. A frame before the upgrade's answer (pipelined) is
 *   caught the same way.
 * - A request body with Transfer-Encoding (chunked): its length is not known
 *   here, so the connection is no longer looked at (http_api.c answers 411
 *   and closes it).
 * - A request (its headers, then its body by Content-Length) still coming
 *   CHARTERED_REQUEST_SECONDS (default 20) after its first byte gets "408
 *   Request Timeout" and the connection is closed (srv_rawguard_tick, from
 *   the limits' tick: within a second). lws' own timeout starts again at
 *   every byte read, so a body trickled at a byte every 20 s held its
 *   connection forever (issue 28). Idle keep-alive connections and
 *   WebSockets have no request under way and are not affected.
 */
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE /* recv() is defined here, not wrapped by fortify */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "net/net.h"

enum { RG_OFF, RG_HEAD, RG_BODY, RG_WS, RG_DRAIN };
enum { F_B0, F_B1, F_LEN, F_KEY, F_DATA };

typedef struct rg_conn {
    ino_t ino;                 /* the socket's inode when it was accepted */
    uint8_t phase;
    /* headers */
    uint32_t head_bytes, head_lines, query_args;
    uint8_t upgrade, chunked;
    uint64_t content_length;
    char line[32];             /* start of the current line, lower case */
    char method[8];            /* the request line's method and path (as sent, */
    char path[96];             /* cut at its query, a space or the size) for the
                                  access line of an answer written here */
    uint8_t rl_part;           /* 0 method, 1 path, 2 the rest of the line */
    uint8_t rl_len;
    uint32_t line_len;
    /* body */
    uint64_t left;             /* body bytes, or payload bytes, still to skip */
    int64_t req_start;         /* ms: first byte of the request under way; 0: none */
    /* WebSocket frames */
    uint8_t fstate, need;      /* header part and its bytes still to read */
    uint64_t plen;
    uint8_t unmasked;          /* an unmasked frame was seen */
    void *client;              /* srv_client of ws_session.c, once established */
    uint32_t drained;
} rg_conn;

#define RG_DRAIN_MAX (1u << 20)

static rg_conn **tab;          /* by descriptor; NULL: never accepted */
static int ntab;
static int hi_fd = -1;         /* the highest descriptor accepted */
static int64_t now_ms;         /* the time of the read being followed */
static pthread_t loop_thread;
static int started;
static void (*on_protocol_error)(void *client, const char *why);

void srv_rawguard_start(void (*protocol_error)(void *client, const char *why))
{
    on_protocol_error = protocol_error;
    struct rlimit rl;
    long n = 65536;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        n = (long)rl.rlim_cur;
    if (n > (1L << 20))
        n = 1L << 20; /* descriptors above are not looked at */
    if (!tab) {
        tab = calloc((size_t)n, sizeof *tab);
        if (!tab)
            return;
        ntab = (int)n;
    }
    loop_thread = pthread_self();
    started = 1;
}

void srv_rawguard_stop(void)
{
    started = 0;
    for (int i = 0; tab && i < ntab; i++)
        free(tab[i]);
    free(tab);
    tab = NULL;
    ntab = 0;
    hi_fd = -1;
}

static ino_t inode_of(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 ? st.st_ino : 0;
}

void srv_rawguard_accept(int fd)
{
    if (!started || fd < 0 || fd >= ntab)
        return;
    if (!tab[fd] && !(tab[fd] = malloc(sizeof *tab[fd])))
        return;
    memset(tab[fd], 0, sizeof *tab[fd]);
    tab[fd]->ino = inode_of(fd);
    tab[fd]->phase = RG_HEAD;
    if (fd > hi_fd)
        hi_fd = fd;
}

/* The entry of fd when it is still the connection accepted, else NULL. */
static rg_conn *conn_of(int fd)
{
    if (!started || fd < 0 || fd >= ntab || !tab[fd] || !tab[fd]->ino ||
        !pthread_equal(pthread_self(), loop_thread))
        return NULL;
    rg_conn *c = tab[fd];
    if (c->ino != inode_of(fd)) { /* closed; the number is someone else's now */
        c->ino = 0;
        c->phase = RG_OFF;
        c->client = NULL;
        return NULL;
    }
    return c;
}

void srv_rawguard_attach(int fd, void *client)
{
    rg_conn *c = conn_of(fd);
    if (c)
        c->client = client;
    else if (!client && started && fd >= 0 && fd < ntab && tab[fd])
        tab[fd]->client = NULL;
}

int srv_rawguard_unmasked(int fd)
{
    rg_conn *c = conn_of(fd);
    return c && c->unmasked;
}

/* The access line of an answer written here (--access-log, as http.c's for
 * every other answer: method, path without its query, status, bytes, ms,
 * addr; never a header's value). The headers were not read, so behind
 * --trust-proxy the client's address is unknown: "unread-xff@PEER". */
static void raw_access(int fd, rg_conn *c, unsigned status, size_t bytes)
{
    if (!srv_log_access_on())
        return;
    struct sockaddr_storage sa;
    socklen_t sl = sizeof sa;
    char peer[INET6_ADDRSTRLEN] = "?", addr[INET6_ADDRSTRLEN + 16];
    if (getpeername(fd, (struct sockaddr *)&sa, &sl) == 0) {
        if (sa.ss_family == AF_INET)
            inet_ntop(AF_INET, &((struct sockaddr_in *)&sa)->sin_addr, peer, sizeof peer);
        else if (sa.ss_family == AF_INET6)
            inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&sa)->sin6_addr, peer, sizeof peer);
    }
    const char *p = !strncmp(peer, "::ffff:", 7) && strchr(peer, '.') ? peer + 7 : peer;
    if (g_net.trust_proxy)
        snprintf(addr, sizeof addr, "unread-xff@%s", p);
    else
        snprintf(addr, sizeof addr, "%s", p);
    /* the bytes as sent may be anything: each one outside printable ASCII,
       and '"', '\\', '?', written as %XX (as a URL would) */
    char path[sizeof c->path * 3 + 1];
    size_t k = 0;
    for (size_t i = 0; i < sizeof c->path && c->path[i]; i++) {
        unsigned char b = (unsigned char)c->path[i];
        if (b > 0x20 && b < 0x7f && !strchr("\"\\?", b))
            path[k++] = (char)b;
        else
            k += (size_t)snprintf(path + k, sizeof path - k, "%%%02X", b);
    }
    path[k] = 0;
    char method[sizeof c->method];
    for (k = 0; k + 1 < sizeof method && c->method[k]; k++)
        method[k] = c->method[k] >= 'A' && c->method[k] <= 'Z' ? c->method[k] : '?';
    method[k] = 0;
    double ms = c->req_start ? (double)(srv_now_ms() - c->req_start) : -1;
    srv_http_access_line(method, path, status, bytes, ms, addr);
}

/* Writes an error answer on the socket itself (lws has not begun one: the
 * request is still coming), and its access line. */
static void raw_answer(int fd, rg_conn *c, const char *status, const char *what)
{
    char body[160], head[768];
    int bl = snprintf(body, sizeof body, "{\"error\":\"%s\"}", what);
    int hl = snprintf(head, sizeof head,
                      "HTTP/1.1 %s\r\n"
                      "Content-Type: application/json\r\nContent-Length: %d\r\n"
                      SRV_SECURITY_HEADERS
                      "Connection: close\r\n\r\n", status, bl);
    srv_metrics_http_status((unsigned)atoi(status));
    /* a fresh connection's send buffer is empty: both fit */
    ssize_t n = send(fd, head, (size_t)hl, MSG_NOSIGNAL);
    if (n == hl)
        (void)send(fd, body, (size_t)bl, MSG_NOSIGNAL);
    raw_access(fd, c, (unsigned)atoi(status), (size_t)bl);
}

static void too_large(int fd, rg_conn *c, const char *status, const char *what)
{
    raw_answer(fd, c, status, what);
    shutdown(fd, SHUT_WR);
    c->phase = RG_DRAIN;
    c->drained = 0;
}

static void request_line_reset(rg_conn *c)
{
    c->method[0] = c->path[0] = 0;
    c->rl_part = c->rl_len = 0;
}

/* A byte of the request line: its method and path kept (for raw_access). */
static void request_line_byte(rg_conn *c, unsigned char b)
{
    if (b == ' ' || b == '\r' || b == '\n') {
        if (c->rl_len || c->rl_part)
            c->rl_part = c->rl_part < 2 ? c->rl_part + 1 : 2;
        c->rl_len = 0;
        return;
    }
    if (c->rl_part == 1 && b == '?')
        c->rl_part = 2; /* the query: never kept */
    char *d = c->rl_part == 0 ? c->method : c->rl_part == 1 ? c->path : NULL;
    size_t cap = c->rl_part == 0 ? sizeof c->method : sizeof c->path;
    if (d && c->rl_len + 1u < cap) {
        d[c->rl_len++] = (char)b;
        d[c->rl_len] = 0;
    }
}

/* The end of a header line: what it says, and whether the headers end. */
static void end_line(rg_conn *c)
{
    const char *l = c->line;
    size_t n = c->line_len < sizeof c->line ? c->line_len : sizeof c->line;
    int blank = n == 0 || (n == 1 && l[0] == '\r');
    c->line_len = 0;
    if (!blank) {
        c->head_lines++;
        if (n >= 8 && !memcmp(l, "upgrade:", 8) && memmem(l, n, "websocket", 9))
            c->upgrade = 1;
        else if (n >= 15 && !memcmp(l, "content-length:", 15)) {
            uint64_t v = 0;
            for (size_t i = 15; i < n; i++)
                if (l[i] >= '0' && l[i] <= '9')
                    v = v * 10 + (uint64_t)(l[i] - '0');
            c->content_length = v;
        } else if (n >= 18 && !memcmp(l, "transfer-encoding:", 18))
            c->chunked = 1;
        return;
    }
    if (c->head_lines == 0)
        return; /* empty lines before a request line are allowed */
    /* the headers end: the request ends with them unless a body follows */
    c->req_start = 0;
    if (c->upgrade) {
        c->phase = RG_WS;
        c->fstate = F_B0;
    } else if (c->chunked) {
        c->phase = RG_OFF;
    } else if (c->content_length) {
        c->phase = RG_BODY;
        c->left = c->content_length;
        c->req_start = now_ms;
    }
    c->head_bytes = c->head_lines = c->query_args = 0;
    c->upgrade = c->chunked = 0;
    c->content_length = 0;
}

/* Feed n bytes to c's parser; -1: refused here (431 sent), the bytes are
 * dropped and lws never sees them. */
static int feed(int fd, rg_conn *c, const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        switch (c->phase) {
        case RG_HEAD: {
            unsigned char b = p[i++];
            if (!c->req_start) { /* the first byte of a request */
                c->req_start = now_ms;
                request_line_reset(c);
            }
            if (++c->head_bytes > SRV_HEADER_MAX) {
                too_large(fd, c, "431 Request Header Fields Too Large",
                          "the request line and headers may be at most " SRV_STR(SRV_HEADER_MAX)
                          " bytes");
                return -1;
            }
            if (c->head_lines == 0)
                request_line_byte(c, b);
            if (b == '&' && c->head_lines == 0 && ++c->query_args > SRV_QUERY_ARGS) {
                too_large(fd, c, "414 URI Too Long",
                          "the URL may have at most " SRV_STR(SRV_QUERY_ARGS) " query arguments");
                return -1;
            }
            if (b == '\n') {
                end_line(c);
                if (c->head_lines > SRV_HEADER_LINES) {
                    too_large(fd, c, "431 Request Header Fields Too Large",
                              "the request may have at most " SRV_STR(SRV_HEADER_LINES)
                              " header lines");
                    return -1;
                }
            } else {
                if (c->line_len < sizeof c->line)
                    c->line[c->line_len] = (char)(b >= 'A' && b <= 'Z' ? b + 32 : b);
                c->line_len++;
            }
            break;
        }
        case RG_BODY: {
            uint64_t k = n - i < c->left ? n - i : c->left;
            i += (size_t)k;
            c->left -= k;
            if (!c->left) {
                c->phase = RG_HEAD;
                c->req_start = 0;
            }
            break;
        }
        case RG_WS:
            switch (c->fstate) {
            case F_B0:
                i++;
                c->fstate = F_B1;
                break;
            case F_B1: {
                unsigned char b = p[i++];
                if (!(b & 0x80)) {
                    c->unmasked = 1;
                    c->phase = RG_OFF; /* nothing after it counts */
                    if (c->client && on_protocol_error)
                        on_protocol_error(c->client, "unmasked frame (RFC 6455 5.1)");
                    return 0;
                }
                c->plen = b & 0x7f;
                c->need = c->plen == 126 ? 2 : c->plen == 127 ? 8 : 0;
                if (c->need)
                    c->plen = 0;
                c->fstate = c->need ? F_LEN : F_KEY;
                if (!c->need)
                    c->need = 4;
                break;
            }
            case F_LEN:
                c->plen = (c->plen << 8) | p[i++];
                if (--c->need == 0) {
                    c->fstate = F_KEY;
                    c->need = 4;
                }
                break;
            case F_KEY:
                i++;
                if (--c->need == 0) {
                    c->left = c->plen;
                    c->fstate = c->left ? F_DATA : F_B0;
                }
                break;
            case F_DATA: {
                uint64_t k = n - i < c->left ? n - i : c->left;
                i += (size_t)k;
                c->left -= k;
                if (!c->left)
                    c->fstate = F_B0;
                break;
            }
            }
            break;
        default:
            return 0;
        }
    }
    return 0;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
    ssize_t n = recvfrom(fd, buf, len, flags, NULL, NULL);
    if (flags & MSG_PEEK)
        return n;
    rg_conn *c = n >= 0 ? conn_of(fd) : NULL;
    if (!c || c->phase == RG_OFF)
        return n;
    if (c->phase == RG_DRAIN) {
        /* after a 431: what the client still sends is read and dropped
           until it closes (its answer is not cut off by a reset) */
        c->drained += (uint32_t)n;
        if (n == 0 || c->drained > RG_DRAIN_MAX)
            return 0; /* lws closes the connection */
        errno = EAGAIN;
        return -1;
    }
    now_ms = srv_now_ms();
    if (n > 0 && feed(fd, c, buf, (size_t)n) < 0) {
        errno = EAGAIN; /* lws waits; the next read drains */
        return -1;
    }
    return n;
}

void srv_rawguard_tick(int64_t now, int64_t limit_ms)
{
    static int64_t last;
    if (!started || now - last < 1000)
        return;
    last = now;
    for (int fd = 0; fd <= hi_fd && fd < ntab; fd++) {
        rg_conn *c = tab[fd];
        if (!c || !c->req_start || (c->phase != RG_HEAD && c->phase != RG_BODY) ||
            now - c->req_start < limit_ms || !conn_of(fd))
            continue;
        char what[120];
        snprintf(what, sizeof what, "the request (headers and body) must arrive within %lld s",
                 (long long)(limit_ms / 1000));
        raw_answer(fd, c, "408 Request Timeout", what);
        /* both ways: lws' next read sees the end and closes the connection */
        shutdown(fd, SHUT_RDWR);
        c->phase = RG_OFF;
        c->req_start = 0;
    }
}
