/* ascend_common.h - what every reader of Ascend output shares: torch_npu
 * and MindSpore ASCEND_PROFILER_OUTPUT folders (ascend*.c), msprof PROF_*
 * folders and the legacy MindSpore profiler/ folder.  The mapping of the
 * producers' words onto the model lives here once: Task Type and
 * Accelerator Core to our kinds and compute units, CANN dtype names to
 * PyTorch's, the ";\r\n" shape strings to the model's shape text, and the
 * rank of a profiler_info*.json.  Spec: shared/spec/other-producers.md §2.
 *
 * Only src/ingest includes this header.  Everything here is pure (no I/O)
 * except pr_ascend_info_read(). */
#ifndef PROFREPORT_INGEST_ASCEND_COMMON_H
#define PROFREPORT_INGEST_ASCEND_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/buf.h"
#include "profreport/error.h"
#include "profreport/trace.h"

/* What a device task is, by its Task Type (trace_view `Task Type`,
 * kernel_details `Accelerator Core`, op_summary `Task Type`, the DB's
 * TASK.taskType). */
enum pr_ascend_task {
    PR_ASCEND_TASK_COMPUTE = 0, /* AI_CORE, AI_VECTOR_CORE, MIX_*, AI_CPU,
                                   DSA_SQE, FFTS_PLUS, "Other": a kernel */
    PR_ASCEND_TASK_COPY,        /* SDMA, SDMA_SQE, PCIE_DMA_SQE: a copy */
    PR_ASCEND_TASK_SYNC,        /* Notify Wait/Record, Write Value, event and
                                   place-holder SQEs: a stream wait */
    PR_ASCEND_TASK_COMM,        /* HCCL: a collective or point-to-point */
    PR_ASCEND_TASK_OTHER        /* the runtime's bookkeeping (PROFILING_ENABLE,
                                   TASK_TIMEOUT_SET, MODEL_EXECUTE ...): no
                                   kernel runs */
};

/* The class of a Task Type.  Unknown names ending in "_SQE" are
 * synchronisation; any other unknown name is compute, since new kernel
 * task types appear with each CANN release while the helpers are few. */
enum pr_ascend_task pr_ascend_task_class(const char *task_type);

/* The model kind of a task class (a copy on a communication stream is the
 * caller's to demote: it belongs to the collective). */
enum pr_kind pr_ascend_task_kind(enum pr_ascend_task c);

/* The compute unit named by an Accelerator Core / Task Type value
 * ("AI_CORE" is the Cube, "AI_VECTOR_CORE" the Vector unit, "MIX_AIC" a
 * cube-led mix, ...); PR_UNIT_UNKNOWN for "N/A", "" and the like. */
enum pr_unit pr_ascend_unit(const char *core);

/* An RTS copy task's direction as the producer words it: trace_view's
 * "memcpy direction" and the db's ENUM_MEMCPY_OPERATION ("host to
 * device", "device to host", "device to device", "host to host", and
 * "... ex" for the runtime's _EX copies, the same direction issued
 * through the task's own descriptor; "addr device to device" is a
 * device-to-device copy by addresses held on the device); PR_DIR_UNKNOWN
 * otherwise (NULL,
 * "managed memory", "other"). */
enum pr_copy_dir pr_ascend_copy_dir(const char *d);

/* A CANN or HCCL dtype name ("FLOAT", "DT_BF16", "FLOAT16", "INT64",
 * "FP32", "BFP16") as PyTorch names it in Kineto's "Input type" ("float",
 * "c10::BFloat16", ...) and in its collective metadata ("Float",
 * "BFloat16", ...), with its size in bytes. */
struct pr_ascend_dtype {
    const char *torch; /* static */
    const char *comm;  /* static */
    int bytes;
};

/* Look up `name` (len bytes; case-insensitive, "DT_" prefix optional).
 * 0 when unknown ("UNDEFINED", "N/A", ""). */
int pr_ascend_dtype(const char *name, size_t len, struct pr_ascend_dtype *out);

/* A shape list as Ascend writes it, into the model's shape text (Kineto's
 * "Input Dims" as Python prints it):
 *   trace_view "Input Dims"  "32,3,224,224;\r\n64;\r\n"  -> [[32, 3, 224, 224],
 * [64], []] CSV "Input Shapes"       "\"32,1,224,224,8;121,4,16,8\"" (quotes
 * kept by the CSV's triple quoting) -> [[32, 1, 224, 224, 8], [121, 4, 16, 8]]
 * Tensors are separated by ';' (with or without "\r\n"), dimensions by
 * ','; an empty entry is a scalar or None ([]).  Returns 0 (out
 * unchanged past its old length) when the text is not such a list ("N/A",
 * letters, a dimension beyond int64) and -1 when out fails (PR_E_LIMIT or
 * out of memory). */
int pr_ascend_shapes(const char *s, size_t len, struct pr_buf *out);

/* A ';'-separated list of names ("float;\r\nScalarList;\r\nNone", or a
 * CSV "FLOAT;DT_BF16") as Python prints a list of strings:
 * ['float', 'ScalarList', 'None'].  With `torch_names`, CANN dtype names
 * become PyTorch's (FLOAT -> float) and unknown ones stay as written.
 * Returns 1, or -1 when out fails. */
int pr_ascend_names(const char *s, size_t len, int torch_names,
                    struct pr_buf *out);

/* The collective of an HCCL operation name, in the words pr_comm (and
 * Kineto's "Collective name") use: "hcom_allReduce__586_0_1" ->
 * "allreduce", "hcom_broadcast_" -> "broadcast", "hcom_send_" -> "send",
 * "hcom_receive_" -> "recv", "hcom_reduceScatter_" -> "reducescatter".
 * NULL when `name` is not an hcom operation.  Static result. */
const char *pr_ascend_collective(const char *name);

/* The row of an HCCL operation whose export gives no stream (Stream ID
 * "N/A": torch_npu's kernel_details.csv, msprof's op_summary): one per
 * communicator, whose number the name carries after the double
 * underscore ("hcom_allReduce__935_1" -> "HCCL group 935"), since one
 * communicator's operations run in order on its own streams while
 * another's do not wait for them; "HCCL" when the name has none.
 * Written into buf (n bytes); returns buf. */
const char *pr_ascend_hccl_row(const char *name, char *buf, size_t n);

/* Keep an HCCL plane task that names a peer (a Notify_Wait, or a
 * transfer between two ranks: torch_npu's trace_view, msprof's hccl
 * timeline, COMMUNICATION_TASK_INFO) in t's HCCL table, at the trace's
 * times [ts, ts + dur); other tasks are left. */
PR_NODISCARD enum pr_status pr_ascend_hccl_peer(struct pr_trace *t,
                                                const char *task_type,
                                                int64_t src, int64_t dst,
                                                int64_t ts, int64_t dur);

/* Whether a kernel_details.csv / op_summary column is a PMU counter of
 * the run's aic_metrics set: aic_* and aiv_* (ratios, times, cycles,
 * bandwidths, FLOPs), and aicore_time(us), the AI Core's time of the
 * same set. */
int pr_ascend_is_pmu_col(const char *name);

/* Whether a CANN API call of that name puts work on a stream (a launch,
 * a copy, an event record or wait, a collective); 0 for device queries,
 * syncs, descriptors, tiling and compile steps. */
int pr_ascend_api_launches(const char *name);

/* Where no file states the world size: the largest communication group
 * the run's links (t->links) show, one more than the highest rank a link
 * names, and at least the rank + 1, with world_source "communication
 * groups".  A lower bound: a group is a part of the world, and a ring's
 * links name only neighbours; world_floor says so and world_note what
 * the files held (communication_matrix.json's links, no member list).
 * Nothing when there is no link.  PR_E_NOMEM only. */
PR_NODISCARD enum pr_status pr_ascend_world_from_links(struct pr_trace *t,
                                                       struct pr_error *err);

/* What profiler_info[_<rank>].json says about the run. */
struct pr_ascend_info {
    int64_t rank;            /* rank_id (written as an int or a string); -1 */
    int64_t world_size;      /* config world size when present; -1 */
    char cann[32];           /* cann_version ("" when absent) */
    char torch_npu[32];      /* torch_npu_version ("" when absent) */
    char profiler_level[16]; /* "Level1" ... ("" when absent) */
};

/* Parse the text of a profiler_info JSON object.  PR_E_FORMAT (with what
 * is wrong, no file name) when it is not a JSON object or rank_id is
 * neither an integer nor a string holding one; an absent rank_id leaves
 * rank at -1. */
PR_NODISCARD enum pr_status pr_ascend_info_parse(const char *text, size_t len,
                                                 struct pr_ascend_info *out,
                                                 struct pr_error *err);

/* Read and parse `path` (at most 16 MiB).  Messages start with the path. */
PR_NODISCARD enum pr_status pr_ascend_info_read(const char *path,
                                                struct pr_ascend_info *out,
                                                struct pr_error *err);

/* The world size that a parallel_group_info names (torch_npu's and
 * MindSpore's profiler_metadata.json; the database's META_DATA): the
 * number of global_ranks of the world's own group, "default_group"
 * (torch_npu) or "hccl_world_group" (MindSpore), when they are 0..n-1
 * and hold `rank` (-1: unchecked).  Other groups are what this rank
 * belongs to, never the world's size.  -1 when no group is the world's.
 * `text`: the JSON object, or a JSON string holding its text. */
int64_t pr_ascend_group_world(const char *text, size_t len, int64_t rank);

/* The same from profiler_metadata.json at `path` into *world; -1 also
 * when the file is absent or not JSON (it only adds this, so that fails
 * nothing).  PR_E_FORMAT, naming the file and byte, when its text holds
 * a NUL (pr_ascend_json_text): a group name cut there could pass for the
 * world's. */
PR_NODISCARD enum pr_status pr_ascend_metadata_world(const char *path,
                                                     int64_t rank,
                                                     int64_t *world,
                                                     struct pr_error *err);

/* PR_E_FORMAT ("byte N: ...", no file name) when JSON text holds a NUL:
 * a raw NUL byte, which JSON text never holds, or a "\u0000" escape in a
 * string (pr_json_refuse_nul), which cJSON would cut a name at.  The
 * small Ascend files (profiler_info, profiler_metadata, communication,
 * communication_matrix) are refused then, as every JSON reader refuses
 * such text (issue #35). */
PR_NODISCARD enum pr_status pr_ascend_json_text(const char *text, size_t len,
                                                struct pr_error *err);

/* The rows of a task table (kernel_details.csv, op_summary) whose rows
 * are the run's tasks, by Stream ID, Task ID, start and duration.  A row
 * that repeats all four of an earlier one is that task again (review22a
 * #8: kernel_details_910B_v2_pmu.csv lists Task 13792 four times), and
 * the Task IDs a stream skips between its rows tell an extract of the
 * tasks from the whole list (#2; CANN numbers a stream's tasks one after
 * another, modulo 65536).  A task of several FFTS+ contexts is written
 * on a row per context (its Context ID; op_summary_1.csv's Task 3183 of
 * stream 16: NonZero_MemSet, Context ID 0, and NonZero, 1): one task. */
struct pr_asc_rows {
    struct pr_asc_row {
        int64_t stream, task, ts, dur;
        int64_t ctx; /* Context ID, -1 where the table gives none */
        uint32_t name;
    } * v; /* the distinct rows */
    size_t n, cap;
    size_t *slot; /* open addressing: index + 1 into v, 0 empty */
    size_t n_slot;
    size_t dropped;
    struct pr_asc_dup {
        int64_t stream, task;
        size_t times;
        uint32_t name, other; /* other: a second name on it, or NONE */
    } dup[4];
    size_t n_dup;
};

/* 1 when the row repeats a distinct row (drop it), 0 when it is new (it
 * is kept), -1 on out-of-memory.  Rows without a stream or task id are
 * never duplicates.  ctx: the row's Context ID, -1 where none. */
int pr_asc_rows_seen(struct pr_asc_rows *r, struct pr_trace *t, int64_t stream,
                     int64_t task, int64_t ts, int64_t dur, int64_t ctx,
                     const char *name);
/* The data-quality rows: "duplicate_task_rows" when rows were dropped,
 * "task_list_extract" when the streams skip more Task IDs than
 * PR_ASC_EXTRACT_RATIO times the rows they hold (and at least
 * PR_ASC_EXTRACT_MIN), which also sets t->extract_*.  `path`: the file,
 * named by its last part.  PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_asc_rows_note(struct pr_asc_rows *r, struct pr_trace *t, const char *path);
void pr_asc_rows_free(struct pr_asc_rows *r);

/* A whole task list skips the ids of the tasks kernel_details does not
 * list (event records and waits, notify tasks): kernel_details_910B_v1
 * 205 ids over 572 rows (0.36 a row), torch_npu text_level1 34 over 187
 * (0.18).  The extracts skip 44 to 750 a row (old2023 rank 0: 744 over
 * 17; kernel_details_910B_v2_pmu: 18,749 over 25). */
#define PR_ASC_EXTRACT_RATIO 4.0
#define PR_ASC_EXTRACT_MIN 100

/* The host threads of a run's operators, for the allocator's records:
 * operator_memory.csv and OP_MEMORY name no thread, and torch_npu runs
 * the backward pass on the autograd engine's thread, not the step's
 * (text_level0: AddmmBackward0's aten::mm on tid 3026591, the step on
 * 3016828), so a record placed on the step's thread fell outside any
 * operator (review 25a #15b).  A record goes on the thread of the
 * operator that holds its time and started last (the innermost of them),
 * else on the reader's default (the thread of the longest operator, the
 * step's: pid, tid here).  Made once the host operators are read; pids
 * and tids are string ids. */
struct pr_asc_hop {
    int64_t s, e;
    uint32_t pid, tid;
};
struct pr_asc_opthreads {
    struct pr_asc_hop *v; /* owned: by start */
    size_t n;
    uint32_t pid, tid; /* the longest operator's; PR_STR_NONE: none */
};
/* PR_E_NOMEM (o left empty). */
PR_NODISCARD enum pr_status pr_asc_opthreads_make(const struct pr_trace *t,
                                                  struct pr_asc_opthreads *o);
/* The thread of the operator that holds ts and started last; 0 when no
 * operator holds it. */
int pr_asc_opthreads_at(const struct pr_asc_opthreads *o, int64_t ts,
                        uint32_t *pid, uint32_t *tid);
void pr_asc_opthreads_free(struct pr_asc_opthreads *o);

/* The operator a graph engine (GE) allocation of operator_memory.csv or
 * OP_MEMORY is charged to.  CANN allocates for the task it runs (an
 * aclop's workspace, TransData's converted tensor) while the framework
 * operator on the host may be another one: torch_npu's aclop path runs
 * the task on its dequeue thread (text_level0: 57 cann:: rows, each made
 * during a Dequeue@Conv2D*, ReduceSum or TransData call, fell on
 * aten::max_pool2d_with_indices, aten::_foreach_add; review 26a #6).  As
 * torch_npu names the row by that task ("cann::trans_TransData_16"; the
 * database "trans_TransData_16"), so is its memory row: "cann::" and the
 * task's name without its instance number ("_16", "_in_1"), one row per
 * kind of task.  Into out (cap > 6). */
void pr_asc_ge_name(const char *name, size_t n, char *out, size_t cap);

#endif
