/* mindspore.h - what the readers of the legacy MindSpore / MindInsight
 * profiler/ folder (mindspore*.c) and of msprof PROF_* folders (msprof*.c)
 * share: the kinds of file the folder holds, told apart by their content;
 * and a builder that turns device tasks into the model when no host
 * timeline exists (graph mode runs every operator as one device task, so
 * the task names its operator).  Spec: shared/spec/other-producers.md §3,
 * shared/spec/flops-and-formats.md §3.2.
 *
 * Only src/ingest includes this header. */
#ifndef PROFREPORT_INGEST_MINDSPORE_H
#define PROFREPORT_INGEST_MINDSPORE_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/buf.h"
#include "profreport/error.h"
#include "profreport/formats.h"
#include "profreport/trace.h"

/* The files of a profiler/ folder, by what their content is.  The names
 * in the comments are MindSpore's; `_{r}` is the rank (or device) id. */
enum pr_ms_kind {
    PR_MS_UNKNOWN = 0,
    /* Ascend (legacy parser) */
    PR_MS_FRAMEWORK,     /* framework_raw_{r}.csv: op_info shapes, types */
    PR_MS_AICORE_DETAIL, /* aicore_intermediate_{r}_detail.csv */
    PR_MS_AICORE_TYPE,   /* aicore_intermediate_{r}_type.csv */
    PR_MS_AICPU,         /* aicpu_intermediate_{r}.csv */
    PR_MS_TIMELINE_DATA, /* output_timeline_data_{r}.txt (CSV, ms) */
    PR_MS_STEP_TRACE,    /* step_trace_raw_{r}_detail_time.csv (10 ns) */
    PR_MS_STEP_POINTS,   /* step_trace_point_info.json */
    PR_MS_FLOPS,         /* flops_{r}.txt */
    PR_MS_FLOPS_SUMMARY, /* flops_summary_{r}.json */
    PR_MS_TIMELINE,      /* [ascend_]timeline_display_{r}.json */
    PR_MS_MIN_CYCLE,     /* min_cycle_counter_{r}.txt: timeline origin */
    PR_MS_HCCL,          /* hccl_raw_{r}.csv */
    PR_MS_CLUSTER,       /* ascend_cluster_analyse_*_{r}.csv */
    /* data pipeline (either device) */
    PR_MS_MINDDATA,     /* minddata_pipeline_raw_{r}.csv */
    PR_MS_DEVICE_QUEUE, /* device_queue_profiling_{r}.txt */
    PR_MS_CPU_UTIL,     /* minddata_cpu_utilization_{r}.json */
    /* GPU (DataSaver) */
    PR_MS_GPU_OP_DETAIL,  /* gpu_op_detail_info_{r}.csv */
    PR_MS_GPU_OP_TYPE,    /* gpu_op_type_info_{r}.csv */
    PR_MS_GPU_ACTIVITY,   /* gpu_activity_data_{r}.csv */
    PR_MS_GPU_KERNEL_TS,  /* activity_execute_timestamp_{r}.txt */
    PR_MS_GPU_OP_TS,      /* op_execute_timestamp_{r}.txt */
    PR_MS_GPU_FRAMEWORK,  /* gpu_framework_{r}.txt: shapes */
    PR_MS_GPU_STEP_TRACE, /* step_trace_profiling_{r}.txt (10 ns) */
    PR_MS_GPU_TIMELINE,   /* gpu_timeline_display_{r}.json */
    PR_MS_CPU_OP_DETAIL,  /* cpu_op_detail_info_{r}.csv (ms) */
    /* known files whose content another file holds too: not read */
    PR_MS_REDUNDANT,
    PR_MS_KIND_COUNT
};

/* Bytes of a file's head the classifier looks at. */
#define PR_MS_HEAD ((size_t)4096)

/* The kind of a file from its first bytes (n may be less than the file;
 * `whole` when it is all of it).  PR_MS_UNKNOWN for anything else. */
enum pr_ms_kind pr_ms_classify(const char *head, size_t n, int whole);

/* Whether a kind belongs to one device family: 1 Ascend, 2 GPU, 0 either
 * (data pipeline files). */
int pr_ms_kind_family(enum pr_ms_kind k);

/* The rank (or device) id a file name carries: its last number between
 * '_' and '_' or '.' ("aicore_intermediate_1_detail.csv" -> 1,
 * "ascend_cluster_analyse_pipeline-parallel_2_4_3.csv" -> 3); -1 when
 * there is none (step_trace_point_info.json belongs to every rank). */
int64_t pr_ms_rank_of(const char *base);

/* The operator type in a MindSpore full name, as MindInsight derives it:
 * the text between the last '/' and the last '-' ("Default/net/Conv2D-op5"
 * -> "Conv2D"); the whole last component when it has no '-'.  Writes at
 * most cap bytes (NUL included). */
void pr_ms_op_type(const char *full, char *out, size_t cap);

/* The collective an operator type names, in the words pr_comm reads
 * ("AllReduce" -> "allreduce", "Receive" -> "recv", "HcomBroadcast" ->
 * "broadcast"); NULL for other operators.  Static result. */
const char *pr_ms_collective(const char *op_type);

/* Exact decimal text to int64 nanoseconds, for a unit of 10^exp ns
 * (exp 6: milliseconds, 3: microseconds, 1: 10 ns ticks, 0: ns); the
 * digits past one nanosecond round half away from zero.  Blanks around
 * the number are allowed.  0 when the text is not a plain decimal number
 * or the result leaves +-2^62 ns. */
int pr_ms_dec_ns(const char *s, size_t n, int exp, int64_t *ns);

/* A CSV column by its name with the blanks around it cut (MindSpore
 * writes "op_name, stream_id, ..."); -1 when absent. */
struct pr_csv;
int pr_ms_csv_col(const struct pr_csv *c, const char *name);

/* A number in a field, blanks around it allowed; 0 when it is none. */
int pr_ms_num(const char *s, double *out);

/* ------------------------------------------------------------ builder */

/* One device task, with the operator that launched it where known. */
struct pr_ms_task {
    const char *name;       /* the task (kernel) name: the op's full name */
    const char *op;         /* operator name (its type, "MatMul"), or NULL */
    const char *shapes;     /* op input shapes as model text, or NULL */
    const char *types;      /* op input types as model text, or NULL */
    const char *collective; /* for a communication task ("allreduce") */
    int64_t ts_ns, dur_ns;
    int64_t stream;    /* -1 unknown */
    const char *row;   /* the timeline row instead of the stream
                          number ("AI CPU"), or NULL */
    enum pr_kind kind; /* DEVICE_TASK, COPY, SYNC, OTHER */
    enum pr_unit unit;
    double flops;              /* measured FLOPs of one call; -1 unknown */
    int64_t bytes;             /* copy or message bytes; -1 unknown */
    int32_t grid[3], block[3]; /* GPU launch shape; 0 unknown */
    int32_t block_dim;         /* Ascend Block Dim, when has_block_dim */
    int has_block_dim;
    /* the host thread and instant that launched it (msprof's HostToDevice
       flow start), or NULL: the op and its launch sit at its own start */
    const char *launch_tid;
    int64_t launch_ts_ns, launch_dur_ns; /* the launching call's span */
};

/* Builds one run's trace: device tasks on pid = device id, tid = stream,
 * each operator as a zero-length host op at its task's start (graph mode
 * has no host time per op) linked through a zero-length launch, as the op
 * tree links Kineto's operators to their kernels; steps as
 * ProfilerStep#N annotations. */
struct pr_ms_builder {
    struct pr_trace *t; /* borrowed */
    int64_t device;     /* device id of the tasks; -1 unknown */
    int64_t next_id;    /* correlation / external ids handed out */
    uint32_t host_pid, step_tid, launch;
};

PR_NODISCARD enum pr_status
pr_ms_builder_init(struct pr_ms_builder *b, struct pr_trace *t, int64_t device,
                   const char *format, struct pr_error *err);

/* Add one task (strings copied).  PR_E_NOMEM, PR_E_FORMAT for a negative
 * duration (messages without a file name). */
PR_NODISCARD enum pr_status pr_ms_add_task(struct pr_ms_builder *b,
                                           const struct pr_ms_task *k,
                                           struct pr_error *err);

/* Add step `number` over [start_ns, end_ns).  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_ms_add_step(struct pr_ms_builder *b,
                                           int64_t number, int64_t start_ns,
                                           int64_t end_ns,
                                           struct pr_error *err);

/* A host operator call with its own duration (GPU runs time every op
 * call on the host): `op` is its type, the call is held on host row `row`
 * ("Ops"); *ext receives the id its kernels are linked with
 * (pr_ms_add_kernel).  PR_E_NOMEM, PR_E_FORMAT for a negative duration. */
struct pr_ms_call {
    const char *op;     /* operator type ("Conv2D") */
    const char *shapes; /* input shapes as model text, or NULL */
    const char *row;    /* host row */
    int64_t ts_ns, dur_ns;
};
PR_NODISCARD enum pr_status pr_ms_add_op(struct pr_ms_builder *b,
                                         const struct pr_ms_call *c,
                                         int64_t *ext, struct pr_error *err);

/* A device task launched by the operator call `ext` (from pr_ms_add_op,
 * which started at op_ts_ns on host row `row`); k->op must be NULL.  The
 * launch is a zero-length runtime call at the op's start. */
PR_NODISCARD enum pr_status pr_ms_add_kernel(struct pr_ms_builder *b,
                                             const struct pr_ms_task *k,
                                             int64_t ext, int64_t op_ts_ns,
                                             const char *row,
                                             struct pr_error *err);

/* A device range that is not a task (a step phase, a stream-parallel
 * segment): kept on the device's "Step Trace" row, not counted. */
PR_NODISCARD enum pr_status pr_ms_add_range(struct pr_ms_builder *b,
                                            const char *name, int64_t ts_ns,
                                            int64_t dur_ns,
                                            struct pr_error *err);

/* ------------------------------------------------------------ readers */

struct pr_ms_file {
    char *path; /* owned */
    enum pr_ms_kind kind;
    int64_t rank;
};

/* The files of one run: one rank of one device family. */
struct pr_ms_unit {
    int64_t rank; /* -1 when no file names one */
    int family;   /* 1 Ascend, 2 GPU */
    const struct pr_ms_file *by_kind[PR_MS_KIND_COUNT]; /* borrowed */
};

/* Read the files of an Ascend or a GPU unit into t (a new trace). */
PR_NODISCARD enum pr_status pr_ms_ascend_read(const struct pr_ms_unit *u,
                                              const struct pr_read_opts *o,
                                              struct pr_trace *t,
                                              struct pr_error *err);
PR_NODISCARD enum pr_status pr_ms_gpu_read(const struct pr_ms_unit *u,
                                           const struct pr_read_opts *o,
                                           struct pr_trace *t,
                                           struct pr_error *err);

/* minddata_pipeline_raw_{r}.csv, read once for its two readers (the
 * host CPU's, which types each operator's series, and the data
 * pipeline's, which reads its queues; issue #30) on the first's use
 * (pr_ms_praw_get): the columns they read and each record's fields as
 * text, each reader making of them what it made of the file before. */
enum {
    PR_MS_PRAW_ID,       /* op_id */
    PR_MS_PRAW_TYPE,     /* op_type */
    PR_MS_PRAW_WORKERS,  /* num_workers */
    PR_MS_PRAW_SIZES,    /* output_queue_size */
    PR_MS_PRAW_LENGTH,   /* output_queue_length */
    PR_MS_PRAW_PARENT,   /* parent_id */
    PR_MS_PRAW_CHILDREN, /* children_id */
    PR_MS_PRAW_COLS
};

struct pr_ms_praw_row {
    char *f[PR_MS_PRAW_COLS]; /* owned; "" where the record has none */
    uint64_t line;            /* where the record starts, for messages */
};

struct pr_ms_praw {
    const char *path; /* borrowed; NULL: no such file */
    uint64_t max;     /* bytes at most */
    int made;
    int opened;               /* the header was read */
    int col[PR_MS_PRAW_COLS]; /* the header's column; -1 absent */
    uint64_t head_line;       /* the line after the header was read */
    struct pr_ms_praw_row *rows;
    size_t n, cap;
    /* how the reading ended: PR_OK, or the error that stopped it after
       rows[0..n) (opening the file: no rows, col all -1), its message
       named by line and file as pr_csv_done names it */
    enum pr_status st;
    struct pr_error err;
};

/* p for the file at path (NULL: none), read on first use, at most max
 * bytes. */
void pr_ms_praw_init(struct pr_ms_praw *p, const char *path, uint64_t max);
/* p read (once): PR_OK, p->st saying how the reading ended; PR_E_NOMEM
 * alone. */
PR_NODISCARD enum pr_status pr_ms_praw_get(struct pr_ms_praw *p,
                                           struct pr_error *err);
void pr_ms_praw_free(struct pr_ms_praw *p);

/* The host CPU use of minddata_cpu_utilization_{r}.json into t->cpu_use,
 * each operator typed from minddata_pipeline_raw_{r}.csv when pipe names
 * one (mindspore_cpu.c).  PR_E_FORMAT (the file named) for a file that is
 * not the sampler's, PR_E_IO, PR_E_LIMIT, PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_ms_cpu_read(const char *cpu_path,
                                           struct pr_ms_praw *pipe,
                                           uint64_t max, struct pr_trace *t,
                                           struct pr_error *err);

/* The data pipeline's queues (pipeline_profiling_{r}.json found beside
 * the unit's files, minddata_pipeline_raw_{r}.csv (pipe), device_queue_
 * profiling_{r}.txt) into t->minddata, after t->cpu_use is read
 * (mindspore_minddata.c).  A damaged file is a data-quality gap, not a
 * failure: the files are optional.  PR_E_NOMEM alone. */
PR_NODISCARD enum pr_status
pr_ms_minddata_read(const struct pr_ms_unit *u, struct pr_ms_praw *pipe,
                    uint64_t max, struct pr_trace *t, struct pr_error *err);

#endif
