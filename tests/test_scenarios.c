/* test_scenarios.c: every worked example of both Building Amsterdam rulebooks,
 * played through the public API in notation, each from its position file in
 * tests/positions/ (docs/formats.md "Positions"; t_position). English
 * rulebook: Bernadette founds Coal (Turn option 2, A), Arnold expands Spices
 * (B), Anke's three-way merger (C, "Merging multiple companies"). Dutch
 * rulebook: the same merger with tea 60, silk 60, porcelain 80 (payout f210). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include "play.h"

enum { GUNPOWDER, COAL, PORCELAIN, SILK, SPICES, SUGAR, HERRING, TEA, TOBACCO };

/* Rulebook "A. Founding a new company", the Bernadette example: C1 between the
 * lone warehouses on B1 and D1 founds Coal with three warehouses: value f30,
 * payout f30; she buys two Coal stocks at the founder's price of f30 each. */
static void bernadette_founds_coal(void **s)
{
    (void)s;
    ch_state st;
    t_position(&st, "ba-founding-bernadette.pos"); /* Bernadette is player 2 */
    assert_int_equal(st.height[t_plot(&st, "Harbour B1")], 1);
    assert_int_equal(st.owner[t_plot(&st, "Harbour B1")], CH_NONE);
    assert_int_equal(st.owner[t_plot(&st, "Harbour D1")], CH_NONE);
    int32_t cash = st.pl[1].cash;
    t_play(&st, 1, "play Harbour C1");
    assert_int_equal(st.phase, CH_PH_FOUND);
    t_play(&st, 1, "found Coal");
    assert_int_equal(st.co[COAL].value, 30);
    assert_int_equal(st.pl[1].cash, cash + 30);
    assert_int_equal(st.co[COAL].hq, t_plot(&st, "Harbour C1"));
    assert_int_equal(st.owner[t_plot(&st, "Harbour B1")], COAL);
    assert_int_equal(st.owner[t_plot(&st, "Harbour D1")], COAL);
    t_play(&st, 1, "buy Coal");
    t_play(&st, 1, "buy Coal");
    assert_int_equal(st.pl[1].stock[COAL], 2);
    assert_int_equal(st.co[COAL].bank, 7);
    assert_int_equal(st.pl[1].cash, cash + 30 - 2 * 30);
    /* two transactions end the turn */
    assert_int_equal(st.active, 2);
    assert_int_equal(st.phase, CH_PH_TURN);
}

/* Rulebook "B. Expanding an existing company", the Arnold example: C2 expands
 * Spices by f10 to f70, and Arnold is paid the new value, f70. */
static void arnold_expands_spices(void **s)
{
    (void)s;
    ch_state st;
    t_position(&st, "ba-expanding-arnold.pos"); /* Arnold is player 1 */
    assert_int_equal(st.co[SPICES].value, 60);
    assert_int_equal(st.co[SPICES].hq, t_plot(&st, "Harbour B2"));
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C2");
    assert_int_equal(st.co[SPICES].value, 70);
    assert_int_equal(st.pl[0].cash, cash + 70);
    assert_int_equal(st.owner[t_plot(&st, "Harbour C2")], SPICES);
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.event_due, 0); /* no line between f60 and f70 */
}

/* Anke's example on the quick-battle arrangement, where Harbour F3 touches
 * Harbour E3, Harbour F4 and Jordaan A3 (ba-merger-anke-quick-en.pos and
 * -nl.pos): Tea on D3/E3, the second company on F4 and Canal Ring F1,
 * Porcelain on Jordaan A3/B3; Anke is player 3 and holds F3; player 1 holds
 * two stocks of the second company, player 4 one of Porcelain.
 * Anke plays F3 and credits tea; merge 1 absorbs the second company (P1 sells
 * both its stocks at its value), merge 2 absorbs porcelain (P4 keeps its stock). */
static void merger_case(const char *file, int second, const char *second_name, int tea, int second_value,
                        int after_first, int payout)
{
    ch_state st;
    t_position(&st, file);
    assert_int_equal(st.co[TEA].value, tea);
    assert_int_equal(st.co[second].value, second_value);
    assert_int_equal(st.pl[0].stock[second], 2);
    assert_int_equal(st.active, 2);
    int32_t anke = st.pl[2].cash, p1 = st.pl[0].cash, p4 = st.pl[3].cash;
    t_play(&st, 2, "play Harbour F3");
    assert_int_equal(st.phase, CH_PH_CREDIT);
    assert_true(t_legal(&st, 2, "credit Tea"));
    assert_true(t_legal(&st, 2, "credit Porcelain"));
    t_play(&st, 2, "credit Tea");
    assert_int_equal(st.co[TEA].value, tea + 10);
    assert_int_equal(st.phase, CH_PH_MERGE_SELL);
    assert_int_equal(st.m_absorbed, second);
    assert_int_equal(st.m_absorber, TEA);
    assert_int_equal(st.actor, 0);
    char mv[64];
    snprintf(mv, sizeof mv, "sell 2 %s", second_name);
    t_play(&st, 0, mv);
    assert_int_equal(st.pl[0].cash, p1 + 2 * second_value);
    assert_int_equal(st.co[second].on_chart, 0);
    assert_int_equal(st.co[second].hq, CH_NONE);
    assert_int_equal(st.co[TEA].value, after_first);
    /* Merge 2: tea takes porcelain; P4 keeps the porcelain stock. */
    assert_int_equal(st.phase, CH_PH_MERGE_SELL);
    assert_int_equal(st.m_absorbed, PORCELAIN);
    assert_int_equal(st.actor, 3);
    t_play(&st, 3, "keep Porcelain");
    assert_int_equal(st.pl[3].cash, p4);
    assert_int_equal(st.pl[3].stock[PORCELAIN], 1);
    assert_int_equal(st.co[PORCELAIN].bank, 8);
    assert_int_equal(st.co[TEA].value, payout);
    assert_int_equal(st.pl[2].cash, anke + payout);
    /* every warehouse is tea's now; the absorbed HQs went back to the box */
    assert_int_equal(st.owner[t_plot(&st, "Canal Ring F1")], TEA);
    assert_int_equal(st.owner[t_plot(&st, "Jordaan B3")], TEA);
    assert_int_equal(st.pflags[t_plot(&st, "Jordaan A3")] & CH_PF_HQ, 0);
    /* Several lines were passed; one stock event, at the end of the turn. */
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.event_due, 1);
    t_play(&st, 2, "done");
    assert_int_equal(st.phase, CH_PH_EVENT);
    assert_int_equal(st.actor, 2);
}

/* English rulebook: tea 50 -> 60 takes gunpowder 50 (f110), then porcelain 80:
 * f190, Anke is paid f190. */
static void anke_three_way_english(void **s)
{
    (void)s;
    merger_case("ba-merger-anke-quick-en.pos", GUNPOWDER, "Gunpowder", 50, 50, 110, 190);
}

/* Dutch rulebook: tea 60 -> 70 takes silk 60 (f130), then porcelain 80: f210. */
static void anke_three_way_dutch(void **s)
{
    (void)s;
    merger_case("ba-merger-anke-quick-nl.pos", SILK, "Silk", 60, 60, 130, 210);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bernadette_founds_coal),
        cmocka_unit_test(arnold_expands_spices),
        cmocka_unit_test(anke_three_way_english),
        cmocka_unit_test(anke_three_way_dutch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
