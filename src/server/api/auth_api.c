/* auth_api.c: the HTTP routes of accounts and sessions (docs/protocol.md,
 * "Accounts and sessions"):
 *
 *   POST /api/signup {name, password}   an account, and a session for it
 *   POST /api/login  {name, password}   a session for an account
 *   POST /api/guest  {name}             a session without an account
 *   POST /api/logout                    the session ends (its connections too)
 *   GET  /api/me                        who the cookie's session is
 *
 * Sign-up and login hash on the password worker (auth_hash.c); their answer
 * is written when the worker is done (LWS_CALLBACK_HTTP_WRITEABLE in
 * http_api.c). Attempts are limited per user name and per address before
 * any hashing (auth_limit.c); a failed login never says which of the name or
 * the password was wrong, and an unknown name costs the same time as a
 * wrong password.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "api/api.h"

#define SESSION_MAX_AGE 2592000 /* 30 days, as session.c */

/* The limits per 10 minutes: login attempts per user name and address, all
 * attempts per address (logins, sign-ups, password changes), guest sessions
 * per address, and the attempts on one user name from every address taken
 * together, past which the name is slowed down (one attempt every
 * NAME_GAP_MS), never locked: an address that logged in to the name before
 * is not slowed at all. A sign-up with a taken name counts against its
 * address only (issue 28: it used to lock the name's owner out). The
 * environment variable CHARTERED_AUTH_LIMITS="USER,ADDR,GUEST[,NAME]" sets
 * others (0: none), e.g. for a load test that opens thousands of guest
 * sessions. */
static int lim_user = 10, lim_addr = 200, lim_guest = 200, lim_name = 50;
#define NAME_GAP_MS 10000

static void read_limits(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    const char *v = getenv("CHARTERED_AUTH_LIMITS");
    int u, a, gst, nm = lim_name;
    if (v && *v) {
        int k = sscanf(v, "%d,%d,%d,%d", &u, &a, &gst, &nm);
        if ((k == 3 || k == 4) && u >= 0 && a >= 0 && gst >= 0 && nm >= 0) {
            lim_user = u;
            lim_addr = a;
            lim_guest = gst;
            /* three numbers: the name's allowance is five times USER's (0:
               none, as USER), as the defaults 10 and 50 */
            lim_name = k == 4 ? nm : 5 * u;
        } else {
            srv_logf(SRV_LOG_WARN, "config.ignored", "variable=CHARTERED_AUTH_LIMITS value=%.40s "
                    "must be USER,ADDR,GUEST[,NAME] (whole numbers from 0): using 10,200,200,50",
                    v);
        }
    }
}

static void make_cookie(char *out, size_t n, const char *token, int secure)
{
    snprintf(out, n, "chartered_session=%s; Path=/; Max-Age=%d; HttpOnly; SameSite=Lax%s",
             token, token[0] ? SESSION_MAX_AGE : 0, secure ? "; Secure" : "");
}

static int too_many(struct lws *wsi, int retry_s)
{
    char why[160];
    int min = (retry_s + 59) / 60;
    snprintf(why, sizeof why, "too many attempts: try again in %d minute%s", min,
             min == 1 ? "" : "s");
    return srv_http_respond(wsi, 429, json_pack("{s:s,s:i}", "error", why, "retry_after",
                                                 retry_s), NULL);
}

/* The limiter's key `tag:NAME` or `tag:NAME|ADDR` (NAME folded to lower
   case: names are one account in any case). */
static void name_key(char *key, size_t n, const char *tag, const char *name, const char *addr)
{
    size_t k = (size_t)snprintf(key, n, "%s:", tag);
    for (size_t i = 0; name[i] && i < 64 && k + 1 < n; i++)
        key[k++] = (char)tolower((unsigned char)name[i]);
    key[k] = 0;
    if (addr)
        snprintf(key + k, n - k, "|%s", addr);
}

/* Count one attempt: per address; a login also per (user name, address),
 * and per user name from addresses that never logged in to it (slowed down,
 * not refused for long). Sign-ups count per address only. */
static int limited(struct lws *wsi, const char *name, int signup, int *retry_s)
{
    char key[160], addr[64];
    int64_t now = srv_now_ms();
    srv_client_addr(wsi, addr, sizeof addr);
    snprintf(key, sizeof key, "a:%s", addr);
    if (!srv_limit_take(key, lim_addr, now, retry_s))
        return 1;
    if (signup)
        return 0;
    name_key(key, sizeof key, "p", name, addr);
    if (!srv_limit_take(key, lim_user, now, retry_s))
        return 1;
    name_key(key, sizeof key, "k", name, addr);
    if (srv_limit_known(key, now))
        return 0;
    name_key(key, sizeof key, "u", name, NULL);
    return !srv_limit_slow(key, lim_name, NAME_GAP_MS, now, retry_s);
}

/* The log line of an attempt refused by the limits ("login.locked"), at
 * most one a second (a flood of them is the limit doing its work; the
 * count of those not written comes with the next). The name is written
 * only when it is an account's (people type their password into the name
 * field): a lookup, as every attempt let through makes. */
static void locked_line(struct lws *wsi, const char *name, int signup, int retry_s)
{
    static int64_t last_ms;
    static long unsaid;
    int64_t now = srv_now_ms();
    if (last_ms && now - last_ms < 1000) {
        unsaid++;
        return;
    }
    last_ms = now;
    char addr[64], shown[32] = "";
    int64_t uid = 0;
    srv_client_addr(wsi, addr, sizeof addr);
    char pw[8]; /* not wanted: the lookup writes the stored hash's start here */
    if (signup || srv_account_find(name, &uid, pw, sizeof pw, shown, sizeof shown) != 1)
        snprintf(shown, sizeof shown, "-");
    sodium_memzero(pw, sizeof pw);
    srv_logf(SRV_LOG_WARN, "login.locked", "user=%s addr=%s kind=%s retry_s=%d not_logged=%ld "
            "too many attempts: refused", shown, addr, signup ? "signup" : "login", retry_s,
            unsaid);
    unsaid = 0;
}

/* A good login or sign-up from this address: its later attempts on the
   name are never slowed down by others' (limited). */
static void known_here(const char *name, const char *addr)
{
    char key[160];
    name_key(key, sizeof key, "k", name, addr);
    srv_limit_mark(key, srv_now_ms());
}

static int valid_user_name(const char *s)
{
    size_t l = strlen(s);
    if (l < 2 || l > 24)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
            return 0;
    return 1;
}

static json_t *who_json(const srv_ident *id)
{
    if (!id->owner[0])
        return json_pack("{s:s}", "kind", "none");
    json_t *j = json_pack("{s:s,s:s}", "kind", id->user_id ? "account" : "guest", "name",
                          id->name);
    /* a moderator's or an admin's page shows the moderation link (the
       routes check the role themselves: api/moderation_api.c) */
    if (id->role > SRV_ROLE_PLAYER)
        json_object_set_new(j, "role", json_string(srv_role_name(id->role)));
    return j;
}

/* The session made for a finished job, answered on its connection. */
void srv_auth_answer_later(srv_pwjob *j, unsigned status, json_t *body, const char *cookie)
{
    if (!j || !j->wsi) { /* nobody waits (a job of the server's own), or gone */
        json_decref(body);
        return;
    }
    srv_pss *pss = lws_wsi_user(j->wsi);
    pss->pwjob = NULL;
    /* an answer not yet written is replaced, not leaked (fuzz_http_api: a
       job finished at once, without a writer thread, answered twice) */
    json_decref(pss->deferred);
    pss->deferred = body;
    pss->deferred_status = status;
    snprintf(pss->deferred_cookie, sizeof pss->deferred_cookie, "%s", cookie ? cookie : "");
    lws_callback_on_writable(j->wsi);
}

typedef struct {
    int signup;
    int change;                 /* a password change (change_password) */
    int secure;
    char addr[64];              /* the client's address (known_here) */
    srv_ident me;               /* the request's session: a sign-up's guest
                                   (its seats become the account's), a
                                   password change's account */
} job_ctx;

/* The writes of a sign-up, login or guest (account, new password hash,
 * session), made by the writer thread (srv_dbjob_submit): the loop never
 * waits on them. The request's srv_pwjob stays its handle meanwhile (a
 * request that goes away clears its wsi: srv_auth_request_gone). */
typedef struct sess_job {
    srv_pwjob *j;
    int signup, rehash;
    int rc;                     /* 0 made; 1 the name is taken; 2 a guest's
                                   name looks like an account's, 3 a new
                                   account's; -1 refused */
    unsigned status;
    srv_newsession ns;
    srv_ident from;             /* a sign-up's guest session, or none */
    int carried;                /* its stored games rewritten */
    int64_t banned_until;       /* rc 4: the account is banned (0: permanently) */
    char ban_reason[200];
} sess_job;

static void sess_write(db_conn *wdb, void *arg)
{
    sess_job *s = arg;
    srv_pwjob *j = s->j;
    s->rc = 0;
    if (s->ns.guest) { /* a guest may not pass for an account (names.c) */
        int look = srv_account_lookalike(wdb, s->ns.id.name);
        if (look != 0)
            s->rc = look > 0 ? 2 : -1;
    } else if (s->signup) {
        int64_t uid = 0;
        int look = srv_account_lookalike(wdb, j->name);
        s->rc = look > 0 ? 3 : look < 0 ? -1 : srv_account_insert(wdb, j->name, j->hash, &uid);
        s->ns.id.user_id = uid;
        srv_session_owner(&s->ns);
    } else {
        /* a login: a banned account gets no session (moderation.c); read
           here, after the password matched, so the answer tells only its
           owner of the ban */
        int b = srv_mod_sanction_db(wdb, j->user_id, "ban", srv_now_ms(), &s->banned_until,
                                    s->ban_reason, sizeof s->ban_reason);
        int role = srv_role_of_db(wdb, j->user_id);
        s->ns.id.role = role < 0 ? SRV_ROLE_PLAYER : role;
        if (b != 0) {
            s->rc = b > 0 ? 4 : -1;
            return;
        }
        if (s->rehash) /* stored with older parameters: keep the new hash */
            srv_account_set_hash(wdb, j->user_id, j->hash);
    }
    if (s->rc == 0 && srv_session_write(wdb, &s->ns) != 0)
        s->rc = -1;
    /* a sign-up from a guest session: the guest's stored seats become the
       account's, and the guest session ends (the new one replaces it in the
       browser); the games in memory follow on the loop (sess_written) */
    if (s->rc == 0 && s->signup && !strncmp(s->from.owner, "g:", 2)) {
        s->carried = srv_seats_carry_db(wdb, s->from.owner, s->ns.id.user_id, s->ns.id.name);
        srv_hashes gone;
        if (srv_sessions_end_db(wdb, &s->from, NULL, 0, &gone) == 0)
            free(gone.h);
    }
}

/* On the loop: the guest's seats in the games held in memory become the
 * new account's, and the guest's connections play on as the account. */
static void carry_in_memory(const srv_ident *from, const srv_ident *to)
{
    for (srv_game *g = g_tables.games; g; g = g->lnext) {
        int changed = 0;
        for (int i = 0; i < g->nseats; i++)
            if (g->seat[i].owner[0] && !strcmp(g->seat[i].owner, from->owner)) {
                snprintf(g->seat[i].owner, sizeof g->seat[i].owner, "%s", to->owner);
                snprintf(g->seat[i].name, sizeof g->seat[i].name, "%s", to->name);
                changed = 1;
            }
        for (srv_client *c = g->clients; c; c = c->gnext)
            if (strlen(c->ident.hash) == SRV_HASH_HEX &&
                sodium_memcmp(c->ident.hash, from->hash, SRV_HASH_HEX) == 0)
                c->ident = *to;
        if (changed) { /* written with the next commit, seats and players */
            g->meta_dirty = 1;
            srv_commit_schedule(g);
        }
    }
}

static void sess_written(void *arg)
{
    sess_job *s = arg;
    srv_pwjob *j = s->j;
    job_ctx *cx = j->ctx;
    if (s->rc == 0) {
        char cookie[200];
        if (!s->ns.guest)
            known_here(s->ns.id.name, cx->addr);
        if (s->signup && !strncmp(s->from.owner, "g:", 2)) {
            carry_in_memory(&s->from, &s->ns.id);
            srv_ws_logout(s->from.hash); /* its other connections (none carried) */
        }
        make_cookie(cookie, sizeof cookie, s->ns.token, cx->secure);
        srv_auth_answer_later(j, s->status, who_json(&s->ns.id), cookie);
        sodium_memzero(cookie, sizeof cookie);
    } else if (s->rc == 1) {
        srv_auth_answer_later(j, 409, json_pack("{s:s}", "error", "that user name is taken"), NULL);
    } else if (s->rc == 2) {
        srv_auth_answer_later(j, 409, json_pack("{s:s}", "error", "that name is an account's (or looks "
                                       "like one): a guest picks another"), NULL);
    } else if (s->rc == 4) {
        char until[48], msg[400];
        srv_mod_until_text(s->banned_until, until, sizeof until);
        snprintf(msg, sizeof msg, "this account is banned %s: %s", until, s->ban_reason);
        json_t *b = json_pack("{s:s,s:s,s:s}", "error", msg, "code", "banned", "reason",
                              s->ban_reason);
        json_object_set_new(b, "until", s->banned_until > 0 ? json_integer(s->banned_until)
                                                            : json_null());
        srv_auth_answer_later(j, 403, b, NULL);
    } else if (s->rc == 3) {
        srv_auth_answer_later(j, 409, json_pack("{s:s}", "error", "that user name looks too much like "
                                       "another account's"), NULL);
    } else {
        srv_auth_answer_later(j, 500, json_pack("{s:s}", "error", s->signup ? "the account could not "
                                       "be made" : "the database refused the session"), NULL);
    }
    sodium_memzero(s, sizeof *s);
    free(s);
    sodium_memzero(j->hash, sizeof j->hash);
    sodium_memzero(j->stored, sizeof j->stored);
    free(cx);
    free(j);
}

/* Hand the session (and a sign-up's account) to the writer; 0, or -1
 * (answered here) when it cannot be made. */
static int start_session(srv_pwjob *j, int64_t uid, const char *name, int guest, int signup,
                         unsigned status)
{
    sess_job *s = calloc(1, sizeof *s);
    if (!s || srv_session_new(uid, name, guest, &s->ns) != 0) {
        free(s);
        srv_auth_answer_later(j, 500, json_pack("{s:s}", "error", "the session could not be made"),
                     NULL);
        return -1;
    }
    s->j = j;
    s->signup = signup;
    s->rehash = j->rehash;
    s->status = status;
    if (signup && j->ctx)
        s->from = ((job_ctx *)j->ctx)->me;
    if (j->wsi)
        srv_session_origin(j->wsi, &s->ns);
    srv_dbjob_submit(sess_write, sess_written, s);
    return 0;
}

/* ---- a password change, sessions ended (issue 28) ---------------------- */
/* Written by the writer thread: the new hash and the end of the account's
 * other sessions in one transaction (a password change), or sessions ended
 * (one by its public id, or all). Their connections are detached on the
 * loop afterwards (srv_ws_logout), as at a logout. */
typedef struct acct_job {
    srv_pwjob *j;               /* the request's handle (answer_later) */
    int change;                 /* 1: password change; 0: end sessions */
    srv_ident me;
    char sid[24];               /* end this one ("": all) */
    int rc;                     /* 0 done; 1 no such session / session gone; -1 error */
    srv_hashes ended;
    int own_ended;
    int secure;
} acct_job;

static void acct_write(db_conn *wdb, void *arg)
{
    acct_job *a = arg;
    a->rc = 0;
    a->ended.n = 0;
    a->ended.h = NULL;
    if (a->change) {
        /* the session that asked must still stand: a session ended
           meanwhile (a "log out everywhere" elsewhere) changes nothing */
        if (!srv_session_alive_db(wdb, a->me.hash)) {
            a->rc = 1;
            return;
        }
        if (db_begin(wdb) != 0 || srv_account_set_hash(wdb, a->me.user_id, a->j->hash) != 0 ||
            srv_sessions_end_db(wdb, &a->me, NULL, 1, &a->ended) != 0 || db_commit(wdb) != 0) {
            db_rollback(wdb);
            a->ended.n = 0; /* nothing ended: rolled back */
            a->rc = -1;
        }
        return;
    }
    if (srv_sessions_end_db(wdb, &a->me, a->sid[0] ? a->sid : NULL, 0, &a->ended) != 0) {
        a->rc = -1;
        return;
    }
    if (a->sid[0] && a->ended.n == 0)
        a->rc = 1;
    for (int i = 0; i < a->ended.n; i++)
        if (sodium_memcmp(a->ended.h[i], a->me.hash, SRV_HASH_HEX) == 0)
            a->own_ended = 1;
}

static void acct_written(void *arg)
{
    acct_job *a = arg;
    srv_pwjob *j = a->j;
    for (int i = 0; i < a->ended.n; i++)
        srv_ws_logout(a->ended.h[i]);
    if (a->ended.n > 0)
        srv_logf(SRV_LOG_INFO, "session.revoked", "user=%s sessions=%d reason=%s sessions of "
                "the account are ended", a->me.name, a->ended.n,
                a->change ? "password-change" : a->sid[0] ? "ended-one" : "ended-all");
    if (a->rc < 0) {
        srv_auth_answer_later(j, 500, json_pack("{s:s}", "error", a->change ? "the password could not "
                                       "be changed" : "the sessions could not be ended"), NULL);
    } else if (a->rc > 0) {
        srv_auth_answer_later(j, a->change ? 401 : 404,
                     json_pack("{s:s}", "error", a->change ? "your session has ended: log in "
                               "again" : "no such session of yours"), NULL);
    } else if (a->change) {
        srv_auth_answer_later(j, 200, json_pack("{s:s,s:s,s:i}", "kind", "account", "name", a->me.name,
                                       "ended", a->ended.n), NULL);
    } else {
        char cookie[200];
        if (a->own_ended)
            make_cookie(cookie, sizeof cookie, "", a->secure);
        srv_auth_answer_later(j, 200, json_pack("{s:i,s:b}", "ended", a->ended.n, "this_one",
                                       a->own_ended), a->own_ended ? cookie : NULL);
    }
    free(a->ended.h);
    sodium_memzero(j->hash, sizeof j->hash);
    sodium_memzero(a, sizeof *a);
    free(a);
    free(j->ctx);
    free(j);
}

static void acct_submit(srv_pwjob *j, int change, const srv_ident *me, const char *sid,
                        int secure)
{
    acct_job *a = calloc(1, sizeof *a);
    if (!a) {
        srv_auth_answer_later(j, 500, json_pack("{s:s}", "error", "out of memory"), NULL);
        free(j->ctx);
        free(j);
        return;
    }
    a->j = j;
    a->change = change;
    a->me = *me;
    a->secure = secure;
    snprintf(a->sid, sizeof a->sid, "%s", sid ? sid : "");
    srv_dbjob_submit(acct_write, acct_written, a);
}

static void job_done(srv_pwjob *j)
{
    job_ctx *cx = j->ctx;
    if (cx->change) {
        if (j->wsi && j->ok) { /* acct_written frees j */
            acct_submit(j, 1, &cx->me, NULL, cx->secure);
            return;
        }
        if (j->wsi)
            srv_auth_answer_later(j, 401, json_pack("{s:s}", "error", "the current password is wrong"),
                         NULL);
        sodium_memzero(j->hash, sizeof j->hash);
        sodium_memzero(j->stored, sizeof j->stored);
        free(cx);
        free(j);
        return;
    }
    if (!j->ok && !cx->signup)
        /* the account's name when there is one; a name that is none is not
           written (people type their password into the name field) */
        srv_logf(SRV_LOG_INFO, "login.failed", "user=%s addr=%s %s", j->user_id ? j->name : "-",
                cx->addr, j->user_id ? "wrong password" : "no such user name");
    if (j->wsi && j->ok) { /* the writes and the answer follow (sess_written frees j) */
        if (start_session(j, cx->signup ? 0 : j->user_id, j->name, 0, cx->signup,
                          cx->signup ? 201 : 200) == 0)
            return;
    } else if (j->wsi) {
        srv_auth_answer_later(j, cx->signup ? 500 : 401,
                     json_pack("{s:s}", "error", cx->signup ? "the account could not be made"
                                                            : "wrong user name or password"),
                     NULL);
    }
    sodium_memzero(j->hash, sizeof j->hash);
    sodium_memzero(j->stored, sizeof j->stored);
    free(cx);
    free(j);
}

void srv_auth_request_gone(struct lws *wsi)
{
    srv_pss *pss = lws_wsi_user(wsi);
    if (pss && pss->pwjob) {
        pss->pwjob->wsi = NULL; /* the job finishes without an answer */
        pss->pwjob = NULL;
    }
}

/* The name and password of a body, or NULL with the refusal in why. */
static const char *name_password(json_t *req, const char **name, const char **pw)
{
    *name = json_string_value(json_object_get(req, "name"));
    *pw = json_string_value(json_object_get(req, "password"));
    if (!json_is_object(req) || !*name || !*pw)
        return "send {\"name\": text, \"password\": text}";
    if (strlen(*name) > 64 || strlen(*pw) > 256)
        return "the name may have at most 24 characters, the password at most 256 bytes";
    return NULL;
}

/* signup: 1 a sign-up, 0 a login, 2 a password change */
static int submit(struct lws *wsi, srv_pwjob *j, int signup)
{
    job_ctx *cx = calloc(1, sizeof *cx);
    if (!cx) {
        free(j);
        return srv_http_error(wsi, 500, "out of memory");
    }
    cx->signup = signup == 1;
    cx->change = signup == 2;
    cx->secure = srv_request_secure(wsi);
    srv_client_addr(wsi, cx->addr, sizeof cx->addr);
    srv_ident_of(wsi, &cx->me); /* a sign-up's guest; a change's account */
    j->ctx = cx;
    j->done = job_done;
    j->wsi = wsi;
    if (srv_pw_submit(j) != 0) {
        sodium_memzero(j, sizeof *j);
        free(cx);
        free(j);
        return srv_http_error(wsi, 503, "the server is busy: try again in a moment");
    }
    srv_pss *pss = lws_wsi_user(wsi);
    pss->pwjob = j;
    return 0; /* the answer follows */
}

static int signup_or_login(struct lws *wsi, int signup)
{
    char why[300];
    json_t *req = srv_http_body(why, sizeof why);
    if (!req)
        return srv_http_error(wsi, 400, why);
    const char *name, *pw, *bad = name_password(req, &name, &pw);
    if (bad) {
        json_decref(req);
        return srv_http_error(wsi, 400, bad);
    }
    if (signup && !valid_user_name(name)) {
        json_decref(req);
        return srv_http_error(wsi, 400, "a user name has 2 to 24 letters, digits, _ or -");
    }
    if (signup && (strlen(pw) < 8 || strcmp(pw, name) == 0)) {
        json_decref(req);
        return srv_http_error(wsi, 400, "a password has at least 8 bytes and is not the "
                              "user name");
    }
    int retry;
    if (limited(wsi, name, signup, &retry)) {
        locked_line(wsi, name, signup, retry);
        json_decref(req);
        return too_many(wsi, retry);
    }
    srv_pwjob *j = calloc(1, sizeof *j);
    if (!j) {
        json_decref(req);
        return srv_http_error(wsi, 500, "out of memory");
    }
    int64_t uid = 0;
    char shown[32] = "";
    int found = srv_account_find(name, &uid, j->stored, sizeof j->stored, shown, sizeof shown);
    if (found < 0) {
        free(j);
        json_decref(req);
        return srv_http_error(wsi, 500, "the database could not be read");
    }
    if (signup && found) {
        free(j);
        json_decref(req);
        return srv_http_error(wsi, 409, "that user name is taken");
    }
    j->verify = !signup;
    j->user_id = uid;
    snprintf(j->name, sizeof j->name, "%s", signup ? name : shown);
    snprintf(j->password, sizeof j->password, "%s", pw);
    /* the request body held the password: wipe it */
    sodium_memzero((void *)pw, strlen(pw));
    json_decref(req);
    return submit(wsi, j, signup);
}

static int guest(struct lws *wsi)
{
    char why[300];
    json_t *req = srv_http_body(why, sizeof why);
    if (!req)
        req = json_object(); /* no body: a guest with a made-up name */
    json_t *nv = json_object_get(req, "name");
    const char *name = json_string_value(nv);
    char made[32];
    if (!json_is_object(req) || (nv && !json_is_null(nv) && !name)) {
        json_decref(req);
        return srv_http_error(wsi, 400, "a guest's name has 1 to 24 bytes of text");
    }
    const char *bad = name && *name ? srv_guest_name_problem(name) : NULL;
    if (!bad && name && *name && srv_name_botlike(name))
        bad = "that name is a bot's (or looks like one): a guest picks another";
    if (bad) {
        json_decref(req);
        return srv_http_error(wsi, 400, bad);
    }
    if (!name || !*name) {
        snprintf(made, sizeof made, "Guest %04u", (unsigned)(srv_random_u64() % 10000));
        name = made;
    }
    char key[96], addr[64];
    int retry;
    srv_client_addr(wsi, addr, sizeof addr);
    snprintf(key, sizeof key, "g:%s", addr);
    if (!srv_limit_take(key, lim_guest, srv_now_ms(), &retry)) {
        json_decref(req);
        return too_many(wsi, retry);
    }
    /* the session is written by the writer thread; the answer follows */
    srv_pwjob *j = calloc(1, sizeof *j);
    job_ctx *cx = calloc(1, sizeof *cx);
    if (!j || !cx) {
        free(j);
        free(cx);
        json_decref(req);
        return srv_http_error(wsi, 500, "out of memory");
    }
    cx->secure = srv_request_secure(wsi);
    j->ctx = cx;
    j->wsi = wsi;
    srv_pss *pss = lws_wsi_user(wsi);
    pss->pwjob = j;
    char gname[32];
    snprintf(gname, sizeof gname, "%s", name);
    json_decref(req);
    if (start_session(j, 0, gname, 1, 0, 201) != 0) { /* answered 500 */
        free(cx);
        free(j);
    }
    return 0;
}

/* POST /api/password {password, new_password}: the account's password
 * changed (the current one checked on the password worker), and every
 * other session of the account ended; this one stays. */
static int change_password(struct lws *wsi)
{
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.owner[0])
        return srv_http_error(wsi, 401, "log in first");
    if (me.user_id <= 0)
        return srv_http_error(wsi, 403, "a guest has no password: sign up for an account");
    char why[300];
    json_t *req = srv_http_body(why, sizeof why);
    if (!req)
        return srv_http_error(wsi, 400, why);
    const char *cur = json_string_value(json_object_get(req, "password"));
    const char *nw = json_string_value(json_object_get(req, "new_password"));
    const char *bad = NULL;
    if (!json_is_object(req) || !cur || !nw)
        bad = "send {\"password\": the current one, \"new_password\": text}";
    else if (strlen(cur) > 256 || strlen(nw) > 256)
        bad = "a password has at most 256 bytes";
    else if (strlen(nw) < 8 || strcasecmp(nw, me.name) == 0)
        bad = "a password has at least 8 bytes and is not the user name";
    if (bad) {
        json_decref(req);
        return srv_http_error(wsi, 400, bad);
    }
    /* a stolen cookie must not become a way to guess the password: counted
       per account and per address */
    char key[96], addr[64];
    int retry;
    int64_t now = srv_now_ms();
    srv_client_addr(wsi, addr, sizeof addr);
    snprintf(key, sizeof key, "a:%s", addr);
    int ok = srv_limit_take(key, lim_addr, now, &retry);
    snprintf(key, sizeof key, "c:%lld", (long long)me.user_id);
    if (ok)
        ok = srv_limit_take(key, lim_user, now, &retry);
    if (!ok) {
        json_decref(req);
        return too_many(wsi, retry);
    }
    srv_pwjob *j = calloc(1, sizeof *j);
    if (!j) {
        json_decref(req);
        return srv_http_error(wsi, 500, "out of memory");
    }
    int64_t uid = 0;
    int found = srv_account_find(me.name, &uid, j->stored, sizeof j->stored, NULL, 0);
    if (found != 1 || uid != me.user_id) {
        sodium_memzero(j, sizeof *j);
        free(j);
        json_decref(req);
        return srv_http_error(wsi, found < 0 ? 500 : 401, found < 0 ? "the database could "
                              "not be read" : "your account is gone");
    }
    j->verify = 1;
    j->user_id = uid;
    snprintf(j->name, sizeof j->name, "%s", me.name);
    snprintf(j->password, sizeof j->password, "%s", cur);
    snprintf(j->newpw, sizeof j->newpw, "%s", nw);
    sodium_memzero((void *)cur, strlen(cur));
    sodium_memzero((void *)nw, strlen(nw));
    json_decref(req);
    return submit(wsi, j, 2);
}

/* POST /api/sessions/end {id} or {all: true}: one of the account's
 * sessions ended (any of them, this one too), or every one ("log out
 * everywhere"). A guest has one: its own. */
static int end_sessions(struct lws *wsi)
{
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.owner[0])
        return srv_http_error(wsi, 401, "log in first");
    char why[300];
    json_t *req = srv_http_body(why, sizeof why);
    if (!req)
        return srv_http_error(wsi, 400, why);
    const char *sid = json_string_value(json_object_get(req, "id"));
    int all = json_is_true(json_object_get(req, "all"));
    if (!json_is_object(req) || (!sid && !all) || (sid && all) || (sid && strlen(sid) > 20)) {
        json_decref(req);
        return srv_http_error(wsi, 400, "send {\"id\": a session's id} or {\"all\": true}");
    }
    char sidc[24];
    snprintf(sidc, sizeof sidc, "%s", sid ? sid : "");
    json_decref(req);
    srv_pwjob *j = calloc(1, sizeof *j);
    if (!j)
        return srv_http_error(wsi, 500, "out of memory");
    j->wsi = wsi;
    srv_pss *pss = lws_wsi_user(wsi);
    pss->pwjob = j;
    acct_submit(j, 0, &me, sidc, srv_request_secure(wsi));
    return 0; /* the answer follows */
}

static int logout(struct lws *wsi)
{
    srv_ident id;
    srv_ident_of(wsi, &id);
    if (id.hash[0]) {
        srv_session_delete(id.hash);
        srv_ws_logout(id.hash); /* its open games are left */
    }
    char cookie[200];
    make_cookie(cookie, sizeof cookie, "", srv_request_secure(wsi));
    return srv_http_respond(wsi, 200, json_pack("{s:s}", "kind", "none"), cookie);
}

int srv_auth_route(struct lws *wsi, const char *rest, int is_post, int *rc)
{
    read_limits();
    if (!strcmp(rest, "me") && !is_post) {
        srv_ident id;
        srv_ident_of(wsi, &id);
        *rc = srv_http_respond(wsi, 200, who_json(&id), NULL);
        return 1;
    }
    if (!is_post)
        return 0;
    if (!strcmp(rest, "signup"))
        *rc = signup_or_login(wsi, 1);
    else if (!strcmp(rest, "login"))
        *rc = signup_or_login(wsi, 0);
    else if (!strcmp(rest, "guest"))
        *rc = guest(wsi);
    else if (!strcmp(rest, "logout"))
        *rc = logout(wsi);
    else if (!strcmp(rest, "password"))
        *rc = change_password(wsi);
    else if (!strcmp(rest, "sessions/end"))
        *rc = end_sessions(wsi);
    else
        return 0;
    return 1;
}
