/* cmd_arena.c: `chartered arena`, games between any mix of built-in bots
 * and programs speaking the bot protocol (docs/bot-protocol.md), with seats
 * rotated, games run in parallel, results as CSV and JSON, and ratings with
 * confidence intervals (stats.c). The flags that choose the bots and the
 * tables are shared with `chartered analyze`.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"

void arena_flags_default(arena_flags *f, int def_games)
{
    memset(f, 0, sizeof *f);
    f->games = def_games;
    f->seed = 1;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    f->jobs = n > 0 ? (int)(n > 256 ? 256 : n) : 1;
    f->edition = "amsterdam";
    f->time_ms = 5000;
}

void arena_flag_specs(arena_flags *f, opt_spec *s)
{
    const opt_spec specs[ARENA_NFLAGS] = {
        {"games", 'g', OPT_INT, &f->games, "N", 1, 10000000,
         "number of games", NULL},
        {"seed", 's', OPT_U64, &f->seed, "S",
         0, 0, "game i (from 0) uses seed S+i (default 1)", NULL},
        {"jobs", 'j', OPT_INT, &f->jobs, "J", 1, 256,
         "games played at once (default: the number of cores)", NULL},
        {"edition", 'e', OPT_STR, &f->edition, "NAME", 0, 0,
         "amsterdam (default), golden-age or all", &f->edition_seen},
        {"players", 'p', OPT_INT, &f->players, "N", 0, CH_MAX_PLAYERS,
         "players per game (default: the number of bots, at least 2; 0 "
         "cycles)", &f->players_seen},
        {"preset", 0, OPT_STR, &f->preset, "NAME", 0, 0,
         "Golden Age: golden-age (default), golden-age-first or both", NULL},
        {"events", 0, OPT_STR, &f->events, "on|off|both", 0, 0,
         "Golden Age: shuffle in the event cards (default off)", NULL},
        {"arrangement", 'a', OPT_STR, &f->arrangement, "NAME", 0, 0,
         "built-in arrangement, all to cycle, or an arrangement file (a path with a / or ending in .arr; default: the edition's)",
         NULL},
        {"variant", 0, OPT_STR, &f->variant, "FILE", 0, 0,
         "a variant file (docs/variants.md) for every game", NULL},
        {"time", 't', OPT_INT, &f->time_ms, "MS", 1, 3600000,
         "protocol bots: time limit per move in ms (default 5000)", NULL},
        {"clock", 0, OPT_STR, &f->clock, "MS[+INC]", 0, 0,
         "protocol bots of version 2: a game clock of MS ms per seat, INC ms "
         "added after each move (instead of --time per move)", NULL},
        {"fallback", 0, OPT_STR, &f->fallback, "NAME", 0, 0,
         "built-in bot that takes over a failed bot's seat (default: greedy "
         "if built in, else random)", NULL},
        {"log", 0, OPT_STR, &f->log_dir, "DIR", 0, 0,
         "write each protocol bot's transcript, every line in full, to "
         "DIR/game-G-seatS.log",
         NULL},
        {"verbose", 'v', OPT_FLAG, &f->verbose, NULL, 0, 0,
         "print the protocol bots' info lines on stderr", NULL},
        {"quiet", 'q', OPT_FLAG, &f->quiet, NULL, 0, 0,
         "no progress bar", NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL},
    };
    memcpy(s, specs, sizeof specs);
}

int arena_configure(const char *cmd, arena_flags *f, const char **bots,
                    int nbots, arena_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->cmd = cmd;
    const char *def_bot[] = {"random"};
    if (nbots == 0) {
        bots = def_bot;
        nbots = 1;
    }
    int rc = arena_lineup(cmd, cfg, bots, nbots);
    if (rc)
        return rc;
    if (f->fallback) {
        arena_entry e;
        char err[400];
        if (arena_entry_parse(f->fallback, &e, err, sizeof err) != 0 ||
            e.is_exec || e.options[0]) {
            cli_error("chartered %s: --fallback expects the name of a "
                      "built-in bot, got %s", cmd,
                      e.is_exec || e.options[0] ? f->fallback : err);
            return EXIT_USAGE;
        }
    }
    int players = f->players;
    if (!f->players_seen) {
        int maxp = f->edition && strcmp(f->edition, "golden-age") == 0 ? 6 : 5;
        players = nbots < 2 ? 4 : nbots > maxp ? maxp : nbots;
    } else if (players == 1) {
        cli_error("chartered %s: --players 1: a game needs 2 players or more "
                  "(0 cycles the edition's counts)", cmd);
        return EXIT_USAGE;
    }
    rc = cli_mix_init_variant(&cfg->mix, cmd, f->variant, f->edition, f->edition_seen, players,
                              f->players_seen, f->preset, f->events, f->arrangement, "golden-age",
                              "off");
    if (rc)
        return rc;
    cfg->games = f->games;
    cfg->seed = f->seed;
    cfg->jobs = f->jobs;
    cfg->time_ms = f->time_ms;
    if (f->clock) {
        char *end = NULL;
        errno = 0;
        long ms = strtol(f->clock, &end, 10), inc = 0;
        if (!errno && end != f->clock && *end == '+') {
            const char *i = end + 1;
            inc = strtol(i, &end, 10);
            if (end == i)
                end = (char *)"x";
        }
        if (errno || end == f->clock || *end || ms < 1 || ms > 86400000 || inc < 0 ||
            inc > 3600000) {
            cli_error("chartered %s: --clock '%s': expected MS or MS+INC, milliseconds "
                      "(MS from 1 to 86400000, INC from 0 to 3600000)", cmd, f->clock);
            cli_mix_free(&cfg->mix);
            return EXIT_USAGE;
        }
        cfg->clock_ms = (int)ms;
        cfg->inc_ms = (int)inc;
    }
    cfg->fallback = f->fallback;
    cfg->log_dir = f->log_dir;
    cfg->echo_info = f->verbose;
    cfg->progress = !f->quiet && isatty(2);
    return 0;
}

json_t *arena_run_json(const arena_cfg *cfg, const arena_flags *f)
{
    json_t *run = json_object();
    json_object_set_new(run, "games", json_integer(cfg->games));
    json_object_set_new(run, "seed", gf_seed_json(cfg->seed));
    json_object_set_new(run, "edition", json_string(f->edition));
    json_object_set_new(run, "players", json_integer(cfg->mix.players));
    if (f->preset)
        json_object_set_new(run, "preset", json_string(f->preset));
    if (f->events)
        json_object_set_new(run, "events", json_string(f->events));
    if (f->arrangement)
        json_object_set_new(run, "arrangement", json_string(f->arrangement));
    if (f->variant)
        json_object_set_new(run, "variant", json_string(f->variant));
    json_t *bots = json_array();
    for (int e = 0; e < cfg->nentries; e++)
        json_array_append_new(bots, json_string(cfg->entries[e].label));
    json_object_set_new(run, "bots", bots);
    json_object_set_new(run, "time_ms", json_integer(cfg->time_ms));
    if (cfg->clock_ms) {
        json_object_set_new(run, "clock_ms", json_integer(cfg->clock_ms));
        json_object_set_new(run, "inc_ms", json_integer(cfg->inc_ms));
    }
    json_object_set_new(run, "fallback",
                        json_string(cfg->fallback ? cfg->fallback
                                                  : arena_default_fallback()));
    return run;
}

static int make_dir(const char *cmd, const char *dir)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_error("chartered %s: cannot create '%s': %s", cmd, dir,
                  strerror(errno));
        return EXIT_FAIL;
    }
    return 0;
}

int cmd_arena(int argc, char **argv)
{
    const char *bots[ARENA_MAX_BOTS];
    int nbots = 0;
    argc = arena_take_bots("arena", argc, argv, bots, &nbots);
    if (argc < 0)
        return EXIT_USAGE;
    arena_flags f;
    arena_flags_default(&f, 20);
    const char *out = NULL;
    opt_spec specs[ARENA_NFLAGS + 2];
    arena_flag_specs(&f, specs);
    specs[0].help = "number of games (default 20)";
    specs[ARENA_NFLAGS - 1] = (opt_spec){"out", 'o', OPT_STR, &out, "DIR", 0,
                                         0, "write DIR/games.csv and "
                                         "DIR/summary.json", NULL};
    memset(&specs[ARENA_NFLAGS], 0, sizeof specs[ARENA_NFLAGS]);
    static const opt_cmd cmd = {"arena",
                                "chartered arena --bot SPEC [--bot SPEC ...] [--games N] "
                                "[--seed S] [--jobs J]\n"
                                "                       [--edition NAME] [--players N] "
                                "[--preset P] [--events E]\n"
                                "                       [--arrangement NAME] [--variant FILE] [--time MS] "
                                "[--out DIR]",
                                "Plays N games between bots, seats rotated so that each bot "
                                "plays each seat\nequally, and prints win rates and ratings "
                                "with 95% confidence intervals.\nA bot SPEC is NAME or "
                                "NAME:OPTIONS for a built-in bot (random, greedy, rollout,\nismcts: "
                                "'ismcts:iterations=500'), or exec:COMMAND for a program "
                                "speaking the\nbot protocol (docs/bot-protocol.md), e.g. "
                                "'exec:python3 examples/bot.py'.\n-b SPEC, --bot SPEC may be "
                                "given up to 16 times (default: random);\n--bot-option "
                                "NAME=VALUE after an exec: bot sets one of its options\n"
                                "(protocol 2).",
                                0, "bots are given with --bot"};
    char *pos[argc + 1];
    int npos, rc;
    if (!opts_start(&cmd, argc, argv, specs, pos, &npos, &rc))
        return rc;
    arena_cfg cfg;
    rc = arena_configure("arena", &f, bots, nbots, &cfg);
    if (rc)
        return rc;
    if (out && (rc = make_dir("arena", out)) != 0) {
        cli_mix_free(&cfg.mix);
        return rc;
    }
    arena_results res;
    rc = arena_run(&cfg, &res);
    if (rc) {
        cli_mix_free(&cfg.mix);
        return rc;
    }
    arena_stats st;
    stats_compute(&res, cfg.seed, &st);
    int failed = 0;
    for (int i = 0; i < res.ngames; i++)
        failed += res.games[i].failed;
    long turns = 0, decisions = 0;
    for (int i = 0; i < res.ngames; i++) {
        turns += res.games[i].turns;
        decisions += res.games[i].decisions;
    }
    char players[80];
    if (cfg.mix.players)
        snprintf(players, sizeof players, "%d players", cfg.mix.players);
    else
        snprintf(players, sizeof players, "players cycled");
    if (cfg.mix.has_variant) { /* which game this was: the variant's name */
        size_t l = strlen(players);
        snprintf(players + l, sizeof players - l, ", variant %s", cfg.mix.variant.name);
    }
    printf("chartered arena: %d games (seeds %" PRIu64 "..%" PRIu64 "), %s, "
           "%s; %d jobs, %.1f s\n",
           res.ngames, cfg.seed, cfg.seed + (uint64_t)(res.ngames - 1),
           cli_mix_edition_text(&cfg.mix), players, cfg.jobs, res.seconds);
    if (res.ngames > 0)
        printf("games: %.1f turns and %.1f decisions on average%s\n\n",
               (double)turns / res.ngames, (double)decisions / res.ngames,
               failed ? " (failed games included)" : "");
    if (res.ngames % cfg.nentries != 0)
        printf("note: %d games is not a multiple of %d bots, so the seats "
               "are not exactly balanced\n\n", res.ngames, cfg.nentries);
    stats_print(stdout, &res, &st);
    printf("\n");
    arena_print_think(stdout, &cfg, &res);
    if (out) {
        char path[4096];
        snprintf(path, sizeof path, "%s/games.csv", out);
        rc = arena_write_csv(path, &res);
        if (!rc) {
            snprintf(path, sizeof path, "%s/summary.json", out);
            json_t *run = arena_run_json(&cfg, &f);
            rc = stats_write_summary(path, &res, &st, run);
            json_decref(run);
        }
        if (!rc)
            printf("\nwrote %s/games.csv and %s/summary.json\n", out, out);
    }
    if (!rc && failed) {
        cli_error("chartered arena: %d game%s could not be finished", failed,
                  failed == 1 ? "" : "s");
        rc = EXIT_FAIL;
    }
    arena_results_free(&res);
    cli_mix_free(&cfg.mix);
    return rc;
}
