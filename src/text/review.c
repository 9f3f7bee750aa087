/* review.c: the words of a game review (`chartered review`, docs/cli.md):
 * the bot's better move at a moment that mattered and what it was worth,
 * in the reader's language ("“buy Coal” here instead of “done”: +12% to
 * win"). The moves are written in the language's notation (notation.c). */
#include <stdio.h>

#include "text.h"

int chx_review_advice(int lang, const ch_state *st, ch_move best, ch_move played, double gain,
                      char *buf, size_t n)
{
    char b[160], p[160], g[32];
    if (chx_move_text(lang, st, best, b, sizeof b) <= 0)
        snprintf(b, sizeof b, "?");
    if (chx_move_text(lang, st, played, p, sizeof p) <= 0)
        snprintf(p, sizeof p, "?");
    /* whole percentage points, signed: what the reader compares */
    snprintf(g, sizeof g, "%+.0f%%", 100.0 * gain);
    if (gain <= 0 || (best.type == played.type && best.a == played.a && best.b == played.b &&
                      best.c == played.c && best.n == played.n))
        return chx_format(lang, buf, n, "review.agree", "played", p, NULL);
    return chx_format(lang, buf, n, "review.advice", "best", b, "played", p, "gain", g, NULL);
}
