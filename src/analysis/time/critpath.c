/* critpath.c - a step's dependency graph from the neutral model and its
 * critical path (issue #31).  Host runtime calls chain in thread order
 * with the host work between them as edge weights; a launch leads to its
 * task; tasks chain in stream order; a blocking call waits for the device
 * work that ended while it blocked; a stream waits for another's work
 * where the trace records the wait (cudaStreamWaitEvent with its
 * "Stream Wait Event" record).  Replaying the graph with the measured
 * times reproduces the step: the replay's error is the model's own
 * accuracy check.  Rendering and advice are left to others; what-if
 * changes to the graph are whatif.c's. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/checked.h"
#include "profreport/comm.h"
#include "profreport/critpath.h"
#include "profreport/devices.h"
#include "profreport/kclass.h"
#include "profreport/keys.h"
#include "profreport/producer.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"
#include "profreport/tree.h"
#include "profreport/whatif.h"

#include "../internal.h"

static const char *const kind_keys[PR_CP_KIND_COUNT] = {
    "host_op",    "dataloader",    "launch",     "kernel",
    "copy",       "communication", "sync_wait",  "idle",
    "op_compile", "peer_wait",     "stream_wait"};

/* the kernel table's family names (kclass.c), and unknown */
static const char *const fam_keys[PR_CP_FAM_COUNT] = {
    "gemm",      "conv", "attention", "collective", "copy",   "elementwise",
    "reduction", "norm", "embedding", "other",      "unknown"};

const char *
pr_cp_kind_key(enum pr_cp_kind k)
{
    return (unsigned)k < PR_CP_KIND_COUNT ? kind_keys[k] : "other";
}

const char *
pr_cp_family_key(enum pr_cp_family f)
{
    return (unsigned)f < PR_CP_FAM_COUNT ? fam_keys[f] : "other";
}

static int
has(const char *s, const char *sub)
{
    return strstr(s, sub) != NULL;
}

/* A host call that queues device work by its name: a kernel launch, a
 * copy or a fill. */
static int
is_launch_name(const char *nm)
{
    return has(nm, "Launch") || has(nm, "Memcpy") || has(nm, "Memset") ||
           has(nm, "memcpy");
}

/* HCCL's notify tasks by name: "Notify Wait" (torch_npu's trace_view),
 * "Notify_Wait" (msprof's HCCL planes), "NOTIFY_WAIT" (CANN 6 msprof's
 * hardware streams: mindinsight_cann6's AllReduce-op534_0 holds its
 * 32.75 ms wait so, review 7 finding 8). */
static int
notify_name(const char *s)
{
    return has(s, "Notify") || has(s, "NOTIFY");
}

static int
wait_name(const char *s)
{
    return has(s, "Wait") || has(s, "WAIT");
}

/* The family of a kernel name no rule of the kernel table names: by its
 * words (a user's own kernels, libraries the table does not know). */
/* The runtime call's own name, without the "AscendCL@" of msprof's. */
static const char *
fn_of(const char *call)
{
    const char *at = strrchr(call, '@');

    return at != NULL ? at + 1 : call;
}

int
pr_cp_is_compile(const char *call)
{
    const char *fn;

    if (call == NULL)
        return 0;
    fn = fn_of(call);
    return strcmp(fn, "opCompile") == 0 || strcmp(fn, "aclopCompile") == 0 ||
           strcmp(fn, "aclopCompileV2") == 0;
}

int
pr_cp_is_aclop(const char *call)
{
    const char *fn;

    if (call == NULL)
        return 0;
    fn = fn_of(call);
    return strncmp(fn, "aclopCompileAndExecute", 22) == 0 ||
           strncmp(fn, "aclopExecute", 12) == 0;
}

enum pr_cp_family
pr_cp_family_of(const char *n)
{
    if (has(n, "flash") || has(n, "fmha") || has(n, "attention") ||
        has(n, "Attention") || has(n, "_attn") || has(n, "FlashAttn"))
        return PR_CP_FAM_ATTENTION;
    if (has(n, "conv") || has(n, "Conv") || has(n, "wgrad") ||
        has(n, "dgrad") || has(n, "winograd") || has(n, "fprop") ||
        has(n, "implicit_gemm") || has(n, "implicit_convolve"))
        return PR_CP_FAM_CONV;
    if (has(n, "gemm") || has(n, "Gemm") || has(n, "GEMM") || has(n, "gemv") ||
        has(n, "cublas") || has(n, "cutlass") || has(n, "MatMul") ||
        has(n, "matmul") || has(n, "xmma") || has(n, "sgemm") ||
        has(n, "hgemm") || has(n, "_mma"))
        return PR_CP_FAM_GEMM;
    if (has(n, "norm") || has(n, "Norm"))
        return PR_CP_FAM_NORM;
    if (has(n, "reduce") || has(n, "Reduce") || has(n, "softmax") ||
        has(n, "Softmax"))
        return PR_CP_FAM_REDUCTION;
    if (has(n, "elementwise") || has(n, "Elementwise") ||
        has(n, "vectorized") || has(n, "unrolled") || has(n, "Add") ||
        has(n, "Mul") || has(n, "Cast") || has(n, "Relu") ||
        has(n, "triton_poi"))
        return PR_CP_FAM_ELEMENTWISE;
    return PR_CP_FAM_UNKNOWN;
}

/* ------------------------------------------------------------ graph */

void
pr_cp_graph_free(struct pr_cp_graph *g)
{
    if (g == NULL)
        return;
    free(g->v);
    free(g->order);
    free(g->end_pred);
    free(g->end_w);
    free(g->end_pc_first);
    free(g->end_pc_n);
    free(g->pc);
    memset(g, 0, sizeof(*g));
}

static int64_t
point(const struct pr_cp_graph *g, const struct pr_cp_node *n, int i)
{
    const struct pr_cp_node *p = &g->v[n->pred[i]];

    return pr_sat_add_i64(n->p_start[i] ? p->rs : p->re, n->pw[i]);
}

/* A node's start: the latest of the edges into it, plus w. */
static void
replay_start(struct pr_cp_graph *g, struct pr_cp_node *n)
{
    int64_t ready = g->ws;
    int j, any = 0;

    n->bind = PR_CP_MAX_PRED;
    for (j = 0; j < n->n_pred; j++) {
        int64_t p;

        if (n->p_end[j] || n->pw[j] == PR_CP_GONE)
            continue;
        p = point(g, n, j);
        if (!any || p > ready) {
            ready = p;
            n->bind = (uint8_t)j;
            any = 1;
        }
    }
    n->rs = pr_sat_add_i64(ready, n->w);
}

/* Its end: its own time after its start, or for a blocking call after
 * the work it waited for, whichever is later. */
static void
replay_end(struct pr_cp_graph *g, struct pr_cp_node *n)
{
    int64_t ready = n->rs;
    int j;

    n->bind_end = PR_CP_MAX_PRED;
    for (j = 0; j < n->n_pred; j++) {
        int64_t p;

        if (!n->p_end[j] || n->pw[j] == PR_CP_GONE)
            continue;
        p = point(g, n, j);
        if (p > ready) {
            ready = p;
            n->bind_end = (uint8_t)j;
        }
    }
    n->re = pr_sat_add_i64(ready, n->dur);
    n->floor = 0;
    n->floor_ns = 0;
    /* a wait for a peer the trace does not hold ends when that peer
       arrives, which no change on this rank moves: an earlier start
       lengthens the wait (review 7 finding 1) */
    if (n->peer && n->dur > 0) {
        int64_t own = pr_sat_add_i64(ready, n->dur - n->peer_wait);

        n->re = own > n->e ? own : n->e;
        /* the peer set the end: the walk enters from it here */
        n->floor = own < n->e;
        n->floor_ns = own < n->e ? n->e - own : 0;
    }
}

static int
is_task_node(const struct pr_cp_node *n)
{
    return n->type == PR_CP_N_TASK || n->type == PR_CP_N_CARRY;
}

void
pr_cp_replay(struct pr_cp_graph *g)
{
    size_t i;

    for (i = 0; i < 2 * g->n; i++) {
        uint32_t pt = g->order[i];
        struct pr_cp_node *n = &g->v[pt / 2];

        if (n->type == PR_CP_N_START || n->type == PR_CP_N_CARRY) {
            n->rs = n->s; /* fixed: the step's start, earlier work */
            n->re = n->e;
        } else if (pt % 2 == 0) {
            replay_start(g, n);
        } else {
            replay_end(g, n);
        }
    }
    g->rend = g->ws;
    g->end_bind = PR_CP_NONE;
    for (i = 0; i < g->n_end; i++) {
        int64_t p = pr_sat_add_i64(g->v[g->end_pred[i]].re, g->end_w[i]);

        /* on a tie the device's work decides: still running at the
           step's end, it is what the step waits for */
        if (g->end_bind == PR_CP_NONE || p > g->rend ||
            (p == g->rend && is_task_node(&g->v[g->end_pred[i]]) &&
             !is_task_node(&g->v[g->end_pred[g->end_bind]]))) {
            g->rend = p > g->rend ? p : g->rend;
            g->end_bind = (uint32_t)i;
        }
    }
}

/* -------------------------------------------------------- the build */

#define MAX_STACK 48

/* Host work between calls as it is found, with its times. */
struct gpiece {
    int64_t t0, t1;
    uint32_t name;
    uint8_t kind;
};

/* A host thread of the step: its open operators and its last call. */
struct thr {
    uint32_t pid, tid;
    uint32_t stack[MAX_STACK]; /* event indexes, outer first */
    size_t depth;
    uint32_t last;            /* node of its last chained call; PR_CP_NONE */
    int64_t host_end;         /* end of its last host op in the step */
    int64_t step_end;         /* end of its step annotation in the step */
    uint32_t last_rec_launch; /* launch before its last event record */
    uint32_t last_launch;     /* its last launch node */
    int8_t wait_unrec;        /* a stream-wait call since its last launch
                                 whose event's record the step does not
                                 hold (late_starts) */
    int64_t cur;              /* host time accounted in pending up to */
    struct gpiece *pend;      /* owned: work since its last call */
    size_t n_pend, cap_pend;
    int64_t first_rec; /* start of its first range in the step (one open
                          at the step's start: before it); INT64_MAX */
};

/* A stream: its last task in the step (or its carried work). */
struct strm {
    uint32_t pid, tid;
    uint32_t last;     /* node; PR_CP_NONE */
    int64_t carry_end; /* end of its last task before the step */
    uint32_t carry_ev;
    int64_t wait_at;     /* a wait record on it (EVENT_WAIT, Notify Wait) */
    uint8_t wait_notify; /* that wait was for peers (communication) */
};

/* A cudaStreamWaitEvent seen in the step: the stream it made wait (from
 * its device-side record), the launch whose work it waited for. */
struct swait {
    int64_t corr;
    uint32_t call;   /* node */
    uint32_t signal; /* launch node before the event's record */
    uint32_t spid, stid;
    int have_stream;
};

/* A host thread's ranges still open where the carry has reached (a
 * DataLoader's __next__ that began before the step and runs into it). */
struct ostack {
    uint32_t pid, tid;
    uint32_t v[MAX_STACK]; /* event indexes, outer first */
    size_t depth;
};

/* A collective a host thread ran itself (gloo, MPI: the host op is the
 * transfer), seen in the step. */
struct hcomm {
    int64_t t0, t1;
    uint32_t pid, tid, name;
};

/* Task indexes by measured end (then start, then index). */
struct byend {
    int64_t e, s;
    uint32_t i;
};

/* The index of the first of `tasks` (sorted by end) to end after `t`:
 * those before it had ended by then. */
static size_t
ended_by(const struct byend *tasks, size_t n, int64_t t)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (tasks[mid].e <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A launch or a start of a launched task on a device (qd_make). */
struct qmark {
    uint32_t pid;
    int64_t ts;
};

struct pr_cp_ctx {
    const struct pr_trace *t;
    struct pr_names names;
    struct strm *streams; /* owned, across steps */
    size_t n_streams, cap_streams;
    struct pr_idmap stream_ix; /* (pid, tid) -> index */
    struct ostack *open;       /* owned, across steps */
    size_t n_open, cap_open;
    struct pr_idmap open_ix; /* (pid, tid) -> index */
    size_t cursor;           /* events before it are in streams' carry */
    /* per step */
    struct pr_cp_graph g;
    struct thr *thr;
    size_t n_thr, cap_thr;
    struct pr_idmap thr_ix;
    struct pr_idmap corr; /* correlation -> launch node */
    /* correlation -> the call a task queue launched it from
       (pr_queue_launch) */
    struct pr_idmap qcorr;
    struct swait *waits;
    size_t n_waits, cap_waits;
    struct hcomm *hc;
    size_t n_hc, cap_hc;
    /* the starts of the step's device records named Notify (HCCL's
       Notify Wait / Notify Record tasks), in time order */
    int64_t *notify;
    size_t n_notify, cap_notify;
    /* the step's Notify Wait records (start, end), in time order */
    struct byend *nwait;
    size_t n_nwait, cap_nwait;
    /* the trace's HCCL plane tasks that name a peer (t->hccl), by start;
       made on first use */
    struct pr_hccl_task *hccl;
    size_t n_hccl;
    int hccl_made;
    /* the trace's task-queue launches (t->qlaunch), by thread and time;
       made on first use */
    struct pr_queue_launch *ql;
    size_t n_ql;
    int ql_made;
    /* the same by time, for the launches the trace records no call for
       (torch_npu level 0: the HostToDevice flow's start in the queue
       thread's Dequeue@<op>), and the next one the sweep takes */
    struct pr_queue_launch *qlt;
    size_t n_qlt, qlt_next;
    /* correlation -> the earliest launcher event of it (torch_npu's
       torch_to_npu instant: when its operator was enqueued); made on
       first use */
    struct pr_idmap enq_ix;
    int enq_made;
    uint32_t enq_name; /* "Enqueue", where the trace holds the string */
    /* torch_npu's queue entries by number: correlation (the ranges'
       args.correlation_id) -> the first Enqueue range of it; made on
       first use */
    struct pr_idmap qid_ix;
    int qid_made;
    /* torch_npu's queue in FIFO order, for the ranges without a number:
       the k-th such Enqueue's start and the k-th such Dequeue@<op> (its
       event), for the dequeues no launch ties to their enqueue
       (record_event, wait_event); none (n_fifo 0) unless the counts
       match on one queue thread, each dequeue after its enqueue, and no
       two threads' Enqueue ranges overlap; made on first use */
    int64_t *fifo_enq;
    size_t *fifo_deq;
    size_t n_fifo;
    int fifo_made;
    /* the device's streams never overlap and the trace records no wait
       between them (serial_device): one queue, each task after the last */
    int serial;
    uint32_t serial_last; /* node; PR_CP_NONE */
    /* the window is the whole capture of a run without steps; its task
       without a recorded launch that ended last (node; PR_CP_NONE) */
    int capture;
    uint32_t unlaunched;
    /* the trace records runtime calls with their durations (torch_npu's
       CANN layer, level 1 and up): its blocking calls are in it */
    int timed_calls;
    /* the trace's launched tasks (launch call before the task): their
       launches' and their starts' times by device (qmark), and each
       launch's device by its correlation; made on first use (qd_make) */
    struct qmark *qd_launch, *qd_start;
    size_t n_qd;
    struct pr_idmap qd_dev;
    int qd_made;
    struct pr_error *err;
};

static int
grow(void **v, size_t *cap, size_t need, size_t size)
{
    size_t c = *cap ? *cap : 64;
    void *p;

    if (need <= *cap)
        return 1;
    while (c < need)
        c *= 2;
    p = realloc(*v, c * size);
    if (p == NULL)
        return 0;
    *v = p;
    *cap = c;
    return 1;
}

static enum pr_status
nomem(struct pr_cp_ctx *c)
{
    return pr_error_set(c->err, PR_E_NOMEM, "out of memory (critical path)");
}

static int64_t
key2(uint32_t a, uint32_t b)
{
    return (int64_t)(((uint64_t)a << 32) | b);
}

static int64_t
ev_end(const struct pr_event *e)
{
    return pr_sat_add_i64(e->ts_ns, e->dur_ns);
}

static struct pr_cp_node *
add_node(struct pr_cp_ctx *c, enum pr_cp_ntype type, uint32_t *idx)
{
    struct pr_cp_node *n;

    if (!grow((void **)&c->g.v, &c->g.cap, c->g.n + 1, sizeof(*c->g.v)))
        return NULL;
    *idx = (uint32_t)c->g.n;
    n = &c->g.v[c->g.n++];
    memset(n, 0, sizeof(*n));
    n->type = (uint8_t)type;
    n->ev = PR_CP_NONE;
    n->name = PR_STR_NONE;
    n->corr_task = PR_CP_NONE;
    n->op_ev = PR_CP_NONE;
    n->w_kind = PR_CP_IDLE;
    n->name_aclop = n->name_compile = PR_STR_NONE;
    n->enq_s = INT64_MIN;
    return n;
}

static void
add_pred(struct pr_cp_node *n, uint32_t p, int64_t w, int from_start,
         enum pr_cp_kind k, uint32_t name)
{
    if (n->n_pred >= PR_CP_MAX_PRED)
        return;
    n->p_end[n->n_pred] = 0;
    n->pred[n->n_pred] = p;
    n->pw[n->n_pred] = w; /* < 0 only for stream order (below) */
    n->p_start[n->n_pred] = (uint8_t)from_start;
    n->p_kind[n->n_pred] = (uint8_t)k;
    n->p_name[n->n_pred] = name;
    n->n_pred++;
}

static enum pr_status
add_end(struct pr_cp_ctx *c, uint32_t node, int64_t w, uint32_t pc_first,
        uint32_t pc_n)
{
    struct pr_cp_graph *g = &c->g;

    if (!grow((void **)&g->end_pred, &g->cap_end, g->n_end + 1,
              sizeof(*g->end_pred)))
        return nomem(c);
    /* the three arrays share cap_end: grow the others to it */
    {
        int64_t *w2 = realloc(g->end_w, g->cap_end * sizeof(*w2));
        uint32_t *n2;

        if (w2 == NULL)
            return nomem(c);
        g->end_w = w2;
        n2 = realloc(g->end_pc_first, g->cap_end * sizeof(*n2));
        if (n2 == NULL)
            return nomem(c);
        g->end_pc_first = n2;
        n2 = realloc(g->end_pc_n, g->cap_end * sizeof(*n2));
        if (n2 == NULL)
            return nomem(c);
        g->end_pc_n = n2;
    }
    g->end_pred[g->n_end] = node;
    g->end_w[g->n_end] = w; /* < 0: a task running past the step */
    g->end_pc_first[g->n_end] = pc_first;
    g->end_pc_n[g->n_end] = pc_n;
    g->n_end++;
    return PR_OK;
}

static struct strm *
stream_of(struct pr_cp_ctx *c, uint32_t pid, uint32_t tid)
{
    int64_t k = key2(pid, tid);
    size_t i = pr_idmap_get(&c->stream_ix, k);
    struct strm *s;

    if (i != PR_NONE)
        return &c->streams[i];
    if (!grow((void **)&c->streams, &c->cap_streams, c->n_streams + 1,
              sizeof(*c->streams)) ||
        pr_idmap_put(&c->stream_ix, k, c->n_streams, c->err) != PR_OK)
        return NULL;
    s = &c->streams[c->n_streams++];
    s->pid = pid;
    s->tid = tid;
    s->last = PR_CP_NONE;
    s->carry_end = INT64_MIN;
    s->carry_ev = PR_CP_NONE;
    s->wait_at = INT64_MIN;
    s->wait_notify = 0;
    return s;
}

static struct thr *
thread_of(struct pr_cp_ctx *c, uint32_t pid, uint32_t tid)
{
    int64_t k = key2(pid, tid);
    size_t i = pr_idmap_get(&c->thr_ix, k);
    struct thr *h;

    if (i != PR_NONE)
        return &c->thr[i];
    if (!grow((void **)&c->thr, &c->cap_thr, c->n_thr + 1, sizeof(*c->thr)) ||
        pr_idmap_put(&c->thr_ix, k, c->n_thr, c->err) != PR_OK)
        return NULL;
    h = &c->thr[c->n_thr++];
    memset(h, 0, sizeof(*h)); /* step_reset freed a reused entry's list */
    h->pid = pid;
    h->tid = tid;
    h->last = PR_CP_NONE;
    h->host_end = INT64_MIN;
    h->step_end = INT64_MIN;
    h->last_rec_launch = PR_CP_NONE;
    h->last_launch = PR_CP_NONE;
    h->cur = c->g.ws;
    h->first_rec = INT64_MAX;
    return h;
}

static int
is_device(int kind)
{
    return kind == PR_KIND_DEVICE_TASK || kind == PR_KIND_COPY ||
           kind == PR_KIND_SET;
}

/* A runtime's bookkeeping task: the profiler's own start and stop marks
 * and a stream's timeout setting run nothing of the workload (CANN's
 * runtime task types, tsTaskType_t's TS_TASK_TYPE_PROFILING_ENABLE,
 * _PROFILING_DISABLE, _TASK_TIMEOUT_SET, as msprof's timeline and the
 * database's TASK table name them; ascend_db.c books them as no kernel).
 * Whatever a reader makes of them, they never anchor the path:
 * PROFILING_DISABLE, the capture's last task, would otherwise end it on the
 * profiler's stream. */
static int
bookkeeping(const struct pr_trace *t, const struct pr_event *e)
{
    static const char *const names[] = {"PROFILING_ENABLE", "PROFILING_DISABLE",
                                        "TASK_TIMEOUT_SET", "EVENT_RECORD"};
    const char *n = e->name != PR_STR_NONE ? pr_trace_str(t, e->name) : NULL;
    size_t i;

    for (i = 0; n != NULL && i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(n, names[i]) == 0)
            return 1;
    return 0;
}

static int
is_host_range(int kind)
{
    return kind == PR_KIND_HOST_OP || kind == PR_KIND_ANNOTATION ||
           kind == PR_KIND_PY_FUNCTION || kind == PR_KIND_PY_LEGACY;
}

/* torch_npu's task queue takes an enqueued operator off its queue in a
 * "Dequeue@<op>" range of its own thread (kept as an event of no kind of
 * ours): the work there outside the CANN calls is that dequeue, named so
 * on the path rather than as host work outside operators. */
static int
is_dequeue(const struct pr_trace *t, const struct pr_event *e)
{
    return e->kind == PR_KIND_OTHER && e->name != PR_STR_NONE &&
           strncmp(pr_trace_str(t, e->name), "Dequeue@", 8) == 0;
}

/* The thread's ranges still open at ts, after those that ended by then
 * are dropped. */
static void
ostack_trim(const struct pr_trace *t, struct ostack *o, int64_t ts)
{
    while (o->depth > 0 && ev_end(&t->events[o->v[o->depth - 1]]) <= ts)
        o->depth--;
}

/* A host range the carry passes: on its thread's open list. */
static enum pr_status
carry_range(struct pr_cp_ctx *c, uint32_t ev)
{
    const struct pr_trace *t = c->t;
    const struct pr_event *e = &t->events[ev];
    int64_t k = key2(pr_event_pid(t, e), pr_event_tid(t, e));
    size_t i = pr_idmap_get(&c->open_ix, k);
    struct ostack *o;

    if (i == PR_NONE) {
        if (!grow((void **)&c->open, &c->cap_open, c->n_open + 1,
                  sizeof(*c->open)) ||
            pr_idmap_put(&c->open_ix, k, c->n_open, c->err) != PR_OK)
            return nomem(c);
        i = c->n_open++;
        c->open[i].pid = pr_event_pid(t, e);
        c->open[i].tid = pr_event_tid(t, e);
        c->open[i].depth = 0;
    }
    o = &c->open[i];
    ostack_trim(t, o, e->ts_ns);
    if (o->depth < MAX_STACK)
        o->v[o->depth++] = ev;
    return PR_OK;
}

/* Streams' carried work (every task that starts before `upto`) and the
 * host ranges open there. */
static enum pr_status
advance_carry(struct pr_cp_ctx *c, int64_t upto)
{
    const struct pr_trace *t = c->t;

    for (; c->cursor < t->n_events && t->events[c->cursor].ts_ns < upto;
         c->cursor++) {
        const struct pr_event *e = &t->events[c->cursor];
        struct strm *s;

        if (is_host_range(e->kind) || is_dequeue(t, e)) {
            enum pr_status st = carry_range(c, (uint32_t)c->cursor);

            if (st != PR_OK)
                return st;
            continue;
        }
        if (!is_device(e->kind) || bookkeeping(t, e))
            continue;
        s = stream_of(c, pr_event_pid(t, e), pr_event_tid(t, e));
        if (s == NULL)
            return nomem(c);
        if (ev_end(e) > s->carry_end) {
            s->carry_end = ev_end(e);
            s->carry_ev = (uint32_t)c->cursor;
        }
    }
    return PR_OK;
}

/* A host call that blocks until device work is done. */
static int
blocking_name(const char *n)
{
    if (has(n, "Synchroniz")) /* cuda/hip Device-, Stream-, Event-,
                                 aclrtSynchronizeStream, ... */
        return 1;
    /* a synchronous copy (cudaMemcpy, cudaMemcpy2D, hipMemcpy,
       aclrtMemcpy); the Async ones block only from pageable memory, seen
       by their task ending within the call */
    return (has(n, "Memcpy") || has(n, "memcpy")) && !has(n, "Async") &&
           !has(n, "Peer");
}

/* What the thread's open operators say its work now is. */
static void
owner(struct pr_cp_ctx *c, const struct thr *h, enum pr_cp_kind *k,
      uint32_t *name)
{
    const struct pr_trace *t = c->t;
    size_t i;

    *k = PR_CP_HOST_OP;
    *name = PR_STR_NONE;
    for (i = h->depth; i-- > 0;) {
        const struct pr_event *op = &t->events[h->stack[i]];
        const char *nm = pr_trace_str(t, op->name);

        if (pr_tree_is_dataloader(nm)) {
            *k = PR_CP_DATALOADER;
            *name = op->name;
            return;
        }
        if (pr_names_get(&c->names, op->name) & PR_NAME_COMM_HOST) {
            *k = PR_CP_COMM; /* gloo's all_reduce: the transfer itself */
            *name = op->name;
            return;
        }
        if (*name == PR_STR_NONE && !pr_tree_is_step(nm))
            *name = op->name;
    }
}

/* Note [h->cur, upto) as host work of whatever op is open. */
static int
note_work(struct pr_cp_ctx *c, struct thr *h, int64_t upto)
{
    struct gpiece *p;
    enum pr_cp_kind k;
    uint32_t name;

    if (upto <= h->cur)
        return 1;
    owner(c, h, &k, &name);
    if (h->n_pend > 0 && h->pend[h->n_pend - 1].name == name &&
        h->pend[h->n_pend - 1].kind == (uint8_t)k &&
        h->pend[h->n_pend - 1].t1 == h->cur) {
        h->pend[h->n_pend - 1].t1 = upto;
        h->cur = upto;
        return 1;
    }
    if (!grow((void **)&h->pend, &h->cap_pend, h->n_pend + 1, sizeof(*h->pend)))
        return 0;
    p = &h->pend[h->n_pend++];
    p->t0 = h->cur;
    p->t1 = upto;
    p->name = name;
    p->kind = (uint8_t)k;
    h->cur = upto;
    return 1;
}

/* Account the thread's time up to ts: each op that closed by then takes
 * its tail, then the op open at ts takes the rest. */
static int
account(struct pr_cp_ctx *c, struct thr *h, int64_t ts)
{
    while (h->depth > 0) {
        int64_t end = ev_end(&c->t->events[h->stack[h->depth - 1]]);

        if (end > ts)
            break;
        if (!note_work(c, h, end))
            return 0;
        h->depth--;
    }
    return note_work(c, h, ts);
}

static int
push_op(struct pr_cp_ctx *c, struct thr *h, uint32_t ev)
{
    const struct pr_event *e = &c->t->events[ev];

    if (!account(c, h, e->ts_ns))
        return 0;
    if (e->ts_ns < h->first_rec)
        h->first_rec = e->ts_ns;
    if (h->depth < MAX_STACK)
        h->stack[h->depth++] = ev;
    if (pr_names_get(&c->names, e->name) & PR_NAME_COMM_HOST) {
        struct hcomm *x;

        if (!grow((void **)&c->hc, &c->cap_hc, c->n_hc + 1, sizeof(*c->hc)))
            return 0;
        x = &c->hc[c->n_hc++];
        x->t0 = e->ts_ns;
        x->t1 = ev_end(e);
        x->pid = h->pid;
        x->tid = h->tid;
        x->name = e->name;
    }
    /* the step's own range is the host's work where the host drew it,
       not where the producer's device step was made a range */
    if (pr_tree_is_step(pr_trace_str(c->t, e->name))) {
        if (ev_end(e) > h->step_end && !c->t->device_steps)
            h->step_end = ev_end(e);
    } else if (ev_end(e) > h->host_end && e->kind != PR_KIND_OTHER) {
        h->host_end = ev_end(e); /* not a dequeue's: no operator's work */
    }
    return 1;
}

static int
put_piece(struct pr_cp_graph *g, int64_t ns, uint32_t name, uint8_t kind,
          uint32_t *n)
{
    if (ns <= 0)
        return 1;
    if (!grow((void **)&g->pc, &g->cap_pc, g->n_pc + 1, sizeof(*g->pc)))
        return 0;
    g->pc[g->n_pc].ns = ns;
    g->pc[g->n_pc].name = name;
    g->pc[g->n_pc].kind = kind;
    g->n_pc++;
    (*n)++;
    return 1;
}

/* The earliest collective of another thread that is in flight in
 * [a, b) (gloo runs a DDP bucket's all_reduce on its own threads); NULL
 * when none. */
static const struct hcomm *
comm_in(const struct pr_cp_ctx *c, const struct thr *h, int64_t a, int64_t b)
{
    const struct hcomm *best = NULL;
    size_t i;

    for (i = 0; i < c->n_hc; i++) {
        const struct hcomm *x = &c->hc[i];

        if ((x->pid == h->pid && x->tid == h->tid) || x->t1 <= a || x->t0 >= b)
            continue;
        if (best == NULL || x->t0 < best->t0 ||
            (x->t0 == best->t0 && x->name < best->name))
            best = x;
    }
    return best;
}

/* Host time outside operators in [a, b): while a collective of another
 * thread is in flight there, the thread records nothing because it waits
 * for it (work.wait(), DDP's bucket); that time is communication. */
static int
split_outside(struct pr_cp_ctx *c, const struct thr *h, int64_t a, int64_t b,
              uint32_t *n)
{
    struct pr_cp_graph *g = &c->g;

    while (a < b) {
        const struct hcomm *x = comm_in(c, h, a, b);
        int64_t in0, in1;
        size_t i;

        if (x == NULL)
            return put_piece(g, b - a, PR_STR_NONE, PR_CP_HOST_OP, n);
        in0 = x->t0 > a ? x->t0 : a;
        in1 = x->t1 < b ? x->t1 : b;
        /* the collectives in flight one after another from in0 */
        for (i = 0; i < c->n_hc && in1 < b; i++) {
            const struct hcomm *y = &c->hc[i];

            if (!(y->pid == h->pid && y->tid == h->tid) && y->t0 <= in1 &&
                y->t1 > in1) {
                in1 = y->t1 < b ? y->t1 : b;
                i = (size_t)-1; /* again from the first: a chain */
            }
        }
        if (!put_piece(g, in0 - a, PR_STR_NONE, PR_CP_HOST_OP, n) ||
            !put_piece(g, in1 - in0, x->name, PR_CP_COMM, n))
            return 0;
        a = in1;
    }
    return 1;
}

/* Move the thread's pending work in [from, to) into g->pc; *first and
 * *n say where.  The pending list is emptied. */
static int
take_pieces(struct pr_cp_ctx *c, struct thr *h, int64_t from, int64_t to,
            uint32_t *first, uint32_t *n)
{
    struct pr_cp_graph *g = &c->g;
    size_t i;

    *first = (uint32_t)g->n_pc;
    *n = 0;
    for (i = 0; i < h->n_pend; i++) {
        const struct gpiece *q = &h->pend[i];
        int64_t a = q->t0 > from ? q->t0 : from;
        int64_t b = q->t1 < to ? q->t1 : to;

        if (b <= a)
            continue;
        if (q->name == PR_STR_NONE && q->kind == PR_CP_HOST_OP && c->n_hc > 0) {
            if (!split_outside(c, h, a, b, n))
                return 0;
            continue;
        }
        if (!put_piece(g, b - a, q->name, q->kind, n))
            return 0;
    }
    h->n_pend = 0;
    return 1;
}

/* The pred a thread's first call hands off from: the latest call of
 * another thread that ended by ts (a backward thread starts after the
 * forward one); START when none. */
static uint32_t
handoff(const struct pr_cp_ctx *c, const struct thr *self, int64_t ts)
{
    uint32_t best = 0;
    int64_t be = INT64_MIN;
    size_t i;

    for (i = 0; i < c->n_thr; i++) {
        const struct thr *h = &c->thr[i];

        if (h == self || h->last == PR_CP_NONE)
            continue;
        if (c->g.v[h->last].e <= ts && c->g.v[h->last].e > be) {
            be = c->g.v[h->last].e;
            best = h->last;
        }
    }
    return best;
}

/* The innermost operator open on the thread (not the step's range nor
 * an annotation): the one whose call this is. */
static uint32_t
open_op(const struct pr_cp_ctx *c, const struct thr *h)
{
    size_t i;

    for (i = h->depth; i-- > 0;) {
        const struct pr_event *op = &c->t->events[h->stack[i]];

        if (op->kind == PR_KIND_HOST_OP &&
            !pr_tree_is_step(pr_trace_str(c->t, op->name)))
            return h->stack[i];
    }
    return PR_CP_NONE;
}

static int
cmp_ql(const void *a, const void *b)
{
    const struct pr_queue_launch *x = a, *y = b;

    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->ts_ns < y->ts_ns ? -1 : x->ts_ns > y->ts_ns;
}

static int
cmp_qlt(const void *a, const void *b)
{
    const struct pr_queue_launch *x = a, *y = b;

    if (x->ts_ns != y->ts_ns)
        return x->ts_ns < y->ts_ns ? -1 : 1;
    return cmp_ql(a, b);
}

/* The trace's task-queue launches by thread and time (c->ql) and those
 * the trace records no call for (bare: torch_npu level 0) by time alone
 * (c->qlt); 0 out of memory. */
static int
ql_make(struct pr_cp_ctx *c)
{
    const struct pr_trace *t = c->t;
    size_t sz = t->n_qlaunch * sizeof(*c->ql), i;

    if (c->ql_made)
        return 1;
    c->ql_made = 1;
    if (t->n_qlaunch == 0)
        return 1;
    if ((c->ql = malloc(sz)) == NULL)
        return 0;
    memcpy(c->ql, t->qlaunch, sz);
    c->n_ql = t->n_qlaunch;
    qsort(c->ql, c->n_ql, sizeof(*c->ql), cmp_ql);
    if ((c->qlt = malloc(sz)) == NULL)
        return 0;
    for (i = 0; i < c->n_ql; i++)
        if (c->ql[i].bare)
            c->qlt[c->n_qlt++] = c->ql[i];
    qsort(c->qlt, c->n_qlt, sizeof(*c->qlt), cmp_qlt);
    return 1;
}

/* When the operator of correlation corr was enqueued, into *ts: the
 * start of the earliest launcher event of it (torch_npu's torch_to_npu
 * instant, on the operator's thread); INT64_MIN none.  0 out of
 * memory. */
static int
enqueued_at(struct pr_cp_ctx *c, int64_t corr, int64_t *ts)
{
    const struct pr_trace *t = c->t;
    size_t i;

    *ts = INT64_MIN;
    if (!c->enq_made) {
        c->enq_made = 1;
        for (i = 0; i < t->n_events; i++) { /* by start: the first kept */
            const struct pr_event *e = &t->events[i];
            int64_t k = pr_event_correlation(t, e);

            if (pr_tree_is_launcher(e->kind) && k != PR_NO_ID &&
                pr_idmap_get(&c->enq_ix, k) == PR_NONE &&
                pr_idmap_put(&c->enq_ix, k, i, c->err) != PR_OK)
                return 0;
        }
    }
    i = pr_idmap_get(&c->enq_ix, corr);
    if (i != PR_NONE)
        *ts = t->events[i].ts_ns;
    return 1;
}

/* The first task-queue launch on (pid, tid) at or after ts; c->n_ql
 * none.  c->ql is made. */
static size_t
ql_first(const struct pr_cp_ctx *c, uint32_t pid, uint32_t tid, int64_t ts)
{
    struct pr_queue_launch key;
    size_t lo = 0, hi = c->n_ql;

    key.pid = pid;
    key.tid = tid;
    key.ts_ns = ts;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (cmp_ql(&c->ql[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether e is one of torch_npu's Enqueue ranges. */
static int
is_enqueue(const struct pr_cp_ctx *c, const struct pr_event *e)
{
    return c->enq_name != PR_STR_NONE && e->name == c->enq_name &&
           e->kind == PR_KIND_OTHER;
}

/* When Enqueue range q's entry was in the queue that Dequeue@<op> d
 * reads: the range's end, or d's start where that is earlier.
 * torch_npu's Enqueue range is its two profiler marks (0 and 1, the
 * second with the entry's number) around enCurrentNPUStream, whose
 * Repository::Enqueue writes the entry into the ring (WriteQueue) only
 * once there is room: where the queue is full it waits in eventfd_read
 * for the queue thread and writes at the range's end, after that wait,
 * then wakes the queue thread and returns.  The range's start is only
 * when the host began to enqueue.  The queue thread cannot take it
 * before it is written, so d's start bounds it too. */
static int64_t
queued_by(const struct pr_event *q, const struct pr_event *d)
{
    return ev_end(q) < d->ts_ns ? ev_end(q) : d->ts_ns;
}

/* When Dequeue@<op> d's queue entry was enqueued by its number, into
 * *ts: when the Enqueue range of the process that carries d's
 * correlation had written it (queued_by).  torch_npu numbers each entry
 * when it is enqueued
 * (QueueParas::correlation_id, from one counter of the process, in
 * enCurrentNPUStream) and its profiler writes that number as
 * args.correlation_id on both ranges (torch_npu's OpMarkBean), so the
 * pair holds whatever order the ranges start in, also where two
 * threads enqueue at once.  INT64_MIN where d carries no number or no
 * Enqueue range carries it (a capture cut inside the queue).  0 on
 * out-of-memory. */
static int
id_enqueued(struct pr_cp_ctx *c, const struct pr_event *d, int64_t *ts)
{
    const struct pr_trace *t = c->t;
    int64_t k = pr_event_correlation(t, d);
    size_t i;

    *ts = INT64_MIN;
    if (k == PR_NO_ID || c->enq_name == PR_STR_NONE)
        return 1;
    if (!c->qid_made) {
        c->qid_made = 1;
        for (i = 0; i < t->n_events; i++) { /* by start: the first kept */
            const struct pr_event *e = &t->events[i];
            int64_t q = pr_event_correlation(t, e);

            if (is_enqueue(c, e) && q != PR_NO_ID &&
                pr_idmap_get(&c->qid_ix, q) == PR_NONE &&
                pr_idmap_put(&c->qid_ix, q, i, c->err) != PR_OK)
                return 0;
        }
    }
    i = pr_idmap_get(&c->qid_ix, k);
    if (i != PR_NONE && pr_event_pid(t, &t->events[i]) == pr_event_pid(t, d))
        *ts = queued_by(&t->events[i], d);
    return 1;
}

/* c->fifo_enq / fifo_deq from the trace's Enqueue and Dequeue@<op>
 * ranges that carry no queue number (id_enqueued pairs the others;
 * events are by start).  torch_npu's task queue is one FIFO per device
 * (per stream with its per-stream queues), written by the Enqueue ranges
 * of the operators' threads and read in Dequeue@<op> ranges on the
 * queue's thread, so the k-th of each by start are a pair (which the
 * export's args.correlation_id pairs match on every ../shared torch_npu
 * trace) where one thread enqueues at a time.  Where the counts differ
 * (a capture cut inside the queue), the dequeues span threads (several
 * queues), a dequeue would start before its enqueue, or Enqueue ranges
 * of two threads overlap (which of them took its place in the queue
 * first the starts do not say), no pairs are kept.  0 on
 * out-of-memory. */
static int
fifo_make(struct pr_cp_ctx *c)
{
    const struct pr_trace *t = c->t;
    size_t i, ne = 0, nd = 0;
    uint32_t pid = 0, tid = 0, etid = 0;
    int64_t eend = INT64_MIN; /* the latest end of an Enqueue so far */

    c->fifo_made = 1;
    if (c->enq_name == PR_STR_NONE)
        return 1;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (pr_event_correlation(t, e) != PR_NO_ID)
            continue; /* numbered: paired by id_enqueued */
        if (is_enqueue(c, e)) {
            if (ne++ > 0 && e->ts_ns < eend && pr_event_tid(t, e) != etid)
                return 1; /* two producers at once: no order */
            if (ev_end(e) > eend) {
                eend = ev_end(e);
                etid = pr_event_tid(t, e);
            }
        } else if (is_dequeue(t, e)) {
            if (nd++ == 0) {
                pid = pr_event_pid(t, e);
                tid = pr_event_tid(t, e);
            } else if (pr_event_pid(t, e) != pid || pr_event_tid(t, e) != tid)
                return 1;
        }
    }
    if (ne != nd || nd == 0)
        return 1;
    c->fifo_enq = malloc(ne * sizeof(*c->fifo_enq));
    c->fifo_deq = malloc(nd * sizeof(*c->fifo_deq));
    if (c->fifo_enq == NULL || c->fifo_deq == NULL)
        return 0;
    ne = nd = 0;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (pr_event_correlation(t, e) != PR_NO_ID)
            continue;
        if (is_enqueue(c, e))
            c->fifo_enq[ne++] = (int64_t)i; /* its index, for now */
        else if (is_dequeue(t, e))
            c->fifo_deq[nd++] = i;
    }
    for (i = 0; i < nd; i++) {
        const struct pr_event *q = &t->events[(size_t)c->fifo_enq[i]];
        const struct pr_event *d = &t->events[c->fifo_deq[i]];

        if (q->ts_ns > d->ts_ns)
            return 1; /* not this queue's order: n_fifo stays 0 */
        c->fifo_enq[i] = queued_by(q, d);
    }
    c->n_fifo = nd;
    return 1;
}

/* When Dequeue@<op> d's operator was enqueued, into *ts: by the queue
 * entry's number where d carries one (id_enqueued), else by the queue's
 * FIFO order (fifo_make); INT64_MIN where the trace does not pair them.
 * 0 on out-of-memory. */
static int
queue_enqueued(struct pr_cp_ctx *c, const struct pr_event *d, int64_t *ts)
{
    size_t ix = (size_t)(d - c->t->events), lo = 0, hi;

    if (pr_event_correlation(c->t, d) != PR_NO_ID)
        return id_enqueued(c, d, ts);
    *ts = INT64_MIN;
    if (!c->fifo_made && !fifo_make(c))
        return 0;
    hi = c->n_fifo;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (c->fifo_deq[mid] < ix)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < c->n_fifo && c->fifo_deq[lo] == ix)
        *ts = c->fifo_enq[lo];
    return 1;
}

/* torch_npu's task-queue thread between two Dequeue@<op> ranges records
 * nothing.  Where the operator it dequeues next was enqueued after that
 * time began (the correlation of the launch in its Dequeue@<op> leads to
 * the operator's torch_to_npu instant), the queue was empty and waited
 * for the host to enqueue it: the time is named as torch_npu names that
 * ("Enqueue"), the host's.  Where the operator was already queued (a
 * backlog: msprof_npu_out's optimizer, enqueued 2-3 ms before), it is
 * the queue thread's own, taking that operator: named by its
 * Dequeue@<op>.  Without a launch in the range (record_event,
 * wait_event: no task of its own), or one whose enqueue the trace does
 * not give, the enqueue is the Enqueue range of the same queue number
 * (args.correlation_id), or for ranges without one the queue's FIFO pair
 * (queue_enqueued): a dequeue is the queue's work whether or not it
 * launched.  Without
 * either, whether the queue waited is unknown: the time stays host work
 * outside operators.  Dequeue range d has just been pushed on thread h,
 * its time before accounted. */
static int
name_queue_gap(struct pr_cp_ctx *c, struct thr *h, const struct pr_event *d)
{
    struct gpiece *p;
    int64_t enq = INT64_MIN;
    size_t q;

    if (h->n_pend == 0)
        return 1;
    p = &h->pend[h->n_pend - 1];
    if (p->name != PR_STR_NONE || p->kind != PR_CP_HOST_OP || p->t1 != d->ts_ns)
        return 1;
    if (!ql_make(c))
        return 0;
    q = ql_first(c, h->pid, h->tid, d->ts_ns);
    if (q < c->n_ql && c->ql[q].pid == h->pid && c->ql[q].tid == h->tid &&
        c->ql[q].ts_ns <= ev_end(d) && !enqueued_at(c, c->ql[q].corr, &enq))
        return 0;
    if (enq == INT64_MIN && !queue_enqueued(c, d, &enq))
        return 0;
    /* neither gives an enqueue before it: whether the queue waited is
       unknown */
    if (enq == INT64_MIN || enq > d->ts_ns)
        return 1;
    /* The gap is not split at enq: a queue empty when the gap began
       (enq > t0) has its thread asleep in Repository::Dequeue's
       eventfd_read (or polling ReadQueue with TASK_QUEUE_ENABLE=2) until
       the producer's eventfd_write, which follows the write inside the
       Enqueue range.  Its time after enq is that hand-off's wake-up, not
       work of the queue's, and the trace has no mark of the write or the
       wake-up: the whole gap waited for the host's enqueue. */
    if (enq > p->t0)
        p->name = c->enq_name; /* PR_STR_NONE where there is no such name */
    else
        p->name = d->name;
    return 1;
}

/* The task-queue launches (pr_queue_launch) inside call ev, by their
 * correlation, to node: a task of that correlation waits for this call,
 * not for its operator's enqueue (torch_npu: enqueue on the operator's
 * thread, Dequeue@<op> on the queue's, whose CANN call launches). */
static int
queue_calls(struct pr_cp_ctx *c, const struct pr_event *e, uint32_t node,
            uint32_t *enq)
{
    const struct pr_trace *t = c->t;
    uint32_t pid = pr_event_pid(t, e), tid = pr_event_tid(t, e);
    size_t lo;

    if (enq != NULL)
        *enq = PR_CP_NONE;
    if (!ql_make(c))
        return 0;
    if (c->n_ql == 0)
        return 1;
    for (lo = ql_first(c, pid, tid, e->ts_ns);
         lo < c->n_ql && c->ql[lo].pid == pid && c->ql[lo].tid == tid &&
         c->ql[lo].ts_ns <= ev_end(e);
         lo++) {
        size_t q = pr_idmap_get(&c->corr, c->ql[lo].corr);

        /* the enqueue: its operator's launch on the enqueuing thread */
        if (enq != NULL && q != PR_NONE && q != node &&
            c->g.v[q].e <= e->ts_ns &&
            (*enq == PR_CP_NONE || c->g.v[q].e > c->g.v[*enq].e))
            *enq = (uint32_t)q;
        if (node != PR_CP_NONE &&
            pr_idmap_put(&c->qcorr, c->ql[lo].corr, node, c->err) != PR_OK)
            return 0;
    }
    return 1;
}

/* Chain host node idx, starting at ts on thread h, after the thread's
 * last call or, where node other (another thread's call, the enqueue)
 * ended later, after other: the edge from the later one carries the
 * thread's work since as pieces (edge 0), the other waits (edge 1). */
static enum pr_status
chain_call(struct pr_cp_ctx *c, struct thr *h, uint32_t idx, uint32_t other,
           int64_t ts)
{
    struct pr_cp_node *n;
    uint32_t prev = h->last, pf, pn;

    if (prev == PR_CP_NONE || c->g.v[other].e > c->g.v[prev].e) {
        if (prev != PR_CP_NONE)
            add_pred(&c->g.v[idx], prev, 0, 0, PR_CP_HOST_OP, PR_STR_NONE);
        prev = other;
    }
    if (!take_pieces(c, h, c->g.v[prev].e, ts, &pf, &pn))
        return nomem(c);
    n = &c->g.v[idx]; /* take_pieces does not move nodes; keep it plain */
    add_pred(n, prev, ts - c->g.v[prev].e, 0, PR_CP_HOST_OP, PR_STR_NONE);
    if (n->n_pred == 2) { /* the gap edge first: its pieces are edge 0's */
        uint32_t p0 = n->pred[0];

        n->pred[0] = n->pred[1];
        n->pw[0] = n->pw[1];
        n->pred[1] = p0;
        n->pw[1] = 0;
    }
    n->pc_first = pf;
    n->pc_n = pn;
    h->last = idx;
    return PR_OK;
}

/* The pred of a thread's first call in a capture window where the thread
 * records nothing before it: the device work launched before the capture
 * (no runtime call of the trace shares its correlation) that ended by ts,
 * before the thread's first range, rather than START.  The time from the
 * capture's start to the call is then the device's, as the trace shows it
 * (review 21 finding 1: nsys_before gpu0 runs 9.2 ms of kernels, a 7.9 ms
 * flash_fwd_kernel among them, before pid 144's first call); charging it to
 * host work names work the trace does not hold.  START (0) otherwise. */
static uint32_t
before_capture(const struct pr_cp_ctx *c, const struct thr *h, int64_t ts)
{
    if (!c->capture || c->unlaunched == PR_CP_NONE ||
        c->g.v[c->unlaunched].e > ts || h->first_rec < c->g.v[c->unlaunched].e)
        return 0;
    return c->unlaunched;
}

/* Host polls (data/kernels.json "host_polls": DeepEP's legacy Buffer
 * dispatch launches notify_dispatch, then its host code spins on a counter
 * that kernel writes to pinned host memory; no call records the wait).
 * Where a thread's call prev is the launch of such a kernel, the thread
 * then records nothing for POLL_MIN_NS or more and resumes while that
 * kernel runs (from its start to POLL_LATE_NS after its end), that time
 * was the wait, not host work: the call idx's host edge becomes an edge
 * from the kernel's end, with the work the thread did after it resumed;
 * the edge from prev keeps that work alone (the host's own time, were the
 * kernel instant).  A held-out H800 trace (DeepSeek's profile-data
 * train.json) resumes 25-67 us before notify_dispatch ends after each of
 * its four waits of 2.1-22.7 ms; the counter is written before the
 * kernel's last barrier, which a slow peer lengthens, so the window runs
 * from the kernel's start. */
#define POLL_MIN_NS 200000
#define POLL_LATE_NS 20000

static void
host_poll(struct pr_cp_ctx *c, uint32_t idx, uint32_t launch)
{
    struct pr_cp_graph *g = &c->g;
    struct pr_cp_node *n = &g->v[idx];
    const struct pr_cp_node *k, *prev;
    const struct pr_cp_piece *p;
    struct pr_kclass kc;
    int64_t resume;
    int j;

    if (launch == PR_CP_NONE || g->v[launch].corr_task == PR_CP_NONE ||
        n->n_pred == 0 || n->n_pred >= PR_CP_MAX_PRED || n->pc_n == 0 ||
        n->pred[0] != launch)
        return;
    prev = &g->v[launch];
    k = &g->v[g->v[launch].corr_task];
    p = &g->pc[n->pc_first];
    if (p->kind != PR_CP_HOST_OP || p->ns < POLL_MIN_NS ||
        k->type != PR_CP_N_TASK)
        return;
    resume = prev->e + p->ns;
    if (k->s > resume || k->e < resume - POLL_LATE_NS ||
        !pr_names_rule(&c->names, k->name, &kc) || !kc.host_polls)
        return;
    j = n->n_pred++;
    n->pred[j] = n->pred[0];
    n->pw[j] = n->pw[0] - p->ns;
    n->p_start[j] = n->p_start[0];
    n->p_end[j] = n->p_end[0];
    n->p_kind[j] = n->p_kind[0];
    n->p_name[j] = n->p_name[0];
    /* a resume after the kernel's end is the host noticing it: a wait */
    n->pred[0] = g->v[launch].corr_task;
    n->pw[0] = n->s - k->e;
    n->p_start[0] = 0;
    n->p_end[0] = 0;
    n->p_kind[0] = PR_CP_SYNC;
    n->p_name[0] = PR_STR_NONE;
    n->pc_first++;
    n->pc_n--;
    n->polled = 1;
}

static enum pr_status
on_call(struct pr_cp_ctx *c, uint32_t ev)
{
    const struct pr_trace *t = c->t;
    const struct pr_event *e = &t->events[ev];
    const char *nm = pr_trace_str(t, e->name);
    struct thr *h = thread_of(c, pr_event_pid(t, e), pr_event_tid(t, e));
    struct pr_cp_node *n;
    uint32_t idx, other, enq;
    int64_t corr = pr_event_correlation(t, e);

    if (e->dur_ns == 0 &&
        (t->drawn_launches || (t->device_steps && !c->timed_calls)))
        return PR_OK; /* a producer's device timeline with launches drawn
                         at its tasks' starts (MindSpore, msprof): no host
                         time, with steps or without (hunt30 #8: an
                         op_summary alone chained its drawn launches as
                         host work, "host work 68%" of three MIX_AIC
                         tasks and the Task Wait between them).
                         torch_npu's torch_to_npu launches are host
                         instants (the flow's start on the launching
                         thread), its tasks link to them where the trace
                         records CANN's calls; without them (level 0) the
                         host's blocking calls are not recorded either,
                         and the ops around them (text_level0's
                         aten::_local_scalar_dense, 70.7 ms waiting for
                         the all-reduce) would read as host work */
    if (h == NULL || !account(c, h, e->ts_ns))
        return nomem(c);
    if (h->last != PR_CP_NONE && c->g.v[h->last].e > e->ts_ns) {
        /* nested in the thread's previous call (a driver call inside a
           runtime call): its launch leaves from that call's start.  An
           opCompile step inside aclopCompileAndExecute is the part of
           that call that compiles (review-5 finding 2) */
        struct pr_cp_node *up = &c->g.v[h->last];

        if (pr_cp_is_compile(nm) && up->type == PR_CP_N_HOST) {
            int64_t in =
                ev_end(e) < up->e ? ev_end(e) - e->ts_ns : up->e - e->ts_ns;

            if (up->dur_compile == 0)
                up->compile_s = e->ts_ns;
            up->compile_e = e->ts_ns + (in > 0 ? in : 0);
            up->dur_compile += in > 0 ? in : 0;
            if (up->dur_compile > up->dur)
                up->dur_compile = up->dur;
            up->name_compile = e->name;
        }
        if (corr != PR_NO_ID &&
            pr_idmap_put(&c->corr, corr, h->last, c->err) != PR_OK)
            return PR_E_NOMEM;
        return queue_calls(c, e, h->last, NULL) ? PR_OK : nomem(c);
    }
    n = add_node(c, blocking_name(nm) ? PR_CP_N_SYNC : PR_CP_N_HOST, &idx);
    if (n == NULL)
        return nomem(c);
    n->ev = ev;
    n->name = e->name;
    n->op_ev = open_op(c, h);
    n->kind = n->type == PR_CP_N_SYNC ? PR_CP_SYNC
              : pr_cp_is_compile(nm)  ? PR_CP_COMPILE
                                      : PR_CP_LAUNCH;
    n->s = e->ts_ns;
    n->e = ev_end(e);
    n->dur = e->dur_ns;
    /* the host goes on from the thread's last call, or from another
       thread's call that ended since (a thread waiting for another:
       the main thread while autograd's runs the backward pass) */
    other = handoff(c, h, e->ts_ns);
    if (other == 0 && h->last == PR_CP_NONE)
        other = before_capture(c, h, e->ts_ns);
    /* a task queue's launch call: its thread took the operator off the
       queue after the operator's thread put it there (enqueue ->
       Dequeue@<op> -> this call); where its own last call ended
       before the enqueue, it waited for that enqueue */
    if (!queue_calls(c, e, PR_CP_NONE, &enq))
        return nomem(c);
    if (enq != PR_CP_NONE && c->g.v[enq].e >= c->g.v[other].e)
        other = enq;
    if (chain_call(c, h, idx, other, e->ts_ns) != PR_OK)
        return PR_E_NOMEM;
    host_poll(c, idx, h->last_launch);
    n = &c->g.v[idx];
    h->cur = n->e > h->cur ? n->e : h->cur;
    if (corr != PR_NO_ID && pr_idmap_put(&c->corr, corr, idx, c->err) != PR_OK)
        return PR_E_NOMEM;
    if (!queue_calls(c, e, idx, NULL))
        return nomem(c);
    if (is_launch_name(nm)) {
        h->last_launch = idx;
        /* the launch follows a stream wait on an event recorded before
           the window: late_starts names it (the call node's late) */
        c->g.v[idx].late = h->wait_unrec ? 2 : 0;
        h->wait_unrec = 0;
    }
    if (has(nm, "StreamWaitEvent") && h->last_rec_launch == PR_CP_NONE)
        h->wait_unrec = 1;
    if (has(nm, "EventRecord"))
        h->last_rec_launch = h->last_launch;
    if (has(nm, "StreamWaitEvent") && h->last_rec_launch != PR_CP_NONE) {
        struct swait *w;

        if (!grow((void **)&c->waits, &c->cap_waits, c->n_waits + 1,
                  sizeof(*c->waits)))
            return nomem(c);
        w = &c->waits[c->n_waits++];
        memset(w, 0, sizeof(*w));
        w->corr = corr;
        w->call = idx;
        w->signal = h->last_rec_launch;
    }
    return PR_OK;
}

/* The Dequeue@<op> range open on the task-queue thread h; PR_CP_NONE. */
static uint32_t
open_dequeue(const struct pr_cp_ctx *c, const struct thr *h)
{
    size_t i;

    for (i = h->depth; i-- > 0;)
        if (is_dequeue(c->t, &c->t->events[h->stack[i]]))
            return h->stack[i];
    return PR_CP_NONE;
}

/* A task-queue launch the trace records no call for (torch_npu level 0:
 * the HostToDevice flow's start inside the queue thread's Dequeue@<op>,
 * with no CANN event): a launch node of no length on the queue thread,
 * after the thread's last launch and the Dequeue@<op> work since, and
 * after the operator's enqueue where the path holds it (its torch_to_npu
 * launch on the operator's thread): enqueue -> dequeue -> launch ->
 * task, as where CANN's call is recorded (on_call). */
static enum pr_status
on_qlaunch(struct pr_cp_ctx *c, const struct pr_queue_launch *q)
{
    struct thr *h = thread_of(c, q->pid, q->tid);
    struct pr_cp_node *n;
    uint32_t idx, other;
    size_t enq;

    if (h == NULL || !account(c, h, q->ts_ns))
        return nomem(c);
    n = add_node(c, PR_CP_N_HOST, &idx);
    if (n == NULL)
        return nomem(c);
    n->ev = open_dequeue(c, h);
    n->name = n->ev != PR_CP_NONE ? c->t->events[n->ev].name : PR_STR_NONE;
    n->kind = PR_CP_LAUNCH;
    n->s = n->e = q->ts_ns;
    other = handoff(c, h, q->ts_ns);
    enq = pr_idmap_get(&c->corr, q->corr);
    if (enq != PR_NONE && c->g.v[enq].e <= q->ts_ns &&
        c->g.v[enq].e >= c->g.v[other].e)
        other = (uint32_t)enq;
    if (chain_call(c, h, idx, other, q->ts_ns) != PR_OK)
        return PR_E_NOMEM;
    h->last_launch = idx;
    if (pr_idmap_put(&c->qcorr, q->corr, idx, c->err) != PR_OK)
        return PR_E_NOMEM;
    return PR_OK;
}

/* The step's task-queue launches of on_qlaunch before time ts (all of
 * the step's where ts is INT64_MAX). */
static enum pr_status
qlaunches_to(struct pr_cp_ctx *c, int64_t ts)
{
    for (; c->qlt_next < c->n_qlt && c->qlt[c->qlt_next].ts_ns <= ts &&
           c->qlt[c->qlt_next].ts_ns < c->g.we;
         c->qlt_next++) {
        enum pr_status st;

        if (c->qlt[c->qlt_next].ts_ns < c->g.ws)
            continue;
        st = on_qlaunch(c, &c->qlt[c->qlt_next]);
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

/* A task's family: the kernel table's (data/kernels.json, issue #28),
 * the same the kernels table shows; unknown where no rule names it. */
static enum pr_cp_family
family(struct pr_cp_ctx *c, uint32_t name)
{
    struct pr_kclass k;

    if (!pr_names_rule(&c->names, name, &k))
        return PR_CP_FAM_UNKNOWN;
    switch (k.family) {
    case PR_KF_GEMM:
        return PR_CP_FAM_GEMM;
    case PR_KF_CONV:
        return PR_CP_FAM_CONV;
    case PR_KF_ATTENTION:
        return PR_CP_FAM_ATTENTION;
    case PR_KF_COLLECTIVE:
        return PR_CP_FAM_COLLECTIVE;
    case PR_KF_COPY:
        return PR_CP_FAM_COPY;
    case PR_KF_ELEMENTWISE:
        return PR_CP_FAM_ELEMENTWISE;
    case PR_KF_REDUCTION:
        return PR_CP_FAM_REDUCTION;
    case PR_KF_NORM:
        return PR_CP_FAM_NORM;
    case PR_KF_EMBEDDING:
        return PR_CP_FAM_EMBEDDING;
    case PR_KF_OTHER:
        return PR_CP_FAM_OTHER;
    default:
        return PR_CP_FAM_UNKNOWN;
    }
}

/* Whether an Ascend device runs its streams one task at a time with
 * nothing recording why: one device, tasks on several streams, no two of
 * them on different streams overlapping (by more than the µs rounding)
 * and no wait record of either side (stream waits, EVENT_WAIT, syncs).  A
 * graph-mode run (MindSpore's legacy Ascend export: GatherV2 on stream
 * 531, UnsortedSegmentSum on 541, one after the other) orders its
 * streams by edges the trace does not hold; taken as separate streams,
 * the work of the others reads as idle on the path. */
/* Whether the trace records a runtime or driver call with its duration. */
static int
timed_calls(const struct pr_trace *t)
{
    size_t i;

    for (i = 0; i < t->n_events; i++)
        if (pr_tree_is_launcher(t->events[i].kind) && t->events[i].dur_ns > 0)
            return 1;
    return 0;
}

static int
serial_device(const struct pr_trace *t)
{
    uint32_t pid = PR_STR_NONE, tid = PR_STR_NONE, end_tid = PR_STR_NONE;
    int64_t end = INT64_MIN;
    int streams = 0;
    size_t i;

    /* a CUDA trace records its stream waits as runtime calls
       (cudaStreamWaitEvent), which this test does not read: NPU only */
    if (!pr_trace_is_npu(t))
        return 0;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_SYNC || e->kind == PR_KIND_DEVICE_SYNC)
            return 0;
        if (!is_device(e->kind))
            continue;
        if (pid == PR_STR_NONE)
            pid = pr_event_pid(t, e);
        else if (pr_event_pid(t, e) != pid)
            return 0;
        if (tid != pr_event_tid(t, e)) {
            streams |= tid != PR_STR_NONE;
            tid = pr_event_tid(t, e);
        }
        if (end_tid != PR_STR_NONE && end_tid != tid && e->ts_ns < end - 1000)
            return 0;
        if (ev_end(e) > end) {
            end = ev_end(e);
            end_tid = tid;
        }
    }
    return streams;
}

static enum pr_cp_kind
task_kind(struct pr_cp_ctx *c, const struct pr_event *e)
{
    struct pr_gpu_info gb;
    const struct pr_gpu_info *gi;

    if (e->kind == PR_KIND_COPY || e->kind == PR_KIND_SET)
        return PR_CP_COPY;
    if (pr_comm_kernel_cached(&c->names, e))
        return PR_CP_COMM;
    gi = pr_trace_gpu(c->t, e, &gb);
    if (gi != NULL && gi->unit == PR_UNIT_COMM)
        return PR_CP_COMM;
    return PR_CP_KERNEL;
}

/* The stream's carried node, made on its first task of the step. */
static uint32_t
carry_node(struct pr_cp_ctx *c, struct strm *s, int *fail)
{
    const struct pr_event *ce;
    struct pr_cp_node *n;
    uint32_t idx;

    if (s->carry_end <= c->g.ws || s->carry_ev == PR_CP_NONE)
        return PR_CP_NONE;
    n = add_node(c, PR_CP_N_CARRY, &idx);
    if (n == NULL) {
        *fail = 1;
        return PR_CP_NONE;
    }
    ce = &c->t->events[s->carry_ev];
    n->ev = s->carry_ev;
    n->name = ce->name;
    n->kind = (uint8_t)task_kind(c, ce);
    n->fam = (uint8_t)family(c, ce->name);
    n->s = c->g.ws;
    n->e = s->carry_end;
    n->dur = n->e - n->s;
    return idx;
}

static enum pr_status
on_task(struct pr_cp_ctx *c, uint32_t ev)
{
    const struct pr_trace *t = c->t;
    const struct pr_event *e = &t->events[ev];
    struct strm *s = stream_of(c, pr_event_pid(t, e), pr_event_tid(t, e));
    int64_t corr = pr_event_correlation(t, e);
    size_t launch = corr != PR_NO_ID ? pr_idmap_get(&c->corr, corr) : PR_NONE;
    size_t queued = corr != PR_NO_ID ? pr_idmap_get(&c->qcorr, corr) : PR_NONE;
    uint32_t op_ev = launch != PR_NONE ? c->g.v[launch].op_ev : PR_CP_NONE;
    struct pr_cp_node *n;
    uint32_t idx, prev;
    int fail = 0;

    /* a task queue between the operator and the launch: the task waits
       for the queue thread's launch call, which came after the enqueue
       (the operator stays the one that enqueued it) */
    int64_t enq_s = INT64_MIN;

    if (queued != PR_NONE && queued != launch &&
        (launch == PR_NONE || c->g.v[queued].s >= c->g.v[launch].s)) {
        enq_s = launch != PR_NONE ? c->g.v[launch].s : INT64_MIN;
        launch = queued;
    }

    if (s == NULL)
        return nomem(c);
    prev = s->last != PR_CP_NONE ? s->last : carry_node(c, s, &fail);
    if (fail)
        return nomem(c);
    n = add_node(c, PR_CP_N_TASK, &idx);
    if (n == NULL)
        return nomem(c);
    n->ev = ev;
    n->name = e->name;
    n->kind = (uint8_t)task_kind(c, e);
    n->fam = (uint8_t)family(c, e->name);
    n->s = e->ts_ns;
    n->e = ev_end(e);
    n->dur = e->dur_ns;
    n->enq_s = enq_s;
    if (s->wait_at != INT64_MIN &&
        (prev == PR_CP_NONE || s->wait_at >= c->g.v[prev].s)) {
        n->after_wait = (uint8_t)(s->wait_notify ? 2 : 1);
        s->wait_at = INT64_MIN;
    }
    if (prev != PR_CP_NONE) {
        /* µs-rounded times can make a task start before the one before
           it on its stream ended: keep that overlap, not a delay */
        int64_t lap = n->s - c->g.v[prev].e;

        add_pred(n, prev, lap < 0 ? lap : 0, 0, PR_CP_IDLE, PR_STR_NONE);
    }
    if (launch != PR_NONE && c->g.v[launch].s <= n->s) {
        /* a compile call's task waits for the compilation (review-2
           finding 4), not for a launch */
        add_pred(n, (uint32_t)launch, 0, 1,
                 c->g.v[launch].kind == PR_CP_COMPILE ? PR_CP_COMPILE
                                                      : PR_CP_LAUNCH,
                 PR_STR_NONE);
        n->op_ev = op_ev != PR_CP_NONE ? op_ev : c->g.v[launch].op_ev;
        if (c->g.v[launch].corr_task == PR_CP_NONE)
            c->g.v[launch].corr_task = idx;
    }
    if (c->serial && c->serial_last != PR_CP_NONE && c->serial_last != prev) {
        int64_t lap = n->s - c->g.v[c->serial_last].e;

        add_pred(n, c->serial_last, lap < 0 ? lap : 0, 0, PR_CP_IDLE,
                 PR_STR_NONE);
    }
    if (n->n_pred == 0)
        add_pred(n, 0, 0, 0, PR_CP_IDLE, PR_STR_NONE);
    if (launch == PR_NONE && c->capture &&
        (c->unlaunched == PR_CP_NONE || n->e > c->g.v[c->unlaunched].e))
        c->unlaunched = idx;
    s->last = idx;
    c->serial_last = idx;
    return PR_OK;
}

/* A device-side record of a stream wait names the stream that waits. */
static void
on_sync_record(struct pr_cp_ctx *c, uint32_t ev)
{
    const struct pr_trace *t = c->t;
    const struct pr_event *e = &t->events[ev];
    int64_t corr = pr_event_correlation(t, e);
    const char *nm = pr_trace_str(t, e->name);
    size_t i;

    if (has(nm, "Wait") || has(nm, "WAIT")) {
        /* a stream that waits: the task after it waited for something */
        struct strm *s = stream_of(c, pr_event_pid(t, e), pr_event_tid(t, e));

        if (s != NULL) {
            s->wait_at = e->ts_ns;
            s->wait_notify = (uint8_t)(notify_name(nm) != 0);
        }
    }
    if (corr == PR_NO_ID || !(has(nm, "Wait")))
        return;
    for (i = c->n_waits; i-- > 0;) {
        if (c->waits[i].corr == corr) {
            c->waits[i].spid = pr_event_pid(t, e);
            c->waits[i].stid = pr_event_tid(t, e);
            c->waits[i].have_stream = 1;
            return;
        }
    }
}

/* The events of [ws, we) into the graph, in time order. */
static enum pr_status
sweep(struct pr_cp_ctx *c)
{
    const struct pr_trace *t = c->t;
    size_t i;
    enum pr_status qst;

    if (!ql_make(c))
        return nomem(c);
    /* the step's first task-queue launch (they are by time) */
    while (c->qlt_next > 0 && c->qlt[c->qlt_next - 1].ts_ns >= c->g.ws)
        c->qlt_next--;
    for (i = c->cursor; i < t->n_events && t->events[i].ts_ns < c->g.we; i++) {
        const struct pr_event *e = &t->events[i];
        enum pr_status st = PR_OK;

        /* a launch at a task's start is before it; a Dequeue@<op> that
           starts then, after (it holds no launch of its own yet) */
        if (c->n_qlt > 0 &&
            (st = qlaunches_to(c, is_device(e->kind) ? e->ts_ns
                                                     : e->ts_ns - 1)) != PR_OK)
            return st;

        if (!is_host_range(e->kind) && !pr_tree_is_launcher(e->kind) &&
            e->name != PR_STR_NONE && notify_name(pr_trace_str(t, e->name))) {
            /* an HCCL task of a collective (the peer waits it records) */
            if (!grow((void **)&c->notify, &c->cap_notify, c->n_notify + 1,
                      sizeof(*c->notify)))
                return nomem(c);
            c->notify[c->n_notify++] = e->ts_ns;
            if (wait_name(pr_trace_str(t, e->name))) {
                if (!grow((void **)&c->nwait, &c->cap_nwait, c->n_nwait + 1,
                          sizeof(*c->nwait)))
                    return nomem(c);
                c->nwait[c->n_nwait].s = e->ts_ns;
                c->nwait[c->n_nwait].e = ev_end(e);
                c->nwait[c->n_nwait].i = (uint32_t)i;
                c->n_nwait++;
            }
        }
        if (is_host_range(e->kind) || is_dequeue(t, e)) {
            struct thr *h =
                thread_of(c, pr_event_pid(t, e), pr_event_tid(t, e));

            if (h == NULL || !push_op(c, h, (uint32_t)i) ||
                (is_dequeue(t, e) && !name_queue_gap(c, h, e)))
                return nomem(c);
        } else if (pr_tree_is_launcher(e->kind)) {
            st = on_call(c, (uint32_t)i);
        } else if (is_device(e->kind)) {
            if (!bookkeeping(t, e))
                st = on_task(c, (uint32_t)i);
        } else if (e->kind == PR_KIND_SYNC || e->kind == PR_KIND_DEVICE_SYNC) {
            /* a host's stream-wait record or a device's own wait */
            on_sync_record(c, (uint32_t)i);
        }
        if (st != PR_OK)
            return st;
    }
    qst = c->n_qlt > 0 ? qlaunches_to(c, INT64_MAX) : PR_OK;
    return qst;
}

static int
cmp_byend(const void *a, const void *b)
{
    const struct byend *x = a, *y = b;

    if (x->e != y->e)
        return x->e < y->e ? -1 : 1;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    return x->i < y->i ? -1 : (x->i > y->i);
}

/* A device's clock read against its host's: msprof converts the
 * device's task times to host time, and CANN 8's exports end a task a
 * little after the host call that waited for it returned (hunt31 #2:
 * main_kernel ends 155 us after its aclrtSynchronizeDeviceWithTimeout
 * returns, and 46 us after in another export, each the only task
 * running then).  A device-wide sync (aclrtSynchronizeDevice*,
 * cudaDeviceSynchronize) returns only when every task launched before it
 * has ended, so a task launched before it and running at its end, ending
 * at most this much later, is what it waited for.  A stream's sync or a
 * blocking copy waits for its own stream only: a task of another stream
 * may run past it (HTA's trace_diff control, NCCL kernels past a
 * cudaMemcpy), so they take no such task. */
#define SYNC_SKEW_NS 1000000

/* The task a blocking call waited for: of the work launched before it,
 * the last to end while it blocked (or, for a device-wide sync, `wide`,
 * running at its end and ending within SYNC_SKEW_NS of it).  PR_CP_NONE
 * when none ended then. */
static uint32_t
waited_for(const struct pr_cp_graph *g, const struct byend *tasks, size_t n,
           const struct pr_cp_node *call, int wide)
{
    size_t lo, k, walked = 0;
    uint32_t late = PR_CP_NONE;

    /* first with e > call->e (+ SYNC_SKEW_NS) */
    lo = ended_by(tasks, n,
                  wide ? pr_sat_add_i64(call->e, SYNC_SKEW_NS) : call->e);
    for (k = lo; k-- > 0 && walked < 4096; walked++) {
        const struct pr_cp_node *x = &g->v[tasks[k].i];
        int launched_before = 1;
        int j;

        if (x->e <= call->s)
            break;
        if (x->e > call->e && (x->s >= call->e || late != PR_CP_NONE))
            continue; /* not running at the call's end, or one found */
        for (j = 0; j < x->n_pred; j++) {
            /* enqueued before the call: the queue drains into it
               (torch_npu's synchronize waits for its task queue) */
            int64_t at =
                x->enq_s != INT64_MIN && (x->p_kind[j] == PR_CP_LAUNCH ||
                                          x->p_kind[j] == PR_CP_COMPILE)
                    ? x->enq_s
                    : g->v[x->pred[j]].s;

            if (x->p_start[j] && at >= call->s)
                launched_before = 0;
        }
        if (launched_before && x->e > call->e)
            late = tasks[k].i; /* unless one ends inside the call */
        else if (launched_before)
            return tasks[k].i;
    }
    return late;
}

/* A launch call made while this many of its device's launched tasks had
 * not started found the device's launch queue full: CUDA queues about
 * 1024 pending launches (CUDA_SCALE_LAUNCH_QUEUES, CUDA's environment
 * variables, scales that size; llama.cpp #19042: "the CPU-side CUDA
 * command buffer gets full, stalling the CPU"), and a launch into a full
 * queue blocks until a slot frees, when a task ends (review30g #1: HTA's
 * ns_resolution V100 trace, 243 launch calls of over 300 us, each made
 * with 1,020-1,022 tasks pending, end a median 3 us after a task ends).
 * Such a call waits for the device, like a sync, not for the host. */
#define QUEUE_FULL 1000
/* ... and it returned this soon after the task it waited for ended. */
#define QUEUE_SLOT_NS 20000

static int
cmp_qmark(const void *a, const void *b)
{
    const struct qmark *x = a, *y = b;

    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->ts < y->ts ? -1 : (x->ts > y->ts);
}

/* The launches and starts of the trace's launched tasks; 0 short of
 * memory (then no call is read as blocked by a full queue). */
static int
qd_make(struct pr_cp_ctx *c)
{
    const struct pr_trace *t = c->t;
    struct pr_idmap calls;
    size_t i, n = 0;
    int ok = 1;

    if (c->qd_made)
        return c->qd_launch != NULL;
    c->qd_made = 1;
    memset(&calls, 0, sizeof(calls));
    for (i = 0; i < t->n_events && ok; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t corr = pr_event_correlation(t, e);

        if (pr_tree_is_launcher(e->kind) && corr != PR_NO_ID &&
            pr_idmap_get(&calls, corr) == PR_NONE)
            ok = pr_idmap_put(&calls, corr, i, c->err) == PR_OK;
        else if (is_device(e->kind) && corr != PR_NO_ID)
            n++;
    }
    if (ok) {
        c->qd_launch = malloc((n ? n : 1) * sizeof(*c->qd_launch));
        c->qd_start = malloc((n ? n : 1) * sizeof(*c->qd_start));
        ok = c->qd_launch != NULL && c->qd_start != NULL;
    }
    for (i = 0; i < t->n_events && ok; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t corr = pr_event_correlation(t, e);
        size_t l;

        if (!is_device(e->kind) || corr == PR_NO_ID)
            continue;
        l = pr_idmap_get(&calls, corr);
        if (l == PR_NONE || t->events[l].ts_ns >= e->ts_ns)
            continue;
        c->qd_launch[c->n_qd].pid = c->qd_start[c->n_qd].pid =
            pr_event_pid(t, e);
        c->qd_launch[c->n_qd].ts = t->events[l].ts_ns;
        c->qd_start[c->n_qd].ts = e->ts_ns;
        c->n_qd++;
        if (pr_idmap_get(&c->qd_dev, corr) == PR_NONE)
            ok = pr_idmap_put(&c->qd_dev, corr, pr_event_pid(t, e), c->err) ==
                 PR_OK;
    }
    pr_idmap_free(&calls);
    if (!ok) {
        free(c->qd_launch);
        free(c->qd_start);
        c->qd_launch = c->qd_start = NULL;
        c->n_qd = 0;
        return 0;
    }
    qsort(c->qd_launch, c->n_qd, sizeof(*c->qd_launch), cmp_qmark);
    qsort(c->qd_start, c->n_qd, sizeof(*c->qd_start), cmp_qmark);
    return 1;
}

/* Marks of device pid before ts (at ts too with at 1). */
static size_t
qd_before(const struct qmark *v, size_t n, uint32_t pid, int64_t ts, int at)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (v[mid].pid < pid ||
            (v[mid].pid == pid && (v[mid].ts < ts || (at && v[mid].ts == ts))))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether launch call x was made into a full launch queue: its device's
 * tasks launched before it and not started then (HTA's queue length). */
static int
queue_full(struct pr_cp_ctx *c, const struct pr_cp_node *x)
{
    int64_t corr;
    size_t dev, launched, started;

    if (x->type != PR_CP_N_HOST || x->kind != PR_CP_LAUNCH ||
        x->ev == PR_CP_NONE ||
        (corr = pr_event_correlation(c->t, &c->t->events[x->ev])) == PR_NO_ID ||
        !qd_make(c) || (dev = pr_idmap_get(&c->qd_dev, corr)) == PR_NONE)
        return 0;
    launched = qd_before(c->qd_launch, c->n_qd, (uint32_t)dev, x->s, 0) -
               qd_before(c->qd_launch, c->n_qd, (uint32_t)dev, INT64_MIN, 0);
    started = qd_before(c->qd_start, c->n_qd, (uint32_t)dev, x->s, 1) -
              qd_before(c->qd_start, c->n_qd, (uint32_t)dev, INT64_MIN, 0);
    return launched >= started + QUEUE_FULL;
}

/* A stream-wait call no device record links to a stream (ROCm's traces
 * record hipStreamWaitEvent on the host only, no device-side wait): the
 * thread's next launch call, with no launch between, is marked (late 3),
 * so a long wait of its task is not said to have no recorded cause. */
static void
mark_unlinked(struct pr_cp_ctx *c, uint32_t call)
{
    struct pr_cp_graph *g = &c->g;
    const struct pr_event *ce;
    uint32_t best = PR_CP_NONE;
    size_t i;

    if (call == PR_CP_NONE || g->v[call].ev == PR_CP_NONE)
        return;
    ce = &c->t->events[g->v[call].ev];
    for (i = 0; i < g->n; i++) {
        const struct pr_cp_node *x = &g->v[i];
        const struct pr_event *e;
        const char *nm;

        if (x->type != PR_CP_N_HOST || x->ev == PR_CP_NONE ||
            x->s < g->v[call].e || (best != PR_CP_NONE && x->s >= g->v[best].s))
            continue;
        e = &c->t->events[x->ev];
        nm = pr_trace_str(c->t, e->name);
        if (pr_event_pid(c->t, e) != pr_event_pid(c->t, ce) ||
            pr_event_tid(c->t, e) != pr_event_tid(c->t, ce) ||
            !is_launch_name(nm))
            continue;
        best = (uint32_t)i;
    }
    if (best != PR_CP_NONE && g->v[best].late == 0)
        g->v[best].late = 3;
}

/* Stream waits: the first task launched on the waiting stream after the
 * wait call waits for the task of the launch before the event record. */
static void
resolve_waits(struct pr_cp_ctx *c)
{
    struct pr_cp_graph *g = &c->g;
    size_t i, k;

    for (k = 0; k < c->n_waits; k++) {
        const struct swait *w = &c->waits[k];
        uint32_t sig;

        if (!w->have_stream)
            mark_unlinked(c, w->call);
        if (!w->have_stream || w->signal == PR_CP_NONE)
            continue;
        sig = g->v[w->signal].corr_task;
        if (sig == PR_CP_NONE)
            continue;
        for (i = 0; i < g->n; i++) {
            struct pr_cp_node *x = &g->v[i];
            const struct pr_event *e;
            int j, launched_after = 0;

            if (x->type != PR_CP_N_TASK || x->s < g->v[w->call].s)
                continue;
            e = &c->t->events[x->ev];
            if (pr_event_pid(c->t, e) != w->spid ||
                pr_event_tid(c->t, e) != w->stid)
                continue;
            for (j = 0; j < x->n_pred; j++) {
                if (x->p_start[j] && g->v[x->pred[j]].s > g->v[w->call].s)
                    launched_after = 1;
            }
            if (!launched_after)
                continue;
            if (g->v[sig].e <= x->s && i != sig)
                add_pred(x, sig, 0, 0, PR_CP_STREAM_WAIT, PR_STR_NONE);
            break;
        }
    }
}

/* A task's latest predecessor point (measured) and the edge it is. */
static int64_t
ready_of(const struct pr_cp_graph *g, const struct pr_cp_node *n, int *bind)
{
    int64_t ready = INT64_MIN;
    int j;

    *bind = -1;
    for (j = 0; j < n->n_pred; j++) {
        const struct pr_cp_node *p = &g->v[n->pred[j]];
        int64_t at = pr_sat_add_i64(n->p_start[j] ? p->s : p->e, n->pw[j]);

        if (at > ready) {
            ready = at;
            *bind = j;
        }
    }
    return ready;
}

static int
named(const struct pr_cp_ctx *c, const struct pr_cp_node *n, const char *sub)
{
    return n->name != PR_STR_NONE && has(pr_trace_str(c->t, n->name), sub);
}

static int
named_notify(const struct pr_cp_ctx *c, const struct pr_cp_node *n)
{
    return n->name != PR_STR_NONE && notify_name(pr_trace_str(c->t, n->name));
}

/* What a task's unexplained wait was, by the edge that came last: after
 * its launch, a launch delay; after a collective or a wait for peers
 * (Ascend's Notify Wait), communication (NCCL counts that wait inside
 * its kernels); after a wait task (EVENT_WAIT) or a stream wait, a
 * stream wait (the device's, not the host's: issue #29); else idle.  A
 * collective's own wait before it starts is not communication: it waits for
 * peers inside its kernel (NCCL) or in its Notify Wait tasks (HCCL), so before
 * it starts it can only wait for its launch or a stream event (review 6 finding
 * 1: HTA's trace_diff/test showed 23 ms of a step's stream-7 embedding forward
 * as "collective wait"). */
/* Whether the step records a Notify task (HCCL's Notify Wait or Notify
 * Record) inside n's span: n's export records its tasks. */
static int
own_notify(const struct pr_cp_ctx *c, const struct pr_cp_node *n)
{
    size_t lo = 0, hi = c->n_notify;

    while (lo < hi) { /* the first at n->s or later */
        size_t mid = lo + (hi - lo) / 2;

        if (c->notify[mid] < n->s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->n_notify && c->notify[lo] <= n->e;
}

/* Whether n is a collective that waits for its peers inside its own
 * span, so that nothing before its start is a wait for a peer: NCCL's
 * and RCCL's kernels (ncclKernel_* / ncclDevKernel_*) wait inside the
 * kernel; an HCCL operator waits in Notify Wait tasks of its own
 * (CANN's task types; torch_npu's trace_view draws them on "Ascend
 * Hardware" and HCCL's planes, inside the operator).  Where the export
 * records those tasks inside the operator, its gap before it starts is
 * no peer wait either (torch_npu/text_level1: hcom_allReduce__586_0_1's
 * Notify Wait tasks wait 78.8 ms of its 79.1 ms inside it).  An
 * operator-level export (kernel_details.csv of torch_npu 2023, an
 * op_summary, MindSpore's step trace) records none: what the gap before
 * such an operator waited for is not in the trace (w_coll). */
static int
peers_inside(const struct pr_cp_ctx *c, const struct pr_cp_node *n)
{
    return n->kind == PR_CP_COMM && (named(c, n, "nccl") || own_notify(c, n));
}

static enum pr_cp_kind
wait_kind(const struct pr_cp_ctx *c, const struct pr_cp_node *n, int b)
{
    const struct pr_cp_node *p;

    if (b < 0)
        return PR_CP_IDLE;
    if (n->p_kind[b] != PR_CP_IDLE)
        return (enum pr_cp_kind)n->p_kind[b];
    p = &c->g.v[n->pred[b]];
    if ((n->kind == PR_CP_COMM && !peers_inside(c, n)) ||
        (n->kind != PR_CP_COMM && p->kind == PR_CP_COMM) ||
        named_notify(c, p) || n->after_wait == 2)
        return PR_CP_COMM;
    if (n->after_wait)
        return PR_CP_STREAM_WAIT;
    return named(c, p, "Wait") || named(c, p, "WAIT") ? PR_CP_STREAM_WAIT
                                                      : PR_CP_IDLE;
}

/* Each task's wait that its edges do not explain (measured). */
static void
residual_waits(struct pr_cp_ctx *c)
{
    struct pr_cp_graph *g = &c->g;
    size_t i;

    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];
        int b;
        int64_t ready;

        if (n->type != PR_CP_N_TASK)
            continue;
        ready = ready_of(g, n, &b);
        n->w = b >= 0 && n->s > ready ? n->s - ready : 0;
        n->w_kind = (uint8_t)wait_kind(c, n, b);
        n->w_coll =
            (uint8_t)(n->w_kind == PR_CP_COMM && n->p_kind[b] == PR_CP_IDLE &&
                      n->kind == PR_CP_COMM && !peers_inside(c, n) &&
                      n->after_wait != 2 &&
                      !named_notify(c, &c->g.v[n->pred[b]]));
    }
}

static int
cmp_span(const void *a, const void *b)
{
    const struct byend *x = a, *y = b;

    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    return x->e < y->e ? -1 : (x->e > y->e);
}

/* Whether host node v is a span compile_waits counts: a compile call
 * (aclop == 0), or an aclop execution call (aclop == 1). */
static int
wait_span(const struct pr_cp_ctx *c, const struct pr_cp_node *v, int aclop)
{
    if (is_task_node(v))
        return 0;
    if (!aclop)
        return v->kind == PR_CP_COMPILE;
    return v->type == PR_CP_N_HOST && v->ev != PR_CP_NONE &&
           pr_cp_is_aclop(pr_trace_str(c->t, c->t->events[v->ev].name));
}

/* The part of each idle wait that falls inside an operator compilation
 * call (CANN's aclop path compiles on the host, and the device waits):
 * that time has a recorded cause, the compilation, not none (review-2
 * finding 4: torch_npu_ascend_profiler_output's path read "device idle,
 * no recorded cause" 6.1 ms beside 11 compile calls of 6.6 ms).  With
 * aclop == 1, the part inside an aclopCompileAndExecute / aclopExecute
 * call, the host's aclop execution path (review-5 finding 2: those calls
 * compile for 6-28 us each, a cache hit; the rest of them is the path's
 * host work, during which the device waits): w_aclop, named by the call.
 * The calls are merged into disjoint spans first, so a wait inside two
 * overlapping calls counts once. */
static enum pr_status
waits_inside(struct pr_cp_ctx *c, int aclop)
{
    struct pr_cp_graph *g = &c->g;
    struct byend *sp;
    size_t i, n = 0, m = 0;

    for (i = 0; i < g->n; i++)
        n += wait_span(c, &g->v[i], aclop);
    if (n == 0)
        return PR_OK;
    sp = malloc(n * sizeof(*sp));
    if (sp == NULL)
        return nomem(c);
    for (i = 0, n = 0; i < g->n; i++) {
        if (wait_span(c, &g->v[i], aclop)) {
            sp[n].s = g->v[i].s;
            sp[n].e = g->v[i].e;
            sp[n].i = (uint32_t)i;
            n++;
        }
    }
    qsort(sp, n, sizeof(*sp), cmp_span);
    for (i = 0; i < n; i++) { /* merge */
        if (m > 0 && sp[i].s <= sp[m - 1].e) {
            if (sp[i].e > sp[m - 1].e)
                sp[m - 1].e = sp[i].e;
        } else {
            sp[m++] = sp[i];
        }
    }
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *q = &g->v[i];
        size_t lo = 0, hi = m, k;
        int64_t a = q->s - q->w, cut = 0, left, in_compile = 0;
        uint32_t name = PR_STR_NONE;

        /* a late start (late_starts) did not wait for the host at all */
        if (q->type != PR_CP_N_TASK || q->w_kind != PR_CP_IDLE || q->w <= 0 ||
            q->late)
            continue;
        while (lo < hi) { /* first span ending after the wait starts */
            size_t mid = lo + (hi - lo) / 2;

            if (sp[mid].e <= a)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (k = lo; k < m && sp[k].s < q->s; k++) {
            const struct pr_cp_node *v = &g->v[sp[k].i];
            int64_t a0 = sp[k].s > a ? sp[k].s : a;
            int64_t b0 = sp[k].e < q->s ? sp[k].e : q->s;
            int64_t c0 = v->compile_s > a0 ? v->compile_s : a0;
            int64_t c1 = v->compile_e < b0 ? v->compile_e : b0;

            cut += b0 > a0 ? b0 - a0 : 0;
            /* the wait during the call's own opCompile step compiles */
            if (aclop && v->dur_compile > 0 && c1 > c0)
                in_compile += c1 - c0;
            if (b0 > a0 && name == PR_STR_NONE)
                name = v->name;
        }
        if (!aclop) {
            q->w_compile = cut < q->w ? cut : q->w;
        } else {
            left = q->w - q->w_compile;
            in_compile = in_compile < left ? in_compile : left;
            q->w_compile += in_compile;
            left -= in_compile;
            cut -= in_compile;
            q->w_aclop = cut < left ? cut : left;
            q->name_aclop = name;
        }
    }
    free(sp);
    return PR_OK;
}

static enum pr_status
compile_waits(struct pr_cp_ctx *c)
{
    size_t i;
    enum pr_status st;

    for (i = 0; i < c->g.n; i++) {
        c->g.v[i].w_compile = 0;
        c->g.v[i].w_aclop = 0;
        c->g.v[i].name_aclop = PR_STR_NONE;
    }
    st = waits_inside(c, 0);
    return st == PR_OK ? waits_inside(c, 1) : st;
}

/* A task that waited this long after its launch, while its stream was
 * free, and started within COINCIDE_NS of the end of a task on another
 * stream of its device, waited for that task: a cudaStreamWaitEvent whose
 * cudaEventRecord Kineto did not record (review-3 finding 2, HTA's
 * trace_diff/control: kernels launched after a stream wait start 1 us
 * after the embedding all-to-all's ncclKernel_SendRecv ends, 1-10 ms after
 * their launch), or the SMs that task held.  Launch latency itself is a
 * few microseconds (that trace: median 2 us, p90 3 us).  A task idle that
 * long after its stream's previous task (no launch to wait for: a CUDA
 * graph's kernel, or one queued long before) is taken for such a wait only
 * on a collective that ended within COINCIDE_NS before it (review 5
 * finding 5, HTA's trace_diff/test: 7.4 ms a step of stream-7 gaps end
 * within 20 us of an ncclKernel_SendRecv on stream 15, and read "idle, no
 * recorded cause"). */
#define COINCIDE_MIN_WAIT_NS 50000
#define COINCIDE_NS 20000
/* A task that waited so after its launch on a free stream, while a kernel
 * on another stream of its device ran from (COINCIDE_NS after) the moment
 * it could start until it started, and that started as that kernel's
 * last blocks drained (at most HELD_TAIL_NS before its end), waited for
 * the SMs that kernel held (HTA's trace_diff/control: fbgemm permute and
 * cub scan kernels on stream 20 wait 240 us to 5.1 ms after their launch
 * and start 0-94 us before split_embedding_backward or a cutlass GEMM on
 * stream 7 ends, as its last wave drains).  No event the trace records
 * explains them: they start before the kernel ends, so an event recorded
 * after it cannot be what they waited for. */
#define HELD_TAIL_NS 100000
/* An HCCL operator whose tasks the trace holds starts after its streams'
 * own first tasks, which the path does not hold as tasks: on msprof's
 * CANN 6 export (mindinsight_cann6) stream 13's EVENT_WAIT and
 * REDUCE_ASYNC_V2 take the 40.5 us between the backward's last task on
 * stream 2 (AssignAdd-op105, after its EVENT_RECORD) and
 * AllReduce-op534_0's start.  Such an operator waited for a task on
 * another stream that ended up to this long before it (review 7 #8). */
#define HCCL_HANDOFF_NS 100000

/* The kernel on another stream of n's device that held the device while
 * n waited (HELD_TAIL_NS), by tasks sorted by end; PR_CP_NONE when none. */
static uint32_t
held_by(const struct pr_cp_ctx *c, const struct byend *tasks, size_t nt,
        const struct pr_cp_node *n, int64_t ready)
{
    const struct pr_cp_graph *g = &c->g;
    const struct pr_event *e = &c->t->events[n->ev];
    size_t lo, k;
    uint32_t best = PR_CP_NONE;

    /* first ending at n->s - COINCIDE_NS or later */
    lo = ended_by(tasks, nt, n->s - COINCIDE_NS - 1);
    for (k = lo; k < nt && tasks[k].e <= n->s + HELD_TAIL_NS; k++) {
        const struct pr_cp_node *x = &g->v[tasks[k].i];
        const struct pr_event *xe;

        if (x->ev == PR_CP_NONE || x->type != PR_CP_N_TASK ||
            x->kind != PR_CP_KERNEL || x->s > ready + COINCIDE_NS ||
            tasks[k].i == (uint32_t)(n - g->v))
            continue;
        xe = &c->t->events[x->ev];
        if (pr_event_pid(c->t, xe) != pr_event_pid(c->t, e) ||
            pr_event_tid(c->t, xe) == pr_event_tid(c->t, e))
            continue;
        if (best == PR_CP_NONE || x->s < g->v[best].s)
            best = tasks[k].i;
    }
    return best;
}

/* The stream before a task ran a wait task (EVENT_WAIT, Stream Wait
 * Event) whose cause the trace does not link: the task waited for work
 * on another stream of its device.  Take the one that ended last before
 * it started (after what its own edges explain) as that cause.  A long
 * wait after a launch is taken for one only where such a task ended just
 * before it started (COINCIDE_NS). */
static void
infer_stream_waits(struct pr_cp_ctx *c, const struct byend *tasks, size_t nt)
{
    struct pr_cp_graph *g = &c->g;
    size_t i;

    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];
        const struct pr_event *e;
        int b;
        int64_t ready;
        size_t lo, k, walked = 0;

        int after_launch, after_idle, hccl_tasks;

        if (n->type != PR_CP_N_TASK || n->w <= 0 || n->n_pred >= PR_CP_MAX_PRED)
            continue;
        after_launch =
            n->w_kind == PR_CP_LAUNCH && n->w >= COINCIDE_MIN_WAIT_NS;
        /* idle after its stream's previous task (a graph's kernel, or one
           launched long before): only a collective's end explains it, or,
           for a collective, any task's end (its producer's event) */
        after_idle = n->w_kind == PR_CP_IDLE && n->w >= COINCIDE_MIN_WAIT_NS;
        if (n->w_kind != PR_CP_STREAM_WAIT && !after_launch && !after_idle)
            continue;
        ready = ready_of(g, n, &b);
        e = &c->t->events[n->ev];
        /* an HCCL operator whose tasks the trace holds: on its group's
           row of a process of its own (torch_npu's "HCCL"), while the
           tasks it may wait for are on "Ascend Hardware" */
        hccl_tasks = after_idle && n->kind == PR_CP_COMM &&
                     !named(c, n, "nccl") && own_notify(c, n);
        lo = ended_by(tasks, nt, n->s); /* first with e > n->s */
        for (k = lo; k-- > 0 && walked < 256; walked++) {
            const struct pr_cp_node *x = &g->v[tasks[k].i];
            const struct pr_event *xe;

            if (x->e <= ready)
                break;
            if (x->ev == PR_CP_NONE || x->type != PR_CP_N_TASK)
                continue;
            xe = &c->t->events[x->ev];
            /* another stream of its device, or a collective (Ascend
               draws a group's collectives on a row of their own) */
            if (pr_event_tid(c->t, xe) == pr_event_tid(c->t, e) &&
                pr_event_pid(c->t, xe) == pr_event_pid(c->t, e))
                continue;
            if (pr_event_pid(c->t, xe) != pr_event_pid(c->t, e) &&
                x->kind != PR_CP_COMM && !hccl_tasks)
                continue;
            if ((after_launch || after_idle) &&
                x->e < n->s - (hccl_tasks ? HCCL_HANDOFF_NS : COINCIDE_NS))
                break; /* nothing ended just before it: held, or a delay */
            if (after_idle && x->kind != PR_CP_COMM && !peers_inside(c, n))
                continue;
            add_pred(n, tasks[k].i, 0, 0, PR_CP_STREAM_WAIT, PR_STR_NONE);
            n->w = n->s - x->e;
            n->w_kind = PR_CP_STREAM_WAIT;
            break;
        }
        if (after_launch && n->w_kind == PR_CP_LAUNCH &&
            n->n_pred < PR_CP_MAX_PRED) {
            uint32_t h = held_by(c, tasks, nt, n, ready);

            if (h == PR_CP_NONE)
                continue;
            /* from the kernel's end, less the tail it overlapped: the
               path runs through that kernel's time, and the replay
               starts n where it started */
            add_pred(n, h, n->s - g->v[h].e, 0, PR_CP_KERNEL, g->v[h].name);
            n->w = 0;
            n->w_kind = PR_CP_STREAM_WAIT;
        } else if (after_idle && peers_inside(c, n) &&
                   n->w_kind == PR_CP_IDLE && n->n_pred < PR_CP_MAX_PRED) {
            /* a collective idle long, that started as a kernel on another
               stream of its device drained (started before it, ends at
               most HELD_TAIL_NS after it): its event's producer ran just
               before that kernel, and the kernel held the SMs (HTA's
               trace_diff/test: the steady steps' first SendRecv on
               stream 15 starts 121-135 us after stream 7's Memset ends,
               while the sgemm that followed it ends 71 us later) */
            uint32_t h = held_by(c, tasks, nt, n, n->s - COINCIDE_NS);

            if (h == PR_CP_NONE)
                continue;
            add_pred(n, h, n->s - g->v[h].e, 0, PR_CP_KERNEL, g->v[h].name);
            n->w = 0;
            n->w_kind = PR_CP_STREAM_WAIT;
        }
    }
}

/* How long task n waited after its launch call returned: its binding
 * launch edge leaves the call's start, and the call's own time is the
 * host's, not a wait for the device (issue #29 #4: nsys_mock's
 * cudaMemcpyAsync held the host 589.5 us and its copy started 20.4 us
 * after it returned, "610 us after its launch"); n->w where n waits on
 * no launch call. */
static int64_t
after_return(const struct pr_cp_graph *g, const struct pr_cp_node *n)
{
    const struct pr_cp_node *x;
    int b;

    (void)ready_of(g, n, &b);
    if (b < 0 || n->p_kind[b] != PR_CP_LAUNCH || !n->p_start[b])
        return n->w;
    x = &g->v[n->pred[b]];
    if (x->type != PR_CP_N_HOST)
        return n->w;
    return n->s > x->e ? n->s - x->e : 0;
}

/* Whether a host call before task n (a predecessor) carries late mark v
 * (2: after a stream wait on an unrecorded event; 3: after a stream-wait
 * call no device record links to a stream). */
static int
after_late(const struct pr_cp_graph *g, const struct pr_cp_node *n, uint8_t v)
{
    uint8_t j;

    for (j = 0; j < n->n_pred; j++)
        if (g->v[n->pred[j]].type == PR_CP_N_HOST && g->v[n->pred[j]].late == v)
            return 1;
    return 0;
}

/* The time in [from, to) that tasks of other streams of event e's device
 * ran (their union), of the first UNREC_SPANS such tasks. */
#define UNREC_SPANS 256
static int64_t
others_busy(const struct pr_cp_ctx *c, const struct byend *tasks, size_t nt,
            const struct pr_event *e, int64_t from, int64_t to)
{
    const struct pr_cp_graph *g = &c->g;
    struct byend sp[UNREC_SPANS];
    int64_t busy = 0, end = INT64_MIN;
    size_t k, m = 0, walked = 0;

    for (k = ended_by(tasks, nt, from);
         k < nt && walked < 4096 && m < UNREC_SPANS; k++, walked++) {
        const struct pr_cp_node *x = &g->v[tasks[k].i];
        const struct pr_event *xe;

        if (x->s >= to || x->ev == PR_CP_NONE || x->type != PR_CP_N_TASK)
            continue;
        xe = &c->t->events[x->ev];
        if (pr_event_pid(c->t, xe) != pr_event_pid(c->t, e) ||
            pr_event_tid(c->t, xe) == pr_event_tid(c->t, e))
            continue;
        sp[m].s = x->s > from ? x->s : from;
        sp[m].e = x->e < to ? x->e : to;
        sp[m].i = tasks[k].i;
        if (sp[m].e > sp[m].s)
            m++;
    }
    qsort(sp, m, sizeof(sp[0]), cmp_span);
    for (k = 0; k < m; k++) {
        int64_t a = sp[k].s > end ? sp[k].s : end;

        if (sp[k].e > a)
            busy += sp[k].e - a;
        end = sp[k].e > end ? sp[k].e : end;
    }
    return busy;
}

/* A task idle after the task before it on its stream, launched right
 * after its thread's stream-wait call on an event the trace does not
 * record (the launch's late 2: no event record on that thread), while
 * other streams of its device ran half the gap or more: the stream most
 * likely waited for their work, device time, not an idle device (review
 * of issue #28 (1): DeepSeek's H800 trace records 56 cudaStreamWaitEvent
 * and no cudaEventRecord; its path read 6.3 ms of "device idle" in a step
 * whose device is busy 99.2%).  The wait keeps its length; which task it
 * waited for the trace does not say. */
static void
unrec_waits(struct pr_cp_ctx *c, const struct byend *tasks, size_t nt)
{
    struct pr_cp_graph *g = &c->g;
    size_t i;

    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];

        if (n->type != PR_CP_N_TASK || n->w_kind != PR_CP_IDLE ||
            n->w < COINCIDE_MIN_WAIT_NS || n->w_coll || n->late)
            continue;
        /* other streams ran half the gap or more */
        if (2 * others_busy(c, tasks, nt, &c->t->events[n->ev], n->s - n->w,
                            n->s) <
            n->w)
            continue;
        if (after_late(g, n, 2)) {
            n->w_kind = PR_CP_STREAM_WAIT;
            n->wait_unrec = 1;
        } else {
            n->wait_unrec = 2; /* idle, the device busy: named so */
        }
    }
}

/* A task that started PR_CP_LATE_START_NS or more after its launch call
 * returned, on a stream with nothing before it, with no other cause in
 * the trace (infer_stream_waits left it a launch delay), did not wait for
 * the host: the host had issued the work and moved on (it ran later
 * calls, or blocked in a sync or a copy on that device meanwhile), and a
 * launch takes microseconds.  The device was busy with work issued
 * before the window, or waited for an event the trace does not record:
 * idle with no recorded cause, which no launch change shortens (hunt30
 * #1: TraceLens' vLLM and SGLang graph_execution splits on MI300X, whose
 * first tasks start 7.8 to 493 ms after their launches returned while
 * the host sat in hipMemcpyWithStream, read "launches 41-98%" and
 * "capture the launches in a graph"). */
static void
late_starts(struct pr_cp_ctx *c)
{
    struct pr_cp_graph *g = &c->g;
    size_t i;

    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];

        /* a copy from pageable memory starts once the driver has
           staged it through a pinned buffer, the host's work (note_waits
           leaves it out as a known cause) */
        if (n->type == PR_CP_N_TASK && n->w_kind == PR_CP_LAUNCH &&
            after_return(g, n) >= PR_CP_LATE_START_NS &&
            !(n->kind == PR_CP_COPY && n->name != PR_STR_NONE &&
              strstr(pr_trace_str(c->t, n->name), "Pageable") != NULL)) {
            n->w_kind = PR_CP_IDLE;
            n->late = after_late(g, n, 2) ? 2 : after_late(g, n, 3) ? 3 : 1;
        }
    }
}

/* A collective whose export holds none of its tasks (w_coll) waited,
 * after the previous operation of its communicator, for its input: the
 * task of another stream that ended last inside that gap (the gradient
 * it reduces).  It starts after that task, not after the previous
 * collective; the rest of the gap is its own streams' hand-off
 * (HCCL_HANDOFF_NS) or, longer, a wait the trace gives no cause for
 * (idle).  Only a gap in which nothing else ended stays the collective's
 * own wait, communication (docs/critical-path.md).  On
 * kernel_details_910B_v1.csv, hcom_allReduce__935_1 starts 23.3 ms after
 * its communicator's previous operation and 589 us after Add163 on
 * stream 16 ends: 23.3 ms read as communication before (review 22a #5). */
/* The converse: a task idle after its stream's previous one, where the
 * last work of another stream to end in that gap is such a collective,
 * waited for that collective's result (kernel_details_910B_v1.csv:
 * Cast66 on stream 16 starts 261 us after hcom_broadcast__445_1 ends,
 * the stream's previous task 315 ms before; torch_npu's own Wait Time
 * column measures its 261.56 us from that broadcast). */
static void
collective_output(struct pr_cp_ctx *c, const struct byend *tasks, size_t nt,
                  struct pr_cp_node *n)
{
    const struct pr_cp_graph *g = &c->g;
    const struct pr_event *e = &c->t->events[n->ev];
    size_t lo, k, walked = 0;
    int b;
    int64_t ready = ready_of(g, n, &b);

    lo = ended_by(tasks, nt, n->s); /* first with e > n->s */
    for (k = lo; k-- > 0 && walked < 4096; walked++) {
        const struct pr_cp_node *x = &g->v[tasks[k].i];
        const struct pr_event *xe;

        if (x->e <= ready)
            return;
        if (x->ev == PR_CP_NONE || x->type != PR_CP_N_TASK)
            continue;
        xe = &c->t->events[x->ev];
        if (pr_event_tid(c->t, xe) == pr_event_tid(c->t, e) &&
            pr_event_pid(c->t, xe) == pr_event_pid(c->t, e))
            continue;
        if (x->kind != PR_CP_COMM || peers_inside(c, x))
            return; /* other work ended last: not the collective's */
        add_pred(n, tasks[k].i, 0, 0, PR_CP_STREAM_WAIT, PR_STR_NONE);
        n->w = n->s - x->e;
        n->w_kind = n->w <= HCCL_HANDOFF_NS ? PR_CP_STREAM_WAIT : PR_CP_IDLE;
        return;
    }
}

static void
collective_inputs(struct pr_cp_ctx *c, const struct byend *tasks, size_t nt)
{
    struct pr_cp_graph *g = &c->g;
    size_t i;

    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];
        const struct pr_event *e;
        size_t lo, k, walked = 0;
        int b;
        int64_t ready;

        if (n->type != PR_CP_N_TASK || n->w <= 0 || n->n_pred >= PR_CP_MAX_PRED)
            continue;
        if (!n->w_coll) {
            if (n->kind != PR_CP_COMM && n->w_kind == PR_CP_IDLE)
                collective_output(c, tasks, nt, n);
            continue;
        }
        ready = ready_of(g, n, &b);
        e = &c->t->events[n->ev];
        lo = ended_by(tasks, nt, n->s); /* first with e > n->s */
        for (k = lo; k-- > 0 && walked < 4096; walked++) {
            const struct pr_cp_node *x = &g->v[tasks[k].i];
            const struct pr_event *xe;

            if (x->e <= ready)
                break;
            if (x->ev == PR_CP_NONE || x->type != PR_CP_N_TASK ||
                tasks[k].i == i)
                continue;
            xe = &c->t->events[x->ev];
            if (pr_event_tid(c->t, xe) == pr_event_tid(c->t, e) &&
                pr_event_pid(c->t, xe) == pr_event_pid(c->t, e))
                continue;
            if (x->kind == PR_CP_COMM)
                continue; /* another communicator's: not its input */
            add_pred(n, tasks[k].i, 0, 0, PR_CP_STREAM_WAIT, PR_STR_NONE);
            n->w = n->s - x->e;
            n->w_kind =
                n->w <= HCCL_HANDOFF_NS ? PR_CP_STREAM_WAIT : PR_CP_IDLE;
            n->w_coll = 0;
            break;
        }
    }
}

/* A host call that waits for the whole device: acl's
 * aclrtSynchronizeDevice*, its runtime's DeviceSynchronize, CUDA's
 * cudaDeviceSynchronize, HIP's hipDeviceSynchronize. */
static int
device_wide(const struct pr_cp_ctx *c, const struct pr_cp_node *x)
{
    const char *n = x->name != PR_STR_NONE ? pr_trace_str(c->t, x->name) : NULL;

    return n != NULL &&
           (has(n, "SynchronizeDevice") || has(n, "DeviceSynchroniz"));
}

static enum pr_status
resolve_syncs(struct pr_cp_ctx *c)
{
    struct pr_cp_graph *g = &c->g;
    struct byend *tasks = NULL;
    size_t n = 0, i;

    tasks = malloc((g->n ? g->n : 1) * sizeof(*tasks));
    if (tasks == NULL)
        return nomem(c);
    for (i = 0; i < g->n; i++) {
        if (g->v[i].type == PR_CP_N_TASK || g->v[i].type == PR_CP_N_CARRY) {
            tasks[n].e = g->v[i].e;
            tasks[n].s = g->v[i].s;
            tasks[n].i = (uint32_t)i;
            n++;
        }
    }
    qsort(tasks, n, sizeof(*tasks), cmp_byend);
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *x = &g->v[i];
        uint32_t dep = PR_CP_NONE;

        if (x->type == PR_CP_N_HOST && x->corr_task != PR_CP_NONE &&
            c->t->events[g->v[x->corr_task].ev].kind == PR_KIND_COPY &&
            g->v[x->corr_task].e <= x->e && g->v[x->corr_task].e > x->s) {
            /* its copy ended inside the call: a blocking copy (a short
               kernel ending inside its launch call did not block it) */
            x->type = PR_CP_N_SYNC;
            x->kind = PR_CP_SYNC;
            dep = x->corr_task;
        } else if (x->type == PR_CP_N_SYNC) {
            dep = waited_for(g, tasks, n, x, device_wide(c, x));
        } else if (x->dur >= QUEUE_SLOT_NS && queue_full(c, x)) {
            dep = waited_for(g, tasks, n, x, 0);
            if (dep == PR_CP_NONE || g->v[dep].e + QUEUE_SLOT_NS < x->e)
                continue;
            x->type = PR_CP_N_SYNC;
            x->kind = PR_CP_SYNC;
            x->queue_full = 1;
        } else {
            continue;
        }
        x->dur = x->e - x->s;
        if (dep != PR_CP_NONE) {
            int64_t ready = g->v[dep].e > x->s ? g->v[dep].e : x->s;
            /* a task read ending after the call returned (SYNC_SKEW_NS):
               the call's end is its end, less the clocks' skew */
            int64_t skew = ready > x->e ? x->e - ready : 0;

            ready += skew;
            add_pred(x, dep, skew, 0, PR_CP_SYNC, PR_STR_NONE);
            x->p_end[x->n_pred - 1] = 1; /* into the call's end */
            x->dur = x->e - ready;
        }
    }
    resolve_waits(c);
    residual_waits(c);
    infer_stream_waits(c, tasks, n);
    late_starts(c);
    unrec_waits(c, tasks, n);
    collective_inputs(c, tasks, n);
    free(tasks);
    return compile_waits(c);
}

/* A topological order of the 2n points (Kahn).  Edges run forward in
 * measured time, so the order exists; a point left over (a cycle the
 * trace's clocks could make) is appended as it comes. */
static enum pr_status
topo_order(struct pr_cp_ctx *c)
{
    struct pr_cp_graph *g = &c->g;
    size_t np = 2 * g->n, i, head = 0, tail = 0;
    uint32_t *indeg = calloc(np + 1, sizeof(*indeg));
    uint32_t *off = calloc(np + 2, sizeof(*off));
    uint32_t *adj = NULL, *fill = NULL;
    unsigned char *done = NULL;
    enum pr_status st = PR_OK;
    size_t ne = 0;
    int j;

    free(g->order);
    g->order = malloc((np ? np : 1) * sizeof(*g->order));
    if (indeg == NULL || off == NULL || g->order == NULL)
        goto oom;
    /* edges: pred point -> this start/end; start -> end */
    for (i = 0; i < g->n; i++) {
        const struct pr_cp_node *n = &g->v[i];

        for (j = 0; j < n->n_pred; j++) {
            uint32_t from = 2 * n->pred[j] + (n->p_start[j] ? 0 : 1);

            off[from + 1]++;
            indeg[2 * i + (n->p_end[j] ? 1 : 0)]++;
            ne++;
        }
        off[2 * i + 1]++;
        indeg[2 * i + 1]++;
        ne++;
    }
    for (i = 0; i < np; i++)
        off[i + 1] += off[i];
    adj = malloc((ne ? ne : 1) * sizeof(*adj));
    fill = malloc((np ? np : 1) * sizeof(*fill));
    done = calloc(np ? np : 1, 1);
    if (adj == NULL || fill == NULL || done == NULL)
        goto oom;
    memcpy(fill, off, np * sizeof(*fill));
    for (i = 0; i < g->n; i++) {
        const struct pr_cp_node *n = &g->v[i];

        for (j = 0; j < n->n_pred; j++) {
            uint32_t from = 2 * n->pred[j] + (n->p_start[j] ? 0 : 1);

            adj[fill[from]++] = (uint32_t)(2 * i + (n->p_end[j] ? 1 : 0));
        }
        adj[fill[2 * i]++] = (uint32_t)(2 * i + 1);
    }
    for (i = 0; i < np; i++) {
        if (indeg[i] == 0)
            g->order[tail++] = (uint32_t)i;
    }
    while (head < tail) {
        uint32_t p = g->order[head++];
        uint32_t k;

        done[p] = 1;
        for (k = off[p]; k < off[p + 1]; k++) {
            if (--indeg[adj[k]] == 0)
                g->order[tail++] = adj[k];
        }
    }
    for (i = 0; i < np && tail < np; i++) {
        if (!done[i] && indeg[i] != 0)
            g->order[tail++] = (uint32_t)i;
    }
    goto out;
oom:
    st = nomem(c);
out:
    free(indeg);
    free(off);
    free(adj);
    free(fill);
    free(done);
    return st;
}

/* The end node's predecessors: each thread's last call with the host
 * work after it, host work of threads without calls, every task. */
static enum pr_status
end_preds(struct pr_cp_ctx *c)
{
    struct pr_cp_graph *g = &c->g;
    int64_t callless_end = g->ws, step_only = g->ws;
    size_t i, by_step = PR_NONE, by_host = PR_NONE;
    uint32_t pf = (uint32_t)g->n_pc, pn = 0, other, from;

    for (i = 0; i < c->n_thr; i++) {
        struct thr *h = &c->thr[i];
        int64_t hend = h->host_end;

        if (h->host_end == INT64_MIN) /* calls but no operator */
            hend = h->last != PR_CP_NONE ? g->v[h->last].e : g->ws;
        if (h->last == PR_CP_NONE) {
            /* a thread without calls: its step range is the host's
               work; its other ranges count only in a trace of the host
               alone (a producer's device timeline draws its ranges as
               threads, but they are no host work) */
            if (h->step_end > step_only) {
                step_only = h->step_end < g->we ? h->step_end : g->we;
                by_step = i;
            }
            hend = hend < g->we ? hend : g->we;
            if (hend > callless_end) {
                callless_end = hend;
                by_host = i;
            }
            continue;
        }
        hend = h->step_end > hend ? h->step_end : hend;
        hend = hend < g->we ? hend : g->we;
        /* a call still running at the step's end counts up to it (< 0
           weight: the walk trims it) */
        if (hend < g->v[h->last].e && g->v[h->last].e <= g->we)
            hend = g->v[h->last].e;
        /* another thread's call ended since its last: it waited for
           that thread, as chain_call reads a call after such a wait (the
           main thread inside loss.backward() while autograd's thread
           issues the backward pass, up to a window's end: review30g #1,
           HTA's ns_resolution trace, whose device-time steps end 50.6
           ms into the main thread's "## backward ##" range, which the
           replays then kept as fixed host work) */
        other = handoff(c, h, hend);
        if (other != 0 && g->v[other].e > g->v[h->last].e) {
            if (add_end(c, h->last, 0, (uint32_t)g->n_pc, 0) != PR_OK)
                return PR_E_NOMEM;
            from = other;
        } else {
            from = h->last;
        }
        if (!account(c, h, hend) ||
            !take_pieces(c, h, g->v[from].e, hend, &pf, &pn))
            return nomem(c);
        if (add_end(c, from, hend - g->v[from].e, pf, pn) != PR_OK)
            return PR_E_NOMEM;
    }
    if (g->n_end > 0 || g->n > 1 || callless_end <= step_only) {
        callless_end = step_only;
        by_host = by_step;
    }
    /* the host's work on the thread whose range ends the step (a run of
       the host alone: its operators, its waits for collectives) */
    if (by_host != PR_NONE &&
        (!account(c, &c->thr[by_host], callless_end) ||
         !take_pieces(c, &c->thr[by_host], g->ws, callless_end, &pf, &pn)))
        return nomem(c);
    if (add_end(c, 0, callless_end - g->ws, pf, pn) != PR_OK)
        return PR_E_NOMEM;
    /* a task still running at the step's end counts up to it: the rest
       is the next step's (carried work there) */
    for (i = 0; i < g->n; i++) {
        int64_t over = g->v[i].e > g->we ? g->v[i].e - g->we : 0;

        if ((g->v[i].type == PR_CP_N_TASK || g->v[i].type == PR_CP_N_CARRY) &&
            add_end(c, (uint32_t)i, -over, (uint32_t)g->n_pc, 0) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

static void
step_reset(struct pr_cp_ctx *c, int64_t ws, int64_t we)
{
    size_t i;

    c->g.n = 0;
    c->g.n_end = 0;
    c->g.ws = ws;
    c->g.we = we;
    for (i = 0; i < c->n_thr; i++)
        free(c->thr[i].pend);
    c->n_thr = 0;
    c->n_waits = 0;
    c->n_hc = 0;
    c->n_notify = 0;
    c->n_nwait = 0;
    c->g.n_pc = 0;
    pr_idmap_free(&c->thr_ix);
    pr_idmap_free(&c->corr);
    pr_idmap_free(&c->qcorr);
    for (i = 0; i < c->n_streams; i++)
        c->streams[i].last = PR_CP_NONE;
    c->serial_last = PR_CP_NONE;
    c->unlaunched = PR_CP_NONE;
}

/* The host ranges that began before the step and run into it open its
 * threads' stacks: a step that starts while its host is still in the
 * DataLoader's __next__ (the device step begins where the last one's
 * kernels ended) owes that time to the data loader, not to "outside
 * operators". */
static enum pr_status
open_ranges(struct pr_cp_ctx *c)
{
    size_t i, j;

    for (i = 0; i < c->n_open; i++) {
        struct ostack *o = &c->open[i];
        struct thr *h;

        ostack_trim(c->t, o, c->g.ws);
        if (o->depth == 0)
            continue;
        h = thread_of(c, o->pid, o->tid);
        if (h == NULL)
            return nomem(c);
        for (j = 0; j < o->depth; j++) {
            if (!push_op(c, h, o->v[j]))
                return nomem(c);
        }
    }
    return PR_OK;
}

static int
cmp_hccl(const void *a, const void *b)
{
    const struct pr_hccl_task *x = a, *y = b;

    if (x->ts_ns != y->ts_ns)
        return x->ts_ns < y->ts_ns ? -1 : 1;
    return x->end_ns < y->end_ns ? -1 : (x->end_ns > y->end_ns);
}

/* The trace's HCCL plane tasks naming a peer, by start, once per run;
 * 0 where it records none (or memory is short: the old reading). */
static size_t
hccl_tasks(struct pr_cp_ctx *c)
{
    if (!c->hccl_made) {
        c->hccl_made = 1;
        if (c->t->n_hccl > 0 &&
            (c->hccl = malloc(c->t->n_hccl * sizeof(*c->hccl))) != NULL) {
            memcpy(c->hccl, c->t->hccl, c->t->n_hccl * sizeof(*c->hccl));
            c->n_hccl = c->t->n_hccl;
            qsort(c->hccl, c->n_hccl, sizeof(*c->hccl), cmp_hccl);
        }
    }
    return c->n_hccl;
}

/* Where x's Synchronization ends, as msprof-analyze defines it (the
 * Notify Wait before a collective's first transfer; MindStudio: "the
 * time the ranks spend synchronizing before their first communication,
 * which tells a slow rank from a slow link"): the start of x's first
 * plane task that moves data between two ranks.  *rank: the peer whose
 * notify came last among the waits that start before it (the latest
 * end), -1 none.  x's end where the export records no plane task with
 * ranks inside x (Ascend Hardware's Notify Wait alone, a .db, CANN 6's
 * hardware streams without their hccl timeline). */
static int64_t
first_transfer(struct pr_cp_ctx *c, const struct pr_cp_node *x, int32_t *rank)
{
    size_t n = hccl_tasks(c), lo = 0, hi = n, i;
    int64_t ft = x->e, last = INT64_MIN;
    int any = 0;

    *rank = -1;
    while (lo < hi) { /* the first task at x->s or later */
        size_t mid = lo + (hi - lo) / 2;

        if (c->hccl[mid].ts_ns < x->s)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (i = lo; i < n && c->hccl[i].ts_ns <= x->e; i++) {
        any = 1;
        if (!c->hccl[i].wait && c->hccl[i].ts_ns < ft)
            ft = c->hccl[i].ts_ns;
    }
    if (!any)
        return x->e;
    for (i = lo; i < n && c->hccl[i].ts_ns < ft; i++) {
        const struct pr_hccl_task *h = &c->hccl[i];

        if (h->wait && h->end_ns > last) {
            last = h->end_ns;
            *rank = h->peer;
        }
    }
    return ft;
}

/* Collectives that wait for a peer the trace does not hold (review 7
 * finding 1): an HCCL operator whose own Notify Wait tasks (inside its
 * span; torch_npu draws them on "Ascend Hardware" and HCCL's planes,
 * msprof's hccl timeline as Notify_Wait) before its first transfer
 * between ranks (msprof-analyze's Synchronization: first_transfer)
 * cover half its time or more ended when the last peer's notify came,
 * not when this rank's work was done (torch_npu/text_level1:
 * hcom_allReduce__586_0_1 holds a 78.76 ms Notify Wait of its 79.09 ms
 * before its first transfer, and both traced ranks end it together).
 * Keyed on the wait before the first transfer, not on every plane's
 * waits: in a mesh all-reduce one plane waits while another moves data
 * (review 8 finding 10), which is no late peer.  Its peer_wait is the
 * union of its waits (what the replay keeps).  It replays to no earlier
 * than its measured end (replay_end), so work saved before it
 * lengthens its wait instead of shortening the step.  NCCL records no
 * wait inside its kernels: its collectives are left as they are. */
static void
peer_waits(struct pr_cp_ctx *c)
{
    struct pr_cp_graph *g = &c->g;
    const struct byend *w = c->nwait;
    size_t n = c->n_nwait, i, j;

    if (n == 0)
        return;
    qsort(c->nwait, n, sizeof(*c->nwait), cmp_span);
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *x = &g->v[i];
        int64_t cover = 0, sync = 0, at = x->s; /* union inside x */
        int64_t ft;
        int32_t rank;

        if (x->type != PR_CP_N_TASK || x->kind != PR_CP_COMM ||
            named_notify(c, x) || x->dur <= 0)
            continue;
        ft = first_transfer(c, x, &rank);
        for (j = 0; j < n && w[j].s < x->e; j++) {
            int64_t a = w[j].s > at ? w[j].s : at;
            int64_t b = w[j].e < x->e ? w[j].e : x->e;

            if (w[j].s < x->s || b <= a)
                continue;
            cover += b - a;
            if (a < ft)
                sync += (b < ft ? b : ft) - a;
            at = b;
        }
        if (2 * sync >= x->dur) {
            x->peer = 1;
            x->peer_wait = cover;
            x->peer_sync = sync;
            x->peer_rank = rank;
        }
    }
}

/* A capture's lead-in: the time from its start to its first recorded
 * event on any thread or stream (a node's start, a thread's first range),
 * in ns; 0 for a step, or where an event starts the capture.  No replay
 * of the recorded events reaches it and the trace says nothing of it:
 * the path leaves it out, as it leaves out the unrecorded tail
 * (closing.md's Left: cuda_event_sync_multi_stream's first 42.5 ms of
 * 62.5 ms, the PyTorch Profiler range alone, counted as host work). */
static int64_t
capture_lead(const struct pr_cp_ctx *c)
{
    const struct pr_cp_graph *g = &c->g;
    int64_t first = INT64_MAX;
    size_t i;

    if (!c->capture)
        return 0;
    for (i = 0; i < g->n; i++) {
        if (g->v[i].type != PR_CP_N_START && g->v[i].type != PR_CP_N_CARRY &&
            g->v[i].s < first)
            first = g->v[i].s;
    }
    for (i = 0; i < c->n_thr; i++) {
        if (c->thr[i].first_rec < first)
            first = c->thr[i].first_rec;
    }
    return first > g->ws && first < g->we ? first - g->ws : 0;
}

/* Build and replay step [ws, we)'s graph in c->g. */
static enum pr_status
build_step(struct pr_cp_ctx *c, int64_t ws, int64_t we)
{
    struct pr_cp_node *start;
    uint32_t idx;
    enum pr_status st;

    step_reset(c, ws, we);
    st = advance_carry(c, ws);
    if (st != PR_OK)
        return st;
    start = add_node(c, PR_CP_N_START, &idx);
    if (start == NULL)
        return nomem(c);
    start->s = start->e = ws;
    st = open_ranges(c);
    if (st == PR_OK)
        st = sweep(c);
    if (st == PR_OK)
        st = resolve_syncs(c);
    if (st == PR_OK)
        peer_waits(c);
    if (st == PR_OK)
        st = end_preds(c);
    if (st == PR_OK)
        st = topo_order(c);
    if (st == PR_OK)
        pr_cp_replay(&c->g);
    return st;
}

/* ------------------------------------------------------ the path */

struct piece {
    uint8_t kind;
    uint32_t name;
    int64_t ns;
};

/* What one step's path adds up to. */
struct sums {
    int64_t trim; /* what the path's end ran past the step: taken off the
                     first pieces the walk finds */
    int64_t kind[PR_CP_KIND_COUNT];
    int64_t fam[PR_CP_FAM_COUNT];
    struct piece *top; /* owned: by (kind, name) */
    size_t n_top, cap_top;
    struct pr_idmap ix;
    int failed;
    /* where the path enters from another rank (walk): the collective
       (node; PR_CP_NONE), the slack of the work before it, the peer's
       time; after it the walk adds nothing (muted) */
    uint32_t entry;
    int64_t entry_slack, entry_ns;
    int muted;
    /* a capture's lead-in, the time before its first recorded event
       (capture_lead): what the walk still takes off the unnamed pieces
       of the path's first edge (lead), and what it took (lead_cut) */
    int64_t lead, lead_cut;
    /* the whole binding chain, the part before the entry too (the path
       once the peer is on time): its collectives' time outside their peer
       waits, its aclop calls' time with their compile steps and the
       device's wait inside them */
    int64_t chain_comm, chain_aclop;
    const struct pr_trace *t; /* for the names */
};

static void
sums_add(struct sums *u, struct pr_error *err, enum pr_cp_kind k, uint32_t name,
         int64_t ns, int fam)
{
    int64_t key = key2((uint32_t)k, name);
    size_t i;

    if (u->muted) /* before the point the path enters from a peer */
        return;
    if (ns < 0) { /* an overlap µs rounding made: taken off the next */
        u->trim = pr_sat_add_i64(u->trim, -ns);
        return;
    }
    if (ns > 0 && u->trim > 0) {
        int64_t cut = ns < u->trim ? ns : u->trim;

        ns -= cut;
        u->trim -= cut;
    }
    if (ns > 0 && u->lead > 0 && name == PR_STR_NONE) {
        /* nothing recorded there: no host work, no idle (capture_lead) */
        int64_t cut = ns < u->lead ? ns : u->lead;

        ns -= cut;
        u->lead -= cut;
        u->lead_cut = pr_sat_add_i64(u->lead_cut, cut);
    }
    if (ns <= 0)
        return;
    u->kind[k] = pr_sat_add_i64(u->kind[k], ns);
    if (k == PR_CP_KERNEL && fam >= 0 && fam < PR_CP_FAM_COUNT)
        u->fam[fam] = pr_sat_add_i64(u->fam[fam], ns);
    i = pr_idmap_get(&u->ix, key);
    if (i == PR_NONE) {
        if (!grow((void **)&u->top, &u->cap_top, u->n_top + 1,
                  sizeof(*u->top)) ||
            pr_idmap_put(&u->ix, key, u->n_top, err) != PR_OK) {
            u->failed = 1;
            return;
        }
        i = u->n_top++;
        u->top[i].kind = (uint8_t)k;
        u->top[i].name = name;
        u->top[i].ns = 0;
    }
    u->top[i].ns = pr_sat_add_i64(u->top[i].ns, ns);
}

static void
sums_reset(struct sums *u)
{
    memset(u->kind, 0, sizeof(u->kind));
    memset(u->fam, 0, sizeof(u->fam));
    u->n_top = 0;
    u->entry = PR_CP_NONE;
    u->entry_slack = u->entry_ns = 0;
    u->muted = 0;
    u->chain_comm = u->chain_aclop = 0;
    u->lead = u->lead_cut = 0;
    pr_idmap_free(&u->ix);
}

/* An edge's weight: host work in pieces where the edge has them, the
 * rest as the edge's own kind. */
static void
sums_edge(const struct pr_cp_graph *g, struct sums *u, struct pr_error *err,
          enum pr_cp_kind k, uint32_t name, int64_t w, uint32_t first,
          uint32_t n)
{
    uint32_t i;

    for (i = 0; i < n && w > 0; i++) {
        const struct pr_cp_piece *p = &g->pc[first + i];
        int64_t take = p->ns < w ? p->ns : w;

        sums_add(u, err, (enum pr_cp_kind)p->kind, p->name, take, -1);
        w -= take;
    }
    sums_add(u, err, k, name, w, -1);
}

/* The name of a collective's own wait before it starts where the trace
 * as read holds none of its tasks (w_coll): an operator-level export
 * (torch_npu 2023's kernel_details.csv, an op_summary, MindSpore's step
 * trace), or one whose HCCL plane tasks the importer does not read
 * (msprof's layer timelines): whether it waited for a peer, a stream
 * event or its launch the trace as read cannot say, so it stays
 * communication, named for what it is. */
#define NAME_COLL_UNREC (PR_STR_NONE - 1)
/* A stream's wait on an event the trace does not record (unrec_waits). */
#define NAME_WAIT_UNREC (PR_STR_NONE - 2)
/* A stream idle with no recorded cause while other streams of its device
 * ran (unrec_waits): not an idle device. */
#define NAME_IDLE_BUSY (PR_STR_NONE - 3)

/* The path's communication is at most the time some collective of the
 * step ran (the union of their spans in the window): a wait counted as
 * communication beyond that (a collective's own, NAME_COLL_UNREC, then a
 * wait after one) is no communication, and the excess goes to idle, the
 * cause the trace does not give
 * (review 22a #5: kernel_details_910B_v1.csv's path held 388.8 ms of
 * communication where its 19 collectives ran 346.4 ms). */
static int
cmp_i64_pair(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;

    return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int64_t
collective_union(const struct pr_cp_graph *g)
{
    int64_t *sp = malloc((g->n ? g->n : 1) * 2 * sizeof(*sp));
    int64_t total = 0, cur_s = 0, cur_e = INT64_MIN;
    size_t i, n = 0;

    if (sp == NULL)
        return -1;
    for (i = 0; i < g->n; i++) {
        const struct pr_cp_node *v = &g->v[i];
        int64_t a = v->s > g->ws ? v->s : g->ws,
                b = v->e < g->we ? v->e : g->we;

        if (v->type != PR_CP_N_TASK || v->kind != PR_CP_COMM || b <= a)
            continue;
        sp[2 * n] = a;
        sp[2 * n + 1] = b;
        n++;
    }
    qsort(sp, n, 2 * sizeof(*sp), cmp_i64_pair);
    for (i = 0; i < n; i++) {
        if (sp[2 * i] > cur_e) {
            if (cur_e > cur_s)
                total = pr_sat_add_i64(total, cur_e - cur_s);
            cur_s = sp[2 * i];
            cur_e = sp[2 * i + 1];
        } else if (sp[2 * i + 1] > cur_e) {
            cur_e = sp[2 * i + 1];
        }
    }
    if (n > 0 && cur_e > cur_s)
        total = pr_sat_add_i64(total, cur_e - cur_s);
    free(sp);
    return total;
}

static void
comm_within_collectives(const struct pr_cp_graph *g, struct sums *u,
                        struct pr_error *err)
{
    int64_t coll = collective_union(g), over, idle = 0;
    size_t i;

    if (coll < 0 || u->kind[PR_CP_COMM] <= coll)
        return;
    over = u->kind[PR_CP_COMM] - coll;
    /* the collective's own waits first, then the waits after one */
    for (i = 0; i < 2 * u->n_top && over > 0; i++) {
        struct piece *p = &u->top[i % u->n_top];
        int64_t take;

        if (p->kind != PR_CP_COMM ||
            p->name != (i < u->n_top ? NAME_COLL_UNREC : PR_STR_NONE))
            continue;
        take = p->ns < over ? p->ns : over;
        p->ns -= take;
        u->kind[PR_CP_COMM] -= take;
        over -= take;
        idle = pr_sat_add_i64(idle, take);
    }
    if (idle > 0) { /* after the walk: whatever it muted or trimmed */
        int muted = u->muted;
        int64_t trim = u->trim;

        u->muted = 0;
        u->trim = 0;
        sums_add(u, err, PR_CP_IDLE, PR_STR_NONE, idle, -1);
        u->muted = muted;
        u->trim = trim;
    }
}

/* Walk the replayed graph back from its end along the binding edges. */
/* A node the walk passes through whole, into the chain's figures. */
static void
chain_node(struct sums *u, const struct pr_cp_node *n)
{
    if (n->kind == PR_CP_COMM)
        u->chain_comm = pr_sat_add_i64(
            u->chain_comm, n->dur > n->peer_wait ? n->dur - n->peer_wait : 0);
    else if (n->type == PR_CP_N_HOST && n->name != PR_STR_NONE &&
             pr_cp_is_aclop(pr_trace_str(u->t, n->name)))
        u->chain_aclop = pr_sat_add_i64(u->chain_aclop, n->dur);
}

/* The walk's last edge, into the step's start: a capture's lead-in
 * (lead ns), which it holds, comes off the unnamed time it adds from
 * here (sums_add). */
static void
lead_in(const struct pr_cp_graph *g, struct sums *u, uint32_t pred,
        int64_t lead)
{
    if (lead > 0 && pred < g->n && g->v[pred].type == PR_CP_N_START)
        u->lead = lead;
}

/* Of task n's launch wait on the replay, the part before its launch call
 * (the host node its binding edge b leaves from the start) returned: the
 * call's own time, 0 where n waits on no launch call or the call had
 * returned when n became ready. */
static int64_t
call_own(const struct pr_cp_graph *g, const struct pr_cp_node *n, int b)
{
    const struct pr_cp_node *x;
    int64_t ready, until;

    if (b < 0 || b >= n->n_pred || n->type != PR_CP_N_TASK ||
        n->w_kind != PR_CP_LAUNCH || n->w <= 0 ||
        n->p_kind[b] != PR_CP_LAUNCH || !n->p_start[b] || n->w_coll)
        return 0;
    x = &g->v[n->pred[b]];
    if (x->type != PR_CP_N_HOST || x->name == PR_STR_NONE)
        return 0;
    ready = pr_sat_add_i64(x->rs, n->pw[b]);
    until = pr_sat_add_i64(ready, n->w);
    if (x->re < until)
        until = x->re;
    return until > ready ? until - ready : 0;
}

int64_t
pr_cp_call_own(const struct pr_cp_graph *g, const struct pr_cp_node *n)
{
    return n->bind < PR_CP_MAX_PRED ? call_own(g, n, n->bind) : 0;
}

static void
walk(struct pr_cp_graph *g, struct sums *u, int64_t lead, struct pr_error *err)
{
    uint32_t i;
    int via_end = 1;
    size_t guard = 0;

    u->lead = u->lead_cut = 0;
    if (g->end_bind == PR_CP_NONE)
        return;
    i = g->end_pred[g->end_bind];
    u->trim = 0;
    lead_in(g, u, i, lead);
    sums_edge(g, u, err, PR_CP_HOST_OP, PR_STR_NONE, g->end_w[g->end_bind],
              g->end_pc_first[g->end_bind], g->end_pc_n[g->end_bind]);
    while (guard++ <= 2 * g->n + 2) {
        struct pr_cp_node *n = &g->v[i];
        int64_t call;
        int b;

        n->on_path = 1;
        n->past_peer = (uint8_t)u->muted;
        if (n->type == PR_CP_N_START)
            return;
        if (n->type == PR_CP_N_CARRY) {
            sums_add(u, err, (enum pr_cp_kind)n->kind, n->name, n->re - n->rs,
                     n->fam);
            return;
        }
        if (via_end && !u->muted && n->peer && n->floor) {
            /* its end is the peer's notify, not this rank's work: the
               path enters from that rank here (review 8 #3).  Its time
               outside the waits is this rank's, taken as after the wait
               (the transfer once the peer came); the step's time before
               is the peer's; what the walk meets from here is work with
               floor_ns of slack or more: marked, not added */
            int64_t own = n->dur - n->peer_wait;

            sums_add(u, err, PR_CP_COMM, n->name, own, n->fam);
            u->entry_ns = n->re - own - g->ws;
            sums_add(u, err, PR_CP_PEER_WAIT, n->name, u->entry_ns, -1);
            u->entry = i;
            u->entry_slack = n->floor_ns;
            u->muted = 1;
        }
        if (via_end)
            chain_node(u, n);
        if (via_end && n->dur_compile > 0) {
            /* the compile step inside an aclop call, and the rest */
            sums_add(u, err, PR_CP_COMPILE, n->name_compile, n->dur_compile,
                     -1);
            sums_add(u, err, (enum pr_cp_kind)n->kind, n->name,
                     n->dur - n->dur_compile, n->fam);
        } else if (via_end) {
            sums_add(u, err, (enum pr_cp_kind)n->kind, n->name, n->dur, n->fam);
        }
        if (via_end && n->bind_end < PR_CP_MAX_PRED)
            lead_in(g, u, n->pred[n->bind_end], lead);
        else if (n->bind < PR_CP_MAX_PRED)
            lead_in(g, u, n->pred[n->bind], lead);
        if (via_end) {
            if (n->bind_end < PR_CP_MAX_PRED) {
                b = n->bind_end;
                sums_add(u, err, (enum pr_cp_kind)n->p_kind[b], n->p_name[b],
                         n->pw[b], -1);
                via_end = !n->p_start[b];
                i = n->pred[b];
                continue;
            }
        }
        b = n->bind;
        if (b >= PR_CP_MAX_PRED)
            return;
        /* a wait after the launch is the launch-to-start delay, not the
           call's own time: unnamed, so it never adds to the call's name
           (review-2 finding 3: "cudaLaunchKernel 17.8 ms a step" where the
           calls held 9.8 ms) */
        if (n->w_kind == PR_CP_IDLE && n->w_compile + n->w_aclop > 0) {
            u->chain_aclop =
                pr_sat_add_i64(u->chain_aclop, n->w_compile + n->w_aclop);
            sums_add(u, err, PR_CP_COMPILE, PR_STR_NONE, n->w_compile, -1);
            sums_add(u, err, PR_CP_LAUNCH, n->name_aclop, n->w_aclop, -1);
            sums_add(u, err, PR_CP_IDLE, PR_STR_NONE,
                     n->w - n->w_compile - n->w_aclop, -1);
        } else if ((call = call_own(g, n, b)) > 0) {
            /* the part of the wait before its launch call returned is
               the call's own host time, by its name; the delay counts
               from the return, as after_return and the host-wait figures
               do (issue #29 #4 follow-up: nsys_mock's cudaMemcpyAsync
               held the host 589.5 us, its copy started 20.4 us after it
               returned, and the path booked all 609.9 us as delay) */
            const struct pr_cp_node *x = &g->v[n->pred[b]];

            sums_add(u, err, (enum pr_cp_kind)x->kind, x->name, call, -1);
            sums_add(u, err, PR_CP_LAUNCH, PR_STR_NONE, n->w - call, -1);
        } else {
            sums_add(u, err, (enum pr_cp_kind)n->w_kind,
                     n->w_coll            ? NAME_COLL_UNREC
                     : n->wait_unrec == 1 ? NAME_WAIT_UNREC
                     : n->wait_unrec == 2 ? NAME_IDLE_BUSY
                                          : PR_STR_NONE,
                     n->w, -1);
        }
        sums_edge(g, u, err, (enum pr_cp_kind)n->p_kind[b], n->p_name[b],
                  n->pw[b], n->pc_first, b == 0 ? n->pc_n : 0);
        via_end = !n->p_start[b];
        i = n->pred[b];
    }
}

/* The resource that bounds the step: the largest of host (operators,
 * data loader, launches, blocking calls), device (compute, and a stream's
 * wait for another stream of its device), copies and communication on
 * its path; idle belongs to none.  A stream's wait is device time: the
 * path runs through the other stream's work on the device, as HTA's
 * critical path joins the two kernels by a GPU-to-GPU sync edge
 * (hta/analyzers/critical_path_analysis.py, SYNC_DEPENDENCY, weight 0);
 * no faster host shortens it (issue #29). */
static const char *
bound_of(const int64_t *k)
{
    int64_t v[4];
    static const char *const names[4] = {"host", "device", "copy",
                                         "communication"};
    int i, best = 0;

    v[0] = k[PR_CP_HOST_OP] + k[PR_CP_DATALOADER] + k[PR_CP_LAUNCH] +
           k[PR_CP_SYNC] + k[PR_CP_COMPILE];
    v[1] = k[PR_CP_KERNEL] + k[PR_CP_STREAM_WAIT];
    v[2] = k[PR_CP_COPY];
    v[3] = k[PR_CP_COMM] + k[PR_CP_PEER_WAIT]; /* waits in collectives */
    for (i = 1; i < 4; i++) {
        if (v[i] > v[best])
            best = i;
    }
    return names[best];
}

/* A step whose device is busy this share of it or more (kernels, copies,
 * fills and collectives, the step's breakdown) is bound by the device. */
#define CP_DEVICE_BUSY_PCT 90

/* The device's bound where it is busy CP_DEVICE_BUSY_PCT of the step or
 * more, else NULL.  With the host infinitely fast the step still holds
 * all its device work, so the host could save at most the device's idle
 * time (HTA's idle: host wait, kernel wait, other), under a tenth: host
 * time on such a path overlaps device work it waits on (DeepEP's
 * dispatch polling its receive counters, MTIA's gif_merge returning when
 * the merge task ends), not work that delays the device (review 28h #1:
 * deepseek train.json, the device busy 99.2% of its step, read "Bound by
 * the host", 78% host work on the path; mtia_inference, 91.9%).  The
 * device's largest part names it. */
static const char *
device_busy_bound(const struct pr_step *st)
{
    const int64_t *b = st->breakdown_ns;
    int64_t dur = pr_sat_sub_i64(st->end_ns, st->start_ns);
    int64_t kern = b[PR_CAT_KERNEL], comm = b[PR_CAT_COMM];
    int64_t copy = pr_sat_add_i64(b[PR_CAT_MEMCPY], b[PR_CAT_MEMSET]);
    int64_t busy = pr_sat_add_i64(pr_sat_add_i64(kern, comm), copy);

    if (dur <= 0 || (double)busy < CP_DEVICE_BUSY_PCT / 100.0 * (double)dur)
        return NULL;
    return comm > kern && comm >= copy ? "communication"
           : copy > kern               ? "copy"
                                       : "device";
}

/* Idle with no recorded cause outweighs the host's work and each device
 * resource on a path that holds device compute.  A path without any (a
 * MindSpore cluster export carries only its communication tasks) leaves
 * its idle to the producer's step trace (whatif.c step_trace_compute):
 * that idle is the compute the export does not hold. */
static int
idle_dominant(const int64_t *k)
{
    int64_t host = k[PR_CP_HOST_OP] + k[PR_CP_DATALOADER] + k[PR_CP_LAUNCH] +
                   k[PR_CP_SYNC] + k[PR_CP_COMPILE];

    return k[PR_CP_KERNEL] > 0 && k[PR_CP_IDLE] > host &&
           k[PR_CP_IDLE] > k[PR_CP_KERNEL] + k[PR_CP_STREAM_WAIT] &&
           k[PR_CP_IDLE] > k[PR_CP_COPY] && k[PR_CP_IDLE] > k[PR_CP_COMM] &&
           k[PR_CP_IDLE] > k[PR_CP_PEER_WAIT];
}

/* A step's bound: bound_of, or "idle" where the producer's own table says
 * the rank computes for most of its step although its export holds no
 * task of that work (unrec: a MindSpore cluster's slower pipeline stage,
 * pr_producer_pipeline_note) and idle is over half of the path: that idle
 * is the unrecorded compute, and naming the largest of the rest would call
 * the step bound by what it spends a third of its time on (review 24 #1:
 * ms_cluster4 rank 2's steps 2-5, 67% idle, were "comm.").  A host bound
 * where the device is busy nearly all the step is the device's
 * (device_busy_bound). */
static const char *
step_bound(const int64_t *k, int unrec, const struct pr_step *st)
{
    int64_t total = 0;
    const char *b, *dev;
    int i;

    for (i = 0; i < PR_CP_KIND_COUNT; i++)
        total = pr_sat_add_i64(total, k[i] > 0 ? k[i] : 0);
    if (unrec && total > 0 && k[PR_CP_IDLE] > total / 2)
        return "idle";
    /* idle with no recorded cause outweighs each resource: the step names
       none, as the verdict's idle_dominant_pct (whatif.c) reads the same
       split (review 31 #9: SGLang decode, negq, tc_base read "Bound:
       device" in the table beside a verdict that names no bound) */
    if (idle_dominant(k))
        return "idle";
    b = bound_of(k);
    if (strcmp(b, "host") == 0 && (dev = device_busy_bound(st)) != NULL)
        return dev;
    return b;
}

static const char *
piece_name(const struct pr_trace *t, const struct piece *p)
{
    if (p->name == NAME_COLL_UNREC)
        return "(collective wait, its tasks not read)";
    if (p->name == NAME_WAIT_UNREC)
        return "(stream waits for another stream, its event not recorded)";
    if (p->name == NAME_IDLE_BUSY)
        return "(stream idle, no recorded cause; other streams ran)";
    if (p->name != PR_STR_NONE)
        return pr_trace_str(t, p->name);
    switch (p->kind) {
    case PR_CP_HOST_OP:
        return "(host, outside operators)";
    case PR_CP_IDLE:
        return "(device idle, no recorded cause)";
    case PR_CP_STREAM_WAIT:
        return "(stream waits for another stream)";
    case PR_CP_LAUNCH:
        return "(launch-to-start delay)";
    case PR_CP_COMPILE:
        return "(device waits for operator compilation)";
    case PR_CP_COMM:
        /* a wait for a collective the trace names no task for: a task
           idle after a collective ended, a wait for peers (Ascend's
           Notify Wait); a collective's own wait before it starts is
           idle or a stream wait (wait_kind), or, where its export
           records none of its tasks, NAME_COLL_UNREC */
        return "(collective wait)";
    default:
        return "(unnamed)";
    }
}

static int
cmp_piece(const void *a, const void *b)
{
    const struct piece *x = a, *y = b;

    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->name < y->name ? -1 : (x->name > y->name);
}

#define CP_TOP 8

/* The latest measured end of anything the step's graph holds (its nodes,
 * and the host work after each thread's last call), never past the
 * step's end: after it the trace records nothing in the step, which no
 * replay of the recorded work can reach. */
static int64_t
last_recorded(const struct pr_cp_graph *g)
{
    int64_t last = g->ws;
    size_t i;

    for (i = 0; i < g->n; i++) {
        if (g->v[i].type != PR_CP_N_START && g->v[i].type != PR_CP_N_CARRY &&
            g->v[i].e > last)
            last = g->v[i].e;
    }
    for (i = 0; i < g->n_end; i++) {
        int64_t p = pr_sat_add_i64(g->v[g->end_pred[i]].e, g->end_w[i]);

        if (p > last)
            last = p;
    }
    return last < g->we ? last : g->we;
}

/* A step's unrecorded tail in ns: the time from its last recorded event
 * (or the replay's end, where a host range open to the step's end
 * reaches further) to its end; 0 where none. */
static int64_t
unrecorded_tail(const struct pr_cp_graph *g)
{
    int64_t last = last_recorded(g);
    int64_t tail = g->we - (g->rend > last ? g->rend : last);

    return tail > 0 ? tail : 0;
}

/* A step's path time by kind as the typed by_kind_us object (v: µs,
 * NAN null): the steps' and the run's mean. */
static void
kinds_fill(struct pr_row_cp_kinds *r, const double v[PR_CP_KIND_COUNT])
{
    memset(r, 0, sizeof(*r));
    r->host_op = v[PR_CP_HOST_OP];
    r->dataloader = v[PR_CP_DATALOADER];
    r->launch = v[PR_CP_LAUNCH];
    r->kernel = v[PR_CP_KERNEL];
    r->copy = v[PR_CP_COPY];
    r->communication = v[PR_CP_COMM];
    r->sync_wait = v[PR_CP_SYNC];
    r->idle = v[PR_CP_IDLE];
    r->op_compile = v[PR_CP_COMPILE];
    r->peer_wait = v[PR_CP_PEER_WAIT];
    r->stream_wait = v[PR_CP_STREAM_WAIT];
}

static cJSON *
kinds_row(const double v[PR_CP_KIND_COUNT])
{
    struct pr_row_cp_kinds r;

    kinds_fill(&r, v);
    return pr_rows_row(PR_RO_RUNS_CRITICAL_PATH_BY_KIND_US, &r);
}

static cJSON *
families_row(const int64_t ns[PR_CP_FAM_COUNT])
{
    struct pr_row_cp_families r = {0};

    r.gemm = ns[PR_CP_FAM_GEMM];
    r.conv = ns[PR_CP_FAM_CONV];
    r.attention = ns[PR_CP_FAM_ATTENTION];
    r.collective = ns[PR_CP_FAM_COLLECTIVE];
    r.copy = ns[PR_CP_FAM_COPY];
    r.elementwise = ns[PR_CP_FAM_ELEMENTWISE];
    r.reduction = ns[PR_CP_FAM_REDUCTION];
    r.norm = ns[PR_CP_FAM_NORM];
    r.embedding = ns[PR_CP_FAM_EMBEDDING];
    r.other = ns[PR_CP_FAM_OTHER];
    r.unknown = ns[PR_CP_FAM_UNKNOWN];
    return pr_rows_row(PR_RO_RUNS_CRITICAL_PATH_STEPS_KERNEL_FAMILY_US, &r);
}

static void
emit_step(const struct pr_trace *t, const struct pr_step *st,
          const struct pr_cp_graph *g, struct sums *u, int unrec, cJSON *arr,
          double *err_pct, double *rec_pct, int *ok)
{
    struct pr_row_cp_step row = {0};
    struct pr_row_cp_top p = {0};
    double meas = (double)(g->we - g->ws) / 1000.0;
    /* without a capture's lead-in (capture_lead), which the walk left
       out of the path */
    double len = (double)(g->rend - g->ws - u->lead_cut) / 1000.0, tail;
    double lead = (double)u->lead_cut / 1000.0;
    double kind_us[PR_CP_KIND_COUNT];
    cJSON *k = NULL, *f = NULL, *top = cJSON_CreateArray();
    size_t i;

    row.step = pr_steps_name(t, st);
    row.measured_us = meas;
    row.top = top;
    if (g->rend == g->ws && g->we > g->ws) {
        /* the trace records nothing in the step (a producer that
           stopped writing tasks): no path to say anything of */
        *err_pct = NAN;
        *rec_pct = NAN;
        row.length_us = NAN;
        row.replay_error_pct = NAN;
        row.unrecorded_tail_us = NAN;
        row.unrecorded_lead_us = NAN;
        if (top == NULL ||
            !pr_rows_write(arr, PR_RO_RUNS_CRITICAL_PATH_STEPS, &row, 1))
            *ok = 0;
        cJSON_Delete(top);
        return;
    }
    tail = (double)unrecorded_tail(g) / 1000.0;
    /* the lead-in and the unrecorded tail are time the trace records
       nothing in: no replay's miss (review26g #2: event_sync_multi's
       42.5 ms lead-in read as a 68.1% replay error; review 27 #3:
       inference_rank_1's 973.3 ms tail as 93.0%).  The error is the
       recorded part's, as replay_error_recorded_pct always was */
    *err_pct = meas > 0 ? 100.0 * fabs(len - (meas - tail - lead)) / meas : 0.0;
    *rec_pct = *err_pct;
    row.length_us = len;
    row.replay_error_pct = *err_pct;
    row.unrecorded_tail_us = tail;
    row.unrecorded_lead_us = lead;
    row.bound = step_bound(u->kind, unrec, st);
    for (i = 0; i < PR_CP_KIND_COUNT; i++)
        kind_us[i] = (double)u->kind[i] / 1000.0;
    row.by_kind_us = k = kinds_row(kind_us);
    row.kernel_family_us = f = families_row(u->fam);
    qsort(u->top, u->n_top, sizeof(*u->top), cmp_piece);
    for (i = 0; top != NULL && i < u->n_top && i < CP_TOP; i++) {
        if (u->top[i].ns <= 0)
            break; /* emptied by comm_within_collectives */
        p.name = piece_name(t, &u->top[i]);
        p.kind = kind_keys[u->top[i].kind];
        p.ns = u->top[i].ns;
        if (!pr_rows_write(top, PR_RO_RUNS_CRITICAL_PATH_STEPS_TOP, &p, 1))
            *ok = 0;
    }
    /* what top leaves out, so that its rows and the rest make the path
       (issue #28 review: DeepSeek's 8 parts held 87.8 of 129.5 ms) */
    for (; i < u->n_top; i++)
        if (u->top[i].ns > 0) {
            row.top_rest_ns += u->top[i].ns;
            row.top_rest_parts++;
        }
    row.top = top;
    if (top == NULL || k == NULL || f == NULL ||
        !pr_rows_write(arr, PR_RO_RUNS_CRITICAL_PATH_STEPS, &row, 1))
        *ok = 0;
    cJSON_Delete(k);
    cJSON_Delete(f);
    cJSON_Delete(top);
}

static void
ctx_free(struct pr_cp_ctx *c)
{
    size_t i;

    pr_cp_graph_free(&c->g);
    pr_names_free(&c->names);
    free(c->streams);
    pr_idmap_free(&c->stream_ix);
    free(c->open);
    pr_idmap_free(&c->open_ix);
    for (i = 0; i < c->n_thr; i++)
        free(c->thr[i].pend);
    free(c->thr);
    pr_idmap_free(&c->thr_ix);
    pr_idmap_free(&c->corr);
    pr_idmap_free(&c->qcorr);
    free(c->waits);
    free(c->hc);
    free(c->notify);
    free(c->nwait);
    free(c->hccl);
    free(c->ql);
    free(c->qlt);
    pr_idmap_free(&c->enq_ix);
    pr_idmap_free(&c->qid_ix);
    free(c->fifo_enq);
    free(c->fifo_deq);
    free(c->qd_launch);
    free(c->qd_start);
    pr_idmap_free(&c->qd_dev);
}

/* The run's critical_path as its typed row (rows.def) and the text its
 * notes point into, filled by the emit_ functions below and written once
 * (pr_critpath_fill). */
struct cp_out {
    struct pr_row_critical_path r;
    int unlinked; /* a note names a stream-wait call no device record links
                     to a stream (mark_unlinked) as its wait's likely cause:
                     the longest launch wait's, a late start's, or every
                     idle gap's (pr_critpath_fill's unlinked_wait) */
    char error_note[400], launch_note[1400], held_note[1400], idle_note[1500],
        poll_note[1200], peer_note[1300], longest[300], entry_note[1100];
};

/* Why the replay misses the measured steps, where the trace says: the
 * replay reproduces all that is recorded (replay_error_recorded_pct, the
 * worst step's error with each step's unrecorded tail taken off its
 * measured time) and the worst step ends in time the trace records
 * nothing in (HTA's inference_rank_1: the profiler's range runs 973 ms
 * past its last event; torch_npu's old2023 and MindSpore's ascend_run1,
 * whose last step's tasks stop early).  replay_error_note says so in
 * words; null where the replay is within PR_WHATIF_MAX_ERROR_PCT or the
 * recorded work itself is missed. */
static void
emit_error_note(struct cp_out *o, const cJSON *steps, size_t n_steps,
                double worst_rec, size_t worst_step, double lead)
{
    const cJSON *st = cJSON_GetArrayItem(steps, (int)worst_step);
    double tail = pr_sget_num(st, PR_K_UNRECORDED_TAIL_US);
    double meas = pr_sget_num(st, PR_K_MEASURED_US);
    const char *name;
    char *text = o->error_note;

    o->r.replay_error_recorded_pct = n_steps ? worst_rec : NAN;
    o->r.replay_error_note = NULL;
    /* a lead-in of 1% or more, or a tail over the error's 2%, is named
       though the error leaves both out (review26g #2, review 27 #3): the
       path is that much shorter than the capture or step */
    if (!n_steps || !(meas > 0) || !(worst_rec <= PR_WHATIF_MAX_ERROR_PCT) ||
        !(tail > PR_WHATIF_MAX_ERROR_PCT / 100.0 * meas || lead >= 0.01 * meas))
        return;
    name = pr_sget_str_or(st, PR_K_STEP, "?");
    if (lead > 0 && tail >= 0.01 * meas) /* a capture's both ends */
        snprintf(text, sizeof(o->error_note),
                 "The replay reproduces the recorded work of the capture "
                 "within %.2f%%; the capture's first %.1f ms (%.0f%% of it) "
                 "and last %.1f ms (%.0f%%) hold no recorded event (the "
                 "profiler's window is wider than the events it wrote), and "
                 "no replay of its events can reach that time: the path "
                 "leaves them out.",
                 worst_rec, lead / 1000.0, 100.0 * lead / meas, tail / 1000.0,
                 100.0 * tail / meas);
    else if (lead > 0) /* capture_lead */
        snprintf(text, sizeof(o->error_note),
                 "The replay reproduces the recorded work of the capture "
                 "within %.2f%%; the capture's first %.1f ms (%.0f%% of it) "
                 "hold no recorded event on any thread or stream (the "
                 "profiler's window opens before the first event it "
                 "wrote): no host work or device idle the trace shows, so "
                 "the path leaves it out.",
                 worst_rec, lead / 1000.0, 100.0 * lead / meas);
    else
        snprintf(
            text, sizeof(o->error_note),
            "The replay reproduces the recorded work of %s within "
            "%.2f%%; %s%.60s's last %.1f ms (%.0f%% of it) hold no recorded "
            "event (the device idles, or the profiler stopped writing "
            "before the %s ends), and no replay of its events can reach "
            "that time.",
            strcmp(name, "capture") == 0 ? "the capture" : "every step",
            worst_rec, strcmp(name, "capture") == 0 ? "the " : "", name,
            tail / 1000.0, 100.0 * tail / meas,
            strcmp(name, "capture") == 0 ? "capture" : "step");
    o->r.replay_error_note = text;
}

/* The run's figures over its steps: the worst replay error, the bound
 * most steps share (ties: the order host, device, copy, communication;
 * steps bound by unrecorded compute, step_bound's "idle", name no
 * resource: where every step is one, the largest resource over them),
 * the mean split by kind. */
static void
emit_run(struct cp_out *o, const int64_t *kind_total, const size_t *bounds,
         size_t n_steps, double worst, int serial)
{
    static const char *const names[4] = {"host", "device", "copy",
                                         "communication"};
    double mean[PR_CP_KIND_COUNT];
    size_t i, best = 0;

    o->r.replay_error_pct = n_steps ? worst : NAN;
    o->r.serial_streams = serial;
    for (i = 1; i < 4; i++) {
        if (bounds[i] > bounds[best])
            best = i;
    }
    o->r.bound = n_steps == 0        ? NULL
                 : bounds[best] == 0 ? bound_of(kind_total)
                                     : names[best];
    for (i = 0; i < PR_CP_KIND_COUNT; i++)
        mean[i] =
            n_steps ? (double)kind_total[i] / 1000.0 / (double)n_steps : NAN;
    kinds_fill(&o->r.by_kind_us, mean);
}

/* Waits after a launch on a free stream that the trace gives no cause for
 * (no stream wait, event, or other stream's task ending or draining
 * then: infer_stream_waits), on the steps' paths: the path keeps them as
 * launch-to-start delay; the note says their cause is not recorded. */
#define PEERS_MAX 16 /* peers a collective's waits are split by */
#define PARTS_MAX 8  /* peer-bound collectives listed by name */

/* A correlation index made on first use; short of memory it finds none
 * (a note says less, the path is not changed). */
struct lazy_ix {
    struct pr_idmap map;
    int made, failed;
};

static void
lazy_put(struct lazy_ix *z, int64_t key, size_t i)
{
    struct pr_error e;

    memset(&e, 0, sizeof(e));
    if (!z->failed && pr_idmap_put(&z->map, key, i, &e) != PR_OK)
        z->failed = 1;
}

static size_t
lazy_get(const struct lazy_ix *z, int64_t key)
{
    return key == PR_NO_ID || z->failed ? PR_NONE : pr_idmap_get(&z->map, key);
}

struct lwait {
    int capture; /* the run has no steps: its one window is the capture */
    int64_t ns, max_ns;
    size_t n;
    uint32_t max_ev;
    int max_unlinked; /* the longest's launch call followed a stream wait
                         the trace links to no stream (mark_unlinked) */
    /* late starts on the paths (late_starts): their waits from the
       launch's end, the longest and its task */
    int64_t late_ns, late_max_ns;
    size_t late_n;
    uint32_t late_ev;
    int late_after_wait; /* the longest's launch followed a stream wait on
                            an event recorded before the step (1), or one
                            the trace links to no stream (2) */
    /* host waits the trace records no call for, spinning on a counter
       a kernel writes (host_poll): their time, the longest and its
       kernel, and the rule that says its library polls */
    int64_t poll_ns, poll_max_ns, poll_all_ns, poll_q_ns, poll_run_ns;
    size_t poll_n, poll_all_n; /* all: on the paths or off them */
    uint32_t poll_ev;
    const char *poll_lib, *poll_rule;
    /* waits for the SMs another stream's kernel held (held_by): the
       wait from the task's launch, the longest and its kernel */
    int64_t held_ns, held_max_ns;
    size_t held_n;
    uint32_t held_ev, held_by_ev;
    size_t held_all; /* such waits of any task in the steps' graphs */
    /* collectives on the paths that waited for a peer (peer_waits):
       their Notify Wait time, the longest wait and its collective */
    int64_t peer_ns, peer_max_ns;
    size_t peer_n;
    uint32_t peer_node_ev;
    int64_t peer_node_dur;
    int32_t peer_rank; /* the longest's late peer (peer_rank); -1 none */
    /* device idle on the paths with no recorded cause (note_idle): the
       gaps, the longest and its task, the launches' lead over them */
    int64_t idle_ns, idle_max_ns, idle_lead_min, idle_lead_max;
    size_t idle_n, idle_unlaunched;
    /* those launched right after a stream-wait call no device record
       links to a stream (mark_unlinked: ROCm's hipStreamWaitEvent) */
    size_t idle_unlinked;
    int64_t idle_unlinked_ns; /* and their gaps' time */
    uint32_t idle_ev;
    /* tasks of the steps, on the paths or off them, that started as
       late after the task before them on their stream though launched
       under FLOOR_LEAD_NS ahead (note_floor): their count and gaps */
    int64_t *floor_w, idle_min_ns;
    size_t floor_n, floor_cap;
    int floor_failed;
    /* correlation -> the runtime call that launched it, made on first
       use: a launch the path does not hold (torch_npu's level 0, whose
       torch_to_npu instants it leaves, critpath.c on_call) */
    struct lazy_ix launch_ix;
    /* correlation -> the task queue's launch of it (t->qlaunch): where
       the path holds no launch, the lead is from the queue thread's
       launch, not from the operator's enqueue (torch_npu level 0, whose
       torch_to_npu flows leave from the enqueue: review 11 #6) */
    struct lazy_ix qlaunch_ix;

    /* the same collectives split (note_split): each one's wait by name,
       the bound's parts, and per rank the wait that goes away with that
       rank alone on time, summed over the steps */
    struct {
        uint32_t name;
        int64_t wait, dur;
    } part[PARTS_MAX];
    size_t n_part;
    int32_t alone_rank[PEERS_MAX];
    int64_t alone_ns[PEERS_MAX];
    size_t n_alone;
    /* per pair of ranks whose notifies came last and next-to-last in a
       collective (a < b): the wait gone with both on time there (the
       last less the third-latest) and with the last alone (late_group) */
    struct {
        int32_t a, b;
        int64_t both_ns, first_ns;
    } pair[PEERS_MAX];
    size_t n_pair;
};

/* The wait held_by gave node n: from the latest of its other edges (its
 * launch, its stream) to its start; 0 when its binding edge is not one
 * (a kernel's end on another stream of its device, less the overlap). */
static int64_t
held_wait(const struct pr_trace *t, const struct pr_cp_graph *g,
          const struct pr_cp_node *n, uint32_t *by)
{
    const struct pr_cp_node *x;
    int64_t ready = INT64_MIN;
    int j;

    /* a collective's edge to a draining kernel (infer_stream_waits) is
       its stream event's wait: its long idle was for the work before that
       kernel, not for the SMs the kernel held (HTA's trace_diff/test: the
       SendRecv idles 12 ms, the sgemm it starts under runs 190 us) */
    if (n->bind >= n->n_pred || n->p_kind[n->bind] != PR_CP_KERNEL ||
        n->p_start[n->bind] || n->pw[n->bind] > 0 || n->w != 0 ||
        n->kind == PR_CP_COMM)
        return 0;
    x = &g->v[n->pred[n->bind]];
    if (x->type != PR_CP_N_TASK || x->ev == PR_CP_NONE ||
        pr_event_tid(t, &t->events[x->ev]) ==
            pr_event_tid(t, &t->events[n->ev]))
        return 0;
    for (j = 0; j < n->n_pred; j++) {
        const struct pr_cp_node *p = &g->v[n->pred[j]];
        int64_t at;

        if (j == n->bind || n->p_end[j] || n->pw[j] == PR_CP_GONE)
            continue;
        at = pr_sat_add_i64(n->p_start[j] ? p->s : p->e, n->pw[j]);
        ready = at > ready ? at : ready;
    }
    *by = x->ev;
    return ready > INT64_MIN && n->s > ready ? n->s - ready : 0;
}

static void
note_waits(const struct pr_trace *t, const struct pr_cp_graph *g,
           struct lwait *lw)
{
    size_t i;

    for (i = 0; i < g->n; i++) {
        const struct pr_cp_node *n = &g->v[i];

        int64_t held, wait;
        uint32_t by = PR_CP_NONE;

        if (n->type != PR_CP_N_TASK || n->ev == PR_CP_NONE)
            continue;
        if (n->peer && n->on_path) {
            lw->peer_ns = pr_sat_add_i64(lw->peer_ns, n->peer_wait);
            lw->peer_n++;
            if (n->peer_wait > lw->peer_max_ns) {
                lw->peer_max_ns = n->peer_wait;
                lw->peer_node_ev = n->ev;
                lw->peer_node_dur = n->dur;
                lw->peer_rank = n->peer_rank;
            }
        }
        held = held_wait(t, g, n, &by);
        lw->held_all += held > 0;
        /* work before the point the path enters from a peer is off the
           path, its waits with it (review 8 #3) */
        if (!n->on_path || n->past_peer)
            continue;
        if (held > 0) {
            lw->held_ns = pr_sat_add_i64(lw->held_ns, held);
            lw->held_n++;
            if (held > lw->held_max_ns) {
                lw->held_max_ns = held;
                lw->held_ev = n->ev;
                lw->held_by_ev = by;
            }
            continue;
        }
        /* both notes measure from the launch call's return, as the
           host-wait figures do (hostdev.c) */
        wait = after_return(g, n);
        if (n->late) {
            lw->late_ns = pr_sat_add_i64(lw->late_ns, wait);
            lw->late_n++;
            if (wait > lw->late_max_ns) {
                lw->late_max_ns = wait;
                lw->late_ev = n->ev;
                lw->late_after_wait = n->late == 2 ? 1 : n->late == 3 ? 2 : 0;
            }
            continue;
        }
        if (n->w_kind != PR_CP_LAUNCH || wait < COINCIDE_MIN_WAIT_NS)
            continue;
        /* a copy from pageable memory starts when the driver has staged
           it through a pinned buffer: a known cause (CUDA's guide) */
        if (n->kind == PR_CP_COPY && n->name != PR_STR_NONE &&
            strstr(pr_trace_str(t, n->name), "Pageable") != NULL)
            continue;
        lw->ns = pr_sat_add_i64(lw->ns, wait);
        lw->n++;
        if (wait > lw->max_ns) {
            lw->max_ns = wait;
            lw->max_ev = n->ev;
            lw->max_unlinked = after_late(g, n, 3);
        }
    }
}

/* The path's host polls (host_poll): a polled call whose edge from the
 * kernel binds; the wait is the time before the thread resumed. */
static void
note_polls(struct pr_cp_ctx *c, struct lwait *lw)
{
    const struct pr_cp_graph *g = &c->g;
    size_t i;

    for (i = 0; i < g->n; i++) {
        const struct pr_cp_node *n = &g->v[i], *old, *k;
        struct pr_kclass kc;
        int64_t wait;

        if (!n->polled)
            continue;
        old = &g->v[n->pred[n->n_pred - 1]];
        k = &g->v[n->pred[0]];
        wait = n->s - n->pw[n->n_pred - 1] - old->e;
        lw->poll_all_ns = pr_sat_add_i64(lw->poll_all_ns, wait);
        lw->poll_all_n++;
        if (!n->on_path || n->past_peer || n->bind != 0)
            continue;
        lw->poll_ns = pr_sat_add_i64(lw->poll_ns, wait);
        lw->poll_n++;
        if (wait > lw->poll_max_ns && pr_names_rule(&c->names, k->name, &kc)) {
            /* the wait's parts: the kernel queued on its stream after
               its launch returned, then ran until the host resumed */
            lw->poll_q_ns = k->s > old->e ? k->s - old->e : 0;
            lw->poll_run_ns = wait - lw->poll_q_ns;
            lw->poll_max_ns = wait;
            lw->poll_ev = k->ev;
            lw->poll_lib = kc.library;
            lw->poll_rule = kc.rule;
        }
    }
}

/* The device idle on the paths that the trace gives no cause for: a task
 * on the path that started COINCIDE_MIN_WAIT_NS or more after the work
 * before it on its stream, while no task of the step ran and its launch
 * had ended before the gap began (the host was ahead: torch_npu's
 * optimizer tasks on text_level0-1 and db_level1, launched 70-94 ms
 * earlier, start about 95 us apart, the gaps kernel_details.csv reports
 * as Wait Time).  A gap its launch call still ran into is the launch's,
 * not counted here, nor a wait from the step's start.  The lead is from
 * the task queue's launch where the path's is the operator's enqueue. */
/* The end of the recorded launch of task event ev; INT64_MIN none. */
static int64_t
recorded_launch(const struct pr_trace *t, struct lwait *lw, uint32_t ev)
{
    size_t i;

    if (!lw->launch_ix.made) {
        lw->launch_ix.made = 1;
        for (i = 0; i < t->n_events; i++)
            if (pr_tree_is_launcher(t->events[i].kind) &&
                pr_event_correlation(t, &t->events[i]) != PR_NO_ID)
                lazy_put(&lw->launch_ix, pr_event_correlation(t, &t->events[i]),
                         i);
    }
    i = lazy_get(&lw->launch_ix, pr_event_correlation(t, &t->events[ev]));
    return i == PR_NONE ? INT64_MIN : ev_end(&t->events[i]);
}

/* Where torch_npu's task queue launched task event ev (t->qlaunch: the
 * HostToDevice flow's start on the queue thread); NULL none. */
static const struct pr_queue_launch *
queue_launch(const struct pr_trace *t, struct lwait *lw, uint32_t ev)
{
    size_t i;

    if (!lw->qlaunch_ix.made) {
        lw->qlaunch_ix.made = 1;
        for (i = 0; i < t->n_qlaunch; i++)
            lazy_put(&lw->qlaunch_ix, t->qlaunch[i].corr, i);
    }
    i = lazy_get(&lw->qlaunch_ix, pr_event_correlation(t, &t->events[ev]));
    return i == PR_NONE ? NULL : &t->qlaunch[i];
}

/* A launch this short a time before its task is "just ahead": a gap
 * before such tasks is the device's between tasks, not the host's being
 * ahead (text_level0: 88-111 us before tasks launched 0.1-3.7 ms ahead,
 * as before the optimizer's, launched 70 ms ahead: review 11 #6). */
#define FLOOR_LEAD_NS 5000000

/* The gaps of 50 us or more before tasks launched less than
 * FLOOR_LEAD_NS ahead, and after their stream's previous task (the
 * path's launch, or the task queue's): on the paths or off them. */
static void
note_floor(const struct pr_trace *t, const struct pr_cp_graph *g,
           struct lwait *lw)
{
    size_t i;

    for (i = 0; i < g->n; i++) {
        const struct pr_cp_node *n = &g->v[i], *p;
        const struct pr_queue_launch *ql;
        int64_t w = n->w - n->w_compile - n->w_aclop, le = INT64_MIN;
        int j;

        if (n->type != PR_CP_N_TASK || n->ev == PR_CP_NONE ||
            n->w_kind != PR_CP_IDLE || w < COINCIDE_MIN_WAIT_NS ||
            n->bind >= n->n_pred)
            continue;
        p = &g->v[n->pred[n->bind]];
        if (p->type != PR_CP_N_TASK || p->ev == PR_CP_NONE ||
            pr_event_tid(t, &t->events[p->ev]) !=
                pr_event_tid(t, &t->events[n->ev]))
            continue; /* not after its stream's previous task */
        for (j = 0; j < n->n_pred; j++)
            if (n->p_kind[j] == PR_CP_LAUNCH)
                le = g->v[n->pred[j]].e;
        ql = queue_launch(t, lw, n->ev);
        if (ql != NULL)
            le = ql->ts_ns;
        if (le == INT64_MIN || le > n->s - w || n->s - le >= FLOOR_LEAD_NS)
            continue;
        if (!lw->floor_failed && !grow((void **)&lw->floor_w, &lw->floor_cap,
                                       lw->floor_n + 1, sizeof(*lw->floor_w)))
            lw->floor_failed = 1; /* no clause: only a note's less */
        if (!lw->floor_failed)
            lw->floor_w[lw->floor_n++] = w;
    }
}

static void
note_idle(const struct pr_trace *t, const struct pr_cp_graph *g,
          struct lwait *lw)
{
    size_t i, k;

    for (i = 0; i < g->n; i++) {
        const struct pr_cp_node *n = &g->v[i];
        int64_t w = n->w - n->w_compile - n->w_aclop, gap0, lead = -1;
        const struct pr_cp_node *lnode = NULL;
        const struct pr_queue_launch *ql;
        int j;

        if (n->type != PR_CP_N_TASK || n->ev == PR_CP_NONE || !n->on_path ||
            n->past_peer || n->w_kind != PR_CP_IDLE ||
            w < COINCIDE_MIN_WAIT_NS || n->late)
            continue; /* a late start is launch_wait_note's */
        /* a wait from the step's start is no gap after the device's work:
           the time before the step's first task the trace holds (review 11
           #9: MindSpore's fixtures hold 2 events in a 4.47 s capture) */
        if (n->bind >= n->n_pred ||
            g->v[n->pred[n->bind]].type == PR_CP_N_START)
            continue;
        gap0 = n->s - w;
        for (k = 0; k < g->n; k++) /* the device ran something then */
            if (k != i && is_task_node(&g->v[k]) && g->v[k].s < n->s &&
                g->v[k].e > gap0)
                break;
        if (k < g->n)
            continue;
        for (j = 0; j < n->n_pred; j++)
            if (n->p_kind[j] == PR_CP_LAUNCH || n->p_kind[j] == PR_CP_COMPILE) {
                lead =
                    g->v[n->pred[j]].e <= gap0 ? n->s - g->v[n->pred[j]].e : -2;
                lnode = &g->v[n->pred[j]];
            }
        if (lead == -1) { /* a launch the trace records, not the path */
            int64_t le = recorded_launch(t, lw, n->ev);

            if (le != INT64_MIN)
                lead = le <= gap0 ? n->s - le : -2;
        }
        if (lead == -2)
            continue; /* its launch was still running */
        /* the task queue's launch where the path's is another, on
           another thread (a hand-made trace's enqueue) */
        ql = lead >= 0 ? queue_launch(t, lw, n->ev) : NULL;
        if (ql != NULL && (lnode == NULL || lnode->ev == PR_CP_NONE ||
                           pr_event_pid(t, &t->events[lnode->ev]) != ql->pid ||
                           pr_event_tid(t, &t->events[lnode->ev]) != ql->tid)) {
            if (ql->ts_ns > gap0)
                continue; /* the queue launched it during the gap */
            lead = n->s - ql->ts_ns;
        }
        lw->idle_ns = pr_sat_add_i64(lw->idle_ns, w);
        if (lw->idle_n++ == 0 || w < lw->idle_min_ns)
            lw->idle_min_ns = w;
        if (after_late(g, n, 3)) {
            lw->idle_unlinked++;
            lw->idle_unlinked_ns = pr_sat_add_i64(lw->idle_unlinked_ns, w);
        }
        if (lead < 0)
            lw->idle_unlaunched++;
        else if (lw->idle_n - lw->idle_unlaunched == 1) {
            lw->idle_lead_min = lw->idle_lead_max = lead;
        } else {
            lw->idle_lead_min =
                lead < lw->idle_lead_min ? lead : lw->idle_lead_min;
            lw->idle_lead_max =
                lead > lw->idle_lead_max ? lead : lw->idle_lead_max;
        }
        if (w > lw->idle_max_ns) {
            lw->idle_max_ns = w;
            lw->idle_ev = n->ev;
        }
    }
    note_floor(t, g, lw);
}

static void
dur_text(int64_t ns, char *buf, size_t cap)
{
    if (ns >= 1000000)
        snprintf(buf, cap, "%.1f ms", (double)ns / 1e6);
    else
        snprintf(buf, cap, "%.0f \xC2\xB5s", (double)ns / 1e3);
}

/* "stream 20" for a stream named "20", the name itself for "stream 7" */
static void
stream_label(const struct pr_trace *t, uint32_t ev, char *buf, size_t cap)
{
    const char *tid = pr_trace_str(t, pr_event_tid(t, &t->events[ev]));

    snprintf(buf, cap, "%s%s", strncmp(tid, "stream", 6) == 0 ? "" : "stream ",
             tid);
}

/* A kernel's name without its parameter list, and without its template
 * arguments where those make it long; at most 100 bytes. */
static int
bare_len(const char *name)
{
    size_t n = strcspn(name, "(");

    if (n > 100)
        n = strcspn(name, "<");
    return (int)(n > 100 ? 100 : n);
}

/* Blocks a kernel gives each SM to run: its grid over the device's SMs,
 * else Kineto's "blocks per SM" (the same ratio); NaN unknown. */
static double
blocks_per_sm(const struct pr_trace *t, uint32_t ev)
{
    struct pr_gpu_info gb;
    const struct pr_gpu_info *g = pr_trace_gpu(t, &t->events[ev], &gb);
    const struct pr_device *d;

    if (g == NULL)
        return NAN;
    d = pr_trace_device(t, g->device);
    if (d != NULL && d->num_sms > 0 && g->grid[0] > 0 && g->grid[1] > 0 &&
        g->grid[2] > 0)
        return (double)g->grid[0] * g->grid[1] * g->grid[2] / d->num_sms;
    return g->blocks_per_sm > 0 && isfinite(g->blocks_per_sm) ? g->blocks_per_sm
                                                              : NAN;
}

/* The most blocks an SM of any NVIDIA GPU keeps resident (CUDA's
 * programming guide, "Compute Capabilities": 32 on sm_50-72, sm_80 and
 * sm_90, 16 on sm_75, sm_86 and sm_87, 24 on sm_89; the largest, so the
 * waves it gives are the fewest): a kernel with more blocks a SM runs in
 * waves, and the
 * block scheduler starts a higher-priority stream's pending blocks
 * before its next wave (CUDA's guide, "Stream Priorities"). */
#define MAX_RESIDENT_BLOCKS 32.0

static void
emit_held(const struct pr_trace *t, const struct lwait *lw, size_t n_steps,
          struct cp_out *o)
{
    char *text = o->held_note, a[64], b[64], w[32], all[120] = "";
    const size_t cap = sizeof(o->held_note);
    double waves = NAN, bps;
    size_t len;
    /* HIP's blocks are workgroups on CUs, and the resident limit below is
       NVIDIA's: an AMD run's note names CUs and claims no waves */
    const char *vendor = pr_devices_vendor(t);
    int amd = vendor != NULL && strcmp(vendor, "amd") == 0;

    o->r.held_note = NULL;
    if (lw->held_n == 0 || n_steps == 0)
        return;
    stream_label(t, lw->held_ev, a, sizeof(a));
    stream_label(t, lw->held_by_ev, b, sizeof(b));
    if (lw->held_max_ns >= 1000000)
        snprintf(w, sizeof(w), "%.2f ms", (double)lw->held_max_ns / 1e6);
    else
        snprintf(w, sizeof(w), "%.0f \xC2\xB5s", (double)lw->held_max_ns / 1e3);
    /* what it counts: the waits on the path, of all in the steps
       (review-5 finding 11: 5 on the path, 6 in hta_diff_control) */
    if (lw->held_all > lw->held_n)
        snprintf(all, sizeof(all),
                 "; %zu tasks waited so in the %s in all, on the paths "
                 "or off them",
                 lw->held_all, lw->capture ? "capture" : "steps");
    len = (size_t)snprintf(
        text, cap,
        "On the %s, %zu task%s (%.2f ms%s) "
        "waited after %s launch for the %s a kernel on another stream "
        "held, starting as it drained; the path runs through that "
        "kernel%s. The longest: %.*s on %s waited %s for %.*s on %s.",
        lw->capture ? "capture's critical path" : "steps' critical paths",
        lw->held_n, lw->held_n == 1 ? "" : "s",
        (double)lw->held_ns / 1e6 / (double)n_steps,
        lw->capture ? "" : " a step", lw->held_n == 1 ? "its" : "their",
        amd ? "CUs" : "SMs", all,
        bare_len(pr_trace_str(t, t->events[lw->held_ev].name)),
        pr_trace_str(t, t->events[lw->held_ev].name), a, w,
        bare_len(pr_trace_str(t, t->events[lw->held_by_ev].name)),
        pr_trace_str(t, t->events[lw->held_by_ev].name), b);
    /* the lever, where the holder ran in waves: its later blocks were
       still pending when the short kernel was ready */
    bps = blocks_per_sm(t, lw->held_by_ev);
    if (!amd && bps > MAX_RESIDENT_BLOCKS)
        waves = bps / MAX_RESIDENT_BLOCKS;
    /* and the wait spans more than the holder's last wave (its time over
       its fewest waves): a wave was still to start when the task was
       ready */
    if (!isnan(waves) &&
        !((double)lw->held_max_ns >
          (double)t->events[lw->held_by_ev].dur_ns / floor(waves)))
        waves = NAN;
    if (!isnan(waves) && len < cap)
        snprintf(text + len, cap - len,
                 " That kernel gave each SM %.0f blocks, at least %.0f "
                 "waves (an SM keeps at most %.0f resident), so its later "
                 "blocks were still pending when the waiting kernel was "
                 "ready: on a higher-priority stream "
                 "(torch.cuda.Stream(priority=-1)) the waiting kernel's "
                 "blocks start before the long kernel's next wave; or, if "
                 "it does not need the long kernel's output, issue it "
                 "before that kernel.",
                 bps, ceil(waves), MAX_RESIDENT_BLOCKS);
    o->r.held_note = text;
}

/* What the path's host polls were (note_polls); null where none. */
static void
emit_polls(const struct pr_trace *t, const struct lwait *lw, size_t n_steps,
           struct cp_out *o)
{
    char kn[PR_SHORTEN_CAP(60)], on[200];
    const char *per = lw->capture ? "" : " a step";
    const char *path =
        lw->capture || n_steps == 1 ? "critical path" : "steps' critical paths";

    o->r.host_poll_note = NULL;
    o->r.host_poll_us = NAN;
    if (lw->poll_n == 0 || n_steps == 0 || lw->poll_lib == NULL)
        return;
    o->r.host_poll_us = (double)lw->poll_ns / 1e3 / (double)n_steps;
    pr_shorten(pr_trace_str(t, t->events[lw->poll_ev].name), 60, kn,
               sizeof(kn));
    if (lw->poll_n == 1)
        snprintf(on, sizeof(on), "the one on the %s, %.2f ms", path,
                 (double)lw->poll_max_ns / 1e6);
    else
        snprintf(on, sizeof(on),
                 "%zu on the %s, %.2f ms%s (the longest %.2f ms)", lw->poll_n,
                 path, (double)lw->poll_ns / 1e6 / (double)n_steps, per,
                 (double)lw->poll_max_ns / 1e6);
    snprintf(o->poll_note, sizeof(o->poll_note),
             "%s's host code (the kernel table's rule %s) spins, with no "
             "call the trace records, until a kernel it launched writes a "
             "counter to pinned host memory: %zu such wait%s of the host, "
             "%.2f ms%s; %s, while %s queued %.2f ms on its stream after its "
             "launch, then ran %.2f ms until the host resumed. The path "
             "counts that time as the kernel's and the work before it on "
             "its stream, not as host work%s.",
             lw->poll_lib, lw->poll_rule, lw->poll_all_n,
             lw->poll_all_n == 1 ? "" : "s",
             (double)lw->poll_all_ns / 1e6 / (double)n_steps, per, on, kn,
             (double)lw->poll_q_ns / 1e6, (double)lw->poll_run_ns / 1e6,
             lw->poll_all_n > lw->poll_n
                 ? "; the waits off the path overlap longer device work"
                 : "");
    o->r.host_poll_note = o->poll_note;
}

static void
emit_waits(const struct pr_trace *t, const struct lwait *lw, size_t n_steps,
           struct cp_out *o)
{
    const struct pr_event *e;
    const char *tid;

    size_t len = 0;

    o->r.launch_wait_note = NULL;
    if ((lw->n == 0 && lw->late_n == 0) || n_steps == 0)
        return;
    o->launch_note[0] = '\0';
    if (lw->n > 0) {
        e = &t->events[lw->max_ev];
        tid = pr_trace_str(t, pr_event_tid(t, e));
        len = pr_append(
            o->launch_note, sizeof(o->launch_note), 0,
            "%zu task%s on the %s waited %.0f \xC2\xB5s or "
            "more after %s launch call returned, on a stream with nothing "
            "before %s "
            "(%.2f ms%s; the longest %.0f \xC2\xB5s, %.80s on %s%s): %s",
            lw->n, lw->n == 1 ? "" : "s",
            lw->capture ? "capture's critical path" : "steps' critical paths",
            COINCIDE_MIN_WAIT_NS / 1000.0, lw->n == 1 ? "its" : "their",
            lw->n == 1 ? "it" : "them", (double)lw->ns / 1e6 / (double)n_steps,
            lw->capture ? " in all" : " a step", (double)lw->max_ns / 1e3,
            pr_trace_str(t, e->name),
            strncmp(tid, "stream", 6) == 0 ? "" : "stream ", tid,
            lw->max_unlinked
                /* ROCm: hipStreamWaitEvent on the host, no device record
                   of the wait to say which stream waited */
                ? "just before the longest's launch (no launch between) "
                  "the launching thread made a stream-wait call that no "
                  "device record links to a stream (a ROCm trace records "
                  "none), so it most likely waited for work on another "
                  "stream; the trace does not say which, and the path keeps "
                  "this as launch-to-start delay."
                : "the trace records no cause (no stream wait or event, no "
                  "task on another stream ending or draining then), so the "
                  "path keeps this as launch-to-start delay.");
    }
    if (lw->late_n > 0) {
        e = &t->events[lw->late_ev];
        tid = pr_trace_str(t, pr_event_tid(t, e));
        pr_append(
            o->launch_note, sizeof(o->launch_note), len,
            "%s%zu task%s on the %s started %.0f ms or more after %s launch "
            "call had returned, on a stream with nothing before %s (%.2f "
            "ms%s; the longest %.2f ms, %.80s on %s%s): a launch takes "
            "microseconds and the host had moved on, so %s did not wait for "
            "the host; %s The "
            "path keeps this as device idle with %s, which "
            "no launch change shortens.",
            len > 0 ? " " : "", lw->late_n, lw->late_n == 1 ? "" : "s",
            lw->capture ? "capture's critical path" : "steps' critical paths",
            PR_CP_LATE_START_NS / 1e6, lw->late_n == 1 ? "its" : "their",
            lw->late_n == 1 ? "it" : "them",
            (double)lw->late_ns / 1e6 / (double)n_steps,
            lw->capture ? " in all" : " a step", (double)lw->late_max_ns / 1e6,
            pr_trace_str(t, e->name),
            strncmp(tid, "stream", 6) == 0 ? "" : "stream ", tid,
            lw->late_n == 1 ? "it" : "they",
            lw->late_after_wait == 1
                ? "just before the launch (no launch between) the launching "
                  "thread made a stream wait on an event whose record is not "
                  "in the trace: most likely the stream waited for work "
                  "issued before the window."
            : lw->late_after_wait == 2
                ? "just before the launch (no launch between) the launching "
                  "thread made a stream-wait call that no device record "
                  "links to a stream (a ROCm trace records none): most "
                  "likely the stream waited for work on another stream, "
                  "which the trace does not say."
                : "the device ran work the trace does not hold (issued "
                  "before the window) or waited for an event it does not "
                  "record.",
            lw->late_after_wait == 2 ? "its wait linked to no stream"
                                     : "no recorded cause");
    }
    o->r.launch_wait_note = o->launch_note;
    o->unlinked |= (lw->n > 0 && lw->max_unlinked) ||
                   (lw->late_n > 0 && lw->late_after_wait == 2);
}

/* Why the path's device idle is named for no cause (note_idle). */
/* sw: the path's stream waits (recorded event waits, or inferred
 * hand-offs between a collective and another stream's task,
 * collective_inputs): where there are some, the note says these tasks'
 * waits are not among them (issue #30 #2: msprof_tv run 0, "Stream wait
 * 0.57 ms" beside "no stream wait or event recorded"). */
static void
emit_idle(const struct pr_trace *t, const struct lwait *lw, size_t n_steps,
          const cJSON *run, int64_t sw, struct cp_out *o)
{
    char *text = o->idle_note, st[64], lo[32], hi[32], mx[32], when[80],
         launched[600] = "", unl[200] = "", gaps[500], swb[160] = "";
    size_t nl = lw->idle_n - lw->idle_unlaunched, k, same = 0, len;
    const char *vendor =
        t->vendor != PR_STR_NONE ? pr_trace_str(t, t->vendor) : "";

    const size_t cap = sizeof(o->idle_note);

    o->r.idle_note = NULL;
    if (lw->idle_n == 0 || n_steps == 0)
        return;
    if (sw > 0)
        snprintf(swb, sizeof(swb),
                 " before %s, nor a hand-off from another stream's task "
                 "inferred (the path's stream waits are other tasks')",
                 lw->idle_n == 1 ? "it" : "them");
    stream_label(t, lw->idle_ev, st, sizeof(st));
    dur_text(lw->idle_max_ns, mx, sizeof(mx));
    /* the same gaps before tasks launched just ahead: the device's time
       between tasks, so the host's lead bought nothing (review 11 #6) */
    for (k = 0; nl > 0 && lw->idle_lead_min >= FLOOR_LEAD_NS &&
                !lw->floor_failed && k < lw->floor_n;
         k++)
        same += lw->floor_w[k] >= lw->idle_min_ns &&
                lw->floor_w[k] <= lw->idle_max_ns;
    if (nl > 0) {
        char flo[32], fl[300] = "";

        dur_text(lw->idle_lead_min, lo, sizeof(lo));
        dur_text(lw->idle_lead_max, hi, sizeof(hi));
        if (strcmp(lo, hi) == 0)
            snprintf(when, sizeof(when), "%s", lo);
        else
            snprintf(when, sizeof(when), "%s to %s", lo, hi);
        dur_text(lw->idle_min_ns, flo, sizeof(flo));
        if (same >= lw->idle_n)
            snprintf(fl, sizeof(fl),
                     ", and %zu of the %zu tasks with such a gap launched "
                     "under %.0f ms ahead waited as long (%s to %s): the "
                     "host was ahead; the gap looks like the device's own "
                     "between tasks",
                     same, lw->floor_n, FLOOR_LEAD_NS / 1e6, flo, mx);
        snprintf(launched, sizeof(launched),
                 "; %s launched %s before %s start%s",
                 nl == lw->idle_n ? (nl == 1 ? "it was" : "each was")
                 : nl == 1        ? "1 was"
                                  : "those with a launch were",
                 when, nl == lw->idle_n || nl == 1 ? "its" : "their",
                 fl[0] != '\0' ? fl : ", so the host was ahead");
    }
    if (lw->idle_unlaunched > 0)
        snprintf(unl, sizeof(unl),
                 "; the trace ties no launch to %s, so whether the host "
                 "held %s back is not known",
                 lw->idle_unlaunched == lw->idle_n
                     ? (lw->idle_n == 1 ? "it" : "them")
                     : "the others",
                 lw->idle_unlaunched == 1 && lw->idle_n == 1 ? "it" : "them");
    len = (size_t)snprintf(
        text, cap,
        "%zu task%s on the critical path%s started %.0f \xC2\xB5s or more "
        "after "
        "the "
        "work before %s on %s stream ended (%.2f ms%s; the longest %s, "
        "before %.80s on %s), ",
        lw->idle_n, lw->idle_n == 1 ? "" : "s", lw->capture ? "" : "s",
        COINCIDE_MIN_WAIT_NS / 1000.0, lw->idle_n == 1 ? "it" : "them",
        lw->idle_n == 1 ? "its" : "their",
        (double)lw->idle_ns / 1e6 / (double)n_steps,
        lw->capture ? " in all" : " a step", mx,
        pr_trace_str(t, t->events[lw->idle_ev].name), st);
    if (len >= cap)
        len = cap - 1;
    /* a task list far short of the producer's step table: the gaps are
       where it holds no task, and the table's Free is not theirs (review
       11 #2) */
    if (pr_producer_gap_note(run, gaps, sizeof(gaps)))
        snprintf(text + len, cap - len,
                 "with no other task of the export between%s: %s.", launched,
                 gaps);
    else if (lw->idle_unlinked > 0) {
        /* ROCm: hipStreamWaitEvent on the host, no device record of the
           wait to say which stream waited (mark_unlinked); where only
           some gaps follow one, how many and their time (the idle
           verdict's partial cause, issue #28 #3) */
        char part[120];

        o->unlinked |= lw->idle_unlinked == lw->idle_n;

        snprintf(part, sizeof(part),
                 "the launch%s of %zu of the %zu (%.2f ms%s) followed",
                 lw->idle_unlinked == 1 ? "" : "es", lw->idle_unlinked,
                 lw->idle_n,
                 (double)lw->idle_unlinked_ns / 1e6 / (double)n_steps,
                 lw->capture ? " in all" : " a step");
        snprintf(text + len, cap - len,
                 "no task running; %s a stream-wait call (no launch "
                 "between) that no device record links to a stream (a ROCm "
                 "trace records none)%s%s%s%s device idle.",
                 lw->idle_unlinked == lw->idle_n
                     ? (lw->idle_n == 1 ? "its launch followed"
                                        : "the launch of each followed")
                     : part,
                 lw->idle_unlinked == lw->idle_n
                     ? ""
                     : ", the others with no stream wait or event recorded",
                 launched, unl,
                 same >= lw->idle_n && nl > 0 ? ", kept as"
                 : lw->idle_unlinked == lw->idle_n
                     ? ": most likely the stream waited for work on another "
                       "stream, which the trace does not say, so the path "
                       "keeps it as"
                     : ": the trace links none of these waits to a stream, "
                       "so the path keeps it as");
    } else
        snprintf(text + len, cap - len,
                 "no task running, no stream wait or event recorded%s%s%s%s "
                 "device idle%s.",
                 swb, launched, unl,
                 same >= lw->idle_n && nl > 0
                     ? ", kept as"
                     : ": the trace records no cause for the device's wait, "
                       "so the path keeps it as",
                 strcmp(vendor, "huawei") == 0 &&
                         !(same >= lw->idle_n && nl > 0)
                     /* review 12: a .db export has no CSV; its step
                        split is OVERLAP_ANALYSIS (msprof_full_db) */
                     ? " (what the Ascend profilers' step split counts as "
                       "Free: step_trace_time.csv, or the OVERLAP_ANALYSIS "
                       "table of a database export)"
                     : "");
    o->r.idle_note = text;
}

static size_t rank_waits(struct pr_cp_ctx *c, uint32_t ev, int32_t *rank,
                         int64_t *wait);
static int late_group(struct pr_cp_ctx *c, const struct lwait *lw,
                      int32_t *partner, int64_t *both_ns);

/* note_split's parts, a mean a step, largest wait first (then by name):
 * critical_path.peer_wait_parts, the communication finding's evidence
 * (review 10 #2: one measure, the wait, for every collective). */
static cJSON *
emit_parts(const struct pr_trace *t, const struct lwait *lw, size_t n_steps,
           int *ok)
{
    cJSON *arr = *ok ? cJSON_CreateArray() : NULL;
    size_t order[PARTS_MAX], i, k;

    *ok = *ok && arr != NULL;
    for (i = 0; i < lw->n_part; i++) {
        for (k = i;
             k > 0 && (lw->part[order[k - 1]].wait < lw->part[i].wait ||
                       (lw->part[order[k - 1]].wait == lw->part[i].wait &&
                        strcmp(pr_trace_str(t, lw->part[order[k - 1]].name),
                               pr_trace_str(t, lw->part[i].name)) > 0));
             k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    for (i = 0; arr != NULL && i < lw->n_part && *ok; i++) {
        const char *nm = pr_trace_str(t, lw->part[order[i]].name);
        struct pr_row_peer_wait_part row = {0};
        char bare[300];

        snprintf(bare, sizeof(bare), "%.*s", bare_len(nm), nm);
        row.name = bare;
        row.us = (double)lw->part[order[i]].wait / 1e3 / (double)n_steps;
        row.total_us = (double)lw->part[order[i]].dur / 1e3 / (double)n_steps;
        if (!pr_rows_write(arr, PR_RO_RUNS_CRITICAL_PATH_PEER_WAIT_PARTS, &row,
                           1))
            *ok = 0;
    }
    return arr;
}

/* The collectives on the paths that waited for a peer the trace does not
 * hold (peer_waits): what the replay keeps, and why no change on this
 * rank shortens the step through them (review 7 finding 1). */
static void
emit_peer(struct pr_cp_ctx *c, const struct lwait *lw, size_t n_steps,
          struct cp_out *o, cJSON **parts, int *ok)
{
    const struct pr_trace *t = c->t;
    char who[400];
    const char *nm;
    int32_t p, rank[PEERS_MAX];
    int64_t both, wait[PEERS_MAX];

    o->r.peer_wait_note = NULL;
    o->r.peer_wait_us = NAN;
    o->r.peer_wait_rank = NAN;
    o->r.peer_wait_longest = NULL;
    o->r.peer_wait_longest_us = NAN;
    o->r.peer_wait_parts = NULL;
    if (lw->peer_n == 0 || n_steps == 0)
        return;
    *parts = emit_parts(t, lw, n_steps, ok);
    o->r.peer_wait_parts = *parts;
    if (lw->peer_rank >= 0)
        o->r.peer_wait_rank = (double)lw->peer_rank;
    if (lw->peer_rank >= 0 && late_group(c, lw, &p, &both) &&
        rank_waits(c, lw->peer_node_ev, rank, wait) > 1)
        /* review 11 #3: CANN 6's ranks 2 and 3 came 3.11 ms apart after
           waits of 32.75 and 29.64 ms */
        snprintf(who, sizeof(who),
                 "The peers it waited for, ranks %d and %d (of its waits "
                 "begun before its first transfer, the two that ended last, "
                 "%.2f ms apart in %.*s: HCCL's dst ranks), are what bound "
                 "the step: find why ranks %d and %d are late (slower steps, "
                 "or their data loaders) first.",
                 (int)lw->peer_rank, (int)p, (double)(wait[0] - wait[1]) / 1e6,
                 bare_len(pr_trace_str(t, t->events[lw->peer_node_ev].name)),
                 pr_trace_str(t, t->events[lw->peer_node_ev].name),
                 (int)lw->peer_rank, (int)p);
    else if (lw->peer_rank >= 0)
        snprintf(who, sizeof(who),
                 "The peer it waited for, rank %d (of its waits begun "
                 "before its first transfer, the one that ended last was for "
                 "it: HCCL's dst rank), is what "
                 "bounds the step: find why rank %d is late (a slower step, "
                 "or its data loader) first.",
                 (int)lw->peer_rank, (int)lw->peer_rank);
    else
        snprintf(who, sizeof(who),
                 "The peer it waited for is what bounds the step: find the "
                 "slow rank (or its data loader) first.");
    o->r.peer_wait_us = (double)lw->peer_ns / 1e3 / (double)n_steps;
    nm = pr_trace_str(t, t->events[lw->peer_node_ev].name);
    /* the longest such wait and its collective: the communication
       finding's evidence, where the path enters from the peer after it
       (whatif.c) */
    snprintf(o->longest, sizeof(o->longest), "%.*s", bare_len(nm), nm);
    o->r.peer_wait_longest = o->longest;
    o->r.peer_wait_longest_us = (double)lw->peer_max_ns / 1e3;
    snprintf(
        o->peer_note, sizeof(o->peer_note),
        "On the steps' binding chains (the path this rank's step follows, "
        "through the late rank's notify), %zu collective%s spent half "
        "%s time or more in HCCL's Notify Wait tasks, waiting for a "
        "peer's notify (%.2f ms a step); the longest, %.*s, spent "
        "%.2f ms of its %.2f ms in them. A collective ends when its last peer "
        "arrives, not when this rank is ready, so the replay keeps "
        "its measured end: work saved before it on this rank "
        "lengthens that wait instead of shortening the step. %s",
        lw->peer_n, lw->peer_n == 1 ? "" : "s",
        lw->peer_n == 1 ? "its" : "their",
        (double)lw->peer_ns / 1e6 / (double)n_steps, bare_len(nm), nm,
        (double)lw->peer_max_ns / 1e6, (double)lw->peer_node_dur / 1e6, who);
    o->r.peer_wait_note = o->peer_note;
}

/* The "Set by another rank" part's name in step arr's last row (review
 * 10 #3: text_level1's row read "hcom_allReduce__586_3_1", the 22 ms
 * collective, though the part spans _0_1's 78.8 ms wait too): the span
 * it covers, from the step's start to the late rank's notify in the
 * collective the path enters at, and the peer-bound collectives before it
 * on the chain. */
static void
name_entry(const struct pr_cp_ctx *c, const struct sums *u, cJSON *arr, int *ok)
{
    const struct pr_cp_graph *g = &c->g;
    cJSON *st = cJSON_GetArrayItem(arr, cJSON_GetArraySize(arr) - 1), *p, *v;
    const struct pr_cp_node *x;
    const char *nm;
    char name[600], who[80];
    size_t len, i;
    int n = 0, w;

    if (u->entry == PR_CP_NONE || st == NULL || !*ok)
        return;
    x = &g->v[u->entry];
    if (x->ev == PR_CP_NONE)
        return;
    /* review 11 #7: the part runs to the end of the collective's whole
       Notify Wait (CANN 6: 42.72 ms), past rank 2's notify at +37.07 ms,
       so it is named for that span; the rank whose notify came last
       before the first transfer where no other collective is named (the
       label stays short enough for a table cell to show it whole) */
    if (x->peer_rank >= 0)
        snprintf(who, sizeof(who), "; last pre-transfer notify rank %d's",
                 (int)x->peer_rank);
    else
        who[0] = '\0';
    nm = pr_trace_str(c->t, c->t->events[x->ev].name);
    w = snprintf(name, sizeof(name), "(step start through %.*s's Notify Wait",
                 bare_len(nm), nm);
    len = w > 0 ? (size_t)w : 0;
    for (i = 0; i < g->n && n < 3 && len < sizeof(name); i++) {
        const struct pr_cp_node *y = &g->v[i];

        if (y->type != PR_CP_N_TASK || y->ev == PR_CP_NONE || !y->peer ||
            !y->on_path || !y->past_peer || i == u->entry)
            continue;
        nm = pr_trace_str(c->t, c->t->events[y->ev].name);
        w = snprintf(name + len, sizeof(name) - len, ", %.*s", bare_len(nm),
                     nm);
        len += w > 0 ? (size_t)w : 0;
        n++;
    }
    if (len < sizeof(name))
        snprintf(name + len, sizeof(name) - len, "%s)", n ? " included" : who);
    cJSON_ArrayForEach(p, pr_sget(st, PR_K_TOP))
    {
        if (!pr_sget_is(pr_sget_str(p, PR_K_KIND), PR_K_PEER_WAIT))
            continue;
        v = cJSON_CreateString(name);
        if (v == NULL || !pr_sput(p, PR_K_NAME, v)) {
            cJSON_Delete(v);
            *ok = 0;
        }
        return;
    }
}

/* Where the steps' paths enter from another rank (walk): how many
 * steps, the least slack of the work before the collective, the peer's
 * time, the step with the most of it and its collective. */
struct pentry {
    size_t n;
    int64_t slack, ns, max_ns;
    uint32_t max_ev;
    int64_t chain_comm, chain_aclop; /* every path step's, summed */
};

static void
note_entry(const struct pr_cp_graph *g, const struct sums *u, struct pentry *pe)
{
    pe->chain_comm = pr_sat_add_i64(pe->chain_comm, u->chain_comm);
    pe->chain_aclop = pr_sat_add_i64(pe->chain_aclop, u->chain_aclop);
    if (u->entry == PR_CP_NONE)
        return;
    if (pe->n == 0 || u->entry_slack < pe->slack)
        pe->slack = u->entry_slack;
    pe->n++;
    pe->ns = pr_sat_add_i64(pe->ns, u->entry_ns);
    if (u->entry_ns > pe->max_ns) {
        pe->max_ns = u->entry_ns;
        pe->max_ev = g->v[u->entry].ev;
    }
}

/* The path's entry from another rank in words (review 8 #3: the path
 * split counted the work before a peer-bound collective as on the path,
 * though the replay gives it no leverage). */
static void
emit_entry(struct pr_cp_ctx *c, const struct pentry *pe, size_t n_steps,
           struct cp_out *o)
{
    const struct pr_trace *t = c->t;
    char slack[300];
    const char *nm;
    int len;
    int32_t rank[PEERS_MAX];
    int64_t wait[PEERS_MAX];

    o->r.peer_entry_note = NULL;
    o->r.peer_entry_slack_us = NAN;
    o->r.peer_chain_comm_us = NAN;
    o->r.peer_chain_aclop_us = NAN;
    if (pe->n == 0 || n_steps == 0)
        return;
    o->r.peer_entry_slack_us = (double)pe->slack / 1e3;
    /* the chain the path would take were the peer on time: what levers
       on this rank save at most then (whatif.c) */
    o->r.peer_chain_comm_us = (double)pe->chain_comm / 1e3 / (double)n_steps;
    o->r.peer_chain_aclop_us = (double)pe->chain_aclop / 1e3 / (double)n_steps;
    nm = pr_trace_str(t, t->events[pe->max_ev].name);
    len = bare_len(nm);
    /* review 11 #7: the replay's slack is the collective's whole Notify
       Wait (CANN 6 rank0: 38.43 ms), but 5.68 ms of it began after the
       first transfer; this rank arriving later shortens only the wait
       begun before it, the last peer's (32.75 ms) */
    if (pe->n == 1 && rank_waits(c, pe->max_ev, rank, wait) > 0 &&
        rank[0] >= 0 && wait[0] < pe->slack) {
        int w = snprintf(slack, sizeof(slack),
                         "about %.2f ms of slack (its wait for rank %d's "
                         "notify, begun before its first transfer",
                         (double)wait[0] / 1e6, (int)rank[0]);

        /* the rest of the wait began after the first transfer: said
           where it is 1% of the wait or more (CANN 6: 5.68 ms) */
        if (w > 0 && (size_t)w < sizeof(slack) &&
            100 * (pe->slack - wait[0]) >= pe->slack)
            snprintf(slack + w, sizeof(slack) - (size_t)w,
                     "; the replay allows the collective's whole Notify "
                     "Wait, %.2f ms)",
                     (double)pe->slack / 1e6);
        else if (w > 0 && (size_t)w < sizeof(slack))
            snprintf(slack + w, sizeof(slack) - (size_t)w, ")");
    } else
        snprintf(slack, sizeof(slack), "%.2f ms of slack at most%s",
                 (double)pe->slack / 1e6,
                 pe->n > 1 ? " in the step with the least" : "");
    snprintf(o->entry_note, sizeof(o->entry_note),
             "In %zu of %zu step%s the path enters from another rank: at "
             "%.*s%s, a collective that ended when a peer's notify came, "
             "later than this rank's own work lets it end, so the replay "
             "keeps its measured end. The step's time through that "
             "collective's Notify Wait "
             "(%.2f ms a step) is set by that rank (kind \"Set by another "
             "rank\"): of it, this rank's own Notify Wait tasks take %.2f ms "
             "a step (peer_wait_us), the rest is its own work, which ran "
             "before %.*s with %s, so it is off the "
             "path: shortening it does not shorten the step.",
             pe->n, n_steps, n_steps == 1 ? "" : "s", len, nm,
             pe->n > 1 ? " (in the step with the most of it)" : "",
             (double)pe->ns / 1e6 / (double)n_steps, o->r.peer_wait_us / 1e3,
             len, nm, slack);
    o->r.peer_entry_note = o->entry_note;
}

/* Each peer's wait in collective ev (first_transfer): its longest
 * Notify Wait for that rank that began before the first transfer, whole; the
 * peers by wait, longest first (at most PEERS_MAX) into o's "waits".  Where the
 * ranks here wait for each other, the one the others wait longest for arrived
 * last of them (text_level1: rank0 waits 5.62 ms for rank 1 at
 * hcom_allReduce__586_0_1's start, msprof's Synchronization). */

/* Each peer's wait in collective ev, by first_transfer's reading, into
 * rank[] / wait[] (PEERS_MAX each), longest first (rank breaks ties);
 * how many. */
static size_t
rank_waits(struct pr_cp_ctx *c, uint32_t ev, int32_t *rank, int64_t *wait)
{
    const struct pr_event *e = &c->t->events[ev];
    struct pr_cp_node x;
    int32_t last;
    int64_t ft;
    size_t n = 0, i, k;

    memset(&x, 0, sizeof(x));
    x.s = e->ts_ns;
    x.e = pr_sat_add_i64(e->ts_ns, e->dur_ns);
    ft = first_transfer(c, &x, &last);
    for (i = 0; i < c->n_hccl && c->hccl[i].ts_ns < ft; i++) {
        const struct pr_hccl_task *h = &c->hccl[i];
        /* whole: a wait that began before the first transfer waited for
           that rank's arrival however long it ran (msprof_cann6: rank 2's
           notify came 3.1 ms after the transfer that rank 3's allowed;
           cut there, its 32.75 ms read 29.62 ms: review 9 #4) */
        int64_t w = h->end_ns - h->ts_ns;

        if (!h->wait || h->ts_ns < x.s)
            continue;
        for (k = 0; k < n && rank[k] != h->peer; k++)
            ;
        if (k == n) {
            if (n == PEERS_MAX)
                continue;
            rank[n] = h->peer;
            wait[n++] = w;
        } else if (w > wait[k])
            wait[k] = w;
    }
    for (i = 1; i < n; i++) /* by wait, longest first; rank breaks ties */
        for (k = i;
             k > 0 && (wait[k] > wait[k - 1] ||
                       (wait[k] == wait[k - 1] && rank[k] < rank[k - 1]));
             k--) {
            int32_t r = rank[k];
            int64_t w = wait[k];

            rank[k] = rank[k - 1];
            wait[k] = wait[k - 1];
            rank[k - 1] = r;
            wait[k - 1] = w;
        }
    return n;
}

static void
emit_peer_waits(struct pr_cp_ctx *c, uint32_t ev, cJSON *arr, int *ok)
{
    int32_t rank[PEERS_MAX];
    int64_t wait[PEERS_MAX];
    size_t n, i;

    n = rank_waits(c, ev, rank, wait);
    for (i = 0; i < n && *ok; i++) {
        struct pr_row_late_wait r = {0};

        r.rank = (double)rank[i];
        r.wait_us = (double)wait[i] / 1e3;
        *ok = pr_rows_write(arr, PR_RO_RUNS_LATE_PEER_WAITS, &r, 1);
    }
}

/* note_split's pair: the two latest ranks of a collective's waits,
 * what both on time and what the latest alone on time save there. */
static void
note_pair(struct lwait *lw, const int32_t *rank, const int64_t *wait, size_t n)
{
    int32_t a = rank[0] < rank[1] ? rank[0] : rank[1];
    int32_t b = rank[0] < rank[1] ? rank[1] : rank[0];
    size_t k;

    for (k = 0; k < lw->n_pair && (lw->pair[k].a != a || lw->pair[k].b != b);
         k++)
        ;
    if (k == PEERS_MAX)
        return;
    if (k == lw->n_pair) {
        lw->pair[k].a = a;
        lw->pair[k].b = b;
        lw->pair[k].both_ns = lw->pair[k].first_ns = 0;
        lw->n_pair++;
    }
    lw->pair[k].both_ns =
        pr_sat_add_i64(lw->pair[k].both_ns, wait[0] - (n > 2 ? wait[2] : 0));
    lw->pair[k].first_ns =
        pr_sat_add_i64(lw->pair[k].first_ns, wait[0] - wait[1]);
}

/* The step's peer-bound collectives on its path (note_waits' reading),
 * split (review 10 #1): each one's Notify Wait by name, the parts of the
 * bound; and, for the rank whose notify came last in it, the wait that
 * goes away when that rank alone arrives on time, every other rank as
 * measured: its wait less the next-latest rank's (text_level1 rank0:
 * hcom_allReduce__586_0_1 78.76 ms for rank 5 less 5.62 ms for rank 1,
 * and all of _3_1's 21.98 ms, where only rank 5 is waited for).  A
 * collective whose waits name no rank adds to no rank's. */
static void
note_split(struct pr_cp_ctx *c, struct lwait *lw)
{
    const struct pr_cp_graph *g = &c->g;
    size_t i, k;

    for (i = 0; i < g->n; i++) {
        const struct pr_cp_node *x = &g->v[i];
        int32_t rank[PEERS_MAX];
        int64_t wait[PEERS_MAX];
        size_t n;
        uint32_t name;

        if (x->type != PR_CP_N_TASK || x->ev == PR_CP_NONE || !x->peer ||
            !x->on_path)
            continue;
        name = c->t->events[x->ev].name;
        for (k = 0; k < lw->n_part && lw->part[k].name != name; k++)
            ;
        if (k < PARTS_MAX) {
            if (k == lw->n_part) {
                lw->part[k].name = name;
                lw->n_part++;
            }
            lw->part[k].wait = pr_sat_add_i64(lw->part[k].wait, x->peer_wait);
            lw->part[k].dur = pr_sat_add_i64(lw->part[k].dur, x->dur);
        }
        n = rank_waits(c, x->ev, rank, wait);
        if (n == 0)
            continue;
        for (k = 0; k < lw->n_alone && lw->alone_rank[k] != rank[0]; k++)
            ;
        if (k == PEERS_MAX)
            continue;
        if (k == lw->n_alone) {
            lw->alone_rank[k] = rank[0];
            lw->alone_ns[k] = 0;
            lw->n_alone++;
        }
        lw->alone_ns[k] =
            pr_sat_add_i64(lw->alone_ns[k], wait[0] - (n > 1 ? wait[1] : 0));
        if (n > 1)
            note_pair(lw, rank, wait, n);
    }
}

/* The late rank's group (review 11 #3: msprof_cann6 rank0 waits 32.75
 * ms for rank 2 and 29.64 ms for rank 3, so rank 2 alone on time saves
 * 3.11 ms): the next-latest rank in the longest peer-bound collective
 * joins it where the late rank alone on time saves less than half of
 * what both on time save, every other rank as measured (in each
 * collective, the latest wait less the latest for a rank outside the
 * two).  1 and *partner, *both_ns (summed over the steps) where it
 * does. */
static int
late_group(struct pr_cp_ctx *c, const struct lwait *lw, int32_t *partner,
           int64_t *both_ns)
{
    int32_t rank[PEERS_MAX], p = -1;
    int64_t wait[PEERS_MAX], alone = 0, alone_p = 0, both = 0, first = 0;
    size_t n, k;

    if (lw->peer_n == 0 || lw->peer_rank < 0)
        return 0;
    n = rank_waits(c, lw->peer_node_ev, rank, wait);
    for (k = 0; k < n && p < 0; k++)
        if (rank[k] != lw->peer_rank && wait[k] > 0)
            p = rank[k];
    if (p < 0)
        return 0;
    for (k = 0; k < lw->n_alone; k++) {
        if (lw->alone_rank[k] == lw->peer_rank)
            alone = lw->alone_ns[k];
        else if (lw->alone_rank[k] == p)
            alone_p = lw->alone_ns[k];
    }
    for (k = 0; k < lw->n_pair; k++)
        if (lw->pair[k].a == (p < lw->peer_rank ? p : lw->peer_rank) &&
            lw->pair[k].b == (p < lw->peer_rank ? lw->peer_rank : p)) {
            both = lw->pair[k].both_ns;
            first = lw->pair[k].first_ns;
        }
    /* where the two came last and next-to-last the third-latest's wait
       stays; elsewhere each one alone's */
    both = pr_sat_add_i64(pr_sat_add_i64(alone, alone_p) - first, both);
    if (!(alone < both - alone))
        return 0;
    *partner = p;
    *both_ns = both;
    return 1;
}

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : x > y;
}

/* Whether the first of the steps is a warm-up, by the verdict's rule
 * (whatif.c warmup_first): 3 steps or more, the first over twice the
 * median step. */
static int
warmup_step(const struct pr_steps *s)
{
    int64_t *d, med;
    size_t i;
    int w;

    if (s->n < 3 || (d = malloc(s->n * sizeof(*d))) == NULL)
        return 0;
    for (i = 0; i < s->n; i++)
        d[i] = s->v[i].end_ns - s->v[i].start_ns;
    qsort(d, s->n, sizeof(*d), cmp_i64);
    med = s->n % 2 ? d[s->n / 2] : (d[s->n / 2 - 1] + d[s->n / 2]) / 2;
    w = med > 0 && s->v[0].end_ns - s->v[0].start_ns > 2 * med;
    free(d);
    return w;
}

/* lw less what its first step (w0, lw as it stood after it) added: the
 * late-peer sums of the steps after a warm-up first step (hunt30 #2:
 * mindinsight's 10-iteration CANN 6 job, rank0's 32.75 ms wait for rank
 * 2 in iteration 1 alone, spread as 3.3 ms a step over all ten). */
static void
lw_less(struct lwait *lw, const struct lwait *w0)
{
    size_t k, j;

    lw->peer_ns -= w0->peer_ns;
    for (k = 0; k < lw->n_alone; k++)
        for (j = 0; j < w0->n_alone; j++)
            if (w0->alone_rank[j] == lw->alone_rank[k])
                lw->alone_ns[k] -= w0->alone_ns[j];
    for (k = 0; k < lw->n_pair; k++)
        for (j = 0; j < w0->n_pair; j++)
            if (w0->pair[j].a == lw->pair[k].a &&
                w0->pair[j].b == lw->pair[k].b) {
                lw->pair[k].both_ns -= w0->pair[j].both_ns;
                lw->pair[k].first_ns -= w0->pair[j].first_ns;
            }
}

/* The same in a run member a lite run keeps (runs[].late_peer), for the
 * job's late rank (job.c late_rank): the rank, the wait, the longest
 * collective and each peer's wait in it; null where no peer is named. w0: the
 * sums after a warm-up first step (warmup_step), whose wait the per-step
 * figures leave out as the verdict's shares do; NULL: none. */
static void
emit_late_peer(struct pr_cp_ctx *c, const struct lwait *lw_all,
               const struct lwait *w0, size_t n_steps, cJSON *run, int *ok)
{
    struct pr_row_late_peer r = {0};
    struct lwait steady;
    const struct lwait *lw = lw_all;
    cJSON *waits;
    size_t k;
    int32_t p;
    int64_t both;

    if (lw->peer_n == 0 || n_steps == 0 || lw->peer_rank < 0) {
        pr_emit_null(run, PR_K_LATE_PEER, ok);
        return;
    }
    r.first_step_pct = NAN;
    if (w0 != NULL && n_steps > 1) {
        r.first_step_pct = lw_all->peer_ns > 0 ? 100.0 * (double)w0->peer_ns /
                                                     (double)lw_all->peer_ns
                                               : 0.0;
        steady = *lw_all;
        lw_less(&steady, w0);
        lw = &steady;
        n_steps--;
    }
    waits = cJSON_CreateArray();
    *ok = *ok && waits != NULL;
    if (*ok)
        emit_peer_waits(c, lw->peer_node_ev, waits, ok);
    for (k = 0; k < lw->n_alone && lw->alone_rank[k] != lw->peer_rank; k++)
        ;
    r.rank = (int64_t)lw->peer_rank;
    r.peer_wait_us = (double)lw->peer_ns / 1e3 / (double)n_steps;
    r.name = pr_trace_str(c->t, c->t->events[lw->peer_node_ev].name);
    r.waits = waits;
    r.alone_us =
        k < lw->n_alone ? (double)lw->alone_ns[k] / 1e3 / (double)n_steps : 0.0;
    r.group_rank = NAN;
    r.group_us = NAN;
    if (late_group(c, lw, &p, &both)) {
        r.group_rank = (double)p;
        r.group_us = (double)both / 1e3 / (double)n_steps;
    }
    pr_emit_one(run, PR_K_LATE_PEER, PR_RO_RUNS_LATE_PEER, &r, ok);
    cJSON_Delete(waits);
}

static size_t
bound_index(const char *b)
{
    return strcmp(b, "host") == 0     ? 0
           : strcmp(b, "device") == 0 ? 1
           : strcmp(b, "copy") == 0   ? 2
                                      : 3;
}

enum pr_status
pr_critpath_fill(const struct pr_trace *t, const struct pr_steps *s,
                 const struct pr_whatif_in *in, cJSON *run,
                 double *max_error_pct, int *unlinked_wait,
                 struct pr_error *err)
{
    struct pr_cp_ctx c;
    struct pr_whatif_acc *wa = pr_whatif_acc_new();
    struct sums u;
    struct cp_out *o = calloc(1, sizeof(*o));
    cJSON *arr = NULL, *parts = NULL, *what_if = NULL, *cp = NULL;
    int64_t kind_total[PR_CP_KIND_COUNT] = {0};
    size_t bounds[4] = {0}, i, j, n_paths = 0;
    double worst = 0.0, worst_rec = 0.0, worst_lead = 0.0, gate, gap;
    double worst_gap = 0.0;
    size_t worst_step = 0;
    struct lwait lw, lw0;
    struct pentry pe;
    int warm = warmup_step(s);
    int ok = o != NULL && wa != NULL, partial, unrec;
    char pipe[600];
    enum pr_status st = PR_OK;

    memset(&c, 0, sizeof(c));
    memset(&u, 0, sizeof(u));
    u.t = t;
    memset(&lw, 0, sizeof(lw));
    memset(&lw0, 0, sizeof(lw0));
    memset(&pe, 0, sizeof(pe));
    lw.peer_rank = -1;
    c.t = t;
    c.err = err;
    c.serial = serial_device(t);
    c.timed_calls = timed_calls(t);
    c.enq_name = pr_strtab_find(t->strs, "Enqueue", 7);
    c.serial_last = PR_CP_NONE;
    pr_names_init(&c.names, t);
    partial = pr_producer_tasks_partial(run);
    unrec = pr_producer_pipeline_note(run, pipe, sizeof(pipe)) ==
            PR_PIPE_SLOW_STAGE;
    arr = cJSON_CreateArray();
    ok = ok && arr != NULL;
    /* Kernels measured by CUPTI's range profiler carry no timing (their
       ranges are spread evenly over the span, and kernel replay stalls the
       launches): a path through them would be made up, so there is none
       (issue #29).  Nor through an extract of the tasks (review22a #2):
       its gaps hold the tasks it left out, not idle time; nor through a
       list under half the step table's device time (review23a #3) */
    for (i = 0; t->replayed_kernels == 0 && t->extract_rows == 0 && !partial &&
                i < s->n && ok && st == PR_OK;
         i++) {
        double e = 0.0, r = 0.0;

        c.capture = s->basis == PR_STEPS_BASIS_CAPTURE;
        st = build_step(&c, pr_step_host_side_start(s, &s->v[i]),
                        s->v[i].end_ns);
        if (st != PR_OK)
            break;
        sums_reset(&u);
        walk(&c.g, &u, capture_lead(&c), err);
        u.lead = 0; /* what the path's first edge did not hold */
        comm_within_collectives(&c.g, &u, err);
        ok = ok && !u.failed;
        note_waits(t, &c.g, &lw);
        note_polls(&c, &lw);
        note_idle(t, &c.g, &lw);
        note_split(&c, &lw);
        if (i == 0 && warm)
            lw0 = lw; /* its sums; the maps it points to are not read */
        emit_step(t, &s->v[i], &c.g, &u, unrec, arr, &e, &r, &ok);
        name_entry(&c, &u, arr, &ok);
        /* what-ifs only where the replay reproduces the step (e leaves a
           capture's lead-in and a step's unrecorded tail out: no replay's
           miss; each change's gain is the replays' difference).  A
           capture's ends are the profiler's window, which no change
           moves; a step's tail is time its marker counts and the trace
           says nothing of, so a change's effect on it is not known: a
           step whose tail is over the error's 2% is not replayed
           (tests/data/mindspore/data_queue: 0.8 ms of each 10 ms step) */
        gate = e;
        if (!c.capture && !isnan(e) && c.g.we > c.g.ws)
            gate += 100.0 * (double)unrecorded_tail(&c.g) /
                    (double)(c.g.we - c.g.ws);
        if (ok && !isnan(gate) && gate <= PR_WHATIF_MAX_ERROR_PCT)
            st = pr_whatif_step(t, &c.g, in, wa, u.lead_cut,
                                unrecorded_tail(&c.g), err);
        else if (ok)
            pr_whatif_skip(wa);
        if (st != PR_OK)
            break;
        if (isnan(e)) {
            warm = warm && i > 0; /* a warm-up without a path: none */
            continue;             /* no path */
        }
        n_paths++;
        note_entry(&c.g, &u, &pe);
        worst = e > worst || n_paths == 1 ? e : worst;
        /* the note names the step with the largest unrecorded ends, which
           the error leaves out (review 27 #3) */
        gap = c.g.we > c.g.ws ? (double)(u.lead_cut + unrecorded_tail(&c.g)) /
                                    (double)(c.g.we - c.g.ws)
                              : 0.0;
        if (gap > worst_gap || n_paths == 1) {
            worst_gap = gap;
            worst_step = i;
            worst_lead = (double)u.lead_cut / 1000.0;
        }
        worst_rec = r > worst_rec ? r : worst_rec;
        for (j = 0; j < PR_CP_KIND_COUNT; j++)
            kind_total[j] = pr_sat_add_i64(kind_total[j], u.kind[j]);
        if (strcmp(step_bound(u.kind, unrec, &s->v[i]), "idle") != 0)
            bounds[bound_index(step_bound(u.kind, unrec, &s->v[i]))]++;
    }
    /* the row filled, then written once in its rows' order */
    if (st == PR_OK && ok) {
        emit_run(o, kind_total, bounds, n_paths, worst, c.serial);
        emit_error_note(o, arr, n_paths, worst_rec, worst_step, worst_lead);
        o->r.no_path_reason = t->replayed_kernels > 0 ? "kernel_replay"
                              : t->extract_rows > 0   ? "task_list_extract"
                              : partial               ? "tasks_incomplete"
                                                      : NULL;
        /* one window without a name: the capture (issue #29) */
        lw.capture = s->n == 1 && s->v[0].name == PR_STR_NONE;
        emit_waits(t, &lw, n_paths, o);
        emit_held(t, &lw, n_paths, o);
        emit_polls(t, &lw, n_paths, o);
        emit_idle(t, &lw, n_paths, run, kind_total[PR_CP_STREAM_WAIT], o);
        emit_peer(&c, &lw, n_paths, o, &parts, &ok);
        emit_entry(&c, &pe, n_paths, o);
        emit_late_peer(&c, &lw, warm ? &lw0 : NULL, n_paths, run, &ok);
        o->r.optimizer_impl = pr_whatif_optimizer_impl(t, &ok);
        {
            struct pr_whatif_opt_state os;

            /* null where the trace has no optimizer step */
            o->r.optimizer_state_calls = o->r.optimizer_state_kernels =
                o->r.optimizer_state_steps = o->r.optimizer_state_ranges =
                    o->r.optimizer_state_step_kernels =
                        o->r.optimizer_state_host_us = NAN;
            o->r.optimizer_state_first = -1;
            /* out of memory fails the run, as every analysis does */
            if (!pr_whatif_optimizer_state(t, &os))
                ok = 0;
            else if (os.steps > 0) {
                o->r.optimizer_state_calls = (double)os.calls;
                o->r.optimizer_state_kernels = (double)os.kernels;
                o->r.optimizer_state_steps = (double)os.steps;
                o->r.optimizer_state_first = os.first_only;
                o->r.optimizer_state_ranges = (double)os.ranges;
                o->r.optimizer_state_step_kernels = (double)os.step_kernels;
                o->r.optimizer_state_host_us = (double)os.host_ns / 1e3;
            }
        }
        what_if = pr_whatif_rows(t, wa, &o->r.what_if_steps, &ok);
        /* gradient accumulation needs gradients: a run with operators and
           no backward pass (an inference server, review 28h #6) has none;
           a program the trace shows no framework in (a CUDA code under
           nsys: no operator, no framework) has no batch the trace can
           see, so neither replay speaks for it (review 28h #8: an MPI
           saxpy's "twice the batch" spread MPI_Init over twice the
           samples) */
        if (what_if != NULL && (pr_run_trains(run) == 0 ||
                                pr_run_no_framework(run) || lw.poll_all_n)) {
            int no_fw = pr_run_no_framework(run);
            int no_grad = pr_run_trains(run) == 0 || no_fw;
            cJSON *w = what_if->child;

            while (w != NULL) {
                cJSON *next = w->next;

                /* a host that spins on a kernel's counter (host_poll)
                   syncs with the device inside the step: no CUDA graph
                   captures that (review of issue #28 (1)) */
                if ((lw.poll_all_n &&
                     pr_sget_is(pr_sget_str(w, PR_K_ID), "launch_bound")) ||
                    (no_grad && pr_sget_is(pr_sget_str(w, PR_K_ID),
                                           "gradient_accumulation")) ||
                    /* no gradients, no DDP buckets either: tensor-parallel
                       all-reduces feed the next layer (review 29 #3) */
                    (no_grad &&
                     pr_sget_is(pr_sget_str(w, PR_K_ID), "small_allreduce")) ||
                    (no_fw && pr_sget_is(pr_sget_str(w, PR_K_ID),
                                         "low_gpu_utilization")))
                    cJSON_Delete(cJSON_DetachItemViaPointer(what_if, w));
                w = next;
            }
        }
        o->r.what_if = what_if;
        o->r.steps = arr;
        cp = ok ? pr_rows_row(PR_RO_RUNS_CRITICAL_PATH, &o->r) : NULL;
        ok = ok && cp != NULL;
    }
    cJSON_Delete(arr);
    cJSON_Delete(parts);
    cJSON_Delete(what_if);
    if (unlinked_wait != NULL)
        *unlinked_wait = o != NULL && o->unlinked;
    free(o);
    free(u.top);
    pr_idmap_free(&u.ix);
    pr_whatif_acc_free(wa);
    pr_idmap_free(&lw.launch_ix.map);
    pr_idmap_free(&lw.qlaunch_ix.map);
    free(lw.floor_w);
    ctx_free(&c);
    if (max_error_pct != NULL)
        *max_error_pct = n_paths ? worst : NAN;
    if (st != PR_OK) {
        cJSON_Delete(cp);
        return st;
    }
    if (!ok) {
        cJSON_Delete(cp);
        return pr_error_set(err, PR_E_NOMEM, "out of memory (critical path)");
    }
    return pr_emit_put(run, PR_K_CRITICAL_PATH, cp, "critical path", err);
}
