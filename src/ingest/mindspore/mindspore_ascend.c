/* mindspore_ascend.c - one rank of MindSpore's legacy Ascend profiler
 * output into the model.  Device tasks come from the timeline rows
 * (output_timeline_data, ms on the device clock) and the AI CPU table, or
 * from the timeline JSON when those are absent; operators get their type,
 * shapes and types from framework_raw's op_info (or the timeline's args)
 * and their measured FLOPs from flops_{r}.txt; steps come from
 * step_trace_raw (10 ns ticks).  Shared spec: other-producers.md §3.3. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../ascend/ascend_common.h"
#include "../internal.h"
#include "mindspore.h"
#include "profreport/checked.h"
#include "profreport/phases.h"

/* What we know of one operator (by full name) before its tasks arrive. */
struct opinfo {
    char *name;        /* owned: the full name */
    char *type;        /* owned or NULL */
    char *shapes;      /* owned or NULL: model shape text */
    char *types;       /* owned or NULL */
    double flops;      /* one call's measured FLOPs; -1 unknown */
    int32_t block_dim; /* framework_raw's block_dim; -1 unknown */
    unsigned char fw;  /* framework_raw names it */
    unsigned char hit; /* a task of the timeline runs it */
};

struct optab {
    struct opinfo *v; /* owned, sorted by name after ops_sort() */
    size_t n, cap;
};

/* One reading: the unit, its options and what it has found so far. */
struct ctx {
    const struct pr_ms_unit *u;
    const struct pr_read_opts *o;
    struct pr_ms_builder b;
    struct optab ops;
    struct pr_buf scratch;
    int64_t origin_ns; /* what the timeline JSON's ts 0 is; 0 unknown */
    int has_origin;
    size_t seg_tasks; /* tasks made of the step trace's segments */
    /* tasks of scoped operators ("Default/..."), and those framework_raw
       names; the first of each kind not in the other, for the note */
    size_t scoped_tasks, fw_tasks;
    char task_eg[256];
};

static char *
dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);

    if (p != NULL)
        memcpy(p, s, n);
    return p;
}

static uint64_t
max_bytes(const struct ctx *c)
{
    return c->o && c->o->max_input_bytes ? c->o->max_input_bytes
                                         : PR_READ_DEFAULT_MAX;
}

static const char *
path_of(const struct ctx *c, enum pr_ms_kind k)
{
    return c->u->by_kind[k] ? c->u->by_kind[k]->path : NULL;
}

/* ------------------------------------------------------------ operators */

static void
ops_free(struct optab *t)
{
    size_t i;

    for (i = 0; i < t->n; i++) {
        free(t->v[i].name);
        free(t->v[i].type);
        free(t->v[i].shapes);
        free(t->v[i].types);
    }
    free(t->v);
}

static struct opinfo *
ops_add(struct optab *t, const char *name)
{
    struct opinfo *p;

    if (pr_grow((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v)) != PR_OK)
        return NULL;
    p = &t->v[t->n];
    memset(p, 0, sizeof(*p));
    p->flops = -1;
    p->block_dim = -1;
    p->name = dup_str(name);
    if (p->name == NULL)
        return NULL;
    t->n++;
    return p;
}

static int
cmp_op(const void *a, const void *b)
{
    return strcmp(((const struct opinfo *)a)->name,
                  ((const struct opinfo *)b)->name);
}

/* Sort by name and fold entries of one name into the first (a flops row
 * and a framework row of the same op). */
static void
ops_sort(struct optab *t)
{
    size_t i, w = 0;

    if (t->n > 1)
        qsort(t->v, t->n, sizeof(*t->v), cmp_op);
    for (i = 0; i < t->n; i++) {
        struct opinfo *x = &t->v[i];

        if (w > 0 && strcmp(t->v[w - 1].name, x->name) == 0) {
            struct opinfo *y = &t->v[w - 1];
#define TAKE(f)                                                                \
    if (y->f == NULL) {                                                        \
        y->f = x->f;                                                           \
        x->f = NULL;                                                           \
    }
            TAKE(type)
            TAKE(shapes)
            TAKE(types)
#undef TAKE
            if (y->block_dim < 0)
                y->block_dim = x->block_dim;
            y->fw |= x->fw;
            y->hit |= x->hit;
            if (y->flops < 0)
                y->flops = x->flops;
            free(x->name);
            free(x->type);
            free(x->shapes);
            free(x->types);
            continue;
        }
        t->v[w++] = *x;
    }
    t->n = w;
}

static struct opinfo *
ops_find(const struct optab *t, const char *name)
{
    size_t lo = 0, hi = t->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(t->v[mid].name, name);

        if (c == 0)
            return &t->v[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* ------------------------------------------------------------ op_info */

/* Formats whose shapes are the logical ones; the tiled device formats
 * (NC1HWC0, FRACTAL_Z, ...) must never feed a FLOP formula. */
static int
is_logical_format(const char *f)
{
    static const char *const ok[] = {"DefaultFormat", "DEFAULT", "ND",
                                     "NCHW",          "NHWC",    "NCDHW",
                                     "NDHWC",         "HWCN",    ""};
    size_t i;

    for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
        if (strcmp(f, ok[i]) == 0)
            return 1;
    return 0;
}

/* One tensor's shape ("32,3,224,224", "" or [32, 3]) as "32,3,224,224". */
static int
shape_text(const cJSON *s, struct pr_buf *out)
{
    const cJSON *d;
    int first = 1;

    if (cJSON_IsString(s))
        return pr_buf_adds(out, s->valuestring) == PR_OK;
    if (!cJSON_IsArray(s))
        return 0;
    cJSON_ArrayForEach(d, s)
    {
        if (!cJSON_IsNumber(d) || pr_buf_printf(out, "%s%.0f", first ? "" : ",",
                                                d->valuedouble) != PR_OK)
            return 0;
        first = 0;
    }
    return 1;
}

/* The inputs of an op_info object ("input_0", "input_1", ...) as shape
 * and type text; shapes are left out when one is in a device format. */
static int
inputs_text(const cJSON *info, struct opinfo *p, struct pr_buf *tmp)
{
    struct pr_buf shapes, types;
    int k, logical = 1, ok = 1, any = 0;
    char key[24];

    pr_buf_init(&shapes, 1 << 20);
    pr_buf_init(&types, 1 << 20);
    for (k = 0; k < 1024 && ok; k++) {
        const cJSON *in, *fmt, *dt;
        const char *t;
        snprintf(key, sizeof(key), "input_%d", k);
        in = cJSON_GetObjectItemCaseSensitive(info, key);
        if (!cJSON_IsObject(in))
            break;
        fmt = cJSON_GetObjectItemCaseSensitive(in, "format");
        dt = cJSON_GetObjectItemCaseSensitive(in, "data_type");
        logical &= !cJSON_IsString(fmt) || is_logical_format(fmt->valuestring);
        t = cJSON_IsString(dt) ? dt->valuestring : "";
        if (strncmp(t, "NUMBER_TYPE_", 12) == 0)
            t += 12;
        ok = (k == 0 || (pr_buf_addc(&shapes, ';') == PR_OK &&
                         pr_buf_addc(&types, ';') == PR_OK)) &&
             shape_text(cJSON_GetObjectItemCaseSensitive(in, "shape"),
                        &shapes) &&
             pr_buf_adds(&types, t) == PR_OK;
        any = 1;
    }
    if (ok && any && logical) {
        pr_buf_reset(tmp);
        if (pr_ascend_shapes(shapes.data ? shapes.data : "", shapes.len, tmp) >
            0)
            p->shapes = dup_str(tmp->data);
    }
    if (ok && any) {
        pr_buf_reset(tmp);
        if (pr_ascend_names(types.data ? types.data : "", types.len, 1, tmp) >
            0)
            p->types = dup_str(tmp->data);
    }
    pr_buf_free(&shapes);
    pr_buf_free(&types);
    return ok;
}

static enum pr_status
add_opinfo(struct ctx *c, const char *name, const char *type, const cJSON *info,
           int64_t block_dim, struct pr_error *err)
{
    struct opinfo *p = ops_add(&c->ops, name);

    if (p == NULL || (type && type[0] && (p->type = dup_str(type)) == NULL))
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (block_dim >= 0 && block_dim <= INT32_MAX)
        p->block_dim = (int32_t)block_dim;
    if (info != NULL)
        (void)inputs_text(info, p, &c->scratch);
    return PR_OK;
}

/* ------------------------------------------------------------ CSV files */

typedef enum pr_status (*row_fn)(struct ctx *c, struct pr_csv *csv,
                                 const int *cols, struct pr_error *err);

/* Read a CSV file row by row.  cols[i] is the column of names[i] (its
 * first spelling found; a name may list spellings as "a|b"); names marked
 * with a leading '?' are optional. */
static enum pr_status
each_row(struct ctx *c, const char *path, const char *const *names,
         size_t n_names, row_fn fn, struct pr_error *err)
{
    struct pr_csv *csv = NULL;
    int cols[16], got = 1;
    size_t i;
    enum pr_status st = pr_csv_open(path, max_bytes(c), &csv, err);

    for (i = 0; i < n_names && st == PR_OK; i++) {
        char spell[64];
        const char *p = names[i] + (names[i][0] == '?');
        cols[i] = -1;
        while (*p && cols[i] < 0) {
            size_t n = strcspn(p, "|");
            snprintf(spell, sizeof(spell), "%.*s", (int)n, p);
            cols[i] = pr_ms_csv_col(csv, spell);
            p += n + (p[n] == '|');
        }
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

static enum pr_status
framework_row(struct ctx *c, struct pr_csv *csv, const int *cols,
              struct pr_error *err)
{
    const char *info = fld(csv, cols[2]), *bd = fld(csv, cols[3]);
    cJSON *o;
    int64_t block_dim;
    enum pr_status st;

    errno = 0; /* a failed allocation, not bad text, when ENOMEM */
    o = cJSON_ParseWithLength(info, strlen(info));
    if (o == NULL && errno == ENOMEM)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    /* an op_info that is not JSON keeps the op, without shapes */
    /* a block_dim that is no number keeps the op, without it */
    if (!pr_fld_parse_int64(bd, strlen(bd), &block_dim))
        block_dim = -1;
    st = add_opinfo(c, fld(csv, cols[0]), fld(csv, cols[1]),
                    cJSON_IsObject(o) ? o : NULL, block_dim, err);
    if (st == PR_OK)
        c->ops.v[c->ops.n - 1].fw = 1;
    cJSON_Delete(o);
    return st;
}

static enum pr_status
read_framework(struct ctx *c, struct pr_error *err)
{
    static const char *const names[] = {"full_kernel_name|full_op_name",
                                        "kernel_type|op_type", "op_info",
                                        "?block_dim"};
    const char *path = path_of(c, PR_MS_FRAMEWORK);

    return path ? each_row(c, path, names, 4, framework_row, err) : PR_OK;
}

static enum pr_status
flops_row(struct ctx *c, struct pr_csv *csv, const int *cols,
          struct pr_error *err)
{
    struct opinfo *p;
    double mflops, vector = 0;

    if (!pr_ms_num(fld(csv, cols[1]), &mflops) || mflops < 0 ||
        (cols[2] >= 0 &&
         (!pr_ms_num(fld(csv, cols[2]), &vector) || vector < 0)))
        return pr_error_set(err, PR_E_FORMAT, "FLOPs is not a number (%.40s)",
                            fld(csv, cols[1]));
    mflops += vector; /* the Cube's and the Vector unit's, when split */
    p = ops_add(&c->ops, fld(csv, cols[0]));
    if (p == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    p->flops = mflops * 1e6; /* MFLOP per call (flops_parser.py) */
    return PR_OK;
}

static enum pr_status
read_flops(struct ctx *c, struct pr_error *err)
{
    static const char *const names[] = {"full_kernel_name|op_full_name",
                                        "FLOPs|MFLOPs(10^6)|MFLOPs(10^6 cube)",
                                        "?MFLOPs(10^6 vector)"};
    const char *path = path_of(c, PR_MS_FLOPS);

    return path ? each_row(c, path, names, 3, flops_row, err) : PR_OK;
}

/* ------------------------------------------------------------ tasks */

/* A task of operator `full` with what the op table knows of it. */
static enum pr_status
add_op_task(struct ctx *c, struct pr_ms_task *k, const char *full,
            const char *type_hint, struct pr_error *err)
{
    struct opinfo *p = ops_find(&c->ops, full);
    char type[256];

    if (strchr(full, '/') != NULL) { /* a graph operator, by its scope */
        c->scoped_tasks++;
        if (p != NULL && p->fw) {
            c->fw_tasks++;
            p->hit = 1;
        } else if (c->task_eg[0] == '\0' ||
                   (strstr(c->task_eg, "network") == NULL &&
                    strstr(full, "network") != NULL))
            snprintf(c->task_eg, sizeof(c->task_eg), "%s", full);
    }

    if (p && p->type)
        snprintf(type, sizeof(type), "%s", p->type);
    else if (type_hint && type_hint[0])
        snprintf(type, sizeof(type), "%s", type_hint);
    else
        pr_ms_op_type(full, type, sizeof(type));
    k->name = full;
    k->op = type;
    k->shapes = p ? p->shapes : NULL;
    k->types = p ? p->types : NULL;
    k->flops = p ? p->flops : -1;
    k->has_block_dim = p != NULL && p->block_dim >= 0;
    k->block_dim = p ? p->block_dim : -1;
    k->collective = pr_ms_collective(type);
    return pr_ms_add_task(&c->b, k, err);
}

static enum pr_status
timeline_data_row(struct ctx *c, struct pr_csv *csv, const int *cols,
                  struct pr_error *err)
{
    struct pr_ms_task k;
    const char *s;
    int64_t stream;

    memset(&k, 0, sizeof(k));
    k.kind = PR_KIND_DEVICE_TASK;
    k.unit = PR_UNIT_UNKNOWN;
    k.bytes = -1;
    s = fld(csv, cols[1]);
    if (!pr_fld_parse_int64(s, strlen(s), &stream) || stream < 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "stream_id is not a number (%.40s)", s);
    k.stream = stream;
    if (!pr_ms_dec_ns(fld(csv, cols[2]), strlen(fld(csv, cols[2])), 6,
                      &k.ts_ns) ||
        !pr_ms_dec_ns(fld(csv, cols[3]), strlen(fld(csv, cols[3])), 6,
                      &k.dur_ns))
        return pr_error_set(err, PR_E_FORMAT,
                            "start_time or duration is not a time in ms");
    return add_op_task(c, &k, fld(csv, cols[0]), NULL, err);
}

static enum pr_status
aicpu_row(struct ctx *c, struct pr_csv *csv, const int *cols,
          struct pr_error *err)
{
    struct pr_ms_task k;
    int64_t end;

    memset(&k, 0, sizeof(k));
    k.kind = PR_KIND_DEVICE_TASK;
    k.unit = PR_UNIT_CPU;
    k.stream = -1;
    k.row = "AI CPU";
    k.bytes = -1;
    if (!pr_ms_dec_ns(fld(csv, cols[1]), strlen(fld(csv, cols[1])), 3,
                      &k.ts_ns) ||
        !pr_ms_dec_ns(fld(csv, cols[2]), strlen(fld(csv, cols[2])), 3, &end) ||
        end < k.ts_ns)
        return pr_error_set(err, PR_E_FORMAT,
                            "run_start or run_end is not a time in us");
    k.dur_ns = end - k.ts_ns;
    return add_op_task(c, &k, fld(csv, cols[0]), fld(csv, cols[0]), err);
}

static enum pr_status
read_timeline_data(struct ctx *c, struct pr_error *err)
{
    static const char *const rows[] = {"op_name", "stream_id", "start_time(ms)",
                                       "duration(ms)"};
    static const char *const cpu[] = {"kernel_type|op_type", "run_start",
                                      "run_end"};
    enum pr_status st = each_row(c, path_of(c, PR_MS_TIMELINE_DATA), rows, 4,
                                 timeline_data_row, err);

    if (st == PR_OK && path_of(c, PR_MS_AICPU))
        st = each_row(c, path_of(c, PR_MS_AICPU), cpu, 3, aicpu_row, err);
    return st;
}

/* ------------------------------------------------------------ timeline */

/* The timeline JSON: pid 1 AI Core tasks (tid = stream), pid 9000 AI CPU
 * tasks, pid 10000 stream-parallel segments of the step trace (not tasks:
 * left out).  ts is µs from the timeline's origin. */
struct tl {
    struct ctx *c;
    int tasks; /* add the tasks, not only learn the operators' args */
};

static int
id_num(const cJSON *v, int64_t *out)
{
    return pr_fld_int(v, 0, INT32_MAX, out) == PR_FLD_OK;
}

static enum pr_status
tl_task(struct ctx *c, const cJSON *ev, int64_t pid, struct pr_error *err)
{
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
    const cJSON *full = cJSON_GetObjectItemCaseSensitive(args, "fullname");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(args, "type");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(ev, "name");
    struct pr_ms_task k;
    int64_t ts, dur, stream = -1;

    memset(&k, 0, sizeof(k));
    if (!cJSON_IsString(name) ||
        pr_fld_time_ns(cJSON_GetObjectItemCaseSensitive(ev, "ts"), &ts) ||
        pr_fld_time_ns(cJSON_GetObjectItemCaseSensitive(ev, "dur"), &dur))
        return pr_error_set(err, PR_E_FORMAT,
                            "an event without name, ts or dur");
    k.kind = PR_KIND_DEVICE_TASK;
    k.bytes = -1;
    k.unit = pid == 9000 ? PR_UNIT_CPU : PR_UNIT_UNKNOWN;
    if (pid == 9000)
        k.row = "AI CPU";
    else if (!id_num(cJSON_GetObjectItemCaseSensitive(ev, "tid"), &stream))
        return pr_error_set(err, PR_E_FORMAT, "tid is not a stream id");
    k.stream = stream;
    if (!pr_checked_add_i64(c->origin_ns, ts, &k.ts_ns))
        return pr_error_set(err, PR_E_FORMAT, "ts out of range");
    k.dur_ns = dur;
    return add_op_task(
        c, &k, cJSON_IsString(full) ? full->valuestring : name->valuestring,
        cJSON_IsString(type) ? type->valuestring : name->valuestring, err);
}

static enum pr_status
tl_args(struct ctx *c, const cJSON *ev, struct pr_error *err)
{
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
    const cJSON *full = cJSON_GetObjectItemCaseSensitive(args, "fullname");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(args, "type");

    if (!cJSON_IsString(full))
        return PR_OK;
    return add_opinfo(c, full->valuestring,
                      cJSON_IsString(type) ? type->valuestring : NULL, args, -1,
                      err);
}

static enum pr_status
tl_event(void *ctx, uint64_t index, uint64_t offset, const char *text,
         size_t len, struct pr_error *err)
{
    struct tl *x = ctx;
    cJSON *ev;
    const cJSON *ph;
    enum pr_status st = PR_OK;
    int64_t pid = -1;

    if ((st = pr_json_refuse_nul(text, len, offset, index, err)) != PR_OK)
        return st;
    errno = 0; /* a failed allocation, not bad text, when ENOMEM */
    ev = cJSON_ParseWithLength(text, len);
    ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
    x->c->b.t->n_trace_events += x->tasks;
    if (ev == NULL && errno == ENOMEM)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (!cJSON_IsObject(ev)) {
        cJSON_Delete(ev);
        return pr_error_set(
            err, PR_E_FORMAT, "byte %llu: event %llu is not a JSON object",
            (unsigned long long)offset, (unsigned long long)index);
    }
    if (cJSON_IsString(ph) && strcmp(ph->valuestring, "X") == 0 &&
        id_num(cJSON_GetObjectItemCaseSensitive(ev, "pid"), &pid)) {
        if (pid != 1 && pid != 9000 && pid != 10000)
            x->c->b.t->diag.unknown_cat += x->tasks;
        else if (x->tasks && pid != 10000)
            st = tl_task(x->c, ev, pid, err);
        else if (!x->tasks && pid == 1)
            st = tl_args(x->c, ev, err);
    }
    cJSON_Delete(ev);
    if (st != PR_OK && st != PR_E_NOMEM)
        pr_error_prefix(err, "event %llu: ", (unsigned long long)index);
    return st;
}

static enum pr_status
read_timeline(struct ctx *c, int tasks, struct pr_error *err)
{
    const char *path = path_of(c, PR_MS_TIMELINE);
    struct tl x = {c, tasks};

    return pr_split_path(path, max_bytes(c), tl_event, &x, err);
}

/* A small text file's content, for min_cycle_counter and the like. */
static enum pr_status
read_small(const char *path, struct pr_buf *out, struct pr_error *err)
{
    struct pr_source *src = NULL;
    const char *p;
    size_t n;
    enum pr_status st = pr_source_open(path, 1 << 20, 0, &src, err);

    while (st == PR_OK && (st = pr_source_next(src, &p, &n, err)) == PR_OK &&
           n > 0)
        if (pr_buf_add(out, p, n) != PR_OK)
            st = pr_error_set(err, PR_E_LIMIT, "larger than 1 MiB");
    pr_source_close(src);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

/* min_cycle_counter: the timeline's origin in 10 ns ticks. */
static enum pr_status
read_origin(struct ctx *c, struct pr_error *err)
{
    const char *path = path_of(c, PR_MS_MIN_CYCLE);
    struct pr_buf text;
    enum pr_status st;
    size_t n;

    if (path == NULL)
        return PR_OK;
    pr_buf_init(&text, 1 << 20);
    st = read_small(path, &text, err);
    n = text.len;
    while (st == PR_OK && n > 0 && strchr(" \t\r\n", text.data[n - 1]))
        n--;
    if (st == PR_OK && !pr_ms_dec_ns(text.data, n, 1, &c->origin_ns))
        st = pr_error_set(err, PR_E_FORMAT, "%s: not a cycle count", path);
    c->has_origin = st == PR_OK;
    pr_buf_free(&text);
    return st;
}

/* ------------------------------------------------------------ totals */

/* Only per-operator totals (aicore_intermediate detail, no timeline): the
 * calls are laid end to end from 0 (c->origin_ns is the cursor), so that
 * counts and times hold while no time of day is claimed. */
static enum pr_status
total_row(struct ctx *c, struct pr_csv *csv, const int *cols,
          struct pr_error *err)
{
    struct pr_ms_task k;
    double ms, calls = 1;
    int64_t i, dur;

    memset(&k, 0, sizeof(k));
    if (!pr_ms_num(fld(csv, cols[1]), &ms) || ms < 0 ||
        (cols[2] >= 0 &&
         (!pr_ms_num(fld(csv, cols[2]), &calls) || calls < 0 || calls > 1e7)))
        return pr_error_set(err, PR_E_FORMAT,
                            "execution_time or execution_frequency is not a "
                            "number");
    if (!pr_ms_dec_ns(fld(csv, cols[1]), strlen(fld(csv, cols[1])), 6, &dur))
        dur = (int64_t)(ms * 1e6 + 0.5);
    k.kind = PR_KIND_DEVICE_TASK;
    k.stream = 0;
    k.row = "AI Core (totals)";
    k.bytes = -1;
    k.dur_ns = dur;
    for (i = 0; i < (int64_t)calls; i++) {
        enum pr_status st;
        k.ts_ns = c->origin_ns;
        st = add_op_task(c, &k, fld(csv, cols[0]), NULL, err);
        if (st != PR_OK)
            return st;
        c->origin_ns = pr_sat_add_i64(c->origin_ns, dur);
    }
    return PR_OK;
}

static enum pr_status
read_totals(struct ctx *c, struct pr_error *err)
{
    static const char *const names[] = {
        "full_kernel_name|full_op_name|full_kernel_time", "execution_time",
        "?execution_frequency"};

    c->origin_ns = 0;
    c->b.t->laid_out = 1; /* totals, not a timeline (analysis.c) */
    return each_row(c, path_of(c, PR_MS_AICORE_DETAIL), names, 3, total_row,
                    err);
}

/* ------------------------------------------------------------ steps */

#define MAX_SEGMENTS 1024

/* A communication op the step trace times in every step (pipeline and
 * model parallel runs: stream_<s>_<k>_<Op>-op<n>, 10 ns ticks). */
struct segment {
    int start, end; /* columns */
    int64_t stream;
    char op[128]; /* "Receive-op663" */
};

struct steps {
    int c_step, c_start, c_end;
    int c_bp, c_interval, c_fpbp, c_tail; /* MindInsight's split; -1 */
    struct segment seg[MAX_SEGMENTS];
    size_t n_seg;
    int tasks; /* add the segments as tasks (no timeline in the folder) */
    size_t n_steps;
};

static int
ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* "stream_48_0_Receive-op663_start_point" -> stream 48, op "Receive-op663";
 * the stream-parallel segments (stream_520_parallel_0) are no ops. */
static void
find_segments(struct pr_csv *csv, struct steps *s)
{
    size_t i, n = pr_csv_n_cols(csv);
    char base[256], end[300];

    for (i = 0; i < n && s->n_seg < MAX_SEGMENTS; i++) {
        const char *h = pr_csv_col_name(csv, i), *p;
        struct segment *g = &s->seg[s->n_seg];
        size_t len = strlen(h) - strlen("_start_point");
        int64_t stream;
        if (strncmp(h, "stream_", 7) != 0 || !ends_with(h, "_start_point") ||
            strstr(h, "_parallel_") || len >= sizeof(base))
            continue;
        memcpy(base, h, len);
        base[len] = '\0';
        snprintf(end, sizeof(end), "%s_end_point", base);
        p = base + 7;
        if (!pr_fld_parse_int64(p, strcspn(p, "_"), &stream) || stream < 0)
            continue;
        p += strcspn(p, "_");                     /* "_0_Receive-op663" */
        p = *p ? p + 1 + strcspn(p + 1, "_") : p; /* "_Receive-op663" */
        if (*p != '_' || (g->end = pr_csv_col(csv, end)) < 0)
            continue;
        g->start = (int)i;
        g->stream = stream;
        snprintf(g->op, sizeof(g->op), "%s", p + 1);
        s->n_seg++;
    }
}

static int
ticks(struct pr_csv *csv, int col, int64_t *ns)
{
    size_t n;
    const char *s = pr_csv_field(csv, col, &n);

    return pr_ms_dec_ns(s, n, 1, ns);
}

static enum pr_status
segment_tasks(struct ctx *c, struct pr_csv *csv, const struct steps *s,
              struct pr_error *err)
{
    enum pr_status st;
    size_t i;

    for (i = 0; i < s->n_seg; i++) {
        struct pr_ms_task k;
        int64_t a, b;
        if (!ticks(csv, s->seg[i].start, &a) || !ticks(csv, s->seg[i].end, &b))
            return pr_error_set(err, PR_E_FORMAT, "%s: not a time in ticks",
                                s->seg[i].op);
        if (a == 0 && b == 0)
            continue; /* not run in this step */
        memset(&k, 0, sizeof(k));
        k.kind = PR_KIND_DEVICE_TASK;
        k.stream = s->seg[i].stream;
        k.ts_ns = a;
        k.dur_ns = b - a;
        k.bytes = -1;
        if ((st = add_op_task(c, &k, s->seg[i].op, NULL, err)) != PR_OK)
            return st;
        c->seg_tasks++;
    }
    return PR_OK;
}

/* One row: a numbered step (the "-" row holds the averages, a 0 row marks
 * "no step"). */
static enum pr_status
step_row(struct ctx *c, struct pr_csv *csv, struct steps *s,
         struct pr_error *err)
{
    const char *num = pr_csv_field(csv, s->c_step, NULL);
    int64_t n, a, b;

    if (!pr_fld_parse_int64(num, strlen(num), &n) || n <= 0)
        return PR_OK;
    if (!ticks(csv, s->c_start, &a) || !ticks(csv, s->c_end, &b))
        return pr_error_set(err, PR_E_FORMAT,
                            "step %lld: start_point or end_point is not a "
                            "time in ticks",
                            (long long)n);
    if (pr_ms_add_step(&c->b, n, a, b, err) != PR_OK)
        return PR_E_FORMAT;
    s->n_steps++;
    if (s->c_fpbp >= 0 || s->c_tail >= 0) {
        struct pr_ms_split *sp = pr_phases_add_split(c->b.t);

        if (sp == NULL)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        sp->number = n;
        sp->start_ns = a;
        sp->end_ns = b;
        if (s->c_bp < 0 || !ticks(csv, s->c_bp, &sp->bp_ns))
            sp->bp_ns = PR_PHASE_UNKNOWN;
        if (s->c_interval < 0 || !ticks(csv, s->c_interval, &sp->interval_ns))
            sp->interval_ns = PR_PHASE_UNKNOWN;
        if (s->c_fpbp < 0 || !ticks(csv, s->c_fpbp, &sp->fpbp_ns))
            sp->fpbp_ns = PR_PHASE_UNKNOWN;
        if (s->c_tail < 0 || !ticks(csv, s->c_tail, &sp->tail_ns))
            sp->tail_ns = PR_PHASE_UNKNOWN;
    }
    return s->tasks ? segment_tasks(c, csv, s, err) : PR_OK;
}

static enum pr_status
read_steps(struct ctx *c, int tasks, struct pr_error *err)
{
    const char *path = path_of(c, PR_MS_STEP_TRACE);
    struct pr_csv *csv = NULL;
    struct steps *s = calloc(1, sizeof(*s));
    enum pr_status st;
    int got = 1;

    if (s == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    s->tasks = tasks;
    st = pr_csv_open(path, max_bytes(c), &csv, err);
    if (st == PR_OK) {
        s->c_step = pr_csv_col(csv, "step_num");
        s->c_start = pr_csv_col(csv, "start_point");
        s->c_end = pr_csv_col(csv, "end_point");
        s->c_bp = pr_csv_col(csv, "bp_point");
        s->c_interval = pr_csv_col(csv, "iteration_interval");
        s->c_fpbp = pr_csv_col(csv, "fp_and_bp");
        s->c_tail = pr_csv_col(csv, "tail");
        if (s->c_step < 0 || s->c_start < 0 || s->c_end < 0)
            st = pr_error_set(err, PR_E_FORMAT,
                              "no step_num, start_point or end_point column");
        find_segments(csv, s);
        pr_csv_skip_ragged(csv, s->c_step);
    }
    while (st == PR_OK && (st = pr_csv_next(csv, &got, err)) == PR_OK && got) {
        c->b.t->n_trace_events++;
        st = step_row(c, csv, s, err);
    }
    if (st == PR_OK && pr_csv_note_ragged(csv, c->b.t, path) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st != PR_OK && st != PR_E_NOMEM && csv)
        pr_error_prefix(err,
                        "line %llu: ", (unsigned long long)pr_csv_line(csv));
    c->b.t->device_steps = s->n_steps > 0;
    pr_csv_close(csv);
    free(s);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

/* ------------------------------------------------------------ hccl */

/* MindSpore's hccl_raw_{rank}.csv (its profiler's HcclParser,
 * mindspore/python/mindspore/profiler/parser/hccl_parser.py): per step,
 * communication_operator_cost maps each communication op, keyed by its
 * step trace name ("stream_24_0_AllReduce-op3143"), to [step,
 * communication_cost, wait_cost, link_info]: the ms its main stream spent
 * in the links' transfers and in Notify Wait less the links' own wait,
 * and per "src-dst" rank pair and link type ("SDMA", "RDMA") [time ms,
 * size, bandwidth (, wait ms)], where the parser divides the tasks' bytes
 * by 1e3 ("the unit of sdma_communication_size is k_byte") and gives the
 * bandwidth in KB/s.  Each op of a numbered step becomes an HCCL
 * operation of the run's phases (transit = communication_cost, wait =
 * wait_cost, bytes over SDMA and RDMA), and where the step trace's
 * segments are the tasks, the op's task of that step is told the bytes
 * it sent over its links (review30a #8: ms_cluster4's Send/Receive sizes
 * were "–" while the file states them). */
#define HCCL_KB 1e3

/* "stream_24_0_AllReduce-op3143" -> "AllReduce-op3143"; NULL when the
 * key is not of that shape. */
static const char *
hccl_op_name(const char *key)
{
    const char *p;
    int k;

    if (strncmp(key, "stream_", 7) != 0)
        return NULL;
    p = key + 7;
    for (k = 0; k < 2; k++) {
        size_t n = strspn(p, "0123456789");

        if (n == 0 || p[n] != '_')
            return NULL;
        p += n + 1;
    }
    return *p ? p : NULL;
}

/* A link entry's ms or KB as a finite number >= 0; -1 otherwise. */
static double
hccl_num(const cJSON *v)
{
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
        return -1;
    return v->valuedouble;
}

static int64_t
hccl_ms_ns(const cJSON *v)
{
    double ms = hccl_num(v);

    return ms < 0 || ms > 9e9 ? PR_PHASE_UNKNOWN : (int64_t)llround(ms * 1e6);
}

/* The step number HcclParser gives a time (its
 * _calculate_the_step_by_timestamp): the step holding it, the first
 * before the first step, the last after the last; -1 none. */
static int64_t
hccl_step_of(const struct pr_phases *p, int64_t ts)
{
    size_t i;

    if (p == NULL || p->n_split == 0)
        return -1;
    if (ts < p->split[0].start_ns)
        return p->split[0].number;
    if (ts >= p->split[p->n_split - 1].end_ns)
        return p->split[p->n_split - 1].number;
    for (i = 0; i < p->n_split; i++)
        if (ts >= p->split[i].start_ns && ts < p->split[i].end_ns)
            return p->split[i].number;
    return -1;
}

/* The device tasks by name and HcclParser's step, to find an op's task
 * of a step without a scan per op. */
struct hccl_key {
    uint32_t name;
    int64_t step;
    uint32_t info; /* into t->gpu */
};

struct hccl_idx {
    struct hccl_key *v; /* owned, sorted */
    size_t n;
};

static int
cmp_hccl_key(const void *a, const void *b)
{
    const struct hccl_key *x = a, *y = b;

    if (x->name != y->name)
        return x->name < y->name ? -1 : 1;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    return x->info < y->info ? -1 : x->info > y->info;
}

/* 0 on out-of-memory. */
static int
hccl_index(const struct pr_trace *t, struct hccl_idx *ix)
{
    size_t i;

    ix->n = 0;
    ix->v = malloc((t->n_events ? t->n_events : 1) * sizeof(*ix->v));
    if (ix->v == NULL)
        return 0;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t n;

        if (e->kind != PR_KIND_DEVICE_TASK || e->info == PR_NO_INFO ||
            (n = hccl_step_of(t->phases, e->ts_ns)) < 0)
            continue;
        ix->v[ix->n++] = (struct hccl_key){e->name, n, e->info};
    }
    if (ix->n > 0)
        qsort(ix->v, ix->n, sizeof(*ix->v), cmp_hccl_key);
    return 1;
}

/* The op's task in step n, as HcclParser steps it; NULL none. */
static struct pr_gpu_info *
hccl_task(struct pr_trace *t, const struct hccl_idx *ix, const char *op,
          int64_t n)
{
    uint32_t name = pr_strtab_find(t->strs, op, strlen(op));
    size_t lo = 0, hi = ix->n;

    if (name == PR_STR_NONE)
        return NULL;
    while (lo < hi) { /* the first key >= (name, n) */
        size_t mid = lo + (hi - lo) / 2;
        const struct hccl_key *k = &ix->v[mid];

        if (k->name < name || (k->name == name && k->step < n))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == ix->n || ix->v[lo].name != name || ix->v[lo].step != n)
        return NULL;
    return &t->gpu[ix->v[lo].info];
}

/* 1 when a link_info key names one rank twice ("0-0"), 0 when two
 * ranks ("1-0") or not of that shape. */
static int
hccl_self_pair(const char *key)
{
    size_t a = strspn(key, "0123456789");

    return a > 0 && key[a] == '-' && strspn(key + a + 1, "0123456789") == a &&
           key[2 * a + 1] == '\0' && strncmp(key, key + a + 1, a) == 0;
}

/* One op of step n into the phases (and its task): 0 on out-of-memory.
 * Its bytes and link time are those of its src-dst pairs, but for a
 * collective's pair of a rank with itself: HcclParser keys so the SDMA
 * tasks whose peer is 0xffffffff ("when the SDMA operation is in the
 * card"), a copy in the card that crosses no link (issue #30:
 * ms_cluster4's all-reduce "0-0" pairs, 3.3 MB on rank 0, move at
 * 186-1,611 GB/s where its "1-0" pairs move at 20.6).  A Send's or
 * Receive's is kept: the same key holds its transfer from the peer where
 * HCCL gave no peer rank (ms_cluster4's rank 1 receives its 12.8 MB
 * calls as "1-1" at 22.2 GB/s a call, one a step at 23.9, 22.6 over all,
 * byte for byte what rank 0 receives as "1-0" at 22.3 a call, 22.7 over
 * all). */
static int
hccl_op(struct ctx *c, const struct hccl_idx *ix, const cJSON *op, int64_t n,
        uint32_t link_type)
{
    struct pr_trace *t = c->b.t;
    const char *name = hccl_op_name(op->string);
    const cJSON *pair, *link;
    struct pr_comm_stat *st;
    struct pr_gpu_info *g;
    double sdma = -1, rdma = -1, bytes;
    double ns[2] = {0, 0}; /* SDMA, RDMA link time */
    int timed = 1, local = 0;

    if (name == NULL || !cJSON_IsArray(op) || cJSON_GetArraySize(op) < 4)
        return 1;
    st = pr_phases_add_comm(t);
    if (st == NULL)
        return 0;
    st->name = pr_strtab_intern(t->strs, name, strlen(name));
    if (st->name == PR_STR_NONE)
        return 0;
    st->group = PR_STR_NONE;
    st->step = n;
    st->p2p = strncmp(name, "Send", 4) == 0 || strncmp(name, "Receive", 7) == 0;
    st->group_size = -1;
    st->start_ns = st->elapse_ns = st->sync_ns = st->idle_ns = PR_PHASE_UNKNOWN;
    st->transit_ns = hccl_ms_ns(cJSON_GetArrayItem(op, 1));
    st->wait_ns = hccl_ms_ns(cJSON_GetArrayItem(op, 2));
    cJSON_ArrayForEach(pair, cJSON_GetArrayItem(op, 3))
    {
        if (!st->p2p && pair->string != NULL && hccl_self_pair(pair->string)) {
            local = 1;
            continue;
        }
        cJSON_ArrayForEach(link, pair)
        {
            double kb = hccl_num(cJSON_GetArrayItem(link, 1));
            double ms = hccl_num(cJSON_GetArrayItem(link, 0));
            int k = strcmp(link->string, "SDMA") == 0   ? 0
                    : strcmp(link->string, "RDMA") == 0 ? 1
                                                        : -1;
            double *sum = k == 0 ? &sdma : k == 1 ? &rdma : NULL;

            if (sum == NULL || kb < 0)
                continue;
            *sum = (*sum < 0 ? 0 : *sum) + kb * HCCL_KB;
            if (ms >= 0 && ms <= 9e9)
                ns[k] += ms * 1e6;
            else
                timed = 0;
        }
    }
    /* only in-card copies: nothing crossed a link */
    if (local && sdma < 0 && rdma < 0)
        sdma = 0;
    st->sdma_bytes = sdma;
    st->rdma_bytes = rdma;
    st->sdma_ns =
        sdma >= 0 && timed ? (int64_t)llround(ns[0]) : PR_PHASE_UNKNOWN;
    st->rdma_ns =
        rdma >= 0 && timed ? (int64_t)llround(ns[1]) : PR_PHASE_UNKNOWN;
    st->pair_ns = (sdma >= 0 || rdma >= 0) && timed
                      ? (int64_t)llround(ns[0] + ns[1])
                      : PR_PHASE_UNKNOWN;
    st->hccs_bytes = st->pcie_bytes = st->sio_bytes = -1;
    bytes = pr_comm_stat_bytes(st);
    if (c->seg_tasks == 0 || bytes < 0 || bytes > 9e18)
        return 1;
    g = hccl_task(t, ix, name, n);
    if (g == NULL || g->in_nelems >= 0)
        return 1;
    g->dtype = link_type;
    g->in_nelems = g->out_nelems = (int64_t)llround(bytes);
    return 1;
}

static enum pr_status
read_hccl(struct ctx *c, struct pr_error *err)
{
    const char *path = path_of(c, PR_MS_HCCL);
    struct pr_trace *t = c->b.t;
    struct pr_csv *csv = NULL;
    struct hccl_idx ix = {NULL, 0};
    int got = 1, c_step, c_ops;
    uint32_t link_type = pr_strtab_intern(t->strs, PR_DTYPE_LINK_BYTES,
                                          strlen(PR_DTYPE_LINK_BYTES));
    enum pr_status st;

    if (link_type == PR_STR_NONE)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = pr_csv_open(path, max_bytes(c), &csv, err);
    c_step = st == PR_OK ? pr_csv_col(csv, "step_num") : -1;
    c_ops = st == PR_OK ? pr_csv_col(csv, "communication_operator_cost") : -1;
    /* a table without the per-op column has nothing for the ops */
    if (st == PR_OK && (c_step < 0 || c_ops < 0)) {
        pr_csv_close(csv);
        return PR_OK;
    }
    if (st == PR_OK && !hccl_index(t, &ix))
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    while (st == PR_OK && (st = pr_csv_next(csv, &got, err)) == PR_OK && got) {
        size_t len;
        const char *num = pr_csv_field(csv, c_step, NULL);
        const char *text = pr_csv_field(csv, c_ops, &len);
        cJSON *ops, *op;
        int64_t n;

        t->n_trace_events++;
        /* the "-" row holds the averages */
        if (!pr_fld_parse_int64(num, strlen(num), &n) || n <= 0)
            continue;
        ops = cJSON_ParseWithLength(text, len);
        if (ops == NULL || !cJSON_IsObject(ops)) {
            cJSON_Delete(ops);
            st = pr_error_set(err, PR_E_FORMAT,
                              "step %lld: communication_operator_cost is "
                              "not a JSON object",
                              (long long)n);
            break;
        }
        cJSON_ArrayForEach(op, ops)
        {
            if (st == PR_OK && !hccl_op(c, &ix, op, n, link_type))
                st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        }
        cJSON_Delete(ops);
    }
    if (st == PR_OK && t->phases != NULL && t->phases->n_comm > 0)
        t->phases->comm_source = "hccl_raw";
    if (st != PR_OK && st != PR_E_NOMEM && csv)
        pr_error_prefix(err,
                        "line %llu: ", (unsigned long long)pr_csv_line(csv));
    pr_csv_close(csv);
    free(ix.v);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

/* ------------------------------------------------------------ cluster */

/* A ms cell of the cluster table ("13.8202") as ns; 0 when it is not a
 * plain number. */
static int
cell_ms(struct pr_csv *csv, int col, int64_t *ns)
{
    size_t n;
    const char *s = col >= 0 ? pr_csv_field(csv, col, &n) : NULL;
    char buf[64], *end;
    double ms;

    if (s == NULL || n == 0 || n >= sizeof(buf))
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    ms = strtod(buf, &end);
    return end != buf && *end == '\0' &&
           pr_fld_us_to_ns(ms * 1000.0, ns) == PR_FLD_OK;
}

/* What the cluster file's name states:
 * "ascend_cluster_analyse_{mode}_{stages}_{ranks}_{rank}.csv" (MindSpore's
 * AscendTimelineGenerator writes it so, MindInsight's cluster analysers
 * read the mode, the stage count and the rank size back from it).  A
 * name of another shape states nothing. */
static void
cluster_name(struct pr_trace *t, const char *path)
{
    const char *b = strrchr(path, '/'), *p;
    char mode[sizeof(((struct pr_phases *)0)->parallel_mode)];
    int64_t v[2];
    size_t n;
    int i;

    b = b ? b + 1 : path;
    if (strncmp(b, "ascend_cluster_analyse_", 23) != 0)
        return;
    p = b + 23;
    n = strcspn(p, "_");
    if (n == 0 || n >= sizeof(mode) || p[n] != '_')
        return;
    memcpy(mode, p, n);
    mode[n] = '\0';
    p += n + 1;
    for (i = 0; i < 2; i++) {
        n = strcspn(p, "_");
        if (p[n] != '_' || !pr_fld_parse_int64(p, n, &v[i]) || v[i] <= 0 ||
            v[i] > INT32_MAX)
            return;
        p += n + 1;
    }
    if (t->phases != NULL) {
        snprintf(t->phases->parallel_mode, sizeof(t->phases->parallel_mode),
                 "%s", mode);
        t->phases->stage_count = v[0];
    }
    if (t->world_size < 0) {
        t->world_size = v[1];
        t->world_source = "ascend_cluster_analyse";
    }
}

/* ascend_cluster_analyse_<parallel>_<...>_{rank}.csv of a pipeline-
 * parallel job: MindSpore's own phases of each step, in ms
 * (computation_time, communication_alone_time, stage_time,
 * receive_alone_time, collective_communication_alone_time; MindInsight's
 * cluster analysis).  Row k is step k; where there is more than one step
 * MindSpore appends a last row, the average of steps 2..n (its
 * _parse_cluster_metrices; MindInsight reads the last line as "the
 * average"): that row is not a step and is dropped, and the run's mean
 * leaves step 1 out as MindSpore's does.  The phases go to the run's step
 * phases under msprof-analyze's names: receive_alone_time is the
 * pipeline's bubble (time alone in Receive),
 * collective_communication_alone_time the communication not overlapped
 * less receives.  A data-parallel table (iteration_interval, fp_and_bp,
 * tail) has no phases: not read. */
static enum pr_status
read_cluster(struct ctx *c, struct pr_error *err)
{
    static const char *const names[] = {"computation_time|computation",
                                        "communication_alone_time",
                                        "stage_time", "receive_alone_time",
                                        "collective_communication_alone_time"};
    const char *path = path_of(c, PR_MS_CLUSTER);
    struct pr_csv *csv = NULL;
    int cols[5], got = 1;
    size_t i, rows = 0;
    enum pr_status st = pr_csv_open(path, max_bytes(c), &csv, err);

    for (i = 0; i < 5 && st == PR_OK; i++) {
        const char *p = names[i];

        cols[i] = -1;
        while (*p && cols[i] < 0) {
            char spell[64];
            size_t n = strcspn(p, "|");

            snprintf(spell, sizeof(spell), "%.*s", (int)n, p);
            cols[i] = pr_ms_csv_col(csv, spell);
            p += n + (p[n] == '|');
        }
    }
    if (st == PR_OK && cols[0] < 0) {
        pr_csv_close(csv); /* no phases in it; its name states the world */
        cluster_name(c->b.t, path);
        return PR_OK;
    }
    if (st == PR_OK)
        pr_csv_skip_ragged(csv, -1);
    while (st == PR_OK && (st = pr_csv_next(csv, &got, err)) == PR_OK && got) {
        struct pr_phase_step *ph;
        int64_t v[5];

        for (i = 0; i < 5; i++)
            if (!cell_ms(csv, cols[i], &v[i]))
                v[i] = PR_PHASE_UNKNOWN;
        if (v[0] == PR_PHASE_UNKNOWN) {
            st = pr_error_set(err, PR_E_FORMAT,
                              "computation_time is not a time in ms");
            break;
        }
        ph = pr_phases_add_step(c->b.t);
        if (ph == NULL) {
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
            break;
        }
        ph->number = (int64_t)++rows;
        ph->computing_ns = v[0];
        ph->comm_alone_ns = v[1];
        ph->stage_ns = v[2];
        ph->bubble_ns = v[3];
        ph->comm_excl_recv_ns = v[4];
        c->b.t->phases->steps_source = "ascend_cluster_analyse";
    }
    if (st == PR_OK && rows > 1) {
        c->b.t->phases->n_steps--; /* the average of steps 2..n */
        c->b.t->phases->mean_skip = 1;
    }
    if (st == PR_OK)
        cluster_name(c->b.t, path);
    if (st == PR_OK && pr_csv_note_ragged(csv, c->b.t, path) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    return pr_csv_done(csv, path, st, err);
}

/* ------------------------------------------------------------ entry */

static enum pr_status
read_tasks(struct ctx *c, struct pr_error *err)
{
    enum pr_status st = PR_OK;

    if (path_of(c, PR_MS_TIMELINE_DATA)) {
        if (path_of(c, PR_MS_TIMELINE))
            st = read_timeline(c, 0, err);
        ops_sort(&c->ops);
        return st == PR_OK ? read_timeline_data(c, err) : st;
    }
    /* the JSON's own args, where framework_raw lacks the op, then tasks */
    if (path_of(c, PR_MS_TIMELINE)) {
        st = read_timeline(c, 0, err);
        ops_sort(&c->ops);
        return st == PR_OK ? read_timeline(c, 1, err) : st;
    }
    ops_sort(&c->ops);
    if (path_of(c, PR_MS_AICORE_DETAIL))
        return read_totals(c, err);
    return PR_OK;
}

/* A folder whose only tasks are the communication ops its step trace
 * times (no timeline, framework or AI Core file): Data quality says so
 * where the other sections each say it in passing (review25a #12:
 * cluster_4rank_pipeline, "No data-quality issues recorded" beside "the
 * export holds HCCL tasks only"). */
static enum pr_status
note_comm_only(struct ctx *c, struct pr_error *err)
{
    const char *trace = path_of(c, PR_MS_STEP_TRACE);
    const char *base = strrchr(trace, '/');
    char text[700];

    snprintf(text, sizeof(text),
             "the export holds communication tasks only: its tasks are the "
             "communication operators MindSpore's step trace times (%s), "
             "and it has no timeline, framework or AI Core "
             "file, so kernel tables, the Cube view and the compute on the "
             "critical path are not known%s; MindSpore's Profiler writes "
             "the compute tasks with its timeline (output_timeline_data, "
             "timeline_display)",
             base ? base + 1 : trace,
             path_of(c, PR_MS_CLUSTER)
                 ? "; compute time comes from the cluster table's "
                   "computation_time (ascend_cluster_analyse)"
                 : "");
    if (pr_trace_add_gap(c->b.t, "no_compute_tasks", 0, text) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

/* Under this share of the timeline's scoped tasks run an operator that
 * framework_raw names: the file is another run's.  A run's framework_raw
 * lists every operator of its graphs and the timeline the tasks of the
 * steps it recorded, so all of those tasks are in it (ascend_run2: 105 of
 * its 106 operators; ascend_run1: none of 2817 tasks, its framework_raw
 * a LeNet5's beside a WideDeep's timeline). */
#define FW_OTHER_RUN_SHARE 0.5
/* and at least this many such tasks, to judge by */
#define FW_OTHER_RUN_MIN_TASKS 10

/* framework_raw and the timeline of two different runs in one folder
 * (review 27: ms_run1's framework_raw describes a LeNet5 beside the
 * timeline's WideDeep): Data quality says so, with an operator of each;
 * the framework's shapes, types and block dims reach only the tasks of
 * operators of the same full name, none where the runs differ. */
static enum pr_status
note_framework_other_run(struct ctx *c, struct pr_error *err)
{
    const char *path = path_of(c, PR_MS_FRAMEWORK), *base, *fw_eg = NULL;
    size_t i, n_fw = 0, n_hit = 0;
    char text[1400], used[160];

    if (path == NULL || c->scoped_tasks < FW_OTHER_RUN_MIN_TASKS ||
        (double)c->fw_tasks >= FW_OTHER_RUN_SHARE * (double)c->scoped_tasks)
        return PR_OK;
    for (i = 0; i < c->ops.n; i++) {
        const struct opinfo *p = &c->ops.v[i];

        if (!p->fw)
            continue;
        n_fw++;
        n_hit += p->hit;
        /* an operator of the network, not a queue's (InitDataSetQueue) */
        if (!p->hit && (fw_eg == NULL || (strstr(fw_eg, "network") == NULL &&
                                          strstr(p->name, "network") != NULL)))
            fw_eg = p->name;
    }
    if (n_fw == 0)
        return PR_OK;
    base = strrchr(path, '/');
    if (c->fw_tasks == 0)
        snprintf(used, sizeof(used), "reach no task");
    else
        snprintf(used, sizeof(used),
                 "reach only the %zu tasks of operators it names", c->fw_tasks);
    snprintf(text, sizeof(text),
             "%s is of another run than the timeline: %zu of the "
             "timeline's %zu operator tasks run an operator it names, and "
             "%zu of its %zu operators run in the timeline (it names %s; "
             "the timeline runs %s): the folder holds the files of two "
             "runs; the framework file's shapes, types and block dims, "
             "joined to tasks by operator name, %s",
             base ? base + 1 : path, c->fw_tasks, c->scoped_tasks, n_hit, n_fw,
             fw_eg ? fw_eg : "none", c->task_eg, used);
    if (pr_trace_add_gap(c->b.t, "framework_other_run", (int64_t)(n_fw - n_hit),
                         text) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

/* The run is an Ascend NPU's (the legacy folder does not say which chip,
 * so its name stays unknown, as every Ascend reader leaves it when the
 * files do not name it): the report speaks of NPUs and AI Core tasks, not
 * GPUs and kernels. */
static enum pr_status
name_npu(struct pr_trace *t, int64_t device, struct pr_error *err)
{
    struct pr_device *d = pr_trace_add_device(t);

    if (d == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    d->id = device;
    d->name = PR_STR_NONE; /* the folder does not say which chip */
    t->vendor = pr_strtab_intern(t->strs, "huawei", 6);
    t->backend = pr_strtab_intern(t->strs, "hccl", 4);
    t->device_kind = pr_strtab_intern(t->strs, "npu", 3);
    if (t->vendor == PR_STR_NONE || t->backend == PR_STR_NONE ||
        t->device_kind == PR_STR_NONE)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

enum pr_status
pr_ms_ascend_read(const struct pr_ms_unit *u, const struct pr_read_opts *o,
                  struct pr_trace *t, struct pr_error *err)
{
    struct ctx c;
    enum pr_status st;
    int has_tasks = u->by_kind[PR_MS_TIMELINE_DATA] ||
                    u->by_kind[PR_MS_TIMELINE] ||
                    u->by_kind[PR_MS_AICORE_DETAIL];

    memset(&c, 0, sizeof(c));
    c.u = u;
    c.o = o;
    pr_buf_init(&c.scratch, 1 << 20);
    st = pr_ms_builder_init(&c.b, t, u->rank >= 0 ? u->rank : 0, "mindspore",
                            err);
    if (st == PR_OK)
        st = name_npu(t, u->rank >= 0 ? u->rank : 0, err);
    if (st == PR_OK)
        st = read_origin(&c, err);
    if (st == PR_OK)
        st = read_framework(&c, err);
    if (st == PR_OK)
        st = read_flops(&c, err);
    if (st == PR_OK)
        st = read_tasks(&c, err);
    ops_sort(&c.ops);
    if (st == PR_OK && path_of(&c, PR_MS_STEP_TRACE))
        st = read_steps(&c, !has_tasks, err);
    if (st == PR_OK && path_of(&c, PR_MS_CLUSTER))
        st = read_cluster(&c, err);
    if (st == PR_OK && path_of(&c, PR_MS_HCCL))
        st = read_hccl(&c, err);
    if (st == PR_OK && !has_tasks && c.seg_tasks > 0)
        st = note_comm_only(&c, err);
    if (st == PR_OK)
        st = note_framework_other_run(&c, err);
    ops_free(&c.ops);
    pr_buf_free(&c.scratch);
    return st;
}
