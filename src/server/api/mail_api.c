/* mail_api.c: the e-mail routes (issue 32; docs/protocol.md, "E-mail"):
 *   GET  /api/email                       the account's address and switches
 *   POST /api/email {address, lang}       set it; a confirmation link is mailed
 *   POST /api/email/confirm {token}       the link's page confirms it
 *   POST /api/email/prefs {turn_mail}     "your turn" messages on or off
 *   POST /api/password/forgot {name}      a reset link to a confirmed address
 *   POST /api/password/reset {token, password}
 *                                         a new password; every session ends
 *   POST /api/unsubscribe/TOKEN           one click (RFC 8058): no more
 *                                         "your turn" messages
 * Every database step is a job of the writer thread (srv_dbjob_submit) and
 * the answer follows on the loop; a new password is hashed on the password
 * thread first. With no --smtp, the routes that would send mail answer 503.
 * "Forgot" answers 202 whether or not the name has an address, so it tells
 * nobody which accounts exist; its attempts are limited per address and per
 * name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api/api_impl.h"

enum { M_INFO, M_SET, M_CONFIRM, M_PREFS, M_FORGOT, M_RESET, M_UNSUB };

typedef struct mjob {
    srv_pwjob *j;               /* the request's handle (srv_auth_answer_later) */
    int kind;
    int64_t uid;
    char name[32];
    char address[256];
    char lang[8];
    char token[80];
    int flag;
    int rc;
    json_t *info;
    srv_hashes ended;
} mjob;

static void mjob_free(void *arg)
{
    mjob *m = arg;
    srv_pwjob *j = m->j;
    free(m->ended.h);
    sodium_memzero(m, sizeof *m);
    free(m);
    if (j) {
        sodium_memzero(j->hash, sizeof j->hash);
        free(j);
    }
}

static void run(db_conn *db, void *arg)
{
    mjob *m = arg;
    int64_t now = srv_now_ms();
    switch (m->kind) {
    case M_INFO:
        m->info = srv_mail_info_db(db, m->uid);
        m->rc = m->info ? 1 : -1;
        break;
    case M_SET:
        m->rc = srv_mail_address_db(db, m->uid, m->name, m->address, m->lang, now) == 0 ? 1 : -1;
        break;
    case M_CONFIRM:
        m->rc = srv_mail_confirm_db(db, m->token, now);
        break;
    case M_PREFS:
        m->rc = srv_mail_prefs_db(db, m->uid, m->flag);
        break;
    case M_FORGOT:
        m->rc = srv_mail_forgot_db(db, m->name, now);
        break;
    case M_RESET:
        m->rc = srv_mail_reset_db(db, m->token, m->j->hash, now, &m->ended);
        break;
    case M_UNSUB:
        m->rc = srv_mail_unsubscribe_db(db, m->token, now);
        break;
    }
}

static void done(void *arg)
{
    mjob *m = arg;
    if (m->rc > 0 && (m->kind == M_SET || m->kind == M_FORGOT))
        srv_mail_kick(); /* a message waits: the mailer sends it now */
    if (m->kind == M_RESET) {
        for (int i = 0; i < m->ended.n; i++)
            srv_ws_logout(m->ended.h[i]);
        if (m->rc > 0) /* never the token: it was the link's */
            srv_logf(SRV_LOG_INFO, "session.revoked", "sessions=%d reason=password-reset a "
                    "password reset ended the account's sessions", m->ended.n);
    }
    json_t *body = NULL;
    unsigned status = 200;
    if (m->rc < 0) {
        status = 500;
        body = json_pack("{s:s}", "error", "the database could not do it: try again later");
    } else if (m->kind == M_FORGOT) {
        status = 202; /* the same answer whether or not a message went */
        body = json_pack("{s:b}", "accepted", 1);
    } else if (m->rc == 0) {
        status = m->kind == M_PREFS ? 404 : 400;
        body = json_pack("{s:s}", "error", m->kind == M_PREFS ? "your account has no e-mail "
                         "address" : "this link does not work any more: it was used, it has "
                         "expired, or it was never sent");
    } else if (m->kind == M_INFO) {
        body = m->info;
        m->info = NULL;
    } else if (m->kind == M_SET) {
        status = 202;
        body = json_pack("{s:s,s:b}", "address", m->address, "confirmed", 0);
    } else if (m->kind == M_RESET) {
        body = json_pack("{s:b,s:i}", "reset", 1, "ended", m->ended.n);
    } else {
        body = json_pack("{s:b}", "ok", 1);
    }
    srv_auth_answer_later(m->j, status, body, NULL); /* dropped if the request went away */
    json_decref(m->info);
    mjob_free(m);
}

static int submit(struct lws *wsi, mjob *m)
{
    return srv_api_job_submit(wsi, &m->j, run, done, m, mjob_free);
}

static int too_many(struct lws *wsi, int retry_s)
{
    return srv_http_respond(wsi, 429, json_pack("{s:s,s:i}", "error", "too many attempts: try "
                                                "again later", "retry_after", retry_s), NULL);
}

/* Limits on what sends mail or tries tokens: per client address, and per
 * key (an account, a name), 5 in 10 minutes. */
static int limited(struct lws *wsi, const char *what, const char *key, int *retry)
{
    char k[160], addr[64];
    srv_client_addr(wsi, addr, sizeof addr);
    snprintf(k, sizeof k, "m%s:%s", what, addr);
    if (!srv_limit_take(k, 20, srv_now_ms(), retry))
        return 1;
    if (!key)
        return 0;
    snprintf(k, sizeof k, "m%s:=%s", what, key);
    return !srv_limit_take(k, 5, srv_now_ms(), retry);
}

static const char *lang_of(json_t *req)
{
    const char *l = json_string_value(json_object_get(req, "lang"));
    return l && (!strcmp(l, "nl") || !strcmp(l, "ja")) ? l : "en";
}

/* The password thread made the new hash: the token is taken and the
 * password set by the writer. */
static void reset_hashed(srv_pwjob *j)
{
    mjob *m = j->ctx;
    if (!j->wsi || !j->ok) {
        if (j->wsi)
            srv_auth_answer_later(j, 500, json_pack("{s:s}", "error", "the password could not "
                                                    "be set"), NULL);
        mjob_free(m);
        return;
    }
    if (srv_dbjob_submit(run, done, m) != 0) {
        srv_auth_answer_later(j, 503, json_pack("{s:s}", "error", "the server is busy: try "
                                                "again"), NULL);
        mjob_free(m);
    }
}

static int reset(struct lws *wsi, json_t *req)
{
    const char *tok = json_string_value(json_object_get(req, "token"));
    const char *pw = json_string_value(json_object_get(req, "password"));
    if (!tok || !pw || strlen(tok) > 70)
        return srv_http_error(wsi, 400, "send {\"token\": the link's token, \"password\": the "
                              "new password}");
    if (strlen(pw) < 8 || strlen(pw) > 256)
        return srv_http_error(wsi, 400, "a password has 8 to 256 bytes");
    int retry;
    if (limited(wsi, "r", NULL, &retry))
        return too_many(wsi, retry);
    mjob *m = calloc(1, sizeof *m);
    srv_pwjob *j = calloc(1, sizeof *j);
    if (!m || !j) {
        free(m);
        free(j);
        return srv_http_error(wsi, 500, "out of memory");
    }
    m->kind = M_RESET;
    m->j = j;
    snprintf(m->token, sizeof m->token, "%s", tok);
    j->verify = 0;
    snprintf(j->password, sizeof j->password, "%s", pw);
    j->wsi = wsi;
    j->ctx = m;
    j->done = reset_hashed;
    srv_pss *pss = lws_wsi_user(wsi);
    pss->pwjob = j;
    if (srv_pw_submit(j) != 0) {
        pss->pwjob = NULL;
        mjob_free(m);
        return srv_http_error(wsi, 503, "the server is busy: try again");
    }
    return 0;
}

int srv_mail_route(struct lws *wsi, const char *rest, int is_post, int *rc)
{
    int email = !strcmp(rest, "email") || !strncmp(rest, "email/", 6);
    int pw = !strcmp(rest, "password/forgot") || !strcmp(rest, "password/reset");
    int unsub = !strncmp(rest, "unsubscribe/", 12);
    if (!email && !pw && !unsub)
        return 0;
    if (!is_post && strcmp(rest, "email")) {
        *rc = srv_http_error(wsi, 405, "POST here");
        return 1;
    }
    mjob *m = calloc(1, sizeof *m);
    if (!m) {
        *rc = srv_http_error(wsi, 500, "out of memory");
        return 1;
    }
    if (unsub) { /* the token is in the path: a one-click POST has no JSON */
        m->kind = M_UNSUB;
        snprintf(m->token, sizeof m->token, "%.70s", rest + 12);
        *rc = submit(wsi, m);
        return 1;
    }
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (email && strcmp(rest, "email/confirm") && !me.user_id) {
        free(m);
        *rc = srv_http_error(wsi, 401, "log in to an account first");
        return 1;
    }
    m->uid = me.user_id;
    snprintf(m->name, sizeof m->name, "%s", me.name);
    if (!is_post) { /* GET /api/email */
        m->kind = M_INFO;
        *rc = submit(wsi, m);
        return 1;
    }
    char why[300];
    json_t *req = srv_http_body(why, sizeof why);
    if (!req || !json_is_object(req)) {
        free(m);
        json_decref(req);
        *rc = srv_http_error(wsi, 400, req ? "send a JSON object" : why);
        return 1;
    }
    const char *bad = NULL;
    int retry = 0, over = 0;
    if (!strcmp(rest, "password/reset")) {
        free(m);
        *rc = reset(wsi, req);
        json_decref(req);
        return 1;
    }
    if ((!strcmp(rest, "email") || !strcmp(rest, "password/forgot")) && !srv_mail_on()) {
        free(m);
        json_decref(req);
        *rc = srv_http_error(wsi, 503, "this server sends no e-mail (its operator has not set "
                             "--smtp)");
        return 1;
    }
    if (!strcmp(rest, "email")) {
        const char *a = json_string_value(json_object_get(req, "address"));
        m->kind = M_SET;
        if (!a || !srv_mail_address_ok(a))
            bad = "send {\"address\": an e-mail address}";
        else {
            snprintf(m->address, sizeof m->address, "%s", a);
            snprintf(m->lang, sizeof m->lang, "%s", lang_of(req));
            over = limited(wsi, "a", m->name, &retry);
        }
    } else if (!strcmp(rest, "email/confirm")) {
        const char *t = json_string_value(json_object_get(req, "token"));
        m->kind = M_CONFIRM;
        if (!t || strlen(t) > 70)
            bad = "send {\"token\": the link's token}";
        else {
            snprintf(m->token, sizeof m->token, "%s", t);
            over = limited(wsi, "c", NULL, &retry);
        }
    } else if (!strcmp(rest, "email/prefs")) {
        json_t *v = json_object_get(req, "turn_mail");
        m->kind = M_PREFS;
        if (!json_is_boolean(v))
            bad = "send {\"turn_mail\": true or false}";
        m->flag = json_is_true(v);
    } else if (!strcmp(rest, "password/forgot")) {
        const char *n = json_string_value(json_object_get(req, "name"));
        m->kind = M_FORGOT;
        if (!n || !*n || strlen(n) > 24)
            bad = "send {\"name\": your user name}";
        else {
            snprintf(m->name, sizeof m->name, "%s", n);
            over = limited(wsi, "f", n, &retry);
        }
    } else {
        bad = "no such route";
    }
    json_decref(req);
    if (bad || over) {
        free(m);
        *rc = bad ? srv_http_error(wsi, !strcmp(bad, "no such route") ? 404 : 400, bad)
                  : too_many(wsi, retry);
        return 1;
    }
    *rc = submit(wsi, m);
    return 1;
}
