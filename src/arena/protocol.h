/* protocol.h: the engine side of the chartered bot protocol
 * (docs/bot-protocol.md): a bot program in any language plays one seat
 * through lines of text on its standard input and output. The engine starts
 * the program (/bin/sh -c "exec CMD", in a process group of its own), shakes
 * hands, sends the game, and for each decision the seat's view, its legal
 * moves and "go"; the bot answers "move TEXT". Every read and write has a
 * deadline, so a bot that hangs, crashes, or sends garbage or an illegal move
 * is detected and reported; the caller then stops it (proto_stop) and plays
 * the seat some other way.
 */
#ifndef CHARTERED_PROTOCOL_H
#define CHARTERED_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "chartered.h"
#include "text.h"

#define PROTO_VERSION 1

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
    FILE *log;        /* transcript of every line ("> " sent, "< " read), or
                         NULL; views are shortened                          */
    int echo_info;    /* print the bot's "info" lines on stderr             */
    const char *tag;  /* prefix of echoed info lines, e.g. "game 3 seat 2"  */
} proto_opts;

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

/* Tell the bot about a new game: "game SETUP-JSON", "seat N" (1-based),
 * "seed S" (for the bot's own randomness) and "time MS". */
int proto_game(proto_bot *b, const char *setup_json, int seat, uint64_t seed,
               char *err, size_t n);
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
 * "info ..." (both are passed over). */
enum { PROTO_LINE_SKIP = -1, PROTO_LINE_INFO = -2 };
/* An answer to "chartered 1": PROTO_OK with the bot's "NAME VERSION" in id,
 * or PROTO_EHANDSHAKE with err. */
int proto_hello_line(const char *line, size_t len, char *id, size_t idn,
                     char *err, size_t n);
/* An answer to "go" for player p in st: PROTO_OK with the move in *out, or
 * PROTO_EGARBAGE, PROTO_ESYNTAX or PROTO_EILLEGAL with err. */
int proto_move_line(const ch_state *st, int p, const char *line, size_t len,
                    ch_move *out, char *err, size_t n);

/* The view of player p as one line of JSON (malloc'd), NULL on failure. */
char *proto_view_line(const ch_state *st, int p);
/* What proto_choose sends for a decision of player p in st: "view ...",
 * "legal K", the K lines and "go", each ending in a newline (malloc'd),
 * NULL when out of memory. tests/test_hidden_property.c holds it to what p
 * may know. */
char *proto_decision_text(const ch_state *st, int p);

#endif
