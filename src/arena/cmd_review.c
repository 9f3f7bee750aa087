/* cmd_review.c: `chartered review GAME.json`, the review of one game
 * (docs/cli.md "review"): every decision replayed and analysed with
 * ch_review_decision (src/ai/review.c) from the deciding player's view
 * only, then a table of each player's chance of winning after each move,
 * the moments that mattered (the decisions where the mover's chance fell
 * most below that of the bot's best move, with that move and its worth in
 * words, src/text/review.c), and the graph as SVG and PNG (the PNG through
 * the converters of `chartered analyze --png`). Unlike `chartered analyze`,
 * which compares many games, this reads one. Every file goes through
 * cli_write_file_atomic / cli_write_bytes_atomic (devices, FIFOs and
 * symbolic links written in place as by every other command).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "svg.h"

/* The seats' colours of the browser client (web/js/colors.js SEAT_COLORS),
 * so that a player's line has the colour of their seat on the board. */
static const char *const seat_colors[CH_MAX_PLAYERS] = {"#d32f2f", "#1976d2", "#388e3c",
                                                        "#f57c00", "#7b1fa2", "#0097a7"};

typedef struct row {
    int player;
    ch_move played;
    ch_state before;     /* for the words of the moves                       */
    ch_review rv;
    double budget;       /* CPU seconds given (a CPU budget), else 0          */
    int moment;          /* 1-based rank among the moments, 0: not one         */
} row;

/* The share of a CPU budget a decision gets (cmd_review): its playouts'
 * length, about the supply left, plus the fixed cost of a sample. */
static double review_weight(const ch_state *st)
{
    double total = st->warehouses_total > 0 ? st->warehouses_total : 1;
    return (double)st->supply / total + 0.1;
}

static double gain_of(const row *r) { return r->rv.best_win[r->player] - r->rv.played_win[r->player]; }

/* XML text: the five special characters escaped. */
static void xml_text(chx_buf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': chx_buf_puts(b, "&lt;"); break;
        case '>': chx_buf_puts(b, "&gt;"); break;
        case '&': chx_buf_puts(b, "&amp;"); break;
        case '"': chx_buf_puts(b, "&quot;"); break;
        case '\'': chx_buf_puts(b, "&apos;"); break;
        default: chx_buf_add(b, s, 1);
        }
    }
}

static void bprintf(chx_buf *b, const char *fmt, ...) CLI_PRINTF(2, 3);
static void bprintf(chx_buf *b, const char *fmt, ...)
{
    char t[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    chx_buf_puts(b, t);
}

/* The graph: one line per player (each decision's chance after the move
 * played), the moments marked on the mover's line and numbered as in the
 * table. */
static char *graph_svg(const row *rows, int n, int np, char names[][64], const char *title)
{
    chx_buf b = {0};
    const double W = 900, H = 380, L = 56, R = 150, T = 40, B = 46;
    const double pw = W - L - R, ph = H - T - B;
    int xmax = n > 1 ? n - 1 : 1;
    bprintf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
            W, H, W, H);
    bprintf(&b, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", W, H);
    chx_buf_puts(&b, "<text x=\"56\" y=\"24\" font-size=\"15\" font-weight=\"bold\">");
    xml_text(&b, title);
    chx_buf_puts(&b, "</text>\n");
    for (int k = 0; k <= 4; k++) { /* grid at 0, 25, 50, 75, 100% */
        double y = T + ph - ph * k / 4.0;
        bprintf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
                L, y, L + pw, y);
        bprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>\n", L - 6, y + 4,
                25 * k);
    }
    int step = n > 200 ? 50 : n > 80 ? 20 : n > 30 ? 10 : 5;
    for (int i = 0; i < n; i += step) {
        double x = L + pw * i / xmax;
        bprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", x,
                T + ph + 16, i + 1);
    }
    bprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">decision</text>\n",
            L + pw / 2, H - 8);
    bprintf(&b, "<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">"
                "chance of winning</text>\n", T + ph / 2, T + ph / 2);
    for (int q = 0; q < np; q++) {
        bprintf(&b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" points=\"",
                seat_colors[q]);
        for (int i = 0; i < n; i++)
            bprintf(&b, "%s%.1f,%.1f", i ? " " : "", L + pw * i / xmax,
                    T + ph - ph * rows[i].rv.played_win[q]);
        chx_buf_puts(&b, "\"/>\n");
        double ly = T + 14 + 20 * q;
        bprintf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                    "stroke-width=\"3\"/>\n", L + pw + 14, ly - 4, L + pw + 34, ly - 4, seat_colors[q]);
        bprintf(&b, "<text x=\"%.1f\" y=\"%.1f\">", L + pw + 40, ly);
        xml_text(&b, names[q]);
        chx_buf_puts(&b, "</text>\n");
    }
    for (int i = 0; i < n; i++) {
        if (!rows[i].moment)
            continue;
        double x = L + pw * i / xmax, y = T + ph - ph * rows[i].rv.played_win[rows[i].player];
        bprintf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888888\" "
                    "stroke-dasharray=\"3,3\"/>\n", x, T, x, T + ph);
        bprintf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#ffffff\" stroke=\"%s\" "
                    "stroke-width=\"2.5\"><title>decision %d</title></circle>\n",
                x, y, seat_colors[rows[i].player], i + 1);
        bprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">%d</text>\n",
                x, T - 4, rows[i].moment);
    }
    chx_buf_puts(&b, "</svg>\n");
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* The PNG of the SVG text: converted in a private temporary directory, then
 * written to path like every other file. 0, or EXIT_FAIL after a message. */
static int write_png(const char *svg, const char *path)
{
    char dir[] = "/tmp/chartered-review-XXXXXX";
    if (!mkdtemp(dir)) {
        cli_error("chartered review: --png: cannot make a temporary directory: %s", strerror(errno));
        return EXIT_FAIL;
    }
    char sp[64], pp[64];
    snprintf(sp, sizeof sp, "%s/graph.svg", dir);
    snprintf(pp, sizeof pp, "%s/graph.png", dir);
    int rc = EXIT_FAIL, tool = -1;
    FILE *f = fopen(sp, "w");
    if (!f || fputs(svg, f) < 0 || fclose(f) != 0) {
        cli_error("chartered review: --png: cannot write '%s': %s", sp, strerror(errno));
        if (f)
            fclose(f);
    } else if (svg_to_png("chartered review", sp, pp, &tool) == 0) {
        FILE *in = fopen(pp, "rb");
        char *data = NULL;
        long len = -1;
        if (in && fseek(in, 0, SEEK_END) == 0 && (len = ftell(in)) > 0 && fseek(in, 0, SEEK_SET) == 0 &&
            (data = malloc((size_t)len)) && fread(data, 1, (size_t)len, in) == (size_t)len)
            rc = cli_write_bytes_atomic(path, data, (size_t)len) == 0 ? 0 : EXIT_FAIL;
        else
            cli_error("chartered review: --png: cannot read the converted '%s'", pp);
        free(data);
        if (in)
            fclose(in);
    }
    unlink(sp);
    unlink(pp);
    rmdir(dir);
    return rc;
}

/* The review as JSON: {"decisions": [{"player", "move", "chances", "best",
 * "best_chances", "gain", "moment", "playouts", "cpu", "cpu_budget",
 * "advice"}, ...]}, players from 1, chances from 0 to 1, moves in the
 * engine's notation (advice in lang); cpu_budget only with a CPU budget. */
static int write_json(const char *path, const row *rows, int n, int np, int lang)
{
    chx_buf b = {0};
    chx_buf_puts(&b, "{\"decisions\": [\n");
    for (int i = 0; i < n; i++) {
        const row *rw = &rows[i];
        char m[160], bm[160], adv[512];
        ch_move_str(&rw->before, rw->played, m, sizeof m);
        ch_move_str(&rw->before, rw->rv.best, bm, sizeof bm);
        bprintf(&b, "  {\"player\": %d, \"move\": ", rw->player + 1);
        chx_buf_json_str(&b, m);
        chx_buf_puts(&b, ", \"chances\": [");
        for (int q = 0; q < np; q++)
            bprintf(&b, "%s%.4f", q ? ", " : "", rw->rv.played_win[q]);
        chx_buf_puts(&b, "], \"best\": ");
        chx_buf_json_str(&b, bm);
        chx_buf_puts(&b, ", \"best_chances\": [");
        for (int q = 0; q < np; q++)
            bprintf(&b, "%s%.4f", q ? ", " : "", rw->rv.best_win[q]);
        bprintf(&b, "], \"gain\": %.4f, \"moment\": %d, \"playouts\": %ld, \"cpu\": %.4f", gain_of(rw),
                rw->moment, rw->rv.playouts, rw->rv.cpu);
        if (rw->budget > 0)
            bprintf(&b, ", \"cpu_budget\": %.6f", rw->budget);
        if (rw->moment) {
            chx_review_advice(lang, &rw->before, rw->rv.best, rw->played, gain_of(rw), adv, sizeof adv);
            chx_buf_puts(&b, ", \"advice\": ");
            chx_buf_json_str(&b, adv);
        }
        chx_buf_puts(&b, i + 1 < n ? "},\n" : "}\n");
    }
    chx_buf_puts(&b, "]}\n");
    int rc = b.oom ? (cli_error("out of memory"), -1) : cli_write_file_atomic(path, b.s);
    free(b.s);
    return rc;
}

/* The seats' names from the game file (setup.play.seats[].name, as
 * `chartered play` saves them), else "Player N". */
static void seat_names(json_t *setup, int np, int lang, char names[][64])
{
    json_t *seats = json_object_get(json_object_get(setup, "play"), "seats");
    for (int q = 0; q < np; q++) {
        const char *nm = json_string_value(json_object_get(json_array_get(seats, (size_t)q), "name"));
        if (nm && *nm) {
            snprintf(names[q], 64, "%s", nm);
        } else {
            char num[16];
            snprintf(num, sizeof num, "%d", q + 1);
            chx_format(lang, names[q], 64, "player.n", "n", num, NULL);
        }
    }
}

int cmd_review(int argc, char **argv)
{
    long iterations = 0;
    double cpu = 0.2, min_gain = 3;
    uint64_t seed = 1;
    int width = 6, top = 5, quiet = 0, seen_iter = 0, seen_cpu = 0;
    const char *svg_path = NULL, *png_path = NULL, *lang_s = NULL, *json_path = NULL;
    const opt_spec specs[] = {
        {"iterations", 'i', OPT_INT, &iterations, "N", 1, 100000000,
         "playouts per decision (reproducible from the seed alone)", &seen_iter},
        {"cpu", 0, OPT_DOUBLE, &cpu, "S", 0, 0,
         "mean seconds of CPU time a decision (default 0.2; early ones get more) instead of --iterations", &seen_cpu},
        {"seed", 's', OPT_U64, &seed, "S", 0, 0, "seed of the analysis (default 1)", NULL},
        {"width", 'w', OPT_INT, &width, "N", 1, 16,
         "the bot's best moves compared with each move played (default 6)", NULL},
        {"top", 't', OPT_INT, &top, "K", 0, 100, "moments that mattered marked (default 5)", NULL},
        {"min-gain", 0, OPT_DOUBLE, &min_gain, "PCT",
         0, 0, "a moment gains at least PCT points with the bot's move (default 3)", NULL},
        {"svg", 0, OPT_STR, &svg_path, "FILE", 0, 0, "write the graph as SVG", NULL},
        {"png", 0, OPT_STR, &png_path, "FILE",
         0, 0, "write the graph as PNG (needs rsvg-convert, ImageMagick or inkscape)", NULL},
        {"json", 0, OPT_STR, &json_path, "FILE",
         0, 0, "write every decision's chances, best move and moment as JSON", NULL},
        {"lang", 0, OPT_STR, &lang_s, "LANG", 0, 0,
         "en, nl or ja for the moves and advice (default: from the locale)", NULL},
        {"quiet", 'q', OPT_FLAG, &quiet, NULL, 0, 0, "no progress on standard error", NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL}};
    const opt_cmd c = {"review",
                       "chartered review GAME.json [--cpu S | --iterations N] [--seed S] [--svg FILE] "
                       "[--png FILE]",
                       "Review one game: for every decision, each player's chance of winning after\n"
                       "the move played, as the deciding player could know it (the hidden cards\n"
                       "re-dealt from that player's view and the game played out, many times), the\n"
                       "moments that mattered (where the mover's chance fell most below the bot's\n"
                       "best move, with that move and what it was worth) and the graph as SVG/PNG.\n"
                       "'chartered analyze' compares many games; this reads one.",
                       1, "one game FILE is expected"};
    char *pos[argc + 1];
    int npos, rc = 0;
    if (!opts_start(&c, argc, argv, specs, pos, &npos, &rc))
        return rc;
    if (npos < 1) {
        cli_error("chartered review: missing the game FILE (see 'chartered review --help')");
        return EXIT_USAGE;
    }
    if (seen_iter && seen_cpu) {
        cli_error("chartered review: give --iterations or --cpu, not both");
        return EXIT_USAGE;
    }
    if (!(min_gain >= 0) || min_gain > 100) {
        cli_error("chartered review: --min-gain is percentage points from 0 to 100");
        return EXIT_USAGE;
    }
    int lang = chx_lang_from_env();
    if (lang_s && (lang = chx_lang_find(lang_s)) < 0) {
        cli_error("chartered review: --lang must be en, nl or ja, not '%s'", lang_s);
        return EXIT_USAGE;
    }
    const char *file = pos[0];
    game_file g;
    if (gf_load(file, &g, 0))
        return EXIT_FAIL;
    ch_board *board = calloc(1, sizeof *board);
    ch_state *st = calloc(1, sizeof *st);
    size_t nmoves = json_array_size(g.moves);
    row *rows = calloc(nmoves ? nmoves : 1, sizeof *rows);
    char *svg = NULL;
    rc = EXIT_FAIL;
    if (!board || !st || !rows) {
        cli_error("out of memory");
        goto done;
    }
    ch_msg why = {{0}};
    int r;
    json_t *start = json_object_get(g.setup, "position");
    if (json_is_string(start)) {
        r = ch_position_read(st, json_string_value(start), strlen(json_string_value(start)),
                             "setup.position", &why);
    } else {
        if (gf_board_from_setup(file, g.setup, g.set.edition, board))
            goto done;
        r = ch_new(st, &g.set, board, &why);
    }
    if (r != CH_OK) {
        cli_error("%s: the setup does not start a game: %s", file, why.text[0] ? why.text : ch_strerror(r));
        goto done;
    }
    /* every move read and made first: a damaged file is refused before any
     * time is spent */
    size_t i;
    json_t *mv;
    json_array_foreach(g.moves, i, mv) {
        json_t *pj = json_object_get(mv, "player");
        const char *text = json_string_value(json_object_get(mv, "move"));
        int p = json_is_integer(pj) ? (int)json_integer_value(pj) - 1 : -1;
        if (p < 0 || p >= st->nplayers || !text) {
            cli_error("%s: move %zu needs a player from 1 to %d and a move text", file, i + 1,
                      st->nplayers);
            goto done;
        }
        rows[i].before = *st;
        rows[i].player = p;
        r = ch_move_parse(st, p, text, &rows[i].played, &why);
        if (r == CH_OK)
            r = ch_apply(st, p, rows[i].played, &why);
        if (r != CH_OK) {
            cli_error("%s: move %zu '%s' (player %d): %s", file, i + 1, text, p + 1,
                      why.text[0] ? why.text : ch_strerror(r));
            goto done;
        }
    }
    if (nmoves == 0) {
        cli_error("%s: the game has no moves to review", file);
        goto done;
    }
    int np = st->nplayers;
    if (!st->over)
        cli_warn("%s: the game is not over; the %zu moves made so far are reviewed", file, nmoves);
    ch_review_opts o;
    ch_review_opts_default(&o);
    o.iterations = seen_iter ? iterations : 0;
    o.cpu = cpu;
    o.width = width;
    int tty = !quiet && isatty(2);
    double cpu_total = 0;
    long playouts = 0;
    /* A CPU budget is the mean per decision, spread by how long a sample
     * takes: a playout plays out the rest of the game, some 220 fast
     * decisions early in a game and 50 late (docs/performance.md), nearly in
     * proportion to the warehouses left in the supply. An even budget gives
     * the early decisions four times fewer samples than the late ones, and
     * the noisiest chances of the game (docs/bots.md "Review"). Decision i
     * gets cpu * n * w_i / sum(w), w_i = supply left / total + 0.1 (the 0.1
     * for what a sample costs besides its playout), so the game's total stays
     * cpu * n. The supply is public: the budget reads nothing hidden. */
    double wsum = 0;
    for (i = 0; i < nmoves; i++)
        wsum += review_weight(&rows[i].before);
    for (i = 0; i < nmoves; i++) {
        /* a seed of its own for each decision: reviewing one decision alone
         * gives the same as within the whole game */
        o.seed = seed * 0x9E3779B97F4A7C15ull + (uint64_t)i;
        if (!seen_iter)
            o.cpu = rows[i].budget = cpu * (double)nmoves * review_weight(&rows[i].before) / wsum;
        r = ch_review_decision(&rows[i].before, rows[i].player, rows[i].played, &o, &rows[i].rv, &why);
        if (r != CH_OK) {
            cli_error("%s: decision %zu: %s", file, i + 1, why.text[0] ? why.text : ch_strerror(r));
            goto done;
        }
        cpu_total += rows[i].rv.cpu;
        playouts += rows[i].rv.playouts;
        if (tty && (i % 8 == 7 || i + 1 == nmoves))
            fprintf(stderr, "\rreviewing: %zu of %zu decisions", i + 1, nmoves);
    }
    if (tty)
        fprintf(stderr, "\n");
    /* the moments: the largest gains of the bot's move, at least min_gain */
    for (int k = 1; k <= top; k++) {
        int bi = -1;
        for (i = 0; i < nmoves; i++)
            if (!rows[i].moment && gain_of(&rows[i]) * 100 >= min_gain && gain_of(&rows[i]) > 0 &&
                (bi < 0 || gain_of(&rows[i]) > gain_of(&rows[bi])))
                bi = (int)i;
        if (bi < 0)
            break;
        rows[bi].moment = k;
    }
    char names[CH_MAX_PLAYERS][64];
    seat_names(g.setup, np, lang, names);

    /* the table */
    printf("%s: %zu decisions, %s, %d players; each player's chance of winning after the move,\n"
           "as the player who made it could know it\n\n",
           file, nmoves, cli_edition_name(g.set.edition), np);
    printf("%5s  %-4s %-30s", "#", "who", "move");
    for (int q = 0; q < np; q++) {
        char h[16];
        snprintf(h, sizeof h, "P%d", q + 1);
        printf(" %5s", h);
    }
    printf("  best (gain)\n");
    for (i = 0; i < nmoves; i++) {
        const row *rw = &rows[i];
        char mtxt[160];
        if (chx_move_text(lang, &rw->before, rw->played, mtxt, sizeof mtxt) <= 0)
            snprintf(mtxt, sizeof mtxt, "?");
        size_t cut = chx_cut(mtxt, 30);
        mtxt[cut] = 0;
        printf("%5zu  P%-3d %s%*s", i + 1, rw->player + 1, mtxt, (int)(30 - chx_width(mtxt)), "");
        for (int q = 0; q < np; q++)
            printf(" %4.0f%%", 100 * rw->rv.played_win[q]);
        double gn = gain_of(rw);
        if (rw->moment || gn * 100 >= 0.5) {
            char btxt[160];
            if (chx_move_text(lang, &rw->before, rw->rv.best, btxt, sizeof btxt) <= 0)
                snprintf(btxt, sizeof btxt, "?");
            printf("  %s (%+.0f)", btxt, 100 * gn);
        }
        if (rw->moment)
            printf("  <- %d", rw->moment);
        printf("\n");
    }
    printf("\n%s:\n", chx_msg(lang, "review.moments"));
    int any = 0;
    for (int k = 1; k <= top; k++)
        for (i = 0; i < nmoves; i++)
            if (rows[i].moment == k) {
                char adv[512];
                chx_review_advice(lang, &rows[i].before, rows[i].rv.best, rows[i].played, gain_of(&rows[i]),
                                  adv, sizeof adv);
                char num[24], from[24], to[24], head[256];
                snprintf(num, sizeof num, "%zu", i + 1);
                snprintf(from, sizeof from, "%.0f%%", 100 * rows[i].rv.played_win[rows[i].player]);
                snprintf(to, sizeof to, "%.0f%%", 100 * rows[i].rv.best_win[rows[i].player]);
                chx_format(lang, head, sizeof head, "review.moment", "n", num, "player",
                           names[rows[i].player], "from", from, "to", to, NULL);
                printf("  %d. %s: %s\n", k, head, adv);
                any = 1;
            }
    if (!any)
        printf("  (none: no move played was %.0f points or more below the bot's best)\n", min_gain);
    char budget[64];
    if (seen_iter)
        snprintf(budget, sizeof budget, "%ld playouts", iterations);
    else
        snprintf(budget, sizeof budget, "%.3g s of CPU on average", cpu);
    printf("\nreviewed with %s per decision, width %d, seed %" PRIu64 ": %ld playouts, %.1f s of CPU\n",
           budget, width, seed, playouts, cpu_total);
    if (json_path && write_json(json_path, rows, (int)nmoves, np, lang) != 0)
        goto done;
    if (svg_path || png_path) {
        char title[256];
        const char *base = strrchr(file, '/');
        snprintf(title, sizeof title, "Chances of winning: %s", base ? base + 1 : file);
        svg = graph_svg(rows, (int)nmoves, np, names, title);
        if (!svg) {
            cli_error("out of memory");
            goto done;
        }
        if (svg_path && cli_write_file_atomic(svg_path, svg) != 0)
            goto done;
        if (png_path && write_png(svg, png_path) != 0)
            goto done;
    }
    rc = 0;
done:
    free(svg);
    free(rows);
    free(board);
    free(st);
    gf_free(&g);
    return rc;
}
