/* cmd_bench.c: `chartered bench`, single-thread random playouts measuring the
 * engine's speed: full legal-move generation at every step (ch_legal into a
 * stack buffer), a uniformly random pick, ch_apply_fast. Reports decisions
 * and complete games per second, sizeof(ch_state) and heap allocations per
 * game (counted by bench_alloc.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define BENCH_CAP 4096          /* moves in the stack buffer */
#define BENCH_MAX_DECISIONS 100000

int cmd_bench(int argc, char **argv)
{
    int players = 4, games = 0, seen_games = 0, seen_seconds = 0, as_json = 0;
    double seconds = 3.0;
    uint64_t seed = 1;
    const char *arrangement = NULL;
    const opt_spec specs[] = {
        {"players", 'p', OPT_INT, &players, "N", 2, 5,
         "players per game (default 4)", NULL},
        {"games", 'g', OPT_INT, &games, "G", 1, 1000000000,
         "stop after G complete games", &seen_games},
        {"seconds", 't', OPT_DOUBLE, &seconds, "T",
         0, 0, "stop after T seconds, between games (default 3 when --games "
         "is not given)", &seen_seconds},
        {"seed", 's', OPT_U64, &seed, "S", 0, 0,
         "game i uses seed S+i; the move picks too (default 1)", NULL},
        {"arrangement", 'a', OPT_STR, &arrangement, "NAME", 0, 0,
         "built-in arrangement (default: the first)", NULL},
        {"json", 0, OPT_FLAG, &as_json, NULL, 0, 0,
         "print one JSON line instead of text", NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL}};
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    int npos = 0;
    int rc = opts_parse("bench", argc, argv, specs, pos, &npos);
    if (rc == OPTS_HELP) {
        opts_help(stdout,
                  "chartered bench [--players 4] [--games G] [--seconds T] "
                  "[--seed S] [--json]",
                  "Random playouts on one thread: every step lists all legal "
                  "moves (ch_legal),\npicks one uniformly and applies it with "
                  "ch_apply_fast.",
                  specs);
        free(pos);
        return 0;
    }
    if (rc) {
        free(pos);
        return rc;
    }
    if (npos > 0) {
        cli_error("chartered bench: unexpected argument '%s'", pos[0]);
        free(pos);
        return EXIT_USAGE;
    }
    free(pos);
    int use_time = seen_seconds || !seen_games;

    const char *const *names = ch_board_builtin_names(CH_ED_AMSTERDAM);
    if (!arrangement)
        arrangement = names && names[0] ? names[0] : "standard";
    static ch_board board;
    ch_msg err = {{0}};
    if ((rc = ch_board_builtin(&board, CH_ED_AMSTERDAM, arrangement, &err))) {
        cli_error("chartered bench: --arrangement '%s': %s", arrangement,
                  err.text);
        return EXIT_USAGE;
    }
    ch_setup set;
    ch_setup_default(&set, CH_ED_AMSTERDAM);
    set.edition = CH_ED_AMSTERDAM;
    set.nplayers = players;

    ch_move buf[BENCH_CAP];
    ch_state st;
    cli_rng rng;
    cli_rng_seed(&rng, seed);
    uint64_t decisions = 0, done = 0, truncated = 0, turns = 0;
    int failed = 0;

    bench_alloc_start();
    double t0 = cli_now(), elapsed = 0;
    for (;;) {
        set.seed = seed + done;
        if ((rc = ch_new(&st, &set, &board, &err)) != CH_OK) {
            bench_alloc_stop();
            cli_error("chartered bench: ch_new: %s", err.text);
            return EXIT_FAIL;
        }
        uint64_t nd = 0;
        for (;;) {
            unsigned mask = 0;
            if (ch_decider(&st, &mask) == CH_DEC_TERMINAL)
                break;
            int p = 0;
            while (p < CH_MAX_PLAYERS && !(mask & (1u << p)))
                p++;
            int n = ch_legal(&st, p, buf, BENCH_CAP);
            if (n > BENCH_CAP) {
                truncated++;
                n = BENCH_CAP;
            }
            if (n <= 0 || p >= CH_MAX_PLAYERS || nd >= BENCH_MAX_DECISIONS) {
                failed = 1;
                break;
            }
            ch_apply_fast(&st, p, buf[cli_rng_below(&rng, (uint32_t)n)]);
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
    bench_alloc_stop();
    if (failed) {
        cli_error("chartered bench: game with seed %" PRIu64 " stuck after %"
                  PRIu64 " decisions (no legal move or no end); run 'chartered "
                  "selfplay --games 1 --seed %" PRIu64 " --players %d' to see "
                  "why", seed + done, decisions, seed + done, players);
        return EXIT_FAIL;
    }
    unsigned long long allocs = bench_alloc_count();
    int have_allocs = bench_alloc_available();
    double dps = elapsed > 0 ? (double)decisions / elapsed : 0;
    double gps = elapsed > 0 ? (double)done / elapsed : 0;
    double apg = done ? (double)allocs / (double)done : 0;
    if (as_json) {
        printf("{\"players\":%d,\"arrangement\":\"%s\",\"seed\":%" PRIu64
               ",\"games\":%" PRIu64 ",\"decisions\":%" PRIu64
               ",\"seconds\":%.3f,\"decisions_per_second\":%.0f"
               ",\"games_per_second\":%.1f,\"avg_decisions\":%.1f"
               ",\"avg_turns\":%.1f,\"sizeof_state\":%zu,",
               players, arrangement, seed, done, decisions, elapsed, dps, gps,
               done ? (double)decisions / (double)done : 0.0,
               done ? (double)turns / (double)done : 0.0, sizeof(ch_state));
        if (have_allocs)
            printf("\"allocations_per_game\":%.2f,\"allocations\":%llu",
                   apg, allocs);
        else
            printf("\"allocations_per_game\":null,\"allocations\":null");
        printf(",\"truncated_legal\":%" PRIu64 "}\n", truncated);
        return 0;
    }
    printf("chartered bench: %d players, arrangement %s, seed %" PRIu64
           ", one thread\n", players, arrangement, seed);
    printf("  games             %" PRIu64 " complete in %.2f s\n", done,
           elapsed);
    printf("  decisions         %" PRIu64 " (%.1f per game, %.1f turns per "
           "game)\n", decisions, done ? (double)decisions / (double)done : 0.0,
           done ? (double)turns / (double)done : 0.0);
    printf("  decisions/second  %.0f\n", dps);
    printf("  games/second      %.1f\n", gps);
    printf("  sizeof(ch_state)  %zu bytes\n", sizeof(ch_state));
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
