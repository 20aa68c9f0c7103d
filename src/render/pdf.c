/* pdf.c - the PDF report.  Walks the summary tree (spec/summary-json.md),
 * never the trace, and lays it out with libharu: a title page, one section
 * per analysis with a bookmark, tables that continue across pages under a
 * repeated header, the charts of chart.c drawn as vectors through
 * pdf_canvas.c, and "page N of M" footers.  The page layout (cursor,
 * headings, tables, fonts, saving) is shared with the diff reports in
 * pdf_doc.c; this file decides what the main report shows. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hpdf.h>

#include "profreport/chart.h"
#include "profreport/pdf_canvas.h"
#include "profreport/pdf_doc.h"
#include "profreport/render.h"
#include "profreport/sget.h"
#include "profreport/tlview.h"

#define MAX_STEP_BARS 64
#define MAX_KERNEL_BARS 15
#define MAX_MEMORY_CHARTS 4

/* ---- summary access: every getter checks the type ---------------------- */

/* ---- charts ----------------------------------------------------------- */

static const char *const breakdown_keys[] = {
    "kernel",  "memcpy",     "memset",   "communication",
    "runtime", "dataloader", "cpu_exec", "other"};
static const char *const breakdown_names[] = {
    "Kernel",  "Memcpy",     "Memset",   "Communication",
    "Runtime", "DataLoader", "CPU Exec", "Other"};
#define N_BREAKDOWN 8

/* One stacked bar per row of an array (at most MAX_STEP_BARS): the bar is
 * named by row[name_key], its segments are row[group][keys[k]] (group NULL:
 * the row itself), absent values count as 0. */
struct stacked_rows {
    const char *title, *y_label;
    const char *name_key, *group;
    const char *const *keys, *const *names;
    size_t n_series;
    double height; /* points */
    const uint32_t *colors; /* n_series, or NULL = palette */
};

static void
chart_stacked_rows(struct pr_pdf_doc *d, const cJSON *rows,
                   const struct stacked_rows *r)
{
    size_t n = pr_sget_len(rows), i = 0, k;
    const char **names;
    double *values;
    const cJSON *row;
    struct pr_chart_stacked s;
    struct pr_chart_box b;

    if (n == 0)
        return;
    if (n > MAX_STEP_BARS)
        n = MAX_STEP_BARS;
    names = calloc(n, sizeof(*names));
    values = calloc(n * r->n_series, sizeof(*values));
    if (names == NULL || values == NULL) {
        pr_pdf_doc_nomem(d);
        goto out;
    }
    cJSON_ArrayForEach(row, rows)
    {
        const cJSON *seg = r->group ? pr_sget(row, r->group) : row;
        if (i == n)
            break;
        names[i] = pr_sget_str(row, r->name_key) ? pr_sget_str(row, r->name_key) : "?";
        for (k = 0; k < r->n_series; k++) {
            double v = pr_sget_num(seg, r->keys[k]);
            values[i * r->n_series + k] = isnan(v) ? 0 : v;
        }
        i++;
    }
    memset(&s, 0, sizeof(s));
    s.title = r->title;
    s.categories = names;
    s.n_categories = i;
    s.series = r->names;
    s.n_series = r->n_series;
    s.values = values;
    s.colors = r->colors;
    s.unit = PR_UNIT_US;
    s.y_label = r->y_label;
    b = pr_pdf_doc_chart_box(d, r->height);
    pr_chart_stacked_bars(&d->pc.canvas, &b, &s);
out:
    free(names);
    free(values);
}

static void
chart_steps(struct pr_pdf_doc *d, const cJSON *steps)
{
    static const struct stacked_rows r = {
        "Step time breakdown", "time per step", "name",      "breakdown_us",
        breakdown_keys,        breakdown_names, N_BREAKDOWN, 190,
        pr_chart_breakdown_colors};

    chart_stacked_rows(d, steps, &r);
}

static void
chart_breakdown(struct pr_pdf_doc *d, const cJSON *step_summary)
{
    const cJSON *bd = pr_sget(step_summary, "breakdown_us");
    double values[N_BREAKDOWN];
    char center[64];
    struct pr_chart_donut s;
    struct pr_chart_box b;
    size_t k;

    if (!cJSON_IsObject(bd))
        return;
    for (k = 0; k < N_BREAKDOWN; k++) {
        double v = pr_sget_num(bd, breakdown_keys[k]);
        values[k] = isnan(v) ? 0 : v;
    }
    memset(&s, 0, sizeof(s));
    s.title = "Mean step: where the time goes";
    s.labels = breakdown_names;
    s.values = values;
    s.colors = pr_chart_breakdown_colors;
    s.n = N_BREAKDOWN;
    s.unit = PR_UNIT_US;
    s.center_value = pr_chart_format(pr_sget_num(step_summary, "mean_us"),
                                     PR_UNIT_US, center, sizeof(center));
    s.center_label = "mean step";
    b = pr_pdf_doc_chart_box(d, 170);
    pr_chart_donut(&d->pc.canvas, &b, &s);
}

/* The representative step's lanes, or the one line saying there are
 * none. */
static void
chart_timeline(struct pr_pdf_doc *d, const cJSON *timeline)
{
    struct pr_tlview tl;
    struct pr_chart_box b;

    if (pr_tlview_build(timeline, &tl, NULL) != PR_OK) {
        pr_pdf_doc_nomem(d);
        return;
    }
    /* keep the heading with its chart: reserve the chart's height */
    pr_pdf_doc_subheading(d, "Timeline of one step",
                          tl.chart.n_lanes ? pr_tlview_height(&tl) + 20 : 60);
    if (tl.chart.n_lanes == 0) {
        pr_pdf_doc_note(d, PR_TLVIEW_EMPTY);
    } else {
        b = pr_pdf_doc_chart_box(d, pr_tlview_height(&tl));
        pr_chart_timeline(&d->pc.canvas, &b, &tl.chart);
    }
    pr_tlview_free(&tl);
}

static void
chart_kernels(struct pr_pdf_doc *d, const cJSON *kernels)
{
    static const char *const legend[] = {"CUDA cores", "tensor cores"};
    size_t n = pr_sget_len(kernels), i = 0;
    const char **labels;
    double *values;
    size_t *colors;
    const cJSON *k;
    struct pr_chart_hbars s;
    struct pr_chart_box b;

    if (n > MAX_KERNEL_BARS)
        n = MAX_KERNEL_BARS;
    if (n == 0)
        return;
    labels = calloc(n, sizeof(*labels));
    values = calloc(n, sizeof(*values));
    colors = calloc(n, sizeof(*colors));
    if (labels == NULL || values == NULL || colors == NULL) {
        pr_pdf_doc_nomem(d);
        goto out;
    }
    cJSON_ArrayForEach(k, kernels)
    {
        double v = pr_sget_num(k, "total_us");
        if (i == n)
            break;
        labels[i] = pr_sget_str(k, "name") ? pr_sget_str(k, "name") : "?";
        values[i] = isnan(v) ? 0 : v;
        colors[i] = cJSON_IsTrue(pr_sget(k, "tensor_cores_used")) ? 1 : 0;
        i++;
    }
    memset(&s, 0, sizeof(s));
    s.title = "Top kernels by total time";
    s.labels = labels;
    s.values = values;
    s.n = i;
    s.color_index = colors;
    s.unit = PR_UNIT_US;
    s.legend = legend;
    s.n_legend = 2;
    b = pr_pdf_doc_chart_box(d, 70 + 16.0 * (double)i);
    pr_chart_hbars(&d->pc.canvas, &b, &s);
out:
    free(labels);
    free(values);
    free(colors);
}

/* Operators with both an intensity and a rate as roofline points, coloured
 * by their bound; returns how many of `cap` were filled. */
static size_t
roofline_points(const cJSON *ops, struct pr_chart_point *pts, size_t cap)
{
    const cJSON *op;
    size_t i = 0;

    cJSON_ArrayForEach(op, ops)
    {
        const char *bound = pr_sget_str(op, "bound");
        if (i == cap)
            break;
        pts[i].label = pr_sget_str(op, "name") ? pr_sget_str(op, "name") : "?";
        pts[i].x = pr_sget_num(op, "arithmetic_intensity");
        pts[i].y = pr_sget_num(op, "achieved_tflops");
        pts[i].weight = pr_sget_num(op, "device_self_us");
        if (isnan(pts[i].x) || isnan(pts[i].y))
            continue; /* not a point */
        if (isnan(pts[i].weight))
            pts[i].weight = 0;
        pts[i].color_index = bound && strcmp(bound, "compute") == 0  ? 0
                             : bound && strcmp(bound, "memory") == 0 ? 1
                                                                     : 2;
        i++;
    }
    return i;
}

/* The roofline of the run's operators under its first device's roofs. */
static void
chart_roofline(struct pr_pdf_doc *d, const cJSON *run, size_t n_points)
{
    static const char *const legend[] = {"compute-bound", "memory-bound",
                                         "unknown"};
    static const char *const roof_keys[] = {"fp64", "fp32", "tf32_tensor",
                                            "bf16_tensor", "fp16_tensor"};
    const cJSON *devs = pr_sget(run, "devices");
    const cJSON *dev = cJSON_IsArray(devs) ? devs->child : NULL;
    struct pr_chart_point *pts = calloc(n_points, sizeof(*pts));
    struct pr_chart_roof roofs[5];
    struct pr_chart_roofline s;
    struct pr_chart_box b;
    size_t i = 0, k;

    if (pts == NULL) {
        pr_pdf_doc_nomem(d);
        return;
    }
    memset(&s, 0, sizeof(s));
    i = roofline_points(pr_sget(run, "operators"), pts, n_points);
    for (k = 0; k < 5; k++) {
        double t = pr_sget_num(pr_sget(dev, "peak_tflops"), roof_keys[k]);
        if (!isnan(t) && t > 0) {
            roofs[s.n_roofs].name = roof_keys[k];
            roofs[s.n_roofs++].tflops = t;
        }
    }
    s.title = "Roofline (operators, first device's peaks)";
    s.points = pts;
    s.n_points = i;
    s.roofs = roofs;
    s.peak_gbps =
        isnan(pr_sget_num(dev, "peak_gbps")) ? 0 : pr_sget_num(dev, "peak_gbps");
    s.n_labels = 8;
    s.legend = legend;
    s.n_legend = 3;
    b = pr_pdf_doc_chart_box(d, 300);
    pr_chart_roofline(&d->pc.canvas, &b, &s);
    free(pts);
}

/* Copy up to n numbers of a JSON array into a new array (non-numbers read
 * as 0).  NULL on out-of-memory. */
static double *
numbers(const cJSON *a, size_t n)
{
    double *v = calloc(n ? n : 1, sizeof(*v));
    const cJSON *e;
    size_t i = 0;

    if (v == NULL)
        return NULL;
    cJSON_ArrayForEach(e, a)
    {
        if (i == n)
            break;
        v[i++] =
            cJSON_IsNumber(e) && isfinite(e->valuedouble) ? e->valuedouble : 0;
    }
    return v;
}

/* Allocated and reserved memory over time for one device. */
static void
chart_memory(struct pr_pdf_doc *d, const cJSON *mdev)
{
    const cJSON *curve = pr_sget(mdev, "curve");
    size_t n = pr_sget_len(pr_sget(curve, "t_us")), i, peak = 0;
    double *t, *alloc, *resv;
    struct pr_chart_series ser[2];
    struct pr_chart_lines s;
    struct pr_chart_box b;
    char title[96], mark[64], val[48];

    if (pr_sget_len(pr_sget(curve, "allocated_bytes")) < n)
        n = pr_sget_len(pr_sget(curve, "allocated_bytes"));
    if (n < 2)
        return;
    t = numbers(pr_sget(curve, "t_us"), n);
    alloc = numbers(pr_sget(curve, "allocated_bytes"), n);
    resv = numbers(pr_sget(curve, "reserved_bytes"), n);
    if (t == NULL || alloc == NULL || resv == NULL) {
        pr_pdf_doc_nomem(d);
        goto out;
    }
    for (i = 1; i < n; i++)
        if (alloc[i] > alloc[peak])
            peak = i;
    memset(ser, 0, sizeof(ser));
    memset(&s, 0, sizeof(s));
    ser[0].name = "allocated";
    ser[0].x = t;
    ser[0].y = alloc;
    ser[0].n = n;
    ser[0].color = pr_canvas_palette(0);
    ser[0].fill = 1;
    ser[0].step = 1;
    ser[1] = ser[0];
    ser[1].name = "reserved";
    ser[1].y = resv;
    ser[1].color = pr_canvas_palette(1);
    ser[1].fill = 0;
    snprintf(title, sizeof(title), "Memory over time: %s",
             pr_sget_str(mdev, "device") ? pr_sget_str(mdev, "device") : "?");
    snprintf(mark, sizeof(mark), "peak %s",
             pr_chart_format(alloc[peak], PR_UNIT_BYTES, val, sizeof(val)));
    s.title = title;
    s.series = ser;
    s.n_series = pr_sget_len(pr_sget(curve, "reserved_bytes")) >= n ? 2 : 1;
    s.x_unit = PR_UNIT_US;
    s.y_unit = PR_UNIT_BYTES;
    s.x_label = "time since the first event";
    s.y_label = "memory";
    s.mark_x = t[peak];
    s.mark_y = alloc[peak];
    s.mark_label = mark;
    b = pr_pdf_doc_chart_box(d, 200);
    pr_chart_line(&d->pc.canvas, &b, &s);
out:
    free(t);
    free(alloc);
    free(resv);
}

/* Computation / overlap / communication / other per worker. */
static void
chart_distributed(struct pr_pdf_doc *d, const cJSON *workers)
{
    static const char *const keys[] = {"computation_us", "overlap_us",
                                       "communication_us", "other_us"};
    static const char *const names[] = {"Computation", "Overlap",
                                        "Communication", "Other"};
    static const struct stacked_rows r = {"Time per step by worker",
                                          "time per step",
                                          "worker",
                                          NULL,
                                          keys,
                                          names,
                                          4,
                                          210,
                                          pr_chart_overlap_colors};

    chart_stacked_rows(d, workers, &r);
}

/* ---- key figures ------------------------------------------------------ */

struct figure {
    const char *label;
    char value[48];
};

/* A row of boxes, each with one big number and a label. */
static void
figures(struct pr_pdf_doc *d, const struct figure *f, size_t n)
{
    double w = pr_pdf_doc_width(d) / (double)n, h = 44;
    size_t i;

    pr_pdf_doc_ensure(d, h + 14);
    for (i = 0; i < n; i++) {
        double x = PR_PDF_MARGIN_X + w * (double)i;
        pr_pdf_doc_fill(d, x + 2, d->y, w - 4, h, PR_PDF_C_ZEBRA);
        pr_pdf_doc_fill(d, x + 2, d->y, 3, h, PR_PDF_C_ACCENT);
        pr_pdf_doc_put(d, x + 12, d->y + 21, f[i].value, 15, 1, PR_PDF_C_TEXT,
                       PR_ANCHOR_START);
        pr_pdf_doc_clipped(d, x + 12, d->y + 35, w - 20, f[i].label, 7.5, 0,
                           PR_PDF_C_MUTED);
    }
    d->y += h + 16;
}

static void
figure_set(struct figure *f, const char *label, double v, enum pr_unit u)
{
    f->label = label;
    pr_chart_format(v, u, f->value, sizeof(f->value));
}

/* An optional sub-heading, then the caption and, when there are rows, the
 * table: the frame of nearly every table in the report. */
static void
table_block(struct pr_pdf_doc *d, const char *heading, const cJSON *rows,
            const char *what, const char *order, const struct pr_pdf_col *cols,
            size_t n_cols)
{
    if (heading != NULL)
        pr_pdf_doc_subheading(d, heading, 60);
    if (pr_pdf_doc_caption(d, rows, what, order))
        pr_pdf_doc_table(d, cols, n_cols, rows, (size_t)d->top, NULL);
}

/* ---- sections --------------------------------------------------------- */

static const struct pr_pdf_col step_cols[] = {
    {"Steps", "count", PR_PDF_K_INT, 1},
    {"Mean", "mean_us", PR_PDF_K_US, 1},
    {"Median", "median_us", PR_PDF_K_US, 1},
    {"p90", "p90_us", PR_PDF_K_US, 1},
    {"Min", "min_us", PR_PDF_K_US, 1},
    {"Max", "max_us", PR_PDF_K_US, 1},
};

static const struct pr_pdf_col gpu_cols[] = {
    {"Device", "device", PR_PDF_K_TEXT, 0.8},
    {"GPU utilization", "utilization_pct", PR_PDF_K_PCT, 1.2},
    {"Est. SM efficiency", "est_sm_efficiency_pct", PR_PDF_K_PCT, 1.2},
    {"Est. achieved occupancy", "est_achieved_occupancy_pct", PR_PDF_K_PCT,
     1.5},
    {"Kernel time", "kernel_time_us", PR_PDF_K_US, 1.1},
};

static const struct pr_pdf_col device_cols[] = {
    {"Id", "id", PR_PDF_K_TEXT, 0.4},
    {"Name", "name", PR_PDF_K_NAME, 2.4},
    {"SMs", "num_sms", PR_PDF_K_INT, 0.5},
    {"Arch", "architecture", PR_PDF_K_TEXT, 0.6},
    {"Memory", "memory_bytes", PR_PDF_K_BYTES, 0.9},
    {"FP32 peak", "peak_tflops.fp32", PR_PDF_K_TFLOPS, 1.1},
    {"FP16 TC peak", "peak_tflops.fp16_tensor", PR_PDF_K_TFLOPS, 1.1},
    {"Bandwidth", "peak_gbps", PR_PDF_K_GBPS, 1},
    {"Peaks from", "peak_source", PR_PDF_K_TEXT, 0.8},
};

static void
sec_overview(struct pr_pdf_doc *d, const cJSON *run, const char *title)
{
    const cJSON *ss = pr_sget(run, "step_summary");
    const cJSON *gm = pr_sget(run, "gpu_metrics");
    struct figure f[4];
    double mean = pr_sget_num(ss, "mean_us");

    pr_pdf_doc_section(d, title);
    figure_set(&f[0], "steps", pr_sget_num(ss, "count"), PR_UNIT_COUNT);
    figure_set(&f[1], "mean step time", mean, PR_UNIT_US);
    figure_set(&f[2], "GPU utilization",
               pr_sget_num(cJSON_IsArray(gm) ? gm->child : NULL, "utilization_pct"),
               PR_UNIT_PCT);
    figure_set(&f[3], "of the mean step in kernels",
               100.0 * pr_sget_num(pr_sget(ss, "breakdown_us"), "kernel") / mean,
               PR_UNIT_PCT);
    figures(d, f, 4);
    pr_pdf_doc_subheading(d, "Step time", 60);
    if (!cJSON_IsObject(ss))
        pr_pdf_doc_note(d, "No step data in this summary.");
    pr_pdf_doc_table(d, step_cols, 6, ss, 1, NULL);
    chart_steps(d, pr_sget(run, "steps"));
    chart_breakdown(d, ss);
    chart_timeline(d, pr_sget(run, "timeline"));
    table_block(d, "GPU metrics", gm, "GPU metrics", NULL, gpu_cols, 5);
    table_block(d, "Devices", pr_sget(run, "devices"), "devices", NULL, device_cols,
                9);
}

static const struct pr_pdf_col op_cols[] = {
    {"Operator", "name", PR_PDF_K_NAME, 3.2},
    {"Calls", "calls", PR_PDF_K_INT, 0.7},
    {"Device self", "device_self_us", PR_PDF_K_US, 1},
    {"Device total", "device_total_us", PR_PDF_K_US, 1},
    {"Host self", "host_self_us", PR_PDF_K_US, 1},
    {"Host total", "host_total_us", PR_PDF_K_US, 1},
    {"TC eligible", "tc_eligible", PR_PDF_K_BOOL, 0.8},
    {"TC self", "tc_self_pct", PR_PDF_K_PCT, 0.7},
};

static const struct pr_pdf_col op_shape_cols[] = {
    {"Operator", "name", PR_PDF_K_NAME, 2.2},
    {"Input shapes", "input_shapes", PR_PDF_K_NAME, 2.2},
    {"Calls", "calls", PR_PDF_K_INT, 0.7},
    {"Device self", "device_self_us", PR_PDF_K_US, 1},
    {"Device total", "device_total_us", PR_PDF_K_US, 1},
    {"Host self", "host_self_us", PR_PDF_K_US, 1},
    {"TC self", "tc_self_pct", PR_PDF_K_PCT, 0.7},
};

static void
sec_operators(struct pr_pdf_doc *d, const cJSON *run, const char *title)
{
    const cJSON *ops = pr_sget(run, "operators");
    const cJSON *by_shape = pr_sget(run, "operators_by_shape");

    pr_pdf_doc_section(d, title);
    table_block(d, "By name", ops, "operators", "device self time", op_cols, 8);
    table_block(d, "By name and input shape", by_shape, "operator shapes",
                "device self time", op_shape_cols, 7);
}

static const struct pr_pdf_col kernel_cols[] = {
    {"Kernel", "name", PR_PDF_K_NAME, 2.65},
    {"Operator", "operator", PR_PDF_K_TEXT, 1.4},
    {"Calls", "calls", PR_PDF_K_INT, 0.6},
    {"Total", "total_us", PR_PDF_K_US, 0.9},
    {"Mean", "mean_us", PR_PDF_K_US, 0.8},
    {"Min", "min_us", PR_PDF_K_US, 0.8},
    {"Max", "max_us", PR_PDF_K_US, 0.8},
    {"Blocks/SM", "mean_blocks_per_sm", PR_PDF_K_NUM, 0.8},
    {"Occupancy", "mean_est_achieved_occupancy_pct", PR_PDF_K_PCT, 1.25},
    {"TC", "tensor_cores_used", PR_PDF_K_BOOL, 0.5},
};

static void
sec_kernels(struct pr_pdf_doc *d, const cJSON *run, const char *title)
{
    const cJSON *kernels = pr_sget(run, "kernels");

    pr_pdf_doc_section(d, title);
    if (!pr_pdf_doc_caption(d, kernels, "kernels", "total time"))
        return;
    chart_kernels(d, kernels);
    pr_pdf_doc_table(d, kernel_cols, 10, kernels, (size_t)d->top, NULL);
}

static const struct pr_pdf_col finding_cols[] = {
    {"Operator", "operator", PR_PDF_K_NAME, 1.5},
    {"Input shapes", "input_shapes", PR_PDF_K_NAME, 1.6},
    {"Device time", "device_us", PR_PDF_K_US, 0.9},
    {"Why not on tensor cores", "reason", PR_PDF_K_WRAP, 2},
    {"Advice", "advice", PR_PDF_K_WRAP, 2},
};

static void
sec_tensor_cores(struct pr_pdf_doc *d, const cJSON *run, const char *title)
{
    const cJSON *tc = pr_sget(run, "tensor_cores");
    struct figure f[3];

    pr_pdf_doc_section(d, title);
    if (!cJSON_IsObject(tc)) {
        pr_pdf_doc_note(d, "No tensor-core data in this summary.");
        return;
    }
    figure_set(&f[0], "of kernel time in tensor-core kernels",
               pr_sget_num(tc, "tc_kernel_time_pct"), PR_UNIT_PCT);
    figure_set(&f[1], "of operator time is tensor-core eligible",
               pr_sget_num(tc, "eligible_op_time_pct"), PR_UNIT_PCT);
    figure_set(&f[2], "of eligible time ran on tensor cores",
               pr_sget_num(tc, "eligible_on_tc_pct"), PR_UNIT_PCT);
    figures(d, f, 3);
    table_block(d, "Eligible operators not using tensor cores",
                pr_sget(tc, "findings"), "findings", "device time", finding_cols,
                5);
}

static const struct pr_pdf_col roofline_cols[] = {
    {"Operator", "name", PR_PDF_K_NAME, 2.3},
    {"FLOPs", "flops", PR_PDF_K_FLOPS, 1},
    {"Bytes", "bytes", PR_PDF_K_BYTES, 0.9},
    {"Intensity", "arithmetic_intensity", PR_PDF_K_AI, 1.15},
    {"Achieved", "achieved_tflops", PR_PDF_K_TFLOPS, 1.15},
    {"Bandwidth", "achieved_gbps", PR_PDF_K_GBPS, 1.05},
    {"Bound", "bound", PR_PDF_K_TEXT, 0.8},
    {"Of roofline", "roofline_pct", PR_PDF_K_PCT, 0.8},
};

static void
sec_roofline(struct pr_pdf_doc *d, const cJSON *run, const char *title)
{
    const cJSON *ops = pr_sget(run, "operators");
    const cJSON *op;
    size_t n = 0;

    pr_pdf_doc_section(d, title);
    cJSON_ArrayForEach(op, ops)
    {
        if (!isnan(pr_sget_num(op, "arithmetic_intensity")) &&
            !isnan(pr_sget_num(op, "achieved_tflops")))
            n++;
    }
    if (n == 0) {
        pr_pdf_doc_note(
            d, "No operator has FLOP and byte estimates, so there is no "
               "roofline to draw.");
        return;
    }
    chart_roofline(d, run, pr_sget_len(ops));
    pr_pdf_doc_subheading(d, "Operators with FLOP estimates", 60);
    pr_pdf_doc_note(
        d, "Ordered by device self time; operators without a FLOP formula "
           "are left out.");
    pr_pdf_doc_table(d, roofline_cols, 8, ops, (size_t)d->top, "flops");
}

static const struct pr_pdf_col mem_peak_cols[] = {
    {"Device", "device", PR_PDF_K_TEXT, 1},
    {"Peak allocated", "peak_allocated_bytes", PR_PDF_K_BYTES, 1},
    {"Peak reserved", "peak_reserved_bytes", PR_PDF_K_BYTES, 1},
};

static const struct pr_pdf_col mem_op_cols[] = {
    {"Device", "device", PR_PDF_K_TEXT, 0.6},
    {"Operator", "name", PR_PDF_K_NAME, 2.4},
    {"Calls", "calls", PR_PDF_K_INT, 0.6},
    {"Size increase", "size_increase_bytes", PR_PDF_K_BYTES, 1},
    {"Self increase", "self_size_increase_bytes", PR_PDF_K_BYTES, 1},
    {"Allocs", "allocation_count", PR_PDF_K_INT, 0.7},
    {"Self allocs", "self_allocation_count", PR_PDF_K_INT, 0.7},
    {"Alloc size", "allocation_size_bytes", PR_PDF_K_BYTES, 0.9},
    {"Self alloc size", "self_allocation_size_bytes", PR_PDF_K_BYTES, 1},
};

static void
sec_memory(struct pr_pdf_doc *d, const cJSON *run, const char *title)
{
    const cJSON *mem = pr_sget(run, "memory");
    const cJSON *devs = pr_sget(mem, "devices");
    const cJSON *dev;
    size_t n = 0;

    pr_pdf_doc_section(d, title);
    if (!cJSON_IsObject(mem)) {
        pr_pdf_doc_note(d, "No memory data in this summary (profile with "
                           "profile_memory=True).");
        return;
    }
    table_block(d, NULL, devs, "memory devices", NULL, mem_peak_cols, 3);
    cJSON_ArrayForEach(dev, devs)
    {
        if (n++ == MAX_MEMORY_CHARTS || pr_pdf_doc_failed(d))
            break;
        chart_memory(d, dev);
    }
    table_block(d, "Operators by memory use", pr_sget(mem, "operators"),
                "operators", "size increase", mem_op_cols, 9);
}

static const struct pr_pdf_col worker_cols[] = {
    {"Worker", "worker", PR_PDF_K_NAME, 2},
    {"Rank", "rank", PR_PDF_K_TEXT, 0.5},
    {"Computation", "computation_us", PR_PDF_K_US, 1},
    {"Overlap", "overlap_us", PR_PDF_K_US, 1},
    {"Communication", "communication_us", PR_PDF_K_US, 1},
    {"Other", "other_us", PR_PDF_K_US, 1},
};

static const struct pr_pdf_col comm_cols[] = {
    {"Collective", "name", PR_PDF_K_NAME, 2},
    {"Calls", "calls", PR_PDF_K_INT, 0.6},
    {"Total bytes", "total_bytes", PR_PDF_K_BYTES, 1},
    {"Total time", "total_us", PR_PDF_K_US, 1},
    {"Mean", "mean_us", PR_PDF_K_US, 0.9},
    {"Algorithm bw", "algbw_gbps", PR_PDF_K_GBPS, 1},
    {"Bus bw", "busbw_gbps", PR_PDF_K_GBPS, 1},
};

static const struct pr_pdf_col straggler_cols[] = {
    {"Worker", "worker", PR_PDF_K_NAME, 1},
    {"Why", "reason", PR_PDF_K_WRAP, 3},
};

static void
sec_distributed(struct pr_pdf_doc *d, const cJSON *dist)
{
    struct figure f[1];

    pr_pdf_doc_section(d, "Distributed");
    if (!cJSON_IsObject(dist)) {
        pr_pdf_doc_note(d,
                        "Not a distributed run: the summary has no distributed "
                        "data.");
        return;
    }
    figure_set(&f[0], "ranks (world size)", pr_sget_num(dist, "world_size"),
               PR_UNIT_COUNT);
    figures(d, f, 1);
    chart_distributed(d, pr_sget(dist, "workers"));
    table_block(d, "Workers (per step, averaged)", pr_sget(dist, "workers"),
                "workers", NULL, worker_cols, 6);
    table_block(d, "Collectives", pr_sget(dist, "comm_ops"), "collectives",
                "total time", comm_cols, 7);
    table_block(d, "Stragglers", pr_sget(dist, "stragglers"), "stragglers", NULL,
                straggler_cols, 2);
}

static uint32_t
severity_color(const char *sev)
{
    if (sev && strcmp(sev, "critical") == 0)
        return 0xD55E00u; /* vermillion */
    if (sev && strcmp(sev, "warning") == 0)
        return 0xE69F00u; /* orange */
    return PR_PDF_C_ACCENT;
}

static void
recommendation(struct pr_pdf_doc *d, const cJSON *rec)
{
    const char *sev = pr_sget_str(rec, "severity");
    const char *text = pr_sget_str(rec, "text");

    pr_pdf_doc_ensure(d, 30);
    pr_pdf_doc_fill(d, PR_PDF_MARGIN_X, d->y, 3, 12, severity_color(sev));
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X + 8, d->y + 9, sev ? sev : "note", 8, 1,
                   severity_color(sev), PR_ANCHOR_START);
    pr_pdf_doc_clipped(
        d, PR_PDF_MARGIN_X + 64, d->y + 9, pr_pdf_doc_width(d) - 64,
        pr_sget_str(rec, "id") ? pr_sget_str(rec, "id") : "", 8, 0, PR_PDF_C_MUTED);
    d->y += 14;
    pr_pdf_doc_paragraph(d, 8, text ? text : "", PR_PDF_BODY_SIZE,
                         PR_PDF_C_TEXT);
    d->y += 4;
}

static void
sec_recommendations(struct pr_pdf_doc *d, const cJSON *runs)
{
    const cJSON *run, *rec;
    size_t n_runs = pr_sget_len(runs), n = 0;

    pr_pdf_doc_section(d, "Recommendations");
    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *recs = pr_sget(run, "recommendations");
        if (n_runs > 1)
            pr_pdf_doc_subheading(
                d, pr_sget_str(run, "worker") ? pr_sget_str(run, "worker") : "?", 40);
        if (!cJSON_IsArray(recs)) {
            pr_pdf_doc_note(d, "No recommendation data in this summary.");
            continue;
        }
        cJSON_ArrayForEach(rec, recs)
        {
            if (pr_pdf_doc_failed(d))
                return;
            recommendation(d, rec);
            n++;
        }
        if (pr_sget_len(recs) == 0)
            pr_pdf_doc_note(d, "Nothing to recommend: no rule fired.");
    }
    if (n_runs == 0)
        pr_pdf_doc_note(d, "The summary holds no runs.");
}

static const struct pr_pdf_col diag_cols[] = {
    {"Count", "count", PR_PDF_K_INT, 0.6},
    {"Kind", "kind", PR_PDF_K_TEXT, 1.4},
    {"What was skipped or guessed", "text", PR_PDF_K_WRAP, 4},
};

/* Problems in the input that were counted instead of failing the run
 * (STYLE.md "Data quality").  The key is optional: without it in any run
 * there is no section. */
static void
sec_data_quality(struct pr_pdf_doc *d, const cJSON *runs)
{
    const cJSON *run;
    int any = 0;

    cJSON_ArrayForEach(run, runs)
    {
        if (cJSON_IsArray(pr_sget(run, "diagnostics")))
            any = 1;
    }
    if (!any)
        return;
    pr_pdf_doc_section(d, "Data quality");
    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *diags = pr_sget(run, "diagnostics");
        if (pr_pdf_doc_failed(d))
            return;
        if (pr_sget_len(runs) > 1)
            pr_pdf_doc_subheading(
                d, pr_sget_str(run, "worker") ? pr_sget_str(run, "worker") : "?", 40);
        if (pr_sget_len(diags) == 0)
            pr_pdf_doc_note(d, "No problems recorded in the input.");
        else
            pr_pdf_doc_table(d, diag_cols, 3, diags, (size_t)d->top, NULL);
    }
}

/* ---- title page ------------------------------------------------------- */

static const struct pr_pdf_col input_cols[] = {
    {"File", "path", PR_PDF_K_FILE, 3},
    {"Format", "format", PR_PDF_K_TEXT, 0.8},
    {"Worker", "worker", PR_PDF_K_TEXT, 1.2},
    {"Size", "bytes", PR_PDF_K_BYTES, 0.9},
    {"Events", "events", PR_PDF_K_INT, 0.9},
};

static const struct pr_pdf_col worker_dev_cols[] = {
    {"Worker", "worker", PR_PDF_K_NAME, 1.4},
    {"Span", "span", PR_PDF_K_TEXT, 1},
    {"Rank", "rank", PR_PDF_K_TEXT, 0.5},
    {"Device", "device", PR_PDF_K_NAME, 2.4},
    {"CC", "cc", PR_PDF_K_TEXT, 0.5},
    {"Memory", "memory", PR_PDF_K_BYTES, 0.8},
};

/* Copy `v` (may be NULL: nothing to copy) into r[key]; 0 on failure. */
static int
add_copy(cJSON *r, const char *key, const cJSON *v)
{
    cJSON *c;

    if (v == NULL)
        return 1;
    c = cJSON_Duplicate(v, 1);
    return c != NULL && cJSON_AddItemToObject(r, key, c);
}

/* The title page's row for one device of a run (dev may be NULL). */
static cJSON *
worker_device_row(const cJSON *run, const cJSON *dev)
{
    cJSON *r = cJSON_CreateObject();
    char name[200];

    if (r == NULL)
        return NULL;
    if (dev == NULL)
        snprintf(name, sizeof(name), "%s", PR_PDF_DASH);
    else
        snprintf(name, sizeof(name), "%.0f: %s",
                 isnan(pr_sget_num(dev, "id")) ? -1 : pr_sget_num(dev, "id"),
                 pr_sget_str(dev, "name") ? pr_sget_str(dev, "name") : "?");
    if (!add_copy(r, "worker", pr_sget(run, "worker")) ||
        !add_copy(r, "span", pr_sget(run, "span")) ||
        !add_copy(r, "rank", pr_sget(run, "rank")) ||
        !add_copy(r, "cc", pr_sget(dev, "compute_capability")) ||
        !add_copy(r, "memory", pr_sget(dev, "memory_bytes")) ||
        cJSON_AddStringToObject(r, "device", name) == NULL) {
        cJSON_Delete(r);
        return NULL;
    }
    return r;
}

/* One row per (run, device) for the title page; a run without devices
 * gets one row.  Returns an owned array, NULL on out-of-memory. */
static cJSON *
worker_device_rows(const cJSON *runs)
{
    cJSON *rows = cJSON_CreateArray();
    const cJSON *run, *dev;

    if (rows == NULL)
        return NULL;
    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *devs = pr_sget(run, "devices");
        dev = cJSON_IsArray(devs) ? devs->child : NULL;
        do {
            cJSON *r = worker_device_row(run, dev);
            if (r == NULL || !cJSON_AddItemToArray(rows, r)) {
                cJSON_Delete(r);
                cJSON_Delete(rows);
                return NULL;
            }
            dev = dev ? dev->next : NULL;
        } while (dev != NULL);
    }
    return rows;
}

static void
title_page(struct pr_pdf_doc *d, const cJSON *summary, const char *version)
{
    const cJSON *inputs = pr_sget(summary, "inputs");
    const cJSON *runs = pr_sget(summary, "runs");
    char line[128], num[48];
    cJSON *rows;

    d->y = 150;
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, d->y, "Profiling report", 30, 1,
                   PR_PDF_C_TEXT, PR_ANCHOR_START);
    d->y += 24;
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, d->y,
                   "PyTorch profiler traces, analysed by profreport", 12, 0,
                   PR_PDF_C_MUTED, PR_ANCHOR_START);
    d->y += 16;
    pr_pdf_doc_hline(d, PR_PDF_MARGIN_X, d->pw - PR_PDF_MARGIN_X, d->y,
                     PR_PDF_C_ACCENT, 2);
    d->y += 20;
    pr_pdf_doc_info_line(d, "Generated",
                         pr_pdf_doc_iso_date(d, line, sizeof(line)));
    snprintf(line, sizeof(line), "profreport %s", version);
    pr_pdf_doc_info_line(d, "Tool", line);
    snprintf(line, sizeof(line), "%zu files", pr_sget_len(inputs));
    pr_pdf_doc_info_line(d, "Inputs", line);
    snprintf(line, sizeof(line), "%zu (worker, span) runs", pr_sget_len(runs));
    pr_pdf_doc_info_line(d, "Runs", line);
    pr_pdf_doc_info_line(
        d, "Distributed",
        cJSON_IsObject(pr_sget(summary, "distributed"))
            ? pr_chart_format(
                  pr_sget_num(pr_sget(summary, "distributed"), "world_size"),
                  PR_UNIT_COUNT, num, sizeof(num))
            : "no");
    d->y += 14;
    table_block(d, "Inputs", inputs, "input files", NULL, input_cols, 5);
    pr_pdf_doc_subheading(d, "Workers and devices", 60);
    rows = worker_device_rows(runs);
    if (rows == NULL) {
        pr_pdf_doc_nomem(d);
        return;
    }
    table_block(d, NULL, rows, "devices", NULL, worker_dev_cols, 6);
    cJSON_Delete(rows);
}

/* ---- document --------------------------------------------------------- */

typedef void (*section_fn)(struct pr_pdf_doc *d, const cJSON *run,
                           const char *title);

/* The per-run sections; with several runs they nest under a bookmark per
 * run and their titles name the worker. */
static void
run_sections(struct pr_pdf_doc *d, const cJSON *run, size_t n_runs)
{
    static const struct {
        const char *name;
        section_fn fn;
    } secs[] = {
        {"Overview", sec_overview}, {"Operators", sec_operators},
        {"Kernels", sec_kernels},   {"Tensor cores", sec_tensor_cores},
        {"Roofline", sec_roofline}, {"Memory", sec_memory},
    };
    const char *worker = pr_sget_str(run, "worker") ? pr_sget_str(run, "worker") : "?";
    const char *span = pr_sget_str(run, "span") ? pr_sget_str(run, "span") : "";
    char title[192];
    size_t i;

    d->parent = NULL;
    (void)pr_pdf_doc_new_page(
        d); /* each run starts a page; the title page is alone */
    if (n_runs > 1) {
        snprintf(title, sizeof(title), "%s %s", worker, span);
        d->parent = pr_pdf_doc_bookmark(d, NULL, title);
        if (d->parent)
            HPDF_Outline_SetOpened(d->parent, HPDF_TRUE);
    }
    for (i = 0; i < sizeof(secs) / sizeof(*secs) && !pr_pdf_doc_failed(d);
         i++) {
        if (n_runs > 1)
            snprintf(title, sizeof(title), "%s: %s", secs[i].name, worker);
        else
            snprintf(title, sizeof(title), "%s", secs[i].name);
        secs[i].fn(d, run, title);
    }
    d->parent = NULL;
}

static void
build(struct pr_pdf_doc *d, const cJSON *summary, const char *version)
{
    const cJSON *runs = pr_sget(summary, "runs");
    const cJSON *run;
    size_t n_runs = pr_sget_len(runs);

    if (pr_pdf_doc_new_page(d) != 0)
        return;
    (void)pr_pdf_doc_bookmark(d, NULL, "Title page");
    title_page(d, summary, version);
    cJSON_ArrayForEach(run, runs)
    {
        if (pr_pdf_doc_failed(d))
            return;
        run_sections(d, run, n_runs);
    }
    if (!pr_pdf_doc_failed(d))
        sec_distributed(d, pr_sget(summary, "distributed"));
    if (!pr_pdf_doc_failed(d))
        sec_recommendations(d, runs);
    if (!pr_pdf_doc_failed(d))
        sec_data_quality(d, runs);
    if (!pr_pdf_doc_failed(d))
        pr_pdf_doc_footers(d, "Profiling report", version);
}

enum pr_status
pr_pdf_render(const cJSON *summary, const struct pr_render_opts *o,
              const char *path, struct pr_error *err)
{
    struct pr_error local;
    struct pr_pdf_doc d;
    struct pr_pdf_setup s;
    enum pr_status st;

    if (err == NULL) {
        pr_error_clear(&local);
        err = &local;
    }
    if (!cJSON_IsObject(summary))
        return pr_error_set(err, PR_E_FORMAT, "summary is not an object");
    memset(&d, 0, sizeof(d));
    memset(&s, 0, sizeof(s));
    s.title = "Profiling report";
    s.version =
        o->version ? o->version : pr_sget_str(pr_sget(summary, "tool"), "version");
    if (s.version == NULL)
        s.version = "?";
    s.font = o->font;
    s.paper = o->paper;
    s.generated_at = o->generated_at;
    s.top = o->top;
    st = pr_pdf_doc_open(&d, &s, err);
    if (st == PR_OK) {
        build(&d, summary, s.version);
        st = pr_pdf_doc_save(&d, path);
    }
    pr_pdf_doc_close(&d);
    return st;
}
