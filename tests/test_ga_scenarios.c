/* test_ga_scenarios.c: the worked situations of the Chartered: The Golden Age
 * rulebooks, played move by move in notation (docs/formats.md, "Move
 * notation") from positions (their files in tests/positions/, t_position),
 * with the exact money and values each step implies. Sources: the printed
 * rulebook (seed 003: "Founding an enterprise", "Expanding an enterprise",
 * "Trading and flag stock", "Merging enterprises", "End of the game"), the
 * first rules (seed 002: 2a-2d, "Stocks", "End of the Game") and the Japanese
 * translation of the first rules (seed 004, 2d), whose merger example reads:
 * an enterprise at f100 and one at f120 merge: f100 is added to the f120
 * enterprise, which is then worth f220.
 *
 * The harbour side (2 or 3 players), lots numbered row by row, 10 wide:
 *
 *    1  2  3  4  5 |  6  7  8  9 10
 *   11 12 13 14 15 = 16 17 18 19 20
 *   21 22 23 24 25 | 26 27 28 29 30
 *   ~~ == ~~ ~~ ~~   == ~~ ~~ == ~~
 *   31 32 33 34 35 | 36 37 38 39 40
 *   41 42 43 44 45 = 46 47 48 49 50
 *   51 52 53 54 55 | 56 57 58 59 60 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "play.h"

enum { GOLD, COFFEE, PEPPER, GEMS, OPIUM, SILVER, TEA, SILK, GUNPOWDER };

/* ---- Founding: the two free warehouses in every allowed shape ----------------
 * Printed rulebook "Founding an enterprise": "two free warehouses that must be
 * placed on the board adjacent to your original warehouse. This can be both on
 * one side, or one on each side." First rules 2a: "on either side or both on
 * the same side. Do not stack the two warehouses." Every shape: value f30,
 * payout f30 and one free stock; the HQ stack height 2, the free warehouses 1. */
static void scenario_founding_shapes(void **s)
{
    (void)s;
    static const struct { const char *free; int a, b; const char *shape; } shapes[] = {
        {"free Harbour 14 + Harbour 15", 14, 15, "both on one side, straight"},
        {"free Harbour 14 + Harbour 24", 14, 24, "both on one side, bent"},
        {"free Harbour 12 + Harbour 14", 12, 14, "one on each side, straight"},
        {"free Harbour 3 + Harbour 23", 3, 23, "one on each side, straight (vertical)"},
        {"free Harbour 3 + Harbour 12", 3, 12, "one on each side, bent"},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        ch_state st;
        t_position(&st, "ga-founding-shapes.pos");
        t_play(&st, 0, "play Harbour 13");
        t_play(&st, 0, "found Gold");
        t_play(&st, 0, shapes[i].free);
        assert_int_equal(st.co[GOLD].value, 30);
        assert_int_equal(st.pl[0].cash, 630);
        assert_int_equal(st.pl[0].stock[GOLD], 1);
        assert_int_equal(st.co[GOLD].bank, 8);
        assert_int_equal(st.height[t_lot(&st, 13)], 2);
        assert_int_equal(st.height[t_lot(&st, shapes[i].a)], 1);
        assert_int_equal(st.height[t_lot(&st, shapes[i].b)], 1);
        assert_true(st.pflags[t_lot(&st, shapes[i].a)] & CH_PF_FREE);
        assert_true(st.pflags[t_lot(&st, shapes[i].b)] & CH_PF_FREE);
        assert_int_equal(st.supply, 70 - 3);
        int built = 0;
        for (int x = 0; x < ch_state_board(&st)->nplots; x++)
            built += st.height[x] > 0;
        assert_int_equal(built, 3);
        /* "You are still allowed to trade two stocks" */
        assert_int_equal(st.phase, CH_PH_TRADE);
        t_play(&st, 0, "buy Gold");
        t_play(&st, 0, "buy Gold");
        assert_int_equal(st.pl[0].cash, 630 - 100);
        assert_int_equal(st.pl[0].stock[GOLD], 3);
        assert_int_equal(st.active, 1);
    }
}

/* ---- A short game: found, build on a free warehouse, a level on the HQ ------
 * Printed rulebook "Expanding an enterprise": a plot card on a free warehouse
 * "is placed on top and functions as a second level but only adds the normal
 * f10"; "the headquarter of an enterprise is a second level", so a 3rd level
 * goes on it, adding "the number of the level times ten": f30. */
static void scenario_free_warehouse_then_level_on_hq(void **s)
{
    (void)s;
    ch_state st;
    t_position(&st, "ga-free-then-level.pos");
    assert_int_equal(ch_hand_count(&st, 0), 2);
    assert_int_equal(st.pl[0].cash, 600);

    /* P1 founds Gold on 13 with free warehouses on 12 and 14 */
    t_play(&st, 0, "play Harbour 13");
    t_play(&st, 0, "found Gold");
    t_play(&st, 0, "free Harbour 12 + Harbour 14");
    t_play(&st, 0, "done");
    assert_int_equal(st.pl[0].cash, 630);

    /* P2 plays the card of lot 14, covered by a free warehouse: +f10 */
    t_play(&st, 1, "play Harbour 14");
    assert_int_equal(st.height[t_lot(&st, 14)], 2);
    assert_int_equal(st.co[GOLD].value, 40);
    assert_int_equal(st.pl[1].cash, 640);
    t_play(&st, 1, "buy Gold"); /* f50: the minimum price */
    t_play(&st, 1, "done");
    assert_int_equal(st.pl[1].cash, 590);
    assert_int_equal(st.pl[1].stock[GOLD], 1);

    /* P1: a third level on the HQ stack: +f30 */
    t_play(&st, 0, "play L3 Harbour 13");
    assert_int_equal(st.height[t_lot(&st, 13)], 3);
    assert_int_equal(st.co[GOLD].value, 70);
    assert_int_equal(st.pl[0].cash, 700);
    t_play(&st, 0, "sell Gold"); /* at the value: f70 */
    t_play(&st, 0, "done");
    assert_int_equal(st.pl[0].cash, 770);
    assert_int_equal(st.pl[0].stock[GOLD], 0);

    /* P2: a third level on the stack of 14 (a second level since P2's plot card) */
    t_play(&st, 1, "play L3 Harbour 14");
    assert_int_equal(st.height[t_lot(&st, 14)], 3);
    assert_int_equal(st.co[GOLD].value, 100);
    assert_int_equal(st.pl[1].cash, 690);
    t_play(&st, 1, "done");
    assert_int_equal(st.supply, 70 - 6);
}

/* ---- The merger of f100 and f120 into f220 -----------------------------------
 * Japanese translation 2d: "an enterprise at f100 and one at f120 merge: f100
 * is added to the f120 enterprise, f220". The example's values are those after
 * the builder's f10: here Gold f90 + the credited f10 = f100 and Tea f120. Gold
 * is liquidated at f100 a stock and the builder receives f220. */
static void scenario_merger_100_120(void **s)
{
    (void)s;
    ch_state st;
    t_position(&st, "ga-merger-100-120.pos");
    assert_int_equal(st.co[GOLD].value, 90);
    assert_int_equal(st.pl[1].stock[GOLD], 2);
    assert_int_equal(st.pl[2].stock[TEA], 2);
    ch_state other = st;

    t_play(&st, 0, "play Harbour 13");
    t_play(&st, 0, "credit Gold"); /* Gold f100, Tea f120 */
    assert_int_equal(st.co[TEA].value, 220);
    assert_int_equal(st.co[GOLD].on_chart, 0);
    assert_int_equal(st.pl[0].cash, 500 + 220);
    assert_int_equal(st.pl[1].cash, 500 + 2 * 100);
    assert_int_equal(st.pl[2].cash, 500 + 100);
    assert_int_equal(st.pl[2].stock[TEA], 2);
    assert_int_equal(st.height[t_lot(&st, 11)], 1); /* Gold's HQ is gone */
    assert_int_equal(st.co[TEA].hq, t_lot(&st, 15));
    t_play(&st, 0, "buy Tea"); /* f220 */
    t_play(&st, 0, "done");
    assert_int_equal(st.pl[0].cash, 500);

    /* Crediting Tea instead: 90 + 130 = 220 too, but Gold's stocks fetch f90 */
    t_play(&other, 0, "play Harbour 13");
    t_play(&other, 0, "credit Tea");
    assert_int_equal(other.co[TEA].value, 220);
    assert_int_equal(other.pl[0].cash, 500 + 220);
    assert_int_equal(other.pl[1].cash, 500 + 2 * 90);
    assert_int_equal(other.pl[2].cash, 500 + 90);

    /* The same example reached from f100 and f110 + f10 */
    t_position(&st, "ga-merger-110-100.pos");
    assert_int_equal(st.pl[1].stock[GOLD], 3);
    t_play(&st, 0, "play Harbour 13");
    t_play(&st, 0, "credit Tea");
    assert_int_equal(st.co[TEA].value, 220);
    assert_int_equal(st.pl[0].cash, 720);
    assert_int_equal(st.pl[1].cash, 800);
}

/* ---- A three-way merger: the two smaller merge first, then swallow the largest
 * Printed rulebook "Three-way merger": the builder chooses "which of the two
 * enterprises merge first regardless of size. […] This could for instance mean
 * that the largest enterprise in a three-way merger is swallowed by the
 * resulting enterprise of the two smaller enterprises first merging."
 * Around Harbour 22: Gold f90 (2, 12), Coffee f100 (23, 24), Tea f150 (32, 42). */
static void scenario_three_way_small_first(void **s)
{
    (void)s;
    ch_state st;
    t_position(&st, "ga-merger-three-way.pos");
    assert_int_equal(st.co[TEA].flag, 2);
    assert_int_equal(st.pl[1].flags, 1);
    assert_int_equal(st.pl[0].cash, 600);

    t_play(&st, 0, "play Harbour 22");
    t_play(&st, 0, "credit Coffee"); /* Coffee f110 */
    assert_int_equal(st.phase, CH_PH_MERGE);
    t_play(&st, 0, "merge Gold into Coffee");
    /* Gold liquidated at f90; Coffee f200 now exceeds Tea f150 and absorbs it:
     * Tea's two stocks and its flag at f150 */
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.co[COFFEE].value, 350);
    assert_int_equal(st.co[GOLD].on_chart, 0);
    assert_int_equal(st.co[TEA].on_chart, 0);
    assert_int_equal(st.co[TEA].flag, 0);
    assert_int_equal(st.pl[1].cash, 600 + 90 + 2 * 150 + 4 * 150);
    assert_int_equal(st.pl[1].stock[COFFEE], 1);
    assert_int_equal(st.pl[1].flags, 1);
    assert_int_equal(st.pl[0].cash, 600 + 350);
    assert_int_equal(st.height[t_lot(&st, 2)], 1);
    assert_int_equal(st.height[t_lot(&st, 42)], 1);
    assert_int_equal(st.height[t_lot(&st, 24)], 2);
    for (int n = 2; n <= 42; n++)
        if (st.height[t_lot(&st, n)])
            assert_int_equal(st.owner[t_lot(&st, n)], COFFEE);
    /* the survivor may carry the builder's flag */
    t_play(&st, 0, "flag Coffee");
    assert_int_equal(st.pl[0].cash, 950 - 200);
}

/* ---- Flag prices: the first f200, the second f400 -----------------------------
 * Printed rulebook "Trading and flag stock": "Your first purchase of a flag
 * stock costs f200 and your second flag costs f400, regardless of the stock
 * value of the enterprise. Each enterprise can only have one flag stock." */
static void scenario_flag_prices(void **s)
{
    (void)s;
    ch_state st;
    t_position(&st, "ga-flag-prices.pos");
    assert_int_equal(ch_hand_count(&st, 1), 3);

    t_play(&st, 0, "play Harbour 13");
    t_play(&st, 0, "found Gold");
    t_play(&st, 0, "free Harbour 12 + Harbour 14");
    t_play(&st, 0, "flag Gold"); /* the turn ends */
    assert_int_equal(st.pl[0].cash, 600 + 30 - 200);
    assert_int_equal(st.co[GOLD].flag, 1);

    t_play(&st, 1, "play Harbour 58");
    t_play(&st, 1, "found Tea");
    t_play(&st, 1, "free Harbour 57 + Harbour 59");
    t_play(&st, 1, "done");
    assert_int_equal(st.pl[1].cash, 630);

    t_play(&st, 0, "play Harbour 48"); /* Tea f40 */
    t_play(&st, 0, "flag Tea");
    assert_int_equal(st.pl[0].cash, 430 + 40 - 400);
    assert_int_equal(st.pl[0].flags, 0);
    assert_int_equal(st.co[TEA].flag, 1);

    /* P2 builds on Gold: it carries P1's flag already */
    t_play(&st, 1, "play Harbour 15");
    assert_false(t_legal(&st, 1, "flag Gold"));
    t_play(&st, 1, "done");
    t_turn(&st, 1);
    t_play(&st, 1, "play Harbour 47"); /* Tea f50 */
    assert_false(t_legal(&st, 1, "flag Tea"));
    t_play(&st, 1, "done");
    assert_int_equal(st.pl[1].cash, 630 + 40 + 50);
    assert_int_equal(st.pl[1].flags, 2);
}

/* ---- A flag liquidated at four times the value --------------------------------
 * Printed rulebook "Trading and flag stock": the four stocks a flag represents
 * "are paid out […] when the enterprise is the smaller party in a merger. Your
 * flag is not returned to you after a merger." First rules "Stocks": "sold to
 * the bank at four times the stock value of that enterprise". */
static void scenario_flag_liquidated(void **s)
{
    (void)s;
    ch_state st;
    t_position(&st, "ga-flag-liquidated.pos");
    assert_int_equal(st.co[GOLD].value, 60);
    assert_int_equal(st.pl[1].flags, 2);

    t_play(&st, 0, "play Harbour 1"); /* Gold f70 */
    t_play(&st, 0, "done");
    t_play(&st, 1, "play Harbour 2"); /* Gold f80 */
    t_play(&st, 1, "flag Gold");
    assert_int_equal(st.pl[1].cash, 600 + 80 - 200);
    t_play(&st, 0, "play Harbour 13");
    t_play(&st, 0, "credit Gold"); /* Gold f90 < Tea f150 */
    assert_int_equal(st.co[TEA].value, 240);
    assert_int_equal(st.pl[1].cash, 480 + 4 * 90);
    assert_int_equal(st.co[GOLD].flag, 0);
    assert_int_equal(st.pl[1].flags, 1); /* not returned */
    assert_int_equal(st.pl[0].cash, 600 + 70 + 240);
    t_play(&st, 0, "done");
    /* P2's second flag costs f400 */
    t_play(&st, 1, "play Harbour 25"); /* Tea f250 */
    t_play(&st, 1, "flag Tea");
    assert_int_equal(st.pl[1].cash, 840 + 250 - 400);
    assert_int_equal(st.pl[1].flags, 0);
}

/* ---- The end: last warehouse, f20 per card, flags as four stocks -------------
 * Printed rulebook "End of the game": "When you run out of warehouses, the game
 * ends at the end of that player's turn. You now have to pay a f20 fine for
 * each building card you still have in your hand. […] Players display all their
 * stocks, including flag stocks, and sell them back to the bank at the stock
 * value price. The player with the most money wins the game, there is no
 * tiebreaker." */
static void scenario_end_fine(void **s)
{
    (void)s;
    ch_state st;
    t_position(&st, "ga-end-fine.pos");
    assert_int_equal(st.co[GOLD].value, 100);
    assert_int_equal(st.co[GUNPOWDER].value, 60);
    assert_int_equal(st.pl[0].cash, 600);
    assert_int_equal(st.pl[1].cash, 600);
    assert_int_equal(st.supply, 1);

    t_play(&st, 0, "play Harbour 15"); /* the last warehouse; Gold f110 */
    assert_int_equal(st.supply, 0);
    assert_false(st.over);
    t_play(&st, 0, "flag Gold"); /* ends the turn, and so the game */
    assert_true(st.over);
    assert_int_equal(st.pl[0].cash, 600 + 110 - 200);
    int32_t sc[6];
    unsigned w;
    assert_int_equal(ch_scores(&st, sc, &w), CH_OK);
    /* P1: f510, three cards (f60 fine), 2 Gold and the flag: 6 x f110 */
    assert_int_equal(sc[0], 510 - 3 * 20 + 6 * 110);
    /* P2: f600, one card, 3 Gunpowder at f60 */
    assert_int_equal(sc[1], 600 - 20 + 3 * 60);
    assert_int_equal(w, 1u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scenario_founding_shapes),
        cmocka_unit_test(scenario_free_warehouse_then_level_on_hq),
        cmocka_unit_test(scenario_merger_100_120),
        cmocka_unit_test(scenario_three_way_small_first),
        cmocka_unit_test(scenario_flag_prices),
        cmocka_unit_test(scenario_flag_liquidated),
        cmocka_unit_test(scenario_end_fine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
