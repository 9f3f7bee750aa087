/* json.c: reads the JSON documents of a game back: ch_state_from_json takes
 * the full state written by ch_state_to_json (json_write.c) and gives the same
 * state; player views are refused, they lack what is hidden. The layout is
 * documented in docs/formats.md, "JSON state and views"; the names both sides
 * use are in json_names.c.
 *
 * Reading parses with jansson and is strict: every key is required, unknown
 * keys are refused, every name must resolve and every number must be in
 * range; the first problem is reported with its JSON path
 * ("players[2].cash: expected an integer, got a string"). The caller's state
 * is only overwritten once the whole document has been read and ch_validate
 * accepted it.
 */
#include "chartered.h"
#include "internal.h"
#include "json_names.h"

#include <jansson.h>

#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ch_free(void *p) { free(p); }

/* ========================================================================== */
/* Reader                                                                     */
/* ========================================================================== */

typedef struct rctx {
    char path[256];
    size_t len;
    int failed;
    char msg[256];
    ch_state *st;          /* the local copy being filled                    */
    ch_board board;        /* the board read, interned into st->board_id      */
    json_t *plot_map;      /* plot name -> index                              */
    json_t *card_map;      /* card name -> id                                 */
    plot_names pn;         /* names of the plots of the board read            */
    card_names cn;         /* names of the cards read                         */
    uint8_t where[CH_MAX_CARDS]; /* location found for each card, 0xFF: none  */
    char where_path[CH_MAX_CARDS][48]; /* where it was found, for messages   */
} rctx;

#define TRY(x)                                                                 \
    do {                                                                       \
        if ((x) < 0)                                                           \
            return -1;                                                         \
    } while (0)

/* The path grows and shrinks at every key and index read, so it is built by
 * hand: snprintf here was an eighth of a load's time. A path too long for
 * the buffer is cut (it only appears in messages). */
static void path_put(rctx *c, const char *s, size_t n)
{
    size_t room = sizeof c->path - 1 - c->len;
    if (n > room)
        n = room;
    memcpy(c->path + c->len, s, n);
    c->len += n;
    c->path[c->len] = '\0';
}

static size_t push_key(rctx *c, const char *key)
{
    size_t old = c->len;
    if (c->len)
        path_put(c, ".", 1);
    path_put(c, key, strlen(key));
    return old;
}

static size_t push_idx(rctx *c, size_t i)
{
    size_t old = c->len;
    char d[24];
    int k = (int)sizeof d;
    d[--k] = ']';
    do
        d[--k] = (char)('0' + i % 10);
    while ((i /= 10) > 0);
    d[--k] = '[';
    path_put(c, d + k, sizeof d - (size_t)k);
    return old;
}

static void pop(rctx *c, size_t old)
{
    c->len = old;
    c->path[old] = '\0';
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int jfail(rctx *c, const char *fmt, ...)
{
    if (c->failed)
        return -1;
    c->failed = 1;
    char reason[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    snprintf(c->msg, sizeof c->msg, "%.100s: %.150s", c->len ? c->path : "(document)", reason);
    return -1;
}

static const char *type_words(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

static int want(rctx *c, const json_t *v, json_type t, const char *words)
{
    if (json_typeof(v) == t || (t == JSON_TRUE && json_is_boolean(v)))
        return 0;
    return jfail(c, "expected %s, got %s", words, type_words(v));
}

/* Refuse keys of obj that are not in keys (NULL-terminated). */
static int only_keys(rctx *c, json_t *obj, const char *const *keys)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        int ok = 0;
        for (const char *const *q = keys; *q && !ok; q++)
            ok = strcmp(*q, k) == 0;
        if (!ok) {
            size_t o = push_key(c, k);
            jfail(c, "unexpected key");
            pop(c, o);
            return -1;
        }
    }
    return 0;
}

/* obj[key], failing when it is missing; the path is not changed. */
static json_t *field(rctx *c, json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        size_t o = push_key(c, key);
        jfail(c, "missing key");
        pop(c, o);
    }
    return v;
}

/* ---- values at the current path ------------------------------------------- */

static int v_int(rctx *c, json_t *v, long long lo, long long hi, long long *out)
{
    TRY(want(c, v, JSON_INTEGER, "an integer"));
    long long x = json_integer_value(v);
    if (x < lo || x > hi)
        return jfail(c, "%lld is out of range (%lld to %lld)", x, lo, hi);
    *out = x;
    return 0;
}

static int v_u8(rctx *c, json_t *v, int hi, uint8_t *out)
{
    long long x = 0;
    TRY(v_int(c, v, 0, hi, &x));
    *out = (uint8_t)x;
    return 0;
}

static int v_bool(rctx *c, json_t *v, uint8_t *out)
{
    TRY(want(c, v, JSON_TRUE, "a boolean"));
    *out = json_is_true(v) ? 1 : 0;
    return 0;
}

static int v_hex64(rctx *c, json_t *v, uint64_t *out)
{
    TRY(want(c, v, JSON_STRING, "a string of hexadecimal digits"));
    const char *s = json_string_value(v);
    size_t n = strlen(s);
    if (n == 0 || n > 16)
        return jfail(c, "expected 1 to 16 hexadecimal digits, got \"%.40s\"", s);
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        int d;
        if (ch >= '0' && ch <= '9')
            d = ch - '0';
        else if (ch >= 'a' && ch <= 'f')
            d = ch - 'a' + 10;
        else if (ch >= 'A' && ch <= 'F')
            d = ch - 'A' + 10;
        else
            return jfail(c, "\"%.40s\" is not a hexadecimal number", s);
        x = x << 4 | (uint64_t)d;
    }
    *out = x;
    return 0;
}

/* The start of the values that may be null: null gives CH_NONE when
 * nullable (returns 1: nothing more to read); otherwise the value must be of
 * the kind ok says it is, "expected <words>" (returns 0 to read on, or -1). */
static int v_null_or(rctx *c, json_t *v, int nullable, int ok, const char *words,
                     uint8_t *out)
{
    if (nullable && json_is_null(v)) {
        *out = CH_NONE;
        return 1;
    }
    if (!ok)
        return jfail(c, "expected %s%s, got %s", words, nullable ? " or null" : "",
                     type_words(v));
    return 0;
}

/* A name looked up in map (name -> index); null gives CH_NONE when nullable. */
static int v_named(rctx *c, json_t *v, json_t *map, const char *what, const char *words,
                   int nullable, uint8_t *out)
{
    int r = v_null_or(c, v, nullable, json_is_string(v), words, out);
    if (r)
        return r < 0 ? r : 0;
    json_t *i = json_object_get(map, json_string_value(v));
    if (!i)
        return jfail(c, "unknown %s \"%.60s\"", what, json_string_value(v));
    *out = (uint8_t)json_integer_value(i);
    return 0;
}

static int v_plot(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    return v_named(c, v, c->plot_map, "plot", "plot name", nullable, out);
}

static int v_card(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    return v_named(c, v, c->card_map, "card", "card name", nullable, out);
}

static int v_company(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    int r = v_null_or(c, v, nullable, json_is_string(v), "a company name", out);
    if (r)
        return r < 0 ? r : 0;
    const char *s = json_string_value(v);
    for (int i = 0; i < c->st->ncompanies; i++)
        if (strcmp(s, ch_company_name(c->st, i)) == 0) {
            *out = (uint8_t)i;
            return 0;
        }
    return jfail(c, "unknown company \"%.60s\"", s);
}

static int v_seat(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    int r = v_null_or(c, v, nullable, json_is_integer(v), "a seat number", out);
    if (r)
        return r < 0 ? r : 0;
    return v_u8(c, v, c->st->nplayers - 1, out);
}

static int v_event(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    int r = v_null_or(c, v, nullable, json_is_string(v), "an event name", out);
    if (r)
        return r < 0 ? r : 0;
    const char *s = json_string_value(v);
    int ga = c->st->edition == CH_ED_GOLDEN_AGE;
    for (int k = 0; k < (ga ? CH_GE_KINDS : CH_EV_KINDS); k++)
        if (strcmp(s, ga ? ch_ga_event_name(k) : ch_event_name(k)) == 0) {
            *out = (uint8_t)k;
            return 0;
        }
    return jfail(c, "unknown event \"%.60s\"", s);
}

static int v_string(rctx *c, json_t *v, char *buf, size_t n)
{
    TRY(want(c, v, JSON_STRING, "a string"));
    const char *s = json_string_value(v);
    size_t len = json_string_length(v);
    if (len != strlen(s))
        return jfail(c, "the text contains a NUL character");
    if (len >= n)
        return jfail(c, "\"%.60s\" is too long (at most %zu characters)", s, n - 1);
    memset(buf, 0, n);
    memcpy(buf, s, len);
    return 0;
}

/* An array of exactly n entries when n >= 0, of at most max entries otherwise. */
static int v_array(rctx *c, json_t *v, long n, size_t max)
{
    TRY(want(c, v, JSON_ARRAY, "an array"));
    size_t sz = json_array_size(v);
    if (n >= 0 && sz != (size_t)n)
        return jfail(c, "expected %ld entries, got %zu", n, sz);
    if (n < 0 && sz > max)
        return jfail(c, "too many entries (%zu; at most %zu)", sz, max);
    return 0;
}

/* ---- the table-driven reader -------------------------------------------------
 * A section of the document is read from a table of its keys, in reading
 * order: each entry says what the value is and where it is stored (an offset
 * from a base, which is the state, a player, a company or the offer).
 * read_fields reads the entries in order and stops at the first problem; the
 * few values a table cannot say (names that must match, lists with their own
 * checks) are read by hand between two tables. */

typedef int (*reader_u8)(rctx *, json_t *, int, uint8_t *);

enum {
    FK_INT,     /* an integer lo..hi in a field of size bytes; nullable: or null
                   (CH_NONE); hi HI_LAST_SEAT: the game's last seat          */
    FK_BOOL,    /* true or false, as 1 or 0                                   */
    FK_NAME,    /* read by fn (a plot, card, company, seat, event or phase),
                   nullable or not                                            */
    FK_FLAG,    /* a seat or null, stored as 1 + seat or 0 (company flags)    */
    FK_STOCKS,  /* {"Company": 0..hi, ...} with every company of the game     */
    FK_OBJ,     /* an object with exactly keys, read by the table sub         */
    /* lists (at most hi entries; exactly lo when lo >= 0): */
    FK_SEATS,   /* seats, as a bitmask                                        */
    FK_PFLAGS,  /* plot flag words, as a bitmask                              */
    FK_CARDSET, /* card names, as a bitset; each placed at loc unless 0xFF    */
    FK_PILE,    /* card names (or null when nullable), its count at off2
                   unless NO_COUNT, each card placed at loc                   */
    FK_EVENTS,  /* event names (or null when nullable), count as FK_PILE     */
    FK_I32S,    /* 32-bit integers                                            */
    FK_REST,    /* numbers 0..255 kept past a pile's count (the byte at off2),
                   up to the pile's size hi                                   */
};

#define HI_LAST_SEAT LLONG_MIN
#define NO_COUNT SIZE_MAX

typedef struct fspec {
    const char *key;
    uint8_t kind, size, nullable, loc;
    reader_u8 fn;                  /* FK_NAME                                */
    const struct fspec *sub;       /* FK_OBJ: its table, nsub entries, keys  */
    size_t nsub;
    const char *const *keys;
    size_t off, off2;
    long long lo, hi;
} fspec;

#define COUNT(a) (sizeof(a) / sizeof *(a))
#define F_INT(T, m, k, l, h)                                                                \
    {.key = k, .kind = FK_INT, .size = sizeof(((T *)0)->m), .off = offsetof(T, m), .lo = l, .hi = h}
#define F_U8(T, m, k, h) {.key = k, .kind = FK_INT, .size = 1, .off = offsetof(T, m), .hi = h}
#define F_I32(T, m, k) F_INT(T, m, k, INT32_MIN, INT32_MAX)
#define F_U8_OR_NULL(T, m, k, h)                                                            \
    {.key = k, .kind = FK_INT, .size = 1, .nullable = 1, .off = offsetof(T, m), .hi = h}
#define F_BOOL(T, m, k) {.key = k, .kind = FK_BOOL, .off = offsetof(T, m)}
#define F_NAME(T, m, k, f, n) {.key = k, .kind = FK_NAME, .fn = f, .nullable = n, .off = offsetof(T, m)}
#define F_OBJ(T, m, k, table, ks)                                                           \
    {.key = k, .kind = FK_OBJ, .sub = table, .nsub = COUNT(table), .keys = ks, .off = offsetof(T, m)}
#define F_OF(T, m, k, kd, h) {.key = k, .kind = kd, .off = offsetof(T, m), .lo = -1, .hi = h}
#define F_CARDSET(T, m, k, l)                                                               \
    {.key = k, .kind = FK_CARDSET, .loc = l, .off = offsetof(T, m), .lo = -1, .hi = CH_MAX_CARDS}
#define F_PILE(m, n, k, max, l)                                                             \
    {.key = k, .kind = FK_PILE, .loc = l, .off = offsetof(ch_state, m),                     \
     .off2 = offsetof(ch_state, n), .lo = -1, .hi = max}
#define F_EVENTS(m, n, k, max)                                                              \
    {.key = k, .kind = FK_EVENTS, .off = offsetof(ch_state, m), .off2 = offsetof(ch_state, n), \
     .lo = -1, .hi = max}
#define F_REST(m, n, k, sz)                                                                 \
    {.key = k, .kind = FK_REST, .off = offsetof(ch_state, m), .off2 = offsetof(ch_state, n), \
     .lo = -1, .hi = sz}

static int read_value(rctx *c, json_t *v, const fspec *f, unsigned char *base);

/* obj[f->key] read as f says into base. */
static int read_field(rctx *c, json_t *obj, void *base, const fspec *f)
{
    json_t *v = field(c, obj, f->key);
    if (!v)
        return -1;
    size_t o = push_key(c, f->key);
    int r = read_value(c, v, f, base);
    pop(c, o);
    return r;
}

static int read_fields(rctx *c, json_t *obj, void *base, const fspec *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        TRY(read_field(c, obj, base, &f[i]));
    return 0;
}

#define READ_TABLE(c, obj, base, table) read_fields(c, obj, base, table, COUNT(table))

/* Each entry of the array arr read by fn at its own path ("plots[3]"). */
typedef int (*entry_fn)(rctx *c, json_t *e, size_t i, void *arg);
static int each(rctx *c, json_t *arr, entry_fn fn, void *arg)
{
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e) {
        size_t o = push_idx(c, i);
        int r = fn(c, e, i, arg);
        pop(c, o);
        TRY(r);
    }
    return 0;
}

static int k_int(rctx *c, json_t *obj, const char *key, long long lo, long long hi,
                 long long *out)
{
    const fspec f = {.key = key, .kind = FK_INT, .size = sizeof *out, .lo = lo, .hi = hi};
    return read_field(c, obj, out, &f);
}

/* obj[key] as an object with exactly keys; *out receives it. */
static int k_obj(rctx *c, json_t *obj, const char *key, const char *const *keys,
                 json_t **out)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = want(c, v, JSON_OBJECT, "an object");
    if (r == 0)
        r = only_keys(c, v, keys);
    pop(c, o);
    *out = v;
    return r;
}

/* Records that card lies at location loc (found at the current path). */
static int place_card(rctx *c, uint8_t card, uint8_t loc, const char *name)
{
    if (c->where[card] != 0xFF)
        return jfail(c, "card %s is already at %s", name, c->where_path[card]);
    c->where[card] = loc;
    size_t n = c->len < sizeof c->where_path[card] - 1 ? c->len : sizeof c->where_path[card] - 1;
    memcpy(c->where_path[card], c->path, n);
    c->where_path[card][n] = '\0';
    return 0;
}

/* x into a field of size bytes (1, 2, 4 or 8), signed or not. */
static void store_int(unsigned char *p, size_t size, long long x)
{
    uint8_t u8 = (uint8_t)x;
    uint16_t u16 = (uint16_t)x;
    uint32_t u32 = (uint32_t)x;
    uint64_t u64 = (uint64_t)x;
    const void *from = size == 1 ? (const void *)&u8 : size == 2 ? (const void *)&u16
                       : size == 4 ? (const void *)&u32 : (const void *)&u64;
    assert(size == 1 || size == 2 || size == 4 || size == 8);
    memcpy(p, from, size);
}

/* {"Company": n, ...} with every company of the game. */
static int v_stocks(rctx *c, json_t *v, long long hi, uint8_t *stock)
{
    TRY(want(c, v, JSON_OBJECT, "an object"));
    const char *k;
    json_t *e;
    json_object_foreach(v, k, e) {
        int known = 0;
        for (int i = 0; i < c->st->ncompanies && !known; i++)
            known = strcmp(k, ch_company_name(c->st, i)) == 0;
        if (!known) {
            size_t o = push_key(c, k);
            jfail(c, "unknown company");
            pop(c, o);
            return -1;
        }
    }
    for (int i = 0; i < c->st->ncompanies; i++) {
        const fspec f = {.key = ch_company_name(c->st, i), .kind = FK_INT, .size = 1,
                         .off = (size_t)i, .hi = hi};
        TRY(read_field(c, v, stock, &f));
    }
    return 0;
}

typedef struct list_arg {
    const fspec *f;
    unsigned char *base;
} list_arg;

static int v_pflag(rctx *c, json_t *v, uint8_t *bit)
{
    TRY(want(c, v, JSON_STRING, "a flag word"));
    for (uint8_t b = 0; b < 8; b++)
        if (strcmp(json_string_value(v), json_pflag_words[b]) == 0) {
            *bit = b;
            return 0;
        }
    return jfail(c, "unknown plot flag \"%.40s\"", json_string_value(v));
}

/* Entry i of a list (the kinds from FK_SEATS on). */
static int list_entry(rctx *c, json_t *e, size_t i, void *arg)
{
    const fspec *f = ((list_arg *)arg)->f;
    unsigned char *base = ((list_arg *)arg)->base, *p = base + f->off;
    uint8_t x = 0;
    long long n;
    switch (f->kind) {
    case FK_SEATS:
        TRY(v_seat(c, e, 0, &x));
        if (*p >> x & 1)
            return jfail(c, "seat %d is listed twice", x);
        *p = (uint8_t)(*p | 1u << x);
        return 0;
    case FK_PFLAGS:
        TRY(v_pflag(c, e, &x));
        if (*p >> x & 1)
            return jfail(c, "flag \"%s\" is listed twice", json_pflag_words[x]);
        *p = (uint8_t)(*p | 1u << x);
        return 0;
    case FK_CARDSET: {
        uint64_t set[2];
        memcpy(set, p, sizeof set);
        TRY(v_card(c, e, 0, &x));
        if (set[x >> 6] >> (x & 63) & 1)
            return jfail(c, "card %s is listed twice", json_string_value(e));
        set[x >> 6] |= (uint64_t)1 << (x & 63);
        memcpy(p, set, sizeof set);
        return f->loc == 0xFF ? 0 : place_card(c, x, f->loc, json_string_value(e));
    }
    case FK_PILE:
        TRY(v_card(c, e, f->nullable, &p[i]));
        return p[i] == CH_NONE ? 0 : place_card(c, p[i], f->loc, json_string_value(e));
    case FK_EVENTS:
        return v_event(c, e, f->nullable, &p[i]);
    case FK_I32S:
        TRY(v_int(c, e, INT32_MIN, INT32_MAX, &n));
        store_int(p + 4 * i, 4, n);
        return 0;
    default: /* FK_REST */
        return v_u8(c, e, 255, &p[base[f->off2] + i]);
    }
}

static int read_value(rctx *c, json_t *v, const fspec *f, unsigned char *base)
{
    unsigned char *p = base + f->off;
    long long x = 0;
    uint8_t s;
    switch (f->kind) {
    case FK_INT:
        if (f->nullable && json_is_null(v)) {
            *p = CH_NONE;
            return 0;
        }
        if (f->nullable && !json_is_integer(v))
            return jfail(c, "expected an integer or null, got %s", type_words(v));
        TRY(v_int(c, v, f->lo, f->hi == HI_LAST_SEAT ? c->st->nplayers - 1 : f->hi, &x));
        store_int(p, f->size, x);
        return 0;
    case FK_BOOL:
        return v_bool(c, v, p);
    case FK_NAME:
        return f->fn(c, v, f->nullable, p);
    case FK_FLAG:
        TRY(v_seat(c, v, 1, &s));
        *p = s == CH_NONE ? 0 : (uint8_t)(s + 1);
        return 0;
    case FK_STOCKS:
        return v_stocks(c, v, f->hi, p);
    case FK_OBJ:
        TRY(want(c, v, JSON_OBJECT, "an object"));
        TRY(only_keys(c, v, f->keys));
        return read_fields(c, v, p, f->sub, f->nsub);
    default: { /* the lists */
        size_t max = (size_t)f->hi - (f->kind == FK_REST ? base[f->off2] : 0);
        if (f->kind == FK_SEATS || f->kind == FK_PFLAGS)
            *p = 0;
        if (f->kind == FK_CARDSET)
            memset(p, 0, 2 * sizeof(uint64_t));
        TRY(v_array(c, v, (long)f->lo, max));
        list_arg a = {f, base};
        TRY(each(c, v, list_entry, &a));
        if ((f->kind == FK_PILE || f->kind == FK_EVENTS) && f->off2 != NO_COUNT)
            base[f->off2] = (uint8_t)json_array_size(v);
        return 0;
    }
    }
}

/* The start of entry i of a list kept in order: an object with only keys;
 * unless idkey is NULL, its idkey must be i ("players are listed by seat"). */
static int r_entry(rctx *c, json_t *e, const char *const *keys, const char *idkey,
                   long long hi, size_t i, const char *list)
{
    TRY(want(c, e, JSON_OBJECT, "an object"));
    TRY(only_keys(c, e, keys));
    if (!idkey)
        return 0;
    long long id;
    TRY(k_int(c, e, idkey, 0, hi, &id));
    if (id == (long long)i)
        return 0;
    size_t o = push_key(c, idkey);
    jfail(c, "expected %zu (%s are listed by %s)", i, list, idkey);
    pop(c, o);
    return -1;
}

/* root[key]: an array of exactly n entries, each read by fn. */
static int r_list(rctx *c, json_t *root, const char *key, size_t n, entry_fn fn)
{
    json_t *v = field(c, root, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = v_array(c, v, (long)n, 0);
    if (r == 0)
        r = each(c, v, fn, NULL);
    pop(c, o);
    return r;
}

/* obj[key] must be the string name; fmt words a mismatch from the text found
 * and name, in that order or, with name_first, the other way round. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 0)))
#endif
static int k_same_name(rctx *c, json_t *obj, const char *key, const char *name,
                       const char *fmt, int name_first)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = want(c, v, JSON_STRING, "a string");
    if (r == 0 && strcmp(json_string_value(v), name) != 0)
        r = name_first ? jfail(c, fmt, name, json_string_value(v))
                       : jfail(c, fmt, json_string_value(v), name);
    pop(c, o);
    return r;
}

/* ---- sections --------------------------------------------------------------- */

static int v_phase(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    (void)nullable;
    TRY(want(c, v, JSON_STRING, "a phase name"));
    for (int i = 0; i < CH_PH_COUNT; i++)
        if (strcmp(json_string_value(v), ch_phase_name(i)) == 0) {
            *out = (uint8_t)i;
            return 0;
        }
    return jfail(c, "unknown phase \"%.40s\"", json_string_value(v));
}

/* The auction's item: a company for the options that auction one (1 and 2),
 * otherwise a number or null. */
static int v_au_item(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    static const fspec number = {.kind = FK_INT, .size = 1, .nullable = 1, .hi = CH_NONE - 1};
    (void)nullable;
    if (json_is_string(v) && (c->st->au_option == 1 || c->st->au_option == 2))
        return v_company(c, v, 0, out);
    return read_value(c, v, &number, out);
}

/* root[name]: an object with exactly keys, read by table into base. */
static int r_section(rctx *c, json_t *root, const char *name, const char *const *keys,
                     const fspec *table, size_t n, void *base)
{
    const fspec f = {.key = name, .kind = FK_OBJ, .sub = table, .nsub = n, .keys = keys};
    return read_field(c, root, base, &f);
}

/* A variant's prices and end conditions (docs/variants.md), written only
 * where they are not the rulebook's: absent, the rulebook's prices and no
 * variant end. */
static int r_game_variant(rctx *c, json_t *game)
{
    ch_state *st = c->st;
    ch_prices_rulebook(st->edition, &st->prices);
    st->end_turns = 0;
    st->end_value = 0;
    json_t *v = json_object_get(game, "prices");
    size_t o = push_key(c, "game");
    int r = 0;
    if (v) {
        static const char *const keys[] = {"purchase", "refresh", "action", "stock_min", "flags",
                                           NULL};
        size_t o2 = push_key(c, "prices");
        r = want(c, v, JSON_OBJECT, "an object");
        if (!r)
            r = only_keys(c, v, keys);
        int16_t *slot[6] = {&st->prices.purchase, &st->prices.refresh, &st->prices.action,
                            &st->prices.stock_min, &st->prices.flag[0], &st->prices.flag[1]};
        for (int i = 0; !r && i < 5; i++) {
            json_t *x = json_object_get(v, keys[i]);
            if (!x)
                continue;
            size_t o3 = push_key(c, keys[i]);
            if (i == 4) { /* "flags": [first, second] */
                if (!json_is_array(x) || json_array_size(x) != 2)
                    r = jfail(c, "the flags' prices are [first, second]");
                for (size_t k = 0; !r && k < 2; k++) {
                    long long y = 0;
                    size_t o4 = push_idx(c, k);
                    r = v_int(c, json_array_get(x, k), 1, CH_PRICE_MAX, &y);
                    pop(c, o4);
                    *slot[4 + k] = (int16_t)y;
                }
            } else {
                long long y = 0;
                r = v_int(c, x, 1, CH_PRICE_MAX, &y);
                *slot[i] = (int16_t)y;
            }
            pop(c, o3);
        }
        if (!r && ((st->edition == CH_ED_GOLDEN_AGE) ? json_object_get(v, "action") != NULL
                                                    : json_object_get(v, "flags") != NULL))
            r = jfail(c, "%s has no %s price",
                      st->edition == CH_ED_GOLDEN_AGE ? "The Golden Age" : "Building Amsterdam",
                      st->edition == CH_ED_GOLDEN_AGE ? "action" : "flag");
        pop(c, o2);
    }
    long long y;
    if (!r && (v = json_object_get(game, "end_turns"))) {
        size_t o2 = push_key(c, "end_turns");
        r = v_int(c, v, 1, 65535, &y);
        st->end_turns = (uint16_t)y;
        pop(c, o2);
    }
    if (!r && (v = json_object_get(game, "end_value"))) {
        size_t o2 = push_key(c, "end_value");
        const ed_rules *ed = ED(st);
        r = v_int(c, v, ed->min_value + 1, ed->max_value, &y);
        st->end_value = (int16_t)y;
        pop(c, o2);
    }
    pop(c, o);
    return r;
}

static int r_game(rctx *c, json_t *root)
{
    static const char *const keys[] = {"player_count", "company_count", "card_count",
                                       "market_size", "open_events", "hand_limit",
                                       "first_player", "total_money", "warehouses_total",
                                       "roofs_total", "preset", "events_on", "prices",
                                       "end_turns", "end_value", NULL};
    static const fspec fields[] = {
        F_INT(ch_state, nplayers, "player_count", 1, CH_MAX_PLAYERS),
        F_U8(ch_state, ncompanies, "company_count", CH_MAX_COMPANIES),
        F_U8(ch_state, ncards, "card_count", CH_MAX_CARDS),
        F_U8(ch_state, market_size, "market_size", CH_MARKET_MAX),
        F_U8(ch_state, nevent_open, "open_events", CH_EVENT_OPEN_MAX),
        F_U8(ch_state, max_hand, "hand_limit", 255),
        F_U8(ch_state, first_player, "first_player", HI_LAST_SEAT),
        F_I32(ch_state, total_money, "total_money"),
        F_U8(ch_state, warehouses_total, "warehouses_total", 255),
        F_U8(ch_state, roofs_total, "roofs_total", 255),
        F_U8(ch_state, preset, "preset", 1),
        F_BOOL(ch_state, events_on, "events_on"),
    };
    TRY(r_section(c, root, "game", keys, fields, COUNT(fields), c->st));
    return r_game_variant(c, json_object_get(root, "game"));
}

/* A card's plot, level and event are arrays of bytes indexed by card, read
 * with the state's base shifted by the card (the same for plots). */
static int r_card(rctx *c, json_t *e, size_t i, void *arg)
{
    static const char *const keys[] = {"id", "name", "plot", "level", "event", NULL};
    static const fspec fields[] = {
        F_NAME(ch_state, card_plot, "plot", v_plot, 1),
        F_U8(ch_state, card_level, "level", 255),
        F_U8(ch_state, card_event, "event", CH_GE_KINDS),
    };
    ch_state *st = c->st;
    (void)arg;
    TRY(r_entry(c, e, keys, "id", CH_MAX_CARDS - 1, i, "cards"));
    TRY(READ_TABLE(c, e, (unsigned char *)st + i, fields));
    if (st->card_event[i] && (st->card_level[i] || st->card_plot[i] != CH_NONE))
        return jfail(c, "an event card has neither a plot nor a level");
    if (!st->card_event[i] && (st->card_level[i] == 0) != (st->card_plot[i] != CH_NONE))
        return jfail(c, "a card has a plot (level 0) or a level (plot null), not %s",
                     st->card_level[i] ? "both" : "neither");
    return 0;
}

/* A card's name, checked once every card is read (it is made from them). */
static int r_card_name(rctx *c, json_t *e, size_t i, void *arg)
{
    const char *name = c->cn.n[i];
    (void)arg;
    TRY(k_same_name(c, e, "name", name,
                    "\"%.40s\" does not match the card's plot and level (\"%s\")", 0));
    if (json_object_get(c->card_map, name))
        return jfail(c, "two cards are named \"%s\"", name);
    if (json_object_set_new(c->card_map, name, json_integer((json_int_t)i)))
        return jfail(c, "out of memory");
    return 0;
}

static int r_cards(rctx *c, json_t *root)
{
    TRY(r_list(c, root, "cards", c->st->ncards, r_card));
    json_card_names(c->st, NULL, &c->cn);
    size_t o = push_key(c, "cards");
    int r = each(c, json_object_get(root, "cards"), r_card_name, NULL);
    pop(c, o);
    return r;
}

static int r_company(rctx *c, json_t *e, size_t i, void *arg)
{
    static const char *const keys[] = {"name", "value", "on_chart", "hq", "bank", "flag", NULL};
    static const fspec fields[] = {
        F_INT(ch_company, value, "value", INT16_MIN, INT16_MAX),
        F_BOOL(ch_company, on_chart, "on_chart"),
        F_NAME(ch_company, hq, "hq", v_plot, 1),
        F_U8(ch_company, bank, "bank", 255),
        F_OF(ch_company, flag, "flag", FK_FLAG, 0),
    };
    (void)arg;
    TRY(r_entry(c, e, keys, NULL, 0, i, NULL));
    TRY(k_same_name(c, e, "name", ch_company_name(c->st, (int)i),
                    "expected \"%s\" (companies are listed in order), got \"%.40s\"", 1));
    return READ_TABLE(c, e, &c->st->co[i], fields);
}

static int r_player(rctx *c, json_t *e, size_t i, void *arg)
{
    static const char *const keys[] = {"seat", "cash", "stocks", "action_cards", "roofs",
                                       "extra_turn_pending", "extra_turn_armed",
                                       "hidden_levels", "flags", "reserve_took", "hand",
                                       "known", NULL};
    const fspec fields[] = {
        F_I32(ch_player, cash, "cash"),
        F_OF(ch_player, stock, "stocks", FK_STOCKS, 255),
        F_U8(ch_player, actions, "action_cards", 255),
        F_U8(ch_player, roofs, "roofs", 255),
        F_BOOL(ch_player, extra_pending, "extra_turn_pending"),
        F_BOOL(ch_player, extra_armed, "extra_turn_armed"),
        F_U8(ch_player, hidden_levels, "hidden_levels", 255),
        F_U8(ch_player, flags, "flags", 255),
        F_U8(ch_player, reserve_took, "reserve_took", 255),
        F_CARDSET(ch_player, hand, "hand", (uint8_t)(CH_LOC_HAND + i)),
        F_CARDSET(ch_player, known, "known", 0xFF),
    };
    (void)arg;
    TRY(r_entry(c, e, keys, "seat", CH_MAX_PLAYERS - 1, i, "players"));
    return READ_TABLE(c, e, &c->st->pl[i], fields);
}

static int r_plot(rctx *c, json_t *e, size_t i, void *arg)
{
    static const char *const keys[] = {"plot", "height", "owner", "flags", NULL};
    static const fspec plot = {.key = "plot", .kind = FK_NAME, .fn = v_plot};
    static const fspec fields[] = {
        F_U8(ch_state, height, "height", 255),
        F_NAME(ch_state, owner, "owner", v_company, 1),
        F_OF(ch_state, pflags, "flags", FK_PFLAGS, 8),
    };
    uint8_t p;
    (void)arg;
    TRY(r_entry(c, e, keys, NULL, 0, i, NULL));
    TRY(read_field(c, e, &p, &plot));
    if (p != i) {
        size_t o = push_key(c, "plot");
        jfail(c, "plots are listed in board order: expected %s here", c->pn.n[i]);
        pop(c, o);
        return -1;
    }
    return READ_TABLE(c, e, (unsigned char *)c->st + i, fields);
}

static int r_table(rctx *c, json_t *root)
{
    static const char *const keys[] = {"supply", "roofs_left", "bank_net", NULL};
    static const fspec fields[] = {
        F_U8(ch_state, supply, "supply", 255),
        F_U8(ch_state, roofs_left, "roofs_left", 255),
        F_INT(ch_state, bank_net, "bank_net", INT64_MIN, INT64_MAX),
    };
    return r_section(c, root, "table", keys, fields, COUNT(fields), c->st);
}

static int r_piles(rctx *c, json_t *root)
{
    static const char *const keys[] = {"deck", "market", "reserve", "discard", "look",
                                       "event_deck", "event_open", "event_discard", NULL};
    const ch_state *st = c->st;
    const fspec fields[] = {
        F_PILE(deck, ndeck, "deck", CH_MAX_CARDS, CH_LOC_DECK),
        {.key = "market", .kind = FK_PILE, .nullable = 1, .loc = CH_LOC_MARKET,
         .off = offsetof(ch_state, market), .off2 = NO_COUNT, .lo = st->market_size},
        F_PILE(reserve, nreserve, "reserve", CH_RESERVE_MAX, CH_LOC_RESERVE),
        F_PILE(discard, ndiscard, "discard", CH_MAX_CARDS, CH_LOC_DISCARD),
        F_PILE(look, nlook, "look", sizeof st->look, CH_LOC_LOOK),
        F_EVENTS(ev_deck, nev_deck, "event_deck", CH_EVENT_CARDS),
        {.key = "event_open", .kind = FK_EVENTS, .nullable = 1,
         .off = offsetof(ch_state, ev_open), .off2 = NO_COUNT, .lo = st->nevent_open},
        F_EVENTS(ev_discard, nev_discard, "event_discard", CH_EVENT_CARDS),
    };
    return r_section(c, root, "piles", keys, fields, COUNT(fields), c->st);
}

static int r_turn(rctx *c, json_t *root)
{
    static const char *const keys[] = {"number", "decisions", "phase", "active", "actor",
                                       "over", "end_triggered", "passes", "event_due",
                                       "founded", "discount_left", "trades", "taken",
                                       "built", "extra_turn", "passed", "built_company",
                                       "deliver_to", "first_seller", NULL};
    static const fspec fields[] = {
        F_INT(ch_state, turn_no, "number", 0, UINT16_MAX),
        F_INT(ch_state, ndecisions, "decisions", 0, UINT32_MAX),
        F_NAME(ch_state, phase, "phase", v_phase, 0),
        F_NAME(ch_state, active, "active", v_seat, 0),
        F_NAME(ch_state, actor, "actor", v_seat, 1),
        F_BOOL(ch_state, over, "over"),
        F_BOOL(ch_state, end_triggered, "end_triggered"),
        F_U8(ch_state, passes, "passes", 255),
        F_BOOL(ch_state, event_due, "event_due"),
        F_NAME(ch_state, founded, "founded", v_company, 1),
        F_U8(ch_state, discount_left, "discount_left", 255),
        F_U8(ch_state, trades, "trades", 255),
        F_U8(ch_state, taken, "taken", 255),
        F_BOOL(ch_state, built, "built"),
        F_BOOL(ch_state, extra_turn, "extra_turn"),
        F_BOOL(ch_state, passed, "passed"),
        F_NAME(ch_state, ga_built, "built_company", v_company, 1),
        F_U8(ch_state, ga_dest, "deliver_to", 255),
        F_NAME(ch_state, ga_seller, "first_seller", v_seat, 1),
    };
    return r_section(c, root, "turn", keys, fields, COUNT(fields), c->st);
}

static int r_build(rctx *c, json_t *root)
{
    static const char *const keys[] = {"card", "card2", "plot", "plot2", "roof", "hq", NULL};
    static const fspec fields[] = {
        F_NAME(ch_state, b_card, "card", v_card, 1),
        F_NAME(ch_state, b_card2, "card2", v_card, 1),
        F_NAME(ch_state, b_plot, "plot", v_plot, 1),
        F_NAME(ch_state, b_plot2, "plot2", v_plot, 1),
        F_BOOL(ch_state, b_roof, "roof"),
        F_NAME(ch_state, b_hq, "hq", v_plot, 1),
    };
    return r_section(c, root, "build", keys, fields, COUNT(fields), c->st);
}

/* The companies still to merge: a list of names, as a bitmask. */
static int r_pending1(rctx *c, json_t *e, size_t i, void *arg)
{
    uint16_t *set = arg;
    uint8_t co;
    (void)i;
    TRY(v_company(c, e, 0, &co));
    if (*set >> co & 1)
        return jfail(c, "%s is listed twice", ch_company_name(c->st, co));
    *set = (uint16_t)(*set | 1u << co);
    return 0;
}

static int v_pending(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    (void)nullable;
    (void)out;
    c->st->m_set = 0;
    TRY(v_array(c, v, -1, CH_MAX_COMPANIES));
    return each(c, v, r_pending1, &c->st->m_set);
}

static int r_merger(rctx *c, json_t *root)
{
    static const char *const keys[] = {"pending", "absorbed", "absorber", "seller",
                                       "sellers_left", NULL};
    static const fspec fields[] = {
        F_NAME(ch_state, m_set, "pending", v_pending, 0),
        F_NAME(ch_state, m_absorbed, "absorbed", v_company, 1),
        F_NAME(ch_state, m_absorber, "absorber", v_company, 1),
        F_NAME(ch_state, m_seller, "seller", v_seat, 1),
        F_U8(ch_state, m_sold_left, "sellers_left", 255),
    };
    return r_section(c, root, "merger", keys, fields, COUNT(fields), c->st);
}

static int r_event(rctx *c, json_t *root)
{
    static const char *const keys[] = {"kind", "open_slot", "from_action", "bidders",
                                       "bids_in", "bid_round", "bids_revealed", "bids",
                                       "lose_left", "offers", "offer", "auction", NULL};
    static const char *const okeys[] = {"to", "give", "ask", NULL};
    static const char *const skeys[] = {"cards", "stocks", "money", NULL};
    static const char *const akeys[] = {"option", "item", "high_bidder", "turn", "out",
                                        "high", NULL};
    static const fspec give[] = {
        F_CARDSET(ch_offer, give_cards, "cards", 0xFF),
        F_OF(ch_offer, give_stock, "stocks", FK_STOCKS, 255),
        F_I32(ch_offer, give_money, "money"),
    };
    static const fspec ask[] = {
        F_CARDSET(ch_offer, ask_cards, "cards", 0xFF),
        F_OF(ch_offer, ask_stock, "stocks", FK_STOCKS, 255),
        F_I32(ch_offer, ask_money, "money"),
    };
    /* the sides are read with the offer as their base */
    static const fspec offer[] = {
        F_NAME(ch_offer, to, "to", v_seat, 1),
        {.key = "give", .kind = FK_OBJ, .sub = give, .nsub = COUNT(give), .keys = skeys},
        {.key = "ask", .kind = FK_OBJ, .sub = ask, .nsub = COUNT(ask), .keys = skeys},
    };
    static const fspec auction[] = {
        F_U8(ch_state, au_option, "option", 255),
        F_NAME(ch_state, au_item, "item", v_au_item, 0),
        F_NAME(ch_state, au_high_bidder, "high_bidder", v_seat, 1),
        F_NAME(ch_state, au_turn, "turn", v_seat, 1),
        F_OF(ch_state, au_out, "out", FK_SEATS, CH_MAX_PLAYERS),
        F_I32(ch_state, au_high, "high"),
    };
    const fspec fields[] = {
        F_NAME(ch_state, ev_kind, "kind", v_event, 1),
        F_U8_OR_NULL(ch_state, ev_slot, "open_slot", CH_EVENT_OPEN_MAX - 1),
        F_BOOL(ch_state, ev_from_action, "from_action"),
        F_OF(ch_state, bid_mask, "bidders", FK_SEATS, CH_MAX_PLAYERS),
        F_OF(ch_state, bid_in, "bids_in", FK_SEATS, CH_MAX_PLAYERS),
        F_U8(ch_state, bid_round, "bid_round", 255),
        F_BOOL(ch_state, bid_revealed, "bids_revealed"),
        {.key = "bids", .kind = FK_I32S, .off = offsetof(ch_state, bid), .lo = c->st->nplayers},
        F_U8(ch_state, lose_left, "lose_left", 255),
        F_U8(ch_state, offers, "offers", 255),
        F_OBJ(ch_state, offer, "offer", offer, okeys),
        {.key = "auction", .kind = FK_OBJ, .sub = auction, .nsub = COUNT(auction), .keys = akeys},
    };
    return r_section(c, root, "event", keys, fields, COUNT(fields), c->st);
}

static int r_leftovers(rctx *c, json_t *root)
{
    static const char *const keys[] = {"deck", "reserve", "discard", "look", "event_deck",
                                       "event_discard", NULL};
    static const fspec fields[] = {
        F_REST(deck, ndeck, "deck", CH_MAX_CARDS),
        F_REST(reserve, nreserve, "reserve", CH_RESERVE_MAX),
        F_REST(discard, ndiscard, "discard", CH_MAX_CARDS),
        F_REST(look, nlook, "look", sizeof((ch_state *)0)->look),
        F_REST(ev_deck, nev_deck, "event_deck", CH_EVENT_CARDS),
        F_REST(ev_discard, nev_discard, "event_discard", CH_EVENT_CARDS),
    };
    return r_section(c, root, "leftovers", keys, fields, COUNT(fields), c->st);
}

static int r_board_plot1(rctx *c, json_t *e, int p)
{
    static const char *const keys[] = {"name", "label", "district", "x", "y",
                                       "adjacent", "bridges", NULL};
    ch_board *b = &c->board;
    TRY(want(c, e, JSON_OBJECT, "an object"));
    TRY(only_keys(c, e, keys));
    json_t *v;
    size_t o;
    int r;
    if (!(v = field(c, e, "label")))
        return -1;
    o = push_key(c, "label");
    r = v_string(c, v, b->plot_label[p], CH_LABEL_LEN);
    pop(c, o);
    TRY(r);
    if (!(v = field(c, e, "district")))
        return -1;
    o = push_key(c, "district");
    r = want(c, v, JSON_STRING, "a district name");
    if (r == 0) {
        int d = -1;
        for (int i = 0; i < b->ndistricts && d < 0; i++)
            if (strcmp(b->district[i], json_string_value(v)) == 0)
                d = i;
        if (d < 0)
            r = jfail(c, "unknown district \"%.60s\"", json_string_value(v));
        else
            b->plot_district[p] = (uint8_t)d;
    }
    pop(c, o);
    TRY(r);
    long long x, y;
    TRY(k_int(c, e, "x", INT8_MIN, INT8_MAX, &x));
    TRY(k_int(c, e, "y", INT8_MIN, INT8_MAX, &y));
    b->gx[p] = (int8_t)x;
    b->gy[p] = (int8_t)y;
    return 0;
}

static int r_board_plot2(rctx *c, json_t *e, int p, const plot_names *pn)
{
    ch_board *b = &c->board;
    json_t *v;
    size_t o;
    int r;
    if (!(v = field(c, e, "name")))
        return -1;
    o = push_key(c, "name");
    r = want(c, v, JSON_STRING, "a string");
    if (r == 0 && strcmp(json_string_value(v), pn->n[p]) != 0)
        r = jfail(c, "\"%.40s\" does not match the district and label (\"%s\")",
                 json_string_value(v), pn->n[p]);
    pop(c, o);
    TRY(r);
    if (!(v = field(c, e, "adjacent")))
        return -1;
    o = push_key(c, "adjacent");
    r = v_array(c, v, -1, CH_MAX_NEIGH);
    size_t i;
    json_t *a;
    json_array_foreach(v, i, a) {
        if (r < 0)
            break;
        size_t o2 = push_idx(c, i);
        r = v_plot(c, a, 0, &b->adj[p][i]);
        for (size_t j = 0; r == 0 && j < i; j++)
            if (b->adj[p][j] == b->adj[p][i])
                r = jfail(c, "%s is listed twice", pn->n[b->adj[p][i]]);
        if (r == 0 && b->adj[p][i] == p)
            r = jfail(c, "a plot is not its own neighbour");
        pop(c, o2);
    }
    if (r == 0)
        b->deg[p] = (uint8_t)json_array_size(v);
    pop(c, o);
    TRY(r);
    if (!(v = field(c, e, "bridges")))
        return -1;
    o = push_key(c, "bridges");
    r = v_array(c, v, -1, CH_MAX_NEIGH);
    json_array_foreach(v, i, a) {
        if (r < 0)
            break;
        size_t o2 = push_idx(c, i);
        uint8_t q;
        r = v_plot(c, a, 0, &q);
        int k = -1;
        for (int j = 0; r == 0 && j < b->deg[p]; j++)
            if (b->adj[p][j] == q)
                k = j;
        if (r == 0 && k < 0)
            r = jfail(c, "%s is not in the adjacent list", pn->n[q]);
        if (r == 0 && (b->bridge[p] >> k & 1))
            r = jfail(c, "%s is listed twice", pn->n[q]);
        if (r == 0)
            b->bridge[p] = (uint8_t)(b->bridge[p] | 1u << k);
        pop(c, o2);
    }
    pop(c, o);
    return r;
}

static int r_board(rctx *c, json_t *root)
{
    static const char *const keys[] = {"name", "districts", "plots", NULL};
    ch_board *b = &c->board;
    json_t *bo, *v;
    TRY(k_obj(c, root, "board", keys, &bo));
    size_t o = push_key(c, "board"), o2;
    int r = 0;
    size_t i;
    json_t *e;

    if (!(v = field(c, bo, "name")))
        r = -1;
    if (r == 0) {
        o2 = push_key(c, "name");
        r = v_string(c, v, b->name, sizeof b->name);
        pop(c, o2);
    }
    if (r == 0 && !(v = field(c, bo, "districts")))
        r = -1;
    if (r == 0) {
        o2 = push_key(c, "districts");
        r = v_array(c, v, -1, CH_MAX_DISTRICTS);
        json_array_foreach(v, i, e) {
            if (r < 0)
                break;
            size_t o3 = push_idx(c, i);
            r = v_string(c, e, b->district[i], CH_NAME_LEN);
            for (size_t j = 0; r == 0 && j < i; j++)
                if (strcmp(b->district[j], b->district[i]) == 0)
                    r = jfail(c, "district \"%s\" is listed twice", b->district[i]);
            pop(c, o3);
        }
        if (r == 0)
            b->ndistricts = (uint8_t)json_array_size(v);
        pop(c, o2);
    }
    json_t *plots = NULL;
    if (r == 0 && !(plots = field(c, bo, "plots")))
        r = -1;
    o2 = push_key(c, "plots");
    if (r == 0)
        r = v_array(c, plots, -1, CH_MAX_PLOTS);
    if (r == 0) {
        b->nplots = (uint8_t)json_array_size(plots);
        json_array_foreach(plots, i, e) {
            size_t o3 = push_idx(c, i);
            r = r_board_plot1(c, e, (int)i);
            pop(c, o3);
            if (r < 0)
                break;
        }
    }
    plot_names *pn = &c->pn;
    if (r == 0) {
        json_plot_names(b, pn);
        for (int p = 0; p < b->nplots && r == 0; p++) {
            if (json_object_get(c->plot_map, pn->n[p])) {
                size_t o3 = push_idx(c, (size_t)p);
                r = jfail(c, "two plots are named \"%s\"", pn->n[p]);
                pop(c, o3);
            } else if (json_object_set_new(c->plot_map, pn->n[p], json_integer(p)) != 0) {
                r = jfail(c, "out of memory");
            }
        }
        json_array_foreach(plots, i, e) {
            if (r < 0)
                break;
            size_t o3 = push_idx(c, i);
            r = r_board_plot2(c, e, (int)i, pn);
            pop(c, o3);
        }
    }
    pop(c, o2);
    if (r == 0) { /* the state refers to the board in the shared table */
        ch_msg m;
        if (board_intern(b, &c->st->board_id, &m) != CH_OK)
            r = jfail(c, "%s", m.text);
    }
    pop(c, o);
    return r;
}

/* What the engine keeps in the slots a document does not describe (entries
 * past a pile's count, plots past the board, companies and players past the
 * game's counts), so that a state read back is byte-identical. */
static void fill_unused(ch_state *st)
{
    memset(st->owner, CH_NONE, sizeof st->owner);
    memset(st->market, CH_NONE, sizeof st->market);
    memset(st->ev_open, CH_NONE, sizeof st->ev_open);
    memset(st->plot_card, CH_NONE, sizeof st->plot_card);
    memset(st->card_plot, CH_NONE, sizeof st->card_plot);
    memset(st->loc, CH_LOC_UNUSED, sizeof st->loc);
    for (int i = 0; i < CH_MAX_COMPANIES; i++)
        st->co[i].hq = CH_NONE;
}

static int r_root(rctx *c, json_t *root)
{
    static const char *const keys[] = {"format", "version", "edition", "seed", "rng",
                                       "game", "board", "cards", "companies", "players",
                                       "plots", "table", "piles", "turn", "build",
                                       "merger", "event", "leftovers", NULL};
    ch_state *st = c->st;
    TRY(want(c, root, JSON_OBJECT, "an object"));
    json_t *v = field(c, root, "format");
    if (!v)
        return -1;
    size_t o = push_key(c, "format");
    int r = want(c, v, JSON_STRING, "a string");
    if (r == 0 && strcmp(json_string_value(v), VIEW_FORMAT) == 0)
        r = jfail(c, "a player's view cannot be loaded (it leaves out hidden information)");
    else if (r == 0 && strcmp(json_string_value(v), STATE_FORMAT) != 0)
        r = jfail(c, "expected \"%s\", got \"%.40s\"", STATE_FORMAT, json_string_value(v));
    pop(c, o);
    TRY(r);
    long long ver;
    TRY(k_int(c, root, "version", LLONG_MIN, LLONG_MAX, &ver));
    if (ver != FORMAT_VERSION) {
        o = push_key(c, "version");
        jfail(c, "version %lld is not supported (this library reads version %d)", ver,
             FORMAT_VERSION);
        pop(c, o);
        return -1;
    }
    TRY(only_keys(c, root, keys));
    if (!(v = field(c, root, "edition")))
        return -1;
    o = push_key(c, "edition");
    r = want(c, v, JSON_STRING, "an edition name");
    int ed = -1;
    for (int i = 0; r == 0 && i < N_EDITIONS && ed < 0; i++)
        if (strcmp(json_string_value(v), json_edition_words[i]) == 0)
            ed = i;
    if (r == 0 && ed < 0)
        r = jfail(c, "unknown edition \"%.40s\"", json_string_value(v));
    pop(c, o);
    TRY(r);
    st->edition = (uint8_t)ed;
    if (!(v = field(c, root, "seed")))
        return -1;
    o = push_key(c, "seed");
    r = v_hex64(c, v, &st->seed);
    pop(c, o);
    TRY(r);
    if (!(v = field(c, root, "rng")))
        return -1;
    o = push_key(c, "rng");
    r = v_array(c, v, 4, 0);
    for (size_t i = 0; r == 0 && i < 4; i++) {
        size_t o2 = push_idx(c, i);
        r = v_hex64(c, json_array_get(v, i), &st->rng[i]);
        pop(c, o2);
    }
    pop(c, o);
    TRY(r);

    TRY(r_game(c, root));
    TRY(r_board(c, root));
    TRY(r_cards(c, root));
    TRY(r_list(c, root, "companies", st->ncompanies, r_company));
    TRY(r_list(c, root, "players", st->nplayers, r_player));
    TRY(r_list(c, root, "plots", BRD(st)->nplots, r_plot));
    TRY(r_table(c, root));
    TRY(r_piles(c, root));
    TRY(r_turn(c, root));
    TRY(r_build(c, root));
    TRY(r_merger(c, root));
    TRY(r_event(c, root));
    TRY(r_leftovers(c, root));

    /* who decides: ch_validate does not look at the turn's context, but
     * ch_decider relies on it */
    if (!st->over && st->phase != CH_PH_OVER && st->phase != CH_PH_BID && st->actor == CH_NONE) {
        o = push_key(c, "turn");
        size_t o2 = push_key(c, "actor");
        jfail(c, "phase \"%s\" needs a deciding player, got null", ch_phase_name(st->phase));
        pop(c, o2);
        pop(c, o);
        return -1;
    }
    if (st->phase == CH_PH_BID &&
        (st->bid_mask == 0 || (st->bid_in & ~st->bid_mask) || st->bid_in == st->bid_mask)) {
        o = push_key(c, "event");
        size_t o2 = push_key(c, "bids_in");
        jfail(c, "during sealed bids, the players whose bid is in must be some but not all "
                 "of the bidders");
        pop(c, o2);
        pop(c, o);
        return -1;
    }

    /* derived tables: the board's neighbour sets, where each card lies, the
     * card of each plot */
    for (int card = 0; card < st->ncards; card++)
        st->loc[card] = c->where[card] == 0xFF ? (uint8_t)CH_LOC_UNUSED : c->where[card];
    for (int card = 0; card < st->ncards; card++) {
        int p = st->card_plot[card];
        if (p == CH_NONE)
            continue;
        if (st->plot_card[p] != CH_NONE) {
            o = push_key(c, "cards");
            size_t o2 = push_idx(c, (size_t)card);
            jfail(c, "plot %s already has card %s", c->pn.n[p], c->cn.n[st->plot_card[p]]);
            pop(c, o2);
            pop(c, o);
            return -1;
        }
        st->plot_card[p] = (uint8_t)card;
    }
    board_rebuild(st); /* the board caches are derived from the board */
    return 0;
}

int ch_state_from_json(ch_state *st, const char *json, ch_msg *why)
{
    ch_msg dummy;
    if (!why)
        why = &dummy;
    why->text[0] = '\0';
    if (!st || !json) {
        snprintf(why->text, sizeof why->text, "ch_state_from_json: no %s given",
                 st ? "JSON text" : "state");
        return CH_EINVAL;
    }
    json_error_t jerr;
    json_t *root = json_loads(json, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        snprintf(why->text, sizeof why->text, "line %d, column %d: %s", jerr.line,
                 jerr.column, jerr.text);
        return CH_EJSON;
    }
    int rc = json_state_read(st, root, why);
    json_decref(root);
    return rc;
}

int json_state_read(ch_state *st, json_t *root, ch_msg *why)
{
    why->text[0] = '\0';
    rctx *c = calloc(1, sizeof *c);
    ch_state *tmp = malloc(sizeof *tmp);
    if (c) {
        c->plot_map = json_object();
        c->card_map = json_object();
    }
    if (!c || !tmp || !c->plot_map || !c->card_map) {
        if (c) {
            json_decref(c->plot_map);
            json_decref(c->card_map);
        }
        free(c);
        free(tmp);
        snprintf(why->text, sizeof why->text, "out of memory");
        return CH_ENOMEM;
    }
    memset(tmp, 0, sizeof *tmp);
    tmp->magic = CH_STATE_MAGIC;
    fill_unused(tmp);
    memset(c->where, 0xFF, sizeof c->where);
    c->st = tmp;

    int rc = CH_OK;
    if (r_root(c, root) < 0) {
        snprintf(why->text, sizeof why->text, "%s", c->msg);
        rc = CH_EJSON;
    } else {
        ch_msg vm;
        vm.text[0] = '\0';
        offer_cache_sync(tmp); /* an offer being built: what it may ask for */
        if (ch_validate(tmp, &vm) != CH_OK) {
            snprintf(why->text, sizeof why->text, "inconsistent state: %.230s", vm.text);
            rc = CH_EJSON;
        } else {
            memcpy(st, tmp, sizeof *st);
        }
    }
    json_decref(c->plot_map);
    json_decref(c->card_map);
    free(c);
    free(tmp);
    return rc;
}
