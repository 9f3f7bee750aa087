/* net/net.h: the bottom layer of the server (src/server/README.md): the
 * listener, raw guards of client sockets, WebSocket frames and send queues,
 * the sender thread, per-connection rate limits, the loop statistics. It
 * knows nothing of games.
 *
 * Threading: everything here is owned by the one libwebsockets event-loop
 * thread, except the sender thread (sender.c), which only touches the jobs
 * handed to it.
 */
#ifndef CHARTERED_SERVER_NET_H
#define CHARTERED_SERVER_NET_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <libwebsockets.h>
#include "chartered.h"
#include "text.h"
#include "net/log.h"

/* A WebSocket connection (api.h); here only by pointer. */
typedef struct srv_client srv_client;

/* What the net layer keeps for the whole server (clock.c), set by serve.c
 * at the start. */
typedef struct srv_net {
    struct lws_context *ctx;    /* the event loop's (NULL: not yet, or gone): a
                                   worker thread wakes the loop through it
                                   (lws_cancel_service) */
    int quiet;                  /* --quiet: no notices, errors only */
    int trust_proxy;            /* --trust-proxy: believe X-Forwarded-For/-Proto */
} srv_net;
extern srv_net g_net;

/* The log (log.c): srv_logf and the rest, in net/log.h. MODERATION
 * lines (ban, mute, ...): srv_log_moderation, there. */
/* Wall-clock time in ms (clock.c). */
int64_t srv_now_ms(void);

#define SRV_FRAME_MAX 16384   /* largest client frame (WebSocket and HTTP body) */
#define SRV_URL_MAX 2048      /* longest request URL (414 beyond) */
/* The request line and headers together, in bytes and in lines, and the
 * query arguments of a URL: beyond them 431 (414) is answered by rawguard.c
 * before libwebsockets sees the request (its header buffer is made larger
 * than this, serve.c, so it cannot overflow first). */
#define SRV_HEADER_MAX 16384
#define SRV_HEADER_LINES 50
#define SRV_QUERY_ARGS 32
#define SRV_STR_(x) #x
#define SRV_STR(x) SRV_STR_(x)
#define SRV_QUEUE_MAX 64      /* queued answers; more are dropped */
/* An outgoing frame (LWS_PRE bytes of room before the text). */
typedef struct srv_out {
    struct srv_out *next;
    size_t len;
    unsigned char buf[];
} srv_out;
/* the stages of a move, and the loop's busy time per iteration (histograms) */
enum { SRV_LS_ITER, SRV_LS_READ_SUBMIT, SRV_LS_COMMIT, SRV_LS_WRITE, SRV_LS_COMMIT_FRAME,
       SRV_LS_MOVE_FRAME, SRV_LS_SENDER, SRV_LS_NHIST };
/* the sections of the loop's time */
enum { SRV_LS_RECV, SRV_LS_DRAIN, SRV_LS_FLUSH, SRV_LS_COMMITNOW, SRV_LS_WRITABLE,
       SRV_LS_TIMERS, SRV_LS_EVICT, SRV_LS_TURN, SRV_LS_STORAGE, SRV_LS_CLUSTER,
       SRV_LS_LIMITS, SRV_LS_HTTP, SRV_LS_NSEC };
extern int srv_ls_on;           /* CHARTERED_LOOP_STATS is set */
int64_t srv_ls_now(void);       /* µs, CLOCK_MONOTONIC */
#define SRV_LS_T0() (srv_ls_on ? srv_ls_now() : 0)
void srv_ls_start(void);        /* reads CHARTERED_LOOP_STATS */
void srv_ls_add(int hist, int64_t us);
void srv_ls_moves(int k);       /* k moves stored (counted in their second) */
void srv_ls_sec_end(int sec, int64_t t0); /* a section that began at t0 ended */
void srv_ls_iter_begin(void);   /* epoll returned */
void srv_ls_iter_end(void);     /* the loop waits again */
void srv_ls_report(uint64_t moves); /* at the stop: the report to the file (moves stored) */
typedef struct srv_listen {
    int any;                    /* no --host: every interface */
    int family;                 /* AF_INET, AF_INET6; AF_UNSPEC for an interface */
    int is_iface;               /* --host names an interface (lo, eth0) */
    char iface[64];             /* what lws binds: a literal or the interface */
} srv_listen;
/* Resolve --host (NULL: every interface) into what lws must be given. */
int srv_listen_resolve(srv_listen *l, const char *host, char *why, size_t n);
/* After lws has bound: every listening socket of this process on `port` is
 * exactly the address asked for (the first one is written to bound), else -1
 * with the reason. */
int srv_listen_verify(const srv_listen *l, int port, char *bound, size_t bn, char *why,
                      size_t n);
/* 1 when the client may send one more frame now (and takes the token). */
/* A connection's token bucket (zero: full at its first frame). */
typedef struct srv_bucket {
    double tokens;
    int64_t ms;                 /* when it was last filled; 0: never */
} srv_bucket;
int srv_rate_take(srv_bucket *b, int64_t now_ms);
/* On the event loop's thread. protocol_error(client, why): an unmasked frame
 * came from the connection attached to client (its WebSocket session, which
 * closes it with code 1002; ws_session.c registers it). */
void srv_rawguard_start(void (*protocol_error)(void *client, const char *why));
void srv_rawguard_stop(void);
void srv_rawguard_accept(int fd);              /* a connection accepted, nothing read yet */
void srv_rawguard_attach(int fd, void *client); /* its WebSocket client, or NULL */
int srv_rawguard_unmasked(int fd);             /* an unmasked frame came */
/* Requests (headers and body) still coming past their deadline get 408 and
 * are closed (every second or so, from srv_limits_tick). */
void srv_rawguard_tick(int64_t now_ms, int64_t request_ms);
/* HTTP keep-alive: an idle connection is closed after SRV_HTTP_IDLE_S
 * seconds (libwebsockets' keepalive_timeout, serve.c); answers tell clients
 * SRV_HTTP_IDLE_HINT_S ("Keep-Alive: timeout=4", http_api.c), one second
 * less, so that they do not reuse a connection the server is closing. */
#define SRV_HTTP_IDLE_S 5
#define SRV_HTTP_IDLE_HINT_S 4
/* The Keep-Alive header of every answer (RFC 9112 leaves its "timeout"
 * to RFC 2068, 19.7.1.1: how long the server keeps an idle connection).
 * libwebsockets closes an idle keep-alive connection after
 * SRV_HTTP_IDLE_S seconds (serve.c, keepalive_timeout), within the second
 * after that; a client that reuses a connection just then gets it closed
 * without an answer. Saying one second less lets clients that read the
 * hint (Node's fetch, undici) open a new one before the close. */
#define SRV_KEEPALIVE_HINT "timeout=" SRV_STR(SRV_HTTP_IDLE_HINT_S)
/* The security headers of every HTTP answer (issue 28, low): the page runs
 * only its own scripts and styles (web/ has no inline script or style
 * attribute; styles set through element.style are not inline markup), talks
 * only to its own origin (the WebSocket too: CSP 3 'self' covers ws: and
 * wss: of the same host), may not be framed (clickjacking), types are not
 * sniffed, and no address is sent to other sites as a Referer. The favicon
 * is an empty data: URL (index.html). */
#define SRV_CSP "default-src 'self'; script-src 'self'; style-src 'self'; " \
                "img-src 'self' data:; connect-src 'self'; font-src 'self'; " \
                "object-src 'none'; base-uri 'none'; form-action 'self'; " \
                "frame-ancestors 'none'"
#define SRV_SECURITY_HEADERS "Content-Security-Policy: " SRV_CSP "\r\n" \
                             "X-Content-Type-Options: nosniff\r\n" \
                             "Referrer-Policy: same-origin\r\n" \
                             "X-Frame-Options: DENY\r\n"
/* sender.c: the thread that sends the WebSocket frames the loop built. A
 * client's job: its frames of one flush, framed, in order. Between
 * srv_sender_submit and srv_ws_sent, only the thread touches it (busy). */
typedef struct srv_sjob {
    struct srv_sjob *next;
    srv_client *c;              /* the loop's; NULL: its client was closed */
    int fd;                     /* the client's socket */
    int busy;                   /* with the sender (the loop's flag) */
    int dead;                   /* the client closed: not sent (under the lock) */
    int result;                 /* 0 all sent, 1 partly (sent < len), -1 failed */
    unsigned char *buf;
    size_t len, cap, sent;
    int64_t handed_us, sent_us; /* CLOCK_MONOTONIC (srv_ls_now) */
    int64_t ls_commit_us, ls_move_us; /* loop statistics of its state frame, or 0 */
} srv_sjob;
typedef struct srv_sender_counts {
    int on;
    int64_t busy_us, cpu_us;
    uint64_t batches, jobs, bytes, partial, failed;
    uint64_t forgotten;         /* jobs whose client was closed while they were out */
} srv_sender_counts;
/* 0, or -1: no thread. sent(j): a job is back, on the loop (srv_sender_drain);
 * its owner (ws_session.c's srv_ws_sent) registers it. */
int srv_sender_start(struct lws_context *ctx, void (*sent)(srv_sjob *j));
int srv_sender_on(void);
int64_t srv_send_direct_us(void);     /* a flush's time on the loop before the thread's */
void srv_sender_submit(srv_sjob *head, srv_sjob *tail); /* a flush's jobs, in order */
void srv_sender_forget(srv_sjob *j);  /* its client is closed: never sent to */
void srv_sender_drain(void);          /* the jobs back: srv_ws_sent each */
void srv_sender_stop(void);           /* before the context is destroyed */
void srv_sender_stats(srv_sender_counts *out);

/* One e-mail to an SMTP relay with libcurl (smtp.c): message is the whole
 * text with its headers, CRLF line ends. Blocks up to 40 s: call it from a
 * thread of its own, never the loop. 0 sent, -1 with the relay's reason. */
int srv_smtp_init(void);
int srv_smtp_send(const char *url, const char *from, const char *to, const char *message,
                  char *why, size_t n);
/* url as it may be printed: a password in it shown as ***. */
const char *srv_smtp_shown(const char *url, char *out, size_t n);

/* ---- HTTP answers and clients (http.c) ---- */
/* Answer a request with j (released) as JSON, with a Set-Cookie header when
 * cookie is not NULL. -1: close the connection. */
int srv_http_respond(struct lws *wsi, unsigned status, json_t *j, const char *cookie);
int srv_http_error(struct lws *wsi, unsigned status, const char *why);
/* Adds SRV_SECURITY_HEADERS to an answer's headers (http.c); 0: done. */
int srv_http_security_headers(struct lws *wsi, unsigned char **p, unsigned char *end);
/* The client's address for every per-address limit (http.c): with
 * --trust-proxy the right-most X-Forwarded-For entry, never the proxy's. */
void srv_client_addr(struct lws *wsi, char *out, size_t n);
/* --access-log (http.c): srv_http_begin when a request comes (its start),
 * srv_http_access when its answer is written (while its headers are still
 * there), srv_http_forget when its connection closes. Nothing when the
 * access log is off. */
void srv_http_begin(struct lws *wsi);
void srv_http_access(struct lws *wsi, unsigned status, size_t bytes);
void srv_http_forget(struct lws *wsi);
/* The access line itself, for an answer written without lws (rawguard.c's
 * 431, 414, 408): uri's query cut and its token-like segments as ***. */
void srv_http_access_line(const char *method, const char *uri, unsigned status, size_t bytes,
                          double ms, const char *addr);
/* The same: the client's address as text ("" when unknown). */
void srv_peer_addr(struct lws *wsi, char *out, size_t n);

/* ---- random tokens and their hashes (tokens.c) ---- */
#define SRV_TOKEN_HEX 32      /* 128-bit seat tokens */
#define SRV_HASH_HEX 64       /* BLAKE2b-256 of a token, as stored */
/* nhex hex digits from the OS random source into out (nhex+1 bytes). 0 or -1. */
int srv_random_hex(char *out, int nhex);
uint64_t srv_random_u64(void);
/* Constant-time comparison of two NUL-terminated tokens. */
int srv_token_equal(const char *a, const char *b);
/* The stored form of a token: BLAKE2b-256 of its text, 64 hex digits. */
void srv_token_hash(const char *token, char out[SRV_HASH_HEX + 1]);
/* 1 when token hashes to hash (compared in constant time). */
int srv_token_matches(const char *token, const char *hash);


/* ---- metrics (metrics.c): net/metrics.h, included here ---- */
#include "net/metrics.h"

#endif
