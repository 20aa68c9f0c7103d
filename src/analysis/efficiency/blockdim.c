/* blockdim.c - the Ascend tasks that ran on few of the NPU's cores
 * (blockdim.h).  A task's Block Dim (kernel_details.csv and op_summary's
 * "Block Dim", MindSpore's framework_raw block_dim, the database's
 * COMPUTE_TASK_INFO.blockDim) is how many blocks its tiling made; each
 * block runs on one core of the task's kind at a time, so Block Dim b on
 * a chip of n cores keeps at most b of them busy while it runs.
 *
 * The core counts: the export's own (msprof's info.json ai_core_num and
 * aiv_num), else the device table's entry for the chip the export names
 * (compute_units: the AI Cores, CANN's platform_config).  A chip whose
 * tasks run on AI Vector cores of their own (a 910B: AI_VECTOR_CORE,
 * MIX_AIV tasks) has two of them per AI Core (CANN's platform_config:
 * ai_core_cnt 24, vector_core_cnt 48 on an Ascend910B1).  When no file
 * names the chip the count stays unknown, and the tasks are compared
 * with the Block Dim most of the run's tasks use (what CANN's tiling
 * gives a shape that splits across every core), which the report says. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/blockdim.h"
#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/cube.h"
#include "profreport/keys.h"
#include "profreport/pmu.h"
#include "profreport/rows.h"

#include "../internal.h"

/* the operators listed */
#define BD_TOP 8

/* One kernel name's tasks with a Block Dim. */
struct bd_op {
    uint32_t name; /* string id */
    uint32_t type; /* op_type of its first task; PR_STR_NONE */
    int64_t calls, low_calls;
    int64_t ns, low_ns;
    int lo, hi;       /* the low tasks' smallest and largest Block Dim */
    double spread_ns; /* its time were every task on all its cores */
    int cores;        /* cores of the kind its low tasks ran on */
};

struct bd {
    const struct pr_trace *t;
    struct pr_cube_ctx cx;
    int cores, vcores;  /* AI Cores, AI Vector cores; -1 unknown */
    const char *source; /* where they come from; NULL unknown */
    const char *entry;  /* the device table's entry, when from it */
    int guess;          /* that entry names a family, not the variant */
    int common[3];      /* the most frequent Block Dim of the run's
                           tasks of each core kind (1, 2); 0 none */
    struct bd_op *v;
    size_t n, cap;
    struct pr_idmap index; /* name -> v */
    int64_t ns, low_ns;
};

/* A task of an AI Core or AI Vector core with a Block Dim: the kind of
 * core it counts on (1 AI Core, 2 AI Vector core), 0 for any other
 * (AI CPU, HCCL, DSA, copies, a Block Dim of 0). */
static int
core_kind(const struct pr_gpu_info *g)
{
    if (g->block_dim <= 0)
        return 0;
    switch (g->unit) {
    case PR_UNIT_MATRIX:
    case PR_UNIT_MIX_MATRIX:
    case PR_UNIT_UNKNOWN: /* a 910A's task, or MindSpore's: an AI Core */
        return 1;
    case PR_UNIT_VECTOR:
    case PR_UNIT_MIX_VECTOR:
        return 2;
    default:
        return 0;
    }
}

/* The cores a task of that kind can spread over; -1 unknown. */
static int
cores_of(const struct bd *b, int kind)
{
    if (kind == 2)
        return b->vcores;
    return b->cores;
}

/* The AI Core count msprof's cube_utilization(%) was computed with:
 * aicore_time / Duration x Block Dim / cores on every task that states
 * it (kd_910B_v2: MatMulV2 183.87 / 185.504 us x 16 / 20 = 79.30%, the
 * file's 79.295; review25a #2), so cores = aicore_time x Block Dim /
 * (Duration x cube_utilization).  Kept only when every such task gives
 * the same whole number (to 0.5%, the file's rounding); -1 otherwise. */
#define CUBE_FIT 0.005

static int
cores_from_cube_util(const struct bd *b)
{
    const struct pr_trace *t = b->t;
    int col = -1, n = -1;
    size_t i;

    for (i = 0; t->pmu != NULL && i < t->pmu->n_cols && col < 0; i++)
        if (strcmp(pr_trace_str(t, t->pmu->cols[i]), "aicore_time(us)") == 0)
            col = (int)i;
    for (i = 0; col >= 0 && i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        struct pr_gpu_info gb;
        const struct pr_gpu_info *g;
        const float *v;
        double k;
        long r;

        if (e->kind != PR_KIND_DEVICE_TASK || e->dur_ns <= 0 ||
            (g = pr_trace_gpu(t, e, &gb)) == NULL ||
            !isfinite(g->matrix_util_pct) || g->matrix_util_pct <= 0 ||
            g->block_dim <= 0 || (v = pr_pmu_get(t, e->info)) == NULL ||
            !isfinite(v[col]) || v[col] <= 0)
            continue;
        k = (double)v[col] * 1000.0 * g->block_dim /
            ((double)e->dur_ns * g->matrix_util_pct / 100.0);
        r = lround(k);
        if (r <= 0 || fabs(k / (double)r - 1.0) > CUBE_FIT || (n > 0 && r != n))
            return -1;
        n = (int)r;
    }
    return n;
}

/* The counts: the export's device info, else the table's entry, else
 * what msprof's cube_utilization(%) was computed with. */
static void
find_cores(struct bd *b, const struct pr_device_rows *devs)
{
    const struct pr_trace *t = b->t;
    size_t i;

    b->cores = b->vcores = -1;
    for (i = 0; i < t->n_devices && b->cores < 0; i++) {
        if (t->devices[i].npu_cores > 0) {
            b->cores = t->devices[i].npu_cores;
            b->vcores = t->devices[i].npu_vector_cores;
            b->source = "the export's device info (info.json ai_core_num)";
        }
    }
    for (i = 0; devs != NULL && i < devs->n && b->cores < 0; i++) {
        const struct pr_device_row *d = &devs->v[i];

        if (d->has_peaks && d->peaks.compute_units > 0 &&
            d->peaks.entry[0] != '\0' && d->peaks.origin != PR_PEAK_UNKNOWN) {
            b->cores = d->peaks.compute_units;
            b->entry = d->peaks.entry;
            b->guess = d->peaks.origin == PR_PEAK_GUESS;
            b->source = "the device table";
        }
    }
    if (b->cores < 0 && (b->cores = cores_from_cube_util(b)) > 0)
        b->source = "msprof's cube_utilization(%): aicore_time / Duration x "
                    "Block Dim / cores, the same count on every task";
    if (b->cores > 0 && b->vcores < 0 && b->cx.split_cores)
        b->vcores = 2 * b->cores;
}

static struct bd_op *
op_of(struct bd *b, uint32_t name, struct pr_error *err)
{
    size_t i = pr_idmap_get(&b->index, (int64_t)name);

    if (i != PR_NONE)
        return &b->v[i];
    if (pr_grow((void **)&b->v, &b->cap, b->n + 1, sizeof(*b->v)) != PR_OK ||
        pr_idmap_put(&b->index, (int64_t)name, b->n, err) != PR_OK)
        return NULL;
    memset(&b->v[b->n], 0, sizeof(b->v[0]));
    b->v[b->n].name = name;
    b->v[b->n].type = PR_STR_NONE;
    return &b->v[b->n++];
}

static int
cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;

    return (a > b) - (a < b);
}

/* The Block Dim most of the run's tasks of core kind `kind` use (the
 * smallest of equals); 0 when none has one, -1 out of memory. */
static int
common_block_dim(const struct bd *b, int kind)
{
    const struct pr_trace *t = b->t;
    int *v = NULL, best = 0;
    size_t n = 0, i, run = 0, best_run = 0;

    for (i = 0; i < t->n_events; i++) {
        struct pr_gpu_info gb;
        const struct pr_gpu_info *g;

        if (t->events[i].kind != PR_KIND_DEVICE_TASK)
            continue;
        g = pr_trace_gpu(t, &t->events[i], &gb);
        if (g == NULL || core_kind(g) != kind)
            continue;
        if (v == NULL && (v = malloc(t->n_events * sizeof(*v))) == NULL)
            return -1;
        v[n++] = g->block_dim;
    }
    if (n > 0)
        qsort(v, n, sizeof(*v), cmp_int);
    for (i = 0; i < n; i++) {
        run = i > 0 && v[i] == v[i - 1] ? run + 1 : 1;
        if (run > best_run) {
            best_run = run;
            best = v[i];
        }
    }
    free(v);
    return best;
}

/* Every task with a Block Dim into its name's row. */
static enum pr_status
collect(struct bd *b, struct pr_error *err)
{
    const struct pr_trace *t = b->t;
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        struct pr_gpu_info gb;
        const struct pr_gpu_info *g;
        struct bd_op *o;
        int kind, n;

        if (e->kind != PR_KIND_DEVICE_TASK)
            continue;
        g = pr_trace_gpu(t, e, &gb);
        kind = g != NULL ? core_kind(g) : 0;
        if (!kind)
            continue;
        n = cores_of(b, kind);
        if (n <= 0)
            n = b->common[kind];
        if ((o = op_of(b, e->name, err)) == NULL)
            return pr_error_set(err, PR_E_NOMEM, "out of memory (block dim)");
        if (o->type == PR_STR_NONE)
            o->type = g->op_type;
        o->calls++;
        o->ns = pr_sat_add_i64(o->ns, e->dur_ns);
        b->ns = pr_sat_add_i64(b->ns, e->dur_ns);
        o->spread_ns += n > 0 && g->block_dim < n
                            ? (double)e->dur_ns * g->block_dim / n
                            : (double)e->dur_ns;
        if (!(n > 0 && g->block_dim <= PR_BLOCK_DIM_LOW_SHARE * n))
            continue;
        if (o->low_calls == 0 || g->block_dim < o->lo)
            o->lo = g->block_dim;
        if (o->low_calls == 0 || g->block_dim > o->hi)
            o->hi = g->block_dim;
        if (n > o->cores)
            o->cores = n;
        o->low_calls++;
        o->low_ns = pr_sat_add_i64(o->low_ns, e->dur_ns);
        b->low_ns = pr_sat_add_i64(b->low_ns, e->dur_ns);
    }
    return PR_OK;
}

static int
cmp_low(const void *x, const void *y)
{
    const struct bd_op *a = x, *b = y;

    if (a->low_ns != b->low_ns)
        return a->low_ns > b->low_ns ? -1 : 1;
    return a->name < b->name ? -1 : a->name > b->name;
}

/* The operators with tasks on fewer blocks than the comparison's, the
 * most time first (typed rows); NULL when out of memory. */
static cJSON *
low_ops_json(struct bd *b)
{
    const struct pr_trace *t = b->t;
    cJSON *arr = cJSON_CreateArray();
    size_t i, k = 0;
    int ok = arr != NULL;

    if (b->n > 1)
        qsort(b->v, b->n, sizeof(*b->v), cmp_low);
    for (i = 0; i < b->n && k < BD_TOP && ok; i++) {
        const struct bd_op *p = &b->v[i];
        struct pr_row_block_dim_op row;

        if (p->low_ns <= 0 && p->low_calls == 0)
            break;
        row = (struct pr_row_block_dim_op){
            .name = pr_trace_str(t, p->name),
            .op_type = p->type != PR_STR_NONE ? pr_trace_str(t, p->type) : NULL,
            .calls = p->low_calls,
            .input_shapes = pr_task_op_shapes(t, p->name),
            .min_block_dim = p->lo,
            .max_block_dim = p->hi,
            .cores = p->cores,
            .ns = p->low_ns,
            /* its time were each task spread over every core of its kind;
               only where the count is known */
            .time_ratio_all_cores =
                b->cores > 0 && p->ns > 0 ? p->spread_ns / (double)p->ns : NAN,
        };
        ok = pr_rows_write(arr, PR_RO_RUNS_BLOCK_DIM_OPERATORS, &row, 1);
        k++;
    }
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

/* runs[].block_dim; NULL when out of memory. */
static cJSON *
block_dim_json(struct bd *b)
{
    struct pr_row_block_dim r;
    cJSON *ops = low_ops_json(b), *o;

    if (ops == NULL)
        return NULL;
    memset(&r, 0, sizeof(r));
    r.ai_cores = b->cores > 0 ? b->cores : NAN;
    r.vector_cores = b->vcores > 0 ? b->vcores : NAN;
    r.cores_source = b->source;
    r.device_entry = b->entry;
    r.device_entry_guess = b->guess;
    r.common_block_dim = b->common[1] > 0 ? b->common[1] : NAN;
    r.common_vector_block_dim = b->common[2] > 0 ? b->common[2] : NAN;
    r.compared_with = b->cores > 0 ? "cores" : "common_block_dim";
    r.task_ns = b->ns;
    r.low_ns = b->low_ns;
    r.low_pct = b->ns > 0 ? 100.0 * (double)b->low_ns / (double)b->ns : NAN;
    r.operators = ops;
    o = pr_rows_row(PR_RO_RUNS_BLOCK_DIM, &r);
    cJSON_Delete(ops);
    return o;
}

enum pr_status
pr_block_dim_fill(const struct pr_trace *t, const struct pr_device_rows *devs,
                  cJSON *run, struct pr_error *err)
{
    struct bd b;
    enum pr_status st = PR_OK;

    if (!pr_trace_is_npu(t))
        return PR_OK;
    memset(&b, 0, sizeof(b));
    b.t = t;
    pr_cube_init(t, &b.cx);
    find_cores(&b, devs);
    b.common[1] = common_block_dim(&b, 1);
    b.common[2] = common_block_dim(&b, 2);
    if (b.common[1] < 0 || b.common[2] < 0)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (block dim)");
    if (b.common[1] > 0 || b.common[2] > 0)
        st = collect(&b, err);
    if (st == PR_OK)
        st = pr_emit_put(run, PR_K_BLOCK_DIM,
                         b.n == 0 ? cJSON_CreateNull() : block_dim_json(&b),
                         "block dim", err);
    free(b.v);
    pr_idmap_free(&b.index);
    return st;
}
