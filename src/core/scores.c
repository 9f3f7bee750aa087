/* scores.c: final scoring of both editions (Rulebook "Game end"; RULINGS.md
 * "Game end"; The Golden Age below): cash
 * plus stocks at value, stocks of companies off the chart worth nothing; ties
 * go to the fewest building cards in hand, then the win is shared. */
#include <string.h>

#include "internal.h"

int ch_score_parts(const ch_state *st, ch_score_part parts[CH_MAX_PLAYERS])
{
    if (!st || st->magic != CH_STATE_MAGIC || !parts)
        return CH_EINVAL;
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    for (int p = 0; p < st->nplayers; p++) {
        ch_score_part *o = &parts[p];
        memset(o, 0, sizeof *o);
        o->cash = st->pl[p].cash;
        o->hand = hand_count(st, p);
        int32_t s = o->cash;
        for (int c = 0; c < st->ncompanies; c++) {
            /* stocks of companies off the chart are worth nothing */
            if (st->co[c].on_chart)
                o->stocks[c] = st->pl[p].stock[c] * st->co[c].value;
            s += o->stocks[c];
            if (ga && st->co[c].on_chart && st->co[c].flag == p + 1) {
                /* The Golden Age: a flag is worth four stocks (printed
                 * rulebook "End of the game") */
                o->flags[c] = GA_FLAG_STOCKS * st->co[c].value;
                s += o->flags[c];
            }
        }
        if (ga) {
            /* The Golden Age: a f20 fine per card left in hand */
            o->fine = 20 * o->hand;
            s -= o->fine;
        }
        o->total = s;
    }
    /* rank: 1 + the players ahead; Building Amsterdam breaks a tie on money
     * by fewest building cards (RULINGS.md "Game end"), The Golden Age does
     * not, so tied players share a rank (and the win, when it is first) */
    for (int p = 0; p < st->nplayers; p++) {
        int ahead = 0;
        for (int q = 0; q < st->nplayers; q++) {
            if (parts[q].total > parts[p].total ||
                (!ga && parts[q].total == parts[p].total && parts[q].hand < parts[p].hand))
                ahead++;
        }
        parts[p].rank = 1 + ahead;
    }
    return CH_OK;
}

int ch_scores(const ch_state *st, int32_t *scores, unsigned *winners)
{
    ch_score_part parts[CH_MAX_PLAYERS];
    int rc = ch_score_parts(st, parts);
    if (rc != CH_OK)
        return rc;
    unsigned w = 0;
    for (int p = 0; p < st->nplayers; p++) {
        if (scores)
            scores[p] = parts[p].total;
        if (parts[p].rank == 1)
            w |= 1u << p;
    }
    if (winners)
        *winners = w;
    return CH_OK;
}
