/* comm.h - per-run communication analysis (issue 5): per step the
 * computation / overlap / communication / other split of
 * spec/tb-plugin-semantics.md §13.2, and the collective table with NCCL's
 * algorithm and bus bandwidth.  The cross-rank "distributed" section is
 * assembled from these per-run results by summary.c. */
#ifndef PROFREPORT_COMM_H
#define PROFREPORT_COMM_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/steps.h"
#include "profreport/trace.h"

/* Set run["communication"] (null when the run has no communication). */
PR_NODISCARD enum pr_status pr_comm_fill(const struct pr_trace *t,
                                         const struct pr_steps *steps,
                                         cJSON *run, struct pr_error *err);

/* Bytes per element of a collective's dtype name ("Float", "Half",
 * "BFloat16", ...); 0 when unknown. */
int pr_comm_dtype_size(const char *dtype);

/* NCCL bus-bandwidth factor for a collective ("all_reduce", ...) over n
 * ranks: 2(n-1)/n for all-reduce, (n-1)/n for all-gather, reduce-scatter
 * and all-to-all, 1 otherwise (nccl-tests' PERFORMANCE.md). */
double pr_comm_bus_factor(const char *collective, int n);

/* Canonical collective name ("all_reduce") from CUPTI/PyTorch spellings
 * ("allreduce", "AllReduce", a kernel name); NULL when unrecognised. */
const char *pr_comm_collective(const char *name);

/* Assemble summary["distributed"] from the runs (called by
 * pr_summary_finish).  Leaves it null for a single-rank input. */
PR_NODISCARD enum pr_status pr_comm_distributed(cJSON *summary,
                                                struct pr_error *err);

#endif
