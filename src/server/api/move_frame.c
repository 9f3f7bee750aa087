/* move_frame.c: the frame a client sends for each move,
 * {"type":"move","move":"...","decision":N}, read without building a jansson
 * tree (a parse of it was some 17 calls to malloc and as many to free per
 * move on the event loop, and 12,000 instructions). Only that shape is read
 * here: the three members once each, in any order, with JSON whitespace
 * between tokens, the move a string of printable ASCII without escapes, the
 * decision a JSON integer of at most 18 digits. Anything else (another
 * member, an escape, a duplicate, a fraction, bad JSON) is left to jansson
 * (ws_session.c), so the answer to every frame is what it was; the unit test
 * (tests/test_move_frame.c) holds this reading to jansson's.
 */
#include <string.h>

#include "api/api.h"

static const char *ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* A string without escapes at p (its quote), its bytes printable ASCII:
 * the bytes between the quotes, or NULL. */
static const char *plain_string(const char *p, const char *end, size_t *n)
{
    if (p >= end || *p != '"')
        return NULL;
    const char *s = ++p;
    while (p < end && *p != '"') {
        unsigned char u = (unsigned char)*p;
        if (u < 0x20 || u > 0x7e || u == '\\')
            return NULL;
        p++;
    }
    if (p >= end)
        return NULL;
    *n = (size_t)(p - s);
    return s;
}

int srv_move_frame(const char *text, size_t len, char *move, size_t cap, long long *decision)
{
    const char *p = text, *end = text + len;
    int seen = 0; /* bit 0 type, 1 move, 2 decision */
    p = ws(p, end);
    if (p >= end || *p++ != '{')
        return 0;
    for (int i = 0; i < 3; i++) {
        size_t kn;
        const char *k = plain_string(ws(p, end), end, &kn);
        if (!k)
            return 0;
        p = ws(k + kn + 1, end);
        if (p >= end || *p++ != ':')
            return 0;
        p = ws(p, end);
        if (kn == 4 && !memcmp(k, "type", 4) && !(seen & 1)) {
            size_t vn;
            const char *v = plain_string(p, end, &vn);
            if (!v || vn != 4 || memcmp(v, "move", 4))
                return 0;
            p = v + vn + 1;
            seen |= 1;
        } else if (kn == 4 && !memcmp(k, "move", 4) && !(seen & 2)) {
            size_t vn;
            const char *v = plain_string(p, end, &vn);
            if (!v || vn >= cap)
                return 0;
            memcpy(move, v, vn);
            move[vn] = '\0';
            p = v + vn + 1;
            seen |= 2;
        } else if (kn == 8 && !memcmp(k, "decision", 8) && !(seen & 4)) {
            int neg = p < end && *p == '-';
            if (neg)
                p++;
            const char *d0 = p;
            long long d = 0;
            while (p < end && *p >= '0' && *p <= '9' && p - d0 < 18)
                d = d * 10 + (*p++ - '0');
            if (p == d0 || (p - d0 > 1 && *d0 == '0') ||
                (p < end && (*p == '.' || *p == 'e' || *p == 'E' || (*p >= '0' && *p <= '9'))))
                return 0; /* none, a leading zero, a fraction or more digits */
            *decision = neg ? -d : d;
            seen |= 4;
        } else {
            return 0;
        }
        p = ws(p, end);
        if (p >= end || *p++ != (i < 2 ? ',' : '}'))
            return 0;
    }
    return ws(p, end) == end && seen == 7;
}
