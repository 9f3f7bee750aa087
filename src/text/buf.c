/* buf.c: a growing text buffer for building messages (protocol lines, JSON
 * frames, screens). Out of memory is sticky: the buffer sets oom, drops
 * further text, and the caller checks once at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "text.h"

void chx_buf_add(chx_buf *b, const char *t, size_t len)
{
    if (b->oom)
        return;
    if (b->len + len + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 4096;
        while (nc < b->len + len + 1)
            nc *= 2;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
    memcpy(b->s + b->len, t, len);
    b->len += len;
    b->s[b->len] = '\0';
}

void chx_buf_puts(chx_buf *b, const char *t)
{
    chx_buf_add(b, t, strlen(t));
}
