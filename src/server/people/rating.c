/* rating.c: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system",
 * 2013, steps 1-8) for the ratings of people on the server, with lichess's
 * settings, and a game of 2 to 6 players counted as simultaneous pairwise
 * results by final place. Pure: no I/O, no allocation, no global state; the
 * server calls it off the event loop with ratings it read from the database
 * (docs/ratings.md).
 */
#include "rating.h"

#include <math.h>

/* The Glicko-2 scale: mu = (r - 1500) / 173.7178, phi = RD / 173.7178
 * (the paper's step 2). */
#define GLICKO_SCALE 173.7178
#define GLICKO_CENTRE 1500.0
#define PI 3.14159265358979323846
/* The paper's convergence tolerance for the volatility (step 5). */
#define EPSILON 0.000001
/* Bounds on the iterations of step 5: the Illinois method converges in a
 * handful of steps; these only keep a pathological input from looping. */
#define MAX_BRACKET_STEPS 1000
#define MAX_ILLINOIS_STEPS 200

void rating_settings_default(rating_settings *s)
{
    /* lichess (lila, modules/rating Glicko.scala): default
       Glicko(1500, maxDeviation 500, defaultVolatility 0.09), tau 0.75,
       minDeviation 45, maxVolatility 0.1, provisionalDeviation 110. */
    s->initial_rating = 1500.0;
    s->initial_deviation = 500.0;
    s->initial_volatility = 0.09;
    s->tau = 0.75;
    s->min_deviation = 45.0;
    s->max_deviation = 500.0;
    s->max_volatility = 0.1;
    s->provisional_deviation = 110.0;
}

rating_glicko rating_initial(const rating_settings *s)
{
    rating_glicko g = {s->initial_rating, s->initial_deviation, s->initial_volatility};
    return g;
}

int rating_provisional(const rating_settings *s, const rating_glicko *g)
{
    return g->deviation >= s->provisional_deviation;
}

static int glicko_ok(const rating_glicko *g)
{
    return isfinite(g->rating) && isfinite(g->deviation) && isfinite(g->volatility) &&
           g->deviation > 0 && g->volatility > 0;
}

/* g(phi) of step 3: how much an opponent's uncertainty damps the result. */
static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI));
}

/* f(x) of step 5.1. */
static double f_of(double x, double delta2, double phi2, double v, double a, double tau)
{
    double ex = exp(x);
    double d = phi2 + v + ex;
    return ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility, by the Illinois algorithm as the paper gives it. */
static double new_volatility(double sigma, double delta, double phi, double v, double tau)
{
    double a = log(sigma * sigma);
    double delta2 = delta * delta, phi2 = phi * phi;
    double A = a, B;
    if (delta2 > phi2 + v) {
        B = log(delta2 - phi2 - v);
    } else {
        int k = 1;
        while (k < MAX_BRACKET_STEPS && f_of(a - k * tau, delta2, phi2, v, a, tau) < 0)
            k++;
        B = a - k * tau;
    }
    double fA = f_of(A, delta2, phi2, v, a, tau);
    double fB = f_of(B, delta2, phi2, v, a, tau);
    for (int i = 0; i < MAX_ILLINOIS_STEPS && fabs(B - A) > EPSILON; i++) {
        double C = A + (A - B) * fA / (fB - fA);
        double fC = f_of(C, delta2, phi2, v, a, tau);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2.0;
        }
        B = C;
        fB = fC;
    }
    return exp(A / 2.0);
}

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

int rating_update(const rating_settings *s, const rating_glicko *me,
                  const rating_glicko *opp, const double *score, int n,
                  rating_glicko *out)
{
    if (n < 0 || !glicko_ok(me) || !(s->tau > 0))
        return -1;
    for (int j = 0; j < n; j++)
        if (!glicko_ok(&opp[j]) || !(score[j] >= 0.0 && score[j] <= 1.0))
            return -1;

    /* Step 2: to the Glicko-2 scale. */
    double mu = (me->rating - GLICKO_CENTRE) / GLICKO_SCALE;
    double phi = me->deviation / GLICKO_SCALE;
    double sigma = me->volatility;
    rating_glicko r;

    if (n == 0) {
        /* A period without games: only the deviation grows (step 6). */
        r.rating = me->rating;
        r.deviation = sqrt(phi * phi + sigma * sigma) * GLICKO_SCALE;
        r.volatility = sigma;
    } else {
        /* Steps 3 and 4: the estimated variance v and improvement delta. */
        double inv_v = 0, sum = 0;
        for (int j = 0; j < n; j++) {
            double mu_j = (opp[j].rating - GLICKO_CENTRE) / GLICKO_SCALE;
            double g = g_of(opp[j].deviation / GLICKO_SCALE);
            double e = 1.0 / (1.0 + exp(-g * (mu - mu_j)));
            inv_v += g * g * e * (1.0 - e);
            sum += g * (score[j] - e);
        }
        double v = 1.0 / inv_v;
        double delta = v * sum;
        /* Step 5: the new volatility. */
        double sigma2 = new_volatility(sigma, delta, phi, v, s->tau);
        /* Step 6: the pre-period deviation; step 7: the new phi and mu. */
        double phi_star = sqrt(phi * phi + sigma2 * sigma2);
        double phi2 = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
        double mu2 = mu + phi2 * phi2 * sum;
        /* Step 8: back to the Glicko scale. */
        r.rating = mu2 * GLICKO_SCALE + GLICKO_CENTRE;
        r.deviation = phi2 * GLICKO_SCALE;
        r.volatility = sigma2;
    }
    r.deviation = clamp(r.deviation, s->min_deviation, s->max_deviation);
    if (r.volatility > s->max_volatility)
        r.volatility = s->max_volatility;
    if (!glicko_ok(&r))
        return -1;
    *out = r;
    return 0;
}

int rating_game(const rating_settings *s, int n, const rating_glicko *before,
                const int *place, rating_glicko *after)
{
    if (n < 2 || n > RATING_MAX_PLAYERS)
        return -1;
    for (int i = 0; i < n; i++)
        if (place[i] < 0 || place[i] >= n)
            return -1;
    /* Every update reads the ratings before the game: compute all of them
       first, then write (after may be before). */
    rating_glicko next[RATING_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        rating_glicko opp[RATING_MAX_PLAYERS - 1];
        double score[RATING_MAX_PLAYERS - 1];
        int k = 0;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            opp[k] = before[j];
            score[k] = place[i] < place[j] ? 1.0 : place[i] == place[j] ? 0.5 : 0.0;
            k++;
        }
        if (rating_update(s, &before[i], opp, score, k, &next[i]) != 0)
            return -1;
    }
    for (int i = 0; i < n; i++)
        after[i] = next[i];
    return 0;
}

void rating_places(int n, const int32_t *score, unsigned winners, unsigned left, int *place)
{
    for (int i = 0; i < n; i++) {
        int li = (left >> i) & 1u, wi = (winners >> i) & 1u;
        place[i] = 0;
        for (int j = 0; j < n; j++) {
            int lj = (left >> j) & 1u, wj = (winners >> j) & 1u, ahead;
            if (li != lj)
                ahead = lj < li;        /* who stayed is ahead of who left */
            else if (li)
                ahead = 0;              /* those who left share the last places */
            else if (score[j] != score[i])
                ahead = score[j] > score[i];
            else
                ahead = wj > wi;
            place[i] += ahead;
        }
    }
}
