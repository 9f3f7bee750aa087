/* play.c: moves and the frames that follow them. A move (from a client or a
 * bot) is read with the library's notation, checked with ch_check against
 * the seat's decision, applied, and kept pending until the next commit
 * (store.c) writes it; only then does every client of the game get a state
 * frame with its own view (ch_view_to_json), its legal moves
 * (chx_legal_lines), and the new log entries masked for it (mask.c). Also
 * here: the turn timer, and rebuilding a game from its stored moves.
 */
#include <stdio.h>
#include <string.h>

#include "server.h"
#include "text.h"

int srv_seat_decides(const srv_game *g, int s)
{
    unsigned mask = 0;
    if (s < 0 || s >= g->nseats || g->status != GAME_PLAYING)
        return 0;
    ch_decider_kind k = ch_decider(&g->st, &mask);
    return k != CH_DEC_TERMINAL && ((mask >> s) & 1u);
}

/* The log entry of the move just applied (g->st is the state after it).
 * Words are made for the languages of the game's clients (and English). */
static void log_add(srv_game *g, const ch_state *before, int p, ch_move m, int words)
{
    srv_log *e = &g->log[g->nmoves % SRV_LOG_RING];
    srv_log_free(e);
    e->n = g->nmoves;
    srv_mask_move(before, p, m, e);
    if (!words)
        return;
    unsigned langs = 1u << CHX_LANG_EN;
    for (srv_client *c = g->clients; c; c = c->gnext) {
        int l = chx_lang_find(c->lang);
        if (l >= 0 && l < 3)
            langs |= 1u << l;
    }
    const char *names[CH_MAX_PLAYERS] = {0};
    for (int i = 0; i < g->nseats; i++)
        names[i] = g->seat[i].name;
    srv_log_texts(e, before, p, m, &g->st, names, langs);
}

static int add_pending(srv_game *g, int p, const char *move)
{
    if (g->npending == g->cap_pending) {
        int cap = g->cap_pending ? g->cap_pending * 2 : 8;
        srv_pending *np = realloc(g->pending, (size_t)cap * sizeof *np);
        if (!np)
            return -1;
        g->pending = np;
        g->cap_pending = cap;
    }
    srv_pending *e = &g->pending[g->npending++];
    e->n = g->nmoves;
    e->player = p;
    snprintf(e->move, sizeof e->move, "%s", move);
    return 0;
}

void srv_game_finish(srv_game *g)
{
    ch_scores(&g->st, g->scores, &g->winners);
    g->status = GAME_OVER;
    g->meta_dirty = 1;
}

int srv_play_move(srv_game *g, int s, ch_move m, char *why, size_t n)
{
    ch_msg msg;
    if (ch_check(&g->st, s, m, &msg) != CH_OK) {
        snprintf(why, n, "%s", msg.text);
        return MOVE_ILLEGAL;
    }
    ch_state before = g->st;
    if (ch_apply(&g->st, s, m, &msg) != CH_OK) {
        snprintf(why, n, "%s", msg.text);
        return MOVE_ILLEGAL;
    }
    log_add(g, &before, s, m, 1);
    if (add_pending(g, s, g->log[g->nmoves % SRV_LOG_RING].full) != 0) {
        g->st = before;
        snprintf(why, n, "out of memory");
        return MOVE_NOMEM;
    }
    g->nmoves++;
    g_srv->moves_total++;
    unsigned mask;
    if (ch_decider(&g->st, &mask) == CH_DEC_TERMINAL)
        srv_game_finish(g);
    srv_commit_schedule(g);
    return MOVE_OK;
}

int srv_play(srv_game *g, int s, const char *text, int decision, char *why, size_t n)
{
    if (g->status == GAME_WAITING) {
        snprintf(why, n, "the game waits for every seat to be taken");
        return MOVE_NOT_STARTED;
    }
    if (g->status == GAME_OVER) {
        snprintf(why, n, "the game is over");
        return MOVE_NOT_YOUR_TURN;
    }
    if (s < 0) {
        snprintf(why, n, "a spectator cannot move");
        return MOVE_NOT_YOUR_TURN;
    }
    if (decision >= 0 && decision != g->nmoves) {
        snprintf(why, n, "this move was made for decision %d but the game is at decision %d",
                 decision, g->nmoves);
        return MOVE_STALE;
    }
    if (!srv_seat_decides(g, s)) {
        snprintf(why, n, "it is not your decision (player %d)", s + 1);
        return MOVE_NOT_YOUR_TURN;
    }
    ch_move m;
    ch_msg msg;
    if (ch_move_parse(&g->st, s, text, &m, &msg) != CH_OK) {
        snprintf(why, n, "%s", msg.text);
        return MOVE_ILLEGAL;
    }
    return srv_play_move(g, s, m, why, n);
}

void srv_commit_schedule(srv_game *g)
{
    if (!g->queued) {
        g->queued = 1;
        g->next_commit = g_srv->commit_list;
        g_srv->commit_list = g;
    }
    if (!g_srv->commit_scheduled && g_srv->ctx) {
        g_srv->commit_scheduled = 1;
        lws_sul_schedule(g_srv->ctx, 0, &g_srv->commit_sul, srv_commit_now, 1);
    }
}

void srv_game_kick_bots(srv_game *g)
{
    if (g->status != GAME_PLAYING || g->npending)
        return;
    for (int s = 0; s < g->nseats; s++) {
        srv_seat *seat = &g->seat[s];
        if (seat->job || !(seat->kind == SEAT_BOT || seat->away))
            continue;
        if (!srv_seat_decides(g, s))
            continue;
        char why[256];
        if (!seat->bot_inst && srv_seat_make_bot(g, s, why, sizeof why) != 0) {
            lwsl_err("game %s seat %d: %s\n", g->id, s, why);
            continue;
        }
        if (srv_bots_submit(g_srv->bots, g, s) == 0)
            seat->job = 1;
    }
}

void srv_game_changed(srv_game *g)
{
    srv_game_kick_bots(g);
    if (g->npending)
        return; /* the commit calls again */
    if (g_srv->views && g->clients) {
        int covered = g->vcache_decision == g->nmoves;
        for (srv_client *c = g->clients; c && covered; c = c->gnext)
            covered = g->vcache[c->seat + 1] != NULL;
        if (!covered) {
            /* the clients become writable when the views are back */
            if (srv_views_request(g_srv->views, g) == 0)
                return;
        }
    }
    for (srv_client *c = g->clients; c; c = c->gnext)
        srv_client_want_state(c);
}

void srv_timers_check(int64_t now)
{
    for (srv_game *g = g_srv->games; g; g = g->lnext) {
        if (g->status != GAME_PLAYING || g->turn_timer <= 0 || g->npending)
            continue;
        if (now - g->decide_since_ms < (int64_t)g->turn_timer * 1000)
            continue;
        int changed = 0;
        for (int s = 0; s < g->nseats; s++)
            if (g->seat[s].kind == SEAT_HUMAN && !g->seat[s].away && srv_seat_decides(g, s)) {
                g->seat[s].away = 1;
                changed = 1;
            }
        if (changed)
            srv_game_changed(g);
    }
}

static json_t *seats_json(const srv_game *g)
{
    json_t *a = json_array();
    for (int i = 0; i < g->nseats; i++) {
        const srv_seat *s = &g->seat[i];
        json_t *o = json_pack("{s:i,s:s,s:s}", "seat", i, "kind",
                              s->kind == SEAT_BOT ? "bot" : "human", "name", s->name);
        if (s->kind == SEAT_BOT) {
            json_object_set_new(o, "bot", json_string(s->bot));
            if (strcmp(s->bot, "ismcts") == 0)
                json_object_set_new(o, "strength", json_integer(s->strength));
        }
        json_object_set_new(o, "connected", json_boolean(s->kind == SEAT_BOT || s->nconn > 0));
        json_object_set_new(o, "away", json_boolean(s->away));
        json_array_append_new(a, o);
    }
    return a;
}

srv_out *srv_state_frame(srv_game *g, srv_client *c)
{
    int seat = c->seat;
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string("state"));
    json_object_set_new(o, "game", json_string(g->id));
    json_object_set_new(o, "seat", json_integer(seat));
    json_object_set_new(o, "status", json_string(srv_status_name(g->status)));
    json_object_set_new(o, "decision", json_integer(g->nmoves));
    json_t *dec = json_array();
    unsigned mask = 0;
    if (g->status == GAME_PLAYING && ch_decider(&g->st, &mask) != CH_DEC_TERMINAL)
        for (int s = 0; s < g->nseats; s++)
            if ((mask >> s) & 1u)
                json_array_append_new(dec, json_integer(s));
    json_object_set_new(o, "deciders", dec);
    json_t *legal = json_array();
    if (seat >= 0 && srv_seat_decides(g, seat)) {
        int nl = 0;
        char *lines = chx_legal_lines(&g->st, seat, &nl);
        for (char *p = lines; p && *p;) {
            char *e = strchr(p, '\n');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            json_array_append_new(legal, json_stringn(p, len));
            p += len + (e ? 1 : 0);
        }
        free(lines);
    }
    json_object_set_new(o, "legal", legal);
    json_object_set_new(o, "seats", seats_json(g));
    json_t *timer = json_pack("{s:i}", "seconds", g->turn_timer);
    /* the deadline runs only while a person (not a bot, not a stand-in) decides */
    unsigned human_deciding = 0, dmask = 0;
    if (g->turn_timer > 0 && g->status == GAME_PLAYING &&
        ch_decider(&g->st, &dmask) != CH_DEC_TERMINAL)
        for (int s = 0; s < g->nseats; s++)
            if ((dmask >> s & 1u) && g->seat[s].kind == SEAT_HUMAN && !g->seat[s].away)
                human_deciding = 1;
    if (human_deciding)
        json_object_set_new(timer, "deadline",
                            json_integer(g->decide_since_ms + (int64_t)g->turn_timer * 1000));
    else
        json_object_set_new(timer, "deadline", json_null());
    json_object_set_new(o, "timer", timer);
    int first = g->nmoves - SRV_LOG_FIRST;
    if (c->log_next > first)
        first = c->log_next;
    if (first < 0)
        first = 0;
    json_t *log = json_array();
    for (int k = first; k < g->nmoves; k++)
        json_array_append_new(log, srv_log_json(&g->log[k % SRV_LOG_RING], seat, c->lang));
    json_object_set_new(o, "log", log);
    json_object_set_new(o, "last", g->nmoves > 0 ?
                        srv_log_json(&g->log[(g->nmoves - 1) % SRV_LOG_RING], seat, c->lang) :
                        json_null());
    if (g->status == GAME_OVER) {
        json_t *sc = json_array(), *w = json_array();
        for (int s = 0; s < g->nseats; s++) {
            json_array_append_new(sc, json_integer(g->scores[s]));
            if ((g->winners >> s) & 1u)
                json_array_append_new(w, json_integer(s));
        }
        json_object_set_new(o, "result", json_pack("{s:o,s:o}", "scores", sc, "winners", w));
    }
    char *head = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    /* the view built by a worker for this decision, else built here */
    char *cached = g->vcache_decision == g->nmoves ? g->vcache[seat + 1] : NULL;
    char *view = cached ? cached : ch_view_to_json(&g->st, seat);
    if (!head || !view) {
        free(head);
        if (!cached)
            ch_free(view);
        return NULL;
    }
    size_t hl = strlen(head), vl = strlen(view);
    srv_out *out = malloc(sizeof *out + LWS_PRE + hl + vl + 16);
    if (out) {
        unsigned char *p = out->buf + LWS_PRE;
        memcpy(p, head, hl - 1); /* without the closing brace */
        size_t len = hl - 1;
        memcpy(p + len, ",\"view\":", 8);
        len += 8;
        /* the view goes out as the library wrote it: taking its indentation
           out costs more CPU than the bytes cost on the wire */
        memcpy(p + len, view, vl);
        len += vl;
        p[len++] = '}';
        out->len = len;
        out->next = NULL;
        c->log_next = g->nmoves;
        c->sent_decision = g->nmoves;
    }
    free(head);
    if (!cached)
        ch_free(view);
    return out;
}

int srv_replay_moves(srv_game *g, json_t *moves, int upto, char *why, size_t n)
{
    if (srv_game_start_state(g, why, n) != 0)
        return -1;
    size_t i;
    json_t *mv;
    json_array_foreach(moves, i, mv) {
        if (upto >= 0 && (int)i >= upto)
            break;
        int p = (int)json_integer_value(json_object_get(mv, "player"));
        const char *text = json_string_value(json_object_get(mv, "move"));
        ch_move m;
        ch_msg msg;
        if (!text || ch_move_parse(&g->st, p, text, &m, &msg) != CH_OK) {
            snprintf(why, n, "stored move %zu (%s): %s", i, text ? text : "?",
                     text ? msg.text : "missing");
            return -1;
        }
        ch_state before = g->st;
        if (ch_apply(&g->st, p, m, &msg) != CH_OK) {
            snprintf(why, n, "stored move %zu (%s): %s", i, text, msg.text);
            return -1;
        }
        /* words only for the entries the log can still show */
        log_add(g, &before, p, m, (int)i + SRV_LOG_RING >= (int)json_array_size(moves));
        g->nmoves++;
    }
    g->ncommitted = g->nmoves;
    return 0;
}
