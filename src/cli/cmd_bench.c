/* cmd_bench.c: `chartered bench`, single-thread random playouts measuring the
 * engine's speed: full legal-move generation at every step (ch_legal into a
 * stack buffer), a uniformly random pick, ch_apply_fast. Reports decisions
 * and complete games per second, sizeof(ch_state) and heap allocations per
 * game (counted by bench_alloc.c). --edition, --preset and --events choose
 * the games (mix.c): Building Amsterdam, The Golden Age, or both in turn.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define BENCH_CAP 4096          /* moves in the stack buffer */
#define BENCH_MAX_DECISIONS 100000

/* CPU nanoseconds of one state copy (a memcpy, what a search does for every
 * iteration and a playout for every determinisation): the mean of N copies
 * of the last state, alternating between two buffers. */
static double state_copy_ns(const ch_state *last, int N)
{
    static ch_state buf[2];
    if (N <= 0)
        return 0;
    buf[0] = *last;
    double c0 = cli_cpu_now();
    for (int i = 0; i < N; i++) {
        memcpy(&buf[(i + 1) & 1], &buf[i & 1], sizeof(ch_state));
        __asm__ __volatile__("" : : "r"(buf) : "memory"); /* keep every copy */
    }
    double c = cli_cpu_now() - c0;
    return c > 0 ? c * 1e9 / N : 0;
}

int cmd_bench(int argc, char **argv)
{
    int players = 4, copies = 200000, games = 0, seen_games = 0, seen_seconds = 0, as_json = 0;
    double seconds = 3.0;
    uint64_t seed = 1;
    const char *arrangement = NULL, *edition = "amsterdam", *preset = NULL;
    const char *events = NULL, *variant = NULL;
    int edition_seen = 0, players_seen = 0;
    const opt_spec specs[] = {
        {"edition", 'e', OPT_STR, &edition, "NAME", 0, 0,
         "amsterdam (default), golden-age, or all to alternate them", &edition_seen},
        {"players", 'p', OPT_INT, &players, "N", 2, CH_MAX_PLAYERS,
         "players per game (default 4; Building Amsterdam 2-5, The Golden "
         "Age 2-6)", &players_seen},
        {"variant", 0, OPT_STR, &variant, "FILE", 0, 0,
         "a variant file (docs/variants.md) for every game", NULL},
        {"preset", 0, OPT_STR, &preset, "NAME", 0, 0,
         "Golden Age preset: golden-age (default), golden-age-first, or both "
         "in turn", NULL},
        {"events", 0, OPT_STR, &events, "on|off|both", 0, 0,
         "Golden Age event cards (default off)", NULL},
        {"games", 'g', OPT_INT, &games, "G", 1, 1000000000,
         "stop after G complete games", &seen_games},
        {"seconds", 't', OPT_DOUBLE, &seconds, "T",
         0, 0, "stop after T seconds, between games (default 3 when --games "
         "is not given)", &seen_seconds},
        {"seed", 's', OPT_U64, &seed, "S", 0, 0,
         "game i uses seed S+i; the move picks too (default 1)", NULL},
        {"arrangement", 'a', OPT_STR, &arrangement, "NAME", 0, 0,
         "built-in arrangement (default: Building Amsterdam's first; The "
         "Golden Age: the side of the preset)", NULL},
        {"copies", 0, OPT_INT, &copies, "N", 0, 100000000,
         "state copies timed after the games (default 200000; 0: none, as "
         "bench/instructions.sh does)", NULL},
        {"json", 0, OPT_FLAG, &as_json, NULL, 0, 0,
         "print one JSON line instead of text", NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL}};
    static const opt_cmd cmd = {"bench",
                                "chartered bench [--edition amsterdam|golden-age|all] "
                                "[--players 4] [--preset NAME|both] [--events on|off|both] "
                                "[--games G] [--seconds T] [--seed S] [--arrangement NAME] "
                                "[--variant FILE] [--copies N] [--json]",
                                "Random playouts on one thread: every step lists all legal "
                                "moves (ch_legal),\npicks one uniformly and applies it with "
                                "ch_apply_fast.",
                                0, NULL};
    char *pos[argc + 1];
    int npos, rc;
    if (!opts_start(&cmd, argc, argv, specs, pos, &npos, &rc))
        return rc;
    int use_time = seen_seconds || !seen_games;

    if (arrangement && strcmp(arrangement, "all") == 0) {
        cli_error("chartered bench: --arrangement expects one built-in "
                  "arrangement, not all");
        return EXIT_USAGE;
    }
    cli_mix mix;
    if ((rc = cli_mix_init_variant(&mix, "bench", variant, edition, edition_seen, players,
                                   players_seen, preset, events, arrangement, "golden-age", "off")))
        return rc;
    /* The configuration printed: the first game's (every game's, unless
     * something cycles). */
    cli_game g0;
    cli_mix_game(&mix, 0, seed, &g0);
    char conf[200];
    if (mix.neds > 1)
        snprintf(conf, sizeof conf, "amsterdam and golden-age in turn");
    else if (g0.set.edition == CH_ED_GOLDEN_AGE)
        snprintf(conf, sizeof conf, "golden-age, preset %s, events %s",
                 mix.npresets > 1 ? "both in turn"
                                  : cli_preset_name(g0.set.preset),
                 mix.nevents > 1 ? "on and off in turn"
                                 : g0.set.events ? "on" : "off");
    else
        snprintf(conf, sizeof conf, "amsterdam");
    if (mix.has_variant) {
        size_t l = strlen(conf);
        snprintf(conf + l, sizeof conf - l, ", variant %s", mix.variant.name);
    }
    players = g0.set.nplayers; /* a variant may set the count */
    const char *arr_text = mix.neds > 1 ? "as the games need" : g0.arr;
    cli_game g;
    ch_msg err = {{0}};

    ch_move buf[BENCH_CAP];
    ch_state st;
    ch_rng rng;
    ch_rng_seed(&rng, seed);
    uint64_t decisions = 0, done = 0, truncated = 0, turns = 0;
    int failed = 0;

    bench_alloc_start();
    double t0 = cli_now(), c0 = cli_cpu_now(), elapsed = 0;
    for (;;) {
        cli_mix_game(&mix, done, seed + done, &g);
        if ((rc = ch_new(&st, &g.set, g.board, &err)) != CH_OK) {
            bench_alloc_stop();
            cli_error("chartered bench: ch_new: %s", err.text);
            cli_mix_free(&mix);
            return EXIT_FAIL;
        }
        uint64_t nd = 0;
        for (;;) {
            unsigned mask = 0;
            if (ch_decider(&st, &mask) == CH_DEC_TERMINAL)
                break;
            int p = mask ? __builtin_ctz(mask) : CH_MAX_PLAYERS; /* the lowest decider */
            int n = ch_legal(&st, p, buf, BENCH_CAP);
            if (n > BENCH_CAP) {
                truncated++;
                n = BENCH_CAP;
            }
            if (n <= 0 || p >= CH_MAX_PLAYERS || nd >= BENCH_MAX_DECISIONS) {
                failed = 1;
                break;
            }
            ch_apply_fast(&st, p, buf[ch_rng_below(&rng, (uint32_t)n)]);
            nd++;
        }
        decisions += nd;
        if (failed)
            break;
        turns += st.turn_no;
        done++;
        elapsed = cli_now() - t0;
        if (seen_games && done >= (uint64_t)games)
            break;
        if (use_time && elapsed >= seconds)
            break;
    }
    elapsed = cli_now() - t0;
    double cpu = cli_cpu_now() - c0;
    bench_alloc_stop();
    cli_mix_free(&mix);
    if (failed) {
        char flags[200];
        cli_mix_flags(&mix, &g, flags, sizeof flags);
        cli_error("chartered bench: game with seed %" PRIu64 " stuck after %"
                  PRIu64 " decisions (no legal move or no end); run 'chartered "
                  "selfplay --games 1 --seed %" PRIu64 " %s' to see why",
                  seed + done, decisions, seed + done, flags);
        return EXIT_FAIL;
    }
    double copy_ns = state_copy_ns(&st, copies);
    unsigned long long allocs = bench_alloc_count();
    int have_allocs = bench_alloc_available();
    double dps = elapsed > 0 ? (double)decisions / elapsed : 0;
    double gps = elapsed > 0 ? (double)done / elapsed : 0;
    double apg = done ? (double)allocs / (double)done : 0;
    /* CPU time of this thread: on a shared machine the wall clock also
     * counts the time other programs held the core. */
    double cdps = cpu > 0 ? (double)decisions / cpu : 0;
    double cgps = cpu > 0 ? (double)done / cpu : 0;
    if (as_json) {
        printf("{\"edition\":\"%s\",", cli_mix_edition_text(&mix));
        if (mix.eds[mix.neds - 1] == CH_ED_GOLDEN_AGE)
            printf("\"preset\":\"%s\",\"events\":\"%s\",",
                   mix.npresets > 1 ? "both" : cli_preset_name(g0.set.preset),
                   mix.nevents > 1 ? "both" : g0.set.events ? "on" : "off");
        printf("\"players\":%d,\"arrangement\":\"%s\",\"seed\":%" PRIu64
               ",\"games\":%" PRIu64 ",\"decisions\":%" PRIu64
               ",\"seconds\":%.3f,\"decisions_per_second\":%.0f"
               ",\"games_per_second\":%.1f,\"avg_decisions\":%.1f"
               ",\"cpu_seconds\":%.3f,\"decisions_per_cpu_second\":%.0f"
               ",\"games_per_cpu_second\":%.1f"
               ",\"avg_turns\":%.1f,\"sizeof_state\":%zu,\"state_copy_ns\":%.1f,",
               players, arr_text, seed, done, decisions, elapsed, dps, gps,
               done ? (double)decisions / (double)done : 0.0, cpu, cdps, cgps,
               done ? (double)turns / (double)done : 0.0, sizeof(ch_state), copy_ns);
        if (have_allocs)
            printf("\"allocations_per_game\":%.2f,\"allocations\":%llu",
                   apg, allocs);
        else
            printf("\"allocations_per_game\":null,\"allocations\":null");
        printf(",\"truncated_legal\":%" PRIu64 "}\n", truncated);
        return 0;
    }
    printf("chartered bench: %s, %d players, arrangement %s, seed %" PRIu64
           ", one thread\n", conf, players, arr_text, seed);
    printf("  games             %" PRIu64 " complete in %.2f s (%.2f s of CPU time)\n", done,
           elapsed, cpu);
    printf("  decisions         %" PRIu64 " (%.1f per game, %.1f turns per "
           "game)\n", decisions, done ? (double)decisions / (double)done : 0.0,
           done ? (double)turns / (double)done : 0.0);
    printf("  decisions/second  %.0f (%.0f per CPU second)\n", dps, cdps);
    printf("  games/second      %.1f (%.1f per CPU second)\n", gps, cgps);
    printf("  sizeof(ch_state)  %zu bytes, a copy (memcpy) %.1f ns of CPU\n", sizeof(ch_state),
           copy_ns);
    if (have_allocs)
        printf("  heap allocations  %.2f per game (%llu in all)\n", apg, allocs);
    else
        printf("  heap allocations  not counted (sanitizer build)\n");
    if (truncated)
        printf("  note: %" PRIu64 " steps had more than %d legal moves; the "
               "pick was among the first %d\n", truncated, BENCH_CAP,
               BENCH_CAP);
    return 0;
}
