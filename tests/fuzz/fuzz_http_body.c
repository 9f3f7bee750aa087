/* fuzz_http_body.c: libFuzzer harness of the JSON bodies the game server
 * reads (src/server/game/lobby.c), without sockets: the low two bits of byte 0
 * pick the reader, the rest is the JSON text as a request (or the
 * database) gives it.
 *   0: POST /api/games (srv_game_create; bit 4 of byte 0: sent by a guest
 *      session, who is seated at once, else by nobody): a game is made or
 *      the body is refused with a reason. A made game has 2..6 seats, a
 *      valid state, a bot for each bot seat, a 32-hex-digit invite token
 *      and its hash for each human seat but the creator's, which is bound
 *      to the creator's session and has none; the game list is unchanged.
 *   1: a stored setup (srv_setup_from_json), then the game started from it.
 *   2, 3: stored seats (srv_seats_from_store) for a game of
 *      (byte 0 >> 4) % 7 seats.
 * The server is a zeroed `srv` with no database, loop or workers: the
 * readers need none of them. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "serve.h"

static srv the_server;

static void check_created(srv_game *g)
{
    ch_msg why;
    if (g->nseats < 2 || g->nseats > CH_MAX_PLAYERS || g->nseats != g->st.nplayers)
        fz_fail("a created game has a bad seat count", g->id);
    if (ch_validate(&g->st, &why) != CH_OK)
        fz_fail("a created game has a bad state", why.text);
    for (int i = 0; i < g->nseats; i++) {
        const srv_seat *s = &g->seat[i];
        if (s->kind == SEAT_BOT && !s->bot_inst)
            fz_fail("a bot seat has no bot", s->name);
        if (s->kind == SEAT_HUMAN && s->owner[0]) { /* the creator's: no invite */
            if (s->token[0] || !s->claimed || strcmp(s->owner, "g:0123456789abcdef") != 0)
                fz_fail("the creator's seat is not bound to the creator alone", s->name);
        } else if (s->kind == SEAT_HUMAN) {
            if (strlen(s->token) != SRV_TOKEN_HEX || strlen(s->token_hash) != SRV_HASH_HEX)
                fz_fail("a human seat has no token or no token hash", s->name);
            for (int k = 0; k < SRV_TOKEN_HEX; k++)
                if (!isxdigit((unsigned char)s->token[k]))
                    fz_fail("a seat token is not hex", s->token);
            if (!srv_token_matches(s->token, s->token_hash))
                fz_fail("a seat token does not match its hash", s->token);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    g_srv = &the_server;
    /* as serve.c wires it: the game layer tells clients through ws_session.c */
    srv_clients_register(&(srv_client_ops){srv_ws_send_json, srv_ws_want_state});
    json_error_t e;
    json_t *j = json_loadb((const char *)data + 1, size - 1, JSON_REJECT_DUPLICATES, &e);
    if (!j)
        return 0; /* the server answers 400 with jansson's words: nothing of ours ran */
    char why[300] = "";
    switch (data[0] & 3) {
    case 0: {
        static const srv_ident guest = {.owner = "g:0123456789abcdef", .name = "Anke"};
        srv_game *g = srv_game_create(j, data[0] & 16 ? &guest : NULL, why, sizeof why);
        if (g) {
            check_created(g);
            srv_game_free(g);
        } else if (!why[0]) {
            fz_fail("a refused game has no reason", NULL);
        }
        if (g_tables.ngames != 0 || g_tables.games)
            fz_fail("creating a game changed the game list", NULL);
        break;
    }
    case 1: {
        srv_game *g = calloc(1, sizeof *g);
        if (!g)
            abort();
        if (srv_setup_from_json(g, j, why, sizeof why) == 0) {
            if (srv_game_start_state(g, why, sizeof why) != 0 && !why[0])
                fz_fail("a stored setup that cannot start has no reason", NULL);
        } else if (!why[0]) {
            fz_fail("a refused stored setup has no reason", NULL);
        }
        srv_game_free(g);
        break;
    }
    default: {
        srv_game *g = calloc(1, sizeof *g);
        if (!g)
            abort();
        g->nseats = (data[0] >> 4) % (CH_MAX_PLAYERS + 1);
        if (srv_seats_from_store(g, j, why, sizeof why) != 0 && !why[0])
            fz_fail("refused stored seats have no reason", NULL);
        srv_game_free(g);
        break;
    }
    }
    json_decref(j);
    return 0;
}
