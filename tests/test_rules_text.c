/* test_rules_text.c: the rules of each edition in the project's words
 * (data/rules/<edition>.<lang>.md, src/text/rules.c; issue 31). Every
 * language has every section, with the same ids in the same order; every
 * decision of both editions cites a section (data/rules/cites.txt) that
 * exists in English, Dutch and Japanese, whose heading in each language
 * holds the words the decision's "Rules: ..." citation uses there (the
 * catalogue's section.ga.<phase> or section.<phase>, data/i18n/), and whose
 * name the terminal's help text quotes. Random games of both editions check
 * that no decision occurs outside the lists below. The terminal text of
 * every section fits the width it is wrapped at, keeps no Markdown marks
 * and begins no line with Japanese closing punctuation; sections are found
 * by number, id and title words.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "play.h"
#include "text.h"

/* The decisions of each edition: every phase a player decides in (and the
 * end, which `rules` shows too). */
static const int ba_phases[] = {CH_PH_TURN, CH_PH_PURCHASE, CH_PH_HQ, CH_PH_FOUND,
                                CH_PH_CREDIT, CH_PH_MERGE, CH_PH_MERGE_SELL, CH_PH_TRADE,
                                CH_PH_SELL, CH_PH_EVENT, CH_PH_BID, CH_PH_LOSE,
                                CH_PH_COOP, CH_PH_OFFER, CH_PH_RESPOND, CH_PH_VEILINGE,
                                CH_PH_AUCTION, CH_PH_PICK, CH_PH_OVER};
static const int ga_phases[] = {CH_PH_TURN, CH_PH_PURCHASE, CH_PH_FOUND, CH_PH_FREE,
                                CH_PH_CREDIT, CH_PH_MERGE, CH_PH_TRADE, CH_PH_FORCED,
                                CH_PH_EVSELL, CH_PH_OVER};

static const int *phases_of(int ed, int *n)
{
    if (ed == CH_ED_AMSTERDAM) {
        *n = (int)(sizeof ba_phases / sizeof ba_phases[0]);
        return ba_phases;
    }
    *n = (int)(sizeof ga_phases / sizeof ga_phases[0]);
    return ga_phases;
}

static chx_rules rules[2][CHX_NLANGS];

static void load_all(void)
{
    for (int ed = 0; ed < 2; ed++)
        for (int l = 0; l < CHX_NLANGS; l++) {
            char why[256] = "";
            if (chx_rules_load(ed, l, &rules[ed][l], why, sizeof why))
                fail_msg("rules of edition %d in %s: %s", ed, chx_lang_code(l), why);
        }
}

/* Every language has the English sections, in the same order. */
static void test_every_language_every_section(void **state)
{
    (void)state;
    load_all();
    for (int ed = 0; ed < 2; ed++) {
        const chx_rules *en = &rules[ed][CHX_LANG_EN];
        assert_true(en->n >= 10);
        for (int l = 1; l < CHX_NLANGS; l++) {
            const chx_rules *r = &rules[ed][l];
            if (r->n != en->n)
                fail_msg("%s %s: %d sections, English has %d", chx_rules_edition_word(ed),
                         chx_lang_code(l), r->n, en->n);
            for (int i = 0; i < en->n; i++) {
                if (strcmp(r->s[i].id, en->s[i].id))
                    fail_msg("%s %s: section %d is '%s', English '%s'",
                             chx_rules_edition_word(ed), chx_lang_code(l), i + 1, r->s[i].id,
                             en->s[i].id);
                assert_true(r->s[i].title_len > 0);
                assert_true(r->s[i].body_len > 40);
            }
        }
    }
}

/* The catalogue's citation of a decision, as the terminal's help and the
 * browser's decision panel choose it: section.ga.<phase> in The Golden Age
 * when there is one, else section.<phase>. NULL when the catalogue has none. */
static const char *citation(int ed, int phase, int lang, char *key, size_t n)
{
    const char *ph = ch_phase_name(phase);
    if (ed == CH_ED_GOLDEN_AGE) {
        snprintf(key, n, "section.ga.%s", ph);
        if (strcmp(chx_msg(CHX_LANG_EN, key), key))
            return chx_msg(lang, key);
    }
    snprintf(key, n, "section.%s", ph);
    return strcmp(chx_msg(CHX_LANG_EN, key), key) ? chx_msg(lang, key) : NULL;
}

/* Every decision cites a section that exists in every language and whose
 * heading holds the citation's words; the help quotes the same words. */
static void test_every_citation_lands(void **state)
{
    (void)state;
    load_all();
    int checked = 0;
    for (int ed = 0; ed < 2; ed++) {
        int np;
        const int *ph = phases_of(ed, &np);
        for (int i = 0; i < np; i++) {
            const char *name = ch_phase_name(ph[i]);
            char id[32];
            if (chx_rules_cite(ed, ph[i], id, sizeof id))
                fail_msg("%s: the decision '%s' cites no section (data/rules/cites.txt)",
                         chx_rules_edition_word(ed), name);
            for (int l = 0; l < CHX_NLANGS; l++) {
                const chx_rules *r = &rules[ed][l];
                int k = -1;
                for (int j = 0; j < r->n; j++)
                    if (!strcmp(r->s[j].id, id))
                        k = j;
                if (k < 0)
                    fail_msg("%s %s: '%s' cites section '%s', which is missing",
                             chx_rules_edition_word(ed), chx_lang_code(l), name, id);
                char key[64];
                const char *cite = citation(ed, ph[i], l, key, sizeof key);
                if (!cite)
                    fail_msg("%s: no section.* citation for '%s'", chx_rules_edition_word(ed),
                             name);
                char title[256];
                snprintf(title, sizeof title, "%.*s", (int)r->s[k].title_len, r->s[k].title);
                if (!strstr(title, cite))
                    fail_msg("%s %s: '%s' cites '%s' (%s), but section '%s' is headed '%s'",
                             chx_rules_edition_word(ed), chx_lang_code(l), name, cite, key, id,
                             title);
                /* the terminal's help of the decision quotes the citation */
                if (ph[i] != CH_PH_OVER) {
                    char hk[64];
                    snprintf(hk, sizeof hk, "help.ga.%s", name);
                    if (ed != CH_ED_GOLDEN_AGE || !strcmp(chx_msg(CHX_LANG_EN, hk), hk))
                        snprintf(hk, sizeof hk, "help.%s", name);
                    if (!strstr(chx_msg(l, hk), cite))
                        fail_msg("%s %s: %s does not quote '%s'", chx_rules_edition_word(ed),
                                 chx_lang_code(l), hk, cite);
                }
                checked++;
            }
        }
    }
    assert_int_equal(checked, 3 * (int)(sizeof ba_phases / sizeof ba_phases[0] +
                                        sizeof ga_phases / sizeof ga_phases[0]));
}

/* Random games reach no decision outside the lists above (so a new phase
 * cannot go without a section), and reach most of them. */
static void test_random_games_stay_in_the_lists(void **state)
{
    (void)state;
    for (int ed = 0; ed < 2; ed++) {
        int np;
        const int *ph = phases_of(ed, &np);
        int seen[CH_PH_COUNT] = {0};
        ch_state *st = malloc(sizeof *st);
        assert_non_null(st);
        for (uint64_t g = 0; g < 12; g++) {
            if (ed == CH_ED_AMSTERDAM)
                t_new(st, 2 + (int)(g % 4), "standard", 100 + g);
            else
                t_new_ga(st, 2 + (int)(g % 5), g % 2 ? CH_GA_FIRST : CH_GA_PRINTED, 1, 200 + g);
            uint64_t rng = 0x5eed + g;
            for (int step = 0; step < 4000; step++) {
                seen[st->phase] = 1;
                if (!t_random_step(st, &rng))
                    break;
            }
            seen[st->phase] = 1;
        }
        free(st);
        int reached = 0;
        for (int p = 0; p < CH_PH_COUNT; p++) {
            if (!seen[p])
                continue;
            int listed = 0;
            for (int i = 0; i < np; i++)
                listed |= ph[i] == p;
            if (!listed)
                fail_msg("%s: random games reach the decision '%s', which the test's list "
                         "(and perhaps data/rules/cites.txt) lacks",
                         chx_rules_edition_word(ed), ch_phase_name(p));
            reached++;
        }
        assert_true(reached >= np / 2);
    }
}

/* The terminal text: within the width, no Markdown marks, every section. */
static void test_render_fits(void **state)
{
    (void)state;
    load_all();
    const int widths[] = {40, 79, 119};
    for (int ed = 0; ed < 2; ed++)
        for (int l = 0; l < CHX_NLANGS; l++)
            for (int i = 0; i < rules[ed][l].n; i++)
                for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
                    const chx_rules_section *s = &rules[ed][l].s[i];
                    chx_buf b = {0};
                    chx_rules_render(s->body, s->body_len, widths[w], NULL, NULL, &b);
                    assert_non_null(b.s);
                    assert_null(strchr(b.s, '*'));
                    assert_null(strstr(b.s, "{#"));
                    assert_null(strstr(b.s, "## "));
                    assert_null(strstr(b.s, "\n\n\n"));
                    for (const char *p = b.s; *p;) {
                        const char *e = strchr(p, '\n');
                        assert_non_null(e);
                        if (chx_width_n(p, (size_t)(e - p)) > (size_t)widths[w])
                            fail_msg("%s %s '%s' at width %d: '%.*s'", chx_rules_edition_word(ed),
                                     chx_lang_code(l), s->id, widths[w], (int)(e - p), p);
                        /* no line (nor a list item's continuation) begins
                         * with Japanese closing punctuation (wrap.c) */
                        const char *t = p;
                        while (*t == ' ')
                            t++;
                        if (!strncmp(t, "、", 3) || !strncmp(t, "。", 3))
                            fail_msg("%s %s '%s' at width %d: a line begins with '%.3s'",
                                     chx_rules_edition_word(ed), chx_lang_code(l), s->id,
                                     widths[w], t);
                        p = e + 1;
                    }
                    free(b.s);
                }
    /* list items hang under their marker */
    const char *md = "Intro **bold** text.\n\n- first item that is long enough to wrap "
                     "around the line\n- second\n\n### Sub\n\n1. one\n";
    chx_buf b = {0};
    chx_rules_render(md, strlen(md), 30, "<", ">", &b);
    assert_string_equal(b.s, "Intro bold text.\n\n"
                             "  - first item that is long\n"
                             "    enough to wrap around the\n"
                             "    line\n"
                             "  - second\n"
                             "\n<Sub>\n"
                             "\n  1. one\n");
    free(b.s);
}

static void test_find(void **state)
{
    (void)state;
    load_all();
    const chx_rules *en = &rules[CH_ED_AMSTERDAM][CHX_LANG_EN];
    int merge = chx_rules_find(en, "merge");
    assert_true(merge >= 0);
    assert_string_equal(en->s[merge].id, "merge");
    assert_int_equal(chx_rules_find(en, "MERGE"), merge);
    assert_int_equal(chx_rules_find(en, " merging two or more "), merge);
    char num[16];
    snprintf(num, sizeof num, "%d", merge + 1);
    assert_int_equal(chx_rules_find(en, num), merge);
    assert_int_equal(chx_rules_find(en, "0"), -1);
    assert_int_equal(chx_rules_find(en, "99"), -1);
    assert_int_equal(chx_rules_find(en, "nowhere"), -1);
    assert_int_equal(chx_rules_find(en, ""), -1);
    const chx_rules *ja = &rules[CH_ED_GOLDEN_AGE][CHX_LANG_JA];
    int k = chx_rules_find(ja, "2d. 企業の合併");
    assert_true(k >= 0);
    assert_string_equal(ja->s[k].id, "merge");
    /* a bad edition or language */
    chx_rules r;
    char why[128];
    assert_int_equal(chx_rules_load(7, 0, &r, why, sizeof why), -1);
    assert_int_equal(chx_rules_load(0, 9, &r, why, sizeof why), -1);
    char id[32];
    assert_int_equal(chx_rules_cite(CH_ED_GOLDEN_AGE, CH_PH_BID, id, sizeof id), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_language_every_section),
        cmocka_unit_test(test_every_citation_lands),
        cmocka_unit_test(test_random_games_stay_in_the_lists),
        cmocka_unit_test(test_render_fits),
        cmocka_unit_test(test_find),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
