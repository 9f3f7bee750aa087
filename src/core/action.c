/* action.c: the fixed action space (chartered.h "a fixed action space";
 * docs/python.md "Actions"). Learning code wants a policy's output i to mean
 * one move whatever the state, so every move of an edition gets an id from
 * its type and arguments alone: the ids are laid out in sections, one per
 * kind of move, each sized for the edition's largest built-in board, the
 * companies, the player count and amounts up to CH_ACTION_MONEY_MAX. The
 * engine's move lists (ch_legal) stay what they are; this file maps them.
 *
 * Level cards are interchangeable (the engine lists one move per level, with
 * the lowest card of the level where the move takes it from: docs/formats.md),
 * so an id names the level, and decoding picks the card ch_legal names. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Sections, in id order (docs/python.md lists them with their sizes). */
enum {
    S_DONE, S_PASS, S_DRAW, S_REFRESH, S_LONE, S_PROPOSE, S_WITHDRAW, S_ACCEPT, S_DECLINE,
    S_ACTION, S_EVENT, S_TAKE, S_PICK, S_PLAY, S_PLAYLV, S_PAIR, S_FREE, S_SELL, S_BUY,
    S_HQ, S_FOUND, S_CREDIT, S_MERGE, S_LOSE, S_FLAG, S_AUCTION, S_OFFER,
    S_GIVE_CARD, S_GIVE_STOCK, S_GIVE_MONEY, S_ASK_CARD, S_ASK_STOCK, S_ASK_MONEY, S_BID,
    S_COUNT
};

#define ACT_CARDS CH_MAX_CARDS     /* card ids of plot cards                 */
#define ACT_LEVELS 4               /* level cards 2..5                       */
#define ACT_SLOTS (ACT_CARDS + ACT_LEVELS) /* a card: its id, or its level  */
#define ACT_STOCKS 10              /* sold in one merger sale: 0..9          */
#define ACT_CO CH_MAX_COMPANIES

/* The plots of an edition's largest built-in board (tests/test_action.c
 * checks every built-in arrangement against them). */
static int act_plots(int ed)
{
    return ed == CH_ED_AMSTERDAM ? 96 : 95;
}

/* The offsets of the sections of a game (off[S_COUNT] is the total), or 0
 * for bad arguments. Building Amsterdam puts broken roofs on plays
 * and has the stock events, two-card foundings and amounts; The Golden Age
 * has free warehouses and flags (G-13). */
_Static_assert(S_COUNT + 1 <= ACTION_LAYOUT_MAX, "action_layout holds every section");

static int layout(int ed, int np, int32_t off[S_COUNT + 1])
{
    if (ed != CH_ED_AMSTERDAM && ed != CH_ED_GOLDEN_AGE)
        return 0;
    if (np < 2 || np > (ed == CH_ED_AMSTERDAM ? 5 : 6))
        return 0;
    const int ba = ed == CH_ED_AMSTERDAM, P = act_plots(ed), R = ba ? 2 : 1;
    const int M = ba ? CH_ACTION_MONEY_MAX + 1 : 0;
    int32_t size[S_COUNT] = {
        [S_DONE] = 1, [S_PASS] = 1, [S_DRAW] = 1, [S_REFRESH] = 1,
        [S_LONE] = ba, [S_PROPOSE] = ba, [S_WITHDRAW] = ba, [S_ACCEPT] = ba, [S_DECLINE] = ba,
        [S_ACTION] = 2 * ba, [S_EVENT] = ba * (CH_EV_KINDS + 1),
        [S_TAKE] = ACT_SLOTS, [S_PICK] = ba * ACT_SLOTS,
        [S_PLAY] = ACT_CARDS * R, [S_PLAYLV] = ACT_LEVELS * P * R,
        [S_PAIR] = ba * P * P * R, [S_FREE] = !ba * P * P,
        [S_SELL] = ACT_CO * ACT_STOCKS, [S_BUY] = ACT_CO, [S_HQ] = ba * P,
        [S_FOUND] = ACT_CO, [S_CREDIT] = ACT_CO, [S_MERGE] = ACT_CO * ACT_CO,
        [S_LOSE] = ba * ACT_CO, [S_FLAG] = !ba * ACT_CO,
        [S_AUCTION] = ba * (2 * ACT_CO + 2), [S_OFFER] = ba * np,
        [S_GIVE_CARD] = ba * ACT_SLOTS, [S_GIVE_STOCK] = ba * ACT_CO, [S_GIVE_MONEY] = M,
        [S_ASK_CARD] = ba * ACT_SLOTS, [S_ASK_STOCK] = ba * ACT_CO, [S_ASK_MONEY] = M,
        [S_BID] = M,
    };
    off[0] = 0;
    for (int s = 0; s < S_COUNT; s++)
        off[s + 1] = off[s] + size[s];
    return 1;
}

int32_t ch_num_distinct_actions(int edition, int nplayers)
{
    int32_t off[S_COUNT + 1];
    return layout(edition, nplayers, off) ? off[S_COUNT] : -1;
}

/* The card slot of card a (its id for a plot card, past the ids its level),
 * or -1. */
static int card_slot(const ch_state *st, int a)
{
    if (a >= st->ncards)
        return -1;
    int k = st->card_level[a];
    if (!k)
        return a;
    return k >= 2 && k < 2 + ACT_LEVELS ? ACT_CARDS + k - 2 : -1;
}

/* Within a section: index i, or -1 when out of its range. */
static int32_t at(const int32_t off[S_COUNT + 1], int s, long i)
{
    return i >= 0 && i < off[s + 1] - off[s] ? off[s] + (int32_t)i : -1;
}

int action_layout_of(int edition, int nplayers, action_layout *l)
{
    return layout(edition, nplayers, l->off);
}

int32_t ch_action_encode(const ch_state *st, ch_move m)
{
    action_layout l;
    if (!st || !layout(st->edition, st->nplayers, l.off))
        return -1;
    return action_encode_in(st, m, &l);
}

/* ch_action_encode with the sections worked out once (the vector
 * environment encodes every legal move of every step: vec.c). */
int32_t action_encode_in(const ch_state *st, ch_move m, const action_layout *l)
{
    const int32_t *off = l->off;
    const int P = act_plots(st->edition), R = st->edition == CH_ED_AMSTERDAM ? 2 : 1;
    const int K = ACT_CO;
    switch (m.type) {
    case CH_M_DONE: return at(off, S_DONE, 0);
    case CH_M_PASS: return at(off, S_PASS, 0);
    case CH_M_DRAW: return at(off, S_DRAW, 0);
    case CH_M_REFRESH: return at(off, S_REFRESH, 0);
    case CH_M_LONE: return at(off, S_LONE, 0);
    case CH_M_PROPOSE: return at(off, S_PROPOSE, 0);
    case CH_M_WITHDRAW: return at(off, S_WITHDRAW, 0);
    case CH_M_ACCEPT: return at(off, S_ACCEPT, 0);
    case CH_M_DECLINE: return at(off, S_DECLINE, 0);
    case CH_M_ACTION: return at(off, S_ACTION, m.a);
    case CH_M_EVENT:
        return at(off, S_EVENT, m.a == CH_NONE ? CH_EV_KINDS : m.a < CH_EV_KINDS ? m.a : -1);
    case CH_M_TAKE: return at(off, S_TAKE, card_slot(st, m.a));
    case CH_M_PICK: return at(off, S_PICK, card_slot(st, m.a));
    case CH_M_PLAY: {
        int roof = m.n & 1;
        if (m.n != roof || roof >= R || m.a >= st->ncards)
            return -1;
        if (m.c != CH_NONE) { /* a two-card founding: the first card's plot, the second's */
            if (m.c >= st->ncards || st->card_level[m.a] || st->card_level[m.c] ||
                st->card_plot[m.a] != m.b || m.b >= P || st->card_plot[m.c] >= P)
                return -1;
            return at(off, S_PAIR, ((long)m.b * P + st->card_plot[m.c]) * R + roof);
        }
        int k = st->card_level[m.a];
        if (k) {
            if (k < 2 || k >= 2 + ACT_LEVELS || m.b >= P)
                return -1;
            return at(off, S_PLAYLV, ((long)(k - 2) * P + m.b) * R + roof);
        }
        if (st->card_plot[m.a] != m.b)
            return -1;
        return at(off, S_PLAY, (long)m.a * R + roof);
    }
    case CH_M_FREE:
        if (m.a >= P || m.b >= P)
            return -1;
        return at(off, S_FREE, (long)m.a * P + m.b);
    case CH_M_SELL:
        if (m.a >= K || m.n < 0 || m.n >= ACT_STOCKS)
            return -1;
        return at(off, S_SELL, (long)m.a * ACT_STOCKS + m.n);
    case CH_M_BUY: return m.a < K ? at(off, S_BUY, m.a) : -1;
    case CH_M_HQ: return m.a < P ? at(off, S_HQ, m.a) : -1;
    case CH_M_FOUND: return m.a < K ? at(off, S_FOUND, m.a) : -1;
    case CH_M_CREDIT: return m.a < K ? at(off, S_CREDIT, m.a) : -1;
    case CH_M_MERGE:
        return m.a < K && m.b < K ? at(off, S_MERGE, (long)m.a * K + m.b) : -1;
    case CH_M_LOSE: return m.a < K ? at(off, S_LOSE, m.a) : -1;
    case CH_M_FLAG: return m.a < K ? at(off, S_FLAG, m.a) : -1;
    case CH_M_AUCTION: /* options 1 and 2 name a company, 3 and 4 none */
        if ((m.b == 1 || m.b == 2) && m.a < K)
            return at(off, S_AUCTION, (long)(m.b - 1) * K + m.a);
        if (m.b == 3 || m.b == 4)
            return at(off, S_AUCTION, 2L * K + m.b - 3);
        return -1;
    case CH_M_OFFER: return m.a < st->nplayers ? at(off, S_OFFER, m.a) : -1;
    case CH_M_GIVE:
    case CH_M_ASK: {
        int give = m.type == CH_M_GIVE;
        if (m.b == 0)
            return at(off, give ? S_GIVE_CARD : S_ASK_CARD, card_slot(st, m.a));
        if (m.b == 1)
            return m.a < K ? at(off, give ? S_GIVE_STOCK : S_ASK_STOCK, m.a) : -1;
        if (m.b == 2)
            return at(off, give ? S_GIVE_MONEY : S_ASK_MONEY, m.n);
        return -1;
    }
    case CH_M_BID: return at(off, S_BID, m.n);
    default: return -1;
    }
}

/* The lowest card of level k among the cards of set (a bitset of card ids),
 * or CH_NONE. */
static int lowest_in(const ch_state *st, const uint64_t set[2], int k)
{
    for (int c = 0; c < st->ncards; c++)
        if (st->card_level[c] == k && (set[c >> 6] >> (c & 63) & 1))
            return c;
    return CH_NONE;
}

/* The card a level slot names where the move takes it from (set; NULL: the
 * game's lowest of the level, as asked cards are named), else the game's
 * lowest of the level (the move is then not legal), else CH_NONE. */
static int level_card(const ch_state *st, int k, const uint64_t *set)
{
    static const uint64_t all[2] = {~0ull, ~0ull};
    int c = set ? lowest_in(st, set, k) : CH_NONE;
    return c != CH_NONE ? c : lowest_in(st, all, k);
}

/* The card of a card slot; set as for level_card. */
static int slot_card(const ch_state *st, int slot, const uint64_t *set)
{
    return slot < ACT_CARDS ? slot : level_card(st, slot - ACT_CARDS + 2, set);
}

static void cards_set(uint64_t set[2], const uint8_t *cards, int n)
{
    set[0] = set[1] = 0;
    for (int i = 0; i < n; i++)
        if (cards[i] != CH_NONE)
            set[cards[i] >> 6 & 1] |= 1ull << (cards[i] & 63);
}

/* Whether the cards and plots of a decoded move exist in this game: an id of
 * the edition's largest board may name a plot or card another board lacks,
 * or a level no card of this game has. */
static int names_something(const ch_state *st, ch_move m)
{
    const int np = BRD(st)->nplots;
    int card = m.type == CH_M_TAKE || m.type == CH_M_PICK || m.type == CH_M_PLAY ||
               ((m.type == CH_M_GIVE || m.type == CH_M_ASK) && m.b == 0);
    if (card && (m.a >= st->ncards || (m.type != CH_M_PLAY && st->card_event[m.a])))
        return 0;
    if (m.type == CH_M_PLAY && (m.b >= np || (m.c != CH_NONE && m.c >= st->ncards) ||
                                (m.c != CH_NONE && st->card_plot[m.c] >= np)))
        return 0;
    if (m.type == CH_M_PLAY && !st->card_level[m.a] && st->card_plot[m.a] != m.b)
        return 0;
    if ((m.type == CH_M_FREE && (m.a >= np || m.b >= np)) || (m.type == CH_M_HQ && m.a >= np))
        return 0;
    return 1;
}

int ch_action_decode(const ch_state *st, int p, int32_t id, ch_move *out)
{
    int32_t off[S_COUNT + 1];
    if (!st || !out || p < 0 || p >= st->nplayers || !layout(st->edition, st->nplayers, off) ||
        id < 0 || id >= off[S_COUNT])
        return CH_EINVAL;
    int s = 0;
    while (id >= off[s + 1])
        s++;
    const int i = id - off[s], P = act_plots(st->edition);
    const int R = st->edition == CH_ED_AMSTERDAM ? 2 : 1, K = ACT_CO;
    const ch_player *pl = &st->pl[p];
    uint64_t set[2];
    ch_move m = {0, 0, 0, 0, 0};
    switch (s) {
    case S_DONE: m.type = CH_M_DONE; break;
    case S_PASS: m.type = CH_M_PASS; break;
    case S_DRAW: m.type = CH_M_DRAW; break;
    case S_REFRESH: m.type = CH_M_REFRESH; break;
    case S_LONE: m.type = CH_M_LONE; break;
    case S_PROPOSE: m.type = CH_M_PROPOSE; break;
    case S_WITHDRAW: m.type = CH_M_WITHDRAW; break;
    case S_ACCEPT: m.type = CH_M_ACCEPT; break;
    case S_DECLINE: m.type = CH_M_DECLINE; break;
    case S_ACTION: m.type = CH_M_ACTION, m.a = (uint8_t)i; break;
    case S_EVENT: m.type = CH_M_EVENT, m.a = (uint8_t)(i < CH_EV_KINDS ? i : CH_NONE); break;
    case S_TAKE: /* the market's lowest card of the level (market_level_low) */
        cards_set(set, st->market, st->market_size);
        m.type = CH_M_TAKE, m.a = (uint8_t)slot_card(st, i, set);
        break;
    case S_PICK: /* Veilinge 3: the lowest card of the level looked at */
        cards_set(set, st->look, st->nlook);
        m.type = CH_M_PICK, m.a = (uint8_t)slot_card(st, i, set);
        break;
    case S_PLAY:
        m.type = CH_M_PLAY, m.a = (uint8_t)(i / R), m.b = st->card_plot[i / R];
        m.c = CH_NONE, m.n = i % R;
        break;
    case S_PLAYLV: /* build.c level_plays: the lowest card of the level in hand */
        m.type = CH_M_PLAY, m.a = (uint8_t)level_card(st, i / R / P + 2, pl->hand);
        m.b = (uint8_t)(i / R % P), m.c = CH_NONE, m.n = i % R;
        break;
    case S_PAIR: {
        int x1 = i / R / P, x2 = i / R % P;
        if (x2 >= BRD(st)->nplots)
            return CH_EINVAL;
        m.type = CH_M_PLAY, m.a = st->plot_card[x1], m.b = (uint8_t)x1;
        m.c = st->plot_card[x2], m.n = i % R;
        break;
    }
    case S_FREE: m.type = CH_M_FREE, m.a = (uint8_t)(i / P), m.b = (uint8_t)(i % P); break;
    case S_SELL: m.type = CH_M_SELL, m.a = (uint8_t)(i / ACT_STOCKS), m.n = i % ACT_STOCKS; break;
    case S_BUY: m.type = CH_M_BUY, m.a = (uint8_t)i; break;
    case S_HQ: m.type = CH_M_HQ, m.a = (uint8_t)i; break;
    case S_FOUND: m.type = CH_M_FOUND, m.a = (uint8_t)i; break;
    case S_CREDIT: m.type = CH_M_CREDIT, m.a = (uint8_t)i; break;
    case S_MERGE: m.type = CH_M_MERGE, m.a = (uint8_t)(i / K), m.b = (uint8_t)(i % K); break;
    case S_LOSE: m.type = CH_M_LOSE, m.a = (uint8_t)i; break;
    case S_FLAG: m.type = CH_M_FLAG, m.a = (uint8_t)i; break;
    case S_AUCTION:
        m.type = CH_M_AUCTION;
        if (i < 2 * K)
            m.a = (uint8_t)(i % K), m.b = (uint8_t)(1 + i / K);
        else
            m.a = CH_NONE, m.b = (uint8_t)(3 + i - 2 * K);
        break;
    case S_OFFER: m.type = CH_M_OFFER, m.a = (uint8_t)i; break;
    case S_GIVE_CARD: /* events.c: the lowest card of the level not yet given */
        set[0] = pl->hand[0] & ~st->offer.give_cards[0];
        set[1] = pl->hand[1] & ~st->offer.give_cards[1];
        m.type = CH_M_GIVE, m.a = (uint8_t)slot_card(st, i, set);
        break;
    case S_ASK_CARD: /* events.c offer_askable: the level's lowest card */
        m.type = CH_M_ASK, m.a = (uint8_t)slot_card(st, i, NULL);
        break;
    case S_GIVE_STOCK: m.type = CH_M_GIVE, m.a = (uint8_t)i, m.b = 1; break;
    case S_ASK_STOCK: m.type = CH_M_ASK, m.a = (uint8_t)i, m.b = 1; break;
    case S_GIVE_MONEY: m.type = CH_M_GIVE, m.b = 2, m.n = i; break;
    case S_ASK_MONEY: m.type = CH_M_ASK, m.b = 2, m.n = i; break;
    case S_BID: m.type = CH_M_BID, m.n = i; break;
    default: return CH_EINVAL;
    }
    /* an id names one move: what does not encode back to it is not a move
       of this game (a level no card of it has, a card id that is a level) */
    if (!names_something(st, m) || ch_action_encode(st, m) != id)
        return CH_EINVAL;
    *out = m;
    return CH_OK;
}

#define MASK_STACK 4096

int ch_action_mask(const ch_state *st, int p, uint8_t *mask, int32_t size, int *unmapped)
{
    if (unmapped)
        *unmapped = 0;
    if (!st || !mask || p < 0 || p >= st->nplayers ||
        size != ch_num_distinct_actions(st->edition, st->nplayers))
        return -CH_EINVAL;
    ch_move stack[MASK_STACK], *mv = stack;
    int n = ch_legal(st, p, mv, MASK_STACK);
    if (n > MASK_STACK) { /* long runs of bids or offered money */
        mv = malloc((size_t)n * sizeof *mv);
        if (!mv)
            return -CH_ENOMEM;
        n = ch_legal(st, p, mv, n);
    }
    memset(mask, 0, (size_t)size);
    int set = 0, lost = 0;
    action_layout l;
    layout(st->edition, st->nplayers, l.off); /* checked with size above */
    for (int k = 0; k < n; k++) {
        int32_t id = action_encode_in(st, mv[k], &l);
        if (id < 0) {
            lost++;
            continue;
        }
        set += !mask[id];
        mask[id] = 1;
    }
    if (mv != stack)
        free(mv);
    if (unmapped)
        *unmapped = lost;
    return set;
}

int ch_action_str(const ch_state *st, int p, int32_t id, char *buf, size_t n)
{
    ch_move m;
    if (ch_action_decode(st, p, id, &m) != CH_OK)
        return -1;
    return ch_move_str(st, m, buf, n);
}

int ch_action_parse(const ch_state *st, int p, const char *text, int32_t *id, ch_msg *why)
{
    ch_move m;
    if (!st || !text || !id || p < 0 || p >= st->nplayers)
        return CH_EINVAL;
    int rc = ch_move_parse(st, p, text, &m, why);
    if (rc != CH_OK)
        return rc;
    int32_t a = ch_action_encode(st, m);
    if (a < 0)
        return fail(why, CH_EINVAL, "%.*s has no action id (amounts above f%d and plots past "
                    "the edition's largest board have none)", 100, text, CH_ACTION_MONEY_MAX);
    *id = a;
    return CH_OK;
}
