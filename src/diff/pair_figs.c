/* pair_figs.c - the charts of one matched pair of runs in a diff (mean
 * step breakdown of both, the waterfall between them, step time per step),
 * built once from the diff tree for both layouts: figs.c hands them to the
 * HTML (as SVG) and the PDF as figures (issue #10: no drifting copies). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/sget.h"

static const char *const sides[] = {"Baseline", "Current"};

/* Step durations of both runs against the step index; a step whose value
 * is missing is a gap.  0, or -1 on out-of-memory. */
static int
steps(struct pr_dpair_figs *f, const cJSON *pair)
{
    const cJSON *arr[2] = {pr_sget(pair, "steps_baseline_us"),
                           pr_sget(pair, "steps_current_us")};
    size_t n[2], max, i, k;

    for (k = 0; k < 2; k++) {
        int len = cJSON_IsArray(arr[k]) ? cJSON_GetArraySize(arr[k]) : 0;
        n[k] = len > 0 ? (size_t)len : 0;
    }
    max = n[0] > n[1] ? n[0] : n[1];
    f->many_steps = max > 1;
    f->xs = calloc(max + 1, sizeof(double));
    f->ys = calloc(2 * (max + 1), sizeof(double));
    if (f->xs == NULL || f->ys == NULL)
        return -1;
    for (i = 0; i < max; i++)
        f->xs[i] = (double)(i + 1);
    for (k = 0; k < 2; k++)
        for (i = 0; i < n[k]; i++) {
            const cJSON *v = cJSON_GetArrayItem(arr[k], (int)i);
            f->ys[k * (max + 1) + i] = cJSON_IsNumber(v) ? v->valuedouble : NAN;
        }
    f->series[0] = (struct pr_chart_series){"Baseline", f->xs, f->ys, n[0],
                                            0x0072B2,   0,     0,     0};
    f->series[1] = (struct pr_chart_series){
        "Current", f->xs, f->ys + max + 1, n[1], 0xD55E00, 0, 0, 0};
    memset(&f->steps, 0, sizeof(f->steps));
    f->steps.title = "Step time per step";
    f->steps.series = f->series;
    f->steps.n_series = 2;
    f->steps.x_unit = PR_UNIT_COUNT;
    f->steps.y_unit = PR_UNIT_US;
    f->steps.x_label = "step";
    return 0;
}

int
pr_dpair_figs(struct pr_dpair_figs *f, const cJSON *pair)
{
    double start, end;
    size_t k;

    memset(f, 0, sizeof(*f));
    pr_dbreakdown(pair, f->vals, f->deltas, &start, &end);
    for (k = 0; k < PR_N_BREAKDOWN; k++) {
        f->cat_names[k] = pr_keys_breakdown[k].label;
        f->cat_colors[k] = pr_keys_breakdown[k].color;
    }
    f->stacked = (struct pr_chart_stacked){
        cJSON_IsTrue(pr_sget(pair, "per_capture")) ? "Breakdown of each capture"
                                                   : "Mean step breakdown",
        sides,
        2,
        f->cat_names,
        PR_N_BREAKDOWN,
        f->vals,
        f->cat_colors,
        PR_UNIT_US,
        NULL};
    f->waterfall = (struct pr_dwaterfall){"Where the time went (mean step)",
                                          f->cat_names,
                                          f->deltas,
                                          PR_N_BREAKDOWN,
                                          start,
                                          end};
    return steps(f, pair);
}

void
pr_dpair_figs_free(struct pr_dpair_figs *f)
{
    free(f->xs);
    free(f->ys);
    f->xs = f->ys = NULL;
}
