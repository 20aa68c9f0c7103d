/* replay.c - kernels measured by CUPTI's range profiler.  In that mode
 * Kineto replays each kernel as often as its counters need and writes one
 * cuda_profiler_range per kernel instead of a "kernel" event: the ranges
 * carry the counters but no correlation or External id, and their times
 * are the replays', laid end to end.  Kineto writes them in launch order,
 * so the n-th range is the n-th kernel launch (HTA's CUPTI counter
 * analysis pairs them the same way); copying the launch's ids onto its
 * range lets the op tree and the roofline attribute the counted FLOPs to
 * the operator that launched the kernel. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "../internal.h"

#define RANGE_CAT "cuda_profiler_range"

static int
is_range(const struct pr_trace *t, uint32_t cat, const struct pr_event *e)
{
    return e->kind == PR_KIND_DEVICE_TASK && pr_event_cat(t, e) == cat;
}

/* The launches HTA pairs with ranges: the runtime's and the driver's. */
static int
is_launch(const struct pr_trace *t, const struct pr_event *e)
{
    const char *n;

    if (e->kind != PR_KIND_RUNTIME_CALL && e->kind != PR_KIND_DRIVER_CALL)
        return 0;
    n = pr_trace_str(t, e->name);
    return strncmp(n, "cudaLaunchKernel", 16) == 0 ||
           strncmp(n, "cuLaunchKernel", 14) == 0;
}

enum pr_status
pr_ingest_link_ranges(struct pr_trace *t)
{
    size_t i, j = 0, n_ranges = 0, n_launches = 0;
    uint32_t cat = pr_strtab_find(t->strs, RANGE_CAT, strlen(RANGE_CAT));

    t->replayed_kernels = t->replay_unlinked = 0;
    if (cat == PR_STR_NONE)
        return PR_OK; /* the common case: no range at all */
    for (i = 0; i < t->n_events; i++) {
        n_ranges += is_range(t, cat, &t->events[i]);
        n_launches += is_launch(t, &t->events[i]);
    }
    t->replayed_kernels = n_ranges;
    if (n_ranges == 0)
        return PR_OK;
    if (n_ranges != n_launches) { /* pairing by order would mislead */
        t->replay_unlinked = n_ranges;
        return PR_OK;
    }
    /* events are sorted by time; both lists are in launch order */
    for (i = 0; i < t->n_events; i++) {
        struct pr_event *r = &t->events[i];

        const struct pr_event *l;

        if (!is_range(t, cat, r))
            continue;
        while (!is_launch(t, &t->events[j]))
            j++;
        l = &t->events[j++];
        if ((pr_event_correlation(t, r) == PR_NO_ID &&
             pr_event_set_correlation(t, r, pr_event_correlation(t, l)) !=
                 PR_OK) ||
            (pr_event_external_id(t, r) == PR_NO_ID &&
             pr_event_set_external_id(t, r, pr_event_external_id(t, l)) !=
                 PR_OK))
            return PR_E_NOMEM;
    }
    return PR_OK;
}
