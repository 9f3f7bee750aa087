/* status.c: status codes in words, and the helper that fills a ch_msg (in
 * English, and recorded for translation by the front ends). */
#include "internal.h"

#include <stdint.h>

const char *ch_strerror(int code)
{
    static const char *const names[CH_NCODES] = {
        [CH_OK] = "ok",
        [CH_EINVAL] = "invalid argument",
        [CH_ESYNTAX] = "move not understood",
        [CH_EILLEGAL] = "illegal move",
        [CH_ETURN] = "not this player's decision",
        [CH_EOVER] = "the game is over",
        [CH_EFORMAT] = "malformed board, arrangement, position or variant",
        [CH_EJSON] = "malformed or inconsistent JSON",
        [CH_ENOMEM] = "out of memory",
        [CH_EINVARIANT] = "state check failed",
    };
    if (code < 0 || code >= CH_NCODES)
        return "unknown status code";
    return names[code];
}

/* ---- messages ---------------------------------------------------------------
 * A refusal is written in English into why->text, and recorded for the front
 * ends that speak other languages: the format itself (a string literal, which
 * is the key of its translations in data/i18n) and each argument turned into
 * text, so that a translation can put them where its grammar wants them
 * (src/text/reason.c). Nothing of this happens when why is NULL, which is how
 * the bots and the legal-move generator call. */

/* FNV-1a over the bytes of a text, continuing from h. */
static uint32_t fnv(uint32_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    return h;
}

static uint32_t seal_of(const ch_msg *m)
{
    uint32_t h = fnv(2166136261u, m->text, strnlen(m->text, sizeof m->text));
    uintptr_t f = (uintptr_t)m->fmt;
    h = fnv(h, &f, sizeof f);
    h = fnv(h, &m->nargs, sizeof m->nargs);
    for (int i = 0; i < m->nargs && i < CH_MSG_NARGS; i++)
        h = fnv(h, m->args[i], strnlen(m->args[i], CH_MSG_ARGLEN));
    return h ? h : 1;
}

int ch_msg_recorded(const ch_msg *m)
{
    return m && m->fmt && m->nargs >= 0 && m->nargs <= CH_MSG_NARGS &&
           m->seal == seal_of(m);
}

/* Cut a text that did not fit back to the last whole UTF-8 character. */
static void utf8_trim(char *s, size_t len)
{
    if (len == 0)
        return;
    size_t j = len - 1;
    while (j > 0 && ((unsigned char)s[j] & 0xC0) == 0x80)
        j--;
    unsigned char lead = (unsigned char)s[j];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (len - j < need)
        s[j] = '\0';
}

/* Record fmt's arguments in why->args: each conversion is printed alone with
 * its own flags, width and precision (a '*' is read from the arguments and
 * written into the conversion), so an argument reads exactly as in text.
 * Returns 0, or -1 for a conversion this does not know (then nothing is
 * recorded and the message is shown in English). */
static int record_args(ch_msg *why, const char *fmt, va_list ap)
{
    why->nargs = 0;
    for (const char *s = fmt; *s; s++) {
        if (*s != '%')
            continue;
        const char *start = ++s;
        if (*s == '%')
            continue;
        char spec[48] = "%";
        size_t k = 1;
        while (*s && strchr("-+ #0", *s))
            s++;
        memcpy(spec + k, start, (size_t)(s - start));
        k += (size_t)(s - start);
        if (*s == '*') {
            int w = va_arg(ap, int);
            /* a negative width is the '-' flag and its absolute value */
            k += (size_t)snprintf(spec + k, sizeof spec - k, w < 0 ? "-%u" : "%u",
                                  w < 0 ? 0u - (unsigned)w : (unsigned)w);
            s++;
        } else {
            while (*s >= '0' && *s <= '9' && k < 20)
                spec[k++] = *s++;
        }
        if (*s == '.') {
            s++;
            if (*s == '*') {
                int p = va_arg(ap, int);
                if (p >= 0)
                    k += (size_t)snprintf(spec + k, sizeof spec - k, ".%d", p);
                s++;
            } else {
                spec[k++] = '.';
                while (*s >= '0' && *s <= '9' && k < 36)
                    spec[k++] = *s++;
            }
        }
        const char *len = s;
        while (*s && strchr("hlzjtL", *s))
            s++;
        size_t ll = (size_t)(s - len);
        if (ll > 2 || !*s || k + ll + 2 > sizeof spec || why->nargs >= CH_MSG_NARGS)
            return -1;
        memcpy(spec + k, len, ll);
        k += ll;
        spec[k++] = *s;
        spec[k] = '\0';
        char *out = why->args[why->nargs++];
        const size_t n = CH_MSG_ARGLEN;
        int r;
        int big = ll == 2 && len[0] == 'l';    /* ll */
        int lng = ll == 1 && len[0] == 'l';    /* l  */
        char c = *s;
        if (c == 'd' || c == 'i' || c == 'u' || c == 'x' || c == 'X' || c == 'o') {
            /* the argument as passed (promoted), printed by its own spec */
            if (big)
                r = snprintf(out, n, spec, va_arg(ap, long long));
            else if (lng)
                r = snprintf(out, n, spec, va_arg(ap, long));
            else if (ll == 1 && len[0] == 'z')
                r = snprintf(out, n, spec, va_arg(ap, size_t));
            else if (ll == 1 && len[0] == 'j')
                r = snprintf(out, n, spec, va_arg(ap, intmax_t));
            else if (ll == 1 && len[0] == 't')
                r = snprintf(out, n, spec, va_arg(ap, ptrdiff_t));
            else if (ll == 0 || len[0] == 'h')
                r = snprintf(out, n, spec, va_arg(ap, int));
            else
                return -1;
        } else if (c == 'c' && ll == 0) {
            r = snprintf(out, n, spec, va_arg(ap, int));
        } else if (c == 's' && ll == 0) {
            const char *t = va_arg(ap, const char *);
            r = snprintf(out, n, spec, t ? t : "(null)");
        } else if (c == 'p' && ll == 0) {
            r = snprintf(out, n, spec, va_arg(ap, void *));
        } else if (strchr("feEgGaA", c) && ll == 0) {
            r = snprintf(out, n, spec, va_arg(ap, double));
        } else {
            return -1; /* %n, %ls, %Lf...: not used by the library's messages */
        }
        if (r < 0)
            return -1;
        if ((size_t)r >= n)
            utf8_trim(out, strlen(out));
    }
    return 0;
}

int ch_msg_vfail(ch_msg *why, int code, const char *fmt, va_list ap)
{
    if (!why)
        return code;
    va_list aq;
    va_copy(aq, ap);
    vsnprintf(why->text, sizeof why->text, fmt, aq);
    va_end(aq);
    why->fmt = fmt;
    if (record_args(why, fmt, ap) != 0) {
        why->fmt = NULL;
        why->nargs = 0;
    }
    why->seal = seal_of(why);
    return code;
}

int fail(ch_msg *why, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ch_msg_vfail(why, code, fmt, ap);
    va_end(ap);
    return code;
}

void ch_msg_clear(ch_msg *why)
{
    if (!why)
        return;
    why->text[0] = '\0';
    why->fmt = NULL;
    why->nargs = 0;
    why->seal = seal_of(why);
}
