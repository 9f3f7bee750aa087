/* test_position_copies.c: every position the project writes can be read
 * back (docs/formats.md "Positions"; issue 28): the full position and every
 * seat's copy (and a spectator's) of states of many random games of both
 * editions, at every kind of decision and at the end. Found on main before
 * it: Golden Age stacks of height 6 (a level card's lot covered by a free
 * warehouse, Ruling G-28) refused; a stock-sale event's seller dealt no
 * stock ("has no legal move"); a copy whose hidden cards the greedy deal
 * could not place ("no card is left to deal at random here"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "play.h"

static int failures;

static void load(const ch_state *st, int viewer, int game, int step)
{
    char *text = ch_position_write(st, viewer);
    assert_non_null(text);
    ch_state *b = malloc(sizeof *b);
    assert_non_null(b);
    ch_msg m = {{0}};
    if (ch_position_read(b, text, strlen(text), "copy.pos", &m) != CH_OK) {
        if (failures++ < 5)
            print_error("game %d step %d, %s (seat %d): %s\n", game, step,
                        viewer == -1 ? "the full position" : viewer == CH_POSITION_SPECTATOR ? "a spectator's copy"
                                                                                             : "a seat's copy",
                        viewer + 1, m.text);
        if (failures == 1) {
            FILE *f = fopen("test_position_copies_failed.pos", "w");
            if (f) {
                fputs(text, f);
                fclose(f);
            }
        }
    } else if (viewer >= 0) {
        /* the copy keeps what the seat sees: its hand, every hand's size */
        assert_memory_equal(b->pl[viewer].hand, st->pl[viewer].hand, sizeof st->pl[viewer].hand);
        for (int q = 0; q < st->nplayers; q++)
            assert_int_equal(ch_hand_count(b, q), ch_hand_count(st, q));
    }
    free(b);
    ch_free(text);
}

static void copies(int edition, int games)
{
    static const char *const arrs[] = {"standard", "quick-battle", "crossroads", "outliers"};
    int checked = 0;
    for (int g = 0; g < games; g++) {
        ch_state st;
        if (edition == CH_ED_AMSTERDAM)
            t_new(&st, 2 + g % 4, arrs[g % 4], 90000 + (uint64_t)g);
        else
            t_new_ga(&st, 2 + g % 5, g % 2 ? CH_GA_FIRST : CH_GA_PRINTED, g % 3 != 0, 91000 + (uint64_t)g);
        uint64_t rng = 500 + (uint64_t)g;
        for (int step = 0;; step++) {
            int more = t_random_step(&st, &rng);
            if (!more || step % 37 == 0 || st.phase == CH_PH_EVSELL) {
                load(&st, -1, g, step);
                load(&st, CH_POSITION_SPECTATOR, g, step);
                for (int p = 0; p < st.nplayers; p++)
                    load(&st, p, g, step);
                checked++;
            }
            if (!more)
                break;
        }
    }
    if (failures)
        fail_msg("%d of the positions and copies written did not load (the first: "
                 "test_position_copies_failed.pos)", failures);
    assert_true(checked > games * 5);
}

static void copies_amsterdam(void **s)
{
    (void)s;
    copies(CH_ED_AMSTERDAM, 80);
}

static void copies_golden_age(void **s)
{
    (void)s;
    copies(CH_ED_GOLDEN_AGE, 200);
}

/* Ruling G-28: a lot covered by a free warehouse keeps its plot card
 * playable after levels were built on it, and the play puts a piece on
 * top: a stack of a warehouse, four levels and that piece is 6 high. Random
 * Golden Age games are played until some reach it (27 of 6,000 did on main
 * before issue 28), and the positions of those states load. */
static void height_six_G28(void **s)
{
    (void)s;
    int found = 0;
    for (int g = 0; g < 6000 && found < 3; g++) {
        ch_state st;
        t_new_ga(&st, 2 + g % 5, g % 2 ? CH_GA_FIRST : CH_GA_PRINTED, g % 3 != 0, 95000 + (uint64_t)g);
        uint64_t rng = 900 + (uint64_t)g;
        int six = 0;
        while (!six && t_random_step(&st, &rng))
            for (int x = 0; x < CH_MAX_PLOTS && !six; x++)
                six = st.height[x] == 6;
        if (!six)
            continue;
        found++;
        load(&st, -1, g, -1);
        for (int p = 0; p < st.nplayers; p++)
            load(&st, p, g, -1);
    }
    assert_true(found > 0);
    if (failures)
        fail_msg("%d positions with a stack of height 6 did not load", failures);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copies_amsterdam),
        cmocka_unit_test(copies_golden_age),
        cmocka_unit_test(height_six_G28),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
