/* ascend_kernels.c - kernel_details.csv, one row per device task (spec
 * §2.3), in every column generation: 2023 (no OP State), 2025-01 (OP
 * State, HF32 Eligible), CANN 8.3 (a leading Device_id), read by column
 * name.  With trace_view.json the tasks are already on the timeline,
 * with their streams and launching operators: a row then only adds what
 * the timeline lacks (the unit that ran it, HF32, operator type, device
 * shapes and types, cube utilisation, measured FLOPs) to the task that
 * starts at the same ns, and no task is counted twice.  Without
 * trace_view.json each row is a task of its own (HCCL rows are the
 * collectives), so a CSV-only folder still has its kernels. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ascend.h"
#include "ascend_common.h"
#include "profreport/pmu.h"

/* PMU columns kept per task (aic_* / aiv_*: the metric sets write 10 to
 * 24 of them) */
#define MAX_PMU 64

enum {
    C_DEVICE,
    C_STEP,
    C_TASK,
    C_STREAM,
    C_NAME,
    C_TYPE,
    C_CORE,
    C_START,
    C_DUR,
    C_HF32,
    C_SHAPES,
    C_TYPES,
    C_CUBE,
    C_BLOCK,
    C_CTX,
    C_FOPS, /* four columns of measured operations */
    C_N = C_FOPS + 4
};

static const char *const col_names[C_N] = {"Device_id",
                                           "Step Id",
                                           "Task ID",
                                           "Stream ID",
                                           "Name",
                                           "Type",
                                           "Accelerator Core",
                                           "Start Time(us)",
                                           "Duration(us)",
                                           "HF32 Eligible",
                                           "Input Shapes",
                                           "Input Data Types",
                                           "cube_utilization(%)",
                                           "Block Dim",
                                           "Context ID",
                                           "aic_cube_fops",
                                           "aic_vector_fops",
                                           "aiv_cube_fops",
                                           "aiv_vector_fops"};

/* A timeline task by its start. */
struct tkey {
    int64_t ts;
    size_t ev; /* event index */
};

/* The reader's state. */
struct kd {
    struct pr_asc *a;
    struct pr_csv *c;
    int col[C_N];
    struct pr_buf b;
    struct tkey *by_ts; /* timeline tasks sorted by start */
    size_t n_ts;
    size_t unmatched; /* rows no timeline task starts with */
    int64_t device;
    int pmu_col[MAX_PMU];    /* the table's PMU columns, when the trace */
    size_t n_pmu;            /* keeps this table's (pmu.h) */
    struct pr_asc_rows rows; /* the rows as tasks, without a timeline */
};

static const char *
cell(const struct kd *k, int c, size_t *n)
{
    return pr_csv_field(k->c, k->col[c], n);
}

/* A cell without the tab torch_npu appends and the quotes it doubles. */
static const char *
text(const struct kd *k, int c, size_t *n)
{
    const char *s = cell(k, c, n);

    while (*n > 0 && (s[*n - 1] == '\t' || s[*n - 1] == ' '))
        (*n)--;
    return s;
}

static int
is_na(const char *s, size_t n)
{
    return n == 0 || (n == 3 && memcmp(s, "N/A", 3) == 0);
}

static uint32_t
intern_cell(struct kd *k, int c)
{
    size_t n;
    const char *s = text(k, c, &n);

    if (k->col[c] < 0 || is_na(s, n))
        return PR_STR_NONE;
    return pr_strtab_intern(k->a->t->strs, s, n);
}

/* Input Shapes / Input Data Types in the model's list text. */
static uint32_t
list_cell(struct kd *k, int c, int shapes)
{
    size_t n;
    const char *s = text(k, c, &n);
    int r;

    if (k->col[c] < 0 || is_na(s, n))
        return PR_STR_NONE;
    pr_buf_reset(&k->b);
    r = shapes ? pr_ascend_shapes(s, n, &k->b)
               : pr_ascend_names(s, n, 1, &k->b);
    if (r <= 0 || k->b.len == 0)
        return PR_STR_NONE;
    return pr_strtab_intern(k->a->t->strs, k->b.data, k->b.len);
}

static double
num_cell(const struct kd *k, int c)
{
    size_t n;
    const char *s = text(k, c, &n);
    double d;

    if (k->col[c] < 0 || is_na(s, n) || !pr_fld_parse_number(s, n, &d))
        return NAN;
    return d;
}

/* The row's PMU counters, onto task record g (a row of N/A only gives
 * it none).  0 on out-of-memory. */
static int
add_pmu(struct kd *k, const struct pr_gpu_info *g)
{
    struct pr_trace *t = k->a->t;
    float *v = NULL;
    size_t i;

    for (i = 0; i < k->n_pmu; i++) {
        size_t n;
        const char *s = pr_csv_field(k->c, k->pmu_col[i], &n);
        double d;

        while (n > 0 && (s[n - 1] == '\t' || s[n - 1] == ' '))
            n--;
        if (is_na(s, n) || !pr_fld_parse_number(s, n, &d) || !isfinite(d))
            continue;
        if (v == NULL && (v = pr_pmu_row(t, (uint32_t)(g - t->gpu))) == NULL)
            return 0;
        v[i] = (float)d;
    }
    return 1;
}

/* What a row says beyond the timeline, onto a task's record. */
static void
enrich(struct kd *k, struct pr_gpu_info *g)
{
    size_t n;
    const char *s = text(k, C_HF32, &n);
    double f, sum = -1;
    int i;

    g->unit = (uint8_t)pr_ascend_unit(pr_csv_field(k->c, k->col[C_CORE], NULL));
    if (n == 3 && memcmp(s, "YES", 3) == 0)
        g->hf32 = 1;
    else if (n == 2 && memcmp(s, "NO", 2) == 0)
        g->hf32 = 0;
    g->op_type = intern_cell(k, C_TYPE);
    g->dev_shapes = list_cell(k, C_SHAPES, 1);
    g->dev_types = list_cell(k, C_TYPES, 0);
    f = num_cell(k, C_CUBE);
    if (!isnan(f))
        g->matrix_util_pct = f;
    f = num_cell(k, C_BLOCK); /* N/A on HCCL and AI CPU rows */
    if (f >= 0 && f <= INT32_MAX && f == floor(f))
        g->block_dim = (int32_t)f;
    for (i = 0; i < 4; i++) {
        f = num_cell(k, C_FOPS + i);
        if (!isnan(f) && f >= 0)
            sum = (sum < 0 ? 0 : sum) + f;
    }
    if (sum >= 0)
        g->measured_flops = sum;
}

/* ------------------------------------------------------------ timeline */

static int
cmp_key(const void *a, const void *b)
{
    const struct tkey *x = a, *y = b;

    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* The timeline's tasks and copies, by start. */
static enum pr_status
index_tasks(struct kd *k)
{
    const struct pr_trace *t = k->a->t;
    size_t i;

    k->by_ts = malloc((t->n_events ? t->n_events : 1) * sizeof(*k->by_ts));
    if (k->by_ts == NULL)
        return PR_E_NOMEM;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if ((e->kind == PR_KIND_DEVICE_TASK || e->kind == PR_KIND_COPY) &&
            e->info != PR_NO_INFO) {
            k->by_ts[k->n_ts].ts = e->ts_ns;
            k->by_ts[k->n_ts++].ev = i;
        }
    }
    if (k->n_ts > 0)
        qsort(k->by_ts, k->n_ts, sizeof(*k->by_ts), cmp_key);
    return PR_OK;
}

/* The task starting at `ts`, the one with `task_id` when several do;
 * NULL when none (a row of a task the timeline lacks). */
static struct pr_gpu_info *
task_at(struct kd *k, int64_t ts, int64_t task_id)
{
    struct pr_trace *t = k->a->t;
    size_t lo = 0, hi = k->n_ts, i;
    struct pr_gpu_info *first = NULL;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (k->by_ts[mid].ts < ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (i = lo; i < k->n_ts && k->by_ts[i].ts == ts; i++) {
        struct pr_gpu_info *g = &t->gpu[t->events[k->by_ts[i].ev].info];

        if (g->unit == PR_UNIT_COMM)
            continue;
        if (first == NULL)
            first = g;
        if (task_id >= 0 && g->task_id == task_id)
            return g;
    }
    return first;
}

/* ------------------------------------------------------------ rows */

static int64_t
int_cell(const struct kd *k, int c, int64_t absent)
{
    size_t n;
    const char *s = cell(k, c, &n);
    int64_t v;

    return k->col[c] >= 0 && pr_asc_int(s, n, &v) ? v : absent;
}

/* A row as a task of its own (no timeline): HCCL rows are collectives. */
static enum pr_status
add_row(struct kd *k, int64_t ts, int64_t dur, int64_t task_id)
{
    struct pr_trace *t = k->a->t;
    const char *core = pr_csv_field(k->c, k->col[C_CORE], NULL);
    const char *name = pr_csv_field(k->c, k->col[C_NAME], NULL);
    struct pr_task_desc d = pr_trace_task_desc();
    struct pr_span s;
    char tid[32], row[32];
    int comm = pr_ascend_unit(core) == PR_UNIT_COMM; /* HCCL, COMMUNICATION */
    enum pr_kind kind = comm ? PR_KIND_DEVICE_TASK
                             : pr_ascend_task_kind(pr_ascend_task_class(core));
    int64_t stream = int_cell(k, C_STREAM, -1);
    size_t idx;
    struct pr_gpu_info *g;

    memset(&s, 0, sizeof(s));
    snprintf(tid, sizeof(tid), "%lld", (long long)stream);
    s.name = name;
    s.cat = core;
    s.pid = "Ascend Hardware";
    s.tid = !comm ? tid
            : stream >= 0
                ? "HCCL"
                : pr_ascend_hccl_row(name, row, sizeof(row)); /* N/A */
    s.ts_ns = ts;
    s.dur_ns = dur;
    s.external_id = s.correlation = PR_NO_ID;
    d.device = (int32_t)int_cell(k, C_DEVICE, k->device);
    d.stream = stream >= 0 && stream <= INT32_MAX ? (int32_t)stream : -1;
    d.collective = comm ? pr_ascend_collective(name) : NULL;
    if (comm && d.collective == NULL) /* its Type: "hcom_allReduce_" */
        d.collective = pr_ascend_collective(
            k->col[C_TYPE] >= 0 ? pr_csv_field(k->c, k->col[C_TYPE], NULL)
                                : "");
    if (comm && d.collective == NULL)
        d.collective = "";
    if (kind != PR_KIND_DEVICE_TASK && kind != PR_KIND_COPY)
        return pr_trace_add_span(t, kind, &s, NULL);
    if (pr_trace_add_task(t, kind, &s, &d, &idx) != PR_OK)
        return PR_E_NOMEM;
    g = &t->gpu[t->events[idx].info];
    g->task_id = task_id;
    g->task_type = pr_strtab_intern(t->strs, core, strlen(core));
    if (comm) {
        g->unit = PR_UNIT_COMM;
        return PR_OK;
    }
    enrich(k, g);
    return add_pmu(k, g) ? PR_OK : PR_E_NOMEM;
}

/* The rows' step numbers (Step Id), which give no step's window: the
 * run was stepped, though (review22a #2: "an inference run" was said of
 * rows that all carry Step Id 19).  A count of distinct numbers is
 * not needed: the least and the greatest tell one step from several. */
static void
note_step(struct kd *k, int64_t step)
{
    struct pr_trace *t = k->a->t;

    if (step < 0)
        return;
    if (t->row_steps == 0 || step < t->row_step_lo)
        t->row_step_lo = step;
    if (t->row_steps == 0 || step > t->row_step_hi)
        t->row_step_hi = step;
    t->row_steps++;
}

static enum pr_status
one_row(struct kd *k, struct pr_error *err)
{
    size_t n, m;
    const char *s = cell(k, C_START, &n), *d = cell(k, C_DUR, &m);
    const char *core = pr_csv_field(k->c, k->col[C_CORE], NULL);
    int64_t ts, dur, task_id = int_cell(k, C_TASK, -1);
    struct pr_gpu_info *g;

    k->a->t->n_trace_events++;
    if (!pr_asc_us(s, n, &ts) || !pr_asc_us(d, m, &dur) || dur < 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "line %llu: Start Time(us) or Duration(us) is "
                            "not a time in us",
                            (unsigned long long)pr_csv_line(k->c));
    if (!k->a->has_tv) {
        int seen = pr_asc_rows_seen(
            &k->rows, k->a->t, int_cell(k, C_STREAM, -1), task_id, ts, dur,
            int_cell(k, C_CTX, -1), pr_csv_field(k->c, k->col[C_NAME], NULL));

        if (seen > 0)
            return PR_OK; /* the same task again: named in Data quality */
        note_step(k, int_cell(k, C_STEP, -1));
        return seen == 0 && add_row(k, ts, dur, task_id) == PR_OK
                   ? PR_OK
                   : pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    if (strcmp(core, "HCCL") == 0)
        return PR_OK; /* the timeline's HCCL operation */
    g = task_at(k, ts, task_id);
    if (g == NULL) {
        k->unmatched++;
        return PR_OK;
    }
    enrich(k, g);
    return add_pmu(k, g) ? PR_OK
                         : pr_error_set(err, PR_E_NOMEM, "out of memory");
}

/* The PMU columns (pr_ascend_is_pmu_col), as the trace's counter table when it
 * has none yet.  0 on out-of-memory. */
static int
find_pmu(struct kd *k)
{
    const char *names[MAX_PMU];
    size_t i, n = pr_csv_n_cols(k->c);
    int r;

    for (i = 0; i < n && k->n_pmu < MAX_PMU; i++) {
        const char *c = pr_csv_col_name(k->c, i);

        if (pr_ascend_is_pmu_col(c)) {
            names[k->n_pmu] = c;
            k->pmu_col[k->n_pmu++] = (int)i;
        }
    }
    r = pr_pmu_set_cols(k->a->t, names, k->n_pmu);
    if (r <= 0)
        k->n_pmu = 0;
    return r >= 0;
}

static enum pr_status
open_table(struct kd *k, const char *path, struct pr_error *err)
{
    size_t i;
    enum pr_status st = pr_csv_open(path, k->a->max, &k->c, err);

    for (i = 0; st == PR_OK && i < C_N; i++)
        k->col[i] = pr_csv_col(k->c, col_names[i]);
    if (st == PR_OK && (k->col[C_NAME] < 0 || k->col[C_CORE] < 0 ||
                        k->col[C_START] < 0 || k->col[C_DUR] < 0))
        st = pr_error_set(err, PR_E_FORMAT,
                          "no Name, Accelerator Core, Start Time(us) or "
                          "Duration(us) column: not a kernel_details table");
    if (st == PR_OK && !find_pmu(k))
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK)
        pr_csv_skip_ragged(k->c, k->col[C_NAME]);
    return st;
}

static enum pr_status
note_unmatched(struct kd *k)
{
    char text[200];

    if (k->unmatched == 0)
        return PR_OK;
    snprintf(text, sizeof(text),
             "%zu kernel_details.csv rows start at no task of "
             "trace_view.json; their HF32, unit and shape columns are not "
             "used",
             k->unmatched);
    return pr_trace_add_gap(k->a->t, "ascend_rows_unmatched", k->unmatched,
                            text);
}

enum pr_status
pr_asc_kernels(struct pr_asc *a, struct pr_error *err)
{
    char path[4096];
    struct kd k;
    int got = 1;
    enum pr_status st;

    if (!pr_asc_path(a, "kernel_details.csv", path, sizeof(path)))
        return PR_OK;
    memset(&k, 0, sizeof(k));
    k.a = a;
    k.device = a->device;
    pr_buf_init(&k.b, 0);
    st = open_table(&k, path, err);
    if (st == PR_OK && a->has_tv && index_tasks(&k) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    while (st == PR_OK && (st = pr_csv_next(k.c, &got, err)) == PR_OK && got)
        st = one_row(&k, err);
    a->t->n_trace_events += pr_csv_n_ragged(k.c);
    a->t->bytes += pr_csv_bytes(k.c);
    if (st == PR_OK &&
        (note_unmatched(&k) != PR_OK ||
         pr_csv_note_ragged(k.c, a->t, path) != PR_OK ||
         /* the rows are the kernel table (no timeline) */
         (!a->has_tv && pr_csv_note_kernel_rows(k.c, a->t, path) != PR_OK) ||
         pr_asc_rows_note(&k.rows, a->t, path) != PR_OK))
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    pr_pmu_finish(a->t);
    a->has_kernels = st == PR_OK;
    pr_csv_close(k.c);
    pr_buf_free(&k.b);
    pr_asc_rows_free(&k.rows);
    free(k.by_ts);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}
