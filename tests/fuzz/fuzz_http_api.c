/* fuzz_http_api.c: libFuzzer harness of the game server's HTTP requests
 * that create games (POST /api/games; docs/protocol.md), whole: request
 * line, headers and body go through libwebsockets' own HTTP parser and the
 * server's request handling (srv_http_callback, src/server/api/http_api.c:
 * routing, the body read in pieces, the session's reads, srv_game_create,
 * the database, the answer), not only the JSON reader that fuzz_http_body
 * calls. Issue 28 ("What to build" 3).
 *
 * Input: the bytes a client sends on one connection, as they are (more
 * than one request may follow on it). Only inputs whose first line names
 * /api/games are run (the other routes: password hashing, static files,
 * have their tests elsewhere; a request to them is a wasted execution
 * here). One libwebsockets context is made once, with no listening socket,
 * and the server's HTTP callbacks as serve.c dispatches them; each input is
 * written into one end of a socket pair whose other end the context adopts
 * as an HTTP connection, and the loop is turned until the answers are in
 * (or nothing moves any more), then the connection is closed.
 *
 * Checks, beyond "no crash, no sanitizer report":
 * - what comes back is HTTP/1.x answers, each with a status line, and JSON
 *   bodies of the length announced;
 * - a 201 answer names a game (16 hex digits) that is now in memory, with
 *   2 to 6 seats, a valid state and a seat list of that length; a 4xx
 *   answer says why ({"error": "..."}, not empty);
 * - no game is made without a 201 answer.
 * After each input the games made are dropped (the database, SQLite in
 * memory, is opened anew every 4,096 inputs so that it stays small).
 * FUZZ_HTTP_SHOW=1 in the environment prints the answers to each input. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "serve.h"

static srv the_server;
static struct lws_context *ctx;
static struct lws_vhost *vhost;
static struct lws *conn;   /* the adopted connection, until it is gone */
static unsigned inputs;

/* serve.c's dispatch of the HTTP callbacks (its `callback`) */
static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    switch (reason) {
    case LWS_CALLBACK_HTTP:
    case LWS_CALLBACK_HTTP_BODY:
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
    case LWS_CALLBACK_HTTP_WRITEABLE:
    case LWS_CALLBACK_CLOSED_HTTP:
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        return srv_http_callback(wsi, reason, user, in, len);
    case LWS_CALLBACK_HTTP_FILE_COMPLETION:
        if (lws_http_transaction_completed(wsi))
            return -1;
        return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        if (wsi == conn)
            conn = NULL;
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static const struct lws_protocols protocols[] = {
    {"chartered", callback, sizeof(srv_pss), 1024, 0, NULL, 256 * 1024},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

static void open_store(void)
{
    char why[300];
    if (g_storage.store)
        srv_store_close(g_storage.store);
    g_storage.store = srv_store_open(":memory:", 0, why, sizeof why);
    if (!g_storage.store)
        fz_fail("cannot open a database in memory", why);
}

static void init(void)
{
    /* one client makes every game here: the per-address limits on making
       games would refuse all but the first few (they have tests of their
       own, tests/server_limits.py) */
    setenv("CHARTERED_CREATES_PER_MINUTE", "1000000", 1);
    setenv("CHARTERED_WAITING_PER_ADDRESS", "1000000", 1);
    g_srv = &the_server;
    /* as serve.c wires it: the game layer tells clients through ws_session.c */
    srv_clients_register(&(srv_client_ops){srv_ws_send_json, srv_ws_want_state});
    /* a first line such as "GET /x /api/games" reaches the static files:
       there are none here */
    g_api.web = "/nonexistent/web";
    g_api.i18n = "/nonexistent/i18n";
    open_store();
    lws_set_log_level(0, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN_SERVER;
    info.protocols = protocols;
    info.timeout_secs = 30;
    info.max_http_header_data = 3 * SRV_HEADER_MAX; /* as serve.c */
    ctx = lws_create_context(&info);
    if (!ctx)
        fz_fail("cannot make a libwebsockets context", NULL);
    vhost = lws_get_vhost_by_name(ctx, "default");
    if (!vhost)
        fz_fail("the context has no vhost", NULL);
}

/* One turn of the loop that never waits: cancelling first makes the poll
 * return at once. */
static void turn(void)
{
    lws_cancel_service(ctx);
    lws_service(ctx, 0);
}

static int hexid(const char *s)
{
    if (!s || strlen(s) != SRV_ID_HEX)
        return 0;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return 0;
    return 1;
}

/* Check the answers in out[0..n): returns how many games they made (201),
 * or -1 while the last one is incomplete. */
static int answers(const char *out, size_t n, int complete)
{
    int made = 0;
    size_t i = 0;
    while (i < n) {
        const char *a = out + i;
        size_t left = n - i;
        const char *end = NULL;
        for (size_t k = 0; k + 3 < left; k++)
            if (!memcmp(a + k, "\r\n\r\n", 4)) {
                end = a + k + 4;
                break;
            }
        if (left < 12 || !end) {
            if (complete)
                fz_fail("an answer ends inside its headers", a);
            return -1;
        }
        /* (an HTTP/1.0 request, or an older version, is answered in 1.0) */
        if ((memcmp(a, "HTTP/1.1 ", 9) != 0 && memcmp(a, "HTTP/1.0 ", 9) != 0) || a[9] < '1' || a[9] > '5')
            fz_fail("an answer does not start with an HTTP/1.x status line", a);
        int status = atoi(a + 9);
        long clen = -1;
        for (const char *h = a; h < end; h++)
            if ((*h == '\n') && !strncasecmp(h + 1, "content-length:", 15)) {
                clen = strtol(h + 16, NULL, 10);
                break;
            }
        if (clen < 0) {
            /* a status without a body (lws's own answers to broken
               requests): then the connection closes */
            i = n;
            break;
        }
        if ((size_t)(end - a) + (size_t)clen > left) {
            if (complete)
                fz_fail("an answer is shorter than its Content-Length", a);
            return -1;
        }
        if (status >= 200 && strstr(a, "application/json") && strstr(a, "application/json") < end) {
            json_error_t e;
            json_t *j = json_loadb(end, (size_t)clen, 0, &e);
            if (!j)
                fz_fail("a JSON answer does not parse", e.text);
            if (status >= 400) {
                const char *why = json_string_value(json_object_get(j, "error"));
                if (!why || !*why)
                    fz_fail("a refusal does not say why", a);
            }
            if (status == 201) {
                const char *id = json_string_value(json_object_get(j, "id"));
                json_t *seats = json_object_get(j, "seats");
                if (!hexid(id))
                    fz_fail("a made game's id is not 16 hex digits", a);
                srv_game *g = srv_game_find(id);
                if (!g)
                    fz_fail("a made game is not in memory", id);
                ch_msg why;
                if (g->nseats < 2 || g->nseats > CH_MAX_PLAYERS || g->nseats != g->st.nplayers ||
                    json_array_size(seats) != (size_t)g->nseats)
                    fz_fail("a made game has a bad seat count", id);
                if (ch_validate(&g->st, &why) != CH_OK)
                    fz_fail("a made game has a bad state", why.text);
                made++;
            }
            json_decref(j);
        }
        i += (size_t)(end - a) + (size_t)clen;
    }
    return made;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx)
        init();
    /* the first line must name /api/games */
    const uint8_t *nl = memchr(data, '\n', size);
    size_t first = nl ? (size_t)(nl - data) : size;
    int games = 0;
    for (size_t k = 0; k + 11 <= first && !games; k++)
        games = !memcmp(data + k, " /api/games", 11);
    if (!games || size > 65536)
        return 0;
    if (++inputs % 4096 == 0)
        open_store();

    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        fz_fail("socketpair", strerror(errno));
    fcntl(sv[1], F_SETFL, O_NONBLOCK);
    lws_sock_file_fd_type fd;
    fd.sockfd = sv[0];
    conn = lws_adopt_descriptor_vhost(vhost, LWS_ADOPT_SOCKET | LWS_ADOPT_HTTP, fd, NULL, NULL);
    if (!conn)
        fz_fail("libwebsockets did not adopt the connection", NULL);
    /* games read back from the database (made by an earlier input: the
       database lives across inputs) are in memory without a 201 */
    uint64_t reloaded = g_tables.games_reloaded;
    size_t sent = 0, n = 0, cap = 1 << 16;
    char *out = malloc(cap + 1);
    if (!out)
        abort();
    /* turn the loop while the request goes in and answers come out; stop
       when the answers are whole and nothing moved for a few turns */
    int still = 0;
    for (int t = 0; t < 400 && conn && still < 8; t++) {
        int moved = 0;
        if (sent < size) {
            ssize_t w = write(sv[1], data + sent, size - sent);
            if (w > 0) {
                sent += (size_t)w;
                moved = 1;
            }
        }
        turn();
        for (;;) {
            if (n == cap) {
                char *nb = realloc(out, (cap *= 2) + 1);
                if (!nb)
                    abort();
                out = nb;
            }
            ssize_t r = read(sv[1], out + n, cap - n);
            if (r <= 0)
                break;
            n += (size_t)r;
            moved = 1;
        }
        still = moved ? 0 : still + 1;
    }
    out[n] = '\0';
    /* the client goes away; the server ends the connection */
    close(sv[1]);
    for (int t = 0; t < 100 && conn; t++)
        turn();
    if (conn)
        fz_fail("the server kept a connection whose client went away", NULL);
    if (getenv("FUZZ_HTTP_SHOW")) /* to see what an input gets */
        fprintf(stderr, "%s\n", out);
    int made = answers(out, n, 1);
    free(out);
    /* no game is made without a 201 answer (or read back); drop the games */
    if ((uint64_t)g_tables.ngames != (uint64_t)made + (g_tables.games_reloaded - reloaded))
        fz_fail("the games in memory are not those answered 201", NULL);
    while (g_tables.games) {
        srv_game *g = g_tables.games;
        g_tables.games = g->lnext;
        srv_limit_unwait(g);
        srv_game_free(g);
    }
    memset(g_tables.hash, 0, sizeof g_tables.hash);
    g_tables.ngames = 0;
    return 0;
}
