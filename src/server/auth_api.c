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

#include <sodium.h>

#include "server.h"

#define SESSION_MAX_AGE 2592000 /* 30 days, as session.c */

/* The limits per 10 minutes: per user name (login and sign-up attempts),
 * per address (the same), and guest sessions per address. The environment
 * variable CHARTERED_AUTH_LIMITS="USER,ADDR,GUEST" sets others (0: none),
 * e.g. for a load test that opens thousands of guest sessions. */
static int lim_user = 10, lim_addr = 200, lim_guest = 200;

static void read_limits(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    const char *v = getenv("CHARTERED_AUTH_LIMITS");
    int u, a, gst;
    if (v && *v) {
        if (sscanf(v, "%d,%d,%d", &u, &a, &gst) == 3 && u >= 0 && a >= 0 && gst >= 0) {
            lim_user = u;
            lim_addr = a;
            lim_guest = gst;
        } else {
            fprintf(stderr, "chartered: CHARTERED_AUTH_LIMITS must be USER,ADDR,GUEST (whole "
                    "numbers from 0), not '%.40s': using 10,200,200\n", v);
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

/* Count one attempt for the user name and one for the address. */
static int limited(struct lws *wsi, const char *name, int *retry_s)
{
    char key[96], addr[64];
    int64_t now = srv_now_ms();
    srv_client_addr(wsi, addr, sizeof addr);
    snprintf(key, sizeof key, "a:%s", addr);
    if (!srv_limit_take(key, lim_addr, now, retry_s))
        return 1;
    snprintf(key, sizeof key, "u:");
    for (size_t i = 0; name[i] && i < 60; i++)
        key[2 + i] = (char)tolower((unsigned char)name[i]), key[3 + i] = 0;
    return !srv_limit_take(key, lim_user, now, retry_s);
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

/* A guest's name: 1 to 24 bytes of UTF-8 text without control characters. */
static int valid_guest_name(const char *s)
{
    size_t l = strlen(s);
    if (l < 1 || l > 24)
        return 0;
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 0;
    return 1;
}

static json_t *who_json(const srv_ident *id)
{
    if (!id->owner[0])
        return json_pack("{s:s}", "kind", "none");
    return json_pack("{s:s,s:s}", "kind", id->user_id ? "account" : "guest", "name", id->name);
}

/* The session made for a finished job, answered on its connection. */
static void answer_later(srv_pwjob *j, unsigned status, json_t *body, const char *cookie)
{
    if (!j->wsi) {
        json_decref(body);
        return;
    }
    srv_pss *pss = lws_wsi_user(j->wsi);
    pss->pwjob = NULL;
    pss->deferred = body;
    pss->deferred_status = status;
    snprintf(pss->deferred_cookie, sizeof pss->deferred_cookie, "%s", cookie ? cookie : "");
    lws_callback_on_writable(j->wsi);
}

typedef struct {
    int signup;
    int secure;
} job_ctx;

/* The writes of a sign-up, login or guest (account, new password hash,
 * session), made by the writer thread (srv_dbjob_submit): the loop never
 * waits on them. The request's srv_pwjob stays its handle meanwhile (a
 * request that goes away clears its wsi: srv_auth_request_gone). */
typedef struct sess_job {
    srv_pwjob *j;
    int signup, rehash;
    int rc;                     /* 0 made; 1 the name is taken; -1 refused */
    unsigned status;
    srv_newsession ns;
} sess_job;

static void sess_write(db_conn *wdb, void *arg)
{
    sess_job *s = arg;
    srv_pwjob *j = s->j;
    s->rc = 0;
    if (s->signup) {
        int64_t uid = 0;
        s->rc = srv_account_insert(wdb, j->name, j->hash, &uid);
        s->ns.id.user_id = uid;
        srv_session_owner(&s->ns);
    } else if (s->rehash) { /* stored with older parameters: keep the new hash */
        srv_account_set_hash(wdb, j->user_id, j->hash);
    }
    if (s->rc == 0 && srv_session_write(wdb, &s->ns) != 0)
        s->rc = -1;
}

static void sess_written(void *arg)
{
    sess_job *s = arg;
    srv_pwjob *j = s->j;
    job_ctx *cx = j->ctx;
    if (s->rc == 0) {
        char cookie[200];
        make_cookie(cookie, sizeof cookie, s->ns.token, cx->secure);
        answer_later(j, s->status, who_json(&s->ns.id), cookie);
        sodium_memzero(cookie, sizeof cookie);
    } else if (s->rc == 1) {
        answer_later(j, 409, json_pack("{s:s}", "error", "that user name is taken"), NULL);
    } else {
        answer_later(j, 500, json_pack("{s:s}", "error", s->signup ? "the account could not "
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
        answer_later(j, 500, json_pack("{s:s}", "error", "the session could not be made"),
                     NULL);
        return -1;
    }
    s->j = j;
    s->signup = signup;
    s->rehash = j->rehash;
    s->status = status;
    srv_dbjob_submit(sess_write, sess_written, s);
    return 0;
}

static void job_done(srv_pwjob *j)
{
    job_ctx *cx = j->ctx;
    if (j->wsi && j->ok) { /* the writes and the answer follow (sess_written frees j) */
        if (start_session(j, cx->signup ? 0 : j->user_id, j->name, 0, cx->signup,
                          cx->signup ? 201 : 200) == 0)
            return;
    } else if (j->wsi) {
        answer_later(j, cx->signup ? 500 : 401,
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

static int submit(struct lws *wsi, srv_pwjob *j, int signup)
{
    job_ctx *cx = calloc(1, sizeof *cx);
    if (!cx) {
        free(j);
        return srv_http_error(wsi, 500, "out of memory");
    }
    cx->signup = signup;
    cx->secure = srv_request_secure(wsi);
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
    if (limited(wsi, name, &retry)) {
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
    if (!json_is_object(req) || (nv && !json_is_null(nv) && (!name || !valid_guest_name(name)))) {
        json_decref(req);
        return srv_http_error(wsi, 400, "a guest's name has 1 to 24 bytes of text");
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
    else
        return 0;
    return 1;
}
