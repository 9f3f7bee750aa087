/* position.c: positions as short text a person can write and read, like
 * chess's FEN/EPD but one fact a line (docs/formats.md "Positions"):
 * ch_position_write prints any state (or one player's view of it, with what
 * they cannot see written as "random"), ch_position_read builds a state from
 * such a text and checks it as strictly as ch_validate does, naming the line
 * of what is wrong. The bank, the supply, the broken roofs left and the
 * money ledger are worked out, never written. No I/O here: the text comes
 * in a buffer; the writer returns allocated text (free with ch_free). */
#include "internal.h"
#include "json_names.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>

/* ---- the turn's context fields, table-driven ------------------------------- */

enum { F_U8, F_U16, F_U32, F_BOOL, F_PLAYER, F_COMPANY, F_PLOT, F_CARD, F_PMASK, F_CMASK,
       F_EVKIND, F_MONEY };

typedef struct field {
    const char *key;
    size_t off;
    int kind;
    int def; /* the value a position has when the line is absent */
} field;

#define FLD(k, m, kind, def) {k, offsetof(ch_state, m), kind, def}
static const field fields[] = {
    FLD("decisions", ndecisions, F_U32, 0),
    FLD("over", over, F_BOOL, 0),
    FLD("end-triggered", end_triggered, F_BOOL, 0),
    FLD("passes", passes, F_U8, 0),
    FLD("event-due", event_due, F_BOOL, 0),
    FLD("founded", founded, F_COMPANY, CH_NONE),
    FLD("discount", discount_left, F_U8, 0),
    FLD("trades", trades, F_U8, 0),
    FLD("taken", taken, F_U8, 0),
    FLD("built", built, F_BOOL, 0),
    FLD("extra-turn", extra_turn, F_BOOL, 0),
    FLD("passed", passed, F_BOOL, 0),
    FLD("event-slot", ev_slot, F_U8, CH_NONE),
    FLD("bid-round", bid_round, F_U8, 0),
    FLD("deliver-to", ga_dest, F_U8, CH_NONE),
    FLD("first-seller", ga_seller, F_PLAYER, CH_NONE),
    FLD("built-company", ga_built, F_COMPANY, CH_NONE),
    FLD("build-card", b_card, F_CARD, CH_NONE),
    FLD("build-card2", b_card2, F_CARD, CH_NONE),
    FLD("build-plot", b_plot, F_PLOT, CH_NONE),
    FLD("build-plot2", b_plot2, F_PLOT, CH_NONE),
    FLD("build-roof", b_roof, F_BOOL, 0),
    FLD("build-hq", b_hq, F_PLOT, CH_NONE),
    FLD("merge-pending", m_set, F_CMASK, 0),
    FLD("absorbed", m_absorbed, F_COMPANY, CH_NONE),
    FLD("absorber", m_absorber, F_COMPANY, CH_NONE),
    FLD("merge-seller", m_seller, F_PLAYER, CH_NONE),
    FLD("merge-sellers-left", m_sold_left, F_U8, 0),
    FLD("event", ev_kind, F_EVKIND, CH_NONE),
    FLD("event-from-action", ev_from_action, F_BOOL, 0),
    FLD("bidders", bid_mask, F_PMASK, 0),
    FLD("bids-in", bid_in, F_PMASK, 0),
    FLD("bids-revealed", bid_revealed, F_BOOL, 0),
    FLD("lose-left", lose_left, F_U8, 0),
    FLD("offers", offers, F_U8, 0),
    FLD("auction-option", au_option, F_U8, 0),
    FLD("auction-item", au_item, F_U8, CH_NONE),
    FLD("auction-high-bidder", au_high_bidder, F_PLAYER, CH_NONE),
    FLD("auction-turn", au_turn, F_PLAYER, CH_NONE),
    FLD("auction-out", au_out, F_PMASK, 0),
    FLD("auction-high", au_high, F_MONEY, 0),
};
#define NFIELDS (int)(sizeof fields / sizeof fields[0])

static uint32_t fget(const ch_state *st, const field *f)
{
    const char *p = (const char *)st + f->off;
    switch (f->kind) {
    case F_U16:
    case F_CMASK: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case F_U32:
    case F_MONEY: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default:
        return (uint8_t)*p;
    }
}

static void fset(ch_state *st, const field *f, uint32_t v)
{
    char *p = (char *)st + f->off;
    switch (f->kind) {
    case F_U16:
    case F_CMASK: {
        uint16_t w = (uint16_t)v;
        memcpy(p, &w, 2);
        break;
    }
    case F_U32:
    case F_MONEY:
        memcpy(p, &v, 4);
        break;
    default:
        *p = (char)(uint8_t)v;
    }
}

/* ---- writer ------------------------------------------------------------------ */

typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_put(sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->p && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap <= b->n + (size_t)k)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
}

typedef struct wctx {
    const ch_state *st;
    plot_names pn;
    card_names cn;
    sbuf b;
} wctx;

static const char *cname(const wctx *w, int c) { return c < w->st->ncards ? w->cn.n[c] : "?"; }

/* "a, b, c" of the cards in ids[0..n) */
static void put_cards(wctx *w, const uint8_t *ids, int n)
{
    for (int i = 0; i < n; i++)
        sb_put(&w->b, "%s%s", i ? ", " : "", cname(w, ids[i]));
}

static int set_list(const uint64_t *set, int ncards, uint8_t *out)
{
    int n = 0;
    for (int c = 0; c < ncards; c++)
        if (bs_has(set, c))
            out[n++] = (uint8_t)c;
    return n;
}

static void put_value(wctx *w, const field *f, uint32_t v)
{
    const ch_state *st = w->st;
    switch (f->kind) {
    case F_BOOL:
        sb_put(&w->b, "%s", v ? "yes" : "no");
        break;
    case F_PLAYER:
        if (v == CH_NONE)
            sb_put(&w->b, "none");
        else
            sb_put(&w->b, "%u", v + 1);
        break;
    case F_COMPANY:
        sb_put(&w->b, "%s", v == CH_NONE ? "none" : ch_company_name(st, (int)v));
        break;
    case F_PLOT:
        sb_put(&w->b, "%s", v == CH_NONE || v >= BRD(st)->nplots ? "none" : w->pn.n[v]);
        break;
    case F_CARD:
        sb_put(&w->b, "%s", v == CH_NONE ? "none" : cname(w, (int)v));
        break;
    case F_PMASK: {
        int k = 0;
        for (int p = 0; p < st->nplayers; p++)
            if (v >> p & 1)
                sb_put(&w->b, "%s%d", k++ ? " " : "", p + 1);
        break;
    }
    case F_CMASK: {
        int k = 0;
        for (int c = 0; c < st->ncompanies; c++)
            if (v >> c & 1)
                sb_put(&w->b, "%s%s", k++ ? ", " : "", ch_company_name(st, c));
        break;
    }
    case F_EVKIND:
        if (v == CH_NONE)
            sb_put(&w->b, "none");
        else if (st->edition == CH_ED_AMSTERDAM && v < CH_EV_KINDS)
            sb_put(&w->b, "%s", ch_event_name((int)v));
        else
            sb_put(&w->b, "%u", v);
        break;
    case F_MONEY:
        sb_put(&w->b, "f%d", (int32_t)v);
        break;
    default:
        if (v == CH_NONE && f->def == CH_NONE)
            sb_put(&w->b, "none");
        else
            sb_put(&w->b, "%u", v);
    }
}

static const char *const flag_words[] = {"hq", "upside", "roof", "nopiece", "free"};

/* The items of an offer side: money, stocks, cards. */
static void put_offer_side(wctx *w, const char *key, const uint8_t *stock, int32_t money,
                           const uint64_t *all, int owner, int viewer)
{
    const ch_state *st = w->st;
    /* the active player, the owner of the cards and the player offered to
     * (once it is sent) see every card; anyone else only those everyone knows
     * of (as ch_view_to_json shows it) */
    uint64_t cards[2] = {all[0], all[1]};
    int party = viewer == -1 || viewer == owner || viewer == st->active ||
                (viewer == st->offer.to && st->phase == CH_PH_RESPOND);
    if (!party)
        for (int i = 0; i < 2; i++)
            cards[i] &= owner >= 0 && owner < st->nplayers ? st->pl[owner].known[i] : 0;
    int any = money != 0 || bs_count(cards);
    for (int c = 0; c < st->ncompanies; c++)
        any |= stock[c] != 0;
    if (!any)
        return;
    sb_put(&w->b, "%s", key);
    int k = 0;
    if (money)
        sb_put(&w->b, " f%d", money), k++;
    for (int c = 0; c < st->ncompanies; c++)
        if (stock[c])
            sb_put(&w->b, "%s %s %d", k++ ? "," : "", ch_company_name(st, c), stock[c]);
    for (int c = 0; c < st->ncards; c++)
        if (bs_has(cards, c))
            sb_put(&w->b, "%s %s", k++ ? "," : "", cname(w, c));
    sb_put(&w->b, "\n");
}

char *ch_position_write(const ch_state *st, int viewer)
{
    if (!st || st->magic != CH_STATE_MAGIC || viewer < CH_POSITION_SPECTATOR || viewer >= st->nplayers)
        return NULL;
    wctx *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->st = st;
    json_plot_names(BRD(st), &w->pn);
    json_card_names(st, &w->pn, &w->cn);
    sbuf *b = &w->b;
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    int full = viewer == -1;
    sb_put(b, "# chartered position (docs/formats.md \"Positions\")%s\n",
           full ? "" : viewer < 0 ? ": a spectator's copy, hidden cards written as random"
                                  : ": one player's copy, hidden cards written as random");
    sb_put(b, "edition %s\n", json_edition_words[st->edition & 1]);
    sb_put(b, "arrangement %s\n", BRD(st)->name);
    sb_put(b, "players %d\n", st->nplayers);
    if (ga)
        sb_put(b, "preset %s\nevents %s\n", st->preset == CH_GA_FIRST ? "golden-age-first" : "golden-age",
               st->events_on ? "on" : "off");
    {
        /* a variant's setup (docs/variants.md), where it is not the rulebook's */
        int open, wh, limit, capital;
        setup_rulebook(st->edition, st->preset, st->nplayers, &open, &wh, &limit, &capital);
        int events = st->nevent_open + st->nev_deck + st->nev_discard + (st->ev_kind != CH_NONE);
        if (!ga && events == 0)
            sb_put(b, "events off\n");
        if (st->market_size != open)
            sb_put(b, "open %d\n", st->market_size);
        if (!ga && st->max_hand != limit)
            sb_put(b, "hand-limit %d\n", st->max_hand);
        if (st->warehouses_total != wh)
            sb_put(b, "warehouses %d\n", st->warehouses_total);
        ch_prices rb;
        ch_prices_rulebook(st->edition, &rb);
        const ch_prices *pr = &st->prices;
        if (pr->purchase != rb.purchase)
            sb_put(b, "price purchase f%d\n", pr->purchase);
        if (pr->refresh != rb.refresh)
            sb_put(b, "price refresh f%d\n", pr->refresh);
        if (pr->action != rb.action)
            sb_put(b, "price action f%d\n", pr->action);
        if (pr->stock_min != rb.stock_min)
            sb_put(b, "price stock-min f%d\n", pr->stock_min);
        if (pr->flag[0] != rb.flag[0] || pr->flag[1] != rb.flag[1])
            sb_put(b, "price flags f%d f%d\n", pr->flag[0], pr->flag[1]);
        if (st->end_turns)
            sb_put(b, "end turns %u\n", st->end_turns);
        if (st->end_value)
            sb_put(b, "end value f%d\n", st->end_value);
    }
    /* the seed decides every deal: a copy leaves it out, as a view does */
    if (full)
        sb_put(b, "seed %llu\n", (unsigned long long)st->seed);
    sb_put(b, "first %d\n", st->first_player + 1);
    sb_put(b, "turn %u player %d phase %s\n", st->turn_no, st->active + 1, ch_phase_name(st->phase));
    if (st->actor != st->active) {
        if (st->actor == CH_NONE)
            sb_put(b, "actor none\n");
        else
            sb_put(b, "actor %d\n", st->actor + 1);
    }
    if (full)
        sb_put(b, "rng %016llx %016llx %016llx %016llx\n", (unsigned long long)st->rng[0],
               (unsigned long long)st->rng[1], (unsigned long long)st->rng[2],
               (unsigned long long)st->rng[3]);

    /* the board */
    int header = 0;
    for (int x = 0; x < BRD(st)->nplots; x++) {
        if (!has_piece(st, x) && !st->pflags[x])
            continue;
        if (!header++)
            sb_put(b, "\n# the board: warehouse PLOT [height N] [company] [hq roof free ...]\n");
        sb_put(b, "%s %s", st->height[x] ? "warehouse" : "placeholder", w->pn.n[x]);
        if (st->height[x] != 1 && st->height[x])
            sb_put(b, " height %d", st->height[x]);
        if (st->owner[x] != CH_NONE)
            sb_put(b, " %s", ch_company_name(st, st->owner[x]));
        for (int f = 0; f < 5; f++)
            if (st->pflags[x] >> f & 1)
                sb_put(b, " %s", flag_words[f]);
        sb_put(b, "\n");
    }
    /* companies */
    header = 0;
    for (int c = 0; c < st->ncompanies; c++) {
        const ch_company *co = &st->co[c];
        if (!co->on_chart && !co->value && co->hq == CH_NONE && !co->flag)
            continue;
        if (!header++)
            sb_put(b, "\n# companies on the chart: company NAME fVALUE\n");
        sb_put(b, "company %s", ch_company_name(st, c));
        if (co->on_chart || co->value)
            sb_put(b, " f%d", co->value);
        if (!co->on_chart)
            sb_put(b, " off-chart");
        if (co->flag)
            sb_put(b, " flag %d", co->flag);
        sb_put(b, "\n");
    }
    /* players */
    uint8_t ids[CH_MAX_CARDS];
    for (int p = 0; p < st->nplayers; p++) {
        const ch_player *pl = &st->pl[p];
        sb_put(b, "\nplayer %d cash f%d actions %d roofs %d", p + 1, pl->cash, pl->actions, pl->roofs);
        if (ga)
            sb_put(b, " flags %d", pl->flags);
        if (pl->extra_pending)
            sb_put(b, " extra-pending");
        if (pl->extra_armed)
            sb_put(b, " extra-armed");
        if (pl->hidden_levels || !full)
            sb_put(b, " hidden-levels %d", pl->hidden_levels);
        if (pl->reserve_took && (full || viewer == p))
            sb_put(b, " reserve-took %d", pl->reserve_took);
        sb_put(b, "\n");
        /* The Golden Age keeps holdings private (RULINGS.md "Hidden information"):
         * a copy says only that they are hidden; their totals follow below */
        if (!full && ga && viewer != p)
            sb_put(b, "stocks %d hidden\n", p + 1);
        if (full || !ga || viewer == p) {
            int k = 0;
            for (int c = 0; c < st->ncompanies; c++)
                if (pl->stock[c])
                    {
                    if (!k++)
                        sb_put(b, "stocks %d ", p + 1);
                    else
                        sb_put(b, ", ");
                    sb_put(b, "%s %d", ch_company_name(st, c), pl->stock[c]);
                }
            if (k)
                sb_put(b, "\n");
        }
        int n = set_list(pl->hand, st->ncards, ids);
        if (full || viewer == p) {
            sb_put(b, "hand %d ", p + 1);
            put_cards(w, ids, n);
            sb_put(b, "%s\n", n ? "" : "none");
            int kn = set_list(pl->known, st->ncards, ids);
            if (kn) {
                sb_put(b, "known %d ", p + 1);
                put_cards(w, ids, kn);
                sb_put(b, "\n");
            }
        } else {
            /* what the others know of it, the rest random */
            int kn = set_list(pl->known, st->ncards, ids);
            sb_put(b, "hand %d ", p + 1);
            put_cards(w, ids, kn);
            if (n - kn > 0)
                sb_put(b, "%srandom %d", kn ? ", " : "", n - kn);
            sb_put(b, "%s\n", n ? "" : "none");
            if (kn) {
                sb_put(b, "known %d ", p + 1);
                put_cards(w, ids, kn);
                sb_put(b, "\n");
            }
        }
    }
    if (!full && ga) {
        /* the bank's count stays public, so the others' totals do too */
        int k = 0;
        for (int c = 0; c < st->ncompanies; c++) {
            int n = 0;
            for (int p = 0; p < st->nplayers; p++)
                n += p != viewer ? st->pl[p].stock[c] : 0;
            if (n)
                sb_put(b, "%s%s %d", k++ ? ", " : "\nstocks-hidden ", ch_company_name(st, c), n);
        }
        if (k)
            sb_put(b, "\n");
    }
    /* cards */
    sb_put(b, "\nmarket ");
    for (int i = 0; i < st->market_size; i++)
        sb_put(b, "%s%s", i ? ", " : "", st->market[i] == CH_NONE ? "-" : cname(w, st->market[i]));
    sb_put(b, "\n");
    if (!ga) {
        sb_put(b, "reserve ");
        if (full) {
            for (int i = st->nreserve - 1, k = 0; i >= 0; i--)
                sb_put(b, "%s%s", k++ ? ", " : "", cname(w, st->reserve[i]));
        } else if (st->nreserve) {
            sb_put(b, "random %d", st->nreserve);
        }
        sb_put(b, "%s\n", st->nreserve ? "" : "none");
    }
    if (st->nlook) {
        /* Veilinge option 3: the deck's top cards, seen by the winner alone
         * while picking (option 4's come from the open discard pile) */
        int hide = !full && st->au_option == 3 && !(st->phase == CH_PH_PICK && viewer == st->actor);
        sb_put(b, "look ");
        if (hide)
            sb_put(b, "random %d", st->nlook);
        else
            put_cards(w, st->look, st->nlook);
        sb_put(b, "\n");
    }
    sb_put(b, "discard ");
    for (int i = st->ndiscard - 1, k = 0; i >= 0; i--)
        sb_put(b, "%s%s", k++ ? ", " : "", cname(w, st->discard[i]));
    sb_put(b, "%s\n", st->ndiscard ? "" : "none");
    sb_put(b, "deck ");
    if (full) {
        for (int i = st->ndeck - 1, k = 0; i >= 0; i--)
            sb_put(b, "%s%s", k++ ? ", " : "", cname(w, st->deck[i]));
        sb_put(b, "%s\n", st->ndeck ? "" : "none");
    } else {
        sb_put(b, "%s\n", st->ndeck ? "random" : "none");
        /* the printed rules' event backs: everyone sees whether the top
           card is an event (Ruling G-07) */
        if (ch_deck_top_event(st) >= 0)
            sb_put(b, "deck-top %s\n", ch_deck_top_event(st) ? "event" : "building");
    }
    if (!ga) {
        sb_put(b, "events-open ");
        for (int i = 0; i < st->nevent_open; i++)
            sb_put(b, "%s%s", i ? ", " : "",
                   st->ev_open[i] == CH_NONE ? "-" : ch_event_name(st->ev_open[i] % CH_EV_KINDS));
        sb_put(b, "\nevents-discard ");
        for (int i = st->nev_discard - 1, k = 0; i >= 0; i--)
            sb_put(b, "%s%s", k++ ? ", " : "", ch_event_name(st->ev_discard[i] % CH_EV_KINDS));
        sb_put(b, "%s\nevents-deck ", st->nev_discard ? "" : "none");
        if (full) {
            for (int i = st->nev_deck - 1, k = 0; i >= 0; i--)
                sb_put(b, "%s%s", k++ ? ", " : "", ch_event_name(st->ev_deck[i] % CH_EV_KINDS));
            sb_put(b, "%s\n", st->nev_deck ? "" : "none");
        } else {
            sb_put(b, "%s\n", st->nev_deck ? "random" : "none");
        }
    }
    /* the turn's context */
    header = 0;
    for (int i = 0; i < NFIELDS; i++) {
        uint32_t v = fget(st, &fields[i]);
        if (v == (uint32_t)fields[i].def)
            continue;
        if (!header++)
            sb_put(b, "\n# the turn so far\n");
        sb_put(b, "%s ", fields[i].key);
        put_value(w, &fields[i], v);
        sb_put(b, "\n");
    }
    /* a sealed bid not yet revealed is private to its bidder: written as
       f0, and whether the line is written at all follows what it shows
       (else its presence would tell that another player bid more than f0) */
    int32_t shown[CH_MAX_PLAYERS];
    int anybid = 0;
    for (int p = 0; p < st->nplayers && p < CH_MAX_PLAYERS; p++) {
        int hide = !full && p != viewer && !st->bid_revealed && st->phase == CH_PH_BID;
        shown[p] = hide ? 0 : st->bid[p];
        anybid |= shown[p] != 0;
    }
    if (anybid) {
        sb_put(b, "bids");
        for (int p = 0; p < st->nplayers && p < CH_MAX_PLAYERS; p++)
            sb_put(b, " %s%d", "f", shown[p]);
        sb_put(b, "\n");
    }
    if (st->offer.to != CH_NONE && st->offer.to < st->nplayers)
        sb_put(b, "offer-to %d\n", st->offer.to + 1);
    put_offer_side(w, "offer-give", st->offer.give_stock, st->offer.give_money, st->offer.give_cards,
                   st->active, viewer);
    put_offer_side(w, "offer-ask", st->offer.ask_stock, st->offer.ask_money, st->offer.ask_cards,
                   st->offer.to, viewer);
    char *out = b->p;
    int oom = b->oom;
    free(w);
    if (oom) {
        free(out);
        return NULL;
    }
    return out;
}

/* ---- reader ------------------------------------------------------------------ */

/* A card slot of a pile as read: a card id (>= 0), one card dealt at random
 * (R_RANDOM), or the first free card of a shared name ("L2": R_SHARED - k). */
#define R_RANDOM (-1)
#define R_SHARED (-2)
#define MAX_SHARED 32

enum { PILE_MARKET, PILE_RESERVE, PILE_DISCARD, PILE_DECK, PILE_LOOK, PILE_HAND0 };
#define NPILES (PILE_HAND0 + CH_MAX_PLAYERS)

typedef struct rctx {
    const char *file;
    int line;
    ch_msg *err;
    ch_state st;
    plot_names pn;
    card_names cn;
    /* header */
    int edition, players, preset, events, first, started;
    int events_said;           /* an 'events' line was read                   */
    int open, hand_limit, warehouses; /* variant settings (docs/variants.md), 0:
                                  the rulebook's                               */
    ch_prices prices;          /* a variant's prices, 0: the rulebook's       */
    int end_turns, end_value;  /* a variant's end, 0: none                    */
    int players_line; /* the line of 'players N', for its message */
    uint64_t seed;
    char arr[32];
    int rng_given;
    uint64_t rng[4];
    /* card piles as read, top first for the deck, discard and reserve */
    int pile[NPILES][CH_MAX_CARDS];
    int npile[NPILES];
    int pile_line[NPILES];
    int deck_rest;            /* "random" ends the deck: the rest, shuffled    */
    int deck_top, deck_top_line; /* "deck-top": 1 event, 0 building (-1: none) */
    int placed[CH_MAX_CARDS]; /* line that placed the card, 0 = not yet        */
    char shared[MAX_SHARED][JNAME_LEN]; /* names several cards share ("L2") */
    int nshared;
    /* events (Building Amsterdam): kinds, -1 an empty open slot, -2 random */
    int ev_open[CH_EVENT_OPEN_MAX], ev_open_line;
    int ev_deck[CH_EVENT_CARDS], nev_deck, ev_deck_line, ev_deck_rest;
    int ev_discard[CH_EVENT_CARDS], nev_discard;
    /* where things were said, for messages */
    int plot_line[CH_MAX_PLOTS], co_line[CH_MAX_COMPANIES], pl_line[CH_MAX_PLAYERS];
    int stock_line[CH_MAX_PLAYERS], known_line[CH_MAX_PLAYERS], turn_line;
    int key_line[64];
    int hl_given[CH_MAX_PLAYERS];
    int stock_hidden[CH_MAX_PLAYERS], hidden_total[CH_MAX_COMPANIES], hidden_line;
    int levels_dealt[CH_MAX_PLAYERS];
    int plots_only; /* take(): deal no level card (a hand's bound is reached) */
    uint64_t known[CH_MAX_PLAYERS][2];
} rctx;

static int rfail(rctx *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int rfail(rctx *r, int line, const char *fmt, ...)
{
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* a position file's errors name its line and stay in English, as the
       JSON loader's do (json.c's jfail): they are about a file format that
       designers write, not a refusal of a player's move, so they are not
       recorded for chx_reason's translation */
    if (r->err) {
        ch_msg_clear(r->err);
        snprintf(r->err->text, sizeof r->err->text, "%s:%d: %s", r->file, line, text);
    }
    return CH_EFORMAT;
}

/* ---- "did you mean" ---- */

static int edit_distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    int d[41][41];
    for (int i = 0; i <= la; i++)
        d[i][0] = i;
    for (int j = 0; j <= lb; j++)
        d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int v = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            d[i][j] = v;
        }
    return d[la][lb];
}

typedef struct suggest {
    const char *best;
    int dist;
} suggest;

static void consider(suggest *s, const char *word, const char *cand)
{
    if (!word || !cand)
        return;
    int d = edit_distance(word, cand);
    if (!s->best || d < s->dist) {
        s->best = cand;
        s->dist = d;
    }
}

/* " (did you mean 'X'?)" when a candidate is close, else "". */
static const char *mean(const suggest *s, const char *word, char *buf, size_t n)
{
    int len = (int)strlen(word);
    if (s->best && s->dist <= (len < 4 ? 1 : len / 3 + 1)) {
        snprintf(buf, n, " (did you mean '%s'?)", s->best);
        return buf;
    }
    return "";
}

static const char *const keywords[] = {
    "edition", "arrangement", "players", "preset", "events", "open", "hand-limit", "warehouses", "price", "end", "seed", "first", "turn", "actor", "rng",
    "warehouse", "placeholder", "company", "player", "stocks", "hand", "known", "market", "reserve",
    "look", "discard", "deck", "stocks-hidden", "events-open", "events-discard", "events-deck", "bids", "offer-to",
    "offer-give", "offer-ask", "deck-top"};
#define NKEYWORDS (int)(sizeof keywords / sizeof keywords[0])

/* ---- tokens ---- */

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* The next word of *s (up to a blank or a comma) into out; 0 when none. */
static int word(const char **s, char *out, size_t n)
{
    const char *p = skip_ws(*s);
    size_t k = 0;
    while (*p && *p != ' ' && *p != '\t' && *p != ',') {
        if (k + 1 < n)
            out[k++] = *p;
        p++;
    }
    out[k] = '\0';
    *s = p;
    return k > 0;
}

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* Split the rest of a line at commas into items (trimmed); returns the count. */
static int split_items(char *s, char **items, int max)
{
    int n = 0;
    s = (char *)skip_ws(s);
    if (!*s)
        return 0;
    for (;;) {
        char *comma = strchr(s, ',');
        if (comma)
            *comma = '\0';
        char *e = s + strlen(s);
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        if (n < max)
            items[n] = s;
        n++;
        if (!comma)
            break;
        s = (char *)skip_ws(comma + 1);
    }
    return n;
}

static int parse_uint(const char *w, unsigned long long max, unsigned long long *out)
{
    if (!*w || !isdigit((unsigned char)*w))
        return 0;
    unsigned long long v = 0;
    for (; *w; w++) {
        if (!isdigit((unsigned char)*w))
            return 0;
        unsigned d = (unsigned)(*w - '0');
        if (d > max || v > (max - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

/* "f120" or "120" */
static int parse_money(const char *w, int32_t *out)
{
    unsigned long long v;
    if (*w == 'f' || *w == 'F')
        w++;
    if (!parse_uint(w, 1000000, &v))
        return 0;
    *out = (int32_t)v;
    return 1;
}

static int need_uint(rctx *r, const char *w, unsigned long long max, const char *what,
                     unsigned long long *out)
{
    if (!parse_uint(w, max, out))
        return rfail(r, r->line, "%s must be a whole number from 0 to %llu, not '%s'", what, max, w);
    return CH_OK;
}

static int need_player(rctx *r, const char *w, int *p)
{
    unsigned long long v;
    if (!parse_uint(w, 99, &v) || v < 1 || (int)v > r->st.nplayers)
        return rfail(r, r->line, "a player is a seat from 1 to %d, not '%s'", r->st.nplayers, w);
    *p = (int)v - 1;
    return CH_OK;
}

/* A plot at *s; advances past it. */
static int need_plot(rctx *r, const char **s, int *x)
{
    const char *p = skip_ws(*s);
    int used = 0, k = ch_board_find(BRD(&r->st), p, &used);
    if (k < 0 || (p[used] && p[used] != ' ' && p[used] != '\t' && p[used] != ',')) {
        char w[64];
        size_t n = 0;
        /* the district and label the writer meant: up to two words */
        const char *q = p;
        int words = 0;
        while (*q && *q != ',' && words < 3) {
            if (*q == ' ') {
                words++;
                if (words == 2 || !q[1])
                    break;
            }
            if (n + 1 < sizeof w)
                w[n++] = *q;
            q++;
        }
        w[n] = '\0';
        suggest sg = {0};
        for (int i = 0; i < BRD(&r->st)->nplots; i++)
            consider(&sg, w, r->pn.n[i]);
        char buf[96];
        return rfail(r, r->line, "unknown plot '%s'%s", w, mean(&sg, w, buf, sizeof buf));
    }
    *x = k;
    *s = p + used;
    return CH_OK;
}

static int find_company(const ch_state *st, const char *w)
{
    for (int c = 0; c < st->ncompanies; c++)
        if (ieq(w, ch_company_name(st, c)))
            return c;
    return -1;
}

static int need_company(rctx *r, const char *w, int *c)
{
    *c = find_company(&r->st, w);
    if (*c >= 0)
        return CH_OK;
    suggest sg = {0};
    for (int i = 0; i < r->st.ncompanies; i++)
        consider(&sg, w, ch_company_name(&r->st, i));
    char buf[96];
    return rfail(r, r->line, "unknown company '%s'%s", w, mean(&sg, w, buf, sizeof buf));
}

/* A card by its name: a card id, R_SHARED - k for a name several cards share,
 * or R_RANDOM for "random". */
static int need_card(rctx *r, const char *w, int allow_random, int *out)
{
    if (allow_random && ieq(w, "random")) {
        *out = R_RANDOM;
        return CH_OK;
    }
    for (int c = 0; c < r->st.ncards; c++)
        if (r->st.loc[c] != CH_LOC_UNUSED && ieq(w, r->cn.n[c])) {
            *out = c;
            return CH_OK;
        }
    for (int k = 0; k < r->nshared; k++)
        if (ieq(w, r->shared[k])) {
            *out = R_SHARED - k;
            return CH_OK;
        }
    /* The Golden Age with fewer than 12 event cards: which kinds are in the
     * game was drawn from the seed, which a player's copy leaves out. An
     * event card named that the seed did not draw takes the place of one
     * named nowhere (yet), so the copy's public discard pile loads. */
    if (r->st.edition == CH_ED_GOLDEN_AGE && !strncmp(w, "event ", 6)) {
        int kind = -1;
        for (int k = 0; k < CH_GE_KINDS; k++)
            if (ieq(w + 6, ch_ga_event_name(k)))
                kind = k;
        for (int c = 0; kind >= 0 && c < r->st.ncards; c++)
            if (r->st.card_event[c] && !r->placed[c] && r->st.loc[c] != CH_LOC_UNUSED) {
                r->st.card_event[c] = (uint8_t)(1 + kind);
                json_card_names(&r->st, &r->pn, &r->cn);
                *out = c;
                return CH_OK;
            }
    }
    suggest sg = {0};
    for (int c = 0; c < r->st.ncards; c++)
        if (r->st.loc[c] != CH_LOC_UNUSED)
            consider(&sg, w, r->cn.n[c]);
    for (int k = 0; k < r->nshared; k++)
        consider(&sg, w, r->shared[k]);
    char buf[96];
    return rfail(r, r->line, "unknown card '%s'%s", w, mean(&sg, w, buf, sizeof buf));
}

static int need_event_kind(rctx *r, const char *w, int *k)
{
    suggest sg = {0};
    for (int i = 0; i < CH_EV_KINDS; i++) {
        if (ieq(w, ch_event_name(i))) {
            *k = i;
            return CH_OK;
        }
        consider(&sg, w, ch_event_name(i));
    }
    char buf[96];
    return rfail(r, r->line, "unknown stock event '%s'%s", w, mean(&sg, w, buf, sizeof buf));
}

/* ---- the header: the game the position belongs to ---- */

static int start(rctx *r)
{
    if (r->started)
        return CH_OK;
    if (!r->players)
        return rfail(r, r->line, "the player count comes first: 'players N' before this line");
    /* The player counts of each edition (Building Amsterdam 2 to 5, The
     * Golden Age 2 to 6: the rulebooks' covers and setup tables), checked
     * before anything depends on the count: The Golden Age's board side
     * comes from its setup table, which has no row for other counts
     * (ch_ga_side gives NULL; issue 28 item 1, a crash on 'players 1'). */
    int most = r->edition == CH_ED_GOLDEN_AGE ? 6 : 5;
    if (r->players < 2 || r->players > most)
        return rfail(r, r->players_line, "%s is for 2 to %d players, not %d",
                     r->edition == CH_ED_GOLDEN_AGE ? "The Golden Age" : "Building Amsterdam", most,
                     r->players);
    ch_board board;
    ch_msg m;
    const char *arr = r->arr[0] ? r->arr
                      : r->edition == CH_ED_GOLDEN_AGE ? ch_ga_side(r->preset, r->players)
                                                       : "standard";
    if (!arr) /* a preset without a side for this count: never, after the check above */
        return rfail(r, r->players_line, "no board side for %d players", r->players);
    if (ch_board_builtin(&board, r->edition, arr, &m) != CH_OK) {
        suggest sg = {0};
        for (const char *const *n = ch_board_builtin_names(r->edition); n && *n; n++)
            consider(&sg, arr, *n);
        char buf[96];
        return rfail(r, r->line, "unknown arrangement '%s' for %s%s", arr,
                     json_edition_words[r->edition], mean(&sg, arr, buf, sizeof buf));
    }
    ch_setup s;
    ch_setup_default(&s, r->edition);
    s.nplayers = r->players;
    s.seed = r->seed;
    if (r->edition == CH_ED_GOLDEN_AGE) {
        s.preset = r->preset;
        s.events = r->events;
    } else {
        /* Building Amsterdam without stock events: a variant's game */
        s.no_stock_events = r->events_said && !r->events;
    }
    s.open = r->open;
    s.hand_limit = r->hand_limit;
    s.warehouses = r->warehouses;
    s.prices = r->prices;
    s.end_turns = r->end_turns;
    s.end_value = r->end_value;
    if (ch_new(&r->st, &s, &board, &m) != CH_OK)
        return rfail(r, r->line, "%s", m.text);
    ch_state *st = &r->st;
    json_plot_names(BRD(st), &r->pn);
    json_card_names(st, &r->pn, &r->cn);
    /* the names several cards share ("L2", "event sell 2") */
    for (int c = 0; c < st->ncards; c++) {
        char *hash = strchr(r->cn.n[c], '#');
        if (!hash || st->loc[c] == CH_LOC_UNUSED)
            continue;
        size_t len = (size_t)(hash - r->cn.n[c]);
        int k;
        for (k = 0; k < r->nshared; k++)
            if (strlen(r->shared[k]) == len && !memcmp(r->shared[k], r->cn.n[c], len))
                break;
        if (k == r->nshared && k < MAX_SHARED) {
            memcpy(r->shared[k], r->cn.n[c], len);
            r->shared[k][len] = '\0';
            r->nshared++;
        }
    }
    /* an empty table: every piece in the box, every card unplaced */
    for (int x = 0; x < CH_MAX_PLOTS; x++) {
        st->height[x] = 0;
        st->owner[x] = CH_NONE;
        st->pflags[x] = 0;
    }
    for (int c = 0; c < CH_MAX_COMPANIES; c++) {
        st->co[c].value = 0;
        st->co[c].on_chart = 0;
        st->co[c].hq = CH_NONE;
        st->co[c].flag = 0;
    }
    for (int p = 0; p < st->nplayers; p++) {
        ch_player *pl = &st->pl[p];
        int32_t cash = pl->cash;
        uint8_t actions = pl->actions, flags = pl->flags;
        memset(pl, 0, sizeof *pl);
        pl->cash = cash;
        pl->actions = actions;
        pl->flags = flags;
    }
    for (int i = 0; i < NFIELDS; i++)
        fset(st, &fields[i], (uint32_t)fields[i].def);
    memset(st->bid, 0, sizeof st->bid);
    memset(&st->offer, 0, sizeof st->offer);
    st->offer.to = CH_NONE;
    if (r->first)
        st->first_player = (uint8_t)(r->first - 1);
    st->active = st->actor = st->first_player;
    st->phase = CH_PH_TURN;
    st->turn_no = 1;
    for (int i = 0; i < CH_EVENT_OPEN_MAX; i++)
        r->ev_open[i] = -2;
    r->ev_deck_rest = 1;
    r->deck_rest = 1;
    r->started = 1;
    return CH_OK;
}

static int header_line(rctx *r, const char *key, const char *rest)
{
    char w[64];
    const char *s = rest;
    if (r->started)
        return rfail(r, r->line, "'%s' belongs to the header, before the board and the players", key);
    if (!word(&s, w, sizeof w))
        return rfail(r, r->line, "'%s' needs a value", key);
    unsigned long long v;
    if (!strcmp(key, "edition")) {
        if (ieq(w, "amsterdam"))
            r->edition = CH_ED_AMSTERDAM;
        else if (ieq(w, "golden-age"))
            r->edition = CH_ED_GOLDEN_AGE;
        else {
            suggest sg = {0};
            consider(&sg, w, "amsterdam");
            consider(&sg, w, "golden-age");
            char buf[96];
            return rfail(r, r->line, "unknown edition '%s'%s", w, mean(&sg, w, buf, sizeof buf));
        }
    } else if (!strcmp(key, "arrangement")) {
        snprintf(r->arr, sizeof r->arr, "%s", skip_ws(rest));
        char *e = r->arr + strlen(r->arr);
        while (e > r->arr && (e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        return CH_OK;
    } else if (!strcmp(key, "players")) {
        if (!parse_uint(w, 6, &v) || v < 2)
            return rfail(r, r->line, "the player count is a whole number from 2 to 6, not '%s'", w);
        r->players = (int)v;
        r->players_line = r->line;
    } else if (!strcmp(key, "preset")) {
        if (ieq(w, "golden-age"))
            r->preset = CH_GA_PRINTED;
        else if (ieq(w, "golden-age-first"))
            r->preset = CH_GA_FIRST;
        else
            return rfail(r, r->line, "unknown preset '%s' (golden-age or golden-age-first)", w);
    } else if (!strcmp(key, "events")) {
        if (ieq(w, "on"))
            r->events = 1;
        else if (ieq(w, "off"))
            r->events = 0;
        else
            return rfail(r, r->line, "events is on or off, not '%s'", w);
        r->events_said = 1;
    } else if (!strcmp(key, "price") || !strcmp(key, "end")) {
        /* a variant's prices and end, written as in a variant file
           (docs/variants.md); ch_new checks them against the edition */
        char why[160];
        int which;
        if (variant_price_end(key, rest, &r->prices, &r->end_turns, &r->end_value, &which, why,
                              sizeof why))
            return rfail(r, r->line, "%s", why);
        return CH_OK;
    } else if (!strcmp(key, "open") || !strcmp(key, "hand-limit") || !strcmp(key, "warehouses")) {
        /* a variant's game (docs/variants.md): ch_new checks the bounds */
        int rc = need_uint(r, w, 255, key, &v);
        if (rc)
            return rc;
        if (v == 0)
            return rfail(r, r->line, "%s is at least 1", key);
        *(!strcmp(key, "open") ? &r->open : !strcmp(key, "warehouses") ? &r->warehouses : &r->hand_limit) =
            (int)v;
    } else if (!strcmp(key, "seed")) {
        int rc = need_uint(r, w, UINT64_MAX, "the seed", &v);
        if (rc)
            return rc;
        r->seed = v;
    } else if (!strcmp(key, "first")) {
        if (!parse_uint(w, 6, &v) || v < 1 || (r->players && (int)v > r->players))
            return rfail(r, r->line, "the first player is a seat from 1 to %d, not '%s'",
                         r->players ? r->players : 6, w);
        r->first = (int)v;
    }
    if (word(&s, w, sizeof w))
        return rfail(r, r->line, "unexpected '%s' after '%s'", w, key);
    return CH_OK;
}

/* ---- the body ---- */

static int plot_line(rctx *r, int is_warehouse, const char *rest)
{
    ch_state *st = &r->st;
    const char *s = rest;
    int x, rc = need_plot(r, &s, &x);
    if (rc)
        return rc;
    if (r->plot_line[x])
        return rfail(r, r->line, "%s is already described on line %d", r->pn.n[x], r->plot_line[x]);
    r->plot_line[x] = r->line;
    int height = is_warehouse ? 1 : 0, owner = CH_NONE, flags = 0;
    char w[64];
    while (word(&s, w, sizeof w)) {
        int f;
        for (f = 0; f < 5; f++)
            if (ieq(w, flag_words[f]))
                break;
        if (f < 5) {
            flags |= 1 << f;
            continue;
        }
        if (ieq(w, "height")) {
            unsigned long long v;
            /* The Golden Age's tallest stack: a warehouse and levels up to
               the fifth (5 pieces), and the piece a lot's plot card adds
               when a free warehouse covered it (Ruling G-28): 6 */
            if (!word(&s, w, sizeof w) || !parse_uint(w, 6, &v) || (is_warehouse && v < 1))
                return rfail(r, r->line, "height is a number of pieces from %d to 6", is_warehouse);
            height = (int)v;
            continue;
        }
        int c = find_company(st, w);
        if (c < 0) {
            suggest sg = {0};
            for (int i = 0; i < st->ncompanies; i++)
                consider(&sg, w, ch_company_name(st, i));
            for (f = 0; f < 5; f++)
                consider(&sg, w, flag_words[f]);
            consider(&sg, w, "height");
            char buf[96];
            return rfail(r, r->line, "unknown word '%s' on a plot (a company, height N, or one of hq, "
                         "upside, roof, nopiece, free)%s", w, mean(&sg, w, buf, sizeof buf));
        }
        if (owner != CH_NONE)
            return rfail(r, r->line, "a plot belongs to one company");
        owner = c;
    }
    if (!is_warehouse && !(flags & (CH_PF_HQ | CH_PF_UPSIDE)))
        return rfail(r, r->line, "a placeholder is an HQ (hq) or an upside-down warehouse (upside)");
    if (!is_warehouse && owner == CH_NONE)
        return rfail(r, r->line, "a placeholder belongs to a company: name it");
    if ((flags & CH_PF_HQ) && owner == CH_NONE)
        return rfail(r, r->line, "an HQ belongs to a company: name it");
    if ((flags & CH_PF_ROOF) && !height)
        return rfail(r, r->line, "a broken roof lies on a warehouse");
    if ((flags & CH_PF_NOPIECE) && !(flags & CH_PF_UPSIDE))
        return rfail(r, r->line, "nopiece goes with an upside-down placeholder only");
    if (r->edition == CH_ED_AMSTERDAM && height > 4)
        return rfail(r, r->line, "a stack is a warehouse and at most three levels (second, third, fourth): height 1 to 4");
    if (r->edition == CH_ED_GOLDEN_AGE && (flags & CH_PF_HQ) && height < 2)
        return rfail(r, r->line, "in The Golden Age an HQ stands on a warehouse: height counts both (2 or more)");
    if (flags & CH_PF_HQ) {
        if (st->co[owner].hq != CH_NONE)
            return rfail(r, r->line, "%s already has its HQ on %s", ch_company_name(st, owner),
                         r->pn.n[st->co[owner].hq]);
        st->co[owner].hq = (uint8_t)x;
    }
    st->height[x] = (uint8_t)height;
    st->owner[x] = (uint8_t)owner;
    st->pflags[x] = (uint8_t)flags;
    return CH_OK;
}

static int company_line(rctx *r, const char *rest)
{
    ch_state *st = &r->st;
    const char *s = rest;
    char w[64];
    int c, rc;
    if (!word(&s, w, sizeof w))
        return rfail(r, r->line, "company needs a name");
    if ((rc = need_company(r, w, &c)))
        return rc;
    if (r->co_line[c])
        return rfail(r, r->line, "%s is already described on line %d", ch_company_name(st, c), r->co_line[c]);
    r->co_line[c] = r->line;
    int on = 1, value = -1, flag = 0;
    while (word(&s, w, sizeof w)) {
        int32_t v;
        unsigned long long u;
        if (ieq(w, "off-chart"))
            on = 0;
        else if (ieq(w, "flag")) {
            if (!word(&s, w, sizeof w) || !parse_uint(w, 99, &u) || u < 1 || (int)u > st->nplayers)
                return rfail(r, r->line, "flag names the seat (1 to %d) whose flag stands on it", st->nplayers);
            flag = (int)u;
        } else if (parse_money(w, &v))
            value = v;
        else
            return rfail(r, r->line, "unknown word '%s' on a company (fVALUE, off-chart, flag P)", w);
    }
    const ed_rules *e = ED(st);
    if (on) {
        if (value < 0)
            return rfail(r, r->line, "%s needs its value on the chart (f%d to f%d)", ch_company_name(st, c),
                         e->min_value, e->max_value);
        if (value < e->min_value || value > e->max_value || value % 10)
            return rfail(r, r->line, "%s is worth f%d: the chart runs from f%d to f%d in steps of f10",
                         ch_company_name(st, c), value, e->min_value, e->max_value);
    } else if (value > 0) {
        return rfail(r, r->line, "a company off the chart has no value");
    }
    st->co[c].on_chart = (uint8_t)on;
    st->co[c].value = (int16_t)(on ? value : 0);
    st->co[c].flag = (uint8_t)flag;
    return CH_OK;
}

static int player_line(rctx *r, const char *rest)
{
    ch_state *st = &r->st;
    const char *s = rest;
    char w[64];
    int p, rc;
    if (!word(&s, w, sizeof w))
        return rfail(r, r->line, "player needs a seat number");
    if ((rc = need_player(r, w, &p)))
        return rc;
    if (r->pl_line[p])
        return rfail(r, r->line, "player %d is already described on line %d", p + 1, r->pl_line[p]);
    r->pl_line[p] = r->line;
    ch_player *pl = &st->pl[p];
    while (word(&s, w, sizeof w)) {
        unsigned long long v;
        if (ieq(w, "extra-pending")) {
            pl->extra_pending = 1;
            continue;
        }
        if (ieq(w, "extra-armed")) {
            pl->extra_armed = 1;
            continue;
        }
        static const char *const keys[] = {"cash", "actions", "roofs", "flags", "hidden-levels", "reserve-took"};
        int k;
        for (k = 0; k < 6; k++)
            if (ieq(w, keys[k]))
                break;
        if (k == 6) {
            suggest sg = {0};
            for (k = 0; k < 6; k++)
                consider(&sg, w, keys[k]);
            consider(&sg, w, "extra-pending");
            consider(&sg, w, "extra-armed");
            char buf[96];
            return rfail(r, r->line, "unknown word '%s' on a player%s", w, mean(&sg, w, buf, sizeof buf));
        }
        char val[64];
        if (!word(&s, val, sizeof val))
            return rfail(r, r->line, "%s needs a value", keys[k]);
        if (k == 0) {
            int32_t m;
            if (!parse_money(val, &m))
                return rfail(r, r->line, "cash is whole florins, 0 or more, like f120, not '%s'", val);
            pl->cash = m;
            continue;
        }
        static const unsigned maxv[] = {0, 2, BA_ROOFS, 2, 255, 15};
        if ((rc = need_uint(r, val, maxv[k], keys[k], &v)))
            return rc;
        if (k == 1)
            pl->actions = (uint8_t)v;
        else if (k == 2)
            pl->roofs = (uint8_t)v;
        else if (k == 3)
            pl->flags = (uint8_t)v;
        else if (k == 4)
            pl->hidden_levels = (uint8_t)v, r->hl_given[p] = 1;
        else
            pl->reserve_took = (uint8_t)v;
    }
    return CH_OK;
}

static int stocks_line(rctx *r, const char *rest)
{
    ch_state *st = &r->st;
    const char *s = rest;
    char w[64];
    int p, rc;
    if (!word(&s, w, sizeof w) || (rc = need_player(r, w, &p)))
        return rfail(r, r->line, "stocks needs a seat number first: stocks 1 Coal 2, Tea 1");
    if (r->stock_line[p])
        return rfail(r, r->line, "the stocks of player %d are already given on line %d", p + 1, r->stock_line[p]);
    r->stock_line[p] = r->line;
    if (ieq(skip_ws(s), "hidden")) {
        r->stock_hidden[p] = 1;
        return CH_OK;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    char *items[CH_MAX_COMPANIES + 4];
    int n = split_items(buf, items, CH_MAX_COMPANIES + 4);
    if (n == 1 && ieq(items[0], "none"))
        return CH_OK;
    if (n > CH_MAX_COMPANIES + 4)
        return rfail(r, r->line, "too many items");
    for (int i = 0; i < n; i++) {
        const char *q = items[i];
        char name[64], num[32];
        if (!word(&q, name, sizeof name) || !word(&q, num, sizeof num) || *skip_ws(q))
            return rfail(r, r->line, "a holding is a company and a count, like 'Coal 2', not '%s'", items[i]);
        int c;
        unsigned long long v;
        if ((rc = need_company(r, name, &c)) || (rc = need_uint(r, num, (unsigned)ED(st)->stocks, "a holding", &v)))
            return rc;
        st->pl[p].stock[c] = (uint8_t)v;
    }
    return CH_OK;
}

/* Cards of a pile line: "hand 2 a, b, random 3", "deck a, b, random". */
static int cards_line(rctx *r, int pile, const char *rest, int allow_random)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", rest);
    char *items[CH_MAX_CARDS + 1];
    int n = split_items(buf, items, CH_MAX_CARDS + 1);
    if (n > CH_MAX_CARDS)
        return rfail(r, r->line, "too many cards");
    if (r->pile_line[pile])
        return rfail(r, r->line, "this pile is already given on line %d", r->pile_line[pile]);
    r->pile_line[pile] = r->line;
    if (n == 1 && ieq(items[0], "none"))
        return CH_OK;
    for (int i = 0; i < n; i++) {
        const char *q = items[i];
        char w[64];
        word(&q, w, sizeof w);
        if (ieq(w, "random") && pile == PILE_DECK) {
            if (i != n - 1 || *skip_ws(q))
                return rfail(r, r->line, "'random' ends the deck: the rest of the cards, shuffled");
            r->deck_rest = 1;
            return CH_OK;
        }
        int count = 1, id;
        if (ieq(w, "random") && allow_random) {
            unsigned long long v = 1;
            char num[32];
            if (word(&q, num, sizeof num)) {
                int rc = need_uint(r, num, CH_MAX_CARDS, "a count of random cards", &v);
                if (rc)
                    return rc;
            }
            count = (int)v;
            id = R_RANDOM;
        } else {
            int rc = need_card(r, items[i], 0, &id);
            if (rc)
                return rc;
        }
        for (int k = 0; k < count; k++) {
            if (r->npile[pile] >= CH_MAX_CARDS)
                return rfail(r, r->line, "too many cards");
            if (id >= 0) {
                if (r->placed[id])
                    return rfail(r, r->line, "%s is already placed on line %d", r->cn.n[id], r->placed[id]);
                r->placed[id] = r->line;
            }
            r->pile[pile][r->npile[pile]++] = id;
        }
    }
    if (pile == PILE_DECK)
        r->deck_rest = 0;
    return CH_OK;
}

static int market_line(rctx *r, const char *rest)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", rest);
    char *items[CH_MARKET_MAX + 1];
    int n = split_items(buf, items, CH_MARKET_MAX + 1);
    if (r->pile_line[PILE_MARKET])
        return rfail(r, r->line, "the market is already given on line %d", r->pile_line[PILE_MARKET]);
    r->pile_line[PILE_MARKET] = r->line;
    if (n > r->st.market_size)
        return rfail(r, r->line, "the market has %d places, not %d", r->st.market_size, n);
    for (int i = 0; i < r->st.market_size; i++)
        r->pile[PILE_MARKET][i] = CH_NONE + 1000; /* empty */
    r->npile[PILE_MARKET] = r->st.market_size;
    for (int i = 0; i < n; i++) {
        if (!strcmp(items[i], "-"))
            continue;
        int id, rc = need_card(r, items[i], 1, &id);
        if (rc)
            return rc;
        if (id >= 0) {
            if (r->placed[id])
                return rfail(r, r->line, "%s is already placed on line %d", r->cn.n[id], r->placed[id]);
            r->placed[id] = r->line;
        }
        r->pile[PILE_MARKET][i] = id;
    }
    return CH_OK;
}

static int events_line(rctx *r, int which, const char *rest)
{
    if (r->edition != CH_ED_AMSTERDAM)
        return rfail(r, r->line, "The Golden Age's events are cards of the deck");
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", rest);
    char *items[CH_EVENT_CARDS + 1];
    int n = split_items(buf, items, CH_EVENT_CARDS + 1);
    if (n > CH_EVENT_CARDS)
        return rfail(r, r->line, "there are %d stock event cards", CH_EVENT_CARDS);
    if (n == 1 && ieq(items[0], "none"))
        n = 0;
    if (which == 0) {
        if (n > r->st.nevent_open)
            return rfail(r, r->line, "%d event cards lie open, not %d", r->st.nevent_open, n);
        r->ev_open_line = r->line;
        for (int i = 0; i < r->st.nevent_open; i++)
            r->ev_open[i] = i < n ? -2 : -1;
        for (int i = 0; i < n; i++) {
            if (!strcmp(items[i], "-"))
                r->ev_open[i] = -1;
            else if (ieq(items[i], "random"))
                r->ev_open[i] = -2;
            else {
                int rc = need_event_kind(r, items[i], &r->ev_open[i]);
                if (rc)
                    return rc;
            }
        }
        return CH_OK;
    }
    int *list = which == 1 ? r->ev_discard : r->ev_deck;
    int *cnt = which == 1 ? &r->nev_discard : &r->nev_deck;
    if (which == 2) {
        r->ev_deck_line = r->line;
        r->ev_deck_rest = 0;
    }
    for (int i = 0; i < n; i++) {
        if (which == 2 && ieq(items[i], "random") && i == n - 1) {
            r->ev_deck_rest = 1;
            break;
        }
        int rc = need_event_kind(r, items[i], &list[(*cnt)++]);
        if (rc)
            return rc;
    }
    return CH_OK;
}

static int turn_line(rctx *r, const char *rest)
{
    ch_state *st = &r->st;
    const char *s = rest;
    char w[64];
    unsigned long long v;
    int rc;
    r->turn_line = r->line;
    if (!word(&s, w, sizeof w) || (rc = need_uint(r, w, 65535, "the turn number", &v)))
        return rfail(r, r->line, "turn N player P phase NAME, like 'turn 1 player 2 phase turn'");
    st->turn_no = (uint16_t)v;
    while (word(&s, w, sizeof w)) {
        char val[64];
        if (!word(&s, val, sizeof val))
            return rfail(r, r->line, "'%s' needs a value", w);
        if (ieq(w, "player")) {
            int p;
            if ((rc = need_player(r, val, &p)))
                return rc;
            st->active = st->actor = (uint8_t)p;
        } else if (ieq(w, "phase")) {
            int ph;
            suggest sg = {0};
            for (ph = 0; ph < CH_PH_COUNT; ph++) {
                if (ieq(val, ch_phase_name(ph)))
                    break;
                consider(&sg, val, ch_phase_name(ph));
            }
            if (ph == CH_PH_COUNT) {
                char buf[96];
                return rfail(r, r->line, "unknown phase '%s'%s", val, mean(&sg, val, buf, sizeof buf));
            }
            st->phase = (uint8_t)ph;
        } else {
            return rfail(r, r->line, "unknown word '%s' (turn N player P phase NAME)", w);
        }
    }
    return CH_OK;
}

static int offer_items(rctx *r, int give, const char *rest)
{
    ch_state *st = &r->st;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", rest);
    char *items[CH_MAX_CARDS + 20];
    int n = split_items(buf, items, CH_MAX_CARDS + 20);
    if (n > CH_MAX_CARDS + 20)
        return rfail(r, r->line, "too many items");
    for (int i = 0; i < n; i++) {
        int32_t m;
        if (parse_money(items[i], &m)) {
            *(give ? &st->offer.give_money : &st->offer.ask_money) = m;
            continue;
        }
        /* "Coal 2" or a card */
        const char *q = items[i];
        char name[64], num[32];
        word(&q, name, sizeof name);
        int c = find_company(st, name);
        if (c >= 0 && word(&q, num, sizeof num)) {
            unsigned long long v = 0;
            int rc = need_uint(r, num, 9, "a count of stocks", &v);
            if (rc)
                return rc;
            (give ? st->offer.give_stock : st->offer.ask_stock)[c] = (uint8_t)v;
            continue;
        }
        int id, rc = need_card(r, items[i], 0, &id);
        if (rc)
            return rc;
        if (id < 0)
            return rfail(r, r->line, "several cards are called %s: name one as %s#ID", items[i], items[i]);
        bs_set(give ? st->offer.give_cards : st->offer.ask_cards, id);
    }
    return CH_OK;
}

static int field_line(rctx *r, const field *f, const char *rest)
{
    ch_state *st = &r->st;
    char val[256];
    snprintf(val, sizeof val, "%s", skip_ws(rest));
    char *e = val + strlen(val);
    while (e > val && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    uint32_t v = 0;
    unsigned long long u;
    int rc;
    if (ieq(val, "none") && f->def == CH_NONE) {
        fset(st, f, CH_NONE);
        return CH_OK;
    }
    switch (f->kind) {
    case F_BOOL:
        if (ieq(val, "yes"))
            v = 1;
        else if (!ieq(val, "no"))
            return rfail(r, r->line, "%s is yes or no, not '%s'", f->key, val);
        break;
    case F_PLAYER: {
        int p;
        if ((rc = need_player(r, val, &p)))
            return rc;
        v = (uint32_t)p;
        break;
    }
    case F_COMPANY: {
        int c;
        if ((rc = need_company(r, val, &c)))
            return rc;
        v = (uint32_t)c;
        break;
    }
    case F_PLOT: {
        const char *s = val;
        int x;
        if ((rc = need_plot(r, &s, &x)))
            return rc;
        v = (uint32_t)x;
        break;
    }
    case F_CARD: {
        int id;
        if ((rc = need_card(r, val, 0, &id)))
            return rc;
        if (id < 0)
            return rfail(r, r->line, "several cards are called %s: name one as %s#ID", val, val);
        v = (uint32_t)id;
        break;
    }
    case F_PMASK: {
        const char *s = val;
        char w[16];
        while (word(&s, w, sizeof w)) {
            int p;
            if ((rc = need_player(r, w, &p)))
                return rc;
            v |= 1u << p;
        }
        break;
    }
    case F_CMASK: {
        char *items[CH_MAX_COMPANIES + 1];
        int n = split_items(val, items, CH_MAX_COMPANIES + 1);
        for (int i = 0; i < n && i <= CH_MAX_COMPANIES; i++) {
            int c;
            if ((rc = need_company(r, items[i], &c)))
                return rc;
            v |= 1u << c;
        }
        break;
    }
    case F_EVKIND:
        if (r->edition == CH_ED_AMSTERDAM) {
            int k;
            if ((rc = need_event_kind(r, val, &k)))
                return rc;
            v = (uint32_t)k;
        } else {
            if ((rc = need_uint(r, val, CH_GE_KINDS - 1, f->key, &u)))
                return rc;
            v = (uint32_t)u;
        }
        break;
    case F_MONEY: {
        int32_t m;
        if (!parse_money(val, &m))
            return rfail(r, r->line, "%s is an amount like f40, not '%s'", f->key, val);
        v = (uint32_t)m;
        break;
    }
    default:
        if ((rc = need_uint(r, val, f->kind == F_U32 ? 0xffffffffu : f->kind == F_U16 ? 65535 : 254,
                            f->key, &u)))
            return rc;
        v = (uint32_t)u;
    }
    fset(st, f, v);
    return CH_OK;
}

static int body_line(rctx *r, const char *key, const char *rest)
{
    ch_state *st = &r->st;
    const char *s = rest;
    char w[64];
    int rc;
    if (!strcmp(key, "warehouse"))
        return plot_line(r, 1, rest);
    if (!strcmp(key, "placeholder"))
        return plot_line(r, 0, rest);
    if (!strcmp(key, "company"))
        return company_line(r, rest);
    if (!strcmp(key, "player"))
        return player_line(r, rest);
    if (!strcmp(key, "stocks"))
        return stocks_line(r, rest);
    if (!strcmp(key, "stocks-hidden")) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", rest);
        char *items[CH_MAX_COMPANIES + 1];
        int n = split_items(buf, items, CH_MAX_COMPANIES + 1);
        r->hidden_line = r->line;
        for (int i = 0; i < n && i <= CH_MAX_COMPANIES; i++) {
            const char *q = items[i];
            char name[64], num[32];
            int c;
            unsigned long long v = 0; /* set by need_uint; gcc -O3 cannot tell */
            if (!word(&q, name, sizeof name) || !word(&q, num, sizeof num))
                return rfail(r, r->line, "a hidden holding is a company and a count, like 'Coal 2'");
            if ((rc = need_company(r, name, &c)) || (rc = need_uint(r, num, 9, "a count", &v)))
                return rc;
            r->hidden_total[c] = (int)v;
        }
        return CH_OK;
    }
    if (!strcmp(key, "turn"))
        return turn_line(r, rest);
    if (!strcmp(key, "hand") || !strcmp(key, "known")) {
        int p;
        if (!word(&s, w, sizeof w))
            return rfail(r, r->line, "%s needs a seat number first", key);
        if ((rc = need_player(r, w, &p)))
            return rc;
        if (!strcmp(key, "hand"))
            return cards_line(r, PILE_HAND0 + p, s, 1);
        if (r->known_line[p])
            return rfail(r, r->line, "known cards of player %d are given on line %d", p + 1, r->known_line[p]);
        r->known_line[p] = r->line;
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", s);
        char *items[CH_MAX_CARDS + 1];
        int n = split_items(buf, items, CH_MAX_CARDS + 1);
        for (int i = 0; i < n && i < CH_MAX_CARDS; i++) {
            int id;
            if ((rc = need_card(r, items[i], 0, &id)))
                return rc;
            if (id < 0)
                return rfail(r, r->line, "several cards are called %s: name one as %s#ID", items[i], items[i]);
            bs_set(r->known[p], id);
        }
        return CH_OK;
    }
    if (!strcmp(key, "market"))
        return market_line(r, rest);
    if (!strcmp(key, "reserve")) {
        if (r->edition != CH_ED_AMSTERDAM)
            return rfail(r, r->line, "The Golden Age has no level reserve");
        return cards_line(r, PILE_RESERVE, rest, 1);
    }
    if (!strcmp(key, "look"))
        return cards_line(r, PILE_LOOK, rest, 1);
    if (!strcmp(key, "discard"))
        return cards_line(r, PILE_DISCARD, rest, 0);
    if (!strcmp(key, "deck"))
        return cards_line(r, PILE_DECK, rest, 0);
    if (!strcmp(key, "deck-top")) {
        if (r->deck_top_line)
            return rfail(r, r->line, "deck-top is already given on line %d", r->deck_top_line);
        if (!word(&s, w, sizeof w) || (!ieq(w, "event") && !ieq(w, "building")) || *skip_ws(s))
            return rfail(r, r->line, "deck-top is 'event' or 'building'");
        r->deck_top = ieq(w, "event");
        r->deck_top_line = r->line;
        return CH_OK;
    }
    if (!strcmp(key, "events-open"))
        return events_line(r, 0, rest);
    if (!strcmp(key, "events-discard"))
        return events_line(r, 1, rest);
    if (!strcmp(key, "events-deck"))
        return events_line(r, 2, rest);
    if (!strcmp(key, "actor")) {
        int p;
        if (!word(&s, w, sizeof w))
            return rfail(r, r->line, "actor needs a seat number or none");
        if (ieq(w, "none")) {
            st->actor = CH_NONE;
            return CH_OK;
        }
        if ((rc = need_player(r, w, &p)))
            return rc;
        st->actor = (uint8_t)p;
        return CH_OK;
    }
    if (!strcmp(key, "rng")) {
        for (int i = 0; i < 4; i++) {
            if (!word(&s, w, sizeof w) || strlen(w) > 16)
                return rfail(r, r->line, "rng is four 64-bit words in hexadecimal");
            char *end;
            r->rng[i] = strtoull(w, &end, 16);
            if (*end)
                return rfail(r, r->line, "rng is four 64-bit words in hexadecimal, not '%s'", w);
        }
        r->rng_given = 1;
        return CH_OK;
    }
    if (!strcmp(key, "bids")) {
        for (int p = 0; p < st->nplayers; p++) {
            int32_t m;
            if (!word(&s, w, sizeof w) || !parse_money(w, &m))
                return rfail(r, r->line, "bids lists one amount per player, like 'bids f10 f0 f20'");
            st->bid[p] = m;
        }
        return CH_OK;
    }
    if (!strcmp(key, "offer-to")) {
        int p;
        if (!word(&s, w, sizeof w) || (rc = need_player(r, w, &p)))
            return rfail(r, r->line, "offer-to needs a seat number");
        st->offer.to = (uint8_t)p;
        return CH_OK;
    }
    if (!strcmp(key, "offer-give") || !strcmp(key, "offer-ask"))
        return offer_items(r, key[6] == 'g', rest);
    for (int i = 0; i < NFIELDS; i++)
        if (!strcmp(key, fields[i].key)) {
            if (r->key_line[i])
                return rfail(r, r->line, "%s is already given on line %d", key, r->key_line[i]);
            r->key_line[i] = r->line;
            return field_line(r, &fields[i], rest);
        }
    suggest sg = {0};
    for (int i = 0; i < NKEYWORDS; i++)
        consider(&sg, key, keywords[i]);
    for (int i = 0; i < NFIELDS; i++)
        consider(&sg, key, fields[i].key);
    char buf[96];
    return rfail(r, r->line, "unknown line '%s'%s", key, mean(&sg, key, buf, sizeof buf));
}

/* ---- putting it together ---- */

static uint32_t local_below(uint64_t *rng, uint32_t n) { return rng_below(rng, n); }

/* Take a card for a slot: an id as given, the first free card of a shared
 * name, or a random free card (not an event card, unless for the deck). */
static int take(rctx *r, int v, uint64_t *rng, int for_deck, int line, int *out)
{
    /* for_deck: 0 any card but events, 1 any card, 2 level cards only,
     * 3 + p: player p's hand, whose level cards stay within its stated
     * hidden-levels (the public bound determinize relies on) */
    int hand = for_deck >= 3 ? for_deck - 3 : -1;
    if (hand >= 0)
        for_deck = 0;
    ch_state *st = &r->st;
    if (v >= 0) {
        *out = v;
        return CH_OK;
    }
    if (v <= R_SHARED) {
        const char *name = r->shared[R_SHARED - v];
        size_t len = strlen(name);
        for (int c = 0; c < st->ncards; c++)
            if (!r->placed[c] && st->loc[c] != CH_LOC_UNUSED && !strncmp(r->cn.n[c], name, len) &&
                r->cn.n[c][len] == '#') {
                r->placed[c] = line;
                *out = c;
                return CH_OK;
            }
        return rfail(r, line, "no %s card is left to place here", name);
    }
    /* the level reserve holds what setup put there, less what Aenleggen took:
     * at most two second-level cards, one third and one fourth */
    int room[6] = {0, 0, 2, 1, 1, 0};
    if (for_deck == 2)
        for (int i = 0; i < r->npile[PILE_RESERVE]; i++)
            if (r->pile[PILE_RESERVE][i] >= 0 && room[st->card_level[r->pile[PILE_RESERVE][i]]] > 0)
                room[st->card_level[r->pile[PILE_RESERVE][i]]]--;
    int pool[CH_MAX_CARDS], n = 0;
    for (int c = 0; c < st->ncards; c++)
        if (!r->placed[c] && st->loc[c] != CH_LOC_UNUSED && (for_deck || !st->card_event[c]) &&
            (for_deck != 2 || (st->card_level[c] && room[st->card_level[c]] > 0)) &&
            !(hand >= 0 && r->hl_given[hand] && st->card_level[c] &&
              r->levels_dealt[hand] >= st->pl[hand].hidden_levels) &&
            !(r->plots_only && st->card_level[c]))
            pool[n++] = c;
    if (!n && for_deck == 2)
        return rfail(r, line, "no level card is left for the level reserve, which holds at most two L2, one L3 "
                     "and one L4 (Setup, step 4): name fewer ('reserve random N')");
    if (!n)
        return rfail(r, line, "no card is left to deal at random here");
    int c = pool[local_below(rng, (uint32_t)n)];
    if (hand >= 0 && st->card_level[c])
        r->levels_dealt[hand]++;
    r->placed[c] = line;
    *out = c;
    return CH_OK;
}

static const char *const level_word[] = {"", "", "second", "third", "fourth", "fifth"};

/* Building Amsterdam: each level on the board was built by playing its level
 * card, which stays on the discard pile (Veilinge takes back plot cards only,
 * and nothing shuffles the discard pile back). So the discard pile holds at
 * least as many level-k cards as stacks carry a level k; the cards no line
 * placed make up the difference, as a built plot's card does. */
static int levels_played(rctx *r)
{
    ch_state *st = &r->st;
    if (st->edition != CH_ED_AMSTERDAM)
        return CH_OK;
    for (int k = 2; k <= 4; k++) {
        int on = 0, line = 0, where = -1, played = 0, cards = 0;
        for (int x = 0; x < BRD(st)->nplots; x++)
            if (st->height[x] >= k) {
                on++;
                if (r->plot_line[x] >= line) {
                    line = r->plot_line[x];
                    where = x;
                }
            }
        for (int c = 0; c < st->ncards; c++)
            cards += st->loc[c] != CH_LOC_UNUSED && st->card_level[c] == k;
        for (int i = 0; i < r->npile[PILE_DISCARD]; i++) {
            int v = r->pile[PILE_DISCARD][i];
            played += v >= 0 && st->card_level[v] == k;
        }
        for (int c = 0; c < st->ncards && played < on; c++)
            if (!r->placed[c] && st->loc[c] != CH_LOC_UNUSED && st->card_level[c] == k) {
                if (r->npile[PILE_DISCARD] >= CH_MAX_CARDS)
                    return rfail(r, line, "too many cards");
                r->pile[PILE_DISCARD][r->npile[PILE_DISCARD]++] = c; /* at the bottom */
                r->placed[c] = line;
                played++;
            }
        if (played < on)
            return rfail(r, line, "%s has a %s level, but %d stacks carry one and only %d of the %d L%d cards "
                         "can have been played: a level is built by playing its card, which stays on the "
                         "discard pile (the others are placed elsewhere)",
                         r->pn.n[where], level_word[k], on, played, cards, k);
    }
    return CH_OK;
}

/* What ch_validate checks of the board and the flags, said at the line that
 * is wrong: a broken roof lies on a company's warehouse (a roof goes only on a
 * build that changes a company's value, Ruling R-31, and no company ever
 * leaves a warehouse lone); a company is one connected group of at least two
 * warehouses; a Golden Age player has two flags in all. */
static int companies_whole(rctx *r)
{
    ch_state *st = &r->st;
    for (int x = 0; x < BRD(st)->nplots; x++)
        if ((st->pflags[x] & CH_PF_ROOF) && st->owner[x] == CH_NONE)
            return rfail(r, r->plot_line[x], "a broken roof lies only on a company's warehouse (Ruling R-31), "
                         "not on the lone warehouse on %s", r->pn.n[x]);
    for (int c = 0; c < st->ncompanies; c++) {
        if (!st->co[c].on_chart)
            continue;
        int ln = r->co_line[c] ? r->co_line[c] : r->line;
        int ws = 0, groups = 0, first = -1, second = -1;
        uint64_t seen[2] = {0, 0};
        uint8_t stack[CH_MAX_PLOTS];
        for (int x = 0; x < BRD(st)->nplots; x++) {
            if (st->owner[x] != c || !has_piece(st, x))
                continue;
            ws += st->height[x] > 0;
            if (bs_has(seen, x))
                continue;
            if (groups++ == 0)
                first = x;
            else if (second < 0)
                second = x;
            int top = 0;
            bs_set(seen, x);
            stack[top++] = (uint8_t)x;
            while (top) {
                int y = stack[--top];
                for (int i = 0; i < BRD(st)->deg[y]; i++) {
                    int z = BRD(st)->adj[y][i];
                    if (st->owner[z] == c && has_piece(st, z) && !bs_has(seen, z)) {
                        bs_set(seen, z);
                        stack[top++] = (uint8_t)z;
                    }
                }
            }
        }
        if (groups > 1)
            return rfail(r, ln, "%s stands in %d separate groups (%s and %s): a company is one connected group",
                         ch_company_name(st, c), groups, r->pn.n[first], r->pn.n[second]);
        if (ws < 2)
            return rfail(r, ln, "%s has %d warehouse%s on the board: a company has at least two (founding joins two)",
                         ch_company_name(st, c), ws, ws == 1 ? "" : "s");
    }
    if (st->edition == CH_ED_GOLDEN_AGE)
        for (int p = 0; p < st->nplayers; p++) {
            int placed = 0, ln = r->pl_line[p];
            for (int c = 0; c < st->ncompanies; c++)
                if (st->co[c].flag == p + 1) {
                    placed++;
                    if (r->co_line[c] > ln)
                        ln = r->co_line[c];
                }
            if (placed + st->pl[p].flags > 2)
                return rfail(r, ln ? ln : r->line, "player %d has %d flag%s on enterprises and %d left: each player has two",
                             p + 1, placed, placed == 1 ? "" : "s", st->pl[p].flags);
        }
    return CH_OK;
}

static int finish(rctx *r)
{
    ch_state *st = &r->st;
    int rc;
    int last = r->line;
    uint64_t rng[4];
    rng_seed(rng, st->seed ^ 0x706f736974696f6eull); /* "position" */
    /* Cards of built plots that no line placed are discarded (they were played). */
    for (int x = 0; x < BRD(st)->nplots; x++) {
        int c = st->plot_card[x];
        if (c == CH_NONE || r->placed[c] || !st->height[x] || (st->pflags[x] & CH_PF_FREE))
            continue;
        if (r->npile[PILE_DISCARD] >= CH_MAX_CARDS)
            return rfail(r, last, "too many cards");
        r->pile[PILE_DISCARD][r->npile[PILE_DISCARD]++] = c; /* at the bottom */
        r->placed[c] = r->plot_line[x];
    }
    /* no market line: a market dealt at random; no reserve line (Building
     * Amsterdam): four level cards at random, as at the start */
    if (!r->pile_line[PILE_MARKET]) {
        r->npile[PILE_MARKET] = st->market_size;
        r->pile_line[PILE_MARKET] = last;
        for (int i = 0; i < st->market_size; i++)
            r->pile[PILE_MARKET][i] = R_RANDOM;
    }
    if (st->edition == CH_ED_AMSTERDAM && !r->pile_line[PILE_RESERVE]) {
        r->pile_line[PILE_RESERVE] = last;
        for (int i = 0; i < CH_RESERVE_MAX; i++)
            r->pile[PILE_RESERVE][r->npile[PILE_RESERVE]++] = R_RANDOM;
    }
    /* shared names first, in the order read, then random cards */
    /* (random cards: the level reserve first, so that the hands cannot take
     * the level cards it must hold) */
    int order[2][11] = {{PILE_HAND0, PILE_HAND0 + 1, PILE_HAND0 + 2, PILE_HAND0 + 3, PILE_HAND0 + 4,
                         PILE_HAND0 + 5, PILE_MARKET, PILE_RESERVE, PILE_LOOK, PILE_DISCARD, PILE_DECK},
                        {PILE_RESERVE, PILE_HAND0, PILE_HAND0 + 1, PILE_HAND0 + 2, PILE_HAND0 + 3,
                         PILE_HAND0 + 4, PILE_HAND0 + 5, PILE_MARKET, PILE_LOOK, PILE_DISCARD, PILE_DECK}};
    for (int pass = 0; pass < 2; pass++) {
        /* once the named cards are placed, and before any is dealt at random */
        if (pass == 1 && (rc = levels_played(r)))
            return rc;
        /* A hand with more random cards than its bound on hidden level cards
         * (hidden-levels) holds plot cards in the other slots: those are
         * dealt first, from the plot cards, so that no other hand takes the
         * last ones and leaves it only level cards (issue 28: a seat's copy
         * in four failed so, as the deal does not backtrack). */
        for (int p = 0; pass == 1 && p < st->nplayers; p++) {
            int pile = PILE_HAND0 + p, nrand = 0;
            for (int i = 0; i < r->npile[pile]; i++)
                nrand += r->pile[pile][i] == R_RANDOM;
            int must = r->hl_given[p] ? nrand - st->pl[p].hidden_levels : 0;
            for (int i = 0; i < r->npile[pile] && must > 0; i++) {
                if (r->pile[pile][i] != R_RANDOM)
                    continue;
                int c = 0;
                r->plots_only = 1;
                rc = take(r, R_RANDOM, rng, 3 + p, r->pile_line[pile], &c);
                r->plots_only = 0;
                if (rc)
                    return rc;
                r->pile[pile][i] = c;
                must--;
            }
        }
        for (int k = 0; k < 11; k++) {
            int pile = order[pass][k];
            if (pile >= PILE_HAND0 + st->nplayers)
                continue;
            for (int i = 0; i < r->npile[pile]; i++) {
                int v = r->pile[pile][i];
                if (v >= 0 || v >= CH_NONE + 1000 || (pass == 0) != (v <= R_SHARED))
                    continue;
                int c = 0;
                int how = pile == PILE_RESERVE ? 2 : pile >= PILE_HAND0 ? 3 + pile - PILE_HAND0 : 0;
                if ((rc = take(r, v, rng, how, r->pile_line[pile], &c)))
                    return rc;
                r->pile[pile][i] = c;
            }
        }
    }
    /* the deck: as listed (top first), then the rest shuffled */
    uint8_t rest[CH_MAX_CARDS];
    int nrest = 0;
    for (int c = 0; c < st->ncards; c++)
        if (!r->placed[c] && st->loc[c] != CH_LOC_UNUSED)
            rest[nrest++] = (uint8_t)c;
    if (nrest && !r->deck_rest) {
        char name[JNAME_LEN];
        snprintf(name, sizeof name, "%s", r->cn.n[rest[0]]);
        return rfail(r, r->pile_line[PILE_DECK], "%d cards are placed nowhere (%s%s): list them or end the deck with 'random'",
                     nrest, name, nrest > 1 ? ", ..." : "");
    }
    rng_shuffle(rng, rest, nrest);
    /* write the piles into the state */
    for (int c = 0; c < st->ncards; c++)
        if (st->loc[c] != CH_LOC_UNUSED)
            st->loc[c] = CH_LOC_DECK;
    st->ndeck = 0;
    for (int i = 0; i < nrest; i++)
        st->deck[st->ndeck++] = rest[i];
    for (int i = r->npile[PILE_DECK] - 1; i >= 0; i--)
        st->deck[st->ndeck++] = (uint8_t)r->pile[PILE_DECK][i];
    if (r->deck_top_line) {
        /* what the printed rules' card backs show of the top card (Ruling
           G-07): a listed top card must be of that kind; a dealt one is
           drawn at random among the dealt cards of that kind */
        const char *kind = r->deck_top ? "an event card" : "a building card";
        if (st->edition != CH_ED_GOLDEN_AGE || st->preset != CH_GA_PRINTED || !st->events_on)
            return rfail(r, r->deck_top_line, "deck-top is seen only in The Golden Age's printed "
                         "rules with event cards (the first rules' backs are all alike)");
        if (st->ndeck == 0)
            return rfail(r, r->deck_top_line, "deck-top of an empty deck");
        int nk = 0;
        for (int i = 0; i < nrest; i++)
            nk += (st->card_event[rest[i]] != 0) == r->deck_top;
        if (r->npile[PILE_DECK] > 0 &&
            (st->card_event[st->deck[st->ndeck - 1]] != 0) != r->deck_top)
            return rfail(r, r->deck_top_line, "the deck's top card %s is not %s",
                         r->cn.n[st->deck[st->ndeck - 1]], kind);
        if (r->npile[PILE_DECK] == 0 && nk == 0)
            return rfail(r, r->deck_top_line, "no card dealt to the deck is %s", kind);
        for (int i = 0, pick = r->npile[PILE_DECK] ? -1 : (int)rng_below(rng, (uint32_t)nk);
             i < nrest && pick >= 0; i++)
            if ((st->card_event[st->deck[i]] != 0) == r->deck_top && pick-- == 0) {
                uint8_t t = st->deck[i];
                st->deck[i] = st->deck[st->ndeck - 1];
                st->deck[st->ndeck - 1] = t;
            }
    }
    st->ndiscard = 0;
    for (int i = r->npile[PILE_DISCARD] - 1; i >= 0; i--) {
        /* cards a built plot sent here sit below the listed ones */
        st->discard[st->ndiscard++] = (uint8_t)r->pile[PILE_DISCARD][i];
    }
    /* (the auto-discarded cards were appended after the listed ones, so they
     * came out first: at the bottom) */
    for (int i = 0; i < st->ndiscard; i++)
        st->loc[st->discard[i]] = CH_LOC_DISCARD;
    if (r->npile[PILE_RESERVE] > CH_RESERVE_MAX)
        return rfail(r, r->pile_line[PILE_RESERVE], "the level reserve holds at most %d cards", CH_RESERVE_MAX);
    st->nreserve = 0;
    int room[6] = {0, 0, 2, 1, 1, 0};
    for (int i = r->npile[PILE_RESERVE] - 1; i >= 0; i--) {
        int c = r->pile[PILE_RESERVE][i];
        if (!st->card_level[c])
            return rfail(r, r->pile_line[PILE_RESERVE], "the level reserve holds level cards only, not %s", r->cn.n[c]);
        if (room[st->card_level[c]]-- <= 0)
            return rfail(r, r->pile_line[PILE_RESERVE], "the level reserve holds at most two second-level cards, one "
                         "third and one fourth, as setup set it aside (Setup, step 4), so not %s", r->cn.n[c]);
        st->reserve[st->nreserve++] = (uint8_t)c;
        st->loc[c] = CH_LOC_RESERVE;
    }
    if (r->npile[PILE_LOOK] > 10)
        return rfail(r, r->pile_line[PILE_LOOK], "at most 10 cards are looked at");
    st->nlook = 0;
    for (int i = 0; i < r->npile[PILE_LOOK]; i++) {
        st->look[st->nlook++] = (uint8_t)r->pile[PILE_LOOK][i];
        st->loc[r->pile[PILE_LOOK][i]] = CH_LOC_LOOK;
    }
    for (int i = 0; i < CH_MARKET_MAX; i++)
        st->market[i] = CH_NONE;
    {
        for (int i = 0; i < st->market_size && i < CH_MARKET_MAX; i++) {
            int c = r->pile[PILE_MARKET][i];
            if (c >= CH_NONE + 1000)
                continue;
            if (st->card_event[c])
                return rfail(r, r->pile_line[PILE_MARKET], "an event card is never in the market");
            st->market[i] = (uint8_t)c;
            st->loc[c] = CH_LOC_MARKET;
        }
    }
    for (int p = 0; p < st->nplayers; p++) {
        int pile = PILE_HAND0 + p, lv = 0;
        memset(st->pl[p].hand, 0, sizeof st->pl[p].hand);
        if (r->npile[pile] > st->max_hand)
            return rfail(r, r->pile_line[pile], "player %d holds %d cards: the hand limit is %d", p + 1,
                         r->npile[pile], st->max_hand);
        for (int i = 0; i < r->npile[pile]; i++) {
            int c = r->pile[pile][i];
            if (st->card_event[c])
                return rfail(r, r->pile_line[pile], "an event card is never held in a hand");
            bs_set(st->pl[p].hand, c);
            st->loc[c] = (uint8_t)(CH_LOC_HAND + p);
            if (st->card_level[c] && !bs_has(r->known[p], c))
                lv++;
        }
        for (int c = 0; c < st->ncards; c++)
            if (bs_has(r->known[p], c) && !bs_has(st->pl[p].hand, c))
                return rfail(r, r->known_line[p], "%s is known to be in player %d's hand but is not there",
                             r->cn.n[c], p + 1);
        memcpy(st->pl[p].known, r->known[p], sizeof st->pl[p].known);
        if (!r->hl_given[p])
            st->pl[p].hidden_levels = (uint8_t)lv;
    }
    /* a built plot's card is played: not in the deck, the market or the reserve */
    for (int x = 0; x < BRD(st)->nplots; x++) {
        int c = st->plot_card[x];
        if (c == CH_NONE || !st->height[x] || (st->pflags[x] & CH_PF_FREE))
            continue;
        if (st->loc[c] != CH_LOC_DISCARD && st->loc[c] < CH_LOC_HAND)
            return rfail(r, r->plot_line[x], "%s is built, so its card cannot be in the %s", r->pn.n[x],
                         st->loc[c] == CH_LOC_MARKET ? "market" : st->loc[c] == CH_LOC_LOOK ? "cards looked at" : "deck");
    }
    /* stock events: 3 of each kind, open, discarded, in the deck or being resolved */
    if (st->edition == CH_ED_AMSTERDAM) {
        int left[CH_EV_KINDS] = {3, 3, 3, 3, 3};
        if (st->nevent_open == 0 && st->nev_deck == 0) /* a variant without stock events */
            memset(left, 0, sizeof left);
        int ln = r->ev_open_line ? r->ev_open_line : r->ev_deck_line ? r->ev_deck_line : last;
        for (int i = 0; i < st->nevent_open; i++)
            if (r->ev_open[i] >= 0)
                left[r->ev_open[i]]--;
        for (int i = 0; i < r->nev_discard; i++)
            left[r->ev_discard[i]]--;
        for (int i = 0; i < r->nev_deck; i++)
            left[r->ev_deck[i]]--;
        if (st->ev_kind != CH_NONE)
            left[st->ev_kind % CH_EV_KINDS]--;
        for (int k = 0; k < CH_EV_KINDS; k++)
            if (left[k] < 0)
                return rfail(r, ln, "there are only 3 %s cards", ch_event_name(k));
        uint8_t pool[CH_EVENT_CARDS];
        int np = 0;
        for (int k = 0; k < CH_EV_KINDS; k++)
            for (int i = 0; i < left[k]; i++)
                pool[np++] = (uint8_t)k;
        rng_shuffle(rng, pool, np);
        int used = 0;
#define EV_ID(k) ((uint8_t)(k)) /* the piles hold event kinds */
        for (int i = 0; i < CH_EVENT_OPEN_MAX; i++) {
            st->ev_open[i] = CH_NONE;
            if (i >= st->nevent_open || r->ev_open[i] == -1)
                continue;
            int k = r->ev_open[i];
            if (k == -2) {
                if (used >= np)
                    continue;
                k = pool[used];
                used++;
            }
            st->ev_open[i] = EV_ID(k);
        }
        st->nev_discard = 0;
        for (int i = r->nev_discard - 1; i >= 0; i--)
            st->ev_discard[st->nev_discard++] = EV_ID(r->ev_discard[i]);
        if (used < np && !r->ev_deck_rest)
            return rfail(r, r->ev_deck_line, "%d stock event cards are placed nowhere: list them or end events-deck with 'random'",
                         np - used);
        st->nev_deck = 0;
        for (; used < np; used++)
            st->ev_deck[st->nev_deck++] = EV_ID(pool[used]);
        for (int i = r->nev_deck - 1; i >= 0; i--)
            st->ev_deck[st->nev_deck++] = EV_ID(r->ev_deck[i]);
#undef EV_ID
    }
    /* worked out, never written: the supply, the roofs left, the bank's
     * stocks and the money ledger */
    int ga = st->edition == CH_ED_GOLDEN_AGE, on_board = 0, roofs_on = 0;
    for (int x = 0; x < BRD(st)->nplots; x++) {
        on_board += st->height[x] - (ga && (st->pflags[x] & CH_PF_HQ) ? 1 : 0);
        if ((st->pflags[x] & CH_PF_UPSIDE) && !(st->pflags[x] & CH_PF_NOPIECE))
            on_board++;
        roofs_on += (st->pflags[x] & CH_PF_ROOF) != 0;
        if (on_board > st->warehouses_total)
            return rfail(r, r->plot_line[x], "more than the %d warehouses of the game are on the board",
                         st->warehouses_total);
    }
    st->supply = (uint8_t)(st->warehouses_total - on_board);
    int roofs = roofs_on;
    for (int p = 0; p < st->nplayers; p++)
        roofs += st->pl[p].roofs;
    if (roofs > st->roofs_total)
        return rfail(r, last, "%d broken roofs are held or on the board; the game has %d", roofs, st->roofs_total);
    st->roofs_left = (uint8_t)(st->roofs_total - roofs);
    /* hidden holdings (a Golden Age player's copy): dealt at random among the
     * players whose stocks are hidden */
    int hidden[CH_MAX_PLAYERS], nh = 0;
    for (int p = 0; p < st->nplayers; p++)
        if (r->stock_hidden[p])
            hidden[nh++] = p;
    for (int c = 0; c < st->ncompanies; c++)
        if (r->hidden_total[c] && !nh)
            return rfail(r, r->hidden_line, "hidden holdings need players whose stocks are hidden ('stocks P hidden')");
    /* (a stock-sale event's deciding seller keeps cards to sell: issue 28) */
    ga_deal_stocks(st, hidden, nh, r->hidden_total, rng);
    for (int c = 0; c < st->ncompanies; c++) {
        int held = 0;
        for (int p = 0; p < st->nplayers; p++) {
            held += st->pl[p].stock[c];
            if (held > ED(st)->stocks)
                return rfail(r, r->stock_line[p] ? r->stock_line[p] : r->hidden_line, "more than the %d stock cards of %s are held", ED(st)->stocks,
                             ch_company_name(st, c));
        }
        st->co[c].bank = (uint8_t)(ED(st)->stocks - held);
        const ch_company *co = &st->co[c];
        int ln = r->co_line[c] ? r->co_line[c] : last;
        if (co->on_chart && co->hq == CH_NONE)
            return rfail(r, ln, "%s is on the chart but its HQ is on no plot (add hq to one of its plots)",
                         ch_company_name(st, c));
        if (!co->on_chart && co->hq != CH_NONE && st->phase != CH_PH_FOUND)
            return rfail(r, r->plot_line[co->hq], "%s has its HQ on the board but is not on the chart (company %s fVALUE)",
                         ch_company_name(st, c), ch_company_name(st, c));
        if (co->flag && !co->on_chart)
            return rfail(r, ln, "a flag stands only on an enterprise on the board");
    }
    for (int x = 0; x < BRD(st)->nplots; x++)
        if (st->owner[x] != CH_NONE && !st->co[st->owner[x]].on_chart && st->phase != CH_PH_FOUND)
            return rfail(r, r->plot_line[x], "%s belongs to %s, which is not on the chart: add 'company %s fVALUE'",
                         r->pn.n[x], ch_company_name(st, st->owner[x]), ch_company_name(st, st->owner[x]));
    int64_t cash = 0;
    for (int p = 0; p < st->nplayers; p++)
        cash += st->pl[p].cash;
    st->bank_net = st->total_money - cash;
    if (r->rng_given)
        memcpy(st->rng, r->rng, sizeof st->rng);
    else
        memcpy(st->rng, rng, sizeof st->rng);
    board_rebuild(st); /* the board caches (pieces, lone warehouses, spacing zone) */
    offer_cache_sync(st); /* an offer being built: what it may ask for */
    if (st->phase == CH_PH_OVER)
        st->over = 1;
    /* every connected group: exactly one company, or one lone warehouse */
    int building = st->phase == CH_PH_HQ || st->phase == CH_PH_FOUND || st->phase == CH_PH_CREDIT ||
                   st->phase == CH_PH_MERGE || st->phase == CH_PH_MERGE_SELL || st->phase == CH_PH_FREE;
    ch_msg why;
    if (!building) {
        for (int x = 0; x < BRD(st)->nplots; x++) {
            if (!has_piece(st, x))
                continue;
            if (ga && st->owner[x] == CH_NONE)
                return rfail(r, r->plot_line[x], "a warehouse at %s belongs to no enterprise (The Golden Age has no lone warehouses)",
                             r->pn.n[x]);
            for (int i = 0; i < BRD(st)->deg[x]; i++) {
                int y = BRD(st)->adj[x][i];
                if (!has_piece(st, y) || st->owner[x] == st->owner[y]) {
                    if (has_piece(st, y) && st->owner[x] == CH_NONE)
                        return rfail(r, r->plot_line[x] > r->plot_line[y] ? r->plot_line[x] : r->plot_line[y],
                                     "lone warehouses on %s and %s touch: together they are a company (name it on both)",
                                     r->pn.n[x], r->pn.n[y]);
                    continue;
                }
                return rfail(r, r->plot_line[x] > r->plot_line[y] ? r->plot_line[x] : r->plot_line[y],
                             "%s and %s touch, so they are one group, but belong to %s and %s",
                             r->pn.n[x], r->pn.n[y],
                             st->owner[x] == CH_NONE ? "no company" : ch_company_name(st, st->owner[x]),
                             st->owner[y] == CH_NONE ? "no company" : ch_company_name(st, st->owner[y]));
            }
        }
    }
    if (!building && (rc = companies_whole(r)))
        return rc;
    if ((rc = ch_validate(st, &why)) != CH_OK)
        return rfail(r, r->turn_line ? r->turn_line : last, "impossible position: %s", why.text);
    unsigned mask;
    ch_decider_kind k = ch_decider(st, &mask);
    if (k != CH_DEC_TERMINAL) {
        for (int p = 0; p < st->nplayers; p++)
            if ((mask >> p & 1) && ch_legal(st, p, NULL, 0) == 0)
                return rfail(r, r->turn_line ? r->turn_line : last,
                             "player %d is to decide (%s) but has no legal move", p + 1, ch_phase_name(st->phase));
    }
    return CH_OK;
}

int ch_position_read(ch_state *out, const char *text, size_t len, const char *file, ch_msg *err)
{
    if (!out || !text)
        return fail(err, CH_EINVAL, "ch_position_read needs a state and a text");
    rctx *r = calloc(1, sizeof *r);
    if (!r)
        return fail(err, CH_ENOMEM, "out of memory");
    r->file = file ? file : "position";
    r->err = err;
    r->edition = CH_ED_AMSTERDAM;
    int rc = CH_OK;
    size_t i = 0;
    char line[4096];
    while (i < len && rc == CH_OK) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        r->line++;
        size_t n = j - i;
        if (n >= sizeof line) {
            rc = rfail(r, r->line, "line too long (at most %zu characters)", sizeof line - 1);
            break;
        }
        memcpy(line, text + i, n);
        line[n] = '\0';
        i = j + 1;
        if (memchr(line, '\0', n)) {
            rc = rfail(r, r->line, "a NUL byte in the text");
            break;
        }
        char *hash = strchr(line, '#');
        /* '#' starts a comment, unless it is part of a card name ("L2#97") */
        while (hash && hash > line && hash[-1] != ' ' && hash[-1] != '\t')
            hash = strchr(hash + 1, '#');
        if (hash)
            *hash = '\0';
        char *e = line + strlen(line);
        while (e > line && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            *--e = '\0';
        const char *s = line;
        char key[64];
        if (!word(&s, key, sizeof key))
            continue;
        for (char *k = key; *k; k++)
            *k = (char)tolower((unsigned char)*k);
        if (!strcmp(key, "edition") || !strcmp(key, "arrangement") || !strcmp(key, "players") ||
            !strcmp(key, "preset") || !strcmp(key, "events") || !strcmp(key, "seed") || !strcmp(key, "first") ||
            !strcmp(key, "open") || !strcmp(key, "hand-limit") || !strcmp(key, "warehouses") ||
            !strcmp(key, "price") || !strcmp(key, "end")) {
            rc = header_line(r, key, s);
            continue;
        }
        if ((rc = start(r)))
            break;
        rc = body_line(r, key, s);
    }
    if (rc == CH_OK && !r->started)
        rc = start(r);
    if (rc == CH_OK)
        rc = finish(r);
    if (rc == CH_OK)
        memcpy(out, &r->st, sizeof *out);
    free(r);
    return rc;
}
