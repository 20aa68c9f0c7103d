/* waterfall.c - "where the time went": a waterfall from the baseline's
 * mean step to the current one, one floating bar per breakdown category.
 * Drawn on struct pr_canvas so SVG and PDF show the same picture; the
 * chart library has no waterfall, so it lives with its only user. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "internal.h"

#define SLOWER 0xD55E00u /* vermillion: time added */
#define FASTER 0x009E73u /* bluish green: time saved */
#define TOTAL 0x0072B2u  /* blue: the two totals */
#define WF_MAX 64        /* bars with a value label */

static double
y_of(double v, double lo, double hi, const struct pr_chart_box *p)
{
    return p->y + p->h - (v - lo) / (hi - lo) * p->h;
}

/* Axis range covering every running total, padded, from nice ticks. */
static size_t
axis(const struct pr_dwaterfall *w, double *ticks, size_t cap, double *lo,
     double *hi)
{
    double run = w->start, mn = fmin(w->start, w->end);
    double mx = fmax(w->start, w->end), pad;
    size_t i, n;

    for (i = 0; i < w->n; i++) {
        run += w->deltas[i];
        mn = fmin(mn, run);
        mx = fmax(mx, run);
    }
    pad = (mx - mn) * 0.15 + 1e-9;
    /* start at zero unless that would flatten the steps into slivers */
    mn = mn - pad < (mx - mn) * 2 ? 0 : mn - pad;
    n = pr_chart_ticks(mn, mx + pad, 6, ticks, cap);
    *lo = n > 0 ? ticks[0] : mn;
    *hi = n > 0 ? ticks[n - 1] : mx + pad;
    if (!(*hi > *lo))
        *hi = *lo + 1;
    return n;
}

static void
bar(struct pr_canvas *c, double x, double w, double y0, double y1,
    uint32_t color, const char *tip)
{
    struct pr_style s = {color, PR_COLOR_NONE, 0, 0, 0};
    double top = fmin(y0, y1), h = fmax(fabs(y1 - y0), 0.75);

    if (c->ops->group_begin != NULL)
        c->ops->group_begin(c, tip);
    c->ops->rect(c, x, top, w, h, &s);
    if (c->ops->group_end != NULL)
        c->ops->group_end(c);
}

static void
label(struct pr_canvas *c, double x, double y, const char *text, double size,
      uint32_t color, enum pr_anchor anchor, double rot)
{
    struct pr_text_style t = {size, color, anchor, 0, rot};

    c->ops->text(c, x, y, text, &t);
}

/* Boxes of the value labels drawn so far, so none overlaps another. */
struct labels {
    double x[WF_MAX], y[WF_MAX], w[WF_MAX];
    size_t n;
};

static int
label_free(const struct labels *l, double x, double y, double w)
{
    for (size_t i = 0; i < l->n; i++)
        if (x < l->x[i] + l->w[i] + 3 && l->x[i] < x + w + 3 &&
            fabs(y - l->y[i]) < 11)
            return 0;
    return 1;
}

/* A bar's value: above a rise, below a fall (top to bottom = y0 to y1 on
 * the page), moved a line or two farther out when it would run into a
 * value already drawn (narrow slots, close heights), so none overlap. */
static void
value_label(struct pr_canvas *c, struct labels *l, double cx, double top,
            double bottom, int fall, const char *txt)
{
    double w = c->ops->text_width(c, txt, 9, 0), x = cx - w / 2, y = 0;
    int k;

    for (k = 0; k < 3; k++) {
        y = fall ? bottom + 10 + 11 * k : top - 3 - 11 * k;
        if (label_free(l, x, y, w))
            break;
    }
    label(c, cx, y, txt, 9, PR_COLOR_INK, PR_ANCHOR_MIDDLE, 0);
    if (l->n < WF_MAX) {
        l->x[l->n] = x;
        l->y[l->n] = y;
        l->w[l->n++] = w;
    }
}

/* Every tick in one unit and one number of decimals, the step's ("0 ms,
 * 50 ms, 100 ms", never "50.0 ms" beside "0": review 25u #13). */
static void
tick_text(const double *ticks, size_t n, size_t i, char *buf, size_t cap)
{
    double big = 0, step = n > 1 ? fabs(ticks[1] - ticks[0]) : 0, scale = 1, v;
    const char *unit = "\xc2\xb5s";
    int dec = 0;

    for (size_t k = 0; k < n; k++)
        big = fmax(big, fabs(ticks[k]));
    if (big >= 999.5e3) {
        scale = 1e6;
        unit = "s";
    } else if (big >= 999.5) {
        scale = 1e3;
        unit = "ms";
    }
    /* as many decimals as the step has (2.5 ms: one), at most three */
    while (step > 0 && dec < 3) {
        double x = step / scale * pow(10, dec);
        if (fabs(x - round(x)) < 1e-6 * fmax(1, x))
            break;
        dec++;
    }
    v = ticks[i] / scale;
    if (fabs(v) < 0.5 * pow(10, -dec)) /* no "-0 ms" */
        v = 0;
    snprintf(buf, cap, "%.*f %s", dec, v, unit);
}

void
pr_dwaterfall(struct pr_canvas *c, const struct pr_chart_box *b,
              const struct pr_dwaterfall *w)
{
    double ticks[16], lo, hi, run = w->start, slot, bw;
    struct labels placed = {{0}, {0}, {0}, 0};
    double top = pr_chart_title(c, b, w->title) + 2; /* as every chart's */
    struct pr_chart_box p = {b->x + 56, b->y + top, b->w - 64, b->h - 60 - top};
    struct pr_style grid = {PR_COLOR_NONE, PR_COLOR_GRID, 0.5, 0, 0};
    char txt[64], tip[160];
    size_t i, n = axis(w, ticks, 16, &lo, &hi);

    for (i = 0; i < n; i++) {
        double y = y_of(ticks[i], lo, hi, &p);
        c->ops->line(c, p.x, y, p.x + p.w, y, &grid);
        tick_text(ticks, n, i, txt, sizeof(txt));
        label(c, p.x - 4, y + 3, txt, PR_CHART_FONT_TICK, PR_COLOR_MUTED,
              PR_ANCHOR_END, 0);
    }
    slot = p.w / (double)(w->n + 2);
    bw = slot * 0.7;
    for (i = 0; i < w->n + 2; i++) {
        double x = p.x + slot * (double)i + (slot - bw) / 2, v0, v1;
        const char *name = i == 0          ? "Baseline"
                           : i == w->n + 1 ? "Current"
                                           : w->labels[i - 1];
        uint32_t col = TOTAL;
        if (i == 0 || i == w->n + 1) {
            v0 = lo;
            v1 = i == 0 ? w->start : w->end;
        } else {
            v0 = run;
            run += w->deltas[i - 1];
            v1 = run;
            col = v1 >= v0 ? SLOWER : FASTER;
        }
        if (i == 0 || i == w->n + 1)
            pr_chart_format(v1, PR_UNIT_US, txt, sizeof(txt));
        else
            pr_dfmt_delta(v1 - v0, "us", txt, sizeof(txt));
        snprintf(tip, sizeof(tip), "%s: %s", name, txt);
        bar(c, x, bw, y_of(v0, lo, hi, &p), y_of(v1, lo, hi, &p), col, tip);
        value_label(c, &placed, x + bw / 2, y_of(fmax(v0, v1), lo, hi, &p),
                    y_of(fmin(v0, v1), lo, hi, &p), v1 < v0, txt);
        label(c, x + bw / 2 + 3, p.y + p.h + 10, name, PR_CHART_FONT_TICK,
              PR_COLOR_MUTED, PR_ANCHOR_END, 35);
    }
}
