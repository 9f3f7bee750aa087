/* follow_api.c: following players (issue 32 item 4; docs/protocol.md,
 * "Following"):
 *   GET  /api/following                 the people one follows: online or
 *                                       not, their games in play (newest
 *                                       first, the new ones marked) with
 *                                       links to watch them
 *   POST /api/following {name}          follow an account
 *   POST /api/following/remove {name}   stop following it
 * Only accounts follow and are followed (a guest's session has no name
 * another person can find again). The followed person is not told, as on
 * lichess: following is a bookmark of the follower's, not a request, so
 * there is nothing to accept or refuse and no message to send (and no way
 * to pester someone with follow/unfollow notices). A follow is a row of the
 * table "follows" (schema version 9, store/schema.c), so every node of a
 * cluster sees it. Every database step is a job of the writer thread
 * (srv_dbjob_submit), answered on the loop, as challenge_api.c does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api_impl.h"

/* At most this many people followed by one account: the list is read in one
 * query, and a few hundred is more than a person watches. */
#define FOLLOW_MAX 200
/* Online: a session of the account used within this many seconds (a
 * session's last_seen is written at most every 5 minutes, people/session.c,
 * and an open page asks the server every 20 s). */
#define ONLINE_S 600
/* A game started within a day is marked new. */
#define NEW_S (24 * 3600)
/* Games listed a person (in play or waiting for players), newest first. */
#define GAMES_EACH 5

enum { F_LIST, F_ADD, F_REMOVE };

typedef struct fjob {
    srv_pwjob *j;               /* the request's handle */
    int kind;
    int64_t uid;                /* the session's account */
    char other[32];             /* add/remove: the name given, then as stored */
    int status;
    const char *why;
    json_t *body;
} fjob;

static void fjob_free(void *arg)
{
    fjob *f = arg;
    srv_pwjob *j = f->j;
    json_decref(f->body);
    free(f);
    free(j);
}

/* The account of a name (any case): its id, the name as written at sign-up
 * into other; 0 none, -1 error. */
static int64_t account_of(db_conn *db, fjob *f)
{
    db_rows *r = db_query(db, "SELECT id, name FROM accounts WHERE name_key = lower($1)",
                          DB_P(DB_T(f->other)));
    int st = r ? db_next(r) : -1;
    int64_t id = 0;
    if (st == 1) {
        id = db_int(r, 0);
        snprintf(f->other, sizeof f->other, "%s", db_text(r, 1) ? db_text(r, 1) : "");
    }
    if (r && db_end(r) != 0)
        st = -1;
    return st < 0 ? -1 : id;
}

static void run_add(db_conn *db, fjob *f, int64_t now_s)
{
    int64_t id = account_of(db, f);
    if (id < 0) {
        f->status = 500;
        return;
    }
    if (id == 0) {
        f->status = 404;
        f->why = "no account has that name";
        return;
    }
    if (id == f->uid) {
        f->status = 400;
        f->why = "you cannot follow yourself";
        return;
    }
    int rc = 0;
    /* following again someone already followed changes nothing: 200 */
    if (db_exec(db, "INSERT INTO follows(follower, followed, created) SELECT $1, $2, $3 "
                "WHERE (SELECT COUNT(*) FROM follows WHERE follower = $1) < $4 "
                "ON CONFLICT DO NOTHING",
                DB_P(DB_I(f->uid), DB_I(id), DB_I(now_s), DB_I(FOLLOW_MAX))) != 0) {
        f->status = 500;
        return;
    }
    if (db_changes(db) == 1) {
        f->status = 201;
    } else {
        int64_t had = db_one_int(db, "SELECT COUNT(*) FROM follows WHERE follower = $1 AND "
                                 "followed = $2", DB_P(DB_I(f->uid), DB_I(id)), -1, &rc);
        if (rc != 0 || had < 0) {
            f->status = 500;
            return;
        }
        if (!had) {
            f->status = 429;
            f->why = "you follow as many people as one may (200): stop following someone first";
            return;
        }
        f->status = 200;
    }
    f->body = json_pack("{s:s,s:b}", "name", f->other, "following", 1);
}

static void run_remove(db_conn *db, fjob *f)
{
    int64_t id = account_of(db, f);
    if (id < 0) {
        f->status = 500;
        return;
    }
    if (id > 0 && db_exec(db, "DELETE FROM follows WHERE follower = $1 AND followed = $2",
                          DB_P(DB_I(f->uid), DB_I(id))) != 0) {
        f->status = 500;
        return;
    }
    if (id == 0 || db_changes(db) == 0) {
        f->status = 404;
        f->why = "you do not follow anyone of that name";
        return;
    }
    f->status = 200;
    f->body = json_pack("{s:s,s:b}", "name", f->other, "following", 0);
}

/* One game of a followed person: edition, pace, who sits, a link to watch. */
static json_t *game_json(db_rows *r, int64_t now_s)
{
    const char *id = db_text(r, 1) ? db_text(r, 1) : "";
    json_t *setup = json_loads(db_text(r, 2) ? db_text(r, 2) : "{}", 0, NULL);
    json_t *seats = json_loads(db_text(r, 3) ? db_text(r, 3) : "[]", 0, NULL);
    const char *ed = json_string_value(json_object_get(setup, "edition"));
    json_int_t days = json_integer_value(json_object_get(setup, "days"));
    int64_t created = db_int(r, 5);
    json_t *names = json_array();
    size_t i;
    json_t *o;
    json_array_foreach(seats, i, o) {
        const char *nm = json_string_value(json_object_get(o, "name"));
        json_array_append_new(names, json_string(nm ? nm : ""));
    }
    char link[64];
    snprintf(link, sizeof link, "/#/watch/%s", id);
    json_t *g = json_pack("{s:s,s:s,s:s,s:I,s:o,s:I,s:b,s:s,s:i}", "id", id, "edition",
                          ed ? ed : "amsterdam", "status", db_text(r, 4) ? db_text(r, 4) : "",
                          "days", days, "players", names, "created", (json_int_t)created,
                          "new", created > now_s - NEW_S, "link", link, "seat",
                          (int)db_int(r, 6));
    json_decref(setup);
    json_decref(seats);
    return g;
}

static void run_list(db_conn *db, fjob *f, int64_t now_s)
{
    json_t *people = json_array();
    /* the people, with the last use of any of their sessions */
    db_rows *r = db_query(db, "SELECT a.id, a.name, (SELECT MAX(s.last_seen) FROM sessions s "
                          "WHERE s.user_id = a.id), f.created FROM follows f JOIN accounts a "
                          "ON a.id = f.followed WHERE f.follower = $1 ORDER BY a.name_key",
                          DB_P(DB_I(f->uid)));
    int st = -1;
    while (r && (st = db_next(r)) == 1) {
        int64_t seen = db_null(r, 2) ? 0 : db_int(r, 2);
        json_array_append_new(people,
                              json_pack("{s:I,s:s,s:b,s:I,s:b,s:o}", "uid",
                                        (json_int_t)db_int(r, 0), "name",
                                        db_text(r, 1) ? db_text(r, 1) : "", "online",
                                        seen > now_s - ONLINE_S, "since",
                                        (json_int_t)db_int(r, 3), "playing", 0, "games",
                                        json_array()));
    }
    if (r && db_end(r) != 0)
        st = -1;
    /* their games in play or waiting for players, newest first */
    db_rows *g = st < 0 ? NULL
        : db_query(db, "SELECT p.user_id, g.id, g.setup, g.seats, g.status, g.created, p.seat "
                   "FROM follows f JOIN game_players p ON p.user_id = f.followed JOIN games g "
                   "ON g.id = p.game WHERE f.follower = $1 AND g.status IN ('playing', "
                   "'waiting') ORDER BY g.created DESC, g.id LIMIT 1000", DB_P(DB_I(f->uid)));
    if (st >= 0 && !g)
        st = -1;
    while (g && (st = db_next(g)) == 1) {
        int64_t who = db_int(g, 0);
        size_t i;
        json_t *p;
        json_array_foreach(people, i, p) {
            if (json_integer_value(json_object_get(p, "uid")) != who)
                continue;
            json_t *games = json_object_get(p, "games");
            if (!strcmp(db_text(g, 4) ? db_text(g, 4) : "", "playing"))
                json_object_set_new(p, "playing", json_true());
            if (json_array_size(games) < GAMES_EACH)
                json_array_append_new(games, game_json(g, now_s));
            break;
        }
    }
    if (g && db_end(g) != 0)
        st = -1;
    if (st < 0) {
        json_decref(people);
        f->status = 500;
        return;
    }
    size_t i;
    json_t *p;
    json_array_foreach(people, i, p) json_object_del(p, "uid");
    f->status = 200;
    f->body = json_pack("{s:o}", "following", people);
}

static void run(db_conn *db, void *arg)
{
    fjob *f = arg;
    int64_t now_s = (int64_t)time(NULL);
    if (f->kind == F_LIST)
        run_list(db, f, now_s);
    else if (f->kind == F_ADD)
        run_add(db, f, now_s);
    else
        run_remove(db, f);
}

static void done(void *arg)
{
    fjob *f = arg;
    srv_auth_answer_later(f->j, (unsigned)f->status, srv_api_job_body(f->status, f->why, &f->body),
                          NULL);
    fjob_free(f);
}

static int submit(struct lws *wsi, fjob *f)
{
    return srv_api_job_submit(wsi, &f->j, run, done, f, fjob_free);
}

int srv_follow_route(struct lws *wsi, const char *rest, int is_post, int *rc)
{
    int list = !strcmp(rest, "following"), remove = !strcmp(rest, "following/remove");
    if (!list && !remove)
        return 0;
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.user_id) {
        *rc = srv_http_error(wsi, 401, "following is between accounts: log in or sign up first");
        return 1;
    }
    if (remove && !is_post) {
        *rc = srv_http_error(wsi, 405, "POST here");
        return 1;
    }
    fjob *f = calloc(1, sizeof *f);
    if (!f) {
        *rc = srv_http_error(wsi, 500, "out of memory");
        return 1;
    }
    f->uid = me.user_id;
    f->kind = !is_post ? F_LIST : remove ? F_REMOVE : F_ADD;
    if (is_post) {
        char why[300];
        json_t *req = srv_http_body(why, sizeof why);
        const char *name = json_string_value(json_object_get(req, "name"));
        int ok = json_is_object(req) && name && *name && strlen(name) <= 24 &&
                 json_object_size(req) == 1, parsed = req != NULL;
        if (ok)
            snprintf(f->other, sizeof f->other, "%s", name);
        json_decref(req);
        if (!ok) {
            fjob_free(f);
            *rc = srv_http_error(wsi, 400, parsed ? "send {\"name\": the account's name}" : why);
            return 1;
        }
    }
    *rc = submit(wsi, f);
    return 1;
}
