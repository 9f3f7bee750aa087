/* fast.c: the cheap playout policy of ISMCTS (playout=fast), a few times the
 * cost of a random move and far cheaper than greedy's one-step lookahead with
 * the full evaluation (docs/bots.md, "ismcts").
 *
 * Builds are judged by what they change at once: each candidate play is
 * applied to a copy, the builder's follow-up choices of the same build (HQ
 * plot, company to found, credited company, merge order, free lots) are
 * filled in with the first legal move, and the result is scored by money on
 * the table: cash plus stocks at their chart value (the final score, R-53),
 * the player's own less the best opponent's. A play that gains is made (the
 * best of at most FAST_SAMPLE sampled plays); otherwise a card is bought when
 * the hand is short, else the least bad play, else a pass. Every other
 * decision follows a rule of thumb that costs nothing: buy a stock now and
 * then (the founder's discount first) keeping a cash reserve, sell absorbed
 * stocks in a merger, bid little, drop out of auctions, make no trade offers,
 * and pick at random where nothing is known to be better. Randomness comes
 * from the caller's generator only, so a playout is reproducible.
 */
#include "ai.h"

#include <stdint.h>
#include <string.h>

#define FAST_SAMPLE 8      /* plays judged per build decision              */
#define FAST_FOLLOW 6      /* follow-up decisions of one build filled in    */
#define FAST_RESERVE 150   /* cash kept when buying stocks                  */

/* Money on the table of each player: cash plus stocks at chart value.
 * Whole guilders, so summed in integers (exact, and cheaper than the
 * conversions to double: this runs for every play a playout judges). */
static void material(const ch_state *st, int64_t *m)
{
    /* every company slot, values 0 beyond ncompanies: a loop of fixed
     * length the compiler unrolls; a holding (nine companies, at most 255
     * stocks each at a value of at most 32,767) fits in 32 bits, the cash
     * is added in 64 */
    int32_t val[CH_MAX_COMPANIES];
    int nc = st->ncompanies;
    for (int c = 0; c < CH_MAX_COMPANIES; c++)
        val[c] = c < nc && st->co[c].on_chart ? st->co[c].value : 0;
    for (int q = 0; q < st->nplayers; q++) {
        const ch_player *pl = &st->pl[q];
        int32_t v = 0;
        for (int c = 0; c < CH_MAX_COMPANIES; c++)
            v += (int32_t)pl->stock[c] * val[c];
        m[q] = (int64_t)pl->cash + v;
    }
}

/* p's material less the best opponent's. */
static double relative(const ch_state *st, int p)
{
    int64_t m[CH_MAX_PLAYERS], best = INT64_MIN;
    material(st, m);
    for (int q = 0; q < st->nplayers; q++)
        if (q != p && m[q] > best)
            best = m[q];
    /* (one player: no opponent, as the sum against -1e300 gave before) */
    return best == INT64_MIN ? (double)m[p] + 1e300 : (double)(m[p] - best);
}

/* Apply m for p on a copy, fill in p's follow-up choices of the same build
 * with the first legal move, and score the result. */
static double judge(ai_ws *ws, const ch_state *st, int p, ch_move m)
{
    ch_state *t = &ws->tmp;
    memcpy(t, st, sizeof *t);
    ch_apply_fast(t, p, m);
    for (int k = 0; k < FAST_FOLLOW; k++) {
        int ph = t->phase;
        if (ai_decider(t, p) != p ||
            !(ph == CH_PH_HQ || ph == CH_PH_FOUND || ph == CH_PH_CREDIT || ph == CH_PH_MERGE ||
              ph == CH_PH_FREE))
            break;
        ch_move f;
        if (ch_legal(t, p, &f, 1) <= 0)
            break;
        ch_apply_fast(t, p, f);
    }
    return relative(t, p);
}

/* The move of type `type` in buf[0..n), or -1. */
static int find_type(const ch_move *buf, int n, int type)
{
    for (int i = 0; i < n; i++)
        if (buf[i].type == type)
            return i;
    return -1;
}

/* A random move among those of buf[0..n) that `keep` accepts, or -1. */
static int pick_random(const ch_move *buf, int n, uint64_t *rng, int (*keep)(ch_move))
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += keep(buf[i]);
    if (!k)
        return -1;
    int r = (int)ai_below(rng, (uint32_t)k);
    for (int i = 0; i < n; i++)
        if (keep(buf[i]) && r-- == 0)
            return i;
    return -1;
}

static int is_purchase(ch_move m) { return m.type == CH_M_DRAW || m.type == CH_M_TAKE; }
static int is_buy(ch_move m) { return m.type == CH_M_BUY; }
static int is_not_done(ch_move m) { return m.type != CH_M_DONE; }

/* Building turn (both editions): the best sampled play when it gains. */
static ch_move turn_move(ai_ws *ws, const ch_state *st, int p, int n, uint64_t *rng)
{
    ch_move *buf = ws->buf;
    int plays = 0;
    for (int i = 0; i < n; i++)
        plays += buf[i].type == CH_M_PLAY;
    int best = -1;
    double bv = -1e300;
    if (plays) {
        double base = relative(st, p);
        /* judge every play when few, else a random sample of them */
        int budget = FAST_SAMPLE;
        for (int i = 0, left = plays; i < n && budget > 0; i++) {
            if (buf[i].type != CH_M_PLAY)
                continue;
            int take = plays <= FAST_SAMPLE || (int)ai_below(rng, (uint32_t)left) < budget;
            left--;
            if (!take)
                continue;
            budget--;
            double v = judge(ws, st, p, buf[i]) - base;
            if (v > bv) {
                bv = v;
                best = i;
            }
        }
        if (bv > 0)
            return buf[best];
    }
    int hand = ai_popc(st->pl[p].hand[0]) + ai_popc(st->pl[p].hand[1]);
    int buy = hand < 4 || best < 0 ? pick_random(buf, n, rng, is_purchase) : -1;
    if (buy >= 0)
        return buf[buy];
    if (best >= 0 && bv > -40)
        return buf[best];
    buy = pick_random(buf, n, rng, is_purchase);
    if (buy >= 0)
        return buf[buy];
    if (best >= 0)
        return buf[best];
    int i = find_type(buf, n, CH_M_PASS);
    return buf[i >= 0 ? i : (int)ai_below(rng, (uint32_t)n)];
}

/* Trading after a build: now and then one stock, the founder's discount
 * first, keeping a reserve; never selling, no action cards or flags. */
static ch_move trade_move(const ch_state *st, int p, const ch_move *buf, int n, uint64_t *rng)
{
    int done = find_type(buf, n, CH_M_DONE);
    if (st->founded != CH_NONE && st->discount_left)
        for (int i = 0; i < n; i++)
            if (buf[i].type == CH_M_BUY && buf[i].a == st->founded)
                return buf[i];
    if (st->pl[p].cash >= FAST_RESERVE + 100 && ai_below(rng, 2) == 0) {
        int i = pick_random(buf, n, rng, is_buy);
        if (i >= 0)
            return buf[i];
    }
    return buf[done >= 0 ? done : (int)ai_below(rng, (uint32_t)n)];
}

ch_move ai_fast_move(ai_ws *ws, const ch_state *st, int p, uint64_t *rng)
{
    ch_move none = {CH_M_NONE, 0, 0, 0, 0};
    if (st->phase == CH_PH_BID) {
        /* a sealed bid: little or nothing above the lowest allowed (a
         * rebid must beat the tie: ch_bid_min), without listing every amount */
        int32_t cash = st->pl[p].cash, lo = ch_bid_min(st, p);
        int32_t cap = cash / 10 < 30 ? cash / 10 : 30;
        if (cap > cash - lo)
            cap = cash - lo;
        ch_move m = {CH_M_BID, 0, 0, 0, lo + (cap > 0 ? (int32_t)ai_below(rng, (uint32_t)cap + 1) : 0)};
        return m;
    }
    int n = ch_legal(st, p, ws->buf, AI_BUF);
    if (n <= 0)
        return none;
    if (n > AI_BUF)
        n = AI_BUF;
    ch_move *buf = ws->buf;
    if (n == 1)
        return buf[0];
    int i;
    switch (st->phase) {
    case CH_PH_TURN:
        return turn_move(ws, st, p, n, rng);
    case CH_PH_PURCHASE:
        /* a second card when cash allows */
        i = st->pl[p].cash >= FAST_RESERVE ? pick_random(buf, n, rng, is_purchase) : -1;
        if (i < 0)
            i = find_type(buf, n, CH_M_DONE);
        return buf[i >= 0 ? i : 0];
    case CH_PH_HQ:
    case CH_PH_FOUND:
    case CH_PH_CREDIT:
    case CH_PH_MERGE:
    case CH_PH_FREE: {
        /* the builder's follow-up: the best of a few at once */
        int best = 0;
        double bv = -1e300;
        for (i = 0; i < n && i < FAST_SAMPLE; i++) {
            double v = judge(ws, st, p, buf[i]);
            if (v > bv) {
                bv = v;
                best = i;
            }
        }
        return buf[best];
    }
    case CH_PH_MERGE_SELL: {
        /* sell them all (keeping is never better; greedy's rule) */
        int best = 0;
        for (i = 1; i < n; i++)
            if (buf[i].n > buf[best].n)
                best = i;
        return buf[best];
    }
    case CH_PH_TRADE:
        return trade_move(st, p, buf, n, rng);
    case CH_PH_SELL:
    case CH_PH_COOP:
        i = find_type(buf, n, CH_M_DONE);
        return buf[i >= 0 ? i : 0];
    case CH_PH_OFFER:
        i = find_type(buf, n, CH_M_WITHDRAW);
        return buf[i >= 0 ? i : 0];
    case CH_PH_RESPOND:
        i = find_type(buf, n, CH_M_DECLINE);
        return buf[i >= 0 ? i : 0];
    case CH_PH_AUCTION:
        i = find_type(buf, n, CH_M_PASS);
        return buf[i >= 0 ? i : 0];
    case CH_PH_FORCED:
        /* the forced option: buy a card when one can be bought */
        i = pick_random(buf, n, rng, is_purchase);
        if (i < 0)
            i = pick_random(buf, n, rng, is_not_done);
        return buf[i >= 0 ? i : 0];
    default:
        return buf[ai_below(rng, (uint32_t)n)];
    }
}
