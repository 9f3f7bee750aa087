/* test_reasons.c: tests of the library's reasons in the player's language:
 * the recording of a message's English format and arguments in ch_msg
 * (src/core/status.c: fail() and notation.c's nt_fail()) and chx_reason
 * (src/text/reason.c) with the "why.*" entries of data/i18n.
 *
 * The completeness test reads the library's sources (the .c files of src/core, found
 * next to this file) and takes EVERY format passed to fail( and nt_fail(
 * (adjacent literals and the file's string macros joined, calls over several
 * lines), and checks that English has the entry "why.<format>" written with
 * {1}, {2}, ... for its conversions, and that Dutch and Japanese translate it
 * with exactly those placeholders; likewise every literal passed as an
 * argument of such a call, and the phrases turn.c's phase_task() passes,
 * need "why.arg.<phrase>". A new untranslated message fails this test (the
 * checker is itself tested on such a message). Then real refusals come out
 * in Dutch and Japanese with their values: a card not in hand, bids that
 * are too low or too high, notation typos, a move at the wrong time (with
 * its phrase translated), and arguments in another order in Japanese.
 */
#include "internal.h" /* ch_msg_vfail; before cmocka.h, which defines fail() */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play.h"
#include "text.h"

/* ---- reading the sources --------------------------------------------------------- */

/* The end of the string or character literal whose opening quote is at p:
 * its closing quote, or the text's end. */
static char *skip_quoted(const char *p)
{
    char q = *p++;
    while (*p && *p != q) {
        if (*p == '\\' && p[1])
            p++;
        p++;
    }
    return (char *)p;
}

/* Blank out comments (keeping strings, character constants and newlines),
 * so that a "fail(" in a comment is not a call. */
static void strip_comments(char *s)
{
    for (char *p = s; *p; p++) {
        if (*p == '"' || *p == '\'') {
            p = skip_quoted(p);
            if (!*p)
                return;
        } else if (p[0] == '/' && p[1] == '*') {
            for (; *p && !(p[0] == '*' && p[1] == '/'); p++)
                if (*p != '\n')
                    *p = ' ';
            if (!*p)
                return;
            p[0] = p[1] = ' ';
            p++;
        } else if (p[0] == '/' && p[1] == '/') {
            for (; *p && *p != '\n'; p++)
                *p = ' ';
            if (!*p)
                return;
        }
    }
}

/* One C string literal at *p ('"' first) appended, escapes decoded, to out;
 * *p moves past it. */
static void take_literal(const char **p, char *out, size_t n)
{
    const char *s = *p + 1;
    size_t k = strlen(out);
    while (*s && *s != '"') {
        char c = *s++;
        if (c == '\\' && *s) {
            char e = *s++;
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == '0' ? '\0' : e;
        }
        if (k + 1 < n)
            out[k++] = c;
    }
    out[k] = '\0';
    *p = *s ? s + 1 : s;
}

typedef struct macro {
    char name[48];
    char text[400];
} macro;

/* The file's "#define NAME "literal" "literal"..." macros (continued lines
 * joined). */
static int read_macros(const char *src, macro *m, int max)
{
    int n = 0;
    for (const char *p = src; (p = strstr(p, "#define")) != NULL && n < max; p++) {
        const char *s = p + 7;
        while (*s == ' ' || *s == '\t')
            s++;
        size_t l = 0;
        while (isalnum((unsigned char)s[l]) || s[l] == '_')
            l++;
        if (l == 0 || l >= sizeof m[n].name)
            continue;
        memcpy(m[n].name, s, l);
        m[n].name[l] = '\0';
        m[n].text[0] = '\0';
        s += l;
        int lit = 0, other = 0;
        for (;;) {
            while (*s == ' ' || *s == '\t' || (*s == '\\' && s[1] == '\n'))
                s += *s == '\\' ? 2 : 1;
            if (*s == '"') {
                take_literal(&s, m[n].text, sizeof m[n].text);
                lit = 1;
            } else {
                other = *s && *s != '\n';
                break;
            }
        }
        if (lit && !other)
            n++;
    }
    return n;
}

/* The top-level arguments of the call whose '(' is at open: start and end
 * of each; returns the count, and *end the position after ')'. */
static int split_args(const char *open, const char **a, const char **b, int max,
                      const char **end)
{
    int depth = 0, n = 0;
    const char *p = open, *start = open + 1;
    for (; *p; p++) {
        if (*p == '"' || *p == '\'') {
            p = skip_quoted(p);
            if (!*p)
                break;
            continue;
        }
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}') {
            if (--depth == 0) {
                if (n < max) {
                    a[n] = start;
                    b[n++] = p;
                }
                break;
            }
        } else if (*p == ',' && depth == 1 && n < max) {
            a[n] = start;
            b[n++] = p;
            start = p + 1;
        }
    }
    *end = *p ? p + 1 : p;
    return n;
}

/* The text of a format argument made of literals and macro names; 0, or -1
 * when something else is in it (a variable: not a literal format). */
static int literal_text(const char *a, const char *b, const macro *m, int nm, char *out,
                        size_t n)
{
    out[0] = '\0';
    int any = 0;
    for (const char *p = a; p < b;) {
        if (isspace((unsigned char)*p)) {
            p++;
        } else if (*p == '"') {
            take_literal(&p, out, n);
            any = 1;
        } else if (isalpha((unsigned char)*p) || *p == '_') {
            size_t l = 0;
            while (isalnum((unsigned char)p[l]) || p[l] == '_')
                l++;
            int found = 0;
            for (int i = 0; i < nm && !found; i++)
                if (strlen(m[i].name) == l && !strncmp(m[i].name, p, l)) {
                    strncat(out, m[i].text, n - strlen(out) - 1);
                    found = 1;
                }
            if (!found)
                return -1;
            p += l;
            any = 1;
        } else {
            return -1;
        }
    }
    return any ? 0 : -1;
}

/* Number of conversions of a printf format ("%%" is none), or -1. */
static int conversions(const char *fmt)
{
    int n = 0;
    for (const char *s = fmt; *s; s++) {
        if (*s != '%')
            continue;
        if (*++s == '%')
            continue;
        while (*s && strchr("-+ #0123456789*.hlzjtL", *s))
            s++;
        if (!*s || !strchr("diouxXcspfeEgGaA", *s))
            return -1;
        n++;
    }
    return n;
}

/* The English entry a format must have: each conversion {k}, "%%" "%". */
static void english_of(const char *fmt, char *out, size_t n)
{
    size_t k = 0;
    int arg = 0;
    for (const char *s = fmt; *s && k + 8 < n; s++) {
        if (*s != '%') {
            out[k++] = *s;
            continue;
        }
        if (*++s == '%') {
            out[k++] = '%';
            continue;
        }
        while (*s && strchr("-+ #0123456789*.hlzjtL", *s))
            s++;
        k += (size_t)snprintf(out + k, n - k, "{%d}", ++arg);
        if (!*s)
            break;
    }
    out[k] = '\0';
}

/* The text of key in lang without the English fallback, or NULL. */
static const char *own_text(int lang, const char *key)
{
    const char *t = chx_msg(lang, key);
    if (t == key || (lang != CHX_LANG_EN && t == chx_msg(CHX_LANG_EN, key)))
        return NULL;
    return t;
}

/* Does t have exactly the placeholders {1}..{n} (each at least once, no
 * other {...})? */
static int placeholders_are(const char *t, int n)
{
    unsigned seen = 0;
    for (const char *s = t; (s = strchr(s, '{')) != NULL; s++) {
        char *e;
        long k = strtol(s + 1, &e, 10);
        if (*e != '}' || e == s + 1 || k < 1 || k > n)
            return 0;
        seen |= 1u << k;
    }
    for (int k = 1; k <= n; k++)
        if (!(seen >> k & 1))
            return 0;
    return 1;
}

typedef struct report {
    int formats, phrases, problems;
    char first[600];
} report;

static void problem(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(report *r, const char *fmt, ...)
{
    if (r->problems++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->first, sizeof r->first, fmt, ap);
        va_end(ap);
    }
}

static void check_phrase(report *r, const char *where, const char *phrase)
{
    char key[600];
    snprintf(key, sizeof key, "why.arg.%s", phrase);
    r->phrases++;
    if (!own_text(CHX_LANG_EN, key) || strcmp(own_text(CHX_LANG_EN, key), phrase) != 0)
        problem(r, "%s: English lacks \"%s\" (with the phrase itself)", where, key);
    for (int l = 1; l < CHX_NLANGS; l++)
        if (!own_text(l, key))
            problem(r, "%s: %s does not translate the phrase \"%s\"", where,
                    chx_lang_code(l), phrase);
}

static void check_format(report *r, const char *where, const char *fmt)
{
    char key[600], en[600];
    r->formats++;
    int n = conversions(fmt);
    if (n < 0) {
        problem(r, "%s: \"%s\" has a conversion chx_reason does not know", where, fmt);
        return;
    }
    if (n > CH_MSG_NARGS)
        problem(r, "%s: \"%s\" has more than %d conversions", where, fmt, CH_MSG_NARGS);
    snprintf(key, sizeof key, "why.%s", fmt);
    english_of(fmt, en, sizeof en);
    const char *t = own_text(CHX_LANG_EN, key);
    if (!t || strcmp(t, en) != 0) {
        problem(r, "%s: English needs \"%s\": \"%s\"", where, key, en);
        return;
    }
    for (int l = 1; l < CHX_NLANGS; l++) {
        t = own_text(l, key);
        if (!t)
            problem(r, "%s: %s does not translate \"%s\"", where, chx_lang_code(l), fmt);
        else if (!placeholders_are(t, n))
            problem(r, "%s: the %s text of \"%s\" must have exactly {1}..{%d}: \"%s\"",
                    where, chx_lang_code(l), fmt, n, t);
    }
}

/* Every fail( / nt_fail( call of a source text, and (in turn.c) the phrases
 * phase_task() returns. */
static void check_source(report *r, const char *file, char *src)
{
    strip_comments(src);
    macro m[32];
    int nm = read_macros(src, m, 32);
    for (const char *p = src; (p = strstr(p, "fail(")) != NULL;) {
        const char *call = p;
        p += 5;
        const char *id = call;
        while (id > src && (isalnum((unsigned char)id[-1]) || id[-1] == '_'))
            id--;
        if (id != call && !(call - id == 3 && !strncmp(id, "nt_", 3)))
            continue; /* jfail(, some_fail( ...: another function */
        int line = 1;
        for (const char *q = src; q < call; q++)
            line += *q == '\n';
        char where[300];
        snprintf(where, sizeof where, "%s:%d", file, line);
        const char *a[16], *b[16], *end;
        int na = split_args(call + 4, a, b, 16, &end);
        const char *first = a[0];
        while (na > 0 && isspace((unsigned char)*first))
            first++;
        if (na > 0 && !strncmp(first, "ch_msg", 6))
            continue; /* the definition itself */
        char fmt[600];
        if (na < 3 || literal_text(a[2], b[2], m, nm, fmt, sizeof fmt) != 0) {
            problem(r, "%s: the format of this fail() is not a string literal", where);
            continue;
        }
        check_format(r, where, fmt);
        /* literals among the arguments are phrases of the library */
        for (int i = 3; i < na; i++)
            for (const char *q = a[i]; q < b[i]; q++)
                if (*q == '"') {
                    char phrase[300] = "";
                    take_literal(&q, phrase, sizeof phrase);
                    check_phrase(r, where, phrase);
                    q--;
                } else if (*q == '\'') {
                    q++;
                    while (q < b[i] && *q != '\'')
                        q += *q == '\\' ? 2 : 1;
                }
    }
    const char *pt = strstr(src, "phase_task(int phase)");
    if (pt) {
        const char *end = strstr(pt, "\n}");
        for (const char *q = pt; end && (q = strstr(q, "return \"")) != NULL && q < end;) {
            q += 7;
            char phrase[300] = "";
            take_literal(&q, phrase, sizeof phrase);
            check_phrase(r, "phase_task", phrase);
        }
    }
}

static void core_dir(char *out, size_t n)
{
    /* this file is tests/test_reasons.c of the repository */
    snprintf(out, n, "%s", __FILE__);
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(out, n, ".");
    strncat(out, "/../src/core", n - strlen(out) - 1);
}

static void test_every_format_translated(void **state)
{
    (void)state;
    char dir[1024];
    core_dir(dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open the library's sources in %s", dir);
    report r = {0};
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 3 || strcmp(e->d_name + l - 2, ".c") != 0)
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *src = t_slurp(path);
        if (!src)
            fail_msg("cannot read %s", path);
        check_source(&r, e->d_name, src);
        free(src);
        files++;
    }
    closedir(d);
    if (r.problems)
        fail_msg("%d problem(s); the first: %s", r.problems, r.first);
    print_message("%d files, %d fail()/nt_fail() formats and %d phrases translated\n",
                  files, r.formats, r.phrases);
    /* the library has well over a hundred messages; far fewer means the
     * extraction went wrong, not that they are translated */
    assert_true(files >= 10);
    assert_true(r.formats >= 100);
    assert_true(r.phrases >= 20);
}

/* The checker itself finds a new message without translation, a variable
 * format, a phrase without translation and a translation that lost a
 * placeholder. */
static void test_checker_finds_gaps(void **state)
{
    (void)state;
    char src[] =
        "#define LIST \"a, b\" \\\n  \" or c\"\n"
        "/* fail(why, 1, \"in a comment: not a call\") */\n"
        "static int f(ch_msg *why, int x, const char *t) {\n"
        "    if (x) return fail(why, CH_EILLEGAL, \"you hold no broken roof\");\n"
        "    if (x > 1) return nt_fail(why, CH_ESYNTAX, \"a brand new message \"\n"
        "                              \"%d, %s\", x, x ? \"yes\" : \"your\");\n"
        "    if (x > 2) return fail(why, 1, t);\n"
        "    if (x > 3) return jfail(c, \"json.c's own: %s\", t);\n"
        "    return fail(why, 1, \"empty move: expected one of \" LIST);\n"
        "}\n";
    report r = {0};
    check_source(&r, "new.c", src);
    assert_int_equal(r.formats, 3);
    assert_int_equal(r.phrases, 2);
    /* the new message, its phrase "yes" (English, Dutch and Japanese lack
     * it), the variable format, and LIST's text (not the real VERB_LIST) */
    assert_int_equal(r.problems, 6);
    assert_non_null(strstr(r.first, "a brand new message %d, %s"));

    /* a translation with a lost placeholder */
    assert_true(placeholders_are("{2} {1}", 2));
    assert_false(placeholders_are("{1}", 2));
    assert_false(placeholders_are("{1} {2} {3}", 2));
    assert_false(placeholders_are("{name}", 0));
}

/* ---- recording ------------------------------------------------------------------ */

static int rec(ch_msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rec(ch_msg *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = ch_msg_vfail(m, 7, fmt, ap);
    va_end(ap);
    return r;
}

static void test_recording(void **state)
{
    (void)state;
    ch_msg m = {{0}};
    assert_int_equal(rec(NULL, "%d", 5), 7); /* nothing to write: only the code */
    static const char fmt[] = "%d|%5s|%.*s|%c|%u|%ld";
    assert_int_equal(rec(&m, fmt, -3, "ab", 2, "xyz", 'Q', 7u, 123456789L), 7);
    assert_string_equal(m.text, "-3|   ab|xy|Q|7|123456789");
    assert_ptr_equal(m.fmt, fmt);
    assert_true(ch_msg_recorded(&m));
    assert_int_equal(m.nargs, 6);
    const char *want1[] = {"-3", "   ab", "xy", "Q", "7", "123456789"};
    for (int i = 0; i < 6; i++)
        assert_string_equal(m.args[i], want1[i]);
    rec(&m, "%%|%zu|%lld|%*d|%-4d|%x", (size_t)42, -9000000000LL, 4, 5, 6, 255);
    assert_string_equal(m.text, "%|42|-9000000000|   5|6   |ff");
    assert_int_equal(m.nargs, 5);
    const char *want2[] = {"42", "-9000000000", "   5", "6   ", "ff"};
    for (int i = 0; i < 5; i++)
        assert_string_equal(m.args[i], want2[i]);
    assert_true(ch_msg_recorded(&m));
    /* more conversions than CH_MSG_NARGS: nothing recorded, text intact */
    rec(&m, "%.2f %d %d %d %d %d %d", 1.5, 1, 2, 3, 4, 5, 6);
    assert_string_equal(m.text, "1.50 1 2 3 4 5 6");
    assert_null(m.fmt);
    assert_false(ch_msg_recorded(&m));

    rec(&m, "%s is %d, %.*s!", "Tea", 190, 3, "abcdef");
    assert_true(ch_msg_recorded(&m));
    assert_int_equal(m.nargs, 3);
    assert_string_equal(m.args[0], "Tea");
    assert_string_equal(m.args[1], "190");
    assert_string_equal(m.args[2], "abc");

    /* a long argument is cut on a character boundary */
    char longtext[200] = "";
    for (int i = 0; i < 30; i++)
        strcat(longtext, "茶"); /* 3 bytes each */
    rec(&m, "<%s>", longtext);
    assert_int_equal(m.nargs, 1);
    assert_true(strlen(m.args[0]) < CH_MSG_ARGLEN);
    assert_int_equal(strlen(m.args[0]) % 3, 0);
    assert_int_equal(strlen(m.args[0]), 63);

    /* text changed (or written) by other code: no longer recorded */
    rec(&m, "%s is %d", "Tea", 190);
    assert_true(ch_msg_recorded(&m));
    snprintf(m.text, sizeof m.text, "line 3: %s", "Tea is 190");
    assert_false(ch_msg_recorded(&m));
    char buf[256];
    chx_reason(CHX_LANG_NL, &m, buf, sizeof buf);
    assert_string_equal(buf, "line 3: Tea is 190");
    ch_msg plain = {"written by hand"};
    chx_reason(CHX_LANG_JA, &plain, buf, sizeof buf);
    assert_string_equal(buf, "written by hand");
}

/* ---- real refusals in words ------------------------------------------------------- */

/* The reason of ch_move_parse, else of ch_check, for p's text, in lang. */
static int reason_of(const ch_state *st, int p, const char *text, int lang, char *buf,
                     size_t n, ch_msg *out)
{
    ch_move m;
    ch_msg why;
    int rc = ch_move_parse(st, p, text, &m, &why);
    if (rc == CH_OK)
        rc = ch_check(st, p, m, &why);
    if (rc == CH_OK)
        fail_msg("'%s' by P%d was accepted", text, p + 1);
    chx_reason(lang, &why, buf, n);
    if (out)
        *out = why;
    return rc;
}

static void expect_reason(const ch_state *st, int p, const char *text, const char *nl,
                          const char *ja)
{
    char en[300], buf[300];
    ch_msg why;
    reason_of(st, p, text, CHX_LANG_EN, en, sizeof en, &why);
    assert_string_equal(en, why.text); /* English is the library's text */
    reason_of(st, p, text, CHX_LANG_NL, buf, sizeof buf, NULL);
    if (strcmp(buf, nl) != 0)
        fail_msg("'%s' in Dutch: \"%s\", expected \"%s\" (English \"%s\")", text, buf, nl,
                 en);
    reason_of(st, p, text, CHX_LANG_JA, buf, sizeof buf, NULL);
    if (strcmp(buf, ja) != 0)
        fail_msg("'%s' in Japanese: \"%s\", expected \"%s\" (English \"%s\")", text, buf,
                 ja, en);
}

static void test_refusals_translated(void **state)
{
    (void)state;
    ch_state st;
    t_new(&st, 3, "standard", 11);
    t_clear(&st);
    t_turn(&st, 0);
    t_give(&st, 0, "Harbour C1");
    t_cash(&st, 0, 30);
    /* a card not in hand: the plot's district in the language, as the
     * terminal's list of moves names it (src/text/notation.c) */
    expect_reason(&st, 0, "play Harbour D1", "Haven D1 zit niet in je hand",
                  "港 D1 は手札にありません");
    /* a move at the wrong time: the library's phrase is translated too */
    expect_reason(&st, 0, "bid f120",
                  "'bid f120' mag nu niet: kopen, een bouwkaart spelen of verkopen",
                  "'bid f120' は今は指せません: 購入・建設カード・売却のどれかを選ぶ");
    expect_reason(&st, 1, "draw",
                  "het is niet jouw beslissing: P1 moet kopen, een bouwkaart spelen of "
                  "verkopen",
                  "あなたの番ではありません: P1 が購入・建設カード・売却のどれかを選ぶ番です");
    /* notation typos; Japanese puts the arguments in its own order */
    expect_reason(&st, 0, "bid 120",
                  "bedrag '120' heeft het guldenteken nodig: schrijf het als f120",
                  "金額 '120' にはフローリン記号が必要です: f120 のように書いてください");
    expect_reason(&st, 0, "done now", "onverwacht 'now' na 'done': daar hoort niets meer bij",
                  "'done' の後に予期しない 'now' があります: この手には続きがありません");
    expect_reason(&st, 0, "play Harbor C1", "'Harbor C1' is geen kavel op dit bord: een "
                  "kavel is een wijk en een label, zoals 'Haven A1'",
                  "'Harbor C1' はこの盤の区画ではありません: 区画は地区名とラベルで、"
                  "'港 A1' のように書きます");
    expect_reason(&st, 0, "sell 2",
                  "'sell 2' heeft een bedrijf nodig, zoals 'sell 2 Tea'",
                  "'sell 2' には会社が必要です ('sell 2 Tea' のように)");
    /* a purchase too dear, with two amounts */
    expect_reason(&st, 0, "draw", "je kunt niet kopen: het kost f50 en je hebt f30",
                  "購入できません: 費用は f50 で、所持金は f30 です");
}

/* A random game of seed until the phase is ph; 0 when it never comes. */
static int reach_phase(ch_state *st, int ph, uint64_t seed)
{
    uint64_t rng = seed * 7919 + 1;
    t_new(st, 3, "standard", seed);
    for (int i = 0; i < 4000; i++) {
        if (st->phase == ph)
            return 1;
        if (!t_random_step(st, &rng))
            return 0;
    }
    return 0;
}

static void test_bids_translated(void **state)
{
    (void)state;
    ch_state *st = malloc(sizeof *st);
    assert_non_null(st);
    char text[64], nl[200], ja[200];
    int sealed = 0, auction = 0;
    for (uint64_t seed = 1; seed < 400 && !(sealed && auction); seed++) {
        if (!sealed && reach_phase(st, CH_PH_BID, seed)) {
            unsigned mask;
            ch_decider(st, &mask);
            int p = __builtin_ctz(mask);
            int cash = st->pl[p].cash;
            snprintf(text, sizeof text, "bid f%d", cash + 1);
            snprintf(nl, sizeof nl, "een gesloten bod is van f0 tot je geld, f%d", cash);
            snprintf(ja, sizeof ja, "封印入札は f0 から所持金の f%d までです", cash);
            expect_reason(st, p, text, nl, ja);
            sealed = 1;
        }
        if (!auction && reach_phase(st, CH_PH_AUCTION, seed)) {
            int p = t_decider(st);
            if (st->au_high_bidder == CH_NONE && st->pl[p].cash >= 10) {
                t_play(st, p, "bid f10"); /* an opening bid to raise */
                p = t_decider(st);
            }
            if (st->phase != CH_PH_AUCTION || st->au_high_bidder == CH_NONE ||
                p == st->au_high_bidder)
                continue;
            snprintf(text, sizeof text, "bid f%d", (int)st->au_high);
            snprintf(nl, sizeof nl, "je moet meer bieden dan f%d", (int)st->au_high);
            snprintf(ja, sizeof ja, "f%d より多く入札しなければなりません", (int)st->au_high);
            expect_reason(st, p, text, nl, ja);
            auction = 1;
        }
    }
    free(st);
    if (!sealed || !auction)
        fail_msg("no random game reached a %s", sealed ? "raised auction" : "sealed bid");
}

static void test_company_names_and_cut(void **state)
{
    (void)state;
    ch_state st;
    t_new(&st, 3, "standard", 5);
    t_clear(&st);
    t_turn(&st, 0);
    int tea = ch_company_find(&st, "Tea", NULL);
    assert_true(tea >= 0);
    char buf[300], en[300];
    ch_msg why;
    /* no Tea stock to sell: the company's name is translated */
    reason_of(&st, 0, "sell 1 Tea", CHX_LANG_EN, en, sizeof en, &why);
    assert_non_null(strstr(en, "Tea"));
    assert_ptr_not_equal(strstr(why.fmt, "%s"), NULL);
    reason_of(&st, 0, "sell 1 Tea", CHX_LANG_NL, buf, sizeof buf, NULL);
    if (!strstr(buf, chx_company(CHX_LANG_NL, &st, tea)) || strstr(buf, "Tea"))
        fail_msg("\"%s\" in Dutch: \"%s\"", en, buf);
    reason_of(&st, 0, "sell 1 Tea", CHX_LANG_JA, buf, sizeof buf, NULL);
    assert_non_null(strstr(buf, chx_company(CHX_LANG_JA, &st, tea)));
    /* a short buffer: cut on a character boundary */
    for (size_t n = 1; n < 40; n++) {
        char small[40];
        int len = chx_reason(CHX_LANG_JA, &why, small, n);
        assert_true((size_t)len < n);
        assert_int_equal((size_t)len, strlen(small));
        /* valid UTF-8: no lead byte without its continuation bytes */
        for (int i = 0; i < len;) {
            unsigned char c = (unsigned char)small[i];
            int k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            assert_true(i + k <= len);
            i += k;
        }
    }
    assert_int_equal(chx_reason(CHX_LANG_NL, NULL, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_format_translated),
        cmocka_unit_test(test_checker_finds_gaps),
        cmocka_unit_test(test_recording),
        cmocka_unit_test(test_refusals_translated),
        cmocka_unit_test(test_bids_translated),
        cmocka_unit_test(test_company_names_and_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
