/* test_mask.c: the server's game log as each reader sees it (src/server/game/mask.c).
 * Along random games of both editions, every move's entry is made the way
 * the server makes it (srv_mask_move, srv_log_texts) and written for every
 * seat and a spectator in every language (srv_log_write); the result must be
 * the same bytes as an entry whose words are made the plain way: the mover's
 * words with the mover as viewer, everyone else's with no viewer, or only
 * the name and verb of a masked move. This holds the shortcut of mask.c
 * (words that do not depend on the reader made once, not twice) and of
 * srv_log_write (the bytes of the last entry written kept for the next
 * reader who reads the same) to that. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game/game_impl.h"
#include "text.h"

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The entry's words made the plain way (mask.c before it shared them). */
static void plain_words(srv_log *e, const ch_state *before, int p, ch_move m,
                        const ch_state *after, const char *const *names, char *store)
{
    unsigned all = (1u << CH_MAX_PLAYERS) - 1;
    for (int l = 0; l < CHX_NLANGS && l < 3; l++) {
        char *own = store + (l * 2 + 1) * 512, *pub = store + (l * 2) * 512;
        e->text[l][1] = chx_describe_for(l, p, names, before, p, m, after, own, 512) >= 0 && own[0]
                            ? own
                            : NULL;
        int public_words = e->party == all || m.type == CH_M_DRAW ||
                           (m.type == CH_M_BID && e->party != all);
        if (public_words)
            e->text[l][0] =
                chx_describe_for(l, -1, names, before, p, m, after, pub, 512) >= 0 && pub[0] ? pub
                                                                                             : NULL;
        else {
            snprintf(pub, 512, "%s: %s", names[p], e->masked);
            e->text[l][0] = pub;
        }
    }
}

static int shared, apart;

static void play(int edition, int players, uint64_t seed)
{
    ch_board b;
    ch_setup s;
    ch_msg msg;
    ch_setup_default(&s, edition);
    s.nplayers = players;
    s.seed = seed;
    if (edition == CH_ED_GOLDEN_AGE)
        s.events = 1;
    assert_int_equal(ch_board_builtin(&b, edition,
                                      edition == CH_ED_GOLDEN_AGE ? ch_ga_side(s.preset, players)
                                                                  : "standard",
                                      &msg),
                     CH_OK);
    ch_state *st = malloc(sizeof *st), *before = malloc(sizeof *before);
    char *store = malloc(6 * 512);
    assert_non_null(st);
    assert_non_null(before);
    assert_non_null(store);
    assert_int_equal(ch_new(st, &s, &b, &msg), CH_OK);
    const char *names[CH_MAX_PLAYERS] = {"Anke", "Bram \"B\"", "Chiyo", "Dirk", "Eef", "Fenna"};
    uint64_t r = seed * 2654435761u + 7;
    ch_move mv[512];
    for (int step = 0; step < 2000; step++) {
        unsigned mask;
        if (ch_decider(st, &mask) == CH_DEC_TERMINAL)
            break;
        int p = __builtin_ctz(mask);
        int n = ch_legal(st, p, mv, 512);
        assert_true(n > 0);
        if (n > 512)
            n = 512;
        ch_move mo = mv[rnd(&r) % (uint64_t)n];
        *before = *st;
        assert_int_equal(ch_apply(st, p, mo, &msg), CH_OK);
        srv_log e = {0}, want = {0};
        e.n = want.n = step;
        srv_mask_move(before, p, mo, &e);
        srv_log_texts(&e, before, p, mo, st, names, (1u << CHX_NLANGS) - 1);
        srv_mask_move(before, p, mo, &want);
        plain_words(&want, before, p, mo, st, names, store);
        want.serial = 0; /* written whole every time (no kept bytes) */
        if (e.text[0][0] && e.text[0][0] == e.text[0][1])
            shared++;
        else
            apart++;
        /* every reader of the entry in turn, as the frames of a decision
           are written (srv_log_write keeps the last entry's bytes), then
           the plain entry's */
        chx_buf got[CHX_NLANGS][CH_MAX_PLAYERS + 1], exp = {0};
        memset(got, 0, sizeof got);
        for (int l = 0; l < CHX_NLANGS; l++)
            for (int v = -1; v < players; v++)
                srv_log_write(&got[l][v + 1], &e, v, chx_lang_code((l + v + 1) % CHX_NLANGS));
        for (int l = 0; l < CHX_NLANGS; l++)
            for (int v = -1; v < players; v++) {
                exp.len = 0;
                srv_log_write(&exp, &want, v, chx_lang_code((l + v + 1) % CHX_NLANGS));
                assert_false(got[l][v + 1].oom || exp.oom);
                if (strcmp(got[l][v + 1].s, exp.s) != 0)
                    fail_msg("move %d (%s), viewer %d, %s:\n  got  %s\n  want %s", step, e.full,
                             v, chx_lang_code((l + v + 1) % CHX_NLANGS), got[l][v + 1].s, exp.s);
                free(got[l][v + 1].s);
            }
        free(exp.s);
        srv_log_free(&e);
    }
    free(st);
    free(before);
    free(store);
}

static void test_log_words_random_games(void **state)
{
    (void)state;
    shared = apart = 0;
    for (uint64_t seed = 1; seed <= 4; seed++)
        play(CH_ED_AMSTERDAM, 2 + (int)(seed % 4), seed);
    for (uint64_t seed = 1; seed <= 3; seed++)
        play(CH_ED_GOLDEN_AGE, 3 + (int)(seed % 4), seed);
    /* both kinds of entries were seen: words kept once, and kept twice */
    assert_true(shared > 0);
    assert_true(apart > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_log_words_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
