/* protocol.h: the engine side of the chartered bot protocol
 * (docs/bot-protocol.md): a bot program in any language plays one seat
 * through lines of text on its standard input and output. The engine starts
 * the program (/bin/sh -c "exec CMD", in a process group of its own), shakes
 * hands, sends the game, and for each decision the seat's view, its legal
 * moves and "go"; the bot answers "move TEXT". Every read and write has a
 * deadline, so a bot that hangs, crashes, or sends garbage or an illegal move
 * is detected and reported; the caller then stops it (proto_stop) and plays
 * the seat some other way.
 *
 * Version 2 (a bot that answers the handshake with "protocol 2") adds
 * options the bot advertises ("option ...") and the engine sets
 * ("setoption"), one process for many games ("newgame"), the starting
 * position, the public moves since the bot's last decision ("moves") and
 * its clock ("clock LEFT INC"). A version-1 bot gets the version-1 session.
 */
#ifndef CHARTERED_PROTOCOL_H
#define CHARTERED_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "chartered.h"
#include "text.h"

#define PROTO_VERSION 2      /* the newest version the engine speaks */
#define PROTO_MAX_OPTIONS 32

/* Outcomes of the protocol calls. */
enum {
    PROTO_OK = 0,
    PROTO_ESPAWN,     /* the program could not be started                 */
    PROTO_EHANDSHAKE, /* no "bot NAME VERSION" answer to "chartered 1"    */
    PROTO_EGARBAGE,   /* a line that is not part of the protocol          */
    PROTO_ESYNTAX,    /* "move TEXT" whose TEXT is not a move              */
    PROTO_EILLEGAL,   /* a move the rules do not allow now                 */
    PROTO_ETIMEOUT,   /* no answer within the time limit                   */
    PROTO_EEXIT,      /* the program exited, crashed or closed its output  */
    PROTO_EIO         /* any other failure (out of memory, pipe errors)    */
};
/* "illegal move", "timeout", ... */
const char *proto_errname(int code);

typedef struct proto_opts {
    int move_ms;      /* time limit per move (from "go" to "move")          */
    int start_ms;     /* time limit for the handshake and each game's start */
    FILE *log;        /* transcript of every line ("> " sent, "< " read), in
                         full, or NULL                                      */
    int echo_info;    /* print the bot's "info" lines on stderr             */
    const char *tag;  /* prefix of echoed info lines, e.g. "game 3 seat 2"
                         (copied)                                           */
    int nset;         /* options to set (version 2): names and values       */
    const char *const *set_names;
    const char *const *set_values;
    int clock_ms;     /* a game clock per seat (version 2): ms at the start,
                         0 for none (then move_ms per move)                 */
    int inc_ms;       /* added to the clock after each move                */
} proto_opts;

/* An option a version-2 bot advertises:
 * "option NAME int|float DEFAULT MIN MAX", "option NAME bool DEFAULT",
 * "option NAME choice DEFAULT CHOICE...", "option NAME string [DEFAULT]". */
typedef struct proto_option {
    char name[64];
    char type[8];     /* "int", "float", "bool", "choice", "string"         */
    char def[256];
    double min, max;  /* int and float                                      */
    char choices[512];/* choice: the choices, one space between            */
} proto_option;

typedef struct proto_bot proto_bot;

/* Ignore SIGPIPE (a bot that dies while being written to must not kill the
 * engine). Call once before the first proto_start. */
void proto_global_init(void);

/* Start the program `cmd` (a shell command line) and shake hands. On
 * failure *out is NULL and err says why (the program is stopped). */
int proto_start(proto_bot **out, const char *cmd, const proto_opts *o,
                char *err, size_t n);
/* The name and version the bot gave in its handshake ("pybot 1.0"). */
const char *proto_bot_id(const proto_bot *b);
/* Lines "info ..." received so far. */
unsigned long proto_info_count(const proto_bot *b);

/* The protocol version the bot speaks (1 or 2). */
int proto_version(const proto_bot *b);
/* The options the bot advertised (version 2), *n of them. */
const proto_option *proto_options(const proto_bot *b, int *n);
/* Change the transcript and the info tag (a version-2 process plays many
 * games: one transcript each). */
void proto_set_log(proto_bot *b, FILE *log, const char *tag);

/* Tell the bot about a new game: "game SETUP-JSON" (version 2: "newgame
 * SETUP-JSON"), "seat N" (1-based), "seed S" (for the bot's own
 * randomness) and "time MS"; version 2 also "position VIEW-JSON", seat's
 * view of st, where the game starts. Version 2 starts the seat's clock. */
int proto_game(proto_bot *b, const char *setup_json, int seat, uint64_t seed,
               const ch_state *st, char *err, size_t n);
/* Version 2: player `mover` made move m in `before`; queued for the bot's
 * next "moves" line as the bot's seat may see it (proto_public_move).
 * Nothing for a version-1 bot. */
void proto_observe(proto_bot *b, const ch_state *before, int mover, ch_move m);
/* What seat `viewer` (0-based) may read of player mover's move m made in
 * `before`: "P2 take Jordaan A3", or with what it may not see left out
 * ("P3 bid", "P2 give card", "P2 pick"); the same rules as the server's
 * game log (src/server/mask.c). Returns the length, -1 when it does not
 * fit. */
int proto_public_move(const ch_state *before, int mover, ch_move m, int viewer,
                      char *buf, size_t n);
/* Ask the bot for player p's move in st (p must be deciding now): sends
 * "view ...", "legal K", the K lines and "go", then reads "move TEXT" and
 * checks it with ch_move_parse and ch_check. On success *out holds the
 * move. On failure err says what the bot sent or did and why it is wrong. */
int proto_choose(proto_bot *b, const ch_state *st, int p, ch_move *out,
                 char *err, size_t n);
/* Send "end RESULT-JSON" (best effort). */
void proto_end(proto_bot *b, const char *result_json);
/* Send "quit" and wait briefly for the program to exit (graceful), or kill
 * its process group at once; reap it, close the pipes, free b. NULL is
 * accepted. */
void proto_stop(proto_bot *b, int graceful);

/* Reading one line the bot sent (its end removed; len bytes, NUL after
 * them), with no I/O: what proto_start and proto_choose do with each line,
 * and what tests/fuzz/fuzz_protocol.c fuzzes. Besides the PROTO_* outcomes
 * they return PROTO_LINE_SKIP for an empty line and PROTO_LINE_INFO for
 * "info ..." (both are passed over), and in the handshake
 * PROTO_LINE_PROTOCOL for "protocol N" and PROTO_LINE_OPTION for
 * "option ..." (read with proto_protocol_line and proto_option_line). */
enum { PROTO_LINE_SKIP = -1, PROTO_LINE_INFO = -2, PROTO_LINE_PROTOCOL = -3,
       PROTO_LINE_OPTION = -4 };
/* An answer to "chartered 2": PROTO_OK with the bot's "NAME VERSION" in id,
 * or PROTO_EHANDSHAKE with err. */
int proto_hello_line(const char *line, size_t len, char *id, size_t idn,
                     char *err, size_t n);
/* "protocol N": PROTO_OK with N (1 or 2) in *version, or PROTO_EHANDSHAKE. */
int proto_protocol_line(const char *line, size_t len, int *version, char *err,
                        size_t n);
/* "option ...": PROTO_OK with *o filled, or PROTO_EHANDSHAKE with err. */
int proto_option_line(const char *line, size_t len, proto_option *o,
                      char *err, size_t n);
/* Whether value suits option o: PROTO_OK, or PROTO_EHANDSHAKE with err. */
int proto_option_value(const proto_option *o, const char *value, char *err,
                       size_t n);
/* "readyok", the answer to "isready": PROTO_OK, PROTO_LINE_SKIP,
 * PROTO_LINE_INFO, or PROTO_EHANDSHAKE with err. */
int proto_ready_line(const char *line, size_t len, char *err, size_t n);
/* An answer to "go" for player p in st: PROTO_OK with the move in *out, or
 * PROTO_EGARBAGE, PROTO_ESYNTAX or PROTO_EILLEGAL with err. */
int proto_move_line(const ch_state *st, int p, const char *line, size_t len,
                    ch_move *out, char *err, size_t n);

/* The view of player p as one line of JSON (malloc'd), NULL on failure. */
char *proto_view_line(const ch_state *st, int p);
/* What proto_choose sends a version-1 bot for a decision of player p in
 * st: "view ...", "legal K", the K lines and "go", each ending in a newline
 * (malloc'd), NULL when out of memory (version 2 adds "moves" before and
 * "clock" before "go"). tests/test_hidden_property.c holds it to what p may
 * know, and proto_public_move too. */
char *proto_decision_text(const ch_state *st, int p);

#endif
