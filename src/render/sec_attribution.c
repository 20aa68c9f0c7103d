/* sec_attribution.c - the report's "Attribution" section: how much of the
 * kernel time the operator tables account for, and how kernels were tied
 * to the operators that launched them (attribution.c's "attribution"
 * object, docs/summary-json.md).  Read before trusting the operator and
 * module tables: a kernel that reaches no operator shows in Kernels but in
 * no operator's device time. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/sget.h"

static int
has_kernels(const cJSON *run)
{
    return pr_sget_num(pr_sget(run, PR_K_ATTRIBUTION), PR_K_KERNELS) > 0;
}

/* Only summaries with kernels: without them there is nothing to tie. */
static int
present(const cJSON *summary)
{
    const cJSON *run;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (has_kernels(run))
            return 1;
    }
    return 0;
}

#define A_(key) PR_K_ATTRIBUTION "." key

/* A row per run: the runs[] objects themselves, read through the
 * attribution object ("a.b" keys). */
static const struct pr_col cols[] = {
    {"worker", PR_K_WORKER, "Worker", PR_FMT_TEXT, 1.2, NULL, PR_COL_BOTH},
    {"span", PR_K_SPAN, "Span", PR_FMT_TEXT, 1.3, NULL, PR_COL_BOTH},
    {"kernel_time", A_(PR_K_KERNEL_TIME_US), "Kernel time", PR_FMT_US, 0.9,
     NULL, PR_COL_BOTH},
    {"in_operators", A_(PR_K_OPERATOR_PCT), "In operators", PR_FMT_PCT, 1.0,
     "Share of the kernel time launched inside an operator", PR_COL_BOTH},
    {"no_launch", A_(PR_K_NO_LAUNCH_US), "No launch", PR_FMT_US, 0.9,
     "Kernels whose correlation id names no runtime call", PR_COL_BOTH},
    {"outside", A_(PR_K_OUTSIDE_OPERATORS_US), "Outside operators", PR_FMT_US,
     1.0, "Launched, but inside no operator", PR_COL_BOTH},
    {"by_id", A_(PR_K_LAUNCHES_BY_ID), "Tied by id", PR_FMT_COUNT, 0.9,
     "Launches tied to their operator by the profiler's External id",
     PR_COL_BOTH},
    {"by_time", A_(PR_K_LAUNCHES_BY_TIME), "Tied by time", PR_FMT_COUNT, 0.9,
     "Launches tied by time to the range around them", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* One key figure over all runs: the kernel time in operators. */
static void
total_kpi(struct pr_figs *f, const cJSON *runs)
{
    const cJSON *run;
    double in_ops = 0, all = 0;
    char a[48], b[48], sub[160];

    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *at = pr_sget(run, PR_K_ATTRIBUTION);
        double k = pr_sget_num(at, PR_K_KERNEL_TIME_US);
        double o = pr_sget_num(at, PR_K_OPERATOR_TIME_US);
        if (!isnan(k) && !isnan(o)) {
            all += k;
            in_ops += o;
        }
    }
    if (all > 0)
        snprintf(sub, sizeof(sub), "%s of %s kernel time",
                 pr_fig_format(in_ops, PR_FMT_US, a, sizeof(a)),
                 pr_fig_format(all, PR_FMT_US, b, sizeof(b)));
    else /* kernel replay: no run's kernel time is known (review30g #3) */
        snprintf(sub, sizeof(sub), "kernel time not known");
    pr_figs_kpi(f, "Kernel time in operators",
                all > 0 ? 100.0 * in_ops / all : NAN, PR_FMT_PCT, sub);
}

static void
build(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    const cJSON *runs = pr_sget(summary, PR_K_RUNS), *r;
    static const char *const no_span[] = {"span", NULL};
    struct pr_fig_table t = {.cols = cols, .rows = runs, .what = "runs"};
    char label[256], text[1200];

    (void)run;
    if (!pr_sget_spans_matter(runs)) /* the worker names the run */
        t.hide = no_span;
    total_kpi(f, runs);
    pr_figs_table(f, NULL, &t, "No run has kernels.");
    cJSON_ArrayForEach(r, runs)
    {
        const char *why =
            pr_sget_str(pr_sget(r, PR_K_ATTRIBUTION), PR_K_REASON);
        if (why == NULL)
            continue;
        if (pr_sget_len(runs) > 1)
            snprintf(text, sizeof(text), "%s: %s",
                     pr_fig_run_label(r, label, sizeof(label)), why);
        else
            snprintf(text, sizeof(text), "%s", why);
        pr_figs_text(f, text);
    }
}

/* The section: read by the table in sections.c. */
const struct pr_section pr_section_attribution = {
    .id = "attribution",
    .title = "Attribution",
    .lede = "How much of the kernel time the operator and module tables "
            "account for. Each kernel is tied to the operator that launched "
            "it: by the profiler's External id where the trace has one, "
            "else by the deepest operator or range around the launch on its "
            "thread.",
    .per_run = 0,
    .build = build,
    .present = present};
