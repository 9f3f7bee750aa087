/* test_random_games.c: randomized whole games through the checked API. Every
 * move comes from ch_legal and is applied with ch_apply (which checks it);
 * ch_validate runs after every decision (money, warehouses, stocks, values,
 * groups); every game must end; replay from seed and moves gives the same
 * state; determinize keeps every invariant. The large run (20,000+ games) is
 * `chartered selfplay` in tests/cli_selfplay.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <stdlib.h>
#include "play.h"

#define MAXMOVES 200000

static void play_games_on(int games, int players, const char *arr, int ga, int preset, int events,
                          uint64_t seed0)
{
    /* CH_TEST_GAMES raises the count for a longer soak by hand. */
    const char *env = getenv("CH_TEST_GAMES");
    if (env && atoi(env) > 0)
        games = atoi(env);
    static ch_move log[MAXMOVES];
    static int who[MAXMOVES];
    static ch_move buf[1 << 16];
    for (int g = 0; g < games; g++) {
        ch_state st, replay;
        uint64_t rng = seed0 * 1000 + (uint64_t)g;
        if (ga)
            t_new_ga(&st, players, preset, events, seed0 + (uint64_t)g);
        else
            t_new(&st, players, arr, seed0 + (uint64_t)g);
        replay = st;
        int nlog = 0;
        while (t_decider(&st) >= 0) {
            int p = t_decider(&st);
            int n = ch_legal(&st, p, buf, 1 << 16);
            assert_true(n > 0);
            if (n > (1 << 16))
                n = 1 << 16;
            ch_move mv = buf[t_rand(&rng) % (uint64_t)n];
            ch_msg m;
            if (ch_apply(&st, p, mv, &m) != CH_OK)
                fail_msg("listed move rejected: %s", m.text);
            if (ch_validate(&st, &m) != CH_OK) {
                char t[96];
                ch_move_str(&st, mv, t, sizeof t);
                fail_msg("game %d seed %llu decision %d after '%s' by P%d: %s", g,
                         (unsigned long long)(seed0 + (uint64_t)g), nlog, t, p + 1, m.text);
            }
            if (nlog % 17 == 0) {
                ch_state d = st;
                ch_determinize(&d, p, (uint64_t)nlog);
                if (ch_validate(&d, &m) != CH_OK)
                    fail_msg("determinize broke the state: %s", m.text);
            }
            who[nlog] = p;
            log[nlog++] = mv;
            assert_true(nlog < MAXMOVES);
        }
        for (int i = 0; i < nlog; i++)
            ch_apply_fast(&replay, who[i], log[i]);
        assert_memory_equal(&st, &replay, sizeof st);
    }
}

static void play_games(int games, int players, const char *arr, uint64_t seed0)
{
    play_games_on(games, players, arr, 0, 0, 0, seed0);
}

static void play_ga(int games, int players, int preset, int events, uint64_t seed0)
{
    play_games_on(games, players, NULL, 1, preset, events, seed0);
}

static void random_2p(void **s) { (void)s; play_games(60, 2, "standard", 100); }
static void random_3p(void **s) { (void)s; play_games(60, 3, "quick-battle", 200); }
static void random_4p(void **s) { (void)s; play_games(60, 4, "crossroads", 300); }
static void random_5p(void **s) { (void)s; play_games(60, 5, "outliers", 400); }

/* The Golden Age: every player count, both presets, with and without events. */
static void random_ga_printed(void **s)
{
    (void)s;
    for (int n = 2; n <= 6; n++)
        play_ga(12, n, CH_GA_PRINTED, n & 1, 1000 + (uint64_t)n * 100);
}
static void random_ga_first(void **s)
{
    (void)s;
    for (int n = 2; n <= 6; n++)
        play_ga(12, n, CH_GA_FIRST, !(n & 1), 2000 + (uint64_t)n * 100);
}

/* The board caches (ch_state piece, lone, zone) are checked by ch_validate
 * against a recomputation from scratch: the loop above runs it after every
 * decision; here a cache a single plot off is caught, in both editions, for
 * each of the three bitsets, once the board has companies (and, in Building
 * Amsterdam, lone warehouses). */
static void board_caches_checked(void **s)
{
    (void)s;
    static ch_move buf[1 << 16];
    for (int ga = 0; ga < 2; ga++) {
        ch_state st;
        if (ga)
            t_new_ga(&st, 4, CH_GA_PRINTED, 0, 77);
        else
            t_new(&st, 4, "standard", 77);
        uint64_t rng = 77;
        ch_msg m;
        int guard = 0;
        /* play until a company and a lone warehouse stand on the board */
        while (t_decider(&st) >= 0 && guard++ < 20000) {
            uint64_t comp0 = st.piece[0] & ~st.lone[0], comp1 = st.piece[1] & ~st.lone[1];
            /* (The Golden Age has no lone warehouses: a lot builds only next
             * to an enterprise or founds one.) */
            if ((comp0 | comp1) && (ga || (st.lone[0] | st.lone[1])) && st.phase == CH_PH_TURN)
                break;
            int p = t_decider(&st);
            int n = ch_legal(&st, p, buf, 1 << 16);
            assert_true(n > 0);
            if (n > (1 << 16))
                n = 1 << 16;
            assert_int_equal(ch_apply(&st, p, buf[t_rand(&rng) % (uint64_t)n], &m), CH_OK);
        }
        assert_true(st.zone[0] | st.zone[1]);
        assert_true(ga || (st.lone[0] | st.lone[1]));
        assert_int_equal(ch_validate(&st, &m), CH_OK);
        for (int k = 0; k < 4; k++)
            for (int bit = 0; bit < 3; bit++) {
                ch_state bad = st;
                uint64_t *c = k == 0 ? bad.piece : k == 1 ? bad.lone : k == 2 ? bad.zone : bad.near;
                int x = bit == 0 ? 0 : bit == 1 ? ch_state_board(&st)->nplots - 1 : ch_state_board(&st)->nplots / 2;
                c[x >> 6] ^= (uint64_t)1 << (x & 63);
                assert_int_equal(ch_validate(&bad, &m), CH_EINVARIANT);
                assert_non_null(strstr(m.text, "cached"));
            }
        /* a JSON round trip derives the same caches */
        char *json = ch_state_to_json(&st);
        ch_state back;
        assert_int_equal(ch_state_from_json(&back, json, &m), CH_OK);
        ch_free(json);
        assert_memory_equal(back.piece, st.piece, sizeof st.piece);
        assert_memory_equal(back.lone, st.lone, sizeof st.lone);
        assert_memory_equal(back.zone, st.zone, sizeof st.zone);
        assert_memory_equal(back.near, st.near, sizeof st.near);
    }
}

/* The askable cards of a Coopmanscappen offer are kept in the state while it
 * is built (offer_ask, offer_lvl): ch_validate must notice when they are
 * wrong, left behind or kept outside an offer; a state without them (built by
 * hand) lists the same moves; a JSON round trip derives them again. */
static void offer_cache_checked(void **s)
{
    (void)s;
    static ch_move buf[1 << 16], buf2[1 << 16];
    int offers_seen = 0;
    for (uint64_t seed = 1; seed < 40 && offers_seen < 5; seed++) {
        ch_state st;
        t_new(&st, 4, "standard", seed);
        uint64_t rng = seed;
        ch_msg m;
        int guard = 0;
        while (t_decider(&st) >= 0 && guard++ < 20000) {
            int p = t_decider(&st);
            if (st.phase == CH_PH_OFFER) {
                assert_int_equal(st.offer_cached, 1);
                assert_int_equal(ch_validate(&st, &m), CH_OK);
                /* the same moves without the kept cards */
                ch_state plain = st;
                memset(plain.offer_ask, 0, sizeof plain.offer_ask);
                memset(plain.offer_lvl, 0, sizeof plain.offer_lvl);
                plain.offer_cached = 0;
                assert_int_equal(ch_validate(&plain, &m), CH_OK);
                int n1 = ch_legal(&st, p, buf, 1 << 16), n2 = ch_legal(&plain, p, buf2, 1 << 16);
                assert_int_equal(n1, n2);
                assert_memory_equal(buf, buf2, (size_t)(n1 < (1 << 16) ? n1 : 1 << 16) * sizeof buf[0]);
                /* a wrong askable plot card, a wrong level marker */
                ch_state bad = st;
                bad.offer_ask[0] ^= 1;
                assert_int_equal(ch_validate(&bad, &m), CH_EINVARIANT);
                assert_non_null(strstr(m.text, "askable"));
                bad = st;
                bad.offer_lvl[0] = bad.offer_lvl[0] == CH_NONE ? 0 : CH_NONE;
                assert_int_equal(ch_validate(&bad, &m), CH_EINVARIANT);
                assert_non_null(strstr(m.text, "askable"));
                /* left behind without the flag */
                bad = st;
                bad.offer_cached = 0;
                if (bad.offer_ask[0] | bad.offer_ask[1]) {
                    assert_int_equal(ch_validate(&bad, &m), CH_EINVARIANT);
                    assert_non_null(strstr(m.text, "askable"));
                }
                /* kept outside an offer */
                bad = st;
                bad.phase = CH_PH_COOP;
                assert_int_equal(ch_validate(&bad, &m), CH_EINVARIANT);
                assert_non_null(strstr(m.text, "askable"));
                /* a JSON round trip works them out again */
                char *json = ch_state_to_json(&st);
                ch_state back;
                assert_int_equal(ch_state_from_json(&back, json, &m), CH_OK);
                ch_free(json);
                assert_memory_equal(&back, &st, sizeof st);
                offers_seen++;
            } else {
                assert_int_equal(st.offer_cached, 0);
            }
            int n = ch_legal(&st, p, buf, 1 << 16);
            assert_true(n > 0);
            if (n > (1 << 16))
                n = 1 << 16;
            assert_int_equal(ch_apply(&st, p, buf[t_rand(&rng) % (uint64_t)n], &m), CH_OK);
        }
    }
    assert_true(offers_seen >= 5);
}

/* Move generation classifies a hand as bitsets over plots when its plot
 * cards build on the plot of their own number (as ch_new numbers them), and
 * goes card by card otherwise. Here the same positions with two plot cards'
 * numbers swapped (one in the active player's hand): the same game with its
 * cards renamed, which must have the same legal moves, renamed. */
static void swap_cards(ch_state *st, int c1, int c2)
{
    int p1 = st->card_plot[c1], p2 = st->card_plot[c2];
    st->card_plot[c1] = (uint8_t)p2;
    st->card_plot[c2] = (uint8_t)p1;
    st->plot_card[p1] = (uint8_t)c2;
    st->plot_card[p2] = (uint8_t)c1;
    uint8_t l = st->loc[c1];
    st->loc[c1] = st->loc[c2];
    st->loc[c2] = l;
    for (int p = 0; p < st->nplayers; p++) {
        uint64_t *sets[2] = {st->pl[p].hand, st->pl[p].known};
        for (int k = 0; k < 2; k++) {
            int a = (int)((sets[k][c1 >> 6] >> (c1 & 63)) & 1), b = (int)((sets[k][c2 >> 6] >> (c2 & 63)) & 1);
            if (a != b) {
                sets[k][c1 >> 6] ^= (uint64_t)1 << (c1 & 63);
                sets[k][c2 >> 6] ^= (uint64_t)1 << (c2 & 63);
            }
        }
    }
    uint8_t *piles[] = {st->deck, st->market, st->discard, st->look};
    int sizes[] = {st->ndeck, st->market_size, st->ndiscard, st->nlook};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < sizes[k]; i++)
            if (piles[k][i] == c1 || piles[k][i] == c2)
                piles[k][i] = (uint8_t)(piles[k][i] == c1 ? c2 : c1);
}

static int move_cmp(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(ch_move));
}

static void plays_other_numbering(void **s)
{
    (void)s;
    static ch_move buf[1 << 12], ren[1 << 12];
    int checked = 0, fallback = 0;
    for (int ga = 0; ga < 2; ga++)
        for (uint64_t seed = 1; seed <= 6; seed++) {
            ch_state st;
            if (ga)
                t_new_ga(&st, 4, CH_GA_PRINTED, 0, 300 + seed);
            else
                t_new(&st, 4, "standard", 300 + seed);
            uint64_t rng = seed;
            ch_msg m;
            for (int guard = 0; t_decider(&st) >= 0 && guard < 5000; guard++) {
                int p = t_decider(&st);
                if (st.phase == CH_PH_TURN && (guard & 3) == 0) {
                    /* c1: the active player's first plot card; c2: another
                     * plot card, taken from the position in the game */
                    const ch_player *pl = &st.pl[st.active];
                    int c1 = -1;
                    for (int c = 0; c < st.ncards && c1 < 0; c++)
                        if (st.card_plot[c] != CH_NONE && (pl->hand[c >> 6] >> (c & 63) & 1))
                            c1 = c;
                    if (c1 >= 0) {
                        int c2 = (int)(t_rand(&rng) % st.ncards);
                        while (st.card_plot[c2] == CH_NONE || c2 == c1)
                            c2 = (c2 + 1) % st.ncards;
                        ch_state sw = st;
                        swap_cards(&sw, c1, c2);
                        assert_int_equal(ch_validate(&sw, &m), CH_OK);
                        int n = ch_legal(&st, p, buf, 1 << 12), n2 = ch_legal(&sw, p, ren, 1 << 12);
                        assert_true(n > 0 && n <= (1 << 12));
                        assert_int_equal(n, n2);
                        /* the moves of st renamed as sw names the cards */
                        for (int i = 0; i < n; i++) {
                            ch_move *mv = &buf[i];
                            if (mv->type == CH_M_PLAY || mv->type == CH_M_TAKE) {
                                if (mv->a == c1 || mv->a == c2)
                                    mv->a = (uint8_t)(mv->a == c1 ? c2 : c1);
                                if (mv->type == CH_M_PLAY && (mv->c == c1 || mv->c == c2))
                                    mv->c = (uint8_t)(mv->c == c1 ? c2 : c1);
                            }
                        }
                        qsort(buf, (size_t)n, sizeof *buf, move_cmp);
                        qsort(ren, (size_t)n, sizeof *ren, move_cmp);
                        assert_memory_equal(buf, ren, (size_t)n * sizeof *buf);
                        checked++;
                        fallback += st.card_level[c1] == 0;
                    }
                }
                int n = ch_legal(&st, p, buf, 1 << 12);
                assert_true(n > 0);
                if (n > (1 << 12))
                    n = 1 << 12;
                assert_int_equal(ch_apply(&st, p, buf[t_rand(&rng) % (uint64_t)n], &m), CH_OK);
            }
        }
    assert_true(checked > 100 && fallback == checked);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(board_caches_checked),
        cmocka_unit_test(plays_other_numbering),
        cmocka_unit_test(offer_cache_checked),
        cmocka_unit_test(random_ga_printed),
        cmocka_unit_test(random_ga_first),
        cmocka_unit_test(random_2p),
        cmocka_unit_test(random_3p),
        cmocka_unit_test(random_4p),
        cmocka_unit_test(random_5p),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
