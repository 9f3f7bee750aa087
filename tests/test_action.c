/* test_action.c: the fixed action space (src/core/action.c, chartered.h "a
 * fixed action space"; issue 34, "What to build" 1).
 *
 * Along random games of both editions (Building Amsterdam with 2 to 5
 * players, The Golden Age with 2 to 6 under both presets, with and without
 * event cards), at every decision and for every player who decides (sealed
 * bids included):
 *   - every legal move has an id (none is left out in these games), below
 *     ch_num_distinct_actions, and decoding the id gives the move back field
 *     for field (type, a, b, c, n): the id means that move;
 *   - two legal moves never share an id;
 *   - ch_action_mask sets exactly those ids and no other;
 *   - ch_action_str writes the move's notation, and ch_action_parse reads it
 *     back to the same id.
 * Every id of the space either names no move of the game (CH_EINVAL) or
 * decodes to a move that encodes back to it (checked at some decisions), so
 * no two ids name one move. Every plot of every built-in arrangement has its
 * ids. Every move type of each edition that the games reach is counted, and
 * the types each edition must reach are listed in must_see. Bad arguments
 * get CH_EINVAL and change nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "play.h"

#define CAP 16384

static long seen[2][CH_M_NTYPES];
static long moves_checked;

static void check_decision(const ch_state *st, int p, ch_move *mv, uint8_t *mask, uint8_t *hit,
                           int full_scan)
{
    const int32_t size = ch_num_distinct_actions(st->edition, st->nplayers);
    int n = ch_legal(st, p, mv, CAP);
    assert_true(n > 0 && n <= CAP);
    memset(hit, 0, (size_t)size);
    for (int i = 0; i < n; i++) {
        int32_t id = ch_action_encode(st, mv[i]);
        char text[256], text2[256];
        ch_move_str(st, mv[i], text, sizeof text);
        if (id < 0 || id >= size)
            fail_msg("edition %d: legal move '%s' (type %d a %d b %d c %d n %d) has no id", st->edition,
                     text, mv[i].type, mv[i].a, mv[i].b, mv[i].c, mv[i].n);
        if (hit[id])
            fail_msg("edition %d: two legal moves share id %d ('%s')", st->edition, id, text);
        hit[id] = 1;
        ch_move back;
        assert_int_equal(ch_action_decode(st, p, id, &back), CH_OK);
        if (back.type != mv[i].type || back.a != mv[i].a || back.b != mv[i].b ||
            back.c != mv[i].c || back.n != mv[i].n)
            fail_msg("edition %d: id %d of '%s' (type %d a %d b %d c %d n %d) decodes to type %d "
                     "a %d b %d c %d n %d", st->edition, id, text, mv[i].type, mv[i].a, mv[i].b,
                     mv[i].c, mv[i].n, back.type, back.a, back.b, back.c, back.n);
        assert_true(ch_action_str(st, p, id, text2, sizeof text2) > 0);
        assert_string_equal(text, text2);
        int32_t parsed = -1;
        ch_msg why;
        if (ch_action_parse(st, p, text, &parsed, &why) != CH_OK)
            fail_msg("'%s' does not read back: %s", text, why.text);
        assert_int_equal(parsed, id);
        seen[st->edition][mv[i].type]++;
        moves_checked++;
    }
    int unmapped = -1;
    assert_int_equal(ch_action_mask(st, p, mask, size, &unmapped), n);
    assert_int_equal(unmapped, 0);
    assert_memory_equal(mask, hit, (size_t)size);
    if (full_scan) /* every id: nothing, or a move that is that id */
        for (int32_t id = 0; id < size; id++) {
            ch_move m;
            int rc = ch_action_decode(st, p, id, &m);
            assert_true(rc == CH_OK || rc == CH_EINVAL);
            if (rc == CH_OK)
                assert_int_equal(ch_action_encode(st, m), id);
        }
}

static void play_game(ch_state *st, uint64_t seed)
{
    static ch_move mv[CAP];
    const int32_t size = ch_num_distinct_actions(st->edition, st->nplayers);
    uint8_t *mask = malloc((size_t)size), *hit = malloc((size_t)size);
    assert_non_null(mask);
    assert_non_null(hit);
    uint64_t rng = seed * 2654435761u + 1;
    for (int k = 0; k < 20000; k++) {
        unsigned dmask;
        if (ch_decider(st, &dmask) == CH_DEC_TERMINAL)
            break;
        for (int p = 0; p < st->nplayers; p++)
            if (dmask >> p & 1)
                check_decision(st, p, mv, mask, hit, k % 97 == 0);
        assert_true(t_random_step(st, &rng));
    }
    unsigned dmask;
    assert_int_equal(ch_decider(st, &dmask), CH_DEC_TERMINAL);
    free(mask);
    free(hit);
}

static void test_amsterdam_games(void **state)
{
    (void)state;
    for (int g = 0; g < 24; g++) {
        ch_state st;
        static const char *const arr[] = {"standard", "quick-battle", "crossroads", "outliers"};
        t_new(&st, 2 + g % 4, arr[g / 4 % 4], 1000 + (uint64_t)g);
        play_game(&st, (uint64_t)g);
    }
}

static void test_golden_age_games(void **state)
{
    (void)state;
    for (int g = 0; g < 20; g++) {
        ch_state st;
        t_new_ga(&st, 2 + g % 5, g / 5 % 2 ? CH_GA_FIRST : CH_GA_PRINTED, g / 10 % 2, 2000 + (uint64_t)g);
        play_game(&st, (uint64_t)g);
    }
}

/* The move types each edition's random games must reach: all but those the
 * edition does not have (The Golden Age has no stock events, offers,
 * auctions, roofs or diagonal foundings; Building Amsterdam no free
 * warehouses or flags) and, in The Golden Age, passing (rare in random
 * play). */
static void test_coverage(void **state)
{
    (void)state;
    static const int must_ba[] = {CH_M_DRAW, CH_M_TAKE, CH_M_REFRESH, CH_M_DONE, CH_M_PLAY,
                                  CH_M_PASS, CH_M_SELL, CH_M_BUY, CH_M_HQ, CH_M_LONE, CH_M_FOUND, CH_M_CREDIT,
                                  CH_M_MERGE, CH_M_ACTION, CH_M_EVENT, CH_M_BID, CH_M_LOSE,
                                  CH_M_OFFER, CH_M_GIVE, CH_M_ASK, CH_M_PROPOSE, CH_M_WITHDRAW,
                                  CH_M_ACCEPT, CH_M_DECLINE, CH_M_AUCTION, CH_M_PICK};
    static const int must_ga[] = {CH_M_DRAW, CH_M_TAKE, CH_M_REFRESH, CH_M_DONE, CH_M_PLAY,
                                  CH_M_SELL, CH_M_BUY, CH_M_FOUND, CH_M_CREDIT, CH_M_MERGE,
                                  CH_M_FREE, CH_M_FLAG};
    for (size_t i = 0; i < sizeof must_ba / sizeof *must_ba; i++)
        if (!seen[0][must_ba[i]])
            fail_msg("Building Amsterdam's games never reached move type %d", must_ba[i]);
    for (size_t i = 0; i < sizeof must_ga / sizeof *must_ga; i++)
        if (!seen[1][must_ga[i]])
            fail_msg("The Golden Age's games never reached move type %d", must_ga[i]);
    printf("# %ld legal moves checked; types seen:", moves_checked);
    for (int e = 0; e < 2; e++)
        for (int t = 1; t < CH_M_NTYPES; t++)
            if (seen[e][t])
                printf(" %c%d", e ? 'G' : 'A', t);
    printf("\n");
}

/* Every plot of every built-in arrangement has its ids (the sections are
 * sized for the edition's largest board). */
static void test_boards_fit(void **state)
{
    (void)state;
    for (int ed = 0; ed < 2; ed++)
        for (const char *const *name = ch_board_builtin_names(ed); *name; name++) {
            ch_board b;
            ch_msg err;
            assert_int_equal(ch_board_builtin(&b, ed, *name, &err), CH_OK);
            ch_setup s;
            ch_setup_default(&s, ed);
            s.nplayers = ed ? 6 : 5;
            s.events = 1;
            ch_state st;
            if (ch_new(&st, &s, &b, &err) != CH_OK) { /* a side for fewer players */
                s.nplayers = 2;
                assert_int_equal(ch_new(&st, &s, &b, &err), CH_OK);
            }
            for (int x = 0; x < b.nplots; x++) {
                ch_move single = {CH_M_PLAY, st.plot_card[x], (uint8_t)x, CH_NONE, 0};
                assert_true(ch_action_encode(&st, single) >= 0);
                int lv = -1;
                for (int c = 0; c < st.ncards && lv < 0; c++)
                    if (st.card_level[c])
                        lv = c;
                ch_move level = {CH_M_PLAY, (uint8_t)lv, (uint8_t)x, CH_NONE, 0};
                assert_true(ch_action_encode(&st, level) >= 0);
                ch_move other = {ed ? CH_M_FREE : CH_M_HQ, (uint8_t)x, (uint8_t)(ed ? x : 0), 0, 0};
                assert_true(ch_action_encode(&st, other) >= 0);
            }
        }
}

static void test_bad_arguments(void **state)
{
    (void)state;
    assert_int_equal(ch_num_distinct_actions(2, 4), -1);
    assert_int_equal(ch_num_distinct_actions(CH_ED_AMSTERDAM, 6), -1);
    assert_int_equal(ch_num_distinct_actions(CH_ED_AMSTERDAM, 1), -1);
    assert_true(ch_num_distinct_actions(CH_ED_GOLDEN_AGE, 6) > 0);
    /* the offers name players: one id more per player */
    assert_int_equal(ch_num_distinct_actions(CH_ED_AMSTERDAM, 5) - ch_num_distinct_actions(CH_ED_AMSTERDAM, 4), 1);
    ch_state st;
    t_new(&st, 4, "standard", 7);
    int32_t size = ch_num_distinct_actions(CH_ED_AMSTERDAM, 4);
    ch_move m = {CH_M_DONE, 0, 0, 0, 0}, keep = {CH_M_BID, 1, 2, 3, 4};
    m = keep;
    assert_int_equal(ch_action_decode(&st, 0, -1, &m), CH_EINVAL);
    assert_int_equal(ch_action_decode(&st, 0, size, &m), CH_EINVAL);
    assert_int_equal(ch_action_decode(&st, 4, 0, &m), CH_EINVAL);
    assert_int_equal(ch_action_decode(&st, -1, 0, &m), CH_EINVAL);
    assert_memory_equal(&m, &keep, sizeof m);
    ch_move big = {CH_M_BID, 0, 0, 0, CH_ACTION_MONEY_MAX + 1}, neg = {CH_M_BID, 0, 0, 0, -1};
    assert_int_equal(ch_action_encode(&st, big), -1);
    assert_int_equal(ch_action_encode(&st, neg), -1);
    ch_move none = {0, 0, 0, 0, 0}, bad = {CH_M_NTYPES, 0, 0, 0, 0};
    assert_int_equal(ch_action_encode(&st, none), -1);
    assert_int_equal(ch_action_encode(&st, bad), -1);
    uint8_t *mask = malloc((size_t)size + 1);
    assert_non_null(mask);
    memset(mask, 7, (size_t)size + 1);
    int un = 5;
    assert_int_equal(ch_action_mask(&st, 0, mask, size + 1, &un), -CH_EINVAL);
    assert_int_equal(ch_action_mask(&st, 9, mask, size, &un), -CH_EINVAL);
    for (int32_t i = 0; i <= size; i++)
        assert_int_equal(mask[i], 7);
    /* a player who does not decide: an empty mask */
    unsigned dm;
    ch_decider(&st, &dm);
    int other = __builtin_ctz(dm) == 0 ? 1 : 0;
    assert_int_equal(ch_action_mask(&st, other, mask, size, &un), 0);
    for (int32_t i = 0; i < size; i++)
        assert_int_equal(mask[i], 0);
    free(mask);
    int32_t id = 5;
    ch_msg why;
    assert_int_not_equal(ch_action_parse(&st, 0, "fly to the moon", &id, &why), CH_OK);
    assert_int_equal(id, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_boards_fit),
        cmocka_unit_test(test_amsterdam_games),
        cmocka_unit_test(test_golden_age_games),
        cmocka_unit_test(test_coverage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
