/* merge.h - one summary out of several saved ones: the step where per-rank
 * summaries computed apart (a Slurm array, xargs -P) become one job (issue
 * #17).  The runs and inputs are joined here; the job-level views
 * (distributed, job) are read from the runs alone, so the caller rebuilds
 * them over the joined runs (pr_summary_finish). */
#ifndef PROFREPORT_MERGE_H
#define PROFREPORT_MERGE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"

/* Join the n >= 1 checked summaries (contract.h) of sums, named names[i]
 * in messages, into *out: the first summary with every later one's inputs
 * and runs appended in order.  One summary is returned as it is.  Takes
 * ownership of every sums[i], also on error (each is freed or moved into
 * *out, and sums[i] set to NULL).  Errors: PR_E_FORMAT when two summaries
 * hold the same run (worker, span and rank), naming both files;
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_merge_summaries(cJSON **sums,
                                               const char *const *names,
                                               size_t n, cJSON **out,
                                               struct pr_error *err);

#endif
