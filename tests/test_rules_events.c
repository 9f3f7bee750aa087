/* test_rules_events.c: stock events (docs/rules.md "Stock events" and its
 * subsections; Rulebook "Stock events", "Bidding mechanism", "Auction
 * mechanism", the five cards, "Action cards, 2) Stock events"; Rulings R-30,
 * In the standard position the active player's build on
 * Harbour C1 takes Tea from f90 to f100, passing the f100 line; the event is
 * chosen after trading, at the end of the turn. */
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

/* Tea f90 on Harbour A1-B1 (HQ A1), Coal f40 on Jordaan E4-F4; the active
 * player holds Harbour C1. */
static void ev_table(ch_state *st, int np, int active)
{
    t_new(st, np, "standard", 44);
    t_clear(st);
    t_company2(st, TEA, 90, "Harbour A1", "Harbour B1");
    t_company2(st, COAL, 40, "Jordaan E4", "Jordaan F4");
    t_give(st, active, "Harbour C1");
    t_turn(st, active);
    t_valid(st);
}

/* Build C1 (Tea f100) and end the trading: the turn's event is chosen now. */
static void to_event(ch_state *st)
{
    int p = st->active;
    t_play(st, p, "play Harbour C1");
    t_play(st, p, "done");
    assert_int_equal(st->phase, CH_PH_EVENT);
    assert_int_equal(t_decider(st), p);
}

/* Open the event of this kind (slot 0) and choose it. */
static void choose(ch_state *st, int kind)
{
    char mv[48];
    t_event_open(st, 0, kind);
    snprintf(mv, sizeof mv, "event %s", ch_event_name(kind));
    t_play(st, st->active, mv);
}

static void bids(ch_state *st, int b0, int b1, int b2)
{
    char mv[32];
    int b[3] = {b0, b1, b2};
    for (int p = 0; p < 3; p++)
        if (b[p] >= 0) {
            snprintf(mv, sizeof mv, "bid f%d", b[p]);
            t_play(st, p, mv);
        }
}

/* ---- triggering and choosing --------------------------------------------------------- */

/* Rulebook "Stock events" ("they only decide on the event ... at the end of
 * their turn"): the line passed at f100 makes an event due; the
 * player trades first; at the end of the turn the market is refilled, then
 * the event is chosen. */
static void event_at_end_of_turn_R32_R33(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    int ndeck = st.ndeck;
    t_play(&st, 0, "play Harbour C1");
    assert_int_equal(st.co[TEA].value, 100);
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.event_due, 1);
    t_play(&st, 0, "buy Tea");
    t_play(&st, 0, "done");
    assert_int_equal(st.phase, CH_PH_EVENT);
    assert_int_equal(st.active, 0);
    for (int i = 0; i < 5; i++)
        assert_int_not_equal(st.market[i], CH_NONE);
    assert_int_equal(st.ndeck, ndeck - 5);
}

/* Rulebook "Stock events" ("whenever a company grows and passes a line");
 * f80 -> f90 passes no line: no event, the next player moves. */
static void no_event_below_line_R32(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    st.co[TEA].value = 80;
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "done");
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.active, 1);
}

/* R-32 ("rises from below L to L or more"): f100 -> f110 starts on the line
 * and passes none. */
static void no_event_from_the_line_R32(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    st.co[TEA].value = 100;
    t_play(&st, 0, "play Harbour C1");
    assert_int_equal(st.co[TEA].value, 110);
    assert_int_equal(st.event_due, 0);
    t_play(&st, 0, "done");
    assert_int_equal(st.active, 1);
}

/* the stock chart's event lines lie at f100, f150, f200, f250 and f300:
 * a +f10 build reaching one of them makes an event due; reaching any other
 * value of the chart does not. */
static void event_lines_R05(void **s)
{
    (void)s;
    for (int to = 30; to <= 300; to += 10) {
        ch_state st;
        ev_table(&st, 3, 0);
        st.co[TEA].value = (int16_t)(to - 10);
        t_play(&st, 0, "play Harbour C1");
        assert_int_equal(st.co[TEA].value, to);
        int line = to == 100 || to == 150 || to == 200 || to == 250 || to == 300;
        if (st.event_due != line)
            fail_msg("f%d -> f%d: event due %d, expected %d", to - 10, to, st.event_due, line);
    }
}

/* Rulebook "Merging multiple companies" ("one event is dealt with"); R-32: a
 * merger that passes f100, f150 and f200 triggers one event only. */
static void one_event_per_turn_R32(void **s)
{
    (void)s;
    ch_state st;
    t_new(&st, 3, "standard", 45);
    t_clear(&st);
    t_company2(&st, GUNPOWDER, 90, "Harbour A1", "Harbour B1");
    t_company2(&st, COAL, 110, "Harbour E1", "Harbour D1");
    t_give(&st, 0, "Harbour C1");
    t_turn(&st, 0);
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "credit Gunpowder");
    assert_int_equal(st.co[COAL].value, 210);
    t_play(&st, 0, "done");
    assert_int_equal(st.phase, CH_PH_EVENT);
    choose(&st, CH_EV_COOPMANSCAPPEN);
    t_play(&st, 0, "done");
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.active, 1);
}

/* Rulebook "Stock events" ("decide if one of the open stock events is used, or
 * if the event is drawn from the stock event deck"): the choices are the open
 * kinds and the deck. */
static void event_choices_open_or_deck(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_event_open(&st, 0, CH_EV_VERLAPPEN);
    t_event_open(&st, 1, CH_EV_DREIGHINGHE);
    t_event_open(&st, 2, CH_EV_VEILINGE);
    to_event(&st);
    assert_int_equal(t_count_type(&st, 0, CH_M_EVENT), 4);
    assert_true(t_legal(&st, 0, "event Verlappen"));
    assert_true(t_legal(&st, 0, "event Dreighinghe"));
    assert_true(t_legal(&st, 0, "event Veilinge"));
    assert_true(t_legal(&st, 0, "event deck"));
    assert_false(t_legal(&st, 0, "event Coopmanscappen"));
}

/* Rulebook "Stock events" ("the event card is discarded ... If the chosen
 * event was from the open stock events, there is a new event card drawn to
 * replace it"). */
static void open_event_replaced_from_deck(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_event_open(&st, 1, CH_EV_COOPMANSCAPPEN);
    t_event_open(&st, 0, CH_EV_VERLAPPEN);
    t_event_open(&st, 2, CH_EV_VERLAPPEN);
    t_event_top(&st, CH_EV_VEILINGE);
    int nd = st.nev_deck;
    to_event(&st);
    t_play(&st, 0, "event Coopmanscappen");
    assert_int_equal(st.phase, CH_PH_COOP);
    t_play(&st, 0, "done");
    assert_int_equal(st.ev_open[1], CH_EV_VEILINGE);
    assert_int_equal(st.nev_deck, nd - 1);
    assert_int_equal(st.nev_discard, 1);
    assert_int_equal(st.ev_discard[0], CH_EV_COOPMANSCAPPEN);
}

/* Rulebook "Stock events" ("or draw the top one card from the stock event
 * deck"): the deck's top card is resolved and discarded; the open cards stay. */
static void event_from_deck_top(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_event_top(&st, CH_EV_COOPMANSCAPPEN);
    uint8_t open[3];
    memcpy(open, st.ev_open, 3);
    int nd = st.nev_deck;
    to_event(&st);
    t_play(&st, 0, "event deck");
    assert_int_equal(st.phase, CH_PH_COOP);
    t_play(&st, 0, "done");
    assert_memory_equal(st.ev_open, open, 3);
    assert_int_equal(st.nev_deck, nd - 1);
    assert_int_equal(st.ev_discard[st.nev_discard - 1], CH_EV_COOPMANSCAPPEN);
}

/* Rulebook "Stock events" ("If the event card deck runs out, shuffle the
 * discard pile to form a new deck"). */
static void event_deck_reshuffled(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_event_open(&st, 0, CH_EV_COOPMANSCAPPEN);
    memcpy(st.ev_discard, st.ev_deck, st.nev_deck);
    st.nev_discard = st.nev_deck;
    st.nev_deck = 0;
    t_valid(&st);
    to_event(&st);
    t_play(&st, 0, "event Coopmanscappen");
    t_play(&st, 0, "done");
    assert_int_not_equal(st.ev_open[0], CH_NONE);
    assert_int_equal(st.nev_discard, 0);
    assert_int_equal(st.nev_deck, 12);
    t_valid(&st);
}

/* Rulebook "Action cards, 2)"; R-30: the action card's event comes at once and
 * on top of the event the build's line triggered, which follows at the end of
 * the turn. */
static void action_event_plus_line_event_R30(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_event_open(&st, 0, CH_EV_COOPMANSCAPPEN);
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "action event");
    t_play(&st, 0, "event Coopmanscappen");
    t_play(&st, 0, "done");
    assert_int_equal(st.phase, CH_PH_EVENT);
    assert_int_equal(st.active, 0);
    assert_int_equal(st.nev_discard, 1);
}

/* ---- sealed bids ----------------------------------------------------------------------- */

/* Rulebook "Bidding mechanism" ("All players then simultaneously show their
 * bid"): every player bids privately, in any order, once, whole
 * florins from f0 to their cash. */
static void sealed_bids_simultaneous_R35(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VERLAPPEN);
    unsigned mask;
    assert_int_equal(ch_decider(&st, &mask), CH_DEC_SIMULTANEOUS);
    assert_int_equal(mask, 7u);
    t_play(&st, 2, "bid f10");
    assert_int_equal(ch_decider(&st, &mask), CH_DEC_SIMULTANEOUS);
    assert_int_equal(mask, 3u);
    assert_int_equal(st.bid_revealed, 0);
    ch_msg m;
    assert_int_equal(ch_play(&st, 2, "bid f20", &m), CH_ETURN);
    assert_non_null(strstr(m.text, "already made your sealed bid"));
    assert_int_equal(st.pl[0].cash, 400);
    assert_int_equal(ch_play(&st, 0, "bid f401", &m), CH_EILLEGAL);
    assert_true(t_legal(&st, 0, "bid f400"));
    assert_true(t_legal(&st, 0, "bid f0"));
    assert_int_equal(t_count_type(&st, 1, CH_M_BID), 301);
}

/* Rulebook "Verlappen" ("This bid is paid to the bank, the others keep their
 * bid"): the highest bidder pays and wins the extra turn. */
static void verlappen_highest_pays_R38(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VERLAPPEN);
    int64_t bank = st.bank_net;
    bids(&st, 30, 50, 0);
    assert_int_equal(st.pl[0].cash, 400);
    assert_int_equal(st.pl[1].cash, 250);
    assert_int_equal(st.pl[2].cash, 300);
    assert_int_equal(st.bank_net, bank + 50);
    /* P2 moves next: that is "their next turn", armed for the extra turn */
    assert_int_equal(st.active, 1);
    assert_int_equal(st.pl[1].extra_armed, 1);
}

/* Rulebook "Verlappen" ("a second turn right after their next turn"); R-38,
 * P2 wins in P1's turn; P2's next turn comes at once and is followed by
 * the extra turn; then P3. */
static void verlappen_extra_turn_after_next_R39(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VERLAPPEN);
    bids(&st, 0, 10, 0);
    assert_int_equal(st.active, 1);
    assert_int_equal(st.extra_turn, 0);
    t_play(&st, 1, "draw");
    t_play(&st, 1, "draw");
    assert_int_equal(st.active, 1);
    assert_int_equal(st.extra_turn, 1);
    t_play(&st, 1, "draw");
    t_play(&st, 1, "draw");
    assert_int_equal(st.active, 2);
    assert_int_equal(st.extra_turn, 0);
}

/* the active player wins Verlappen: the extra turn follows their next
 * turn, not the current one: P2, P3, P1, P1 again, P2. */
static void verlappen_won_by_active_R39(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VERLAPPEN);
    bids(&st, 10, 0, 0);
    int order[] = {1, 2, 0, 0, 1};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(st.active, order[i]);
        assert_int_equal(st.extra_turn, i == 3);
        t_play(&st, order[i], "draw");
        t_play(&st, order[i], "draw");
    }
}

/* Rulebook "Bidding mechanism" ("If there is a tie for the win, these players
 * pay their bid to the bank and only these tied players bid again"); R-35. */
static void bid_tie_pay_and_rebid_R35(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VERLAPPEN);
    bids(&st, 40, 40, 10);
    assert_int_equal(st.phase, CH_PH_BID);
    assert_int_equal(st.pl[0].cash, 360);
    assert_int_equal(st.pl[1].cash, 260);
    assert_int_equal(st.pl[2].cash, 300);
    unsigned mask;
    ch_decider(&st, &mask);
    assert_int_equal(mask, 3u);
    ch_msg m;
    assert_int_equal(ch_play(&st, 2, "bid f5", &m), CH_ETURN);
    bids(&st, 41, 50, -1);
    assert_int_equal(st.pl[0].cash, 360);
    assert_int_equal(st.pl[1].cash, 210);
    assert_int_equal(st.pl[1].extra_armed, 1);
    assert_int_equal(st.pl[0].extra_pending | st.pl[0].extra_armed, 0);
}

/* R-36 ("This continues until there is a winner"): a rebid tied again goes
 * to another round, each paid, and each rebid must beat the last tie. */
static void bid_rebid_tie_continues_R36(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VERLAPPEN);
    bids(&st, 20, 20, 0);
    bids(&st, 30, 30, -1);
    assert_int_equal(st.phase, CH_PH_BID);
    assert_int_equal(st.bid_round, 2);
    assert_int_equal(ch_bid_min(&st, 0), 31);
    bids(&st, 45, 31, -1);
    assert_int_equal(st.pl[0].cash, 400 - 20 - 30 - 45);
    assert_int_equal(st.pl[1].cash, 300 - 20 - 30);
    assert_int_equal(st.pl[0].extra_pending, 1);
}

/* Rulebook "Bidding mechanism" ("only these tied players bid again. This
 * continues until there is a winner"); R-36 (issue 29): players tied at f0
 * who still hold cash are not decided by seat order; their rebid must be
 * more than the tied f0. In Dreighinghe with P2 active, P1 and P3 tie for
 * the lowest at f0: f0 is refused in the rebid, and the lower rebid loses. */
static void bid_zero_tie_with_cash_rebids_R36(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 1);
    t_stock(&st, 0, COAL, 2);
    t_stock(&st, 2, COAL, 2);
    to_event(&st);
    choose(&st, CH_EV_DREIGHINGHE);
    assert_int_equal(ch_bid_min(&st, 0), 0);
    bids(&st, 0, 10, 0);
    assert_int_equal(st.phase, CH_PH_BID);
    unsigned mask;
    ch_decider(&st, &mask);
    assert_int_equal(mask, 5u);
    assert_int_equal(ch_bid_min(&st, 0), 1);
    assert_int_equal(ch_bid_min(&st, 2), 1);
    t_expect_illegal(&st, 0, "bid f0", "more than the tied f0");
    t_expect_illegal(&st, 2, "bid f0", "more than the tied f0");
    assert_false(t_legal(&st, 0, "bid f0"));
    assert_true(t_legal(&st, 0, "bid f1"));
    bids(&st, 1, -1, 1);
    assert_int_equal(st.phase, CH_PH_BID);
    assert_int_equal(st.bid_round, 2);
    t_expect_illegal(&st, 0, "bid f1", "more than the tied f1");
    bids(&st, 7, -1, 2);
    assert_int_equal(st.phase, CH_PH_LOSE);
    assert_int_equal(t_decider(&st), 2);
    assert_int_equal(st.pl[0].cash, 300 - 1 - 7);
    assert_int_equal(st.pl[2].cash, 300 - 1 - 2);
}

/* a tied player who cannot pay more than the tied amount may bid
 * anything up to their cash; one who can must beat it, and wins. */
static void bid_rebid_short_of_cash_R36(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VERLAPPEN);
    t_cash(&st, 1, 80);
    bids(&st, 40, 40, 0);
    assert_int_equal(st.pl[1].cash, 40);
    assert_int_equal(ch_bid_min(&st, 0), 41);
    assert_int_equal(ch_bid_min(&st, 1), 0);
    assert_true(t_legal(&st, 1, "bid f0"));
    assert_true(t_legal(&st, 1, "bid f40"));
    assert_false(t_legal(&st, 1, "bid f41"));
    assert_false(t_legal(&st, 0, "bid f40"));
    bids(&st, 41, 40, -1);
    assert_int_equal(st.pl[0].extra_pending, 1);
    assert_int_equal(st.pl[0].cash, 400 - 40 - 41);
}

/* only tied players with no cash left are decided by seat order,
 * clockwise from the active player, at once (a rebid could only tie at f0
 * again). In Dreighinghe with P2 active, P1 and P3 hold f0 and tie at f0:
 * P3 comes first clockwise from P2 and loses the stocks. */
static void bid_tie_without_cash_clockwise_R36(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 1);
    t_stock(&st, 0, COAL, 2);
    t_stock(&st, 2, COAL, 2);
    to_event(&st);
    choose(&st, CH_EV_DREIGHINGHE);
    t_cash(&st, 0, 0);
    t_cash(&st, 2, 0);
    bids(&st, 0, 10, 0);
    assert_int_equal(st.phase, CH_PH_LOSE);
    assert_int_equal(t_decider(&st), 2);
    assert_int_equal(st.pl[1].cash, 400 - 10);
}

/* Every tie is paid and the tied players bid again: a tie at f40 that takes
 * all the tied players' cash leaves nothing to bid, so seat order decides
 * (Verlappen, P1 active: P1 first). */
static void bid_tie_spending_all_clockwise_R36(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VERLAPPEN);
    t_cash(&st, 0, 40);
    t_cash(&st, 1, 40);
    bids(&st, 40, 40, 10);
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.pl[0].cash, 0);
    assert_int_equal(st.pl[1].cash, 0);
    assert_int_equal(st.pl[0].extra_pending, 1);
    assert_int_equal(st.pl[1].extra_pending | st.pl[1].extra_armed, 0);
}

/* ch_bid_min on a state edited by hand with a negative tied amount (JSON
 * may hold one): the lowest bid stays f0, and every listed bid is legal. */
static void bid_min_never_negative_R36(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VERLAPPEN);
    st.bid_round = 1;
    st.au_high = -5;
    assert_int_equal(ch_bid_min(&st, 0), 0);
    ch_move mv[8];
    assert_true(ch_legal(&st, 0, mv, 8) > 0);
    assert_int_equal(mv[0].n, 0);
    ch_msg m;
    assert_int_equal(ch_check(&st, 0, mv[0], &m), CH_OK);
    assert_int_equal(ch_bid_min(NULL, 0), 0);
    assert_int_equal(ch_bid_min(&st, 7), 0);
}

/* Bidding always ends (R-36, issue 29): every way two or three players with
 * f0 to f3 (f2 with three) can bid in Verlappen and Dreighinghe, round after
 * round, reaches a result within 2 x (their cash) + 2 rounds, and a tie
 * decided without a rebid is one among players who have no cash left. */
static long bid_tree(const ch_state *st, int bound, int *deepest)
{
    if (st->phase != CH_PH_BID)
        return 1;
    assert_true(st->bid_round <= bound);
    if (st->bid_round > *deepest)
        *deepest = st->bid_round;
    unsigned mask;
    ch_decider(st, &mask);
    int p = __builtin_ctz(mask);
    ch_move mv[64];
    int n = ch_legal(st, p, mv, 64);
    assert_true(n > 0 && n <= 64);
    long leaves = 0;
    for (int i = 0; i < n; i++) {
        ch_state nx = *st;
        ch_msg m;
        assert_int_equal(ch_apply(&nx, p, mv[i], &m), CH_OK);
        if (nx.phase != CH_PH_BID || nx.bid_round != st->bid_round) {
            /* the round was resolved: a tie for the winning place decided
             * without a rebid needs every tied player without cash */
            int lowest = st->ev_kind == CH_EV_DREIGHINGHE, best = lowest ? 1 << 30 : -1;
            int32_t b[CH_MAX_PLAYERS];
            for (int q = 0; q < st->nplayers; q++) {
                b[q] = q == p ? mv[i].n : st->bid[q];
                if ((st->bid_mask >> q & 1) && (lowest ? b[q] < best : b[q] > best))
                    best = b[q];
            }
            int tied = 0, broke = 1;
            for (int q = 0; q < st->nplayers; q++)
                if ((st->bid_mask >> q & 1) && b[q] == best) {
                    tied++;
                    broke &= nx.pl[q].cash == 0;
                }
            if (tied > 1 && nx.phase != CH_PH_BID)
                assert_true(broke);
        }
        leaves += bid_tree(&nx, bound, deepest);
    }
    return leaves;
}

static void bidding_always_ends_R36(void **s)
{
    (void)s;
    const int kinds[2] = {CH_EV_VERLAPPEN, CH_EV_DREIGHINGHE};
    long total = 0;
    int deepest = 0;
    for (int np = 2; np <= 3; np++) {
        int top = np == 2 ? 3 : 2;
        for (int k = 0; k < 2; k++)
            for (int code = 0; code < (np == 2 ? 16 : 27); code++) {
                ch_state st;
                ev_table(&st, np, 0);
                to_event(&st);
                choose(&st, kinds[k]);
                int sum = 0;
                for (int q = 0, c = code; q < np; q++, c /= top + 1) {
                    t_cash(&st, q, c % (top + 1));
                    sum += c % (top + 1);
                }
                t_valid(&st);
                total += bid_tree(&st, 2 * sum + 2, &deepest);
            }
    }
    assert_true(total > 1000);
    assert_true(deepest >= 2); /* the tree does reach repeated rebids */
}

/* ---- the bidding cards ------------------------------------------------------------------ */

/* Rulebook "Aenleggen" ("receives the top level card from the stock-chart
 * level deck"); R-10: the winner pays; the card is hidden (known only to be a
 * level card); the reserve shrinks. */
static void aenleggen_top_level_card_R10(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_reserve(&st, "L2");
    t_reserve(&st, "L3");
    int top = st.reserve[1];
    to_event(&st);
    choose(&st, CH_EV_AENLEGGEN);
    bids(&st, 0, 20, 10);
    assert_true(t_in_hand(&st, 1, top));
    assert_false(t_known(&st, 1, top));
    assert_int_equal(st.pl[1].hidden_levels, 1);
    assert_int_equal(st.nreserve, 1);
    assert_int_equal(st.pl[1].cash, 280);
    assert_int_equal(st.pl[2].cash, 300);
    assert_int_equal(st.active, 1);
}

/* with the level reserve empty, an open Aenleggen cannot be chosen. */
static void aenleggen_empty_reserve_not_chosen_R40(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    assert_int_equal(st.nreserve, 0);
    t_event_open(&st, 0, CH_EV_AENLEGGEN);
    t_event_open(&st, 1, CH_EV_VERLAPPEN);
    t_event_open(&st, 2, CH_EV_VERLAPPEN);
    to_event(&st);
    assert_false(t_legal(&st, 0, "event Aenleggen"));
    assert_int_equal(t_count_type(&st, 0, CH_M_EVENT), 2);
}

/* drawn from the deck with an empty reserve, Aenleggen does nothing. */
static void aenleggen_from_deck_does_nothing_R40(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_event_top(&st, CH_EV_AENLEGGEN);
    to_event(&st);
    int32_t cash[3] = {st.pl[0].cash, st.pl[1].cash, st.pl[2].cash};
    t_play(&st, 0, "event deck");
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.active, 1);
    assert_int_equal(st.ev_discard[st.nev_discard - 1], CH_EV_AENLEGGEN);
    for (int p = 0; p < 3; p++)
        assert_int_equal(st.pl[p].cash, cash[p]);
}

/* a winner holding 15 cards pays, but the card stays in the reserve. */
static void aenleggen_full_hand_pays_R41(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_reserve(&st, "L2");
    t_hand_fill(&st, 1, 15);
    to_event(&st);
    choose(&st, CH_EV_AENLEGGEN);
    bids(&st, 0, 20, 0);
    assert_int_equal(st.pl[1].cash, 280);
    assert_int_equal(st.nreserve, 1);
    assert_int_equal(ch_hand_count(&st, 1), 15);
}

/* Rulebook "Dreighinghe" ("The player with the lowest bid loses two stocks of
 * their own choice. All players pay their bid"); R-42: the stocks return to
 * the bank. */
static void dreighinghe_all_pay_lowest_loses_two_R42(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_stock(&st, 2, TEA, 1);
    t_stock(&st, 2, COAL, 2);
    to_event(&st);
    choose(&st, CH_EV_DREIGHINGHE);
    int64_t bank = st.bank_net;
    bids(&st, 30, 20, 10);
    assert_int_equal(st.bank_net, bank + 60);
    assert_int_equal(st.pl[0].cash, 370);
    assert_int_equal(st.pl[1].cash, 280);
    assert_int_equal(st.pl[2].cash, 290);
    assert_int_equal(st.phase, CH_PH_LOSE);
    assert_int_equal(t_decider(&st), 2);
    t_play(&st, 2, "lose Coal");
    t_play(&st, 2, "lose Tea");
    assert_int_equal(st.pl[2].stock[TEA], 0);
    assert_int_equal(st.pl[2].stock[COAL], 1);
    assert_int_equal(st.co[TEA].bank, 9);
    assert_int_equal(st.co[COAL].bank, 8);
    assert_int_equal(st.active, 1);
}

/* R-42 ("fewer if they hold fewer"): one stock lost; none held, none lost. */
static void dreighinghe_fewer_stocks_R42(void **s)
{
    (void)s;
    ch_state st, none;
    ev_table(&st, 3, 0);
    t_stock(&st, 2, TEA, 1);
    none = st;
    to_event(&st);
    choose(&st, CH_EV_DREIGHINGHE);
    bids(&st, 30, 20, 10);
    t_play(&st, 2, "lose Tea");
    assert_int_equal(st.pl[2].stock[TEA], 0);
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.active, 1);
    /* the lowest bidder holds nothing: the event ends after the payment */
    to_event(&none);
    choose(&none, CH_EV_DREIGHINGHE);
    bids(&none, 30, 5, 10);
    assert_int_equal(none.phase, CH_PH_TURN);
    assert_int_equal(none.pl[1].cash, 295);
}

/* R-42 ("every player pays every bid they make"), R-35, R-36: a tie for the
 * lowest bid at f10: all three pay; P1 and P2 rebid, more than f10, and pay
 * again; P2 (f11) loses. */
static void dreighinghe_rebids_all_paid_R42(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_stock(&st, 1, COAL, 3);
    to_event(&st);
    choose(&st, CH_EV_DREIGHINGHE);
    bids(&st, 10, 10, 30);
    assert_int_equal(st.phase, CH_PH_BID);
    bids(&st, 15, 11, -1);
    assert_int_equal(st.pl[0].cash, 400 - 25);
    assert_int_equal(st.pl[1].cash, 300 - 21);
    assert_int_equal(st.pl[2].cash, 300 - 30);
    assert_int_equal(st.phase, CH_PH_LOSE);
    assert_int_equal(t_decider(&st), 1);
    t_play(&st, 1, "lose Coal");
    t_play(&st, 1, "lose Coal");
    assert_int_equal(st.pl[1].stock[COAL], 1);
}

/* the loser may give up kept stocks of a company off the chart. */
static void dreighinghe_off_chart_stock_R43(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_stock(&st, 2, SUGAR, 1);
    t_stock(&st, 2, TEA, 1);
    to_event(&st);
    choose(&st, CH_EV_DREIGHINGHE);
    bids(&st, 30, 20, 10);
    assert_true(t_legal(&st, 2, "lose Sugar"));
    t_play(&st, 2, "lose Sugar");
    assert_int_equal(st.pl[2].stock[SUGAR], 0);
    assert_int_equal(st.co[SUGAR].bank, 9);
}

/* ---- Coopmanscappen --------------------------------------------------------------------- */

/* Rulebook "Coopmanscappen" ("trading/buying/selling building cards and
 * stocks. There is no limitation on price"): an accepted offer
 * moves cards, stocks and money between the players (not the bank); cards
 * received become known to all. */
static void coop_offer_accepted_R45(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_give(&st, 0, "Canal Ring E3");
    t_stock(&st, 1, TEA, 1);
    to_event(&st);
    choose(&st, CH_EV_COOPMANSCAPPEN);
    int64_t bank = st.bank_net;
    t_play(&st, 0, "offer P2");
    t_play(&st, 0, "give f50");
    t_play(&st, 0, "give Canal Ring E3");
    t_play(&st, 0, "ask Tea");
    t_play(&st, 0, "propose");
    assert_int_equal(st.phase, CH_PH_RESPOND);
    assert_int_equal(t_decider(&st), 1);
    t_play(&st, 1, "accept");
    int e3 = t_card(&st, "Canal Ring E3");
    assert_true(t_in_hand(&st, 1, e3));
    assert_true(t_known(&st, 1, e3));
    assert_int_equal(st.pl[0].stock[TEA], 1);
    assert_int_equal(st.pl[1].stock[TEA], 0);
    assert_int_equal(st.pl[0].cash, 350);
    assert_int_equal(st.pl[1].cash, 350);
    assert_int_equal(st.bank_net, bank);
    assert_int_equal(st.phase, CH_PH_COOP);
    assert_int_equal(t_decider(&st), 0);
    t_play(&st, 0, "done");
    assert_int_equal(st.active, 1);
}

/* R-44 ("Each offer is accepted or declined"): a declined offer changes
 * nothing but counts. */
static void coop_offer_declined_R44(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_stock(&st, 1, TEA, 1);
    to_event(&st);
    choose(&st, CH_EV_COOPMANSCAPPEN);
    t_play(&st, 0, "offer P2");
    t_play(&st, 0, "give f50");
    t_play(&st, 0, "ask Tea");
    t_play(&st, 0, "propose");
    t_play(&st, 1, "decline");
    assert_int_equal(st.pl[0].cash, 400);
    assert_int_equal(st.pl[1].stock[TEA], 1);
    assert_int_equal(st.offers, 1);
    assert_int_equal(st.phase, CH_PH_COOP);
}

/* R-44, R-45 ("At most 10 offers"; "after 10 offers it closes by itself"). */
static void coop_at_most_ten_offers_R44(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_COOPMANSCAPPEN);
    for (int i = 0; i < 10; i++) {
        assert_int_equal(st.phase, CH_PH_COOP);
        t_play(&st, 0, i % 2 ? "offer P3" : "offer P2");
        t_play(&st, 0, "give f1");
        t_play(&st, 0, "propose");
        t_play(&st, i % 2 ? 2 : 1, "decline");
    }
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.active, 1);
}

/* R-44 ("as long as no hand goes beyond 15 cards"): a card given to a full
 * hand cannot be proposed unless a card comes back. */
static void coop_hand_limit_R44(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_give(&st, 0, "Canal Ring E3");
    t_hand_fill(&st, 1, 15);
    int c = -1;
    for (int k = 0; k < st.ncards && c < 0; k++)
        if (t_in_hand(&st, 1, k))
            c = k;
    char name[48], ask[64];
    ch_card_name(&st, c, name, sizeof name);
    snprintf(ask, sizeof ask, "ask %s", name);
    to_event(&st);
    choose(&st, CH_EV_COOPMANSCAPPEN);
    t_play(&st, 0, "offer P2");
    t_play(&st, 0, "give Canal Ring E3");
    t_expect_illegal(&st, 0, "propose", NULL);
    t_play(&st, 0, ask);
    t_play(&st, 0, "propose");
    t_play(&st, 1, "accept");
    assert_int_equal(ch_hand_count(&st, 1), 15);
    assert_true(t_in_hand(&st, 0, c));
    assert_true(t_known(&st, 0, c)); /* received cards become known */
}

/* R-45 ("The cards asked for must be in the other player's hand for the offer
 * to be accepted; if they are not, that player may only decline"). */
static void coop_asked_card_must_be_held_R45(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_give(&st, 2, "Canal Ring A1");
    to_event(&st);
    choose(&st, CH_EV_COOPMANSCAPPEN);
    t_play(&st, 0, "offer P2");
    t_play(&st, 0, "ask Canal Ring A1");
    t_play(&st, 0, "propose");
    t_expect_illegal(&st, 1, "accept", NULL);
    assert_true(t_legal(&st, 1, "decline"));
}

/* ---- Veilinge ---------------------------------------------------------------------------- */

/* Rulebook "Veilinge" option 1, "Auction mechanism": bids in f10
 * steps from the active player clockwise; a pass is final; the high bidder
 * whose turn comes round wins, pays the bank and takes the stock. */
static void veilinge_option1_R37(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VEILINGE);
    assert_int_equal(st.phase, CH_PH_VEILINGE);
    int64_t bank = st.bank_net;
    t_play(&st, 0, "auction stock Tea");
    assert_int_equal(t_decider(&st), 0);
    t_play(&st, 0, "bid f10");
    assert_int_equal(t_decider(&st), 1);
    t_play(&st, 1, "bid f30");
    t_play(&st, 2, "pass");
    assert_int_equal(t_decider(&st), 0);
    t_play(&st, 0, "pass");
    assert_int_equal(st.pl[1].cash, 270);
    assert_int_equal(st.pl[0].cash, 400);
    assert_int_equal(st.bank_net, bank + 30);
    assert_int_equal(st.pl[1].stock[TEA], 1);
    assert_int_equal(st.co[TEA].bank, 8);
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.active, 1);
}

/* Rulebook "Veilinge" option 2 ("You receive the payment but cannot
 * participate"); R-37: bidding starts with the next player. */
static void veilinge_option2_own_stock_R37(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_stock(&st, 0, TEA, 2);
    to_event(&st);
    choose(&st, CH_EV_VEILINGE);
    int64_t bank = st.bank_net;
    t_play(&st, 0, "auction own Tea");
    assert_int_equal(t_decider(&st), 1);
    ch_move buf[4];
    assert_int_equal(ch_legal(&st, 0, buf, 4), 0);
    t_play(&st, 1, "bid f20");
    t_play(&st, 2, "bid f40");
    t_play(&st, 1, "pass");
    assert_int_equal(st.pl[2].cash, 260);
    assert_int_equal(st.pl[0].cash, 440);
    assert_int_equal(st.bank_net, bank);
    assert_int_equal(st.pl[0].stock[TEA], 1);
    assert_int_equal(st.pl[2].stock[TEA], 1);
    assert_int_equal(st.co[TEA].bank, 7);
}

/* Rulebook "Veilinge" option 3 ("take the top ten building cards ... pick one
 * of them ... The other nine cards are returned to the deck and the entire
 * deck is shuffled"); R-10: the card is not shown. */
static void veilinge_option3_top_ten_R46(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    const char *top[] = {"Jordaan A2", "Jordaan B2", "Jordaan C2", "Jordaan D2", "Jordaan E2",
                         "Jordaan F2", "Jordaan A3", "Jordaan B3", "Jordaan C3", "Jordaan D3"};
    for (int i = 0; i < 10; i++)
        t_deck_top(&st, top[i]);
    int ndeck = st.ndeck;
    choose(&st, CH_EV_VEILINGE);
    t_play(&st, 0, "auction deck");
    t_play(&st, 0, "bid f10");
    t_play(&st, 1, "pass");
    t_play(&st, 2, "pass");
    assert_int_equal(st.phase, CH_PH_PICK);
    assert_int_equal(t_decider(&st), 0);
    assert_int_equal(st.nlook, 10);
    assert_int_equal(t_count_type(&st, 0, CH_M_PICK), 10);
    assert_false(t_legal(&st, 0, "pick Jordaan D4"));
    t_play(&st, 0, "pick Jordaan C2");
    int c2 = t_card(&st, "Jordaan C2");
    assert_true(t_in_hand(&st, 0, c2));
    assert_false(t_known(&st, 0, c2));
    assert_int_equal(st.ndeck, ndeck - 1);
    assert_int_equal(st.nlook, 0);
    assert_int_equal(st.loc[t_card(&st, "Jordaan D3")], CH_LOC_DECK);
    assert_int_equal(st.pl[0].cash, 390);
}

/* R-46 ("with fewer than ten cards in it, the winner looks at all of them"). */
static void veilinge_option3_short_deck_R46(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    t_deck_keep(&st, 4);
    choose(&st, CH_EV_VEILINGE);
    t_play(&st, 0, "auction deck");
    t_play(&st, 0, "bid f10");
    t_play(&st, 1, "pass");
    t_play(&st, 2, "pass");
    assert_int_equal(st.nlook, 4);
    assert_int_equal(st.ndeck, 0);
    ch_move buf[16];
    int n = ch_legal(&st, 0, buf, 16);
    assert_true(n >= 1 && n <= 4);
    ch_msg m;
    assert_int_equal(ch_apply(&st, 0, buf[0], &m), CH_OK);
    assert_true(t_in_hand(&st, 0, buf[0].a));
    assert_int_equal(st.ndeck, 3);
}

/* Rulebook "Auction mechanism" ("until all players but one pass"); R-37 ("A
 * player who passes is out"): P1 passes at once and is never asked again;
 * P2 and P3 outbid each other until P3 passes. */
static void auction_pass_is_final_R37(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VEILINGE);
    t_play(&st, 0, "auction stock Coal");
    t_play(&st, 0, "pass");
    t_play(&st, 1, "bid f10");
    t_play(&st, 2, "bid f20");
    assert_int_equal(t_decider(&st), 1);
    t_play(&st, 1, "bid f30");
    assert_int_equal(t_decider(&st), 2);
    t_play(&st, 2, "pass");
    assert_int_equal(st.pl[1].stock[COAL], 1);
    assert_int_equal(st.pl[1].cash, 270);
    assert_int_equal(st.pl[2].cash, 300);
    assert_int_equal(st.phase, CH_PH_TURN);
}

/* Veilinge option 4 position: Tea A1 (HQ) - B1 - C1 at f100 after the build;
 * Coal Jordaan E4 (with a second level) - F4; lone Canal Ring C3 with two
 * levels and lone Canal Ring F3. */
static void option4_table(ch_state *st)
{
    t_new(st, 3, "standard", 46);
    t_clear(st);
    t_put(st, "Harbour A1", 1);
    t_put(st, "Harbour B1", 1);
    t_put(st, "Jordaan E4", 2);
    t_put(st, "Jordaan F4", 1);
    const char *tea[] = {"Harbour A1", "Harbour B1"};
    const char *coal[] = {"Jordaan E4", "Jordaan F4"};
    t_company(st, TEA, 90, "Harbour A1", tea, 2);
    t_company(st, COAL, 50, "Jordaan F4", coal, 2);
    t_put(st, "Canal Ring C3", 3);
    t_put(st, "Canal Ring F3", 1);
    t_give(st, 0, "Harbour C1");
    t_turn(st, 0);
    t_valid(st);
    to_event(st);
    choose(st, CH_EV_VEILINGE);
}

static void win_option4(ch_state *st)
{
    t_play(st, 0, "auction discard");
    t_play(st, 0, "bid f10");
    t_play(st, 1, "pass");
    t_play(st, 2, "pass");
    assert_int_equal(st->phase, CH_PH_PICK);
}

/* Rulebook "Veilinge" option 4 ("NOTE: the removal is not possible if this
 * would lead the company to split ... or a warehouse that has two or more
 * levels"): offered are Tea's ends A1 and C1, Coal's E4 (one
 * level) and lone F3; not B1 (split), not F4 (Coal would keep one
 * warehouse), not C3 (two levels). */
static void veilinge_option4_which_R47(void **s)
{
    (void)s;
    ch_state st;
    option4_table(&st);
    win_option4(&st);
    assert_int_equal(t_count_type(&st, 0, CH_M_PICK), 4);
    assert_true(t_legal(&st, 0, "pick Harbour A1"));
    assert_true(t_legal(&st, 0, "pick Harbour C1"));
    assert_true(t_legal(&st, 0, "pick Jordaan E4"));
    assert_true(t_legal(&st, 0, "pick Canal Ring F3"));
    assert_false(t_legal(&st, 0, "pick Harbour B1"));
    assert_false(t_legal(&st, 0, "pick Jordaan F4"));
    assert_false(t_legal(&st, 0, "pick Canal Ring C3"));
}

/* Rulebook "Veilinge" option 4 ("The corresponding built warehouse is removed
 * ... the company therefore loses f10"); R-47: nobody is paid, the warehouse
 * returns to the supply, the card goes to the winner's hand, known to all. */
static void veilinge_option4_removes_R47(void **s)
{
    (void)s;
    ch_state st;
    option4_table(&st);
    int supply = st.supply, nd = st.ndiscard;
    win_option4(&st);
    t_play(&st, 0, "pick Harbour C1");
    int c1 = t_card(&st, "Harbour C1");
    assert_int_equal(st.height[P(&st, "Harbour C1")], 0);
    assert_int_equal(st.owner[P(&st, "Harbour C1")], CH_NONE);
    assert_int_equal(st.co[TEA].value, 90);
    assert_int_equal(st.supply, supply + 1);
    assert_int_equal(st.ndiscard, nd - 1);
    assert_true(t_in_hand(&st, 0, c1));
    assert_true(t_known(&st, 0, c1));
    assert_int_equal(st.pl[0].cash, 390);
    assert_int_equal(st.event_due, 0);
}

/* removing the warehouse under an HQ leaves the HQ as a placeholder. */
static void veilinge_option4_hq_stays_R48(void **s)
{
    (void)s;
    ch_state st;
    option4_table(&st);
    win_option4(&st);
    t_play(&st, 0, "pick Harbour A1");
    int a1 = P(&st, "Harbour A1");
    assert_int_equal(st.height[a1], 0);
    assert_true(st.pflags[a1] & CH_PF_HQ);
    assert_int_equal(st.owner[a1], TEA);
    assert_int_equal(st.co[TEA].hq, a1);
    assert_int_equal(st.co[TEA].value, 90);
}

/* R-47 ("removes one warehouse from the plot's stack"): Coal's E4 with one
 * level drops to a single warehouse, Coal f50 -> f40. */
static void veilinge_option4_one_level_R47(void **s)
{
    (void)s;
    ch_state st;
    option4_table(&st);
    win_option4(&st);
    t_play(&st, 0, "pick Jordaan E4");
    assert_int_equal(st.height[P(&st, "Jordaan E4")], 1);
    assert_int_equal(st.owner[P(&st, "Jordaan E4")], COAL);
    assert_int_equal(st.co[COAL].value, 40);
}

/* Move unplayed cards from the deck onto the discard pile: `plots` plot cards
 * (their plots stay empty, so nothing can be removed for them) and `levels`
 * level cards. */
static void push_discard(ch_state *st, int plots, int levels)
{
    for (int c = 0; c < st->ncards && (plots > 0 || levels > 0); c++) {
        if (st->loc[c] != CH_LOC_DECK)
            continue;
        int *want = st->card_level[c] ? &levels : &plots;
        if (*want <= 0)
            continue;
        (*want)--;
        int j = 0;
        while (st->deck[j] != c)
            j++;
        memmove(&st->deck[j], &st->deck[j + 1], (size_t)(st->ndeck - j - 1));
        st->ndeck--;
        st->discard[st->ndiscard++] = (uint8_t)c;
        st->loc[c] = CH_LOC_DISCARD;
    }
}

/* Rulebook "Veilinge" option 4 ("one of the ten most recent plot cards (so no
 * level cards)"); R-46: ten more recent plot cards of empty plots hide the
 * removable Tea warehouses, so option 4 is not offered; with nine plot cards
 * and three level cards on top, C1 is still among the ten. */
static void veilinge_option4_ten_most_recent_R46(void **s)
{
    (void)s;
    ch_state st, nine;
    ev_table(&st, 3, 0);
    to_event(&st);
    t_event_open(&st, 0, CH_EV_VEILINGE);
    nine = st;
    push_discard(&st, 10, 0);
    push_discard(&nine, 9, 3);
    t_valid(&st);
    t_valid(&nine);
    t_play(&st, 0, "event Veilinge");
    t_play(&nine, 0, "event Veilinge");
    assert_false(t_legal(&st, 0, "auction discard"));
    assert_true(t_legal(&nine, 0, "auction discard"));
    win_option4(&nine);
    assert_int_equal(t_count_type(&nine, 0, CH_M_PICK), 1);
    assert_true(t_legal(&nine, 0, "pick Harbour C1"));
}

/* R-48 ("if the end of the game was already triggered, it stays triggered"):
 * the last warehouse passes f100; Veilinge option 4 returns a warehouse to
 * the supply, and still the game ends after the turn. */
static void veilinge_option4_end_stays_triggered_R48(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_fill_supply(&st, "Old Side", 20);
    t_fill_supply(&st, "Canal Ring", 1);
    to_event(&st);
    assert_int_equal(st.end_triggered, 1);
    choose(&st, CH_EV_VEILINGE);
    win_option4(&st);
    t_play(&st, 0, "pick Harbour C1");
    assert_int_equal(st.supply, 1);
    assert_int_equal(st.end_triggered, 1);
    assert_int_equal(st.phase, CH_PH_OVER);
}

/* R-39 ("Extra turns do not add up"): P3 wins Verlappen in P1's turn and again
 * in P2's turn, and gets one extra turn after their next turn, not two. */
static void verlappen_extra_turns_do_not_add_up_R39(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    st.co[COAL].value = 140;
    t_give(&st, 1, "Jordaan D4");
    t_event_open(&st, 0, CH_EV_VERLAPPEN);
    t_event_top(&st, CH_EV_VERLAPPEN);
    to_event(&st);
    t_play(&st, 0, "event Verlappen");
    bids(&st, 0, 0, 10);
    assert_int_equal(st.active, 1);
    t_play(&st, 1, "play Jordaan D4");
    assert_int_equal(st.co[COAL].value, 150);
    t_play(&st, 1, "done");
    assert_int_equal(st.ev_open[0], CH_EV_VERLAPPEN);
    t_play(&st, 1, "event Verlappen");
    bids(&st, 0, 0, 10);
    int order[] = {2, 2, 0};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(st.active, order[i]);
        t_play(&st, order[i], "draw");
        t_play(&st, order[i], "draw");
    }
    assert_int_equal(st.active, 1);
}

/* R-37 ("If nobody bids, nothing happens"). */
static void veilinge_nobody_bids_R37(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VEILINGE);
    t_play(&st, 0, "auction stock Coal");
    t_play(&st, 0, "pass");
    t_play(&st, 1, "pass");
    t_play(&st, 2, "pass");
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.active, 1);
    assert_int_equal(st.co[COAL].bank, 9);
    assert_int_equal(st.pl[0].cash, 400);
    assert_int_equal(st.pl[1].cash, 300);
}

/* R-41 ("a player with 15 cards in hand cannot bid" in options 3 and 4): the
 * full hand is skipped. */
static void veilinge_full_hand_cannot_bid_R41(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_hand_fill(&st, 1, 15);
    to_event(&st);
    choose(&st, CH_EV_VEILINGE);
    t_play(&st, 0, "auction deck");
    t_play(&st, 0, "bid f10");
    assert_int_equal(t_decider(&st), 2);
}

/* R-46 ("Auction bids are multiples of f10, each higher than the last, and at
 * most the bidder's cash"). */
static void veilinge_bid_steps_R46(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    to_event(&st);
    choose(&st, CH_EV_VEILINGE);
    t_play(&st, 0, "auction stock Tea");
    t_expect_illegal(&st, 0, "bid f15", "steps of f10");
    t_expect_illegal(&st, 0, "bid f0", "more than f0");
    t_play(&st, 0, "bid f10");
    t_expect_illegal(&st, 1, "bid f10", "you must bid more than f10");
    t_expect_illegal(&st, 1, "bid f310", "you cannot bid f310: you have f300");
    assert_true(t_legal(&st, 1, "bid f300"));
}

/* R-46 ("The options are offered only when there is something to win"):
 * option 1 for companies on the chart with stock in the bank; option 2 only
 * for stocks the active player holds; 3 with a deck; 4 with a removable
 * warehouse among the recent plot cards. */
static void veilinge_options_offered_R46(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 3, 0);
    t_stock(&st, 1, COAL, 9); /* Coal's bank is empty */
    t_stock(&st, 0, SUGAR, 1); /* off the chart, but held */
    to_event(&st);
    choose(&st, CH_EV_VEILINGE);
    assert_true(t_legal(&st, 0, "auction stock Tea"));
    assert_false(t_legal(&st, 0, "auction stock Coal"));
    assert_false(t_legal(&st, 0, "auction stock Silk"));
    assert_true(t_legal(&st, 0, "auction own Sugar"));
    assert_false(t_legal(&st, 0, "auction own Tea"));
    assert_true(t_legal(&st, 0, "auction deck"));
    assert_true(t_legal(&st, 0, "auction discard"));
    assert_int_equal(t_count_type(&st, 0, CH_M_AUCTION), 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(event_at_end_of_turn_R32_R33),
        cmocka_unit_test(no_event_below_line_R32),
        cmocka_unit_test(no_event_from_the_line_R32),
        cmocka_unit_test(event_lines_R05),
        cmocka_unit_test(one_event_per_turn_R32),
        cmocka_unit_test(event_choices_open_or_deck),
        cmocka_unit_test(open_event_replaced_from_deck),
        cmocka_unit_test(event_from_deck_top),
        cmocka_unit_test(event_deck_reshuffled),
        cmocka_unit_test(action_event_plus_line_event_R30),
        cmocka_unit_test(sealed_bids_simultaneous_R35),
        cmocka_unit_test(verlappen_highest_pays_R38),
        cmocka_unit_test(verlappen_extra_turn_after_next_R39),
        cmocka_unit_test(verlappen_won_by_active_R39),
        cmocka_unit_test(bid_tie_pay_and_rebid_R35),
        cmocka_unit_test(bid_rebid_tie_continues_R36),
        cmocka_unit_test(bid_zero_tie_with_cash_rebids_R36),
        cmocka_unit_test(bid_rebid_short_of_cash_R36),
        cmocka_unit_test(bid_tie_without_cash_clockwise_R36),
        cmocka_unit_test(bid_tie_spending_all_clockwise_R36),
        cmocka_unit_test(bidding_always_ends_R36),
        cmocka_unit_test(bid_min_never_negative_R36),
        cmocka_unit_test(aenleggen_top_level_card_R10),
        cmocka_unit_test(aenleggen_empty_reserve_not_chosen_R40),
        cmocka_unit_test(aenleggen_from_deck_does_nothing_R40),
        cmocka_unit_test(aenleggen_full_hand_pays_R41),
        cmocka_unit_test(dreighinghe_all_pay_lowest_loses_two_R42),
        cmocka_unit_test(dreighinghe_fewer_stocks_R42),
        cmocka_unit_test(dreighinghe_rebids_all_paid_R42),
        cmocka_unit_test(dreighinghe_off_chart_stock_R43),
        cmocka_unit_test(coop_offer_accepted_R45),
        cmocka_unit_test(coop_offer_declined_R44),
        cmocka_unit_test(coop_at_most_ten_offers_R44),
        cmocka_unit_test(coop_hand_limit_R44),
        cmocka_unit_test(coop_asked_card_must_be_held_R45),
        cmocka_unit_test(veilinge_option1_R37),
        cmocka_unit_test(veilinge_option2_own_stock_R37),
        cmocka_unit_test(veilinge_option3_top_ten_R46),
        cmocka_unit_test(veilinge_option3_short_deck_R46),
        cmocka_unit_test(auction_pass_is_final_R37),
        cmocka_unit_test(veilinge_option4_which_R47),
        cmocka_unit_test(veilinge_option4_removes_R47),
        cmocka_unit_test(veilinge_option4_hq_stays_R48),
        cmocka_unit_test(veilinge_option4_one_level_R47),
        cmocka_unit_test(veilinge_option4_ten_most_recent_R46),
        cmocka_unit_test(veilinge_option4_end_stays_triggered_R48),
        cmocka_unit_test(verlappen_extra_turns_do_not_add_up_R39),
        cmocka_unit_test(veilinge_nobody_bids_R37),
        cmocka_unit_test(veilinge_full_hand_cannot_bid_R41),
        cmocka_unit_test(veilinge_bid_steps_R46),
        cmocka_unit_test(veilinge_options_offered_R46),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
