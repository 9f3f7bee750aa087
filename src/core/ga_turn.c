/* ga_turn.c: the turn of Chartered: The Golden Age (printed rulebook "Your
 * turn", "Founding an enterprise", "Expanding an enterprise", "Trading and flag
 * stock", "Event cards", "End of the game"; first rules "Game play"; RULINGS.md
 * "The Golden Age"). Purchase one card (optionally after a f50 refresh), or
 * build (found with two free warehouses, expand, level, merge), then trade two
 * stocks or buy a flag; the forced option; event cards acting when they come
 * into play. The board, company and merger machinery is shared (groups.c,
 * company.c, merger.c). */
#include "internal.h"

#define GA_FOUND_VALUE 30
#define GA_EVENT_MONEY 50
#define GA_EVENT_VALUE 30
/* by flags left (2: the first flag, 1: the second; "Flags": f200, then f400) */
static inline int ga_flag_price(const ch_state *st, int left)
{
    return left == 2 ? st->prices.flag[0] : st->prices.flag[1];
}

/* ---- cards coming into play -------------------------------------------------- */

static int purchase_possible(const ch_state *st, int p)
{
    if (st->pl[p].cash < st->prices.purchase)
        return 0;
    if (st->ndeck > 0)
        return 1;
    for (int i = 0; i < st->market_size; i++)
        if (st->market[i] != CH_NONE)
            return 1;
    return 0;
}

static int held_stocks(const ch_state *st, int p)
{
    int n = 0;
    for (int c = 0; c < st->ncompanies; c++)
        n += st->pl[p].stock[c];
    return n;
}

/* The next player, from `from` clockwise (from included when first), who holds
 * stock cards; CH_NONE when the round back to the bringer is done. */
static int next_event_seller(const ch_state *st, int from, int first)
{
    for (int i = 0, p = from; i < st->nplayers; i++, p = next_player(st, p)) {
        if (!first && p == st->ga_seller)
            return CH_NONE;
        first = 0;
        if (held_stocks(st, p))
            return p;
    }
    return CH_NONE;
}

static void shift_values(ch_state *st, int c0, int c1, int delta)
{
    for (int c = c0; c < c1; c++)
        if (st->co[c].on_chart)
            set_value(st, c, st->co[c].value + delta); /* pays nobody */
}

/* An event acts at once (RULINGS.md "Events"). Returns 1 when players must
 * now decide (stock sales), 0 when it is done. */
static int event_act(ch_state *st, int kind, int bringer)
{
    switch (kind) {
    case CH_GE_MONEY_UP:
        for (int p = 0; p < st->nplayers; p++)
            bank_pays(st, p, GA_EVENT_MONEY);
        return 0;
    case CH_GE_MONEY_DOWN:
        /* a player with less pays what they have (G-23) */
        for (int p = 0; p < st->nplayers; p++)
            pay_bank(st, p, st->pl[p].cash < GA_EVENT_MONEY ? st->pl[p].cash : GA_EVENT_MONEY);
        return 0;
    case CH_GE_ALL_UP:
    case CH_GE_ALL_DOWN:
        shift_values(st, 0, st->ncompanies, kind == CH_GE_ALL_UP ? GA_EVENT_VALUE : -GA_EVENT_VALUE);
        return 0;
    case CH_GE_SELL1:
    case CH_GE_SELL2: {
        /* from the player who brought the card into play, clockwise (G-24) */
        st->ga_seller = (uint8_t)bringer;
        int s = next_event_seller(st, bringer, 1);
        if (s == CH_NONE)
            return 0;
        int want = kind == CH_GE_SELL1 ? 1 : 2, have = held_stocks(st, s);
        st->ev_kind = (uint8_t)kind;
        st->m_seller = (uint8_t)s;
        st->lose_left = (uint8_t)(have < want ? have : want);
        st->phase = CH_PH_EVSELL;
        st->actor = (uint8_t)s;
        return 1;
    }
    default: {
        int up = kind <= CH_GE_THREE_UP_3;
        int t = up ? kind - CH_GE_THREE_UP_1 : kind - CH_GE_THREE_DOWN_1;
        shift_values(st, 3 * t, 3 * t + 3, up ? GA_EVENT_VALUE : -GA_EVENT_VALUE);
        return 0;
    }
    }
}

/* Where cards go after a purchase or an event: to the buyer (ga_dest = 0x80 |
 * player) until a building card arrives, then into every empty open slot. An
 * event card drawn on the way acts at once and is discarded, and the buyer or
 * the slot still gets a building card (printed rulebook "Event cards"). Returns
 * 1 if play stopped for a decision; the caller then returns and ga_deliver is
 * called again once the decision is made. */
static int ga_deliver(ch_state *st)
{
    for (;;) {
        int slot = -1;
        if (st->ga_dest == CH_NONE || !(st->ga_dest & 0x80)) {
            for (int i = 0; i < st->market_size && slot < 0; i++)
                if (st->market[i] == CH_NONE)
                    slot = i;
            if (slot < 0) {
                st->ga_dest = CH_NONE;
                return 0;
            }
            st->ga_dest = (uint8_t)slot;
        }
        if (st->ndeck == 0) {
            st->ga_dest = CH_NONE; /* the deck is empty: the open cards shrink */
            return 0;
        }
        int c = deck_pop(st);
        if (st->card_event[c]) {
            st->discard[st->ndiscard++] = (uint8_t)c;
            st->loc[c] = CH_LOC_DISCARD;
            int bringer = (st->ga_dest & 0x80) ? (st->ga_dest & 0x7F) : st->active;
            if (event_act(st, st->card_event[c] - 1, bringer))
                return 1;
            continue;
        }
        if (st->ga_dest & 0x80) {
            card_to_hand(st, st->ga_dest & 0x7F, c, 0);
            st->ga_dest = CH_NONE;
        } else {
            st->market[st->ga_dest] = (uint8_t)c;
            st->loc[c] = CH_LOC_MARKET;
            st->ga_dest = CH_NONE;
        }
    }
}

/* After deliveries: a refresh goes on to the purchase, a purchase ends the turn. */
static void ga_after_delivery(ch_state *st)
{
    /* An event turned up by a refresh may leave the player unable to pay for
     * the card: the turn then ends without one (G-28). */
    if (st->taken == 0 && purchase_possible(st, st->active)) {
        st->phase = CH_PH_PURCHASE;
        st->actor = st->active;
        return;
    }
    end_turn(st);
}

/* ---- building ------------------------------------------------------------------- */

/* The board seen as bitsets, read from the state's board caches (kept up to
 * date by every move, board_sync): pieces, enterprise pieces and the danger
 * zone (closer than the edition's spacing to an enterprise's warehouse). */
typedef struct gaview {
    const ch_state *st;
    plotset piece, comp, danger;
} gaview;

static void ga_view(const ch_state *st, gaview *v)
{
    v->st = st;
    v->piece.b[0] = st->piece[0];
    v->piece.b[1] = st->piece[1];
    v->comp.b[0] = st->piece[0] & ~st->lone[0];
    v->comp.b[1] = st->piece[1] & ~st->lone[1];
    v->danger.b[0] = st->zone[0];
    v->danger.b[1] = st->zone[1];
}

static const plotset *ga_danger(gaview *v) { return &v->danger; }

/* Free warehouse choices of a founding on x (G-11): two empty lots that, with x,
 * form a connected group of three, all outside the danger zone (distance 4 from
 * every warehouse of every other enterprise). Writes pairs a < b; returns the
 * count (up to cap). */
static int free_pairs(const ch_state *st, gaview *v, int x, uint8_t (*out)[2], int cap)
{
    const ch_board *b = BRD(st);
    const plotset *danger = ga_danger(v);
    if (bs_has(danger->b, x))
        return 0;
    uint64_t cand[2] = {0, 0}; /* empty, safe lots within two steps of x */
    for (int i = 0; i < b->deg[x]; i++) {
        int a = b->adj[x][i];
        cand[0] |= b->nbmask[a][0];
        cand[1] |= b->nbmask[a][1];
        bs_set(cand, a);
    }
    bs_clr(cand, x);
    cand[0] &= ~(v->piece.b[0] | danger->b[0]);
    cand[1] &= ~(v->piece.b[1] | danger->b[1]);
    /* The pairs (a, c), a < c, in ascending order of a then c, as bitsets
     * rather than pair by pair (the pair loop's branches mispredicted: a
     * founding's choice was 6% of The Golden Age's time): with X the lots
     * beside x, the partners of a are the later lots beside x or beside a
     * when a is beside x, and those beside both x and a when it is not. */
    const uint64_t X0 = b->nbmask[x][0] & cand[0], X1 = b->nbmask[x][1] & cand[1];
    int n = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = cand[w]; bits; bits &= bits - 1) {
            int a = w * 64 + __builtin_ctzll(bits);
            const uint64_t *na = b->nbmask[a];
            uint64_t ax = -(uint64_t)bs_has(b->nbmask[x], a);
            /* later lots than a: above a's bit in word w (none above bit
             * 63: 2 << 63 is 0), and all of word 1 after word 0 */
            const uint64_t above = ~((2ull << (a & 63)) - 1);
            const uint64_t later0 = w ? 0 : above, later1 = w ? above : ~0ull;
            uint64_t p0 = cand[0] & later0 & ((X0 & (na[0] | ax)) | (na[0] & ax));
            uint64_t p1 = cand[1] & later1 & ((X1 & (na[1] | ax)) | (na[1] & ax));
            for (int w2 = 0; w2 < 2; w2++)
                for (uint64_t pb = w2 ? p1 : p0; pb; pb &= pb - 1) {
                    if (n < cap) {
                        out[n][0] = (uint8_t)a;
                        out[n][1] = (uint8_t)(w2 * 64 + __builtin_ctzll(pb));
                    }
                    n++;
                }
        }
    return n;
}

/* Whether free_pairs would find a pair, without listing them: the lots beside
 * x that are open (empty and outside the zone) hold two, or the one there is
 * has an open lot beside it other than x. From the board and bitsets alone
 * (danger: the zone; open: neither a piece nor the zone), for the loops of
 * move generation. */
static inline int free_pair_open(const ch_board *b, int x, const uint64_t *danger,
                                 uint64_t open0, uint64_t open1)
{
    if (bs_has(danger, x))
        return 0;
    uint64_t n0 = b->nbmask[x][0] & open0, n1 = b->nbmask[x][1] & open1;
    if (!(n0 | n1))
        return 0;
    if ((n0 && n1) || (n0 & (n0 - 1)) || (n1 & (n1 - 1)))
        return 1; /* two or more */
    int a = n0 ? __builtin_ctzll(n0) : 64 + __builtin_ctzll(n1);
    uint64_t m0 = b->nbmask[a][0] & open0, m1 = b->nbmask[a][1] & open1;
    if (x < 64)
        m0 &= ~(1ull << x);
    else
        m1 &= ~(1ull << (x - 64));
    return (m0 | m1) != 0;
}

/* free_pair_open without branches, for a lot x outside the zone (move
 * generation tests every lot of a hand, and in random states the branches
 * of free_pair_open mispredict): two open lots beside x, or one that has an
 * open lot beside it other than x. */
static inline int free_pair_open_nb(const ch_board *b, int x, uint64_t open0, uint64_t open1)
{
    uint64_t n0 = b->nbmask[x][0] & open0, n1 = b->nbmask[x][1] & open1;
    int two = (((n0 & (n0 - 1)) | (n1 & (n1 - 1))) != 0) | ((n0 != 0) & (n1 != 0));
    /* the one open lot beside x (any lot when there is none: then unused) */
    int a = n0 ? __builtin_ctzll(n0) : 64 + __builtin_ctzll(n1 | (1ull << 63));
    uint64_t m0 = b->nbmask[a][0] & open0 & ~((uint64_t)(x < 64) << (x & 63));
    uint64_t m1 = b->nbmask[a][1] & open1 & ~((uint64_t)(x >= 64) << (x & 63));
    return two | (((n0 | n1) != 0) & ((m0 | m1) != 0));
}

static int free_pair_exists(const ch_state *st, gaview *v, int x)
{
    const plotset *danger = ga_danger(v);
    return free_pair_open(BRD(st), x, danger->b, ~(v->piece.b[0] | danger->b[0]),
                          ~(v->piece.b[1] | danger->b[1]));
}

enum { G_ILLEGAL, G_FOUND, G_EXPAND, G_MERGE };

static int ga_classify(const ch_state *st, gaview *v, int x, unsigned *comps)
{
    *comps = adjacent_companies(st, x);
    if (st->height[x] > 0) {
        /* a plot card on a free warehouse stacks on it (G-13) */
        return (st->pflags[x] & CH_PF_FREE) && st->supply >= 1 ? G_EXPAND : G_ILLEGAL;
    }
    if (st->supply < 1)
        return G_ILLEGAL;
    int n = popc(*comps);
    if (n == 1)
        return G_EXPAND;
    if (n >= 2)
        return G_MERGE;
    /* founding: an HQ, three warehouses, and room for the free ones */
    if (st->supply < 3 || !company_available(st))
        return G_ILLEGAL;
    return free_pair_exists(st, v, x) ? G_FOUND : G_ILLEGAL;
}

/* G-14: a level card c (level k) goes on every stack of height k-1 of an
 * enterprise (comp: the lots of enterprise pieces), once for each level:
 * level cards are interchangeable, the lowest one plays (seen_level). */
static inline int ga_level_plays(const ch_state *st, int c, int k, uint64_t comp0, uint64_t comp1,
                                 int *seen_level, ch_move *buf, int cap, int n)
{
    if ((*seen_level >> k & 1) || st->supply < 1)
        return n;
    *seen_level |= 1 << k;
    uint64_t at[2];
    byte_mask(st->height, k - 1, at);
    for (uint64_t pb = comp0 & at[0]; pb; pb &= pb - 1)
        emit(buf, cap, &n, CH_M_PLAY, c, __builtin_ctzll(pb), CH_NONE, 0);
    for (uint64_t pb = comp1 & at[1]; pb; pb &= pb - 1)
        emit(buf, cap, &n, CH_M_PLAY, c, 64 + __builtin_ctzll(pb), CH_NONE, 0);
    return n;
}

/* The plays of the active player's hand. A plot card is playable when
 * ga_classify would not say G_ILLEGAL, worked out more cheaply: move
 * generation needs no more than whether the lot touches an enterprise
 * (expansion or merger alike). The board and its bitsets are read once into
 * locals (the move stores could alias the state). */
int gen_ga_plays_cards(const ch_state *st, ch_move *buf, int cap, int n)
{
    const ch_player *pl = &st->pl[st->active];
    const ch_board *b = BRD(st);
    const uint64_t danger[2] = {st->zone[0], st->zone[1]};
    const uint64_t comp0 = st->piece[0] & ~st->lone[0], comp1 = st->piece[1] & ~st->lone[1];
    const uint64_t open0 = ~(st->piece[0] | danger[0]), open1 = ~(st->piece[1] | danger[1]);
    const uint64_t near[2] = {st->near[0], st->near[1]};
    const int supply = st->supply;
    const int found_ok = supply >= 3 && company_available(st);
    const uint64_t hand[2] = {pl->hand[0], pl->hand[1]};
    int seen_level = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = hand[w]; bits; bits &= bits - 1) {
            int c = w * 64 + __builtin_ctzll(bits);
            int k = st->card_level[c];
            if (k) {
                n = ga_level_plays(st, c, k, comp0, comp1, &seen_level, buf, cap, n);
                continue;
            }
            int x = st->card_plot[c], ok;
            if (st->height[x] > 0)
                ok = (st->pflags[x] & CH_PF_FREE) && supply >= 1; /* G-13 */
            else if (supply < 1)
                ok = 0;
            else if (bs_has(near, x)) /* next to an enterprise (board_sync) */
                ok = 1;
            else
                ok = found_ok && free_pair_open(b, x, danger, open0, open1);
            if (ok)
                emit(buf, cap, &n, CH_M_PLAY, c, x, CH_NONE, 0);
        }
    return n;
}

/* The same moves in the same order as gen_ga_plays_cards (the reference:
 * ch_validate compares them), the hand classified as bitsets over plots when
 * its plot cards all build on the plot of their own number (ident_cards):
 * with a warehouse left, an empty lot next to an enterprise is always
 * playable (expansion or merger), another one when it could found (G-11);
 * lots holding a piece (a free warehouse takes a second level, G-13) go one
 * by one. Other hands go card by card. */
int gen_ga_plays(const ch_state *st, ch_move *buf, int cap, int n)
{
    uint64_t hps[2], lvs[2]; /* hand plots = hand plot cards; level cards */
    if (hand_by_plots(st, hps, lvs) != 0)
        return gen_ga_plays_cards(st, buf, cap, n);
    const uint64_t lv0 = lvs[0], lv1 = lvs[1];
    const ch_board *b = BRD(st);
    const uint64_t piece[2] = {st->piece[0], st->piece[1]};
    const uint64_t danger[2] = {st->zone[0], st->zone[1]};
    const uint64_t comp0 = piece[0] & ~st->lone[0], comp1 = piece[1] & ~st->lone[1];
    const uint64_t open0 = ~(piece[0] | danger[0]), open1 = ~(piece[1] | danger[1]);
    const uint64_t near[2] = {st->near[0], st->near[1]};
    const int supply = st->supply;
    const int found_ok = supply >= 3 && company_available(st);
    uint64_t leg[2] = {0, 0};
    for (int w = 0; w < 2; w++) {
        const uint64_t hp = hps[w];
        /* lots with a piece, one by one, as the reference does */
        for (uint64_t bits = hp & piece[w]; bits; bits &= bits - 1) {
            int x = w * 64 + __builtin_ctzll(bits), ok;
            if (st->height[x] > 0)
                ok = (st->pflags[x] & CH_PF_FREE) && supply >= 1; /* G-13 */
            else if (supply < 1)
                ok = 0;
            else if (bs_has(near, x))
                ok = 1;
            else
                ok = found_ok && free_pair_open(b, x, danger, open0, open1);
            leg[w] |= (uint64_t)ok << (x & 63);
        }
        if (supply < 1)
            continue;
        const uint64_t e = hp & ~piece[w];
        leg[w] |= e & near[w];
        if (found_ok) /* founding needs a lot outside the zone (G-11) */
            for (uint64_t bits = e & ~near[w] & ~danger[w]; bits; bits &= bits - 1) {
                int x = w * 64 + __builtin_ctzll(bits);
                leg[w] |= (uint64_t)free_pair_open_nb(b, x, open0, open1) << (x & 63);
            }
    }
    if (buf && n >= 0 && cap - n >= popc64(leg[0]) + popc64(leg[1]) &&
        (!(lv0 | lv1) || plays_before_levels(leg, lvs))) {
        /* every play card before every level card (as ch_new numbers them)
         * and room for them all: the plays in one loop, no test per card */
        n += put_play_bits(buf + n, leg);
        leg[0] = leg[1] = 0;
    }
    int seen_level = 0;
    for (int w = 0; w < 2; w++) {
        const uint64_t lvw = lvs[w];
        for (uint64_t bits = leg[w] | lvw; bits; bits &= bits - 1) {
            int c = w * 64 + __builtin_ctzll(bits);
            if (!(lvw >> (c & 63) & 1)) {
                emit(buf, cap, &n, CH_M_PLAY, c, c, CH_NONE, 0);
                continue;
            }
            n = ga_level_plays(st, c, st->card_level[c], comp0, comp1, &seen_level, buf, cap, n);
        }
    }
    return n;
}

/* Is the level card c the lowest card of its level in the market? */
static int lowest_of_level(const ch_state *st, int c)
{
    for (int j = 0; j < st->market_size; j++)
        if (st->market[j] != CH_NONE && st->card_level[st->market[j]] == st->card_level[c] &&
            st->market[j] < c)
            return 0;
    return 1;
}

static int gen_purchase_moves(const ch_state *st, ch_move *buf, int cap, int n, int refresh_ok)
{
    if (st->ndeck > 0)
        emit(buf, cap, &n, CH_M_DRAW, 0, 0, 0, 0);
    /* interchangeable level cards: only the lowest id of each level in the
     * market (low[k], worked out first; levels of 16 and more, which only a
     * hand-made state could hold, by a search). No branch per slot when the
     * buffer has room (random states mispredict them): every slot's move is
     * written and kept by moving past it. An empty slot (CH_NONE) reads the
     * card table at 127, a card id that is never CH_NONE, and is dropped. */
    const int ms = st->market_size;
    uint8_t low[16 + CH_MARKET_MAX];
    market_level_low(st, low);
    if (n >= 0 && cap - n >= ms) {
        ch_move *out = buf + n;
        for (int i = 0; i < ms; i++) {
            int c = st->market[i], k = st->card_level[c & (CH_MAX_CARDS - 1)];
            int keep = (c != CH_NONE) & ((k == 0) | (low[k & 15] == c));
            if (__builtin_expect(k >= 16, 0) && c != CH_NONE)
                keep = lowest_of_level(st, c);
            move_put(out, CH_M_TAKE, (unsigned)c, 0, 0, 0);
            out += keep;
        }
        n = (int)(out - buf);
    } else {
        for (int i = 0; i < ms; i++) {
            int c = st->market[i];
            if (c == CH_NONE)
                continue;
            int k = st->card_level[c];
            if (k && (k < 16 ? low[k] != c : !lowest_of_level(st, c)))
                continue;
            emit(buf, cap, &n, CH_M_TAKE, c, 0, 0, 0);
        }
    }
    if (refresh_ok)
        emit(buf, cap, &n, CH_M_REFRESH, 0, 0, 0, 0);
    return n;
}

static int gen_sells(const ch_state *st, int p, ch_move *buf, int cap, int n)
{
    for (int c = 0; c < st->ncompanies; c++)
        if (st->pl[p].stock[c])
            emit(buf, cap, &n, CH_M_SELL, c, 0, 0, 1);
    return n;
}

int ga_legal(const ch_state *st, int p, ch_move *buf, int cap)
{
    int n = 0;
    const ch_player *pl = &st->pl[p];
    switch (st->phase) {
    case CH_PH_TURN: {
        int can_buy = purchase_possible(st, p);
        if (can_buy)
            n = gen_purchase_moves(st, buf, cap, n, pl->cash >= st->prices.refresh + st->prices.purchase);
        int before = n;
        n = gen_ga_plays(st, buf, cap, n);
        int cards_left = st->ndeck > 0;
        for (int i = 0; i < st->market_size && !cards_left; i++)
            cards_left = st->market[i] != CH_NONE;
        if (!can_buy && n == before) {
            /* The forced option (RULINGS.md; G-20): sell, then purchase; with
             * nothing to sell, or no card left to buy, pass. */
            if (cards_left)
                n = gen_sells(st, p, buf, cap, n);
            if (n == before)
                emit(buf, cap, &n, CH_M_PASS, 0, 0, 0, 0);
        }
        return n;
    }
    case CH_PH_PURCHASE:
        return purchase_possible(st, p) ? gen_purchase_moves(st, buf, cap, 0, 0) : 0;
    case CH_PH_FORCED: {
        /* Printed rulebook "Your turn": "Should you be unable to perform one
         * of these, you must sell stock card(s) to the bank and purchase a
         * new building card"; its Reminder: "must sell at least one of your
         * stocks to the bank and buy a new building card" (first rules 3
         * alike; G-19, G-20). The player sells, choosing which stock, until
         * the purchase is possible, then purchases; only a player with
         * nothing left to sell who still cannot pay ends the turn (issue 29). */
        n = gen_sells(st, p, buf, cap, 0);
        if (purchase_possible(st, p))
            n = gen_purchase_moves(st, buf, cap, n, pl->cash >= st->prices.refresh + st->prices.purchase);
        else if (n == 0)
            emit(buf, cap, &n, CH_M_DONE, 0, 0, 0, 0);
        return n;
    }
    case CH_PH_FOUND: {
        int avail = company_available(st);
        for (int c = 0; c < st->ncompanies; c++)
            if (avail >> c & 1)
                emit(buf, cap, &n, CH_M_FOUND, c, 0, 0, 0);
        return n;
    }
    case CH_PH_FREE: {
        uint8_t pairs[64][2];
        gaview v;
        ga_view(st, &v);
        int k = free_pairs(st, &v, st->b_plot, pairs, 64);
        for (int i = 0; i < k && i < 64; i++)
            emit(buf, cap, &n, CH_M_FREE, pairs[i][0], pairs[i][1], 0, 0);
        return n;
    }
    case CH_PH_CREDIT: {
        unsigned comps = adjacent_companies(st, st->b_plot);
        for (int c = 0; c < st->ncompanies; c++)
            if (comps >> c & 1)
                emit(buf, cap, &n, CH_M_CREDIT, c, 0, 0, 0);
        return n;
    }
    case CH_PH_MERGE:
        return gen_merge(st, buf, cap);
    case CH_PH_TRADE: {
        n = gen_stock_trades(st, p, buf, cap, n);
        /* G-18: a flag instead of trading, for the enterprise just built on */
        int b = st->ga_built;
        if (st->trades == 0 && b != CH_NONE && pl->flags > 0 && !st->co[b].flag &&
            st->co[b].on_chart && pl->cash >= ga_flag_price(st, pl->flags))
            emit(buf, cap, &n, CH_M_FLAG, b, 0, 0, 0);
        emit(buf, cap, &n, CH_M_DONE, 0, 0, 0, 0);
        return n;
    }
    case CH_PH_EVSELL:
        return gen_sells(st, p, buf, cap, 0);
    default:
        return 0;
    }
}

/* ---- applying ---------------------------------------------------------------------- */

static void ga_purchase(ch_state *st, ch_move m)
{
    int p = st->active;
    if (m.type == CH_M_REFRESH) {
        /* optional: f50 to shuffle the open cards back and draw new ones */
        pay_bank(st, p, st->prices.refresh);
        market_to_deck(st);
        st->taken = 0;
        st->ga_dest = CH_NONE;
        if (!ga_deliver(st))
            ga_after_delivery(st);
        return;
    }
    pay_bank(st, p, st->prices.purchase);
    st->taken = 1;
    if (m.type == CH_M_DRAW) {
        st->ga_dest = (uint8_t)(0x80 | p);
    } else {
        take_from_market(st, p, m.a);
        st->ga_dest = CH_NONE; /* refill the open slot at once */
    }
    if (!ga_deliver(st))
        ga_after_delivery(st);
}

static void ga_discard(ch_state *st, int card)
{
    card_from_hand(st, st->active, card);
    st->discard[st->ndiscard++] = (uint8_t)card;
    st->loc[card] = CH_LOC_DISCARD;
}

static void ga_place(ch_state *st, int x)
{
    st->height[x]++;
    st->supply--;
    if (st->supply == 0)
        st->end_triggered = 1; /* the last warehouse: the game ends after this turn */
}

/* Every build pays the builder the enterprise's new value, even at the f500
 * cap (printed rulebook "Your turn": "you receive the new stock value"). */
static void ga_pay(ch_state *st, int v)
{
    bank_pays(st, st->active, v);
}

static void ga_play(ch_state *st, ch_move m)
{
    st->built = 1;
    st->b_card = m.a;
    int k = st->card_level[m.a];
    ga_discard(st, m.a);
    if (k) {
        int y = m.b, c = st->owner[y];
        ga_place(st, y);
        int old = st->co[c].value;
        ga_pay(st, set_value(st, c, old + 10 * k));
        st->ga_built = (uint8_t)c;
        enter_trade(st);
        return;
    }
    int x = m.b;
    unsigned comps;
    gaview v;
    ga_view(st, &v);
    int kind = ga_classify(st, &v, x, &comps);
    st->b_plot = (uint8_t)x;
    if (st->pflags[x] & CH_PF_FREE) {
        st->pflags[x] &= (uint8_t)~CH_PF_FREE; /* a second level, still f10 (G-13) */
    }
    ga_place(st, x);
    switch (kind) {
    case G_EXPAND: {
        int c = __builtin_ctz(comps);
        st->owner[x] = (uint8_t)c;
        int old = st->co[c].value;
        ga_pay(st, set_value(st, c, old + 10));
        st->ga_built = (uint8_t)c;
        enter_trade(st);
        return;
    }
    case G_MERGE:
        st->phase = CH_PH_CREDIT;
        return;
    case G_FOUND:
        st->phase = CH_PH_FOUND;
        return;
    default:
        assert(0);
    }
}

static void ga_apply_move(ch_state *st, int p, ch_move m)
{
    switch (st->phase) {
    case CH_PH_TURN:
        switch (m.type) {
        case CH_M_DRAW:
        case CH_M_TAKE:
        case CH_M_REFRESH:
            ga_purchase(st, m);
            return;
        case CH_M_PLAY:
            ga_play(st, m);
            return;
        case CH_M_SELL:
            /* forced option: the first sale (G-20) */
            sell_one(st, p, m.a);
            st->phase = CH_PH_FORCED;
            return;
        case CH_M_PASS:
            pass_turn(st);
            return;
        default:
            assert(0);
        }
        return;
    case CH_PH_PURCHASE:
        st->phase = CH_PH_TURN;
        ga_purchase(st, m);
        return;
    case CH_PH_FORCED:
        if (m.type == CH_M_SELL) {
            sell_one(st, p, m.a);
            return;
        }
        if (m.type == CH_M_DONE) {
            end_turn(st);
            return;
        }
        ga_purchase(st, m);
        return;
    case CH_PH_FOUND:
        /* the HQ goes on the new warehouse: that stack is a second level */
        st->b_hq = m.a;
        st->phase = CH_PH_FREE;
        return;
    case CH_PH_FREE: {
        /* Founding (printed rulebook "Founding an enterprise"): the HQ and two
         * free warehouses, value f30, payout f30, one free stock. */
        int c = st->b_hq, x = st->b_plot;
        st->pflags[x] |= CH_PF_HQ;
        st->height[x]++; /* the HQ piece, not from the supply */
        st->owner[x] = (uint8_t)c;
        int lots[2] = {m.a, m.b};
        for (int i = 0; i < 2; i++) {
            ga_place(st, lots[i]);
            st->pflags[lots[i]] |= CH_PF_FREE;
            st->owner[lots[i]] = (uint8_t)c;
        }
        st->co[c].hq = (uint8_t)x;
        bank_pays(st, st->active, set_value(st, c, GA_FOUND_VALUE));
        if (st->co[c].bank > 0) {
            st->co[c].bank--;
            st->pl[st->active].stock[c]++;
        }
        st->b_hq = CH_NONE;
        st->ga_built = (uint8_t)c;
        enter_trade(st);
        return;
    }
    case CH_PH_CREDIT: {
        int c = m.a;
        st->owner[st->b_plot] = (uint8_t)c;
        set_value(st, c, ga_credit_value(st, c));
        merger_start(st, c);
        return;
    }
    case CH_PH_MERGE:
        apply_merge(st, m);
        return;
    case CH_PH_TRADE:
        switch (m.type) {
        case CH_M_BUY:
            pay_bank(st, p, stock_price(st, m.a));
            st->pl[p].stock[m.a]++;
            st->co[m.a].bank--;
            break;
        case CH_M_SELL:
            sell_one(st, p, m.a);
            break;
        case CH_M_FLAG:
            pay_bank(st, p, ga_flag_price(st, st->pl[p].flags));
            st->pl[p].flags--;
            st->co[m.a].flag = (uint8_t)(p + 1);
            end_turn(st);
            return;
        case CH_M_DONE:
            end_turn(st);
            return;
        default:
            assert(0);
        }
        count_trade(st);
        return;
    case CH_PH_EVSELL: {
        sell_one(st, p, m.a);
        if (--st->lose_left > 0)
            return;
        int s = next_event_seller(st, next_player(st, p), 0);
        if (s != CH_NONE) {
            int want = st->ev_kind == CH_GE_SELL1 ? 1 : 2, have = held_stocks(st, s);
            st->m_seller = (uint8_t)s;
            st->lose_left = (uint8_t)(have < want ? have : want);
            st->actor = (uint8_t)s;
            return;
        }
        /* the sale is over: back to the delivery that drew the card */
        st->ev_kind = CH_NONE;
        st->m_seller = CH_NONE;
        st->ga_seller = CH_NONE;
        st->actor = st->active;
        st->phase = CH_PH_TURN;
        if (!ga_deliver(st))
            ga_after_delivery(st);
        return;
    }
    default:
        assert(0);
    }
}


void ga_apply(ch_state *st, int p, ch_move m)
{
    /* Only building, founding and mergers move pieces. A play changes its
     * plot alone (a level card its stack, which already is a piece of its
     * enterprise; a merger waits for the credit), founding the HQ's plot and
     * the two free lots: the board caches read those plots again. Crediting
     * may merge at once, and a merger changes owners all over: the whole
     * board is read. */
    uint64_t t[2] = {0, 0};
    int whole = 0;
    if (st->phase == CH_PH_MERGE || st->phase == CH_PH_CREDIT)
        whole = 1;
    else if (st->phase == CH_PH_FREE) {
        bs_set(t, st->b_plot);
        bs_set(t, m.a);
        bs_set(t, m.b);
    } else if (m.type == CH_M_PLAY)
        bs_set(t, m.b);
    ga_apply_move(st, p, m);
    if (whole)
        board_sync(st);
    else if (t[0] | t[1])
        board_sync_plots(st, t[0], t[1]);
}
