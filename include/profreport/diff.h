/* diff.h - compare two summaries (spec/summary-json.md) and decide whether
 * the current one regressed.  The result is itself a JSON tree, the "diff
 * tree" (keys below), which every diff report reads, so that `--json`
 * hands machines exactly what the Markdown, JUnit and HTML reports show.
 *
 * Diff tree (all times in microseconds PER STEP, sizes in bytes, null where
 * unknown):
 *   {"diff_version": 1,
 *    "baseline": {"label", "runs", "steps", "step_mean_us"}, "current": {..},
 *    "method": {"test", "alpha", "threshold_pct", "min_share_pct",
 *               "bootstrap": {"resamples", "confidence_pct", "seed"}},
 *    "runs": [{"baseline", "current", "rank",
 *              "metrics": [{"metric", "device", "unit", "baseline",
 *                           "current", "delta", "delta_pct",
 *                           "noise": null | {"method", "n_baseline",
 *                             "n_current", "u", "z", "p_value", "p_min",
 *                             "ci_lo_pct", "ci_hi_pct", "ci_method",
 *                             "ci_of" (mean|median|p90: the statistic
 *                             the interval is of, the row's own),
 *                             "significant"},
 *                           "comparable"?: false, "not_comparable"?: why}],
 *              "steps_baseline_us": [..], "steps_current_us": [..],
 *              "breakdown": [{"category", "baseline", "current"}],
 *              "steps": {"baseline_source", "current_source"
 *                          (ProfilerStep | named steps | no steps),
 *                        "paired_by" (null | "ProfilerStep number"),
 *                        "baseline", "current", "paired", "comparable"}}],
 *    "runs_unmatched": {"baseline": [..], "current": [..]},
 *    "comparability": {"warnings": [text], "notes": [text], "comparable"},
 *    "operators" | "operators_by_shape" | "kernels" | "sources" | "modules":
 *        [{"name", "input_shapes"?, "status" (both|new|vanished),
 *          "baseline_us", "current_us", "delta_us", "delta_pct",
 *          "calls_baseline", "calls_current", "share_pct",
 *          "comparable"?: false, "not_comparable"?: why}],
 *    "added_deleted": {"operators" | "kernels": {"added", "deleted":
 *        [{"name", "calls_per_step", "device_us_per_step"}] longest first,
 *        "in_both", "in_both_pct", "time_in_both_pct"}},
 *    "gates": [{"rule", "default", "noise_aware", "checked", "matched",
 *               "result" (pass|fail|skipped), "skip_reason" (null |
 *               no_figure | not_comparable), "detail", "largest",
 *               "offenders", "within_noise"}],
 *    "verdict": "pass" | "fail" | "inconclusive"}     (pr_diff_gate)
 * "inconclusive": every gate was skipped, so nothing was compared; it is
 * not a pass (exit status 4).  Steps pair by ProfilerStep number where
 * both runs have them (the step figures are those of the paired steps);
 * a comparability warning (a run without step markers against per-step
 * runs, a device run against a CPU-only run, names that barely overlap)
 * leaves "comparable" false and marks every report's verdict line.
 */
#ifndef PROFREPORT_DIFF_H
#define PROFREPORT_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/buf.h"
#include "profreport/diff_rules.h"
#include "profreport/error.h"

struct pr_diff_opts {
    double threshold_pct; /* default gate: step.mean > +threshold_pct % */
    double alpha;         /* significance level of the rank test */
    double min_share_pct; /* glob rules (op:*) skip rows below this share
                             of the mean step time on both sides */
    size_t resamples;     /* bootstrap resamples */
    size_t top;           /* rows per table in reports */
    int strict;           /* a --fail-on rule that matches no figure is
                             a usage error instead of a skipped gate */
    int no_default_gate;  /* 1: no step.mean gate beside the rules */
};

/* Defaults: 5%, alpha 0.05, 1% share, 2000 resamples, top 15. */
void pr_diff_opts_init(struct pr_diff_opts *o);

/* Compare the summaries `base` and `cur` (borrowed) into a new diff tree
 * *out (owned by the caller, cJSON_Delete).  Labels (e.g. file basenames)
 * are copied.  The runs' operator, kernel, source and step tables are read
 * as typed rows (rows.h), as a saved summary's are when it is loaded:
 * PR_E_FORMAT, with the row and key, where one lacks a REQ key or holds a
 * value of another type (the loader refuses such a file first).  Errors:
 * PR_E_FORMAT when a summary has no runs, PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_diff_compare(const cJSON *base, const cJSON *cur,
                                            const char *base_label,
                                            const char *cur_label,
                                            const struct pr_diff_opts *o,
                                            cJSON **out, struct pr_error *err);

struct pr_merge;

/* pr_diff_compare of summaries whose runs may be the lite runs of merged
 * rank summaries (merge.h: mb for base's, mc for cur's; NULL where the
 * runs are whole): each pair of runs is read whole again as it is
 * compared, and every run's tables once, so that two jobs of many ranks
 * are compared holding their lite runs and a few files, not every whole
 * run (issue #17).  The same diff tree as over the whole runs.  Errors:
 * those of pr_diff_compare and of pr_merge_run. */
PR_NODISCARD enum pr_status
pr_diff_compare_merged(const cJSON *base, struct pr_merge *mb, const cJSON *cur,
                       struct pr_merge *mc, const char *base_label,
                       const char *cur_label, const struct pr_diff_opts *o,
                       cJSON **out, struct pr_error *err);

/* Evaluate the gates on a diff tree: the default gate (step.mean >
 * +threshold_pct %) unless o->no_default_gate, then the n rules given.
 * Adds "gates" and "verdict" to `diff`; *n_failed receives the number of
 * gates that tripped.  A change that crosses a limit but is within
 * step-to-step noise (rank test not significant) does not trip; a gate
 * that compared no figure is skipped, and with every gate skipped the
 * verdict is "inconclusive".  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_diff_gate(cJSON *diff,
                                         const struct pr_rule *rules, size_t n,
                                         const struct pr_diff_opts *o,
                                         size_t *n_failed,
                                         struct pr_error *err);

/* The verdict of n_failed tripped gates among n_compared gates that
 * compared something: "fail", "pass" or "inconclusive" (static). */
const char *pr_diff_verdict_of(size_t n_failed, size_t n_compared);

/* The first --fail-on rule (not the default gate) of a gated diff tree
 * that matched no figure of the runs, or NULL: under --strict a usage
 * error.  `hint` receives " (did you mean 'op:aten::mm'?)" when a name of
 * the runs is close to the rule's, else "".  Borrowed from diff. */
const char *pr_diff_unmatched_rule(const cJSON *diff, char *hint,
                                   size_t n_hint);

/* Under --strict: PR_OK, or PR_E_USAGE naming the first --fail-on rule
 * that matched no figure of the runs (pr_diff_unmatched_rule), a mistake
 * in the gate, not a regression.  cmd ("diff", "trend") names the
 * message. */
PR_NODISCARD enum pr_status
pr_diff_strict_check(const cJSON *diff, const char *cmd, struct pr_error *err);

/* Reports, appended to `out`, from a gated diff tree.  Errors: those of
 * pr_buf (PR_E_NOMEM, PR_E_LIMIT). */
PR_NODISCARD enum pr_status pr_diff_markdown(const cJSON *diff, size_t top,
                                             struct pr_buf *out,
                                             struct pr_error *err);
/* The terminal's report: the Markdown's parts, its tables as the terminal
 * tables of `profreport table` (table.h), prose wrapped to the terminal's
 * width. */
PR_NODISCARD enum pr_status pr_diff_text(const cJSON *diff, size_t top,
                                         struct pr_buf *out,
                                         struct pr_error *err);
PR_NODISCARD enum pr_status pr_diff_junit(const cJSON *diff, struct pr_buf *out,
                                          struct pr_error *err);
PR_NODISCARD enum pr_status pr_diff_html(const cJSON *diff, size_t top,
                                         struct pr_buf *out,
                                         struct pr_error *err);

/* PDF report written atomically to `path` (libharu; same charts as the
 * HTML).  Errors: PR_E_PDF, PR_E_IO, PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_diff_pdf(const cJSON *diff, size_t top,
                                        const char *path, struct pr_error *err);

/* What a diff run and a trend run share: the gates and the reports.
 * Every pointer is borrowed for the call. */
struct pr_gate_job {
    const struct pr_rule *rules; /* n_rules == 0: default gate */
    size_t n_rules;
    const char *json, *markdown, *html, *pdf; /* NULL: not asked; when no
                                 report is, stdout gets the diff (text or
                                 Markdown: pr_diff_job.stdout_md) */
    struct pr_diff_opts opts;
    int quiet;
    uint64_t max_input; /* --max-input bytes; 0 = the default */
};

/* One `profreport diff` run, as the command line describes it.  Every
 * pointer is borrowed for the call. */
struct pr_diff_job {
    const char *const *base, *const *cur; /* traces, folders or summaries */
    size_t n_base, n_cur;                 /* >= 1 each */
    const char *junit;                    /* NULL: not asked */
    int stdout_md; /* --format md: standard output gets the Markdown, not
                      the terminal's tables */
    struct pr_gate_job gate;
};

/* Load both sides, compare, gate and write the reports (all of them or
 * none).  *out receives the gated diff tree (owned by the caller) and
 * *n_failed the number of gates that tripped.  Errors: those of loading
 * (bad input is PR_E_FORMAT, PR_E_IO, PR_E_LIMIT), of the reports, and
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_diff_run(const struct pr_diff_job *job,
                                        cJSON **out, size_t *n_failed,
                                        struct pr_error *err);

#endif
