/* cli.h: declarations shared by the files of the `chartered` command-line
 * program (src/cli). The program only decodes input, calls libchartered and
 * encodes output; no game rule lives here.
 */
#ifndef CHARTERED_CLI_H
#define CHARTERED_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "chartered.h"
#include "text.h"

/* Exit statuses of every subcommand. */
enum {
    EXIT_FAIL = 1,  /* the command could not do its job: file, JSON, illegal
                       move, violation found */
    EXIT_USAGE = 2  /* bad command line: unknown flag, bad value */
};

/* ---- diagnostics (util.c) ------------------------------------------------ */
#if defined(__GNUC__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif
/* "error: ..." on stderr, with a newline. */
void cli_error(const char *fmt, ...) CLI_PRINTF(1, 2);
/* "warning: ..." on stderr. */
void cli_warn(const char *fmt, ...) CLI_PRINTF(1, 2);

/* Whole file (or standard input for "-") into a NUL-terminated malloc'd
 * buffer; NULL with the reason printed on failure. */
char *cli_read_file(const char *path);
/* Write text to path: a regular file (or a new one) atomically (temporary
 * file in the same directory, fsync, rename); a symbolic link is followed
 * and its target replaced the same way, in the target's directory (a
 * dangling link is refused); a device, FIFO or socket is written in place,
 * never replaced; "-" writes standard output. Every command that writes a
 * file goes through here. 0 on success, -1 with the reason printed. */
int cli_write_file_atomic(const char *path, const char *text);
/* The same for len bytes that may hold NULs (a PNG image). */
int cli_write_bytes_atomic(const char *path, const void *data, size_t len);

/* Monotonic clock in seconds. */
double cli_now(void);
/* CPU time of the calling thread, in seconds. */
double cli_cpu_now(void);

/* ---- flag parsing (opts.c) ------------------------------------------------ */
typedef enum {
    OPT_FLAG,   /* no value; *(int *)dest = 1                                  */
    OPT_INT,    /* whole number in [min, max]; int                              */
    OPT_U64,    /* unsigned 64-bit number; uint64_t                             */
    OPT_DOUBLE, /* positive number; double                                      */
    OPT_STR     /* any text; const char *                                       */
} opt_kind;

typedef struct opt_spec {
    const char *name;     /* long name without the dashes: "players"          */
    char shortname;       /* 'o' for -o, or 0                                  */
    opt_kind kind;
    void *dest;
    const char *metavar;  /* "N", "FILE"                                       */
    long long min, max;   /* OPT_INT range                                     */
    const char *help;     /* one line                                          */
    int *seen;            /* set to 1 when given (may be NULL)                 */
} opt_spec;

/* Result of opts_parse besides an exit status. */
#define OPTS_HELP (-1)

/* Parse argv[0..argc) (argv[0] is the first argument after the subcommand
 * name). Flags may come anywhere; "--" ends them; "-" alone is a positional
 * argument. Positional arguments are gathered in order into pos (which must
 * hold argc entries), their count in *npos. Returns 0, OPTS_HELP when --help
 * or -h was given, or EXIT_USAGE after printing what was wrong. */
int opts_parse(const char *cmd, int argc, char **argv, const opt_spec *specs,
               char **pos, int *npos);
/* Print "usage" followed by the flag table built from specs. */
void opts_help(FILE *f, const char *usage, const char *about,
               const opt_spec *specs);

/* A command's words for its --help, and the positional arguments it takes. */
typedef struct opt_cmd {
    const char *name;  /* "bench": messages say "chartered bench: ..."        */
    const char *usage; /* the help's first line(s)                            */
    const char *about; /* the help's paragraph                                */
    int max_pos;       /* positional arguments allowed; -1: the command checks */
    const char *hint;  /* after "unexpected argument 'x'" in brackets, or NULL */
} opt_cmd;

/* The start of every command: opts_parse, then --help printed, or more than
 * cmd->max_pos positional arguments refused. pos must hold argc + 1 entries.
 * Returns 1 to go on with the *npos positional arguments in pos; 0 when the
 * command is to exit with *status (0 after --help, EXIT_USAGE). */
int opts_start(const opt_cmd *cmd, int argc, char **argv, const opt_spec *specs,
               char **pos, int *npos, int *status);

/* ---- names of editions (util.c) -------------------------------------------- */
/* "amsterdam" -> CH_ED_AMSTERDAM; -1 when unknown. */
int cli_edition_find(const char *name);
const char *cli_edition_name(int edition);

/* ---- Golden Age options (util.c) ----------------------------------------------- */
/* "golden-age" -> CH_GA_PRINTED, "golden-age-first" -> CH_GA_FIRST; -1 when
 * unknown. */
int cli_preset_find(const char *name);
const char *cli_preset_name(int preset);
/* "on" -> 1, "off" -> 0; -1 when neither. */
int cli_onoff_find(const char *s);

/* ---- --variant FILE (variant.c; docs/variants.md) ------------------------------- */
typedef struct cli_variant {
    ch_variant v;
    char path[512];   /* the file as given                                   */
    char *text;       /* its text (malloc'd), kept for game files            */
    char arr[1024];   /* its arrangement: a built-in name, or the file's path
                         relative to the variant's folder; "" when not said   */
} cli_variant;
/* Read and parse the variant file at path; the reason printed ("file:line:
 * ...") and EXIT_FAIL on error. Free with cli_variant_free. */
int cli_variant_load(cli_variant *cv, const char *cmd, const char *path);
void cli_variant_free(cli_variant *cv);
/* Merge the variant's edition, player count, Golden Age preset and events
 * and arrangement into a command's flag values: what the variant says
 * replaces a value the user did not give, and a value the user gave that
 * says otherwise is refused (EXIT_USAGE after a message). edition_seen and
 * players_seen: the user gave --edition, --players; *preset, *events and
 * *arrangement are NULL when not given. */
int cli_variant_merge(const cli_variant *cv, const char *cmd, const char **edition,
                      int edition_seen, int *players, int players_seen,
                      const char **preset, const char **events, const char **arrangement);
/* ch_variant_apply with the reason printed (EXIT_USAGE) on failure. */
int cli_variant_apply(const cli_variant *cv, const char *cmd, ch_setup *set);
/* {"file": path, "text": text}, for a game file's setup. */
json_t *cli_variant_json(const cli_variant *cv);

/* ---- the games of selfplay and bench (mix.c) ------------------------------------ */
#define MIX_MAX_BOARDS 16
/* Which games a run plays: editions, player counts, Golden Age presets and
 * event settings, and boards, cycled across games (cli_mix_game). */
typedef struct cli_mix {
    int neds, eds[2];          /* editions, cycled game by game              */
    int players;               /* fixed count, or 0: cycle the edition's    */
    int npresets, presets[2];  /* Golden Age presets cycled                  */
    int nevents, events[2];    /* Golden Age event settings cycled (0/1)    */
    int arr_all;               /* --arrangement all                          */
    const char *arr_name;      /* a fixed arrangement, or NULL               */
    int nboards;               /* boards loaded (every one a game may use)   */
    char bname[MIX_MAX_BOARDS][256]; /* built-in name, or the file's path */
    int bedition[MIX_MAX_BOARDS];
    ch_board *boards;
    int has_variant;           /* --variant: applied to every game           */
    ch_variant variant;
    char variant_path[512];
    char variant_arr[1024];    /* the variant's arrangement (arr_name)       */
} cli_mix;

/* One game of a mix. */
typedef struct cli_game {
    ch_setup set;
    const ch_board *board;
    const char *arr;           /* its arrangement's name                     */
} cli_game;

/* Decode --edition (amsterdam, golden-age, all), --players (0 = cycle),
 * --preset (golden-age, golden-age-first, both), --events (on, off, both)
 * and --arrangement (NAME, all, an arrangement file: a path with a '/' or
 * ending in .arr, or NULL) for command cmd, and load the boards.
 * preset and events may be NULL: then def_preset / def_events ("both" or
 * a value) apply. Returns 0, or EXIT_USAGE / EXIT_FAIL after a message. */
/* An --arrangement value that names a file rather than a built-in
 * arrangement: it holds a '/' or ends in ".arr" (built-in names do
 * neither). */
int cli_arr_is_file(const char *arrangement);
int cli_mix_init(cli_mix *mx, const char *cmd, const char *edition,
                 int players, const char *preset, const char *events,
                 const char *arrangement, const char *def_preset,
                 const char *def_events);
/* Apply cv's settings to every game of the mix (after cli_mix_init, with
 * the flags cli_variant_merge gave it): checked here for each player count,
 * edition and preset the mix plays, so that cli_mix_game cannot fail.
 * 0, or EXIT_USAGE after a message. */
int cli_mix_set_variant(cli_mix *mx, const char *cmd, const cli_variant *cv);
/* cli_mix_init after --variant FILE (NULL: none) is loaded and merged with
 * the flags (cli_variant_merge), then cli_mix_set_variant. */
int cli_mix_init_variant(cli_mix *mx, const char *cmd, const char *variant, const char *edition,
                         int edition_seen, int players, int players_seen, const char *preset,
                         const char *events, const char *arrangement, const char *def_preset,
                         const char *def_events);
/* Game gi of the mix (seed: the game's seed). */
void cli_mix_game(const cli_mix *mx, uint64_t gi, uint64_t seed, cli_game *g);
/* "--edition golden-age --players 3 --preset golden-age --events on
 * --arrangement harbour": the flags that select game g alone. */
void cli_mix_flags(const cli_mix *mx, const cli_game *g, char *buf, size_t n);
/* "golden-age" / "amsterdam" / "all" as given. */
const char *cli_mix_edition_text(const cli_mix *mx);
void cli_mix_free(cli_mix *mx);

/* ---- moves and deciders (util.c) ------------------------------------------ */
/* Who decides now, in words: "player 2 decides (purchase)". */
void cli_decider_text(const ch_state *st, char *buf, size_t n);
/* Fill *m with the move `text` of player p: either notation (parsed by the
 * library) or "#N", the N-th legal move as numbered by `chartered legal`.
 * Returns a ch status code, the reason in *why. */
int cli_move_read(const ch_state *st, int p, const char *text, ch_move *m,
                  ch_msg *why);
/* The player who must decide now when exactly one does (also the last one
 * left in a simultaneous decision); -1 when several decide at once or the
 * game is over. */
int cli_sole_decider(const ch_state *st);

/* Where byte off of a ch_state lies, for messages: "byte 2504 of 5984
 * (ch_state.height + 20)". */
void cli_state_where(size_t off, char *buf, size_t n);
/* First differing byte of two states (sizeof(ch_state) when equal). */
size_t cli_state_diff(const ch_state *a, const ch_state *b);

/* ---- game files (gamefile.c) ----------------------------------------------- */
typedef struct game_file {
    json_t *root;       /* the whole document                                  */
    json_t *setup;      /* borrowed from root                                  */
    json_t *moves;      /* borrowed from root (array)                          */
    ch_setup set;       /* decoded setup                                       */
    ch_state state;     /* the stored state                                    */
} game_file;

/* Build the board for a setup object (builtin arrangement, or stored
 * arrangement text with its boards). Prints the reason on failure. */
int gf_board_from_setup(const char *path, json_t *setup, int edition,
                        ch_board *board);
/* Read and check a game file. Returns 0, or EXIT_FAIL with the reason
 * printed. With check_state, ch_validate must accept the stored state. */
int gf_load(const char *path, game_file *g, int check_state);
/* Write a new game file (no moves yet) holding setup and st. */
int gf_write_new(const char *path, json_t *setup, const ch_state *st);
/* Replace the stored state by st and write the file atomically. */
int gf_save(const char *path, game_file *g, const ch_state *st);
void gf_free(game_file *g);
/* Decode a "setup" object into *set (edition, players, seed, preset,
 * events). Prints the reason on failure. */
int gf_setup_decode(const char *path, json_t *setup, ch_setup *set);
/* The setup object of a game that starts from the position st (with
 * "position": its text); NULL when out of memory. */
json_t *gf_setup_for_position(const ch_state *st);
/* Add the edition options of set to a setup object: for The Golden Age
 * "preset" (its name) and "events" (0 or 1); for Building Amsterdam
 * "events": 1 when set (as files have always had it). */
void gf_setup_options(json_t *setup, const ch_setup *set);
/* Encode a seed: a JSON integer when it fits, else a decimal string. */
json_t *gf_seed_json(uint64_t seed);

/* Read a board for `new`: builtin arrangement name, or an arrangement file
 * with board files from board_dir (NULL: builtin boards). On success *setup_
 * part receives the setup fields that describe the board. */
int gf_board_for_new(int edition, const char *arrangement,
                     const char *arr_file, const char *board_dir,
                     ch_board *board, json_t *setup_part);

/* ---- human-readable rendering (render.c) ----------------------------------- */
/* The full state (viewer RENDER_ALL), or what player viewer (0-based) or a
 * spectator (-1) may see. */
#define RENDER_ALL (-2)
void render_state(FILE *f, const ch_state *st, int viewer);

/* ---- view leak check (viewcheck.c) ------------------------------------------ */
/* 0 when view, the text of ch_view_to_json(st, p), shows no hidden hand card
 * of another player (by the JSON card names in names) and no deck, reserve
 * or event-deck order, seed or RNG; else -1 with the reason in why. */
int viewcheck(const ch_state *st, int p, const char *view,
              const char (*names)[64], char *why, size_t n);

/* ---- subcommands ------------------------------------------------------------- */
int cmd_new(int argc, char **argv);
int cmd_legal(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_bench(int argc, char **argv);

/* ---- allocation counting for bench (bench_alloc.c) ------------------------- */
/* 1 when malloc & co. are counted (not under AddressSanitizer). */
int bench_alloc_available(void);
void bench_alloc_start(void);
void bench_alloc_stop(void);
/* Allocations (malloc, calloc, realloc) counted while started. */
unsigned long long bench_alloc_count(void);

#endif
