/* chart.c - the report's charts (stacked bars, donut, lines, roofline,
 * horizontal bars, timeline) drawn on a struct pr_canvas.  Charts only lay
 * out and draw; the numbers come from the renderer, escaping and colours of
 * theme roles from the canvas backend. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/chart.h"
#include "profreport/escape.h"
#include "profreport/shorten.h"

#define FONT_TICK PR_CHART_FONT_TICK
#define FONT_LEGEND PR_CHART_FONT_LEGEND
#define FONT_TITLE PR_CHART_FONT_TITLE
#define MAX_TICKS 16
#define MAX_PLACED 512
#define LABEL_MAX 256

static const char *const UTF8_MICRO = "\xC2\xB5";
static const char *const UTF8_DASH = "\xE2\x80\x93";
static const char *const UTF8_ELLIPSIS = "\xE2\x80\xA6";

/* A value axis: ticks in data units, labels in a display unit. */
struct axis {
    double lo, hi;
    double ticks[MAX_TICKS];
    size_t n;
    double scale;       /* data units per display unit */
    const char *suffix; /* display unit, "" for none */
    int decimals;
    int log;
};

/* The plot area and the data window it shows. */
struct frame {
    double x, y, w, h;
    const struct axis *ax, *ay;
};

struct box2 {
    double x, y, w, h;
};

/* --- drawing helpers */

static void
text(struct pr_canvas *c, double x, double y, const char *s, double size,
     uint32_t color, enum pr_anchor anchor, int bold)
{
    struct pr_text_style t = {size, color, anchor, bold, 0};

    c->ops->text(c, x, y, s, &t);
}

static double
width(struct pr_canvas *c, const char *s, double size, int bold)
{
    return c->ops->text_width(c, s, size, bold);
}

static void
line(struct pr_canvas *c, double x1, double y1, double x2, double y2,
     uint32_t color, double w, int dashed)
{
    struct pr_style s = {PR_COLOR_NONE, color, w, 0, dashed};

    c->ops->line(c, x1, y1, x2, y2, &s);
}

static void
rect(struct pr_canvas *c, double x, double y, double w, double h, uint32_t fill,
     uint32_t stroke)
{
    struct pr_style s = {fill, stroke, 1, 0, 0};

    c->ops->rect(c, x, y, w, h, &s);
}

static void
group_begin(struct pr_canvas *c, const char *tooltip)
{
    if (c->ops->group_begin != NULL) {
        c->ops->group_begin(c, tooltip);
    }
}

static void
group_end(struct pr_canvas *c)
{
    if (c->ops->group_end != NULL) {
        c->ops->group_end(c);
    }
}

/* The longest prefix of s cut with an ellipsis that is at most max_w
 * points wide, for labels too narrow for even a shortened name. */
static const char *
fit_prefix(struct pr_canvas *c, const char *s, double size, double max_w,
           char *buf, size_t n)
{
    size_t len = strlen(s), lo = 0, hi = pr_escape_utf8_len(s, len), cut;

    while (lo + 1 < hi) {
        size_t mid = lo + (hi - lo) / 2;
        cut = pr_escape_utf8_prefix(s, len, mid);
        if (cut + 4 <= n) {
            memcpy(buf, s, cut);
            memcpy(buf + cut, UTF8_ELLIPSIS, 4); /* 3 bytes + NUL */
        }
        if (cut + 4 <= n && width(c, buf, size, 0) <= max_w) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    if (lo == 0) {
        return UTF8_ELLIPSIS;
    }
    cut = pr_escape_utf8_prefix(s, len, lo);
    memcpy(buf, s, cut);
    memcpy(buf + cut, UTF8_ELLIPSIS, 4);
    return buf;
}

/* s as it fits in max_w points: whole, else the widest display form of
 * the one name shortener (shorten.h) that fits, found by binary search
 * over its width in characters, else a cut prefix. */
static const char *
fit(struct pr_canvas *c, const char *s, double size, double max_w, char *buf,
    size_t n)
{
    size_t lo = 8, hi = pr_shorten_width(s), best = 0;

    if (width(c, s, size, 0) <= max_w) {
        return s;
    }
    if (hi > (n - 8) / 4) {
        hi = (n - 8) / 4;
    }
    while (lo <= hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (width(c, pr_shorten(s, mid, buf, n), size, 0) <= max_w) {
            best = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (best == 0) {
        return fit_prefix(c, s, size, max_w, buf, n);
    }
    return pr_shorten(s, best, buf, n);
}

/* Begin a group whose tooltip is "name: rest" with the name in full:
 * names run to any length, so the text is allocated; out-of-memory marks
 * the canvas failed. */
static void
group_named(struct pr_canvas *c, const char *name, const char *rest)
{
    size_t n = strlen(name ? name : "") + strlen(rest) + 3;
    char *tip = malloc(n);

    if (tip == NULL) {
        c->failed = 1;
        group_begin(c, rest);
        return;
    }
    snprintf(tip, n, "%s: %s", name ? name : "", rest);
    group_begin(c, tip);
    free(tip);
}

static uint32_t
pick(const uint32_t *colors, size_t i)
{
    return colors != NULL ? colors[i] : pr_canvas_palette(i);
}

/* Chart title; returns the height it took. */
static double
title(struct pr_canvas *c, const struct pr_chart_box *b, const char *t)
{
    if (t == NULL) {
        return 0;
    }
    text(c, b->x, b->y + FONT_TITLE, t, FONT_TITLE, PR_COLOR_INK,
         PR_ANCHOR_START, 1);
    return FONT_TITLE + 10;
}

double
pr_chart_title(struct pr_canvas *c, const struct pr_chart_box *b, const char *t)
{
    return title(c, b, t);
}

void
pr_chart_ramp_legend(struct pr_canvas *c, double x, double y, const char *what)
{
    for (int i = 0; i < 20; i++) {
        struct pr_style st = {pr_canvas_ramp(i / 19.0), PR_COLOR_NONE, 0, 0, 0};
        c->ops->rect(c, x + i * 6, y, 6, FONT_TICK, &st);
    }
    text(c, x + 128, y + FONT_TICK - 1.5, what, FONT_TICK, PR_COLOR_MUTED,
         PR_ANCHOR_START, 0);
}

/* Legend entries laid out left to right, wrapping at w.  Measures only
 * when draw is 0.  Returns the height taken (0 for no entries). */
static double
legend(struct pr_canvas *c, double x, double y, double w,
       const char *const *names, size_t n, const uint32_t *colors, int draw)
{
    double cx = x, cy = y, row = FONT_LEGEND + 7;

    if (names == NULL || n == 0) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        double iw = 14 + width(c, names[i], FONT_LEGEND, 0) + 12;
        if (cx > x && cx + iw > x + w) {
            cx = x;
            cy += row;
        }
        if (draw) {
            rect(c, cx, cy + 2, 10, 10, pick(colors, i), PR_COLOR_NONE);
            text(c, cx + 14, cy + 11, names[i], FONT_LEGEND, PR_COLOR_MUTED,
                 PR_ANCHOR_START, 0);
        }
        cx += iw;
    }
    return cy - y + row;
}

/* --- numbers */

static void
drop_negative_zero(char *buf)
{
    if (buf[0] == '-' && strpbrk(buf, "123456789") == NULL) {
        memmove(buf, buf + 1, strlen(buf));
    }
}

/* Three significant digits (and `extra` decimals more), C locale. */
static void
sig3(char *buf, size_t n, double x, const char *unit, int extra)
{
    double a = fabs(x);
    int dec = a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2;

    if (a >= 999.5e6) { /* past the largest unit: no 300-digit numbers */
        snprintf(buf, n, "%.*e%s%s", 2 + extra, x, unit[0] ? " " : "", unit);
        return;
    }
    snprintf(buf, n, "%.*f%s%s", dec + extra, x, unit[0] ? " " : "", unit);
}

static void
fmt_count(char *buf, size_t n, double v)
{
    char digits[32], *o = buf;
    size_t len, lead;

    snprintf(digits, sizeof(digits), "%.0f", fabs(v));
    len = strlen(digits);
    if (len + len / 3 + 2 > n) {
        snprintf(buf, n, "%.0f", v);
        return;
    }
    if (v <= -0.5) {
        *o++ = '-';
    }
    lead = len % 3 ? len % 3 : 3;
    for (size_t i = 0; i < len; i++) {
        if (i >= lead && (i - lead) % 3 == 0) {
            *o++ = ',';
        }
        *o++ = digits[i];
    }
    *o = '\0';
}

static void
fmt_time(char *buf, size_t n, double v, int extra)
{
    char unit[8];
    double a = fabs(v);

    if (a == 0) {
        snprintf(buf, n, "0");
    } else if (a < 0.9995) {
        snprintf(buf, n, "%.*f ns", extra, v * 1000);
    } else if (a < 999.5) {
        snprintf(unit, sizeof(unit), "%ss", UTF8_MICRO);
        sig3(buf, n, v, unit, extra);
    } else if (a < 999.5e3) {
        sig3(buf, n, v / 1e3, "ms", extra);
    } else {
        sig3(buf, n, v / 1e6, "s", extra);
    }
}

static void
fmt_bytes(char *buf, size_t n, double v, int extra)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double a = fabs(v);
    size_t u = 0;

    if (a < 1023.5) {
        snprintf(buf, n, "%.0f B", v); /* bytes are whole */
        return;
    }
    while (a >= 1023.5 && u < 5) {
        a /= 1024;
        v /= 1024;
        u++;
    }
    sig3(buf, n, v, units[u], extra);
}

static void
fmt_plain(char *buf, size_t n, double v, int extra)
{
    double a = fabs(v);

    if (a >= 999.5e6) {
        sig3(buf, n, v / 1e9, "G", extra);
    } else if (a >= 999.5e3) {
        sig3(buf, n, v / 1e6, "M", extra);
    } else if (a >= 999.5) {
        sig3(buf, n, v / 1e3, "k", extra);
    } else {
        sig3(buf, n, v, "", extra);
    }
    /* "12 k" reads worse than "12k" */
    char *sp = strchr(buf, ' ');
    if (sp != NULL) {
        memmove(sp, sp + 1, strlen(sp));
    }
}

char *
pr_chart_format(double v, enum pr_axis_unit unit, char *buf, size_t n)
{
    return pr_chart_format_x(v, unit, 0, buf, n);
}

char *
pr_chart_format_x(double v, enum pr_axis_unit unit, int extra, char *buf,
                  size_t n)
{
    if (n == 0) {
        return buf;
    }
    if (isnan(v)) {
        snprintf(buf, n, "%s", UTF8_DASH);
        return buf;
    }
    if (isinf(v)) { /* no "inf ms": a value the report cannot show */
        snprintf(buf, n, "%s", UTF8_DASH);
        return buf;
    }
    extra = extra < 0                    ? 0
            : extra > PR_CHART_EXTRA_MAX ? PR_CHART_EXTRA_MAX
                                         : extra;
    switch (unit) {
    case PR_UNIT_US:
        fmt_time(buf, n, v, extra);
        break;
    case PR_UNIT_BYTES:
        fmt_bytes(buf, n, v, extra);
        break;
    case PR_UNIT_PCT:
        if (fabs(v) >= 1e9) {
            snprintf(buf, n, "%.2e%%", v);
        } else {
            snprintf(buf, n, "%.*f%%", 1 + extra, v);
        }
        break;
    case PR_UNIT_TFLOPS:
        sig3(buf, n, fabs(v) < 0.9995 ? v * 1e3 : v,
             fabs(v) < 0.9995 ? "GFLOP/s" : "TFLOP/s", extra);
        break;
    case PR_UNIT_FLOP_PER_BYTE:
        sig3(buf, n, v, "FLOP/B", extra);
        break;
    case PR_UNIT_COUNT:
        fmt_count(buf, n, v);
        break;
    default:
        fmt_plain(buf, n, v, extra);
        break;
    }
    drop_negative_zero(buf);
    return buf;
}

/* --- ticks and axes */

size_t
pr_chart_ticks(double lo, double hi, size_t max_n, double *out, size_t cap)
{
    static const double steps[] = {1, 2, 2.5, 5, 10};
    double raw, mag, step = 1, first = 0;
    size_t count = 0;

    if (cap < 2 || max_n < 2 || !isfinite(lo) || !isfinite(hi)) {
        return 0;
    }
    if (hi <= lo) {
        hi = lo + (lo == 0 ? 1 : fabs(lo));
    }
    raw = (hi - lo) / (double)(max_n - 1);
    mag = pow(10, floor(log10(raw)));
    for (int grow = 0; grow < 4 && count == 0; grow++, mag *= 10) {
        for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
            double last, n;
            step = steps[i] * mag;
            first = floor(lo / step + 1e-9) * step;
            last = ceil(hi / step - 1e-9) * step;
            n = floor((last - first) / step + 0.5) + 1;
            if (n <= (double)max_n) {
                count = (size_t)n;
                break;
            }
        }
    }
    if (count > cap) {
        count = cap;
    }
    for (size_t i = 0; i < count; i++) {
        double v = first + step * (double)i;
        v = round(v / step * 1e6) / 1e6 * step; /* no 0.30000000000000004 */
        out[i] = v == 0 ? 0 : v;
    }
    return count;
}

size_t
pr_chart_log_ticks(double lo, double hi, double *out, size_t cap)
{
    double e0, e1;
    size_t n = 0;

    if (!(lo > 0) || !(hi > 0) || !isfinite(lo) || !isfinite(hi)) {
        return 0;
    }
    e0 = floor(log10(lo) + 1e-9);
    e1 = ceil(log10(hi) - 1e-9);
    if (e1 <= e0) {
        e1 = e0 + 1;
    }
    for (double e = e0; e <= e1 && n < cap; e++) {
        out[n++] = pow(10, e);
    }
    return n;
}

/* Display unit for an axis whose largest magnitude is `a`. */
static void
axis_unit(struct axis *x, enum pr_axis_unit unit, double a)
{
    static const char *const bytes[] = {"B", "KiB", "MiB", "GiB", "TiB"};

    x->scale = 1;
    x->suffix = "";
    if (unit == PR_UNIT_US) {
        x->suffix = a >= 1e6 ? "s" : a >= 1e3 ? "ms" : "\xC2\xB5s";
        x->scale = a >= 1e6 ? 1e6 : a >= 1e3 ? 1e3 : 1;
    } else if (unit == PR_UNIT_BYTES) {
        size_t u = 0;
        while (a >= 1024 && u < 4) {
            a /= 1024;
            x->scale *= 1024;
            u++;
        }
        x->suffix = bytes[u];
    } else if (unit == PR_UNIT_PCT) {
        x->suffix = "%";
    } else if (unit == PR_UNIT_TFLOPS) {
        x->suffix = a < 1 ? "GFLOP/s" : "TFLOP/s";
        x->scale = a < 1 ? 1e-3 : 1;
    }
}

/* A count (ranks, steps) has no "rank 0.2": when the nice step came out
 * below 1 or as 2.5, widen it to the next whole nice step (1, 5) and lay
 * the ticks again.  Whole steps are kept as they are. */
static void
count_ticks(struct axis *x, double lo, double hi)
{
    double step = x->n > 1 ? x->ticks[1] - x->ticks[0] : 1, t;
    size_t n = 0;

    if (step >= 1 && step == floor(step))
        return;
    step = step < 1 ? 1 : ceil(step / 5) * 5;
    for (t = floor(lo / step) * step; n < MAX_TICKS; t += step) {
        x->ticks[n++] = t;
        if (t >= hi)
            break;
    }
    x->n = n;
}

/* Decimals that write every multiple of a tick step exactly: 2.5 needs
 * one ("7.5", not "8"), 0.25 two; at most three. */
static int
step_decimals(double step)
{
    int d = 0;
    double scaled = fabs(step);

    while (d < 3 &&
           fabs(scaled - floor(scaled + 0.5)) > 1e-6 * fmax(1, scaled)) {
        scaled *= 10;
        d++;
    }
    return d;
}

static void
axis_linear(struct axis *x, enum pr_axis_unit unit, double lo, double hi,
            size_t max_n)
{
    double step;

    memset(x, 0, sizeof(*x));
    axis_unit(x, unit, fmax(fabs(lo), fabs(hi)));
    x->n = pr_chart_ticks(lo / x->scale, hi / x->scale, max_n, x->ticks,
                          MAX_TICKS);
    for (size_t i = 0; i < x->n; i++) {
        x->ticks[i] *= x->scale;
    }
    if (unit == PR_UNIT_COUNT && x->scale == 1)
        count_ticks(x, lo, hi);
    x->lo = x->n ? x->ticks[0] : lo;
    x->hi = x->n ? x->ticks[x->n - 1] : hi;
    step = x->n > 1 ? (x->ticks[1] - x->ticks[0]) / x->scale : 1;
    x->decimals = step_decimals(step);
}

static void
axis_log(struct axis *x, double lo, double hi)
{
    memset(x, 0, sizeof(*x));
    x->log = 1;
    x->scale = 1;
    x->suffix = "";
    x->n = pr_chart_log_ticks(lo, hi, x->ticks, MAX_TICKS);
    x->lo = x->n ? x->ticks[0] : lo;
    x->hi = x->n ? x->ticks[x->n - 1] : hi;
}

static void
tick_label(const struct axis *x, double v, char *buf, size_t n)
{
    if (x->log) {
        double e = log10(v);
        if (e >= 0 && e < 6) {
            snprintf(buf, n, "%.0f", v);
        } else if (e < 0 && e > -4) {
            snprintf(buf, n, "%.*f", (int)-floor(e + 0.5), v);
        } else {
            snprintf(buf, n, "1e%.0f", e);
        }
        return;
    }
    snprintf(buf, n, "%.*f%s%s", x->decimals, v / x->scale,
             (x->suffix[0] && strcmp(x->suffix, "%") != 0) ? " " : "",
             x->suffix);
    drop_negative_zero(buf);
}

static double
axis_pos(const struct axis *x, double v, double p0, double len)
{
    double f;

    if (x->log) {
        f = (log10(v) - log10(x->lo)) / (log10(x->hi) - log10(x->lo));
    } else {
        f = x->hi > x->lo ? (v - x->lo) / (x->hi - x->lo) : 0;
    }
    return p0 + f * len;
}

static double
fx(const struct frame *f, double v)
{
    return axis_pos(f->ax, v, f->x, f->w);
}

static double
fy(const struct frame *f, double v)
{
    return f->y + f->h - axis_pos(f->ay, v, 0, f->h);
}

/* Widest y tick label, for the left margin. */
static double
y_margin(struct pr_canvas *c, const struct axis *y)
{
    char buf[64];
    double w = 0;

    for (size_t i = 0; i < y->n; i++) {
        tick_label(y, y->ticks[i], buf, sizeof(buf));
        w = fmax(w, width(c, buf, FONT_TICK, 0));
    }
    return w + 10;
}

static void
draw_y_grid(struct pr_canvas *c, const struct frame *f)
{
    char buf[64];

    for (size_t i = 0; i < f->ay->n; i++) {
        double y = fy(f, f->ay->ticks[i]);
        line(c, f->x, y, f->x + f->w, y,
             i == 0 ? PR_COLOR_MUTED : PR_COLOR_GRID, 1, 0);
        tick_label(f->ay, f->ay->ticks[i], buf, sizeof(buf));
        text(c, f->x - 6, y + 3.5, buf, FONT_TICK, PR_COLOR_MUTED,
             PR_ANCHOR_END, 0);
    }
}

static void
draw_x_grid(struct pr_canvas *c, const struct frame *f, int grid)
{
    char buf[64];
    double last_end = -1e9;

    for (size_t i = 0; i < f->ax->n; i++) {
        double x = fx(f, f->ax->ticks[i]), w;
        if (grid) {
            line(c, x, f->y, x, f->y + f->h, PR_COLOR_GRID, 1, 0);
        }
        tick_label(f->ax, f->ax->ticks[i], buf, sizeof(buf));
        w = width(c, buf, FONT_TICK, 0);
        x = fmin(x, f->x + f->w + 6 - w / 2); /* keep the last one inside */
        if (x - w / 2 < last_end + 6) {
            continue; /* would collide with the previous label */
        }
        text(c, x, f->y + f->h + 15, buf, FONT_TICK, PR_COLOR_MUTED,
             PR_ANCHOR_MIDDLE, 0);
        last_end = x + w / 2;
    }
}

/* --- stacked bars */

static double
stack_total(const struct pr_chart_stacked *s, size_t cat)
{
    double t = 0;

    for (size_t k = 0; k < s->n_series; k++) {
        double v = s->values[cat * s->n_series + k];
        t += v > 0 ? v : 0;
    }
    return t;
}

static void
stack_bar(struct pr_canvas *c, const struct frame *f,
          const struct pr_chart_stacked *s, size_t cat, double x, double bw)
{
    double base = 0, total = stack_total(s, cat);
    char val[48], tip[LABEL_MAX + 96];

    for (size_t k = 0; k < s->n_series; k++) {
        double v = s->values[cat * s->n_series + k];
        double y0, y1;
        if (!(v > 0)) {
            continue;
        }
        y0 = fy(f, base);
        y1 = fy(f, base + v);
        pr_chart_format(v, s->unit, val, sizeof(val));
        snprintf(tip, sizeof(tip), "%s \xC2\xB7 %s: %s (%.1f%%)",
                 s->categories[cat], s->series[k], val, 100 * v / total);
        group_begin(c, tip);
        rect(c, x, y1, bw, y0 - y1, pick(s->colors, k), PR_COLOR_BG);
        group_end(c);
        base += v;
    }
}

void
pr_chart_stacked_bars(struct pr_canvas *c, const struct pr_chart_box *b,
                      const struct pr_chart_stacked *s)
{
    struct axis ay, ax;
    struct frame f;
    double y = b->y, max = 0, slot, bw, lw = 0;
    size_t every = 1;
    char val[48];

    y += title(c, b, s->title);
    y += legend(c, b->x, y, b->w, s->series, s->n_series, s->colors, 1) + 8;
    for (size_t i = 0; i < s->n_categories; i++) {
        max = fmax(max, stack_total(s, i));
    }
    axis_linear(&ay, s->unit, 0, max > 0 ? max : 1, 6);
    memset(&ax, 0, sizeof(ax));
    f.ax = &ax;
    f.ay = &ay;
    f.x = b->x + y_margin(c, &ay);
    f.w = b->x + b->w - f.x - 2;
    f.y = y + 14;
    f.h = b->y + b->h - 22 - f.y;
    draw_y_grid(c, &f);
    if (s->n_categories == 0 || f.h <= 0) {
        return;
    }
    slot = f.w / (double)s->n_categories;
    bw = fmin(slot * 0.62, 64);
    for (size_t i = 0; i < s->n_categories; i++) {
        lw = fmax(lw, width(c, s->categories[i], FONT_TICK, 0));
    }
    every = (size_t)ceil((lw + 8) / slot);
    for (size_t i = 0; i < s->n_categories; i++) {
        double x = f.x + slot * (double)i + (slot - bw) / 2;
        double top = fy(&f, stack_total(s, i));
        stack_bar(c, &f, s, i, x, bw);
        if (i % (every ? every : 1) == 0) {
            text(c, x + bw / 2, f.y + f.h + 15, s->categories[i], FONT_TICK,
                 PR_COLOR_MUTED, PR_ANCHOR_MIDDLE, 0);
        }
        pr_chart_format(stack_total(s, i), s->unit, val, sizeof(val));
        if (width(c, val, FONT_TICK, 0) < slot - 2) {
            text(c, x + bw / 2, top - 4, val, FONT_TICK, PR_COLOR_INK,
                 PR_ANCHOR_MIDDLE, 0);
        }
    }
}

/* --- donut */

/* The legend's rows: swatch, label, value, share.  The share column is
 * as wide as its widest entry and a gap, not a fixed 44 units: a bold
 * "100.0%" is wider, and a run of one category (a MindSpore step of only
 * Other: ms_run3, ms_run4) read "23.7 ms100.0%". */
static void
donut_legend(struct pr_canvas *c, const struct box2 *l,
             const struct pr_chart_donut *s, double total)
{
    size_t shown = 0;
    double row = 20, y, pw = 44;
    char val[48], pct[16], cut[LABEL_MAX];

    for (size_t i = 0; i < s->n; i++) {
        if (!(s->values[i] > 0)) {
            continue;
        }
        shown++;
        snprintf(pct, sizeof(pct), "%.1f%%", 100 * s->values[i] / total);
        pw = fmax(pw, width(c, pct, FONT_LEGEND, 1) + 8);
    }
    y = l->y + (l->h - row * (double)shown) / 2;
    for (size_t i = 0; i < s->n; i++) {
        double vw;
        if (!(s->values[i] > 0)) {
            continue;
        }
        pr_chart_format(s->values[i], s->unit, val, sizeof(val));
        snprintf(pct, sizeof(pct), "%.1f%%", 100 * s->values[i] / total);
        vw = 50 + pw;
        rect(c, l->x, y + 4, 10, 10, pick(s->colors, i), PR_COLOR_NONE);
        text(
            c, l->x + 16, y + 13,
            fit(c, s->labels[i], FONT_LEGEND, l->w - 16 - vw, cut, sizeof(cut)),
            FONT_LEGEND, PR_COLOR_INK, PR_ANCHOR_START, 0);
        text(c, l->x + l->w - pw, y + 13, val, FONT_LEGEND, PR_COLOR_MUTED,
             PR_ANCHOR_END, 0);
        text(c, l->x + l->w, y + 13, pct, FONT_LEGEND, PR_COLOR_INK,
             PR_ANCHOR_END, 1);
        y += row;
    }
}

void
pr_chart_donut(struct pr_canvas *c, const struct pr_chart_box *b,
               const struct pr_chart_donut *s)
{
    const double tau = 2 * 3.14159265358979323846;
    double y = b->y + title(c, b, s->title), total = 0, a = 0, r, cx, cy;
    struct pr_style st = {0, PR_COLOR_BG, 1.5, 0, 0};
    struct box2 l;
    char val[48], tip[LABEL_MAX + 64];

    for (size_t i = 0; i < s->n; i++) {
        total += s->values[i] > 0 ? s->values[i] : 0;
    }
    r = fmin((b->y + b->h - y) / 2, b->w * 0.2) - 2;
    cx = b->x + r + 2;
    cy = y + (b->y + b->h - y) / 2;
    if (!(total > 0) || r <= 4) {
        return;
    }
    for (size_t i = 0; i < s->n; i++) {
        double v = s->values[i] > 0 ? s->values[i] : 0;
        if (v == 0) {
            continue;
        }
        st.fill = pick(s->colors, i);
        pr_chart_format(v, s->unit, val, sizeof(val));
        snprintf(tip, sizeof(tip), "%s: %s (%.1f%%)", s->labels[i], val,
                 100 * v / total);
        group_begin(c, tip);
        c->ops->wedge(c, cx, cy, r, r * 0.62, a, a + tau * v / total, &st);
        group_end(c);
        a += tau * v / total;
    }
    if (s->center_value != NULL) {
        text(c, cx, cy + (s->center_label ? 2 : 6), s->center_value, 17,
             PR_COLOR_INK, PR_ANCHOR_MIDDLE, 1);
    }
    if (s->center_label != NULL) {
        text(c, cx, cy + 17, s->center_label, FONT_TICK, PR_COLOR_MUTED,
             PR_ANCHOR_MIDDLE, 0);
    }
    l.x = cx + r + 24;
    l.w = b->x + b->w - l.x;
    l.y = y;
    l.h = b->y + b->h - y;
    donut_legend(c, &l, s, total);
}

/* --- line chart */

/* Points of one series in canvas space (step-expanded when asked), with two
 * extra points closing the area down to the baseline.  NULL on OOM. */
static double *
series_points(const struct frame *f, const struct pr_chart_series *s,
              size_t from, size_t to, size_t *n_out)
{
    size_t per = s->step ? 2 : 1, n = 0;
    double *xy;

    if (s->n > ((size_t)-1) / (sizeof(double) * 4) - 4) {
        return NULL;
    }
    xy = malloc(sizeof(double) * 2 * ((to - from) * per + 2));
    if (xy == NULL) {
        return NULL;
    }
    for (size_t i = from; i < to; i++) {
        double y = fy(f, s->y[i]);
        if (s->step && i > from) {
            xy[2 * n] = fx(f, s->x[i]);
            xy[2 * n + 1] = xy[2 * n - 1];
            n++;
        }
        xy[2 * n] = fx(f, s->x[i]);
        xy[2 * n + 1] = y;
        n++;
    }
    *n_out = n;
    return xy;
}

/* One run of points [from, to) with finite y: a line (a dot when gaps
 * leave a single point, so a night between them still shows). */
static void
draw_run(struct pr_canvas *c, const struct frame *f,
         const struct pr_chart_series *s, size_t from, size_t to, uint32_t col)
{
    struct pr_style stroke = {PR_COLOR_NONE, col, 1.75, 0, 0};
    struct pr_style area = {col, PR_COLOR_NONE, 0, s->fill == 2 ? 0 : 0.14, 0};
    struct pr_style dot = {col, PR_COLOR_NONE, 0, 0, 0};
    size_t n = 0;
    double *xy = series_points(f, s, from, to, &n);

    if (xy == NULL) {
        c->failed = 1;
        return;
    }
    if (s->dots) { /* smaller as they crowd: 3 px, 1.5 px from 256 points */
        double r = s->n <= 32 ? 3.0 : s->n >= 256 ? 1.5 : 2.25;

        for (size_t i = 0; i < n; i++)
            c->ops->circle(c, xy[2 * i], xy[2 * i + 1], r, &dot);
        free(xy);
        return;
    }
    if (n == 1 && s->n > 1) { /* a point between gaps */
        c->ops->circle(c, xy[0], xy[1], 2.5, &dot);
        free(xy);
        return;
    }
    if (s->fill) {
        double base = f->y + f->h;
        xy[2 * n] = xy[2 * n - 2];
        xy[2 * n + 1] = base;
        xy[2 * n + 2] = xy[0];
        xy[2 * n + 3] = base;
        c->ops->poly(c, xy, n + 2, 1, &area);
    }
    c->ops->poly(c, xy, n, 0, &stroke);
    free(xy);
}

/* A series as runs of finite points: a missing value is a gap. */
static void
draw_series(struct pr_canvas *c, const struct frame *f,
            const struct pr_chart_series *s, size_t index)
{
    uint32_t col =
        s->color == PR_COLOR_NONE ? pr_canvas_palette(index) : s->color;
    size_t i = 0, from;

    if (s->n == 0) {
        return;
    }
    group_begin(c, s->name);
    while (i < s->n) {
        while (i < s->n && !isfinite(s->y[i])) {
            i++;
        }
        from = i;
        while (i < s->n && isfinite(s->y[i])) {
            i++;
        }
        if (i > from) {
            draw_run(c, f, s, from, i, col);
        }
    }
    group_end(c);
}

/* Category ticks 1..n under the plot, each name shortened to its room:
 * a slot for a centred name, half of one for the first and last, which
 * align with the plot's edges; when even that crowds, every k-th name is
 * shown. */
static void
draw_x_names(struct pr_canvas *c, const struct frame *f,
             const struct pr_chart_lines *s)
{
    size_t n = s->n_x_names, every = 1;
    double slot = n > 1 ? f->w / (double)(n - 1) : f->w;
    char cut[LABEL_MAX];

    if (slot < 48) {
        every = (size_t)ceil(48 / slot);
        slot *= (double)every;
    }
    for (size_t i = 0; i < n; i += every) {
        double x = fx(f, (double)(i + 1));
        int first = i == 0 && n > 1, last = i + 1 == n && n > 1;
        double room = first || last ? (slot - 8) / 2 : slot - 8;
        const char *name = s->x_names[i] ? s->x_names[i] : "";
        line(c, x, f->y + f->h, x, f->y + f->h + 4, PR_COLOR_MUTED, 1, 0);
        name = fit(c, name, FONT_TICK, fmax(room, 24), cut, sizeof(cut));
        text(c, x, f->y + f->h + 15, name, FONT_TICK, PR_COLOR_MUTED,
             first  ? PR_ANCHOR_START
             : last ? PR_ANCHOR_END
                    : PR_ANCHOR_MIDDLE,
             0);
    }
}

static void
line_mark(struct pr_canvas *c, const struct frame *f,
          const struct pr_chart_lines *s)
{
    struct pr_style dot = {PR_COLOR_INK, PR_COLOR_BG, 1.5, 0, 0};
    double x = fx(f, s->mark_x), y = fy(f, s->mark_y);
    double w = width(c, s->mark_label, FONT_TICK, 1);
    int left = x + 8 + w > f->x + f->w;

    c->ops->circle(c, x, y, 3.5, &dot);
    text(c, left ? x - 7 : x + 7, y - 6 < f->y + 10 ? y + 14 : y - 6,
         s->mark_label, FONT_TICK, PR_COLOR_INK,
         left ? PR_ANCHOR_END : PR_ANCHOR_START, 1);
}

void
pr_chart_line(struct pr_canvas *c, const struct pr_chart_box *b,
              const struct pr_chart_lines *s)
{
    struct axis ax, ay;
    struct frame f;
    const char *names[16];
    uint32_t colors[16];
    double y = b->y + title(c, b, s->title), xmin = 0, xmax = 0, ymax = 0;
    double ymin = 0, ylo = 0;
    size_t nn = 0;
    int any = 0;

    for (size_t i = 0; i < s->n_series; i++) {
        const struct pr_chart_series *e = &s->series[i];
        for (size_t k = 0; k < e->n; k++) {
            if (!isfinite(e->y[k])) {
                continue; /* a gap */
            }
            xmin = any ? fmin(xmin, e->x[k]) : e->x[k];
            xmax = any ? fmax(xmax, e->x[k]) : e->x[k];
            ymax = fmax(ymax, e->y[k]);
            ymin = any ? fmin(ymin, e->y[k]) : e->y[k];
            any = 1;
        }
        if (nn < 16) {
            names[nn] = e->name;
            colors[nn++] =
                e->color == PR_COLOR_NONE ? pr_canvas_palette(i) : e->color;
        }
    }
    if (s->n_series > 1) {
        y += legend(c, b->x, y, b->w, names, nn, colors, 1) + 4;
    }
    /* Zoomed to the data, but never to less than a tenth of the largest
     * value: a 0.03% spread drawn edge to edge reads as a straggler. */
    if (s->y_max < 0 && any && ymin > 0)
        ylo = fmax(0, fmin(ymin - (ymax - ymin) * 0.1, ymax * 0.9));
    axis_linear(&ay, s->y_unit, ylo,
                s->y_max > 0 ? s->y_max
                : ylo > 0    ? ymax + (ymax - ylo) * 0.08
                             : ymax * 1.08,
                6);
    if (s->n_x_names > 0) { /* every category, data or not */
        xmin = 1;
        xmax = (double)s->n_x_names;
    }
    axis_linear(&ax, s->x_unit, xmin, xmax > xmin ? xmax : xmin + 1, 8);
    ax.lo = xmin; /* the data's window, not the rounded one */
    ax.hi = xmax > xmin ? xmax : xmin + 1;
    f.ax = &ax;
    f.ay = &ay;
    f.x = b->x + y_margin(c, &ay);
    f.w = b->x + b->w - f.x - 8;
    f.y = y + 8;
    f.h = b->y + b->h - 20 - (s->x_label ? 14 : 0) - f.y;
    if (any || s->n_x_names == 0) { /* no scale for values that are not */
        draw_y_grid(c, &f);
    } else {
        line(c, f.x, f.y + f.h, f.x + f.w, f.y + f.h, PR_COLOR_MUTED, 1, 0);
    }
    if (s->n_x_names > 0) {
        draw_x_names(c, &f, s);
    } else {
        struct axis inner = ax;
        size_t k = 0;
        for (size_t i = 0; i < ax.n; i++) { /* ticks inside the window */
            if (ax.ticks[i] >= ax.lo - 1e-9 && ax.ticks[i] <= ax.hi + 1e-9) {
                inner.ticks[k++] = ax.ticks[i];
            }
        }
        inner.n = k;
        f.ax = &inner;
        draw_x_grid(c, &f, 0);
        f.ax = &ax;
    }
    if (s->x_label != NULL) {
        text(c, f.x + f.w / 2, b->y + b->h - 4, s->x_label, FONT_TICK,
             PR_COLOR_MUTED, PR_ANCHOR_MIDDLE, 0);
    }
    if (!any && s->n_x_names > 0) { /* say so, rather than a flat 0 */
        text(c, f.x + f.w / 2, f.y + f.h / 2, "no data", FONT_TICK,
             PR_COLOR_MUTED, PR_ANCHOR_MIDDLE, 0);
    }
    for (size_t i = 0; i < s->n_series && any; i++) {
        draw_series(c, &f, &s->series[i], i);
    }
    if (s->mark_label != NULL && any && isfinite(s->mark_y)) {
        line_mark(c, &f, s);
    }
}

const uint32_t pr_chart_breakdown_colors[8] = {
    0x0072B2, 0xE69F00, 0xF0E442, 0xD55E00,
    0x56B4E9, 0x009E73, 0xCC79A7, 0x999999,
};
const uint32_t pr_chart_overlap_colors[4] = {0x0072B2, 0x009E73, 0xD55E00,
                                             0x999999};

/* --- roofline */

struct placed {
    struct box2 r[MAX_PLACED];
    size_t n;
};

static int
overlaps(const struct box2 *a, const struct box2 *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
           b->y < a->y + a->h;
}

/* Try to reserve r: inside the frame and clear of everything placed. */
static int
place(struct placed *p, const struct frame *f, const struct box2 *r)
{
    if (r->x < f->x || r->x + r->w > f->x + f->w || r->y < f->y ||
        r->y + r->h > f->y + f->h || p->n == MAX_PLACED) {
        return 0;
    }
    for (size_t i = 0; i < p->n; i++) {
        if (overlaps(&p->r[i], r)) {
            return 0;
        }
    }
    p->r[p->n++] = *r;
    return 1;
}

/* Reserve r whatever it overlaps (a point: labels must keep off every
 * one, even those drawn over another). */
static void
reserve(struct placed *p, const struct box2 *r)
{
    if (p->n < MAX_PLACED) {
        p->r[p->n++] = *r;
    }
}

static double
point_radius(const struct pr_chart_point *p, double wmax)
{
    if (!(p->weight > 0) || !(wmax > 0)) {
        return 4;
    }
    return 3 + 8 * sqrt(p->weight / wmax);
}

static void
roof_window(const struct pr_chart_roofline *s, double top, double *x0,
            double *x1, double *y0, double *y1)
{
    double ridge = s->peak_gbps > 0 ? top * 1e3 / s->peak_gbps : 10;

    *x0 = ridge / 100;
    *x1 = ridge * 10;
    *y0 = top / 1e4;
    *y1 = top * 3;
    for (size_t i = 0; i < s->n_points; i++) {
        const struct pr_chart_point *p = &s->points[i];
        if (p->x > 0 && p->y > 0) {
            *x0 = fmin(*x0, p->x);
            *x1 = fmax(*x1, p->x);
            *y0 = fmin(*y0, p->y);
            *y1 = fmax(*y1, p->y);
        }
    }
}

#define MAX_ROOFS 16

/* Roofs sorted by height, equal heights merged into one line whose label
 * names them all ("fp16_tensor/bf16_tensor 312 TFLOP/s"). */
static size_t
merge_roofs(const struct pr_chart_roofline *s, double *val, char (*names)[96])
{
    size_t n = 0;

    for (size_t i = 0; i < s->n_roofs; i++) {
        const struct pr_chart_roof *r = &s->roofs[i];
        size_t k;
        if (!(r->tflops > 0)) {
            continue;
        }
        for (k = 0; k < n && val[k] != r->tflops; k++) {
        }
        if (k < n) {
            size_t used = strlen(names[k]);
            snprintf(names[k] + used, 96 - used, "/%s", r->name);
            continue;
        }
        if (n == MAX_ROOFS) {
            continue;
        }
        for (k = n; k > 0 && val[k - 1] < r->tflops; k--) {
            val[k] = val[k - 1];
            memcpy(names[k], names[k - 1], 96);
        }
        val[k] = r->tflops;
        snprintf(names[k], 96, "%s", r->name);
        n++;
    }
    return n;
}

struct seg {
    double x0, y0, x1, y1;
};

/* The slanted roof in the frame: from where it enters (the left edge, or
 * the bottom) to the ridge at the top roof.  s->peak_gbps > 0. */
static struct seg
slope_ends(const struct frame *f, const struct pr_chart_roofline *s, double top)
{
    double xa = f->ax->lo, ya = xa * s->peak_gbps / 1e3;
    double x1 = fx(f, top * 1e3 / s->peak_gbps), y1 = fy(f, top);

    if (ya < f->ay->lo) { /* start where the slope enters the frame */
        xa = f->ay->lo * 1e3 / s->peak_gbps;
        ya = f->ay->lo;
    }
    return (struct seg){fx(f, xa), fy(f, ya), x1, y1};
}

/* The ceiling's y at x: on the slope left of the ridge, the top roof's
 * right of it (y falls as x grows). */
static double
ceiling_y(const struct seg *e, double x)
{
    if (x >= e->x1 || e->x1 <= e->x0)
        return e->y1;
    return e->y0 + (e->y1 - e->y0) * (x - e->x0) / (e->x1 - e->x0);
}

/* Whether r lies across a roof line: the ceiling (slope and top roof)
 * and, when strict, a dashed lower roof (level, from its ridge to the
 * right edge) or the ridge's drop to the axis.  A label must not: the
 * line would strike it through. */
static int
crosses_roofs(const struct frame *f, const struct pr_chart_roofline *s,
              double top, const struct box2 *r, int strict)
{
    struct seg e = {f->x, fy(f, top), f->x, fy(f, top)}; /* level: no slope */
    double right = r->x + r->w, bottom = r->y + r->h;

    if (s->peak_gbps > 0)
        e = slope_ends(f, s, top);
    if (ceiling_y(&e, right) <= bottom && ceiling_y(&e, r->x) >= r->y)
        return 1;
    if (!strict)
        return 0;
    if (s->peak_gbps > 0 && r->x <= e.x1 && right >= e.x1 && bottom >= e.y1)
        return 1;
    for (size_t i = 0; i < s->n_roofs; i++) {
        double v = s->roofs[i].tflops, y = fy(f, v);
        double rx = s->peak_gbps > 0 ? fx(f, v * 1e3 / s->peak_gbps) : f->x;
        if (v > 0 && v < top && y >= r->y && y <= bottom && right >= rx)
            return 1;
    }
    return 0;
}

static void
roof_slope(struct pr_canvas *c, const struct frame *f,
           const struct pr_chart_roofline *s, double top)
{
    double ridge = top * 1e3 / s->peak_gbps;
    struct seg e = slope_ends(f, s, top);
    double x0 = e.x0, y0 = e.y0, x1 = e.x1, y1 = e.y1;
    char buf[LABEL_MAX], val[48];

    line(c, x0, y0, x1, y1, PR_COLOR_INK, 2, 0);
    line(c, x1, y1, x1, f->y + f->h, PR_COLOR_MUTED, 1, 1);
    snprintf(buf, sizeof(buf), "ridge %s",
             pr_chart_format(ridge, PR_UNIT_FLOP_PER_BYTE, val, sizeof(val)));
    text(c, x1 + 4, f->y + f->h - 6, buf, FONT_TICK, PR_COLOR_MUTED,
         PR_ANCHOR_START, 0);
}

/* The bandwidth label rides on the slope where it clears the points: the
 * first free spot of a few along the line (drawn after the points). */
static void
slope_label(struct pr_canvas *c, const struct frame *f,
            const struct pr_chart_roofline *s, double top, struct placed *pl)
{
    static const double at[] = {0.72, 0.5, 0.3, 0.85, 0.15};
    struct seg e = slope_ends(f, s, top);
    double x0 = e.x0, y0 = e.y0, x1 = e.x1, y1 = e.y1, ang, w, h = FONT_TICK;
    char buf[48];

    ang = atan2(y0 - y1, x1 - x0);
    snprintf(buf, sizeof(buf), "%.0f GB/s", s->peak_gbps);
    w = width(c, buf, FONT_TICK, 0);
    for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
        double cx = x0 + (x1 - x0) * at[i] - sin(ang) * 8;
        double cy = y0 + (y1 - y0) * at[i] - cos(ang) * 8;
        double bw = w * cos(ang) + h * sin(ang);
        double bh = w * sin(ang) + h * cos(ang);
        struct box2 bx = {cx - bw / 2, cy - bh / 2, bw, bh};
        if (i + 1 < sizeof(at) / sizeof(at[0]) && !place(pl, f, &bx)) {
            continue;
        }
        if (i + 1 == sizeof(at) / sizeof(at[0])) {
            reserve(pl, &bx); /* no free spot: point labels keep off it */
        }
        struct pr_text_style t = {FONT_TICK, PR_COLOR_INK, PR_ANCHOR_MIDDLE, 0,
                                  ang * 180 / 3.14159265358979323846};
        c->ops->text(c, cx, cy + h / 3, buf, &t);
        return;
    }
}

static void
roof_lines(struct pr_canvas *c, const struct frame *f,
           const struct pr_chart_roofline *s, double top)
{
    char names[MAX_ROOFS][96];
    double v[MAX_ROOFS];
    size_t n = merge_roofs(s, v, names);

    if (s->peak_gbps > 0) {
        roof_slope(c, f, s, top);
    }
    for (size_t i = 0; i < n; i++) {
        double rx = s->peak_gbps > 0 ? v[i] * 1e3 / s->peak_gbps : f->ax->lo;
        line(c, fx(f, rx), fy(f, v[i]), f->x + f->w, fy(f, v[i]),
             v[i] >= top ? PR_COLOR_INK : PR_COLOR_MUTED,
             v[i] >= top ? 2 : 1.25, v[i] < top);
    }
}

/* A roof's name and height, placed after the points so it keeps off
 * them: above its line at the right end, else below it, each moved away
 * from the line a few steps, else at the line's left end; when all are
 * taken, the first, under the previous label if roofs lie close. */
static void
roof_name(struct pr_canvas *c, const struct frame *f, const char *buf,
          double rx, double ry, double *last_y, struct placed *pl)
{
    double w = width(c, buf, FONT_TICK, 0), h = FONT_TICK + 3;
    double right = f->x + f->w - 4 - w, left = fmax(fx(f, rx) + 6, f->x + 2);
    struct box2 tries[10], lb;
    struct pr_style bg = {PR_COLOR_BG, PR_COLOR_NONE, 0, 0.85, 0};
    size_t k, n = 0;

    for (k = 0; k < 4; k++) { /* 0, 8, 16, 24 points off the line */
        tries[n++] = (struct box2){right, ry - 4 - FONT_TICK - 8.0 * k, w, h};
        tries[n++] = (struct box2){right, ry + 3 + 8.0 * k, w, h};
    }
    tries[n++] = (struct box2){left, ry - 4 - FONT_TICK, w, h};
    tries[n++] = (struct box2){left, ry + 3, w, h};
    for (k = 0; k < n && !place(pl, f, &tries[k]); k++) {
    }
    lb = tries[k < n ? k : 0];
    if (k == n && lb.y < *last_y + h - 1) { /* roofs highest first */
        lb.y = *last_y + h - 1;
    }
    /* a backdrop so other roofs' dashed lines don't strike it through */
    c->ops->rect(c, lb.x - 2, lb.y, lb.w + 4, lb.h, &bg);
    text(c, lb.x, lb.y + FONT_TICK, buf, FONT_TICK, PR_COLOR_MUTED,
         PR_ANCHOR_START, 0);
    if (k == n) {
        reserve(pl, &lb); /* keeps point labels off it */
    }
    *last_y = lb.y;
}

static void
roof_names(struct pr_canvas *c, const struct frame *f,
           const struct pr_chart_roofline *s, struct placed *pl)
{
    char buf[LABEL_MAX], val[48], names[MAX_ROOFS][96];
    double v[MAX_ROOFS], last_y = -1e9;
    size_t n = merge_roofs(s, v, names);

    for (size_t i = 0; i < n; i++) {
        double rx = s->peak_gbps > 0 ? v[i] * 1e3 / s->peak_gbps : f->ax->lo;
        snprintf(buf, sizeof(buf), "%.95s %.47s", names[i],
                 pr_chart_format(v[i], PR_UNIT_TFLOPS, val, sizeof(val)));
        roof_name(c, f, buf, rx, fy(f, v[i]), &last_y, pl);
    }
}

static void
roof_points(struct pr_canvas *c, const struct frame *f,
            const struct pr_chart_roofline *s, struct placed *pl)
{
    double wmax = 0;
    char tip[128], a[48], b2[48];

    for (size_t i = 0; i < s->n_points; i++) {
        wmax = fmax(wmax, s->points[i].weight);
    }
    for (size_t i = 0; i < s->n_points; i++) {
        const struct pr_chart_point *p = &s->points[i];
        struct pr_style st = {pr_canvas_palette(p->color_index), PR_COLOR_BG, 1,
                              0.8, 0};
        double r = point_radius(p, wmax), x, y;
        if (!(p->x > 0) || !(p->y > 0)) {
            continue;
        }
        x = fx(f, p->x);
        y = fy(f, p->y);
        snprintf(tip, sizeof(tip), "%s at %s",
                 pr_chart_format(p->y, PR_UNIT_TFLOPS, a, sizeof(a)),
                 pr_chart_format(p->x, PR_UNIT_FLOP_PER_BYTE, b2, sizeof(b2)));
        group_named(c, p->label, tip);
        c->ops->circle(c, x, y, r, &st);
        group_end(c);
        struct box2 dotbox = {x - r, y - r, 2 * r, 2 * r};
        reserve(pl, &dotbox);
    }
}

/* Indexes of the n heaviest points (weight desc, then index). */
static size_t
heaviest(const struct pr_chart_roofline *s, size_t *idx, size_t cap)
{
    size_t n = 0;

    for (size_t i = 0; i < s->n_points; i++) {
        const struct pr_chart_point *p = &s->points[i];
        size_t k;
        if (!(p->x > 0) || !(p->y > 0) || p->label == NULL) {
            continue;
        }
        for (k = n; k > 0 && s->points[idx[k - 1]].weight < p->weight; k--) {
            if (k < cap) {
                idx[k] = idx[k - 1];
            }
        }
        if (k < cap) {
            idx[k] = i;
            n += n < cap;
        }
    }
    return n;
}

/* Place one point's label at the first of `tries` that keeps off the
 * points, the labels and the roof lines; failing that, the first that
 * crosses only a dashed lower roof or the ridge's drop, on a backdrop
 * that hides the dashes.  Left out when neither exists. */
static void
roof_label(struct pr_canvas *c, const struct frame *f,
           const struct pr_chart_roofline *s, double top, struct placed *pl,
           const char *t, const struct box2 *tries, size_t n)
{
    struct pr_style bg = {PR_COLOR_BG, PR_COLOR_NONE, 0, 0.85, 0};

    for (int strict = 1; strict >= 0; strict--) {
        for (size_t k = 0; k < n; k++) {
            const struct box2 *b = &tries[k];
            if (crosses_roofs(f, s, top, b, strict) || !place(pl, f, b)) {
                continue;
            }
            if (!strict) {
                c->ops->rect(c, b->x - 1, b->y, b->w + 2, b->h, &bg);
            }
            text(c, b->x, b->y + b->h - 3, t, FONT_TICK, PR_COLOR_INK,
                 PR_ANCHOR_START, 0);
            return;
        }
    }
}

static void
roof_labels(struct pr_canvas *c, const struct frame *f,
            const struct pr_chart_roofline *s, double top, struct placed *pl)
{
    size_t idx[32], n = heaviest(s, idx, s->n_labels < 32 ? s->n_labels : 32);
    double wmax = 0;
    char cut[LABEL_MAX];

    for (size_t i = 0; i < s->n_points; i++) {
        wmax = fmax(wmax, s->points[i].weight);
    }
    for (size_t i = 0; i < n; i++) {
        const struct pr_chart_point *p = &s->points[idx[i]];
        const char *t = fit(c, p->label, FONT_TICK, 150, cut, sizeof(cut));
        double w = width(c, t, FONT_TICK, 0), h = FONT_TICK + 2;
        double r = point_radius(p, wmax), x = fx(f, p->x), y = fy(f, p->y);
        /* beside, above and below the point, then off its corners */
        struct box2 tries[8] = {{x + r + 3, y - h / 2, w, h},
                                {x - r - 3 - w, y - h / 2, w, h},
                                {x - w / 2, y - r - 2 - h, w, h},
                                {x - w / 2, y + r + 2, w, h},
                                {x + r, y + r, w, h},
                                {x + r, y - r - h, w, h},
                                {x - r - w, y + r, w, h},
                                {x - r - w, y - r - h, w, h}};
        roof_label(c, f, s, top, pl, t, tries, 8);
    }
}

void
pr_chart_roofline(struct pr_canvas *c, const struct pr_chart_box *b,
                  const struct pr_chart_roofline *s)
{
    struct axis ax, ay;
    struct frame f;
    struct placed pl;
    double y = b->y + title(c, b, s->title), top = 0, x0, x1, y0, y1;

    for (size_t i = 0; i < s->n_roofs; i++) {
        top = fmax(top, s->roofs[i].tflops);
    }
    if (!(top > 0)) {
        top = 1;
    }
    y += legend(c, b->x, y, b->w, s->legend, s->n_legend, NULL, 1) + 4;
    roof_window(s, top, &x0, &x1, &y0, &y1);
    axis_log(&ax, x0, x1);
    axis_log(&ay, y0, y1);
    f.ax = &ax;
    f.ay = &ay;
    f.x = b->x + y_margin(c, &ay) + 14;
    f.w = b->x + b->w - f.x - 4;
    f.y = y + 6;
    f.h = b->y + b->h - 36 - f.y;
    pl.n = 0;
    draw_y_grid(c, &f);
    draw_x_grid(c, &f, 1);
    text(c, f.x + f.w / 2, b->y + b->h - 4, "Arithmetic intensity (FLOP/byte)",
         FONT_TICK, PR_COLOR_MUTED, PR_ANCHOR_MIDDLE, 0);
    struct pr_text_style yl = {FONT_TICK, PR_COLOR_MUTED, PR_ANCHOR_MIDDLE, 0,
                               90};
    c->ops->text(c, b->x + 9, f.y + f.h / 2, "TFLOP/s", &yl);
    roof_lines(c, &f, s, top);
    roof_points(c, &f, s, &pl);
    roof_names(c, &f, s, &pl);
    if (s->peak_gbps > 0) {
        slope_label(c, &f, s, top, &pl);
    }
    roof_labels(c, &f, s, top, &pl);
}

/* --- horizontal bars */

/* The frame of a chart of labelled rows (bars, lanes): labels in the lw
 * left of the box, the value axis ax along x to `right` short of its
 * right edge, from y down to the tick labels; the x grid drawn. */
static void
row_frame(struct pr_canvas *c, struct frame *f, struct axis *ax,
          struct axis *ay, const struct pr_chart_box *b, double lw,
          double right, double y)
{
    memset(ay, 0, sizeof(*ay));
    f->ax = ax;
    f->ay = ay;
    f->x = b->x + lw;
    f->w = b->x + b->w - f->x - right;
    f->y = y;
    f->h = b->y + b->h - 20 - f->y;
    draw_x_grid(c, f, 1);
}

/* Whether form f (of labels[i]) reads like another label's form. */
static int
form_taken(char **forms, const char *const *labels, size_t n, size_t i,
           const char *f)
{
    for (size_t j = 0; j < n; j++)
        if (j != i && forms[j] != NULL && strcmp(forms[j], f) == 0 &&
            strcmp(labels[j] != NULL ? labels[j] : "",
                   labels[i] != NULL ? labels[i] : "") != 0)
            return 1;
    return 0;
}

/* Each label at the widest of pr_shorten_distinct's forms, from `best`
 * code points up to `hi`, that fits max_w points on its own and reads
 * like no other label's: one width for all let the label whose form
 * is widest in points cut every other (df_index's PDF "ncclKernel_All…
 * _RING_LL_Sum_float" read "ncclKernel…_LL_Sum_float" beside a
 * "vectorized…<…CUDAFunctor_add…>").  forms[] (best's) replaced in
 * place; on out-of-memory the canvas marked failed (a report must not
 * differ for want of memory: test_nomem). */
static void
widen_labels(struct pr_canvas *c, const char *const *labels, size_t n,
             size_t n_others, double max_w, size_t best, size_t hi,
             char **forms)
{
    char **try = calloc(n ? n : 1, sizeof(*try));

    if (try == NULL) {
        c->failed = 1;
        return;
    }
    if (hi > best + 64)
        hi = best + 64; /* a label column holds no more */
    for (size_t w = best + 1; w <= hi; w++) {
        if (pr_shorten_names(labels, n + n_others, n, w, try, 1) != 0) {
            c->failed = 1;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (try[i] != NULL && strcmp(try[i], forms[i]) != 0 &&
                pr_shorten_width(try[i]) > pr_shorten_width(forms[i]) &&
                width(c, try[i], FONT_TICK, 0) <= max_w &&
                !form_taken(forms, labels, n, i, try[i])) {
                free(forms[i]);
                forms[i] = try[i];
                try[i] = NULL;
            }
        }
        pr_shorten_free(try, n);
    }
    free(try);
}

/* The bars' labels as they fit in max_w points and read apart (review-3
 * finding 6: five of nsys's "Top kernels" bars read "elementwise_kernel<…>"
 * beside a table that told them apart): the widest forms of
 * pr_shorten_names (told apart from labels[n .. n + n_others) too: the
 * rest of the run's kernels, review 26g #8) that all fit, found by binary
 * search over the width in characters, then each widened on its own
 * (widen_labels); NULL where none does (each label then fit()s on its
 * own) or on out-of-memory (the canvas marked failed). */
static char **
distinct_labels(struct pr_canvas *c, const char *const *labels, size_t n,
                size_t n_others, double max_w)
{
    size_t lo = 8, hi = 8, i, best = 0, top;
    char **forms = calloc(n ? n : 1, sizeof(*forms));
    char **try = calloc(n ? n : 1, sizeof(*try));

    if (forms == NULL || try == NULL) {
        free(forms);
        free(try);
        c->failed = 1;
        return NULL;
    }
    for (i = 0; i < n; i++) {
        if (labels[i] != NULL && pr_shorten_width(labels[i]) > hi)
            hi = pr_shorten_width(labels[i]);
    }
    hi = hi > (LABEL_MAX - 8) / 4 ? (LABEL_MAX - 8) / 4 : hi;
    top = hi;
    while (lo <= hi) {
        size_t mid = lo + (hi - lo) / 2;
        int fits = 1;

        if (pr_shorten_names(labels, n + n_others, n, mid, try, 1) != 0) {
            c->failed = 1;
            break;
        }
        for (i = 0; i < n && fits; i++)
            fits = width(c, try[i], FONT_TICK, 0) <= max_w;
        if (fits) {
            pr_shorten_free(forms, n);
            memcpy(forms, try, n * sizeof(*try));
            memset(try, 0, n * sizeof(*try));
            best = mid;
            lo = mid + 1;
        } else {
            pr_shorten_free(try, n);
            hi = mid - 1;
        }
    }
    free(try);
    if (best == 0 || c->failed) {
        pr_shorten_free(forms, n);
        free(forms);
        return NULL;
    }
    widen_labels(c, labels, n, n_others, max_w, best, top, forms);
    return forms;
}

void
pr_chart_hbars(struct pr_canvas *c, const struct pr_chart_box *b,
               const struct pr_chart_hbars *s)
{
    struct axis ax, ay;
    struct frame f;
    double y = b->y + title(c, b, s->title), lw = 0, max = 0, row;
    char cut[LABEL_MAX], val[48], **forms;
    int fits;

    y += legend(c, b->x, y, b->w, s->legend, s->n_legend, NULL, 1) + 4;
    for (size_t i = 0; i < s->n; i++) {
        lw = fmax(lw, width(c, s->labels[i], FONT_TICK, 0));
        max = fmax(max, s->values[i]);
    }
    /* labels that all fit are drawn as they are: the shortener's forms
       are for names too long for the column (review 25g #12: the PDF's
       "Idle host", "Idle gaps", "Idle other" drawn "Idl…host" ...) */
    fits = lw <= b->w * 0.38;
    lw = fmin(lw, b->w * 0.38) + 8; /* the label ends 8 left of the bars */
    axis_linear(&ax, s->unit, 0, max > 0 ? max * 1.12 : 1, 6);
    row_frame(c, &f, &ax, &ay, b, lw, 12, y);
    if (s->n == 0 || f.h <= 0) {
        return;
    }
    row = f.h / (double)s->n;
    forms =
        fits ? NULL : distinct_labels(c, s->labels, s->n, s->n_others, lw - 8);
    for (size_t i = 0; i < s->n; i++) {
        double v = s->values[i] > 0 ? s->values[i] : 0;
        double ry = f.y + row * (double)i, bh = fmin(row * 0.7, 18);
        double bw = fx(&f, v) - f.x;
        size_t ci = s->color_index ? s->color_index[i] : 0;
        pr_chart_format(s->values[i], s->unit, val, sizeof(val));
        group_named(c, s->labels[i], val);
        text(c, f.x - 8, ry + row / 2 + 3.5,
             forms != NULL
                 ? forms[i]
                 : fit(c, s->labels[i], FONT_TICK, lw - 8, cut, sizeof(cut)),
             FONT_TICK, PR_COLOR_INK, PR_ANCHOR_END, 0);
        rect(c, f.x, ry + (row - bh) / 2, bw, bh, pr_canvas_palette(ci),
             PR_COLOR_NONE);
        text(c, f.x + bw + 4, ry + row / 2 + 3.5, val, FONT_TICK,
             PR_COLOR_MUTED, PR_ANCHOR_START, 0);
        group_end(c);
    }
    if (forms != NULL) {
        pr_shorten_free(forms, s->n);
        free(forms);
    }
    line(c, f.x, f.y, f.x, f.y + f.h, PR_COLOR_MUTED, 1, 0);
}

/* --- timeline */

void
pr_chart_timeline(struct pr_canvas *c, const struct pr_chart_box *b,
                  const struct pr_chart_timeline *s)
{
    struct axis ax, ay;
    struct frame f;
    double y = b->y + title(c, b, s->title), lw = 0, t0 = s->t0_us,
           t1 = s->t1_us, lane_h;
    char cut[LABEL_MAX], val[48];

    y += legend(c, b->x, y, b->w, s->legend, s->n_legend, s->colors, 1) + 4;
    if (t1 <= t0) {
        for (size_t i = 0; i < s->n_spans; i++) {
            double e = s->spans[i].start_us + s->spans[i].dur_us;
            t0 = i ? fmin(t0, s->spans[i].start_us) : s->spans[i].start_us;
            t1 = i ? fmax(t1, e) : e;
        }
    }
    for (size_t i = 0; i < s->n_lanes; i++) {
        lw = fmax(lw, width(c, s->lanes[i], FONT_TICK, 0));
    }
    lw = fmin(lw, b->w * 0.25) + 10;
    axis_linear(&ax, PR_UNIT_US, 0, t1 > t0 ? t1 - t0 : 1, 8);
    row_frame(c, &f, &ax, &ay, b, lw, 8, y);
    if (s->n_lanes == 0 || f.h <= 0) {
        return;
    }
    lane_h = f.h / (double)s->n_lanes;
    for (size_t i = 0; i < s->n_lanes; i++) {
        double ly = f.y + lane_h * (double)i;
        text(c, f.x - 8, ly + lane_h / 2 + 3.5,
             fit(c, s->lanes[i], FONT_TICK, lw - 10, cut, sizeof(cut)),
             FONT_TICK, PR_COLOR_INK, PR_ANCHOR_END, 0);
        line(c, f.x, ly + lane_h, f.x + f.w, ly + lane_h, PR_COLOR_GRID, 1, 0);
    }
    for (size_t i = 0; i < s->n_spans; i++) {
        const struct pr_chart_span *sp = &s->spans[i];
        double x0 = fx(&f, sp->start_us - t0);
        double w = fmax(fx(&f, sp->start_us - t0 + sp->dur_us) - x0, 0.5);
        if (sp->lane >= s->n_lanes) {
            continue;
        }
        pr_chart_format(sp->dur_us, PR_UNIT_US, val, sizeof(val));
        group_named(c, sp->label, val);
        rect(c, x0, f.y + lane_h * (double)sp->lane + lane_h * 0.18, w,
             lane_h * 0.64, pick(s->colors, sp->color_index), PR_COLOR_NONE);
        group_end(c);
    }
}
