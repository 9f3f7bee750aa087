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
 * (ch_views_json_since: what every viewer sees alike is written once, and
 * what did not change since the perspective's previous view, whose state
 * each view keeps, is copied from it), and each view comes with its bracket
 * index from the writer, which the diff walks. The job also makes the
 * legal moves of the seats that decide (play.c, srv_legal_make), which the
 * event loop then finds made.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "game/game_impl.h"

typedef struct vjob {
    struct vjob *next;
    srv_game *game;
    int decision;
    unsigned mask;              /* bit 0 spectator, bit s+1 seat s */
    unsigned pmask;             /* the perspectives a client takes patches of */
    ch_state st;
    srv_view *old[CH_MAX_PLAYERS + 1];  /* the game's views the patches start from,
                                           and the writer copies from (a
                                           reference: shared, never copied) */
    int base[CH_MAX_PLAYERS + 1];       /* their decisions */
    srv_view *view[CH_MAX_PLAYERS + 1]; /* made here, each with its patch */
    unsigned lmask;             /* bit s: seat s's legal moves wanted (play.c) */
    char *legal[CH_MAX_PLAYERS];        /* made here (srv_legal_make) */
} vjob;

/* What a thread that makes views keeps from one to the next, so that a
 * view costs one malloc (its block) and nothing else: the writer's buffers
 * of each perspective, the patch's, and the memo of shared patches. */
typedef struct vscratch {
    ch_view_buf vb[CH_MAX_PLAYERS + 1];
    chx_buf patch;
    srv_jmemo *memo;
} vscratch;

static void scratch_free(vscratch *sc)
{
    for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
        ch_free(sc->vb[k].text);
        ch_free(sc->vb[k].ix);
    }
    free(sc->patch.s);
    srv_jmemo_free(sc->memo);
    memset(sc, 0, sizeof *sc);
}

srv_view *srv_view_ref(srv_view *v)
{
    if (v)
        atomic_fetch_add(&v->refs, 1);
    return v;
}

/* Dropped views' blocks, for the next views to reuse: a view is made on a
 * worker and dropped on the event loop, and a free() into another thread's
 * malloc arena takes that arena's lock, which the worker holds while it
 * allocates (the futex waits of the profile). The pool is bounded; its
 * lock is held only to push or pick a block. */
#define POOL_MAX 64
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static srv_view *pool;
static int npool;

void srv_view_unref(srv_view *v)
{
    if (!v || atomic_fetch_sub(&v->refs, 1) != 1)
        return;
    /* its text, index and patch are in its block */
    pthread_mutex_lock(&pool_mu);
    if (npool < POOL_MAX) {
        v->pool_next = pool;
        pool = v;
        npool++;
        v = NULL;
    }
    pthread_mutex_unlock(&pool_mu);
    if (v)
        free(v);
}

/* A block of at least need bytes: a dropped one that is large enough (the
 * first found), else a new one with some room to spare, so that the next
 * view of its perspective, a little longer, fits in it again. */
static srv_view *block_get(size_t need)
{
    srv_view *v = NULL, *old = NULL, **last = NULL;
    pthread_mutex_lock(&pool_mu);
    for (srv_view **at = &pool; *at; at = &(*at)->pool_next) {
        if ((*at)->cap >= need) {
            v = *at;
            *at = v->pool_next;
            npool--;
            break;
        }
        last = at;
    }
    if (!v && last && npool >= POOL_MAX / 2) { /* none fits: the oldest dropped goes */
        old = *last;
        *last = NULL;
        npool--;
    }
    pthread_mutex_unlock(&pool_mu);
    if (old)
        free(old);
    if (v)
        return v;
    size_t cap = need + need / 8;
    v = malloc(cap);
    if (v)
        v->cap = cap;
    return v;
}

/* A view in one block: the struct, the index, the text and the patch (when
 * patch is not NULL), copied from the scratch buffers they were made in. */
static srv_view *view_block(const ch_state *st, const ch_view_buf *vb, const char *patch,
                            size_t patch_len)
{
    size_t ixb = vb->nix * sizeof *vb->ix;
    srv_view *v = block_get(sizeof *v + ixb + vb->len + 1 + (patch ? patch_len + 1 : 0));
    if (!v)
        return NULL;
    atomic_init(&v->refs, 1);
    v->pool_next = NULL;
    v->st = *st;
    char *at = (char *)(v + 1);
    v->ix.pair = (uint32_t(*)[3])(void *)at;
    v->ix.n = v->ix.cap = vb->nix;
    memcpy(at, vb->ix, ixb);
    at += ixb;
    memcpy(at, vb->text, vb->len + 1);
    v->text = at;
    v->len = vb->len;
    at += vb->len + 1;
    v->patch = NULL;
    v->patch_len = 0;
    if (patch) {
        memcpy(at, patch, patch_len);
        at[patch_len] = '\0';
        v->patch = at;
        v->patch_len = patch_len;
    }
    return v;
}

/* The views of every perspective in mask at once (ch_views_json_buf: the
 * parts every viewer sees alike are written once), each with its patch from
 * old[k] when pmask has k. */
static void make_views(const ch_state *st, unsigned mask, unsigned pmask, srv_view *const *old,
                       srv_view **view, vscratch *sc)
{
    ch_view_prev prev[CH_MAX_PLAYERS + 1];
    for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
        view[k] = NULL;
        /* each perspective's previous view: what did not change is copied */
        const srv_view *o = old[k];
        prev[k] = o ? (ch_view_prev){&o->st, o->text, o->len, (const uint32_t(*)[3])o->ix.pair,
                                     o->ix.n}
                    : (ch_view_prev){0};
    }
    if (ch_views_json_since(st, mask, SRV_VIEW_FLAGS, sc->vb, prev) != 0)
        return;
    /* the patches of the parts every viewer sees alike are the same too:
       made for the first perspective, copied for the others (the memo
       points into old[k] and the scratch texts, kept until the next job) */
    srv_jmemo_reset(sc->memo);
    for (int k = 0; k <= CH_MAX_PLAYERS && k <= st->nplayers; k++) {
        if (!((mask >> k) & 1u))
            continue;
        const ch_view_buf *vb = &sc->vb[k];
        int have = 0;
        sc->patch.len = 0;
        sc->patch.oom = 0;
        if (old[k] && ((pmask >> k) & 1u)) {
            srv_jidx bix = {vb->ix, vb->nix, vb->nix};
            have = srv_json_diff_into(&sc->patch, old[k]->text, old[k]->len, &old[k]->ix,
                                      vb->text, vb->len, &bix, sc->memo) == 0;
        }
        view[k] = view_block(st, vb, have ? sc->patch.s : NULL, sc->patch.len);
    }
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
    /* the worker's buffers, kept from job to job */
    vscratch sc = {0};
    sc.memo = srv_jmemo_new();
    for (;;) {
        pthread_mutex_lock(&v->mu);
        while (!v->todo_head && !v->stop)
            pthread_cond_wait(&v->cv, &v->mu);
        if (v->stop) {
            pthread_mutex_unlock(&v->mu);
            scratch_free(&sc);
            return NULL;
        }
        vjob *j = v->todo_head;
        v->todo_head = j->next;
        if (!v->todo_head)
            v->todo_tail = NULL;
        pthread_mutex_unlock(&v->mu);
        make_views(&j->st, j->mask, j->pmask, j->old, j->view, &sc);
        srv_legal_make(&j->st, j->lmask, j->legal); /* off the loop too */
        pthread_mutex_lock(&v->mu);
        /* the loop is woken once per batch: a list that was not empty has
           a wake-up on its way, and srv_views_drain takes the whole list */
        int wake = v->done == NULL;
        j->next = v->done;
        v->done = j;
        pthread_mutex_unlock(&v->mu);
        if (wake && g_net.ctx)
            lws_cancel_service(g_net.ctx);
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
    }
    srv_legal_free(j->legal);
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

/* Install a view of perspective k at decision d (taken over), with its
 * patch when it holds from the game's previous view. */
static void install(srv_game *g, int k, int d, srv_view *view, int use_patch)
{
    int base = g->vview[k] ? g->vdec[k] : -1;
    srv_view_unref(g->vview[k]);
    g->vview[k] = view;
    g->vdec[k] = d;
    g->vpatch[k] = use_patch ? view->patch : NULL;
    g->vbase[k] = g->vpatch[k] ? base : -1;
}

/* The loop's own buffers, for the views it makes itself (a client that
 * wants one before the workers have it, or no workers). */
static vscratch loop_scratch; /* no memo: one perspective at a time */

int srv_view_here(srv_game *g, int k)
{
    if (g->vview[k] && g->vdec[k] == g->nmoves)
        return 0;
    srv_view *made[CH_MAX_PLAYERS + 1];
    srv_view *old[CH_MAX_PLAYERS + 1] = {0};
    old[k] = g->vview[k];
    make_views(&g->st, 1u << k, 1u << k, old, made, &loop_scratch);
    if (!made[k])
        return -1;
    install(g, k, g->nmoves, made[k], made[k]->patch != NULL);
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
    j->lmask = srv_legal_wanted(g, mask);
    j->st = g->st;
    for (int k = 0; k <= CH_MAX_PLAYERS; k++) {
        j->base[k] = -1;
        if (((mask >> k) & 1u) && g->vview[k] && g->vdec[k] < g->nmoves) {
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
                install(g, k, j->decision, j->view[k], same_base);
                j->view[k] = NULL;
            }
            g->vcache_decision = j->decision;
            srv_legal_install(g, j->decision, &j->st, j->legal);
            for (srv_client *c = g->clients; c; c = c->gnext)
                srv_client_want_state(c);
        }
        job_free(j);
        if (g->views_again || decision != g->nmoves)
            srv_game_changed(g);
    }
}
