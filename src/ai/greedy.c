/* greedy.c: the greedy policy, for both editions.
 *
 * Most decisions are one-step lookahead: each legal move is applied to a copy
 * of the position (ch_apply_fast), the builder's own follow-up choices of the
 * same build (HQ plot, company to found, credit, merge order, free lots,
 * everyone's merger sales) are filled in by simple defaults, and the result is
 * scored by ai_eval (eval.c). (With ai_params.topm > 0, plays are first
 * ranked by a static estimate of their payout and only the best topm are
 * looked at in full; the default 0 looks at all, which tuning found better
 * and hardly slower.) Purchases are scored without peeking at the deck: a
 * card from the deck counts as the average card still to come.
 *
 * Where one step of lookahead says nothing, rules decide:
 *   - sealed bids (Verlappen, Aenleggen, Dreighinghe): a share of what the
 *     prize is worth to the bot, or of what it stands to lose, within its cash;
 *   - open auction bids (Veilinge): the minimum raise while the price stays
 *     under 85% of what the prize is worth to the bot, else pass;
 *   - the stock event to choose, the Veilinge option;
 *   - Coopmanscappen: at most one offer, to buy a stock the bank has run out
 *     of, at its value plus part of its expected growth; offers received are
 *     accepted when the lookahead says so (the relative evaluation declines
 *     offers that help the other side more).
 * Merger sales always sell (kept stocks are worth nothing unless the company
 * is founded again). Passing and turn option 3 cost a turn's worth (tempo),
 * and a pass that would end the game (stall rule) is never made while not
 * winning.
 * Among equally good moves (scores equal up to rounding) the choice is
 * uniformly random from ws->tie when it is set (the greedy bot: seeded, so
 * the same seed plays the same game); without it, the first in legal-move
 * order. Taking the first founded companies in index order: with four greedy
 * players Tobacco was on the chart at the end of 0.5% of games and Gunpowder
 * of 71% (issue 36; figures in docs/bots.md).
 *
 * This file also gives ISMCTS its candidate moves (ai_candidates) and its
 * move ranking (ai_greedy_scores). */
#include "ai.h"
#include <stddef.h>
#include <math.h>
#include <string.h>

#define NEG (-1e300)

static int is_build_subphase(int ph)
{
    return ph == CH_PH_HQ || ph == CH_PH_FOUND || ph == CH_PH_CREDIT || ph == CH_PH_MERGE ||
           ph == CH_PH_MERGE_SELL || ph == CH_PH_FREE;
}

/* Finish the build in progress with default choices, so that its payout and
 * value changes are on the table before the position is scored. */
static void continue_build(ch_state *s)
{
    ch_move b[256];
    for (int guard = 0; guard < 64 && !s->over && is_build_subphase(s->phase); guard++) {
        int d = ai_decider(s, -1);
        if (d < 0)
            return;
        int n = ch_legal(s, d, b, 256);
        if (n <= 0)
            return;
        if (n > 256)
            n = 256;
        int pick = 0;
        switch (s->phase) {
        case CH_PH_HQ:
            for (int i = 0; i < n; i++)
                if (b[i].type == CH_M_HQ) {
                    pick = i;
                    break;
                }
            break;
        case CH_PH_FOUND: {
            /* the company whose kept stocks the builder holds most of */
            int best = -1;
            for (int i = 0; i < n; i++) {
                int k = s->pl[s->active].stock[b[i].a];
                if (k > best) {
                    best = k;
                    pick = i;
                }
            }
            break;
        }
        case CH_PH_MERGE_SELL:
            pick = n - 1; /* sell them all */
            break;
        default:
            break;
        }
        ch_apply_fast(s, d, b[pick]);
    }
}

/* Whether the features of a and b are the same: everything ai_features_hint
 * reads apart from the deck (the board, the supply and the chart) is equal.
 * A stock trade, a pass or a sale changes none of it. */
static int same_features(const ch_state *a, const ch_state *b)
{
    /* height, owner, pflags and supply are adjacent bytes of ch_state */
    size_t from = offsetof(ch_state, height), to = offsetof(ch_state, supply) + sizeof a->supply;
    if (memcmp((const char *)a + from, (const char *)b + from, to - from))
        return 0;
    for (int c = 0; c < a->ncompanies; c++)
        if (a->co[c].value != b->co[c].value || a->co[c].on_chart != b->co[c].on_chart ||
            a->co[c].hq != b->co[c].hq)
            return 0;
    return 1;
}

/* ws->feat holds st's features (score_moves). A move that leaves them as
 * they are is scored with them instead of working them out again for the
 * new position: the same value (the deck's average is st's in both), at
 * a fraction of the cost. */
static double score_after(ai_ws *ws, const ch_state *st, int p, ch_move m)
{
    ws->tmp = *st;
    ch_apply_fast(&ws->tmp, p, m);
    continue_build(&ws->tmp);
    if (!ws->tmp.over && same_features(st, &ws->tmp))
        return ai_eval_extra(&ws->tmp, &ws->feat, &ws->prm, p, NULL, 0);
    return ai_eval_hint(&ws->tmp, &ws->prm, p, ws->feat.deck_avg);
}

/* ---- purchases ------------------------------------------------------------------------ */

typedef struct buyinfo {
    double avg;                 /* a card from the deck                         */
    int ndeck;
    double mval[CH_MARKET_MAX]; /* market cards                                 */
    int mcard[CH_MARKET_MAX];
    int room;                   /* cards the hand may still take                */
} buyinfo;

static void buy_info(const ch_state *st, const ai_feat *f, const ai_params *pr, int p, buyinfo *bi)
{
    double sum = 0;
    int k = 0;
    if (f->deck_n >= 0) {
        /* the features valued the deck already, in this order */
        sum = f->deck_sum;
        k = f->deck_n;
    } else {
        for (int i = 0; i < st->ndeck; i++) {
            int c = st->deck[i];
            if (st->card_event[c])
                continue;
            sum += ai_card_value(st, f, pr, c);
            k++;
        }
    }
    bi->avg = k ? sum / k : 0;
    bi->ndeck = st->ndeck;
    for (int i = 0; i < CH_MARKET_MAX; i++) {
        bi->mcard[i] = i < st->market_size ? st->market[i] : CH_NONE;
        bi->mval[i] = bi->mcard[i] != CH_NONE ? ai_card_value(st, f, pr, bi->mcard[i]) : 0;
    }
    int hc = ch_hand_count(st, p);
    bi->room = st->edition == CH_ED_GOLDEN_AGE ? 1 : st->max_hand - hc;
}

/* The best second card of a Building Amsterdam purchase, the first being
 * `first` (a market card id, or CH_NONE for a deck draw). */
static double second_card(const ch_state *st, const buyinfo *bi, int first)
{
    double best = NEG;
    int deck_left = bi->ndeck - (first == CH_NONE ? 1 : 0);
    if (deck_left > 0)
        best = bi->avg;
    for (int i = 0; i < CH_MARKET_MAX; i++) {
        int c = bi->mcard[i];
        if (c == CH_NONE || c == first || st->card_level[c])
            continue;
        if (bi->mval[i] > best)
            best = bi->mval[i];
    }
    return best;
}

static double market_value(const buyinfo *bi, int card)
{
    for (int i = 0; i < CH_MARKET_MAX; i++)
        if (bi->mcard[i] == card)
            return bi->mval[i];
    return 0;
}

/* Score of a purchase move, or NEG when m is not one. */
static double purchase_score(ai_ws *ws, const ch_state *st, int p, ch_move m, const buyinfo *bi)
{
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    int ph = st->phase;
    double extra[2];
    int nx = 0, cost = 0;
    if (m.type != CH_M_DRAW && m.type != CH_M_TAKE && m.type != CH_M_REFRESH)
        return NEG;
    int first_of_turn = ph == CH_PH_TURN || ph == CH_PH_FORCED;
    /* the game's prices (a variant may change them: docs/variants.md) */
    if (ga) {
        cost = m.type == CH_M_REFRESH ? st->prices.refresh + st->prices.purchase : st->prices.purchase;
        extra[nx++] = m.type == CH_M_TAKE ? market_value(bi, m.a) : bi->avg + (m.type == CH_M_REFRESH ? 10 : 0);
    } else if (!first_of_turn) {
        /* the second card of a purchase is free */
        extra[nx++] = m.type == CH_M_TAKE ? market_value(bi, m.a) : bi->avg;
    } else {
        cost = m.type == CH_M_REFRESH ? st->prices.refresh : st->prices.purchase;
        int two = bi->room >= 2;
        if (m.type == CH_M_REFRESH) {
            extra[nx++] = bi->avg + 5;
            if (two)
                extra[nx++] = bi->avg + 5;
        } else if (m.type == CH_M_DRAW) {
            extra[nx++] = bi->avg;
            if (two) {
                double s = second_card(st, bi, CH_NONE);
                if (s > NEG)
                    extra[nx++] = s;
            }
        } else {
            extra[nx++] = market_value(bi, m.a);
            if (two && !st->card_level[m.a]) {
                double s = second_card(st, bi, m.a);
                if (s > NEG)
                    extra[nx++] = s;
            }
        }
    }
    ws->tmp = *st;
    ws->tmp.pl[p].cash -= cost;
    /* the second card is optional: never count it below nothing */
    if (nx == 2 && extra[1] < 0)
        nx = 1;
    return ai_eval_extra(&ws->tmp, &ws->feat, &ws->prm, p, extra, nx);
}

/* ---- plays: a static estimate first --------------------------------------------------- */

static double play_static(const ch_state *st, const ai_feat *f, const ai_params *pr, int p, ch_move m)
{
    int card = m.a, k = st->card_level[card], c = CH_NONE;
    double v;
    if (k) {
        int y = m.b;
        c = y < ch_state_board(st)->nplots ? f->pcomp[y] : CH_NONE;
        if (c == CH_NONE || !f->value[c])
            return 1; /* a level on a lone warehouse pays nothing now */
        v = f->value[c] + 10 * k;
        if (v > f->maxv)
            v = f->maxv;
    } else {
        v = ai_card_value(st, f, pr, card);
        int x = m.b;
        const ch_board *b = ch_state_board(st);
        for (int i = 0; i < b->deg[x] && c == CH_NONE; i++) {
            int y = b->adj[x][i];
            c = f->pcomp[y];
        }
        if (m.c != CH_NONE) /* a two-card founding spends a second card */
            v -= pr->kappa * ai_card_value(st, f, pr, m.c);
    }
    if (c != CH_NONE && f->value[c]) {
        int mine = st->pl[p].stock[c], theirs = 0;
        for (int q = 0; q < st->nplayers; q++)
            if (q != p)
                theirs += st->pl[q].stock[c];
        if (m.n & 1) /* a broken roof: lower payout, hurts the holders */
            v = v - 60 + 0.5 * 50 * (theirs - 2 * mine);
        else
            v += 10 * mine - 3 * theirs;
    }
    return v;
}

/* What one turn is worth: about what a build pays. */
static double tempo(const ch_state *st, const ai_feat *f)
{
    double sum = 0;
    int k = 0;
    for (int c = 0; c < st->ncompanies; c++)
        if (f->value[c]) {
            sum += f->value[c];
            k++;
        }
    double avg = k ? sum / k : 0;
    return 10 + 0.25 * avg;
}

static double roof_gain(const ai_ws *ws, const ch_state *st, int p);
static double action_event_gain(ai_ws *ws, const ch_state *st, int p);
static double event_gain(ai_ws *ws, const ch_state *st, int p, int kind);

/* Score every move of the list (NEG for moves left out by the filter). */
static void score_moves(ai_ws *ws, const ch_state *st, int p, const ch_move *mv, int n,
                        double *score, int topm)
{
    int ph = st->phase;
    int buying = ph == CH_PH_TURN || ph == CH_PH_PURCHASE || ph == CH_PH_FORCED;
    ai_features(st, &ws->prm, &ws->feat);
    buyinfo bi = {0};
    if (buying)
        buy_info(st, &ws->feat, &ws->prm, p, &bi);
    /* static filter of plays */
    int nplay = 0;
    for (int i = 0; i < n; i++)
        if (mv[i].type == CH_M_PLAY)
            nplay++;
    double cut = NEG;
    if (topm > 0 && nplay > topm) {
        /* the topm-th best static score */
        double top[64];
        int k = topm < 64 ? topm : 64, nt = 0;
        for (int i = 0; i < n; i++) {
            if (mv[i].type != CH_M_PLAY)
                continue;
            double v = play_static(st, &ws->feat, &ws->prm, p, mv[i]);
            score[i] = v;
            if (nt < k) {
                int j = nt++;
                while (j > 0 && top[j - 1] < v) {
                    top[j] = top[j - 1];
                    j--;
                }
                top[j] = v;
            } else if (v > top[k - 1]) {
                int j = k - 1;
                while (j > 0 && top[j - 1] < v) {
                    top[j] = top[j - 1];
                    j--;
                }
                top[j] = v;
            }
        }
        cut = top[k - 1];
    }
    int kept = 0;
    for (int i = 0; i < n; i++) {
        ch_move m = mv[i];
        if (buying && (m.type == CH_M_DRAW || m.type == CH_M_TAKE || m.type == CH_M_REFRESH)) {
            score[i] = purchase_score(ws, st, p, m, &bi);
            continue;
        }
        if (m.type == CH_M_PLAY && cut > NEG) {
            /* keep the top ones (ties at the cut: the first few) */
            if (score[i] < cut || kept >= topm + 4) {
                score[i] = NEG;
                continue;
            }
            kept++;
        }
        score[i] = score_after(ws, st, p, m);
        /* a turn spent passing or only selling stocks is a turn lost */
        if (ph == CH_PH_TURN && (m.type == CH_M_PASS || m.type == CH_M_SELL))
            score[i] -= tempo(st, &ws->feat);
        /* never end the game with a pass (the stall rule) while not winning */
        if (ph == CH_PH_TURN && m.type == CH_M_PASS && ws->tmp.over) {
            unsigned w = 0;
            ch_scores(&ws->tmp, NULL, &w);
            if (!(w >> p & 1))
                score[i] = -1e12;
        }
        /* an action card: f100 for what the roof or the event will bring
         * (the lookahead sees only the cost) */
        /* (the event's gain counts half: it rests on guesses of the others'
         * bids and hidden hands; counted in full, four greedy players spent
         * 1.1 action cards a game on events and the deals-on seats won 24.0%
         * against 26.0%, 800 seats each) */
        if (m.type == CH_M_ACTION && ws->prm.deals)
            score[i] += m.a == 0 ? roof_gain(ws, st, p) : 0.5 * action_event_gain(ws, st, p);
    }
}

/* Two scores are equal when they differ by rounding only: the same position
 * reached through a different company index sums its terms in another order. */
static int same_score(double a, double b)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= 1e-9 * (m > 1 ? m : 1);
}

/* The best of n scores; ties broken by *tie (uniformly, by reservoir
 * sampling over the tied ones) or, without it, the first. */
static int pick_best(const double *s, int n, uint64_t *tie)
{
    int b = 0;
    for (int i = 1; i < n; i++)
        if (s[i] > s[b] && !same_score(s[i], s[b]))
            b = i;
    if (!tie)
        return b;
    int pick = b, seen = 0;
    for (int i = 0; i < n; i++)
        if (same_score(s[i], s[b]) && ai_below(tie, (uint32_t)++seen) == 0)
            pick = i;
    return pick;
}

/* ---- rules for bids, auctions, events, offers ---------------------------------------- */

static int32_t clamp32(double v, int32_t lo, int32_t hi)
{
    if (!(v > lo))
        return lo;
    if (v > hi)
        return hi;
    return (int32_t)v;
}

/* What winning the current sealed-bid event is worth to p (for Dreighinghe:
 * what p stands to lose if it bids lowest). */
static double bid_prize(ai_ws *ws, const ch_state *st, int p)
{
    const ai_feat *f = &ws->feat;
    const ai_params *pr = &ws->prm;
    switch (st->ev_kind) {
    case CH_EV_VERLAPPEN: {
        /* an extra turn: about the best card of the hand played once more */
        double best = 40;
        for (int w = 0; w < 2; w++)
            for (uint64_t bits = st->pl[p].hand[w]; bits; bits &= bits - 1) {
                double v = ai_card_value(st, f, pr, w * 64 + __builtin_ctzll(bits));
                if (v > best)
                    best = v;
            }
        return 0.5 * best * (f->frac > 0.05 ? 1.0 : 0.3);
    }
    case CH_EV_AENLEGGEN: {
        double best = 40;
        for (int k = 2; k <= 4; k++)
            if (f->best_lvl[k] > best)
                best = f->best_lvl[k];
        double with = best, without = 0;
        with = ai_player_value(st, f, pr, p, &with, 1);
        without = ai_player_value(st, f, pr, p, NULL, 0);
        return with - without;
    }
    case CH_EV_DREIGHINGHE: {
        /* the two stocks p would give up: the least worth */
        double w1 = 1e18, w2 = 1e18;
        int held = 0;
        for (int c = 0; c < st->ncompanies; c++)
            for (int k = 0; k < st->pl[p].stock[c] && k < 2; k++) {
                double w = f->worth[c];
                held++;
                if (w < w1) {
                    w2 = w1;
                    w1 = w;
                } else if (w < w2) {
                    w2 = w;
                }
            }
        if (!held)
            return 0;
        return held == 1 ? w1 : w1 + w2;
    }
    default:
        return 0;
    }
}

static int32_t greedy_bid_amount(ai_ws *ws, const ch_state *st, int p)
{
    double prize = bid_prize(ws, st, p);
    int32_t cash = st->pl[p].cash, jitter = p + 1;
    double b;
    /* a rebid must beat the tied amount while p can pay it (ch_bid_min) */
    int32_t lo = ch_bid_min(st, p);
    if (st->ev_kind == CH_EV_DREIGHINGHE) {
        if (prize < 10)
            return lo;
        b = 0.2 * prize;
        if (b > 0.15 * cash)
            b = 0.15 * cash;
    } else {
        b = (st->bid_round > 0 ? 0.3 : 0.5) * prize;
        if (b > cash - 50)
            b = cash - 50;
    }
    if (b < 1)
        return lo;
    return clamp32(floor(b / 10) * 10 + jitter, lo, cash);
}

/* What the prize of the running auction is worth to p. */
static double auction_worth(ai_ws *ws, const ch_state *st, int p)
{
    const ai_feat *f = &ws->feat;
    const ai_params *pr = &ws->prm;
    double base = ai_player_value(st, f, pr, p, NULL, 0);
    switch (st->au_option) {
    case 1:
    case 2:
        return st->au_item < st->ncompanies ? f->worth[st->au_item] : 0;
    case 3: {
        /* the best of ten cards: about the top tenth of the deck */
        double v[CH_MAX_CARDS];
        int n = 0;
        for (int i = 0; i < st->ndeck; i++)
            if (!st->card_event[st->deck[i]])
                v[n++] = ai_card_value(st, f, pr, st->deck[i]);
        if (!n)
            return 0;
        for (int i = 1; i < n; i++) { /* descending */
            double t = v[i];
            int j = i - 1;
            while (j >= 0 && v[j] < t) {
                v[j + 1] = v[j];
                j--;
            }
            v[j + 1] = t;
        }
        double top = v[n / 10];
        return ai_player_value(st, f, pr, p, &top, 1) - base;
    }
    case 4: {
        double best = 0;
        int seen = 0;
        for (int i = st->ndiscard - 1; i >= 0 && seen < 10; i--) {
            int c = st->discard[i];
            if (st->card_level[c] || st->card_event[c])
                continue;
            seen++;
            int x = st->card_plot[c], co = x < ch_state_board(st)->nplots ? f->pcomp[x] : CH_NONE;
            double v = co != CH_NONE && f->value[co] ? f->value[co] - 10.0 * st->pl[p].stock[co] : 5;
            if (v > best)
                best = v;
        }
        return 0.8 * (ai_player_value(st, f, pr, p, &best, 1) - base);
    }
    default:
        return 0;
    }
}

static ch_move mk(int type, int a, int b, int c, int32_t n)
{
    ch_move m = {(uint8_t)type, (uint8_t)a, (uint8_t)b, (uint8_t)c, n};
    return m;
}

static ch_move greedy_auction(ai_ws *ws, const ch_state *st, int p)
{
    double w = auction_worth(ws, st, p);
    double limit = 0.85 * w;
    if (limit > st->pl[p].cash - 20)
        limit = st->pl[p].cash - 20;
    int32_t next = st->au_high + 10;
    if (next <= limit && next <= st->pl[p].cash)
        return mk(CH_M_BID, 0, 0, 0, next);
    return mk(CH_M_PASS, 0, 0, 0, 0);
}

/* Which stock event to choose (rules of thumb). */
static double event_score(ai_ws *ws, const ch_state *st, int p, int kind)
{
    const ai_feat *f = &ws->feat;
    int32_t best_other = 0;
    for (int q = 0; q < st->nplayers; q++)
        if (q != p && st->pl[q].cash > best_other)
            best_other = st->pl[q].cash;
    int rich = st->pl[p].cash > best_other;
    switch (kind) {
    case CH_EV_VERLAPPEN:
        return rich ? 20 : -5;
    case CH_EV_AENLEGGEN:
        return rich ? 25 : -5;
    case CH_EV_DREIGHINGHE: {
        int mine = 0, theirs = 0;
        for (int c = 0; c < st->ncompanies; c++) {
            mine += st->pl[p].stock[c] && f->value[c];
            for (int q = 0; q < st->nplayers; q++)
                if (q != p)
                    theirs += st->pl[q].stock[c] && f->value[c];
        }
        return (!mine && theirs) ? 15 : rich ? 5 : -10;
    }
    case CH_EV_COOPMANSCAPPEN:
        return 0;
    case CH_EV_VEILINGE:
        return 8;
    default:
        return 2; /* the deck: anything */
    }
}

static ch_move greedy_event(ai_ws *ws, const ch_state *st, int p, const ch_move *mv, int n)
{
    for (int i = 0; i < n && i < AI_CAND; i++) {
        int kind = mv[i].a == CH_NONE ? -1 : mv[i].a;
        ws->score[i] = event_score(ws, st, p, kind);
        if (ws->prm.deals) /* what the active player stands to gain */
            ws->score[i] += event_gain(ws, st, p, kind);
    }
    return mv[pick_best(ws->score, n < AI_CAND ? n : AI_CAND, ws->tie)];
}

static ch_move greedy_veilinge(ai_ws *ws, const ch_state *st, int p, const ch_move *mv, int n)
{
    const ai_feat *f = &ws->feat;
    if (n > AI_CAND)
        n = AI_CAND;
    for (int i = 0; i < n; i++) {
        double s = NEG;
        ch_move m = mv[i];
        if (m.b == 1 && m.a < st->ncompanies)
            s = 0.4 * f->worth[m.a];
        else if (m.b == 2 && m.a < st->ncompanies)
            s = -0.15 * f->worth[m.a];
        else if (m.b == 3 || m.b == 4) {
            ch_state *t = &ws->tmp;
            *t = *st;
            t->au_option = m.b;
            double w = auction_worth(ws, t, p);
            s = (m.b == 3 ? 0.5 : 0.3) * w;
        }
        ws->score[i] = s;
    }
    return mv[pick_best(ws->score, n, ws->tie)];
}

/* ---- deals: trade offers and action cards that pay (ai_params.deals) ---------------------
 *
 * Coopmanscappen lets the active player offer any mix of cards, stocks and
 * money to one player at a time (Rulebook: Stock events, Coopmanscappen;
 * Rulings ). Under one evaluation for everybody a swap at a fair
 * price helps one side exactly as much as it hurts the other, so a deal pays
 * both only where the two value an item differently: a card is worth its
 * payout to a hand short of cards, a tenth of it to a hand that holds more
 * cards than its owner can still play (ai_hand_value); florins matter more
 * to a player short of cash (the liquidity term). The search tries, for each
 * partner, one item (a card of the bot's hand, a stock it holds, a stock the
 * partner holds: cards the partner holds are hidden, so none is asked for) at
 * a few prices around its worth, and keeps the deal that raises the bot's
 * relative evaluation most while raising the partner's own (as the bot sees
 * it) by a margin too, so that a greedy partner's lookahead accepts it. */

enum { DEAL_GIVE_CARD = 0, DEAL_GIVE_STOCK, DEAL_ASK_STOCK };
#define DEAL_MARGIN 8.0 /* florins of evaluation each side must gain */

typedef struct deal {
    int q, kind, item;
    int32_t price; /* paid by the partner (give) or to the partner (ask) */
    double gain;   /* the bot's relative evaluation, gained             */
} deal;

static void deal_apply(ch_state *t, int p, const deal *d)
{
    int q = d->q;
    switch (d->kind) {
    case DEAL_GIVE_CARD:
        t->pl[p].hand[d->item >> 6] &= ~((uint64_t)1 << (d->item & 63));
        t->pl[q].hand[d->item >> 6] |= (uint64_t)1 << (d->item & 63);
        t->pl[p].cash += d->price;
        t->pl[q].cash -= d->price;
        break;
    case DEAL_GIVE_STOCK:
        t->pl[p].stock[d->item]--;
        t->pl[q].stock[d->item]++;
        t->pl[p].cash += d->price;
        t->pl[q].cash -= d->price;
        break;
    default:
        t->pl[q].stock[d->item]--;
        t->pl[p].stock[d->item]++;
        t->pl[p].cash -= d->price;
        t->pl[q].cash += d->price;
        break;
    }
}

/* Whether the deal can be delivered: the payer has the money, no hand goes
 * past the limit. */
static int deal_ok(const ch_state *st, int p, const deal *d)
{
    if (d->price < 1)
        return 0;
    if (d->kind == DEAL_ASK_STOCK)
        return st->pl[p].cash >= d->price && st->pl[d->q].stock[d->item] > 0;
    if (st->pl[d->q].cash < d->price)
        return 0;
    if (d->kind == DEAL_GIVE_STOCK)
        return st->pl[p].stock[d->item] > 0;
    return (st->pl[p].hand[d->item >> 6] >> (d->item & 63) & 1) &&
           ch_hand_count(st, d->q) < st->max_hand;
}

/* The relative evaluation of p from every player's value (as eval.c's). */
static double deal_rel(const ch_state *st, const ai_params *pr, int p, const double *val)
{
    int np = st->nplayers;
    double best = -1e18, sum = 0;
    for (int q = 0; q < np; q++) {
        if (q == p)
            continue;
        sum += val[q];
        if (val[q] > best)
            best = val[q];
    }
    double beta = st->edition == CH_ED_GOLDEN_AGE ? pr->beta_ga : pr->beta;
    return val[p] - beta * (np > 1 ? 0.5 * best + 0.5 * sum / (np - 1) : 0);
}

/* The best price for one item with partner d->q (d->gain set; 0 when no
 * price pays both sides). ws->feat must hold st's features and val every
 * player's value in st: a deal changes only those of p and q. */
static int deal_price(ai_ws *ws, const ch_state *st, int p, deal *d, const double *val)
{
    static const double frac[] = {0.3, 0.5, 0.7, 0.9, 1.1, 1.3};
    const ai_feat *f = &ws->feat;
    const ai_params *pr = &ws->prm;
    int q = d->q;
    double ref = d->kind == DEAL_GIVE_CARD ? pr->kappa * ai_card_value(st, f, pr, d->item)
                                           : f->worth[d->item];
    if (ref < 20)
        ref = 20;
    double base_p = deal_rel(st, pr, p, val), base_q = deal_rel(st, pr, q, val);
    double v[CH_MAX_PLAYERS];
    memcpy(v, val, sizeof v);
    deal best = *d;
    best.gain = 0;
    int found = 0;
    for (size_t i = 0; i < sizeof frac / sizeof frac[0]; i++) {
        deal c = *d;
        c.price = (int32_t)(ref * frac[i] / 5 + 0.5) * 5;
        if (!deal_ok(st, p, &c))
            continue;
        ws->tmp = *st;
        deal_apply(&ws->tmp, p, &c);
        v[p] = ai_player_value(&ws->tmp, f, pr, p, NULL, 0);
        v[q] = ai_player_value(&ws->tmp, f, pr, q, NULL, 0);
        double gp = deal_rel(st, pr, p, v) - base_p, gq = deal_rel(st, pr, q, v) - base_q;
        if (gp > DEAL_MARGIN && gq > DEAL_MARGIN && gp > best.gain) {
            c.gain = gp;
            best = c;
            found = 1;
        }
    }
    *d = best;
    return found;
}

/* Every player's value in st (ws->feat: st's features). */
static void deal_values(ai_ws *ws, const ch_state *st, double *val)
{
    for (int q = 0; q < st->nplayers; q++)
        val[q] = ai_player_value(st, &ws->feat, &ws->prm, q, NULL, 0);
}

/* The best deal of p with partner q (gain 0: none). ws->feat must hold st's
 * features, val every player's value. */
static deal deal_best_with(ai_ws *ws, const ch_state *st, int p, int q, const double *val)
{
    deal best = {q, 0, 0, 0, 0};
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = st->pl[p].hand[w]; bits; bits &= bits - 1) {
            deal d = {q, DEAL_GIVE_CARD, w * 64 + __builtin_ctzll(bits), 0, 0};
            if (deal_price(ws, st, p, &d, val) && d.gain > best.gain)
                best = d;
        }
    for (int c = 0; c < st->ncompanies; c++) {
        if (!ws->feat.value[c])
            continue;
        deal g = {q, DEAL_GIVE_STOCK, c, 0, 0}, a = {q, DEAL_ASK_STOCK, c, 0, 0};
        if (st->pl[p].stock[c] && deal_price(ws, st, p, &g, val) && g.gain > best.gain)
            best = g;
        if (st->pl[q].stock[c] && deal_price(ws, st, p, &a, val) && a.gain > best.gain)
            best = a;
    }
    return best;
}

/* The best deal of p with every other player, ranked: out[0] the best (up
 * to nplayers - 1 of them, only those with a gain); returns how many. */
static int deal_ranking(ai_ws *ws, const ch_state *st, int p, deal *out)
{
    int n = 0;
    double val[CH_MAX_PLAYERS];
    deal_values(ws, st, val);
    for (int q = 0; q < st->nplayers; q++) {
        if (q == p)
            continue;
        deal d = deal_best_with(ws, st, p, q, val);
        if (d.gain <= 0)
            continue;
        int j = n++;
        while (j > 0 && out[j - 1].gain < d.gain) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = d;
    }
    return n;
}

/* What a Dreighinghe would gain p (relative evaluation): every player bids
 * as greedy bids (a fifth of what their two cheapest stocks are worth, at
 * most 15% of their cash) and pays it; the lowest bidder loses those two
 * stocks (Rulebook: Stock events, Dreighinghe; Rulings ). */
static double dreighinghe_gain(const ai_ws *ws, const ch_state *st, int p)
{
    const ai_feat *f = &ws->feat;
    double prize[CH_MAX_PLAYERS], bid[CH_MAX_PLAYERS], loss[CH_MAX_PLAYERS];
    int low = 0;
    for (int q = 0; q < st->nplayers; q++) {
        double w1 = 1e18, w2 = 1e18;
        int held = 0;
        for (int c = 0; c < st->ncompanies; c++)
            for (int k = 0; k < st->pl[q].stock[c] && k < 2; k++) {
                double w = f->worth[c];
                held++;
                if (w < w1) {
                    w2 = w1;
                    w1 = w;
                } else if (w < w2) {
                    w2 = w;
                }
            }
        prize[q] = !held ? 0 : held == 1 ? w1 : w1 + w2;
        bid[q] = prize[q] < 10 ? 0 : 0.2 * prize[q];
        if (bid[q] > 0.15 * st->pl[q].cash)
            bid[q] = 0.15 * st->pl[q].cash;
        if (bid[q] < bid[low])
            low = q;
    }
    double best = 0, sum = 0;
    for (int q = 0; q < st->nplayers; q++) {
        loss[q] = bid[q] + (q == low ? prize[q] : 0);
        if (q != p) {
            sum += loss[q];
            if (loss[q] > best)
                best = loss[q];
        }
    }
    double beta = st->edition == CH_ED_GOLDEN_AGE ? ws->prm.beta_ga : ws->prm.beta;
    return -loss[p] + beta * (0.5 * best + 0.5 * sum / (st->nplayers - 1));
}

/* What activating stock event `kind` now would gain p, the active player
 * (-1: the top card of the deck, unknown: 0). Only two kinds favour the
 * player who activates them: Coopmanscappen (only they make offers) and
 * Dreighinghe (it costs those who hold stocks); the others are sealed bids
 * or auctions open to all. ws->feat must hold st's features. */
static double event_gain(ai_ws *ws, const ch_state *st, int p, int kind)
{
    if (kind == CH_EV_COOPMANSCAPPEN) {
        deal d[CH_MAX_PLAYERS];
        double sum = 0;
        int n = deal_ranking(ws, st, p, d);
        for (int i = 0; i < n; i++)
            sum += d[i].gain;
        return sum;
    }
    if (kind == CH_EV_DREIGHINGHE)
        return dreighinghe_gain(ws, st, p);
    return 0;
}

/* What an action card's stock event would gain p: the best of the open
 * events (the top of the deck, unknown, gains nothing); Rulebook: Action
 * cards, 2) Stock events. */
static double action_event_gain(ai_ws *ws, const ch_state *st, int p)
{
    double best = 0;
    for (int i = 0; i < st->nevent_open; i++)
        if (st->ev_open[i] != CH_NONE) {
            double g = event_gain(ws, st, p, st->ev_open[i]);
            if (g > best)
                best = g;
        }
    return best;
}

/* What holding one more broken roof is worth to p: a roofed build pays f60
 * less than a plain one and takes f60 off the company's value (at most down
 * to the floor), which costs the holders of its stocks; it pays where the
 * others hold many more of a company's stocks than p (Rulebook: Action
 * cards, 1) Broken roofs; Rulings ). Half the best such company's
 * gain, as the roof waits for a card that builds on it and the company may
 * change; a second roof held is worth less. */
static double roof_gain(const ai_ws *ws, const ch_state *st, int p)
{
    const ai_feat *f = &ws->feat;
    double beta = st->edition == CH_ED_GOLDEN_AGE ? ws->prm.beta_ga : ws->prm.beta, best = 0;
    int np = st->nplayers;
    for (int c = 0; c < st->ncompanies; c++) {
        if (!f->value[c] || f->value[c] <= f->minv)
            continue;
        double drop = f->value[c] + 10 - f->minv;
        if (drop > 60)
            drop = 60;
        int most = 0, all = 0;
        for (int q = 0; q < np; q++)
            if (q != p) {
                all += st->pl[q].stock[c];
                if (st->pl[q].stock[c] > most)
                    most = st->pl[q].stock[c];
            }
        double g = drop * (beta * (0.5 * most + 0.5 * all / (double)(np - 1)) - st->pl[p].stock[c] - 1);
        if (g > best)
            best = g;
    }
    double late = f->frac < 0.5 ? 2 * f->frac : 1; /* fewer builds left to use it */
    return 0.5 * best * late / (1 + st->pl[p].roofs);
}

/* Coopmanscappen: the stock of company c that p would buy from q, at *price;
 * returns c, or -1 when there is no such deal. */
static int coop_deal(ai_ws *ws, const ch_state *st, int p, int q, int32_t *price)
{
    const ai_feat *f = &ws->feat;
    int best = -1;
    double gain = 30;
    for (int c = 0; c < st->ncompanies; c++) {
        if (!f->value[c] || st->co[c].bank > 0 || !st->pl[q].stock[c])
            continue;
        double g = ws->prm.lambda * f->growth[c];
        int32_t pr = (int32_t)(f->value[c] + 0.6 * g);
        if (g > gain && st->pl[p].cash >= pr + 60) {
            gain = g;
            best = c;
            *price = pr;
        }
    }
    return best;
}

static int in_list(const ch_move *mv, int n, ch_move m)
{
    for (int i = 0; i < n; i++)
        if (ai_same_move(mv[i], m))
            return 1;
    return 0;
}

static ch_move greedy_coop(ai_ws *ws, const ch_state *st, int p, const ch_move *mv, int n)
{
    ch_move done = mk(CH_M_DONE, 0, 0, 0, 0), withdraw = mk(CH_M_WITHDRAW, 0, 0, 0, 0);
    int32_t price = 0;
    if (st->phase == CH_PH_COOP) {
        if (st->offers > 0)
            return done;
        /* the first partner with a deal, counting from a random seat when
         * ties are broken at random (else the lowest seats would be asked
         * first) */
        int q0 = ws->tie ? (int)ai_below(ws->tie, (uint32_t)st->nplayers) : 0;
        for (int k = 0; k < st->nplayers; k++) {
            int q = (q0 + k) % st->nplayers;
            if (q != p && coop_deal(ws, st, p, q, &price) >= 0) {
                ch_move m = mk(CH_M_OFFER, q, 0, 0, 0);
                if (in_list(mv, n, m))
                    return m;
            }
        }
        return done;
    }
    /* building the offer */
    const ch_offer *o = &st->offer;
    int q = o->to;
    if (q >= st->nplayers)
        return withdraw;
    int c = coop_deal(ws, st, p, q, &price);
    if (c < 0)
        return withdraw;
    if (!o->ask_stock[c]) {
        ch_move m = mk(CH_M_ASK, c, 1, 0, 0);
        return in_list(mv, n, m) ? m : withdraw;
    }
    if (!o->give_money && price >= 1 && price <= st->pl[p].cash)
        return mk(CH_M_GIVE, 0, 2, 0, price);
    ch_move prop = mk(CH_M_PROPOSE, 0, 0, 0, 0);
    return in_list(mv, n, prop) ? prop : withdraw;
}

/* Coopmanscappen with deals: offer k of the phase goes to the partner with
 * the k-th best deal (a declined offer is not made again), built as the item
 * then its price, and proposed. */
static ch_move deals_coop(ai_ws *ws, const ch_state *st, int p, const ch_move *mv, int n)
{
    ch_move done = mk(CH_M_DONE, 0, 0, 0, 0), withdraw = mk(CH_M_WITHDRAW, 0, 0, 0, 0);
    if (st->phase == CH_PH_COOP) {
        deal d[CH_MAX_PLAYERS];
        int k = deal_ranking(ws, st, p, d);
        if (st->offers < k) {
            ch_move m = mk(CH_M_OFFER, d[st->offers].q, 0, 0, 0);
            if (in_list(mv, n, m))
                return m;
        }
        return done;
    }
    const ch_offer *o = &st->offer;
    int q = o->to;
    if (q >= st->nplayers)
        return withdraw;
    deal d = {q, -1, 0, 0, 0};
    for (int c = 0; c < st->ncards && d.kind < 0; c++)
        if (o->give_cards[c >> 6] >> (c & 63) & 1)
            d.kind = DEAL_GIVE_CARD, d.item = c;
    for (int c = 0; c < st->ncompanies && d.kind < 0; c++) {
        if (o->give_stock[c])
            d.kind = DEAL_GIVE_STOCK, d.item = c;
        else if (o->ask_stock[c])
            d.kind = DEAL_ASK_STOCK, d.item = c;
    }
    double val[CH_MAX_PLAYERS];
    deal_values(ws, st, val);
    if (d.kind < 0) {
        d = deal_best_with(ws, st, p, q, val);
        if (d.gain <= 0)
            return withdraw;
        ch_move m = d.kind == DEAL_GIVE_CARD ? mk(CH_M_GIVE, d.item, 0, 0, 0)
                    : d.kind == DEAL_GIVE_STOCK ? mk(CH_M_GIVE, d.item, 1, 0, 0)
                                                : mk(CH_M_ASK, d.item, 1, 0, 0);
        return in_list(mv, n, m) ? m : withdraw;
    }
    int32_t money = d.kind == DEAL_ASK_STOCK ? o->give_money : o->ask_money;
    if (!money) {
        if (!deal_price(ws, st, p, &d, val))
            return withdraw;
        return mk(d.kind == DEAL_ASK_STOCK ? CH_M_GIVE : CH_M_ASK, 0, 2, 0, d.price);
    }
    ch_move prop = mk(CH_M_PROPOSE, 0, 0, 0, 0);
    return in_list(mv, n, prop) ? prop : withdraw;
}

static int rule_phase(int ph)
{
    return ph == CH_PH_BID || ph == CH_PH_AUCTION || ph == CH_PH_EVENT || ph == CH_PH_COOP ||
           ph == CH_PH_OFFER || ph == CH_PH_VEILINGE || ph == CH_PH_MERGE_SELL;
}

/* The rule-based choice (phases where lookahead says nothing). */
static ch_move rule_move(ai_ws *ws, const ch_state *st, int p, const ch_move *mv, int n)
{
    ai_features(st, &ws->prm, &ws->feat);
    switch (st->phase) {
    case CH_PH_BID:
        return mk(CH_M_BID, 0, 0, 0, greedy_bid_amount(ws, st, p));
    case CH_PH_AUCTION:
        return greedy_auction(ws, st, p);
    case CH_PH_EVENT:
        return greedy_event(ws, st, p, mv, n);
    case CH_PH_COOP:
    case CH_PH_OFFER:
        return ws->prm.deals ? deals_coop(ws, st, p, mv, n) : greedy_coop(ws, st, p, mv, n);
    case CH_PH_VEILINGE:
        return greedy_veilinge(ws, st, p, mv, n);
    case CH_PH_MERGE_SELL:
        return mv[n - 1]; /* sell them all */
    default:
        return mv[0];
    }
}

/* ---- entry points ---------------------------------------------------------------------------- */

static int legal_list(ai_ws *ws, const ch_state *st, int p)
{
    /* Sealed bids list every amount from f0 to the cash: the rule picks the
     * amount, so the list is not needed. */
    if (st->phase == CH_PH_BID)
        return 0;
    int n = ch_legal(st, p, ws->buf, AI_BUF);
    return n > AI_BUF ? AI_BUF : n;
}

ch_move ai_greedy_move(ai_ws *ws, const ch_state *st, int p)
{
    int n = legal_list(ws, st, p);
    if (st->phase != CH_PH_BID && n <= 0)
        return mk(CH_M_NONE, 0, 0, 0, 0);
    if (n == 1)
        return ws->buf[0];
    if (rule_phase(st->phase))
        return rule_move(ws, st, p, ws->buf, n);
    if (n > AI_CAND)
        n = AI_CAND;
    score_moves(ws, st, p, ws->buf, n, ws->score, ws->prm.topm);
    return ws->buf[pick_best(ws->score, n, ws->tie)];
}

void ai_greedy_scores(ai_ws *ws, const ch_state *st, int p, const ch_move *mv, int n, double *score)
{
    if (rule_phase(st->phase)) {
        int nl = legal_list(ws, st, p);
        ch_move g = rule_move(ws, st, p, ws->buf, nl);
        for (int i = 0; i < n; i++)
            score[i] = ai_same_move(mv[i], g) ? 0 : -100;
        return;
    }
    int topm = ws->prm.topm * 4;
    score_moves(ws, st, p, mv, n, score, topm);
}

int ai_candidates(ai_ws *ws, const ch_state *st, int p, ch_move *out, int cap)
{
    int n = 0;
    switch (st->phase) {
    case CH_PH_BID: {
        ai_features(st, &ws->prm, &ws->feat);
        int32_t cash = st->pl[p].cash, lo = ch_bid_min(st, p);
        double prize = bid_prize(ws, st, p);
        int32_t am[8];
        int k = 0;
        am[k++] = lo;
        am[k++] = greedy_bid_amount(ws, st, p);
        if (st->ev_kind == CH_EV_DREIGHINGHE) {
            am[k++] = clamp32(0.1 * prize + p + 1, lo, cash);
            am[k++] = clamp32(0.4 * prize + p + 1, lo, cash);
        } else {
            am[k++] = clamp32(0.25 * prize + p + 1, lo, cash);
            am[k++] = clamp32(0.75 * prize + p + 1, lo, cash);
            am[k++] = clamp32(prize + p + 1, lo, cash);
        }
        for (int i = 0; i < k; i++) {
            int dup = 0;
            for (int j = 0; j < n; j++)
                dup |= out[j].n == am[i];
            if (!dup && n < cap && am[i] >= lo && am[i] <= cash)
                out[n++] = mk(CH_M_BID, 0, 0, 0, am[i]);
        }
        return n;
    }
    case CH_PH_AUCTION: {
        int32_t cash = st->pl[p].cash, h = st->au_high;
        if (n < cap)
            out[n++] = mk(CH_M_PASS, 0, 0, 0, 0);
        int32_t am[3] = {h + 10, h + 30, h + 60};
        for (int i = 0; i < 3 && n < cap; i++)
            if (am[i] <= cash)
                out[n++] = mk(CH_M_BID, 0, 0, 0, am[i]);
        return n;
    }
    case CH_PH_MERGE_SELL: {
        /* selling them all is never worse: kept stocks are worth nothing
         * unless someone founds the company again */
        int nl = legal_list(ws, st, p);
        if (nl > 0 && n < cap)
            out[n++] = ws->buf[nl - 1];
        return n;
    }
    case CH_PH_OFFER: {
        int nl = legal_list(ws, st, p);
        ch_move g = rule_move(ws, st, p, ws->buf, nl);
        ch_move w = mk(CH_M_WITHDRAW, 0, 0, 0, 0), pr = mk(CH_M_PROPOSE, 0, 0, 0, 0);
        if (n < cap)
            out[n++] = w;
        if (in_list(ws->buf, nl, pr) && n < cap)
            out[n++] = pr;
        if (!ai_same_move(g, w) && !ai_same_move(g, pr) && n < cap)
            out[n++] = g;
        return n;
    }
    default: {
        int nl = legal_list(ws, st, p);
        if (nl > cap)
            nl = cap;
        memcpy(out, ws->buf, sizeof *out * (size_t)nl);
        return nl;
    }
    }
}

ch_move ai_random_move(ai_ws *ws, const ch_state *st, int p, uint64_t *rng)
{
    int n = ch_legal(st, p, ws->buf, AI_BUF);
    if (n <= 0)
        return mk(CH_M_NONE, 0, 0, 0, 0);
    if (n > AI_BUF)
        n = AI_BUF;
    return ws->buf[ai_below(rng, (uint32_t)n)];
}
