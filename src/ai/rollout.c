/* rollout.c: the `rollout` bot, between greedy and ISMCTS (issue 36): a few
 * milliseconds a move. Greedy ranks the candidate moves (ai_candidates,
 * ai_greedy_scores) and keeps the best `width`; each is played from the same
 * `rollouts` determinizations of the position (ch_determinize: what the
 * player cannot see re-dealt, so the rollouts never read hidden cards), and
 * each rollout goes on for `depth` decisions with the cheap policy of fast.c
 * (the same random stream for every candidate of one determinization:
 * common random numbers, so the candidates are compared on the same
 * futures), then the position is scored with greedy's evaluation (eval.c;
 * the final scores when the game ends first). Greedy's own move is played
 * unless another candidate's mean beats it by `trust` standard errors of
 * their paired differences: the rollouts only overrule greedy where they
 * see a clear gain, which greedy's one step of lookahead misses (a build
 * that sets up the next, a bid that pays later).
 *
 * This is flat Monte Carlo over a handful of moves, no tree: its cost is
 * width x rollouts x depth decisions of the fast policy, about 4 x 8 x 24
 * = 768 a move by default. */
#include "ai.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RO_WIDTH_MAX 16

struct ai_rollout {
    ai_rollout_opts o;
    ai_ws *ws;
    ch_state det, sim;
    ch_move top[RO_WIDTH_MAX];
};

int ai_rollout_new(ai_rollout **out, const ai_rollout_opts *o)
{
    *out = NULL;
    ai_rollout *r = calloc(1, sizeof *r);
    if (!r)
        return CH_ENOMEM;
    r->ws = malloc(sizeof *r->ws);
    if (!r->ws) {
        free(r);
        return CH_ENOMEM;
    }
    ai_params_default(&r->ws->prm);
    r->ws->prm.deals = 1; /* greedy's move, as the greedy bot plays it */
    r->ws->tie = NULL;
    r->o = *o;
    if (r->o.width > RO_WIDTH_MAX)
        r->o.width = RO_WIDTH_MAX;
    *out = r;
    return CH_OK;
}

void ai_rollout_free(ai_rollout *r)
{
    if (!r)
        return;
    free(r->ws);
    free(r);
}

/* Play st on for up to depth decisions with the fast policy, then score it
 * for p. */
static double rollout_value(ai_rollout *r, ch_state *s, int p, int depth, uint64_t *rng)
{
    for (int k = 0; k < depth && !s->over; k++) {
        int d = ai_decider(s, -1);
        if (d < 0)
            break;
        ch_move m = r->o.greedy ? ai_greedy_move(r->ws, s, d) : ai_fast_move(r->ws, s, d, rng);
        if (m.type == CH_M_NONE)
            break;
        ch_apply_fast(s, d, m);
    }
    return ai_eval(s, &r->ws->prm, p);
}

ch_move ai_rollout_run(ai_rollout *r, const ch_state *st, int p, uint64_t *rng)
{
    ai_ws *ws = r->ws;
    /* greedy's move, its ties broken from the bot's generator */
    ws->tie = rng;
    ch_move g = ai_greedy_move(ws, st, p);
    ws->tie = NULL;
    if (g.type == CH_M_NONE)
        return g;
    int n = ai_candidates(ws, st, p, ws->cand, AI_CAND);
    if (n <= 1 || r->o.width < 2 || r->o.rollouts < 2)
        return g;
    ai_greedy_scores(ws, st, p, ws->cand, n, ws->score);
    /* greedy's move first, then the best others by greedy's score */
    int w = 0;
    r->top[w++] = g;
    while (w < r->o.width) {
        int best = -1;
        for (int i = 0; i < n; i++) {
            int taken = 0;
            for (int k = 0; k < w; k++)
                taken |= ai_same_move(ws->cand[i], r->top[k]);
            if (!taken && (best < 0 || ws->score[i] > ws->score[best]))
                best = i;
        }
        if (best < 0 || ws->score[best] < -1e100)
            break;
        r->top[w++] = ws->cand[best];
    }
    if (w < 2)
        return g;
    double sum[RO_WIDTH_MAX] = {0}, sq[RO_WIDTH_MAX] = {0};
    int R = r->o.rollouts;
    for (int k = 0; k < R; k++) {
        r->det = *st;
        ch_determinize(&r->det, p, ai_rand(rng));
        uint64_t stream = ai_rand(rng);
        double base = 0;
        for (int i = 0; i < w; i++) {
            r->sim = r->det;
            ch_msg why;
            /* a candidate of the true position is legal in every re-deal
             * (it names only what p holds or sees); checked all the same */
            if (ch_check(&r->sim, p, r->top[i], &why) != CH_OK) {
                if (i == 0)
                    return g;
                sum[i] = -1e300;
                continue;
            }
            ch_apply_fast(&r->sim, p, r->top[i]);
            uint64_t s = stream;
            double v = rollout_value(r, &r->sim, p, r->o.depth, &s);
            if (i == 0)
                base = v;
            /* paired with greedy's move on the same future */
            double dlt = v - base;
            sum[i] += dlt;
            sq[i] += dlt * dlt;
        }
    }
    int pick = 0;
    double best = 0;
    for (int i = 1; i < w; i++) {
        if (sum[i] <= -1e299)
            continue;
        double mean = sum[i] / R, var = sq[i] / R - mean * mean;
        double se = sqrt((var > 0 ? var : 0) / (R - 1));
        if (mean > r->o.trust * se && mean > best) {
            best = mean;
            pick = i;
        }
    }
    return r->top[pick];
}
