/* rematch.c: POST /api/games/ID/rematch (docs/protocol.md, "Rematch"). A
 * player of a finished game proposes the same table again with one click:
 * a new game with the same edition, board, rules, pace (live with its turn
 * timer, or turn-based with its days) and bots, every person bound to the
 * seat they had (their account or guest session), and a new deal (a new
 * seed drawn by the server). The new game starts at once; each player opens
 * it from their result box or "My games". A finished game has at most one
 * rematch: the second click, by anyone, gets the same one. The link is
 * kept in the result of the old game (results.rematch) and shown to its
 * clients in the state frames ("rematch").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

/* The request that creates the same table (seats without their people). */
static json_t *same_table(const srv_game *g, int seat)
{
    json_t *setup = srv_setup_json(g);
    json_t *req = json_object();
    static const char *keep[] = {"edition", "players", "arrangement", "preset", "events", "mode",
                                 "days", "practice", "variant", NULL};
    for (int i = 0; keep[i]; i++) {
        json_t *v = json_object_get(setup, keep[i]);
        if (v)
            json_object_set(req, keep[i], v);
    }
    json_decref(setup);
    /* events are part of Building Amsterdam: given as a boolean */
    json_t *ev = json_object_get(req, "events");
    if (json_is_integer(ev))
        json_object_set_new(req, "events", json_boolean(json_integer_value(ev) != 0));
    if (g->turn_timer > 0)
        json_object_set_new(req, "turn_timer", json_integer(g->turn_timer));
    json_t *seats = json_array();
    for (int i = 0; i < g->nseats; i++) {
        const srv_seat *s = &g->seat[i];
        if (s->kind == SEAT_BOT)
            json_array_append_new(seats, json_pack("{s:s,s:s,s:i}", "kind", "bot", "bot", s->bot,
                                                   "strength", s->strength > 0 ? s->strength : 2));
        else
            json_array_append_new(seats, json_pack("{s:s,s:s}", "kind", "human", "access",
                                                   "reserved"));
    }
    json_object_set_new(req, "seats", seats);
    json_object_set_new(req, "seat", json_integer(seat));
    return req;
}

static void remember(srv_game *old, const char *id)
{
    snprintf(old->rematch, sizeof old->rematch, "%s", id);
    if (db_exec(srv_store_db(g_storage.store), "UPDATE results SET rematch=$1 WHERE game=$2",
                DB_P(DB_T(id), DB_T(old->id))) != 0)
        srv_logf(SRV_LOG_ERROR, "db.error", "game=%s the rematch link is not stored", old->id);
    /* every client of the old game sees the link */
    for (srv_client *c = old->clients; c; c = c->gnext)
        srv_client_want_state(c);
}

int srv_rematch(struct lws *wsi, srv_game *old)
{
    char why[300], link[64];
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.owner[0])
        return srv_http_error(wsi, 401, "a rematch needs a session: log in or play as a guest");
    int seat = srv_seat_of(old, me.owner);
    if (seat < 0)
        return srv_http_error(wsi, 403, "only a player of this game may propose a rematch");
    if (old->status != GAME_OVER)
        return srv_http_error(wsi, 409, "the game is not over yet");
    if (old->rematch[0] && srv_game_find(old->rematch)) {
        snprintf(link, sizeof link, "/#/play/%s", old->rematch);
        return srv_http_respond(wsi, 200, json_pack("{s:s,s:s,s:b}", "id", old->rematch, "link",
                                                    link, "created", 0), NULL);
    }
    /* a turn-based rematch counts against everyone's limit (turnbased.c) */
    for (int i = 0; old->days > 0 && i < old->nseats; i++) {
        const char *ow = old->seat[i].owner;
        if (old->seat[i].kind != SEAT_HUMAN || !ow[0])
            continue;
        long long uid = strncmp(ow, "u:", 2) == 0 ? strtoll(ow + 2, NULL, 10) : 0;
        if (srv_turn_count(ow, uid) >= SRV_TURN_GAMES_MAX) {
            snprintf(why, sizeof why, "%s already has %d turn-based games in play",
                     old->seat[i].name, SRV_TURN_GAMES_MAX);
            return srv_http_error(wsi, 409, why);
        }
    }
    json_t *req = same_table(old, seat);
    srv_game *g = srv_game_create(req, &me, why, sizeof why);
    json_decref(req);
    if (!g)
        return srv_http_error(wsi, 500, why);
    /* every other person sits where they sat: bound to their session */
    for (int i = 0; i < g->nseats; i++) {
        srv_seat *s = &g->seat[i];
        if (s->kind != SEAT_HUMAN || i == seat)
            continue;
        snprintf(s->name, sizeof s->name, "%s", old->seat[i].name);
        if (!old->seat[i].owner[0]) {
            /* a seat of a game from before sessions: nobody to bind it to;
               it is open, for whoever takes it from the lobby */
            s->open = 1;
            continue;
        }
        snprintf(s->owner, sizeof s->owner, "%s", old->seat[i].owner);
        s->claimed = 1;
        s->open = 0;
        memset(s->token, 0, sizeof s->token);
    }
    g->status = GAME_PLAYING;
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_HUMAN && !g->seat[i].claimed)
            g->status = GAME_WAITING;
    g->decide_since_ms = srv_now_ms();
    if (srv_store_create_game(g_storage.store, g) != 0) {
        srv_game_free(g);
        return srv_http_error(wsi, 500, "the database refused the new game");
    }
    srv_game_add(g);
    srv_game_log_created(g, "rematch", me.name);
    srv_game_kick_bots(g);
    remember(old, g->id);
    snprintf(link, sizeof link, "/#/play/%s", g->id);
    return srv_http_respond(wsi, 201, json_pack("{s:s,s:s,s:b}", "id", g->id, "link", link,
                                                "created", 1), NULL);
}
