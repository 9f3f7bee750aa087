/* json_write.c: writes the JSON documents of a game: the full state
 * (ch_state_to_json, read back exactly by ch_state_from_json in json.c) and
 * each player's view of it (ch_view_to_json), which leaves out what that
 * player may not see. The layout is documented in docs/formats.md, "JSON
 * state and views".
 *
 * The game server writes a view for every seat after every move, so the text
 * goes straight into one growing buffer, with no document tree in between.
 * Layout: an array or object stays on one line when it fits in LINE_WIDTH
 * columns from where it starts; otherwise it gets a line per member, except
 * that lists of scalars (and objects whose values are all scalars of one
 * type, like stock holdings) are filled with as many per line as fit.
 *
 * Every container is written on one line until it is known not to fit: a
 * container that is no list of scalars gets a line per member as soon as its
 * members so far run past its line (what is written of it is spread over
 * lines in place, moving its text down), and from then on each member starts
 * on a line of its own. A container that does not fit means its parent does
 * not fit either (the parent holds it and more), so all the containers around
 * it get a line per member at the same time, while little of them is
 * written; that is also why every member's column and indentation are known
 * when it starts. A list of scalars is only filled line by line when it
 * closes (a later member could still be a container).
 */
#include "chartered.h"
#include "json_names.h"

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_WIDTH 100

/* The document is at most 5 containers deep (root, event, offer, give,
 * stocks). */
#define MAX_DEPTH 16
/* Members of all open containers at once; the most: root (24), players (6),
 * a player (13), its hand (128 cards). */
#define MAX_MARKS 1024

/* Member types, to tell lists of scalars (see the layout above). */
enum { T_NULL, T_TRUE, T_FALSE, T_INT, T_STR, T_CONT };

/* A container's flags. */
enum {
    F_OBJ = 1,    /* an object, not an array                                */
    F_BROKEN = 2, /* has a line per member                                  */
    F_MIXED = 4   /* not only scalars (of one type, in an object)           */
};

typedef struct frame {
    size_t start;       /* offset of the '{' or '['                           */
    size_t flat;        /* length on one line (so far)                        */
    unsigned mark;      /* its members' starts: marks[mark..mark+n)           */
    unsigned n;         /* members so far                                     */
    size_t room;        /* columns left on its line (its parents broken)      */
    unsigned flags;     /* F_*: one word, stored and tested whole (byte fields
                           stored apart and loaded together stall the CPU)   */
    unsigned first_type; /* type of the first member                          */
    size_t ixat;        /* its entry in the bracket index (w->ix), if kept    */
} frame;

/* A company's name to write as a JSON string: its text with quotes (and, for
 * a key, the ": " after it), padded with spaces to NAME_SLOT bytes so it is
 * copied with one fixed-size copy; names too long for that, or needing
 * escapes, are written from s instead. (Plot and card names are copied from
 * the name tables, see put_jname.) */
#define NAME_SLOT 48
typedef struct wname {
    char q[NAME_SLOT];
    size_t qlen;  /* 0: write s with escapes */
    const char *s;
} wname;

/* An earlier view of the same perspective and game (ch_views_json_since):
 * its state, text and bracket index, and the index entries of its root's
 * members that are containers, in order. */
#define PREV_TOP 24
typedef struct prevdoc {
    const ch_state *st;
    const char *text;
    size_t len;
    const uint32_t (*ix)[3];
    size_t nix;
    size_t top[PREV_TOP];
    int ntop;
} prevdoc;

/* The players' elements as every viewer but the player sees them (the same
 * text for each of them), written by an earlier view of the same
 * ch_views_json_since call: copied from there. */
typedef struct pubs {
    const ch_view_buf *buf;     /* the call's buffers */
    int k[CH_MAX_PLAYERS];      /* the view with player p's element, or -1 */
    size_t e[CH_MAX_PLAYERS];   /* its index entry there */
    int cur;                    /* the view being written */
} pubs;

typedef struct wr {
    char *p;
    size_t len, cap;
    int bad; /* out of memory (or a layout limit): the document is dropped */
    frame fr[MAX_DEPTH];
    int depth;
    size_t marks[MAX_MARKS]; /* start of each member (of its key in an object) */
    unsigned nmarks;
    uint8_t brk[MAX_MARKS];  /* a scalar list being filled: a line break before */

    const ch_state *st;
    int view;   /* 0: full state; 1: a player's view                         */
    int compact; /* CH_JSON_COMPACT: no whitespace, no line layout           */
    int viewer; /* view: the seat, or -1 for a spectator                     */
    int ncards, nplots, ncos, nplayers; /* the state's counts, within the arrays */
    /* ch_view_json_ix: for each '{' or '[' in text order, {its offset, the
       offset past its closing bracket, the number of entries before the
       next one not inside it}; NULL when not asked for */
    uint32_t (*ix)[3];
    size_t nix, capix;
    const plot_names *pn; /* from the names cache (names_for) */
    const card_names *cn;
    int names_plain; /* no plot or card name needs an escape */
    const wname *co;     /* the companies' names (co_names_for) */
    const wname *co_key; /* the same as keys: '"Name": ' */
    const prevdoc *pv;   /* an earlier view to copy what did not change from,
                            or NULL (ch_views_json_since) */
    pubs *pub;           /* the players' elements written for other viewers, or NULL */
} wr;

/* ---- the buffer --------------------------------------------------------- */

/* Every member starts with room for this much: separator and indentation,
 * the fixed-size copy of a key or name, and a number. */
#define SLACK 160

static __attribute__((noinline)) int grow(wr *w, size_t n)
{
    if (w->bad)
        return 0;
    /* a compact view without the static part is some 8 KB */
    size_t cap = w->cap ? w->cap : w->compact ? 16384 : 65536;
    while (w->len + n + 1 > cap)
        cap *= 2;
    char *q = realloc(w->p, cap);
    if (!q) {
        w->bad = 1;
        return 0;
    }
    w->p = q;
    w->cap = cap;
    return 1;
}

/* Room for n more bytes (and the final NUL); 0 once out of memory. */
static inline int need(wr *w, size_t n)
{
    if (w->len + n + 1 <= w->cap && !w->bad)
        return 1;
    return grow(w, n);
}

static void raw(wr *w, const char *s, size_t n)
{
    if (!need(w, n))
        return;
    memcpy(w->p + w->len, s, n);
    w->len += n;
}

static int is_plain(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char u = (unsigned char)s[i];
        if (u < 0x20 || u == '"' || u == '\\')
            return 0;
    }
    return 1;
}

/* A JSON string: '"' and '\\' escaped, control characters as \b \f \n \r \t
 * or \u00xx; everything else (UTF-8 included) as it is. */
static void str_n(wr *w, const char *s, size_t n)
{
    if (!need(w, 6 * n + 2))
        return;
    char *o = w->p + w->len;
    *o++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char u = (unsigned char)s[i];
        if (u >= 0x20 && u != '"' && u != '\\') {
            *o++ = (char)u;
            continue;
        }
        *o++ = '\\';
        switch (u) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '\n': *o++ = 'n'; break;
        case '\t': *o++ = 't'; break;
        case '\r': *o++ = 'r'; break;
        case '\b': *o++ = 'b'; break;
        case '\f': *o++ = 'f'; break;
        default:
            *o++ = 'u';
            *o++ = '0';
            *o++ = '0';
            *o++ = "0123456789abcdef"[u >> 4];
            *o++ = "0123456789abcdef"[u & 15];
        }
    }
    *o++ = '"';
    w->len = (size_t)(o - w->p);
}

static inline void name_text(wr *w, const wname *nm)
{
    if (!nm->qlen) {
        str_n(w, nm->s, strlen(nm->s));
        return;
    }
    if (!need(w, NAME_SLOT))
        return;
    memcpy(w->p + w->len, nm->q, NAME_SLOT);
    w->len += nm->qlen;
}

static inline void int_text(wr *w, long long x)
{
    if (!need(w, 24))
        return;
    char *o = w->p + w->len;
    if (x >= 0 && x < 100) {
        /* most numbers of a game: counts, ids, heights, small seats */
        if (x >= 10)
            *o++ = (char)('0' + x / 10);
        *o++ = (char)('0' + x % 10);
        w->len = (size_t)(o - w->p);
        return;
    }
    char tmp[24];
    int n = 0;
    unsigned long long u = x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (x < 0)
        *o++ = '-';
    while (n)
        *o++ = tmp[--n];
    w->len = (size_t)(o - w->p);
}

/* ---- members and containers -------------------------------------------- */

/* A key as a literal: KEY("cash") gives the text '"cash": ', padded with
 * KEY_PAD spaces so that it is copied with one fixed-size copy, and its
 * length (which must not be more than the padding: a longer key does not
 * compile). */
#define KEY_PAD "                                "
#define KEY_FITS(t) (0 * sizeof(char[sizeof(t) <= sizeof KEY_PAD ? 1 : -1]))
#define KEY(k) "\"" k "\": " KEY_PAD, sizeof("\"" k "\": ") - 1 + KEY_FITS("\"" k "\": ")
/* No key: an array element. */
#define ELEM KEY_PAD, 0

/* Indentation is at most 2 * MAX_DEPTH columns. */
static const char SPACES[2 * MAX_DEPTH + 1] = "                                ";

/* Starts a member of the open container: the separator (", ", or ",\n" and
 * the indentation once the container is broken into lines), then the key if
 * any. */
static inline void begin(wr *w, const char *key, size_t klen)
{
    frame *f = &w->fr[w->depth - 1];
    if (!need(w, SLACK))
        return;
    if (w->nmarks >= MAX_MARKS) {
        w->bad = 1;
        return;
    }
    char *o = w->p + w->len;
    if (f->n) {
        *o++ = ',';
        if (w->compact) {
            /* nothing after the comma */
        } else if (f->flags & F_BROKEN) {
            /* writes all the spaces there is room for, keeps 2 per level */
            *o++ = '\n';
            memcpy(o, SPACES, 2 * MAX_DEPTH);
            o += 2 * w->depth;
        } else {
            *o++ = ' ';
        }
    }
    w->marks[w->nmarks++] = (size_t)(o - w->p);
    memcpy(o, key, sizeof KEY_PAD - 1);
    /* a key's text ends in ": "; compact drops the space */
    w->len = (size_t)(o - w->p) + klen - (w->compact && klen);
}

/* Starts a member whose key is a name (a company's stocks). */
static void begin_named(wr *w, const wname *key)
{
    begin(w, ELEM);
    name_text(w, key);
    if (!key->qlen)
        raw(w, ": ", w->compact ? 1 : 2);
}

/* Container fr[a], still open, gets a line per member: ", " between its
 * members so far becomes ",\n" and the indentation. Its last member may be
 * an open container (fr[a + 1]); what follows is moved down, so the marks
 * and starts of the open containers inside move with it. */
static void spread(wr *w, int a)
{
    frame *f = &w->fr[a];
    unsigned first = f->mark;
    unsigned last = a + 1 < w->depth ? w->fr[a + 1].mark : w->nmarks;
    size_t ind = 2u * (size_t)a + 2; /* its members' indentation */
    size_t grow = (1 + ind) + (last - first - 1) * ind;
    if (!need(w, grow))
        return;
    char *p = w->p;
    size_t dst = w->len + grow, end_ = w->len;
    for (unsigned i = last; i-- > first;) {
        size_t s = w->marks[i];
        dst -= end_ - s;
        memmove(p + dst, p + s, end_ - s);
        dst -= ind;
        memcpy(p + dst, SPACES, ind);
        p[--dst] = '\n';
        if (i > first) {
            p[--dst] = ',';
            end_ = s - 2;
        }
    }
    /* dst is now just after the opening bracket, which stays */
    w->len += grow;
    for (int j = a + 1; j < w->depth; j++)
        w->fr[j].start += grow;
    if (a + 1 < w->depth)
        for (unsigned i = w->fr[a + 1].mark - 1; i < w->nmarks; i++)
            w->marks[i] += grow;
    f->flags |= F_BROKEN;
}

/* Ends a member of the open container: its length on one line (the key
 * included) and its type. A container that cannot fit on its line and is no
 * list of scalars gets a line per member from now on, and so do all the
 * containers around it (they hold it and more). */
static inline void end(wr *w, size_t flat, int type)
{
    if (w->bad)
        return;
    frame *f = &w->fr[w->depth - 1];
    if (w->compact) { /* one line whatever its length */
        f->n++;
        return;
    }
    f->flat += (f->n ? 2 : 0) + flat;
    if (f->n == 0)
        f->first_type = (unsigned)type;
    unsigned fl = f->flags;
    if (type == T_CONT || ((fl & F_OBJ) && (unsigned)type != f->first_type))
        fl |= F_MIXED;
    f->flags = fl;
    f->n++;
    if ((fl & (F_BROKEN | F_MIXED)) == F_MIXED && f->flat > f->room)
        for (int a = 0; a < w->depth && !w->bad; a++)
            if (!(w->fr[a].flags & F_BROKEN))
                spread(w, a);
}

/* Ends a scalar member: its text since the member began. */
static inline void end_scalar(wr *w, int type)
{
    if (!w->bad)
        end(w, w->len - w->marks[w->nmarks - 1], type);
}

static void open_(wr *w, const char *key, size_t klen, int obj)
{
    if (w->bad)
        return;
    if (w->depth >= MAX_DEPTH) {
        w->bad = 1;
        return;
    }
    size_t col = 0;
    if (w->depth > 0) {
        begin(w, key, klen);
        if (w->bad)
            return;
        /* its line is indented 2 per level, then comes the key */
        col = 2u * (size_t)w->depth + (w->len - w->marks[w->nmarks - 1]);
    }
    raw(w, obj ? "{" : "[", 1);
    if (w->bad)
        return;
    frame *f = &w->fr[w->depth++];
    f->start = w->len - 1;
    if (w->ix) {
        if (w->nix == w->capix) {
            void *np = realloc(w->ix, 2 * w->capix * sizeof *w->ix);
            if (!np) {
                w->bad = 1;
                return;
            }
            w->ix = np;
            w->capix *= 2;
        }
        f->ixat = w->nix;
        w->ix[w->nix][0] = (uint32_t)f->start;
        w->nix++;
    }
    f->flat = 2;
    f->mark = w->nmarks;
    f->n = 0;
    f->room = col < LINE_WIDTH ? LINE_WIDTH - col : 0;
    f->flags = obj ? F_OBJ : 0;
    f->first_type = T_NULL;
}

static void obj_open(wr *w, const char *key, size_t klen) { open_(w, key, klen, 1); }
static void arr_open(wr *w, const char *key, size_t klen) { open_(w, key, klen, 0); }

/* Fills the list of scalars f (just closed, at the end of the buffer, too
 * long for its line) with as many members per line as fit: ", " becomes
 * ",\n" and the indentation where the next member would run past the line. */
static void fill_lines(wr *w, frame *f)
{
    unsigned n = f->n;
    size_t *mk = &w->marks[f->mark];
    size_t ind = 2u * (size_t)(w->depth - 1); /* f's own indentation */
    size_t end_text = w->len - 1;               /* the closing bracket */
    uint8_t *brk = &w->brk[f->mark];
    /* which separators break the line, and how much longer the text gets */
    size_t grow = (1 + ind + 2) + (1 + ind); /* after the opening, before the closing */
    size_t at = ind + 2;
    for (unsigned i = 0; i < n; i++) {
        size_t elen = (i + 1 < n ? mk[i + 1] - 2 : end_text) - mk[i];
        if (i > 0) {
            brk[i] = at + 2 + elen > LINE_WIDTH;
            if (brk[i]) {
                grow += ind + 2; /* ", " -> ",\n" and ind + 2 spaces */
                at = ind + 2;
            } else {
                at += 2;
            }
        }
        at += elen;
    }
    if (!need(w, grow))
        return;
    char *p = w->p;
    size_t dst = w->len + grow;
    /* from the end: the closing bracket, newline and indentation */
    p[--dst] = p[end_text];
    dst -= ind;
    memcpy(p + dst, SPACES, ind);
    p[--dst] = '\n';
    for (unsigned i = n; i-- > 0;) {
        size_t elen = (i + 1 < n ? mk[i + 1] - 2 : end_text) - mk[i];
        dst -= elen;
        memmove(p + dst, p + mk[i], elen);
        if (i > 0 && brk[i]) {
            dst -= ind + 2;
            memcpy(p + dst, SPACES, ind + 2);
            p[--dst] = '\n';
            p[--dst] = ',';
        } else if (i > 0) {
            dst -= 2;
            p[dst] = ',';
            p[dst + 1] = ' ';
        }
    }
    dst -= ind + 2;
    memcpy(p + dst, SPACES, ind + 2);
    p[--dst] = '\n';
    /* dst is now just after the opening bracket, which stays */
    w->len += grow;
}

static void close_(wr *w)
{
    if (w->bad)
        return;
    frame *f = &w->fr[w->depth - 1];
    if (f->flags & F_BROKEN) {
        size_t ind = 2u * (size_t)(w->depth - 1);
        if (!need(w, ind + 2))
            return;
        w->p[w->len++] = '\n';
        memcpy(w->p + w->len, SPACES, ind);
        w->len += ind;
    }
    raw(w, f->flags & F_OBJ ? "}" : "]", 1);
    if (w->ix && !w->bad) { /* compact only: the offsets are final */
        w->ix[f->ixat][1] = (uint32_t)w->len;
        w->ix[f->ixat][2] = (uint32_t)w->nix;
    }
    if (w->compact) {
        w->nmarks = f->mark;
        if (--w->depth > 0)
            w->fr[w->depth - 1].n++;
        return;
    }
    /* not broken yet and too long: a list of scalars (anything else was
     * broken as soon as it ran past its line) */
    if (!(f->flags & F_BROKEN) && f->n && f->flat > f->room)
        fill_lines(w, f);
    if (w->bad)
        return;
    size_t flat = f->flat;
    w->nmarks = f->mark;
    w->depth--;
    if (w->depth > 0)
        end(w, f->start - w->marks[w->nmarks - 1] + flat, T_CONT);
}

/* ---- values --------------------------------------------------------------- */

static void put_int(wr *w, const char *key, size_t klen, long long v)
{
    begin(w, key, klen);
    int_text(w, v);
    end_scalar(w, T_INT);
}

static void put_bool(wr *w, const char *key, size_t klen, int v)
{
    begin(w, key, klen);
    raw(w, v ? "true" : "false", v ? 4 : 5);
    end_scalar(w, v ? T_TRUE : T_FALSE);
}

static void put_null(wr *w, const char *key, size_t klen)
{
    begin(w, key, klen);
    raw(w, "null", 4);
    end_scalar(w, T_NULL);
}

static void put_str(wr *w, const char *key, size_t klen, const char *s)
{
    begin(w, key, klen);
    str_n(w, s, strlen(s));
    end_scalar(w, T_STR);
}

static void put_name(wr *w, const char *key, size_t klen, const wname *nm)
{
    begin(w, key, klen);
    name_text(w, nm);
    end_scalar(w, T_STR);
}

static void put_hex(wr *w, const char *key, size_t klen, uint64_t v)
{
    char t[16];
    for (int i = 15; i >= 0; i--, v >>= 4)
        t[i] = "0123456789abcdef"[v & 15];
    begin(w, key, klen);
    str_n(w, t, 16);
    end_scalar(w, T_STR);
}

/* A plot's or card's name from the name tables: JNAME_LEN bytes (the
 * name, its NUL and zeros) copied at once when no name needs escapes. */
static inline void put_jname(wr *w, const char *key, size_t klen, const char *name, size_t len)
{
    begin(w, key, klen);
    if (w->bad)
        return;
    if (w->names_plain) {
        /* begin left SLACK bytes: room for the key's copy and JNAME_LEN + 2 */
        char *o = w->p + w->len;
        o[0] = '"';
        memcpy(o + 1, name, JNAME_LEN);
        o[len + 1] = '"';
        w->len += len + 2;
    } else {
        str_n(w, name, len);
    }
    end_scalar(w, T_STR);
}

static void put_plot(wr *w, const char *key, size_t klen, int plot)
{
    if (plot == CH_NONE || plot >= w->nplots)
        put_null(w, key, klen);
    else
        put_jname(w, key, klen, w->pn->n[plot], w->pn->len[plot]);
}

static void put_card(wr *w, const char *key, size_t klen, int card)
{
    if (card == CH_NONE || card >= w->ncards)
        put_null(w, key, klen);
    else
        put_jname(w, key, klen, w->cn->n[card], w->cn->len[card]);
}

static void put_company(wr *w, const char *key, size_t klen, int co)
{
    if (co == CH_NONE || co >= w->st->ncompanies)
        put_null(w, key, klen);
    else if (co < CH_MAX_COMPANIES)
        put_name(w, key, klen, &w->co[co]);
    else
        put_str(w, key, klen, ch_company_name(w->st, co));
}

static void put_seat(wr *w, const char *key, size_t klen, int seat)
{
    if (seat == CH_NONE || seat >= w->st->nplayers)
        put_null(w, key, klen);
    else
        put_int(w, key, klen, seat);
}

/* An event kind by name: Building Amsterdam's stock events, or The Golden
 * Age's event cards ("sell 2", "all -f30", ...). */
static void put_event(wr *w, const char *key, size_t klen, int kind)
{
    int ga = w->st->edition == CH_ED_GOLDEN_AGE;
    if (kind == CH_NONE || kind >= (ga ? CH_GE_KINDS : CH_EV_KINDS))
        put_null(w, key, klen);
    else
        put_str(w, key, klen, ga ? ch_ga_event_name(kind) : ch_event_name(kind));
}

/* A card set (bitset) as a list of names, by id. */
static void put_cardset(wr *w, const char *key, size_t klen, const uint64_t set[2])
{
    arr_open(w, key, klen);
    /* the set bits only, in order (a view has some ten card sets of 100 or
       more cards, most of them nearly empty) */
    for (int i = 0; i < 2; i++)
        for (uint64_t bits = set[i]; bits; bits &= bits - 1) {
            int c = 64 * i + __builtin_ctzll(bits);
            if (c >= w->ncards)
                break;
            put_card(w, ELEM, c);
        }
    close_(w);
}

static void put_cardlist(wr *w, const char *key, size_t klen, const uint8_t *cards, int n)
{
    arr_open(w, key, klen);
    for (int i = 0; i < n; i++)
        put_card(w, ELEM, cards[i]);
    close_(w);
}

static void put_seats(wr *w, const char *key, size_t klen, unsigned mask)
{
    arr_open(w, key, klen);
    for (int p = 0; p < w->nplayers; p++)
        if (mask >> p & 1)
            put_int(w, ELEM, p);
    close_(w);
}

static void put_stocks(wr *w, const char *key, size_t klen, const uint8_t *stock)
{
    obj_open(w, key, klen);
    for (int c = 0; c < w->ncos; c++) {
        begin_named(w, &w->co_key[c]);
        int_text(w, stock[c]);
        end_scalar(w, T_INT);
    }
    close_(w);
}

/* ---- what did not change since an earlier view ------------------------------- */

/* An earlier view of the same perspective (ch_views_json_since) gives the
 * members and elements whose inputs are the same in both states: their text
 * and brackets are copied from it instead of written again. Each copy is
 * decided by comparing every field of the state the part reads (the same*
 * functions below, next to what they guard); the names the parts print come
 * from tables that same_static guards. Compact text with an index only. */

/* Room for n more bracket index entries. */
static int ix_room(wr *w, size_t n)
{
    if (w->nix + n <= w->capix)
        return 1;
    size_t cap = w->capix ? w->capix : 64;
    while (w->nix + n > cap)
        cap *= 2;
    void *np = realloc(w->ix, cap * sizeof *w->ix);
    if (!np) {
        w->bad = 1;
        return 0;
    }
    w->ix = np;
    w->capix = cap;
    return 1;
}

/* The container of index entry e of text (an earlier view, six its index),
 * as a member (key) or an element (ELEM) of the open container: its bytes,
 * and its brackets shifted to where it lands. */
static void paste_ix(wr *w, const char *key, size_t klen, const char *text,
                     const uint32_t (*six)[3], size_t e)
{
    begin(w, key, klen);
    if (w->bad)
        return;
    size_t s0 = six[e][0], n = six[e][1] - s0, ni = six[e][2] - e;
    if (!need(w, n) || !ix_room(w, ni))
        return;
    size_t at = w->len;
    memcpy(w->p + at, text + s0, n);
    w->len += n;
    for (size_t i = 0; i < ni; i++) {
        const uint32_t *q = six[e + i];
        uint32_t *o = w->ix[w->nix + i];
        o[0] = (uint32_t)(q[0] - s0 + at);
        o[1] = (uint32_t)(q[1] - s0 + at);
        o[2] = (uint32_t)(q[2] - e + w->nix);
    }
    w->nix += ni;
    end(w, 0, T_CONT);
}

static void paste_prev(wr *w, const char *key, size_t klen, size_t e)
{
    paste_ix(w, key, klen, w->pv->text, w->pv->ix, e);
}

#define NO_ENTRY SIZE_MAX

/* The earlier view's root member named key (a container): its index entry,
 * or NO_ENTRY (no earlier view, or no such member). */
static size_t prev_member(const wr *w, const char *key, size_t klen)
{
    const prevdoc *pd = w->pv;
    if (!pd)
        return NO_ENTRY;
    size_t kl = klen - 1; /* compact: '"key":' */
    for (int i = 0; i < pd->ntop; i++) {
        size_t e = pd->top[i], at = pd->ix[e][0];
        if (at > kl && memcmp(pd->text + at - kl, key, kl) == 0 &&
            (pd->text[at - kl - 1] == ',' || pd->text[at - kl - 1] == '{'))
            return e;
    }
    return NO_ENTRY;
}

/* The first element of the earlier view's container e that is itself a
 * container (NO_ENTRY: none), and the one after c. */
static size_t prev_first(const wr *w, size_t e)
{
    if (e == NO_ENTRY || e + 1 >= w->pv->ix[e][2])
        return NO_ENTRY;
    return e + 1;
}

static size_t prev_next(const wr *w, size_t e, size_t c)
{
    if (c == NO_ENTRY)
        return NO_ENTRY;
    size_t n = w->pv->ix[c][2];
    return n < w->pv->ix[e][2] ? n : NO_ENTRY;
}

/* What every part reads and never changes in a game: the counts, the
 * board, the card table (the names of plots and cards), the edition (the
 * companies' names). Without it nothing is copied. The seed too: another
 * game of the same edition and board has the same tables, and an earlier
 * view of another game must not be used (chartered.h, ch_views_json_since). */
static int same_static(const ch_state *a, const ch_state *b)
{
    int n = b->ncards < CH_MAX_CARDS ? b->ncards : CH_MAX_CARDS;
    return a->seed == b->seed && a->edition == b->edition && a->nplayers == b->nplayers &&
           a->ncompanies == b->ncompanies && a->ncards == b->ncards &&
           a->board_id == b->board_id && memcmp(a->card_plot, b->card_plot, (size_t)n) == 0 &&
           memcmp(a->card_level, b->card_level, (size_t)n) == 0 &&
           memcmp(a->card_event, b->card_event, (size_t)n) == 0;
}

/* ---- the sections ----------------------------------------------------------- */

/* What w_game reads. */
static int same_game(const ch_state *a, const ch_state *b)
{
    return a->nplayers == b->nplayers && a->ncompanies == b->ncompanies &&
           a->ncards == b->ncards && a->market_size == b->market_size &&
           a->nevent_open == b->nevent_open && a->max_hand == b->max_hand &&
           a->first_player == b->first_player && a->total_money == b->total_money &&
           a->warehouses_total == b->warehouses_total && a->roofs_total == b->roofs_total &&
           a->preset == b->preset && a->events_on == b->events_on &&
           memcmp(&a->prices, &b->prices, sizeof a->prices) == 0 &&
           a->end_turns == b->end_turns && a->end_value == b->end_value;
}

static void w_game(wr *w)
{
    size_t e = prev_member(w, KEY("game"));
    if (e != NO_ENTRY && same_game(w->pv->st, w->st)) {
        paste_prev(w, KEY("game"), e);
        return;
    }
    const ch_state *st = w->st;
    obj_open(w, KEY("game"));
    put_int(w, KEY("player_count"), st->nplayers);
    put_int(w, KEY("company_count"), st->ncompanies);
    put_int(w, KEY("card_count"), st->ncards);
    put_int(w, KEY("market_size"), st->market_size);
    put_int(w, KEY("open_events"), st->nevent_open);
    put_int(w, KEY("hand_limit"), st->max_hand);
    put_int(w, KEY("first_player"), st->first_player);
    put_int(w, KEY("total_money"), st->total_money);
    put_int(w, KEY("warehouses_total"), st->warehouses_total);
    put_int(w, KEY("roofs_total"), st->roofs_total);
    put_int(w, KEY("preset"), st->preset);
    put_bool(w, KEY("events_on"), st->events_on);
    /* a variant's prices and end (docs/variants.md), only where they are not
       the rulebook's, so a rulebook game's JSON is as it always was */
    ch_prices rb;
    ch_prices_rulebook(st->edition, &rb);
    if (memcmp(&rb, &st->prices, sizeof rb) != 0) {
        obj_open(w, KEY("prices"));
        put_int(w, KEY("purchase"), st->prices.purchase);
        put_int(w, KEY("refresh"), st->prices.refresh);
        if (st->edition == CH_ED_GOLDEN_AGE) {
            arr_open(w, KEY("flags"));
            put_int(w, ELEM, st->prices.flag[0]);
            put_int(w, ELEM, st->prices.flag[1]);
            close_(w);
        } else {
            put_int(w, KEY("action"), st->prices.action);
        }
        put_int(w, KEY("stock_min"), st->prices.stock_min);
        close_(w);
    }
    if (st->end_turns)
        put_int(w, KEY("end_turns"), st->end_turns);
    if (st->end_value)
        put_int(w, KEY("end_value"), st->end_value);
    close_(w);
}

static void w_board(wr *w)
{
    const ch_board *b = ch_state_board(w->st);
    obj_open(w, KEY("board"));
    put_str(w, KEY("name"), b->name);
    arr_open(w, KEY("districts"));
    for (int i = 0; i < b->ndistricts && i < CH_MAX_DISTRICTS; i++)
        put_str(w, ELEM, b->district[i]);
    close_(w);
    arr_open(w, KEY("plots"));
    for (int p = 0; p < w->nplots; p++) {
        obj_open(w, ELEM);
        put_jname(w, KEY("name"), w->pn->n[p], w->pn->len[p]);
        put_str(w, KEY("label"), b->plot_label[p]);
        if (b->plot_district[p] < b->ndistricts && b->plot_district[p] < CH_MAX_DISTRICTS)
            put_str(w, KEY("district"), b->district[b->plot_district[p]]);
        else
            put_null(w, KEY("district"));
        put_int(w, KEY("x"), b->gx[p]);
        put_int(w, KEY("y"), b->gy[p]);
        arr_open(w, KEY("adjacent"));
        for (int i = 0; i < b->deg[p] && i < CH_MAX_NEIGH; i++)
            put_plot(w, ELEM, b->adj[p][i]);
        close_(w);
        arr_open(w, KEY("bridges"));
        for (int i = 0; i < b->deg[p] && i < CH_MAX_NEIGH; i++)
            if (b->bridge[p] >> i & 1)
                put_plot(w, ELEM, b->adj[p][i]);
        close_(w);
        close_(w);
    }
    close_(w);
    close_(w);
}

/* Which Golden Age event cards are still in the deck is hidden: with
 * fewer than 12 in the game, the table would tell which were left out.
 * A view names an event card only once it has been discarded. */
static int card_hidden(const ch_state *st, int view, int c)
{
    return view && st->card_event[c] && st->loc[c] != CH_LOC_DISCARD;
}

static void w_cards(wr *w)
{
    const ch_state *st = w->st;
    arr_open(w, KEY("cards"));
    for (int c = 0; c < w->ncards; c++) {
        int hide = card_hidden(st, w->view, c);
        obj_open(w, ELEM);
        put_int(w, KEY("id"), c);
        if (hide)
            put_str(w, KEY("name"), "event");
        else
            put_card(w, KEY("name"), c);
        put_plot(w, KEY("plot"), st->card_plot[c]);
        put_int(w, KEY("level"), st->card_level[c]);
        if (hide)
            put_null(w, KEY("event"));
        else
            put_int(w, KEY("event"), st->card_event[c]);
        close_(w);
    }
    close_(w);
}

/* What a company's element reads (its name and its HQ's plot name are
 * static). */
static int same_company(const ch_company *a, const ch_company *b)
{
    return a->value == b->value && a->on_chart == b->on_chart && a->hq == b->hq &&
           a->bank == b->bank && a->flag == b->flag;
}

static void w_companies(wr *w)
{
    const ch_state *st = w->st;
    size_t pe = prev_member(w, KEY("companies")), pc = prev_first(w, pe);
    arr_open(w, KEY("companies"));
    for (int c = 0; c < w->ncos; c++, pc = prev_next(w, pe, pc)) {
        const ch_company *co = &st->co[c];
        if (pc != NO_ENTRY && same_company(&w->pv->st->co[c], co)) {
            paste_prev(w, ELEM, pc);
            continue;
        }
        obj_open(w, ELEM);
        put_name(w, KEY("name"), &w->co[c]);
        put_int(w, KEY("value"), co->value);
        put_bool(w, KEY("on_chart"), co->on_chart);
        put_plot(w, KEY("hq"), co->hq);
        put_int(w, KEY("bank"), co->bank);
        put_seat(w, KEY("flag"), co->flag ? co->flag - 1 : CH_NONE);
        close_(w);
    }
    close_(w);
}

static int popcount2(const uint64_t s[2])
{
    return __builtin_popcountll(s[0]) + __builtin_popcountll(s[1]);
}

/* What a player's element reads (besides the edition and the viewer, the
 * same in both views). */
static int same_player(const ch_player *a, const ch_player *b)
{
    return a->cash == b->cash && memcmp(a->stock, b->stock, sizeof a->stock) == 0 &&
           a->actions == b->actions && a->roofs == b->roofs &&
           a->extra_pending == b->extra_pending && a->extra_armed == b->extra_armed &&
           a->hidden_levels == b->hidden_levels && a->flags == b->flags &&
           a->reserve_took == b->reserve_took && a->hand[0] == b->hand[0] &&
           a->hand[1] == b->hand[1] && a->known[0] == b->known[0] && a->known[1] == b->known[1];
}

static void w_players(wr *w)
{
    const ch_state *st = w->st;
    size_t pe = prev_member(w, KEY("players")), pp = prev_first(w, pe);
    arr_open(w, KEY("players"));
    for (int p = 0; p < w->nplayers; p++, pp = prev_next(w, pe, pp)) {
        const ch_player *pl = &st->pl[p];
        /* another player's element: the same for every viewer but p */
        int pub = w->pub && w->viewer != p;
        if (pub && w->pub->k[p] >= 0) {
            const ch_view_buf *b = &w->pub->buf[w->pub->k[p]];
            paste_ix(w, ELEM, b->text, (const uint32_t(*)[3])b->ix, w->pub->e[p]);
            continue;
        }
        if (pub) {
            w->pub->k[p] = w->pub->cur;
            w->pub->e[p] = w->nix; /* its entry, once written */
        }
        if (pp != NO_ENTRY && same_player(&w->pv->st->pl[p], pl)) {
            paste_prev(w, ELEM, pp);
            continue;
        }
        obj_open(w, ELEM);
        put_int(w, KEY("seat"), p);
        put_int(w, KEY("cash"), pl->cash);
        /* stock holdings are public in Building Amsterdam, private in The
         * Golden Age (RULINGS.md "Hidden information") */
        if (!w->view || w->viewer == p || st->edition != CH_ED_GOLDEN_AGE)
            put_stocks(w, KEY("stocks"), pl->stock);
        put_int(w, KEY("action_cards"), pl->actions);
        put_int(w, KEY("roofs"), pl->roofs);
        put_bool(w, KEY("extra_turn_pending"), pl->extra_pending);
        put_bool(w, KEY("extra_turn_armed"), pl->extra_armed);
        put_int(w, KEY("hidden_levels"), pl->hidden_levels);
        put_int(w, KEY("flags"), pl->flags);
        if (!w->view || w->viewer == p) /* private: which levels came from the reserve */
            put_int(w, KEY("reserve_took"), pl->reserve_took);
        if (w->view)
            put_int(w, KEY("hand_count"), popcount2(pl->hand));
        if (!w->view || w->viewer == p)
            put_cardset(w, KEY("hand"), pl->hand);
        put_cardset(w, KEY("known"), pl->known);
        close_(w);
    }
    close_(w);
}

static void w_plots(wr *w)
{
    const ch_state *st = w->st;
    size_t pe = prev_member(w, KEY("plots")), pp = prev_first(w, pe);
    if (pe != NO_ENTRY && memcmp(w->pv->st->height, st->height, (size_t)w->nplots) == 0 &&
        memcmp(w->pv->st->owner, st->owner, (size_t)w->nplots) == 0 &&
        memcmp(w->pv->st->pflags, st->pflags, (size_t)w->nplots) == 0) {
        paste_prev(w, KEY("plots"), pe); /* most moves build nothing */
        return;
    }
    arr_open(w, KEY("plots"));
    for (int p = 0; p < w->nplots; p++, pp = prev_next(w, pe, pp)) {
        /* what a plot's element reads (its name is static) */
        if (pp != NO_ENTRY && w->pv->st->height[p] == st->height[p] &&
            w->pv->st->owner[p] == st->owner[p] && w->pv->st->pflags[p] == st->pflags[p]) {
            paste_prev(w, ELEM, pp);
            continue;
        }
        obj_open(w, ELEM);
        put_jname(w, KEY("plot"), w->pn->n[p], w->pn->len[p]);
        put_int(w, KEY("height"), st->height[p]);
        put_company(w, KEY("owner"), st->owner[p]);
        arr_open(w, KEY("flags"));
        for (int i = 0; i < 8; i++)
            if (st->pflags[p] >> i & 1)
                put_str(w, ELEM, json_pflag_words[i]);
        close_(w);
        close_(w);
    }
    close_(w);
}

static void w_table(wr *w)
{
    const ch_state *st = w->st;
    obj_open(w, KEY("table"));
    put_int(w, KEY("supply"), st->supply);
    put_int(w, KEY("roofs_left"), st->roofs_left);
    put_int(w, KEY("bank_net"), st->bank_net);
    close_(w);
}

/* Are the look cards hidden from this view? (Veilinge option 3: only the
 * picker sees the ten cards, and only while picking.) */
static int look_hidden_in(const ch_state *st, int view, int viewer)
{
    if (!view || st->nlook == 0 || st->au_option != 3)
        return 0;
    return !(st->phase == CH_PH_PICK && viewer >= 0 && viewer == st->actor);
}

static int look_hidden(const wr *w)
{
    return look_hidden_in(w->st, w->view, w->viewer);
}

/* What w_piles of a view by viewer reads. */
static int same_piles(const ch_state *a, const ch_state *b, int viewer)
{
    if (a->ndeck != b->ndeck || a->market_size != b->market_size || a->nreserve != b->nreserve ||
        a->ndiscard != b->ndiscard || a->nlook != b->nlook || a->nev_deck != b->nev_deck ||
        a->nevent_open != b->nevent_open || a->nev_discard != b->nev_discard ||
        look_hidden_in(a, 1, viewer) != look_hidden_in(b, 1, viewer) ||
        ch_deck_top_event(a) != ch_deck_top_event(b))
        return 0;
    size_t nm = b->market_size < CH_MARKET_MAX ? b->market_size : CH_MARKET_MAX;
    size_t nd = b->ndiscard < CH_MAX_CARDS ? b->ndiscard : CH_MAX_CARDS;
    size_t nl = b->nlook < sizeof b->look ? b->nlook : sizeof b->look;
    size_t no = b->nevent_open < CH_EVENT_OPEN_MAX ? b->nevent_open : CH_EVENT_OPEN_MAX;
    size_t ne = b->nev_discard < CH_EVENT_CARDS ? b->nev_discard : CH_EVENT_CARDS;
    return memcmp(a->market, b->market, nm) == 0 && memcmp(a->discard, b->discard, nd) == 0 &&
           memcmp(a->look, b->look, nl) == 0 && memcmp(a->ev_open, b->ev_open, no) == 0 &&
           memcmp(a->ev_discard, b->ev_discard, ne) == 0;
}

static void w_piles(wr *w)
{
    const ch_state *st = w->st;
    if (w->view) {
        size_t e = prev_member(w, KEY("piles"));
        if (e != NO_ENTRY && same_piles(w->pv->st, st, w->viewer)) {
            paste_prev(w, KEY("piles"), e);
            return;
        }
    }
    obj_open(w, KEY("piles"));
    if (w->view)
        put_int(w, KEY("deck_count"), st->ndeck);
    else
        put_cardlist(w, KEY("deck"), st->deck, st->ndeck);
    /* the printed Golden Age's event backs: every viewer sees whether the
       top card is an event (Ruling G-07); the full state lists the deck */
    if (w->view && ch_deck_top_event(st) >= 0)
        put_bool(w, KEY("deck_top_event"), ch_deck_top_event(st));
    arr_open(w, KEY("market"));
    for (int i = 0; i < st->market_size && i < CH_MARKET_MAX; i++)
        put_card(w, ELEM, st->market[i]);
    close_(w);
    if (w->view)
        put_int(w, KEY("reserve_count"), st->nreserve);
    else
        put_cardlist(w, KEY("reserve"), st->reserve, st->nreserve);
    put_cardlist(w, KEY("discard"), st->discard, st->ndiscard);
    if (look_hidden(w))
        put_int(w, KEY("look_count"), st->nlook);
    else
        put_cardlist(w, KEY("look"), st->look, st->nlook);
    if (w->view) {
        put_int(w, KEY("event_deck_count"), st->nev_deck);
    } else {
        arr_open(w, KEY("event_deck"));
        for (int i = 0; i < st->nev_deck && i < CH_EVENT_CARDS; i++)
            put_event(w, ELEM, st->ev_deck[i]);
        close_(w);
    }
    arr_open(w, KEY("event_open"));
    for (int i = 0; i < st->nevent_open && i < CH_EVENT_OPEN_MAX; i++)
        put_event(w, ELEM, st->ev_open[i]);
    close_(w);
    arr_open(w, KEY("event_discard"));
    for (int i = 0; i < st->nev_discard && i < CH_EVENT_CARDS; i++)
        put_event(w, ELEM, st->ev_discard[i]);
    close_(w);
    close_(w);
}

static void w_turn(wr *w)
{
    const ch_state *st = w->st;
    obj_open(w, KEY("turn"));
    put_int(w, KEY("number"), st->turn_no);
    put_int(w, KEY("decisions"), st->ndecisions);
    put_str(w, KEY("phase"), ch_phase_name(st->phase));
    put_int(w, KEY("active"), st->active);
    put_seat(w, KEY("actor"), st->actor);
    put_bool(w, KEY("over"), st->over);
    put_bool(w, KEY("end_triggered"), st->end_triggered);
    put_int(w, KEY("passes"), st->passes);
    put_bool(w, KEY("event_due"), st->event_due);
    put_company(w, KEY("founded"), st->founded);
    put_int(w, KEY("discount_left"), st->discount_left);
    put_int(w, KEY("trades"), st->trades);
    put_int(w, KEY("taken"), st->taken);
    put_bool(w, KEY("built"), st->built);
    put_bool(w, KEY("extra_turn"), st->extra_turn);
    put_bool(w, KEY("passed"), st->passed);
    put_company(w, KEY("built_company"), st->ga_built);
    put_int(w, KEY("deliver_to"), st->ga_dest);
    put_seat(w, KEY("first_seller"), st->ga_seller);
    close_(w);
}

static void w_build(wr *w)
{
    const ch_state *st = w->st;
    obj_open(w, KEY("build"));
    put_card(w, KEY("card"), st->b_card);
    put_card(w, KEY("card2"), st->b_card2);
    put_plot(w, KEY("plot"), st->b_plot);
    put_plot(w, KEY("plot2"), st->b_plot2);
    put_bool(w, KEY("roof"), st->b_roof);
    put_plot(w, KEY("hq"), st->b_hq);
    close_(w);
}

static void w_merger(wr *w)
{
    const ch_state *st = w->st;
    obj_open(w, KEY("merger"));
    arr_open(w, KEY("pending"));
    for (int c = 0; c < st->ncompanies && c < 16; c++)
        if (st->m_set >> c & 1)
            put_company(w, ELEM, c);
    close_(w);
    put_company(w, KEY("absorbed"), st->m_absorbed);
    put_company(w, KEY("absorber"), st->m_absorber);
    put_seat(w, KEY("seller"), st->m_seller);
    put_int(w, KEY("sellers_left"), st->m_sold_left);
    close_(w);
}

/* One side of a Coopmanscappen offer; owner holds its cards. In a view, the
 * active player (who builds the offer), the owner, and the player offered to
 * once the offer is sent see every card; anyone else sees only the cards
 * every player knows of, and a count of the others. */
static void w_offer_side(wr *w, const char *key, size_t klen, const uint8_t *stock,
                         int32_t money, const uint64_t cards[2], int owner)
{
    const ch_state *st = w->st;
    uint64_t shown[2] = {cards[0], cards[1]};
    int hidden = 0;
    if (w->view) {
        int party = w->viewer >= 0 &&
                    (w->viewer == owner || w->viewer == st->active ||
                     (w->viewer == st->offer.to && st->phase == CH_PH_RESPOND));
        if (!party && owner >= 0 && owner < w->nplayers) {
            for (int i = 0; i < 2; i++)
                shown[i] = cards[i] & st->pl[owner].known[i];
            hidden = popcount2(cards) - popcount2(shown);
        } else if (!party) {
            shown[0] = shown[1] = 0;
            hidden = popcount2(cards);
        }
    }
    obj_open(w, key, klen);
    put_cardset(w, KEY("cards"), shown);
    if (w->view)
        put_int(w, KEY("hidden_cards"), hidden);
    put_stocks(w, KEY("stocks"), stock);
    put_int(w, KEY("money"), money);
    close_(w);
}

/* What w_event reads (w_offer_side: the viewer is the same in both views;
 * the active player, the phase and which cards each player is known to
 * hold decide which of an offer's cards a viewer sees). */
static int same_event(const ch_state *a, const ch_state *b)
{
    const ch_offer *x = &a->offer, *y = &b->offer;
    if (a->ev_kind != b->ev_kind || a->ev_slot != b->ev_slot ||
        a->ev_from_action != b->ev_from_action || a->bid_mask != b->bid_mask ||
        a->bid_in != b->bid_in || a->bid_round != b->bid_round ||
        a->bid_revealed != b->bid_revealed || memcmp(a->bid, b->bid, sizeof a->bid) != 0 ||
        a->lose_left != b->lose_left || a->offers != b->offers || x->to != y->to ||
        memcmp(x->give_stock, y->give_stock, sizeof x->give_stock) != 0 ||
        memcmp(x->ask_stock, y->ask_stock, sizeof x->ask_stock) != 0 ||
        x->give_money != y->give_money || x->ask_money != y->ask_money ||
        x->give_cards[0] != y->give_cards[0] || x->give_cards[1] != y->give_cards[1] ||
        x->ask_cards[0] != y->ask_cards[0] || x->ask_cards[1] != y->ask_cards[1] ||
        a->au_option != b->au_option || a->au_item != b->au_item ||
        a->au_high_bidder != b->au_high_bidder || a->au_turn != b->au_turn ||
        a->au_out != b->au_out || a->au_high != b->au_high)
        return 0;
    /* who sees an offer's cards matters only when it has cards */
    if (!(y->give_cards[0] | y->give_cards[1] | y->ask_cards[0] | y->ask_cards[1]))
        return 1;
    if (a->active != b->active || a->phase != b->phase)
        return 0;
    for (int p = 0; p < b->nplayers && p < CH_MAX_PLAYERS; p++)
        if (a->pl[p].known[0] != b->pl[p].known[0] || a->pl[p].known[1] != b->pl[p].known[1])
            return 0;
    return 1;
}

static void w_event(wr *w)
{
    const ch_state *st = w->st;
    size_t e = prev_member(w, KEY("event"));
    if (e != NO_ENTRY && same_event(w->pv->st, st)) {
        paste_prev(w, KEY("event"), e); /* most moves are no event */
        return;
    }
    obj_open(w, KEY("event"));
    put_event(w, KEY("kind"), st->ev_kind);
    if (st->ev_slot == CH_NONE)
        put_null(w, KEY("open_slot"));
    else
        put_int(w, KEY("open_slot"), st->ev_slot);
    put_bool(w, KEY("from_action"), st->ev_from_action);
    put_seats(w, KEY("bidders"), st->bid_mask);
    put_seats(w, KEY("bids_in"), st->bid_in);
    put_int(w, KEY("bid_round"), st->bid_round);
    put_bool(w, KEY("bids_revealed"), st->bid_revealed);
    arr_open(w, KEY("bids"));
    for (int p = 0; p < w->nplayers; p++) {
        /* bid_revealed: bid[] holds the last round's bids, all shown at the
         * table; otherwise only the viewer's own sealed bid is visible */
        if (!w->view || st->bid_revealed || w->viewer == p)
            put_int(w, ELEM, st->bid[p]);
        else
            put_null(w, ELEM);
    }
    close_(w);
    put_int(w, KEY("lose_left"), st->lose_left);
    put_int(w, KEY("offers"), st->offers);
    obj_open(w, KEY("offer"));
    put_seat(w, KEY("to"), st->offer.to);
    w_offer_side(w, KEY("give"), st->offer.give_stock, st->offer.give_money,
                 st->offer.give_cards, st->active);
    w_offer_side(w, KEY("ask"), st->offer.ask_stock, st->offer.ask_money, st->offer.ask_cards,
                 st->offer.to == CH_NONE ? -1 : st->offer.to);
    close_(w);
    obj_open(w, KEY("auction"));
    put_int(w, KEY("option"), st->au_option);
    if ((st->au_option == 1 || st->au_option == 2) && st->au_item < st->ncompanies)
        put_company(w, KEY("item"), st->au_item);
    else if (st->au_item == CH_NONE)
        put_null(w, KEY("item"));
    else
        put_int(w, KEY("item"), st->au_item);
    put_seat(w, KEY("high_bidder"), st->au_high_bidder);
    put_seat(w, KEY("turn"), st->au_turn);
    put_seats(w, KEY("out"), st->au_out);
    put_int(w, KEY("high"), st->au_high);
    close_(w);
    close_(w);
}

/* The bytes of arr[count..size) up to the last non-zero one: what the engine
 * left behind past the end of a pile (cards drawn or moved away). */
static void put_leftover(wr *w, const char *key, size_t klen, const uint8_t *arr, int count,
                         int size)
{
    arr_open(w, key, klen);
    int end_ = size;
    while (end_ > count && arr[end_ - 1] == 0)
        end_--;
    for (int i = count; i < end_; i++)
        put_int(w, ELEM, arr[i]);
    close_(w);
}

static void w_leftovers(wr *w)
{
    const ch_state *st = w->st;
    obj_open(w, KEY("leftovers"));
    put_leftover(w, KEY("deck"), st->deck, st->ndeck, CH_MAX_CARDS);
    put_leftover(w, KEY("reserve"), st->reserve, st->nreserve, CH_RESERVE_MAX);
    put_leftover(w, KEY("discard"), st->discard, st->ndiscard, CH_MAX_CARDS);
    put_leftover(w, KEY("look"), st->look, st->nlook, (int)sizeof st->look);
    put_leftover(w, KEY("event_deck"), st->ev_deck, st->nev_deck, CH_EVENT_CARDS);
    put_leftover(w, KEY("event_discard"), st->ev_discard, st->nev_discard, CH_EVENT_CARDS);
    close_(w);
}

/* ---- the document ------------------------------------------------------------ */

/* A name's slot: '"name"' (n characters) and the tail (": " for a key, t
 * characters), padded. */
static void set_name(wname *nm, const char *s, size_t n, const char *tail, size_t t)
{
    nm->s = s;
    nm->qlen = 0;
    if (n + t + 2 > NAME_SLOT || !is_plain(s, n))
        return;
    memset(nm->q, ' ', NAME_SLOT);
    nm->q[0] = '"';
    memcpy(nm->q + 1, s, n);
    nm->q[n + 1] = '"';
    memcpy(nm->q + n + 2, tail, t);
    nm->qlen = n + 2 + t;
}

/* The plot and card names of a game never change while it is played, and a
 * server writes several views of each position: each thread keeps the names
 * of the last game it wrote, with what they were made from (the board's
 * names and the card table), and makes them again only when that differs. */
typedef struct names_cache {
    int valid;
    uint8_t board_key[offsetof(ch_board, gx) - offsetof(ch_board, nplots)];
    uint8_t ncards;
    uint8_t card_plot[CH_MAX_CARDS], card_level[CH_MAX_CARDS], card_event[CH_MAX_CARDS];
    plot_names pn;
    card_names cn;
    int plain;
} names_cache;

static _Thread_local names_cache tl_names;

/* The companies' names as the writer copies them (set_name), which depend
 * only on the edition, the number of companies and the layout: made once
 * per thread and kind of game instead of for every document (20 strlen and
 * set_name calls were a tenth of a view's writing). */
typedef struct co_names {
    int valid, edition, ncompanies, compact;
    wname co[CH_MAX_COMPANIES];
    wname co_key[CH_MAX_COMPANIES];
} co_names;

static _Thread_local co_names tl_co;

static const co_names *co_names_for(const ch_state *st, int compact)
{
    co_names *cn = &tl_co;
    if (cn->valid && cn->edition == st->edition && cn->ncompanies == st->ncompanies &&
        cn->compact == compact)
        return cn;
    for (int c = 0; c < CH_MAX_COMPANIES; c++) {
        const char *name = ch_company_name(st, c);
        set_name(&cn->co[c], name, strlen(name), "", 0);
        set_name(&cn->co_key[c], name, strlen(name), ": ", compact ? 1 : 2);
    }
    cn->edition = st->edition;
    cn->ncompanies = st->ncompanies;
    cn->compact = compact;
    cn->valid = 1;
    return cn;
}

static const names_cache *names_for(const ch_state *st)
{
    names_cache *nc = &tl_names;
    const uint8_t *bk = (const uint8_t *)ch_state_board(st) + offsetof(ch_board, nplots);
    size_t nc_cards = st->ncards < CH_MAX_CARDS ? st->ncards : CH_MAX_CARDS;
    if (nc->valid && nc->ncards == st->ncards && memcmp(nc->board_key, bk, sizeof nc->board_key) == 0 &&
        memcmp(nc->card_plot, st->card_plot, nc_cards) == 0 &&
        memcmp(nc->card_level, st->card_level, nc_cards) == 0 &&
        memcmp(nc->card_event, st->card_event, nc_cards) == 0)
        return nc;
    nc->valid = 0;
    memcpy(nc->board_key, bk, sizeof nc->board_key);
    nc->ncards = st->ncards;
    memcpy(nc->card_plot, st->card_plot, nc_cards);
    memcpy(nc->card_level, st->card_level, nc_cards);
    memcpy(nc->card_event, st->card_event, nc_cards);
    /* zeros after each name: put_jname copies whole entries */
    memset(&nc->pn, 0, sizeof nc->pn);
    memset(&nc->cn, 0, sizeof nc->cn);
    json_plot_names(ch_state_board(st), &nc->pn);
    json_card_names(st, &nc->pn, &nc->cn);
    /* plot names are district and label (or "plot#N"); card names are plot
     * names, "L2", "card", "event " and an event's name, maybe with "#id":
     * they need escapes only when a district or label does */
    const ch_board *b = ch_state_board(st);
    int nplots = b->nplots < CH_MAX_PLOTS ? b->nplots : CH_MAX_PLOTS;
    nc->plain = 1;
    for (int d = 0; d < CH_MAX_DISTRICTS; d++)
        nc->plain &= is_plain(b->district[d], strnlen(b->district[d], CH_NAME_LEN));
    for (int p = 0; p < nplots; p++)
        nc->plain &= is_plain(b->plot_label[p], strnlen(b->plot_label[p], CH_LABEL_LEN));
    nc->valid = 1;
    return nc;
}

/* Members of a view that no viewer changes (they name no hidden card and
 * read no viewer): written for the first view of ch_views_json_ix, copied
 * into the others with their bracket index. Compact text only: the offsets
 * of the copy are final. */
enum { SH_GAME, SH_COMPANIES, SH_PLOTS, SH_TABLE, SH_TURN, SH_BUILD, SH_MERGER, SH_N };
typedef struct share {
    int have;                   /* the parts below are of src */
    const char *src;
    const uint32_t (*srcix)[3];
    struct {
        size_t s0, s1, i0, i1, mark;
    } part[SH_N];
} share;

static void part_begin(wr *w, share *sh, int i)
{
    sh->part[i].s0 = w->len;
    sh->part[i].i0 = w->nix;
}

static void part_end(wr *w, share *sh, int i)
{
    sh->part[i].s1 = w->len;
    sh->part[i].i1 = w->nix;
    sh->part[i].mark = w->nmarks ? w->marks[w->nmarks - 1] - sh->part[i].s0 : 0;
}

/* The part as the first view wrote it (its separator and key included):
 * its bytes, its member's mark, its brackets shifted to here. */
static void part_paste(wr *w, const share *sh, int i)
{
    if (w->bad)
        return;
    size_t s0 = sh->part[i].s0, n = sh->part[i].s1 - s0;
    size_t i0 = sh->part[i].i0, ni = sh->part[i].i1 - i0;
    if (w->nmarks >= MAX_MARKS || w->depth < 1) {
        w->bad = 1;
        return;
    }
    if (!need(w, n))
        return;
    size_t at = w->len;
    memcpy(w->p + at, sh->src + s0, n);
    w->len += n;
    w->marks[w->nmarks++] = at + sh->part[i].mark;
    w->fr[w->depth - 1].n++;
    if (!w->ix)
        return;
    if (w->nix + ni > w->capix) {
        size_t cap = w->capix;
        while (w->nix + ni > cap)
            cap *= 2;
        void *np = realloc(w->ix, cap * sizeof *w->ix);
        if (!np) {
            w->bad = 1;
            return;
        }
        w->ix = np;
        w->capix = cap;
    }
    for (size_t e = 0; e < ni; e++) {
        const uint32_t *q = sh->srcix[i0 + e];
        uint32_t *o = w->ix[w->nix + e];
        o[0] = (uint32_t)(q[0] - s0 + at);
        o[1] = (uint32_t)(q[1] - s0 + at);
        o[2] = (uint32_t)(q[2] - i0 + w->nix);
    }
    w->nix += ni;
}

/* A shared part: copied when the first view has written it, else written
 * (and its place noted when there is a share). */
#define PART(w, sh, i, fn)                                                                         \
    do {                                                                                           \
        if ((sh) && (sh)->have) {                                                                  \
            part_paste(w, sh, i);                                                                  \
        } else {                                                                                   \
            if (sh)                                                                                \
                part_begin(w, sh, i);                                                              \
            fn(w);                                                                                 \
            if (sh)                                                                                \
                part_end(w, sh, i);                                                                \
        }                                                                                          \
    } while (0)

/* The document into vb's buffers (grown as needed, kept there whether or
 * not it succeeds), with its bracket index when want_ix: 0, or -1 out of
 * memory. */
static int write_into(const ch_state *st, int view, int viewer, unsigned flags,
                      ch_view_buf *vb, int want_ix, share *sh, const prevdoc *pv, pubs *pub)
{
    /* the writer (some 12 KB) on the stack: a view is written for every
       client perspective at every move (the server's view workers), and a
       malloc of that size for each was part of the sixth of their time
       that went to malloc) */
    wr wbuf;
    wr *w = &wbuf;
    w->ix = NULL;
    w->nix = w->capix = 0;
    vb->len = vb->nix = 0;
    if (want_ix) {
        if (!vb->ix || vb->capix < 16) {
            size_t cap = 512;
            void *np = realloc(vb->ix, cap * sizeof *vb->ix);
            if (!np)
                return -1;
            vb->ix = np;
            vb->capix = cap;
        }
        w->ix = vb->ix;
        w->capix = vb->capix;
    }
    w->p = vb->text;
    w->len = 0;
    w->cap = vb->text ? vb->cap : 0;
    w->bad = 0;
    w->depth = 0;
    w->nmarks = 0;
    w->st = st;
    w->view = view;
    w->viewer = viewer;
    w->compact = (flags & CH_JSON_COMPACT) != 0;
    /* the counts the loops go by, kept within the state's arrays */
    w->nplots = ch_state_board(st)->nplots < CH_MAX_PLOTS ? ch_state_board(st)->nplots : CH_MAX_PLOTS;
    w->ncards = st->ncards < CH_MAX_CARDS ? st->ncards : CH_MAX_CARDS;
    w->ncos = st->ncompanies < CH_MAX_COMPANIES ? st->ncompanies : CH_MAX_COMPANIES;
    w->nplayers = st->nplayers < CH_MAX_PLAYERS ? st->nplayers : CH_MAX_PLAYERS;
    const names_cache *nc = names_for(st);
    w->pn = &nc->pn;
    w->cn = &nc->cn;
    w->names_plain = nc->plain;
    const co_names *cos = co_names_for(st, w->compact);
    w->co = cos->co;
    w->co_key = cos->co_key;
    w->pv = pv && view && w->compact && want_ix ? pv : NULL;
    w->pub = pub && view && w->compact && want_ix ? pub : NULL;

    obj_open(w, ELEM);
    if (flags & CH_JSON_STATIC) {
        w_board(w);
        w_cards(w);
        goto done;
    }
    put_str(w, KEY("format"), view ? VIEW_FORMAT : STATE_FORMAT);
    put_int(w, KEY("version"), FORMAT_VERSION);
    if (view)
        put_int(w, KEY("viewer"), viewer);
    if (st->edition < N_EDITIONS)
        put_str(w, KEY("edition"), json_edition_words[st->edition]);
    else
        put_int(w, KEY("edition"), st->edition);
    if (!view) {
        put_hex(w, KEY("seed"), st->seed);
        arr_open(w, KEY("rng"));
        for (int i = 0; i < 4; i++)
            put_hex(w, ELEM, st->rng[i]);
        close_(w);
    }
    PART(w, sh, SH_GAME, w_game);
    if (!(flags & CH_JSON_DYNAMIC)) {
        w_board(w);
        w_cards(w);
    }
    PART(w, sh, SH_COMPANIES, w_companies);
    w_players(w);
    PART(w, sh, SH_PLOTS, w_plots);
    PART(w, sh, SH_TABLE, w_table);
    w_piles(w);
    PART(w, sh, SH_TURN, w_turn);
    PART(w, sh, SH_BUILD, w_build);
    PART(w, sh, SH_MERGER, w_merger);
    w_event(w);
    if (!view)
        w_leftovers(w);
    if (view) {
        /* who decides now (a state without a valid actor names nobody) */
        unsigned mask = 0;
        int safe = st->over || st->phase == CH_PH_OVER || st->phase == CH_PH_BID ||
                   st->actor < st->nplayers;
        if (safe && ch_decider(st, &mask) == CH_DEC_TERMINAL)
            mask = 0;
        put_seats(w, KEY("deciders"), mask);
    }
done:
    close_(w);
    if (!w->compact)
        raw(w, "\n", 1);
    need(w, 0); /* room for the NUL even when nothing was written */
    vb->text = w->p;
    vb->cap = w->cap;
    if (want_ix) {
        vb->ix = w->ix;
        vb->capix = w->capix;
        vb->nix = w->nix;
    }
    if (w->bad)
        return -1;
    w->p[w->len] = '\0';
    vb->len = w->len;
    return 0;
}

static char *write_doc_ix(const ch_state *st, int view, int viewer, unsigned flags,
                          uint32_t (**ix)[3], size_t *nix, share *sh)
{
    ch_view_buf vb = {0};
    if (ix) {
        *ix = NULL;
        *nix = 0;
    }
    if (write_into(st, view, viewer, flags, &vb, ix != NULL, sh, NULL, NULL) != 0) {
        free(vb.text);
        free(vb.ix);
        return NULL;
    }
    /* give back what the growing buffers hold beyond the text */
    char *text = realloc(vb.text, vb.len + 1);
    if (!text)
        text = vb.text;
    if (ix) {
        void *np = realloc(vb.ix, (vb.nix ? vb.nix : 1) * sizeof *vb.ix);
        *ix = np ? np : vb.ix;
        *nix = vb.nix;
    }
    return text;
}

static char *write_doc(const ch_state *st, int view, int viewer, unsigned flags)
{
    return write_doc_ix(st, view, viewer, flags, NULL, NULL, NULL);
}

char *ch_state_to_json(const ch_state *st)
{
    if (!st)
        return NULL;
    return write_doc(st, 0, -1, 0);
}

char *ch_view_to_json(const ch_state *st, int p)
{
    return ch_view_json(st, p, 0);
}

char *ch_view_json(const ch_state *st, int p, unsigned flags)
{
    if (!st || (flags & ~(unsigned)(CH_JSON_COMPACT | CH_JSON_DYNAMIC | CH_JSON_STATIC)) ||
        (flags & CH_JSON_DYNAMIC && flags & CH_JSON_STATIC))
        return NULL;
    if (p < -1 || p >= st->nplayers)
        p = -1;
    return write_doc(st, 1, p, flags);
}

char *ch_view_json_ix(const ch_state *st, int p, unsigned flags, uint32_t (**ix)[3],
                      size_t *nix)
{
    if (!ix || !nix || !(flags & CH_JSON_COMPACT))
        return NULL;
    *ix = NULL;
    *nix = 0;
    if (!st || (flags & ~(unsigned)(CH_JSON_COMPACT | CH_JSON_DYNAMIC | CH_JSON_STATIC)) ||
        (flags & CH_JSON_DYNAMIC && flags & CH_JSON_STATIC))
        return NULL;
    if (p < -1 || p >= st->nplayers)
        p = -1;
    return write_doc_ix(st, 1, p, flags, ix, nix, NULL);
}

int ch_views_json_ix(const ch_state *st, unsigned mask, unsigned flags, char **text,
                     uint32_t (**ix)[3], size_t *nix)
{
    if (!st || !text || !ix || !nix || !(flags & CH_JSON_COMPACT) || (flags & CH_JSON_STATIC) ||
        (flags & ~(unsigned)(CH_JSON_COMPACT | CH_JSON_DYNAMIC)))
        return -1;
    int n = st->nplayers < CH_MAX_PLAYERS ? st->nplayers : CH_MAX_PLAYERS;
    for (int k = 0; k <= n; k++) {
        text[k] = NULL;
        ix[k] = NULL;
        nix[k] = 0;
    }
    share sh;
    sh.have = 0;
    for (int k = 0; k <= n; k++) {
        if (!(mask >> k & 1u))
            continue;
        text[k] = write_doc_ix(st, 1, k - 1, flags, &ix[k], &nix[k], &sh);
        if (!text[k]) {
            for (int j = 0; j <= k; j++) {
                free(text[j]);
                free(ix[j]);
                text[j] = NULL;
                ix[j] = NULL;
                nix[j] = 0;
            }
            return -1;
        }
        if (!sh.have) {
            sh.have = 1;
            sh.src = text[k];
            sh.srcix = (const uint32_t(*)[3])ix[k];
        }
#ifdef CH_DEBUG_CHECKS
        {
            /* the copied parts must be what this view writes itself */
            char *own = ch_view_json(st, k - 1, flags);
            if (!own || strcmp(own, text[k]) != 0) {
                fprintf(stderr, "chartered: a view with shared parts differs from its own "
                                "(perspective %d)\n", k - 1);
                assert(own && strcmp(own, text[k]) == 0);
            }
            free(own);
        }
#endif
    }
    return 0;
}

/* The earlier view prev as a prevdoc for a view of st, or 0 when it cannot
 * be one (missing, not a compact view's text and index, another game's). */
static int prev_open(prevdoc *pd, const ch_view_prev *prev, const ch_state *st)
{
    if (!prev || !prev->st || !prev->text || !prev->ix || prev->nix < 1 ||
        prev->len >= UINT32_MAX || prev->ix[0][0] != 0 || prev->ix[0][1] != prev->len ||
        prev->ix[0][2] != prev->nix || !same_static(prev->st, st))
        return 0;
    pd->st = prev->st;
    pd->text = prev->text;
    pd->len = prev->len;
    pd->ix = prev->ix;
    pd->nix = prev->nix;
    pd->ntop = 0;
    /* the root's members that are containers, each entry naming the next */
    for (size_t c = 1; c < prev->nix && pd->ntop < PREV_TOP;) {
        size_t nx = prev->ix[c][2];
        if (nx <= c || nx > prev->nix || prev->ix[c][1] > prev->len || prev->ix[c][0] >= prev->ix[c][1])
            return 0;
        pd->top[pd->ntop++] = c;
        c = nx;
    }
    return 1;
}

static int views_into(const ch_state *st, unsigned mask, unsigned flags, ch_view_buf *buf,
                      const ch_view_prev *prev)
{
    if (!st || !buf || !(flags & CH_JSON_COMPACT) || (flags & CH_JSON_STATIC) ||
        (flags & ~(unsigned)(CH_JSON_COMPACT | CH_JSON_DYNAMIC)))
        return -1;
    int n = st->nplayers < CH_MAX_PLAYERS ? st->nplayers : CH_MAX_PLAYERS;
    share sh;
    sh.have = 0;
    pubs pub;
    pub.buf = buf;
    for (int p = 0; p < CH_MAX_PLAYERS; p++)
        pub.k[p] = -1;
    for (int k = 0; k <= n; k++) {
        if (!(mask >> k & 1u))
            continue;
        prevdoc pd;
        int have_prev = prev && prev_open(&pd, &prev[k], st);
        pub.cur = k;
        if (write_into(st, 1, k - 1, flags, &buf[k], 1, &sh, have_prev ? &pd : NULL, &pub) != 0)
            return -1;
        if (!sh.have) {
            sh.have = 1;
            sh.src = buf[k].text;
            sh.srcix = (const uint32_t(*)[3])buf[k].ix;
        }
#ifdef CH_DEBUG_CHECKS
        {
            /* the copied parts must be what this view writes itself */
            char *own = ch_view_json(st, k - 1, flags);
            if (!own || strcmp(own, buf[k].text) != 0) {
                fprintf(stderr, "chartered: a view with shared or earlier parts differs from "
                                "its own (perspective %d)\n", k - 1);
                assert(own && strcmp(own, buf[k].text) == 0);
            }
            free(own);
        }
#endif
    }
    return 0;
}

int ch_views_json_buf(const ch_state *st, unsigned mask, unsigned flags, ch_view_buf *buf)
{
    return views_into(st, mask, flags, buf, NULL);
}

int ch_views_json_since(const ch_state *st, unsigned mask, unsigned flags, ch_view_buf *buf,
                        const ch_view_prev *prev)
{
    return views_into(st, mask, flags, buf, prev);
}

/* FNV-1a over which cards the view names (see card_hidden): the board and
 * the card table change in nothing else during a game. */
uint32_t ch_view_static_stamp(const ch_state *st, int p)
{
    (void)p; /* every viewer sees the same table today; the seat is in the
                signature so that a per-viewer table would not change it */
    uint32_t h = 2166136261u;
    int n = st->ncards < CH_MAX_CARDS ? st->ncards : CH_MAX_CARDS;
    for (int c = 0; c < n; c++) {
        h ^= (uint32_t)card_hidden(st, 1, c);
        h *= 16777619u;
    }
    h ^= (uint32_t)n;
    h *= 16777619u;
    return h | 1u; /* never 0: a client's "nothing sent yet" */
}
