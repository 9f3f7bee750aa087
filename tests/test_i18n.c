/* test_i18n.c: tests of the message catalogue (src/text/i18n.c, the files
 * data/i18n/en.json, nl.json, ja.json built into the library) and of the
 * moves in words (src/text/describe.c): every language has every key with the
 * same placeholders as English; every phase, company and Golden Age event
 * card has its words in every language; placeholders are filled and the
 * English fallback works; language names and locales are recognised;
 * display widths count wide characters; and the description of every move of
 * random games of both editions, in every language, is complete (no
 * "{placeholder}" left, no raw key) and says only what everyone may know: a
 * sealed bid's amount and a drawn card stay out of the public description
 * and appear in the mover's own.
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
#include "play.h"
#include "text.h"

static void test_catalogues_complete(void **state)
{
    (void)state;
    char why[512] = "";
    int rc = chx_i18n_check(why, sizeof why);
    if (rc != 0)
        fail_msg("%s", why);
    int n = chx_i18n_count(CHX_LANG_EN);
    assert_true(n > 150);
    for (int l = 0; l < CHX_NLANGS; l++)
        assert_int_equal(chx_i18n_count(l), n);
}

/* The key is known in every language (chx_msg answers the key itself when
 * no language has it) and differs from English in the other languages
 * unless it is language-neutral. */
static void expect_key(const char *key)
{
    for (int l = 0; l < CHX_NLANGS; l++) {
        const char *t = chx_msg(l, key);
        if (!strcmp(t, key))
            fail_msg("language %s has no text for '%s'", chx_lang_code(l), key);
        if (!*t)
            fail_msg("language %s has an empty text for '%s'", chx_lang_code(l), key);
    }
}

static void test_every_phase_company_event_named(void **state)
{
    (void)state;
    char key[64];
    for (int ph = 0; ph < CH_PH_COUNT; ph++) {
        const char *name = ch_phase_name(ph);
        assert_non_null(name);
        snprintf(key, sizeof key, "phase.%s", name);
        expect_key(key);
        snprintf(key, sizeof key, "help.%s", name);
        expect_key(key);
    }
    for (int c = 0; c < CH_MAX_COMPANIES; c++) {
        snprintf(key, sizeof key, "company.ba.%d", c);
        expect_key(key);
        snprintf(key, sizeof key, "company.ga.%d", c);
        expect_key(key);
    }
    for (int e = 0; e < CH_GE_KINDS; e++) {
        snprintf(key, sizeof key, "gaevent.%d", e);
        expect_key(key);
    }
    /* company names are translated: Tea is Thee and 茶 */
    ch_state st;
    memset(&st, 0, sizeof st);
    st.edition = CH_ED_AMSTERDAM;
    st.ncompanies = 9;
    assert_string_equal(chx_company(CHX_LANG_EN, &st, 7), "Tea");
    assert_string_equal(chx_company(CHX_LANG_NL, &st, 7), "Thee");
    assert_string_equal(chx_company(CHX_LANG_JA, &st, 7), "茶");
    assert_string_equal(chx_company(CHX_LANG_NL, &st, 9), "?");
}

static void test_format_and_fallback(void **state)
{
    (void)state;
    char buf[128];
    chx_format(CHX_LANG_EN, buf, sizeof buf, "player.n", "n", "3", NULL);
    assert_string_equal(buf, "Player 3");
    chx_format(CHX_LANG_NL, buf, sizeof buf, "player.n", "n", "3", NULL);
    assert_string_equal(buf, "Speler 3");
    chx_format(CHX_LANG_JA, buf, sizeof buf, "player.n", "n", "3", NULL);
    assert_string_equal(buf, "プレイヤー3");
    /* an unknown key is shown as itself; an unknown placeholder stays */
    assert_string_equal(chx_msg(CHX_LANG_NL, "no.such.key"), "no.such.key");
    const char *args[] = {"a", "1", NULL};
    chx_subst("{a}+{b}", args, buf, sizeof buf);
    assert_string_equal(buf, "1+{b}");
    /* a cut never ends inside a UTF-8 character */
    char small[8];
    chx_format(CHX_LANG_JA, small, sizeof small, "player.n", "n", "3", NULL);
    assert_true(strlen(small) <= 7);
    assert_int_equal(strlen(small) % 3, 0); /* whole 3-byte characters */
}

static void test_languages_and_widths(void **state)
{
    (void)state;
    assert_int_equal(chx_lang_find("en"), CHX_LANG_EN);
    assert_int_equal(chx_lang_find("nl_NL.UTF-8"), CHX_LANG_NL);
    assert_int_equal(chx_lang_find("ja_JP.UTF-8"), CHX_LANG_JA);
    assert_int_equal(chx_lang_find("Dutch"), CHX_LANG_NL);
    assert_int_equal(chx_lang_find("fr_FR"), -1);
    assert_int_equal(chx_lang_find("nlx"), -1);
    assert_int_equal(chx_lang_find(""), -1);
    setenv("LANGUAGE", "", 1);
    setenv("LC_ALL", "", 1);
    setenv("LC_MESSAGES", "ja_JP.UTF-8", 1);
    setenv("LANG", "nl_NL.UTF-8", 1);
    assert_int_equal(chx_lang_from_env(), CHX_LANG_JA);
    setenv("LC_ALL", "nl_BE.UTF-8", 1);
    assert_int_equal(chx_lang_from_env(), CHX_LANG_NL);
    setenv("LC_ALL", "C", 1);
    assert_int_equal(chx_lang_from_env(), CHX_LANG_EN);
    assert_int_equal(chx_width("Tea"), 3);
    assert_int_equal(chx_width("茶"), 2);
    assert_int_equal(chx_width("\033[1;31mA\033[0m"), 1);
    assert_int_equal(chx_cut("火薬ab", 3), 3); /* 火 fits, 薬 does not */
}

/* ---- descriptions --------------------------------------------------------- */

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int seen_bid, seen_draw, seen_same;

static void check_text(const char *t, int lang)
{
    assert_true(t[0] != '\0');
    if (strchr(t, '{') || strstr(t, "describe.") || strstr(t, "effect."))
        fail_msg("incomplete description in %s: %s", chx_lang_code(lang), t);
}

static void play_and_describe(int edition, int players, uint64_t seed)
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
    ch_state *st = malloc(sizeof *st), *before = malloc(sizeof *before);
    assert_non_null(st);
    assert_non_null(before);
    assert_int_equal(ch_new(st, &s, &b, &m), CH_OK);
    uint64_t r = seed * 2654435761u + 1;
    ch_move mv[512];
    for (int step = 0; step < 3000; step++) {
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
        assert_int_equal(ch_apply(st, p, mo, &m), CH_OK);
        for (int lang = 0; lang < CHX_NLANGS; lang++) {
            char pub[512], own[512];
            chx_describe(lang, before, p, mo, st, pub, sizeof pub);
            chx_describe_for(lang, p, NULL, before, p, mo, st, own, sizeof own);
            check_text(pub, lang);
            check_text(own, lang);
            if (!chx_describe_viewer_matters(before, p, mo)) {
                /* the server writes such words once for every viewer (mask.c) */
                assert_string_equal(pub, own);
                for (int v = 0; v < players; v++) {
                    char other[512];
                    chx_describe_for(lang, v, NULL, before, p, mo, st, other, sizeof other);
                    assert_string_equal(pub, other);
                }
                seen_same++;
            }
            if (mo.type == CH_M_BID && before->phase == CH_PH_BID && lang == 0) {
                /* the amount is the mover's secret until the reveal */
                char amount[32], sentence[128], who[32];
                snprintf(amount, sizeof amount, "f%d", (int)mo.n);
                chx_format(lang, who, sizeof who, "player.n", "n",
                           (char[2]){(char)('1' + p), 0}, NULL);
                chx_format(lang, sentence, sizeof sentence, "describe.sealed_bid",
                           "player", who, NULL);
                assert_memory_equal(pub, sentence, strlen(sentence));
                if ((before->bid_in | (1u << p)) != before->bid_mask) {
                    /* others still to bid: nothing more is said */
                    assert_string_equal(pub, sentence);
                } else {
                    /* the round is complete: every bid is shown */
                    char shown[64];
                    chx_format(lang, shown, sizeof shown, "effect.bid_shown", "player",
                               who, "amount", amount, NULL);
                    assert_non_null(strstr(pub, shown));
                }
                chx_format(lang, sentence, sizeof sentence, "describe.sealed_bid_own",
                           "player", who, "n", amount, NULL);
                assert_memory_equal(own, sentence, strlen(sentence));
                seen_bid++;
            }
            if (mo.type == CH_M_DRAW && lang == 0) {
                /* the drawn card: named to the drawer only */
                int card = -1;
                for (int c = 0; c < st->ncards; c++)
                    if ((st->pl[p].hand[c >> 6] >> (c & 63) & 1) &&
                        !(before->pl[p].hand[c >> 6] >> (c & 63) & 1))
                        card = c;
                if (card >= 0 && !st->card_event[card]) {
                    char name[64];
                    chx_card(lang, st, card, name, sizeof name);
                    assert_non_null(strstr(own, name));
                    assert_null(strstr(pub, name));
                    seen_draw++;
                }
            }
        }
    }
    /* the end: the engine's breakdown adds up to ch_scores, ranks agree
     * with the winners, and the result JSON carries it */
    ch_score_part parts[CH_MAX_PLAYERS];
    int32_t sc[CH_MAX_PLAYERS];
    unsigned w;
    assert_int_equal(ch_score_parts(st, parts), CH_OK);
    assert_int_equal(ch_scores(st, sc, &w), CH_OK);
    for (int p = 0; p < st->nplayers; p++) {
        int32_t sum = parts[p].cash - parts[p].fine;
        for (int c = 0; c < st->ncompanies; c++)
            sum += parts[p].stocks[c] + parts[p].flags[c];
        assert_int_equal(sum, parts[p].total);
        assert_int_equal(sc[p], parts[p].total);
        assert_int_equal(parts[p].rank == 1, (w >> p) & 1u);
        assert_int_equal(parts[p].fine, edition == CH_ED_GOLDEN_AGE ? 20 * ch_hand_count(st, p) : 0);
    }
    chx_buf jb = {0};
    assert_int_equal(chx_result_json(st, &jb), 0);
    assert_non_null(strstr(jb.s, "\"parts\":[{\"cash\":"));
    free(jb.s);
    free(st);
    free(before);
}

/* The prices of a decision's money moves come from the engine: at the start
 * of Building Amsterdam a purchase costs f50 and a new market f100
 * (rulebook "Turn option 1"), and building moves are not priced. */
static void test_prices(void **state)
{
    (void)state;
    ch_board b;
    ch_setup s;
    ch_msg m;
    ch_setup_default(&s, CH_ED_AMSTERDAM);
    s.nplayers = 3;
    s.seed = 5;
    assert_int_equal(ch_board_builtin(&b, CH_ED_AMSTERDAM, "standard", &m), CH_OK);
    ch_state *st = malloc(sizeof *st);
    assert_non_null(st);
    assert_int_equal(ch_new(st, &s, &b, &m), CH_OK);
    unsigned mask;
    ch_decider(st, &mask);
    int p = __builtin_ctz(mask);
    chx_buf j = {0};
    assert_int_equal(chx_prices_json(st, p, &j), 0);
    assert_non_null(strstr(j.s, "\"draw\":-50"));
    assert_non_null(strstr(j.s, "\"refresh\":-100"));
    assert_null(strstr(j.s, "\"play "));
    free(j.s);
    free(st);
}

/* A Golden Age flag's worth comes from the engine's scoring, for the browser
 * (issue 31's flag panel): where player 1 may buy the flag of Gold, it
 * scores four times Gold's value (printed rulebook "End of the game": a flag
 * counts as four stocks); where no flag may be bought, and in Building
 * Amsterdam, nothing is written. */
static void test_flag_worth(void **state)
{
    (void)state;
    ch_state *st = malloc(sizeof *st);
    assert_non_null(st);
    t_position(st, "ga-flag-prices.pos");
    chx_buf j = {0};
    assert_int_equal(chx_flag_worth_json(st, 0, &j), 0); /* a card to play first */
    assert_null(j.s);
    t_play(st, 0, "play Harbour 13");
    t_play(st, 0, "found Gold");
    t_play(st, 0, "free Harbour 12 + Harbour 14");
    assert_true(t_legal(st, 0, "flag Gold"));
    int gold = -1;
    for (int c = 0; c < st->ncompanies; c++)
        if (!strcmp(ch_company_name(st, c), "Gold"))
            gold = c;
    assert_true(gold >= 0 && st->co[gold].value > 0);
    assert_int_equal(chx_flag_worth_json(st, 0, &j), 1);
    char want[64];
    snprintf(want, sizeof want, "\"flag Gold\":%d", 4 * st->co[gold].value);
    assert_non_null(strstr(j.s, want));
    assert_true(j.s[0] == '{' && j.s[strlen(j.s) - 1] == '}');
    free(j.s);
    ch_board b;
    ch_setup s;
    ch_msg m;
    ch_setup_default(&s, CH_ED_AMSTERDAM);
    assert_int_equal(ch_board_builtin(&b, CH_ED_AMSTERDAM, "standard", &m), CH_OK);
    assert_int_equal(ch_new(st, &s, &b, &m), CH_OK);
    chx_buf k = {0};
    assert_int_equal(chx_flag_worth_json(st, 0, &k), 0);
    assert_null(k.s);
    free(st);
}

/* Plural entries take their CLDR form from n in each language, and plot
 * and card names take their district's name in the language. */
static void test_plurals_and_places(void **state)
{
    (void)state;
    char out[128];
    chx_format(CHX_LANG_EN, out, sizeof out, "describe.sell", "player", "Anke", "n", "1",
               "company", "Tea", NULL);
    assert_string_equal(out, "Anke sold 1 Tea stock");
    chx_format(CHX_LANG_EN, out, sizeof out, "describe.sell", "player", "Anke", "n", "2",
               "company", "Tea", NULL);
    assert_string_equal(out, "Anke sold 2 Tea stocks");
    chx_format(CHX_LANG_NL, out, sizeof out, "screen.hidden_cards", "n", "1", NULL);
    assert_string_equal(out, "1 verborgen kaart");
    chx_format(CHX_LANG_NL, out, sizeof out, "screen.hidden_cards", "n", "0", NULL);
    assert_string_equal(out, "0 verborgen kaarten");
    chx_format(CHX_LANG_JA, out, sizeof out, "screen.hidden_cards", "n", "1", NULL);
    assert_string_equal(out, "非公開カード1枚");
    assert_string_equal(chx_plural_category(CHX_LANG_EN, 1), "one");
    assert_string_equal(chx_plural_category(CHX_LANG_NL, 0), "other");
    assert_string_equal(chx_plural_category(CHX_LANG_JA, 1), "other");
    chx_place(CHX_LANG_NL, "Harbour C1", out, sizeof out);
    assert_string_equal(out, "Haven C1");
    chx_place(CHX_LANG_NL, "Canal Ring A4", out, sizeof out);
    assert_string_equal(out, "Grachtengordel A4");
    chx_place(CHX_LANG_JA, "Old Side F2", out, sizeof out);
    assert_string_equal(out, "旧市街 F2");
    chx_place(CHX_LANG_NL, "L3", out, sizeof out);
    assert_string_equal(out, "L3");
    chx_place(CHX_LANG_NL, "Harbourside", out, sizeof out); /* not a district */
    assert_string_equal(out, "Harbourside");
}

/* Help texts wrap between words: no line wider than the width, no word cut,
 * nothing lost; Japanese (no spaces) between characters. */
static void test_wrap(void **state)
{
    (void)state;
    for (int l = 0; l < CHX_NLANGS; l++) {
        const char *text = chx_msg(l, "help.turn");
        for (int width = 20; width <= 100; width += 40) {
            chx_buf b = {0};
            chx_wrap(text, width, &b);
            assert_non_null(b.s);
            char *save = NULL, *copy = strdup(b.s);
            chx_buf joined = {0};
            for (char *ln = strtok_r(copy, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
                if (chx_width(ln) > (size_t)width)
                    fail_msg("%s width %d: line too wide: %s", chx_lang_code(l), width, ln);
                if (joined.len && l != CHX_LANG_JA)
                    chx_buf_puts(&joined, " ");
                chx_buf_puts(&joined, ln);
            }
            if (l != CHX_LANG_JA) {
                /* every word intact: the lines joined by spaces are the text */
                assert_string_equal(joined.s, text);
            } else {
                /* without its spaces, nothing lost */
                char a[2048] = "", c[2048] = "";
                size_t ka = 0, kc = 0;
                for (const char *q = text; *q && ka < sizeof a - 1; q++)
                    if (*q != ' ')
                        a[ka++] = *q;
                for (const char *q = joined.s; *q && kc < sizeof c - 1; q++)
                    if (*q != ' ')
                        c[kc++] = *q;
                a[ka] = c[kc] = '\0';
                assert_string_equal(a, c);
            }
            free(joined.s);
            free(copy);
            free(b.s);
        }
    }
}

static void test_descriptions_random_games(void **state)
{
    (void)state;
    seen_bid = seen_draw = seen_same = 0;
    for (uint64_t seed = 1; seed <= 6; seed++)
        play_and_describe(CH_ED_AMSTERDAM, 2 + (int)(seed % 4), seed);
    for (uint64_t seed = 1; seed <= 4; seed++)
        play_and_describe(CH_ED_GOLDEN_AGE, 2 + (int)(seed % 5), seed);
    assert_true(seen_bid > 0);
    assert_true(seen_draw > 0);
    assert_true(seen_same > 0);
}

static void test_describe_merger_sentence(void **state)
{
    (void)state;
    /* a play whose effects absorb a company: "... merged into ..." */
    ch_state a, b;
    memset(&a, 0, sizeof a);
    a.edition = CH_ED_AMSTERDAM;
    a.ncompanies = 9;
    a.nplayers = 2;
    ch_board ab;
    memset(&ab, 0, sizeof ab);
    ab.nplots = 10;
    ab.ndistricts = 1;
    snprintf(ab.district[0], sizeof ab.district[0], "Harbour");
    snprintf(ab.plot_label[3], sizeof ab.plot_label[3], "C1");
    ch_msg bm;
    assert_int_equal(ch_state_set_board(&a, &ab, &bm), CH_OK);
    for (int x = 0; x < 10; x++)
        a.owner[x] = CH_NONE;
    a.co[7].on_chart = 1;
    a.co[7].value = 100;
    a.co[2].on_chart = 1;
    a.co[2].value = 60;
    a.pl[0].cash = 300;
    b = a;
    b.co[2].on_chart = 0;
    b.co[2].value = 0;
    b.co[7].value = 190;
    b.b_plot = 3;
    b.owner[3] = 7;
    b.pl[0].cash = 110;
    const char *names[] = {"Anke", "Bert"};
    char out[256];
    ch_move mv = {CH_M_PLAY, 0, 3, CH_NONE, 0};
    chx_describe_for(CHX_LANG_EN, -1, names, &a, 0, mv, &b, out, sizeof out);
    assert_string_equal(out, "Anke built on Harbour C1: Porcelain merged into Tea, "
                             "Tea f190, Anke paid f190");
    chx_describe_for(CHX_LANG_NL, -1, names, &a, 0, mv, &b, out, sizeof out);
    assert_string_equal(out, "Anke bouwde op Haven C1: Porselein opgegaan in Thee, "
                             "Thee f190, Anke betaalde f190");
}

/* chx_place and chx_company copy without printf (describe.c and i18n.c,
 * for the server's log words): the same bytes as snprintf's, cut at every
 * buffer size the same way. */
static void test_place_cut_like_snprintf(void **state)
{
    (void)state;
    const char *names[] = {"Jordaan B4", "Haven C1", "Plantage", "Nowhere 7", ""};
    for (int l = 0; l < CHX_NLANGS; l++)
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            char full[128];
            chx_place(l, names[i], full, sizeof full);
            for (size_t n = 1; n < 40; n++) {
                char got[64], want[64];
                memset(got, 'x', sizeof got);
                chx_place(l, names[i], got, n);
                assert_true(snprintf(want, n, "%s", full) >= 0);
                assert_string_equal(got, want);
                assert_int_equal(got[n], 'x'); /* nothing written past n */
            }
        }
    ch_state *st = calloc(1, sizeof *st);
    assert_non_null(st);
    for (int ed = 0; ed < 2; ed++) {
        st->edition = ed ? CH_ED_GOLDEN_AGE : CH_ED_AMSTERDAM;
        st->ncompanies = 9; /* the catalogues name nine of each */
        for (int c = 0; c < 9; c++) {
            char key[32];
            snprintf(key, sizeof key, "company.%s.%d", ed ? "ga" : "ba", c);
            for (int l = 0; l < CHX_NLANGS; l++)
                assert_string_equal(chx_company(l, st, c), chx_msg(l, key));
        }
    }
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogues_complete),
        cmocka_unit_test(test_place_cut_like_snprintf),
        cmocka_unit_test(test_every_phase_company_event_named),
        cmocka_unit_test(test_format_and_fallback),
        cmocka_unit_test(test_plurals_and_places),
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_prices),
        cmocka_unit_test(test_flag_worth),
        cmocka_unit_test(test_languages_and_widths),
        cmocka_unit_test(test_descriptions_random_games),
        cmocka_unit_test(test_describe_merger_sentence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
