/* kernels.c - the kernel table (spec 11.1): all Kernel events grouped by
 * name.  The launching operator comes from the op tree's runtime links;
 * everything else is read from the events themselves.  Where a trace lacks
 * the "blocks per SM" / occupancy args, they are computed from the launch
 * and deviceProperties with the CUDA occupancy rules (issue #4), and each
 * row says which it used. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/cube.h"
#include "profreport/devices.h"
#include "profreport/kclass.h"
#include "profreport/kernels.h"
#include "profreport/keys.h"
#include "profreport/occupancy.h"
#include "profreport/pmu.h"
#include "profreport/rows.h"

#include "profreport/tensorcore.h"

#include "../internal.h"

/* The math of an HCCL task: it moves data on the NPU's communication
 * engines, on neither the Cube nor the Vector unit. */
#define MATH_COMM "communication"
/* A task on an engine its producer names that is neither the Cube nor
 * the Vector unit: an AI CPU operator (Task Type AI_CPU), a DSA one
 * (DSA_SQE, the stateless random-number engine).  Its math ran there,
 * whatever its name says (review22a #9: a Cast on the AI CPU read
 * "vector"); kernel_classes' by_math sums them as PR_KM_COUNT + 1 and
 * + 2. */
#define MATH_AI_CPU "ai_cpu"
#define MATH_DSA "dsa"

/* the engine of a task so placed: 0 none, 1 AI CPU, 2 DSA */
static int
engine_of(int by_unit, uint8_t unit, int dsa)
{
    if (!by_unit)
        return 0;
    return unit == PR_UNIT_CPU ? 1 : unit == PR_UNIT_OTHER && dsa ? 2 : 0;
}

struct kgroup {
    const char *name; /* borrowed from the trace */
    uint32_t name_id; /* its interned id */
    const char *op;   /* launching op with most time; NULL */
    int64_t op_ns;    /* that op's share */
    size_t calls;
    int64_t total_ns, min_ns, max_ns;
    double bps_x_ns, occ_x_ns;   /* duration-weighted sums (trace args) */
    double cbps_x_ns, cocc_x_ns; /* the same, computed (no args) */
    size_t n_args;               /* calls carrying either arg */
    double occ_ns;               /* time of the calls with an occupancy */
    size_t n_occ_unknown;        /* pr_gpu_occupancy_not_computed calls */
    size_t n_cbps, n_cocc;       /* calls with a computed value */
    /* the unit the producer says its calls ran on (Ascend) */
    int by_unit;        /* some call names its unit */
    int64_t matrix_ns;  /* time of calls on the matrix unit (the Cube) */
    int64_t unknown_ns; /* time of calls whose unit's Cube use is not known
                           (MIX_AIC without counters, pr_cube_task) */
    /* time of calls whose PMU counters say it, and the first Cube
       counter's duration-weighted sum (pr_cube_pmu) */
    int64_t pmu_ns;
    double pmu_x_ns;
    const char *pmu_col; /* that counter's name (borrowed from t) */
    uint8_t unit;        /* the first such call's enum pr_unit */
    uint8_t dsa;         /* that call's Task Type is DSA_SQE */
    /* owned: the PMU columns' duration-weighted sums, then their weights
       (2 x pmu.h's n_cols); NULL: no call has counters */
    double *pmu;
    /* cube_utilization(%) of the calls that state it (Ascend), duration-
       weighted: the sum of value x ns and of their ns */
    double cube_x_ns, cube_ns;
    struct pr_kclass kc; /* the kernel table's class (strings borrowed
                            from the table) */
    int by_producer;     /* family from what the producer says (no rule names
                            the name): 1 communication, 2 the op type's rule;
                            -1 the op type was asked in vain */
    uint32_t op_type;    /* the op type whose rule gave the family
                            (by_producer 2); PR_STR_NONE */
    int gather;          /* a gather rule (GatherV2, Gather) named it or its
                            op type: its shapes say whether it is an
                            embedding lookup (refine_gathers) */
    int64_t conv_ns;     /* time launched by convolution operators */
    /* the precision the producer states for the calls' inputs (Ascend's
       Input Data Types, HF32 Eligible): prec_state 0 no call states one,
       1 every call that does states `prec`, -1 they differ */
    enum pr_kprec prec;
    int prec_state;
    /* the first PREC_SLOTS precisions its calls state, with their calls
       and time: where they differ, the one of most of its time */
#define PREC_SLOTS 4
    uint8_t prec_v[PREC_SLOTS];
    uint8_t n_prec;
    uint32_t prec_calls[PREC_SLOTS];
    int64_t prec_ns[PREC_SLOTS];
};

struct ktable {
    struct kgroup *v; /* owned */
    size_t n, cap;
    struct pr_idmap index; /* kernel name id -> group */
    int has_bps, has_occ;  /* 9: some kernel carries the arg */
    int has_cube;          /* some call states cube_utilization(%) */
    const struct pr_trace *t;
    size_t n_pmu; /* the trace's PMU columns (pmu.h) */
    int pmu_nomem;
    struct pr_names names;   /* the kernel table the groups are classified
                                by */
    const char *vendor;      /* the devices' vendor, for the math; NULL */
    struct pr_cube_ctx cube; /* which Ascend tasks ran on the Cube */
    int npu;                 /* an Ascend run (pr_trace_is_npu) */
    int aic_time_col;        /* the PMU column of the AI Core's own time
                                (aicore_time(us), else aic_total_cycles);
                                -1 none */
};

static void
ktable_free(struct ktable *kt)
{
    size_t i;

    for (i = 0; i < kt->n; i++)
        free(kt->v[i].pmu);
    free(kt->v);
    pr_idmap_free(&kt->index);
    pr_names_free(&kt->names);
}

/* The kernel table's gather rules (data/kernels.json: cann.types.gather,
 * mindspore.gather): a gather is an embedding lookup only when it reads
 * rows of a 2-D table, which the name does not say. */
static int
is_gather_rule(const char *rule)
{
    size_t n = rule != NULL ? strlen(rule) : 0;

    return n >= 7 && strcmp(rule + n - 7, ".gather") == 0;
}

static struct kgroup *
group_of(struct ktable *kt, const struct pr_trace *t, uint32_t name,
         struct pr_error *err)
{
    size_t gi = pr_idmap_get(&kt->index, name);
    struct kgroup *g;

    if (gi != PR_NONE)
        return &kt->v[gi];
    if (pr_grow((void **)&kt->v, &kt->cap, kt->n + 1, sizeof(*g)) ||
        pr_idmap_put(&kt->index, name, kt->n, err)) {
        pr_error_set(err, PR_E_NOMEM, "out of memory (kernels)");
        return NULL;
    }
    g = &kt->v[kt->n++];
    memset(g, 0, sizeof(*g));
    g->name = pr_trace_str(t, name);
    g->name_id = name;
    g->op_type = PR_STR_NONE;
    pr_names_lookup(&kt->names, g->name, &g->kc);
    g->kc.math = pr_kclass_math_on(g->kc.math, kt->vendor);
    g->gather = is_gather_rule(g->kc.rule);
    return g;
}

/* deviceProperties in the calculator's terms.  Traces do not carry the
 * driver's reserved shared memory: Ampere and later keep 1 KiB a block. */
static int
occ_device(const struct pr_device *d, struct pr_occupancy_dev *o)
{
    if (d == NULL || d->num_sms <= 0 || d->compute_major < 0)
        return 0;
    memset(o, 0, sizeof(*o));
    o->cc_major = d->compute_major;
    o->cc_minor = d->compute_minor;
    o->max_threads_per_block = d->max_threads_per_block;
    o->max_threads_per_sm = d->max_threads_per_sm;
    o->regs_per_block = d->regs_per_block;
    o->regs_per_sm = d->regs_per_sm;
    o->warp_size = d->warp_size;
    o->num_sms = d->num_sms;
    o->smem_per_block = d->smem_per_block;
    o->smem_per_sm = d->smem_per_sm;
    o->smem_per_block_optin =
        d->smem_per_block_optin > 0 ? d->smem_per_block_optin : 0;
    o->reserved_smem_per_block = d->compute_major >= 8 ? 1024 : 0;
    return 1;
}

static int
product3(const int32_t v[3], int64_t *out)
{
    return v[0] > 0 && v[1] > 0 && v[2] > 0 &&
           pr_checked_mul_i64(v[0], v[1], out) &&
           pr_checked_mul_i64(*out, v[2], out);
}

/* Kineto's two args for one launch, from its grid, block, registers and
 * shared memory (tb-plugin 9.4).  *bps < 0 / *occ < 0 when not computable:
 * blocks per SM needs the grid and the SM count, occupancy also needs the
 * block, registers, shared memory and the device's limits.  The trace's
 * "shared memory" is static + dynamic; a block above the default limit
 * must have opted in. */
static void
compute_occupancy(const struct pr_trace *t, const struct pr_gpu_info *gi,
                  double *bps, double *occ)
{
    const struct pr_device *d = pr_trace_device(t, gi->device);
    struct pr_occupancy_dev od;
    struct pr_occupancy_launch l = {0, 0, 0, 0, 0};
    struct pr_occupancy r;
    int64_t blocks, threads;

    *bps = *occ = -1.0;
    if (gi->device < 0 || !occ_device(d, &od) || !product3(gi->grid, &blocks))
        return;
    *bps = pr_occupancy_blocks_per_sm(blocks, od.num_sms);
    if (!product3(gi->block, &threads) || threads > INT32_MAX ||
        gi->regs_per_thread < 0 || gi->shared_mem < 0)
        return;
    l.block_threads = (int)threads;
    l.regs_per_thread = gi->regs_per_thread;
    l.static_smem = gi->shared_mem;
    l.smem_optin = gi->shared_mem > od.smem_per_block;
    if (pr_occupancy_compute(&od, &l, &r, NULL) != PR_OK)
        return;
    /* Kineto holds blocks per SM in a float; rounding the same value
     * keeps its ties (7.2 blocks of 64 threads: 22.4999 -> 22 %) */
    *occ = pr_occupancy_achieved_pct(r.active_blocks, (double)(float)*bps,
                                     l.block_threads, od.max_threads_per_sm);
}

/* Calls without either arg get computed values; calls with one keep the
 * trace's (the other counts as 0, as in 11.1). */
static void
add_launch(const struct pr_trace *t, struct kgroup *g,
           const struct pr_gpu_info *gi, double dur)
{
    double bps, occ;

    if (isfinite(gi->blocks_per_sm) || isfinite(gi->occupancy_pct)) {
        g->n_args++;
        return;
    }
    compute_occupancy(t, gi, &bps, &occ);
    if (bps >= 0) {
        g->cbps_x_ns += bps * dur;
        g->n_cbps++;
    }
    if (occ >= 0) {
        g->cocc_x_ns += occ * dur;
        g->n_cocc++;
    }
}

/* A task whose work the Cube did: Ascend's counters, core and operator
 * type say (cube.h), not the core's name alone. */
static int
on_matrix(const struct pr_cube_ctx *cx, const struct pr_event *e,
          const struct pr_gpu_info *gi)
{
    return gi != NULL && pr_cube_task(cx, e->info, gi) == PR_CUBE_YES;
}

static void
add_unit(struct ktable *kt, struct kgroup *g, const struct pr_event *e,
         const struct pr_gpu_info *gi)
{
    if (gi->unit == PR_UNIT_UNKNOWN)
        return;
    if (!g->by_unit) {
        const char *tt = gi->task_type != PR_STR_NONE
                             ? pr_trace_str(kt->t, gi->task_type)
                             : "";

        g->unit = gi->unit;
        g->dsa = strcmp(tt, "DSA_SQE") == 0;
    }
    g->by_unit = 1;
    switch (pr_cube_task(&kt->cube, e->info, gi)) {
    case PR_CUBE_YES:
        g->matrix_ns = pr_sat_add_i64(g->matrix_ns, e->dur_ns);
        break;
    case PR_CUBE_UNKNOWN:
        g->unknown_ns = pr_sat_add_i64(g->unknown_ns, e->dur_ns);
        break;
    default:
        break;
    }
    if (kt->npu) {
        const char *col = NULL;
        double v0 = 0;

        if (pr_cube_pmu(&kt->cube, e->info, &col, &v0) >= 0) {
            g->pmu_ns = pr_sat_add_i64(g->pmu_ns, e->dur_ns);
            g->pmu_x_ns += v0 * (double)e->dur_ns;
            if (g->pmu_col == NULL)
                g->pmu_col = col;
        }
    }
}

/* A kernel judged by its unit whose Cube use is not known for most of
 * its time: MIX_AIC tasks without PMU counters (hunt31 #4). */
static int
cube_unknown(const struct kgroup *g)
{
    return g->by_unit && g->unknown_ns > 0 &&
           g->unknown_ns >= g->total_ns - g->unknown_ns;
}

/* The task's AI Core (AIC) side did not run: a task of the vector cores
 * alone (AI_VECTOR_CORE), or a vector-led mix task (MIX_AIV) whose AI Core
 * time (aicore_time(us), aic_total_cycles) is 0, or, where the producer
 * counted no such time, whose counters show no Cube work.  Its aic_*
 * counters and msprof's cube_utilization(%) (aicore_time / Duration x
 * Block Dim) are then 0 by construction, not a measure of the chip's use
 * (npu_text2's MIX_AIV ReduceSum: "AI Core use 0.0%", review28a #7). */
static int
aic_idle(const struct ktable *kt, const struct pr_event *e,
         const struct pr_gpu_info *gi)
{
    const float *v;

    if (gi->unit == PR_UNIT_VECTOR)
        return 1;
    if (gi->unit != PR_UNIT_MIX_VECTOR)
        return 0;
    v = kt->n_pmu > 0 ? pr_pmu_get(kt->t, e->info) : NULL;
    if (v != NULL && kt->aic_time_col >= 0 && !isnan(v[kt->aic_time_col]))
        return v[kt->aic_time_col] == 0;
    return pr_cube_task(&kt->cube, e->info, gi) != PR_CUBE_YES;
}

/* The call's PMU counters into its group's weighted sums (a call of no
 * duration weighs 1 ns, so that it still counts).  A task that ran on the
 * vector cores alone (AI_VECTOR_CORE) leaves the AI Core's aic_* columns
 * 0 by construction: they are not counted, so that its Cube busy reads
 * "not recorded", not 0 (kd_910B_v2's Add, review26a #5). */
static void
add_pmu(const struct pr_trace *t, struct ktable *kt, struct kgroup *g,
        const struct pr_event *e, const struct pr_gpu_info *gi)
{
    const float *v = pr_pmu_get(t, e->info);
    double w = e->dur_ns > 0 ? (double)e->dur_ns : 1.0;
    int aiv = aic_idle(kt, e, gi);
    size_t i;

    if (v == NULL)
        return;
    if (g->pmu == NULL &&
        (g->pmu = calloc(2 * kt->n_pmu, sizeof(double))) == NULL) {
        kt->pmu_nomem = 1;
        return;
    }
    for (i = 0; i < kt->n_pmu; i++) {
        if (isnan(v[i]) ||
            (aiv && strncmp(pr_trace_str(t, t->pmu->cols[i]), "aic_", 4) == 0))
            continue;
        g->pmu[i] += (double)v[i] * w;
        g->pmu[kt->n_pmu + i] += w;
    }
}

/* The precision of a producer's input dtype list ("['float', 'float']",
 * "['c10::BFloat16', 'c10::BFloat16']", "FLOAT16;FLOAT", "DT_BF16"): the
 * narrowest floating type among the inputs (a matmul's fp32 bias or a
 * norm's fp32 gamma beside fp16 data is not its precision), else int8;
 * PR_KP_NONE when it names neither, or both fp16 and bf16.  An fp32 task
 * its producer marks HF32 Eligible YES ran the Cube in HF32; an fp32 task
 * on the Cube (cube) whose producer records no HF32 column may have (as
 * npu_db1's convolutions, HF32 Eligible YES in the same job's text
 * export): its precision is not known. */
static enum pr_kprec
prec_of_dtypes(const char *s, int hf32, int cube)
{
    int f16 = 0, b16 = 0, f32 = 0, f64 = 0, i8 = 0;

    while (*s) {
        size_t n;

        s += strspn(s, "[]' ,;");
        n = strcspn(s, "[]' ,;");
        if (n > 3 && strncasecmp(s, "DT_", 3) == 0)
            s += 3, n -= 3;
#define IS(w) (n == sizeof(w) - 1 && strncasecmp(s, w, n) == 0)
        f16 |= IS("c10::Half") || IS("float16") || IS("fp16") || IS("half");
        b16 |=
            IS("c10::BFloat16") || IS("bf16") || IS("bfloat16") || IS("bfp16");
        f32 |= IS("float") || IS("float32") || IS("fp32");
        f64 |= IS("double") || IS("float64") || IS("fp64");
        i8 |= IS("int8") || IS("signed"); /* torch's "signed char" */
#undef IS
        s += n;
    }
    if (f16 && b16)
        return PR_KP_NONE;
    if (f16 || b16)
        return f16 ? PR_KP_FP16 : PR_KP_BF16;
    if (f32)
        return hf32 == 1          ? PR_KP_HF32
               : hf32 < 0 && cube ? PR_KP_NONE
                                  : PR_KP_FP32;
    if (f64)
        return PR_KP_FP64;
    return i8 ? PR_KP_INT8 : PR_KP_NONE;
}

/* The call's stated input precision into its group's (review28a #4: the
 * Kernels table said "not known" for kd_910B_v2's DT_BF16 MatMulV3). */
static void
add_prec(const struct ktable *kt, struct kgroup *g, const struct pr_event *e,
         const struct pr_gpu_info *gi)
{
    enum pr_kprec p;
    size_t i;

    if (gi->dev_types == PR_STR_NONE)
        return;
    p = prec_of_dtypes(pr_trace_str(kt->t, gi->dev_types), gi->hf32,
                       on_matrix(&kt->cube, e, gi));
    if (p == PR_KP_NONE)
        return;
    for (i = 0; i < g->n_prec && g->prec_v[i] != (uint8_t)p; i++)
        ;
    if (i == g->n_prec && i < PREC_SLOTS)
        g->prec_v[g->n_prec++] = (uint8_t)p;
    if (i < g->n_prec) {
        g->prec_calls[i]++;
        g->prec_ns[i] = pr_sat_add_i64(g->prec_ns[i], e->dur_ns);
    }
    if (g->prec_state == 0) {
        g->prec = p;
        g->prec_state = 1;
    } else if (g->prec != p)
        g->prec_state = -1;
}

/* Missing (or non-finite) per-kernel values weigh in as 0 (11.1). */
static void
add_kernel(const struct pr_trace *t, struct ktable *kt, struct kgroup *g,
           const struct pr_event *e, const struct pr_gpu_info *gi)
{
    double dur = (double)e->dur_ns;

    if (g->calls == 0 || e->dur_ns < g->min_ns)
        g->min_ns = e->dur_ns;
    if (g->calls == 0 || e->dur_ns > g->max_ns)
        g->max_ns = e->dur_ns;
    g->calls++;
    g->total_ns = pr_sat_add_i64(g->total_ns, e->dur_ns);
    if (gi == NULL)
        return;
    add_unit(kt, g, e, gi);
    add_launch(t, g, gi, dur);
    if (kt->n_pmu > 0)
        add_pmu(t, kt, g, e, gi);
    add_prec(kt, g, e, gi);
    if (isfinite(gi->blocks_per_sm))
        g->bps_x_ns += gi->blocks_per_sm * dur;
    if (isfinite(gi->occupancy_pct)) {
        g->occ_x_ns += gi->occupancy_pct * dur;
        g->occ_ns += dur;
    }
    g->n_occ_unknown += (size_t)pr_gpu_occupancy_not_computed(gi);
    kt->has_bps |=
        gi->device >= 0 && isfinite(gi->blocks_per_sm) && gi->blocks_per_sm > 0;
    kt->has_occ |= gi->device >= 0 && gi->occupancy_pct >= 0;
    /* msprof's cube_utilization(%) is aicore_time / Duration x Block Dim:
       0 by construction on a vector-core task (aicore_time 0), so it is
       not that task's use of the chip (review26a #5) */
    if (isfinite(gi->matrix_util_pct) && !aic_idle(kt, e, gi)) {
        g->cube_x_ns += gi->matrix_util_pct * dur;
        g->cube_ns += dur;
        kt->has_cube = 1;
    }
}

/* Without a vendor from the devices (a trace with no deviceProperties),
 * the libraries that ran tell it: a kernel that only runs on NVIDIA's
 * units (tensor cores, CUDA cores) or only on AMD's (MFMA, VALU) names it;
 * then the rows' "matrix" and "simt" math are made concrete. */
static void
vendor_from_kernels(struct ktable *kt)
{
    size_t i;

    for (i = 0; i < kt->n && kt->vendor == NULL; i++) {
        enum pr_kmath m = kt->v[i].kc.math;

        if (m == PR_KM_TENSOR_CORE || m == PR_KM_CUDA_CORE)
            kt->vendor = "nvidia";
        else if (m == PR_KM_MFMA || m == PR_KM_VECTOR)
            kt->vendor = "amd";
    }
    for (i = 0; i < kt->n && kt->vendor != NULL; i++)
        kt->v[i].kc.math = pr_kclass_math_on(kt->v[i].kc.math, kt->vendor);
}

/* The family of a kernel no rule names, from what its producer says of
 * it: a task it calls a collective (HCCL's tasks, PyTorch's collective
 * metadata) is communication, as comm.c counts it; else the rule that
 * names its operator type (Ascend's op_type "MatMulV2" of a task named
 * by its MindSpore scope), the class but not the math, which the unit
 * gives.  Asked once a group for the type. */
static void
family_by_producer(struct ktable *kt, struct kgroup *g,
                   const struct pr_gpu_info *gi)
{
    struct pr_kclass k;

    if (gi->unit == PR_UNIT_COMM ||
        (gi->collective != PR_STR_NONE && gi->collective != PR_STR_EMPTY)) {
        g->kc.family = PR_KF_COLLECTIVE;
        g->by_producer = 1;
        return;
    }
    if (g->by_producer || gi->op_type == PR_STR_NONE)
        return;
    g->by_producer = -1;
    pr_names_lookup(&kt->names, pr_trace_str(kt->t, gi->op_type), &k);
    if (k.family == PR_KF_UNKNOWN || k.family == PR_KF_COLLECTIVE)
        return;
    g->gather = is_gather_rule(k.rule);
    g->kc.family = k.family;
    g->by_producer = 2;
    g->op_type = gi->op_type;
}

/* The number of dimensions of the first input in an operator's input
 * shapes ("[[184696, 8], [128000, 39]]" -> 2, "[[1], [1]]" -> 1,
 * "[[], [4]]" -> 0); -1 when the text gives none. */
static int
first_input_dims(const char *s)
{
    int n = 0, digits = 0;

    if (s == NULL)
        return -1;
    while (*s == ' ')
        s++;
    if (s[0] != '[' || s[1] != '[')
        return -1;
    for (s += 2; *s != '\0' && *s != ']'; s++) {
        if (*s >= '0' && *s <= '9')
            digits = 1;
        else if (*s == ',')
            n++;
    }
    if (*s != ']')
        return -1;
    return digits ? n + 1 : 0;
}

/* At most this many gather groups are looked up (three walks of the
 * trace each); the rest keep the rule's family. */
#define MAX_GATHERS 64

/* A gather (CANN's GatherV2 / Gather, MindSpore's ops.Gather) is an
 * embedding lookup where it reads rows of a 2-D table, as nn.Embedding's
 * weight [num_embeddings, embedding_dim] is (mindspore nn/layer/
 * embedding.py, torch.nn.functional.embedding); a gather from a vector
 * (AlexNet's learning-rate schedule: GatherV2 [[1], [1]] in
 * _IteratorLearningRate) is an index lookup, and without shapes the
 * name cannot tell: both stay the rule's "other" (issue #30 finding 3). */
static void
refine_gathers(const struct pr_trace *t, struct ktable *kt)
{
    size_t i, n = 0;

    for (i = 0; i < kt->n && n < MAX_GATHERS; i++) {
        struct kgroup *g = &kt->v[i];

        if (!g->gather)
            continue;
        n++;
        if (first_input_dims(pr_task_op_shapes(t, g->name_id)) == 2)
            g->kc.family = PR_KF_EMBEDDING;
    }
}

static enum pr_status
collect(const struct pr_trace *t, struct ktable *kt, struct pr_error *err)
{
    size_t i;

    kt->t = t;
    kt->n_pmu = t->pmu != NULL ? t->pmu->n_cols : 0;
    pr_names_init(&kt->names, t);
    kt->vendor = pr_devices_vendor(t);
    kt->npu = pr_trace_is_npu(t);
    pr_cube_init(t, &kt->cube);
    kt->aic_time_col = -1;
    for (i = 0; i < kt->n_pmu; i++) {
        const char *c = pr_trace_str(t, t->pmu->cols[i]);

        if (strcmp(c, "aicore_time(us)") == 0 ||
            (kt->aic_time_col < 0 && strcmp(c, "aic_total_cycles") == 0))
            kt->aic_time_col = (int)i;
    }

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const struct pr_gpu_info *gi;
        struct pr_gpu_info gb;
        struct kgroup *g;

        if (e->kind != PR_KIND_DEVICE_TASK)
            continue;
        g = group_of(kt, t, e->name, err);
        if (g == NULL)
            return PR_E_NOMEM;
        gi = pr_trace_gpu(t, e, &gb);
        add_kernel(t, kt, g, e, gi);
        if (g->kc.family == PR_KF_UNKNOWN && gi != NULL)
            family_by_producer(kt, g, gi);
    }
    refine_gathers(t, kt);
    if (kt->vendor == NULL)
        vendor_from_kernels(kt);
    return kt->pmu_nomem ? pr_error_set(err, PR_E_NOMEM, "out of memory")
                         : PR_OK;
}

struct pair {
    uint32_t kernel, op; /* string ids */
    int64_t ns;
};

struct pairs {
    struct pair *v; /* owned */
    size_t n, cap;
    struct pr_idmap index; /* (kernel << 32 | op) -> pair */
};

static enum pr_status
add_pair(struct pairs *p, uint32_t kernel, uint32_t op, int64_t ns,
         struct pr_error *err)
{
    int64_t key = (int64_t)(((uint64_t)kernel << 32) | op);
    size_t i = pr_idmap_get(&p->index, key);

    if (i == PR_NONE) {
        i = p->n;
        if (pr_grow((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v)) ||
            pr_idmap_put(&p->index, key, i, err))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (kernels)");
        p->v[p->n].kernel = kernel;
        p->v[p->n].op = op;
        p->v[p->n++].ns = 0;
    }
    p->v[i].ns += ns;
    return PR_OK;
}

/* The launching node of each kernel (tree.c, 5.2); kernels under a thread
 * root (zero-id runtimes, staled kernels) and lost runtimes have none. */
static enum pr_status
attribute(const struct pr_trace *t, const struct pr_tree *tree,
          struct ktable *kt, struct pr_error *err)
{
    struct pairs p = {0};
    enum pr_status st = PR_OK;
    size_t i;

    for (i = 0; i < tree->n_devs && st == PR_OK; i++) {
        const struct pr_tree_dev *d = &tree->devs[i];
        const struct pr_event *e = &t->events[d->ev];
        uint32_t node = pr_tree_dev_node(tree, d);

        if (e->kind != PR_KIND_DEVICE_TASK || node == PR_TREE_NONE ||
            tree->nodes[node].type == PR_N_ROOT)
            continue;
        st = add_pair(&p, e->name, pr_tree_name(t, tree, &tree->nodes[node]),
                      e->dur_ns, err);
    }
    for (i = 0; i < p.n && st == PR_OK; i++) {
        struct kgroup *g = &kt->v[pr_idmap_get(&kt->index, p.v[i].kernel)];
        const char *op = pr_trace_str(t, p.v[i].op);

        if (pr_tensorcore_op_is_conv(op))
            g->conv_ns = pr_sat_add_i64(g->conv_ns, p.v[i].ns);
        if (g->op == NULL || p.v[i].ns > g->op_ns ||
            (p.v[i].ns == g->op_ns && strcmp(op, g->op) < 0)) {
            g->op = op;
            g->op_ns = p.v[i].ns;
        }
    }
    free(p.v);
    pr_idmap_free(&p.index);
    return st;
}

static int
cmp_kgroup(const void *a, const void *b)
{
    const struct kgroup *x = a, *y = b;

    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Kernels measured by CUPTI's range profiler have no times to rank by
 * (issue #29): the most launched first. */
static int
cmp_kgroup_calls(const void *a, const void *b)
{
    const struct kgroup *x = a, *y = b;

    if (x->calls != y->calls)
        return x->calls > y->calls ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* One weighted mean: the trace's when the group has the args, else the
 * computed one when any call could be computed, else 11.1's 0 / null. */
static int
kmean(int has_trace_arg, double trace_x_ns, size_t n_computed,
      double computed_x_ns, const struct kgroup *g, double *v)
{
    double total = (double)g->total_ns;

    *v = NAN;
    if (g->n_args == 0 && n_computed > 0)
        *v = total > 0 ? computed_x_ns / total : 0.0;
    else if (has_trace_arg)
        *v = total > 0 ? trace_x_ns / total : 0.0;
    else
        return 0;
    return 1;
}

/* mean_blocks_per_sm into *v; 0 when it is null. */
static int
mean_bps(const struct ktable *kt, const struct kgroup *g, double *v)
{
    return kmean(kt->has_bps, g->bps_x_ns, g->n_cbps, g->cbps_x_ns, g, v);
}

/* mean_est_achieved_occupancy_pct into *v; 0 when it is null. */
static int
mean_occ(const struct ktable *kt, const struct kgroup *g, double *v)
{
    /* calls whose occupancy the trace does not give are left out, not
       counted as 0 (review25g #1); null when no call has one */
    if (g->n_occ_unknown > 0 && g->n_args > 0 && kt->has_occ) {
        *v = g->occ_ns > 0 ? g->occ_x_ns / g->occ_ns : NAN;
        return g->occ_ns > 0;
    }
    return kmean(kt->has_occ, g->occ_x_ns, g->n_cocc, g->cocc_x_ns, g, v);
}

static double
mean_us(const struct kgroup *g)
{
    return (double)g->total_ns / 1000.0 / (double)g->calls;
}

static const char *
occupancy_source(const struct kgroup *g)
{
    if (g->n_args > 0)
        return g->n_occ_unknown > 0 && !(g->occ_ns > 0) ? "trace_missing"
                                                        : "trace";
    return g->n_cbps > 0 || g->n_cocc > 0 ? "computed" : NULL;
}

/* The unit's name as tensor_cores_rule says it.  The device's AI CPU is
 * "ai_cpu", as math names it, not "cpu", which read as the host's (issue
 * #30: MindSpore's AI CPU ops; summaries before wrote "cpu"). */
const char *
pr_unit_name(uint8_t unit)
{
    static const char *const names[] = {"unknown",    "matrix",     "vector",
                                        "mix_matrix", "mix_vector", "ai_cpu",
                                        "other",      "comm"};

    return unit < sizeof(names) / sizeof(names[0]) ? names[unit] : "unknown";
}

/* A kernel judged by its unit: on the matrix unit when most of its time
 * was. */
static int
unit_tc(const struct kgroup *g)
{
    return g->matrix_ns > 0 && g->matrix_ns >= g->total_ns - g->matrix_ns;
}

/* Whether the kernel ran on tensor cores, which list said so and the
 * rule that decided.  A kernel whose producer names the unit it ran on is
 * judged by that unit, not by its name: on the matrix unit when most of
 * its time was (source "unit", rule the unit of its first call: "matrix"
 * for Ascend's AI_CORE Cube, "vector", "mix_matrix" ...).  Any other is
 * judged by the kernel table: on tensor cores when its rule's math is a
 * matrix unit (source "plugin" where the plugin's list agrees, "table"
 * where only the table says so). */
static int
tc_used(const struct kgroup *g)
{
    if (g->by_unit)
        return unit_tc(g);
    return pr_kclass_is_matrix(g->kc.math);
}

/* Whether an Ascend task's unit is not known: its producer names none
 * (MindSpore's framework_raw, a PROF without task_type, torch_npu's
 * text_level0 or trace_view), its rule, if any, names no unit, and its
 * work is matrix work the Cube may have done (a GEMM, convolution or
 * attention, or a task no rule names).  A CANN MatMul or Conv2D AI Core
 * task runs on the Cube (kd_910B_v1, npu_db1 say so), so "no" would be
 * the opposite of what the exports that tell measure (review25a #4); an
 * HCCL task, a data-queue wait, a copy, an elementwise or reduction
 * operator is no Cube work whatever ran it, and stays "no".  On a GPU a
 * name no rule places on tensor cores stays "no", the TensorBoard
 * plugin's convention. */
static int
unit_unknown(const struct ktable *kt, const struct kgroup *g)
{
    enum pr_kfamily f = g->kc.family;

    return kt->npu && !g->by_unit && g->kc.math == PR_KM_UNKNOWN &&
           (f == PR_KF_GEMM || f == PR_KF_CONV || f == PR_KF_ATTENTION ||
            f == PR_KF_UNKNOWN);
}

/* tensor_cores_used and what decided it: null where the unit is not
 * known (unit_unknown). */
static void
fill_tc(struct pr_row_kernel *r, const struct ktable *kt,
        const struct kgroup *g)
{
    int tc = tc_used(g);

    if (unit_unknown(kt, g) || cube_unknown(g)) {
        r->tensor_cores_used = -1;
        r->tensor_cores_source = r->tensor_cores_rule = NULL;
        return;
    }
    r->tensor_cores_used = tc;
    if (g->by_unit) {
        r->tensor_cores_source = "unit";
        r->tensor_cores_rule = pr_unit_name(g->unit);
        return;
    }
    r->tensor_cores_source = !tc ? NULL : g->kc.plugin_tc ? "plugin" : "table";
    r->tensor_cores_rule = g->kc.rule;
}

/* The stated precision of most of a kernel's time whose calls state
 * several (review30a #9: kd_910B_v2's aclnnAdd, 4 calls DT_BF16 of 22-31
 * us, 4 FLOAT of 1.5 us). */
static enum pr_kprec
prec_majority(const struct kgroup *g)
{
    size_t i, best = 0;

    for (i = 1; i < g->n_prec; i++)
        if (g->prec_ns[i] > g->prec_ns[best])
            best = i;
    return g->n_prec > 0 ? (enum pr_kprec)g->prec_v[best] : PR_KP_NONE;
}

static void
fill_class(struct pr_row_kernel *r, const struct kgroup *g)
{
    enum pr_kmath m = g->kc.math;

    /* a task whose producer named its unit ran on that unit; an HCCL
       task's is communication, no compute unit's math (review 8) */
    if (g->by_unit && m == PR_KM_UNKNOWN && !cube_unknown(g))
        m = unit_tc(g) ? PR_KM_CUBE : PR_KM_VECTOR;
    r->family = pr_kclass_family_name(g->kc.family);
    r->library = g->kc.library;
    r->math = g->by_unit && g->unit == PR_UNIT_COMM         ? MATH_COMM
              : engine_of(g->by_unit, g->unit, g->dsa) == 1 ? MATH_AI_CPU
              : engine_of(g->by_unit, g->unit, g->dsa) == 2
                  ? MATH_DSA
                  : pr_kclass_math_name(m);
    r->precision = pr_kclass_prec_name(g->kc.precision);
    r->precision_source = r->precision != NULL ? "name" : NULL;
    if (r->precision == NULL && g->prec_state == 1) {
        r->precision = pr_kclass_prec_name(g->prec);
        r->precision_source = "producer";
    } else if (r->precision == NULL && g->prec_state < 0) {
        r->precision = pr_kclass_prec_name(prec_majority(g));
        r->precision_source = "producer_mixed";
    }
    r->kernel_rule = g->kc.rule;
    r->family_source = g->kc.rule != NULL   ? "rule"
                       : g->by_producer > 0 ? "producer"
                                            : NULL;
}

/* The pipes of an AI Core / AI Vector core whose busy ratio the PMU
 * counts (aic_mac_ratio, aiv_mte2_ratio, ...), what a kernel that keeps
 * one busiest is bound by (short: 0, the unit; 1, the pipe). */
static const char *
pipe_label(const char *pipe, int pipe_name)
{
    static const char *const v[][3] = {
        {"mac", "Cube", "Cube"},          {"vec", "Vector", "Vector"},
        {"scalar", "Scalar", "Scalar"},   {"mte1", "MTE", "MTE1"},
        {"mte2", "MTE", "MTE2"},          {"mte3", "MTE", "MTE3"},
        {"fixpipe", "FixPipe", "FixPipe"}};
    size_t i;

    for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        if (strcmp(pipe, v[i][0]) == 0)
            return v[i][1 + (pipe_name != 0)];
    return NULL;
}

/* "MTE-bound: aic mte2 ratio 0.96" from the busiest pipe's mean ratio
 * (>= 0.5), "no pipe busy half the time: aiv vec ratio 0.19 at most"
 * below; NULL without pipe ratios.  pmu_hint says it in a table cell's
 * room: "MTE2-bound 0.96", "busiest Vector 0.19". */
/* The text of pmu_bound and pmu_hint, where a kernel's PMU counters are
 * written. */
struct pmu_text {
    char bound[96], hint[96];
};

static void
fill_bound(struct pr_row_kernel *r, const char *const *names,
           const double *mean, size_t n, struct pmu_text *tx)
{
    char pipe[16];
    size_t i, best = n;

    for (i = 0; i < n; i++) {
        size_t len = strlen(names[i]);

        if (!isfinite(mean[i]) || len < 11 || len - 10 >= sizeof(pipe) ||
            strcmp(names[i] + len - 6, "_ratio") != 0)
            continue;
        memcpy(pipe, names[i] + 4, len - 10);
        pipe[len - 10] = '\0';
        if (pipe_label(pipe, 0) && (best == n || mean[i] > mean[best]))
            best = i;
    }
    r->pmu_bound = r->pmu_hint = NULL;
    if (best == n)
        return;
    snprintf(pipe, sizeof(pipe), "%.*s", (int)(strlen(names[best]) - 10),
             names[best] + 4);
    if (mean[best] >= 0.5)
        snprintf(tx->bound, sizeof(tx->bound), "%s-bound: %.3s %s ratio %.2f",
                 pipe_label(pipe, 0), names[best], pipe, mean[best]);
    else
        snprintf(tx->bound, sizeof(tx->bound),
                 "no pipe busy half the time: %.3s %s ratio %.2f at most",
                 names[best], pipe, mean[best]);
    if (mean[best] >= 0.5)
        snprintf(tx->hint, sizeof(tx->hint), "%s-bound %.2f",
                 pipe_label(pipe, 1), mean[best]);
    else
        snprintf(tx->hint, sizeof(tx->hint), "busiest %s %.2f",
                 pipe_label(pipe, 1), mean[best]);
    r->pmu_bound = tx->bound;
    r->pmu_hint = tx->hint;
}

/* pmu {column: duration-weighted mean} (into *pmu, which the caller
 * deletes) and the bound they hint at; all null for a kernel whose calls
 * carry no counters. */
static void
fill_pmu(struct pr_row_kernel *r, const struct ktable *kt,
         const struct kgroup *g, cJSON **pmu, struct pmu_text *tx, int *ok)
{
    const char *names[64];
    double mean[64];
    size_t i, n = kt->n_pmu < 64 ? kt->n_pmu : 64;

    r->pmu = NULL;
    r->pmu_bound = r->pmu_hint = NULL;
    if (g->pmu == NULL)
        return;
    *pmu = cJSON_CreateObject();
    if (*pmu == NULL) {
        *ok = 0;
        return;
    }
    for (i = 0; i < n; i++) {
        double w = g->pmu[kt->n_pmu + i];

        names[i] = pr_trace_str(kt->t, kt->t->pmu->cols[i]);
        mean[i] = w > 0 ? g->pmu[i] / w : NAN;
        pr_emit_finite(*pmu, names[i], mean[i], ok);
    }
    r->pmu = *pmu;
    fill_bound(r, names, mean, n, tx);
}

static void
emit_kgroup(cJSON *arr, const struct ktable *kt, const struct kgroup *g,
            int *ok)
{
    enum pr_rows_object ro = PR_RO_RUNS_KERNELS;
    /* a range profiler's ranges are spread over the span: no times */
    int timed = kt->t->replayed_kernels <= 0;
    struct pr_row_kernel r = {
        .name = g->name,
        .operator= g->op,
        .calls = (int64_t)g->calls,
        .total_us = timed ? (double)g->total_ns / 1000.0 : NAN,
        .mean_us = timed ? mean_us(g) : NAN,
        .min_us = timed ? (double)g->min_ns / 1000.0 : NAN,
        .max_us = timed ? (double)g->max_ns / 1000.0 : NAN,
        .occupancy_source = occupancy_source(g),
        .cube_utilization_pct =
            g->cube_ns > 0 ? g->cube_x_ns / g->cube_ns : NAN,
    };
    struct pmu_text tx;
    cJSON *pmu = NULL;
    double v;

    r.mean_blocks_per_sm = mean_bps(kt, g, &v) ? v : NAN;
    r.mean_est_achieved_occupancy_pct = mean_occ(kt, g, &v) ? v : NAN;
    fill_tc(&r, kt, g);
    fill_class(&r, g);
    if (kt->n_pmu > 0) /* the keys only where the producer counted */
        fill_pmu(&r, kt, g, &pmu, &tx, ok);
    else {
        pr_rows_omit(ro, &r, PR_SR_RUNS_KERNELS_PR_K_PMU);
        pr_rows_omit(ro, &r, PR_SR_RUNS_KERNELS_PR_K_PMU_BOUND);
        pr_rows_omit(ro, &r, PR_SR_RUNS_KERNELS_PR_K_PMU_HINT);
    }
    if (!kt->has_cube) /* likewise: msprof's cube_utilization(%) */
        pr_rows_omit(ro, &r, PR_SR_RUNS_KERNELS_PR_K_CUBE_UTILIZATION_PCT);
    *ok = *ok && arr != NULL && pr_rows_write(arr, ro, &r, 1);
    cJSON_Delete(pmu);
}

/* The rows later passes read, in the table's order. */
static enum pr_status
make_refs(const struct ktable *kt, struct pr_kernel_refs *refs,
          struct pr_error *err)
{
    size_t i;

    refs->v = calloc(kt->n ? kt->n : 1, sizeof(*refs->v));
    if (refs->v == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (kernels)");
    for (i = 0; i < kt->n; i++) {
        refs->v[i].name = kt->v[i].name;
        refs->v[i].op = kt->v[i].op;
        refs->v[i].total_ns = kt->v[i].total_ns;
        refs->v[i].by_unit = kt->v[i].by_unit;
        refs->v[i].unit_tc = kt->v[i].by_unit && unit_tc(&kt->v[i]);
        refs->v[i].cube_unknown = cube_unknown(&kt->v[i]);
        refs->v[i].comm = kt->v[i].by_unit && kt->v[i].unit == PR_UNIT_COMM;
        refs->v[i].engine =
            engine_of(kt->v[i].by_unit, kt->v[i].unit, kt->v[i].dsa);
        refs->v[i].calls = kt->v[i].calls;
        refs->v[i].mean_us = mean_us(&kt->v[i]);
        /* NaN where the row writes null */
        (void)mean_bps(kt, &kt->v[i], &refs->v[i].blocks_per_sm);
        (void)mean_occ(kt, &kt->v[i], &refs->v[i].occupancy_pct);
        refs->v[i].tc_used = tc_used(&kt->v[i]);
        refs->v[i].plugin_tc = kt->v[i].kc.plugin_tc;
        refs->v[i].family = kt->v[i].kc.family;
        refs->v[i].math = kt->v[i].kc.math;
        refs->v[i].precision = kt->v[i].kc.precision;
        refs->v[i].mma_precision = kt->v[i].kc.mma_precision;
        refs->v[i].known = kt->v[i].kc.rule != NULL;
        refs->v[i].conv_ns = kt->v[i].conv_ns;
    }
    refs->n = kt->n;
    return PR_OK;
}

static enum pr_status
emit_table(const struct ktable *kt, cJSON **out, struct pr_error *err)
{
    int ok;
    size_t i;

    *out = cJSON_CreateArray();
    ok = *out != NULL;
    for (i = 0; i < kt->n && ok; i++)
        emit_kgroup(*out, kt, &kt->v[i], &ok);
    if (!ok) {
        cJSON_Delete(*out);
        *out = NULL;
        return pr_error_set(err, PR_E_NOMEM, "out of memory (kernels)");
    }
    return PR_OK;
}

enum pr_status
pr_kernels_build(const struct pr_trace *t, const struct pr_tree *tree,
                 cJSON **out, struct pr_kernel_refs *refs, struct pr_error *err)
{
    struct ktable kt = {0};
    enum pr_status st = collect(t, &kt, err);

    *out = NULL;
    if (refs != NULL)
        memset(refs, 0, sizeof(*refs));
    if (st == PR_OK)
        st = attribute(t, tree, &kt, err);
    if (st == PR_OK && kt.n > 1)
        qsort(kt.v, kt.n, sizeof(*kt.v),
              t->replayed_kernels > 0 ? cmp_kgroup_calls : cmp_kgroup);
    if (st == PR_OK)
        st = emit_table(&kt, out, err);
    if (st == PR_OK && refs != NULL && make_refs(&kt, refs, err) != PR_OK) {
        cJSON_Delete(*out);
        *out = NULL;
        st = PR_E_NOMEM;
    }
    ktable_free(&kt);
    return st;
}

/* The first place at or after s where p (n bytes) occurs, case aside;
 * NULL. */
static const char *
find_ci(const char *s, const char *p, size_t n)
{
    for (; *s; s++)
        if (strncasecmp(s, p, n) == 0)
            return s;
    return n == 0 ? s : NULL;
}

/* s without the namespaces that qualify its names ("flash::", "cute::",
 * "(anonymous namespace)::") and without spaces ("> >"), as the tables'
 * short forms print template arguments; malloc'd, NULL on out-of-memory. */
static char *
drop_namespaces(const char *s)
{
    static const char anon[] = "(anonymous namespace)::";
    char *o = malloc(strlen(s) + 1);
    size_t n = 0;

    if (o == NULL)
        return NULL;
    while (*s) {
        size_t w = 0;

        if (strncmp(s, anon, sizeof(anon) - 1) == 0) {
            s += sizeof(anon) - 1;
            continue;
        }
        while (isalnum((unsigned char)s[w]) || s[w] == '_')
            w++;
        if ((w > 0 && s[w] == ':' && s[w + 1] == ':') || *s == ' ') {
            s += w > 0 ? w + 2 : 1;
            continue;
        }
        if (w == 0)
            w = 1;
        memcpy(o + n, s, w);
        n += w;
        s += w;
    }
    o[n] = '\0';
    return o;
}

/* Whether the parts of q, split at "…" or "...", occur in name in that
 * order, case aside; q has at least one part that is not empty. */
static int
parts_in_order(const char *name, const char *q)
{
    const char *at = name;
    int any = 0;

    while (*q) {
        const char *e1 = strstr(q, "\xe2\x80\xa6"), *e2 = strstr(q, "...");
        const char *end = e1 && (!e2 || e1 < e2) ? e1 : e2;
        size_t n = end ? (size_t)(end - q) : strlen(q);

        if (n > 0) {
            at = find_ci(at, q, n);
            if (at == NULL)
                return 0;
            at += n;
            any = 1;
        }
        q += n;
        if (end)
            q += 3; /* "…" is 3 bytes of UTF-8, as "..." */
    }
    return any;
}

/* Whether kernel `name` is what a table printed as q (a part, or a short
 * form): its parts in order in the name as it is or, both without
 * namespaces, in the name as the short forms print it. */
static int
names_kernel(const char *name, const char *q)
{
    char *a, *b;
    int r;

    if (parts_in_order(name, q))
        return 1;
    a = drop_namespaces(name);
    b = drop_namespaces(q);
    r = a != NULL && b != NULL && parts_in_order(a, b);
    free(a);
    free(b);
    return r;
}

/* q without the " [2]" a table adds to tell alike short forms apart,
 * into buf (cap bytes). */
static const char *
query_of(const char *q, char *buf, size_t cap)
{
    size_t n = strlen(q), i = n;

    if (n >= 4 && q[n - 1] == ']') {
        for (i = n - 2; i > 0 && isdigit((unsigned char)q[i]); i--)
            ;
        if (i + 2 < n && q[i] == '[' && i > 0 && q[i - 1] == ' ' && n < cap) {
            memcpy(buf, q, i - 1);
            buf[i - 1] = '\0';
            return buf;
        }
    }
    return q;
}

/* The precisions a kernel's calls state, by time: "bf16 4 calls
 * 104.2 µs, fp32 4 calls 6.0 µs". */
static void
why_precs(struct pr_kernel_why *out, const struct kgroup *g)
{
    size_t i, n = 0, done[PREC_SLOTS] = {0};

    out->precs[0] = '\0';
    for (;;) {
        size_t k, best = PREC_SLOTS;
        int w;

        for (k = 0; k < g->n_prec; k++)
            if (!done[k] &&
                (best == PREC_SLOTS || g->prec_ns[k] > g->prec_ns[best]))
                best = k;
        if (best == PREC_SLOTS)
            break;
        done[best] = 1;
        w = snprintf(out->precs + n, sizeof(out->precs) - n,
                     "%s%s %u call%s %.1f µs", n > 0 ? ", " : "",
                     pr_kclass_prec_name((enum pr_kprec)g->prec_v[best]),
                     (unsigned)g->prec_calls[best],
                     g->prec_calls[best] == 1 ? "" : "s",
                     (double)g->prec_ns[best] / 1000.0);
        if (w < 0 || (size_t)w >= sizeof(out->precs) - n)
            break;
        n += (size_t)w;
    }
    for (i = 0; i < g->n_prec; i++)
        out->prec_calls += g->prec_calls[i];
}

enum pr_status
pr_kernels_why(const struct pr_trace *t, const char *name,
               struct pr_kernel_why *out, struct pr_error *err)
{
    struct ktable kt = {0};
    const struct kgroup *hit = NULL, *one = NULL;
    enum pr_status st;
    char qbuf[4096];
    const char *q;
    size_t i;

    memset(out, 0, sizeof(*out));
    out->type_kc.index = -1;
    out->tc = -1;
    if (t->kclass == NULL) /* the strings must outlive the pass */
        return pr_error_set(err, PR_E_USAGE,
                            "kernels: --why needs the run's kernel table");
    st = collect(t, &kt, err);
    /* the full name, else the one kernel a part or short form names */
    for (i = 0; i < kt.n && st == PR_OK && hit == NULL; i++)
        if (strcmp(kt.v[i].name, name) == 0)
            hit = &kt.v[i];
    q = query_of(name, qbuf, sizeof(qbuf));
    for (i = 0; i < kt.n && st == PR_OK && hit == NULL; i++) {
        const char *nm = kt.v[i].name;
        size_t j;

        if (!names_kernel(nm, q))
            continue;
        for (j = 0; j < out->n_alike && j < PR_KERNEL_WHY_ALIKE; j++)
            if (strcmp(out->alike[j], nm) == 0)
                break;
        if (j < out->n_alike && j < PR_KERNEL_WHY_ALIKE)
            continue;
        if (out->n_alike < PR_KERNEL_WHY_ALIKE)
            out->alike[out->n_alike] = nm;
        if (out->n_alike++ == 0)
            one = &kt.v[i];
    }
    if (hit == NULL && out->n_alike == 1)
        hit = one;
    if (hit != NULL) {
        memset(out->alike, 0, sizeof(out->alike));
        out->n_alike = 0;
    }
    if (st == PR_OK && hit != NULL) {
        const struct kgroup *g = hit;
        struct pr_row_kernel r;

        memset(&r, 0, sizeof(r));
        out->name = g->name;
        fill_tc(&r, &kt, g);
        fill_class(&r, g);
        out->found = 1;
        out->npu = kt.npu;
        out->calls = g->calls;
        out->total_ns = g->total_ns;
        out->kc = g->kc;
        out->family = r.family;
        out->math = r.math;
        out->family_source = r.family_source;
        out->tc = r.tensor_cores_used;
        out->tc_source = r.tensor_cores_source;
        out->unit = g->by_unit ? pr_unit_name(g->unit) : NULL;
        if (g->by_unit && g->pmu_col != NULL && g->pmu_ns > 0 &&
            g->pmu_ns >= g->total_ns - g->pmu_ns) {
            out->pmu_col = g->pmu_col;
            out->pmu_val = g->pmu_x_ns / (double)g->pmu_ns;
        }
        out->precision = r.precision;
        out->precision_source = r.precision_source;
        why_precs(out, g);
        if (g->by_producer == 2 && g->op_type != PR_STR_NONE) {
            out->op_type = pr_trace_str(t, g->op_type);
            pr_names_lookup(&kt.names, out->op_type, &out->type_kc);
        }
    }
    ktable_free(&kt);
    return st;
}

double
pr_kernels_tc_ratio(const struct pr_trace *t)
{
    int64_t all = 0, tc = 0;
    struct pr_gpu_info gb;
    const struct pr_gpu_info *gi;
    struct pr_names nc;
    struct pr_cube_ctx cx;
    size_t i;
    int any = 0;

    pr_names_init(&nc, t);
    pr_cube_init(t, &cx);
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind != PR_KIND_DEVICE_TASK)
            continue;
        any = 1;
        gi = pr_trace_gpu(t, e, &gb);
        if (gi != NULL && gi->unit == PR_UNIT_COMM)
            continue; /* HCCL's time is no compute, as cube.h counts */
        all = pr_sat_add_i64(all, e->dur_ns);
        if (gi != NULL && gi->unit != PR_UNIT_UNKNOWN
                ? on_matrix(&cx, e, gi)
                : (pr_names_get(&nc, e->name) & PR_NAME_TC) != 0)
            tc = pr_sat_add_i64(tc, e->dur_ns);
    }
    pr_names_free(&nc);
    if (!any)
        return NAN;
    return all > 0 ? (double)tc / (double)all : 0.0;
}

/* ---- kernel_classes */

#define UNKNOWN_LISTED 10

/* A ref's math as its row writes it (a task placed by its unit); an
 * HCCL task's, communication, is PR_KM_COUNT in kernel_classes' sums. */
static int
ref_math(const struct pr_kernel_ref *k)
{
    if (k->comm)
        return PR_KM_COUNT;
    if (k->engine > 0)
        return PR_KM_COUNT + k->engine;
    if (k->by_unit && k->math == PR_KM_UNKNOWN && !k->cube_unknown)
        return k->unit_tc ? PR_KM_CUBE : PR_KM_VECTOR;
    return (enum pr_kmath)k->math;
}

/* One row per class value (index into sums), by time, then name; under
 * kernel replay (untimed) by kernels, the time and share null: each
 * range's length is one made-up constant, so a class's "time" is its
 * launches times it (review31 #5: cupti_range's "elementwise 4.25 s,
 * 45.5%" was 35 x 121,431 us). */
static void
emit_sums(cJSON *arr, int math, const char *const *names, const int64_t *ns,
          const size_t *n, size_t count, double all, int untimed, int *ok)
{
    size_t order[(int)PR_KF_COUNT + (int)PR_KM_COUNT]; /* count <= either */
    size_t i, j, m = 0;

    for (i = 0; i < count; i++) {
        if (n[i] == 0 && ns[i] == 0)
            continue; /* a family keeps a row for time moved from it */
        for (j = m; j > 0 && (untimed ? n[order[j - 1]] < n[i]
                                      : ns[order[j - 1]] < ns[i]);
             j--)
            order[j] = order[j - 1];
        order[j] = i;
        m++;
    }
    for (i = 0; i < m && *ok; i++) {
        /* the two objects' rows differ only in their first key */
        struct pr_row_kernel_family f = {
            .family = names[order[i]],
            .kernels = (int64_t)n[order[i]],
            .total_ns = untimed ? PR_ROWS_US_NULL : ns[order[i]],
            .time_pct = untimed ? NAN : 100.0 * (double)ns[order[i]] / all,
        };
        struct pr_row_kernel_math h = {f.family, f.kernels, f.total_ns,
                                       f.time_pct};

        *ok =
            arr != NULL &&
            (math ? pr_rows_write(arr, PR_RO_RUNS_KERNEL_CLASSES_BY_MATH, &h, 1)
                  : pr_rows_write(arr, PR_RO_RUNS_KERNEL_CLASSES_BY_FAMILY, &f,
                                  1));
    }
}

/* Kernels that no rule names and whose producer named no unit: u, its
 * top ones into top. */
static void
fill_unknown(struct pr_row_kclass_unknown *u, cJSON *top,
             const struct pr_kernel_refs *refs, double all, int untimed,
             int *ok)
{
    int64_t ns = 0;
    size_t n = 0, i, listed = 0;

    for (i = 0; i < refs->n; i++) {
        if (refs->v[i].known || refs->v[i].family != PR_KF_UNKNOWN ||
            ref_math(&refs->v[i]) != PR_KM_UNKNOWN)
            continue;
        n++;
        ns = pr_sat_add_i64(ns, refs->v[i].total_ns);
    }
    u->kernels = (int64_t)n;
    u->total_ns = untimed ? PR_ROWS_US_NULL : ns;
    u->time_pct = untimed ? NAN : 100.0 * (double)ns / all;
    u->top = top;
    /* refs are in the table's order: by total time, then name */
    for (i = 0; i < refs->n && listed < UNKNOWN_LISTED && *ok; i++) {
        const struct pr_kernel_ref *k = &refs->v[i];
        struct pr_row_kernel_unknown row;

        if (k->known || k->family != PR_KF_UNKNOWN ||
            ref_math(k) != PR_KM_UNKNOWN)
            continue;
        row = (struct pr_row_kernel_unknown){
            .name = k->name,
            .total_ns = untimed ? PR_ROWS_US_NULL : k->total_ns,
            .time_pct = untimed ? NAN : 100.0 * (double)k->total_ns / all,
        };
        *ok =
            top != NULL &&
            pr_rows_write(top, PR_RO_RUNS_KERNEL_CLASSES_UNKNOWN_TOP, &row, 1);
        listed++;
    }
}

/* cuDNN's layout transforms between NCHW and NHWC, which it runs around
 * its NHWC tensor-core kernels when the tensors are NCHW: the kernel
 * table's copy rule (data/kernels.json: cudnn::ops::nchwToNhwcKernel /
 * nhwcToNchwKernel, and the folded forms nchwToFoldedNhwcKernel /
 * foldedNhwcToNchwKernel). */
static int
is_layout_transform(const char *name)
{
    return name != NULL &&
           (strstr(name, "nchwTo") != NULL || strstr(name, "ToNchw") != NULL);
}

/* A GEMM kernel's time that convolution operators launched: cuDNN (and
 * its CUTLASS kernels) running a convolution as an implicit GEMM. */
static int64_t
conv_gemm_ns(const struct pr_kernel_ref *k)
{
    return k->family == PR_KF_GEMM && k->conv_ns > 0
               ? (k->conv_ns < k->total_ns ? k->conv_ns : k->total_ns)
               : 0;
}

/* conv_gemm (the GEMM kernels' time moved to conv) and layout_transforms
 * (cuDNN's NCHW/NHWC transforms, and the part convolutions launched) as
 * their rows, *cg and *lay (the caller's to delete); each NULL (null) when
 * the run has none. */
static void
fill_conv_parts(cJSON **cg, cJSON **lay, const struct pr_kernel_refs *refs,
                double all, int untimed, int *ok)
{
    struct pr_row_kclass_conv_gemm g = {0};
    struct pr_row_kclass_layout l = {0};
    size_t i;

    for (i = 0; i < refs->n; i++) {
        const struct pr_kernel_ref *k = &refs->v[i];

        if (conv_gemm_ns(k) > 0) {
            g.total_ns = pr_sat_add_i64(g.total_ns, conv_gemm_ns(k));
            g.kernels++;
        }
        if (is_layout_transform(k->name)) {
            l.total_ns = pr_sat_add_i64(l.total_ns, k->total_ns);
            l.conv_ns = pr_sat_add_i64(l.conv_ns, k->conv_ns);
            l.kernels++;
            l.calls += (int64_t)k->calls;
        }
    }
    g.time_pct = 100.0 * (double)g.total_ns / all;
    l.time_pct = 100.0 * (double)l.total_ns / all;
    if (untimed) {
        /* kernel replay: the ranges' lengths are not the kernels' times
           (review 31 #5) */
        g.total_ns = l.total_ns = l.conv_ns = PR_ROWS_US_NULL;
        g.time_pct = l.time_pct = NAN;
    }
    *cg = *lay = NULL;
    if (g.kernels > 0 && *ok)
        *ok = (*cg = pr_rows_row(PR_RO_RUNS_KERNEL_CLASSES_CONV_GEMM, &g)) !=
              NULL;
    if (l.kernels > 0 && *ok)
        *ok = (*lay = pr_rows_row(PR_RO_RUNS_KERNEL_CLASSES_LAYOUT_TRANSFORMS,
                                  &l)) != NULL;
}

enum pr_status
pr_kernels_classes(const struct pr_kernel_refs *refs, int untimed, cJSON **out,
                   struct pr_error *err)
{
    const char *fam[PR_KF_COUNT], *math[PR_KM_COUNT + 3];
    int64_t fam_ns[PR_KF_COUNT] = {0}, math_ns[PR_KM_COUNT + 3] = {0}, all = 0;
    size_t fam_n[PR_KF_COUNT] = {0}, math_n[PR_KM_COUNT + 3] = {0}, i;
    struct pr_row_kernel_classes kc;
    cJSON *by_family, *by_math, *top, *cg_row = NULL, *lay_row = NULL;
    int ok;

    for (i = 0; i < PR_KF_COUNT; i++)
        fam[i] = i ? pr_kclass_family_name((enum pr_kfamily)i) : "unknown";
    for (i = 0; i < PR_KM_COUNT; i++)
        math[i] = i ? pr_kclass_math_name((enum pr_kmath)i) : "unknown";
    math[PR_KM_COUNT] = MATH_COMM;
    math[PR_KM_COUNT + 1] = MATH_AI_CPU;
    math[PR_KM_COUNT + 2] = MATH_DSA;
    for (i = 0; i < refs->n; i++) {
        const struct pr_kernel_ref *k = &refs->v[i];
        int f = k->family > 0 && k->family < PR_KF_COUNT ? k->family : 0;
        int m = ref_math(k);

        int64_t cg = conv_gemm_ns(k);

        m = m > 0 && m <= PR_KM_COUNT + 2 ? m : 0;
        all = pr_sat_add_i64(all, k->total_ns);
        /* the launching convolution decides the family of its implicit
           GEMMs (review 13 #5); a kernel counts in every family it has
           time in, so one that a convolution and a matmul both launched
           counts in both (review 14 #8) */
        fam_ns[f] = pr_sat_add_i64(fam_ns[f], k->total_ns - cg);
        fam_ns[PR_KF_CONV] = pr_sat_add_i64(fam_ns[PR_KF_CONV], cg);
        if (cg > 0)
            fam_n[PR_KF_CONV]++;
        if (cg == 0 || cg < k->total_ns)
            fam_n[f]++;
        math_ns[m] = pr_sat_add_i64(math_ns[m], k->total_ns);
        math_n[m]++;
    }
    memset(&kc, 0, sizeof(kc));
    by_family = cJSON_CreateArray();
    by_math = cJSON_CreateArray();
    top = cJSON_CreateArray();
    ok = by_family != NULL && by_math != NULL && top != NULL;
    emit_sums(by_family, 0, fam, fam_ns, fam_n, PR_KF_COUNT, (double)all,
              untimed, &ok);
    emit_sums(by_math, 1, math, math_ns, math_n, PR_KM_COUNT + 3, (double)all,
              untimed, &ok);
    kc.by_family = by_family;
    kc.by_math = by_math;
    fill_unknown(&kc.unknown, top, refs, (double)all, untimed, &ok);
    fill_conv_parts(&cg_row, &lay_row, refs, (double)all, untimed, &ok);
    kc.conv_gemm = cg_row;
    kc.layout_transforms = lay_row;
    *out = ok ? pr_rows_row(PR_RO_RUNS_KERNEL_CLASSES, &kc) : NULL;
    cJSON_Delete(by_family);
    cJSON_Delete(by_math);
    cJSON_Delete(top);
    cJSON_Delete(cg_row);
    cJSON_Delete(lay_row);
    if (*out != NULL)
        return PR_OK;
    return pr_error_set(err, PR_E_NOMEM, "out of memory (kernel classes)");
}
