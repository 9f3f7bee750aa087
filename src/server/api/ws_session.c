/* ws_session.c: the WebSocket sessions on /ws. Assembles a client's frame
 * (at most 16 KiB; larger ones are dropped with "too_big"), throttles,
 * decodes the JSON (join, watch, move, ping), answers errors at once, and
 * writes each client's queue and its pending state frame when the socket is
 * writable. A state frame is built at write time from the committed game, so
 * a slow client gets only the newest state, not a backlog.
 *
 * Writes at once: a client with something to send is put on a list
 * (kick), and before the loop waits again (srv_ws_flush, from an ev_prepare
 * watcher) each one's answers and state frame are written straight away
 * while the kernel takes them whole. Asking libwebsockets for a writable
 * callback instead cost two epoll_ctl calls (POLLOUT on, then off) and a
 * loop wake-up per frame: 7.5 of the server's 16 system calls per move at
 * 8,000 connections (docs/performance.md). Only when a send was partial
 * (libwebsockets keeps the rest and asks for POLLOUT itself) or a close is
 * due does the client wait for the writable callback, which then goes on
 * one frame per callback as before. The order of a client's frames is the
 * same either way: its queue first, then its state frame.
 *
 * The sender thread (sender.c, `serve --send-thread on`; off, the default,
 * keeps the writes above): past the first 500 us of a flush (written as
 * above: a short flush costs no hand-over and no wait for the thread to
 * be scheduled; CHARTERED_SEND_DIRECT_US), the flush frames each client's
 * frames itself (build_job: FIN, text, the length, no mask, as lws_write would)
 * into one job per client and hands the flush's jobs to the thread, which
 * send()s them. Half the loop's busy time at 8,000 connections was these
 * sends (docs/performance.md). While a client's job is out, the loop
 * writes nothing to it and does not close it (its later frames wait:
 * order kept); when the job is back (srv_ws_sent) a partly sent one's rest
 * goes to libwebsockets as raw bytes (lws_write LWS_WRITE_RAW), which keeps
 * what the kernel does not take and writes it when writable, ahead of
 * anything later (the flush leaves a client with buffered bytes to the
 * writable callback, as above).
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <string.h>

#include "api/api.h"

/* The clients with something to write before the loop waits again
 * (srv_ws_flush), linked through knext/kprev; c->kicked says it is on it.
 * First in, first out: when more frames are due than one flush writes
 * (its time budget), those waiting longest go first. */
static srv_client *kicked_head, *kicked_tail;
static srv_client *all_clients; /* every WebSocket client (the stop closes them) */

static void kick(srv_client *c)
{
    if (!c->wsi || c->kicked)
        return;
    c->kicked = 1;
    c->knext = NULL;
    c->kprev = kicked_tail;
    if (kicked_tail)
        kicked_tail->knext = c;
    else
        kicked_head = c;
    kicked_tail = c;
}

static void unkick(srv_client *c)
{
    if (!c->kicked)
        return;
    if (c->kprev)
        c->kprev->knext = c->knext;
    else
        kicked_head = c->knext;
    if (c->knext)
        c->knext->kprev = c->kprev;
    else
        kicked_tail = c->kprev;
    c->knext = c->kprev = NULL;
    c->kicked = 0;
}

/* Close c at its next writable callback, telling it why in the close
 * frame (code 1008, policy violation). */
static void close_with(srv_client *c, const char *why)
{
    if (!c->closing) {
        c->closing = 1;
        c->close_why = why;
    }
    lws_callback_on_writable(c->wsi);
}

void srv_ws_protocol_error(void *client, const char *why)
{
    srv_client *c = client;
    close_with(c, why);
    c->close_code = LWS_CLOSE_STATUS_PROTOCOL_ERR;
    c->closing = 1; /* at once: no queued answer goes first */
}

static void queue_push(srv_client *c, srv_out *o)
{
    if (c->closing) {
        free(o);
        return;
    }
    if (c->qlen >= SRV_QUEUE_MAX) {
        /* a client that sends much faster than it reads: no answer is
           dropped without a word; the connection is closed with the reason
           (docs/protocol.md, "Limits") */
        free(o);
        close_with(c, "output queue full: the client does not read its answers");
        return;
    }
    o->next = NULL;
    if (c->qtail)
        c->qtail->next = o;
    else
        c->qhead = o;
    c->qtail = o;
    c->qlen++;
    kick(c); /* not without a socket (srv_ws_handle_text) */
}

void srv_ws_send_json(srv_client *c, json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!s)
        return;
    size_t len = strlen(s);
    srv_out *o = malloc(sizeof *o + LWS_PRE + len);
    if (o) {
        memcpy(o->buf + LWS_PRE, s, len);
        o->len = len;
        queue_push(c, o);
    }
    free(s);
}

static void send_error(srv_client *c, const char *code, const char *msg)
{
    srv_client_send_json(c, json_pack("{s:s,s:s,s:s}", "type", "error", "code", code,
                                      "message", msg));
}

void srv_ws_want_state(srv_client *c)
{
    c->state_dirty = 1;
    kick(c);
}

static void detach(srv_client *c)
{
    srv_game *g = c->game;
    if (!g)
        return;
    if (c->gprev)
        c->gprev->gnext = c->gnext;
    else
        g->clients = c->gnext;
    if (c->gnext)
        c->gnext->gprev = c->gprev;
    c->gnext = c->gprev = NULL;
    if (c->seat >= 0 && g->seat[c->seat].nconn > 0) {
        g->seat[c->seat].nconn--;
        if (g->seat[c->seat].nconn == 0) /* others see "connected": false */
            for (srv_client *o = g->clients; o; o = o->gnext)
                srv_client_want_state(o);
    }
    c->game = NULL;
    c->seat = -1;
    srv_views_release(g);
}

static void attach(srv_client *c, srv_game *g, int seat)
{
    detach(c);
    c->game = g;
    c->seat = seat;
    c->gnext = g->clients;
    c->gprev = NULL;
    if (g->clients)
        g->clients->gprev = c;
    g->clients = c;
    c->log_next = 0;
    c->sent_decision = -1;
    c->static_stamp = 0;
    c->view_dec = -1;           /* the first frame has the whole view */
    c->seq = 0;
    c->bkey_sent = 0;
    if (seat >= 0) {
        srv_seat *s = &g->seat[seat];
        int was_off = s->nconn == 0 || s->away;
        s->nconn++;
        s->away = 0; /* the player takes the seat back from a stand-in bot */
        if (!s->claimed)
            srv_seat_claim(g, seat);
        if (was_off)
            for (srv_client *o = g->clients; o; o = o->gnext)
                srv_client_want_state(o);
    }
    srv_client_want_state(c);
}

static void set_lang(srv_client *c, json_t *msg)
{
    /* "frames":"full": every state frame with the whole view, as before
       deltas (docs/protocol.md); anything else: deltas */
    const char *frames = json_string_value(json_object_get(msg, "frames"));
    c->full_frames = frames && !strcmp(frames, "full");
    const char *lang = json_string_value(json_object_get(msg, "lang"));
    snprintf(c->lang, sizeof c->lang, "%s",
             lang && (!strcmp(lang, "en") || !strcmp(lang, "nl") || !strcmp(lang, "ja")) ?
             lang : "en");
}

/* A join: the seat this connection's session holds in g, or the seat of an
 * invite token, which is bound to the session at its first use. A seat
 * bound to another session is refused, whatever token comes with it. */
static void join(srv_client *c, srv_game *g, json_t *msg)
{
    const char *tok = json_string_value(json_object_get(msg, "token"));
    char why[200];
    /* logged out since (on any node)? Read off the loop before this frame
       was handled (alive_ok, reads.c), else here */
    if (c->ident.owner[0] && !c->alive_ok && !srv_session_alive(c->ident.hash))
        memset(&c->ident, 0, sizeof c->ident);
    if (!c->ident.owner[0]) {
        send_error(c, "no_session", "playing a seat needs a session: log in, sign up or play "
                   "as a guest, and open the WebSocket with its cookie");
        return;
    }
    int seat = -1;
    if (tok) {
        /* every seat is compared, each in constant time */
        for (int i = 0; i < g->nseats; i++)
            if (g->seat[i].kind == SEAT_HUMAN && srv_token_matches(tok, g->seat[i].token_hash))
                seat = i;
        if (seat < 0) {
            send_error(c, "bad_token", "that token is not a seat of this game");
            return;
        }
    } else {
        seat = srv_seat_of(g, c->ident.owner);
        if (seat < 0) {
            send_error(c, "bad_token", "you have no seat in this game: \"token\" (an invite) "
                       "is missing");
            return;
        }
    }
    if (srv_seat_bind(g, seat, &c->ident, why, sizeof why) != SEAT_BOUND) {
        send_error(c, "seat_taken", why);
        return;
    }
    set_lang(c, msg);
    attach(c, g, seat);
    srv_chat_history(c);
    /* the seats this player muted, so that a page loaded again shows them
       (the mute is kept with the seats: chat.c) */
    for (int i = 0; i < g->nseats; i++)
        if ((g->seat[seat].muted >> i) & 1u)
            srv_client_send_json(c, json_pack("{s:s,s:i,s:b}", "type", "muted", "seat", i,
                                              "on", 1));
}

void srv_ws_logout(const char *hash)
{
    for (srv_game *g = g_tables.games; g; g = g->lnext)
        for (srv_client *c = g->clients, *nx; c; c = nx) {
            nx = c->gnext;
            if (c->seat >= 0 && strcmp(c->ident.hash, hash) == 0) {
                send_error(c, "no_session", "you logged out");
                detach(c);
                memset(&c->ident, 0, sizeof c->ident);
            }
        }
}

/* A moderator banned the account, or ended its sessions (moderation_api.c):
 * each of its connections is told why and closed (code 1008), seated or
 * watching; what it sends meanwhile is not acted on. */
int srv_ws_close_user(int64_t uid, const char *why)
{
    int n = 0;
    for (srv_client *c = all_clients; c; c = c->anext) {
        if (c->ident.user_id != uid || c->closing || c->peer_closed || !c->wsi)
            continue;
        send_error(c, "no_session", why);
        detach(c);
        memset(&c->ident, 0, sizeof c->ident);
        c->closing = 2; /* after the error frame */
        c->close_why = why;
        c->close_code = LWS_CLOSE_STATUS_POLICY_VIOLATION;
        kick(c);
        n++;
    }
    return n;
}

static void handle(srv_client *c, const char *text, size_t len);

/* A frame received while a read of this client is out (reads.c): kept, in
 * order, and handled once the read is back. */
typedef struct srv_backlog {
    struct srv_backlog *next;
    size_t len;
    char text[];
} srv_backlog;
/* More than the frame rate's burst (40, ratelimit.c), so that frames the
 * rate let through are kept while a read is out, not refused; bounded,
 * since the rate goes on letting 20 a second through. */
#define SRV_BACKLOG_MAX 64

static void dispatch(srv_client *c, const char *text, size_t len)
{
    if (!c->read) {
        handle(c, text, len);
        return;
    }
    srv_backlog *b = c->bl_n < SRV_BACKLOG_MAX ? malloc(sizeof *b + (len ? len : 1)) : NULL;
    if (!b) {
        send_error(c, "rate_limited", "too many frames while the server reads the database "
                   "for this connection: wait for its answer");
        return;
    }
    b->next = NULL;
    b->len = len;
    memcpy(b->text, text, len);
    if (c->bl_tail)
        c->bl_tail->next = b;
    else
        c->bl_head = b;
    c->bl_tail = b;
    c->bl_n++;
}

/* The frame being handled again after its read: its sender's account is
 * muted by a moderator (reads.c, people/moderation.c), until then. */
static int frame_muted;
static int64_t frame_muted_until;

/* The client's read is back: its session, or the game of the frame that
   waited (handled again now), then the frames received meanwhile. */
static void read_back(srv_read *r)
{
    srv_client *c = r->c;
    if (c) {
        c->read = NULL;
        if (r->want_ident)
            c->ident = r->ident;
        if (r->want_alive && !r->alive && !strcmp(c->ident.hash, r->hash))
            memset(&c->ident, 0, sizeof c->ident); /* logged out since */
        if (r->frame) {
            if (r->game_absent)
                snprintf(c->absent, sizeof c->absent, "%s", r->game);
            c->alive_ok = r->want_alive;
            frame_muted = r->muted;
            frame_muted_until = r->muted_until;
            handle(c, r->frame, r->frame_len);
            frame_muted = 0;
            c->absent[0] = 0;
            c->alive_ok = 0;
        }
        while (!c->read && c->bl_head) {
            srv_backlog *b = c->bl_head;
            c->bl_head = b->next;
            if (!c->bl_head)
                c->bl_tail = NULL;
            c->bl_n--;
            handle(c, b->text, b->len);
            free(b);
        }
    }
    free(r->frame);
    free(r);
}

/* A move frame's move and decision (move may be NULL without a game). */
static void handle_move(srv_client *c, const char *move, long long d)
{
    char why[300];
    srv_metrics_inc(SRV_M_MOVES_RECEIVED_PLAYER, 1);
    if (!c->game) {
        srv_metrics_inc(SRV_M_MOVES_REFUSED_NO_GAME, 1);
        send_error(c, "no_game", "join a game before moving");
    } else if (c->seat < 0) {
        srv_metrics_inc(SRV_M_MOVES_REFUSED_TURN, 1);
        send_error(c, "not_your_turn", "a spectator cannot move");
    } else {
        srv_game *g = c->game;
        int decision = d < 0 || d > 1000000000 ? -2 : (int)d;
        if (decision == -2)
            decision = 1000000001;
        if (g->seat[c->seat].away) { /* back from a stand-in bot */
            g->seat[c->seat].away = 0;
            for (srv_client *o = g->clients; o; o = o->gnext)
                srv_client_want_state(o);
        }
        int rc = srv_play(g, c->seat, move, decision, c->lang, why, sizeof why);
        static const char *codes[] = {"", "not_started", "not_your_turn", "illegal_move",
                                      "stale", "storage", "storage"};
        if (rc != MOVE_OK) {
            srv_count_refused(rc);
            send_error(c, codes[rc], why);
        }
    }
}

static void handle(srv_client *c, const char *text, size_t len)
{
    /* the frame of every move, read without a jansson tree (move_frame.c);
       any other frame below */
    char move[128];
    long long d;
    if (srv_move_frame(text, len, move, sizeof move, &d)) {
        handle_move(c, move, d);
        return;
    }
    json_error_t jerr;
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!msg || !json_is_object(msg)) {
        char why[300];
        if (msg)
            snprintf(why, sizeof why, "a frame must be a JSON object");
        else
            snprintf(why, sizeof why, "line %d, column %d: %s", jerr.line, jerr.column,
                     jerr.text);
        json_decref(msg);
        send_error(c, "bad_json", why);
        return;
    }
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (type && g_tables.draining && (!strcmp(type, "join") || !strcmp(type, "watch"))) {
        /* the server is stopping (serve.c): no game is shown from here any
           more; the client reconnects, elsewhere on a cluster */
        json_decref(msg);
        srv_ws_stop_close(0);
        return;
    }
    char why[300];
    /* a join or a chat message with a session: is the session still there
       (logged out meanwhile, maybe on another node)? Read off the loop
       first, with the game when a join names one not in memory; the frame
       is handled again once the read is back (read_back) */
    if (type && c->ident.owner[0] && !c->alive_ok && g_storage.store && !c->read &&
        (!strcmp(type, "join") || !strcmp(type, "chat"))) {
        srv_read *r = srv_read_new();
        char *copy = r ? malloc(len ? len : 1) : NULL;
        if (copy) {
            memcpy(copy, text, len);
            r->want_alive = 1;
            r->uid = c->ident.user_id;
            snprintf(r->hash, sizeof r->hash, "%s", c->ident.hash);
            const char *id = !strcmp(type, "join")
                                 ? json_string_value(json_object_get(msg, "game")) : NULL;
            if (id && strlen(id) == SRV_ID_HEX && !srv_game_held(id)) {
                r->want_game = 1;
                snprintf(r->game, sizeof r->game, "%s", id);
            }
            r->c = c;
            r->frame = copy;
            r->frame_len = len;
            c->read = r;
            json_decref(msg);
            srv_read_submit(r, read_back);
            return;
        }
        free(r);
    }
    if (!type) {
        send_error(c, "unknown_type", "the frame has no \"type\" (join, watch, move, resync, chat, mute or ping)");
    } else if (!strcmp(type, "ping")) {
        srv_client_send_json(c, json_pack("{s:s}", "type", "pong"));
    } else if (!strcmp(type, "join") || !strcmp(type, "watch")) {
        const char *id = json_string_value(json_object_get(msg, "game"));
        srv_game *g = srv_game_held(id);
        if (g) {
            g->idle_since_ms = 0; /* asked for: its eviction delay starts again */
        } else if (id && strlen(id) == SRV_ID_HEX && g_storage.store && strcmp(c->absent, id)) {
            /* not in memory: read off the loop, then this frame again
               (reads.c); the client's next frames wait for it */
            srv_read *r = c->read ? NULL : srv_read_new();
            char *copy = r ? malloc(len ? len : 1) : NULL;
            if (copy) {
                memcpy(copy, text, len);
                r->want_game = 1;
                snprintf(r->game, sizeof r->game, "%s", id);
                r->c = c;
                r->frame = copy;
                r->frame_len = len;
                c->read = r;
                json_decref(msg);
                srv_read_submit(r, read_back);
                return;
            }
            free(r);
            g = srv_game_find(id); /* out of memory: on the loop, as before */
        }
        if (!id) {
            send_error(c, "bad_request", "\"game\" must be the game's id (text)");
        } else if (!g) {
            send_error(c, "no_game", "there is no game with that id");
        } else if (srv_cluster_ws(c, &g)) {
            /* another node plays it, or the database is away (cluster.c) */
        } else if (!strcmp(type, "watch")) {
            set_lang(c, msg);
            attach(c, g, -1);
            srv_chat_history(c);
        } else {
            join(c, g, msg);
        }
    } else if (!strcmp(type, "resync")) {
        /* the client lost track of its view (a gap in "seq", a patch whose
           base it does not hold): the next state frame is whole */
        if (!c->game) {
            send_error(c, "no_game", "join or watch a game before asking for a resync");
        } else {
            c->view_dec = -1;
            c->static_stamp = 0;
            c->bkey_sent = 0;
            srv_client_want_state(c);
        }
    } else if (!strcmp(type, "chat") && frame_muted) {
        char until[48];
        srv_mod_until_text(frame_muted_until, until, sizeof until);
        snprintf(why, sizeof why, "a moderator muted you %s: you cannot chat", until);
        send_error(c, "muted", why);
    } else if (!strcmp(type, "chat")) {
        const char *code = srv_chat_say(c, json_string_value(json_object_get(msg, "text")), why,
                                        sizeof why);
        if (code)
            send_error(c, code, why);
    } else if (!strcmp(type, "mute")) {
        const char *code = srv_chat_mute(c, json_object_get(msg, "seat"),
                                         json_object_get(msg, "on"), why, sizeof why);
        if (code)
            send_error(c, code, why);
    } else if (!strcmp(type, "move")) {
        json_t *mv = json_object_get(msg, "move"), *dn = json_object_get(msg, "decision");
        if (c->game && (!json_is_string(mv) || !json_is_integer(dn)))
            send_error(c, "bad_request",
                       "a move needs \"move\" (text) and \"decision\" (a whole number)");
        else
            handle_move(c, json_string_value(mv), json_integer_value(dn));
    } else {
        snprintf(why, sizeof why, "unknown type \"%.40s\" (join, watch, move, resync, chat, mute or ping)", type);
        send_error(c, "unknown_type", why);
    }
    json_decref(msg);
}

void srv_ws_handle_text(srv_client *c, const char *text, size_t len)
{
    handle(c, text, len);
}

static int receive(srv_client *c, struct lws *wsi, const char *in, size_t len)
{
    if (c->closing == 1 && c->close_code)
        return 0; /* a protocol error: nothing more it sends is acted on */
    if (lws_is_first_fragment(wsi)) {
        c->rxlen = 0;
        c->rx_too_big = 0;
    }
    /* a frame in one piece (every move): handled where libwebsockets holds
       it, without a copy (nothing keeps the text: a frame kept for later is
       copied, dispatch) */
    int whole = lws_is_first_fragment(wsi) && lws_is_final_fragment(wsi) &&
                len <= SRV_FRAME_MAX && !c->rx;
    if (!whole && !c->rx_too_big) {
        if (c->rxlen + len > SRV_FRAME_MAX) {
            c->rx_too_big = 1;
            free(c->rx);
            c->rx = NULL;
            c->rxlen = 0;
        } else if (len) {
            char *nb = realloc(c->rx, c->rxlen + len);
            if (!nb)
                return -1;
            c->rx = nb;
            memcpy(c->rx + c->rxlen, in, len);
            c->rxlen += len;
        }
    }
    if (!lws_is_final_fragment(wsi))
        return 0;
    int binary = lws_frame_is_binary(wsi);
    if (c->rx_too_big) {
        send_error(c, "too_big", "a frame may be at most 16384 bytes");
    } else if (!srv_rate_take(&c->bucket, srv_now_ms())) {
        /* every refused frame is reported: while one "rate_limited" error
           waits in the queue, later refusals are counted in it ("refused")
           rather than queued one by one */
        if (c->rl_out) {
            c->rl_count++;
        } else {
            srv_out *o = malloc(sizeof *o + LWS_PRE);
            if (o) {
                o->len = 0; /* written at send time (writable) with its count */
                c->rl_count = 1;
                queue_push(c, o);
                if (!c->closing)
                    c->rl_out = o;
            }
        }
    } else if (binary) {
        send_error(c, "bad_json", "binary frames are not accepted: send JSON text");
    } else if (whole) {
        dispatch(c, len ? (const char *)in : "", len);
    } else {
        dispatch(c, c->rx ? c->rx : "", c->rxlen);
    }
    free(c->rx);
    c->rx = NULL;
    c->rxlen = 0;
    c->rx_too_big = 0;
    return 0;
}

/* Something to write: a queued answer, or a state frame that is due and
 * can be built (no move of its game waits for its commit). */
static int has_output(const srv_client *c)
{
    return c->qhead || (c->state_dirty && c->game && c->game->npending == 0);
}

/* c's next frame: its oldest answer, else its state frame; NULL when
 * there is none (or it could not be made). *own: a state frame, in the
 * loop's own buffer (srv_state_frame): not freed, valid until the next. */
static srv_out *next_frame(srv_client *c, int *own)
{
    srv_out *o = c->qhead;
    *own = 0;
    if (o && o == c->rl_out) { /* the rate_limited error, with its count now */
        c->qhead = o->next;
        if (!c->qhead)
            c->qtail = NULL;
        c->qlen--;
        free(o);
        c->rl_out = NULL;
        char *s = NULL;
        json_t *j = json_pack("{s:s,s:s,s:s,s:i}", "type", "error", "code", "rate_limited",
                              "message", "too many frames: at most 20 a second (bursts of 40); "
                              "the refused frames did nothing", "refused", c->rl_count);
        s = j ? json_dumps(j, JSON_COMPACT) : NULL;
        json_decref(j);
        c->rl_count = 0;
        if (!s)
            return NULL;
        size_t len = strlen(s);
        o = malloc(sizeof *o + LWS_PRE + len);
        if (!o) {
            free(s);
            return NULL;
        }
        memcpy(o->buf + LWS_PRE, s, len);
        o->len = len;
        free(s);
    } else if (o) {
        c->qhead = o->next;
        if (!c->qhead)
            c->qtail = NULL;
        c->qlen--;
    } else if (c->state_dirty && c->game && c->game->npending == 0) {
        c->state_dirty = 0;
        o = srv_state_frame(c->game, c);
        *own = 1;
    }
    return o;
}

/* A frame went out (or to the sender): freed, unless it is the loop's
 * state frame, which releases the views it was built from. */
static void frame_done(srv_client *c, srv_out *o, int own)
{
    if (!own)
        free(o);
    else if (c->game)
        srv_views_release(c->game);
}

/* Loop statistics (loopstats.c) of a state frame of c written at `now`:
 * from its game's commit back, and from the move it answers. */
static void state_frame_stats(srv_client *c, int64_t *commit_us, int64_t *move_us)
{
    srv_game *g = c->game;
    *commit_us = g ? g->ls_commit_us : 0;
    *move_us = g && g->ls_move_us && c->sent_decision == g->nmoves ? g->ls_move_us : 0;
}

static void state_frame_add(int64_t commit_us, int64_t move_us, int64_t now)
{
    if (commit_us)
        srv_ls_add(SRV_LS_COMMIT_FRAME, now - commit_us);
    if (move_us)
        srv_ls_add(SRV_LS_MOVE_FRAME, now - move_us);
}

/* Writes c's next frame through libwebsockets. 1 written, 0 nothing to
 * write, -1 the connection failed. */
static int write_next(srv_client *c, struct lws *wsi)
{
    int own;
    srv_out *o = next_frame(c, &own);
    if (!o)
        return 0;
    int n = lws_write(wsi, o->buf + LWS_PRE, o->len, LWS_WRITE_TEXT);
    if (own && srv_ls_on) {
        int64_t cu, mu;
        state_frame_stats(c, &cu, &mu);
        state_frame_add(cu, mu, srv_ls_now());
    }
    frame_done(c, o, own);
    return n < 0 ? -1 : 1;
}

/* Appends o to j as one WebSocket server frame (RFC 6455 5.2: FIN and
 * text, the length in 7, 16 or 64 bits, no mask), as lws_write would
 * write it. 0, or -1 out of memory. */
static int frame_into(srv_sjob *j, const unsigned char *p, size_t len)
{
    size_t need = j->len + 10 + len;
    if (need > j->cap) {
        size_t cap = j->cap ? j->cap : 4096;
        while (cap < need)
            cap *= 2;
        unsigned char *nb = realloc(j->buf, cap);
        if (!nb)
            return -1;
        j->buf = nb;
        j->cap = cap;
    }
    unsigned char *h = j->buf + j->len;
    size_t k = 0;
    h[k++] = 0x81;
    if (len < 126) {
        h[k++] = (unsigned char)len;
    } else if (len < 65536) {
        h[k++] = 126;
        h[k++] = (unsigned char)(len >> 8);
        h[k++] = (unsigned char)len;
    } else {
        h[k++] = 127;
        for (int i = 7; i >= 0; i--)
            h[k++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    memcpy(h + k, p, len);
    j->len += k + len;
    return 0;
}

/* Every frame c has now, framed into its job: 1 when there is one to hand
 * to the sender, 0 none, -1 out of memory (the frames are lost: the
 * connection is closed, as a failed write would). */
static int build_job(srv_client *c)
{
    srv_sjob *j = c->sjob;
    if (!j) {
        j = calloc(1, sizeof *j);
        if (!j)
            return -1;
        j->c = c;
        j->fd = lws_get_socket_fd(c->wsi);
        c->sjob = j;
    }
    j->len = j->sent = 0;
    j->result = 0;
    j->ls_commit_us = j->ls_move_us = 0;
    int bad = 0;
    while (has_output(c)) {
        int own;
        srv_out *o = next_frame(c, &own);
        if (!o)
            continue;
        if (frame_into(j, o->buf + LWS_PRE, o->len) < 0)
            bad = 1;
        if (own && srv_ls_on)
            state_frame_stats(c, &j->ls_commit_us, &j->ls_move_us);
        frame_done(c, o, own);
    }
    if (bad)
        return -1;
    return j->len > 0;
}

/* The peer is gone (a reset, a broken pipe): closed by libwebsockets at
 * its next turn, outside this write. */
static void write_failed(srv_client *c)
{
    c->peer_closed = 1;
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

void srv_ws_sent(srv_sjob *j)
{
    srv_client *c = j->c;
    j->busy = 0;
    if (!c) { /* closed meanwhile (CLOSED): nothing was sent after it */
        free(j->buf);
        free(j);
        return;
    }
    if (srv_ls_on) {
        srv_ls_add(SRV_LS_SENDER, j->sent_us - j->handed_us);
        /* a partial send: the rest goes to the kernel from libwebsockets'
           buffer; counted as written now, as lws_write's partial writes */
        state_frame_add(j->ls_commit_us, j->ls_move_us,
                        j->result == 0 ? j->sent_us : srv_ls_now());
    }
    if (j->result < 0) {
        if (!c->peer_closed)
            write_failed(c);
    } else if (j->result > 0 && !c->peer_closed) {
        /* the rest, unframed (LWS_WRITE_RAW goes to lws_issue_raw): lws
           sends what the kernel takes, keeps the rest and asks for POLLOUT
           (lws_partial_buffered); anything later waits behind it */
        if (lws_write(c->wsi, j->buf + j->sent, j->len - j->sent, LWS_WRITE_RAW) < 0)
            write_failed(c);
    }
    /* shrink a buffer a burst made large (a resync's whole view) */
    if (j->cap > 65536) {
        free(j->buf);
        j->buf = NULL;
        j->cap = 0;
    }
    /* what came due meanwhile, a close that waited for its data */
    if (!c->peer_closed && (has_output(c) || c->closing))
        kick(c);
}

int srv_ws_stop_close(int force)
{
    /* code 1001 "going away" (RFC 6455 7.4.1) with the reason: the browser
       reconnects (web/js/game.js), and on a cluster lands on the node that
       took the game over; what was due (the last commits' state frames) is
       written first, unless the stop's time is up (force) */
    static const char why[] = "the server is stopping: reconnect";
    int open = 0;
    for (srv_client *c = all_clients; c; c = c->anext) {
        open++;
        if (c->closing || c->peer_closed || !c->wsi)
            continue;
        if (!force && (has_output(c) || (c->sjob && c->sjob->busy) ||
                       (c->game && (c->game->npending || c->game->views_job))))
            continue;
        c->closing = 1;
        c->close_why = why;
        c->close_code = LWS_CLOSE_STATUS_GOINGAWAY;
        lws_callback_on_writable(c->wsi);
    }
    return open;
}

static int writable(srv_client *c, struct lws *wsi)
{
    if (c->sjob && c->sjob->busy)
        return 0; /* its frames are with the sender: once back (srv_ws_sent) */
    if (c->closing == 2 && c->qhead) {
        /* the error frame goes out first */
    } else if (c->closing) {
        lws_close_reason(wsi, c->close_code ? (enum lws_close_status)c->close_code
                                            : LWS_CLOSE_STATUS_POLICY_VIOLATION,
                         (unsigned char *)c->close_why, strlen(c->close_why));
        return -1;
    }
    if (write_next(c, wsi) < 0)
        return -1;
    if (has_output(c) || c->closing)
        lws_callback_on_writable(wsi);
    return 0;
}

int srv_ws_flush(int64_t budget_us)
{
    /* a write can kick another client (never this one again while it
       writes): take them one at a time from the head. With a budget, the
       flush stops once it is spent and says so: the loop then reads what
       came in (moves, the workers' results) before it goes on, instead of
       leaving every socket unread while thousands of frames go out in one
       turn (a move read late has its commit handed over late: the tail of
       the latency, docs/performance.md).
       With the sender thread (sender.c), each client's frames are framed
       into its job here and every job of this flush is handed over at the
       end, in the order taken (oldest first) */
    int64_t until = budget_us > 0 ? srv_ls_now() + budget_us : 0;
    unsigned nwritten = 0;
    int use_sender = srv_sender_on();
    /* the first frames of a flush are written here, as without the
       sender (no hand-over, no wait for the thread to run): only what a
       flush has beyond srv_send_direct_us goes to the thread (a burst:
       a group of commits back, each game's clients), which sends it while
       the loop goes back to reading moves */
    int64_t direct_until = use_sender ? srv_ls_now() + srv_send_direct_us() : 0;
    int direct = 1;
    srv_sjob *jhead = NULL, *jtail = NULL;
    int left = 0;
    while (kicked_head) {
        if (until && (++nwritten & 15) == 0 && srv_ls_now() >= until) {
            left = 1;
            break;
        }
        srv_client *c = kicked_head;
        unkick(c);
        if (c->sjob && c->sjob->busy)
            continue; /* kicked again once its job is back (srv_ws_sent) */
        struct lws *wsi = c->wsi;
        if (c->closing || c->peer_closed || lws_partial_buffered(wsi)) {
            /* a close is written by the callback (it returns -1); after a
               partial send libwebsockets calls back once the rest is out */
            if (!c->peer_closed)
                lws_callback_on_writable(wsi);
            continue;
        }
        if (use_sender && direct && srv_ls_now() >= direct_until)
            direct = 0; /* from here on, the sender's */
        if (use_sender && !direct && c->raw_ok) {
            int r = build_job(c);
            if (r < 0) {
                write_failed(c);
            } else if (r > 0) {
                srv_sjob *j = c->sjob;
                j->busy = 1;
                j->next = NULL;
                if (jtail)
                    jtail->next = j;
                else
                    jhead = j;
                jtail = j;
            }
            continue;
        }
        int r = 1;
        while (r > 0 && has_output(c) && !lws_partial_buffered(wsi))
            r = write_next(c, wsi);
        if (r < 0)
            write_failed(c);
        else if (has_output(c))
            lws_callback_on_writable(wsi); /* the rest when the kernel takes it */
    }
    if (jhead) {
        int64_t now = srv_ls_on ? srv_ls_now() : 0;
        for (srv_sjob *j = jhead; j; j = j->next)
            j->handed_us = now;
        srv_sender_submit(jhead, jtail);
    }
    return left;
}

int srv_ws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
                    void *in, size_t len)
{
    srv_pss *pss = user;
    srv_client *c = pss ? pss->client : NULL;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
        c = calloc(1, sizeof *c);
        if (!c)
            return -1;
        c->wsi = wsi;
        c->seat = -1;
        c->anext = all_clients;
        if (all_clients)
            all_clients->aprev = c;
        all_clients = c;
        /* the sender thread writes to the socket itself: never under TLS
           (the server does not serve it; lws_write encrypts) */
        c->raw_ok = !lws_is_ssl(wsi);
        {
            /* state frames are written whole: do not let Nagle hold their
               last segment back for the peer's delayed ACK */
            int one = 1;
            setsockopt(lws_get_socket_fd(wsi), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            /* CHARTERED_WS_SNDBUF: a fixed kernel send buffer per WebSocket
               (bytes; unset: the kernel's own sizing). It bounds the kernel
               memory a client that does not read can hold, and lets
               tests/server_slowreader.py reach partial sends on loopback */
            static int sndbuf = -1;
            if (sndbuf < 0) {
                const char *e = getenv("CHARTERED_WS_SNDBUF");
                sndbuf = e ? atoi(e) : 0;
                if (sndbuf < 0)
                    sndbuf = 0;
            }
            if (sndbuf > 0)
                setsockopt(lws_get_socket_fd(wsi), SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
        }
        snprintf(c->lang, sizeof c->lang, "en");
        /* the session of the upgrade's cookie: the seats this connection
           may play (none without one; spectators need none), read off the
           loop (reads.c): the frames wait for it */
        {
            char tok[SRV_SESSION_HEX + 2];
            srv_read *r = g_storage.store && srv_session_token(wsi, tok, sizeof tok) == 0 &&
                                  strlen(tok) == SRV_SESSION_HEX
                              ? srv_read_new()
                              : NULL;
            if (r) {
                r->want_ident = 1;
                memcpy(r->token, tok, sizeof r->token);
                r->c = c;
                c->read = r;
                srv_read_submit(r, read_back); /* may be back at once */
            } else {
                srv_ident_of(wsi, &c->ident);
            }
        }
        memset(pss, 0, sizeof *pss);
        pss->client = c;
        g_api.nclients++;
        srv_metrics_inc(SRV_M_WS_OPENED, 1);
        srv_peer_addr(wsi, c->addr, sizeof c->addr);
        /* the raw bytes of this socket are looked at (rawguard.c): an
           unmasked frame, even one sent before the upgrade's answer,
           closes it */
        srv_rawguard_attach(lws_get_socket_fd(wsi), c);
        if (srv_rawguard_unmasked(lws_get_socket_fd(wsi))) {
            c->counted = 0;
            srv_ws_protocol_error(c, "unmasked frame (RFC 6455 5.1)");
            return 0;
        }
        if (srv_limit_connect(c->addr) != 0) {
            /* told, then closed (docs/protocol.md, "Limits") */
            char why[160];
            snprintf(why, sizeof why, "too many connections from your address (at most %lld)",
                     srv_limit(SRV_LIMIT_CONNS_PER_ADDR));
            send_error(c, "too_many_connections", why);
            close_with(c, "too many connections from this address");
            c->closing = 2; /* after the error frame */
        } else {
            c->counted = 1;
        }
        return 0;
    case LWS_CALLBACK_RECEIVE:
        if (!c)
            return -1;
        return receive(c, wsi, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE:
        if (!c)
            return 0;
        unkick(c); /* written here: the flush need not look at it */
        return writable(c, wsi);
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        /* libwebsockets answers the close: nothing more is written to it
           (a frame written at once would follow the close frame) */
        if (c)
            c->peer_closed = 1;
        return 0;
    case LWS_CALLBACK_CLOSED:
        if (c) {
            unkick(c);
            if (c->aprev)
                c->aprev->anext = c->anext;
            else
                all_clients = c->anext;
            if (c->anext)
                c->anext->aprev = c->aprev;
            srv_rawguard_attach(lws_get_socket_fd(wsi), NULL);
            if (c->counted)
                srv_limit_disconnect(c->addr);
            detach(c);
            if (c->read) /* the read ends without it */
                ((srv_read *)c->read)->c = NULL;
            for (srv_backlog *b = c->bl_head, *nx; b; b = nx) {
                nx = b->next;
                free(b);
            }
            for (srv_out *o = c->qhead, *nx; o; o = nx) {
                nx = o->next;
                free(o);
            }
            if (c->sjob) {
                if (c->sjob->busy) {
                    /* before libwebsockets closes the socket: never sent
                       to after this; freed when it comes back */
                    srv_sender_forget(c->sjob);
                    c->sjob->c = NULL;
                } else {
                    free(c->sjob->buf);
                    free(c->sjob);
                }
            }
            free(c->rx);
            free(c);
            pss->client = NULL;
            g_api.nclients--;
        }
        return 0;
    default:
        return 0;
    }
}
