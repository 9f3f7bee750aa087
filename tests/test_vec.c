/* test_vec.c: the vector of games (src/core/vec.c; issue 34, "What to
 * build" 3; docs/python.md "Vector environment").
 *
 * - The vector equals N single games stepped one by one: random legal ids are
 *   played in a vector and, move for move, in N separate states dealt from
 *   the same seeds (each restart from the next seed, lower slots first); at
 *   every step the states are equal byte for byte and the outputs (decider,
 *   mask, legal ids and their count, observation, rewards, end flags, seed,
 *   length) are what the single-game calls give. Both editions; long legal
 *   lists (more than the 512 kept per game: sealed bids of rich players) are
 *   met and checked too.
 * - An illegal or out-of-range id is refused with the game named, and changes
 *   no state and no output; so are a step before the first reset and bad
 *   arguments to ch_vec_new.
 * - max_length truncates every game at that many decisions and deals anew.
 * - ch_vec_sample (the random policy in C) draws only legal ids, the same
 *   ones from the same seed, from long lists too (past legal_cap and the
 *   512 kept), every id of a list about equally often, and -1 for a game
 *   that ended and waits for its deal; its ids drive every other step here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "play.h"

typedef struct bufs {
    int n, np, na, no, cap;
    ch_vec_out out;
} bufs;

static void bufs_init(bufs *b, int n, int np, int na, int no, int cap)
{
    b->n = n, b->np = np, b->na = na, b->no = no, b->cap = cap;
    ch_vec_out *o = &b->out;
    o->player = calloc((size_t)n, sizeof *o->player);
    o->rewards = calloc((size_t)n * (size_t)np, sizeof *o->rewards);
    o->terminated = calloc((size_t)n, 1);
    o->truncated = calloc((size_t)n, 1);
    o->obs = calloc((size_t)n * (size_t)no, sizeof *o->obs);
    o->mask = calloc((size_t)n * (size_t)na, 1);
    o->legal = calloc((size_t)n * (size_t)cap, sizeof *o->legal);
    o->legal_cap = cap;
    o->nlegal = calloc((size_t)n, sizeof *o->nlegal);
    o->seed = calloc((size_t)n, sizeof *o->seed);
    o->length = calloc((size_t)n, sizeof *o->length);
    assert_true(o->player && o->rewards && o->terminated && o->truncated && o->obs && o->mask &&
                o->legal && o->nlegal && o->seed && o->length);
}

static void bufs_free(bufs *b)
{
    ch_vec_out *o = &b->out;
    free(o->player), free(o->rewards), free(o->terminated), free(o->truncated), free(o->obs);
    free(o->mask), free(o->legal), free(o->nlegal), free(o->seed), free(o->length);
}

/* A copy of every output, to compare before and after a refused step. */
static size_t bufs_bytes(const bufs *b)
{
    return (size_t)b->n * (sizeof(int32_t) * 3 + sizeof(float) * ((size_t)b->np + (size_t)b->no) + 2 +
                           (size_t)b->na + sizeof(int32_t) * (size_t)b->cap + sizeof(uint64_t));
}

static void bufs_snapshot(const bufs *b, unsigned char *to)
{
    const ch_vec_out *o = &b->out;
    size_t n = (size_t)b->n;
#define PUT(p, bytes) (memcpy(to, (p), (bytes)), to += (bytes))
    PUT(o->player, n * 4);
    PUT(o->rewards, n * (size_t)b->np * 4);
    PUT(o->terminated, n);
    PUT(o->truncated, n);
    PUT(o->obs, n * (size_t)b->no * 4);
    PUT(o->mask, n * (size_t)b->na);
    PUT(o->legal, n * (size_t)b->cap * 4);
    PUT(o->nlegal, n * 4);
    PUT(o->seed, n * 8);
    PUT(o->length, n * 4);
#undef PUT
}

static long long_lists, ends, long_samples;

/* ch_vec_sample's ids: legal (the mask, checked against the twins by
 * compare), the same again from the same seed; counts those drawn past the
 * legal list's end (a long list's own path). */
static void check_sample(ch_vec *v, const bufs *b, uint64_t seed, int32_t *got)
{
    ch_msg err;
    int32_t *again = malloc((size_t)b->n * sizeof *again);
    assert_non_null(again);
    assert_int_equal(ch_vec_sample(v, seed, got, &err), CH_OK);
    assert_int_equal(ch_vec_sample(v, seed, again, &err), CH_OK);
    assert_memory_equal(got, again, (size_t)b->n * sizeof *got);
    for (int i = 0; i < b->n; i++) {
        assert_true(got[i] >= 0 && got[i] < b->na);
        assert_int_equal(b->out.mask[(size_t)i * (size_t)b->na + (size_t)got[i]], 1);
        int in_list = 0;
        for (int k = 0; k < b->out.nlegal[i] && k < b->cap; k++)
            in_list |= b->out.legal[(size_t)i * (size_t)b->cap + (size_t)k] == got[i];
        long_samples += !in_list;
    }
    free(again);
}

/* Game 0's list drawn from 60 draws an id on average: every id is drawn,
 * none more than twice or less than half as often as the mean. */
static void check_uniform(ch_vec *v, const bufs *b)
{
    ch_msg err;
    const int set = b->out.nlegal[0];
    if (set > 64)
        return;
    int *count = calloc((size_t)b->na, sizeof *count);
    int32_t *got = malloc((size_t)b->n * sizeof *got);
    assert_true(count && got);
    for (int d = 0; d < 60 * set; d++) {
        assert_int_equal(ch_vec_sample(v, 1000 + (uint64_t)d, got, &err), CH_OK);
        count[got[0]]++;
    }
    for (int a = 0; a < b->na; a++)
        if (b->out.mask[a])
            assert_true(count[a] >= 30 && count[a] <= 120);
        else
            assert_int_equal(count[a], 0);
    free(count), free(got);
}

/* Game i of the vector against its single twin. */
static void compare(const ch_vec *v, const bufs *b, int i, const ch_state *twin, float *obs, uint8_t *mask)
{
    const ch_state *st = ch_vec_state(v, i);
    assert_non_null(st);
    assert_memory_equal(st, twin, sizeof *st);
    unsigned dmask;
    assert_int_not_equal(ch_decider(twin, &dmask), CH_DEC_TERMINAL);
    int p = __builtin_ctz(dmask);
    assert_int_equal(b->out.player[i], p);
    int set = ch_action_mask(twin, p, mask, b->na, NULL);
    assert_true(set > 0);
    assert_memory_equal(b->out.mask + (size_t)i * (size_t)b->na, mask, (size_t)b->na);
    assert_int_equal(b->out.nlegal[i], set);
    long_lists += set > 512;
    for (int k = 0; k < set && k < b->cap; k++)
        assert_int_equal(mask[b->out.legal[(size_t)i * (size_t)b->cap + (size_t)k]], 1);
    assert_int_equal(ch_observation(twin, p, obs, (size_t)b->no), CH_OK);
    assert_memory_equal(b->out.obs + (size_t)i * (size_t)b->no, obs, (size_t)b->no * sizeof *obs);
    assert_true(b->out.seed[i] == twin->seed);
    assert_int_equal(b->out.length[i], (int)twin->ndecisions);
}

static void run_twins(const ch_setup *setup, const char *arrangement, int n, int steps, uint64_t seed)
{
    ch_board board;
    ch_msg err;
    assert_int_equal(ch_board_builtin(&board, setup->edition, arrangement, &err), CH_OK);
    ch_state *twin = malloc((size_t)n * sizeof *twin);
    assert_non_null(twin);
    assert_int_equal(ch_new(&twin[0], setup, &board, &err), CH_OK);
    int na = ch_num_distinct_actions(setup->edition, setup->nplayers), no = ch_observation_size(&twin[0]);
    bufs b;
    bufs_init(&b, n, setup->nplayers, na, no, 64);
    ch_vec *v = NULL;
    assert_int_equal(ch_vec_new(&v, setup, &board, n, 0, 0, &b.out, &err), CH_OK);
    assert_null(ch_vec_state(v, 0)); /* not dealt yet */
    int32_t *act = calloc((size_t)n, sizeof *act);
    assert_int_equal(ch_vec_step(v, act, &err), CH_EINVAL); /* before the first reset */
    assert_int_equal(ch_vec_sample(v, 1, act, &err), CH_EINVAL);
    assert_int_equal(ch_vec_reset(v, seed, &err), CH_OK);
    assert_int_equal(ch_vec_sample(v, 1, NULL, &err), CH_EINVAL);
    assert_int_equal(ch_vec_sample(NULL, 1, act, &err), CH_EINVAL);
    uint64_t next = seed;
    for (int i = 0; i < n; i++) {
        ch_setup s = *setup;
        s.seed = next++;
        assert_int_equal(ch_new(&twin[i], &s, &board, &err), CH_OK);
    }
    float *obs = malloc((size_t)no * sizeof *obs);
    uint8_t *mask = malloc((size_t)na);
    assert_true(obs && mask && act);
    uint64_t rng = seed * 7 + 1;
    int32_t *sampled = malloc((size_t)n * sizeof *sampled);
    assert_non_null(sampled);
    for (int t = 0; t < steps; t++) {
        for (int i = 0; i < n; i++)
            compare(v, &b, i, &twin[i], obs, mask);
        check_sample(v, &b, seed + (uint64_t)t, sampled);
        if (t % 50 == 0)
            check_uniform(v, &b);
        for (int i = 0; i < n; i++) {
            /* a random legal id: from the legal list, or the mask past its end */
            int set = b.out.nlegal[i], k = (int)(t_rand(&rng) % (uint64_t)set);
            if (k < b.cap) {
                act[i] = b.out.legal[(size_t)i * (size_t)b.cap + (size_t)k];
            } else {
                const uint8_t *m = b.out.mask + (size_t)i * (size_t)na;
                int32_t id = 0;
                for (int seen = -1; id < na; id++)
                    if (m[id] && ++seen == k)
                        break;
                act[i] = id;
            }
            if (t % 2)
                act[i] = sampled[i];
        }
        assert_int_equal(ch_vec_step(v, act, &err), CH_OK);
        for (int i = 0; i < n; i++) {
            unsigned dmask;
            ch_decider(&twin[i], &dmask);
            int q = __builtin_ctz(dmask);
            ch_move m;
            assert_int_equal(ch_action_decode(&twin[i], q, act[i], &m), CH_OK);
            assert_int_equal(ch_apply(&twin[i], q, m, &err), CH_OK);
            const float *rw = b.out.rewards + (size_t)i * (size_t)b.np;
            if (ch_decider(&twin[i], NULL) == CH_DEC_TERMINAL) {
                int32_t sc[CH_MAX_PLAYERS];
                unsigned w;
                assert_int_equal(ch_scores(&twin[i], sc, &w), CH_OK);
                assert_int_equal(b.out.terminated[i], 1);
                for (int r = 0; r < b.np; r++)
                    assert_true(rw[r] == (float)(w >> r & 1));
                ch_setup s = *setup;
                s.seed = next++;
                assert_int_equal(ch_new(&twin[i], &s, &board, &err), CH_OK);
                ends++;
            } else {
                assert_int_equal(b.out.terminated[i], 0);
                for (int r = 0; r < b.np; r++)
                    assert_true(rw[r] == 0);
            }
            assert_int_equal(b.out.truncated[i], 0);
        }
    }
    for (int i = 0; i < n; i++)
        compare(v, &b, i, &twin[i], obs, mask);

    /* refusals change nothing: an illegal id, an id out of range */
    unsigned char *before = malloc(bufs_bytes(&b)), *after = malloc(bufs_bytes(&b));
    ch_state *states = malloc((size_t)n * sizeof *states);
    assert_true(before && after && states);
    for (int i = 0; i < n; i++) {
        act[i] = b.out.legal[(size_t)i * (size_t)b.cap];
        states[i] = *ch_vec_state(v, i);
    }
    bufs_snapshot(&b, before);
    const uint8_t *m = b.out.mask + (size_t)(n - 1) * (size_t)na;
    int32_t bad = 0;
    while (m[bad])
        bad++;
    act[n - 1] = bad;
    assert_int_equal(ch_vec_step(v, act, &err), CH_EILLEGAL);
    char want[32];
    snprintf(want, sizeof want, "game %d: ", n - 1);
    assert_non_null(strstr(err.text, want));
    act[n - 1] = na;
    assert_int_equal(ch_vec_step(v, act, &err), CH_EINVAL);
    act[n - 1] = -1;
    assert_int_equal(ch_vec_step(v, act, &err), CH_EINVAL);
    bufs_snapshot(&b, after);
    assert_memory_equal(before, after, bufs_bytes(&b));
    for (int i = 0; i < n; i++)
        assert_memory_equal(ch_vec_state(v, i), &states[i], sizeof *states);
    free(before), free(after), free(states);
    ch_vec_free(v);
    bufs_free(&b);
    free(twin), free(obs), free(mask), free(act), free(sampled);
}

static void test_twins_amsterdam(void **state)
{
    (void)state;
    ch_setup s;
    ch_setup_default(&s, CH_ED_AMSTERDAM);
    s.nplayers = 4;
    run_twins(&s, "standard", 6, 1500, 11);
    s.nplayers = 2;
    run_twins(&s, "standard", 3, 600, 90);
}

static void test_twins_golden_age(void **state)
{
    (void)state;
    ch_setup s;
    ch_setup_default(&s, CH_ED_GOLDEN_AGE);
    s.nplayers = 4;
    s.events = 1;
    run_twins(&s, ch_ga_side(CH_GA_PRINTED, 4), 5, 1200, 300);
    s.nplayers = 6;
    s.events = 0;
    s.preset = CH_GA_FIRST;
    run_twins(&s, ch_ga_side(CH_GA_FIRST, 6), 2, 500, 17);
}

static void test_met(void **state)
{
    (void)state;
    printf("# %ld games ended, %ld decisions with more than 512 legal ids, %ld ids sampled past the "
           "legal list\n", ends, long_lists, long_samples);
    assert_true(ends >= 10);
    assert_true(long_lists > 0);   /* the long-list path was taken */
    assert_true(long_samples > 0); /* ... and sampled from */
}

static void test_truncation_and_errors(void **state)
{
    (void)state;
    ch_setup s;
    ch_setup_default(&s, CH_ED_AMSTERDAM);
    s.nplayers = 3;
    ch_board board;
    ch_msg err;
    assert_int_equal(ch_board_builtin(&board, s.edition, "standard", &err), CH_OK);
    int na = ch_num_distinct_actions(s.edition, 3);
    bufs b;
    bufs_init(&b, 4, 3, na, 1, 8);
    ch_vec *v = (ch_vec *)&b; /* any non-NULL value: must be set to NULL */
    ch_vec_out none = {0};
    assert_int_equal(ch_vec_new(&v, &s, &board, 4, 0, 0, &none, &err), CH_EINVAL);
    assert_null(v);
    assert_int_equal(ch_vec_new(&v, &s, &board, 0, 0, 0, &b.out, &err), CH_EINVAL);
    assert_int_equal(ch_vec_new(&v, &s, &board, 4, -1, 0, &b.out, &err), CH_EINVAL);
    ch_setup bad = s;
    bad.nplayers = 9;
    assert_int_not_equal(ch_vec_new(&v, &bad, &board, 4, 0, 0, &b.out, &err), CH_OK);
    assert_true(err.text[0]);
    free(b.out.obs);
    b.out.obs = NULL; /* optional */
    assert_int_equal(ch_vec_new(&v, &s, &board, 4, 30, 0, &b.out, &err), CH_OK);
    int n = 0, np = 0, no = 0;
    int32_t nact = 0;
    assert_int_equal(ch_vec_info(v, &n, &np, &nact, &no), CH_OK);
    assert_true(n == 4 && np == 3 && nact == na && no > 0);
    assert_int_equal(ch_vec_reset(v, 5, &err), CH_OK);
    int32_t act[4];
    int truncs = 0;
    uint64_t seeds_seen = 0;
    for (int t = 0; t < 95; t++) {
        for (int i = 0; i < 4; i++) {
            assert_true(b.out.length[i] < 30);
            act[i] = b.out.legal[i * 8];
        }
        assert_int_equal(ch_vec_step(v, act, &err), CH_OK);
        for (int i = 0; i < 4; i++) {
            if (b.out.truncated[i]) {
                truncs++;
                assert_int_equal(b.out.length[i], 0);
                assert_int_equal(b.out.terminated[i], 0);
                assert_true(b.out.seed[i] >= 9); /* seeds 5..8 dealt first, then 9, 10, ... */
                seeds_seen |= 1ull << (b.out.seed[i] - 9);
            }
        }
    }
    assert_int_equal(truncs, 12); /* each of 4 games at steps 30, 60 and 90 */
    assert_true(seeds_seen == 0xfff); /* seeds 9 to 20, each once */
    ch_vec_free(v);
    ch_vec_free(NULL);
    bufs_free(&b);
}

/* CH_VEC_NO_AUTORESET: a game that ends stays ended (no decider, no ids,
 * its actions not read) until ch_vec_reset_game deals it from a seed. */
static void test_no_autoreset(void **state)
{
    (void)state;
    ch_setup s;
    ch_setup_default(&s, CH_ED_GOLDEN_AGE);
    s.nplayers = 2;
    ch_board board;
    ch_msg err;
    assert_int_equal(ch_board_builtin(&board, s.edition, ch_ga_side(CH_GA_PRINTED, 2), &err), CH_OK);
    ch_state twin;
    assert_int_equal(ch_new(&twin, &s, &board, &err), CH_OK);
    int na = ch_num_distinct_actions(s.edition, 2), no = ch_observation_size(&twin);
    bufs b;
    bufs_init(&b, 3, 2, na, no, 16);
    ch_vec *v;
    assert_int_equal(ch_vec_new(&v, &s, &board, 3, 0, 7, &b.out, &err), CH_EINVAL); /* unknown flag */
    assert_int_equal(ch_vec_new(&v, &s, &board, 3, 0, CH_VEC_NO_AUTORESET, &b.out, &err), CH_OK);
    assert_int_equal(ch_vec_reset(v, 40, &err), CH_OK);
    int32_t act[3];
    int ended[3] = {0, 0, 0};
    uint64_t rng = 5;
    for (int t = 0; t < 5000 && !(ended[0] && ended[1] && ended[2]); t++) {
        for (int i = 0; i < 3; i++)
            act[i] = ended[i] ? -7 : b.out.legal[i * 16 + (int)(t_rand(&rng) % (uint64_t)(b.out.nlegal[i] < 16 ? b.out.nlegal[i] : 16))];
        assert_int_equal(ch_vec_step(v, act, &err), CH_OK);
        for (int i = 0; i < 3; i++) {
            if (ended[i]) { /* left as it ended */
                assert_int_equal(b.out.terminated[i], 0);
                assert_int_equal(b.out.player[i], -1);
                continue;
            }
            if (b.out.terminated[i]) {
                ended[i] = 1;
                assert_int_equal(ch_decider(ch_vec_state(v, i), NULL), CH_DEC_TERMINAL);
                assert_int_equal(b.out.player[i], -1);
                assert_int_equal(b.out.nlegal[i], 0);
                for (int a = 0; a < na; a++)
                    assert_int_equal(b.out.mask[(size_t)i * (size_t)na + (size_t)a], 0);
                float sum = 0;
                for (int q = 0; q < 2; q++)
                    sum += b.out.rewards[i * 2 + q];
                assert_true(sum >= 1);
            }
        }
    }
    assert_true(ended[0] && ended[1] && ended[2]);
    int32_t got[3];
    assert_int_equal(ch_vec_sample(v, 9, got, &err), CH_OK); /* ended: no decider */
    assert_true(got[0] == -1 && got[1] == -1 && got[2] == -1);
    assert_int_equal(ch_vec_reset_game(v, 3, 1, &err), CH_EINVAL);
    assert_int_equal(ch_vec_reset_game(v, 1, 77, &err), CH_OK);
    s.seed = 77;
    assert_int_equal(ch_new(&twin, &s, &board, &err), CH_OK);
    assert_memory_equal(ch_vec_state(v, 1), &twin, sizeof twin);
    assert_true(b.out.seed[1] == 77 && b.out.player[1] >= 0 && b.out.nlegal[1] > 0);
    assert_int_equal(ch_vec_sample(v, 9, got, &err), CH_OK);
    assert_true(got[0] == -1 && got[2] == -1 && b.out.mask[(size_t)na + (size_t)got[1]] == 1);
    ch_vec_free(v);
    bufs_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncation_and_errors),
        cmocka_unit_test(test_twins_amsterdam),
        cmocka_unit_test(test_twins_golden_age),
        cmocka_unit_test(test_met),
        cmocka_unit_test(test_no_autoreset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
