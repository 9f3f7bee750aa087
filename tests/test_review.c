/* test_review.c: the analysis of a decision (ch_review_decision,
 * src/ai/review.c; docs/bots.md "Review"), with small budgets:
 *   - an obviously losing move, keeping every absorbed stock in a merger
 *     (they are then "worth nothing", docs/rules.md Ruling R-24) instead of
 *     selling them to the bank at value, is found: the bot's better move is
 *     another, and the mover's chance with it is clearly higher;
 *   - the analysis reads only what the deciding player could see: with a
 *     fixed seed and an iteration budget, the analysis of a decision from
 *     every re-deal of what that player cannot see (ch_determinize, as in
 *     test_hidden_property.c) is identical to the one from the true state,
 *     along greedy games of both editions;
 *   - the same seed gives the same result; the chances of a decision sum to 1;
 *   - bad calls are refused with a reason and leave the result alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "play.h"

static ch_bot *greedy(uint64_t seed)
{
    ch_bot *b = NULL;
    ch_msg err;
    assert_int_equal(ch_bot_new(&b, "greedy", NULL, seed, &err), CH_OK);
    return b;
}

/* p's greedy move at st. */
static ch_move greedy_move(ch_bot *b, const ch_state *st, int p)
{
    ch_move m;
    ch_msg err;
    assert_int_equal(ch_bot_choose(b, st, p, &m, &err), CH_OK);
    return m;
}

static void opts(ch_review_opts *o, long iterations, uint64_t seed)
{
    ch_review_opts_default(o);
    o->iterations = iterations;
    o->width = 4;
    o->seed = seed;
}

/* A merger sale of a greedy game where the seller holds several stocks of a
 * valuable absorbed company: keeping them all (sell 0) throws that money
 * away. The review must prefer another move by a clear margin. */
static void losing_move_found(void **state)
{
    (void)state;
    ch_bot *b = greedy(5);
    int found = 0;
    for (uint64_t seed = 1; seed < 40 && !found; seed++) {
        ch_state st;
        t_new(&st, 4, "standard", seed);
        for (int step = 0; step < 2000 && !st.over; step++) {
            int p = t_decider(&st);
            if (st.phase == CH_PH_MERGE_SELL) {
                ch_move mv[64];
                int n = ch_legal(&st, p, mv, 64);
                for (int i = 0; i < n && i < 64; i++) {
                    const int c = mv[i].a;
                    if (mv[i].type != CH_M_SELL || mv[i].n != 0 || st.pl[p].stock[c] < 3 ||
                        st.co[c].value < 80)
                        continue;
                    ch_review_opts o;
                    ch_review rv;
                    ch_msg err;
                    opts(&o, 1200, 7);
                    assert_int_equal(ch_review_decision(&st, p, mv[i], &o, &rv, &err), CH_OK);
                    double gain = rv.best_win[p] - rv.played_win[p];
                    /* a chance that was already nil cannot fall: look for a
                     * seller who still had one */
                    if (rv.best_win[p] < 0.15)
                        continue;
                    assert_false(rv.best.type == CH_M_SELL && rv.best.n == 0);
                    if (gain < 0.08)
                        fail_msg("keeping %d stocks of a f%d company: gain of the bot's move only %.3f "
                                 "(chance %.3f -> %.3f), game seed %llu",
                                 st.pl[p].stock[c], st.co[c].value, gain, rv.played_win[p],
                                 rv.best_win[p], (unsigned long long)seed);
                    found = 1;
                    break;
                }
                if (found)
                    break;
            }
            ch_msg why;
            assert_int_equal(ch_apply(&st, p, greedy_move(b, &st, p), &why), CH_OK);
        }
    }
    assert_true(found);
    ch_bot_free(b);
}

/* The analysis from the true state equals the one from every re-deal of what
 * the decider cannot see (fixed seed, iteration budget). */
static void view_only(void **state)
{
    (void)state;
    ch_bot *b = greedy(3);
    int checked = 0, phases = 0;
    unsigned seen = 0;
    for (int g = 0; g < 3; g++) {
        ch_state st;
        if (g == 1)
            t_new_ga(&st, 4, CH_GA_PRINTED, 1, 11);
        else if (g == 2)
            t_new_ga(&st, 3, CH_GA_FIRST, 0, 12);
        else
            t_new(&st, 4, "standard", 10);
        for (int step = 0; step < 2000 && !st.over; step++) {
            int p = t_decider(&st);
            ch_move m = greedy_move(b, &st, p);
            /* every 7th decision, and every decision of a phase not yet
             * checked (sealed bids above all: others' bids are hidden) */
            if (step % 7 == 3 || !(seen >> st.phase & 1)) {
                if (!(seen >> st.phase & 1))
                    phases++;
                seen |= 1u << st.phase;
                ch_review_opts o;
                ch_review want, got;
                ch_msg err;
                opts(&o, 40, 100 + (uint64_t)step);
                assert_int_equal(ch_review_decision(&st, p, m, &o, &want, &err), CH_OK);
                want.cpu = 0;
                double sum = 0;
                for (int q = 0; q < st.nplayers; q++)
                    sum += want.played_win[q];
                assert_true(sum > 0.999 && sum < 1.001);
                for (int k = 0; k < 3; k++) {
                    ch_state d = st;
                    ch_determinize(&d, p, 977u * (uint64_t)step + (uint64_t)k + 1);
                    assert_int_equal(ch_review_decision(&d, p, m, &o, &got, &err), CH_OK);
                    got.cpu = 0;
                    if (memcmp(&want, &got, sizeof want) != 0)
                        fail_msg("game %d, decision %d (%s), player %d, re-deal %d: the review "
                                 "differs (%.4f vs %.4f)", g, step, ch_phase_name(st.phase), p + 1, k,
                                 want.played_win[p], got.played_win[p]);
                }
                checked++;
            }
            ch_msg why;
            assert_int_equal(ch_apply(&st, p, m, &why), CH_OK);
        }
    }
    assert_true(checked > 60);
    assert_true(seen >> CH_PH_BID & 1);
    (void)phases;
    ch_bot_free(b);
}

static void reproducible(void **state)
{
    (void)state;
    ch_state st;
    t_new(&st, 3, "standard", 4);
    ch_review_opts o;
    ch_review a, b;
    ch_msg err;
    ch_move m;
    int p = t_decider(&st);
    ch_move buf[4096];
    assert_true(ch_legal(&st, p, buf, 4096) > 1);
    m = buf[0];
    opts(&o, 200, 9);
    assert_int_equal(ch_review_decision(&st, p, m, &o, &a, &err), CH_OK);
    assert_int_equal(ch_review_decision(&st, p, m, &o, &b, &err), CH_OK);
    a.cpu = b.cpu = 0;
    assert_memory_equal(&a, &b, sizeof a);
    assert_true(a.playouts >= 150 && a.playouts <= 260);
    o.seed = 10;
    assert_int_equal(ch_review_decision(&st, p, m, &o, &b, &err), CH_OK);
    b.cpu = 0;
    assert_memory_not_equal(&a, &b, sizeof a);
}

static void refused(void **state)
{
    (void)state;
    ch_state st;
    t_new(&st, 3, "standard", 4);
    int p = t_decider(&st);
    ch_move buf[4096];
    assert_true(ch_legal(&st, p, buf, 4096) > 0);
    ch_review_opts o;
    ch_review rv, before;
    ch_msg err;
    opts(&o, 50, 1);
    memset(&rv, 0x5A, sizeof rv);
    before = rv;
    /* not that player's decision */
    assert_int_equal(ch_review_decision(&st, (p + 1) % 3, buf[0], &o, &rv, &err), CH_ETURN);
    assert_non_null(strstr(err.text, "no decision"));
    /* an illegal move */
    ch_move bad = {CH_M_BUY, 0, 0, 0, 0};
    assert_int_not_equal(ch_review_decision(&st, p, bad, &o, &rv, &err), CH_OK);
    assert_true(err.text[0] != 0);
    /* bad options */
    o.width = 0;
    assert_int_equal(ch_review_decision(&st, p, buf[0], &o, &rv, &err), CH_EINVAL);
    o.width = 4;
    o.iterations = 0;
    o.cpu = 0;
    assert_int_equal(ch_review_decision(&st, p, buf[0], &o, &rv, &err), CH_EINVAL);
    assert_memory_equal(&rv, &before, sizeof rv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refused),
        cmocka_unit_test(reproducible),
        cmocka_unit_test(view_only),
        cmocka_unit_test(losing_move_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
