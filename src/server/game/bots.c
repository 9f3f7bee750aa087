/* bots.c: bots play their seats (and stand in for away humans) on worker
 * threads, so that a slow search (ISMCTS) never blocks the event loop. A job
 * carries a copy of the state and the seat's bot; the worker's answer goes
 * back through a locked queue, and lws_cancel_service wakes the event loop,
 * which applies the move like any client's (play.c) if the game is still
 * where the bot saw it (or the move is still legal: sealed bids).
 *
 * Nobody's bots starve (issue 28 item 5: 19 games of ISMCTS bots only took
 * another game's greedy reply from 6 ms to a median of 18.9 s, stand-ins
 * waiting in the same line). Jobs wait in three queues, each first come
 * first served (a game has one job per deciding seat in line at most, so
 * each is a round robin over its games): stand-ins for people whose turn
 * timer ran out first, then the bots of games with a person, then the bots
 * of games of bots only; and games of bots only may use all workers but
 * one (with two or more), so a person's bot never waits for more than the
 * jobs of other people's games. The running games of bots only are capped
 * per address and in all (srv_bots_admit, at creation).
 *
 * Other work may use the same workers as a task (srv_bots_task: a function
 * run on a worker, its answer applied on the loop): a hint for a person
 * waits in the line of games with a person; the analysis of a finished game
 * (analysis.c, issue 33) in a fourth line after all the others, one task at
 * a time, each one decision's analysis, so that a bot of a live game waits
 * at most for one decision's analysis, never for a whole game's.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game_impl.h"

enum { Q_STANDIN, Q_PERSON, Q_BOTS, Q_ANALYSIS, NQ };

typedef struct job {
    struct job *next;
    srv_game *game;
    int seat;
    int decision;
    int q;                      /* Q_* */
    int64_t queued_us;          /* when it was queued (chartered_bot_wait_seconds) */
    ch_bot *bot;
    ch_state st;
    ch_move move;
    int rc;
    char why[256];
    void (*task)(void *arg);    /* a task (srv_bots_task): run on a worker */
    void (*task_done)(void *arg); /* then this on the loop */
    void *arg;
} job;

struct srv_bots {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    job *head[NQ], *tail[NQ];
    job *done;
    int stop;
    int nthreads;
    int bots_busy;              /* workers on a job of a game of bots only */
    int bots_max;               /* at most this many (nthreads - 1, at least 1) */
    int analysis_busy;          /* workers on an analysis task (at most one) */
    pthread_t th[16];
};

/* The next job a worker may take (under the lock), or NULL. */
static job *take(srv_bots *b)
{
    for (int q = 0; q < NQ; q++) {
        if (!b->head[q] || (q == Q_BOTS && b->bots_busy >= b->bots_max) ||
            (q == Q_ANALYSIS && b->analysis_busy >= 1))
            continue;
        job *j = b->head[q];
        b->head[q] = j->next;
        if (!b->head[q])
            b->tail[q] = NULL;
        if (q == Q_BOTS)
            b->bots_busy++;
        if (q == Q_ANALYSIS)
            b->analysis_busy++;
        srv_metrics_add(SRV_G_BOT_QUEUE, -1);
        srv_metrics_observe(SRV_H_BOT_WAIT, srv_metrics_now_us() - j->queued_us);
        return j;
    }
    return NULL;
}

/* j at the end of its queue (j->q), and the workers told. */
static void push(srv_bots *b, job *j)
{
    pthread_mutex_lock(&b->mu);
    if (b->tail[j->q])
        b->tail[j->q]->next = j;
    else
        b->head[j->q] = j;
    b->tail[j->q] = j;
    /* every waiting worker: the one woken first may not take a job of bots
       only (all but one worker on them) while another could */
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

static void *worker(void *arg)
{
    srv_bots *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->mu);
        job *j = NULL;
        while (!b->stop && !(j = take(b)))
            pthread_cond_wait(&b->cv, &b->mu);
        if (b->stop) {
            if (j) { /* freed with the queues' (srv_bots_stop) */
                j->next = b->done;
                b->done = j;
            }
            pthread_mutex_unlock(&b->mu);
            return NULL;
        }
        pthread_mutex_unlock(&b->mu);

        if (j->task) {
            j->task(j->arg);
        } else {
            ch_msg msg;
            j->rc = ch_bot_choose(j->bot, &j->st, j->seat, &j->move, &msg);
            if (j->rc != CH_OK)
                snprintf(j->why, sizeof j->why, "%s", msg.text);
        }

        pthread_mutex_lock(&b->mu);
        j->next = b->done;
        b->done = j;
        if (j->q == Q_BOTS || j->q == Q_ANALYSIS) {
            if (j->q == Q_BOTS)
                b->bots_busy--;
            else
                b->analysis_busy--;
            pthread_cond_signal(&b->cv); /* a waiting job of that line may go */
        }
        pthread_mutex_unlock(&b->mu);
        if (g_net.ctx)
            lws_cancel_service(g_net.ctx);
    }
}

srv_bots *srv_bots_start(int nthreads)
{
    srv_bots *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    if (nthreads < 1)
        nthreads = 1;
    if (nthreads > 16)
        nthreads = 16;
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->cv, NULL);
    b->bots_max = nthreads > 1 ? nthreads - 1 : 1;
    for (int i = 0; i < nthreads; i++) {
        if (pthread_create(&b->th[i], NULL, worker, b) != 0)
            break;
        b->nthreads++;
    }
    if (b->nthreads == 0) {
        free(b);
        return NULL;
    }
    if (b->nthreads < nthreads) { /* fewer threads than asked: keep one for people */
        pthread_mutex_lock(&b->mu);
        b->bots_max = b->nthreads > 1 ? b->nthreads - 1 : 1;
        pthread_mutex_unlock(&b->mu);
    }
    return b;
}

void srv_bots_stop(srv_bots *b)
{
    if (!b)
        return;
    pthread_mutex_lock(&b->mu);
    b->stop = 1;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
    for (int i = 0; i < b->nthreads; i++)
        pthread_join(b->th[i], NULL);
    for (int q = 0; q < NQ; q++)
        for (job *j = b->head[q], *nx; j; j = nx) {
            nx = j->next;
            free(j);
        }
    for (job *j = b->done, *nx; j; j = nx) {
        nx = j->next;
        free(j);
    }
    free(b);
}

int srv_seat_make_bot(srv_game *g, int s, char *why, size_t n)
{
    srv_seat *seat = &g->seat[s];
    const char *name = seat->kind == SEAT_BOT ? seat->bot : "greedy";
    char opts[64] = "";
    if (strcmp(name, "ismcts") == 0) {
        /* playouts cut at 60 decisions and scored: faster, and the stronger
         * setting against greedy (docs/bots.md) */
        static const int iters[4] = {0, 100, 300, 1000};
        int k = seat->strength >= 1 && seat->strength <= 3 ? seat->strength : 2;
        snprintf(opts, sizeof opts, "iterations=%d,depth=60,memory=16", iters[k]);
    }
    ch_msg msg;
    uint64_t seed = g->setup.seed * 1000003u + (uint64_t)s * 7919u + 17u;
    if (ch_bot_new(&seat->bot_inst, name, opts[0] ? opts : NULL, seed, &msg) != CH_OK) {
        snprintf(why, n, "%s", msg.text);
        seat->bot_inst = NULL;
        return -1;
    }
    return 0;
}

int srv_bots_submit(srv_bots *b, srv_game *g, int s)
{
    if (!b)
        return -1;
    job *j = malloc(sizeof *j);
    if (!j)
        return -1;
    j->next = NULL;
    j->task = NULL;
    j->task_done = NULL;
    j->arg = NULL;
    j->game = g;
    j->seat = s;
    j->decision = g->nmoves;
    j->bot = g->seat[s].bot_inst;
    j->st = g->st;
    j->rc = 0;
    j->why[0] = 0;
    j->q = g->seat[s].kind != SEAT_BOT ? Q_STANDIN : srv_game_bots_only(g) ? Q_BOTS : Q_PERSON;
    j->queued_us = srv_metrics_now_us();
    srv_metrics_add(SRV_G_BOT_QUEUE, 1);
    push(b, j);
    return 0;
}

int srv_bots_task(srv_bots *b, int analysis, void (*run)(void *), void (*done)(void *),
                  void *arg)
{
    if (!b)
        return -1;
    job *j = calloc(1, sizeof *j);
    if (!j)
        return -1;
    j->task = run;
    j->task_done = done;
    j->arg = arg;
    j->q = analysis ? Q_ANALYSIS : Q_PERSON;
    push(b, j);
    return 0;
}

int srv_game_bots_only(const srv_game *g)
{
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind != SEAT_BOT)
            return 0;
    return g->nseats > 0;
}

/* A limit of the games of bots only: its environment variable (a whole
 * number from 1 to 100,000), else its default. */
static long botgames_limit(const char *var, long dflt)
{
    const char *e = getenv(var);
    if (!e || !*e)
        return dflt;
    char *end;
    long v = strtol(e, &end, 10);
    if (*end || v < 1 || v > 100000) {
        static int said;
        if (!said++)
            srv_logf(SRV_LOG_WARN, "config.ignored", "variable=%s value=%s must be 1 to 100000: "
                    "%ld kept", var, e, dflt);
        return dflt;
    }
    return v;
}

long srv_botgames_limit(int all)
{
    return all ? botgames_limit("CHARTERED_BOTGAMES_MAX", SRV_BOTGAMES_MAX)
               : botgames_limit("CHARTERED_BOTGAMES_PER_ADDRESS", SRV_BOTGAMES_PER_ADDR);
}

int srv_bots_admit(const srv_game *g, const char *addr, char *why, size_t n, int *retry_s)
{
    if (!srv_game_bots_only(g))
        return 0;
    long per_addr = srv_botgames_limit(0);
    long all = srv_botgames_limit(1);
    long mine = 0, total = 0;
    for (const srv_game *o = g_tables.games; o; o = o->lnext)
        if (o != g && o->status == GAME_PLAYING && srv_game_bots_only(o)) {
            total++;
            if (!strcmp(o->creator_addr, addr))
                mine++;
        }
    *retry_s = 60;
    if (!srv_addr_exempt(addr) && mine >= per_addr) {
        snprintf(why, n, "your address already runs %ld games of bots only (at most %ld): "
                 "watch one to its end first", mine, per_addr);
        return 429;
    }
    if (total >= all) {
        snprintf(why, n, "the server already runs %ld games of bots only (at most %ld): "
                 "try again later", total, all);
        return 503;
    }
    return 0;
}

void srv_bots_drain(srv_bots *b)
{
    pthread_mutex_lock(&b->mu);
    job *list = b->done;
    b->done = NULL;
    pthread_mutex_unlock(&b->mu);
    for (job *j = list, *nx; j; j = nx) {
        nx = j->next;
        if (j->task) { /* its owner applies it (and owns arg) */
            j->task_done(j->arg);
            free(j);
            continue;
        }
        srv_game *g = j->game;
        srv_seat *seat = &g->seat[j->seat];
        seat->job = 0;
        /* a human took the seat back, or the game moved on */
        int plays = seat->kind == SEAT_BOT || seat->away;
        if (j->rc == CH_OK && plays && srv_seat_decides(g, j->seat)) {
            char why[256];
            int rc = srv_play_move(g, j->seat, j->move, why, sizeof why);
            srv_metrics_inc(SRV_M_MOVES_RECEIVED_BOT, 1);
            srv_count_refused(rc);
            /* a game this node cannot play now (the database is down, or
               the lease is another node's) refuses every move: not the
               bot's fault, and db.lost has said why (pg_server_storage) */
            if (rc != MOVE_OK && rc != MOVE_NO_LEASE && j->decision == g->nmoves &&
                !g_tables.draining)
                srv_logf(SRV_LOG_ERROR, "bot.bad_move", "game=%s seat=%d a bot made a bad move: %s",
                        g->id, j->seat, why);
        } else if (j->rc != CH_OK && plays && srv_seat_decides(g, j->seat)) {
            /* a bot that cannot choose must not stall the game: its first
               legal move stands in */
            srv_logf(SRV_LOG_ERROR, "bot.failed", "game=%s seat=%d a bot failed: %s", g->id,
                    j->seat, j->why);
            ch_move m;
            char why[256];
            if (ch_legal(&g->st, j->seat, &m, 1) > 0) {
                srv_metrics_inc(SRV_M_MOVES_RECEIVED_BOT, 1);
                srv_count_refused(srv_play_move(g, j->seat, m, why, sizeof why));
            }
        }
        free(j);
        /* a job that lost the race is asked again for the new decision */
        srv_game_kick_bots(g);
    }
}
