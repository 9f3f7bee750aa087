/* random_game.c: a complete program against the installed libchartered: plays
 * one game of each edition with uniformly random legal moves (the library's
 * own ch_rng) and prints the scores. Build it with pkg-config:
 *
 *   cc random_game.c $(pkg-config --cflags --libs chartered) -o random_game
 *   ./random_game 42
 *
 * tests/deb_e2e.sh compiles it this way against the installed package. */
#include <stdio.h>
#include <stdlib.h>

#include <chartered.h>

static int play(int edition, int players, uint64_t seed)
{
    ch_board b;
    ch_setup s;
    ch_state st;
    ch_msg m;
    static ch_move buf[1 << 14];
    ch_setup_default(&s, edition);
    s.nplayers = players;
    s.seed = seed;
    const char *arr = edition == CH_ED_GOLDEN_AGE ? ch_ga_side(s.preset, players) : "standard";
    if (ch_board_builtin(&b, edition, arr, &m) != CH_OK || ch_new(&st, &s, &b, &m) != CH_OK) {
        fprintf(stderr, "error: %s\n", m.text);
        return 1;
    }
    ch_rng rng;
    ch_rng_seed(&rng, seed);
    unsigned mask;
    int moves = 0;
    while (ch_decider(&st, &mask) != CH_DEC_TERMINAL) {
        int p = __builtin_ctz(mask);
        int n = ch_legal(&st, p, buf, 1 << 14);
        if (n <= 0 || ch_apply(&st, p, buf[ch_rng_below(&rng, (uint32_t)n)], &m) != CH_OK) {
            fprintf(stderr, "error: %s\n", n <= 0 ? "no legal move" : m.text);
            return 1;
        }
        moves++;
    }
    int32_t scores[CH_MAX_PLAYERS];
    unsigned winners;
    ch_scores(&st, scores, &winners);
    printf("%s, %d players, seed %llu: %d moves; scores", edition == CH_ED_GOLDEN_AGE ? "golden-age" : "amsterdam",
           players, (unsigned long long)seed, moves);
    for (int p = 0; p < players; p++)
        printf(" %s%d", winners >> p & 1 ? "*" : "", (int)scores[p]);
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    return play(CH_ED_AMSTERDAM, 4, seed) || play(CH_ED_GOLDEN_AGE, 3, seed);
}
