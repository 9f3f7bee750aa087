/* rematch.c: "play again with the same people" (docs/protocol.md,
 * "Rematch"; issue 32 item 4, issue 31):
 *   POST /api/games/ID/rematch            a player of a finished game
 *                                         proposes the same table again
 *   GET  /api/rematches                   the session's offers
 *   POST /api/rematches/OFFER/accept      a person at the table says yes
 *   POST /api/rematches/OFFER/decline     ... or no (the proposer: takes it
 *                                         back)
 * The new game has the same edition, board, rules, pace (live with its
 * turn timer, or turn-based with its days), practice mark and bots, every
 * person in the seat they had, bound to their account or guest session, and
 * a new deal. Each person is asked first: nobody is put into a game they
 * did not agree to (a turn-based game runs its clock on them, a live one
 * waits for them). Bots are not asked. The proposer's own request is their
 * yes; the game is made when the last person accepts, on the node that
 * answers that request (from the stored request, so the old game need not
 * be in memory there); one "no" ends the offer, and so does its time
 * running out (10 minutes for a live game, CHARTERED_REMATCH_SECONDS; one
 * move's time for a turn-based one), each said to the people in the end
 * screen. With nobody to ask (only bots, or seats bound to no one) the game
 * is made at once. A finished game has at most one rematch game: asking
 * again gets it. The offer and each answer are rows (rematch_offers,
 * rematch_answers: schema 9), written by jobs of the writer thread, as the
 * challenges (challenge_api.c) are, so every node of a cluster sees them.
 * The rematch game is kept in the old game's result (results.rematch) and
 * shown to its clients in the state frames ("rematch").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api/api_impl.h"

/* An offer ended (declined, expired, started) stays listed this long, so
 * the end screen says what became of it. */
#define SHOWN_MS (3600LL * 1000)

enum { R_PROPOSE, R_ACCEPT, R_DECLINE, R_LIST, R_STARTED, R_FAILED };

typedef struct rseat {
    int seat;
    char owner[SRV_OWNER_MAX];
    char name[32];
} rseat;

typedef struct rjob {
    srv_pwjob *j;               /* the request's handle; NULL: nobody waits */
    int kind;
    char owner[SRV_OWNER_MAX];  /* the session's */
    char id[SRV_ID_HEX + 1];    /* the offer */
    char old[SRV_ID_HEX + 1];   /* the finished game */
    char game[SRV_ID_HEX + 1];  /* R_STARTED: the rematch game */
    char *request;              /* the new game's POST /api/games body */
    char edition[16];
    char by[32];                /* the proposer's name */
    int64_t ttl_ms;
    rseat seat[CH_MAX_PLAYERS]; /* propose: the people to ask; start: all */
    int nseat;
    int start;                  /* this job moved the offer to 'starting' */
    int status;                 /* the answer's HTTP status */
    const char *why;
    char whybuf[300];
    json_t *body;
} rjob;

static void rjob_free(void *arg)
{
    rjob *c = arg;
    srv_pwjob *j = c->j;
    free(c->request);
    json_decref(c->body);
    free(c);
    free(j);
}

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

static int64_t uid_of(const char *owner)
{
    return strncmp(owner, "u:", 2) == 0 ? strtoll(owner + 2, NULL, 10) : 0;
}

/* One of the people has too many turn-based games in play already
 * (turnbased.c): why, else 0. */
static int over_turn_limit(const rseat *p, int n, char *why, size_t wn)
{
    for (int i = 0; i < n; i++)
        if (srv_turn_count(p[i].owner, uid_of(p[i].owner)) >= SRV_TURN_GAMES_MAX) {
            snprintf(why, wn, "%s already has %d turn-based games in play", p[i].name,
                     SRV_TURN_GAMES_MAX);
            return 1;
        }
    return 0;
}

/* Make the new game: req with its creator seat ("seat") taken by the
 * person there, every other person bound to the seat given; a seat of the
 * request with nobody (a game from before sessions) stays open. The game
 * or NULL with why (and *status). */
static srv_game *make_game(json_t *req, const rseat *p, int n, int days, char *why, size_t wn,
                           int *status)
{
    int cs = (int)json_integer_value(json_object_get(req, "seat"));
    srv_ident me = {0};
    for (int i = 0; i < n; i++)
        if (p[i].seat == cs) {
            snprintf(me.owner, sizeof me.owner, "%s", p[i].owner);
            snprintf(me.name, sizeof me.name, "%s", p[i].name);
            me.user_id = uid_of(p[i].owner);
        }
    if (days > 0 && over_turn_limit(p, n, why, wn)) {
        *status = 409;
        return NULL;
    }
    srv_game *g = srv_game_create(req, me.owner[0] ? &me : NULL, why, wn);
    if (!g) {
        *status = 500;
        return NULL;
    }
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_HUMAN && i != cs)
            g->seat[i].open = 1; /* nobody known for it: whoever takes it */
    for (int i = 0; i < n; i++) {
        srv_seat *s = p[i].seat >= 0 && p[i].seat < g->nseats ? &g->seat[p[i].seat] : NULL;
        if (!s || s->kind != SEAT_HUMAN || p[i].seat == cs)
            continue;
        snprintf(s->owner, sizeof s->owner, "%s", p[i].owner);
        snprintf(s->name, sizeof s->name, "%s", p[i].name);
        s->claimed = 1;
        s->open = 0;
        sodium_memzero(s->token, sizeof s->token);
    }
    g->status = GAME_PLAYING;
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_HUMAN && !g->seat[i].claimed)
            g->status = GAME_WAITING;
    g->decide_since_ms = srv_now_ms();
    if (srv_store_create_game(g_storage.store, g) != 0) {
        srv_game_free(g);
        srv_storage_failed(srv_store_errmsg(g_storage.store));
        snprintf(why, wn, "the database refused the new game");
        *status = 500;
        return NULL;
    }
    srv_storage_ok();
    srv_game_add(g);
    srv_cluster_created(g);
    srv_game_kick_bots(g);
    return g;
}

/* The old game, if this node holds it, names its rematch to its clients. */
static void tell_old(const char *old, const char *id)
{
    srv_game *o = srv_game_held(old);
    if (!o)
        return;
    snprintf(o->rematch, sizeof o->rematch, "%s", id);
    for (srv_client *c = o->clients; c; c = c->gnext)
        srv_client_want_state(c);
}

/* ---- on the writer thread ------------------------------------------------ */

#define OFFER_COLUMNS "id, old_game, edition, by_name, status, created, expires, game, why"

/* An offer as its people see it: {id, game (the finished one), edition, by,
 * status, created, expires, answers [{seat, name, answer}], mine, and
 * rematch/link once started, declined_by, why}. NULL: no such offer. */
static json_t *offer_json(db_conn *db, const char *id, const char *owner, int64_t now)
{
    db_rows *r = db_query(db, "SELECT " OFFER_COLUMNS " FROM rematch_offers WHERE id = $1",
                          DB_P(DB_T(id)));
    if (!r)
        return NULL;
    json_t *o = NULL;
    if (db_next(r) == 1) {
        const char *st = db_text(r, 4) ? db_text(r, 4) : "";
        int64_t expires = db_int(r, 6);
        if (!strcmp(st, "pending") && expires <= now)
            st = "expired";
        o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:I,s:I}", "id", db_text(r, 0), "game",
                      db_text(r, 1), "edition", db_text(r, 2), "by", db_text(r, 3), "status", st,
                      "created", (json_int_t)db_int(r, 5), "expires", (json_int_t)expires);
        if (!db_null(r, 7)) {
            char link[64];
            snprintf(link, sizeof link, "/#/play/%s", db_text(r, 7));
            json_object_set_new(o, "rematch", json_string(db_text(r, 7)));
            json_object_set_new(o, "link", json_string(link));
        }
        if (!db_null(r, 8))
            json_object_set_new(o, !strcmp(st, "declined") ? "declined_by" : "why",
                                json_string(db_text(r, 8)));
    }
    if (db_end(r) != 0 || !o) {
        json_decref(o);
        return NULL;
    }
    json_t *answers = json_array();
    const char *mine = NULL;
    char minebuf[8] = "";
    r = db_query(db, "SELECT seat, owner, name, answer FROM rematch_answers WHERE offer = $1 "
                 "ORDER BY seat", DB_P(DB_T(id)));
    int st = -1;
    while (r && (st = db_next(r)) == 1) {
        json_array_append_new(answers, json_pack("{s:i,s:s,s:s}", "seat", (int)db_int(r, 0),
                                                 "name", db_text(r, 2), "answer",
                                                 db_text(r, 3)));
        if (owner && !strcmp(db_text(r, 1) ? db_text(r, 1) : "", owner)) {
            snprintf(minebuf, sizeof minebuf, "%s", db_text(r, 3) ? db_text(r, 3) : "");
            mine = minebuf;
        }
    }
    if (!r || db_end(r) != 0 || st < 0) {
        json_decref(answers);
        json_decref(o);
        return NULL;
    }
    json_object_set_new(o, "answers", answers);
    json_object_set_new(o, "mine", mine ? json_string(mine) : json_null());
    return o;
}

/* The offer's row is locked (PostgreSQL: a row lock until the commit; SQLite
 * has one writer), then checked: pending, not expired, and the session is
 * one of its people. 0, else the status with why. */
static int lock_check(db_conn *db, rjob *c, int64_t now)
{
    if (db_exec(db, "UPDATE rematch_offers SET created = created WHERE id = $1",
                DB_P(DB_T(c->id))) != 0)
        return 500;
    db_rows *r = db_query(db, "SELECT o.status, o.expires, o.old_game, a.answer FROM "
                          "rematch_offers o JOIN rematch_answers a ON a.offer = o.id WHERE "
                          "o.id = $1 AND a.owner = $2", DB_P(DB_T(c->id), DB_T(c->owner)));
    if (!r)
        return 500;
    int st = db_next(r);
    char status[16] = "";
    int64_t expires = 0;
    if (st == 1) {
        snprintf(status, sizeof status, "%s", db_text(r, 0) ? db_text(r, 0) : "");
        expires = db_int(r, 1);
        snprintf(c->old, sizeof c->old, "%s", db_text(r, 2) ? db_text(r, 2) : "");
    }
    if (db_end(r) != 0 || st < 0)
        return 500;
    if (st == 0) {
        c->why = "no such rematch offer of yours";
        return 404;
    }
    if (strcmp(status, "pending")) {
        c->why = !strcmp(status, "declined") ? "this rematch was declined"
                 : !strcmp(status, "failed") ? "this rematch could not be made"
                                             : "this rematch has already started";
        return 409;
    }
    if (expires <= now) {
        c->why = "this rematch offer has expired: not everyone answered in time";
        return 409;
    }
    return 0;
}

/* The session says yes; the last yes moves the offer to 'starting' (compared
 * and set) and reads what the loop needs to make the game. In the caller's
 * transaction. */
static int accept_db(db_conn *db, rjob *c, int64_t now)
{
    int st = lock_check(db, c, now);
    if (st)
        return st;
    int rc = 0;
    if (db_exec(db, "UPDATE rematch_answers SET answer = 'yes' WHERE offer = $1 AND owner = $2",
                DB_P(DB_T(c->id), DB_T(c->owner))) != 0)
        return 500;
    int64_t left = db_one_int(db, "SELECT COUNT(*) FROM rematch_answers WHERE offer = $1 AND "
                              "answer <> 'yes'", DB_P(DB_T(c->id)), -1, &rc);
    if (rc != 0 || left < 0)
        return 500;
    if (left > 0)
        return 200;
    if (db_exec(db, "UPDATE rematch_offers SET status = 'starting' WHERE id = $1 AND "
                "status = 'pending'", DB_P(DB_T(c->id))) != 0)
        return 500;
    if (db_changes(db) != 1)
        return 200;
    db_rows *r = db_query(db, "SELECT request FROM rematch_offers WHERE id = $1",
                          DB_P(DB_T(c->id)));
    if (r && db_next(r) == 1)
        c->request = strdup(db_text(r, 0) ? db_text(r, 0) : "{}");
    if (!r || db_end(r) != 0 || !c->request)
        return 500;
    r = db_query(db, "SELECT seat, owner, name FROM rematch_answers WHERE offer = $1 ORDER BY "
                 "seat", DB_P(DB_T(c->id)));
    c->nseat = 0;
    while (r && db_next(r) == 1 && c->nseat < CH_MAX_PLAYERS) {
        rseat *p = &c->seat[c->nseat++];
        p->seat = (int)db_int(r, 0);
        snprintf(p->owner, sizeof p->owner, "%s", db_text(r, 1) ? db_text(r, 1) : "");
        snprintf(p->name, sizeof p->name, "%s", db_text(r, 2) ? db_text(r, 2) : "");
    }
    if (!r || db_end(r) != 0)
        return 500;
    c->start = 1;
    return 200;
}

static int decline_db(db_conn *db, rjob *c, int64_t now)
{
    int st = lock_check(db, c, now);
    if (st)
        return st;
    db_rows *r = db_query(db, "SELECT name FROM rematch_answers WHERE offer = $1 AND owner = $2",
                          DB_P(DB_T(c->id), DB_T(c->owner)));
    char name[32] = "";
    if (r && db_next(r) == 1)
        snprintf(name, sizeof name, "%s", db_text(r, 0) ? db_text(r, 0) : "");
    if (!r || db_end(r) != 0)
        return 500;
    if (db_exec(db, "UPDATE rematch_answers SET answer = 'no' WHERE offer = $1 AND owner = $2",
                DB_P(DB_T(c->id), DB_T(c->owner))) != 0 ||
        db_exec(db, "UPDATE rematch_offers SET status = 'declined', why = $2 WHERE id = $1",
                DB_P(DB_T(c->id), DB_T(name))) != 0)
        return 500;
    return 200;
}

/* A proposal: the game's latest offer, if it is still open, gets the
 * session's yes; one that started answers with its game; else a new offer
 * with the proposer's yes and every other person asked. */
static int propose_db(db_conn *db, rjob *c, int64_t now)
{
    db_rows *r = db_query(db, "SELECT id, status, expires FROM rematch_offers WHERE "
                          "old_game = $1 ORDER BY created DESC, id LIMIT 1", DB_P(DB_T(c->old)));
    if (!r)
        return 500;
    int st = db_next(r);
    char status[16] = "";
    int64_t expires = 0;
    if (st == 1) {
        snprintf(c->id, sizeof c->id, "%s", db_text(r, 0) ? db_text(r, 0) : "");
        snprintf(status, sizeof status, "%s", db_text(r, 1) ? db_text(r, 1) : "");
        expires = db_int(r, 2);
    }
    if (db_end(r) != 0 || st < 0)
        return 500;
    if (st == 1 && (!strcmp(status, "started") || !strcmp(status, "starting")))
        return 200;
    if (st == 1 && !strcmp(status, "pending") && expires > now)
        return accept_db(db, c, now);
    /* none yet, or the last one was declined, ran out or failed: ask again */
    if (srv_random_hex(c->id, SRV_ID_HEX) != 0 ||
        db_exec(db, "INSERT INTO rematch_offers(" OFFER_COLUMNS ", request) VALUES ($1, $2, $3, "
                "$4, 'pending', $5, $6, NULL, NULL, $7)",
                DB_P(DB_T(c->id), DB_T(c->old), DB_T(c->edition), DB_T(c->by), DB_I(now),
                     DB_I(now + c->ttl_ms), DB_T(c->request))) != 0)
        return 500;
    for (int i = 0; i < c->nseat; i++)
        if (db_exec(db, "INSERT INTO rematch_answers(offer, seat, owner, name, answer) VALUES "
                    "($1, $2, $3, $4, $5)",
                    DB_P(DB_T(c->id), DB_I(c->seat[i].seat), DB_T(c->seat[i].owner),
                         DB_T(c->seat[i].name),
                         DB_T(strcmp(c->seat[i].owner, c->owner) ? "ask" : "yes"))) != 0)
            return 500;
    return 201;
}

static void run_list(db_conn *db, rjob *c, int64_t now)
{
    char (*ids)[SRV_ID_HEX + 1] = NULL;
    int n = 0, st = -1;
    db_rows *r = db_query(db, "SELECT o.id FROM rematch_offers o JOIN rematch_answers a ON "
                          "a.offer = o.id WHERE a.owner = $1 AND ((o.status = 'pending' AND "
                          "o.expires > $2) OR o.created > $3 OR o.expires > $3) ORDER BY "
                          "o.created DESC, o.id LIMIT 50",
                          DB_P(DB_T(c->owner), DB_I(now), DB_I(now - SHOWN_MS)));
    while (r && (st = db_next(r)) == 1) {
        void *nid = realloc(ids, (size_t)(n + 1) * sizeof *ids);
        if (!nid) {
            st = -1;
            break;
        }
        ids = nid;
        snprintf(ids[n++], sizeof *ids, "%s", db_text(r, 0) ? db_text(r, 0) : "");
    }
    if (r && db_end(r) != 0)
        st = -1;
    json_t *offers = json_array();
    for (int i = 0; st == 0 && i < n; i++) {
        json_t *o = offer_json(db, ids[i], c->owner, now);
        if (!o)
            st = -1;
        else
            json_array_append_new(offers, o);
    }
    free(ids);
    if (st != 0) {
        json_decref(offers);
        c->status = 500;
        return;
    }
    c->status = 200;
    c->body = json_pack("{s:o}", "offers", offers);
}

static void run(db_conn *db, void *arg)
{
    rjob *c = arg;
    int64_t now = srv_now_ms();
    if (c->kind == R_LIST) {
        run_list(db, c, now);
        return;
    }
    if (c->kind == R_STARTED || c->kind == R_FAILED) { /* nobody waits */
        int rc = c->kind == R_STARTED
            ? db_exec(db, "UPDATE rematch_offers SET status = 'started', game = $2 WHERE id = $1",
                      DB_P(DB_T(c->id), DB_T(c->game))) ||
              db_exec(db, "UPDATE results SET rematch = $1 WHERE game = $2",
                      DB_P(DB_T(c->game), DB_T(c->old)))
            : db_exec(db, "UPDATE rematch_offers SET status = 'failed', why = $2 WHERE id = $1",
                      DB_P(DB_T(c->id), DB_T(c->whybuf)));
        if (rc)
            srv_logf(SRV_LOG_ERROR, "db.error", "offer=%s the rematch offer's outcome is not "
                     "stored", c->id);
        return;
    }
    if (db_begin(db) != 0) {
        db_rollback(db);
        c->status = 500;
        return;
    }
    c->status = c->kind == R_PROPOSE ? propose_db(db, c, now)
                : c->kind == R_ACCEPT ? accept_db(db, c, now) : decline_db(db, c, now);
    if (c->status >= 400 || db_commit(db) != 0) {
        db_rollback(db);
        if (c->status < 400)
            c->status = 500;
        c->start = 0;
        return;
    }
    c->body = offer_json(db, c->id, c->owner, now);
    if (!c->body)
        c->status = 500;
}

/* ---- on the loop ---------------------------------------------------------- */

/* A follow-up write with nobody waiting (R_STARTED, R_FAILED). */
static void later(rjob *c, int kind)
{
    rjob *f = calloc(1, sizeof *f);
    if (!f)
        return;
    f->kind = kind;
    memcpy(f->id, c->id, sizeof f->id);
    memcpy(f->old, c->old, sizeof f->old);
    memcpy(f->game, c->game, sizeof f->game);
    memcpy(f->whybuf, c->whybuf, sizeof f->whybuf);
    if (srv_dbjob_submit(run, rjob_free, f) != 0)
        rjob_free(f);
}

/* Everyone said yes: the game. */
static void start(rjob *c)
{
    json_t *req = json_loads(c->request, 0, NULL);
    int days = (int)json_integer_value(json_object_get(req, "days"));
    int status = 500;
    srv_game *g = json_is_object(req)
        ? make_game(req, c->seat, c->nseat, days, c->whybuf, sizeof c->whybuf, &status)
        : NULL;
    if (!json_is_object(req))
        snprintf(c->whybuf, sizeof c->whybuf, "the rematch's settings cannot be read");
    json_decref(req);
    if (!g) {
        later(c, R_FAILED);
        c->status = status;
        c->why = c->whybuf;
        return;
    }
    memcpy(c->game, g->id, sizeof c->game);
    later(c, R_STARTED);
    tell_old(c->old, g->id);
    char link[64];
    snprintf(link, sizeof link, "/#/play/%s", g->id);
    json_object_set_new(c->body, "status", json_string("started"));
    json_object_set_new(c->body, "rematch", json_string(g->id));
    json_object_set_new(c->body, "link", json_string(link));
}

static void done(void *arg)
{
    rjob *c = arg;
    if (c->start)
        start(c);
    srv_auth_answer_later(c->j, (unsigned)c->status, srv_api_job_body(c->status, c->why, &c->body),
                          NULL);
    rjob_free(c);
}

static int submit(struct lws *wsi, rjob *c)
{
    return srv_api_job_submit(wsi, &c->j, run, done, c, rjob_free);
}

/* How long the people have to answer: a live game's people are at the end
 * screen now (10 minutes, CHARTERED_REMATCH_SECONDS); a turn-based game's
 * come by when they can, so they have one move's time. */
static int64_t ttl_ms(const srv_game *old)
{
    if (old->days > 0)
        return old->days * srv_day_ms();
    const char *v = getenv("CHARTERED_REMATCH_SECONDS");
    char *end;
    double s = v && *v ? strtod(v, &end) : -1;
    if (!v || !*v || *end || !(s > 0 && s <= 1e7))
        s = 600;
    return (int64_t)(s * 1000);
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
        return srv_http_respond(wsi, 200, json_pack("{s:s,s:s,s:s,s:s,s:b}", "game", old->id,
                                                    "status", "started", "rematch",
                                                    old->rematch, "link", link, "created", 0),
                                NULL);
    }
    /* the people of the table: each is asked, bots are not */
    rseat p[CH_MAX_PLAYERS];
    int n = 0, others = 0;
    for (int i = 0; i < old->nseats && n < CH_MAX_PLAYERS; i++) {
        const srv_seat *s = &old->seat[i];
        if (s->kind != SEAT_HUMAN || !s->owner[0])
            continue; /* a seat of a game from before sessions: open again */
        p[n].seat = i;
        snprintf(p[n].owner, sizeof p[n].owner, "%s", s->owner);
        snprintf(p[n].name, sizeof p[n].name, "%s", s->name);
        others += strcmp(s->owner, me.owner) != 0;
        n++;
    }
    /* a turn-based rematch counts against everyone's limit (turnbased.c):
       said now, before anyone is asked (and again when it starts) */
    if (old->days > 0 && over_turn_limit(p, n, why, sizeof why))
        return srv_http_error(wsi, 409, why);
    json_t *req = same_table(old, seat);
    if (!others) { /* nobody to ask: the game at once */
        int status;
        srv_game *g = make_game(req, p, n, old->days, why, sizeof why, &status);
        json_decref(req);
        if (!g)
            return srv_http_error(wsi, (unsigned)status, why);
        tell_old(old->id, g->id);
        if (db_exec(srv_store_db(g_storage.store), "UPDATE results SET rematch=$1 WHERE game=$2",
                    DB_P(DB_T(g->id), DB_T(old->id))) != 0)
            srv_logf(SRV_LOG_ERROR, "db.error", "game=%s the rematch link is not stored",
                     old->id);
        snprintf(link, sizeof link, "/#/play/%s", g->id);
        return srv_http_respond(wsi, 201, json_pack("{s:s,s:s,s:s,s:s,s:b}", "game", old->id,
                                                    "status", "started", "rematch", g->id,
                                                    "link", link, "created", 1), NULL);
    }
    rjob *c = calloc(1, sizeof *c);
    char *text = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    if (!c || !text) {
        free(c);
        free(text);
        return srv_http_error(wsi, 500, "out of memory");
    }
    c->kind = R_PROPOSE;
    c->request = text;
    snprintf(c->owner, sizeof c->owner, "%s", me.owner);
    snprintf(c->old, sizeof c->old, "%s", old->id);
    snprintf(c->edition, sizeof c->edition, "%s",
             old->setup.edition == CH_ED_GOLDEN_AGE ? "golden-age" : "amsterdam");
    snprintf(c->by, sizeof c->by, "%s", old->seat[seat].name);
    c->ttl_ms = ttl_ms(old);
    memcpy(c->seat, p, sizeof p);
    c->nseat = n;
    return submit(wsi, c);
}

int srv_rematch_route(struct lws *wsi, const char *rest, int is_post, int *rc)
{
    if (strcmp(rest, "rematches") && strncmp(rest, "rematches/", 10))
        return 0;
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.owner[0]) {
        *rc = srv_http_error(wsi, 401, "rematches need a session: log in or play as a guest");
        return 1;
    }
    rjob *c = calloc(1, sizeof *c);
    if (!c) {
        *rc = srv_http_error(wsi, 500, "out of memory");
        return 1;
    }
    snprintf(c->owner, sizeof c->owner, "%s", me.owner);
    if (!strcmp(rest, "rematches")) {
        if (is_post) {
            rjob_free(c);
            *rc = srv_http_error(wsi, 405, "GET here; a rematch is proposed with POST "
                                 "/api/games/ID/rematch");
            return 1;
        }
        c->kind = R_LIST;
        *rc = submit(wsi, c);
        return 1;
    }
    const char *verb;
    int bad = srv_api_path_id(rest + 10, c->id, &verb);
    c->kind = !strcmp(verb, "accept") ? R_ACCEPT : !strcmp(verb, "decline") ? R_DECLINE : -1;
    if (bad || c->kind < 0) {
        rjob_free(c);
        *rc = srv_http_error(wsi, 404, "no such route: POST /api/rematches/ID/accept or "
                             "/decline");
        return 1;
    }
    if (!is_post) {
        rjob_free(c);
        *rc = srv_http_error(wsi, 405, "POST here");
        return 1;
    }
    *rc = submit(wsi, c);
    return 1;
}
