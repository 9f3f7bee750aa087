/* samegames.c: do two builds of the engine play the same games? For seeds
 * 1..G, both editions, every player count, every built-in arrangement in turn
 * and (The Golden Age) both presets and event settings in turn, plays a random
 * game (the moves picked by a fixed RNG; ch_apply every seventh decision,
 * ch_apply_fast otherwise) and prints one line per game: its settings, the
 * number of decisions, a hash of every decision's full legal-move list (in
 * order) and a hash of the end state's JSON. Run it linked against each build
 * and diff the outputs: a change to move generation that keeps the rules
 * keeps every line. A benchmark-side tool, not a test: it judges nothing.
 * Usage: samegames [G]   (default 1000) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chartered.h"

#define CAP 4096

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static ch_move buf[CAP];

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 1000;
    static ch_board boards[2][8];
    int nb[2] = {0, 0};
    for (int e = 0; e < 2; e++) {
        int ed = e ? CH_ED_GOLDEN_AGE : CH_ED_AMSTERDAM;
        const char *const *names = ch_board_builtin_names(ed);
        for (int i = 0; names && names[i] && nb[e] < 8; i++) {
            ch_msg err;
            if (ch_board_builtin(&boards[e][nb[e]], ed, names[i], &err) == CH_OK)
                nb[e]++;
        }
    }
    for (int gi = 1; gi <= games; gi++) {
        for (int e = 0; e < 2; e++) {
            int ed = e ? CH_ED_GOLDEN_AGE : CH_ED_AMSTERDAM;
            int maxp = e ? 6 : 5;
            ch_setup s;
            ch_setup_default(&s, ed);
            s.nplayers = 2 + gi % (maxp - 1);
            s.seed = (uint64_t)gi;
            if (e) {
                s.preset = gi / 2 % 2 ? CH_GA_FIRST : CH_GA_PRINTED;
                s.events = gi / 4 % 2;
            }
            int bi = nb[e] ? gi / 8 % nb[e] : 0;
            if (e) { /* the side the preset and player count play on */
                const char *side = ch_ga_side(s.preset, s.nplayers);
                const char *const *names = ch_board_builtin_names(ed);
                for (int i = 0; side && names && names[i] && i < nb[e]; i++)
                    if (strcmp(names[i], side) == 0)
                        bi = i;
            }
            ch_state st;
            ch_msg err;
            if (ch_new(&st, &s, &boards[e][bi], &err) != CH_OK) {
                printf("%d %d %d new-failed %s\n", gi, ed, s.nplayers, err.text);
                continue;
            }
            ch_rng rng;
            ch_rng_seed(&rng, (uint64_t)gi * 7919u);
            uint64_t hl = 0xcbf29ce484222325ull;
            long nd = 0;
            for (; nd < 100000; nd++) {
                unsigned mask = 0;
                if (ch_decider(&st, &mask) == CH_DEC_TERMINAL)
                    break;
                int p = mask ? __builtin_ctz(mask) : 0;
                int n = ch_legal(&st, p, buf, CAP);
                hl = fnv(hl, &n, sizeof n);
                if (n <= 0)
                    break;
                if (n > CAP)
                    n = CAP;
                hl = fnv(hl, buf, (size_t)n * sizeof buf[0]);
                ch_move m = buf[ch_rng_below(&rng, (uint32_t)n)];
                if (nd % 7 == 0) {
                    ch_msg why;
                    if (ch_apply(&st, p, m, &why) != CH_OK) {
                        printf("%d %d %d apply-failed %s\n", gi, ed, s.nplayers, why.text);
                        break;
                    }
                } else {
                    ch_apply_fast(&st, p, m);
                }
            }
            char *js = ch_state_to_json(&st);
            uint64_t hs = fnv(0xcbf29ce484222325ull, js, js ? strlen(js) : 0);
            ch_free(js);
            printf("%d ed%d p%d b%d pre%d ev%d dec %ld legal %016" PRIx64 " end %016" PRIx64 "\n",
                   gi, ed, s.nplayers, bi, s.preset, s.events, nd, hl, hs);
        }
    }
    return 0;
}
