/* msprof_op.c - msprof's op_summary CSV (spec §2.3, flops-and-formats
 * §3.3): one row per device task with its operator type, Task Type (the
 * accelerator core), start and duration, input shapes, dtypes and
 * formats, HF32 flag and PMU figures.  Read inside a PROF_* folder
 * (msprof.c), where it details the timeline's tasks, or given alone
 * (the format row "msprof_op_summary"), where its rows are the tasks and
 * its Step Id column the steps.  Columns are found by name, every
 * generation's spelling accepted (Task Start Time(us) / Start Time(us),
 * Block Num / Block Dim, a leading Device_id).  The PMU columns of the
 * run's aic_metrics set (aic_*, aiv_*: kernel_details.csv's names) go
 * into the trace's counter table (pmu.h), per task. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../ascend/ascend_common.h"
#include "../internal.h"
#include "msprof.h"
#include "profreport/checked.h"
#include "profreport/pmu.h"
#include "profreport/shapes.h"

/* PMU columns kept per task (the metric sets write 10 to 24) */
#define MAX_PMU 64

enum col {
    C_NAME,
    C_TYPE,
    C_TASK_TYPE,
    C_START,
    C_DUR,
    C_STREAM,
    C_TASK_ID,
    C_HF32,
    C_SHAPES,
    C_DTYPES,
    C_FORMATS,
    C_STEP,
    C_DEVICE,
    C_CUBE_FOPS,
    C_VEC_FOPS,
    C_AIC_VEC_FOPS,
    C_CUBE_UTIL,
    C_BLOCK,
    C_CTX,
    C_N
};

/* Column names by generation; the first present wins. */
static const char *const col_names[C_N][3] = {
    {"Op Name", NULL, NULL},
    {"OP Type", NULL, NULL},
    {"Task Type", NULL, NULL},
    {"Task Start Time(us)", "Start Time(us)", "Task Start Time"},
    {"Task Duration(us)", NULL, NULL},
    {"Stream ID", NULL, NULL},
    {"Task ID", NULL, NULL},
    {"HF32 Eligible", NULL, NULL},
    {"Input Shapes", NULL, NULL},
    {"Input Data Types", NULL, NULL},
    {"Input Formats", NULL, NULL},
    {"Step Id", NULL, NULL},
    {"Device_id", NULL, NULL},
    {"aic_cube_fops", NULL, NULL},
    {"aiv_vector_fops", NULL, NULL},
    {"aic_vector_fops", NULL, NULL},
    {"cube_utilization(%)", NULL, NULL},
    {"Block Dim", "Block Num", NULL},
    {"Context ID", NULL, NULL},
};

static int
find_line(const char *s, size_t n, const char *needle)
{
    size_t m = strlen(needle), i;

    for (i = 0; i + m <= n && s[i] != '\n' && s[i] != '\r'; i++)
        if (memcmp(s + i, needle, m) == 0)
            return 1;
    return 0;
}

int
pr_msprof_is_op_summary(const char *head, size_t n)
{
    if (n >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0) {
        head += 3;
        n -= 3;
    }
    return (find_line(head, n, ",Op Name,") ||
            (n >= 8 && memcmp(head, "Op Name,", 8) == 0)) &&
           find_line(head, n, "OP Type") && find_line(head, n, "Task Type") &&
           find_line(head, n, "Task Duration(us)");
}

/* ------------------------------------------------------------ rows */

/* One op_summary file being read. */
struct ops {
    struct pr_msprof_run *r;
    struct pr_csv *csv;
    int col[C_N];
    int pmu_col[MAX_PMU], pmu_idx[MAX_PMU]; /* CSV column -> pmu.h's */
    size_t n_pmu;
    struct pr_buf shapes, types, dev_shapes, dev_types;
    /* the timeline's tasks by (stream, task id, start), when merging */
    struct task {
        int64_t stream, task_id, ts;
        size_t event;
    } * tasks; /* owned */
    size_t n_tasks;
    /* the builder's links from a task to its operator: launches by
       correlation id, operators by external id */
    struct link {
        int64_t key;
        size_t event;
    } * launches, *ops; /* owned */
    size_t n_launches, n_ops;
    /* steps from the Step Id column: [first start, last end] each */
    struct step {
        int64_t id, start, end;
    } * steps; /* owned */
    size_t n_steps, cap_steps;
    size_t step_rows;        /* rows that carry a Step Id */
    struct pr_asc_rows rows; /* the rows as tasks (not merging) */
};

static const char *
fld(const struct ops *o, enum col c)
{
    return o->col[c] >= 0 ? pr_csv_field(o->csv, o->col[c], NULL) : "";
}

static int
absent(const char *s)
{
    return s[0] == '\0' || strcmp(s, "N/A") == 0 || strcmp(s, "NA") == 0;
}

static int
int_fld(const struct ops *o, enum col c, int64_t *out)
{
    const char *s = fld(o, c);

    return !absent(s) && pr_fld_parse_int64(s, strlen(s), out);
}

static double
num_fld(const struct ops *o, enum col c)
{
    double v;
    const char *s = fld(o, c);

    return !absent(s) && pr_ms_num(s, &v) && isfinite(v) ? v : NAN;
}

/* A CSV cell of shapes or names without the quotes the producer's triple
 * quoting leaves ("\"32,3;64\"" -> 32,3;64). */
static void
unquote(const char **s, size_t *n)
{
    while (*n > 0 && **s == '"') {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && (*s)[*n - 1] == '"')
        (*n)--;
}

static int
is_logical(const char *f, size_t n)
{
    static const char *const ok[] = {"ND",    "NCHW",  "NHWC", "NCL",
                                     "NCDHW", "NDHWC", "HWCN", "NULL"};
    size_t i;

    if (n > 7 && strncmp(f, "FORMAT_", 7) == 0) {
        f += 7;
        n -= 7;
    }
    for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
        if (strlen(ok[i]) == n && strncmp(f, ok[i], n) == 0)
            return 1;
    return 0;
}

/* Whether every tensor of the row is in a logical format (its shape is
 * the tensor's own, fit for FLOP formulas). */
static int
logical_formats(const struct ops *o)
{
    const char *s = fld(o, C_FORMATS), *p;
    size_t n = strlen(s);

    if (absent(s))
        return 0;
    unquote(&s, &n);
    while (n > 0) {
        p = memchr(s, ';', n);
        if (!is_logical(s, p ? (size_t)(p - s) : n))
            return 0;
        if (p == NULL)
            break;
        n -= (size_t)(p - s) + 1;
        s = p + 1;
    }
    return 1;
}

/* Shapes and dtypes as model text: the device's always, the operator's
 * when the formats are logical.  -1 on out-of-memory. */
static int
row_inputs(struct ops *o, int *logical)
{
    const char *s = fld(o, C_SHAPES), *d = fld(o, C_DTYPES);
    size_t n = strlen(s), m = strlen(d);

    pr_buf_reset(&o->dev_shapes);
    pr_buf_reset(&o->dev_types);
    unquote(&s, &n);
    unquote(&d, &m);
    if (!absent(s) && pr_ascend_shapes(s, n, &o->dev_shapes) < 0)
        return -1;
    if (!absent(d) && pr_ascend_names(d, m, 1, &o->dev_types) < 0)
        return -1;
    *logical = o->dev_shapes.len > 0 && logical_formats(o);
    return 0;
}

static enum pr_status
row_time(const struct ops *o, int64_t *ts, int64_t *dur, struct pr_error *err)
{
    const char *s = fld(o, C_START), *d = fld(o, C_DUR);
    int64_t raw;

    if (!pr_ms_dec_ns(s, strlen(s), 3, &raw) ||
        !pr_ms_dec_ns(d, strlen(d), 3, dur) || *dur < 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "line %llu: start or duration is not a time in "
                            "microseconds (\"%.40s\", \"%.40s\")",
                            (unsigned long long)pr_csv_line(o->csv), s, d);
    if (!pr_msprof_time(o->r, raw, ts))
        return pr_error_set(err, PR_E_FORMAT, "line %llu: start out of range",
                            (unsigned long long)pr_csv_line(o->csv));
    return PR_OK;
}

/* FLOPs the PMU counted (aic_metrics=ArithmeticUtilization); -1 when the
 * row has none. */
static double
row_flops(const struct ops *o)
{
    double c = num_fld(o, C_CUBE_FOPS), v = num_fld(o, C_VEC_FOPS);

    if (isnan(v))
        v = num_fld(o, C_AIC_VEC_FOPS);
    if (isnan(c) && isnan(v))
        return -1;
    return (isnan(c) ? 0 : c) + (isnan(v) ? 0 : v);
}

static uint32_t
intern(struct pr_trace *t, const char *s)
{
    return pr_strtab_intern(t->strs, s, strlen(s));
}

/* The row's PMU counters onto task record g (a row of N/A only, as
 * HCCL's, gives it none).  0 on out-of-memory. */
static int
add_pmu(const struct ops *o, const struct pr_gpu_info *g)
{
    struct pr_trace *t = o->r->t;
    float *v = NULL;
    size_t i;

    for (i = 0; i < o->n_pmu; i++) {
        const char *s = pr_csv_field(o->csv, o->pmu_col[i], NULL);
        double d;

        if (absent(s) || !pr_ms_num(s, &d) || !isfinite(d))
            continue;
        if (v == NULL && (v = pr_pmu_row(t, (uint32_t)(g - t->gpu))) == NULL)
            return 0;
        v[o->pmu_idx[i]] = (float)d;
    }
    return 1;
}

/* What the row says of its task beyond what the builder keeps. */
static enum pr_status
fill(const struct ops *o, struct pr_gpu_info *g, int comm)
{
    struct pr_trace *t = o->r->t;
    const char *hf = fld(o, C_HF32), *type = fld(o, C_TYPE);
    double util = num_fld(o, C_CUBE_UTIL);
    int64_t id;

    g->task_type = intern(t, fld(o, C_TASK_TYPE));
    g->op_type = absent(type) ? PR_STR_NONE : intern(t, type);
    g->hf32 = strcmp(hf, "YES") == 0 ? 1 : strcmp(hf, "NO") == 0 ? 0 : -1;
    if (o->dev_shapes.len > 0)
        g->dev_shapes =
            pr_strtab_intern(t->strs, o->dev_shapes.data, o->dev_shapes.len);
    if (o->dev_types.len > 0)
        g->dev_types =
            pr_strtab_intern(t->strs, o->dev_types.data, o->dev_types.len);
    if (int_fld(o, C_TASK_ID, &id))
        g->task_id = id;
    if (int_fld(o, C_BLOCK, &id) && id >= 0 && id <= INT32_MAX)
        g->block_dim = (int32_t)id;
    g->measured_flops = row_flops(o);
    g->matrix_util_pct = util;
    if (comm && g->collective == PR_STR_NONE)
        g->collective = PR_STR_EMPTY;
    if (g->task_type == PR_STR_NONE ||
        (o->dev_shapes.len > 0 && g->dev_shapes == PR_STR_NONE) ||
        (o->dev_types.len > 0 && g->dev_types == PR_STR_NONE))
        return PR_E_NOMEM;
    return add_pmu(o, g) ? PR_OK : PR_E_NOMEM;
}

/* The row's Step Id widens its step's window: rows of one step come
 * together, so the last entry usually takes it; add_steps() merges the
 * entries of a step that came apart. */
static enum pr_status
note_step(struct ops *o, int64_t ts, int64_t dur)
{
    int64_t id, end;
    struct step *last = o->n_steps ? &o->steps[o->n_steps - 1] : NULL;

    if (!int_fld(o, C_STEP, &id) || !pr_checked_add_i64(ts, dur, &end))
        return PR_OK;
    o->step_rows++;
    if (last == NULL || last->id != id) {
        if (pr_grow((void **)&o->steps, &o->cap_steps, o->n_steps + 1,
                    sizeof(*o->steps)) != PR_OK)
            return PR_E_NOMEM;
        last = &o->steps[o->n_steps++];
        *last = (struct step){id, ts, end};
    }
    if (ts < last->start)
        last->start = ts;
    if (end > last->end)
        last->end = end;
    return PR_OK;
}

/* A row as a task of its own (no timeline in the run). */
static enum pr_status
add_row(struct ops *o, int64_t ts, int64_t dur, int logical,
        struct pr_error *err)
{
    const char *name = fld(o, C_NAME), *type = fld(o, C_TYPE);
    const char *tt = fld(o, C_TASK_TYPE);
    enum pr_ascend_task c = pr_ascend_task_class(tt);
    struct pr_ms_task k;
    struct pr_gpu_info *g;
    int64_t v;
    enum pr_status st;
    char row[32];

    memset(&k, 0, sizeof(k));
    k.name = name;
    k.ts_ns = ts;
    k.dur_ns = dur;
    k.stream = int_fld(o, C_STREAM, &v) && v >= 0 ? v : -1;
    k.flops = row_flops(o);
    k.bytes = -1;
    k.kind = pr_ascend_task_kind(c);
    k.unit = pr_ascend_unit(tt);
    k.op = absent(type) ? name : type;
    if (c == PR_ASCEND_TASK_COMM) {
        k.collective = pr_ascend_collective(name);
        if (k.collective == NULL)
            k.collective = pr_ascend_collective(type);
        k.row =
            k.stream >= 0 ? "HCCL" : pr_ascend_hccl_row(name, row, sizeof(row));
        k.unit = PR_UNIT_COMM;
    } else if (c == PR_ASCEND_TASK_COMPUTE && logical) {
        k.shapes = o->dev_shapes.data;
        k.types = o->dev_types.len > 0 ? o->dev_types.data : NULL;
    } else if (c != PR_ASCEND_TASK_COMPUTE) {
        k.op = NULL; /* a copy, or a stream's wait (PR_KIND_DEVICE_SYNC) */
    }
    st = pr_ms_add_task(&o->r->b, &k, err);
    if (st != PR_OK || (g = pr_msprof_last_task(o->r->t)) == NULL)
        return st;
    o->r->n_summary_tasks++;
    g->unit = (uint8_t)k.unit;
    if (fill(o, g, c == PR_ASCEND_TASK_COMM) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

/* ------------------------------------------------------------ merging */

static int
cmp_task(const void *a, const void *b)
{
    const struct task *x = a, *y = b;

    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    if (x->task_id != y->task_id)
        return x->task_id < y->task_id ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->event < y->event ? -1 : x->event > y->event;
}

/* The timeline's device tasks that name their stream and task id. */
static enum pr_status
index_tasks(struct ops *o)
{
    const struct pr_trace *t = o->r->t;
    size_t i;

    o->tasks = malloc((t->n_events ? t->n_events : 1) * sizeof(*o->tasks));
    if (o->tasks == NULL)
        return PR_E_NOMEM;
    for (i = 0; i < t->n_events; i++) {
        struct pr_gpu_info gb;
        const struct pr_gpu_info *g = pr_trace_gpu(t, &t->events[i], &gb);
        struct task *k = &o->tasks[o->n_tasks];

        if (t->events[i].kind != PR_KIND_DEVICE_TASK || g == NULL ||
            g->task_id < 0 || g->stream < 0)
            continue;
        k->stream = g->stream;
        k->task_id = g->task_id;
        k->ts = t->events[i].ts_ns;
        k->event = i;
        o->n_tasks++;
    }
    if (o->n_tasks > 1)
        qsort(o->tasks, o->n_tasks, sizeof(*o->tasks), cmp_task);
    return PR_OK;
}

/* The task of this stream and task id that starts nearest `ts`, within
 * 2 us (the CSV rounds to 10 ns, the timeline to what its JSON number
 * kept); NULL when there is none. */
static const struct task *
find_task(const struct ops *o, int64_t stream, int64_t id, int64_t ts)
{
    const struct task *best = NULL;
    size_t lo = 0, hi = o->n_tasks;
    struct task k = {stream, id, ts - 2000, 0};

    while (lo < hi) { /* the first task not before k */
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_task(&o->tasks[mid], &k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < o->n_tasks; lo++) {
        const struct task *x = &o->tasks[lo];

        if (x->stream != stream || x->task_id != id || x->ts > ts + 2000)
            break;
        if (best == NULL ||
            llabs((long long)(x->ts - ts)) < llabs((long long)(best->ts - ts)))
            best = x;
    }
    return best;
}

static int
cmp_link(const void *a, const void *b)
{
    const struct link *x = a, *y = b;

    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->event < y->event ? -1 : x->event > y->event;
}

static enum pr_status
index_links(struct ops *o)
{
    const struct pr_trace *t = o->r->t;
    size_t i, n = t->n_events ? t->n_events : 1;

    o->launches = malloc(n * sizeof(*o->launches));
    o->ops = malloc(n * sizeof(*o->ops));
    if (o->launches == NULL || o->ops == NULL)
        return PR_E_NOMEM;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        int64_t corr = pr_event_correlation(t, e),
                ext = pr_event_external_id(t, e);

        if (e->kind == PR_KIND_RUNTIME_CALL && corr != PR_NO_ID &&
            ext != PR_NO_ID)
            o->launches[o->n_launches++] = (struct link){corr, i};
        else if (e->kind == PR_KIND_HOST_OP && ext != PR_NO_ID &&
                 e->info != PR_NO_INFO)
            o->ops[o->n_ops++] = (struct link){ext, i};
    }
    qsort(o->launches, o->n_launches, sizeof(*o->launches), cmp_link);
    qsort(o->ops, o->n_ops, sizeof(*o->ops), cmp_link);
    return PR_OK;
}

static const struct link *
link_of(const struct link *v, size_t n, int64_t key)
{
    struct link k = {key, 0};
    size_t lo = 0, hi = n;

    while (lo < hi) { /* the first link of that key */
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_link(&v[mid], &k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].key == key ? &v[lo] : NULL;
}

/* The operator the builder made for a task, to change: task -> its
 * launch (by correlation) -> the operator (by external id).  *op is NULL
 * when none.  PR_E_NOMEM. */
static enum pr_status
op_of_task(struct ops *o, const struct pr_event *task, struct pr_op_info **op)
{
    struct pr_trace *t = o->r->t;
    int64_t corr = pr_event_correlation(t, task);
    const struct link *l =
        corr == PR_NO_ID ? NULL : link_of(o->launches, o->n_launches, corr);

    if (l != NULL)
        l = link_of(o->ops, o->n_ops,
                    pr_event_external_id(t, &t->events[l->event]));
    *op = NULL;
    if (l == NULL)
        return PR_OK;
    *op = pr_trace_op_edit(t, t->events[l->event].info);
    return *op != NULL ? PR_OK : PR_E_NOMEM;
}

/* The row's logical shapes and dtypes (and PMU FLOPs) on the operator of
 * a timeline task, for the FLOP formulas. */
static enum pr_status
merge_inputs(struct ops *o, const struct pr_event *task)
{
    struct pr_trace *t = o->r->t;
    struct pr_op_info *op;
    double flops = row_flops(o);

    if (op_of_task(o, task, &op) != PR_OK)
        return PR_E_NOMEM;
    if (op == NULL)
        return PR_OK;
    if (flops >= 0)
        op->flops = flops;
    op->input_dims =
        pr_strtab_intern(t->strs, o->dev_shapes.data, o->dev_shapes.len);
    if (o->dev_types.len > 0)
        op->input_types =
            pr_strtab_intern(t->strs, o->dev_types.data, o->dev_types.len);
    if (op->input_dims == PR_STR_NONE ||
        (o->dev_types.len > 0 && op->input_types == PR_STR_NONE) ||
        pr_shapes_note(t, PR_SHAPES_DIMS, op->input_dims) != PR_OK ||
        pr_shapes_note(t, PR_SHAPES_TYPES, op->input_types) != PR_OK)
        return PR_E_NOMEM;
    return PR_OK;
}

/* A row that details a timeline task; 0 when none matches. */
static int
merge_row(struct ops *o, int64_t ts, int logical, enum pr_status *st)
{
    struct pr_trace *t = o->r->t;
    const struct task *x;
    struct pr_gpu_info *g;
    int64_t stream, id;

    *st = PR_OK;
    if (!int_fld(o, C_STREAM, &stream) || !int_fld(o, C_TASK_ID, &id))
        return 0;
    x = find_task(o, stream, id, ts);
    if (x == NULL)
        return 0;
    g = &t->gpu[t->events[x->event].info];
    if (g->unit == PR_UNIT_UNKNOWN)
        g->unit = (uint8_t)pr_ascend_unit(fld(o, C_TASK_TYPE));
    *st = fill(o, g, 0);
    if (*st == PR_OK && logical)
        *st = merge_inputs(o, &t->events[x->event]);
    o->r->n_summary_merged++;
    return 1;
}

/* ------------------------------------------------------------ the file */

/* The PMU columns (pr_ascend_is_pmu_col) and their place in the trace's table
 * (the first such file's columns make it).  0 on out-of-memory. */
static int
find_pmu(struct ops *o)
{
    const char *names[MAX_PMU];
    int idx[MAX_PMU];
    size_t i, n = pr_csv_n_cols(o->csv), k = 0;

    for (i = 0; i < n && k < MAX_PMU; i++) {
        const char *c = pr_csv_col_name(o->csv, i);

        if (pr_ascend_is_pmu_col(c)) {
            names[k] = c;
            o->pmu_col[k++] = (int)i;
        }
    }
    if (pr_pmu_map(o->r->t, names, k, idx) < 0)
        return 0;
    for (i = 0; i < k; i++) /* keep the columns the table has */
        if (idx[i] >= 0) {
            o->pmu_col[o->n_pmu] = o->pmu_col[i];
            o->pmu_idx[o->n_pmu++] = idx[i];
        }
    return 1;
}

static enum pr_status
open_cols(struct ops *o, const char *path, struct pr_error *err)
{
    size_t c, k;

    enum pr_status st = pr_csv_open(path, o->r->max, &o->csv, err);

    if (st != PR_OK)
        return st;
    for (c = 0; c < C_N; c++) {
        o->col[c] = -1;
        for (k = 0; k < 3 && col_names[c][k] && o->col[c] < 0; k++)
            o->col[c] = pr_csv_col(o->csv, col_names[c][k]);
    }
    if (o->col[C_NAME] < 0 || o->col[C_TASK_TYPE] < 0 || o->col[C_START] < 0 ||
        o->col[C_DUR] < 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "not an op_summary table (no Op Name, Task Type, "
                            "Task Start Time(us) or Task Duration(us) column)");
    pr_csv_skip_ragged(o->csv, o->col[C_NAME]);
    return find_pmu(o) ? PR_OK : pr_error_set(err, PR_E_NOMEM, "out of memory");
}

static enum pr_status
one_row(struct ops *o, int merging, struct pr_error *err)
{
    int64_t ts, dur, dev, stream, task, ctx;
    int logical = 0, seen;
    enum pr_status st = row_time(o, &ts, &dur, err);

    if (st != PR_OK)
        return st;
    if (row_inputs(o, &logical) < 0)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (merging) {
        (void)merge_row(o, ts, logical, &st);
        return st == PR_OK ? PR_OK
                           : pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    seen = pr_asc_rows_seen(&o->rows, o->r->t,
                            int_fld(o, C_STREAM, &stream) ? stream : -1,
                            int_fld(o, C_TASK_ID, &task) ? task : -1, ts, dur,
                            int_fld(o, C_CTX, &ctx) ? ctx : -1, fld(o, C_NAME));
    if (seen < 0)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (seen > 0)
        return PR_OK; /* the same task again: named in Data quality */
    if (o->r->n_summary_tasks == 0 && int_fld(o, C_DEVICE, &dev) && dev >= 0 &&
        dev <= INT32_MAX)
        o->r->device = o->r->b.device = dev;
    st = add_row(o, ts, dur, logical, err);
    if (st == PR_OK && note_step(o, ts, dur) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    return st;
}

static int
cmp_step(const void *a, const void *b)
{
    const struct step *x = a, *y = b;

    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

static enum pr_status
add_steps(struct ops *o, struct pr_error *err)
{
    enum pr_status st = PR_OK;
    size_t i, k = 0;

    if (o->n_steps > 1)
        qsort(o->steps, o->n_steps, sizeof(*o->steps), cmp_step);
    for (i = 0; i < o->n_steps; i++) { /* one entry per step */
        struct step *x = &o->steps[i];

        if (k > 0 && o->steps[k - 1].id == x->id) {
            struct step *y = &o->steps[k - 1];
            y->start = x->start < y->start ? x->start : y->start;
            y->end = x->end > y->end ? x->end : y->end;
        } else {
            o->steps[k++] = *x;
        }
    }
    for (i = 0; i < k && st == PR_OK; i++)
        st = pr_ms_add_step(&o->r->b, o->steps[i].id, o->steps[i].start,
                            o->steps[i].end, err);
    o->r->t->device_steps |= k > 0;
    return st;
}

/* The Step Id column of an extract as a label (review23a #4): the rows'
 * first start and last end are not the step's bounds (msinsight_op_
 * summary's op_summary_1.csv, old2023 rank 0's 21 rows skipping 745 Task
 * IDs: 267.8 ms from first to last task of a step its rank's
 * step_trace_time.csv gives as 291.7 ms), so the capture is the one
 * window and the step is named, as kernel_details.csv's (ascend_kernels.c
 * note_step) is. */
static void
label_steps(struct ops *o)
{
    struct pr_trace *t = o->r->t;
    size_t i;

    for (i = 0; i < o->n_steps; i++) {
        if (t->row_steps == 0 || o->steps[i].id < t->row_step_lo)
            t->row_step_lo = o->steps[i].id;
        if (t->row_steps == 0 || o->steps[i].id > t->row_step_hi)
            t->row_step_hi = o->steps[i].id;
        t->row_steps += i == 0 ? o->step_rows : 0;
    }
}

enum pr_status
pr_msprof_op_summary(const char *path, struct pr_msprof_run *r,
                     struct pr_error *err)
{
    struct ops o;
    int got = 1, merging = r->n_tasks > 0;
    size_t merged = r->n_summary_merged, rows = 0;
    enum pr_status st;

    memset(&o, 0, sizeof(o));
    o.r = r;
    pr_buf_init(&o.dev_shapes, 0);
    pr_buf_init(&o.dev_types, 0);
    st = open_cols(&o, path, err);
    if (st == PR_OK && merging &&
        (index_tasks(&o) != PR_OK || index_links(&o) != PR_OK))
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    while (st == PR_OK && (st = pr_csv_next(o.csv, &got, err)) == PR_OK &&
           got) {
        st = one_row(&o, merging, err);
        rows++;
    }
    r->t->n_trace_events += rows + pr_csv_n_ragged(o.csv);
    if (st == PR_OK &&
        (pr_csv_note_ragged(o.csv, r->t, path) != PR_OK ||
         /* the rows are the kernel table (not merged
            into a timeline's tasks) */
         (!merging && pr_csv_note_kernel_rows(o.csv, r->t, path) != PR_OK)))
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    pr_pmu_finish(r->t);
    if (st == PR_OK && !merging &&
        pr_asc_rows_note(&o.rows, r->t, path) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    /* an extract's Step Id bounds no step (review23a #4) */
    if (st == PR_OK && !merging && r->t->extract_rows > 0)
        label_steps(&o);
    else if (st == PR_OK && !merging)
        st = add_steps(&o, err);
    if (st == PR_OK && merging && rows > r->n_summary_merged - merged)
        st = pr_trace_add_gap(r->t, "unmatched_op_summary",
                              rows - (r->n_summary_merged - merged),
                              "op_summary rows that match no task of the "
                              "timeline (stream, task id and start): not "
                              "counted, the timeline's tasks are");
    pr_csv_close(o.csv);
    pr_buf_free(&o.dev_shapes);
    pr_buf_free(&o.dev_types);
    free(o.tasks);
    free(o.launches);
    free(o.ops);
    free(o.steps);
    pr_asc_rows_free(&o.rows);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

/* ------------------------------------------------------------ the format */

/* An op_summary CSV given on its own (or in a folder of no producer's
 * layout): its header is the signature. */
static enum pr_claim
sniff(const struct pr_probe *p)
{
    const char *s;
    size_t n;

    if (p->is_dir)
        return PR_CLAIM_NO;
    pr_probe_text(p, &s, &n);
    return s != NULL && pr_msprof_is_op_summary(s, n) ? PR_CLAIM_SURE
                                                      : PR_CLAIM_NO;
}

static enum pr_status
load(const char *path, const struct pr_read_opts *opts, struct pr_trace **out,
     struct pr_error *err)
{
    struct pr_msprof_run r;
    struct pr_device *d;
    struct stat sb;
    enum pr_status st;

    *out = NULL;
    memset(&r, 0, sizeof(r));
    r.t = pr_trace_new();
    if (r.t == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    r.max = opts && opts->max_input_bytes ? opts->max_input_bytes
                                          : PR_READ_DEFAULT_MAX;
    st = pr_ms_builder_init(&r.b, r.t, 0, "msprof_op_summary", err);
    if (st == PR_OK)
        st = pr_msprof_op_summary(path, &r, err);
    if (st == PR_OK && r.t->n_events == 0)
        st = pr_error_set(err, PR_E_NOT_FORMAT, "%s: no rows", path);
    d = st == PR_OK ? pr_trace_add_device(r.t) : NULL;
    if (st == PR_OK && d == NULL)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st != PR_OK) {
        pr_trace_free(r.t);
        return st;
    }
    d->id = r.device;
    d->name = PR_STR_NONE; /* op_summary does not name the chip */
    r.t->vendor = intern(r.t, "huawei");
    r.t->device_kind = intern(r.t, "npu");
    if (stat(path, &sb) == 0)
        r.t->bytes = (uint64_t)sb.st_size;
    pr_trace_finish(r.t);
    *out = r.t;
    return PR_OK;
}

const struct pr_format pr_format_msprof_op_summary = {
    "msprof_op_summary", sniff, load, 0, "msprof op_summary CSV"};
