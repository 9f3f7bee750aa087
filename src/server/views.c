/* views.c: builds the players' views (ch_view_to_json) on worker threads.
 * A view is most of a state frame's cost, and every accepted move needs one
 * per seat that has a client; building them beside the event loop lets the
 * loop go on reading moves, committing and writing meanwhile. After a
 * commit the game asks for the views of its decision (a copy of the state
 * goes with the job); when they are back the game keeps them as a cache
 * until every client has been written its frame, and its clients become
 * writable. A job that comes back for a decision the game has left is
 * dropped and asked again.
 */
#include <pthread.h>
#include <string.h>

#include "server.h"

typedef struct vjob {
    struct vjob *next;
    srv_game *game;
    int decision;
    unsigned mask;              /* bit 0 spectator, bit s+1 seat s */
    ch_state st;
    char *view[CH_MAX_PLAYERS + 1];
} vjob;

struct srv_views {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    vjob *todo_head, *todo_tail, *done;
    int stop, nthreads;
    pthread_t th[16];
};

static void *worker(void *arg)
{
    srv_views *v = arg;
    for (;;) {
        pthread_mutex_lock(&v->mu);
        while (!v->todo_head && !v->stop)
            pthread_cond_wait(&v->cv, &v->mu);
        if (v->stop) {
            pthread_mutex_unlock(&v->mu);
            return NULL;
        }
        vjob *j = v->todo_head;
        v->todo_head = j->next;
        if (!v->todo_head)
            v->todo_tail = NULL;
        pthread_mutex_unlock(&v->mu);
        for (int k = 0; k <= CH_MAX_PLAYERS; k++)
            if ((j->mask >> k) & 1u)
                j->view[k] = ch_view_json(&j->st, k - 1, SRV_VIEW_FLAGS);
        pthread_mutex_lock(&v->mu);
        j->next = v->done;
        v->done = j;
        pthread_mutex_unlock(&v->mu);
        if (g_srv->ctx)
            lws_cancel_service(g_srv->ctx);
    }
}

srv_views *srv_views_start(int nthreads)
{
    if (nthreads < 1)
        return NULL;
    srv_views *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    pthread_mutex_init(&v->mu, NULL);
    pthread_cond_init(&v->cv, NULL);
    for (int i = 0; i < nthreads && i < 16; i++)
        if (pthread_create(&v->th[i], NULL, worker, v) == 0)
            v->nthreads++;
    if (!v->nthreads) {
        free(v);
        return NULL;
    }
    return v;
}

static void job_free(vjob *j)
{
    for (int k = 0; k <= CH_MAX_PLAYERS; k++)
        ch_free(j->view[k]);
    free(j);
}

void srv_views_stop(srv_views *v)
{
    if (!v)
        return;
    pthread_mutex_lock(&v->mu);
    v->stop = 1;
    pthread_cond_broadcast(&v->cv);
    pthread_mutex_unlock(&v->mu);
    for (int i = 0; i < v->nthreads; i++)
        pthread_join(v->th[i], NULL);
    for (vjob *j = v->todo_head, *nx; j; j = nx) {
        nx = j->next;
        job_free(j);
    }
    for (vjob *j = v->done, *nx; j; j = nx) {
        nx = j->next;
        job_free(j);
    }
    free(v);
}

void srv_views_clear(srv_game *g)
{
    for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
        ch_free(g->vcache[k]);
        g->vcache[k] = NULL;
    }
    g->vcache_decision = -1;
}

/* Free the cache once no client of the game still waits for its frame. */
void srv_views_release(srv_game *g)
{
    if (g->vcache_decision < 0)
        return;
    for (srv_client *c = g->clients; c; c = c->gnext)
        if (c->state_dirty)
            return;
    srv_views_clear(g);
}

int srv_views_request(srv_views *v, srv_game *g)
{
    if (g->views_job) { /* one at a time per game: ask again when it is back */
        g->views_again = 1;
        return 0;
    }
    unsigned mask = 0;
    for (srv_client *c = g->clients; c; c = c->gnext)
        mask |= 1u << (c->seat + 1);
    if (!mask)
        return 0;
    vjob *j = calloc(1, sizeof *j);
    if (!j)
        return -1;
    j->game = g;
    j->decision = g->nmoves;
    j->mask = mask;
    j->st = g->st;
    g->views_job = 1;
    g->views_again = 0;
    pthread_mutex_lock(&v->mu);
    if (v->todo_tail)
        v->todo_tail->next = j;
    else
        v->todo_head = j;
    v->todo_tail = j;
    pthread_cond_signal(&v->cv);
    pthread_mutex_unlock(&v->mu);
    return 0;
}

void srv_views_drain(srv_views *v)
{
    pthread_mutex_lock(&v->mu);
    vjob *list = v->done;
    v->done = NULL;
    pthread_mutex_unlock(&v->mu);
    for (vjob *j = list, *nx; j; j = nx) {
        nx = j->next;
        srv_game *g = j->game;
        int decision = j->decision;
        g->views_job = 0;
        if (j->decision == g->nmoves && g->npending == 0) {
            srv_views_clear(g);
            memcpy(g->vcache, j->view, sizeof g->vcache);
            memset(j->view, 0, sizeof j->view);
            g->vcache_decision = j->decision;
            for (srv_client *c = g->clients; c; c = c->gnext)
                srv_client_want_state(c);
        }
        job_free(j);
        if (g->views_again || decision != g->nmoves)
            srv_game_changed(g);
    }
}
