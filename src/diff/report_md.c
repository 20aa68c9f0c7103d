/* report_md.c - the diff as GitHub-flavoured Markdown for a CI job
 * summary: verdict first, then gates, per-run figures with their noise
 * test, top regressions / improvements, new and vanished rows, method. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"

#define NAME_MAX_CHARS 80
#define DETAIL_MAX_CHARS 400

static void
code(struct pr_buf *b, const char *s)
{
    if (pr_dmd_code(b, s != NULL ? s : "?", NAME_MAX_CHARS) != PR_OK)
        b->failed = 1;
}

/* Runs that paired with none: a vanished rank must not go unseen. */
static void
unmatched(struct pr_buf *b, const cJSON *diff)
{
    static const char *const sides[] = {"baseline", "current"};
    static const char *const what[] = {
        "vanished (no run of the current side pairs with it)",
        "is new (no run of the baseline pairs with it)"};
    const cJSON *um = pr_sget(diff, "runs_unmatched"), *w;
    size_t k;

    for (k = 0; k < 2; k++)
        cJSON_ArrayForEach(w, pr_sget(um, sides[k]))
        {
            pr_dadd(b, k == 0 ? "**Warning:** baseline run "
                              : "**Note:** current run ");
            code(b, cJSON_IsString(w) ? w->valuestring : "?");
            if (pr_buf_printf(b, " %s; not compared.\n\n", what[k]) != PR_OK)
                b->failed = 1;
        }
}

/* An operator or kernel name through the one name shortener (shorten.h),
 * so a Markdown table shows the part that tells names apart. */
static void
name_code(struct pr_buf *b, const char *s)
{
    char cut[PR_SHORTEN_CAP(NAME_MAX_CHARS)];

    code(b, pr_shorten(s != NULL ? s : "?", NAME_MAX_CHARS, cut, sizeof(cut)));
}

static void
header(struct pr_buf *b, const cJSON *diff)
{
    const cJSON *gates = pr_sget(diff, "gates");
    const cJSON *g, *bs = pr_sget(diff, "baseline");
    const cJSON *cs = pr_sget(diff, "current");
    const char *verdict = pr_sget_str(diff, "verdict");
    int failed = 0, total = 0;

    cJSON_ArrayForEach(g, gates)
    {
        total++;
        failed +=
            strcmp(pr_sget_str(g, "result") ? pr_sget_str(g, "result") : "",
                   "fail") == 0;
    }
    if (pr_buf_printf(b, "## profreport diff: %s (%d of %d gates tripped)\n\n",
                      verdict && strcmp(verdict, "fail") == 0 ? "REGRESSION"
                                                              : "no regression",
                      failed, total) != PR_OK)
        b->failed = 1;
    pr_dadd(b, "Baseline ");
    code(b, pr_sget_str(bs, "label"));
    if (pr_buf_printf(b, " (runs: %.0f, steps: %.0f) vs current ",
                      pr_sget_num(bs, "runs"),
                      pr_sget_num(bs, "steps")) != PR_OK)
        b->failed = 1;
    code(b, pr_sget_str(cs, "label"));
    if (pr_buf_printf(b, " (runs: %.0f, steps: %.0f).\n\n",
                      pr_sget_num(cs, "runs"),
                      pr_sget_num(cs, "steps")) != PR_OK)
        b->failed = 1;
    unmatched(b, diff);
}

static void
gates_table(struct pr_buf *b, const cJSON *diff)
{
    const cJSON *g;
    char detail[PR_SHORTEN_CAP(DETAIL_MAX_CHARS)];

    pr_dadd(b, "### Gates\n\n| Result | Gate | Detail |\n|---|---|---|\n");
    cJSON_ArrayForEach(g, pr_sget(diff, "gates"))
    {
        const char *res = pr_sget_str(g, "result");
        pr_dadd(b, res && strcmp(res, "fail") == 0      ? "| **FAIL** | "
                   : res && strcmp(res, "skipped") == 0 ? "| skipped | "
                                                        : "| pass | ");
        code(b, pr_sget_str(g, "rule"));
        pr_dadd(b,
                cJSON_IsTrue(pr_sget(g, "default")) ? " (default) | " : " | ");
        /* cut in the middle: a detail ends with its verdict */
        if (pr_dmd_code(
                b,
                pr_shorten_middle(
                    pr_sget_str(g, "detail") ? pr_sget_str(g, "detail") : "",
                    DETAIL_MAX_CHARS, detail, sizeof(detail)),
                DETAIL_MAX_CHARS + 1) != PR_OK)
            b->failed = 1;
        pr_dadd(b, " |\n");
    }
    pr_dadd(b, "\n");
}

static void
noise_cell(struct pr_buf *b, const cJSON *noise)
{
    const char *m = pr_sget_str(noise, "method");
    const cJSON *sig = pr_sget(noise, "significant");
    char p[32], lo[32], hi[32];

    if (m == NULL || strcmp(m, "none") == 0) {
        pr_dadd(b, noise ? "too few steps: limit only" : "limit only");
        return;
    }
    if (pr_buf_printf(
            b, "%s, p = %s, 95%% CI [%s, %s]",
            cJSON_IsTrue(sig) ? "**significant**" : "noise",
            pr_dfmt_p(pr_sget_num(noise, "p_value"), p, sizeof(p)),
            pr_dfmt_pct(pr_sget_num(noise, "ci_lo_pct"), lo, sizeof(lo)),
            pr_dfmt_pct(pr_sget_num(noise, "ci_hi_pct"), hi, sizeof(hi))) !=
        PR_OK)
        b->failed = 1;
}

static int
worth_showing(const cJSON *row)
{
    double x = pr_sget_num(row, "baseline"), y = pr_sget_num(row, "current");

    if (isnan(x) && isnan(y))
        return 0;
    return !(x == 0 && y == 0); /* idle categories clutter the table */
}

static void
figure_row(struct pr_buf *b, const cJSON *row)
{
    const char *unit = pr_sget_str(row, "unit");
    const cJSON *dev = pr_sget(row, "device");
    char v1[48], v2[48], d[48], pct[48];

    pr_dadd(b, "| ");
    pr_dadd(b, pr_sget_str(row, "metric"));
    if (cJSON_IsString(dev)) {
        pr_dadd(b, " ");
        code(b, dev->valuestring);
    } else if (cJSON_IsNumber(dev) &&
               pr_buf_printf(b, " GPU %d", dev->valueint) != PR_OK) {
        b->failed = 1;
    }
    if (pr_buf_printf(
            b, " | %s | %s | %s%s%s | ",
            pr_dfmt_value(pr_sget_num(row, "baseline"), unit, v1, sizeof(v1)),
            pr_dfmt_value(pr_sget_num(row, "current"), unit, v2, sizeof(v2)),
            pr_dfmt_delta(pr_sget_num(row, "delta"), unit, d, sizeof(d)),
            unit && strcmp(unit, "pct") == 0 ? "" : " ",
            unit && strcmp(unit, "pct") == 0
                ? ""
                : pr_dfmt_pct(pr_sget_num(row, "delta_pct"), pct,
                              sizeof(pct))) != PR_OK)
        b->failed = 1;
    noise_cell(b, pr_sget(row, "noise"));
    pr_dadd(b, " |\n");
}

static void
runs_tables(struct pr_buf *b, const cJSON *diff)
{
    const cJSON *pair, *row;

    cJSON_ArrayForEach(pair, pr_sget(diff, "runs"))
    {
        pr_dadd(b, "### Run ");
        code(b, pr_sget_str(pair, "baseline"));
        pr_dadd(b, " vs ");
        code(b, pr_sget_str(pair, "current"));
        pr_dadd(b, " (per step)\n\n| Figure | Baseline | Current | Change | "
                   "Noise test |\n|---|---:|---:|---:|---|\n");
        cJSON_ArrayForEach(row, pr_sget(pair, "metrics"))
        {
            if (worth_showing(row))
                figure_row(b, row);
        }
        pr_dadd(b, "\n");
    }
}

static void
table_rows(struct pr_buf *b, const cJSON *arr, int want, size_t top)
{
    const cJSON *row;
    size_t n = 0;
    char v1[48], v2[48], d[48], pct[48];

    cJSON_ArrayForEach(row, arr)
    {
        const char *shapes = pr_sget_str(row, "input_shapes");
        if (n == top)
            break;
        if (!pr_drow_wanted(row, want))
            continue;
        n++;
        pr_dadd(b, "| ");
        name_code(b, pr_sget_str(row, "name"));
        if (shapes != NULL) {
            pr_dadd(b, " ");
            code(b, shapes);
        }
        if (pr_buf_printf(
                b, " | %s | %s | %s | %s |\n",
                pr_dfmt_us(pr_drow_us(row, "baseline_us"), v1, sizeof(v1)),
                pr_dfmt_us(pr_drow_us(row, "current_us"), v2, sizeof(v2)),
                pr_dfmt_delta(pr_sget_num(row, "delta_us"), "us", d, sizeof(d)),
                want == 0 ? pr_sget_str(row, "status")
                          : pr_dfmt_pct(pr_sget_num(row, "delta_pct"), pct,
                                        sizeof(pct))) != PR_OK)
            b->failed = 1;
    }
    if (n == 0)
        pr_dadd(b, "| (none) | | | | |\n");
    pr_dadd(b, "\n");
}

static void
top_tables(struct pr_buf *b, const cJSON *diff, size_t top)
{
    static const char *const tables[][2] = {
        {"operators", "operators (device self time per step)"},
        {"kernels", "kernels (device time per step)"},
        {"sources", "source locations (device self time per step)"},
        {"modules", "modules (device total time per step)"}};
    static const char *const kinds[] = {"Top regressions", "Top improvements",
                                        "New and vanished"};
    static const int wants[] = {1, -1, 0};
    size_t t, k;

    for (t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
        const cJSON *arr = pr_sget(diff, tables[t][0]);
        if (t >= 2 && pr_sget_len(arr) == 0)
            continue; /* no stacks or modules recorded: nothing to show */
        for (k = 0; k < 3; k++) {
            if (pr_buf_printf(b,
                              "### %s: %s\n\n| Name | Baseline | Current "
                              "| Change | %s |\n|---|---:|---:|---:|---:|\n",
                              kinds[k], tables[t][1],
                              wants[k] == 0 ? "Status" : "%") != PR_OK)
                b->failed = 1;
            table_rows(b, arr, wants[k], top);
        }
    }
}

static void
method(struct pr_buf *b, const cJSON *diff)
{
    const cJSON *m = pr_sget(diff, "method");
    const cJSON *bs = pr_sget(m, "bootstrap");

    if (pr_buf_printf(
            b,
            "### Method\n\n"
            "A figure with per-step samples (step time, breakdown) regresses "
            "only when its change crosses the gate's limit **and** is "
            "unlikely to be step-to-step noise: Mann-Whitney U over the "
            "steps (two-sided, exact distribution up to 50 steps a side "
            "without ties, else normal approximation with tie correction), "
            "alpha = %g.  When there are too few steps for the test to "
            "reach alpha, a %g%% percentile bootstrap interval of the change "
            "of the row's own statistic (the mean; the median or p90 on "
            "their rows; %.0f resamples, fixed seed %s) must exclude 0.  "
            "Memory, GPU metrics, operators and kernels have no per-step "
            "samples and are judged on the limit alone.  Operator and "
            "kernel times are device time per step, matched by name (and "
            "by name + input shapes); glob rules skip rows under %g%% of "
            "the step time.\n",
            pr_sget_num(m, "alpha"), pr_sget_num(bs, "confidence_pct"),
            pr_sget_num(bs, "resamples"),
            pr_sget_str(bs, "seed") ? pr_sget_str(bs, "seed") : "?",
            pr_sget_num(m, "min_share_pct")) != PR_OK)
        b->failed = 1;
    /* large jobs: which intervals the cost cap left (compare.c) */
    if (pr_sget_str(bs, "intervals") != NULL &&
        pr_buf_printf(b,
                      "\nIntervals: %s (%.0f steps a side at most for a "
                      "bootstrap).\n",
                      pr_sget_str(bs, "intervals"),
                      pr_sget_num(bs, "max_samples")) != PR_OK)
        b->failed = 1;
}

enum pr_status
pr_diff_markdown(const cJSON *diff, size_t top, struct pr_buf *out,
                 struct pr_error *err)
{
    header(out, diff);
    gates_table(out, diff);
    runs_tables(out, diff);
    top_tables(out, diff, top);
    method(out, diff);
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "markdown: out of memory");
    return PR_OK;
}
