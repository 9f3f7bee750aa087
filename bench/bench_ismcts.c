/* bench_ismcts.c: how fast ISMCTS searches, against how fast the engine plays.
 *
 * For an early, a middle and a late position of a 4-player game of Building
 * Amsterdam and of The Golden Age (reached by greedy self-play from a fixed
 * seed), it prints
 *   - ISMCTS iterations per second with 1 and 2 threads (time budget), and the
 *     playout decisions per second inside the search;
 *   - the raw rate of the same playout policy: complete playouts from the same
 *     position with no search around them (a copy, then policy moves with
 *     ch_apply_fast until the end), in decisions per second.
 * The ratio of the two decision rates shows what the search itself costs
 * (determinization, tree descent, candidate lists, and for greedy the ranking
 * of new children).
 *
 * With --cost it prints instead the cost of one playout of each policy
 * (random, fast, greedy) from the same early, middle and late positions, on
 * the thread's CPU clock: decisions and complete playouts per CPU second, and
 * each policy's cost per decision and per playout as a multiple of random's
 * (issue 18 part 3: the fast policy may cost at most 5 random playouts).
 *
 * With --threads-curve T it prints instead, for one middle position of each
 * edition, the iterations per second of 1, 2, ..., T root-parallel threads
 * (the scaling curve of docs/performance.md), and per CPU second of the
 * process with the cores' worth of CPU the search got: on a shared machine
 * the wall-clock rate shows what the free cores allowed, the CPU rate what
 * the trees cost.
 *
 * Usage: bench_ismcts [--seconds S] [--playout greedy|fast|random] [--players N]
 *                     [--depth D] [--rank D] [--threads-curve T] [--cost] [--cpu]
 * --cpu gives each search S seconds of CPU time per thread (option cpu=S)
 * and prints rates per CPU second: figures that hold on a loaded machine.
 * It includes src/ai/ai.h: it measures the bots' internals. */
#include "ai.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static ai_ws ws;

/* A greedy self-play game from the seed, stopped when the supply has come down
 * to `left` of its total (a fraction), at a decision with several choices. */
static int position(ch_state *st, int ed, int np, uint64_t seed, double left)
{
    ch_board b;
    ch_setup s;
    ch_msg m;
    if (ch_board_builtin(&b, ed, ed == CH_ED_GOLDEN_AGE ? ch_ga_side(CH_GA_PRINTED, np) : "standard", &m)) {
        fprintf(stderr, "board: %s\n", m.text);
        return -1;
    }
    ch_setup_default(&s, ed);
    s.nplayers = np;
    s.seed = seed;
    if (ch_new(st, &s, &b, &m)) {
        fprintf(stderr, "ch_new: %s\n", m.text);
        return -1;
    }
    uint64_t rng = seed;
    for (int guard = 0; guard < 100000; guard++) {
        int p = ai_decider(st, -1);
        if (p < 0)
            return -1;
        if (st->supply <= left * st->warehouses_total && st->phase == CH_PH_TURN &&
            ch_legal(st, p, NULL, 0) > 1 && st->turn_no > (unsigned)np)
            return p;
        ch_state v = *st;
        ch_determinize(&v, p, ai_rand(&rng));
        ch_apply_fast(st, p, ai_greedy_move(&ws, &v, p));
    }
    return -1;
}

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Raw playouts from st for about `seconds` of the clock `clk`: decisions per
 * second; *per_game: decisions per playout. */
static double raw_rate_on(const ch_state *st, int p, int playout, double seconds, double *per_game,
                          double (*clk)(void))
{
    uint64_t rng = 12345;
    long decisions = 0, games = 0;
    double t0 = clk(), t;
    do {
        ch_state s = *st;
        ch_determinize(&s, p, ai_rand(&rng));
        for (;;) {
            int d = ai_decider(&s, -1);
            if (d < 0)
                break;
            ch_move m = playout == AI_PLAYOUT_RANDOM ? ai_random_move(&ws, &s, d, &rng)
                        : playout == AI_PLAYOUT_FAST ? ai_fast_move(&ws, &s, d, &rng)
                                                     : ai_greedy_move(&ws, &s, d);
            ch_apply_fast(&s, d, m);
            decisions++;
        }
        games++;
        t = clk() - t0;
    } while (t < seconds);
    *per_game = games ? (double)decisions / (double)games : 0;
    return t > 0 ? (double)decisions / t : 0;
}


static const char *policy_name(int playout)
{
    return playout == AI_PLAYOUT_RANDOM ? "random" : playout == AI_PLAYOUT_FAST ? "fast" : "greedy";
}

static double process_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double last_cpu_rate; /* iterations per CPU second of the process, last search */
static int use_cpu;          /* --cpu: budgets and rates on the CPU clock              */
static int rank;             /* --rank D: option rank=D of the search                  */

/* Iterations per second of one search from st with `threads` trees. */
static double search_rate(const ch_state *st, int p, int playout, int depth, int threads, double seconds,
                          double *dps, double *steps)
{
    /* by name: a field added to the options (rank, before cpu) once
     * shifted these, and --cpu then ran rank=1 on the wall clock */
    ai_search_opts o = {.iterations = 0, .seconds = seconds, .threads = threads, .playout = playout,
                        .memory = (size_t)256 << 20, .explore = 0.7, .width = 12, .depth = depth,
                        .prior = 1.0, .trust = 1.0, .early = 0, .rank = rank, .win = 0.7, .margin = 0.3,
                        .cpu = use_cpu};
    ai_search *s = NULL;
    if (ai_search_new(&s, &o) != CH_OK) {
        fprintf(stderr, "bench_ismcts: cannot allocate the search\n");
        exit(1);
    }
    ch_state view = *st;
    ch_determinize(&view, p, 1);
    double c0 = process_cpu_s();
    ai_search_run(s, &view, p, 42);
    double cpu = process_cpu_s() - c0;
    ai_search_stats sst;
    ai_search_last(s, &sst);
    last_cpu_rate = cpu > 0 ? sst.iterations / cpu : 0;
    ai_search_free(s);
    /* with --cpu, per CPU second of the process (all the search's threads) */
    double secs = use_cpu ? cpu : sst.seconds;
    if (dps)
        *dps = secs > 0 ? sst.playout_steps / secs : 0;
    if (steps)
        *steps = sst.iterations ? (double)sst.playout_steps / (double)sst.iterations : 0;
    return secs > 0 ? sst.iterations / secs : 0;
}

int main(int argc, char **argv)
{
    double seconds = 2.0;
    int playout = AI_PLAYOUT_GREEDY, np = 4, depth = 0, curve = 0, cost = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--playout") && i + 1 < argc) {
            i++;
            playout = !strcmp(argv[i], "random") ? AI_PLAYOUT_RANDOM
                      : !strcmp(argv[i], "fast") ? AI_PLAYOUT_FAST
                      : !strcmp(argv[i], "greedy") ? AI_PLAYOUT_GREEDY : -1;
            if (playout < 0) {
                fprintf(stderr, "bench_ismcts: --playout is greedy, fast or random\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--players") && i + 1 < argc)
            np = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--depth") && i + 1 < argc)
            depth = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rank") && i + 1 < argc)
            rank = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads-curve") && i + 1 < argc)
            curve = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cost"))
            cost = 1;
        else if (!strcmp(argv[i], "--cpu"))
            use_cpu = 1;
        else {
            fprintf(stderr, "usage: bench_ismcts [--seconds S] [--playout greedy|fast|random] [--players N] "
                            "[--depth D] [--rank D] [--threads-curve T] [--cost] [--cpu]\n");
            return 2;
        }
    }
    if (!(seconds > 0) || np < 2 || np > 5 || depth < 0 || curve < 0 || curve > 64) {
        fprintf(stderr, "bench_ismcts: --seconds above 0, --players 2 to 5, --depth 0 or more, "
                        "--threads-curve 1 to 64\n");
        return 2;
    }
    ai_params_default(&ws.prm);
    const char *pol = policy_name(playout);
    if (cost) {
        /* the playout policies side by side from the same positions, on the
         * thread's CPU clock (a shared machine does not skew it) */
        static const int pols[3] = {AI_PLAYOUT_RANDOM, AI_PLAYOUT_FAST, AI_PLAYOUT_GREEDY};
        static const double stages[3] = {0.9, 0.5, 0.2};
        static const char *const names[3] = {"early", "middle", "late"};
        printf("bench_ismcts --cost: %d players, playouts to the end, %.1f CPU s per measurement\n", np, seconds);
        printf("%-18s %-6s %-6s | %12s %9s %12s | %9s %9s\n", "edition", "stage", "policy", "dec/CPU-s",
               "dec/play", "play/CPU-s", "x rnd/dec", "x rnd/play");
        for (int ed = 0; ed < 2; ed++)
            for (int k = 0; k < 3; k++) {
                ch_state st;
                int p = position(&st, ed, np, 7 + (uint64_t)ed, stages[k]);
                if (p < 0)
                    continue;
                double rdec = 0, rplay = 0;
                for (int j = 0; j < 3; j++) {
                    double per = 0;
                    double dec = raw_rate_on(&st, p, pols[j], seconds, &per, thread_cpu_s);
                    double play = per > 0 ? dec / per : 0;
                    if (j == 0) {
                        rdec = dec;
                        rplay = play;
                    }
                    printf("%-18s %-6s %-6s | %12.0f %9.1f %12.1f | %8.2fx %8.2fx\n",
                           ed ? "The Golden Age" : "Building Amsterdam", names[k], policy_name(pols[j]), dec, per,
                           play, dec > 0 ? rdec / dec : 0, play > 0 ? rplay / play : 0);
                    fflush(stdout);
                }
            }
        return 0;
    }
    if (curve) {
        printf("bench_ismcts: %d players, %s playouts, depth %d, middle position, %.1f s per measurement\n", np,
               pol, depth, seconds);
        printf("%-18s %7s | %10s %9s %10s | %10s %8s\n", "edition", "threads", "it/s", "speedup", "per thread",
               "it/CPU-s", "CPU used");
        for (int ed = 0; ed < 2; ed++) {
            ch_state st;
            int p = position(&st, ed, np, 7 + (uint64_t)ed, 0.5);
            if (p < 0)
                continue;
            double one = 0;
            for (int t = 1; t <= curve; t++) {
                double r = search_rate(&st, p, playout, depth, t, seconds, NULL, NULL);
                if (t == 1)
                    one = r;
                /* iterations per CPU second of the whole process: flat when
                 * the trees do not slow each other down; CPU used: cores'
                 * worth the search got (threads on free cores, less on a
                 * shared machine) */
                printf("%-18s %7d | %10.1f %8.2fx %10.1f | %10.1f %8.2f\n", ed ? "The Golden Age" : "Building Amsterdam",
                       t, r, one > 0 ? r / one : 0, r / t, last_cpu_rate,
                       last_cpu_rate > 0 ? r / last_cpu_rate : 0);
                fflush(stdout);
            }
        }
        return 0;
    }
    printf("bench_ismcts: %d players, %s playouts, depth %d, %.1f %s per measurement%s\n", np, pol, depth, seconds,
           use_cpu ? "CPU s" : "s", use_cpu ? " (rates per CPU second)" : "");
    printf("%-18s %-6s %6s | %8s %9s %12s | %8s %9s %12s | %12s %8s\n", "edition", "stage", "supply", "it/s 1T",
           "steps/it", "dec/s in 1T", "it/s 2T", "speedup", "dec/s in 2T", "raw dec/s", "in/raw");
    static const double stages[3] = {0.9, 0.5, 0.2};
    static const char *const names[3] = {"early", "middle", "late"};
    for (int ed = 0; ed < 2; ed++) {
        for (int k = 0; k < 3; k++) {
            ch_state st;
            int p = position(&st, ed, np, 7 + (uint64_t)ed, stages[k]);
            if (p < 0) {
                printf("%-18s %-6s  (no such position)\n", ed ? "The Golden Age" : "Building Amsterdam", names[k]);
                continue;
            }
            double rate[2] = {0, 0}, dps[2] = {0, 0}, steps = 0;
            for (int t = 0; t < 2; t++)
                rate[t] = search_rate(&st, p, playout, depth, t + 1, seconds, &dps[t], t == 0 ? &steps : NULL);
            double per_game = 0;
            double raw = raw_rate_on(&st, p, playout, seconds, &per_game, use_cpu ? thread_cpu_s : now_s);
            printf("%-18s %-6s %6d | %8.1f %9.1f %12.0f | %8.1f %8.2fx %12.0f | %12.0f %7.0f%%\n",
                   ed ? "The Golden Age" : "Building Amsterdam", names[k], st.supply, rate[0], steps, dps[0],
                   rate[1], rate[0] > 0 ? rate[1] / rate[0] : 0, dps[1], raw, raw > 0 ? 100 * dps[0] / raw : 0);
            fflush(stdout);
        }
    }
    return 0;
}
