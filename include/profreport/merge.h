/* merge.h - one summary out of several saved ones: the step where per-rank
 * summaries computed apart become one job (issue #17).  Today it takes a
 * single summary as it is; the merge of several is still to come. */
#ifndef PROFREPORT_MERGE_H
#define PROFREPORT_MERGE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"

/* Merge the n >= 1 checked summaries (contract.h) of sums into *out.  Takes
 * ownership of every sums[i], also on error (each is freed or moved into
 * *out, and sums[i] set to NULL).  Errors: PR_E_USAGE for n > 1 (not yet
 * supported), PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_merge_summaries(cJSON **sums, size_t n, cJSON **out, struct pr_error *err);

#endif
