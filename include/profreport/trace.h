/* trace.h - the in-memory model of one profiling trace file (one worker and
 * span).  Ingest builds it; after pr_trace_finish() it is read-only and every
 * analysis takes `const struct pr_trace *`.
 *
 * Ownership: the trace owns everything reachable from it (events, the side
 * tables and the string table); pr_trace_free() releases it in one call.
 * Strings are interned: fields named `name`, `cat`, `pid`, `tid`, ... hold
 * string ids, resolved with pr_trace_str().
 *
 * Time is int64 nanoseconds.  Trace `ts`/`dur` are microseconds; ingest
 * converts exactly once (round(us * 1000)).  When the file carries
 * baseTimeNanoseconds, ts stays relative to it (as written). */
#ifndef PROFREPORT_TRACE_H
#define PROFREPORT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"
#include "profreport/strtab.h"

struct pr_shapes_table; /* shapes.h */

#define PR_NO_ID INT64_MIN    /* absent external id / correlation / addr */
#define PR_NO_INFO UINT32_MAX /* event has no side-table record */

/* What an event is, in profreport's own terms; every producer maps its
 * records onto these (the Kineto reader maps categories such as "cpu_op"
 * or "cuda_runtime" in ingest/events.c).  Values are stable: analyses
 * switch on them and they are never renumbered.  A collective on a device
 * (an NCCL or HCCL kernel) is a device task whose side record names the
 * collective (pr_gpu_info.collective); a step is an annotation named
 * "ProfilerStep#N". */
enum pr_kind {
    PR_KIND_OTHER = 0,         /* a duration we do not model (kept, unused) */
    PR_KIND_HOST_OP,           /* a framework operator on the host, with
                                  shapes and types (aten::mm) */
    PR_KIND_ANNOTATION,        /* a user or framework range on the host
                                  (record_function, ProfilerStep#N) */
    PR_KIND_DEVICE_ANNOTATION, /* a host range projected onto a stream */
    PR_KIND_PY_LEGACY,         /* a Python frame of the legacy profiler */
    PR_KIND_PY_FUNCTION,       /* a Python frame (an nn.Module when its side
                                  record has a module id) */
    PR_KIND_RUNTIME_CALL,      /* a host call into the device runtime
                                  (cudaLaunchKernel, aclrtMemcpyAsync) */
    PR_KIND_DRIVER_CALL,       /* a host call into the driver (not counted
                                  as runtime by the plugin semantics) */
    PR_KIND_DEVICE_TASK,       /* a kernel or other compute task on a device
                                  stream */
    PR_KIND_COPY,              /* a memory copy on a device stream */
    PR_KIND_SET,               /* a memory fill on a device stream */
    PR_KIND_PROFILER_SPAN,     /* the profiler's own recording window */
    PR_KIND_MEMORY_RECORD,     /* an allocation or release (an instant) */
    PR_KIND_SYNC,              /* a host wait for a device or stream (a
                                  CUPTI sync record) */
    PR_KIND_DEVICE_SYNC,       /* a device command that waits for or
                                  records an event on a stream (MTIA's
                                  event_wait, Ascend's Notify Wait): the
                                  device waits, never the host */
    PR_KIND_COUNT
};

/* Whether an event of this kind widens the capture (the window of a run
 * without steps, 6.1's extent): what the program did, its calls into the
 * runtime and the driver included, not the profiler's own records (sync
 * records, memory records, unknown categories).  A driver call is a call
 * the process made: nsys_mock's first, cuModuleGetLoadingMode, came
 * 22.8 ms before its first runtime call, and a window that left it out
 * was a slice of the capture (review 20 finding 6). */
static inline int
pr_kind_in_capture(int kind)
{
    return kind != PR_KIND_OTHER && kind != PR_KIND_SYNC &&
           kind != PR_KIND_DEVICE_SYNC && kind != PR_KIND_MEMORY_RECORD;
}

/* The compute unit a device task ran on, where the producer says so
 * (Ascend's Accelerator Core / Task Type); UNKNOWN for CUDA kernels, whose
 * tensor-core use is judged by name.  Values are stable. */
enum pr_unit {
    PR_UNIT_UNKNOWN = 0,
    PR_UNIT_MATRIX,     /* the matrix unit: Ascend AI Core Cube (AIC) */
    PR_UNIT_VECTOR,     /* the vector unit: Ascend AI Vector core (AIV) */
    PR_UNIT_MIX_MATRIX, /* a fused task led by the matrix unit (MIX_AIC) */
    PR_UNIT_MIX_VECTOR, /* a fused task led by the vector unit (MIX_AIV) */
    PR_UNIT_CPU,        /* a device-side CPU (Ascend AI CPU) */
    PR_UNIT_OTHER,      /* another engine (DSA random numbers) */
    PR_UNIT_COMM        /* the collective engine (HCCL): the task is
                           communication, whatever its name */
};

/* Most events a trace may hold: an event's file order shares a word with
 * its kind (pr_trace_add_event() refuses more). */
#define PR_MAX_EVENTS ((size_t)1 << 27)

/* An event's category, process and thread (string ids), kept once per
 * distinct triple: a run has millions of events but a few hundred such
 * triples.  The event holds the triple's index. */
struct pr_where {
    uint32_t cat; /* the raw category */
    uint32_t pid; /* numbers in canonical decimal */
    uint32_t tid; /* the thread, or a device task's stream; numbers: the
                     decimal of |tid| */
};

/* Interned triples: index 0 is (0, 0, 0) whether stored or not. */
struct pr_wheres {
    struct pr_where *v; /* owned, n */
    size_t n, cap;
    uint32_t *slots; /* owned open-addressing table: index + 1, 0 free */
    size_t n_slots;  /* a power of two, or 0 */
};

/* Ids an event cannot hold in its 32-bit slot (negative, or above
 * INT32_MAX): the slot holds -2 - their index here. */
struct pr_wide_ids {
    int64_t *v; /* owned, n */
    size_t n, cap;
};

/* One duration or memory event, 40 bytes: there are more of them than of
 * anything else a run holds (2.4 million in a 1 GB trace).  The kind is
 * packed beside the file order; both, the times, the name and the
 * side-record index are plain fields.  The ids, category, process and
 * thread are read and written only with pr_event_external_id() and the
 * other pr_event_*() accessors below, never as fields: the ids are 32-bit
 * codes (most ids fit; wider ones go to the trace's table of wide ids)
 * and the other three share an index into the trace's interned triples.
 * Events are sorted by (ts_ns, file order) after pr_trace_finish(). */
struct pr_event {
    int64_t ts_ns;
    int64_t dur_ns;      /* >= 0; 0 for instants */
    uint32_t name;       /* string id */
    uint32_t where;      /* index of (cat, pid, tid): pr_event_cat() */
    uint32_t info;       /* index into ops / gpu / mem by kind; PR_NO_INFO */
    unsigned order : 27; /* index of the event in the file (0-based),
                            < PR_MAX_EVENTS */
    unsigned kind : 5;   /* enum pr_kind */
    /* "External id" (args "External id" / "external id") and
     * "correlation" as codes: >= 0 the id itself, -1 PR_NO_ID, <= -2 a
     * wide id (pr_wide_ids_get()) */
    int32_t ext_code;
    int32_t corr_code;
};

/* The id of a code; PR_NO_ID for -1. */
static inline int64_t
pr_wide_ids_get(const struct pr_wide_ids *w, int32_t code)
{
    if (code >= 0)
        return code;
    return code == -1 ? PR_NO_ID : w->v[-(int64_t)code - 2];
}

/* Set *code to the code of id, storing id in w when it is too wide (a
 * code that already names a wide slot reuses it).  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_wide_ids_set(struct pr_wide_ids *w,
                                            int32_t *code, int64_t id);
/* Empty w, keeping its memory. */
void pr_wide_ids_reset(struct pr_wide_ids *w);
void pr_wide_ids_free(struct pr_wide_ids *w);

/* The triple of index id ((0, 0, 0) for 0 or past the end). */
static inline struct pr_where
pr_wheres_get(const struct pr_wheres *w, uint32_t id)
{
    struct pr_where z = {0, 0, 0};

    return id < w->n ? w->v[id] : z;
}

/* The index of (cat, pid, tid) in w, added when new.  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_wheres_intern(struct pr_wheres *w, uint32_t cat,
                                             uint32_t pid, uint32_t tid,
                                             uint32_t *id);
/* Empty w, keeping its memory. */
void pr_wheres_reset(struct pr_wheres *w);
void pr_wheres_free(struct pr_wheres *w);

/* Side record for host events (ops, annotations, python functions), as
 * readers fill it and analyses read it.  The trace keeps it compactly
 * (struct pr_op_rec): a reader fills the record pr_trace_add_op() hands
 * out, an analysis reads a copy with pr_trace_op(). */
struct pr_op_info {
    /* The recorded inputs as text (string ids, PR_STR_NONE when absent),
     * each parsed once at ingest into t->shapes (shapes.h): analyses read
     * the parsed form with pr_shapes_get(), the summary shows the text. */
    uint32_t input_dims;      /* "Input Dims" as the plugin prints it
                                 ("[[32, 3], []]") */
    uint32_t input_types;     /* "[float, float]" style text */
    uint32_t concrete_inputs; /* JSON text ("[\"\", \"1\"]") */
    uint32_t input_strides;   /* "Input Strides" (PyTorch >= 2.1) when one
                                 of its strides is 0 (a broadcast view);
                                 PR_STR_NONE otherwise.  Kept with the
                                 FLOP count (struct pr_op_flops): few ops
                                 have one */
    uint32_t stack;           /* "Call stack" string id (PR_STR_NONE when
                                 absent): frames "path(line): function",
                                 innermost first, each ended by ';' and
                                 perhaps "\r\n" (torch_npu) */
    int64_t seq;              /* "Sequence number"; -1 absent */
    int64_t fwd_tid;          /* "Fwd thread id"; -1 absent */
    double flops;             /* trace's own "flops" arg; -1 absent */
    /* The Python tracer's ids are kept apart (struct pr_py_ids): most op
     * records are operators', which have none. */
};

/* An op record as the trace stores it, 16 bytes (there are more than a
 * million in a 1 GB trace): the three input texts as one interned triple
 * (a run has millions of calls but a few thousand distinct inputs), the
 * sequence number and forward thread as 32-bit codes (the value when it
 * is in -1..INT32_MAX, else -2 - its slot in the trace's table of wide
 * ids), the producer's FLOPs and broadcast strides, which few records
 * have, in a table of their own (struct pr_op_flops).  Read and written only
 * through pr_trace_add_op(), pr_trace_op_edit() and pr_trace_op(). */
struct pr_op_rec {
    uint32_t inputs; /* index of (dims, types, concrete) in t->op_inputs */
    uint32_t stack;  /* string id; PR_STR_NONE */
    int32_t seq;     /* code of pr_op_info.seq */
    int32_t fwd_tid; /* code of pr_op_info.fwd_tid */
};

/* The FLOPs of op record `op` when the producer gave them (not -1). */
struct pr_op_flops {
    uint32_t op;
    uint32_t strides; /* pr_op_info.input_strides (in what was padding) */
    double flops;     /* -1: none */
};

/* The Python tracer's ids of the frame whose op record is number op
 * (pr_trace_py()).  The tracer numbers its frames and modules from 0
 * up, so 32 bits hold them; a reader stores -1 for one outside that
 * range. */
struct pr_py_ids {
    uint32_t op;    /* index of the op record */
    int32_t id;     /* "Python id"; -1 absent */
    int32_t parent; /* "Python parent id"; -1 absent */
    int32_t module; /* "Python module id" (an nn.Module); -1 absent */
};

/* Which way a copy went (CUDA's HtoD, DtoH, ...; Ascend's SDMA tasks do
 * not say).  Values are stable. */
enum pr_copy_dir {
    PR_DIR_UNKNOWN = 0,
    PR_DIR_H2D, /* host to device */
    PR_DIR_D2H, /* device to host */
    PR_DIR_D2D, /* within a device */
    PR_DIR_P2P, /* between devices */
    PR_DIR_H2H  /* host to host */
};

/* Side record for kernels, memcpy and memset, as readers fill it and
 * analyses read it (136 bytes, no padding).  Readers fill it in place
 * (pr_trace_add_gpu(), t->gpu[i]) until pr_trace_finish(), which keeps
 * it compactly from then on (struct pr_gpu_rec); analyses read a copy
 * with pr_trace_gpu(). */
/* The dtype of a collective whose size is only what its rank sent over
 * its links (communication.json's Transit Size, msprof's plane tasks):
 * the message is that over the collective's link factor, which needs its
 * group's size (analysis/distributed/comm.c). */
#define PR_DTYPE_LINK_BYTES "link bytes"

struct pr_gpu_info {
    int32_t device;  /* args.device; -1 absent */
    int32_t stream;  /* args.stream; -1 absent */
    int32_t grid[3]; /* 0 when absent */
    int32_t block[3];
    int32_t regs_per_thread; /* -1 absent */
    int32_t shared_mem;      /* bytes; -1 absent */
    double blocks_per_sm;    /* NaN when absent (+inf for "inf") */
    double occupancy_pct;    /* "est. achieved occupancy %", NaN absent */
    int64_t bytes;           /* memcpy/memset bytes; -1 absent */
    /* collective metadata copied onto NCCL kernels (newer PyTorch) */
    int64_t in_nelems;   /* "In msg nelems"; -1 absent */
    int64_t out_nelems;  /* "Out msg nelems"; -1 absent */
    uint32_t collective; /* "Collective name" string id; PR_STR_NONE */
    uint32_t dtype;      /* "dtype" string id ("Float"); PR_STR_NONE;
                            PR_DTYPE_LINK_BYTES: in_nelems is not the
                            message but the bytes this rank sent over its
                            links (Ascend's Transit Size) */
    int32_t group_size;  /* "Group size"; -1 absent */
    /* what a producer states about the task (Ascend); absent for Kineto */
    uint32_t task_type; /* producer's task type ("AI_CORE", "SDMA");
                           PR_STR_NONE */
    /* FLOPs the kernel executed, counted by CUPTI's SASS instruction
     * counters (a cuda_profiler_range of a kernel-replay trace: an FMA is
     * 2, an add or multiply 1); -1 absent */
    double measured_flops;
    int64_t task_id;        /* -1 absent */
    double matrix_util_pct; /* the producer's matrix-unit utilisation
                               (cube_utilization(%)); NaN absent */
    uint32_t op_type;       /* operator type of the task ("MatMulV2");
                               PR_STR_NONE */
    uint32_t dev_types;     /* input dtypes as the device holds them
                               ("['float', 'float']"); PR_STR_NONE */
    uint32_t dev_shapes;    /* input shapes in device formats (NC1HWC0,
                               FRACTAL_Z: tiled, so never for FLOP
                               formulas); PR_STR_NONE */
    uint8_t copy_dir;       /* copies: enum pr_copy_dir */
    uint8_t unit;           /* enum pr_unit the task ran on */
    int8_t hf32;            /* HF32 Eligible: 1 yes, 0 no, -1 absent */
    int32_t block_dim;      /* Ascend: the blocks the task's tiling split
                               it into, one AI Core (or AI Vector core)
                               each at a time (Block Dim, block_dim,
                               blockDim); -1 absent */
};

/* A kernel record as the trace keeps it after pr_trace_finish(), 72
 * bytes (there are about a million in a 3 GB trace): what every CUDA
 * kernel, copy and fill has, and the index of the rest (collective
 * metadata, the Ascend task fields, measured FLOPs), which few records
 * have, in t->gpu_more.  Read only through pr_trace_gpu(). */
struct pr_gpu_rec {
    int32_t device, stream;
    int32_t grid[3], block[3];
    int32_t regs_per_thread, shared_mem;
    double blocks_per_sm, occupancy_pct;
    int64_t bytes;
    uint32_t more; /* index in t->gpu_more; PR_NO_INFO: all absent */
    uint8_t copy_dir, unit;
    int8_t hf32;
};

/* The fields of a kernel record that few records have. */
struct pr_gpu_more {
    int64_t in_nelems, out_nelems;
    uint32_t collective, dtype;
    int32_t group_size;
    uint32_t task_type;
    double measured_flops;
    int64_t task_id;
    double matrix_util_pct;
    uint32_t op_type, dev_types, dev_shapes;
    int32_t block_dim;
};

/* Side record for [memory] instants. */
struct pr_mem_info {
    int32_t device_type; /* c10::DeviceType: 0 CPU, 1 CUDA, 6 HIP;
                            other = unknown */
    int32_t device_id;
    int64_t addr;           /* PR_NO_ID when absent */
    int64_t bytes;          /* > 0 allocation, <= 0 release */
    double total_allocated; /* NaN when absent */
    double total_reserved;  /* NaN when absent */
};

/* A fwdbwd flow endpoint. */
struct pr_flow {
    int64_t id;
    int64_t ts_ns;
    char ph; /* 's' or 'f' */
};

/* One entry of deviceProperties; numeric fields are -1 when absent. */
struct pr_device {
    int64_t id;
    uint32_t name; /* string id */
    int64_t total_global_mem;
    int compute_major, compute_minor;
    int num_sms;
    int max_threads_per_block, max_threads_per_sm;
    int regs_per_block, regs_per_sm, warp_size;
    int64_t smem_per_block, smem_per_sm, smem_per_block_optin;
    uint32_t arch; /* HIP's gcnArchName ("gfx942:sramecc+:xnack-"), string
                      id; PR_STR_NONE when not given */
    /* Ascend: the AI Cores and AI Vector cores the export states
       (msprof's info.json ai_core_num, aiv_num); -1 not stated */
    int npu_cores, npu_vector_cores;
    /* what an export states of the part itself (Nsight Systems'
       TARGET_INFO_GPU clockRate and memoryBandwidth): the SM clock in
       MHz and the memory bandwidth in 10^9 B/s; -1 not stated */
    double clock_mhz, mem_gbps;
    /* the input does not say which device this is (an Ascend export with
       no "NPU N" label, packed pid, Device_id or memory Device Type): id
       is 0 for the model, and the reports say the id is unknown */
    int id_unknown;
};

/* A file of a run folder that the folder's loader did not read, and why
 * (string ids); the pipeline warns about each one, as discovery does for
 * the members of folders no format claims. */
struct pr_skip {
    uint32_t path;
    uint32_t why;
};

/* Something the input's format cannot give (an Nsight Systems export
 * without input shapes has no FLOPs): string ids of a short kind
 * ("no_shapes") and of the sentence the report shows, with how many
 * records it concerns (0 when it is about the whole input). */
struct pr_gap {
    uint32_t kind;
    uint32_t text;
    size_t count;
};

/* One link of a run's collective traffic as the producer summed it
 * (Ascend's communication_matrix.json): from one rank of a communication
 * group to another, over one transport, over the whole capture.  The
 * analysis adds up records of the same group, ranks and transport. */
struct pr_link {
    int32_t src, dst;   /* ranks within the group (>= 0) */
    uint32_t group;     /* the group's id as text; PR_STR_NONE unknown */
    uint32_t transport; /* "HCCS", "PCIE", "RDMA", "SIO", "LOCAL" ... */
    int64_t bytes;      /* >= 0 */
    int64_t time_ns;    /* >= 0 */
};

/* One HCCL plane task that names its peer (torch_npu's trace_view and
 * msprof's hccl timeline: "src rank", "dst rank" of a Notify_Wait,
 * Memcpy, Reduce_Inline or RDMASend), kept for the peer-wait reading
 * of the critical path: a Notify Wait waits for dst's notify; a
 * transfer between two ranks is where msprof-analyze's Synchronization
 * (the wait before the first transfer) ends.  Tasks of one rank alone
 * (dst == src, or 4294967295 "no peer") are not kept. */
struct pr_hccl_task {
    int64_t ts_ns, end_ns; /* the trace's times */
    int32_t peer;          /* the dst rank, != the src rank */
    uint8_t wait;          /* 1 a Notify_Wait, 0 a transfer */
};

/* Where a device task's launch ran when a task queue stands between the
 * operator and the launch (torch_npu with TASK_QUEUE_ENABLE: the
 * operator is enqueued on its thread, which holds the task's correlation
 * launch, and the task-queue thread dequeues it and calls CANN's launch,
 * a HostToDevice flow to the task; in the SQLite export, the CANN_API
 * row of the task's connection id).  The critical path lets the task
 * start no earlier than that call (critpath.c's queue launch edge). */
struct pr_queue_launch {
    int64_t corr;  /* the task's correlation */
    int64_t ts_ns; /* the launch's time on its thread */
    uint32_t pid, tid;
    /* 1: the trace records no call there (torch_npu level 0: the flow
       leaves from the queue thread's Dequeue@<op>, no CANN event), so
       the critical path makes the launch node itself */
    uint8_t bare;
};

/* Data-quality counters: problems that did not stop ingest. */
struct pr_diag {
    size_t skipped_no_dur; /* X events without a usable dur */
    size_t skipped_bad_ts; /* events with missing/non-finite ts */
    size_t negative_dur;   /* X events with dur < 0 (clamped to 0) */
    size_t unknown_cat;    /* X events of categories we do not know */
    size_t non_object;     /* traceEvents entries that are not objects */
    size_t invalid_utf8;   /* distinct strings that were not UTF-8, kept
                              with U+FFFD for the bad bytes */
    size_t long_text_cut;  /* distinct strings longer than PR_TEXT_MAX,
                              kept as their first bytes */
};

/* Host CPU use the producer sampled while the run went (MindSpore's
 * data-pipeline CPU sampler): one series per scope, one value per sample,
 * in percent as the producer writes them: the machine's of all its CPUs
 * (0-100), a process's or a pipeline operator's of one core (250 = two
 * and a half cores busy); NaN where a sample has no value. */
enum pr_cpu_scope {
    PR_CPU_MACHINE = 0, /* every CPU of the host: user, sys, io, idle */
    PR_CPU_PROCESS,     /* the training process: user, sys */
    PR_CPU_OP           /* the threads of one data-pipeline operator */
};

struct pr_cpu_series {
    uint8_t scope;      /* enum pr_cpu_scope */
    int64_t op_id;      /* PR_CPU_OP: the operator's id in the pipeline
                           (-1: threads of no operator); -1 otherwise */
    uint32_t op_type;   /* its type ("MapOp"); PR_STR_NONE unknown */
    int32_t workers;    /* its parallel workers; -1 unknown */
    size_t n;           /* samples */
    double *user, *sys; /* owned, n each */
    double *io, *idle;  /* owned, n each; NULL but for the machine */
};

struct pr_cpu_use {
    int64_t interval_ms;          /* sampling interval; -1 unknown */
    int32_t cpus;                 /* logical CPUs of the host; -1 unknown */
    struct pr_cpu_series *series; /* owned, n_series */
    size_t n_series;
};

/* Frees u and its series; accepts NULL. */
void pr_cpu_use_free(struct pr_cpu_use *u);

/* What MindSpore's data-pipeline files say of the wait for data (its
 * MinddataAnalyzer and MindInsight's minddata analyser read them so):
 * the operators' output queues of pipeline_profiling_{r}.json (or of
 * minddata_pipeline_raw_{r}.csv without it), the device queue's depth per
 * batch of device_queue_profiling_{r}.txt, the batches the device's
 * GetNext found waiting (minddata_aicpu_{r}.txt).  Strings are ids in the
 * trace's table (PR_STR_NONE: none); NaN and -1: not known. */
struct pr_minddata {
    uint32_t source;  /* the file the operators come from ("a and b": two
                         files that disagree) */
    uint32_t ops;     /* "Batch(id=0), Map(id=1), ..." by id */
    uint32_t feeding; /* the sampled queue nearest the pipeline's root */
    double feeding_usage_pct, feeding_empty_pct;
    size_t feeding_samples;
    uint32_t empty_ops; /* operators whose queue was empty in every sample */
    uint32_t leaf;      /* the least-used leaf under 50% of its queue */
    double leaf_usage_pct;
    int32_t leaf_workers;
    uint32_t queues;          /* "empty", "ready", "mixed" */
    uint32_t reading;         /* a sentence: what the files show */
    uint32_t conflict;        /* a sentence: the two pipeline files disagree */
    uint32_t bottleneck;      /* MinddataAnalyzer's bottleneck op */
    uint32_t bottleneck_note; /* its reason, or why it names none */
    int64_t dq_records, dq_batches, dq_empty, dq_full; /* -1: no file */
    int64_t dq_first_empty; /* first-batch records of depth 0 */
    /* the device's GetNext (minddata_aicpu / minddata_getnext_profiling):
       dequeues, those that found no batch waiting, the mean wait */
    int64_t gn_records, gn_empty; /* -1: no file */
    double gn_wait_us;            /* NaN: not known */
};

struct pr_op_stats;     /* op_stats.h */
struct pr_pmu;          /* pmu.h */
struct pr_kclass_table; /* kclass.h */
struct pr_phases;       /* phases.h */
struct pr_memtl;        /* memtl.h */
struct pr_names;        /* src/analysis/internal.h */

struct pr_trace {
    struct pr_strtab *strs;  /* owned */
    struct pr_event *events; /* owned, n_events */
    size_t n_events, cap_events;
    struct pr_wheres wheres; /* owned: the events' (cat, pid, tid) */
    struct pr_wide_ids wide; /* owned: the events' ids wider than 32 bits */
    struct pr_op_rec *ops;   /* owned: op records, read with pr_trace_op() */
    size_t n_ops, cap_ops;
    struct pr_wheres op_inputs;   /* owned: the op records' interned
                                     (input_dims, input_types,
                                     concrete_inputs), in the fields cat,
                                     pid and tid */
    struct pr_op_flops *op_flops; /* owned: sorted by op */
    size_t n_op_flops, cap_op_flops;
    /* The op record last handed out by pr_trace_add_op() or
     * pr_trace_op_edit(), kept whole (and read from here) until the next
     * such call or pr_trace_finish() stores it. */
    struct pr_op_info op_draft;
    uint32_t op_draft_at; /* its index; PR_NO_INFO: none */
    struct pr_py_ids *py; /* owned: Python ids of op records, by op */
    size_t n_py, cap_py;
    /* owned: kernel records as ingest fills them; NULL after
     * pr_trace_finish() moved them into gpu_recs */
    struct pr_gpu_info *gpu;
    size_t n_gpu, cap_gpu;
    struct pr_gpu_rec *gpu_recs;  /* owned: n_gpu, after pr_trace_finish() */
    struct pr_gpu_more *gpu_more; /* owned: n_gpu_more */
    size_t n_gpu_more;
    struct pr_mem_info *mem; /* owned */
    size_t n_mem, cap_mem;
    struct pr_flow *flows; /* owned, fwdbwd flows in file order */
    size_t n_flows, cap_flows;
    struct pr_device *devices; /* owned, deviceProperties in list order */
    size_t n_devices, cap_devices;
    struct pr_shapes_table *shapes; /* owned; op inputs parsed once per
                                       distinct text (shapes.h) */

    /* file-level facts */
    size_t n_trace_events; /* entries of traceEvents read (all phases) */
    uint64_t bytes;        /* uncompressed bytes parsed */
    int64_t base_time_ns;  /* baseTimeNanoseconds; 0 absent */
    int has_base_time;
    int lightning;      /* Framework == "pytorch-lightning" */
    int64_t rank;       /* distributedInfo.rank; -1 absent */
    int64_t world_size; /* distributedInfo.world_size; -1 absent */
    /* The distinct device ids the device tasks carry, ascending, set by
     * pr_trace_finish(): n_task_devices of them, or -1 when there are
     * more than PR_MAX_TASK_DEVICES.  pr_trace_device() pairs them with
     * deviceProperties in order when the ids differ (a process that sees
     * its GPUs under other numbers than its kernels report). */
#define PR_MAX_TASK_DEVICES 16
    int64_t task_devices[PR_MAX_TASK_DEVICES];
    int n_task_devices;
    /* where world_size comes from (static): "distributedInfo",
     * "profiler_info", "parallel_group_info", or "communication groups"
     * (the largest group the run's files show: a lower bound); NULL when
     * unknown */
    const char *world_source;
    /* 1 when world_size is only a lower bound: the ranks the run's
     * communication groups name (one more than the highest), or its rank
     * + 1 above a group without it, where no file lists a group's
     * members; 0 when a file states it (runs[].world_size_bound) */
    int world_floor;
    /* where world_floor: what the run's files hold of the groups, and
     * why no member list is among them (string id; PR_STR_NONE) */
    uint32_t world_note;
    /* the task rows the kernel table leaves out, named beside it
       (runs[].kernels_note: a ragged record of kernel_details.csv or
       op_summary); PR_STR_NONE: none */
    uint32_t kernels_note;
    /* 1 when an HCCL group's size is the ranks its links name (one more
     * than the highest), which no file states as its members: a lower
     * bound, as a ring's rank names its neighbours only */
    int group_floor;
    uint32_t backend; /* distributedInfo.backend string id */
    uint32_t format;  /* "kineto" or "chrome" */
    /* Kernels timed by CUPTI's range profiler in kernel-replay mode
     * (cuda_profiler_range events): their durations are the replays', not
     * the run's.  replay_unlinked: how many of them no kernel launch could
     * be paired with (see pr_ingest_link_ranges). */
    size_t replayed_kernels, replay_unlinked;
    uint32_t vendor;      /* device vendor when the format knows it
                             ("huawei"); PR_STR_NONE */
    uint32_t device_kind; /* "npu", "gpu"; PR_STR_NONE when unknown */
    /* the framework that ran the model where the reader can tell beyond
       its format ("mindspore": an msprof PROF_ folder whose tasks carry
       MindSpore's graph scopes); PR_STR_NONE: by the format alone */
    uint32_t framework;
    /* torch_npu's profiler_level ("Level0" ...), from profiler_info;
       PR_STR_NONE when not told */
    uint32_t profiler_level;
    /* the analysed step against the producer's step trace of the
       iterations a one-iteration timeline export lacks (msprof CANN <= 6:
       step_trace_*.json beside msprof_*.json); PR_STR_NONE: none */
    uint32_t iterations_note;
    struct pr_diag diag;
    /* Kineto's "Record Window End" instant: where the profiler's
     * recording window ended (has_window_end 0: the trace has none) */
    int64_t window_end_ns;
    int has_window_end;
    /* Kineto's "Ev Idx" of host events: how many events carry one
     * (0: none) and the least and greatest; fewer events than the
     * extent spans means the profiler kept a sample of them */
    size_t n_ev_idx;
    int64_t ev_idx_min, ev_idx_max;

    /* Set by loaders of run folders (MindSpore profiler/, msprof PROF_*) */
    uint32_t worker;  /* the run's name ("rank1") when the loader knows it
                         better than the path; PR_STR_NONE: from the path */
    int laid_out;     /* the device tasks are a totals table's rows laid end
                         to end (MindSpore's aicore_intermediate without a
                         timeline): no timeline, so no critical path */
    int device_steps; /* the ProfilerStep#N windows are the producer's own
                         step boundaries on the device clock (MindSpore or
                         msprof step trace): steps are taken as they are,
                         not stretched to the device work they launched
                         nor trimmed where there is none */
    /* the zero-length launches are drawn where their operators start on
     * the device clock (the MindSpore builder's, for MindSpore's and
     * msprof's readers, which hold no host record of them): no host time
     * and no host instant.  0: a zero-length launch is a host instant
     * (torch_npu's torch_to_npu: a flow's start on the launching thread) */
    int drawn_launches;
    /* the device tasks are an extract of the run's (review22a #2: a PMU
     * sample of a few operators): the tasks the table lists (its
     * distinct Stream ID, Task ID pairs: a task of two FFTS+ contexts is
     * written on two rows, review24 #6), its rows, and the tasks its
     * streams ran at least (the Task IDs the rows span); 0 when the list
     * is whole.  Utilization, idle and the critical path are not known
     * then. */
    size_t extract_rows, extract_lines, extract_min;
    /* the Step Id column of a task table without step bounds (torch_npu's
     * kernel_details.csv alone): the least and greatest step number its
     * rows carry and how many rows carry one; row_steps 0: none.  The run was
     * stepped (prof.step()), though no step's window is known. */
    int64_t row_step_lo, row_step_hi;
    size_t row_steps;

    /* Collective traffic per link, where the producer states it (owned) */
    struct pr_link *links;
    size_t n_links, cap_links;
    /* owned: HCCL plane tasks that name a peer, in the order read */
    struct pr_hccl_task *hccl;
    size_t n_hccl, cap_hccl;
    /* owned: task-queue launches (pr_queue_launch), in the order read */
    struct pr_queue_launch *qlaunch;
    size_t n_qlaunch, cap_qlaunch;
    struct pr_skip *skipped; /* owned: folder members not read */
    size_t n_skipped, cap_skipped;
    struct pr_gap *gaps; /* owned: what the format cannot give, in the
                            order the loader found out */
    size_t n_gaps, cap_gaps;
    /* owned: the host's CPU use sampled by the producer; NULL: none */
    struct pr_cpu_use *cpu_use;
    /* owned: operator totals of a table without timestamps (op_stats.h);
       NULL: none */
    struct pr_op_stats *op_stats;
    /* owned: hardware counters per device task (pmu.h); NULL: none */
    struct pr_pmu *pmu;
    /* borrowed: the kernel table (kclass.h) the analyses classify this
       trace's kernel names by, set by the pipeline (--kernel-rules);
       NULL: the compiled-in table */
    const struct pr_kclass_table *kclass;
    /* borrowed: while an analysis runs, its one cache of name classes,
       filled before its threads start and only read by its passes
       (names.c); NULL otherwise */
    const struct pr_names *names;
    /* owned: the producer's own step phases and communication time
       splits (phases.h); NULL: none */
    struct pr_phases *phases;
    /* owned: torch.profiler's raw memory timeline (memtl.h), the whole of
       such a trace; NULL: none */
    struct pr_memtl *memtl;
    /* owned: MindSpore's data-pipeline queues (pr_minddata); NULL: none */
    struct pr_minddata *minddata;
    struct pr_trace *next; /* owned: the next run read from the same input
                              (a folder holding several ranks), or NULL */
};

/* New empty trace; NULL on out-of-memory. */
struct pr_trace *pr_trace_new(void);
/* Frees t and the traces chained after it (t->next); accepts NULL. */
void pr_trace_free(struct pr_trace *t);

/* Note a folder member the loader skipped, with the reason (both copied).
 * PR_E_NOMEM on allocation failure. */
PR_NODISCARD enum pr_status
pr_trace_add_skip(struct pr_trace *t, const char *path, const char *why);
/* Note what the input cannot give (both strings copied); the summary
 * lists it with the data-quality notes.  PR_E_NOMEM on allocation
 * failure. */
PR_NODISCARD enum pr_status pr_trace_add_gap(struct pr_trace *t,
                                             const char *kind, size_t count,
                                             const char *text);
/* 1 when the trace records a gap of this kind (pr_trace_add_gap). */
int pr_trace_has_gap(const struct pr_trace *t, const char *kind);

/* Append records.  Return a pointer to the new zero-filled record (fields
 * preset to their "absent" values) or NULL on out-of-memory (for events,
 * also past PR_MAX_EVENTS).  The pointer is valid until the next append of
 * the same kind (for op records: until the next pr_trace_add_op(),
 * pr_trace_op_edit() or pr_trace_finish(), which store what was written
 * into it). */
struct pr_event *pr_trace_add_event(struct pr_trace *t);
struct pr_op_info *pr_trace_add_op(struct pr_trace *t, uint32_t *index);
struct pr_gpu_info *pr_trace_add_gpu(struct pr_trace *t, uint32_t *index);
struct pr_mem_info *pr_trace_add_mem(struct pr_trace *t, uint32_t *index);
/* A side record for kernels with every field "absent", for readers that
 * fill records of their own before handing them to the trace. */
void pr_gpu_info_init(struct pr_gpu_info *g);
/* Kineto writes "est. achieved occupancy %" 0 for a kernel whose shared
 * memory passes the 48 KiB default (the occupancy query is not made for
 * it), though blocks run: review25g #1, every such launch of control,
 * alexnet, timeline_analysis, hta_nccl and hta_call_stack.  The reader
 * leaves those occupancies NaN; this says a record is one of them (blocks
 * per SM recorded, shared memory over 48 KiB, no occupancy). */
#define PR_OCC_SMEM_DEFAULT_MAX 49152
int pr_gpu_occupancy_not_computed(const struct pr_gpu_info *g);
PR_NODISCARD enum pr_status pr_trace_add_flow(struct pr_trace *t,
                                              const struct pr_flow *f);
PR_NODISCARD enum pr_status pr_trace_add_link(struct pr_trace *t,
                                              const struct pr_link *l);
PR_NODISCARD enum pr_status pr_trace_add_hccl(struct pr_trace *t,
                                              const struct pr_hccl_task *h);
PR_NODISCARD enum pr_status
pr_trace_add_qlaunch(struct pr_trace *t, const struct pr_queue_launch *q);
struct pr_device *pr_trace_add_device(struct pr_trace *t);

/* ---- Filling the model: what a reader of any producer calls.  Strings
 * are copied (interned); each event gets the next file order; side records
 * are created and linked; what a descriptor leaves out keeps its "absent"
 * value.  Each returns the new event's index (stable until
 * pr_trace_finish() sorts) in *index (may be NULL), and fails only with
 * PR_E_NOMEM. */

/* What every event has: what, where and when. */
struct pr_span {
    const char *name; /* NULL reads as "" */
    const char *cat;  /* the producer's own category ("AI_CORE"); NULL: "" */
    const char *pid;  /* process as text (numbers in decimal); NULL: "" */
    const char *tid;  /* thread, or the stream of a device task; NULL: "" */
    int64_t ts_ns;
    int64_t dur_ns;      /* >= 0 (a negative one is stored as 0) */
    int64_t external_id; /* joins a host op and its launches; PR_NO_ID */
    int64_t correlation; /* joins a launch and its device task; PR_NO_ID */
};

/* A span without a side record: a runtime or driver call, an annotation
 * (a step is an annotation named "ProfilerStep#N"), a sync, the profiler
 * span, or a kind of span we do not model (PR_KIND_OTHER). */
PR_NODISCARD enum pr_status pr_trace_add_span(struct pr_trace *t,
                                              enum pr_kind kind,
                                              const struct pr_span *s,
                                              size_t *index);

/* A host operator (or a Python frame) with what the producer recorded of
 * its inputs, as text in the grammar of shapes.h (NULL: not recorded);
 * each distinct text is parsed once, for the analyses. */
struct pr_op_desc {
    const char *dims;     /* "[[32, 3, 224, 224], [64, 3, 7, 7], []]" */
    const char *types;    /* "[float, float, Scalar]" */
    const char *concrete; /* "[\"\", \"\", \"1\"]" */
    int64_t seq;          /* autograd sequence number; -1 */
    int64_t fwd_tid;      /* a backward op's forward thread; -1 */
    double flops;         /* the producer's own count; -1 */
};
PR_NODISCARD enum pr_status pr_trace_add_host_op(struct pr_trace *t,
                                                 enum pr_kind kind,
                                                 const struct pr_span *s,
                                                 const struct pr_op_desc *op,
                                                 size_t *index);

/* A device task (PR_KIND_DEVICE_TASK), copy (PR_KIND_COPY) or fill
 * (PR_KIND_SET) on a stream; a collective is a device task that names its
 * collective. */
struct pr_task_desc {
    int32_t device;            /* -1 unknown */
    int32_t stream;            /* -1 unknown */
    int32_t grid[3], block[3]; /* 0 unknown */
    int64_t bytes;             /* copies and fills; -1 unknown */
    enum pr_copy_dir dir;      /* copies */
    const char *collective;    /* "allreduce", "send", ...; NULL */
    const char *dtype;         /* the collective's element type; NULL */
    int64_t nelems;            /* its elements; -1 unknown */
    int32_t group_size;        /* its ranks; -1 unknown */
};
/* A descriptor with everything unknown, to fill in. */
struct pr_task_desc pr_trace_task_desc(void);
PR_NODISCARD enum pr_status pr_trace_add_task(struct pr_trace *t,
                                              enum pr_kind kind,
                                              const struct pr_span *s,
                                              const struct pr_task_desc *d,
                                              size_t *index);

/* A memory record at s->ts_ns: an allocation (bytes > 0) or a release
 * (bytes <= 0) of one allocator, with its totals after it. */
struct pr_mem_desc {
    int32_t device_type;    /* 0 host, 1 device, other unknown */
    int32_t device_id;      /* -1 unknown */
    int64_t addr;           /* PR_NO_ID unknown */
    int64_t bytes;          /* signed change */
    double total_allocated; /* NaN unknown */
    double total_reserved;  /* NaN unknown */
};
PR_NODISCARD enum pr_status pr_trace_add_memory(struct pr_trace *t,
                                                const struct pr_span *s,
                                                const struct pr_mem_desc *m,
                                                size_t *index);

/* Links and devices: pr_trace_add_flow() (a forward op to its backward),
 * pr_trace_add_device() (a device's properties, by list position). */

/* Store the op record still being written, keep the kernel records
 * compactly (t->gpu becomes NULL: readers write no kernel record after
 * this), sort events by (ts_ns, order) and give back the record arrays'
 * spare capacity.  Call once after ingest.  Cannot fail: short of memory
 * for the compact records it keeps the full ones, for its sort keys it
 * sorts the events directly. */
void pr_trace_finish(struct pr_trace *t);
/* The same, with up to `threads` threads for the sort (a reader that ran
 * parser threads has the cores); the result does not depend on them. */
void pr_trace_finish_threads(struct pr_trace *t, int threads);

static inline const char *
pr_trace_str(const struct pr_trace *t, uint32_t id)
{
    return pr_strtab_get(t->strs, id);
}

/* Whether the trace's devices are NPUs (device_kind "npu"): its report
 * speaks of AI Cores, the Cube, HCCL and torch_npu (issue #30). */
int pr_trace_is_npu(const struct pr_trace *t);

/* Whether the trace records a backward pass: autograd's engine ranges
 * ("autograd::engine::evaluate_function: AddmmBackward0", Kineto's and
 * emit_nvtx's alike), autograd nodes' ranges ("AddmmBackward0"), an
 * operator with a sequence number and a forward thread id (Kineto's
 * backward operators) or FSDP's backward hooks' ranges (FSDP::pre_backward,
 * FSDP::post_backward).  Issue #28 (review s20): nsys mfu_2gpu_before holds
 * FSDP::pre_forward / post_forward ranges alone, and none of these. */
int pr_trace_has_backward(const struct pr_trace *t);

/* ---- An event's ids, thread and category: read and written only
 * through these, never as fields, so that the event record can keep them
 * in whatever compact form it likes (DEVELOPERS.md, "The trace model").
 * Getters cannot fail.  Setters may need memory for a value the compact
 * form cannot hold inline (PR_E_NOMEM); the event must belong to t. */

/* "External id": joins a host op and its launches; PR_NO_ID absent. */
static inline int64_t
pr_event_external_id(const struct pr_trace *t, const struct pr_event *e)
{
    return pr_wide_ids_get(&t->wide, e->ext_code);
}

/* "correlation": joins a launch and its device work; PR_NO_ID absent.
 * On torch_npu's task-queue ranges (Enqueue, Dequeue@<op>: events of
 * kind PR_KIND_OTHER) it is the queue entry's own number
 * (args.correlation_id), which pairs the two. */
static inline int64_t
pr_event_correlation(const struct pr_trace *t, const struct pr_event *e)
{
    return pr_wide_ids_get(&t->wide, e->corr_code);
}

/* String ids of the raw category, the process and the thread (or the
 * stream of device work). */
static inline uint32_t
pr_event_cat(const struct pr_trace *t, const struct pr_event *e)
{
    return pr_wheres_get(&t->wheres, e->where).cat;
}

static inline uint32_t
pr_event_pid(const struct pr_trace *t, const struct pr_event *e)
{
    return pr_wheres_get(&t->wheres, e->where).pid;
}

static inline uint32_t
pr_event_tid(const struct pr_trace *t, const struct pr_event *e)
{
    return pr_wheres_get(&t->wheres, e->where).tid;
}

PR_NODISCARD enum pr_status
pr_event_set_external_id(struct pr_trace *t, struct pr_event *e, int64_t id);
PR_NODISCARD enum pr_status
pr_event_set_correlation(struct pr_trace *t, struct pr_event *e, int64_t id);
/* Category, process and thread at once (string ids of t). */
PR_NODISCARD enum pr_status pr_event_set_where(struct pr_trace *t,
                                               struct pr_event *e, uint32_t cat,
                                               uint32_t pid, uint32_t tid);

/* The producer's FLOPs of op record `index`; -1 when it gave none. */
double pr_trace_op_flops(const struct pr_trace *t, uint32_t index);
/* Op record index's FLOP count and strides text, where it has them
 * (*flops, *strides untouched otherwise). */
void pr_trace_op_extra(const struct pr_trace *t, uint32_t index, double *flops,
                       uint32_t *strides);

/* Op record number `index` (< t->n_ops) copied into *out.  Inline: the
 * tree-based passes read millions of records. */
static inline void
pr_trace_op_at(const struct pr_trace *t, uint32_t index, struct pr_op_info *out)
{
    const struct pr_op_rec *r = &t->ops[index];
    struct pr_where in;

    if (index == t->op_draft_at) {
        *out = t->op_draft;
        return;
    }
    in = pr_wheres_get(&t->op_inputs, r->inputs);
    out->input_dims = in.cat;
    out->input_types = in.pid;
    out->concrete_inputs = in.tid;
    out->stack = r->stack;
    /* codes: -1 and up the value, -2 - k slot k of the wide ids */
    out->seq = r->seq >= -1 ? r->seq : t->wide.v[-(int64_t)r->seq - 2];
    out->fwd_tid =
        r->fwd_tid >= -1 ? r->fwd_tid : t->wide.v[-(int64_t)r->fwd_tid - 2];
    out->flops = -1;
    out->input_strides = PR_STR_NONE;
    if (t->n_op_flops > 0)
        pr_trace_op_extra(t, index, &out->flops, &out->input_strides);
}

/* The event's op record, copied into *buf; returns buf, or NULL when the
 * event has none (buf untouched). */
static inline const struct pr_op_info *
pr_trace_op(const struct pr_trace *t, const struct pr_event *e,
            struct pr_op_info *buf)
{
    switch (e->kind) {
    case PR_KIND_HOST_OP:
    case PR_KIND_ANNOTATION:
    case PR_KIND_DEVICE_ANNOTATION:
    case PR_KIND_PY_LEGACY:
    case PR_KIND_PY_FUNCTION:
        break;
    default:
        return NULL;
    }
    if (e->info >= t->n_ops)
        return NULL;
    pr_trace_op_at(t, e->info, buf);
    return buf;
}
/* Op record number `index` to change in place, for readers that complete
 * a record after adding others (a producer's table of operators read
 * after its timeline); valid as pr_trace_add_op()'s pointer.  NULL on
 * out-of-memory or when there is no such record. */
struct pr_op_info *pr_trace_op_edit(struct pr_trace *t, uint32_t index);
/* Side records, or NULL when the event has none. */
/* The Python ids of the event's op record; NULL when it has none (all
 * absent). */
const struct pr_py_ids *pr_trace_py(const struct pr_trace *t,
                                    const struct pr_event *e);
/* Note the Python ids of op record `op` (nothing is kept when all are
 * -1).  Cheapest in op order, as readers add them.  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_trace_set_py(struct pr_trace *t, uint32_t op,
                                            int32_t id, int32_t parent,
                                            int32_t module);
/* The entry of op in v (n entries sorted by op), or NULL. */
const struct pr_py_ids *pr_py_find(const struct pr_py_ids *v, size_t n,
                                   uint32_t op);
/* The event's kernel record, copied into *buf; returns buf, or NULL when
 * the event has none (buf untouched). */
const struct pr_gpu_info *pr_trace_gpu(const struct pr_trace *t,
                                       const struct pr_event *e,
                                       struct pr_gpu_info *buf);
const struct pr_mem_info *pr_trace_mem(const struct pr_trace *t,
                                       const struct pr_event *e);

/* Device properties of a device id: the entry with that "id", else the
 * one at that list position (the GPU index), else, when the device tasks
 * use as many devices as the list has (task_devices), the entry in the
 * same place in order: one GPU listed as id 0 whose kernels say device 2
 * (ROCm under HIP_VISIBLE_DEVICES) is that GPU; else, when every entry
 * is the same model, the first (the GPU is that model).  NULL when none
 * is. */
const struct pr_device *pr_trace_device(const struct pr_trace *t,
                                        int64_t index);

/* How pr_trace_device() paired a device id with an entry: by its id, by
 * list position or the tasks' devices in order (one to one), or, when no
 * entry has the id and the counts differ, because every entry is the
 * same model (or there is one): the GPU is that model, though which of
 * them it is is not known. */
enum pr_device_pairing {
    PR_DEVICE_BY_ID,
    PR_DEVICE_BY_POSITION,
    PR_DEVICE_BY_MODEL,
};

/* pr_trace_device(), saying in *how (may be NULL) how it paired. */
const struct pr_device *pr_trace_device_paired(const struct pr_trace *t,
                                               int64_t index,
                                               enum pr_device_pairing *how);

#endif
