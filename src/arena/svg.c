/* svg.c: SVG charts for `chartered analyze` (see svg.h). Each chart is a
 * canvas a person can read on a screen (at most 900 px wide: many bars turn
 * into rows, issue 36 item 2): a title, a plot area with a light grid at
 * "nice" tick values (1, 2 or 5 times a power of ten) labelled with as many
 * decimals as the step needs, axis labels, and the marks, whose values are
 * rounded to what a reader can take in (0.0025 moves per game is "<0.01").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "svg.h"

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759",
                                      "#76b7b2", "#59a14f", "#edc948",
                                      "#b07aa1", "#ff9da7", "#9c755f",
                                      "#bab0ac"};
#define NPAL 10

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static FILE *open_svg(const char *path, int w, int h, const char *title)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("cannot write '%s': %s", path, strerror(errno));
        return NULL;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
               "height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text x=\"%d\" y=\"22\" text-anchor=\"middle\" "
               "font-size=\"15\" font-weight=\"bold\">",
            w, h, w, h, w / 2);
    esc(f, title);
    fputs("</text>\n", f);
    return f;
}

static int close_svg(FILE *f, const char *path)
{
    fputs("</svg>\n", f);
    if (fclose(f) != 0) {
        cli_error("cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Nice axis from lo to hi: *step, and the range widened to multiples. */
static void nice_axis(double *lo, double *hi, double *step, int ticks)
{
    if (!(*hi > *lo)) {
        double c = *lo;
        *lo = c - 1;
        *hi = c + 1;
    }
    double raw = (*hi - *lo) / ticks;
    double mag = pow(10, floor(log10(raw)));
    double r = raw / mag;
    *step = (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
    *lo = floor(*lo / *step + 1e-9) * *step;
    *hi = ceil(*hi / *step - 1e-9) * *step;
}

/* A value written on a mark, as SVG text: a percentage to one decimal;
 * else at most three significant digits and two decimals ("12.3", "1.25",
 * "0.4"), whole numbers from 100 up, and "<0.01" (escaped) for what would
 * round to nothing. */
static void num(char *buf, size_t n, double v, int percent)
{
    if (percent) {
        snprintf(buf, n, "%.1f%%", fabs(v) < 5e-4 ? 0.0 : v * 100);
        return;
    }
    double a = fabs(v);
    if (a < 1e-9)
        snprintf(buf, n, "0");
    else if (a < 0.005) /* written into SVG text as it is: escaped here */
        snprintf(buf, n, "%s0.01", v < 0 ? "&gt;-" : "&lt;");
    else if (a >= 100)
        snprintf(buf, n, "%.0f", v);
    else {
        snprintf(buf, n, "%.*f", a >= 10 ? 1 : 2, v);
        /* no trailing zeros: "2.50" is "2.5", "3.00" is "3" */
        char *dot = strchr(buf, '.');
        if (dot) {
            char *e = buf + strlen(buf);
            while (e > dot + 1 && e[-1] == '0')
                *--e = '\0';
            if (e == dot + 1)
                *dot = '\0';
        }
    }
}

/* A tick of an axis whose ticks are step apart: as many decimals as the
 * step has (0.05 -> "0.35", 20 -> "140"), never float noise. */
static void tick(char *buf, size_t n, double v, double step, int percent)
{
    if (percent) {
        v *= 100;
        step *= 100;
    }
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    if (dec > 6)
        dec = 6;
    snprintf(buf, n, "%.*f%s", dec, fabs(v) < step * 1e-6 ? 0.0 : v, percent ? "%" : "");
}

/* A label cut to at most max characters, in the middle when long, so that
 * both ends stay ("greedy:ties=...:seed=3"); UTF-8 sequences are kept whole. */
static void cut_label(char *out, size_t n, const char *label, size_t max)
{
    size_t len = strlen(label);
    if (len <= max || max < 8) {
        snprintf(out, n, "%.*s", (int)(len < max ? len : max), label);
        return;
    }
    size_t head = (max - 3) / 2, tail = max - 3 - head;
    while (head > 0 && ((unsigned char)label[head] & 0xC0) == 0x80)
        head--;
    size_t from = len - tail;
    while (from < len && ((unsigned char)label[from] & 0xC0) == 0x80)
        from++;
    snprintf(out, n, "%.*s...%s", (int)head, label, label + from);
}

static int bars_rows(const char *path, const char *title, const char *xlabel,
                     const svg_item *items, int n, double ref, int percent);

int svg_bars(const char *path, const char *title, const char *ylabel,
             const svg_item *items, int n, double ref, int percent)
{
    /* past eight bars a row each: a chart of 24 kinds of move stays 760 px
       wide instead of 2,300 */
    if (n > 8)
        return bars_rows(path, title, ylabel, items, n, ref, percent);
    int W = 160 + 90 * (n > 3 ? n : 3), H = 420;
    double L = 70, R = W - 20, T = 45, B = H - 80;
    double lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        double v = items[i].has_ci ? items[i].hi : items[i].value;
        if (v > hi)
            hi = v;
        if (items[i].value < lo)
            lo = items[i].value;
    }
    if (!isnan(ref) && ref > hi)
        hi = ref;
    if (hi <= lo)
        hi = lo + 1;
    double step;
    nice_axis(&lo, &hi, &step, 5);
    FILE *f = open_svg(path, W, H, title);
    if (!f)
        return -1;
#define Y(v) (B - ((v) - lo) / (hi - lo) * (B - T))
    for (int i = 0; lo + step * i <= hi + step / 2; i++) {
        double t = lo + step * i;
        char lab[32];
        tick(lab, sizeof lab, t, step, percent);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                   "text-anchor=\"end\">%s</text>\n",
                L, Y(t), R, Y(t), L - 6, Y(t) + 4, lab);
    }
    fprintf(f, "<text transform=\"translate(16,%.1f) rotate(-90)\" "
               "text-anchor=\"middle\">", (T + B) / 2);
    esc(f, ylabel);
    fputs("</text>\n", f);
    double slot = (R - L) / (n > 0 ? n : 1), bw = slot * 0.6;
    for (int i = 0; i < n; i++) {
        double x = L + slot * i + (slot - bw) / 2, v = items[i].value;
        double y0 = Y(0 > lo ? 0 : lo), y1 = Y(v);
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                   "height=\"%.1f\" fill=\"%s\"/>\n",
                x, y1 < y0 ? y1 : y0, bw, fabs(y0 - y1), palette[i % NPAL]);
        if (items[i].has_ci) {
            double cx = x + bw / 2;
            fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f "
                       "%.1fH%.1f\" stroke=\"black\" stroke-width=\"1.5\" "
                       "fill=\"none\"/>\n",
                    cx, Y(items[i].lo), Y(items[i].hi), cx - 8, Y(items[i].lo),
                    cx + 8, cx - 8, Y(items[i].hi), cx + 8);
        }
        char lab[32];
        num(lab, sizeof lab, v, percent);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                   "font-size=\"11\">%s</text>\n",
                x + bw / 2, B + 16, lab);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                x + bw / 2, B + 34);
        char shortl[64];
        cut_label(shortl, sizeof shortl, items[i].label, 14);
        esc(f, shortl);
        fputs("</text>\n", f);
    }
    if (!isnan(ref))
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n",
                L, Y(ref), R, Y(ref));
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"black\"/>\n", L, B, R, B);
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
               "font-size=\"11\" fill=\"#555\">bars: 95%% intervals%s</text>\n",
            (L + R) / 2, H - 12, isnan(ref) ? "" : "; dashed: even share");
#undef Y
    return close_svg(f, path);
}

int svg_intervals(const char *path, const char *title, const char *xlabel,
                  const svg_item *items, int n, double ref)
{
    int W = 760, H = 90 + 34 * (n > 1 ? n : 1);
    double L = 260, R = W - 30, T = 45, B = H - 45;
    double lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        double a = items[i].has_ci ? items[i].lo : items[i].value;
        double b = items[i].has_ci ? items[i].hi : items[i].value;
        if (a < lo)
            lo = a;
        if (b > hi)
            hi = b;
    }
    if (!isnan(ref)) {
        if (ref < lo)
            lo = ref;
        if (ref > hi)
            hi = ref;
    }
    double step;
    nice_axis(&lo, &hi, &step, 6);
    FILE *f = open_svg(path, W, H, title);
    if (!f)
        return -1;
#define X(v) (L + ((v) - lo) / (hi - lo) * (R - L))
    for (int k = 0; lo + step * k <= hi + step / 2; k++) {
        double t = lo + step * k;
        char lab[32];
        tick(lab, sizeof lab, t, step, 0);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                   "text-anchor=\"middle\">%s</text>\n",
                X(t), T, X(t), B, X(t), B + 16, lab);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
            (L + R) / 2, H - 8);
    esc(f, xlabel);
    fputs("</text>\n", f);
    if (!isnan(ref))
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n",
                X(ref), T, X(ref), B);
    double row = (B - T) / (n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        double y = T + row * (i + 0.5);
        char shortl[64];
        cut_label(shortl, sizeof shortl, items[i].label, 36);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
                L - 10, y + 4);
        esc(f, shortl);
        fputs("</text>\n", f);
        const char *col = palette[i % NPAL];
        if (items[i].has_ci)
            fprintf(f, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f "
                       "%.1fV%.1f\" stroke=\"%s\" stroke-width=\"2\" "
                       "fill=\"none\"/>\n",
                    X(items[i].lo), y, X(items[i].hi), X(items[i].lo), y - 6,
                    y + 6, X(items[i].hi), y - 6, y + 6, col);
        char lab[32];
        num(lab, sizeof lab, items[i].value, 0);
        if (items[i].value > 0) {
            memmove(lab + 1, lab, strlen(lab) + 1);
            lab[0] = '+';
        }
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>\n"
                   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                   "font-size=\"11\">%s</text>\n",
                X(items[i].value), y, col, X(items[i].value), y - 9, lab);
    }
#undef X
    return close_svg(f, path);
}

int svg_histogram(const char *path, const char *title, const char *xlabel,
                  const double *const *series, const int *counts,
                  const char *const *names, int nseries, int bins)
{
    int W = 760, H = 440;
    double L = 70, R = W - 30, T = 45, B = H - 90;
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < nseries; k++)
        for (int i = 0; i < counts[k]; i++) {
            if (series[k][i] < lo)
                lo = series[k][i];
            if (series[k][i] > hi)
                hi = series[k][i];
        }
    if (!isfinite(lo)) {
        lo = 0;
        hi = 1;
    }
    if (bins < 1)
        bins = 1;
    double xs;
    nice_axis(&lo, &hi, &xs, bins);
    bins = (int)round((hi - lo) / xs);
    if (bins < 1)
        bins = 1;
    int *h = calloc((size_t)bins * (size_t)(nseries > 0 ? nseries : 1),
                    sizeof *h);
    if (!h) {
        cli_error("out of memory");
        return -1;
    }
    int top = 1;
    for (int k = 0; k < nseries; k++)
        for (int i = 0; i < counts[k]; i++) {
            int b = (int)floor((series[k][i] - lo) / xs);
            if (b >= bins)
                b = bins - 1;
            if (b < 0)
                b = 0;
            if (++h[k * bins + b] > top)
                top = h[k * bins + b];
        }
    double ylo = 0, yhi = top, ys;
    nice_axis(&ylo, &yhi, &ys, 5);
    FILE *f = open_svg(path, W, H, title);
    if (!f) {
        free(h);
        return -1;
    }
#define X(v) (L + ((v) - lo) / (hi - lo) * (R - L))
#define Y(v) (B - ((v) - ylo) / (yhi - ylo) * (B - T))
    for (int k = 0; ylo + ys * k <= yhi + ys / 2; k++) {
        double t = ylo + ys * k;
        char lab[32];
        tick(lab, sizeof lab, t, ys, 0);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                   "text-anchor=\"end\">%s</text>\n",
                L, Y(t), R, Y(t), L - 6, Y(t) + 4, lab);
    }
    int lstep = bins > 12 ? (bins + 11) / 12 : 1;
    for (int b = 0; b <= bins; b += lstep) {
        char lab[32];
        tick(lab, sizeof lab, lo + xs * b, xs, 0);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s"
                   "</text>\n", X(lo + xs * b), B + 16, lab);
    }
    double bw = (R - L) / bins;
    double op = nseries > 1 ? 0.55 : 0.9;
    for (int k = 0; k < nseries; k++)
        for (int b = 0; b < bins; b++) {
            int c = h[k * bins + b];
            if (!c)
                continue;
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                       "height=\"%.1f\" fill=\"%s\" fill-opacity=\"%.2f\" "
                       "stroke=\"white\" stroke-width=\"0.5\"/>\n",
                    L + bw * b, Y(c), bw, B - Y(c), palette[k % NPAL], op);
        }
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"black\"/>\n", L, B, R, B);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
            (L + R) / 2, B + 36);
    esc(f, xlabel);
    fputs("</text>\n", f);
    fprintf(f, "<text transform=\"translate(16,%.1f) rotate(-90)\" "
               "text-anchor=\"middle\">count</text>\n", (T + B) / 2);
    double lx = L;
    for (int k = 0; k < nseries && names; k++) {
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" "
                   "fill=\"%s\" fill-opacity=\"%.2f\"/>\n<text x=\"%.1f\" "
                   "y=\"%.1f\">",
                lx, B + 52, palette[k % NPAL], op, lx + 16, B + 62);
        char shortl[64];
        cut_label(shortl, sizeof shortl, names[k], 28);
        esc(f, shortl);
        fputs("</text>\n", f);
        lx += 30 + 7.0 * (double)strlen(shortl);
        if (lx > R - 100) {
            lx = L;
            B += 18;
        }
    }
#undef X
#undef Y
    free(h);
    return close_svg(f, path);
}

/* svg_bars with many items: one row per item, the bar running right from
 * the axis, its value written after it; 760 px wide whatever the count. */
static int bars_rows(const char *path, const char *title, const char *xlabel,
                     const svg_item *items, int n, double ref, int percent)
{
    int W = 760, H = 100 + 24 * n;
    double L = 190, R = W - 70, T = 45, B = H - 55;
    double lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        double v = items[i].has_ci ? items[i].hi : items[i].value;
        if (v > hi)
            hi = v;
        if (items[i].value < lo)
            lo = items[i].value;
    }
    if (!isnan(ref) && ref > hi)
        hi = ref;
    if (hi <= lo)
        hi = lo + 1;
    double step;
    nice_axis(&lo, &hi, &step, 6);
    FILE *f = open_svg(path, W, H, title);
    if (!f)
        return -1;
#define X(v) (L + ((v) - lo) / (hi - lo) * (R - L))
    for (int k = 0; lo + step * k <= hi + step / 2; k++) {
        double t = lo + step * k;
        char lab[32];
        tick(lab, sizeof lab, t, step, percent);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                   "text-anchor=\"middle\">%s</text>\n",
                X(t), T, X(t), B, X(t), B + 16, lab);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", (L + R) / 2, H - 14);
    esc(f, xlabel);
    fputs("</text>\n", f);
    double row = (B - T) / (n > 0 ? n : 1), bh = row * 0.7;
    for (int i = 0; i < n; i++) {
        double y = T + row * i + (row - bh) / 2, v = items[i].value;
        double x0 = X(0 > lo ? 0 : lo), x1 = X(v);
        char shortl[64], lab[32];
        cut_label(shortl, sizeof shortl, items[i].label, 26);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", L - 8, y + bh / 2 + 4);
        esc(f, shortl);
        fputs("</text>\n", f);
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
                x1 < x0 ? x1 : x0, y, fabs(x1 - x0), bh, palette[i % NPAL]);
        double end = x1;
        if (items[i].has_ci) {
            double cy = y + bh / 2;
            fprintf(f, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
                       "stroke=\"black\" stroke-width=\"1.5\" fill=\"none\"/>\n",
                    X(items[i].lo), cy, X(items[i].hi), X(items[i].lo), cy - 5, cy + 5,
                    X(items[i].hi), cy - 5, cy + 5);
            if (X(items[i].hi) > end)
                end = X(items[i].hi);
        }
        num(lab, sizeof lab, v, percent);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%s</text>\n", end + 5,
                y + bh / 2 + 4, lab);
    }
    if (!isnan(ref))
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n",
                X(ref), T, X(ref), B);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
            X(0 > lo ? 0 : lo), T, X(0 > lo ? 0 : lo), B);
#undef X
    return close_svg(f, path);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile of sorted v[0..n) by linear interpolation. */
static double quantile(const double *v, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)floor(pos);
    if (i >= n - 1)
        return v[n - 1];
    return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

int svg_boxes(const char *path, const char *title, const char *xlabel,
              const double *const *series, const int *counts,
              const char *const *names, int nseries)
{
    int W = 760, H = 110 + 64 * (nseries > 1 ? nseries : 1);
    double L = 170, R = W - 30, T = 45, B = H - 60;
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < nseries; k++)
        for (int i = 0; i < counts[k]; i++) {
            if (series[k][i] < lo)
                lo = series[k][i];
            if (series[k][i] > hi)
                hi = series[k][i];
        }
    if (!isfinite(lo)) {
        lo = 0;
        hi = 1;
    }
    double step;
    nice_axis(&lo, &hi, &step, 6);
    FILE *f = open_svg(path, W, H, title);
    if (!f)
        return -1;
#define X(v) (L + ((v) - lo) / (hi - lo) * (R - L))
    for (int k = 0; lo + step * k <= hi + step / 2; k++) {
        double t = lo + step * k;
        char lab[32];
        tick(lab, sizeof lab, t, step, 0);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                   "text-anchor=\"middle\">%s</text>\n",
                X(t), T, X(t), B, X(t), B + 16, lab);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (L + R) / 2, B + 36);
    esc(f, xlabel);
    fputs("</text>\n", f);
    double row = (B - T) / (nseries > 0 ? nseries : 1);
    for (int k = 0; k < nseries; k++) {
        double y = T + row * (k + 0.5);
        const char *col = palette[k % NPAL];
        char shortl[64];
        cut_label(shortl, sizeof shortl, names[k], 22);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", L - 10, y + 4);
        esc(f, shortl);
        fputs("</text>\n", f);
        int n = counts[k];
        if (n <= 0)
            continue;
        double *v = malloc(sizeof *v * (size_t)n);
        if (!v) {
            fclose(f);
            cli_error("out of memory");
            return -1;
        }
        memcpy(v, series[k], sizeof *v * (size_t)n);
        qsort(v, (size_t)n, sizeof *v, cmp_double);
        /* the points, spread over the row's height by a fixed pattern (the
           same file for the same games), at most 2,000 of them */
        int stride = n > 2000 ? (n + 1999) / 2000 : 1;
        double half = row * 0.32;
        for (int i = 0; i < n; i += stride) {
            uint32_t h = (uint32_t)i * 2654435761u;
            double dy = ((double)(h >> 8) / 16777216.0 * 2 - 1) * half;
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.6\" fill=\"%s\" fill-opacity=\"0.35\"/>\n",
                    X(v[i]), y + dy, col);
        }
        /* box: quartiles; whiskers: the 5th and 95th percentiles; a line
           at the median, a diamond at the mean */
        double q1 = quantile(v, n, 0.25), med = quantile(v, n, 0.5), q3 = quantile(v, n, 0.75);
        double w0 = quantile(v, n, 0.05), w1 = quantile(v, n, 0.95), mean = 0;
        for (int i = 0; i < n; i++)
            mean += v[i];
        mean /= n;
        double bh = row * 0.36;
        fprintf(f, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
                   "stroke=\"black\" stroke-width=\"1.2\" fill=\"none\"/>\n",
                X(w0), y, X(q1), X(q3), y, X(w1), X(w0), y - bh / 3, y + bh / 3, X(w1),
                y - bh / 3, y + bh / 3);
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                   "fill-opacity=\"0.25\" stroke=\"black\" stroke-width=\"1.2\"/>\n",
                X(q1), y - bh / 2, X(q3) - X(q1), bh, col);
        fprintf(f, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"black\" stroke-width=\"2.5\"/>\n", X(med),
                y - bh / 2, y + bh / 2);
        fprintf(f, "<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"white\" stroke=\"black\"/>\n",
                X(mean), y - 5);
        char lab[32], lab2[32];
        num(lab, sizeof lab, med, 0);
        num(lab2, sizeof lab2, mean, 0);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">median %s, "
                   "mean %s, %d scores</text>\n",
                X(med), y - bh / 2 - 5, lab, lab2, n);
        free(v);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">"
               "box: middle half; whiskers: 5th to 95th percentile; bar: median; diamond: mean; "
               "dots: each score</text>\n",
            (L + R) / 2, H - 10);
#undef X
    return close_svg(f, path);
}
