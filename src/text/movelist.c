/* movelist.c: the legal moves of a decision as text, shared by every front
 * end (the bot protocol, the terminal game, the server): the whole list in a
 * heap buffer, and the list as lines where runs of moves that differ only by
 * a trailing amount ("bid f0" ... "bid f350") are folded into one
 * "range PREFIX fLO fHI" line (docs/bot-protocol.md, "The legal moves").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

int chx_legal_alloc(const ch_state *st, int p, ch_move **out)
{
    ch_move small[256];
    *out = NULL;
    int total = ch_legal(st, p, small, 256);
    if (total <= 0)
        return 0;
    ch_move *buf = malloc((size_t)total * sizeof *buf);
    if (!buf)
        return -1;
    if (total <= 256) {
        memcpy(buf, small, (size_t)total * sizeof *buf);
    } else {
        int again = ch_legal(st, p, buf, total);
        if (again < total)
            total = again;
    }
    *out = buf;
    return total;
}

int chx_legal_into(const ch_state *st, int p, ch_move *small, int cap, ch_move **out)
{
    *out = small;
    int total = ch_legal(st, p, small, cap);
    if (total <= 0)
        return 0;
    if (total <= cap)
        return total;
    ch_move *buf = malloc((size_t)total * sizeof *buf);
    if (!buf)
        return -1;
    int again = ch_legal(st, p, buf, total);
    *out = buf;
    return again < total ? again : total;
}

static int trailing_amount(const char *t, long *val, size_t *plen)
{
    const char *sp = strrchr(t, ' ');
    if (!sp || sp[1] != 'f' || sp[2] == '\0')
        return 0;
    long v = 0;
    for (const char *q = sp + 2; *q; q++) {
        if (*q < '0' || *q > '9' || v > 100000000)
            return 0;
        v = v * 10 + (*q - '0');
    }
    *val = v;
    *plen = (size_t)(sp - t);
    return 1;
}

static void move_text(const ch_state *st, ch_move m, char *t, size_t n)
{
    if (ch_move_str(st, m, t, n) <= 0)
        snprintf(t, n, "?");
}

char *chx_legal_lines(const ch_state *st, int p, int *nlines)
{
    /* the moves on the stack when they fit (a frame's legal moves are made
       once per decision and seat: no malloc for them) */
    ch_move small[256], *mv;
    *nlines = 0;
    int total = chx_legal_into(st, p, small, 256, &mv);
    if (total < 0)
        return NULL;
    chx_buf b = {0};
    chx_buf_puts(&b, "");
    char t0[128], tj[128];
    for (int i = 0; i < total;) {
        long v0, v;
        size_t pl0, pl;
        int j = i + 1;
        move_text(st, mv[i], t0, sizeof t0);
        if (trailing_amount(t0, &v0, &pl0)) {
            /* the moves of the same kind whose amounts follow on (a sealed
               bid's are some 300): only the last is written, to check that
               its text ends the run; writing each was most of the server's
               cost of a bidding frame */
            int k = i + 1;
            while (k < total && mv[k].type == mv[i].type && mv[k].a == mv[i].a &&
                   mv[k].b == mv[i].b && mv[k].c == mv[i].c && mv[k].n == mv[i].n + (k - i))
                k++;
            if (k - i >= 3) {
                move_text(st, mv[k - 1], tj, sizeof tj);
                if (trailing_amount(tj, &v, &pl) && pl == pl0 && strncmp(tj, t0, pl) == 0 &&
                    v == v0 + (k - 1 - i))
                    j = k;
            }
            for (; j < total; j++) { /* and any that follow on in text */
                move_text(st, mv[j], tj, sizeof tj);
                if (!trailing_amount(tj, &v, &pl) || pl != pl0 || strncmp(tj, t0, pl) != 0 ||
                    v != v0 + (j - i))
                    break;
            }
        }
        if (j - i >= 3) {
            char line[200];
            snprintf(line, sizeof line, "range %.*s f%ld f%ld\n", (int)pl0, t0, v0,
                     v0 + (j - i - 1));
            chx_buf_puts(&b, line);
            i = j;
        } else {
            chx_buf_puts(&b, t0);
            chx_buf_puts(&b, "\n");
            i++;
        }
        (*nlines)++;
    }
    if (mv != small)
        free(mv);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

