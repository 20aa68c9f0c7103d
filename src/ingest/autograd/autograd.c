/* autograd.c - the legacy autograd profiler's Chrome trace:
 * torch.autograd.profiler.profile().export_chrome_trace(), which is also
 * what torch.profiler writes on PyTorch builds without Kineto (Debian's
 * 1.13).  A bare array of "X" events on pid "CPU functions": operators,
 * record_function ranges and ProfilerStep#N, tid the thread.  Up to
 * PyTorch 1.8, with use_cuda, each operator is followed by one "X" event
 * on pid "CUDA functions" (tid the device, torch_npu's fork writes "NPU
 * functions"): the operator's device time between two CUDA events, which
 * contains the device time of the operators it called.  Such ranges
 * become device tasks of the operator's own (self) time, each linked to
 * its operator, so that no device time counts twice.  The export writes
 * no args; `profreport record`'s launcher writes the same layout with the
 * args Kineto would carry (Input Dims, Input type, Call stack, Sequence
 * number, Fwd thread id) and "[memory]" instants, which are read here
 * too. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../internal.h"
#include "profreport/formats.h"

#define CPU_PID "CPU functions"

/* A host operator as read, for nesting and for its device ranges. */
struct hop {
    int64_t ts_ns, end_ns;
    size_t ev;      /* its event's index (stable until pr_trace_finish) */
    uint32_t tid;   /* string id */
    uint32_t order; /* file order among host ops */
    int64_t launch; /* where its launch point goes; set by place_launches */
};

/* A device range: one operator's device time, children included. */
struct drange {
    int64_t ts_ns, end_ns;
    int32_t device;
    uint32_t op; /* index into hops */
};

struct ag {
    struct pr_trace *t;
    struct hop *hops;
    size_t n_hops, cap_hops;
    struct drange *ranges;
    size_t n_ranges, cap_ranges;
    size_t n_shapes, n_mem, n_npu;
    size_t unowned;           /* device ranges before any operator: not kept */
    struct pr_buf a, b, c, d; /* scratch texts */
};

/* ------------------------------------------------------------ sniffing */

/* The export's own process name, in the first event it writes. */
static enum pr_claim
sniff(const struct pr_probe *p)
{
    if (p->is_dir || pr_probe_first(p) != '[')
        return PR_CLAIM_NO;
    return pr_probe_has(p, "\"pid\": \"" CPU_PID "\"") ||
                   pr_probe_has(p, "\"pid\":\"" CPU_PID "\"")
               ? PR_CLAIM_SURE
               : PR_CLAIM_NO;
}

/* ------------------------------------------------------------ events */

static const cJSON *
member(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* pid or tid as text into b (NUL-terminated); "" when absent.  A remote
 * event's tid is a string with spaces around it. */
static enum pr_status
id_text(const cJSON *v, struct pr_buf *b)
{
    size_t i = 0;

    pr_buf_reset(b);
    if (!pr_fld_id_text(v, 1, b) || b->len == 0)
        return pr_buf_adds(b, "");
    while (i < b->len && b->data[i] == ' ')
        i++;
    while (b->len > i && b->data[b->len - 1] == ' ')
        b->data[--b->len] = '\0';
    if (i > 0) {
        memmove(b->data, b->data + i, b->len - i + 1);
        b->len -= i;
    }
    return PR_OK;
}

static int64_t
int_arg(const cJSON *args, const char *key)
{
    int64_t v;

    return pr_fld_int(member(args, key), INT64_MIN + 1, INT64_MAX, &v) ==
                   PR_FLD_OK
               ? v
               : -1;
}

/* A list arg as Python prints it ("[[16, 3], []]"), or NULL. */
static const char *
list_arg(const cJSON *args, const char *key, struct pr_buf *b,
         enum pr_status *st)
{
    const cJSON *v = member(args, key);

    pr_buf_reset(b);
    if (!cJSON_IsArray(v))
        return NULL;
    *st = pr_fld_py_str(v, b);
    return *st == PR_OK && b->data != NULL ? b->data : NULL;
}

static enum pr_status
add_hop(struct ag *g, const struct pr_span *s, size_t ev)
{
    struct hop *h;

    if (pr_grow((void **)&g->hops, &g->cap_hops, g->n_hops + 1, sizeof(*h)) !=
        PR_OK)
        return PR_E_NOMEM;
    h = &g->hops[g->n_hops];
    h->ts_ns = s->ts_ns;
    h->end_ns = s->ts_ns + s->dur_ns;
    h->ev = ev;
    h->tid = pr_event_tid(g->t, &g->t->events[ev]);
    h->order = (uint32_t)g->n_hops;
    h->launch = s->ts_ns;
    g->n_hops++;
    return PR_OK;
}

/* An operator or range on "CPU functions", with what args it has. */
static enum pr_status
on_host(struct ag *g, const cJSON *ev, struct pr_span *s)
{
    const cJSON *args = member(ev, "args");
    const cJSON *stack = member(args, "Call stack");
    struct pr_op_desc op = {NULL, NULL, NULL, -1, -1, -1};
    enum pr_status st = PR_OK;
    size_t idx;

    op.dims = list_arg(args, "Input Dims", &g->c, &st);
    if (st == PR_OK)
        op.types = list_arg(args, "Input type", &g->d, &st);
    if (st != PR_OK)
        return st;
    op.seq = int_arg(args, "Sequence number");
    op.fwd_tid = int_arg(args, "Fwd thread id");
    g->n_shapes += op.dims != NULL;
    st = pr_trace_add_host_op(g->t, PR_KIND_HOST_OP, s, &op, &idx);
    if (st == PR_OK && cJSON_IsString(stack)) {
        struct pr_op_info *o = pr_trace_op_edit(g->t, g->t->events[idx].info);
        uint32_t id = pr_strtab_intern(g->t->strs, stack->valuestring,
                                       strlen(stack->valuestring));

        if (o == NULL || id == PR_STR_NONE)
            return PR_E_NOMEM;
        o->stack = id;
    }
    return st == PR_OK ? add_hop(g, s, idx) : st;
}

/* A device range on "CUDA functions": it follows the operator it timed. */
static enum pr_status
on_device(struct ag *g, const struct pr_span *s, const cJSON *tid)
{
    struct drange *r;
    int64_t dev = -1;

    if (g->n_hops == 0) {
        g->unowned++;
        return PR_OK;
    }
    if (pr_fld_int(tid, 0, INT32_MAX, &dev) != PR_FLD_OK)
        dev = -1;
    if (pr_grow((void **)&g->ranges, &g->cap_ranges, g->n_ranges + 1,
                sizeof(*r)) != PR_OK)
        return PR_E_NOMEM;
    r = &g->ranges[g->n_ranges++];
    r->ts_ns = s->ts_ns;
    r->end_ns = s->ts_ns + s->dur_ns;
    r->device = (int32_t)dev;
    r->op = (uint32_t)(g->n_hops - 1);
    return PR_OK;
}

/* "[memory]": an allocation or release, with Kineto's args. */
static enum pr_status
on_memory(struct ag *g, const cJSON *ev, const struct pr_span *s)
{
    const cJSON *args = member(ev, "args");
    struct pr_mem_desc m = {-1, -1, PR_NO_ID, 0, NAN, NAN};
    double v;
    int64_t i;

    if (pr_fld_int(member(args, "Bytes"), INT64_MIN, INT64_MAX, &m.bytes) !=
        PR_FLD_OK)
        return PR_OK; /* no size: nothing to add up */
    if (pr_fld_int(member(args, "Device Type"), 0, INT32_MAX, &i) == PR_FLD_OK)
        m.device_type = (int32_t)i;
    if (pr_fld_int(member(args, "Device Id"), -1, INT32_MAX, &i) == PR_FLD_OK)
        m.device_id = (int32_t)i;
    if (pr_fld_int(member(args, "Addr"), INT64_MIN + 1, INT64_MAX, &i) ==
        PR_FLD_OK)
        m.addr = i;
    if (pr_fld_num(member(args, "Total Allocated"), &v) == PR_FLD_OK)
        m.total_allocated = v;
    if (pr_fld_num(member(args, "Total Reserved"), &v) == PR_FLD_OK)
        m.total_reserved = v;
    g->n_mem++;
    return pr_trace_add_memory(g->t, s, &m, NULL);
}

static enum pr_status
dispatch(struct ag *g, const cJSON *ev, char ph, struct pr_span *s)
{
    const char *pid = g->a.data != NULL ? g->a.data : "";
    int device =
        strcmp(pid, "CUDA functions") == 0 || strcmp(pid, "NPU functions") == 0;

    if (ph == 'i' && strcmp(s->name, "[memory]") == 0)
        return on_memory(g, ev, s);
    if (ph != 'X')
        return PR_OK; /* flows (cpu_to_cuda), metadata: counted */
    if (pr_fld_time_ns(member(ev, "dur"), &s->dur_ns) != PR_FLD_OK) {
        g->t->diag.skipped_no_dur++;
        return PR_OK;
    }
    if (s->dur_ns < 0) {
        g->t->diag.negative_dur++;
        s->dur_ns = 0;
    }
    if (device) {
        g->n_npu += pid[0] == 'N';
        return on_device(g, s, member(ev, "tid"));
    }
    if (strcmp(pid, CPU_PID) == 0)
        return on_host(g, ev, s);
    g->t->diag.unknown_cat++;
    return pr_trace_add_span(g->t, PR_KIND_OTHER, s, NULL);
}

/* One element of the array. */
static enum pr_status
on_event(void *ctx, uint64_t index, uint64_t offset, const char *text,
         size_t len, struct pr_error *err)
{
    struct ag *g = ctx;
    cJSON *ev;
    const char *ph, *name;
    struct pr_span s = {NULL, NULL, NULL, NULL, 0, 0, PR_NO_ID, PR_NO_ID};
    enum pr_status st = pr_json_refuse_nul(text, len, offset, index, err);

    if (st != PR_OK)
        return st;
    ev = cJSON_ParseWithLength(text, len);

    g->t->n_trace_events++;
    if (ev == NULL)
        return pr_error_set(
            err, PR_E_FORMAT, "byte %llu: event %llu: not valid JSON",
            (unsigned long long)offset, (unsigned long long)index);
    ph = cJSON_GetStringValue(member(ev, "ph"));
    name = cJSON_GetStringValue(member(ev, "name"));
    if (!cJSON_IsObject(ev) || ph == NULL || ph[0] == '\0' || ph[1] != '\0') {
        g->t->diag.non_object += !cJSON_IsObject(ev);
    } else if (pr_fld_time_ns(member(ev, "ts"), &s.ts_ns) != PR_FLD_OK) {
        g->t->diag.skipped_bad_ts++;
    } else {
        s.name = name != NULL ? name : "";
        st = id_text(member(ev, "pid"), &g->a);
        if (st == PR_OK)
            st = id_text(member(ev, "tid"), &g->b);
        s.pid = g->a.data;
        s.tid = g->b.data;
        if (st == PR_OK)
            st = dispatch(g, ev, ph[0], &s);
    }
    cJSON_Delete(ev);
    if (st != PR_OK)
        return pr_error_set(err, st, "byte %llu: event %llu: out of memory",
                            (unsigned long long)offset,
                            (unsigned long long)index);
    return PR_OK;
}

/* ------------------------------------------------------------ nesting */

static int
cmp_hop(const void *pa, const void *pb)
{
    const struct hop *a = pa, *b = pb;

    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    if (a->end_ns != b->end_ns)
        return a->end_ns > b->end_ns ? -1 : 1; /* the outer one first */
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Where op p may place its launch point: not inside any operator nested
 * in it, or the op tree would hand its device time to that child.  The
 * first instant from p's start that no child holds (children come in
 * start order); p's start when the children cover it all. */
struct probe {
    size_t hop;
    int64_t at;
    int found;
};

static void
probe_child(struct probe *p, const struct hop *kid)
{
    if (p->found)
        return;
    if (p->at < kid->ts_ns)
        p->found = 1;
    else if (kid->end_ns >= p->at)
        p->at = kid->end_ns + 1;
}

static void
probe_close(struct ag *g, const struct probe *p)
{
    struct hop *h = &g->hops[p->hop];

    h->launch = p->found || p->at <= h->end_ns ? p->at : h->ts_ns;
}

/* Nest each thread's operators by time and place every launch point. */
static enum pr_status
place_launches(struct ag *g)
{
    struct probe *stack = malloc((g->n_hops + 1) * sizeof(*stack));
    size_t i, depth = 0;

    if (stack == NULL)
        return PR_E_NOMEM;
    qsort(g->hops, g->n_hops, sizeof(*g->hops), cmp_hop);
    for (i = 0; i < g->n_hops; i++) {
        const struct hop *h = &g->hops[i];

        while (depth > 0) {
            const struct hop *top = &g->hops[stack[depth - 1].hop];

            if (top->tid == h->tid && h->ts_ns <= top->end_ns &&
                h->end_ns <= top->end_ns)
                break;
            probe_close(g, &stack[--depth]);
        }
        if (depth > 0)
            probe_child(&stack[depth - 1], h);
        stack[depth].hop = i;
        stack[depth].at = h->ts_ns;
        stack[depth].found = 0;
        depth++;
    }
    while (depth > 0)
        probe_close(g, &stack[--depth]);
    free(stack);
    return PR_OK;
}

/* ------------------------------------------------------------ device */

static int
cmp_range(const void *pa, const void *pb)
{
    const struct drange *a = pa, *b = pb;

    if (a->device != b->device)
        return a->device < b->device ? -1 : 1;
    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    if (a->end_ns != b->end_ns)
        return a->end_ns > b->end_ns ? -1 : 1;
    return a->op < b->op ? -1 : a->op > b->op;
}

/* One piece of an operator's own device time, linked to it: the op gets
 * an External id (its file order + 1), a zero-length launch point named
 * after the export's flow ("cpu_to_cuda") carries it and a correlation,
 * and the piece carries the correlation. */
static enum pr_status
emit_piece(struct ag *g, const struct drange *r, int64_t from, int64_t to,
           const uint32_t *hop_at, int npu)
{
    const struct hop *h = &g->hops[hop_at[r->op]];
    struct pr_event *op = &g->t->events[h->ev];
    int64_t id = (int64_t)r->op + 1;
    struct pr_task_desc d = pr_trace_task_desc();
    char dev[16];
    struct pr_span s = {NULL, NULL, NULL, NULL, 0, 0, id, id};
    enum pr_status st = PR_OK;

    if (to <= from)
        return PR_OK;
    if (pr_event_external_id(g->t, op) != id) {
        st = pr_event_set_external_id(g->t, op, id);
        s.name = npu ? "cpu_to_npu" : "cpu_to_cuda";
        s.pid = pr_trace_str(g->t, pr_event_pid(g->t, op));
        s.tid = pr_trace_str(g->t, h->tid);
        s.ts_ns = h->launch;
        if (st == PR_OK)
            st = pr_trace_add_span(g->t, PR_KIND_RUNTIME_CALL, &s, NULL);
        op = &g->t->events[h->ev]; /* the add may have moved the array */
    }
    snprintf(dev, sizeof(dev), "%d", (int)r->device);
    s.name = pr_trace_str(g->t, op->name);
    s.pid = dev;
    s.tid = dev;
    s.ts_ns = from;
    s.dur_ns = to - from;
    s.external_id = PR_NO_ID;
    d.device = r->device;
    if (st == PR_OK)
        st = pr_trace_add_task(g->t, PR_KIND_DEVICE_TASK, &s, &d, NULL);
    return st;
}

/* An open device range and how far its own time has been given out. */
struct dopen {
    size_t r;
    int64_t cursor;
};

/* Each range minus the ranges nested in it, per device: what PyTorch's
 * self_cuda_time_total counts, laid out in time. */
static enum pr_status
emit_device(struct ag *g)
{
    struct dopen *stack;
    uint32_t *hop_at;
    size_t i, depth = 0;
    enum pr_status st = PR_OK;
    int npu = g->n_npu > 0;

    if (g->n_ranges == 0) /* a CPU trace (qsort may not take NULL) */
        return PR_OK;
    stack = malloc((g->n_ranges + 1) * sizeof(*stack));
    hop_at = malloc((g->n_hops + 1) * sizeof(*hop_at));
    if (stack == NULL || hop_at == NULL) {
        free(stack);
        free(hop_at);
        return PR_E_NOMEM;
    }
    for (i = 0; i < g->n_hops; i++)
        hop_at[g->hops[i].order] = (uint32_t)i;
    qsort(g->ranges, g->n_ranges, sizeof(*g->ranges), cmp_range);
    for (i = 0; i <= g->n_ranges && st == PR_OK; i++) {
        const struct drange *r = i < g->n_ranges ? &g->ranges[i] : NULL;

        while (depth > 0 && st == PR_OK) {
            struct dopen *top = &stack[depth - 1];
            const struct drange *o = &g->ranges[top->r];

            if (r != NULL && r->device == o->device && r->ts_ns < o->end_ns)
                break;
            st = emit_piece(g, o, top->cursor, o->end_ns, hop_at, npu);
            depth--;
        }
        if (r == NULL || st != PR_OK)
            break;
        if (depth > 0) { /* r lies in the open range: a child's time */
            struct dopen *top = &stack[depth - 1];
            const struct drange *o = &g->ranges[top->r];
            int64_t end = r->end_ns < o->end_ns ? r->end_ns : o->end_ns;

            st = emit_piece(g, o, top->cursor, r->ts_ns, hop_at, npu);
            if (end > top->cursor)
                top->cursor = end;
        }
        stack[depth].r = i;
        stack[depth].cursor = r->ts_ns;
        depth++;
    }
    free(stack);
    free(hop_at);
    return st;
}

/* ------------------------------------------------------------ gaps */

static enum pr_status
add_gaps(struct ag *g)
{
    enum pr_status st = PR_OK;

    if (g->n_ranges > 0)
        st = pr_trace_add_gap(
            g->t, "no_kernels", 0,
            "device time is the legacy profiler's CUDA-event range of each "
            "operator, not kernels: an operator's own time (PyTorch's Self "
            "CUDA) is its range less its children's, in pieces the kernel "
            "table lists under the operator's name; utilization counts the "
            "time any range was open; kernel-name, grid and occupancy rules "
            "do not apply (torch.profiler with Kineto records kernels)");
    if (st == PR_OK && g->n_hops > 0 && g->n_shapes == 0)
        st = pr_trace_add_gap(
            g->t, "no_shapes", 0,
            "export_chrome_trace() writes no input shapes: no FLOPs and no "
            "operators by shape (profreport record writes them)");
    if (st == PR_OK && g->unowned > 0)
        st = pr_trace_add_gap(g->t, "bad_links", g->unowned,
                              "device ranges before any operator: their "
                              "operator is unknown, so they are left out");
    if (st == PR_OK && g->n_hops > 0 && g->n_mem == 0)
        st = pr_trace_add_gap(g->t, "no_memory", 0,
                              "no [memory] records: no memory curve "
                              "(profreport record writes them with "
                              "profile_memory)");
    return st;
}

/* ------------------------------------------------------------ loading */

static void
ag_free(struct ag *g)
{
    free(g->hops);
    free(g->ranges);
    pr_buf_free(&g->a);
    pr_buf_free(&g->b);
    pr_buf_free(&g->c);
    pr_buf_free(&g->d);
}

static enum pr_status
build(struct ag *g, struct pr_source *src, struct pr_error *err)
{
    enum pr_status st = pr_split_source(src, on_event, g, err);

    g->t->bytes = pr_source_bytes(src);
    if (st != PR_OK)
        return st;
    if (g->n_hops == 0)
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "no \"" CPU_PID "\" events: not an autograd "
                            "profiler trace");
    if (g->n_npu > 0) {
        g->t->device_kind = pr_strtab_intern(g->t->strs, "npu", 3);
        if (g->t->device_kind == PR_STR_NONE)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    st = place_launches(g);
    if (st == PR_OK)
        st = emit_device(g);
    if (st == PR_OK)
        st = add_gaps(g);
    return st == PR_OK ? PR_OK : pr_error_set(err, st, "out of memory");
}

static enum pr_status
load(const char *path, const struct pr_read_opts *o, struct pr_trace **out,
     struct pr_error *err)
{
    struct pr_source *src = NULL;
    struct ag g;
    enum pr_status st;

    *out = NULL;
    memset(&g, 0, sizeof(g));
    pr_buf_init(&g.a, 0);
    pr_buf_init(&g.b, 0);
    pr_buf_init(&g.c, 0);
    pr_buf_init(&g.d, 0);
    g.t = pr_trace_new();
    st = g.t == NULL
             ? pr_error_set(err, PR_E_NOMEM, "out of memory")
             : pr_source_open(path,
                              o && o->max_input_bytes ? o->max_input_bytes
                                                      : PR_READ_DEFAULT_MAX,
                              1, &src, err);
    if (st == PR_OK) {
        g.t->format = pr_strtab_intern(g.t->strs, "autograd", 8);
        st = g.t->format == PR_STR_NONE
                 ? pr_error_set(err, PR_E_NOMEM, "out of memory")
                 : build(&g, src, err);
    }
    pr_source_close(src);
    ag_free(&g);
    if (st != PR_OK) {
        pr_trace_free(g.t);
        pr_error_prefix(err, "%s: ", path);
        return st;
    }
    pr_trace_finish(g.t);
    *out = g.t;
    return PR_OK;
}

const struct pr_format pr_format_autograd = {"autograd", sniff, load, 0,
                                             "autograd profiler trace"};
