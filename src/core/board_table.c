/* board_table.c: the shared, read-only table of boards that states refer to.
 *
 * A board's topology and names (ch_board, about 4.3 KB) never change during a
 * game, so ch_state does not hold a copy: it holds board_id, the index of an
 * entry here (issue 18, part 2: a state copy was mostly the board). The state
 * stays a fixed-size plain struct without pointers, so a copy is still one
 * memcpy, and the id is reproducible:
 *   - id 0 is the empty board (nplots 0): what a zeroed state points at;
 *   - the built-in arrangements get ids 1, 2, ... in the fixed order of
 *     ch_board_builtin_names (Building Amsterdam's, then The Golden Age's), the
 *     same in every process, interned together the first time any board is;
 *   - other boards (arrangement files, JSON states) get the next free id the
 *     first time they are seen in a process. The same board content always
 *     gets the same id (boards are compared byte for byte after normalising
 *     unused bytes), so a JSON round trip gives back the same bytes.
 * Serialised forms (JSON, positions, game files) carry the board itself or its
 * arrangement name, never the id.
 *
 * Entries are written once, under a spin lock, before any state can refer to
 * them, and never change again: readers need no lock (a state naming an id
 * reached its reader through whatever synchronisation passed the state on).
 * Storage is static (no allocation, ever); when it is full, interning a new
 * board fails with CH_EINVAL and a clear message.
 *
 * Each entry also keeps tables derived from the topology that are too big to
 * copy with every state: for spacings 3 and 4 (R-17, G-11), the plots closer
 * than the spacing to each plot, so a spacing zone is a union of masks. */
#include "internal.h"
#include <stdatomic.h>

board_entry board_store[CH_BOARD_SLOTS];
static int nboards = 1;                  /* slot 0: the empty board */
static uint64_t board_hash[CH_BOARD_SLOTS];
static atomic_flag board_lock = ATOMIC_FLAG_INIT;
static int builtins_done;
static _Thread_local int last_hit; /* the id this thread interned last */

/* Unused bytes zeroed, derived neighbour sets filled: two boards with the
 * same content compare equal byte for byte. */
static void normalise(ch_board *b)
{
    int n = b->nplots > CH_MAX_PLOTS ? CH_MAX_PLOTS : b->nplots;
    int nd = b->ndistricts > CH_MAX_DISTRICTS ? CH_MAX_DISTRICTS : b->ndistricts;
    size_t l = strnlen(b->name, sizeof b->name - 1);
    memset(b->name + l, 0, sizeof b->name - l);
    for (int d = 0; d < CH_MAX_DISTRICTS; d++) {
        l = d < nd ? strnlen(b->district[d], CH_NAME_LEN - 1) : 0;
        memset(b->district[d] + l, 0, CH_NAME_LEN - l);
    }
    for (int x = 0; x < CH_MAX_PLOTS; x++) {
        l = x < n ? strnlen(b->plot_label[x], CH_LABEL_LEN - 1) : 0;
        memset(b->plot_label[x] + l, 0, CH_LABEL_LEN - l);
        if (x >= n) {
            b->plot_district[x] = 0;
            b->gx[x] = b->gy[x] = 0;
            b->deg[x] = 0;
            b->bridge[x] = 0;
        }
        int deg = b->deg[x] > CH_MAX_NEIGH ? CH_MAX_NEIGH : b->deg[x];
        for (int i = deg; i < CH_MAX_NEIGH; i++)
            b->adj[x][i] = 0;
        b->bridge[x] &= (uint8_t)((1u << deg) - 1);
    }
    board_derive(b);
}

static uint64_t hash_board(const ch_board *b)
{
    const unsigned char *p = (const unsigned char *)b;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < sizeof *b; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* The spacing masks of entry e (a breadth-first search from each plot) and
 * its diagonal neighbours. */
static void derive_zones(board_entry *e)
{
    const ch_board *b = &e->b;
    for (int s = 0; s < 2; s++)
        for (int x = 0; x < b->nplots && x < CH_MAX_PLOTS; x++) {
            uint64_t cur[2] = {0, 0}, fresh[2] = {0, 0};
            bs_set(cur, x);
            bs_set(fresh, x);
            for (int depth = 1; depth < s + 3; depth++) {
                uint64_t grow[2] = {0, 0};
                for (int w = 0; w < 2; w++)
                    for (uint64_t bits = fresh[w]; bits; bits &= bits - 1) {
                        int y = w * 64 + __builtin_ctzll(bits);
                        grow[0] |= b->nbmask[y][0];
                        grow[1] |= b->nbmask[y][1];
                    }
                fresh[0] = grow[0] & ~cur[0];
                fresh[1] = grow[1] & ~cur[1];
                cur[0] |= fresh[0];
                cur[1] |= fresh[1];
            }
            e->zmask[s][x][0] = cur[0];
            e->zmask[s][x][1] = cur[1];
        }
    /* diagonal neighbours: same district, one row and one column apart
     * (looked for among all plots: a corner need not be reachable in two
     * orthogonal steps) */
    memset(e->dmask, 0, sizeof e->dmask);
    memset(e->rmask, 0, sizeof e->rmask);
    for (int y = 0; y < b->nplots && y < CH_MAX_PLOTS; y++)
        for (int w = 0; w < 2; w++)
            for (uint64_t bits = b->nbmask[y][w]; bits; bits &= bits - 1)
                bs_set(e->rmask[w * 64 + __builtin_ctzll(bits)], y);
    for (int x = 0; x < b->nplots && x < CH_MAX_PLOTS; x++)
        for (int y = 0; y < b->nplots && y < CH_MAX_PLOTS; y++) {
            if (b->gx[x] - b->gx[y] > 1 || b->gx[y] - b->gx[x] > 1)
                continue;
            int dx = b->gx[x] - b->gx[y], dy = b->gy[x] - b->gy[y];
            if (b->plot_district[x] == b->plot_district[y] && (dx == 1 || dx == -1) &&
                (dy == 1 || dy == -1))
                bs_set(e->dmask[x], y);
        }
}

/* Under the lock: the id of normalised board b, adding it when new. */
static int lookup_or_add(const ch_board *b, uint64_t h)
{
    for (int i = 1; i < nboards; i++)
        if (board_hash[i] == h && memcmp(&board_store[i].b, b, sizeof *b) == 0)
            return i;
    if (nboards >= CH_BOARD_SLOTS)
        return -1;
    board_entry *e = &board_store[nboards];
    e->b = *b;
    derive_zones(e);
    board_hash[nboards] = h;
    return nboards++;
}

static void lock(void)
{
    while (atomic_flag_test_and_set_explicit(&board_lock, memory_order_acquire))
        ;
}

static void unlock(void)
{
    atomic_flag_clear_explicit(&board_lock, memory_order_release);
}

/* Under the lock, once: the built-in arrangements, in a fixed order, so that
 * their ids are the same in every process. */
static void intern_builtins(void)
{
    if (builtins_done)
        return;
    builtins_done = 1;
    static ch_board tmp; /* under the lock: static keeps 4 KB off the stack */
    for (int ed = CH_ED_AMSTERDAM; ed <= CH_ED_GOLDEN_AGE; ed++)
        for (const char *const *n = ch_board_builtin_names(ed); *n; n++)
            if (ch_board_builtin(&tmp, ed, *n, NULL) == CH_OK) {
                normalise(&tmp);
                lookup_or_add(&tmp, hash_board(&tmp));
            }
}

int board_intern(const ch_board *in, uint16_t *id, ch_msg *err)
{
    /* the common case, a new game on the board of the last one: boards from
     * ch_board_parse are already normalised, one comparison finds them */
    int hit = last_hit;
    if (hit > 0 && memcmp(&board_store[hit].b, in, sizeof *in) == 0) {
        *id = (uint16_t)hit;
        return CH_OK;
    }
    ch_board b = *in;
    normalise(&b);
    if (hit > 0 && memcmp(&board_store[hit].b, &b, sizeof b) == 0) {
        *id = (uint16_t)hit;
        return CH_OK;
    }
    uint64_t h = hash_board(&b);
    lock();
    intern_builtins();
    int k = lookup_or_add(&b, h);
    unlock();
    if (k < 0)
        return fail(err, CH_EINVAL, "too many different boards in one process (%d): "
                    "board \"%.32s\" cannot be added", CH_BOARD_SLOTS - 1, b.name);
    last_hit = k;
    *id = (uint16_t)k;
    return CH_OK;
}

const ch_board *ch_state_board(const ch_state *st)
{
    return BRD(st);
}

int ch_state_set_board(ch_state *st, const ch_board *b, ch_msg *err)
{
    if (err)
        ch_msg_clear(err);
    if (!st || !b)
        return fail(err, CH_EINVAL, "ch_state_set_board needs a state and a board");
    if (b->nplots > CH_MAX_PLOTS || b->ndistricts > CH_MAX_DISTRICTS)
        return fail(err, CH_EINVAL, "a board has at most %d plots and %d districts",
                    CH_MAX_PLOTS, CH_MAX_DISTRICTS);
    uint16_t id;
    int rc = board_intern(b, &id, err);
    if (rc != CH_OK)
        return rc;
    st->board_id = id;
    board_rebuild(st); /* the spacing zone depends on the topology */
    if (st->offer_cached)
        offer_cache_sync(st); /* the plot cards are the ids below the plot count */
    return CH_OK;
}
