/* megengine.c - MegEngine's dynamic-graph profiler output,
 * <pid>.chrome_timeline.json, in each shape its writer had
 * (spec/other-producers.md §4.1): a bare array of events up to v1.4, an
 * object whose first event is "Metadata" in v1.5, an object with
 * metadata.localTime from v1.6, and the StopStep markers and call stacks
 * of v1.12.  Events are B/E pairs, so they are paired per thread here;
 * which thread is a device is only known from the thread_name records at
 * the end of the file, so the pairs are kept as spans and turned into the
 * model's events once the whole file is read.  The static-graph profile
 * (get_profile()) is megengine_static.c's. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../internal.h"
#include "profreport/checked.h"
#include "profreport/formats.h"
#include "profreport/shapes.h"

/* MegEngine's own ids (op ids in v1.4, kernel ids of its KernelLaunch
 * flows) kept apart from CUPTI correlation ids, which the same file can
 * carry when enable_cupti was on. */
#define OWN_ID ((int64_t)1 << 62)

#define MAX_DEPTH 512 /* open B events on one thread */

enum {
    F_OP = 1u << 0,         /* an operator execution (args __name__ / id) */
    F_KERNEL_CAT = 1u << 1, /* cat "Kernel": the op's device time */
    F_CUPTI = 1u << 2,      /* a CUPTI kernel (args execution_time) */
    F_COPY = 1u << 3,       /* a copy on a device (Memcpy, HostToDevice) */
    F_SET = 1u << 4,        /* a fill on a device (Memset) */
    F_LAUNCH = 1u << 5,     /* a host call that a CUPTI flow leaves */
    F_SYNTH = 1u << 6,      /* a launch point made from a KernelLaunch flow */
    F_SKIP = 1u << 7        /* tensor bookkeeping (Input 3, Put 7, ...) */
};

/* One B/E pair (or a launch point), before its kind is known. */
struct span {
    int64_t ts_ns, dur_ns;
    int64_t link;  /* correlation of the flow seen inside; PR_NO_ID */
    int64_t op_id; /* __id__ (v1.5+) or id (v1.4); -1 */
    int64_t bytes; /* copies and fills; -1 */
    uint32_t name, lane, order;
    uint32_t dims, types; /* Kineto-style input shapes; PR_STR_NONE */
    unsigned flags;
};

/* An open B event. */
struct frame {
    uint32_t name, order;
    int64_t ts_ns;
    int64_t link, op_id;
    unsigned flags;
    struct pr_buf dims, types; /* inputs so far, without brackets */
    size_t n_inputs;
    uint32_t v14_inputs; /* v1.4 "inputs" ("[3, 4]"); PR_STR_NONE */
    uint32_t v14_name;   /* v1.4 args.name (the op behind "OpExecute") */
};

/* One thread of the file: host thread, device lane or CUPTI stream. */
struct lane {
    uint32_t pid, tid, tname; /* string ids; tname PR_STR_NONE until named */
    struct frame *fr;
    size_t depth, cap;
    int device, stream; /* from a comp-node name; -1 */
    int devicey;        /* device work was seen on it */
};

/* A v1.4 tensor's snapshot, for op input shapes and the memory curve. */
struct tensor {
    int64_t id, bytes;
    uint32_t dims, type; /* "[32, 3]" and "'float'" texts */
    int dev_type, dev_id;
};

struct step_mark {
    int64_t ts_ns;
    uint32_t lane;
};

struct mge {
    struct pr_trace *t;
    struct lane *lanes;
    size_t n_lanes, cap_lanes;
    struct span *spans;
    size_t n_spans, cap_spans;
    struct tensor *tensors; /* open-addressing table by id; 0 = empty */
    size_t cap_tensors, n_tensors;
    struct step_mark *steps;
    size_t n_steps, cap_steps;
    int64_t last_mem[2][64]; /* last counter value per device; -1 none */
    int saw_launch_flows;    /* KernelLaunch flows link ops and kernels */
    int saw_cupti;
    struct pr_buf tmp;
};

/* ------------------------------------------------------------ sniffing */

/* Strings only this producer writes, near the start of every file of
 * its shape: v1.5's Metadata record, the interpreter's own event names
 * and op-detail keys, v1.12's front counters (misspelt by the writer). */
static const char *const signatures[] = {
    "\"localTime\"",       "\"OpDispatch\"",     "\"__id__\"",
    "\"gpu_usgae_ratio\"", "\"CommandExecute\"", "\"CommandEnqueue\"",
    "\"TensorLifetime\"",  "\"StartProfile\"",
};

/* Not "KernelLaunch": CANN's msprof timeline writes `"Mode":
 * "KernelLaunch"` on every Runtime@KernelLaunch call, and MegEngine's
 * files that have its flows have its other names too. */

int
pr_megengine_signed(const struct pr_probe *p)
{
    size_t i;

    for (i = 0; i < sizeof(signatures) / sizeof(signatures[0]); i++)
        if (pr_probe_has(p, signatures[i]))
            return 1;
    return 0;
}

static enum pr_claim
sniff(const struct pr_probe *p)
{
    int c;

    if (p->is_dir)
        return PR_CLAIM_NO;
    c = pr_probe_first(p);
    if ((c == '{' || c == '[') && pr_megengine_signed(p) &&
        !pr_probe_has(p, "\"graph_exec\""))
        return PR_CLAIM_SURE;
    return PR_CLAIM_NO;
}

/* ------------------------------------------------------------ small parts */

static uint32_t
intern(struct mge *m, const char *s, size_t n)
{
    return pr_strtab_intern(m->t->strs, s, n);
}

static uint32_t
intern_s(struct mge *m, const char *s)
{
    return intern(m, s, strlen(s));
}

/* "gpu0:1" anywhere in a comp-node name (`CompNode("gpu0:0" from
 * "xpu0:0")`, "xpu0:0", "gpu0:0_alloc_mem"): device type (0 CPU, 1 GPU,
 * 2 other), index and stream; 0 when the text names no comp node. */
int
pr_megengine_locator(const char *s, int *type, int *dev, int *stream)
{
    static const char *const kinds[] = {"gpu",   "xpu",       "cpu", "rocm",
                                        "atlas", "cambricon", NULL};
    size_t i;

    for (; *s; s++) {
        for (i = 0; kinds[i]; i++) {
            size_t n = strlen(kinds[i]);
            char *end;
            long d;

            if (strncmp(s, kinds[i], n) != 0 || s[n] < '0' || s[n] > '9')
                continue;
            d = strtol(s + n, &end, 10);
            if (*end != ':' || d > 4096)
                continue;
            *type = i < 2 ? 1 : i == 2 ? 0 : 2;
            *dev = (int)d;
            *stream = end[1] >= '0' && end[1] <= '9' ? atoi(end + 1) : -1;
            return 1;
        }
    }
    return 0;
}

/* Bytes per element of a MegEngine dtype name; 0 when unknown. */
int
pr_megengine_dtype_size(const char *d)
{
    static const struct {
        const char *name;
        int size;
    } sizes[] = {
        {"Float32", 4},     {"Float16", 2},         {"BFloat16", 2},
        {"Int32", 4},       {"Int16", 2},           {"Int8", 1},
        {"Uint8", 1},       {"Uint16", 2},          {"Bool", 1},
        {"Byte", 1},        {"QuantizedS32", 4},    {"QuantizedS16", 2},
        {"QuantizedS8", 1}, {"Quantized8Asymm", 1}, {"Float64", 8},
    };
    size_t i;

    for (i = 0; d && i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(d, sizes[i].name) == 0)
            return sizes[i].size;
    return 0;
}

/* The Kineto "Input type" spelling of a MegEngine dtype, so the FLOP and
 * tensor-core rules read both producers alike. */
const char *
pr_megengine_kineto_type(const char *d)
{
    static const char *const map[][2] = {
        {"Float32", "float"},          {"Float16", "c10::Half"},
        {"BFloat16", "c10::BFloat16"}, {"Int32", "int"},
        {"Int16", "short int"},        {"Int8", "signed char"},
        {"Uint8", "unsigned char"},    {"Bool", "bool"},
        {"Float64", "double"},
    };
    size_t i;

    for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(d, map[i][0]) == 0)
            return map[i][1];
    return d;
}

/* A shape as MegEngine prints it ("{32,3,224,224}" from v1.5,
 * "[ 32, 3, 224, 224 ]" in v1.4, "[ ]" for a scalar) appended to `out`
 * as Kineto prints one ("[32, 3, 224, 224]"); *elems gets the product.
 * 0 when the text is not a shape. */
int
pr_megengine_shape(const char *s, struct pr_buf *out, int64_t *elems)
{
    char close = *s == '{' ? '}' : ']';
    int64_t prod = 1, v;
    int n = 0;

    if (*s != '{' && *s != '[')
        return 0;
    if (pr_buf_addc(out, '[') != PR_OK)
        return 0;
    for (s++;;) {
        char *end;

        while (*s == ' ' || *s == ',')
            s++;
        if (*s == close)
            break;
        if (*s < '0' || *s > '9')
            return 0;
        v = strtoll(s, &end, 10);
        if (!pr_checked_mul_i64(prod, v, &prod))
            return 0;
        if (pr_buf_printf(out, "%s%lld", n++ ? ", " : "", (long long)v) !=
            PR_OK)
            return 0;
        s = end;
    }
    *elems = prod;
    return s[1] == '\0' && pr_buf_addc(out, ']') == PR_OK;
}

/* ------------------------------------------------------------ lanes */

static enum pr_status
lane_of(struct mge *m, const cJSON *ev, uint32_t *out, struct pr_error *err)
{
    uint32_t pid, tid;
    size_t i;

    if (!pr_fld_id_text(cJSON_GetObjectItemCaseSensitive(ev, "pid"), 0,
                        &m->tmp))
        pr_buf_reset(&m->tmp);
    pid = intern(m, m->tmp.data ? m->tmp.data : "", m->tmp.len);
    if (!pr_fld_id_text(cJSON_GetObjectItemCaseSensitive(ev, "tid"), 0,
                        &m->tmp))
        pr_buf_reset(&m->tmp);
    tid = intern(m, m->tmp.data ? m->tmp.data : "", m->tmp.len);
    if (pid == PR_STR_NONE || tid == PR_STR_NONE)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < m->n_lanes; i++) {
        if (m->lanes[i].pid == pid && m->lanes[i].tid == tid) {
            *out = (uint32_t)i;
            return PR_OK;
        }
    }
    if (pr_grow((void **)&m->lanes, &m->cap_lanes, m->n_lanes + 1,
                sizeof(*m->lanes)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    memset(&m->lanes[m->n_lanes], 0, sizeof(*m->lanes));
    m->lanes[m->n_lanes].pid = pid;
    m->lanes[m->n_lanes].tid = tid;
    m->lanes[m->n_lanes].tname = PR_STR_NONE;
    m->lanes[m->n_lanes].device = m->lanes[m->n_lanes].stream = -1;
    *out = (uint32_t)m->n_lanes++;
    return PR_OK;
}

static void
lanes_free(struct mge *m)
{
    size_t i, k;

    for (i = 0; i < m->n_lanes; i++) {
        for (k = 0; k < m->lanes[i].cap; k++) {
            pr_buf_free(&m->lanes[i].fr[k].dims);
            pr_buf_free(&m->lanes[i].fr[k].types);
        }
        free(m->lanes[i].fr);
    }
    free(m->lanes);
}

static struct span *
new_span(struct mge *m)
{
    struct span *s;

    if (pr_grow((void **)&m->spans, &m->cap_spans, m->n_spans + 1,
                sizeof(*s)) != PR_OK)
        return NULL;
    s = &m->spans[m->n_spans++];
    memset(s, 0, sizeof(*s));
    s->link = PR_NO_ID;
    s->op_id = -1;
    s->bytes = -1;
    s->dims = s->types = PR_STR_NONE;
    return s;
}

/* ------------------------------------------------------------ tensors */

static struct tensor *
tensor_slot(struct mge *m, int64_t id)
{
    size_t mask = m->cap_tensors - 1, i;

    if (m->cap_tensors == 0)
        return NULL;
    for (i = (size_t)id * 0x9E3779B97F4A7C15ull & mask;; i = (i + 1) & mask)
        if (m->tensors[i].id == id || m->tensors[i].id == 0)
            return &m->tensors[i];
}

static enum pr_status
tensor_grow(struct mge *m)
{
    struct tensor *old = m->tensors;
    size_t n = m->cap_tensors, i;

    if (m->cap_tensors >= ((size_t)1 << 40))
        return PR_E_NOMEM;
    m->cap_tensors = n ? n * 2 : 256;
    m->tensors = calloc(m->cap_tensors, sizeof(*m->tensors));
    if (m->tensors == NULL) {
        m->tensors = old;
        m->cap_tensors = n;
        return PR_E_NOMEM;
    }
    for (i = 0; i < n; i++)
        if (old[i].id != 0)
            *tensor_slot(m, old[i].id) = old[i];
    free(old);
    return PR_OK;
}

/* ------------------------------------------------------------ the model */

static enum pr_status
add_mem(struct mge *m, uint32_t lane, int64_t ts, int type, int dev,
        int64_t addr, int64_t bytes, double total)
{
    struct pr_event *e = pr_trace_add_event(m->t);
    struct pr_mem_info *mi;
    uint32_t idx;

    if (e == NULL)
        return PR_E_NOMEM;
    e->ts_ns = ts;
    e->kind = PR_KIND_MEMORY_RECORD;
    e->name = intern_s(m, "[memory]");
    e->order = (uint32_t)m->t->n_events - 1;
    if (pr_event_set_where(m->t, e, pr_event_cat(m->t, e), m->lanes[lane].pid,
                           m->lanes[lane].tid) != PR_OK)
        return PR_E_NOMEM;
    mi = pr_trace_add_mem(m->t, &idx);
    if (mi == NULL)
        return PR_E_NOMEM;
    e = &m->t->events[m->t->n_events - 1];
    e->info = idx;
    mi->device_type = type;
    mi->device_id = dev;
    mi->addr = addr;
    mi->bytes = bytes;
    mi->total_allocated = total;
    return e->name == PR_STR_NONE ? PR_E_NOMEM : PR_OK;
}

/* Counters "<locator>_alloc_mem" {value} (v1.6+) and
 * "<locator>_alloc_memory" {<name>: value} (v1.5): device memory in use,
 * sampled.  Each sample is a record with the running total and the change
 * since the last sample of that device. */
static enum pr_status
on_counter(struct mge *m, const cJSON *ev, uint32_t lane, int64_t ts,
           const char *name)
{
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, "value");
    size_t n = strlen(name);
    int type, dev, stream;
    int64_t val, *last;

    if (!(n > 10 && strcmp(name + n - 10, "_alloc_mem") == 0) &&
        !(n > 13 && strcmp(name + n - 13, "_alloc_memory") == 0))
        return PR_OK;
    if (v == NULL)
        v = cJSON_GetObjectItemCaseSensitive(args, name);
    if (pr_fld_int(v, 0, INT64_MAX / 2, &val) != PR_FLD_OK ||
        !pr_megengine_locator(name, &type, &dev, &stream) || type > 1 ||
        dev >= 64)
        return PR_OK;
    last = &m->last_mem[type][dev];
    if (add_mem(m, lane, ts, type, dev, PR_NO_ID, *last < 0 ? val : val - *last,
                (double)val) != PR_OK)
        return PR_E_NOMEM;
    *last = val;
    return PR_OK;
}

/* v1.4 TensorLifetime objects: 'O' carries the produced tensor's shape,
 * dtype and device (an allocation), 'D' its erasure (the release). */
static enum pr_status
on_object(struct mge *m, const cJSON *ev, char ph, uint32_t lane, int64_t ts)
{
    const cJSON *snap = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(ev, "args"), "snapshot");
    const char *shape =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(snap, "shape"));
    const char *dtype =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(snap, "dtype"));
    const char *dev =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(snap, "device"));
    struct tensor *x;
    int64_t id, elems = 0;
    int type = -1, d = -1, stream;

    if (pr_fld_int(cJSON_GetObjectItemCaseSensitive(ev, "id"), 1, INT64_MAX,
                   &id) != PR_FLD_OK)
        return PR_OK;
    if (ph == 'D') {
        x = tensor_slot(m, id);
        if (x == NULL || x->id != id || x->bytes <= 0)
            return PR_OK;
        return add_mem(m, lane, ts, x->dev_type, x->dev_id, id, -x->bytes, NAN);
    }
    if (ph != 'O' || shape == NULL || dtype == NULL)
        return PR_OK;
    if (2 * (m->n_tensors + 1) > m->cap_tensors && tensor_grow(m) != PR_OK)
        return PR_E_NOMEM;
    x = tensor_slot(m, id);
    m->n_tensors += x->id == 0;
    x->id = id;
    pr_buf_reset(&m->tmp);
    if (!pr_megengine_shape(shape, &m->tmp, &elems))
        return PR_OK;
    x->dims = intern(m, m->tmp.data, m->tmp.len);
    pr_buf_reset(&m->tmp);
    if (pr_buf_printf(&m->tmp, "'%s'", pr_megengine_kineto_type(dtype)) !=
        PR_OK)
        return PR_E_NOMEM;
    x->type = intern(m, m->tmp.data, m->tmp.len);
    x->dev_type = x->dev_id = -1;
    if (dev != NULL && pr_megengine_locator(dev, &type, &d, &stream) &&
        type <= 1) {
        x->dev_type = type;
        x->dev_id = d;
    }
    if (!pr_checked_mul_i64(elems, pr_megengine_dtype_size(dtype), &x->bytes))
        x->bytes = 0;
    if (x->bytes <= 0 || x->dev_type < 0)
        return PR_OK;
    return add_mem(m, lane, ts, x->dev_type, x->dev_id, id, x->bytes, NAN);
}

/* ------------------------------------------------------------ B and E */

static enum pr_status
push(struct mge *m, struct lane *l, uint32_t name, int64_t ts, uint32_t order,
     struct pr_error *err)
{
    struct frame *f;
    size_t old = l->cap;

    if (l->depth >= MAX_DEPTH)
        return pr_error_set(err, PR_E_LIMIT,
                            "more than %d nested B events on one thread",
                            MAX_DEPTH);
    if (pr_grow((void **)&l->fr, &l->cap, l->depth + 1, sizeof(*f)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (; old < l->cap; old++) {
        pr_buf_init(&l->fr[old].dims, 0);
        pr_buf_init(&l->fr[old].types, 0);
    }
    f = &l->fr[l->depth++];
    f->name = name;
    f->order = order;
    f->ts_ns = ts;
    f->link = PR_NO_ID;
    f->op_id = -1;
    f->flags = 0;
    pr_buf_reset(&f->dims);
    pr_buf_reset(&f->types);
    f->n_inputs = 0;
    f->v14_inputs = f->v14_name = PR_STR_NONE;
    (void)m;
    return PR_OK;
}

/* v1.4 ops carry their identity on B: args name, id, inputs ("[3, 4]"),
 * outputs and op.<param>; their device twins carry the same id. */
static void
b_args(struct mge *m, struct frame *f, const cJSON *args)
{
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "name"));
    const char *inputs =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "inputs"));
    int64_t id;

    if (name == NULL || inputs == NULL ||
        pr_fld_int(cJSON_GetObjectItemCaseSensitive(args, "id"), 0,
                   INT64_MAX / 4, &id) != PR_FLD_OK)
        return;
    f->flags |= F_OP;
    f->op_id = id;
    f->v14_name = intern_s(m, name);
    f->v14_inputs = intern_s(m, inputs);
}

/* An input tensor's shape and dtype into the enclosing op's frame. */
static enum pr_status
add_input(struct frame *f, const char *shape, const char *dtype)
{
    int64_t elems;
    size_t mark = f->dims.len;

    if (f->n_inputs > 0 && (pr_buf_adds(&f->dims, ", ") != PR_OK ||
                            pr_buf_adds(&f->types, ", ") != PR_OK))
        return PR_E_NOMEM;
    if (shape == NULL || !pr_megengine_shape(shape, &f->dims, &elems)) {
        f->dims.len = mark;
        if (pr_buf_adds(&f->dims, "[]") != PR_OK)
            return PR_E_NOMEM;
    }
    if (pr_buf_printf(&f->types, "'%s'",
                      dtype ? pr_megengine_kineto_type(dtype) : "") != PR_OK)
        return PR_E_NOMEM;
    f->n_inputs++;
    return PR_OK;
}

/* v1.4: the op's inputs are tensor ids; their shapes came with the
 * TensorLifetime snapshots. */
static enum pr_status
v14_inputs(struct mge *m, struct frame *f)
{
    const char *s = pr_trace_str(m->t, f->v14_inputs);
    const char *dims, *type;

    while (*s) {
        char *end;
        long long id = strtoll(s, &end, 10);
        struct tensor *x;

        if (end == s) {
            s++;
            continue;
        }
        s = end;
        x = tensor_slot(m, id);
        dims = x && x->id == id ? pr_trace_str(m->t, x->dims) : "[]";
        type = x && x->id == id ? pr_trace_str(m->t, x->type) : "''";
        if ((f->n_inputs++ > 0 && (pr_buf_adds(&f->dims, ", ") != PR_OK ||
                                   pr_buf_adds(&f->types, ", ") != PR_OK)) ||
            pr_buf_adds(&f->dims, dims) != PR_OK ||
            pr_buf_adds(&f->types, type) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

static uint32_t
bracketed(struct mge *m, const struct pr_buf *b)
{
    pr_buf_reset(&m->tmp);
    if (pr_buf_addc(&m->tmp, '[') != PR_OK ||
        (b->len && pr_buf_add(&m->tmp, b->data, b->len) != PR_OK) ||
        pr_buf_addc(&m->tmp, ']') != PR_OK)
        return PR_STR_NONE;
    return intern(m, m->tmp.data, m->tmp.len);
}

/* The device copy's name in Kineto's words ("Memcpy HtoD (Pageable ->
 * Device)") from the CUPTI memory kinds MegEngine writes. */
static const char *
kind_word(const char *k)
{
    static const char *const words[][2] = {
        {"PAGEABLE", "Pageable"}, {"PINNED", "Pinned"},   {"DEVICE", "Device"},
        {"ARRAY", "Array"},       {"MANAGED", "Managed"},
    };
    const char *p = k ? strstr(k, "_KIND_") : NULL;
    size_t i;

    for (i = 0; p && i < sizeof(words) / sizeof(words[0]); i++)
        if (strncmp(p + 6, words[i][0], strlen(words[i][0])) == 0)
            return words[i][1];
    return "Unknown";
}

static enum pr_status
copy_name(struct mge *m, struct span *s, const cJSON *args)
{
    const char *src = kind_word(cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(args, "src_kind")));
    const char *dst = kind_word(cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(args, "dst_kind")));
    int sd = strcmp(src, "Device") == 0, dd = strcmp(dst, "Device") == 0;

    pr_buf_reset(&m->tmp);
    if (pr_buf_printf(&m->tmp, "Memcpy %s (%s -> %s)",
                      sd && dd ? "DtoD"
                      : sd     ? "DtoH"
                      : dd     ? "HtoD"
                               : "HtoH",
                      src, dst) != PR_OK)
        return PR_E_NOMEM;
    s->name = intern(m, m->tmp.data, m->tmp.len);
    return s->name == PR_STR_NONE ? PR_E_NOMEM : PR_OK;
}

/* What the E args say about the pair: an op's detail (__name__, __id__),
 * a tensor's (shape, dtype), a CUPTI kernel's execution_time, a copy's
 * bytes and memory kinds, a host-to-device copy's shape. */
static enum pr_status
e_args(struct mge *m, struct span *s, const cJSON *args, const char *name)
{
    const cJSON *v;
    int64_t n, elems;
    const char *dt;

    /* OpDispatch ends with the op's detail too, but only queues it */
    if (cJSON_GetObjectItemCaseSensitive(args, "__name__") != NULL &&
        strcmp(name, "OpDispatch") != 0) {
        s->flags |= F_OP;
        if (pr_fld_int(cJSON_GetObjectItemCaseSensitive(args, "__id__"), 0,
                       INT64_MAX / 4, &n) == PR_FLD_OK)
            s->op_id = n;
    }
    if (cJSON_GetObjectItemCaseSensitive(args, "execution_time") != NULL)
        s->flags |= F_CUPTI;
    v = cJSON_GetObjectItemCaseSensitive(args, "bytes");
    if (v != NULL && pr_fld_int(v, 0, INT64_MAX, &n) == PR_FLD_OK) {
        s->bytes = n;
        if (strcmp(name, "Memset") == 0)
            s->flags |= F_SET;
        else if (cJSON_GetObjectItemCaseSensitive(args, "src_kind")) {
            s->flags |= F_COPY;
            return copy_name(m, s, args);
        }
    }
    if (strcmp(name, "HostToDevice") == 0 &&
        pr_fld_int(cJSON_GetObjectItemCaseSensitive(args, "nr_elements"), 0,
                   INT64_MAX, &elems) == PR_FLD_OK) {
        dt = cJSON_GetStringValue(
            cJSON_GetObjectItemCaseSensitive(args, "dtype"));
        s->flags |= F_COPY;
        if (!pr_checked_mul_i64(elems, pr_megengine_dtype_size(dt), &s->bytes))
            s->bytes = -1;
        s->name = intern_s(m, "Memcpy HtoD (HostToDevice)");
    }
    return PR_OK;
}

static int
is_tensor_event(const char *name)
{
    static const char *const heads[] = {
        "Input ", "Output ",   "Put ",    "Drop ",    "Del ", "RecFree ",
        "ReGen ", "GetValue ", "SwapIn ", "SwapOut ", NULL};
    size_t i;

    for (i = 0; heads[i]; i++)
        if (strncmp(name, heads[i], strlen(heads[i])) == 0)
            return 1;
    return 0;
}

/* Where the E closes: the top frame of its name, or one below it (an
 * unbalanced inner B is dropped and counted).  -1 when none matches. */
static long
match_frame(struct mge *m, const struct lane *l, uint32_t name)
{
    size_t k;

    for (k = l->depth; k > 0; k--) {
        if (l->fr[k - 1].name == name)
            return (long)(k - 1);
    }
    m->t->diag.skipped_no_dur++;
    return -1;
}

static enum pr_status
close_span(struct mge *m, uint32_t lane, const cJSON *ev, int64_t ts,
           struct pr_error *err)
{
    struct lane *l = &m->lanes[lane];
    struct frame *f;
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
    const char *name = pr_trace_str(m->t, l->fr[l->depth - 1].name);
    struct span *s;

    f = &l->fr[l->depth - 1];
    if (is_tensor_event(name) && strncmp(name, "Input ", 6) == 0 &&
        l->depth >= 2 &&
        add_input(&l->fr[l->depth - 2],
                  cJSON_GetStringValue(
                      cJSON_GetObjectItemCaseSensitive(args, "shape")),
                  cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
                      args, "dtype"))) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (f->v14_inputs != PR_STR_NONE && v14_inputs(m, f) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    s = new_span(m);
    if (s == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    s->ts_ns = f->ts_ns;
    s->dur_ns = ts >= f->ts_ns ? ts - f->ts_ns : 0;
    m->t->diag.negative_dur += ts < f->ts_ns;
    s->name = f->v14_name != PR_STR_NONE ? f->v14_name : f->name;
    s->lane = lane;
    s->order = f->order;
    s->link = f->link;
    s->op_id = f->op_id;
    s->flags = f->flags | (is_tensor_event(name) ? F_SKIP : 0);
    if ((s->flags & F_OP) || f->n_inputs > 0) {
        s->dims = bracketed(m, &f->dims);
        s->types = bracketed(m, &f->types);
    }
    if (e_args(m, s, args, name) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    l->devicey |= (s->flags & (F_KERNEL_CAT | F_CUPTI | F_COPY | F_SET)) != 0;
    m->saw_cupti |= (s->flags & F_CUPTI) != 0;
    return PR_OK;
}

static enum pr_status
on_end(struct mge *m, uint32_t lane, const cJSON *ev, int64_t ts,
       struct pr_error *err)
{
    struct lane *l = &m->lanes[lane];
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "name"));
    uint32_t id;
    long k;

    if (l->depth == 0) {
        m->t->diag.skipped_no_dur++;
        return PR_OK;
    }
    id = name ? pr_strtab_find(m->t->strs, name, strlen(name))
              : l->fr[l->depth - 1].name;
    k = match_frame(m, l, id);
    if (k < 0)
        return PR_OK;
    m->t->diag.skipped_no_dur += l->depth - 1 - (size_t)k;
    l->depth = (size_t)k + 1;
    if (close_span(m, lane, ev, ts, err) != PR_OK)
        return err->code;
    l->depth--;
    return PR_OK;
}

static enum pr_status
on_begin(struct mge *m, uint32_t lane, const cJSON *ev, int64_t ts,
         uint32_t order, struct pr_error *err)
{
    struct lane *l = &m->lanes[lane];
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "name"));
    const char *cat =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "cat"));
    uint32_t id = intern_s(m, name ? name : "");

    if (id == PR_STR_NONE)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (push(m, l, id, ts, order, err) != PR_OK)
        return err->code;
    if (cat != NULL && strcmp(cat, "Kernel") == 0) {
        l->fr[l->depth - 1].flags |= F_KERNEL_CAT;
        l->devicey = 1;
    }
    b_args(m, &l->fr[l->depth - 1],
           cJSON_GetObjectItemCaseSensitive(ev, "args"));
    return PR_OK;
}

/* ------------------------------------------------------------ other phases */

/* Flows tie launches to device work: KernelLaunch (op -> device op, by
 * MegEngine's kernel id; the host end becomes a launch point), KernelLink
 * and CUPTILink (CUPTI correlation; the host end marks the open B as the
 * runtime call).  The others (OpDispatch, TensorLink, TensorProp) tie
 * host events together and are not needed. */
static enum pr_status
on_flow(struct mge *m, uint32_t lane, const cJSON *ev, int64_t ts, char ph,
        uint32_t order)
{
    const char *cat =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "cat"));
    struct lane *l = &m->lanes[lane];
    struct frame *top = l->depth ? &l->fr[l->depth - 1] : NULL;
    int own = cat && strcmp(cat, "KernelLaunch") == 0;
    struct span *s;
    int64_t id;

    if (cat == NULL || (!own && strcmp(cat, "KernelLink") != 0 &&
                        strcmp(cat, "CUPTILink") != 0))
        return PR_OK;
    if (pr_fld_int(cJSON_GetObjectItemCaseSensitive(ev, "id"), 0, OWN_ID - 1,
                   &id) != PR_FLD_OK)
        return PR_OK;
    if (own && ph == 's') {
        m->saw_launch_flows = 1;
        s = new_span(m);
        if (s == NULL)
            return PR_E_NOMEM;
        s->ts_ns = ts;
        s->lane = lane;
        s->order = order;
        s->link = OWN_ID + id;
        s->flags = F_SYNTH;
        s->name = intern_s(m, "KernelLaunch");
        return s->name == PR_STR_NONE ? PR_E_NOMEM : PR_OK;
    }
    if (top == NULL)
        return PR_OK;
    top->link = own ? OWN_ID + id : id;
    if (!own && ph == 's')
        top->flags |= F_LAUNCH;
    return PR_OK;
}

static enum pr_status
on_meta(struct mge *m, uint32_t lane, const cJSON *ev)
{
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "name"));
    const char *tname = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(ev, "args"), "name"));
    struct lane *l = &m->lanes[lane];
    int type, dev;

    if (name == NULL || strcmp(name, "thread_name") != 0 || tname == NULL)
        return PR_OK;
    l->tname = intern_s(m, tname);
    if (l->tname == PR_STR_NONE)
        return PR_E_NOMEM;
    /* a comp node's lane; only GPUs count as devices of the report */
    if (pr_megengine_locator(tname, &type, &dev, &l->stream)) {
        l->devicey = 1;
        l->device = type == 1 ? dev : -1;
    }
    return PR_OK;
}

static enum pr_status
on_step(struct mge *m, uint32_t lane, int64_t ts)
{
    if (pr_grow((void **)&m->steps, &m->cap_steps, m->n_steps + 1,
                sizeof(*m->steps)) != PR_OK)
        return PR_E_NOMEM;
    m->steps[m->n_steps].ts_ns = ts;
    m->steps[m->n_steps++].lane = lane;
    return PR_OK;
}

static enum pr_status
dispatch(struct mge *m, const cJSON *ev, char ph, uint32_t lane, int64_t ts,
         uint32_t order, struct pr_error *err)
{
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "name"));
    enum pr_status st = PR_OK;

    switch (ph) {
    case 'B':
        return on_begin(m, lane, ev, ts, order, err);
    case 'E':
        return on_end(m, lane, ev, ts, err);
    case 's':
    case 't':
    case 'f':
        st = on_flow(m, lane, ev, ts, ph, order);
        break;
    case 'C':
        st = name ? on_counter(m, ev, lane, ts, name) : PR_OK;
        break;
    case 'i':
    case 'I':
        if (name != NULL && strcmp(name, "StopStep") == 0)
            st = on_step(m, lane, ts);
        break;
    case 'O':
    case 'D':
        st = on_object(m, ev, ph, lane, ts);
        break;
    case 'M':
        st = on_meta(m, lane, ev);
        break;
    default: /* X (zero-length bookkeeping), N */
        break;
    }
    return st == PR_OK ? PR_OK : pr_error_set(err, st, "out of memory");
}

/* One element of traceEvents (or of the bare array). */
static enum pr_status
on_event(void *ctx, uint64_t index, uint64_t offset, const char *text,
         size_t len, struct pr_error *err)
{
    struct mge *m = ctx;
    cJSON *ev;
    const char *ph;
    uint32_t lane = 0;
    int64_t ts = 0;
    enum pr_fld r;
    enum pr_status st;

    st = pr_json_refuse_nul(text, len, offset, index, err);
    if (st != PR_OK)
        return st;
    errno = 0; /* a failed allocation, not bad text, when ENOMEM */
    ev = cJSON_ParseWithLength(text, len);
    m->t->n_trace_events++;
    if (ev == NULL && errno == ENOMEM)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (ev == NULL)
        return pr_error_set(
            err, PR_E_FORMAT, "byte %llu: event %llu: not valid JSON",
            (unsigned long long)offset, (unsigned long long)index);
    ph = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "ph"));
    if (!cJSON_IsObject(ev) || ph == NULL || ph[0] == '\0') {
        m->t->diag.non_object += !cJSON_IsObject(ev);
        cJSON_Delete(ev);
        return PR_OK;
    }
    r = ph[0] == 'M'
            ? PR_FLD_OK
            : pr_fld_time_ns(cJSON_GetObjectItemCaseSensitive(ev, "ts"), &ts);
    if (r == PR_FLD_RANGE) {
        /* a time no clock gives (1e300): bad input, as in a Kineto
           trace, not an event quietly counted away (issue #35) */
        double v =
            cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ev, "ts"));

        cJSON_Delete(ev);
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %llu: event %llu: ts out of range (%.17g "
                            "us: beyond +-2^62 ns)",
                            (unsigned long long)offset,
                            (unsigned long long)index, v);
    }
    if (r != PR_FLD_OK) {
        m->t->diag.skipped_bad_ts++;
        cJSON_Delete(ev);
        return PR_OK;
    }
    st = lane_of(m, ev, &lane, err);
    if (st == PR_OK)
        st = dispatch(m, ev, ph[0], lane, ts, (uint32_t)index, err);
    cJSON_Delete(ev);
    if (st != PR_OK)
        pr_error_prefix(err,
                        "byte %llu: event %llu: ", (unsigned long long)offset,
                        (unsigned long long)index);
    return st;
}

/* ------------------------------------------------------------ into the model
 */

static struct pr_event *
add_event(struct mge *m, const struct span *s, int kind, uint32_t name)
{
    struct pr_event *e = pr_trace_add_event(m->t);

    if (e == NULL)
        return NULL;
    e->ts_ns = s->ts_ns;
    e->dur_ns = s->dur_ns;
    e->name = name;
    e->order = s->order;
    e->kind = (uint8_t)kind;
    if (pr_event_set_where(m->t, e, pr_event_cat(m->t, e),
                           m->lanes[s->lane].pid,
                           m->lanes[s->lane].tid) != PR_OK)
        return NULL;
    return e;
}

/* A CUPTI launch's name.  MegEngine records the driver calls that start
 * device work (cpp_cupti.cpp: cuLaunchKernel under the kernel's name,
 * cuMemcpyAsync as "Memcpy", others under their own name); the runtime
 * calls around them come separately, as B/E pairs named "cuda...". */
static uint32_t
launch_name(struct mge *m, const struct span *s)
{
    const char *n = pr_trace_str(m->t, s->name);

    if (n[0] == 'c' && n[1] == 'u' && n[2] >= 'A' && n[2] <= 'Z')
        return s->name;
    if (strcmp(n, "Memcpy") == 0)
        return intern_s(m, "cuMemcpyAsync");
    return intern_s(m, "cuLaunchKernel");
}

/* "cudaLaunchKernel_v7000" -> "cudaLaunchKernel": CUPTI's callback names
 * carry the API version, which the analyses' name rules do not expect. */
uint32_t
pr_megengine_api_name(struct pr_strtab *strs, uint32_t id)
{
    const char *n = pr_strtab_get(strs, id);
    size_t len = strlen(n), k = len;

    while (k > 0 && n[k - 1] >= '0' && n[k - 1] <= '9')
        k--;
    if (k == len || k < 3 || n[k - 1] != 'v' || n[k - 2] != '_')
        return id;
    return pr_strtab_intern(strs, n, k - 2);
}

static enum pr_status
emit_host_op(struct mge *m, const struct span *s)
{
    struct pr_event *e = add_event(m, s, PR_KIND_HOST_OP, s->name);
    struct pr_op_info *op;
    struct span launch;
    uint32_t idx;

    if (e == NULL || (op = pr_trace_add_op(m->t, &idx)) == NULL)
        return PR_E_NOMEM;
    m->t->events[m->t->n_events - 1].info = idx;
    op->input_dims = s->dims;
    op->input_types = s->types;
    if (pr_shapes_note(m->t, PR_SHAPES_DIMS, s->dims) != PR_OK ||
        pr_shapes_note(m->t, PR_SHAPES_TYPES, s->types) != PR_OK)
        return PR_E_NOMEM;
    if (m->saw_launch_flows || s->op_id < 0)
        return PR_OK;
    /* v1.4 has no launch flows: the op's device twin carries its id, and
     * a launch point at the op's start links the two */
    launch = *s;
    launch.dur_ns = 0;
    e = add_event(m, &launch, PR_KIND_RUNTIME_CALL,
                  intern_s(m, "KernelLaunch"));
    if (e == NULL ||
        pr_event_set_correlation(m->t, e, OWN_ID + s->op_id) != PR_OK)
        return PR_E_NOMEM;
    return e->name == PR_STR_NONE ? PR_E_NOMEM : PR_OK;
}

static enum pr_status
emit_host(struct mge *m, const struct span *s)
{
    const char *n = pr_trace_str(m->t, s->name);
    struct pr_event *e;
    int kind = PR_KIND_ANNOTATION;
    uint32_t name = s->name;

    if (s->flags & F_SKIP)
        return PR_OK;
    if (s->flags & F_OP)
        return emit_host_op(m, s);
    if (s->flags & F_SYNTH) {
        kind = PR_KIND_RUNTIME_CALL;
    } else if (s->flags & F_LAUNCH) {
        kind = PR_KIND_DRIVER_CALL;
        name = launch_name(m, s);
    } else if (strncmp(n, "cuda", 4) == 0) {
        kind = PR_KIND_RUNTIME_CALL;
        name = pr_megengine_api_name(m->t->strs, s->name);
    } else if (n[0] == 'c' && n[1] == 'u' && n[2] >= 'A' && n[2] <= 'Z') {
        kind = PR_KIND_DRIVER_CALL;
        name = pr_megengine_api_name(m->t->strs, s->name);
    }
    e = add_event(m, s, kind, name);
    if (e == NULL || name == PR_STR_NONE)
        return PR_E_NOMEM;
    return pr_event_set_correlation(m->t, e, s->link);
}

/* The device kind of a span on a device lane.  With CUPTI on, the
 * op-level device ranges cover the CUPTI kernels they launched, so they
 * become annotations, or device time would count twice. */
static int
device_kind(const struct mge *m, const struct span *s)
{
    if (s->flags & F_CUPTI)
        return PR_KIND_DEVICE_TASK;
    if (s->flags & F_COPY)
        return PR_KIND_COPY;
    if (s->flags & F_SET)
        return PR_KIND_SET;
    if (s->flags & (F_KERNEL_CAT | F_OP))
        return m->saw_cupti ? PR_KIND_DEVICE_ANNOTATION : PR_KIND_DEVICE_TASK;
    return PR_KIND_DEVICE_ANNOTATION;
}

static enum pr_status
emit_device(struct mge *m, const struct span *s, int dev)
{
    int kind = device_kind(m, s);
    struct pr_event *e = add_event(m, s, kind, s->name);
    struct pr_gpu_info *g;
    char pid[16];
    uint32_t idx, pid_id;
    int64_t corr;

    if (e == NULL)
        return PR_E_NOMEM;
    snprintf(pid, sizeof(pid), "%d", dev);
    pid_id = dev >= 0 ? intern_s(m, pid) : intern_s(m, "device");
    corr = s->link;
    if (corr == PR_NO_ID && !m->saw_launch_flows && s->op_id >= 0)
        corr = OWN_ID + s->op_id;
    if (pid_id == PR_STR_NONE ||
        pr_event_set_where(m->t, e, pr_event_cat(m->t, e), pid_id,
                           pr_event_tid(m->t, e)) != PR_OK ||
        pr_event_set_correlation(m->t, e, corr) != PR_OK)
        return PR_E_NOMEM;
    if (kind == PR_KIND_DEVICE_ANNOTATION)
        return PR_OK;
    g = pr_trace_add_gpu(m->t, &idx);
    if (g == NULL)
        return PR_E_NOMEM;
    m->t->events[m->t->n_events - 1].info = idx;
    g->device = dev;
    g->stream = m->lanes[s->lane].stream;
    g->bytes = s->bytes;
    return PR_OK;
}

/* The device of a lane: its comp-node name, else (CUPTI streams are not
 * named) the only GPU of the file; -1 when unknown. */
static int
lane_device(const struct mge *m, const struct lane *l)
{
    int dev = -1;
    size_t i;

    if (l->device >= 0 || l->tname != PR_STR_NONE)
        return l->device;
    for (i = 0; i < m->n_lanes; i++) {
        int d = m->lanes[i].device;

        if (d >= 0 && dev >= 0 && d != dev)
            return -1;
        if (d >= 0)
            dev = d;
    }
    return dev;
}

/* Profiler.step() writes StopStep at the end of each step: step k runs
 * from the previous marker (the first host event for the first) to the
 * k-th, and is named as PyTorch names its steps. */
static enum pr_status
emit_steps(struct mge *m, int64_t first_ns)
{
    int64_t start = first_ns;
    size_t i;

    for (i = 0; i < m->n_steps; i++) {
        struct span s = {0};
        char name[48];

        if (start < m->steps[i].ts_ns) {
            snprintf(name, sizeof(name), "ProfilerStep#%zu", i);
            s.ts_ns = start;
            s.dur_ns = m->steps[i].ts_ns - start;
            s.lane = m->steps[i].lane;
            s.order = UINT32_MAX;
            if (add_event(m, &s, PR_KIND_ANNOTATION, intern_s(m, name)) == NULL)
                return PR_E_NOMEM;
        }
        start = m->steps[i].ts_ns;
    }
    return PR_OK;
}

static enum pr_status
emit_all(struct mge *m, struct pr_error *err)
{
    int64_t first = INT64_MAX;
    enum pr_status st = PR_OK;
    size_t i;

    for (i = 0; i < m->n_lanes; i++) /* B events the file never closed */
        m->t->diag.skipped_no_dur += m->lanes[i].depth;

    for (i = 0; i < m->n_spans && st == PR_OK; i++) {
        const struct span *s = &m->spans[i];
        const struct lane *l = &m->lanes[s->lane];

        if (l->devicey) {
            st = emit_device(m, s, lane_device(m, l));
            continue;
        }
        if (!(s->flags & F_SKIP) && s->ts_ns < first)
            first = s->ts_ns;
        st = emit_host(m, s);
    }
    if (st == PR_OK)
        st = emit_steps(m, first);
    return st == PR_OK ? PR_OK : pr_error_set(err, st, "out of memory");
}

/* ------------------------------------------------------------ gaps */

/* What the timeline cannot give, for the report's data-quality notes:
 * the profiler's own device events time operators, not kernels, unless
 * CUPTI was on; it records no collectives; steps need Profiler.step(). */
static enum pr_status
add_gaps(struct mge *m)
{
    enum pr_status st = PR_OK;
    size_t i, mem = 0;

    for (i = 0; i < m->t->n_events; i++)
        mem += m->t->events[i].kind == PR_KIND_MEMORY_RECORD;
    if (!m->saw_cupti)
        st = pr_trace_add_gap(
            m->t, "no_kernels", 0,
            "device time is MegEngine's per-operator device events, not "
            "CUDA kernels: the kernel table lists operators, and grid, "
            "occupancy and kernel-name rules do not apply; profile with "
            "enable_cupti=True (MegEngine 1.10+) for kernels");
    if (st == PR_OK && m->n_steps == 0)
        st = pr_trace_add_gap(m->t, "no_steps", 0,
                              "no StopStep markers: the capture is one "
                              "step; call Profiler.step() each iteration "
                              "(MegEngine 1.12.4+)");
    if (st == PR_OK && mem == 0)
        st = pr_trace_add_gap(m->t, "no_memory", 0,
                              "no <device>_alloc_mem counters or tensor "
                              "lifetimes: no memory curve");
    if (st == PR_OK)
        st = pr_trace_add_gap(m->t, "no_communication", 0,
                              "MegEngine's profiler records no collectives: "
                              "no communication sizes or bandwidth");
    return st;
}

/* ------------------------------------------------------------ loading */

static void
mge_free(struct mge *m)
{
    lanes_free(m);
    free(m->spans);
    free(m->tensors);
    free(m->steps);
    pr_buf_free(&m->tmp);
}

static enum pr_status
read_all(struct mge *m, struct pr_source *src, struct pr_error *err)
{
    struct pr_split split;
    enum pr_status st;
    const char *p;
    size_t n;

    pr_split_init(&split, on_event, m);
    do {
        st = pr_source_next(src, &p, &n, err);
        if (st == PR_OK && n > 0)
            st = pr_split_feed(&split, p, n, err);
    } while (st == PR_OK && n > 0);
    if (st == PR_OK)
        st = pr_split_finish(&split, err);
    pr_split_free(&split);
    m->t->bytes = pr_source_bytes(src);
    return st;
}

static enum pr_status
load_source(struct pr_source *src, struct pr_trace **out, struct pr_error *err)
{
    struct mge m;
    size_t i;
    enum pr_status st;

    memset(&m, 0, sizeof(m));
    pr_buf_init(&m.tmp, 0);
    for (i = 0; i < 2 * 64; i++)
        m.last_mem[i / 64][i % 64] = -1;
    m.t = pr_trace_new();
    if (m.t == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    m.t->format = intern_s(&m, "megengine");
    st = read_all(&m, src, err);
    if (st == PR_OK)
        st = emit_all(&m, err);
    if (st == PR_OK && add_gaps(&m) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    mge_free(&m);
    if (st != PR_OK) {
        pr_trace_free(m.t);
        return st;
    }
    pr_trace_finish(m.t);
    *out = m.t;
    return PR_OK;
}

enum pr_status
pr_megengine_load_mem(const char *name, const void *data, size_t len,
                      struct pr_trace **out, struct pr_error *err)
{
    struct pr_source *src = NULL;
    enum pr_status st;

    *out = NULL;
    st = pr_source_open_mem(data, len, PR_READ_DEFAULT_MAX, 0, &src, err);
    if (st == PR_OK)
        st = load_source(src, out, err);
    pr_source_close(src);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", name);
    return st;
}

static enum pr_status
load(const char *path, const struct pr_read_opts *o, struct pr_trace **out,
     struct pr_error *err)
{
    struct pr_source *src = NULL;
    enum pr_status st;

    *out = NULL;
    st = pr_source_open(path,
                        o && o->max_input_bytes ? o->max_input_bytes
                                                : PR_READ_DEFAULT_MAX,
                        1, &src, err);
    if (st == PR_OK)
        st = load_source(src, out, err);
    pr_source_close(src);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

const struct pr_format pr_format_megengine = {"megengine", sniff, load, 0,
                                              "MegEngine profile"};
