/* http_api.c: the HTTP side of the one port: the static browser client from
 * the web directory, the message catalogues /i18n/LANG.json, and the JSON
 * API under /api (options, health, create, list, summary, join, replay; the
 * accounts and sessions of auth_api.c). Answers are
 * JSON; bad requests get a 4xx status with {"error": reason}. See
 * docs/protocol.md.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sodium.h>

#include "api/api.h"
#include "text.h"

srv_api g_api;

static int respond(struct lws *wsi, unsigned status, json_t *j)
{
    return srv_http_respond(wsi, status, j, NULL);
}

static int respond_error(struct lws *wsi, unsigned status, const char *why)
{
    return srv_http_error(wsi, status, why);
}

static const char *mime_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    static const char *map[][2] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".json", "application/json"}, {".svg", "image/svg+xml"}, {".png", "image/png"},
        {".ico", "image/x-icon"}, {".woff2", "font/woff2"}, {".txt", "text/plain; charset=utf-8"},
        {".md", "text/markdown; charset=utf-8"},
        {".webmanifest", "application/manifest+json"}, {NULL, NULL}};
    for (int i = 0; dot && map[i][0]; i++)
        if (strcmp(dot, map[i][0]) == 0)
            return map[i][1];
    return "application/octet-stream";
}

/* A path below a served directory: letters, digits, . _ - / only, and no
 * ".." segment, so nothing outside the directory can be named. */
static int safe_path(const char *rel)
{
    if (!*rel || strlen(rel) > 200)
        return 0;
    for (const char *p = rel; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("._-/", *p))
            return 0;
    return strstr(rel, "..") == NULL;
}

static int serve_file(struct lws *wsi, const char *dir, const char *rel)
{
    char path[1024];
    struct stat sb;
    while (*rel == '/')
        rel++;
    if (!*rel)
        rel = "index.html";
    if (!safe_path(rel))
        return respond_error(wsi, 404, "not found");
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return respond_error(wsi, 404, "not found");
    static const char nocache[] = "Cache-Control: no-cache\r\nKeep-Alive: " SRV_KEEPALIVE_HINT
                                  "\r\n" SRV_SECURITY_HEADERS;
    srv_http_access(wsi, 200, (size_t)sb.st_size);
    int n = lws_serve_http_file(wsi, path, mime_of(path), nocache, (int)sizeof nocache - 1);
    if (n >= 0)
        srv_metrics_http_status(200);
    if (n < 0 || (n > 0 && lws_http_transaction_completed(wsi)))
        return -1;
    return 0;
}

/* The body of the POST being answered (taken out of its pss, which answering
 * may free). */
static const char *cur_body;
static size_t cur_len;

static json_t *parse_body(srv_pss *pss, char *why, size_t n)
{
    (void)pss;
    json_error_t e;
    json_t *j = json_loadb(cur_body ? cur_body : "", cur_len, JSON_REJECT_DUPLICATES, &e);
    if (!j)
        snprintf(why, n, "the body is not JSON: line %d, column %d: %s", e.line, e.column,
                 e.text);
    return j;
}

json_t *srv_http_body(char *why, size_t n)
{
    return parse_body(NULL, why, n);
}

/* GET /api/games?status=over or not */
static int list_over(struct lws *wsi)
{
    char buf[64];
    const char *st = lws_get_urlarg_by_name(wsi, "status=", buf, sizeof buf);
    return st && strcmp(st, "over") == 0;
}

static int api_list(struct lws *wsi, srv_pss *pss)
{
    int over = list_over(wsi);
    /* read off the loop before routing (reads.c), else here */
    json_t *db_list = pss->have_list ? pss->list : NULL;
    pss->list = NULL;
    if (over) { /* finished games: from the database, most are not in memory */
        json_t *a = pss->have_list ? db_list : srv_store_list_over(g_storage.store, 200);
        if (!a)
            return respond_error(wsi, 500, "the database could not list the games");
        return respond(wsi, 200, json_pack("{s:o}", "games", a));
    }
    json_t *a = json_array();
    int count = 0;
    for (srv_game *g = g_tables.games; g && count < 200; g = g->lnext)
        if ((g->status == GAME_OVER) == over && !g->unlisted) {
            json_array_append_new(a, srv_game_summary(g));
            count++;
        }
    srv_cluster_list(a, 200); /* the other nodes' games (cluster.c) */
    /* turn-based games nobody looks at are out of memory (turnbased.c), and
       still in play: listed from the database (each once) */
    json_t *idle = pss->have_list ? db_list
                   : count < 200 ? srv_store_list_idle(g_storage.store, 200 - count) : NULL;
    while (json_array_size(idle) > (size_t)(count < 200 ? 200 - count : 0))
        json_array_remove(idle, json_array_size(idle) - 1);
    size_t i, j;
    json_t *o, *x;
    json_array_foreach(idle, i, o) {
        const char *id = json_string_value(json_object_get(o, "id"));
        int dup = 0;
        json_array_foreach(a, j, x) dup |= id && json_equal(json_object_get(x, "id"),
                                                             json_object_get(o, "id"));
        if (!dup)
            json_array_append(a, o);
    }
    json_decref(idle);
    return respond(wsi, 200, json_pack("{s:o}", "games", a));
}

static int api_create(struct lws *wsi, srv_pss *pss)
{
    char why[300], addr[64];
    int retry_s, lim;
    srv_peer_addr(wsi, addr, sizeof addr);
    if ((lim = srv_limit_create(addr, srv_now_ms(), why, sizeof why, &retry_s)) != 0)
        return respond(wsi, (unsigned)lim, json_pack("{s:s,s:i}", "error", why, "retry_after",
                                                     retry_s));
    json_t *req = parse_body(pss, why, sizeof why);
    if (!req)
        return respond_error(wsi, 400, why);
    srv_ident me;
    srv_ident_of(wsi, &me);
    srv_game *g = srv_game_create(req, &me, why, sizeof why);
    json_decref(req);
    if (!g)
        return respond_error(wsi, 400, why);
    /* at most SRV_TURN_GAMES_MAX turn-based games in play each (turnbased.c) */
    if (g->days > 0 && me.owner[0] &&
        srv_turn_count(me.owner, me.user_id) >= SRV_TURN_GAMES_MAX) {
        srv_game_free(g);
        snprintf(why, sizeof why, "you already have %d turn-based games in play: finish one "
                 "first", SRV_TURN_GAMES_MAX);
        return respond_error(wsi, 409, why);
    }
    if ((lim = srv_limit_waiting(g, addr, why, sizeof why, &retry_s)) != 0 ||
        (lim = srv_bots_admit(g, addr, why, sizeof why, &retry_s)) != 0) {
        srv_game_free(g);
        return respond(wsi, (unsigned)lim, json_pack("{s:s,s:i}", "error", why, "retry_after",
                                                     retry_s));
    }
    if (srv_store_create_game(g_storage.store, g) != 0) {
        srv_game_free(g);
        srv_storage_failed(srv_store_errmsg(g_storage.store));
        return respond_error(wsi, 500, "the database refused the new game");
    }
    srv_storage_ok();
    srv_game_add(g);
    srv_game_log_created(g, "lobby", me.name);
    srv_cluster_created(g); /* its lease (cluster.c) */
    srv_limit_created(g, addr);
    json_t *seats = json_array();
    for (int i = 0; i < g->nseats; i++) {
        srv_seat *s = &g->seat[i];
        json_t *o = srv_seat_identity_json(g, i);
        if (s->kind != SEAT_BOT) {
            json_object_set_new(o, "access", json_string(s->open ? "open" : "reserved"));
            /* an open seat's token is made when someone takes the seat
               (api_join): the creator never holds it, so no two people do */
            char link[128];
            if (i == g->creator_seat) { /* the creator's own: the session plays it */
                snprintf(link, sizeof link, "/#/play/%s", g->id);
                json_object_set_new(o, "you", json_true());
                json_object_set_new(o, "link", json_string(link));
            } else if (!s->open) {
                snprintf(link, sizeof link, "/#/play/%s/%s", g->id, s->token);
                json_object_set_new(o, "token", json_string(s->token));
                json_object_set_new(o, "link", json_string(link));
            }
            /* an open seat's token is never handed out; a reserved seat's
               is kept while the seat is unclaimed, so that its creator can
               have the link again (api_invites) */
            if (!srv_seat_invite_open(g, i))
                sodium_memzero(s->token, sizeof s->token);
        }
        json_array_append_new(seats, o);
    }
    char spect[64];
    snprintf(spect, sizeof spect, "/#/watch/%s", g->id);
    if (g->status == GAME_PLAYING) /* bots only: they start at once */
        srv_game_kick_bots(g);
    return respond(wsi, 201, json_pack("{s:s,s:o,s:s}", "id", g->id, "seats", seats,
                                       "spectate", spect));
}

static int api_join(struct lws *wsi, srv_pss *pss, srv_game *g)
{
    char why[300];
    json_t *req = cur_len ? parse_body(pss, why, sizeof why) : json_object();
    if (!req)
        return respond_error(wsi, 400, why);
    if (!json_is_object(req)) {
        json_decref(req);
        return respond_error(wsi, 400, "the body must be a JSON object");
    }
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.owner[0]) {
        json_decref(req);
        return respond_error(wsi, 401, "taking a seat needs a session: log in, sign up or "
                             "play as a guest first (docs/protocol.md)");
    }
    int mine = srv_seat_of(g, me.owner);
    if (mine >= 0) {
        json_decref(req);
        snprintf(why, sizeof why, "you already sit in seat %d of this game", mine);
        return respond_error(wsi, 409, why);
    }
    json_t *sv = json_object_get(req, "seat"), *nv = json_object_get(req, "name");
    int seat = -1;
    if (sv && !json_is_null(sv)) {
        if (!json_is_integer(sv) || json_integer_value(sv) < 0 ||
            json_integer_value(sv) >= g->nseats) {
            json_decref(req);
            return respond_error(wsi, 400, "seat must be a seat number of this game");
        }
        seat = (int)json_integer_value(sv);
        if (g->seat[seat].kind != SEAT_HUMAN || g->seat[seat].claimed) {
            json_decref(req);
            return respond_error(wsi, 409, "that seat is not free");
        }
        /* a reserved seat's token is already in the creator's hands (the
           invite link): handing it out here would let a stranger share the
           seat (issue 19, defect 2) */
        if (!g->seat[seat].open) {
            json_decref(req);
            return respond_error(wsi, 409, "that seat is reserved: it is taken through its "
                                 "invite link only");
        }
    } else {
        for (int i = 0; i < g->nseats && seat < 0; i++)
            if (g->seat[i].kind == SEAT_HUMAN && g->seat[i].open && !g->seat[i].claimed)
                seat = i;
        if (seat < 0) {
            json_decref(req);
            return respond_error(wsi, 409, "the game has no free open seat");
        }
    }
    const char *name = json_string_value(nv);
    if (nv && !json_is_null(nv) && (!name || strlen(name) > 24)) {
        json_decref(req);
        return respond_error(wsi, 400, "name must be text of at most 24 bytes");
    }
    (void)name; /* the seat shows the session's name (older clients send one) */
    json_decref(req);
    /* the seat is bound to the joiner's session: no token is handed out,
       the session's cookie is what plays it */
    if (srv_seat_bind(g, seat, &me, why, sizeof why) != SEAT_BOUND)
        return respond_error(wsi, 409, why);
    char link[128];
    snprintf(link, sizeof link, "/#/play/%s", g->id);
    for (srv_client *c = g->clients; c; c = c->gnext)
        srv_client_want_state(c);
    return respond(wsi, 200, json_pack("{s:i,s:s}", "seat", seat, "link", link));
}

/* The links of a game's reserved seats nobody holds yet, for its creator
 * only (checked against the session: issue 28 item 7, a link shown once
 * was lost with the lobby page). GET lists them; POST {"seat":N} makes that
 * seat a new link, which ends the old one (a link that leaked). Anyone else
 * gets an empty list: the page asks for every game it shows. */
static json_t *invite_json(const srv_game *g, int i)
{
    char link[128];
    snprintf(link, sizeof link, "/#/play/%s/%s", g->id, g->seat[i].token);
    return json_pack("{s:i,s:s,s:s,s:s}", "seat", i, "name", g->seat[i].name, "token",
                     g->seat[i].token, "link", link);
}

/* POST /api/games/ID/end: its one person ends a practice game against
 * bots (game/limits.c, srv_game_end_practice) */
static int api_end(struct lws *wsi, srv_game *g)
{
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.owner[0])
        return respond_error(wsi, 401, "ending a game needs a session: log in or play as a guest");
    const char *why = NULL;
    int st = srv_game_end_practice(g, me.owner, &why);
    if (st)
        return respond_error(wsi, (unsigned)st, why);
    return respond(wsi, 200, json_pack("{s:s,s:s}", "id", g->id, "status", "abandoned"));
}

static int api_invites(struct lws *wsi, srv_game *g, int post)
{
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.owner[0])
        return respond_error(wsi, 401, "invite links are shown to the game's creator: log in "
                             "or play as a guest first");
    int creator = srv_game_creator_is(g, me.owner);
    if (post) {
        char why[300];
        json_t *req = parse_body(NULL, why, sizeof why);
        if (!req)
            return respond_error(wsi, 400, why);
        json_t *sv = json_object_get(req, "seat");
        int seat = json_is_integer(sv) ? (int)json_integer_value(sv) : -1;
        int bad = !json_is_object(req) || !json_is_integer(sv) ||
                  json_integer_value(sv) < 0 || json_integer_value(sv) >= g->nseats;
        json_decref(req);
        if (bad)
            return respond_error(wsi, 400, "the body must be {\"seat\": N}, N a seat of this game");
        if (!creator)
            return respond_error(wsi, 403, "only the game's creator can make a new invite link");
        int st = srv_seat_new_invite(g, seat, why, sizeof why);
        if (st)
            return respond_error(wsi, (unsigned)st, why);
        return respond(wsi, 200, invite_json(g, seat));
    }
    json_t *a = json_array();
    /* reserved seats nobody holds: with their link, or "lost" when the
       token is not in memory (it is never stored: after a restart, or in a
       game created before links were kept): a new link can be made */
    for (int i = 0; creator && i < g->nseats; i++) {
        const srv_seat *s = &g->seat[i];
        if (srv_seat_invite_open(g, i))
            json_array_append_new(a, invite_json(g, i));
        else if (s->kind == SEAT_HUMAN && !s->open && !s->claimed && !s->owner[0] &&
                 g->status == GAME_WAITING)
            json_array_append_new(a, json_pack("{s:i,s:s,s:b}", "seat", i, "name", s->name,
                                               "lost", 1));
    }
    return respond(wsi, 200, json_pack("{s:s,s:b,s:o}", "id", g->id, "creator", creator,
                                       "invites", a));
}

static int api_replay(struct lws *wsi, srv_game *g)
{
    if (g->status != GAME_OVER)
        return respond_error(wsi, 403, "the game is not over yet: replays show finished games");
    int retry_s;
    char rwhy[160];
    if (srv_replay_admit(srv_now_ms(), rwhy, sizeof rwhy, &retry_s) != 0) /* reads.c */
        return respond(wsi, 503, json_pack("{s:s,s:i}", "error", rwhy, "retry_after", retry_s));
    json_t *moves = srv_store_moves(g_storage.store, g->id);
    if (!moves)
        return respond_error(wsi, 500, "the database could not read the moves");
    int steps = (int)json_array_size(moves);
    char buf[64];
    const char *sv = lws_get_urlarg_by_name(wsi, "step=", buf, sizeof buf);
    int step = steps;
    if (sv) {
        char *end;
        long k = strtol(sv, &end, 10);
        if (*sv == 0 || *end || k < 0 || k > steps) {
            json_decref(moves);
            snprintf(buf, sizeof buf, "step must be from 0 to %d", steps);
            return respond_error(wsi, 400, buf);
        }
        step = (int)k;
    }
    /* replay the game, describing each move as its mover saw it: once the
       game is over nothing is hidden any more */
    srv_game *r = calloc(1, sizeof *r);
    char why[400];
    if (!r) {
        json_decref(moves);
        return respond_error(wsi, 500, "out of memory");
    }
    r->setup = g->setup;
    memcpy(r->arrangement, g->arrangement, sizeof r->arrangement);
    int lang = CHX_LANG_EN;
    if (lws_get_urlarg_by_name(wsi, "lang=", buf, sizeof buf) && chx_lang_find(
            lws_get_urlarg_by_name(wsi, "lang=", buf, sizeof buf)) >= 0)
        lang = chx_lang_find(lws_get_urlarg_by_name(wsi, "lang=", buf, sizeof buf));
    const char *names[CH_MAX_PLAYERS] = {0};
    for (int i = 0; i < g->nseats; i++)
        names[i] = g->seat[i].name;
    char *view = NULL;
    int bad = srv_game_start_state(r, why, sizeof why) != 0;
    size_t i;
    json_t *mv;
    json_array_foreach(moves, i, mv) {
        if (bad)
            break;
        if ((int)i == step)
            view = ch_view_to_json(&r->st, -1);
        int p = (int)json_integer_value(json_object_get(mv, "player"));
        const char *text = json_string_value(json_object_get(mv, "move"));
        ch_move m;
        ch_msg msg = {"the move text is missing"};
        ch_state before = r->st;
        if (!text || ch_move_parse(&r->st, p, text, &m, &msg) != CH_OK ||
            ch_apply(&r->st, p, m, &msg) != CH_OK) {
            snprintf(why, sizeof why, "stored move %zu does not replay: %s", i, msg.text);
            bad = 1;
            break;
        }
        char words[512];
        if (chx_describe_for(lang, p, names, &before, p, m, &r->st, words, sizeof words) < 0 ||
            !words[0])
            snprintf(words, sizeof words, "%s", text);
        json_object_set_new(mv, "n", json_integer((json_int_t)i));
        json_object_set_new(mv, "text", json_string(words));
    }
    if (!bad && step == steps)
        view = ch_view_to_json(&r->st, -1);
    /* the final scores broken down by the engine (r->st is the last state) */
    json_t *result = NULL;
    if (!bad && g->status == GAME_OVER) {
        chx_buf rb = {0};
        if (chx_result_json(&r->st, &rb) == 0)
            result = json_loads(rb.s, 0, NULL);
        free(rb.s);
    }
    srv_game_free(r);
    if (bad) {
        ch_free(view);
        json_decref(moves);
        return respond_error(wsi, 500, why);
    }
    json_t *vj = view ? json_loads(view, 0, NULL) : NULL;
    ch_free(view);
    json_t *sc = json_array(), *w = json_array();
    for (int s = 0; s < g->nseats; s++) {
        json_array_append_new(sc, json_integer(g->scores[s]));
        if ((g->winners >> s) & 1u)
            json_array_append_new(w, json_integer(s));
    }
    if (!result)
        result = json_pack("{s:o,s:o}", "scores", sc, "winners", w);
    else {
        json_decref(sc);
        json_decref(w);
    }
    /* the game is over: its whole chat, spectators' too, with the decision
       each message was said at */
    return respond(wsi, 200, json_pack("{s:s,s:i,s:i,s:o,s:o,s:o,s:o}", "id", g->id,
                                       "steps", steps, "step", step, "moves", moves, "view",
                                       vj ? vj : json_null(), "result", result,
                                       "chat", srv_chat_list(g, NULL, 0)));
}

/* Route one request; `url` is the path without the query. */
static int route(struct lws *wsi, srv_pss *pss, const char *url)
{
    if (!strcmp(url, "/metrics")) /* behind a token, or 404 (metrics_api.c) */
        return srv_metrics_route(wsi, pss->is_post);
    if (strncmp(url, "/api/", 5) != 0) {
        if (pss->is_post) /* static files and catalogues: GET only */
            return respond_error(wsi, 405, "only GET here");
        if (strncmp(url, "/i18n/", 6) == 0) {
            const char *lang = url + 6;
            size_t l = strlen(lang);
            if (l < 7 || l > 12 || strcmp(lang + l - 5, ".json") != 0 || !safe_path(lang) ||
                strchr(lang, '/'))
                return respond_error(wsi, 404, "not found");
            return serve_file(wsi, g_api.i18n, lang);
        }
        if (strncmp(url, "/rules/", 7) == 0) { /* data/rules, beside data/i18n (issue 31) */
            char dir[1024];
            snprintf(dir, sizeof dir, "%s/../rules", g_api.i18n);
            return serve_file(wsi, dir, url + 7);
        }
        if (strncmp(url, "/web/", 5) == 0)
            return serve_file(wsi, g_api.web, url + 5);
        return serve_file(wsi, g_api.web, url);
    }
    const char *rest = url + 5;
    /* a POST from another site's page is refused: its cookie must not act
       (SameSite=Lax already keeps browsers from sending it) */
    if (pss->is_post && srv_cross_site(wsi))
        return respond_error(wsi, 403, "a request from another site is refused");
    int arc;
    if (srv_auth_route(wsi, rest, pss->is_post, &arc))
        return arc;
    int mrc; /* e-mail: addresses, password resets, unsubscribe (mail_api.c) */
    if (srv_mail_route(wsi, rest, pss->is_post, &mrc))
        return mrc;
    int crc; /* challenges by name (challenge_api.c) */
    if (srv_challenge_route(wsi, rest, pss->is_post, &crc))
        return crc;
    int frc; /* following players (follow_api.c) */
    if (srv_follow_route(wsi, rest, pss->is_post, &frc))
        return frc;
    int trc; /* an account's tutorial progress (tutorial_api.c) */
    if (srv_tutorial_route(wsi, rest, pss->is_post, &trc))
        return trc;
    int orc; /* reports and moderation (moderation_api.c) */
    if (srv_moderation_route(wsi, rest, pss->is_post, &orc))
        return orc;
    int rrc; /* rematch offers and their answers (rematch.c) */
    if (srv_rematch_route(wsi, rest, pss->is_post, &rrc))
        return rrc;
    int prc; /* players, leaderboards, "My games" (profile_api.c) */
    if (srv_profile_route(wsi, rest, pss->is_post, &prc, pss))
        return prc;
    if (!strcmp(rest, "options"))
        return respond(wsi, 200, srv_options_json());
    if (!strcmp(rest, "health") && !pss->is_post) {
        json_t *h = json_pack("{s:b,s:i,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "ok", 1,
                                           "games_in_memory", g_tables.ngames, "clients",
                                           (json_int_t)g_api.nclients, "moves",
                                           (json_int_t)g_tables.moves_total, "games_evicted",
                                           (json_int_t)g_tables.games_evicted,
                                           "games_reloaded",
                                           (json_int_t)g_tables.games_reloaded,
                                           "storage_failures",
                                           (json_int_t)g_tables.storage_failures,
                                           "storage_retry_ms",
                                           (json_int_t)srv_storage_wait_ms(srv_now_ms()),
                                           "games_expired", (json_int_t)g_tables.games_expired,
                                           "games_abandoned",
                                           (json_int_t)g_tables.games_abandoned);
        srv_health_node(h); /* node, games owned, database link (health.c) */
        return respond(wsi, 200, h);
    }
    if (!strcmp(rest, "games"))
        return pss->is_post ? api_create(wsi, pss) : api_list(wsi, pss);
    if (strncmp(rest, "games/", 6) == 0) {
        char id[SRV_ID_HEX + 2];
        const char *p = rest + 6, *slash = strchr(p, '/');
        size_t l = slash ? (size_t)(slash - p) : strlen(p);
        if (l == 0 || l > SRV_ID_HEX)
            return respond_error(wsi, 404, "no such game");
        memcpy(id, p, l);
        id[l] = 0;
        /* read off the loop before routing when not in memory (reads.c) */
        srv_game *g = pss->game_absent ? NULL : srv_game_find(id);
        if (!g)
            return respond_error(wsi, 404, "no such game");
        if (!slash && !pss->is_post)
            return respond(wsi, 200, srv_game_summary(g));
        int arc; /* a finished game's analysis: any node (analysis_api.c) */
        if (slash && strcmp(slash, "/hint") && srv_analysis_route(wsi, g, slash, pss->is_post, &arc))
            return arc;
        int crc; /* a change: the node that plays it answers (cluster.c) */
        if (pss->is_post && srv_cluster_http(wsi, &g, url, &crc))
            return crc;
        if (slash && !strcmp(slash, "/join") && pss->is_post)
            return api_join(wsi, pss, g);
        if (slash && !strcmp(slash, "/invites"))
            return api_invites(wsi, g, pss->is_post);
        if (slash && !strcmp(slash, "/replay") && !pss->is_post)
            return api_replay(wsi, g);
        if (slash && !strcmp(slash, "/end") && pss->is_post)
            return api_end(wsi, g);
        if (slash && !strcmp(slash, "/hint") && srv_analysis_route(wsi, g, slash, pss->is_post, &arc))
            return arc; /* a hint: the node that plays the game (analysis_api.c) */
        if (slash && !strcmp(slash, "/rematch") && pss->is_post)
            return srv_rematch(wsi, g);
        if (slash && !strcmp(slash, "/position") && !pss->is_post)
            return srv_position_api(wsi, g); /* position_api.c */
    }
    return respond_error(wsi, 404, "no such API call (see docs/protocol.md)");
}

/* ---- reads before routing (reads.c) ------------------------------------------- */
/* An API request's session (its cookie) and the game it names when that is
 * not in memory are read on the writer thread; the request is routed once
 * they are back (HTTP_WRITEABLE), so the loop never waits on the database
 * for them. */
static void read_back(srv_read *r)
{
    if (r->wsi) {
        srv_pss *pss = lws_wsi_user(r->wsi);
        pss->read = NULL;
        pss->read_back = 1;
        pss->have_ident = r->want_ident;
        pss->ident = r->ident;
        pss->game_absent = r->want_game && r->game_absent;
        pss->have_list = r->want_list;
        pss->list = r->list;
        r->list = NULL;
        pss->have_profile = r->want_profile;
        pss->profile_status = r->profile_status;
        pss->profile_why = r->profile_why;
        pss->profile = r->profile;
        r->profile = NULL;
        lws_callback_on_writable(r->wsi);
    }
    json_decref(r->list);
    json_decref(r->profile);
    free(r);
}

/* The request's Content-Length as RFC 9110 8.6 writes it (1*DIGIT, one
 * value): libwebsockets reads it with atoll(), so "14 /x" would pass as 14
 * and leave the rest of the line to be taken for something else. 0 and the
 * value in *out, or -1. */
static int content_length(struct lws *wsi, size_t *out)
{
    char v[24];
    int n = lws_hdr_copy(wsi, v, sizeof v, WSI_TOKEN_HTTP_CONTENT_LENGTH);
    if (n <= 0 || n > 18)
        return -1;
    size_t x = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9')
            return -1;
        x = x * 10 + (size_t)(v[i] - '0');
    }
    *out = x;
    return 0;
}

/* 1 when reads were asked for this request (it is routed when they are
   back), 0 when it needs none. */
static int want_reads(struct lws *wsi, srv_pss *pss)
{
    if (pss->read_back || !g_storage.store || strncmp(pss->url, "/api/", 5) != 0)
        return 0;
    char tok[SRV_SESSION_HEX + 2];
    int ident = srv_session_token(wsi, tok, sizeof tok) == 0 && strlen(tok) == SRV_SESSION_HEX;
    const char *p = pss->url + 5, *slash;
    size_t l = 0;
    if (!strncmp(p, "games/", 6)) {
        p += 6;
        slash = strchr(p, '/');
        l = slash ? (size_t)(slash - p) : strlen(p);
    }
    char id[SRV_ID_HEX + 1] = "";
    if (l == SRV_ID_HEX) {
        memcpy(id, p, l);
        id[l] = 0;
    }
    int game = id[0] && !srv_game_held(id);
    /* the lobby's lists: finished games, or the idle turn-based ones */
    int list = !pss->is_post && !strcmp(pss->url, "/api/games");
    srv_read *r = srv_read_new();
    if (!r)
        return 0; /* read on the loop, as before */
    if (ident) {
        r->want_ident = 1;
        memcpy(r->token, tok, sizeof r->token);
    }
    if (game) {
        r->want_game = 1;
        memcpy(r->game, id, sizeof r->game);
    }
    if (list) {
        r->want_list = 1;
        r->list_over = list_over(wsi);
    }
    /* players, leaderboards, "My games" (profile_api.c; after the session:
       "My games" needs it) */
    srv_profile_want(wsi, pss->url + 5, pss->is_post, r);
    if (!r->want_ident && !r->want_game && !r->want_list && !r->want_profile) {
        free(r);
        return 0;
    }
    r->wsi = wsi;
    pss->read = r;
    srv_read_submit(r, read_back); /* may call read_back at once */
    return 1;
}

/* The request went away (or a new one came on its connection): its reads
 * end without it. */
static void reads_gone(srv_pss *pss)
{
    if (pss && pss->read) {
        pss->read->wsi = NULL;
        pss->read = NULL;
    }
}

/* Route with the session read off the loop. */
static int route_read(struct lws *wsi, srv_pss *pss)
{
    static srv_ident ident; /* a copy: answering may free pss */
    ident = pss->ident;
    srv_ident_use(pss->have_ident ? &ident : NULL);
    int rc = route(wsi, pss, pss->url);
    srv_ident_use(NULL);
    return rc;
}

int srv_http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                      size_t len)
{
    srv_pss *pss = user;
    switch (reason) {
    case LWS_CALLBACK_HTTP:
        srv_http_begin(wsi); /* --access-log: the request's start */
        if (pss->pwjob) /* a new request on this connection: the old one's answer is void */
            srv_auth_request_gone(wsi);
        reads_gone(pss);
        free(pss->body);
        json_decref(pss->deferred);
        json_decref(pss->list);
        json_decref(pss->profile);
        memset(pss, 0, sizeof *pss);
        snprintf(pss->url, sizeof pss->url, "%s", (const char *)in);
        pss->is_post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
        if (in && strlen((const char *)in) +
                      (size_t)lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS) > SRV_URL_MAX) {
            /* no path of ours is that long: say so with a status line (RFC
               9110 15.5.15) and close, rather than read a body for it */
            respond_error(wsi, 414, "the URL may be at most 2048 bytes");
            return -1;
        }
        if (pss->is_post) {
            /* a body of unknown length is refused at once (RFC 9110 15.5.12):
               without Content-Length libwebsockets 4.1 waits for a body it
               will never take (30 s of silence, issue 28), and it does not
               read chunked request bodies; the connection is closed, so
               whatever the client still sends is not taken for a request */
            if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0) {
                respond_error(wsi, 411, "a chunked body is not accepted: send the body with "
                              "Content-Length");
                return -1;
            }
            if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0) {
                respond_error(wsi, 411, "a POST needs Content-Length (0 for no body)");
                return -1;
            }
            if (content_length(wsi, &pss->body_declared) != 0) {
                respond_error(wsi, 400, "Content-Length must be a decimal number of bytes");
                return -1;
            }
            return 0; /* the body follows */
        }
        if (want_reads(wsi, pss))
            return 0; /* routed when the reads are back */
        return route(wsi, pss, pss->url);
    case LWS_CALLBACK_HTTP_BODY:
        if (pss->body_too_big)
            return 0;
        /* libwebsockets 4.1 hands on what follows a body it buffered while
           the connection's flow was stopped as more "body", from a buffer it
           has already freed (fuzz_http_api: lws_service_do_ripe_rxflow). A
           body longer than its Content-Length is therefore never read: the
           connection is closed without touching `in`. */
        if (!pss->is_post || len > pss->body_declared - pss->body_len)
            return -1;
        if (pss->body_len + len > SRV_FRAME_MAX) {
            pss->body_too_big = 1;
            return 0;
        } else if (len) { /* an empty chunk may come with no buffer at all */
            char *nb = realloc(pss->body, pss->body_len + len + 1);
            if (!nb)
                return -1;
            pss->body = nb;
            memcpy(nb + pss->body_len, in, len);
            pss->body_len += len;
        }
        return 0;
    case LWS_CALLBACK_HTTP_BODY_COMPLETION: {
        if (!pss->body_too_big && want_reads(wsi, pss))
            return 0; /* the body waits in pss with the request */
        /* answering may end the transaction, which frees pss: keep the body
           here and touch pss no more afterwards */
        char *body = pss->body;
        cur_body = body;
        cur_len = pss->body_len;
        pss->body = NULL;
        pss->body_len = 0;
        int rc = pss->body_too_big ? respond_error(wsi, 413, "the body may be at most 16384 bytes")
                                   : route(wsi, pss, pss->url);
        free(body);
        cur_body = NULL;
        cur_len = 0;
        return rc;
    }
    case LWS_CALLBACK_HTTP_WRITEABLE:
        /* an answer that waited for the password worker (auth_api.c) */
        if (pss && pss->deferred) {
            json_t *j = pss->deferred;
            pss->deferred = NULL;
            return srv_http_respond(wsi, pss->deferred_status, j,
                             pss->deferred_cookie[0] ? pss->deferred_cookie : NULL);
        }
        if (pss && pss->read_back == 1) { /* its reads are back (reads.c) */
            pss->read_back = 2;
            char *body = pss->body;
            cur_body = body;
            cur_len = pss->body_len;
            pss->body = NULL;
            pss->body_len = 0;
            int rc = route_read(wsi, pss); /* its answer ends the connection
                                              (net/http.c says why) */
            free(body);
            cur_body = NULL;
            cur_len = 0;
            return rc;
        }
        return 0;
    case LWS_CALLBACK_CLOSED_HTTP:
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        if (reason == LWS_CALLBACK_CLOSED_HTTP)
            srv_http_forget(wsi);
        if (pss && pss->pwjob)
            srv_auth_request_gone(wsi);
        reads_gone(pss);
        if (pss && pss->deferred) {
            json_decref(pss->deferred);
            pss->deferred = NULL;
        }
        if (pss) {
            free(pss->body);
            pss->body = NULL;
            json_decref(pss->list);
            pss->list = NULL;
            json_decref(pss->profile);
            pss->profile = NULL;
        }
        return 0;
    default:
        return 0;
    }
}
