/* views.c: builds the players' views (ch_view_to_json) on worker threads,
 * and the JSON Patch from each perspective's previous view (jsondiff.c),
 * which the state frames carry as deltas (docs/protocol.md). A view is most
 * of a state frame's cost, and every accepted move needs one per seat that
 * has a client; building them beside the event loop lets the loop go on
 * reading moves, committing and writing meanwhile. After a commit the game
 * asks for the views of its decision (a copy of the state and a reference to
 * the previous views go with the job; a view is immutable and counted, so
 * nothing is copied); when they are back the game keeps the
 * newest view and patch of each perspective, which every client of that
 * perspective shares, and its clients become writable. A job that comes
 * back for a decision the game has left is dropped and asked again.
 * A job writes the views of all its perspectives in one pass
 * (ch_views_json_ix: what every viewer sees alike is written once), and each
 * view comes with its bracket index from the writer, which the diff walks.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "server.h"

typedef struct vjob {
    struct vjob *next;
    srv_game *game;
    int decision;
    unsigned mask;              /* bit 0 spectator, bit s+1 seat s */
    unsigned pmask;             /* the perspectives a client takes patches of */
    ch_state st;
    srv_view *old[CH_MAX_PLAYERS + 1];  /* the game's views the patches start from
                                           (a reference: shared, never copied) */
    int base[CH_MAX_PLAYERS + 1];       /* their decisions */
    srv_view *view[CH_MAX_PLAYERS + 1]; /* made here */
    char *patch[CH_MAX_PLAYERS + 1];
} vjob;

srv_view *srv_view_ref(srv_view *v)
{
    if (v)
        atomic_fetch_add(&v->refs, 1);
    return v;
}

void srv_view_unref(srv_view *v)
{
    if (v && atomic_fetch_sub(&v->refs, 1) == 1) {
        ch_free(v->text);
        srv_jidx_free(&v->ix);
        free(v);
    }
}

/* The view of perspective k (0 spectator, s+1 seat s) of st, and with
 * want_patch its patch from old (NULL when there is none): the view's
 * bracket index, written with it, is kept for the next one. */
static srv_view *make_view(const ch_state *st, int k, const srv_view *old, int want_patch,
                           char **patch)
{
    *patch = NULL;
    srv_view *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    atomic_init(&v->refs, 1);
    /* the writer hands the bracket index over with the text: the diff
       needs it, and so does the next move's diff (as the old view's) */
    uint32_t (*ix)[3] = NULL;
    size_t nix = 0;
    v->text = ch_view_json_ix(st, k - 1, SRV_VIEW_FLAGS, &ix, &nix);
    if (!v->text) {
        free(v);
        return NULL;
    }
    v->ix.pair = ix;
    v->ix.n = v->ix.cap = nix;
    v->len = strlen(v->text);
    if (old && want_patch)
        *patch = srv_json_diff_ix(old->text, &old->ix, v->text, &v->ix);
    return v;
}

/* The views of every perspective in mask at once (ch_views_json_ix: the
 * parts every viewer sees alike are written once), each with its patch from
 * old[k] when pmask has k. */
static void make_views(const ch_state *st, unsigned mask, unsigned pmask, srv_view *const *old,
                       srv_view **view, char **patch, srv_jmemo *memo)
{
    char *text[CH_MAX_PLAYERS + 1];
    uint32_t (*ix[CH_MAX_PLAYERS + 1])[3];
    size_t nix[CH_MAX_PLAYERS + 1];
    for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
        view[k] = NULL;
        patch[k] = NULL;
    }
    if (ch_views_json_ix(st, mask, SRV_VIEW_FLAGS, text, ix, nix) != 0)
        return;
    /* the patches of the parts every viewer sees alike are the same too:
       made for the first perspective, copied for the others (the memo
       points into old[k] and view[k], which the job keeps) */
    srv_jmemo_reset(memo);
    for (int k = 0; k <= CH_MAX_PLAYERS && k <= st->nplayers; k++) {
        if (!text[k])
            continue;
        srv_view *v = calloc(1, sizeof *v);
        if (!v) {
            ch_free(text[k]);
            ch_free(ix[k]);
            continue;
        }
        atomic_init(&v->refs, 1);
        v->text = text[k];
        v->len = strlen(v->text);
        v->ix.pair = ix[k];
        v->ix.n = v->ix.cap = nix[k];
        if (old[k] && ((pmask >> k) & 1u))
            patch[k] = srv_json_diff_memo(old[k]->text, &old[k]->ix, v->text, &v->ix, memo);
        view[k] = v;
    }
    srv_jmemo_reset(memo);
}

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
    /* the worker's memo of shared patches, its buffer kept from job to job */
    srv_jmemo *memo = srv_jmemo_new();
    for (;;) {
        pthread_mutex_lock(&v->mu);
        while (!v->todo_head && !v->stop)
            pthread_cond_wait(&v->cv, &v->mu);
        if (v->stop) {
            pthread_mutex_unlock(&v->mu);
            srv_jmemo_free(memo);
            return NULL;
        }
        vjob *j = v->todo_head;
        v->todo_head = j->next;
        if (!v->todo_head)
            v->todo_tail = NULL;
        pthread_mutex_unlock(&v->mu);
        make_views(&j->st, j->mask, j->pmask, j->old, j->view, j->patch, memo);
        pthread_mutex_lock(&v->mu);
        /* the loop is woken once per batch: a list that was not empty has
           a wake-up on its way, and srv_views_drain takes the whole list */
        int wake = v->done == NULL;
        j->next = v->done;
        v->done = j;
        pthread_mutex_unlock(&v->mu);
        if (wake && g_srv->ctx)
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
        srv_view_unref(j->view[k]);
        srv_view_unref(j->old[k]);
        free(j->patch[k]);
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
        srv_view_unref(g->vview[k]);
        free(g->vpatch[k]);
        g->vview[k] = NULL;
        g->vpatch[k] = NULL;
        g->vbase[k] = -1;
    }
    g->vcache_decision = -1;
    for (int s = 0; s < CH_MAX_PLAYERS; s++) {
        free(g->legal_json[s]);
        g->legal_json[s] = NULL;
    }
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
 * game's previous view (both taken over). */
static void install(srv_game *g, int k, int d, srv_view *view, char *patch)
{
    int base = g->vview[k] ? g->vdec[k] : -1;
    srv_view_unref(g->vview[k]);
    free(g->vpatch[k]);
    g->vview[k] = view;
    g->vdec[k] = d;
    g->vpatch[k] = patch;
    g->vbase[k] = patch ? base : -1;
}

int srv_view_here(srv_game *g, int k)
{
    if (g->vview[k] && g->vdec[k] == g->nmoves)
        return 0;
    char *patch;
    srv_view *v = make_view(&g->st, k, g->vview[k], 1, &patch);
    if (!v)
        return -1;
    install(g, k, g->nmoves, v, patch);
    return 0;
}

int srv_views_request(srv_views *v, srv_game *g)
{
    if (g->views_job) { /* one at a time per game: ask again when it is back */
        g->views_again = 1;
        return 0;
    }
    unsigned mask = 0, pmask = 0;
    for (srv_client *c = g->clients; c; c = c->gnext) {
        mask |= 1u << (c->seat + 1);
        if (!c->full_frames)
            pmask |= 1u << (c->seat + 1);
    }
    if (!mask)
        return 0;
    vjob *j = calloc(1, sizeof *j);
    if (!j)
        return -1;
    j->game = g;
    j->decision = g->nmoves;
    j->mask = mask;
    j->pmask = pmask;
    j->st = g->st;
    for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
        j->base[k] = -1;
        if (((pmask >> k) & 1u) && g->vview[k] && g->vdec[k] < g->nmoves) {
            j->old[k] = srv_view_ref(g->vview[k]);
            j->base[k] = g->vdec[k];
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
                if (!j->view[k] || (g->vview[k] && g->vdec[k] == j->decision))
                    continue; /* not asked, or built on the loop meanwhile */
                /* the patch holds only from the view the game still has */
                int same_base = j->old[k] && g->vview[k] == j->old[k];
                install(g, k, j->decision, j->view[k], same_base ? j->patch[k] : NULL);
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
