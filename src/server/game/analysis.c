/* analysis.c: the analysis of a finished game on the server, and hints
 * (issue 33 items 1-4; docs/protocol.md "Analysis and hints",
 * docs/analysis.md).
 *
 * An analysis is every decision of a finished game reviewed with
 * ch_review_decision (src/ai/review.c) from the deciding player's view
 * only: each player's chance of winning after the move played, the bot's
 * preferred move and its chance, and the moments that mattered (where the
 * mover's chance fell most below the bot's move), with the advice in words
 * in every language. It runs on the bot workers as one task per decision
 * in their lowest line (srv_bots_task), one task at a time for the whole
 * node: a bot of a live game waits at most for one decision's analysis.
 * Requests wait in a queue on the node that took them (first come, first
 * served), and each is a row of the table "analyses" (schema version 8):
 * queued, running (with its progress, written now and then), done (with
 * its result, served to every later request and by every node of a
 * cluster without computing it again) or failed.
 *
 * Fair shares (checked on the row's writer-thread job, so that they hold
 * across a cluster's nodes): one analysis queued or running per person
 * (the session's owner), a daily number per person, and a CPU budget per
 * game (spread over its decisions). A guest session costs nothing to make,
 * so the guests of one network (the row's origin, schema version 12) are
 * one person for both shares: a new guest session is no new share; an
 * account has its own. A row left running by a node that
 * stopped is taken over by the next request once it has not moved for
 * ANL_STALE_MS.
 *
 * A hint is the same review of the one decision a seat faces now, from that
 * seat's view only (so a re-deal of what it cannot see gives the same hint:
 * tests/test_hint.c), with a fixed iteration budget and a seed of the game
 * and decision; only in unrated games with a bot, and each hint is counted
 * on the seat (stored with the seats), so a game in which one was used is
 * shown so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game_impl.h"

#define ANL_STALE_MS (10LL * 60 * 1000)  /* a running row not updated: taken over */
#define ANL_DAY_MS (24LL * 3600 * 1000)
#define ANL_QUEUE_MAX 50                 /* requests waiting on one node */
#define ANL_TOP 5                        /* moments marked (as `chartered review`) */
#define ANL_MIN_GAIN 0.03                /* a moment gains at least 3 points */
#define ANL_WIDTH 6                      /* the bot's moves compared with each move */

/* ---- settings ------------------------------------------------------------------- */

/* A setting from the environment: a number from lo to hi, else dflt (a bad
 * value said once). */
static double env_num(const char *var, double dflt, double lo, double hi)
{
    const char *e = getenv(var);
    if (!e || !*e)
        return dflt;
    char *end;
    double v = strtod(e, &end);
    if (*end || !(v >= lo && v <= hi)) {
        srv_logf(SRV_LOG_WARN, "config.ignored", "variable=%s value=%s must be from %g to %g: "
                 "%g kept", var, e, lo, hi, dflt);
        return dflt;
    }
    return v;
}

void srv_analysis_limits(srv_anl_limits *l)
{
    /* 60 s of CPU for a game (the goal of issue 33: about 300 decisions at
       0.2 s each), at most 0.2 s a decision */
    l->cpu_game = env_num("CHARTERED_ANALYSIS_CPU", 60, 1, 3600);
    l->cpu_decision = 0.2;
    l->iterations = (long)env_num("CHARTERED_ANALYSIS_ITERATIONS", 0, 0, 1e7);
    l->per_day = (int)env_num("CHARTERED_ANALYSES_PER_DAY", 5, 1, 1000);
    l->hint_iterations = (long)env_num("CHARTERED_HINT_ITERATIONS", 1500, 10, 1e6);
}

/* ---- one request ------------------------------------------------------------------ */

typedef struct anl_row {
    int player;
    ch_move played;
    ch_review rv;
    int moment;                 /* 1-based rank among the moments, 0: not one */
} anl_row;

typedef struct anl {
    struct anl *next;
    char game[SRV_ID_HEX + 1];
    char requester[SRV_OWNER_MAX];
    char node[48];
    int np;
    int n;                      /* decisions */
    int next_dec;               /* the next to analyse */
    int running;                /* a task is out */
    ch_state *before;           /* [n]: the state at each decision */
    anl_row *rows;              /* [n] */
    ch_review_opts o;
    double cpu;                 /* CPU seconds used so far */
    long playouts;
    int64_t started_ms;
    int64_t reported_ms;        /* progress last written */
    int storing;                /* the result is being written */
    char *result;               /* its JSON text, once done */
    char err[320];
} anl;

static struct {
    anl *head, *tail;
    int nqueued;
    uint64_t done_total;        /* analyses finished on this node */
    double cpu_total;           /* and their CPU seconds */
    int64_t touched_ms;         /* the waiting requests' rows last touched */
} g_anl;

static anl *anl_find(const char *id)
{
    for (anl *a = g_anl.head; a; a = a->next)
        if (!strcmp(a->game, id))
            return a;
    return NULL;
}

static int anl_position(const anl *x)
{
    int k = 0;
    for (anl *a = g_anl.head; a && a != x; a = a->next)
        k++;
    return k;
}

static void anl_free(anl *a)
{
    if (!a)
        return;
    free(a->before);
    free(a->rows);
    free(a->result);
    free(a);
}

static void anl_unlink(anl *a)
{
    anl **pp = &g_anl.head;
    anl *prev = NULL;
    while (*pp && *pp != a) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (!*pp)
        return;
    *pp = a->next;
    if (g_anl.tail == a)
        g_anl.tail = prev;
    g_anl.nqueued--;
}

static json_t *progress_json(const anl *a)
{
    return json_pack("{s:s,s:s,s:i,s:i,s:i}", "game", a->game, "status",
                     a->running || a->next_dec > 0 || a->storing ? "running" : "queued", "done",
                     a->next_dec, "total", a->n, "ahead", anl_position(a));
}

/* ---- the result ------------------------------------------------------------------ */

static double gain_of(const anl_row *r)
{
    return r->rv.best_win[r->player] - r->rv.played_win[r->player];
}

static json_t *chances(const double *w, int np)
{
    json_t *a = json_array();
    for (int q = 0; q < np; q++)
        json_array_append_new(a, json_real(round(w[q] * 10000) / 10000));
    return a;
}

static json_t *in_langs(const ch_state *st, ch_move m)
{
    json_t *o = json_object();
    static const char *codes[CHX_NLANGS] = {"en", "nl", "ja"};
    for (int l = 0; l < CHX_NLANGS; l++) {
        char t[256];
        if (chx_move_text(l, st, m, t, sizeof t) <= 0)
            ch_move_str(st, m, t, sizeof t);
        json_object_set_new(o, codes[l], json_string(t));
    }
    return o;
}

/* The analysis as stored and served (docs/protocol.md "Analysis"). */
static char *result_json(anl *a)
{
    /* the moments: the largest gains of the bot's move, at least
       ANL_MIN_GAIN, as `chartered review` marks them */
    for (int k = 1; k <= ANL_TOP; k++) {
        int bi = -1;
        for (int i = 0; i < a->n; i++)
            if (!a->rows[i].moment && gain_of(&a->rows[i]) >= ANL_MIN_GAIN &&
                (bi < 0 || gain_of(&a->rows[i]) > gain_of(&a->rows[bi])))
                bi = i;
        if (bi < 0)
            break;
        a->rows[bi].moment = k;
    }
    json_t *dec = json_array(), *mom = json_array();
    static const char *codes[CHX_NLANGS] = {"en", "nl", "ja"};
    for (int i = 0; i < a->n; i++) {
        const anl_row *r = &a->rows[i];
        char m[160], bm[160];
        ch_move_str(&a->before[i], r->played, m, sizeof m);
        ch_move_str(&a->before[i], r->rv.best, bm, sizeof bm);
        json_array_append_new(dec, json_pack("{s:i,s:i,s:s,s:o,s:s,s:o,s:f,s:i}", "n", i,
                                             "player", r->player, "move", m, "chances",
                                             chances(r->rv.played_win, a->np), "best", bm,
                                             "best_chances", chances(r->rv.best_win, a->np),
                                             "gain", round(gain_of(r) * 10000) / 10000,
                                             "moment", r->moment));
    }
    for (int k = 1; k <= ANL_TOP; k++)
        for (int i = 0; i < a->n; i++) {
            const anl_row *r = &a->rows[i];
            if (r->moment != k)
                continue;
            json_t *adv = json_object();
            for (int l = 0; l < CHX_NLANGS; l++) {
                char t[512];
                chx_review_advice(l, &a->before[i], r->rv.best, r->played, gain_of(r), t,
                                  sizeof t);
                json_object_set_new(adv, codes[l], json_string(t));
            }
            char bm[160];
            ch_move_str(&a->before[i], r->rv.best, bm, sizeof bm);
            json_array_append_new(
                mom, json_pack("{s:i,s:i,s:i,s:s,s:o,s:o,s:f,s:f,s:f,s:o}", "rank", k, "n", i,
                               "player", r->player, "best", bm, "best_text",
                               in_langs(&a->before[i], r->rv.best), "played_text",
                               in_langs(&a->before[i], r->played), "best_chance",
                               round(r->rv.best_win[r->player] * 10000) / 10000,
                               "played_chance",
                               round(r->rv.played_win[r->player] * 10000) / 10000, "gain",
                               round(gain_of(r) * 10000) / 10000, "advice", adv));
        }
    json_t *j = json_pack("{s:s,s:i,s:i,s:o,s:o,s:f,s:I,s:I,s:f,s:I,s:s}", "game", a->game,
                          "players", a->np, "decisions_n", a->n, "decisions", dec, "moments",
                          mom, "cpu", round(a->cpu * 1000) / 1000, "playouts",
                          (json_int_t)a->playouts, "iterations", (json_int_t)a->o.iterations,
                          "cpu_per_decision", a->o.iterations ? 0.0 : a->o.cpu, "seed",
                          (json_int_t)1, "node", a->node);
    char *s = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(6));
    json_decref(j);
    return s;
}

/* ---- rows of "analyses" (writer thread) ------------------------------------------- */

#define ANL_COLUMNS "game, status, requester, requested, updated, node, done, total, cpu_ms, " \
    "result, error"

/* A job of the writer thread for a request: what it is asked, and answers. */
enum { J_GET, J_REQUEST, J_PROGRESS, J_TOUCH, J_DONE, J_FAILED };
typedef struct anl_job {
    int kind;
    char game[SRV_ID_HEX + 1];
    char requester[SRV_OWNER_MAX];
    char origin[48];            /* a guest's network; "" for an account */
    char node[48];
    int per_day;
    ch_state start;             /* J_REQUEST: the game's first state */
    int done_n, total;
    int64_t cpu_ms;
    char *result;               /* J_DONE: the result (the anl's, not freed here) */
    char err[320];
    /* answers */
    unsigned status;
    json_t *body;
    json_t *moves;              /* J_REQUEST: the moves, when the request stands */
    anl *a;                     /* J_DONE/J_FAILED: the request written */
    srv_anl_answer answer;
    void *ctx;
} anl_job;

/* The answer of a stored row: done (with the result), or its progress. */
static json_t *row_answer(db_rows *r, unsigned *status)
{
    const char *st = db_text(r, 1) ? db_text(r, 1) : "";
    if (!strcmp(st, "done")) {
        json_t *res = json_loads(db_text(r, 9) ? db_text(r, 9) : "", 0, NULL);
        if (!res) {
            *status = 500;
            return json_pack("{s:s}", "error", "the stored analysis cannot be read");
        }
        *status = 200;
        return json_pack("{s:s,s:s,s:o}", "game", db_text(r, 0), "status", "done", "analysis",
                         res);
    }
    if (!strcmp(st, "failed")) {
        *status = 200;
        return json_pack("{s:s,s:s,s:s}", "game", db_text(r, 0), "status", "failed", "error",
                         db_text(r, 10) ? db_text(r, 10) : "");
    }
    *status = 202;
    return json_pack("{s:s,s:s,s:I,s:I,s:s}", "game", db_text(r, 0), "status", st, "done",
                     (json_int_t)db_int(r, 6), "total", (json_int_t)db_int(r, 7), "node",
                     db_text(r, 5) ? db_text(r, 5) : "");
}

static void job_get(db_conn *db, anl_job *j)
{
    db_rows *r = db_query(db, "SELECT " ANL_COLUMNS " FROM analyses WHERE game = $1",
                          DB_P(DB_T(j->game)));
    int st = r ? db_next(r) : -1;
    int stale = 0;
    if (st == 1) {
        const char *t = db_text(r, 1) ? db_text(r, 1) : "";
        /* under way on a node that stopped: nobody will finish it */
        stale = (!strcmp(t, "queued") || !strcmp(t, "running")) &&
                db_int(r, 4) <= srv_now_ms() - ANL_STALE_MS;
        if (!stale)
            j->body = row_answer(r, &j->status);
    }
    if (r && db_end(r) != 0)
        st = -1;
    if (st < 0) {
        json_decref(j->body);
        j->body = NULL;
        j->status = 500;
    } else if (stale) {
        j->status = 404;
        j->body = json_pack("{s:s,s:s,s:s}", "game", j->game, "status", "none", "error",
                            "its analysis stopped (the server computing it went away): "
                            "POST here to ask again");
    } else if (st == 0) {
        j->status = 404;
        j->body = json_pack("{s:s,s:s,s:s}", "game", j->game, "status", "none", "error",
                            "this game has not been analysed: POST here to ask for it");
    }
}

static void job_request(db_conn *db, anl_job *j, int64_t now)
{
    /* already done, or under way (here or on another node): its answer */
    db_rows *r = db_query(db, "SELECT " ANL_COLUMNS " FROM analyses WHERE game = $1",
                          DB_P(DB_T(j->game)));
    int st = r ? db_next(r) : -1;
    if (st == 1) {
        const char *s = db_text(r, 1) ? db_text(r, 1) : "";
        int under_way = (!strcmp(s, "queued") || !strcmp(s, "running")) &&
                        db_int(r, 4) > now - ANL_STALE_MS;
        if (!strcmp(s, "done") || under_way)
            j->body = row_answer(r, &j->status);
    }
    if (r && db_end(r) != 0)
        st = -1;
    if (st < 0) {
        json_decref(j->body);
        j->body = NULL;
        j->status = 500;
        return;
    }
    if (j->body)
        return;
    /* the person's shares: one under way, and so many a day; a guest's
       counted with every guest of its network (origin), an account's alone
       (an account's rows have no origin) */
    int rc = 0, guest = j->origin[0] != 0;
    int64_t busy = db_one_int(db, "SELECT COUNT(*) FROM analyses WHERE (requester = $1 OR "
                              "origin = $3) AND status IN ('queued','running') AND updated > $2",
                              DB_P(DB_T(j->requester), DB_I(now - ANL_STALE_MS),
                                   guest ? DB_T(j->origin) : DB_NULL), -1, &rc);
    int64_t today = rc ? -1 : db_one_int(db, "SELECT COUNT(*) FROM analyses WHERE "
                                         "(requester = $1 OR origin = $3) AND requested > $2",
                                         DB_P(DB_T(j->requester), DB_I(now - ANL_DAY_MS),
                                              guest ? DB_T(j->origin) : DB_NULL), -1, &rc);
    if (rc || busy < 0 || today < 0) {
        j->status = 500;
        return;
    }
    if (busy > 0) {
        j->status = 429;
        j->body = json_pack("{s:s,s:i}", "error", guest
                            ? "a guest on your network already has an analysis under way: "
                              "wait for it to finish, or log in for a share of your own"
                            : "you already have an analysis under way: wait for it to finish",
                            "retry_after", 60);
        return;
    }
    if (today >= j->per_day) {
        j->status = 429;
        j->body = json_pack("{s:s,s:i,s:i}", "error", guest
                            ? "the guests on your network have asked for as many analyses as "
                              "a day allows: log in for a share of your own, or try again "
                              "tomorrow"
                            : "you have asked for as many analyses as a day allows: try again "
                              "tomorrow", "per_day", j->per_day, "retry_after", 3600);
        return;
    }
    j->moves = srv_moves_read(db, j->game);
    if (!j->moves) {
        j->status = 500;
        return;
    }
    /* the row, unless another node took it meanwhile (then its answer) */
    if (db_exec(db, "INSERT INTO analyses(" ANL_COLUMNS ", origin) VALUES ($1, 'queued', $2, "
                "$3, $3, $4, 0, $5, 0, NULL, NULL, $7) ON CONFLICT (game) DO UPDATE SET status = "
                "'queued', requester = $2, requested = $3, updated = $3, node = $4, done = 0, "
                "total = $5, cpu_ms = 0, result = NULL, error = NULL, origin = $7 WHERE analyses.status = 'failed' OR "
                "(analyses.status IN ('queued','running') AND analyses.updated <= $6)",
                DB_P(DB_T(j->game), DB_T(j->requester), DB_I(now), DB_T(j->node),
                     DB_I((int64_t)json_array_size(j->moves)), DB_I(now - ANL_STALE_MS),
                     guest ? DB_T(j->origin) : DB_NULL)) != 0) {
        j->status = 500;
        return;
    }
    if (db_changes(db) == 0) {
        json_decref(j->moves);
        j->moves = NULL;
        j->status = 409;
        j->body = json_pack("{s:s,s:s}", "game", j->game, "error", "another request of this "
                            "game's analysis came first: GET it");
        return;
    }
    j->status = 202;
}

static void job_run(db_conn *db, void *arg)
{
    anl_job *j = arg;
    int64_t now = srv_now_ms();
    switch (j->kind) {
    case J_GET:
        job_get(db, j);
        break;
    case J_REQUEST:
        job_request(db, j, now);
        break;
    case J_PROGRESS:
        if (db_exec(db, "UPDATE analyses SET status = 'running', done = $1, updated = $2 "
                    "WHERE game = $3 AND node = $4 AND status IN ('queued','running')",
                    DB_P(DB_I(j->done_n), DB_I(now), DB_T(j->game), DB_T(j->node))) != 0)
            srv_logf(SRV_LOG_ERROR, "db.error", "game=%s an analysis's progress is not written: "
                     "%s", j->game, db_errmsg(db));
        break;
    case J_TOUCH: /* still queued here: not taken for a stopped node's */
        if (db_exec(db, "UPDATE analyses SET updated = $1 WHERE game = $2 AND node = $3 AND "
                    "status = 'queued'", DB_P(DB_I(now), DB_T(j->game), DB_T(j->node))) != 0)
            srv_logf(SRV_LOG_ERROR, "db.error", "game=%s a waiting analysis is not touched: %s", j->game,
                     db_errmsg(db));
        break;
    case J_DONE:
        j->status = db_exec(db, "UPDATE analyses SET status = 'done', done = $1, updated = $2, "
                            "cpu_ms = $3, result = $4, error = NULL WHERE game = $5",
                            DB_P(DB_I(j->done_n), DB_I(now), DB_I(j->cpu_ms), DB_T(j->result),
                                 DB_T(j->game))) == 0 ? 200 : 500;
        if (j->status != 200)
            srv_logf(SRV_LOG_ERROR, "db.error", "game=%s an analysis is not stored: %s", j->game,
                     db_errmsg(db));
        break;
    case J_FAILED:
        if (db_exec(db, "UPDATE analyses SET status = 'failed', updated = $1, error = $2 "
                    "WHERE game = $3", DB_P(DB_I(now), DB_T(j->err), DB_T(j->game))) != 0)
            srv_logf(SRV_LOG_ERROR, "db.error", "game=%s an analysis's failure is not written: "
                     "%s", j->game, db_errmsg(db));
        break;
    }
}

static void job_free(anl_job *j)
{
    json_decref(j->body);
    json_decref(j->moves);
    free(j);
}

static void job_done_plain(void *arg) { job_free(arg); }

static void answer(anl_job *j, unsigned status, json_t *body)
{
    if (j->answer)
        j->answer(j->ctx, status, body);
    else
        json_decref(body);
}

/* A write of the request's progress or end, nobody waiting. */
static void job_write(anl *a, int kind, void (*done)(void *))
{
    anl_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->kind = kind;
    memcpy(j->game, a->game, sizeof j->game);
    memcpy(j->node, a->node, sizeof j->node);
    j->done_n = a->next_dec;
    j->cpu_ms = (int64_t)(a->cpu * 1000);
    j->result = a->result;
    snprintf(j->err, sizeof j->err, "%s", a->err);
    j->a = a;
    if (srv_dbjob_submit(job_run, done ? done : job_done_plain, j) != 0) {
        if (done)
            done(j);
        else
            free(j);
    }
}

/* ---- the tasks on the bot workers --------------------------------------------------- */

static void kick(void);

static void task_run(void *arg)
{
    anl *a = arg;
    int i = a->next_dec;
    ch_msg err;
    a->o.seed = 1 * 0x9E3779B97F4A7C15ull + (uint64_t)i; /* as `chartered review --seed 1` */
    int rc = ch_review_decision(&a->before[i], a->rows[i].player, a->rows[i].played, &a->o,
                                &a->rows[i].rv, &err);
    if (rc != CH_OK)
        snprintf(a->err, sizeof a->err, "decision %d: %s", i + 1, err.text);
}

static void stored(void *arg)
{
    anl_job *j = arg;
    anl *a = j->a;
    /* once stored, later requests read it from the database (any node) */
    if (a) {
        anl_unlink(a);
        anl_free(a);
    }
    free(j);
    kick();
}

static void task_done(void *arg)
{
    anl *a = arg;
    a->running = 0;
    if (g_tables.stopping)
        return; /* freed by srv_analysis_stop */
    if (a->err[0]) {
        srv_logf(SRV_LOG_ERROR, "analysis.failed", "game=%s an analysis failed: %s", a->game,
                 a->err);
        a->storing = 1; /* no further task until its row is written and it is gone */
        job_write(a, J_FAILED, stored);
        return;
    }
    a->cpu += a->rows[a->next_dec].rv.cpu;
    a->playouts += a->rows[a->next_dec].rv.playouts;
    a->next_dec++;
    int64_t now = srv_now_ms();
    if (a->next_dec >= a->n) {
        a->result = result_json(a);
        if (!a->result) {
            snprintf(a->err, sizeof a->err, "out of memory");
            a->storing = 1;
            job_write(a, J_FAILED, stored);
            return;
        }
        a->storing = 1;
        g_anl.done_total++;
        g_anl.cpu_total += a->cpu;
        job_write(a, J_DONE, stored);
        return;
    }
    /* the progress for other nodes, about once a second */
    if (now - a->reported_ms >= 1000) {
        a->reported_ms = now;
        job_write(a, J_PROGRESS, NULL);
    }
    /* the requests waiting behind it, about once a minute: a row not
       updated for ANL_STALE_MS is taken for one of a node that stopped */
    if (now - g_anl.touched_ms >= 60000) {
        g_anl.touched_ms = now;
        for (anl *w = a->next; w; w = w->next)
            job_write(w, J_TOUCH, NULL);
    }
    kick();
}

/* The head request's next decision to the workers, if none is out. */
static void kick(void)
{
    anl *a = g_anl.head;
    if (!a || a->running || a->storing || g_tables.stopping)
        return;
    if (a->next_dec == 0 && !a->started_ms) {
        a->started_ms = srv_now_ms();
        a->reported_ms = a->started_ms;
        job_write(a, J_PROGRESS, NULL);
    }
    a->running = 1;
    if (srv_bots_task(g_tables.bots, 1, task_run, task_done, a) != 0) {
        a->running = 0;
        snprintf(a->err, sizeof a->err, "the bot workers cannot take it");
        a->storing = 1;
        job_write(a, J_FAILED, stored);
    }
}

/* ---- requests ------------------------------------------------------------------------ */

/* The request's states and moves from the moves read; NULL with why. */
static anl *anl_make(anl_job *j, const srv_anl_limits *l, char *why, size_t n)
{
    int nm = (int)json_array_size(j->moves);
    if (nm == 0) {
        snprintf(why, n, "the game has no moves to analyse");
        return NULL;
    }
    anl *a = calloc(1, sizeof *a);
    if (!a || !(a->before = calloc((size_t)nm, sizeof *a->before)) ||
        !(a->rows = calloc((size_t)nm, sizeof *a->rows))) {
        anl_free(a);
        snprintf(why, n, "out of memory");
        return NULL;
    }
    memcpy(a->game, j->game, sizeof a->game);
    memcpy(a->requester, j->requester, sizeof a->requester);
    memcpy(a->node, j->node, sizeof a->node);
    a->n = nm;
    a->np = j->start.nplayers;
    ch_state st = j->start;
    for (int i = 0; i < nm; i++) {
        json_t *mv = json_array_get(j->moves, (size_t)i);
        int p = (int)json_integer_value(json_object_get(mv, "player"));
        const char *text = json_string_value(json_object_get(mv, "move"));
        ch_msg msg = {"the move text is missing"};
        a->before[i] = st;
        a->rows[i].player = p;
        if (!text || ch_move_parse(&st, p, text, &a->rows[i].played, &msg) != CH_OK ||
            ch_apply(&st, p, a->rows[i].played, &msg) != CH_OK) {
            snprintf(why, n, "stored move %d does not replay: %s", i, msg.text);
            anl_free(a);
            return NULL;
        }
    }
    ch_review_opts_default(&a->o);
    a->o.width = ANL_WIDTH;
    a->o.iterations = l->iterations;
    /* the game's budget spread over its decisions */
    a->o.cpu = l->cpu_game / nm < l->cpu_decision ? l->cpu_game / nm : l->cpu_decision;
    if (a->o.cpu < 0.001)
        a->o.cpu = 0.001;
    return a;
}

static void request_back(void *arg)
{
    anl_job *j = arg;
    if (j->status != 202 || !j->moves) {
        json_t *b = j->body;
        j->body = NULL;
        if (!b)
            b = json_pack("{s:s}", "error", "the database could not do it: try again later");
        answer(j, j->status, b);
        job_free(j);
        return;
    }
    srv_anl_limits l;
    srv_analysis_limits(&l);
    char why[300];
    anl *a = g_tables.stopping ? NULL : anl_make(j, &l, why, sizeof why);
    if (!a) {
        if (g_tables.stopping)
            snprintf(why, sizeof why, "the server is stopping");
        anl_job *f = calloc(1, sizeof *f);
        if (f) { /* the row says why, for every node */
            f->kind = J_FAILED;
            memcpy(f->game, j->game, sizeof f->game);
            snprintf(f->err, sizeof f->err, "%s", why);
            if (srv_dbjob_submit(job_run, job_done_plain, f) != 0)
                free(f);
        }
        answer(j, 500, json_pack("{s:s}", "error", why));
        job_free(j);
        return;
    }
    if (g_anl.tail)
        g_anl.tail->next = a;
    else
        g_anl.head = a;
    g_anl.tail = a;
    g_anl.nqueued++;
    json_t *p = progress_json(a);
    json_object_set_new(p, "node", json_string(a->node));
    answer(j, 202, p);
    job_free(j);
    kick();
}

static void get_back(void *arg)
{
    anl_job *j = arg;
    json_t *b = j->body;
    j->body = NULL;
    if (!b)
        b = json_pack("{s:s}", "error", "the database could not read it: try again later");
    answer(j, j->status, b);
    job_free(j);
}

void srv_analysis_get(const char *game, srv_anl_answer cb, void *ctx)
{
    anl *a = anl_find(game);
    if (a) { /* under way here: its progress, from memory */
        json_t *p = progress_json(a);
        json_object_set_new(p, "node", json_string(a->node));
        cb(ctx, 202, p);
        return;
    }
    anl_job *j = calloc(1, sizeof *j);
    if (!j) {
        cb(ctx, 500, json_pack("{s:s}", "error", "out of memory"));
        return;
    }
    j->kind = J_GET;
    snprintf(j->game, sizeof j->game, "%s", game);
    j->answer = cb;
    j->ctx = ctx;
    if (srv_dbjob_submit(job_run, get_back, j) != 0) {
        j->answer = NULL;
        job_free(j);
        cb(ctx, 503, json_pack("{s:s}", "error", "the server is busy: try again"));
    }
}

void srv_analysis_request(srv_game *g, const char *requester, const char *origin,
                          const char *node, srv_anl_answer cb, void *ctx)
{
    if (g->status != GAME_OVER) {
        cb(ctx, 403, json_pack("{s:s}", "error", "the game is not over yet: an analysis is "
                               "of a finished game"));
        return;
    }
    if (!requester || !requester[0]) {
        cb(ctx, 401, json_pack("{s:s}", "error", "an analysis is asked for by a session: "
                               "play as a guest or log in first"));
        return;
    }
    anl *a = anl_find(g->id);
    if (a) {
        json_t *p = progress_json(a);
        json_object_set_new(p, "node", json_string(a->node));
        cb(ctx, 202, p);
        return;
    }
    if (g_anl.nqueued >= ANL_QUEUE_MAX) {
        cb(ctx, 503, json_pack("{s:s,s:i}", "error", "too many analyses are waiting on this "
                               "server: try again later", "retry_after", 300));
        return;
    }
    anl_job *j = calloc(1, sizeof *j);
    srv_game *r = calloc(1, sizeof *r);
    char why[300];
    if (!j || !r) {
        free(j);
        free(r);
        cb(ctx, 500, json_pack("{s:s}", "error", "out of memory"));
        return;
    }
    /* the first state, as the replay makes it */
    r->setup = g->setup;
    memcpy(r->arrangement, g->arrangement, sizeof r->arrangement);
    r->position = g->position;
    int bad = srv_game_start_state(r, why, sizeof why);
    j->start = r->st;
    free(r);
    if (bad) {
        free(j);
        cb(ctx, 500, json_pack("{s:s}", "error", why));
        return;
    }
    srv_anl_limits l;
    srv_analysis_limits(&l);
    j->kind = J_REQUEST;
    memcpy(j->game, g->id, sizeof j->game);
    snprintf(j->requester, sizeof j->requester, "%s", requester);
    snprintf(j->origin, sizeof j->origin, "%s", origin ? origin : "");
    snprintf(j->node, sizeof j->node, "%s", node ? node : "");
    j->per_day = l.per_day;
    j->answer = cb;
    j->ctx = ctx;
    if (srv_dbjob_submit(job_run, request_back, j) != 0) {
        j->answer = NULL;
        job_free(j);
        cb(ctx, 503, json_pack("{s:s}", "error", "the server is busy: try again"));
    }
}

/* A hint under way: the seat's state copied, the answer's handle. */
typedef struct hint_task {
    char game[SRV_ID_HEX + 1];
    int seat, decision;
    ch_state st;
    uint64_t seed;
    long iterations;
    srv_hint h;
    int rc;
    char why[256];
    srv_anl_answer cb;
    void *ctx;
    struct hint_task *next, *prev; /* out (g_hints), for the stop */
} hint_task;

static hint_task *g_hints;

/* The last hints given (game, seat, decision): asked again at the same
 * decision, the same answer without another search, and not counted again. */
#define HINT_CACHE 64
static struct hint_cached {
    char game[SRV_ID_HEX + 1];
    int seat, decision;
    json_t *body;
} g_hint_cache[HINT_CACHE];
static int g_hint_next;

static struct hint_cached *hint_cached(const char *game, int seat, int decision)
{
    for (int i = 0; i < HINT_CACHE; i++)
        if (g_hint_cache[i].body && g_hint_cache[i].seat == seat &&
            g_hint_cache[i].decision == decision && !strcmp(g_hint_cache[i].game, game))
            return &g_hint_cache[i];
    return NULL;
}

static void hint_unlink(hint_task *t)
{
    if (t->prev)
        t->prev->next = t->next;
    else
        g_hints = t->next;
    if (t->next)
        t->next->prev = t->prev;
}

json_t *srv_analysis_stats(void)
{
    int running = g_anl.head && (g_anl.head->running || g_anl.head->next_dec > 0);
    return json_pack("{s:i,s:i,s:I,s:f}", "queued", g_anl.nqueued - running, "running",
                     running, "done", (json_int_t)g_anl.done_total, "cpu",
                     round(g_anl.cpu_total * 1000) / 1000);
}

void srv_analysis_stop(void)
{
    /* after the bot workers stopped: a task still out was dropped */
    for (anl *a = g_anl.head, *nx; a; a = nx) {
        nx = a->next;
        anl_free(a);
    }
    g_anl.head = g_anl.tail = NULL;
    g_anl.nqueued = 0;
    for (int i = 0; i < HINT_CACHE; i++) {
        json_decref(g_hint_cache[i].body);
        g_hint_cache[i].body = NULL;
    }
    /* hints still out: dropped by the workers' stop; their requests are
       answered so that nothing waits or leaks */
    while (g_hints) {
        hint_task *t = g_hints;
        hint_unlink(t);
        t->cb(t->ctx, 503, json_pack("{s:s}", "error", "the server is stopping"));
        free(t);
    }
}

/* ---- hints ------------------------------------------------------------------------ */

int srv_hint_compute(const ch_state *st, int seat, uint64_t seed, long iterations,
                     srv_hint *out, ch_msg *err)
{
    /* the move compared with the bot's best: the seat's first legal move
       (what the seat may do depends only on what it can see) */
    ch_move first;
    if (ch_legal(st, seat, &first, 1) < 1) {
        snprintf(err->text, sizeof err->text, "this seat has no move to make");
        return CH_ETURN;
    }
    ch_review_opts o;
    ch_review_opts_default(&o);
    o.iterations = iterations;
    o.width = ANL_WIDTH;
    o.seed = seed;
    ch_review rv;
    int rc = ch_review_decision(st, seat, first, &o, &rv, err);
    if (rc != CH_OK)
        return rc;
    memset(out, 0, sizeof *out);
    out->best = rv.best;
    out->other = first;
    out->best_win = rv.best_win[seat];
    out->other_win = rv.played_win[seat];
    out->narms = rv.narms;
    out->same = rv.best.type == first.type && rv.best.a == first.a && rv.best.b == first.b &&
                rv.best.c == first.c && rv.best.n == first.n;
    return CH_OK;
}

static void hint_run(void *arg)
{
    hint_task *t = arg;
    ch_msg err = {{0}};
    t->rc = srv_hint_compute(&t->st, t->seat, t->seed, t->iterations, &t->h, &err);
    if (t->rc != CH_OK)
        snprintf(t->why, sizeof t->why, "%s", err.text);
}

static void hint_done(void *arg)
{
    hint_task *t = arg;
    hint_unlink(t);
    if (t->rc != CH_OK) {
        t->cb(t->ctx, 500, json_pack("{s:s}", "error", t->why));
        free(t);
        return;
    }
    srv_game *g = srv_game_find(t->game);
    if (g && t->seat < g->nseats) { /* counted on the seat, stored with the seats */
        g->seat[t->seat].hints++;
        g->meta_dirty = 1;
        srv_commit_schedule(g);
        srv_game_changed(g); /* the table shows the seat's hints at once */
    }
    char m[160], o[160];
    ch_move_str(&t->st, t->h.best, m, sizeof m);
    ch_move_str(&t->st, t->h.other, o, sizeof o);
    json_t *b = json_pack("{s:s,s:i,s:i,s:s,s:o,s:f,s:s,s:o,s:f,s:b,s:i,s:I}", "game", t->game,
                          "seat", t->seat, "decision", t->decision, "move", m, "text",
                          in_langs(&t->st, t->h.best), "chance",
                          round(t->h.best_win * 1000) / 1000, "other", o, "other_text",
                          in_langs(&t->st, t->h.other), "other_chance",
                          round(t->h.other_win * 1000) / 1000, "same", t->h.same, "compared",
                          t->h.narms, "iterations", (json_int_t)t->iterations);
    struct hint_cached *c = &g_hint_cache[g_hint_next];
    g_hint_next = (g_hint_next + 1) % HINT_CACHE;
    json_decref(c->body);
    memcpy(c->game, t->game, sizeof c->game);
    c->seat = t->seat;
    c->decision = t->decision;
    c->body = json_deep_copy(b);
    t->cb(t->ctx, 200, b);
    free(t);
}

/* A hint's seed: of the game's id and the decision, never of the deal (the
 * game's seed would say what the seat cannot see). */
static uint64_t hint_seed(const char *id, int decision)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = id; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    return h ^ ((uint64_t)decision * 0x9E3779B97F4A7C15ull);
}

int srv_hint_allowed(const srv_game *g, const char **why)
{
    if (srv_game_rated(g)) {
        *why = "no hints in a rated game";
        return 403;
    }
    int bots = 0;
    for (int i = 0; i < g->nseats; i++)
        bots += g->seat[i].kind == SEAT_BOT;
    if (!bots) {
        *why = "hints are for games against bots";
        return 403;
    }
    if (g->status != GAME_PLAYING) {
        *why = "the game is not being played";
        return 409;
    }
    return 0;
}

void srv_hint_request(srv_game *g, const char *owner, srv_anl_answer cb, void *ctx)
{
    const char *why = NULL;
    int st = srv_hint_allowed(g, &why);
    if (st) {
        cb(ctx, (unsigned)st, json_pack("{s:s}", "error", why));
        return;
    }
    int seat = -1;
    for (int i = 0; i < g->nseats && owner && owner[0]; i++)
        if (g->seat[i].kind == SEAT_HUMAN && !strcmp(g->seat[i].owner, owner) &&
            srv_seat_decides(g, i)) {
            seat = i;
            break;
        }
    if (seat < 0) {
        cb(ctx, 409, json_pack("{s:s}", "error", "it is not your turn in this game"));
        return;
    }
    /* one search a seat and decision: asked again, the same answer */
    struct hint_cached *c = hint_cached(g->id, seat, g->nmoves);
    if (c) {
        json_t *b = json_deep_copy(c->body);
        cb(ctx, b ? 200 : 500, b ? b : json_pack("{s:s}", "error", "out of memory"));
        return;
    }
    for (hint_task *o = g_hints; o; o = o->next)
        if (o->seat == seat && o->decision == g->nmoves && !strcmp(o->game, g->id)) {
            cb(ctx, 429, json_pack("{s:s,s:i}", "error", "the bot is still thinking about "
                                   "your last hint", "retry_after", 1));
            return;
        }
    hint_task *t = calloc(1, sizeof *t);
    if (!t) {
        cb(ctx, 500, json_pack("{s:s}", "error", "out of memory"));
        return;
    }
    srv_anl_limits l;
    srv_analysis_limits(&l);
    memcpy(t->game, g->id, sizeof t->game);
    t->seat = seat;
    t->decision = g->nmoves;
    t->st = g->st;
    t->seed = hint_seed(g->id, g->nmoves);
    t->iterations = l.hint_iterations;
    t->cb = cb;
    t->ctx = ctx;
    if (srv_bots_task(g_tables.bots, 0, hint_run, hint_done, t) != 0) {
        free(t);
        cb(ctx, 503, json_pack("{s:s}", "error", "the server is busy: try again"));
        return;
    }
    t->next = g_hints;
    if (g_hints)
        g_hints->prev = t;
    g_hints = t;
}
