/* bots.c: bots play their seats (and stand in for away humans) on worker
 * threads, so that a slow search (ISMCTS) never blocks the event loop. A job
 * carries a copy of the state and the seat's bot; the worker's answer goes
 * back through a locked queue, and lws_cancel_service wakes the event loop,
 * which applies the move like any client's (play.c) if the game is still
 * where the bot saw it (or the move is still legal: sealed bids).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "server.h"

typedef struct job {
    struct job *next;
    srv_game *game;
    int seat;
    int decision;
    ch_bot *bot;
    ch_state st;
    ch_move move;
    int rc;
    char why[256];
} job;

struct srv_bots {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    job *todo_head, *todo_tail;
    job *done;
    int stop;
    int nthreads;
    pthread_t th[16];
};

static void *worker(void *arg)
{
    srv_bots *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->mu);
        while (!b->todo_head && !b->stop)
            pthread_cond_wait(&b->cv, &b->mu);
        if (b->stop) {
            pthread_mutex_unlock(&b->mu);
            return NULL;
        }
        job *j = b->todo_head;
        b->todo_head = j->next;
        if (!b->todo_head)
            b->todo_tail = NULL;
        pthread_mutex_unlock(&b->mu);

        ch_msg msg;
        j->rc = ch_bot_choose(j->bot, &j->st, j->seat, &j->move, &msg);
        if (j->rc != CH_OK)
            snprintf(j->why, sizeof j->why, "%s", msg.text);

        pthread_mutex_lock(&b->mu);
        j->next = b->done;
        b->done = j;
        pthread_mutex_unlock(&b->mu);
        if (g_srv->ctx)
            lws_cancel_service(g_srv->ctx);
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
    for (int i = 0; i < nthreads; i++) {
        if (pthread_create(&b->th[i], NULL, worker, b) != 0)
            break;
        b->nthreads++;
    }
    if (b->nthreads == 0) {
        free(b);
        return NULL;
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
    for (job *j = b->todo_head, *nx; j; j = nx) {
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
    j->game = g;
    j->seat = s;
    j->decision = g->nmoves;
    j->bot = g->seat[s].bot_inst;
    j->st = g->st;
    j->rc = 0;
    j->why[0] = 0;
    pthread_mutex_lock(&b->mu);
    if (b->todo_tail)
        b->todo_tail->next = j;
    else
        b->todo_head = j;
    b->todo_tail = j;
    pthread_cond_signal(&b->cv);
    pthread_mutex_unlock(&b->mu);
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
        srv_game *g = j->game;
        srv_seat *seat = &g->seat[j->seat];
        seat->job = 0;
        /* a human took the seat back, or the game moved on */
        int plays = seat->kind == SEAT_BOT || seat->away;
        if (j->rc == CH_OK && plays && srv_seat_decides(g, j->seat)) {
            char why[256];
            int rc = srv_play_move(g, j->seat, j->move, why, sizeof why);
            if (rc != MOVE_OK && j->decision == g->nmoves)
                lwsl_err("game %s: bot of seat %d made a bad move: %s\n", g->id, j->seat, why);
        } else if (j->rc != CH_OK && plays && srv_seat_decides(g, j->seat)) {
            /* a bot that cannot choose must not stall the game: its first
               legal move stands in */
            lwsl_err("game %s: bot of seat %d failed: %s\n", g->id, j->seat, j->why);
            ch_move m;
            char why[256];
            if (ch_legal(&g->st, j->seat, &m, 1) > 0)
                srv_play_move(g, j->seat, m, why, sizeof why);
        }
        free(j);
        /* a job that lost the race is asked again for the new decision */
        srv_game_kick_bots(g);
    }
}
