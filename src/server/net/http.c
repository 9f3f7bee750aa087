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
    /* A POST's answer ends its connection. libwebsockets 4.1 loops for
       ever (lws_service_do_ripe_rxflow) when a second request with a body
       is already waiting on the connection of a first one, and then
       answers no client at all (found by fuzz_http_api, issue 28). POSTs
       are few (sign-in, creating a game; moves go over the WebSocket), so
       a new connection per POST costs little. */
    int post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
    if (lws_add_http_common_headers(wsi, status, "application/json", bl, &p, end) == 0 &&
        (!post || lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION,
                                               (const unsigned char *)"close", 5, &p, end) == 0) &&
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
        if (lws_write(wsi, start, bl, LWS_WRITE_HTTP_FINAL) == (int)bl)
            rc = post || lws_http_transaction_completed(wsi) ? -1 : 0;
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

