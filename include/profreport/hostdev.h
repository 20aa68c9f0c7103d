/* hostdev.h - how the host and the devices wait for each other (issue
 * #11): HTA's temporal breakdown per device (compute / communication /
 * memory / idle) with the causes of idle time, host-device
 * synchronisation and the GPU idle time each kind of sync caused inside
 * the steps, copies by direction and host memory kind judged against the
 * host link, and launch evidence (launch delay, queue length per stream,
 * CUDA graphs).  Each measures only; recommend.c reads the results
 * (struct pr_hostdev_out).
 *
 * Times in the summary are µs; a number the trace does not allow is null
 * with a note, never 0. */
#ifndef PROFREPORT_HOSTDEV_H
#define PROFREPORT_HOSTDEV_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/steps.h"
#include "profreport/trace.h"

/* A gap between two pieces of device work shorter than this is "kernel
 * wait" (the launch overhead of back-to-back work): HTA's default
 * consecutive_kernel_delay of 30, compared with gaps in its trace unit,
 * µs (its documentation says nanoseconds; docs/differences.md). */
#define PR_HOSTDEV_KERNEL_WAIT_NS 30000

/* What recommend.c reads of this pass, as C values: the numbers the run's
 * synchronization, copies and launches hold (NaN where they hold null).
 * Strings are borrowed from the trace or static, except the link label. */
struct pr_hostdev_sync {
    const char *name;
    const char *direction; /* a blocking copy's ("HtoD"); NULL */
    double count, idle_us; /* idle_us NaN for stream waits */
    /* of count and idle_us: cuDNN's algorithm search (hostdev.c's
       cudnn_op), a one-time cost on each shape's first call */
    double cudnn_count, cudnn_idle_us;
};

struct pr_hostdev_copy {
    const char *direction;   /* "HtoD", "DtoH", "DtoD", ... */
    const char *host_memory; /* "pageable", "pinned", ... */
    const char *link;        /* label_buf (or borrowed); NULL: no link */
    double count, us, bytes, gbps, link_pct, link_gbps;
    double call_us; /* host time in the calls that enqueued them */
    char label_buf[64];
};

struct pr_hostdev_out {
    double sync_idle_us; /* inside the steps; NaN when not measurable */
    struct pr_hostdev_sync *syncs; /* owned; as synchronization.calls */
    size_t n_syncs;
    struct pr_hostdev_copy *copies; /* owned; as copies.by_kind */
    size_t n_copies;
    int cuda_graphs;
    double host_wait_pct;   /* launches.gpu_idle_host_wait_pct */
    double delay_median_us; /* launches.launch_delay_us.median */
    /* the evidence of who waits for whom (NaN where unknown): */
    double idle_host_share;  /* host wait / device idle, over the devices */
    double idle_other_share; /* HTA's other / device idle, likewise */
    double idle_sync_share;  /* idle after blocking calls / device idle */
    double copy_busy_pct;    /* the most any device's span had a copy from
                                or to the host running (host_copy_pct) */
    double queue_mean;       /* the busiest stream's time-weighted queue */
    double queue_max;        /* the longest queue of any stream */
    /* the kernel launch call that held the host longest
     * (launches.slowest_launch): its time, the share of its step's host
     * time, its name and its step's ("" outside any step) */
    double slow_launch_us, slow_launch_step_pct;
    double slow_launch_delay_us; /* its kernel's start after the call */
    char slow_launch_name[64], slow_launch_step[64];
    /* the device and host clocks (pr_hostdev_skew_note): device work with
     * a launch call, how much of it starts more than 1 µs before its
     * call begins, and the largest such lead */
    double skew_work, skew_early, skew_max_us;
};

/* The "clock_skew" data-quality note of out into text (cap bytes): 1
 * where 10% or more of the work with a launch call (2 at least) starts
 * before its call begins, which no real launch does (a B200 Kineto trace
 * of CUDA 12.9 / driver 13.0: 113 of 179 kernels, by up to 200 µs);
 * the launch delays, queues and idle causes read from those times are
 * then not reliable.  0 otherwise. */
int pr_hostdev_skew_note(const struct pr_hostdev_out *out, char *text,
                         size_t cap);

/* Free what pr_hostdev_fill put into out (accepts a zeroed struct). */
void pr_hostdev_out_free(struct pr_hostdev_out *out);

/* Write run.temporal_breakdown, run.synchronization, run.copies and
 * run.launches (replacing keys that are present), and, when out is not
 * NULL, the same figures into *out for the recommendations.  s gives the
 * step window syncs are judged in.  PR_E_NOMEM on allocation failure. */
PR_NODISCARD enum pr_status
pr_hostdev_fill(const struct pr_trace *t, const struct pr_steps *s, cJSON *run,
                struct pr_hostdev_out *out, struct pr_error *err);

/* Whether copy event e moves data between the host and a device (HtoD or
 * DtoH: CUPTI's "Memcpy HtoD (...)", ROCm's "CopyHostToDevice", or the
 * reader's direction where the name has none); 0 for any other event.
 * Such copies are judged against the host link, never device memory. */
int pr_hostdev_is_host_copy(const struct pr_trace *t, const struct pr_event *e);

/* Host link of a device for its host-device copies from the table in
 * data/devices.json ("host_links"), by device name first, then by
 * architecture ("sm_80", "gfx942").  Writes the link's label into label
 * (cap bytes) and returns its one-direction bandwidth in GB/s; NaN when
 * the table knows neither. */
double pr_hostdev_link(const char *name, const char *arch, char *label,
                       size_t cap);

#endif
