/* net/metrics.h: the server's metrics registry (metrics.c; issue 35 item 2,
 * docs/deploy.md "Metrics"): counters, gauges and histograms kept as
 * atomics, so that any thread may count and any thread may render the
 * Prometheus text. Part of net's API (net/net.h includes it); a file that
 * only counts (the storage back ends) may include this header alone.
 */
#ifndef CHARTERED_SERVER_NET_METRICS_H
#define CHARTERED_SERVER_NET_METRICS_H

#include <stddef.h>
#include <stdint.h>

/* Counters, gauges and histograms as atomics: any thread may count, any
 * thread may render. The names and help texts are metrics.c's table. */
enum {
    SRV_M_MOVES_RECEIVED_PLAYER, SRV_M_MOVES_RECEIVED_BOT,
    SRV_M_MOVES_REFUSED_ILLEGAL, SRV_M_MOVES_REFUSED_STALE, SRV_M_MOVES_REFUSED_TURN,
    SRV_M_MOVES_REFUSED_NOT_STARTED, SRV_M_MOVES_REFUSED_NO_GAME,
    SRV_M_MOVES_REFUSED_UNAVAILABLE,
    SRV_M_MOVES_ACKNOWLEDGED, SRV_M_MOVES_ROLLED_BACK,
    SRV_M_COMMITS, SRV_M_COMMIT_FAILURES,
    SRV_M_DB_ERRORS_ERROR, SRV_M_DB_ERRORS_CONFLICT, SRV_M_DB_ERRORS_LOST, SRV_M_DB_RECONNECTS,
    SRV_M_WS_OPENED,
    SRV_M_HTTP_1XX, SRV_M_HTTP_2XX, SRV_M_HTTP_3XX, SRV_M_HTTP_4XX, SRV_M_HTTP_5XX,
    SRV_M_MAIL_SENT, SRV_M_MAIL_FAILED,
    SRV_M_NCOUNTERS
};
enum {
    SRV_G_WS_OPEN, SRV_G_GAMES_WAITING, SRV_G_GAMES_PLAYING, SRV_G_GAMES_OVER,
    SRV_G_MOVES_PENDING, SRV_G_BOT_QUEUE, SRV_G_MAIL_QUEUE, SRV_G_NGAUGES
};
enum { SRV_H_COMMIT_LATENCY, SRV_H_BOT_WAIT, SRV_H_LOOP_LAG, SRV_H_NHISTS };
#define SRV_M_UNSET INT64_MIN   /* an optional gauge not yet set: not shown */
#define SRV_M_LABEL_MAX 80
#define SRV_METRICS_CTYPE "text/plain; version=0.0.4; charset=utf-8"
/* At the start: the node's name, on build_info always and as a `node` label
 * of every series when label_node (a cluster node). */
void srv_metrics_init(const char *node, int label_node);
void srv_metrics_inc(int counter, uint64_t by);
uint64_t srv_metrics_counter(int counter);
void srv_metrics_set(int gauge, int64_t v);
void srv_metrics_add(int gauge, int64_t d);
void srv_metrics_observe(int hist, int64_t us); /* one observation, in µs */
void srv_metrics_http_status(unsigned status);  /* an HTTP answer's status, by class */
int64_t srv_metrics_now_us(void);               /* CLOCK_MONOTONIC, µs */
/* The exposition text (malloc'd, *len bytes), or NULL. */
char *srv_metrics_render(size_t *len);
/* --metrics-token-file: read the token (kept as its hash); 0, or -1 with why
 * (never the token). srv_metrics_authorized(the Authorization header or
 * NULL): 1 when no token is set or the bearer token matches (constant
 * time). */
int srv_metrics_token_file(const char *path, char *why, size_t n);
int srv_metrics_token_on(void);
int srv_metrics_authorized(const char *authorization);
/* --metrics-listen HOST:PORT: serve GET /metrics there from a thread of its
 * own (shown: the address bound). srv_metrics_addr_ok checks the form only. */
int srv_metrics_addr_ok(const char *hostport);
int srv_metrics_listen(const char *hostport, char *shown, size_t sn, char *why, size_t n);
void srv_metrics_stop(void);

#endif
