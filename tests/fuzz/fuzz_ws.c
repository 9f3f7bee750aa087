/* fuzz_ws.c: libFuzzer harness of the WebSocket message handler of
 * `chartered serve` (src/server/api/ws_session.c), called without sockets
 * through srv_ws_handle_text: what the server does with each whole text
 * message of a client (join, watch, move, ping; errors).
 *
 * Each input is one session of two clients, each with a guest session of
 * its own (seats are bound to sessions): byte 0 picks the edition (bit 0)
 * of a new game (seed 7) of two human seats; the game's id is set to
 * 0000000000000001 and the seats' invite tokens to
 * 00000000000000000000000000000001 and ...02, so that inputs can join. The
 * rest is the clients' messages, one per line: a line starting with a tab
 * is the second client's (without the tab), any other the first's. After each message the database's part is played by the
 * harness: what was to be committed is taken as committed
 * (srv_commit_done); the client's answers are read after each message and
 * its state frame at the end, as the socket's writable callback would for a
 * client that reads slowly. Checks, beyond "no crash, no
 * sanitizer report": every answer is a JSON object with a "type", an error
 * with a code and a message; a state frame starts and ends as one; the
 * game's state stays valid after every message.
 * The server is a zeroed `srv` with no loop or workers; its database (the
 * sessions live there) is SQLite in memory. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "serve.h"

static srv the_server;
static srv_store *store;
static srv_ident guest[2];

static void init(void)
{
    char why[300];
    g_srv = &the_server;
    store = srv_store_open(":memory:", 0, why, sizeof why);
    if (!store)
        fz_fail("cannot open a database in memory", why);
    g_storage.store = store;
    char token[SRV_SESSION_HEX + 1];
    if (srv_session_create(0, "Anke", token, &guest[0]) != 0 ||
        srv_session_create(0, "Bram", token, &guest[1]) != 0)
        fz_fail("cannot make the guest sessions", NULL);
}

/* The game of each edition as srv_game_create makes it, made once: making
 * one per input parsed the board every time and ran about 70 inputs/s. A
 * session's game is a copy of it, which is a new game as long as the made
 * game holds no allocation (no log text, no bot, no view yet: checked). */
static srv_game *template_game(int ga)
{
    static srv_game *made[2];
    if (!made[ga]) {
        g_srv = &the_server;
        char why[300];
        /* a fixed seed: the same deal on every run of an input */
        json_t *req = json_pack("{s:s,s:i,s:i}", "edition", ga ? "golden-age" : "amsterdam",
                                "players", 2, "seed", 7);
        srv_game *g = srv_game_create(req, NULL, why, sizeof why);
        json_decref(req);
        if (!g)
            fz_fail("cannot create the game", why);
        for (int i = 0; i < g->nseats; i++) {
            snprintf(g->seat[i].token, sizeof g->seat[i].token, "%032d", i + 1);
            srv_token_hash(g->seat[i].token, g->seat[i].token_hash);
            if (g->seat[i].bot_inst)
                fz_fail("the template game has a bot", NULL);
        }
        snprintf(g->id, sizeof g->id, "%016d", 1);
        if (g->pending || g->static_json || g->common || g->clients || g->log[0].text[0][0])
            fz_fail("the template game holds allocations", NULL);
        made[ga] = g;
    }
    return made[ga];
}

static void check_frame(const unsigned char *text, size_t len, const char *what)
{
    json_error_t e;
    json_t *j = json_loadb((const char *)text, len, 0, &e);
    const char *type = json_string_value(json_object_get(j, "type"));
    if (!json_is_object(j) || !type)
        fz_fail(what, "not a JSON object with a type");
    if (!strcmp(type, "error") && (!json_string_value(json_object_get(j, "code")) ||
                                   !json_string_value(json_object_get(j, "message"))))
        fz_fail(what, "an error without a code or a message");
    json_decref(j);
}

static void commit_all(void)
{
    srv_game *list = g_tables.commit_list;
    g_tables.commit_list = NULL;
    for (srv_game *g = list, *nx; g; g = nx) {
        nx = g->next_commit;
        g->next_commit = NULL;
        g->queued = 0;
        g->meta_dirty = 0;
        srv_commit_done(g, g->npending, g->away_stored, 1);
    }
}

static void drain(srv_client *c, int with_state)
{
    for (srv_out *o = c->qhead, *nx; o; o = nx) {
        nx = o->next;
        check_frame(o->buf + LWS_PRE, o->len, "an answer");
        free(o);
    }
    c->qhead = c->qtail = NULL;
    c->qlen = 0;
    if (with_state && c->state_dirty && c->game && c->game->npending == 0) {
        c->state_dirty = 0;
        srv_out *o = srv_state_frame(c->game, c);
        if (o) {
            /* whole state frames (the board and card table in the first)
               are too long to parse for every input: most of the time went
               there; the server tests parse every one they get */
            static const char head[] = "{\"type\":\"state\"";
            if (o->len < sizeof head || memcmp(o->buf + LWS_PRE, head, sizeof head - 1) != 0 ||
                o->buf[LWS_PRE + o->len - 1] != '}' || memchr(o->buf + LWS_PRE, 0, o->len))
                fz_fail("a state frame", "does not look like one");
            /* not freed: the frame is in the loop's own buffer, valid until
               the next call (srv_state_frame, game/game.h) */
            srv_views_release(c->game);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!store)
        init();
    memset(&the_server, 0, sizeof the_server);
    memset(&g_tables, 0, sizeof g_tables);
    g_srv = &the_server;
    /* as serve.c wires it: the game layer tells clients through ws_session.c */
    srv_clients_register(&(srv_client_ops){srv_ws_send_json, srv_ws_want_state});
    g_storage.store = store;
    srv_game *g = malloc(sizeof *g);
    if (!g)
        abort();
    *g = *template_game(data[0] & 1);
    srv_game_add(g);

    srv_client *c[2];
    srv_pss pss[2];
    for (int k = 0; k < 2; k++) {
        c[k] = calloc(1, sizeof *c[k]);
        if (!c[k])
            abort();
        c[k]->seat = -1;
        c[k]->ident = guest[k];
        snprintf(c[k]->lang, sizeof c[k]->lang, "en");
        pss[k] = (srv_pss){.client = c[k]};
    }
    g_api.nclients = 2;

    char *all = fz_strndup(data + 1, size - 1);
    size_t total = size - 1, at = 0;
    while (at < total) {
        char *line = all + at, *nl = memchr(line, '\n', total - at);
        size_t len = nl ? (size_t)(nl - line) : total - at;
        at += len + 1;
        int k = len > 0 && line[0] == '\t';
        srv_ws_handle_text(c[k], line + k, len - (size_t)k);
        commit_all();
        /* a state frame costs more than a message: one per client and
           session (the newest), as a client that reads slowly gets */
        drain(c[0], at >= total);
        drain(c[1], at >= total);
        ch_msg m;
        if (ch_validate(&g->st, &m) != CH_OK)
            fz_fail("a message broke the game's state", m.text);
    }
    free(all);

    for (int k = 0; k < 2; k++) /* detaches and frees the client */
        srv_ws_callback(NULL, LWS_CALLBACK_CLOSED, &pss[k], NULL, 0);
    g_tables.games = NULL;
    memset(g_tables.hash, 0, sizeof g_tables.hash);
    srv_game_free(g);
    return 0;
}
