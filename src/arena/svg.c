/* svg.c: SVG charts for `chartered analyze` (see svg.h). Each chart is a
 * fixed-size canvas: a title, a plot area with a light grid at "nice" tick
 * values (1, 2 or 5 times a power of ten), axis labels, and the marks.
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

static void num(char *buf, size_t n, double v, int percent)
{
    if (percent)
        snprintf(buf, n, "%g%%", round(v * 1000) / 10);
    else
        snprintf(buf, n, "%g", fabs(v) < 1e-9 ? 0 : v);
}

int svg_bars(const char *path, const char *title, const char *ylabel,
             const svg_item *items, int n, double ref, int percent)
{
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
    for (double t = lo; t <= hi + step / 2; t += step) {
        char lab[32];
        num(lab, sizeof lab, t, percent);
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
        char shortl[40];
        snprintf(shortl, sizeof shortl, "%.24s%s", items[i].label,
                 strlen(items[i].label) > 24 ? "..." : "");
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
    for (double t = lo; t <= hi + step / 2; t += step) {
        char lab[32];
        num(lab, sizeof lab, t, 0);
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
        char shortl[48];
        snprintf(shortl, sizeof shortl, "%.36s%s", items[i].label,
                 strlen(items[i].label) > 36 ? "..." : "");
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
        snprintf(lab, sizeof lab, "%+.0f", items[i].value);
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
    for (double t = ylo; t <= yhi + ys / 2; t += ys)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                   "text-anchor=\"end\">%g</text>\n",
                L, Y(t), R, Y(t), L - 6, Y(t) + 4, t);
    int lstep = bins > 12 ? (bins + 11) / 12 : 1;
    for (int b = 0; b <= bins; b += lstep) {
        char lab[32];
        num(lab, sizeof lab, lo + xs * b, 0);
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
        char shortl[40];
        snprintf(shortl, sizeof shortl, "%.28s%s", names[k],
                 strlen(names[k]) > 28 ? "..." : "");
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
