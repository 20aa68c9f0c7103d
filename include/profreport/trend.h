/* trend.h - a `profreport trend` run: nightly summaries (or traces) as a
 * series, each night gated against the one before with the rules of
 * `diff` (diff_rules.h), reported as Markdown, HTML, PDF and JSON. */
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
    int keep_order; /* 1: the order given, not the recorded times */
    struct pr_gate_job gate;
};

/* Load the nights, order them, gate each against the one before and
 * write the reports (all of them or none).  *last_crossed is 1 when the
 * last night crossed a limit.  Errors: those of loading, of the reports,
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_trend_run(const struct pr_trend_job *job,
                                         int *last_crossed,
                                         struct pr_error *err);

#endif
