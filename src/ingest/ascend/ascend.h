/* ascend.h - the parts of the ASCEND_PROFILER_OUTPUT folder reader
 * (ascend.c) that read one file kind each: the kernel table
 * (ascend_kernels.c), the operator tables (ascend_ops.c), the step table
 * (ascend_steps.c) and the
 * allocations (ascend_memory.c), the collectives' sizes
 * (ascend_comm.c).  They share one run
 * being built.  Only src/ingest includes this header; spec:
 * shared/spec/other-producers.md §2. */
#ifndef PROFREPORT_INGEST_ASCEND_H
#define PROFREPORT_INGEST_ASCEND_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"
#include "profreport/trace.h"

/* One rank's folder while it is read. */
struct pr_asc {
    struct pr_trace *t; /* the run being built (not owned) */
    const char *out;    /* its ASCEND_PROFILER_OUTPUT folder */
    uint64_t max;       /* bytes one file may hold */
    int has_tv;         /* trace_view.json gave the timeline */
    int has_kernels;    /* kernel_details.csv was read */
    int has_memory;     /* operator_memory.csv was read */
    int has_mem_record; /* memory_record.csv was read */
    int has_comm;       /* communication.json was read */
    int has_matrix;     /* communication_matrix.json was read */
    int has_op_details; /* operator_details.csv was read */
    int has_op_types;   /* op_statistic.csv was read */
    size_t n_sized;     /* collectives it gave a size */
    int64_t device;     /* the NPU's id (0 unless the files say) */
    int device_known;   /* a file said it (a Device_id column) */
    const char *file;   /* one table given alone (issue #30): the only
                           file read, whatever its name, */
    const char *role;   /* as this export's member of that name
                           ("kernel_details.csv") */
};

/* torch_npu's analysis.db beside the SQLite export: its StepTraceTime
 * and CommAnalyzerTime/Bandwidth tables into t->phases (absent tables
 * left out).  Messages start with the path. */
PR_NODISCARD enum pr_status pr_asc_analysis_db(struct pr_trace *t,
                                               const char *path, uint64_t max,
                                               struct pr_error *err);

/* The path of `name` in the output folder, in buf; 0 when it does not
 * fit or is not a regular file.  A table given alone (a->file) is the
 * only member there is. */
int pr_asc_path(const struct pr_asc *a, const char *name, char *buf,
                size_t cap);

/* A µs cell of the export's tables ("17902.5", "1736408883704643.212\t"
 * with the tab torch_npu adds, quoted or not) as exact ns, and an integer
 * cell; 0 when the cell is empty or not such a number. */
int pr_asc_us(const char *s, size_t n, int64_t *ns);
int pr_asc_int(const char *s, size_t n, int64_t *out);

/* kernel_details.csv: with the timeline, its columns onto the tasks that
 * start at the same ns (a row of no task is counted in a gap note);
 * without it, each row a task.  Messages start with the path. */
PR_NODISCARD enum pr_status pr_asc_kernels(struct pr_asc *a,
                                           struct pr_error *err);

/* operator_details.csv and op_statistic.csv, for a run without
 * trace_view.json: the producer's operator totals as the trace's op_stats
 * rows (op_stats.h), which the operator tables then show.  Messages
 * start with the path. */
PR_NODISCARD enum pr_status pr_asc_op_details(struct pr_asc *a,
                                              struct pr_error *err);
PR_NODISCARD enum pr_status pr_asc_op_types(struct pr_asc *a,
                                            struct pr_error *err);

/* Where neither the timeline nor a Device_id column says which NPU the
 * rank ran on: the first "NPU:N" of memory_record.csv's or
 * operator_memory.csv's Device Type (torch's device), into a->device
 * (review 15 #12: old2023's rank 1 is NPU:1 there).  Reads nothing else;
 * a table it cannot read says nothing. */
void pr_asc_memory_device(struct pr_asc *a);

/* memory_record.csv: each memory component's sampled peaks into
 * t->phases (pr_mem_component); absent file: nothing. */
PR_NODISCARD enum pr_status pr_asc_memory_record(struct pr_asc *a,
                                                 struct pr_error *err);

/* operator_memory.csv: allocation and release records, on the thread of
 * the host operators when there are any.  Messages start with the
 * path. */
PR_NODISCARD enum pr_status pr_asc_memory(struct pr_asc *a,
                                          struct pr_error *err);

/* communication.json, for a run without trace_view.json: the bytes
 * each HCCL operation transferred, onto its kernel_details task.
 * Messages start with the path. */
PR_NODISCARD enum pr_status pr_asc_comm(struct pr_asc *a, struct pr_error *err);

/* communication_matrix.json: the traffic of each link of each
 * communication group, as pr_links.  Messages start with the path. */
PR_NODISCARD enum pr_status pr_asc_matrix(struct pr_asc *a,
                                          struct pr_error *err);

/* step_trace_time.csv: the producer's steps ("ProfilerStep#N" windows on
 * the device clock, t->device_steps set), anchored at the first device
 * task of the step.  Host ProfilerStep#N operators stop being steps.
 * Call after the kernels are in the trace and before pr_trace_finish().
 * Messages start with the path. */
PR_NODISCARD enum pr_status pr_asc_steps(struct pr_asc *a,
                                         struct pr_error *err);

#endif
