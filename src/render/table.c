/* table.c - tables for the terminal, CSV and JSON, drawn from the summary
 * or, for kernel-calls, from row arrays the caller built from the traces.
 * Column catalogues per kind live here; the input trees are only read. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/near.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"
#include "profreport/table.h"

struct kind {
    const char *name;
    const char *array; /* runs[].<array>; NULL = not in the summary */
    const struct pr_col *cols;
    const char *sort;  /* default sort key, NULL = keep order */
    const char *label; /* the row's name column (filter, tie-breaks) */
    const char *time;  /* column --min-time compares; NULL = none */
    const char *depth; /* rows are a tree in pre-order: their depth key,
                          the label indented by it (unless --sort) */
};

/* kernel-calls rows come from pr_kernel_calls_build() (kernel_calls.h),
 * one per launch in time order, so the default order is time. */
static const struct pr_col call_cols[] = {
    {"kernel", PR_K_KERNEL, "Kernel", PR_FMT_NAME, 1, NULL, PR_COL_TERM},
    {"op", "op", "Operator", PR_FMT_NAME, 1, NULL, PR_COL_TERM},
    {"direction", PR_K_DIRECTION, "Dir", PR_FMT_TEXT, 1, NULL, PR_COL_TERM},
    {"seq", "seq", "Seq", PR_FMT_COUNT, 1, NULL, 0},
    {"sub", "sub", "Sub", PR_FMT_COUNT, 1, NULL, 0},
    {"shape", PR_K_INPUT_SHAPES, "Input shapes", PR_FMT_TEXT, 1, NULL, 0},
    {"types", PR_K_INPUT_TYPES, "Input types", PR_FMT_TEXT, 1, NULL, 0},
    {"start", PR_K_START_US, "Start", PR_FMT_US, 1, NULL, 0},
    {"duration", PR_K_DURATION_US, "Duration", PR_FMT_US, 1, NULL, PR_COL_TERM},
    {"tc", "tc", "TC", PR_FMT_BOOL, 1, NULL, PR_COL_TERM},
    {"tc_rule", "tc_rule", "TC rule", PR_FMT_TEXT, 1, NULL, 0},
    {"grid", "grid", "Grid", PR_FMT_TEXT, 1, NULL, PR_COL_TERM},
    {"block", "block", "Block", PR_FMT_TEXT, 1, NULL, PR_COL_TERM},
    {"block_dim", PR_K_BLOCK_DIM, "Block Dim", PR_FMT_COUNT, 1, NULL, 0},
    {"stream", PR_K_STREAM, "Stream", PR_FMT_COUNT, 1, NULL, 0},
    {"device", PR_K_DEVICE, "Device", PR_FMT_COUNT, 1, NULL, 0},
    {"flops", PR_K_FLOPS, "FLOPs", PR_FMT_NUM, 1, NULL, 0},
    {"bytes", PR_K_BYTES, "Bytes", PR_FMT_BYTES, 1, NULL, 0},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* The same columns in an NPU's words (review30a #5): the Cube for tensor
 * cores, the task's Block Dim (the blocks its tiling split it into, one
 * AI Core each at a time) by default for a CUDA launch's grid and block,
 * which an Ascend task has not (kept for -c, always "-"). */
static const struct pr_col call_cols_npu[] = {
    {"kernel", PR_K_KERNEL, "Kernel", PR_FMT_NAME, 1, NULL, PR_COL_TERM},
    {"op", "op", "Operator", PR_FMT_NAME, 1, NULL, PR_COL_TERM},
    {"direction", PR_K_DIRECTION, "Dir", PR_FMT_TEXT, 1, NULL, PR_COL_TERM},
    {"seq", "seq", "Seq", PR_FMT_COUNT, 1, NULL, 0},
    {"sub", "sub", "Sub", PR_FMT_COUNT, 1, NULL, 0},
    {"shape", PR_K_INPUT_SHAPES, "Input shapes", PR_FMT_TEXT, 1, NULL, 0},
    {"types", PR_K_INPUT_TYPES, "Input types", PR_FMT_TEXT, 1, NULL, 0},
    {"start", PR_K_START_US, "Start", PR_FMT_US, 1, NULL, 0},
    {"duration", PR_K_DURATION_US, "Duration", PR_FMT_US, 1, NULL, PR_COL_TERM},
    {"tc", "tc", "Cube", PR_FMT_BOOL, 1, NULL, PR_COL_TERM},
    {"tc_rule", "tc_rule", "Cube rule", PR_FMT_TEXT, 1, NULL, 0},
    {"grid", "grid", "Grid", PR_FMT_TEXT, 1, NULL, 0},
    {"block", "block", "Block", PR_FMT_TEXT, 1, NULL, 0},
    {"block_dim", PR_K_BLOCK_DIM, "Block Dim", PR_FMT_COUNT, 1, NULL,
     PR_COL_TERM},
    {"stream", PR_K_STREAM, "Stream", PR_FMT_COUNT, 1, NULL, 0},
    {"device", PR_K_DEVICE, "Device", PR_FMT_COUNT, 1, NULL, 0},
    {"flops", PR_K_FLOPS, "FLOPs", PR_FMT_NUM, 1, NULL, 0},
    {"bytes", PR_K_BYTES, "Bytes", PR_FMT_BYTES, 1, NULL, 0},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static const struct kind kinds[] = {
    {"operators", "operators", pr_fig_cols_operators, "device_self", "name",
     "device_self", NULL},
    {"kernels", "kernels", pr_fig_cols_kernels, "total", "name", "total", NULL},
    {"kernel-calls", NULL, call_cols, NULL, "op", "duration", NULL},
    {"steps", "steps", pr_fig_cols_steps, NULL, "name", NULL, NULL},
    {"memory", "memory.operators", pr_fig_cols_memory, "size_increase", "name",
     "size_increase", NULL},
    {"modules", "modules", pr_fig_cols_modules, NULL, "name", "device_total",
     "depth"},
    {"layers", "layers", pr_fig_cols_layers, "device", "name", "device", NULL},
    {"critical-path", "critical_path.steps", pr_fig_cols_critical_path, NULL,
     "step", "length", NULL},
    {"findings", "verdict.findings", pr_fig_cols_findings, NULL, "finding",
     "gain", NULL},
};

/* kernel-calls of NPU traces only (pr_table_opts.npu). */
static const struct kind npu_calls_kind = {
    "kernel-calls", NULL, call_cols_npu, NULL, "op", "duration", NULL};

#define MAX_COLS 24

struct table {
    const struct kind *kind;
    const struct pr_col *cols[MAX_COLS + 3]; /* +3: job, worker and span */
    size_t n_cols;
    const cJSON **rows;
    const char **workers; /* worker of each row */
    const char **spans;   /* span of each row ("" when none) */
    const char **jobs;    /* job of each row when the summary holds
                             several jobs (issue #15), else NULL */
    size_t n_rows, cap;
    int multi_run;
    int multi_span;   /* one worker has rows of two spans: a span column */
    int tree;         /* kind->depth and no --sort: labels indented */
    int multi_job;    /* the summary holds several jobs: a job column */
    size_t n_dropped; /* rows --filter or --min-time left out */
    int host_only;    /* every run is host-only (a CPU run): no device
                         columns by default, operators by host time */
    const char *time; /* the column --min-time compares */
    int npu;          /* every run is an NPU's: its words (issue #30) */
    int memtl;        /* every run is a raw memory timeline: no tables */
    /* pr_table_render_cells: the tail of the note on columns left out,
       and its last column wraps when it is prose (PR_FMT_WRAP) */
    const char *hint;
    int wrap_last;
};

/* Left-aligned, compared as strings, shortened when too wide. */
static int
is_text(enum pr_fmt f)
{
    return !pr_col_numeric(f) && f != PR_FMT_BOOL;
}

static double
num_of(const cJSON *row, const struct pr_col *c)
{
    const cJSON *v = pr_sget_path(row, c->key);

    if (cJSON_IsNumber(v))
        return v->valuedouble;
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v);
    return -INFINITY; /* nulls sort last in descending order */
}

static const char *
str_of(const cJSON *row, const struct pr_col *c)
{
    const cJSON *v = pr_sget_path(row, c->key);

    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The unit a CSV header gives a column of format f (issue #32: a
 * spreadsheet shows the header, not the docs), "" for none. */
static const char *
csv_unit(enum pr_fmt f)
{
    switch (f) {
    case PR_FMT_US:
        return "us";
    case PR_FMT_PCT:
        return "pct";
    case PR_FMT_BYTES:
        return "bytes";
    case PR_FMT_FLOPS:
        return "flop";
    case PR_FMT_TFLOPS:
        return "tflops";
    case PR_FMT_GBPS:
        return "gbps";
    case PR_FMT_AI:
        return "flop_per_byte";
    default:
        return "";
    }
}

/* A column's CSV header: its id and "_" and its unit ("total_us"),
 * the id alone where it has no unit or already ends in it, or in its
 * plural ("gain_pct", "bytes", "fwd_flops").  buf: at least 64 bytes. */
static const char *
csv_header(const struct pr_col *c, char *buf, size_t n)
{
    const char *u = csv_unit(c->fmt);
    size_t il = strlen(c->id), ul = strlen(u), end;

    end = il > 0 && c->id[il - 1] == 's' && u[ul ? ul - 1 : 0] != 's'
              ? il - 1
              : il; /* "fwd_flops" says "flop" */
    if (ul == 0 || (end >= ul && strncmp(c->id + end - ul, u, ul) == 0 &&
                    (end == ul || c->id[end - ul - 1] == '_')))
        return c->id;
    snprintf(buf, n, "%s_%s", c->id, u);
    return buf;
}

/* The column -c or --sort names: by its id, or by its CSV header
 * ("total_us"), so that a header pasted back works. */
static const struct pr_col *
find_col(const struct kind *k, const char *key, size_t len)
{
    const struct pr_col *c;
    char buf[96];

    for (c = k->cols; c->id != NULL; c++)
        if (strlen(c->id) == len && strncmp(c->id, key, len) == 0)
            return c;
    for (c = k->cols; c->id != NULL; c++) {
        const char *h = csv_header(c, buf, sizeof(buf));
        if (strlen(h) == len && strncmp(h, key, len) == 0)
            return c;
    }
    return NULL;
}

static enum pr_status
bad_key(const struct kind *k, const char *what, const char *key, size_t len,
        struct pr_error *err)
{
    char names[220];
    size_t off = 0;
    const struct pr_col *c;

    names[0] = '\0';
    for (c = k->cols; c->id != NULL && off + 1 < sizeof(names); c++) {
        int n = snprintf(names + off, sizeof(names) - off, "%s%s",
                         off ? "," : "", c->id);
        if (n < 0)
            break;
        off += (size_t)n;
    }
    return pr_error_set(err, PR_E_USAGE,
                        "%s: unknown column '%.*s' (one of: %s)", what,
                        (int)len, key, names);
}

void
pr_table_help_columns(FILE *out)
{
    size_t k;

    fputs("Columns of each kind (-c, --sort, the CSV header; * shown by "
          "default):\n",
          out);
    for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        const struct pr_col *c;
        int col = fprintf(out, "  %s:", kinds[k].name);

        for (c = kinds[k].cols; c->id != NULL; c++) {
            int w = (int)strlen(c->id) + ((c->show & PR_COL_TERM) ? 1 : 0);

            if (col + 1 + w > 78) { /* wrapped under the first column */
                fputs("\n   ", out);
                col = 3;
            }
            col += fprintf(out, " %s%s", c->id,
                           (c->show & PR_COL_TERM) ? "*" : "");
        }
        fputc('\n', out);
    }
}

/* Columns of a device's time or tensor cores: left out of a host-only
 * summary's default columns (a CPU run has none of them to show). */
static int
device_col(const struct pr_col *c)
{
    static const char *const ids[] = {
        "device_self", "device_total", "tc_eligible", "tc_self", "tc_total",
        "kernel",      "memcpy",       "memset",      "runtime"};
    size_t i;

    for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
        if (strcmp(c->id, ids[i]) == 0)
            return 1;
    return 0;
}

static enum pr_status
pick_columns(struct table *t, const struct pr_table_opts *o,
             struct pr_error *err)
{
    const struct pr_col *c;
    const char *p = o->columns;
    int by_shape = o->group_by && strcmp(o->group_by, "shape") == 0;

    t->n_cols = 0;
    if (p == NULL && o->format != PR_TABLE_TEXT &&
        strcmp(t->kind->name, "findings") == 0)
        /* a machine reads numbers: the gain, the bound and the gain's
           share as numbers with their units, not the text table's
           "6.5 ms (<= 7.6 ms)" and "5.2-6.1%" (review 25g #10, 25a #13,
           25u #8), with what the gain is per (review 26g #6: hta_nccl's
           46.9% at twice the batch beside per-step shares) */
        p = "order,id,finding,gain,bound,gain_pct,bound_pct,basis,kind,"
            "evidence";
    if (p == NULL) {
        for (c = t->kind->cols; c->id != NULL && t->n_cols < MAX_COLS; c++)
            if (((c->show & PR_COL_TERM) ||
                 (by_shape && strcmp(c->id, "shape") == 0)) &&
                !(t->host_only && device_col(c)))
                t->cols[t->n_cols++] = c;
        return PR_OK;
    }
    while (*p) {
        size_t len = strcspn(p, ",");
        c = find_col(t->kind, p, len);
        if (c == NULL)
            return bad_key(t->kind, "-c", p, len, err);
        if (t->n_cols < MAX_COLS)
            t->cols[t->n_cols++] = c;
        p += len;
        if (*p == ',')
            p++;
    }
    return PR_OK;
}

/* The critical path's kinds by default where some step has time in them,
 * as the report's table shows them (review 25u #2: npu_text1's row summed
 * to 3.2 ms of a 137 ms path with the 133 ms of "Other rank" a column
 * only -c showed, beside three columns of zeros).  The text table leaves
 * out the kinds no step has time in; CSV and JSON keep every default
 * column, a header a script can rely on, and add the two rare kinds. */
static void
cp_columns(struct table *t, int drop)
{
    static const char *const cp_kinds[] = {
        "host_op", "dataloader",    "launch",    "kernel",
        "copy",    "communication", "sync_wait", "stream_wait",
        "idle",    "op_compile",    "peer_wait"};
    const struct pr_col *c;
    size_t i, k;

    if (t->n_rows == 0)
        return;
    t->n_cols = 0;
    for (c = t->kind->cols; c->id != NULL && t->n_cols < MAX_COLS; c++) {
        int is_kind = 0, has = 0;

        for (k = 0; k < sizeof(cp_kinds) / sizeof(cp_kinds[0]); k++)
            is_kind |= strcmp(c->id, cp_kinds[k]) == 0;
        for (i = 0; is_kind && i < t->n_rows && !has; i++) {
            const cJSON *v = pr_sget_path(t->rows[i], c->key);

            has = cJSON_IsNumber(v) && v->valuedouble != 0;
        }
        if ((c->show & PR_COL_TERM) != 0 ? !is_kind || has || !drop : has)
            t->cols[t->n_cols++] = c;
    }
}

/* An NPU run's columns in its words, those of a CUDA GPU only left out
 * (pr_fig_col_npu). */
static void
npu_columns(struct table *t)
{
    size_t i, n = 0;

    for (i = 0; i < t->n_cols; i++)
        if ((t->cols[n] = pr_fig_col_npu(t->cols[i])) != NULL)
            n++;
    t->n_cols = n;
}

/* Append a row of (worker, span); a worker seen just before with another
 * span marks the table multi_span (one trace's rows, like the summary's
 * runs sorted by worker then span, come together). */
static enum pr_status
add_row(struct table *t, const cJSON *row, const char *worker, const char *span,
        const char *job)
{
    if (t->n_rows == t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 64;
        const cJSON **r = realloc(t->rows, ncap * sizeof(*r));
        const char **w;
        if (r == NULL)
            return PR_E_NOMEM;
        t->rows = r;
        w = realloc(t->workers, ncap * sizeof(*w));
        if (w == NULL)
            return PR_E_NOMEM;
        t->workers = w;
        w = realloc(t->spans, ncap * sizeof(*w));
        if (w == NULL)
            return PR_E_NOMEM;
        t->spans = w;
        w = realloc(t->jobs, ncap * sizeof(*w));
        if (w == NULL)
            return PR_E_NOMEM;
        t->jobs = w;
        t->cap = ncap;
    }
    if (t->n_rows > 0 && strcmp(t->workers[t->n_rows - 1], worker) == 0 &&
        strcmp(t->spans[t->n_rows - 1], span) != 0)
        t->multi_span = t->multi_run = 1;
    t->rows[t->n_rows] = row;
    t->jobs[t->n_rows] = job;
    t->spans[t->n_rows] = span;
    t->workers[t->n_rows++] = worker;
    return PR_OK;
}

/* Operator type as profile_analyze groups it: no namespace, no in-place
 * suffix ("aten::add_" -> "add"). */
static void
op_type(const char *name, char *out, size_t cap)
{
    const char *p = strstr(name, "::");
    size_t n;

    p = p ? p + 2 : name;
    n = strlen(p);
    if (n > 1 && p[n - 1] == '_')
        n--;
    if (n >= cap)
        n = cap - 1;
    memcpy(out, p, n);
    out[n] = '\0';
}

static const char *const type_sums[] = {"calls", "device_self_us",
                                        "device_total_us", "host_self_us",
                                        "host_total_us"};

static enum pr_status
merge_type(cJSON *groups, const cJSON *row)
{
    char type[256];
    cJSON *g;
    size_t i;

    op_type(str_of(row, &pr_fig_cols_operators[0]), type, sizeof(type));
    g = cJSON_GetObjectItemCaseSensitive(groups, type);
    if (g == NULL) {
        g = cJSON_AddObjectToObject(groups, type);
        if (g == NULL || cJSON_AddStringToObject(g, PR_K_NAME, type) == NULL)
            return PR_E_NOMEM;
        for (i = 0; i < sizeof(type_sums) / sizeof(type_sums[0]); i++)
            if (cJSON_AddNumberToObject(g, type_sums[i], 0) == NULL)
                return PR_E_NOMEM;
    }
    for (i = 0; i < sizeof(type_sums) / sizeof(type_sums[0]); i++) {
        cJSON *acc = cJSON_GetObjectItemCaseSensitive(g, type_sums[i]);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, type_sums[i]);
        if (cJSON_IsNumber(v))
            cJSON_SetNumberValue(acc, acc->valuedouble + v->valuedouble);
    }
    return PR_OK;
}

static const struct pr_col *
label_col(const struct kind *k)
{
    return find_col(k, k->label, strlen(k->label));
}

/* --filter matches the first column (device for memory, kernel for
 * kernel-calls) or the label (the name; the op for kernel-calls). */
static int
keep(const struct table *t, const struct pr_table_opts *o, const cJSON *row)
{
    const struct pr_col *time;

    if (o->filter &&
        strstr(str_of(row, &t->kind->cols[0]), o->filter) == NULL &&
        strstr(str_of(row, label_col(t->kind)), o->filter) == NULL)
        return 0;
    if (o->min_time_us > 0 && t->time != NULL) {
        time = find_col(t->kind, t->time, strlen(t->time));
        if (num_of(row, time) < o->min_time_us)
            return 0;
    }
    return 1;
}

/* --job NAME names a job of the summary: PR_OK, else PR_E_USAGE naming
 * the jobs there are (the nearest first, when one is near). */
static enum pr_status
check_job(const cJSON *sum, const char *want, struct pr_error *err)
{
    const cJSON *jobs = pr_sget(sum, PR_K_JOBS), *job;
    const char *names[64], *near;
    char list[256];
    size_t n = 0, at = 0;

    if (want == NULL)
        return PR_OK;
    if (pr_sget_len(jobs) < 2)
        return pr_error_set(err, PR_E_USAGE,
                            "table: --job %s: the input holds one job; --job "
                            "picks one of several",
                            want);
    list[0] = '\0';
    cJSON_ArrayForEach(job, jobs)
    {
        const char *name = pr_sget_str_or(job, PR_K_NAME, "?");

        if (strcmp(name, want) == 0)
            return PR_OK;
        if (n < sizeof(names) / sizeof(names[0]))
            names[n++] = name;
        if (at < sizeof(list))
            at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
                                   at ? ", " : "", name);
    }
    near = pr_nearest(want, names, n, strlen(want) / 3 + 1);
    if (near != NULL)
        return pr_error_set(err, PR_E_USAGE,
                            "table: no job '%s'; did you mean '%s'? (jobs: %s)",
                            want, near, list);
    return pr_error_set(err, PR_E_USAGE, "table: no job '%s' (jobs: %s)", want,
                        list);
}

static enum pr_status
collect(struct table *t, const cJSON *sum, const struct pr_table_opts *o,
        cJSON *types)
{
    const cJSON *run, *row;
    const char *array = t->kind->array;
    int by_shape = o->group_by && strcmp(o->group_by, "shape") == 0;
    int by_type = o->group_by && strcmp(o->group_by, "type") == 0;

    const cJSON *jobs = pr_sget(sum, PR_K_JOBS);
    size_t i = 0;

    if (by_shape)
        array = "operators_by_shape";
    t->multi_run = cJSON_GetArraySize(
                       cJSON_GetObjectItemCaseSensitive(sum, PR_K_RUNS)) > 1;
    t->multi_job = pr_sget_len(jobs) > 1 && o->job == NULL;
    if (o->job != NULL) /* the chosen job's runs */
        t->multi_run =
            pr_sget_len(
                pr_sget(pr_sget_find(jobs, PR_K_NAME, o->job), PR_K_RUNS)) > 1;
    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(sum, PR_K_RUNS))
    {
        const char *worker = pr_sget_str_or(run, PR_K_WORKER, "");
        const char *span = pr_sget_str_or(run, PR_K_SPAN, "");
        const char *job = pr_sget_job_of(jobs, i++);
        if (o->job != NULL && strcmp(job, o->job) != 0)
            continue;
        cJSON_ArrayForEach(row, pr_sget_path(run, array))
        {
            if (!keep(t, o, row)) {
                t->n_dropped++;
                continue;
            }
            if (by_type) {
                if (merge_type(types, row) != PR_OK)
                    return PR_E_NOMEM;
            } else if (add_row(t, row, worker, span, job) != PR_OK) {
                return PR_E_NOMEM;
            }
        }
    }
    if (by_type) {
        cJSON_ArrayForEach(row, types)
        {
            if (add_row(t, row, "", "", "") != PR_OK)
                return PR_E_NOMEM;
        }
    }
    return PR_OK;
}

/* Rows of one array; "worker" and "span" keys on the rows name their
 * trace, and a worker column appears when they name more than one (with
 * a span column when one worker has several spans). */
static enum pr_status
collect_rows(struct table *t, const cJSON *rows, const struct pr_table_opts *o)
{
    const cJSON *row;

    cJSON_ArrayForEach(row, rows)
    {
        const char *worker = pr_sget_str_or(row, PR_K_WORKER, "");
        const char *span = pr_sget_str_or(row, PR_K_SPAN, "");

        if (!keep(t, o, row)) {
            t->n_dropped++;
            continue;
        }
        if (add_row(t, row, worker, span, "") != PR_OK)
            return PR_E_NOMEM;
        if (strcmp(worker, t->workers[0]) != 0)
            t->multi_run = 1;
    }
    return PR_OK;
}

/* Sorting: a total order (value, then name, then worker, then input
 * position) so output is deterministic whatever qsort does with ties. */
struct sort_ctx {
    const struct table *t;
    const struct pr_col *col;
    int asc;
};

static int
cmp_rows(const struct sort_ctx *x, size_t a, size_t b)
{
    const struct table *t = x->t;
    const struct pr_col *name = label_col(t->kind);
    int c;

    if (x->col != NULL && is_text(x->col->fmt)) {
        c = strcmp(str_of(t->rows[a], x->col), str_of(t->rows[b], x->col));
        if (c != 0)
            return x->asc ? c : -c;
    } else if (x->col != NULL) {
        double p = num_of(t->rows[a], x->col), q = num_of(t->rows[b], x->col);
        if (p != q)
            return (p < q) == x->asc ? -1 : 1;
    }
    c = strcmp(str_of(t->rows[a], name), str_of(t->rows[b], name));
    if (c != 0)
        return c;
    c = strcmp(t->workers[a], t->workers[b]);
    if (c != 0)
        return c;
    c = strcmp(t->spans[a], t->spans[b]);
    if (c != 0)
        return c;
    c = strcmp(t->jobs[a], t->jobs[b]);
    if (c != 0)
        return c;
    return a < b ? -1 : (a > b);
}

static int
cmp_idx(const void *a, const void *b, void *ctx)
{
    return cmp_rows(ctx, *(const size_t *)a, *(const size_t *)b);
}

/* arr[i] = arr[idx[i]] for every row; 0 on out-of-memory. */
static int
permute(const char ***arr, const size_t *idx, size_t n)
{
    const char **v = malloc(n * sizeof(*v));
    size_t i;

    if (v == NULL)
        return 0;
    for (i = 0; i < n; i++)
        v[i] = (*arr)[idx[i]];
    free(*arr);
    *arr = v;
    return 1;
}

/* A number column no row has (a range profiler's kernel times): the
 * summary's own order stands, not the names'. */
static int
all_null(const struct table *t, const struct pr_col *col)
{
    size_t i;

    if (col == NULL || is_text(col->fmt))
        return 0;
    for (i = 0; i < t->n_rows; i++)
        if (num_of(t->rows[i], col) != -INFINITY)
            return 0;
    return 1;
}

static enum pr_status
sort_rows(struct table *t, const struct pr_col *col, int asc)
{
    struct sort_ctx ctx = {t, col, asc};
    size_t *idx, i;
    const cJSON **rows;
    int ok;

    if (t->n_rows < 2 || all_null(t, col))
        return PR_OK;
    idx = malloc(t->n_rows * sizeof(*idx));
    rows = malloc(t->n_rows * sizeof(*rows));
    if (idx == NULL || rows == NULL) {
        free(idx);
        free(rows);
        return PR_E_NOMEM;
    }
    for (i = 0; i < t->n_rows; i++)
        idx[i] = i;
    qsort_r(idx, t->n_rows, sizeof(*idx), cmp_idx, &ctx);
    for (i = 0; i < t->n_rows; i++)
        rows[i] = t->rows[idx[i]];
    free(t->rows);
    t->rows = rows;
    ok = permute(&t->workers, idx, t->n_rows) &&
         permute(&t->spans, idx, t->n_rows) &&
         permute(&t->jobs, idx, t->n_rows);
    free(idx);
    return ok ? PR_OK : PR_E_NOMEM;
}

static const struct pr_col worker_col = {
    "worker", "", "Worker", PR_FMT_TEXT, 1, NULL, PR_COL_TERM};
static const struct pr_col span_col = {"span", "",   "Span",     PR_FMT_TEXT,
                                       1,      NULL, PR_COL_TERM};
static const struct pr_col job_col = {"job", "",   "Job",      PR_FMT_TEXT,
                                      1,     NULL, PR_COL_TERM};

/* The worker and span columns are the table's, not the rows'. */
static int
is_run_col(const struct pr_col *c)
{
    return c == &worker_col || c == &span_col || c == &job_col;
}

/* A cell as data (CSV, and the text of string cells): strings in full,
 * borrowed from the row; numbers in their base unit with fixed precision
 * (buf, n >= 64); yes/no; "" when absent or null. */
static const char *
raw_cell(const struct table *t, size_t r, const struct pr_col *c, char *buf,
         size_t n)
{
    const cJSON *v;

    if (c == &worker_col)
        return t->workers[r];
    if (c == &span_col)
        return t->spans[r];
    if (c == &job_col)
        return t->jobs[r];
    v = pr_sget_path(t->rows[r], c->key);
    if (strcmp(c->key, PR_K_GAIN_BASIS) == 0 && cJSON_IsString(v))
        /* what the gain compares, the same words on a capture as on a
           step (figures.c pr_fig_cell) */
        return pr_sget_is(v->valuestring, PR_GAIN_PER_SAMPLES) ? "2x_batch"
               : pr_sget_is(v->valuestring, PR_GAIN_PER_STEP)  ? "same_batch"
               : pr_sget_is(v->valuestring, PR_GAIN_ONE_TIME)  ? "one_time"
                                                               : v->valuestring;
    if (cJSON_IsString(v))
        return v->valuestring;
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v) ? "yes" : "no";
    if (!cJSON_IsNumber(v))
        return "";
    if (c->fmt == PR_FMT_COUNT || c->fmt == PR_FMT_BYTES)
        snprintf(buf, n, "%.0f", v->valuedouble);
    else if (c->fmt == PR_FMT_US)
        snprintf(buf, n, "%.1f", v->valuedouble);
    else if (c->fmt == PR_FMT_PCT)
        snprintf(buf, n, "%.2f", v->valuedouble);
    else
        snprintf(buf, n, "%.4g", v->valuedouble);
    if (strspn(buf, "-0.") == strlen(buf) && buf[0] == '-')
        memmove(buf, buf + 1, strlen(buf)); /* "-0.0" -> "0.0" */
    return buf;
}

/* A cell as people read it (aligned text): numbers with human units
 * (figures.h), strings in full (the caller shortens them), "-" when
 * absent. */
static const char *
text_cell(const struct table *t, size_t r, const struct pr_col *c, char *buf,
          size_t n)
{
    const char *s;

    if ((is_run_col(c) || is_text(c->fmt)) &&
        strcmp(c->key, PR_K_KPRECISION) != 0) { /* that one: "(mixed)" */
        s = raw_cell(t, r, c, buf, n);
        return s[0] ? s : "-";
    }
    s = pr_fig_cell(t->rows[r], c, buf, n);
    return strcmp(s, "\xE2\x80\x93") == 0 ? "-" : s;
}

/* A cell a spreadsheet would run as a formula (CWE-1236): it starts with
 * = + - @ tab or CR and is not a number ("-3.5" stays a number). */
static int
formula_like(const char *s)
{
    char *end;

    if (s[0] == '\0' || strchr("=+-@\t\r", s[0]) == NULL)
        return 0;
    (void)strtod(s, &end);
    return end == s || *end != '\0';
}

static enum pr_status
csv_field(struct pr_buf *out, const char *s)
{
    enum pr_status st = PR_OK;
    int guard = formula_like(s);

    if (!guard && strpbrk(s, ",\"\n\r") == NULL)
        return pr_buf_adds(out, s);
    st = pr_buf_addc(out, '"');
    if (guard && st == PR_OK) /* OWASP: a leading quote makes it text */
        st = pr_buf_addc(out, '\'');
    for (; *s && st == PR_OK; s++) {
        st = pr_buf_addc(out, *s);
        if (*s == '"' && st == PR_OK)
            st = pr_buf_addc(out, '"');
    }
    return st == PR_OK ? pr_buf_addc(out, '"') : st;
}

static enum pr_status
emit_csv(const struct table *t, size_t n, struct pr_buf *out)
{
    char v[64];
    size_t r, c;
    enum pr_status st = PR_OK;

    for (c = 0; c < t->n_cols && st == PR_OK; c++) {
        if (c)
            st = pr_buf_addc(out, ',');
        if (st == PR_OK)
            st = pr_buf_adds(out, csv_header(t->cols[c], v, sizeof(v)));
    }
    if (st == PR_OK)
        st = pr_buf_addc(out, '\n');
    for (r = 0; r < n && st == PR_OK; r++) {
        for (c = 0; c < t->n_cols && st == PR_OK; c++) {
            if (c)
                st = pr_buf_addc(out, ',');
            if (st == PR_OK)
                st = csv_field(out, raw_cell(t, r, t->cols[c], v, sizeof(v)));
        }
        if (st == PR_OK)
            st = pr_buf_addc(out, '\n');
    }
    return st;
}

static enum pr_status
emit_json(const struct table *t, size_t n, struct pr_buf *out)
{
    cJSON *arr = cJSON_CreateArray();
    size_t r, c;
    char *text;
    enum pr_status st;

    if (arr == NULL)
        return PR_E_NOMEM;
    for (r = 0; r < n; r++) {
        cJSON *o = cJSON_CreateObject();
        if (o == NULL || !cJSON_AddItemToArray(arr, o))
            goto nomem;
        for (c = 0; c < t->n_cols; c++) {
            const struct pr_col *col = t->cols[c];
            char buf[64];
            cJSON *v =
                is_run_col(col)
                    ? cJSON_CreateString(raw_cell(t, r, col, buf, sizeof(buf)))
                    : cJSON_Duplicate(pr_sget_path(t->rows[r], col->key), 1);
            if (v == NULL)
                v = cJSON_CreateNull();
            if (v == NULL || !cJSON_AddItemToObject(o, col->id, v))
                goto nomem;
        }
    }
    text = cJSON_Print(arr);
    cJSON_Delete(arr);
    if (text == NULL)
        return PR_E_NOMEM;
    st = pr_buf_adds(out, text);
    if (st == PR_OK)
        st = pr_buf_addc(out, '\n');
    cJSON_free(text);
    return st;
nomem:
    cJSON_Delete(arr);
    return PR_E_NOMEM;
}

/* ---- aligned text that fits the width --------------------------------- */

#define MIN_STR_WIDTH 8 /* narrowest a text column gets to fit --width */
#define SOFT_STR_WIDTH                                                         \
    20 /* other text (family, rule ...) before a column                        \
          goes */
#define NAME_ROOM                                                              \
    40                    /* names keep this much (half a narrower width),     \
                             or 2/5 of the width when more, while a column     \
                             right of them can go */
#define DEFAULT_WIDTH 120 /* when neither -w nor a terminal says */

int
pr_table_term_width(void)
{
    const char *env = getenv("COLUMNS");
    struct winsize ws;
    char *end;
    long v;

    if (env != NULL) {
        v = strtol(env, &end, 10);
        if (end != env && *end == '\0' && v >= 20 && v <= 100000)
            return (int)v;
    }
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
        ws.ws_col >= 20)
        return (int)ws.ws_col;
    return DEFAULT_WIDTH;
}

static int
is_text_col(const struct table *t, size_t c)
{
    return is_text(t->cols[c]->fmt) && !is_run_col(t->cols[c]);
}

static size_t
row_width(const size_t *w, size_t n)
{
    size_t total = 0, c;

    for (c = 0; c < n; c++)
        total += w[c] + (c + 1 < n ? 2 : 0);
    return total;
}

static int
is_name_col(const struct table *t, size_t c)
{
    return t->cols[c]->fmt == PR_FMT_NAME;
}

/* Narrow the first n columns of one sort (names, or other text), widest
 * first, down to `floor` or until the row fits; returns the row width
 * reached. */
static size_t
shrink(const struct table *t, size_t n, size_t *w, size_t width, int names,
       size_t floor)
{
    size_t total = row_width(w, n);

    while (total > width) {
        size_t widest = n, c;

        for (c = 0; c < n; c++) {
            if (is_text_col(t, c) && is_name_col(t, c) == names &&
                w[c] > floor && (widest == n || w[c] > w[widest]))
                widest = c;
        }
        if (widest == n)
            break;
        w[widest]--;
        total--;
    }
    return total;
}

/* Code points the names among the first n columns take. */
static size_t
names_width(const struct table *t, const size_t *w, size_t n)
{
    size_t c, sum = 0;

    for (c = 0; c < n; c++)
        if (is_name_col(t, c))
            sum += w[c];
    return sum;
}

/* Fit `width` (issue #32: the name column is what a table is read by, so
 * it is never squeezed while numbers keep their width).  Other text
 * columns narrow to 20 characters; then columns go from the right (never
 * a name, never the first) until the names get NAME_ROOM characters
 * (half of a width under 80) or 2/5 of the width (or all they need),
 * the width being what the job, worker and span columns leave (half
 * as much again for two names, a kernel and its operator); the names take
 * whatever room the columns left leave.  Only when no column can go do names
 * narrow below that, to 8, then other text to 8, and then columns go
 * regardless. Returns how many columns are shown.  The names' share grows with
 * the width, so a wider terminal never shows a name cut shorter for lack of
 * room. */
static size_t
fit_width(const struct table *t, size_t *w, size_t width)
{
    size_t n = t->n_cols, names, want, room, avail, c, k;

    if (row_width(w, n) <= width)
        return n;
    (void)shrink(t, n, w, width, 0, SOFT_STR_WIDTH);
    names = names_width(t, w, n);
    for (c = 0, avail = width; c < n && is_run_col(t->cols[c]); c++)
        avail = avail > w[c] + 2 ? avail - w[c] - 2 : 0;
    room = avail / 2 < NAME_ROOM ? avail / 2 : NAME_ROOM;
    if (avail * 2 / 5 > room)
        room = avail * 2 / 5;
    for (c = 0, k = 0; c < n; c++)
        k += is_name_col(t, c);
    if (k > 1) /* a kernel and its operator: half as much again */
        room += room / 2;
    want = names < room ? names : room;
    if (want > width)
        want = width;
    while (n > 1 && !is_name_col(t, n - 1) && names_width(t, w, n - 1) > 0 &&
           row_width(w, n) - names + want > width)
        n--;
    (void)shrink(t, n, w, width, 1, MIN_STR_WIDTH);
    (void)shrink(t, n, w, width, 0, MIN_STR_WIDTH);
    while (n > 1 && row_width(w, n) > width)
        n--;
    return n;
}

/* One aligned cell: text shortened to the column (names by the name
 * shortener, other text by its middle), padded to w code points. */
static enum pr_status
put_cell(struct pr_buf *out, const char *s, const struct pr_col *c, size_t w,
         int last)
{
    char buf[PR_SHORTEN_CAP(512)];
    size_t pad, width = w < 512 ? w : 512;

    if (pr_shorten_width(s) > width)
        s = c->fmt == PR_FMT_NAME
                ? pr_shorten(s, width, buf, sizeof(buf))
                : pr_shorten_middle(s, width, buf, sizeof(buf));
    pad = w > pr_shorten_width(s) ? w - pr_shorten_width(s) : 0;
    if (!is_text(c->fmt) && pr_buf_printf(out, "%*s", (int)pad, "") != PR_OK)
        return PR_E_NOMEM;
    if (pr_buf_adds(out, s) != PR_OK)
        return PR_E_NOMEM;
    if (is_text(c->fmt) && !last &&
        pr_buf_printf(out, "%*s", (int)pad, "") != PR_OK)
        return PR_E_NOMEM;
    return last ? PR_OK : pr_buf_adds(out, "  ");
}

/* Prints text (ASCII) in lines of at most width bytes, breaking at
 * spaces; a word longer than the width gets a line of its own. */
static enum pr_status
put_wrapped(struct pr_buf *out, const char *s, size_t width)
{
    while (*s) {
        size_t len = strlen(s), end = len, brk;

        if (len > width) {
            for (brk = width; brk > 0 && s[brk] != ' '; brk--)
                ;
            if (brk == 0)
                brk = strcspn(s, " ");
            end = brk;
        }
        if (pr_buf_printf(out, "%.*s\n", (int)end, s) != PR_OK)
            return PR_E_NOMEM;
        s += end;
        while (*s == ' ')
            s++;
    }
    return PR_OK;
}

/* "(3 more columns: host_total, tc_self, tc_total; widen with -w or pick
 * with -c)", wrapped at spaces to the width: a cut note would hide the
 * names of the columns it is there to name. */
static enum pr_status
left_out(const struct table *t, size_t shown, size_t width, struct pr_buf *out)
{
    char line[512];
    size_t at, c;

    at = (size_t)snprintf(line, sizeof(line),
                          "(%zu more column%s:", t->n_cols - shown,
                          t->n_cols - shown > 1 ? "s" : "");
    for (c = shown; c < t->n_cols && at < sizeof(line); c++)
        at += (size_t)snprintf(line + at, sizeof(line) - at, "%s %s",
                               c > shown ? "," : "", t->cols[c]->id);
    if (at < sizeof(line))
        snprintf(line + at, sizeof(line) - at, "; %s)",
                 t->hint != NULL ? t->hint : "widen with -w or pick with -c");
    return put_wrapped(out, line, width);
}

/* Spaces the label of row r is indented by in a tree (2 a level, at
 * most 16), 0 elsewhere. */
static size_t
indent_of(const struct table *t, size_t r, const struct pr_col *c)
{
    double d;

    if (!t->tree || c != label_col(t->kind))
        return 0;
    d = pr_sget_num(t->rows[r], t->kind->depth);
    return d > 0 ? 2 * (size_t)fmin(d, 8) : 0;
}

/* Code points a label of row r has in column c, w wide: less its
 * indent where emit_text indents it. */
static size_t
label_room(const struct table *t, size_t r, size_t c, size_t w)
{
    size_t in = indent_of(t, r, t->cols[c]);

    return in > 0 && in + 4 < w ? w - in : w;
}

/* A tree's labels (module paths): pr_shorten_labels per room (rows
 * indented alike), each told apart from every label of the column. */
static enum pr_status
label_forms(const struct table *t, size_t n, size_t c, size_t w,
            const char **names, char **forms)
{
    const char **order = malloc(n * sizeof(*order));
    char **got = malloc(n * sizeof(*got));
    size_t *who = malloc(n * sizeof(*who));
    unsigned char *done = calloc(n, 1);
    size_t r, j, k, m;
    enum pr_status st = PR_OK;

    if (order == NULL || got == NULL || who == NULL || done == NULL)
        st = PR_E_NOMEM;
    for (r = 0; r < n; r++)
        forms[r] = NULL;
    for (r = 0; r < n && st == PR_OK; r++) {
        size_t room = label_room(t, r, c, w);
        if (done[r])
            continue;
        for (j = r, k = 0; j < n; j++)
            if (!done[j] && label_room(t, j, c, w) == room)
                done[j] = 2, order[k] = names[j], who[k++] = j;
        for (j = 0, m = k; j < n; j++)
            if (done[j] != 2)
                order[m++] = names[j];
        if (pr_shorten_labels(order, n, k, room, got, 1) != 0) {
            st = PR_E_NOMEM;
            break;
        }
        for (j = 0; j < k; j++) {
            forms[who[j]] = got[j];
            done[who[j]] = 1;
        }
    }
    if (st != PR_OK)
        pr_shorten_free(forms, n);
    free(order);
    free(got);
    free(who);
    free(done);
    return st;
}

/* An operator-like name: "ns::name" with no template or argument list. */
static int
plain_qualified(const char *s)
{
    return strstr(s, "::") != NULL && strpbrk(s, "<>() ") == NULL;
}

/* One rule for every row (review 25u #10: at 80 columns rows 1-4 read
 * "cudnn_convolution_backward_weight", row 5 "aten::cudnn_convolution"):
 * where the shortener dropped a plain operator name's namespace, its
 * rows are cut in the middle instead, namespace kept, when that keeps
 * every form distinct; else the shortener's forms stay. */
static enum pr_status
keep_namespaces(const char **names, size_t n, size_t w, char **forms)
{
    char **alt;
    size_t r, q;
    int any = 0, ok = 1;

    for (r = 0; r < n; r++)
        any |= plain_qualified(names[r]) &&
               strncmp(forms[r], names[r],
                       (size_t)(strstr(names[r], "::") - names[r]) + 2) != 0;
    if (!any || n > 4096)
        return PR_OK;
    alt = calloc(n, sizeof(*alt));
    if (alt == NULL)
        return PR_E_NOMEM;
    for (r = 0; r < n && ok; r++) {
        char buf[PR_SHORTEN_CAP(512)];

        alt[r] = strdup(plain_qualified(names[r])
                            ? pr_shorten_middle(names[r], w < 512 ? w : 512,
                                                buf, sizeof(buf))
                            : forms[r]);
        ok = alt[r] != NULL;
    }
    for (r = 0; r < n && ok == 1; r++)
        for (q = r + 1; q < n && ok == 1; q++)
            if (strcmp(alt[r], alt[q]) == 0 && strcmp(names[r], names[q]) != 0)
                ok = 2; /* two names would read alike */
    if (ok == 1)
        for (r = 0; r < n; r++) {
            free(forms[r]);
            forms[r] = alt[r];
            alt[r] = NULL;
        }
    for (r = 0; r < n; r++)
        free(alt[r]);
    free(alt);
    return ok == 0 ? PR_E_NOMEM : PR_OK;
}

/* The shown forms of column c's names in rows [0, n), w code points
 * wide: two different names never read alike (issue #32); a tree's
 * indented labels (module paths) keep their leaf (label_forms).  *forms
 * NULL when there are no rows. */
static enum pr_status
name_forms(const struct table *t, size_t n, size_t c, size_t w, char ***forms)
{
    const char **names;
    size_t r;
    char v[64];
    int labels = t->tree && t->cols[c] == label_col(t->kind);

    *forms = NULL;
    if (n == 0)
        return PR_OK;
    names = malloc(n * sizeof(*names));
    *forms = malloc(n * sizeof(**forms));
    if (names == NULL || *forms == NULL) {
        free(names);
        free(*forms);
        *forms = NULL;
        return PR_E_NOMEM;
    }
    for (r = 0; r < n; r++)
        names[r] = text_cell(t, r, t->cols[c], v, sizeof(v));
    if (labels ? label_forms(t, n, c, w, names, *forms) != PR_OK
               : pr_shorten_distinct(names, n, w, *forms) != 0) {
        free(names);
        free(*forms);
        *forms = NULL;
        return PR_E_NOMEM;
    }
    if (!labels && keep_namespaces(names, n, w, *forms) != PR_OK) {
        pr_shorten_free(*forms, n);
        free(names);
        free(*forms);
        *forms = NULL;
        return PR_E_NOMEM;
    }
    free(names);
    return PR_OK;
}

/* The last column, prose, gets what the others leave of the width (at
 * least SOFT_STR_WIDTH): its text wraps instead of being cut. */
static void
wrap_room(const struct table *t, size_t *w, size_t width)
{
    size_t last = t->n_cols - 1, others = row_width(w, last) + 2;
    size_t room =
        width > others + SOFT_STR_WIDTH ? width - others : SOFT_STR_WIDTH;

    if (t->n_cols > 1 && w[last] > room)
        w[last] = room;
}

/* Prose in lines of at most w code points, breaking at spaces (a longer
 * word alone on its line), each line after the first indented to the
 * column's start. */
static enum pr_status
put_prose(struct pr_buf *out, const char *s, size_t indent, size_t w)
{
    int first = 1;

    while (*s != '\0') {
        size_t len = strlen(s), end = len, brk;

        if (pr_shorten_width(s) > w) {
            for (brk = 0, end = 0; brk < len; brk++) {
                if (s[brk] == ' ') {
                    char part[1024];
                    size_t k = brk < sizeof(part) ? brk : sizeof(part) - 1;
                    memcpy(part, s, k);
                    part[k] = '\0';
                    if (pr_shorten_width(part) > w)
                        break;
                    end = brk;
                }
            }
            if (end == 0)
                end = strcspn(s, " ");
        }
        if ((!first && pr_buf_printf(out, "\n%*s", (int)indent, "") != PR_OK) ||
            pr_buf_printf(out, "%.*s", (int)end, s) != PR_OK)
            return PR_E_NOMEM;
        first = 0;
        s += end;
        while (*s == ' ')
            s++;
    }
    return PR_OK;
}

/* Every row of rows [0, n) holds the same value in run column c. */
static int
one_value(const struct table *t, size_t n, const struct pr_col *c)
{
    char a[64], b[64];

    for (size_t r = 1; r < n; r++)
        if (strcmp(raw_cell(t, 0, c, a, sizeof(a)),
                   raw_cell(t, r, c, b, sizeof(b))) != 0)
            return 0;
    return n > 0;
}

/* The terminal's table leaves out a worker or span column that holds one
 * value on every row and says it once above the table instead (review
 * 25u #10: "worker0" on every row took 9 of 80 columns); *tt is t with
 * the columns kept. */
static enum pr_status
drop_one_value_cols(const struct table *t, size_t n, struct table *tt,
                    struct pr_buf *out)
{
    size_t c, k = 0, dropped = 0;
    char v[64];

    *tt = *t;
    for (c = 0; c < t->n_cols; c++) {
        const struct pr_col *col = t->cols[c];

        if ((col == &worker_col || col == &span_col) && t->n_cols > 2 &&
            one_value(t, n, col)) {
            if (pr_buf_printf(out, "%s%s %s", dropped ? ", " : "",
                              col == &worker_col ? "Worker" : "Span",
                              raw_cell(t, 0, col, v, sizeof(v))) != PR_OK)
                return PR_E_NOMEM;
            dropped++;
            continue;
        }
        tt->cols[k++] = col;
    }
    tt->n_cols = k;
    if (dropped > 0 && pr_buf_adds(out, " (every row)\n") != PR_OK)
        return PR_E_NOMEM;
    return PR_OK;
}

/* Whether column c's text wraps onto continuation lines instead of being
 * cut in its middle (review 25u #10: a finding's name and evidence,
 * the only words in its row, read "Input …al path"): other text, not a
 * name (names have their shortener) nor a run column. */
static int
wraps(const struct table *t, size_t c)
{
    return is_text_col(t, c) && !is_name_col(t, c);
}

/* Whether text is a numbered label, one word that ends in its number
 * ("ProfilerStep#5", "Iteration_12"): the number is what tells its rows
 * apart, so a narrow column keeps its end on one line ("…Step#5")
 * instead of wrapping or cutting it ("Pro…ep#5", user review 25u #10). */
static int
numbered_label(const char *s)
{
    size_t n = strlen(s);

    return n > 0 && s[n - 1] >= '0' && s[n - 1] <= '9' &&
           strchr(s, ' ') == NULL;
}

/* A numbered label in at most w code points: "…" and its end, from where
 * a part of it starts ("…Step#5", not "…rStep#5") when that keeps its
 * number; into buf (cap bytes). */
static const char *
label_tail(const char *s, size_t w, char *buf, size_t cap)
{
    size_t len = strlen(s), width = pr_shorten_width(s), t = 0, k;

    if (width <= w || w < 2 || cap < 8)
        return s;
    for (k = width - (w - 1); k > 0; t++) /* skip width - (w - 1) points */
        k -= ((unsigned char)s[t + 1] & 0xC0) != 0x80;
    for (k = t; k < len && !(s[k] >= '0' && s[k] <= '9'); k++)
        if (k > 0 && (strchr("#_.:/-", s[k - 1]) != NULL ||
                      (s[k] >= 'A' && s[k] <= 'Z' && s[k - 1] >= 'a' &&
                       s[k - 1] <= 'z')))
            break; /* a part starts here: "Step#5" of "rStep#5" */
    if (k < len && !(s[k] >= '0' && s[k] <= '9'))
        t = k;
    snprintf(buf, cap, "\xE2\x80\xA6%s", s + t);
    return buf;
}

/* The part of s that starts a line of at most w code points: up to the
 * last space that fits (a longer word is cut at w); *next is where the
 * next line starts.  Returns the part's length in bytes. */
static size_t
line_part(const char *s, size_t w, const char **next)
{
    size_t len = strlen(s), end = 0, soft = 0, i, cp = 0;
    size_t hard = len;

    for (i = 0; i < len; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (cp == w) {
                hard = i;
                break;
            }
            cp++;
        }
        if (s[i] == ' ')
            end = i;
        /* a word longer than the line breaks after an identifier's
           separator, not inside a name (review 27 #9: "DataLoade / r") */
        else if (i > 0 && strchr("._#(:/,>", s[i]) != NULL)
            soft = i + 1;
    }
    if (i == len) { /* the rest fits */
        *next = s + len;
        return len;
    }
    if (end == 0)
        end = soft > 0 && soft < hard ? soft : hard;
    *next = s + end;
    while (**next == ' ')
        (*next)++;
    return end;
}

/* Spans by number where the table does not fit: a span column of long
 * ids (a trace's file-name stamp, tb_resnet50's "1623143089861", 13
 * columns of 80 beside an Evidence column wrapped to 19) shows each span
 * as its number, 1, 2, ... in the summary's order of runs (by span), and
 * a line above the table names them (span 1 = 1623143089861), as the
 * terminal's run headings name the span.  Column c of t is the span column,
 * w[c] its width; *labels (owned by the caller, NULL when the column stays)
 * replaces t->spans.  PR_E_NOMEM. */
#define SPAN_SHORT 6 /* a span id this long or longer is numbered */
static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static enum pr_status
number_spans(struct table *t, size_t n, size_t c, size_t *w, size_t width,
             const char ***labels, struct pr_buf *out)
{
    const char **seen, **lab;
    char(*num)[24];
    size_t r, k, d = 0;
    enum pr_status st = PR_OK;

    *labels = NULL;
    if (row_width(w, t->n_cols) <= width || w[c] < SPAN_SHORT || n == 0)
        return PR_OK;
    lab = malloc(n * sizeof(*lab) + n * sizeof(*seen) + n * sizeof(*num));
    if (lab == NULL)
        return PR_E_NOMEM;
    seen = (const char **)(lab + n);
    num = (char(*)[24])(seen + n);
    for (r = 0; r < n; r++) {
        for (k = 0; k < d && strcmp(seen[k], t->spans[r]) != 0; k++)
            ;
        if (k == d)
            seen[d++] = t->spans[r];
    }
    qsort(seen, d, sizeof(*seen), cmp_str);
    for (k = 0; k < d; k++)
        snprintf(num[k], sizeof(num[k]), "%zu", k + 1);
    for (r = 0; r < n; r++) {
        for (k = 0; k < d && strcmp(seen[k], t->spans[r]) != 0; k++)
            ;
        lab[r] = num[k];
    }
    for (k = 0; k < d && st == PR_OK; k++)
        st = pr_buf_printf(out, "%s %zu = %s%s", k ? ", span" : "Span", k + 1,
                           seen[k][0] ? seen[k] : "(none)",
                           k + 1 == d ? "\n" : "");
    if (st != PR_OK) {
        free(lab);
        return st;
    }
    t->spans = lab;
    *labels = lab;
    w[c] = pr_shorten_width(span_col.label);
    for (r = 0; r < n; r++)
        if (strlen(lab[r]) > w[c])
            w[c] = strlen(lab[r]);
    return PR_OK;
}

static enum pr_status
emit_text(const struct table *t0, size_t n, int width, struct pr_buf *out)
{
    size_t w[MAX_COLS + 1], r, c, shown;
    char v[64], **forms[MAX_COLS + 3] = {NULL};
    enum pr_status st = PR_OK;
    struct table tt;
    const struct table *t = &tt;
    const char *rest[MAX_COLS + 3] = {NULL};
    char keep[MAX_COLS + 3][1024]; /* a wrapped cell's text */
    const char **span_labels = NULL;

    if (drop_one_value_cols(t0, n, &tt, out) != PR_OK)
        return PR_E_NOMEM;
    if (width <= 0)
        width = pr_table_term_width();
    for (c = 0; c < t->n_cols; c++) {
        w[c] = pr_shorten_width(t->cols[c]->label);
        for (r = 0; r < n; r++) {
            size_t cw =
                pr_shorten_width(text_cell(t, r, t->cols[c], v, sizeof(v))) +
                indent_of(t, r, t->cols[c]);
            if (cw > w[c])
                w[c] = cw;
        }
    }
    for (c = 0; c < t->n_cols && st == PR_OK; c++)
        if (t->cols[c] == &span_col)
            st = number_spans(&tt, n, c, w, (size_t)width, &span_labels, out);
    if (st != PR_OK)
        return st;
    if (t->wrap_last)
        wrap_room(t, w, (size_t)width);
    shown = fit_width(t, w, (size_t)width);
    for (c = 0; c < shown && st == PR_OK; c++)
        if (t->cols[c]->fmt == PR_FMT_NAME)
            st = name_forms(t, n, c, w[c], &forms[c]);
    for (r = 0; r <= n && st == PR_OK; r++) {
        for (c = 0; c < shown && st == PR_OK; c++) {
            const struct pr_col *col = t->cols[c];
            size_t in = r == 0 ? 0 : indent_of(t, r - 1, col);
            if (in > 0 && in + 4 < w[c])
                st = pr_buf_printf(out, "%*s", (int)in, "");
            else
                in = 0;
            if (st == PR_OK && r > 0 && t->wrap_last && c + 1 == t->n_cols &&
                shown == t->n_cols)
                st = put_prose(out, text_cell(t, r - 1, col, v, sizeof(v)),
                               row_width(w, c) + 2, w[c]);
            else if (st == PR_OK && r > 0 && wraps(t, c) &&
                     numbered_label(text_cell(t, r - 1, col, v, sizeof(v)))) {
                char tail[PR_SHORTEN_CAP(512)];
                st = put_cell(out,
                              label_tail(text_cell(t, r - 1, col, v, sizeof(v)),
                                         w[c] - in, tail, sizeof(tail)),
                              col, w[c] - in, c + 1 == shown);
            } else if (st == PR_OK && r > 0 && wraps(t, c) &&
                       pr_shorten_width(text_cell(t, r - 1, col, v,
                                                  sizeof(v))) > w[c] - in) {
                /* its first line here, the rest on continuation lines */
                char part[1024];
                const char *cell = keep[c];
                size_t k;

                snprintf(keep[c], sizeof(keep[c]), "%s",
                         text_cell(t, r - 1, col, v, sizeof(v)));
                k = line_part(cell, w[c] - in, &rest[c]);

                snprintf(part, sizeof(part), "%.*s", (int)k, cell);
                st = put_cell(out, part, col, w[c] - in, c + 1 == shown);
            } else if (st == PR_OK)
                st = put_cell(out,
                              r == 0 ? col->label
                              : forms[c]
                                  ? forms[c][r - 1]
                                  : text_cell(t, r - 1, col, v, sizeof(v)),
                              col, w[c] - in, c + 1 == shown);
        }
        if (st == PR_OK)
            st = pr_buf_addc(out, '\n');
        /* continuation lines of the row's wrapped cells */
        while (st == PR_OK && r > 0) {
            int more = 0;

            for (c = 0; c < shown; c++)
                more |= rest[c] != NULL && *rest[c] != '\0';
            if (!more)
                break;
            for (c = 0; c < shown && st == PR_OK; c++) {
                char part[1024] = "";

                if (rest[c] != NULL && *rest[c] != '\0') {
                    const char *from = rest[c];
                    size_t k = line_part(from, w[c], &rest[c]);
                    snprintf(part, sizeof(part), "%.*s", (int)k, from);
                }
                st = put_cell(out, part, t->cols[c], w[c], c + 1 == shown);
            }
            if (st == PR_OK)
                st = pr_buf_addc(out, '\n');
        }
        for (c = 0; c < shown; c++)
            rest[c] = NULL;
    }
    if (st == PR_OK && shown < t->n_cols)
        st = left_out(t, shown, (size_t)width, out);
    for (c = 0; c < shown; c++) {
        pr_shorten_free(forms[c], n);
        free(forms[c]);
    }
    free(span_labels);
    return st;
}

static const struct kind *
find_kind(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strcmp(kinds[i].name, name) == 0)
            return &kinds[i];
    return NULL;
}

/* "unknown --kind", with every kind and the nearest one when near. */
static enum pr_status
unknown_kind(const char *typed, struct pr_error *err)
{
    const char *names[sizeof(kinds) / sizeof(kinds[0])], *near;
    char list[256];
    size_t i, n = sizeof(kinds) / sizeof(kinds[0]), at = 0;

    list[0] = '\0';
    for (i = 0; i < n; i++) {
        names[i] = kinds[i].name;
        if (at < sizeof(list))
            at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
                                   i ? ", " : "", kinds[i].name);
    }
    near = pr_nearest(typed, names, n, strlen(typed) / 3 + 2);
    if (near != NULL)
        return pr_error_set(err, PR_E_USAGE,
                            "table: unknown --kind '%s'; did you mean '%s'? "
                            "(one of: %s)",
                            typed, near, list);
    return pr_error_set(err, PR_E_USAGE,
                        "table: unknown --kind '%s' (one of: %s)", typed, list);
}

static enum pr_status
check_opts(const struct pr_table_opts *o, struct pr_error *err)
{
    if (find_kind(o->kind) == NULL)
        return unknown_kind(o->kind, err);
    if (o->group_by && strcmp(o->group_by, "name") != 0 &&
        strcmp(o->group_by, "shape") != 0 && strcmp(o->group_by, "type") != 0)
        return pr_error_set(err, PR_E_USAGE,
                            "table: --group-by must be name, shape or type");
    if (o->group_by && strcmp(o->kind, "operators") != 0 &&
        strcmp(o->group_by, "name") != 0)
        return pr_error_set(err, PR_E_USAGE,
                            "table: --group-by %s applies to operators only",
                            o->group_by);
    return PR_OK;
}

/* Why a kind has no rows in a trace, and how to record them (issue #32):
 * an empty table is not left to look like a bug. */
static const struct {
    const char *kind, *why, *npu; /* npu: an NPU run's words (issue #30) */
} no_rows_why[] = {
    {"operators",
     "the trace holds no operators (cpu_op events); record them with "
     "torch.profiler's ProfilerActivity.CPU",
     "the export holds no framework operators; record them with "
     "torch_npu.profiler's ProfilerActivity.CPU"},
    {"kernels",
     "the trace holds no device kernels (a CPU-only capture?); record them "
     "with ProfilerActivity.CUDA (or the NPU/XPU activity) in "
     "torch.profiler's activities",
     "the export holds no NPU tasks; record them with ProfilerActivity.NPU "
     "in torch_npu.profiler's activities"},
    {"kernel-calls",
     "the trace holds no device kernels (a CPU-only capture?); record them "
     "with ProfilerActivity.CUDA (or the NPU/XPU activity)",
     "the export holds no NPU tasks; record them with ProfilerActivity.NPU"},
    {"steps",
     "the trace has no step markers; call prof.step() once per iteration "
     "inside torch.profiler's schedule",
     "the export has no steps; call prof.step() once per iteration inside "
     "torch_npu.profiler's schedule"},
    {"memory",
     "the trace holds no memory events; record them with "
     "torch.profiler(profile_memory=True)",
     "the export holds no memory records; record them with "
     "torch_npu.profiler.profile(profile_memory=True) or "
     "mindspore.Profiler(profile_memory=True)"},
    {"modules",
     "the trace holds no module events; record them with "
     "torch.profiler(with_stack=True, with_modules=True)",
     "the export holds no module events; record them with "
     "torch_npu.profiler.profile(with_stack=True, with_modules=True)"},
    {"layers",
     "the trace holds no module events; record them with "
     "torch.profiler(with_stack=True, with_modules=True)",
     "the export holds no module events; record them with "
     "torch_npu.profiler.profile(with_stack=True, with_modules=True)"},
    {"critical-path",
     "no step could be replayed (no steps, or no device work in them)", NULL},
};

/* The line an empty text table prints under its header. */
static enum pr_status
emit_no_rows(const struct table *t, struct pr_buf *out)
{
    size_t i;

    if (t->n_dropped > 0)
        return pr_buf_printf(out,
                             "(no rows: --filter/--min-time left out all "
                             "%zu)\n",
                             t->n_dropped);
    if (t->memtl)
        return pr_buf_adds(out, "(no rows: the input is torch.profiler's raw "
                                "memory timeline, memory by category only; "
                                "the report's Memory timeline section shows "
                                "it)\n");
    for (i = 0; i < sizeof(no_rows_why) / sizeof(no_rows_why[0]); i++)
        if (strcmp(no_rows_why[i].kind, t->kind->name) == 0)
            return pr_buf_printf(out, "(no rows: %s)\n",
                                 t->npu && no_rows_why[i].npu != NULL
                                     ? no_rows_why[i].npu
                                     : no_rows_why[i].why);
    return pr_buf_adds(out, "(no rows)\n");
}

static enum pr_status
emit(struct table *t, const struct pr_table_opts *o, struct pr_buf *out)
{
    size_t n = t->n_rows;
    enum pr_status st;

    if (o->top > 0 && (size_t)o->top < n)
        n = (size_t)o->top;
    if (o->format == PR_TABLE_CSV)
        return emit_csv(t, n, out);
    if (o->format == PR_TABLE_JSON)
        return emit_json(t, n, out);
    st = emit_text(t, n, o->width, out);
    if (st == PR_OK && t->n_rows == 0)
        st = emit_no_rows(t, out);
    return st;
}

/* Each run's task rows its kernel table leaves out (runs[].kernels_note),
 * under the table as the report puts them beside it. */
static enum pr_status
kernels_notes(const cJSON *sum, size_t width, struct pr_buf *out)
{
    const cJSON *run;
    enum pr_status st = PR_OK;

    cJSON_ArrayForEach(run, pr_sget(sum, PR_K_RUNS))
    {
        const char *note = pr_sget_str(run, PR_K_KERNELS_NOTE);
        char *line;
        size_t n;

        if (note == NULL || st != PR_OK)
            continue;
        n = strlen(note) + 128;
        line = malloc(n);
        if (line == NULL)
            return PR_E_NOMEM;
        snprintf(line, n, "(%s: %s)", pr_sget_str_or(run, PR_K_WORKER, "?"),
                 note);
        st = put_wrapped(out, line, width);
        free(line);
    }
    return st;
}

/* Columns, sort key, rows, order, output: the one path every table takes.
 * Rows come from the summary (sum) or from a caller's array (rows). */
static enum pr_status
render(struct table *t, const struct pr_table_opts *o, const cJSON *sum,
       const cJSON *rows, struct pr_buf *out, struct pr_error *err)
{
    cJSON *types = cJSON_CreateObject();
    const char *sort = o->sort ? o->sort : t->kind->sort;
    const struct pr_col *sc = NULL;
    enum pr_status st = PR_OK;

    if (sum == NULL && o->npu && t->kind->cols == call_cols)
        t->kind = &npu_calls_kind; /* an NPU's words (review30a #5) */
    t->time = t->kind->time;
    t->host_only = sum != NULL && pr_fig_host_only(sum);
    /* a CPU run's operators and modules by their host time: their device
     * time is nothing */
    if (t->host_only && t->time != NULL &&
        strncmp(t->time, "device_", 7) == 0) {
        t->time =
            strcmp(t->time, "device_self") == 0 ? "host_self" : "host_total";
        if (o->sort == NULL && sort != NULL && strcmp(sort, "device_self") == 0)
            sort = "host_self";
    }

    if (types == NULL)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK)
        st = pick_columns(t, o, err);
    if (st == PR_OK && sort != NULL) {
        sc = find_col(t->kind, sort, strlen(sort));
        if (sc == NULL)
            st = bad_key(t->kind, "--sort", sort, strlen(sort), err);
    }
    if (st == PR_OK &&
        (sum ? collect(t, sum, o, types) : collect_rows(t, rows, o)) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK && o->columns == NULL &&
        strcmp(t->kind->name, "critical-path") == 0)
        cp_columns(t, o->format == PR_TABLE_TEXT);
    if (st == PR_OK && sum != NULL)
        t->memtl = pr_fig_memtl_only(sum);
    if (st == PR_OK && (sum != NULL ? pr_fig_summary_is_npu(sum) : o->npu)) {
        t->npu = 1;
        npu_columns(t);
    } else if (st == PR_OK && sum != NULL &&
               pr_fig_summary_units(sum) != PR_UNITS_CUDA) {
        size_t i, n = 0; /* AMD's or MTIA's words (review 28h #12) */

        for (i = 0; i < t->n_cols; i++)
            if ((t->cols[n] = pr_fig_col_units(
                     t->cols[i], pr_fig_summary_units(sum))) != NULL)
                n++;
        t->n_cols = n;
    }
    if (st == PR_OK && sum != NULL && pr_fig_summary_is_mindspore(sum)) {
        size_t i; /* MindSpore's words: its step interval */

        for (i = 0; i < t->n_cols; i++)
            t->cols[i] = pr_fig_col_mindspore(t->cols[i]);
    }
    if (st == PR_OK && sum != NULL && pr_fig_summary_is_capture(sum)) {
        size_t i; /* no steps: the capture's words (review 20 #8) */

        for (i = 0; i < t->n_cols; i++)
            t->cols[i] = pr_fig_col_capture(t->cols[i]);
    }
    if (st == PR_OK && sum != NULL && pr_fig_summary_is_host_step(sum)) {
        size_t i; /* torch_npu's device basis: gains of the host step */

        for (i = 0; i < t->n_cols; i++)
            t->cols[i] = pr_fig_col_host_step(t->cols[i]);
    }
    if (st == PR_OK && t->multi_span) {
        memmove(&t->cols[1], &t->cols[0], t->n_cols * sizeof(t->cols[0]));
        t->cols[0] = &span_col;
        t->n_cols++;
    }
    if (st == PR_OK && t->multi_run) {
        memmove(&t->cols[1], &t->cols[0], t->n_cols * sizeof(t->cols[0]));
        t->cols[0] = &worker_col;
        t->n_cols++;
    }
    if (st == PR_OK && t->multi_job) {
        memmove(&t->cols[1], &t->cols[0], t->n_cols * sizeof(t->cols[0]));
        t->cols[0] = &job_col;
        t->n_cols++;
    }
    t->tree = t->kind->depth != NULL && sort == NULL;
    if (st == PR_OK && sort != NULL &&
        sort_rows(t, sc, is_text(sc->fmt)) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK && emit(t, o, out) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK && sum != NULL && o->format == PR_TABLE_TEXT &&
        strcmp(t->kind->name, "kernels") == 0 &&
        kernels_notes(sum,
                      o->width > 0 ? (size_t)o->width
                                   : (size_t)pr_table_term_width(),
                      out) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    free(t->rows);
    free(t->workers);
    free(t->spans);
    free(t->jobs);
    cJSON_Delete(types);
    return st;
}

const char *
pr_table_member(const struct pr_table_opts *o)
{
    const struct kind *k = find_kind(o->kind);

    if (k == NULL || k->array == NULL)
        return NULL;
    if (o->group_by && strcmp(o->group_by, "shape") == 0)
        return "operators_by_shape";
    return k->array;
}

/* Options checked, t zeroed and its kind found. */
static enum pr_status
begin(struct table *t, const struct pr_table_opts *o, struct pr_error *err)
{
    enum pr_status st = check_opts(o, err);

    memset(t, 0, sizeof(*t));
    if (st == PR_OK)
        t->kind = find_kind(o->kind);
    return st;
}

enum pr_status
pr_table_render(const cJSON *sum, const struct pr_table_opts *o,
                struct pr_buf *out, struct pr_error *err)
{
    struct table t;
    enum pr_status st = begin(&t, o, err);

    if (st != PR_OK)
        return st;
    if (t.kind->array == NULL)
        return pr_error_set(err, PR_E_USAGE,
                            "table: --kind %s reads the traces, not a "
                            "summary",
                            o->kind);
    st = check_job(sum, o->job, err);
    if (st != PR_OK)
        return st;
    return render(&t, o, sum, NULL, out, err);
}

enum pr_status
pr_table_render_rows(const cJSON *rows, const struct pr_table_opts *o,
                     struct pr_buf *out, struct pr_error *err)
{
    struct table t;
    enum pr_status st = begin(&t, o, err);

    if (st != PR_OK)
        return st;
    if (o->job != NULL)
        return pr_error_set(err, PR_E_USAGE,
                            "table: --job works with the kinds a summary "
                            "holds, not --kind %s (give that job's folder "
                            "as --input instead)",
                            o->kind);
    return render(&t, o, NULL, rows, out, err);
}

enum pr_status
pr_table_render_cells(const cJSON *rows, const struct pr_col *cols,
                      size_t n_cols, int width, struct pr_buf *out,
                      struct pr_error *err)
{
    struct table t;
    const cJSON *row;
    size_t c;
    enum pr_status st;

    memset(&t, 0, sizeof(t));
    if (n_cols == 0 || n_cols > MAX_COLS)
        return pr_error_set(err, PR_E_USAGE, "table: %zu columns (1 to %d)",
                            n_cols, MAX_COLS);
    for (c = 0; c < n_cols; c++)
        t.cols[c] = &cols[c];
    t.n_cols = n_cols;
    t.hint = "widen the terminal or set COLUMNS";
    t.wrap_last = cols[n_cols - 1].fmt == PR_FMT_WRAP;
    t.rows = malloc((size_t)(pr_sget_len(rows) + 1) * sizeof(*t.rows));
    if (t.rows == NULL)
        return pr_error_set(err, PR_E_NOMEM, "table: out of memory");
    for (row = cJSON_IsArray(rows) ? rows->child : NULL; row != NULL;
         row = row->next)
        t.rows[t.n_rows++] = row;
    st = emit_text(&t, t.n_rows, width, out);
    free(t.rows);
    return st == PR_OK ? PR_OK
                       : pr_error_set(err, PR_E_NOMEM, "table: out of memory");
}
