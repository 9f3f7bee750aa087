/* test_merger_preview.c: ch_merger_preview, what a merger will do as the
 * dialogs that decide one show it (issue 31 item 5; include/chartered.h).
 * The rulebook's merger examples by hand (Rulebook "C. Merging two or more
 * companies", the f300 cap), refusals, and a property over
 * random games of both editions: every preview of every credit and merge
 * choice, and of every merger as it stands, is what the engine then does
 * (the pairs in order, each absorbed company's value as its stocks sell,
 * the survivor's final value, the builder's payout, each holder's money),
 * and The Golden Age's other holdings are hidden from the seat. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "play.h"

enum { GUNPOWDER, COAL, PORCELAIN, SILK, SPICES, SUGAR, HERRING, TEA, TOBACCO };

static ch_move parse(const ch_state *st, int p, const char *text)
{
    ch_move m;
    ch_msg why;
    if (ch_move_parse(st, p, text, &m, &why) != CH_OK)
        fail_msg("%s: %s", text, why.text);
    return m;
}

/* Gunpowder on A1-B1 and Coal on D1-E1; seat 0 plays Harbour C1 between. */
static void two_way(ch_state *st, int gun, int coal)
{
    t_new(st, 3, "standard", 55);
    t_clear(st);
    t_turn(st, 0);
    t_company2(st, GUNPOWDER, gun, "Harbour A1", "Harbour B1");
    t_company2(st, COAL, coal, "Harbour E1", "Harbour D1");
    t_give(st, 0, "Harbour C1");
    t_turn(st, 0);
    t_valid(st);
    t_play(st, 0, "play Harbour C1");
    assert_int_equal(st->phase, CH_PH_CREDIT);
}

/* Arms around Harbour E4 (as test_rules_merge.c): N, W, E; seat 0 builds. */
static void star(ch_state *st, int n, int nv, int w, int wv, int e, int ev)
{
    t_new(st, 3, "standard", 55);
    t_clear(st);
    t_turn(st, 0);
    t_company2(st, n, nv, "Harbour E3", "Harbour E2");
    t_company2(st, w, wv, "Harbour D4", "Harbour C4");
    t_company2(st, e, ev, "Harbour F4", "Jordaan A4");
    t_give(st, 0, "Harbour E4");
    t_valid(st);
    t_play(st, 0, "play Harbour E4");
    assert_int_equal(st->phase, CH_PH_CREDIT);
}

/* credited Gunpowder f40 -> f50 is absorbed by Coal f70: f120, the
 * builder's payout; seat 1's two Gunpowder stocks sell for f50 each. */
static void two_way_R24(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 40, 70);
    t_stock(&st, 1, GUNPOWDER, 2);
    ch_move m = parse(&st, 0, "credit Gunpowder");
    ch_merger_plan pl;
    assert_int_equal(ch_merger_preview(&st, 2, &m, &pl), CH_OK);
    assert_int_equal(pl.credited, GUNPOWDER);
    assert_int_equal(pl.credited_from, 40);
    assert_int_equal(pl.credited_value, 50);
    assert_int_equal(pl.nsteps, 1);
    assert_int_equal(pl.step[0].absorbed, GUNPOWDER);
    assert_int_equal(pl.step[0].absorber, COAL);
    assert_int_equal(pl.step[0].absorbed_value, 50);
    assert_int_equal(pl.step[0].absorber_value, 70);
    assert_int_equal(pl.step[0].value_after, 120);
    assert_int_equal(pl.step[0].stocks[1], 2);
    assert_int_equal(pl.step[0].stocks[0], 0);
    assert_int_equal(pl.choose, 0);
    assert_int_equal(pl.survivor, COAL);
    assert_int_equal(pl.final_value, 120);
    assert_int_equal(pl.builder, 0);
    assert_int_equal(pl.sold_at_once, 0);
    /* crediting Coal instead: Coal f80 absorbs Gunpowder at f40 */
    m = parse(&st, 0, "credit Coal");
    assert_int_equal(ch_merger_preview(&st, 0, &m, &pl), CH_OK);
    assert_int_equal(pl.credited_value, 80);
    assert_int_equal(pl.step[0].absorbed_value, 40);
    assert_int_equal(pl.final_value, 120);
    /* while seat 1 sells: the merger as it stands */
    t_play(&st, 0, "credit Gunpowder");
    assert_int_equal(st.phase, CH_PH_MERGE_SELL);
    assert_int_equal(ch_merger_preview(&st, 1, NULL, &pl), CH_OK);
    assert_int_equal(pl.credited, -1);
    assert_int_equal(pl.nsteps, 1);
    assert_int_equal(pl.step[0].absorbed_value, 50);
    assert_int_equal(pl.survivor, COAL);
    assert_int_equal(pl.final_value, 120);
}

/* at f50 each the credit decides the survivor: the credited one (f60)
 * absorbs the other. A tie after the credit is the builder's choice. */
static void credit_decides_and_tie(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 50, 50);
    ch_merger_plan pl;
    ch_move m = parse(&st, 0, "credit Coal");
    assert_int_equal(ch_merger_preview(&st, 0, &m, &pl), CH_OK);
    assert_int_equal(pl.step[0].absorbed, GUNPOWDER);
    assert_int_equal(pl.survivor, COAL);
    assert_int_equal(pl.final_value, 110);
    two_way(&st, 40, 50);
    m = parse(&st, 0, "credit Gunpowder");
    assert_int_equal(ch_merger_preview(&st, 0, &m, &pl), CH_OK);
    assert_int_equal(pl.nsteps, 0);
    assert_int_equal(pl.choose, (1u << GUNPOWDER) | (1u << COAL));
    assert_int_equal(pl.npairs, 2);
    assert_int_equal(pl.survivor, -1);
    assert_int_equal(pl.final_value, 100);
}

/* Three ways: the two lowest first, then the survivor against the
 * third; values capped at f300 (Rulebook "Payouts, the f300 cap"). */
static void three_way_and_cap(void **s)
{
    (void)s;
    ch_state st;
    star(&st, SILK, 30, SPICES, 50, TEA, 40);
    ch_move m = parse(&st, 0, "credit Tea");
    ch_merger_plan pl;
    assert_int_equal(ch_merger_preview(&st, 0, &m, &pl), CH_OK);
    /* Tea f50 against Silk f30 and Spices f50: Silk is absorbed by one of
       the two at f50: the builder's choice */
    assert_int_equal(pl.nsteps, 0);
    assert_int_equal(pl.choose, (1u << SILK) | (1u << SPICES) | (1u << TEA));
    assert_int_equal(pl.final_value, 130);
    m = parse(&st, 0, "credit Silk");
    assert_int_equal(ch_merger_preview(&st, 0, &m, &pl), CH_OK);
    /* Silk f40 and Tea f40 tie lowest */
    assert_int_equal(pl.nsteps, 0);
    assert_int_equal(pl.choose, (1u << SILK) | (1u << SPICES) | (1u << TEA));
    m = parse(&st, 0, "credit Spices");
    assert_int_equal(ch_merger_preview(&st, 0, &m, &pl), CH_OK);
    /* Silk f30 < Tea f40 < Spices f60: Silk into Tea (f70), then Spices f60
       into Tea f70: f130 */
    assert_int_equal(pl.nsteps, 2);
    assert_int_equal(pl.step[0].absorbed, SILK);
    assert_int_equal(pl.step[0].absorber, TEA);
    assert_int_equal(pl.step[0].value_after, 70);
    assert_int_equal(pl.step[1].absorbed, SPICES);
    assert_int_equal(pl.step[1].absorbed_value, 60);
    assert_int_equal(pl.step[1].absorber, TEA);
    assert_int_equal(pl.survivor, TEA);
    assert_int_equal(pl.final_value, 130);
    star(&st, SILK, 120, SPICES, 150, TEA, 200);
    m = parse(&st, 0, "credit Silk");
    assert_int_equal(ch_merger_preview(&st, 0, &m, &pl), CH_OK);
    assert_int_equal(pl.nsteps, 2);
    assert_int_equal(pl.step[0].value_after, 280);
    assert_int_equal(pl.step[1].absorbed, TEA);
    assert_int_equal(pl.step[1].value_after, 300);
    assert_int_equal(pl.final_value, 300);
}

/* Bad input: CH_EINVAL and *out unchanged. */
static void refusals(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 40, 70);
    ch_merger_plan pl, keep;
    memset(&pl, 0x5a, sizeof pl);
    keep = pl;
    ch_move m = parse(&st, 0, "credit Coal");
    assert_int_equal(ch_merger_preview(&st, 3, &m, &pl), CH_EINVAL);
    assert_int_equal(ch_merger_preview(&st, -2, &m, &pl), CH_EINVAL);
    assert_int_equal(ch_merger_preview(NULL, 0, &m, &pl), CH_EINVAL);
    assert_int_equal(ch_merger_preview(&st, 0, &m, NULL), CH_EINVAL);
    /* a credit is a choice, not the merger as it stands */
    assert_int_equal(ch_merger_preview(&st, 0, NULL, &pl), CH_EINVAL);
    ch_move bad = m;
    bad.a = TEA; /* not next to the new warehouse */
    assert_int_equal(ch_merger_preview(&st, 0, &bad, &pl), CH_EINVAL);
    bad = m;
    bad.type = CH_M_DONE;
    assert_int_equal(ch_merger_preview(&st, 0, &bad, &pl), CH_EINVAL);
    assert_memory_equal(&pl, &keep, sizeof pl);
    t_new(&st, 3, "standard", 5);
    assert_int_equal(ch_merger_preview(&st, 0, NULL, &pl), CH_EINVAL);
    assert_memory_equal(&pl, &keep, sizeof pl);
}

/* ---- the property: every preview is what the engine does ----------------- */
static int checked_choices, checked_now, checked_pairs, checked_sales, checked_ga, checked_flags;

/* Play the merger st is in (after the previewed move, if any) to its end
 * with random choices, checking it against pl: the pairs before any choice
 * in order (a pair nobody holds stocks of goes without a decision), each
 * sale's money, then the survivor's final value and every player's money
 * (Building Amsterdam: sales and the builder's payout; The Golden Age: the
 * forced sales, flags as four stocks, the payout). */
static void follow(const ch_state *before, const ch_state *start, const ch_merger_plan *pl,
                   int p, uint64_t *rng)
{
    ch_state *c = malloc(sizeof *c);
    assert_non_null(c);
    *c = *start;
    /* the companies the merger joins */
    unsigned joined = pl->choose | (pl->survivor >= 0 ? 1u << pl->survivor : 0u);
    for (int i = 0; i < pl->nsteps; i++)
        joined |= 1u << pl->step[i].absorbed | 1u << pl->step[i].absorber;
    int32_t sales[CH_MAX_PLAYERS] = {0};
    int k = 0, chose = 0, last_a = -1;
    while (c->phase == CH_PH_MERGE || c->phase == CH_PH_MERGE_SELL) {
        if (c->phase == CH_PH_MERGE) {
            ch_move mv[64];
            int n = ch_legal(c, c->active, mv, 64);
            assert_true(n > 0 && n <= 64);
            if (!chose) {
                /* the walk stopped where the builder chooses, among its pairs */
                assert_int_equal(c->m_set, pl->choose);
                assert_int_equal(n, pl->npairs);
                for (int i = 0; i < n; i++) {
                    assert_int_equal(mv[i].type, CH_M_MERGE);
                    assert_int_equal(mv[i].a, pl->pair_absorbed[i]);
                    assert_int_equal(mv[i].b, pl->pair_absorber[i]);
                }
                assert_true(k <= pl->nsteps);
                for (; k < pl->nsteps; k++)
                    for (int q = 0; q < c->nplayers; q++)
                        assert_true(pl->step[k].stocks[q] <= 0);
            }
            chose = 1;
            ch_apply_fast(c, c->active, mv[t_rand(rng) % (uint64_t)n]);
            continue;
        }
        int a = c->m_absorbed;
        if (!chose && a != last_a) {
            /* a new pair: the next of the preview's, those skipped held by nobody */
            while (k < pl->nsteps && pl->step[k].absorbed != a) {
                for (int q = 0; q < c->nplayers; q++)
                    assert_true(pl->step[k].stocks[q] <= 0);
                k++;
            }
            assert_true(k < pl->nsteps);
            const ch_merge_step *s = &pl->step[k];
            assert_int_equal(s->absorber, c->m_absorber);
            assert_int_equal(s->absorbed_value, c->co[a].value);
            assert_int_equal(s->absorber_value, c->co[c->m_absorber].value);
            for (int q = 0; q < c->nplayers; q++)
                assert_int_equal(s->stocks[q], c->pl[q].stock[a]);
            k++;
            checked_pairs++;
            last_a = a;
        }
        int q = c->m_seller;
        ch_move mv[32];
        int n = ch_legal(c, q, mv, 32);
        assert_true(n > 0 && n <= 32);
        ch_move m = mv[t_rand(rng) % (uint64_t)n];
        int32_t cash = c->pl[q].cash;
        int value = c->co[a].value;
        ch_apply_fast(c, q, m);
        int32_t got = c->pl[q].cash - cash;
        if (c->phase != CH_PH_MERGE && c->phase != CH_PH_MERGE_SELL && q == c->active)
            got -= pl->final_value; /* the last sale ends the merger: the payout */
        assert_int_equal(got, m.n * value);
        if (!chose) {
            assert_int_equal(value, pl->step[k - 1].absorbed_value);
            checked_sales++;
        }
        sales[q] += m.n * value;
    }
    if (!chose) {
        assert_int_equal(pl->choose, 0);
        for (; k < pl->nsteps; k++)
            if (c->edition != CH_ED_GOLDEN_AGE)
                for (int q = 0; q < c->nplayers; q++)
                    assert_true(pl->step[k].stocks[q] <= 0);
        assert_int_equal(c->co[pl->survivor].value, pl->final_value);
        for (int i = 0; i < pl->nsteps; i++)
            assert_int_equal(c->co[pl->step[i].absorbed].on_chart, 0);
        assert_int_equal(pl->survivor_flag, c->co[pl->survivor].flag - 1);
        if (pl->survivor_flag >= 0) {
            /* the survivor's flag scores what the end's breakdown says */
            ch_score_part parts[CH_MAX_PLAYERS];
            assert_int_equal(ch_score_parts(c, parts), CH_OK);
            assert_int_equal(parts[pl->survivor_flag].flags[pl->survivor], pl->survivor_flag_worth);
            checked_flags++;
        }
        /* each player's money over the whole merger */
        for (int q = 0; q < c->nplayers; q++) {
            int32_t want = sales[q] + (q == pl->builder ? pl->final_value : 0);
            if (c->edition == CH_ED_GOLDEN_AGE)
                for (int i = 0; i < pl->nsteps; i++) {
                    const ch_merge_step *s = &pl->step[i];
                    /* the seat's own holding is shown, the others' hidden */
                    if (q == p)
                        assert_int_equal(s->stocks[q], before->pl[q].stock[s->absorbed]);
                    else
                        assert_int_equal(s->stocks[q], -1);
                    want += before->pl[q].stock[s->absorbed] * s->absorbed_value;
                    if (s->flag == q)
                        want += s->flag_sale;
                    else
                        assert_true(s->flag >= 0 || s->flag_sale == 0);
                    checked_ga++;
                }
            assert_int_equal(c->pl[q].cash - before->pl[q].cash, want);
        }
    }
    /* whatever was chosen, the survivor's value is the one foreseen */
    int alive = 0;
    for (int i = 0; i < c->ncompanies; i++)
        if ((joined >> i & 1) && c->co[i].on_chart) {
            assert_int_equal(c->co[i].value, pl->final_value);
            alive++;
        }
    assert_int_equal(alive, 1);
    free(c);
}

static void check_decision(const ch_state *st, uint64_t *rng)
{
    int p = (int)(t_rand(rng) % (uint64_t)st->nplayers);
    ch_merger_plan pl;
    if (st->phase == CH_PH_MERGE || st->phase == CH_PH_MERGE_SELL) {
        assert_int_equal(ch_merger_preview(st, p, NULL, &pl), CH_OK);
        follow(st, st, &pl, p, rng);
        checked_now++;
    }
    if (st->phase != CH_PH_CREDIT && st->phase != CH_PH_MERGE)
        return;
    ch_move mv[64];
    int n = ch_legal(st, st->active, mv, 64);
    assert_true(n > 0 && n <= 64);
    ch_state *after = malloc(sizeof *after);
    assert_non_null(after);
    for (int i = 0; i < n; i++) {
        assert_int_equal(ch_merger_preview(st, p, &mv[i], &pl), CH_OK);
        *after = *st;
        ch_apply_fast(after, st->active, mv[i]);
        follow(st, after, &pl, p, rng);
        checked_choices++;
    }
    free(after);
}

static void random_games(void **s)
{
    (void)s;
    ch_state *st = malloc(sizeof *st);
    assert_non_null(st);
    int ga_credits = 0;
    for (int g = 0; g < 120; g++) {
        int ed = g & 1;
        if (ed)
            t_new_ga(st, 3 + g % 3, g % 4 < 2 ? CH_GA_PRINTED : CH_GA_FIRST, 1, 900 + (uint64_t)g);
        else
            t_new(st, 3 + g % 3, "standard", 900 + (uint64_t)g);
        uint64_t rng = 1234 + (uint64_t)g;
        for (int step = 0; step < 4000; step++) {
            if (st->phase == CH_PH_CREDIT || st->phase == CH_PH_MERGE ||
                st->phase == CH_PH_MERGE_SELL) {
                ga_credits += ed && st->phase == CH_PH_CREDIT;
                check_decision(st, &rng);
            }
            if (!t_random_step(st, &rng))
                break;
        }
    }
    free(st);
    print_message("checked %d choices, %d mergers as they stand, %d pairs, %d sales, "
                  "%d Golden Age holdings (%d of its credits), %d survivors' flags\n",
                  checked_choices, checked_now, checked_pairs, checked_sales, checked_ga, ga_credits,
                  checked_flags);
    assert_true(checked_choices > 50);
    assert_true(checked_pairs > 20);
    assert_true(checked_sales > 20);
    assert_true(checked_ga > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_way_R24),
        cmocka_unit_test(credit_decides_and_tie),
        cmocka_unit_test(three_way_and_cap),
        cmocka_unit_test(refusals),
        cmocka_unit_test(random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
