/* reason.c: the library's reasons (a refused move, a move text not
 * understood) in the player's language. The library writes every reason in
 * English into ch_msg.text and records the English printf format and its
 * arguments as text (src/core/status.c). The format is the key of the
 * translation: the catalogue entry "why.<format>" holds the text with {1},
 * {2}, ... for the arguments in the format's order, so a language may put
 * them where its grammar wants them. Arguments that are themselves English
 * phrases of the library ("make a sealed bid", "your") are translated too
 * (entries "why.arg.<phrase>"), and so are company names and the district
 * of a plot or card the library names ("Haven F4", as the terminal's list of
 * moves writes it, notation.c); the player's own text and event names stay
 * as written. Whatever lacks a translation is shown in
 * English: a gap is visible, never fatal (tests/test_reasons.c keeps every
 * format of the library translated).
 */
#include <stdio.h>
#include <string.h>

#include "text.h"

/* The text of key in lang alone (no English fallback), or NULL. */
static const char *lookup(int lang, const char *key)
{
    const char *t = chx_msg(lang, key);
    if (t == key)
        return NULL; /* no language has it */
    if (lang != CHX_LANG_EN && t == chx_msg(CHX_LANG_EN, key))
        return NULL; /* English stood in */
    return t;
}

/* For each argument of fmt in order: 1 when it came from a plain "%s" (text
 * of the library, which may be a phrase or a company name), 0 for numbers,
 * characters and "%.*s" (the player's own text). Returns the count, or -1
 * when fmt has a conversion this does not know. */
static int arg_kinds(const char *fmt, int *kind, int max)
{
    int n = 0;
    for (const char *s = fmt; *s; s++) {
        if (*s != '%')
            continue;
        s++;
        if (*s == '%')
            continue;
        int precision = 0;
        while (*s && strchr("-+ #0123456789*", *s))
            s++;
        if (*s == '.') {
            precision = 1;
            s++;
            while (*s && strchr("0123456789*", *s))
                s++;
        }
        while (*s && strchr("hlzjtL", *s))
            s++;
        if (!*s || !strchr("diouxXcspfeEgGaA", *s) || n >= max)
            return -1;
        kind[n++] = *s == 's' && !precision;
    }
    return n;
}

/* An English company name of either edition in lang, or NULL. */
static const char *company(int lang, const char *name)
{
    char key[32];
    for (int ed = 0; ed < 2; ed++)
        for (int c = 0; c < CH_MAX_COMPANIES; c++) {
            snprintf(key, sizeof key, "company.%s.%d", ed ? "ga" : "ba", c);
            const char *en = lookup(CHX_LANG_EN, key);
            if (en && !strcmp(en, name))
                return lookup(lang, key);
        }
    return NULL;
}

int chx_reason(int lang, const ch_msg *why, char *buf, size_t n)
{
    if (!buf || n == 0)
        return 0;
    buf[0] = '\0';
    if (!why)
        return 0;
    const char *tmpl = NULL;
    int kind[CH_MSG_NARGS];
    char key[600];
    if (lang != CHX_LANG_EN && ch_msg_recorded(why) &&
        arg_kinds(why->fmt, kind, CH_MSG_NARGS) == why->nargs &&
        snprintf(key, sizeof key, "why.%s", why->fmt) < (int)sizeof key)
        tmpl = lookup(lang, key);
    if (!tmpl) {
        /* English, or no translation: the library's own text */
        chx_subst("{t}", (const char *const[]){"t", why->text, NULL}, buf, n);
        return (int)strlen(buf);
    }
    static const char *const names[CH_MSG_NARGS] = {"1", "2", "3", "4", "5", "6"};
    const char *args[2 * CH_MSG_NARGS + 1];
    char placed[CH_MSG_NARGS][CH_MSG_ARGLEN + 64];
    int k = 0;
    for (int i = 0; i < why->nargs; i++) {
        const char *v = why->args[i];
        if (kind[i]) {
            char akey[CH_MSG_ARGLEN + 16];
            snprintf(akey, sizeof akey, "why.arg.%s", v);
            const char *t = lookup(lang, akey);
            if (!t)
                t = company(lang, v);
            if (!t) {
                /* a plot or card the library named ("Harbour F4"): its
                 * district in lang, as the list of moves shows it */
                chx_place(lang, v, placed[i], sizeof placed[i]);
                if (strcmp(placed[i], v))
                    t = placed[i];
            }
            if (t)
                v = t;
        }
        args[k++] = names[i];
        args[k++] = v;
    }
    args[k] = NULL;
    chx_subst(tmpl, args, buf, n);
    return (int)strlen(buf);
}
