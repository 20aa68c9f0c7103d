/* memory.h - the memory view (spec/tb-plugin-semantics.md §12): per device
 * the allocated/reserved curve (downsampled, peak kept) and the peak; per
 * device and operator the size-increase and allocation tables, with records
 * attributed to the deepest enclosing operator of the same thread's tree.
 * Allocations outside any operator and frees without a matching allocation
 * are counted, not dropped. */
#ifndef PROFREPORT_MEMORY_H
#define PROFREPORT_MEMORY_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/steps.h"
#include "profreport/trace.h"
#include "profreport/tree.h"

#define PR_MEMORY_MAX_POINTS 2000

/* Replace run's "memory" with the memory view, or leave it null when the
 * trace has no [memory] events.  `steps` may be NULL (no peak step). */
PR_NODISCARD enum pr_status pr_memory_fill(const struct pr_trace *t,
                                           const struct pr_tree *tree,
                                           const struct pr_steps *steps,
                                           cJSON *run, struct pr_error *err);

/* Add run's "memory_timeline" from torch.profiler's raw memory timeline
 * (t->memtl, memtl.h); nothing when the trace has none. */
PR_NODISCARD enum pr_status pr_memtl_fill(const struct pr_trace *t, cJSON *run,
                                          struct pr_error *err);

/* The verdict's text and no_finding for a raw memory timeline (t->memtl),
 * into the verdict being made (whatif.h): the reason no bound is named is that
 * the file records memory only, not that a trace had no step.  Nothing when the
 * trace has none. */
struct pr_verdict; /* whatif.h */
void pr_memtl_verdict(const struct pr_trace *t, struct pr_verdict *v);

/* Keep at most `max` of n points (indexes into the caller's arrays, written
 * to out[], time order) so that the curve's shape and its maximum survive:
 * per bucket the first, the lowest and the highest point.  Returns the
 * number kept.  `max` must be >= 4. */
size_t pr_memory_downsample(const double *y, size_t n, size_t max, size_t *out);

#endif
