/* jsondiff.c: the JSON Patch (RFC 6902) that turns one view into the next,
 * for the state frames sent as deltas (docs/protocol.md, "Frames as
 * deltas"). Both documents are the compact JSON text the library writes
 * (ch_view_json), so the diff walks the two texts side by side without
 * building trees: equal spans are skipped with one memcmp, objects are
 * matched by key (members added, removed, or diffed in place), arrays
 * element by element (then added or removed at the end), and anything else
 * that differs is replaced. A container whose operations would take more
 * bytes than its new value is replaced whole instead. It runs on the view
 * workers (views.c), once per move and perspective, and its result is shared
 * by every client of that perspective. The perspectives of one move share a
 * memo (srv_jmemo) of the root members' operations: a member unchanged in a
 * perspective is passed over at once, a changed one is looked up in the memo
 * from the entry after the last one used (docs/performance.md).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game/game_impl.h"

#define MAX_MEMBERS 256 /* per object or array; beyond: replaced whole */

typedef struct span {
    const char *s;
    size_t n;
} span;

/* A document's text and, for each '{' or '[' in it, the offset just past
 * its matching bracket (written in one pass at the start), so that the end
 * of a container is found at once instead of by scanning it again at each
 * level of the walk. */
typedef struct doc {
    const char *base;
    srv_jidx ix;                /* {offset of a '{' or '[', offset past its end,
                                   the next entry not inside it}, by offset */
} doc;

/* The bytes that matter to the structure: quotes and brackets. */
static const unsigned char structural[256] = {
    ['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1};

static int doc_index(doc *d, const char *text, size_t n)
{
    d->base = text;
    srv_jidx *x = &d->ix;
    x->cap = n / 16 + 64;
    x->n = 0;
    x->pair = malloc(x->cap * sizeof *x->pair);
    if (!x->pair)
        return -1;
    uint32_t stack[256];
    int depth = 0;
    const unsigned char *t = (const unsigned char *)text;
    size_t i = 0;
    for (;; i++) {
        while (i < n && !structural[t[i]])
            i++;
        if (i >= n)
            break;
        unsigned char ch = t[i];
        if (ch == '"') {
            /* the closing quote: the next one not escaped (an odd run of
               backslashes before it escapes it) */
            for (;;) {
                const unsigned char *q = memchr(t + i + 1, '"', n - i - 1);
                if (!q)
                    return -1;
                i = (size_t)(q - t);
                size_t k = i;
                while (t[k - 1] == '\\')
                    k--;
                if ((i - k) % 2 == 0)
                    break;
            }
        } else if (ch == '{' || ch == '[') {
            if (depth == 256)
                return -1;
            if (x->n == x->cap) {
                void *np = realloc(x->pair, 2 * x->cap * sizeof *x->pair);
                if (!np)
                    return -1;
                x->pair = np;
                x->cap *= 2;
            }
            x->pair[x->n][0] = (uint32_t)i;
            x->pair[x->n][1] = x->pair[x->n][2] = 0;
            stack[depth++] = (uint32_t)x->n++;
        } else {
            if (depth == 0)
                return -1;
            depth--;
            x->pair[stack[depth]][1] = (uint32_t)(i + 1);
            x->pair[stack[depth]][2] = (uint32_t)x->n;
        }
    }
    return depth == 0 ? 0 : -1;
}

void srv_jidx_free(srv_jidx *x)
{
    if (x) {
        free(x->pair);
        memset(x, 0, sizeof *x);
    }
}

/* The index entry of the container at p (by binary search), or -1. */
static long entry_of(const doc *d, const char *p)
{
    uint32_t off = (uint32_t)(p - d->base);
    size_t lo = 0, hi = d->ix.n;
    if (!hi)
        return -1;
    while (lo + 1 < hi) {
        size_t mid = (lo + hi) / 2;
        if (d->ix.pair[mid][0] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return d->ix.pair[lo][0] == off ? (long)lo : -1;
}

/* The bytes that end a number, true, false or null in compact text. */
static const unsigned char scalar_end[256] = {[','] = 1, ['}'] = 1, [']'] = 1};

/* The end of the JSON string starting at p (its opening quote): the next
 * quote not escaped (an odd run of backslashes before it escapes it), found
 * with memchr (a key or name is some 10 bytes, and keys are most of what a
 * diff reads: a loop over each byte was a sixth of its instructions). */
static const char *skip_string(const char *p, const char *end)
{
    const char *q = p + 1;
    while (q < end) {
        const char *c = memchr(q, '"', (size_t)(end - q));
        if (!c)
            return end;
        const char *k = c;
        while (k > p + 1 && k[-1] == '\\')
            k--;
        if ((c - k) % 2 == 0)
            return c + 1;
        q = c + 1;
    }
    return end;
}

/* The end of the JSON value starting at p (compact text, already valid). */
static const char *skip_value(const doc *d, const char *p, const char *end)
{
    if (p >= end)
        return end;
    if (*p == '"')
        return skip_string(p, end);
    if (*p == '{' || *p == '[') { /* its pair, by binary search */
        long e = entry_of(d, p);
        return e >= 0 ? d->base + d->ix.pair[e][1] : end;
    }
    while (p < end && !scalar_end[(unsigned char)*p])
        p++;
    return p;
}

/* The members of an object (keys with their quotes) or the elements of an
 * array: -1 when there are more than MAX_MEMBERS. */
static int members(const doc *d, span v, span *keys, span *vals)
{
    const char *p = v.s + 1, *end = v.s + v.n - 1;
    int obj = v.s[0] == '{', k = 0;
    /* the containers inside v come in the index in text order, each one's
       entry naming the next sibling's: no search for each member */
    long at = entry_of(d, v.s);
    size_t cur = at >= 0 ? (size_t)at + 1 : d->ix.n;
    while (p < end) {
        if (k == MAX_MEMBERS)
            return -1;
        if (obj) {
            const char *ke = *p == '"' ? skip_string(p, end) : skip_value(d, p, end);
            keys[k].s = p;
            keys[k].n = (size_t)(ke - p);
            p = ke + 1; /* the colon */
        }
        const char *ve;
        if ((*p == '{' || *p == '[') && cur < d->ix.n &&
            d->ix.pair[cur][0] == (uint32_t)(p - d->base)) {
            ve = d->base + d->ix.pair[cur][1];
            cur = d->ix.pair[cur][2];
        } else {
            ve = skip_value(d, p, end);
        }
        vals[k].s = p;
        vals[k].n = (size_t)(ve - p);
        k++;
        p = ve < end && *ve == ',' ? ve + 1 : ve;
    }
    return k;
}

/* The operations of the root's members in one diff, for the next diffs of
 * other perspectives of the same move: a member whose old and new texts are
 * the same bytes as here gets the same operations (the members every viewer
 * sees alike, most of a view). The memo's key and texts point into the
 * documents of the diff that filled it, which the caller keeps until the
 * memo is reset (views.c: the job's views); the operations are copied into
 * the memo's one buffer, kept from move to move (no allocation per member:
 * copying each was half of a move's calls to malloc). */
#define MEMO_MAX 32
typedef struct memo_member {
    const char *key, *a, *b;
    size_t kn, an, bn, op0, on; /* ops: at op0 in the memo's buffer, without a leading comma */
    int nops;
} memo_member;
/* And the operations of the changed elements and members of the root's
 * members, noted by any diff that found none to copy: the players' elements
 * differ from one perspective to the next in the player's own hidden
 * information only, so each other player's element changes alike for all. */
#define MEMO_KIDS 64
typedef struct memo_kid {
    const char *pkey, *key, *a, *b; /* the root member's key; the element's
                                       key, or NULL: index */
    size_t pkn, kn, an, bn, op0, on;
    int index, nops;
} memo_kid;
struct srv_jmemo {
    int n, nkids;
    memo_member m[MEMO_MAX];
    memo_kid kid[MEMO_KIDS];
    chx_buf ops;
};

srv_jmemo *srv_jmemo_new(void)
{
    return calloc(1, sizeof(srv_jmemo));
}

void srv_jmemo_reset(srv_jmemo *mm)
{
    if (mm) {
        mm->n = 0;
        mm->nkids = 0;
        mm->ops.len = 0;
        mm->ops.oom = 0;
    }
}

void srv_jmemo_free(srv_jmemo *mm)
{
    if (!mm)
        return;
    free(mm->ops.s);
    free(mm);
}

/* The path of the value being diffed is kept as segments (an object's key
 * or an array's index) and written out as a JSON Pointer only when an
 * operation needs it: most members compared emit nothing, and writing each
 * one's path was a sixth of a diff's instructions. */
#define MAX_DEPTH 256
typedef struct seg {
    const char *key;            /* the key's JSON text with quotes, or NULL: */
    size_t n;
    int index;                  /* an array index */
} seg;

typedef struct diff_ctx {
    doc a, b;
    srv_jmemo *memo;            /* NULL: none */
    int memo_fill;              /* this diff fills it (it was empty) */
    chx_buf *out;
    int nops;
    int err;                    /* a path too long to write */
    int depth;                  /* segments of the current path */
    int rendered;               /* of them, written in path */
    size_t plen;                /* path's length: of the rendered segments */
    size_t seg_end[MAX_DEPTH];  /* where each rendered segment ends in path */
    seg seg[MAX_DEPTH];
    char path[2048];
} diff_ctx;

static int push_key(diff_ctx *d, span key)
{
    if (d->depth == MAX_DEPTH)
        return -1;
    d->seg[d->depth++] = (seg){key.s, key.n, 0};
    return 0;
}

static int push_index(diff_ctx *d, int i)
{
    if (d->depth == MAX_DEPTH)
        return -1;
    d->seg[d->depth++] = (seg){NULL, 0, i};
    return 0;
}

/* Back to depth (the segments after it dropped). */
static void pop_to(diff_ctx *d, int depth)
{
    d->depth = depth;
    if (d->rendered > depth)
        d->rendered = depth;
}

/* Write the path's segments not yet written: an object key as a JSON
 * Pointer token ("~" as "~0", "/" as "~1", other escapes as they are), an
 * array index in digits. -1 (and err) when it does not fit. */
static int render_path(diff_ctx *d)
{
    size_t n = d->rendered ? d->seg_end[d->rendered - 1] : 0;
    for (; d->rendered < d->depth; d->rendered++) {
        const seg *g = &d->seg[d->rendered];
        if (g->key) {
            span key = {g->key, g->n};
            if (n + key.n * 2 + 2 >= sizeof d->path) {
                d->err = 1;
                return -1;
            }
            d->path[n++] = '/';
            for (size_t i = 1; i + 1 < key.n; i++) {
                char ch = key.s[i];
                if (ch == '\\' && i + 2 < key.n && key.s[i + 1] == '/') {
                    d->path[n++] = '~';
                    d->path[n++] = '1';
                    i++;
                } else if (ch == '\\') { /* an escape: copied as it is, both bytes */
                    d->path[n++] = ch;
                    d->path[n++] = key.s[++i];
                } else if (ch == '~' || ch == '/') {
                    d->path[n++] = '~';
                    d->path[n++] = ch == '~' ? '0' : '1';
                } else {
                    d->path[n++] = ch;
                }
            }
        } else {
            char num[16]; /* "/" and the digits, written backwards (no printf
                             here: it was a tenth of the diff's time) */
            int k = 16, i = g->index;
            do {
                num[--k] = (char)('0' + i % 10);
                i /= 10;
            } while (i > 0 && k > 1);
            num[--k] = '/';
            size_t len = (size_t)(16 - k);
            if (n + len >= sizeof d->path) {
                d->err = 1;
                return -1;
            }
            memcpy(d->path + n, num + k, len);
            n += len;
        }
        d->seg_end[d->rendered] = n;
    }
    d->plen = n;
    return 0;
}

static void op(diff_ctx *d, const char *name, const span *value)
{
    if (d->err || render_path(d) != 0)
        return;
    chx_buf_puts(d->out, d->nops++ ? ",{\"op\":\"" : "{\"op\":\"");
    chx_buf_puts(d->out, name);
    chx_buf_puts(d->out, "\",\"path\":\"");
    chx_buf_add(d->out, d->path, d->plen);
    if (value) {
        chx_buf_puts(d->out, "\",\"value\":");
        chx_buf_add(d->out, value->s, value->n);
        chx_buf_add(d->out, "}", 1);
    } else {
        chx_buf_puts(d->out, "\"}");
    }
}

/* A context ready for a diff (its large arrays are written before read). */
static void ctx_init(diff_ctx *d)
{
    memset(&d->a, 0, sizeof d->a);
    memset(&d->b, 0, sizeof d->b);
    d->memo = NULL;
    d->memo_fill = 0;
    d->out = NULL;
    d->nops = d->err = d->depth = d->rendered = 0;
    d->plen = 0;
}

static int diff_value(diff_ctx *d, span a, span b);

/* The diff of an element (key NULL: index) of a root member (the path's
 * one segment), through the memo's elements: the operations noted for the
 * same element with the same old and new texts, else made and noted. */
static int diff_kid(diff_ctx *d, const char *key, size_t kn, int index, span a, span b)
{
    if (a.n == b.n && !memcmp(a.s, b.s, a.n))
        return 0;
    srv_jmemo *mm = d->memo;
    const seg *parent = &d->seg[0];
    for (int q = 0; q < mm->nkids; q++) {
        const memo_kid *e = &mm->kid[q];
        if (e->an != a.n || e->bn != b.n || e->pkn != parent->n || (e->key == NULL) != (key == NULL) ||
            (key ? e->kn != kn || memcmp(e->key, key, kn) != 0 : e->index != index) ||
            memcmp(e->pkey, parent->key, parent->n) != 0 || memcmp(e->a, a.s, a.n) != 0 ||
            memcmp(e->b, b.s, b.n) != 0)
            continue;
        if (e->nops) {
            if (d->nops)
                chx_buf_add(d->out, ",", 1);
            chx_buf_add(d->out, mm->ops.s + e->op0, e->on);
            d->nops += e->nops;
        }
        return 0;
    }
    size_t mark = d->out->len;
    int nops = d->nops;
    if (diff_value(d, a, b) != 0)
        return -1;
    if (mm->nkids < MEMO_KIDS && !d->out->oom && !d->err) {
        size_t from = mark + (nops && d->nops > nops ? 1 : 0);
        size_t op0 = mm->ops.len;
        chx_buf_add(&mm->ops, d->out->s ? d->out->s + from : "", d->out->len - from);
        if (!mm->ops.oom)
            mm->kid[mm->nkids++] = (memo_kid){parent->key, key, a.s, b.s, parent->n, kn, a.n, b.n,
                                              op0, d->out->len - from, index, d->nops - nops};
    }
    return 0;
}

static int diff_container(diff_ctx *d, span a, span b)
{
    span ak[MAX_MEMBERS], av[MAX_MEMBERS], bk[MAX_MEMBERS], bv[MAX_MEMBERS];
    int na = members(&d->a, a, ak, av), nb = members(&d->b, b, bk, bv);
    if (na < 0 || nb < 0)
        return 1; /* too many: replaced whole */
    int base = d->depth;
    if (b.s[0] == '{') {
        unsigned char used[MAX_MEMBERS] = {0};
        int match[MAX_MEMBERS];
        int last = -1, added = 0;
        for (int i = 0; i < nb; i++) {
            int j = -1;
            /* the same key order in both (one writer): look where it
               should be first */
            if (i < na && ak[i].n == bk[i].n && !memcmp(ak[i].s, bk[i].s, bk[i].n))
                j = i;
            for (int k = 0; j < 0 && k < na; k++)
                if (!used[k] && ak[k].n == bk[i].n && !memcmp(ak[k].s, bk[i].s, bk[i].n))
                    j = k;
            if (j >= 0)
                used[j] = 1;
            match[i] = j;
            /* an "add" puts a member last: the members must keep the
               writer's order (clients see the same object, key order
               included), so a member added before others, or members in
               another order, make the object replaced whole */
            if (j < 0)
                added = 1;
            else if (added || j < last)
                return 1;
            else
                last = j;
        }
        int root = base == 0 && d->memo;
        int cur = 0; /* the memo's entry after the last one used: the members
                        come in the same order in every perspective, so the
                        next one to look at first (not a search from the start
                        for each of some 24 members) */
        for (int i = 0; i < nb; i++) {
            if (push_key(d, bk[i]) != 0)
                return -1;
            if (match[i] >= 0 && root && av[match[i]].n == bv[i].n &&
                !memcmp(av[match[i]].s, bv[i].s, bv[i].n)) {
                /* unchanged (most members at most moves): no operation,
                   without comparing it with the memo's texts too */
            } else if (match[i] >= 0 && root && !d->memo_fill) {
                /* the same member, old and new, as in the memo's diff: its
                   operations */
                span ma = av[match[i]], mb = bv[i];
                int hit = 0, nm = d->memo->n;
                for (int t = 0; t < nm && !hit; t++) {
                    int q = cur + t < nm ? cur + t : cur + t - nm;
                    const memo_member *e = &d->memo->m[q];
                    if (e->kn != bk[i].n || memcmp(e->key, bk[i].s, bk[i].n) != 0)
                        continue;
                    /* the member's one entry (an object's keys are unique):
                       its old and new texts decide */
                    cur = q + 1;
                    if (e->an != ma.n || e->bn != mb.n || memcmp(e->a, ma.s, ma.n) != 0 ||
                        memcmp(e->b, mb.s, mb.n) != 0)
                        break;
                    hit = 1;
                    if (e->nops) {
                        if (d->nops)
                            chx_buf_add(d->out, ",", 1);
                        chx_buf_add(d->out, d->memo->ops.s + e->op0, e->on);
                        d->nops += e->nops;
                    }
                }
                if (!hit && diff_value(d, ma, mb) != 0)
                    return -1;
            } else if (match[i] >= 0 && root) { /* the memo's diff: noted */
                size_t mark = d->out->len;
                int nops = d->nops;
                if (diff_value(d, av[match[i]], bv[i]) != 0)
                    return -1;
                if (d->memo->n < MEMO_MAX && !d->out->oom) {
                    size_t from = mark + (nops && d->nops > nops ? 1 : 0);
                    chx_buf *mo = &d->memo->ops;
                    size_t op0 = mo->len;
                    chx_buf_add(mo, d->out->s ? d->out->s + from : "", d->out->len - from);
                    if (!mo->oom) {
                        memo_member *e = &d->memo->m[d->memo->n++];
                        e->key = bk[i].s;
                        e->kn = bk[i].n;
                        e->a = av[match[i]].s;
                        e->an = av[match[i]].n;
                        e->b = bv[i].s;
                        e->bn = bv[i].n;
                        e->op0 = op0;
                        e->on = d->out->len - from;
                        e->nops = d->nops - nops;
                    }
                }
            } else if (match[i] >= 0 && base == 1 && d->memo) {
                if (diff_kid(d, bk[i].s, bk[i].n, 0, av[match[i]], bv[i]) != 0)
                    return -1;
            } else if (match[i] >= 0) {
                if (diff_value(d, av[match[i]], bv[i]) != 0)
                    return -1;
            } else {
                op(d, "add", &bv[i]);
            }
            pop_to(d, base);
        }
        for (int k = 0; k < na; k++)
            if (!used[k]) {
                if (push_key(d, ak[k]) != 0)
                    return -1;
                op(d, "remove", NULL);
                pop_to(d, base);
            }
        return 0;
    }
    int common = na < nb ? na : nb;
    for (int i = 0; i < common; i++) {
        if (push_index(d, i) != 0)
            return -1;
        if (base == 1 && d->memo ? diff_kid(d, NULL, 0, i, av[i], bv[i]) != 0
                                 : diff_value(d, av[i], bv[i]) != 0)
            return -1;
        pop_to(d, base);
    }
    for (int i = common; i < nb; i++) {
        if (push_index(d, i) != 0)
            return -1;
        op(d, "add", &bv[i]);
        pop_to(d, base);
    }
    for (int i = na - 1; i >= common; i--) { /* from the end: indexes stay valid */
        if (push_index(d, i) != 0)
            return -1;
        op(d, "remove", NULL);
        pop_to(d, base);
    }
    return 0;
}

static int diff_value(diff_ctx *d, span a, span b)
{
    if (a.n == b.n && !memcmp(a.s, b.s, a.n))
        return 0;
    if (a.n && b.n && ((a.s[0] == '{' && b.s[0] == '{') || (a.s[0] == '[' && b.s[0] == '['))) {
        size_t mark = d->out->len;
        int nops = d->nops;
        int r = diff_container(d, a, b);
        if (r < 0)
            return -1;
        /* operations longer than the value itself: one replace instead */
        size_t grown = d->out->len - mark;
        if (r == 0 && (grown <= b.n + 40 ||
                       (render_path(d) == 0 && grown <= b.n + d->plen + 40)))
            return 0;
        d->out->len = mark;
        d->nops = nops;
    }
    op(d, "replace", &b);
    return 0;
}

char *srv_json_diff_ix(const char *a, const srv_jidx *ai, const char *b, srv_jidx *bi)
{
    return srv_json_diff_memo(a, ai, b, bi, NULL);
}

char *srv_json_diff_memo(const char *a, const srv_jidx *ai, const char *b, srv_jidx *bi,
                         srv_jmemo *memo)
{
    int b_given = bi && bi->pair;
    if (bi && !b_given)
        memset(bi, 0, sizeof *bi);
    if (!a || !b)
        return NULL;
    chx_buf out = {0};
    /* on the stack (some 10 KB): a calloc of it for each diff was a call to
       malloc's slow path per perspective and move */
    diff_ctx dctx;
    diff_ctx *d = &dctx;
    ctx_init(d);
    span sa = {a, strlen(a)}, sb = {b, strlen(b)};
    int r = -1;
    int a_ok = 0, b_ok = 0;
    if (ai && ai->pair) { /* the index made when a was new */
        d->a.base = a;
        d->a.ix = *ai;
        a_ok = 1;
    } else {
        a_ok = sa.n < UINT32_MAX && doc_index(&d->a, a, sa.n) == 0;
    }
    if (b_given) {
        d->b.base = b;
        d->b.ix = *bi;
        b_ok = 1;
    } else {
        b_ok = sb.n < UINT32_MAX && doc_index(&d->b, b, sb.n) == 0;
    }
    d->memo = memo;
    d->memo_fill = memo && memo->n == 0;
    if (a_ok && b_ok) {
        d->out = &out;
        chx_buf_add(&out, "[", 1);
        r = diff_value(d, sa, sb);
        chx_buf_add(&out, "]", 1);
        if (r == 0 && d->err) /* a path too long */
            r = -1;
    }
    if (!(ai && ai->pair))
        free(d->a.ix.pair);
    if (b_given) {
        /* stays the caller's */
    } else if (bi && r == 0) { /* kept with the view: no room to spare */
        *bi = d->b.ix;
        void *np = realloc(bi->pair, (bi->n ? bi->n : 1) * sizeof *bi->pair);
        if (np) {
            bi->pair = np;
            bi->cap = bi->n;
        }
    } else
        free(d->b.ix.pair);
    if (r != 0 || out.oom) {
        free(out.s);
        if (bi && r == 0 && !b_given)
            srv_jidx_free(bi);
        return NULL;
    }
    return out.s;
}

int srv_json_diff_into(chx_buf *out, const char *a, size_t an, const srv_jidx *ai, const char *b,
                       size_t bn, const srv_jidx *bi, srv_jmemo *memo)
{
    if (!out || !a || !b || !ai || !ai->pair || !bi || !bi->pair || an >= UINT32_MAX ||
        bn >= UINT32_MAX)
        return -1;
    diff_ctx dctx;
    diff_ctx *d = &dctx;
    ctx_init(d);
    d->a.base = a;
    d->a.ix = *ai;
    d->b.base = b;
    d->b.ix = *bi;
    d->memo = memo;
    d->memo_fill = memo && memo->n == 0;
    d->out = out;
    size_t at = out->len;
    chx_buf_add(out, "[", 1);
    int r = diff_value(d, (span){a, an}, (span){b, bn});
    chx_buf_add(out, "]", 1);
    if (r != 0 || out->oom || d->err) {
        out->len = at;
        return -1;
    }
    return 0;
}

char *srv_json_diff(const char *a, const char *b)
{
    return srv_json_diff_ix(a, NULL, b, NULL);
}
