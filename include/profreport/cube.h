/* cube.h - which Ascend tasks did their work on the Cube, the AI Core's
 * matrix unit (the tensor-core analog), and which operator types CANN
 * runs there.  The producer's Accelerator Core / Task Type names the core
 * that ran a task, not the unit inside it: on a 910A every task is an
 * AI_CORE task, Cube or vector, and a 910B's MIX_AIC task runs both.
 * The PMU counters the producer recorded per task decide where they
 * exist (the Cube's MAC ratio and time, its FLOPs, its L0A/L0B/L0C
 * traffic); without them, the core and the operator type do.  Pure
 * functions over the trace; the tensor-core figures (roofline.c) and the
 * kernel table (kernels.c) call them, and a kernel classification table
 * may. */
#ifndef PROFREPORT_CUBE_H
#define PROFREPORT_CUBE_H

#include <stdint.h>

#include "profreport/trace.h"

enum pr_cube {
    PR_CUBE_NO = 0,      /* not on the Cube (vector, AI CPU, HCCL, copies) */
    PR_CUBE_YES = 1,     /* the Cube did (part of) its work */
    PR_CUBE_UNKNOWN = -1 /* the task does not say which unit ran it */
};

/* What the trace offers to judge its tasks, computed once per trace. */
struct pr_cube_ctx {
    const struct pr_trace *t;
    int cols[10]; /* PMU columns of Cube activity in t->pmu; -1 absent */
    int n_cols;
    int split_cores; /* some task ran on a vector core (AI_VECTOR_CORE,
                        MIX_AIV): AI_CORE is the Cube core (910B on) */
};

void pr_cube_init(const struct pr_trace *t, struct pr_cube_ctx *cx);

/* Task record `gpu` (its side record g): YES when its PMU counters show
 * Cube activity, NO when they show none; without counters, by its core
 * (AI_CORE where the chip has vector cores of its own; MIX_AIC, a mixed
 * Cube and vector launch, only by a Cube operator type, else UNKNOWN)
 * and else by its operator type (pr_cube_op_type). */
enum pr_cube pr_cube_task(const struct pr_cube_ctx *cx, uint32_t gpu,
                          const struct pr_gpu_info *g);

/* What the task's PMU counters say of the Cube: 1, 0, or -1 (none
 * recorded); where they say, *col is the first Cube counter it has
 * (aic_mac_ratio ...) and *v0 its value. */
int pr_cube_pmu(const struct pr_cube_ctx *cx, uint32_t gpu, const char **col,
                double *v0);

/* 1 when an Ascend operator type or aclnn operator is matrix work CANN
 * runs on the Cube: MatMul*, BatchMatMul*, GroupedMatmul, Conv2D/3D and
 * their backprops, the flash-attention family (FlashAttentionScore[Grad],
 * PromptFlashAttention, IncreFlashAttention, FusedInferAttentionScore),
 * the fused matmul-communication ops (MatmulAllReduce, AllGatherMatmul,
 * MatmulReduceScatter), aclnnMm/Addmm/Bmm/Baddbmm/Matmul/Convolution. */
int pr_cube_op_type(const char *type);

/* The share of an Ascend run's compute task time (HCCL left out) in
 * tasks the Cube can do (a Cube operator type, or a task that ran there),
 * 0..100, and in *on_cube_pct the part of that time the Cube did (NaN
 * when some such task does not say which unit ran it).  NaN (both) when
 * the run has no compute task, or one names neither its type nor its
 * unit (trace_view.json without kernel_details.csv). */
double pr_cube_eligible_pct(const struct pr_trace *t, double *on_cube_pct);

#endif
