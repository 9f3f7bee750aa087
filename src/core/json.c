/* json.c: JSON documents of a game: the full state (ch_state_to_json, read
 * back exactly by ch_state_from_json) and each player's view of it
 * (ch_view_to_json), which leaves out what that player may not see.
 * The layout is documented in docs/formats.md, "JSON state and views".
 *
 * Writing builds a small document tree of our own (arena-allocated, much
 * cheaper than a jansson tree) and prints it, keeping short arrays and
 * objects on one line. Reading parses with jansson and is strict: every key
 * is required, unknown keys are refused, every name must resolve and every
 * number must be in range; the first problem is reported with its JSON path
 * ("players[2].cash: expected an integer, got a string"). The caller's state
 * is only overwritten once the whole document has been read and ch_validate
 * accepted it.
 */
#include "chartered.h"
#include "internal.h"

#include <jansson.h>

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATE_FORMAT "chartered-state"
#define VIEW_FORMAT "chartered-view"
#define FORMAT_VERSION 1

/* Names of plots and cards are at most "District label#id". */
#define JNAME_LEN (CH_NAME_LEN + CH_LABEL_LEN + 16)

/* ========================================================================== */
/* Names shared by writer and reader                                          */
/* ========================================================================== */

static const char *const edition_words[] = {"amsterdam", "golden-age"};
#define N_EDITIONS ((int)(sizeof edition_words / sizeof edition_words[0]))

static const char *const pflag_words[8] = {"hq", "upside", "roof", "nopiece",
                                           "free", "bit5", "bit6", "bit7"};

/* Plot names ("Harbour C1") of the state's board, index by plot. */
typedef struct plot_names {
    char n[CH_MAX_PLOTS][JNAME_LEN];
} plot_names;

/* Card names: ch_card_name's name, followed by "#id" when several cards of
 * the game share that name (the level cards "L2#97"), so every card has a
 * name of its own and ids survive a round trip. */
typedef struct card_names {
    char n[CH_MAX_CARDS][JNAME_LEN];
} card_names;

static void make_plot_names(const ch_board *b, plot_names *pn)
{
    for (int i = 0; i < b->nplots && i < CH_MAX_PLOTS; i++) {
        char tmp[64];
        int len = ch_plot_name(b, i, tmp, sizeof tmp);
        if (len < 0 || len >= (int)sizeof tmp)
            snprintf(pn->n[i], JNAME_LEN, "plot#%d", i);
        else
            snprintf(pn->n[i], JNAME_LEN, "%.*s", JNAME_LEN - 1, tmp);
    }
}

static void make_card_names(const ch_state *st, card_names *cn)
{
    int n = st->ncards <= CH_MAX_CARDS ? st->ncards : CH_MAX_CARDS;
    char base[CH_MAX_CARDS][JNAME_LEN];
    for (int c = 0; c < n; c++) {
        char tmp[64];
        int len = ch_card_name(st, c, tmp, sizeof tmp);
        if (len < 0 || len >= (int)sizeof tmp || strcmp(tmp, "?") == 0) {
            if (st->card_level[c] > 0)
                snprintf(base[c], JNAME_LEN, "L%d", st->card_level[c]);
            else
                snprintf(base[c], JNAME_LEN, "card");
        } else {
            snprintf(base[c], JNAME_LEN, "%.*s", JNAME_LEN - 6, tmp);
        }
    }
    for (int c = 0; c < n; c++) {
        int shared = 0;
        for (int d = 0; d < n && !shared; d++)
            if (d != c && base[d][0] == base[c][0] && strcmp(base[d], base[c]) == 0)
                shared = 1;
        if (shared)
            snprintf(cn->n[c], JNAME_LEN, "%.*s#%d", JNAME_LEN - 6, base[c], c);
        else
            memcpy(cn->n[c], base[c], JNAME_LEN);
    }
}

/* ========================================================================== */
/* Document tree and printer                                                  */
/* ========================================================================== */

#define LINE_WIDTH 100

/* The writer builds its document as a small tree of its own, allocated from an
 * arena (much cheaper than a jansson tree), then prints it. Strings are not
 * copied: they must live until the document is printed (literals, the name
 * tables, the state itself), except those made by j_hex. */
enum { N_NULL, N_TRUE, N_FALSE, N_INT, N_STR, N_ARR, N_OBJ };

typedef struct jnode {
    struct jnode *next, *first, *last; /* siblings; children of a container */
    const char *key;                   /* member name inside an object       */
    const char *s;                     /* N_STR                              */
    long long i;                       /* N_INT                              */
    size_t flat;                       /* length on one line; 0: not known   */
    int type;
} jnode;

typedef struct arena {
    struct arena *next;
    size_t used, cap;
    max_align_t data[];
} arena;

#define ARENA_BLOCK 65536

static void *arena_alloc(arena **a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!*a || (*a)->used + n > (*a)->cap) {
        size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        arena *b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = *a;
        b->used = 0;
        b->cap = cap;
        *a = b;
    }
    void *p = (char *)(*a)->data + (*a)->used;
    (*a)->used += n;
    return p;
}

static void arena_free(arena *a)
{
    while (a) {
        arena *n = a->next;
        free(a);
        a = n;
    }
}

typedef struct sbuf {
    char *p;
    size_t len, cap;
    int oom;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_puts(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

static void sb_indent(sbuf *b, int n)
{
    static const char spaces[] = "                                ";
    while (n > 0) {
        int k = n < 32 ? n : 32;
        sb_put(b, spaces, (size_t)k);
        n -= k;
    }
}

/* Length of the leading run of s that needs no escape in a JSON string. */
static size_t plain_run(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u >= 0x20 && *u != '"' && *u != '\\')
        u++;
    return (size_t)(u - (const unsigned char *)s);
}

/* Length of a JSON string literal for s (with quotes). */
static size_t str_len(const char *s)
{
    size_t n = 2;
    for (;;) {
        size_t run = plain_run(s);
        n += run;
        s += run;
        if (!*s)
            return n;
        unsigned char u = (unsigned char)*s++;
        n += (u == '"' || u == '\\' || u == '\n' || u == '\t' || u == '\r' || u == '\b' ||
              u == '\f')
                 ? 2
                 : 6;
    }
}

static void sb_str(sbuf *b, const char *s)
{
    sb_put(b, "\"", 1);
    for (;;) {
        size_t run = plain_run(s);
        sb_put(b, s, run);
        s += run;
        if (!*s)
            break;
        unsigned char u = (unsigned char)*s++;
        char hex[8];
        switch (u) {
        case '"': sb_put(b, "\\\"", 2); break;
        case '\\': sb_put(b, "\\\\", 2); break;
        case '\n': sb_put(b, "\\n", 2); break;
        case '\t': sb_put(b, "\\t", 2); break;
        case '\r': sb_put(b, "\\r", 2); break;
        case '\b': sb_put(b, "\\b", 2); break;
        case '\f': sb_put(b, "\\f", 2); break;
        default:
            snprintf(hex, sizeof hex, "\\u%04x", u);
            sb_put(b, hex, 6);
        }
    }
    sb_put(b, "\"", 1);
}

/* Decimal text of an integer (buf holds at least 24 bytes); returns its length. */
static int int_text(long long x, char *buf)
{
    char tmp[24];
    int n = 0, len = 0;
    unsigned long long u = x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (x < 0)
        buf[len++] = '-';
    while (n)
        buf[len++] = tmp[--n];
    buf[len] = '\0';
    return len;
}

static int scalar_text(const jnode *v, char *buf, size_t n)
{
    switch (v->type) {
    case N_INT:
        return int_text(v->i, buf);
    case N_TRUE:
        return snprintf(buf, n, "true");
    case N_FALSE:
        return snprintf(buf, n, "false");
    default:
        return snprintf(buf, n, "null");
    }
}

/* Length of v printed on one line (computed once per node). */
static size_t flat_len(jnode *v)
{
    char tmp[64];
    if (v->flat)
        return v->flat;
    size_t n;
    if (v->type == N_STR) {
        n = str_len(v->s);
    } else if (v->type == N_ARR || v->type == N_OBJ) {
        n = 2;
        for (jnode *e = v->first; e; e = e->next) {
            n += (e == v->first ? 0 : 2) + flat_len(e);
            if (v->type == N_OBJ)
                n += str_len(e->key) + 2;
        }
    } else {
        n = (size_t)scalar_text(v, tmp, sizeof tmp);
    }
    v->flat = n;
    return n;
}

/* Print v; col is the column where it starts, ind the indentation of its line. */
static void print_value(sbuf *b, jnode *v, int ind, size_t col)
{
    char tmp[64];
    if (v->type == N_STR) {
        sb_str(b, v->s);
        return;
    }
    if (v->type != N_ARR && v->type != N_OBJ) {
        int n = scalar_text(v, tmp, sizeof tmp);
        sb_put(b, tmp, (size_t)n);
        return;
    }
    int obj = v->type == N_OBJ;
    if (!v->first) {
        sb_puts(b, obj ? "{}" : "[]");
        return;
    }
    size_t room = col < LINE_WIDTH ? LINE_WIDTH - col : 0;
    int one_line = flat_len(v) <= room;
    /* lists of scalars, and objects whose values are all of one scalar type
     * (stock holdings), are filled line by line; other objects get a line
     * per member */
    int scalars = 1;
    for (jnode *e = v->first; e && scalars; e = e->next)
        scalars = e->type != N_ARR && e->type != N_OBJ && (!obj || e->type == v->first->type);
    sb_puts(b, obj ? "{" : "[");
    if (!one_line && scalars) {
        /* a long list of scalars: as many per line as fit */
        size_t at = (size_t)ind + 2;
        sb_puts(b, "\n");
        sb_indent(b, ind + 2);
        for (jnode *e = v->first; e; e = e->next) {
            size_t w = flat_len(e) + (obj ? str_len(e->key) + 2 : 0);
            if (e != v->first) {
                if (at + 2 + w > LINE_WIDTH) {
                    sb_puts(b, ",\n");
                    sb_indent(b, ind + 2);
                    at = (size_t)ind + 2;
                } else {
                    sb_puts(b, ", ");
                    at += 2;
                }
            }
            if (obj) {
                sb_str(b, e->key);
                sb_puts(b, ": ");
            }
            print_value(b, e, ind + 2, 0);
            at += w;
        }
        sb_puts(b, "\n");
        sb_indent(b, ind);
        sb_puts(b, obj ? "}" : "]");
        return;
    }
    for (jnode *e = v->first; e; e = e->next) {
        size_t c = 0;
        if (one_line) {
            if (e != v->first)
                sb_puts(b, ", ");
        } else {
            sb_puts(b, e == v->first ? "\n" : ",\n");
            sb_indent(b, ind + 2);
            c = (size_t)ind + 2;
        }
        if (obj) {
            sb_str(b, e->key);
            sb_puts(b, ": ");
            c += str_len(e->key) + 2;
        }
        print_value(b, e, one_line ? ind : ind + 2, one_line ? 0 : c);
    }
    if (!one_line) {
        sb_puts(b, "\n");
        sb_indent(b, ind);
    }
    sb_puts(b, obj ? "}" : "]");
}

/* Prints the tree; NULL when any allocation failed. */
static char *finish_doc(jnode *root, int oom)
{
    if (!root || oom)
        return NULL;
    sbuf b = {0};
    print_value(&b, root, 0, 0);
    sb_puts(&b, "\n");
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

void ch_free(void *p) { free(p); }

/* ========================================================================== */
/* Writer                                                                     */
/* ========================================================================== */

typedef struct wctx {
    const ch_state *st;
    int view;          /* 0: full state; 1: a player's view                   */
    int viewer;        /* view: the seat, or -1 for a spectator               */
    int oom;
    arena *mem;
    plot_names pn;
    card_names cn;
} wctx;

static jnode *node(wctx *w, int type)
{
    jnode *n = arena_alloc(&w->mem, sizeof *n);
    if (!n) {
        w->oom = 1;
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->type = type;
    return n;
}

static void add(wctx *w, jnode *parent, const char *key, jnode *v)
{
    if (!parent || !v) {
        w->oom = 1;
        return;
    }
    v->key = key;
    if (parent->last)
        parent->last->next = v;
    else
        parent->first = v;
    parent->last = v;
}

static void put(wctx *w, jnode *obj, const char *key, jnode *v) { add(w, obj, key, v); }
static void push(wctx *w, jnode *arr, jnode *v) { add(w, arr, NULL, v); }

static jnode *j_int(wctx *w, long long v)
{
    jnode *n = node(w, N_INT);
    if (n)
        n->i = v;
    return n;
}

/* s must live until the document is printed. */
static jnode *j_str(wctx *w, const char *s)
{
    jnode *n = node(w, N_STR);
    if (n)
        n->s = s;
    return n;
}

static jnode *j_bool(wctx *w, int v) { return node(w, v ? N_TRUE : N_FALSE); }
static jnode *j_null(wctx *w) { return node(w, N_NULL); }
static jnode *j_obj(wctx *w) { return node(w, N_OBJ); }
static jnode *j_arr(wctx *w) { return node(w, N_ARR); }

static jnode *j_hex(wctx *w, uint64_t v)
{
    char *t = arena_alloc(&w->mem, 20);
    if (!t) {
        w->oom = 1;
        return NULL;
    }
    snprintf(t, 20, "%016llx", (unsigned long long)v);
    return j_str(w, t);
}

static jnode *j_plot(wctx *w, int plot)
{
    if (plot == CH_NONE || plot >= w->st->board.nplots)
        return j_null(w);
    return j_str(w, w->pn.n[plot]);
}

static jnode *j_card(wctx *w, int card)
{
    if (card == CH_NONE || card >= w->st->ncards)
        return j_null(w);
    return j_str(w, w->cn.n[card]);
}

static jnode *j_company(wctx *w, int co)
{
    if (co == CH_NONE || co >= w->st->ncompanies)
        return j_null(w);
    return j_str(w, ch_company_name(w->st, co));
}

static jnode *j_seat(wctx *w, int seat)
{
    if (seat == CH_NONE || seat >= w->st->nplayers)
        return j_null(w);
    return j_int(w, seat);
}

/* An event kind by name: Building Amsterdam's stock events, or The Golden
 * Age's event cards ("sell 2", "all -f30", ...). */
static jnode *j_event(wctx *w, int kind)
{
    int ga = w->st->edition == CH_ED_GOLDEN_AGE;
    if (kind == CH_NONE || kind >= (ga ? CH_GE_KINDS : CH_EV_KINDS))
        return j_null(w);
    return j_str(w, ga ? ch_ga_event_name(kind) : ch_event_name(kind));
}

/* A card set (bitset) as a list of names, by id. */
static jnode *j_cardset(wctx *w, const uint64_t set[2])
{
    jnode *a = j_arr(w);
    for (int c = 0; c < w->st->ncards && c < CH_MAX_CARDS; c++)
        if (set[c >> 6] >> (c & 63) & 1)
            push(w, a, j_card(w, c));
    return a;
}

static jnode *j_cardlist(wctx *w, const uint8_t *cards, int n)
{
    jnode *a = j_arr(w);
    for (int i = 0; i < n; i++)
        push(w, a, j_card(w, cards[i]));
    return a;
}

static jnode *j_seats(wctx *w, unsigned mask)
{
    jnode *a = j_arr(w);
    for (int p = 0; p < w->st->nplayers; p++)
        if (mask >> p & 1)
            push(w, a, j_int(w, p));
    return a;
}

static jnode *j_stocks(wctx *w, const uint8_t *stock)
{
    jnode *o = j_obj(w);
    for (int c = 0; c < w->st->ncompanies; c++)
        put(w, o, ch_company_name(w->st, c), j_int(w, stock[c]));
    return o;
}

static jnode *w_game(wctx *w)
{
    const ch_state *st = w->st;
    jnode *o = j_obj(w);
    put(w, o, "player_count", j_int(w, st->nplayers));
    put(w, o, "company_count", j_int(w, st->ncompanies));
    put(w, o, "card_count", j_int(w, st->ncards));
    put(w, o, "market_size", j_int(w, st->market_size));
    put(w, o, "open_events", j_int(w, st->nevent_open));
    put(w, o, "hand_limit", j_int(w, st->max_hand));
    put(w, o, "first_player", j_int(w, st->first_player));
    put(w, o, "total_money", j_int(w, st->total_money));
    put(w, o, "warehouses_total", j_int(w, st->warehouses_total));
    put(w, o, "roofs_total", j_int(w, st->roofs_total));
    put(w, o, "preset", j_int(w, st->preset));
    put(w, o, "events_on", j_bool(w, st->events_on));
    return o;
}

static jnode *w_board(wctx *w)
{
    const ch_board *b = &w->st->board;
    jnode *o = j_obj(w);
    put(w, o, "name", j_str(w, b->name));
    jnode *d = j_arr(w);
    for (int i = 0; i < b->ndistricts && i < CH_MAX_DISTRICTS; i++)
        push(w, d, j_str(w, b->district[i]));
    put(w, o, "districts", d);
    jnode *plots = j_arr(w);
    for (int p = 0; p < b->nplots && p < CH_MAX_PLOTS; p++) {
        jnode *e = j_obj(w);
        put(w, e, "name", j_str(w, w->pn.n[p]));
        put(w, e, "label", j_str(w, b->plot_label[p]));
        put(w, e, "district",
            b->plot_district[p] < b->ndistricts && b->plot_district[p] < CH_MAX_DISTRICTS
                ? j_str(w, b->district[b->plot_district[p]])
                : j_null(w));
        put(w, e, "x", j_int(w, b->gx[p]));
        put(w, e, "y", j_int(w, b->gy[p]));
        jnode *adj = j_arr(w), *br = j_arr(w);
        for (int i = 0; i < b->deg[p] && i < CH_MAX_NEIGH; i++) {
            push(w, adj, j_plot(w, b->adj[p][i]));
            if (b->bridge[p] >> i & 1)
                push(w, br, j_plot(w, b->adj[p][i]));
        }
        put(w, e, "adjacent", adj);
        put(w, e, "bridges", br);
        push(w, plots, e);
    }
    put(w, o, "plots", plots);
    return o;
}

static jnode *w_cards(wctx *w)
{
    const ch_state *st = w->st;
    jnode *a = j_arr(w);
    for (int c = 0; c < st->ncards && c < CH_MAX_CARDS; c++) {
        jnode *e = j_obj(w);
        /* Which Golden Age event cards are still in the deck is hidden: with
         * fewer than 12 in the game, the table would tell which were left out.
         * A view names an event card only once it has been discarded. */
        int hide = w->view && st->card_event[c] && st->loc[c] != CH_LOC_DISCARD;
        put(w, e, "id", j_int(w, c));
        put(w, e, "name", hide ? j_str(w, "event") : j_card(w, c));
        put(w, e, "plot", j_plot(w, st->card_plot[c]));
        put(w, e, "level", j_int(w, st->card_level[c]));
        put(w, e, "event", hide ? j_null(w) : j_int(w, st->card_event[c]));
        push(w, a, e);
    }
    return a;
}

static jnode *w_companies(wctx *w)
{
    const ch_state *st = w->st;
    jnode *a = j_arr(w);
    for (int c = 0; c < st->ncompanies; c++) {
        const ch_company *co = &st->co[c];
        jnode *e = j_obj(w);
        put(w, e, "name", j_str(w, ch_company_name(st, c)));
        put(w, e, "value", j_int(w, co->value));
        put(w, e, "on_chart", j_bool(w, co->on_chart));
        put(w, e, "hq", j_plot(w, co->hq));
        put(w, e, "bank", j_int(w, co->bank));
        put(w, e, "flag", j_seat(w, co->flag ? co->flag - 1 : CH_NONE));
        push(w, a, e);
    }
    return a;
}

static int popcount2(const uint64_t s[2])
{
    int n = 0;
    for (int i = 0; i < 2; i++)
        for (uint64_t x = s[i]; x; x &= x - 1)
            n++;
    return n;
}

static jnode *w_players(wctx *w)
{
    const ch_state *st = w->st;
    jnode *a = j_arr(w);
    for (int p = 0; p < st->nplayers; p++) {
        const ch_player *pl = &st->pl[p];
        jnode *e = j_obj(w);
        put(w, e, "seat", j_int(w, p));
        put(w, e, "cash", j_int(w, pl->cash));
        /* stock holdings are public in Building Amsterdam, private in The
         * Golden Age (RULINGS.md "Hidden information") */
        if (!w->view || w->viewer == p || st->edition != CH_ED_GOLDEN_AGE)
            put(w, e, "stocks", j_stocks(w, pl->stock));
        put(w, e, "action_cards", j_int(w, pl->actions));
        put(w, e, "roofs", j_int(w, pl->roofs));
        put(w, e, "extra_turn_pending", j_bool(w, pl->extra_pending));
        put(w, e, "extra_turn_armed", j_bool(w, pl->extra_armed));
        put(w, e, "hidden_levels", j_int(w, pl->hidden_levels));
        put(w, e, "flags", j_int(w, pl->flags));
        if (!w->view || w->viewer == p) /* private: which levels came from the reserve */
            put(w, e, "reserve_took", j_int(w, pl->reserve_took));
        if (w->view)
            put(w, e, "hand_count", j_int(w, popcount2(pl->hand)));
        if (!w->view || w->viewer == p)
            put(w, e, "hand", j_cardset(w, pl->hand));
        put(w, e, "known", j_cardset(w, pl->known));
        push(w, a, e);
    }
    return a;
}

static jnode *w_plots(wctx *w)
{
    const ch_state *st = w->st;
    jnode *a = j_arr(w);
    for (int p = 0; p < st->board.nplots && p < CH_MAX_PLOTS; p++) {
        jnode *e = j_obj(w);
        put(w, e, "plot", j_str(w, w->pn.n[p]));
        put(w, e, "height", j_int(w, st->height[p]));
        put(w, e, "owner", j_company(w, st->owner[p]));
        jnode *f = j_arr(w);
        for (int i = 0; i < 8; i++)
            if (st->pflags[p] >> i & 1)
                push(w, f, j_str(w, pflag_words[i]));
        put(w, e, "flags", f);
        push(w, a, e);
    }
    return a;
}

static jnode *w_table(wctx *w)
{
    const ch_state *st = w->st;
    jnode *o = j_obj(w);
    put(w, o, "supply", j_int(w, st->supply));
    put(w, o, "roofs_left", j_int(w, st->roofs_left));
    put(w, o, "bank_net", j_int(w, st->bank_net));
    return o;
}

/* Are the look cards hidden from this view? (Veilinge option 3: only the
 * picker sees the ten cards, and only while picking.) */
static int look_hidden(const wctx *w)
{
    const ch_state *st = w->st;
    if (!w->view || st->nlook == 0 || st->au_option != 3)
        return 0;
    return !(st->phase == CH_PH_PICK && w->viewer >= 0 && w->viewer == st->actor);
}

static jnode *w_piles(wctx *w)
{
    const ch_state *st = w->st;
    jnode *o = j_obj(w);
    if (w->view)
        put(w, o, "deck_count", j_int(w, st->ndeck));
    else
        put(w, o, "deck", j_cardlist(w, st->deck, st->ndeck));
    jnode *m = j_arr(w);
    for (int i = 0; i < st->market_size && i < CH_MARKET_MAX; i++)
        push(w, m, j_card(w, st->market[i]));
    put(w, o, "market", m);
    if (w->view)
        put(w, o, "reserve_count", j_int(w, st->nreserve));
    else
        put(w, o, "reserve", j_cardlist(w, st->reserve, st->nreserve));
    put(w, o, "discard", j_cardlist(w, st->discard, st->ndiscard));
    if (look_hidden(w))
        put(w, o, "look_count", j_int(w, st->nlook));
    else
        put(w, o, "look", j_cardlist(w, st->look, st->nlook));
    if (w->view) {
        put(w, o, "event_deck_count", j_int(w, st->nev_deck));
    } else {
        jnode *d = j_arr(w);
        for (int i = 0; i < st->nev_deck && i < CH_EVENT_CARDS; i++)
            push(w, d, j_event(w, st->ev_deck[i]));
        put(w, o, "event_deck", d);
    }
    jnode *op = j_arr(w);
    for (int i = 0; i < st->nevent_open && i < CH_EVENT_OPEN_MAX; i++)
        push(w, op, j_event(w, st->ev_open[i]));
    put(w, o, "event_open", op);
    jnode *d = j_arr(w);
    for (int i = 0; i < st->nev_discard && i < CH_EVENT_CARDS; i++)
        push(w, d, j_event(w, st->ev_discard[i]));
    put(w, o, "event_discard", d);
    return o;
}

static jnode *w_turn(wctx *w)
{
    const ch_state *st = w->st;
    jnode *o = j_obj(w);
    put(w, o, "number", j_int(w, st->turn_no));
    put(w, o, "decisions", j_int(w, st->ndecisions));
    put(w, o, "phase", j_str(w, ch_phase_name(st->phase)));
    put(w, o, "active", j_int(w, st->active));
    put(w, o, "actor", j_seat(w, st->actor));
    put(w, o, "over", j_bool(w, st->over));
    put(w, o, "end_triggered", j_bool(w, st->end_triggered));
    put(w, o, "passes", j_int(w, st->passes));
    put(w, o, "event_due", j_bool(w, st->event_due));
    put(w, o, "founded", j_company(w, st->founded));
    put(w, o, "discount_left", j_int(w, st->discount_left));
    put(w, o, "trades", j_int(w, st->trades));
    put(w, o, "taken", j_int(w, st->taken));
    put(w, o, "built", j_bool(w, st->built));
    put(w, o, "extra_turn", j_bool(w, st->extra_turn));
    put(w, o, "passed", j_bool(w, st->passed));
    put(w, o, "built_company", j_company(w, st->ga_built));
    put(w, o, "deliver_to", j_int(w, st->ga_dest));
    put(w, o, "first_seller", j_seat(w, st->ga_seller));
    return o;
}

static jnode *w_build(wctx *w)
{
    const ch_state *st = w->st;
    jnode *o = j_obj(w);
    put(w, o, "card", j_card(w, st->b_card));
    put(w, o, "card2", j_card(w, st->b_card2));
    put(w, o, "plot", j_plot(w, st->b_plot));
    put(w, o, "plot2", j_plot(w, st->b_plot2));
    put(w, o, "roof", j_bool(w, st->b_roof));
    put(w, o, "hq", j_plot(w, st->b_hq));
    return o;
}

static jnode *w_merger(wctx *w)
{
    const ch_state *st = w->st;
    jnode *o = j_obj(w);
    jnode *a = j_arr(w);
    for (int c = 0; c < st->ncompanies; c++)
        if (st->m_set >> c & 1)
            push(w, a, j_company(w, c));
    put(w, o, "pending", a);
    put(w, o, "absorbed", j_company(w, st->m_absorbed));
    put(w, o, "absorber", j_company(w, st->m_absorber));
    put(w, o, "seller", j_seat(w, st->m_seller));
    put(w, o, "sellers_left", j_int(w, st->m_sold_left));
    return o;
}

/* One side of a Coopmanscappen offer; owner holds its cards. In a view, the
 * active player (who builds the offer), the owner, and the player offered to
 * once the offer is sent see every card; anyone else sees only the cards
 * every player knows of, and a count of the others. */
static jnode *w_offer_side(wctx *w, const uint8_t *stock, int32_t money,
                            const uint64_t cards[2], int owner)
{
    const ch_state *st = w->st;
    jnode *o = j_obj(w);
    uint64_t shown[2] = {cards[0], cards[1]};
    int hidden = 0;
    if (w->view) {
        int party = w->viewer >= 0 &&
                    (w->viewer == owner || w->viewer == st->active ||
                     (w->viewer == st->offer.to && st->phase == CH_PH_RESPOND));
        if (!party && owner >= 0 && owner < st->nplayers) {
            for (int i = 0; i < 2; i++)
                shown[i] = cards[i] & st->pl[owner].known[i];
            hidden = popcount2(cards) - popcount2(shown);
        } else if (!party) {
            shown[0] = shown[1] = 0;
            hidden = popcount2(cards);
        }
    }
    put(w, o, "cards", j_cardset(w, shown));
    if (w->view)
        put(w, o, "hidden_cards", j_int(w, hidden));
    put(w, o, "stocks", j_stocks(w, stock));
    put(w, o, "money", j_int(w, money));
    return o;
}

static jnode *w_event(wctx *w)
{
    const ch_state *st = w->st;
    jnode *o = j_obj(w);
    put(w, o, "kind", j_event(w, st->ev_kind));
    put(w, o, "open_slot", st->ev_slot == CH_NONE ? j_null(w) : j_int(w, st->ev_slot));
    put(w, o, "from_action", j_bool(w, st->ev_from_action));
    put(w, o, "bidders", j_seats(w, st->bid_mask));
    put(w, o, "bids_in", j_seats(w, st->bid_in));
    put(w, o, "bid_round", j_int(w, st->bid_round));
    put(w, o, "bids_revealed", j_bool(w, st->bid_revealed));
    jnode *bids = j_arr(w);
    for (int p = 0; p < st->nplayers; p++) {
        /* bid_revealed: bid[] holds the last round's bids, all shown at the
         * table; otherwise only the viewer's own sealed bid is visible */
        int visible = !w->view || st->bid_revealed || w->viewer == p;
        push(w, bids, visible ? j_int(w, st->bid[p]) : j_null(w));
    }
    put(w, o, "bids", bids);
    put(w, o, "lose_left", j_int(w, st->lose_left));
    put(w, o, "offers", j_int(w, st->offers));
    jnode *of = j_obj(w);
    put(w, of, "to", j_seat(w, st->offer.to));
    put(w, of, "give", w_offer_side(w, st->offer.give_stock, st->offer.give_money,
                                    st->offer.give_cards, st->active));
    put(w, of, "ask", w_offer_side(w, st->offer.ask_stock, st->offer.ask_money,
                                   st->offer.ask_cards,
                                   st->offer.to == CH_NONE ? -1 : st->offer.to));
    put(w, o, "offer", of);
    jnode *au = j_obj(w);
    put(w, au, "option", j_int(w, st->au_option));
    if ((st->au_option == 1 || st->au_option == 2) && st->au_item < st->ncompanies)
        put(w, au, "item", j_company(w, st->au_item));
    else
        put(w, au, "item", st->au_item == CH_NONE ? j_null(w) : j_int(w, st->au_item));
    put(w, au, "high_bidder", j_seat(w, st->au_high_bidder));
    put(w, au, "turn", j_seat(w, st->au_turn));
    put(w, au, "out", j_seats(w, st->au_out));
    put(w, au, "high", j_int(w, st->au_high));
    put(w, o, "auction", au);
    return o;
}

/* The bytes of arr[count..size) up to the last non-zero one: what the engine
 * left behind past the end of a pile (cards drawn or moved away). */
static jnode *j_leftover(wctx *w, const uint8_t *arr, int count, int size)
{
    jnode *a = j_arr(w);
    int end = size;
    while (end > count && arr[end - 1] == 0)
        end--;
    for (int i = count; i < end; i++)
        push(w, a, j_int(w, arr[i]));
    return a;
}

static jnode *w_leftovers(wctx *w)
{
    const ch_state *st = w->st;
    jnode *o = j_obj(w);
    put(w, o, "deck", j_leftover(w, st->deck, st->ndeck, CH_MAX_CARDS));
    put(w, o, "reserve", j_leftover(w, st->reserve, st->nreserve, CH_RESERVE_MAX));
    put(w, o, "discard", j_leftover(w, st->discard, st->ndiscard, CH_MAX_CARDS));
    put(w, o, "look", j_leftover(w, st->look, st->nlook, (int)sizeof st->look));
    put(w, o, "event_deck", j_leftover(w, st->ev_deck, st->nev_deck, CH_EVENT_CARDS));
    put(w, o, "event_discard", j_leftover(w, st->ev_discard, st->nev_discard, CH_EVENT_CARDS));
    return o;
}

static char *write_doc(const ch_state *st, int view, int viewer)
{
    wctx *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->st = st;
    w->view = view;
    w->viewer = viewer;
    make_plot_names(&st->board, &w->pn);
    make_card_names(st, &w->cn);

    jnode *root = j_obj(w);
    put(w, root, "format", j_str(w, view ? VIEW_FORMAT : STATE_FORMAT));
    put(w, root, "version", j_int(w, FORMAT_VERSION));
    if (view)
        put(w, root, "viewer", j_int(w, viewer));
    put(w, root, "edition",
        st->edition < N_EDITIONS ? j_str(w, edition_words[st->edition]) : j_int(w, st->edition));
    if (!view) {
        put(w, root, "seed", j_hex(w, st->seed));
        jnode *r = j_arr(w);
        for (int i = 0; i < 4; i++)
            push(w, r, j_hex(w, st->rng[i]));
        put(w, root, "rng", r);
    }
    put(w, root, "game", w_game(w));
    put(w, root, "board", w_board(w));
    put(w, root, "cards", w_cards(w));
    put(w, root, "companies", w_companies(w));
    put(w, root, "players", w_players(w));
    put(w, root, "plots", w_plots(w));
    put(w, root, "table", w_table(w));
    put(w, root, "piles", w_piles(w));
    put(w, root, "turn", w_turn(w));
    put(w, root, "build", w_build(w));
    put(w, root, "merger", w_merger(w));
    put(w, root, "event", w_event(w));
    if (!view)
        put(w, root, "leftovers", w_leftovers(w));
    if (view) {
        /* who decides now (a state without a valid actor names nobody) */
        unsigned mask = 0;
        int safe = st->over || st->phase == CH_PH_OVER || st->phase == CH_PH_BID ||
                   st->actor < st->nplayers;
        if (safe && ch_decider(st, &mask) == CH_DEC_TERMINAL)
            mask = 0;
        put(w, root, "deciders", j_seats(w, mask));
    }
    char *text = finish_doc(root, w->oom);
    arena_free(w->mem);
    free(w);
    return text;
}

char *ch_state_to_json(const ch_state *st)
{
    if (!st)
        return NULL;
    return write_doc(st, 0, -1);
}

char *ch_view_to_json(const ch_state *st, int p)
{
    if (!st)
        return NULL;
    if (p < -1 || p >= st->nplayers)
        p = -1;
    return write_doc(st, 1, p);
}

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

static size_t push_key(rctx *c, const char *key)
{
    size_t old = c->len;
    int n = snprintf(c->path + c->len, sizeof c->path - c->len, "%s%s",
                     c->len ? "." : "", key);
    if (n > 0)
        c->len += (size_t)n < sizeof c->path - c->len ? (size_t)n : sizeof c->path - c->len - 1;
    return old;
}

static size_t push_idx(rctx *c, size_t i)
{
    size_t old = c->len;
    int n = snprintf(c->path + c->len, sizeof c->path - c->len, "[%zu]", i);
    if (n > 0)
        c->len += (size_t)n < sizeof c->path - c->len ? (size_t)n : sizeof c->path - c->len - 1;
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
        make_plot_names(b, pn);
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
        make_card_names(st, cn);
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
                    if (strcmp(json_string_value(fe), pflag_words[b]) == 0)
                        bit = b;
                if (r == 0 && bit < 0)
                    r = jfail(c, "unknown plot flag \"%.40s\"", json_string_value(fe));
                if (r == 0 && (bits >> bit & 1))
                    r = jfail(c, "flag \"%s\" is listed twice", pflag_words[bit]);
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
        if (strcmp(json_string_value(v), edition_words[i]) == 0)
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
    if (st->edition == CH_ED_GOLDEN_AGE)
        ga_zone_sync(st); /* the spacing zone is derived from the board */
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
        json_decref(root);
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
    json_decref(root);
    free(c);
    free(tmp);
    return rc;
}
