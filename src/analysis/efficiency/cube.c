/* cube.c - Ascend tasks on the Cube (cube.h): the PMU counters first,
 * then the core, then the operator type, with CANN's own names. */
#include "config.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#include "profreport/cube.h"
#include "profreport/pmu.h"

/* The counters of Cube activity in the producer's metric sets:
 * PipeUtilization (aic_mac_*), ArithmeticUtilization (aic_mac_fp16/int8
 * ratios, aic_cube_fops), MemoryL0 (the Cube's L0A/L0B inputs and L0C
 * output), and the database's TASK_PMU_INFO names. */
static const char *const cube_cols[] = {
    "aic_mac_ratio",
    "aic_mac_time(us)",
    "aic_mac_time",
    "aic_mac_fp16_ratio",
    "aic_mac_int8_ratio",
    "aic_cube_fops",
    "aic_l0a_read_bw(GB/s)",
    "aic_l0b_read_bw(GB/s)",
    "aic_l0c_read_bw_cube(GB/s)",
    "aic_l0c_write_bw_cube(GB/s)",
};

#define N_CUBE_COLS (sizeof(cube_cols) / sizeof(cube_cols[0]))

void
pr_cube_init(const struct pr_trace *t, struct pr_cube_ctx *cx)
{
    size_t i, k;

    memset(cx, 0, sizeof(*cx));
    cx->t = t;
    for (k = 0; t->pmu != NULL && k < N_CUBE_COLS; k++)
        for (i = 0; i < t->pmu->n_cols; i++)
            if (strcmp(pr_trace_str(t, t->pmu->cols[i]), cube_cols[k]) == 0 &&
                cx->n_cols < (int)(sizeof(cx->cols) / sizeof(cx->cols[0])))
                cx->cols[cx->n_cols++] = (int)i;
    for (i = 0; i < t->n_events && !cx->split_cores; i++) {
        struct pr_gpu_info gb;
        const struct pr_gpu_info *g;

        if (t->events[i].kind != PR_KIND_DEVICE_TASK)
            continue;
        g = pr_trace_gpu(t, &t->events[i], &gb);
        cx->split_cores = g != NULL && (g->unit == PR_UNIT_VECTOR ||
                                        g->unit == PR_UNIT_MIX_VECTOR);
    }
}

/* Cube activity in the task's counters: 1, 0 (counters, none of it), -1
 * (no counter of the Cube for this task). */
static int
pmu_says(const struct pr_cube_ctx *cx, uint32_t gpu)
{
    const float *v = cx->n_cols > 0 ? pr_pmu_get(cx->t, gpu) : NULL;
    int k, any = 0;

    for (k = 0; v != NULL && k < cx->n_cols; k++) {
        if (isnan(v[cx->cols[k]]))
            continue;
        if (v[cx->cols[k]] > 0)
            return 1;
        any = 1;
    }
    return any ? 0 : -1;
}

int
pr_cube_pmu(const struct pr_cube_ctx *cx, uint32_t gpu, const char **col,
            double *v0)
{
    const float *v = cx->n_cols > 0 ? pr_pmu_get(cx->t, gpu) : NULL;
    int k;

    for (k = 0; v != NULL && k < cx->n_cols; k++) {
        if (isnan(v[cx->cols[k]]))
            continue;
        *col = pr_trace_str(cx->t, cx->t->pmu->cols[cx->cols[k]]);
        *v0 = v[cx->cols[k]];
        return pmu_says(cx, gpu);
    }
    return -1;
}

enum pr_cube
pr_cube_task(const struct pr_cube_ctx *cx, uint32_t gpu,
             const struct pr_gpu_info *g)
{
    int pmu;

    if (g == NULL)
        return PR_CUBE_UNKNOWN;
    switch (g->unit) {
    case PR_UNIT_MATRIX:
    case PR_UNIT_MIX_MATRIX:
        break;
    case PR_UNIT_UNKNOWN:
        return PR_CUBE_UNKNOWN;
    default: /* a vector core, the AI CPU, HCCL, DSA */
        return PR_CUBE_NO;
    }
    pmu = pmu_says(cx, gpu);
    if (pmu >= 0)
        return pmu ? PR_CUBE_YES : PR_CUBE_NO;
    /* a MIX_AIC task launches the Cube core and the vector cores
       together: which of them did its work only the counters tell
       (hunt31 #4: a TileLang main_kernel, MIX_AIC, aic_mac_ratio 0.0 and
       aiv_scalar_ratio 0.999 in the export that has them); a Cube
       operator type still says the Cube */
    if (g->unit == PR_UNIT_MIX_MATRIX)
        return g->op_type != PR_STR_NONE &&
                       pr_cube_op_type(pr_trace_str(cx->t, g->op_type))
                   ? PR_CUBE_YES
                   : PR_CUBE_UNKNOWN;
    if (cx->split_cores)
        return PR_CUBE_YES;
    if (g->op_type != PR_STR_NONE)
        return pr_cube_op_type(pr_trace_str(cx->t, g->op_type)) ? PR_CUBE_YES
                                                                : PR_CUBE_NO;
    return PR_CUBE_UNKNOWN; /* a 910A AI_CORE task of no known type */
}

/* CANN operator types (its op library's names) that run on the Cube. */
static const char *const cube_prefixes[] = {
    "MatMul",
    "Matmul",
    "BatchMatMul",
    "BatchMatmul",
    "GroupedMatmul",
    "QuantBatchMatmul",
    "WeightQuantBatchMatmul",
    "Conv2D",
    "Conv3D",
    "DepthwiseConv2D",
    "Deconvolution",
    "FlashAttentionScore",
    "PromptFlashAttention",
    "IncreFlashAttention",
    "FusedInferAttentionScore",
    "AllGatherMatmul",
    "MatmulReduceScatter",
    "MatmulAllReduce",
    "Gemm",
    "GEMM",
};

/* aclnn operators (torch_npu's launch names) of the same work. */
static const char *const aclnn_cube[] = {
    "Mm",
    "Addmm",
    "Bmm",
    "Baddbmm",
    "Matmul",
    "BatchMatMul",
    "Convolution",
    "ConvolutionBackward",
    "ConvTbc",
    "FlashAttentionScore",
    "FlashAttentionScoreGrad",
    "GroupedMatmul",
    "Addbmm",
};

int
pr_cube_op_type(const char *type)
{
    size_t i, n;

    if (type == NULL)
        return 0;
    if (strncmp(type, "aclnn", 5) == 0) {
        const char *s = type + 5;

        n = strcspn(s, "_");
        for (i = 0; i < sizeof(aclnn_cube) / sizeof(aclnn_cube[0]); i++)
            if (strlen(aclnn_cube[i]) == n && strncmp(s, aclnn_cube[i], n) == 0)
                return 1;
        return 0;
    }
    for (i = 0; i < sizeof(cube_prefixes) / sizeof(cube_prefixes[0]); i++)
        if (strncmp(type, cube_prefixes[i], strlen(cube_prefixes[i])) == 0)
            return 1;
    return 0;
}

/* A task whose operator type CANN runs on the Cube, or which ran there:
 * work the Cube can do. */
static int
eligible(const struct pr_cube_ctx *cx, enum pr_cube c,
         const struct pr_gpu_info *g)
{
    return c == PR_CUBE_YES ||
           /* a MIX_AIC task without counters launched the Cube core */
           (c == PR_CUBE_UNKNOWN && g->unit == PR_UNIT_MIX_MATRIX) ||
           (g->op_type != PR_STR_NONE &&
            pr_cube_op_type(pr_trace_str(cx->t, g->op_type)));
}

double
pr_cube_eligible_pct(const struct pr_trace *t, double *on_cube_pct)
{
    struct pr_cube_ctx cx;
    int64_t all = 0, elig = 0, elig_cube = 0;
    size_t i, untyped = 0;
    int known = 1;

    pr_cube_init(t, &cx);
    *on_cube_pct = NAN;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        struct pr_gpu_info gb;
        const struct pr_gpu_info *g;
        enum pr_cube c;

        if (e->kind != PR_KIND_DEVICE_TASK)
            continue;
        g = pr_trace_gpu(t, e, &gb);
        if (g == NULL || g->unit == PR_UNIT_COMM)
            continue;
        c = pr_cube_task(&cx, e->info, g);
        all += e->dur_ns;
        untyped += g->op_type == PR_STR_NONE && g->unit == PR_UNIT_UNKNOWN;
        if (!eligible(&cx, c, g))
            continue;
        elig += e->dur_ns;
        elig_cube += c == PR_CUBE_YES ? e->dur_ns : 0;
        known &= c != PR_CUBE_UNKNOWN;
    }
    if (all <= 0 || untyped > 0) /* a task that says not what it is */
        return NAN;
    if (elig > 0 && known)
        *on_cube_pct = 100.0 * (double)elig_cube / (double)elig;
    return 100.0 * (double)elig / (double)all;
}
