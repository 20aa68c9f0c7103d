/* msprof.h - what the readers of CANN msprof output share: the folder
 * reader (msprof.c: PROF_* folders, their device_N/ timelines, start_info
 * clock and info.json rank) and the op_summary reader (msprof_op.c: the
 * op_summary CSV, inside a PROF_* folder or given alone).  Spec:
 * shared/spec/other-producers.md §2.3, §2.6; flops-and-formats.md §3.3.
 *
 * Only src/ingest includes this header. */
#ifndef PROFREPORT_INGEST_MSPROF_H
#define PROFREPORT_INGEST_MSPROF_H

#include <stddef.h>
#include <stdint.h>

#include "../mindspore/mindspore.h"
#include "profreport/error.h"
#include "profreport/formats.h"
#include "profreport/trace.h"

/* Times below this many ns are a device's monotonic clock (uptime: years
 * would be needed to reach it); above it, Unix time (after 2001). */
#define PR_MSPROF_EPOCH_NS ((int64_t)1000000000 * 1000000000)

/* One device's run being built. */
struct pr_msprof_run {
    struct pr_trace *t;      /* borrowed: the trace being filled */
    struct pr_ms_builder b;  /* tasks, operators and steps go through it */
    int64_t device;          /* the device id (device_N); 0 when unknown */
    int64_t clock_ns;        /* monotonic -> Unix ns: add this */
    int has_clock;           /* start_info was read */
    uint64_t max;            /* byte cap of one input file */
    size_t n_tasks;          /* device tasks the timelines gave */
    size_t n_summary_tasks;  /* op_summary rows read as tasks */
    size_t n_summary_merged; /* op_summary rows that detailed a task */
    int npu_cores;           /* info.json's ai_core_num; -1 not stated */
    int npu_vector_cores;    /* its aiv_num when > 0; -1 otherwise */
};

/* A time as the run keeps it: Unix ns when `ns` is on the device's
 * monotonic clock and start_info gave the offset, as written otherwise.
 * 0 when the sum leaves the int64 range. */
int pr_msprof_time(const struct pr_msprof_run *r, int64_t ns, int64_t *out);

/* The side record of the task the builder added last (it adds a task's
 * own event after its operator's), or NULL when that event has none. */
struct pr_gpu_info *pr_msprof_last_task(struct pr_trace *t);

/* Whether a CSV header line (the first bytes of a file) is op_summary's:
 * "Op Name" with "OP Type" and "Task Type" and a task duration column
 * (every generation; kernel_details.csv says "Name" and "Accelerator Core"
 * instead and is not ours). */
int pr_msprof_is_op_summary(const char *head, size_t n);

/* Read an op_summary CSV into r: each row a device task with its operator
 * (OP Type), shapes and dtypes (only shapes in logical formats feed the
 * operator's input shapes: NC1HWC0 and FRACTAL_Z are tiled layouts), HF32
 * flag, block count and PMU figures.  When the run already holds the
 * timeline's tasks, a row details the task of its stream, task id and
 * start instead of adding one.  Messages start with the path. */
PR_NODISCARD enum pr_status pr_msprof_op_summary(const char *path,
                                                 struct pr_msprof_run *r,
                                                 struct pr_error *err);

#endif
