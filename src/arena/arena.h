/* arena.h: games between bots for `chartered arena` and `chartered analyze`
 * (docs/cli.md): the line-up of bots (built-in ones and protocol programs),
 * running games on worker threads (arena.c), the per-game records with
 * their CSV and JSON forms, and the statistics over them (stats.c):
 * Bradley-Terry ratings with bootstrap intervals, win rates with Wilson
 * intervals, by bot, seat and turn order.
 */
#ifndef CHARTERED_ARENA_H
#define CHARTERED_ARENA_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"

#define ARENA_MAX_BOTS 16
#define ARENA_LABEL 160
#define ARENA_MAX_SET 16  /* --bot-option flags per bot */

/* One bot of the line-up, from a --bot SPEC: "NAME", "NAME:OPTIONS" (a
 * built-in bot of libchartered_ai) or "exec:COMMAND" (a program speaking
 * the bot protocol). */
typedef struct arena_entry {
    char label[ARENA_LABEL]; /* the spec as given; "#2", "#3" added to repeats */
    int is_exec;
    char name[32];           /* built-in: the bot's name                      */
    char options[128];       /* built-in: its options                         */
    char cmd[ARENA_LABEL];   /* exec: the shell command                      */
    int nset;                /* exec: --bot-option NAME=VALUE after its --bot */
    char set_name[ARENA_MAX_SET][64];
    char set_value[ARENA_MAX_SET][256];
} arena_entry;

/* Read a --bot SPEC into *e (label not yet made unique). Built-in names are
 * checked by creating the bot once. 0, or -1 with the reason in err. */
int arena_entry_parse(const char *spec, arena_entry *e, char *err, size_t n);
/* "greedy" when the library has it, else "random". */
const char *arena_default_fallback(void);

typedef struct arena_cfg {
    int nentries;
    arena_entry entries[ARENA_MAX_BOTS];
    int games;
    uint64_t seed;
    int jobs;
    cli_mix mix;               /* editions, players, boards (mix.c)          */
    int time_ms;               /* protocol bots: time limit per move        */
    int clock_ms, inc_ms;      /* protocol bots (version 2): a game clock per
                                  seat and its increment, 0: none            */
    const char *fallback;      /* built-in bot that replaces a failed one   */
    const char *log_dir;       /* protocol transcripts, or NULL              */
    int echo_info;             /* protocol bots' info lines on stderr        */
    int progress;              /* progress bar on stderr                     */
    const char *cmd;           /* "arena" or "analyze", for messages         */
} arena_cfg;

/* The result of one game. */
typedef struct arena_game {
    int index;
    uint64_t seed;
    int edition, nplayers, preset, events;
    char arr[256];             /* built-in arrangement, or the file's path */
    int first_player;                 /* seat, 0-based                      */
    int entry[CH_MAX_PLAYERS];        /* line-up index per seat            */
    int32_t score[CH_MAX_PLAYERS];
    unsigned winners;                 /* bit per seat                       */
    unsigned fallbacks;               /* seats whose bot failed             */
    int turns;
    long decisions;
    int founded, merged;              /* companies founded, absorbed        */
    int action_roof, action_event;    /* action cards played                */
    uint32_t moves[CH_M_NTYPES];      /* moves made, by type                */
    double think[CH_MAX_PLAYERS];     /* seconds choosing moves, per seat: a
                                         built-in bot's CPU time (its thread),
                                         a protocol bot's wall-clock time    */
    long chosen[CH_MAX_PLAYERS];      /* moves chosen, per seat              */
    char events_text[400];            /* "Verlappen=2;Veilinge=1"          */
    char values_text[400];            /* final values "Tea=120;Coal=0;..."  */
    int failed;                       /* the game could not be finished     */
    char error[640];
} arena_game;

typedef struct arena_results {
    int nentries;
    char label[ARENA_MAX_BOTS][ARENA_LABEL];
    int ngames;
    arena_game *games;
    unsigned long bot_errors[ARENA_MAX_BOTS]; /* protocol failures per bot  */
    double seconds;
} arena_results;

/* Print each bot's time per move over the run's games (built-in bots: CPU
 * time of the thread that plays them; protocol bots: wall-clock time from
 * "go" to "move"). */
void arena_print_think(FILE *f, const arena_cfg *cfg, const arena_results *res);

/* Play cfg->games games (game i: seed cfg->seed + i, seats rotated, see
 * arena.c) on cfg->jobs threads. Results come in game order whatever the
 * number of threads. 0, or EXIT_FAIL after a message. */
int arena_run(arena_cfg *cfg, arena_results *res);
void arena_results_free(arena_results *res);

/* The short name of a move type ("draw", "play", ...). */
const char *arena_move_name(int type);

/* games.csv: one row per game (see docs/cli.md). */
int arena_write_csv(const char *path, const arena_results *res);
/* Read games.csv back (labels in order of first appearance). */
int arena_read_csv(const char *path, arena_results *res);

/* ---- statistics (stats.c) ------------------------------------------------- */
typedef struct arena_stats {
    int nentries;
    int ngames;                        /* games counted (not failed)         */
    int maxp;                          /* most players in a game             */
    long apps[ARENA_MAX_BOTS];         /* seats played                       */
    long wins[ARENA_MAX_BOTS];         /* of those, won (shared wins count)  */
    long forfeits[ARENA_MAX_BOTS];     /* seats lost because the bot failed  */
    double wr[ARENA_MAX_BOTS], wlo[ARENA_MAX_BOTS], whi[ARENA_MAX_BOTS];
    double avg_score[ARENA_MAX_BOTS];
    int rated;                         /* ratings computed (2+ bots)          */
    double rating[ARENA_MAX_BOTS];     /* Elo scale, mean 0                   */
    double rlo[ARENA_MAX_BOTS], rhi[ARENA_MAX_BOTS]; /* 95%: the wider of:   */
    double blo[ARENA_MAX_BOTS], bhi[ARENA_MAX_BOTS]; /* bootstrap over games */
    double flo[ARENA_MAX_BOTS], fhi[ARENA_MAX_BOTS]; /* Fisher information   */
    int bootstrap;                     /* resamples behind blo/bhi            */
    long seat_games[CH_MAX_PLAYERS], seat_wins[CH_MAX_PLAYERS];
    long pos_games[CH_MAX_PLAYERS], pos_wins[CH_MAX_PLAYERS]; /* turn order */
    long es_games[ARENA_MAX_BOTS][CH_MAX_PLAYERS];
    long es_wins[ARENA_MAX_BOTS][CH_MAX_PLAYERS];
    double expected_wr;                /* mean of 1/players over the seats   */
} arena_stats;

/* 95% Wilson score interval of k successes in n trials. */
void stats_wilson(long k, long n, double *lo, double *hi);
/* Everything above; the bootstrap is seeded by seed (reproducible). */
void stats_compute(const arena_results *res, uint64_t seed, arena_stats *s);
/* The readable table of `arena` (bots, ratings, win rates, seats). */
void stats_print(FILE *f, const arena_results *res, const arena_stats *s);
/* summary.json. */
int stats_write_summary(const char *path, const arena_results *res,
                        const arena_stats *s, json_t *run);

/* ---- the flags shared by arena and analyze (cmd_arena.c) --------------------- */
typedef struct arena_flags {
    int games;
    uint64_t seed;
    int jobs;
    const char *edition, *preset, *events, *arrangement;
    const char *variant;       /* --variant FILE (docs/variants.md)          */
    int edition_seen;
    int players, players_seen;
    int time_ms;
    const char *clock;
    const char *fallback;
    const char *log_dir;
    int verbose, quiet;
} arena_flags;

#define ARENA_NFLAGS 16
/* Defaults (games: def_games). */
void arena_flags_default(arena_flags *f, int def_games);
/* Write the specs of the shared flags into specs[0..ARENA_NFLAGS): --games
 * first, the all-zero terminator last (at ARENA_NFLAGS - 1), so that a
 * command may put a flag of its own there and terminate after it. */
void arena_flag_specs(arena_flags *f, opt_spec *specs);
/* Check the flags and the bots and fill *cfg (line-up, mix, ...). 0, or
 * EXIT_USAGE / EXIT_FAIL after a message. */
int arena_configure(const char *cmd, arena_flags *f, const char **bots,
                    int nbots, arena_cfg *cfg);
/* The settings of a run as JSON (for summary.json). */
json_t *arena_run_json(const arena_cfg *cfg, const arena_flags *f);

/* ---- subcommands ----------------------------------------------------------- */
int cmd_arena(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
/* `chartered review GAME.json`: one game's win chances and moments (cmd_review.c). */
int cmd_review(int argc, char **argv);

/* Shared by arena and analyze: take every "--bot SPEC" / "--bot=SPEC" /
 * "-b SPEC" out of argv (before any "--"), appending the specs to bots[].
 * Returns the new argc, or -1 after a message. */
int arena_take_bots(const char *cmd, int argc, char **argv, const char **bots,
                    int *nbots);
/* Build cfg->entries from specs (unique labels). 0 or EXIT_USAGE. */
int arena_lineup(const char *cmd, arena_cfg *cfg, const char **specs, int n);

#endif
