/* table.c - tables for the terminal, CSV and JSON, drawn from the summary
 * or, for kernel-calls, from row arrays the caller built from the traces.
 * Column catalogues per kind live here; the input trees are only read. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/sget.h"
#include "profreport/table.h"

enum col_type { C_STR, C_INT, C_US, C_PCT, C_NUM, C_BOOL, C_BYTES };

struct col {
    const char *key;    /* user-facing key (-c, --sort) */
    const char *path;   /* key in the row object ("a.b" nests) */
    const char *header;
    enum col_type type;
    int deflt;          /* shown by default */
};

struct kind {
    const char *name;
    const char *array;  /* runs[].<array>; NULL = not in the summary */
    const struct col *cols;
    const char *sort;   /* default sort key, NULL = keep order */
    const char *label;  /* the row's name column (filter, tie-breaks) */
    const char *time;   /* column --min-time compares; NULL = none */
};

static const struct col op_cols[] = {
    {"name", "name", "Operator", C_STR, 1},
    {"shape", "input_shapes", "Input shapes", C_STR, 0},
    {"types", "input_types", "Input types", C_STR, 0},
    {"calls", "calls", "Calls", C_INT, 1},
    {"device_self", "device_self_us", "Dev self us", C_US, 1},
    {"device_total", "device_total_us", "Dev total us", C_US, 1},
    {"host_self", "host_self_us", "Host self us", C_US, 1},
    {"host_total", "host_total_us", "Host total us", C_US, 1},
    {"tc_eligible", "tc_eligible", "TC elig", C_BOOL, 0},
    {"tc_self", "tc_self_pct", "TC self %", C_PCT, 1},
    {"tc_total", "tc_total_pct", "TC total %", C_PCT, 0},
    {"flops", "flops", "FLOPs", C_NUM, 0},
    {"bytes", "bytes", "Bytes", C_BYTES, 0},
    {"tflops", "achieved_tflops", "TFLOP/s", C_NUM, 0},
    {"gbps", "achieved_gbps", "GB/s", C_NUM, 0},
    {"intensity", "arithmetic_intensity", "FLOP/B", C_NUM, 0},
    {"bound", "bound", "Bound", C_STR, 0},
    {"roofline", "roofline_pct", "Roofline %", C_PCT, 0},
    {NULL, NULL, NULL, C_STR, 0},
};

static const struct col kernel_cols[] = {
    {"name", "name", "Kernel", C_STR, 1},
    {"op", "operator", "Operator", C_STR, 0},
    {"calls", "calls", "Calls", C_INT, 1},
    {"total", "total_us", "Total us", C_US, 1},
    {"mean", "mean_us", "Mean us", C_US, 1},
    {"min", "min_us", "Min us", C_US, 0},
    {"max", "max_us", "Max us", C_US, 1},
    {"blocks_per_sm", "mean_blocks_per_sm", "Blk/SM", C_NUM, 0},
    {"occupancy", "mean_est_achieved_occupancy_pct", "Occ %", C_PCT, 1},
    {"tc", "tensor_cores_used", "TC", C_BOOL, 1},
    {"tc_rule", "tensor_cores_rule", "TC rule", C_STR, 0},
    {NULL, NULL, NULL, C_STR, 0},
};

static const struct col step_cols[] = {
    {"name", "name", "Step", C_STR, 1},
    {"duration", "duration_us", "Duration us", C_US, 1},
    {"kernel", "breakdown_us.kernel", "Kernel", C_US, 1},
    {"memcpy", "breakdown_us.memcpy", "Memcpy", C_US, 1},
    {"memset", "breakdown_us.memset", "Memset", C_US, 1},
    {"communication", "breakdown_us.communication", "Comm", C_US, 1},
    {"runtime", "breakdown_us.runtime", "Runtime", C_US, 1},
    {"dataloader", "breakdown_us.dataloader", "DataLoader", C_US, 1},
    {"cpu_exec", "breakdown_us.cpu_exec", "CPU exec", C_US, 1},
    {"other", "breakdown_us.other", "Other", C_US, 1},
    {NULL, NULL, NULL, C_STR, 0},
};

static const struct col mem_cols[] = {
    {"device", "device", "Device", C_STR, 1},
    {"name", "name", "Operator", C_STR, 1},
    {"calls", "calls", "Calls", C_INT, 1},
    {"size_increase", "size_increase_bytes", "Size incr", C_BYTES, 1},
    {"self_size_increase", "self_size_increase_bytes", "Self incr", C_BYTES, 1},
    {"allocations", "allocation_count", "Allocs", C_INT, 1},
    {"self_allocations", "self_allocation_count", "Self allocs", C_INT, 1},
    {"allocation_size", "allocation_size_bytes", "Alloc size", C_BYTES, 1},
    {"self_allocation_size", "self_allocation_size_bytes", "Self alloc size",
     C_BYTES, 1},
    {NULL, NULL, NULL, C_STR, 0},
};

/* kernel-calls rows come from pr_kernel_calls_build() (kernel_calls.h),
 * one per launch in time order, so the default order is time. */
static const struct col call_cols[] = {
    {"kernel", "kernel", "Kernel", C_STR, 1},
    {"op", "op", "Operator", C_STR, 1},
    {"direction", "direction", "Dir", C_STR, 1},
    {"seq", "seq", "Seq", C_INT, 0},
    {"sub", "sub", "Sub", C_INT, 0},
    {"shape", "input_shapes", "Input shapes", C_STR, 0},
    {"types", "input_types", "Input types", C_STR, 0},
    {"start", "start_us", "Start us", C_US, 0},
    {"duration", "duration_us", "Dur us", C_US, 1},
    {"tc", "tc", "TC", C_BOOL, 1},
    {"tc_rule", "tc_rule", "TC rule", C_STR, 0},
    {"grid", "grid", "Grid", C_STR, 1},
    {"block", "block", "Block", C_STR, 1},
    {"stream", "stream", "Stream", C_INT, 0},
    {"device", "device", "Device", C_INT, 0},
    {"flops", "flops", "FLOPs", C_NUM, 0},
    {"bytes", "bytes", "Bytes", C_BYTES, 0},
    {NULL, NULL, NULL, C_STR, 0},
};

static const struct kind kinds[] = {
    {"operators", "operators", op_cols, "device_self", "name", "device_self"},
    {"kernels", "kernels", kernel_cols, "total", "name", "total"},
    {"kernel-calls", NULL, call_cols, NULL, "op", "duration"},
    {"steps", "steps", step_cols, NULL, "name", NULL},
    {"memory", "memory.operators", mem_cols, "size_increase", "name",
     "size_increase"},
};

#define MAX_COLS 24

struct table {
    const struct kind *kind;
    const struct col *cols[MAX_COLS + 1]; /* +1 for the worker column */
    size_t n_cols;
    const cJSON **rows;
    const char **workers; /* worker of each row */
    size_t n_rows, cap;
    int multi_run;
};

static double
num_of(const cJSON *row, const struct col *c)
{
    const cJSON *v = pr_sget_path(row, c->path);

    if (cJSON_IsNumber(v))
        return v->valuedouble;
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v);
    return -INFINITY; /* nulls sort last in descending order */
}

static const char *
str_of(const cJSON *row, const struct col *c)
{
    const cJSON *v = pr_sget_path(row, c->path);

    return cJSON_IsString(v) ? v->valuestring : "";
}

static const struct col *
find_col(const struct kind *k, const char *key, size_t len)
{
    const struct col *c;

    for (c = k->cols; c->key != NULL; c++)
        if (strlen(c->key) == len && strncmp(c->key, key, len) == 0)
            return c;
    return NULL;
}

static enum pr_status
bad_key(const struct kind *k, const char *what, const char *key, size_t len,
        struct pr_error *err)
{
    char names[220];
    size_t off = 0;
    const struct col *c;

    names[0] = '\0';
    for (c = k->cols; c->key != NULL && off + 1 < sizeof(names); c++) {
        int n = snprintf(names + off, sizeof(names) - off, "%s%s",
                         off ? "," : "", c->key);
        if (n < 0)
            break;
        off += (size_t)n;
    }
    return pr_error_set(err, PR_E_USAGE, "%s: unknown column '%.*s' (one of: %s)",
                        what, (int)len, key, names);
}

static enum pr_status
pick_columns(struct table *t, const struct pr_table_opts *o,
             struct pr_error *err)
{
    const struct col *c;
    const char *p = o->columns;
    int by_shape = o->group_by && strcmp(o->group_by, "shape") == 0;

    t->n_cols = 0;
    if (p == NULL) {
        for (c = t->kind->cols; c->key != NULL && t->n_cols < MAX_COLS; c++)
            if (c->deflt || (by_shape && strcmp(c->key, "shape") == 0))
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

static enum pr_status
add_row(struct table *t, const cJSON *row, const char *worker)
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
        t->cap = ncap;
    }
    t->rows[t->n_rows] = row;
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

    op_type(str_of(row, &op_cols[0]), type, sizeof(type));
    g = cJSON_GetObjectItemCaseSensitive(groups, type);
    if (g == NULL) {
        g = cJSON_AddObjectToObject(groups, type);
        if (g == NULL || cJSON_AddStringToObject(g, "name", type) == NULL)
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

static const struct col *
label_col(const struct kind *k)
{
    return find_col(k, k->label, strlen(k->label));
}

/* --filter matches the first column (device for memory, kernel for
 * kernel-calls) or the label (the name; the op for kernel-calls). */
static int
keep(const struct table *t, const struct pr_table_opts *o, const cJSON *row)
{
    const struct col *time;

    if (o->filter && strstr(str_of(row, &t->kind->cols[0]), o->filter) ==
                         NULL &&
        strstr(str_of(row, label_col(t->kind)), o->filter) == NULL)
        return 0;
    if (o->min_time_us > 0 && t->kind->time != NULL) {
        time = find_col(t->kind, t->kind->time, strlen(t->kind->time));
        if (num_of(row, time) < o->min_time_us)
            return 0;
    }
    return 1;
}

static enum pr_status
collect(struct table *t, const cJSON *sum, const struct pr_table_opts *o,
        cJSON *types)
{
    const cJSON *run, *row;
    const char *array = t->kind->array;
    int by_shape = o->group_by && strcmp(o->group_by, "shape") == 0;
    int by_type = o->group_by && strcmp(o->group_by, "type") == 0;

    if (by_shape)
        array = "operators_by_shape";
    t->multi_run =
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(sum, "runs")) > 1;
    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(sum, "runs"))
    {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(run, "worker");
        const char *worker = cJSON_IsString(w) ? w->valuestring : "";
        cJSON_ArrayForEach(row, pr_sget_path(run, array))
        {
            if (!keep(t, o, row))
                continue;
            if (by_type) {
                if (merge_type(types, row) != PR_OK)
                    return PR_E_NOMEM;
            } else if (add_row(t, row, worker) != PR_OK) {
                return PR_E_NOMEM;
            }
        }
    }
    if (by_type) {
        cJSON_ArrayForEach(row, types)
        {
            if (add_row(t, row, "") != PR_OK)
                return PR_E_NOMEM;
        }
    }
    return PR_OK;
}

/* Rows of one array; a "worker" key on the rows names their trace, and a
 * worker column appears when they name more than one. */
static enum pr_status
collect_rows(struct table *t, const cJSON *rows, const struct pr_table_opts *o)
{
    const cJSON *row;

    cJSON_ArrayForEach(row, rows)
    {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(row, "worker");
        const char *worker = cJSON_IsString(w) ? w->valuestring : "";

        if (!keep(t, o, row))
            continue;
        if (add_row(t, row, worker) != PR_OK)
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
    const struct col *col;
    int asc;
};

static int
cmp_rows(const struct sort_ctx *x, size_t a, size_t b)
{
    const struct table *t = x->t;
    const struct col *name = label_col(t->kind);
    int c;

    if (x->col != NULL && x->col->type == C_STR) {
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
    return a < b ? -1 : (a > b);
}

static int
cmp_idx(const void *a, const void *b, void *ctx)
{
    return cmp_rows(ctx, *(const size_t *)a, *(const size_t *)b);
}

static enum pr_status
sort_rows(struct table *t, const struct col *col, int asc)
{
    struct sort_ctx ctx = {t, col, asc};
    size_t *idx, i;
    const cJSON **rows;
    const char **workers;

    if (t->n_rows < 2)
        return PR_OK;
    idx = malloc(t->n_rows * sizeof(*idx));
    rows = malloc(t->n_rows * sizeof(*rows));
    workers = malloc(t->n_rows * sizeof(*workers));
    if (idx == NULL || rows == NULL || workers == NULL) {
        free(idx);
        free(rows);
        free(workers);
        return PR_E_NOMEM;
    }
    for (i = 0; i < t->n_rows; i++)
        idx[i] = i;
    qsort_r(idx, t->n_rows, sizeof(*idx), cmp_idx, &ctx);
    for (i = 0; i < t->n_rows; i++) {
        rows[i] = t->rows[idx[i]];
        workers[i] = t->workers[idx[i]];
    }
    free(t->rows);
    free(t->workers);
    t->rows = rows;
    t->workers = workers;
    free(idx);
    return PR_OK;
}

static void
fmt_cell(const cJSON *row, const struct col *c, char *out, size_t cap)
{
    const cJSON *v = pr_sget_path(row, c->path);

    if (c->type == C_STR) {
        snprintf(out, cap, "%s", cJSON_IsString(v) ? v->valuestring : "");
        return;
    }
    if (cJSON_IsBool(v)) {
        snprintf(out, cap, "%s", cJSON_IsTrue(v) ? "yes" : "no");
        return;
    }
    if (!cJSON_IsNumber(v)) {
        snprintf(out, cap, "-");
        return;
    }
    switch (c->type) {
    case C_INT:
    case C_BYTES:
        snprintf(out, cap, "%.0f", v->valuedouble);
        break;
    case C_US:
        snprintf(out, cap, "%.1f", v->valuedouble);
        break;
    case C_PCT:
        snprintf(out, cap, "%.2f", v->valuedouble);
        break;
    default:
        snprintf(out, cap, "%.4g", v->valuedouble);
        break;
    }
    if (strcmp(out, "-0.0") == 0 || strcmp(out, "-0") == 0 ||
        strcmp(out, "-0.00") == 0)
        memmove(out, out + 1, strlen(out));
}

static const struct col worker_col = {"worker", "", "Worker", C_STR, 1};

static void
cell(const struct table *t, size_t r, const struct col *c, char *out,
     size_t cap)
{
    if (c == &worker_col)
        snprintf(out, cap, "%s", t->workers[r]);
    else
        fmt_cell(t->rows[r], c, out, cap);
}

static enum pr_status
csv_field(struct pr_buf *out, const char *s)
{
    enum pr_status st = PR_OK;

    if (strpbrk(s, ",\"\n\r") == NULL)
        return pr_buf_adds(out, s);
    st = pr_buf_addc(out, '"');
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
    char v[4096];
    size_t r, c;
    enum pr_status st = PR_OK;

    for (c = 0; c < t->n_cols && st == PR_OK; c++) {
        if (c)
            st = pr_buf_addc(out, ',');
        if (st == PR_OK)
            st = pr_buf_adds(out, t->cols[c]->key);
    }
    if (st == PR_OK)
        st = pr_buf_addc(out, '\n');
    for (r = 0; r < n && st == PR_OK; r++) {
        for (c = 0; c < t->n_cols && st == PR_OK; c++) {
            cell(t, r, t->cols[c], v, sizeof(v));
            if (c)
                st = pr_buf_addc(out, ',');
            if (st == PR_OK)
                st = csv_field(out, strcmp(v, "-") == 0 ? "" : v);
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
            const struct col *col = t->cols[c];
            cJSON *v = col == &worker_col
                           ? cJSON_CreateString(t->workers[r])
                           : cJSON_Duplicate(pr_sget_path(t->rows[r], col->path),
                                             1);
            if (v == NULL)
                v = cJSON_CreateNull();
            if (v == NULL || !cJSON_AddItemToObject(o, col->key, v))
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

/* Copy at most `w` bytes of s, eliding the middle with "..." and never
 * cutting a UTF-8 sequence. */
static void
fit(const char *s, size_t w, char *out, size_t cap)
{
    size_t n = strlen(s), head, tail;

    if (n <= w || w < 8) {
        snprintf(out, cap, "%.*s", (int)(w < n ? w : n), s);
        return;
    }
    head = (w - 3) / 2;
    tail = w - 3 - head;
    while (head > 0 && ((unsigned char)s[head] & 0xC0) == 0x80)
        head--;
    while (tail > 0 && ((unsigned char)s[n - tail] & 0xC0) == 0x80)
        tail--;
    snprintf(out, cap, "%.*s...%s", (int)head, s, s + n - tail);
}

#define MIN_STR_WIDTH 8 /* narrowest a text column gets to fit --width */
#define SOFT_STR_WIDTH 20 /* ... unless even that cannot make it fit */

static int
is_text_col(const struct table *t, size_t c)
{
    return t->cols[c]->type == C_STR && t->cols[c] != &worker_col;
}

/* Narrow text columns, widest first, down to `floor` or until the row
 * fits; returns the row width reached. */
static size_t
shrink(const struct table *t, size_t *w, size_t total, size_t width,
       size_t floor)
{
    while (total > width) {
        size_t widest = t->n_cols, c;

        for (c = 0; c < t->n_cols; c++) {
            if (is_text_col(t, c) && w[c] > floor &&
                (widest == t->n_cols || w[c] > w[widest]))
                widest = c;
        }
        if (widest == t->n_cols)
            break;
        w[widest]--;
        total--;
    }
    return total;
}

/* Fit `width` by narrowing text columns (numbers are never cut): to 20
 * characters first, to 8 only when that is enough to fit. */
static void
fit_width(const struct table *t, size_t *w, size_t width)
{
    size_t total = 0, least = 0, c;

    for (c = 0; c < t->n_cols; c++) {
        size_t sep = c + 1 < t->n_cols ? 2 : 0;

        total += w[c] + sep;
        least += (is_text_col(t, c) && w[c] > MIN_STR_WIDTH ? MIN_STR_WIDTH
                                                            : w[c]) +
                 sep;
    }
    total = shrink(t, w, total, width, SOFT_STR_WIDTH);
    if (total > width && least <= width)
        (void)shrink(t, w, total, width, MIN_STR_WIDTH);
}

static enum pr_status
emit_text(const struct table *t, size_t n, int width, struct pr_buf *out)
{
    size_t w[MAX_COLS + 1], r, c;
    char v[4096], f[4096];
    enum pr_status st = PR_OK;

    for (c = 0; c < t->n_cols; c++) {
        w[c] = strlen(t->cols[c]->header);
        for (r = 0; r < n; r++) {
            cell(t, r, t->cols[c], v, sizeof(v));
            if (strlen(v) > w[c])
                w[c] = strlen(v);
        }
    }
    fit_width(t, w, (size_t)width);
    for (r = 0; r <= n && st == PR_OK; r++) {
        for (c = 0; c < t->n_cols && st == PR_OK; c++) {
            const struct col *col = t->cols[c];
            if (r == 0)
                snprintf(v, sizeof(v), "%s", col->header);
            else
                cell(t, r - 1, col, v, sizeof(v));
            fit(v, w[c], f, sizeof(f));
            st = pr_buf_printf(out, col->type == C_STR ? "%-*s" : "%*s",
                               (int)w[c], f);
            if (st == PR_OK && c + 1 < t->n_cols)
                st = pr_buf_adds(out, "  ");
        }
        if (st == PR_OK)
            st = pr_buf_addc(out, '\n');
    }
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

static enum pr_status
check_opts(const struct pr_table_opts *o, struct pr_error *err)
{
    if (find_kind(o->kind) == NULL)
        return pr_error_set(err, PR_E_USAGE,
                            "table: unknown --kind '%s' (operators, kernels, "
                            "kernel-calls, memory, steps)",
                            o->kind);
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

static enum pr_status
emit(struct table *t, const struct pr_table_opts *o, struct pr_buf *out)
{
    size_t n = t->n_rows;

    if (o->top > 0 && (size_t)o->top < n)
        n = (size_t)o->top;
    if (o->format == PR_TABLE_CSV)
        return emit_csv(t, n, out);
    if (o->format == PR_TABLE_JSON)
        return emit_json(t, n, out);
    return emit_text(t, n, o->width > 0 ? o->width : 120, out);
}

/* Columns, sort key, rows, order, output: the one path every table takes.
 * Rows come from the summary (sum) or from a caller's array (rows). */
static enum pr_status
render(struct table *t, const struct pr_table_opts *o, const cJSON *sum,
       const cJSON *rows, struct pr_buf *out, struct pr_error *err)
{
    cJSON *types = cJSON_CreateObject();
    const char *sort = o->sort ? o->sort : t->kind->sort;
    const struct col *sc = NULL;
    enum pr_status st = PR_OK;

    if (types == NULL)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK)
        st = pick_columns(t, o, err);
    if (st == PR_OK && sort != NULL) {
        sc = find_col(t->kind, sort, strlen(sort));
        if (sc == NULL)
            st = bad_key(t->kind, "--sort", sort, strlen(sort), err);
    }
    if (st == PR_OK && (sum ? collect(t, sum, o, types)
                            : collect_rows(t, rows, o)) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK && t->multi_run && t->n_cols < MAX_COLS + 1) {
        memmove(&t->cols[1], &t->cols[0], t->n_cols * sizeof(t->cols[0]));
        t->cols[0] = &worker_col;
        t->n_cols++;
    }
    if (st == PR_OK && sort != NULL &&
        sort_rows(t, sc, sc->type == C_STR) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK && emit(t, o, out) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    free(t->rows);
    free(t->workers);
    cJSON_Delete(types);
    return st;
}

enum pr_status
pr_table_render(const cJSON *sum, const struct pr_table_opts *o,
                struct pr_buf *out, struct pr_error *err)
{
    struct table t;
    enum pr_status st = check_opts(o, err);

    if (st != PR_OK)
        return st;
    memset(&t, 0, sizeof(t));
    t.kind = find_kind(o->kind);
    if (t.kind->array == NULL)
        return pr_error_set(err, PR_E_USAGE,
                            "table: --kind %s reads the traces, not a "
                            "summary",
                            o->kind);
    return render(&t, o, sum, NULL, out, err);
}

enum pr_status
pr_table_render_rows(const cJSON *rows, const struct pr_table_opts *o,
                     struct pr_buf *out, struct pr_error *err)
{
    struct table t;
    enum pr_status st = check_opts(o, err);

    if (st != PR_OK)
        return st;
    memset(&t, 0, sizeof(t));
    t.kind = find_kind(o->kind);
    return render(&t, o, NULL, rows, out, err);
}
