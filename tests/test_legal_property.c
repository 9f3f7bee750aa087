/* test_legal_property.c: the property that ties move generation to move
 * checking (issue 19, "tests that cannot pass by luck"). In random positions
 * of both editions (random games of every player count stopped at random
 * points), for every player who decides:
 *   - every move ch_legal lists is accepted by ch_check and by ch_apply (on
 *     a copy), and the state after it passes ch_validate;
 *   - near-misses of each listed move (a plot, card or company changed by
 *     one or to a random value, an amount changed, the second field or the
 *     extra card changed, the move given to another player) are refused
 *     unless that player's ch_legal lists them too;
 *   - ch_check and ch_apply agree on every candidate (same status), and a
 *     refused move leaves the state untouched and says why.
 * What it can catch: a listed move that is illegal (ch_apply then breaks an
 * invariant of ch_validate, or the separate range check of bids and
 * amounts refuses it), a checker that accepts an unlisted move or one that
 * disagrees with ch_apply, a refusal that changes the state or has no
 * reason. (A deliberate generator bug, buying a stock f30 short of its
 * price, fails it at once.) What it cannot: ch_check decides most moves by
 * looking them up in ch_legal's list (src/core/turn.c), so a move the
 * generator leaves out is refused by both alike; the rule tests cover that.
 * CH_TEST_POSITIONS raises the count of positions per configuration for a
 * longer run by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "play.h"

#define CAP 8192

static int same(ch_move a, ch_move b)
{
    return a.type == b.type && a.a == b.a && a.b == b.b && a.c == b.c && a.n == b.n;
}

static int listed(const ch_move *list, int n, ch_move m)
{
    for (int i = 0; i < n; i++)
        if (same(list[i], m))
            return 1;
    return 0;
}

typedef struct {
    ch_move list[CH_MAX_PLAYERS][CAP];
    int n[CH_MAX_PLAYERS];
} legal_sets;

static long checked, misses;

/* One candidate move m of player p: listed or not, check and apply agree,
 * and the answer is the list's. */
static void candidate(const ch_state *st, const legal_sets *ls, int p, ch_move m)
{
    ch_msg w1 = {{0}}, w2 = {{0}};
    int c1 = ch_check(st, p, m, &w1);
    ch_state copy = *st;
    int c2 = ch_apply(&copy, p, m, &w2);
    char text[128] = "";
    ch_move_str(st, m, text, sizeof text);
    if (c1 != c2)
        fail_msg("player %d '%s' (type %d a %d b %d c %d n %d): ch_check says %d (%s), "
                 "ch_apply says %d (%s)", p + 1, text, m.type, m.a, m.b, m.c, m.n, c1, w1.text,
                 c2, w2.text);
    int in = p >= 0 && p < st->nplayers && listed(ls->list[p], ls->n[p], m);
    if (in && c1 != CH_OK)
        fail_msg("player %d '%s' is listed by ch_legal but refused: %s", p + 1, text, w1.text);
    if (!in && c1 == CH_OK)
        fail_msg("player %d '%s' (type %d a %d b %d c %d n %d) is not listed by ch_legal "
                 "but accepted", p + 1, text, m.type, m.a, m.b, m.c, m.n);
    if (c2 == CH_OK) {
        ch_msg v;
        if (ch_validate(&copy, &v) != CH_OK)
            fail_msg("player %d '%s' breaks the state: %s", p + 1, text, v.text);
    } else {
        if (memcmp(&copy, st, sizeof copy) != 0)
            fail_msg("player %d '%s' was refused but changed the state", p + 1, text);
        if (!w1.text[0] || !w2.text[0])
            fail_msg("player %d '%s' was refused without a reason", p + 1, text);
        misses++;
    }
    checked++;
}

static uint8_t bump8(uint8_t v, int d) { return (uint8_t)(v + d); }

static void near_misses(const ch_state *st, const legal_sets *ls, int p, ch_move m,
                        uint64_t *rng)
{
    int np = st->nplayers;
    /* a plot, card or company (field a) and the second field b changed by
       one or to a random value in their range */
    for (int d = -1; d <= 1; d += 2) {
        ch_move x = m;
        x.a = bump8(m.a, d);
        candidate(st, ls, p, x);
        x = m;
        x.b = bump8(m.b, d);
        candidate(st, ls, p, x);
        x = m;
        x.n = m.n + d;
        candidate(st, ls, p, x);
    }
    ch_move x = m;
    x.a = (uint8_t)(t_rand(rng) % CH_MAX_PLOTS);
    candidate(st, ls, p, x);
    x = m;
    x.b = (uint8_t)(t_rand(rng) % CH_MAX_PLOTS);
    candidate(st, ls, p, x);
    /* the extra card of a two-card build, or a company: another value */
    x = m;
    x.c = m.c == CH_NONE ? (uint8_t)(t_rand(rng) % st->ncards) : CH_NONE;
    candidate(st, ls, p, x);
    /* an amount: a random one, and far out of range */
    x = m;
    x.n = (int32_t)(t_rand(rng) % 400) - 50;
    candidate(st, ls, p, x);
    x = m;
    x.n = m.n + 100000;
    candidate(st, ls, p, x);
    /* a company (field a) by index, among the game's companies */
    x = m;
    x.a = (uint8_t)(t_rand(rng) % st->ncompanies);
    candidate(st, ls, p, x);
    /* the same move by another player (out of range ones included) */
    candidate(st, ls, (p + 1 + (int)(t_rand(rng) % (unsigned)np)) % np, m);
    candidate(st, ls, np, m);
    candidate(st, ls, -1, m);
    /* another type of move with the same fields */
    x = m;
    x.type = (uint8_t)(1 + t_rand(rng) % (CH_M_NTYPES - 1));
    candidate(st, ls, p, x);
}

static void check_position(const ch_state *st, uint64_t *rng)
{
    static legal_sets ls;
    for (int p = 0; p < st->nplayers; p++) {
        ls.n[p] = ch_legal(st, p, ls.list[p], CAP);
        assert_true(ls.n[p] >= 0 && ls.n[p] <= CAP);
    }
    unsigned mask = 0;
    ch_decider(st, &mask);
    for (int p = 0; p < st->nplayers; p++) {
        if (!((mask >> p) & 1u)) {
            if (ls.n[p] != 0)
                fail_msg("player %d does not decide but ch_legal lists %d moves", p + 1, ls.n[p]);
            continue;
        }
        assert_true(ls.n[p] > 0);
        for (int i = 0; i < ls.n[p]; i++) {
            candidate(st, &ls, p, ls.list[p][i]);
            /* near-misses of a sample of the listed moves (all of them when
               few): long lists are bids, one amount after another */
            if (ls.n[p] <= 40 || t_rand(rng) % (unsigned)(ls.n[p] / 20) == 0)
                near_misses(st, &ls, p, ls.list[p][i], rng);
        }
    }
}

static void run(int ga, int positions, uint64_t seed0)
{
    const char *env = getenv("CH_TEST_POSITIONS");
    if (env && atoi(env) > 0)
        positions = atoi(env);
    checked = misses = 0;
    for (int k = 0; k < positions; k++) {
        uint64_t rng = seed0 * 7919 + (uint64_t)k;
        ch_state st;
        int players = 2 + k % (ga ? 5 : 4);
        if (ga)
            t_new_ga(&st, players, k & 1 ? CH_GA_FIRST : CH_GA_PRINTED, (k >> 1) & 1,
                     seed0 + (uint64_t)k);
        else
            t_new(&st, players, k % 3 == 0 ? "quick-battle" : "standard", seed0 + (uint64_t)k);
        /* stop a random game at a random point: early, middle or late */
        int steps = (int)(t_rand(&rng) % 400);
        for (int s = 0; s < steps && t_random_step(&st, &rng); s++)
            ;
        check_position(&st, &rng);
    }
    print_message("%d positions, %ld candidate moves checked, %ld refused\n", positions,
                  checked, misses);
    assert_true(misses > 0 && misses < checked);
}

static void test_amsterdam(void **s)
{
    (void)s;
    run(0, 400, 4100);
}

static void test_golden_age(void **s)
{
    (void)s;
    run(1, 400, 5200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_amsterdam),
        cmocka_unit_test(test_golden_age),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
