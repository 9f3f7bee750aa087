/* groups.c: connectivity and distance on the plot graph, shared by both
 * editions. Adjacency is between plots: orthogonal neighbours and plots joined
 * by a bridge (RULINGS.md "Adjacency"; R-13); distance is the shortest path through
 * any plots, built or empty. Nothing here allocates. */
#include "internal.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static inline int ps_has(const plotset *s, int x) { return bs_has(s->b, x); }
static inline void ps_add(plotset *s, int x) { bs_set(s->b, x); }

void board_derive(ch_board *b)
{
    memset(b->nbmask, 0, sizeof b->nbmask);
    for (int x = 0; x < b->nplots; x++)
        for (int i = 0; i < b->deg[x]; i++)
            bs_set(b->nbmask[x], b->adj[x][i]);
}

int plot_adjacent(const ch_state *st, int x, int y)
{
    const ch_board *b = BRD(st);
    for (int i = 0; i < b->deg[x]; i++)
        if (b->adj[x][i] == y)
            return 1;
    return 0;
}

void lone_component(const ch_state *st, int x, plotset *out)
{
    const ch_board *b = BRD(st);
    uint8_t stack[CH_MAX_PLOTS];
    int top = 0;
    memset(out, 0, sizeof *out);
    ps_add(out, x);
    stack[top++] = (uint8_t)x;
    while (top) {
        int y = stack[--top];
        for (int i = 0; i < b->deg[y]; i++) {
            int z = b->adj[y][i];
            if (ps_has(out, z) || !has_piece(st, z) || st->owner[z] != CH_NONE)
                continue;
            ps_add(out, z);
            stack[top++] = (uint8_t)z;
        }
    }
    bs_clr(out->b, x);
}

unsigned adjacent_companies(const ch_state *st, int x)
{
    /* the plots with pieces among x and its neighbours, from the board
     * caches (st->piece is has_piece for every plot: board_sync) */
    const uint64_t *nb = BRD(st)->nbmask[x];
    uint64_t m[2] = {nb[0] & st->piece[0], nb[1] & st->piece[1]};
    if (has_piece(st, x))
        bs_set(m, x);
    unsigned set = 0;
    /* no branch on the owner (lone warehouses and company pieces mix) */
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = m[w]; bits; bits &= bits - 1) {
            unsigned o = st->owner[w * 64 + __builtin_ctzll(bits)];
            set |= (1u << (o & 31)) & -(unsigned)(o != CH_NONE);
        }
    return set;
}

/* Spacing (RULINGS.md "Spacing"; R-17): a new company's plots must be at distance
 * >= the edition's spacing from every piece of every company. The danger zone is every
 * plot closer than that to a company piece, found once by a multi-source
 * breadth-first search; a group respects spacing when it avoids the zone. */
/* Bitsets of the plots holding pieces and lone warehouses. This runs at every
 * build decision, so on x86-64 it compares 16 plots at a time (SSE2). */
void piece_sets(const ch_state *st, plotset *piece, plotset *lone)
{
    uint64_t pb[2] = {0, 0}, lb[2] = {0, 0};
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128(), none = _mm_set1_epi8((char)CH_NONE);
    const __m128i flags = _mm_set1_epi8((char)(CH_PF_HQ | CH_PF_UPSIDE));
    int n = BRD(st)->nplots;
    /* only the blocks of 16 that hold plots of the board (The Golden Age's
     * boards have 60 lots of the 128) */
    for (int i = 0, nb = n > CH_MAX_PLOTS - 15 ? CH_MAX_PLOTS / 16 : (n + 15) / 16; i < nb; i++) {
        __m128i h = _mm_loadu_si128((const __m128i *)(st->height + 16 * i));
        __m128i f = _mm_and_si128(_mm_loadu_si128((const __m128i *)(st->pflags + 16 * i)), flags);
        __m128i o = _mm_loadu_si128((const __m128i *)(st->owner + 16 * i));
        __m128i empty = _mm_cmpeq_epi8(_mm_or_si128(h, f), zero);
        uint64_t e = (uint64_t)(uint16_t)_mm_movemask_epi8(empty);
        uint64_t ln = (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(o, none));
        uint64_t p = ~e & 0xFFFF;
        pb[i >> 2] |= p << (16 * (i & 3));
        lb[i >> 2] |= (p & ln) << (16 * (i & 3));
    }
    uint64_t valid[2] = {n >= 64 ? ~0ull : (1ull << n) - 1,
                         n >= 128 ? ~0ull : n <= 64 ? 0 : (1ull << (n - 64)) - 1};
    pb[0] &= valid[0], pb[1] &= valid[1], lb[0] &= valid[0], lb[1] &= valid[1];
#else
    for (int x = 0; x < BRD(st)->nplots; x++) {
        uint64_t p = (st->height[x] | (st->pflags[x] & (CH_PF_HQ | CH_PF_UPSIDE))) != 0;
        uint64_t l = p & (st->owner[x] == CH_NONE);
        pb[x >> 6] |= p << (x & 63);
        lb[x >> 6] |= l << (x & 63);
    }
#endif
    memcpy(piece->b, pb, sizeof pb);
    memcpy(lone->b, lb, sizeof lb);
}

/* Bitset of the indices i < 128 with bytes[i] == value (SSE2: 16 at a time). */
void byte_mask(const uint8_t *bytes, int value, uint64_t *out)
{
    uint64_t m[2] = {0, 0};
#ifdef __SSE2__
    const __m128i want = _mm_set1_epi8((char)value);
    for (int i = 0; i < 8; i++) {
        __m128i l = _mm_loadu_si128((const __m128i *)(bytes + 16 * i));
        uint64_t bits = (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(l, want));
        m[i >> 2] |= bits << (16 * (i & 3));
    }
#else
    for (int c = 0; c < 128; c++)
        m[c >> 6] |= (uint64_t)(bytes[c] == value) << (c & 63);
#endif
    out[0] = m[0];
    out[1] = m[1];
}

void public_elsewhere(const ch_state *st, uint64_t *out)
{
    uint64_t m[2] = {0, 0};
#ifdef __SSE2__
    const __m128i mk = _mm_set1_epi8(CH_LOC_MARKET), dc = _mm_set1_epi8(CH_LOC_DISCARD),
                  un = _mm_set1_epi8(CH_LOC_UNUSED);
    for (int i = 0; i < CH_MAX_CARDS / 16; i++) {
        __m128i l = _mm_loadu_si128((const __m128i *)(st->loc + 16 * i));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(l, mk), _mm_cmpeq_epi8(l, dc)),
                                   _mm_cmpeq_epi8(l, un));
        m[i >> 2] |= (uint64_t)(uint16_t)_mm_movemask_epi8(hit) << (16 * (i & 3));
    }
#else
    for (int c = 0; c < CH_MAX_CARDS; c++) {
        int l = st->loc[c];
        m[c >> 6] |= (uint64_t)(l == CH_LOC_MARKET || l == CH_LOC_DISCARD || l == CH_LOC_UNUSED) << (c & 63);
    }
#endif
    out[0] = m[0];
    out[1] = m[1];
}

/* The danger zone by breadth-first search over the neighbour sets: the
 * reference that the debug check (board_cache_check) compares against. */
static void danger_zone_bfs(const ch_state *st, const plotset *companies, plotset *out)
{
    const ch_board *b = BRD(st);
    plotset cur = *companies, fresh = *companies;
    /* dilate spacing-1 times by the neighbour bitsets; each step only needs to
     * grow from the plots the previous step added */
    for (int depth = 1, n = ED(st)->spacing; depth < n; depth++) {
        plotset grow = {{0, 0}};
        for (int w = 0; w < 2; w++)
            for (uint64_t bits = fresh.b[w]; bits; bits &= bits - 1) {
                int x = w * 64 + __builtin_ctzll(bits);
                grow.b[0] |= b->nbmask[x][0];
                grow.b[1] |= b->nbmask[x][1];
            }
        fresh.b[0] = grow.b[0] & ~cur.b[0];
        fresh.b[1] = grow.b[1] & ~cur.b[1];
        cur.b[0] |= fresh.b[0];
        cur.b[1] |= fresh.b[1];
    }
    *out = cur;
}

/* The zone of a union of pieces is the union of their zones: one table
 * lookup per company piece (the shared board table keeps each plot's zone
 * for spacings 3 and 4, board_table.c). */
void danger_zone(const ch_state *st, const plotset *companies, plotset *out)
{
    int s = ED(st)->spacing - 3;
    if (s < 0 || s > 1) {
        danger_zone_bfs(st, companies, out);
        return;
    }
    const board_entry *e = BENT(st);
    uint64_t z0 = 0, z1 = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = companies->b[w]; bits; bits &= bits - 1) {
            int x = w * 64 + __builtin_ctzll(bits);
            z0 |= e->zmask[s][x][0];
            z1 |= e->zmask[s][x][1];
        }
    out->b[0] = z0;
    out->b[1] = z1;
}

int company_connected(const ch_state *st, int c, int without, int *stacks)
{
    const ch_board *b = BRD(st);
    plotset piece, lone, mine;
    piece_sets(st, &piece, &lone);
    byte_mask(st->owner, c, mine.b);
    mine.b[0] &= piece.b[0];
    mine.b[1] &= piece.b[1];
    if (without != CH_NONE)
        bs_clr(mine.b, without);
    if (stacks) {
        uint64_t h0[2], built[2];
        byte_mask(st->height, 0, h0);
        built[0] = mine.b[0] & ~h0[0];
        built[1] = mine.b[1] & ~h0[1];
        *stacks = bs_count(built);
    }
    if (!(mine.b[0] | mine.b[1]))
        return 1;
    /* flood fill from the lowest piece through the company's own pieces */
    plotset reach = {{0, 0}}, fresh = {{0, 0}};
    int start = mine.b[0] ? __builtin_ctzll(mine.b[0]) : 64 + __builtin_ctzll(mine.b[1]);
    bs_set(reach.b, start);
    fresh = reach;
    while (fresh.b[0] | fresh.b[1]) {
        plotset grow = {{0, 0}};
        for (int w = 0; w < 2; w++)
            for (uint64_t bits = fresh.b[w]; bits; bits &= bits - 1) {
                int x = w * 64 + __builtin_ctzll(bits);
                grow.b[0] |= b->nbmask[x][0];
                grow.b[1] |= b->nbmask[x][1];
            }
        fresh.b[0] = grow.b[0] & mine.b[0] & ~reach.b[0];
        fresh.b[1] = grow.b[1] & mine.b[1] & ~reach.b[1];
        reach.b[0] |= fresh.b[0];
        reach.b[1] |= fresh.b[1];
    }
    return reach.b[0] == mine.b[0] && reach.b[1] == mine.b[1];
}

/* The board caches of ch_state (piece, lone, zone) brought up to date after
 * the board changed. The zone grows incrementally: the danger zone of a union
 * of pieces is the union of their zones, so new company pieces only add the
 * zone around them; when a company piece leaves (an absorbed HQ, a warehouse
 * taken away) it is worked out afresh. Either way the result is exactly
 * danger_zone of the company plots, a pure function of the board. */
/* The plots with a piece of s among their neighbours: a union of the board
 * table's reverse neighbour rows. */
static void near_of(const ch_state *st, const plotset *s, uint64_t out[2])
{
    const board_entry *e = BENT(st);
    uint64_t n0 = 0, n1 = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = s->b[w]; bits; bits &= bits - 1) {
            int x = w * 64 + __builtin_ctzll(bits);
            n0 |= e->rmask[x][0];
            n1 |= e->rmask[x][1];
        }
    out[0] = n0;
    out[1] = n1;
}

/* The caches brought up to date from the board's piece and lone sets. */
static void board_sync_sets(ch_state *st, plotset piece, plotset lone)
{
    plotset old = {{st->piece[0] & ~st->lone[0], st->piece[1] & ~st->lone[1]}};
    plotset comp = {{piece.b[0] & ~lone.b[0], piece.b[1] & ~lone.b[1]}};
    if ((old.b[0] & ~comp.b[0]) | (old.b[1] & ~comp.b[1])) {
        plotset z;
        danger_zone(st, &comp, &z);
        memcpy(st->zone, z.b, sizeof st->zone);
        near_of(st, &comp, st->near);
    } else if ((comp.b[0] & ~old.b[0]) | (comp.b[1] & ~old.b[1])) {
        plotset fresh = {{comp.b[0] & ~old.b[0], comp.b[1] & ~old.b[1]}}, z;
        uint64_t nr[2];
        danger_zone(st, &fresh, &z);
        st->zone[0] |= z.b[0];
        st->zone[1] |= z.b[1];
        near_of(st, &fresh, nr);
        st->near[0] |= nr[0];
        st->near[1] |= nr[1];
    }
    memcpy(st->piece, piece.b, sizeof st->piece);
    memcpy(st->lone, lone.b, sizeof st->lone);
}

void board_sync(ch_state *st)
{
    plotset piece, lone;
    piece_sets(st, &piece, &lone);
    board_sync_sets(st, piece, lone);
}

void board_sync_plots(ch_state *st, uint64_t t0, uint64_t t1)
{
    plotset piece = {{st->piece[0] & ~t0, st->piece[1] & ~t1}};
    plotset lone = {{st->lone[0] & ~t0, st->lone[1] & ~t1}};
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = w ? t1 : t0; bits; bits &= bits - 1) {
            int x = w * 64 + __builtin_ctzll(bits);
            uint64_t p = (uint64_t)(has_piece(st, x) != 0) << (x & 63);
            piece.b[w] |= p;
            lone.b[w] |= p & -(uint64_t)(st->owner[x] == CH_NONE);
        }
    board_sync_sets(st, piece, lone);
}

void board_rebuild(ch_state *st)
{
    memset(st->piece, 0, sizeof st->piece);
    memset(st->lone, 0, sizeof st->lone);
    memset(st->zone, 0, sizeof st->zone);
    memset(st->near, 0, sizeof st->near);
    board_sync(st);
}

int board_cache_check(const ch_state *st, ch_msg *why)
{
    plotset piece, lone, comp, zone;
    piece_sets(st, &piece, &lone);
    comp.b[0] = piece.b[0] & ~lone.b[0];
    comp.b[1] = piece.b[1] & ~lone.b[1];
    danger_zone_bfs(st, &comp, &zone); /* from scratch, not from the board table */
    if (memcmp(piece.b, st->piece, sizeof piece.b))
        return fail(why, CH_EINVARIANT, "the cached plots with pieces do not match the board");
    if (memcmp(lone.b, st->lone, sizeof lone.b))
        return fail(why, CH_EINVARIANT, "the cached lone warehouses do not match the board");
    if (memcmp(zone.b, st->zone, sizeof zone.b))
        return fail(why, CH_EINVARIANT, "the cached spacing zone does not match the board");
    /* the plots next to a company piece, plot by plot from the neighbour sets */
    const ch_board *b = BRD(st);
    uint64_t near[2] = {0, 0};
    for (int x = 0; x < b->nplots; x++)
        if ((b->nbmask[x][0] & comp.b[0]) | (b->nbmask[x][1] & comp.b[1]))
            bs_set(near, x);
    if (memcmp(near, st->near, sizeof near))
        return fail(why, CH_EINVARIANT, "the cached plots next to companies do not match the board");
    return CH_OK;
}
