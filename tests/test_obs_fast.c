/* test_obs_fast.c: the observation writer against a plain one (src/core/obs.c;
 * issue 34: observations cheaper than the step).
 *
 * obs.c writes the tensor from bitsets and codes, and into a buffer it
 * wrote before (the vector of games, vec.c) only what changed since (an
 * obs_memo). Here ref_observation is the plain writer it replaced (clear
 * everything, then every value in turn, card by card and plot by plot),
 * kept as the reference. Along random games of both editions (Building
 * Amsterdam with 2 to 5 players, The Golden Age with 2 to 6, both presets,
 * with and without event cards), at every decision:
 * - ch_observation of the decider and of one other seat, into a buffer full
 *   of garbage, equals the reference float for float;
 * - a buffer kept with its memo across the game and written for the decider
 *   (as vec.c does), and one written for every seat in turn (so its seat
 *   changes at each write), equal the reference after each write;
 * - a memo marked invalid over a buffer of garbage writes it whole.
 * The games must reach Coopmanscappen offers and Veilinge 3's look (the
 * offer and look columns), else the comparison would skip them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h" /* before cmocka.h, whose fail() is a macro */
#include "play.h"

#include <cmocka.h>

#define EV_SLOTS 12
#define MONEY 1000.0f
enum { B_PLOTS, B_COMPANIES, B_PLAYERS, B_CARDS, B_PILES, B_TURN, B_EVENT, B_COUNT };

static int has(const uint64_t set[2], int c)
{
    return (int)(set[c >> 6] >> (c & 63) & 1);
}

/* The writer of main 611f1e9 (src/core/obs.c), unchanged but for its checks. */
static int ref_observation(const ch_state *st, int p, float *buf)
{
    const int size = ch_observation_size(st);
    memset(buf, 0, (size_t)size * sizeof *buf);
    const int N = BRD(st)->nplots, C = st->ncompanies, K = st->ncards, P = st->nplayers;
    const int ga = st->edition == CH_ED_GOLDEN_AGE;
    int off[B_COUNT], rows, cols[B_COUNT];
    for (int b = 0; b < B_COUNT; b++)
        assert_non_null(ch_observation_block(st, b, &off[b], &rows, &cols[b]));
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

static long offers, looks, writes;

static void same(const ch_state *st, int p, const float *got, const float *want, int size, const char *what)
{
    for (int i = 0; i < size; i++)
        if (got[i] != want[i]) {
            const char *name = NULL;
            int o = 0, r = 0, c = 1;
            for (int k = 0; (name = ch_observation_block(st, k, &o, &r, &c)); k++)
                if (i < o + r * c)
                    break;
            fail_msg("%s: edition %d, %d players, phase %s, seat %d, decision %u: float %d (block %s, row "
                     "%d, column %d) is %g, the reference %g",
                     what, st->edition, st->nplayers, ch_phase_name(st->phase), p, (unsigned)st->ndecisions, i,
                     name ? name : "?", (i - o) / c, (i - o) % c, (double)got[i], (double)want[i]);
        }
    writes++;
}

static void garbage(float *buf, int size, uint64_t *rng)
{
    for (int i = 0; i < size; i++)
        buf[i] = (float)(t_rand(rng) % 7) - 3.0f;
}

static void play_game(ch_state *st, uint64_t seed)
{
    const int size = ch_observation_size(st);
    float *want = malloc((size_t)size * sizeof *want), *got = malloc((size_t)size * sizeof *got);
    float *row = malloc((size_t)size * sizeof *row), *turn = malloc((size_t)size * sizeof *turn);
    obs_memo *m_row = calloc(1, sizeof *m_row), *m_turn = calloc(1, sizeof *m_turn);
    assert_true(size > 0 && want && got && row && turn && m_row && m_turn);
    uint64_t rng = seed * 2654435761u + 11;
    garbage(row, size, &rng);
    garbage(turn, size, &rng);
    for (int k = 0; k < 20000; k++) {
        unsigned dmask;
        if (ch_decider(st, &dmask) == CH_DEC_TERMINAL)
            break;
        offers += st->phase == CH_PH_OFFER || st->phase == CH_PH_RESPOND;
        looks += st->phase == CH_PH_PICK && st->au_option == 3;
        const int p = __builtin_ctz(dmask), other = (int)(st->ndecisions % (unsigned)st->nplayers);
        for (int pass = 0; pass < 2; pass++) {
            const int q = pass ? other : p;
            assert_int_equal(ref_observation(st, q, want), CH_OK);
            garbage(got, size, &rng);
            assert_int_equal(ch_observation(st, q, got, (size_t)size), CH_OK);
            same(st, q, got, want, size, "ch_observation");
            if (pass == 0) {
                obs_write(st, q, row, m_row);
                same(st, q, row, want, size, "the decider's kept buffer");
            } else {
                obs_write(st, q, turn, m_turn);
                same(st, q, turn, want, size, "the kept buffer of each seat in turn");
            }
        }
        if (k % 97 == 0) { /* an invalid memo: the buffer is written whole */
            garbage(row, size, &rng);
            m_row->valid = 0;
        }
        assert_true(t_random_step(st, &rng));
    }
    free(want), free(got), free(row), free(turn), free(m_row), free(m_turn);
}

static void test_amsterdam(void **state)
{
    (void)state;
    for (int g = 0; g < 16; g++) {
        ch_state st;
        t_new(&st, 2 + g % 4, "standard", 7000 + (uint64_t)g);
        play_game(&st, (uint64_t)g);
    }
}

static void test_golden_age(void **state)
{
    (void)state;
    for (int g = 0; g < 16; g++) {
        ch_state st;
        t_new_ga(&st, 2 + g % 5, g % 2 ? CH_GA_FIRST : CH_GA_PRINTED, g / 2 % 2, 8000 + (uint64_t)g);
        play_game(&st, (uint64_t)g);
    }
}

static void test_reached(void **state)
{
    (void)state;
    printf("# %ld writes compared; %ld decisions in an offer, %ld in Veilinge 3's look\n", writes, offers,
           looks);
    assert_true(writes > 10000);
    assert_true(offers > 0);
    assert_true(looks > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_amsterdam),
        cmocka_unit_test(test_golden_age),
        cmocka_unit_test(test_reached),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
