/* sec_job.c - the report's job overview (issue #18): for a summary of
 * several ranks, one section for the whole job drawn from summary["job"]
 * (job.h): step time per rank, the slowest and the median rank, a rank x
 * step heatmap, the slowest ranks and the operator and kernel tables
 * aggregated over ranks.  The per-run sections that follow show only the
 * detail ranks the report view chose (detail.h). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/detail.h"
#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/sget.h"

/* ---- the heatmap chart ------------------------------------------------ */

struct heat {
    const char *title;
    int capture; /* no rank has steps: a cell is a rank's capture */
    const char **rows, **cols; /* labels, borrowed from the summary */
    size_t n_rows, n_cols;
    const double *v; /* n_rows x n_cols, NAN = no step there */
    double lo, hi;
    size_t n_over; /* cells above hi, drawn in PR_HEAT_OVER */
};

/* A cell outside the colour scale (a warm-up step of 2.4 s beside steady
 * steps of 180 ms): one colour off the ramp, named in the legend. */
#define PR_HEAT_OVER 0xD55E00u

/* Every k-th label, so that labels of `size` points a `gap` apart fit. */
static size_t
label_every(size_t n, double room, double each)
{
    size_t k = 1;

    while (k < n && (double)(n / k) * each > room)
        k++;
    return k;
}

/* The ramp's legend at (x, y), and the count of cells off the scale
 * beside it, or under it where that would run past `right` (review32a
 * #8: ms_cluster4's PDF page 4 cut it at "3 cells, ke"). */
static void
heat_legend(struct pr_canvas *c, double x, double y, double right,
            const struct heat *h)
{
    char a[48], b[48], text[128];

    snprintf(text, sizeof(text), "%s  to  %s%s (max in a cell)",
             pr_chart_format(h->lo, PR_UNIT_US, a, sizeof(a)),
             pr_chart_format(h->hi, PR_UNIT_US, b, sizeof(b)),
             h->capture ? "" : " per step");
    pr_chart_ramp_legend(c, x, y, text);
    if (h->n_over > 0) {
        struct pr_style st = {PR_HEAT_OVER, PR_COLOR_NONE, 0, 0, 0};
        struct pr_text_style ts = {PR_CHART_FONT_TICK, PR_COLOR_MUTED,
                                   PR_ANCHOR_START, 0, 0};
        double at =
            x + 128 + c->ops->text_width(c, text, PR_CHART_FONT_TICK, 0) + 16;

        snprintf(text, sizeof(text), "over %s: %zu %s, kept off the scale", b,
                 h->n_over, h->n_over == 1 ? "cell" : "cells");
        if (at + 14 + c->ops->text_width(c, text, PR_CHART_FONT_TICK, 0) >
            right) {
            at = x;
            y += PR_CHART_FONT_TICK + 4;
        }
        c->ops->rect(c, at, y, 10, PR_CHART_FONT_TICK, &st);
        c->ops->text(c, at + 14, y + PR_CHART_FONT_TICK - 1.5, text, &ts);
    }
}

static void
heat_cell(struct pr_canvas *c, const struct heat *h, size_t r, size_t k,
          double x, double y, double w, double hh)
{
    double v = h->v[r * h->n_cols + k];
    struct pr_style st = {
        isnan(v)    ? PR_COLOR_GRID
        : v > h->hi ? PR_HEAT_OVER
                    : pr_canvas_ramp(
                          h->hi > h->lo ? (v - h->lo) / (h->hi - h->lo) : 0.5),
        PR_COLOR_NONE, 0, 0, 0};
    char tip[400], a[48];

    if (c->ops->group_begin != NULL && !isnan(v)) {
        snprintf(tip, sizeof(tip), "%s, %s: %s%s", h->rows[r], h->cols[k],
                 pr_chart_format(v, PR_UNIT_US, a, sizeof(a)),
                 v > h->hi ? " (over the colour scale)" : "");
        c->ops->group_begin(c, tip);
    }
    c->ops->rect(c, x, y, w, hh, &st);
    if (c->ops->group_begin != NULL && !isnan(v))
        c->ops->group_end(c);
}

/* Rank names on the left (as wide as the widest, within a third of the
 * chart), step names under the cells, each every k-th where they would
 * crowd; type as in every other chart (chart.h). */
static void
draw_heat(struct pr_canvas *c, const struct pr_chart_box *b, const void *spec)
{
    const struct heat *h = spec;
    struct pr_text_style lab = {PR_CHART_FONT_TICK, PR_COLOR_MUTED,
                                PR_ANCHOR_END, 0, 0};
    double top = b->y + pr_chart_title(c, b, h->title) + 4, left = 0;
    double bottom = b->y + b->h - 2 * PR_CHART_FONT_TICK - 20, widest = 0;
    double cw, rh = (bottom - top) / (double)h->n_rows;
    size_t kr = label_every(h->n_rows, bottom - top, PR_CHART_FONT_TICK + 2);
    size_t kc;

    for (size_t r = 0; r < h->n_rows; r++)
        left = fmax(left, c->ops->text_width(c, h->rows[r], lab.size, 0));
    left = b->x + fmin(left + 8, b->w / 3);
    cw = (b->x + b->w - 10 - left) / (double)h->n_cols;
    for (size_t k = 0; k < h->n_cols; k++)
        widest = fmax(widest, c->ops->text_width(c, h->cols[k], lab.size, 0));
    kc = label_every(h->n_cols, b->x + b->w - 10 - left, widest + 8);
    for (size_t r = 0; r < h->n_rows; r++) {
        double y = top + (double)r * rh;
        for (size_t k = 0; k < h->n_cols; k++)
            heat_cell(c, h, r, k, left + (double)k * cw, y, cw, rh);
        if (r % kr == 0)
            c->ops->text(c, left - 4, y + rh / 2 + lab.size / 3, h->rows[r],
                         &lab);
    }
    lab.anchor = PR_ANCHOR_START;
    for (size_t k = 0; k < h->n_cols; k += kc)
        c->ops->text(c, left + (double)k * cw, bottom + PR_CHART_FONT_TICK + 2,
                     h->cols[k], &lab);
    heat_legend(c, left, bottom + PR_CHART_FONT_TICK + 8, b->x + b->w, h);
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* The colour scale spans the steady cells (review 25u #12: ms_cluster4's
 * warm-up steps of 2.2-2.4 s on a linear 178 ms..2.38 s ramp left every
 * steady step of 178-181 ms one pale colour): its top is the largest cell
 * within Q3 + 3 x max(IQR, 5% of the median), a cell above it is drawn in
 * PR_HEAT_OVER and counted in the legend. */
static void
steady_scale(struct heat *h, const double *v, size_t n)
{
    double *s = malloc(n * sizeof(*s)), q1, q3, med, fence, top = -INFINITY;
    size_t m = 0;

    if (s == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            s[m++] = v[i];
    if (m >= 4) {
        qsort(s, m, sizeof(*s), cmp_double);
        q1 = s[m / 4];
        q3 = s[(3 * m) / 4];
        med = s[m / 2];
        fence = q3 + 3 * fmax(q3 - q1, 0.05 * med);
        for (size_t i = 0; i < m; i++)
            if (s[i] <= fence)
                top = s[i];
            else
                h->n_over++;
        if (h->n_over > 0 && isfinite(top))
            h->hi = top;
        else
            h->n_over = 0;
    }
    free(s);
}

/* The chart of job.heatmap, or NULL when it has no cell. */
static struct pr_fig_chart *
heat_chart(const cJSON *hm, int capture)
{
    const cJSON *rows = pr_sget(hm, PR_K_ROWS),
                *vals = pr_sget(hm, PR_K_VALUES_US);
    const cJSON *cols = pr_sget(hm, PR_K_STEPS), *e;
    size_t nr = pr_sget_len(rows), nc = pr_sget_len(cols), i = 0;
    struct pr_fig_chart *ch;
    struct heat *h;
    double *vals_buf, height = 70 + 14.0 * (double)(nr < 8    ? 8
                                                    : nr > 40 ? 40
                                                              : nr);

    if (nr == 0 || nc == 0 || pr_sget_len(vals) != nr)
        return NULL;
    ch = pr_fig_chart_new(draw_heat,
                          capture ? "Capture time by rank"
                                  : "Step time by rank and step",
                          960, height, height * 0.8);
    h = calloc(1, sizeof(*h));
    if (ch == NULL || h == NULL) {
        free(h);
        pr_fig_chart_free(ch);
        return NULL;
    }
    ch->own[0] = h;
    ch->own[1] = h->rows = calloc(nr, sizeof(*h->rows));
    ch->own[2] = h->cols = calloc(nc, sizeof(*h->cols));
    ch->own[3] = vals_buf = calloc(nr * nc, sizeof(double));
    h->v = vals_buf;
    if (h->rows == NULL || h->cols == NULL || vals_buf == NULL) {
        pr_fig_chart_free(ch);
        return NULL;
    }
    h->title = capture ? "Capture time by rank" : "Step time by rank and step";
    h->capture = capture;
    h->n_rows = nr;
    h->n_cols = nc;
    h->lo = INFINITY;
    h->hi = -INFINITY;
    cJSON_ArrayForEach(e, rows) h->rows[i++] =
        pr_sget_str_or(e, PR_K_LABEL, "");
    i = 0;
    cJSON_ArrayForEach(e, cols) h->cols[i++] =
        cJSON_IsString(e) ? e->valuestring : "";
    for (size_t r = 0; r < nr; r++) {
        const cJSON *row = cJSON_GetArrayItem(vals, (int)r);
        for (size_t k = 0; k < nc; k++) {
            const cJSON *x = cJSON_GetArrayItem(row, (int)k);
            double v = cJSON_IsNumber(x) ? x->valuedouble : NAN;
            vals_buf[r * nc + k] = v;
            if (!isnan(v) && v < h->lo)
                h->lo = v;
            if (!isnan(v) && v > h->hi)
                h->hi = v;
        }
    }
    if (!isfinite(h->lo)) {
        pr_fig_chart_free(ch);
        return NULL;
    }
    steady_scale(h, vals_buf, nr * nc);
    /* The ramp spans at least a tenth of the longest step, so that steps
     * equal within noise are drawn in (nearly) one colour. */
    h->lo = fmax(0, fmin(h->lo, h->hi * 0.9));
    ch->spec = h;
    return ch;
}

/* ---- step time per rank ----------------------------------------------- */

struct pt {
    double x, y;
};

static int
cmp_pt(const void *a, const void *b)
{
    const struct pt *p = a, *q = b;

    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->y > q->y) - (p->y < q->y);
}

static void
sort_points(double *x, double *y, size_t n)
{
    struct pt *p = malloc((n ? n : 1) * sizeof(*p));

    if (p == NULL)
        return; /* drawn unsorted rather than not at all */
    for (size_t i = 0; i < n; i++)
        p[i] = (struct pt){x[i], y[i]};
    qsort(p, n, sizeof(*p), cmp_pt);
    for (size_t i = 0; i < n; i++) {
        x[i] = p[i].x;
        y[i] = p[i].y;
    }
    free(p);
}

/* job.per_rank as typed rows (rows.h), owned (free()); none where the
 * table cannot be read (a saved summary's was read whole when loaded). */
static struct pr_row_job_rank *
per_rank_rows(const cJSON *job, size_t *n)
{
    void *v = NULL;
    struct pr_error err = {PR_OK, ""};

    if (pr_rows_load(pr_sget(job, PR_K_PER_RANK), "job.per_rank",
                     PR_RO_JOB_PER_RANK, &v, n, &err) != PR_OK) {
        *n = 0;
        return NULL;
    }
    return v;
}

/* Mean step time against the rank (the run's position when ranks are not
 * known): stragglers stand out. */
static struct pr_fig_chart *
rank_dots(const cJSON *job, int capture, int mixed)
{
    size_t n, i = 0, k;
    struct pr_row_job_rank *v = per_rank_rows(job, &n);
    struct pr_fig_chart *ch = pr_fig_chart_new(
        pr_fig_draw_lines,
        capture ? "Capture time per rank" : "Mean step time per rank", 960, 260,
        170);
    double *x = calloc(n ? n : 1, sizeof(*x)),
           *y = calloc(n ? n : 1, sizeof(*y));
    struct pr_chart_series *s = calloc(1, sizeof(*s));

    if (ch == NULL || x == NULL || y == NULL || s == NULL) {
        free(v);
        free(x);
        free(y);
        free(s);
        pr_fig_chart_free(ch);
        return NULL;
    }
    ch->own[0] = x;
    ch->own[1] = y;
    ch->own[2] = s;
    for (k = 0; k < n; k++) {
        /* mixed: a rank without steps has no mean step to plot */
        if (isnan(v[k].mean_us) || (mixed && !v[k].has_steps))
            continue;
        x[i] = isnan(v[k].rank) ? v[k].run : v[k].rank;
        y[i++] = v[k].mean_us;
    }
    free(v);
    sort_points(x, y, i); /* by rank */
    /* a dot per rank over a zero baseline: ranks are separate machines,
     * not a trend, and a cut axis would make 0.7% look like a cliff */
    *s = (struct pr_chart_series){
        capture ? "capture" : "mean step", x, y, i, PR_COLOR_NONE, 0, 0, 1};
    ch->u.lines = (struct pr_chart_lines){
        .title = capture ? "Capture time per rank" : "Mean step time per rank",
        .series = s,
        .n_series = 1,
        .x_unit = PR_UNIT_COUNT,
        .y_unit = PR_UNIT_US,
        .x_label = "rank",
        .y_label = capture ? "capture" : "mean step",
        .y_max = 0};
    ch->spec = &ch->u.lines;
    return i >= 2 ? ch : (pr_fig_chart_free(ch), NULL);
}

/* ---- tables ----------------------------------------------------------- */

static const struct pr_col rank_cols[] = {
    {"worker", PR_K_WORKER, "Worker", PR_FMT_NAME, 2, NULL, PR_COL_BOTH},
    {"rank", PR_K_RANK, "Rank", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"steps", PR_K_STEPS, "Steps", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"mean", PR_K_MEAN_US, "Mean step", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"median", PR_K_MEDIAN_US, "Median step", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"max", PR_K_MAX_US, "Longest step", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"vs_median", PR_K_VS_MEDIAN_PCT, "vs median rank", PR_FMT_PCT, 0.9,
     "mean step against the median rank's", PR_COL_BOTH},
    {"comm", PR_K_COMMUNICATION_PCT, "Communication", PR_FMT_PCT, 0.9,
     "communication-only time per step, share of the mean step", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* The ranks of a job where some ranks have steps and others do not: a
 * rank without steps has one window, its capture, in the mean's column
 * (its step columns empty: slowest_rows), so the headings fit both
 * (issue #29). */
static const struct pr_col mixed_cols[] = {
    {"worker", PR_K_WORKER, "Worker", PR_FMT_NAME, 2, NULL, PR_COL_BOTH},
    {"rank", PR_K_RANK, "Rank", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"steps", PR_K_STEPS, "Steps", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"mean", PR_K_MEAN_US, "Mean step or capture", PR_FMT_US, 1,
     "a rank's mean step; a rank without steps: its capture, its one window",
     PR_COL_BOTH},
    {"median", PR_K_MEDIAN_US, "Median step", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"max", PR_K_MAX_US, "Longest step", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"vs_median", PR_K_VS_MEDIAN_PCT, "vs median rank", PR_FMT_PCT, 0.9,
     "mean step against the median rank's (ranks with steps)", PR_COL_BOTH},
    {"comm", PR_K_COMMUNICATION_PCT, "Communication", PR_FMT_PCT, 0.9,
     "communication-only time, share of the mean step (a rank without "
     "steps: of its capture)",
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* The ranks of a job without steps: one window each, the capture, so
 * its one figure (Mean step, in the capture's words) */
static const char *const capture_hide[] = {"steps", "median", "max", NULL};
static const char *const capture_hide_rank[] = {"rank", "steps", "median",
                                                "max", NULL};

static const struct pr_col agg_op_cols[] = {
    {"name", PR_K_NAME, "Operator", PR_FMT_NAME, 3, NULL, PR_COL_BOTH},
    {"ranks", PR_K_RANKS, "Ranks", PR_FMT_COUNT, 0.65, "ranks that ran it",
     PR_COL_BOTH},
    {"mean", PR_K_MEAN_DEVICE_SELF_US, "Mean device self", PR_FMT_US, 1,
     "over all ranks (a rank without it counts 0)", PR_COL_BOTH},
    {"min", PR_K_MIN_DEVICE_SELF_US, "Min", PR_FMT_US, 0.8, NULL, PR_COL_BOTH},
    {"max", PR_K_MAX_DEVICE_SELF_US, "Max", PR_FMT_US, 0.8, NULL, PR_COL_BOTH},
    {"spread", PR_K_SPREAD_PCT, "Spread", PR_FMT_PCT, 0.7,
     "(max - min) / mean across ranks", PR_COL_BOTH},
    {"max_worker", PR_K_MAX_WORKER, "Max on", PR_FMT_NAME, 1,
     "the rank with the Max (where one rank ran it, that rank)", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* Whether the job's operator rows hold no device self time at all
 * (every row's max 0 or null): 0 without rows. */
static int
no_self_time(const cJSON *rows)
{
    const cJSON *r;

    if (pr_sget_len(rows) == 0)
        return 0;
    cJSON_ArrayForEach(r, rows)
    {
        if (pr_sget_num(r, PR_K_MAX_DEVICE_SELF_US) > 0)
            return 0;
    }
    return 1;
}

static const struct pr_col agg_kernel_cols[] = {
    {"name", PR_K_NAME, "Kernel", PR_FMT_NAME, 3, NULL, PR_COL_BOTH},
    {"ranks", PR_K_RANKS, "Ranks", PR_FMT_COUNT, 0.65, "ranks that ran it",
     PR_COL_BOTH},
    {"mean", PR_K_MEAN_TOTAL_US, "Mean total", PR_FMT_US, 1,
     "over all ranks (a rank without it counts 0)", PR_COL_BOTH},
    {"min", PR_K_MIN_TOTAL_US, "Min", PR_FMT_US, 0.8, NULL, PR_COL_BOTH},
    {"max", PR_K_MAX_TOTAL_US, "Max", PR_FMT_US, 0.8, NULL, PR_COL_BOTH},
    {"spread", PR_K_SPREAD_PCT, "Spread", PR_FMT_PCT, 0.7,
     "(max - min) / mean across ranks", PR_COL_BOTH},
    {"max_worker", PR_K_MAX_WORKER, "Max on", PR_FMT_NAME, 1,
     "the rank with the Max (where one rank ran it, that rank)", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static int
cmp_slow(const void *a, const void *b)
{
    double x = pr_sget_num(*(cJSON *const *)a, PR_K_MEAN_US);
    double y = pr_sget_num(*(cJSON *const *)b, PR_K_MEAN_US);
    /* the ranks with steps first: a capture is no step to rank by, nor
       operator totals (no capture time either: last, review23a #11) */
    int ca = cJSON_IsFalse(pr_sget(*(cJSON *const *)a, PR_K_HAS_STEPS)),
        cb = cJSON_IsFalse(pr_sget(*(cJSON *const *)b, PR_K_HAS_STEPS));

    if (ca != cb)
        return ca - cb;
    if (isnan(x) != isnan(y))
        return isnan(x) ? 1 : -1;
    if (x != y && !isnan(x))
        return x > y ? -1 : 1;
    x = pr_sget_long(*(cJSON *const *)a, PR_K_RUN, -1);
    y = pr_sget_long(*(cJSON *const *)b, PR_K_RUN, -1);
    return (x > y) - (x < y);
}

static int
cmp_run(const void *a, const void *b)
{
    long x = pr_sget_long(*(cJSON *const *)a, PR_K_RUN, -1);
    long y = pr_sget_long(*(cJSON *const *)b, PR_K_RUN, -1);

    return (x > y) - (x < y);
}

/* The ranks, slowest first (rows built here), or in their order where
 * every rank is a capture (by_run: a capture's length is its profiler
 * window, not a speed, review 28g #3); mixed: where some ranks have
 * steps, a rank without them has its capture alone (no step columns). */
static cJSON *
slowest_rows(const cJSON *per_rank, int mixed, int by_run)
{
    size_t n = pr_sget_len(per_rank), i = 0;
    cJSON **v = calloc(n ? n : 1, sizeof(*v)), *rows = cJSON_CreateArray();
    const cJSON *e;

    if (v == NULL || rows == NULL) {
        free(v);
        cJSON_Delete(rows);
        return NULL;
    }
    cJSON_ArrayForEach(e, per_rank) v[i++] = (cJSON *)(uintptr_t)e;
    qsort(v, n, sizeof(*v), by_run ? cmp_run : cmp_slow);
    for (i = 0; i < n; i++) {
        cJSON *d = cJSON_Duplicate(v[i], 1);
        if (d != NULL && mixed && cJSON_IsFalse(pr_sget(d, PR_K_HAS_STEPS))) {
            cJSON_DeleteItemFromObjectCaseSensitive(d, PR_K_STEPS);
            cJSON_DeleteItemFromObjectCaseSensitive(d, PR_K_MEDIAN_US);
            cJSON_DeleteItemFromObjectCaseSensitive(d, PR_K_MAX_US);
        }
        if (d == NULL || !cJSON_AddItemToArray(rows, d)) {
            cJSON_Delete(d);
            cJSON_Delete(rows);
            rows = NULL;
            break;
        }
    }
    free(v);
    return rows;
}

/* The ranks whose mean step leaves out a warm-up first step, with the
 * mean over every step their own parts show (Overview, verdict): the job
 * and the run figures are over different steps, so say which (review-2
 * finding 8).  0 when no rank's first step was left out. */
/* The excluded ranks whose own first step was (judged 1) or was not a
 * warm-up, each with its mean over every step where that differs: "
 * rank2 (576 ms with it), rank3 (619 ms with it)".  How many. */
static size_t
warmup_ranks(const struct pr_row_job_rank *v, size_t m, int judged, char *buf,
             size_t n)
{
    size_t i, k = 0, len;
    char mean[32], steady[32];

    buf[0] = '\0';
    for (i = 0; i < m; i++) {
        if (!v[i].first_step_excluded || !v[i].first_step_warmup != !judged)
            continue;
        pr_fig_format(v[i].run_mean_us, PR_FMT_US, mean, sizeof(mean));
        pr_fig_format(v[i].mean_us, PR_FMT_US, steady, sizeof(steady));
        len = strlen(buf);
        if (k < 8 && strcmp(mean, steady) != 0)
            snprintf(buf + len, n - len, "%s %s (%s with it)", k > 0 ? "," : "",
                     v[i].worker != NULL ? v[i].worker : "?", mean);
        else if (k < 8)
            snprintf(buf + len, n - len, "%s %s", k > 0 ? "," : "",
                     v[i].worker != NULL ? v[i].worker : "?");
        k++;
    }
    len = strlen(buf);
    if (k > 8)
        snprintf(buf + len, n - len, " and %zu more", k - 8);
    return k;
}

static int
warmup_note(const cJSON *job, char *buf, size_t n)
{
    size_t m, k, o, len;
    struct pr_row_job_rank *v = per_rank_rows(job, &m);
    char judged[400], other[400];

    k = warmup_ranks(v, m, 1, judged, sizeof(judged));
    o = warmup_ranks(v, m, 0, other, sizeof(other));
    free(v);
    if (k + o == 0)
        return 0;
    /* the job's one rule leaves every rank's first step out where one
       rank's is a warm-up: name which were (review26a #7: ms_cluster4's
       rank0 first step was its fastest) */
    if (o == 0)
        snprintf(buf, n, "Mean step leaves out the warm-up first step of%s",
                 judged);
    else if (k == 0)
        snprintf(buf, n, "Mean step leaves out the first step of%s", other);
    else
        snprintf(buf, n,
                 "Mean step leaves out every rank's first step, a warm-up "
                 "on%s; on%s it is left out too, to compare like with like",
                 judged, other);
    len = strlen(buf);
    snprintf(buf + len, n - len,
             "; their own parts (Overview, verdict, Critical path) count "
             "every step, and the Communication column is over the same "
             "steps as the mean.");
    return 1;
}

/* ---- the section ------------------------------------------------------ */

/* A job whose report holds some of its ranks (2 of 8): no rank of these
 * is the job's slowest, which may be one of the missing (review-2
 * finding 9). */
static int
job_partial(const cJSON *job)
{
    return cJSON_IsFalse(pr_sget(job, PR_K_RANKS_COMPLETE));
}

/* The slowest-rank card, by the one definition the job uses
 * (slowest_basis): in a pipeline the slowest stage's rank, whose mean
 * step is no longer than the others' (the faster stages wait for it), so
 * the card says so and a note below names the longest mean step. */
static void
slowest_kpi(struct pr_figs *f, const cJSON *job, int capture)
{
    const cJSON *slow = pr_sget(job, PR_K_SLOWEST);
    char sub[160], world[48];

    if (job_partial(job)) {
        pr_detail_world_words(job, world, sizeof(world));
        snprintf(sub, sizeof(sub), "not named: %.0f of %s ranks here",
                 pr_sget_num(job, PR_K_RANKS), world);
        pr_figs_kpi(f, "Slowest rank", NAN, PR_FMT_US, sub);
        return;
    }
    /* none named from profiler windows, nor under the noise floor (job.c,
       review 22g #6) */
    if (!cJSON_IsObject(slow) && capture) {
        pr_figs_kpi(f, "Slowest rank", NAN, PR_FMT_US,
                    "none: no steps, each rank's window is its capture");
        return;
    }
    if (!cJSON_IsObject(slow)) {
        double sp = pr_sget_num(pr_sget(job, PR_K_STEP_US), PR_K_SPREAD_PCT);

        if (sp < PR_JOB_SPREAD_FLOOR_PCT)
            snprintf(sub, sizeof(sub),
                     "none: the mean steps differ by %.2f%%, under the "
                     "%.1f%% noise floor",
                     sp, PR_JOB_SPREAD_FLOOR_PCT);
        else
            snprintf(sub, sizeof(sub), "none: no step time");
        pr_figs_kpi(f, "Slowest rank", NAN, PR_FMT_US, sub);
        return;
    }
    if (pr_sget_is(pr_sget_str(job, PR_K_SLOWEST_BY), "pipeline_stage")) {
        snprintf(sub, sizeof(sub), "%s, of the slowest pipeline stage",
                 pr_sget_str_or(slow, PR_K_WORKER, "?"));
        pr_figs_kpi(f, "Slowest stage's rank", pr_sget_num(slow, PR_K_MEAN_US),
                    PR_FMT_US, sub);
        return;
    }
    snprintf(sub, sizeof(sub), "%s, %+.1f%% vs median; by %s",
             pr_sget_str_or(slow, PR_K_WORKER, "?"),
             pr_sget_num(slow, PR_K_VS_MEDIAN_PCT),
             capture ? "capture time (no steps)" : "mean step");
    pr_figs_kpi(f, "Slowest rank", pr_sget_num(slow, PR_K_MEAN_US), PR_FMT_US,
                sub);
}

/* The rank the others wait for (job.late_rank: the last notify of the
 * ranks' peer-bound collectives, as msprof's slow-rank analysis reads
 * the waits), where the traces name one: where to look first. */
static void
late_kpi(struct pr_figs *f, const cJSON *summary, const cJSON *job)
{
    char sub[160];
    double r = pr_sget_num(job, PR_K_LATE_RANK);

    if (isnan(r))
        return;
    double w = pr_sget_num(job, PR_K_LATE_RANK_WITH);
    int out = cJSON_IsFalse(pr_sget(job, PR_K_LATE_RANK_IN_REPORT));
    size_t n, i;
    struct pr_row_job_rank *v = per_rank_rows(job, &n);
    int w_out = 1;
    const char *when =
        pr_sget_runs_late_first_step_only(pr_sget(summary, PR_K_RUNS))
            ? " in the first step only"
            : "";

    for (i = 0; i < n; i++)
        w_out &= v[i].rank != w;
    free(v);
    /* review 11 #3: CANN 6's rank 3 came 3.1 ms after rank 2 */
    if (!isnan(w))
        snprintf(sub, sizeof(sub),
                 "with rank %.0f close behind: the others wait for both%s%s", w,
                 when,
                 out && w_out   ? "; neither in this report"
                 : out || w_out ? "; one not in this report"
                                : "");
    else
        snprintf(sub, sizeof(sub), "the others wait for it%s%s", when,
                 cJSON_IsFalse(pr_sget(job, PR_K_LATE_RANK_IN_REPORT))
                     ? "; not in this report"
                     : "");
    pr_figs_kpi(f, "Late rank", r, PR_FMT_COUNT, sub);
}

/* The job's step_us and median rank as their typed rows (rows.h): each
 * number NAN, the worker NULL, where the job has none (a job without
 * steps writes median null; a saved job's were read whole when loaded). */
static void
step_rows(const cJSON *job, double *with, double *warm, double *spread,
          double *med_us, const char **med_worker)
{
    struct pr_row_job_step_us d;
    struct pr_row_job_median m;
    struct pr_error err = {PR_OK, ""};
    int hd = pr_rows_read_one(pr_sget(job, PR_K_STEP_US), "job.step_us",
                              PR_RO_JOB_STEP_US, &d, &err) == PR_OK;
    int hm = pr_rows_read_one(pr_sget(job, PR_K_MEDIAN), "job.median",
                              PR_RO_JOB_MEDIAN, &m, &err) == PR_OK;

    *with =
        hd ? pr_rows_num(PR_RO_JOB_STEP_US, &d, PR_K_RANKS_WITH_STEPS) : NAN;
    *warm =
        hd ? pr_rows_num(PR_RO_JOB_STEP_US, &d, PR_K_RANKS_FIRST_STEP_EXCLUDED)
           : NAN;
    *spread = hd ? pr_rows_num(PR_RO_JOB_STEP_US, &d, PR_K_SPREAD_PCT) : NAN;
    *med_us = hm ? pr_rows_num(PR_RO_JOB_MEDIAN, &m, PR_K_MEAN_US) : NAN;
    *med_worker =
        hm && pr_rows_has(PR_RO_JOB_MEDIAN, &m, PR_SR_JOB_MEDIAN_PR_K_WORKER)
            ? m.worker
            : NULL;
}

/* How many ranks' own first step is a warm-up (job.per_rank[]). */
static double
warm_judged(const cJSON *job)
{
    const cJSON *r;
    double n = 0;

    cJSON_ArrayForEach(r, pr_sget(job, PR_K_PER_RANK))
    {
        n += cJSON_IsTrue(pr_sget(r, PR_K_FIRST_STEP_WARMUP));
    }
    return n;
}

static void
job_kpis(struct pr_figs *f, const cJSON *summary, const cJSON *job, int capture)
{
    char sub[200], of[64];
    double with, warm, spread, med_us;
    const char *med_worker;

    step_rows(job, &with, &warm, &spread, &med_us, &med_worker);
    if (capture) /* each rank's one window is its capture */
        snprintf(sub, sizeof(sub), "none with steps: %.0f captures",
                 pr_sget_num(job, PR_K_RANKS));
    else
        snprintf(sub, sizeof(sub), "%.0f with steps", with);
    pr_figs_kpi(f, "Ranks", pr_sget_num(job, PR_K_RANKS), PR_FMT_COUNT, sub);
    /* no steps: no median rank, the captures' length (job.step_us) */
    if (capture && med_worker == NULL)
        pr_figs_kpi(f, "Capture",
                    pr_sget_num(pr_sget(job, PR_K_STEP_US), PR_K_MEDIAN_US),
                    PR_FMT_US,
                    "median over the ranks, each the profiler's window");
    else {
        snprintf(sub, sizeof(sub), "%s of %s",
                 capture ? "capture" : "mean step",
                 med_worker != NULL ? med_worker : "?");
        pr_figs_kpi(f, "Median rank", med_us, PR_FMT_US, sub);
    }
    slowest_kpi(f, job, capture);
    late_kpi(f, summary, job);
    if (job_partial(job))
        snprintf(of, sizeof(of), ", these %.0f", with);
    else
        of[0] = '\0';
    if (isnan(spread))
        snprintf(sub, sizeof(sub), "needs 2 ranks with step markers; %.0f here",
                 with);
    else if (capture && !cJSON_IsObject(pr_sget(job, PR_K_SLOWEST)))
        /* no steps: the spread is of the captures' lengths, and no rank
           is the slowest (review23g item 8) */
        snprintf(sub, sizeof(sub), "(longest - shortest capture) / median%s",
                 of);
    else if (warm > 0 && warm_judged(job) < warm)
        snprintf(sub, sizeof(sub),
                 "(slowest - fastest) / median%s; the first step left out "
                 "on %.0f rank%s (a warm-up on %.0f)",
                 of, warm, warm == 1 ? "" : "s", warm_judged(job));
    else if (warm > 0)
        snprintf(sub, sizeof(sub),
                 "(slowest - fastest) / median%s; the warm-up first step "
                 "left out on %.0f rank%s",
                 of, warm, warm == 1 ? "" : "s");
    else
        snprintf(sub, sizeof(sub), "(slowest - fastest) / median%s", of);
    pr_figs_kpi(f, "Spread across ranks", spread, PR_FMT_PCT, sub);
}

/* A chart that could be drawn; a job without steps has none. */
static void
add_chart(struct pr_figs *f, struct pr_fig_chart *ch)
{
    if (ch != NULL)
        pr_figs_chart(f, ch, 0);
}

/* The ranks left out of the spread for want of step markers, named; 0
 * when none is. */
static int
no_steps_note(const cJSON *job, char *text, size_t cap)
{
    size_t len, n = 0, m, i;
    struct pr_row_job_rank *v = per_rank_rows(job, &m);
    int w;

    w = snprintf(text, cap,
                 "Without step markers (a capture read as one "
                 "window, or operator statistics only), left out "
                 "of the spread and the median: ");
    if (w < 0 || (size_t)w >= cap) {
        free(v);
        return 0;
    }
    len = (size_t)w;
    for (i = 0; i < m; i++) {
        if (v[i].in_spread)
            continue;
        w = snprintf(text + len, cap - len, "%s%s", n++ ? ", " : "",
                     v[i].worker != NULL ? v[i].worker : "?");
        if (w < 0 || (size_t)w >= cap - len - 1)
            break;
        len += (size_t)w;
    }
    free(v);
    if (n > 0 && len + 1 < cap)
        snprintf(text + len, cap - len, ".");
    return n > 0;
}

static int
present(const cJSON *summary)
{
    return cJSON_IsObject(pr_sget(summary, PR_K_JOB));
}

/* What the across-ranks tables compare, where it is not like with like
 * (issue #30 finding 6: cluster_4rank's Receive "spread 91.5%" set a
 * 2.2 s warm-up step and the other stage's ranks against each other):
 * their totals are over every step a rank recorded, warm-up included,
 * and a pipeline's stages run different layers.  1 with the note in
 * text. */
static int
agg_note(const cJSON *job, char *text, size_t cap)
{
    char warm[200] = "";
    size_t len = 0, n = 0, m, i, judged = 0;
    int pipe = pr_sget_is(pr_sget_str(job, PR_K_SLOWEST_BY), "pipeline_stage");
    struct pr_row_job_rank *v = per_rank_rows(job, &m);

    for (i = 0; i < m; i++) {
        if (!v[i].first_step_excluded)
            continue;
        if (len < sizeof(warm))
            len += (size_t)snprintf(warm + len, sizeof(warm) - len, "%s%s",
                                    n ? ", " : "",
                                    v[i].worker != NULL ? v[i].worker : "?");
        n++;
        judged += v[i].first_step_warmup != 0;
    }
    free(v);
    if (n == 0 && !pipe)
        return 0;
    snprintf(
        text, cap,
        "Not like with like: %s%s%s%s%s, so a row's spread "
        "compares different work, not slow ranks; %s.",
        !n            ? ""
        : judged == n ? "these totals count every step a rank recorded, the "
                        "warm-up first step of "
                      : "these totals count every step a rank recorded, the "
                        "first step of ",
        n ? warm : "", n ? " included (the step times above leave it out)" : "",
        n && pipe ? ", and " : "",
        pipe ? "the ranks of different pipeline stages run different "
               "layers and wait in Send and Receive for each other"
             : "",
        pipe ? "compare a row across the ranks of one stage (the "
               "Distributed section's pipeline view)"
             : "compare the steady steps in each rank's own part");
    return 1;
}

/* The runs a row's kind is looked up in: enough to meet every name of
 * a job's tables without a scan of 1,024 runs per row. */
#define LABEL_RUNS 64

/* A collective's row of the across-ranks tables, as the runs' own rows
 * say: an NCCL operator of communication.ops (nccl:all_to_all), a
 * kernel of the NCCL/RCCL library (kernels[].library; HCCL's wait has
 * its own reading: Late rank from its Notify Wait tasks). */
static int
collective_row(const cJSON *runs, const char *name, int ops)
{
    const cJSON *r, *x;
    size_t n = 0;

    if (name == NULL)
        return 0;
    cJSON_ArrayForEach(r, runs)
    {
        if (n++ >= LABEL_RUNS)
            break;
        if (ops) {
            cJSON_ArrayForEach(
                x, pr_sget(pr_sget(r, PR_K_COMMUNICATION), PR_K_OPS))
            {
                if (pr_sget_is(pr_sget_str(x, PR_K_NAME), name))
                    return pr_sget_is(pr_sget_str(x, PR_K_BACKEND), "nccl");
            }
            continue;
        }
        cJSON_ArrayForEach(x, pr_sget(r, PR_K_KERNELS))
        {
            if (pr_sget_is(pr_sget_str(x, PR_K_NAME), name))
                return pr_sget_is(pr_sget_str(x, PR_K_KLIBRARY), "NCCL/RCCL");
        }
    }
    return 0;
}

/* The across-ranks rows with each collective's "Max on" labelled (review
 * 30g #4: nsys_before's "Max on gpu0" for all-to-all sent the reader to
 * the rank that waits, not to the late one): a rank's time in a
 * collective includes its wait for the others to enter, NCCL's inside
 * its kernel.  A copy (NULL out of memory); *n the rows labelled. */
static cJSON *
label_waits(const cJSON *runs, const cJSON *rows, int ops, size_t *n)
{
    cJSON *v = cJSON_Duplicate(rows, 1), *r;

    *n = 0;
    cJSON_ArrayForEach(r, v)
    {
        const char *w = pr_sget_str(r, PR_K_MAX_WORKER);
        char cell[200];

        if (w == NULL || !(pr_sget_num(r, PR_K_RANKS) > 1) ||
            !collective_row(runs, pr_sget_str(r, PR_K_NAME), ops))
            continue;
        snprintf(cell, sizeof(cell), "%s (time incl. wait for peers)", w);
        if (!pr_sput(r, PR_K_MAX_WORKER, cJSON_CreateString(cell))) {
            cJSON_Delete(v);
            return NULL;
        }
        (*n)++;
    }
    return v;
}

/* An across-ranks table, its collectives labelled (label_waits): the
 * rows labelled. */
static size_t
labelled_table(struct pr_figs *f, const cJSON *runs, const char *heading,
               const struct pr_fig_table *t, int ops, const char *empty)
{
    size_t n = 0;
    cJSON *rows;

    if (pr_sget_len(t->rows) == 0) {
        pr_figs_table(f, heading, t, empty);
        return 0;
    }
    rows = label_waits(runs, t->rows, ops, &n);
    pr_figs_heading(f, heading);
    pr_figs_table_own(f, t, rows, empty); /* NULL: f->failed */
    return n;
}

/* A note of head, s and tail, however long s is: the job's notes run to
 * 1,500 characters (npu_db1's late_rank_note, 1,514: a fixed 1,400-byte
 * line cut it at "the rank that wa" in the HTML and the PDF). */
static void
note_joined(struct pr_figs *f, const char *head, const char *s,
            const char *tail)
{
    size_t n = strlen(head) + strlen(s) + strlen(tail) + 1;
    char *text = malloc(n);

    if (text == NULL) {
        f->failed = 1;
        return;
    }
    snprintf(text, n, "%s%s%s", head, s, tail);
    pr_figs_note(f, text);
    free(text);
}

static void
build(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    static const char *const no_rank[] = {"rank", NULL};
    const cJSON *job = pr_sget(summary, PR_K_JOB);
    struct pr_fig_table t = {.cols = rank_cols,
                             .what = "ranks",
                             .order = "mean step, slowest first"};
    char text[1400];
    /* no rank has steps: each one's window is its capture (issue #29) */
    int capture = pr_fig_summary_is_capture(summary);
    int mixed = pr_fig_summary_is_mixed(summary);
    size_t n_ops = 0, n_kernels = 0;

    (void)run;
    if (!cJSON_IsObject(job)) {
        pr_figs_note(f, "One process: no job view.");
        return;
    }
    job_kpis(f, summary, job, capture);
    if (!job_partial(job) &&
        pr_sget_is(pr_sget_str(job, PR_K_SLOWEST_BY), "pipeline_stage") &&
        !cJSON_IsObject(pr_sget(job, PR_K_SLOWEST_BY_MEAN))) {
        /* the means differ by less than the noise floor (job.c) */
        snprintf(text, sizeof(text),
                 "Slowest stage's rank: %s computes longest in the slowest "
                 "pipeline stage, which %s for, so every rank's step is "
                 "about as long (their mean steps differ by less than "
                 "%.1f%%).",
                 pr_sget_str_or(pr_sget(job, PR_K_SLOWEST), PR_K_WORKER, "?"),
                 pr_fig_other_stages(pr_sget(summary, PR_K_DISTRIBUTED)),
                 PR_JOB_SPREAD_FLOOR_PCT);
        pr_figs_note(f, text);
    } else if (!job_partial(job) &&
               pr_sget_is(pr_sget_str(job, PR_K_SLOWEST_BY),
                          "pipeline_stage")) {
        char mean[32];

        pr_fig_format(
            pr_sget_num(pr_sget(job, PR_K_SLOWEST_BY_MEAN), PR_K_MEAN_US),
            PR_FMT_US, mean, sizeof(mean));
        snprintf(text, sizeof(text),
                 "Slowest stage's rank: %s computes longest in the slowest "
                 "pipeline stage, which %s for, so every rank's step is "
                 "about as long; by mean step alone the slowest is %s (%s).",
                 pr_sget_str_or(pr_sget(job, PR_K_SLOWEST), PR_K_WORKER, "?"),
                 pr_fig_other_stages(pr_sget(summary, PR_K_DISTRIBUTED)),
                 pr_sget_str_or(pr_sget(job, PR_K_SLOWEST_BY_MEAN), PR_K_WORKER,
                                "?"),
                 mean);
        pr_figs_note(f, text);
    }
    if (job_partial(job) && pr_sget_str(job, PR_K_COVERAGE_NOTE) != NULL)
        /* a missing late rank is named in the note itself (job.c) */
        note_joined(f, "Coverage: ", pr_sget_str(job, PR_K_COVERAGE_NOTE), ".");
    if (pr_sget_str(job, PR_K_LATE_RANK_NOTE) != NULL)
        note_joined(f, "Late rank: ", pr_sget_str(job, PR_K_LATE_RANK_NOTE),
                    "");
    if (no_steps_note(job, text, sizeof(text)))
        pr_figs_note(f, text);
    if (pr_sget_str(job, PR_K_MIXED_DEVICES_NOTE) != NULL)
        pr_figs_note(f, pr_sget_str(job, PR_K_MIXED_DEVICES_NOTE));
    pr_detail_describe(summary, text, sizeof(text));
    pr_figs_text(f, text);
    /* captures' lengths are their windows: no chart ranks them (review
       28g #3: nsys_before's two 299 ms windows drawn as a slower rank) */
    if (!capture) {
        add_chart(f, rank_dots(job, capture, mixed));
        add_chart(f, heat_chart(pr_sget(job, PR_K_HEATMAP), capture));
    }
    pr_figs_heading(f, "Ranks");
    if (!pr_fig_rows_have(pr_sget(job, PR_K_PER_RANK), PR_K_RANK))
        t.hide = no_rank; /* workers without a rank (Nsight: pids) */
    if (capture) {
        t.capture = 1;
        t.hide = pr_fig_rows_have(pr_sget(job, PR_K_PER_RANK), PR_K_RANK)
                     ? capture_hide
                     : capture_hide_rank;
        t.order = "rank (a capture's length is its profiler window, "
                  "not a speed)";
    }
    if (mixed) {
        t.cols = mixed_cols;
        t.order = "mean step, slowest first; the ranks without steps after "
                  "them, by capture";
    }
    pr_figs_table_own(
        f, &t,
        slowest_rows(pr_sget(job, PR_K_PER_RANK), mixed, capture && !mixed),
        NULL);
    if (warmup_note(job, text, sizeof(text)))
        pr_figs_note(f, text);
    t = (struct pr_fig_table){.cols = agg_op_cols,
                              .rows = pr_sget(job, PR_K_OPERATORS),
                              .what = "operators",
                              .order = "mean device self time over ranks"};
    if (no_self_time(t.rows)) {
        /* torch_npu's operator_details.csv with every Device Self
           Duration 0 (old2023): a ranking by 0 is none (review 22a #13) */
        pr_figs_heading(f, "Operators across ranks");
        pr_figs_note(f, "The ranks' operator tables give no device self "
                        "time (every operator's is 0), so none is ranked "
                        "by it here; each rank's Operators section has "
                        "their device total.");
    } else
        n_ops = labelled_table(f, pr_sget(summary, PR_K_RUNS),
                               "Operators across ranks", &t, 1,
                               "No operators in any rank.");
    t = (struct pr_fig_table){.cols = agg_kernel_cols,
                              .rows = pr_sget(job, PR_K_KERNELS),
                              .what = "kernels",
                              .order = "mean total time over ranks"};
    n_kernels =
        labelled_table(f, pr_sget(summary, PR_K_RUNS), "Kernels across ranks",
                       &t, 0, "No kernels in any rank.");
    /* Late rank is HCCL's Notify Wait reading: named only where one is
       shown (issue #29 review: a 2-GPU nsys DDP export had none) */
    if (n_ops + n_kernels > 0) {
        snprintf(text, sizeof(text),
                 "A collective's time on a rank includes its wait for the "
                 "other ranks to enter it (NCCL waits inside its kernel), so "
                 "its Max is on the rank that waits longest, often the one on "
                 "time, not on a slow rank%s.",
                 isnan(pr_sget_num(job, PR_K_LATE_RANK))
                     ? ""
                     : "; where the ranks share a clock, Late rank above "
                       "splits it into wait and transit");
        pr_figs_note(f, text);
    }
    if (agg_note(job, text, sizeof(text)))
        pr_figs_note(f, text);
}

/* The section: read by the table in sections.c. */
const struct pr_section pr_section_job = {
    .id = "job",
    .title = "Job overview",
    .lede = "The whole job at a glance: step time per rank, where the ranks "
            "differ, and the operators and kernels aggregated over ranks.",
    .per_run = 0,
    .build = build,
    .present = present};
