/* play.h: helpers shared by the tests: make games, pick random moves, and
 * build positions by hand while keeping every invariant of ch_validate. */
#ifndef CH_TEST_PLAY_H
#define CH_TEST_PLAY_H
#include "chartered.h"

/* A new game on a built-in arrangement; aborts the test on failure. */
void t_new(ch_state *st, int players, const char *arrangement, uint64_t seed);
/* A new Golden Age game: preset CH_GA_PRINTED or CH_GA_FIRST, events on/off;
 * the board side follows the preset's table. */
void t_new_ga(ch_state *st, int players, int preset, int events, uint64_t seed);
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
/* The whole file at path as a NUL-terminated string (free it), or NULL. */
char *t_slurp(const char *path);
/* Plot index by name ("Harbour C1"). */
int t_plot(const ch_state *st, const char *name);
/* Card of a plot by name. */
int t_card(const ch_state *st, const char *plot_name);

/* ---- position building: an empty table with chosen pieces ------------------- */
/* Clear the board, hands, market and stocks: all cards go to the deck (in id
 * order), players keep their cash; companies off the chart. */
/* After editing the board by hand: bring the state's derived data (the board
 * caches: pieces, lone warehouses, spacing zone) up to date, as every move does. */
void t_sync(ch_state *st);
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
/* Load tests/positions/NAME (docs/formats.md "Positions"), found from
 * CH_DATA_DIR (DATA/../tests/positions), which CTest sets; fails the test
 * with the loader's "file:line: reason" if it does not load. */
void t_position(ch_state *st, const char *name);

/* ---- more position building (tests/test_rules_*.c) ---------------------------- */
/* Set player p's cash, keeping money conserved against the bank's ledger. */
void t_cash(ch_state *st, int p, int32_t cash);
/* Put a deck card into market slot i (a card already there goes back on top
 * of the deck). */
void t_market(ch_state *st, int slot, const char *card);
/* Move a deck card to the top of the deck. */
void t_deck_top(ch_state *st, const char *card);
/* Move cards from the bottom of the deck to the discard pile until n remain. */
void t_deck_keep(ch_state *st, int n);
/* Move a level card ("L2", "L3", "L4") from the deck onto the level reserve. */
void t_reserve(ch_state *st, const char *level);
/* Give player p k broken roofs from the box. */
void t_roofs(ch_state *st, int p, int k);
/* Make open event slot i show a card of this kind (swapped with a card of the
 * event deck or discard pile). */
void t_event_open(ch_state *st, int slot, int kind);
/* Put a card of this kind on top of the event deck (swapped). */
void t_event_top(ch_state *st, int kind);
/* Give player p plot cards from the deck (highest ids first) until the hand
 * holds n cards. */
void t_hand_fill(ch_state *st, int p, int n);
/* Put lone warehouse stacks (height up to 4) on free plots of a district, no
 * two touching and none touching another piece, until the supply holds keep. */
void t_fill_supply(ch_state *st, const char *district, int keep);

/* ---- The Golden Age position building (tests/test_ga_*.c) ------------------- */
/* t_clear for The Golden Age: also takes every flag off the enterprises (each
 * player holds 2 again), moves the event cards to the discard pile (the deck
 * then holds the building cards only, in id order, the highest id on top),
 * leaves the open cards empty and resets the turn's Golden Age context. */
void t_ga_clear(ch_state *st);
/* A stack of h warehouses from the supply on a lot, owned by enterprise c; its
 * plot card is discarded when it is in the deck (t_put). */
void t_ga_stack(ch_state *st, const char *lot, int c, int h);
/* A free warehouse of enterprise c (height 1, CH_PF_FREE, from the supply);
 * its plot card stays where it is. */
void t_ga_free(ch_state *st, const char *lot, int c);
/* Enterprise c on the chart at value v: its HQ stack on hq (one warehouse from
 * the supply plus the HQ piece, which is not: height 2, CH_PF_HQ) and a
 * warehouse of height 1 on each of the n plots (plot cards discarded). */
void t_ga_company(ch_state *st, int c, int value, const char *hq, const char *const *plots, int n);
/* Player p places a flag on enterprise c (one of p's flags, no payment). */
void t_ga_flag(ch_state *st, int p, int c);
/* Card id of a level-k card (2..5) in the deck (the lowest id). */
int t_ga_level(const ch_state *st, int k);
/* Move a level-k card from the deck into player p's hand. */
void t_ga_give_level(ch_state *st, int p, int k);
/* Card id of the event card of this kind (CH_GE_*); fails when not in play. */
int t_ga_event_card(const ch_state *st, int kind);
/* Move card c (from the deck or the discard pile) to the top of the deck. */
void t_ga_deck_top(ch_state *st, int card);
/* Turn up open cards from the top of the deck into every empty open slot. */
void t_ga_market_fill(ch_state *st);
/* Raise enterprise c's plain stacks (neither HQ nor free) one level at a
 * time, up to height 5, until the supply holds keep warehouses. */
void t_ga_fill_supply(ch_state *st, int c, int keep);
/* Enterprise c at value v from a layout of lot names separated by spaces: the
 * first is the HQ lot (height 2: a warehouse and the HQ piece), the others
 * warehouses of height 1; "f12" is a free warehouse on lot 12 and "15:3" a
 * stack of height 3 (on the HQ lot: the HQ piece included), e.g. "13 f12 14:2". */
void t_ga_layout(ch_state *st, int c, int value, const char *spec);

/* ---- shared by the rules tests (tests/test_rules_*.c, test_ga_*.c) ------------ */
/* Company c of value v on two plots a and b (lone warehouses put there first),
 * its HQ on a. */
void t_company2(ch_state *st, int c, int v, const char *a, const char *b);
/* The move `text` of p parses but is refused, with a reason containing `why`
 * (any reason when why is NULL). */
void t_expect_illegal(const ch_state *st, int p, const char *text, const char *why);
/* How many of p's legal moves now are of move type `type`. */
int t_count_type(const ch_state *st, int p, int type);
/* Is card in p's hand; does p know that card (the known-cards bit set)? */
int t_in_hand(const ch_state *st, int p, int card);
int t_known(const ch_state *st, int p, int card);
/* The Golden Age: plot index of lot n (a bare number names a lot on both
 * sides), and moving the card of lot n from the deck into p's hand. */
int t_lot(const ch_state *st, int n);
void t_give_lot(ch_state *st, int p, int n);

/* ---- boards (tests/test_board*.c) ------------------------------------------------ */
/* Plot index of a plot name on a board; fails the test when there is none. */
int tb_plot(const ch_board *b, const char *name);
/* 0: not connected, 1: connected by land, 2: connected across a bridge; fails
 * the test when the adjacency is not symmetric. */
int tb_link_kind(const ch_board *b, int p, int q);

#endif
