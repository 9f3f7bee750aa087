/* obs.c: the observation tensor of one seat (chartered.h "observation
 * tensors"; docs/python.md "Observation tensor"), written straight into the
 * caller's float buffer for learning code: the Python package used to build
 * it from the JSON view in a Python loop, at 20 times the cost of a move.
 *
 * It reads only what the seat may see (RULINGS.md "Hidden information";
 * the same rules as the JSON view in json_write.c): its own hand, the other
 * hands' publicly known cards and sizes, the market, discard pile and counts
 * of the closed piles, the cards looked at in Veilinge 3 only by the player
 * looking, an offer's cards only by its parties, sealed bids only the
 * seat's own until revealed, and in The Golden Age only its own stock
 * holdings. tests/test_obs.c re-deals everything else (ch_determinize) and
 * requires the same tensor. Seats are relative: row 0 of every per-player
 * block is the observer, row k the player k seats after. Values are scaled
 * to about [0, 1] (florins by f1,000, counts by their usual maximum). */
#include <string.h>

#include "internal.h"

#define EV_SLOTS 12 /* max(CH_EV_KINDS, CH_GE_KINDS) */
#define MONEY 1000.0f

enum { B_PLOTS, B_COMPANIES, B_PLAYERS, B_CARDS, B_PILES, B_TURN, B_EVENT, B_COUNT };
static const char *const block_name[B_COUNT] = {"plots", "companies", "players", "cards",
                                                "piles", "turn", "event"};

static void shape(const ch_state *st, int b, int *rows, int *cols)
{
    const int N = BRD(st)->nplots, C = st->ncompanies, K = st->ncards, P = st->nplayers;
    static const int fixed_rows[B_COUNT] = {0, 0, 0, 0, 1, 1, 1};
    int r = fixed_rows[b], c = 0;
    switch (b) {
    case B_PLOTS: r = N, c = 1 + (C + 1) + 5 + 1; break;
    case B_COMPANIES: r = C, c = 9 + P; break;
    case B_PLAYERS: r = P, c = 9 + C; break;
    case B_CARDS: r = K, c = 6 + P; break;
    case B_PILES: c = 4 + EV_SLOTS + 2; break;
    case B_TURN: c = CH_PH_COUNT + 3 * P + 12; break;
    case B_EVENT: c = EV_SLOTS + 18 + 7 * P + 2 * C; break;
    default: break;
    }
    *rows = r, *cols = c;
}

static int valid(const ch_state *st)
{
    return st && st->magic == CH_STATE_MAGIC && st->nplayers >= 2 && st->nplayers <= CH_MAX_PLAYERS &&
           st->ncompanies <= CH_MAX_COMPANIES && st->ncards <= CH_MAX_CARDS;
}

const char *ch_observation_block(const ch_state *st, int i, int *offset, int *rows, int *cols)
{
    if (!valid(st) || i < 0 || i >= B_COUNT)
        return NULL;
    int o = 0, r, c;
    for (int b = 0; b < i; b++) {
        shape(st, b, &r, &c);
        o += r * c;
    }
    shape(st, i, &r, &c);
    if (offset)
        *offset = o;
    if (rows)
        *rows = r;
    if (cols)
        *cols = c;
    return block_name[i];
}

int ch_observation_size(const ch_state *st)
{
    if (!valid(st))
        return -1;
    int o, r, c;
    ch_observation_block(st, B_COUNT - 1, &o, &r, &c);
    return o + r * c;
}

static int has(const uint64_t set[2], int c)
{
    return (int)(set[c >> 6] >> (c & 63) & 1);
}

int ch_observation(const ch_state *st, int p, float *buf, size_t n)
{
    if (!valid(st) || !buf || p < 0 || p >= st->nplayers)
        return CH_EINVAL;
    const int size = ch_observation_size(st);
    if (n < (size_t)size)
        return CH_EINVAL;
    memset(buf, 0, (size_t)size * sizeof *buf);
    const int N = BRD(st)->nplots, C = st->ncompanies, K = st->ncards, P = st->nplayers;
    const int ga = st->edition == CH_ED_GOLDEN_AGE;
    int off[B_COUNT], rows, cols[B_COUNT];
    for (int b = 0; b < B_COUNT; b++)
        ch_observation_block(st, b, &off[b], &rows, &cols[b]);
#define AT(b, row, col) buf[off[b] + (row) * cols[b] + (col)]
#define REL(q) (((q) - p + P) % P)

    /* plots: height; owner one-hot (none, companies); flags; being built */
    for (int x = 0; x < N; x++) {
        AT(B_PLOTS, x, 0) = st->height[x] / 5.0f;
        AT(B_PLOTS, x, 1 + (st->owner[x] < C ? 1 + st->owner[x] : 0)) = 1;
        for (int f = 0; f < 5; f++)
            AT(B_PLOTS, x, 2 + C + f) = (float)(st->pflags[x] >> f & 1);
        AT(B_PLOTS, x, 7 + C) = (float)(x == st->b_plot || x == st->b_plot2);
    }
    /* companies: value; on the chart; bank; HQ on the board; no flag; the
       flag's owner; founded this turn; merger: absorbed, absorber, to merge */
    for (int c = 0; c < C; c++) {
        const ch_company *co = &st->co[c];
        AT(B_COMPANIES, c, 0) = co->value / 500.0f;
        AT(B_COMPANIES, c, 1) = co->on_chart ? 1 : 0;
        AT(B_COMPANIES, c, 2) = co->bank / 9.0f;
        AT(B_COMPANIES, c, 3) = co->hq != CH_NONE;
        if (co->flag == 0 || co->flag > P)
            AT(B_COMPANIES, c, 4) = 1;
        else
            AT(B_COMPANIES, c, 5 + REL(co->flag - 1)) = 1;
        AT(B_COMPANIES, c, 5 + P) = st->founded == c;
        AT(B_COMPANIES, c, 6 + P) = st->m_absorbed == c;
        AT(B_COMPANIES, c, 7 + P) = st->m_absorber == c;
        AT(B_COMPANIES, c, 8 + P) = (float)(st->m_set >> c & 1);
    }
    /* players: cash; action cards; roofs; hand size; flags; hidden levels;
       extra turn pending, armed; stocks visible; stocks per company */
    for (int q = 0; q < P; q++) {
        const ch_player *pl = &st->pl[q];
        int k = REL(q);
        AT(B_PLAYERS, k, 0) = pl->cash / MONEY;
        AT(B_PLAYERS, k, 1) = pl->actions / 2.0f;
        AT(B_PLAYERS, k, 2) = pl->roofs / 10.0f;
        AT(B_PLAYERS, k, 3) = ch_hand_count(st, q) / 15.0f;
        AT(B_PLAYERS, k, 4) = pl->flags / 9.0f;
        AT(B_PLAYERS, k, 5) = pl->hidden_levels / 15.0f;
        AT(B_PLAYERS, k, 6) = pl->extra_pending ? 1 : 0;
        AT(B_PLAYERS, k, 7) = pl->extra_armed ? 1 : 0;
        /* stock holdings are private in The Golden Age (RULINGS.md "Hidden information") */
        if (!ga || q == p) {
            AT(B_PLAYERS, k, 8) = 1;
            for (int c = 0; c < C; c++)
                AT(B_PLAYERS, k, 9 + c) = pl->stock[c] / 9.0f;
        }
    }
    /* cards: in my hand; market; discard; looked at; offered; asked; known
       to be in relative player k's hand */
    /* json_write.c look_hidden_in: in Veilinge 3 only the picker, while picking */
    const int look_seen = st->au_option != 3 || (st->phase == CH_PH_PICK && st->actor == p);
    const int offering = st->phase == CH_PH_OFFER || st->phase == CH_PH_RESPOND;
    const int ask_owner = st->offer.to;
    for (int c = 0; c < K; c++) {
        const int l = st->loc[c];
        AT(B_CARDS, c, 0) = l == CH_LOC_HAND + p;
        AT(B_CARDS, c, 1) = l == CH_LOC_MARKET;
        AT(B_CARDS, c, 2) = l == CH_LOC_DISCARD;
        AT(B_CARDS, c, 3) = l == CH_LOC_LOOK && look_seen;
        if (offering) { /* json_write.c w_offer_side: parties see every card */
            int give_party = p == st->active || (p == st->offer.to && st->phase == CH_PH_RESPOND);
            int ask_party = give_party || p == ask_owner;
            if (has(st->offer.give_cards, c) && (give_party || has(st->pl[st->active].known, c)))
                AT(B_CARDS, c, 4) = 1;
            if (has(st->offer.ask_cards, c) &&
                (ask_party || (ask_owner < P && has(st->pl[ask_owner].known, c))))
                AT(B_CARDS, c, 5) = 1;
        }
        for (int q = 0; q < P; q++)
            if (l == CH_LOC_HAND + q && has(st->pl[q].known, c))
                AT(B_CARDS, c, 6 + REL(q)) = 1;
    }
    /* piles: deck, reserve, event deck, discard sizes; open event cards by
       kind; whether the top of the closed stack is an event card (G-07) */
    AT(B_PILES, 0, 0) = K ? st->ndeck / (float)K : 0;
    AT(B_PILES, 0, 1) = st->nreserve / 4.0f;
    AT(B_PILES, 0, 2) = st->nev_deck / 15.0f;
    AT(B_PILES, 0, 3) = K ? st->ndiscard / (float)K : 0;
    for (int i = 0; i < st->nevent_open && i < CH_EVENT_OPEN_MAX; i++)
        if (st->ev_open[i] < EV_SLOTS)
            AT(B_PILES, 0, 4 + st->ev_open[i]) += 1.0f / 3;
    int top = ch_deck_top_event(st);
    AT(B_PILES, 0, 4 + EV_SLOTS) = top == 1;
    AT(B_PILES, 0, 5 + EV_SLOTS) = top == 0;
    /* turn: phase; active, actor, deciders (relative); I decide; end
       triggered; over; turn number; passes; extra turn; built; cards taken;
       trades; discount buys left; event due; a pass */
    {
        unsigned dmask = 0;
        ch_decider_kind kind = ch_decider(st, &dmask);
        int o = 0;
        if (st->phase < CH_PH_COUNT)
            AT(B_TURN, 0, st->phase) = 1;
        o = CH_PH_COUNT;
        if (st->active < P)
            AT(B_TURN, 0, o + REL(st->active)) = 1;
        if (st->actor < P)
            AT(B_TURN, 0, o + P + REL(st->actor)) = 1;
        for (int q = 0; q < P; q++)
            if (kind != CH_DEC_TERMINAL && (dmask >> q & 1))
                AT(B_TURN, 0, o + 2 * P + REL(q)) = 1;
        o += 3 * P;
        AT(B_TURN, 0, o + 0) = kind != CH_DEC_TERMINAL && (dmask >> p & 1);
        AT(B_TURN, 0, o + 1) = st->end_triggered ? 1 : 0;
        AT(B_TURN, 0, o + 2) = st->over ? 1 : 0;
        AT(B_TURN, 0, o + 3) = st->turn_no / 200.0f;
        AT(B_TURN, 0, o + 4) = st->passes / (float)P;
        AT(B_TURN, 0, o + 5) = st->extra_turn ? 1 : 0;
        AT(B_TURN, 0, o + 6) = st->built ? 1 : 0;
        AT(B_TURN, 0, o + 7) = st->taken / 5.0f;
        AT(B_TURN, 0, o + 8) = st->trades / 5.0f;
        AT(B_TURN, 0, o + 9) = st->discount_left / 3.0f;
        AT(B_TURN, 0, o + 10) = st->event_due ? 1 : 0;
        AT(B_TURN, 0, o + 11) = st->passed ? 1 : 0;
    }
    /* event: kind; from an action card; Dreighinghe's losses; offers made;
       offered to; auction option, high bid, high bidder, out; bidders, bids
       in, bids (my own, or all once revealed) and whether each is seen;
       revealed; round; the lowest bid I may make; the offer's stocks and
       money both ways */
    {
        int o = 0;
        if (st->ev_kind < EV_SLOTS)
            AT(B_EVENT, 0, st->ev_kind) = 1;
        o = EV_SLOTS;
        AT(B_EVENT, 0, o++) = st->ev_from_action ? 1 : 0;
        AT(B_EVENT, 0, o++) = st->lose_left / 9.0f;
        AT(B_EVENT, 0, o++) = st->offers / 10.0f;
        if (offering && st->offer.to < P)
            AT(B_EVENT, 0, o + REL(st->offer.to)) = 1;
        o += P;
        if (st->au_option <= 4)
            AT(B_EVENT, 0, o + st->au_option) = 1;
        o += 5;
        AT(B_EVENT, 0, o++) = st->au_high / MONEY;
        if (st->au_high_bidder < P)
            AT(B_EVENT, 0, o + REL(st->au_high_bidder)) = 1;
        o += P;
        for (int q = 0; q < P; q++) {
            int k = REL(q);
            AT(B_EVENT, 0, o + k) = (float)(st->au_out >> q & 1);
            AT(B_EVENT, 0, o + P + k) = (float)(st->bid_mask >> q & 1);
            AT(B_EVENT, 0, o + 2 * P + k) = (float)(st->bid_in >> q & 1);
            /* a sealed bid: only the bidder's own until revealed */
            if (st->bid_revealed || q == p) {
                AT(B_EVENT, 0, o + 3 * P + k) = st->bid[q] / MONEY;
                AT(B_EVENT, 0, o + 4 * P + k) = 1;
            }
        }
        o += 5 * P;
        AT(B_EVENT, 0, o++) = st->bid_revealed ? 1 : 0;
        AT(B_EVENT, 0, o++) = st->bid_round / 5.0f;
        AT(B_EVENT, 0, o++) = ch_bid_min(st, p) / MONEY;
        if (offering)
            for (int c = 0; c < C; c++) {
                AT(B_EVENT, 0, o + c) = st->offer.give_stock[c] / 9.0f;
                AT(B_EVENT, 0, o + C + c) = st->offer.ask_stock[c] / 9.0f;
            }
        o += 2 * C;
        if (offering) {
            AT(B_EVENT, 0, o) = st->offer.give_money / MONEY;
            AT(B_EVENT, 0, o + 1) = st->offer.ask_money / MONEY;
        }
        o += 2;
        /* who is in the offer as what: I give (the active player), I am asked */
        AT(B_EVENT, 0, o) = offering && p == st->active;
        AT(B_EVENT, 0, o + 1) = offering && p == st->offer.to;
        AT(B_EVENT, 0, o + 2) = st->phase == CH_PH_MERGE_SELL && st->m_seller == p;
        AT(B_EVENT, 0, o + 3) = st->m_sold_left / (float)P;
        o += 4;
        (void)o;
    }
#undef AT
#undef REL
    return CH_OK;
}
