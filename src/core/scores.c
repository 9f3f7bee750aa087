/* scores.c: final scoring (Rulebook "Game end"; RULINGS.md "Game end"): cash
 * plus stocks at value, stocks of companies off the chart worth nothing; ties
 * go to the fewest building cards in hand, then the win is shared. */
#include "internal.h"

int ch_scores(const ch_state *st, int32_t *scores, unsigned *winners)
{
    if (!st || st->magic != CH_STATE_MAGIC)
        return CH_EINVAL;
    int32_t best = -1;
    int fewest = 1 << 30;
    int32_t sc[CH_MAX_PLAYERS];
    for (int p = 0; p < st->nplayers; p++) {
        int32_t s = st->pl[p].cash;
        for (int c = 0; c < st->ncompanies; c++)
            if (st->co[c].on_chart)
                s += st->pl[p].stock[c] * st->co[c].value;
        sc[p] = s;
        if (scores)
            scores[p] = s;
        if (s > best)
            best = s;
    }
    for (int p = 0; p < st->nplayers; p++)
        if (sc[p] == best && hand_count(st, p) < fewest)
            fewest = hand_count(st, p);
    unsigned w = 0;
    for (int p = 0; p < st->nplayers; p++)
        if (sc[p] == best && hand_count(st, p) == fewest)
            w |= 1u << p;
    if (winners)
        *winners = w;
    return CH_OK;
}
