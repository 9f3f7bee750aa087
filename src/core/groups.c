/* groups.c: connectivity and distance on the plot graph, shared by both
 * editions. Adjacency is between plots: orthogonal neighbours and plots joined
 * by a bridge (RULINGS.md "Adjacency"); distance is the shortest path through
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
    const ch_board *b = &st->board;
    for (int i = 0; i < b->deg[x]; i++)
        if (b->adj[x][i] == y)
            return 1;
    return 0;
}

void lone_component(const ch_state *st, int x, plotset *out)
{
    const ch_board *b = &st->board;
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
    const ch_board *b = &st->board;
    unsigned set = 0;
    if (has_piece(st, x) && st->owner[x] != CH_NONE)
        set |= 1u << st->owner[x];
    for (int i = 0; i < b->deg[x]; i++) {
        int y = b->adj[x][i];
        if (has_piece(st, y) && st->owner[y] != CH_NONE)
            set |= 1u << st->owner[y];
    }
    return set;
}

/* Spacing (RULINGS.md "Spacing"): a new company's plots must be at distance
 * >= BA_SPACING from every piece of every company. The danger zone is every
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
    for (int i = 0; i < CH_MAX_PLOTS / 16; i++) {
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
    int n = st->board.nplots;
    uint64_t valid[2] = {n >= 64 ? ~0ull : (1ull << n) - 1,
                         n >= 128 ? ~0ull : n <= 64 ? 0 : (1ull << (n - 64)) - 1};
    pb[0] &= valid[0], pb[1] &= valid[1], lb[0] &= valid[0], lb[1] &= valid[1];
#else
    for (int x = 0; x < st->board.nplots; x++) {
        uint64_t p = (st->height[x] | (st->pflags[x] & (CH_PF_HQ | CH_PF_UPSIDE))) != 0;
        uint64_t l = p & (st->owner[x] == CH_NONE);
        pb[x >> 6] |= p << (x & 63);
        lb[x >> 6] |= l << (x & 63);
    }
#endif
    memcpy(piece->b, pb, sizeof pb);
    memcpy(lone->b, lb, sizeof lb);
}

void danger_zone(const ch_state *st, const plotset *companies, plotset *out)
{
    const ch_board *b = &st->board;
    plotset cur = *companies;
    /* dilate BA_SPACING-1 times by the neighbour bitsets */
    for (int depth = 1; depth < BA_SPACING; depth++) {
        plotset next = cur;
        for (int w = 0; w < 2; w++)
            for (uint64_t bits = cur.b[w]; bits; bits &= bits - 1) {
                int x = w * 64 + __builtin_ctzll(bits);
                next.b[0] |= b->nbmask[x][0];
                next.b[1] |= b->nbmask[x][1];
            }
        cur = next;
    }
    *out = cur;
}

int company_connected(const ch_state *st, int c, int without, int *stacks)
{
    const ch_board *b = &st->board;
    uint8_t stack[CH_MAX_PLOTS];
    int top = 0, total = 0, ws = 0, start = -1, reached = 0;
    for (int x = 0; x < b->nplots; x++) {
        if (x == without || !has_piece(st, x) || st->owner[x] != c)
            continue;
        total++;
        if (st->height[x] > 0)
            ws++;
        if (start < 0)
            start = x;
    }
    if (stacks)
        *stacks = ws;
    if (start < 0)
        return 1;
    plotset seen;
    memset(&seen, 0, sizeof seen);
    ps_add(&seen, start);
    stack[top++] = (uint8_t)start;
    while (top) {
        int y = stack[--top];
        reached++;
        for (int i = 0; i < b->deg[y]; i++) {
            int z = b->adj[y][i];
            if (z == without || ps_has(&seen, z) || !has_piece(st, z) || st->owner[z] != c)
                continue;
            ps_add(&seen, z);
            stack[top++] = (uint8_t)z;
        }
    }
    return reached == total;
}
