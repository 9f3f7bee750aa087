/* vec.c: many games stepped by one call (chartered.h "many games at once";
 * docs/python.md "Vector environment"; issue 34). Learning code steps
 * hundreds of games per policy evaluation; through Python one call per game
 * and decision cost more than the game itself, so this steps N games in one
 * call: it applies one action id per game, restarts the games that ended
 * (from seeds that follow the reset's, so a run is reproducible), and writes
 * for each game the deciding seat, its legal ids and mask, its observation,
 * the rewards and the end flags into the caller's buffers.
 *
 * Nothing allocates after ch_vec_new, except once when a game first lists
 * more legal moves than the per-game cache holds (a rich player's sealed bid
 * or offered money; the scratch list then grows and is kept). Each game keeps
 * the legal moves of its decider with their ids, so an action is checked by
 * looking its id up (not by listing the moves again, as ch_apply does) and
 * the caller's mask is cleared where it was set, not byte by byte. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Legal moves kept per game: random and greedy games rarely list more than a
 * few hundred (the longest lists are bids and offered money, one a florin). */
#define VEC_CACHE 512

struct ch_vec {
    int n, nplayers, nactions, obs_size;
    int32_t max_length;
    uint64_t next_seed;
    int ready;                 /* reset done: the outputs are valid */
    unsigned flags;            /* CH_VEC_* */
    uint8_t *done;             /* CH_VEC_NO_AUTORESET: game i ended, waits for a deal */
    ch_setup setup;
    ch_board board;
    ch_vec_out out;
    action_layout lay;
    ch_state *st;              /* n games */
    ch_move (*moves)[VEC_CACHE]; /* per game: the decider's legal moves with an id */
    int32_t (*ids)[VEC_CACHE];   /* ... and their ids (engine order) */
    int32_t *nids;             /* per game: ids kept, or -1: more than VEC_CACHE */
    int32_t *nmask;            /* ids set in the mask (to clear them), -1: all */
    int32_t *nset;             /* per game: its decider's legal ids (0: none, ended) */
    ch_move *scratch;          /* a long list (bids, money), grown when needed */
    int scratch_cap;
    int32_t *pending;          /* step: the index in moves of each game's action */
    obs_memo *memo;            /* per game (with observations): what its row holds */
    uint64_t *seen;            /* ch_vec_sample in a long list: the ids met, one bit each
                                  (nactions bits, zero between calls) */
};

static void vec_release(ch_vec *v)
{
    if (!v)
        return;
    free(v->st);
    free(v->moves);
    free(v->ids);
    free(v->nids);
    free(v->nmask);
    free(v->nset);
    free(v->scratch);
    free(v->pending);
    free(v->done);
    free(v->memo);
    free(v->seen);
    free(v);
}

void ch_vec_free(ch_vec *v)
{
    vec_release(v);
}

int ch_vec_new(ch_vec **out, const ch_setup *setup, const ch_board *board, int n, int32_t max_length,
               unsigned flags, const ch_vec_out *bufs, ch_msg *err)
{
    if (!out || !setup || !board || !bufs)
        return fail(err, CH_EINVAL, "ch_vec_new: a NULL argument");
    *out = NULL;
    if (n < 1 || n > 1 << 20)
        return fail(err, CH_EINVAL, "%d games: a vector holds 1 to %d", n, 1 << 20);
    if (flags & ~(unsigned)CH_VEC_NO_AUTORESET)
        return fail(err, CH_EINVAL, "unknown flags 0x%x", flags);
    if (max_length < 0)
        return fail(err, CH_EINVAL, "max_length %d is negative (0: no limit)", (int)max_length);
    if (!bufs->player || !bufs->rewards || !bufs->terminated || !bufs->truncated)
        return fail(err, CH_EINVAL, "ch_vec_new: player, rewards, terminated and truncated are required");
    if (bufs->legal && bufs->legal_cap < 1)
        return fail(err, CH_EINVAL, "legal_cap %d: a legal-id buffer needs room for one id a game",
                    (int)bufs->legal_cap);
    ch_state trial; /* the setup's own check, with its reason */
    int rc = ch_new(&trial, setup, board, err);
    if (rc != CH_OK)
        return rc;
    ch_vec *v = calloc(1, sizeof *v);
    if (!v)
        return fail(err, CH_ENOMEM, "out of memory");
    v->n = n;
    v->nplayers = trial.nplayers;
    v->nactions = ch_num_distinct_actions(trial.edition, trial.nplayers);
    v->obs_size = ch_observation_size(&trial);
    v->max_length = max_length;
    v->flags = flags;
    v->setup = *setup;
    v->board = *board;
    v->out = *bufs;
    if (!action_layout_of(trial.edition, trial.nplayers, &v->lay) || v->nactions < 1 || v->obs_size < 1) {
        vec_release(v);
        return fail(err, CH_EINVAL, "ch_vec_new: no action space for this game");
    }
    v->st = malloc((size_t)n * sizeof *v->st);
    v->moves = malloc((size_t)n * sizeof *v->moves);
    v->ids = malloc((size_t)n * sizeof *v->ids);
    v->nids = calloc((size_t)n, sizeof *v->nids);
    v->nmask = calloc((size_t)n, sizeof *v->nmask);
    v->nset = calloc((size_t)n, sizeof *v->nset);
    v->pending = calloc((size_t)n, sizeof *v->pending);
    v->done = calloc((size_t)n, 1);
    v->memo = bufs->obs ? calloc((size_t)n, sizeof *v->memo) : NULL;
    v->seen = calloc(((size_t)v->nactions + 63) / 64, sizeof *v->seen);
    if (!v->st || !v->moves || !v->ids || !v->nids || !v->nmask || !v->nset || !v->pending || !v->done ||
        !v->seen || (bufs->obs && !v->memo)) {
        vec_release(v);
        return fail(err, CH_ENOMEM, "out of memory for %d games", n);
    }
    *out = v;
    return CH_OK;
}

int ch_vec_info(const ch_vec *v, int *n, int *nplayers, int32_t *nactions, int *obs_size)
{
    if (!v)
        return CH_EINVAL;
    if (n)
        *n = v->n;
    if (nplayers)
        *nplayers = v->nplayers;
    if (nactions)
        *nactions = v->nactions;
    if (obs_size)
        *obs_size = v->obs_size;
    return CH_OK;
}

const ch_state *ch_vec_state(const ch_vec *v, int i)
{
    return v && v->ready && i >= 0 && i < v->n ? &v->st[i] : NULL;
}

/* The legal moves of game i's decider p: the cache, or (longer lists) the
 * scratch list; their ids into the mask and the caller's legal list. */
static int list_moves(ch_vec *v, int i, int p)
{
    const ch_state *st = &v->st[i];
    uint8_t *mask = v->out.mask ? v->out.mask + (size_t)i * (size_t)v->nactions : NULL;
    int32_t *legal = v->out.legal ? v->out.legal + (size_t)i * (size_t)v->out.legal_cap : NULL;
    /* clear what the last list set */
    if (mask) {
        if (v->nmask[i] < 0)
            memset(mask, 0, (size_t)v->nactions);
        else
            for (int k = 0; k < v->nmask[i]; k++)
                mask[v->ids[i][k]] = 0;
    }
    int n = ch_legal(st, p, v->moves[i], VEC_CACHE);
    const ch_move *mv = v->moves[i];
    if (n > VEC_CACHE) {
        if (n > v->scratch_cap) {
            ch_move *grown = realloc(v->scratch, (size_t)n * sizeof *grown);
            if (!grown)
                return -CH_ENOMEM;
            v->scratch = grown;
            v->scratch_cap = n;
        }
        n = ch_legal(st, p, v->scratch, n);
        mv = v->scratch;
    }
    int kept = 0, set = 0;
    const int cached = mv == v->moves[i];
    for (int k = 0; k < n; k++) {
        int32_t id = action_encode_in(st, mv[k], &v->lay);
        if (id < 0 || (mask && mask[id]))
            continue; /* no id (an amount above CH_ACTION_MONEY_MAX), or a repeat */
        if (mask)
            mask[id] = 1;
        if (legal && set < v->out.legal_cap)
            legal[set] = id;
        if (cached) { /* moves[i] is compacted to the moves with an id */
            v->moves[i][kept] = mv[k];
            v->ids[i][kept++] = id;
        }
        set++;
    }
    v->nids[i] = cached ? kept : -1;
    v->nmask[i] = cached ? kept : -1;
    v->nset[i] = set;
    return set;
}

/* Game i's outputs after its last move or its deal. */
static int write_game(ch_vec *v, int i)
{
    const ch_state *st = &v->st[i];
    unsigned dmask = 0;
    ch_decider(st, &dmask);
    int p = dmask ? __builtin_ctz(dmask) : 0;
    v->out.player[i] = p;
    int set = list_moves(v, i, p);
    if (set < 0)
        return -set;
    if (v->out.nlegal)
        v->out.nlegal[i] = set;
    if (v->out.obs) /* only the rows that changed since the row's last write */
        obs_write(st, p, v->out.obs + (size_t)i * (size_t)v->obs_size, &v->memo[i]);
    if (v->out.seed)
        v->out.seed[i] = st->seed;
    if (v->out.length)
        v->out.length[i] = (int32_t)st->ndecisions;
    return set ? CH_OK : CH_EILLEGAL;
}

/* The outputs of a game that ended and waits for ch_vec_reset_game
 * (CH_VEC_NO_AUTORESET): no decider, no legal ids, a zero observation. */
static void write_done(ch_vec *v, int i)
{
    v->out.player[i] = -1;
    if (v->out.mask) {
        uint8_t *mask = v->out.mask + (size_t)i * (size_t)v->nactions;
        if (v->nmask[i] < 0)
            memset(mask, 0, (size_t)v->nactions);
        else
            for (int k = 0; k < v->nmask[i]; k++)
                mask[v->ids[i][k]] = 0;
    }
    v->nmask[i] = 0;
    v->nids[i] = 0;
    v->nset[i] = 0;
    if (v->out.nlegal)
        v->out.nlegal[i] = 0;
    if (v->out.obs) {
        memset(v->out.obs + (size_t)i * (size_t)v->obs_size, 0, (size_t)v->obs_size * sizeof(float));
        v->memo[i].valid = 0;
    }
    if (v->out.length)
        v->out.length[i] = (int32_t)v->st[i].ndecisions;
}

/* Deal game i from seed. */
static int deal_seed(ch_vec *v, int i, uint64_t seed)
{
    ch_setup s = v->setup;
    s.seed = seed;
    ch_msg err;
    v->done[i] = 0;
    return ch_new(&v->st[i], &s, &v->board, &err);
}

/* Deal game i from the next seed. */
static int deal(ch_vec *v, int i)
{
    return deal_seed(v, i, v->next_seed++);
}

int ch_vec_reset_game(ch_vec *v, int i, uint64_t seed, ch_msg *err)
{
    if (!v || !v->ready || i < 0 || i >= v->n)
        return fail(err, CH_EINVAL, "ch_vec_reset_game: no game %d (or no reset yet)", i);
    int rc = deal_seed(v, i, seed);
    if (rc != CH_OK) {
        v->ready = 0;
        return fail(err, rc, "game %d: the deal failed", i);
    }
    float *rw = v->out.rewards + (size_t)i * (size_t)v->nplayers;
    memset(rw, 0, (size_t)v->nplayers * sizeof *rw);
    v->out.terminated[i] = v->out.truncated[i] = 0;
    rc = write_game(v, i);
    if (rc != CH_OK) {
        v->ready = 0;
        return fail(err, rc, "game %d: its first decider has no move with an id", i);
    }
    return CH_OK;
}

int ch_vec_reset(ch_vec *v, uint64_t seed, ch_msg *err)
{
    if (!v)
        return fail(err, CH_EINVAL, "ch_vec_reset: no vector");
    v->next_seed = seed;
    for (int i = 0; i < v->n; i++) {
        v->nmask[i] = -1; /* the caller's mask: cleared whole */
        if (v->memo) /* ... and its observation rows written whole */
            v->memo[i].valid = 0;
        int rc = deal(v, i);
        if (rc != CH_OK)
            return fail(err, rc, "game %d: the deal failed", i);
    }
    memset(v->out.rewards, 0, (size_t)v->n * (size_t)v->nplayers * sizeof *v->out.rewards);
    memset(v->out.terminated, 0, (size_t)v->n);
    memset(v->out.truncated, 0, (size_t)v->n);
    v->ready = 1;
    for (int i = 0; i < v->n; i++) {
        int rc = write_game(v, i);
        if (rc != CH_OK) {
            v->ready = 0;
            return fail(err, rc, "game %d: its first decider has no move with an id", i);
        }
    }
    return CH_OK;
}

/* The index of action id in game i's kept moves, or -1. */
static int find_id(const ch_vec *v, int i, int32_t id)
{
    for (int k = 0; k < v->nids[i]; k++)
        if (v->ids[i][k] == id)
            return k;
    return -1;
}

int ch_vec_step(ch_vec *v, const int32_t *actions, ch_msg *err)
{
    if (!v || !actions)
        return fail(err, CH_EINVAL, "ch_vec_step: a NULL argument");
    if (!v->ready)
        return fail(err, CH_EINVAL, "ch_vec_step: reset the vector first");
    /* every action is checked before any is applied: a refusal changes nothing */
    for (int i = 0; i < v->n; i++) {
        const int32_t id = actions[i];
        const int p = v->out.player[i];
        if (v->done[i])
            continue; /* ended, waiting for its deal: its action is not read */
        if (id < 0 || id >= v->nactions)
            return fail(err, CH_EINVAL, "game %d: action id %ld is out of range (0 to %d)", i, (long)id,
                        v->nactions - 1);
        if (v->nids[i] >= 0) {
            v->pending[i] = find_id(v, i, id);
            if (v->pending[i] < 0) {
                char text[128] = "?";
                ch_action_str(&v->st[i], p, id, text, sizeof text);
                return fail(err, CH_EILLEGAL, "game %d: action id %ld (%s) is not a legal move of P%d",
                            i, (long)id, text, p + 1);
            }
        } else { /* a long list: the engine's own check */
            ch_move m;
            ch_msg why;
            if (ch_action_decode(&v->st[i], p, id, &m) != CH_OK)
                return fail(err, CH_EILLEGAL, "game %d: action id %ld names no move of this game", i,
                            (long)id);
            int rc = ch_check(&v->st[i], p, m, &why);
            if (rc != CH_OK)
                return fail(err, rc, "game %d: %s", i, why.text);
            v->pending[i] = -1;
        }
    }
    for (int i = 0; i < v->n; i++) {
        ch_state *st = &v->st[i];
        const int p = v->out.player[i];
        ch_move m;
        if (v->done[i]) {
            float *rw = v->out.rewards + (size_t)i * (size_t)v->nplayers;
            memset(rw, 0, (size_t)v->nplayers * sizeof *rw);
            v->out.terminated[i] = v->out.truncated[i] = 0;
            continue;
        }
        if (v->pending[i] >= 0)
            m = v->moves[i][v->pending[i]];
        else
            ch_action_decode(st, p, actions[i], &m); /* checked above */
        ch_apply_fast(st, p, m);
#ifdef CH_DEBUG_CHECKS
        {
            ch_msg why;
            int ok = ch_validate(st, &why);
            if (ok != CH_OK) {
                fprintf(stderr, "chartered: state check failed after a move: %s\n", why.text);
                assert(ok == CH_OK);
            }
        }
#endif
        float *rw = v->out.rewards + (size_t)i * (size_t)v->nplayers;
        int terminated = ch_decider(st, NULL) == CH_DEC_TERMINAL;
        int truncated = !terminated && v->max_length && st->ndecisions >= (uint32_t)v->max_length;
        memset(rw, 0, (size_t)v->nplayers * sizeof *rw);
        if (terminated) { /* the returns: 1 for each winner (docs/python.md) */
            int32_t scores[CH_MAX_PLAYERS];
            unsigned winners = 0;
            ch_scores(st, scores, &winners);
            for (int q = 0; q < v->nplayers; q++)
                rw[q] = (float)(winners >> q & 1);
        }
        int rc = CH_OK;
        if (!terminated && !truncated) {
            rc = write_game(v, i);
            /* a decider whose every legal move lacks an id cannot be stepped:
               the game is cut short (truncated) rather than left stuck */
            truncated = rc == CH_EILLEGAL;
        }
        if ((terminated || truncated) && (v->flags & CH_VEC_NO_AUTORESET)) {
            v->done[i] = 1;
            write_done(v, i);
            rc = CH_OK;
        } else if (terminated || truncated) {
            rc = deal(v, i);
            if (rc == CH_OK)
                rc = write_game(v, i);
        }
        v->out.terminated[i] = (uint8_t)terminated;
        v->out.truncated[i] = (uint8_t)truncated;
        if (rc != CH_OK) { /* out of memory, or a deal no move can start */
            v->ready = 0;
            return fail(err, rc, "game %d: %s after its step; reset the vector", i,
                        rc == CH_ENOMEM ? "out of memory" : "no move with an id");
        }
    }
    return CH_OK;
}

/* The k-th legal id of game i's decider in a list longer than the cache,
 * counted as list_moves counts them (engine order; with a mask, an id met
 * again left out): the moves listed and encoded again (a long run of bids
 * or offered money; rare). */
static int32_t kth_long(ch_vec *v, int i, int k)
{
    const ch_state *st = &v->st[i];
    const int p = v->out.player[i];
    int n = ch_legal(st, p, v->scratch, v->scratch_cap); /* the list fitted before */
    int32_t found = -1;
    for (int j = 0, set = 0; j < n && j < v->scratch_cap; j++) {
        int32_t id = action_encode_in(st, v->scratch[j], &v->lay);
        if (id < 0 || (v->out.mask && (v->seen[id >> 6] >> (id & 63) & 1)))
            continue;
        v->seen[id >> 6] |= 1ull << (id & 63);
        if (set++ == k) {
            found = id;
            break;
        }
    }
    memset(v->seen, 0, ((size_t)v->nactions + 63) / 64 * sizeof *v->seen);
    return found;
}

int ch_vec_sample(ch_vec *v, uint64_t seed, int32_t *actions, ch_msg *err)
{
    if (!v || !actions)
        return fail(err, CH_EINVAL, "ch_vec_sample: a NULL argument");
    if (!v->ready)
        return fail(err, CH_EINVAL, "ch_vec_sample: reset the vector first");
    uint64_t rng[4];
    rng_seed(rng, seed);
    for (int i = 0; i < v->n; i++) {
        const int32_t n = v->nset[i];
        if (v->done[i] || n < 1) { /* ended (CH_VEC_NO_AUTORESET): no decider */
            actions[i] = -1;
            continue;
        }
        const int k = (int)rng_below(rng, (uint32_t)n);
        if (v->nids[i] >= 0) /* the kept ids are the list, in its order */
            actions[i] = v->ids[i][k];
        else if (v->out.legal && k < v->out.legal_cap)
            actions[i] = v->out.legal[(size_t)i * (size_t)v->out.legal_cap + (size_t)k];
        else
            actions[i] = kth_long(v, i, k);
    }
    return CH_OK;
}
