/* trend.h - a `profreport trend` run: nightly summaries (or traces) as a
 * series, each night gated against the one before with the rules of
 * `diff` (diff_rules.h), reported as Markdown, HTML, PDF and JSON, and
 * on a terminal as the tables of `profreport table`. */
#ifndef PROFREPORT_TREND_H
#define PROFREPORT_TREND_H

#include <stddef.h>

#include "profreport/diff.h"
#include "profreport/diff_rules.h"
#include "profreport/error.h"

/* One trend run, as the command line describes it; pointers borrowed. */
struct pr_trend_job {
    const char *const *inputs; /* the nights, >= 2 */
    size_t n_inputs;
    int keep_order;    /* 1: the order given, not the recorded times */
    const char *junit; /* NULL: not asked */
    int stdout_md;     /* --format md: standard output gets the Markdown,
                          not the terminal's tables */
    struct pr_gate_job gate;
};

/* Load the nights (one that cannot be read is reported on stderr and in
 * the trend's "unreadable", and left out), order them, gate each against
 * the one before and, from the third on, against the first night of the
 * window, and write the reports (all of them or none).  *verdict is the
 * last night's (static): "fail" when it crossed a limit, "pass", or
 * "inconclusive" when none of its gates compared anything.  Errors:
 * those of loading when fewer than two nights can be read, PR_E_USAGE
 * under --strict for a rule no night matches, those of the reports,
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_trend_run(const struct pr_trend_job *job,
                                         const char **verdict,
                                         struct pr_error *err);

/* The trend on a terminal: its verdict, the nights that could not be
 * read, and the nights' table as the terminal tables of `profreport
 * table` (table.h), prose wrapped to the terminal's width; the Markdown
 * report's parts.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_trend_text(const cJSON *trend, struct pr_buf *out, struct pr_error *err);

/* The trend tree's gates of its last night as JUnit XML: one test per
 * gate and comparison (with the night before, with the first night),
 * one in error when the verdict is inconclusive, one skipped per night
 * that could not be read.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_trend_junit(const cJSON *trend, struct pr_buf *out, struct pr_error *err);

#endif
