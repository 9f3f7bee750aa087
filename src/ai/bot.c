/* bot.c: the bot interface (ch_bot_new, ch_bot_choose, ...) and the random
 * bot, the baseline: a uniformly random legal move. Every bot sees only a copy
 * of the state determinized for its player, so it cannot read hidden
 * information. The other bots live beside it: greedy.c (with eval.c) and
 * ismcts.c; see docs/bots.md. */
#include "chartered.h"
#include "ai.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BOT_RANDOM = 0, BOT_GREEDY, BOT_ISMCTS, BOT_ROLLOUT };

struct ch_bot {
    char desc[128];
    int kind;
    uint64_t rng;
    ch_move *buf;       /* random bot                                  */
    int cap;
    ai_ws *ws;          /* greedy                                      */
    ai_search *search;  /* ismcts                                      */
    ai_rollout *ro;     /* rollout                                     */
};

static const char *const bot_names[] = {"random", "greedy", "rollout", "ismcts", NULL};

const char *const *ch_bot_names(void) { return bot_names; }

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int opt_error(ch_msg *err, const char *fmt, const char *a, const char *b)
{
    if (err)
        snprintf(err->text, sizeof err->text, fmt, a, b);
    return CH_EINVAL;
}

/* Parse "key=value,key=value" for the ISMCTS bot, and greedy's one option
 * "deals" (on/off, *deals); random takes none. */
static int parse_options(const char *name, int kind, const char *options, ai_search_opts *o,
                         int *deals, ai_rollout_opts *ro, ch_msg *err)
{
    *deals = 1;
    ro->rollouts = 8;
    ro->width = 4;
    ro->depth = 8;
    ro->trust = 1.0;
    ro->greedy = 1;
    o->iterations = 0;
    o->seconds = 0;
    o->cpu = 0;
    o->threads = 1;
    o->playout = AI_PLAYOUT_GREEDY;
    o->memory = (size_t)64 << 20;
    o->explore = 0.7;
    o->width = 8;
    o->depth = 0;
    o->prior = 3.0;
    o->trust = 1.0;
    o->early = 1;
    o->rank = 0;
    o->win = 0.7;
    o->margin = 0.3;
    int have_iter = 0, have_time = 0, have_cpu = 0;
    if (!options)
        options = "";
    const char *s = options;
    while (*s) {
        char item[96];
        size_t len = strcspn(s, ",");
        if (len == 0) {
            s++;
            continue;
        }
        if (len >= sizeof item)
            return opt_error(err, "bot %s: option '%.60s' is too long", name, s);
        memcpy(item, s, len);
        item[len] = 0;
        s += len;
        if (*s == ',')
            s++;
        char *eq = strchr(item, '=');
        if (!eq)
            return opt_error(err, "bot %s: option '%s' needs a value, like iterations=2000", name, item);
        *eq = 0;
        const char *key = item, *val = eq + 1;
        if (kind == BOT_GREEDY && !strcmp(key, "deals")) {
            if (!strcmp(val, "on"))
                *deals = 1;
            else if (!strcmp(val, "off"))
                *deals = 0;
            else
                return opt_error(err, "bot %s: deals is on or off (trade offers and action cards), not '%s'", name, val);
            continue;
        }
        if (kind == BOT_GREEDY)
            return opt_error(err, "bot %s: unknown option '%s' (options: deals)", name, key);
        if (kind == BOT_ROLLOUT) {
            char *end = NULL;
            errno = 0;
            if (!strcmp(key, "rollouts") || !strcmp(key, "width") || !strcmp(key, "depth")) {
                long v = strtol(val, &end, 10);
                int lo = key[0] == 'd' ? 0 : 1, hi = key[0] == 'r' ? 10000 : key[0] == 'w' ? 16 : 100000;
                if (errno || end == val || *end || v < lo || v > hi) {
                    char range[48];
                    snprintf(range, sizeof range, "from %d to %d", lo, hi);
                    return opt_error(err, "bot rollout: %s must be a whole number %s", key, range);
                }
                if (key[0] == 'r')
                    ro->rollouts = (int)v;
                else if (key[0] == 'w')
                    ro->width = (int)v;
                else
                    ro->depth = (int)v;
            } else if (!strcmp(key, "policy")) {
                if (strcmp(val, "fast") && strcmp(val, "greedy"))
                    return opt_error(err, "bot %s: policy is fast or greedy, not '%s'", name, val);
                ro->greedy = val[0] == 'g';
            } else if (!strcmp(key, "trust")) {
                double v = strtod(val, &end);
                if (errno || end == val || *end || v < 0 || v > 10)
                    return opt_error(err, "bot %s: trust must be from 0 to 10 (standard errors), not '%s'", name, val);
                ro->trust = v;
            } else {
                return opt_error(err, "bot %s: unknown option '%s' (options: rollouts, width, depth, policy, trust)", name, key);
            }
            continue;
        }
        if (kind != BOT_ISMCTS)
            return opt_error(err, "bot %s takes no options (got '%s')", name, key);
        char *end = NULL;
        errno = 0;
        if (!strcmp(key, "iterations")) {
            long v = strtol(val, &end, 10);
            if (errno || end == val || *end || v < 1 || v > 100000000)
                return opt_error(err, "bot %s: iterations must be a whole number from 1 to 100000000, not '%s'", name, val);
            o->iterations = v;
            have_iter = 1;
        } else if (!strcmp(key, "time")) {
            double v = strtod(val, &end);
            if (errno || end == val || *end || !(v > 0) || v > 86400)
                return opt_error(err, "bot %s: time must be seconds per move above 0, not '%s'", name, val);
            o->seconds = v;
            o->cpu = 0;
            have_time = 1;
        } else if (!strcmp(key, "cpu")) {
            double v = strtod(val, &end);
            if (errno || end == val || *end || !(v > 0) || v > 86400)
                return opt_error(err, "bot %s: cpu must be seconds of CPU time per move above 0, not '%s'", name, val);
            o->seconds = v;
            o->cpu = 1;
            have_cpu = 1;
        } else if (!strcmp(key, "threads")) {
            long v = strtol(val, &end, 10);
            if (errno || end == val || *end || v < 1 || v > 64)
                return opt_error(err, "bot %s: threads must be from 1 to 64, not '%s'", name, val);
            o->threads = (int)v;
        } else if (!strcmp(key, "playout")) {
            if (!strcmp(val, "greedy"))
                o->playout = AI_PLAYOUT_GREEDY;
            else if (!strcmp(val, "random"))
                o->playout = AI_PLAYOUT_RANDOM;
            else if (!strcmp(val, "fast"))
                o->playout = AI_PLAYOUT_FAST;
            else
                return opt_error(err, "bot %s: playout is greedy, fast or random, not '%s'", name, val);
        } else if (!strcmp(key, "memory")) {
            long v = strtol(val, &end, 10);
            if (errno || end == val || *end || v < 1 || v > 65536)
                return opt_error(err, "bot %s: memory is MiB from 1 to 65536, not '%s'", name, val);
            o->memory = (size_t)v << 20;
        } else if (!strcmp(key, "c")) {
            double v = strtod(val, &end);
            if (errno || end == val || *end || v < 0 || v > 100)
                return opt_error(err, "bot %s: c (exploration) must be from 0 to 100, not '%s'", name, val);
            o->explore = v;
        } else if (!strcmp(key, "depth")) {
            long v = strtol(val, &end, 10);
            if (errno || end == val || *end || v < 0 || v > 1000000)
                return opt_error(err, "bot %s: depth must be playout decisions, 0 (to the end) or more, not '%s'", name, val);
            o->depth = (int)v;
        } else if (!strcmp(key, "prior")) {
            double v = strtod(val, &end);
            if (errno || end == val || *end || v < 0 || v > 100)
                return opt_error(err, "bot %s: prior must be from 0 to 100, not '%s'", name, val);
            o->prior = v;
        } else if (!strcmp(key, "trust")) {
            double v = strtod(val, &end);
            if (errno || end == val || *end || v < 0 || v > 10)
                return opt_error(err, "bot %s: trust must be from 0 to 10 (standard errors), not '%s'", name, val);
            o->trust = v;
        } else if (!strcmp(key, "early")) {
            if (!strcmp(val, "on"))
                o->early = 1;
            else if (!strcmp(val, "off"))
                o->early = 0;
            else
                return opt_error(err, "bot %s: early is on or off (stop once the move cannot change), not '%s'", name, val);
        } else if (!strcmp(key, "rank")) {
            long v = strtol(val, &end, 10);
            if (errno || end == val || *end || v < 0 || v > 1000)
                return opt_error(err, "bot %s: rank must be a tree depth from 0 (every depth) to 1000, not '%s'", name, val);
            o->rank = (int)v;
        } else if (!strcmp(key, "win")) {
            double v = strtod(val, &end);
            if (errno || end == val || *end || !(v >= 0 && v <= 1))
                return opt_error(err, "bot %s: win must be from 0 to 1 (the weight of winning against the margin), not '%s'", name, val);
            o->win = v;
            o->margin = 1 - v;
        } else if (!strcmp(key, "width")) {
            long v = strtol(val, &end, 10);
            if (errno || end == val || *end || v < 0 || v > AI_CAND)
                return opt_error(err, "bot %s: width must be from 0 (all moves) to 4096, not '%s'", name, val);
            o->width = (int)v;
        } else {
            return opt_error(err, "bot %s: unknown option '%s' (options: iterations, time, cpu, threads, "
                                  "playout, memory, c, width, depth, prior, trust, early, rank, win)", name, key);
        }
    }
    if (have_iter + have_time + have_cpu > 1)
        return opt_error(err, "bot %s: give one of iterations, time and cpu%s", name, "");
    if (kind == BOT_ISMCTS && !have_iter && !have_time && !have_cpu)
        o->iterations = 500;
    return CH_OK;
}

int ch_bot_new(ch_bot **out, const char *name, const char *options, uint64_t seed, ch_msg *err)
{
    if (!out || !name) {
        if (err)
            snprintf(err->text, sizeof err->text, "ch_bot_new needs a name");
        return CH_EINVAL;
    }
    *out = NULL;
    int kind;
    if (!strcmp(name, "random"))
        kind = BOT_RANDOM;
    else if (!strcmp(name, "greedy"))
        kind = BOT_GREEDY;
    else if (!strcmp(name, "rollout"))
        kind = BOT_ROLLOUT;
    else if (!strcmp(name, "ismcts"))
        kind = BOT_ISMCTS;
    else {
        if (err)
            snprintf(err->text, sizeof err->text,
                     "unknown bot '%.60s': the bots are random, greedy, rollout and ismcts", name);
        return CH_EINVAL;
    }
    ai_search_opts so;
    ai_rollout_opts ro;
    int deals = 1;
    int r = parse_options(name, kind, options, &so, &deals, &ro, err);
    if (r != CH_OK)
        return r;
    ch_bot *b = calloc(1, sizeof *b);
    if (!b)
        return CH_ENOMEM;
    b->kind = kind;
    b->rng = seed;
    if (kind == BOT_RANDOM) {
        b->cap = 1 << 16;
        b->buf = malloc(sizeof *b->buf * (size_t)b->cap);
        if (!b->buf) {
            free(b);
            return CH_ENOMEM;
        }
    } else if (kind == BOT_GREEDY) {
        b->ws = malloc(sizeof *b->ws);
        if (!b->ws) {
            free(b);
            return CH_ENOMEM;
        }
        ai_params_default(&b->ws->prm);
        b->ws->prm.deals = deals; /* trade offers and action cards (greedy.c) */
        b->ws->tie = &b->rng; /* ties at random, from the seed (greedy.c) */
    } else if (kind == BOT_ROLLOUT) {
        r = ai_rollout_new(&b->ro, &ro);
        if (r != CH_OK) {
            free(b);
            return r;
        }
    } else {
        r = ai_search_new(&b->search, &so);
        if (r != CH_OK) {
            if (err)
                snprintf(err->text, sizeof err->text, "ismcts: cannot allocate %zu MiB for the search",
                         so.memory >> 20);
            free(b);
            return r;
        }
    }
    snprintf(b->desc, sizeof b->desc, "%s%s%.100s", name, options && *options ? ":" : "",
             options ? options : "");
    *out = b;
    return CH_OK;
}

void ch_bot_free(ch_bot *b)
{
    if (!b)
        return;
    free(b->buf);
    free(b->ws);
    ai_search_free(b->search);
    ai_rollout_free(b->ro);
    free(b);
}

const char *ch_bot_describe(const ch_bot *b) { return b ? b->desc : "?"; }

int ch_bot_choose(ch_bot *b, const ch_state *st, int p, ch_move *out, ch_msg *err)
{
    if (!b || !st || !out)
        return CH_EINVAL;
    unsigned mask = 0;
    if (st->magic != CH_STATE_MAGIC || p < 0 || p >= st->nplayers ||
        ch_decider(st, &mask) == CH_DEC_TERMINAL || !(mask >> p & 1)) {
        if (err)
            snprintf(err->text, sizeof err->text, "player %d has no decision to make", p + 1);
        return CH_ETURN;
    }
    ch_state view = *st;
    ch_determinize(&view, p, next_rand(&b->rng));
    switch (b->kind) {
    case BOT_GREEDY:
        *out = ai_greedy_move(b->ws, &view, p);
        break;
    case BOT_ROLLOUT:
        *out = ai_rollout_run(b->ro, &view, p, &b->rng);
        break;
    case BOT_ISMCTS:
        /* greedy's own move, the default of `trust`, is the one a greedy
         * bot with this seed would play: same determinization, same ties */
        ai_search_tie(b->search, b->rng);
        *out = ai_search_run(b->search, &view, p, next_rand(&b->rng));
        break;
    default: {
        int n = ch_legal(&view, p, b->buf, b->cap);
        if (n <= 0) {
            if (err)
                snprintf(err->text, sizeof err->text, "player %d has no decision to make", p + 1);
            return CH_ETURN;
        }
        if (n > b->cap)
            n = b->cap;
        *out = b->buf[next_rand(&b->rng) % (uint64_t)n];
        return CH_OK;
    }
    }
    if (out->type == CH_M_NONE) {
        if (err)
            snprintf(err->text, sizeof err->text, "player %d has no decision to make", p + 1);
        return CH_ETURN;
    }
    return CH_OK;
}
