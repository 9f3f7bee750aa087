/* build.c: turn option 2, playing building cards (Rulebook "Turn option 2: Play
 * a building card"). A plot card has four outcomes: found, expand, merge, lone
 * warehouse; level cards raise a stack; two plot cards may found together.
 * Move generation here allocates nothing and fills the caller's buffer. */
#include "internal.h"

/* K_ISOLATED: no piece next to the plot; diagonal founding is then possible
 * or not (K_DIAG or K_LONE), worked out only when it matters (resolve_isolated). */
enum { K_ILLEGAL, K_LONE, K_DIAG, K_FOUND, K_EXPAND, K_MERGE, K_ISOLATED };

typedef struct playinfo {
    int kind;
    unsigned comps;   /* companies touched (expand, merge)                */
    int lone_value;   /* value of the lone warehouses joined              */
} playinfo;

/* The table seen as bitsets, read from the state's board caches (kept up to
 * date by every move, board_sync): where pieces are, which are lone
 * warehouses, the spacing danger zone; and the foundable companies.
 * Between turns no two lone warehouses touch (they would be a company), so a
 * plot's lone component is just its lone neighbours. */
typedef struct tview {
    const ch_state *st;
    const board_entry *be;             /* the board and its derived tables */
    plotset piece, lone, comp, danger; /* comp: plots with company pieces */
    int avail;
} tview;

static void make_view(const ch_state *st, tview *v)
{
    v->st = st;
    v->be = BENT(st);
    v->piece.b[0] = st->piece[0];
    v->piece.b[1] = st->piece[1];
    v->lone.b[0] = st->lone[0];
    v->lone.b[1] = st->lone[1];
    v->comp.b[0] = v->piece.b[0] & ~v->lone.b[0];
    v->comp.b[1] = v->piece.b[1] & ~v->lone.b[1];
    v->danger.b[0] = st->zone[0];
    v->danger.b[1] = st->zone[1];
    v->avail = company_available(st);
}

/* Would a new company on the plots of g respect spacing? */
static int view_spacing_ok(tview *v, const plotset *g)
{
    return spacing_ok(&v->danger, g);
}

static int lone_value(const ch_state *st, const plotset *lone)
{
    int v = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = lone->b[w]; bits; bits &= bits - 1) {
            int x = w * 64 + __builtin_ctzll(bits);
            v += (st->pflags[x] & CH_PF_ROOF) ? BA_ROOF_DELTA : stack_value(st->height[x]);
        }
    return v;
}

static int no_adjacent_piece(const ch_state *st, tview *v, int x)
{
    (void)st;
    const uint64_t *nb = v->be->b.nbmask[x];
    return !((nb[0] & v->piece.b[0]) | (nb[1] & v->piece.b[1]));
}

/* Are plots x and y diagonally adjacent: on the same board, sharing a corner,
 * one row and one column apart (RULINGS.md "Diagonal founding": B1 and D1,
 * one empty plot between them in a row, are not)? The board table holds the
 * answer (board_entry.dmask). */
static int diagonal(const board_entry *be, int x, int y)
{
    return bs_has(be->dmask[x], y);
}

/* Diagonal founding (RULINGS.md "Diagonal founding"; R-18): the new warehouse x
 * is diagonally adjacent to a lone warehouse (single card) or to x2 (two-card
 * founding); the HQ placeholder goes on an empty plot e adjacent to both, one
 * of the two other corners. The group is x, x2, e and the lone warehouses next
 * to e; it must respect spacing. Returns how many plots qualify. */
static int diag_options(const ch_state *st, tview *v, int x, int x2, int need_lone,
                        plotset *out)
{
    (void)st;
    const board_entry *be = v->be;
    const ch_board *b = &be->b;
    int n = 0;
    out->b[0] = out->b[1] = 0;
    if (x2 != CH_NONE && !diagonal(be, x, x2))
        return 0;
    /* the bitsets in locals, as whole words: x and x2 as single bits */
    uint64_t xb[2] = {0, 0}, yb[2] = {0, 0};
    bs_set(xb, x);
    if (x2 != CH_NONE)
        bs_set(yb, x2);
    const uint64_t lone0 = v->lone.b[0] & ~(xb[0] | yb[0]), lone1 = v->lone.b[1] & ~(xb[1] | yb[1]);
    const uint64_t dx0 = be->dmask[x][0], dx1 = be->dmask[x][1];
    if (need_lone && !((lone0 & dx0) | (lone1 & dx1)))
        return 0; /* no lone warehouse at all is diagonal to x */
    for (int i = 0; i < b->deg[x]; i++) {
        int e = b->adj[x][i];
        if (bs_has(v->piece.b, e) || e == x2)
            continue;
        const uint64_t *ne = b->nbmask[e];
        if (x2 != CH_NONE && !((ne[0] & yb[0]) | (ne[1] & yb[1])))
            continue;
        uint64_t g0 = ne[0] & lone0, g1 = ne[1] & lone1;
        if (need_lone && !((g0 & dx0) | (g1 & dx1)))
            continue; /* no lone warehouse next to e is diagonal to x */
        g0 |= xb[0] | yb[0];
        g1 |= xb[1] | yb[1];
        if (e < 64)
            g0 |= 1ull << e;
        else
            g1 |= 1ull << (e - 64);
        if ((g0 & v->danger.b[0]) | (g1 & v->danger.b[1]))
            continue; /* spacing */
        bs_set(out->b, e);
        n++;
    }
    return n;
}

/* Classify a plot card on plot x, before it is placed (between turns). */
static void classify(const ch_state *st, tview *v, int x, playinfo *pi)
{
    pi->kind = K_ILLEGAL;
    pi->comps = 0;
    pi->lone_value = 0;
    if (st->height[x] > 0)
        return;
    /* An upside-down placeholder becomes a normal warehouse without a new piece
     * (RULINGS.md "HQ placeholder in a merger"; R-22), unless none was taken
     * (R-26). */
    int need = (st->pflags[x] & CH_PF_UPSIDE) && !(st->pflags[x] & CH_PF_NOPIECE) ? 0 : 1;
    if (st->supply < need)
        return;
    const uint64_t *nb = v->be->b.nbmask[x];
    /* next to a company piece: the near cache (board_sync) */
    int near_company = bs_has(st->near, x) || bs_has(v->comp.b, x);
    pi->comps = near_company ? adjacent_companies(st, x) : 0;
    plotset lone;
    lone.b[0] = nb[0] & v->lone.b[0];
    lone.b[1] = nb[1] & v->lone.b[1];
    if (pi->comps && !(pi->comps & (pi->comps - 1))) { /* one company */
        pi->kind = K_EXPAND;
        pi->lone_value = lone_value(st, &lone);
    } else if (pi->comps) {
        pi->kind = K_MERGE;
        pi->lone_value = lone_value(st, &lone);
    } else if (lone.b[0] | lone.b[1]) {
        /* Founding: a build that would found but cannot is not legal
         * (RULINGS.md "A build that would found a company but cannot"; R-15). */
        bs_set(lone.b, x);
        if (v->avail && view_spacing_ok(v, &lone))
            pi->kind = K_FOUND;
    } else {
        pi->kind = K_ISOLATED;
    }
}

static inline int resolve_isolated(const ch_state *st, tview *v, int x)
{
    /* most isolated plots have no lone warehouse diagonal to them at all:
     * ruled out here, before the call (diag_options tests it again) */
    const uint64_t *d = v->be->dmask[x];
    if (!v->avail || !((d[0] & v->lone.b[0]) | (d[1] & v->lone.b[1])))
        return K_LONE;
    plotset opts;
    return diag_options(st, v, x, CH_NONE, 1, &opts) ? K_DIAG : K_LONE;
}

/* classify, with an isolated plot resolved to K_DIAG or K_LONE. */
static void classify_full(const ch_state *st, tview *v, int x, playinfo *pi)
{
    classify(st, v, x, pi);
    if (pi->kind == K_ISOLATED)
        pi->kind = resolve_isolated(st, v, x);
}

/* Would a single plot card on x found a company legally? (two-card rule) */
int single_founds(const ch_state *st, int x)
{
    playinfo pi;
    tview v;
    make_view(st, &v);
    classify_full(st, &v, x, &pi);
    return pi.kind == K_FOUND || pi.kind == K_DIAG;
}

/* A broken roof may only go on a build that changes a company's value
 * (RULINGS.md "Action cards": "A roof may only be put on a build that
 * changes a company's value"; R-31). An expansion (a level on a company's
 * warehouse too) changes its company's value unless the roof leaves it where
 * it was, at the f20 floor. */
static int roof_changes(const ch_state *st, int c, int delta)
{
    int old = st->co[c].value;
    return clamp_value(st, old + delta) != old;
}

/* The same reading for every build (issue 29): a founding puts a company on
 * the chart, a merger takes one off it and pays the survivor's final value
 * so both always change a value, whichever company is credited; a
 * lone warehouse changes none. */
static int roof_ok_plot(const ch_state *st, const playinfo *pi)
{
    if (pi->kind == K_FOUND || pi->kind == K_DIAG || pi->kind == K_MERGE)
        return 1;
    if (pi->kind == K_EXPAND)
        return roof_changes(st, __builtin_ctz(pi->comps), BA_ROOF_DELTA + pi->lone_value);
    return 0;
}

/* Two plot cards may found a company when neither alone would have
 * (Rulebook "Founding a company with two cards"; RULINGS.md "Two-card founding";
 *
 * A card next to any piece would expand, merge or found alone, so both plots
 * must stand clear; then they found orthogonally (adjacent) or diagonally. */
static int pair_founds(const ch_state *st, tview *v, int x1, int x2)
{
    if (bs_has(v->piece.b, x1) || bs_has(v->piece.b, x2) || st->supply < 2 || !v->avail)
        return 0;
    if (!no_adjacent_piece(st, v, x1) || !no_adjacent_piece(st, v, x2))
        return 0;
    if (bs_has(v->be->b.nbmask[x1], x2)) {
        plotset g;
        memset(&g, 0, sizeof g);
        bs_set(g.b, x1);
        bs_set(g.b, x2);
        return view_spacing_ok(v, &g);
    }
    plotset opts;
    return diag_options(st, v, x1, x2, 0, &opts) > 0;
}

/* A level card c (level k) on every stack one lower, and with a broken roof
 * where one may go, once for each level: level cards are
 * interchangeable, the lowest one plays (seen_level). */
static inline int level_plays(const ch_state *st, const tview *v, int c, int k,
                              int *seen_level, ch_move *buf, int cap, int n)
{
    const ch_player *pl = &st->pl[st->active];
    if ((*seen_level >> k & 1) || st->supply < 1)
        return n;
    *seen_level |= 1 << k;
    uint64_t at[2];
    byte_mask(st->height, k - 1, at); /* stacks one lower */
    for (int w2 = 0; w2 < 2; w2++)
        for (uint64_t pb = v->piece.b[w2] & at[w2]; pb; pb &= pb - 1) {
            int y = w2 * 64 + __builtin_ctzll(pb);
            emit(buf, cap, &n, CH_M_PLAY, c, y, CH_NONE, 0);
            int o = st->owner[y];
            /* One broken roof per stack. */
            if (pl->roofs && o != CH_NONE && !(st->pflags[y] & CH_PF_ROOF) &&
                roof_changes(st, o, BA_ROOF_DELTA))
                emit(buf, cap, &n, CH_M_PLAY, c, y, CH_NONE, 1);
        }
    return n;
}

/* The plays of the active player's hand, card by card: the reference that
 * gen_plays below agrees with (ch_validate compares them), and what it falls
 * back on for hands it does not handle as bitsets. */
int gen_plays_cards(const ch_state *st, ch_move *buf, int cap, int n)
{
    const ch_player *pl = &st->pl[st->active];
    uint8_t plots[CH_MAX_CARDS];
    uint8_t alone[CH_MAX_CARDS];
    int np = 0;
    tview v;
    make_view(st, &v);
    int seen_level = 0; /* level cards are interchangeable: the lowest id plays */
    for (int w = 0; w < 2; w++) {
      for (uint64_t bits = pl->hand[w]; bits; bits &= bits - 1) {
        int c = w * 64 + __builtin_ctzll(bits);
        if (st->card_level[c]) {
            n = level_plays(st, &v, c, st->card_level[c], &seen_level, buf, cap, n);
            continue;
        }
        int x = st->card_plot[c];
        playinfo pi;
        classify(st, &v, x, &pi);
        if (pi.kind == K_ISOLATED && pl->roofs)
            pi.kind = resolve_isolated(st, &v, x);
        if (pi.kind != K_ILLEGAL) {
            emit(buf, cap, &n, CH_M_PLAY, c, x, CH_NONE, 0);
            if (pl->roofs && roof_ok_plot(st, &pi))
                emit(buf, cap, &n, CH_M_PLAY, c, x, CH_NONE, 1);
        }
        /* alone: would this card found by itself? 2 = not worked out yet */
        alone[np] = (uint8_t)(pi.kind == K_ISOLATED ? 2 : pi.kind == K_FOUND || pi.kind == K_DIAG);
        plots[np++] = (uint8_t)c;
      }
    }
    /* Two-card foundings: both orders, the first card carries the HQ. A
     * partner must lie within two steps of x1 (farther away it can neither
     * touch x1 nor share an empty neighbour with it): the candidates are
     * looked up as a bitset of plots, not pair by pair, and taken in card
     * order as before. cand holds the plots of the later cards that may
     * still pair (not founding alone). */
    if (st->supply >= 2 && v.avail) {
        uint64_t cand[2] = {0, 0};
        uint8_t at_plot[CH_MAX_PLOTS]; /* index in plots[] of a hand plot */
        for (int i = 0; i < np; i++) {
            int x = st->card_plot[plots[i]];
            at_plot[x] = (uint8_t)i;
            if (alone[i] != 1)
                bs_set(cand, x);
        }
        for (int i = 0; i < np; i++) {
            int x1 = st->card_plot[plots[i]];
            bs_clr(cand, x1);
            if (alone[i] == 1)
                continue;
            if (!no_adjacent_piece(st, &v, x1))
                continue;
            const uint64_t *reach = v.be->zmask[0][x1]; /* distance < 3 */
            uint64_t r0 = reach[0] & cand[0], r1 = reach[1] & cand[1];
            if (!(r0 | r1))
                continue;
            uint8_t js[CH_MAX_CARDS];
            int nj = 0;
            for (int w = 0; w < 2; w++)
                for (uint64_t bits = w ? r1 : r0; bits; bits &= bits - 1) {
                    int j = at_plot[w * 64 + __builtin_ctzll(bits)], k = nj++;
                    for (; k > 0 && js[k - 1] > j; k--) /* card order */
                        js[k] = js[k - 1];
                    js[k] = (uint8_t)j;
                }
            for (int t = 0; t < nj; t++) {
                int j = js[t], x2 = st->card_plot[plots[j]];
                if (alone[j] == 1)
                    continue;
                if (alone[i] == 2)
                    alone[i] = resolve_isolated(st, &v, x1) == K_DIAG;
                if (alone[i])
                    break;
                if (alone[j] == 2) {
                    alone[j] = resolve_isolated(st, &v, x2) == K_DIAG;
                    if (alone[j])
                        bs_clr(cand, x2);
                }
                if (alone[j] || !pair_founds(st, &v, x1, x2))
                    continue;
                /* a founding may carry a roof, on the first card's warehouse */
                emit(buf, cap, &n, CH_M_PLAY, plots[i], x1, plots[j], 0);
                if (pl->roofs)
                    emit(buf, cap, &n, CH_M_PLAY, plots[i], x1, plots[j], 1);
                emit(buf, cap, &n, CH_M_PLAY, plots[j], x2, plots[i], 0);
                if (pl->roofs)
                    emit(buf, cap, &n, CH_M_PLAY, plots[j], x2, plots[i], 1);
            }
        }
    }
    return n;
}

/* Why a play is not legal, in words. Called only when the move is not in the
 * legal list, to explain it. */
int play_legal_reason(const ch_state *st, int p, ch_move m, ch_msg *why)
{
    char name[48], name2[48];
    if (m.a >= st->ncards)
        return fail(why, CH_EILLEGAL, "there is no such card");
    ch_card_name(st, m.a, name, sizeof name);
    if (!bs_has(st->pl[p].hand, m.a))
        return fail(why, CH_EILLEGAL, "%s is not in your hand", name);
    if (m.c != CH_NONE) {
        if (m.c >= st->ncards || !bs_has(st->pl[p].hand, m.c)) {
            if (m.c < st->ncards)
                ch_card_name(st, m.c, name2, sizeof name2);
            else
                snprintf(name2, sizeof name2, "that card");
            return fail(why, CH_EILLEGAL, "%s is not in your hand", name2);
        }
        if (st->card_level[m.a] || st->card_level[m.c])
            return fail(why, CH_EILLEGAL, "only two plot cards can be played together");
        if ((m.n & 1) && !st->pl[p].roofs)
            return fail(why, CH_EILLEGAL, "you hold no broken roof");
        if (st->supply < 2)
            return fail(why, CH_EILLEGAL, "the supply has fewer than two warehouses");
        if (single_founds(st, st->card_plot[m.a]) || single_founds(st, st->card_plot[m.c]))
            return fail(why, CH_EILLEGAL, "two cards may found only when neither card alone would found a company");
        if (!company_available(st))
            return fail(why, CH_EILLEGAL, "no company is left to found");
        return fail(why, CH_EILLEGAL, "these two plots do not found a company together (they must be orthogonally or diagonally adjacent, clear of other buildings, and respect spacing)");
    }
    if (m.n & 1) {
        if (!st->pl[p].roofs)
            return fail(why, CH_EILLEGAL, "you hold no broken roof");
    }
    if (st->supply < 1)
        return fail(why, CH_EILLEGAL, "no warehouse is left in the supply");
    ch_plot_name(BRD(st), m.b, name2, sizeof name2);
    if (st->card_level[m.a]) {
        int k = st->card_level[m.a];
        if (m.b >= BRD(st)->nplots)
            return fail(why, CH_EILLEGAL, "no such plot");
        if (st->height[m.b] == 0)
            return fail(why, CH_EILLEGAL, "there is no warehouse on %s to put a level on", name2);
        if (st->height[m.b] != k - 1)
            return fail(why, CH_EILLEGAL, "a level %d card goes on a stack of %d, and %s has %d", k, k - 1,
                        name2, st->height[m.b]);
        if (st->pflags[m.b] & CH_PF_ROOF)
            return fail(why, CH_EILLEGAL, "%s already carries a broken roof: one roof per stack", name2);
        return fail(why, CH_EILLEGAL, "a broken roof may only go on a build that changes a company's value");
    }
    if (m.b != st->card_plot[m.a])
        return fail(why, CH_EILLEGAL, "the card %s builds only on its own plot", name);
    if (st->height[m.b] > 0)
        return fail(why, CH_EILLEGAL, "%s is already built", name2);
    playinfo pi;
    tview v;
    make_view(st, &v);
    classify_full(st, &v, m.b, &pi);
    if (pi.kind == K_ILLEGAL) {
        if (!company_available(st))
            return fail(why, CH_EILLEGAL, "%s would found a company, but no HQ is left", name2);
        return fail(why, CH_EILLEGAL, "%s would found a company too close to another company (spacing: two free plots)", name2);
    }
    return fail(why, CH_EILLEGAL, "a broken roof may only go on a build that changes a company's value");
}

/* ---- applying ------------------------------------------------------------ */

static void place_warehouse(ch_state *st, int x)
{
    if ((st->pflags[x] & CH_PF_UPSIDE) && !(st->pflags[x] & CH_PF_NOPIECE)) {
        st->pflags[x] &= (uint8_t)~CH_PF_UPSIDE; /* turned over: no new piece */
    } else {
        assert(st->supply > 0);
        st->pflags[x] &= (uint8_t)~(CH_PF_UPSIDE | CH_PF_NOPIECE);
        st->supply--;
    }
    st->height[x] = 1;
    if (st->supply == 0)
        st->end_triggered = 1; /* RULINGS.md "Game end": the 62nd warehouse */
}

static void discard_card(ch_state *st, int card)
{
    card_from_hand(st, st->active, card);
    st->discard[st->ndiscard++] = (uint8_t)card;
    st->loc[card] = CH_LOC_DISCARD;
}

/* The plots of s go to company c. */
static void set_owner(ch_state *st, const plotset *s, int c)
{
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = s->b[w]; bits; bits &= bits - 1)
            st->owner[w * 64 + __builtin_ctzll(bits)] = (uint8_t)c;
}

/* Pay the builder the new value when a company's value changed (Rulebook
 * "Payout"). */
static void payout_if_changed(ch_state *st, int old, int v)
{
    if (v != old)
        bank_pays(st, st->active, v);
}

void apply_play(ch_state *st, ch_move m)
{
    int p = st->active;
    st->built = 1;
    st->b_card = m.a;
    st->b_card2 = m.c;
    st->b_roof = (uint8_t)(m.n & 1);
    st->b_hq = CH_NONE;
    st->b_plot2 = CH_NONE;
    if (st->b_roof)
        st->pl[p].roofs--;
    if (st->card_level[m.a]) {
        /* Level card (Rulebook "Level cards"; R-23): a level k adds k x f10;
         * on a lone warehouse it changes no value and pays nothing. */
        int y = m.b, k = st->card_level[m.a];
        discard_card(st, m.a);
        st->height[y]++;
        st->supply--;
        if (st->supply == 0)
            st->end_triggered = 1;
        st->b_plot = (uint8_t)y;
        if (st->b_roof)
            st->pflags[y] |= CH_PF_ROOF;
        int c = st->owner[y];
        if (c != CH_NONE) {
            int old = st->co[c].value;
            int v = set_value(st, c, old + (st->b_roof ? BA_ROOF_DELTA : 10 * k));
            payout_if_changed(st, old, v);
        }
        enter_trade(st);
        return;
    }
    int x = m.b;
    st->b_plot = (uint8_t)x;
    if (m.c != CH_NONE) {
        int x2 = st->card_plot[m.c];
        st->b_plot2 = (uint8_t)x2;
        int adjacent = plot_adjacent(st, x, x2);
        discard_card(st, m.a);
        discard_card(st, m.c);
        place_warehouse(st, x);
        place_warehouse(st, x2);
        if (st->b_roof)
            st->pflags[x] |= CH_PF_ROOF; /* on the first card's warehouse */
        if (adjacent) {
            st->b_hq = (uint8_t)x;
            st->phase = CH_PH_FOUND;
        } else {
            st->phase = CH_PH_HQ;
        }
        return;
    }
    playinfo pi;
    tview v;
    make_view(st, &v);
    classify_full(st, &v, x, &pi);
    discard_card(st, m.a);
    place_warehouse(st, x);
    if (st->b_roof)
        st->pflags[x] |= CH_PF_ROOF;
    switch (pi.kind) {
    case K_LONE:
        enter_trade(st);
        break;
    case K_DIAG:
        st->phase = CH_PH_HQ;
        break;
    case K_FOUND:
        st->b_hq = (uint8_t)x;
        st->phase = CH_PH_FOUND;
        break;
    case K_EXPAND: {
        int c = __builtin_ctz(pi.comps);
        plotset lone;
        lone_component(st, x, &lone);
        set_owner(st, &lone, c);
        st->owner[x] = (uint8_t)c;
        int old = st->co[c].value;
        int v = set_value(st, c, old + (st->b_roof ? BA_ROOF_DELTA : 10) + pi.lone_value);
        payout_if_changed(st, old, v);
        enter_trade(st);
        break;
    }
    case K_MERGE:
        st->phase = CH_PH_CREDIT;
        break;
    default:
        assert(0);
    }
}

/* Building Amsterdam: company c's value (not yet capped) once it is
 * credited with the new warehouse of a merger: the warehouse (f10, or -f50
 * with a broken roof: R-31) and the lone warehouses it joins (Rulebook "C.
 * Merging", step 4; R-24). The credit applies it; ch_merger_preview reads it. */
int ba_credit_value(const ch_state *st, int c)
{
    plotset lone;
    lone_component(st, st->b_plot, &lone);
    return st->co[c].value + (st->b_roof ? BA_ROOF_DELTA : 10) + lone_value(st, &lone);
}

/* Options of the HQ phase (diagonal founding). */
static int hq_options(const ch_state *st, plotset *opts)
{
    /* The new warehouse(s) stand lone on the board now; the view treats them
     * as the plots x and x2 that diag_options leaves out of the lone set. */
    tview v;
    make_view(st, &v);
    bs_clr(v.piece.b, st->b_plot);
    if (st->b_plot2 != CH_NONE)
        bs_clr(v.piece.b, st->b_plot2);
    if (st->b_plot2 != CH_NONE)
        return diag_options(st, &v, st->b_plot, st->b_plot2, 0, opts);
    return diag_options(st, &v, st->b_plot, CH_NONE, 1, opts);
}

int gen_build_phase(const ch_state *st, ch_move *buf, int cap)
{
    int n = 0;
    switch (st->phase) {
    case CH_PH_HQ: {
        plotset opts;
        hq_options(st, &opts);
        for (int e = 0; e < BRD(st)->nplots; e++)
            if (bs_has(opts.b, e))
                emit(buf, cap, &n, CH_M_HQ, e, 0, 0, 0);
        /* A single-card diagonal founding is optional, but a roof was
         * put on only because the build founds. */
        if (st->b_plot2 == CH_NONE && !st->b_roof)
            emit(buf, cap, &n, CH_M_LONE, 0, 0, 0, 0);
        break;
    }
    case CH_PH_FOUND: {
        int avail = company_available(st);
        for (int c = 0; c < st->ncompanies; c++)
            if (avail >> c & 1)
                emit(buf, cap, &n, CH_M_FOUND, c, 0, 0, 0);
        break;
    }
    case CH_PH_CREDIT: {
        unsigned comps = adjacent_companies(st, st->b_plot);
        /* With a roof, any company may be credited: the merger changes a
         * value whichever it is. */
        for (int c = 0; c < st->ncompanies; c++) {
            if (!(comps >> c & 1))
                continue;
            emit(buf, cap, &n, CH_M_CREDIT, c, 0, 0, 0);
        }
        break;
    }
    default:
        break;
    }
    return n;
}

void apply_build_phase(ch_state *st, ch_move m)
{
    switch (m.type) {
    case CH_M_LONE:
        enter_trade(st);
        return;
    case CH_M_HQ:
        st->b_hq = m.a;
        st->phase = CH_PH_FOUND;
        return;
    case CH_M_FOUND: {
        /* Founding (Rulebook "A. Founding a new company"): the HQ goes on the new
         * warehouse or, diagonally, on the chosen empty plot as a placeholder;
         * the value is the sum of the group's warehouses, a roofed one counting
         * -f50 (RULINGS.md "Founding value"; R-16); the founder is paid that value. */
        int c = m.a, hq = st->b_hq;
        st->pflags[hq] |= CH_PF_HQ;
        st->owner[hq] = CH_NONE;
        plotset g;
        lone_component(st, st->b_plot, &g);
        bs_set(g.b, st->b_plot);
        int v = 0;
        for (int w = 0; w < 2; w++)
          for (uint64_t bits = g.b[w]; bits; bits &= bits - 1) {
            int x = w * 64 + __builtin_ctzll(bits);
            st->owner[x] = (uint8_t)c;
            if (st->height[x])
                v += (st->pflags[x] & CH_PF_ROOF) ? BA_ROOF_DELTA : stack_value(st->height[x]);
        }
        st->co[c].hq = (uint8_t)hq;
        st->co[c].on_chart = 0;
        v = set_value(st, c, v);
        bank_pays(st, st->active, v);
        st->founded = (uint8_t)c;
        st->discount_left = 2;
        enter_trade(st);
        return;
    }
    case CH_M_CREDIT: {
        int c = m.a, x = st->b_plot;
        plotset lone;
        lone_component(st, x, &lone);
        int v = ba_credit_value(st, c);
        set_owner(st, &lone, c);
        st->owner[x] = (uint8_t)c;
        set_value(st, c, v);
        merger_start(st, c);
        return;
    }
    default:
        assert(0);
    }
}

/* The plays of the active player's hand, the hand classified as bitsets over
 * plots: the same moves in the same order as gen_plays_cards (card order; the
 * two-card foundings after the single cards), for the common hand whose plot
 * cards all build on the plot of their own number (ident_cards). Other hands
 * go card by card. Why each set is what it
 * is: a plot card on an empty plot (supply left) next to a company piece
 * expands or merges, which is always legal; one next to lone warehouses only
 * founds with them, legal when a company is left and the group respects
 * spacing; one next to no piece at all is legal (a lone
 * warehouse or a diagonal founding) and is the only kind that can found with
 * a second card (a card next to a piece would expand, merge or found alone:
 * Plots holding a piece (placeholders) are classified one by
 * one; a built plot takes no plot card. */
int gen_plays(const ch_state *st, ch_move *buf, int cap, int n)
{
    const ch_player *pl = &st->pl[st->active];
    uint64_t hp[2], lvs[2]; /* hand plots = hand plot cards; level cards */
    if (hand_by_plots(st, hp, lvs) != 0)
        return gen_plays_cards(st, buf, cap, n);
    const uint64_t lv0 = lvs[0], lv1 = lvs[1];
    tview v;
    make_view(st, &v);
    const board_entry *be = v.be;
    const int supply = st->supply;
    uint64_t leg[2] = {0, 0}, iso[2] = {0, 0};
    /* the isolated plots whose diagonal founding was worked out, and those
     * where it is possible (resolve_isolated, when first needed) */
    uint64_t known[2] = {0, 0}, diag[2] = {0, 0};
    /* plots with a piece: built ones take no card; placeholders one by one */
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = hp[w] & v.piece.b[w]; bits; bits &= bits - 1) {
            int x = w * 64 + __builtin_ctzll(bits);
            playinfo pi;
            classify(st, &v, x, &pi);
            if (pi.kind == K_EXPAND || pi.kind == K_MERGE)
                bs_set(leg, x);
            else if (pi.kind != K_ILLEGAL)
                return gen_plays_cards(st, buf, cap, n);
        }
    if (supply >= 1) {
        for (int w = 0; w < 2; w++) {
            const uint64_t e = hp[w] & ~v.piece.b[w];
            leg[w] |= e & st->near[w];
            /* without a branch per plot (whether a plot of a random hand
             * touches a lone warehouse mispredicted): a plot next to no
             * piece is legal and isolated; one next to lone warehouses is
             * legal when it founds with them (a company left, spacing) */
            const uint64_t avail = -(uint64_t)(v.avail != 0);
            for (uint64_t bits = e & ~st->near[w]; bits; bits &= bits - 1) {
                int x = w * 64 + __builtin_ctzll(bits);
                const uint64_t *nb = be->b.nbmask[x];
                uint64_t l0 = nb[0] & v.lone.b[0], l1 = nb[1] & v.lone.b[1];
                uint64_t xb = 1ull << (x & 63);
                uint64_t none = -(uint64_t)((l0 | l1) == 0); /* no piece next to it */
                uint64_t g0 = l0 | (w ? 0 : xb), g1 = l1 | (w ? xb : 0);
                uint64_t founds = avail & -(uint64_t)(((g0 & v.danger.b[0]) | (g1 & v.danger.b[1])) == 0);
                leg[w] |= xb & (none | founds);
                iso[w] |= xb & none;
            }
        }
    }
    /* the single cards in card order: plot cards by the sets, level cards on
     * every stack one lower (the lowest card of each level) */
    if (buf && !pl->roofs && n >= 0 && cap - n >= popc64(leg[0]) + popc64(leg[1]) &&
        (!(lv0 | lv1) || plays_before_levels(leg, lvs))) {
        /* no broken roof to put on, every play card before every level card
         * (as ch_new numbers them) and room for them all: the plays in one
         * loop, no test per card (as gen_ga_plays) */
        n += put_play_bits(buf + n, leg);
        leg[0] = leg[1] = 0;
    }
    int seen_level = 0;
    for (int w = 0; w < 2; w++) {
        const uint64_t lvw = w ? lv1 : lv0;
        for (uint64_t bits = leg[w] | lvw; bits; bits &= bits - 1) {
            int c = w * 64 + __builtin_ctzll(bits);
            if (!(lvw >> (c & 63) & 1)) {
                emit(buf, cap, &n, CH_M_PLAY, c, c, CH_NONE, 0);
                if (!pl->roofs)
                    continue;
                /* a broken roof on a build that changes a value: a
                 * founding always; an isolated plot when it founds
                 * diagonally; expansions and mergers by their values */
                int roof;
                if (bs_has(iso, c)) {
                    if (!bs_has(known, c)) {
                        bs_set(known, c);
                        if (resolve_isolated(st, &v, c) == K_DIAG)
                            bs_set(diag, c);
                    }
                    roof = bs_has(diag, c);
                } else {
                    playinfo pi;
                    classify(st, &v, c, &pi);
                    roof = roof_ok_plot(st, &pi);
                }
                if (roof)
                    emit(buf, cap, &n, CH_M_PLAY, c, c, CH_NONE, 1);
                continue;
            }
            n = level_plays(st, &v, c, st->card_level[c], &seen_level, buf, cap, n);
        }
    }
    /* Two-card foundings among the cards next to no piece, as
     * gen_plays_cards finds them: x1 in card order, its partners x2 later in
     * card order within two steps, neither founding alone diagonally (worked
     * out when first needed: known, diag). */
    if (supply >= 2 && v.avail && (iso[0] | iso[1])) {
        uint64_t cand[2] = {iso[0], iso[1]};
        for (int w = 0; w < 2; w++)
            for (uint64_t bits = iso[w]; bits; bits &= bits - 1) {
                int x1 = w * 64 + __builtin_ctzll(bits);
                bs_clr(cand, x1);
                const uint64_t *reach = be->zmask[0][x1]; /* distance < 3 */
                uint64_t r0 = reach[0] & cand[0], r1 = reach[1] & cand[1];
                if (!(r0 | r1))
                    continue;
                if (!bs_has(known, x1)) {
                    bs_set(known, x1);
                    if (resolve_isolated(st, &v, x1) == K_DIAG)
                        bs_set(diag, x1);
                }
                if (bs_has(diag, x1))
                    continue;
                for (int w2 = 0; w2 < 2; w2++)
                    for (uint64_t rb = w2 ? r1 : r0; rb; rb &= rb - 1) {
                        int x2 = w2 * 64 + __builtin_ctzll(rb);
                        if (!bs_has(known, x2)) {
                            bs_set(known, x2);
                            if (resolve_isolated(st, &v, x2) == K_DIAG) {
                                bs_set(diag, x2);
                                bs_clr(cand, x2);
                            }
                        }
                        if (bs_has(diag, x2) || !pair_founds(st, &v, x1, x2))
                            continue;
                        emit(buf, cap, &n, CH_M_PLAY, x1, x1, x2, 0);
                        if (pl->roofs)
                            emit(buf, cap, &n, CH_M_PLAY, x1, x1, x2, 1);
                        emit(buf, cap, &n, CH_M_PLAY, x2, x2, x1, 0);
                        if (pl->roofs)
                            emit(buf, cap, &n, CH_M_PLAY, x2, x2, x1, 1);
                    }
            }
    }
    return n;
}

/* ch_validate's check of gen_plays: in the turn phase, the bitset
 * classification gives exactly the reference's moves in its order. */
int plays_check(const ch_state *st, ch_msg *why)
{
    enum { CAP = 1024 };
    ch_move a[CAP], b[CAP];
    if (st->phase != CH_PH_TURN || st->over)
        return CH_OK;
    int (*fast)(const ch_state *, ch_move *, int, int) =
        st->edition == CH_ED_GOLDEN_AGE ? gen_ga_plays : gen_plays;
    int (*ref)(const ch_state *, ch_move *, int, int) =
        st->edition == CH_ED_GOLDEN_AGE ? gen_ga_plays_cards : gen_plays_cards;
    int na = fast(st, a, CAP, 0), nb = ref(st, b, CAP, 0);
    if (na != nb || memcmp(a, b, sizeof a[0] * (size_t)(na < CAP ? na : CAP)))
        return fail(why, CH_EINVARIANT,
                    "the plays worked out as bitsets (%d) differ from those card by card (%d)", na, nb);
    return CH_OK;
}
