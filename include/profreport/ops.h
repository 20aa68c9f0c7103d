/* ops.h - the operator tables of spec/tb-plugin-semantics.md section 8:
 * operator nodes (5.4) of every thread tree, grouped by name and by name +
 * input shapes, with host/device self/total time and tensor-core columns.
 * The rows are C first: the roofline pass (roofline.h) fills their
 * FLOP/byte/roofline figures, then pr_ops_emit() writes both arrays once. */
#ifndef PROFREPORT_OPS_H
#define PROFREPORT_OPS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/trace.h"
#include "profreport/tree.h"

/* What the roofline pass found for one row; set = 0 until it ran (the
 * row is then written with nulls and bound "unknown").  NaN and NULL are
 * written as null. */
struct pr_op_rate {
    int set;
    double flops, bytes;          /* all calls */
    double tflops, gbps, ai, pct; /* achieved rates; roofline_pct */
    const char *flops_src;        /* "measured", "trace", "formula" */
    const char *bound;            /* "memory", "compute", "unknown" */
    const char *mark;             /* why a point sits above its roof */
    const char *dtype;            /* pr_dtype_name() */
};

/* One group: a name, or a name + input shapes.  Strings are borrowed from
 * the trace (shapes "[]" when the op had no Input Dims; types NULL when
 * absent, the first member's). */
struct pr_op_row {
    const char *name, *shapes, *types;
    size_t calls;
    int64_t host_total_ns, host_self_ns, dev_total_ns, dev_self_ns;
    int64_t tc_total_ns, tc_self_ns;
    int tc_eligible; /* the first member's, as in 8.3 */
    /* FLOPs CUPTI counted on the members' own kernels (kernel-replay
     * traces), and how many own kernels had no count */
    double measured_flops;
    size_t n_measured, n_unmeasured;
    /* Of the device self time, copies between the host and a device
     * (hostdev.h): judged against the host link, never device memory;
     * their bytes as the copies' records say (each byte once; -1 when a
     * copy has none) */
    int64_t host_copy_ns;
    double host_copy_bytes;
    /* The same over the members' whole subtrees (aten::to's copies run
     * under its aten::copy_): a row whose device_total is all of it is a
     * host copy, no point of the device-memory roofline; bytes NaN when
     * a copy's record has none */
    int64_t host_copy_total_ns;
    double host_copy_total_bytes;
    /* PR_OP_ROW_NO_*: columns the row's table did not give (written as
       null; their ns fields hold 0) */
    unsigned unknown;
    struct pr_op_rate rate;
};

/* What a row from a table without timestamps (op_stats.h) may lack. */
#define PR_OP_ROW_NO_HOST 1u   /* host self/total */
#define PR_OP_ROW_NO_DEVICE 2u /* device self/total */
#define PR_OP_ROW_NO_TC 4u     /* the tensor-core (Cube) times */

struct pr_op_rows {
    struct pr_op_row *v; /* owned */
    size_t n;
};

struct pr_ops {
    struct pr_op_rows by_name, by_shape;
    /* where the rows come from: "timeline" (the operator nodes), or the
       file of the producer's table when the timeline has no operator and
       the trace holds op_stats.h rows ("operator_details.csv",
       "op_statistic.csv"); static */
    const char *source;
};

/* Both tables, sorted by device self time descending, then name, then
 * shapes (strcmp): from the tree's operator nodes or, when it has none,
 * from t->op_stats (a summary-level table: no calls on any timeline).
 * PR_E_NOMEM on failure (out empty).  Free with pr_ops_free(). */
PR_NODISCARD enum pr_status pr_ops_collect(const struct pr_trace *t,
                                           const struct pr_tree *tree,
                                           struct pr_ops *out,
                                           struct pr_error *err);

void pr_ops_free(struct pr_ops *ops);

/* The "operators" and "operators_by_shape" arrays (new, owned by the
 * caller).  PR_E_NOMEM on failure (both NULL). */
PR_NODISCARD enum pr_status pr_ops_emit(const struct pr_ops *ops,
                                        cJSON **by_name, cJSON **by_shape,
                                        struct pr_error *err);

/* Beside the two arrays, when the rows come from a producer's table
 * (ops->source is not "timeline"): run.operators_source (the file) and,
 * when the trace holds op_statistic.csv rows, run.operator_types (one row
 * per operator type and unit, by total time descending).  Nothing is
 * added for a timeline's operators.  PR_E_NOMEM on failure. */
PR_NODISCARD enum pr_status pr_ops_emit_tables(const struct pr_trace *t,
                                               const struct pr_ops *ops,
                                               cJSON *run,
                                               struct pr_error *err);

/* The row's tc_self_pct / tc_total_pct columns (0 without device time). */
double pr_ops_tc_self_pct(const struct pr_op_row *r);
double pr_ops_tc_total_pct(const struct pr_op_row *r);

/* 1 when every own kernel of the row carried a FLOP count (measured_flops
 * is then the sum the row reports). */
int pr_ops_measured(const struct pr_op_row *r);

/* The tensor-core eligible kernel time of a run (10.5), and the GEMM and
 * convolution kernels eligible by their own names (issue #28): kernels
 * the kernel table calls a GEMM or convolution (cuBLAS sgemm, cuDNN
 * scudnn, CUTLASS, Inductor's triton_tem_*mm*) that an operator not
 * with no 10.2 operator at or above its launcher (a torch.compile
 * graph's CompiledFunction, CompiledFunctionBackward).  Times in ns. */
#define PR_TC_SHARE_TOP 3
struct pr_tc_share {
    int64_t op_ns;       /* kernels operators launched (10.5's den) */
    int64_t eligible_ns; /* of bottom-eligible nodes (10.5's num) */
    int64_t tc_ns;       /* of those, on tensor cores */
    int64_t simt_ns;     /* eligible by name, fp32 on CUDA cores */
    int64_t simt_new_ns; /* of those, launched by nodes 10.5 does not
                            count (not bottom-eligible) */
    int64_t matrix_ns;   /* eligible by name, on the matrix units, of
                            nodes 10.5 does not count */
    uint32_t kernel;     /* the longest of the simt_new ones (string id);
                            PR_STR_NONE */
    uint32_t top_op[PR_TC_SHARE_TOP]; /* simt_new launchers (string ids) */
    int64_t top_ns[PR_TC_SHARE_TOP];  /* and their simt time; 0 unused */
};

PR_NODISCARD enum pr_status pr_ops_tc_share(const struct pr_trace *t,
                                            const struct pr_tree *tree,
                                            struct pr_tc_share *s,
                                            struct pr_error *err);

/* 10.5: kernel time launched by "bottom" tensor-core-eligible nodes over
 * kernel time launched by operator nodes into *ratio; 0 when there is
 * none.  Fails only for memory. */
PR_NODISCARD enum pr_status pr_ops_tc_eligible_ratio(const struct pr_trace *t,
                                                     const struct pr_tree *tree,
                                                     double *ratio,
                                                     struct pr_error *err);

/* run.copies.dtod_by_operator (issue #31): the operators open at the
 * calls that issued the run's device-to-device copies, as chains of the
 * innermost three, the top 3 by copy time, with their count, bytes and
 * time.  Nothing when run has no copies object or the trace no DtoD copy
 * with a call.  PR_E_NOMEM only. */
PR_NODISCARD enum pr_status pr_copy_ops_fill(const struct pr_trace *t,
                                             cJSON *run, struct pr_error *err);

#endif
