/* notation.c: the text form of moves ("play Harbour C1", "sell 3 Tea",
 * "bid f120"): ch_move_str writes the canonical text of a move, ch_move_parse
 * reads a move back (case-insensitive, tolerant of extra spaces) and ch_play
 * parses and applies in one call. See docs/formats.md, "Move notation".
 *
 * Parsing only reads the state (board names, company names, where the level
 * cards are); it never judges legality, which is ch_check's job. Text that is
 * not a move is refused with CH_ESYNTAX and a message naming the problem and
 * what was expected. Nothing here allocates.
 */
#include "internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_INPUT 200          /* longest move text accepted (characters)   */
#define MAX_TOKENS 64
#define MAX_AMOUNT 10000000    /* florins: anything above is absurd          */
#define MAX_COUNT 255          /* stocks in one sale                          */
#define QUOTE 48               /* at most this much user text in a message   */

#define VERB_LIST                                                              \
    "draw, take, refresh, done, pass, play, sell, keep, buy, hq, lone, "      \
    "found, credit, merge, action, event, bid, lose, offer, give, ask, "      \
    "propose, withdraw, accept, decline, auction, pick, free, flag"
#define EVENT_KINDS                                                            \
    "Verlappen, Aenleggen, Dreighinghe, Coopmanscappen, Veilinge or deck"
#define AUCTION_NEED                                                           \
    "'auction' needs 'stock <company>', 'own <company>', 'deck' or 'discard'"

/* ---- messages --------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static int nt_fail(ch_msg *why, int code, const char *fmt, ...)
{
    /* status.c's helper: the English text, and fmt with its arguments
     * recorded for translation (so every message here is a literal format) */
    va_list ap;
    va_start(ap, fmt);
    ch_msg_vfail(why, code, fmt, ap);
    va_end(ap);
    return code;
}

/* ---- output ----------------------------------------------------------------- */

typedef struct out {
    char *buf;
    size_t n;
    size_t len; /* length of the full text, even beyond n */
} out;

static void put(out *o, const char *s)
{
    size_t k = strlen(s);
    if (o->buf && o->n > 0 && o->len < o->n - 1) {
        size_t room = o->n - 1 - o->len;
        size_t c = k < room ? k : room;
        memcpy(o->buf + o->len, s, c);
        o->buf[o->len + c] = '\0';
    }
    o->len += k;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void putf(out *o, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    put(o, tmp);
}

/* prefix, the number in decimal, suffix: putf's common cases without
 * vsnprintf (every amount in a legal-move list goes through here). */
static void put_num(out *o, const char *prefix, long v, const char *suffix)
{
    char tmp[48];
    size_t k = strlen(prefix);
    memcpy(tmp, prefix, k);
    char digits[24];
    int nd = 0;
    unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
    do {
        digits[nd++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[k++] = '-';
    while (nd)
        tmp[k++] = digits[--nd];
    size_t sl = strlen(suffix);
    memcpy(tmp + k, suffix, sl + 1);
    put(o, tmp);
}

static void put_plot(out *o, const ch_state *st, int plot)
{
    char tmp[2 * CH_NAME_LEN + CH_LABEL_LEN + 8];
    if (!st || plot < 0 || plot >= BRD(st)->nplots ||
        ch_plot_name(BRD(st), plot, tmp, sizeof tmp) < 0) {
        put(o, "?");
        return;
    }
    tmp[sizeof tmp - 1] = '\0';
    put(o, tmp);
}

static void put_card(out *o, const ch_state *st, int card)
{
    char tmp[2 * CH_NAME_LEN + CH_LABEL_LEN + 8];
    if (ch_card_name(st, card, tmp, sizeof tmp) < 0) {
        put(o, "?");
        return;
    }
    tmp[sizeof tmp - 1] = '\0';
    put(o, tmp);
}

static int is_level_card(const ch_state *st, int card)
{
    return st && card >= 0 && card < st->ncards && card < CH_MAX_CARDS &&
           st->card_level[card] >= 2 && st->card_level[card] <= 5;
}

static void put_item(out *o, const ch_state *st, ch_move m)
{
    switch (m.b) {
    case 0: put_card(o, st, m.a); break;
    case 1: put(o, ch_company_name(st, m.a)); break;
    case 2: put_num(o, "f", (long)m.n, ""); break;
    default: put(o, "?"); break;
    }
}

int ch_move_str(const ch_state *st, ch_move m, char *buf, size_t n)
{
    out o = {buf, buf ? n : 0, 0};
    if (o.buf && o.n > 0)
        o.buf[0] = '\0';
    switch (m.type) {
    case CH_M_DRAW: put(&o, "draw"); break;
    case CH_M_TAKE: put(&o, "take "); put_card(&o, st, m.a); break;
    case CH_M_REFRESH: put(&o, "refresh"); break;
    case CH_M_DONE: put(&o, "done"); break;
    case CH_M_PASS: put(&o, "pass"); break;
    case CH_M_PLAY:
        put(&o, "play ");
        if (is_level_card(st, m.a)) {
            put_card(&o, st, m.a);
            put(&o, " ");
        }
        put_plot(&o, st, m.b);
        if (m.c != CH_NONE) {
            put(&o, " + ");
            put_card(&o, st, m.c);
        }
        if (m.n & 1)
            put(&o, " roof");
        break;
    case CH_M_SELL:
        if (m.n == 0) {
            put(&o, "keep ");
        } else if (m.n == 1) {
            put(&o, "sell ");
        } else {
            put_num(&o, "sell ", (long)m.n, " ");
        }
        put(&o, ch_company_name(st, m.a));
        break;
    case CH_M_BUY: put(&o, "buy "); put(&o, ch_company_name(st, m.a)); break;
    case CH_M_HQ: put(&o, "hq "); put_plot(&o, st, m.a); break;
    case CH_M_LONE: put(&o, "lone"); break;
    case CH_M_FOUND: put(&o, "found "); put(&o, ch_company_name(st, m.a)); break;
    case CH_M_CREDIT: put(&o, "credit "); put(&o, ch_company_name(st, m.a)); break;
    case CH_M_MERGE:
        put(&o, "merge ");
        put(&o, ch_company_name(st, m.a));
        put(&o, " into ");
        put(&o, ch_company_name(st, m.b));
        break;
    case CH_M_ACTION:
        put(&o, m.a == 0 ? "action roof" : m.a == 1 ? "action event" : "action ?");
        break;
    case CH_M_EVENT:
        put(&o, "event ");
        put(&o, m.a == CH_NONE ? "deck" : ch_event_name(m.a));
        break;
    case CH_M_BID: put_num(&o, "bid f", (long)m.n, ""); break;
    case CH_M_LOSE: put(&o, "lose "); put(&o, ch_company_name(st, m.a)); break;
    case CH_M_OFFER:
        if (m.a < CH_MAX_PLAYERS)
            put_num(&o, "offer P", (long)m.a + 1, "");
        else
            put(&o, "offer ?");
        break;
    case CH_M_GIVE: put(&o, "give "); put_item(&o, st, m); break;
    case CH_M_ASK: put(&o, "ask "); put_item(&o, st, m); break;
    case CH_M_PROPOSE: put(&o, "propose"); break;
    case CH_M_WITHDRAW: put(&o, "withdraw"); break;
    case CH_M_ACCEPT: put(&o, "accept"); break;
    case CH_M_DECLINE: put(&o, "decline"); break;
    case CH_M_AUCTION:
        switch (m.b) {
        case 1: put(&o, "auction stock "); put(&o, ch_company_name(st, m.a)); break;
        case 2: put(&o, "auction own "); put(&o, ch_company_name(st, m.a)); break;
        case 3: put(&o, "auction deck"); break;
        case 4: put(&o, "auction discard"); break;
        default: put(&o, "auction ?"); break;
        }
        break;
    case CH_M_PICK: put(&o, "pick "); put_card(&o, st, m.a); break;
    case CH_M_FREE:
        put(&o, "free ");
        put_plot(&o, st, m.a);
        put(&o, " + ");
        put_plot(&o, st, m.b);
        break;
    case CH_M_FLAG: put(&o, "flag "); put(&o, ch_company_name(st, m.a)); break;
    case CH_M_NONE: put(&o, "(no move)"); break;
    default: putf(&o, "(unknown move type %d)", m.type); break;
    }
    return (int)o.len;
}

/* ---- reading ---------------------------------------------------------------- */

/* The move text split into words. '+' is a word of its own; the words are
 * stored joined by single spaces in s, so a run of words is a substring. */
typedef struct line {
    char s[3 * MAX_INPUT + 4];
    int ntok;
    int start[MAX_TOKENS], len[MAX_TOKENS];
} line;

static int split(line *L, const char *text, ch_msg *why)
{
    size_t tl = strlen(text);
    if (tl > MAX_INPUT)
        return nt_fail(why, CH_ESYNTAX,
                    "move text is too long (%zu characters; at most %d)", tl,
                    MAX_INPUT);
    size_t k = 0;
    L->ntok = 0;
    const char *p = text;
    while (*p) {
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (L->ntok == MAX_TOKENS)
            return nt_fail(why, CH_ESYNTAX, "move text has too many words (at most %d)",
                        MAX_TOKENS);
        if (L->ntok > 0)
            L->s[k++] = ' ';
        L->start[L->ntok] = (int)k;
        if (*p == '+') {
            L->s[k++] = *p++;
        } else {
            while (*p && *p != '+' && !isspace((unsigned char)*p))
                L->s[k++] = *p++;
        }
        L->len[L->ntok] = (int)k - L->start[L->ntok];
        L->ntok++;
    }
    L->s[k] = '\0';
    return CH_OK;
}

static const char *tok(const line *L, int i) { return L->s + L->start[i]; }

/* Length of the text of words i..e-1 (i < e). */
static int span(const line *L, int i, int e)
{
    return L->start[e - 1] + L->len[e - 1] - L->start[i];
}

/* Copies the text of words i..e-1 into dst (NUL-terminated). */
static void copy_span(const line *L, int i, int e, char *dst, size_t dn)
{
    size_t k = (i < e) ? (size_t)span(L, i, e) : 0;
    if (k >= dn)
        k = dn - 1;
    memcpy(dst, L->s + (i < e ? L->start[i] : 0), k);
    dst[k] = '\0';
}

static int tok_is(const line *L, int i, const char *word)
{
    size_t k = strlen(word);
    if ((size_t)L->len[i] != k)
        return 0;
    for (size_t j = 0; j < k; j++)
        if (tolower((unsigned char)tok(L, i)[j]) != tolower((unsigned char)word[j]))
            return 0;
    return 1;
}

/* Refuses words i..e-1 left over after what was read ("after" names it). */
static int leftover(const line *L, int i, int e, const char *after, int after_len,
                    ch_msg *why)
{
    if (i >= e)
        return CH_OK;
    return nt_fail(why, CH_ESYNTAX, "unexpected '%.*s' after '%.*s'",
                span(L, i, e) < QUOTE ? span(L, i, e) : QUOTE, tok(L, i),
                after_len < QUOTE ? after_len : QUOTE, after);
}

/* Text after a match inside a copied span, refused as leftover. */
static int leftover_text(const char *text, int consumed, ch_msg *why)
{
    const char *rest = text + consumed;
    while (*rest == ' ')
        rest++;
    if (!*rest)
        return CH_OK;
    return nt_fail(why, CH_ESYNTAX, "unexpected '%.*s' after '%.*s'", QUOTE, rest,
                consumed < QUOTE ? consumed : QUOTE, text);
}

static int company_count(const ch_state *st)
{
    if (st->ncompanies >= 1 && st->ncompanies <= CH_MAX_COMPANIES)
        return st->ncompanies;
    return CH_MAX_COMPANIES;
}

static void company_list(const ch_state *st, char *buf, size_t n)
{
    out o = {buf, n, 0};
    buf[0] = '\0';
    for (int i = 0; i < company_count(st); i++) {
        if (i)
            put(&o, ", ");
        put(&o, ch_company_name(st, i));
    }
}

/* Words i..e-1 must be exactly a company name. */
static int read_company(const ch_state *st, const line *L, int i, int e,
                        const char *verb, int *company, ch_msg *why)
{
    char list[160];
    company_list(st, list, sizeof list);
    if (i >= e)
        return nt_fail(why, CH_ESYNTAX, "'%s' needs a company, one of %s", verb, list);
    char text[sizeof L->s];
    copy_span(L, i, e, text, sizeof text);
    int consumed = 0;
    int c = ch_company_find(st, text, &consumed);
    if (c < 0 || c >= company_count(st))
        return nt_fail(why, CH_ESYNTAX, "'%.*s' is not a company: expected one of %s",
                    QUOTE, text, list);
    *company = c;
    return leftover_text(text, consumed, why);
}

/* Does the copied text start with a district name of the board? */
static int starts_with_district(const ch_board *b, const char *text)
{
    for (int d = 0; d < b->ndistricts && d < CH_MAX_DISTRICTS; d++) {
        size_t k = 0;
        while (k < CH_NAME_LEN && b->district[d][k])
            k++;
        if (k == 0)
            continue;
        size_t j = 0;
        while (j < k && text[j] &&
               tolower((unsigned char)text[j]) == tolower((unsigned char)b->district[d][j]))
            j++;
        if (j == k && (text[k] == ' ' || text[k] == '\0'))
            return 1;
    }
    return 0;
}

/* Words i..e-1 must be exactly a plot name ("Harbour C1"). The callers say
 * themselves what is missing when there are no words (each in a message of
 * its own, so that every message is one literal format to translate). */
static int read_plot(const ch_state *st, const line *L, int i, int e,
                     int *plot, ch_msg *why)
{
    if (i >= e)
        return nt_fail(why, CH_ESYNTAX, "a plot is missing, like 'Harbour C1'");
    char text[sizeof L->s];
    copy_span(L, i, e, text, sizeof text);
    int consumed = 0;
    int pl = ch_board_find(BRD(st), text, &consumed);
    if (pl < 0 || pl >= BRD(st)->nplots || consumed <= 0) {
        if (starts_with_district(BRD(st), text) || BRD(st)->nplots == 0)
            return nt_fail(why, CH_ESYNTAX, "'%.*s' is not a plot on this board",
                        QUOTE, text);
        char example[2 * CH_NAME_LEN + CH_LABEL_LEN + 8];
        if (ch_plot_name(BRD(st), 0, example, sizeof example) < 0)
            snprintf(example, sizeof example, "Harbour C1");
        example[sizeof example - 1] = '\0';
        return nt_fail(why, CH_ESYNTAX,
                    "'%.*s' is not a plot on this board: a plot is a district "
                    "and a label, like '%s'",
                    QUOTE, text, example);
    }
    *plot = pl;
    return leftover_text(text, consumed, why);
}

/* "L2" -> 2; 0 when the word is not a level word at all; -1 when it looks
 * like one ("L", digits) but names no level card. */
static int level_word(const line *L, int i)
{
    const char *t = tok(L, i);
    int k = L->len[i];
    if (k < 2 || (t[0] != 'L' && t[0] != 'l'))
        return 0;
    for (int j = 1; j < k; j++)
        if (!isdigit((unsigned char)t[j]))
            return 0;
    if (k == 2 && t[1] >= '2' && t[1] <= '5') /* L5: The Golden Age */
        return t[1] - '0';
    return -1;
}

/* IN_GIVE: the hand, less the cards already put into the offer being built
 * (so that a second "give L2" gives a second L2 card, as ch_legal lists it). */
enum { IN_HAND, IN_GIVE, IN_MARKET, IN_LOOK, IN_GAME };

/* The lowest card id of a level in a place (level cards of one level are
 * interchangeable, so the text "L2" stands for that one). */
static int resolve_level(const ch_state *st, int p, int level, int where,
                         int *card, ch_msg *why)
{
    int nc = st->ncards < CH_MAX_CARDS ? st->ncards : CH_MAX_CARDS;
    if ((where == IN_HAND || where == IN_GIVE) && (p < 0 || p >= st->nplayers || p >= CH_MAX_PLAYERS))
        return nt_fail(why, CH_EINVAL,
                    "player index %d is out of range (this game has %d players)",
                    p, st->nplayers);
    for (int c = 0; c < nc; c++) {
        if (st->card_level[c] != level)
            continue;
        int found = 0;
        switch (where) {
        case IN_HAND:
            found = (int)((st->pl[p].hand[c >> 6] >> (c & 63)) & 1u);
            break;
        case IN_GIVE:
            found = (int)((st->pl[p].hand[c >> 6] >> (c & 63)) & 1u);
            if (found && st->phase == CH_PH_OFFER &&
                ((st->offer.give_cards[c >> 6] >> (c & 63)) & 1u))
                found = 0;
            break;
        case IN_MARKET:
            for (int s = 0; s < CH_MARKET_MAX; s++)
                if (st->market[s] == c)
                    found = 1;
            break;
        case IN_LOOK:
            for (int s = 0; s < st->nlook && s < 10; s++)
                if (st->look[s] == c)
                    found = 1;
            break;
        default:
            found = 1;
            break;
        }
        if (found) {
            *card = c;
            return CH_OK;
        }
    }
    switch (where) {
    case IN_HAND: return nt_fail(why, CH_ESYNTAX, "you hold no L%d card", level);
    case IN_GIVE:
        if (st->phase == CH_PH_OFFER)
            for (int c = 0; c < nc; c++)
                if (st->card_level[c] == level &&
                    ((st->pl[p].hand[c >> 6] >> (c & 63)) & 1u))
                    return nt_fail(why, CH_ESYNTAX,
                                   "all your L%d cards are already in the offer", level);
        return nt_fail(why, CH_ESYNTAX, "you hold no L%d card", level);
    case IN_MARKET:
        return nt_fail(why, CH_ESYNTAX, "there is no L%d card in the market", level);
    case IN_LOOK:
        return nt_fail(why, CH_ESYNTAX, "there is no L%d card among the cards looked at",
                    level);
    default:
        return nt_fail(why, CH_ESYNTAX, "there is no L%d card in this game", level);
    }
}

static int bad_level(const line *L, int i, ch_msg *why)
{
    return nt_fail(why, CH_ESYNTAX,
                "'%.*s' is not a level card: level cards are L2, L3, L4 and L5",
                   L->len[i] < QUOTE ? L->len[i] : QUOTE, tok(L, i));
}

/* The card of a plot, or a syntax error when the plot has no card. */
static int plot_card(const ch_state *st, int plot, int *card, ch_msg *why)
{
    int c = st->plot_card[plot];
    if (c == CH_NONE || c >= st->ncards) {
        char name[2 * CH_NAME_LEN + CH_LABEL_LEN + 8];
        if (ch_plot_name(BRD(st), plot, name, sizeof name) < 0)
            snprintf(name, sizeof name, "?");
        name[sizeof name - 1] = '\0';
        return nt_fail(why, CH_ESYNTAX, "%s has no building card in this game", name);
    }
    *card = c;
    return CH_OK;
}

/* Words i..e-1 name one building card: a plot or a level word. */
static int read_card(const ch_state *st, int p, const line *L, int i, int e,
                     const char *verb, int where, int *card, ch_msg *why)
{
    if (i >= e)
        return nt_fail(why, CH_ESYNTAX, "'%s' needs a card like 'Harbour C1' or 'L2'", verb);
    int lv = level_word(L, i);
    if (lv < 0)
        return bad_level(L, i, why);
    if (lv > 0) {
        int rc = leftover(L, i + 1, e, tok(L, i), L->len[i], why);
        if (rc)
            return rc;
        return resolve_level(st, p, lv, where, card, why);
    }
    int plot = 0;
    int rc = read_plot(st, L, i, e, &plot, why);
    if (rc)
        return rc;
    return plot_card(st, plot, card, why);
}

/* "f120" -> 120. */
static int read_amount(const line *L, int i, int e, const char *verb, int32_t *n,
                       ch_msg *why)
{
    if (i >= e)
        return nt_fail(why, CH_ESYNTAX, "'%s' needs an amount like f120", verb);
    const char *t = tok(L, i);
    int k = L->len[i];
    int q = k < QUOTE ? k : QUOTE;
    if (t[0] != 'f' && t[0] != 'F') {
        if (isdigit((unsigned char)t[0]) || t[0] == '-')
            return nt_fail(why, CH_ESYNTAX,
                        "amount '%.*s' needs the florin sign: write it like f120", q, t);
        return nt_fail(why, CH_ESYNTAX, "'%s' needs an amount like f120, not '%.*s'",
                    verb, q, t);
    }
    if (k == 1)
        return nt_fail(why, CH_ESYNTAX, "'f' needs a number of florins after it, like f120");
    if (t[1] == '-')
        return nt_fail(why, CH_ESYNTAX, "amount '%.*s' must not be negative", q, t);
    int j = 1;
    if (t[j] == '+')
        j++;
    long v = 0;
    int digits = 0;
    while (j < k && isdigit((unsigned char)t[j])) {
        if (v <= MAX_AMOUNT)
            v = v * 10 + (t[j] - '0');
        j++;
        digits++;
    }
    if (j < k && (t[j] == '.' || t[j] == ',') && digits > 0)
        return nt_fail(why, CH_ESYNTAX, "amount must be whole florins, not '%.*s'", q, t);
    if (digits == 0 || j < k)
        return nt_fail(why, CH_ESYNTAX,
                    "'%.*s' is not an amount: write whole florins like f120", q, t);
    if (v > MAX_AMOUNT)
        return nt_fail(why, CH_ESYNTAX, "amount '%.*s' is too large (at most f%d)", q, t,
                    MAX_AMOUNT);
    *n = (int32_t)v;
    return leftover(L, i + 1, e, t, k, why);
}

/* Something given or asked in a Coopmanscappen offer. */
static int read_item(const ch_state *st, int p, const line *L, int i, int e,
                     const char *verb, ch_move *m, ch_msg *why)
{
    if (i >= e)
        return nt_fail(why, CH_ESYNTAX,
                    "'%s' needs a card, a company or an amount, like 'Harbour C1', "
                    "'L2', 'Tea' or 'f50'",
                    verb);
    const char *t = tok(L, i);
    int where = (m->type == CH_M_ASK) ? IN_GAME : IN_GIVE;
    if ((t[0] == 'f' || t[0] == 'F') &&
        (L->len[i] == 1 || isdigit((unsigned char)t[1]) || t[1] == '-' ||
         t[1] == '+' || t[1] == '.' || t[1] == ',')) {
        m->b = 2;
        m->a = 0;
        return read_amount(L, i, e, verb, &m->n, why);
    }
    if (isdigit((unsigned char)t[0]) || t[0] == '-')
        return read_amount(L, i, e, verb, &m->n, why);
    if (level_word(L, i) != 0) {
        int card = 0;
        int rc = read_card(st, p, L, i, e, verb, where, &card, why);
        if (rc)
            return rc;
        m->b = 0;
        m->a = (uint8_t)card;
        return CH_OK;
    }
    char text[sizeof L->s];
    copy_span(L, i, e, text, sizeof text);
    int consumed = 0;
    int pl = ch_board_find(BRD(st), text, &consumed);
    if (pl >= 0 && pl < BRD(st)->nplots && consumed > 0) {
        int card = 0;
        int rc = read_card(st, p, L, i, e, verb, where, &card, why);
        if (rc)
            return rc;
        m->b = 0;
        m->a = (uint8_t)card;
        return CH_OK;
    }
    int c = ch_company_find(st, text, &consumed);
    if (c >= 0 && c < company_count(st)) {
        m->b = 1;
        m->a = (uint8_t)c;
        return leftover_text(text, consumed, why);
    }
    if (starts_with_district(BRD(st), text))
        return nt_fail(why, CH_ESYNTAX, "'%.*s' is not a plot on this board", QUOTE, text);
    return nt_fail(why, CH_ESYNTAX,
                "'%.*s' is not a card, company or amount: expected e.g. "
                "'Harbour C1', 'L2', 'Tea' or 'f50'",
                QUOTE, text);
}

static int no_more(const line *L, int verb_tok, ch_msg *why)
{
    if (L->ntok <= verb_tok + 1)
        return CH_OK;
    return nt_fail(why, CH_ESYNTAX, "unexpected '%.*s' after '%.*s': it takes nothing more",
                span(L, verb_tok + 1, L->ntok) < QUOTE ? span(L, verb_tok + 1, L->ntok)
                                                       : QUOTE,
                tok(L, verb_tok + 1), L->len[verb_tok], tok(L, verb_tok));
}

static int read_play(const ch_state *st, int p, const line *L, ch_move *m,
                     ch_msg *why)
{
    int e = L->ntok;
    m->n = 0;
    m->c = CH_NONE;
    if (e > 1 && tok_is(L, e - 1, "roof")) {
        m->n = 1;
        e--;
    }
    int plus = -1;
    for (int i = 1; i < e; i++) {
        if (tok(L, i)[0] != '+')
            continue;
        if (plus >= 0)
            return nt_fail(why, CH_ESYNTAX,
                        "a play has at most two cards, like "
                        "'play Harbour C1 + Harbour D1'");
        plus = i;
    }
    int first_end = plus >= 0 ? plus : e;
    if (first_end <= 1)
        return nt_fail(why, CH_ESYNTAX, "'play' needs a plot, like 'play Harbour C1', "
                       "'play L3 Harbour C1' or 'play Harbour C1 + Harbour D1'");
    int i = 1;
    int card = CH_NONE;
    int lv = level_word(L, i);
    if (lv < 0)
        return bad_level(L, i, why);
    if (lv > 0) {
        int rc = resolve_level(st, p, lv, IN_HAND, &card, why);
        if (rc)
            return rc;
        i++;
        if (i >= first_end)
            return nt_fail(why, CH_ESYNTAX,
                        "'play L%d' needs the plot to build on, like "
                        "'play L%d Harbour C1'",
                        lv, lv);
    }
    int plot = 0;
    int rc = read_plot(st, L, i, first_end, &plot, why);
    if (rc)
        return rc;
    if (card == CH_NONE) {
        rc = plot_card(st, plot, &card, why);
        if (rc)
            return rc;
    }
    m->a = (uint8_t)card;
    m->b = (uint8_t)plot;
    if (plus >= 0) {
        if (plus + 1 < e && level_word(L, plus + 1) != 0)
            return nt_fail(why, CH_ESYNTAX,
                        "the second card of a two-card play must be a plot card, "
                        "like 'play Harbour C1 + Harbour D1'");
        int plot2 = 0, card2 = 0;
        if (plus + 1 >= e)
            return nt_fail(why, CH_ESYNTAX, "'+' must be followed by a second plot, like "
                           "'play Harbour C1 + Harbour D1'");
        rc = read_plot(st, L, plus + 1, e, &plot2, why);
        if (rc)
            return rc;
        rc = plot_card(st, plot2, &card2, why);
        if (rc)
            return rc;
        m->c = (uint8_t)card2;
    }
    return CH_OK;
}

static int read_sell(const ch_state *st, const line *L, ch_move *m, ch_msg *why)
{
    int i = 1;
    m->n = 1;
    if (i < L->ntok && (isdigit((unsigned char)tok(L, i)[0]) || tok(L, i)[0] == '-')) {
        const char *t = tok(L, i);
        int k = L->len[i];
        if (t[0] == '-')
            return nt_fail(why, CH_ESYNTAX, "stock count '%.*s' must not be negative",
                        k < QUOTE ? k : QUOTE, t);
        long v = 0;
        for (int j = 0; j < k; j++) {
            if (!isdigit((unsigned char)t[j]))
                return nt_fail(why, CH_ESYNTAX,
                            "'%.*s' is not a stock count: write 'sell 3 Tea'",
                            k < QUOTE ? k : QUOTE, t);
            if (v <= MAX_COUNT)
                v = v * 10 + (t[j] - '0');
        }
        if (v > MAX_COUNT)
            return nt_fail(why, CH_ESYNTAX, "stock count '%.*s' is too large (at most %d)",
                        k < QUOTE ? k : QUOTE, t, MAX_COUNT);
        m->n = (int32_t)v;
        i++;
        if (i >= L->ntok)
            return nt_fail(why, CH_ESYNTAX,
                        "'sell %ld' needs a company, like 'sell %ld Tea'", v, v);
    }
    int c = 0;
    int rc = read_company(st, L, i, L->ntok, "sell", &c, why);
    if (rc)
        return rc;
    m->a = (uint8_t)c;
    return CH_OK;
}

static int read_player(const ch_state *st, const line *L, ch_move *m, ch_msg *why)
{
    if (L->ntok < 2)
        return nt_fail(why, CH_ESYNTAX, "'offer' needs a player, like 'offer P2'");
    const char *t = tok(L, 1);
    int k = L->len[1];
    int q = k < QUOTE ? k : QUOTE;
    int ok = k >= 2 && (t[0] == 'p' || t[0] == 'P');
    long v = 0;
    for (int j = 1; ok && j < k; j++) {
        if (!isdigit((unsigned char)t[j]))
            ok = 0;
        else if (v < 1000)
            v = v * 10 + (t[j] - '0');
    }
    if (!ok)
        return nt_fail(why, CH_ESYNTAX, "'%.*s' is not a player: write players like P2", q, t);
    int np = st->nplayers >= 1 && st->nplayers <= CH_MAX_PLAYERS ? st->nplayers
                                                                  : CH_MAX_PLAYERS;
    if (v < 1 || v > np)
        return nt_fail(why, CH_ESYNTAX, "there is no player %.*s: this game has P1 to P%d",
                    q, t, np);
    m->a = (uint8_t)(v - 1);
    return leftover(L, 2, L->ntok, t, k, why);
}

static int read_event(const line *L, ch_move *m, ch_msg *why)
{
    if (L->ntok < 2)
        return nt_fail(why, CH_ESYNTAX, "'event' needs a stock event: " EVENT_KINDS);
    int k = -1;
    if (tok_is(L, 1, "deck"))
        k = CH_NONE;
    for (int i = 0; i < CH_EV_KINDS && k < 0; i++)
        if (tok_is(L, 1, ch_event_name(i)))
            k = i;
    if (k < 0)
        return nt_fail(why, CH_ESYNTAX, "'%.*s' is not a stock event: expected " EVENT_KINDS,
                    L->len[1] < QUOTE ? L->len[1] : QUOTE, tok(L, 1));
    m->a = (uint8_t)k;
    return leftover(L, 2, L->ntok, tok(L, 1), L->len[1], why);
}

static int read_auction(const ch_state *st, const line *L, ch_move *m, ch_msg *why)
{
    if (L->ntok < 2)
        return nt_fail(why, CH_ESYNTAX, AUCTION_NEED);
    if (tok_is(L, 1, "deck") || tok_is(L, 1, "discard")) {
        m->b = tok_is(L, 1, "deck") ? 3 : 4;
        m->a = CH_NONE;
        return leftover(L, 2, L->ntok, tok(L, 1), L->len[1], why);
    }
    if (tok_is(L, 1, "stock") || tok_is(L, 1, "own")) {
        m->b = tok_is(L, 1, "stock") ? 1 : 2;
        int c = 0;
        int rc = read_company(st, L, 2, L->ntok, m->b == 1 ? "auction stock" : "auction own",
                              &c, why);
        if (rc)
            return rc;
        m->a = (uint8_t)c;
        return CH_OK;
    }
    return nt_fail(why, CH_ESYNTAX, AUCTION_NEED ", not '%.*s'",
                L->len[1] < QUOTE ? L->len[1] : QUOTE, tok(L, 1));
}

static int read_merge(const ch_state *st, const line *L, ch_move *m, ch_msg *why)
{
    int into = -1;
    for (int i = 1; i < L->ntok; i++)
        if (tok_is(L, i, "into")) {
            into = i;
            break;
        }
    if (into < 0)
        return nt_fail(why, CH_ESYNTAX,
                    "'merge' is written 'merge <absorbed> into <absorber>', like "
                    "'merge Gunpowder into Tea'");
    int a = 0, b = 0;
    int rc = read_company(st, L, 1, into, "merge", &a, why);
    if (rc)
        return rc;
    rc = read_company(st, L, into + 1, L->ntok, "merge ... into", &b, why);
    if (rc)
        return rc;
    m->a = (uint8_t)a;
    m->b = (uint8_t)b;
    return CH_OK;
}

typedef struct verb {
    const char *word;
    uint8_t type;
} verb;

/* "free Harbour 13 + Harbour 14": the two free warehouses of a Golden Age
 * founding, lowest plot first. */
static int read_free(const ch_state *st, const line *L, ch_move *m, ch_msg *why)
{
    int plus = -1;
    for (int i = 1; i < L->ntok; i++)
        if (L->len[i] == 1 && tok(L, i)[0] == '+')
            plus = i;
    if (plus < 0)
        return nt_fail(why, CH_ESYNTAX, "'free' needs two plots joined by '+', like 'free Harbour 13 + Harbour 14'");
    int a = 0, b = 0;
    if (plus <= 1)
        return nt_fail(why, CH_ESYNTAX, "'free' needs a plot before '+'");
    int rc = read_plot(st, L, 1, plus, &a, why);
    if (rc)
        return rc;
    if (plus + 1 >= L->ntok)
        return nt_fail(why, CH_ESYNTAX, "'free' needs a plot after '+'");
    rc = read_plot(st, L, plus + 1, L->ntok, &b, why);
    if (rc)
        return rc;
    if (a == b)
        return nt_fail(why, CH_ESYNTAX, "'free' needs two different lots");
    m->a = (uint8_t)(a < b ? a : b);
    m->b = (uint8_t)(a < b ? b : a);
    return CH_OK;
}

static const verb verbs[] = {
    {"draw", CH_M_DRAW},         {"take", CH_M_TAKE},       {"refresh", CH_M_REFRESH},
    {"done", CH_M_DONE},         {"pass", CH_M_PASS},       {"play", CH_M_PLAY},
    {"sell", CH_M_SELL},         {"keep", CH_M_SELL},       {"buy", CH_M_BUY},
    {"hq", CH_M_HQ},             {"lone", CH_M_LONE},       {"found", CH_M_FOUND},
    {"credit", CH_M_CREDIT},     {"merge", CH_M_MERGE},     {"action", CH_M_ACTION},
    {"event", CH_M_EVENT},       {"bid", CH_M_BID},         {"lose", CH_M_LOSE},
    {"offer", CH_M_OFFER},       {"give", CH_M_GIVE},       {"ask", CH_M_ASK},
    {"propose", CH_M_PROPOSE},   {"withdraw", CH_M_WITHDRAW}, {"accept", CH_M_ACCEPT},
    {"decline", CH_M_DECLINE},   {"auction", CH_M_AUCTION}, {"pick", CH_M_PICK},
    {"free", CH_M_FREE},         {"flag", CH_M_FLAG},
};

static int parse_line(const ch_state *st, int p, const line *L, ch_move *m,
                      ch_msg *why)
{
    if (L->ntok == 0)
        return nt_fail(why, CH_ESYNTAX, "empty move: expected one of " VERB_LIST);
    const verb *v = NULL;
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (tok_is(L, 0, verbs[i].word)) {
            v = &verbs[i];
            break;
        }
    if (!v)
        return nt_fail(why, CH_ESYNTAX, "unknown move '%.*s': expected one of " VERB_LIST,
                    L->len[0] < 24 ? L->len[0] : 24, tok(L, 0));
    m->type = v->type;
    int c = 0, rc;
    switch (v->type) {
    case CH_M_DRAW: case CH_M_REFRESH: case CH_M_DONE: case CH_M_PASS:
    case CH_M_LONE: case CH_M_PROPOSE: case CH_M_WITHDRAW: case CH_M_ACCEPT:
    case CH_M_DECLINE:
        return no_more(L, 0, why);
    case CH_M_TAKE:
        rc = read_card(st, p, L, 1, L->ntok, "take", IN_MARKET, &c, why);
        m->a = (uint8_t)c;
        return rc;
    case CH_M_PICK:
        rc = read_card(st, p, L, 1, L->ntok, "pick", IN_LOOK, &c, why);
        m->a = (uint8_t)c;
        return rc;
    case CH_M_PLAY:
        return read_play(st, p, L, m, why);
    case CH_M_SELL:
        if (v->word[0] == 'k') {
            m->n = 0;
            rc = read_company(st, L, 1, L->ntok, "keep", &c, why);
            m->a = (uint8_t)c;
            return rc;
        }
        return read_sell(st, L, m, why);
    case CH_M_FREE:
        return read_free(st, L, m, why);
    case CH_M_BUY: case CH_M_FOUND: case CH_M_CREDIT: case CH_M_LOSE: case CH_M_FLAG:
        rc = read_company(st, L, 1, L->ntok, v->word, &c, why);
        m->a = (uint8_t)c;
        return rc;
    case CH_M_HQ: {
        if (L->ntok < 2)
            return nt_fail(why, CH_ESYNTAX, "'hq' needs a plot, like 'hq Harbour C2'");
        rc = read_plot(st, L, 1, L->ntok, &c, why);
        m->a = (uint8_t)c;
        return rc;
    }
    case CH_M_MERGE:
        return read_merge(st, L, m, why);
    case CH_M_ACTION:
        if (L->ntok >= 2 && (tok_is(L, 1, "roof") || tok_is(L, 1, "event"))) {
            m->a = tok_is(L, 1, "roof") ? 0 : 1;
            return leftover(L, 2, L->ntok, tok(L, 1), L->len[1], why);
        }
        if (L->ntok < 2)
            return nt_fail(why, CH_ESYNTAX, "'action' needs 'roof' or 'event'");
        return nt_fail(why, CH_ESYNTAX, "'action' needs 'roof' or 'event', not '%.*s'",
                    L->len[1] < QUOTE ? L->len[1] : QUOTE, tok(L, 1));
    case CH_M_EVENT:
        return read_event(L, m, why);
    case CH_M_BID:
        return read_amount(L, 1, L->ntok, "bid", &m->n, why);
    case CH_M_OFFER:
        return read_player(st, L, m, why);
    case CH_M_GIVE: case CH_M_ASK:
        return read_item(st, p, L, 1, L->ntok, v->word, m, why);
    case CH_M_AUCTION:
        return read_auction(st, L, m, why);
    default:
        return nt_fail(why, CH_ESYNTAX, "unknown move '%s'", v->word);
    }
}

int ch_move_parse(const ch_state *st, int p, const char *text, ch_move *m, ch_msg *why)
{
    if (m)
        memset(m, 0, sizeof *m);
    if (!st || !text || !m)
        return nt_fail(why, CH_EINVAL, "ch_move_parse: %s is NULL",
                    !st ? "the state" : !text ? "the move text" : "the move");
    line L;
    int rc = split(&L, text, why);
    if (rc)
        return rc;
    ch_move mv;
    memset(&mv, 0, sizeof mv);
    rc = parse_line(st, p, &L, &mv, why);
    if (rc)
        return rc;
    *m = mv;
    ch_msg_clear(why);
    return CH_OK;
}

int ch_play(ch_state *st, int p, const char *text, ch_msg *why)
{
    ch_msg local;
    if (!why)
        why = &local;
    ch_move m;
    int rc = ch_move_parse(st, p, text, &m, why);
    if (rc)
        return rc;
    return ch_apply(st, p, m, why);
}
