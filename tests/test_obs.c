/* test_obs.c: the observation tensor (src/core/obs.c; issue 34, "What to
 * build" 2; docs/rules.md "Open and hidden information", Rulings,
 * G-07).
 *
 * Along random games of both editions (Building Amsterdam with 2 to 5
 * players, The Golden Age with 2 to 6 under both presets, with and without
 * event cards), at every decision, for each deciding seat and one other seat
 * in turn: everything the seat cannot see is re-dealt (ch_determinize, two
 * seeds) and the seat's tensor must come out the same float for float. The
 * re-deals must change the state at most decisions (else the property would
 * hold vacuously). The tensor's values are finite and in [0, 16] (florins by
 * f1,000: a rich Golden Age player passes 1), the seat's own hand is marked
 * card for card, the blocks tile the tensor, and bad arguments get
 * CH_EINVAL and leave the buffer as it was. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "play.h"

static long compared, changed;

static void check_seat(const ch_state *st, int p, float *a, float *b, int size)
{
    assert_int_equal(ch_observation(st, p, a, (size_t)size), CH_OK);
    int hand = 0, off = -1, cols = 0;
    for (int i = 0; i < size; i++)
        if (!isfinite(a[i]) || a[i] < 0 || a[i] > 16)
            fail_msg("value %g at %d out of range", (double)a[i], i);
    for (int k = 0; ch_observation_block(st, k, NULL, NULL, NULL); k++)
        if (!strcmp(ch_observation_block(st, k, &off, NULL, &cols), "cards"))
            break;
    for (int c = 0; c < st->ncards; c++)
        hand += a[off + c * cols] == 1.0f;
    assert_int_equal(hand, ch_hand_count(st, p));
    for (uint64_t seed = 1; seed <= 2; seed++) {
        ch_state re = *st;
        ch_determinize(&re, p, seed * 7919 + st->ndecisions);
        changed += memcmp(&re, st, sizeof re) != 0;
        compared++;
        assert_int_equal(ch_observation(&re, p, b, (size_t)size), CH_OK);
        for (int i = 0; i < size; i++)
            if (a[i] != b[i]) {
                const char *name = NULL;
                int o = 0, r = 0, c = 1;
                for (int k = 0; (name = ch_observation_block(st, k, &o, &r, &c)); k++)
                    if (i < o + r * c)
                        break;
                fail_msg("edition %d, phase %s, seat %d: float %d (block %s, row %d, column %d) is "
                         "%g, %g after a re-deal", st->edition, ch_phase_name(st->phase), p, i,
                         name ? name : "?", (i - o) / c, (i - o) % c, (double)a[i], (double)b[i]);
            }
    }
}

static void play_game(ch_state *st, uint64_t seed)
{
    const int size = ch_observation_size(st);
    assert_true(size > 0);
    float *a = malloc((size_t)size * sizeof *a), *b = malloc((size_t)size * sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    uint64_t rng = seed * 2654435761u + 3;
    for (int k = 0; k < 20000; k++) {
        unsigned dmask;
        if (ch_decider(st, &dmask) == CH_DEC_TERMINAL)
            break;
        for (int p = 0; p < st->nplayers; p++)
            if (dmask >> p & 1)
                check_seat(st, p, a, b, size);
        int other = (int)(st->ndecisions % (unsigned)st->nplayers);
        if (!(dmask >> other & 1))
            check_seat(st, other, a, b, size);
        assert_true(t_random_step(st, &rng));
    }
    check_seat(st, 0, a, b, size);
    free(a);
    free(b);
}

static void test_amsterdam(void **state)
{
    (void)state;
    for (int g = 0; g < 12; g++) {
        ch_state st;
        t_new(&st, 2 + g % 4, "standard", 3000 + (uint64_t)g);
        play_game(&st, (uint64_t)g);
    }
}

static void test_golden_age(void **state)
{
    (void)state;
    for (int g = 0; g < 12; g++) {
        ch_state st;
        t_new_ga(&st, 2 + g % 5, g % 2 ? CH_GA_FIRST : CH_GA_PRINTED, g / 2 % 2, 4000 + (uint64_t)g);
        play_game(&st, (uint64_t)g);
    }
}

static void test_redeals_change_things(void **state)
{
    (void)state;
    printf("# %ld re-deals compared, %ld changed the state\n", compared, changed);
    assert_true(compared > 1000);
    assert_true(changed * 10 > compared * 9);
}

static void test_layout_and_errors(void **state)
{
    (void)state;
    ch_state st;
    t_new(&st, 4, "standard", 5);
    int size = ch_observation_size(&st), o, r, c, next = 0, k;
    for (k = 0; ch_observation_block(&st, k, &o, &r, &c); k++) {
        assert_int_equal(o, next);
        assert_true(r > 0 && c > 0);
        next = o + r * c;
    }
    assert_int_equal(k, 7);
    assert_int_equal(next, size);
    assert_null(ch_observation_block(&st, -1, &o, &r, &c));
    float *buf = malloc((size_t)size * sizeof *buf);
    assert_non_null(buf);
    for (int i = 0; i < size; i++)
        buf[i] = -5;
    assert_int_equal(ch_observation(&st, 4, buf, (size_t)size), CH_EINVAL);
    assert_int_equal(ch_observation(&st, -1, buf, (size_t)size), CH_EINVAL);
    assert_int_equal(ch_observation(&st, 0, buf, (size_t)size - 1), CH_EINVAL);
    assert_int_equal(ch_observation(NULL, 0, buf, (size_t)size), CH_EINVAL);
    ch_state bad = st;
    bad.magic = 0;
    assert_int_equal(ch_observation(&bad, 0, buf, (size_t)size), CH_EINVAL);
    assert_int_equal(ch_observation_size(&bad), -1);
    for (int i = 0; i < size; i++)
        assert_true(buf[i] == -5);
    /* seats are relative: two seats see one state differently */
    float *other = malloc((size_t)size * sizeof *other);
    assert_non_null(other);
    assert_int_equal(ch_observation(&st, 0, buf, (size_t)size), CH_OK);
    assert_int_equal(ch_observation(&st, 1, other, (size_t)size), CH_OK);
    assert_memory_not_equal(buf, other, (size_t)size * sizeof *buf);
    free(other);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_and_errors),
        cmocka_unit_test(test_amsterdam),
        cmocka_unit_test(test_golden_age),
        cmocka_unit_test(test_redeals_change_things),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
