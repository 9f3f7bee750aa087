/* describe.c: a move in words for the game log of the terminal game and the
 * server ("Anke merged Tea into Porcelain: Porcelain f190, Anke paid f190").
 * The sentence names the act (from the move and the state before it) and
 * then its visible effects (from the difference between the states before
 * and after: company values, companies founded or gone, cash paid and
 * received, events drawn, the end of the game). Only what the viewer may see
 * is said: a sealed bid's amount, a drawn card, a card picked from the deck
 * or a hidden card in an offer are left out unless the viewer is the one
 * who knows them. In The Golden Age a single purchase or sale of stock is
 * said (the bank's stock counts and every player's cash are public, so the
 * act is seen at the table); what stays private is how many stocks a player
 * holds, which no description adds up. Every word comes from the catalogue
 * (i18n.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "text.h"

/* snprintf(buf, n, "%s", s) and "%s%s" without the printf machinery (a
 * move's words are made on the server's event loop for every move, in each
 * language): the same bytes, cut at n - 1 the same way. */
static void copy_str(char *buf, size_t n, const char *s)
{
    if (n == 0)
        return;
    size_t l = strlen(s);
    if (l > n - 1)
        l = n - 1;
    memcpy(buf, s, l);
    buf[l] = '\0';
}

static void copy_str2(char *buf, size_t n, const char *a, const char *b)
{
    if (n == 0)
        return;
    size_t la = strlen(a);
    if (la >= n - 1) {
        copy_str(buf, n, a);
        return;
    }
    memcpy(buf, a, la);
    copy_str(buf + la, n - la, b);
}

/* snprintf(buf, n, "f%d", v) for the amounts of the effects (buf of 32) */
static void amount_str(char *buf, size_t n, long long v)
{
    char t[32];
    int k = 0;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        t[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    char out[32];
    size_t j = 0;
    out[j++] = 'f';
    if (v < 0)
        out[j++] = '-';
    while (k)
        out[j++] = t[--k];
    out[j] = '\0';
    copy_str(buf, n, out);
}

static int has_card(const uint64_t set[2], int c)
{
    return c >= 0 && c < 128 && (int)((set[c >> 6] >> (c & 63)) & 1u);
}

void chx_card(int lang, const ch_state *st, int card, char *buf, size_t n)
{
    if (st && card >= 0 && card < st->ncards && card < CH_MAX_CARDS &&
        st->card_event[card]) {
        char key[32];
        snprintf(key, sizeof key, "gaevent.%d", st->card_event[card] - 1);
        copy_str(buf, n, chx_msg(lang, key));
        return;
    }
    char en[64];
    if (!st || ch_card_name(st, card, en, sizeof en) < 0 || !en[0])
        copy_str(buf, n, "?");
    else
        chx_place(lang, en, buf, n);
}

/* A plot's name in lang ("Haven C1"). */
static void plot_words(int lang, const ch_board *bd, int plot, char *buf, size_t n)
{
    char en[64];
    ch_plot_name(bd, plot, en, sizeof en);
    chx_place(lang, en, buf, n);
}

static void player_name(int lang, const char *const *names, int p, char *buf,
                        size_t n)
{
    if (names && p >= 0 && p < CH_MAX_PLAYERS && names[p] && names[p][0]) {
        copy_str(buf, n, names[p]);
        return;
    }
    char num[16];
    snprintf(num, sizeof num, "%d", p + 1);
    chx_format(lang, buf, n, "player.n", "n", num, NULL);
}

/* Append ", " (or the language's list separator) and text. */
static void add_part(int lang, char *buf, size_t n, int *nparts,
                     const char *text)
{
    size_t len = strlen(buf);
    const char *sep = *nparts ? chx_msg(lang, "describe.sep")
                              : chx_msg(lang, "describe.colon");
    copy_str2(buf + len, n > len ? n - len : 0, sep, text);
    (*nparts)++;
}

/* The item of an offer (give/ask): a card, a stock or an amount. A card is
 * named when the viewer may know it: the giver's own cards to the giver and
 * to the player offered to, asked cards always (they are asked by name),
 * and cards every player knows of. */
static void offer_item(int lang, int viewer, const ch_state *st, int p,
                       ch_move m, char *buf, size_t n)
{
    char tmp[64];
    if (m.b == 1) {
        copy_str(buf, n, chx_company(lang, st, m.a));
    } else if (m.b == 2) {
        amount_str(tmp, sizeof tmp, m.n);
        copy_str(buf, n, tmp);
    } else {
        int visible = m.type == CH_M_ASK || viewer == p ||
                      (viewer >= 0 && viewer == st->offer.to) ||
                      (p >= 0 && p < st->nplayers &&
                       has_card(st->pl[p].known, m.a));
        if (visible)
            chx_card(lang, st, m.a, buf, n);
        else
            copy_str(buf, n, chx_msg(lang, "describe.a_card"));
    }
}

int chx_describe_for(int lang, int viewer, const char *const *names,
                     const ch_state *b, int p, ch_move m, const ch_state *a,
                     char *buf, size_t n)
{
    if (!buf || n == 0)
        return -1;
    buf[0] = '\0';
    if (!b || !a)
        return -1;
    char who[64], other[64], co1[64], co2[64], card[64], plot[64], plot2[64];
    char num[32];
    player_name(lang, names, p, who, sizeof who);
    other[0] = co1[0] = co2[0] = card[0] = plot[0] = plot2[0] = num[0] = '\0';
    const char *key = "describe.unknown";
    switch (m.type) {
    case CH_M_DRAW:
        key = "describe.draw";
        if (viewer == p) {
            /* the drawer sees the card: the one new in their hand */
            for (int c = 0; c < a->ncards; c++)
                if (has_card(a->pl[p].hand, c) && !has_card(b->pl[p].hand, c)) {
                    chx_card(lang, a, c, card, sizeof card);
                    key = "describe.draw_seen";
                    break;
                }
        }
        break;
    case CH_M_TAKE:
        key = "describe.take";
        chx_card(lang, b, m.a, card, sizeof card);
        break;
    case CH_M_REFRESH:
        key = "describe.refresh";
        break;
    case CH_M_DONE:
        key = "describe.done";
        break;
    case CH_M_PLAY:
        plot_words(lang, ch_state_board(b), m.b, plot, sizeof plot);
        chx_card(lang, b, m.a, card, sizeof card);
        if (m.c != CH_NONE && m.c < b->ncards) {
            plot_words(lang, ch_state_board(b), b->card_plot[m.c], plot2, sizeof plot2);
            key = "describe.play_two";
        } else if (b->card_level[m.a]) {
            key = "describe.play_level";
        } else {
            key = "describe.play";
        }
        break;
    case CH_M_PASS:
        key = b->phase == CH_PH_AUCTION ? "describe.drop_out" : "describe.pass";
        break;
    case CH_M_SELL:
        copy_str(co1, sizeof co1, chx_company(lang, b, m.a));
        snprintf(num, sizeof num, "%" PRId32, m.n);
        key = m.n == 0 ? "describe.keep" : "describe.sell";
        break;
    case CH_M_BUY:
        copy_str(co1, sizeof co1, chx_company(lang, b, m.a));
        key = "describe.buy";
        break;
    case CH_M_HQ:
        plot_words(lang, ch_state_board(b), m.a, plot, sizeof plot);
        key = "describe.hq";
        break;
    case CH_M_LONE:
        key = "describe.lone";
        break;
    case CH_M_FOUND:
        copy_str(co1, sizeof co1, chx_company(lang, b, m.a));
        key = "describe.found";
        break;
    case CH_M_CREDIT:
        copy_str(co1, sizeof co1, chx_company(lang, b, m.a));
        key = "describe.credit";
        break;
    case CH_M_MERGE:
        copy_str(co1, sizeof co1, chx_company(lang, b, m.a));
        copy_str(co2, sizeof co2, chx_company(lang, b, m.b));
        key = "describe.merge";
        break;
    case CH_M_ACTION:
        key = m.a == 0 ? "describe.action_roof" : "describe.action_event";
        break;
    case CH_M_EVENT:
        if (m.a == CH_NONE) {
            key = "describe.event_deck";
            const char *e = ch_event_name(a->ev_kind);
            copy_str(card, sizeof card, e ? e : "?");
        } else {
            key = "describe.event";
            const char *e = ch_event_name(m.a);
            copy_str(card, sizeof card, e ? e : "?");
        }
        break;
    case CH_M_BID:
        amount_str(num, sizeof num, m.n);
        if (b->phase == CH_PH_BID)
            key = viewer == p ? "describe.sealed_bid_own" : "describe.sealed_bid";
        else
            key = "describe.bid";
        break;
    case CH_M_LOSE:
        copy_str(co1, sizeof co1, chx_company(lang, b, m.a));
        key = "describe.lose";
        break;
    case CH_M_OFFER:
        player_name(lang, names, m.a, other, sizeof other);
        key = "describe.offer";
        break;
    case CH_M_GIVE:
    case CH_M_ASK:
        offer_item(lang, viewer, b, p, m, card, sizeof card);
        key = m.type == CH_M_GIVE ? "describe.give" : "describe.ask";
        break;
    case CH_M_PROPOSE:
        player_name(lang, names, b->offer.to, other, sizeof other);
        key = "describe.propose";
        break;
    case CH_M_WITHDRAW:
        key = "describe.withdraw";
        break;
    case CH_M_ACCEPT:
        key = "describe.accept";
        break;
    case CH_M_DECLINE:
        key = "describe.decline";
        break;
    case CH_M_AUCTION:
        copy_str(co1, sizeof co1, chx_company(lang, b, m.a));
        key = m.b == 1   ? "describe.auction_stock"
              : m.b == 2 ? "describe.auction_own"
              : m.b == 3 ? "describe.auction_deck"
                         : "describe.auction_discard";
        break;
    case CH_M_PICK:
        /* Veilinge 3: the cards looked at come from the deck; only the
         * picker sees them. Option 4 picks from the open discard pile. */
        if (b->au_option == 3 && viewer != p) {
            key = "describe.pick_hidden";
        } else {
            chx_card(lang, b, m.a, card, sizeof card);
            key = "describe.pick";
        }
        break;
    case CH_M_FREE:
        plot_words(lang, ch_state_board(b), m.a, plot, sizeof plot);
        plot_words(lang, ch_state_board(b), m.b, plot2, sizeof plot2);
        key = "describe.free";
        break;
    case CH_M_FLAG:
        copy_str(co1, sizeof co1, chx_company(lang, b, m.a));
        key = "describe.flag";
        break;
    default:
        break;
    }
    const char *args[] = {"player", who,  "other", other, "company", co1,
                          "company2", co2, "card", card,  "plot",    plot,
                          "plot2", plot2, "n",     num,   NULL};
    chx_subst(chx_msg_n(lang, key, num[0] ? strtoll(num, NULL, 10) : 2), args, buf, n);

    /* Effects every player sees. */
    int parts = 0;
    char part[160], val[32], nm[64];
    if (m.type == CH_M_PLAY && (m.n & 1))
        add_part(lang, buf, n, &parts, chx_msg(lang, "describe.roof"));
    for (int c = 0; c < a->ncompanies && c < CH_MAX_COMPANIES; c++) {
        /* the name only for a company with an effect: looked up for every
           company it was two thirds of the server's log words */
        if (!b->co[c].on_chart && a->co[c].on_chart && m.type != CH_M_FOUND) {
            amount_str(val, sizeof val, a->co[c].value);
            chx_format(lang, part, sizeof part, "effect.founded", "company", chx_company(lang, a, c),
                       "value", val, NULL);
            add_part(lang, buf, n, &parts, part);
        } else if (b->co[c].on_chart && !a->co[c].on_chart) {
            /* a company leaves the chart when it is absorbed: name the
             * company that now owns the warehouse just built, if any */
            int into = a->b_plot < ch_state_board(a)->nplots ? a->owner[a->b_plot] : CH_NONE;
            if (m.type == CH_M_MERGE)
                into = m.b;
            if (into != CH_NONE && into != c && into < a->ncompanies)
                chx_format(lang, part, sizeof part, "effect.merged", "company", chx_company(lang, a, c),
                           "company2", chx_company(lang, a, into), NULL);
            else
                chx_format(lang, part, sizeof part, "effect.gone", "company", chx_company(lang, a, c),
                           NULL);
            add_part(lang, buf, n, &parts, part);
        } else if (a->co[c].on_chart && (a->co[c].value != b->co[c].value ||
                                         (m.type == CH_M_FOUND && c == m.a))) {
            amount_str(val, sizeof val, a->co[c].value);
            chx_format(lang, part, sizeof part, "effect.value", "company", chx_company(lang, a, c),
                       "value", val, NULL);
            add_part(lang, buf, n, &parts, part);
        }
    }
    for (int q = 0; q < a->nplayers; q++) {
        int32_t d = a->pl[q].cash - b->pl[q].cash;
        if (d == 0)
            continue;
        player_name(lang, names, q, nm, sizeof nm);
        amount_str(val, sizeof val, d < 0 ? -(long long)d : d);
        chx_format(lang, part, sizeof part,
                   d < 0 ? "effect.paid" : "effect.received", "player", nm,
                   "amount", val, NULL);
        add_part(lang, buf, n, &parts, part);
    }
    if (m.type == CH_M_BID && b->phase == CH_PH_BID && p >= 0 && p < b->nplayers &&
        (b->bid_in | (1u << p)) == b->bid_mask) {
        /* the last sealed bid of the round is in: every bid is shown */
        for (int q = 0; q < b->nplayers; q++) {
            if (!(b->bid_mask & (1u << q)))
                continue;
            player_name(lang, names, q, nm, sizeof nm);
            amount_str(val, sizeof val, q == p ? m.n : b->bid[q]);
            chx_format(lang, part, sizeof part, "effect.bid_shown", "player",
                       nm, "amount", val, NULL);
            add_part(lang, buf, n, &parts, part);
        }
    }
    if (a->edition == CH_ED_GOLDEN_AGE) {
        /* event cards coming into play are public */
        for (int c = 0; c < a->ncards && c < CH_MAX_CARDS; c++)
            if (a->card_event[c] && a->loc[c] == CH_LOC_DISCARD &&
                b->loc[c] != CH_LOC_DISCARD) {
                char en[64];
                chx_card(lang, a, c, en, sizeof en);
                chx_format(lang, part, sizeof part, "effect.event_card", "card",
                           en, NULL);
                add_part(lang, buf, n, &parts, part);
            }
    }
    if (!b->over && a->over) {
        copy_str(part, sizeof part, chx_msg(lang, "effect.game_over"));
        add_part(lang, buf, n, &parts, part);
    }
    return (int)strlen(buf);
}

/* Keep in step with chx_describe_for: these are the only places where it
 * reads `viewer` (test_i18n compares the words of every viewer along random
 * games where this says 0). */
int chx_describe_viewer_matters(const ch_state *b, int p, ch_move m)
{
    (void)p;
    switch (m.type) {
    case CH_M_DRAW:
        return 1;
    case CH_M_BID:
        return b->phase == CH_PH_BID;
    case CH_M_GIVE:
    case CH_M_ASK:
        return m.b != 1 && m.b != 2; /* a card (offer_item) */
    case CH_M_PICK:
        return b->au_option == 3;
    default:
        return 0;
    }
}

int chx_describe(int lang, const ch_state *before, int p, ch_move m,
                 const ch_state *after, char *buf, size_t n)
{
    return chx_describe_for(lang, -1, NULL, before, p, m, after, buf, n);
}
