/* eval.c: the heuristic value of a position for one player, used by the
 * greedy bot (one-step lookahead) and so by ISMCTS's greedy playouts.
 *
 * A player's value is what the final score would be if the game ended now
 * (cash, stocks at their company's value, Golden Age flags as four stocks),
 * plus what the position promises:
 *   - a stock is worth its company's value plus a share (lambda) of the rise
 *     the company can still expect: the warehouses left in the supply times a
 *     rise per warehouse, shared among the companies by their free frontier
 *     (empty plots next to their pieces), capped at the chart's top;
 *   - a hand card is worth a share (kappa) of the payout it would bring if
 *     played now (expansion: the new value; merger: the sum; founding: its
 *     value and a bonus; a level card: the best company it can go on), for as
 *     many cards as the player can still play before the supply runs out;
 *     dead cards cost the Golden Age's f20 fine as the end comes near;
 *   - the cards its cash can still buy for a short hand, at the worth of the
 *     average card still to come;
 *   - cash below a small reserve is penalised early on (no card purchases);
 *   - after a founding, the founder's discount buys still to make.
 * The evaluation of player p is p's value less beta times the opponents'
 * (half the best opponent, half their mean). A finished game is scored by
 * ch_scores. Everything here reads the public state only. The weights were
 * tuned by greedy-against-greedy matches (both editions, 2 to 4 players). */
#include "ai.h"
#include <string.h>

void ai_params_default(ai_params *pr)
{
    pr->growth_per_wh = 12.0;
    pr->growth_per_wh_ga = 14.0;
    pr->lambda = 0.3;
    pr->kappa = 1.0;
    pr->beta = 1.0;
    pr->beta_ga = 1.5;
    pr->found_bonus = 20.0;
    pr->reserve = 60.0;
    pr->liquidity = 0.5;
    pr->topm = 0;
    pr->lone_card = 12;
    pr->deals = 0;
}

int ai_decider(const ch_state *st, int prefer)
{
    unsigned mask = 0;
    if (ch_decider(st, &mask) == CH_DEC_TERMINAL || !mask)
        return -1;
    if (prefer >= 0 && (mask >> prefer & 1))
        return prefer;
    return __builtin_ctz(mask);
}

static inline int bit(const uint64_t *b, int i) { return (int)((b[i >> 6] >> (i & 63)) & 1u); }
static inline int popc2(const uint64_t *b) { return ai_popc(b[0]) + ai_popc(b[1]); }

void ai_features(const ch_state *st, const ai_params *pr, ai_feat *f)
{
    ai_features_hint(st, pr, f, -1e300);
}

void ai_features_hint(const ch_state *st, const ai_params *pr, ai_feat *f, double deck_avg)
{
    const ch_board *b = ch_state_board(st);
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    f->ed = st->edition;
    f->np = st->nplayers;
    f->minv = ga ? 30 : 20;
    f->maxv = ga ? 500 : 300;
    int total = st->warehouses_total ? st->warehouses_total : 1;
    f->frac = (double)st->supply / total;
    /* Builds left for one player: each build takes a warehouse (a Golden Age
     * founding three), and about one turn in three goes to buying cards. */
    double builds = (double)st->supply / (ga ? 1.4 : 1.1) / st->nplayers;
    f->turns = (int)(builds + 0.5);
    if (f->turns < 1)
        f->turns = 1;
    f->avail = 0;
    f->board = b;
    memset(f->cval_ok, 0, sizeof f->cval_ok);
    for (int c = 0; c < st->ncompanies; c++) {
        f->value[c] = st->co[c].on_chart ? st->co[c].value : 0;
        if (!st->co[c].on_chart && st->co[c].hq == CH_NONE)
            f->avail |= 1 << c;
    }
    /* The board's bitsets come from the engine, which keeps them with every
     * move (ch_state: piece, lone, zone): plots holding a piece, those
     * holding lone warehouses (no company), and the danger zone of
     * foundings, the plots within distance 2 (Building Amsterdam) or 3 (The
     * Golden Age) of a company piece, one short of the founding spacing
     * (R-17, G-11). They are the sets this function once worked out plot by
     * plot (test_ai_features compares them with that over whole games); the
     * company pieces are the pieces that are not lone. */
    memcpy(f->occ, st->piece, sizeof f->occ);
    memcpy(f->lone, st->lone, sizeof f->lone);
    memcpy(f->danger, st->zone, sizeof f->danger);
    f->comp[0] = st->piece[0] & ~st->lone[0];
    f->comp[1] = st->piece[1] & ~st->lone[1];
    memset(f->pcomp, CH_NONE, sizeof f->pcomp);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = f->comp[w]; bits; bits &= bits - 1) {
            int x = w * 64 + __builtin_ctzll(bits);
            f->pcomp[x] = st->owner[x];
        }
    for (int c = 0; c < st->ncompanies; c++) {
        int h = st->co[c].hq;
        if (st->co[c].on_chart && h != CH_NONE && h < b->nplots)
            f->pcomp[h] = (uint8_t)c;
    }
    /* Frontier of each company: empty plots next to its pieces. */
    uint64_t front[CH_MAX_COMPANIES][2];
    memset(front, 0, sizeof front);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = f->comp[w]; bits; bits &= bits - 1) {
            int x = w * 64 + __builtin_ctzll(bits), c = f->pcomp[x];
            front[c][0] |= b->nbmask[x][0];
            front[c][1] |= b->nbmask[x][1];
        }
    double wsum = 0, wt[CH_MAX_COMPANIES];
    for (int c = 0; c < st->ncompanies; c++) {
        wt[c] = 0;
        if (!f->value[c])
            continue;
        front[c][0] &= ~f->occ[0];
        front[c][1] &= ~f->occ[1];
        wt[c] = popc2(front[c]) + 2.0;
        wsum += wt[c];
    }
    /* companies still to be founded: up to three more, each weighing like a
     * company with a fair frontier */
    int nfuture = ai_popc(f->avail);
    if (nfuture > 3)
        nfuture = 3;
    wsum += 8.0 * nfuture;
    double pool = st->supply * (ga ? pr->growth_per_wh_ga : pr->growth_per_wh);
    for (int c = 0; c < st->ncompanies; c++) {
        f->growth[c] = 0;
        f->worth[c] = 0;
        if (!f->value[c]) {
            /* kept stocks of a company off the chart: worth little, unless
             * someone founds it again */
            f->worth[c] = 2.0;
            continue;
        }
        double g = wsum > 0 ? pool * wt[c] / wsum : 0;
        if (g > f->maxv - f->value[c])
            g = f->maxv - f->value[c];
        f->growth[c] = g;
        f->worth[c] = f->value[c] + pr->lambda * g;
    }
    {
        double g = wsum > 0 && nfuture ? pool * 8.0 / wsum : 0;
        if (g > f->maxv - f->minv)
            g = f->maxv - f->minv;
        f->newco_worth = f->minv + pr->lambda * g;
    }
    /* Level cards: the best company stack of height k-1. */
    memset(f->best_lvl, 0, sizeof f->best_lvl);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = f->comp[w]; bits; bits &= bits - 1) {
            int x = w * 64 + __builtin_ctzll(bits), c = f->pcomp[x], h = st->height[x];
            if (h < 1 || h > 4 || !f->value[c])
                continue;
            int k = h + 1, v = f->value[c] + 10 * k;
            if (v > f->maxv)
                v = f->maxv;
            if (v > f->best_lvl[k])
                f->best_lvl[k] = v;
        }
    /* the average card still to come (deck and market) */
    if (deck_avg > -1e299) {
        f->deck_avg = deck_avg;
        f->deck_n = -1;
        return;
    }
    f->deck_avg = 0;
    double sum = 0;
    int k = 0;
    for (int i = 0; i < st->ndeck; i++)
        if (!st->card_event[st->deck[i]]) {
            sum += ai_card_value(st, f, pr, st->deck[i]);
            k++;
        }
    /* the deck's own sum, for greedy's purchases (buy_info), which would
     * otherwise value every deck card a second time */
    f->deck_sum = sum;
    f->deck_n = k;
    for (int i = 0; i < st->market_size; i++)
        if (st->market[i] != CH_NONE) {
            sum += ai_card_value(st, f, pr, st->market[i]);
            k++;
        }
    if (k)
        f->deck_avg = sum / k;
}

/* No company piece within distance `d` of plot x: x is outside the danger
 * zone the features hold (distance 2 in Building Amsterdam, 3 in The Golden
 * Age, one short of the founding spacing). */
static int clear_of_companies(const ai_feat *f, int x)
{
    return !bit(f->danger, x);
}

static double card_value(const ch_state *st, const ai_feat *f, const ai_params *pr, int card);

double ai_card_value(const ch_state *st, const ai_feat *f, const ai_params *pr, int card)
{
    /* the memo is the features' own cache, not part of their value: it is
     * written through a const pointer to the features of one position */
    ai_feat *m = (ai_feat *)f;
    uint64_t b = (uint64_t)1 << (card & 63);
    if (m->cval_ok[card >> 6] & b)
        return m->cval[card];
    double v = card_value(st, f, pr, card);
    m->cval[card] = v;
    m->cval_ok[card >> 6] |= b;
    return v;
}

static double card_value(const ch_state *st, const ai_feat *f, const ai_params *pr, int card)
{
    int ga = f->ed == CH_ED_GOLDEN_AGE;
    double dead = ga ? -20.0 * (1.0 - f->frac) : 0.0;
    int k = st->card_level[card];
    if (st->card_event[card])
        return 0;
    if (k)
        return f->best_lvl[k] > 0 ? f->best_lvl[k] : dead;
    int x = st->card_plot[card];
    if (x >= f->board->nplots)
        return dead;
    if (bit(f->occ, x)) {
        int c = f->pcomp[x];
        if (c == CH_NONE || !f->value[c])
            return dead;
        if (ga) /* a plot card on a free warehouse stacks on it */
            return (st->pflags[x] & CH_PF_FREE) ? (f->value[c] + 10 > f->maxv ? f->maxv : f->value[c] + 10) : dead;
        if (st->height[x] > 0)
            return dead; /* built over (Veilinge 4 leftovers) */
        return f->value[c] + 10 > f->maxv ? f->maxv : f->value[c] + 10;
    }
    /* the neighbours as bitsets: company pieces (each company counted
     * once) and lone warehouses (the features' sets of this board) */
    const uint64_t *nb = f->board->nbmask[x];
    unsigned comps = 0;
    int sum = 0;
    int lone = ai_popc(nb[0] & f->lone[0]) + ai_popc(nb[1] & f->lone[1]);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = nb[w] & f->comp[w]; bits; bits &= bits - 1) {
            int c = f->pcomp[w * 64 + __builtin_ctzll(bits)];
            if (!(comps >> c & 1))
                sum += f->value[c];
            comps |= 1u << c;
        }
    int nc = ai_popc(comps);
    if (nc >= 1) {
        int v = sum + 10 + 10 * lone;
        return v > f->maxv ? f->maxv : v;
    }
    if (ga) {
        if (!f->avail || st->supply < 3 || !clear_of_companies(f, x))
            return dead;
        return 30 + f->newco_worth + pr->found_bonus * 0.5;
    }
    if (lone > 0) {
        if (!f->avail || !clear_of_companies(f, x))
            return dead;
        return 20 + 10 * (lone - 1) + pr->found_bonus + (f->newco_worth - f->minv);
    }
    return pr->lone_card; /* a lone warehouse: a seed for a later founding */
}

double ai_hand_value(const ai_feat *f, const ai_params *pr, double *v, int n)
{
    /* insertion sort, descending: n is at most a hand */
    for (int i = 1; i < n; i++) {
        double t = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] < t) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = t;
    }
    int ga = f->ed == CH_ED_GOLDEN_AGE;
    double fine = ga ? -20.0 * (1.0 - f->frac) : 0.0, s = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] <= 0)
            s += v[i]; /* dead cards: the fine, as the end comes near */
        else if (i < f->turns)
            s += pr->kappa * v[i];
        else
            s += 0.1 * pr->kappa * v[i] + fine;
    }
    return s;
}

double ai_player_value(const ch_state *st, const ai_feat *f, const ai_params *pr, int q,
                       const double *extra, int nextra)
{
    const ch_player *pl = &st->pl[q];
    double v = pl->cash;
    for (int c = 0; c < st->ncompanies; c++) {
        v += pl->stock[c] * f->worth[c];
        if (f->ed == CH_ED_GOLDEN_AGE && st->co[c].flag == q + 1 && f->value[c])
            v += 4 * f->worth[c];
    }
    /* the founder's discount still to use this turn */
    if (q == st->active && st->phase == CH_PH_TRADE && st->founded < st->ncompanies &&
        st->discount_left > 0) {
        int c = st->founded, k = st->discount_left;
        if (k > 2 - st->trades)
            k = 2 - st->trades;
        if (k > st->co[c].bank)
            k = st->co[c].bank;
        if (f->value[c] > 0 && k * f->value[c] > pl->cash)
            k = pl->cash / f->value[c];
        if (k > 0 && f->worth[c] > f->value[c])
            v += k * (f->worth[c] - f->value[c]);
    }
    double vals[CH_MAX_CARDS + 8];
    int n = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = pl->hand[w]; bits; bits &= bits - 1)
            vals[n++] = ai_card_value(st, f, pr, w * 64 + __builtin_ctzll(bits));
    for (int i = 0; i < nextra && n < CH_MAX_CARDS + 8; i++)
        vals[n++] = extra[i];
    int live = 0;
    for (int i = 0; i < n; i++)
        live += vals[i] > 0;
    v += ai_hand_value(f, pr, vals, n);
    /* cash buys the cards a short hand lacks: each card bought brings a card
     * of the deck's average worth */
    int open = f->turns - live;
    if (open > 0 && f->deck_avg > 0) {
        int per = f->ed == CH_ED_GOLDEN_AGE ? 50 : 25;
        int nbuy = pl->cash / per;
        if (nbuy > open)
            nbuy = open;
        double gain = pr->kappa * f->deck_avg - per;
        if (gain > 0)
            v += nbuy * gain;
    }
    if (pl->cash < pr->reserve)
        v -= pr->liquidity * (pr->reserve - pl->cash) * f->frac;
    return v;
}

static double relative(const ch_state *st, const ai_params *pr, int p, const double *val)
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
    double opp = np > 1 ? 0.5 * best + 0.5 * sum / (np - 1) : 0;
    return val[p] - (st->edition == CH_ED_GOLDEN_AGE ? pr->beta_ga : pr->beta) * opp;
}

double ai_eval_extra(const ch_state *st, const ai_feat *f, const ai_params *pr, int p,
                     const double *extra, int nextra)
{
    double val[CH_MAX_PLAYERS];
    if (st->over) {
        int32_t sc[CH_MAX_PLAYERS];
        unsigned w = 0;
        ch_scores(st, sc, &w);
        for (int q = 0; q < st->nplayers; q++)
            val[q] = sc[q] + ((w >> q & 1) ? 0.5 : 0); /* tie breaks count a little */
        return relative(st, pr, p, val);
    }
    for (int q = 0; q < st->nplayers; q++)
        val[q] = ai_player_value(st, f, pr, q, q == p ? extra : NULL, q == p ? nextra : 0);
    return relative(st, pr, p, val);
}

double ai_eval(const ch_state *st, const ai_params *pr, int p)
{
    return ai_eval_hint(st, pr, p, -1e300);
}

double ai_eval_hint(const ch_state *st, const ai_params *pr, int p, double deck_avg)
{
    ai_feat f;
    if (st->over)
        return ai_eval_extra(st, NULL, pr, p, NULL, 0);
    ai_features_hint(st, pr, &f, deck_avg);
    return ai_eval_extra(st, &f, pr, p, NULL, 0);
}
