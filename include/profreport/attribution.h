/* attribution.h - how much kernel time the op tree gives to an operator
 * (issue #11): the share that reaches a PyTorch operator, what keeps the
 * rest away (no launch event, launch outside every operator), and the
 * summary keys and diagnostic that say so.  The per-operator tables are
 * only as complete as this share. */
#ifndef PROFREPORT_ATTRIBUTION_H
#define PROFREPORT_ATTRIBUTION_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/trace.h"
#include "profreport/tree.h"

/* Below this share of kernel time reaching an operator, the run gets a
 * diagnostic (and the reports a data-quality line) naming the reason. */
#define PR_ATTRIBUTION_MIN_PCT 95.0

struct pr_attribution {
    int64_t kernel_ns;    /* every kernel event */
    int64_t op_ns;        /* launched inside an operator (or below one) */
    int64_t no_launch_ns; /* no runtime/driver event with its correlation */
    int64_t outside_ns;   /* launch found, but inside no operator */
    size_t n_kernels, n_op, n_no_launch, n_outside;
    size_t n_ops;                    /* operator nodes in the tree */
    size_t n_rt_by_id, n_rt_by_time; /* copied from the tree */
    uint32_t top_name; /* kernel name with the most unattributed time;
                          PR_STR_NONE when none (or out of memory) */
    int64_t top_ns;    /* that name's unattributed time */
    int npu;           /* an NPU's tasks: said in its words */
    int amd; /* an AMD GPU's kernels: matrix cores, not tensor cores */
};

/* Measure the kernels of trace t against its op tree.  Cannot fail. */
void pr_attribution_measure(const struct pr_trace *t,
                            const struct pr_tree *tree,
                            struct pr_attribution *a);

/* Share of kernel time reaching an operator, 0..100; NaN without kernels. */
double pr_attribution_pct(const struct pr_attribution *a);

/* Why kernel time misses operators: one sentence into buf (n bytes,
 * truncated), naming `top` (the kernel with most unattributed time, may be
 * NULL) as the largest part; returns 0 and writes nothing when at least
 * PR_ATTRIBUTION_MIN_PCT percent reaches one (or there is no kernel). */
int pr_attribution_reason(const struct pr_attribution *a, const char *top,
                          char *buf, size_t n);

struct pr_notes; /* src/analysis/internal.h: the run's data-quality notes */

/* Write run["attribution"], and add to `notes` the data_quality counter
 * kernel_time_without_operator_pct and, under the threshold, a
 * "kernels_without_operator" diagnostics row.  PR_E_NOMEM on allocation
 * failure (a failed note is reported when the notes are written). */
PR_NODISCARD enum pr_status
pr_attribution_fill(const struct pr_trace *t, const struct pr_tree *tree,
                    cJSON *run, struct pr_notes *notes, struct pr_error *err);

#endif
