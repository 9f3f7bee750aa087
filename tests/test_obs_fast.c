/* test_obs_fast.c: the observation writer against a plain one (src/core/obs.c;
 * issue 34: observations cheaper than the step).
 *
 * obs.c writes the tensor from bitsets and codes, and into a buffer it
 * wrote before (the vector of games, vec.c) only what changed since (an
 * obs_memo). Here ref_observation writes the plots and the cards as the
 * plain writer it replaced did (plot by plot, card by card), and the other
 * blocks by the full writer ch_observation (see there). Along random games
 * of both editions (Building Amsterdam with 2 to 5 players, The Golden Age
 * with 2 to 6, both presets, with and without event cards), at every
 * decision:
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

enum { B_PLOTS, B_COMPANIES, B_PLAYERS, B_CARDS, B_PILES, B_TURN, B_EVENT, B_COUNT };

static int has(const uint64_t set[2], int c)
{
    return (int)(set[c >> 6] >> (c & 63) & 1);
}

/* The reference. The plots and the cards, which obs.c now writes from
 * codes and bitsets, by the plain writer of main 611f1e9 (src/core/obs.c),
 * unchanged but for its checks: an independent writer of those blocks. The
 * other blocks (companies, players, piles, turn, event) as the library's
 * full writer ch_observation makes them: obs.c writes them as it did then,
 * and a copy of that code here would only compare it with itself; so the
 * kept buffers are compared with the full writer there. */
static int ref_observation(const ch_state *st, int p, float *buf)
{
    const int size = ch_observation_size(st);
    const int rc = ch_observation(st, p, buf, (size_t)size);
    if (rc != CH_OK)
        return rc;
    const int N = BRD(st)->nplots, C = st->ncompanies, K = st->ncards, P = st->nplayers;
    int off[B_COUNT], rows[B_COUNT], cols[B_COUNT];
    for (int b = 0; b < B_COUNT; b++)
        assert_non_null(ch_observation_block(st, b, &off[b], &rows[b], &cols[b]));
    for (int b = 0; b < B_COUNT; b++)
        if (b == B_PLOTS || b == B_CARDS)
            memset(buf + off[b], 0, (size_t)(rows[b] * cols[b]) * sizeof *buf);
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
