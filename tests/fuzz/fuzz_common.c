/* fuzz_common.c: the states and helpers the harnesses share (fuzz_common.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static ch_state states[FZ_NSTATES];
static int built;

static uint64_t next(uint64_t *x)
{
    /* splitmix64: fixed seeds, the same states on every run */
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void build(void)
{
    ch_move buf[512];
    for (unsigned i = 0; i < FZ_NSTATES; i++) {
        int ga = i & 1;
        ch_board b;
        ch_setup s;
        ch_msg m;
        ch_setup_default(&s, ga ? CH_ED_GOLDEN_AGE : CH_ED_AMSTERDAM);
        s.nplayers = 2 + (int)(i / 2) % (ga ? 5 : 4);
        s.seed = 1000 + i;
        if (ga)
            s.events = 1;
        int rc = ga ? ch_board_builtin(&b, CH_ED_GOLDEN_AGE, ch_ga_side(s.preset, s.nplayers), &m)
                    : ch_board_builtin(&b, CH_ED_AMSTERDAM, "standard", &m);
        if (rc != CH_OK || ch_new(&states[i], &s, &b, &m) != CH_OK)
            fz_fail("cannot build a fuzz state", m.text);
        /* play i*15 random decisions: from a fresh game to a late one */
        uint64_t r = 77 + i;
        for (unsigned k = 0; k < i * 15; k++) {
            int p = fz_decider(&states[i]);
            unsigned mask;
            if (ch_decider(&states[i], &mask) == CH_DEC_TERMINAL)
                break;
            int n = ch_legal(&states[i], p, buf, 512);
            if (n <= 0)
                break;
            if (n > 512)
                n = 512;
            if (ch_apply(&states[i], p, buf[next(&r) % (unsigned)n], &m) != CH_OK)
                fz_fail("a listed move was refused while building states", m.text);
        }
    }
    built = 1;
}

const ch_state *fz_state(unsigned i)
{
    if (!built)
        build();
    return &states[i % FZ_NSTATES];
}

int fz_decider(const ch_state *st)
{
    unsigned mask = 0;
    if (ch_decider(st, &mask) == CH_DEC_TERMINAL || mask == 0)
        return 0;
    return __builtin_ctz(mask);
}

char *fz_strndup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

void fz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz: %s: %s\n", what, detail ? detail : "");
    abort();
}
