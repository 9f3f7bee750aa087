/* play.h: declarations shared by the files of `chartered play`, the
 * interactive terminal game (docs/play.md): the table (seats, names, bots,
 * language, screen options), the game with its move history, and the
 * functions of each part: setup (play_setup.c), the screen
 * (play_screen.c), reading a decision (play_input.c), the game loop and hot
 * seat (play_loop.c), and save, resume, replay and undo (play_save.c).
 * Every rule question goes to libchartered; this code only shows and asks.
 */
#ifndef CHARTERED_PLAY_H
#define CHARTERED_PLAY_H

#include <signal.h>
#include <stdio.h>

#include "cli.h"

#define PLAY_LOG 10       /* last moves in words kept for the screen */
#define PLAY_LINE 512

typedef struct play_seat {
    int human;              /* 1: a person at this keyboard               */
    char name[32];          /* shown name ("Anke"; "Player 2" by default) */
    char bot[16];           /* random, greedy, ismcts                      */
    int strength;           /* ismcts: 1..5                                */
    ch_bot *b;
} play_seat;

typedef struct play_move {
    int p;
    ch_move m;
    char text[128];         /* its notation, for the game file             */
} play_move;

typedef struct play_game {
    /* the game */
    ch_setup set;
    ch_board board;
    ch_state start;         /* the state after ch_new                      */
    ch_state st;            /* now                                          */
    json_t *setup;          /* the game file's setup object (owned)        */
    play_move *moves;
    int nmoves, cap;
    /* the table */
    play_seat seat[CH_MAX_PLAYERS];
    int lang;
    /* the screen */
    int color, plain, width, height;
    int reserve;            /* rows the prompt needs below the screen,
                               besides the list of moves                   */
    int list_need;          /* rows the list of moves would take           */
    int list_max;           /* rows the list may take (0: its usual 14);
                               set by play_screen, smaller when compact    */
    int auto_size;          /* follow the terminal's size (no --width)     */
    int last_human;         /* the person who saw the screen last (hot seat) */
    char log[PLAY_LOG][PLAY_LINE];   /* what everyone may know            */
    char logown[PLAY_LOG][PLAY_LINE]; /* what the mover alone saw ("" none) */
    int logp[PLAY_LOG];     /* the mover                                    */
    int nlog;
    char note[PLAY_LINE];   /* a message shown above the next prompt        */
    const char *autosave;   /* where end of input saves                     */
    FILE *in, *out;
} play_game;

/* ---- play_setup.c ---- */
int cmd_play(int argc, char **argv);
/* "Player 2" in the game's language, or the seat's name. */
const char *play_name(const play_game *g, int p);
/* Start a bot for every bot seat (seeded from the game seed and the seat). */
int play_bots_start(play_game *g);
/* A seat description "ismcts:2" into *s; 0, or -1 with the reason in why. */
int play_seat_parse(const char *text, play_seat *s, char *why, size_t n);

/* ---- play_screen.c ---- */
/* Clear the screen (colour mode) or print a rule (plain mode). */
void play_clear(play_game *g);
/* The whole screen as the seat viewer (0-based) may see it. When the
 * terminal's height is known and the screen with g->reserve + g->list_need
 * rows below it would not fit, the compact layout: the board and the prompt
 * always, then as much of the rest as fits, and g->list_max rows for the
 * list of moves (docs/play.md, "Short terminals"). */
void play_screen(play_game *g, int viewer);
/* Text of the catalogue with placeholders, into buf. */
const char *play_fmt(const play_game *g, char *buf, size_t n, const char *key,
                     ...);
/* The stock chart and the players whole, at the screen's width, whatever
 * the terminal's height (the commands chart and players). */
void play_chart_text(play_game *g, chx_buf *b);
void play_players_text(play_game *g, int viewer, chx_buf *b);
/* Print a catalogue text followed by a newline. */
void play_say(play_game *g, const char *key);
/* Colour on/off around text (nothing in plain or colourless mode). */
const char *play_sgr(const play_game *g, const char *code);

/* ---- play_input.c ---- */
enum { PLAY_MOVE = 0, PLAY_QUIT, PLAY_EOF, PLAY_UNDO_DONE };
/* Ask seat p for its decision: fills *m. Handles help, rules, save, undo,
 * quit and bad input by itself (asking again). */
int play_ask(play_game *g, int p, ch_move *m);
/* The decision of seat p (its head line and numbered moves), no prompt. */
void play_decision_print(play_game *g, int p);
/* Wait for Enter (a "press Enter" prompt). 0, or PLAY_EOF. */
int play_wait(play_game *g, const char *key, const char *player);
/* Set by Ctrl-C (SIGINT): the next read ends like end of input, so the game
 * is saved rather than lost. */
extern volatile sig_atomic_t play_interrupted;
/* Read one line; 0, or -1 at end of input (or after Ctrl-C). */
int play_readline(play_game *g, char *buf, size_t n);
/* The rules of the game's edition in its language (data/rules/, via
 * src/text/rules.c): what is empty or NULL shows the contents, else the
 * section it names (a number, an id or words of a title); n, p, c and a
 * section's name move between sections, Enter goes back to the game. */
void play_rules(play_game *g, const char *what);
/* The commands chart, players, log and log N at any prompt: the text shown
 * to viewer and paged, then "press Enter". 1 when shown, 0 when line is not
 * one of them, -1 for a bad count (the message in g->note). */
int play_show(play_game *g, int viewer, const char *line);
/* Print text page by page (the terminal's height; 22 lines when unknown),
 * asking for Enter between pages. 0 at its end, -1 when the reader typed q or
 * the input ended. */
int play_page(play_game *g, const char *text);

/* ---- play_loop.c ---- */
/* Play until the game ends or the person quits. Returns the exit status. */
int play_run(play_game *g);
/* Apply a move checked by the library, record it and describe it. */
int play_apply(play_game *g, int p, ch_move m, ch_msg *why);
/* The game's moves in words as viewer may know them, numbered from the
 * first, wrapped at the screen's width, into b: all of them, or the last
 * `last` when last > 0 (the command log). 0, or -1 out of memory. */
int play_log_text(play_game *g, int viewer, int last, chx_buf *b);
/* Rebuild the log of the last moves (after resume or undo). */
void play_log_rebuild(play_game *g);

/* ---- play_save.c ---- */
/* Write the game file: setup (with the table under "play"), moves, state. */
int play_save(play_game *g, const char *path, char *why, size_t n);
/* Load a game file written by play (or by new/apply: every seat a person). */
int play_load(play_game *g, const char *path);
/* Undo back to seat p's last decision. 0, or -1 with the reason key in
 * *why_key (a catalogue key). */
int play_undo(play_game *g, int p, const char **why_key);
/* Replay the first k moves of the history from the start into *st. */
int play_replay(const play_game *g, int k, ch_state *st);
void play_free(play_game *g);

#endif
