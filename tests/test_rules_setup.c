/* test_rules_setup.c: the components and the setup of Building Amsterdam, one
 * test per rule (docs/rules.md "Components", "Setup", "Open and hidden
 * information"; Rulebook "Game contents", "Setup" steps 1-11 and the table of
 * starting hands; Rulings ). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "play.h"

static int count_loc(const ch_state *st, int loc)
{
    int n = 0;
    for (int c = 0; c < st->ncards; c++)
        n += st->loc[c] == loc;
    return n;
}

static int count_level(const ch_state *st, int loc, int level)
{
    int n = 0;
    for (int c = 0; c < st->ncards; c++)
        n += st->loc[c] == loc && st->card_level[c] == level;
    return n;
}

/* Rulebook "Game contents"; R-01: 62 warehouses, 10 broken roofs, 9 companies
 * of 9 stock cards, 2 action cards each, hand limit 15, 15 event cards of 5
 * kinds (3 each). */
static void components_R01(void **s)
{
    (void)s;
    ch_state st;
    t_new(&st, 4, "standard", 1);
    assert_int_equal(st.warehouses_total, 62);
    assert_int_equal(st.supply, 62);
    assert_int_equal(st.roofs_total, 10);
    assert_int_equal(st.roofs_left, 10);
    assert_int_equal(st.max_hand, 15);
    assert_int_equal(st.ncompanies, 9);
    for (int c = 0; c < 9; c++) {
        assert_int_equal(st.co[c].bank, 9);
        for (int p = 0; p < 4; p++)
            assert_int_equal(st.pl[p].stock[c], 0);
    }
    for (int p = 0; p < 4; p++) {
        assert_int_equal(st.pl[p].actions, 2);
        assert_int_equal(st.pl[p].roofs, 0);
    }
    int kinds[CH_EV_KINDS] = {0}, total = 0;
    for (int i = 0; i < st.nev_deck; i++, total++)
        kinds[st.ev_deck[i]]++;
    for (int i = 0; i < CH_EVENT_OPEN_MAX; i++)
        if (st.ev_open[i] != CH_NONE) {
            kinds[st.ev_open[i]]++;
            total++;
        }
    assert_int_equal(total, 15);
    assert_int_equal(st.nev_discard, 0);
    for (int k = 0; k < CH_EV_KINDS; k++)
        assert_int_equal(kinds[k], 3);
    assert_string_equal(ch_company_name(&st, 0), "Gunpowder");
    assert_string_equal(ch_company_name(&st, 8), "Tobacco");
}

/* 114 building cards = 96 plot cards (one per plot) + 9 second, 6 third
 * and 3 fourth level cards. */
static void building_cards_R02(void **s)
{
    (void)s;
    ch_state st;
    t_new(&st, 3, "standard", 2);
    assert_int_equal(st.ncards, 114);
    assert_int_equal(ch_state_board(&st)->nplots, 96);
    int plots = 0, lv[5] = {0};
    for (int c = 0; c < st.ncards; c++) {
        if (st.card_level[c]) {
            lv[st.card_level[c]]++;
            assert_int_equal(st.card_plot[c], CH_NONE);
        } else {
            plots++;
            assert_int_equal(st.plot_card[st.card_plot[c]], c);
        }
    }
    assert_int_equal(plots, 96);
    assert_int_equal(lv[2], 9);
    assert_int_equal(lv[3], 6);
    assert_int_equal(lv[4], 3);
}

/* Rulebook "Setup", table of starting hands, for one player count. */
static void check_table(int np, int hand, int cash, int open_events, int deck)
{
    ch_state st;
    t_new(&st, np, "standard", 30 + (uint64_t)np);
    for (int p = 0; p < np; p++) {
        assert_int_equal(ch_hand_count(&st, p), hand);
        assert_int_equal(st.pl[p].cash, cash);
    }
    assert_int_equal(st.nevent_open, open_events);
    int open = 0;
    for (int i = 0; i < CH_EVENT_OPEN_MAX; i++)
        open += st.ev_open[i] != CH_NONE;
    assert_int_equal(open, open_events);
    assert_int_equal(st.nev_deck, 15 - open_events);
    assert_int_equal(st.ndeck, deck);
    assert_int_equal(count_loc(&st, CH_LOC_DECK), deck);
    assert_int_equal(count_loc(&st, CH_LOC_MARKET), 5);
    assert_int_equal(st.nreserve, 4);
    assert_int_equal(st.total_money, np * cash);
    assert_int_equal(st.bank_net, 0);
    t_valid(&st);
}

/* Rulebook "Setup" table: 2 players, 10 cards, f350, 2 open events, deck 85. */
static void setup_table_2p(void **s) { (void)s; check_table(2, 10, 350, 2, 85); }
/* Rulebook "Setup" table: 3 players, 9 cards, f300, 3 open events, deck 78. */
static void setup_table_3p(void **s) { (void)s; check_table(3, 9, 300, 3, 78); }
/* Rulebook "Setup" table: 4 players, 9 cards, f300, 3 open events, deck 69. */
static void setup_table_4p(void **s) { (void)s; check_table(4, 9, 300, 3, 69); }
/* Rulebook "Setup" table: 5 players, 8 cards, f250, 3 open events, deck 65. */
static void setup_table_5p(void **s) { (void)s; check_table(5, 8, 250, 3, 65); }

/* Rulebook "Setup", step 6: starting hands hold plot cards only (level cards
 * are kept apart while dealing), so no hidden hand card may be a level card. */
static void setup_hands_plot_cards_only(void **s)
{
    (void)s;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        ch_state st;
        t_new(&st, 5, "standard", seed);
        for (int p = 0; p < 5; p++) {
            assert_int_equal(st.pl[p].hidden_levels, 0);
            for (int c = 0; c < st.ncards; c++)
                if (st.loc[c] == CH_LOC_HAND + p)
                    assert_int_equal(st.card_level[c], 0);
        }
    }
}

/* Rulebook "Setup", steps 4 and 7: the level reserve is one fourth, one third
 * and two second levels; the other 14 level cards (7 second, 5 third,
 * 2 fourth) are in the deck or the market. */
static void setup_level_reserve(void **s)
{
    (void)s;
    ch_state st;
    t_new(&st, 4, "standard", 5);
    assert_int_equal(count_level(&st, CH_LOC_RESERVE, 2), 2);
    assert_int_equal(count_level(&st, CH_LOC_RESERVE, 3), 1);
    assert_int_equal(count_level(&st, CH_LOC_RESERVE, 4), 1);
    assert_int_equal(count_level(&st, CH_LOC_DECK, 2) + count_level(&st, CH_LOC_MARKET, 2), 7);
    assert_int_equal(count_level(&st, CH_LOC_DECK, 3) + count_level(&st, CH_LOC_MARKET, 3), 5);
    assert_int_equal(count_level(&st, CH_LOC_DECK, 4) + count_level(&st, CH_LOC_MARKET, 4), 2);
    for (int i = 0; i < st.nreserve; i++)
        assert_int_equal(st.loc[st.reserve[i]], CH_LOC_RESERVE);
}

/* Rulebook "Setup", steps 3 and 9; "Aim of the game": every company starts off
 * the chart with its HQ in the box, all nine available for founding; the
 * board is empty; nothing is in the discard pile. */
static void setup_companies_off_chart(void **s)
{
    (void)s;
    ch_state st;
    t_new(&st, 3, "standard", 6);
    for (int c = 0; c < 9; c++) {
        assert_int_equal(st.co[c].on_chart, 0);
        assert_int_equal(st.co[c].value, 0);
        assert_int_equal(st.co[c].hq, CH_NONE);
    }
    for (int x = 0; x < ch_state_board(&st)->nplots; x++) {
        assert_int_equal(st.height[x], 0);
        assert_int_equal(st.owner[x], CH_NONE);
        assert_int_equal(st.pflags[x], 0);
    }
    assert_int_equal(st.ndiscard, 0);
    assert_int_equal(st.phase, CH_PH_TURN);
}

/* the starting player is drawn from the seed (every seat can
 * start) and is the first to decide. */
static void setup_starting_player_R07(void **s)
{
    (void)s;
    unsigned seen = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        ch_state st;
        t_new(&st, 4, "standard", seed);
        assert_int_equal(st.active, st.first_player);
        assert_int_equal(t_decider(&st), st.first_player);
        seen |= 1u << st.first_player;
    }
    assert_int_equal(seen, 0xFu);
}

/* players take turns clockwise: after P4 comes P1. */
static void turn_order_clockwise_R07(void **s)
{
    (void)s;
    ch_state st;
    t_new(&st, 4, "standard", 7);
    int p = st.active;
    for (int i = 0; i < 5; i++) {
        /* buying two cards ends a turn without touching the stall counter */
        t_play(&st, p, "draw");
        t_play(&st, p, "draw");
        assert_int_equal(st.active, (p + 1) % 4);
        p = (p + 1) % 4;
    }
}

/* a game is reproducible from its setup and seed; another seed deals
 * differently. */
static void setup_reproducible_R08(void **s)
{
    (void)s;
    ch_state a, b, c;
    t_new(&a, 3, "standard", 99);
    t_new(&b, 3, "standard", 99);
    t_new(&c, 3, "standard", 100);
    assert_memory_equal(&a, &b, sizeof a);
    assert_true(memcmp(a.pl[0].hand, c.pl[0].hand, sizeof a.pl[0].hand) != 0 ||
                memcmp(a.deck, c.deck, sizeof a.deck) != 0);
    /* the same moves lead to the same state, deck draws included */
    t_play(&a, a.active, "draw");
    t_play(&b, b.active, "draw");
    assert_memory_equal(&a, &b, sizeof a);
}

/* Rulebook "Aim of the game": 2 to 5 players; other counts are refused. */
static void setup_player_counts(void **s)
{
    (void)s;
    ch_board b;
    ch_setup su;
    ch_msg m;
    ch_state st;
    assert_int_equal(ch_board_builtin(&b, CH_ED_AMSTERDAM, "standard", &m), CH_OK);
    ch_setup_default(&su, CH_ED_AMSTERDAM);
    su.nplayers = 1;
    assert_int_equal(ch_new(&st, &su, &b, &m), CH_EINVAL);
    su.nplayers = 6;
    assert_int_equal(ch_new(&st, &su, &b, &m), CH_EINVAL);
    assert_non_null(strstr(m.text, "2 to 5 players"));
    su.nplayers = 5;
    assert_int_equal(ch_new(&st, &su, &b, &m), CH_OK);
}

/* on a board rows 2 and 3 are connected only by the bridges at B
 * and E; diagonal plots are never neighbours. R-04: the standard arrangement
 * joins Harbour F1 to Jordaan A1 and Harbour E4 to Canal Ring E1 by bridges,
 * but not Harbour C4 to Canal Ring C1. */
static void adjacency_R03_R13(void **s)
{
    (void)s;
    ch_state st;
    t_new(&st, 2, "standard", 8);
    const ch_board *b = ch_state_board(&st);
    int a2 = t_plot(&st, "Harbour A2"), a3 = t_plot(&st, "Harbour A3");
    int b2 = t_plot(&st, "Harbour B2"), b3 = t_plot(&st, "Harbour B3");
    int a1 = t_plot(&st, "Harbour A1");
    int adj_a2a3 = 0, adj_b2b3 = 0, adj_a1b2 = 0, adj_f1 = 0, adj_e4 = 0, adj_c4 = 0;
    for (int i = 0; i < b->deg[a2]; i++)
        adj_a2a3 |= b->adj[a2][i] == a3;
    for (int i = 0; i < b->deg[b2]; i++)
        adj_b2b3 |= b->adj[b2][i] == b3;
    for (int i = 0; i < b->deg[a1]; i++)
        adj_a1b2 |= b->adj[a1][i] == b2;
    int f1 = t_plot(&st, "Harbour F1"), e4 = t_plot(&st, "Harbour E4"), c4 = t_plot(&st, "Harbour C4");
    for (int i = 0; i < b->deg[f1]; i++)
        adj_f1 |= b->adj[f1][i] == t_plot(&st, "Jordaan A1");
    for (int i = 0; i < b->deg[e4]; i++)
        adj_e4 |= b->adj[e4][i] == t_plot(&st, "Canal Ring E1");
    for (int i = 0; i < b->deg[c4]; i++)
        adj_c4 |= b->adj[c4][i] == t_plot(&st, "Canal Ring C1");
    assert_false(adj_a2a3);
    assert_true(adj_b2b3);
    assert_false(adj_a1b2);
    assert_true(adj_f1);
    assert_true(adj_e4);
    assert_false(adj_c4);
}

/* every built-in arrangement is playable: 4 districts, 96 plots. */
static void arrangements_R04(void **s)
{
    (void)s;
    const char *names[] = {"standard", "quick-battle", "crossroads", "outliers"};
    for (int i = 0; i < 4; i++) {
        ch_state st;
        t_new(&st, 3, names[i], 9);
        assert_int_equal(ch_state_board(&st)->nplots, 96);
        assert_int_equal(ch_state_board(&st)->ndistricts, 4);
        t_valid(&st);
    }
}

/* the open market is public and its cards are known where they
 * go; hands start hidden (no card of a starting hand is known to all). */
static void setup_hidden_hands_R09(void **s)
{
    (void)s;
    ch_state st;
    t_new(&st, 3, "standard", 10);
    for (int p = 0; p < 3; p++) {
        assert_int_equal(st.pl[p].known[0], 0);
        assert_int_equal(st.pl[p].known[1], 0);
    }
    for (int i = 0; i < 5; i++) {
        assert_int_not_equal(st.market[i], CH_NONE);
        assert_int_equal(st.loc[st.market[i]], CH_LOC_MARKET);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(components_R01),
        cmocka_unit_test(building_cards_R02),
        cmocka_unit_test(setup_table_2p),
        cmocka_unit_test(setup_table_3p),
        cmocka_unit_test(setup_table_4p),
        cmocka_unit_test(setup_table_5p),
        cmocka_unit_test(setup_hands_plot_cards_only),
        cmocka_unit_test(setup_level_reserve),
        cmocka_unit_test(setup_companies_off_chart),
        cmocka_unit_test(setup_starting_player_R07),
        cmocka_unit_test(turn_order_clockwise_R07),
        cmocka_unit_test(setup_reproducible_R08),
        cmocka_unit_test(setup_player_counts),
        cmocka_unit_test(adjacency_R03_R13),
        cmocka_unit_test(arrangements_R04),
        cmocka_unit_test(setup_hidden_hands_R09),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
