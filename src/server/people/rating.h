/* rating.h: Glicko-2 ratings of people (src/server/people/rating.c), as a pure
 * module: numbers in, numbers out, no I/O, no allocation, no server state.
 * The method, its settings and the way a game of 3 to 6 players counts are
 * documented in docs/ratings.md (Glickman, "Example of the Glicko-2 system",
 * 2013; settings as lichess's).
 */
#ifndef CHARTERED_RATING_H
#define CHARTERED_RATING_H

#include <stdint.h>

#define RATING_MAX_PLAYERS 6   /* the most players a game has (The Golden Age) */

/* One player's rating on the Glicko scale (as shown: 1500 ± 500). */
typedef struct rating_glicko {
    double rating;              /* r */
    double deviation;           /* RD */
    double volatility;          /* sigma */
} rating_glicko;

/* The system's settings. rating_settings_default() gives lichess's. */
typedef struct rating_settings {
    double initial_rating;      /* 1500 */
    double initial_deviation;   /* 500 */
    double initial_volatility;  /* 0.09 */
    double tau;                 /* 0.75: how fast the volatility may change */
    double min_deviation;       /* 45: an updated RD is kept within [min, max] */
    double max_deviation;       /* 500 */
    double max_volatility;      /* 0.1: an updated sigma is kept at most this */
    double provisional_deviation; /* 110: provisional while RD >= this */
} rating_settings;

void rating_settings_default(rating_settings *s);

/* A new player's rating (initial_*). */
rating_glicko rating_initial(const rating_settings *s);

/* 1 while the rating is provisional (its deviation >= provisional_deviation). */
int rating_provisional(const rating_settings *s, const rating_glicko *g);

/* One rating period of Glicko-2 for player `me` against n opponents
 * opp[0..n-1] (their ratings before the period) with scores score[i] (1 win,
 * 0.5 draw, 0 loss). n == 0: the period without games (only the deviation
 * grows). The new RD is kept within [min_deviation, max_deviation] and the
 * new volatility at most max_volatility; the opponents' values are used as
 * given. Returns 0, or -1 (out unchanged) when an input is out of range
 * (n < 0, a score not in [0,1], a deviation or volatility <= 0, a value not
 * finite). */
int rating_update(const rating_settings *s, const rating_glicko *me,
                  const rating_glicko *opp, const double *score, int n,
                  rating_glicko *out);

/* One finished game of n players (2..RATING_MAX_PLAYERS) as one rating
 * period per player: each player has played every other one at once, with
 * the pairwise result given by the final places, place[i] (0 = first; equal
 * places are shared: a draw between those players). before[i] are the
 * ratings before the game, after[i] receive the new ones (after may alias
 * before). Returns 0, or -1 (after unchanged) on bad input. */
int rating_game(const rating_settings *s, int n, const rating_glicko *before,
                const int *place, rating_glicko *after);

/* The final places of a game of n players (place[i], 0 = first; equal
 * numbers share a place): players in `left` (bit i: player i left the game,
 * a stand-in played for them at the end) share the last places below
 * everyone else, whatever their scores; the others are ranked by score[i],
 * and between equal scores a player in `winners` (the rules' tie-break)
 * comes before one who is not; equal scores with the same mark share. */
void rating_places(int n, const int32_t *score, unsigned winners, unsigned left, int *place);

#endif
