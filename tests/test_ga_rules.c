/* test_ga_rules.c: the rules of Chartered: The Golden Age, one or more tests per
 * rule, each named after the ruling it checks (docs/rules.md, "## Chartered:
 * The Golden Age", Rulings G-01..G-27) and citing the rulebook section: the
 * printed rulebook (seed 003, preset golden-age) and the first rules (seed 002,
 * preset golden-age-first). Every test asserts exact numbers.
 *
 * Positions are built by hand (tests/support/play.c, t_ga_*) on the harbour
 * side (2 or 3 players) or the city centre side (4 to 6 players). Both are
 * grids 10 lots wide numbered row by row (docs/formats.md, "The Golden Age's
 * two sides"); the harbour side:
 *
 *    1  2  3  4  5 |  6  7  8  9 10
 *   11 12 13 14 15 = 16 17 18 19 20
 *   21 22 23 24 25 | 26 27 28 29 30
 *   ~~ == ~~ ~~ ~~   == ~~ ~~ == ~~
 *   31 32 33 34 35 | 36 37 38 39 40
 *   41 42 43 44 45 = 46 47 48 49 50
 *   51 52 53 54 55 | 56 57 58 59 60
 *
 * The city centre side has the same first three rows, with bridges 22-32,
 * 24-34 and 28-38 below them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "play.h"

enum { GOLD, COFFEE, PEPPER, GEMS, OPIUM, SILVER, TEA, SILK, GUNPOWDER };

/* ---- helpers ------------------------------------------------------------------ */

/* An empty table of The Golden Age (preset golden-age): no enterprise, no card
 * in a hand or among the open cards, P1 to move. */
static void table(ch_state *st, int np, int events)
{
    t_new_ga(st, np, CH_GA_PRINTED, events, 20240 + (uint64_t)np);
    t_ga_clear(st);
    t_turn(st, 0);
    t_valid(st);
}

static int count_all(const ch_state *st, int p)
{
    static ch_move buf[4096];
    return ch_legal(st, p, buf, 4096);
}

static int levels_in_hand(const ch_state *st, int p)
{
    int k = 0;
    for (int c = 0; c < st->ncards; c++)
        k += t_in_hand(st, p, c) && st->card_level[c];
    return k;
}

static int top_discard(const ch_state *st) { return st->ndiscard ? st->discard[st->ndiscard - 1] : -1; }

/* ==== Setup (printed rulebook "Game set up"; first rules "Setup"; G-02, G-05) ===== */

typedef struct setup_row {
    int np, preset, lots, open, warehouses, lv[6], hand, cash, deck;
} setup_row;

/* docs/rules.md, the two setup tables; lv[k]: level-k cards in play. */
static const setup_row rows[] = {
    {2, CH_GA_PRINTED, 60, 5, 70, {0, 0, 6, 5, 0, 0}, 14, 600, 38},
    {3, CH_GA_PRINTED, 60, 4, 70, {0, 0, 6, 5, 4, 0}, 12, 500, 35},
    {4, CH_GA_PRINTED, 95, 3, 95, {0, 0, 6, 5, 4, 3}, 10, 400, 70},
    {5, CH_GA_PRINTED, 95, 3, 95, {0, 0, 6, 5, 4, 3}, 10, 400, 60},
    {6, CH_GA_PRINTED, 95, 3, 95, {0, 0, 6, 5, 4, 3}, 10, 400, 50},
    {2, CH_GA_FIRST, 60, 5, 65, {0, 0, 6, 5, 0, 0}, 11, 600, 44},
    {3, CH_GA_FIRST, 60, 4, 65, {0, 0, 6, 5, 4, 0}, 10, 500, 41},
    {4, CH_GA_FIRST, 95, 3, 96, {0, 0, 6, 5, 4, 3}, 9, 400, 74},
    {5, CH_GA_FIRST, 95, 3, 96, {0, 0, 6, 5, 4, 3}, 9, 400, 65},
    {6, CH_GA_FIRST, 95, 3, 96, {0, 0, 6, 5, 4, 3}, 8, 350, 62},
};
/* First rules "Event Cards": 12, 10, 12, 10, 8 event cards for 2 to 6 players (G-21). */
static const int events_for[7] = {0, 0, 12, 10, 12, 10, 8};

static void check_setup(const setup_row *r, int events, uint64_t seed)
{
    ch_state st;
    t_new_ga(&st, r->np, r->preset, events, seed);
    t_valid(&st);
    int nev = events ? events_for[r->np] : 0;
    assert_int_equal(st.edition, CH_ED_GOLDEN_AGE);
    assert_int_equal(st.nplayers, r->np);
    /* G-03, G-05: the side follows the player count */
    assert_string_equal(ch_ga_side(r->preset, r->np), r->lots == 60 ? "harbour" : "centre");
    assert_int_equal(ch_state_board(&st)->nplots, r->lots);
    char name[48];
    ch_plot_name(ch_state_board(&st), t_lot(&st, 12), name, sizeof name);
    assert_string_equal(name, r->lots == 60 ? "Harbour 12" : "City Centre 12");
    /* the card set: one plot card per lot and the table's level cards (G-02) */
    int lv[6] = {0}, plots = 0, evs = 0, kinds = 0;
    for (int c = 0; c < st.ncards; c++) {
        if (st.card_event[c]) {
            evs++;
            assert_int_equal(st.card_plot[c], CH_NONE);
            assert_int_equal(st.card_level[c], 0);
            assert_true(st.card_event[c] >= 1 && st.card_event[c] <= CH_GE_KINDS);
            assert_false(kinds >> (st.card_event[c] - 1) & 1); /* each card once */
            kinds |= 1 << (st.card_event[c] - 1);
            assert_int_equal(st.loc[c], CH_LOC_DECK); /* shuffled in after the deal */
        } else if (st.card_level[c]) {
            lv[st.card_level[c]]++;
            assert_int_equal(st.card_plot[c], CH_NONE);
        } else {
            plots++;
            assert_int_equal(st.plot_card[st.card_plot[c]], c);
        }
    }
    assert_int_equal(plots, r->lots);
    for (int k = 2; k <= 5; k++)
        assert_int_equal(lv[k], r->lv[k]);
    assert_int_equal(evs, nev);
    assert_int_equal(st.ncards, r->lots + r->lv[2] + r->lv[3] + r->lv[4] + r->lv[5] + nev);
    assert_int_equal(st.events_on, events != 0);
    /* open cards: turned up before the events go in (G-22): building cards */
    assert_int_equal(st.market_size, r->open);
    for (int i = 0; i < r->open; i++) {
        assert_int_not_equal(st.market[i], CH_NONE);
        assert_int_equal(st.card_event[st.market[i]], 0);
    }
    for (int i = r->open; i < CH_MARKET_MAX; i++)
        assert_int_equal(st.market[i], CH_NONE);
    assert_int_equal(st.ndeck, r->deck + nev);
    assert_int_equal(st.ndiscard, 0);
    /* warehouses, excluding the 9 HQ pieces */
    assert_int_equal(st.warehouses_total, r->warehouses);
    assert_int_equal(st.supply, r->warehouses);
    /* players: hand of plot cards only, capital, two flags, no stock */
    for (int p = 0; p < r->np; p++) {
        assert_int_equal(ch_hand_count(&st, p), r->hand);
        assert_int_equal(levels_in_hand(&st, p), 0);
        for (int c = 0; c < st.ncards; c++)
            if (t_in_hand(&st, p, c))
                assert_int_not_equal(st.card_plot[c], CH_NONE);
        assert_int_equal(st.pl[p].cash, r->cash);
        assert_int_equal(st.pl[p].flags, 2);
        for (int c = 0; c < 9; c++)
            assert_int_equal(st.pl[p].stock[c], 0);
    }
    assert_int_equal(st.total_money, r->np * r->cash);
    /* G-01: nine enterprises, 9 stock cards each in the bank, none on the board */
    assert_int_equal(st.ncompanies, 9);
    static const char *const names[9] = {"Gold", "Coffee", "Pepper", "Gems", "Opium",
                                         "Silver", "Tea", "Silk", "Gunpowder"};
    for (int c = 0; c < 9; c++) {
        assert_string_equal(ch_company_name(&st, c), names[c]);
        assert_int_equal(st.co[c].bank, 9);
        assert_int_equal(st.co[c].on_chart, 0);
        assert_int_equal(st.co[c].value, 0);
        assert_int_equal(st.co[c].hq, CH_NONE);
        assert_int_equal(st.co[c].flag, 0);
    }
    for (int x = 0; x < ch_state_board(&st)->nplots; x++)
        assert_int_equal(st.height[x], 0);
    /* G-06: the starting player is drawn and begins */
    assert_true(st.first_player < r->np);
    assert_int_equal(st.active, st.first_player);
    assert_int_equal(st.phase, CH_PH_TURN);
}

/* G-05 (printed rulebook "Game set up" table; first rules "Setup" table), G-02
 * (no level card in a starting hand), G-21 (no events unless chosen). */
static void setup_tables_no_events_G05(void **s)
{
    (void)s;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        for (uint64_t seed = 1; seed <= 4; seed++)
            check_setup(&rows[i], 0, seed * 7919);
}

/* G-21, G-22: with events, the first rules' count (12, 10, 12, 10, 8) of
 * distinct event cards is shuffled into the deck after the deal and the open
 * cards; both presets use that table. */
static void setup_tables_with_events_G21(void **s)
{
    (void)s;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        for (uint64_t seed = 1; seed <= 4; seed++)
            check_setup(&rows[i], 1, seed * 104729);
}

/* G-21: with fewer than 12 event cards, which ones is drawn at random: over
 * some seeds of a 6-player game (8 cards) more than one set turns up. */
static void setup_event_subset_random_G21(void **s)
{
    (void)s;
    int first = -1, differs = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        ch_state st;
        t_new_ga(&st, 6, CH_GA_PRINTED, 1, seed);
        int kinds = 0;
        for (int c = 0; c < st.ncards; c++)
            if (st.card_event[c])
                kinds |= 1 << (st.card_event[c] - 1);
        assert_int_equal(__builtin_popcount((unsigned)kinds), 8);
        if (first < 0)
            first = kinds;
        differs |= kinds != first;
    }
    assert_true(differs);
}

/* Printed rulebook cover: 2-6 players. */
static void setup_player_range(void **s)
{
    (void)s;
    ch_board b;
    ch_setup su;
    ch_msg m;
    ch_state st;
    assert_int_equal(ch_board_builtin(&b, CH_ED_GOLDEN_AGE, "harbour", &m), CH_OK);
    ch_setup_default(&su, CH_ED_GOLDEN_AGE);
    assert_int_equal(su.preset, CH_GA_PRINTED);
    assert_int_equal(su.events, 0);
    su.nplayers = 1;
    assert_int_equal(ch_new(&st, &su, &b, &m), CH_EINVAL);
    su.nplayers = 7;
    assert_int_equal(ch_new(&st, &su, &b, &m), CH_EINVAL);
    assert_null(ch_ga_side(CH_GA_PRINTED, 7));
}

/* G-06: the seed picks the starting player; the same seed, the same game. */
static void setup_starting_player_G06(void **s)
{
    (void)s;
    int seen = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        ch_state a, b;
        t_new_ga(&a, 4, CH_GA_PRINTED, 1, seed);
        t_new_ga(&b, 4, CH_GA_PRINTED, 1, seed);
        char *ja = ch_state_to_json(&a), *jb = ch_state_to_json(&b);
        assert_string_equal(ja, jb);
        ch_free(ja);
        ch_free(jb);
        seen |= 1 << a.first_player;
    }
    assert_int_equal(seen, 0xF);
}

/* ==== Purchase (printed rulebook "1. Purchase a new building card"; G-08) ======== */

/* Open cards Harbour 21..25, the top of the deck Harbour 30. */
static void shop(ch_state *st)
{
    table(st, 2, 0);
    const char *open[5] = {"21", "22", "23", "24", "25"};
    for (int i = 0; i < 5; i++)
        t_market(st, i, open[i]);
    t_deck_top(st, "30");
    t_valid(st);
}

/* G-08: f50 for the top card of the deck, hidden from the others; the turn ends
 * (no trading after a purchase). */
static void purchase_draw_G08(void **s)
{
    (void)s;
    ch_state st;
    shop(&st);
    int deck = st.ndeck, c30 = t_card(&st, "30");
    t_play(&st, 0, "draw");
    assert_int_equal(st.pl[0].cash, 550);
    assert_int_equal(st.pl[1].cash, 600);
    assert_true(t_in_hand(&st, 0, c30));
    assert_false((st.pl[0].known[c30 >> 6] >> (c30 & 63)) & 1);
    assert_int_equal(ch_hand_count(&st, 0), 1);
    assert_int_equal(st.ndeck, deck - 1);
    assert_int_equal(st.market[0], t_card(&st, "21"));
    /* "This is the end of the turn; the player cannot trade stocks." */
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.active, 1);
    assert_int_equal(count_all(&st, 0), 0);
}

/* G-08: f50 for an open card, which is replaced at once from the deck. */
static void purchase_take_open_refilled_G08(void **s)
{
    (void)s;
    ch_state st;
    shop(&st);
    int deck = st.ndeck;
    t_play(&st, 0, "take Harbour 23");
    assert_int_equal(st.pl[0].cash, 550);
    assert_true(t_in_hand(&st, 0, t_card(&st, "23")));
    assert_int_equal(ch_hand_count(&st, 0), 1);
    assert_int_equal(st.market[2], t_card(&st, "30")); /* the slot refilled */
    assert_int_equal(st.loc[t_card(&st, "30")], CH_LOC_MARKET);
    assert_int_equal(st.ndeck, deck - 1);
    assert_int_equal(st.active, 1);
    assert_int_equal(st.phase, CH_PH_TURN);
}

/* G-08: the optional refresh, f50, shuffles the open cards back and turns up
 * new ones; the purchase follows (f50 more, f100 in all), then the turn ends. */
static void purchase_refresh_G08(void **s)
{
    (void)s;
    ch_state st;
    shop(&st);
    int deck = st.ndeck;
    t_play(&st, 0, "refresh");
    assert_int_equal(st.pl[0].cash, 550);
    assert_int_equal(st.phase, CH_PH_PURCHASE);
    assert_int_equal(st.actor, 0);
    assert_int_equal(st.ndeck, deck); /* five back, five turned up */
    for (int i = 0; i < 5; i++)
        assert_int_not_equal(st.market[i], CH_NONE);
    assert_false(t_legal(&st, 0, "refresh")); /* one refresh, then the purchase */
    assert_false(t_legal(&st, 0, "done"));    /* the purchase is not optional */
    assert_true(t_legal(&st, 0, "draw"));
    t_play(&st, 0, "draw");
    assert_int_equal(st.pl[0].cash, 500);
    assert_int_equal(ch_hand_count(&st, 0), 1);
    assert_int_equal(st.ndeck, deck - 1);
    assert_int_equal(st.active, 1);
}

/* G-08, G-04: a refresh is always followed by a purchase, so it needs f100. */
static void purchase_refresh_needs_f100_G08(void **s)
{
    (void)s;
    ch_state st;
    shop(&st);
    t_cash(&st, 0, 99);
    assert_false(t_legal(&st, 0, "refresh"));
    assert_true(t_legal(&st, 0, "draw"));
    assert_true(t_legal(&st, 0, "take Harbour 21"));
    t_cash(&st, 0, 100);
    assert_true(t_legal(&st, 0, "refresh"));
    t_play(&st, 0, "refresh");
    t_play(&st, 0, "draw");
    assert_int_equal(st.pl[0].cash, 0);
    t_cash(&st, 0, 49); /* P1 to move again with f49: no purchase possible */
    t_turn(&st, 0);
    assert_false(t_legal(&st, 0, "draw"));
    assert_false(t_legal(&st, 0, "take Harbour 21"));
}

/* G-08: "There is no maximum number of cards a player can hold." */
static void purchase_no_hand_limit_G08(void **s)
{
    (void)s;
    ch_state st;
    shop(&st);
    t_hand_fill(&st, 0, 40);
    assert_true(t_legal(&st, 0, "draw"));
    t_play(&st, 0, "draw");
    assert_int_equal(ch_hand_count(&st, 0), 41);
    t_turn(&st, 0);
    t_play(&st, 0, "take Harbour 21");
    assert_int_equal(ch_hand_count(&st, 0), 42);
}

/* G-08: with the deck empty, a taken open card is not replaced; a draw is not
 * possible. */
static void purchase_deck_empty_open_cards_shrink_G08(void **s)
{
    (void)s;
    ch_state st;
    shop(&st);
    t_deck_keep(&st, 0);
    t_valid(&st);
    assert_false(t_legal(&st, 0, "draw"));
    t_play(&st, 0, "take Harbour 22");
    assert_int_equal(st.market[1], CH_NONE);
    assert_int_equal(st.pl[0].cash, 550);
    assert_int_equal(st.market[0], t_card(&st, "21"));
}

/* G-08 with level cards: an open level card is bought like any card (f50). */
static void purchase_open_level_card_G08(void **s)
{
    (void)s;
    ch_state st;
    shop(&st);
    int l2 = t_ga_level(&st, 2);
    char nm[16];
    ch_card_name(&st, l2, nm, sizeof nm);
    /* put the level card into slot 4 (swapping Harbour 25 back into the deck) */
    st.deck[st.ndeck++] = st.market[4];
    st.loc[st.market[4]] = CH_LOC_DECK;
    for (int i = 0; i < st.ndeck; i++)
        if (st.deck[i] == l2) {
            memmove(&st.deck[i], &st.deck[i + 1], (size_t)(st.ndeck - i - 1));
            st.ndeck--;
            break;
        }
    st.market[4] = (uint8_t)l2;
    st.loc[l2] = CH_LOC_MARKET;
    t_valid(&st);
    t_play(&st, 0, "take L2");
    assert_true(t_in_hand(&st, 0, l2));
    assert_int_equal(st.pl[0].cash, 550);
    assert_int_not_equal(st.market[4], CH_NONE);
}

/* ==== Founding (printed rulebook "Founding an enterprise"; first rules "2a."; G-10, G-11) */

/* G-10: a plot card on an isolated lot founds: the builder chooses the
 * enterprise (any not on the board), then the two free lots; f30, payout f30,
 * one free stock; the HQ stack has height 2 (HQ piece not from the supply), the
 * free warehouses height 1; 3 warehouses leave the supply. */
static void found_basic_G10(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    t_give_lot(&st, 0, 13);
    int supply = st.supply, cash = st.pl[0].cash, c13 = t_card(&st, "13");
    t_play(&st, 0, "play Harbour 13");
    assert_int_equal(st.phase, CH_PH_FOUND);
    assert_int_equal(t_count_type(&st, 0, CH_M_FOUND), 9);
    t_play(&st, 0, "found Gold");
    assert_int_equal(st.phase, CH_PH_FREE);
    assert_int_equal(st.actor, 0);
    t_play(&st, 0, "free Harbour 12 + Harbour 14");
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.co[GOLD].on_chart, 1);
    assert_int_equal(st.co[GOLD].value, 30);
    assert_int_equal(st.co[GOLD].hq, t_lot(&st, 13));
    assert_int_equal(st.pl[0].cash, cash + 30);
    assert_int_equal(st.pl[0].stock[GOLD], 1);
    assert_int_equal(st.co[GOLD].bank, 8);
    assert_int_equal(st.height[t_lot(&st, 13)], 2);
    assert_int_equal(st.pflags[t_lot(&st, 13)], CH_PF_HQ);
    for (int n = 12; n <= 14; n += 2) {
        assert_int_equal(st.height[t_lot(&st, n)], 1);
        assert_int_equal(st.pflags[t_lot(&st, n)], CH_PF_FREE);
        assert_int_equal(st.owner[t_lot(&st, n)], GOLD);
        /* the covered lots' cards stay in play */
        assert_int_equal(st.loc[t_card(&st, n == 12 ? "12" : "14")], CH_LOC_DECK);
    }
    assert_int_equal(st.owner[t_lot(&st, 13)], GOLD);
    assert_int_equal(st.supply, supply - 3);
    assert_int_equal(st.loc[c13], CH_LOC_DISCARD);
    assert_int_equal(st.ga_built, GOLD);
    /* Gold is on the board: 8 enterprises are left to found */
    t_play(&st, 0, "done");
    t_turn(&st, 0);
    t_give_lot(&st, 0, 58);
    t_play(&st, 0, "play Harbour 58");
    assert_int_equal(t_count_type(&st, 0, CH_M_FOUND), 8);
    assert_false(t_legal(&st, 0, "found Gold"));
}

/* G-11: the free lots on an open field around Harbour 13 (neighbours 3, 12,
 * 14, 23; 33 lies across the canal): 6 pairs beside the HQ (straight or bent
 * through it) and 10 in a line from it (straight or bent), 16 in all. */
static void found_free_lot_shapes_G11(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    t_give_lot(&st, 0, 13);
    t_play(&st, 0, "play Harbour 13");
    t_play(&st, 0, "found Tea");
    assert_int_equal(t_count_type(&st, 0, CH_M_FREE), 16);
    /* one on each side: straight (both ways) and bent */
    assert_true(t_legal(&st, 0, "free Harbour 12 + Harbour 14"));
    assert_true(t_legal(&st, 0, "free Harbour 3 + Harbour 23"));
    assert_true(t_legal(&st, 0, "free Harbour 3 + Harbour 12"));
    assert_true(t_legal(&st, 0, "free Harbour 14 + Harbour 23"));
    /* both on one side: straight and bent */
    assert_true(t_legal(&st, 0, "free Harbour 14 + Harbour 15"));
    assert_true(t_legal(&st, 0, "free Harbour 11 + Harbour 12"));
    assert_true(t_legal(&st, 0, "free Harbour 14 + Harbour 24"));
    assert_true(t_legal(&st, 0, "free Harbour 4 + Harbour 14"));
    assert_true(t_legal(&st, 0, "free Harbour 22 + Harbour 23"));
    /* the order of the two lots does not matter in notation */
    assert_true(t_legal(&st, 0, "free Harbour 14 + Harbour 12"));
    /* not connected to the HQ as a group of three */
    assert_false(t_legal(&st, 0, "free Harbour 2 + Harbour 4"));
    assert_false(t_legal(&st, 0, "free Harbour 12 + Harbour 24"));
    assert_false(t_legal(&st, 0, "free Harbour 15 + Harbour 16"));
    assert_false(t_legal(&st, 0, "free Harbour 14 + Harbour 16"));
    assert_false(t_legal(&st, 0, "free Harbour 23 + Harbour 33")); /* canal, no bridge */
    assert_false(t_legal(&st, 0, "free Harbour 13 + Harbour 14")); /* "do not stack" */
    t_play(&st, 0, "free Harbour 14 + Harbour 24");
    assert_int_equal(st.co[TEA].value, 30);
    assert_int_equal(st.height[t_lot(&st, 14)], 1);
    assert_int_equal(st.height[t_lot(&st, 24)], 1);
    assert_int_equal(st.height[t_lot(&st, 12)], 0);
}

/* G-10, G-11: the buffer of three lots. Gold stands on Harbour 1, 11, 21
 * (column 1). Column 5 lies at distance 4: a founding there with its free
 * lots in columns 5 and 6 is legal; column 4 (distance 3) may hold neither the
 * HQ nor a free warehouse. */
static void found_buffer_distance_4_G10(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    t_ga_layout(&st, GOLD, 30, "11 1 21");
    t_give_lot(&st, 0, 15);
    t_give_lot(&st, 0, 14);
    t_give_lot(&st, 0, 13);
    t_valid(&st);
    assert_false(t_legal(&st, 0, "play Harbour 14")); /* distance 3 from 11 */
    assert_false(t_legal(&st, 0, "play Harbour 13")); /* distance 2 */
    ch_move mv;
    ch_msg why;
    assert_int_equal(ch_move_parse(&st, 0, "play Harbour 14", &mv, &why), CH_OK);
    assert_int_equal(ch_check(&st, 0, mv, &why), CH_EILLEGAL);
    assert_true(t_legal(&st, 0, "play Harbour 15")); /* distance 4 */
    assert_int_equal(t_count_type(&st, 0, CH_M_PLAY), 1);
    t_play(&st, 0, "play Harbour 15");
    t_play(&st, 0, "found Silk");
    /* neighbours of 15: 5, 14 (danger), 16 (bridge), 25; from 16: 6, 17, 26 */
    assert_int_equal(t_count_type(&st, 0, CH_M_FREE), 6);
    assert_true(t_legal(&st, 0, "free Harbour 5 + Harbour 25"));
    assert_true(t_legal(&st, 0, "free Harbour 5 + Harbour 16"));
    assert_true(t_legal(&st, 0, "free Harbour 16 + Harbour 25"));
    assert_true(t_legal(&st, 0, "free Harbour 6 + Harbour 16"));
    assert_true(t_legal(&st, 0, "free Harbour 16 + Harbour 17"));
    assert_true(t_legal(&st, 0, "free Harbour 16 + Harbour 26"));
    assert_false(t_legal(&st, 0, "free Harbour 5 + Harbour 14"));
    assert_false(t_legal(&st, 0, "free Harbour 14 + Harbour 25"));
    assert_false(t_legal(&st, 0, "free Harbour 4 + Harbour 5"));    /* 4: distance 3 from 1 */
    assert_false(t_legal(&st, 0, "free Harbour 24 + Harbour 25"));  /* 24: distance 3 from 21 */
    t_play(&st, 0, "free Harbour 5 + Harbour 25");
    assert_int_equal(st.co[SILK].value, 30);
    t_play(&st, 0, "done");
    /* "as of the next turn warehouses can be built in this buffer zone" */
    t_turn(&st, 0);
    assert_true(t_legal(&st, 0, "play Harbour 14")); /* touches Silk: expands */
    assert_false(t_legal(&st, 0, "play Harbour 13"));
    t_play(&st, 0, "play Harbour 14");
    assert_int_equal(st.co[SILK].value, 40);
    t_play(&st, 0, "done");
    t_turn(&st, 0);
    assert_true(t_legal(&st, 0, "play Harbour 13")); /* now touches Silk's 14 */
}

/* G-09, G-10: distance runs across bridges. Gold on 31, 41, 51 (column 1 below
 * the canal; the bridge 22-32 is the only crossing nearby): 22 lies at
 * distance 2, 12 at 3 and 2 at 4; 11 and 13 at 4 too (through 22-32). */
static void found_buffer_through_bridge_G10(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    t_ga_layout(&st, GOLD, 30, "41 31 51");
    /* Harbour 22 is at distance 2 from 31 across the bridge 22-32 */
    t_give_lot(&st, 0, 22);
    t_give_lot(&st, 0, 12);
    t_give_lot(&st, 0, 2);
    t_valid(&st);
    assert_false(t_legal(&st, 0, "play Harbour 22")); /* 22-32-31: 2 */
    assert_false(t_legal(&st, 0, "play Harbour 12")); /* 12-22-32-31: 3 */
    assert_true(t_legal(&st, 0, "play Harbour 2"));   /* 2-12-22-32-31: 4 */
    t_play(&st, 0, "play Harbour 2");
    t_play(&st, 0, "found Coffee");
    /* 12 is in the buffer: {1, 3}, {1, 11}, {3, 4}, {3, 13} remain */
    assert_int_equal(t_count_type(&st, 0, CH_M_FREE), 4);
    assert_false(t_legal(&st, 0, "free Harbour 1 + Harbour 12"));
    assert_false(t_legal(&st, 0, "free Harbour 3 + Harbour 12"));
    assert_true(t_legal(&st, 0, "free Harbour 1 + Harbour 3"));
    assert_true(t_legal(&st, 0, "free Harbour 1 + Harbour 11"));
    assert_true(t_legal(&st, 0, "free Harbour 3 + Harbour 4"));
    assert_true(t_legal(&st, 0, "free Harbour 3 + Harbour 13"));
}

/* G-10: an HQ must be available: with all nine enterprises on the board a
 * plot card that would found cannot be played. */
static void found_needs_hq_G10(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    t_ga_layout(&st, GOLD, 30, "1 2");
    t_ga_layout(&st, COFFEE, 30, "4 5");
    t_ga_layout(&st, PEPPER, 30, "21 22");
    t_ga_layout(&st, GEMS, 30, "24 25");
    t_ga_layout(&st, OPIUM, 30, "33 34");
    t_ga_layout(&st, SILVER, 30, "51 52");
    t_ga_layout(&st, TEA, 30, "54 55");
    t_ga_layout(&st, SILK, 30, "9 10");
    t_give_lot(&st, 0, 58);
    t_valid(&st);
    assert_true(t_legal(&st, 0, "play Harbour 58"));
    ch_state nine = st;
    t_ga_layout(&nine, GUNPOWDER, 30, "6 7"); /* far from 58 */
    t_valid(&nine);
    assert_false(t_legal(&nine, 0, "play Harbour 58"));
    /* with one enterprise off the board again, only that one can be founded */
    t_play(&st, 0, "play Harbour 58");
    assert_int_equal(t_count_type(&st, 0, CH_M_FOUND), 1);
    assert_true(t_legal(&st, 0, "found Gunpowder"));
}

/* Bottom-right quarter: Gunpowder, to take warehouses out of the supply. */
static void pad(ch_state *st, int keep)
{
    t_ga_layout(st, GUNPOWDER, 200, "60 36 37 38 39 40 46 47 48 49 50 56 57 58 59");
    t_ga_fill_supply(st, GUNPOWDER, keep);
    t_valid(st);
}

/* G-10: a founding needs 3 warehouses in the supply. */
static void found_needs_three_warehouses_G10(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    pad(&st, 3);
    t_give_lot(&st, 0, 3);
    assert_int_equal(st.supply, 3);
    assert_true(t_legal(&st, 0, "play Harbour 3"));
    ch_state two = st;
    t_ga_fill_supply(&two, GUNPOWDER, 2);
    t_valid(&two);
    assert_false(t_legal(&two, 0, "play Harbour 3"));
    t_play(&st, 0, "play Harbour 3");
    t_play(&st, 0, "found Gold");
    t_play(&st, 0, "free Harbour 2 + Harbour 4");
    assert_int_equal(st.supply, 0);
}

/* G-10: a plot card that can neither found nor touch an enterprise cannot be
 * played, so no lone warehouse is ever built. */
static void unplayable_card_G10(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    t_ga_layout(&st, GOLD, 30, "11 12");
    t_give_lot(&st, 0, 14); /* distance 2 from 12, not touching */
    t_give_lot(&st, 0, 13); /* touches 12 */
    assert_false(t_legal(&st, 0, "play Harbour 14"));
    assert_true(t_legal(&st, 0, "play Harbour 13"));
    assert_int_equal(t_count_type(&st, 0, CH_M_PLAY), 1);
}

/* ==== Expanding (printed rulebook "Expanding an enterprise"; first rules 2b; G-12, G-13) */

/* A plot card next to an enterprise adds f10; the builder receives the new value. */
static void expand_plot_card_G12(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    t_ga_layout(&st, GOLD, 30, "13 f12 f14");
    t_give_lot(&st, 0, 15);
    int cash = st.pl[0].cash, supply = st.supply;
    t_play(&st, 0, "play Harbour 15");
    assert_int_equal(st.co[GOLD].value, 40);
    assert_int_equal(st.pl[0].cash, cash + 40);
    assert_int_equal(st.height[t_lot(&st, 15)], 1);
    assert_int_equal(st.owner[t_lot(&st, 15)], GOLD);
    assert_int_equal(st.pflags[t_lot(&st, 15)], 0);
    assert_int_equal(st.supply, supply - 1);
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.ga_built, GOLD);
    assert_int_equal(st.loc[t_card(&st, "15")], CH_LOC_DISCARD);
}

/* G-13: the plot card of a lot covered by a free warehouse stacks on it: +f10
 * (not the f20 of a second level), and the stack is a second level. */
static void expand_on_free_warehouse_G13(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3, 0);
    t_ga_layout(&st, GOLD, 30, "13 f12 f14");
    t_give_lot(&st, 0, 14);
    t_ga_give_level(&st, 1, 3);
    int cash = st.pl[0].cash, supply = st.supply;
    t_play(&st, 0, "play Harbour 14");
    assert_int_equal(st.co[GOLD].value, 40);
    assert_int_equal(st.pl[0].cash, cash + 40);
    assert_int_equal(st.height[t_lot(&st, 14)], 2);
    assert_false(st.pflags[t_lot(&st, 14)] & CH_PF_FREE);
    assert_int_equal(st.owner[t_lot(&st, 14)], GOLD);
    assert_int_equal(st.supply, supply - 1);
    t_play(&st, 0, "done");
    /* a third level now fits on it */
    assert_int_equal(st.active, 1);
    assert_true(t_legal(&st, 1, "play L3 Harbour 14"));
    assert_false(t_legal(&st, 1, "play L3 Harbour 12"));
}

/* ==== Levels (printed rulebook "Expanding an enterprise"; first rules 2c; G-12, G-14) === */

/* City centre (4 players: levels 2 to 5). Gold: HQ on 13 (height 2), a free
 * warehouse on 12, 14 (height 1), 15 (height 2), value f60. */
static void level_table(ch_state *st)
{
    table(st, 4, 0);
    t_ga_layout(st, GOLD, 60, "13 f12 14 15:2");
    for (int k = 2; k <= 5; k++)
        t_ga_give_level(st, 0, k);
    t_valid(st);
}

/* G-14: a level k goes on any stack of height k-1 of an enterprise; the HQ
 * stack counts as a second level; a free warehouse is a first level. */
static void level_targets_G14(void **s)
{
    (void)s;
    ch_state st;
    level_table(&st);
    assert_true(t_legal(&st, 0, "play L2 City Centre 12"));  /* free warehouse */
    assert_true(t_legal(&st, 0, "play L2 City Centre 14"));
    assert_false(t_legal(&st, 0, "play L2 City Centre 13")); /* HQ: second level */
    assert_false(t_legal(&st, 0, "play L2 City Centre 15"));
    assert_false(t_legal(&st, 0, "play L2 City Centre 16")); /* empty lot */
    assert_true(t_legal(&st, 0, "play L3 City Centre 13"));
    assert_true(t_legal(&st, 0, "play L3 City Centre 15"));
    assert_false(t_legal(&st, 0, "play L3 City Centre 14"));
    assert_false(t_legal(&st, 0, "play L4 City Centre 13"));
    assert_false(t_legal(&st, 0, "play L5 City Centre 13"));
    /* L2: 2 targets, L3: 2, L4: 0, L5: 0 */
    assert_int_equal(t_count_type(&st, 0, CH_M_PLAY), 4);
}

/* G-12, G-14: level k adds k x f10 and pays the new value: L3 on the HQ
 * (+f30), then L4 (+f40) and L5 (+f50) on the same stack, L2 elsewhere (+f20). */
static void level_values_G14(void **s)
{
    (void)s;
    ch_state st;
    level_table(&st);
    int supply = st.supply;
    int32_t cash = st.pl[0].cash;
    static const struct { const char *mv; int value, height; } steps[] = {
        {"play L3 City Centre 13", 90, 3},
        {"play L4 City Centre 13", 130, 4},
        {"play L5 City Centre 13", 180, 5},
        {"play L2 City Centre 14", 200, 2},
    };
    for (int i = 0; i < 4; i++) {
        t_turn(&st, 0);
        t_play(&st, 0, steps[i].mv);
        assert_int_equal(st.co[GOLD].value, steps[i].value);
        cash += steps[i].value;
        assert_int_equal(st.pl[0].cash, cash);
        assert_int_equal(st.supply, supply - 1 - i);
        assert_int_equal(st.phase, CH_PH_TRADE);
        assert_int_equal(st.ga_built, GOLD);
        t_play(&st, 0, "done");
    }
    assert_int_equal(st.height[t_lot(&st, 13)], 5);
    assert_int_equal(st.height[t_lot(&st, 14)], 2);
    assert_true(st.pflags[t_lot(&st, 13)] & CH_PF_HQ);
    assert_int_equal(levels_in_hand(&st, 0), 0);
}

/* The card sets: no fourth level with 2 players, no fifth on the harbour side. */
static void level_cards_by_side_G05(void **s)
{
    (void)s;
    ch_state st;
    t_new_ga(&st, 2, CH_GA_PRINTED, 0, 5);
    for (int c = 0; c < st.ncards; c++)
        assert_true(st.card_level[c] <= 3);
    t_new_ga(&st, 3, CH_GA_FIRST, 0, 5);
    for (int c = 0; c < st.ncards; c++)
        assert_true(st.card_level[c] <= 4);
}

/* ==== Mergers (printed rulebook "Merging enterprises"; first rules 2d; G-15, G-16) ==== */

/* Gold: HQ 11 and 12; Tea: HQ 15 and 14; the builder P1 holds 13. */
static void two_way(ch_state *st, int np, int gold, int tea)
{
    table(st, np, 0);
    t_ga_layout(st, GOLD, gold, "11 12");
    t_ga_layout(st, TEA, tea, "15 14");
    t_give_lot(st, 0, 13);
    t_valid(st);
}

/* G-15: the builder credits the f10; the higher absorbs the lower; every
 * stock of the lower and its flag are sold at its value (the flag as four,
 * gone for good); its HQ leaves its stack (one lower); the builder is paid
 * the survivor's final value once. */
static void merge_two_way_G15(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 3, 100, 110);
    t_stock(&st, 0, GOLD, 1);
    t_stock(&st, 1, GOLD, 2);
    t_stock(&st, 2, GOLD, 3);
    t_stock(&st, 2, TEA, 1);
    t_ga_flag(&st, 1, GOLD);
    int32_t c0 = st.pl[0].cash, c1 = st.pl[1].cash, c2 = st.pl[2].cash;
    int supply = st.supply;
    t_play(&st, 0, "play Harbour 13");
    assert_int_equal(st.phase, CH_PH_CREDIT);
    assert_int_equal(t_count_type(&st, 0, CH_M_CREDIT), 2);
    t_play(&st, 0, "credit Tea");
    /* 120 > 100: no choice left; straight to trading */
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.co[TEA].value, 220);
    assert_int_equal(st.co[GOLD].on_chart, 0);
    assert_int_equal(st.co[GOLD].value, 0);
    assert_int_equal(st.co[GOLD].hq, CH_NONE);
    assert_int_equal(st.co[GOLD].bank, 9);
    assert_int_equal(st.co[GOLD].flag, 0);
    assert_int_equal(st.pl[0].cash, c0 + 100 + 220);
    assert_int_equal(st.pl[1].cash, c1 + 2 * 100 + 4 * 100);
    assert_int_equal(st.pl[2].cash, c2 + 3 * 100);
    for (int p = 0; p < 3; p++)
        assert_int_equal(st.pl[p].stock[GOLD], 0);
    assert_int_equal(st.pl[2].stock[TEA], 1);
    assert_int_equal(st.pl[1].flags, 1); /* "Your flag is not returned to you" */
    assert_int_equal(st.height[t_lot(&st, 11)], 1);
    assert_int_equal(st.pflags[t_lot(&st, 11)], 0);
    for (int n = 11; n <= 15; n++)
        assert_int_equal(st.owner[t_lot(&st, n)], TEA);
    assert_int_equal(st.co[TEA].hq, t_lot(&st, 15));
    assert_int_equal(st.supply, supply - 1);
    assert_int_equal(st.ga_built, TEA);
    assert_true(t_legal(&st, 0, "flag Tea"));
    assert_false(t_legal(&st, 0, "flag Gold"));
    assert_false(t_legal(&st, 0, "buy Gold"));
    /* Gold can be founded again, with all 9 stock cards in the bank */
    t_play(&st, 0, "done");
    t_turn(&st, 0);
    t_give_lot(&st, 0, 58);
    t_play(&st, 0, "play Harbour 58");
    assert_true(t_legal(&st, 0, "found Gold"));
}

/* G-15: the credit can decide the survivor: at f50 each, the credited one wins. */
static void merge_credit_decides_G15(void **s)
{
    (void)s;
    ch_state a, b;
    two_way(&a, 2, 50, 50);
    b = a;
    t_play(&a, 0, "play Harbour 13");
    t_play(&a, 0, "credit Gold");
    assert_int_equal(a.co[GOLD].value, 110);
    assert_int_equal(a.co[TEA].on_chart, 0);
    assert_int_equal(a.height[t_lot(&a, 15)], 1);
    t_play(&b, 0, "play Harbour 13");
    t_play(&b, 0, "credit Tea");
    assert_int_equal(b.co[TEA].value, 110);
    assert_int_equal(b.co[GOLD].on_chart, 0);
    assert_int_equal(b.owner[t_lot(&b, 11)], TEA);
}

/* G-15: a tie after the credit is decided by the builder. */
static void merge_tie_builder_decides_G15(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 2, 50, 40);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour 13");
    t_play(&st, 0, "credit Tea"); /* 50 = 50 */
    assert_int_equal(st.phase, CH_PH_MERGE);
    assert_int_equal(st.actor, 0);
    assert_int_equal(t_count_type(&st, 0, CH_M_MERGE), 2);
    assert_true(t_legal(&st, 0, "merge Gold into Tea"));
    assert_true(t_legal(&st, 0, "merge Tea into Gold"));
    t_play(&st, 0, "merge Tea into Gold");
    assert_int_equal(st.co[GOLD].value, 100);
    assert_int_equal(st.co[TEA].on_chart, 0);
    assert_int_equal(st.height[t_lot(&st, 15)], 1);
    assert_int_equal(st.pl[0].cash, cash + 100);
    assert_int_equal(st.phase, CH_PH_TRADE);
}

/* G-12, G-15: the absorbed HQ leaves its stack, which is one lower, levels
 * included: an HQ stack with a third level (height 3) keeps height 2, a
 * second level of the survivor, which takes a third level again. */
static void merge_hq_stack_lower_G12(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 3, 60, 100);
    /* Gold's HQ stack: warehouse, HQ piece and a third level */
    st.height[t_lot(&st, 11)] = 3;
    st.supply--;
    t_sync(&st);
    t_valid(&st);
    t_ga_give_level(&st, 1, 3);
    t_ga_give_level(&st, 1, 2);
    t_play(&st, 0, "play Harbour 13");
    t_play(&st, 0, "credit Gold"); /* 70 < 100 */
    assert_int_equal(st.co[TEA].value, 170);
    assert_int_equal(st.height[t_lot(&st, 11)], 2);
    assert_int_equal(st.owner[t_lot(&st, 11)], TEA);
    t_play(&st, 0, "done");
    assert_true(t_legal(&st, 1, "play L3 Harbour 11"));
    assert_false(t_legal(&st, 1, "play L2 Harbour 11"));
}

/* Harbour 22 (bridge to 32): Gold up (12, HQ 2), Coffee right (23, HQ 24),
 * Tea down (32, HQ 42). */
static void three_way(ch_state *st, int np, int gold, int coffee, int tea)
{
    table(st, np, 0);
    t_ga_layout(st, GOLD, gold, "2 12");
    t_ga_layout(st, COFFEE, coffee, "24 23");
    t_ga_layout(st, TEA, tea, "42 32");
    t_give_lot(st, 0, 22);
    t_valid(st);
}

/* G-15: in a three-way merger the builder picks the first pair regardless of
 * size (the higher of the pair absorbs); the last pair follows; one payout. */
static void merge_three_way_builder_picks_G15(void **s)
{
    (void)s;
    ch_state st;
    three_way(&st, 2, 40, 60, 200);
    t_stock(&st, 1, COFFEE, 2);
    t_stock(&st, 1, GOLD, 1);
    int32_t c0 = st.pl[0].cash, c1 = st.pl[1].cash;
    t_play(&st, 0, "play Harbour 22");
    assert_int_equal(t_count_type(&st, 0, CH_M_CREDIT), 3);
    t_play(&st, 0, "credit Gold"); /* Gold 50 */
    assert_int_equal(st.phase, CH_PH_MERGE);
    /* any pair; within it the higher absorbs */
    assert_int_equal(t_count_type(&st, 0, CH_M_MERGE), 3);
    assert_true(t_legal(&st, 0, "merge Gold into Coffee"));
    assert_true(t_legal(&st, 0, "merge Gold into Tea"));
    assert_true(t_legal(&st, 0, "merge Coffee into Tea"));
    assert_false(t_legal(&st, 0, "merge Coffee into Gold"));
    assert_false(t_legal(&st, 0, "merge Tea into Coffee"));
    /* the builder merges the two largest first */
    t_play(&st, 0, "merge Coffee into Tea"); /* Tea 260; Coffee's 2 stocks at f60 */
    assert_int_equal(st.co[COFFEE].on_chart, 0);
    /* Gold (50) and Tea (260) follow without a choice: Gold's stock at f50 */
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.co[GOLD].on_chart, 0);
    assert_int_equal(st.co[TEA].value, 310);
    assert_int_equal(st.pl[1].cash, c1 + 2 * 60 + 50);
    assert_int_equal(st.pl[0].cash, c0 + 310); /* paid once */
    assert_int_equal(st.height[t_lot(&st, 2)], 1);
    assert_int_equal(st.height[t_lot(&st, 24)], 1);
    assert_int_equal(st.height[t_lot(&st, 42)], 2);
    for (int c = 0; c < 9; c++)
        assert_int_equal(st.co[c].on_chart, c == TEA);
}

/* G-16: four enterprises around City Centre 28 (neighbours 18, 27, 29 and 38
 * across the bridge): the builder picks the next pair each time. */
static void merge_four_way_G16(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 4, 0);
    t_ga_layout(&st, GOLD, 30, "8 18");
    t_ga_layout(&st, COFFEE, 40, "26 27");
    t_ga_layout(&st, PEPPER, 50, "30 29");
    t_ga_layout(&st, TEA, 60, "48 38");
    t_give_lot(&st, 0, 28);
    t_valid(&st);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play City Centre 28");
    assert_int_equal(t_count_type(&st, 0, CH_M_CREDIT), 4);
    t_play(&st, 0, "credit Tea"); /* 30 40 50 70 */
    assert_int_equal(t_count_type(&st, 0, CH_M_MERGE), 6);
    t_play(&st, 0, "merge Gold into Coffee"); /* Coffee 70 */
    assert_int_equal(st.phase, CH_PH_MERGE);
    /* 50, 70, 70: Pepper into either, and the tie both ways */
    assert_int_equal(t_count_type(&st, 0, CH_M_MERGE), 4);
    t_play(&st, 0, "merge Tea into Coffee"); /* Coffee 140 */
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.co[COFFEE].value, 190);
    assert_int_equal(st.pl[0].cash, cash + 190);
    for (int c = 0; c < 9; c++)
        assert_int_equal(st.co[c].on_chart, c == COFFEE);
    for (int n = 8; n <= 48; n++) {
        int x = t_lot(&st, n);
        if (st.height[x])
            assert_int_equal(st.owner[x], COFFEE);
    }
}

/* G-15: only the enterprises touching the new warehouse can be credited. */
static void merge_credit_only_touching_G15(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 2, 50, 60);
    t_ga_layout(&st, COFFEE, 200, "58 59");
    t_valid(&st);
    t_play(&st, 0, "play Harbour 13");
    assert_false(t_legal(&st, 0, "credit Coffee"));
    assert_false(t_legal(&st, 0, "done"));
    assert_int_equal(count_all(&st, 0), 2);
    t_play(&st, 0, "credit Gold"); /* 60 = 60: a tie, the builder decides */
    assert_int_equal(st.phase, CH_PH_MERGE);
    t_play(&st, 0, "merge Tea into Gold");
    assert_int_equal(st.co[GOLD].value, 120);
    assert_int_equal(st.co[COFFEE].value, 200);
}

/* G-15: "The value of an enterprise can never rise above f500": a merger
 * beyond it stops at f500 and pays f500. */
static void merge_cap_500_G15(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 2, 300, 250);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour 13");
    t_play(&st, 0, "credit Tea");
    assert_int_equal(st.co[GOLD].value, 500);
    assert_int_equal(st.pl[0].cash, cash + 500);
}

/* G-15: all stocks of the absorbed enterprise are sold: nobody may keep any
 * (no sell-or-keep decision as in Building Amsterdam). */
static void merge_forced_liquidation_G15(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 2, 30, 40);
    t_stock(&st, 0, GOLD, 4);
    t_stock(&st, 1, GOLD, 5);
    int32_t c0 = st.pl[0].cash, c1 = st.pl[1].cash;
    t_play(&st, 0, "play Harbour 13");
    assert_int_equal(t_count_type(&st, 0, CH_M_CREDIT), 2);
    t_play(&st, 0, "credit Tea"); /* 30 < 50 */
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_false(t_legal(&st, 0, "keep Gold"));
    assert_int_equal(st.pl[0].cash, c0 + 4 * 30 + 80);
    assert_int_equal(st.pl[1].cash, c1 + 5 * 30);
    assert_int_equal(st.co[GOLD].bank, 9);
    assert_int_equal(st.co[TEA].value, 80);
}

/* ==== Value range (first rules "Stocks"; G-15): f30 to f500 ============================ */

static void value_cap_on_expansion_G15(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3, 0);
    t_ga_layout(&st, GOLD, 500, "13 f12 f14");
    t_give_lot(&st, 0, 15);
    t_ga_give_level(&st, 1, 3);
    int32_t c0 = st.pl[0].cash, c1 = st.pl[1].cash;
    t_play(&st, 0, "play Harbour 15");
    assert_int_equal(st.co[GOLD].value, 500);
    assert_int_equal(st.pl[0].cash, c0 + 500);
    t_play(&st, 0, "done");
    t_play(&st, 1, "play L3 Harbour 13");
    assert_int_equal(st.co[GOLD].value, 500);
    assert_int_equal(st.pl[1].cash, c1 + 500);
}

/* ==== Trading (printed rulebook "Trading and flag stock"; first rules "Stocks"; G-17) == */

/* Gold (HQ 13, free 12 and 14, f30) and Tea (HQ 52, 53, f120); P1 holds 15. */
static void trade_table(ch_state *st)
{
    table(st, 2, 0);
    t_ga_layout(st, GOLD, 30, "13 f12 f14");
    t_ga_layout(st, TEA, 120, "52 53");
    t_give_lot(st, 0, 15);
    t_valid(st);
}

/* Two transactions after building; a buy costs max(f50, value); the turn
 * ends after the second. Trading changes no value. */
static void trade_two_transactions_G17(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_cash(&st, 0, 200);
    t_play(&st, 0, "play Harbour 15"); /* Gold 40: +40 */
    assert_int_equal(st.pl[0].cash, 240);
    t_play(&st, 0, "buy Gold"); /* value f40, the minimum price f50 */
    assert_int_equal(st.pl[0].cash, 190);
    assert_int_equal(st.pl[0].stock[GOLD], 1);
    assert_int_equal(st.co[GOLD].bank, 8);
    assert_int_equal(st.phase, CH_PH_TRADE);
    t_play(&st, 0, "buy Tea"); /* an enterprise not built on: f120 */
    assert_int_equal(st.pl[0].cash, 70);
    assert_int_equal(st.pl[0].stock[TEA], 1);
    assert_int_equal(st.co[TEA].bank, 8);
    /* two transactions: the turn is over */
    assert_int_equal(st.active, 1);
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.co[GOLD].value, 40);
    assert_int_equal(st.co[TEA].value, 120);
}

/* Selling is always at the actual value, even below f50; a buy and a sell of
 * the same enterprise are two transactions. */
static void trade_sell_at_value_G17(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_stock(&st, 0, GOLD, 2);
    t_cash(&st, 0, 0);
    t_play(&st, 0, "play Harbour 15");
    t_play(&st, 0, "sell Gold");
    assert_int_equal(st.pl[0].cash, 40 + 40);
    assert_int_equal(st.co[GOLD].bank, 8);
    t_play(&st, 0, "buy Gold");
    assert_int_equal(st.pl[0].cash, 80 - 50);
    assert_int_equal(st.pl[0].stock[GOLD], 2);
    assert_int_equal(st.active, 1);
}

/* No buy without a stock card in the bank, nor without the cash; no trade in
 * an enterprise off the board; no founder's discount (the free stock is the
 * bonus). */
static void trade_limits_G17(void **s)
{
    (void)s;
    ch_state st;
    trade_table(&st);
    t_stock(&st, 1, TEA, 9);
    t_cash(&st, 0, 0);
    t_play(&st, 0, "play Harbour 15"); /* cash f40 */
    assert_false(t_legal(&st, 0, "buy Tea"));    /* bank empty */
    assert_false(t_legal(&st, 0, "buy Gold"));   /* f50 > f40 */
    assert_false(t_legal(&st, 0, "buy Coffee")); /* not on the board */
    assert_false(t_legal(&st, 0, "sell Tea"));   /* holds none */
    assert_true(t_legal(&st, 0, "done"));

    ch_state f;
    table(&f, 2, 0);
    t_give_lot(&f, 0, 13);
    t_cash(&f, 0, 100);
    t_play(&f, 0, "play Harbour 13");
    t_play(&f, 0, "found Gold");
    t_play(&f, 0, "free Harbour 12 + Harbour 14");
    assert_int_equal(f.pl[0].cash, 130);
    t_play(&f, 0, "buy Gold"); /* f50, not the value f30 */
    assert_int_equal(f.pl[0].cash, 80);
    assert_int_equal(f.pl[0].stock[GOLD], 2);
}

/* ==== Flags (printed rulebook "Trading and flag stock"; G-17, G-18) ===================== */

/* The first flag costs f200, the second f400, whatever the value; a flag is
 * bought instead of trading (the turn ends); with no flag left, none. */
static void flag_prices_G17(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    t_ga_layout(&st, GOLD, 30, "13 f12 f14");
    t_ga_layout(&st, TEA, 300, "52 53");
    t_ga_layout(&st, COFFEE, 30, "19 20");
    t_give_lot(&st, 0, 15);
    t_give_lot(&st, 0, 54);
    t_give_lot(&st, 0, 18);
    t_cash(&st, 0, 1000);
    t_play(&st, 0, "play Harbour 15"); /* +40 */
    t_play(&st, 0, "flag Gold");
    assert_int_equal(st.pl[0].cash, 1040 - 200);
    assert_int_equal(st.pl[0].flags, 1);
    assert_int_equal(st.co[GOLD].flag, 1);
    assert_int_equal(st.active, 1); /* instead of trading: the turn is over */
    assert_int_equal(st.co[GOLD].bank, 9); /* a flag is no stock card */
    t_turn(&st, 0);
    t_play(&st, 0, "play Harbour 54"); /* Tea 310: +310 */
    t_play(&st, 0, "flag Tea");
    assert_int_equal(st.pl[0].cash, 840 + 310 - 400);
    assert_int_equal(st.pl[0].flags, 0);
    assert_int_equal(st.co[TEA].flag, 1);
    t_turn(&st, 0);
    t_play(&st, 0, "play Harbour 18");
    assert_false(t_legal(&st, 0, "flag Coffee"));
    assert_int_equal(t_count_type(&st, 0, CH_M_FLAG), 0);
}

/* One flag per enterprise; only for the enterprise just built on; not after
 * a trade; not without the cash. */
static void flag_restrictions_G17(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    t_ga_layout(&st, GOLD, 30, "13 f12 f14");
    t_ga_layout(&st, TEA, 100, "52 53");
    t_give_lot(&st, 0, 15);
    t_give_lot(&st, 0, 54);
    ch_state base = st;

    t_ga_flag(&st, 1, TEA);
    t_cash(&st, 0, 1000);
    t_play(&st, 0, "play Harbour 54");
    assert_false(t_legal(&st, 0, "flag Tea")); /* P2's flag is on Tea */

    st = base;
    t_cash(&st, 0, 1000);
    t_play(&st, 0, "play Harbour 15");
    assert_false(t_legal(&st, 0, "flag Tea")); /* not built on */
    assert_true(t_legal(&st, 0, "flag Gold"));
    t_play(&st, 0, "buy Tea");
    assert_false(t_legal(&st, 0, "flag Gold")); /* instead of trading */

    st = base;
    t_cash(&st, 0, 159);
    t_play(&st, 0, "play Harbour 15"); /* f199 */
    assert_false(t_legal(&st, 0, "flag Gold"));
    st = base;
    t_cash(&st, 0, 160);
    t_play(&st, 0, "play Harbour 15"); /* f200 */
    t_play(&st, 0, "flag Gold");
    assert_int_equal(st.pl[0].cash, 0);
}

/* G-18: a level card expands too, a founding allows a flag on the new
 * enterprise, a merger on the survivor only. */
static void flag_after_level_found_merge_G18(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    t_ga_layout(&st, GOLD, 30, "13 f12 f14");
    t_ga_give_level(&st, 0, 3);
    t_play(&st, 0, "play L3 Harbour 13");
    assert_true(t_legal(&st, 0, "flag Gold"));

    table(&st, 2, 0);
    t_give_lot(&st, 0, 13);
    t_play(&st, 0, "play Harbour 13");
    t_play(&st, 0, "found Pepper");
    t_play(&st, 0, "free Harbour 12 + Harbour 14");
    assert_true(t_legal(&st, 0, "flag Pepper"));
    t_play(&st, 0, "flag Pepper");
    assert_int_equal(st.co[PEPPER].flag, 1);

    two_way(&st, 2, 100, 50);
    t_play(&st, 0, "play Harbour 13");
    t_play(&st, 0, "credit Tea");
    assert_true(t_legal(&st, 0, "flag Gold"));
    assert_false(t_legal(&st, 0, "flag Tea"));
}

/* ==== The forced option (printed rulebook "Your turn", Reminder; first rules 3.; G-19, G-20) */

/* Gold (f40) on the board; open cards and deck as in setup; P1 has an empty
 * hand (cannot build). */
static void forced_table(ch_state *st, int32_t cash)
{
    table(st, 2, 0);
    t_ga_layout(st, GOLD, 40, "11 12");
    t_ga_market_fill(st);
    t_cash(st, 0, cash);
    t_valid(st);
}

/* G-20: with f20 and no playable card, P1 must sell; with f60 they must then
 * purchase (no "done"), and the turn ends. */
static void forced_sell_then_purchase_G20(void **s)
{
    (void)s;
    ch_state st;
    forced_table(&st, 20);
    t_stock(&st, 0, GOLD, 1);
    assert_int_equal(count_all(&st, 0), 1);
    assert_true(t_legal(&st, 0, "sell Gold"));
    assert_false(t_legal(&st, 0, "pass"));
    assert_false(t_legal(&st, 0, "draw"));
    assert_false(t_legal(&st, 0, "done"));
    t_play(&st, 0, "sell Gold");
    assert_int_equal(st.pl[0].cash, 60);
    assert_int_equal(st.phase, CH_PH_FORCED);
    assert_int_equal(st.actor, 0);
    assert_false(t_legal(&st, 0, "done")); /* the purchase is compulsory */
    assert_false(t_legal(&st, 0, "refresh"));
    assert_true(t_legal(&st, 0, "draw"));
    t_play(&st, 0, "draw");
    assert_int_equal(st.pl[0].cash, 10);
    assert_int_equal(ch_hand_count(&st, 0), 1);
    assert_int_equal(st.active, 1);
    assert_int_equal(st.phase, CH_PH_TURN);
}

/* Printed rulebook "Your turn" ("you must sell stock card(s) to the bank
 * and purchase a new building card"); G-20 (issue 29): one stock at a time;
 * while the cash is short and a stock is left the player must sell more (no
 * "done"); with f50 reached the purchase follows. */
static void forced_sell_several_G20(void **s)
{
    (void)s;
    ch_state st;
    forced_table(&st, 0);
    t_stock(&st, 0, GOLD, 2);
    st.co[GOLD].value = 30;
    t_play(&st, 0, "sell Gold");
    assert_int_equal(st.pl[0].cash, 30);
    assert_false(t_legal(&st, 0, "done"));
    assert_true(t_legal(&st, 0, "sell Gold"));
    assert_false(t_legal(&st, 0, "draw"));
    assert_int_equal(count_all(&st, 0), 1);
    t_play(&st, 0, "sell Gold");
    assert_int_equal(st.pl[0].cash, 60);
    assert_false(t_legal(&st, 0, "done"));
    t_play(&st, 0, "take L3");
    assert_int_equal(st.pl[0].cash, 10);
    assert_int_equal(st.active, 1);
}

/* The issue 29 case (printed rulebook "Your turn", Reminder: "must sell at
 * least one of your stocks to the bank and buy a new building card"; G-20):
 * f0, a Gold stock (f30) and a Coffee stock (f120): after selling Gold the
 * player may not end the turn, but sells Coffee and purchases. */
static void forced_sell_until_purchase_G20(void **s)
{
    (void)s;
    ch_state st;
    forced_table(&st, 0);
    t_ga_layout(&st, COFFEE, 120, "51 52");
    st.co[GOLD].value = 30;
    t_stock(&st, 0, GOLD, 1);
    t_stock(&st, 0, COFFEE, 1);
    t_valid(&st);
    t_play(&st, 0, "sell Gold");
    assert_int_equal(st.pl[0].cash, 30);
    assert_int_equal(st.phase, CH_PH_FORCED);
    assert_false(t_legal(&st, 0, "done"));
    assert_true(t_legal(&st, 0, "sell Coffee"));
    t_expect_illegal(&st, 0, "done", NULL);
    t_play(&st, 0, "sell Coffee");
    assert_int_equal(st.pl[0].cash, 150);
    assert_false(t_legal(&st, 0, "done"));
    t_play(&st, 0, "draw");
    assert_int_equal(st.pl[0].cash, 100);
    assert_int_equal(ch_hand_count(&st, 0), 1);
    assert_int_equal(st.active, 1);
}

/* G-20: a player who has sold every stock and still cannot pay ends the
 * turn ("done"), without a card. */
static void forced_nothing_left_to_sell_G20(void **s)
{
    (void)s;
    ch_state st;
    forced_table(&st, 0);
    st.co[GOLD].value = 30;
    t_stock(&st, 0, GOLD, 1);
    t_valid(&st);
    t_play(&st, 0, "sell Gold");
    assert_int_equal(st.pl[0].cash, 30);
    assert_int_equal(count_all(&st, 0), 1);
    assert_true(t_legal(&st, 0, "done"));
    t_play(&st, 0, "done");
    assert_int_equal(st.active, 1);
    assert_int_equal(st.pl[0].cash, 30);
    assert_int_equal(ch_hand_count(&st, 0), 0);
}

/* G-19, G-20: with nothing to sell, or with no card left to buy, the player
 * passes. */
static void forced_pass_G20(void **s)
{
    (void)s;
    ch_state st;
    forced_table(&st, 20);
    assert_int_equal(count_all(&st, 0), 1);
    assert_true(t_legal(&st, 0, "pass"));
    t_play(&st, 0, "pass");
    assert_int_equal(st.active, 1);
    assert_int_equal(st.pl[0].cash, 20);

    forced_table(&st, 600);
    t_stock(&st, 0, GOLD, 3);
    t_deck_keep(&st, 0);
    for (int i = 0; i < st.market_size; i++) {
        int c = st.market[i];
        st.market[i] = CH_NONE;
        st.discard[st.ndiscard++] = (uint8_t)c;
        st.loc[c] = CH_LOC_DISCARD;
    }
    t_valid(&st);
    assert_int_equal(count_all(&st, 0), 1);
    assert_true(t_legal(&st, 0, "pass"));
    assert_false(t_legal(&st, 0, "sell Gold"));
}

/* G-19: the forced option is only for a player who can neither purchase nor
 * build: with f20 and a playable card, P1 builds (no sale offered); flags
 * cannot be sold, so a player holding only a flag passes. */
static void forced_only_when_stuck_G19(void **s)
{
    (void)s;
    ch_state st;
    forced_table(&st, 20);
    t_stock(&st, 0, GOLD, 1);
    t_give_lot(&st, 0, 13); /* touches Gold's 12 */
    assert_true(t_legal(&st, 0, "play Harbour 13"));
    assert_false(t_legal(&st, 0, "sell Gold"));
    assert_false(t_legal(&st, 0, "pass"));
    assert_int_equal(count_all(&st, 0), 1);

    forced_table(&st, 20);
    t_ga_flag(&st, 0, GOLD);
    t_valid(&st);
    assert_int_equal(count_all(&st, 0), 1);
    assert_true(t_legal(&st, 0, "pass"));
}

/* G-27: a whole round of passes ends the game, scored normally. */
static void stall_round_of_passes_G27(void **s)
{
    (void)s;
    ch_state st;
    forced_table(&st, 20);
    t_cash(&st, 1, 30);
    t_play(&st, 0, "pass");
    assert_false(st.over);
    t_play(&st, 1, "pass");
    assert_true(st.over);
    unsigned mask;
    assert_int_equal(ch_decider(&st, &mask), CH_DEC_TERMINAL);
    int32_t sc[6];
    unsigned w;
    assert_int_equal(ch_scores(&st, sc, &w), CH_OK);
    assert_int_equal(sc[0], 20);
    assert_int_equal(sc[1], 30);
    assert_int_equal(w, 2u);
}

/* ==== Events (printed rulebook "Event cards"; first rules "Event Cards"; G-21..G-24) === */

/* Events on; the event cards wait in the discard pile; open cards turned up;
 * the chosen event on top of the deck. */
static void ev_table(ch_state *st, int np, int kind)
{
    static const char *const open[5] = {"16", "17", "18", "27", "28"};
    table(st, np, 1);
    for (int i = 0; i < st->market_size; i++)
        t_market(st, i, open[i]);
    if (kind >= 0)
        t_ga_deck_top(st, t_ga_event_card(st, kind));
    t_valid(st);
}

/* G-21, G-23: money +f50 for every player; the event acts when bought from
 * the deck, is discarded, and the buyer still gets a building card. */
static void event_money_up_G21(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 2, CH_GE_MONEY_UP);
    int ev = t_ga_event_card(&st, CH_GE_MONEY_UP);
    int next = st.deck[st.ndeck - 2], deck = st.ndeck;
    t_play(&st, 0, "draw");
    assert_int_equal(st.pl[0].cash, 600 - 50 + 50);
    assert_int_equal(st.pl[1].cash, 650);
    assert_int_equal(st.loc[ev], CH_LOC_DISCARD);
    assert_int_equal(top_discard(&st), ev);
    assert_true(t_in_hand(&st, 0, next));
    assert_int_equal(ch_hand_count(&st, 0), 1);
    assert_int_equal(st.ndeck, deck - 2);
    assert_int_equal(st.active, 1);
}

/* G-23: money -f50; a player with less pays all they have. */
static void event_money_down_G23(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 2, CH_GE_MONEY_DOWN);
    t_cash(&st, 1, 30);
    t_play(&st, 0, "draw");
    assert_int_equal(st.pl[0].cash, 500);
    assert_int_equal(st.pl[1].cash, 0);
    assert_int_equal(ch_hand_count(&st, 0), 1);
}

/* G-21: all enterprises +f30 (at most f500), only those on the board; pays nobody. */
static void event_all_up_G21(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 2, CH_GE_ALL_UP);
    t_ga_layout(&st, GOLD, 100, "11 12");
    t_ga_layout(&st, TEA, 490, "58 59");
    t_valid(&st);
    t_play(&st, 0, "draw");
    assert_int_equal(st.co[GOLD].value, 130);
    assert_int_equal(st.co[TEA].value, 500);
    assert_int_equal(st.co[COFFEE].value, 0);
    assert_int_equal(st.co[COFFEE].on_chart, 0);
    assert_int_equal(st.pl[0].cash, 550);
    assert_int_equal(st.pl[1].cash, 600);
}

/* G-21: all enterprises -f30, at least f30. */
static void event_all_down_G21(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 2, CH_GE_ALL_DOWN);
    t_ga_layout(&st, GOLD, 100, "11 12");
    t_ga_layout(&st, TEA, 40, "58 59");
    t_ga_layout(&st, SILK, 30, "19 20");
    t_valid(&st);
    t_play(&st, 0, "draw");
    assert_int_equal(st.co[GOLD].value, 70);
    assert_int_equal(st.co[TEA].value, 30);
    assert_int_equal(st.co[SILK].value, 30);
    assert_int_equal(st.co[COFFEE].on_chart, 0);
    assert_int_equal(st.pl[0].cash, 550);
}

/* G-21: the three named enterprises: Gold Coffee Pepper, Gems Opium Silver,
 * Tea Silk Gunpowder, +f30 or -f30, nobody else. */
static void event_three_named_G21(void **s)
{
    (void)s;
    static const char *const lay[9] = {"1 2", "4 5", "21 22", "24 25", "33 34",
                                       "51 52", "54 55", "9 10", "6 7"};
    for (int kind = CH_GE_THREE_UP_1; kind <= CH_GE_THREE_DOWN_3; kind++) {
        ch_state st;
        ev_table(&st, 2, kind);
        for (int c = 0; c < 9; c++)
            t_ga_layout(&st, c, 100, lay[c]);
        t_valid(&st);
        t_play(&st, 0, "draw");
        int up = kind <= CH_GE_THREE_UP_3;
        int t = up ? kind - CH_GE_THREE_UP_1 : kind - CH_GE_THREE_DOWN_1;
        for (int c = 0; c < 9; c++) {
            int want = c / 3 == t ? (up ? 130 : 70) : 100;
            assert_int_equal(st.co[c].value, want);
        }
        assert_int_equal(st.pl[0].cash, 550);
        assert_int_equal(ch_hand_count(&st, 0), 1);
    }
}

/* G-21: a named enterprise off the board is untouched. */
static void event_three_named_off_board_G21(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 2, CH_GE_THREE_DOWN_3);
    t_ga_layout(&st, TEA, 200, "11 12");
    t_ga_layout(&st, GOLD, 200, "58 59");
    t_valid(&st);
    t_play(&st, 0, "draw");
    assert_int_equal(st.co[TEA].value, 170);
    assert_int_equal(st.co[GOLD].value, 200);
    assert_int_equal(st.co[SILK].on_chart, 0);
    assert_int_equal(st.co[GUNPOWDER].value, 0);
}

/* 4 players, city centre: Gold f100 (HQ 11, 12), Tea f60 (HQ 58, 59). */
static void sale_table(ch_state *st, int kind, int bringer)
{
    ev_table(st, 4, kind);
    t_ga_layout(st, GOLD, 100, "11 12");
    t_ga_layout(st, TEA, 60, "58 59");
    t_turn(st, bringer);
    t_valid(st);
}

/* G-24: stock sale -1, from the player who brought the card into play (P2),
 * clockwise; each chooses; a player with only a flag is skipped (flags are
 * never sold); then the buyer gets a building card and the turn ends. */
static void event_stock_sale_1_G24(void **s)
{
    (void)s;
    ch_state st;
    sale_table(&st, CH_GE_SELL1, 1);
    t_stock(&st, 0, GOLD, 1);
    t_stock(&st, 1, GOLD, 1);
    t_stock(&st, 1, TEA, 1);
    t_ga_flag(&st, 2, TEA);
    t_stock(&st, 3, TEA, 2);
    int next = st.deck[st.ndeck - 2];
    int32_t c[4];
    for (int p = 0; p < 4; p++)
        c[p] = st.pl[p].cash;
    t_play(&st, 1, "draw");
    assert_int_equal(st.phase, CH_PH_EVSELL);
    assert_int_equal(st.actor, 1);
    assert_int_equal(count_all(&st, 1), 2);
    assert_true(t_legal(&st, 1, "sell Gold"));
    assert_true(t_legal(&st, 1, "sell Tea"));
    assert_false(t_in_hand(&st, 1, next)); /* not yet */
    t_play(&st, 1, "sell Tea");
    assert_int_equal(st.pl[1].cash, c[1] - 50 + 60);
    assert_int_equal(st.actor, 3); /* P3 holds only a flag */
    assert_int_equal(count_all(&st, 3), 1);
    t_play(&st, 3, "sell Tea");
    assert_int_equal(st.pl[3].cash, c[3] + 60);
    assert_int_equal(st.pl[3].stock[TEA], 1);
    assert_int_equal(st.actor, 0);
    t_play(&st, 0, "sell Gold");
    assert_int_equal(st.pl[0].cash, c[0] + 100);
    /* back at the bringer: the sale is over, the buyer gets a building card */
    assert_true(t_in_hand(&st, 1, next));
    assert_int_equal(st.pl[1].stock[GOLD], 1);
    assert_int_equal(st.co[TEA].flag, 3);
    assert_int_equal(st.pl[2].cash, c[2]);
    assert_int_equal(st.active, 2);
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.co[GOLD].bank, 8); /* 2 were held, 1 sold */
    assert_int_equal(st.co[TEA].bank, 8); /* 3 were held, 2 sold */
}

/* G-24: stock sale -2: two stock cards each, fewer if fewer are held; the
 * order goes clockwise from the bringer (P1). */
static void event_stock_sale_2_G24(void **s)
{
    (void)s;
    ch_state st;
    sale_table(&st, CH_GE_SELL2, 0);
    t_stock(&st, 0, GOLD, 1);
    t_stock(&st, 1, GOLD, 2);
    t_stock(&st, 1, TEA, 1);
    t_stock(&st, 3, TEA, 3);
    int32_t c[4];
    for (int p = 0; p < 4; p++)
        c[p] = st.pl[p].cash;
    t_play(&st, 0, "draw");
    assert_int_equal(st.actor, 0);
    t_play(&st, 0, "sell Gold"); /* P1 holds one: done */
    assert_int_equal(st.actor, 1);
    t_play(&st, 1, "sell Tea");
    assert_int_equal(st.actor, 1);
    assert_true(t_legal(&st, 1, "sell Gold"));
    assert_false(t_legal(&st, 1, "sell Tea"));
    t_play(&st, 1, "sell Gold");
    assert_int_equal(st.actor, 3); /* P3 holds nothing */
    t_play(&st, 3, "sell Tea");
    assert_int_equal(st.actor, 3);
    t_play(&st, 3, "sell Tea");
    assert_int_equal(st.pl[0].cash, c[0] - 50 + 100);
    assert_int_equal(st.pl[1].cash, c[1] + 60 + 100);
    assert_int_equal(st.pl[3].cash, c[3] + 120);
    assert_int_equal(st.pl[1].stock[GOLD], 1);
    assert_int_equal(st.pl[3].stock[TEA], 1);
    assert_int_equal(st.active, 1);
    assert_int_equal(ch_hand_count(&st, 0), 1);
}

/* G-24: nobody holds a stock card: the sale does nothing. */
static void event_stock_sale_nobody_G24(void **s)
{
    (void)s;
    ch_state st;
    sale_table(&st, CH_GE_SELL2, 0);
    t_play(&st, 0, "draw");
    assert_int_equal(st.phase, CH_PH_TURN);
    assert_int_equal(st.active, 1);
    assert_int_equal(ch_hand_count(&st, 0), 1);
}

/* G-21, G-22: an event turned into the open cards (refilling a taken card's
 * slot) acts at once, and the slot is refilled with the next card. */
static void event_into_open_cards_G22(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 2, CH_GE_MONEY_UP);
    int ev = t_ga_event_card(&st, CH_GE_MONEY_UP);
    int taken = st.market[1], next = st.deck[st.ndeck - 2];
    char mv[32];
    char nm[16];
    ch_card_name(&st, taken, nm, sizeof nm);
    snprintf(mv, sizeof mv, "take %s", nm);
    t_play(&st, 0, mv);
    assert_int_equal(st.pl[0].cash, 600);
    assert_int_equal(st.pl[1].cash, 650);
    assert_true(t_in_hand(&st, 0, taken));
    assert_int_equal(ch_hand_count(&st, 0), 1);
    assert_int_equal(st.loc[ev], CH_LOC_DISCARD);
    assert_int_equal(st.market[1], next);
    assert_int_equal(st.active, 1);
}

/* G-24: an event turned into the open cards was brought into play by the
 * player whose purchase opened the slot: that player sells first. */
static void event_stock_sale_from_open_cards_G24(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 2, CH_GE_SELL1);
    t_ga_layout(&st, GOLD, 100, "11 12");
    t_stock(&st, 0, GOLD, 1);
    t_stock(&st, 1, GOLD, 1);
    t_turn(&st, 1);
    t_valid(&st);
    int next = st.deck[st.ndeck - 2];
    t_play(&st, 1, "take Harbour 17");
    assert_int_equal(st.phase, CH_PH_EVSELL);
    assert_int_equal(st.actor, 1);
    t_play(&st, 1, "sell Gold");
    assert_int_equal(st.actor, 0);
    t_play(&st, 0, "sell Gold");
    assert_int_equal(st.market[1], next);
    assert_int_equal(st.pl[0].cash, 700);
    assert_int_equal(st.pl[1].cash, 650);
    assert_int_equal(st.active, 0);
    assert_int_equal(st.phase, CH_PH_TURN);
}

/* G-21: two events in a row both act; then the building card. */
static void event_two_in_a_row_G21(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 2, CH_GE_ALL_UP);
    t_ga_deck_top(&st, t_ga_event_card(&st, CH_GE_MONEY_DOWN));
    t_ga_layout(&st, GOLD, 100, "11 12");
    t_valid(&st);
    int next = st.deck[st.ndeck - 3];
    t_play(&st, 0, "draw");
    assert_int_equal(st.pl[0].cash, 500);
    assert_int_equal(st.pl[1].cash, 550);
    assert_int_equal(st.co[GOLD].value, 130);
    assert_true(t_in_hand(&st, 0, next));
    assert_int_equal(ch_hand_count(&st, 0), 1);
}

/* G-04, G-08, G-23: a refresh (f50) that turns up money -f50 can leave the
 * player without the f50 of the compulsory purchase. No move the engine
 * offers may then need more cash than the player has (G-04). */
static void event_refresh_then_broke_G04(void **s)
{
    (void)s;
    ch_state st;
    ev_table(&st, 2, -1);
    /* four open cards, the deck holds only the money -f50 event: the refresh
     * turns all five up, the event among them */
    int c4 = st.market[4];
    st.market[4] = CH_NONE;
    st.discard[st.ndiscard++] = (uint8_t)c4;
    st.loc[c4] = CH_LOC_DISCARD;
    t_deck_keep(&st, 0);
    t_ga_deck_top(&st, t_ga_event_card(&st, CH_GE_MONEY_DOWN));
    t_cash(&st, 0, 100);
    t_valid(&st);
    t_play(&st, 0, "refresh");
    assert_int_equal(st.pl[0].cash, 0); /* f50 refresh, f50 event */
    assert_int_equal(st.pl[1].cash, 550);
    static ch_move buf[256];
    unsigned mask;
    if (ch_decider(&st, &mask) == CH_DEC_PLAYER && (mask & 1)) {
        int n = ch_legal(&st, 0, buf, 256);
        for (int i = 0; i < n && i < 256; i++) {
            char t[64];
            ch_move_str(&st, buf[i], t, sizeof t);
            if (buf[i].type == CH_M_DRAW || buf[i].type == CH_M_TAKE || buf[i].type == CH_M_REFRESH)
                fail_msg("'%s' is offered to P1 with f%d: a purchase costs f50 (G-04)", t,
                         st.pl[0].cash);
        }
    }
}

/* ==== Hidden information (G-07): stock holdings are private in views ================ */

static void view_hides_stocks_G07(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3, 0);
    t_ga_layout(&st, GOLD, 100, "11 12");
    t_stock(&st, 0, GOLD, 2);
    t_stock(&st, 1, GOLD, 3);
    t_valid(&st);
    for (int viewer = -1; viewer < 3; viewer++) {
        char *txt = ch_view_to_json(&st, viewer);
        assert_non_null(txt);
        json_error_t err;
        json_t *root = json_loads(txt, 0, &err);
        assert_non_null(root);
        json_t *players = json_object_get(root, "players");
        assert_int_equal(json_array_size(players), 3);
        for (int p = 0; p < 3; p++) {
            json_t *stocks = json_object_get(json_array_get(players, (size_t)p), "stocks");
            if (p == viewer) {
                assert_non_null(stocks);
                assert_int_equal(json_integer_value(json_object_get(stocks, "Gold")),
                                 p == 0 ? 2 : p == 1 ? 3 : 0);
            } else {
                assert_null(stocks);
            }
            /* cash stays public */
            assert_int_equal(json_integer_value(json_object_get(json_array_get(players, (size_t)p), "cash")),
                             st.pl[p].cash);
        }
        /* hands and the deck order stay hidden too */
        for (int p = 0; p < 3; p++)
            if (p != viewer)
                assert_null(json_object_get(json_array_get(players, (size_t)p), "hand"));
        json_t *piles = json_object_get(root, "piles");
        assert_null(json_object_get(piles, "deck"));
        assert_int_equal(json_integer_value(json_object_get(piles, "deck_count")), st.ndeck);
        /* the bank's count per enterprise stays public */
        json_t *gold = json_array_get(json_object_get(root, "companies"), GOLD);
        assert_int_equal(json_integer_value(json_object_get(gold, "bank")), 4);
        assert_int_equal(json_integer_value(json_object_get(gold, "value")), 100);
        json_decref(root);
        ch_free(txt);
    }
    /* the full state holds everything */
    char *txt = ch_state_to_json(&st);
    json_error_t err;
    json_t *root = json_loads(txt, 0, &err);
    json_t *p2 = json_array_get(json_object_get(root, "players"), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(p2, "stocks"), "Gold")), 3);
    json_decref(root);
    ch_free(txt);
}

/* ==== End of the game (printed rulebook "End of the game"; G-25, G-26) ================ */

/* G-25: the turn that places the supply's last warehouse ends the game at its
 * end: the builder still trades. */
static void end_last_warehouse_G25(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 2, 0);
    t_ga_layout(&st, GOLD, 30, "13 f12 f14");
    t_give_lot(&st, 0, 15);
    t_give_lot(&st, 1, 3);
    pad(&st, 2);
    t_play(&st, 0, "play Harbour 15");
    assert_int_equal(st.supply, 1);
    t_play(&st, 0, "done");
    assert_false(st.over); /* one left */
    t_play(&st, 1, "play Harbour 3");
    assert_int_equal(st.supply, 0);
    assert_false(st.over);
    assert_int_equal(st.phase, CH_PH_TRADE);
    t_play(&st, 1, "buy Gold");
    assert_false(st.over);
    t_play(&st, 1, "done");
    assert_true(st.over);
    unsigned mask = 7;
    assert_int_equal(ch_decider(&st, &mask), CH_DEC_TERMINAL);
    assert_int_equal(mask, 0u);
    assert_int_equal(count_all(&st, 0), 0);
    ch_move mv = {CH_M_DRAW, 0, 0, 0, 0};
    ch_msg why;
    assert_int_equal(ch_check(&st, 0, mv, &why), CH_EOVER);
}

/* First rules "End of the Game" ("When the last warehouse is place on the
 * board, the game ends"; Japanese translation alike); G-25 (issue 29): with
 * the preset golden-age-first the build that places the last warehouse is
 * resolved (its payout) and the game ends at once: no trade, no flag. */
static void end_first_rules_at_once_G25(void **s)
{
    (void)s;
    ch_state st;
    t_new_ga(&st, 2, CH_GA_FIRST, 0, 20250);
    t_ga_clear(&st);
    t_turn(&st, 0);
    t_ga_layout(&st, GOLD, 30, "13 f12 f14");
    t_give_lot(&st, 0, 15);
    pad(&st, 1);
    t_stock(&st, 0, GOLD, 1);
    t_valid(&st);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour 15");
    assert_int_equal(st.supply, 0);
    assert_true(st.over);
    assert_int_equal(st.phase, CH_PH_OVER);
    assert_int_equal(st.pl[0].cash, cash + 40); /* the payout is made */
    assert_int_equal(ch_decider(&st, NULL), CH_DEC_TERMINAL);
    assert_int_equal(count_all(&st, 0), 0);
}

/* G-25: under golden-age-first a merger that places the last warehouse is
 * resolved, its liquidation and payout, before the game ends. */
static void end_first_rules_merger_resolved_G25(void **s)
{
    (void)s;
    ch_state st;
    t_new_ga(&st, 2, CH_GA_FIRST, 0, 20251);
    t_ga_clear(&st);
    t_turn(&st, 0);
    t_ga_layout(&st, GOLD, 40, "13 12");
    t_ga_layout(&st, COFFEE, 30, "15 16");
    t_give_lot(&st, 0, 14);
    pad(&st, 1);
    t_stock(&st, 1, COFFEE, 2);
    t_valid(&st);
    int32_t c0 = st.pl[0].cash, c1 = st.pl[1].cash;
    t_play(&st, 0, "play Harbour 14");
    assert_int_equal(st.supply, 0);
    assert_false(st.over);
    t_play(&st, 0, "credit Gold");
    assert_true(st.over);
    assert_int_equal(st.co[GOLD].value, 80);
    assert_int_equal(st.co[COFFEE].on_chart, 0);
    assert_int_equal(st.pl[1].cash, c1 + 60);
    assert_int_equal(st.pl[0].cash, c0 + 80);
}

/* G-25: a level card or a founding can place the last warehouses too. */
static void end_by_level_or_founding_G25(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3, 0);
    t_ga_layout(&st, GOLD, 30, "13 f12 f14");
    t_ga_give_level(&st, 0, 3);
    pad(&st, 1);
    t_play(&st, 0, "play L3 Harbour 13");
    assert_int_equal(st.supply, 0);
    t_play(&st, 0, "done");
    assert_true(st.over);

    table(&st, 3, 0);
    t_give_lot(&st, 0, 3);
    pad(&st, 3);
    t_play(&st, 0, "play Harbour 3");
    t_play(&st, 0, "found Gold");
    t_play(&st, 0, "free Harbour 2 + Harbour 4");
    assert_false(st.over);
    t_play(&st, 0, "flag Gold");
    assert_true(st.over);
}

/* G-25: score = cash - f20 per card in hand + stocks at value + 4 x value per
 * flag; most money wins. */
static void end_scores_G25(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3, 0);
    t_ga_layout(&st, GOLD, 100, "11 12");
    t_ga_layout(&st, TEA, 60, "58 59");
    t_cash(&st, 0, 500);
    t_cash(&st, 1, 800);
    t_cash(&st, 2, 100);
    t_give_lot(&st, 0, 1);
    t_give_lot(&st, 0, 2);
    t_give_lot(&st, 0, 3);
    t_ga_give_level(&st, 2, 2);
    t_stock(&st, 0, GOLD, 2);
    t_ga_flag(&st, 0, TEA);
    t_stock(&st, 1, TEA, 1);
    t_stock(&st, 2, GOLD, 5);
    t_ga_flag(&st, 2, GOLD);
    t_valid(&st);
    int32_t sc[6];
    unsigned w;
    assert_int_equal(ch_scores(&st, sc, &w), CH_OK);
    assert_int_equal(sc[0], 500 - 3 * 20 + 2 * 100 + 4 * 60);     /* 880 */
    assert_int_equal(sc[1], 800 + 60);                             /* 860 */
    assert_int_equal(sc[2], 100 - 20 + 5 * 100 + 4 * 100);         /* 980 */
    assert_int_equal(w, 4u);
}

/* G-26: "there is no tiebreaker": equal money shares the win, whatever the
 * cards in hand. */
static void end_tie_shared_G26(void **s)
{
    (void)s;
    ch_state st;
    table(&st, 3, 0);
    t_cash(&st, 0, 520);
    t_give_lot(&st, 0, 1); /* 520 - 20 = 500 */
    t_cash(&st, 1, 500);
    t_cash(&st, 2, 499);
    t_valid(&st);
    int32_t sc[6];
    unsigned w;
    assert_int_equal(ch_scores(&st, sc, &w), CH_OK);
    assert_int_equal(sc[0], 500);
    assert_int_equal(sc[1], 500);
    assert_int_equal(sc[2], 499);
    assert_int_equal(w, 3u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(setup_tables_no_events_G05),
        cmocka_unit_test(setup_tables_with_events_G21),
        cmocka_unit_test(setup_event_subset_random_G21),
        cmocka_unit_test(setup_player_range),
        cmocka_unit_test(setup_starting_player_G06),
        cmocka_unit_test(purchase_draw_G08),
        cmocka_unit_test(purchase_take_open_refilled_G08),
        cmocka_unit_test(purchase_refresh_G08),
        cmocka_unit_test(purchase_refresh_needs_f100_G08),
        cmocka_unit_test(purchase_no_hand_limit_G08),
        cmocka_unit_test(purchase_deck_empty_open_cards_shrink_G08),
        cmocka_unit_test(purchase_open_level_card_G08),
        cmocka_unit_test(found_basic_G10),
        cmocka_unit_test(found_free_lot_shapes_G11),
        cmocka_unit_test(found_buffer_distance_4_G10),
        cmocka_unit_test(found_buffer_through_bridge_G10),
        cmocka_unit_test(found_needs_hq_G10),
        cmocka_unit_test(found_needs_three_warehouses_G10),
        cmocka_unit_test(unplayable_card_G10),
        cmocka_unit_test(expand_plot_card_G12),
        cmocka_unit_test(expand_on_free_warehouse_G13),
        cmocka_unit_test(level_targets_G14),
        cmocka_unit_test(level_values_G14),
        cmocka_unit_test(level_cards_by_side_G05),
        cmocka_unit_test(merge_two_way_G15),
        cmocka_unit_test(merge_credit_decides_G15),
        cmocka_unit_test(merge_tie_builder_decides_G15),
        cmocka_unit_test(merge_hq_stack_lower_G12),
        cmocka_unit_test(merge_three_way_builder_picks_G15),
        cmocka_unit_test(merge_four_way_G16),
        cmocka_unit_test(merge_credit_only_touching_G15),
        cmocka_unit_test(merge_cap_500_G15),
        cmocka_unit_test(merge_forced_liquidation_G15),
        cmocka_unit_test(value_cap_on_expansion_G15),
        cmocka_unit_test(trade_two_transactions_G17),
        cmocka_unit_test(trade_sell_at_value_G17),
        cmocka_unit_test(trade_limits_G17),
        cmocka_unit_test(flag_prices_G17),
        cmocka_unit_test(flag_restrictions_G17),
        cmocka_unit_test(flag_after_level_found_merge_G18),
        cmocka_unit_test(forced_sell_then_purchase_G20),
        cmocka_unit_test(forced_sell_several_G20),
        cmocka_unit_test(forced_sell_until_purchase_G20),
        cmocka_unit_test(forced_nothing_left_to_sell_G20),
        cmocka_unit_test(forced_pass_G20),
        cmocka_unit_test(forced_only_when_stuck_G19),
        cmocka_unit_test(stall_round_of_passes_G27),
        cmocka_unit_test(event_money_up_G21),
        cmocka_unit_test(event_money_down_G23),
        cmocka_unit_test(event_all_up_G21),
        cmocka_unit_test(event_all_down_G21),
        cmocka_unit_test(event_three_named_G21),
        cmocka_unit_test(event_three_named_off_board_G21),
        cmocka_unit_test(event_stock_sale_1_G24),
        cmocka_unit_test(event_stock_sale_2_G24),
        cmocka_unit_test(event_stock_sale_nobody_G24),
        cmocka_unit_test(event_into_open_cards_G22),
        cmocka_unit_test(event_stock_sale_from_open_cards_G24),
        cmocka_unit_test(event_two_in_a_row_G21),
        cmocka_unit_test(event_refresh_then_broke_G04),
        cmocka_unit_test(view_hides_stocks_G07),
        cmocka_unit_test(end_last_warehouse_G25),
        cmocka_unit_test(end_first_rules_at_once_G25),
        cmocka_unit_test(end_first_rules_merger_resolved_G25),
        cmocka_unit_test(end_by_level_or_founding_G25),
        cmocka_unit_test(end_scores_G25),
        cmocka_unit_test(end_tie_shared_G26),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
