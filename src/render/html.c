/* html.c - the HTML report: derive a view model (formatted numbers, tables,
 * pre-rendered SVG charts, flags for missing sections) from the summary,
 * then render templates/report.html with it.  Reads only the summary
 * (DESIGN.md); escaping is left to the template engine ({{x}}) and to the
 * SVG backend, so trace strings are never inserted raw. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/chart.h"
#include "profreport/escape.h"
#include "profreport/render.h"
#include "profreport/sget.h"
#include "profreport/svg.h"
#include "profreport/tlview.h"
#include "profreport/tmpl.h"

#define DEFAULT_TOP 50
#define NAME_CHARS 96 /* table cells show this much of a name */
#define CHART_ROWS 15  /* bars in the top-kernels chart */

struct view {
    const struct pr_render_opts *o;
    size_t top;
    size_t n_tables;  /* ids come from counters: deterministic */
    int oom;
    struct pr_error *err;
};

enum col_kind { COL_TEXT, COL_NAME, COL_NUM, COL_GBPS, COL_YESNO };

struct col {
    const char *label;
    const char *key;
    enum col_kind kind;
    enum pr_unit unit;
    const char *help; /* header tooltip, or NULL */
};

/* --- small cJSON helpers: every add checks for out-of-memory once */

static cJSON *
track(struct view *v, cJSON *item)
{
    if (item == NULL) {
        v->oom = 1;
    }
    return item;
}

static cJSON *
add_str(struct view *v, cJSON *obj, const char *key, const char *s)
{
    return track(v, cJSON_AddStringToObject(obj, key, s ? s : ""));
}

static void
add_bool(struct view *v, cJSON *obj, const char *key, int b)
{
    (void)track(v, cJSON_AddBoolToObject(obj, key, b ? 1 : 0));
}

static void
add_null(struct view *v, cJSON *obj, const char *key)
{
    (void)track(v, cJSON_AddNullToObject(obj, key));
}

static cJSON *
add_obj(struct view *v, cJSON *obj, const char *key)
{
    return track(v, cJSON_AddObjectToObject(obj, key));
}

static cJSON *
add_arr(struct view *v, cJSON *obj, const char *key)
{
    return track(v, cJSON_AddArrayToObject(obj, key));
}

static cJSON *
push_obj(struct view *v, cJSON *arr)
{
    cJSON *o = track(v, cJSON_CreateObject());

    if (o != NULL && arr != NULL) {
        cJSON_AddItemToArray(arr, o);
    }
    return arr != NULL ? o : NULL;
}

static void
add_fmt(struct view *v, cJSON *obj, const char *key, double d,
        enum pr_unit unit)
{
    char buf[64];

    add_str(v, obj, key, pr_chart_format(d, unit, buf, sizeof(buf)));
}

/* --- tables */

static void
cell_text(struct view *v, cJSON *cell, const char *t, const char *sort,
          int numeric)
{
    add_str(v, cell, "c_t", t);
    add_str(v, cell, "c_v", sort);
    add_bool(v, cell, "c_num", numeric);
    add_str(v, cell, "c_full", "");
    add_bool(v, cell, "c_mono", 0);
}

static void
cell_name(struct view *v, cJSON *cell, const char *name)
{
    size_t len = strlen(name);
    size_t cut = pr_escape_utf8_prefix(name, len, NAME_CHARS);
    char *shown = malloc(cut + 4);

    if (shown == NULL) {
        v->oom = 1;
        return;
    }
    memcpy(shown, name, cut);
    memcpy(shown + cut, cut < len ? "\xE2\x80\xA6" : "", cut < len ? 4 : 1);
    add_str(v, cell, "c_t", shown);
    add_str(v, cell, "c_v", name);
    add_bool(v, cell, "c_num", 0);
    add_str(v, cell, "c_full", cut < len ? name : "");
    add_bool(v, cell, "c_mono", 1);
    free(shown);
}

static void
cell(struct view *v, cJSON *cells, const cJSON *row, const struct col *c)
{
    cJSON *o = push_obj(v, cells);
    const cJSON *val = pr_sget(row, c->key);
    char buf[64], sort[40] = "";
    double d = pr_sget_num(row, c->key);

    if (o == NULL) {
        return;
    }
    if (c->kind == COL_NAME || c->kind == COL_TEXT) {
        const char *s = cJSON_IsString(val) ? val->valuestring : "\xE2\x80\x93";
        if (c->kind == COL_NAME) {
            cell_name(v, o, s);
        } else {
            cell_text(v, o, s, s, 0);
        }
        return;
    }
    if (c->kind == COL_YESNO) {
        cell_text(v, o, cJSON_IsTrue(val) ? "yes" : "no",
                  cJSON_IsTrue(val) ? "1" : "0", 0);
        return;
    }
    if (!isnan(d)) {
        snprintf(sort, sizeof(sort), "%.10g", d);
    }
    if (c->kind == COL_GBPS && !isnan(d)) {
        snprintf(buf, sizeof(buf), "%.1f GB/s", d);
    } else {
        pr_chart_format(d, c->unit, buf, sizeof(buf));
    }
    cell_text(v, o, buf, sort, 1);
}

/* A table view {id, cols, rows, shown, total, more} from the first
 * v->top objects of `rows` that have a non-null `require` key. */
static cJSON *
add_table(struct view *v, cJSON *parent, const char *key, const cJSON *rows,
          const struct col *cols, size_t n_cols, const char *require)
{
    cJSON *t, *hdr, *body;
    const cJSON *r;
    size_t shown = 0, total = 0;
    char id[32], note[96];

    if (!cJSON_IsArray(rows) || rows->child == NULL) {
        add_null(v, parent, key);
        return NULL;
    }
    t = add_obj(v, parent, key);
    snprintf(id, sizeof(id), "t%zu", ++v->n_tables);
    add_str(v, t, "id", id);
    hdr = add_arr(v, t, "cols");
    for (size_t i = 0; i < n_cols; i++) {
        cJSON *h = push_obj(v, hdr);
        add_str(v, h, "h_label", cols[i].label);
        add_bool(v, h, "h_num", cols[i].kind == COL_NUM ||
                                    cols[i].kind == COL_GBPS);
        add_str(v, h, "h_help", cols[i].help ? cols[i].help : "");
    }
    body = add_arr(v, t, "rows");
    cJSON_ArrayForEach(r, rows)
    {
        if (require != NULL && !cJSON_IsNumber(pr_sget(r, require))) {
            continue;
        }
        if (total++ >= v->top) {
            continue;
        }
        cJSON *cells = add_arr(v, push_obj(v, body), "cells");
        for (size_t i = 0; i < n_cols; i++) {
            cell(v, cells, r, &cols[i]);
        }
        shown++;
    }
    snprintf(note, sizeof(note), "Top %zu of %zu", shown, total);
    add_str(v, t, "more", total > shown ? note : "");
    if (total == 0) {
        cJSON_DeleteItemFromObjectCaseSensitive(parent, key);
        add_null(v, parent, key);
        return NULL;
    }
    return t;
}

static const struct col op_cols[] = {
    {"Operator", "name", COL_NAME, PR_UNIT_NONE, NULL},
    {"Calls", "calls", COL_NUM, PR_UNIT_COUNT, NULL},
    {"Device self", "device_self_us", COL_NUM, PR_UNIT_US,
     "GPU time of kernels launched by this operator itself"},
    {"Device total", "device_total_us", COL_NUM, PR_UNIT_US,
     "GPU time including child operators"},
    {"Host self", "host_self_us", COL_NUM, PR_UNIT_US, NULL},
    {"Host total", "host_total_us", COL_NUM, PR_UNIT_US, NULL},
    {"TC self", "tc_self_pct", COL_NUM, PR_UNIT_PCT,
     "Share of device self time on tensor-core kernels"},
};

static const struct col shape_cols[] = {
    {"Operator", "name", COL_NAME, PR_UNIT_NONE, NULL},
    {"Input shapes", "input_shapes", COL_NAME, PR_UNIT_NONE, NULL},
    {"Calls", "calls", COL_NUM, PR_UNIT_COUNT, NULL},
    {"Device self", "device_self_us", COL_NUM, PR_UNIT_US, NULL},
    {"Device total", "device_total_us", COL_NUM, PR_UNIT_US, NULL},
    {"Host self", "host_self_us", COL_NUM, PR_UNIT_US, NULL},
    {"TC self", "tc_self_pct", COL_NUM, PR_UNIT_PCT, NULL},
};

static const struct col kernel_cols[] = {
    {"Kernel", "name", COL_NAME, PR_UNIT_NONE, NULL},
    {"Operator", "operator", COL_NAME, PR_UNIT_NONE, NULL},
    {"Calls", "calls", COL_NUM, PR_UNIT_COUNT, NULL},
    {"Total", "total_us", COL_NUM, PR_UNIT_US, NULL},
    {"Mean", "mean_us", COL_NUM, PR_UNIT_US, NULL},
    {"Min", "min_us", COL_NUM, PR_UNIT_US, NULL},
    {"Max", "max_us", COL_NUM, PR_UNIT_US, NULL},
    {"Blocks/SM", "mean_blocks_per_sm", COL_NUM, PR_UNIT_NONE, NULL},
    {"Est. occupancy", "mean_est_achieved_occupancy_pct", COL_NUM,
     PR_UNIT_PCT, NULL},
    {"Tensor cores", "tensor_cores_used", COL_YESNO, PR_UNIT_NONE, NULL},
};

static const struct col roof_cols[] = {
    {"Operator", "name", COL_NAME, PR_UNIT_NONE, NULL},
    {"Device self", "device_self_us", COL_NUM, PR_UNIT_US, NULL},
    {"Intensity", "arithmetic_intensity", COL_NUM, PR_UNIT_FLOP_PER_BYTE,
     "FLOPs per byte moved"},
    {"Achieved", "achieved_tflops", COL_NUM, PR_UNIT_TFLOPS, NULL},
    {"Bandwidth", "achieved_gbps", COL_GBPS, PR_UNIT_NONE, NULL},
    {"Bound", "bound", COL_TEXT, PR_UNIT_NONE, NULL},
    {"Of roofline", "roofline_pct", COL_NUM, PR_UNIT_PCT,
     "Achieved / attainable at this intensity"},
};

static const struct col finding_cols[] = {
    {"Operator", "operator", COL_NAME, PR_UNIT_NONE, NULL},
    {"Input shapes", "input_shapes", COL_NAME, PR_UNIT_NONE, NULL},
    {"Device time", "device_us", COL_NUM, PR_UNIT_US, NULL},
    {"Why not", "reason", COL_TEXT, PR_UNIT_NONE, NULL},
    {"Fix", "advice", COL_TEXT, PR_UNIT_NONE, NULL},
};

static const struct col mem_cols[] = {
    {"Device", "device", COL_TEXT, PR_UNIT_NONE, NULL},
    {"Operator", "name", COL_NAME, PR_UNIT_NONE, NULL},
    {"Calls", "calls", COL_NUM, PR_UNIT_COUNT, NULL},
    {"Size increase", "size_increase_bytes", COL_NUM, PR_UNIT_BYTES, NULL},
    {"Self increase", "self_size_increase_bytes", COL_NUM, PR_UNIT_BYTES,
     NULL},
    {"Allocations", "allocation_count", COL_NUM, PR_UNIT_COUNT, NULL},
    {"Allocated", "allocation_size_bytes", COL_NUM, PR_UNIT_BYTES, NULL},
};

static const struct col worker_cols[] = {
    {"Worker", "worker", COL_NAME, PR_UNIT_NONE, NULL},
    {"Rank", "rank", COL_NUM, PR_UNIT_COUNT, NULL},
    {"Computation", "computation_us", COL_NUM, PR_UNIT_US, NULL},
    {"Overlap", "overlap_us", COL_NUM, PR_UNIT_US, NULL},
    {"Communication", "communication_us", COL_NUM, PR_UNIT_US, NULL},
    {"Other", "other_us", COL_NUM, PR_UNIT_US, NULL},
};

static const struct col comm_cols[] = {
    {"Collective", "name", COL_NAME, PR_UNIT_NONE, NULL},
    {"Calls", "calls", COL_NUM, PR_UNIT_COUNT, NULL},
    {"Bytes", "total_bytes", COL_NUM, PR_UNIT_BYTES, NULL},
    {"Total", "total_us", COL_NUM, PR_UNIT_US, NULL},
    {"Mean", "mean_us", COL_NUM, PR_UNIT_US, NULL},
    {"Alg. bandwidth", "algbw_gbps", COL_GBPS, PR_UNIT_NONE, NULL},
    {"Bus bandwidth", "busbw_gbps", COL_GBPS, PR_UNIT_NONE, NULL},
};

static const struct col input_cols[] = {
    {"File", "path", COL_NAME, PR_UNIT_NONE, NULL},
    {"Format", "format", COL_TEXT, PR_UNIT_NONE, NULL},
    {"Worker", "worker", COL_TEXT, PR_UNIT_NONE, NULL},
    {"Parsed", "bytes", COL_NUM, PR_UNIT_BYTES, NULL},
    {"Events", "events", COL_NUM, PR_UNIT_COUNT, NULL},
};

static const struct col diag_cols[] = {
    {"Issue", "text", COL_TEXT, PR_UNIT_NONE, NULL},
    {"Kind", "kind", COL_TEXT, PR_UNIT_NONE, NULL},
    {"Count", "count", COL_NUM, PR_UNIT_COUNT, NULL},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* --- charts: each becomes a raw SVG string in the view */

typedef void (*draw_fn)(struct pr_canvas *c, const struct pr_chart_box *b,
                        const void *spec);

static void
draw_stacked(struct pr_canvas *c, const struct pr_chart_box *b,
             const void *s)
{
    pr_chart_stacked_bars(c, b, s);
}

static void
draw_donut(struct pr_canvas *c, const struct pr_chart_box *b, const void *s)
{
    pr_chart_donut(c, b, s);
}

static void
draw_line(struct pr_canvas *c, const struct pr_chart_box *b, const void *s)
{
    pr_chart_line(c, b, s);
}

static void
draw_roofline(struct pr_canvas *c, const struct pr_chart_box *b,
              const void *s)
{
    pr_chart_roofline(c, b, s);
}

static void
draw_hbars(struct pr_canvas *c, const struct pr_chart_box *b, const void *s)
{
    pr_chart_hbars(c, b, s);
}

static void
add_chart(struct view *v, cJSON *obj, const char *key, double w, double h,
          const char *label, draw_fn draw, const void *spec)
{
    struct pr_buf b;
    struct pr_svg svg;
    struct pr_canvas c;
    struct pr_chart_box box = {8, 8, w - 16, h - 16};

    pr_buf_init(&b, 0);
    pr_svg_begin(&svg, &c, &b, w, h, label);
    draw(&c, &box, spec);
    if (pr_svg_end(&svg, &c) != PR_OK) {
        v->oom = 1;
    } else {
        add_str(v, obj, key, b.data);
    }
    pr_buf_free(&b);
}

static const char *const breakdown_keys[] = {
    "kernel", "memcpy", "memset", "communication",
    "runtime", "dataloader", "cpu_exec", "other",
};
static const char *const breakdown_names[] = {
    "Kernel", "Memcpy", "Memset", "Communication",
    "Runtime", "DataLoader", "CPU exec", "Other",
};
#define N_BREAKDOWN 8

/* "ProfilerStep#12" -> "#12"; other names as they are. */
static const char *
step_label(const char *name)
{
    const char *hash = name ? strrchr(name, '#') : NULL;

    return hash ? hash : (name ? name : "");
}

static void
steps_chart(struct view *v, cJSON *out, const cJSON *steps)
{
    size_t n = (size_t)cJSON_GetArraySize(steps), i = 0;
    const char **cats = calloc(n ? n : 1, sizeof(*cats));
    double *vals = calloc(n ? n * N_BREAKDOWN : 1, sizeof(*vals));
    const cJSON *s;

    if (cats == NULL || vals == NULL) {
        v->oom = 1;
    } else {
        cJSON_ArrayForEach(s, steps)
        {
            const cJSON *bd = pr_sget(s, "breakdown_us");
            cats[i] = step_label(pr_sget_str(s, "name"));
            for (size_t k = 0; k < N_BREAKDOWN; k++) {
                double d = pr_sget_num(bd, breakdown_keys[k]);
                vals[i * N_BREAKDOWN + k] = isnan(d) ? 0 : d;
            }
            i++;
        }
        struct pr_chart_stacked spec = {
            "Step time breakdown", cats, n, breakdown_names, N_BREAKDOWN,
            vals, pr_chart_breakdown_colors, PR_UNIT_US, NULL};
        add_chart(v, out, "steps_svg", 600, 300, "Step time breakdown",
                  draw_stacked, &spec);
    }
    free(cats);
    free(vals);
}

static void
donut_chart(struct view *v, cJSON *out, const cJSON *summary)
{
    double vals[N_BREAKDOWN];
    const cJSON *bd = pr_sget(summary, "breakdown_us");
    char mean[48];

    for (size_t k = 0; k < N_BREAKDOWN; k++) {
        double d = pr_sget_num(bd, breakdown_keys[k]);
        vals[k] = isnan(d) ? 0 : d;
    }
    pr_chart_format(pr_sget_num(summary, "mean_us"), PR_UNIT_US, mean, sizeof(mean));
    struct pr_chart_donut spec = {"Average step", breakdown_names, vals,
                                  N_BREAKDOWN, pr_chart_breakdown_colors, PR_UNIT_US,
                                  mean, "mean step"};
    add_chart(v, out, "donut_svg", 400, 300, "Average step breakdown",
              draw_donut, &spec);
}

static void
draw_timeline(struct pr_canvas *c, const struct pr_chart_box *b,
              const void *s)
{
    pr_chart_timeline(c, b, s);
}

/* The representative step's lanes; has_timeline stays false (the
 * template says why) when the summary has none. */
static void
timeline_chart(struct view *v, cJSON *out, const cJSON *timeline)
{
    struct pr_tlview tl;

    if (pr_tlview_build(timeline, &tl, v->err) != PR_OK) {
        v->oom = 1;
        return;
    }
    add_bool(v, out, "has_timeline", tl.chart.n_lanes > 0);
    add_str(v, out, "timeline_empty", PR_TLVIEW_EMPTY);
    if (tl.chart.n_lanes > 0) {
        add_chart(v, out, "timeline_svg", 1000, pr_tlview_height(&tl),
                  "Timeline of one step", draw_timeline, &tl.chart);
    }
    pr_tlview_free(&tl);
}

/* --- overview */

static void
kpi(struct view *v, cJSON *arr, const char *label, double d,
    enum pr_unit unit, const char *sub)
{
    cJSON *k = push_obj(v, arr);

    if (k == NULL) {
        return;
    }
    add_str(v, k, "k_label", label);
    add_fmt(v, k, "k_value", d, unit);
    add_str(v, k, "k_sub", sub ? sub : "");
    add_bool(v, k, "k_na", isnan(d));
}

static void
step_kpis(struct view *v, cJSON *kpis, const cJSON *ss)
{
    char a[32], b[32], sub[128];

    snprintf(sub, sizeof(sub), "median %s \xC2\xB7 p90 %s \xC2\xB7 %.0f steps",
             pr_chart_format(pr_sget_num(ss, "median_us"), PR_UNIT_US, a, sizeof(a)),
             pr_chart_format(pr_sget_num(ss, "p90_us"), PR_UNIT_US, b, sizeof(b)),
             pr_sget_num(ss, "count"));
    kpi(v, kpis, "Mean step time", pr_sget_num(ss, "mean_us"), PR_UNIT_US, sub);
}

static void
overview(struct view *v, cJSON *out, const cJSON *run)
{
    const cJSON *ss = pr_sget(run, "step_summary");
    const cJSON *steps = pr_sget(run, "steps");
    const cJSON *gm = cJSON_GetArrayItem(pr_sget(run, "gpu_metrics"), 0);
    const cJSON *tc = pr_sget(run, "tensor_cores");
    cJSON *kpis = add_arr(v, out, "kpis");
    int has = cJSON_IsArray(steps) && steps->child != NULL;

    add_bool(v, out, "has_steps", has);
    if (cJSON_IsObject(ss)) {
        step_kpis(v, kpis, ss);
    }
    kpi(v, kpis, "GPU utilization", pr_sget_num(gm, "utilization_pct"), PR_UNIT_PCT,
        "time with any kernel running");
    kpi(v, kpis, "Est. SM efficiency", pr_sget_num(gm, "est_sm_efficiency_pct"),
        PR_UNIT_PCT, "SMs busy while kernels run");
    kpi(v, kpis, "Est. achieved occupancy",
        pr_sget_num(gm, "est_achieved_occupancy_pct"), PR_UNIT_PCT,
        "warps resident / maximum");
    if (cJSON_IsObject(tc)) {
        kpi(v, kpis, "Tensor-core share", pr_sget_num(tc, "tc_kernel_time_pct"),
            PR_UNIT_PCT, "of kernel time");
    }
    if (has) {
        steps_chart(v, out, steps);
    }
    if (has && cJSON_IsObject(ss)) {
        donut_chart(v, out, ss);
    }
    timeline_chart(v, out, pr_sget(run, "timeline"));
}

/* --- kernels */

/* Chart label for a kernel: no "void ", no argument list, template
 * arguments folded to <…>.  Written into buf. */
static const char *
short_kernel(const char *name, char *buf, size_t n)
{
    size_t o = 0;
    int depth = 0;

    if (strncmp(name, "void ", 5) == 0) {
        name += 5;
    }
    for (const char *p = name; *p && o + 5 < n; p++) {
        if (*p == '(' && depth == 0 && p != name) {
            break;
        }
        if (*p == '<' && depth++ == 0) {
            memcpy(buf + o, "<\xE2\x80\xA6>", 5);
            o += 5;
            continue;
        }
        if (*p == '>' && depth > 0) {
            depth--;
            continue;
        }
        if (depth == 0) {
            buf[o++] = *p;
        }
    }
    buf[o] = '\0';
    return buf;
}

static void
kernels_chart(struct view *v, cJSON *out, const cJSON *kernels)
{
    const char *labels[CHART_ROWS];
    char names[CHART_ROWS][160];
    double vals[CHART_ROWS];
    size_t idx[CHART_ROWS], n = 0;
    static const char *const legend[] = {"CUDA cores", "Tensor cores"};
    const cJSON *k;

    cJSON_ArrayForEach(k, kernels)
    {
        if (n == CHART_ROWS) {
            break;
        }
        labels[n] = short_kernel(pr_sget_str(k, "name") ? pr_sget_str(k, "name") : "",
                                 names[n], sizeof(names[n]));
        vals[n] = isnan(pr_sget_num(k, "total_us")) ? 0 : pr_sget_num(k, "total_us");
        idx[n] = cJSON_IsTrue(pr_sget(k, "tensor_cores_used")) ? 1 : 0;
        n++;
    }
    struct pr_chart_hbars spec = {"Top kernels by total time", labels, vals,
                                  n, idx, PR_UNIT_US, legend, 2};
    add_chart(v, out, "kernels_svg", 960, 70 + 22 * (double)n,
              "Top kernels by total time", draw_hbars, &spec);
}

/* --- roofline */

static size_t
roofs_of(const cJSON *dev, struct pr_chart_roof *roofs)
{
    static const char *const keys[] = {"fp16_tensor", "tf32_tensor", "fp32"};
    static const char *const names[] = {"FP16 tensor", "TF32 tensor", "FP32"};
    const cJSON *pk = pr_sget(dev, "peak_tflops");
    size_t n = 0;

    for (size_t i = 0; i < 3; i++) {
        double t = pr_sget_num(pk, keys[i]);
        if (t > 0) {
            roofs[n].name = names[i];
            roofs[n++].tflops = t;
        }
    }
    return n;
}

/* Where the roofs come from, said plainly: a guessed device is shown as
 * a guess. */
static void
roof_note(struct view *v, cJSON *out, const cJSON *dev)
{
    const char *src = pr_sget_str(dev, "peak_source");
    const char *entry = pr_sget_str(dev, "peak_device");
    const char *arch = pr_sget_str(dev, "architecture");
    char note[320];

    if (src && !strcmp(src, "guess") && entry) {
        snprintf(note, sizeof(note),
                 "Peaks are a guess: the trace does not name its device "
                 "(\"%s\"), so the table's %s entry for %s is used.",
                 pr_sget_str(dev, "name") ? pr_sget_str(dev, "name") : "?",
                 entry, arch ? arch : "its compute capability");
    } else if (src && !strcmp(src, "table") && entry) {
        snprintf(note, sizeof(note), "Peaks: %s, from its datasheet (%s name "
                 "match).", entry, pr_sget_str(dev, "peak_match"));
    } else if (src && !strcmp(src, "cli")) {
        snprintf(note, sizeof(note), "Peaks from the command line.");
    } else {
        add_null(v, out, "roof_note");
        return;
    }
    add_str(v, out, "roof_note", note);
}

static void
roofline(struct view *v, cJSON *out, const cJSON *run)
{
    const cJSON *ops = pr_sget(run, "operators"), *op;
    const cJSON *dev = cJSON_GetArrayItem(pr_sget(run, "devices"), 0);
    struct pr_chart_roof roofs[3];
    size_t n_roofs = roofs_of(dev, roofs), n = 0;
    size_t cap = (size_t)cJSON_GetArraySize(ops);
    struct pr_chart_point *pts = calloc(cap ? cap : 1, sizeof(*pts));
    static const char *const legend[] = {"compute-bound", "memory-bound",
                                         "unknown"};

    if (pts == NULL) {
        v->oom = 1;
        return;
    }
    roof_note(v, out, dev);
    cJSON_ArrayForEach(op, ops)
    {
        const char *b = pr_sget_str(op, "bound");
        if (isnan(pr_sget_num(op, "arithmetic_intensity")) ||
            isnan(pr_sget_num(op, "achieved_tflops"))) {
            continue;
        }
        pts[n].label = pr_sget_str(op, "name");
        pts[n].x = pr_sget_num(op, "arithmetic_intensity");
        pts[n].y = pr_sget_num(op, "achieved_tflops");
        pts[n].weight = pr_sget_num(op, "device_self_us");
        pts[n++].color_index = b && !strcmp(b, "compute") ? 0
                               : b && !strcmp(b, "memory") ? 1 : 2;
    }
    if (n > 0 && n_roofs > 0) {
        struct pr_chart_roofline spec = {
            "Roofline", pts, n, roofs, n_roofs, pr_sget_num(dev, "peak_gbps"), 8,
            legend, 3};
        add_chart(v, out, "roof_svg", 960, 440, "Roofline", draw_roofline,
                  &spec);
        add_table(v, out, "roof", ops, roof_cols, N(roof_cols),
                  "arithmetic_intensity");
    } else {
        add_null(v, out, "roof");
    }
    free(pts);
}

/* --- memory */

/* Copy a numeric array into doubles; returns how many were copied. */
static size_t
doubles(const cJSON *arr, double *out, size_t cap)
{
    const cJSON *e;
    size_t n = 0;

    cJSON_ArrayForEach(e, arr)
    {
        if (n == cap) {
            break;
        }
        out[n++] = cJSON_IsNumber(e) ? e->valuedouble : 0;
    }
    return n;
}

static void
memory_curve(struct view *v, cJSON *out, const cJSON *dev)
{
    const cJSON *curve = pr_sget(dev, "curve");
    size_t cap = (size_t)cJSON_GetArraySize(pr_sget(curve, "t_us"));
    double *buf = calloc(cap ? 3 * cap : 1, sizeof(double));
    size_t nt, na, nr;
    char peak[48], label[96];

    if (buf == NULL) {
        v->oom = 1;
        return;
    }
    nt = doubles(pr_sget(curve, "t_us"), buf, cap);
    na = doubles(pr_sget(curve, "allocated_bytes"), buf + cap, cap);
    nr = doubles(pr_sget(curve, "reserved_bytes"), buf + 2 * cap, cap);
    struct pr_chart_series series[2] = {
        {"Allocated", buf, buf + cap, na < nt ? na : nt, 0x0072B2, 1, 1},
        {"Reserved", buf, buf + 2 * cap, nr < nt ? nr : nt, 0xE69F00, 0, 1}};
    double pk = pr_sget_num(dev, "peak_allocated_bytes"), pt = 0;
    for (size_t i = 0; i < na && i < nt; i++) {
        if (buf[cap + i] >= pk) {
            pt = buf[i];
            break;
        }
    }
    snprintf(label, sizeof(label), "peak %s",
             pr_chart_format(pk, PR_UNIT_BYTES, peak, sizeof(peak)));
    snprintf(peak, sizeof(peak), "Memory: %s",
             pr_sget_str(dev, "device") ? pr_sget_str(dev, "device") : "?");
    struct pr_chart_lines spec = {peak, series, nr > 0 ? 2 : 1, PR_UNIT_US,
                                  PR_UNIT_BYTES, "Time from start of run",
                                  NULL, 0, pt, pk, isnan(pk) ? NULL : label};
    add_chart(v, out, "m_svg", 960, 300, peak, draw_line, &spec);
    free(buf);
}

static void
memory(struct view *v, cJSON *out, const cJSON *run)
{
    const cJSON *mem = pr_sget(run, "memory"), *dev;
    cJSON *m, *devs;

    if (!cJSON_IsObject(mem)) {
        add_null(v, out, "memory");
        return;
    }
    m = add_obj(v, out, "memory");
    devs = add_arr(v, m, "m_devices");
    cJSON_ArrayForEach(dev, pr_sget(mem, "devices"))
    {
        cJSON *d = push_obj(v, devs);
        if (d == NULL) {
            break;
        }
        add_str(v, d, "m_name", pr_sget_str(dev, "device"));
        add_fmt(v, d, "m_peak", pr_sget_num(dev, "peak_allocated_bytes"),
                PR_UNIT_BYTES);
        add_fmt(v, d, "m_reserved", pr_sget_num(dev, "peak_reserved_bytes"),
                PR_UNIT_BYTES);
        memory_curve(v, d, dev);
    }
    add_table(v, m, "m_ops", pr_sget(mem, "operators"), mem_cols, N(mem_cols),
              NULL);
}

/* --- tensor cores, recommendations, data quality */

static void
tensor_cores(struct view *v, cJSON *out, const cJSON *run)
{
    const cJSON *tc = pr_sget(run, "tensor_cores");
    cJSON *t, *kpis;

    if (!cJSON_IsObject(tc)) {
        add_null(v, out, "tc");
        return;
    }
    t = add_obj(v, out, "tc");
    kpis = add_arr(v, t, "kpis");
    kpi(v, kpis, "Kernel time on tensor cores", pr_sget_num(tc, "tc_kernel_time_pct"),
        PR_UNIT_PCT, "of all kernel time");
    kpi(v, kpis, "Eligible operator time", pr_sget_num(tc, "eligible_op_time_pct"),
        PR_UNIT_PCT, "device time of ops that could use them");
    kpi(v, kpis, "Eligible time on tensor cores",
        pr_sget_num(tc, "eligible_on_tc_pct"), PR_UNIT_PCT,
        "of that eligible time");
    add_table(v, t, "findings", pr_sget(tc, "findings"), finding_cols,
              N(finding_cols), NULL);
}

static void
recommendations(struct view *v, cJSON *out, const cJSON *run)
{
    const cJSON *r;
    cJSON *arr = add_arr(v, out, "recs");

    cJSON_ArrayForEach(r, pr_sget(run, "recommendations"))
    {
        cJSON *o = push_obj(v, arr);
        const char *sev = pr_sget_str(r, "severity");
        if (o == NULL) {
            break;
        }
        add_str(v, o, "r_sev", sev ? sev : "info");
        add_str(v, o, "r_text", pr_sget_str(r, "text"));
        add_str(v, o, "r_id", pr_sget_str(r, "id"));
    }
    add_bool(v, out, "has_recs", cJSON_GetArraySize(arr) > 0);
}

static void
run_label(struct view *v, cJSON *out, const cJSON *run)
{
    char label[256];
    const cJSON *dev = cJSON_GetArrayItem(pr_sget(run, "devices"), 0);
    double rank = pr_sget_num(run, "rank");

    if (isnan(rank)) {
        snprintf(label, sizeof(label), "%s", pr_sget_str(run, "worker"));
    } else {
        snprintf(label, sizeof(label), "%s (rank %.0f)", pr_sget_str(run, "worker"),
                 rank);
    }
    add_str(v, out, "label", label);
    add_str(v, out, "span", pr_sget_str(run, "span"));
    add_str(v, out, "device", pr_sget_str(dev, "name"));
}

static void
run_view(struct view *v, cJSON *runs, const cJSON *run)
{
    cJSON *out = push_obj(v, runs);

    if (out == NULL) {
        return;
    }
    run_label(v, out, run);
    overview(v, out, run);
    add_table(v, out, "ops", pr_sget(run, "operators"), op_cols, N(op_cols),
              NULL);
    add_table(v, out, "ops_shape", pr_sget(run, "operators_by_shape"),
              shape_cols, N(shape_cols), NULL);
    if (add_table(v, out, "kernels", pr_sget(run, "kernels"), kernel_cols,
                  N(kernel_cols), NULL) != NULL) {
        kernels_chart(v, out, pr_sget(run, "kernels"));
    }
    tensor_cores(v, out, run);
    roofline(v, out, run);
    memory(v, out, run);
    recommendations(v, out, run);
    add_table(v, out, "diag", pr_sget(run, "diagnostics"), diag_cols,
              N(diag_cols), NULL);
}

/* --- distributed */

static void
dist_chart(struct view *v, cJSON *out, const cJSON *workers)
{
    static const char *const keys[] = {"computation_us", "overlap_us",
                                       "communication_us", "other_us"};
    static const char *const names[] = {"Computation", "Overlap",
                                        "Communication", "Other"};
    size_t n = (size_t)cJSON_GetArraySize(workers), i = 0;
    const char **cats = calloc(n ? n : 1, sizeof(*cats));
    double *vals = calloc(n ? 4 * n : 1, sizeof(*vals));
    const cJSON *w;

    if (cats == NULL || vals == NULL) {
        v->oom = 1;
    } else {
        cJSON_ArrayForEach(w, workers)
        {
            cats[i] = pr_sget_str(w, "worker") ? pr_sget_str(w, "worker") : "?";
            for (size_t k = 0; k < 4; k++) {
                vals[4 * i + k] = isnan(pr_sget_num(w, keys[k])) ? 0 : pr_sget_num(w, keys[k]);
            }
            i++;
        }
        struct pr_chart_stacked spec = {"Time per step by worker", cats, n,
                                        names, 4, vals, pr_chart_overlap_colors, PR_UNIT_US,
                                        NULL};
        add_chart(v, out, "d_svg", 960, 300, "Time per step by worker",
                  draw_stacked, &spec);
    }
    free(cats);
    free(vals);
}

static void
distributed(struct view *v, cJSON *root, const cJSON *summary)
{
    const cJSON *d = pr_sget(summary, "distributed"), *s;
    cJSON *o, *arr;
    char ws[32];

    if (!cJSON_IsObject(d)) {
        add_null(v, root, "dist");
        return;
    }
    o = add_obj(v, root, "dist");
    snprintf(ws, sizeof(ws), "%.0f", pr_sget_num(d, "world_size"));
    add_str(v, o, "d_world", ws);
    dist_chart(v, o, pr_sget(d, "workers"));
    add_table(v, o, "d_workers", pr_sget(d, "workers"), worker_cols,
              N(worker_cols), NULL);
    add_table(v, o, "d_comm", pr_sget(d, "comm_ops"), comm_cols, N(comm_cols),
              NULL);
    arr = add_arr(v, o, "d_stragglers");
    cJSON_ArrayForEach(s, pr_sget(d, "stragglers"))
    {
        cJSON *e = push_obj(v, arr);
        if (e == NULL) {
            break;
        }
        add_str(v, e, "s_worker", pr_sget_str(s, "worker"));
        add_str(v, e, "s_reason", pr_sget_str(s, "reason"));
    }
}

/* --- title block */

/* Unix time -> "YYYY-MM-DDTHH:MM:SSZ" without gmtime() (banned: it uses
 * static storage); days-to-civil after H. Hinnant. */
static void
iso_utc(int64_t t, char *buf, size_t n)
{
    int64_t days = t / 86400, sec = t % 86400;
    int64_t z, era, doe, yoe, y, doy, mp, d, m;

    if (sec < 0) {
        sec += 86400;
        days--;
    }
    z = days + 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = yoe + era * 400;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
    snprintf(buf, n, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ",
             (long long)y, (long long)m, (long long)d,
             (long long)(sec / 3600), (long long)(sec / 60 % 60),
             (long long)(sec % 60));
}

static void
title_block(struct view *v, cJSON *root, const cJSON *summary)
{
    const cJSON *runs = pr_sget(summary, "runs"), *r;
    const char *ver = v->o->version ? v->o->version
                                    : pr_sget_str(pr_sget(summary, "tool"), "version");
    char when[80], devs[256] = "", workers[256] = "";
    size_t nw = 0;

    iso_utc(v->o->generated_at, when, sizeof(when));
    add_str(v, root, "generated", when);
    add_str(v, root, "version", ver ? ver : "unknown");
    cJSON_ArrayForEach(r, runs)
    {
        const char *dev = pr_sget_str(cJSON_GetArrayItem(pr_sget(r, "devices"), 0), "name");
        size_t len = strlen(workers);
        if (nw++ < 4) {
            snprintf(workers + len, sizeof(workers) - len, "%s%s",
                     len ? ", " : "", pr_sget_str(r, "worker") ? pr_sget_str(r, "worker") : "?");
        }
        if (dev != NULL && strstr(devs, dev) == NULL) {
            len = strlen(devs);
            snprintf(devs + len, sizeof(devs) - len, "%s%s", len ? ", " : "",
                     dev);
        }
    }
    if (nw > 4) {
        size_t len = strlen(workers);
        snprintf(workers + len, sizeof(workers) - len, " and %zu more",
                 nw - 4);
    }
    add_str(v, root, "workers", nw ? workers : "none");
    add_str(v, root, "devices", devs[0] ? devs : "no GPU");
    add_bool(v, root, "multi", nw > 1);
    add_table(v, root, "inputs", pr_sget(summary, "inputs"), input_cols,
              N(input_cols), NULL);
}

static cJSON *
build_view(const cJSON *summary, struct view *v)
{
    cJSON *root = cJSON_CreateObject(), *runs;
    const cJSON *r;

    if (root == NULL) {
        v->oom = 1;
        return NULL;
    }
    title_block(v, root, summary);
    runs = add_arr(v, root, "runs");
    cJSON_ArrayForEach(r, pr_sget(summary, "runs"))
    {
        run_view(v, runs, r);
    }
    add_bool(v, root, "no_runs", cJSON_GetArraySize(runs) == 0);
    distributed(v, root, summary);
    return root;
}

/* --- rendering */

static char *
partial(const char *name, void *user)
{
    const struct view *v = user;
    struct pr_error ignored;
    char *text = NULL;
    size_t len;

    pr_error_clear(&ignored);
    if (pr_tmpl_load(name, v->o->template_dir, &text, &len, &ignored) !=
        PR_OK) {
        return NULL; /* Mustache: a missing partial renders as nothing */
    }
    return text;
}

enum pr_status
pr_html_render(const cJSON *summary, const struct pr_render_opts *o,
               struct pr_buf *out, struct pr_error *err)
{
    struct view v;
    cJSON *view;
    char *tmpl = NULL;
    size_t len = 0;
    enum pr_status st;

    memset(&v, 0, sizeof(v));
    v.o = o;
    v.top = o->top > 0 ? (size_t)o->top : DEFAULT_TOP;
    v.err = err;
    view = build_view(summary, &v);
    if (v.oom) {
        st = pr_error_set(err, PR_E_NOMEM, "html: out of memory");
        goto done;
    }
    st = pr_tmpl_load("report.html", o->template_dir, &tmpl, &len, err);
    if (st != PR_OK) {
        goto done;
    }
    st = pr_tmpl_render(tmpl, len, view, partial, &v, out, err);
    if (st != PR_OK) {
        pr_error_prefix(err, "report.html: ");
    }
done:
    free(tmpl);
    cJSON_Delete(view);
    return st;
}
