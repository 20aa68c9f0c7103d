/* chart.h - the report's charts, drawn on a struct pr_canvas so that the
 * HTML (SVG) and PDF (libharu) renderers show the same pictures.
 *
 * Inputs are plain C arrays and structs, never cJSON: the renderer extracts
 * the numbers from the summary and the chart only draws.  Every pointer in a
 * spec struct is borrowed for the duration of the call.  Chart functions
 * return nothing: a backend write error, or a failed allocation of scratch
 * memory (line charts), sets the sticky canvas->failed.  Strings are UTF-8 from
 * the trace: the canvas backend escapes them.  Output is deterministic: the
 * same spec draws the same primitives in the same order. */
#ifndef PROFREPORT_CHART_H
#define PROFREPORT_CHART_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/canvas.h"

/* How axis values and labels are formatted. */
enum pr_axis_unit {
    PR_UNIT_NONE = 0,      /* plain number: 1.5k, 12, 0.25 */
    PR_UNIT_US,            /* microseconds, shown as ns / µs / ms / s */
    PR_UNIT_BYTES,         /* bytes, shown as B / KiB / MiB / GiB / TiB */
    PR_UNIT_PCT,           /* 0..100, shown as 42% */
    PR_UNIT_TFLOPS,        /* 10^12 FLOP/s, shown as GFLOP/s or TFLOP/s */
    PR_UNIT_FLOP_PER_BYTE, /* arithmetic intensity */
    PR_UNIT_COUNT          /* integer count: 1,234 */
};

/* Area of the canvas a chart may use, in points (title, axes and legend
 * included). */
struct pr_chart_box {
    double x, y, w, h;
};

/* Stacked vertical bars: one bar per category (e.g. per step), one stack
 * segment per series (e.g. kernel, memcpy, ...).  values is row-major:
 * values[cat * n_series + series].  Negative values are drawn as 0. */
struct pr_chart_stacked {
    const char *title;             /* may be NULL */
    const char *const *categories; /* n_categories x labels */
    size_t n_categories;
    const char *const *series; /* n_series legend names */
    size_t n_series;
    const double *values;   /* n_categories * n_series */
    const uint32_t *colors; /* n_series, or NULL = palette */
    enum pr_axis_unit unit; /* y axis */
    const char *y_label;    /* may be NULL */
};

/* Donut: one slice per value, legend with value and share.  Slices of 0 are
 * skipped; the centre shows center_value / center_label when non-NULL. */
struct pr_chart_donut {
    const char *title;
    const char *const *labels;
    const double *values;
    size_t n;
    const uint32_t *colors; /* n, or NULL = palette */
    enum pr_axis_unit unit;
    const char *center_value; /* big text in the hole, or NULL */
    const char *center_label; /* small text under it, or NULL */
};

/* One line of a line chart.  x and y have n points each; x ascending. */
struct pr_chart_series {
    const char *name;
    const double *x;
    const double *y;
    size_t n;
    uint32_t color; /* 0xRRGGBB, or PR_COLOR_NONE = palette */
    int fill;       /* shade the area under the line; 2: fill it solid
                       (a stacked area: series given top band first) */
    int step;       /* draw as a step function (memory) */
    int dots;       /* a dot per point, no line: values of separate things
                       (ranks), where a line would invent a trend */
};

/* Line chart (memory curve, utilisation over time).  The y axis starts at
 * 0; y_max > 0 fixes the top (100 for percentages), 0 = from the data;
 * y_max < 0: both ends from the data, for small differences between large
 * values (step time per rank).  A y that is not finite is missing: the
 * line breaks there (a gap, never a drop to 0). */
struct pr_chart_lines {
    const char *title;
    const struct pr_chart_series *series;
    size_t n_series;
    enum pr_axis_unit x_unit, y_unit;
    const char *x_label, *y_label;
    double y_max;
    /* optional marker, e.g. the peak: drawn when mark_label != NULL */
    double mark_x, mark_y;
    const char *mark_label;
    /* optional categories (nights of a trend): x = 1..n_x_names, one tick
       per integer labelled x_names[x - 1], shortened to fit its slot */
    const char *const *x_names;
    size_t n_x_names;
};

/* A point of the roofline scatter. */
struct pr_chart_point {
    const char *label;  /* tooltip / annotation */
    double x;           /* arithmetic intensity, FLOP/byte */
    double y;           /* achieved TFLOP/s */
    double weight;      /* e.g. device time; sets the radius;
                           0 = default size */
    size_t color_index; /* palette index (e.g. bound class) */
};

/* A horizontal compute roof (e.g. "fp32" at 15.7 TFLOP/s). */
struct pr_chart_roof {
    const char *name;
    double tflops;
};

/* Log-log roofline: memory roof slope peak_gbps, one flat roof per entry,
 * ridge point marked for the highest roof; points with x or y <= 0 are
 * skipped.  The n_labels heaviest points get a non-colliding label. */
struct pr_chart_roofline {
    const char *title;
    const struct pr_chart_point *points;
    size_t n_points;
    const struct pr_chart_roof *roofs;
    size_t n_roofs;
    double peak_gbps; /* 0 = unknown: no memory roof */
    size_t n_labels;
    const char *const *legend; /* names for color_index 0..n_legend-1 */
    size_t n_legend;
};

/* Horizontal bars, one per row, largest first as given (top kernels).
 * Labels longer than the left margin are cut on a UTF-8 boundary with an
 * ellipsis; the full text goes to the tooltip. */
struct pr_chart_hbars {
    const char *title;
    const char *const *labels;
    const double *values;
    size_t n;
    const size_t *color_index; /* n palette indexes, or NULL = 0 */
    enum pr_axis_unit unit;
    const char *const *legend; /* names for color indexes, or NULL */
    size_t n_legend;
    /* labels[n .. n + n_others): the rest of the list the bars show the
       top of (a run's other kernels), only told apart from: a shortened
       label keeps what tells it from them too */
    size_t n_others;
};

/* One busy interval on a timeline lane. */
struct pr_chart_span {
    size_t lane;     /* index into lanes */
    double start_us; /* from the timeline origin */
    double dur_us;
    const char *label; /* tooltip, may be NULL */
    size_t color_index;
};

/* Per-stream (or per-thread) timeline: one lane per stream, spans drawn as
 * boxes; spans narrower than half a point are widened so they stay visible. */
struct pr_chart_timeline {
    const char *title;
    const char *const *lanes;
    size_t n_lanes;
    const struct pr_chart_span *spans;
    size_t n_spans;
    double t0_us, t1_us; /* visible window; t1 <= t0 = from data */
    const char *const *legend;
    size_t n_legend;
    const uint32_t *colors; /* by color_index, for spans and
                               legend; NULL = the palette */
};

void pr_chart_stacked_bars(struct pr_canvas *c, const struct pr_chart_box *b,
                           const struct pr_chart_stacked *s);
/* Colours of the eight step-breakdown categories (kernel, memcpy, memset,
 * communication, runtime, dataloader, cpu_exec, other), shared by every
 * report so a category looks the same in each chart. */
extern const uint32_t pr_chart_breakdown_colors[8];
/* Computation, overlap, communication, other (the distributed view). */
extern const uint32_t pr_chart_overlap_colors[4];

void pr_chart_donut(struct pr_canvas *c, const struct pr_chart_box *b,
                    const struct pr_chart_donut *s);
void pr_chart_line(struct pr_canvas *c, const struct pr_chart_box *b,
                   const struct pr_chart_lines *s);
void pr_chart_roofline(struct pr_canvas *c, const struct pr_chart_box *b,
                       const struct pr_chart_roofline *s);
void pr_chart_hbars(struct pr_canvas *c, const struct pr_chart_box *b,
                    const struct pr_chart_hbars *s);
void pr_chart_timeline(struct pr_canvas *c, const struct pr_chart_box *b,
                       const struct pr_chart_timeline *s);

/* ---- for charts drawn outside this module (a section's own: the rank
 * heat map, the link matrix), so that they read like the rest ---- */

/* Type sizes in points: tick and axis labels, legends, titles. */
#define PR_CHART_FONT_TICK 10.5
#define PR_CHART_FONT_LEGEND 11.5
#define PR_CHART_FONT_TITLE 13.0

/* Draw title t (may be NULL) at the top of b as every chart does; returns
 * the height it took (0 for none). */
double pr_chart_title(struct pr_canvas *c, const struct pr_chart_box *b,
                      const char *t);

/* The colour ramp of pr_canvas_ramp, low to high, at (x, y) with `text`
 * (what its ends mean) after it; PR_CHART_FONT_TICK + 2 high. */
void pr_chart_ramp_legend(struct pr_canvas *c, double x, double y,
                          const char *text);

/* "Nice" axis ticks covering [lo, hi] with at most max_n ticks (steps of 1,
 * 2, 2.5 or 5 x 10^k, first tick <= lo, last >= hi).  Writes up to cap
 * values to out and returns how many; 0 when cap or max_n < 2. */
size_t pr_chart_ticks(double lo, double hi, size_t max_n, double *out,
                      size_t cap);

/* Decade ticks 10^k covering [lo, hi] (lo > 0) for log axes; as above. */
size_t pr_chart_log_ticks(double lo, double hi, double *out, size_t cap);

/* Format v with its unit into buf (C locale, fixed precision, "-0" shown as
 * "0", NaN as "–"), e.g. 1530 µs -> "1.53 ms", 3.2e9 B -> "2.98 GiB".
 * Always NUL-terminates when n > 0; returns buf. */
char *pr_chart_format(double v, enum pr_axis_unit unit, char *buf, size_t n);

/* The same with `extra` more decimals (0 to PR_CHART_EXTRA_MAX) than the
 * three significant digits: for two compared values that would otherwise
 * read alike (figures.h's pr_fig_extra_digits).  Counts and whole bytes
 * take none. */
#define PR_CHART_EXTRA_MAX 3
char *pr_chart_format_x(double v, enum pr_axis_unit unit, int extra, char *buf,
                        size_t n);

#endif
