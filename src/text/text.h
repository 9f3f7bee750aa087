/* text.h: the presentation helpers shared by every front end (src/cli, the
 * terminal game, src/server): legal-move lists as text, and (as they are
 * added) the message catalogue and move descriptions in words. Everything
 * here goes through the public API of libchartered only; no rule lives here.
 * Names carry the prefix chx_.
 */
#ifndef CHARTERED_TEXT_H
#define CHARTERED_TEXT_H

#include <stddef.h>

#include "chartered.h"

/* A growing text buffer: s is NUL-terminated (NULL until text is added);
 * oom is set, and text dropped, when memory runs out. Free s when done. */
typedef struct chx_buf {
    char *s;
    size_t len, cap;
    int oom;
} chx_buf;
void chx_buf_add(chx_buf *b, const char *t, size_t len);
void chx_buf_puts(chx_buf *b, const char *t);

/* Every legal move of player p into a malloc'd *out (NULL when none).
 * Returns the count, or -1 when out of memory. */
int chx_legal_alloc(const ch_state *st, int p, ch_move **out);

/* The legal moves of player p as a malloc'd text of lines: each move in
 * notation on its own line, runs of 3 or more moves that differ only by a
 * trailing amount written "range PREFIX fLO fHI". *nlines receives the line
 * count. NULL when out of memory. */
char *chx_legal_lines(const ch_state *st, int p, int *nlines);

#endif
