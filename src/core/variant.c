/* variant.c: variant files (docs/variants.md), a game set up unlike the
 * rulebook's, one setting a line: the edition, player count, Golden Age
 * preset, events, arrangement, each seat's starting money, the starting
 * hand, the hand limit, the open cards, the warehouse supply, the prices and
 * the end conditions. The text is
 * read here (no I/O: the front ends read the file and the arrangement file it
 * names); ch_variant_apply puts it into a ch_setup, whose bounds ch_new
 * checks again, so that the state stays the fixed-size struct it is. */
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>

typedef struct vctx {
    const char *file;
    ch_msg *err;
    ch_variant v;
    /* the line of each setting, for "said twice" and the checks between
       settings made at the end */
    int l_edition, l_players, l_preset, l_events, l_hand, l_limit, l_open, l_wh;
    int l_cash_all, l_add_all, l_cash[CH_MAX_PLAYERS], l_add[CH_MAX_PLAYERS];
    int l_price[5], l_end_turns, l_end_value;
} vctx;

static int vfail(vctx *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int vfail(vctx *c, int line, const char *fmt, ...)
{
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* about a file a designer writes, in English, as a position's errors
       are (position.c's rfail) */
    if (c->err) {
        ch_msg_clear(c->err);
        snprintf(c->err->text, sizeof c->err->text, "%s:%d: %s", c->file, line, text);
    }
    return CH_EFORMAT;
}

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* The next blank-separated word of *s into w (cut at n - 1 bytes); 0 at the
 * end of the line. */
static int word(const char **s, char *w, size_t n)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p)
        return 0;
    size_t k = 0;
    while (*p && *p != ' ' && *p != '\t') {
        if (k + 1 < n)
            w[k++] = *p;
        p++;
    }
    w[k] = '\0';
    *s = p;
    return 1;
}

/* A whole number 0..max written with digits only (at most 9 of them). */
static int number(const char *w, long max, long *out)
{
    if (!*w || strlen(w) > 9)
        return 0;
    for (const char *p = w; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    long v = strtol(w, NULL, 10);
    if (v > max)
        return 0;
    *out = v;
    return 1;
}

/* The rest of a line as a name or path: blanks at both ends dropped, one
 * pair of double quotes around it dropped. */
static int rest_of_line(const char *s, char *out, size_t n)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t len = strlen(s);
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
        s++;
        len -= 2;
    }
    if (len == 0 || len >= n)
        return len == 0 ? 0 : -1;
    memcpy(out, s, len);
    out[len] = '\0';
    return 1;
}

static const char *const keys[] = {"variant", "edition", "players", "preset", "events",
                                   "arrangement", "cash", "hand", "hand-limit", "open",
                                   "warehouses", "price", "end"};
#define NKEYS (int)(sizeof keys / sizeof keys[0])

static int distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 30 || lb > 30)
        return 99;
    int d[31][31];
    for (int i = 0; i <= la; i++)
        d[i][0] = i;
    for (int j = 0; j <= lb; j++)
        d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int v = d[i - 1][j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            d[i][j] = v;
        }
    return d[la][lb];
}

/* "said twice" when *seen is set, else record the line. */
static int once(vctx *c, int *seen, int line, const char *what)
{
    if (*seen)
        return vfail(c, line, "%s is set twice (first on line %d)", what, *seen);
    *seen = line;
    return CH_OK;
}

/* cash [SEAT] fN | +fN | -fN */
static int cash_line(vctx *c, int line, const char *s)
{
    char w[64], w2[64];
    if (!word(&s, w, sizeof w))
        return vfail(c, line, "cash needs an amount: 'cash f400', 'cash +f100' or 'cash 1 +f100' (seat 1)");
    long seat = 0;
    if (isdigit((unsigned char)w[0])) {
        const char *t = s;
        if (!word(&t, w2, sizeof w2))
            return vfail(c, line, "money is written with an f: f%s, not '%s' (a number before the amount is a seat)",
                         w, w);
        if (!number(w, CH_MAX_PLAYERS, &seat) || seat < 1)
            return vfail(c, line, "a seat is a number from 1 to %d, not '%s'", CH_MAX_PLAYERS, w);
        if (!word(&s, w, sizeof w))
            return vfail(c, line, "cash %ld needs an amount: f400, +f100 or -f50", seat);
    }
    if (word(&s, w2, sizeof w2))
        return vfail(c, line, "unexpected '%s' after the amount", w2);
    int sign = 0;
    const char *a = w;
    if (*a == '+' || *a == '-')
        sign = *a++ == '+' ? 1 : -1;
    long amount;
    if ((*a != 'f' && *a != 'F') || !number(a + 1, CH_VARIANT_CASH_MAX, &amount))
        return vfail(c, line, "money is written f400 (or +f100, -f50 to change the rulebook's), from f1 to f%d, not '%s'",
                     CH_VARIANT_CASH_MAX, w);
    if (amount == 0 && sign)
        return vfail(c, line, "a change of f0 changes nothing");
    if (amount == 0)
        return vfail(c, line, "a player starts with at least f1");
    char what[40];
    int *seen;
    if (seat)
        seen = sign ? &c->l_add[seat - 1] : &c->l_cash[seat - 1];
    else
        seen = sign ? &c->l_add_all : &c->l_cash_all;
    if (seat)
        snprintf(what, sizeof what, "seat %ld's %s", seat, sign ? "change of money" : "money");
    else
        snprintf(what, sizeof what, "every seat's %s", sign ? "change of money" : "money");
    int rc = once(c, seen, line, what);
    if (rc)
        return rc;
    int32_t v = (int32_t)(sign ? sign * amount : amount);
    if (seat && sign)
        c->v.cash_add[seat - 1] = v;
    else if (seat)
        c->v.cash[seat - 1] = v;
    else if (sign)
        c->v.cash_add_all = v;
    else
        c->v.cash_all = v;
    if (!c->v.cash_line)
        c->v.cash_line = line;
    return CH_OK;
}

/* An amount written fN, 1..max. */
static int amount(const char *w, long max, long *out)
{
    return (w[0] == 'f' || w[0] == 'F') && number(w + 1, max, out) && *out >= 1;
}

int variant_price_end(const char *key, const char *s, ch_prices *pr, int *end_turns,
                      int *end_value, int *which, char *why, size_t n)
{
    char w[64], a[64], b[64], extra[64];
    long v, v2;
    if (!word(&s, w, sizeof w)) {
        snprintf(why, n, "%s",
                 ieq(key, "end") ? "end needs 'turns N' or 'value fN'"
                                 : "price needs what it prices and an amount: 'price refresh f150'");
        return -1;
    }
    if (ieq(key, "end")) {
        if (!word(&s, a, sizeof a) || word(&s, extra, sizeof extra)) {
            snprintf(why, n, "'end %s' needs one value: 'end turns 40' or 'end value f250'", w);
            return -1;
        }
        if (ieq(w, "turns")) {
            if (!number(a, 65535, &v) || v < 1) {
                snprintf(why, n, "the game ends after turn 1 to 65535, not '%s'", a);
                return -1;
            }
            *end_turns = (int)v;
            *which = 5;
            return 0;
        }
        if (ieq(w, "value")) {
            if (!amount(a, 100000, &v)) {
                snprintf(why, n, "an ending value is written f250, not '%s'", a);
                return -1;
            }
            *end_value = (int)v;
            *which = 6;
            return 0;
        }
        snprintf(why, n, "unknown end '%s' (turns N, or value fN: the rulebook's ends stay)", w);
        return -1;
    }
    static const char *const items[] = {"purchase", "refresh", "action", "stock-min", "flags"};
    int k;
    for (k = 0; k < 5; k++)
        if (ieq(w, items[k]))
            break;
    if (k == 5) {
        snprintf(why, n, "unknown price '%s' (purchase, refresh, action, stock-min or flags)", w);
        return -1;
    }
    if (!word(&s, a, sizeof a)) {
        snprintf(why, n, "price %s needs an amount: f60", items[k]);
        return -1;
    }
    if (!amount(a, CH_PRICE_MAX, &v)) {
        snprintf(why, n, "a price is f1 to f%d, not '%s'", CH_PRICE_MAX, a);
        return -1;
    }
    v2 = 0;
    if (k == 4) { /* flags: the first and the second */
        if (!word(&s, b, sizeof b) || !amount(b, CH_PRICE_MAX, &v2)) {
            snprintf(why, n, "price flags needs two amounts, the first flag's and the second's: f200 f400");
            return -1;
        }
    }
    if (word(&s, extra, sizeof extra)) {
        snprintf(why, n, "unexpected '%s' after the price", extra);
        return -1;
    }
    int16_t *slot[] = {&pr->purchase, &pr->refresh, &pr->action, &pr->stock_min, &pr->flag[0]};
    *slot[k] = (int16_t)v;
    if (k == 4)
        pr->flag[1] = (int16_t)v2;
    *which = k;
    return 0;
}

/* price ITEM fN, end turns N | end value fN */
static int price_end_line(vctx *c, int line, const char *key, const char *s)
{
    char why[160];
    int which = -1;
    ch_prices pr = c->v.prices;
    int et = c->v.end_turns, ev = c->v.end_value;
    if (variant_price_end(key, s, &pr, &et, &ev, &which, why, sizeof why))
        return vfail(c, line, "%s", why);
    static const char *const what[] = {"price purchase", "price refresh", "price action",
                                       "price stock-min", "price flags", "end turns", "end value"};
    int *seen = which < 5 ? &c->l_price[which] : which == 5 ? &c->l_end_turns : &c->l_end_value;
    int rc = once(c, seen, line, what[which]);
    if (rc)
        return rc;
    c->v.prices = pr;
    c->v.end_turns = et;
    c->v.end_value = ev;
    if (which < 5 && !c->v.prices_line)
        c->v.prices_line = line;
    return CH_OK;
}

/* hand, hand-limit, open, warehouses: one whole number */
static int count_line(vctx *c, int line, const char *key, const char *s, int lo, int hi,
                      int *seen, int *out, const char *what)
{
    char w[64], w2[64];
    long v;
    if (!word(&s, w, sizeof w))
        return vfail(c, line, "%s needs a number", key);
    if (word(&s, w2, sizeof w2))
        return vfail(c, line, "unexpected '%s' after %s", w2, w);
    if (!number(w, 1000000, &v) || v < lo || v > hi)
        return vfail(c, line, "%s is %d to %d, not '%s'", what, lo, hi, w);
    int rc = once(c, seen, line, key);
    if (rc)
        return rc;
    *out = (int)v;
    return CH_OK;
}

static int setting(vctx *c, int line, const char *key, const char *s)
{
    char w[64], w2[64];
    if (ieq(key, "cash"))
        return cash_line(c, line, s);
    if (ieq(key, "price") || ieq(key, "end"))
        return price_end_line(c, line, key, s);
    if (ieq(key, "hand"))
        return count_line(c, line, "hand", s, 1, CH_MAX_CARDS - 1, &c->l_hand, &c->v.hand,
                          "a starting hand");
    if (ieq(key, "hand-limit"))
        return count_line(c, line, "hand-limit", s, 1, CH_MAX_CARDS - 1, &c->l_limit,
                          &c->v.hand_limit, "the hand limit");
    if (ieq(key, "open"))
        return count_line(c, line, "open", s, 1, CH_MARKET_MAX, &c->l_open, &c->v.open,
                          "the number of open cards");
    if (ieq(key, "warehouses"))
        return count_line(c, line, "warehouses", s, 2, 255, &c->l_wh, &c->v.warehouses,
                          "the warehouse supply (a byte of the state)");
    if (ieq(key, "arrangement")) {
        if (c->v.arrangement[0])
            return vfail(c, line, "arrangement is set twice (first on line %d)", c->v.arrangement_line);
        int r = rest_of_line(s, c->v.arrangement, sizeof c->v.arrangement);
        if (r == 0)
            return vfail(c, line, "arrangement needs a built-in arrangement's name or a file");
        if (r < 0)
            return vfail(c, line, "an arrangement's name or path holds at most %d bytes", CH_VARIANT_PATH_LEN - 1);
        c->v.arrangement_line = line;
        return CH_OK;
    }
    /* the rest take one word */
    if (!word(&s, w, sizeof w))
        return vfail(c, line, "%s needs a value", key);
    if (word(&s, w2, sizeof w2))
        return vfail(c, line, "unexpected '%s' after %s", w2, w);
    int rc;
    if (ieq(key, "edition")) {
        if ((rc = once(c, &c->l_edition, line, "edition")))
            return rc;
        if (ieq(w, "amsterdam"))
            c->v.edition = CH_ED_AMSTERDAM;
        else if (ieq(w, "golden-age"))
            c->v.edition = CH_ED_GOLDEN_AGE;
        else
            return vfail(c, line, "unknown edition '%s' (amsterdam or golden-age)", w);
        return CH_OK;
    }
    if (ieq(key, "players")) {
        long v;
        if (!number(w, CH_MAX_PLAYERS, &v) || v < 2)
            return vfail(c, line, "the player count is 2 to %d, not '%s'", CH_MAX_PLAYERS, w);
        if ((rc = once(c, &c->l_players, line, "players")))
            return rc;
        c->v.nplayers = (int)v;
        return CH_OK;
    }
    if (ieq(key, "preset")) {
        if ((rc = once(c, &c->l_preset, line, "preset")))
            return rc;
        if (ieq(w, "golden-age"))
            c->v.preset = CH_GA_PRINTED;
        else if (ieq(w, "golden-age-first"))
            c->v.preset = CH_GA_FIRST;
        else
            return vfail(c, line, "unknown preset '%s' (golden-age or golden-age-first)", w);
        return CH_OK;
    }
    /* events */
    if ((rc = once(c, &c->l_events, line, "events")))
        return rc;
    if (ieq(w, "on"))
        c->v.events = 1;
    else if (ieq(w, "off"))
        c->v.events = 0;
    else
        return vfail(c, line, "events is on or off, not '%s'", w);
    return CH_OK;
}

/* Settings that must agree with each other, checked once all are read. */
static int check_together(vctx *c)
{
    const ch_variant *v = &c->v;
    if (v->edition == CH_ED_AMSTERDAM && c->l_preset)
        return vfail(c, c->l_preset, "a preset is The Golden Age's, and this variant is for Building Amsterdam");
    if (v->edition == CH_ED_GOLDEN_AGE && c->l_limit)
        return vfail(c, c->l_limit, "The Golden Age has no hand limit");
    if (v->edition == CH_ED_AMSTERDAM && v->nplayers > 5)
        return vfail(c, c->l_players, "Building Amsterdam is for 2 to 5 players, not %d", v->nplayers);
    if (v->edition == CH_ED_AMSTERDAM && c->l_price[4])
        return vfail(c, c->l_price[4], "flags are The Golden Age's, and this variant is for Building Amsterdam");
    if (v->edition == CH_ED_GOLDEN_AGE && c->l_price[2])
        return vfail(c, c->l_price[2], "The Golden Age has no action cards to price");
    if (v->edition >= 0 && c->l_end_value) {
        int lo = v->edition == CH_ED_GOLDEN_AGE ? 30 : 20, hi = v->edition == CH_ED_GOLDEN_AGE ? 500 : 300;
        if (v->end_value <= lo || v->end_value > hi)
            return vfail(c, c->l_end_value, "an ending value is f%d to f%d on this edition's chart, not f%d",
                         lo + 1, hi, v->end_value);
    }
    if (v->hand && v->hand_limit && v->hand > v->hand_limit)
        return vfail(c, c->l_hand > c->l_limit ? c->l_hand : c->l_limit,
                     "a starting hand of %d is over the hand limit of %d", v->hand, v->hand_limit);
    if (v->nplayers)
        for (int p = v->nplayers; p < CH_MAX_PLAYERS; p++)
            if (c->l_cash[p] || c->l_add[p])
                return vfail(c, c->l_cash[p] ? c->l_cash[p] : c->l_add[p],
                             "seat %d's money is set, but the variant is for %d players", p + 1, v->nplayers);
    return CH_OK;
}

int ch_variant_parse(ch_variant *out, const char *text, size_t len, const char *file,
                     ch_msg *err)
{
    if (!out || (!text && len))
        return fail(err, CH_EINVAL, "ch_variant_parse needs a variant and its text");
    vctx *c = calloc(1, sizeof *c);
    if (!c)
        return fail(err, CH_ENOMEM, "out of memory");
    c->file = file ? file : "variant";
    c->err = err;
    c->v.edition = -1;
    c->v.preset = -1;
    c->v.events = -1;
    int rc = CH_OK, line = 0, named = 0;
    size_t i = 0;
    char buf[1024];
    while (rc == CH_OK && i < len) {
        line++;
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        size_t n = j - i;
        if (n >= sizeof buf) {
            rc = vfail(c, line, "the line is longer than %d characters", (int)sizeof buf - 1);
            break;
        }
        memcpy(buf, text + i, n);
        buf[n] = '\0';
        i = j + 1;
        if (memchr(buf, '\0', n)) {
            rc = vfail(c, line, "the line holds a NUL byte: a variant is text");
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        for (char *p = buf; *p; p++)
            if (*p == '\r' || *p == '\t')
                *p = ' ';
        const char *s = buf;
        char key[32];
        if (!word(&s, key, sizeof key))
            continue;
        if (!named) {
            if (!ieq(key, "variant")) {
                rc = vfail(c, line, "a variant file starts with 'variant NAME', not '%s'", key);
                break;
            }
            int r = rest_of_line(s, c->v.name, sizeof c->v.name);
            if (r <= 0) {
                if (r == 0)
                    rc = vfail(c, line, "the variant needs a name: 'variant rich start'");
                else
                    rc = vfail(c, line, "a variant's name holds at most %d bytes", CH_VARIANT_NAME_LEN - 1);
                break;
            }
            named = 1;
            continue;
        }
        if (ieq(key, "variant")) {
            rc = vfail(c, line, "a file holds one variant: 'variant' comes once, on the first line");
        } else {
            int k;
            for (k = 0; k < NKEYS; k++)
                if (ieq(key, keys[k]))
                    break;
            if (k == NKEYS) {
                const char *best = NULL;
                int bd = 99;
                for (int q = 1; q < NKEYS; q++) {
                    int d = distance(key, keys[q]);
                    if (d < bd) {
                        bd = d;
                        best = keys[q];
                    }
                }
                int klen = (int)strlen(key);
                if (best && bd <= (klen < 4 ? 1 : klen / 3 + 1))
                    rc = vfail(c, line, "unknown setting '%s' (did you mean '%s'?)", key, best);
                else
                    rc = vfail(c, line, "unknown setting '%s'", key);
            } else {
                rc = setting(c, line, key, s);
            }
        }
    }
    if (rc == CH_OK && !named)
        rc = vfail(c, line ? line : 1, "empty: a variant file starts with 'variant NAME'");
    if (rc == CH_OK)
        rc = check_together(c);
    if (rc == CH_OK)
        *out = c->v;
    free(c);
    return rc;
}

int ch_variant_apply(const ch_variant *v, ch_setup *setup, ch_msg *err)
{
    if (!v || !setup)
        return fail(err, CH_EINVAL, "ch_variant_apply needs a variant and a setup");
    ch_setup s = *setup;
    if (v->edition >= 0 && v->edition != s.edition) {
        /* the variant's edition: that edition's defaults, the rest kept */
        int n = s.nplayers;
        uint64_t seed = s.seed;
        ch_setup_default(&s, v->edition);
        s.nplayers = n;
        s.seed = seed;
    }
    if (v->nplayers)
        s.nplayers = v->nplayers;
    int ga = s.edition == CH_ED_GOLDEN_AGE;
    if (s.nplayers < 2 || s.nplayers > (ga ? 6 : 5))
        return fail(err, CH_EINVAL, "%s is for 2 to %d players, not %d",
                    ga ? "The Golden Age" : "Building Amsterdam", ga ? 6 : 5, s.nplayers);
    if (v->preset >= 0) {
        if (!ga)
            return fail(err, CH_EINVAL, "variant '%s' sets a Golden Age preset, and the game is Building Amsterdam",
                        v->name);
        s.preset = v->preset;
    }
    if (v->events >= 0) {
        if (ga)
            s.events = v->events;
        else
            s.no_stock_events = !v->events;
    }
    if (v->hand_limit && ga)
        return fail(err, CH_EINVAL, "variant '%s' sets a hand limit, and The Golden Age has none", v->name);
    for (int p = 0; p < CH_MAX_PLAYERS; p++) {
        int32_t cash = v->cash[p] ? v->cash[p] : v->cash_all;
        int32_t add = v->cash_add[p] ? v->cash_add[p] : v->cash_add_all;
        if (p >= s.nplayers) {
            if (v->cash[p] || v->cash_add[p])
                return fail(err, CH_EINVAL, "variant '%s' sets seat %d's money, and the game has %d players",
                            v->name, p + 1, s.nplayers);
            cash = add = 0;
        }
        if (cash)
            s.cash[p] = cash;
        if (add)
            s.cash_add[p] = add;
    }
    if (v->hand)
        s.hand = v->hand;
    if (v->hand_limit)
        s.hand_limit = v->hand_limit;
    if (v->open)
        s.open = v->open;
    if (v->warehouses)
        s.warehouses = v->warehouses;
    /* prices and ends: what the edition has (ch_new checks the bounds) */
    if (ga && v->prices.action)
        return fail(err, CH_EINVAL, "variant '%s' prices action cards, and The Golden Age has none", v->name);
    if (!ga && v->prices.flag[0])
        return fail(err, CH_EINVAL, "variant '%s' prices flags, and the game is Building Amsterdam", v->name);
    {
        const int16_t *from = &v->prices.purchase;
        int16_t *to = &s.prices.purchase;
        for (int i = 0; i < 6; i++)
            if (from[i])
                to[i] = from[i];
    }
    if (v->end_turns)
        s.end_turns = v->end_turns;
    if (v->end_value) {
        int lo = ga ? 30 : 20, hi = ga ? 500 : 300;
        if (v->end_value <= lo || v->end_value > hi)
            return fail(err, CH_EINVAL, "variant '%s' ends the game at f%d, and the chart runs f%d to f%d",
                        v->name, v->end_value, lo, hi);
        s.end_value = v->end_value;
    }
    /* the money each seat ends up with, as ch_new will work it out */
    int open, wh, limit, capital;
    setup_rulebook(s.edition, s.preset, s.nplayers, &open, &wh, &limit, &capital);
    int32_t cash[CH_MAX_PLAYERS];
    if (setup_variant_common(&s, capital, cash, err) != CH_OK)
        return CH_EINVAL;
    int hand = s.hand, hl = s.hand_limit ? s.hand_limit : limit;
    if (!ga && hand && hand > hl)
        return fail(err, CH_EINVAL, "a starting hand of %d is over the hand limit of %d", hand, hl);
    *setup = s;
    return CH_OK;
}
