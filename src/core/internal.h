/* internal.h: helpers shared by the rules engine's source files (not public).
 * Bitsets, the seeded RNG, money movements against the bank ledger, piece
 * queries on the board, and the rule constants that come from RULINGS.md. */
#ifndef CH_INTERNAL_H
#define CH_INTERNAL_H

#include "chartered.h"
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ---- rule constants (Building Amsterdam; RULINGS.md "Building Amsterdam") -- */
#define BA_WAREHOUSES 62
#define BA_ROOFS 10
#define BA_HAND_MAX 15
#define BA_MARKET 5
#define BA_PURCHASE_COST 50
#define BA_REFRESH_COST 100
#define BA_ACTION_COST 100
#define BA_ROOF_DELTA (-50)
/* The Golden Age: a flag counts as four stocks of its enterprise, at the end
 * and when the enterprise is absorbed (RULINGS.md "Merger"; scores.c). */
#define GA_FLAG_STOCKS 4
#define BA_MAX_OFFERS 10     /* Coopmanscappen                                 */
#define BA_LOOK 10           /* Veilinge options 3 and 4                       */
#define BA_AUCTION_STEP 10
#define BA_LEVEL2 9
#define BA_LEVEL3 6
#define BA_LEVEL4 3

/* Per-edition numbers used by the shared code (edition.c). */
typedef struct ed_rules {
    const char *name;
    int spacing;          /* a new company keeps this distance from others  */
    int min_value, max_value;
    int min_stock_price;  /* buys cost max(this, value)                       */
    int stocks;           /* stock cards per company                          */
    int nlines;
    int lines[8];         /* event lines on the stock chart                   */
} ed_rules;
extern const ed_rules ed_table[2];
static inline const ed_rules *ED(const ch_state *st) { return &ed_table[st->edition & 1]; }

#define NOPL CH_NONE

/* ---- bitsets over card ids ------------------------------------------------- */
static inline int bs_has(const uint64_t *b, int i) { return (int)((b[i >> 6] >> (i & 63)) & 1u); }
static inline void bs_set(uint64_t *b, int i) { b[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void bs_clr(uint64_t *b, int i) { b[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
/* Population count without a library call on CPUs without POPCNT. */
#if !defined(__POPCNT__) && defined(__x86_64__) && defined(__GNUC__)
extern int core_have_popcnt; /* the CPU has POPCNT (rng.c sets it at load time) */
#endif
static inline int popc64(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
#if defined(__x86_64__) && defined(__GNUC__)
    /* the instruction when the CPU has it, without building for such CPUs only */
    if (__builtin_expect(core_have_popcnt, 1)) {
        uint64_t r;
        __asm__("popcnt %1, %0" : "=r"(r) : "rm"(x) : "cc");
        return (int)r;
    }
#endif
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}
static inline int bs_count(const uint64_t *b) { return popc64(b[0]) + popc64(b[1]); }
/* Bitmask of the companies c < nc with a[c] > b[c] (stock counts, arrays of
 * CH_MAX_COMPANIES): one byte comparison of eight of them with SSE2. For
 * arrays that the last moves seldom wrote (an offer's stocks): a load wider
 * than a store still in flight waits for it. */
static inline unsigned stock_gt_mask(const uint8_t *a, const uint8_t *b, int nc)
{
#ifdef __SSE2__
    /* the first 8 companies by one 8-byte load each, the ninth apart:
     * copying the 9 bytes into a zeroed 16-byte buffer and loading that
     * stalled on store forwarding (a load wider than the stores it reads) */
    _Static_assert(CH_MAX_COMPANIES == 9, "stock_gt_mask: 8 + 1 companies");
    __m128i va = _mm_loadl_epi64((const __m128i *)a), vb = _mm_loadl_epi64((const __m128i *)b);
    /* a > b (unsigned) exactly when a - b, saturated at 0, is not 0 */
    __m128i zero = _mm_cmpeq_epi8(_mm_subs_epu8(va, vb), _mm_setzero_si128());
    unsigned m = ~(unsigned)_mm_movemask_epi8(zero) & 0xFFu;
    m |= (unsigned)(a[8] > b[8]) << 8;
    return m & ((1u << nc) - 1);
#else
    unsigned m = 0;
    for (int c = 0; c < nc; c++)
        m |= (unsigned)(a[c] > b[c]) << c;
    return m;
#endif
}
static inline int popc(unsigned x) { return popc64(x); }

/* The cards c that build on plot c (card_plot[c] == c): every plot card of a
 * game ch_new dealt (it numbers plot cards by plot). For them a set of cards
 * is a set of plots, so building classifies a hand as bitsets over plots;
 * other plot cards (a state loaded with another numbering) go card by card.
 * A pure function of the game's definition, worked out at each building
 * decision (SSE2: 16 cards at a time), so nothing in the state can go stale. */
static inline void ident_cards(const ch_state *st, uint64_t out[2]);

/* The active player's hand split for the bitset move generators (gen_plays,
 * gen_ga_plays): its plot cards that build on the plot of their number
 * (plots, a set of plots) and its level cards (levels). -1 when a card is
 * neither: that hand goes card by card. */
static inline int hand_by_plots(const ch_state *st, uint64_t plots[2], uint64_t levels[2])
{
    const ch_player *pl = &st->pl[st->active];
    uint64_t id[2];
    ident_cards(st, id);
    for (int w = 0; w < 2; w++) {
        plots[w] = pl->hand[w] & id[w];
        levels[w] = pl->hand[w] & ~id[w];
        for (uint64_t bits = levels[w]; bits; bits &= bits - 1)
            if (!st->card_level[w * 64 + __builtin_ctzll(bits)])
                return -1;
    }
    return 0;
}

static inline void ident_cards(const ch_state *st, uint64_t out[2])
{
    uint64_t m[2] = {0, 0};
#ifdef __SSE2__
    __m128i idx = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i step = _mm_set1_epi8(16);
    for (int i = 0; i < CH_MAX_CARDS / 16; i++) {
        __m128i l = _mm_loadu_si128((const __m128i *)(st->card_plot + 16 * i));
        m[i >> 2] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(l, idx)) << (16 * (i & 3));
        idx = _mm_add_epi8(idx, step);
    }
#else
    for (int c = 0; c < CH_MAX_CARDS; c++)
        m[c >> 6] |= (uint64_t)(st->card_plot[c] == c) << (c & 63);
#endif
    out[0] = m[0];
    out[1] = m[1];
}

/* Bitset of the cards in the market, the discard pile or not in the game. */
void public_elsewhere(const ch_state *st, uint64_t *out);

/* Does every member of the card set a come before every member of b (sets
 * of 128 as two words; b not empty)? */
static inline int plays_before_levels(const uint64_t *a, const uint64_t *b)
{
    int lo_b = b[0] ? __builtin_ctzll(b[0]) : 64 + __builtin_ctzll(b[1]);
    int hi_a = a[1] ? 127 - __builtin_clzll(a[1]) : a[0] ? 63 - __builtin_clzll(a[0]) : -1;
    return hi_a < lo_b;
}

/* ---- RNG: xoshiro256**, seeded by splitmix64 ----------------------------------- */
void rng_seed(uint64_t *s, uint64_t seed);
/* Inline: shuffles (a Golden Age refresh reshuffles the whole deck) and the
 * playout loops draw one number per step, and a call per draw cost more than
 * the draw. The sequence is the one rng.c always gave. */
static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}
/* Uniform in [0, n), n > 0: Lemire's multiply-shift with rejection (unbiased). */
static inline uint32_t rng_below(uint64_t *s, uint32_t n)
{
    assert(n > 0);
    uint64_t m = (uint64_t)(uint32_t)(rng_next(s) >> 32) * n;
    uint32_t l = (uint32_t)m;
    if (__builtin_expect(l < n, 0)) {
        uint32_t t = (uint32_t)(-n) % n;
        while (l < t) {
            m = (uint64_t)(uint32_t)(rng_next(s) >> 32) * n;
            l = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}
void rng_shuffle(uint64_t *s, uint8_t *a, int n);

/* ---- the fixed action space (action.c) --------------------------------------- */
/* The offsets of the action space's sections for an edition and player
 * count, worked out once by a caller that encodes many moves (vec.c). */
#define ACTION_LAYOUT_MAX 40
typedef struct action_layout {
    int32_t off[ACTION_LAYOUT_MAX];
} action_layout;
/* 1, or 0 for bad arguments (then l is not a layout). */
int action_layout_of(int edition, int nplayers, action_layout *l);
/* ch_action_encode of m with l the layout of st's game. */
int32_t action_encode_in(const ch_state *st, ch_move m, const action_layout *l);

/* ---- observation tensors (obs.c) ---------------------------------------------- */
/* What a caller's observation buffer holds of its two large blocks (plots and
 * cards: nine tenths of the tensor): the plot bytes the plot rows were written
 * from and the card columns as bitsets, so that the next write into the same
 * buffer stores only what changed (vec.c keeps one per game). valid 0: the
 * buffer holds anything (it is written whole). */
typedef struct obs_memo {
    uint8_t height[CH_MAX_PLOTS], owner[CH_MAX_PLOTS], pflags[CH_MAX_PLOTS]; /* the state's, as written */
    uint8_t b_plot, b_plot2;
    uint64_t cards[6 + CH_MAX_PLAYERS][2]; /* each card column as a bitset */
    int valid, nplots, ncards, nplayers, ncompanies;
    int off[7], cols[7]; /* the blocks' offsets and widths */
} obs_memo;
/* ch_observation's writer without the argument checks: st valid, 0 <= p <
 * nplayers, buf of ch_observation_size floats; memo NULL or the memo of buf. */
void obs_write(const ch_state *st, int p, float *buf, obs_memo *memo);

/* ---- messages -------------------------------------------------------------- */
int fail(ch_msg *why, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* fail with a va_list (notation.c's nt_fail); both write why->text and
 * record fmt and its arguments for translation (status.c). */
int ch_msg_vfail(ch_msg *why, int code, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* Empty why's text and what was recorded with it. */
void ch_msg_clear(ch_msg *why);

/* ---- money: every movement against the bank goes through these ------------------ */
static inline void pay_bank(ch_state *st, int p, int32_t amount)
{
    assert(amount >= 0 && st->pl[p].cash >= amount);
    st->pl[p].cash -= amount;
    st->bank_net += amount;
}
static inline void bank_pays(ch_state *st, int p, int32_t amount)
{
    assert(amount >= 0);
    st->pl[p].cash += amount;
    st->bank_net -= amount;
}

/* ---- board pieces ------------------------------------------------------------- */
/* A plot holds a piece when it has a warehouse, an HQ placeholder or an
 * upside-down warehouse (placeholders are company pieces: R-14). */
static inline int has_piece(const ch_state *st, int x)
{
    return st->height[x] > 0 || (st->pflags[x] & (CH_PF_HQ | CH_PF_UPSIDE));
}
static inline int stack_value(int h) { return 10 * h * (h + 1) / 2; } /* 10,30,60,100 */
static inline int clamp_value(const ch_state *st, int v)
{
    const ed_rules *e = ED(st);
    return v < e->min_value ? e->min_value : v > e->max_value ? e->max_value : v;
}
static inline int hand_count(const ch_state *st, int p) { return bs_count(st->pl[p].hand); }
/* (p + 1) mod nplayers for a seat p < nplayers, without a division (every
 * turn's end asks it) */
static inline int next_player(const ch_state *st, int p)
{
    int q = p + 1;
    return q >= st->nplayers ? 0 : q;
}

/* board_table.c: the shared read-only table of boards (ch_state.board_id).
 * An entry is the board and tables derived from it that are too big to copy
 * with every state: zmask[s][x], the plots at distance < 3 + s from plot x
 * (the spacing zones of R-17, spacing 3, and G-11, spacing 4), and dmask[x],
 * the plots diagonal to x. */
#define CH_BOARD_SLOTS 512
typedef struct board_entry {
    ch_board b;
    uint64_t zmask[2][CH_MAX_PLOTS][2];
    /* dmask[x]: the plots diagonally adjacent to x (same district, one row and
     * one column apart: RULINGS.md "Diagonal founding"), for building's
     * diagonal options without a search */
    uint64_t dmask[CH_MAX_PLOTS][2];
    /* rmask[x]: the plots that have x among their neighbours (nbmask), so the
     * plots next to a set of pieces are a union of rows (ch_state.near) */
    uint64_t rmask[CH_MAX_PLOTS][2];
} board_entry;
extern board_entry board_store[CH_BOARD_SLOTS];
static inline const board_entry *BENT(const ch_state *st)
{
    return &board_store[st->board_id & (CH_BOARD_SLOTS - 1)];
}
/* The board of st (read-only; never NULL). */
static inline const ch_board *BRD(const ch_state *st) { return &BENT(st)->b; }
/* The id of board b in the table, adding it when new (CH_EINVAL when full). */
int board_intern(const ch_board *b, uint16_t *id, ch_msg *err);

/* groups.c: connectivity and distance on the plot graph */
typedef struct plotset { uint64_t b[2]; } plotset;
/* Fill b->nbmask from the adjacency lists. */
void board_derive(ch_board *b);
/* Lone warehouses reachable from x through lone warehouses (x itself excluded). */
void lone_component(const ch_state *st, int x, plotset *out);
/* Distinct companies owning pieces orthogonally adjacent to x, plus x's own. */
unsigned adjacent_companies(const ch_state *st, int x);
/* Plots closer than the edition's spacing to a piece of a company (see groups.c);
 * `companies` is the set of plots holding company pieces. */
void danger_zone(const ch_state *st, const plotset *companies, plotset *out);
/* Plots holding pieces, and those holding lone warehouses. */
void piece_sets(const ch_state *st, plotset *piece, plotset *lone);
/* Bitset of the indices i < 128 with bytes[i] == value. */
void byte_mask(const uint8_t *bytes, int value, uint64_t *out);
/* Does a new company made of the plots in `group` respect spacing? */
static inline int spacing_ok(const plotset *danger, const plotset *group)
{
    return !((danger->b[0] & group->b[0]) | (danger->b[1] & group->b[1]));
}
/* Is the company's set of pieces connected (pieces of `c`, optionally skipping
 * plot `without`)? Also returns the number of warehouse stacks. */
int company_connected(const ch_state *st, int c, int without, int *stacks);
int plot_adjacent(const ch_state *st, int x, int y);

/* company.c: values, lines and the chart */
/* Bitmask of the companies that can be founded (inline: every building
 * decision asks). */
static inline int company_available(const ch_state *st)
{
    /* No branch per company (random states mispredict them), and each
     * company's on_chart and hq read as one 16-bit word (0xFF00: off the
     * chart, HQ in the box): the companies' values and banks are written by
     * most moves, and a wider load (SSE2, two companies at a time) spanning
     * such a store still in flight stalled on store forwarding. */
    _Static_assert(offsetof(ch_company, hq) == offsetof(ch_company, on_chart) + 1,
                   "company_available: on_chart and hq side by side");
    static const uint8_t founding[2] = {0, CH_NONE}; /* on_chart, hq */
    uint16_t want;
    memcpy(&want, founding, 2);
    int mask = 0;
    for (int c = 0; c < CH_MAX_COMPANIES; c++) {
        uint16_t w;
        memcpy(&w, &st->co[c].on_chart, 2);
        mask |= (w == want) << c;
    }
    return mask & ((1 << st->ncompanies) - 1);
}
/* Set a company's value (clamped), noting passed event lines. Returns the new value. */
int set_value(ch_state *st, int c, int v);
/* Buys cost max(f50, value), except the founder's discount: in the turn a
 * player founds a company they buy up to two of its stocks at its true value
 * (Rulebook "Stock trading"; RULINGS.md "Trading"; R-28). The buy price for
 * the active player now; inline, since every trading decision asks it of
 * every company. */
static inline int stock_price(const ch_state *st, int c)
{
    int v = st->co[c].value;
    if (st->founded == c && st->discount_left > 0)
        return v;
    int floor = st->prices.stock_min;
    return v < floor ? floor : v;
}

/* setup.c: the shared start of a game, once the cards are dealt */
void start_game(ch_state *s);
/* turn.c: sell one stock card of company c to the bank at its value */
void sell_one(ch_state *st, int p, int c);

/* build.c */
int gen_plays(const ch_state *st, ch_move *buf, int cap, int n);
/* The same card by card (the reference gen_plays is checked against). */
int gen_plays_cards(const ch_state *st, ch_move *buf, int cap, int n);
/* ch_validate: gen_plays (or The Golden Age's gen_ga_plays) against the
 * card-by-card reference in the turn phase. */
int plays_check(const ch_state *st, ch_msg *why);
int gen_build_phase(const ch_state *st, ch_move *buf, int cap);
void apply_build_phase(ch_state *st, ch_move m);
void apply_play(ch_state *st, ch_move m);
int single_founds(const ch_state *st, int x);
int play_legal_reason(const ch_state *st, int p, ch_move m, ch_msg *why);
int ba_credit_value(const ch_state *st, int c);
/* The Golden Age: the credited enterprise gains f10, the new warehouse
 * (printed rulebook "Merging enterprises"; Ruling G-15); not yet capped. */
static inline int ga_credit_value(const ch_state *st, int c) { return st->co[c].value + 10; }

/* merger.c */
void merger_start(ch_state *st, int credited);
int gen_merge(const ch_state *st, ch_move *buf, int cap);
void apply_merge(ch_state *st, ch_move m);
int gen_merge_sell(const ch_state *st, ch_move *buf, int cap);
void apply_merge_sell(ch_state *st, ch_move m);

/* turn.c */
void end_turn(ch_state *st);
void enter_trade(ch_state *st);
void card_to_hand(ch_state *st, int p, int card, int known);
void card_from_hand(ch_state *st, int p, int card);
void draw_market_refill(ch_state *st);
int deck_pop(ch_state *st);
void market_to_deck(ch_state *st);
void take_from_market(ch_state *st, int p, int card);
int gen_stock_trades(const ch_state *st, int p, ch_move *buf, int cap, int n);
void count_trade(ch_state *st);
void pass_turn(ch_state *st);
/* One move written with a single 8-byte store (a struct initialiser makes
 * compilers store the fields byte by byte, and move lists are long). */
static inline void move_put(ch_move *out, unsigned type, unsigned a, unsigned b, unsigned c,
                            int32_t amount)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w = (uint64_t)(type & 255) | (uint64_t)(a & 255) << 8 | (uint64_t)(b & 255) << 16 |
                 (uint64_t)(c & 255) << 24 | (uint64_t)(uint32_t)amount << 32;
    _Static_assert(sizeof(ch_move) == 8, "ch_move is 8 bytes");
    memcpy(out, &w, 8);
#else
    ch_move m = {(uint8_t)type, (uint8_t)a, (uint8_t)b, (uint8_t)c, amount};
    *out = m;
#endif
}
/* The plays of the card set leg (two words) written in card order, one
 * {PLAY, c, c} each, no test per card; the caller checked the room. Both
 * editions' bitset play generators end with it (build.c, ga_turn.c).
 * Returns how many were written. */
static inline int put_play_bits(ch_move *out, const uint64_t leg[2])
{
    ch_move *o = out;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = leg[w]; bits; bits &= bits - 1) {
            int c = w * 64 + __builtin_ctzll(bits);
            move_put(o++, CH_M_PLAY, (unsigned)c, (unsigned)c, CH_NONE, 0);
        }
    return (int)(o - out);
}
/* The lowest card id of each level (1-15) in the market, in low[level]
 * (CH_NONE where none), for both editions' purchases (the level cards of a
 * level are interchangeable: only the lowest is offered). Plot cards, empty
 * slots and levels of 16 and more (only a hand-made state could hold them)
 * each go to a slot of their own, low[16 + i], never read: all to one entry
 * made each slot's minimum wait for the previous one's store. */
static inline void market_level_low(const ch_state *st, uint8_t low[16 + CH_MARKET_MAX])
{
    memset(low, CH_NONE, 16 + CH_MARKET_MAX);
    for (int i = 0; i < st->market_size; i++) {
        int c = st->market[i], k = st->card_level[c & (CH_MAX_CARDS - 1)];
        int lv = (c != CH_NONE) & (k > 0) & (k < 16);
        k = lv ? k : 16 + i;
        low[k] = (uint8_t)(c < low[k] ? c : low[k]);
    }
}
/* Append one move to the caller's buffer; counts moves past cap (snprintf-like). */
static inline void emit(ch_move *buf, int cap, int *n, uint8_t type, int a, int b, int c, int32_t amount)
{
    if (*n < cap)
        move_put(buf + *n, type, (unsigned)a, (unsigned)b, (unsigned)c, amount);
    (*n)++;
}
/* Append the moves {type, a, b, 0, v} for v = from, from+step, ..., <= to:
 * a tight loop, since sealed bids and offered money are long runs. */
static inline void emit_range(ch_move *buf, int cap, int *n, uint8_t type, int a, int b,
                              int32_t from, int32_t to, int32_t step)
{
    if (to < from)
        return;
    int count = (int)((to - from) / step) + 1;
    int room = cap - *n;
    int k = count < room ? count : (room > 0 ? room : 0);
    ch_move *out = buf + *n;
    ch_move m = {type, (uint8_t)a, (uint8_t)b, 0, from};
    int i = 0;
#ifdef __SSE2__
    /* two moves per 16-byte store: the run can be thousands of bids long */
    if (k >= 2) {
        uint32_t head;
        memcpy(&head, &m, 4);
        __m128i v = _mm_set_epi32(from + step, (int)head, from, (int)head);
        const __m128i inc = _mm_set_epi32(2 * step, 0, 2 * step, 0);
        for (; i + 1 < k; i += 2) {
            _mm_storeu_si128((__m128i *)(out + i), v);
            v = _mm_add_epi32(v, inc);
        }
        m.n = from + i * step;
    }
#endif
    for (; i < k; i++, m.n += step)
        out[i] = m;
    *n += count;
}

/* ga_setup.c, ga_turn.c: The Golden Age */
int ga_new(ch_state *st, const ch_setup *setup, const ch_board *board, ch_msg *err);
/* Variant settings shared by both editions' setup (setup.c): each seat's
 * starting money from the rulebook's capital cap, and the bounds of the
 * supply, open cards and hand. */
/* A setup's prices and end conditions into a new state (0 in the setup:
 * the rulebook's prices, no variant end), checked against their bounds. */
int setup_prices_end(const ch_setup *setup, ch_state *s, ch_msg *err);
/* The variant's end conditions (end turns, end value) are met at the end of
 * this turn (docs/variants.md). */
int variant_end_reached(const ch_state *st);
/* variant.c: a "price ..." or "end ..." line (key "price" or "end", s the
 * rest), shared by variant files and positions: sets the price or end into
 * *pr, *end_turns, *end_value and which (0-4: the price purchase, refresh,
 * action, stock-min, flags; 5 end turns; 6 end value); -1 and why. */
int variant_price_end(const char *key, const char *s, ch_prices *pr, int *end_turns,
                      int *end_value, int *which, char *why, size_t n);
int setup_variant_common(const ch_setup *setup, int cap, int32_t cash_out[CH_MAX_PLAYERS],
                         ch_msg *err);
/* The rulebook's open cards, supply and hand limit (255: none) of a game. */
void setup_rulebook(int edition, int preset, int nplayers, int *open, int *warehouses,
                    int *hand_limit, int *capital);
void ga_rulebook(int preset, int nplayers, int *open, int *warehouses, int *capital);
int ga_legal(const ch_state *st, int p, ch_move *buf, int cap);
/* The Golden Age's plays of the active player's hand (as bitsets), and the
 * same card by card (the reference, ga_turn.c). */
int gen_ga_plays(const ch_state *st, ch_move *buf, int cap, int n);
int gen_ga_plays_cards(const ch_state *st, ch_move *buf, int cap, int n);
void ga_apply(ch_state *st, int p, ch_move m);
/* groups.c: bring the board caches (st->piece, lone, zone) up to date with
 * the board after it changed (setup, a move, a load, an edit by hand), and
 * check them against a recomputation from scratch (ch_validate). */
void board_sync(ch_state *st);
/* The same after a move that changed the board on the plots of t0 | t1
 * (bits 0-63 and 64-127) alone: only those plots are read again. */
void board_sync_plots(ch_state *st, uint64_t t0, uint64_t t1);
/* events.c: the askable cards of the offer being built (ch_state.offer_ask),
 * worked out afresh, or cleared outside the offer phase; and its check. */
void offer_cache_sync(ch_state *st);
/* The Golden Age: deal total[c] hidden stock cards of each enterprise among
 * the players who[0..n) (determinize.c; ch_determinize and the position
 * loader), keeping a stock-sale event's deciding seller able to sell. */
void ga_deal_stocks(ch_state *st, const int *who, int n, const int *total, uint64_t rng[4]);
int offer_cache_check(const ch_state *st, ch_msg *why);
/* The same from nothing, for a state whose caches hold anything (a load). */
void board_rebuild(ch_state *st);
int board_cache_check(const ch_state *st, ch_msg *why);
/* The former name, kept for callers written before both editions cached. */
static inline void ga_zone_sync(ch_state *st) { board_rebuild(st); }

/* events.c */
int event_choosable(const ch_state *st); /* can an event be chosen now? */
void enter_event(ch_state *st, int from_action);
int gen_event_phase(const ch_state *st, int p, ch_move *buf, int cap);
void apply_event_phase(ch_state *st, int p, ch_move m);
int check_event_range(const ch_state *st, int p, ch_move m, ch_msg *why);

/* json.c: ch_state_from_json's reading of an already parsed document (a
 * jansson json_t), for the fuzz harness of tests/fuzz, which changes parts
 * of a document without printing and parsing all of it again. */
struct json_t;
int json_state_read(ch_state *st, struct json_t *root, ch_msg *why);

#endif
