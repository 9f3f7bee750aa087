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

#include <limits.h>
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

/* A name looked up in map (name -> index); null gives CH_NONE when nullable. */
static int v_named(rctx *c, json_t *v, json_t *map, const char *what, int nullable,
                   uint8_t *out)
{
    if (nullable && json_is_null(v)) {
        *out = CH_NONE;
        return 0;
    }
    if (!json_is_string(v))
        return jfail(c, "expected %s name%s, got %s", what, nullable ? " or null" : "",
                    type_words(v));
    json_t *i = json_object_get(map, json_string_value(v));
    if (!i)
        return jfail(c, "unknown %s \"%.60s\"", what, json_string_value(v));
    *out = (uint8_t)json_integer_value(i);
    return 0;
}

static int v_plot(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    return v_named(c, v, c->plot_map, "plot", nullable, out);
}

static int v_card(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    return v_named(c, v, c->card_map, "card", nullable, out);
}

static int v_company(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    if (nullable && json_is_null(v)) {
        *out = CH_NONE;
        return 0;
    }
    if (!json_is_string(v))
        return jfail(c, "expected a company name%s, got %s", nullable ? " or null" : "",
                    type_words(v));
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
    if (nullable && json_is_null(v)) {
        *out = CH_NONE;
        return 0;
    }
    if (!json_is_integer(v))
        return jfail(c, "expected a seat number%s, got %s", nullable ? " or null" : "",
                    type_words(v));
    return v_u8(c, v, c->st->nplayers - 1, out);
}

static int v_event(rctx *c, json_t *v, int nullable, uint8_t *out)
{
    if (nullable && json_is_null(v)) {
        *out = CH_NONE;
        return 0;
    }
    if (!json_is_string(v))
        return jfail(c, "expected an event name%s, got %s", nullable ? " or null" : "",
                    type_words(v));
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

/* ---- values under a key of an object ----------------------------------- */

typedef int (*reader_u8)(rctx *, json_t *, int, uint8_t *);

static int k_u8(rctx *c, json_t *obj, const char *key, int hi, uint8_t *out)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = v_u8(c, v, hi, out);
    pop(c, o);
    return r;
}

static int k_int(rctx *c, json_t *obj, const char *key, long long lo, long long hi,
                 long long *out)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = v_int(c, v, lo, hi, out);
    pop(c, o);
    return r;
}

static int k_i32(rctx *c, json_t *obj, const char *key, int32_t *out)
{
    long long x;
    TRY(k_int(c, obj, key, INT32_MIN, INT32_MAX, &x));
    *out = (int32_t)x;
    return 0;
}

static int k_bool(rctx *c, json_t *obj, const char *key, uint8_t *out)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = v_bool(c, v, out);
    pop(c, o);
    return r;
}

/* An integer 0..hi, or null for CH_NONE. */
static int k_nullable_u8(rctx *c, json_t *obj, const char *key, int hi, uint8_t *out)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    if (json_is_null(v)) {
        *out = CH_NONE;
        return 0;
    }
    size_t o = push_key(c, key);
    int r = json_is_integer(v) ? v_u8(c, v, hi, out)
                               : jfail(c, "expected an integer or null, got %s", type_words(v));
    pop(c, o);
    return r;
}

static int k_with(rctx *c, json_t *obj, const char *key, reader_u8 fn, int nullable,
                  uint8_t *out)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = fn(c, v, nullable, out);
    pop(c, o);
    return r;
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

/* A list of seats as a bitmask. */
static int k_seats(rctx *c, json_t *obj, const char *key, uint8_t *mask)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = v_array(c, v, -1, CH_MAX_PLAYERS);
    size_t i;
    json_t *e;
    *mask = 0;
    json_array_foreach(v, i, e) {
        if (r < 0)
            break;
        size_t o2 = push_idx(c, i);
        uint8_t s = 0;
        r = v_seat(c, e, 0, &s);
        if (r == 0 && (*mask >> s & 1))
            r = jfail(c, "seat %d is listed twice", s);
        if (r == 0)
            *mask = (uint8_t)(*mask | 1u << s);
        pop(c, o2);
    }
    pop(c, o);
    return r;
}

/* {"Company": n, ...} with every company of the game. */
static int k_stocks(rctx *c, json_t *obj, const char *key, int hi, uint8_t *stock)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = want(c, v, JSON_OBJECT, "an object");
    if (r == 0) {
        const char *k;
        json_t *e;
        json_object_foreach(v, k, e) {
            int known = 0;
            for (int i = 0; i < c->st->ncompanies && !known; i++)
                known = strcmp(k, ch_company_name(c->st, i)) == 0;
            if (!known) {
                size_t o2 = push_key(c, k);
                r = jfail(c, "unknown company");
                pop(c, o2);
                break;
            }
        }
    }
    for (int i = 0; r == 0 && i < c->st->ncompanies; i++)
        r = k_u8(c, v, ch_company_name(c->st, i), hi, &stock[i]);
    pop(c, o);
    return r;
}

/* A list of card names as a bitset (each at most once); unless loc is 0xFF,
 * every card is placed at loc. */
static int place_card(rctx *c, uint8_t card, uint8_t loc, const char *name);
static int k_cardset(rctx *c, json_t *obj, const char *key, uint64_t set[2], uint8_t loc)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = v_array(c, v, -1, CH_MAX_CARDS);
    size_t i;
    json_t *e;
    set[0] = set[1] = 0;
    json_array_foreach(v, i, e) {
        if (r < 0)
            break;
        size_t o2 = push_idx(c, i);
        uint8_t card;
        r = v_card(c, e, 0, &card);
        if (r == 0 && (set[card >> 6] >> (card & 63) & 1))
            r = jfail(c, "card %s is listed twice", json_string_value(e));
        if (r == 0)
            set[card >> 6] |= (uint64_t)1 << (card & 63);
        if (r == 0 && loc != 0xFF)
            r = place_card(c, card, loc, json_string_value(e));
        pop(c, o2);
    }
    pop(c, o);
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

/* A pile of card names into cards[0..max), count in *n; every card placed at loc. */
static int k_pile(rctx *c, json_t *obj, const char *key, uint8_t *cards, size_t max,
                  uint8_t *n, uint8_t loc)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = v_array(c, v, -1, max);
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        if (r < 0)
            break;
        size_t o2 = push_idx(c, i);
        r = v_card(c, e, 0, &cards[i]);
        if (r == 0)
            r = place_card(c, cards[i], loc, json_string_value(e));
        pop(c, o2);
    }
    if (r == 0)
        *n = (uint8_t)json_array_size(v);
    pop(c, o);
    return r;
}

static int k_events(rctx *c, json_t *obj, const char *key, uint8_t *ev, size_t max,
                    long exact, int nullable, uint8_t *n)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = v_array(c, v, exact, max);
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        if (r < 0)
            break;
        size_t o2 = push_idx(c, i);
        r = v_event(c, e, nullable, &ev[i]);
        pop(c, o2);
    }
    if (r == 0 && n)
        *n = (uint8_t)json_array_size(v);
    pop(c, o);
    return r;
}

/* ---- sections --------------------------------------------------------------- */

static int r_game(rctx *c, json_t *root)
{
    static const char *const keys[] = {"player_count", "company_count", "card_count",
                                       "market_size", "open_events", "hand_limit",
                                       "first_player", "total_money", "warehouses_total",
                                       "roofs_total", "preset", "events_on", NULL};
    ch_state *st = c->st;
    json_t *g;
    TRY(k_obj(c, root, "game", keys, &g));
    size_t o = push_key(c, "game");
    int r = 0;
    long long np;
    if (r == 0)
        r = k_int(c, g, "player_count", 1, CH_MAX_PLAYERS, &np);
    if (r == 0)
        st->nplayers = (uint8_t)np;
    if (r == 0)
        r = k_u8(c, g, "company_count", CH_MAX_COMPANIES, &st->ncompanies);
    if (r == 0)
        r = k_u8(c, g, "card_count", CH_MAX_CARDS, &st->ncards);
    if (r == 0)
        r = k_u8(c, g, "market_size", CH_MARKET_MAX, &st->market_size);
    if (r == 0)
        r = k_u8(c, g, "open_events", CH_EVENT_OPEN_MAX, &st->nevent_open);
    if (r == 0)
        r = k_u8(c, g, "hand_limit", 255, &st->max_hand);
    if (r == 0)
        r = k_u8(c, g, "first_player", st->nplayers - 1, &st->first_player);
    if (r == 0)
        r = k_i32(c, g, "total_money", &st->total_money);
    if (r == 0)
        r = k_u8(c, g, "warehouses_total", 255, &st->warehouses_total);
    if (r == 0)
        r = k_u8(c, g, "roofs_total", 255, &st->roofs_total);
    if (r == 0)
        r = k_u8(c, g, "preset", 1, &st->preset);
    if (r == 0)
        r = k_bool(c, g, "events_on", &st->events_on);
    pop(c, o);
    return r;
}

static int r_board_plot1(rctx *c, json_t *e, int p)
{
    static const char *const keys[] = {"name", "label", "district", "x", "y",
                                       "adjacent", "bridges", NULL};
    ch_board *b = &c->st->board;
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
    ch_board *b = &c->st->board;
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
    ch_board *b = &c->st->board;
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
    pop(c, o);
    return r;
}

static int r_cards(rctx *c, json_t *root)
{
    static const char *const keys[] = {"id", "name", "plot", "level", "event", NULL};
    ch_state *st = c->st;
    json_t *v = field(c, root, "cards");
    if (!v)
        return -1;
    size_t o = push_key(c, "cards");
    int r = v_array(c, v, st->ncards, 0);
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        if (r < 0)
            break;
        size_t o2 = push_idx(c, i);
        long long id;
        r = want(c, e, JSON_OBJECT, "an object");
        if (r == 0)
            r = only_keys(c, e, keys);
        if (r == 0)
            r = k_int(c, e, "id", 0, CH_MAX_CARDS - 1, &id);
        if (r == 0 && id != (long long)i) {
            size_t o3 = push_key(c, "id");
            r = jfail(c, "expected %zu (cards are listed by id)", i);
            pop(c, o3);
        }
        if (r == 0)
            r = k_with(c, e, "plot", v_plot, 1, &st->card_plot[i]);
        if (r == 0)
            r = k_u8(c, e, "level", 255, &st->card_level[i]);
        if (r == 0)
            r = k_u8(c, e, "event", CH_GE_KINDS, &st->card_event[i]);
        if (r == 0 && st->card_event[i] && (st->card_level[i] || st->card_plot[i] != CH_NONE))
            r = jfail(c, "an event card has neither a plot nor a level");
        if (r == 0 && !st->card_event[i] && (st->card_level[i] == 0) != (st->card_plot[i] != CH_NONE))
            r = jfail(c, "a card has a plot (level 0) or a level (plot null), not %s",
                     st->card_level[i] ? "both" : "neither");
        pop(c, o2);
    }
    card_names *cn = &c->cn;
    if (r == 0) {
        json_card_names(st, NULL, cn);
        json_array_foreach(v, i, e) {
            size_t o2 = push_idx(c, i);
            json_t *n = field(c, e, "name");
            if (!n) {
                r = -1;
            } else {
                size_t o3 = push_key(c, "name");
                r = want(c, n, JSON_STRING, "a string");
                if (r == 0 && strcmp(json_string_value(n), cn->n[i]) != 0)
                    r = jfail(c, "\"%.40s\" does not match the card's plot and level (\"%s\")",
                             json_string_value(n), cn->n[i]);
                pop(c, o3);
            }
            if (r == 0 && json_object_get(c->card_map, cn->n[i]))
                r = jfail(c, "two cards are named \"%s\"", cn->n[i]);
            if (r == 0 && json_object_set_new(c->card_map, cn->n[i], json_integer((json_int_t)i)))
                r = jfail(c, "out of memory");
            pop(c, o2);
            if (r < 0)
                break;
        }
    }
    pop(c, o);
    return r;
}

static int r_companies(rctx *c, json_t *root)
{
    static const char *const keys[] = {"name", "value", "on_chart", "hq", "bank", "flag", NULL};
    ch_state *st = c->st;
    json_t *v = field(c, root, "companies");
    if (!v)
        return -1;
    size_t o = push_key(c, "companies");
    int r = v_array(c, v, st->ncompanies, 0);
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        if (r < 0)
            break;
        ch_company *co = &st->co[i];
        size_t o2 = push_idx(c, i);
        r = want(c, e, JSON_OBJECT, "an object");
        if (r == 0)
            r = only_keys(c, e, keys);
        json_t *n = r == 0 ? field(c, e, "name") : NULL;
        if (r == 0 && !n)
            r = -1;
        if (r == 0) {
            size_t o3 = push_key(c, "name");
            const char *want_name = ch_company_name(st, (int)i);
            r = want(c, n, JSON_STRING, "a string");
            if (r == 0 && strcmp(json_string_value(n), want_name) != 0)
                r = jfail(c, "expected \"%s\" (companies are listed in order), got \"%.40s\"",
                         want_name, json_string_value(n));
            pop(c, o3);
        }
        long long x;
        if (r == 0)
            r = k_int(c, e, "value", INT16_MIN, INT16_MAX, &x);
        if (r == 0)
            co->value = (int16_t)x;
        if (r == 0)
            r = k_bool(c, e, "on_chart", &co->on_chart);
        if (r == 0)
            r = k_with(c, e, "hq", v_plot, 1, &co->hq);
        if (r == 0)
            r = k_u8(c, e, "bank", 255, &co->bank);
        uint8_t flag = CH_NONE;
        if (r == 0)
            r = k_with(c, e, "flag", v_seat, 1, &flag);
        if (r == 0)
            co->flag = flag == CH_NONE ? 0 : (uint8_t)(flag + 1);
        pop(c, o2);
    }
    pop(c, o);
    return r;
}

static int r_players(rctx *c, json_t *root)
{
    static const char *const keys[] = {"seat", "cash", "stocks", "action_cards", "roofs",
                                       "extra_turn_pending", "extra_turn_armed",
                                       "hidden_levels", "flags", "reserve_took", "hand",
                                       "known", NULL};
    ch_state *st = c->st;
    json_t *v = field(c, root, "players");
    if (!v)
        return -1;
    size_t o = push_key(c, "players");
    int r = v_array(c, v, st->nplayers, 0);
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        if (r < 0)
            break;
        ch_player *pl = &st->pl[i];
        size_t o2 = push_idx(c, i);
        long long seat;
        r = want(c, e, JSON_OBJECT, "an object");
        if (r == 0)
            r = only_keys(c, e, keys);
        if (r == 0)
            r = k_int(c, e, "seat", 0, CH_MAX_PLAYERS - 1, &seat);
        if (r == 0 && seat != (long long)i) {
            size_t o3 = push_key(c, "seat");
            r = jfail(c, "expected %zu (players are listed by seat)", i);
            pop(c, o3);
        }
        if (r == 0)
            r = k_i32(c, e, "cash", &pl->cash);
        if (r == 0)
            r = k_stocks(c, e, "stocks", 255, pl->stock);
        if (r == 0)
            r = k_u8(c, e, "action_cards", 255, &pl->actions);
        if (r == 0)
            r = k_u8(c, e, "roofs", 255, &pl->roofs);
        if (r == 0)
            r = k_bool(c, e, "extra_turn_pending", &pl->extra_pending);
        if (r == 0)
            r = k_bool(c, e, "extra_turn_armed", &pl->extra_armed);
        if (r == 0)
            r = k_u8(c, e, "hidden_levels", 255, &pl->hidden_levels);
        if (r == 0)
            r = k_u8(c, e, "flags", 255, &pl->flags);
        if (r == 0)
            r = k_u8(c, e, "reserve_took", 255, &pl->reserve_took);
        if (r == 0)
            r = k_cardset(c, e, "hand", pl->hand, (uint8_t)(CH_LOC_HAND + i));
        if (r == 0)
            r = k_cardset(c, e, "known", pl->known, 0xFF);
        pop(c, o2);
    }
    pop(c, o);
    return r;
}

static int r_plots(rctx *c, json_t *root)
{
    static const char *const keys[] = {"plot", "height", "owner", "flags", NULL};
    ch_state *st = c->st;
    json_t *v = field(c, root, "plots");
    if (!v)
        return -1;
    size_t o = push_key(c, "plots");
    int r = v_array(c, v, st->board.nplots, 0);
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        if (r < 0)
            break;
        size_t o2 = push_idx(c, i);
        uint8_t plot;
        r = want(c, e, JSON_OBJECT, "an object");
        if (r == 0)
            r = only_keys(c, e, keys);
        if (r == 0)
            r = k_with(c, e, "plot", v_plot, 0, &plot);
        if (r == 0 && plot != i) {
            size_t o3 = push_key(c, "plot");
            r = jfail(c, "plots are listed in board order: expected %s here", c->pn.n[i]);
            pop(c, o3);
        }
        if (r == 0)
            r = k_u8(c, e, "height", 255, &st->height[i]);
        if (r == 0)
            r = k_with(c, e, "owner", v_company, 1, &st->owner[i]);
        json_t *f = r == 0 ? field(c, e, "flags") : NULL;
        if (r == 0 && !f)
            r = -1;
        if (r == 0) {
            size_t o3 = push_key(c, "flags");
            r = v_array(c, f, -1, 8);
            size_t k;
            json_t *fe;
            uint8_t bits = 0;
            json_array_foreach(f, k, fe) {
                if (r < 0)
                    break;
                size_t o4 = push_idx(c, k);
                r = want(c, fe, JSON_STRING, "a flag word");
                int bit = -1;
                for (int b = 0; r == 0 && b < 8 && bit < 0; b++)
                    if (strcmp(json_string_value(fe), json_pflag_words[b]) == 0)
                        bit = b;
                if (r == 0 && bit < 0)
                    r = jfail(c, "unknown plot flag \"%.40s\"", json_string_value(fe));
                if (r == 0 && (bits >> bit & 1))
                    r = jfail(c, "flag \"%s\" is listed twice", json_pflag_words[bit]);
                if (r == 0)
                    bits = (uint8_t)(bits | 1u << bit);
                pop(c, o4);
            }
            st->pflags[i] = bits;
            pop(c, o3);
        }
        pop(c, o2);
    }
    pop(c, o);
    return r;
}

static int r_table(rctx *c, json_t *root)
{
    static const char *const keys[] = {"supply", "roofs_left", "bank_net", NULL};
    ch_state *st = c->st;
    json_t *t;
    TRY(k_obj(c, root, "table", keys, &t));
    size_t o = push_key(c, "table");
    long long x = 0;
    int r = k_u8(c, t, "supply", 255, &st->supply);
    if (r == 0)
        r = k_u8(c, t, "roofs_left", 255, &st->roofs_left);
    if (r == 0)
        r = k_int(c, t, "bank_net", INT64_MIN, INT64_MAX, &x);
    st->bank_net = (int64_t)x;
    pop(c, o);
    return r;
}

static int r_piles(rctx *c, json_t *root)
{
    static const char *const keys[] = {"deck", "market", "reserve", "discard", "look",
                                       "event_deck", "event_open", "event_discard", NULL};
    ch_state *st = c->st;
    json_t *pi;
    TRY(k_obj(c, root, "piles", keys, &pi));
    size_t o = push_key(c, "piles");
    int r = k_pile(c, pi, "deck", st->deck, CH_MAX_CARDS, &st->ndeck, CH_LOC_DECK);
    json_t *m = NULL;
    if (r == 0 && !(m = field(c, pi, "market")))
        r = -1;
    if (r == 0) {
        size_t o2 = push_key(c, "market");
        r = v_array(c, m, st->market_size, 0);
        size_t i;
        json_t *e;
        json_array_foreach(m, i, e) {
            if (r < 0)
                break;
            size_t o3 = push_idx(c, i);
            r = v_card(c, e, 1, &st->market[i]);
            if (r == 0 && st->market[i] != CH_NONE)
                r = place_card(c, st->market[i], CH_LOC_MARKET, json_string_value(e));
            pop(c, o3);
        }
        pop(c, o2);
    }
    if (r == 0)
        r = k_pile(c, pi, "reserve", st->reserve, CH_RESERVE_MAX, &st->nreserve,
                   CH_LOC_RESERVE);
    if (r == 0)
        r = k_pile(c, pi, "discard", st->discard, CH_MAX_CARDS, &st->ndiscard,
                   CH_LOC_DISCARD);
    if (r == 0)
        r = k_pile(c, pi, "look", st->look, sizeof st->look, &st->nlook, CH_LOC_LOOK);
    if (r == 0)
        r = k_events(c, pi, "event_deck", st->ev_deck, CH_EVENT_CARDS, -1, 0, &st->nev_deck);
    if (r == 0)
        r = k_events(c, pi, "event_open", st->ev_open, CH_EVENT_OPEN_MAX, st->nevent_open, 1,
                     NULL);
    if (r == 0)
        r = k_events(c, pi, "event_discard", st->ev_discard, CH_EVENT_CARDS, -1, 0,
                     &st->nev_discard);
    pop(c, o);
    return r;
}

static int r_turn(rctx *c, json_t *root)
{
    static const char *const keys[] = {"number", "decisions", "phase", "active", "actor",
                                       "over", "end_triggered", "passes", "event_due",
                                       "founded", "discount_left", "trades", "taken",
                                       "built", "extra_turn", "passed", "built_company",
                                       "deliver_to", "first_seller", NULL};
    ch_state *st = c->st;
    json_t *t;
    TRY(k_obj(c, root, "turn", keys, &t));
    size_t o = push_key(c, "turn");
    long long x;
    int r = k_int(c, t, "number", 0, UINT16_MAX, &x);
    if (r == 0) {
        st->turn_no = (uint16_t)x;
        r = k_int(c, t, "decisions", 0, UINT32_MAX, &x);
    }
    if (r == 0)
        st->ndecisions = (uint32_t)x;
    json_t *ph = r == 0 ? field(c, t, "phase") : NULL;
    if (r == 0 && !ph)
        r = -1;
    if (r == 0) {
        size_t o2 = push_key(c, "phase");
        r = want(c, ph, JSON_STRING, "a phase name");
        int k = -1;
        for (int i = 0; r == 0 && i < CH_PH_COUNT && k < 0; i++)
            if (strcmp(json_string_value(ph), ch_phase_name(i)) == 0)
                k = i;
        if (r == 0 && k < 0)
            r = jfail(c, "unknown phase \"%.40s\"", json_string_value(ph));
        if (r == 0)
            st->phase = (uint8_t)k;
        pop(c, o2);
    }
    if (r == 0)
        r = k_with(c, t, "active", v_seat, 0, &st->active);
    if (r == 0)
        r = k_with(c, t, "actor", v_seat, 1, &st->actor);
    if (r == 0)
        r = k_bool(c, t, "over", &st->over);
    if (r == 0)
        r = k_bool(c, t, "end_triggered", &st->end_triggered);
    if (r == 0)
        r = k_u8(c, t, "passes", 255, &st->passes);
    if (r == 0)
        r = k_bool(c, t, "event_due", &st->event_due);
    if (r == 0)
        r = k_with(c, t, "founded", v_company, 1, &st->founded);
    if (r == 0)
        r = k_u8(c, t, "discount_left", 255, &st->discount_left);
    if (r == 0)
        r = k_u8(c, t, "trades", 255, &st->trades);
    if (r == 0)
        r = k_u8(c, t, "taken", 255, &st->taken);
    if (r == 0)
        r = k_bool(c, t, "built", &st->built);
    if (r == 0)
        r = k_bool(c, t, "extra_turn", &st->extra_turn);
    if (r == 0)
        r = k_bool(c, t, "passed", &st->passed);
    if (r == 0)
        r = k_with(c, t, "built_company", v_company, 1, &st->ga_built);
    if (r == 0)
        r = k_u8(c, t, "deliver_to", 255, &st->ga_dest);
    if (r == 0)
        r = k_with(c, t, "first_seller", v_seat, 1, &st->ga_seller);
    pop(c, o);
    return r;
}

static int r_build(rctx *c, json_t *root)
{
    static const char *const keys[] = {"card", "card2", "plot", "plot2", "roof", "hq", NULL};
    ch_state *st = c->st;
    json_t *b;
    TRY(k_obj(c, root, "build", keys, &b));
    size_t o = push_key(c, "build");
    int r = k_with(c, b, "card", v_card, 1, &st->b_card);
    if (r == 0)
        r = k_with(c, b, "card2", v_card, 1, &st->b_card2);
    if (r == 0)
        r = k_with(c, b, "plot", v_plot, 1, &st->b_plot);
    if (r == 0)
        r = k_with(c, b, "plot2", v_plot, 1, &st->b_plot2);
    if (r == 0)
        r = k_bool(c, b, "roof", &st->b_roof);
    if (r == 0)
        r = k_with(c, b, "hq", v_plot, 1, &st->b_hq);
    pop(c, o);
    return r;
}

static int r_merger(rctx *c, json_t *root)
{
    static const char *const keys[] = {"pending", "absorbed", "absorber", "seller",
                                       "sellers_left", NULL};
    ch_state *st = c->st;
    json_t *m;
    TRY(k_obj(c, root, "merger", keys, &m));
    size_t o = push_key(c, "merger");
    json_t *v = field(c, m, "pending");
    int r = v ? 0 : -1;
    if (r == 0) {
        size_t o2 = push_key(c, "pending");
        r = v_array(c, v, -1, CH_MAX_COMPANIES);
        size_t i;
        json_t *e;
        st->m_set = 0;
        json_array_foreach(v, i, e) {
            if (r < 0)
                break;
            size_t o3 = push_idx(c, i);
            uint8_t co;
            r = v_company(c, e, 0, &co);
            if (r == 0 && (st->m_set >> co & 1))
                r = jfail(c, "%s is listed twice", ch_company_name(st, co));
            if (r == 0)
                st->m_set = (uint16_t)(st->m_set | 1u << co);
            pop(c, o3);
        }
        pop(c, o2);
    }
    if (r == 0)
        r = k_with(c, m, "absorbed", v_company, 1, &st->m_absorbed);
    if (r == 0)
        r = k_with(c, m, "absorber", v_company, 1, &st->m_absorber);
    if (r == 0)
        r = k_with(c, m, "seller", v_seat, 1, &st->m_seller);
    if (r == 0)
        r = k_u8(c, m, "sellers_left", 255, &st->m_sold_left);
    pop(c, o);
    return r;
}

static int r_offer_side(rctx *c, json_t *of, const char *key, uint8_t *stock,
                        int32_t *money, uint64_t cards[2])
{
    static const char *const keys[] = {"cards", "stocks", "money", NULL};
    json_t *s;
    TRY(k_obj(c, of, key, keys, &s));
    size_t o = push_key(c, key);
    int r = k_cardset(c, s, "cards", cards, 0xFF);
    if (r == 0)
        r = k_stocks(c, s, "stocks", 255, stock);
    if (r == 0)
        r = k_i32(c, s, "money", money);
    pop(c, o);
    return r;
}

static int r_event(rctx *c, json_t *root)
{
    static const char *const keys[] = {"kind", "open_slot", "from_action", "bidders",
                                       "bids_in", "bid_round", "bids_revealed", "bids",
                                       "lose_left", "offers", "offer", "auction", NULL};
    static const char *const okeys[] = {"to", "give", "ask", NULL};
    static const char *const akeys[] = {"option", "item", "high_bidder", "turn", "out",
                                        "high", NULL};
    ch_state *st = c->st;
    json_t *ev;
    TRY(k_obj(c, root, "event", keys, &ev));
    size_t o = push_key(c, "event");
    int r = k_with(c, ev, "kind", v_event, 1, &st->ev_kind);
    if (r == 0)
        r = k_nullable_u8(c, ev, "open_slot", CH_EVENT_OPEN_MAX - 1, &st->ev_slot);
    if (r == 0)
        r = k_bool(c, ev, "from_action", &st->ev_from_action);
    if (r == 0)
        r = k_seats(c, ev, "bidders", &st->bid_mask);
    if (r == 0)
        r = k_seats(c, ev, "bids_in", &st->bid_in);
    if (r == 0)
        r = k_u8(c, ev, "bid_round", 255, &st->bid_round);
    if (r == 0)
        r = k_bool(c, ev, "bids_revealed", &st->bid_revealed);
    json_t *v = r == 0 ? field(c, ev, "bids") : NULL;
    if (r == 0 && !v)
        r = -1;
    if (r == 0) {
        size_t o2 = push_key(c, "bids");
        r = v_array(c, v, st->nplayers, 0);
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            if (r < 0)
                break;
            size_t o3 = push_idx(c, i);
            long long x;
            r = v_int(c, e, INT32_MIN, INT32_MAX, &x);
            st->bid[i] = (int32_t)x;
            pop(c, o3);
        }
        pop(c, o2);
    }
    if (r == 0)
        r = k_u8(c, ev, "lose_left", 255, &st->lose_left);
    if (r == 0)
        r = k_u8(c, ev, "offers", 255, &st->offers);
    json_t *of = NULL;
    if (r == 0)
        r = k_obj(c, ev, "offer", okeys, &of);
    if (r == 0) {
        size_t o2 = push_key(c, "offer");
        r = k_with(c, of, "to", v_seat, 1, &st->offer.to);
        if (r == 0)
            r = r_offer_side(c, of, "give", st->offer.give_stock, &st->offer.give_money,
                             st->offer.give_cards);
        if (r == 0)
            r = r_offer_side(c, of, "ask", st->offer.ask_stock, &st->offer.ask_money,
                             st->offer.ask_cards);
        pop(c, o2);
    }
    json_t *au = NULL;
    if (r == 0)
        r = k_obj(c, ev, "auction", akeys, &au);
    if (r == 0) {
        size_t o2 = push_key(c, "auction");
        r = k_u8(c, au, "option", 255, &st->au_option);
        json_t *it = r == 0 ? field(c, au, "item") : NULL;
        if (r == 0 && !it)
            r = -1;
        if (r == 0 && json_is_string(it) && (st->au_option == 1 || st->au_option == 2))
            r = k_with(c, au, "item", v_company, 0, &st->au_item);
        else if (r == 0)
            r = k_nullable_u8(c, au, "item", CH_NONE - 1, &st->au_item);
        if (r == 0)
            r = k_with(c, au, "high_bidder", v_seat, 1, &st->au_high_bidder);
        if (r == 0)
            r = k_with(c, au, "turn", v_seat, 1, &st->au_turn);
        if (r == 0)
            r = k_seats(c, au, "out", &st->au_out);
        if (r == 0)
            r = k_i32(c, au, "high", &st->au_high);
        pop(c, o2);
    }
    pop(c, o);
    return r;
}

static int k_leftover(rctx *c, json_t *obj, const char *key, uint8_t *arr, int count,
                      int size)
{
    json_t *v = field(c, obj, key);
    if (!v)
        return -1;
    size_t o = push_key(c, key);
    int r = v_array(c, v, -1, (size_t)(size - count));
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        if (r < 0)
            break;
        size_t o2 = push_idx(c, i);
        r = v_u8(c, e, 255, &arr[count + (int)i]);
        pop(c, o2);
    }
    pop(c, o);
    return r;
}

static int r_leftovers(rctx *c, json_t *root)
{
    static const char *const keys[] = {"deck", "reserve", "discard", "look", "event_deck",
                                       "event_discard", NULL};
    ch_state *st = c->st;
    json_t *l;
    TRY(k_obj(c, root, "leftovers", keys, &l));
    size_t o = push_key(c, "leftovers");
    int r = k_leftover(c, l, "deck", st->deck, st->ndeck, CH_MAX_CARDS);
    if (r == 0)
        r = k_leftover(c, l, "reserve", st->reserve, st->nreserve, CH_RESERVE_MAX);
    if (r == 0)
        r = k_leftover(c, l, "discard", st->discard, st->ndiscard, CH_MAX_CARDS);
    if (r == 0)
        r = k_leftover(c, l, "look", st->look, st->nlook, (int)sizeof st->look);
    if (r == 0)
        r = k_leftover(c, l, "event_deck", st->ev_deck, st->nev_deck, CH_EVENT_CARDS);
    if (r == 0)
        r = k_leftover(c, l, "event_discard", st->ev_discard, st->nev_discard, CH_EVENT_CARDS);
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
    TRY(r_companies(c, root));
    TRY(r_players(c, root));
    TRY(r_plots(c, root));
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
    board_derive(&st->board);
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
