/* test_notation_lang.c: move notation in the player's language
 * (src/text/notation.c), as the terminal game lists, echoes and reads it:
 * - in random games of both editions, every legal move of every decision,
 *   written in Dutch and Japanese, reads back (chx_move_read) to the same
 *   move, and so do its English text and a Dutch text typed in capitals;
 * - a Dutch or Japanese move text names no company or district in English,
 *   and starts with no English notation word the language says otherwise;
 * - the example: selling Gunpowder reads "verkoop Buskruit";
 * - a translated move that is read but refused gets the library's reason in
 *   the language, with the plot's district translated ("Haven F4");
 * - every notation word has its own translation in each language (no two
 *   words the same, none equal to another English word), so reading back is
 *   never ambiguous;
 * - the Dutch and Japanese help cite the rulebook's sections in the language
 *   (section.*), never in English, and quote the move words as listed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chartered.h"
#include "text.h"

static const char *const words[] = {
    "accept", "action", "ask", "auction", "bid", "buy", "credit", "deck",
    "decline", "discard", "done", "draw", "event", "flag", "found", "free",
    "give", "hq", "into", "keep", "lone", "lose", "merge", "offer", "own",
    "pass", "pick", "play", "propose", "refresh", "roof", "sell", "stock",
    "take", "withdraw"};
#define NWORDS (sizeof words / sizeof words[0])

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void new_game(ch_state *st, int edition, int players, uint64_t seed)
{
    ch_board b;
    ch_setup s;
    ch_msg m;
    ch_setup_default(&s, edition);
    s.nplayers = players;
    s.seed = seed;
    if (edition == CH_ED_GOLDEN_AGE)
        s.events = 1;
    assert_int_equal(ch_board_builtin(&b, edition,
                                      edition == CH_ED_GOLDEN_AGE
                                          ? ch_ga_side(s.preset, players)
                                          : "standard",
                                      &m),
                     CH_OK);
    assert_int_equal(ch_new(st, &s, &b, &m), CH_OK);
}

static void test_words_distinct(void **state)
{
    (void)state;
    for (int l = 0; l < CHX_NLANGS; l++)
        for (size_t i = 0; i < NWORDS; i++) {
            char key[64];
            snprintf(key, sizeof key, "notation.%s", words[i]);
            const char *a = chx_msg(l, key);
            assert_string_not_equal(a, key);
            assert_null(strchr(a, ' '));
            for (size_t j = 0; j < NWORDS; j++) {
                if (i == j)
                    continue;
                snprintf(key, sizeof key, "notation.%s", words[j]);
                if (!strcmp(a, chx_msg(l, key)) || !strcmp(a, words[j]))
                    fail_msg("%s: notation.%s '%s' is also the word for '%s'",
                             chx_lang_code(l), words[i], a, words[j]);
            }
        }
}

/* No English company or district name (where lang says it otherwise) and no
 * English first word in a translated move text. */
static void check_translated(int lang, const ch_state *st, const char *text, const char *en)
{
    char key[64];
    for (int c = 0; c < st->ncompanies; c++) {
        const char *e = chx_company(CHX_LANG_EN, st, c);
        if (strcmp(e, chx_company(lang, st, c)) == 0)
            continue;
        for (const char *s = strstr(text, e); s; s = strstr(s + 1, e))
            if ((s == text || s[-1] == ' ') && (s[strlen(e)] == ' ' || !s[strlen(e)]))
                fail_msg("%s: '%s' (from '%s') names %s in English", chx_lang_code(lang),
                         text, en, e);
    }
    static const char *const districts[] = {"harbour", "canal_ring", "old_side",
                                            "city_centre"};
    for (size_t i = 0; i < sizeof districts / sizeof districts[0]; i++) {
        snprintf(key, sizeof key, "district.%s", districts[i]);
        const char *e = chx_msg(CHX_LANG_EN, key);
        if (strcmp(e, chx_msg(lang, key)) && strstr(text, e))
            fail_msg("%s: '%s' names the district %s in English", chx_lang_code(lang), text, e);
    }
    size_t w = strcspn(en, " ");
    for (size_t i = 0; i < NWORDS; i++)
        if (strlen(words[i]) == w && !strncmp(en, words[i], w)) {
            snprintf(key, sizeof key, "notation.%s", words[i]);
            const char *t = chx_msg(lang, key);
            if (strncmp(text, t, strlen(t)) || (text[strlen(t)] != ' ' && text[strlen(t)]))
                fail_msg("%s: '%s' does not start with '%s' (from '%s')", chx_lang_code(lang),
                         text, t, en);
        }
}

static int seen_sell;

static void round_trip(int edition, int players, uint64_t seed, unsigned *types)
{
    ch_state *st = malloc(sizeof *st);
    assert_non_null(st);
    new_game(st, edition, players, seed);
    uint64_t r = seed * 2654435761u + 1;
    ch_move mv[512];
    ch_msg m;
    for (int step = 0; step < 2500; step++) {
        unsigned mask;
        if (ch_decider(st, &mask) == CH_DEC_TERMINAL)
            break;
        int p = __builtin_ctz(mask);
        int n = ch_legal(st, p, mv, 512);
        assert_true(n > 0);
        if (n > 512)
            n = 512;
        for (int i = 0; i < n; i++) {
            char en[160], back[160];
            assert_true(ch_move_str(st, mv[i], en, sizeof en) > 0);
            types[0] |= 1u << mv[i].type;
            for (int lang = 0; lang < CHX_NLANGS; lang++) {
                char text[200];
                ch_move got;
                assert_true(chx_move_text(lang, st, mv[i], text, sizeof text) > 0);
                if (lang == CHX_LANG_EN)
                    assert_string_equal(text, en);
                else
                    check_translated(lang, st, text, en);
                if (chx_move_read(lang, st, p, text, &got, &m) != CH_OK)
                    fail_msg("%s: '%s' (%s) does not read back: %s", chx_lang_code(lang), text,
                             en, m.text);
                ch_move_str(st, got, back, sizeof back);
                if (strcmp(back, en))
                    fail_msg("%s: '%s' read as '%s', not '%s'", chx_lang_code(lang), text, back, en);
                /* English is read in every language */
                assert_int_equal(chx_move_read(lang, st, p, en, &got, &m), CH_OK);
                ch_move_str(st, got, back, sizeof back);
                assert_string_equal(back, en);
                if (lang == CHX_LANG_NL) {
                    /* case does not matter in a typed move */
                    for (char *c = text; *c; c++)
                        *c = (char)toupper((unsigned char)*c);
                    assert_int_equal(chx_move_read(lang, st, p, text, &got, &m), CH_OK);
                    ch_move_str(st, got, back, sizeof back);
                    assert_string_equal(back, en);
                }
            }
            if (mv[i].type == CH_M_SELL && mv[i].n == 1 && edition == CH_ED_AMSTERDAM &&
                mv[i].a == 0) {
                char text[200];
                chx_move_text(CHX_LANG_NL, st, mv[i], text, sizeof text);
                assert_string_equal(text, "verkoop Buskruit");
                seen_sell++;
            }
        }
        assert_int_equal(ch_apply(st, p, mv[rnd(&r) % (uint64_t)n], &m), CH_OK);
    }
    free(st);
}

static void test_round_trip_amsterdam(void **state)
{
    (void)state;
    unsigned types = 0;
    for (uint64_t seed = 1; seed <= 4; seed++)
        round_trip(CH_ED_AMSTERDAM, 2 + (int)(seed % 4), seed, &types);
    /* building, purchase, trading, founding, mergers, bids, events met */
    int kinds = __builtin_popcount(types);
    assert_true(kinds >= 12);
    assert_true(seen_sell > 0);
}

static void test_round_trip_golden_age(void **state)
{
    (void)state;
    unsigned types = 0;
    for (uint64_t seed = 1; seed <= 3; seed++)
        round_trip(CH_ED_GOLDEN_AGE, 3 + (int)(seed % 4), seed, &types);
    assert_true(types & (1u << CH_M_FREE));
    assert_true(types & (1u << CH_M_FLAG));
}

/* A translated move that is read but refused: the library's reason in the
 * language, the plot named as the list names it. */
static void test_refused_in_language(void **state)
{
    (void)state;
    ch_state *st = malloc(sizeof *st);
    assert_non_null(st);
    new_game(st, CH_ED_AMSTERDAM, 3, 3);
    unsigned mask;
    ch_decider(st, &mask);
    int p = __builtin_ctz(mask);
    /* a Harbour plot not in p's hand */
    char plot[64] = "";
    for (int card = 0; card < st->ncards && !plot[0]; card++) {
        char name[64];
        ch_card_name(st, card, name, sizeof name);
        if (!strncmp(name, "Harbour ", 8) && !(st->pl[p].hand[card >> 6] >> (card & 63) & 1))
            snprintf(plot, sizeof plot, "%s", name + 8);
    }
    assert_true(plot[0]);
    char typed[96], words[512], expect[96];
    ch_move mo;
    ch_msg why = {{0}};
    snprintf(typed, sizeof typed, "bouw haven %s", plot);
    assert_int_equal(chx_move_read(CHX_LANG_NL, st, p, typed, &mo, &why), CH_OK);
    assert_int_not_equal(ch_check(st, p, mo, &why), CH_OK);
    chx_reason(CHX_LANG_NL, &why, words, sizeof words);
    snprintf(expect, sizeof expect, "Haven %s zit niet in je hand", plot);
    assert_string_equal(words, expect);
    /* a typo in the language: not read, with a reason */
    assert_int_not_equal(chx_move_read(CHX_LANG_NL, st, p, "verkoop Kaas", &mo, &why), CH_OK);
    assert_true(why.text[0] != '\0');
    /* Japanese typed with the plot's district in Japanese */
    snprintf(typed, sizeof typed, "建設 港 %s", plot);
    assert_int_equal(chx_move_read(CHX_LANG_JA, st, p, typed, &mo, &why), CH_OK);
    assert_int_equal(mo.type, CH_M_PLAY);
    free(st);
}

/* The terminal's help in Dutch and Japanese cites the rulebook's sections
 * by their names in the language (section.*), never the English name (the
 * stock events are named alike in every rulebook), and quotes the move
 * words in the language's notation. */
static void test_help_cites_translated_sections(void **state)
{
    (void)state;
    static const char *const phases[] = {
        "turn", "ga.turn", "purchase", "hq", "found", "ga.found", "credit", "ga.credit", "merge", "ga.merge", "merge-sell",
        "trade", "ga.trade", "sell", "event", "bid", "lose", "coop", "offer", "respond",
        "veilinge", "auction", "pick", "free", "forced", "event-sell"};
    char key[64], quoted[64];
    for (int l = CHX_LANG_NL; l < CHX_NLANGS; l++)
        for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
            snprintf(key, sizeof key, "help.%s", phases[i]);
            const char *help = chx_msg(l, key);
            snprintf(key, sizeof key, "section.%s", phases[i]);
            const char *en = chx_msg(CHX_LANG_EN, key), *tr = chx_msg(l, key);
            assert_string_not_equal(en, key);
            if (!strstr(help, tr))
                fail_msg("%s help.%s does not cite '%s'", chx_lang_code(l), phases[i], tr);
            int event = !strcmp(en, "Coopmanscappen") || !strcmp(en, "Dreighinghe") ||
                        !strcmp(en, "Veilinge");
            if (!event && (!strcmp(en, tr) || strstr(help, en)))
                fail_msg("%s help.%s cites the English section '%s'", chx_lang_code(l),
                         phases[i], en);
            for (size_t w = 0; w < NWORDS; w++) {
                snprintf(key, sizeof key, "notation.%s", words[w]);
                snprintf(quoted, sizeof quoted, "'%s", words[w]);
                const char *q = strstr(help, quoted);
                size_t k = strlen(quoted);
                if (q && (q[k] == '\'' || q[k] == ' ') && strcmp(chx_msg(l, key), words[w]))
                    fail_msg("%s help.%s quotes the English move word %s'", chx_lang_code(l),
                             phases[i], quoted);
            }
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_words_distinct),
        cmocka_unit_test(test_round_trip_amsterdam),
        cmocka_unit_test(test_round_trip_golden_age),
        cmocka_unit_test(test_refused_in_language),
        cmocka_unit_test(test_help_cites_translated_sections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
