/* views.c: builds the players' views (ch_view_to_json) on worker threads,
 * and the JSON Patch from each perspective's previous view (jsondiff.c),
 * which the state frames carry as deltas (docs/protocol.md). A view is most
 * of a state frame's cost, and every accepted move needs one per seat that
 * has a client; building them beside the event loop lets the loop go on
 * reading moves, committing and writing meanwhile. After a commit the game
 * asks for the views of its decision (a copy of the state and of the
 * previous views goes with the job); when they are back the game keeps the
 * newest view and patch of each perspective, which every client of that
 * perspective shares, and its clients become writable. A job that comes
 * back for a decision the game has left is dropped and asked again.
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
    char *old[CH_MAX_PLAYERS + 1];  /* the game's views the patches start from */
    int base[CH_MAX_PLAYERS + 1];   /* their decisions */
    char *patch[CH_MAX_PLAYERS + 1];
    srv_jidx oldix[CH_MAX_PLAYERS + 1]; /* the brackets of old (empty: unknown) */
    srv_jidx newix[CH_MAX_PLAYERS + 1]; /* and of view, made by the diff */
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
            if ((j->mask >> k) & 1u) {
                j->view[k] = ch_view_json(&j->st, k - 1, SRV_VIEW_FLAGS);
                if (j->view[k] && j->old[k])
                    j->patch[k] = srv_json_diff_ix(j->old[k], &j->oldix[k], j->view[k],
                                                   &j->newix[k]);
            }
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
    for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
        ch_free(j->view[k]);
        free(j->old[k]);
        free(j->patch[k]);
        srv_jidx_free(&j->oldix[k]);
        srv_jidx_free(&j->newix[k]);
    }
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
        ch_free(g->vtext[k]);
        free(g->vpatch[k]);
        g->vtext[k] = g->vpatch[k] = NULL;
        g->vbase[k] = -1;
        srv_jidx_free(g->vindex[k]);
        free(g->vindex[k]);
        g->vindex[k] = NULL;
    }
    g->vcache_decision = -1;
    /* the views clients hold may no longer be the game's: whole views next */
    for (srv_client *c = g->clients; c; c = c->gnext)
        c->view_dec = -1;
}

/* Nothing to free once every client has its frame: each perspective's
 * newest view stays for the next move's patch. */
void srv_views_release(srv_game *g)
{
    (void)g;
}

/* Install a view of perspective k at decision d with its patch from the
 * game's previous view and its brackets' index (all taken over). */
static void install(srv_game *g, int k, int d, char *view, char *patch, srv_jidx *ix)
{
    int had = g->vtext[k] != NULL;
    int base = had ? g->vdec[k] : -1;
    ch_free(g->vtext[k]);
    free(g->vpatch[k]);
    g->vtext[k] = view;
    g->vdec[k] = d;
    g->vpatch[k] = patch;
    g->vbase[k] = patch ? base : -1;
    if (!g->vindex[k])
        g->vindex[k] = calloc(1, sizeof *g->vindex[k]);
    srv_jidx_free(g->vindex[k]);
    if (g->vindex[k] && ix) {
        *g->vindex[k] = *ix;
        memset(ix, 0, sizeof *ix);
    } else if (ix) {
        srv_jidx_free(ix);
    }
}

int srv_view_here(srv_game *g, int k)
{
    if (g->vtext[k] && g->vdec[k] == g->nmoves)
        return 0;
    char *view = ch_view_json(&g->st, k - 1, SRV_VIEW_FLAGS);
    if (!view)
        return -1;
    srv_jidx ix = {0};
    char *patch = g->vtext[k] ? srv_json_diff_ix(g->vtext[k], g->vindex[k], view, &ix) : NULL;
    install(g, k, g->nmoves, view, patch, &ix);
    return 0;
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
    for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
        j->base[k] = -1;
        if (((mask >> k) & 1u) && g->vtext[k] && g->vdec[k] < g->nmoves) {
            j->old[k] = strdup(g->vtext[k]); /* NULL: a whole view only */
            j->base[k] = j->old[k] ? g->vdec[k] : -1;
            if (j->old[k] && g->vindex[k] && srv_jidx_copy(&j->oldix[k], g->vindex[k]) != 0)
                memset(&j->oldix[k], 0, sizeof j->oldix[k]); /* made again by the diff */
        }
    }
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
            for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
                if (!j->view[k] || (g->vtext[k] && g->vdec[k] == j->decision))
                    continue; /* not asked, or built on the loop meanwhile */
                /* the patch holds only from the view the game still has */
                int same_base = j->old[k] && g->vtext[k] && g->vdec[k] == j->base[k];
                install(g, k, j->decision, j->view[k], same_base ? j->patch[k] : NULL,
                        &j->newix[k]);
                if (same_base)
                    j->patch[k] = NULL;
                j->view[k] = NULL;
            }
            g->vcache_decision = j->decision;
            for (srv_client *c = g->clients; c; c = c->gnext)
                srv_client_want_state(c);
        }
        job_free(j);
        if (g->views_again || decision != g->nmoves)
            srv_game_changed(g);
    }
}
