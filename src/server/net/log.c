/* net/log.c: the server's one log (issue 35, item 3). Every line of every
 * layer, and libwebsockets', libpq's and libcurl's messages routed here,
 * comes out in one format chosen with --log-format:
 *
 *   text    2026-11-28T04:42:36.123Z info game.created: a game is made game=ab12 seats=4
 *   logfmt  time=2026-11-28T04:42:36.123Z level=info event=game.created msg="a game is made" game=ab12 seats=4
 *   json    {"time":"2026-11-28T04:42:36.123Z","level":"info","event":"game.created","msg":"a game is made","game":"ab12","seats":4}
 *
 * Each line is formatted in a buffer of its own and written with one
 * write(2) under a lock: no stdio buffer, so a line written is in the file
 * (or the pipe) at once and survives a kill -9 that follows it (issue 28:
 * "took over game" stayed in stdout's buffer and was lost), and lines of
 * several threads never mix. No field can break a line: control
 * characters are escaped in every format.
 *
 * Callers give the fields as a printf format of `key=VALUE` tokens (each
 * VALUE runs to the next space and may hold conversions, whose values may
 * hold anything); the first token that is not `key=` starts the message,
 * which runs to the end. The format is checked by the compiler like
 * printf's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "net/net.h"

#define LINE_MAX_BYTES 8192   /* a line; a longer one has its values cut ("...") */
#define VALUE_MAX 1024        /* one field's value before escaping */
#define FIELDS_MAX 16

static struct {
    srv_log_format format;
    srv_log_level min;
    int access;               /* --access-log */
    int fd;                   /* the log: standard error */
    pthread_mutex_t mu;
} L = {SRV_LOG_TEXT, SRV_LOG_INFO, 0, 2, PTHREAD_MUTEX_INITIALIZER};

static const char *const level_name[] = {"debug", "info", "warn", "error"};

int srv_log_format_parse(const char *s, srv_log_format *out)
{
    static const char *const names[] = {"text", "logfmt", "json"};
    for (int i = 0; i < 3; i++)
        if (s && !strcmp(s, names[i])) {
            *out = (srv_log_format)i;
            return 0;
        }
    return -1;
}

void srv_log_setup(srv_log_format format, srv_log_level min, int access)
{
    L.format = format;
    L.min = min;
    L.access = access;
}

int srv_log_on(srv_log_level level)
{
    return level >= L.min;
}

int srv_log_access_on(void)
{
    return L.access;
}

/* ---- one line ------------------------------------------------------------ */

typedef struct field {
    char key[40];
    char val[VALUE_MAX];
    int number;               /* the value is a number (JSON: unquoted) */
} field;

typedef struct line {
    char buf[LINE_MAX_BYTES];
    size_t n;
    int full;
    size_t cap;               /* bytes of a value or message written, then "..." */
} line;

static void put(line *l, const char *s, size_t k)
{
    /* room kept for the ending "...\n" and a JSON line's closing brace */
    size_t room = sizeof l->buf - 8;
    if (l->full)
        return;
    if (l->n + k > room) {
        k = room - l->n;
        l->full = 1;
    }
    memcpy(l->buf + l->n, s, k);
    l->n += k;
}

static void puts_(line *l, const char *s)
{
    put(l, s, strlen(s));
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 when it is not
 * one (the byte is then written as U+FFFD: a JSON reader refuses bad
 * UTF-8, and a log must always be read). */
static size_t utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    int n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] < 0xE0 ? 2
                                                                                      : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return (size_t)n;
}

/* s escaped: control characters, '"' and '\\' (quoted: JSON and logfmt's
 * quoted values; both read \n, \t, \", \\ and \u00XX). */
static void put_escaped(line *l, const char *s, int quoted)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        if ((size_t)(p - (const unsigned char *)s) >= l->cap) {
            puts_(l, "...");
            return;
        }
        char esc[8];
        if (*p == '"' && quoted) {
            puts_(l, "\\\"");
            p++;
        } else if (*p == '\\' && quoted) {
            puts_(l, "\\\\");
            p++;
        } else if (*p == '\n') {
            puts_(l, "\\n");
            p++;
        } else if (*p == '\r') {
            puts_(l, "\\r");
            p++;
        } else if (*p == '\t') {
            puts_(l, "\\t");
            p++;
        } else if (*p < 0x20 || *p == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", *p);
            puts_(l, esc);
            p++;
        } else {
            size_t k = utf8_len(p);
            if (k == 0) {
                puts_(l, "\xEF\xBF\xBD");
                p++;
            } else {
                put(l, (const char *)p, k);
                p += k;
            }
        }
    }
}

/* logfmt's value: bare when it has no space, '=', '"', control or
 * non-ASCII character and is not empty; else quoted. */
static void put_logfmt_value(line *l, const char *v)
{
    int bare = *v != 0 && strlen(v) <= l->cap;
    for (const unsigned char *p = (const unsigned char *)v; *p && bare; p++)
        if (*p <= ' ' || *p == '=' || *p == '"' || *p == '\\' || *p >= 0x7f)
            bare = 0;
    if (bare) {
        puts_(l, v);
        return;
    }
    puts_(l, "\"");
    put_escaped(l, v, 1);
    puts_(l, "\"");
}

static void put_json_string(line *l, const char *v)
{
    puts_(l, "\"");
    put_escaped(l, v, 1);
    puts_(l, "\"");
}

/* A JSON number as printf wrote it (an integer or a decimal): else quoted. */
static int is_json_number(const char *v)
{
    const char *p = v;
    if (*p == '-')
        p++;
    if (!(*p >= '0' && *p <= '9'))
        return 0;
    if (*p == '0' && p[1] >= '0' && p[1] <= '9')
        return 0;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == 0;
}

/* ---- the fields' format -------------------------------------------------- */

/* One conversion at *f (just past '%') appended to out, its argument taken
 * from ap; *f moved past it. */
static void one_conversion(const char **f, va_list *ap, char *out, size_t n)
{
    char spec[32] = "%";
    size_t k = 1;
    const char *p = *f;
    int width = -1, prec = -1, star_w = 0, star_p = 0;
    while (*p && strchr("-+ #0", *p) && k < 8)
        spec[k++] = *p++;
    if (*p == '*') {
        star_w = 1;
        p++;
    } else
        while (*p >= '0' && *p <= '9' && k < 14)
            spec[k++] = *p++;
    if (*p == '.') {
        spec[k++] = *p++;
        if (*p == '*') {
            star_p = 1;
            spec[k++] = '*';
            p++;
        } else
            while (*p >= '0' && *p <= '9' && k < 20)
                spec[k++] = *p++;
    }
    if (star_w) /* a width is kept out of a log: read and dropped */
        width = va_arg(*ap, int);
    (void)width;
    if (star_p)
        prec = va_arg(*ap, int);
    char len[3] = "";
    if (*p == 'h' || *p == 'l') {
        len[0] = *p++;
        if (*p == len[0])
            len[1] = *p++;
    } else if (*p == 'z' || *p == 'j' || *p == 't' || *p == 'L')
        len[0] = *p++;
    char conv = *p ? *p++ : 0;
    *f = p;
    memcpy(spec + k, len, strlen(len));
    k += strlen(len);
    spec[k++] = conv;
    spec[k] = 0;
    size_t used = strlen(out);
    char *o = out + used;
    size_t room = n > used ? n - used : 0;
    if (!room)
        return;
#define ONE(val) (star_p ? snprintf(o, room, spec, prec, val) : snprintf(o, room, spec, val))
    switch (conv) {
    case 'd': case 'i':
        if (!strcmp(len, "ll")) ONE(va_arg(*ap, long long));
        else if (!strcmp(len, "l")) ONE(va_arg(*ap, long));
        else if (!strcmp(len, "z")) ONE(va_arg(*ap, ssize_t));
        else if (!strcmp(len, "j")) ONE(va_arg(*ap, intmax_t));
        else if (!strcmp(len, "t")) ONE(va_arg(*ap, ptrdiff_t));
        else ONE(va_arg(*ap, int));
        break;
    case 'u': case 'x': case 'X': case 'o':
        if (!strcmp(len, "ll")) ONE(va_arg(*ap, unsigned long long));
        else if (!strcmp(len, "l")) ONE(va_arg(*ap, unsigned long));
        else if (!strcmp(len, "z")) ONE(va_arg(*ap, size_t));
        else if (!strcmp(len, "j")) ONE(va_arg(*ap, uintmax_t));
        else ONE(va_arg(*ap, unsigned));
        break;
    case 'c':
        ONE(va_arg(*ap, int));
        break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
        if (!strcmp(len, "L")) ONE(va_arg(*ap, long double));
        else ONE(va_arg(*ap, double));
        break;
    case 's': {
        const char *s = va_arg(*ap, const char *);
        ONE(s ? s : "");
        break;
    }
    case 'p':
        ONE(va_arg(*ap, void *));
        break;
    case '%':
        snprintf(o, room, "%%");
        break;
    default:
        break;
    }
#undef ONE
}

/* Text (literal and conversions) from *f up to stop (' ' or the end) into
 * out; *f moved to stop. */
static void expand(const char **f, int to_end, va_list *ap, char *out, size_t n)
{
    out[0] = 0;
    const char *p = *f;
    while (*p && (to_end || *p != ' ')) {
        if (*p == '%') {
            p++;
            one_conversion(&p, ap, out, n);
            continue;
        }
        size_t used = strlen(out);
        if (used + 1 < n) {
            out[used] = *p;
            out[used + 1] = 0;
        }
        p++;
    }
    *f = p;
}

/* The value's token at p is exactly one integer or decimal conversion
 * ("%d", "%lld", "%zu", "%.1f"): JSON writes it as a number. */
static int number_spec(const char *p)
{
    if (*p++ != '%')
        return 0;
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9')
            p++;
        return *p == 'f' && (p[1] == ' ' || !p[1]);
    }
    while (*p == 'l' || *p == 'z' || *p == 'j' || *p == 'h')
        p++;
    return (*p == 'd' || *p == 'i' || *p == 'u') && (p[1] == ' ' || !p[1]);
}

static int key_at(const char *p, size_t *klen)
{
    size_t k = 0;
    if (!((p[0] >= 'a' && p[0] <= 'z') || p[0] == '_'))
        return 0;
    while ((p[k] >= 'a' && p[k] <= 'z') || (p[k] >= '0' && p[k] <= '9') || p[k] == '_' ||
           p[k] == '.')
        k++;
    if (p[k] != '=' || k >= sizeof ((field *)0)->key)
        return 0;
    *klen = k;
    return 1;
}

/* ---- writing -------------------------------------------------------------- */

static void write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void stamp(char out[32])
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t k = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + k, 32 - k, ".%03dZ", (int)(ts.tv_nsec / 1000000));
}

/* The fields as " key=value", as text and logfmt lines end alike. */
static void put_logfmt_fields(line *l, const field *fs, int nf)
{
    for (int i = 0; i < nf; i++) {
        puts_(l, " ");
        puts_(l, fs[i].key);
        puts_(l, "=");
        put_logfmt_value(l, fs[i].val);
    }
}

/* The line of (level, event, msg, fields) in the format chosen, each value
 * cut at l->cap bytes. */
static void format_once(line *l, const char *t, srv_log_level level, const char *event,
                        const char *msg, const field *fs, int nf)
{
    const char *lv = level_name[level];
    l->n = 0;
    l->full = 0;
    switch (L.format) {
    case SRV_LOG_TEXT:
        puts_(l, t);
        puts_(l, " ");
        puts_(l, lv);
        puts_(l, " ");
        put_escaped(l, event, 0);
        if (msg && *msg) {
            puts_(l, ": ");
            put_escaped(l, msg, 0);
        }
        put_logfmt_fields(l, fs, nf);
        break;
    case SRV_LOG_LOGFMT:
        puts_(l, "time=");
        puts_(l, t);
        puts_(l, " level=");
        puts_(l, lv);
        puts_(l, " event=");
        put_logfmt_value(l, event);
        if (msg && *msg) {
            puts_(l, " msg=");
            put_logfmt_value(l, msg);
        }
        put_logfmt_fields(l, fs, nf);
        break;
    case SRV_LOG_JSON:
        puts_(l, "{\"time\":\"");
        puts_(l, t);
        puts_(l, "\",\"level\":\"");
        puts_(l, lv);
        puts_(l, "\",\"event\":");
        put_json_string(l, event);
        if (msg && *msg) {
            puts_(l, ",\"msg\":");
            put_json_string(l, msg);
        }
        for (int i = 0; i < nf; i++) {
            puts_(l, ",\"");
            puts_(l, fs[i].key);
            puts_(l, "\":");
            if (fs[i].number && is_json_number(fs[i].val))
                puts_(l, fs[i].val);
            else
                put_json_string(l, fs[i].val);
        }
        break;
    }
    if (!l->full && L.format == SRV_LOG_JSON)
        puts_(l, "}");
}

static void format_line(line *l, srv_log_level level, const char *event, const char *msg,
                        const field *fs, int nf)
{
    char t[32];
    stamp(t);
    l->cap = (size_t)-1;
    format_once(l, t, level, event, msg, fs, nf);
    if (l->full) {
        /* too long (values of control characters are escaped six bytes
           each): written again with each value and the message cut so that
           the whole fits, every quote closed */
        l->cap = (LINE_MAX_BYTES - 1600) / (((size_t)nf + 1) * 6 + 6);
        format_once(l, t, level, event, msg, fs, nf);
        if (l->full) { /* cannot happen with keys of at most 39 bytes: "..." each */
            l->cap = 0;
            format_once(l, t, level, event, msg, fs, nf);
        }
    }
    l->buf[l->n++] = '\n';
}

static void emit(int fd, const line *l)
{
    pthread_mutex_lock(&L.mu);
    write_all(fd, l->buf, l->n);
    pthread_mutex_unlock(&L.mu);
}

/* Parse fmt against ap into the message and fields. */
static int gather(const char *fmt, va_list *ap, field *fs, char *msg, size_t msgn)
{
    int nf = 0;
    msg[0] = 0;
    const char *p = fmt;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t klen;
        if (nf < FIELDS_MAX && key_at(p, &klen)) {
            field *f = &fs[nf++];
            memcpy(f->key, p, klen);
            f->key[klen] = 0;
            p += klen + 1;
            f->number = number_spec(p);
            expand(&p, 0, ap, f->val, sizeof f->val);
            continue;
        }
        expand(&p, 1, ap, msg, msgn);
    }
    return nf;
}

static void vlog(int fd, srv_log_level level, const char *event, const char *fmt, va_list *ap)
{
    /* on the heap: a line's parts are 26 KB, too much for some threads'
       stacks (and for static TLS in a library) */
    struct {
        field fs[FIELDS_MAX];
        char msg[VALUE_MAX * 2];
        line l;
    } *w = malloc(sizeof *w);
    if (!w)
        return;
    int nf = gather(fmt ? fmt : "", ap, w->fs, w->msg, sizeof w->msg);
    format_line(&w->l, level, event, w->msg, w->fs, nf);
    emit(fd, &w->l);
    free(w);
}

void srv_logf(srv_log_level level, const char *event, const char *fmt, ...)
{
    if (level < L.min)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(L.fd, level, event, fmt, &ap);
    va_end(ap);
}

void srv_log_access(const char *fmt, ...)
{
    if (!L.access)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(L.fd, SRV_LOG_INFO, "http.request", fmt, &ap);
    va_end(ap);
}

/* Standard output and the log are the same file (`>log 2>&1`, systemd's
 * journal): the start line is written once. */
static int stdout_is_log(void)
{
    struct stat a, b;
    return fstat(1, &a) == 0 && fstat(L.fd, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

void srv_log_announce(const char *event, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int same = stdout_is_log();
    vlog(1, SRV_LOG_INFO, event, fmt, &ap);
    if (!same && SRV_LOG_INFO >= L.min)
        vlog(L.fd, SRV_LOG_INFO, event, fmt, &ap2);
    va_end(ap2);
    va_end(ap);
}

void srv_log_moderation(const char *action, const char *moderator, const char *target,
                        const char *reason, int64_t until_ms)
{
    char until[32] = "";
    if (until_ms > 0) {
        time_t s = (time_t)(until_ms / 1000);
        struct tm tm;
        gmtime_r(&s, &tm);
        strftime(until, sizeof until, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    srv_logf(SRV_LOG_WARN, "moderation", "action=%s moderator=%s target=%s until=%s reason=%s",
            action ? action : "", moderator ? moderator : "", target ? target : "", until,
            reason ? reason : "");
}

/* libwebsockets' lines (lws_set_log_level's emit function): its level
 * mapped to ours, the line without its newline, as the message of an
 * "lws" event. */
void srv_log_lws(int lll, const char *text)
{
    srv_log_level level = lll & LLL_ERR ? SRV_LOG_ERROR : lll & LLL_WARN ? SRV_LOG_WARN
                        : lll & (LLL_NOTICE | LLL_USER) ? SRV_LOG_INFO : SRV_LOG_DEBUG;
    if (level < L.min)
        return;
    char buf[VALUE_MAX];
    snprintf(buf, sizeof buf, "%s", text ? text : "");
    size_t n = strlen(buf);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
        buf[--n] = 0;
    srv_logf(level, "lws", "%s", buf);
}

int srv_log_lws_levels(void)
{
    /* as before the one format: errors, and warnings unless --quiet */
    return L.min <= SRV_LOG_INFO ? LLL_ERR | LLL_WARN : LLL_ERR;
}

void srv_log_one_line(char *s, size_t cap)
{
    /* libpq's messages are several lines ("FATAL:  ...\nDETAIL:  ..."):
       each line break, with the blanks around it, becomes "; " (a space
       before an indented line) */
    char *out = malloc(cap ? cap : 1);
    if (!out || !cap) {
        free(out);
        return;
    }
    size_t k = 0;
    for (const char *p = s; *p && k + 1 < cap;) {
        if (*p == '\n' || *p == '\r') {
            while (k && (out[k - 1] == ' ' || out[k - 1] == '\t'))
                k--;
            while (*p == '\n' || *p == '\r')
                p++;
            /* an indented line that starts in lower case goes on the
               sentence before it (libpq's "terminated abnormally\n\tbefore
               or while ..."): a space */
            int goes_on = *p == ' ' || *p == '\t';
            while (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')
                p++;
            if (*p && k && k + 3 < cap) {
                if (!goes_on || (*p >= 'A' && *p <= 'Z')) /* a sentence of its own */
                    out[k++] = ';';
                out[k++] = ' ';
            }
            continue;
        }
        out[k++] = *p == '\t' ? ' ' : *p;
        p++;
    }
    while (k && out[k - 1] == ' ')
        k--;
    out[k] = 0;
    memcpy(s, out, k + 1);
    free(out);
}
