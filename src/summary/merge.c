/* merge.c - several saved summaries into one (merge.h).  One summary is
 * its own merge; several need their runs joined and the job-level keys
 * (distributed) recomputed, which is issue #17's work. */
#include "config.h"

#include "profreport/merge.h"

enum pr_status
pr_merge_summaries(cJSON **sums, size_t n, cJSON **out, struct pr_error *err)
{
    size_t i;

    *out = NULL;
    if (n == 1) {
        *out = sums[0];
        sums[0] = NULL;
        return PR_OK;
    }
    for (i = 0; i < n; i++) {
        cJSON_Delete(sums[i]);
        sums[i] = NULL;
    }
    /* TODO(#17): join the runs, then recompute "distributed" */
    return pr_error_set(err, PR_E_USAGE,
                        "%zu saved summaries: reports from one summary at "
                        "a time (merging several is not supported yet)",
                        n);
}
