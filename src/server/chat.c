/* chat.c: the chat of a table (issue 14 item 5; docs/protocol.md, "Chat").
 *
 * Two channels per game: "table", the players' (spectators read it too),
 * and "spectators", which the players do not see while the game runs (a
 * spectator could otherwise tell a player what others hold). Messages are
 * stored with the game (table chat, schema version 3) with the decision at
 * which they were said, so a replay shows them among the moves. Each message
 * is plain text of at most 500 bytes without control characters, a sender
 * may send 5 in 10 seconds, and a player may mute another player (the mute
 * is kept with the seats). The server never interprets the text: clients
 * show it as text, never as HTML (the browser client uses textContent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "server.h"

#define CHAT_MAX_BYTES 500
#define CHAT_HISTORY 50
#define CHAT_BURST 5.0
#define CHAT_PER_SEC 0.5 /* 5 in 10 seconds */

static sqlite3_stmt *ins_chat, *sel_chat, *max_chat;

static sqlite3 *db(void)
{
    return srv_store_sqlite(g_srv->store);
}

static sqlite3_stmt *prep(sqlite3_stmt **st, const char *sql)
{
    if (!*st && sqlite3_prepare_v2(db(), sql, -1, st, NULL) != SQLITE_OK)
        *st = NULL;
    if (*st)
        sqlite3_reset(*st);
    return *st;
}

void srv_chat_finalize(void)
{
    sqlite3_finalize(ins_chat);
    sqlite3_finalize(sel_chat);
    sqlite3_finalize(max_chat);
    ins_chat = sel_chat = max_chat = NULL;
}

/* The next message number of g (read from the database the first time). */
static int next_n(srv_game *g)
{
    if (g->chat_next > 0)
        return g->chat_next;
    int n = 1;
    sqlite3_stmt *st = prep(&max_chat, "SELECT max(n) FROM chat WHERE game = ?");
    if (st) {
        sqlite3_bind_text(st, 1, g->id, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int(st, 0) + 1;
        sqlite3_reset(st);
    }
    g->chat_next = n;
    return n;
}

/* May client c read a message of `channel` from `seat` in g? */
static int visible(const srv_game *g, const srv_client *c, int channel, int seat)
{
    if (channel == CHAT_SPECTATORS && c->seat >= 0 && g->status != GAME_OVER)
        return 0;
    if (c->seat >= 0 && seat >= 0 && seat < g->nseats && (g->seat[c->seat].muted >> seat) & 1u)
        return 0;
    return 1;
}

static json_t *message_json(int n, int channel, int seat, const char *name, const char *text,
                            int decision, int64_t at)
{
    return json_pack("{s:i,s:s,s:i,s:s,s:s,s:i,s:I}", "n", n, "channel",
                     channel == CHAT_TABLE ? "table" : "spectators", "seat", seat, "name", name,
                     "text", text, "decision", decision, "at", (json_int_t)at);
}

static int bad_text(const char *t)
{
    size_t l = strlen(t);
    if (l == 0 || l > CHAT_MAX_BYTES)
        return 1;
    int blank = 1;
    for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            return 1;
        if (*p != ' ')
            blank = 0;
    }
    return blank;
}

static int take(srv_client *c, int64_t now)
{
    if (c->chat_ms == 0) {
        c->chat_bucket = CHAT_BURST;
        c->chat_ms = now;
    }
    c->chat_bucket += (double)(now - c->chat_ms) * (CHAT_PER_SEC / 1000.0);
    c->chat_ms = now;
    if (c->chat_bucket > CHAT_BURST)
        c->chat_bucket = CHAT_BURST;
    if (c->chat_bucket < 1.0)
        return 0;
    c->chat_bucket -= 1.0;
    return 1;
}

const char *srv_chat_say(srv_client *c, const char *text, char *why, size_t n)
{
    srv_game *g = c->game;
    if (!g) {
        snprintf(why, n, "join or watch a game before you chat");
        return "no_game";
    }
    if (!c->ident.owner[0] || !srv_session_alive(c->ident.hash)) {
        snprintf(why, n, "chatting needs a session: log in or play as a guest");
        return "no_session";
    }
    if (!text || bad_text(text)) {
        snprintf(why, n, "a chat message is text of 1 to %d bytes without control characters",
                 CHAT_MAX_BYTES);
        return "bad_request";
    }
    if (!take(c, srv_now_ms())) {
        snprintf(why, n, "too many chat messages: at most 5 in 10 seconds");
        return "rate_limited";
    }
    int channel = c->seat >= 0 ? CHAT_TABLE : CHAT_SPECTATORS;
    int seat = c->seat;
    const char *name = seat >= 0 ? g->seat[seat].name : c->ident.name;
    int num = next_n(g);
    int64_t at = srv_now_ms();
    sqlite3_stmt *st = prep(&ins_chat, "INSERT INTO chat(game, n, decision, channel, seat, name, "
                                       "text, at) VALUES(?,?,?,?,?,?,?,?)");
    int rc = SQLITE_ERROR;
    if (st) {
        sqlite3_bind_text(st, 1, g->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 2, num);
        sqlite3_bind_int(st, 3, g->ncommitted);
        sqlite3_bind_int(st, 4, channel);
        sqlite3_bind_int(st, 5, seat);
        sqlite3_bind_text(st, 6, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 7, text, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 8, at);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
    }
    if (rc != SQLITE_DONE) {
        snprintf(why, n, "the database refused the message");
        return "storage";
    }
    g->chat_next = num + 1;
    for (srv_client *o = g->clients; o; o = o->gnext)
        if (visible(g, o, channel, seat))
            srv_client_send_json(o, json_pack("{s:s,s:[o]}", "type", "chat", "messages",
                                              message_json(num, channel, seat, name, text,
                                                           g->ncommitted, at)));
    return NULL;
}

json_t *srv_chat_list(srv_game *g, const srv_client *c, int limit)
{
    json_t *a = json_array();
    sqlite3_stmt *st = prep(&sel_chat, "SELECT n, channel, seat, name, text, decision, at FROM "
                                       "chat WHERE game = ? ORDER BY n DESC LIMIT ?");
    if (!st)
        return a;
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, limit > 0 ? limit : 1000000);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int channel = sqlite3_column_int(st, 1), seat = sqlite3_column_int(st, 2);
        if (c && !visible(g, c, channel, seat))
            continue;
        json_array_insert_new(a, 0, message_json(sqlite3_column_int(st, 0), channel, seat,
                                                 (const char *)sqlite3_column_text(st, 3),
                                                 (const char *)sqlite3_column_text(st, 4),
                                                 sqlite3_column_int(st, 5),
                                                 sqlite3_column_int64(st, 6)));
    }
    sqlite3_reset(st);
    return a;
}

void srv_chat_history(srv_client *c)
{
    if (!c->game)
        return;
    json_t *a = srv_chat_list(c->game, c, CHAT_HISTORY);
    if (json_array_size(a) == 0) {
        json_decref(a);
        return;
    }
    srv_client_send_json(c, json_pack("{s:s,s:o}", "type", "chat", "messages", a));
}

const char *srv_chat_mute(srv_client *c, json_t *seat_v, json_t *on_v, char *why, size_t n)
{
    srv_game *g = c->game;
    if (!g || c->seat < 0) {
        snprintf(why, n, "only a player may mute another player");
        return g ? "not_your_turn" : "no_game";
    }
    if (!json_is_integer(seat_v) || json_integer_value(seat_v) < 0 ||
        json_integer_value(seat_v) >= g->nseats || json_integer_value(seat_v) == c->seat ||
        (on_v && !json_is_boolean(on_v))) {
        snprintf(why, n, "mute needs \"seat\" (another seat of this game) and optionally "
                 "\"on\" (true or false)");
        return "bad_request";
    }
    unsigned bit = 1u << json_integer_value(seat_v);
    unsigned *m = &g->seat[c->seat].muted;
    unsigned was = *m;
    if (!on_v || json_is_true(on_v))
        *m |= bit;
    else
        *m &= ~bit;
    if (*m != was) { /* kept with the seats */
        g->meta_dirty = 1;
        srv_commit_schedule(g);
    }
    srv_client_send_json(c, json_pack("{s:s,s:I,s:b}", "type", "muted", "seat",
                                      (json_int_t)json_integer_value(seat_v), "on",
                                      (*m & bit) != 0));
    return NULL;
}
