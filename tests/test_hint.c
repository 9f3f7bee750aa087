/* test_hint.c: the server's hints (srv_hint_compute, src/server/game/analysis.c;
 * issue 33 item 4) see only what the seat asking could see:
 *   - along greedy games of both editions (sealed bids among the decisions),
 *     the hint of a decision from every re-deal of what the seat cannot see
 *     (ch_determinize for that seat, as in test_hidden_property.c and
 *     test_review.c) is identical to the one from the true state, with the
 *     fixed seed and playout budget the server uses;
 *   - the hint is a legal move of the seat, its chance is a probability, and
 *     a seat that does not decide gets no hint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "game/game.h"
#include "play.h"

static int is_legal(const ch_state *st, int p, ch_move m)
{
    ch_move all[512];
    int n = ch_legal(st, p, all, 512);
    for (int i = 0; i < n; i++)
        if (all[i].type == m.type && all[i].a == m.a && all[i].b == m.b && all[i].c == m.c &&
            all[i].n == m.n)
            return 1;
    return 0;
}

static void same_under_redeal(void **state)
{
    (void)state;
    ch_bot *b = NULL;
    ch_msg err;
    assert_int_equal(ch_bot_new(&b, "greedy", NULL, 4, &err), CH_OK);
    int checked = 0;
    unsigned seen = 0;
    for (int g = 0; g < 2; g++) {
        ch_state st;
        if (g == 1)
            t_new_ga(&st, 3, CH_GA_PRINTED, 1, 21);
        else
            t_new(&st, 4, "standard", 20);
        for (int step = 0; step < 2000 && !st.over; step++) {
            int p = t_decider(&st);
            if (step % 11 == 5 || !(seen >> st.phase & 1)) {
                seen |= 1u << st.phase;
                uint64_t seed = 7919u * (uint64_t)step + 3;
                srv_hint want, got;
                assert_int_equal(srv_hint_compute(&st, p, seed, 60, &want, &err), CH_OK);
                assert_true(is_legal(&st, p, want.best));
                assert_true(want.best_win >= 0 && want.best_win <= 1);
                assert_true(want.narms >= 1);
                for (int k = 0; k < 3; k++) {
                    ch_state d = st;
                    ch_determinize(&d, p, 131u * (uint64_t)step + (uint64_t)k + 1);
                    assert_int_equal(srv_hint_compute(&d, p, seed, 60, &got, &err), CH_OK);
                    if (memcmp(&want, &got, sizeof want) != 0)
                        fail_msg("game %d, decision %d (%s), seat %d, re-deal %d: the hint "
                                 "differs (%.4f vs %.4f)", g, step, ch_phase_name(st.phase), p + 1,
                                 k, want.best_win, got.best_win);
                }
                checked++;
            }
            ch_move m;
            assert_int_equal(ch_bot_choose(b, &st, p, &m, &err), CH_OK);
            assert_int_equal(ch_apply(&st, p, m, &err), CH_OK);
        }
    }
    assert_true(checked > 20);
    assert_true(seen >> CH_PH_BID & 1); /* sealed bids: the others' bids are hidden */
    ch_bot_free(b);
}

static void not_deciding(void **state)
{
    (void)state;
    ch_state st;
    t_new(&st, 3, "standard", 5);
    int p = t_decider(&st);
    srv_hint h;
    ch_msg err = {{0}};
    memset(&h, 0x5a, sizeof h);
    srv_hint before = h;
    assert_int_not_equal(srv_hint_compute(&st, (p + 1) % 3, 1, 60, &h, &err), CH_OK);
    assert_true(err.text[0] != 0);
    assert_memory_equal(&h, &before, sizeof h); /* nothing changed */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_under_redeal),
        cmocka_unit_test(not_deciding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
