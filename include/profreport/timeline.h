/* timeline.h - the per-stream timeline of one representative step: what
 * each GPU stream (and the host threads that launched its work) did during
 * the step whose duration is closest to the median.  Renderers draw it
 * from the summary's run "timeline" object alone. */
#ifndef PROFREPORT_TIMELINE_H
#define PROFREPORT_TIMELINE_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/steps.h"
#include "profreport/trace.h"

/* About this many spans are kept in all; beyond it, short neighbouring
 * spans are merged into one "… N kernels" span. */
#define PR_TIMELINE_MAX_SPANS 1500
/* A span shorter than step / PR_TIMELINE_PIXELS is merged with its short
 * neighbours first: it would be under a pixel wide on any report chart. */
#define PR_TIMELINE_PIXELS 2000
/* Host threads shown next to the GPU streams, busiest launchers first. */
#define PR_TIMELINE_HOST_LANES 2

/* Replace run's "timeline" with
 *   {"step", "start_us", "duration_us", "merge_below_us", "n_events",
 *    "lanes": [{"name", "kind": "gpu"|"host", "spans":
 *               [[start_us, duration_us, kind, name], ...]}, ...]}
 * where span starts are µs from the step start, clipped to the step, and
 * lanes are GPU streams by (device, stream), then host threads by tid.
 * Leaves it null when there is no step or the step has no kernel, memcpy
 * or memset.  Strings are copied: the tree outlives t.  PR_E_NOMEM on
 * allocation failure. */
PR_NODISCARD enum pr_status pr_timeline_fill(const struct pr_trace *t,
                                             const struct pr_steps *steps,
                                             cJSON *run, struct pr_error *err);

#endif
