/* ismcts.c: single-observer Information Set Monte Carlo Tree Search.
 *
 * One tree per thread (root parallelism). Each iteration:
 *   1. determinizes the root position again for the searching player
 *      (ch_determinize with a fresh seed: other hands, the deck order, the
 *      level reserve, other players' unrevealed bids, in The Golden Age the
 *      others' holdings);
 *   2. descends the tree by move identity: at a node, the children whose moves
 *      are legal in this determinization are the available ones (each gets its
 *      availability count raised); if some legal move has no child yet and the
 *      node may grow (progressive widening: at most 1 + sqrt(visits) children),
 *      the one greedy ranks best (with random playouts: a random one) is added
 *      and the descent stops; otherwise the child with the best score is
 *      followed: mean reward + C sqrt(ln(availability) / visits) + a
 *      progressive bias, prior * (greedy's opinion, -1..0) / (visits + 1);
 *   3. plays the game out to the end with the greedy policy or random moves
 *      (or, with the option depth=N, for N decisions, and then scores the
 *      position with the evaluation of eval.c);
 *   4. backs up every player's result: 0.7 (option win) for a win (shared
 *      wins split it) plus 0.3 (1 - win) for the score margin over the best
 *      other player, squashed to [0, 1]; each node adds the result of the
 *      player who made its move.
 * Sealed bids are simultaneous: the searching player's own bid is a tree
 * decision; the other players' bids are made by the playout policy, which never
 * looks at the bids already made. Ranges of amounts (bids, offered money) are
 * cut to a few candidate amounts (ai_candidates). The root's moves are ranked
 * by the greedy policy and only the best `width` are searched. When a tree's
 * node arena is full it stops growing and keeps sampling. Trees are merged by
 * summing the root children's visits. The most visited move (ties: greedy's
 * order) is played when its mean result beats greedy's choice by `trust`
 * standard errors; otherwise greedy's choice is. With an iteration budget the
 * result depends only on the seed, whatever the timing of the threads.
 *
 * Memory: every buffer is allocated by ai_search_new; a search allocates
 * nothing. */
#include "ai.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PATH_MAX_DEPTH 2048
#define PLAYOUT_CAP 50000

typedef struct mnode {
    ch_move mv;          /* the move into this node                              */
    uint32_t child;      /* first child, 0 = none (node 0 is the root)           */
    uint32_t sibling;
    uint32_t visits, avail;
    double reward;       /* sum of the results of `who`                          */
    float prior;         /* greedy's opinion, -1..0 (0: greedy's best)           */
    uint8_t who;         /* the player who made mv                                */
} mnode;

typedef struct ai_tree {
    struct ai_search *s;
    int index;
    mnode *nodes;
    uint32_t cap, used;
    int full;
    ai_ws *ws;
    ch_state st;
    uint32_t path[PATH_MAX_DEPTH];
    uint8_t tried[AI_CAND];
    uint64_t rng;
    long budget, iters, steps;
} ai_tree;

struct ai_search {
    ai_search_opts o;
    int nt;
    ai_tree *tr;
    pthread_t *th;
    int nth;                         /* worker threads started               */
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned gen;
    int pending, quit;
    /* the job */
    ch_state root;
    int rootp;
    uint64_t seed;
    double deadline;
    double cpu0;                     /* the caller's CPU clock at the start   */
    ch_move rc[AI_CAND];
    double rscore[AI_CAND];
    int nrc;
    int gi;                          /* greedy's own move among rc            */
    int has_tie;                     /* tie: greedy's tie-breaking stream for */
    uint64_t tie;                    /* its own move (ai_search_tie)          */
    ai_search_stats last;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the calling thread: the clock of a CPU-time budget (cpu=S),
 * which other programs on a shared machine do not eat into. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- one iteration ------------------------------------------------------------------------ */

static uint32_t new_node(ai_tree *t, uint32_t parent, ch_move m, int who)
{
    if (t->used >= t->cap) {
        t->full = 1;
        return 0;
    }
    uint32_t i = t->used++;
    mnode *n = &t->nodes[i];
    n->mv = m;
    n->child = 0;
    n->visits = 0;
    n->avail = 1;
    n->reward = 0;
    n->prior = 0;
    n->who = (uint8_t)who;
    n->sibling = t->nodes[parent].child;
    t->nodes[parent].child = i;
    return i;
}

/* UCB1 with a progressive bias: greedy's opinion of the move, fading as
 * the visits come in. */
static inline double ucb(const mnode *c, double C, double W)
{
    return c->reward / c->visits + C * sqrt(log((double)c->avail) / c->visits) +
           W * c->prior / (c->visits + 1.0);
}

/* Greedy's score difference to the best, as a prior in -1..0. */
static inline float prior_of(double score, double best)
{
    if (!(score > -1e299) || !(best > -1e299))
        return score >= best ? 0.0f : -1.0f;
    double d = (score - best) / 100.0;
    return d < -1 ? -1.0f : d > 0 ? 0.0f : (float)d;
}

static ch_move policy_move(ai_tree *t, ch_state *st, int d)
{
    if (t->s->o.playout == AI_PLAYOUT_RANDOM)
        return ai_random_move(t->ws, st, d, &t->rng);
    if (t->s->o.playout == AI_PLAYOUT_FAST)
        return ai_fast_move(t->ws, st, d, &t->rng);
    return ai_greedy_move(t->ws, st, d);
}

/* Each player's result: from the final scores, or, for a playout cut short
 * (option depth), from the evaluation's value of each player. */
static void results(ai_tree *t, const ch_state *st, double *r)
{
    double sc[CH_MAX_PLAYERS];
    unsigned w = 0;
    int np = st->nplayers;
    if (st->over) {
        int32_t s32[CH_MAX_PLAYERS];
        ch_scores(st, s32, &w);
        for (int q = 0; q < np; q++)
            sc[q] = s32[q];
    } else {
        ai_features(st, &t->ws->prm, &t->ws->feat);
        double best = -1e300;
        for (int q = 0; q < np; q++) {
            sc[q] = ai_player_value(st, &t->ws->feat, &t->ws->prm, q, NULL, 0);
            if (sc[q] > best)
                best = sc[q];
        }
        for (int q = 0; q < np; q++)
            if (sc[q] == best)
                w |= 1u << q;
    }
    int nw = ai_popc(w);
    double mean = 0;
    for (int q = 0; q < np; q++)
        mean += sc[q];
    mean /= np;
    double scale = 0.25 * fabs(mean) + 50;
    for (int q = 0; q < np; q++) {
        double best = -1e300;
        for (int o = 0; o < np; o++)
            if (o != q && sc[o] > best)
                best = sc[o];
        double m = (sc[q] - best) / scale;
        if (m > 1)
            m = 1;
        if (m < -1)
            m = -1;
        r[q] = t->s->o.win * ((w >> q & 1) && nw ? 1.0 / nw : 0) + t->s->o.margin * (0.5 + 0.5 * m);
    }
}

static int find_move(const ch_move *c, int n, ch_move m)
{
    for (int i = 0; i < n; i++)
        if (ai_same_move(c[i], m))
            return i;
    return -1;
}

static void iterate(ai_tree *t)
{
    struct ai_search *s = t->s;
    ch_state *st = &t->st;
    ai_ws *ws = t->ws;
    const double C = s->o.explore, W = s->o.prior;
    *st = s->root;
    ch_determinize(st, s->rootp, ai_rand(&t->rng));
    int depth = 0;
    uint32_t node = 0;
    int expanded = 0;

    /* the root: its children are the root candidates, always available */
    {
        mnode *root = &t->nodes[0];
        uint32_t best = 0, fresh = 0;
        double bv = -1e300;
        for (uint32_t ch = root->child; ch; ch = t->nodes[ch].sibling) {
            mnode *c = &t->nodes[ch];
            c->avail++;
            if (c->visits == 0) {
                if (!fresh)
                    fresh = ch; /* unvisited ones first, in greedy order */
                continue;
            }
            double v = ucb(c, C, W);
            if (v > bv) {
                bv = v;
                best = ch;
            }
        }
        if (fresh)
            best = fresh;
        if (!best)
            return;
        if (t->nodes[best].visits == 0)
            expanded = 1; /* a first visit: straight to the playout */
        ch_apply_fast(st, s->rootp, t->nodes[best].mv);
        t->path[depth++] = best;
        node = best;
    }

    while (!expanded && depth < PATH_MAX_DEPTH) {
        int d = ai_decider(st, s->rootp);
        if (d < 0)
            break;
        if (st->phase == CH_PH_BID && d != s->rootp) {
            /* another player's sealed bid: hidden from the searcher */
            ch_apply_fast(st, d, policy_move(t, st, d));
            t->steps++;
            continue;
        }
        int nc = ai_candidates(ws, st, d, ws->cand, AI_CAND);
        if (nc <= 0)
            break;
        memset(t->tried, 0, (size_t)nc);
        uint32_t best = 0;
        double bv = -1e300;
        int ntried = 0;
        for (uint32_t ch = t->nodes[node].child; ch; ch = t->nodes[ch].sibling) {
            mnode *c = &t->nodes[ch];
            if (c->who != d)
                continue;
            int i = find_move(ws->cand, nc, c->mv);
            if (i < 0 || t->tried[i])
                continue;
            t->tried[i] = 1;
            ntried++;
            c->avail++;
            double v = c->visits == 0 ? 1e300 : ucb(c, C, W);
            if (v > bv) {
                bv = v;
                best = ch;
            }
        }
        /* progressive widening: a node visited v times has at most
         * 1 + sqrt(v) children available (unless none is) */
        int room = ntried == 0 || ntried < 1 + (int)sqrt((double)t->nodes[node].visits);
        if (ntried < nc && !t->full && room) {
            int pick = -1;
            float prior = 0;
            if (s->o.playout != AI_PLAYOUT_RANDOM && (s->o.rank <= 0 || depth < s->o.rank)) {
                /* the untried move greedy likes best */
                ai_greedy_scores(ws, st, d, ws->cand, nc, ws->score);
                int top = 0;
                for (int i = 0; i < nc; i++) {
                    if (ws->score[i] > ws->score[top])
                        top = i;
                    if (!t->tried[i] && (pick < 0 || ws->score[i] > ws->score[pick]))
                        pick = i;
                }
                prior = prior_of(ws->score[pick], ws->score[top]);
            } else {
                int k = (int)ai_below(&t->rng, (uint32_t)(nc - ntried));
                for (int i = 0; i < nc; i++)
                    if (!t->tried[i] && k-- == 0) {
                        pick = i;
                        break;
                    }
            }
            uint32_t nn = new_node(t, node, ws->cand[pick], d);
            if (nn) {
                t->nodes[nn].prior = prior;
                ch_apply_fast(st, d, ws->cand[pick]);
                t->path[depth++] = nn;
                expanded = 1;
                break;
            }
        }
        if (!best)
            break; /* nothing here yet and no room: play out from here */
        ch_apply_fast(st, d, t->nodes[best].mv);
        t->path[depth++] = best;
        node = best;
    }

    /* playout */
    long steps = 0, cap = s->o.depth > 0 ? s->o.depth : PLAYOUT_CAP;
    for (;;) {
        int d = ai_decider(st, -1);
        if (d < 0 || steps >= cap)
            break;
        ch_apply_fast(st, d, policy_move(t, st, d));
        steps++;
    }
    t->steps += steps;

    double r[CH_MAX_PLAYERS];
    results(t, st, r);
    for (int i = 0; i < depth; i++) {
        mnode *n = &t->nodes[t->path[i]];
        n->visits++;
        n->reward += r[n->who];
    }
    t->nodes[0].visits++;
    t->iters++;
}

/* Whether the rest of the budget (`left` more iterations) can no longer
 * change this tree's answer: the move that will be played leads every other
 * root child by more visits than are left. With `trust` that move is
 * greedy's, the default the search keeps unless another move overtakes it
 * (then the trust test is moot); without, the most visited. Stopping early
 * then gives a single tree exactly the choice of the whole budget, and with
 * an iteration budget it depends on the counts only, so it stays
 * reproducible; the time saved is the search's time management, as in
 * chess engines that move at once when the best move cannot change. */
static int settled(const ai_tree *t, double left)
{
    const struct ai_search *s = t->s;
    uint32_t lead = 0, other = 0;
    int k = 0, want = s->o.trust > 0 ? s->gi : -1;
    for (uint32_t ch = t->nodes[0].child; ch && k < s->nrc; ch = t->nodes[ch].sibling, k++) {
        uint32_t v = t->nodes[ch].visits;
        if (want < 0 ? v > lead : k == want) {
            if (want < 0 && lead > other)
                other = lead;
            lead = v;
        } else if (v > other) {
            other = v;
        }
    }
    return (double)lead - (double)other > left;
}

static void run_tree(ai_tree *t)
{
    struct ai_search *s = t->s;
    t->used = 1;
    t->full = 0;
    t->iters = t->steps = 0;
    memset(&t->nodes[0], 0, sizeof t->nodes[0]);
    t->rng = s->seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(t->index + 1));
    ai_rand(&t->rng);
    /* root children: the root candidates, in greedy order (built in reverse so
     * that the sibling list runs in candidate order) */
    for (int i = s->nrc - 1; i >= 0; i--) {
        uint32_t n = new_node(t, 0, s->rc[i], s->rootp);
        if (n)
            t->nodes[n].prior = prior_of(s->rscore[i], s->rscore[0]);
    }
    if (s->o.iterations > 0) {
        for (long i = 0; i < t->budget; i++) {
            iterate(t);
            if (s->o.early && (i & 31) == 31 && settled(t, (double)(t->budget - i - 1)))
                break;
        }
    } else {
        /* a CPU-time budget runs on each thread's own clock; tree 0 runs on
         * the caller's thread, whose clock started with the root's ranking */
        double (*clock)(void) = s->o.cpu ? cpu_s : now_s;
        double start = clock(), now = start;
        double deadline = !s->o.cpu ? s->deadline : (t->index == 0 ? s->cpu0 : start) + s->o.seconds;
        /* The clock is read only every few iterations: the CPU clock is a
         * system call that cost some 3% of a 0.1 s search read after every
         * fast playout. The stride keeps the overrun under about 1% of the
         * time left (an iteration's cost is measured as it goes), and
         * under 16 iterations; the early-stop test runs with the first
         * reading after every 32 iterations. */
        long calls = 0, next = 1, early_at = 32;
        do {
            iterate(t);
            /* calls, not t->iters: an iteration that finds nothing to
             * search counts no iteration, and the clock must still be read */
            if (++calls < next)
                continue;
            now = clock();
            double per = now > start ? (now - start) / (double)calls : 0;
            long stride = per > 0 ? (long)(0.01 * (deadline - now) / per) : 1;
            next = calls + (stride < 1 ? 1 : stride > 16 ? 16 : stride);
            if (s->o.early && t->iters >= early_at && now > start) {
                early_at = t->iters - t->iters % 32 + 32;
                if (settled(t, (double)t->iters * (deadline - now) / (now - start)))
                    break;
            }
        } while (now < deadline);
    }
}

static void *worker(void *arg)
{
    ai_tree *t = arg;
    struct ai_search *s = t->s;
    unsigned seen = 0;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (s->gen == seen && !s->quit)
            pthread_cond_wait(&s->go, &s->mu);
        if (s->quit)
            break;
        seen = s->gen;
        pthread_mutex_unlock(&s->mu);
        run_tree(t);
        pthread_mutex_lock(&s->mu);
        if (--s->pending == 0)
            pthread_cond_signal(&s->done);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- life cycle ------------------------------------------------------------------------------ */

int ai_search_new(ai_search **out, const ai_search_opts *o)
{
    *out = NULL;
    ai_search *s = calloc(1, sizeof *s);
    if (!s)
        return CH_ENOMEM;
    s->o = *o;
    s->nt = o->threads < 1 ? 1 : o->threads;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->go, NULL);
    pthread_cond_init(&s->done, NULL);
    s->tr = calloc((size_t)s->nt, sizeof *s->tr);
    s->th = calloc((size_t)s->nt, sizeof *s->th);
    if (!s->tr || !s->th) {
        ai_search_free(s);
        return CH_ENOMEM;
    }
    size_t per = o->memory / (size_t)s->nt / sizeof(mnode);
    if (per < 1024)
        per = 1024;
    if (per > UINT32_MAX - 1)
        per = UINT32_MAX - 1;
    for (int i = 0; i < s->nt; i++) {
        ai_tree *t = &s->tr[i];
        t->s = s;
        t->index = i;
        t->cap = (uint32_t)per;
        t->nodes = malloc(sizeof *t->nodes * per);
        t->ws = malloc(sizeof *t->ws);
        if (!t->nodes || !t->ws) {
            ai_search_free(s);
            return CH_ENOMEM;
        }
        ai_params_default(&t->ws->prm);
        /* playouts keep greedy's first-of-equals choice: ISMCTS's randomness
         * comes from its determinizations and its seed alone */
        t->ws->tie = NULL;
    }
    for (int i = 1; i < s->nt; i++) {
        if (pthread_create(&s->th[i], NULL, worker, &s->tr[i]) != 0) {
            ai_search_free(s);
            return CH_ENOMEM;
        }
        s->nth = i;
    }
    *out = s;
    return CH_OK;
}

void ai_search_free(ai_search *s)
{
    if (!s)
        return;
    if (s->nth > 0) {
        pthread_mutex_lock(&s->mu);
        s->quit = 1;
        pthread_cond_broadcast(&s->go);
        pthread_mutex_unlock(&s->mu);
        for (int i = 1; i <= s->nth; i++)
            pthread_join(s->th[i], NULL);
    }
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->go);
    pthread_cond_destroy(&s->done);
    if (s->tr)
        for (int i = 0; i < s->nt; i++) {
            free(s->tr[i].nodes);
            free(s->tr[i].ws);
        }
    free(s->tr);
    free(s->th);
    free(s);
}

void ai_search_last(const ai_search *s, ai_search_stats *out) { *out = s->last; }

void ai_search_tie(ai_search *s, uint64_t state)
{
    s->tie = state;
    s->has_tie = 1;
}

/* Root candidates, ranked by greedy, the best `width` kept. */
static void root_moves(ai_search *s, const ch_state *st, int p)
{
    ai_ws *ws = s->tr[0].ws;
    int n = ai_candidates(ws, st, p, s->rc, AI_CAND);
    s->nrc = n;
    if (n <= 1)
        return;
    ai_greedy_scores(ws, st, p, s->rc, n, s->rscore);
    /* stable sort by score, descending (insertion sort: n is small) */
    for (int i = 1; i < n; i++) {
        ch_move m = s->rc[i];
        double v = s->rscore[i];
        int j = i - 1;
        while (j >= 0 && s->rscore[j] < v) {
            s->rc[j + 1] = s->rc[j];
            s->rscore[j + 1] = s->rscore[j];
            j--;
        }
        s->rc[j + 1] = m;
        s->rscore[j + 1] = v;
    }
    if (s->o.width > 0 && n > s->o.width)
        s->nrc = s->o.width;
}

ch_move ai_search_run(ai_search *s, const ch_state *st, int p, uint64_t seed)
{
    double t0 = now_s();
    s->cpu0 = cpu_s();
    memset(&s->last, 0, sizeof s->last);
    root_moves(s, st, p);
    if (s->nrc <= 1) {
        s->last.seconds = now_s() - t0;
        if (s->nrc == 1)
            return s->rc[0];
        ch_move none = {0, 0, 0, 0, 0};
        return none;
    }
    s->root = *st;
    s->rootp = p;
    s->seed = seed;
    s->deadline = t0 + s->o.seconds;
    /* greedy's own move (ai_greedy_move, as the greedy bot plays it), else
     * the candidate greedy's ranking put first: the default of `trust` */
    {
        /* with the greedy bot's tie stream, the same of equally good moves
         * as the greedy bot with this seed (ai_search_tie) */
        uint64_t tie = s->tie;
        s->tr[0].ws->tie = s->has_tie ? &tie : NULL;
        ch_move g = ai_greedy_move(s->tr[0].ws, st, p);
        s->tr[0].ws->tie = NULL;
        s->has_tie = 0;
        s->gi = 0;
        for (int k = 0; k < s->nrc; k++)
            if (ai_same_move(s->rc[k], g)) {
                s->gi = k;
                break;
            }
    }
    for (int i = 0; i < s->nt; i++) {
        long b = s->o.iterations / s->nt + (i < s->o.iterations % s->nt ? 1 : 0);
        s->tr[i].budget = b;
    }
    if (s->nt > 1) {
        pthread_mutex_lock(&s->mu);
        s->pending = s->nt - 1;
        s->gen++;
        pthread_cond_broadcast(&s->go);
        pthread_mutex_unlock(&s->mu);
    }
    run_tree(&s->tr[0]);
    if (s->nt > 1) {
        pthread_mutex_lock(&s->mu);
        while (s->pending > 0)
            pthread_cond_wait(&s->done, &s->mu);
        pthread_mutex_unlock(&s->mu);
    }
    /* merge the root children by visits */
    double visits[AI_CAND] = {0}, reward[AI_CAND] = {0};
    for (int i = 0; i < s->nt; i++) {
        ai_tree *t = &s->tr[i];
        int k = 0; /* root children run in candidate order */
        for (uint32_t ch = t->nodes[0].child; ch && k < s->nrc; ch = t->nodes[ch].sibling, k++) {
            visits[k] += t->nodes[ch].visits;
            reward[k] += t->nodes[ch].reward;
        }
        s->last.iterations += t->iters;
        s->last.playout_steps += t->steps;
        s->last.nodes += t->used;
        s->last.full |= t->full;
    }
    int best = 0;
    for (int k = 1; k < s->nrc; k++)
        if (visits[k] > visits[best])
            best = k;
    /* Trust: a few hundred noisy playouts often rank close moves wrongly, and
     * greedy's choice (candidate 0) is a good default. Leave it only for a
     * move whose mean result is better by `trust` standard errors (results
     * lie in 0..1: the variance of a mean is at most m(1-m)/n). */
    if (s->o.trust > 0) {
        int gi = s->gi;
        if (best != gi) {
            double mg = visits[gi] > 0 ? reward[gi] / visits[gi] : 0;
            double mb = reward[best] / visits[best];
            double se = visits[gi] > 0 ? sqrt(mg * (1 - mg) / visits[gi] + mb * (1 - mb) / visits[best]) : 0;
            if (visits[gi] < 1 || mb - mg <= s->o.trust * se)
                best = gi;
        }
    }
    s->last.seconds = now_s() - t0;
    return s->rc[best];
}
