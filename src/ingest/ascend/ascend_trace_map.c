/* ascend_trace_map.c - the second pass over a trace_view.json: each
 * process's records become the model's events by what the process is
 * (spec §2.2), and torch_to_npu flows link tasks to their operators.
 *
 * The link: a flow's start sits on the launching operator (on the Python
 * thread, also when a task queue launched it from another thread), its
 * end on the task.  Each start becomes a zero-length runtime call
 * ("torch_to_npu") at that instant on that thread, correlated with the
 * task, so the op tree attaches the task to the operator holding it as
 * it does a CUDA launch; no time is invented.  CANN API calls stay runtime
 * calls of their own thread, with their real durations. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ascend_common.h"
#include "ascend_trace.h"

enum role { R_NONE, R_HOST, R_CANN, R_HW, R_HCCL, R_OVERLAP };

static const struct {
    const char *name;
    enum role role;
} roles[] = {
    {"Python", R_HOST}, {"CPU", R_HOST},
    {"CANN", R_CANN},   {"Ascend Hardware", R_HW},
    {"HCCL", R_HCCL},   {"Overlap Analysis", R_OVERLAP},
};

/* What the build needs to know about the file as a whole. */
struct named;

struct map {
    struct pr_tv *tv;
    struct pr_trace *t;
    uint32_t host_pid;     /* the Python process; PR_STR_NONE */
    int64_t *comm_streams; /* sorted: streams that carry HCCL tasks */
    size_t n_comm;
    struct pr_tv_flow **ends; /* async_npu 'f' ends, by (pid, tid, ts) */
    size_t n_ends;
    struct pr_tv_h2d h2d; /* HostToDevice flows */
    struct named *named;  /* processes and HCCL group threads, sorted */
    size_t n_named;
    struct pr_error *err;
};

static const char *
str(const struct map *m, uint32_t id)
{
    return id == PR_STR_NONE ? "" : pr_trace_str(m->t, id);
}

/* One process or thread the metadata names, looked up by id. */
struct named {
    uint32_t pid, tid;
    int what; /* enum role for processes; 1 = a group thread for HCCL */
};

static int
cmp_named(const void *a, const void *b)
{
    const struct named *x = a, *y = b;

    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static enum role
role_name(const char *name)
{
    size_t k;

    for (k = 0; k < sizeof(roles) / sizeof(roles[0]); k++)
        if (strcmp(name, roles[k].name) == 0)
            return roles[k].role;
    return R_NONE;
}

/* Processes by role, and the threads that carry HCCL's operations
 * ("Group 0 Communication"; the others are its planes).  The first
 * process_name of a pid wins. */
static enum pr_status
index_names(struct map *m)
{
    const struct pr_tv *tv = m->tv;
    size_t i, n = 0;

    m->named = malloc((tv->n_names ? tv->n_names : 1) * sizeof(*m->named));
    if (m->named == NULL)
        return pr_error_set(m->err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < tv->n_names; i++) {
        const struct pr_tv_name *nm = &tv->names[i];
        const char *text = str(m, nm->text);
        struct named k = {nm->pid, PR_STR_NONE, 0};

        if (nm->kind == PR_TV_PROCESS) {
            k.what = (int)role_name(text);
        } else if (nm->kind == PR_TV_THREAD &&
                   strstr(text, "Communication") != NULL) {
            k.tid = nm->tid;
            k.what = 1;
        } else {
            continue;
        }
        if (n > 0 && bsearch(&k, m->named, n, sizeof(k), cmp_named))
            continue;
        m->named[n++] = k;
        qsort(m->named, n, sizeof(k), cmp_named);
    }
    m->n_named = n;
    return PR_OK;
}

static int
named_as(const struct map *m, uint32_t pid, uint32_t tid)
{
    struct named k = {pid, tid, 0};
    const struct named *hit;

    if (m->n_named == 0)
        return 0;
    hit = bsearch(&k, m->named, m->n_named, sizeof(k), cmp_named);
    return hit ? hit->what : 0;
}

static enum role
role_of(const struct map *m, uint32_t pid)
{
    return (enum role)named_as(m, pid, PR_STR_NONE);
}

/* Thread `tid` of `pid` carries HCCL operations. */
static int
group_thread(const struct map *m, uint32_t pid, uint32_t tid)
{
    return tid != PR_STR_NONE && named_as(m, pid, tid) == 1;
}

/* The device id msprof packs into the pid of a device process: its
 * trace export (msprof analysis/common_func/trace_view_manager.py,
 * get_format_pid; torch_npu's _trace_event_manager.py get_pid_format the
 * same) writes (pid << 10) | (sort index << 5) | device id, device 31 for
 * the host.  -1 when `text` is no such pid (a plain 800 of older
 * exports: no process id above the low ten bits). */
static int64_t
packed_device(const char *text)
{
    int64_t v;

    if (!pr_fld_parse_int64(text, strlen(text), &v) || v < 1024 ||
        (v & 31) == 31)
        return -1;
    return v & 31;
}

/* The NPU's id: from a process label "NPU 3", else from the pids of the
 * device's processes (Ascend Hardware, HCCL) where they all pack the same
 * one (review 15 #12: text_level1's rank 1, pid 3170822561, is device 1);
 * *known 0 and device 0 when neither says. */
static int64_t
device_of(const struct map *m, int *known)
{
    const struct pr_tv *tv = m->tv;
    size_t i;
    int64_t d, packed = -1;

    *known = 1;
    for (i = 0; i < tv->n_names; i++) {
        const char *s = str(m, tv->names[i].text);

        if (tv->names[i].kind == PR_TV_LABEL && strncmp(s, "NPU ", 4) == 0 &&
            pr_fld_parse_int64(s + 4, strlen(s + 4), &d) && d >= 0 &&
            d < 1000000)
            return d;
    }
    for (i = 0; i < tv->n_names; i++) {
        enum role r = role_name(str(m, tv->names[i].text));

        if (tv->names[i].kind != PR_TV_PROCESS || (r != R_HW && r != R_HCCL))
            continue;
        d = packed_device(str(m, tv->names[i].pid));
        if (d < 0 || (packed >= 0 && d != packed)) {
            packed = -1;
            break;
        }
        packed = d;
    }
    *known = packed >= 0;
    return packed >= 0 ? packed : 0;
}

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : x > y;
}

static int
has_i64(const int64_t *v, size_t n, int64_t x)
{
    return n > 0 && bsearch(&x, v, n, sizeof(*v), cmp_i64) != NULL;
}

/* Streams of HCCL's own tasks: those that carry Notify waits, and those
 * the HCCL plane tasks name.  Copies there are part of a collective. */
static enum pr_status
find_comm_streams(struct map *m, const enum role *rl)
{
    size_t i, cap = 0;

    for (i = 0; i < m->tv->n_raw; i++) {
        const struct pr_tv_raw *x = &m->tv->raw[i];
        const char *tt = str(m, x->task_type);
        int64_t s;

        if (rl[i] == R_HW && strncmp(tt, "Notify", 6) == 0)
            pr_fld_parse_int64(str(m, x->tid), strlen(str(m, x->tid)), &s);
        else if (rl[i] == R_HCCL && x->stream >= 0)
            s = x->stream;
        else
            continue;
        if (has_i64(m->comm_streams, m->n_comm, s))
            continue;
        if (pr_grow((void **)&m->comm_streams, &cap, m->n_comm + 1,
                    sizeof(*m->comm_streams)) != PR_OK)
            return pr_error_set(m->err, PR_E_NOMEM, "out of memory");
        m->comm_streams[m->n_comm++] = s;
        qsort(m->comm_streams, m->n_comm, sizeof(*m->comm_streams), cmp_i64);
    }
    return PR_OK;
}

static int
cmp_end(const void *a, const void *b)
{
    const struct pr_tv_flow *x = *(const struct pr_tv_flow *const *)a;
    const struct pr_tv_flow *y = *(const struct pr_tv_flow *const *)b;

    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->ts_ns < y->ts_ns ? -1 : x->ts_ns > y->ts_ns;
}

static int
cmp_flow_id(const void *a, const void *b)
{
    const struct pr_tv_flow *x = *(const struct pr_tv_flow *const *)a;
    const struct pr_tv_flow *y = *(const struct pr_tv_flow *const *)b;

    return x->id < y->id ? -1 : x->id > y->id;
}

static enum pr_status
index_flow_ends(struct map *m)
{
    size_t i, n = m->tv->n_flows ? m->tv->n_flows : 1;

    m->ends = malloc(n * sizeof(*m->ends));
    if (m->ends == NULL || pr_tv_h2d_index(m->tv, &m->h2d) != PR_OK)
        return pr_error_set(m->err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < m->tv->n_flows; i++) {
        struct pr_tv_flow *f = &m->tv->flows[i];

        if (f->cat == PR_TV_FLOW_NPU && f->ph == 'f')
            m->ends[m->n_ends++] = f;
    }
    if (m->n_ends > 0)
        qsort(m->ends, m->n_ends, sizeof(*m->ends), cmp_end);
    return PR_OK;
}

enum pr_status
pr_tv_h2d_index(const struct pr_tv *tv, struct pr_tv_h2d *h)
{
    size_t i, n = tv->n_flows ? tv->n_flows : 1;

    memset(h, 0, sizeof(*h));
    h->ends = malloc(n * sizeof(*h->ends));
    h->starts = malloc(n * sizeof(*h->starts));
    if (h->ends == NULL || h->starts == NULL) {
        pr_tv_h2d_free(h);
        return PR_E_NOMEM;
    }
    for (i = 0; i < tv->n_flows; i++) {
        struct pr_tv_flow *f = &tv->flows[i];

        if (f->cat == PR_TV_FLOW_H2D && f->ph == 'f')
            h->ends[h->n_ends++] = f;
        else if (f->cat == PR_TV_FLOW_H2D && f->ph == 's')
            h->starts[h->n_starts++] = f;
    }
    if (h->n_ends > 0)
        qsort(h->ends, h->n_ends, sizeof(*h->ends), cmp_end);
    if (h->n_starts > 0)
        qsort(h->starts, h->n_starts, sizeof(*h->starts), cmp_flow_id);
    return PR_OK;
}

void
pr_tv_h2d_free(struct pr_tv_h2d *h)
{
    free(h->ends);
    free(h->starts);
    memset(h, 0, sizeof(*h));
}

/* The flow of `ends` that ends on task x (same process, stream and
 * start). */
static struct pr_tv_flow *
flow_end_at(struct pr_tv_flow **ends, size_t n, const struct pr_tv_raw *x)
{
    struct pr_tv_flow key, *kp = &key, **hit;

    memset(&key, 0, sizeof(key));
    key.pid = x->pid;
    key.tid = x->tid;
    key.ts_ns = x->ts_ns;
    if (n == 0)
        return NULL;
    hit = bsearch(&kp, ends, n, sizeof(*ends), cmp_end);
    return hit ? *hit : NULL;
}

struct pr_tv_flow *
pr_tv_h2d_start(const struct pr_tv_h2d *h, const struct pr_tv_raw *x)
{
    struct pr_tv_flow *f = flow_end_at(h->ends, h->n_ends, x), key, *kp = &key,
                      **hit;

    if (f == NULL || h->n_starts == 0)
        return NULL;
    memset(&key, 0, sizeof(key));
    key.id = f->id;
    hit = bsearch(&kp, h->starts, h->n_starts, sizeof(*h->starts), cmp_flow_id);
    return hit ? *hit : NULL;
}

/* The async_npu flow that ends on task x. */
static struct pr_tv_flow *
flow_into(const struct map *m, const struct pr_tv_raw *x)
{
    return flow_end_at(m->ends, m->n_ends, x);
}

/* ------------------------------------------------------------ events */

static struct pr_event *
new_event(struct map *m, const struct pr_tv_raw *x, enum pr_kind kind)
{
    struct pr_event *e = pr_trace_add_event(m->t);

    if (e == NULL)
        return NULL;
    e->ts_ns = x->ts_ns;
    e->dur_ns = x->dur_ns;
    e->name = x->name;
    e->order = x->order;
    e->kind = (uint8_t)kind;
    if (pr_event_set_where(m->t, e,
                           x->cat == PR_STR_NONE ? PR_STR_EMPTY : x->cat,
                           x->pid, x->tid) != PR_OK)
        return NULL;
    return e;
}

/* Input Dims / Input type as the model keeps them (Python's list text). */
static uint32_t
list_text(struct map *m, uint32_t raw, int shapes, struct pr_buf *b)
{
    const char *s = str(m, raw);
    int r;

    if (raw == PR_STR_NONE)
        return PR_STR_NONE;
    pr_buf_reset(b);
    r = shapes ? pr_ascend_shapes(s, strlen(s), b)
               : pr_ascend_names(s, strlen(s), 0, b);
    if (r <= 0)
        return PR_STR_NONE;
    return pr_strtab_intern(m->t->strs, b->data, b->len);
}

static enum pr_status
add_host(struct map *m, const struct pr_tv_raw *x, struct pr_buf *b)
{
    const char *cat = str(m, x->cat);
    int py = strcmp(cat, "python_function") == 0;
    enum pr_kind k = strcmp(cat, "cpu_op") == 0 ? PR_KIND_HOST_OP
                     : py                       ? PR_KIND_PY_FUNCTION
                                                : PR_KIND_OTHER;
    struct pr_event *e = new_event(m, x, k);
    struct pr_op_info *o;

    if (e == NULL)
        return PR_E_NOMEM;
    if (k == PR_KIND_OTHER) { /* enqueue / dequeue of the task queue */
        /* torch_npu numbers each entry of its task queue when it is
           enqueued (QueueParas::correlation_id, one counter of the
           process) and writes that number on the entry's Enqueue and
           Dequeue@<op> ranges (args.correlation_id): kept as their
           correlation, which pairs them (critpath.c) */
        if (x->queue_corr >= 0 &&
            (strcmp(cat, "enqueue") == 0 || strcmp(cat, "dequeue") == 0) &&
            pr_event_set_correlation(m->t, e, x->queue_corr) != PR_OK)
            return PR_E_NOMEM;
        return PR_OK;
    }
    o = pr_trace_add_op(m->t, &e->info);
    if (o == NULL)
        return PR_E_NOMEM;
    o->seq = x->seq;
    o->fwd_tid = x->fwd_tid;
    o->input_dims = list_text(m, x->dims, 1, b);
    o->input_types = list_text(m, x->types, 0, b);
    /* torch_npu writes the op's Python stack (with_stack=True) as
       Kineto's "Call stack" arg; the source view reads it as it reads
       Kineto's and the db's PYTORCH_CALLCHAINS (ascend_db.c) */
    o->stack = x->stack;
    return pr_trace_set_py(m->t, e->info, x->py_id, x->py_parent, x->py_module);
}

/* HCCL: the operation on the group's thread is the collective; plane
 * tasks detail its transfers and are kept, uncounted. */
static enum pr_status
add_hccl(struct map *m, const struct pr_tv_raw *x)
{
    const char *coll = pr_ascend_collective(str(m, x->name));
    int op = coll != NULL || group_thread(m, x->pid, x->tid);
    struct pr_event *e =
        new_event(m, x, op ? PR_KIND_DEVICE_TASK : PR_KIND_OTHER);
    struct pr_gpu_info *g;
    struct pr_ascend_dtype d;
    const char *dt = str(m, x->data_type);

    if (e == NULL)
        return PR_E_NOMEM;
    if (!op)
        return pr_ascend_hccl_peer(m->t, str(m, x->task_type), x->src_rank,
                                   x->dst_rank, x->ts_ns, x->dur_ns);
    if (pr_event_set_correlation(m->t, e, x->corr >= 0 ? x->corr : PR_NO_ID) !=
        PR_OK)
        return PR_E_NOMEM;
    g = pr_trace_add_gpu(m->t, &e->info);
    if (g == NULL)
        return PR_E_NOMEM;
    g->device = (int32_t)m->tv->device;
    g->unit = PR_UNIT_COMM;
    g->task_type = pr_strtab_intern(m->t->strs, "HCCL", 4);
    g->collective =
        pr_strtab_intern(m->t->strs, coll ? coll : "", coll ? strlen(coll) : 0);
    if (pr_ascend_dtype(dt, strlen(dt), &d))
        g->dtype = pr_strtab_intern(m->t->strs, d.comm, strlen(d.comm));
    g->in_nelems = g->out_nelems = x->count;
    return PR_OK;
}

static enum pr_status
add_task(struct map *m, const struct pr_tv_raw *x)
{
    const char *tt = str(m, x->task_type);
    enum pr_ascend_task c = pr_ascend_task_class(tt);
    enum pr_kind k;
    struct pr_event *e;
    struct pr_gpu_info *g;
    int64_t stream = -1;

    /* an RTS copy task ("MEMCPY_ASYNC") has Task Type "Other" in torch_npu's
       trace_view: its name says it is a copy (review 28a #10) */
    if (c == PR_ASCEND_TASK_COMPUTE &&
        pr_ascend_task_class(str(m, x->name)) == PR_ASCEND_TASK_COPY)
        c = PR_ASCEND_TASK_COPY;
    k = pr_ascend_task_kind(c);
    pr_fld_parse_int64(str(m, x->tid), strlen(str(m, x->tid)), &stream);
    if (k == PR_KIND_COPY && has_i64(m->comm_streams, m->n_comm, stream))
        k = PR_KIND_OTHER; /* an HCCL transfer: the collective counts it */
    e = new_event(m, x, k);
    if (e == NULL)
        return PR_E_NOMEM;
    if (k != PR_KIND_DEVICE_TASK && k != PR_KIND_COPY)
        return PR_OK;
    if (pr_event_set_correlation(m->t, e, x->corr >= 0 ? x->corr : PR_NO_ID) !=
        PR_OK)
        return PR_E_NOMEM;
    g = pr_trace_add_gpu(m->t, &e->info);
    if (g == NULL)
        return PR_E_NOMEM;
    g->device = (int32_t)m->tv->device;
    g->stream = (int32_t)(stream >= 0 && stream <= INT32_MAX ? stream : -1);
    g->task_type = x->task_type;
    g->task_id = x->task_id;
    /* an RTS copy task states its bytes and direction (npu_text2's 24
       MEMCPY_ASYNC tasks: 'data size(Byte)', 'memcpy direction': 'host
       to device'; review 28a #14 read them as "other") */
    if (k == PR_KIND_COPY) {
        if (x->data_bytes >= 0)
            g->bytes = x->data_bytes;
        g->copy_dir = (uint8_t)pr_ascend_copy_dir(
            x->copy_dir == PR_STR_NONE ? NULL : str(m, x->copy_dir));
    }
    /* "AI_CORE" here is the hardware queue, which on A2/A3 also runs
       vector kernels: only kernel_details says which unit ran it */
    if (strcmp(tt, "AI_CORE") != 0)
        g->unit = (uint8_t)pr_ascend_unit(tt);
    return PR_OK;
}

/* A CANN API call: a runtime call of the host process's thread. */
static enum pr_status
add_api(struct map *m, const struct pr_tv_raw *x)
{
    struct pr_event *e = new_event(m, x, PR_KIND_RUNTIME_CALL);

    if (e == NULL)
        return PR_E_NOMEM;
    if (m->host_pid == PR_STR_NONE)
        return PR_OK;
    return pr_event_set_where(m->t, e, pr_event_cat(m->t, e), m->host_pid,
                              pr_event_tid(m->t, e));
}

static enum pr_status
add_raw(struct map *m, const struct pr_tv_raw *x, enum role r, struct pr_buf *b)
{
    struct pr_event *e;

    switch (r) {
    case R_HOST:
        return add_host(m, x, b);
    case R_CANN:
        return add_api(m, x);
    case R_HW:
        return add_task(m, x);
    case R_HCCL:
        return add_hccl(m, x);
    case R_NONE:
    case R_OVERLAP:
    default:
        e = new_event(m, x, PR_KIND_OTHER);
        return e ? PR_OK : PR_E_NOMEM;
    }
}

/* ------------------------------------------------------------ flows */

/* Zero-length launches where a torch_to_npu flow starts, for the flows
 * that reached a task; fwdbwd flows as the model keeps them. */
static enum pr_status
add_flows(struct map *m)
{
    int64_t *ids = malloc((m->n_ends ? m->n_ends : 1) * sizeof(*ids));
    uint32_t launch = pr_strtab_intern(m->t->strs, "torch_to_npu", 12);
    size_t i, n = 0;
    enum pr_status st = ids ? PR_OK : PR_E_NOMEM;

    for (i = 0; i < m->n_ends && st == PR_OK; i++)
        if (m->ends[i]->matched)
            ids[n++] = m->ends[i]->id;
    if (n > 0)
        qsort(ids, n, sizeof(*ids), cmp_i64);
    for (i = 0; i < m->tv->n_flows && st == PR_OK; i++) {
        const struct pr_tv_flow *f = &m->tv->flows[i];
        struct pr_flow kf = {f->id, f->ts_ns, f->ph};
        struct pr_event *e;

        if (f->cat == PR_TV_FLOW_FWDBWD) {
            st = pr_trace_add_flow(m->t, &kf);
            continue;
        }
        if (f->cat != PR_TV_FLOW_NPU || f->ph != 's' || !has_i64(ids, n, f->id))
            continue;
        e = pr_trace_add_event(m->t);
        if (e == NULL) {
            st = PR_E_NOMEM;
            break;
        }
        e->ts_ns = f->ts_ns;
        e->name = launch;
        e->kind = PR_KIND_RUNTIME_CALL;
        e->order = (uint32_t)(m->tv->n_raw + i);
        st = pr_event_set_where(m->t, e,
                                pr_strtab_intern(m->t->strs, "async_npu", 9),
                                f->pid, f->tid);
        if (st == PR_OK)
            st = pr_event_set_correlation(m->t, e, f->id);
        if (st != PR_OK)
            break;
    }
    free(ids);
    return st;
}

/* ------------------------------------------------------------ build */

static enum pr_status
assign(struct map *m, enum role *rl)
{
    size_t i;

    for (i = 0; i < m->tv->n_raw; i++) {
        struct pr_tv_raw *x = &m->tv->raw[i];
        struct pr_tv_flow *f;

        rl[i] = role_of(m, x->pid);
        if (rl[i] == R_NONE && strcmp(str(m, x->cat), "cpu_op") == 0)
            rl[i] = R_HOST; /* no process_name: a host by its category */
        if (rl[i] == R_HOST && m->host_pid == PR_STR_NONE)
            m->host_pid = x->pid;
        x->corr = -1;
        if (rl[i] != R_HW && rl[i] != R_HCCL)
            continue;
        f = flow_into(m, x);
        if (f != NULL) {
            x->corr = f->id;
            f->matched = 1;
        }
    }
    return PR_OK;
}

/* Where the task-queue thread launched each task an operator enqueued:
 * the start of the HostToDevice flow into the task, on a CANN thread
 * (whose calls are the host process's, add_api) or, at level 0, on the
 * queue thread's id in a process the trace does not name, for a task that also
 * has its operator's async_npu flow (spec section 2.2, "Kernel ->
 * operator" (3)).  Without a task queue the start is on the operator's
 * own thread, inside the launch call, and says the same. */
static enum pr_status
queue_launches(struct map *m, const enum role *rl)
{
    size_t i;

    if (m->host_pid == PR_STR_NONE)
        return PR_OK;
    for (i = 0; i < m->tv->n_raw; i++) {
        const struct pr_tv_raw *x = &m->tv->raw[i];
        struct pr_tv_flow *start;
        struct pr_queue_launch q;

        if ((rl[i] != R_HW && rl[i] != R_HCCL) || x->corr < 0)
            continue;
        start = pr_tv_h2d_start(&m->h2d, x);
        /* on a CANN thread (level 1 and up); at level 0 the trace names
           no CANN process, and the flow starts on the queue thread's id
           inside its Dequeue@<op> (text_level0: review 11 #6) */
        if (start == NULL || role_of(m, start->pid) == R_HW ||
            role_of(m, start->pid) == R_HCCL)
            continue;
        q.corr = x->corr;
        q.ts_ns = start->ts_ns;
        q.pid = m->host_pid;
        q.tid = start->tid;
        q.bare = (uint8_t)(role_of(m, start->pid) != R_CANN);
        if (pr_trace_add_qlaunch(m->t, &q) != PR_OK)
            return pr_error_set(m->err, PR_E_NOMEM, "out of memory");
    }
    return PR_OK;
}

static int
any_ascend(const enum role *rl, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (rl[i] == R_HW || rl[i] == R_HCCL || rl[i] == R_CANN)
            return 1;
    return 0;
}

static enum pr_status
finish_meta(struct map *m)
{
    struct pr_device *d = pr_trace_add_device(m->t);

    if (d == NULL)
        return PR_E_NOMEM;
    d->id = m->tv->device;
    d->id_unknown = !m->tv->device_known;
    d->name = PR_STR_NONE; /* trace_view.json does not name the chip */
    m->t->vendor = pr_strtab_intern(m->t->strs, "huawei", 6);
    m->t->device_kind = pr_strtab_intern(m->t->strs, "npu", 3);
    return PR_OK;
}

static enum pr_status
emit_all(struct map *m, const enum role *rl)
{
    struct pr_buf b;
    enum pr_status st = PR_OK;
    size_t i;

    pr_buf_init(&b, 0);
    for (i = 0; i < m->tv->n_raw && st == PR_OK; i++)
        st = add_raw(m, &m->tv->raw[i], rl[i], &b);
    pr_buf_free(&b);
    if (st == PR_OK)
        st = add_flows(m);
    if (st == PR_OK)
        st = finish_meta(m);
    return st == PR_OK ? PR_OK
                       : pr_error_set(m->err, PR_E_NOMEM, "out of memory");
}

enum pr_status
pr_tv_build(struct pr_tv *tv, struct pr_error *err)
{
    struct map m;
    enum role *rl = malloc((tv->n_raw ? tv->n_raw : 1) * sizeof(*rl));
    enum pr_status st;

    memset(&m, 0, sizeof(m));
    m.tv = tv;
    m.t = tv->t;
    m.host_pid = PR_STR_NONE;
    m.err = err;
    tv->device = device_of(&m, &tv->device_known);
    st = rl ? index_names(&m) : pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK)
        st = index_flow_ends(&m);
    if (st == PR_OK)
        st = assign(&m, rl);
    if (st == PR_OK && !any_ascend(rl, tv->n_raw))
        st = pr_error_set(err, PR_E_NOT_FORMAT,
                          "no Ascend process (Ascend Hardware, CANN, HCCL) "
                          "in this trace");
    if (st == PR_OK)
        st = find_comm_streams(&m, rl);
    if (st == PR_OK)
        st = emit_all(&m, rl);
    if (st == PR_OK)
        st = queue_launches(&m, rl);
    free(m.comm_streams);
    free(m.ends);
    pr_tv_h2d_free(&m.h2d);
    free(m.named);
    free(rl);
    return st;
}
