/* bot.c: the bot interface (ch_bot_new, ch_bot_choose, ...) and the random
 * bot, the baseline: a uniformly random legal move. Every bot sees only a copy
 * of the state determinized for its player, so it cannot read hidden
 * information. */
#include "chartered.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ch_bot {
    char desc[128];
    uint64_t rng;
    ch_move *buf;
    int cap;
};

static const char *const bot_names[] = {"random", NULL};

const char *const *ch_bot_names(void) { return bot_names; }

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int ch_bot_new(ch_bot **out, const char *name, const char *options, uint64_t seed, ch_msg *err)
{
    if (!out || !name) {
        if (err)
            snprintf(err->text, sizeof err->text, "ch_bot_new needs a name");
        return CH_EINVAL;
    }
    *out = NULL;
    if (strcmp(name, "random") != 0) {
        if (err)
            snprintf(err->text, sizeof err->text, "unknown bot '%s': the bots are random", name);
        return CH_EINVAL;
    }
    ch_bot *b = calloc(1, sizeof *b);
    if (!b)
        return CH_ENOMEM;
    b->cap = 1 << 16;
    b->buf = malloc(sizeof *b->buf * (size_t)b->cap);
    if (!b->buf) {
        free(b);
        return CH_ENOMEM;
    }
    b->rng = seed;
    snprintf(b->desc, sizeof b->desc, "%s%s%s", name, options && *options ? ":" : "",
             options ? options : "");
    *out = b;
    return CH_OK;
}

void ch_bot_free(ch_bot *b)
{
    if (!b)
        return;
    free(b->buf);
    free(b);
}

const char *ch_bot_describe(const ch_bot *b) { return b ? b->desc : "?"; }

int ch_bot_choose(ch_bot *b, const ch_state *st, int p, ch_move *out, ch_msg *err)
{
    if (!b || !st || !out)
        return CH_EINVAL;
    ch_state view = *st;
    ch_determinize(&view, p, next_rand(&b->rng));
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
