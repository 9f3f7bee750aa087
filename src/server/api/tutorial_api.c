/* tutorial_api.c: an account's tutorial progress (issue 31 item 2;
 * docs/protocol.md, "Tutorial progress"):
 *   GET  /api/tutorial                    the steps done, by edition
 *   POST /api/tutorial {edition, step}    a step done (again: no change)
 *   POST /api/tutorial/reset {edition}    forget an edition's steps
 * For accounts only: a guest's progress stays in the browser's storage
 * (web/js/tutorial.js), as a guest's session is not found again from
 * another device. A step done is a row of the table "tutorial_progress"
 * (schema version 10, store/schema.c), so every node of a cluster and
 * every device of the account sees it. Steps are named by their ids in
 * web/tutorial/EDITION.json; the server does not read those files (a new
 * step needs no new server), so it takes any short id and keeps at most
 * TUTORIAL_MAX rows an account. Every database step is a job of the
 * writer thread (srv_dbjob_submit), answered on the loop, as
 * follow_api.c does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api_impl.h"

/* Rows kept an account: the two tutorials have 14 steps each; room for
 * longer ones, and a bound on what a client can make the server store. */
#define TUTORIAL_MAX 200

enum { T_LIST, T_DONE, T_RESET };

typedef struct tjob {
    srv_pwjob *j;
    int kind;
    int64_t uid;
    char edition[16], step[48];
    int status;
    const char *why;
    json_t *body;
} tjob;

static void tjob_free(void *arg)
{
    tjob *f = arg;
    srv_pwjob *j = f->j;
    json_decref(f->body);
    free(f);
    free(j);
}

static int edition_ok(const char *e)
{
    return e && (!strcmp(e, "amsterdam") || !strcmp(e, "golden-age"));
}

/* A step id as the tutorial files write them: 1 to 40 of a-z, 0-9, '-'. */
static int step_ok(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n < 1 || n > 40)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
            return 0;
    return 1;
}

/* Every step the account has done: {"done":{"amsterdam":[...],"golden-age":[...]}},
 * each list sorted by step id (the client marks steps in its own order). */
static void run_list(db_conn *db, tjob *f)
{
    json_t *done = json_pack("{s:[],s:[]}", "amsterdam", "golden-age");
    db_rows *r = db_query(db, "SELECT edition, step FROM tutorial_progress WHERE user_id = $1 "
                          "ORDER BY edition, step", DB_P(DB_I(f->uid)));
    int st = r ? 0 : -1;
    while (r && (st = db_next(r)) == 1) {
        json_t *list = json_object_get(done, db_text(r, 0) ? db_text(r, 0) : "");
        if (list)
            json_array_append_new(list, json_string(db_text(r, 1) ? db_text(r, 1) : ""));
    }
    if (r && db_end(r) != 0)
        st = -1;
    if (st < 0) {
        json_decref(done);
        f->status = 500;
        return;
    }
    f->status = 200;
    f->body = json_pack("{s:o}", "done", done);
}

static void run_done(db_conn *db, tjob *f)
{
    /* a step done again changes nothing; past TUTORIAL_MAX rows nothing
       new is kept */
    if (db_exec(db, "INSERT INTO tutorial_progress(user_id, edition, step, done_at) "
                "SELECT $1, $2, $3, $4 WHERE (SELECT COUNT(*) FROM tutorial_progress "
                "WHERE user_id = $1) < $5 ON CONFLICT DO NOTHING",
                DB_P(DB_I(f->uid), DB_T(f->edition), DB_T(f->step), DB_I((int64_t)time(NULL)),
                     DB_I(TUTORIAL_MAX))) != 0) {
        f->status = 500;
        return;
    }
    if (db_changes(db) == 0) {
        int rc = 0;
        int64_t had = db_one_int(db, "SELECT COUNT(*) FROM tutorial_progress WHERE user_id = $1 "
                                 "AND edition = $2 AND step = $3",
                                 DB_P(DB_I(f->uid), DB_T(f->edition), DB_T(f->step)), -1, &rc);
        if (rc != 0 || had < 0) {
            f->status = 500;
            return;
        }
        if (!had) {
            f->status = 429;
            f->why = "this account has as many tutorial steps kept as one may";
            return;
        }
    }
    run_list(db, f);
}

static void run_reset(db_conn *db, tjob *f)
{
    if (db_exec(db, "DELETE FROM tutorial_progress WHERE user_id = $1 AND edition = $2",
                DB_P(DB_I(f->uid), DB_T(f->edition))) != 0) {
        f->status = 500;
        return;
    }
    run_list(db, f);
}

static void run(db_conn *db, void *arg)
{
    tjob *f = arg;
    if (f->kind == T_LIST)
        run_list(db, f);
    else if (f->kind == T_DONE)
        run_done(db, f);
    else
        run_reset(db, f);
}

static void done(void *arg)
{
    tjob *f = arg;
    srv_auth_answer_later(f->j, (unsigned)f->status, srv_api_job_body(f->status, f->why, &f->body),
                          NULL);
    tjob_free(f);
}

static int submit(struct lws *wsi, tjob *f)
{
    return srv_api_job_submit(wsi, &f->j, run, done, f, tjob_free);
}

int srv_tutorial_route(struct lws *wsi, const char *rest, int is_post, int *rc)
{
    int main_path = !strcmp(rest, "tutorial"), reset = !strcmp(rest, "tutorial/reset");
    if (!main_path && !reset)
        return 0;
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.user_id) {
        *rc = srv_http_error(wsi, 401, "tutorial progress is kept for accounts: a guest's stays in "
                             "the browser");
        return 1;
    }
    if (reset && !is_post) {
        *rc = srv_http_error(wsi, 405, "POST here");
        return 1;
    }
    tjob *f = calloc(1, sizeof *f);
    if (!f) {
        *rc = srv_http_error(wsi, 500, "out of memory");
        return 1;
    }
    f->uid = me.user_id;
    f->kind = !is_post ? T_LIST : reset ? T_RESET : T_DONE;
    if (is_post) {
        char why[300];
        json_t *req = srv_http_body(why, sizeof why);
        const char *ed = json_string_value(json_object_get(req, "edition"));
        const char *step = json_string_value(json_object_get(req, "step"));
        const char *bad = !req ? why
            : !json_is_object(req) ? "send a JSON object"
            : !edition_ok(ed) ? "edition must be \"amsterdam\" or \"golden-age\""
            : reset && json_object_size(req) != 1 ? "send {\"edition\": ...} only"
            : !reset && (!step_ok(step) || json_object_size(req) != 2)
                ? "send {\"edition\": ..., \"step\": the step's id (1 to 40 of a-z, 0-9, -)}"
            : NULL;
        if (!bad) {
            snprintf(f->edition, sizeof f->edition, "%s", ed);
            if (!reset)
                snprintf(f->step, sizeof f->step, "%s", step);
        }
        char msg[300];
        if (bad)
            snprintf(msg, sizeof msg, "%s", bad);
        json_decref(req);
        if (bad) {
            tjob_free(f);
            *rc = srv_http_error(wsi, 400, msg);
            return 1;
        }
    }
    *rc = submit(wsi, f);
    return 1;
}
