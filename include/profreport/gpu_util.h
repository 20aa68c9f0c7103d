/* gpu_util.h - per-GPU metrics of spec/tb-plugin-semantics.md section 9:
 * utilization (9.1), estimated SM efficiency (9.2), estimated achieved
 * occupancy (9.3), kernel time, and the utilization timeline (9.6).
 * GPUs are identified by the kernels' args.device, as in the plugin. */
#ifndef PROFREPORT_GPU_UTIL_H
#define PROFREPORT_GPU_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/trace.h"

/* Time windows the metrics are measured over (ns, trace clock). */
struct pr_gpu_window {
    int64_t steps_start_ns, steps_end_ns;   /* 6.5 */
    int64_t global_start_ns, global_end_ns; /* 6.1, for the timeline */
    int64_t origin_ns;                      /* subtracted from t_us */
    int capture; /* no steps: the window is the capture (issue #29) */
};

/* The figures of one gpu_metrics row that later passes read in C (the
 * recommendations, issue #10), as the row writes them. */
struct pr_gpu_row {
    int32_t device;
    double utilization_pct; /* NaN where the row writes null */
    int64_t kernel_ns;      /* written as kernel_time_us */
};

struct pr_gpu_rows {
    struct pr_gpu_row *v; /* owned; one per gpu_metrics row, in order */
    size_t n;
};

void pr_gpu_rows_free(struct pr_gpu_rows *r); /* accepts a freed one */

/* Build the "gpu_metrics" array: one object per GPU id in ascending order
 * with device, utilization_pct, est_sm_efficiency_pct,
 * est_achieved_occupancy_pct (null where not computable), kernel_time_us
 * and utilization_series {bucket_us, t_us[], utilization_pct[]}, and
 * *rows, the same rows' figures in C.  *out is a new array and rows->v
 * new memory, both owned by the caller.  PR_E_NOMEM on failure (*out NULL,
 * rows empty). */
PR_NODISCARD enum pr_status
pr_gpu_util_build(const struct pr_trace *t, const struct pr_gpu_window *w,
                  cJSON **out, struct pr_gpu_rows *rows, struct pr_error *err);

/* The device of rows with the most kernel time (ties: the lowest id), or
 * -1 when there is none: pr_gpu_util_busiest of the trace the rows were
 * built from, without another pass over its events. */
int32_t pr_gpu_rows_busiest(const struct pr_gpu_rows *rows);

/* The device the most kernel time ran on (the kernel_time_us of its
 * gpu_metrics row; ties: the lowest id), or -1 when no kernel names its
 * device (or on out-of-memory: the caller then falls back to its first
 * device). */
int32_t pr_gpu_util_busiest(const struct pr_trace *t);

#endif
