/* analysis_api.c: the routes of a finished game's analysis and of hints
 * (issue 33; docs/protocol.md "Analysis and hints"):
 *   GET  /api/games/ID/analysis   the analysis: done, under way, or none
 *   POST /api/games/ID/analysis   ask for it (a session; the game is over)
 *   POST /api/games/ID/hint       the bot's preferred move for the caller's
 *                                 seat, which must decide now (unrated games
 *                                 with a bot only)
 * The work is the game layer's (game/analysis.c): this file decodes the
 * request, names the asker (the session's owner) and the node, and writes
 * the answer when it comes back (srv_auth_answer_later, as the other
 * deferred answers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

/* A deferred answer: the request's handle, freed once answered. */
static void answered(void *ctx, unsigned status, json_t *body)
{
    srv_pwjob *j = ctx;
    srv_auth_answer_later(j, status, body, NULL);
    free(j);
}

static srv_pwjob *handle(struct lws *wsi)
{
    srv_pwjob *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->wsi = wsi;
    srv_pss *pss = lws_wsi_user(wsi);
    pss->pwjob = j; /* a request that goes away clears j->wsi (srv_auth_request_gone) */
    return j;
}

int srv_analysis_route(struct lws *wsi, srv_game *g, const char *verb, int is_post, int *rc)
{
    int hint = !strcmp(verb, "/hint");
    if (strcmp(verb, "/analysis") && !hint)
        return 0;
    if (hint && !is_post) {
        *rc = srv_http_error(wsi, 405, "POST here");
        return 1;
    }
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (hint) {
        /* refused before anything else in a rated game, whoever asks */
        const char *why = NULL;
        int st = srv_hint_allowed(g, &why);
        if (st) {
            *rc = srv_http_error(wsi, (unsigned)st, why);
            return 1;
        }
    }
    if (is_post && !me.owner[0]) {
        *rc = srv_http_error(wsi, 401, hint ? "a hint is for a seat of yours: join the game "
                             "first" : "an analysis is asked for by a session: play as a "
                             "guest or log in first");
        return 1;
    }
    srv_pwjob *j = handle(wsi);
    if (!j) {
        *rc = srv_http_error(wsi, 500, "out of memory");
        return 1;
    }
    if (hint)
        srv_hint_request(g, me.owner, answered, j);
    else if (is_post) {
        /* a guest's share is its network's (game/analysis.c): a new guest
           session is no new share */
        char net[48] = "";
        if (me.user_id <= 0)
            srv_client_network(wsi, net, sizeof net);
        srv_analysis_request(g, me.owner, net, srv_node_name(), answered, j);
    } else
        srv_analysis_get(g->id, answered, j);
    *rc = 0;
    return 1;
}
