/* cmd_analyze.c: `chartered analyze`, statistics of many games: read the
 * games.csv of an arena run (--in) or play fresh games between bots (the
 * arena's flags), then report first-player and seat advantage, game length,
 * companies founded and merged, final company values, how often each move
 * kind, stock event and action card is used, margins of victory and scores,
 * and the bots' ratings, with a warning when companies stay on the chart
 * far more or less often than the others (biased bots); optionally draw SVG charts (--plots DIR) and
 * convert them to PNG with an external tool (--png). With several --in
 * runs it compares them instead: each statistic side by side, each run's
 * difference from the first with a Bonferroni-corrected interval, and plots
 * that overlay the runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arena.h"
#include "svg.h"

extern char **environ;

/* ---- small summaries ---------------------------------------------------------- */

typedef struct summary {
    int n;
    double mean, sd, min, median, max;
} summary;

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v. */
static summary summarize(double *v, int n)
{
    summary s = {0};
    s.n = n;
    if (n <= 0)
        return s;
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++)
        sum += v[i];
    s.mean = sum / n;
    for (int i = 0; i < n; i++)
        sq += (v[i] - s.mean) * (v[i] - s.mean);
    s.sd = n > 1 ? sqrt(sq / (n - 1)) : 0;
    s.min = v[0];
    s.max = v[n - 1];
    s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return s;
}

static void print_summary(const char *what, summary s)
{
    printf("  %-26s mean %8.1f  sd %7.1f  min %7.0f  median %7.1f  max %7.0f\n",
           what, s.mean, s.sd, s.min, s.median, s.max);
}

/* Totals by name from "name=v;name=v" texts. */
#define MAX_NAMES 48
typedef struct namecount {
    int n;
    char name[MAX_NAMES][40];
    double sum[MAX_NAMES];
    long games[MAX_NAMES];   /* texts that name it     */
    long positive[MAX_NAMES]; /* of those, with v > 0 */
} namecount;

static void nc_add(namecount *nc, const char *text)
{
    const char *p = text;
    while (p && *p) {
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (eq) {
            size_t nl = (size_t)(eq - p);
            double v = strtod(eq + 1, NULL);
            int k = 0;
            while (k < nc->n && (strlen(nc->name[k]) != nl ||
                                 strncmp(nc->name[k], p, nl) != 0))
                k++;
            if (k == nc->n && nc->n < MAX_NAMES && nl < sizeof nc->name[0]) {
                memcpy(nc->name[k], p, nl);
                nc->name[k][nl] = '\0';
                nc->n++;
            }
            if (k < nc->n) {
                nc->sum[k] += v;
                nc->games[k]++;
                nc->positive[k] += v > 0;
            }
        }
        p = semi ? semi + 1 : NULL;
    }
}

/* ---- bias in the bots' choices ------------------------------------------------------ */

/* The z above which a two-sided normal test rejects at level alpha:
 * erfc(z / sqrt 2) = alpha, by bisection (erfc falls monotonically). */
static double z_two_sided(double alpha)
{
    double lo = 0, hi = 40;
    for (int i = 0; i < 200; i++) {
        double mid = (lo + hi) / 2;
        if (erfc(mid / sqrt(2.0)) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* Companies on the chart at the end far more (or less) often than the
 * average company: the bots' choices are biased (issue 36: greedy, breaking
 * ties by list order, founded companies in index order; Gunpowder stayed on
 * the chart in 69% of four-greedy games, Tobacco in 0.5%). Under random play
 * every company of either edition is there about equally often (docs/bots.md),
 * so a company is flagged when its share differs from the pooled share by a
 * factor of 1.5 (above) or 2 (below) and a binomial z-test rejects equality
 * at 0.001, Bonferroni-corrected for the number of companies. Returns the
 * number of companies flagged; prints the warning. */
static int bias_warning(FILE *out, const namecount *vals)
{
    long k = 0, n = 0;
    for (int c = 0; c < vals->n; c++) {
        k += vals->positive[c];
        n += vals->games[c];
    }
    if (vals->n < 2 || n <= 0 || k <= 0 || k >= n)
        return 0;
    double pbar = (double)k / (double)n;
    double z = z_two_sided(0.001 / vals->n);
    int flagged = 0;
    for (int c = 0; c < vals->n; c++) {
        long nc = vals->games[c];
        if (nc <= 0)
            continue;
        double pc = (double)vals->positive[c] / (double)nc;
        double zc = (pc - pbar) / sqrt(pbar * (1 - pbar) / (double)nc);
        if (fabs(zc) < z || (pc < 1.5 * pbar && pc > 0.5 * pbar))
            continue;
        if (!flagged)
            fprintf(out, "  warning: the bots' choices look biased: companies are not on the chart "
                         "equally often\n  (average company %.1f%%; two-sided z-test at 0.001, "
                         "Bonferroni-corrected for %d companies: |z| > %.2f):\n",
                    100 * pbar, vals->n, z);
        fprintf(out, "    %-14s %5.1f%%, %s its share (z = %+.1f)\n", vals->name[c], 100 * pc,
                pc > pbar ? "far above" : "far below", zc);
        flagged++;
    }
    if (flagged)
        fprintf(out, "  (with random play every company is there about equally often; a bot that "
                     "breaks ties by list order\n  founds companies in index order: docs/bots.md)\n");
    return flagged;
}

/* ---- PNG conversion ------------------------------------------------------------- */

static int in_path(const char *prog, char *full, size_t n)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(full, n, "%.*s/%s", (int)(len ? len : 1), len ? path : ".",
                 prog);
        if (access(full, X_OK) == 0)
            return 1;
        path += len + (colon ? 1 : 0);
    }
    return 0;
}

/* The converters tried, in order. */
static const char *const png_tools[] = {"rsvg-convert", "magick", "convert",
                                        "inkscape"};
#define NTOOLS 4

/* Run converter t on svg -> png. 0 ok, 1 not on the PATH, -1 it failed. */
static int run_tool(int t, const char *svg, const char *png)
{
    char full[4096], out_opt[4200];
    char *argv[6];
    if (!in_path(png_tools[t], full, sizeof full))
        return 1;
    argv[0] = full;
    if (t == 0) {
        argv[1] = "-o"; argv[2] = (char *)png; argv[3] = (char *)svg;
        argv[4] = NULL;
    } else if (t == 3) {
        snprintf(out_opt, sizeof out_opt, "--export-filename=%s", png);
        argv[1] = (char *)svg; argv[2] = out_opt; argv[3] = NULL;
    } else {
        argv[1] = (char *)svg; argv[2] = (char *)png; argv[3] = NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    /* their chatter would drown our report: standard output to /dev/null */
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawn(&pid, full, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    struct stat sb;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || stat(png, &sb) != 0 ||
        sb.st_size == 0)
        return -1;
    return 0;
}

/* Convert svg to png with the tool that worked before (*tool >= 0), else
 * the first that works. 0, or EXIT_FAIL after a message. */
static int to_png(const char *svg, const char *png, int *tool)
{
    return svg_to_png("chartered analyze", svg, png, tool);
}

int svg_to_png(const char *cmd, const char *svg, const char *png, int *tool)
{
    if (*tool >= 0 && run_tool(*tool, svg, png) == 0)
        return 0;
    char tried[300] = "";
    size_t off = 0;
    for (int t = 0; t < NTOOLS; t++) {
        int r = run_tool(t, svg, png);
        if (r == 0) {
            *tool = t;
            return 0;
        }
        if (r < 0 && off < sizeof tried)
            off += (size_t)snprintf(tried + off, sizeof tried - off, "%s%s",
                                    off ? ", " : "", png_tools[t]);
    }
    if (off)
        cli_error("%s: --png: could not convert '%s' to PNG: "
                  "%s failed, and no other converter (rsvg-convert, magick, "
                  "convert, inkscape) is on the PATH (the SVG plots are "
                  "written)", cmd, svg, tried);
    else
        cli_error("%s: --png needs a converter on the PATH: "
                  "rsvg-convert (librsvg), magick or convert (ImageMagick), "
                  "or inkscape; none was found (the SVG plots are written)", cmd);
    return EXIT_FAIL;
}

/* Names the plots written into dir and, with png, converts each to PNG
 * beside it (one run's plots and the compared runs' alike). */
static int list_plots(const char *dir, const char *const *files, int nfiles, int png)
{
    printf("\nplots: ");
    for (int k = 0; k < nfiles; k++)
        printf("%s%s/%s.svg", k ? ", " : "", dir, files[k]);
    printf("\n");
    if (png) {
        int tool = -1;
        for (int k = 0; k < nfiles; k++) {
            char svgp[4096], pngp[4096];
            snprintf(svgp, sizeof svgp, "%s/%s.svg", dir, files[k]);
            snprintf(pngp, sizeof pngp, "%s/%s.png", dir, files[k]);
            if (to_png(svgp, pngp, &tool) != 0)
                return EXIT_FAIL;
        }
        printf("png (with %s): the same names with .png\n", png_tools[tool]);
    }
    return 0;
}

/* ---- the report ------------------------------------------------------------------ */

static int plots(const char *dir, int png, const arena_results *res,
                 const arena_stats *s)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_error("chartered analyze: cannot create '%s': %s", dir,
                  strerror(errno));
        return EXIT_FAIL;
    }
    char path[4096];
    const char *files[8];
    int nfiles = 0;
    int n = s->nentries;
    svg_item items[ARENA_MAX_BOTS > 32 ? ARENA_MAX_BOTS : 32];
    /* ratings (two or more bots) */
    if (n >= 2) {
        for (int e = 0; e < n; e++)
            items[e] = (svg_item){res->label[e], s->rating[e], s->rlo[e],
                                  s->rhi[e], s->rated};
        snprintf(path, sizeof path, "%s/ratings.svg", dir);
        if (svg_intervals(path, "Bradley-Terry ratings with 95% "
                          "intervals", "rating (Elo scale, mean 0)", items, n,
                          0.0) != 0)
            return EXIT_FAIL;
        files[nfiles++] = "ratings";
    }
    for (int e = 0; e < n; e++)
        items[e] = (svg_item){res->label[e], s->wr[e], s->wlo[e], s->whi[e], 1};
    snprintf(path, sizeof path, "%s/bots.svg", dir);
    if (svg_bars(path, "Win rate by bot (95% Wilson intervals)", "win rate",
                 items, n, s->expected_wr, 1) != 0)
        return EXIT_FAIL;
    files[nfiles++] = "bots";
    char labels[CH_MAX_PLAYERS][32];
    for (int st = 0; st < s->maxp; st++) {
        double lo, hi;
        stats_wilson(s->seat_wins[st], s->seat_games[st], &lo, &hi);
        snprintf(labels[st], sizeof labels[st], "seat %d", st + 1);
        items[st] = (svg_item){labels[st], s->seat_games[st] ?
                               (double)s->seat_wins[st] / (double)s->seat_games[st] : 0,
                               lo, hi, 1};
    }
    snprintf(path, sizeof path, "%s/seats.svg", dir);
    if (svg_bars(path, "Win rate by seat (95% Wilson intervals)", "win rate",
                 items, s->maxp, s->expected_wr, 1) != 0)
        return EXIT_FAIL;
    files[nfiles++] = "seats";
    char olabels[CH_MAX_PLAYERS][32];
    for (int k = 0; k < s->maxp; k++) {
        double lo, hi;
        stats_wilson(s->pos_wins[k], s->pos_games[k], &lo, &hi);
        snprintf(olabels[k], sizeof olabels[k], k == 0 ? "1st (starts)" :
                 k == 1 ? "2nd" : k == 2 ? "3rd" : "%dth", k + 1);
        items[k] = (svg_item){olabels[k], s->pos_games[k] ?
                              (double)s->pos_wins[k] / (double)s->pos_games[k] : 0,
                              lo, hi, 1};
    }
    snprintf(path, sizeof path, "%s/turn_order.svg", dir);
    if (svg_bars(path, "Win rate by turn order (95% Wilson intervals)",
                 "win rate", items, s->maxp, s->expected_wr, 1) != 0)
        return EXIT_FAIL;
    files[nfiles++] = "turn_order";
    /* score histogram per bot, game length histogram */
    double *sc[ARENA_MAX_BOTS];
    int cnt[ARENA_MAX_BOTS] = {0};
    const char *names[ARENA_MAX_BOTS];
    double *len = malloc(sizeof *len * (size_t)(res->ngames + 1));
    int nlen = 0, bad = !len;
    for (int e = 0; e < n; e++) {
        sc[e] = malloc(sizeof *sc[e] * (size_t)(s->apps[e] + 1));
        names[e] = res->label[e];
        bad |= !sc[e];
    }
    if (!bad) {
        for (int i = 0; i < res->ngames; i++) {
            const arena_game *g = &res->games[i];
            if (g->failed)
                continue;
            len[nlen++] = g->turns;
            for (int st = 0; st < g->nplayers; st++)
                sc[g->entry[st]][cnt[g->entry[st]]++] = g->score[st];
        }
        /* a row per bot (box, whiskers, every score as a dot): identical
           bots look alike instead of overlaid histograms blurring */
        snprintf(path, sizeof path, "%s/scores.svg", dir);
        bad = svg_boxes(path, "Final scores by bot", "score (florins)",
                        (const double *const *)sc, cnt, names, n) != 0;
        const double *ls[1] = {len};
        const char *ln[1] = {"games"};
        snprintf(path, sizeof path, "%s/length.svg", dir);
        bad |= svg_histogram(path, "Game length", "turns", ls, &nlen, ln, 1,
                             20) != 0;
    } else {
        cli_error("out of memory");
    }
    for (int e = 0; e < n; e++)
        free(sc[e]);
    free(len);
    if (bad)
        return EXIT_FAIL;
    files[nfiles++] = "scores";
    files[nfiles++] = "length";
    /* moves per game by kind */
    int nm = 0;
    double per[CH_M_NTYPES];
    int ngood = 0;
    for (int i = 0; i < res->ngames; i++)
        ngood += !res->games[i].failed;
    for (int t = 1; t < CH_M_NTYPES; t++) {
        double tot = 0;
        for (int i = 0; i < res->ngames; i++)
            if (!res->games[i].failed)
                tot += res->games[i].moves[t];
        if (tot <= 0 || nm >= 32)
            continue;
        per[nm] = ngood ? tot / ngood : 0;
        items[nm] = (svg_item){arena_move_name(t), per[nm], 0, 0, 0};
        nm++;
    }
    /* the commonest first (a row each when there are many) */
    for (int i = 1; i < nm; i++)
        for (int j = i; j > 0 && items[j].value > items[j - 1].value; j--) {
            svg_item t = items[j];
            items[j] = items[j - 1];
            items[j - 1] = t;
        }
    snprintf(path, sizeof path, "%s/moves.svg", dir);
    if (svg_bars(path, "Moves per game by kind", "moves per game", items, nm,
                 NAN, 0) != 0)
        return EXIT_FAIL;
    files[nfiles++] = "moves";
    return list_plots(dir, files, nfiles, png);
}

static void report(const arena_results *res, const arena_stats *s,
                   const char *source)
{
    int n = res->ngames, good = s->ngames;
    printf("chartered analyze: %d games %s", n, source);
    if (good != n)
        printf(" (%d failed, left out)", n - good);
    printf("\n");
    /* tables */
    int ed[2] = {0, 0}, np[CH_MAX_PLAYERS + 1] = {0};
    for (int i = 0; i < n; i++) {
        const arena_game *g = &res->games[i];
        ed[g->edition == CH_ED_GOLDEN_AGE]++;
        if (g->nplayers >= 1 && g->nplayers <= CH_MAX_PLAYERS)
            np[g->nplayers]++;
    }
    printf("tables: ");
    if (ed[0])
        printf("amsterdam %d", ed[0]);
    if (ed[1])
        printf("%sgolden-age %d", ed[0] ? ", " : "", ed[1]);
    printf("; players:");
    for (int p = 1; p <= CH_MAX_PLAYERS; p++)
        if (np[p])
            printf(" %d (%d games)", p, np[p]);
    printf("\n\n");

    printf("== bots\n");
    stats_print(stdout, res, s);

    double *v = malloc(sizeof *v * (size_t)(n + 1));
    if (!v)
        return;
    printf("\n== game length\n");
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!res->games[i].failed)
            v[k++] = res->games[i].turns;
    print_summary("turns", summarize(v, k));
    k = 0;
    for (int i = 0; i < n; i++)
        if (!res->games[i].failed)
            v[k++] = (double)res->games[i].decisions;
    print_summary("decisions", summarize(v, k));

    printf("\n== companies per game\n");
    k = 0;
    for (int i = 0; i < n; i++)
        if (!res->games[i].failed)
            v[k++] = res->games[i].founded;
    print_summary("founded", summarize(v, k));
    k = 0;
    for (int i = 0; i < n; i++)
        if (!res->games[i].failed)
            v[k++] = res->games[i].merged;
    print_summary("merged (off the chart)", summarize(v, k));

    namecount vals = {0}, evs = {0};
    for (int i = 0; i < n; i++)
        if (!res->games[i].failed) {
            nc_add(&vals, res->games[i].values_text);
            nc_add(&evs, res->games[i].events_text);
        }
    if (vals.n) {
        printf("\n== final company values (off the chart counts as f0)\n");
        printf("  %-14s %6s %11s %14s\n", "company", "games", "mean value",
               "on the chart");
        for (int c = 0; c < vals.n; c++)
            printf("  %-14s %6ld %10.1f  %12.1f%%\n", vals.name[c],
                   vals.games[c], vals.games[c] ? vals.sum[c] / vals.games[c] : 0,
                   vals.games[c] ? 100.0 * vals.positive[c] / vals.games[c] : 0);
        bias_warning(stdout, &vals);
    }

    printf("\n== moves by kind\n");
    double all = 0;
    for (int t = 1; t < CH_M_NTYPES; t++)
        for (int i = 0; i < n; i++)
            if (!res->games[i].failed)
                all += res->games[i].moves[t];
    printf("  %-10s %10s %10s %8s %12s\n", "kind", "total", "per game",
           "share", "in games");
    for (int t = 1; t < CH_M_NTYPES; t++) {
        double tot = 0;
        long used = 0;
        for (int i = 0; i < n; i++)
            if (!res->games[i].failed) {
                tot += res->games[i].moves[t];
                used += res->games[i].moves[t] > 0;
            }
        if (tot == 0)
            continue;
        printf("  %-10s %10.0f %10.2f %7.2f%% %11.1f%%\n", arena_move_name(t),
               tot, good ? tot / good : 0, all > 0 ? 100 * tot / all : 0,
               good ? 100.0 * (double)used / good : 0);
    }
    long roof = 0, event = 0;
    for (int i = 0; i < n; i++)
        if (!res->games[i].failed) {
            roof += res->games[i].action_roof;
            event += res->games[i].action_event;
        }
    printf("\n== action cards\n  broken roof %ld (%.2f per game), stock "
           "event %ld (%.2f per game)\n", roof,
           good ? (double)roof / good : 0, event,
           good ? (double)event / good : 0);
    printf("\n== stock events (chosen or drawn)\n");
    if (!evs.n)
        printf("  none\n");
    for (int e = 0; e < evs.n; e++)
        printf("  %-26s %8.0f  %.2f per game\n", evs.name[e], evs.sum[e],
               good ? evs.sum[e] / good : 0);

    printf("\n== scores\n");
    k = 0;
    double *m = malloc(sizeof *m * (size_t)(n + 1));
    double *w = malloc(sizeof *w * (size_t)(n + 1));
    int km = 0, kw = 0, shared = 0;
    for (int i = 0; i < n && m && w; i++) {
        const arena_game *g = &res->games[i];
        if (g->failed)
            continue;
        int32_t best = INT32_MIN, second = INT32_MIN;
        int nb = 0;
        for (int st = 0; st < g->nplayers; st++) {
            if (g->score[st] > best) {
                second = best;
                best = g->score[st];
            } else if (g->score[st] > second) {
                second = g->score[st];
            }
        }
        for (int st = 0; st < g->nplayers; st++)
            nb += (g->winners >> st) & 1;
        shared += nb > 1;
        w[kw++] = best;
        m[km++] = g->nplayers > 1 ? (double)(best - second) : 0;
    }
    double *all_sc = malloc(sizeof *all_sc * (size_t)(n * CH_MAX_PLAYERS + 1));
    if (all_sc) {
        for (int i = 0; i < n; i++)
            if (!res->games[i].failed)
                for (int st = 0; st < res->games[i].nplayers; st++)
                    all_sc[k++] = res->games[i].score[st];
        print_summary("every final score", summarize(all_sc, k));
        free(all_sc);
    }
    if (m && w) {
        print_summary("winning score", summarize(w, kw));
        print_summary("margin of victory", summarize(m, km));
        printf("  (margin: the best score minus the second best, 0 when "
               "equal; shared wins: %d)\n", shared);
    }
    free(m);
    free(w);
    free(v);
}

/* ---- comparing runs (--in A --in B ...) ------------------------------------------------ */

/* One statistic of one run: a proportion (k of n) or a mean (of n values,
 * with their standard deviation). */
enum { CS_PROP = 0, CS_MEAN = 1 };
typedef struct cstat {
    char name[ARENA_LABEL + 24];
    int kind;
    double mean, sd;
    long k, n;
} cstat;
#define CS_MAX (ARENA_MAX_BOTS + 3 * CH_MAX_PLAYERS + MAX_NAMES + 16)

static int cs_prop(cstat *out, int m, const char *name, long k, long n)
{
    if (m >= CS_MAX || n <= 0)
        return m;
    cstat *c = &out[m];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->kind = CS_PROP;
    c->k = k;
    c->n = n;
    c->mean = (double)k / (double)n;
    c->sd = 0;
    return m + 1;
}

static int cs_mean(cstat *out, int m, const char *name, double *v, int n)
{
    if (m >= CS_MAX || n <= 0)
        return m;
    summary s = summarize(v, n);
    cstat *c = &out[m];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->kind = CS_MEAN;
    c->mean = s.mean;
    c->sd = s.sd;
    c->n = n;
    c->k = 0;
    return m + 1;
}

/* The statistics of one run that are compared: win rates by bot, seat and
 * turn order, game length, companies founded and merged, each company's
 * share of games on the chart at the end, and the scores (all, by seat, the
 * winner's). */
static int collect(const arena_results *res, const arena_stats *s, cstat *out)
{
    int m = 0, n = res->ngames;
    char name[ARENA_LABEL + 24];
    for (int e = 0; e < s->nentries; e++) {
        snprintf(name, sizeof name, "win rate: %s", res->label[e]);
        m = cs_prop(out, m, name, s->wins[e], s->apps[e]);
    }
    for (int st = 0; st < s->maxp; st++) {
        snprintf(name, sizeof name, "win rate: seat %d", st + 1);
        m = cs_prop(out, m, name, s->seat_wins[st], s->seat_games[st]);
    }
    for (int k = 0; k < s->maxp; k++) {
        snprintf(name, sizeof name, "win rate: turn order %d", k + 1);
        m = cs_prop(out, m, name, s->pos_wins[k], s->pos_games[k]);
    }
    double *v = malloc(sizeof *v * (size_t)(n * CH_MAX_PLAYERS + 1));
    if (!v)
        return m;
    int k;
#define GAMES_MEAN(label, expr)                                                      \
    k = 0;                                                                           \
    for (int i = 0; i < n; i++)                                                      \
        if (!res->games[i].failed)                                                   \
            v[k++] = (double)(expr);                                                 \
    m = cs_mean(out, m, label, v, k)
    GAMES_MEAN("turns", res->games[i].turns);
    GAMES_MEAN("decisions", res->games[i].decisions);
    GAMES_MEAN("companies founded", res->games[i].founded);
    GAMES_MEAN("companies merged", res->games[i].merged);
#undef GAMES_MEAN
    namecount vals = {0};
    for (int i = 0; i < n; i++)
        if (!res->games[i].failed)
            nc_add(&vals, res->games[i].values_text);
    for (int c = 0; c < vals.n; c++) {
        snprintf(name, sizeof name, "on the chart: %s", vals.name[c]);
        m = cs_prop(out, m, name, vals.positive[c], vals.games[c]);
    }
    k = 0;
    for (int i = 0; i < n; i++)
        if (!res->games[i].failed)
            for (int st = 0; st < res->games[i].nplayers; st++)
                v[k++] = res->games[i].score[st];
    m = cs_mean(out, m, "final score", v, k);
    /* each seat's score: what a variant that treats seats alike or not
       (docs/variants.md, "cash 1 +f100") changes first */
    for (int st = 0; st < s->maxp; st++) {
        k = 0;
        for (int i = 0; i < n; i++)
            if (!res->games[i].failed && st < res->games[i].nplayers)
                v[k++] = res->games[i].score[st];
        snprintf(name, sizeof name, "final score: seat %d", st + 1);
        m = cs_mean(out, m, name, v, k);
    }
    k = 0;
    for (int i = 0; i < n; i++) {
        const arena_game *g = &res->games[i];
        if (g->failed)
            continue;
        int32_t best = INT32_MIN;
        for (int st = 0; st < g->nplayers; st++)
            if (g->score[st] > best)
                best = g->score[st];
        v[k++] = best;
    }
    m = cs_mean(out, m, "winning score", v, k);
    free(v);
    return m;
}

static const cstat *cs_find(const cstat *c, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(c[i].name, name))
            return &c[i];
    return NULL;
}

/* b - a with its interval at z standard errors: proportions by
 * Agresti-Caffo (one success and one failure added to each run, so that
 * 0% and 100% still have a spread), means by Welch's normal approximation. */
static void cs_diff(const cstat *a, const cstat *b, double z, double *d, double *lo, double *hi)
{
    double se;
    *d = b->mean - a->mean;
    if (a->kind == CS_PROP) {
        double pa = (a->k + 1.0) / (a->n + 2.0), pb = (b->k + 1.0) / (b->n + 2.0);
        se = sqrt(pa * (1 - pa) / (a->n + 2.0) + pb * (1 - pb) / (b->n + 2.0));
        *lo = pb - pa - z * se;
        *hi = pb - pa + z * se;
    } else {
        se = sqrt(a->sd * a->sd / (double)a->n + b->sd * b->sd / (double)b->n);
        *lo = *d - z * se;
        *hi = *d + z * se;
    }
}

static void cs_value(char *buf, size_t n, const cstat *c)
{
    if (!c)
        snprintf(buf, n, "-");
    else if (c->kind == CS_PROP)
        snprintf(buf, n, "%.1f%%", 100 * c->mean);
    else
        snprintf(buf, n, "%.1f", c->mean);
}

#define MAX_RUNS 8

/* analyze --in A --in B ...: each statistic side by side, and each run's
 * difference from the first with a 95% interval, Bonferroni-corrected for
 * the number of differences shown (issue 36, item 2). Plots overlay the
 * runs. */
static int compare_runs(int nruns, const char *const *paths, arena_results *res,
                        arena_stats *st, const char *plot_dir, int png)
{
    static cstat cs[MAX_RUNS][CS_MAX];
    int ncs[MAX_RUNS];
    for (int r = 0; r < nruns; r++)
        ncs[r] = collect(&res[r], &st[r], cs[r]);
    /* the comparisons: statistics of run 1 also found in run r */
    int m = 0;
    for (int r = 1; r < nruns; r++)
        for (int i = 0; i < ncs[0]; i++) {
            const cstat *b = cs_find(cs[r], ncs[r], cs[0][i].name);
            m += b && b->kind == cs[0][i].kind;
        }
    double z = z_two_sided(0.05 / (m > 0 ? m : 1));
    printf("chartered analyze: comparing %d runs\n", nruns);
    for (int r = 0; r < nruns; r++)
        printf("  %c: %d games from %s%s\n", 'A' + r, res[r].ngames, paths[r],
               st[r].ngames != res[r].ngames ? " (failed games left out)" : "");
    printf("differences from A with 95%% intervals, Bonferroni-corrected for %d comparisons\n"
           "(each interval at confidence 1 - 0.05/%d, z = %.2f; proportions: Agresti-Caffo,\n"
           "means: Welch). '*': the interval excludes 0.\n\n", m, m, z);
    printf("%-34s", "statistic");
    for (int r = 0; r < nruns; r++)
        printf(" %9c", 'A' + r);
    for (int r = 1; r < nruns; r++)
        printf("   %c-A (corrected 95%% interval)  ", 'A' + r);
    printf("\n");
    int excl = 0;
    static svg_item items[MAX_RUNS * CS_MAX];
    static char ilabel[MAX_RUNS * CS_MAX][ARENA_LABEL + 32];
    int ni = 0;
    for (int i = 0; i < ncs[0]; i++) {
        const cstat *a = &cs[0][i];
        printf("%-34.34s", a->name);
        for (int r = 0; r < nruns; r++) {
            char buf[32];
            cs_value(buf, sizeof buf, r ? cs_find(cs[r], ncs[r], a->name) : a);
            printf(" %9s", buf);
        }
        for (int r = 1; r < nruns; r++) {
            const cstat *b = cs_find(cs[r], ncs[r], a->name);
            if (!b || b->kind != a->kind) {
                printf("   %-32s", "-");
                continue;
            }
            double d, lo, hi;
            cs_diff(a, b, z, &d, &lo, &hi);
            int out = lo > 0 || hi < 0;
            excl += out;
            double f = a->kind == CS_PROP ? 100 : 1;
            const char *u = a->kind == CS_PROP ? "pp" : "";
            char buf[80];
            snprintf(buf, sizeof buf, "%+.1f%s (%+.1f..%+.1f)%s", f * d, u, f * lo, f * hi,
                     out ? " *" : "");
            printf("   %-32s", buf);
            if (a->kind == CS_PROP && ni < MAX_RUNS * CS_MAX) {
                snprintf(ilabel[ni], sizeof ilabel[ni], "%.180s (%c-A)", a->name, 'A' + r);
                /* in percentage points, as the text report gives them */
                items[ni] = (svg_item){ilabel[ni], 100 * d, 100 * lo, 100 * hi, 1};
                ni++;
            }
        }
        printf("\n");
    }
    printf("\ndifferences whose corrected interval excludes 0: %d of %d\n", excl, m);
    if (!plot_dir)
        return 0;
    if (mkdir(plot_dir, 0777) != 0 && errno != EEXIST) {
        cli_error("chartered analyze: cannot create '%s': %s", plot_dir, strerror(errno));
        return EXIT_FAIL;
    }
    char path[4096];
    const char *files[4];
    int nfiles = 0;
    snprintf(path, sizeof path, "%s/differences.svg", plot_dir);
    if (svg_intervals(path, "Differences in rates from run A (Bonferroni-corrected 95% intervals)",
                      "difference (percentage points)", items, ni, 0.0) != 0)
        return EXIT_FAIL;
    files[nfiles++] = "differences";
    /* scores and game length: one series per run, overlaid */
    double *sc[MAX_RUNS] = {0}, *len[MAX_RUNS] = {0};
    int nsc[MAX_RUNS] = {0}, nlen[MAX_RUNS] = {0}, bad = 0;
    char rn[MAX_RUNS][8];
    const char *names[MAX_RUNS];
    for (int r = 0; r < nruns; r++) {
        snprintf(rn[r], sizeof rn[r], "run %c", 'A' + r);
        names[r] = rn[r];
        sc[r] = malloc(sizeof *sc[r] * (size_t)(res[r].ngames * CH_MAX_PLAYERS + 1));
        len[r] = malloc(sizeof *len[r] * (size_t)(res[r].ngames + 1));
        if (!sc[r] || !len[r]) {
            bad = 1;
            continue;
        }
        for (int i = 0; i < res[r].ngames; i++) {
            const arena_game *g = &res[r].games[i];
            if (g->failed)
                continue;
            len[r][nlen[r]++] = g->turns;
            for (int s2 = 0; s2 < g->nplayers; s2++)
                sc[r][nsc[r]++] = g->score[s2];
        }
    }
    if (!bad) {
        snprintf(path, sizeof path, "%s/scores.svg", plot_dir);
        bad |= svg_boxes(path, "Final scores, by run", "score (florins)",
                         (const double *const *)sc, nsc, names, nruns) != 0;
        snprintf(path, sizeof path, "%s/length.svg", plot_dir);
        bad |= svg_histogram(path, "Game length, by run", "turns", (const double *const *)len,
                             nlen, names, nruns, 20) != 0;
    } else {
        cli_error("out of memory");
    }
    for (int r = 0; r < nruns; r++) {
        free(sc[r]);
        free(len[r]);
    }
    if (bad)
        return EXIT_FAIL;
    files[nfiles++] = "scores";
    files[nfiles++] = "length";
    return list_plots(plot_dir, files, nfiles, png);
}

/* Takes every --in/-i out of argv (analyze compares several runs; the
 * option parser keeps one value). Returns the new argc, or -1. */
static int take_ins(int argc, char **argv, const char **ins, int *nins)
{
    int out = 0;
    for (int i = 0; i < argc; i++) {
        char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            while (i < argc)
                argv[out++] = argv[i++];
            break;
        }
        const char *val = NULL;
        if (strcmp(a, "--in") == 0 || strcmp(a, "-i") == 0) {
            if (i + 1 >= argc) {
                cli_error("chartered analyze: %s expects a directory or CSV file after it", a);
                return -1;
            }
            val = argv[++i];
        } else if (strncmp(a, "--in=", 5) == 0) {
            val = a + 5;
        } else if (strncmp(a, "-i", 2) == 0 && a[2] != '\0') {
            val = a + 2;
        } else {
            argv[out++] = a;
            continue;
        }
        if (*nins >= MAX_RUNS) {
            cli_error("chartered analyze: at most %d --in runs", MAX_RUNS);
            return -1;
        }
        ins[(*nins)++] = val;
    }
    return out;
}

int cmd_analyze(int argc, char **argv)
{
    const char *bots[ARENA_MAX_BOTS];
    int nbots = 0;
    argc = arena_take_bots("analyze", argc, argv, bots, &nbots);
    if (argc < 0)
        return EXIT_USAGE;
    const char *ins[MAX_RUNS];
    int nins = 0;
    argc = take_ins(argc, argv, ins, &nins);
    if (argc < 0)
        return EXIT_USAGE;
    arena_flags f;
    arena_flags_default(&f, 100);
    const char *in = NULL, *plot_dir = NULL, *out = NULL;
    int png = 0, games_seen = 0;
    opt_spec specs[ARENA_NFLAGS + 5];
    arena_flag_specs(&f, specs);
    specs[0].seen = &games_seen;
    specs[0].help = "fresh games: number of games (default 100)";
    specs[ARENA_NFLAGS - 1] = (opt_spec){"in", 'i', OPT_STR, &in, "DIR", 0, 0,
                                         "read DIR/games.csv (or a CSV file) "
                                         "of an arena run", NULL};
    specs[ARENA_NFLAGS] = (opt_spec){"plots", 0, OPT_STR, &plot_dir, "DIR", 0,
                                     0, "write SVG charts into DIR", NULL};
    specs[ARENA_NFLAGS + 1] = (opt_spec){"png", 0, OPT_FLAG, &png, NULL, 0, 0,
                                         "also convert the charts to PNG "
                                         "(needs rsvg-convert, ImageMagick or "
                                         "inkscape)", NULL};
    specs[ARENA_NFLAGS + 2] = (opt_spec){"out", 'o', OPT_STR, &out, "DIR", 0, 0,
                                         "fresh games: also write "
                                         "DIR/games.csv and DIR/summary.json",
                                         NULL};
    memset(&specs[ARENA_NFLAGS + 3], 0, sizeof specs[0]);
    static const opt_cmd cmd = {"analyze",
                                "chartered analyze --in DIR [--plots DIR [--png]]\n"
                                "       chartered analyze --in A --in B [--in C ...] [--plots DIR [--png]]\n"
                                "       chartered analyze [--games N] [--bot SPEC ...] "
                                "[arena flags] [--plots DIR [--png]]",
                                "Statistics of many games: of an arena run (--in), or of "
                                "fresh games between\nbots (default: 100 games of random "
                                "bots): seat and first-player advantage,\ngame length, "
                                "companies founded and merged, final company values, moves "
                                "by\nkind, stock events, action cards, margins of victory, "
                                "and ratings.\nWith several --in runs: each statistic side by side, and each run's difference\nfrom the first with a Bonferroni-corrected 95% interval.\n-b SPEC, --bot SPEC: as for 'chartered arena'.",
                                0, NULL};
    char *pos[argc + 1];
    int npos, rc;
    if (!opts_start(&cmd, argc, argv, specs, pos, &npos, &rc))
        return rc;
    if (png && !plot_dir) {
        cli_error("chartered analyze: --png converts the plots: give --plots "
                  "DIR too");
        return EXIT_USAGE;
    }
    if (nins == 1)
        in = ins[0];
    arena_results res;
    arena_stats st;
    char source[4200];
    uint64_t seed = f.seed;
    if (nins > 1) {
        if (nbots || games_seen || out) {
            cli_error("chartered analyze: --in reads finished games; %s "
                      "applies to fresh games only",
                      nbots ? "--bot" : games_seen ? "--games" : "--out");
            return EXIT_USAGE;
        }
        static arena_results rs[MAX_RUNS];
        static arena_stats ss[MAX_RUNS];
        char paths[MAX_RUNS][4096];
        const char *pp[MAX_RUNS];
        int nread = 0;
        rc = 0;
        for (int r = 0; r < nins && !rc; r++) {
            struct stat sb;
            if (stat(ins[r], &sb) == 0 && S_ISDIR(sb.st_mode))
                snprintf(paths[r], sizeof paths[r], "%s/games.csv", ins[r]);
            else
                snprintf(paths[r], sizeof paths[r], "%s", ins[r]);
            pp[r] = paths[r];
            rc = arena_read_csv(paths[r], &rs[r]);
            if (rc)
                break;
            nread++;
            if (rs[r].ngames == 0) {
                cli_error("chartered analyze: '%s' holds no game", paths[r]);
                rc = EXIT_FAIL;
                break;
            }
            stats_compute(&rs[r], rs[r].games[0].seed, &ss[r]);
        }
        if (!rc)
            rc = compare_runs(nins, pp, rs, ss, plot_dir, png);
        for (int r = 0; r < nread; r++)
            arena_results_free(&rs[r]);
        return rc;
    }
    if (in) {
        if (nbots || games_seen || out) {
            cli_error("chartered analyze: --in reads finished games; %s "
                      "applies to fresh games only",
                      nbots ? "--bot" : games_seen ? "--games" : "--out");
            return EXIT_USAGE;
        }
        struct stat sb;
        char path[4096];
        if (stat(in, &sb) == 0 && S_ISDIR(sb.st_mode))
            snprintf(path, sizeof path, "%s/games.csv", in);
        else
            snprintf(path, sizeof path, "%s", in);
        rc = arena_read_csv(path, &res);
        if (rc)
            return rc;
        if (res.ngames == 0) {
            cli_error("chartered analyze: '%s' holds no game", path);
            arena_results_free(&res);
            return EXIT_FAIL;
        }
        snprintf(source, sizeof source, "from %s", path);
        seed = res.games[0].seed;
        stats_compute(&res, seed, &st);
    } else {
        arena_cfg cfg;
        rc = arena_configure("analyze", &f, bots, nbots, &cfg);
        if (rc)
            return rc;
        if (out && mkdir(out, 0777) != 0 && errno != EEXIST) {
            cli_error("chartered analyze: cannot create '%s': %s", out,
                      strerror(errno));
            cli_mix_free(&cfg.mix);
            return EXIT_FAIL;
        }
        rc = arena_run(&cfg, &res);
        if (rc) {
            cli_mix_free(&cfg.mix);
            return rc;
        }
        snprintf(source, sizeof source, "played now (seeds %" PRIu64 "..%"
                 PRIu64 ", %s%s%s, %d jobs, %.1f s)", cfg.seed,
                 cfg.seed + (uint64_t)(cfg.games - 1),
                 cli_mix_edition_text(&cfg.mix), cfg.mix.has_variant ? ", variant " : "",
                 cfg.mix.has_variant ? cfg.mix.variant.name : "", cfg.jobs, res.seconds);
        stats_compute(&res, seed, &st);
        if (out) {
            char path[4096];
            snprintf(path, sizeof path, "%s/games.csv", out);
            rc = arena_write_csv(path, &res);
            if (!rc) {
                snprintf(path, sizeof path, "%s/summary.json", out);
                json_t *run = arena_run_json(&cfg, &f);
                rc = stats_write_summary(path, &res, &st, run);
                json_decref(run);
            }
        }
        cli_mix_free(&cfg.mix);
        if (rc) {
            arena_results_free(&res);
            return rc;
        }
    }
    report(&res, &st, source);
    if (plot_dir)
        rc = plots(plot_dir, png, &res, &st);
    arena_results_free(&res);
    return rc;
}
