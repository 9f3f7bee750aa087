/* viewcheck.c: the selfplay check that a player's view (ch_view_to_json)
 * leaks nothing: no other player's hidden hand cards (cards in q's hand that
 * are not in q's known set), no deck, level-reserve or event-deck order, no
 * seed or RNG state, and in The Golden Age, where holdings are private, no
 * other player's stocks (while the bank's counts stay in the view). It scans the JSON text once without building a tree
 * (the check runs for every player at the end of every game), keeping the
 * path of keys to know which section a string sits in.
 */
#include <string.h>

#include "cli.h"

typedef struct scan {
    const char *s;
    size_t i;
    int bad;            /* malformed text                                  */
    /* what the caller looks for */
    const ch_state *st;
    int viewer, party;
    const char (*names)[64];
    int hidden[CH_MAX_CARDS], nhidden; /* cards to look for                */
    int owner[CH_MAX_CARDS];           /* whose hidden card                */
    int pidx;           /* index of the players[] entry being read, -1 before */
    int bank_seen;      /* companies[].bank keys seen                         */
    /* findings */
    int leak_card, leak_owner;
    char leak_where[32];
    char secret[64];
} scan;

static void ws(scan *c)
{
    while (c->s[c->i] == ' ' || c->s[c->i] == '\n' || c->s[c->i] == '\t' ||
           c->s[c->i] == '\r')
        c->i++;
}

/* A string at c->i (on the opening quote): its raw content. */
static int str(scan *c, const char **start, size_t *len)
{
    if (c->s[c->i] != '"')
        return -1;
    size_t j = ++c->i;
    while (c->s[c->i] && c->s[c->i] != '"') {
        if (c->s[c->i] == '\\' && c->s[c->i + 1])
            c->i++;
        c->i++;
    }
    if (c->s[c->i] != '"')
        return -1;
    *start = c->s + j;
    *len = c->i - j;
    c->i++;
    return 0;
}

static int key_is(const char *k, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(k, lit, n) == 0;
}

/* Is a string value in this section searched for hidden cards? */
static int searched(const scan *c, const char *top, size_t tn,
                    const char *second, size_t sn)
{
    if (!top)
        return 0;
    if (key_is(top, tn, "players") || key_is(top, tn, "piles") ||
        key_is(top, tn, "merger") || key_is(top, tn, "deciders"))
        return 1;
    if (key_is(top, tn, "event"))
        return !(second && key_is(second, sn, "offer") && c->party);
    return 0;
}

static void on_string(scan *c, const char *v, size_t n, const char *top,
                      size_t tn, const char *second, size_t sn)
{
    if (c->leak_card >= 0 || !searched(c, top, tn, second, sn))
        return;
    for (int k = 0; k < c->nhidden; k++) {
        const char *name = c->names[c->hidden[k]];
        if (name[0] == v[0] && strlen(name) == n && memcmp(name, v, n) == 0) {
            c->leak_card = c->hidden[k];
            c->leak_owner = c->owner[k];
            snprintf(c->leak_where, sizeof c->leak_where, "%.*s%s%.*s",
                     (int)(tn < 15 ? tn : 15), top, second ? "." : "",
                     second ? (int)(sn < 15 ? sn : 15) : 0, second ? second : "");
            return;
        }
    }
}

static void on_key(scan *c, int depth, const char *k, size_t n,
                   const char *top, size_t tn)
{
    if (c->secret[0])
        return;
    if (depth == 0 && (key_is(k, n, "seed") || key_is(k, n, "rng")))
        snprintf(c->secret, sizeof c->secret, "\"%.*s\"", (int)n, k);
    if (depth == 2 && top && key_is(top, tn, "players") &&
        key_is(k, n, "stocks") && c->st->edition == CH_ED_GOLDEN_AGE &&
        c->pidx != c->viewer)
        snprintf(c->secret, sizeof c->secret, "player %d's stocks (private "
                 "in The Golden Age)", c->pidx + 1);
    if (depth == 2 && top && key_is(top, tn, "companies") &&
        key_is(k, n, "bank"))
        c->bank_seen++;
    if (depth == 1 && top && key_is(top, tn, "piles") &&
        (key_is(k, n, "deck") || key_is(k, n, "reserve") ||
         key_is(k, n, "event_deck")))
        snprintf(c->secret, sizeof c->secret, "the order of piles.%.*s",
                 (int)n, k);
}

static int value(scan *c, int depth, const char *top, size_t tn,
                 const char *second, size_t sn)
{
    if (depth > 64)
        return -1;
    ws(c);
    char ch = c->s[c->i];
    if (ch == '{') {
        c->i++;
        if (depth == 2 && top && key_is(top, tn, "players"))
            c->pidx++;
        ws(c);
        if (c->s[c->i] == '}') {
            c->i++;
            return 0;
        }
        for (;;) {
            const char *k;
            size_t kn;
            ws(c);
            if (str(c, &k, &kn))
                return -1;
            ws(c);
            if (c->s[c->i++] != ':')
                return -1;
            on_key(c, depth, k, kn, top, tn);
            const char *t2 = depth == 0 ? k : top;
            size_t tn2 = depth == 0 ? kn : tn;
            const char *s2 = depth == 1 ? k : second;
            size_t sn2 = depth == 1 ? kn : sn;
            if (value(c, depth + 1, t2, tn2, s2, sn2))
                return -1;
            ws(c);
            if (c->s[c->i] == ',') {
                c->i++;
                continue;
            }
            if (c->s[c->i] == '}') {
                c->i++;
                return 0;
            }
            return -1;
        }
    }
    if (ch == '[') {
        c->i++;
        ws(c);
        if (c->s[c->i] == ']') {
            c->i++;
            return 0;
        }
        for (;;) {
            if (value(c, depth + 1, top, tn, second, sn))
                return -1;
            ws(c);
            if (c->s[c->i] == ',') {
                c->i++;
                continue;
            }
            if (c->s[c->i] == ']') {
                c->i++;
                return 0;
            }
            return -1;
        }
    }
    if (ch == '"') {
        const char *v;
        size_t n;
        if (str(c, &v, &n))
            return -1;
        on_string(c, v, n, top, tn, second, sn);
        return 0;
    }
    /* number, true, false, null */
    size_t j = c->i;
    while (c->s[c->i] && strchr("+-.0123456789eEtruefalsn", c->s[c->i]))
        c->i++;
    return c->i > j ? 0 : -1;
}

static int in_set(const uint64_t s[2], int c)
{
    return (int)((s[c >> 6] >> (c & 63)) & 1u);
}

int viewcheck(const ch_state *st, int p, const char *view,
              const char (*names)[64], char *why, size_t n)
{
    scan c;
    memset(&c, 0, sizeof c);
    c.s = view;
    c.st = st;
    c.viewer = p;
    c.party = p == st->active || p == st->offer.to;
    c.names = names;
    c.leak_card = -1;
    c.pidx = -1;
    for (int q = 0; q < st->nplayers; q++) {
        if (q == p)
            continue;
        for (int k = 0; k < st->ncards && k < CH_MAX_CARDS; k++)
            if (in_set(st->pl[q].hand, k) && !in_set(st->pl[q].known, k)) {
                c.hidden[c.nhidden] = k;
                c.owner[c.nhidden++] = q;
            }
    }
    if (value(&c, 0, NULL, 0, NULL, 0)) {
        snprintf(why, n, "view of player %d is not well-formed JSON (near "
                 "character %zu)", p + 1, c.i);
        return -1;
    }
    ws(&c);
    if (c.s[c.i] != '\0') {
        snprintf(why, n, "view of player %d has text after the JSON document "
                 "(character %zu)", p + 1, c.i);
        return -1;
    }
    if (c.secret[0]) {
        snprintf(why, n, "view of player %d shows %s", p + 1, c.secret);
        return -1;
    }
    if (c.bank_seen != st->ncompanies) {
        snprintf(why, n, "view of player %d shows the bank's stocks of %d "
                 "companies, not %d", p + 1, c.bank_seen, st->ncompanies);
        return -1;
    }
    if (c.leak_card >= 0) {
        snprintf(why, n, "view of player %d shows player %d's hidden card %s "
                 "(in %s)", p + 1, c.leak_owner + 1, names[c.leak_card],
                 c.leak_where);
        return -1;
    }
    return 0;
}
