/* buf.c: a growing text buffer for building messages (protocol lines, JSON
 * frames, screens). Out of memory is sticky: the buffer sets oom, drops
 * further text, and the caller checks once at the end. Also the two JSON
 * scalars the server's state frames are written with (a frame goes to every
 * client after every move, and building it as a jansson tree cost as much as
 * the view in it): strings with RFC 8259 escapes, and integers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* Room for len more bytes and the terminator; 0, or -1 with oom set. */
static int reserve(chx_buf *b, size_t len)
{
    if (b->len + len + 1 <= b->cap)
        return 0;
    size_t nc = b->cap ? b->cap : 4096;
    while (nc < b->len + len + 1)
        nc *= 2;
    char *ns = realloc(b->s, nc);
    if (!ns) {
        b->oom = 1;
        return -1;
    }
    b->s = ns;
    b->cap = nc;
    return 0;
}

void chx_buf_add(chx_buf *b, const char *t, size_t len)
{
    if (b->oom || reserve(b, len) != 0)
        return;
    memcpy(b->s + b->len, t, len);
    b->len += len;
    b->s[b->len] = '\0';
}

void chx_buf_again(chx_buf *b, size_t at, size_t n)
{
    if (b->oom || at > b->len || n > b->len - at || reserve(b, n) != 0)
        return;
    memcpy(b->s + b->len, b->s + at, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void chx_buf_puts(chx_buf *b, const char *t)
{
    chx_buf_add(b, t, strlen(t));
}

void chx_buf_json_str(chx_buf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    chx_buf_add(b, "\"", 1);
    const char *run = s;
    for (; *s; s++) {
        unsigned char u = (unsigned char)*s;
        if (u >= 0x20 && u != '"' && u != '\\')
            continue;
        chx_buf_add(b, run, (size_t)(s - run));
        char esc[7] = {'\\', (char)u, 0};
        size_t n = 2;
        switch (u) {
        case '"': case '\\': break;
        case '\n': esc[1] = 'n'; break;
        case '\t': esc[1] = 't'; break;
        case '\r': esc[1] = 'r'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[u >> 4];
            esc[5] = hex[u & 15];
            n = 6;
        }
        chx_buf_add(b, esc, n);
        run = s + 1;
    }
    chx_buf_add(b, run, (size_t)(s - run));
    chx_buf_add(b, "\"", 1);
}

void chx_buf_int(chx_buf *b, long long v)
{
    /* digits written backwards, without printf: the server writes a few
       numbers into every frame's head, and snprintf was most of their cost */
    char t[24];
    int k = (int)sizeof t;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        t[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        t[--k] = '-';
    chx_buf_add(b, t + k, sizeof t - (size_t)k);
}

void chx_buf_member_int(chx_buf *b, const char *lead, long long v)
{
    chx_buf_puts(b, lead);
    chx_buf_int(b, v);
}
