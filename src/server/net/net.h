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

/* A WebSocket connection (api.h); here only by pointer. */
typedef struct srv_client srv_client;

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
void srv_ls_report(void);       /* at the stop: the report to the file */
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
int srv_rate_take(srv_client *c, int64_t now_ms);
void srv_rawguard_start(void);                 /* on the event loop's thread */
void srv_rawguard_stop(void);
void srv_rawguard_accept(int fd);              /* a connection accepted, nothing read yet */
void srv_rawguard_attach(int fd, void *client); /* its WebSocket client, or NULL */
int srv_rawguard_unmasked(int fd);             /* an unmasked frame came */
/* Requests (headers and body) still coming past their deadline get 408 and
 * are closed (every second or so, from srv_limits_tick). */
void srv_rawguard_tick(int64_t now_ms);
/* HTTP keep-alive: an idle connection is closed after SRV_HTTP_IDLE_S
 * seconds (libwebsockets' keepalive_timeout, serve.c); answers tell clients
 * SRV_HTTP_IDLE_HINT_S ("Keep-Alive: timeout=4", http_api.c), one second
 * less, so that they do not reuse a connection the server is closing. */
#define SRV_HTTP_IDLE_S 5
#define SRV_HTTP_IDLE_HINT_S 4
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
int srv_sender_start(struct lws_context *ctx); /* 0, or -1: no thread */
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

#endif
