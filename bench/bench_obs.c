/* bench_obs.c: what an observation costs next to the step it follows
 * (issue 34: "observations cost less than the step itself"). For each
 * edition, 4 players, two vectors of N games (ch_vec) dealt from the same
 * seeds are stepped with the same random legal ids (drawn here from the
 * legal list), so they play the same games, for the given CPU time in one
 * run; each call's thread CPU time is summed:
 *   step:     ch_vec_step with masks and legal ids only;
 *   step+obs: ch_vec_step writing the decider's observations too (the
 *             vector's path: rows rewritten only where they changed);
 *   single:   ch_observation of every game's decider into a scratch buffer
 *             (the path of State.observation_tensor: the whole tensor).
 * Their ratios do not depend on the machine's load. The twin stepped second
 * plays the games the first has just played, which makes its step cheaper
 * (the branch predictor, most likely: no counters here to tell), so by
 * default the observation's share is understated; --alternate steps the
 * twins in turn first (docs/performance.md). Prints ns per decision
 * of each, the observation's share (step+obs minus step) against the step,
 * and games per CPU second with and without observations. A benchmark: it
 * judges nothing.
 * Usage: bench_obs [--seconds S] [--games N] [--edition amsterdam|golden-age]
 *                  [--no-single]   (leave out the third, e.g. to profile the vector)
 *                  [--alternate]   (each twin stepped first every other time) */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chartered.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static int run(int edition, int n, double seconds, int single, int alternate)
{
    ch_setup s;
    ch_board board;
    ch_msg err;
    ch_setup_default(&s, edition);
    s.nplayers = 4;
    const char *arr = edition == CH_ED_GOLDEN_AGE ? ch_ga_side(s.preset, 4) : "standard";
    if (ch_board_builtin(&board, edition, arr, &err) != CH_OK) {
        fprintf(stderr, "bench_obs: %s\n", err.text);
        return 1;
    }
    ch_state trial;
    if (ch_new(&trial, &s, &board, &err) != CH_OK) {
        fprintf(stderr, "bench_obs: %s\n", err.text);
        return 1;
    }
    const int cap = 4096, osize = ch_observation_size(&trial);
    int32_t *player = calloc((size_t)n, sizeof *player), *legal = calloc((size_t)n * cap, sizeof *legal);
    int32_t *nlegal = calloc((size_t)n, sizeof *nlegal), *act = calloc((size_t)n, sizeof *act);
    float *rewards = calloc((size_t)n * 4, sizeof *rewards);
    float *obs = calloc((size_t)n * (size_t)osize, sizeof *obs);
    uint8_t *term = calloc((size_t)n, 1), *trunc = calloc((size_t)n, 1);
    uint8_t *mask = calloc((size_t)n * (size_t)ch_num_distinct_actions(edition, 4), 1);
    if (!player || !legal || !nlegal || !act || !rewards || !obs || !term || !trunc || !mask) {
        fprintf(stderr, "bench_obs: out of memory\n");
        return 1;
    }
    ch_vec_out out = {.player = player, .rewards = rewards, .terminated = term, .truncated = trunc,
                      .mask = mask, .legal = legal, .legal_cap = cap, .nlegal = nlegal};
    ch_vec_out out2 = out; /* the twin with observations: its own outputs */
    out2.player = calloc((size_t)n, sizeof *player);
    out2.rewards = calloc((size_t)n * 4, sizeof *rewards);
    out2.terminated = calloc((size_t)n, 1);
    out2.truncated = calloc((size_t)n, 1);
    out2.mask = calloc((size_t)n * (size_t)ch_num_distinct_actions(edition, 4), 1);
    out2.legal = calloc((size_t)n * cap, sizeof *legal);
    out2.nlegal = calloc((size_t)n, sizeof *nlegal);
    out2.obs = calloc((size_t)n * (size_t)osize, sizeof *obs);
    if (!out2.player || !out2.rewards || !out2.terminated || !out2.truncated || !out2.mask || !out2.legal ||
        !out2.nlegal || !out2.obs) {
        fprintf(stderr, "bench_obs: out of memory\n");
        return 1;
    }
    ch_vec *v, *w;
    if (ch_vec_new(&v, &s, &board, n, 0, 0, &out, &err) != CH_OK || ch_vec_reset(v, 1, &err) != CH_OK ||
        ch_vec_new(&w, &s, &board, n, 0, 0, &out2, &err) != CH_OK || ch_vec_reset(w, 1, &err) != CH_OK) {
        fprintf(stderr, "bench_obs: %s\n", err.text);
        return 1;
    }
    uint64_t rng = 88172645463325252ull;
    double t_step = 0, t_both = 0, t_single = 0;
    long decisions = 0, games = 0, iterations = 0;
    while (t_step + t_both + t_single < seconds) {
        for (int i = 0; i < n; i++)
            act[i] = legal[i * cap + (int)(next(&rng) % (uint64_t)(nlegal[i] < cap ? nlegal[i] : cap))];
        /* the vector stepped second replays the games the first has just
           played, and does so faster (about 30 ns a decision of The Golden
           Age's step): --alternate gives each the first turn every other
           time, so that neither has the advantage */
        const int w_first = alternate && (iterations++ & 1);
        ch_vec *first = w_first ? w : v, *second = w_first ? v : w;
        double t0 = cpu_now();
        int rc = ch_vec_step(first, act, &err);
        double t1 = cpu_now();
        if (rc == CH_OK)
            rc = ch_vec_step(second, act, &err);
        double t2 = cpu_now();
        if (w_first) { /* t1 - t0 timed the twin with observations */
            const double obs_time = t1 - t0;
            t1 = t0 + (t2 - t1);
            t2 = t1 + obs_time;
        }
        if (rc != CH_OK) {
            fprintf(stderr, "bench_obs: %s\n", err.text);
            return 1;
        }
        for (int i = 0; single && i < n; i++)
            ch_observation(ch_vec_state(v, i), player[i], obs + (size_t)i * (size_t)osize, (size_t)osize);
        double t3 = cpu_now();
        t_step += t1 - t0;
        t_both += t2 - t1;
        t_single += t3 - t2;
        decisions += n;
        for (int i = 0; i < n; i++)
            games += term[i] + trunc[i];
    }
    /* the twins played the same games: the last observations agree */
    if (single && memcmp(obs, out2.obs, (size_t)n * (size_t)osize * sizeof *obs) != 0) {
        fprintf(stderr, "bench_obs: the vector's observations differ from ch_observation's\n");
        return 1;
    }
    const char *name = edition == CH_ED_GOLDEN_AGE ? "golden-age" : "amsterdam";
    const double d = (double)decisions;
    char alone[64] = "not measured";
    if (single)
        snprintf(alone, sizeof alone, "%.0f", t_single * 1e9 / d);
    printf("%s, 4 players, N=%d%s: %ld decisions, %ld games; ns per decision: step %.0f, step+obs %.0f "
           "(the observation %.0f, %.2f x the step), ch_observation alone %s; games/CPU-s: step %.0f, "
           "step+obs %.0f; observation %d floats (%d bytes)\n",
           name, n, alternate ? " (twins alternated)" : "", decisions, games, t_step * 1e9 / d, t_both * 1e9 / d, (t_both - t_step) * 1e9 / d,
           (t_both - t_step) / t_step, alone, (double)games / t_step, (double)games / t_both, osize,
           osize * (int)sizeof(float));
    ch_vec_free(v);
    ch_vec_free(w);
    free(player), free(legal), free(nlegal), free(act), free(rewards), free(obs), free(term), free(trunc),
        free(mask);
    free(out2.player), free(out2.rewards), free(out2.terminated), free(out2.truncated), free(out2.mask),
        free(out2.legal), free(out2.nlegal), free(out2.obs);
    return 0;
}

int main(int argc, char **argv)
{
    double seconds = 3;
    int n = 64, only = -1, single = 1, alternate = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--games") && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-single"))
            single = 0;
        else if (!strcmp(argv[i], "--alternate"))
            alternate = 1;
        else if (!strcmp(argv[i], "--edition") && i + 1 < argc) {
            const char *e = argv[++i];
            only = !strcmp(e, "golden-age") ? CH_ED_GOLDEN_AGE : CH_ED_AMSTERDAM;
        } else {
            fprintf(stderr, "usage: bench_obs [--seconds S] [--games N] [--edition amsterdam|golden-age] "
                            "[--no-single] [--alternate]\n");
            return 2;
        }
    }
    if (n < 1 || seconds <= 0) {
        fprintf(stderr, "bench_obs: --games must be at least 1 and --seconds positive\n");
        return 2;
    }
    int rc = 0;
    if (only < 0 || only == CH_ED_AMSTERDAM)
        rc |= run(CH_ED_AMSTERDAM, n, seconds, single, alternate);
    if (only < 0 || only == CH_ED_GOLDEN_AGE)
        rc |= run(CH_ED_GOLDEN_AGE, n, seconds, single, alternate);
    return rc;
}
