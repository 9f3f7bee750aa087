/* chat.c: the chat of a table (issue 14 item 5; docs/protocol.md, "Chat").
 *
 * Two channels per game: "table", the players' (spectators read it too),
 * and "spectators", which the players do not see while the game runs (a
 * spectator could otherwise tell a player what others hold). Messages are
 * stored with the game (table chat, schema version 3) with the decision at
 * which they were said, so a replay shows them among the moves. Each message
 * is plain text of at most 500 bytes without control characters, a session
 * may send 5 in 10 seconds over all its connections and an address 15 in 10
 * seconds over all its sessions (issue 28: the limit was per connection, so
 * a client opened more connections or sessions to say more; the address
 * limit follows the other per-address limits: loopback is exempt unless
 * CHARTERED_LIMIT_LOOPBACK=1), and a player may mute another player (the mute
 * is kept with the seats). The server never interprets the text: clients
 * show it as text, never as HTML (the browser client uses textContent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/game_impl.h"

#define CHAT_MAX_BYTES 500
#define CHAT_HISTORY 50
#define CHAT_BURST 5.0
#define CHAT_PER_SEC 0.5 /* 5 in 10 seconds */
#define CHAT_ADDR_BURST 15.0
#define CHAT_ADDR_PER_SEC 1.5 /* 15 in 10 seconds */

static db_conn *db(void)
{
    return srv_store_db(g_storage.store);
}

static void buckets_free(void);

void srv_chat_finalize(void)
{
    /* the statements are the connection's (db.h); the rate buckets go */
    buckets_free();
}

/* The next message number of g (read from the database the first time). */
static int next_n(srv_game *g)
{
    if (g->chat_next > 0)
        return g->chat_next;
    g->chat_next = (int)db_one_int(db(), "SELECT max(n) FROM chat WHERE game = $1",
                                   DB_P(DB_T(g->id)), 0, NULL) + 1;
    return g->chat_next;
}

/* A message on its way to the database (srv_dbjob_submit). */
typedef struct chat_job {
    char game[SRV_ID_HEX + 1];
    char sender[SRV_HASH_HEX + 1]; /* the sender's session: told of a refusal */
    int num, decision, channel, seat;
    int guest;                  /* said by a guest session (issue 28) */
    char name[32];
    char text[CHAT_MAX_BYTES + 1];
    int64_t at;
    int rc;
} chat_job;

/* On the writer thread. */
static void chat_write(db_conn *wdb, void *arg)
{
    chat_job *j = arg;
    j->rc = db_exec(wdb, "INSERT INTO chat(game, n, decision, channel, seat, name, text, at, "
                    "guest) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9)",
                    DB_P(DB_T(j->game), DB_I(j->num), DB_I(j->decision), DB_I(j->channel),
                         DB_I(j->seat), DB_T(j->name), DB_T(j->text), DB_I(j->at),
                         DB_I(j->guest)));
}

static int visible(const srv_game *g, const srv_client *c, int channel, int seat);
static json_t *message_json(int n, int channel, int seat, const char *name, const char *text,
                            int decision, int64_t at, int guest);

/* Back on the loop: stored, so everyone who may read it gets it; refused,
 * so the sender's connections to that game hear why. */
static void chat_written(void *arg)
{
    chat_job *j = arg;
    srv_game *g = srv_game_held(j->game);
    for (srv_client *o = g ? g->clients : NULL; o; o = o->gnext) {
        if (j->rc == 0 && visible(g, o, j->channel, j->seat))
            srv_client_send_json(o, json_pack("{s:s,s:[o]}", "type", "chat", "messages",
                                              message_json(j->num, j->channel, j->seat, j->name,
                                                           j->text, j->decision, j->at,
                                                           j->guest)));
        else if (j->rc != 0 && !strcmp(o->ident.hash, j->sender))
            srv_client_send_json(o, json_pack("{s:s,s:s,s:s}", "type", "error", "code",
                                              "storage", "message",
                                              "the database refused the message"));
    }
    free(j);
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
                            int decision, int64_t at, int guest)
{
    json_t *o = json_pack("{s:i,s:s,s:i,s:s,s:s,s:i,s:I}", "n", n, "channel",
                          channel == CHAT_TABLE ? "table" : "spectators", "seat", seat, "name",
                          name, "text", text, "decision", decision, "at", (json_int_t)at);
    if (guest) /* a guest's message says so (issue 28) */
        json_object_set_new(o, "guest", json_true());
    return o;
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

/* The chat's token buckets, one per session ("s" + its hash) and one per
 * address ("a" + the client's address), so that a client cannot say more by
 * opening more connections (or, from one address, more sessions). A bucket
 * that is full again holds nothing worth keeping: the sweep frees it, so the
 * table holds only the senders of the last half minute. */
typedef struct chat_bucket {
    struct chat_bucket *next;
    double tokens;
    int64_t ms;
    char key[72];               /* 's' + a session's hash, or 'a' + an address */
} chat_bucket;

#define CHAT_BUCKETS 1024
static chat_bucket *buckets[CHAT_BUCKETS];

static chat_bucket *bucket_of(char kind, const char *id, double burst, int64_t now)
{
    char key[sizeof((chat_bucket *)0)->key];
    snprintf(key, sizeof key, "%c%s", kind, id);
    unsigned h = 2166136261u;
    for (const char *p = key; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    h %= CHAT_BUCKETS;
    for (chat_bucket *b = buckets[h]; b; b = b->next)
        if (!strcmp(b->key, key))
            return b;
    chat_bucket *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    memcpy(b->key, key, sizeof key);
    b->tokens = burst;
    b->ms = now;
    b->next = buckets[h];
    buckets[h] = b;
    return b;
}

static double refill(chat_bucket *b, double burst, double per_sec, int64_t now)
{
    double t = b->tokens + (double)(now - b->ms) * (per_sec / 1000.0);
    return t > burst ? burst : t;
}

static void sweep(int64_t now)
{
    static int64_t last;
    if (now - last < 30000)
        return;
    last = now;
    for (int h = 0; h < CHAT_BUCKETS; h++)
        for (chat_bucket **pp = &buckets[h]; *pp;) {
            chat_bucket *b = *pp;
            int addr = b->key[0] == 'a';
            if (refill(b, addr ? CHAT_ADDR_BURST : CHAT_BURST,
                       addr ? CHAT_ADDR_PER_SEC : CHAT_PER_SEC, now) >=
                (addr ? CHAT_ADDR_BURST : CHAT_BURST)) {
                *pp = b->next;
                free(b);
            } else {
                pp = &b->next;
            }
        }
}

static void buckets_free(void)
{
    for (int h = 0; h < CHAT_BUCKETS; h++)
        while (buckets[h]) {
            chat_bucket *b = buckets[h];
            buckets[h] = b->next;
            free(b);
        }
}

/* NULL: the message may go (a token taken from the session's and the
 * address's bucket); else which limit refused it (nothing taken). */
static const char *take(srv_client *c, int64_t now)
{
    sweep(now);
    chat_bucket *s = bucket_of('s', c->ident.hash, CHAT_BURST, now);
    chat_bucket *a = srv_addr_exempt(c->addr) ? NULL
                     : bucket_of('a', c->addr, CHAT_ADDR_BURST, now);
    if (!s || (!a && !srv_addr_exempt(c->addr)))
        return "out of memory";
    double st = refill(s, CHAT_BURST, CHAT_PER_SEC, now);
    double at = a ? refill(a, CHAT_ADDR_BURST, CHAT_ADDR_PER_SEC, now) : 1.0;
    if (st < 1.0)
        return "too many chat messages: at most 5 in 10 seconds";
    if (at < 1.0)
        return "too many chat messages from your address: at most 15 in 10 seconds";
    s->tokens = st - 1.0;
    s->ms = now;
    if (a) {
        a->tokens = at - 1.0;
        a->ms = now;
    }
    return NULL;
}

const char *srv_chat_say(srv_client *c, const char *text, char *why, size_t n)
{
    srv_game *g = c->game;
    if (!g) {
        snprintf(why, n, "join or watch a game before you chat");
        return "no_game";
    }
    if (!c->ident.owner[0] || (!c->alive_ok && !srv_session_alive(c->ident.hash))) {
        snprintf(why, n, "chatting needs a session: log in or play as a guest");
        return "no_session";
    }
    if (!text || bad_text(text)) {
        snprintf(why, n, "a chat message is text of 1 to %d bytes without control characters",
                 CHAT_MAX_BYTES);
        return "bad_request";
    }
    const char *limited = take(c, srv_now_ms());
    if (limited) {
        snprintf(why, n, "%s", limited);
        return "rate_limited";
    }
    int channel = c->seat >= 0 ? CHAT_TABLE : CHAT_SPECTATORS;
    int seat = c->seat;
    const char *name = seat >= 0 ? g->seat[seat].name : c->ident.name;
    chat_job *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(why, n, "out of memory");
        return "storage";
    }
    memcpy(j->game, g->id, sizeof j->game);
    memcpy(j->sender, c->ident.hash, sizeof j->sender);
    j->num = next_n(g);
    j->decision = g->ncommitted;
    j->channel = channel;
    j->seat = seat;
    j->guest = c->ident.user_id <= 0;
    snprintf(j->name, sizeof j->name, "%s", name);
    snprintf(j->text, sizeof j->text, "%s", text);
    j->at = srv_now_ms();
    /* numbered now, so that messages keep their order; stored on the
       writer thread, and shown once stored */
    g->chat_next = j->num + 1;
    srv_dbjob_submit(chat_write, chat_written, j);
    return NULL;
}

json_t *srv_chat_list(srv_game *g, const srv_client *c, int limit)
{
    json_t *a = json_array();
    db_rows *st = db_query(db(), "SELECT n, channel, seat, name, text, decision, at, guest "
                           "FROM chat WHERE game = $1 ORDER BY n DESC LIMIT $2",
                           DB_P(DB_T(g->id), DB_I(limit > 0 ? limit : 1000000)));
    if (!st)
        return a;
    while (db_next(st) == 1) {
        int channel = (int)db_int(st, 1), seat = (int)db_int(st, 2);
        if (c && !visible(g, c, channel, seat))
            continue;
        json_array_insert_new(a, 0, message_json((int)db_int(st, 0), channel, seat,
                                                 db_text(st, 3) ? db_text(st, 3) : "",
                                                 db_text(st, 4) ? db_text(st, 4) : "",
                                                 (int)db_int(st, 5), db_int(st, 6),
                                                 !db_null(st, 7) && db_int(st, 7) != 0));
    }
    db_end(st);
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
