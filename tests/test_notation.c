/* test_notation.c: tests of the move notation (ch_move_str, ch_move_parse,
 * ch_play) and of the name functions (names.c): every move form round-trips
 * text -> move -> text and move -> text -> move byte for byte, reading
 * tolerates case and spacing, level cards resolve to the canonical card in
 * context, malformed texts are refused with CH_ESYNTAX and a useful message,
 * and every legal move of 200 random games survives str/parse. The Golden
 * Age: the free and flag forms, malformed ones refused with CH_ESYNTAX, and
 * every legal move of 80 random games (2 to 6 players, both presets, with and
 * without event cards) survives str/parse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chartered.h"

/* ---- fixture ------------------------------------------------------------------ */

static ch_board g_board;
static ch_state g_st; /* a fresh 4-player game, never modified by the tests */

static int group_setup(void **state)
{
    (void)state;
    ch_msg msg = {{0}};
    if (ch_board_builtin(&g_board, CH_ED_AMSTERDAM, "standard", &msg) != CH_OK) {
        fprintf(stderr, "ch_board_builtin: %s\n", msg.text);
        return -1;
    }
    ch_setup setup;
    ch_setup_default(&setup, CH_ED_AMSTERDAM);
    setup.nplayers = 4;
    if (ch_new(&g_st, &setup, &g_board, &msg) != CH_OK) {
        fprintf(stderr, "ch_new: %s\n", msg.text);
        return -1;
    }
    return 0;
}

static int plot_of(const ch_state *st, const char *name)
{
    int consumed = 0;
    int x = ch_board_find(ch_state_board(st), name, &consumed);
    if (x < 0)
        fail_msg("plot '%s' not found on the built-in board", name);
    return x;
}

/* The n-th (0-based) card of a level among all cards of the game. */
static int level_card(const ch_state *st, int level, int nth)
{
    for (int c = 0; c < st->ncards; c++)
        if (st->card_level[c] == level && nth-- == 0)
            return c;
    fail_msg("the game has too few L%d cards", level);
    return -1;
}

static void hand_add(ch_state *st, int p, int card)
{
    st->pl[p].hand[card >> 6] |= (uint64_t)1 << (card & 63);
}

static void hand_clear_levels(ch_state *st, int p)
{
    for (int c = 0; c < st->ncards; c++)
        if (st->card_level[c])
            st->pl[p].hand[c >> 6] &= ~((uint64_t)1 << (c & 63));
}

static ch_move mv(int type, int a, int b, int c, int32_t n)
{
    ch_move m;
    memset(&m, 0, sizeof m);
    m.type = (uint8_t)type;
    m.a = (uint8_t)a;
    m.b = (uint8_t)b;
    m.c = (uint8_t)c;
    m.n = n;
    return m;
}

/* A state prepared for the level-card forms: P1 holds two L2 and one L3,
 * the market shows an L3 and an L2, the Veilinge look holds an L4. */
static void level_state(ch_state *st)
{
    *st = g_st;
    hand_clear_levels(st, 0);
    hand_add(st, 0, level_card(st, 2, 3));
    hand_add(st, 0, level_card(st, 2, 1));
    hand_add(st, 0, level_card(st, 3, 2));
    st->market[0] = CH_NONE;
    st->market[1] = (uint8_t)level_card(st, 3, 4);
    st->market[2] = (uint8_t)st->plot_card[plot_of(st, "Jordaan B2")];
    st->market[3] = (uint8_t)level_card(st, 2, 5);
    st->market[4] = (uint8_t)level_card(st, 2, 6);
    st->look[0] = (uint8_t)st->plot_card[plot_of(st, "Jordaan A1")];
    st->look[1] = (uint8_t)level_card(st, 4, 2);
    st->look[2] = (uint8_t)level_card(st, 4, 1);
    st->nlook = 3;
}

/* move -> text must give `text`; text -> move must give m back exactly. */
static void check_both(const ch_state *st, int p, ch_move m, const char *text)
{
    char buf[128];
    int len = ch_move_str(st, m, buf, sizeof buf);
    assert_int_equal(len, (int)strlen(buf));
    assert_string_equal(buf, text);
    ch_move back;
    ch_msg why = {{0}};
    int rc = ch_move_parse(st, p, buf, &back, &why);
    if (rc != CH_OK)
        fail_msg("parse '%s': %s", buf, why.text);
    if (memcmp(&back, &m, sizeof m) != 0)
        fail_msg("'%s' parsed to {%d,%d,%d,%d,%d}, expected {%d,%d,%d,%d,%d}", buf,
                 back.type, back.a, back.b, back.c, (int)back.n, m.type, m.a, m.b, m.c,
                 (int)m.n);
}

/* ---- names ------------------------------------------------------------------- */

static void test_company_names(void **state)
{
    (void)state;
    static const char *const ba[9] = {"Gunpowder", "Coal", "Porcelain", "Silk", "Spices",
                                      "Sugar", "Herring", "Tea", "Tobacco"};
    static const char *const ga[9] = {"Gold", "Coffee", "Pepper", "Gems", "Opium",
                                      "Silver", "Tea", "Silk", "Gunpowder"};
    ch_state st = g_st;
    for (int i = 0; i < 9; i++)
        assert_string_equal(ch_company_name(&st, i), ba[i]);
    assert_string_equal(ch_company_name(&st, -1), "?");
    assert_string_equal(ch_company_name(&st, 9), "?");
    st.edition = CH_ED_GOLDEN_AGE;
    for (int i = 0; i < 9; i++)
        assert_string_equal(ch_company_name(&st, i), ga[i]);
    int consumed = -1;
    assert_int_equal(ch_company_find(&st, "opium", &consumed), 4);
    assert_int_equal(consumed, 5);
    assert_int_equal(ch_company_find(&g_st, "opium", &consumed), -1);
}

static void test_company_find(void **state)
{
    (void)state;
    int consumed = -1;
    assert_int_equal(ch_company_find(&g_st, "Tea", &consumed), 7);
    assert_int_equal(consumed, 3);
    assert_int_equal(ch_company_find(&g_st, "  tOBACCO into", &consumed), 8);
    assert_int_equal(consumed, 9);
    assert_int_equal(ch_company_find(&g_st, "SPICES", &consumed), 4);
    assert_int_equal(ch_company_find(&g_st, "Teak", &consumed), -1); /* whole word */
    assert_int_equal(consumed, 0);
    assert_int_equal(ch_company_find(&g_st, "Te", &consumed), -1);
    assert_int_equal(ch_company_find(&g_st, "", &consumed), -1);
    assert_int_equal(ch_company_find(&g_st, "Coal+", NULL), 1);
    for (int i = 0; i < 9; i++)
        assert_int_equal(ch_company_find(&g_st, ch_company_name(&g_st, i), NULL), i);
}

static void test_event_and_phase_names(void **state)
{
    (void)state;
    assert_string_equal(ch_event_name(CH_EV_VERLAPPEN), "Verlappen");
    assert_string_equal(ch_event_name(CH_EV_AENLEGGEN), "Aenleggen");
    assert_string_equal(ch_event_name(CH_EV_DREIGHINGHE), "Dreighinghe");
    assert_string_equal(ch_event_name(CH_EV_COOPMANSCAPPEN), "Coopmanscappen");
    assert_string_equal(ch_event_name(CH_EV_VEILINGE), "Veilinge");
    assert_string_equal(ch_event_name(CH_EV_KINDS), "?");
    assert_string_equal(ch_event_name(-1), "?");
    static const char *const ph[CH_PH_COUNT] = {
        "turn", "purchase", "hq", "found", "credit", "merge", "merge-sell",
        "trade", "sell", "event", "bid", "lose", "coop", "offer", "respond",
        "veilinge", "auction", "pick", "over", "free", "forced", "event-sell"};
    for (int i = 0; i < CH_PH_COUNT; i++)
        assert_string_equal(ch_phase_name(i), ph[i]);
    assert_string_equal(ch_phase_name(CH_PH_COUNT), "?");
    assert_string_equal(ch_phase_name(-3), "?");
}

static void test_card_name_and_hand_count(void **state)
{
    (void)state;
    char buf[64], want[64];
    int x = plot_of(&g_st, "Harbour C1");
    int card = g_st.plot_card[x];
    ch_plot_name(ch_state_board(&g_st), x, want, sizeof want);
    assert_string_equal(want, "Harbour C1");
    assert_int_equal(ch_card_name(&g_st, card, buf, sizeof buf), (int)strlen(want));
    assert_string_equal(buf, want);
    assert_int_equal(ch_card_name(&g_st, level_card(&g_st, 2, 0), buf, sizeof buf), 2);
    assert_string_equal(buf, "L2");
    ch_card_name(&g_st, level_card(&g_st, 3, 0), buf, sizeof buf);
    assert_string_equal(buf, "L3");
    ch_card_name(&g_st, level_card(&g_st, 4, 0), buf, sizeof buf);
    assert_string_equal(buf, "L4");
    /* truncation is snprintf-like */
    assert_int_equal(ch_card_name(&g_st, card, buf, 4), (int)strlen(want));
    assert_string_equal(buf, "Har");
    assert_int_equal(ch_card_name(&g_st, g_st.ncards, buf, sizeof buf), -1);
    assert_string_equal(buf, "?");

    for (int p = 0; p < g_st.nplayers; p++) {
        int n = 0;
        for (int c = 0; c < CH_MAX_CARDS; c++)
            n += (int)((g_st.pl[p].hand[c >> 6] >> (c & 63)) & 1u);
        assert_int_equal(ch_hand_count(&g_st, p), n);
        assert_true(n > 0);
    }
    assert_int_equal(ch_hand_count(&g_st, 6), 0);
    assert_int_equal(ch_hand_count(&g_st, -1), 0);
}

/* ---- every move form ------------------------------------------------------------ */

static void test_round_trip_all_forms(void **state)
{
    (void)state;
    ch_state st;
    level_state(&st);
    int c1 = plot_of(&st, "Harbour C1"), d1 = plot_of(&st, "Harbour D1");
    int c2 = plot_of(&st, "Harbour C2"), cr = plot_of(&st, "Canal Ring B3");
    int kc1 = st.plot_card[c1], kd1 = st.plot_card[d1], kcr = st.plot_card[cr];
    int l2 = level_card(&st, 2, 1), l3 = level_card(&st, 3, 2);
    int tea = 7, coal = 1, gun = 0;

    check_both(&st, 0, mv(CH_M_DRAW, 0, 0, 0, 0), "draw");
    check_both(&st, 0, mv(CH_M_TAKE, kc1, 0, 0, 0), "take Harbour C1");
    check_both(&st, 0, mv(CH_M_TAKE, level_card(&st, 3, 4), 0, 0, 0), "take L3");
    check_both(&st, 0, mv(CH_M_TAKE, level_card(&st, 2, 5), 0, 0, 0), "take L2");
    check_both(&st, 0, mv(CH_M_REFRESH, 0, 0, 0, 0), "refresh");
    check_both(&st, 0, mv(CH_M_DONE, 0, 0, 0, 0), "done");
    check_both(&st, 0, mv(CH_M_PASS, 0, 0, 0, 0), "pass");
    check_both(&st, 0, mv(CH_M_PLAY, kc1, c1, CH_NONE, 0), "play Harbour C1");
    check_both(&st, 0, mv(CH_M_PLAY, kc1, c1, CH_NONE, 1), "play Harbour C1 roof");
    check_both(&st, 0, mv(CH_M_PLAY, kcr, cr, CH_NONE, 0), "play Canal Ring B3");
    check_both(&st, 0, mv(CH_M_PLAY, l3, c1, CH_NONE, 0), "play L3 Harbour C1");
    check_both(&st, 0, mv(CH_M_PLAY, l2, c1, CH_NONE, 1), "play L2 Harbour C1 roof");
    check_both(&st, 0, mv(CH_M_PLAY, kc1, c1, kd1, 0), "play Harbour C1 + Harbour D1");
    check_both(&st, 0, mv(CH_M_PLAY, kc1, c1, kcr, 1),
               "play Harbour C1 + Canal Ring B3 roof");
    check_both(&st, 0, mv(CH_M_SELL, tea, 0, 0, 1), "sell Tea");
    check_both(&st, 0, mv(CH_M_SELL, tea, 0, 0, 3), "sell 3 Tea");
    check_both(&st, 0, mv(CH_M_SELL, tea, 0, 0, 0), "keep Tea");
    check_both(&st, 0, mv(CH_M_BUY, tea, 0, 0, 0), "buy Tea");
    check_both(&st, 0, mv(CH_M_HQ, c2, 0, 0, 0), "hq Harbour C2");
    check_both(&st, 0, mv(CH_M_LONE, 0, 0, 0, 0), "lone");
    check_both(&st, 0, mv(CH_M_FOUND, coal, 0, 0, 0), "found Coal");
    check_both(&st, 0, mv(CH_M_CREDIT, tea, 0, 0, 0), "credit Tea");
    check_both(&st, 0, mv(CH_M_MERGE, gun, tea, 0, 0), "merge Gunpowder into Tea");
    check_both(&st, 0, mv(CH_M_ACTION, 0, 0, 0, 0), "action roof");
    check_both(&st, 0, mv(CH_M_ACTION, 1, 0, 0, 0), "action event");
    for (int k = 0; k < CH_EV_KINDS; k++) {
        char want[32];
        snprintf(want, sizeof want, "event %s", ch_event_name(k));
        check_both(&st, 0, mv(CH_M_EVENT, k, 0, 0, 0), want);
    }
    check_both(&st, 0, mv(CH_M_EVENT, CH_NONE, 0, 0, 0), "event deck");
    check_both(&st, 0, mv(CH_M_BID, 0, 0, 0, 120), "bid f120");
    check_both(&st, 0, mv(CH_M_BID, 0, 0, 0, 0), "bid f0");
    check_both(&st, 0, mv(CH_M_BID, 0, 0, 0, 10000000), "bid f10000000");
    check_both(&st, 0, mv(CH_M_LOSE, tea, 0, 0, 0), "lose Tea");
    check_both(&st, 0, mv(CH_M_OFFER, 1, 0, 0, 0), "offer P2");
    check_both(&st, 0, mv(CH_M_OFFER, 3, 0, 0, 0), "offer P4");
    check_both(&st, 0, mv(CH_M_GIVE, kc1, 0, 0, 0), "give Harbour C1");
    check_both(&st, 0, mv(CH_M_GIVE, l2, 0, 0, 0), "give L2");
    check_both(&st, 0, mv(CH_M_GIVE, tea, 1, 0, 0), "give Tea");
    check_both(&st, 0, mv(CH_M_GIVE, 0, 2, 0, 50), "give f50");
    check_both(&st, 0, mv(CH_M_ASK, kd1, 0, 0, 0), "ask Harbour D1");
    check_both(&st, 0, mv(CH_M_ASK, level_card(&st, 4, 0), 0, 0, 0), "ask L4");
    check_both(&st, 0, mv(CH_M_ASK, gun, 1, 0, 0), "ask Gunpowder");
    check_both(&st, 0, mv(CH_M_ASK, 0, 2, 0, 75), "ask f75");
    check_both(&st, 0, mv(CH_M_PROPOSE, 0, 0, 0, 0), "propose");
    check_both(&st, 0, mv(CH_M_WITHDRAW, 0, 0, 0, 0), "withdraw");
    check_both(&st, 0, mv(CH_M_ACCEPT, 0, 0, 0, 0), "accept");
    check_both(&st, 0, mv(CH_M_DECLINE, 0, 0, 0, 0), "decline");
    check_both(&st, 0, mv(CH_M_AUCTION, tea, 1, 0, 0), "auction stock Tea");
    check_both(&st, 0, mv(CH_M_AUCTION, coal, 2, 0, 0), "auction own Coal");
    check_both(&st, 0, mv(CH_M_AUCTION, CH_NONE, 3, 0, 0), "auction deck");
    check_both(&st, 0, mv(CH_M_AUCTION, CH_NONE, 4, 0, 0), "auction discard");
    check_both(&st, 0, mv(CH_M_PICK, st.plot_card[plot_of(&st, "Jordaan A1")], 0, 0, 0),
               "pick Jordaan A1");
    check_both(&st, 0, mv(CH_M_PICK, level_card(&st, 4, 1), 0, 0, 0), "pick L4");
}

/* Every plot of the board and every company, both ways. */
static void test_round_trip_every_name(void **state)
{
    (void)state;
    const ch_state *st = &g_st;
    for (int x = 0; x < ch_state_board(st)->nplots; x++) {
        char name[64], want[80];
        ch_plot_name(ch_state_board(st), x, name, sizeof name);
        snprintf(want, sizeof want, "play %s", name);
        check_both(st, 0, mv(CH_M_PLAY, st->plot_card[x], x, CH_NONE, 0), want);
        snprintf(want, sizeof want, "hq %s", name);
        check_both(st, 0, mv(CH_M_HQ, x, 0, 0, 0), want);
    }
    for (int c = 0; c < st->ncompanies; c++) {
        char want[64];
        snprintf(want, sizeof want, "found %s", ch_company_name(st, c));
        check_both(st, 0, mv(CH_M_FOUND, c, 0, 0, 0), want);
        snprintf(want, sizeof want, "sell 12 %s", ch_company_name(st, c));
        check_both(st, 0, mv(CH_M_SELL, c, 0, 0, 12), want);
    }
}

/* Level words resolve to the lowest card id of that level in the place the
 * move takes cards from. */
static void test_level_resolution(void **state)
{
    (void)state;
    ch_state st;
    level_state(&st);
    ch_move m;
    ch_msg why = {{0}};
    assert_int_equal(ch_move_parse(&st, 0, "give L2", &m, &why), CH_OK);
    assert_int_equal(m.a, level_card(&st, 2, 1)); /* P1 holds L2 #1 and #3 */
    assert_int_equal(ch_move_parse(&st, 0, "play l2 harbour c1", &m, &why), CH_OK);
    assert_int_equal(m.a, level_card(&st, 2, 1));
    assert_int_equal(ch_move_parse(&st, 0, "ask L2", &m, &why), CH_OK);
    assert_int_equal(m.a, level_card(&st, 2, 0)); /* anywhere in the game */
    assert_int_equal(ch_move_parse(&st, 0, "take L2", &m, &why), CH_OK);
    assert_int_equal(m.a, level_card(&st, 2, 5)); /* market holds #5 and #6 */
    assert_int_equal(ch_move_parse(&st, 0, "pick L4", &m, &why), CH_OK);
    assert_int_equal(m.a, level_card(&st, 4, 1)); /* look holds #2 and #1 */

    /* while an offer is built, "give L2" means an L2 not offered yet */
    ch_state off = st;
    off.phase = CH_PH_OFFER;
    off.offer.to = 1;
    int first = level_card(&st, 2, 1), second = level_card(&st, 2, 3);
    off.offer.give_cards[first >> 6] |= (uint64_t)1 << (first & 63);
    assert_int_equal(ch_move_parse(&off, 0, "give L2", &m, &why), CH_OK);
    assert_int_equal(m.a, second);
    check_both(&off, 0, mv(CH_M_GIVE, second, 0, 0, 0), "give L2");
    off.offer.give_cards[second >> 6] |= (uint64_t)1 << (second & 63);
    assert_int_equal(ch_move_parse(&off, 0, "give L2", &m, &why), CH_ESYNTAX);
    assert_string_equal(why.text, "all your L2 cards are already in the offer");
    /* playing is not affected by the offer */
    assert_int_equal(ch_move_parse(&off, 0, "play L2 Harbour C1", &m, &why), CH_OK);
    assert_int_equal(m.a, first);

    /* another player holds no level card: hand-based forms fail */
    hand_clear_levels(&st, 1);
    assert_int_equal(ch_move_parse(&st, 1, "play L2 Harbour C1", &m, &why), CH_ESYNTAX);
    assert_string_equal(why.text, "you hold no L2 card");
    assert_int_equal(m.type, CH_M_NONE);
    assert_int_equal(ch_move_parse(&st, 1, "give L3", &m, &why), CH_ESYNTAX);
    assert_string_equal(why.text, "you hold no L3 card");
    assert_int_equal(ch_move_parse(&st, 0, "take L4", &m, &why), CH_ESYNTAX);
    assert_string_equal(why.text, "there is no L4 card in the market");
    assert_int_equal(ch_move_parse(&st, 0, "pick L3", &m, &why), CH_ESYNTAX);
    assert_non_null(strstr(why.text, "no L3 card"));
    /* a player that does not exist cannot hold cards */
    assert_int_equal(ch_move_parse(&st, 7, "give L2", &m, &why), CH_EINVAL);
    /* but moves that do not look into a hand need no valid player */
    assert_int_equal(ch_move_parse(&st, -1, "ask L2", &m, &why), CH_OK);
}

static void check_same(const ch_state *st, const char *sloppy, const char *canonical)
{
    ch_move m;
    ch_msg why = {{0}};
    int rc = ch_move_parse(st, 0, sloppy, &m, &why);
    if (rc != CH_OK)
        fail_msg("parse '%s': %s", sloppy, why.text);
    char buf[128];
    ch_move_str(st, m, buf, sizeof buf);
    if (strcmp(buf, canonical) != 0)
        fail_msg("'%s' read as '%s', expected '%s'", sloppy, buf, canonical);
}

static void test_case_and_spacing(void **state)
{
    (void)state;
    ch_state st;
    level_state(&st);
    check_same(&st, "  PLAY   harbour   c1  ", "play Harbour C1");
    check_same(&st, "\tplay Harbour C1\n", "play Harbour C1");
    check_same(&st, "Play CANAL   ring b3", "play Canal Ring B3");
    check_same(&st, "play harbour c1+harbour d1", "play Harbour C1 + Harbour D1");
    check_same(&st, "play Harbour C1 +Harbour D1   ROOF", "play Harbour C1 + Harbour D1 roof");
    check_same(&st, "play   l3  harbour c1 Roof", "play L3 Harbour C1 roof");
    check_same(&st, "SELL 3 tea", "sell 3 Tea");
    check_same(&st, "sell 1 Tea", "sell Tea");
    check_same(&st, "sell 0 Tea", "keep Tea");
    check_same(&st, "Keep  TOBACCO", "keep Tobacco");
    check_same(&st, "BID F120", "bid f120");
    check_same(&st, "bid f007", "bid f7");
    check_same(&st, "merge  gunpowder   INTO tea", "merge Gunpowder into Tea");
    check_same(&st, "EVENT verlappen", "event Verlappen");
    check_same(&st, "event DECK", "event deck");
    check_same(&st, "Action Roof", "action roof");
    check_same(&st, "offer p3", "offer P3");
    check_same(&st, "give F50", "give f50");
    check_same(&st, "ask   spices", "ask Spices");
    check_same(&st, "AUCTION Stock sugar", "auction stock Sugar");
    check_same(&st, "auction DISCARD", "auction discard");
    check_same(&st, "TAKE jordaan a1", "take Jordaan A1");
    check_same(&st, "  draw  ", "draw");
    check_same(&st, "Done", "done");
    check_same(&st, "hq OLD SIDE f4", "hq Old Side F4");
}

/* ---- malformed input ----------------------------------------------------------- */

static void check_bad(const ch_state *st, const char *text, const char *needle)
{
    ch_move m = mv(CH_M_BID, 1, 2, 3, 4);
    ch_msg why;
    memset(why.text, 'x', sizeof why.text);
    int rc = ch_move_parse(st, 0, text, &m, &why);
    if (rc != CH_ESYNTAX)
        fail_msg("'%s': expected CH_ESYNTAX, got %d (%s)", text, rc,
                 rc == CH_OK ? "accepted" : why.text);
    assert_non_null(memchr(why.text, '\0', sizeof why.text));
    assert_true(strlen(why.text) > 10);
    if (!strstr(why.text, needle))
        fail_msg("'%s': message '%s' does not mention '%s'", text, why.text, needle);
    assert_int_equal(m.type, CH_M_NONE);
}

static void test_malformed(void **state)
{
    (void)state;
    ch_state st;
    level_state(&st);
    check_bad(&st, "", "empty move: expected one of draw, take, refresh");
    check_bad(&st, "   ", "empty move");
    check_bad(&st, "plya Harbour C1", "unknown move 'plya': expected one of draw, take, refresh");
    check_bad(&st, "play Harbour Z9", "'Harbour Z9' is not a plot on this board");
    check_bad(&st, "play Nowhere C1", "'Nowhere C1' is not a plot on this board");
    check_bad(&st, "play", "'play' needs a plot");
    check_bad(&st, "play L2", "'play L2' needs the plot to build on");
    check_bad(&st, "play L7 Harbour C1", "'L7' is not a level card");
    check_bad(&st, "play Harbour C1 Harbour D1", "unexpected 'Harbour D1' after 'Harbour C1'");
    check_bad(&st, "play Harbour C1 +", "'+' must be followed by a second plot");
    check_bad(&st, "play Harbour C1 + Harbour D1 + Harbour E1", "at most two cards");
    check_bad(&st, "play Harbour C1 + L2", "must be a plot card");
    check_bad(&st, "bid", "'bid' needs an amount like f120");
    check_bad(&st, "bid f12.5", "amount must be whole florins");
    check_bad(&st, "bid f-5", "must not be negative");
    check_bad(&st, "bid f10000001", "too large");
    check_bad(&st, "bid f99999999999999999999", "too large");
    check_bad(&st, "bid 120", "florin sign");
    check_bad(&st, "bid f", "needs a number of florins");
    check_bad(&st, "bid f12x", "is not an amount");
    check_bad(&st, "bid f120 f5", "unexpected 'f5' after 'f120'");
    check_bad(&st, "draw now", "unexpected 'now' after 'draw'");
    check_bad(&st, "accept offer", "unexpected 'offer' after 'accept'");
    check_bad(&st, "sell Teaa", "'Teaa' is not a company: expected one of Gunpowder");
    check_bad(&st, "sell", "'sell' needs a company");
    check_bad(&st, "sell 3", "'sell 3' needs a company");
    check_bad(&st, "sell -2 Tea", "must not be negative");
    check_bad(&st, "sell 999 Tea", "too large");
    check_bad(&st, "keep 2 Tea", "is not a company");
    check_bad(&st, "lose Tea Coal", "unexpected 'Coal' after 'Tea'");
    check_bad(&st, "found", "'found' needs a company");
    check_bad(&st, "buy Opium", "'Opium' is not a company");
    check_bad(&st, "merge Coal Tea", "'merge <absorbed> into <absorber>'");
    check_bad(&st, "merge Coal into", "needs a company");
    check_bad(&st, "action", "'action' needs 'roof' or 'event'");
    check_bad(&st, "action dance", "'action' needs 'roof' or 'event', not 'dance'");
    check_bad(&st, "event", "'event' needs a stock event");
    check_bad(&st, "event Feest", "'Feest' is not a stock event");
    check_bad(&st, "offer", "'offer' needs a player, like 'offer P2'");
    check_bad(&st, "offer Bob", "'Bob' is not a player");
    check_bad(&st, "offer P5", "there is no player P5: this game has P1 to P4");
    check_bad(&st, "offer P0", "there is no player P0");
    check_bad(&st, "give", "'give' needs a card, a company or an amount");
    check_bad(&st, "give Harbour", "is not a plot on this board");
    check_bad(&st, "give banana", "'banana' is not a card, company or amount");
    check_bad(&st, "ask f", "needs a number of florins");
    check_bad(&st, "give 50", "florin sign");
    check_bad(&st, "auction", "'auction' needs 'stock <company>'");
    check_bad(&st, "auction Tea", "not 'Tea'");
    check_bad(&st, "auction stock", "'auction stock' needs a company");
    check_bad(&st, "auction deck Tea", "unexpected 'Tea' after 'deck'");
    check_bad(&st, "take", "'take' needs a card like 'Harbour C1' or 'L2'");
    check_bad(&st, "take L6", "'L6' is not a level card: level cards are L2, L3, L4 and L5");
    check_bad(&st, "take L5", "there is no L5 card in the market");
    check_bad(&st, "take L4", "there is no L4 card in the market");
    check_bad(&st, "hq", "'hq' needs a plot");
    check_bad(&st, "hq Tea", "is not a plot on this board");
    check_bad(&st, "pick Harbour C1 now", "unexpected 'now' after 'Harbour C1'");

    char long_text[400];
    memset(long_text, 'a', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    check_bad(&st, long_text, "too long");
    char many[201];
    for (int i = 0; i < 200; i += 2) {
        many[i] = '+';
        many[i + 1] = ' ';
    }
    many[200] = '\0';
    check_bad(&st, many, "too many words");
}

static void test_bad_arguments(void **state)
{
    (void)state;
    ch_move m;
    ch_msg why = {{0}};
    assert_int_equal(ch_move_parse(NULL, 0, "draw", &m, &why), CH_EINVAL);
    assert_int_equal(ch_move_parse(&g_st, 0, NULL, &m, &why), CH_EINVAL);
    assert_int_equal(ch_move_parse(&g_st, 0, "draw", NULL, &why), CH_EINVAL);
    /* why may be NULL */
    assert_int_equal(ch_move_parse(&g_st, 0, "plya", &m, NULL), CH_ESYNTAX);
    assert_int_equal(ch_move_parse(&g_st, 0, "draw", &m, NULL), CH_OK);
    assert_int_equal(m.type, CH_M_DRAW);
}

/* ---- ch_move_str buffers and odd moves --------------------------------------------- */

static void test_str_buffers(void **state)
{
    (void)state;
    const ch_state *st = &g_st;
    int c1 = plot_of(st, "Harbour C1"), d1 = plot_of(st, "Harbour D1");
    ch_move m = mv(CH_M_PLAY, st->plot_card[c1], c1, st->plot_card[d1], 1);
    const char *want = "play Harbour C1 + Harbour D1 roof";
    int len = (int)strlen(want);
    assert_int_equal(ch_move_str(st, m, NULL, 0), len);
    char buf[64];
    memset(buf, 'x', sizeof buf);
    assert_int_equal(ch_move_str(st, m, buf, 10), len);
    assert_string_equal(buf, "play Harb");
    assert_int_equal(buf[10], 'x');
    assert_int_equal(ch_move_str(st, m, buf, 1), len);
    assert_string_equal(buf, "");
    assert_int_equal(ch_move_str(st, m, buf, (size_t)len), len);
    assert_int_equal((int)strlen(buf), len - 1);
    assert_int_equal(ch_move_str(st, m, buf, (size_t)len + 1), len);
    assert_string_equal(buf, want);

    /* nonsense moves still give some text and never crash */
    ch_move odd[] = {mv(CH_M_NONE, 0, 0, 0, 0),     mv(200, 0, 0, 0, 0),
                     mv(CH_M_TAKE, 250, 0, 0, 0),   mv(CH_M_PLAY, 0, 250, 250, 0),
                     mv(CH_M_SELL, 77, 0, 0, 2),    mv(CH_M_ACTION, 9, 0, 0, 0),
                     mv(CH_M_EVENT, 9, 0, 0, 0),    mv(CH_M_OFFER, 200, 0, 0, 0),
                     mv(CH_M_GIVE, 0, 9, 0, 0),     mv(CH_M_AUCTION, 0, 9, 0, 0),
                     mv(CH_M_HQ, 250, 0, 0, 0)};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        int k = ch_move_str(st, odd[i], buf, sizeof buf);
        assert_true(k > 0);
        assert_int_equal(k, (int)strlen(buf));
    }
    assert_int_equal(ch_move_str(NULL, mv(CH_M_DRAW, 0, 0, 0, 0), buf, sizeof buf), 4);
    assert_string_equal(buf, "draw");
}

/* ---- ch_play ---------------------------------------------------------------------- */

static void test_play_refuses_without_change(void **state)
{
    (void)state;
    ch_state st = g_st;
    ch_msg why = {{0}};
    assert_int_equal(ch_play(&st, 0, "plya", &why), CH_ESYNTAX);
    assert_non_null(strstr(why.text, "unknown move 'plya'"));
    assert_memory_equal(&st, &g_st, sizeof st);
    assert_int_equal(ch_play(&st, 0, "bid f-1", NULL), CH_ESYNTAX);
    assert_memory_equal(&st, &g_st, sizeof st);
}

/* The first legal move of the deciding player, played by text, has the same
 * effect as ch_apply of the move. */
static void test_play_applies(void **state)
{
    (void)state;
    ch_state a = g_st, b = g_st;
    unsigned mask = 0;
    if (ch_decider(&a, &mask) == CH_DEC_TERMINAL || mask == 0)
        fail_msg("a new game has no decider");
    int p = __builtin_ctz(mask);
    ch_move moves[512];
    int n = ch_legal(&a, p, moves, 512);
    assert_true(n > 0);
    char text[128];
    ch_move_str(&a, moves[0], text, sizeof text);
    ch_msg why = {{0}};
    int rc = ch_play(&a, p, text, &why);
    if (rc != CH_OK)
        fail_msg("ch_play '%s': %s", text, why.text);
    assert_int_equal(ch_apply(&b, p, moves[0], &why), CH_OK);
    assert_memory_equal(&a, &b, sizeof a);
    /* a legal-looking text of the wrong player is the engine's to refuse */
    unsigned other = (unsigned)(p + 1) % (unsigned)a.nplayers;
    ch_state before = a;
    rc = ch_play(&a, (int)other, "draw", &why);
    if (rc != CH_OK) {
        assert_true(rc != CH_ESYNTAX);
        assert_memory_equal(&a, &before, sizeof a);
    }
}

/* ---- random games ------------------------------------------------------------------ */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

#define MAX_MOVES 4096

static void test_random_games_round_trip(void **state)
{
    (void)state;
    static ch_move moves[MAX_MOVES];
    long checked = 0, decisions = 0, finished = 0;
    int type_seen[CH_M_NTYPES] = {0};
    for (int g = 0; g < 200; g++) {
        ch_setup setup;
        ch_setup_default(&setup, CH_ED_AMSTERDAM);
        setup.nplayers = 2 + g % 4;
        setup.seed = 1000u + (uint64_t)g;
        ch_state st;
        ch_msg why = {{0}};
        if (ch_new(&st, &setup, &g_board, &why) != CH_OK)
            fail_msg("ch_new (game %d): %s", g, why.text);
        for (int step = 0; step < 5000; step++) {
            unsigned mask = 0;
            if (ch_decider(&st, &mask) == CH_DEC_TERMINAL) {
                finished++;
                break;
            }
            assert_true(mask != 0);
            int p = __builtin_ctz(mask);
            int n = ch_legal(&st, p, moves, MAX_MOVES);
            if (n <= 0)
                fail_msg("game %d step %d: P%d decides but has no legal move", g, step,
                         p + 1);
            if (n > MAX_MOVES)
                n = MAX_MOVES;
            for (int i = 0; i < n; i++) {
                char text[128];
                int len = ch_move_str(&st, moves[i], text, sizeof text);
                assert_true(len > 0 && len < (int)sizeof text);
                ch_move back;
                int rc = ch_move_parse(&st, p, text, &back, &why);
                if (rc != CH_OK)
                    fail_msg("game %d step %d (%s): '%s' does not parse: %s", g, step,
                             ch_phase_name(st.phase), text, why.text);
                if (memcmp(&back, &moves[i], sizeof back) != 0)
                    fail_msg("game %d step %d (%s): '%s' is {%d,%d,%d,%d,%d} but parses "
                             "to {%d,%d,%d,%d,%d}",
                             g, step, ch_phase_name(st.phase), text, moves[i].type,
                             moves[i].a, moves[i].b, moves[i].c, (int)moves[i].n,
                             back.type, back.a, back.b, back.c, (int)back.n);
                char again[128];
                ch_move_str(&st, back, again, sizeof again);
                assert_string_equal(again, text);
                if (moves[i].type < CH_M_NTYPES)
                    type_seen[moves[i].type] = 1;
                checked++;
            }
            ch_move pick = moves[rnd((uint32_t)n)];
            int rc = ch_apply(&st, p, pick, &why);
            if (rc != CH_OK) {
                char text[128];
                ch_move_str(&st, pick, text, sizeof text);
                fail_msg("game %d step %d: legal move '%s' refused: %s", g, step, text,
                         why.text);
            }
            decisions++;
        }
    }
    int kinds = 0;
    for (int t = 1; t < CH_M_NTYPES; t++) {
        kinds += type_seen[t];
        if (!type_seen[t])
            print_message("random games: no legal move of type %d was seen\n", t);
    }
    print_message("random games: %ld decisions, %ld finished games, %ld legal moves "
                  "round-tripped, %d move types seen\n",
                  decisions, finished, checked, kinds);
    assert_true(checked > 0);
}

/* ---- The Golden Age -------------------------------------------------------------- */

/* A new Golden Age game on the side its preset names for the player count. */
static void ga_game(ch_state *st, int players, int preset, int events, uint64_t seed)
{
    ch_setup setup;
    ch_setup_default(&setup, CH_ED_GOLDEN_AGE);
    setup.nplayers = players;
    setup.preset = preset;
    setup.events = events;
    setup.seed = seed;
    ch_board b;
    ch_msg why = {{0}};
    const char *side = ch_ga_side(preset, players);
    assert_non_null(side);
    if (ch_board_builtin(&b, CH_ED_GOLDEN_AGE, side, &why) != CH_OK)
        fail_msg("ch_board_builtin(golden-age, %s): %s", side, why.text);
    if (ch_new(st, &setup, &b, &why) != CH_OK)
        fail_msg("ch_new (golden-age, %d players, preset %d, events %d): %s", players,
                 preset, events, why.text);
}

/* Every legal move seen in random Golden Age games (2 to 6 players, both
 * presets, with and without event cards) writes a text that reads back to
 * the same move and the same text. */
static void test_ga_random_games_round_trip(void **state)
{
    (void)state;
    static ch_move moves[MAX_MOVES];
    long checked = 0, decisions = 0, finished = 0;
    int type_seen[CH_M_NTYPES] = {0}, phase_seen[CH_PH_COUNT] = {0};
    for (int g = 0; g < 80; g++) {
        int players = 2 + g % 5, preset = (g / 5) % 2, events = (g / 10) % 2;
        ch_state st;
        ga_game(&st, players, preset, events, 5000u + (uint64_t)g);
        ch_msg why = {{0}};
        for (int step = 0; step < 5000; step++) {
            unsigned mask = 0;
            if (ch_decider(&st, &mask) == CH_DEC_TERMINAL) {
                finished++;
                break;
            }
            assert_true(mask != 0);
            int p = __builtin_ctz(mask);
            int n = ch_legal(&st, p, moves, MAX_MOVES);
            if (n <= 0)
                fail_msg("game %d step %d: P%d decides but has no legal move", g, step,
                         p + 1);
            if (n > MAX_MOVES)
                n = MAX_MOVES;
            if (st.phase < CH_PH_COUNT)
                phase_seen[st.phase] = 1;
            for (int i = 0; i < n; i++) {
                char text[128];
                int len = ch_move_str(&st, moves[i], text, sizeof text);
                assert_true(len > 0 && len < (int)sizeof text);
                assert_null(strchr(text, '?'));
                ch_move back;
                int rc = ch_move_parse(&st, p, text, &back, &why);
                if (rc != CH_OK)
                    fail_msg("golden-age game %d step %d (%s): '%s' does not parse: %s", g,
                             step, ch_phase_name(st.phase), text, why.text);
                if (memcmp(&back, &moves[i], sizeof back) != 0)
                    fail_msg("golden-age game %d step %d (%s): '%s' is {%d,%d,%d,%d,%d} but "
                             "parses to {%d,%d,%d,%d,%d}",
                             g, step, ch_phase_name(st.phase), text, moves[i].type,
                             moves[i].a, moves[i].b, moves[i].c, (int)moves[i].n,
                             back.type, back.a, back.b, back.c, (int)back.n);
                char again[128];
                ch_move_str(&st, back, again, sizeof again);
                assert_string_equal(again, text);
                if (moves[i].type < CH_M_NTYPES)
                    type_seen[moves[i].type] = 1;
                checked++;
            }
            ch_move pick = moves[rnd((uint32_t)n)];
            int rc = ch_apply(&st, p, pick, &why);
            if (rc != CH_OK) {
                char text[128];
                ch_move_str(&st, pick, text, sizeof text);
                fail_msg("golden-age game %d step %d: legal move '%s' refused: %s", g, step,
                         text, why.text);
            }
            decisions++;
        }
    }
    print_message("golden-age random games: %ld decisions, %ld finished games, %ld legal "
                  "moves round-tripped\n",
                  decisions, finished, checked);
    /* the moves of The Golden Age, and its phases, all came up */
    static const int want_types[] = {CH_M_DRAW, CH_M_TAKE, CH_M_REFRESH, CH_M_DONE,
                                     CH_M_PLAY, CH_M_SELL,  CH_M_BUY,     CH_M_FOUND,
                                     CH_M_FREE, CH_M_FLAG,  CH_M_CREDIT,  CH_M_MERGE};
    for (size_t i = 0; i < sizeof want_types / sizeof want_types[0]; i++)
        if (!type_seen[want_types[i]])
            fail_msg("golden-age random games: no legal move of type %d was seen",
                     want_types[i]);
    static const int want_phases[] = {CH_PH_TURN,  CH_PH_PURCHASE, CH_PH_FOUND, CH_PH_FREE,
                                      CH_PH_CREDIT, CH_PH_TRADE,   CH_PH_EVSELL};
    for (size_t i = 0; i < sizeof want_phases / sizeof want_phases[0]; i++)
        if (!phase_seen[want_phases[i]])
            fail_msg("golden-age random games: phase %s never came up",
                     ch_phase_name(want_phases[i]));
    assert_true(finished >= 70);
    assert_true(checked > 100000);
}

/* The Golden Age forms read in context: bare lot numbers on the one-district
 * board, any order of the two free lots, case and spacing; and the written
 * forms of free and flag. */
static void test_ga_forms(void **state)
{
    (void)state;
    ch_state st;
    ga_game(&st, 2, CH_GA_PRINTED, 0, 77);
    int x13 = plot_of(&st, "Harbour 13"), x14 = plot_of(&st, "Harbour 14");
    check_both(&st, 0, mv(CH_M_FREE, x13, x14, 0, 0), "free Harbour 13 + Harbour 14");
    check_same(&st, "free Harbour 14 + Harbour 13", "free Harbour 13 + Harbour 14");
    check_same(&st, "FREE 13+14", "free Harbour 13 + Harbour 14");
    check_same(&st, "  free   harbour 13 +harbour 14 ", "free Harbour 13 + Harbour 14");
    for (int c = 0; c < CH_MAX_COMPANIES; c++) {
        char text[64];
        snprintf(text, sizeof text, "flag %s", ch_company_name(&st, c));
        check_both(&st, 0, mv(CH_M_FLAG, c, 0, 0, 0), text);
    }
    check_same(&st, "FLAG tea", "flag Tea");
    check_same(&st, "flag   gunpowder", "flag Gunpowder");
    ch_state big;
    ga_game(&big, 5, CH_GA_PRINTED, 1, 78);
    check_same(&big, "free 94 + 95", "free City Centre 94 + City Centre 95");
    check_same(&big, "free city centre 1 + 2", "free City Centre 1 + City Centre 2");
}

/* Malformed free and flag texts are refused with CH_ESYNTAX and a message. */
static void test_ga_malformed(void **state)
{
    (void)state;
    ch_state st;
    ga_game(&st, 3, CH_GA_FIRST, 1, 79);
    check_bad(&st, "free", "free");
    check_bad(&st, "free Harbour 13", "+");
    check_bad(&st, "free Harbour 13 Harbour 14", "+");
    check_bad(&st, "free Harbour 13 +", "plot");
    check_bad(&st, "free + Harbour 14", "plot");
    check_bad(&st, "free +", "plot");
    check_bad(&st, "free Harbour 13 + Harbour 61", "Harbour 61");
    check_bad(&st, "free Harbour 0 + Harbour 1", "Harbour 0");
    check_bad(&st, "free 13 + 99", "99");
    check_bad(&st, "free City Centre 13 + City Centre 14", "City Centre 13");
    check_bad(&st, "free Harbour 13 + Harbour 14 + Harbour 15", "Harbour");
    check_bad(&st, "free Harbour 13 + Harbour 14 roof", "roof");
    check_bad(&st, "free Tea + Silk", "Tea");
    check_bad(&st, "free L2 + Harbour 14", "L2");
    check_bad(&st, "free f50 + Harbour 14", "f50");
    check_bad(&st, "flag", "flag");
    check_bad(&st, "flag Teaa", "Teaa");
    check_bad(&st, "flag Coal", "Coal");
    check_bad(&st, "flag Tea Silk", "Silk");
    check_bad(&st, "flag Tea +", "+");
    check_bad(&st, "flag f200", "f200");
    check_bad(&st, "flag Harbour 13", "Harbour");
    check_bad(&st, "flag 3", "3");
    check_bad(&st, "flags Tea", "flags");
    check_bad(&st, "fre Harbour 13 + Harbour 14", "fre");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_company_names),
        cmocka_unit_test(test_company_find),
        cmocka_unit_test(test_event_and_phase_names),
        cmocka_unit_test(test_card_name_and_hand_count),
        cmocka_unit_test(test_round_trip_all_forms),
        cmocka_unit_test(test_round_trip_every_name),
        cmocka_unit_test(test_level_resolution),
        cmocka_unit_test(test_case_and_spacing),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_str_buffers),
        cmocka_unit_test(test_play_refuses_without_change),
        cmocka_unit_test(test_play_applies),
        cmocka_unit_test(test_random_games_round_trip),
        cmocka_unit_test(test_ga_forms),
        cmocka_unit_test(test_ga_malformed),
        cmocka_unit_test(test_ga_random_games_round_trip),
    };
    return cmocka_run_group_tests(tests, group_setup, NULL);
}
