/* prices.c: what a decision's money moves cost or bring, for the buttons of
 * the front ends ("Buy Tea f120", "Sell 2 Spices +f180"): each listed move
 * of a kind that moves the mover's own money (purchase, refresh, buy, sell,
 * keep, a flag, a credit or merge choice, an action) is applied to a copy of
 * the state and the change of the mover's cash is reported. The engine
 * decides every amount; no front end repeats a price rule. docs/protocol.md,
 * "prices".
 *
 * A price shows only what the deciding player can know (issue 28). In The
 * Golden Age a purchase or a refresh turns up cards from the closed stack,
 * and an event card among them acts at once (printed rulebook "Event
 * cards"): a money event would change the player's cash by f50, and the
 * price would tell what lies in the stack. The same holds for a sale in a
 * stock-sale event, after which the interrupted purchase goes on drawing
 * from the stack. So the copy a price is worked out on has no event card
 * left in its closed stack (they go to its discard pile): the price is the
 * move's own known part (f50 a purchase, f50 a refresh, a sale's worth),
 * never what the hidden cards may add. Which event comes, if any, the game
 * shows when the move is made.
 *
 * A Golden Age flag's worth (chx_flag_worth_json) comes the same way: the
 * flag bought on a copy, the copy scored by the engine (ch_score_parts: a
 * flag counts as four stocks, printed rulebook "End of the game"), so no
 * front end multiplies a value by four itself.
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

/* The copy's closed stack without its event cards (they go to its discard
 * pile, where ch_validate accepts event cards), in the same order. */
static void drop_stack_events(ch_state *st)
{
    int k = 0;
    for (int i = 0; i < st->ndeck; i++) {
        int c = st->deck[i];
        if (st->card_event[c]) {
            st->discard[st->ndiscard++] = (uint8_t)c;
            st->loc[c] = CH_LOC_DISCARD;
        } else {
            st->deck[k++] = (uint8_t)c;
        }
    }
    st->ndeck = (uint8_t)k;
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
        if (st->edition == CH_ED_GOLDEN_AGE && st->events_on)
            drop_stack_events(copy);
        /* the move is one of p's legal moves in st; in the copy (its stack
           perhaps shorter) it is applied as it is, with no second check: a
           draw from a stack of events only still costs its f50 */
        ch_apply_fast(copy, p, mv[i]);
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

int chx_flag_worth_json(const ch_state *st, int p, chx_buf *b)
{
    if (st->edition != CH_ED_GOLDEN_AGE)
        return 0;
    ch_move small[256], *mv;
    int n = chx_legal_into(st, p, small, 256, &mv);
    if (n < 0)
        return -1;
    ch_state copy_buf, *copy = &copy_buf;
    ch_score_part parts[CH_MAX_PLAYERS];
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (mv[i].type != CH_M_FLAG)
            continue;
        memcpy(copy, st, sizeof *copy);
        ch_apply_fast(copy, p, mv[i]); /* one of p's legal moves in st */
        char text[128];
        if (ch_score_parts(copy, parts) != CH_OK || ch_move_str(st, mv[i], text, sizeof text) < 0)
            continue;
        chx_buf_add(b, k++ ? "," : "{", 1);
        chx_buf_json_str(b, text);
        chx_buf_add(b, ":", 1);
        chx_buf_int(b, parts[p].flags[mv[i].a]);
    }
    if (k)
        chx_buf_add(b, "}", 1);
    if (mv != small)
        free(mv);
    return b->oom ? -1 : k > 0;
}
