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
 * to about [0, 1] (florins by f1,000, counts by their usual maximum).
 *
 * Cost (issue 34: an observation should cost less than the step it
 * follows): nine tenths of the tensor are the plot and card rows, about one
 * value in ten non-zero, so the card columns are made as bitsets over the
 * cards (a hand's own bitset, the places sixteen cards at a time) and only
 * their set bits are stored; a buffer written before (a row of the vector
 * of games, vec.c) comes with an obs_memo of what it holds, and then only
 * the plot rows and card entries that changed are stored.
 * tests/test_obs_fast.c holds both to the plain writer they replaced. */
#include <string.h>

#include "internal.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

/* Where each block starts and how wide its rows are. */
typedef struct {
    int off[B_COUNT], cols[B_COUNT];
} obs_layout;

static void layout_of(const ch_state *st, obs_layout *L)
{
    int o = 0, r, c;
    for (int b = 0; b < B_COUNT; b++) {
        shape(st, b, &r, &c);
        L->off[b] = o;
        L->cols[b] = c;
        o += r * c;
    }
}

/* A plot's row is a function of four bytes of the state, packed into one
 * code (height; owner one-hot index; flags; being built). */
static uint32_t plot_code(const uint8_t *height, const uint8_t *owner, const uint8_t *pflags, int b_plot,
                          int b_plot2, int x, int C)
{
    uint32_t own = owner[x] < C ? 1u + owner[x] : 0u;
    return (uint32_t)height[x] | own << 8 | (uint32_t)(pflags[x] & 31) << 16 |
           (uint32_t)(x == b_plot || x == b_plot2) << 21;
}

/* Write the row of code into a row that holds zeros where code has none:
 * one cleared whole, or one cleared of its last code by plot_unset (the
 * non-zeros are about one in ten, so a changed row costs a few stores). */
static void plot_set(float *row, uint32_t code, int C)
{
    row[0] = (float)(code & 255) / 5.0f;
    row[1 + (code >> 8 & 255)] = 1;
    for (unsigned f = code >> 16 & 63; f; f &= f - 1)
        row[2 + C + __builtin_ctz(f)] = 1; /* flags, then "being built" */
}

static void plot_unset(float *row, uint32_t code, int C)
{
    row[1 + (code >> 8 & 255)] = 0;
    for (unsigned f = code >> 16 & 63; f; f &= f - 1)
        row[2 + C + __builtin_ctz(f)] = 0;
}

/* Plot x's row from the memo's copy of the state to the state's own. */
static void plot_update(const ch_state *st, const obs_memo *m, float *rows, int cols, int x, int N, int C)
{
    if (x >= N)
        return;
    uint32_t was = plot_code(m->height, m->owner, m->pflags, m->b_plot, m->b_plot2, x, C);
    uint32_t now = plot_code(st->height, st->owner, st->pflags, st->b_plot, st->b_plot2, x, C);
    if (was != now) {
        plot_unset(rows + x * cols, was, C);
        plot_set(rows + x * cols, now, C);
    }
}

/* plots: height; owner one-hot (none, companies); flags; being built. With
 * a memo, only the plots where a byte changed (and the old and new plots
 * being built) are looked at. */
static void write_plots(const ch_state *st, float *rows, int cols, int C, obs_memo *m, int fresh)
{
    const int N = BRD(st)->nplots;
    if (fresh) {
        for (int x = 0; x < N; x++)
            plot_set(rows + x * cols,
                     plot_code(st->height, st->owner, st->pflags, st->b_plot, st->b_plot2, x, C), C);
    } else {
        /* the plots whose bytes changed, as a bitset: one pass over all
           of them without a branch (sixteen at a time where SSE2 is), then
           a loop over the changed ones alone */
        uint64_t changed[2] = {0, 0};
#ifdef __SSE2__
        for (int i = 0; i < CH_MAX_PLOTS / 16; i++) {
            const __m128i h = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(st->height + 16 * i)),
                                             _mm_loadu_si128((const __m128i *)(m->height + 16 * i)));
            const __m128i o = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(st->owner + 16 * i)),
                                             _mm_loadu_si128((const __m128i *)(m->owner + 16 * i)));
            const __m128i f = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(st->pflags + 16 * i)),
                                             _mm_loadu_si128((const __m128i *)(m->pflags + 16 * i)));
            const unsigned same = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_and_si128(h, o), f));
            changed[i >> 2] |= (uint64_t)(~same & 0xffffu) << (16 * (i & 3));
        }
#else
        for (int x = 0; x < CH_MAX_PLOTS; x++)
            changed[x >> 6] |= (uint64_t)(st->height[x] != m->height[x] || st->owner[x] != m->owner[x] ||
                                          st->pflags[x] != m->pflags[x])
                               << (x & 63);
#endif
        if (st->b_plot != m->b_plot || st->b_plot2 != m->b_plot2) {
            const int bp[4] = {m->b_plot, m->b_plot2, st->b_plot, st->b_plot2};
            for (int k = 0; k < 4; k++)
                if (bp[k] < CH_MAX_PLOTS)
                    changed[bp[k] >> 6] |= 1ull << (bp[k] & 63);
        }
        for (int w = 0; w < 2; w++)
            for (uint64_t c = changed[w]; c; c &= c - 1)
                plot_update(st, m, rows, cols, 64 * w + __builtin_ctzll(c), N, C);
    }
    if (m) {
        memcpy(m->height, st->height, sizeof m->height);
        memcpy(m->owner, st->owner, sizeof m->owner);
        memcpy(m->pflags, st->pflags, sizeof m->pflags);
        m->b_plot = st->b_plot;
        m->b_plot2 = st->b_plot2;
    }
}

/* The cards in the market, the discard pile and (look: when the seat sees
 * them) those looked at in Veilinge 3, as bitsets: one pass over the
 * places, sixteen at a time where SSE2 is (byte_mask's way, three values). */
static void place_masks(const uint8_t *loc, int look, uint64_t market[2], uint64_t discard[2],
                        uint64_t looked[2])
{
    market[0] = market[1] = discard[0] = discard[1] = looked[0] = looked[1] = 0;
#ifdef __SSE2__
    const __m128i mk = _mm_set1_epi8(CH_LOC_MARKET), dc = _mm_set1_epi8(CH_LOC_DISCARD),
                  lk = _mm_set1_epi8(look ? CH_LOC_LOOK : -1);
    for (int i = 0; i < CH_MAX_CARDS / 16; i++) {
        __m128i l = _mm_loadu_si128((const __m128i *)(loc + 16 * i));
        const int sh = 16 * (i & 3);
        market[i >> 2] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(l, mk)) << sh;
        discard[i >> 2] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(l, dc)) << sh;
        looked[i >> 2] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(l, lk)) << sh;
    }
#else
    for (int c = 0; c < CH_MAX_CARDS; c++) {
        market[c >> 6] |= (uint64_t)(loc[c] == CH_LOC_MARKET) << (c & 63);
        discard[c >> 6] |= (uint64_t)(loc[c] == CH_LOC_DISCARD) << (c & 63);
        looked[c >> 6] |= (uint64_t)(look && loc[c] == CH_LOC_LOOK) << (c & 63);
    }
#endif
}

/* cards: in my hand; market; discard; looked at; offered; asked; known to
 * be in relative player k's hand. Each column is a bitset over the cards
 * (the hands' own bitsets, place_masks for the others); with a memo, only the bits that changed since its write are
 * stored. */
static void write_cards(const ch_state *st, int p, float *rows, int cols, const uint8_t *rel, obs_memo *m,
                        int fresh)
{
    const int K = st->ncards, P = st->nplayers;
    const int offering = st->phase == CH_PH_OFFER || st->phase == CH_PH_RESPOND;
    uint64_t col[6 + CH_MAX_PLAYERS][2], in_game[2];
    in_game[0] = K >= 64 ? ~0ull : (1ull << K) - 1;
    in_game[1] = K >= 128 ? ~0ull : K > 64 ? (1ull << (K - 64)) - 1 : 0;
    col[4][0] = col[4][1] = col[5][0] = col[5][1] = 0;
    /* a hand's bitset is its cards' places (ch_validate), its known cards a
       part of it */
    col[0][0] = st->pl[p].hand[0];
    col[0][1] = st->pl[p].hand[1];
    /* json_write.c look_hidden_in: in Veilinge 3 only the picker, while picking */
    place_masks(st->loc, st->au_option != 3 || (st->phase == CH_PH_PICK && st->actor == p), col[1], col[2],
                col[3]);
    if (offering) { /* json_write.c w_offer_side: parties see every card */
        const int to = st->offer.to;
        const int give_party = p == st->active || (p == to && st->phase == CH_PH_RESPOND);
        const int ask_party = give_party || p == to;
        for (int w = 0; w < 2; w++) {
            uint64_t gk = st->active < P ? st->pl[st->active].known[w] : 0;
            uint64_t ak = to < P ? st->pl[to].known[w] : 0;
            col[4][w] = st->offer.give_cards[w] & (give_party ? ~0ull : gk);
            col[5][w] = st->offer.ask_cards[w] & (ask_party ? ~0ull : ak);
        }
    }
    for (int q = 0; q < P; q++) {
        uint64_t *k = col[6 + rel[q]];
        k[0] = st->pl[q].hand[0] & st->pl[q].known[0];
        k[1] = st->pl[q].hand[1] & st->pl[q].known[1];
    }
    for (int j = 0; j < 6 + P; j++)
        for (int w = 0; w < 2; w++) {
            uint64_t now = col[j][w] & in_game[w];
            uint64_t change = fresh ? now : now ^ m->cards[j][w];
            for (; change; change &= change - 1) {
                int b = __builtin_ctzll(change);
                rows[(64 * w + b) * cols + j] = (float)(now >> b & 1);
            }
            if (m)
                m->cards[j][w] = now;
        }
}

void obs_write(const ch_state *st, int p, float *buf, obs_memo *memo)
{
    const int N = BRD(st)->nplots, C = st->ncompanies, K = st->ncards, P = st->nplayers;
    const int ga = st->edition == CH_ED_GOLDEN_AGE;
    if (memo && (memo->nplots != N || memo->ncards != K || memo->nplayers != P || memo->ncompanies != C))
        memo->valid = 0;
    obs_layout L;
    if (memo && memo->valid)
        memcpy(L.off, memo->off, sizeof L.off), memcpy(L.cols, memo->cols, sizeof L.cols);
    else
        layout_of(st, &L);
    const int fresh = !memo || !memo->valid;
    const int offering = st->phase == CH_PH_OFFER || st->phase == CH_PH_RESPOND;
    uint8_t rel[CH_MAX_PLAYERS];
    for (int q = 0; q < P; q++)
        rel[q] = (uint8_t)(q >= p ? q - p : q - p + P);
#define AT(b, row, col) buf[L.off[b] + (row) * L.cols[b] + (col)]
#define REL(q) rel[q]
    const int size = L.off[B_EVENT] + L.cols[B_EVENT]; /* the event block is one row */
    if (fresh) /* a fresh buffer is cleared whole, then only its non-zeros are set */
        memset(buf, 0, (size_t)size * sizeof *buf);
    write_plots(st, &AT(B_PLOTS, 0, 0), L.cols[B_PLOTS], C, memo, fresh);
    write_cards(st, p, &AT(B_CARDS, 0, 0), L.cols[B_CARDS], rel, memo, fresh);
    if (memo) {
        memcpy(memo->off, L.off, sizeof L.off), memcpy(memo->cols, L.cols, sizeof L.cols);
        memo->valid = 1;
        memo->nplots = N;
        memo->ncards = K;
        memo->nplayers = P;
        memo->ncompanies = C;
    }
    /* the small blocks are written whole: companies and players (between
       the plots and the cards), piles, turn and event (after the cards) */
    if (!fresh) {
        memset(&AT(B_COMPANIES, 0, 0), 0, (size_t)(L.off[B_CARDS] - L.off[B_COMPANIES]) * sizeof *buf);
        memset(&AT(B_PILES, 0, 0), 0, (size_t)(size - L.off[B_PILES]) * sizeof *buf);
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
        AT(B_PLAYERS, k, 3) = hand_count(st, q) / 15.0f;
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
}

int ch_observation(const ch_state *st, int p, float *buf, size_t n)
{
    if (!valid(st) || !buf || p < 0 || p >= st->nplayers)
        return CH_EINVAL;
    if (n < (size_t)ch_observation_size(st))
        return CH_EINVAL;
    obs_write(st, p, buf, NULL);
    return CH_OK;
}
