/* mindspore_gpu.c - one rank of MindSpore's GPU profiler output (written
 * by DataSaver, MindSpore <= 2.3) into the model.  Operator calls come
 * from op_execute_timestamp (host start in ns, duration in µs), else from
 * the timeline JSON's "Ops" row, else from gpu_op_detail_info's totals;
 * kernels from activity_execute_timestamp with their launch shape and
 * operator from gpu_activity_data, else from the timeline JSON, else from
 * gpu_activity_data's totals; shapes from gpu_framework; steps from
 * step_trace_profiling (10 ns).  Spec: other-producers.md §3.2. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../ascend/ascend_common.h"
#include "../internal.h"
#include "mindspore.h"
#include "profreport/checked.h"

#define OPS_ROW "Ops"
#define CPU_ROW "Host CPU ops"

struct call {
    int64_t ts_ns, ext;
    const char *row; /* static: the host row of the call */
};

/* An operator, by full name ("Default/network/Conv2D-op5"). */
struct op {
    char *full, *type, *shapes; /* owned; type and shapes may be NULL */
    double total_us;            /* gpu_op_detail_info; -1 unknown */
    int64_t occurrences;
    struct call *calls; /* owned, by time once sorted */
    size_t n_calls, cap_calls;
};

/* A kernel, by name (gpu_activity_data). */
struct kern {
    char *name, *op_full; /* owned */
    int64_t stream, occurrences;
    int32_t grid[3], block[3];
    double total_us;
    size_t used; /* calls placed (totals: which op call it joins) */
};

/* Shapes by the operator's short name ("Conv2D-op5", gpu_framework). */
struct shape {
    char *name, *shapes; /* owned */
};

struct ctx {
    const struct pr_ms_unit *u;
    const struct pr_read_opts *o;
    struct pr_ms_builder b;
    struct op *ops;
    size_t n_ops, cap_ops;
    struct kern *kerns;
    size_t n_kerns, cap_kerns;
    struct shape *shapes;
    size_t n_shapes, cap_shapes;
    struct pr_buf scratch;
    int ops_sorted;
    struct steps *steps; /* borrowed: the step trace being read */
};

static char *
dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);

    if (p != NULL) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

static char *
dup_str(const char *s)
{
    return dup_n(s, strlen(s));
}

static const char *
path_of(const struct ctx *c, enum pr_ms_kind k)
{
    return c->u->by_kind[k] ? c->u->by_kind[k]->path : NULL;
}

static uint64_t
max_bytes(const struct ctx *c)
{
    return c->o && c->o->max_input_bytes ? c->o->max_input_bytes
                                         : PR_READ_DEFAULT_MAX;
}

static const char *
short_name(const char *full)
{
    const char *s = strrchr(full, '/');

    return s ? s + 1 : full;
}

/* ------------------------------------------------------------ tables */

static void
ctx_free(struct ctx *c)
{
    size_t i;

    for (i = 0; i < c->n_ops; i++) {
        free(c->ops[i].full);
        free(c->ops[i].type);
        free(c->ops[i].shapes);
        free(c->ops[i].calls);
    }
    for (i = 0; i < c->n_kerns; i++) {
        free(c->kerns[i].name);
        free(c->kerns[i].op_full);
    }
    for (i = 0; i < c->n_shapes; i++) {
        free(c->shapes[i].name);
        free(c->shapes[i].shapes);
    }
    free(c->ops);
    free(c->kerns);
    free(c->shapes);
    pr_buf_free(&c->scratch);
}

static int
cmp_op(const void *a, const void *b)
{
    return strcmp(((const struct op *)a)->full, ((const struct op *)b)->full);
}

static int
cmp_kern(const void *a, const void *b)
{
    return strcmp(((const struct kern *)a)->name,
                  ((const struct kern *)b)->name);
}

static int
cmp_shape(const void *a, const void *b)
{
    return strcmp(((const struct shape *)a)->name,
                  ((const struct shape *)b)->name);
}

static int
cmp_call(const void *a, const void *b)
{
    const struct call *x = a, *y = b;

    if (x->ts_ns != y->ts_ns)
        return x->ts_ns < y->ts_ns ? -1 : 1;
    return x->ext < y->ext ? -1 : x->ext > y->ext;
}

/* Binary search in an array of structs whose first member is the name. */
static void *
find(void *v, size_t n, size_t size, const char *name)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        char *const *key = (char *const *)((char *)v + mid * size);
        int c = strcmp(*key, name);

        if (c == 0)
            return (char *)v + mid * size;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static struct op *
op_find(struct ctx *c, const char *full)
{
    size_t i;

    if (c->ops_sorted)
        return find(c->ops, c->n_ops, sizeof(*c->ops), full);
    for (i = 0; i < c->n_ops; i++)
        if (strcmp(c->ops[i].full, full) == 0)
            return &c->ops[i];
    return NULL;
}

/* The operator of that full name, added when new (the table is sorted
 * again after an addition). */
static struct op *
op_get(struct ctx *c, const char *full)
{
    struct op *p = op_find(c, full);
    const struct shape *s;

    if (p != NULL)
        return p;
    if (pr_grow((void **)&c->ops, &c->cap_ops, c->n_ops + 1, sizeof(*c->ops)) !=
        PR_OK)
        return NULL;
    p = &c->ops[c->n_ops];
    memset(p, 0, sizeof(*p));
    p->total_us = -1;
    p->full = dup_str(full);
    if (p->full == NULL)
        return NULL;
    s = find(c->shapes, c->n_shapes, sizeof(*c->shapes), short_name(full));
    if (s && (p->shapes = dup_str(s->shapes)) == NULL) {
        free(p->full);
        return NULL;
    }
    c->n_ops++;
    if (c->ops_sorted && c->n_ops > 1) {
        qsort(c->ops, c->n_ops, sizeof(*c->ops), cmp_op);
        p = find(c->ops, c->n_ops, sizeof(*c->ops), full);
    }
    return p;
}

static void
ops_sort(struct ctx *c)
{
    if (c->n_ops > 1)
        qsort(c->ops, c->n_ops, sizeof(*c->ops), cmp_op);
    c->ops_sorted = 1;
}

/* ------------------------------------------------------------ CSV files */

typedef enum pr_status (*row_fn)(struct ctx *c, struct pr_csv *csv,
                                 const int *cols, struct pr_error *err);

/* Each row of a CSV file; cols[i] is the column of names[i] (blanks around
 * header names allowed); a name with a leading '?' is optional. */
static enum pr_status
each_row(struct ctx *c, const char *path, const char *const *names,
         size_t n_names, row_fn fn, struct pr_error *err)
{
    struct pr_csv *csv = NULL;
    int cols[16], got = 1;
    size_t i;
    enum pr_status st = pr_csv_open(path, max_bytes(c), &csv, err);

    for (i = 0; i < n_names && st == PR_OK; i++) {
        cols[i] = pr_ms_csv_col(csv, names[i] + (names[i][0] == '?'));
        if (cols[i] < 0 && names[i][0] != '?')
            st = pr_error_set(err, PR_E_FORMAT, "no column %s", names[i]);
    }
    if (st == PR_OK)
        pr_csv_skip_ragged(csv, n_names > 0 ? cols[0] : -1);
    while (st == PR_OK && (st = pr_csv_next(csv, &got, err)) == PR_OK && got) {
        c->b.t->n_trace_events++;
        st = fn(c, csv, cols, err);
    }
    if (st == PR_OK && pr_csv_note_ragged(csv, c->b.t, path) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    return pr_csv_done(csv, path, st, err);
}

static const char *
fld(struct pr_csv *csv, int col)
{
    return col >= 0 ? pr_csv_field(csv, col, NULL) : "";
}

/* A count and a total in µs, both >= 0. */
static int
count_total(const char *count, const char *total, int64_t *n, double *us)
{
    size_t len = strlen(count);

    while (len > 0 && (count[len - 1] == ' ' || count[len - 1] == '\t'))
        len--;
    while (len > 0 && (*count == ' ' || *count == '\t')) {
        count++;
        len--;
    }
    return pr_fld_parse_int64(count, len, n) && *n >= 0 && *n <= 10000000 &&
           pr_ms_num(total, us) && *us >= 0;
}

/* gpu_op_detail_info: cols type, full name, occurrences, total µs. */
static enum pr_status
op_detail_row(struct ctx *c, struct pr_csv *csv, const int *cols,
              struct pr_error *err)
{
    const char *type = fld(csv, cols[0]);
    struct op *p = op_get(c, fld(csv, cols[1]));

    if (p == NULL || (type[0] && !p->type && !(p->type = dup_str(type))))
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (!count_total(fld(csv, cols[2]), fld(csv, cols[3]), &p->occurrences,
                     &p->total_us))
        return pr_error_set(err, PR_E_FORMAT,
                            "%.80s: occurrences or total time is not a "
                            "number >= 0",
                            p->full);
    return PR_OK;
}

static enum pr_status
read_op_detail(struct ctx *c, struct pr_error *err)
{
    static const char *const names[] = {"op_type", "op_full_name",
                                        "op_occurrences", "op_total_time(us)"};
    static const char *const types[] = {"op_type", "op_type",
                                        "type_occurrences", "total_time(us)"};
    const char *detail = path_of(c, PR_MS_GPU_OP_DETAIL);

    /* the per-type table stands in for the operators when nothing else
       names them: each type is then one operator */
    if (detail)
        return each_row(c, detail, names, 4, op_detail_row, err);
    if (path_of(c, PR_MS_GPU_OP_TYPE) && !path_of(c, PR_MS_GPU_OP_TS) &&
        !path_of(c, PR_MS_GPU_TIMELINE))
        return each_row(c, path_of(c, PR_MS_GPU_OP_TYPE), types, 4,
                        op_detail_row, err);
    return PR_OK;
}

/* "8,1,1" (quotes already gone) into three positive numbers. */
static int
dim3(const char *s, int32_t out[3])
{
    int64_t v;
    int k;

    for (k = 0; k < 3; k++) {
        size_t n;
        while (*s == ' ' || *s == '"')
            s++;
        n = strcspn(s, ",\"");
        while (n > 0 && s[n - 1] == ' ')
            n--;
        if (!pr_fld_parse_int64(s, n, &v) || v <= 0 || v > INT32_MAX)
            return 0;
        out[k] = (int32_t)v;
        s += strcspn(s, ",");
        if (k < 2 && *s++ != ',')
            return 0;
    }
    return 1;
}

/* gpu_activity_data: name, op_full_name, stream_id, block_dim, grid_dim,
 * occurrences, total_duration(us). */
static enum pr_status
activity_row(struct ctx *c, struct pr_csv *csv, const int *cols,
             struct pr_error *err)
{
    struct kern *k;
    const char *stream = fld(csv, cols[2]);

    if (pr_grow((void **)&c->kerns, &c->cap_kerns, c->n_kerns + 1,
                sizeof(*c->kerns)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    k = &c->kerns[c->n_kerns];
    memset(k, 0, sizeof(*k));
    k->name = dup_str(fld(csv, cols[0]));
    k->op_full = dup_str(fld(csv, cols[1]));
    if (k->name == NULL || k->op_full == NULL) {
        free(k->name);
        free(k->op_full);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    c->n_kerns++;
    if (!pr_fld_parse_int64(stream, strlen(stream), &k->stream) ||
        k->stream < 0 || !dim3(fld(csv, cols[3]), k->block) ||
        !dim3(fld(csv, cols[4]), k->grid) ||
        !count_total(fld(csv, cols[5]), fld(csv, cols[6]), &k->occurrences,
                     &k->total_us))
        return pr_error_set(err, PR_E_FORMAT,
                            "%.80s: stream_id, block_dim, grid_dim, "
                            "occurrences or total_duration is not valid",
                            k->name);
    return PR_OK;
}

static enum pr_status
read_activity(struct ctx *c, struct pr_error *err)
{
    static const char *const names[] = {
        "name",     "op_full_name", "stream_id",         "block_dim",
        "grid_dim", "occurrences",  "total_duration(us)"};
    const char *path = path_of(c, PR_MS_GPU_ACTIVITY);
    enum pr_status st;

    if (path == NULL)
        return PR_OK;
    st = each_row(c, path, names, 7, activity_row, err);
    if (st == PR_OK && c->n_kerns > 1)
        qsort(c->kerns, c->n_kerns, sizeof(*c->kerns), cmp_kern);
    return st;
}

/* ------------------------------------------------------------ text files */

typedef enum pr_status (*line_fn)(struct ctx *c, const char *s, size_t n,
                                  struct pr_error *err);

/* Each non-empty line of a text file (the whole file is read, within the
 * input cap), without its line end. */
static enum pr_status
each_line(struct ctx *c, const char *path, line_fn fn, struct pr_error *err)
{
    struct pr_source *src = NULL;
    struct pr_buf text;
    const char *p;
    size_t n, i = 0, line = 0;
    enum pr_status st = pr_source_open(path, max_bytes(c), 0, &src, err);

    pr_buf_init(&text, 0);
    while (st == PR_OK && (st = pr_source_next(src, &p, &n, err)) == PR_OK &&
           n > 0)
        if (pr_buf_add(&text, p, n) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    pr_source_close(src);
    while (st == PR_OK && i < text.len) {
        size_t e = i, len;
        while (e < text.len && text.data[e] != '\n')
            e++;
        line++;
        len = e - i;
        while (len > 0 && (text.data[i + len - 1] == '\r' ||
                           text.data[i + len - 1] == ' '))
            len--;
        if (len > 0) {
            c->b.t->n_trace_events++;
            st = fn(c, text.data + i, len, err);
            if (st != PR_OK && st != PR_E_NOMEM)
                pr_error_prefix(err, "line %zu: ", line);
        }
        i = e + 1;
    }
    pr_buf_free(&text);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

/* The next token of s up to one of `stops` (or the end); *pos moves past
 * the stop. */
static size_t
token(const char *s, size_t n, size_t *pos, const char *stops, const char **out)
{
    size_t b = *pos, e = b;

    while (e < n && strchr(stops, s[e]) == NULL)
        e++;
    *out = s + b;
    *pos = e < n ? e + 1 : n;
    return e - b;
}

/* gpu_framework: "op_type;op_name;graph_id;input_0:<shape>;input_1:..."
 * with a shape as "32,1", "[32, 1]" or empty.  Shapes go by op_name. */
static enum pr_status
framework_line(struct ctx *c, const char *s, size_t n, struct pr_error *err)
{
    struct pr_buf dims;
    struct shape *sh;
    const char *t, *name;
    size_t pos = 0, len, name_len, inputs = 0;
    int ok = 1;

    (void)token(s, n, &pos, ";", &t);
    name_len = token(s, n, &pos, ";", &name);
    (void)token(s, n, &pos, ";", &t);
    pr_buf_init(&dims, 1 << 20);
    while (pos < n && ok) {
        const char *colon;
        len = token(s, n, &pos, ";", &t);
        colon = memchr(t, ':', len);
        if (colon == NULL || strncmp(t, "input_", 6) != 0)
            continue; /* outputs and attributes are not inputs */
        ok = inputs++ == 0 || pr_buf_addc(&dims, ';') == PR_OK;
        for (t = colon + 1; ok && t < s + pos && *t != ';'; t++)
            if (*t != '[' && *t != ']' && *t != ' ' && *t != '(' && *t != ')')
                ok = pr_buf_addc(&dims, *t) == PR_OK;
    }
    pr_buf_reset(&c->scratch);
    if (!ok || name_len == 0 ||
        pr_ascend_shapes(dims.data ? dims.data : "", dims.len, &c->scratch) <=
            0) {
        pr_buf_free(&dims);
        return ok ? PR_OK : pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    pr_buf_free(&dims);
    if (pr_grow((void **)&c->shapes, &c->cap_shapes, c->n_shapes + 1,
                sizeof(*c->shapes)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    sh = &c->shapes[c->n_shapes];
    sh->name = dup_n(name, name_len);
    sh->shapes = dup_str(c->scratch.data);
    if (sh->name == NULL || sh->shapes == NULL) {
        free(sh->name);
        free(sh->shapes);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    c->n_shapes++;
    return PR_OK;
}

static enum pr_status
read_framework(struct ctx *c, struct pr_error *err)
{
    const char *path = path_of(c, PR_MS_GPU_FRAMEWORK);
    enum pr_status st;

    if (path == NULL)
        return PR_OK;
    st = each_line(c, path, framework_line, err);
    if (st == PR_OK && c->n_shapes > 1)
        qsort(c->shapes, c->n_shapes, sizeof(*c->shapes), cmp_shape);
    return st;
}

/* ------------------------------------------------------------ op calls */

static enum pr_status
add_call(struct ctx *c, struct op *p, const char *row, int64_t ts, int64_t dur,
         struct pr_error *err)
{
    struct pr_ms_call k;
    char type[256];
    int64_t ext;
    enum pr_status st;

    if (p->type)
        snprintf(type, sizeof(type), "%s", p->type);
    else
        pr_ms_op_type(p->full, type, sizeof(type));
    k.op = type;
    k.shapes = p->shapes;
    k.row = row;
    k.ts_ns = ts;
    k.dur_ns = dur;
    st = pr_ms_add_op(&c->b, &k, &ext, err);
    if (st != PR_OK)
        return st;
    if (pr_grow((void **)&p->calls, &p->cap_calls, p->n_calls + 1,
                sizeof(*p->calls)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    p->calls[p->n_calls].ts_ns = ts;
    p->calls[p->n_calls].ext = ext;
    p->calls[p->n_calls].row = row;
    p->n_calls++;
    return PR_OK;
}

/* op_execute_timestamp: "<full>;Ops;<start ns>,<dur us> ..." (newer
 * GpuOps; HostCpuOps calls carry a thread id as a third number). */
static enum pr_status
op_ts_line(struct ctx *c, const char *s, size_t n, struct pr_error *err)
{
    const char *full, *kind, *t;
    size_t pos = 0, nf = token(s, n, &pos, ";", &full), nk, len;
    const char *row;
    struct op *p;
    char *name;

    nk = token(s, n, &pos, ";", &kind);
    if (nf == 0 || pos >= n || nk == 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "not \"<operator>;Ops;<start>,<duration> ...\"");
    row = nk == 10 && memcmp(kind, "HostCpuOps", 10) == 0 ? CPU_ROW : OPS_ROW;
    name = dup_n(full, nf);
    p = name ? op_get(c, name) : NULL;
    free(name);
    if (p == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    while (pos < n) {
        int64_t ts, dur;
        const char *d, *comma;
        size_t a, m;
        enum pr_status st;
        len = token(s, n, &pos, " ", &t);
        if (len == 0)
            continue;
        a = strcspn(t, ",");
        d = t + a + 1;
        m = a < len ? len - a - 1 : 0;
        comma = m > 0 ? memchr(d, ',', m) : NULL;
        if (comma != NULL)
            m = (size_t)(comma - d); /* a HostCpuOps thread id follows */
        if (a >= len || !pr_ms_dec_ns(t, a, 0, &ts) ||
            !pr_ms_dec_ns(d, m, 3, &dur))
            return pr_error_set(err, PR_E_FORMAT,
                                "\"%.*s\" is not <start ns>,<duration us>",
                                (int)(len < 60 ? len : 60), t);
        st = add_call(c, p, row, ts, dur, err);
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

/* Only totals: each operator's calls laid end to end on the host from 0,
 * so that counts and times hold while no time of day is claimed. */
static enum pr_status
op_totals(struct ctx *c, struct pr_error *err)
{
    int64_t cursor = 0, calls = 0;
    size_t i;

    for (i = 0; i < c->n_ops; i++) {
        struct op *p = &c->ops[i];
        int64_t j, dur;
        if (p->occurrences <= 0 || p->total_us < 0)
            continue;
        if ((calls += p->occurrences) > 10000000)
            return pr_error_set(err, PR_E_LIMIT,
                                "more than 10000000 operator calls");
        dur = (int64_t)(p->total_us * 1e3 / (double)p->occurrences + 0.5);
        for (j = 0; j < p->occurrences; j++) {
            enum pr_status st = add_call(c, p, OPS_ROW, cursor, dur, err);
            if (st != PR_OK)
                return st;
            cursor = pr_sat_add_i64(cursor, dur);
        }
    }
    return PR_OK;
}

/* ------------------------------------------------------------ kernels */

/* The call of p a kernel belongs to: the nth (totals, nth >= 0), or the
 * last that started at or before the kernel (an op launches its kernels
 * while it runs; they start after it), else the first. */
static const struct call *
pick_call(const struct op *p, int64_t ts, int64_t nth)
{
    size_t lo = 0, hi;

    if (p->n_calls == 0)
        return NULL;
    if (nth >= 0)
        return &p->calls[(size_t)nth % p->n_calls];
    hi = p->n_calls;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (p->calls[mid].ts_ns <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return &p->calls[lo > 0 ? lo - 1 : 0];
}

struct kcall {
    const char *name, *op_full; /* op_full may be NULL */
    int64_t stream, ts_ns, dur_ns, nth;
    const int32_t *grid, *block; /* NULL: unknown */
};

static enum pr_status
add_kernel(struct ctx *c, const struct kcall *kc, struct pr_error *err)
{
    const struct op *p =
        kc->op_full && kc->op_full[0] ? op_find(c, kc->op_full) : NULL;
    const struct call *cl = p ? pick_call(p, kc->ts_ns, kc->nth) : NULL;
    struct pr_ms_task k;

    memset(&k, 0, sizeof(k));
    k.name = kc->name;
    k.kind = PR_KIND_DEVICE_TASK;
    k.unit = PR_UNIT_UNKNOWN;
    k.stream = kc->stream;
    k.ts_ns = kc->ts_ns;
    k.dur_ns = kc->dur_ns;
    k.flops = -1;
    k.bytes = -1;
    if (kc->grid)
        memcpy(k.grid, kc->grid, sizeof(k.grid));
    if (kc->block)
        memcpy(k.block, kc->block, sizeof(k.block));
    if (cl == NULL)
        return pr_ms_add_task(&c->b, &k, err);
    return pr_ms_add_kernel(&c->b, &k, cl->ext, cl->ts_ns, cl->row, err);
}

/* activity_execute_timestamp: "<kernel>;<stream>;<start ns>;<dur us>"; the
 * kernel name may hold ';', so the numbers are taken from the right. */
static enum pr_status
kernel_ts_line(struct ctx *c, const char *s, size_t n, struct pr_error *err)
{
    size_t cut[3], k = 0, i = n;
    const struct kern *kn;
    struct kcall kc;
    char *name;
    enum pr_status st;

    while (i > 0 && k < 3)
        if (s[--i] == ';')
            cut[k++] = i;
    memset(&kc, 0, sizeof(kc));
    kc.nth = -1;
    if (k < 3 || cut[2] == 0 ||
        !pr_fld_parse_int64(s + cut[2] + 1, cut[1] - cut[2] - 1, &kc.stream) ||
        kc.stream < 0 ||
        !pr_ms_dec_ns(s + cut[1] + 1, cut[0] - cut[1] - 1, 0, &kc.ts_ns) ||
        !pr_ms_dec_ns(s + cut[0] + 1, n - cut[0] - 1, 3, &kc.dur_ns))
        return pr_error_set(err, PR_E_FORMAT,
                            "not \"<kernel>;<stream>;<start ns>;<duration "
                            "us>\"");
    name = dup_n(s, cut[2]);
    if (name == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    kn = find(c->kerns, c->n_kerns, sizeof(*c->kerns), name);
    kc.name = name;
    kc.op_full = kn ? kn->op_full : NULL;
    kc.grid = kn ? kn->grid : NULL;
    kc.block = kn ? kn->block : NULL;
    st = add_kernel(c, &kc, err);
    free(name);
    return st;
}

/* Only gpu_activity_data's totals: each kernel's calls laid end to end
 * from 0, the nth joined to its operator's nth call. */
static enum pr_status
kernel_totals(struct ctx *c, struct pr_error *err)
{
    int64_t cursor = 0, calls = 0;
    size_t i;

    for (i = 0; i < c->n_kerns; i++) {
        const struct kern *kn = &c->kerns[i];
        struct kcall kc;
        if (kn->occurrences == 0)
            continue;
        if ((calls += kn->occurrences) > 10000000)
            return pr_error_set(err, PR_E_LIMIT, "more than 10000000 kernels");
        memset(&kc, 0, sizeof(kc));
        kc.name = kn->name;
        kc.op_full = kn->op_full;
        kc.stream = kn->stream;
        kc.grid = kn->grid;
        kc.block = kn->block;
        kc.dur_ns =
            (int64_t)(kn->total_us * 1e3 / (double)kn->occurrences + 0.5);
        for (kc.nth = 0; kc.nth < kn->occurrences; kc.nth++) {
            enum pr_status st;
            kc.ts_ns = cursor;
            st = add_kernel(c, &kc, err);
            if (st != PR_OK)
                return st;
            cursor = pr_sat_add_i64(cursor, kc.dur_ns);
        }
    }
    return PR_OK;
}

/* ------------------------------------------------------------ timeline */

/* gpu_timeline_display: a bare array of "X" events in µs: operators on
 * tid "Ops", kernels on tid "<stream>" with args op_full_name, block_dim,
 * grid_dim.  Pass 0 takes the operators, pass 1 the kernels. */
struct tl {
    struct ctx *c;
    int pass;
};

static const char *
arg_str(const cJSON *args, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static enum pr_status
tl_kernel(struct ctx *c, const cJSON *ev, const char *name, const char *tid,
          int64_t ts, int64_t dur, struct pr_error *err)
{
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
    const char *grid = arg_str(args, "grid_dim");
    const char *block = arg_str(args, "block_dim");
    int32_t g[3], b[3];
    struct kcall kc;

    memset(&kc, 0, sizeof(kc));
    kc.nth = -1;
    if (!pr_fld_parse_int64(tid, strlen(tid), &kc.stream) || kc.stream < 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "tid \"%.40s\" is neither \"Ops\" nor a stream",
                            tid);
    kc.name = name;
    kc.op_full = arg_str(args, "op_full_name");
    kc.grid = grid && dim3(grid, g) ? g : NULL;
    kc.block = block && dim3(block, b) ? b : NULL;
    kc.ts_ns = ts;
    kc.dur_ns = dur;
    return add_kernel(c, &kc, err);
}

static enum pr_status
tl_one(struct tl *x, const cJSON *ev, struct pr_error *err)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(ev, "name");
    const cJSON *tid = cJSON_GetObjectItemCaseSensitive(ev, "tid");
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
    int64_t ts, dur;
    int is_op;
    struct op *p;

    if (!cJSON_IsString(ph) || strcmp(ph->valuestring, "X") != 0)
        return PR_OK;
    if (!cJSON_IsString(name) || !cJSON_IsString(tid) ||
        pr_fld_time_ns(cJSON_GetObjectItemCaseSensitive(ev, "ts"), &ts) ||
        pr_fld_time_ns(cJSON_GetObjectItemCaseSensitive(ev, "dur"), &dur) ||
        dur < 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "an event without name, tid, ts or dur");
    is_op = strcmp(tid->valuestring, OPS_ROW) == 0;
    if (x->pass == 1)
        return is_op ? PR_OK
                     : tl_kernel(x->c, ev, name->valuestring, tid->valuestring,
                                 ts, dur, err);
    if (!is_op)
        return PR_OK;
    p = op_get(x->c, name->valuestring);
    if (p == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return add_call(x->c, p, OPS_ROW, ts, dur, err);
}

static enum pr_status
tl_event(void *ctx, uint64_t index, uint64_t offset, const char *text,
         size_t len, struct pr_error *err)
{
    struct tl *x = ctx;
    cJSON *ev;
    enum pr_status st = pr_json_refuse_nul(text, len, offset, index, err);

    if (st != PR_OK)
        return st;
    errno = 0; /* a failed allocation, not bad text, when ENOMEM */
    ev = cJSON_ParseWithLength(text, len);
    x->c->b.t->n_trace_events += x->pass;
    if (ev == NULL && errno == ENOMEM)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (!cJSON_IsObject(ev)) {
        cJSON_Delete(ev);
        return pr_error_set(
            err, PR_E_FORMAT, "byte %llu: event %llu is not a JSON object",
            (unsigned long long)offset, (unsigned long long)index);
    }
    st = tl_one(x, ev, err);
    cJSON_Delete(ev);
    if (st != PR_OK && st != PR_E_NOMEM)
        pr_error_prefix(err, "event %llu: ", (unsigned long long)index);
    return st;
}

static enum pr_status
read_timeline(struct ctx *c, int pass, struct pr_error *err)
{
    const char *path = path_of(c, PR_MS_GPU_TIMELINE);
    struct tl x = {c, pass};

    return pr_split_path(path, max_bytes(c), tl_event, &x, err);
}

/* ------------------------------------------------------------ steps */

#define MAX_STEPS 1000000

/* step_trace_profiling, DataSaver's form: one line per point, "<op>
 * <start>,<end> <start>,<end> ..." in 10 ns ticks, the lines fp_start,
 * bp_end, iter_end, then custom points.  MindInsight's GPU step trace
 * parser: step 1 runs from fp_start's first start, step n from step n-1's
 * iter_end end, to its own iter_end end.  MindRT's form has one line per
 * step: "<op>,<ns> <op>,<ns> <op>,<ns> <op>,<ns> ..." for iteration start,
 * fp, bp and iteration end. */
struct steps {
    int64_t *fp, *end; /* owned: fp_start starts, iter_end ends */
    size_t n_fp, n_end, cap_fp, cap_end;
    size_t line;
    int per_step; /* MindRT's form */
    int64_t number;
};

static int
tick_pair(const char *t, size_t len, int exp, int64_t *a, int64_t *b)
{
    size_t k = 0;

    while (k < len && t[k] != ',')
        k++;
    if (k >= len)
        return 0;
    if (a != NULL && !pr_ms_dec_ns(t, k, exp, a))
        return 0;
    return pr_ms_dec_ns(t + k + 1, len - k - 1, exp, b);
}

static enum pr_status
push(int64_t **v, size_t *n, size_t *cap, int64_t x, struct pr_error *err)
{
    if (*n >= MAX_STEPS)
        return pr_error_set(err, PR_E_LIMIT, "more than %d steps", MAX_STEPS);
    if (pr_grow((void **)v, cap, *n + 1, sizeof(**v)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    (*v)[(*n)++] = x;
    return PR_OK;
}

/* MindRT: the 1st and 4th "<op>,<ns>" of a line bound one step. */
static enum pr_status
step_line_rt(struct ctx *c, struct steps *s, const char *l, size_t n,
             struct pr_error *err)
{
    int64_t v[4];
    size_t pos = 0, k;

    for (k = 0; k < 4; k++) {
        const char *t;
        size_t len = token(l, n, &pos, " ", &t);
        const char *comma = memchr(t, ',', len);
        if (comma == NULL ||
            !pr_ms_dec_ns(comma + 1, len - (size_t)(comma + 1 - t), 0, &v[k]))
            return pr_error_set(err, PR_E_FORMAT,
                                "not \"<op>,<ns> <op>,<ns> <op>,<ns> "
                                "<op>,<ns>\"");
    }
    return pr_ms_add_step(&c->b, ++s->number, v[0], v[3], err);
}

static enum pr_status
step_line(struct ctx *c, struct steps *s, const char *l, size_t n,
          struct pr_error *err)
{
    size_t pos = 0, which = s->line++;
    const char *t;
    size_t len = token(l, n, &pos, " ", &t);

    if (which == 0)
        s->per_step = memchr(t, ',', len) != NULL;
    if (s->per_step)
        return step_line_rt(c, s, l, n, err);
    if (which != 0 && which != 2)
        return PR_OK; /* bp_end and custom points: not step bounds */
    while (pos < n) {
        int64_t a, b;
        enum pr_status st;
        len = token(l, n, &pos, " ", &t);
        if (len == 0)
            continue;
        if (!tick_pair(t, len, 1, &a, &b) || b < a)
            return pr_error_set(err, PR_E_FORMAT,
                                "\"%.*s\" is not <start>,<end> in 10 ns",
                                (int)(len < 60 ? len : 60), t);
        st = which == 0 ? push(&s->fp, &s->n_fp, &s->cap_fp, a, err)
                        : push(&s->end, &s->n_end, &s->cap_end, b, err);
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

static enum pr_status
step_cb(struct ctx *c, const char *l, size_t n, struct pr_error *err)
{
    return step_line(c, c->steps, l, n, err);
}

static enum pr_status
read_steps(struct ctx *c, struct pr_error *err)
{
    const char *path = path_of(c, PR_MS_GPU_STEP_TRACE);
    struct steps s;
    enum pr_status st;
    size_t i;

    if (path == NULL)
        return PR_OK;
    memset(&s, 0, sizeof(s));
    c->steps = &s;
    st = each_line(c, path, step_cb, err);
    c->steps = NULL;
    if (st == PR_OK && !s.per_step &&
        (s.line < 3 || s.n_fp == 0 || s.n_fp != s.n_end))
        st = pr_error_set(err, PR_E_FORMAT,
                          "fp_start and iter_end lines do not hold one "
                          "time per step each");
    for (i = 0; st == PR_OK && !s.per_step && i < s.n_end; i++)
        st = pr_ms_add_step(&c->b, (int64_t)i + 1,
                            i == 0 ? s.fp[0] : s.end[i - 1], s.end[i], err);
    if (st != PR_OK && st != PR_E_NOMEM && s.line > 0 && !s.per_step &&
        strncmp(err->msg, path, strlen(path)) != 0)
        pr_error_prefix(err, "%s: ", path);
    c->b.t->device_steps = st == PR_OK && (s.n_end > 0 || s.number > 0);
    free(s.fp);
    free(s.end);
    return st;
}

/* ------------------------------------------------------------ entry */

static enum pr_status
read_calls(struct ctx *c, int *by_total, struct pr_error *err)
{
    *by_total = 0;
    if (path_of(c, PR_MS_GPU_OP_TS))
        return each_line(c, path_of(c, PR_MS_GPU_OP_TS), op_ts_line, err);
    if (path_of(c, PR_MS_GPU_TIMELINE))
        return read_timeline(c, 0, err);
    *by_total = 1;
    return op_totals(c, err);
}

static void
sort_calls(struct ctx *c)
{
    size_t i;

    for (i = 0; i < c->n_ops; i++)
        if (c->ops[i].n_calls > 1)
            qsort(c->ops[i].calls, c->ops[i].n_calls, sizeof(struct call),
                  cmp_call);
}

static enum pr_status
read_kernels(struct ctx *c, int ops_by_total, struct pr_error *err)
{
    if (path_of(c, PR_MS_GPU_KERNEL_TS))
        return each_line(c, path_of(c, PR_MS_GPU_KERNEL_TS), kernel_ts_line,
                         err);
    if (path_of(c, PR_MS_GPU_TIMELINE))
        return read_timeline(c, 1, err);
    /* totals on both sides: kernel n joins op call n; else by time */
    return ops_by_total ? kernel_totals(c, err) : PR_OK;
}

static enum pr_status
read_all(struct ctx *c, struct pr_error *err)
{
    int by_total = 0;
    enum pr_status st = read_framework(c, err);

    if (st == PR_OK)
        st = read_op_detail(c, err);
    ops_sort(c);
    if (st == PR_OK)
        st = read_activity(c, err);
    if (st == PR_OK)
        st = read_calls(c, &by_total, err);
    sort_calls(c);
    if (st == PR_OK)
        st = read_kernels(c, by_total, err);
    if (st == PR_OK)
        st = read_steps(c, err);
    return st;
}

enum pr_status
pr_ms_gpu_read(const struct pr_ms_unit *u, const struct pr_read_opts *o,
               struct pr_trace *t, struct pr_error *err)
{
    struct ctx c;
    enum pr_status st;

    memset(&c, 0, sizeof(c));
    c.u = u;
    c.o = o;
    pr_buf_init(&c.scratch, 1 << 20);
    st = pr_ms_builder_init(&c.b, t, u->rank >= 0 ? u->rank : 0, "mindspore",
                            err);
    if (st == PR_OK) {
        /* MindSpore's GPU profiler records through CUPTI (its
           ccsrc/profiler/device/gpu/gpu_profiling.h): an NVIDIA GPU, so
           the kernels' math is told as CUDA cores and tensor cores */
        t->device_kind = pr_strtab_intern(t->strs, "gpu", 3);
        t->vendor = pr_strtab_intern(t->strs, "nvidia", 6);
        if (t->device_kind == PR_STR_NONE || t->vendor == PR_STR_NONE)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    if (st == PR_OK)
        st = read_all(&c, err);
    if (st == PR_OK && u->by_kind[PR_MS_CPU_OP_DETAIL] &&
        pr_trace_add_skip(t, u->by_kind[PR_MS_CPU_OP_DETAIL]->path,
                          "CPU operator totals are not read (the GPU "
                          "operators and kernels are)") != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK && c.n_shapes > 0 &&
        pr_trace_add_gap(t, "no_dtypes", 0,
                         "MindSpore's GPU profiler records input shapes "
                         "but not their dtypes") != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    ctx_free(&c);
    return st;
}
