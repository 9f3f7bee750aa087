/* stats.c: statistics over arena games: win rates with 95% Wilson score
 * intervals (by bot, by seat, by turn order), and Bradley-Terry ratings.
 *
 * Ratings: every game is split into the pairwise comparisons of its seats
 * played by different bots: the seat with the higher final score beats the
 * other (equal scores: the one among the winners, so the engine's tiebreak
 * decides; otherwise half a win each). The Bradley-Terry strengths g_i
 * maximise the likelihood of those results; they are found with Hunter's MM
 * iterations g_i <- W_i / sum_j N_ij / (g_i + g_j), with one virtual drawn
 * game of every bot against a reference of strength 1 (a weak prior that
 * keeps a bot that never lost finite). They are shown on the Elo scale,
 * 400 log10 g_i, shifted so that the bots' mean is 0: a 200-point gap means
 * the stronger bot wins about 76% of its comparisons.
 *
 * The 95% interval of a rating is the wider (on each side) of two: the 2.5
 * and 97.5 percentiles of 1000 bootstrap resamples of whole games (refitted
 * and shifted the same way; resampling games, not comparisons, accounts for
 * the several comparisons one game makes), and rating +- 1.96 standard
 * errors from the inverse Fisher information of the fitted model (which
 * stays honest when one bot won every comparison and every resample agrees).
 *
 * A seat whose bot failed (a protocol bot that crashed, hung or sent a bad
 * move, or a bot that could not be created) was finished by a stand-in (the
 * fallback, greedy by default); the stand-in's results are not the bot's.
 * Such a seat is a forfeit: it counts as a seat played and lost by its bot
 * (never among the winners, even when the stand-in won), it loses every
 * comparison with a seat of another bot that did not fail (two failed seats
 * tie), and its score is left out of the bot's average. The game is won by
 * the best of the other seats: the engine's winners among them, else the
 * highest score among them (shared on a tie); in a two-player game the
 * opponent wins by forfeit. Counting it as a
 * loss rather than leaving the game out keeps a bot that fails when it is
 * behind from hiding its bad games (docs/bots.md, "Bots that fail in
 * arena").
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define BOOTSTRAP 1000
#define NE ARENA_MAX_BOTS

void stats_wilson(long k, long n, double *lo, double *hi)
{
    if (n <= 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    const double z = 1.959963984540054;
    double p = (double)k / (double)n, nn = (double)n, z2 = z * z;
    double den = 1 + z2 / nn;
    double mid = (p + z2 / (2 * nn)) / den;
    double half = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / den;
    *lo = mid - half < 0 ? 0 : mid - half;
    *hi = mid + half > 1 ? 1 : mid + half;
}

static int forfeited(const arena_game *g, int seat)
{
    return (g->fallbacks >> seat) & 1;
}

/* The seats that count as winners of game g: the engine's winners when no
 * seat forfeited, else the best of the seats that did not (see above). */
static unsigned winners_counted(const arena_game *g)
{
    unsigned live = 0;
    for (int st = 0; st < g->nplayers; st++)
        if (!forfeited(g, st))
            live |= 1u << st;
    if (!g->fallbacks || (g->winners & live))
        return g->winners & live;
    int32_t best = INT32_MIN;
    unsigned w = 0;
    for (int st = 0; st < g->nplayers; st++) {
        if (!(live & (1u << st)))
            continue;
        if (g->score[st] > best) {
            best = g->score[st];
            w = 0;
        }
        if (g->score[st] == best)
            w |= 1u << st;
    }
    return w;
}

/* Seat a ranks above seat b in game g: 1 yes, 0 no, -1 tie (half each). A
 * forfeited seat ranks below every seat that was not. */
static int beats(const arena_game *g, int a, int b)
{
    if (forfeited(g, a) != forfeited(g, b))
        return forfeited(g, b);
    if (forfeited(g, a))
        return -1;
    if (g->score[a] != g->score[b])
        return g->score[a] > g->score[b];
    unsigned win = winners_counted(g);
    int wa = (win >> a) & 1, wb = (win >> b) & 1;
    if (wa != wb)
        return wa;
    return -1;
}

/* Add game g's comparisons, weight w, into W (wins, halves for ties) and N
 * (comparisons). */
static void add_game(const arena_game *g, double w, double W[NE][NE],
                     double N[NE][NE])
{
    for (int a = 0; a < g->nplayers; a++)
        for (int b = a + 1; b < g->nplayers; b++) {
            int ea = g->entry[a], eb = g->entry[b];
            if (ea == eb)
                continue;
            int r = beats(g, a, b);
            N[ea][eb] += w;
            N[eb][ea] += w;
            if (r == 1)
                W[ea][eb] += w;
            else if (r == 0)
                W[eb][ea] += w;
            else {
                W[ea][eb] += w / 2;
                W[eb][ea] += w / 2;
            }
        }
}

/* MM fit; ratings (Elo scale, mean 0) into r, strengths into gout (may be
 * NULL). */
static void bt_fit(int n, double W[NE][NE], double N[NE][NE], double *r,
                   double *gout)
{
    double g[NE], ng[NE];
    for (int i = 0; i < n; i++)
        g[i] = 1;
    for (int it = 0; it < 2000; it++) {
        double change = 0;
        for (int i = 0; i < n; i++) {
            double wins = 0.5, den = 1.0 / (g[i] + 1.0); /* the prior */
            for (int j = 0; j < n; j++)
                if (j != i && N[i][j] > 0) {
                    wins += W[i][j];
                    den += N[i][j] / (g[i] + g[j]);
                }
            ng[i] = wins / den;
        }
        for (int i = 0; i < n; i++) {
            double c = fabs(log(ng[i] / g[i]));
            if (c > change)
                change = c;
            g[i] = ng[i];
        }
        if (change < 1e-10)
            break;
    }
    double mean = 0;
    for (int i = 0; i < n; i++) {
        r[i] = 400.0 * log10(g[i]);
        mean += r[i];
    }
    mean /= n > 0 ? n : 1;
    for (int i = 0; i < n; i++) {
        r[i] -= mean;
        if (gout)
            gout[i] = g[i];
    }
}

/* Standard errors of the mean-centred ratings from the Fisher information
 * of the fitted model (prior included), on the Elo scale. 0 on success. */
static int bt_fisher(int n, double N[NE][NE], const double *g, double *se)
{
    double I[NE][2 * NE];
    memset(I, 0, sizeof I);
    for (int i = 0; i < n; i++) {
        double q = g[i] / (g[i] + 1);
        I[i][i] = q * (1 - q); /* the virtual game against the reference */
        for (int j = 0; j < n; j++)
            if (j != i && N[i][j] > 0) {
                double p = g[i] / (g[i] + g[j]);
                double v = N[i][j] * p * (1 - p);
                I[i][i] += v;
                I[i][j] -= v;
            }
        I[i][n + i] = 1;
    }
    /* Gauss-Jordan inversion with partial pivoting */
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(I[r][c]) > fabs(I[piv][c]))
                piv = r;
        if (fabs(I[piv][c]) < 1e-300)
            return -1;
        if (piv != c)
            for (int k = 0; k < 2 * n; k++) {
                double t = I[c][k];
                I[c][k] = I[piv][k];
                I[piv][k] = t;
            }
        double d = I[c][c];
        for (int k = 0; k < 2 * n; k++)
            I[c][k] /= d;
        for (int r = 0; r < n; r++)
            if (r != c && I[r][c] != 0) {
                double f = I[r][c];
                for (int k = 0; k < 2 * n; k++)
                    I[r][k] -= f * I[c][k];
            }
    }
    const double K = 400.0 / log(10.0);
    for (int i = 0; i < n; i++) {
        /* c = e_i - 1/n: var = S_ii - 2/n sum_j S_ij + 1/n^2 sum_jk S_jk */
        double row = 0, all = 0;
        for (int j = 0; j < n; j++) {
            row += I[i][n + j];
            for (int k = 0; k < n; k++)
                all += I[j][n + k];
        }
        double var = I[i][n + i] - 2.0 * row / n + all / ((double)n * n);
        se[i] = K * sqrt(var > 0 ? var : 0);
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void stats_compute(const arena_results *res, uint64_t seed, arena_stats *s)
{
    memset(s, 0, sizeof *s);
    int n = res->nentries;
    s->nentries = n;
    double score_sum[NE] = {0}, expected = 0;
    long scored[NE] = {0};
    long seats = 0;
    int *ok = malloc(sizeof *ok * (size_t)(res->ngames > 0 ? res->ngames : 1));
    int nok = 0;
    for (int i = 0; i < res->ngames; i++) {
        const arena_game *g = &res->games[i];
        if (g->failed)
            continue;
        if (ok)
            ok[nok++] = i;
        if (g->nplayers > s->maxp)
            s->maxp = g->nplayers;
        unsigned win = winners_counted(g);
        for (int st = 0; st < g->nplayers; st++) {
            int e = g->entry[st], lost = forfeited(g, st);
            int won = (win >> st) & 1;
            int pos = (st - g->first_player + g->nplayers) % g->nplayers;
            s->apps[e]++;
            s->wins[e] += won;
            if (lost) {
                s->forfeits[e]++;
            } else {
                score_sum[e] += g->score[st];
                scored[e]++;
            }
            s->seat_games[st]++;
            s->seat_wins[st] += won;
            s->pos_games[pos]++;
            s->pos_wins[pos] += won;
            s->es_games[e][st]++;
            s->es_wins[e][st] += won;
            expected += 1.0 / g->nplayers;
            seats++;
        }
    }
    s->ngames = nok;
    s->expected_wr = seats ? expected / (double)seats : 0;
    for (int e = 0; e < n; e++) {
        s->wr[e] = s->apps[e] ? (double)s->wins[e] / (double)s->apps[e] : 0;
        stats_wilson(s->wins[e], s->apps[e], &s->wlo[e], &s->whi[e]);
        s->avg_score[e] = scored[e] ? score_sum[e] / (double)scored[e] : 0;
    }
    if (n < 2 || !ok) {
        free(ok);
        return;
    }
    double (*W)[NE] = calloc(NE, sizeof *W), (*N)[NE] = calloc(NE, sizeof *N);
    if (!W || !N) {
        free(W);
        free(N);
        free(ok);
        return;
    }
    for (int k = 0; k < nok; k++)
        add_game(&res->games[ok[k]], 1, W, N);
    double g[NE], se[NE];
    bt_fit(n, W, N, s->rating, g);
    if (bt_fisher(n, N, g, se) == 0)
        for (int e = 0; e < n; e++) {
            s->flo[e] = s->rating[e] - 1.959963984540054 * se[e];
            s->fhi[e] = s->rating[e] + 1.959963984540054 * se[e];
        }
    else
        for (int e = 0; e < n; e++) {
            s->flo[e] = -INFINITY;
            s->fhi[e] = INFINITY;
        }
    /* bootstrap over games */
    double *samples = malloc(sizeof *samples * (size_t)BOOTSTRAP * (size_t)n);
    int *cnt = calloc((size_t)nok, sizeof *cnt);
    if (samples && cnt && nok > 0) {
        ch_rng rng;
        ch_rng_seed(&rng, seed ^ 0xB0075784Aull);
        for (int b = 0; b < BOOTSTRAP; b++) {
            memset(cnt, 0, sizeof *cnt * (size_t)nok);
            for (int k = 0; k < nok; k++)
                cnt[ch_rng_below(&rng, (uint32_t)nok)]++;
            memset(W, 0, sizeof *W * NE);
            memset(N, 0, sizeof *N * NE);
            for (int k = 0; k < nok; k++)
                if (cnt[k])
                    add_game(&res->games[ok[k]], cnt[k], W, N);
            double r[NE];
            bt_fit(n, W, N, r, NULL);
            for (int e = 0; e < n; e++)
                samples[(size_t)e * BOOTSTRAP + (size_t)b] = r[e];
        }
        for (int e = 0; e < n; e++) {
            double *x = samples + (size_t)e * BOOTSTRAP;
            qsort(x, BOOTSTRAP, sizeof *x, cmp_double);
            s->blo[e] = x[(int)(0.025 * BOOTSTRAP)];
            s->bhi[e] = x[(int)(0.975 * BOOTSTRAP) - 1];
        }
        s->bootstrap = BOOTSTRAP;
    }
    for (int e = 0; e < n; e++) {
        s->rlo[e] = s->flo[e];
        s->rhi[e] = s->fhi[e];
        if (s->bootstrap) {
            if (s->blo[e] < s->rlo[e])
                s->rlo[e] = s->blo[e];
            if (s->bhi[e] > s->rhi[e])
                s->rhi[e] = s->bhi[e];
        }
    }
    s->rated = 1;
    free(samples);
    free(cnt);
    free(ok);
    free(W);
    free(N);
}

static void pct(char *buf, size_t n, double x)
{
    snprintf(buf, n, "%.1f%%", 100.0 * x);
}

/* A label longer than the column keeps its head and its tail around "...":
 * "exec:sh /a/long/checkout/tests/bots/badmove3.sh" is told apart from its
 * neighbours by the program's name at the end, and by the kind at the start,
 * so cutting only the end (as printf's precision does) made two exec: bots
 * from one folder look the same, and hid which one failed. */
static void fit_label(char *out, const char *label, size_t room)
{
    size_t l = strlen(label);
    if (l <= room || room < 12) {
        snprintf(out, ARENA_LABEL, "%.*s", (int)room, label);
        return;
    }
    size_t head = (room - 3) / 3, tail = room - 3 - head;
    snprintf(out, ARENA_LABEL, "%.*s...%s", (int)head, label,
             label + l - tail);
}

void stats_print(FILE *f, const arena_results *res, const arena_stats *s)
{
    int n = s->nentries;
    size_t w = 4;
    int marked = 0;
    for (int e = 0; e < n; e++) {
        /* a bot with forfeited seats is shown as "LABEL (!)" */
        size_t l = strlen(res->label[e]) + (s->forfeits[e] ? 4 : 0);
        if (l > w)
            w = l;
        marked |= s->forfeits[e] > 0;
    }
    if (w > 48)
        w = 48;
    fprintf(f, "%-*s  %6s %6s  %-22s  %-22s %9s %6s\n", (int)w, "bot", "seats",
            "wins", "win rate (95% CI)", "rating (95% CI)", "avg score",
            "errors");
    /* by rating, then label order */
    int order[NE];
    for (int e = 0; e < n; e++)
        order[e] = e;
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && s->rating[order[b]] > s->rating[order[b - 1]];
             b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    for (int k = 0; k < n; k++) {
        int e = order[k];
        char wr[64], lo[16], hi[16], rt[64], name[ARENA_LABEL + 8];
        char fit[ARENA_LABEL];
        fit_label(fit, res->label[e], s->forfeits[e] ? w - 4 : w);
        snprintf(name, sizeof name, "%s%s", fit,
                 s->forfeits[e] ? " (!)" : "");
        pct(lo, sizeof lo, s->wlo[e]);
        pct(hi, sizeof hi, s->whi[e]);
        snprintf(wr, sizeof wr, "%5.1f%% (%s-%s)", 100.0 * s->wr[e], lo, hi);
        if (s->rated)
            snprintf(rt, sizeof rt, "%+5.0f (%+.0f..%+.0f)", s->rating[e],
                     s->rlo[e], s->rhi[e]);
        else
            snprintf(rt, sizeof rt, "-");
        char avg[32];
        if (s->forfeits[e] && s->forfeits[e] == s->apps[e])
            snprintf(avg, sizeof avg, "-"); /* no seat of its own finished */
        else
            snprintf(avg, sizeof avg, "%.1f", s->avg_score[e]);
        fprintf(f, "%-*.*s  %6ld %6ld  %-22s  %-22s %9s %6lu\n", (int)w,
                (int)w, name, s->apps[e], s->wins[e], wr, rt, avg,
                res->bot_errors[e]);
    }
    if (marked) {
        fprintf(f, "(!) failed in some games, finished by a stand-in; each "
                   "such seat counts as a loss:");
        for (int k = 0; k < n; k++)
            if (s->forfeits[order[k]])
                fprintf(f, " %s %ld of %ld", res->label[order[k]],
                        s->forfeits[order[k]], s->apps[order[k]]);
        fputc('\n', f);
    }
    fprintf(f, "(win: among the winners of a game, shared wins count; an even "
               "share would be %.1f%%)\n", 100.0 * s->expected_wr);
    fprintf(f, "\nwin rate by seat:\n");
    for (int st = 0; st < s->maxp; st++) {
        double lo, hi;
        stats_wilson(s->seat_wins[st], s->seat_games[st], &lo, &hi);
        fprintf(f, "  seat %d  %5ld games  %5.1f%% (%.1f%%-%.1f%%)", st + 1,
                s->seat_games[st],
                s->seat_games[st] ? 100.0 * (double)s->seat_wins[st] /
                                        (double)s->seat_games[st]
                                  : 0.0,
                100 * lo, 100 * hi);
        if (n > 1) {
            fprintf(f, "   by bot:");
            for (int e = 0; e < n; e++)
                if (s->es_games[e][st])
                    fprintf(f, " %s %ld/%ld", res->label[e], s->es_wins[e][st],
                            s->es_games[e][st]);
        }
        fputc('\n', f);
    }
    fprintf(f, "win rate by turn order (1 = the starting player):\n");
    for (int k = 0; k < s->maxp; k++) {
        double lo, hi;
        stats_wilson(s->pos_wins[k], s->pos_games[k], &lo, &hi);
        fprintf(f, "  %d.      %5ld games  %5.1f%% (%.1f%%-%.1f%%)\n", k + 1,
                s->pos_games[k],
                s->pos_games[k] ? 100.0 * (double)s->pos_wins[k] /
                                      (double)s->pos_games[k]
                                : 0.0,
                100 * lo, 100 * hi);
    }
}

int stats_write_summary(const char *path, const arena_results *res,
                        const arena_stats *s, json_t *run)
{
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string("chartered-arena"));
    json_object_set_new(root, "version", json_integer(1));
    if (run)
        json_object_set(root, "run", run);
    json_object_set_new(root, "games", json_integer(res->ngames));
    json_object_set_new(root, "games_counted", json_integer(s->ngames));
    json_t *bots = json_array();
    for (int e = 0; e < s->nentries; e++) {
        json_t *b = json_object();
        json_object_set_new(b, "bot", json_string(res->label[e]));
        json_object_set_new(b, "seats", json_integer(s->apps[e]));
        json_object_set_new(b, "wins", json_integer(s->wins[e]));
        json_object_set_new(b, "win_rate", json_real(s->wr[e]));
        json_object_set_new(b, "win_rate_ci",
                            json_pack("[f,f]", s->wlo[e], s->whi[e]));
        if (s->rated) {
            json_object_set_new(b, "rating", json_real(s->rating[e]));
            json_object_set_new(b, "rating_ci",
                                json_pack("[f,f]", s->rlo[e], s->rhi[e]));
            json_object_set_new(b, "rating_ci_fisher",
                                json_pack("[f,f]", s->flo[e], s->fhi[e]));
            if (s->bootstrap)
                json_object_set_new(b, "rating_ci_bootstrap",
                                    json_pack("[f,f]", s->blo[e], s->bhi[e]));
        } else {
            json_object_set_new(b, "rating", json_null());
            json_object_set_new(b, "rating_ci", json_null());
        }
        json_object_set_new(b, "avg_score",
                            s->forfeits[e] && s->forfeits[e] == s->apps[e]
                                ? json_null()
                                : json_real(s->avg_score[e]));
        json_object_set_new(b, "errors", json_integer((json_int_t)res->bot_errors[e]));
        /* seats finished by a stand-in, counted as losses (forfeited) */
        json_object_set_new(b, "forfeits", json_integer((json_int_t)s->forfeits[e]));
        json_t *by = json_array();
        for (int st = 0; st < s->maxp; st++)
            json_array_append_new(by, json_pack("{s:i,s:I,s:I}", "seat", st + 1,
                                                "games", (json_int_t)s->es_games[e][st],
                                                "wins", (json_int_t)s->es_wins[e][st]));
        json_object_set_new(b, "by_seat", by);
        json_array_append_new(bots, b);
    }
    json_object_set_new(root, "bots", bots);
    json_t *seats = json_array(), *order = json_array();
    for (int st = 0; st < s->maxp; st++) {
        double lo, hi;
        stats_wilson(s->seat_wins[st], s->seat_games[st], &lo, &hi);
        json_array_append_new(seats, json_pack(
            "{s:i,s:I,s:I,s:f,s:[f,f]}", "seat", st + 1, "games",
            (json_int_t)s->seat_games[st], "wins", (json_int_t)s->seat_wins[st],
            "win_rate", s->seat_games[st] ? (double)s->seat_wins[st] /
                                                (double)s->seat_games[st] : 0.0,
            "win_rate_ci", lo, hi));
        stats_wilson(s->pos_wins[st], s->pos_games[st], &lo, &hi);
        json_array_append_new(order, json_pack(
            "{s:i,s:I,s:I,s:f,s:[f,f]}", "position", st + 1, "games",
            (json_int_t)s->pos_games[st], "wins", (json_int_t)s->pos_wins[st],
            "win_rate", s->pos_games[st] ? (double)s->pos_wins[st] /
                                               (double)s->pos_games[st] : 0.0,
            "win_rate_ci", lo, hi));
    }
    json_object_set_new(root, "seats", seats);
    json_object_set_new(root, "turn_order", order);
    json_object_set_new(root, "even_share", json_real(s->expected_wr));
    /* totals of the per-game counts */
    json_t *moves = json_object();
    long turns = 0, decisions = 0, founded = 0, merged = 0;
    for (int t = 1; t < CH_M_NTYPES; t++) {
        long tot = 0;
        for (int i = 0; i < res->ngames; i++)
            tot += res->games[i].moves[t];
        json_object_set_new(moves, arena_move_name(t), json_integer(tot));
    }
    for (int i = 0; i < res->ngames; i++) {
        turns += res->games[i].turns;
        decisions += res->games[i].decisions;
        founded += res->games[i].founded;
        merged += res->games[i].merged;
    }
    json_object_set_new(root, "moves", moves);
    json_object_set_new(root, "turns", json_integer(turns));
    json_object_set_new(root, "decisions", json_integer(decisions));
    json_object_set_new(root, "founded", json_integer(founded));
    json_object_set_new(root, "merged", json_integer(merged));
    json_object_set_new(root, "seconds", json_real(res->seconds));
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                      JSON_REAL_PRECISION(6));
    json_decref(root);
    if (!text) {
        cli_error("out of memory");
        return EXIT_FAIL;
    }
    size_t len = strlen(text);
    char *t2 = realloc(text, len + 2);
    if (t2) {
        text = t2;
        text[len] = '\n';
        text[len + 1] = '\0';
    }
    int rc = cli_write_file_atomic(path, text) == 0 ? 0 : EXIT_FAIL;
    free(text);
    return rc;
}
