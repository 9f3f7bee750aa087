/* moderation_api.c: reports and the moderation page's routes (issue 35
 * item 1; docs/protocol.md "Moderation", docs/moderation.md):
 *   POST /api/reports {name | game, n; reason, details}   an account reports
 *   GET  /api/mod/reports[/all|/resolved|/dismissed]      the queue (open first)
 *   GET  /api/mod/audit                                  the audit log
 *   GET  /api/mod/sanctions                              bans and mutes in force
 *   POST /api/mod/actions {action, name|game|report, reason, until|permanent, role}
 * Every /api/mod route is for moderators and admins: the role is that of the
 * request's session, read from the database with it (people/session.c), and
 * read again inside each action's transaction (people/moderation.c), so a
 * role taken away counts at once. Every step runs on the writer thread
 * (srv_dbjob_submit), never on the loop.
 *
 * The server also acts on what it did not do itself: once a second it reads
 * the audit log's new rows (another node's actions, `chartered admin`): a
 * banned or revoked account's WebSockets are closed, an aborted game it
 * holds is ended in memory (srv_mod_tick). Logins and chat read the
 * sanctions from the database each time (auth_api.c, reads.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_impl.h"

enum { M_REPORT, M_LIST, M_AUDIT, M_SANCTIONS, M_ACT, M_POLL };

#define MOD_EVENTS 64

typedef struct mjob {
    srv_pwjob *j;               /* the request's handle; NULL: nobody waits (the poll) */
    int kind;
    srv_mod_actor who;
    char status[12];            /* M_LIST: which reports */
    srv_mod_act act;
    srv_mod_report rp;
    char target[32], game[SRV_ID_HEX + 1], reason[512], role[12], details[1024];
    srv_mod_result out;
    json_t *body;
    int64_t after, last, from;  /* M_POLL */
    srv_mod_event ev[MOD_EVENTS];
    int nev;
} mjob;

static void mjob_free(void *arg)
{
    mjob *m = arg;
    if (!m)
        return;
    srv_pwjob *j = m->j;
    free(m->out.ended.h);
    json_decref(m->body);
    free(m);
    free(j);
}

/* ---- the server acts on the audit log ---------------------------------------- */

static int64_t last_seen = -1;  /* the newest audit row read (-1: not yet) */
static int64_t started_ms;      /* the first tick's time: the server's start */
static int poll_out;            /* a poll is on the writer thread */
static int64_t poll_at;
/* aborted games held here that had a move on its way to the database: tried
 * again at each tick (srv_game_abort) */
static char retry[16][SRV_ID_HEX + 1];
static int nretry;

/* An account's WebSockets closed (a ban, its sessions revoked) */
static void close_account(int64_t uid)
{
    if (uid > 0)
        srv_ws_close_user(uid, "a moderator ended your session");
}

static void abort_held(const char *id)
{
    srv_game *g = srv_game_held(id);
    const char *why;
    if (!g || g->status == GAME_OVER)
        return;
    if (srv_game_abort(g, &why) == 0)
        return;
    for (int i = 0; i < nretry; i++)
        if (!strcmp(retry[i], id))
            return;
    if (nretry < (int)(sizeof retry / sizeof *retry))
        snprintf(retry[nretry++], sizeof retry[0], "%s", id);
}

static void apply_event(int action, int64_t uid, const char *game)
{
    if (action == SRV_MOD_BAN || action == SRV_MOD_REVOKE)
        close_account(uid);
    else if (action == SRV_MOD_ABORT && game && *game)
        abort_held(game);
}

/* ---- jobs ------------------------------------------------------------------- */

static void run(db_conn *db, void *arg)
{
    mjob *m = arg;
    int64_t now = srv_now_ms();
    if (m->kind == M_POLL) {
        m->nev = srv_mod_since_db(db, m->after, m->from, m->ev, MOD_EVENTS, &m->last);
        return;
    }
    if (m->kind == M_REPORT) {
        srv_mod_report_db(db, &m->who, &m->rp, now, &m->out);
        return;
    }
    if (m->kind == M_ACT) {
        srv_mod_act_db(db, &m->who, &m->act, now, &m->out);
        return;
    }
    /* the lists: the role read again here, as an action's is */
    int role = srv_role_of_db(db, m->who.uid);
    if (role < SRV_ROLE_MODERATOR) {
        m->out.status = role < 0 ? 500 : 403;
        snprintf(m->out.why, sizeof m->out.why, "%s", role < 0 ? db_errmsg(db)
                 : "this is for moderators and admins only");
        return;
    }
    json_t *list = m->kind == M_LIST ? srv_mod_reports_db(db, m->status, 200)
                   : m->kind == M_AUDIT ? srv_mod_audit_db(db, 200)
                                        : srv_mod_sanctions_db(db, now);
    if (!list) {
        m->out.status = 500;
        snprintf(m->out.why, sizeof m->out.why, "%s", db_errmsg(db));
        return;
    }
    m->out.status = 200;
    m->body = json_pack("{s:o}", m->kind == M_LIST ? "reports" : m->kind == M_AUDIT ? "audit"
                                                                                    : "sanctions",
                        list);
    if (m->kind == M_LIST)
        json_object_set_new(m->body, "role", json_string(srv_role_name(role)));
}

static void done(void *arg)
{
    mjob *m = arg;
    if (m->kind == M_POLL) {
        poll_out = 0;
        if (m->nev >= 0) {
            for (int i = 0; i < m->nev; i++) {
                srv_mod_event *e = &m->ev[i];
                /* the command line's actions are logged by the servers
                   that read them (it has no log of its own) */
                if (e->cli)
                    srv_log_moderation(srv_mod_action_name(e->action), "cli", e->target,
                                       e->reason, e->until);
                apply_event(e->action, e->uid, e->game);
            }
            last_seen = m->last;
        }
        mjob_free(m);
        return;
    }
    unsigned status = (unsigned)m->out.status;
    json_t *body;
    if (status >= 400) {
        body = json_pack("{s:s}", "error", status == 500 ? "the database could not do it: try "
                         "again later" : m->out.why);
    } else if (m->body) {
        body = m->body;
        m->body = NULL;
    } else if (m->kind == M_REPORT) {
        body = json_pack("{s:I,s:s}", "id", (json_int_t)m->out.report, "target", m->out.target);
    } else {
        /* done: this node acts at once (the poll would within a second);
           the ended sessions' connections are detached as at a logout */
        char tgt[48];
        snprintf(tgt, sizeof tgt, "%s", m->out.target[0] ? m->out.target : m->act.game ?
                 m->act.game : "");
        if (!tgt[0])
            snprintf(tgt, sizeof tgt, "report %lld", (long long)m->act.report);
        srv_log_moderation(srv_mod_action_name(m->act.action), m->who.name, tgt, m->reason,
                           m->act.until);
        apply_event(m->act.action, m->out.target_uid, m->act.game);
        for (int i = 0; i < m->out.ended.n; i++) /* any left (closed first) */
            srv_ws_logout(m->out.ended.h[i]);
        body = json_pack("{s:s,s:I}", "action", srv_mod_action_name(m->act.action), "audit",
                         (json_int_t)m->out.audit_id);
        if (m->out.target[0])
            json_object_set_new(body, "target", json_string(m->out.target));
        json_object_set_new(body, "sessions_ended", json_integer(m->out.ended.n));
        if (m->act.action == SRV_MOD_BAN)
            json_object_set_new(body, "reports_closed", json_integer(m->out.reports_closed));
    }
    srv_auth_answer_later(m->j, status, body, NULL);
    mjob_free(m);
}

static int submit(struct lws *wsi, mjob *m)
{
    return srv_api_job_submit(wsi, &m->j, run, done, m, mjob_free);
}

void srv_mod_tick(int64_t now)
{
    if (!g_storage.store)
        return;
    for (int i = 0; i < nretry;) { /* aborts that waited for a move's commit */
        srv_game *g = srv_game_held(retry[i]);
        const char *why;
        if (!g || g->status == GAME_OVER || srv_game_abort(g, &why) == 0)
            memmove(retry[i], retry[i + 1], (size_t)(--nretry - i) * sizeof retry[0]);
        else
            i++;
    }
    if (poll_out || now - poll_at < SRV_MOD_POLL_MS)
        return;
    mjob *m = calloc(1, sizeof *m);
    if (!m)
        return;
    m->kind = M_POLL;
    m->after = last_seen;
    /* the first read starts at the rows of the server's own life (a minute
       of margin for another machine's clock: acting twice does nothing) */
    if (!started_ms)
        started_ms = now;
    m->from = started_ms - 60000;
    poll_at = now;
    poll_out = 1;
    if (srv_dbjob_submit(run, done, m) != 0) {
        poll_out = 0;
        mjob_free(m);
    }
}

/* ---- routes ------------------------------------------------------------------ */

static const char *str(json_t *req, const char *key)
{
    return json_string_value(json_object_get(req, key));
}

static int copy_field(char *out, size_t n, const char *v)
{
    if (!v)
        return 0;
    if (strlen(v) >= n)
        return -1;
    snprintf(out, n, "%s", v);
    return 0;
}

static int report_route(struct lws *wsi, const srv_ident *me)
{
    char why[300];
    json_t *req = srv_http_body(why, sizeof why);
    if (!req)
        return srv_http_error(wsi, 400, why);
    mjob *m = calloc(1, sizeof *m);
    if (!m) {
        json_decref(req);
        return srv_http_error(wsi, 500, "out of memory");
    }
    m->kind = M_REPORT;
    m->who.uid = me->user_id;
    snprintf(m->who.name, sizeof m->who.name, "%s", me->name);
    json_t *n = json_object_get(req, "n");
    const char *bad = NULL;
    if (!json_is_object(req) || !srv_mod_reason_ok(str(req, "reason")))
        bad = "send {\"name\": a player, or \"game\" and \"n\": a chat message; \"reason\": "
              "abuse, cheating, spam, name or other; \"details\": text}";
    else if (copy_field(m->target, sizeof m->target, str(req, "name")) ||
             copy_field(m->game, sizeof m->game, str(req, "game")) ||
             copy_field(m->reason, sizeof m->reason, str(req, "reason")) ||
             copy_field(m->details, sizeof m->details, str(req, "details")))
        bad = "a field is too long (details: at most 1000 bytes)";
    else if (!m->target[0] == !m->game[0])
        bad = "report a player (\"name\") or a chat message (\"game\" and \"n\"), one of them";
    else if (m->game[0] && (!json_is_integer(n) || json_integer_value(n) < 1))
        bad = "a chat message is named by its game and its number \"n\"";
    if (bad) {
        json_decref(req);
        mjob_free(m);
        return srv_http_error(wsi, 400, bad);
    }
    m->rp.name = m->target[0] ? m->target : NULL;
    m->rp.game = m->game[0] ? m->game : NULL;
    m->rp.chat_n = m->game[0] ? json_integer_value(n) : 0;
    m->rp.reason = m->reason;
    m->rp.details = m->details;
    json_decref(req);
    return submit(wsi, m);
}

static int action_route(struct lws *wsi, mjob *m)
{
    char why[300];
    json_t *req = srv_http_body(why, sizeof why);
    if (!req) {
        mjob_free(m);
        return srv_http_error(wsi, 400, why);
    }
    m->kind = M_ACT;
    int action = srv_mod_action_parse(str(req, "action"));
    json_t *until = json_object_get(req, "until"), *report = json_object_get(req, "report");
    const char *bad = NULL;
    if (!json_is_object(req) || action < 0 || action == SRV_MOD_REPORT)
        bad = "send {\"action\": ban, unban, mute, unmute, revoke, abort, grant, resolve or "
              "dismiss, \"reason\": text, and its target}";
    else if (copy_field(m->target, sizeof m->target, str(req, "name")) ||
             copy_field(m->game, sizeof m->game, str(req, "game")) ||
             copy_field(m->reason, sizeof m->reason, str(req, "reason")) ||
             copy_field(m->role, sizeof m->role, str(req, "role")))
        bad = "a field is too long";
    else if (until && !json_is_null(until) && (!json_is_integer(until) ||
                                               json_integer_value(until) <= 0))
        bad = "\"until\" is a time in unix milliseconds";
    else if (report && (!json_is_integer(report) || json_integer_value(report) <= 0))
        bad = "\"report\" is a report's number";
    if (bad) {
        json_decref(req);
        mjob_free(m);
        return srv_http_error(wsi, 400, bad);
    }
    m->act.action = action;
    m->act.target = m->target[0] ? m->target : NULL;
    m->act.game = m->game[0] ? m->game : NULL;
    m->act.reason = m->reason;
    m->act.role = m->role[0] ? m->role : NULL;
    m->act.report = report ? json_integer_value(report) : 0;
    if (action == SRV_MOD_BAN || action == SRV_MOD_MUTE) {
        /* an end, or permanent; neither: a week (as `chartered admin`) */
        if (json_is_integer(until))
            m->act.until = json_integer_value(until);
        else if (!json_is_true(json_object_get(req, "permanent")))
            m->act.until = srv_now_ms() + 7LL * 86400000;
    }
    json_decref(req);
    return submit(wsi, m);
}

int srv_moderation_route(struct lws *wsi, const char *rest, int is_post, int *rc)
{
    int reports = !strcmp(rest, "reports");
    if (!reports && strncmp(rest, "mod/", 4))
        return 0;
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.user_id) {
        *rc = srv_http_error(wsi, 401, reports ? "reports are made from an account: log in "
                             "or sign up first" : "log in first");
        return 1;
    }
    if (reports) {
        *rc = is_post ? report_route(wsi, &me) : srv_http_error(wsi, 405, "POST here");
        return 1;
    }
    if (me.role < SRV_ROLE_MODERATOR) {
        *rc = srv_http_error(wsi, 403, "this is for moderators and admins only");
        return 1;
    }
    mjob *m = calloc(1, sizeof *m);
    if (!m) {
        *rc = srv_http_error(wsi, 500, "out of memory");
        return 1;
    }
    m->who.uid = me.user_id;
    snprintf(m->who.name, sizeof m->who.name, "%s", me.name);
    const char *p = rest + 4;
    if (!strcmp(p, "actions")) {
        *rc = is_post ? action_route(wsi, m) : (mjob_free(m), srv_http_error(wsi, 405,
                                                                             "POST here"));
        return 1;
    }
    if (is_post) {
        mjob_free(m);
        *rc = srv_http_error(wsi, 405, "GET here");
        return 1;
    }
    if (!strcmp(p, "reports") || !strcmp(p, "reports/all") || !strcmp(p, "reports/resolved") ||
        !strcmp(p, "reports/dismissed")) {
        m->kind = M_LIST;
        snprintf(m->status, sizeof m->status, "%s", p[7] ? p + 8 : "open");
    } else if (!strcmp(p, "audit")) {
        m->kind = M_AUDIT;
    } else if (!strcmp(p, "sanctions")) {
        m->kind = M_SANCTIONS;
    } else {
        mjob_free(m);
        *rc = srv_http_error(wsi, 404, "no such route: /api/mod/reports, /audit, /sanctions, "
                             "/actions");
        return 1;
    }
    *rc = submit(wsi, m);
    return 1;
}
