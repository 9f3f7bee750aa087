/* scores.c: final scoring of both editions (Rulebook "Game end"; RULINGS.md
 * "Game end"; The Golden Age below): cash
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
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    for (int p = 0; p < st->nplayers; p++) {
        int32_t s = st->pl[p].cash;
        for (int c = 0; c < st->ncompanies; c++)
            if (st->co[c].on_chart)
                s += st->pl[p].stock[c] * st->co[c].value;
        if (ga) {
            /* The Golden Age: flags are four stocks; a f20 fine per card in hand;
             * no tiebreak (printed rulebook "End of the game"). */
            for (int c = 0; c < st->ncompanies; c++)
                if (st->co[c].on_chart && st->co[c].flag == p + 1)
                    s += 4 * st->co[c].value;
            s -= 20 * hand_count(st, p);
        }
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
        if (sc[p] == best && (ga || hand_count(st, p) == fewest))
            w |= 1u << p;
    if (winners)
        *winners = w;
    return CH_OK;
}
