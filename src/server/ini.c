/* ini.c: the reader of chartered's configuration files: a plain INI text
 * into entries (section, key, value, line), or the bad lines with their
 * reasons. ini.h gives the syntax; docs/configuration.md documents it for
 * administrators. Nothing here knows a key: the caller checks them. */
#include "ini.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_error(ini_file *f, int line, const char *fmt, ...)
{
    if (f->nerrors >= INI_MAX_ERRORS) {
        f->more++;
        return;
    }
    ini_error *e = &f->errors[f->nerrors++];
    e->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->why, sizeof e->why, fmt, ap);
    va_end(ap);
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static int is_name_char(unsigned char c, int upper_ok)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || (upper_ok && c >= 'A' && c <= 'Z');
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t k;
    unsigned min;
    unsigned cp;
    if (c >= 0xc2 && c <= 0xdf) {
        k = 2;
        cp = c & 0x1f;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        k = 3;
        cp = c & 0x0f;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        k = 4;
        cp = c & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < k)
        return 0;
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return k;
}

/* A printable description of a name that was refused, for the message. */
static void shown(char *out, size_t outlen, const char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 5 < outlen; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\'') {
            out[o++] = (char)c;
        } else {
            o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", c);
        }
        if (i == 40 && n > 44) {
            snprintf(out + o, outlen - o, "...");
            return;
        }
    }
    out[o < outlen ? o : outlen - 1] = 0;
}

/* The value of a `key = value` line after '=': s[0..n), blanks trimmed.
 * Returns a malloc'd string, or NULL with *why set. */
static char *value_of(const char *s, size_t n, const char **why)
{
    while (n && is_blank(*s)) {
        s++;
        n--;
    }
    while (n && is_blank(s[n - 1]))
        n--;
    char *v = malloc(n + 1);
    if (!v) {
        *why = "out of memory";
        return NULL;
    }
    if (n >= 1 && s[0] == '"') {
        /* quoted: up to the closing quote, which must end the line */
        size_t o = 0, i = 1;
        for (; i < n; i++) {
            if (s[i] == '\\') {
                if (i + 1 < n && (s[i + 1] == '"' || s[i + 1] == '\\')) {
                    v[o++] = s[++i];
                    continue;
                }
                free(v);
                *why = "in a quoted value a backslash must come before \" or \\";
                return NULL;
            }
            if (s[i] == '"')
                break;
            v[o++] = s[i];
        }
        if (i >= n) {
            free(v);
            *why = "the quoted value has no closing quote";
            return NULL;
        }
        if (i != n - 1) {
            free(v);
            *why = "text after the closing quote (a comment goes on a line of its own)";
            return NULL;
        }
        v[o] = 0;
        return v;
    }
    memcpy(v, s, n);
    v[n] = 0;
    return v;
}

static int parse_line(ini_file *f, size_t *cap, char *section, const char *s, size_t n,
                      int line)
{
    while (n && is_blank(*s)) {
        s++;
        n--;
    }
    while (n && is_blank(s[n - 1]))
        n--;
    if (n == 0 || s[0] == '#' || s[0] == ';')
        return 0;
    char name[80];
    if (s[0] == '[') {
        if (s[n - 1] != ']') {
            add_error(f, line, "a section line must end with ']'");
            return 0;
        }
        size_t k = n - 2;
        const char *p = s + 1;
        while (k && is_blank(*p)) {
            p++;
            k--;
        }
        while (k && is_blank(p[k - 1]))
            k--;
        size_t i = 0;
        while (i < k && is_name_char((unsigned char)p[i], 1))
            i++;
        if (k == 0 || i != k || k > INI_MAX_NAME) {
            shown(name, sizeof name, p, k);
            add_error(f, line, "'%s' is not a section name (letters, digits, '.', '_', '-'; "
                      "at most %d)", name, INI_MAX_NAME);
            return 0;
        }
        memcpy(section, p, k);
        section[k] = 0;
        return 0;
    }
    const char *eq = memchr(s, '=', n);
    if (!eq) {
        shown(name, sizeof name, s, n);
        add_error(f, line, "'%s' is not 'key = value', a [section] or a comment", name);
        return 0;
    }
    size_t k = (size_t)(eq - s);
    while (k && is_blank(s[k - 1]))
        k--;
    size_t i = 0;
    while (i < k && is_name_char((unsigned char)s[i], 0))
        i++;
    if (k == 0 || i != k || k > INI_MAX_NAME) {
        shown(name, sizeof name, s, k);
        if (k == 0)
            add_error(f, line, "a line has '=' but no key before it");
        else
            add_error(f, line, "'%s' is not a key (lower-case letters, digits, '-', '_', '.'; "
                      "at most %d)", name, INI_MAX_NAME);
        return 0;
    }
    char key[INI_MAX_NAME + 1];
    memcpy(key, s, k);
    key[k] = 0;
    const ini_entry *first = ini_find(f, section, key);
    if (first) {
        add_error(f, line, "'%s' is set twice (first at line %d)", key, first->line);
        return 0;
    }
    if (f->n >= INI_MAX_ENTRIES) {
        add_error(f, line, "more than %d settings", INI_MAX_ENTRIES);
        return -1;
    }
    const char *why = NULL;
    char *v = value_of(eq + 1, n - (size_t)(eq + 1 - s), &why);
    if (!v) {
        add_error(f, line, "%s", why);
        return 0;
    }
    if (f->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        ini_entry *ne = realloc(f->entries, nc * sizeof *ne);
        if (!ne) {
            free(v);
            add_error(f, line, "out of memory");
            return -1;
        }
        f->entries = ne;
        *cap = nc;
    }
    ini_entry *e = &f->entries[f->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->section, sizeof e->section, "%s", section);
    memcpy(e->key, key, k + 1);
    e->value = v;
    e->line = line;
    return 0;
}

int ini_parse(const char *text, size_t len, ini_file *f)
{
    memset(f, 0, sizeof *f);
    size_t cap = 0;
    char section[INI_MAX_NAME + 1] = "";
    int line = 0;
    size_t pos = 0;
    /* a UTF-8 byte order mark at the start is allowed (and skipped) */
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
        pos = 3;
    while (pos < len) {
        line++;
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        size_t n = end - pos;
        if (n && text[pos + n - 1] == '\r')
            n--;
        const char *s = text + pos;
        pos = nl ? end + 1 : len;
        if (n > INI_MAX_LINE) {
            add_error(f, line, "longer than %d bytes", INI_MAX_LINE);
            continue;
        }
        const char *bad = NULL;
        for (size_t i = 0; i < n && !bad;) {
            unsigned char c = (unsigned char)s[i];
            if (c == 0) {
                bad = "a NUL byte";
            } else if (c == '\r') {
                bad = "a carriage return inside the line";
            } else {
                size_t k = utf8_len((const unsigned char *)s + i, n - i);
                if (!k)
                    bad = "bytes that are not UTF-8";
                i += k ? k : 1;
            }
        }
        if (bad) {
            add_error(f, line, "%s", bad);
            continue;
        }
        if (parse_line(f, &cap, section, s, n, line) < 0)
            break;
    }
    return f->nerrors || f->more ? -1 : 0;
}

int ini_read_file(const char *path, ini_file *f)
{
    memset(f, 0, sizeof *f);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        add_error(f, 0, "cannot read it: %s", strerror(errno));
        return -1;
    }
    /* a configuration file is small: at most INI_MAX_ENTRIES long lines */
    size_t cap = 1 << 16, n = 0, limit = (size_t)INI_MAX_ENTRIES * 256 + (1 << 20);
    char *buf = malloc(cap);
    int err = 0;
    while (buf) {
        if (n == cap) {
            if (cap >= limit) {
                err = EFBIG;
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                err = ENOMEM;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0) {
            if (ferror(fp))
                err = errno ? errno : EIO;
            break;
        }
    }
    fclose(fp);
    if (!buf || err) {
        free(buf);
        add_error(f, 0, "cannot read it: %s", err == EFBIG ? "larger than a configuration "
                  "file may be" : strerror(buf ? err : ENOMEM));
        return -1;
    }
    int rc = ini_parse(buf, n, f);
    free(buf);
    return rc;
}

void ini_free(ini_file *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->entries[i].value);
    free(f->entries);
    memset(f, 0, sizeof *f);
}

const ini_entry *ini_find(const ini_file *f, const char *section, const char *key)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->entries[i].key, key) && !strcmp(f->entries[i].section, section))
            return &f->entries[i];
    return NULL;
}
