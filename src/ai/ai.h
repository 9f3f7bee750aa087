/* ai.h: internal header of the bots (src/ai only; not installed). The bots use
 * the public API of libchartered only (include/chartered.h): they read the
 * plain ch_state struct of a position already determinized for their player,
 * list moves with ch_legal and look ahead with ch_apply_fast on copies.
 *
 *   eval.c    position features and the heuristic value of a position
 *   greedy.c  the greedy policy: one-step lookahead plus rules for bids,
 *             auctions, events and offers; also the ISMCTS candidate moves
 *   fast.c    the cheap playout policy (playout=fast)
 *   ismcts.c  single-observer ISMCTS with availability counts, root-parallel
 *   rollout.c the rollout bot: greedy's best moves played out a little way
 *   bot.c     the public ch_bot_* interface, options, the random bot
 *   review.c  ch_review_decision: win chances of a decision from the
 *             decider's view (`chartered review`)
 */
#ifndef CH_AI_H
#define CH_AI_H

#include "chartered.h"
#include <stddef.h>
#include <stdint.h>

/* ---- small helpers ---------------------------------------------------------- */
static inline uint64_t ai_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint32_t ai_below(uint64_t *s, uint32_t n) { return (uint32_t)(ai_rand(s) % n); }
/* Population count without a library call on CPUs without POPCNT. */
static inline int ai_popc(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}
static inline int ai_same_move(ch_move x, ch_move y)
{
    return x.type == y.type && x.a == y.a && x.b == y.b && x.c == y.c && x.n == y.n;
}
/* The one player who decides now: the lowest of the mask, or `prefer` when it
 * is among several simultaneous deciders; -1 when the game is over. */
int ai_decider(const ch_state *st, int prefer);

/* ---- position features and evaluation (eval.c) --------------------------------- */
/* Tunable weights of the evaluation (defaults in ai_params_default). */
typedef struct ai_params {
    double growth_per_wh;  /* expected chart growth per warehouse left, BA      */
    double growth_per_wh_ga; /* the same, The Golden Age                        */
    double lambda;         /* share of a company's expected growth a stock is worth */
    double kappa;          /* share of a card's payout estimate a hand card is worth */
    double beta;           /* weight of the opponents' values (relative evaluation) */
    double beta_ga;        /* the same, The Golden Age                          */
    double found_bonus;    /* a founding card: value beyond its payout          */
    double reserve;        /* cash below this is penalised (liquidity)          */
    double liquidity;      /* the penalty per florin below the reserve           */
    int topm;              /* plays evaluated in full after the static filter   */
    double lone_card;      /* a plot card that would build a lone warehouse      */
    int deals;             /* 1: look for trade offers that pay both sides and
                              value action cards (the greedy bot); 0: the older
                              rules (ISMCTS's playouts and prior, so that its
                              search is unchanged)                           */
} ai_params;
void ai_params_default(ai_params *pr);

typedef struct ai_feat {
    int ed, np, minv, maxv;
    double frac;                          /* warehouses left / total, 1 -> 0      */
    int turns;                            /* builds a player may still make       */
    int value[CH_MAX_COMPANIES];          /* chart value, 0 when off the chart    */
    double growth[CH_MAX_COMPANIES];      /* expected future rise                  */
    double worth[CH_MAX_COMPANIES];       /* what one stock is worth now           */
    double newco_worth;                   /* a stock of a company founded now       */
    double deck_avg;                      /* the average card still to come         */
    double deck_sum;                      /* the deck's part of it: its cards' sum   */
    int deck_n;                           /* and count (-1: not computed, a hint) */
    int best_lvl[6];                      /* payout of a level k card, 0: none     */
    int avail;                            /* companies that can be founded         */
    uint8_t pcomp[CH_MAX_PLOTS];          /* company of the piece on a plot        */
    uint64_t occ[2];                      /* plots holding a piece                 */
    uint64_t comp[2];                     /* plots holding a company piece         */
    uint64_t danger[2];                   /* too close to a company to found       */
    uint64_t lone[2];                     /* plots holding lone warehouses         */
    const ch_board *board;                /* the position's board                  */
    /* ai_card_value's answers so far (a memo: bit c of cval_ok says cval[c]
     * holds card c's value): a position scored after a move that left the
     * features as they were (greedy's stock trades) values the same hands */
    uint64_t cval_ok[(CH_MAX_CARDS + 63) / 64];
    double cval[CH_MAX_CARDS];
} ai_feat;

/* Fill the features of a position. */
void ai_features(const ch_state *st, const ai_params *pr, ai_feat *f);
/* The same, taking the average card to come from the caller (a position one
 * move away has nearly the same; it is the costly part). */
void ai_features_hint(const ch_state *st, const ai_params *pr, ai_feat *f, double deck_avg);
/* Estimated payout of playing card `card` now (0 or below: dead card). f
 * must hold the features of st or of a position with the same board, supply
 * and chart (its memo of card values is filled in). */
double ai_card_value(const ch_state *st, const ai_feat *f, const ai_params *pr, int card);
/* Value of a hand: the card values `vals` (n of them, modified: sorted). */
double ai_hand_value(const ai_feat *f, const ai_params *pr, double *vals, int n);
/* Absolute value of player q: cash, stocks at worth, hand, liquidity. When
 * extra/nextra are given, those card values are added to q's hand. */
double ai_player_value(const ch_state *st, const ai_feat *f, const ai_params *pr, int q,
                       const double *extra, int nextra);
/* Relative value of player p: own value less beta times the opponents'
 * (an average of the best and the mean opponent). Final scores when over. */
double ai_eval(const ch_state *st, const ai_params *pr, int p);
double ai_eval_hint(const ch_state *st, const ai_params *pr, int p, double deck_avg);
/* The same, with card values added to p's hand (purchases). */
double ai_eval_extra(const ch_state *st, const ai_feat *f, const ai_params *pr, int p,
                     const double *extra, int nextra);

/* ---- greedy (greedy.c) ------------------------------------------------------------- */
#define AI_BUF (1 << 16)   /* legal moves of one decision                    */
#define AI_CAND 4096       /* candidate moves                                */

typedef struct ai_ws {     /* a workspace: one per thread, allocated up front */
    ai_params prm;
    ch_move buf[AI_BUF];
    ch_move cand[AI_CAND];
    double score[AI_CAND];
    ch_state tmp;
    ai_feat feat;
    /* Where greedy's ties are broken: NULL takes the first of equally good
     * moves (the legal-move order, so companies in index order); otherwise a
     * uniformly random one of them, drawn from *tie (the greedy bot points it
     * at its seeded generator, so the same seed plays the same game). */
    uint64_t *tie;
} ai_ws;

/* Greedy's move for player p, who decides now in st. */
ch_move ai_greedy_move(ai_ws *ws, const ch_state *st, int p);
/* Candidate moves of p for the search: the legal moves, with ranges of
 * amounts (sealed bids, auction bids, offered money) cut to a few amounts,
 * and merger sales cut to selling them all.
 * Returns the count (at most cap). */
int ai_candidates(ai_ws *ws, const ch_state *st, int p, ch_move *out, int cap);
/* Greedy's scores of the given moves of p (higher is better; moves decided by
 * rule score 0 for greedy's choice, -100 otherwise). */
void ai_greedy_scores(ai_ws *ws, const ch_state *st, int p, const ch_move *mv, int n,
                      double *score);
/* A uniformly random legal move of p (the random playout policy). */
ch_move ai_random_move(ai_ws *ws, const ch_state *st, int p, uint64_t *rng);

/* ---- the cheap playout policy (fast.c) ---------------------------------------------------- */
/* p's move by fast.c's rules (plays judged by the money they put on the
 * table, rules of thumb elsewhere); randomness from *rng only. */
ch_move ai_fast_move(ai_ws *ws, const ch_state *st, int p, uint64_t *rng);

/* ---- ISMCTS (ismcts.c) --------------------------------------------------------------- */
enum { AI_PLAYOUT_GREEDY = 0, AI_PLAYOUT_RANDOM = 1, AI_PLAYOUT_FAST = 2 };

typedef struct ai_search_opts {
    long iterations;       /* per move (all threads together); 0: use time    */
    double seconds;        /* per move when iterations is 0                   */
    int threads;           /* root parallelism                                 */
    int playout;           /* AI_PLAYOUT_*                                      */
    size_t memory;         /* bytes for the node arenas, all threads           */
    double explore;        /* UCB1 exploration constant                         */
    int width;             /* root moves kept after greedy ranking; 0: all      */
    int depth;             /* playout decisions before scoring; 0: to the end   */
    double prior;          /* weight of greedy's opinion in the selection        */
    double trust;          /* z: leave greedy's move only for a move whose mean
                              result beats it by z standard errors; 0: never keep */
    int early;             /* stop once more iterations cannot change the move */
    int rank;              /* tree depth down to which new children are chosen
                              by greedy's ranking; deeper a random untried move
                              (no prior); 0: at every depth                    */
    double win, margin;    /* a playout's result: win * (share of the win) +
                              margin * (score margin, squashed to 0..1); the
                              option win=W sets margin to 1 - W            */
    int cpu;               /* 1: seconds are CPU time of each search thread
                              (CLOCK_THREAD_CPUTIME_ID), not wall-clock time:
                              fair on a shared machine                        */
} ai_search_opts;

typedef struct ai_search ai_search;
typedef struct ai_search_stats {
    long iterations;       /* last search, all threads                          */
    long playout_steps;    /* decisions played in playouts                      */
    double seconds;
    long nodes;            /* nodes used, all threads                           */
    int full;              /* an arena filled up                                */
} ai_search_stats;

int ai_search_new(ai_search **out, const ai_search_opts *o);
void ai_search_free(ai_search *s);
/* Search from st (already determinized for p) and choose p's move. */
ch_move ai_search_run(ai_search *s, const ch_state *st, int p, uint64_t seed);
void ai_search_last(const ai_search *s, ai_search_stats *out);
/* For the next ai_search_run only: break ties in greedy's own move (the
 * default of `trust`) from a copy of this generator state, as the greedy bot
 * whose generator is in that state would; without it, the first of equals. */
void ai_search_tie(ai_search *s, uint64_t state);

/* ---- the rollout bot (rollout.c) ------------------------------------------------------ */
typedef struct ai_rollout_opts {
    int rollouts;          /* determinizations per move (each candidate played
                              out from every one of them)                      */
    int width;             /* candidates: greedy's move and the next best      */
    int depth;             /* fast-policy decisions per rollout before scoring */
    double trust;          /* leave greedy's move only for a candidate better
                              by this many standard errors                     */
    int greedy;            /* 1: rollouts played by greedy, 0: by fast.c       */
} ai_rollout_opts;
typedef struct ai_rollout ai_rollout;
int ai_rollout_new(ai_rollout **out, const ai_rollout_opts *o);
void ai_rollout_free(ai_rollout *r);
/* p's move in st (already determinized for p); randomness from *rng. */
ch_move ai_rollout_run(ai_rollout *r, const ch_state *st, int p, uint64_t *rng);

#endif
