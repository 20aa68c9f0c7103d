/* hostdev.c - the temporal breakdown, idle causes, synchronisation,
 * copies and launches of one run (hostdev.h).  One pass collects every
 * piece of device work with the launch call that enqueued it; the four
 * results are computed from that list. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/devices.h"
#include "profreport/hostdev.h"
#include "profreport/keys.h"
#include "profreport/memtl.h"
#include "profreport/peaks.h"
#include "profreport/phases.h"
#include "profreport/producer.h"
#include "profreport/ranges.h"
#include "profreport/rows.h"
#include "profreport/syncs.h"
#include "profreport/tree.h"

#include "../internal.h"

enum wcls { W_COMPUTE = 0, W_COMM, W_MEMORY };

/* A copy's direction; D_NONE for work that is no copy. */
enum cdir { D_HTOD = 0, D_DTOH, D_DTOD, D_PTOP, D_HTOH, D_OTHER, D_NONE };

static const char *const dir_names[] = {"HtoD", "DtoH", "DtoD",
                                        "PtoP", "HtoH", "other"};

/* Direction from the copy's name: CUPTI's "Memcpy HtoD (Pageable ->
 * Device)" and ROCm's "CopyHostToDevice". */
static enum cdir
copy_dir(const char *n)
{
    static const struct {
        const char *a, *b;
        enum cdir d;
    } tab[] = {{"HtoD", "HostToDevice", D_HTOD},
               {"DtoH", "DeviceToHost", D_DTOH},
               {"DtoD", "DeviceToDevice", D_DTOD},
               {"PtoP", "PeerToPeer", D_PTOP},
               {"HtoH", "HostToHost", D_HTOH}};
    size_t i;

    for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
        if (strstr(n, tab[i].a) || strstr(n, tab[i].b))
            return tab[i].d;
    return D_OTHER;
}

/* The direction of copy event e (g its device record, or NULL): the
 * reader's where the name has none (MTIA's DMA), else from the name. */
static enum cdir
event_dir(const struct pr_trace *t, const struct pr_event *e,
          const struct pr_gpu_info *g)
{
    if (e->kind != PR_KIND_COPY)
        return D_NONE;
    if (g != NULL && g->copy_dir != PR_DIR_UNKNOWN)
        return (enum cdir)(g->copy_dir - PR_DIR_H2D + D_HTOD);
    return copy_dir(pr_trace_str(t, e->name));
}

/* A copy between the host and a device: judged against the host link. */
static int
host_copy(enum cdir d)
{
    return d == D_HTOD || d == D_DTOH;
}

int
pr_hostdev_is_host_copy(const struct pr_trace *t, const struct pr_event *e)
{
    struct pr_gpu_info gb;

    return e->kind == PR_KIND_COPY &&
           host_copy(event_dir(t, e, pr_trace_gpu(t, e, &gb)));
}

/* A runtime call on its thread, for the task queue's launches. */
struct tcall {
    uint32_t pid, tid;
    int64_t s, e;
    size_t ev;
};

/* One piece of device work: a kernel, copy or fill. */
struct work {
    int64_t s, e;       /* on the device */
    int64_t launch;     /* start of its launch call; PR_NO_ID unknown */
    int64_t launch_end; /* end of that call */
    size_t call;        /* index of that call's event; PR_NONE */
    /* torch_npu's task queue (pr_queue_launch): the launch the dequeue
       thread made where launch is the operator's enqueue: the moment
       the HostToDevice flow leaves (acl_at) and the CANN call holding it
       (acl_s, acl_e, acl_ev); acl_at PR_NO_ID without a task queue,
       acl_ev PR_NONE with no call (level 0: the flow leaves a bare
       Dequeue@<op>; acl_s = acl_e = acl_at) */
    int64_t acl_at, acl_s, acl_e;
    size_t acl_ev;
    size_t ev;         /* index of the event */
    int32_t dev, strm; /* args.device / args.stream; -1 absent */
    uint8_t cls;       /* enum wcls */
    uint8_t graph;     /* launched by a CUDA graph launch */
    uint8_t dir;       /* enum cdir of a copy; D_NONE */
};

struct hd {
    const struct pr_trace *t; /* borrowed */
    int partial;              /* the task list is under half the step
                                 table's (pr_producer_tasks_partial) */
    struct work *w;           /* owned, in device start order */
    size_t n, cap;
    struct pr_idmap calls;   /* correlation -> launch/runtime call event */
    struct pr_idmap copies;  /* correlation -> copy event */
    struct pr_idmap qlaunch; /* correlation -> t->qlaunch index */
    struct tcall *cbt;       /* owned: runtime calls by pid, tid,
                                start (the task queue's launches) */
    size_t n_cbt;
    struct pr_ranges busy;        /* merged work of every device */
    struct pr_ranges waits;       /* blocking host calls (not merged) */
    struct pr_ranges loader;      /* the DataLoader's next() ranges of every
                                     host thread, merged */
    size_t *inner, n_inner;       /* owned: sorted event indices of sync
                                     calls inside another (find_inner) */
    int64_t win_s, win_e;         /* the training loop: the first step's host
                                     start to the last step's end (steps.h) */
    int64_t tb_s, tb_e;           /* the temporal breakdown's window: the
                                     kept steps with device work
                                     (steps_window); tb_e <= tb_s: each
                                     device's span (HTA's) */
    size_t tb_steps;              /* the steps in that window */
    const struct pr_steps *steps; /* borrowed: the kept steps */
    size_t graph_launches;        /* cudaGraphLaunch / hipGraphLaunch calls */
    size_t graph_captures;        /* cudaStreamBeginCapture / hip... calls */
    size_t n_calls;               /* runtime and driver calls */
    int64_t host_wait_ns, idle_ns, span_ns; /* over all devices */
    int64_t other_ns, sync_ns;              /* likewise */
    struct pr_hostdev_out *out;             /* borrowed; NULL: the JSON only */
    struct pr_names names_own; /* the class of each name (names.c) */
    struct pr_names *names;    /* = &names_own, also from const hd */
};

static void
hd_free(struct hd *h)
{
    free(h->w);
    pr_idmap_free(&h->calls);
    pr_idmap_free(&h->copies);
    pr_idmap_free(&h->qlaunch);
    free(h->cbt);
    pr_ranges_free(&h->busy);
    pr_ranges_free(&h->waits);
    pr_ranges_free(&h->loader);
    free(h->inner);
    pr_names_free(&h->names_own);
}

static int
is_call(int kind)
{
    return kind == PR_KIND_RUNTIME_CALL || kind == PR_KIND_DRIVER_CALL;
}

static int
is_work(int kind)
{
    return kind == PR_KIND_DEVICE_TASK || kind == PR_KIND_COPY ||
           kind == PR_KIND_SET;
}

static int
is_graph_launch(const struct pr_trace *t, const struct pr_event *e)
{
    return strstr(pr_trace_str(t, e->name), "GraphLaunch") != NULL;
}

static int
cmp_tcall(const void *a, const void *b)
{
    const struct tcall *x = a, *y = b;

    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    return x->ev < y->ev ? -1 : (x->ev > y->ev);
}

/* The task queue's launches by correlation, and the runtime calls by
 * thread that hold them (none without a task queue). */
static enum pr_status
index_queue(struct hd *h, struct pr_error *err)
{
    const struct pr_trace *t = h->t;
    size_t i, n = 0;

    if (t->n_qlaunch == 0)
        return PR_OK;
    for (i = 0; i < t->n_qlaunch; i++)
        if (pr_idmap_put(&h->qlaunch, t->qlaunch[i].corr, i, err) != PR_OK)
            return PR_E_NOMEM;
    for (i = 0; i < t->n_events; i++)
        n += is_call(t->events[i].kind) != 0;
    h->cbt = malloc((n ? n : 1) * sizeof(*h->cbt));
    if (h->cbt == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        struct tcall *c;

        if (!is_call(e->kind))
            continue;
        c = &h->cbt[h->n_cbt++];
        c->pid = pr_event_pid(t, e);
        c->tid = pr_event_tid(t, e);
        c->s = e->ts_ns;
        c->e = pr_sat_add_i64(e->ts_ns, e->dur_ns);
        c->ev = i;
    }
    qsort(h->cbt, h->n_cbt, sizeof(*h->cbt), cmp_tcall);
    return PR_OK;
}

/* The innermost runtime call of thread (pid, tid) holding time ts (the
 * last to start at or before it that has not ended: nested calls start
 * later); PR_NONE when none does. */
static size_t
call_at(const struct hd *h, uint32_t pid, uint32_t tid, int64_t ts)
{
    struct tcall key = {pid, tid, ts, ts, SIZE_MAX};
    size_t lo = 0, hi = h->n_cbt, k;

    while (lo < hi) { /* the first call after key */
        size_t mid = lo + (hi - lo) / 2;

        if (cmp_tcall(&h->cbt[mid], &key) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (k = 0; k < 64 && lo > 0; k++) {
        const struct tcall *c = &h->cbt[--lo];

        if (c->pid != pid || c->tid != tid)
            break;
        if (c->e >= ts)
            return lo;
    }
    return PR_NONE;
}

/* Calls by correlation, and the graph launches among them. */
static enum pr_status
index_calls(struct hd *h, struct pr_error *err)
{
    const struct pr_trace *t = h->t;
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_COPY && pr_event_correlation(t, e) != PR_NO_ID &&
            pr_idmap_put(&h->copies, pr_event_correlation(t, e), i, err) !=
                PR_OK)
            return PR_E_NOMEM;
        if (!is_call(e->kind))
            continue;
        h->n_calls++;
        h->graph_launches += (size_t)is_graph_launch(t, e);
        h->graph_captures +=
            strstr(pr_trace_str(t, e->name), "StreamBeginCapture") != NULL;
        if (pr_event_correlation(t, e) != PR_NO_ID &&
            pr_idmap_put(&h->calls, pr_event_correlation(t, e), i, err) !=
                PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

/* Communication as the step breakdown decides it (steps.c role_of): a
 * collective kernel by name or metadata, or one whose external id is a
 * communication op's. */
static int
work_class(const struct pr_trace *t, struct pr_names *nc,
           const struct pr_idmap *comm, const struct pr_event *e)
{
    if (e->kind != PR_KIND_DEVICE_TASK)
        return W_MEMORY;
    if (pr_comm_kernel_cached(nc, e) ||
        (pr_event_external_id(t, e) != PR_NO_ID &&
         pr_idmap_get(comm, pr_event_external_id(t, e)) != PR_NONE))
        return W_COMM;
    return W_COMPUTE;
}

static enum pr_status
add_work(struct hd *h, struct pr_names *nc, const struct pr_idmap *comm,
         size_t i, struct pr_error *err)
{
    const struct pr_event *e = &h->t->events[i];
    struct pr_gpu_info gb;
    const struct pr_gpu_info *g = pr_trace_gpu(h->t, e, &gb);
    size_t c = pr_event_correlation(h->t, e) != PR_NO_ID
                   ? pr_idmap_get(&h->calls, pr_event_correlation(h->t, e))
                   : PR_NONE;
    struct work *w;
    size_t q;

    if (pr_grow((void **)&h->w, &h->cap, h->n + 1, sizeof(*h->w)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
    w = &h->w[h->n++];
    w->s = e->ts_ns;
    w->e = pr_sat_add_i64(e->ts_ns, e->dur_ns);
    w->launch = c != PR_NONE ? h->t->events[c].ts_ns : PR_NO_ID;
    w->launch_end = c != PR_NONE ? pr_sat_add_i64(h->t->events[c].ts_ns,
                                                  h->t->events[c].dur_ns)
                                 : PR_NO_ID;
    w->call = c;
    w->graph = c != PR_NONE && is_graph_launch(h->t, &h->t->events[c]);
    w->acl_at = w->acl_s = w->acl_e = PR_NO_ID;
    w->acl_ev = PR_NONE;
    q = c != PR_NONE ? pr_idmap_get(&h->qlaunch, pr_event_correlation(h->t, e))
                     : PR_NONE;
    if (q != PR_NONE) {
        const struct pr_queue_launch *ql = &h->t->qlaunch[q];
        size_t k = ql->bare ? PR_NONE : call_at(h, ql->pid, ql->tid, ql->ts_ns);

        w->acl_at = w->acl_s = w->acl_e = ql->ts_ns;
        if (k != PR_NONE) {
            w->acl_ev = h->cbt[k].ev;
            w->acl_s = h->cbt[k].s;
            w->acl_e = h->cbt[k].e;
        }
    }
    w->ev = i;
    w->dev = g != NULL ? g->device : -1;
    w->strm = g != NULL ? g->stream : -1;
    w->cls = (uint8_t)work_class(h->t, nc, comm, e);
    w->dir = (uint8_t)event_dir(h->t, e, g);
    return pr_ranges_push(&h->busy, w->s, w->e, err);
}

static enum pr_status
collect(struct hd *h, struct pr_error *err)
{
    struct pr_idmap comm = {0};
    enum pr_status st = index_calls(h, err);

    if (st == PR_OK)
        st = index_queue(h, err);
    size_t i;

    for (i = 0; i < h->t->n_events && st == PR_OK; i++) {
        const struct pr_event *e = &h->t->events[i];

        if (is_work(e->kind))
            st = add_work(h, h->names, &comm, i, err);
        else if ((e->kind == PR_KIND_HOST_OP || e->kind == PR_KIND_ANNOTATION ||
                  e->kind == PR_KIND_PY_LEGACY) &&
                 (pr_names_get(h->names, e->name) & PR_NAME_COMM) &&
                 pr_event_external_id(h->t, e) != PR_NO_ID)
            st = pr_idmap_put(&comm, pr_event_external_id(h->t, e), 1, err);
    }
    pr_idmap_free(&comm);
    pr_ranges_merge(&h->busy);
    return st;
}

/* ------------------------------------------------- calls that wait */

/* A copy to or from pageable host memory goes through a staging buffer
 * and blocks the calling thread (CUDA runtime API, "API synchronization
 * behavior"), even when called as cudaMemcpyAsync. */
static int
pageable_copy(const struct hd *h, const struct pr_event *call)
{
    size_t c = pr_event_correlation(h->t, call) != PR_NO_ID
                   ? pr_idmap_get(&h->copies, pr_event_correlation(h->t, call))
                   : PR_NONE;

    return c != PR_NONE &&
           strstr(pr_trace_str(h->t, h->t->events[c].name), "Pageable");
}

/* A host call that waits for a device, by name (syncs.h), and an
 * asynchronous copy when its host memory is pageable.  A cuda_sync
 * record (newer Kineto) repeats its runtime call, which is counted
 * instead (or not at all: cudaEventQuery writes an "Event Sync" record
 * but never blocks); alone, it is counted by its own kind.  A device's
 * own waits (PR_KIND_DEVICE_SYNC: MTIA's event_wait, Ascend's Notify
 * Wait) are never the host's. */
static enum pr_sync_kind
sync_kind(const struct hd *h, const struct pr_event *e)
{
    enum pr_sync_kind k;
    size_t c;

    if (e->kind == PR_KIND_RUNTIME_CALL) {
        k = pr_names_sync_kind(h->names, e->name);
        if (k == PR_SYNCK_ASYNC_COPY)
            return pageable_copy(h, e) ? PR_SYNCK_COPY : PR_SYNCK_NONE;
        return k;
    }
    if (e->kind != PR_KIND_SYNC)
        return PR_SYNCK_NONE;
    c = pr_event_correlation(h->t, e) != PR_NO_ID
            ? pr_idmap_get(&h->calls, pr_event_correlation(h->t, e))
            : PR_NONE;
    if (c != PR_NONE)
        return PR_SYNCK_NONE;
    return pr_sync_record_kind(pr_trace_str(h->t, e->name));
}

/* Index of the first busy range that starts after x. */
static size_t
first_after(const struct pr_ranges *u, int64_t x)
{
    size_t lo = 0, hi = u->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (u->v[mid].start_ns > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The idle time a blocking call [start, end) caused on the merged work
 * u: the idle gap around the moment it returned, from the call (or the
 * work running dry, if later) until new work starts: the queue the call
 * drained has to be filled again.  Counted inside [lo, hi] only.  *upto
 * keeps two calls in one gap from counting it twice.  0 when work was
 * still running as the call returned. */
static int64_t
idle_caused(const struct pr_ranges *u, int64_t start, int64_t end, int64_t lo,
            int64_t hi, int64_t *upto)
{
    size_t k = first_after(u, end);
    int64_t a, b;

    if (k > 0 && u->v[k - 1].end_ns > end)
        return 0;
    a = k > 0 ? u->v[k - 1].end_ns : start;
    a = a > start ? a : start;
    a = a > *upto ? a : *upto;
    a = a > lo ? a : lo;
    b = k < u->n ? u->v[k].start_ns : hi;
    b = b < hi ? b : hi;
    if (b <= a)
        return 0;
    *upto = b;
    return pr_sat_sub_i64(b, a);
}

/* The part of that idle the call explains: without the call the host
 * reaches its next launch only as much earlier as it was blocked in it,
 * so the rest of the gap is the host's own work (a cudaMalloc, a cold
 * start), not the sync's. */
static int64_t
blocked_idle(const struct pr_ranges *u, int64_t start, int64_t end, int64_t lo,
             int64_t hi, int64_t *upto)
{
    int64_t gap = idle_caused(u, start, end, lo, hi, upto);
    int64_t blocked = pr_sat_sub_i64(end, start);

    return gap < blocked ? gap : blocked;
}

/* A sync call of one thread, for find_inner. */
struct scall {
    size_t i;
    uint32_t pid, tid;
    int64_t s, e;
};

/* By thread, then start, the longer first, then the event's place. */
static int
cmp_scall(const void *a, const void *b)
{
    const struct scall *x = a, *y = b;

    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    if (x->e != y->e)
        return x->e > y->e ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int
cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;

    return x < y ? -1 : x > y;
}

/* Sync calls that lie inside another sync call of the same thread: the
 * same wait seen at a lower API layer (CANN's AscendCL@aclrtSynchronize-
 * StreamWithTimeout around Runtime@StreamSynchronize, level acl around
 * level runtime; a cudaStreamSynchronize around the driver's
 * cuStreamSynchronize), counted once, at the outer call. */
static enum pr_status
find_inner(struct hd *h, struct pr_error *err)
{
    struct scall *v = NULL;
    size_t i, n = 0, cap = 0, outer = 0;

    for (i = 0; i < h->t->n_events; i++) {
        const struct pr_event *e = &h->t->events[i];

        if (!is_call(e->kind) || sync_kind(h, e) == PR_SYNCK_NONE)
            continue;
        if (pr_grow((void **)&v, &cap, n + 1, sizeof(*v)) != PR_OK) {
            free(v);
            return pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
        }
        v[n++] = (struct scall){i, pr_event_pid(h->t, e), pr_event_tid(h->t, e),
                                e->ts_ns, pr_sat_add_i64(e->ts_ns, e->dur_ns)};
    }
    if (n < 2) {
        free(v);
        return PR_OK;
    }
    h->inner = malloc(n * sizeof(*h->inner));
    if (h->inner == NULL) {
        free(v);
        return pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
    }
    qsort(v, n, sizeof(*v), cmp_scall);
    for (i = 1; i < n; i++) {
        const struct scall *o = &v[outer];

        if (v[i].pid == o->pid && v[i].tid == o->tid && v[i].e <= o->e)
            h->inner[h->n_inner++] = v[i].i;
        else
            outer = i;
    }
    qsort(h->inner, h->n_inner, sizeof(*h->inner), cmp_size);
    free(v);
    return PR_OK;
}

static int
is_inner(const struct hd *h, size_t i)
{
    return h->n_inner > 0 && bsearch(&i, h->inner, h->n_inner,
                                     sizeof(*h->inner), cmp_size) != NULL;
}

/* The blocking host calls, in start order, for the idle they explain. */
static enum pr_status
collect_waits(struct hd *h, struct pr_error *err)
{
    size_t i;
    enum pr_status st = find_inner(h, err);

    for (i = 0; i < h->t->n_events && st == PR_OK; i++) {
        const struct pr_event *e = &h->t->events[i];

        if (!is_inner(h, i) && pr_sync_blocks_host(sync_kind(h, e)) &&
            pr_ranges_push(&h->waits, e->ts_ns,
                           pr_sat_add_i64(e->ts_ns, e->dur_ns), err) != PR_OK)
            return PR_E_NOMEM;
    }
    return st;
}

/* The DataLoader's next() ranges (enumerate(DataLoader)#...__next__,
 * pr_tree_is_dataloader) of every host thread, merged: a device idle
 * while one is open waits for its input, not for a launch (review 22g
 * item 8: tb_plugin's resnet50_num_workers_0 spends 77% of its idle
 * inside _SingleProcessDataLoaderIter.__next__). */
static enum pr_status
collect_loader(struct hd *h, struct pr_error *err)
{
    size_t i;

    for (i = 0; i < h->t->n_events; i++) {
        const struct pr_event *e = &h->t->events[i];

        if ((e->kind != PR_KIND_HOST_OP && e->kind != PR_KIND_ANNOTATION) ||
            e->name == PR_STR_NONE || e->dur_ns <= 0 ||
            !pr_tree_is_dataloader(pr_trace_str(h->t, e->name)))
            continue;
        if (pr_ranges_push(&h->loader, e->ts_ns,
                           pr_sat_add_i64(e->ts_ns, e->dur_ns), err) != PR_OK)
            return PR_E_NOMEM;
    }
    pr_ranges_merge(&h->loader);
    return PR_OK;
}

/* ------------------------------------------------ temporal breakdown */

/* Whether some work of h->busy overlaps [s, e). */
static int
busy_in(const struct hd *h, int64_t s, int64_t e)
{
    size_t k = first_after(&h->busy, s);

    return (k > 0 && h->busy.v[k - 1].end_ns > s) ||
           (k < h->busy.n && h->busy.v[k].start_ns < e);
}

/* The window of a run with steps: from the first step that holds device
 * work to the last one that does, as gpu_metrics' window where every
 * step does.  Steps without any recorded device work (a producer that
 * recorded tasks for the first steps only) would read as idle; set-up
 * work before the first step (MindSpore's InitData at t=0) is not the
 * training loop.  No window (each device's span, as HTA) without steps
 * or without device work in any. */
static void
steps_window(struct hd *h)
{
    const struct pr_steps *s = h->steps;
    size_t i, first = s->n, last = 0;

    if (s->basis == PR_STEPS_BASIS_CAPTURE)
        return;
    for (i = 0; i < s->n; i++)
        if (busy_in(h, pr_step_host_side_start(s, &s->v[i]), s->v[i].end_ns)) {
            first = first < i ? first : i;
            last = i;
        }
    if (first == s->n ||
        s->v[last].end_ns <= pr_step_host_side_start(s, &s->v[first]))
        return;
    h->tb_s = pr_step_host_side_start(s, &s->v[first]);
    h->tb_e = s->v[last].end_ns;
    h->tb_steps = last - first + 1;
}

struct tb {
    int64_t span_s, span_e; /* the window: the steps, or the device's span */
    int64_t dev_s, dev_e;   /* the device's span: first to last work (HTA) */
    int64_t dev_idle;       /* idle over the device's span */
    int windowed;           /* span is the steps' window */
    size_t steps;           /* the steps in it */
    int64_t compute, comm, memory, idle;
    int64_t host_wait, kernel_wait, other;
    int64_t after_waits; /* of the idle: explained by a blocking call */
    int64_t in_loader;   /* of the idle: inside the DataLoader's next() */
    int64_t host_copy;   /* a copy from or to the host running */
};

/* The launch of work w: its launch call, or where torch_npu's task
 * queue stands between the operator's enqueue (w->launch) and the
 * launch, the CANN call of the dequeue thread (review 25a #1: timing
 * from the enqueue measured the host's task queue, 2.3 ms, as a device
 * queue). */
static int64_t
launch_start(const struct work *w)
{
    return w->acl_at != PR_NO_ID ? w->acl_s : w->launch;
}

static int64_t
launch_end(const struct work *w)
{
    return w->acl_at != PR_NO_ID ? w->acl_e : w->launch_end;
}

/* When the work entered the device's queue: the launch call's start, or
 * the HostToDevice flow's start inside the dequeue thread's call (that
 * call can compile the operator first: aclopCompileAndExecute). */
static int64_t
enqueued_at(const struct work *w)
{
    return w->acl_at != PR_NO_ID ? w->acl_at : w->launch;
}

/* A launch the host recorded: its call starts before its task (a reader
 * with no host events, msprof's op_summary, links a task to a launch
 * stamped at the task's own start, which says nothing of the host). */
static int
host_launch(const struct work *w)
{
    return w->launch != PR_NO_ID && w->launch < w->s;
}

/* HTA's rule for one idle gap [a, b) before work w: the host had not yet
 * called the launch when the device ran dry (host wait; behind torch_npu's
 * task queue, the dequeue thread's launch: enqueued_at), else a gap under
 * HTA's consecutive-kernel delay (kernel wait), else something else held
 * the work back (an event wait, another stream: other).  A host wait ends
 * when the launch call returns (with the launch latency after it, under
 * the consecutive-kernel delay): work queued then that starts later still
 * waits on an event or on work queued before it, not on the host (issue
 * #30 #3: HTA's call_stack sample, one kernel that starts 64 ms after its
 * call returned on an idle device, read 64 ms of host wait).  No work after
 * the gap (the end of a window of steps): the host launched none, where
 * the trace records launches for the device at all; a trace without host
 * events (an msprof op_summary, a MindSpore graph-sink run) says nothing
 * of the host, so such a gap is "other", no recorded cause (review
 * finding 11). */
static void
classify_gap(struct tb *r, int64_t a, int64_t b, const struct work *w,
             int launched)
{
    int64_t gap = pr_sat_sub_i64(b, a);

    if (w != NULL && host_launch(w) && enqueued_at(w) > a) {
        /* (w itself: a zero-length task can start inside the gap) */
        int64_t done = launch_end(w) > a ? launch_end(w) : a;
        int64_t start = w->s < b ? w->s : b;
        int64_t queued = start > done ? pr_sat_sub_i64(start, done) : 0;

        if (queued < PR_HOSTDEV_KERNEL_WAIT_NS)
            queued = 0;
        r->host_wait += gap - queued;
        r->other += queued;
    } else if (w == NULL && launched)
        r->host_wait += gap;
    else if (gap < PR_HOSTDEV_KERNEL_WAIT_NS)
        r->kernel_wait += gap;
    else
        r->other += gap;
}

/* The idle gaps of the window: between the merged work all, and in a
 * window of steps also before its first work and after its last (over
 * the device's span both are empty). */
static void
idle_causes(const struct hd *h, int32_t dev, const struct pr_ranges *all,
            struct tb *r)
{
    int64_t upto = INT64_MIN, a = r->span_s;
    size_t j, p = 0;
    int launched = 0;

    for (j = 0; j < h->n && !launched; j++)
        launched = h->w[j].dev == dev && host_launch(&h->w[j]);
    for (j = 0; j <= all->n; j++) {
        int64_t b = j < all->n ? all->v[j].start_ns : r->span_e;

        if (b > a) {
            while (p < h->n && (h->w[p].dev != dev || h->w[p].s < a))
                p++;
            classify_gap(r, a, b, p < h->n ? &h->w[p] : NULL, launched);
            if (h->loader.n > 0)
                r->in_loader = pr_sat_add_i64(
                    r->in_loader, pr_ranges_overlap(&h->loader, a, b));
        }
        if (j < all->n && all->v[j].end_ns > a)
            a = all->v[j].end_ns;
    }
    /* a sync explains idle only where a blocking call returned in it, and
     * no more than the host was blocked in it (blocked_idle) */
    for (j = 0; j < h->waits.n && r->span_e > r->span_s; j++)
        r->after_waits = pr_sat_add_i64(
            r->after_waits,
            blocked_idle(all, h->waits.v[j].start_ns, h->waits.v[j].end_ns,
                         r->span_s, r->span_e, &upto));
}

/* Ranges of one device inside the window: [0] compute, [1] compute +
 * communication, [2] all work, [3] copies from or to the host, [4] all
 * work over the device's span, each merged; the window and the device's
 * span in r. */
static enum pr_status
device_ranges(const struct hd *h, int32_t dev, struct pr_ranges *rg,
              struct tb *r, struct pr_error *err)
{
    enum pr_status st = PR_OK;
    size_t i;
    int any = 0;

    for (i = 0; i < h->n && st == PR_OK; i++) {
        const struct work *w = &h->w[i];
        int64_t s = w->s, e = w->e;

        if (w->dev != dev)
            continue;
        r->dev_s = any && r->dev_s < s ? r->dev_s : s;
        r->dev_e = any && r->dev_e > e ? r->dev_e : e;
        any = 1;
        st = pr_ranges_push(&rg[4], s, e, err);
        if (r->windowed) { /* the part inside the steps */
            s = s > r->span_s ? s : r->span_s;
            e = e < r->span_e ? e : r->span_e;
        }
        if (st != PR_OK || e <= s)
            continue;
        if (w->cls == W_COMPUTE)
            st = pr_ranges_push(&rg[0], s, e, err);
        if (st == PR_OK && w->cls != W_MEMORY)
            st = pr_ranges_push(&rg[1], s, e, err);
        if (st == PR_OK)
            st = pr_ranges_push(&rg[2], s, e, err);
        if (st == PR_OK && host_copy((enum cdir)w->dir))
            st = pr_ranges_push(&rg[3], s, e, err);
    }
    if (!r->windowed) {
        r->span_s = r->dev_s;
        r->span_e = r->dev_e;
    }
    for (i = 0; i < 5; i++)
        pr_ranges_merge(&rg[i]);
    return st;
}

static enum pr_status
device_breakdown(const struct hd *h, int32_t dev, struct tb *r,
                 struct pr_error *err)
{
    struct pr_ranges rg[5] = {{0}, {0}, {0}, {0}, {0}};
    enum pr_status st;
    int64_t c, ck, all;
    size_t i;

    memset(r, 0, sizeof(*r));
    r->windowed = h->tb_e > h->tb_s;
    r->steps = h->tb_steps;
    r->span_s = h->tb_s;
    r->span_e = h->tb_e;
    st = device_ranges(h, dev, rg, r, err);
    if (st == PR_OK) {
        c = pr_ranges_sum(&rg[0]);
        ck = pr_ranges_sum(&rg[1]);
        all = pr_ranges_sum(&rg[2]);
        r->compute = c;
        r->comm = pr_sat_sub_i64(ck, c);
        r->memory = pr_sat_sub_i64(all, ck);
        r->idle = pr_sat_sub_i64(pr_sat_sub_i64(r->span_e, r->span_s), all);
        r->host_copy = pr_ranges_sum(&rg[3]);
        r->dev_idle = pr_sat_sub_i64(pr_sat_sub_i64(r->dev_e, r->dev_s),
                                     pr_ranges_sum(&rg[4]));
        idle_causes(h, dev, &rg[2], r);
    }
    for (i = 0; i < 5; i++)
        pr_ranges_free(&rg[i]);
    return st;
}

static double
share_pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : NAN;
}

static double
us_of(int64_t ns)
{
    return (double)ns / 1000.0;
}

/* One device's row (rows.def's pr_row_temporal).  `blind`: the device's
 * tasks are communication only while the producer's step table counts
 * computation (MindSpore's cluster export, HCCL tasks only): its compute
 * and idle are not known, not 0 and the rest (review 22a #3: ms_cluster4
 * rank 2's "Compute 0.0%, idle 21%" beside 123 ms of computation_time a
 * step), and the note says where the computation is. */
static void
emit_tb(cJSON *arr, int32_t dev, const struct tb *r, int extract, int blind,
        int replay, int *ok)
{
    int64_t span = pr_sat_sub_i64(r->span_e, r->span_s);
    int64_t dspan = pr_sat_sub_i64(r->dev_e, r->dev_s);
    struct pr_row_temporal o = {
        .device = dev,
        .window = r->windowed ? "steps" : "device_span",
        .window_steps = r->windowed ? (double)r->steps : NAN,
        .span_ns = span,
        .compute_us = blind ? NAN : us_of(r->compute),
        .communication_ns = r->comm,
        .memory_ns = r->memory,
        .idle_us = blind ? NAN : us_of(r->idle),
        .compute_pct = blind ? NAN : share_pct(r->compute, span),
        .communication_pct = share_pct(r->comm, span),
        .memory_pct = share_pct(r->memory, span),
        .idle_pct = blind ? NAN : share_pct(r->idle, span),
        .idle_host_wait_ns = r->host_wait,
        .idle_kernel_wait_ns = r->kernel_wait,
        .idle_other_us = blind ? NAN : us_of(r->other),
        .idle_after_sync_ns = r->after_waits,
        .idle_dataloader_ns = r->in_loader,
        .idle_dataloader_pct = share_pct(r->in_loader, r->idle),
        .host_copy_ns = r->host_copy,
        .host_copy_pct = share_pct(r->host_copy, span),
        .device_span_ns = dspan,
        .device_span_idle_us = blind ? NAN : us_of(r->dev_idle),
        .device_span_idle_pct = blind ? NAN : share_pct(r->dev_idle, dspan),
        .note = blind ? "the export holds communication tasks only (HCCL), "
                        "while the producer's step table counts "
                        "computation: compute and idle are not known"
                      : NULL,
    };

    if (extract) /* its gaps hold the tasks it left out (review22a #2) */
        o.compute_pct = o.communication_pct = o.memory_pct = o.idle_pct =
            o.host_copy_pct = o.device_span_idle_pct = NAN;
    if (replay) {
        /* kernel replay: the kernels' ranges have one made-up length, so
           the device's busy and idle time are not known (review30g #3:
           "Compute 9.35 s, 100.0%, idle 0", 77 ranges of 121,431 us) */
        o.compute_us = o.idle_us = o.idle_other_us = o.device_span_idle_us =
            NAN;
        o.compute_pct = o.communication_pct = o.memory_pct = o.idle_pct =
            o.host_copy_pct = o.device_span_idle_pct = o.idle_dataloader_pct =
                NAN;
        o.note = "kernel replay (CUPTI's range profiler): every kernel's "
                 "range has one made-up length, not its time, so the "
                 "device's busy and idle time are not known";
    }
    *ok = *ok && pr_rows_write(arr, PR_RO_RUNS_TEMPORAL_BREAKDOWN, &o, 1);
}

/* Device ids with work, ascending, into ids (cap entries); the count. */
static size_t
device_ids(const struct hd *h, int32_t *ids, size_t cap)
{
    size_t i, j, n = 0;

    for (i = 0; i < h->n; i++) {
        for (j = 0; j < n && ids[j] != h->w[i].dev; j++)
            ;
        if (j < n || n == cap)
            continue;
        for (j = n++; j > 0 && ids[j - 1] > h->w[i].dev; j--)
            ids[j] = ids[j - 1];
        ids[j] = h->w[i].dev;
    }
    return n;
}

#define MAX_DEVICES 64

static enum pr_status
temporal_json(struct hd *h, cJSON *arr, struct pr_error *err)
{
    int32_t ids[MAX_DEVICES];
    size_t n = device_ids(h, ids, MAX_DEVICES), i;
    int ok = 1;

    for (i = 0; i < n && ok; i++) {
        struct tb r;
        double copy_pct;

        if (device_breakdown(h, ids[i], &r, err) != PR_OK)
            return PR_E_NOMEM;
        h->host_wait_ns = pr_sat_add_i64(h->host_wait_ns, r.host_wait);
        h->idle_ns = pr_sat_add_i64(h->idle_ns, r.idle);
        h->other_ns = pr_sat_add_i64(h->other_ns, r.other);
        h->sync_ns = pr_sat_add_i64(h->sync_ns, r.after_waits);
        h->span_ns =
            pr_sat_add_i64(h->span_ns, pr_sat_sub_i64(r.span_e, r.span_s));
        copy_pct = share_pct(r.host_copy, pr_sat_sub_i64(r.span_e, r.span_s));
        if (h->out != NULL && isfinite(copy_pct) &&
            !(copy_pct <= h->out->copy_busy_pct))
            h->out->copy_busy_pct = copy_pct;
        emit_tb(arr, ids[i], &r, h->t->extract_rows > 0 || h->partial,
                r.compute == 0 && r.comm > 0 && pr_phases_computes(h->t),
                h->t->replayed_kernels > 0, &ok);
    }
    if (h->out != NULL) {
        h->out->idle_host_share = share_pct(h->host_wait_ns, h->idle_ns) / 100;
        h->out->idle_other_share = share_pct(h->other_ns, h->idle_ns) / 100;
        h->out->idle_sync_share = share_pct(h->sync_ns, h->idle_ns) / 100;
    }
    return ok ? PR_OK
              : pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
}

/* ---------------------------------------------------- synchronisation */

struct srow {
    uint32_t name;
    enum pr_sync_kind kind;
    enum cdir dir; /* a blocking copy's direction; D_NONE */
    size_t n, n_out;
    size_t n_ddp;       /* of n: DDP's runtime-stats logging (ddp_logging) */
    size_t n_cudnn;     /* of n: cuDNN's algorithm search (cudnn_search) */
    int64_t idle_cudnn; /* of idle: after those */
    int64_t host, idle, host_out;
};

#define MAX_SYNC_ROWS 32

static struct srow *
srow_of(struct srow *rows, size_t *n, uint32_t name, enum pr_sync_kind k,
        enum cdir d)
{
    size_t i;

    for (i = 0; i < *n; i++)
        if (rows[i].name == name && rows[i].kind == k && rows[i].dir == d)
            return &rows[i];
    if (*n == MAX_SYNC_ROWS)
        return NULL;
    memset(&rows[*n], 0, sizeof(rows[*n]));
    rows[*n].name = name;
    rows[*n].kind = k;
    rows[*n].dir = d;
    return &rows[(*n)++];
}

/* The direction of the copy a blocking copy call made; D_NONE for other
 * calls and for copies the trace does not hold. */
static enum cdir
call_dir(const struct hd *h, const struct pr_event *call, enum pr_sync_kind k)
{
    size_t c =
        k == PR_SYNCK_COPY && pr_event_correlation(h->t, call) != PR_NO_ID
            ? pr_idmap_get(&h->copies, pr_event_correlation(h->t, call))
            : PR_NONE;
    struct pr_gpu_info gb;

    if (c == PR_NONE)
        return D_NONE;
    return event_dir(h->t, &h->t->events[c],
                     pr_trace_gpu(h->t, &h->t->events[c], &gb));
}

static void
count_sync(const struct hd *h, const struct pr_event *e, struct srow *r,
           int64_t *upto)
{
    if (e->ts_ns < h->win_s || e->ts_ns >= h->win_e) {
        r->n_out++;
        r->host_out = pr_sat_add_i64(r->host_out, e->dur_ns);
        return;
    }
    r->n++;
    r->host = pr_sat_add_i64(r->host, e->dur_ns);
    if (r->kind != PR_SYNCK_STREAM_WAIT)
        r->idle = pr_sat_add_i64(
            r->idle, blocked_idle(&h->busy, e->ts_ns,
                                  pr_sat_add_i64(e->ts_ns, e->dur_ns),
                                  INT64_MIN, h->win_e, upto));
}

/* The row as recommend.c reads it (as emit_srow writes it). */
static void
out_srow(const struct hd *h, const struct srow *r, struct pr_hostdev_sync *o)
{
    o->name = pr_trace_str(h->t, r->name);
    o->direction = r->dir != D_NONE ? dir_names[r->dir] : NULL;
    o->count = (double)r->n;
    o->idle_us =
        r->kind == PR_SYNCK_STREAM_WAIT ? NAN : (double)r->idle / 1000.0;
    o->cudnn_count = (double)r->n_cudnn;
    o->cudnn_idle_us = (double)r->idle_cudnn / 1000.0;
}

/* The row as the summary holds it (rows.def's pr_row_sync_call). */
static struct pr_row_sync_call
row_of(const struct hd *h, const struct srow *r)
{
    return (struct pr_row_sync_call){
        .name = pr_trace_str(h->t, r->name),
        .kind = pr_sync_kind_name(r->kind),
        .direction = r->dir != D_NONE ? dir_names[r->dir] : NULL,
        .count = (int64_t)r->n,
        .host_ns = r->host,
        /* the host does not wait for a stream wait */
        .gpu_idle_us =
            r->kind == PR_SYNCK_STREAM_WAIT ? NAN : (double)r->idle / 1000.0,
        .outside_steps_count = (int64_t)r->n_out,
        .outside_steps_host_ns = r->host_out,
        .ddp_logging_count = (int64_t)r->n_ddp,
        .cudnn_search_count = (int64_t)r->n_cudnn,
        .cudnn_search_idle_ns = r->idle_cudnn,
    };
}

/* DistributedDataParallel's own runtime-stats logging (review 28g #4):
 * on its first 10 iterations, then every 100th
 * (kDDPRuntimeLoggingSampleRate, torch/csrc/distributed/c10d/logger.cpp),
 * DDP's _pre_forward reads the previous iteration's four timers (forward
 * and backward compute, backward comm, overlap): per timer two event
 * syncs and one cudaEventElapsedTime, inside the
 * DistributedDataParallel.forward range (hta_nccl: 8 cudaEventSynchronize
 * and 4 cudaEventElapsedTime a step).  Such syncs are not in the user's
 * loop and go in the steady state.  The DDP.forward ranges that hold an
 * elapsed-time read, as [start, end) on their thread. */
struct ddp_fwd {
    uint32_t pid, tid;
    int64_t s, e;
    int timed; /* holds a cudaEventElapsedTime / hipEventElapsedTime */
};

struct ddp_fwds {
    struct ddp_fwd *v; /* owned */
    size_t n, cap;
};

static int
ddp_holds(const struct pr_trace *t, const struct ddp_fwd *f,
          const struct pr_event *e)
{
    return pr_event_pid(t, e) == f->pid && pr_event_tid(t, e) == f->tid &&
           e->ts_ns >= f->s && e->ts_ns < f->e;
}

/* cuDNN's algorithm search (cudnnFind*, under torch.backends.cudnn.
 * benchmark=True): on a convolution shape's first call it runs each
 * candidate algorithm between two CUDA events, synchronizes on the end
 * event and reads cudaEventElapsedTime, inside the aten::cudnn_convolution
 * (or its backward) call (review 30g #2: the 357 cudaEventSynchronize of
 * held-out resnet50_autograd_api, 46 first calls of 72.6 ms against
 * 0.165 ms for the other 590).  A one-time cost the loop does not hold. */
static int
cudnn_op(const char *nm)
{
    return strncmp(nm, "aten::cudnn_convolution", 23) == 0;
}

static int
ddp_fwd_op(const char *nm)
{
    return strcmp(nm, "DistributedDataParallel.forward") == 0;
}

static void
ddp_collect(const struct hd *h, struct ddp_fwds *d, int (*is)(const char *))
{
    const struct pr_trace *t = h->t;
    size_t i, j;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind != PR_KIND_ANNOTATION && e->kind != PR_KIND_HOST_OP &&
            e->kind != PR_KIND_PY_FUNCTION)
            continue;
        if (!is(pr_trace_str(t, e->name)))
            continue;
        if (pr_grow((void **)&d->v, &d->cap, d->n + 1, sizeof(*d->v)) != PR_OK)
            return; /* none counted apart: the calls stay the user's */
        d->v[d->n++] =
            (struct ddp_fwd){pr_event_pid(t, e), pr_event_tid(t, e), e->ts_ns,
                             pr_sat_add_i64(e->ts_ns, e->dur_ns), 0};
    }
    for (i = 0; i < t->n_events && d->n > 0; i++) {
        const struct pr_event *e = &t->events[i];
        const char *nm;

        if (e->kind != PR_KIND_RUNTIME_CALL && e->kind != PR_KIND_SYNC)
            continue;
        nm = pr_trace_str(t, e->name);
        if (strcmp(nm, "cudaEventElapsedTime") != 0 &&
            strcmp(nm, "hipEventElapsedTime") != 0)
            continue;
        for (j = 0; j < d->n; j++)
            if (ddp_holds(t, &d->v[j], e))
                d->v[j].timed = 1;
    }
}

/* An event sync inside a DDP.forward that reads DDP's timers. */
static int
ddp_logging(const struct hd *h, const struct ddp_fwds *d,
            const struct pr_event *e, enum pr_sync_kind k)
{
    size_t j;

    if (k != PR_SYNCK_EVENT)
        return 0;
    for (j = 0; j < d->n; j++)
        if (d->v[j].timed && ddp_holds(h->t, &d->v[j], e))
            return 1;
    return 0;
}

static int
cmp_srow(const void *a, const void *b)
{
    const struct srow *x = a, *y = b;

    if (x->host != y->host)
        return x->host < y->host ? 1 : -1;
    /* then the input's order: string ids are interned as first seen */
    if (x->name != y->name)
        return x->name < y->name ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->dir < y->dir ? -1 : (x->dir > y->dir);
}

/* The totals over the calls, into r; returns the device idle time they
 * caused. */
static int64_t
sync_totals(struct pr_row_synchronization *r, const struct srow *rows, size_t n)
{
    int64_t host = 0, idle = 0, out = 0;
    size_t i, n_out = 0;

    for (i = 0; i < n; i++) {
        if (rows[i].kind == PR_SYNCK_STREAM_WAIT)
            continue;
        host = pr_sat_add_i64(host, rows[i].host);
        idle = pr_sat_add_i64(idle, rows[i].idle);
        out = pr_sat_add_i64(out, rows[i].host_out);
        n_out += rows[i].n_out;
    }
    r->host_us = (double)host / 1000.0;
    r->gpu_idle_us = (double)idle / 1000.0;
    r->outside_steps_count = (double)n_out;
    r->outside_steps_host_us = (double)out / 1000.0;
    return idle;
}

static int launches_unrecorded(const struct hd *h);

/* Why calls cannot be measured (no device work, or no runtime calls
 * recorded), or NULL when they can. */
static const char *
unmeasured(const struct hd *h, int sync)
{
    if (h->n_calls > 0 && sync && launches_unrecorded(h))
        return "the export records no host runtime calls (its tasks are "
               "linked to their operators at the tasks' own start): "
               "synchronisation cannot be measured";
    if (h->n_calls > 0)
        return NULL;
    /* an Ascend export without the host's CANN calls: its profiler_info
       may well list CPU activities (issue #30: no false cause) */
    if (h->n > 0 && pr_trace_is_npu(h->t))
        return sync ? "the export has no CANN runtime calls (AscendCL): "
                      "synchronisation cannot be measured"
                    : "the export has no CANN runtime calls (AscendCL): "
                      "launch delay and queues cannot be measured";
    if (h->t->memtl != NULL)
        return PR_MEMTL_ONLY_ALLOCS;
    /* a rank's files without its tasks: its device worked (issue #30) */
    if (h->n == 0 && pr_trace_has_gap(h->t, "no_tasks"))
        return sync ? "no device task is in this rank's files (neither "
                      "kernel_details.csv nor trace_view.json): "
                      "synchronisation cannot be measured"
                    : "no device task is in this rank's files (neither "
                      "kernel_details.csv nor trace_view.json): launch "
                      "delay and queues cannot be measured";
    return h->n == 0 ? sync ? "the run has no device work: there is no "
                              "host-device synchronisation to measure"
                            : "the run has no device work: there are no "
                              "launches to measure"
           : sync ? "the trace has no runtime calls (CPU activities were not "
                    "recorded): synchronisation cannot be measured"
                  : "the trace has no runtime calls (CPU activities were not "
                    "recorded): launch delay and queues cannot be measured";
}

/* The synchronisation's typed row (rows.def), its calls typed rows held
 * as a JSON field.  Without runtime calls a sync cannot be seen: its
 * times are null, not 0. */
static enum pr_status
sync_json(struct hd *h, cJSON **o, struct pr_error *err)
{
    struct srow rows[MAX_SYNC_ROWS];
    size_t n = 0, i;
    int64_t upto = INT64_MIN;
    double idle_us = NAN;
    cJSON *arr = cJSON_CreateArray();
    struct pr_row_synchronization sr = {
        .host_us = NAN,
        .gpu_idle_us = NAN,
        .outside_steps_count = NAN,
        .outside_steps_host_us = NAN,
        .calls = arr,
        .method = "host_us: time the host spent in the call inside the steps; "
                  "gpu_idle_us: device idle time the call explains: from the "
                  "call (or the device running dry) until new work reached the "
                  "device (the queue the call drained), at most the time the "
                  "host was blocked in the call. Calls after "
                  "the last step (profiler shutdown) or before the first are "
                  "counted apart. stream_wait makes a stream wait, not the "
                  "host.",
    };
    int ok = arr != NULL;
    struct ddp_fwds ddp = {NULL, 0, 0}, dnn = {NULL, 0, 0};

    ddp_collect(h, &ddp, ddp_fwd_op);
    ddp_collect(h, &dnn, cudnn_op);
    for (i = 0; i < h->t->n_events; i++) {
        const struct pr_event *e = &h->t->events[i];
        enum pr_sync_kind k = is_inner(h, i) ? PR_SYNCK_NONE : sync_kind(h, e);
        struct srow *r = k != PR_SYNCK_NONE
                             ? srow_of(rows, &n, e->name, k, call_dir(h, e, k))
                             : NULL;

        if (r != NULL) {
            size_t before = r->n;
            int64_t idle = r->idle;

            count_sync(h, e, r, &upto);
            if (r->n > before && ddp_logging(h, &ddp, e, k))
                r->n_ddp++;
            else if (r->n > before && ddp_logging(h, &dnn, e, k)) {
                r->n_cudnn++;
                r->idle_cudnn = pr_sat_add_i64(r->idle_cudnn,
                                               pr_sat_sub_i64(r->idle, idle));
            }
        }
    }
    free(ddp.v);
    free(dnn.v);
    qsort(rows, n, sizeof(rows[0]), cmp_srow);
    if (!(n == 0 && (h->n_calls == 0 || launches_unrecorded(h))))
        idle_us = (double)sync_totals(&sr, rows, n) / 1000.0;
    if (h->out != NULL && ok) {
        h->out->sync_idle_us = idle_us;
        h->out->syncs = calloc(n ? n : 1, sizeof(*h->out->syncs));
        ok = h->out->syncs != NULL;
        for (i = 0; i < n && ok; i++)
            out_srow(h, &rows[i], &h->out->syncs[h->out->n_syncs++]);
    }
    sr.note = n == 0 ? unmeasured(h, 1) : NULL;
    for (i = 0; i < n && ok; i++) {
        struct pr_row_sync_call row = row_of(h, &rows[i]);

        ok = pr_rows_write(arr, PR_RO_RUNS_SYNCHRONIZATION_CALLS, &row, 1);
    }
    *o = ok ? pr_rows_row(PR_RO_RUNS_SYNCHRONIZATION, &sr) : NULL;
    cJSON_Delete(arr);
    return *o != NULL
               ? PR_OK
               : pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
}

/* -------------------------------------------------------------- copies */

enum hmem { M_UNKNOWN = 0, M_PAGEABLE, M_PINNED, M_DEVICE };

static const char *const mem_names[] = {NULL, "pageable", "pinned", NULL};

static enum hmem
copy_mem(const char *n, enum cdir d)
{
    if (d != D_HTOD && d != D_DTOH)
        return M_DEVICE;
    if (strstr(n, "Pageable"))
        return M_PAGEABLE;
    return strstr(n, "Pinned") ? M_PINNED : M_UNKNOWN;
}

struct crow {
    int32_t dev;
    enum cdir dir;
    enum hmem mem;
    size_t n, n_nobytes;
    int64_t bytes, ns, ns_bytes; /* ns_bytes: time of copies with bytes */
    int64_t call_ns;             /* host time in the calls that made them */
    size_t n_before;             /* started before the first kernel */
};

#define MAX_COPY_ROWS 48

struct copies {
    struct crow rows[MAX_COPY_ROWS];
    size_t n;
    struct pr_idmap calls; /* call event -> 1: its time counted */
    size_t fills;
    int64_t fill_bytes, fill_ns;
};

static struct crow *
crow_of(struct copies *c, int32_t dev, enum cdir d, enum hmem m)
{
    size_t i;

    for (i = 0; i < c->n; i++)
        if (c->rows[i].dev == dev && c->rows[i].dir == d && c->rows[i].mem == m)
            return &c->rows[i];
    if (c->n == MAX_COPY_ROWS)
        return NULL;
    memset(&c->rows[c->n], 0, sizeof(c->rows[0]));
    c->rows[c->n].dev = dev;
    c->rows[c->n].dir = d;
    c->rows[c->n].mem = m;
    return &c->rows[c->n++];
}

/* Each copy event counted once: its bytes are the device record's, never
 * the runtime call's as well.  A launch call's host time counts once,
 * with the first copy it launched, however many copies it launched (an
 * Ascend db's aclopCompileAndExecute launches two copies under one
 * connectionId: db_level1 counted its 2.5 ms twice). */
static enum pr_status
count_copy(const struct hd *h, const struct work *w, struct copies *c,
           int64_t first_kernel, struct pr_error *err)
{
    const struct pr_event *e = &h->t->events[w->ev];
    struct pr_gpu_info gb;
    const struct pr_gpu_info *g = pr_trace_gpu(h->t, e, &gb);
    int64_t bytes = g != NULL ? g->bytes : -1;
    const char *n = pr_trace_str(h->t, e->name);
    enum cdir d = (enum cdir)w->dir;
    struct crow *r;

    if (e->kind == PR_KIND_SET) {
        c->fills++;
        c->fill_bytes = pr_sat_add_i64(c->fill_bytes, bytes > 0 ? bytes : 0);
        c->fill_ns = pr_sat_add_i64(c->fill_ns, e->dur_ns);
        return PR_OK;
    }
    r = crow_of(c, w->dev, d, copy_mem(n, d));
    if (r == NULL)
        return PR_OK;
    r->n++;
    r->n_before += w->s < first_kernel;
    r->ns = pr_sat_add_i64(r->ns, e->dur_ns);
    if (w->launch != PR_NO_ID && w->call != PR_NONE &&
        pr_idmap_get(&c->calls, (int64_t)w->call) == PR_NONE) {
        if (pr_idmap_put(&c->calls, (int64_t)w->call, 1, err) != PR_OK)
            return PR_E_NOMEM;
        r->call_ns = pr_sat_add_i64(r->call_ns,
                                    pr_sat_sub_i64(w->launch_end, w->launch));
    }
    if (bytes < 0) {
        r->n_nobytes++;
        return PR_OK;
    }
    r->bytes = pr_sat_add_i64(r->bytes, bytes);
    r->ns_bytes = pr_sat_add_i64(r->ns_bytes, e->dur_ns);
    return PR_OK;
}

/* The host link of a host copy's device; NaN for device-side copies and
 * for devices the trace does not describe. */
static double
row_link(const struct hd *h, const struct crow *r, char *label, size_t cap)
{
    const struct pr_device *d =
        r->dev >= 0 ? pr_trace_device(h->t, r->dev) : NULL;
    char arch[32];

    label[0] = '\0';
    if (r->dir != D_HTOD && r->dir != D_DTOH)
        return NAN;
    pr_devices_arch(h->t, d, arch, sizeof(arch));
    return pr_hostdev_link(d != NULL ? pr_trace_str(h->t, d->name) : NULL, arch,
                           label, cap);
}

/* The row's figures, for the JSON and for recommend.c alike. */
static void
copy_figures(const struct hd *h, const struct crow *r,
             struct pr_hostdev_copy *c)
{
    double gbps = r->ns_bytes > 0 ? (double)r->bytes / (double)r->ns_bytes
                                  : NAN; /* B/ns is 10^9 B/s */
    double link = row_link(h, r, c->label_buf, sizeof(c->label_buf));

    c->direction = dir_names[r->dir];
    c->host_memory = mem_names[r->mem];
    c->count = (double)r->n;
    c->call_us = (double)r->call_ns / 1000.0;
    c->bytes = r->n_nobytes < r->n ? (double)r->bytes : NAN;
    c->us = (double)r->ns / 1000.0;
    c->link = isnan(link) ? NULL : c->label_buf;
    c->link_gbps = link;
    c->link_pct = 100.0 * gbps / link;
    c->gbps = gbps;
}

static void
emit_crow(cJSON *arr, const struct hd *h, const struct crow *r,
          struct pr_hostdev_copy *c, int *ok)
{
    struct pr_row_copy_kind row;

    copy_figures(h, r, c);
    row = (struct pr_row_copy_kind){
        .device = r->dev,
        .direction = dir_names[r->dir],
        .host_memory = c->host_memory,
        .count = c->count,
        .bytes = c->bytes,
        .without_bytes_count = (int64_t)r->n_nobytes,
        .duration_us = c->us,
        .gbps = c->gbps,
        .link = c->link,
        .link_gbps = c->link_gbps,
        .link_pct = c->link_pct,
        .host_call_us = c->call_us,
        .before_first_kernel_count = (int64_t)r->n_before,
    };
    if (*ok)
        *ok = pr_rows_write(arr, PR_RO_RUNS_COPIES_BY_KIND, &row, 1);
}

static int
cmp_crow(const void *a, const void *b)
{
    const struct crow *x = a, *y = b;

    if (x->ns != y->ns)
        return x->ns < y->ns ? 1 : -1;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    return x->dir != y->dir ? (x->dir < y->dir ? -1 : 1)
                            : (x->mem < y->mem ? -1 : x->mem > y->mem);
}

/* Why host copies are not judged, or NULL when they are. */
static const char *
unjudged(const struct hd *h, const struct copies *c)
{
    char label[64];
    size_t i;

    for (i = 0; i < c->n; i++) {
        const struct crow *r = &c->rows[i];

        if ((r->dir == D_HTOD || r->dir == D_DTOH) &&
            isnan(row_link(h, r, label, sizeof(label))))
            return "the trace does not name the device of some host copies "
                   "(no deviceProperties) or data/devices.json knows no host "
                   "link for it: their link_pct is null";
    }
    return NULL;
}

/* The copies' typed row (rows.def): its by_kind typed rows and memset
 * row held as JSON fields; dtod_by_operator and graph_wrapper are
 * copy_ops.c's, left out here. */
static enum pr_status
copies_json(struct hd *h, cJSON **o, struct pr_error *err)
{
    struct copies c;
    struct pr_hostdev_copy *rows;
    struct pr_row_copies r = {.absent = 0};
    struct pr_row_copies_memset fill = {.absent = 0};
    int64_t bytes = 0, ns = 0, first;
    size_t i, n = 0;
    cJSON *arr = cJSON_CreateArray(), *ms = NULL;
    int ok = arr != NULL;

    memset(&c, 0, sizeof(c));
    /* the first kernel's start (w is in device start order): a copy
       before it is a one-time move (review 26g #3: alexnet's 16 pageable
       copies are the model's parameters, moved once before any kernel) */
    for (i = 0; i < h->n && h->w[i].cls == W_MEMORY; i++)
        ;
    first = i < h->n ? h->w[i].s : INT64_MAX;
    for (i = 0; i < h->n && ok; i++)
        if (h->w[i].cls == W_MEMORY)
            ok = count_copy(h, &h->w[i], &c, first, err) == PR_OK;
    pr_idmap_free(&c.calls);
    qsort(c.rows, c.n, sizeof(c.rows[0]), cmp_crow);
    for (i = 0; i < c.n; i++) {
        n += c.rows[i].n;
        bytes = pr_sat_add_i64(bytes, c.rows[i].bytes);
        ns = pr_sat_add_i64(ns, c.rows[i].ns);
    }
    rows = calloc(c.n ? c.n : 1, sizeof(*rows));
    ok = ok && rows != NULL;
    for (i = 0; i < c.n && ok; i++)
        emit_crow(arr, h, &c.rows[i], &rows[i], &ok);
    if (h->out != NULL && ok) {
        h->out->copies = rows; /* the out keeps them */
        h->out->n_copies = c.n;
        rows = NULL;
    }
    free(rows);
    fill.count = (int64_t)c.fills;
    fill.bytes = (int64_t)c.fill_bytes;
    fill.duration_ns = c.fill_ns;
    ms = ok ? pr_rows_row(PR_RO_RUNS_COPIES_MEMSET, &fill) : NULL;
    r.count = (int64_t)n;
    r.bytes = bytes;
    r.duration_ns = ns;
    r.by_kind = arr;
    r.note = unjudged(h, &c);
    r.memset = ms;
    r.method = "Each copy counted once, from its device record. gbps is "
               "bytes over copy time; host copies (HtoD, DtoH) are judged "
               "against the host link (link_pct), never device memory. "
               "Pageable host memory is staged through a pinned buffer and "
               "blocks the host.";
    pr_rows_omit(PR_RO_RUNS_COPIES, &r,
                 PR_SR_RUNS_COPIES_PR_K_DTOD_BY_OPERATOR);
    pr_rows_omit(PR_RO_RUNS_COPIES, &r, PR_SR_RUNS_COPIES_PR_K_GRAPH_WRAPPER);
    *o = ms != NULL ? pr_rows_row(PR_RO_RUNS_COPIES, &r) : NULL;
    cJSON_Delete(arr);
    cJSON_Delete(ms);
    return *o != NULL
               ? PR_OK
               : pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
}

/* ------------------------------------------------------------ launches */

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : (x > y);
}

/* The sorted intervals of one kind, each clamped at 0: HTA's launch
 * delay (kernel start minus the end of its launch call; *early counts the
 * work that started before its call returned, npu_trace_view's 256 of 274
 * tasks, review26a #4), or torch_npu's task-queue wait (TASK_QUEUE_ENABLE:
 * the operator's enqueue on its thread to the dequeue thread's launch of
 * its work, for the work a task queue launched; none without one). */
enum interval { IV_LAUNCH_DELAY, IV_QUEUE_WAIT };

static enum pr_status
intervals(const struct hd *h, enum interval kind, int64_t **out, size_t *n,
          size_t *early, struct pr_error *err)
{
    int64_t *v = malloc((h->n ? h->n : 1) * sizeof(*v));
    size_t i;

    *n = 0;
    *early = 0;
    *out = v;
    if (v == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
    for (i = 0; i < h->n; i++) {
        const struct work *w = &h->w[i];
        int delay = kind == IV_LAUNCH_DELAY;
        int64_t from = delay ? launch_end(w) : w->launch;
        int64_t to = delay ? w->s : w->acl_at;

        if (w->launch == PR_NO_ID || w->graph ||
            (delay ? w->cls == W_MEMORY : w->acl_at == PR_NO_ID))
            continue;
        *early += to < from;
        v[(*n)++] = to > from ? pr_sat_sub_i64(to, from) : 0;
    }
    qsort(v, *n, sizeof(*v), cmp_i64);
    return PR_OK;
}

/* launches.launch_delay_us (or task_queue_wait_us, row ro) as its
 * typed row; NULL (null) without delays, *ok 0 when out of memory. */
static cJSON *
delays_row(enum pr_rows_object ro, const int64_t *v, size_t n, size_t early,
           int *ok)
{
    struct pr_row_launch_delay d = {.absent = 0};
    int64_t sum = 0;
    cJSON *o;
    size_t i;

    if (n == 0 || !*ok)
        return NULL;
    for (i = 0; i < n; i++)
        sum = pr_sat_add_i64(sum, v[i]);
    d.mean = (double)sum / 1000.0 / (double)n;
    d.median_ns = v[n / 2];
    d.p90_ns = v[(size_t)((double)(n - 1) * 0.9)];
    d.max_ns = v[n - 1];
    d.started_before_call_end = (int64_t)early;
    if (ro == PR_RO_RUNS_LAUNCHES_TASK_QUEUE_WAIT_US) {
        struct pr_row_task_queue_wait q = {.mean = d.mean,
                                           .median_ns = d.median_ns,
                                           .p90_ns = d.p90_ns,
                                           .max_ns = d.max_ns};

        o = pr_rows_row(ro, &q);
    } else
        o = pr_rows_row(ro, &d);
    *ok = o != NULL;
    return o;
}

/* Queue of one stream, as HTA's queue length: +1 when a call starts that
 * enqueues an operation (a kernel, copy or fill), -1 when the operation
 * starts to run.  A CUDA graph launch enqueues all of its graph's
 * operations with one call: each kernel, copy or fill correlated to it is
 * outstanding from the launch's start, as HTA's join of the launch to its
 * correlated device events reads it (HTA's launch list lacks
 * cudaGraphLaunch, which dropped diff_test's 5,046 graph operations from
 * its busiest stream, issue #29 #1).  This counts operations, not slots
 * of CUDA's launch queue (about 1,024 pending launches, critpath.c
 * QUEUE_FULL): a graph takes one slot, so a stream can hold more graph
 * operations than that (diff_test stream 7: 1,338). */
struct qev {
    int64_t t;
    int d;
};

static int
cmp_qev(const void *a, const void *b)
{
    const struct qev *x = a, *y = b;

    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->d - y->d; /* starts (-1) first at equal times */
}

struct qstat {
    int32_t dev, strm;
    size_t ops, kernels, max;
    double mean; /* time-weighted over the stream's span */
};

static void
queue_sweep(struct qev *q, size_t n, struct qstat *s)
{
    double area = 0.0;
    int64_t span;
    long depth = 0;
    size_t i;

    qsort(q, n, sizeof(*q), cmp_qev);
    for (i = 0; i < n; i++) {
        if (i > 0 && depth > 0)
            area += (double)depth * (double)pr_sat_sub_i64(q[i].t, q[i - 1].t);
        depth += q[i].d;
        if (depth > 0 && (size_t)depth > s->max)
            s->max = (size_t)depth;
    }
    span = n > 0 ? pr_sat_sub_i64(q[n - 1].t, q[0].t) : 0;
    s->mean = span > 0 ? area / (double)span : 0.0;
}

#define MAX_STREAMS 64

/* Work that went through the stream's queue from a call in the trace,
 * a graph launch's included. */
static int
queued(const struct work *w)
{
    return w->launch != PR_NO_ID;
}

/* The streams that ran queued work, most operations first. */
static size_t
streams_of(const struct hd *h, struct qstat *s, size_t cap)
{
    size_t i, j, n = 0;

    for (i = 0; i < h->n; i++) {
        const struct work *w = &h->w[i];

        if (!queued(w))
            continue;
        for (j = 0; j < n && (s[j].dev != w->dev || s[j].strm != w->strm); j++)
            ;
        if (j == n && n == cap)
            continue;
        if (j == n) {
            memset(&s[n], 0, sizeof(s[0]));
            s[n].dev = w->dev;
            s[n++].strm = w->strm;
        }
        s[j].ops++;
        s[j].kernels += w->cls != W_MEMORY;
    }
    return n;
}

static enum pr_status
queue_of(const struct hd *h, struct qstat *s, struct pr_error *err)
{
    struct qev *q = malloc(2 * s->ops * sizeof(*q));
    size_t i, n = 0;

    if (q == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
    for (i = 0; i < h->n && n + 2 <= 2 * s->ops; i++) {
        const struct work *w = &h->w[i];

        if (!queued(w) || w->dev != s->dev || w->strm != s->strm)
            continue;
        q[n].t = enqueued_at(w);
        q[n++].d = 1;
        q[n].t = w->s > enqueued_at(w) ? w->s : enqueued_at(w);
        q[n++].d = -1;
    }
    queue_sweep(q, n, s);
    free(q);
    return PR_OK;
}

static void
emit_queues(cJSON *arr, const struct qstat *s, size_t n, int *ok)
{
    size_t i;

    for (i = 0; i < n && *ok; i++) {
        /* tasks with no stream id (kernel_details.csv's HCCL rows,
           Stream ID "N/A") are in no queue: "Stream -1" is a sentinel,
           not a stream (review 28a #14) */
        if (s[i].strm < 0)
            continue;
        struct pr_row_queue_length row = {
            .device = s[i].dev,
            .stream = s[i].strm,
            .operations = (int64_t)s[i].ops,
            .kernels = (int64_t)s[i].kernels,
            .max = (int64_t)s[i].max,
            .mean = s[i].mean,
        };

        *ok = arr != NULL &&
              pr_rows_write(arr, PR_RO_RUNS_LAUNCHES_QUEUE_LENGTH, &row, 1);
    }
}

static int
cmp_qstat(const void *a, const void *b)
{
    const struct qstat *x = a, *y = b;

    if (x->ops != y->ops)
        return x->ops < y->ops ? 1 : -1;
    return x->dev != y->dev ? (x->dev < y->dev ? -1 : 1)
                            : (x->strm < y->strm ? -1 : x->strm > y->strm);
}

static void
graphs_of(struct pr_row_launches *r, const struct hd *h)
{
    size_t i, k = 0, fills = 0, copies = 0;

    /* every device operation a graph launch ran, and the fills and copies
       among them (issue #29 #3: diff_test's 5,046 are 4,464 kernels, 576
       memsets and 6 copies) */
    for (i = 0; i < h->n; i++) {
        int kind = (int)h->t->events[h->w[i].ev].kind;

        if (!h->w[i].graph)
            continue;
        k++;
        fills += kind == PR_KIND_SET;
        copies += kind == PR_KIND_COPY;
    }
    r->graph_launches = (int64_t)h->graph_launches;
    r->graph_kernels = (int64_t)k;
    r->graph_fills = (int64_t)fills;
    r->graph_copies = (int64_t)copies;
    r->cuda_graphs = h->graph_launches > 0;
    r->graph_captures = (int64_t)h->graph_captures;
}

/* The kernel launch call that held the host longest, and the step (by
 * its host interval) it ran in: a launch that takes a large share of its
 * step loads the kernel's code object (CUDA module loading is lazy since
 * CUDA 11.7; HIP loads code objects on first use): a cold step. */
struct slow_launch {
    const struct work *w; /* NULL: no launch with a known call */
    size_t call;          /* its call's event */
    const struct pr_step *step;
    int64_t call_ns;
};

static void
slowest_launch(const struct hd *h, struct slow_launch *sl)
{
    size_t i;

    memset(sl, 0, sizeof(*sl));
    for (i = 0; i < h->n; i++) {
        const struct work *w = &h->w[i];
        int64_t d;

        size_t c;

        if (w->cls == W_MEMORY || w->launch == PR_NO_ID || w->graph)
            continue;
        /* a task queue's launch: the dequeue thread's call, if recorded */
        c = w->acl_at != PR_NO_ID
                ? w->acl_ev
                : pr_idmap_get(&h->calls, pr_event_correlation(
                                              h->t, &h->t->events[w->ev]));
        if (c == PR_NONE)
            continue;
        d = pr_sat_sub_i64(launch_end(w), launch_start(w));
        if (sl->w == NULL || d > sl->call_ns) {
            sl->w = w;
            sl->call = c;
            sl->call_ns = d;
        }
    }
    for (i = 0; sl->w != NULL && h->steps != NULL && i < h->steps->n; i++) {
        const struct pr_step *st = &h->steps->v[i];

        if (launch_start(sl->w) >= st->host_start_ns &&
            launch_start(sl->w) < st->host_end_ns)
            sl->step = st;
    }
}

/* launches.slowest_launch as its typed row: NULL (null) without a launch
 * whose call is known; *ok 0 when out of memory. */
static cJSON *
slowest_row(const struct hd *h, int *ok)
{
    struct slow_launch sl;
    const struct pr_event *call;
    struct pr_row_slowest_launch r = {.absent = 0};
    cJSON *o;
    double pct = NAN;
    int64_t delay;
    size_t c;

    slowest_launch(h, &sl);
    c = sl.w != NULL ? sl.call : PR_NONE;
    if (c == PR_NONE || !*ok)
        return NULL;
    call = &h->t->events[c];
    delay = pr_sat_sub_i64(sl.w->s, launch_end(sl.w));
    if (delay < 0)
        delay = 0; /* started before the call returned */
    if (sl.step != NULL && sl.step->host_end_ns > sl.step->host_start_ns)
        pct = 100.0 * (double)sl.call_ns /
              (double)(sl.step->host_end_ns - sl.step->host_start_ns);
    r.name = pr_trace_str(h->t, call->name);
    r.kernel = pr_trace_str(h->t, h->t->events[sl.w->ev].name);
    r.duration_ns = sl.call_ns;
    r.delay_ns = delay;
    r.step = sl.step != NULL ? pr_steps_name(h->t, sl.step) : NULL;
    r.step_pct = pct;
    o = pr_rows_row(PR_RO_RUNS_LAUNCHES_SLOWEST_LAUNCH, &r);
    *ok = o != NULL;
    if (h->out != NULL) {
        snprintf(h->out->slow_launch_name, sizeof(h->out->slow_launch_name),
                 "%s", pr_trace_str(h->t, call->name));
        snprintf(h->out->slow_launch_step, sizeof(h->out->slow_launch_step),
                 "%s", sl.step != NULL ? pr_steps_name(h->t, sl.step) : "");
        h->out->slow_launch_us = (double)sl.call_ns / 1000.0;
        h->out->slow_launch_delay_us = (double)delay / 1000.0;
        h->out->slow_launch_step_pct = pct;
    }
    return o;
}

/* The export links its tasks to launches it did not record: every
 * linked launch is stamped at its task's own start and lasts nothing
 * (MindSpore's op tables, msprof's op_summary: the reader's links, which
 * say nothing of the host).  Then there is no launch to time: HTA's
 * delay, queue and slowest launch would be invented (issue #30 finding
 * 5: ascend_run2's "112 tasks with a launch call", delay 0, queue 0). */
static int
launches_unrecorded(const struct hd *h)
{
    size_t i, linked = 0;

    for (i = 0; i < h->n; i++) {
        const struct work *w = &h->w[i];

        if (w->cls == W_MEMORY || w->launch == PR_NO_ID || w->graph)
            continue;
        if (host_launch(w) || w->launch_end > w->launch)
            return 0;
        linked++;
    }
    return linked > 0;
}

/* Whether the trace has device work and runtime calls but no call linked
 * to any of that work: its calls (device queries, syncs) launch nothing,
 * so there is no launch to measure (review-5 finding 8). */
static int
launches_unlinked(const struct hd *h)
{
    size_t i, work = 0;

    for (i = 0; i < h->n; i++) {
        if (h->w[i].cls == W_MEMORY)
            continue;
        if (h->w[i].launch != PR_NO_ID)
            return 0;
        work++;
    }
    return work > 0 && h->n_calls > 0;
}

/* The launches' typed row (rows.def) of an export without launch calls:
 * nothing measured, no queue, no delay. */
static enum pr_status
launches_unrecorded_json(struct hd *h, cJSON **o, struct pr_error *err)
{
    cJSON *queues = cJSON_CreateArray();
    struct pr_row_launches r = {
        .queue_length = queues,
        .gpu_idle_host_wait_pct = NAN,
    };
    int unlinked = !launches_unrecorded(h);

    graphs_of(&r, h);
    r.note = unlinked ? "the export records no launch calls (no runtime call "
                        "it holds is linked to a task: those it has, such as "
                        "device queries and syncs, launch nothing): launch "
                        "delay, queues and whether the run is launch-bound "
                        "cannot be measured"
                      : "the export records no launch calls (its tasks are "
                        "linked to their operators at the tasks' own start, "
                        "with no host call): launch delay, queues and whether "
                        "the run is launch-bound cannot be measured";
    *o = queues != NULL ? pr_rows_row(PR_RO_RUNS_LAUNCHES, &r) : NULL;
    cJSON_Delete(queues);
    return *o != NULL
               ? PR_OK
               : pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
}

/* Work that starts more than 1 µs before its launch call begins: the
 * device's clock ahead of the host's (no launch runs its work before it
 * is called).  Graph work (one call for many) and the task queue's work
 * (launch is the operator's enqueue) are left out. */
#define SKEW_NS 1000

static void
skew_of(const struct hd *h, double *all, double *early, double *max_us)
{
    size_t i;

    *all = *early = *max_us = 0;
    for (i = 0; i < h->n; i++) {
        const struct work *w = &h->w[i];
        if (w->launch == PR_NO_ID || w->graph || w->acl_at != PR_NO_ID)
            continue;
        *all += 1;
        if (w->s < pr_sat_sub_i64(w->launch, SKEW_NS)) {
            double lead = (double)(w->launch - w->s) / 1000.0;
            *early += 1;
            if (lead > *max_us)
                *max_us = lead;
        }
    }
}

int
pr_hostdev_skew_note(const struct pr_hostdev_out *out, char *text, size_t cap)
{
    if (out == NULL || !(out->skew_early >= 2) ||
        !(out->skew_early >= 0.1 * out->skew_work))
        return 0;
    snprintf(text, cap,
             "%.0f of %.0f kernels and copies start before their launch call "
             "begins (by up to %.1f \xC2\xB5s), which no launch does: the "
             "trace's device and host clocks disagree, so the launch delays, "
             "launch queues and the device's idle time by cause (host wait, "
             "kernel wait, other) read from them are not reliable",
             out->skew_early, out->skew_work, out->skew_max_us);
    return 1;
}

/* The launches' typed row (rows.def): its delays and slowest launch
 * typed rows (null where none) and its queues' typed rows held as JSON
 * fields. */
static enum pr_status
launches_json(struct hd *h, cJSON **o, struct pr_error *err)
{
    struct qstat s[MAX_STREAMS];
    size_t n = streams_of(h, s, MAX_STREAMS), nd, i, early;
    int64_t *d;
    struct pr_row_launches r = {.absent = 0};
    cJSON *delays, *queues, *slowest, *qwaits;
    size_t qearly;
    char skew_text[400];
    int ok = 1;

    if (launches_unrecorded(h) || launches_unlinked(h))
        return launches_unrecorded_json(h, o, err);
    if (intervals(h, IV_LAUNCH_DELAY, &d, &nd, &early, err) != PR_OK)
        return PR_E_NOMEM;
    if (h->out != NULL) { /* as emit_delays, emit_graphs and the share */
        h->out->delay_median_us = nd > 0 ? (double)d[nd / 2] / 1000.0 : NAN;
        h->out->cuda_graphs = h->graph_launches > 0;
        h->out->host_wait_pct = share_pct(h->host_wait_ns, h->span_ns);
    }
    r.kernels_with_launch = (int64_t)nd;
    delays = delays_row(PR_RO_RUNS_LAUNCHES_LAUNCH_DELAY_US, d, nd, early, &ok);
    free(d);
    if (intervals(h, IV_QUEUE_WAIT, &d, &nd, &qearly, err) != PR_OK) {
        cJSON_Delete(delays);
        return PR_E_NOMEM;
    }
    qwaits = delays_row(PR_RO_RUNS_LAUNCHES_TASK_QUEUE_WAIT_US, d, nd, 0, &ok);
    free(d);
    for (i = 0; i < n; i++)
        if (queue_of(h, &s[i], err) != PR_OK) {
            cJSON_Delete(delays);
            cJSON_Delete(qwaits);
            return PR_E_NOMEM;
        }
    qsort(s, n, sizeof(s[0]), cmp_qstat);
    if (h->out != NULL && n > 0) {
        h->out->queue_mean = s[0].mean;
        h->out->queue_max = 0;
        for (i = 0; i < n; i++)
            if ((double)s[i].max > h->out->queue_max)
                h->out->queue_max = (double)s[i].max;
    }
    queues = cJSON_CreateArray();
    ok = ok && queues != NULL;
    emit_queues(queues, s, n, &ok);
    graphs_of(&r, h);
    slowest = slowest_row(h, &ok);
    r.launch_delay_us = delays;
    r.task_queue_wait_us = qwaits;
    r.queue_length = queues;
    r.slowest_launch = slowest;
    r.gpu_idle_host_wait_pct = share_pct(h->host_wait_ns, h->span_ns);
    r.note = unmeasured(h, 0);
    {
        struct pr_hostdev_out sk = {0};
        skew_of(h, &sk.skew_work, &sk.skew_early, &sk.skew_max_us);
        if (h->out != NULL) {
            h->out->skew_work = sk.skew_work;
            h->out->skew_early = sk.skew_early;
            h->out->skew_max_us = sk.skew_max_us;
        }
        /* the delays, the queues and the idle time by cause compare
           launch calls with device starts on clocks that disagree: null,
           not known, rather than a number read from them (b200_ch13
           wrote a host wait of 0 where most gaps wait on the host) */
        if (r.note == NULL &&
            pr_hostdev_skew_note(&sk, skew_text, sizeof(skew_text))) {
            r.note = skew_text;
            r.launch_delay_us = NULL;
            r.queue_length = NULL;
            r.gpu_idle_host_wait_pct = NAN;
        }
    }
    *o = ok ? pr_rows_row(PR_RO_RUNS_LAUNCHES, &r) : NULL;
    cJSON_Delete(delays);
    cJSON_Delete(qwaits);
    cJSON_Delete(queues);
    cJSON_Delete(slowest);
    return *o != NULL
               ? PR_OK
               : pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
}

/* ------------------------------------------------------- the host link */

static int
any_item(const cJSON *arr, const char *s, int substring)
{
    const cJSON *it;

    cJSON_ArrayForEach(it, arr)
    {
        const char *v = cJSON_GetStringValue(it);
        size_t i, nv;

        if (v == NULL || (nv = strlen(v)) == 0)
            continue;
        if (!substring && strcmp(v, s) == 0)
            return 1;
        for (i = 0; substring && s[i] != '\0'; i++)
            if (strncasecmp(s + i, v, nv) == 0)
                return 1;
    }
    return 0;
}

static const cJSON *
link_entry(const cJSON *links, const char *name, const char *arch)
{
    const cJSON *l;

    cJSON_ArrayForEach(l, links) if (name != NULL && name[0] != '\0' &&
                                     any_item(cJSON_GetObjectItem(l, "match"),
                                              name, 1)) return l;
    cJSON_ArrayForEach(
        l, links) if (arch != NULL && arch[0] != '\0' &&
                      any_item(cJSON_GetObjectItem(l, PR_K_ARCHITECTURE), arch,
                               0)) return l;
    return NULL;
}

/* data/devices.json's host links, parsed once for the process (the table
 * is built in and never changes); NULL only when that ran out of memory */
static cJSON *links_root;
static pthread_once_t links_once = PTHREAD_ONCE_INIT;

static void
links_parse(void)
{
    links_root = cJSON_ParseWithLength((const char *)pr_peaks_builtin_json,
                                       pr_peaks_builtin_json_len);
}

static const cJSON *
links_table(void)
{
    pthread_once(&links_once, links_parse);
    return cJSON_GetObjectItem(links_root, "host_links");
}

double
pr_hostdev_link(const char *name, const char *arch, char *label, size_t cap)
{
    const cJSON *l = link_entry(links_table(), name, arch);
    const cJSON *g = cJSON_GetObjectItem(l, PR_K_GBPS);
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(l, PR_K_LINK));
    double v = cJSON_IsNumber(g) && g->valuedouble > 0 ? g->valuedouble : NAN;

    if (cap > 0)
        snprintf(label, cap, "%s", !isnan(v) && s != NULL ? s : "");
    return v;
}

/* ----------------------------------------------------------- the entry */

/* A part writes its object (a typed row) or, for the temporal
 * breakdown, fills the array it is given. */
typedef enum pr_status (*part_fn)(struct hd *h, cJSON **o,
                                  struct pr_error *err);

static enum pr_status
temporal_part(struct hd *h, cJSON **o, struct pr_error *err)
{
    *o = cJSON_CreateArray();
    if (*o == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (host-device)");
    return temporal_json(h, *o, err);
}

static enum pr_status
part(struct hd *h, cJSON *run, const char *key, part_fn fn,
     struct pr_error *err)
{
    cJSON *o = NULL;

    if (fn(h, &o, err) != PR_OK) {
        cJSON_Delete(o);
        return PR_E_NOMEM;
    }
    return pr_emit_put(run, key, o, "host-device", err);
}

void
pr_hostdev_out_free(struct pr_hostdev_out *out)
{
    free(out->syncs);
    free(out->copies);
    memset(out, 0, sizeof(*out));
}

enum pr_status
pr_hostdev_fill(const struct pr_trace *t, const struct pr_steps *s, cJSON *run,
                struct pr_hostdev_out *out, struct pr_error *err)
{
    struct hd h;
    enum pr_status st;

    memset(&h, 0, sizeof(h));
    h.partial = pr_producer_tasks_partial(run);
    h.t = t;
    h.out = out;
    pr_names_init(&h.names_own, t);
    h.names = &h.names_own;
    if (out != NULL) {
        pr_hostdev_out_free(out);
        out->sync_idle_us = out->host_wait_pct = out->delay_median_us = NAN;
        out->idle_host_share = out->copy_busy_pct = NAN;
        out->idle_other_share = out->idle_sync_share = NAN;
        out->queue_mean = out->queue_max = NAN;
        out->slow_launch_us = out->slow_launch_step_pct = NAN;
        out->slow_launch_delay_us = NAN;
    }
    if (links_table() == NULL) {
        hd_free(&h);
        return pr_error_set(err, PR_E_NOMEM, "out of memory (host links)");
    }
    h.steps = s;
    h.win_s = s->n > 0 ? s->loop_start_ns : s->global_start_ns;
    h.win_e = s->n > 0 ? s->loop_end_ns : s->global_end_ns;
    st = collect(&h, err);
    if (st == PR_OK)
        steps_window(&h);
    if (st == PR_OK)
        st = collect_waits(&h, err);
    if (st == PR_OK)
        st = collect_loader(&h, err);
    if (st == PR_OK) /* first: launches reads its host wait */
        st = part(&h, run, "temporal_breakdown", temporal_part, err);
    if (st == PR_OK)
        st = part(&h, run, "synchronization", sync_json, err);
    if (st == PR_OK)
        st = part(&h, run, "copies", copies_json, err);
    if (st == PR_OK)
        st = part(&h, run, "launches", launches_json, err);
    hd_free(&h);
    return st;
}
