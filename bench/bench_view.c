/* bench_view.c: how fast ch_view_to_json writes a player's view, and a corpus
 * of views to prove a change of the writer leaves every byte as it was.
 *
 * The game server writes one view per seat (and one for spectators) after
 * every move, so this is its main cost per move.
 *
 *   bench_view [--seconds S]
 *     For a 4-player middle-game position of Building Amsterdam and of The
 *     Golden Age (greedy self-play from a fixed seed until half the supply is
 *     built), writes the views of every seat and the spectator's in turn for
 *     S seconds (default 2) and prints views per second, microseconds per view
 *     and bytes per view; then the same for ch_state_to_json.
 *
 *   bench_view --corpus [--games N]
 *     Plays N games (default 6) of every configuration: Building Amsterdam
 *     with 2 to 5 players on every built-in arrangement, The Golden Age with
 *     2 to 6 players, both presets, events on and off; moves are a mix of
 *     greedy and random legal moves, so rare phases (sealed bids,
 *     auctions, offers, mergers) come up too. It samples states all along
 *     (every phase change, every 5th decision, the final state) and prints
 *     one line per state: configuration, game, decision, phase, for each
 *     viewer -1..n-1 the view's length and FNV-1a hash, and the same for the
 *     full state (ch_state_to_json). Diff the output of
 *     two builds: any difference is a changed byte. The last line counts the
 *     states per phase.
 * It includes src/ai/ai.h for the greedy moves. */
#include "ai.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU time of this process: the machine may be busy with other work. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static ai_ws ws;

static int new_game(ch_state *st, int ed, int np, const char *arr, int preset, int events,
                    uint64_t seed)
{
    ch_board b;
    ch_setup s;
    ch_msg m;
    if (ch_board_builtin(&b, ed, arr, &m)) {
        fprintf(stderr, "board %s: %s\n", arr, m.text);
        return -1;
    }
    ch_setup_default(&s, ed);
    s.nplayers = np;
    s.seed = seed;
    if (ed == CH_ED_GOLDEN_AGE) {
        s.preset = preset;
        s.events = events;
    }
    if (ch_new(st, &s, &b, &m)) {
        fprintf(stderr, "ch_new: %s\n", m.text);
        return -1;
    }
    return 0;
}

/* One greedy move of the deciding player (on a determinized copy, as the bots
 * play); returns 0 when the game is over. */
static int greedy_step(ch_state *st, uint64_t *rng)
{
    int p = ai_decider(st, -1);
    if (p < 0)
        return 0;
    ch_state v = *st;
    ch_determinize(&v, p, ai_rand(rng));
    ch_apply_fast(st, p, ai_greedy_move(&ws, &v, p));
    return 1;
}

/* A 4-player greedy game from a fixed seed, stopped at a turn once half the
 * supply has been built. */
static int middle_game(ch_state *st, int ed)
{
    const char *arr = ed == CH_ED_GOLDEN_AGE ? ch_ga_side(CH_GA_PRINTED, 4) : "standard";
    if (new_game(st, ed, 4, arr, CH_GA_PRINTED, 1, 7) < 0)
        return -1;
    uint64_t rng = 7;
    for (int guard = 0; guard < 100000; guard++) {
        if (st->supply <= st->warehouses_total / 2 && st->phase == CH_PH_TURN)
            return 0;
        if (!greedy_step(st, &rng))
            return -1;
    }
    return -1;
}

static void bench(const char *name, const ch_state *st, double seconds, unsigned flags)
{
    long views = 0;
    size_t bytes = 0;
    double t0 = now_s(), t;
    do {
        for (int p = -1; p < st->nplayers; p++) {
            char *v = ch_view_json(st, p, flags);
            if (!v) {
                fprintf(stderr, "bench_view: ch_view_to_json failed\n");
                exit(1);
            }
            bytes += strlen(v);
            ch_free(v);
            views++;
        }
        t = now_s() - t0;
    } while (t < seconds);
    if (flags) { /* the server's form: views only */
        printf("%-18s views: %9.0f/s %8.2f us/view %7zu bytes/view (compact, without board and"
               " cards, as the server sends them)\n",
               name, (double)views / t, 1e6 * t / (double)views, bytes / (size_t)views);
        return;
    }
    long states = 0;
    size_t sbytes = 0;
    double t1 = now_s(), u;
    do {
        char *v = ch_state_to_json(st);
        if (!v) {
            fprintf(stderr, "bench_view: ch_state_to_json failed\n");
            exit(1);
        }
        sbytes += strlen(v);
        ch_free(v);
        states++;
        u = now_s() - t1;
    } while (u < seconds / 4);
    printf("%-18s views: %9.0f/s %8.2f us/view %7zu bytes/view"
           " | states: %8.2f us/state %7zu bytes\n",
           name, (double)views / t, 1e6 * t / (double)views, bytes / (size_t)views,
           1e6 * u / (double)states, sbytes / (size_t)states);
    fflush(stdout);
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

static long per_phase[CH_PH_COUNT];

static void sample(const char *cfg, int game, const ch_state *st)
{
    printf("%s g%d d%u %s", cfg, game, st->ndecisions, ch_phase_name(st->phase));
    for (int p = -1; p < st->nplayers; p++) {
        char *v = ch_view_to_json(st, p);
        if (!v) {
            fprintf(stderr, "bench_view: ch_view_to_json failed\n");
            exit(1);
        }
        printf(" %zu:%016llx", strlen(v), (unsigned long long)fnv1a(v));
        ch_free(v);
    }
    char *full = ch_state_to_json(st);
    if (!full) {
        fprintf(stderr, "bench_view: ch_state_to_json failed\n");
        exit(1);
    }
    printf(" state %zu:%016llx\n", strlen(full), (unsigned long long)fnv1a(full));
    ch_free(full);
    if (st->phase < CH_PH_COUNT)
        per_phase[st->phase]++;
}

static ch_move moves[1 << 16];

static void corpus_game(const char *cfg, int game, ch_state *st, uint64_t seed)
{
    uint64_t rng = seed;
    int last_phase = -1;
    for (int d = 0; d < 20000; d++) {
        if (st->phase != last_phase || d % 5 == 0)
            sample(cfg, game, st);
        last_phase = st->phase;
        int p = ai_decider(st, -1);
        if (p < 0)
            break;
        if (ai_rand(&rng) & 1) {
            greedy_step(st, &rng);
        } else {
            int n = ch_legal(st, p, moves, 1 << 16);
            if (n <= 0) {
                fprintf(stderr, "bench_view: no legal move\n");
                exit(1);
            }
            if (n > 1 << 16)
                n = 1 << 16;
            /* a random kind of move first, then a move of that kind: the few
             * moves that send an offer or end a phase are not drowned out by
             * hundreds of amounts and cards */
            int types[CH_M_NTYPES], ntypes = 0, seen[CH_M_NTYPES] = {0};
            for (int i = 0; i < n; i++)
                if (moves[i].type < CH_M_NTYPES && !seen[moves[i].type]++)
                    types[ntypes++] = moves[i].type;
            int type = ntypes ? types[ai_rand(&rng) % (uint64_t)ntypes] : moves[0].type, kind = 0;
            for (int i = 0; i < n; i++)
                if (moves[i].type == type)
                    moves[kind++] = moves[i];
            ch_move mv = moves[ai_rand(&rng) % (uint64_t)kind];
            ch_msg m;
            if (ch_apply(st, p, mv, &m) != CH_OK) {
                fprintf(stderr, "bench_view: listed move rejected: %s\n", m.text);
                exit(1);
            }
        }
    }
    sample(cfg, game, st);
}

static int corpus(int games)
{
    const char *const *arrs = ch_board_builtin_names(CH_ED_AMSTERDAM);
    char cfg[96];
    for (int np = 2; np <= 5; np++)
        for (int a = 0; arrs && arrs[a]; a++)
            for (int g = 0; g < games; g++) {
                ch_state st;
                uint64_t seed = 1000u * (uint64_t)np + 100u * (uint64_t)a + (uint64_t)g;
                if (new_game(&st, CH_ED_AMSTERDAM, np, arrs[a], 0, 0, seed) < 0)
                    return 1;
                snprintf(cfg, sizeof cfg, "ba-%dp-%s", np, arrs[a]);
                corpus_game(cfg, g, &st, seed);
            }
    for (int np = 2; np <= 6; np++)
        for (int preset = CH_GA_PRINTED; preset <= CH_GA_FIRST; preset++)
            for (int ev = 0; ev <= 1; ev++)
                for (int g = 0; g < games; g++) {
                    ch_state st;
                    uint64_t seed = 50000u + 1000u * (uint64_t)np +
                                    100u * (uint64_t)(preset * 2 + ev) + (uint64_t)g;
                    if (new_game(&st, CH_ED_GOLDEN_AGE, np, ch_ga_side(preset, np), preset, ev,
                                 seed) < 0)
                        return 1;
                    snprintf(cfg, sizeof cfg, "ga-%dp-%s-ev%d", np,
                             preset == CH_GA_FIRST ? "first" : "printed", ev);
                    corpus_game(cfg, g, &st, seed);
                }
    printf("phases:");
    for (int ph = 0; ph < CH_PH_COUNT; ph++)
        printf(" %s=%ld", ch_phase_name(ph), per_phase[ph]);
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    double seconds = 2.0;
    int games = 6, want_corpus = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--games") && i + 1 < argc)
            games = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--corpus"))
            want_corpus = 1;
        else {
            fprintf(stderr, "usage: bench_view [--seconds S] | bench_view --corpus [--games N]\n");
            return 2;
        }
    }
    if (!(seconds > 0) || games < 1) {
        fprintf(stderr, "bench_view: --seconds above 0, --games at least 1\n");
        return 2;
    }
    ai_params_default(&ws.prm);
    if (want_corpus)
        return corpus(games);
    printf("bench_view: 4 players, middle game, viewers -1..3 in turn, %.1f s per edition\n",
           seconds);
    for (int ed = 0; ed < 2; ed++) {
        ch_state st;
        if (middle_game(&st, ed) < 0) {
            fprintf(stderr, "bench_view: no middle-game position\n");
            return 1;
        }
        bench(ed ? "The Golden Age" : "Building Amsterdam", &st, seconds, 0);
        bench(ed ? "The Golden Age" : "Building Amsterdam", &st, seconds, CH_JSON_COMPACT | CH_JSON_DYNAMIC);
    }
    return 0;
}
