/* test_rules_errors.c: illegal or malformed moves are refused with a clear
 * reason, and the state is left byte for byte as it was (include/chartered.h
 * "Illegal moves are rejected with the reason; the state is then left
 * unchanged"; docs/formats.md "Errors"). Each test names the rule the refused
 * move breaks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "play.h"

enum { GUNPOWDER, COAL, PORCELAIN, SILK, SPICES, SUGAR, HERRING, TEA, TOBACCO };

/* ch_play refuses the text with this code and a message containing `why`
 * (exactly equal to it when `exact`); the state does not change. */
static void refuse(ch_state *st, int p, const char *text, int code, const char *why, int exact)
{
    ch_state before = *st;
    ch_msg m;
    memset(&m, 0, sizeof m);
    int r = ch_play(st, p, text, &m);
    if (r != code)
        fail_msg("'%s' by P%d: code %d (%s), expected %d; message '%s'", text, p + 1, r,
                 ch_strerror(r), code, m.text);
    if (exact ? strcmp(m.text, why) != 0 : strstr(m.text, why) == NULL)
        fail_msg("'%s': message '%s', expected %s'%s'", text, m.text, exact ? "" : "to contain ", why);
    assert_memory_equal(st, &before, sizeof before);
}

/* The same for a move given as fields, through ch_apply. */
static void refuse_move(ch_state *st, int p, ch_move mv, int code, const char *why)
{
    ch_state before = *st;
    ch_msg m;
    int r = ch_apply(st, p, mv, &m);
    assert_int_equal(r, code);
    if (!strstr(m.text, why))
        fail_msg("message '%s' does not contain '%s'", m.text, why);
    assert_memory_equal(st, &before, sizeof before);
}

/* Tea f120 (Harbour A1-B1), Coal f40 (Jordaan E4-F4); P1 to move, holding
 * Harbour D3. */
static void table(ch_state *st)
{
    t_new(st, 3, "standard", 21);
    t_clear(st);
    t_put(st, "Harbour A1", 1);
    t_put(st, "Harbour B1", 1);
    t_put(st, "Jordaan E4", 1);
    t_put(st, "Jordaan F4", 1);
    const char *tea[] = {"Harbour A1", "Harbour B1"};
    const char *coal[] = {"Jordaan E4", "Jordaan F4"};
    t_company(st, TEA, 120, "Harbour A1", tea, 2);
    t_company(st, COAL, 40, "Jordaan E4", coal, 2);
    t_give(st, 0, "Harbour D3");
    t_turn(st, 0);
    t_valid(st);
}

/* Rulebook "Turn option 2" (a card "from your hand"). */
static void card_not_in_hand(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    refuse(&st, 0, "play Harbour C1", CH_EILLEGAL, "Harbour C1 is not in your hand", 1);
    refuse(&st, 0, "play L2 Harbour A1", CH_ESYNTAX, "you hold no L2 card", 0);
}

/* R-28 ("a buy needs a stock card of that company left in the bank"). */
static void buy_with_bank_empty_R28(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_stock(&st, 1, TEA, 5);
    t_stock(&st, 2, TEA, 4);
    t_play(&st, 0, "play Harbour D3");
    refuse(&st, 0, "buy Tea", CH_EILLEGAL, "you cannot buy: the bank has no Tea stock left", 1);
    assert_true(t_legal(&st, 0, "buy Coal"));
}

/* a buy needs the cash (Tea costs f120). */
static void buy_without_cash_R06(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_cash(&st, 0, 119);
    t_play(&st, 0, "play Harbour D3");
    refuse(&st, 0, "buy Tea", CH_EILLEGAL, "you cannot buy: Tea costs f120 and you have f119", 1);
}

/* only the player whose decision it is may move. */
static void move_out_of_turn_R07(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    refuse(&st, 1, "pass", CH_ETURN, "it is not your decision: P1 must choose purchase, a building card, or selling", 1);
    refuse(&st, 2, "draw", CH_ETURN, "it is not your decision", 0);
}

/* a sealed bid is from f0 to the bidder's cash; a second bid by
 * the same player is refused. */
static void bid_above_cash_R35(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    st.co[TEA].value = 90;
    t_give(&st, 0, "Harbour C1");
    t_event_open(&st, 0, CH_EV_VERLAPPEN);
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "done");
    t_play(&st, 0, "event Verlappen");
    refuse(&st, 1, "bid f301", CH_EILLEGAL, "a sealed bid is from f0 to your cash, f300", 1);
    t_play(&st, 1, "bid f300");
    refuse(&st, 1, "bid f10", CH_ETURN, "you have already made your sealed bid", 1);
}

/* docs/formats.md "Errors": a misspelt move is a syntax error. */
static void unknown_move_word(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    refuse(&st, 0, "plya Harbour D3", CH_ESYNTAX, "unknown move 'plya'", 0);
    refuse(&st, 0, "", CH_ESYNTAX, "empty move", 0);
    refuse(&st, 0, "play Harbour Z9", CH_ESYNTAX, "'Harbour Z9' is not a plot on this board", 1);
    refuse(&st, 0, "bid f-5", CH_ESYNTAX, "must not be negative", 0);
}

/* a plot card builds only on its own plot. */
static void card_on_other_plot_R03(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    ch_move mv = {CH_M_PLAY, (uint8_t)t_card(&st, "Harbour D3"), (uint8_t)t_plot(&st, "Harbour E3"), CH_NONE, 0};
    refuse_move(&st, 0, mv, CH_EILLEGAL, "builds only on its own plot");
}

/* Fields naming nothing are refused, not trusted. */
static void move_fields_out_of_range(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    ch_move mv = {CH_M_PLAY, 250, 0, CH_NONE, 0};
    refuse_move(&st, 0, mv, CH_EILLEGAL, "no such card");
    ch_move junk = {CH_M_NTYPES + 3, 0, 0, 0, 0};
    refuse_move(&st, 0, junk, CH_EILLEGAL, "not legal now");
    ch_msg m;
    ch_state before = st;
    assert_int_equal(ch_apply(&st, 7, mv, &m), CH_EINVAL);
    assert_memory_equal(&st, &before, sizeof st);
}

/* Rulebook "Game end": after the end nothing more is played. */
static void move_after_game_over(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_play(&st, 0, "pass");
    t_play(&st, 1, "pass");
    t_play(&st, 2, "pass");
    refuse(&st, 0, "pass", CH_EOVER, "the game is over", 1);
}

/* Rulebook "Turn option 2" (trading comes after building): a trade move at the
 * start of the turn is not legal, and the reason says what is expected. */
static void move_in_wrong_phase(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    refuse(&st, 0, "buy Tea", CH_EILLEGAL,
           "'buy Tea' is not legal now: choose purchase, a building card, or selling", 1);
    refuse(&st, 0, "found Coal", CH_EILLEGAL, "is not legal now", 0);
}

/* a roof must be held to be used. */
static void roof_not_held_R30(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_give(&st, 0, "Harbour C1");
    refuse(&st, 0, "play Harbour C1 roof", CH_EILLEGAL, "you hold no broken roof", 1);
}

/* Rulebook "Level cards"; R-23: a second level needs a warehouse without
 * levels under it. */
static void level_on_empty_plot_R23(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_give(&st, 0, "L2");
    refuse(&st, 0, "play L2 Harbour C2", CH_EILLEGAL, "there is no warehouse on Harbour C2 to put a level on", 1);
}

/* Rulebook "Spacing"; R-17: the refusal names the reason. */
static void founding_too_close_R17(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour D1", 1);
    t_give(&st, 0, "Harbour D2");
    refuse(&st, 0, "play Harbour D2", CH_EILLEGAL,
           "Harbour D2 would found a company too close to another company (spacing: two free plots)", 1);
}

/* a purchase needs f50. */
static void purchase_without_cash_R06(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_cash(&st, 0, 49);
    refuse(&st, 0, "draw", CH_EILLEGAL, "you cannot purchase: it costs f50 and you have f49", 1);
}

/* Rulebook "Turn option 3" (sell stocks "you own"); R-28 (on the chart). */
static void sell_stock_not_held(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    refuse(&st, 0, "sell Tea", CH_EILLEGAL, "you hold no Tea stock", 1);
    t_stock(&st, 0, SUGAR, 1);
    refuse(&st, 0, "sell Sugar", CH_EILLEGAL, "Sugar is not on the stock chart: its stocks cannot be sold", 1);
}

/* a merger sale cannot sell more stocks than held. */
static void merger_sale_too_many_R24(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    t_put(&st, "Harbour D1", 1);
    t_put(&st, "Harbour E1", 1);
    const char *g[] = {"Harbour D1", "Harbour E1"};
    t_company(&st, GUNPOWDER, 50, "Harbour E1", g, 2);
    t_stock(&st, 1, GUNPOWDER, 2);
    t_give(&st, 0, "Harbour C1");
    t_valid(&st);
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "credit Tea");
    assert_int_equal(st.phase, CH_PH_MERGE_SELL);
    refuse(&st, 1, "sell 3 Gunpowder", CH_EILLEGAL, "not legal now", 0);
    refuse(&st, 1, "sell Tea", CH_EILLEGAL, "not legal now", 0);
}

/* R-44 (no cash below f0): an offer cannot give more money than held. */
static void offer_money_above_cash_R44(void **s)
{
    (void)s;
    ch_state st;
    table(&st);
    st.co[TEA].value = 90;
    t_give(&st, 0, "Harbour C1");
    t_event_open(&st, 0, CH_EV_COOPMANSCAPPEN);
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "done");
    t_play(&st, 0, "event Coopmanscappen");
    t_play(&st, 0, "offer P2");
    refuse(&st, 0, "give f401", CH_EILLEGAL, "the amount must be from f1 to f400 (your cash)", 1);
    refuse(&st, 0, "ask f301", CH_EILLEGAL, "the amount must be from f1 to f300 (their cash)", 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(card_not_in_hand),
        cmocka_unit_test(buy_with_bank_empty_R28),
        cmocka_unit_test(buy_without_cash_R06),
        cmocka_unit_test(move_out_of_turn_R07),
        cmocka_unit_test(bid_above_cash_R35),
        cmocka_unit_test(unknown_move_word),
        cmocka_unit_test(card_on_other_plot_R03),
        cmocka_unit_test(move_fields_out_of_range),
        cmocka_unit_test(move_after_game_over),
        cmocka_unit_test(move_in_wrong_phase),
        cmocka_unit_test(roof_not_held_R30),
        cmocka_unit_test(level_on_empty_plot_R23),
        cmocka_unit_test(founding_too_close_R17),
        cmocka_unit_test(purchase_without_cash_R06),
        cmocka_unit_test(sell_stock_not_held),
        cmocka_unit_test(merger_sale_too_many_R24),
        cmocka_unit_test(offer_money_above_cash_R44),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
