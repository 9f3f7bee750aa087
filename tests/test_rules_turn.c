/* test_rules_turn.c: the turn around the build: purchase (turn option 1),
 * trading after a build, action cards, turn option 3 and the pass, the end
 * of the game, scoring, and the stall rule (docs/rules.md "Turn option 1",
 * "Trading stocks and the founder's discount", "Turn option 3", "Action cards
 * and broken roofs", "The end of a turn", "Game end and scoring"; Rulebook
 * "Turn option 1", "Refreshing the open market", "Stock trading", "Action
 * cards", "Turn option 3", "Game end"; Rulings to
 * */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "play.h"

enum { GUNPOWDER, COAL, PORCELAIN, SILK, SPICES, SUGAR, HERRING, TEA, TOBACCO };

static void table(ch_state *st, int np)
{
    t_new(st, np, "standard", 33);
    t_clear(st);
    t_turn(st, 0);
}

/* A market of five known plot cards (Jordaan A1..E1) and a known deck top
 * (Jordaan F4 on top of Jordaan F3). */
static void market5(ch_state *st)
{
    const char *m[] = {"Jordaan A1", "Jordaan B1", "Jordaan C1", "Jordaan D1", "Jordaan E1"};
    for (int i = 0; i < 5; i++)
        t_market(st, i, m[i]);
    t_deck_top(st, "Jordaan F3");
    t_deck_top(st, "Jordaan F4");
}

/* ---- turn option 1: purchase ------------------------------------------------------- */

/* Rulebook "Turn option 1" ("pay f50 to the bank and take two new building
 * cards ... from the deck, the open market, or one from each"); R-11; "End
 * of your turn": the purchase is the whole turn. */
static void purchase_two_cards_f50_R11(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    market5(&st);
    int32_t cash = st.pl[0].cash;
    int64_t bank = st.bank_net;
    t_play(&st, 0, "take Jordaan C1");
    assert_int_equal(st.phase, CH_PH_PURCHASE);
    assert_int_equal(st.pl[0].cash, cash - 50);
    t_play(&st, 0, "draw");
    assert_int_equal(st.pl[0].cash, cash - 50);
    assert_int_equal(st.bank_net, bank + 50);
    assert_true(t_in_hand(&st, 0, t_card(&st, "Jordaan C1")));
    assert_true(t_in_hand(&st, 0, t_card(&st, "Jordaan F4")));
    assert_int_equal(ch_hand_count(&st, 0), 2);
    assert_int_equal(st.active, 1);
    assert_int_equal(st.phase, CH_PH_TURN);
}

/* Rulebook "Turn option 1" ("replaced ... at the end of that player's turn");
 * the slot of the first market card stays empty during the purchase, so
 * the card that will replace it cannot be taken; refill at the end. */
static void market_refilled_at_end_of_turn_R11(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    market5(&st);
    t_play(&st, 0, "take Jordaan A1");
    assert_int_equal(st.market[0], CH_NONE);
    t_expect_illegal(&st, 0, "take Jordaan F4", "not in the market");
    t_play(&st, 0, "take Jordaan B1");
    /* turn over: the two empty slots took the deck's top cards in order */
    assert_int_equal(st.active, 1);
    assert_int_equal(st.market[0], t_card(&st, "Jordaan F4"));
    assert_int_equal(st.market[1], t_card(&st, "Jordaan F3"));
    assert_int_equal(st.market[2], t_card(&st, "Jordaan C1"));
}

/* Rulebook "Turn option 1" ("you are only allowed to take that one level card
 * instead of two cards"): a market level card is the purchase's
 * only card, costs f50 and is known to all. */
static void market_level_card_alone_R11(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    market5(&st);
    t_market(&st, 2, "L3");
    int l3 = st.market[2];
    ch_state second = st;
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "take L3");
    assert_int_equal(st.active, 1);
    assert_int_equal(st.pl[0].cash, cash - 50);
    assert_int_equal(ch_hand_count(&st, 0), 1);
    assert_true(t_in_hand(&st, 0, l3));
    assert_true(t_known(&st, 0, l3));
    /* as the second card of a purchase it may not be taken */
    t_play(&second, 0, "take Jordaan A1");
    t_expect_illegal(&second, 0, "take L3", "a level card from the market may only be taken as the single card");
}

/* R-11 with interchangeable level cards: of several market cards of one level
 * the lowest id is the one "take L2" names, wherever it lies in the market
 * (regression: a market whose lowest L2 lay behind higher ones listed none). */
static void market_levels_lowest_listed_R11(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    market5(&st);
    t_market(&st, 2, "L2"); /* the lowest L2 id goes to slot 2 */
    t_market(&st, 0, "L2");
    t_market(&st, 1, "L2");
    int low = st.market[2];
    assert_true(st.market[0] > low && st.market[1] > low);
    ch_move buf[512];
    int n = ch_legal(&st, 0, buf, 512), takes = 0;
    for (int i = 0; i < n && i < 512; i++)
        if (buf[i].type == CH_M_TAKE && st.card_level[buf[i].a] == 2) {
            takes++;
            assert_int_equal(buf[i].a, low);
        }
    assert_int_equal(takes, 1);
    t_play(&st, 0, "take L2");
    assert_true(t_in_hand(&st, 0, low));
}

/* Rulebook "Turn option 1" ("If you take one or two cards from the face down
 * deck and they are level cards ... you don't have to show"); R-10: a level
 * card drawn from the deck stays hidden, and a second card may follow. */
static void deck_level_card_hidden_R10(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    market5(&st);
    t_deck_top(&st, "L2");
    int l2 = st.deck[st.ndeck - 1];
    t_play(&st, 0, "draw");
    assert_int_equal(st.phase, CH_PH_PURCHASE);
    assert_true(t_in_hand(&st, 0, l2));
    assert_false(t_known(&st, 0, l2));
    assert_int_equal(st.pl[0].hidden_levels, 1);
    t_play(&st, 0, "take Jordaan A1");
    assert_true(t_known(&st, 0, t_card(&st, "Jordaan A1")));
    assert_int_equal(ch_hand_count(&st, 0), 2);
}

/* Rulebook "Turn option 1" ("if you have 14 cards ... you can only purchase
 * one card"); R-11: still f50. */
static void hand_14_buys_one_R11(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    market5(&st);
    t_hand_fill(&st, 0, 14);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "take Jordaan A1");
    assert_int_equal(ch_hand_count(&st, 0), 15);
    assert_int_equal(st.pl[0].cash, cash - 50);
    assert_int_equal(st.active, 1);
}

/* Rulebook "Turn option 1" ("If you already have 15 cards in your hand, you
 * are unable to purchase"); R-01 hand limit 15. */
static void hand_15_cannot_buy_R11(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    market5(&st);
    t_hand_fill(&st, 0, 15);
    t_valid(&st);
    t_expect_illegal(&st, 0, "draw", "your hand holds 15 cards, the maximum");
    t_expect_illegal(&st, 0, "take Jordaan A1", "your hand holds 15 cards");
    t_expect_illegal(&st, 0, "refresh", "your hand holds 15 cards");
    assert_int_equal(t_count_type(&st, 0, CH_M_DRAW) + t_count_type(&st, 0, CH_M_TAKE) +
                         t_count_type(&st, 0, CH_M_REFRESH), 0);
    assert_true(t_legal(&st, 0, "pass"));
}

/* Rulebook "Refreshing the open market"; R-12: f100 in all; the market goes
 * back into the deck, five new cards are dealt, then up to two cards are
 * taken without paying again. */
static void refresh_f100_then_two_cards_R12(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    market5(&st);
    int ndeck = st.ndeck;
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "refresh");
    assert_int_equal(st.pl[0].cash, cash - 100);
    assert_int_equal(st.phase, CH_PH_PURCHASE);
    assert_int_equal(st.ndeck, ndeck);
    for (int i = 0; i < 5; i++)
        assert_int_not_equal(st.market[i], CH_NONE);
    t_play(&st, 0, "draw");
    t_play(&st, 0, "draw");
    assert_int_equal(st.pl[0].cash, cash - 100);
    assert_int_equal(ch_hand_count(&st, 0), 2);
    assert_int_equal(st.active, 1);
}

/* R-12 ("and may take only one card and stop"). */
static void refresh_one_card_and_done_R12(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    market5(&st);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "refresh");
    t_play(&st, 0, "draw");
    t_play(&st, 0, "done");
    assert_int_equal(st.pl[0].cash, cash - 100);
    assert_int_equal(ch_hand_count(&st, 0), 1);
    assert_int_equal(st.active, 1);
}

/* a purchase needs the cash: f40 cannot buy (f50), f90 cannot refresh
 * (f100) but can buy. */
static void purchase_needs_cash_R06(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    market5(&st);
    t_cash(&st, 0, 40);
    t_expect_illegal(&st, 0, "draw", "it costs f50 and you have f40");
    t_cash(&st, 0, 90);
    t_expect_illegal(&st, 0, "refresh", "it costs f100 and you have f90");
    assert_true(t_legal(&st, 0, "draw"));
}

/* R-11 ("when the deck is empty, the market shrinks instead"). */
static void market_shrinks_when_deck_empty_R11(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    market5(&st);
    t_deck_keep(&st, 1);
    int last = st.deck[0];
    t_valid(&st);
    t_play(&st, 0, "take Jordaan A1");
    t_play(&st, 0, "take Jordaan B1");
    assert_int_equal(st.ndeck, 0);
    assert_int_equal(st.market[0], last);
    assert_int_equal(st.market[1], CH_NONE);
    t_expect_illegal(&st, 1, "draw", "the deck is empty");
    assert_true(t_legal(&st, 1, "take Jordaan C1"));
}

/* ---- trading after a build ----------------------------------------------------------- */

/* Tea f120 and Coal f40 on the chart; P1 holds Canal Ring C3 (a lone plot). */
static void trade_table(ch_state *st)
{
    table(st, 3);
    t_company2(st, TEA, 120, "Jordaan A1", "Jordaan B1");
    t_company2(st, COAL, 40, "Jordaan E4", "Jordaan F4");
    t_give(st, 0, "Canal Ring C3");
    t_valid(st);
}

/* Rulebook "Stock trading" ("the minimum value of a stock is f50 ... you still
 * have to pay the minimum"); R-28: each buy costs max(f50, value); two
 * transactions end the turn; Rulebook "D." trading after a lone build. */
static void trade_two_buys_max50_R28(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Canal Ring C3");
    t_play(&st, 0, "buy Tea");
    assert_int_equal(st.pl[0].cash, cash - 120);
    assert_int_equal(st.phase, CH_PH_TRADE);
    t_play(&st, 0, "buy Coal");
    assert_int_equal(st.pl[0].cash, cash - 120 - 50);
    assert_int_equal(st.pl[0].stock[TEA], 1);
    assert_int_equal(st.pl[0].stock[COAL], 1);
    assert_int_equal(st.co[TEA].bank, 8);
    assert_int_equal(st.co[COAL].bank, 8);
    assert_int_equal(st.co[TEA].value, 120); /* "Buying ... does not change the value" */
    assert_int_equal(st.active, 1);
}

/* Rulebook "Stock trading" ("sell two of your own stocks, or buy one and sell
 * one"); R-28: a sale pays the value. */
static void trade_sell_and_buy_R28(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_stock(&st, 0, TEA, 2);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Canal Ring C3");
    t_play(&st, 0, "sell Tea");
    assert_int_equal(st.pl[0].cash, cash + 120);
    assert_int_equal(st.co[TEA].bank, 8);
    t_play(&st, 0, "buy Coal");
    assert_int_equal(st.pl[0].cash, cash + 120 - 50);
    assert_int_equal(st.active, 1);
}

/* R-28 ("Only companies on the chart can be traded"). */
static void trade_only_on_chart_R28(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_play(&st, 0, "play Canal Ring C3");
    t_expect_illegal(&st, 0, "buy Sugar", "Sugar is not on the stock chart");
}

/* Rulebook "Stock trading" ("When you found a new company ... purchase up to
 * two stocks in the newly founded company at its true value"); R-28: Coal
 * founded at f20 costs f20; Tea f30 still costs f50. */
static void founders_discount_R28(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    t_company2(&st, TEA, 30, "Jordaan A1", "Jordaan B1");
    t_put(&st, "Harbour A1", 1);
    t_give(&st, 0, "Harbour B1");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour B1");
    t_play(&st, 0, "found Coal");
    t_play(&st, 0, "buy Coal");
    assert_int_equal(st.pl[0].cash, cash + 20 - 20);
    t_play(&st, 0, "buy Tea");
    assert_int_equal(st.pl[0].cash, cash + 20 - 20 - 50);
}

/* Rulebook "Stock trading" ("only on this turn"): a turn later Coal at f20
 * costs the minimum f50. */
static void founders_discount_only_that_turn_R28(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2);
    t_put(&st, "Harbour A1", 1);
    t_give(&st, 0, "Harbour B1");
    t_give(&st, 0, "Canal Ring C3");
    t_play(&st, 0, "play Harbour B1");
    t_play(&st, 0, "found Coal");
    t_play(&st, 0, "done");
    t_play(&st, 1, "pass");
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Canal Ring C3");
    t_play(&st, 0, "buy Coal");
    assert_int_equal(st.pl[0].cash, cash - 50);
}

/* ---- action cards -------------------------------------------------------------------- */

/* Rulebook "Action cards", "1) Broken roofs"; R-30: instead of trading, f100
 * and an action card buy a broken roof; the turn ends; several roofs may be
 * held. */
static void action_roof_R30(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_roofs(&st, 0, 1);
    int32_t cash = st.pl[0].cash;
    int64_t bank = st.bank_net;
    t_play(&st, 0, "play Canal Ring C3");
    t_play(&st, 0, "action roof");
    assert_int_equal(st.pl[0].cash, cash - 100);
    assert_int_equal(st.bank_net, bank + 100);
    assert_int_equal(st.pl[0].actions, 1);
    assert_int_equal(st.pl[0].roofs, 2);
    assert_int_equal(st.roofs_left, 8);
    assert_int_equal(st.active, 1);
}

/* Rulebook "2) Stock events" ("immediately (on that turn) activate a stock
 * event"); R-30: the player chooses an event at once, then the turn ends. */
static void action_event_R30(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_event_open(&st, 0, CH_EV_COOPMANSCAPPEN);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Canal Ring C3");
    t_play(&st, 0, "action event");
    assert_int_equal(st.phase, CH_PH_EVENT);
    assert_int_equal(t_decider(&st), 0);
    assert_int_equal(st.pl[0].cash, cash - 100);
    assert_int_equal(st.pl[0].actions, 1);
    t_play(&st, 0, "event Coopmanscappen");
    assert_int_equal(st.phase, CH_PH_COOP);
    t_play(&st, 0, "done");
    assert_int_equal(st.active, 1);
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.nev_discard, 1);
}

/* Rulebook "Action cards" ("If you have used both action cards, you cannot pay
 * for a third action"). */
static void action_two_per_player(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    st.pl[0].actions = 0;
    t_play(&st, 0, "play Canal Ring C3");
    t_expect_illegal(&st, 0, "action roof", "you have used both action cards");
    t_expect_illegal(&st, 0, "action event", "you have used both action cards");
}

/* Rulebook "Action cards" ("instead of trading stocks"); R-30: not after a
 * trade. */
static void action_instead_of_trading_R30(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_play(&st, 0, "play Canal Ring C3");
    t_play(&st, 0, "buy Tea");
    t_expect_illegal(&st, 0, "action roof", "instead of trading");
}

/* Rulebook "Action cards" ("you have to pay ... f100"); R-06. */
static void action_costs_f100_R06(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_cash(&st, 0, 99);
    t_play(&st, 0, "play Canal Ring C3");
    t_expect_illegal(&st, 0, "action roof", "an action costs f100 and you have f99");
}

/* R-30 ("while any of the 10 remain"): with all roofs taken, only the event. */
static void action_roof_needs_one_left_R30(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_roofs(&st, 2, 10);
    t_play(&st, 0, "play Canal Ring C3");
    t_expect_illegal(&st, 0, "action roof", "no broken roof is left");
    assert_true(t_legal(&st, 0, "action event"));
}

/* ---- turn option 3 ------------------------------------------------------------------- */

/* Rulebook "Turn option 3: Sell up to two stocks" ("sold at the value ...
 * After selling up to two stocks, your turn immediately ends"). */
static void option3_sell_two_R29(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_stock(&st, 0, TEA, 2);
    t_stock(&st, 0, COAL, 1);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "sell Tea");
    assert_int_equal(st.phase, CH_PH_SELL);
    assert_false(t_legal(&st, 0, "play Canal Ring C3"));
    t_play(&st, 0, "sell Coal");
    assert_int_equal(st.pl[0].cash, cash + 120 + 40);
    assert_int_equal(st.co[TEA].bank, 8);
    assert_int_equal(st.co[COAL].bank, 9);
    assert_int_equal(st.active, 1);
}

/* Rulebook "Turn option 3" ("up to two"): one sale, then done. */
static void option3_sell_one_done(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_stock(&st, 0, TEA, 2);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "sell Tea");
    t_play(&st, 0, "done");
    assert_int_equal(st.pl[0].cash, cash + 120);
    assert_int_equal(st.pl[0].stock[TEA], 1);
    assert_int_equal(st.active, 1);
    assert_int_equal(st.passes, 0);
}

/* turn option 3 selling nothing is the explicit pass, always legal. */
static void option3_pass_R29(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    t_cash(&st, 0, 0);
    int32_t cash = st.pl[0].cash;
    assert_int_equal(ch_hand_count(&st, 0), 0);
    assert_true(t_legal(&st, 0, "pass"));
    t_play(&st, 0, "pass");
    assert_int_equal(st.pl[0].cash, cash);
    assert_int_equal(st.active, 1);
    assert_int_equal(st.passes, 1);
}

/* ---- game end and scoring ------------------------------------------------------------- */

/* Rulebook "Game end" ("When the last warehouse is placed the end of the game
 * is triggered. The active player can finish their turn"); R-49. */
static void game_end_on_62nd_warehouse_R49(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_fill_supply(&st, "Old Side", 20);
    t_fill_supply(&st, "Harbour", 1);
    t_valid(&st);
    t_play(&st, 0, "play Canal Ring C3");
    assert_int_equal(st.supply, 0);
    assert_int_equal(st.end_triggered, 1);
    assert_int_equal(st.phase, CH_PH_TRADE);
    t_play(&st, 0, "buy Tea");
    t_play(&st, 0, "done");
    unsigned mask;
    assert_int_equal(ch_decider(&st, &mask), CH_DEC_TERMINAL);
    assert_int_equal(mask, 0u);
    assert_int_equal(st.phase, CH_PH_OVER);
    ch_move buf[8];
    for (int p = 0; p < 3; p++)
        assert_int_equal(ch_legal(&st, p, buf, 8), 0);
    ch_msg m;
    assert_int_equal(ch_play(&st, 1, "pass", &m), CH_EOVER);
}

/* R-49 ("Levels ... use warehouses from the supply too"): a level card that
 * takes the last warehouse triggers the end. */
static void game_end_by_level_card_R49(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_give(&st, 0, "L2");
    t_fill_supply(&st, "Old Side", 20);
    t_fill_supply(&st, "Harbour", 1);
    t_play(&st, 0, "play L2 Jordaan A1");
    assert_int_equal(st.supply, 0);
    assert_int_equal(st.end_triggered, 1);
    assert_int_equal(st.co[TEA].value, 140);
    t_play(&st, 0, "done");
    assert_int_equal(st.phase, CH_PH_OVER);
}

/* R-49 ("a two-card founding needs two"): with one warehouse left the
 * two-card founding is not legal. */
static void game_end_two_card_needs_two_R49(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    t_give(&st, 0, "Harbour C1");
    t_give(&st, 0, "Harbour D1");
    t_fill_supply(&st, "Old Side", 20);
    t_fill_supply(&st, "Canal Ring", 1);
    t_expect_illegal(&st, 0, "play Harbour C1 + Harbour D1", "fewer than two warehouses");
    assert_true(t_legal(&st, 0, "play Harbour C1"));
}

/* R-49 ("The builder finishes the turn, its event included"); R-34; R-39
 * (the end cancels a pending extra turn): the last warehouse passes f100; the
 * event is resolved (P2 wins Verlappen), then the game ends. */
static void game_end_after_event_R34(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    t_company2(&st, TEA, 90, "Harbour A1", "Harbour B1");
    t_give(&st, 0, "Harbour C1");
    t_fill_supply(&st, "Old Side", 20);
    t_fill_supply(&st, "Canal Ring", 1);
    t_event_open(&st, 0, CH_EV_VERLAPPEN);
    t_play(&st, 0, "play Harbour C1");
    assert_int_equal(st.end_triggered, 1);
    t_play(&st, 0, "done");
    assert_int_equal(st.phase, CH_PH_EVENT);
    t_play(&st, 0, "event Verlappen");
    t_play(&st, 0, "bid f0");
    t_play(&st, 1, "bid f10");
    t_play(&st, 2, "bid f0");
    assert_int_equal(st.phase, CH_PH_OVER);
    assert_int_equal(ch_decider(&st, NULL), CH_DEC_TERMINAL);
}

/* Rulebook "Game end" ("all stocks are sold back to the bank at their current
 * value"); R-49: score = cash + stocks at value; stocks of a company off the
 * chart are worth nothing. */
static void scores_cash_plus_stocks_R49(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_cash(&st, 0, 100);
    t_cash(&st, 1, 200);
    t_cash(&st, 2, 0);
    t_stock(&st, 0, TEA, 2);   /* 2 x f120 */
    t_stock(&st, 0, COAL, 1);  /* f40 */
    t_stock(&st, 2, SUGAR, 5); /* off the chart: f0 */
    t_valid(&st);
    int32_t sc[3];
    unsigned w;
    assert_int_equal(ch_scores(&st, sc, &w), CH_OK);
    assert_int_equal(sc[0], 100 + 240 + 40);
    assert_int_equal(sc[1], 200);
    assert_int_equal(sc[2], 0);
    assert_int_equal(w, 1u);
}

/* Rulebook "Game end" ("If there is a tie, the player with the fewest building
 * cards in their hand wins"); R-49. */
static void scores_tie_fewest_cards_R49(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    t_cash(&st, 0, 250);
    t_cash(&st, 1, 250);
    t_cash(&st, 2, 100);
    t_hand_fill(&st, 0, 3);
    t_hand_fill(&st, 1, 2);
    int32_t sc[3];
    unsigned w;
    ch_scores(&st, sc, &w);
    assert_int_equal(sc[0], 250);
    assert_int_equal(sc[1], 250);
    assert_int_equal(w, 2u);
}

/* Rulebook "Game end" ("If there still is a tie, these players share the
 * victory"); R-49. */
static void scores_shared_win_R49(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    t_cash(&st, 0, 250);
    t_cash(&st, 1, 100);
    t_cash(&st, 2, 250);
    t_hand_fill(&st, 0, 2);
    t_hand_fill(&st, 2, 2);
    int32_t sc[3];
    unsigned w;
    ch_scores(&st, sc, &w);
    assert_int_equal(w, 5u);
}

/* as many consecutive passes as players end the game. */
static void stall_round_of_passes_R51(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3);
    t_play(&st, 0, "pass");
    t_play(&st, 1, "pass");
    assert_int_equal(ch_decider(&st, NULL), CH_DEC_PLAYER);
    assert_int_equal(st.passes, 2);
    t_play(&st, 2, "pass");
    assert_int_equal(ch_decider(&st, NULL), CH_DEC_TERMINAL);
    assert_int_equal(st.phase, CH_PH_OVER);
}

/* R-51 ("consecutive"): a turn that is not a pass resets the count; selling a
 * stock under option 3 is not a pass. */
static void stall_counter_resets_R51(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_stock(&st, 2, TEA, 1);
    t_play(&st, 0, "pass");
    t_play(&st, 1, "pass");
    t_play(&st, 2, "sell Tea");
    t_play(&st, 2, "done");
    assert_int_equal(st.passes, 0);
    t_play(&st, 0, "pass");
    t_play(&st, 1, "pass");
    assert_int_equal(ch_decider(&st, NULL), CH_DEC_PLAYER);
    t_play(&st, 2, "pass");
    assert_int_equal(ch_decider(&st, NULL), CH_DEC_TERMINAL);
}

/* R-50, R-51 (RULINGS.md "Stall": "If a whole round passes with every player
 * passing"; issue 29): a player who passes in their turn and again in their
 * Verlappen extra turn is one player passing, not a round; the game goes on
 * until the other player has passed too. */
static void stall_extra_turn_is_one_player_R51(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2);
    st.pl[0].extra_armed = 1; /* P1's turn now is the one the extra turn follows */
    t_valid(&st);
    t_play(&st, 0, "pass");
    assert_int_equal(st.active, 0);
    assert_int_equal(st.extra_turn, 1);
    assert_int_equal(st.passes, 1);
    t_play(&st, 0, "pass");
    assert_int_equal(ch_decider(&st, NULL), CH_DEC_PLAYER);
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.active, 1);
    assert_int_equal(st.passes, 1);
    t_play(&st, 1, "pass");
    assert_int_equal(ch_decider(&st, NULL), CH_DEC_TERMINAL);
}

/* an extra turn that follows a turn that was not a pass counts its
 * pass like any turn (the round starts there). */
static void stall_extra_turn_after_a_move_R51(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_stock(&st, 0, TEA, 1);
    st.pl[0].extra_armed = 1;
    t_valid(&st);
    t_play(&st, 0, "sell Tea");
    t_play(&st, 0, "done");
    assert_int_equal(st.extra_turn, 1);
    assert_int_equal(st.passes, 0);
    t_play(&st, 0, "pass");
    assert_int_equal(st.passes, 1);
    t_play(&st, 1, "pass");
    assert_int_equal(st.passes, 2);
    assert_int_equal(ch_decider(&st, NULL), CH_DEC_PLAYER);
    t_play(&st, 2, "pass");
    assert_int_equal(ch_decider(&st, NULL), CH_DEC_TERMINAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(purchase_two_cards_f50_R11),
        cmocka_unit_test(market_refilled_at_end_of_turn_R11),
        cmocka_unit_test(market_level_card_alone_R11),
        cmocka_unit_test(market_levels_lowest_listed_R11),
        cmocka_unit_test(deck_level_card_hidden_R10),
        cmocka_unit_test(hand_14_buys_one_R11),
        cmocka_unit_test(hand_15_cannot_buy_R11),
        cmocka_unit_test(refresh_f100_then_two_cards_R12),
        cmocka_unit_test(refresh_one_card_and_done_R12),
        cmocka_unit_test(purchase_needs_cash_R06),
        cmocka_unit_test(market_shrinks_when_deck_empty_R11),
        cmocka_unit_test(trade_two_buys_max50_R28),
        cmocka_unit_test(trade_sell_and_buy_R28),
        cmocka_unit_test(trade_only_on_chart_R28),
        cmocka_unit_test(founders_discount_R28),
        cmocka_unit_test(founders_discount_only_that_turn_R28),
        cmocka_unit_test(action_roof_R30),
        cmocka_unit_test(action_event_R30),
        cmocka_unit_test(action_two_per_player),
        cmocka_unit_test(action_instead_of_trading_R30),
        cmocka_unit_test(action_costs_f100_R06),
        cmocka_unit_test(action_roof_needs_one_left_R30),
        cmocka_unit_test(option3_sell_two_R29),
        cmocka_unit_test(option3_sell_one_done),
        cmocka_unit_test(option3_pass_R29),
        cmocka_unit_test(game_end_on_62nd_warehouse_R49),
        cmocka_unit_test(game_end_by_level_card_R49),
        cmocka_unit_test(game_end_two_card_needs_two_R49),
        cmocka_unit_test(game_end_after_event_R34),
        cmocka_unit_test(scores_cash_plus_stocks_R49),
        cmocka_unit_test(scores_tie_fewest_cards_R49),
        cmocka_unit_test(scores_shared_win_R49),
        cmocka_unit_test(stall_round_of_passes_R51),
        cmocka_unit_test(stall_extra_turn_is_one_player_R51),
        cmocka_unit_test(stall_extra_turn_after_a_move_R51),
        cmocka_unit_test(stall_counter_resets_R51),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
