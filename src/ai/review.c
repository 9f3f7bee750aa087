/* review.c: the analysis of one decision of a game (ch_review_decision, the
 * engine of `chartered review`; docs/bots.md "Review").
 *
 * Each player's chance of winning is estimated as the deciding player could
 * know it: every sample re-deals what that player cannot see
 * (ch_determinize for that player: the others' hidden cards, the deck's
 * order, the level reserve, unrevealed sealed bids, in The Golden Age the
 * others' holdings) and never reads the true hidden cards of the position
 * given. The moves compared ("arms") are the best `width` of the search's
 * candidates (ai_candidates, ranked by greedy on one re-deal, as the ISMCTS
 * root ranks them) and the move that was played. Each sample plays every arm
 * from the same re-deal with the same playout stream (common random numbers:
 * the difference between two arms is then far less noisy than either), to the
 * end of the game with the fast playout policy (fast.c), and counts who won
 * (shared wins split). The budget is spread by sequential halving (Karnin,
 * Koren and Somekh 2013): rounds of equal budget, after each the worse half
 * of the arms dropped, except the played move, which is kept to the end and
 * gets half of every round (its chance after the move is what the review
 * draws, so it is measured best).
 *
 * With an iteration budget the result depends only on the seed and the
 * deciding player's view; with a CPU-time budget (CLOCK_THREAD_CPUTIME_ID,
 * fair on a shared machine) the number of samples varies with the machine. */
#include "ai.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REVIEW_ARMS 17           /* width at most 16, plus the played move  */
#define REVIEW_PLAYOUT_CAP 50000 /* decisions of one playout (a safeguard)   */

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void ch_review_opts_default(ch_review_opts *o)
{
    memset(o, 0, sizeof *o);
    o->iterations = 0;
    o->cpu = 0.2;
    o->width = 6;
    o->seed = 1;
}

typedef struct arm {
    ch_move mv;
    double win[CH_MAX_PLAYERS]; /* sums of win shares */
    long n;
    int alive;
} arm;

/* One sample of arm a from the re-deal det: a playout with its own copy of
 * the playout stream; the shares of the win added to a. */
static void sample(ai_ws *ws, const ch_state *det, int p, arm *a, uint64_t stream, ch_state *sim)
{
    *sim = *det;
    ch_apply_fast(sim, p, a->mv);
    uint64_t rng = stream;
    for (long steps = 0; steps < REVIEW_PLAYOUT_CAP; steps++) {
        int d = ai_decider(sim, -1);
        if (d < 0)
            break;
        ch_apply_fast(sim, d, ai_fast_move(ws, sim, d, &rng));
    }
    int np = sim->nplayers;
    int32_t sc[CH_MAX_PLAYERS];
    unsigned w = 0;
    if (sim->over) {
        ch_scores(sim, sc, &w);
    } else {
        /* a playout cut at the cap (never seen): the leaders in money on
         * the table share the win, as the final score would count it */
        ch_score_part parts[CH_MAX_PLAYERS];
        ch_score_parts(sim, parts);
        int32_t best = 0;
        for (int q = 0; q < np; q++)
            if (q == 0 || parts[q].total > best)
                best = parts[q].total;
        for (int q = 0; q < np; q++)
            if (parts[q].total == best)
                w |= 1u << q;
    }
    int nw = ai_popc(w);
    for (int q = 0; q < np; q++)
        if (w >> q & 1)
            a->win[q] += 1.0 / nw;
    a->n++;
}

static double mean_of(const arm *a, int p) { return a->n ? a->win[p] / (double)a->n : 0; }

static int fail(ch_msg *err, int code, const char *text)
{
    if (err) {
        memset(err, 0, sizeof *err);
        strncpy(err->text, text, sizeof err->text - 1);
    }
    return code;
}

int ch_review_decision(const ch_state *st, int p, ch_move played, const ch_review_opts *o,
                       ch_review *out, ch_msg *err)
{
    if (!st || !o || !out || st->magic != CH_STATE_MAGIC)
        return fail(err, CH_EINVAL, "ch_review_decision needs a state, options and a result");
    if (o->width < 1 || o->width > REVIEW_ARMS - 1 || o->iterations < 0 ||
        (o->iterations == 0 && !(o->cpu > 0)))
        return fail(err, CH_EINVAL, "review: width is 1 to 16, and the budget iterations > 0 or cpu > 0");
    unsigned mask = 0;
    if (p < 0 || p >= st->nplayers || ch_decider(st, &mask) == CH_DEC_TERMINAL || !(mask >> p & 1))
        return fail(err, CH_ETURN, "review: that player has no decision to make here");
    ch_msg why;
    int r = ch_check(st, p, played, &why);
    if (r != CH_OK) {
        if (err)
            *err = why;
        return r;
    }
    double cpu0 = thread_cpu();
    memset(out, 0, sizeof *out);
    out->player = p;
    ai_ws *ws = malloc(sizeof *ws);
    ch_move *cand = malloc(sizeof *cand * AI_CAND);
    double *score = malloc(sizeof *score * AI_CAND);
    ch_state *det = malloc(sizeof *det), *sim = malloc(sizeof *sim);
    if (!ws || !cand || !score || !det || !sim) {
        free(ws), free(cand), free(score), free(det), free(sim);
        return fail(err, CH_ENOMEM, "review: out of memory");
    }
    ai_params_default(&ws->prm);
    ws->tie = NULL;
    uint64_t rng = o->seed ^ 0x5EED5EED12345678ull;
    ai_rand(&rng);

    /* the arms: the candidates greedy ranks best on one re-deal (the ranking
     * reads only what p may know, through the re-deal), then the played move */
    arm arms[REVIEW_ARMS];
    int na = 0, pi = -1;
    *det = *st;
    ch_determinize(det, p, ai_rand(&rng));
    int n = ai_candidates(ws, det, p, cand, AI_CAND);
    if (n > 1) {
        ai_greedy_scores(ws, det, p, cand, n, score);
        for (int k = 0; k < n && k < o->width; k++) {
            int top = k; /* selection of the best left (stable: first of equals) */
            for (int i = k + 1; i < n; i++)
                if (score[i] > score[top])
                    top = i;
            ch_move m = cand[top];
            double v = score[top];
            memmove(cand + k + 1, cand + k, sizeof *cand * (size_t)(top - k));
            memmove(score + k + 1, score + k, sizeof *score * (size_t)(top - k));
            cand[k] = m;
            score[k] = v;
        }
    }
    for (int k = 0; k < n && na < o->width; k++) {
        memset(&arms[na], 0, sizeof arms[na]);
        arms[na].mv = cand[k];
        arms[na].alive = 1;
        if (ai_same_move(cand[k], played))
            pi = na;
        na++;
    }
    if (pi < 0) {
        memset(&arms[na], 0, sizeof arms[na]);
        arms[na].mv = played;
        arms[na].alive = 1;
        pi = na++;
    }

    /* sequential halving: rounds of equal budget; the other arms halve after
     * each round until one is left beside the played move */
    int others = na - 1, rounds = 1;
    for (int left = others; left > 1; left = (left + 1) / 2)
        rounds++;
    long total = 0;
    for (int rd = 0; rd < rounds; rd++) {
        int alive = 0;
        for (int a = 0; a < na; a++)
            alive += arms[a].alive;
        long per = 0;
        double round_end = cpu0 + o->cpu * (rd + 1) / rounds;
        if (o->iterations > 0) {
            per = o->iterations / rounds / (alive > 1 ? 2 * (alive - 1) : 1);
            if (per < 1)
                per = 1;
        }
        for (long j = 0; o->iterations > 0 ? j < per : (j == 0 || thread_cpu() < round_end); j++) {
            *det = *st;
            ch_determinize(det, p, ai_rand(&rng));
            uint64_t stream = ai_rand(&rng);
            for (int a = 0; a < na; a++)
                if (arms[a].alive) {
                    sample(ws, det, p, &arms[a], stream, sim);
                    total++;
                }
            /* the played move's chance is the graph's line: half of every
             * round goes to it, the extra samples on re-deals of their own */
            for (int x = 0; x < alive - 2; x++) {
                *det = *st;
                ch_determinize(det, p, ai_rand(&rng));
                sample(ws, det, p, &arms[pi], ai_rand(&rng), sim);
                total++;
            }
        }
        if (rd + 1 == rounds)
            break;
        /* keep the better half of the other arms (ties: the earlier, greedy's
         * order); the played move stays */
        int cnt = 0;
        for (int a = 0; a < na; a++)
            cnt += a != pi && arms[a].alive;
        int keep = (cnt + 1) / 2;
        for (int drop = cnt - keep; drop > 0; drop--) {
            int worst = -1;
            for (int a = 0; a < na; a++)
                if (a != pi && arms[a].alive &&
                    (worst < 0 || mean_of(&arms[a], p) <= mean_of(&arms[worst], p)))
                    worst = a;
            arms[worst].alive = 0;
        }
    }
    /* the best of the last round for p (ties: the played move, then greedy's
     * order) */
    int best = pi;
    for (int a = 0; a < na; a++)
        if (arms[a].alive && mean_of(&arms[a], p) > mean_of(&arms[best], p))
            best = a;
    out->best = arms[best].mv;
    out->narms = na;
    out->played_n = arms[pi].n;
    out->best_n = arms[best].n;
    for (int q = 0; q < st->nplayers; q++) {
        out->played_win[q] = mean_of(&arms[pi], q);
        out->best_win[q] = mean_of(&arms[best], q);
    }
    out->playouts = total;
    out->cpu = thread_cpu() - cpu0;
    free(ws), free(cand), free(score), free(det), free(sim);
    return CH_OK;
}
