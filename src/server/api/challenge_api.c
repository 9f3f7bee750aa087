/* challenge_api.c: challenges by name (issue 32 item 4; docs/protocol.md,
 * "Challenges"):
 *   POST /api/challenges {name, edition, mode, days, ...}   challenge a person
 *   GET  /api/challenges                   one's pending challenges, both ways
 *   POST /api/challenges/ID/accept         a game with both people seated
 *   POST /api/challenges/ID/decline        the challenged person says no
 *   POST /api/challenges/ID/cancel         the challenger takes it back
 * Only accounts challenge and are challenged (a guest's session has no name
 * another person can find again). A challenge is a row of the table
 * "challenges" (schema version 7, store.c), so it survives a restart and is
 * seen by every node of a cluster. Every database step is a job of the
 * writer thread (srv_dbjob_submit); the game of an accepted challenge is
 * made on the loop with the lobby's own srv_game_create, as POST /api/games
 * and the rematch make theirs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api/api_impl.h"

/* At most this many pending challenges sent by one account: a person
 * cannot flood others' lobbies. */
#define CH_PENDING_MAX 5
/* A challenge nobody answered is forgotten after a week. */
#define CH_TTL_MS (7LL * 24 * 3600 * 1000)
/* An accepted challenge stays in the challenger's list for a day, with the
 * game's link. */
#define CH_SHOWN_MS (24LL * 3600 * 1000)

enum { C_CREATE, C_LIST, C_ACCEPT, C_DECLINE, C_CANCEL, C_GAME, C_REVERT };

typedef struct cjob {
    srv_pwjob *j;               /* the request's handle; NULL: nobody waits */
    int kind;
    int64_t uid;                /* the session's account */
    char name[32];              /* its name */
    char other[32];             /* create: the challenged name; accept: the challenger's */
    int64_t other_uid;
    char id[SRV_ID_HEX + 1];    /* the challenge */
    char game[SRV_ID_HEX + 1];  /* C_GAME: the game made */
    char *settings;             /* JSON text of the game's settings */
    int mailed;                 /* create: an e-mail was queued */
    int status;                 /* the answer's HTTP status */
    const char *why;
    json_t *body;
} cjob;

static void cjob_free(void *arg)
{
    cjob *c = arg;
    srv_pwjob *j = c->j;
    free(c->settings);
    json_decref(c->body);
    free(c);
    free(j);
}

static json_t *row_json(db_rows *r)
{
    json_t *settings = json_loads(db_text(r, 5) ? db_text(r, 5) : "{}", 0, NULL);
    json_t *o = json_pack("{s:s,s:s,s:s,s:o,s:s,s:I}", "id", db_text(r, 0), "from",
                          db_text(r, 2), "to", db_text(r, 4), "settings",
                          settings ? settings : json_object(), "status", db_text(r, 6),
                          "created", (json_int_t)db_int(r, 7));
    if (!db_null(r, 8)) {
        char link[64];
        snprintf(link, sizeof link, "/#/play/%s", db_text(r, 8));
        json_object_set_new(o, "game", json_string(db_text(r, 8)));
        json_object_set_new(o, "link", json_string(link));
    }
    return o;
}

#define CH_COLUMNS "id, from_uid, from_name, to_uid, to_name, settings, status, created, game, " \
    "answered"

static void run_create(db_conn *db, cjob *c, int64_t now)
{
    int rc = 0;
    db_rows *r = db_query(db, "SELECT id, name FROM accounts WHERE name_key = lower($1)",
                          DB_P(DB_T(c->other)));
    int st = r ? db_next(r) : -1;
    if (st == 1) {
        c->other_uid = db_int(r, 0);
        snprintf(c->other, sizeof c->other, "%s", db_text(r, 1));
    }
    if (r)
        db_end(r);
    if (st < 0) {
        c->status = 500;
        return;
    }
    if (st == 0) {
        c->status = 404;
        c->why = "no account has that name";
        return;
    }
    if (c->other_uid == c->uid) {
        c->status = 400;
        c->why = "you cannot challenge yourself";
        return;
    }
    int64_t n = db_one_int(db, "SELECT COUNT(*) FROM challenges WHERE from_uid = $1 AND "
                           "status = 'pending' AND created > $2",
                           DB_P(DB_I(c->uid), DB_I(now - CH_TTL_MS)), -1, &rc);
    if (rc != 0 || n < 0) {
        c->status = 500;
        return;
    }
    if (n >= CH_PENDING_MAX) {
        c->status = 429;
        c->why = "you have too many pending challenges: wait for an answer or cancel one";
        return;
    }
    if (srv_random_hex(c->id, SRV_ID_HEX) != 0 ||
        db_exec(db, "INSERT INTO challenges(" CH_COLUMNS ") VALUES "
                "($1, $2, $3, $4, $5, $6, 'pending', $7, NULL, NULL)",
                DB_P(DB_T(c->id), DB_I(c->uid), DB_T(c->name), DB_I(c->other_uid),
                     DB_T(c->other), DB_T(c->settings), DB_I(now))) != 0) {
        c->status = 500;
        return;
    }
    c->status = 201;
    c->body = json_pack("{s:s,s:s,s:s,s:s}", "id", c->id, "from", c->name, "to", c->other,
                        "status", "pending");
    /* the challenged person is told by e-mail too (when mail is on and they
       have a confirmed address): a row of the mail queue, sent by the mailer
       thread; a failure to queue it leaves the challenge made */
    json_t *set = json_loads(c->settings, 0, NULL);
    int days = (int)json_integer_value(json_object_get(set, "days"));
    const char *mode = json_string_value(json_object_get(set, "mode"));
    int m = srv_mail_challenge_db(db, c->other_uid, c->name,
                                  json_string_value(json_object_get(set, "edition")),
                                  mode && !strcmp(mode, "turn-based") ? (days > 0 ? days : 1) : 0,
                                  now);
    json_decref(set);
    if (m < 0)
        srv_logf(SRV_LOG_ERROR, "db.error", "challenge=%s its e-mail is not queued", c->id);
    c->mailed = m > 0;
}

static void run_list(db_conn *db, cjob *c, int64_t now)
{
    json_t *in = json_array(), *out = json_array();
    db_rows *r = db_query(db, "SELECT " CH_COLUMNS " FROM challenges WHERE (to_uid = $1 OR "
                          "from_uid = $1) AND ((status = 'pending' AND created > $2) OR "
                          "(status = 'accepted' AND from_uid = $1 AND answered > $3)) "
                          "ORDER BY created DESC LIMIT 100",
                          DB_P(DB_I(c->uid), DB_I(now - CH_TTL_MS), DB_I(now - CH_SHOWN_MS)));
    int st = -1;
    while (r && (st = db_next(r)) == 1)
        json_array_append_new(db_int(r, 3) == c->uid ? in : out, row_json(r));
    if (r && db_end(r) != 0)
        st = -1;
    if (st < 0) {
        json_decref(in);
        json_decref(out);
        c->status = 500;
        return;
    }
    c->status = 200;
    c->body = json_pack("{s:o,s:o}", "incoming", in, "outgoing", out);
}

/* accept, decline, cancel: a pending challenge of this person changes its
 * status; 0 rows changed says why (404 none of theirs, 409 answered). */
static void run_answer(db_conn *db, cjob *c, int64_t now)
{
    const char *to = c->kind == C_ACCEPT ? "accepted" : c->kind == C_DECLINE ? "declined"
                                                                              : "cancelled";
    /* constant texts: the SQLite back end keys its statement cache by the
       text's address first (db_sqlite.c), so no text built in a buffer */
    int mine_out = c->kind == C_CANCEL;
    const char *upd = mine_out
        ? "UPDATE challenges SET status = $1, answered = $5 WHERE id = $2 AND from_uid = $3 "
          "AND status = 'pending' AND created > $4"
        : "UPDATE challenges SET status = $1, answered = $5 WHERE id = $2 AND to_uid = $3 "
          "AND status = 'pending' AND created > $4";
    if (db_exec(db, upd, DB_P(DB_T(to), DB_T(c->id), DB_I(c->uid), DB_I(now - CH_TTL_MS),
                              DB_I(now))) != 0) {
        c->status = 500;
        return;
    }
    if (db_changes(db) == 0) {
        int rc = 0;
        const char *cnt = mine_out
            ? "SELECT COUNT(*) FROM challenges WHERE id = $1 AND from_uid = $2"
            : "SELECT COUNT(*) FROM challenges WHERE id = $1 AND to_uid = $2";
        int64_t n = db_one_int(db, cnt, DB_P(DB_T(c->id), DB_I(c->uid)), -1, &rc);
        c->status = rc != 0 || n < 0 ? 500 : n == 0 ? 404 : 409;
        if (c->status != 500)
            c->why = n == 0 ? "no such challenge of yours" : "this challenge was already "
                     "answered, cancelled, or has expired";
        return;
    }
    c->status = 200;
    if (c->kind != C_ACCEPT)
        return;
    db_rows *r = db_query(db, "SELECT " CH_COLUMNS " FROM challenges WHERE id = $1",
                          DB_P(DB_T(c->id)));
    int st = r ? db_next(r) : -1;
    if (st == 1) {
        c->other_uid = db_int(r, 1);
        snprintf(c->other, sizeof c->other, "%s", db_text(r, 2));
        c->settings = strdup(db_text(r, 5) ? db_text(r, 5) : "{}");
    }
    if (r)
        db_end(r);
    if (st != 1 || !c->settings)
        c->status = 500;
}

static void run(db_conn *db, void *arg)
{
    cjob *c = arg;
    int64_t now = srv_now_ms();
    switch (c->kind) {
    case C_CREATE:
        run_create(db, c, now);
        break;
    case C_LIST:
        run_list(db, c, now);
        break;
    case C_GAME: /* the accepted challenge's game */
        if (db_exec(db, "UPDATE challenges SET game = $1 WHERE id = $2",
                    DB_P(DB_T(c->game), DB_T(c->id))) != 0)
            srv_logf(SRV_LOG_ERROR, "db.error", "challenge=%s game=%s the challenge's game is not "
                    "stored", c->id, c->game);
        break;
    case C_REVERT: /* no game could be made: the challenge stands */
        if (db_exec(db, "UPDATE challenges SET status = 'pending', answered = NULL WHERE id = $1",
                    DB_P(DB_T(c->id))) != 0)
            srv_logf(SRV_LOG_ERROR, "db.error", "challenge=%s the challenge is not made pending "
                    "again", c->id);
        break;
    default:
        run_answer(db, c, now);
        break;
    }
}

/* A follow-up write with nobody waiting (C_GAME, C_REVERT). */
static void later(cjob *c, int kind)
{
    cjob *f = calloc(1, sizeof *f);
    if (!f)
        return;
    f->kind = kind;
    memcpy(f->id, c->id, sizeof f->id);
    memcpy(f->game, c->game, sizeof f->game);
    if (srv_dbjob_submit(run, cjob_free, f) != 0)
        cjob_free(f);
}

/* The challenge was accepted: its game, made as POST /api/games makes one,
 * with the challenged person (the session) as creator and the challenger
 * bound to the other seat by account, as the rematch binds its people. */
static int make_game(cjob *c, char *why, size_t n)
{
    json_t *req = json_loads(c->settings, 0, NULL);
    if (!json_is_object(req)) {
        json_decref(req);
        snprintf(why, n, "the challenge's settings cannot be read");
        return 500;
    }
    /* who sits first is drawn: neither the challenger nor the challenged
       chooses it */
    int mine = (int)(srv_random_u64() & 1);
    json_object_set_new(req, "players", json_integer(2));
    json_object_set_new(req, "seats", json_pack("[{s:s,s:s},{s:s,s:s}]", "kind", "human",
                                                "access", "reserved", "kind", "human",
                                                "access", "reserved"));
    json_object_set_new(req, "seat", json_integer(mine));
    srv_ident me = {0};
    snprintf(me.owner, sizeof me.owner, "u:%lld", (long long)c->uid);
    snprintf(me.name, sizeof me.name, "%s", c->name);
    me.user_id = c->uid;
    char them[SRV_OWNER_MAX];
    snprintf(them, sizeof them, "u:%lld", (long long)c->other_uid);
    srv_game *g = srv_game_create(req, &me, why, n);
    json_decref(req);
    if (!g)
        return 400;
    if (g->days > 0 && (srv_turn_count(me.owner, c->uid) >= SRV_TURN_GAMES_MAX ||
                        srv_turn_count(them, c->other_uid) >= SRV_TURN_GAMES_MAX)) {
        srv_game_free(g);
        snprintf(why, n, "one of you already has %d turn-based games in play",
                 SRV_TURN_GAMES_MAX);
        return 409;
    }
    srv_seat *s = &g->seat[1 - mine];
    snprintf(s->owner, sizeof s->owner, "%s", them);
    snprintf(s->name, sizeof s->name, "%s", c->other);
    s->claimed = 1;
    s->open = 0;
    sodium_memzero(s->token, sizeof s->token);
    g->status = GAME_PLAYING;
    g->decide_since_ms = srv_now_ms();
    if (srv_store_create_game(g_storage.store, g) != 0) {
        srv_game_free(g);
        srv_storage_failed(srv_store_errmsg(g_storage.store));
        snprintf(why, n, "the database refused the new game");
        return 500;
    }
    srv_storage_ok();
    srv_game_add(g);
    srv_game_log_created(g, "challenge", me.name);
    srv_cluster_created(g);
    srv_game_kick_bots(g);
    memcpy(c->game, g->id, sizeof c->game);
    return 201;
}

static void done(void *arg)
{
    cjob *c = arg;
    if (c->mailed)
        srv_mail_kick();
    unsigned status = (unsigned)c->status;
    json_t *body = NULL;
    if (status == 500 && !c->why)
        c->why = "the database could not do it: try again later";
    if (c->kind == C_ACCEPT && status == 200) {
        char why[300];
        int st = make_game(c, why, sizeof why);
        if (st != 201) {
            later(c, C_REVERT);
            srv_auth_answer_later(c->j, (unsigned)st, json_pack("{s:s}", "error", why), NULL);
            cjob_free(c);
            return;
        }
        later(c, C_GAME);
        char link[64];
        snprintf(link, sizeof link, "/#/play/%s", c->game);
        body = json_pack("{s:s,s:s,s:s,s:s}", "id", c->id, "status", "accepted", "game",
                         c->game, "link", link);
        status = 201;
    } else if (status >= 400) {
        body = json_pack("{s:s}", "error", c->why);
    } else if (c->body) {
        body = c->body;
        c->body = NULL;
    } else {
        body = json_pack("{s:s,s:s}", "id", c->id, "status",
                         c->kind == C_DECLINE ? "declined" : "cancelled");
    }
    srv_auth_answer_later(c->j, status, body, NULL);
    cjob_free(c);
}

static int submit(struct lws *wsi, cjob *c)
{
    return srv_api_job_submit(wsi, &c->j, run, done, c, cjob_free);
}

/* The settings of a new challenge: the create-game settings that make
 * sense between two people (docs/protocol.md, "Creating a game"), checked
 * by making the game once without keeping it; 0, or -1 with why. */
static int settings_of(json_t *req, char **out, char *why, size_t n)
{
    static const char *keep[] = {"edition", "arrangement", "preset", "events", "mode", "days",
                                 "turn_timer", "variant", NULL};
    json_t *s = json_object();
    const char *key;
    json_t *v;
    json_object_foreach(req, key, v) {
        int ok = !strcmp(key, "name");
        for (int i = 0; keep[i] && !ok; i++)
            if (!strcmp(keep[i], key)) {
                json_object_set(s, key, v);
                ok = 1;
            }
        if (!strcmp(key, "players")) {
            ok = json_is_integer(v) && json_integer_value(v) == 2;
            if (!ok) {
                snprintf(why, n, "a challenge is a game of two players");
                json_decref(s);
                return -1;
            }
        }
        if (!ok) {
            snprintf(why, n, "unknown field \"%.40s\"", key);
            json_decref(s);
            return -1;
        }
    }
    json_t *trial = json_deep_copy(s);
    json_object_set_new(trial, "players", json_integer(2));
    srv_game *g = srv_game_create(trial, NULL, why, n);
    json_decref(trial);
    if (!g) {
        json_decref(s);
        return -1;
    }
    srv_game_free(g);
    *out = json_dumps(s, JSON_COMPACT);
    json_decref(s);
    if (!*out) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    return 0;
}

int srv_challenge_route(struct lws *wsi, const char *rest, int is_post, int *rc)
{
    if (strcmp(rest, "challenges") && strncmp(rest, "challenges/", 11))
        return 0;
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.user_id) {
        *rc = srv_http_error(wsi, 401, "challenges are between accounts: log in or sign up "
                             "first");
        return 1;
    }
    cjob *c = calloc(1, sizeof *c);
    if (!c) {
        *rc = srv_http_error(wsi, 500, "out of memory");
        return 1;
    }
    c->uid = me.user_id;
    snprintf(c->name, sizeof c->name, "%s", me.name);
    if (!strcmp(rest, "challenges")) {
        if (!is_post) {
            c->kind = C_LIST;
            *rc = submit(wsi, c);
            return 1;
        }
        char why[300];
        json_t *req = srv_http_body(why, sizeof why);
        const char *name = json_string_value(json_object_get(req, "name"));
        if (!json_is_object(req) || !name || !*name || strlen(name) > 24) {
            cjob_free(c);
            json_decref(req);
            *rc = srv_http_error(wsi, 400, req ? "send {\"name\": the person to challenge, "
                                 "\"edition\": ..., the game's settings}" : why);
            return 1;
        }
        snprintf(c->other, sizeof c->other, "%s", name);
        int bad = settings_of(req, &c->settings, why, sizeof why);
        json_decref(req);
        if (bad) {
            cjob_free(c);
            *rc = srv_http_error(wsi, 400, why);
            return 1;
        }
        c->kind = C_CREATE;
        *rc = submit(wsi, c);
        return 1;
    }
    const char *verb;
    int bad = srv_api_path_id(rest + 11, c->id, &verb);
    c->kind = !strcmp(verb, "accept") ? C_ACCEPT : !strcmp(verb, "decline") ? C_DECLINE
              : !strcmp(verb, "cancel") ? C_CANCEL : -1;
    if (bad || c->kind < 0) {
        cjob_free(c);
        *rc = srv_http_error(wsi, 404, "no such route: POST /api/challenges/ID/accept, "
                             "/decline or /cancel");
        return 1;
    }
    if (!is_post) {
        cjob_free(c);
        *rc = srv_http_error(wsi, 405, "POST here");
        return 1;
    }
    *rc = submit(wsi, c);
    return 1;
}
