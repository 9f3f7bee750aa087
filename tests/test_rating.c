/* test_rating.c: tests of the Glicko-2 module (src/server/people/rating.c) against
 * hand-computed updates: Glickman's worked example from "Example of the
 * Glicko-2 system" (2013), a game of four players with a shared place worked
 * step by step below, the period without games, the bounds on the deviation
 * and the volatility, lichess's settings, and refused inputs. The method is
 * described in docs/ratings.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rating.h"

static void assert_near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.6f, want %.6f (within %g)", what, got, want, tol);
}

/* Glickman's example (section "Example calculation"): a player rated 1500,
 * RD 200, sigma 0.06, tau 0.5, plays three games in one period: beats 1400
 * (RD 30), loses to 1550 (RD 100), loses to 1700 (RD 300). The paper gets
 * r' = 1464.06, RD' = 151.52, sigma' = 0.05999. (Its intermediate values are
 * rounded: v = 1.7785, delta = -0.4834, sigma' = 0.05999, phi' = 0.8722,
 * mu' = -0.2069; with no rounding r' is 1464.0507, which is within 0.01 of
 * the paper's figure.) The opponents' RD of 30 lies under the lower bound of
 * 45: opponents are used as given; only the updated player is bounded. */
static void test_glickman_example(void **state)
{
    (void)state;
    rating_settings s;
    rating_settings_default(&s);
    s.tau = 0.5;
    rating_glicko me = {1500, 200, 0.06}, out;
    rating_glicko opp[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
    double score[3] = {1, 0, 0};
    assert_int_equal(rating_update(&s, &me, opp, score, 3, &out), 0);
    assert_near(out.rating, 1464.06, 0.01, "r'");
    assert_near(out.deviation, 151.52, 0.01, "RD'");
    assert_near(out.volatility, 0.05999, 0.00001, "sigma'");
}

/* A game of four with lichess's settings (tau 0.75). Ratings before:
 *   A 1500/500/0.09 (a new player), B 1620/130/0.06, C 1440/90/0.06,
 *   D 1710/240/0.08.
 * Final places: A first; B and C share second; D fourth (place 3). So A
 * beats B, C, D; B and C draw, both beat D; D loses to all.
 * On the Glicko-2 scale (mu = (r-1500)/173.7178, phi = RD/173.7178):
 *   mu:  A 0, B 0.69078, C -0.34539, D 1.20886
 *   phi: A 2.87823, B 0.74834, C 0.51808, D 1.38155
 *   g(phi) = 1/sqrt(1 + 3 phi^2/pi^2): A 0.53315, B 0.92441, C 0.96154, D 0.79551
 * Each player, E = 1/(1+exp(-g_j (mu - mu_j))), v = 1/sum g_j^2 E (1-E),
 * delta = v sum g_j (s - E), sigma' by the Illinois iteration (step 5),
 * phi* = sqrt(phi^2 + sigma'^2), phi' = 1/sqrt(1/phi*^2 + 1/v),
 * mu' = mu + phi'^2 sum g_j (s - E):
 *   A: E vs B,C,D = 0.34557 0.58227 0.27655, scores 1 1 1;
 *      v 1.83570, delta 2.90434, sigma' 0.089998, phi* 2.87964, phi' 1.22596,
 *      mu' 2.37793 -> 1913.09 / 212.97 / 0.089998
 *   B: E vs A,C,D = 0.59104 0.73033 0.39840, scores 0 0.5 1;
 *      v 2.48464, delta -0.14413, sigma' 0.059990, phi* 0.75074, phi' 0.67779,
 *      mu' 0.66413 -> 1615.37 / 117.74 / 0.059990
 *   C: E vs A,B,D = 0.45409 0.27731 0.22506, scores 0 0.5 1;
 *      v 2.84017, delta 1.64796, sigma' 0.059999, phi* 0.52154, phi' 0.49823,
 *      mu' -0.20135 -> 1465.02 / 86.55 / 0.059999
 *   D: E vs A,B,C = 0.65577 0.61749 0.81675, scores 0 0 0;
 *      v 2.47291, delta -4.21824, sigma' 0.080050, phi* 1.38387, phi' 1.03888,
 *      mu' -0.63214 -> 1390.19 / 180.47 / 0.080050
 * Every deviation is within 45..500 and every volatility under 0.1, so no
 * bound applies. The players are given in the order C, A, D, B to show that
 * the order does not matter. */
static void test_four_players_shared_place(void **state)
{
    (void)state;
    rating_settings s;
    rating_settings_default(&s);
    rating_glicko before[4] = {{1440, 90, 0.06}, {1500, 500, 0.09},
                               {1710, 240, 0.08}, {1620, 130, 0.06}};
    int place[4] = {1, 0, 3, 1};
    rating_glicko after[4];
    assert_int_equal(rating_game(&s, 4, before, place, after), 0);
    const double want[4][3] = {{1465.02, 86.55, 0.059999}, {1913.09, 212.97, 0.089998},
                               {1390.19, 180.47, 0.080050}, {1615.37, 117.74, 0.059990}};
    const char *names = "CADB";
    for (int i = 0; i < 4; i++) {
        char what[32];
        snprintf(what, sizeof what, "%c rating", names[i]);
        assert_near(after[i].rating, want[i][0], 0.01, what);
        snprintf(what, sizeof what, "%c deviation", names[i]);
        assert_near(after[i].deviation, want[i][1], 0.01, what);
        snprintf(what, sizeof what, "%c volatility", names[i]);
        assert_near(after[i].volatility, want[i][2], 0.000002, what);
    }
    /* after may be the same array as before: the same result. */
    rating_glicko inplace[4];
    memcpy(inplace, before, sizeof inplace);
    assert_int_equal(rating_game(&s, 4, inplace, place, inplace), 0);
    assert_memory_equal(inplace, after, sizeof inplace);
}

/* Two equal players who share the only place: a draw between equals moves
 * no rating, and both deviations shrink the same way. */
static void test_shared_place_between_equals(void **state)
{
    (void)state;
    rating_settings s;
    rating_settings_default(&s);
    rating_glicko before[3] = {rating_initial(&s), rating_initial(&s), rating_initial(&s)};
    int place[3] = {0, 0, 0};
    rating_glicko after[3];
    assert_int_equal(rating_game(&s, 3, before, place, after), 0);
    for (int i = 0; i < 3; i++) {
        assert_near(after[i].rating, 1500, 1e-9, "rating of a draw between equals");
        assert_true(after[i].deviation < 500);
        assert_near(after[i].deviation, after[0].deviation, 1e-9, "same deviation");
    }
}

/* A two-player game: the winner gains exactly what the same update against
 * one opponent with score 1 gives (rating_game is rating_update per player). */
static void test_two_players_is_one_pairing(void **state)
{
    (void)state;
    rating_settings s;
    rating_settings_default(&s);
    rating_glicko before[2] = {{1550, 150, 0.06}, {1480, 300, 0.07}};
    int place[2] = {1, 0};
    rating_glicko after[2], w, l;
    double one = 1, zero = 0;
    assert_int_equal(rating_game(&s, 2, before, place, after), 0);
    assert_int_equal(rating_update(&s, &before[1], &before[0], &one, 1, &w), 0);
    assert_int_equal(rating_update(&s, &before[0], &before[1], &zero, 1, &l), 0);
    assert_memory_equal(&after[1], &w, sizeof w);
    assert_memory_equal(&after[0], &l, sizeof l);
    assert_true(after[1].rating > 1480);
    assert_true(after[0].rating < 1550);
}

/* lichess's settings, the new player's rating and the provisional mark. */
static void test_settings(void **state)
{
    (void)state;
    rating_settings s;
    rating_settings_default(&s);
    rating_glicko g = rating_initial(&s);
    assert_near(g.rating, 1500, 0, "initial rating");
    assert_near(g.deviation, 500, 0, "initial deviation");
    assert_near(g.volatility, 0.09, 0, "initial volatility");
    assert_near(s.tau, 0.75, 0, "tau");
    assert_true(rating_provisional(&s, &g));
    g.deviation = 110;
    assert_true(rating_provisional(&s, &g));
    g.deviation = 109.99;
    assert_false(rating_provisional(&s, &g));
}

/* A period without games (step 6 only): phi' = sqrt(phi^2 + sigma^2).
 * 1500/200/0.06: phi = 1.151293, sqrt(1.151293^2 + 0.06^2) = 1.152855,
 * RD' = 200.2714. */
static void test_no_games(void **state)
{
    (void)state;
    rating_settings s;
    rating_settings_default(&s);
    rating_glicko me = {1500, 200, 0.06}, out;
    assert_int_equal(rating_update(&s, &me, NULL, NULL, 0, &out), 0);
    assert_near(out.rating, 1500, 0, "rating unchanged");
    assert_near(out.deviation, 200.2714, 0.0001, "RD grows");
    assert_near(out.volatility, 0.06, 0, "sigma unchanged");
    /* At the upper bound the deviation stays at 500. */
    me.deviation = 500;
    assert_int_equal(rating_update(&s, &me, NULL, NULL, 0, &out), 0);
    assert_near(out.deviation, 500, 0, "RD at most 500");
}

/* The deviation never falls under 45: a settled player (RD 45) who plays a
 * six-player game against settled players would get less without the bound. */
static void test_deviation_floor(void **state)
{
    (void)state;
    rating_settings s;
    rating_settings_default(&s);
    rating_glicko before[6];
    int place[6];
    for (int i = 0; i < 6; i++) {
        before[i] = (rating_glicko){1500 + 10 * i, 45, 0.03};
        place[i] = i;
    }
    rating_glicko after[6];
    rating_settings loose = s;
    loose.min_deviation = 1;
    assert_int_equal(rating_game(&loose, 6, before, place, after), 0);
    assert_true(after[0].deviation < 45); /* the bound matters here */
    assert_int_equal(rating_game(&s, 6, before, place, after), 0);
    for (int i = 0; i < 6; i++)
        assert_near(after[i].deviation, 45, 0, "RD at least 45");
}

/* The volatility is kept at most 0.1: a surprising result for a player whose
 * volatility is already at the cap would raise it without the bound. */
static void test_volatility_cap(void **state)
{
    (void)state;
    rating_settings s;
    rating_settings_default(&s);
    rating_glicko me = {1000, 60, 0.1}, opp = {2500, 60, 0.06}, out;
    double one = 1;
    rating_settings loose = s;
    loose.max_volatility = 1;
    assert_int_equal(rating_update(&loose, &me, &opp, &one, 1, &out), 0);
    assert_true(out.volatility > 0.1);
    assert_int_equal(rating_update(&s, &me, &opp, &one, 1, &out), 0);
    assert_near(out.volatility, 0.1, 0, "sigma at most 0.1");
}

/* Bad inputs are refused and leave the output as it was. */
static void test_bad_input(void **state)
{
    (void)state;
    rating_settings s;
    rating_settings_default(&s);
    rating_glicko me = {1500, 200, 0.06}, opp = {1500, 200, 0.06};
    rating_glicko out = {1, 2, 3};
    double bad_score = 1.5, ok_score = 1;
    assert_int_equal(rating_update(&s, &me, &opp, &bad_score, 1, &out), -1);
    assert_int_equal(rating_update(&s, &me, &opp, &ok_score, -1, &out), -1);
    rating_glicko zero_rd = {1500, 0, 0.06};
    assert_int_equal(rating_update(&s, &zero_rd, &opp, &ok_score, 1, &out), -1);
    assert_int_equal(rating_update(&s, &me, &zero_rd, &ok_score, 1, &out), -1);
    rating_glicko nan_r = {NAN, 200, 0.06};
    assert_int_equal(rating_update(&s, &nan_r, &opp, &ok_score, 1, &out), -1);
    assert_near(out.rating, 1, 0, "out unchanged");

    rating_glicko before[7], after[7];
    int place[7] = {0, 1, 2, 3, 4, 5, 6};
    for (int i = 0; i < 7; i++)
        before[i] = after[i] = rating_initial(&s);
    assert_int_equal(rating_game(&s, 1, before, place, after), -1);
    assert_int_equal(rating_game(&s, 7, before, place, after), -1);
    int bad_place[3] = {0, 3, 1};
    assert_int_equal(rating_game(&s, 3, before, bad_place, after), -1);
    int neg_place[2] = {0, -1};
    assert_int_equal(rating_game(&s, 2, before, neg_place, after), -1);
    before[1].volatility = -1;
    int ok_place[2] = {0, 1};
    assert_int_equal(rating_game(&s, 2, before, ok_place, after), -1);
    assert_near(after[0].rating, 1500, 0, "after unchanged");
    assert_near(after[0].deviation, 500, 0, "after unchanged");
}

/* Final places from scores, winners and who left. */
static void test_places(void **state)
{
    (void)state;
    int place[6];
    /* plain: by score */
    int32_t s1[4] = {2100, 2500, 1800, 2300};
    rating_places(4, s1, 1u << 1, 0, place);
    int want1[4] = {2, 0, 3, 1};
    assert_memory_equal(place, want1, sizeof want1);
    /* equal scores, both winners: shared first; the next is third */
    int32_t s2[4] = {3000, 3000, 1000, 2000};
    rating_places(4, s2, 3u, 0, place);
    int want2[4] = {0, 0, 3, 2};
    assert_memory_equal(place, want2, sizeof want2);
    /* equal scores, the rules' tie-break named one winner: ahead */
    rating_places(4, s2, 1u << 1, 0, place);
    int want3[4] = {1, 0, 3, 2};
    assert_memory_equal(place, want3, sizeof want3);
    /* equal scores, neither a winner: shared */
    int32_t s4[3] = {500, 900, 500};
    rating_places(3, s4, 1u << 1, 0, place);
    int want4[3] = {1, 0, 1};
    assert_memory_equal(place, want4, sizeof want4);
    /* who left ranks last whatever the score; two who left share last */
    int32_t s5[5] = {4000, 1000, 2000, 3500, 100};
    rating_places(5, s5, 1u << 0, (1u << 0) | (1u << 3), place);
    int want5[5] = {3, 1, 0, 3, 2};
    assert_memory_equal(place, want5, sizeof want5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glickman_example),
        cmocka_unit_test(test_four_players_shared_place),
        cmocka_unit_test(test_shared_place_between_equals),
        cmocka_unit_test(test_two_players_is_one_pairing),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_no_games),
        cmocka_unit_test(test_deviation_floor),
        cmocka_unit_test(test_volatility_cap),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_places),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
