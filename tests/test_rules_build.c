/* test_rules_build.c: turn option 2, playing building cards: founding
 * (orthogonal, diagonal, two cards, spacing), expanding, lone warehouses,
 * level cards, broken roofs, payouts, the f300 cap and the f20 floor
 * (docs/rules.md "Turn option 2", "Payouts, the f300 cap and the f20 floor";
 * Rulebook "Turn option 2: Play a building card"; Rulings,
 * Positions are built by hand on the standard arrangement, where
 * on Harbour rows 2 and 3 meet only at the bridges B and E. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "play.h"

enum { GUNPOWDER, COAL, PORCELAIN, SILK, SPICES, SUGAR, HERRING, TEA, TOBACCO };

static int P(const ch_state *st, const char *name) { return t_plot(st, name); }

/* An empty table, 3 players, P1 to move. */
static void table(ch_state *st)
{
    t_new(st, 3, "standard", 77);
    t_clear(st);
    t_turn(st, 0);
}

/* ---- A. founding ---------------------------------------------------------------- */

/* Rulebook "A. Founding a new company"; "Payout"; R-16: a warehouse next to a
 * lone warehouse founds a company of the builder's choice (any of the nine),
 * its HQ on the new warehouse, worth f20, and the founder is paid f20. */
static void found_two_warehouses_f20(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour A1", 1);
    t_give(&st, 0, "Harbour B1");
    t_valid(&st);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour B1");
    assert_int_equal(st.phase, CH_PH_FOUND);
    assert_int_equal(t_count_type(&st, 0, CH_M_FOUND), 9);
    t_play(&st, 0, "found Gunpowder");
    assert_int_equal(st.co[GUNPOWDER].on_chart, 1);
    assert_int_equal(st.co[GUNPOWDER].value, 20);
    assert_int_equal(st.co[GUNPOWDER].hq, P(&st, "Harbour B1"));
    assert_true(st.pflags[P(&st, "Harbour B1")] & CH_PF_HQ);
    assert_int_equal(st.owner[P(&st, "Harbour A1")], GUNPOWDER);
    assert_int_equal(st.owner[P(&st, "Harbour B1")], GUNPOWDER);
    assert_int_equal(st.pl[0].cash, cash + 20);
    assert_int_equal(st.supply, 60);
    assert_int_equal(st.discard[st.ndiscard - 1], t_card(&st, "Harbour B1"));
    assert_int_equal(st.phase, CH_PH_TRADE);
}

/* Rulebook "A. Founding": a warehouse joining several lone warehouses founds
 * with all of them; R-16: levels count f20/f30/f40 on top of the warehouse
 * (B1 with a second level f30, D1 with a third level f60, C1 f10: f100). */
static void found_value_counts_levels_R16(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour B1", 2);
    t_put(&st, "Harbour D1", 3);
    t_give(&st, 0, "Harbour C1");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "found Silk");
    assert_int_equal(st.co[SILK].value, 100);
    assert_int_equal(st.pl[0].cash, cash + 100);
    assert_int_equal(st.owner[P(&st, "Harbour B1")], SILK);
    assert_int_equal(st.owner[P(&st, "Harbour D1")], SILK);
}

/* a founding worth more than f300 is capped at f300 (three fourth-level
 * stacks of f100 and the new f10 warehouse: f310 -> f300). */
static void found_value_capped_300_R16(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour B1", 4);
    t_put(&st, "Harbour D1", 4);
    t_put(&st, "Harbour C2", 4);
    t_give(&st, 0, "Harbour C1");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "found Tea");
    assert_int_equal(st.co[TEA].value, 300);
    assert_int_equal(st.pl[0].cash, cash + 300);
}

/* a founding with a broken roof counts the roofed warehouse -f50
 * (B1 f60 + D1 f60 - f50 = f70); the roof lies on the new warehouse. */
static void found_with_roof_R16(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour B1", 3);
    t_put(&st, "Harbour D1", 3);
    t_give(&st, 0, "Harbour C1");
    t_roofs(&st, 0, 1);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1 roof");
    t_play(&st, 0, "found Coal");
    assert_int_equal(st.co[COAL].value, 70);
    assert_int_equal(st.pl[0].cash, cash + 70);
    assert_int_equal(st.pl[0].roofs, 0);
    assert_true(st.pflags[P(&st, "Harbour C1")] & CH_PF_ROOF);
}

/* R-16 floor; R-31 "any founding": a roof on a plain two-warehouse founding
 * gives f10 - f50, floored at f20, and the founder is paid f20. */
static void found_with_roof_floor_20(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour A1", 1);
    t_give(&st, 0, "Harbour B1");
    t_roofs(&st, 0, 1);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour B1 roof");
    t_play(&st, 0, "found Coal");
    assert_int_equal(st.co[COAL].value, 20);
    assert_int_equal(st.pl[0].cash, cash + 20);
}

/* Rulebook "A. Founding" ("only ... if there is at least one company HQ
 * available"); R-15: with all nine companies on the board a build that would
 * found is not legal; a lone build still is. */
static void found_needs_free_hq_R15(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 20, "Harbour A1", "Harbour B1");
    t_company2(&st, COAL, 20, "Harbour E1", "Harbour F1");
    t_company2(&st, PORCELAIN, 20, "Harbour A4", "Harbour B4");
    t_company2(&st, SILK, 20, "Harbour E4", "Harbour F4");
    t_company2(&st, SPICES, 20, "Jordaan C1", "Jordaan D1");
    t_company2(&st, SUGAR, 20, "Jordaan C4", "Jordaan D4");
    t_company2(&st, HERRING, 20, "Canal Ring C1", "Canal Ring D1");
    t_company2(&st, TEA, 20, "Canal Ring C4", "Canal Ring D4");
    t_company2(&st, TOBACCO, 20, "Old Side C1", "Old Side D1");
    t_put(&st, "Old Side C4", 1);
    t_give(&st, 0, "Old Side D4");
    t_give(&st, 0, "Old Side A3");
    t_valid(&st);
    t_expect_illegal(&st, 0, "play Old Side D4", "Old Side D4 would found a company, but no HQ is left");
    assert_true(t_legal(&st, 0, "play Old Side A3"));
}

/* Rulebook "Spacing"; R-17: a new company must keep two free plots from every
 * other company: lone C1 at distance 2 from Gunpowder's A1 cannot join a
 * founding on D1. */
static void spacing_distance_two_illegal_R17(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 20, "Harbour A1", "Harbour A2");
    t_put(&st, "Harbour C1", 1);
    t_give(&st, 0, "Harbour D1");
    t_valid(&st);
    t_expect_illegal(&st, 0, "play Harbour D1", "too close to another company");
}

/* Rulebook "Spacing"; R-17: at distance 3 (two free plots between) the
 * founding is legal. */
static void spacing_distance_three_ok_R17(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 20, "Harbour A1", "Harbour A2");
    t_put(&st, "Harbour D1", 1);
    t_give(&st, 0, "Harbour E1");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour E1");
    t_play(&st, 0, "found Coal");
    assert_int_equal(st.co[COAL].value, 20);
    assert_int_equal(st.pl[0].cash, cash + 20);
}

/* lone warehouses belong to no company and do not count for spacing:
 * lone B1 two plots from the new company D1-E1 does not block it and stays
 * lone. */
static void spacing_ignores_lone_R17(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour B1", 1);
    t_put(&st, "Harbour D1", 1);
    t_give(&st, 0, "Harbour E1");
    t_play(&st, 0, "play Harbour E1");
    t_play(&st, 0, "found Tea");
    assert_int_equal(st.co[TEA].value, 20);
    assert_int_equal(st.owner[P(&st, "Harbour B1")], CH_NONE);
}

/* an HQ placeholder counts for spacing like a warehouse: Coal is
 * A1 + B2 joined by its placeholder HQ on B1; D1 is 3 from A1 and B2 but 2
 * from B1, so D1-E1 cannot found. */
static void spacing_counts_placeholder_R14(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour A1", 1);
    t_put(&st, "Harbour B2", 1);
    const char *coal[] = {"Harbour A1", "Harbour B2"};
    t_company(&st, COAL, 20, "Harbour B1", coal, 2);
    t_put(&st, "Harbour D1", 1);
    t_give(&st, 0, "Harbour E1");
    t_valid(&st);
    t_expect_illegal(&st, 0, "play Harbour E1", "spacing");
}

/* Rulebook "Spacing" ("whenever you want to found"): expanding is not checked
 * for spacing: Gunpowder may grow to C1, two plots from Coal's E1. */
static void spacing_not_checked_on_expand(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 20, "Harbour A1", "Harbour B1");
    t_company2(&st, COAL, 20, "Harbour E1", "Harbour F1");
    t_give(&st, 0, "Harbour C1");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1");
    assert_int_equal(st.co[GUNPOWDER].value, 30);
    assert_int_equal(st.pl[0].cash, cash + 30);
    assert_int_equal(st.owner[P(&st, "Harbour C1")], GUNPOWDER);
}

/* Rulebook "A. Founding", special situation 1; R-18: B2 diagonal to lone A1
 * founds with the HQ as a placeholder on A2 or B1, the founder's choice; the
 * placeholder has no value: f20. */
static void diagonal_founding_R18(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour A1", 1);
    t_give(&st, 0, "Harbour B2");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour B2");
    assert_int_equal(st.phase, CH_PH_HQ);
    assert_true(t_legal(&st, 0, "hq Harbour A2"));
    assert_true(t_legal(&st, 0, "hq Harbour B1"));
    assert_false(t_legal(&st, 0, "hq Harbour C2"));
    t_play(&st, 0, "hq Harbour B1");
    t_play(&st, 0, "found Coal");
    int b1 = P(&st, "Harbour B1");
    assert_int_equal(st.co[COAL].value, 20);
    assert_int_equal(st.co[COAL].hq, b1);
    assert_int_equal(st.height[b1], 0);
    assert_true(st.pflags[b1] & CH_PF_HQ);
    assert_int_equal(st.owner[b1], COAL);
    assert_int_equal(st.owner[P(&st, "Harbour A1")], COAL);
    assert_int_equal(st.owner[P(&st, "Harbour B2")], COAL);
    assert_int_equal(st.pl[0].cash, cash + 20);
    assert_int_equal(st.supply, 60);
}

/* a single-card diagonal founding is optional: "lone" leaves B2 a lone
 * warehouse, no company, no payout. */
static void diagonal_founding_optional_R19(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour A1", 1);
    t_give(&st, 0, "Harbour B2");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour B2");
    t_play(&st, 0, "lone");
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.owner[P(&st, "Harbour B2")], CH_NONE);
    assert_int_equal(st.height[P(&st, "Harbour B2")], 1);
    for (int c = 0; c < 9; c++)
        assert_int_equal(st.co[c].on_chart, 0);
    assert_int_equal(st.pl[0].cash, cash);
}

/* the placeholder plot must touch both warehouses: A2 and B3 are
 * diagonal across the canal, A3 does not touch A2 (no bridge at A), so only
 * B2 (bridge at B) may take the HQ. */
static void diagonal_founding_across_canal_R13(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour A2", 1);
    t_give(&st, 0, "Harbour B3");
    t_play(&st, 0, "play Harbour B3");
    assert_int_equal(st.phase, CH_PH_HQ);
    assert_int_equal(t_count_type(&st, 0, CH_M_HQ), 1);
    assert_true(t_legal(&st, 0, "hq Harbour B2"));
    assert_false(t_legal(&st, 0, "hq Harbour A3"));
}

/* diagonal founding only without an orthogonal connection: B2 next to
 * lone C2 founds B2-C2 at once (no HQ choice) and diagonal A1 stays lone. */
static void diagonal_not_with_orthogonal_R18(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour A1", 1);
    t_put(&st, "Harbour C2", 1);
    t_give(&st, 0, "Harbour B2");
    t_play(&st, 0, "play Harbour B2");
    assert_int_equal(st.phase, CH_PH_FOUND);
    t_play(&st, 0, "found Herring");
    assert_int_equal(st.co[HERRING].value, 20);
    assert_int_equal(st.co[HERRING].hq, P(&st, "Harbour B2"));
    assert_int_equal(st.owner[P(&st, "Harbour A1")], CH_NONE);
}

/* Rulebook special situation 1 ("You can decide which plot to use"); R-18: B2
 * is diagonal to lone A1 and lone C1; the HQ on B1 touches both and founds
 * with all three warehouses (f30); on A2 it joins A1 only (f20) and C1 stays
 * lone. */
static void diagonal_hq_choice_decides_group_R18(void **s)
{
    (void)s;
    ch_state a, b;
    table(&a);
    t_put(&a, "Harbour A1", 1);
    t_put(&a, "Harbour C1", 1);
    t_give(&a, 0, "Harbour B2");
    t_play(&a, 0, "play Harbour B2");
    assert_int_equal(t_count_type(&a, 0, CH_M_HQ), 3); /* A2, B1, C2 */
    b = a;
    t_play(&a, 0, "hq Harbour B1");
    t_play(&a, 0, "found Tea");
    assert_int_equal(a.co[TEA].value, 30);
    assert_int_equal(a.owner[P(&a, "Harbour C1")], TEA);
    t_play(&b, 0, "hq Harbour A2");
    t_play(&b, 0, "found Tea");
    assert_int_equal(b.co[TEA].value, 20);
    assert_int_equal(b.owner[P(&b, "Harbour C1")], CH_NONE);
}

/* docs/rules.md "Diagonal founding" ("when a diagonal founding is impossible
 * (..., or the spacing rule would be broken), the warehouse is simply built
 * as a lone warehouse"): B2 diagonal to lone A1 with Coal's D2
 * two plots away: no HQ choice, B2 stays lone. */
static void diagonal_impossible_builds_lone_R19(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour A1", 1);
    t_company2(&st, COAL, 20, "Harbour D2", "Harbour E2");
    t_give(&st, 0, "Harbour B2");
    t_valid(&st);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour B2");
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.owner[P(&st, "Harbour B2")], CH_NONE);
    assert_int_equal(st.pl[0].cash, cash);
}

/* A diagonally founded Coal: A1 + B2, HQ placeholder on B1, f20; P2 to move. */
static void diagonal_coal(ch_state *st)
{
    table(st);
    t_put(st, "Harbour A1", 1);
    t_give(st, 0, "Harbour B2");
    t_play(st, 0, "play Harbour B2");
    t_play(st, 0, "hq Harbour B1");
    t_play(st, 0, "found Coal");
    t_play(st, 0, "done");
    assert_int_equal(st->active, 1);
}

/* Rulebook special situation 1 ("If the building plot underneath is built, a
 * warehouse is added under the HQ"): +f10, paid, HQ stays. */
static void build_under_hq_placeholder_R22(void **s)
{
    (void)s;
    ch_state st;
    diagonal_coal(&st);
    t_give(&st, 1, "Harbour B1");
    int32_t cash = st.pl[1].cash;
    t_play(&st, 1, "play Harbour B1");
    int b1 = P(&st, "Harbour B1");
    assert_int_equal(st.height[b1], 1);
    assert_true(st.pflags[b1] & CH_PF_HQ);
    assert_int_equal(st.co[COAL].hq, b1);
    assert_int_equal(st.co[COAL].value, 30);
    assert_int_equal(st.pl[1].cash, cash + 30);
    assert_int_equal(st.supply, 59);
}

/* a warehouse built next to an HQ placeholder joins its company: C1
 * touches only the placeholder on B1, and expands Coal to f30. */
static void build_next_to_placeholder_expands_R14(void **s)
{
    (void)s;
    ch_state st;
    diagonal_coal(&st);
    t_give(&st, 1, "Harbour C1");
    int32_t cash = st.pl[1].cash;
    t_play(&st, 1, "play Harbour C1");
    assert_int_equal(st.owner[P(&st, "Harbour C1")], COAL);
    assert_int_equal(st.co[COAL].value, 30);
    assert_int_equal(st.pl[1].cash, cash + 30);
}

/* Rulebook special situation 2: two plot cards found together on
 * an empty table: two warehouses from the supply, HQ on the first card's
 * warehouse, one payout of f20. */
static void two_card_founding_R20(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_give(&st, 0, "Harbour C1");
    t_give(&st, 0, "Harbour D1");
    int32_t cash = st.pl[0].cash;
    ch_state rev = st;
    t_play(&st, 0, "play Harbour C1 + Harbour D1");
    assert_int_equal(st.phase, CH_PH_FOUND);
    t_play(&st, 0, "found Tea");
    assert_int_equal(st.co[TEA].value, 20);
    assert_int_equal(st.co[TEA].hq, P(&st, "Harbour C1"));
    assert_int_equal(st.pl[0].cash, cash + 20);
    assert_int_equal(st.supply, 60);
    assert_int_equal(ch_hand_count(&st, 0), 0);
    assert_int_equal(st.ndiscard, 2);
    /* the other order puts the HQ on D1 */
    t_play(&rev, 0, "play Harbour D1 + Harbour C1");
    t_play(&rev, 0, "found Tea");
    assert_int_equal(rev.co[TEA].hq, P(&rev, "Harbour D1"));
}

/* two cards may not found when one of them alone would: C1 next to
 * lone B1 founds by itself. */
static void two_card_not_when_one_founds_R20(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour B1", 1);
    t_give(&st, 0, "Harbour C1");
    t_give(&st, 0, "Harbour D1");
    t_valid(&st);
    t_expect_illegal(&st, 0, "play Harbour C1 + Harbour D1",
                   "two cards may found only when neither card alone would found a company");
    assert_true(t_legal(&st, 0, "play Harbour C1"));
}

/* Rulebook special situation 2 ("Even if that would result in the ... diagonal
 * founding situation"); R-21: C1 + D2 are diagonal: the HQ placeholder goes
 * on C2 or D1; there is no "lone" option for two cards; f20. */
static void two_card_diagonal_founding_R21(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_give(&st, 0, "Harbour C1");
    t_give(&st, 0, "Harbour D2");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1 + Harbour D2");
    assert_int_equal(st.phase, CH_PH_HQ);
    assert_true(t_legal(&st, 0, "hq Harbour C2"));
    assert_true(t_legal(&st, 0, "hq Harbour D1"));
    assert_false(t_legal(&st, 0, "lone"));
    t_play(&st, 0, "hq Harbour D1");
    t_play(&st, 0, "found Sugar");
    assert_int_equal(st.co[SUGAR].value, 20);
    assert_int_equal(st.co[SUGAR].hq, P(&st, "Harbour D1"));
    assert_int_equal(st.height[P(&st, "Harbour D1")], 0);
    assert_int_equal(st.pl[0].cash, cash + 20);
}

/* R-17 with two cards: C1 + D1 would be two plots from Gunpowder's A1. */
static void two_card_spacing_R17(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 20, "Harbour A1", "Harbour A2");
    t_give(&st, 0, "Harbour C1");
    t_give(&st, 0, "Harbour D1");
    t_valid(&st);
    t_expect_illegal(&st, 0, "play Harbour C1 + Harbour D1", NULL);
    t_expect_illegal(&st, 0, "play Harbour D1 + Harbour C1", NULL);
}

/* RULINGS.md "Action cards" ("A roof may only be put on a build that
 * changes a company's value"); R-21, R-31 (issue 29): a two-card founding
 * changes a value (the company goes on the chart), so it may carry a roof,
 * on the first card's warehouse: f10 - f50 + f10 stays at the f20 floor, and
 * the founder is paid f20. Without a roof the roof is kept. */
static void two_card_founding_with_roof_R21(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_give(&st, 0, "Harbour C1");
    t_give(&st, 0, "Harbour D1");
    t_roofs(&st, 0, 1);
    ch_state plain = st;
    int32_t cash = st.pl[0].cash;
    assert_true(t_legal(&st, 0, "play Harbour C1 + Harbour D1 roof"));
    assert_true(t_legal(&st, 0, "play Harbour D1 + Harbour C1 roof"));
    t_play(&st, 0, "play Harbour C1 + Harbour D1 roof");
    t_play(&st, 0, "found Tea");
    assert_int_equal(st.co[TEA].value, 20);
    assert_int_equal(st.pl[0].cash, cash + 20);
    assert_true(st.pflags[P(&st, "Harbour C1")] & CH_PF_ROOF);
    assert_int_equal(st.pflags[P(&st, "Harbour D1")] & CH_PF_ROOF, 0);
    assert_int_equal(st.pl[0].roofs, 0);
    t_play(&plain, 0, "play Harbour C1 + Harbour D1");
    t_play(&plain, 0, "found Tea");
    assert_int_equal(plain.pflags[P(&plain, "Harbour C1")] & CH_PF_ROOF, 0);
    assert_int_equal(plain.pl[0].roofs, 1);
}

/* a two-card roof needs a roof in hand. */
static void two_card_founding_roof_needs_roof_R21(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_give(&st, 0, "Harbour C1");
    t_give(&st, 0, "Harbour D1");
    t_expect_illegal(&st, 0, "play Harbour C1 + Harbour D1 roof", "no broken roof");
}

/* ---- B. expanding, D. lone ---------------------------------------------------- */

/* Rulebook "B. Expanding an existing company"; R-27: +f10 on the tracked
 * value (f40 -> f50, although the board holds two warehouses), paid f50. */
static void expand_pays_new_value(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 40, "Harbour A1", "Harbour B1");
    t_give(&st, 0, "Harbour C1");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1");
    assert_int_equal(st.co[GUNPOWDER].value, 50);
    assert_int_equal(st.pl[0].cash, cash + 50);
    assert_int_equal(st.owner[P(&st, "Harbour C1")], GUNPOWDER);
    assert_int_equal(st.phase, CH_PH_TRADE);
}

/* Rulebook "B." ("Should your new warehouse also connect other warehouses to
 * the company, each warehouse adds f10"); R-23 (a lone warehouse brings its
 * levels): Gunpowder f20 + C1 f10 + lone D1 with a second level f30 = f60. */
static void expand_joins_lone_with_level(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 20, "Harbour A1", "Harbour B1");
    t_put(&st, "Harbour D1", 2);
    t_give(&st, 0, "Harbour C1");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1");
    assert_int_equal(st.co[GUNPOWDER].value, 60);
    assert_int_equal(st.owner[P(&st, "Harbour D1")], GUNPOWDER);
    assert_int_equal(st.pl[0].cash, cash + 60);
}

/* Rulebook "B." NOTE: expanding a company at f300 is allowed but changes no
 * value, so there is no payout. */
static void expand_at_300_no_payout(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 300, "Harbour A1", "Harbour B1");
    t_give(&st, 0, "Harbour C1");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1");
    assert_int_equal(st.co[GUNPOWDER].value, 300);
    assert_int_equal(st.owner[P(&st, "Harbour C1")], GUNPOWDER);
    assert_int_equal(st.pl[0].cash, cash);
    assert_int_equal(st.event_due, 0);
    assert_int_equal(st.phase, CH_PH_TRADE);
}

/* Rulebook "D. Building a warehouse that is not connected": allowed, no
 * payout, and trading follows. */
static void lone_warehouse_no_payout(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, TEA, 120, "Jordaan A1", "Jordaan B1");
    t_give(&st, 0, "Harbour C3");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C3");
    assert_int_equal(st.owner[P(&st, "Harbour C3")], CH_NONE);
    assert_int_equal(st.height[P(&st, "Harbour C3")], 1);
    assert_int_equal(st.pl[0].cash, cash);
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_true(t_legal(&st, 0, "buy Tea"));
    assert_int_equal(st.supply, 62 - 3);
}

/* ---- level cards ------------------------------------------------------------------ */

/* Rulebook "Level cards"; R-23: a second level on a company warehouse without
 * levels adds f20 and takes a warehouse from the supply; paid the new value. */
static void level2_adds_20(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 20, "Harbour B1", "Harbour A1");
    t_give(&st, 0, "L2");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play L2 Harbour A1");
    assert_int_equal(st.height[P(&st, "Harbour A1")], 2);
    assert_int_equal(st.co[GUNPOWDER].value, 40);
    assert_int_equal(st.pl[0].cash, cash + 40);
    assert_int_equal(st.supply, 59);
    assert_int_equal(st.card_level[st.discard[st.ndiscard - 1]], 2);
    assert_int_equal(st.phase, CH_PH_TRADE);
}

/* Rulebook "Level cards" ("an HQ is not a level ... you simply place the new
 * warehouse under the HQ"): a second level on the HQ's warehouse. */
static void level2_under_hq(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 20, "Harbour B1", "Harbour A1");
    t_give(&st, 0, "L2");
    t_play(&st, 0, "play L2 Harbour B1");
    int b1 = P(&st, "Harbour B1");
    assert_int_equal(st.height[b1], 2);
    assert_true(st.pflags[b1] & CH_PF_HQ);
    assert_int_equal(st.co[GUNPOWDER].hq, b1);
    assert_int_equal(st.co[GUNPOWDER].value, 40);
}

/* Rulebook "Level cards"; R-23: a third level only on a second level (+f30). */
static void level3_needs_second_level_R23(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour A1", 2);
    t_put(&st, "Harbour B1", 1);
    const char *g[] = {"Harbour A1", "Harbour B1"};
    t_company(&st, GUNPOWDER, 40, "Harbour B1", g, 2);
    t_give(&st, 0, "L3");
    t_valid(&st);
    t_expect_illegal(&st, 0, "play L3 Harbour B1", "a level 3 card goes on a stack of 2, and Harbour B1 has 1");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play L3 Harbour A1");
    assert_int_equal(st.height[P(&st, "Harbour A1")], 3);
    assert_int_equal(st.co[GUNPOWDER].value, 70);
    assert_int_equal(st.pl[0].cash, cash + 70);
}

/* Rulebook "Level cards" ("A fourth level can only be placed on top of a third
 * level"); R-23: +f40. */
static void level4_on_third_level_R23(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour A1", 3);
    t_put(&st, "Harbour B1", 2);
    const char *g[] = {"Harbour A1", "Harbour B1"};
    t_company(&st, GUNPOWDER, 90, "Harbour B1", g, 2);
    t_give(&st, 0, "L4");
    t_valid(&st);
    t_expect_illegal(&st, 0, "play L4 Harbour B1", "a level 4 card goes on a stack of 3");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play L4 Harbour A1");
    assert_int_equal(st.height[P(&st, "Harbour A1")], 4);
    assert_int_equal(st.co[GUNPOWDER].value, 130);
    assert_int_equal(st.pl[0].cash, cash + 130);
    assert_int_equal(st.event_due, 1); /* passed f100 */
}

/* a level on a lone warehouse changes no value and pays nothing; its
 * value counts when the warehouse joins a company (D1 f30 + E1 f10 = f40). */
static void level_on_lone_counts_later_R23(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour D1", 1);
    t_give(&st, 0, "L2");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play L2 Harbour D1");
    assert_int_equal(st.height[P(&st, "Harbour D1")], 2);
    assert_int_equal(st.pl[0].cash, cash);
    t_play(&st, 0, "done");
    t_give(&st, 1, "Harbour E1");
    int32_t cash1 = st.pl[1].cash;
    t_play(&st, 1, "play Harbour E1");
    t_play(&st, 1, "found Spices");
    assert_int_equal(st.co[SPICES].value, 40);
    assert_int_equal(st.pl[1].cash, cash1 + 40);
}

/* a plot holding only a placeholder cannot take a level. */
static void level_not_on_placeholder_R23(void **s)
{
    (void)s;
    ch_state st;
    diagonal_coal(&st);
    t_give(&st, 1, "L2");
    t_expect_illegal(&st, 1, "play L2 Harbour B1", "there is no warehouse on Harbour B1");
    assert_true(t_legal(&st, 1, "play L2 Harbour B2"));
}

/* "The f300 cap": value above f300 is lost: f290 + a third level (f30) ->
 * f300, and the builder is paid f300. */
static void level_cap_290_to_300(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour A1", 2);
    t_put(&st, "Harbour B1", 1);
    const char *g[] = {"Harbour A1", "Harbour B1"};
    t_company(&st, GUNPOWDER, 290, "Harbour B1", g, 2);
    t_give(&st, 0, "L3");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play L3 Harbour A1");
    assert_int_equal(st.co[GUNPOWDER].value, 300);
    assert_int_equal(st.pl[0].cash, cash + 300);
}

/* ---- broken roofs ----------------------------------------------------------------- */

/* Rulebook "Action cards, 1) Broken roofs"; R-30: a roofed warehouse deducts
 * f50 instead of adding f10 (f100 -> f50), and the builder is paid f50. */
static void roof_on_expand_R30(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 100, "Harbour A1", "Harbour B1");
    t_give(&st, 0, "Harbour C1");
    t_roofs(&st, 0, 1);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1 roof");
    assert_int_equal(st.co[GUNPOWDER].value, 50);
    assert_int_equal(st.pl[0].cash, cash + 50);
    assert_int_equal(st.pl[0].roofs, 0);
    assert_int_equal(st.roofs_left, 9);
    assert_true(st.pflags[P(&st, "Harbour C1")] & CH_PF_ROOF);
    assert_int_equal(st.event_due, 0);
}

/* "The f20 floor": f60 with a roofed warehouse would be f10; it stops at f20
 * and the builder is paid f20. */
static void roof_floor_20(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 60, "Harbour A1", "Harbour B1");
    t_give(&st, 0, "Harbour C1");
    t_roofs(&st, 0, 1);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1 roof");
    assert_int_equal(st.co[GUNPOWDER].value, 20);
    assert_int_equal(st.pl[0].cash, cash + 20);
}

/* no roof on a build for a company already at the f20 floor, nor on a
 * lone warehouse; without the roof those builds are legal. */
static void roof_not_at_floor_nor_lone_R31(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 20, "Harbour A1", "Harbour B1");
    t_give(&st, 0, "Harbour C1");
    t_give(&st, 0, "Harbour C3");
    t_roofs(&st, 0, 1);
    t_expect_illegal(&st, 0, "play Harbour C1 roof", "changes a company's value");
    t_expect_illegal(&st, 0, "play Harbour C3 roof", "changes a company's value");
    assert_true(t_legal(&st, 0, "play Harbour C1"));
    assert_true(t_legal(&st, 0, "play Harbour C3"));
}

/* R-31 ("including a company at f300, which the roof lowers to f250"). */
static void roof_on_300_R31(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 300, "Harbour A1", "Harbour B1");
    t_give(&st, 0, "Harbour C1");
    t_roofs(&st, 0, 1);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1 roof");
    assert_int_equal(st.co[GUNPOWDER].value, 250);
    assert_int_equal(st.pl[0].cash, cash + 250);
}

/* Rulebook "1) Broken roofs" ("plot or level"): a roof on a level card
 * deducts f50 instead of adding the level's f20 (f150 -> f100). */
static void roof_on_level_card(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 150, "Harbour A1", "Harbour B1");
    t_give(&st, 0, "L2");
    t_roofs(&st, 0, 2);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play L2 Harbour A1 roof");
    assert_int_equal(st.co[GUNPOWDER].value, 100);
    assert_int_equal(st.pl[0].cash, cash + 100);
    assert_int_equal(st.pl[0].roofs, 1);
    assert_int_equal(st.height[P(&st, "Harbour A1")], 2);
    assert_int_equal(st.event_due, 0); /* a fall onto a line passes nothing */
}

/* one broken roof per stack. A level with a roof on a roofed stack is
 * refused with the reason; the same level without a roof is legal. */
static void roof_on_roofed_stack_R52(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_company2(&st, GUNPOWDER, 150, "Harbour A1", "Harbour B1");
    t_give(&st, 0, "Harbour C1");
    t_give(&st, 0, "L2");
    t_roofs(&st, 0, 2);
    t_play(&st, 0, "play Harbour C1 roof");
    assert_int_equal(st.co[GUNPOWDER].value, 100);
    t_play(&st, 0, "done");
    t_play(&st, 1, "pass");
    t_play(&st, 2, "pass");
    int32_t cash = st.pl[0].cash;
    ch_state before = st;
    ch_msg m;
    assert_int_equal(ch_play(&st, 0, "play L2 Harbour C1 roof", &m), CH_EILLEGAL);
    assert_non_null(strstr(m.text, "one roof per stack"));
    assert_memory_equal(&st, &before, sizeof st);
    t_play(&st, 0, "play L2 Harbour C1");
    assert_int_equal(st.co[GUNPOWDER].value, 120);
    assert_int_equal(st.pl[0].cash, cash + 120);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(found_two_warehouses_f20),
        cmocka_unit_test(found_value_counts_levels_R16),
        cmocka_unit_test(found_value_capped_300_R16),
        cmocka_unit_test(found_with_roof_R16),
        cmocka_unit_test(found_with_roof_floor_20),
        cmocka_unit_test(found_needs_free_hq_R15),
        cmocka_unit_test(spacing_distance_two_illegal_R17),
        cmocka_unit_test(spacing_distance_three_ok_R17),
        cmocka_unit_test(spacing_ignores_lone_R17),
        cmocka_unit_test(spacing_counts_placeholder_R14),
        cmocka_unit_test(spacing_not_checked_on_expand),
        cmocka_unit_test(diagonal_founding_R18),
        cmocka_unit_test(diagonal_founding_optional_R19),
        cmocka_unit_test(diagonal_founding_across_canal_R13),
        cmocka_unit_test(diagonal_not_with_orthogonal_R18),
        cmocka_unit_test(diagonal_hq_choice_decides_group_R18),
        cmocka_unit_test(diagonal_impossible_builds_lone_R19),
        cmocka_unit_test(build_under_hq_placeholder_R22),
        cmocka_unit_test(build_next_to_placeholder_expands_R14),
        cmocka_unit_test(two_card_founding_R20),
        cmocka_unit_test(two_card_not_when_one_founds_R20),
        cmocka_unit_test(two_card_diagonal_founding_R21),
        cmocka_unit_test(two_card_spacing_R17),
        cmocka_unit_test(two_card_founding_with_roof_R21),
        cmocka_unit_test(two_card_founding_roof_needs_roof_R21),
        cmocka_unit_test(expand_pays_new_value),
        cmocka_unit_test(expand_joins_lone_with_level),
        cmocka_unit_test(expand_at_300_no_payout),
        cmocka_unit_test(lone_warehouse_no_payout),
        cmocka_unit_test(level2_adds_20),
        cmocka_unit_test(level2_under_hq),
        cmocka_unit_test(level3_needs_second_level_R23),
        cmocka_unit_test(level4_on_third_level_R23),
        cmocka_unit_test(level_on_lone_counts_later_R23),
        cmocka_unit_test(level_not_on_placeholder_R23),
        cmocka_unit_test(level_cap_290_to_300),
        cmocka_unit_test(roof_on_expand_R30),
        cmocka_unit_test(roof_floor_20),
        cmocka_unit_test(roof_not_at_floor_nor_lone_R31),
        cmocka_unit_test(roof_on_300_R31),
        cmocka_unit_test(roof_on_level_card),
        cmocka_unit_test(roof_on_roofed_stack_R52),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
