/* canvas.h - the small drawing interface that every chart draws on.  Two
 * backends implement it: SVG text (svg.c, for HTML) and a libharu page
 * (pdf.c).  Coordinates are points with the origin at the top left and y
 * growing downwards (SVG convention); the PDF backend flips them.
 *
 * Strings passed to text() are UTF-8 from the trace: each backend escapes or
 * maps them itself (never the caller). */
#ifndef PROFREPORT_CANVAS_H
#define PROFREPORT_CANVAS_H

#include <stddef.h>
#include <stdint.h>

#define PR_COLOR_NONE 0xFFFFFFFFu /* no fill / no stroke */

/* Theme roles.  The top byte marks a role and the low 24 bits hold its
 * light-theme RGB, so a backend without themes (PDF) may mask with 0xFFFFFF
 * or call pr_canvas_rgb().  The SVG backend maps roles to CSS variables so
 * that charts follow the page's light / dark scheme. */
#define PR_COLOR_INK 0x01222222u   /* text, axis lines */
#define PR_COLOR_MUTED 0x026B7280u /* tick labels, secondary text */
#define PR_COLOR_GRID 0x03E5E7EBu  /* grid lines */
#define PR_COLOR_BG 0x04FFFFFFu    /* background: gaps, slice separators */

enum pr_anchor { PR_ANCHOR_START = 0, PR_ANCHOR_MIDDLE, PR_ANCHOR_END };

struct pr_style {
    uint32_t fill;       /* 0xRRGGBB or PR_COLOR_NONE */
    uint32_t stroke;     /* 0xRRGGBB or PR_COLOR_NONE */
    double stroke_width; /* points */
    double opacity;      /* 0..1 for the fill; 0 means 1 */
    int dashed;
};

struct pr_text_style {
    double size; /* font size in points */
    uint32_t color;
    enum pr_anchor anchor;
    int bold;
    double rotate_deg; /* rotation around (x, y), counter-clockwise */
};

struct pr_canvas;

struct pr_canvas_ops {
    void (*rect)(struct pr_canvas *c, double x, double y, double w, double h,
                 const struct pr_style *s);
    void (*line)(struct pr_canvas *c, double x1, double y1, double x2,
                 double y2, const struct pr_style *s);
    /* open polyline (closed = 0) or polygon (closed = 1) */
    void (*poly)(struct pr_canvas *c, const double *xy, size_t n_points,
                 int closed, const struct pr_style *s);
    void (*circle)(struct pr_canvas *c, double cx, double cy, double r,
                   const struct pr_style *s);
    /* annular sector (donut slice); angles in radians, 0 = 12 o'clock,
       clockwise; r_inner may be 0 for a pie slice */
    void (*wedge)(struct pr_canvas *c, double cx, double cy, double r_outer,
                  double r_inner, double a0, double a1,
                  const struct pr_style *s);
    void (*text)(struct pr_canvas *c, double x, double y, const char *utf8,
                 const struct pr_text_style *t);
    /* width in points of utf8 at `size` (bold or not) */
    double (*text_width)(struct pr_canvas *c, const char *utf8, double size,
                         int bold);
    /* optional grouping with a tooltip (SVG <title>); may be NULL */
    void (*group_begin)(struct pr_canvas *c, const char *tooltip);
    void (*group_end)(struct pr_canvas *c);
};

struct pr_canvas {
    const struct pr_canvas_ops *ops;
    void *backend;        /* borrowed backend state */
    double width, height; /* points */
    int failed;           /* sticky: a backend write failed */
};

/* Fixed colour-blind-safe palette (Okabe-Ito order plus tints); i wraps. */
uint32_t pr_canvas_palette(size_t i);

/* A colour-blind-safe sequential ramp, light yellow (t <= 0) to dark blue
 * (t >= 1), for heatmaps. */
uint32_t pr_canvas_ramp(double t);

/* 0xRRGGBB for any colour, theme roles resolved to their light-theme RGB
 * (PR_COLOR_NONE is returned unchanged). */
uint32_t pr_canvas_rgb(uint32_t color);

/* Non-zero when `color` is one of the PR_COLOR_* theme roles. */
int pr_canvas_is_role(uint32_t color);

#endif
