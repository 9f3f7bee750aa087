/* play.h: helpers shared by the tests: make games, pick random moves, and
 * build positions by hand while keeping every invariant of ch_validate. */
#ifndef CH_TEST_PLAY_H
#define CH_TEST_PLAY_H
#include "chartered.h"

/* A new game on a built-in arrangement; aborts the test on failure. */
void t_new(ch_state *st, int players, const char *arrangement, uint64_t seed);
/* Deciding player now (lowest of the mask), or -1 when the game is over. */
int t_decider(const ch_state *st);
/* Play one uniformly random legal move with ch_apply; returns 0 when over. */
int t_random_step(ch_state *st, uint64_t *rng);
uint64_t t_rand(uint64_t *rng);
/* Apply a move given in notation by player p (1-based seat is p+1); fails the
 * test with the engine's message when it is rejected. */
void t_play(ch_state *st, int p, const char *text);
/* Is the move text legal for p right now? */
int t_legal(const ch_state *st, int p, const char *text);
/* Plot index by name ("Harbour C1"). */
int t_plot(const ch_state *st, const char *name);
/* Card of a plot by name. */
int t_card(const ch_state *st, const char *plot_name);

/* ---- position building: an empty table with chosen pieces ------------------- */
/* Clear the board, hands, market and stocks: all cards go to the deck (in id
 * order), players keep their cash; companies off the chart. */
void t_clear(ch_state *st);
/* Put a lone warehouse stack of height h on a plot (from the supply). */
void t_put(ch_state *st, const char *plot, int h);
/* Make the pieces on the listed plots company c with value v and HQ on hq. */
void t_company(ch_state *st, int c, int value, const char *hq, const char *const *plots, int n);
/* Move a card from the deck into a player's hand. */
void t_give(ch_state *st, int p, const char *card);
/* Give player p k stocks of company c from the bank. */
void t_stock(ch_state *st, int p, int c, int k);
/* Set whose turn it is (phase TURN). */
void t_turn(ch_state *st, int p);
/* Fail the test if ch_validate fails. */
void t_valid(const ch_state *st);
#endif
