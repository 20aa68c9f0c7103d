/* sec_layers.c - the report's "Layers" section (issue #16): each forward
 * layer with the backward ops autograd ran for it, as one point on the
 * roofline (forward and backward together) and as a table with the
 * forward and the backward side by side.  It reads what layers.c wrote
 * into the run (docs/summary-json.md, "Roofline by layer"); an unknown
 * count stays a dash, and a backward count estimated from the forward
 * says so in its own column. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/sget.h"

#define LABEL_CHARS 64 /* a point's label: short name and shapes */
#define N_LABELS 8     /* points named on the chart, the heaviest */

const struct pr_col pr_fig_cols_layers[] = {
    {"name", PR_K_NAME, "Layer", PR_FMT_TEXT, 1.0,
     "The top-level forward operator (with the ops it called)", PR_COL_BOTH},
    {"shape", PR_K_INPUT_SHAPES, "Input shapes", PR_FMT_NAME, 1.5, NULL,
     PR_COL_BOTH},
    {"backward", PR_K_BACKWARD, "Backward", PR_FMT_NAME, 1.3,
     "The backward ops autograd ran for it (same sequence number)",
     PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"fwd_device", PR_K_FORWARD_DEVICE_US, "Fwd device", PR_FMT_US, 0.75, NULL,
     PR_COL_BOTH},
    {"bwd_device", PR_K_BACKWARD_DEVICE_US, "Bwd device", PR_FMT_US, 0.75, NULL,
     PR_COL_BOTH},
    {"device", PR_K_DEVICE_US, "Device", PR_FMT_US, 0.75,
     "Forward + backward device time", PR_COL_TERM},
    {"fwd_flops", PR_K_FORWARD_FLOPS, "Fwd FLOPs", PR_FMT_FLOPS, 0.9, NULL,
     PR_COL_BOTH},
    {"bwd_flops", PR_K_BACKWARD_FLOPS, "Bwd FLOPs", PR_FMT_FLOPS, 0.9, NULL,
     PR_COL_BOTH},
    {"bwd_source", PR_K_BACKWARD_FLOPS_SOURCE, "Bwd FLOPs from", PR_FMT_WRAP,
     1.0,
     "formula, trace, measured; \"estimated 2x forward\" when the backward "
     "ops have no formula (\"1x\": a convolution's weight gradient only)",
     PR_COL_BOTH},
    {"fwd_tflops", PR_K_FORWARD_ACHIEVED_TFLOPS, "Fwd TFLOP/s", PR_FMT_TFLOPS,
     0.7, NULL, 0},
    {"bwd_tflops", PR_K_BACKWARD_ACHIEVED_TFLOPS, "Bwd TFLOP/s", PR_FMT_TFLOPS,
     0.7, NULL, 0},
    {"intensity", PR_K_ARITHMETIC_INTENSITY, "FLOP/B", PR_FMT_AI, 0.6,
     "Arithmetic intensity of forward + backward", PR_COL_BOTH},
    {"tflops", PR_K_ACHIEVED_TFLOPS, "TFLOP/s", PR_FMT_TFLOPS, 0.7,
     "Achieved by forward + backward", PR_COL_BOTH},
    {"gbps", PR_K_ACHIEVED_GBPS, "GB/s", PR_FMT_GBPS, 0.7, NULL, 0},
    {"roofline", PR_K_ROOFLINE_PCT, "Of roofline", PR_FMT_PCT, 0.7,
     "Achieved over attainable at this intensity", PR_COL_BOTH},
    {"bound", PR_K_BOUND, "Bound", PR_FMT_TEXT, 0.7, NULL, PR_COL_TERM},
    {"mark", PR_K_ROOFLINE_MARK, "Above roof", PR_FMT_TEXT, 0.7,
     "Why the layer sits over its roof: winograd/fft (fewer FLOPs ran than "
     "its nominal count), model_overcount (the FLOP/byte model counts more "
     "than ran)",
     0},
    {"mark_side", PR_K_ROOFLINE_MARK_SIDE, "Side above", PR_FMT_TEXT, 0.6,
     "Where the layer's forward + backward point is under its roof: the "
     "side (forward or backward) whose own point is above it and carries "
     "the mark",
     0},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* A convolution's weight "[256, 256, 3, 3]" (the second input) as
 * " 3x3 256->256" into buf; "" when the shapes do not give one. */
static void
conv_kernel(const char *name, const char *sh, char *buf, size_t n)
{
    long d[4];
    const char *w;
    int k = 0;

    buf[0] = '\0';
    if (strstr(name, "conv") == NULL || *sh != '[' ||
        (w = strchr(sh + 1, ']')) == NULL || (w = strchr(w, '[')) == NULL)
        return;
    for (w++; k < 4; k++) {
        char *end;
        d[k] = strtol(w, &end, 10);
        if (end == w || d[k] <= 0)
            return;
        w = end + strspn(end, ", ");
        if (*w == ']')
            break;
    }
    if (k == 3) /* [out, in/groups, kh, kw] */
        snprintf(buf, n, " %ldx%ld %ld->%ld", d[2], d[3], d[1], d[0]);
}

/* "conv2d 3x3 256->256 [32,256,14,14]" into buf: the name without its
 * namespace, a convolution's kernel and channels (layers of one input
 * shape differ by them, review25g #6), then the leading tensor shapes,
 * without blanks, as many as fit in about 34 characters (the chart's
 * labels are short; the table has them all).  A row over its roof for a
 * named reason ends with it: "(winograd)", or "(winograd, forward)"
 * where the mark is a side's alone. */
static const char *
point_label(const cJSON *row, char *buf, size_t n)
{
    const char *name = pr_sget_str_or(row, PR_K_NAME, "?");
    const char *sh = pr_sget_str_or(row, PR_K_INPUT_SHAPES, "");
    const char *mark = pr_sget_str(row, PR_K_ROOFLINE_MARK);
    const char *side = pr_sget_str(row, PR_K_ROOFLINE_MARK_SIDE);
    const char *colon = strstr(name, "::");
    char entry[LABEL_CHARS], conv[48];
    int w;
    size_t len, k, room = 34;

    conv_kernel(name, sh, conv, sizeof(conv));
    w = snprintf(buf, n, "%s%s", colon ? colon + 2 : name, conv);
    len = w > 0 && (size_t)w < n ? (size_t)w : 0;
    if (conv[0])
        room = len + 20; /* the image shape after the kernel */
    if (*sh == '[')
        sh++; /* the list of inputs; its entries follow */
    while (*sh == '[') {
        for (k = 0; *sh && k + 1 < sizeof(entry); sh++) {
            if (*sh != ' ')
                entry[k++] = *sh;
            if (*sh == ']') {
                sh++;
                break;
            }
        }
        entry[k] = '\0';
        if (k <= 2 || len + k + 2 > room || len + k + 2 >= n)
            break; /* an empty entry ends the tensors; or no room */
        len += (size_t)snprintf(buf + len, n - len, "%s%s",
                                buf[len - 1] == ']' ? "," : " ", entry);
        sh += strspn(sh, ", ");
        if (conv[0])
            break; /* the weight is in the kernel's words */
    }
    /* a side's mark says so: the layer's own point is under its roof */
    if (mark != NULL && side != NULL &&
        len + strlen(mark) + strlen(side) + 6 < n)
        snprintf(buf + len, n - len, " (%s, %s)", mark, side);
    else if (mark != NULL && len + strlen(mark) + 4 < n)
        snprintf(buf + len, n - len, " (%s)", mark);
    return buf;
}

/* The layers' roofline: forward + backward together, each point named
 * by its layer and leading shapes. */
static const struct pr_sec_roofline roof_spec = {
    "Roofline of the layers",
    "Roofline (layers: forward + backward, first device's peaks)",
    PR_K_DEVICE_US,
    N_LABELS,
    point_label,
    LABEL_CHARS};

/* The report's columns: forward beside backward (the page is narrow:
 * calls, rates and the roofline share are in the terminal table and
 * `-c`, intensity and rate on the chart); where a backward count
 * is estimated, the column that says where the backward FLOPs come
 * from. */
static const char *const view_plain[] = {
    "name",       "shape",     "backward",  "fwd_device",
    "bwd_device", "fwd_flops", "bwd_flops", NULL};
static const char *const view_estimated[] = {
    "name",      "shape",     "backward",   "fwd_device", "bwd_device",
    "fwd_flops", "bwd_flops", "bwd_source", NULL};
/* The same with the "Above roof" column, where a row is over its roof
 * for a named reason (the chart draws it apart). */
static const char *const view_plain_mark[] = {
    "name",      "shape",     "backward", "fwd_device", "bwd_device",
    "fwd_flops", "bwd_flops", "mark",     "mark_side",  NULL};
static const char *const view_estimated_mark[] = {
    "name",       "shape",     "backward",  "fwd_device",
    "bwd_device", "fwd_flops", "bwd_flops", "bwd_source",
    "mark",       "mark_side", NULL};

static int
any_mark(const cJSON *rows)
{
    const cJSON *r;

    cJSON_ArrayForEach(r, rows)
    {
        if (pr_sget_str(r, PR_K_ROOFLINE_MARK) != NULL)
            return 1;
    }
    return 0;
}

static int
any_estimated(const cJSON *rows)
{
    const cJSON *r;

    cJSON_ArrayForEach(r, rows)
    {
        const char *src = pr_sget_str(r, PR_K_BACKWARD_FLOPS_SOURCE);
        if (pr_sget_is(src, "estimated 2x forward") ||
            pr_sget_is(src, "estimated 1x forward"))
            return 1;
    }
    return 0;
}

/* Three key figures: how many layers, their device time, and the share
 * of it the backward took. */
static void
layer_kpis(struct pr_figs *f, const cJSON *view)
{
    double fwd = pr_sget_num(view, PR_K_FORWARD_DEVICE_US);
    double bwd = pr_sget_num(view, PR_K_BACKWARD_DEVICE_US);

    pr_figs_kpi(f, "Layers", pr_sget_num(view, PR_K_LAYERS), PR_FMT_COUNT,
                "forward ops with a backward");
    pr_figs_kpi(f, "Layer device time", fwd + bwd, PR_FMT_US,
                "forward + backward");
    pr_figs_kpi(f, "Backward share",
                fwd + bwd > 0 ? 100.0 * bwd / (fwd + bwd) : NAN, PR_FMT_PCT,
                "of the layers' device time");
}

static void
build(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    const cJSON *view = pr_sget(run, PR_K_LAYER_VIEW);
    struct pr_fig_table t = {.cols = pr_fig_cols_layers,
                             .rows = pr_sget(run, PR_K_LAYERS),
                             .what = "layers",
                             .order = "device time, forward + backward"};
    struct pr_fig_chart *ch;
    size_t n_points = 0;
    char note[400];

    (void)summary;
    if (!cJSON_IsObject(view)) {
        pr_figs_note(f, "No layer view in this summary.");
        return;
    }
    if (pr_sget_str(view, PR_K_NOTE) != NULL) {
        pr_figs_note(f, pr_sget_str(view, PR_K_NOTE));
        return;
    }
    layer_kpis(f, view);
    if (pr_sget_num(view, PR_K_BACKWARD_UNPAIRED) > 0) {
        /* review 27 #3: the backward roots no layer holds are said, not
           dropped without a word (hta_diff_control's 18 embedding
           backwards, tens of ms) */
        double u = pr_sget_num(view, PR_K_BACKWARD_UNPAIRED);

        snprintf(note, sizeof(note),
                 "%.0f of the %.0f backward roots are paired with no layer "
                 "(no forward op carries their sequence number, or forward "
                 "ops of several layers do, as a C++ autograd Function's "
                 "inner ops): %s device time is in no row here and not in "
                 "the backward share.",
                 u, pr_sget_num(view, PR_K_BACKWARD_ROOTS),
                 u == 1 ? "its" : "their");
        pr_figs_note(f, note);
    }
    ch = pr_sec_roofline_chart(run, pr_sget(run, PR_K_LAYERS), &roof_spec,
                               &n_points);
    if (ch == NULL) {
        pr_figs_nomem(f);
    } else if (n_points == 0 || ch->u.roofline.n_roofs == 0) {
        pr_fig_chart_free(ch);
        pr_figs_note(f, pr_sec_roof_missing(summary, run,
                                            "No roofline of the layers", note,
                                            sizeof(note)));
    } else {
        pr_figs_chart(f, ch, 0);
        if (pr_sec_roof_unbounded(run, pr_sget(run, PR_K_LAYERS), "layer", 0,
                                  note, sizeof(note)))
            pr_figs_text(f, note);
    }
    if (any_mark(t.rows))
        t.view = any_estimated(t.rows) ? view_estimated_mark : view_plain_mark;
    else
        t.view = any_estimated(t.rows) ? view_estimated : view_plain;
    pr_figs_table(f, "Forward and backward by layer", &t, NULL);
}

/* Layers are judged by device time and the roofline: none on the host
 * only. */
static int
present(const cJSON *summary)
{
    const cJSON *run;

    if (pr_fig_host_only(summary))
        return 0;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (cJSON_IsObject(pr_sget(run, PR_K_LAYER_VIEW)))
            return 1;
    }
    return 0;
}

/* The section: read by the table in sections.c. */
const struct pr_section pr_section_layers = {
    .id = "layers",
    .title = "Layers",
    .lede =
        "Each forward layer beside the backward ops autograd ran for it (by "
        "sequence number), on the same roofline: FLOPs, bytes and device time "
        "of the forward and the backward, and where the two together sit "
        "against the device's peaks.",
    .per_run = 1,
    .build = build,
    .present = present};
