/* groups.c: connectivity and distance on the plot graph, shared by both
 * editions. Adjacency is between plots: orthogonal neighbours and plots joined
 * by a bridge (RULINGS.md "Adjacency"); distance is the shortest path through
 * any plots, built or empty. Nothing here allocates. */
#include "internal.h"

static inline int ps_has(const plotset *s, int x) { return bs_has(s->b, x); }
static inline void ps_add(plotset *s, int x) { bs_set(s->b, x); }

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

/* Multi-source breadth-first search from the group, BA_SPACING-1 steps deep:
 * any company piece reached is too close (RULINGS.md "Spacing"). */
int spacing_ok(const ch_state *st, const plotset *group)
{
    const ch_board *b = &st->board;
    uint8_t frontier[CH_MAX_PLOTS], next[CH_MAX_PLOTS];
    int nf = 0;
    plotset seen = *group;
    for (int x = 0; x < b->nplots; x++)
        if (ps_has(group, x))
            frontier[nf++] = (uint8_t)x;
    for (int depth = 1; depth < BA_SPACING; depth++) {
        int nn = 0;
        for (int i = 0; i < nf; i++) {
            int y = frontier[i];
            for (int k = 0; k < b->deg[y]; k++) {
                int z = b->adj[y][k];
                if (ps_has(&seen, z))
                    continue;
                if (has_piece(st, z) && st->owner[z] != CH_NONE)
                    return 0;
                ps_add(&seen, z);
                next[nn++] = (uint8_t)z;
            }
        }
        memcpy(frontier, next, (size_t)nn);
        nf = nn;
    }
    return 1;
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
