/* i18n.c: the message catalogue shared by the front ends. Every word a
 * program says to a person comes from data/i18n/<lang>.json (a flat JSON
 * object key -> text with named placeholders such as "{player}"), the same
 * files the browser client loads. The files are compiled into libchartered
 * (cmake/embed_data.cmake, ch_builtin_text), so no data path is needed.
 * A key missing in a language falls back to English, and an unknown key is
 * shown as itself, so a gap in a translation is visible but never fatal;
 * tests/test_i18n.c makes sure there are no gaps.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <threads.h>

#include <jansson.h>

#include "text.h"

static const char *const lang_codes[CHX_NLANGS] = {"en", "nl", "ja"};
static const char *const lang_files[CHX_NLANGS] = {
    "i18n/en.json", "i18n/nl.json", "i18n/ja.json"};

/* The catalogues, parsed once (call_once: the server may call from several
 * threads) and kept for the life of the program. */
static json_t *catalogue[CHX_NLANGS];
static char load_error[CHX_NLANGS][200];
static once_flag load_once = ONCE_FLAG_INIT;

/* The catalogue's district.* entries (English name, key), listed once at
 * load: chx_place looks a name's district up for every plot or card named
 * in a log line, which the server does for every move (a walk over the
 * whole catalogue each time was 5% of its CPU). */
#define MAX_DISTRICTS 64
static struct { const char *en, *key; size_t len; } districts[MAX_DISTRICTS];
static int ndistricts;

static void load_all(void)
{
    for (int l = 0; l < CHX_NLANGS; l++) {
        const char *text = ch_builtin_text(lang_files[l]);
        if (!text) {
            snprintf(load_error[l], sizeof load_error[l],
                     "%s is not built into the library", lang_files[l]);
            continue;
        }
        json_error_t err;
        json_t *root = json_loads(text, 0, &err);
        if (!root || !json_is_object(root)) {
            snprintf(load_error[l], sizeof load_error[l],
                     "%s: line %d: %s", lang_files[l], err.line,
                     root ? "not a JSON object" : err.text);
            json_decref(root);
            continue;
        }
        catalogue[l] = root;
    }
    const char *key;
    json_t *v;
    if (catalogue[CHX_LANG_EN])
        json_object_foreach(catalogue[CHX_LANG_EN], key, v) {
            if (strncmp(key, "district.", 9) != 0 || !json_is_string(v) ||
                !*json_string_value(v) || ndistricts == MAX_DISTRICTS)
                continue;
            districts[ndistricts].en = json_string_value(v);
            districts[ndistricts].key = key;
            districts[ndistricts].len = strlen(json_string_value(v));
            ndistricts++;
        }
}

static json_t *cat(int lang)
{
    call_once(&load_once, load_all);
    if (lang < 0 || lang >= CHX_NLANGS)
        lang = CHX_LANG_EN;
    return catalogue[lang];
}

const char *chx_lang_code(int lang)
{
    return lang >= 0 && lang < CHX_NLANGS ? lang_codes[lang] : "en";
}

int chx_lang_find(const char *name)
{
    if (!name || !*name)
        return -1;
    /* a code as it is (the server's clients: once per frame and move) */
    for (int l = 0; l < CHX_NLANGS; l++)
        if (name[0] == lang_codes[l][0] && strcmp(name, lang_codes[l]) == 0)
            return l;
    /* "nl", "nl_NL.UTF-8", "ja_JP", "en-GB", also the names in full */
    static const struct { const char *word; int lang; } words[] = {
        {"english", CHX_LANG_EN}, {"dutch", CHX_LANG_NL},
        {"nederlands", CHX_LANG_NL}, {"japanese", CHX_LANG_JA},
        {"nihongo", CHX_LANG_JA}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcasecmp(name, words[i].word) == 0)
            return words[i].lang;
    for (int l = 0; l < CHX_NLANGS; l++) {
        size_t k = strlen(lang_codes[l]);
        if (strncasecmp(name, lang_codes[l], k) == 0 &&
            (name[k] == '\0' || name[k] == '_' || name[k] == '-' ||
             name[k] == '.' || name[k] == '@'))
            return l;
    }
    return -1;
}

int chx_lang_from_env(void)
{
    /* POSIX precedence: LC_ALL, then LC_MESSAGES, then LANG; "C" and
     * "POSIX" mean English. LANGUAGE (a GNU list) is read first when set. */
    const char *vars[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v)
            continue;
        int l = chx_lang_find(v);
        if (l >= 0)
            return l;
        if (i > 0)
            return CHX_LANG_EN; /* a locale we do not speak: English */
    }
    return CHX_LANG_EN;
}

/* The CLDR plural category of a whole number n in lang (CLDR "Language
 * Plural Rules", cardinal): English and Dutch say "one" for 1 and "other"
 * for every other whole number; Japanese has only "other". */
const char *chx_plural_category(int lang, long long n)
{
    if (lang == CHX_LANG_JA)
        return "other";
    return n == 1 ? "one" : "other";
}

/* The text of an entry: a string as it is; a plural entry (an object of
 * CLDR categories, docs/formats.md "Message catalogues") its form for n. */
static const char *entry_text(json_t *v, int lang, long long n)
{
    if (json_is_string(v))
        return json_string_value(v);
    if (!json_is_object(v))
        return NULL;
    json_t *f = json_object_get(v, chx_plural_category(lang, n));
    if (!json_is_string(f))
        f = json_object_get(v, "other");
    return json_is_string(f) ? json_string_value(f) : NULL;
}

const char *chx_msg_n(int lang, const char *key, long long n)
{
    const char *t = entry_text(json_object_get(cat(lang), key), lang, n);
    if (!t && lang != CHX_LANG_EN)
        t = entry_text(json_object_get(cat(CHX_LANG_EN), key), CHX_LANG_EN, n);
    return t ? t : key;
}

const char *chx_msg(int lang, const char *key)
{
    return chx_msg_n(lang, key, 2); /* a plural entry: its "other" form */
}

void chx_subst(const char *tmpl, const char *const *args, char *buf, size_t n)
{
    size_t k = 0;
    if (n == 0)
        return;
    for (const char *s = tmpl; *s && k + 1 < n;) {
        if (*s == '{') {
            const char *e = strchr(s, '}');
            if (e) {
                size_t nl = (size_t)(e - s - 1);
                const char *val = NULL;
                for (int i = 0; args && args[i]; i += 2)
                    if (strlen(args[i]) == nl && !strncmp(args[i], s + 1, nl)) {
                        val = args[i + 1] ? args[i + 1] : "";
                        break;
                    }
                if (val) {
                    size_t vl = strlen(val);
                    if (vl > n - 1 - k)
                        vl = n - 1 - k;
                    memcpy(buf + k, val, vl);
                    k += vl;
                    s = e + 1;
                    continue;
                }
            }
        }
        buf[k++] = *s++;
    }
    /* never end inside a UTF-8 sequence: drop a last character cut short */
    if (k > 0) {
        size_t j = k - 1;
        while (j > 0 && ((unsigned char)buf[j] & 0xC0) == 0x80)
            j--;
        unsigned char lead = (unsigned char)buf[j];
        size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        if (k - j < need)
            k = j;
    }
    buf[k] = '\0';
}

int chx_vformat(int lang, char *buf, size_t n, const char *key, va_list ap)
{
    const char *args[41];
    int na = 0;
    for (;;) {
        const char *name = va_arg(ap, const char *);
        if (!name || na >= 40)
            break;
        args[na++] = name;
        args[na++] = va_arg(ap, const char *);
    }
    args[na] = NULL;
    /* a plural entry takes its form from the argument "n" */
    long long count = 2;
    for (int i = 0; i < na; i += 2)
        if (!strcmp(args[i], "n") && args[i + 1])
            count = strtoll(args[i + 1], NULL, 10);
    chx_subst(chx_msg_n(lang, key, count), args, buf, n);
    return (int)strlen(buf);
}

int chx_format(int lang, char *buf, size_t n, const char *key, ...)
{
    va_list ap;
    va_start(ap, key);
    int r = chx_vformat(lang, buf, n, key, ap);
    va_end(ap);
    return r;
}

const char *chx_company(int lang, const ch_state *st, int c)
{
    if (!st || c < 0 || c >= st->ncompanies)
        return "?";
    /* "company.ga.3" without printf (a move's words ask it often) */
    char key[32] = "company.ba.";
    if (st->edition == CH_ED_GOLDEN_AGE)
        key[8] = 'g', key[9] = 'a';
    char dig[12];
    int nd = 0, k = 11;
    unsigned u = (unsigned)c;
    do {
        dig[nd++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (nd)
        key[k++] = dig[--nd];
    key[k] = '\0';
    /* chx_msg answers the key itself when no catalogue has it: that is
       this function's stack buffer, so answer "?" as for a bad index */
    const char *t = chx_msg(lang, key);
    return t == key ? "?" : t;
}

void chx_place(int lang, const char *name, char *buf, size_t n)
{
    if (n == 0)
        return;
    /* snprintf(buf, n, "%s", name) without printf: the same bytes */
    size_t l = name ? strlen(name) : 0;
    if (l > n - 1)
        l = n - 1;
    memcpy(buf, name ? name : "", l);
    buf[l] = '\0';
    if (!name || lang == CHX_LANG_EN)
        return;
    /* the district part of a plot's or card's name ("Harbour C1"): the
     * catalogue's district.* entries give its English and translated names */
    cat(CHX_LANG_EN);
    for (int i = 0; i < ndistricts; i++) {
        size_t k = districts[i].len;
        if (strncmp(name, districts[i].en, k) == 0 && (name[k] == ' ' || name[k] == '\0')) {
            /* snprintf(buf, n, "%s%s", district, rest) without printf */
            const char *d = chx_msg(lang, districts[i].key);
            size_t dl = strlen(d), rl = strlen(name + k);
            if (dl > n - 1)
                dl = n - 1;
            if (rl > n - 1 - dl)
                rl = n - 1 - dl;
            memcpy(buf, d, dl);
            memcpy(buf + dl, name + k, rl);
            buf[dl + rl] = '\0';
            return;
        }
    }
}

/* Placeholder names of a text, sorted, joined by spaces: "n player". */
static void placeholders(const char *t, char *out, size_t n)
{
    char names[16][32];
    int k = 0;
    for (const char *s = t; (s = strchr(s, '{')) != NULL; s++) {
        const char *e = strchr(s, '}');
        if (!e)
            break;
        size_t l = (size_t)(e - s - 1);
        if (l == 0 || l >= 32 || k >= 16)
            continue;
        char nm[32];
        memcpy(nm, s + 1, l);
        nm[l] = '\0';
        int dup = 0;
        for (int i = 0; i < k; i++)
            dup |= !strcmp(names[i], nm);
        if (!dup)
            strcpy(names[k++], nm);
    }
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char tmp[32];
            strcpy(tmp, names[j]);
            strcpy(names[j], names[j - 1]);
            strcpy(names[j - 1], tmp);
        }
    out[0] = '\0';
    for (int i = 0; i < k; i++) {
        strncat(out, names[i], n - strlen(out) - 1);
        if (i + 1 < k)
            strncat(out, " ", n - strlen(out) - 1);
    }
}

int chx_i18n_check(char *why, size_t n)
{
    for (int l = 0; l < CHX_NLANGS; l++) {
        if (!cat(l)) {
            snprintf(why, n, "%s", load_error[l]);
            return -1;
        }
        const char *key;
        json_t *v;
        json_object_foreach(cat(l), key, v) {
            if (json_is_object(v)) {
                /* a plural entry: the categories lang needs, all text */
                const char *need[] = {"one", "other"};
                for (int k = l == CHX_LANG_JA ? 1 : 0; k < 2; k++)
                    if (!json_is_string(json_object_get(v, need[k]))) {
                        snprintf(why, n, "%s: plural \"%s\" lacks its \"%s\" form",
                                 lang_files[l], key, need[k]);
                        return -1;
                    }
                const char *cat_name;
                json_t *f;
                json_object_foreach(v, cat_name, f)
                    if (!json_is_string(f) || (strcmp(cat_name, "one") && strcmp(cat_name, "other"))) {
                        snprintf(why, n, "%s: plural \"%s\" has \"%s\", not a text "
                                 "form of en/nl/ja (one, other)", lang_files[l], key, cat_name);
                        return -1;
                    }
                continue;
            }
            if (!json_is_string(v)) {
                snprintf(why, n, "%s: \"%s\" is not a string", lang_files[l], key);
                return -1;
            }
        }
    }
    const char *key;
    json_t *v;
    for (int l = 1; l < CHX_NLANGS; l++)
        json_object_foreach(cat(l), key, v)
            if (!json_object_get(cat(CHX_LANG_EN), key)) {
                snprintf(why, n, "%s has \"%s\", which English lacks",
                         lang_files[l], key);
                return -1;
            }
    json_object_foreach(cat(CHX_LANG_EN), key, v) {
        char pe[256], pl[256];
        placeholders(chx_msg_n(CHX_LANG_EN, key, 2), pe, sizeof pe);
        for (int l = 1; l < CHX_NLANGS; l++) {
            json_t *t = json_object_get(cat(l), key);
            if (!t) {
                snprintf(why, n, "%s lacks \"%s\"", lang_files[l], key);
                return -1;
            }
            /* every form of a plural entry has the placeholders of English's "other" */
            placeholders(chx_msg_n(l, key, 1), pl, sizeof pl);
            if (strcmp(pe, pl) == 0)
                placeholders(chx_msg_n(l, key, 2), pl, sizeof pl);
            if (strcmp(pe, pl) != 0) {
                snprintf(why, n, "%s: \"%s\" has placeholders {%s}, English "
                         "{%s}", lang_files[l], key, pl, pe);
                return -1;
            }
        }
    }
    return 0;
}

int chx_i18n_count(int lang)
{
    json_t *c = cat(lang);
    return c ? (int)json_object_size(c) : 0;
}

/* Display width of one code point: 2 for the wide East Asian ranges, 0 for
 * combining marks, else 1. A small table instead of wcwidth() so that the
 * layout does not depend on the locale the program runs in. */
static int cp_width(unsigned cp)
{
    if (cp == 0)
        return 0;
    if ((cp >= 0x300 && cp <= 0x36F) || cp == 0x200B || (cp >= 0xFE00 && cp <= 0xFE0F))
        return 0;
    if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
        (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
        (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
        (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
        (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000 && cp <= 0x3FFFD))
        return 2;
    return 1;
}

size_t chx_width_n(const char *s, size_t len)
{
    size_t w = 0;
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end && *p) {
        if (*p == 0x1B) { /* skip ANSI escape sequences (colour) */
            p++;
            if (p < end && *p == '[') {
                p++;
                while (p < end && *p && !(*p >= 0x40 && *p <= 0x7E))
                    p++;
                if (p < end && *p)
                    p++;
            }
            continue;
        }
        unsigned cp = *p;
        int extra = 0;
        if (cp >= 0xF0) { cp &= 0x07; extra = 3; }
        else if (cp >= 0xE0) { cp &= 0x0F; extra = 2; }
        else if (cp >= 0xC0) { cp &= 0x1F; extra = 1; }
        p++;
        for (int i = 0; i < extra && p < end && (*p & 0xC0) == 0x80; i++, p++)
            cp = (cp << 6) | (*p & 0x3F);
        w += (size_t)cp_width(cp);
    }
    return w;
}

size_t chx_width(const char *s)
{
    return s ? chx_width_n(s, strlen(s)) : 0;
}

size_t chx_cut(const char *s, size_t cols)
{
    size_t w = 0, i = 0, len = strlen(s);
    while (i < len) {
        size_t j = i + 1;
        if ((unsigned char)s[i] == 0x1B) {
            /* an escape sequence takes no room */
            if (j < len && s[j] == '[') {
                j++;
                while (j < len && !(s[j] >= 0x40 && s[j] <= 0x7E))
                    j++;
                if (j < len)
                    j++;
            }
            i = j;
            continue;
        }
        while (j < len && ((unsigned char)s[j] & 0xC0) == 0x80)
            j++;
        size_t cw = chx_width_n(s + i, j - i);
        if (w + cw > cols)
            break;
        w += cw;
        i = j;
    }
    return i;
}
