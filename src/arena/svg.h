/* svg.h: a small writer of SVG charts for `chartered analyze`: bar charts
 * with confidence intervals, horizontal interval ("forest") charts,
 * histograms of one or more series and distributions as box-and-strip rows. Plain SVG 1.1, no scripts, fonts from
 * the viewer's sans-serif.
 */
#ifndef CHARTERED_SVG_H
#define CHARTERED_SVG_H

typedef struct svg_item {
    const char *label;
    double value;
    double lo, hi;   /* interval, used when has_ci */
    int has_ci;
} svg_item;

/* Vertical bars with their intervals (more than eight: a row each, the
 * chart no wider than 760 px); ref (if not NaN) draws a dashed
 * horizontal line, e.g. the even share. percent: values are fractions,
 * written as percentages. 0, or -1 after a message. */
int svg_bars(const char *path, const char *title, const char *ylabel,
             const svg_item *items, int n, double ref, int percent);
/* One row per item: a point and its interval on a horizontal axis, with a
 * dashed line at ref (if not NaN). */
int svg_intervals(const char *path, const char *title, const char *xlabel,
                  const svg_item *items, int n, double ref);
/* Histograms of nseries series of values (series k has counts[k] values),
 * overlaid in colours, over bins equal bins of the whole range. */
int svg_histogram(const char *path, const char *title, const char *xlabel,
                  const double *const *series, const int *counts,
                  const char *const *names, int nseries, int bins);

/* Convert the SVG file svg to the PNG file png with the first external
 * converter that works (rsvg-convert, magick, convert, inkscape; *tool: the
 * one that worked before, or -1), as `chartered analyze --png` does; cmd
 * names the command in messages. 0, or EXIT_FAIL after a message
 * (cmd_analyze.c). */
int svg_to_png(const char *cmd, const char *svg, const char *png, int *tool);

/* One row per series: its values as dots (a strip), a box over the middle
 * half, whiskers to the 5th and 95th percentiles, the median and the mean,
 * so that identical series read as alike and a shifted one stands out
 * (issue 36 item 2: overlaid histograms of identical bots were a blur). */
int svg_boxes(const char *path, const char *title, const char *xlabel,
              const double *const *series, const int *counts,
              const char *const *names, int nseries);

#endif
