/* prices.c: what a decision's money moves cost or bring, for the buttons of
 * the front ends ("Buy Tea f120", "Sell 2 Spices +f180"): each listed move
 * of a kind that moves the mover's own money (purchase, refresh, buy, sell,
 * keep, a flag, a credit or merge choice, an action) is applied to a copy of
 * the state and the change of the mover's cash is reported. The engine
 * decides every amount; no front end repeats a price rule. docs/protocol.md,
 * "prices".
 */
#include <stdlib.h>
#include <string.h>

#include "text.h"

static int priced(int type)
{
    switch (type) {
    case CH_M_DRAW: case CH_M_TAKE: case CH_M_REFRESH: case CH_M_BUY:
    case CH_M_SELL: case CH_M_CREDIT: case CH_M_MERGE: case CH_M_FLAG:
    case CH_M_ACTION: case CH_M_FOUND:
        return 1;
    default:
        return 0;
    }
}

int chx_prices_json(const ch_state *st, int p, chx_buf *b)
{
    /* the moves and the state's copy on the stack (made once per decision
       and seat, for the server's frames: no malloc for them) */
    ch_move small[256], *mv;
    int n = chx_legal_into(st, p, small, 256, &mv);
    if (n < 0)
        return -1;
    ch_state copy_buf, *copy = &copy_buf;
    chx_buf_add(b, "{", 1);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!priced(mv[i].type))
            continue;
        memcpy(copy, st, sizeof *copy);
        ch_msg why;
        if (ch_apply(copy, p, mv[i], &why) != CH_OK)
            continue;
        long long delta = (long long)copy->pl[p].cash - st->pl[p].cash;
        char text[128];
        if (ch_move_str(st, mv[i], text, sizeof text) < 0)
            continue;
        if (k++)
            chx_buf_add(b, ",", 1);
        chx_buf_json_str(b, text);
        chx_buf_add(b, ":", 1);
        chx_buf_int(b, delta);
    }
    chx_buf_add(b, "}", 1);
    if (mv != small)
        free(mv);
    return b->oom ? -1 : 0;
}
