/* http.c: HTTP answers and what a request says of its client, for every
 * layer above: a JSON answer with the headers every answer carries (the
 * security headers, Keep-Alive), an error answer, and the client's address
 * (behind a trusted proxy, X-Forwarded-For). Nothing here knows a route. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"

int srv_http_security_headers(struct lws *wsi, unsigned char **p, unsigned char *end)
{
    static const char *const hs[][2] = {
        {"content-security-policy:", SRV_CSP},
        {"x-content-type-options:", "nosniff"},
        {"referrer-policy:", "same-origin"},
        {"x-frame-options:", "DENY"},
    };
    for (size_t i = 0; i < sizeof hs / sizeof hs[0]; i++)
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)hs[i][0],
                                        (const unsigned char *)hs[i][1], (int)strlen(hs[i][1]),
                                        p, end))
            return -1;
    return 0;
}

int srv_http_respond(struct lws *wsi, unsigned status, json_t *j, const char *cookie)
{
    srv_metrics_http_status(status); /* chartered_http_requests_total (metrics.c) */
    char *body = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!body)
        return -1;
    size_t bl = strlen(body);
    size_t cap = LWS_PRE + 2048 + bl;
    unsigned char *buf = malloc(cap);
    if (!buf) {
        free(body);
        return -1;
    }
    unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + cap;
    int rc = -1;
    /* Every JSON answer ends its connection. A POST's first: libwebsockets
       4.1 loops for ever (lws_service_do_ripe_rxflow) when a second
       request with a body is already waiting on the connection of a first
       one, and then answers no client at all (found by fuzz_http_api, issue
       28). POSTs are few (sign-in, creating a game; moves go over the
       WebSocket), so a new connection per POST costs little. Then an
       answer that waited for reads off the loop: 4.1 hands a request
       pipelined behind it a body taken from the wrong place in its buffer
       (fuzz_http_api); closing tells the client to send what it pipelined
       again (RFC 9112 9.3.2). And in the end every
       JSON answer: after any answer that leaves the connection open, 4.1
       replays a request pipelined behind it from a buffer it has freed
       (fuzz_http_api: a GET answered 404 at once, then a POST whose body
       had not all come). Browsers do not pipeline; an API request costs a
       new connection (static files keep theirs alive). */
    if (lws_add_http_common_headers(wsi, status, "application/json", bl, &p, end) == 0 &&
        lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION,
                                     (const unsigned char *)"close", 5, &p, end) == 0 &&
        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                     (const unsigned char *)"no-store", 8, &p, end) == 0 &&
        srv_http_security_headers(wsi, &p, end) == 0 &&
        lws_add_http_header_by_name(wsi, (const unsigned char *)"keep-alive:",
                                    (const unsigned char *)SRV_KEEPALIVE_HINT,
                                    (int)sizeof SRV_KEEPALIVE_HINT - 1, &p, end) == 0 &&
        (!cookie || lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_SET_COOKIE,
                                                 (const unsigned char *)cookie,
                                                 (int)strlen(cookie), &p, end) == 0) &&
        lws_finalize_write_http_header(wsi, start, &p, end) == 0) {
        memcpy(start, body, bl);
        srv_http_access(wsi, status, bl); /* before the request's headers are gone */
        /* rc stays -1 whether or not it was all written: the connection
           ends (above) */
        (void)lws_write(wsi, start, bl, LWS_WRITE_HTTP_FINAL);
    }
    free(buf);
    free(body);
    return rc;
}

int srv_http_error(struct lws *wsi, unsigned status, const char *why)
{
    return srv_http_respond(wsi, status, json_pack("{s:s}", "error", why), NULL);
}

/* The address a trusted proxy appended: the right-most entry of the last
 * X-Forwarded-For header line (HAProxy's `option forwardfor` adds a line of
 * its own, nginx's $proxy_add_x_forwarded_for appends ", ADDR" to the
 * client's line: either way the proxy's word is the last one, whatever the
 * client wrote before it). Written in canonical form (inet_ntop) so that
 * "0:0::1" and "::1" are one address, and an IPv4-mapped IPv6 address as
 * the IPv4 address it is. 1: found and read; 0: no header;
 * -1: a header whose last entry is not an address (or cannot be read). */
static int forwarded_for(struct lws *wsi, char *out, size_t n)
{
    int total = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR);
    if (total <= 0) { /* absent (0), or present and empty (-1) */
        char none[1];
        return lws_hdr_copy_fragment(wsi, none, 1, WSI_TOKEN_X_FORWARDED_FOR, 0) < 0 ? 0 : -1;
    }
    char *buf = malloc((size_t)total + 1);
    if (!buf)
        return -1;
    /* the last fragment (header line) */
    int got = -1;
    for (int i = 0; i < 4096; i++) {
        int fl = lws_hdr_copy_fragment(wsi, buf, total + 1, WSI_TOKEN_X_FORWARDED_FOR, i);
        if (fl < 0)
            break;
        got = i;
    }
    int rc = -1;
    if (got >= 0 && lws_hdr_copy_fragment(wsi, buf, total + 1, WSI_TOKEN_X_FORWARDED_FOR, got) >= 0) {
        char *last = strrchr(buf, ',');
        last = last ? last + 1 : buf;
        while (*last == ' ' || *last == '\t')
            last++;
        size_t len = strlen(last);
        while (len && (last[len - 1] == ' ' || last[len - 1] == '\t'))
            last[--len] = 0;
        if (len > 2 && last[0] == '[' && last[len - 1] == ']') { /* [v6] */
            last[len - 1] = 0;
            last++;
        }
        unsigned char bin[sizeof(struct in6_addr)];
        char canon[INET6_ADDRSTRLEN];
        if (inet_pton(AF_INET, last, bin) == 1 &&
            inet_ntop(AF_INET, bin, canon, sizeof canon)) {
            snprintf(out, n, "%s", canon);
            rc = 1;
        } else if (inet_pton(AF_INET6, last, bin) == 1 &&
                   (IN6_IS_ADDR_V4MAPPED((struct in6_addr *)bin) /* ::ffff:a.b.c.d is a.b.c.d */
                    ? inet_ntop(AF_INET, bin + 12, canon, sizeof canon)
                    : inet_ntop(AF_INET6, bin, canon, sizeof canon))) {
            snprintf(out, n, "%s", canon);
            rc = 1;
        }
    }
    free(buf);
    return rc;
}

/* The client's address, for every per-address limit (creations, waiting
 * games, connections, logins, chat). Without --trust-proxy: the peer. With
 * it: the address the proxy appended to X-Forwarded-For (issue 28 item 4:
 * a header longer than a fixed buffer used to fall back to the peer, the
 * proxy's exempt loopback address, and lifted every limit). A request
 * without the header comes from the proxy's machine itself (its health
 * checks): the peer. A header whose last entry is no address is never
 * taken for the peer: it counts as one client of its own per peer,
 * "unreadable-xff@PEER", which is not exempt. */
void srv_client_addr(struct lws *wsi, char *out, size_t n)
{
    char peer[INET6_ADDRSTRLEN + 8] = "";
    lws_get_peer_simple(wsi, peer, sizeof peer);
    if (!peer[0])
        snprintf(peer, sizeof peer, "?");
    if (g_net.trust_proxy) {
        char fwd[INET6_ADDRSTRLEN];
        int rc = forwarded_for(wsi, fwd, sizeof fwd);
        if (rc > 0) {
            snprintf(out, n, "%s", fwd);
            return;
        }
        if (rc < 0) {
            snprintf(out, n, "unreadable-xff@%s", peer);
            return;
        }
    }
    snprintf(out, n, "%s", peer);
}

void srv_peer_addr(struct lws *wsi, char *out, size_t n)
{
    srv_client_addr(wsi, out, n);
}


/* ---- the access log (--access-log; issue 35, item 3) ---------------------- */
/* One line a request: method, path (never its query: tokens travel there,
 * `/ws?game=ID&token=...`; and a path segment that looks like a token, as
 * in /api/unsubscribe/TOKEN, is written as "***"), status, bytes of the
 * body, time from the request to its answer, and the client's address
 * (srv_client_addr: behind --trust-proxy the proxy's word). No header is
 * written: no cookie, no Authorization. The request's start is kept by
 * connection in a small table (on the loop only); a collision loses a
 * start, and that line says ms=-1. */
#define ACC_SLOTS 1024
static struct {
    const struct lws *wsi;
    int64_t t0_us;
} acc[ACC_SLOTS];

static unsigned acc_slot(const struct lws *wsi)
{
    uintptr_t v = (uintptr_t)wsi;
    v ^= v >> 17;
    v *= 0x9E3779B1u;
    return (unsigned)(v >> 7) & (ACC_SLOTS - 1);
}

void srv_http_begin(struct lws *wsi)
{
    if (!srv_log_access_on())
        return;
    unsigned s = acc_slot(wsi);
    acc[s].wsi = wsi;
    acc[s].t0_us = srv_ls_now();
}

void srv_http_forget(struct lws *wsi)
{
    unsigned s = acc_slot(wsi);
    if (acc[s].wsi == wsi)
        acc[s].wsi = NULL;
}

/* path with every segment of 20 or more token characters (letters, digits,
   '-', '_') written as *** */
static void path_shown(const char *in, char *out, size_t n)
{
    size_t k = 0;
    const char *p = in;
    while (*p && k + 4 < n) {
        if (*p == '/') {
            out[k++] = *p++;
            continue;
        }
        size_t seg = strcspn(p, "/");
        int tokenish = seg >= 20;
        for (size_t i = 0; i < seg && tokenish; i++)
            if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
                  (p[i] >= '0' && p[i] <= '9') || p[i] == '-' || p[i] == '_'))
                tokenish = 0;
        if (tokenish) {
            memcpy(out + k, "***", 3);
            k += 3;
        } else {
            size_t c = seg < n - k - 1 ? seg : n - k - 1;
            memcpy(out + k, p, c);
            k += c;
        }
        p += seg;
    }
    out[k] = 0;
}

void srv_http_access(struct lws *wsi, unsigned status, size_t bytes)
{
    if (!srv_log_access_on() || !wsi)
        return;
    static const struct {
        enum lws_token_indexes tok;
        const char *name;
    } methods[] = {
        {WSI_TOKEN_GET_URI, "GET"}, {WSI_TOKEN_POST_URI, "POST"},
        {WSI_TOKEN_OPTIONS_URI, "OPTIONS"}, {WSI_TOKEN_PUT_URI, "PUT"},
        {WSI_TOKEN_PATCH_URI, "PATCH"}, {WSI_TOKEN_DELETE_URI, "DELETE"},
        {WSI_TOKEN_HEAD_URI, "HEAD"},
    };
    const char *method = "-";
    char uri[SRV_URL_MAX + 1] = "";
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (lws_hdr_total_length(wsi, methods[i].tok) > 0) {
            method = methods[i].name;
            if (lws_hdr_copy(wsi, uri, sizeof uri, methods[i].tok) < 0)
                uri[0] = 0;
            break;
        }
    char addr[64];
    srv_client_addr(wsi, addr, sizeof addr);
    unsigned s = acc_slot(wsi);
    double ms = -1;
    if (acc[s].wsi == wsi) {
        ms = (double)(srv_ls_now() - acc[s].t0_us) / 1000.0;
        acc[s].wsi = NULL;
    }
    srv_http_access_line(method, uri, status, bytes, ms, addr);
}

void srv_http_access_line(const char *method, const char *uri, unsigned status, size_t bytes,
                          double ms, const char *addr)
{
    if (!srv_log_access_on())
        return;
    char u[SRV_URL_MAX + 1];
    snprintf(u, sizeof u, "%s", uri ? uri : "");
    char *q = strchr(u, '?'); /* lws keeps the query apart; if not, it is cut */
    if (q)
        *q = 0;
    char path[SRV_URL_MAX + 1];
    path_shown(u, path, sizeof path);
    srv_log_access("method=%s path=%s status=%u bytes=%zu ms=%.1f addr=%s",
                   method && method[0] ? method : "-", path[0] ? path : "-", status, bytes, ms,
                   addr && addr[0] ? addr : "-");
}
