/* internal.h - helpers shared by the files of src/analysis only: an
 * int64-keyed hash map (correlation and external ids), sticky-error
 * cJSON builders and the run's data-quality notes.  Nothing outside
 * src/analysis includes this. */
#ifndef PROFREPORT_ANALYSIS_INTERNAL_H
#define PROFREPORT_ANALYSIS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/analysis.h"
#include "profreport/error.h"
#include "profreport/rows.h"
#include "profreport/syncs.h"
#include "profreport/trace.h"

#define PR_NONE SIZE_MAX /* "no index" in size_t links */

/* Open-addressing map int64 -> size_t.  Keys are ids from the trace, never
 * indexes.  Zero-initialise, then use; pr_idmap_free() accepts that state. */
struct pr_idmap {
    int64_t *keys;       /* owned */
    size_t *vals;        /* owned */
    unsigned char *used; /* owned */
    size_t n, cap;       /* cap is 0 or a power of two */
};

void pr_idmap_free(struct pr_idmap *m);
/* Value for key, or PR_NONE. */
size_t pr_idmap_get(const struct pr_idmap *m, int64_t key);
/* Insert or replace.  PR_E_NOMEM on allocation failure. */
PR_NODISCARD enum pr_status pr_idmap_put(struct pr_idmap *m, int64_t key,
                                         size_t val, struct pr_error *err);

/* The same map with 32-bit values and no "used" array: 12 bytes a slot
 * instead of 17, for maps with an entry per runtime or op, where the
 * bytes add to an analysis peak (issue #17).  Values are below
 * PR_IDMAP32_NONE, which marks empty slots and absent keys.  Zero-
 * initialise, then use (or pr_idmap32_reserve first to size it once). */
#define PR_IDMAP32_NONE UINT32_MAX
struct pr_idmap32 {
    int64_t *keys;  /* owned */
    uint32_t *vals; /* owned; PR_IDMAP32_NONE = empty slot */
    size_t n, cap;  /* cap is 0 or a power of two; n <= 3/4 cap */
};

void pr_idmap32_free(struct pr_idmap32 *m);
/* Room for n entries without rehashing.  PR_E_NOMEM on failure. */
PR_NODISCARD enum pr_status pr_idmap32_reserve(struct pr_idmap32 *m, size_t n,
                                               struct pr_error *err);
/* Value for key, or PR_IDMAP32_NONE. */
uint32_t pr_idmap32_get(const struct pr_idmap32 *m, int64_t key);
/* Insert or replace; val < PR_IDMAP32_NONE.  PR_E_NOMEM on allocation
 * failure. */
PR_NODISCARD enum pr_status pr_idmap32_put(struct pr_idmap32 *m, int64_t key,
                                           uint32_t val, struct pr_error *err);

/* Sticky cJSON builders (redis rio style): each does nothing once *ok is 0
 * and clears *ok when an allocation fails, so callers check once. */
void pr_emit_num(cJSON *o, const char *key, double v, int *ok);
void pr_emit_us(cJSON *o, const char *key, int64_t ns, int *ok);
void pr_emit_str(cJSON *o, const char *key, const char *s, int *ok);
void pr_emit_null(cJSON *o, const char *key, int *ok);
void pr_emit_bool(cJSON *o, const char *key, int b, int *ok);
/* Number, or null when v is NaN (the "not computable" convention). */
void pr_emit_num_or_null(cJSON *o, const char *key, double v, int *ok);
/* Number, or null when v is NaN or infinite (a rate over no time). */
void pr_emit_finite(cJSON *o, const char *key, double v, int *ok);
/* Appends printf-style text to buf (cap bytes, len used) and returns the
 * new length; once the text no longer fits, buf holds what fit and every
 * later call returns len unchanged (>= cap), so a chain of appends needs
 * one check at its end, if any.  The findings' texts use it. */
size_t pr_append(char *buf, size_t cap, size_t len, const char *fmt, ...)
    PR_PRINTF(4, 5);
/* run[key] = item, consuming item: replaced in place when the key is
 * present (it keeps its position), else added.  PR_E_NOMEM, naming
 * `what`, when item is NULL (a failed build) or cJSON fails. */
PR_NODISCARD enum pr_status pr_emit_put(cJSON *run, const char *key,
                                        cJSON *item, const char *what,
                                        struct pr_error *err);
/* A pass's sections: run[keys[i]] = items[i] for i < n, in order, each
 * as pr_emit_put; none when any item is NULL (a failed build).  Consumes
 * every item (those not placed are deleted; items[] is left NULL). */
PR_NODISCARD enum pr_status pr_emit_put_all(cJSON *run, const char *const *keys,
                                            cJSON **items, size_t n,
                                            const char *what,
                                            struct pr_error *err);
/* Add a new object/array under key (or to an array when key is NULL);
 * NULL (and *ok = 0) on failure. */
cJSON *pr_emit_obj(cJSON *parent, const char *key, int *ok);
/* A single object as its typed row (rows.h): ro's row written through the
 * one writer as parent[key] (pr_sput); NULL (and *ok 0) when out of
 * memory. */
cJSON *pr_emit_one(cJSON *parent, const char *key, enum pr_rows_object ro,
                   const void *row, int *ok);
cJSON *pr_emit_arr(cJSON *parent, const char *key, int *ok);

/* A recommendation's typed row (emit.c): pr_rec_init gives it id,
 * severity and text, NAN gains and bound, every other column left out
 * until pr_rec_keep keeps it; pr_emit_rec_row adds it to arr (the object;
 * NULL when out of memory).  pr_emit_rec: one with gain_note where not
 * NULL and, null_gain, gain_us and gain_pct null (a finding no replay
 * backs), the rest for the advice (whatif.c) to put on. */
void pr_rec_init(struct pr_row_recommendation *r, const char *id,
                 const char *severity, const char *text);
void pr_rec_keep(struct pr_row_recommendation *r, enum pr_schema_rowid id);
cJSON *pr_emit_rec_row(cJSON *arr, const struct pr_row_recommendation *r);
cJSON *pr_emit_rec(cJSON *arr, const char *id, const char *severity,
                   const char *text, const char *gain_note, int null_gain);
/* An evidence row {name, us[, total_us]} (total_us NAN: left out) added to
 * ev; 0 when out of memory. */
int pr_emit_evidence(cJSON *ev, const char *name, double us, double total_us);

/* The data-quality notes of one run, with one owner (issue #10): the
 * summary and every pass append to this collector and it alone writes
 * run["data_quality"] (counters) and run["diagnostics"] (rows the reports
 * show), once, in the order they were appended, so no pass edits another
 * pass's JSON.  Zero-initialise, then use; sticky like the builders below:
 * an append that finds no memory clears ok and pr_notes_emit reports it. */
struct pr_note_count {
    const char *key; /* borrowed: a literal */
    double v;        /* NaN writes null */
};

struct pr_note_row {
    char *kind, *text; /* owned copies */
    size_t count;
};

struct pr_notes {
    struct pr_note_count *counts; /* owned */
    size_t n_counts, cap_counts;
    struct pr_note_row *rows; /* owned */
    size_t n_rows, cap_rows;
    int failed; /* an append ran out of memory */
};

void pr_notes_free(struct pr_notes *n); /* accepts a freed collector */
/* data_quality[key] = v (key must outlive the collector). */
void pr_notes_count(struct pr_notes *n, const char *key, double v);
/* A diagnostics row {kind, count, text}; kind and text are copied. */
void pr_notes_row(struct pr_notes *n, const char *kind, size_t count,
                  const char *text);
/* Write run["data_quality"] (the counters) and append the rows to
 * run["diagnostics"] (made where the run has none).  PR_E_NOMEM when an
 * append or this ran out of memory. */
PR_NODISCARD enum pr_status pr_notes_emit(const struct pr_notes *n, cJSON *run,
                                          struct pr_error *err);

/* pr_analysis_run with the run's notes collected into `notes` (which may
 * already hold the trace's) instead of written; summary.c emits them. */
PR_NODISCARD enum pr_status pr_analysis_fill(const struct pr_trace *t,
                                             const struct pr_analysis_opts *o,
                                             cJSON *run, struct pr_notes *notes,
                                             struct pr_error *err);

/* The product of v[0..n) as a double, 1 when n <= 0: a shape's element
 * count or a part of it (flops.c, roofline.c). */
double pr_dims_product(const int64_t *v, int n);

/* Names of 10.2, shared by ops.c and tree.c. */
int pr_tc_op_eligible(const char *name);

/* Classes of a name (names.c), computed once per string id and cached. */
#define PR_NAME_TC_PLUGIN 0x01    /* kernel: 10.1 plugin pattern */
#define PR_NAME_TC_HEUR 0x02      /* kernel: heuristic tensor-core pattern */
#define PR_NAME_TC_OP 0x04        /* op: 10.2 eligible (pr_tc_op_eligible) */
#define PR_NAME_STEP 0x08         /* pr_tree_is_step */
#define PR_NAME_DATALOADER 0x10   /* pr_tree_is_dataloader */
#define PR_NAME_COMM 0x20         /* pr_tree_is_comm */
#define PR_NAME_OPTIMIZER 0x40    /* "Optimizer.step" prefix */
#define PR_NAME_NOT_OPERATOR 0x80 /* excluded from 5.4 operator rows */
#define PR_NAME_TF32 0x100        /* kernel: TF32 math, by its name */
#define PR_NAME_COMM_HOST 0x200   /* host-side collective (gloo:*) */
#define PR_NAME_COMM_KERNEL 0x400 /* kernel: the table's collective family */
#define PR_NAME_WINOGRAD 0x800    /* kernel: a Winograd convolution */
#define PR_NAME_FFT 0x1000        /* kernel: an FFT convolution */
#define PR_NAME_KNOWN 0x2000      /* kernel: a rule of the table matched */
#define PR_NAME_SIMT_MATH                                                      \
    0x4000 /* kernel: a GEMM/conv/attention kernel the                         \
              table puts on CUDA cores / vector                                \
              units, in fp32 or no named precision, and that                   \
              does matrix math (no "no_matrix_math") */
#define PR_NAME_INPUT_KERNEL                                                   \
    0x8000 /* kernel: the table's input family (a data-queue task) */
#define PR_NAME_TC (PR_NAME_TC_PLUGIN | PR_NAME_TC_HEUR)
/* kernel: a GEMM or convolution the table puts on CUDA cores in fp32
   (cuBLAS sgemm, cuDNN scudnn, CUTLASS simt ...), matrix-vector kernels
   (gemv) left out: what AMP or TF32 would move onto tensor cores */
#define PR_NAME_GEMM_FP32_SIMT 0x100000
/* kernel: a GEMM or convolution on the matrix units by the table */
#define PR_NAME_GEMM_MATRIX 0x200000
/* bits 16-18: pr_sync_call_kind of the name (syncs.h) */
#define PR_NAME_SYNC_SHIFT 16
#define PR_NAME_SYNC_MASK (0x7u << PR_NAME_SYNC_SHIFT)

struct pr_kclass;
struct pr_tree;
struct pr_kclass_table;

struct pr_names {
    const struct pr_trace *t;         /* borrowed */
    const struct pr_kclass_table *kc; /* borrowed (t->kclass) or own */
    struct pr_kclass_table *own;      /* owned: the compiled-in table when
                                         the trace names none */
    uint32_t *bits; /* owned, n entries; 0 = not yet classified */
    size_t n;
    struct pr_idmap rules; /* kernel name id -> its rule's index */
    int rules_lost;        /* the map ran out of memory: look up again */
    int borrowed;          /* bits and rules are the trace's shared cache
                              (t->names): read only, never freed here */
    int npu;               /* an Ascend run: only Ascend's rules name its
                              tasks (pr_names_lookup) */
};

/* The PR_NAME_* bits of one kernel class (TC, TF32, comm, known, SIMT
 * math). */
unsigned pr_names_kclass_bits(const struct pr_kclass *k);

/* Start an empty cache for t's strings, or borrow the analysis's shared
 * one (t->names), which lookups only read: a name it lacks is classified
 * again each time.  Cannot fail: without memory the cache stays empty and
 * each lookup classifies the name again. */
void pr_names_init(struct pr_names *nc, const struct pr_trace *t);
/* Classify every event's name of t into nc (a cache of its own) before
 * an analysis's threads start, for them to share through t->names. */
void pr_names_fill(struct pr_names *nc, const struct pr_trace *t);
void pr_names_free(struct pr_names *nc); /* accepts a freed cache */
/* PR_NAME_* bits of string id (any id, PR_STR_NONE included). */
unsigned pr_names_get(struct pr_names *nc, uint32_t id);

/* Whether a kernel (name id) that tree node `node` launched is eligible
 * for tensor cores by its own name (issue #28): the kernel table calls it
 * a GEMM or convolution (PR_NAME_GEMM_FP32_SIMT, PR_NAME_GEMM_MATRIX:
 * the bit it has) and no 10.2 operator is at or above the node (one
 * eligible only by 5.2's propagation may be: a compiled graph that also
 * ran a tensor-core kernel); 0 otherwise. */
unsigned pr_ops_kernel_by_name(struct pr_names *nc, const struct pr_tree *tree,
                               uint32_t node, uint32_t kernel_name);

/* pr_sync_call_kind of string id, from nc's cache. */
enum pr_sync_kind pr_names_sync_kind(struct pr_names *nc, uint32_t id);

/* The kernel-table rule of string id (fixed fields only: pr_kclass_rule);
 * 0 with index -1 when no rule names it. */
int pr_names_rule(struct pr_names *nc, uint32_t id, struct pr_kclass *out);

/* pr_kclass_lookup of a name of nc's trace: on an Ascend NPU a rule of
 * another platform's library (PyTorch's CUDA kernels, cuDNN ...) names
 * none of its tasks, which are CANN's, HCCL's or MindSpore's: the first
 * rule of theirs that names it does, else it is unknown and its
 * operator type classifies it (kernels.c). */
void pr_names_lookup(const struct pr_names *nc, const char *name,
                     struct pr_kclass *out);

/* The framework that ran t's model: "pytorch", "mindspore", "megengine",
 * or NULL when neither the reader nor the format says (summary.c; the
 * run's "framework" key).  Static or t's string. */
const char *pr_run_framework(const struct pr_trace *t);

/* The input shapes of the operator that launched the first device task
 * named `name` (an interned name of t): the task's correlation id names
 * its launch, whose external id names the operator (MindSpore's and
 * torch_npu's readers join them so; framework_raw's op_info gives the
 * shapes: "[[2, 256, 6, 6], [4096, 9216], [4096]]").  NULL when no
 * operator or no shape.  Three walks of the trace: for a few names. */
const char *pr_task_op_shapes(const struct pr_trace *t, uint32_t name);
/* The same, and the operator's input dtypes text in *types (NULL when
 * the trace has none; types may be NULL). */
const char *pr_task_op_types(const struct pr_trace *t, uint32_t name,
                             const char **types);

/* pr_comm_is_kernel with the name test from nc's cache (comm.c). */
int pr_comm_kernel_cached(struct pr_names *nc, const struct pr_event *e);

/* Sequence number -> the string id of the grad_output dims of the
 * convolution backward node that holds it (PR_STR_NONE where two
 * disagree): a forward conv's output shape, where its own inputs lack
 * the stride and padding (roofline.c, issue #4; sources.c reads it per
 * call).  Reads only the trace.  0 on out-of-memory. */
int pr_roofline_index_conv_bwd(const struct pr_trace *t, struct pr_idmap *m);

struct pr_steps;

/* run.host_coverage (hostcov.c): the share of the steps' host time (of a
 * run without steps, the capture's) inside no recorded operator or
 * runtime call, and the host events the profiler kept; the share of that
 * time the innermost Python frames hold, and those frames; a
 * "host_unrecorded" note where either leaves the host's time unexplained.
 * Null with producer steps, with host steps but no operator, or without
 * any recorded call.  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_hostcov_fill(const struct pr_trace *t,
                                            const struct pr_steps *s,
                                            cJSON *run, struct pr_notes *notes,
                                            struct pr_error *err);

/* The run's window in a finding's words: "capture" for a run without
 * steps (pr_sget_run_is_capture), whose advice never speaks of "the
 * step" (issue #29), else "step". */
const char *pr_run_window(const cJSON *run);
/* 1 on torch_npu's device basis (step_summary.basis "npu_device") where
 * the host step is longer (host_mean_us over mean_us): the critical path
 * and replays start at the host start (torch_npu's Preparing included)
 * while the mean step is the device step (issue #30).  The render's
 * pr_fig_run_host_step asks the same of a summary. */
int pr_run_host_step(const cJSON *run);
/* The window a replayed gain's share is of, in a finding's words: "host
 * step" where pr_run_host_step, else pr_run_window. */
const char *pr_run_gain_window(const cJSON *run);
int pr_run_trains(const cJSON *run);
int pr_run_is_torch(const cJSON *run);
int pr_run_no_framework(const cJSON *run);
int pr_run_on_npu(const cJSON *run);
/* The share of launched kernels issued by graph launches (0 to 1). */
double pr_run_graph_share(const cJSON *run);
/* At or over this share of kernels from graph launches, the launches
 * are already graphed: no launch finding and no graph advice (hunt30 #1:
 * vLLM's and SGLang's decode iterations on MI300X issue 421 of 425 and
 * 544 of 555 kernels from one hipGraphLaunch). */
#define PR_GRAPHED_SHARE 0.8

/* An enum pr_unit's name as tensor_cores_rule says it ("matrix" for
 * Ascend's AI_CORE Cube, "vector", "mix_matrix", "ai_cpu" ...;
 * kernels.c). */
const char *pr_unit_name(uint8_t unit);

/* The low-utilization findings that are not the advice of a larger
 * batch (no gain: recommend.c) moved from run.recommendations to Data
 * quality rows (kinds "no_workload", "no_device_tasks",
 * "no_launch_calls", "low_utilization"); *kind: the row's kind, or NULL
 * when none moved (for the verdict).  After pr_whatif_recommend, before
 * the verdict.  0 when out of memory. */
int pr_recommend_demote(cJSON *run, struct pr_notes *notes, const char **kind);

/* The findings left without a gain (gain_us not a number) moved from
 * run.recommendations to run.observations, in their order: every
 * recommendation carries a gain (issue #31).  After every gain is set
 * (pr_summary_finish).  0 when out of memory. */
int pr_recommend_observe(cJSON *run);

/* run["recommendations"] as an array, created when absent or not one;
 * NULL when out of memory (recommend.c, and a job's stage findings). */
cJSON *pr_rec_array(cJSON *run);

/* dtype_conversions' cause sentence (recommend.c), which whatif.c's
 * casts_model rewrites where the casts run under FSDP's pre-forward /
 * pre-backward ranges (review 12 #2): PR_CASTS_CAUSE_HEAD begins it. */
#define PR_CASTS_CAUSE_HEAD "Casts every step usually come from "
#define PR_CASTS_CAUSE                                                         \
    PR_CASTS_CAUSE_HEAD                                                        \
    "autocast re-casting fp32 weights at each use, or from .float() / "        \
    ".to(dtype) in the model: keep tensors in the dtype their consumers "      \
    "need, cast once outside the loop, or let torch.compile fuse the casts "   \
    "into their consumers."

/* run.data_pipeline from t->minddata (data_pipeline.c); nothing when
 * the run has no data-pipeline files.  PR_E_NOMEM alone. */
PR_NODISCARD enum pr_status pr_data_pipeline_fill(const struct pr_trace *t,
                                                  cJSON *run,
                                                  struct pr_error *err);

#endif
