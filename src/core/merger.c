/* merger.c: merging two or more companies, shared machinery (Rulebook "C.
 * Merging two or more companies"; RULINGS.md "Merger", "HQ placeholder in a
 * merger"; ). Companies merge pairwise, the two lowest first, the higher
 * absorbing the lower, ties decided by the builder; for each absorbed company
 * every player in turn order from the builder sells or keeps its stocks; the
 * builder is paid once, the survivor's final value. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The legal (absorbed, absorber) pairs for the next merge step. */
static int merge_pairs_ga(const ch_state *st, uint8_t *absorbed, uint8_t *absorber)
{
    /* The Golden Age: in a merger of three or more the builder picks which
     * two merge first, regardless of size (G-16); within a pair the higher
     * absorbs the lower, ties decided by the builder. */
    int n = 0;
    for (int i = 0; i < st->ncompanies; i++)
        for (int j = 0; j < st->ncompanies; j++)
            if (i != j && (st->m_set >> i & 1) && (st->m_set >> j & 1) &&
                st->co[i].value <= st->co[j].value) {
                absorbed[n] = (uint8_t)i;
                absorber[n++] = (uint8_t)j;
            }
    return n;
}

static int merge_pairs(const ch_state *st, uint8_t *absorbed, uint8_t *absorber)
{
    if (st->edition == CH_ED_GOLDEN_AGE)
        return merge_pairs_ga(st, absorbed, absorber);
    int vals[CH_MAX_COMPANIES], ids[CH_MAX_COMPANIES], k = 0, n = 0;
    for (int c = 0; c < st->ncompanies; c++)
        if (st->m_set >> c & 1) {
            ids[k] = c;
            vals[k++] = st->co[c].value;
        }
    int v1 = 1 << 30, v2 = 1 << 30;
    for (int i = 0; i < k; i++)
        if (vals[i] < v1)
            v1 = vals[i];
    int nlow = 0;
    for (int i = 0; i < k; i++)
        if (vals[i] == v1)
            nlow++;
    if (nlow < 2)
        for (int i = 0; i < k; i++)
            if (vals[i] > v1 && vals[i] < v2)
                v2 = vals[i];
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++) {
            if (i == j)
                continue;
            /* candidate pair {i, j}: both among the two lowest */
            int ok;
            if (nlow >= 2)
                ok = vals[i] == v1 && vals[j] == v1;
            else
                ok = (vals[i] == v1 && vals[j] == v2) || (vals[j] == v1 && vals[i] == v2);
            if (!ok || vals[i] > vals[j])
                continue; /* i is absorbed by j: i must not be higher */
            absorbed[n] = (uint8_t)ids[i];
            absorber[n++] = (uint8_t)ids[j];
        }
    }
    return n;
}

static void merge_next(ch_state *st);

static void finalize_pair(ch_state *st)
{
    int a = st->m_absorbed, b = st->m_absorber;
    set_value(st, b, st->co[b].value + st->co[a].value);
    for (int x = 0; x < BRD(st)->nplots; x++)
        if (st->owner[x] == a && has_piece(st, x))
            st->owner[x] = (uint8_t)b;
    int h = st->co[a].hq;
    if (h != CH_NONE && st->edition == CH_ED_GOLDEN_AGE) {
        /* The Golden Age: the HQ leaves its stack, one level lower. */
        st->pflags[h] &= (uint8_t)~CH_PF_HQ;
        st->height[h]--;
    } else if (h != CH_NONE) {
        st->pflags[h] &= (uint8_t)~CH_PF_HQ;
        if (st->height[h] == 0 && !(st->pflags[h] & CH_PF_UPSIDE)) {
            /* The HQ was a placeholder. If the survivor would split without it,
             * an upside-down warehouse from the supply takes its place. */
            if (company_connected(st, b, h, NULL)) {
                st->owner[h] = CH_NONE;
                st->pflags[h] = 0;
            } else if (st->supply > 0) {
                st->pflags[h] |= CH_PF_UPSIDE;
                st->supply--;
                if (st->supply == 0)
                    st->end_triggered = 1;
            } else {
                st->pflags[h] |= CH_PF_UPSIDE | CH_PF_NOPIECE; /* */
            }
        }
    }
    st->co[a].hq = CH_NONE;
    st->co[a].value = 0;
    st->co[a].on_chart = 0;
    st->m_set &= (uint16_t)~(1u << a);
    st->m_absorbed = st->m_absorber = st->m_seller = CH_NONE;
    merge_next(st);
}

/* The next player, in turn order from the builder, who holds stock in the
 * absorbed company; CH_NONE when the round is done. */
static int next_seller(const ch_state *st, int after)
{
    int a = st->m_absorbed;
    int start = after == CH_NONE ? st->active : next_player(st, after);
    if (after != CH_NONE && start == st->active)
        return CH_NONE;
    for (int p = start;;) {
        if (st->pl[p].stock[a])
            return p;
        p = next_player(st, p);
        if (p == st->active)
            return CH_NONE;
    }
}

/* The Golden Age: every stock and the flag of the absorbed enterprise are
 * sold to the bank at its value, a flag as four stocks (RULINGS.md "Merger"). */
static void liquidate(ch_state *st, int a)
{
    int v = st->co[a].value;
    for (int p = 0; p < st->nplayers; p++) {
        int k = st->pl[p].stock[a];
        if (k) {
            st->pl[p].stock[a] = 0;
            st->co[a].bank = (uint8_t)(st->co[a].bank + k);
            bank_pays(st, p, k * v);
        }
    }
    if (st->co[a].flag) {
        bank_pays(st, st->co[a].flag - 1, GA_FLAG_STOCKS * v);
        st->co[a].flag = 0; /* the flag is gone for good */
    }
}

static void do_pair(ch_state *st, int a, int b)
{
    st->m_absorbed = (uint8_t)a;
    st->m_absorber = (uint8_t)b;
    if (st->edition == CH_ED_GOLDEN_AGE) {
        liquidate(st, a);
        finalize_pair(st);
        return;
    }
    int s = next_seller(st, CH_NONE);
    if (s == CH_NONE) {
        finalize_pair(st);
        return;
    }
    st->m_seller = (uint8_t)s;
    st->actor = (uint8_t)s;
    st->phase = CH_PH_MERGE_SELL;
}

static void merge_next(ch_state *st)
{
    if (popc(st->m_set) < 2) {
        int s = __builtin_ctz(st->m_set);
        st->m_set = 0;
        bank_pays(st, st->active, st->co[s].value);
        st->ga_built = (uint8_t)s; /* a Golden Age flag may go on the survivor */
        enter_trade(st);
        return;
    }
    uint8_t ab[CH_MAX_COMPANIES * CH_MAX_COMPANIES], ar[CH_MAX_COMPANIES * CH_MAX_COMPANIES];
    int n = merge_pairs(st, ab, ar);
    assert(n > 0);
    if (n == 1) {
        do_pair(st, ab[0], ar[0]); /* no choice to make */
        return;
    }
    st->phase = CH_PH_MERGE;
    st->actor = st->active;
}

void merger_start(ch_state *st, int credited)
{
    (void)credited;
    st->m_set = (uint16_t)adjacent_companies(st, st->b_plot);
    merge_next(st);
}

int gen_merge(const ch_state *st, ch_move *buf, int cap)
{
    uint8_t ab[CH_MAX_COMPANIES * CH_MAX_COMPANIES], ar[CH_MAX_COMPANIES * CH_MAX_COMPANIES];
    int k = merge_pairs(st, ab, ar), n = 0;
    for (int i = 0; i < k; i++)
        emit(buf, cap, &n, CH_M_MERGE, ab[i], ar[i], 0, 0);
    return n;
}

void apply_merge(ch_state *st, ch_move m)
{
    do_pair(st, m.a, m.b);
}

int gen_merge_sell(const ch_state *st, ch_move *buf, int cap)
{
    int n = 0, a = st->m_absorbed;
    for (int k = 0; k <= st->pl[st->m_seller].stock[a]; k++)
        emit(buf, cap, &n, CH_M_SELL, a, 0, 0, k);
    return n;
}

/* Sell k stocks of the absorbed company at its value; kept stocks are worth
 * nothing unless the company is founded again. */
void apply_merge_sell(ch_state *st, ch_move m)
{
    int p = st->m_seller, a = st->m_absorbed, k = m.n;
    st->pl[p].stock[a] = (uint8_t)(st->pl[p].stock[a] - k);
    st->co[a].bank = (uint8_t)(st->co[a].bank + k);
    bank_pays(st, p, k * st->co[a].value);
    int s = next_seller(st, p);
    if (s == CH_NONE) {
        st->actor = st->active;
        finalize_pair(st);
        return;
    }
    st->m_seller = (uint8_t)s;
    st->actor = (uint8_t)s;
}

/* ---- what a merger will do (ch_merger_preview, include/chartered.h) ----- */

/* The part of a preview seat p may see of player q's stocks of company c:
 * all in Building Amsterdam, p's own only in The Golden Age, where holdings
 * are private (RULINGS.md "Hidden information"); -1 for hidden. */
static int8_t seen_stocks(const ch_state *st, int p, int q, int c)
{
    if (st->edition == CH_ED_GOLDEN_AGE && q != p)
        return -1;
    return (int8_t)st->pl[q].stock[c];
}

/* One pair of the walk: a absorbed by b in w (values as the merger will
 * have them), recorded, and b's value raised as finalize_pair raises it
 * (capped: set_value). Stocks sold or kept change no value, so the walk
 * needs no seller's answer. */
static void preview_pair(ch_state *w, const ch_state *st, int p, int a, int b,
                         ch_merger_plan *out)
{
    ch_merge_step *s = &out->step[out->nsteps++];
    s->absorbed = (int8_t)a;
    s->absorber = (int8_t)b;
    s->absorbed_value = w->co[a].value;
    s->absorber_value = w->co[b].value;
    s->value_after = clamp_value(w, w->co[b].value + w->co[a].value);
    s->flag = (int8_t)(w->co[a].flag ? w->co[a].flag - 1 : -1);
    s->flag_sale = s->flag >= 0 ? GA_FLAG_STOCKS * s->absorbed_value : 0;
    for (int q = 0; q < CH_MAX_PLAYERS; q++)
        s->stocks[q] = q < st->nplayers ? seen_stocks(st, p, q, a) : 0;
    w->co[b].value = (int16_t)s->value_after;
    w->m_set &= (uint16_t)~(1u << a);
}

/* The pairs still to merge in w (its m_set and values), walked as the
 * engine walks them (merge_next) while no choice is left to the builder:
 * each pair in out->step, then out->choose (the companies among which the
 * builder picks the next pair) or out->survivor. Only public fields of w are
 * read (values, m_set, flags), and the holdings through seen_stocks. */
static void preview_walk(ch_state *w, const ch_state *st, int p, ch_merger_plan *out)
{
    while (popc(w->m_set) >= 2) {
        uint8_t ab[CH_MAX_COMPANIES * CH_MAX_COMPANIES], ar[CH_MAX_COMPANIES * CH_MAX_COMPANIES];
        int n = merge_pairs(w, ab, ar);
        if (n != 1) {
            out->choose = w->m_set;
            /* the companies a merger joins touch one plot: at most
               CH_MAX_NEIGH, so at most as many pairs as the arrays hold */
            assert(n <= (int)sizeof out->pair_absorbed);
            out->npairs = n;
            for (int i = 0; i < n; i++) {
                out->pair_absorbed[i] = (int8_t)ab[i];
                out->pair_absorber[i] = (int8_t)ar[i];
            }
            return;
        }
        preview_pair(w, st, p, ab[0], ar[0], out);
    }
    out->survivor = __builtin_ctz(w->m_set);
    out->survivor_flag = (int8_t)(w->co[out->survivor].flag ? w->co[out->survivor].flag - 1 : -1);
    out->survivor_flag_worth = out->survivor_flag >= 0 ? GA_FLAG_STOCKS * out->final_value : 0;
}

int ch_merger_preview(const ch_state *st, int p, const ch_move *m, ch_merger_plan *out)
{
    if (!st || !out || st->magic != CH_STATE_MAGIC || p < -1 || p >= st->nplayers)
        return CH_EINVAL;
    int ph = st->phase;
    if (m) {
        /* a choice of the decision: one of the builder's legal credit or
           merge moves (a sale changes no value: the merger as it stands) */
        if ((ph != CH_PH_CREDIT && ph != CH_PH_MERGE) ||
            (m->type != CH_M_CREDIT && m->type != CH_M_MERGE))
            return CH_EINVAL;
        ch_msg why;
        if (ch_check(st, st->active, *m, &why) != CH_OK)
            return CH_EINVAL;
    } else if (ph != CH_PH_MERGE && ph != CH_PH_MERGE_SELL) {
        return CH_EINVAL;
    }
    memset(out, 0, sizeof *out);
    out->credited = out->survivor = -1;
    out->survivor_flag = -1;
    out->builder = st->active;
    out->sold_at_once = st->edition == CH_ED_GOLDEN_AGE;
    /* the walk's copy: only the companies' values and the merger's set are
       changed and read (no hidden field) */
    ch_state *w = malloc(sizeof *w);
    if (!w)
        return CH_ENOMEM;
    memcpy(w, st, sizeof *w);
    if (m && m->type == CH_M_CREDIT) {
        int c = m->a;
        out->credited = c;
        out->credited_from = st->co[c].value;
        int v = st->edition == CH_ED_GOLDEN_AGE ? ga_credit_value(st, c) : ba_credit_value(st, c);
        w->co[c].value = (int16_t)clamp_value(st, v);
        out->credited_value = w->co[c].value;
        w->m_set = (uint16_t)adjacent_companies(st, st->b_plot);
    } else if (m) {
        preview_pair(w, st, p, m->a, m->b, out);
    } else if (ph == CH_PH_MERGE_SELL) {
        preview_pair(w, st, p, st->m_absorbed, st->m_absorber, out);
    }
    /* the builder's payout, the survivor's final value: the sum of the
       values the merger joins, capped once; capping after each pair gives
       the same (all values are positive), so it is known before a tie's
       choice (Rulebook "C. Merging", step 8; R-24; G-15) */
    int sum = 0;
    for (int c = 0; c < st->ncompanies; c++)
        if (w->m_set >> c & 1)
            sum += w->co[c].value;
    out->final_value = clamp_value(st, sum);
    preview_walk(w, st, p, out);
    free(w);
    return CH_OK;
}
