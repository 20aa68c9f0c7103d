/* megengine_static.c - MegEngine's static-graph profile: the JSON that
 * load_and_run --profile writes and trace.get_profile() returns, which
 * MegEngine's profile_analyze reads (spec/other-producers.md §4.2):
 * {"graph_exec": {"operator", "var", "mem_chunk", "comp_seq"},
 *  "profiler": {"device", "host", "opr_footprint"}}, times in seconds
 * ({start, kern, end} per operator and comp node or host thread).  One
 * execution of the graph; its size is the graph's, not the run's, so the
 * document is parsed whole (under the input size cap). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../internal.h"
#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/formats.h"
#include "profreport/shapes.h"

/* The links from an operator's host time to its device time carry the
 * operator's position in graph_exec.operator. */
#define LINK_BASE ((int64_t)1 << 40)

struct stat_ctx {
    struct pr_trace *t;
    const cJSON *ops, *vars, *chunks; /* graph_exec members */
    const cJSON *dev, *host, *fp;     /* profiler members */
    struct pr_buf tmp;
    uint32_t order;
};

static enum pr_claim
sniff(const struct pr_probe *p)
{
    if (p->is_dir || pr_probe_first(p) != '{')
        return PR_CLAIM_NO;
    return pr_probe_has(p, "\"graph_exec\"") ? PR_CLAIM_SURE : PR_CLAIM_NO;
}

static const cJSON *
get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

static uint32_t
intern_s(struct stat_ctx *c, const char *s)
{
    return pr_strtab_intern(c->t->strs, s, strlen(s));
}

/* Seconds (a JSON number) to ns; 0 when absent or out of range. */
static int
secs_ns(const cJSON *v, int64_t *ns)
{
    double s;

    if (pr_fld_num(v, &s) != PR_FLD_OK || s < 0 || s > 9e9)
        return 0;
    *ns = (int64_t)llround(s * 1e9);
    return 1;
}

/* [start, end] of a {start, kern, end} record; *kern_ns is start when the
 * operator ran no kernel (kern -1). */
static int
times_of(const cJSON *rec, int64_t *start, int64_t *kern, int64_t *end)
{
    if (!secs_ns(get(rec, "start"), start) || !secs_ns(get(rec, "end"), end) ||
        *end < *start)
        return 0;
    if (!secs_ns(get(rec, "kern"), kern) || *kern < *start || *kern > *end)
        *kern = *start;
    return 1;
}

static struct pr_event *
add_event(struct stat_ctx *c, int kind, uint32_t name, const char *pid,
          const char *tid, int64_t ts, int64_t dur)
{
    struct pr_event *e = pr_trace_add_event(c->t);
    uint32_t pid_id, tid_id;

    if (e == NULL)
        return NULL;
    e->kind = (uint8_t)kind;
    e->name = name;
    e->ts_ns = ts;
    e->dur_ns = dur;
    e->order = c->order++;
    pid_id = intern_s(c, pid);
    tid_id = intern_s(c, tid);
    if (name == PR_STR_NONE || pid_id == PR_STR_NONE || tid_id == PR_STR_NONE ||
        pr_event_set_where(c->t, e, pr_event_cat(c->t, e), pid_id, tid_id) !=
            PR_OK)
        return NULL;
    return e;
}

/* Input shapes as Kineto prints them, from opr_footprint.in_shapes, and
 * their dtypes from the input vars' memory plans. */
static enum pr_status
shapes_text(struct stat_ctx *c, const cJSON *opr, const cJSON *fp,
            uint32_t *dims, uint32_t *types)
{
    const cJSON *s, *d, *in;
    int i = 0;

    pr_buf_reset(&c->tmp);
    if (pr_buf_addc(&c->tmp, '[') != PR_OK)
        return PR_E_NOMEM;
    cJSON_ArrayForEach(s, get(fp, "in_shapes"))
    {
        int j = 0;

        if (pr_buf_adds(&c->tmp, i++ ? ", [" : "[") != PR_OK)
            return PR_E_NOMEM;
        cJSON_ArrayForEach(
            d, s) if (pr_buf_printf(&c->tmp, "%s%.0f", j++ ? ", " : "",
                                    d->valuedouble) != PR_OK) return PR_E_NOMEM;
        if (pr_buf_addc(&c->tmp, ']') != PR_OK)
            return PR_E_NOMEM;
    }
    if (pr_buf_addc(&c->tmp, ']') != PR_OK)
        return PR_E_NOMEM;
    *dims =
        i ? pr_strtab_intern(c->t->strs, c->tmp.data, c->tmp.len) : PR_STR_NONE;
    pr_buf_reset(&c->tmp);
    i = 0;
    if (pr_buf_addc(&c->tmp, '[') != PR_OK)
        return PR_E_NOMEM;
    cJSON_ArrayForEach(in, get(opr, "input"))
    {
        const char *dt = cJSON_GetStringValue(
            get(get(get(get(c->vars, cJSON_GetStringValue(in)), "mem_plan"),
                    "layout"),
                "dtype"));

        if (pr_buf_printf(&c->tmp, "%s'%s'", i++ ? ", " : "",
                          dt ? pr_megengine_kineto_type(dt) : "") != PR_OK)
            return PR_E_NOMEM;
    }
    if (pr_buf_addc(&c->tmp, ']') != PR_OK)
        return PR_E_NOMEM;
    *types =
        i ? pr_strtab_intern(c->t->strs, c->tmp.data, c->tmp.len) : PR_STR_NONE;
    return PR_OK;
}

/* The operator on each host thread that ran it, with its shapes and the
 * footprint's computation as its FLOPs, and a launch point at the time
 * it issued its kernel, linked to the device side by `link`. */
static enum pr_status
add_host(struct stat_ctx *c, const cJSON *opr, const char *id, int64_t link)
{
    const cJSON *fp = get(c->fp, id), *th;
    const char *type = cJSON_GetStringValue(get(opr, "type"));
    uint32_t dims, types, idx;
    double flops;

    if (shapes_text(c, opr, fp, &dims, &types) != PR_OK ||
        pr_shapes_note(c->t, PR_SHAPES_DIMS, dims) != PR_OK ||
        pr_shapes_note(c->t, PR_SHAPES_TYPES, types) != PR_OK)
        return PR_E_NOMEM;
    cJSON_ArrayForEach(th, get(c->host, id))
    {
        struct pr_op_info *op;
        struct pr_event *e;
        int64_t s, k, end;

        if (!times_of(th, &s, &k, &end))
            continue;
        e = add_event(c, PR_KIND_HOST_OP, intern_s(c, type ? type : "?"),
                      "megengine", th->string, s, end - s);
        if (e == NULL || (op = pr_trace_add_op(c->t, &idx)) == NULL)
            return PR_E_NOMEM;
        c->t->events[c->t->n_events - 1].info = idx;
        op->input_dims = dims;
        op->input_types = types;
        if (pr_fld_num(get(fp, "computation"), &flops) == PR_FLD_OK &&
            flops >= 0)
            op->flops = flops;
        e = add_event(c, PR_KIND_RUNTIME_CALL, intern_s(c, "KernelLaunch"),
                      "megengine", th->string, k, 0);
        if (e == NULL || pr_event_set_correlation(c->t, e, link) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

/* The operator's device time on each comp node: from its kernel to its
 * end (profile_analyze's "kern" part before it is waiting, not work). */
static enum pr_status
add_device(struct stat_ctx *c, const cJSON *opr, const char *id, int64_t link)
{
    const char *name = cJSON_GetStringValue(get(opr, "name"));
    const cJSON *cn;

    cJSON_ArrayForEach(cn, get(c->dev, id))
    {
        struct pr_gpu_info *g;
        struct pr_event *e;
        int64_t s, k, end;
        int type, dev, stream;
        char pid[16];
        uint32_t idx;

        if (!times_of(cn, &s, &k, &end) ||
            !pr_megengine_locator(cn->string, &type, &dev, &stream) ||
            type != 1)
            continue;
        snprintf(pid, sizeof(pid), "%d", dev);
        e = add_event(c, PR_KIND_DEVICE_TASK, intern_s(c, name ? name : id),
                      pid, cn->string, k, end - k);
        if (e == NULL || (g = pr_trace_add_gpu(c->t, &idx)) == NULL)
            return PR_E_NOMEM;
        e = &c->t->events[c->t->n_events - 1];
        e->info = idx;
        if (pr_event_set_correlation(c->t, e, link) != PR_OK)
            return PR_E_NOMEM;
        g->device = dev;
        g->stream = stream;
    }
    return PR_OK;
}

struct arena {
    double lo, hi, sum; /* device pointers' extent, sizes' sum */
    int has_ptr;
};

/* The static memory plan per GPU: the extent of its chunks' device
 * addresses (chunks whose lives do not overlap share memory, so that is
 * what the plan takes), or the sum of the chunk sizes when the addresses
 * were not recorded.  One allocation record per GPU, at time 0. */
static enum pr_status
add_memory(struct stat_ctx *c)
{
    struct arena a[16];
    const cJSON *ch;
    int i;

    memset(a, 0, sizeof(a));
    cJSON_ArrayForEach(ch, c->chunks)
    {
        const char *cn = cJSON_GetStringValue(
            get(get(c->vars, cJSON_GetStringValue(get(ch, "owner_var"))),
                "comp_node"));
        double size, ptr;
        int type, dev, stream;

        if (cn == NULL || !pr_megengine_locator(cn, &type, &dev, &stream) ||
            type != 1 || dev >= 16 ||
            pr_fld_num(get(ch, "size"), &size) != PR_FLD_OK || size <= 0)
            continue;
        a[dev].sum += size;
        if (pr_fld_num(get(ch, "dev_ptr"), &ptr) != PR_FLD_OK)
            continue;
        if (!a[dev].has_ptr || ptr < a[dev].lo)
            a[dev].lo = ptr;
        if (!a[dev].has_ptr || ptr + size > a[dev].hi)
            a[dev].hi = ptr + size;
        a[dev].has_ptr = 1;
    }
    for (i = 0; i < 16; i++) {
        double bytes = a[i].has_ptr ? a[i].hi - a[i].lo : a[i].sum;
        struct pr_event *e;
        struct pr_mem_info *mi;
        uint32_t idx;

        if (!(bytes > 0) || bytes > 9e18)
            continue;
        e = add_event(c, PR_KIND_MEMORY_RECORD, intern_s(c, "[memory]"),
                      "megengine", "memory plan", 0, 0);
        if (e == NULL || (mi = pr_trace_add_mem(c->t, &idx)) == NULL)
            return PR_E_NOMEM;
        c->t->events[c->t->n_events - 1].info = idx;
        mi->device_type = 1;
        mi->device_id = i;
        mi->bytes = (int64_t)bytes;
        mi->total_allocated = bytes;
    }
    return PR_OK;
}

/* What a graph profile cannot give, for the report's data-quality
 * notes. */
static enum pr_status
add_gaps(struct pr_trace *t, int footprint)
{
    enum pr_status st = pr_trace_add_gap(
        t, "no_kernels", 0,
        "device time is per operator (one {start, kern, end} per comp "
        "node), not per CUDA kernel: the kernel table lists operators, and "
        "grid, occupancy and kernel-name rules do not apply");

    if (st == PR_OK)
        st = pr_trace_add_gap(t, "no_steps", 0,
                              "a graph profile is one execution: no steps, "
                              "no host timeline between operators");
    if (st == PR_OK && !footprint)
        st = pr_trace_add_gap(t, "no_flops", 0,
                              "no opr_footprint: no FLOPs or shapes; "
                              "profile with load_and_run --profile (or "
                              "get_profile() after enabling the footprint)");
    return st;
}

static enum pr_status
build(struct stat_ctx *c, const cJSON *doc, struct pr_error *err)
{
    const cJSON *g = get(doc, "graph_exec"), *p = get(doc, "profiler"), *o;
    int64_t n = 0;

    c->ops = get(g, "operator");
    c->vars = get(g, "var");
    c->chunks = get(g, "mem_chunk");
    c->dev = get(p, "device");
    c->host = get(p, "host");
    c->fp = get(p, "opr_footprint");
    if (!cJSON_IsObject(c->ops) || !cJSON_IsObject(c->dev) ||
        !cJSON_IsObject(c->host))
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "not a MegEngine graph profile (no "
                            "graph_exec.operator, profiler.device and "
                            "profiler.host)");
    cJSON_ArrayForEach(o, c->ops)
    {
        int64_t link = LINK_BASE + n++;

        if (!cJSON_IsObject(o))
            continue;
        if (add_host(c, o, o->string, link) != PR_OK ||
            add_device(c, o, o->string, link) != PR_OK)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    if (add_memory(c) != PR_OK || add_gaps(c->t, c->fp != NULL) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    c->t->n_trace_events = (size_t)n;
    return PR_OK;
}

static enum pr_status
read_text(const char *path, uint64_t max, struct pr_buf *text,
          struct pr_error *err)
{
    struct pr_source *src = NULL;
    enum pr_status st = pr_source_open(path, max, 0, &src, err);
    const char *p;
    size_t n = 1;

    while (st == PR_OK && n > 0) {
        st = pr_source_next(src, &p, &n, err);
        if (st == PR_OK && n > 0 && pr_buf_add(text, p, n) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    pr_source_close(src);
    return st;
}

enum pr_status
pr_megengine_static_parse(const char *text, size_t len, struct pr_trace **out,
                          struct pr_error *err)
{
    struct stat_ctx c;
    const char *end = text;
    cJSON *doc;
    enum pr_status st;

    *out = NULL;
    st = pr_json_refuse_nul(text, len, 0, UINT64_MAX, err);
    if (st != PR_OK)
        return st;
    errno = 0; /* a failed allocation, not bad text, when ENOMEM */
    doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (doc == NULL && errno == ENOMEM)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (doc == NULL)
        return pr_error_set(err, PR_E_FORMAT, "byte %zu: not valid JSON",
                            (size_t)(end - text));
    memset(&c, 0, sizeof(c));
    pr_buf_init(&c.tmp, 0);
    c.t = pr_trace_new();
    st = c.t ? PR_OK : pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK) {
        c.t->format = intern_s(&c, "megengine-static");
        c.t->bytes = len;
        st = build(&c, doc, err);
    }
    cJSON_Delete(doc);
    pr_buf_free(&c.tmp);
    if (st != PR_OK) {
        pr_trace_free(c.t);
        return st;
    }
    pr_trace_finish(c.t);
    *out = c.t;
    return PR_OK;
}

static enum pr_status
load(const char *path, const struct pr_read_opts *o, struct pr_trace **out,
     struct pr_error *err)
{
    struct pr_buf text;
    enum pr_status st;

    *out = NULL;
    pr_buf_init(&text, 0);
    st = read_text(path,
                   o && o->max_input_bytes ? o->max_input_bytes
                                           : PR_READ_DEFAULT_MAX,
                   &text, err);
    if (st == PR_OK)
        st = pr_megengine_static_parse(text.data ? text.data : "", text.len,
                                       out, err);
    pr_buf_free(&text);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

const struct pr_format pr_format_megengine_static = {
    "megengine-static", sniff, load, 0, "MegEngine profile"};
