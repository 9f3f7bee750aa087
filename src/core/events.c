/* events.c: stock events of Building Amsterdam (Rulebook "Stock events";
 * RULINGS.md "Stock events"). Choosing an open card or the deck top, the sealed
 * bidding mechanism (Verlappen, Aenleggen, Dreighinghe), Coopmanscappen trade
 * offers, and the Veilinge English auction with its four options. Discards and
 * reshuffles of the event deck are here too. */
#include "internal.h"
#ifdef __SSE2__
#include "bitpos.h"
#endif

/* ---- the event deck ---------------------------------------------------------- */

static void ev_reshuffle(ch_state *st)
{
    memcpy(st->ev_deck, st->ev_discard, st->nev_discard);
    st->nev_deck = st->nev_discard;
    st->nev_discard = 0;
    rng_shuffle(st->rng, st->ev_deck, st->nev_deck);
}

static int ev_draw(ch_state *st)
{
    if (st->nev_deck == 0)
        ev_reshuffle(st);
    if (st->nev_deck == 0)
        return CH_NONE;
    return st->ev_deck[--st->nev_deck];
}

/* Aenleggen with an empty level reserve cannot be chosen from the open cards. */
static int open_choosable(const ch_state *st, int kind)
{
    if (kind == CH_EV_AENLEGGEN && st->nreserve == 0)
        return 0;
    for (int i = 0; i < st->nevent_open; i++)
        if (st->ev_open[i] == kind)
            return 1;
    return 0;
}

int event_choosable(const ch_state *st)
{
    if (st->nev_deck + st->nev_discard > 0)
        return 1;
    for (int k = 0; k < CH_EV_KINDS; k++)
        if (open_choosable(st, k))
            return 1;
    return 0;
}

void enter_event(ch_state *st, int from_action)
{
    st->phase = CH_PH_EVENT;
    st->actor = st->active;
    st->ev_from_action = (uint8_t)from_action;
}

/* After an event: discard it, replace an open card from the deck (reshuffling
 * the discards when the deck runs out), and go on with the end of the turn. */
static void event_finish(ch_state *st)
{
    st->ev_discard[st->nev_discard++] = st->ev_kind;
    if (st->ev_slot != CH_NONE)
        st->ev_open[st->ev_slot] = (uint8_t)ev_draw(st);
    st->ev_kind = CH_NONE;
    st->ev_slot = CH_NONE;
    st->bid_mask = st->bid_in = st->bid_revealed = st->bid_round = 0;
    memset(st->bid, 0, sizeof st->bid);
    st->lose_left = 0;
    st->offers = 0;
    memset(&st->offer, 0, sizeof st->offer);
    st->offer.to = CH_NONE;
    st->au_option = 0;
    st->au_item = st->au_high_bidder = st->au_turn = CH_NONE;
    st->au_out = 0;
    st->au_high = 0;
    st->nlook = 0;
    st->actor = st->active;
    end_turn(st);
}

/* ---- Veilinge helpers -------------------------------------------------------------- */

/* Option 4: may the warehouse on plot x be removed? Not with two or more levels
 * on the ground warehouse, not if its company would split or keep fewer than
 * two warehouses (RULINGS.md "Veilinge"; R-47). An HQ on the plot stays as a
 * placeholder; a stack of two keeps its ground warehouse. */
static int removable(const ch_state *st, int x)
{
    int h = st->height[x], c = st->owner[x];
    if (h < 1 || h > 2)
        return 0;
    if (c == CH_NONE || h == 2)
        return 1;
    int stacks;
    if (st->pflags[x] & CH_PF_HQ) {
        company_connected(st, c, CH_NONE, &stacks);
        return stacks - 1 >= 2;
    }
    return company_connected(st, c, x, &stacks) && stacks >= 2;
}

/* The ten most recent plot cards of the discard pile whose warehouse may go. */
static int recent_plot_cards(const ch_state *st, uint8_t *out)
{
    int n = 0, seen = 0;
    for (int i = st->ndiscard - 1; i >= 0 && seen < BA_LOOK; i--) {
        int c = st->discard[i];
        if (st->card_level[c])
            continue;
        seen++;
        if (removable(st, st->card_plot[c]))
            out[n++] = (uint8_t)c;
    }
    return n;
}

static int auction_stock_ok(const ch_state *st, int c)
{
    return st->co[c].on_chart && st->co[c].bank > 0;
}

static int veilinge_any(const ch_state *st)
{
    uint8_t tmp[BA_LOOK];
    for (int c = 0; c < st->ncompanies; c++)
        if (auction_stock_ok(st, c) || st->pl[st->active].stock[c])
            return 1;
    return st->ndeck > 0 || recent_plot_cards(st, tmp) > 0;
}

/* ---- offer helpers (Coopmanscappen) ---------------------------------------------------- */

/* The cards that could be in player q's hand as far as the active player can
 * tell: not in the active player's hand, not in the market or the discard
 * pile, not known to be in a third player's hand. Only public information and
 * the active player's own hand are used, so the list leaks nothing. */
static void askable_set(const ch_state *st, int q, uint64_t *out)
{
    uint64_t no[2];
    public_elsewhere(st, no);
    int a = st->active;
    for (int w = 0; w < 2; w++) {
        no[w] |= st->pl[a].hand[w];
        for (int r = 0; r < st->nplayers; r++)
            if (r != q && r != a)
                no[w] |= st->pl[r].known[w];
        out[w] = ~no[w];
    }
}

static int lowest_in_hand(const ch_state *st, int p, int level, const uint64_t *exclude)
{
    for (int c = 0; c < st->ncards; c++)
        if (st->card_level[c] == level && bs_has(st->pl[p].hand, c) && !(exclude && bs_has(exclude, c)))
            return c;
    return CH_NONE;
}

static int offer_sizes_ok(const ch_state *st)
{
    const ch_offer *o = &st->offer;
    int g = bs_count(o->give_cards), k = bs_count(o->ask_cards);
    return hand_count(st, st->active) - g + k <= st->max_hand &&
           hand_count(st, o->to) - k + g <= st->max_hand;
}

static int offer_empty(const ch_offer *o)
{
    static const uint8_t none[CH_MAX_COMPANIES];
    return !(o->give_money | o->ask_money) &&
           !(o->give_cards[0] | o->give_cards[1] | o->ask_cards[0] | o->ask_cards[1]) &&
           !(stock_gt_mask(o->give_stock, none, CH_MAX_COMPANIES) |
             stock_gt_mask(o->ask_stock, none, CH_MAX_COMPANIES));
}

/* Can the asked player deliver everything asked? */
static int offer_deliverable(const ch_state *st)
{
    const ch_offer *o = &st->offer;
    int q = o->to, a = st->active;
    uint64_t used[2] = {0, 0};
    for (int c = 0; c < st->ncards; c++) {
        if (!bs_has(o->ask_cards, c))
            continue;
        int have = st->card_level[c] ? lowest_in_hand(st, q, st->card_level[c], used)
                                     : (bs_has(st->pl[q].hand, c) ? c : CH_NONE);
        if (have == CH_NONE)
            return 0;
        bs_set(used, have);
    }
    for (int c = 0; c < st->ncompanies; c++)
        if (st->pl[q].stock[c] < o->ask_stock[c] || st->pl[a].stock[c] < o->give_stock[c])
            return 0;
    return st->pl[q].cash >= o->ask_money && st->pl[a].cash >= o->give_money && offer_sizes_ok(st);
}

static void move_card(ch_state *st, int from, int to, int c)
{
    card_from_hand(st, from, c);
    card_to_hand(st, to, c, 1);
}

static void offer_execute(ch_state *st)
{
    ch_offer *o = &st->offer;
    int q = o->to, a = st->active;
    uint64_t asked[2] = {o->ask_cards[0], o->ask_cards[1]};
    for (int c = 0; c < st->ncards; c++)
        if (bs_has(o->give_cards, c))
            move_card(st, a, q, c);
    for (int c = 0; c < st->ncards; c++) {
        if (!bs_has(asked, c))
            continue;
        int have = st->card_level[c] ? lowest_in_hand(st, q, st->card_level[c], NULL) : c;
        move_card(st, q, a, have);
    }
    for (int c = 0; c < st->ncompanies; c++) {
        st->pl[a].stock[c] = (uint8_t)(st->pl[a].stock[c] - o->give_stock[c] + o->ask_stock[c]);
        st->pl[q].stock[c] = (uint8_t)(st->pl[q].stock[c] + o->give_stock[c] - o->ask_stock[c]);
    }
    st->pl[a].cash += o->ask_money - o->give_money;
    st->pl[q].cash += o->give_money - o->ask_money;
}

/* The level cards of the game by level (lv[k - 2] for levels 2 to 4): level
 * cards are the ids from the board's plot count to ncards (docs/formats.md). */
static void level_masks(const ch_state *st, uint64_t lv[3][2])
{
    int lo = BRD(st)->nplots, hi = st->ncards;
    memset(lv, 0, 3 * sizeof lv[0]);
    if (hi > CH_MAX_CARDS)
        hi = CH_MAX_CARDS;
#ifdef __SSE2__
    for (int i = lo >> 4; i < (hi + 15) >> 4; i++) {
        __m128i l = _mm_loadu_si128((const __m128i *)(st->card_level + 16 * i));
        for (int k = 0; k < 3; k++) {
            uint64_t bits = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(l, _mm_set1_epi8((char)(k + 2))));
            lv[k][i >> 2] |= bits << (16 * (i & 3));
        }
    }
    /* only the ids in [lo, hi) */
    for (int w = 0; w < 2; w++) {
        int a = lo - 64 * w, b = hi - 64 * w;
        uint64_t keep = b <= 0 || a >= 64 ? 0
                        : (b >= 64 ? ~0ull : (1ull << b) - 1) & (a <= 0 ? ~0ull : ~((1ull << a) - 1));
        for (int k = 0; k < 3; k++)
            lv[k][w] &= keep;
    }
#else
    for (int c = lo; c < hi; c++) {
        int k = st->card_level[c];
        if (k >= 2 && k <= 4)
            bs_set(lv[k - 2], c);
    }
#endif
}

/* What the offer being built may ask for (gen_offer): the askable plot
 * cards (plot cards are the ids below the board's plot count) and, per level,
 * the level's lowest card id when some card of that level is askable, else
 * CH_NONE (level cards are asked by level; see docs/formats.md). Nothing it
 * reads changes while an offer is built, so it is worked out once when the
 * offer starts and kept in the state (offer_cache_sync). */
static void offer_askable(const ch_state *st, uint64_t ask[2], uint8_t lvl[3])
{
    uint64_t all[2], lv[3][2];
    askable_set(st, st->offer.to, all);
    level_masks(st, lv);
    int np = BRD(st)->nplots;
    uint64_t plots[2] = {np >= 64 ? ~0ull : (1ull << np) - 1,
                         np >= 128 ? ~0ull : np <= 64 ? 0 : (1ull << (np - 64)) - 1};
    ask[0] = all[0] & plots[0];
    ask[1] = all[1] & plots[1];
    for (int k = 0; k < 3; k++)
        lvl[k] = (lv[k][0] & all[0]) | (lv[k][1] & all[1])
                     ? (uint8_t)(lv[k][0] ? __builtin_ctzll(lv[k][0]) : 64 + __builtin_ctzll(lv[k][1]))
                     : CH_NONE;
}

void offer_cache_sync(ch_state *st)
{
    memset(st->offer_ask, 0, sizeof st->offer_ask);
    memset(st->offer_lvl, 0, sizeof st->offer_lvl);
    st->offer_cached = 0;
    if (st->edition != CH_ED_AMSTERDAM || st->phase != CH_PH_OFFER || st->offer.to >= st->nplayers)
        return;
    offer_askable(st, st->offer_ask, st->offer_lvl);
    st->offer_cached = 1;
}

int offer_cache_check(const ch_state *st, ch_msg *why)
{
    if (!st->offer_cached) {
        /* nothing may be left behind: replays and loads agree byte for byte */
        static const uint8_t zero[sizeof st->offer_ask + sizeof st->offer_lvl];
        if (memcmp(st->offer_ask, zero, sizeof st->offer_ask) || memcmp(st->offer_lvl, zero, sizeof st->offer_lvl))
            return fail(why, CH_EINVARIANT, "the offer's askable cards are kept although no offer is built");
        return CH_OK;
    }
    if (st->edition != CH_ED_AMSTERDAM || st->phase != CH_PH_OFFER || st->offer.to >= st->nplayers)
        return fail(why, CH_EINVARIANT, "the offer's askable cards are kept although no offer is built");
    uint64_t ask[2];
    uint8_t lvl[3];
    offer_askable(st, ask, lvl);
    if (memcmp(ask, st->offer_ask, sizeof ask) || memcmp(lvl, st->offer_lvl, sizeof lvl))
        return fail(why, CH_EINVARIANT, "the offer's kept askable cards do not match the cards");
    return CH_OK;
}

/* Most moves an offer's decision lists besides the two runs of money, and
 * the scratch moves put_bits may write past the last one. */
#define OFFER_FIXED_MAX (2 * CH_MAX_CARDS + 2 * CH_MAX_COMPANIES + 8)
#define PUT_BITS_SLACK 8

/* The moves {type, base + i} for each set bit i of the byte-wide chunks of
 * bits, lowest first, from out on; returns the new end. Eight bits a step
 * with SSE2 (their positions from the table ch_bitpos, spread into four
 * 16-byte stores of two moves each), so a long run of askable cards costs
 * no branch per card and no loop exit that depends on the cards (the loop
 * over each askable card was most of an offer's decision, the most common
 * decision of random Building Amsterdam games). A step writes up to
 * PUT_BITS_SLACK moves past the new end: the caller's room must allow them
 * (later moves overwrite them; what is left past the list's end, within
 * cap, is scratch). nbytes: how many of the 8 bytes hold bits (the rest
 * are 0). */
static inline ch_move *put_bits(ch_move *out, uint64_t bits, int nbytes, unsigned type, int base)
{
#ifdef __SSE2__
    const __m128i t = _mm_set1_epi8((char)type), z = _mm_setzero_si128();
    for (int j = 0; j < nbytes; j++) {
        unsigned v = (unsigned)(bits >> (8 * j)) & 255;
        __m128i pos = _mm_add_epi8(_mm_loadl_epi64((const __m128i *)(const void *)&ch_bitpos[v]),
                                   _mm_set1_epi8((char)(base + 8 * j)));
        __m128i tp = _mm_unpacklo_epi8(t, pos); /* 8 x (type, card) */
        __m128i lo = _mm_unpacklo_epi16(tp, z), hi = _mm_unpackhi_epi16(tp, z);
        __m128i *o = (__m128i *)(void *)out;
        _mm_storeu_si128(o, _mm_unpacklo_epi32(lo, z));
        _mm_storeu_si128(o + 1, _mm_unpackhi_epi32(lo, z));
        _mm_storeu_si128(o + 2, _mm_unpacklo_epi32(hi, z));
        _mm_storeu_si128(o + 3, _mm_unpackhi_epi32(hi, z));
        out += popc(v);
    }
    return out;
#else
    (void)nbytes;
    for (; bits; bits &= bits - 1)
        move_put(out++, type, (unsigned)(base + __builtin_ctzll(bits)), 0, 0, 0);
    return out;
#endif
}

/* Coopmanscappen: the moves that build an offer, written straight into the
 * caller's buffer (a scratch array when it may be too small, whose head is
 * copied; the count is the full count either way). */
static int gen_offer(const ch_state *st, const ch_player *pl, ch_move *buf, int cap)
{
    const ch_offer *o = &st->offer;
    int q = o->to, nc = st->ncompanies;
    ch_move tmp[OFFER_FIXED_MAX + PUT_BITS_SLACK];
    ch_move *const start = cap >= OFFER_FIXED_MAX + PUT_BITS_SLACK ? buf : tmp;
    ch_move *out = start;
#define PUT(t, a_, b_) move_put(out++, (t), (unsigned)(a_), (unsigned)(b_), 0, 0)
    /* Given cards: each card of the hand once; level cards by level, the
     * lowest id first (ascending order meets it first). */
    /* Without a branch per card (plot and level cards mix in a random
     * hand): each card's move is written and kept by moving past it unless
     * it is a level card whose level was met already. */
    unsigned seen_level = 0; /* bit k: level k met (bit 0: plot cards, unused) */
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = pl->hand[w] & ~o->give_cards[w]; bits; bits &= bits - 1) {
            int c = w * 64 + __builtin_ctzll(bits), k = st->card_level[c] & 31;
            unsigned skip = (k != 0) & (seen_level >> k);
            seen_level |= 1u << k;
            move_put(out, CH_M_GIVE, (unsigned)c, 0, 0, 0);
            out += 1 - skip;
        }
    for (unsigned m = stock_gt_mask(pl->stock, o->give_stock, nc); m; m &= m - 1)
        PUT(CH_M_GIVE, __builtin_ctz(m), 1);
    /* Asked cards: plot cards by name; level cards by level, once each,
     * named by the level's lowest card id (see docs/formats.md). */
    uint64_t ask[2];
    uint8_t lvl[3];
    if (st->offer_cached) { /* worked out when the offer started */
        ask[0] = st->offer_ask[0], ask[1] = st->offer_ask[1];
        memcpy(lvl, st->offer_lvl, sizeof lvl);
    } else {
        offer_askable(st, ask, lvl);
    }
    /* the askable plot cards (ids below the plot count): most of the list */
    {
        int np = BRD(st)->nplots, nb = (np + 7) >> 3;
        out = put_bits(out, ask[0] & ~o->ask_cards[0], nb < 8 ? nb : 8, CH_M_ASK, 0);
        if (nb > 8)
            out = put_bits(out, ask[1] & ~o->ask_cards[1], nb - 8, CH_M_ASK, 64);
    }
    for (int k = 0; k < 3; k++)
        if (lvl[k] != CH_NONE && !bs_has(o->ask_cards, lvl[k]))
            PUT(CH_M_ASK, lvl[k], 0);
    for (unsigned m = stock_gt_mask(st->pl[q].stock, o->ask_stock, nc); m; m &= m - 1)
        PUT(CH_M_ASK, __builtin_ctz(m), 1);
    if (!offer_empty(o) && offer_sizes_ok(st))
        PUT(CH_M_PROPOSE, 0, 0);
    PUT(CH_M_WITHDRAW, 0, 0);
#undef PUT
    int n = (int)(out - start);
    if (start == tmp && cap > 0) /* buf may be NULL when cap is 0 (counting) */
        memcpy(buf, tmp, (size_t)(n < cap ? n : cap) * sizeof *buf);
    if (!o->give_money)
        emit_range(buf, cap, &n, CH_M_GIVE, 0, 2, 1, pl->cash, 1);
    if (!o->ask_money)
        emit_range(buf, cap, &n, CH_M_ASK, 0, 2, 1, st->pl[q].cash, 1);
    return n;
}

/* ---- generation -------------------------------------------------------------------- */

int gen_event_phase(const ch_state *st, int p, ch_move *buf, int cap)
{
    int n = 0;
    const ch_player *pl = &st->pl[p];
    switch (st->phase) {
    case CH_PH_EVENT:
        for (int k = 0; k < CH_EV_KINDS; k++)
            if (open_choosable(st, k))
                emit(buf, cap, &n, CH_M_EVENT, k, 0, 0, 0);
        if (st->nev_deck + st->nev_discard > 0)
            emit(buf, cap, &n, CH_M_EVENT, CH_NONE, 0, 0, 0);
        break;
    case CH_PH_BID:
        emit_range(buf, cap, &n, CH_M_BID, 0, 0, ch_bid_min(st, p), pl->cash, 1);
        break;
    case CH_PH_LOSE:
        for (int c = 0; c < st->ncompanies; c++)
            if (pl->stock[c])
                emit(buf, cap, &n, CH_M_LOSE, c, 0, 0, 0);
        break;
    case CH_PH_COOP:
        if (st->offers < BA_MAX_OFFERS)
            for (int q = 0; q < st->nplayers; q++)
                if (q != st->active)
                    emit(buf, cap, &n, CH_M_OFFER, q, 0, 0, 0);
        emit(buf, cap, &n, CH_M_DONE, 0, 0, 0, 0);
        break;
    case CH_PH_OFFER:
        n = gen_offer(st, pl, buf, cap);
        break;
    case CH_PH_RESPOND:
        if (offer_deliverable(st))
            emit(buf, cap, &n, CH_M_ACCEPT, 0, 0, 0, 0);
        emit(buf, cap, &n, CH_M_DECLINE, 0, 0, 0, 0);
        break;
    case CH_PH_VEILINGE:
        for (int c = 0; c < st->ncompanies; c++)
            if (auction_stock_ok(st, c))
                emit(buf, cap, &n, CH_M_AUCTION, c, 1, 0, 0);
        for (int c = 0; c < st->ncompanies; c++)
            if (pl->stock[c])
                emit(buf, cap, &n, CH_M_AUCTION, c, 2, 0, 0);
        if (st->ndeck > 0)
            emit(buf, cap, &n, CH_M_AUCTION, CH_NONE, 3, 0, 0);
        {
            uint8_t tmp[BA_LOOK];
            if (recent_plot_cards(st, tmp) > 0)
                emit(buf, cap, &n, CH_M_AUCTION, CH_NONE, 4, 0, 0);
        }
        break;
    case CH_PH_AUCTION:
        emit(buf, cap, &n, CH_M_PASS, 0, 0, 0, 0);
        emit_range(buf, cap, &n, CH_M_BID, 0, 0, st->au_high + BA_AUCTION_STEP, pl->cash, BA_AUCTION_STEP);
        break;
    case CH_PH_PICK:
        if (st->au_option == 3) {
            for (int i = 0; i < st->nlook; i++) {
                int c = st->look[i], dup = 0;
                if (st->card_level[c])
                    for (int j = 0; j < st->nlook; j++)
                        dup |= st->card_level[st->look[j]] == st->card_level[c] && st->look[j] < c;
                if (!dup)
                    emit(buf, cap, &n, CH_M_PICK, c, 0, 0, 0);
            }
        } else {
            uint8_t cards[BA_LOOK];
            int k = recent_plot_cards(st, cards);
            for (int i = 0; i < k; i++)
                emit(buf, cap, &n, CH_M_PICK, cards[i], 0, 0, 0);
        }
        break;
    default:
        break;
    }
    return n;
}

/* Moves whose legal choices are a range of amounts are checked by range, not by
 * listing. Returns -1 when m is not such a move. */
int check_event_range(const ch_state *st, int p, ch_move m, ch_msg *why)
{
    const ch_player *pl = &st->pl[p];
    if (m.type == CH_M_BID && st->phase == CH_PH_BID) {
        if (m.a || m.b || m.c)
            return fail(why, CH_EILLEGAL, "malformed bid");
        int32_t lo = ch_bid_min(st, p);
        if (lo > 0 && m.n >= 0 && m.n < lo)
            return fail(why, CH_EILLEGAL,
                        "a rebid must be more than the tied f%d while you can pay it: from f%d to your cash, f%d",
                        st->au_high, lo, pl->cash);
        if (m.n < 0 || m.n > pl->cash)
            return fail(why, CH_EILLEGAL, "a sealed bid is from f0 to your cash, f%d", pl->cash);
        return CH_OK;
    }
    if (m.type == CH_M_BID && st->phase == CH_PH_AUCTION) {
        if (m.a || m.b || m.c)
            return fail(why, CH_EILLEGAL, "malformed bid");
        if (m.n % BA_AUCTION_STEP)
            return fail(why, CH_EILLEGAL, "auction bids go in steps of f%d", BA_AUCTION_STEP);
        if (m.n <= st->au_high)
            return fail(why, CH_EILLEGAL, "you must bid more than f%d", st->au_high);
        if (m.n > pl->cash)
            return fail(why, CH_EILLEGAL, "you cannot bid f%d: you have f%d", m.n, pl->cash);
        return CH_OK;
    }
    if ((m.type == CH_M_GIVE || m.type == CH_M_ASK) && m.b == 2 && st->phase == CH_PH_OFFER) {
        int give = m.type == CH_M_GIVE;
        int32_t limit = give ? pl->cash : st->pl[st->offer.to].cash;
        if (m.a || m.c)
            return fail(why, CH_EILLEGAL, "malformed money item");
        if ((give ? st->offer.give_money : st->offer.ask_money) != 0)
            return fail(why, CH_EILLEGAL, "the offer already names an amount of money that way");
        if (m.n < 1 || m.n > limit)
            return fail(why, CH_EILLEGAL, "the amount must be from f1 to f%d (%s cash)", limit,
                        give ? "your" : "their");
        return CH_OK;
    }
    return -1;
}

/* ---- applying ---------------------------------------------------------------------- */

static void start_bids(ch_state *st, unsigned mask)
{
    st->phase = CH_PH_BID;
    st->bid_mask = (uint8_t)mask;
    st->bid_in = 0;
}

static void auction_end(ch_state *st);

/* Rulebook "Bidding mechanism" ("If there is a tie for the win, these players
 * pay their bid to the bank and only these tied players bid again. This
 * continues until there is a winner."). A rebid must be more
 * than the tied amount, kept in au_high, while the bidder can pay that
 * much; one who cannot bids anything up to their cash. So every tied player
 * with cash bids at least f1 after a tie at f0, every tie at f1 or more
 * costs each tied player that much, and the rebids end (issue 29). */
int32_t ch_bid_min(const ch_state *st, int p)
{
    if (!st || p < 0 || p >= st->nplayers || st->phase != CH_PH_BID || st->bid_round == 0 ||
        st->au_high < 0) /* a hand-made state (JSON) may hold anything */
        return 0;
    return st->pl[p].cash > st->au_high ? st->au_high + 1 : 0;
}

static void resolve_bids(ch_state *st)
{
    int kind = st->ev_kind, lowest = kind == CH_EV_DREIGHINGHE;
    int best = lowest ? 1 << 30 : -1;
    st->bid_revealed = 1;
    for (int p = 0; p < st->nplayers; p++)
        if (st->bid_mask >> p & 1)
            if (lowest ? st->bid[p] < best : st->bid[p] > best)
                best = st->bid[p];
    unsigned tied = 0;
    for (int p = 0; p < st->nplayers; p++)
        if ((st->bid_mask >> p & 1) && st->bid[p] == best)
            tied |= 1u << p;
    /* Dreighinghe: every player pays every bid. Otherwise only the
     * winner pays, and tied players pay before they bid again. */
    for (int p = 0; p < st->nplayers; p++) {
        if (!(st->bid_mask >> p & 1))
            continue;
        if (lowest || (popc(tied) > 1 && (tied >> p & 1)))
            pay_bank(st, p, st->bid[p]);
    }
    int w = CH_NONE;
    unsigned with_cash = 0;
    for (int p = 0; p < st->nplayers; p++)
        if ((tied >> p & 1) && st->pl[p].cash > 0)
            with_cash |= 1u << p;
    if (popc(tied) == 1) {
        w = __builtin_ctz(tied);
        if (!lowest)
            pay_bank(st, w, st->bid[w]);
    } else if (!with_cash) {
        /* Tied players with no cash left could only tie again at f0: the
         * tie is decided clockwise from the active player. For
         * Dreighinghe the first of them loses the stocks. */
        for (int i = 0, p = st->active; i < st->nplayers; i++, p = next_player(st, p))
            if (tied >> p & 1) {
                w = p;
                break;
            }
    } else {
        /* The tied players, who have paid, bid again; a rebid must beat the
         * tied amount while the bidder can pay it (ch_bid_min, R-36). */
        if (st->bid_round < 255)
            st->bid_round++;
        st->au_high = best;
        start_bids(st, tied);
        return;
    }
    st->au_high = 0;
    switch (kind) {
    case CH_EV_VERLAPPEN:
        st->pl[w].extra_pending = 1;
        break;
    case CH_EV_AENLEGGEN:
        if (st->nreserve > 0 && hand_count(st, w) < st->max_hand) {
            int card = st->reserve[--st->nreserve], k = st->card_level[card];
            card_to_hand(st, w, card, 0);
            st->pl[w].reserve_took = (uint8_t)(st->pl[w].reserve_took + (k == 2 ? 1 : k == 3 ? 4 : 8));
        }
        break;
    case CH_EV_DREIGHINGHE: {
        int total = 0;
        for (int c = 0; c < st->ncompanies; c++)
            total += st->pl[w].stock[c];
        st->lose_left = (uint8_t)(total < 2 ? total : 2);
        if (st->lose_left) {
            st->phase = CH_PH_LOSE;
            st->actor = (uint8_t)w;
            return;
        }
        break;
    }
    default:
        break;
    }
    event_finish(st);
}

static int auction_next(const ch_state *st, int after)
{
    for (int i = 1, p = next_player(st, after); i <= st->nplayers; i++, p = next_player(st, p))
        if (!(st->au_out >> p & 1))
            return p;
    return CH_NONE;
}

static void auction_step(ch_state *st, int p)
{
    unsigned remaining = ((1u << st->nplayers) - 1) & ~(unsigned)st->au_out;
    if (remaining == 0) {
        event_finish(st); /* nobody bid: nothing happens */
        return;
    }
    int nx = auction_next(st, p);
    if (st->au_high_bidder != CH_NONE &&
        (remaining == (1u << st->au_high_bidder) || nx == st->au_high_bidder)) {
        auction_end(st);
        return;
    }
    st->au_turn = (uint8_t)nx;
    st->actor = (uint8_t)nx;
}

static void auction_end(ch_state *st)
{
    int w = st->au_high_bidder, a = st->active, c = st->au_item;
    switch (st->au_option) {
    case 1:
        pay_bank(st, w, st->au_high);
        st->pl[w].stock[c]++;
        st->co[c].bank--;
        break;
    case 2:
        st->pl[w].cash -= st->au_high;
        st->pl[a].cash += st->au_high;
        st->pl[w].stock[c]++;
        st->pl[a].stock[c]--;
        break;
    case 3:
        pay_bank(st, w, st->au_high);
        st->nlook = 0;
        while (st->nlook < BA_LOOK && st->ndeck > 0) {
            int card = deck_pop(st);
            st->look[st->nlook++] = (uint8_t)card;
            st->loc[card] = CH_LOC_LOOK;
        }
        st->phase = CH_PH_PICK;
        st->actor = (uint8_t)w;
        return;
    case 4:
        pay_bank(st, w, st->au_high);
        st->phase = CH_PH_PICK;
        st->actor = (uint8_t)w;
        return;
    }
    event_finish(st);
}

static void remove_warehouse(ch_state *st, int x)
{
    int c = st->owner[x];
    st->height[x]--;
    st->supply++;
    if (st->height[x] == 0) {
        if (st->pflags[x] & CH_PF_ROOF)
            st->roofs_left++;
        st->pflags[x] &= (uint8_t)~CH_PF_ROOF;
        if (!(st->pflags[x] & CH_PF_HQ)) {
            st->owner[x] = CH_NONE;
            st->pflags[x] = 0;
        }
    }
    if (c != CH_NONE)
        set_value(st, c, st->co[c].value - 10); /* nobody is paid */
    board_sync(st);
}

void apply_event_phase(ch_state *st, int p, ch_move m)
{
    switch (st->phase) {
    case CH_PH_EVENT: {
        int kind;
        if (m.a == CH_NONE) {
            kind = ev_draw(st);
            st->ev_slot = CH_NONE;
        } else {
            int slot = 0;
            while (st->ev_open[slot] != m.a)
                slot++;
            kind = m.a;
            st->ev_open[slot] = CH_NONE;
            st->ev_slot = (uint8_t)slot;
        }
        st->ev_kind = (uint8_t)kind;
        st->bid_round = 0;
        switch (kind) {
        case CH_EV_AENLEGGEN:
            if (st->nreserve == 0) {
                event_finish(st); /* drawn from the deck with an empty reserve */
                return;
            }
            /* fall through */
        case CH_EV_VERLAPPEN:
        case CH_EV_DREIGHINGHE:
            memset(st->bid, 0, sizeof st->bid);
            st->bid_revealed = 0;
            start_bids(st, (1u << st->nplayers) - 1);
            return;
        case CH_EV_COOPMANSCAPPEN:
            st->offers = 0;
            st->phase = CH_PH_COOP;
            st->actor = st->active;
            return;
        case CH_EV_VEILINGE:
            if (!veilinge_any(st)) {
                event_finish(st);
                return;
            }
            st->phase = CH_PH_VEILINGE;
            st->actor = st->active;
            return;
        }
        return;
    }
    case CH_PH_BID:
        if (st->bid_in == 0 && st->bid_revealed) {
            st->bid_revealed = 0; /* a new round: last round's bids are history */
            memset(st->bid, 0, sizeof st->bid);
        }
        st->bid[p] = m.n;
        st->bid_in |= (uint8_t)(1u << p);
        if (st->bid_in == st->bid_mask)
            resolve_bids(st);
        return;
    case CH_PH_LOSE:
        st->pl[p].stock[m.a]--;
        st->co[m.a].bank++;
        if (--st->lose_left == 0) {
            event_finish(st);
            return;
        }
        {
            int any = 0;
            for (int c = 0; c < st->ncompanies; c++)
                any |= st->pl[p].stock[c];
            if (!any)
                event_finish(st);
        }
        return;
    case CH_PH_COOP:
        if (m.type == CH_M_DONE) {
            event_finish(st);
            return;
        }
        /* An offer counts from the moment it is started, so that a game always
         * moves on: at most 10, withdrawn ones included. */
        memset(&st->offer, 0, sizeof st->offer);
        st->offer.to = m.a;
        st->offers++;
        st->phase = CH_PH_OFFER;
        offer_cache_sync(st);
        return;
    case CH_PH_OFFER: {
        ch_offer *o = &st->offer;
        switch (m.type) {
        case CH_M_GIVE:
            if (m.b == 0)
                bs_set(o->give_cards, m.a);
            else if (m.b == 1)
                o->give_stock[m.a]++;
            else
                o->give_money = m.n;
            return;
        case CH_M_ASK:
            if (m.b == 0)
                bs_set(o->ask_cards, m.a);
            else if (m.b == 1)
                o->ask_stock[m.a]++;
            else
                o->ask_money = m.n;
            return;
        case CH_M_PROPOSE:
            st->phase = CH_PH_RESPOND;
            st->actor = o->to;
            offer_cache_sync(st); /* kept only while the offer is built */
            return;
        case CH_M_WITHDRAW:
            memset(o, 0, sizeof *o);
            o->to = CH_NONE;
            offer_cache_sync(st); /* clears it: no offer any more */
            if (st->offers >= BA_MAX_OFFERS) {
                event_finish(st);
                return;
            }
            st->phase = CH_PH_COOP;
            return;
        default:
            return;
        }
    }
    case CH_PH_RESPOND:
        if (m.type == CH_M_ACCEPT)
            offer_execute(st);
        memset(&st->offer, 0, sizeof st->offer);
        st->offer.to = CH_NONE;
        st->actor = st->active;
        if (st->offers >= BA_MAX_OFFERS) {
            event_finish(st);
            return;
        }
        st->phase = CH_PH_COOP;
        return;
    case CH_PH_VEILINGE: {
        st->au_option = m.b;
        st->au_item = m.a;
        st->au_high = 0;
        st->au_high_bidder = CH_NONE;
        st->au_out = 0;
        if (m.b == 2)
            st->au_out |= (uint8_t)(1u << st->active); /* the seller does not bid */
        if (m.b >= 3)
            for (int q = 0; q < st->nplayers; q++)
                if (hand_count(st, q) >= st->max_hand)
                    st->au_out |= (uint8_t)(1u << q); /* full hands */
        st->phase = CH_PH_AUCTION;
        int first = (st->au_out >> st->active & 1) ? auction_next(st, st->active) : st->active;
        if (first == CH_NONE) {
            event_finish(st);
            return;
        }
        st->au_turn = st->actor = (uint8_t)first;
        return;
    }
    case CH_PH_AUCTION:
        if (m.type == CH_M_PASS) {
            st->au_out |= (uint8_t)(1u << p);
        } else {
            st->au_high = m.n;
            st->au_high_bidder = (uint8_t)p;
        }
        auction_step(st, p);
        return;
    case CH_PH_PICK: {
        int w = st->actor;
        if (st->au_option == 3) {
            card_to_hand(st, w, m.a, 0);
            for (int i = 0; i < st->nlook; i++) {
                int c = st->look[i];
                if (c == m.a)
                    continue;
                st->deck[st->ndeck++] = (uint8_t)c;
                st->loc[c] = CH_LOC_DECK;
            }
            st->nlook = 0;
            rng_shuffle(st->rng, st->deck, st->ndeck);
        } else {
            int x = st->card_plot[m.a], i = st->ndiscard - 1;
            while (st->discard[i] != m.a)
                i--;
            memmove(&st->discard[i], &st->discard[i + 1], (size_t)(st->ndiscard - i - 1));
            st->ndiscard--;
            remove_warehouse(st, x);
            card_to_hand(st, w, m.a, 1);
        }
        event_finish(st);
        return;
    }
    default:
        assert(0);
    }
}
