/* metrics_api.c: GET /metrics on the main port (issue 35 item 2,
 * docs/deploy.md "Metrics"), and the gauges that belong to the event loop.
 *
 * On the main port the metrics are served only behind a bearer token
 * (--metrics-token-file): without one the path is 404, as before, so a
 * public site shows nothing it did not mean to. The text itself is made by
 * net/metrics.c from atomics; this file checks the token, refreshes the
 * loop's gauges and writes the answer. The separate address
 * (--metrics-listen) is served by net/metrics.c's own thread and never
 * comes here.
 */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

void srv_metrics_refresh(void)
{
    int64_t by[3] = {0, 0, 0};
    int64_t pending = 0;
    for (const srv_game *g = g_tables.games; g; g = g->lnext) {
        if (g->status >= GAME_WAITING && g->status <= GAME_OVER)
            by[g->status]++;
        pending += g->npending;
    }
    srv_metrics_set(SRV_G_GAMES_WAITING, by[GAME_WAITING]);
    srv_metrics_set(SRV_G_GAMES_PLAYING, by[GAME_PLAYING]);
    srv_metrics_set(SRV_G_GAMES_OVER, by[GAME_OVER]);
    srv_metrics_set(SRV_G_MOVES_PENDING, pending);
    srv_metrics_set(SRV_G_WS_OPEN, (int64_t)g_api.nclients);
}

/* One answer of type ctype; a 401 says how to authenticate (RFC 6750 3). */
static int answer(struct lws *wsi, unsigned status, const char *ctype, const char *body,
                  size_t bl)
{
    size_t cap = LWS_PRE + 2048 + bl;
    unsigned char *buf = malloc(cap);
    if (!buf)
        return -1;
    unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + cap;
    static const char www[] = "Bearer realm=\"metrics\"";
    int rc = -1;
    srv_metrics_http_status(status);
    if (lws_add_http_common_headers(wsi, status, ctype, bl, &p, end) == 0 &&
        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                     (const unsigned char *)"no-store", 8, &p, end) == 0 &&
        (status != 401 ||
         lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_WWW_AUTHENTICATE,
                                      (const unsigned char *)www, (int)sizeof www - 1, &p,
                                      end) == 0) &&
        srv_http_security_headers(wsi, &p, end) == 0 &&
        lws_add_http_header_by_name(wsi, (const unsigned char *)"keep-alive:",
                                    (const unsigned char *)SRV_KEEPALIVE_HINT,
                                    (int)sizeof SRV_KEEPALIVE_HINT - 1, &p, end) == 0 &&
        lws_finalize_write_http_header(wsi, start, &p, end) == 0) {
        memcpy(start, body, bl);
        if (lws_write(wsi, start, bl, LWS_WRITE_HTTP_FINAL) == (int)bl)
            rc = lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    free(buf);
    return rc;
}

int srv_metrics_route(struct lws *wsi, int is_post)
{
    if (!srv_metrics_token_on())
        return srv_http_error(wsi, 404, "not found: the metrics are served on the main port "
                              "only with --metrics-token-file (or on --metrics-listen)");
    if (is_post)
        return srv_http_error(wsi, 405, "only GET here");
    /* the header's value is never logged or kept; lws's copy is its own */
    char auth[1100] = "";
    int al = lws_hdr_copy(wsi, auth, sizeof auth, WSI_TOKEN_HTTP_AUTHORIZATION);
    int ok = srv_metrics_authorized(al > 0 ? auth : NULL);
    memset(auth, 0, sizeof auth);
    if (!ok) {
        static const char b[] = "a bearer token is needed (--metrics-token-file)\n";
        return answer(wsi, 401, "text/plain; charset=utf-8", b, sizeof b - 1);
    }
    srv_metrics_refresh();
    size_t bl = 0;
    char *body = srv_metrics_render(&bl);
    if (!body)
        return srv_http_error(wsi, 500, "out of memory");
    int rc = answer(wsi, 200, SRV_METRICS_CTYPE, body, bl);
    free(body);
    return rc;
}
