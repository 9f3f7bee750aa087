/* test_rules_diagonal.c: diagonal founding exactly as the rulebook says it, in
 * every arrangement of Building Amsterdam (The Golden Age has no diagonal
 * founding: its rulebooks found only orthogonally). Rulebook "A. Founding a
 * new company", special situations 1 and 2 ("a warehouse that is diagonally
 * adjacent from an existing warehouse"; Dutch: "diagonaal naast"); the
 * rulebook's own worked example, where B1 and D1 stand as two lone warehouses
 * until C1 connects them; RULINGS.md "Diagonal founding" and
 * "Two-card founding"; issue 15. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "play.h"

static const char *const ARRS[] = {"standard", "quick-battle", "crossroads", "outliers"};
#define NARR (int)(sizeof ARRS / sizeof ARRS[0])

/* An empty table on arrangement a, 2 players, P1 to move. */
static void table(ch_state *st, const char *a)
{
    t_new(st, 2, a, 1);
    t_clear(st);
    t_turn(st, 0);
}

static int count_type(const ch_state *st, int p, int type)
{
    static ch_move buf[4096];
    int n = ch_legal(st, p, buf, 4096), k = 0;
    for (int i = 0; i < n && i < 4096; i++)
        k += buf[i].type == type;
    return k;
}

/* The reproduction, in each arrangement and on each district: lone
 * B1, then D1 is built: one empty plot between them in a row is not a
 * diagonal, so no HQ placeholder is offered on C1; the turn goes straight to
 * trading and both stay lone. Then C1 founds with all three, as in the
 * rulebook's example (Bernadette founds Coal at f30). */
static void row_gap_is_not_diagonal(void **s)
{
    (void)s;
    static const char *const D[] = {"Harbour", "Jordaan", "Canal Ring", "Old Side"};
    for (int a = 0; a < NARR; a++)
        for (int d = 0; d < 4; d++) {
            char b1[32], c1[32], d1[32], sc[64];
            snprintf(b1, sizeof b1, "%s B1", D[d]);
            snprintf(c1, sizeof c1, "%s C1", D[d]);
            snprintf(d1, sizeof d1, "%s D1", D[d]);
            ch_state st;
            table(&st, ARRS[a]);
            t_put(&st, b1, 1);
            t_give(&st, 0, d1);
            t_give(&st, 1, c1);
            t_valid(&st);
            snprintf(sc, sizeof sc, "play %s", d1);
            t_play(&st, 0, sc);
            if (st.phase != CH_PH_TRADE)
                fail_msg("%s: %s after lone %s went to phase %s, not trading", ARRS[a], d1, b1,
                         ch_phase_name(st.phase));
            snprintf(sc, sizeof sc, "hq %s", c1);
            assert_false(t_legal(&st, 0, sc));
            assert_int_equal(st.owner[t_plot(&st, d1)], CH_NONE);
            assert_int_equal(st.owner[t_plot(&st, b1)], CH_NONE);
            t_play(&st, 0, "done");
            t_valid(&st);
            snprintf(sc, sizeof sc, "play %s", c1);
            t_play(&st, 1, sc);
            assert_int_equal(st.phase, CH_PH_FOUND);
            t_play(&st, 1, "found Coal");
            assert_int_equal(st.co[1].value, 30);
            assert_int_equal(st.co[1].hq, t_plot(&st, c1));
            t_valid(&st);
        }
}

/* The same in a column: lone C2, then C4 (C3 between them, across the
 * canal): not diagonal, no HQ placeholder. */
static void column_gap_is_not_diagonal(void **s)
{
    (void)s;
    for (int a = 0; a < NARR; a++) {
        ch_state st;
        table(&st, ARRS[a]);
        t_put(&st, "Jordaan C2", 1);
        t_give(&st, 0, "Jordaan C4");
        t_play(&st, 0, "play Jordaan C4");
        assert_int_equal(st.phase, CH_PH_TRADE);
        assert_int_equal(count_type(&st, 0, CH_M_HQ), 0);
    }
}

/* Positive control in each arrangement: B2 diagonal to lone A1 still founds
 * with the placeholder on A2 or B1 (two corners); D3 diagonal to lone E4 on
 * the far side of the canal row offers D4 and E3. */
static void true_diagonal_still_founds(void **s)
{
    (void)s;
    for (int a = 0; a < NARR; a++) {
        ch_state st;
        table(&st, ARRS[a]);
        t_put(&st, "Old Side A1", 1);
        t_give(&st, 0, "Old Side B2");
        t_play(&st, 0, "play Old Side B2");
        assert_int_equal(st.phase, CH_PH_HQ);
        assert_int_equal(count_type(&st, 0, CH_M_HQ), 2);
        assert_true(t_legal(&st, 0, "hq Old Side A2"));
        assert_true(t_legal(&st, 0, "hq Old Side B1"));
        t_play(&st, 0, "hq Old Side A2");
        t_play(&st, 0, "found Tea");
        assert_int_equal(st.co[7].value, 20);
        t_valid(&st);

        table(&st, ARRS[a]);
        t_put(&st, "Canal Ring E4", 1);
        t_give(&st, 0, "Canal Ring D3");
        t_play(&st, 0, "play Canal Ring D3");
        assert_int_equal(st.phase, CH_PH_HQ);
        assert_int_equal(count_type(&st, 0, CH_M_HQ), 2);
        assert_true(t_legal(&st, 0, "hq Canal Ring D4"));
        assert_true(t_legal(&st, 0, "hq Canal Ring E3"));
    }
}

/* Diagonal means on the same board (RULINGS.md "Diagonal founding"): in the
 * quick battle, where seams are open, Harbour F2 and Jordaan A1 touch
 * corners across the seam, and Harbour F1 touches both; still no diagonal
 * founding. */
static void across_a_seam_is_not_diagonal(void **s)
{
    (void)s;
    ch_state st;
    table(&st, "quick-battle");
    t_put(&st, "Jordaan A1", 1);
    t_give(&st, 0, "Harbour F2");
    t_play(&st, 0, "play Harbour F2");
    assert_int_equal(st.phase, CH_PH_TRADE);
}

/* Two-card founding: C1 + D2 share a corner and found with the
 * placeholder on C2 or D1; C1 + E1 (one plot between them in a row) and
 * C1 + C3 do not, in every arrangement. */
static void two_cards_must_share_a_corner(void **s)
{
    (void)s;
    for (int a = 0; a < NARR; a++) {
        ch_state st;
        table(&st, ARRS[a]);
        t_give(&st, 0, "Harbour C1");
        t_give(&st, 0, "Harbour D2");
        t_give(&st, 0, "Harbour E1");
        t_give(&st, 0, "Harbour C3");
        assert_true(t_legal(&st, 0, "play Harbour C1 + Harbour D2"));
        assert_false(t_legal(&st, 0, "play Harbour C1 + Harbour E1"));
        assert_false(t_legal(&st, 0, "play Harbour E1 + Harbour C1"));
        assert_false(t_legal(&st, 0, "play Harbour C1 + Harbour C3"));
        ch_move m;
        ch_msg why;
        assert_int_equal(ch_move_parse(&st, 0, "play Harbour C1 + Harbour E1", &m, &why), CH_OK);
        assert_int_equal(ch_check(&st, 0, m, &why), CH_EILLEGAL);
        t_play(&st, 0, "play Harbour C1 + Harbour D2");
        assert_int_equal(st.phase, CH_PH_HQ);
        assert_int_equal(count_type(&st, 0, CH_M_HQ), 2);
        assert_true(t_legal(&st, 0, "hq Harbour D1") && t_legal(&st, 0, "hq Harbour C2"));
        t_play(&st, 0, "hq Harbour D1");
        t_play(&st, 0, "found Sugar");
        assert_int_equal(st.co[5].value, 20);
        t_valid(&st);
    }
}

/* A two-card founding beside a lone warehouse two plots away in a row: lone
 * A1, cards C1 + D1. C1 alone does not found (A1 is not diagonal to it), so
 * the two cards may found together, orthogonally, HQ on C1; A1 stays
 * lone. Before the fix C1 alone counted as a diagonal founding through B1 and
 * the pair was refused. */
static void two_cards_beside_a_row_gap(void **s)
{
    (void)s;
    for (int a = 0; a < NARR; a++) {
        ch_state st;
        table(&st, ARRS[a]);
        t_put(&st, "Harbour A1", 1);
        t_give(&st, 0, "Harbour C1");
        t_give(&st, 0, "Harbour D1");
        t_play(&st, 0, "play Harbour C1 + Harbour D1");
        assert_int_equal(st.phase, CH_PH_FOUND);
        t_play(&st, 0, "found Silk");
        assert_int_equal(st.co[3].value, 20);
        assert_int_equal(st.co[3].hq, t_plot(&st, "Harbour C1"));
        assert_int_equal(st.owner[t_plot(&st, "Harbour A1")], CH_NONE);
        t_valid(&st);
    }
}

/* A two-card founding next to a true diagonal is refused, since one card
 * alone founds: lone A1, cards B2 + C2 (B2 alone founds diagonally). */
static void two_cards_refused_when_one_is_diagonal(void **s)
{
    (void)s;
    for (int a = 0; a < NARR; a++) {
        ch_state st;
        table(&st, ARRS[a]);
        t_put(&st, "Harbour A1", 1);
        t_give(&st, 0, "Harbour B2");
        t_give(&st, 0, "Harbour C2");
        assert_false(t_legal(&st, 0, "play Harbour B2 + Harbour C2"));
        assert_true(t_legal(&st, 0, "play Harbour B2"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(row_gap_is_not_diagonal),
        cmocka_unit_test(column_gap_is_not_diagonal),
        cmocka_unit_test(true_diagonal_still_founds),
        cmocka_unit_test(across_a_seam_is_not_diagonal),
        cmocka_unit_test(two_cards_must_share_a_corner),
        cmocka_unit_test(two_cards_beside_a_row_gap),
        cmocka_unit_test(two_cards_refused_when_one_is_diagonal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
