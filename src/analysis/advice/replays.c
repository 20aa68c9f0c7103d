/* replays.c - the what-ifs of the findings that only had a ceiling
 * (issue #31: every recommendation carries a gain from the critical-path
 * replay).  Each edits a step's graph (critpath.h) as its fix would, the
 * way whatif.c's scenarios do, and whatif.c replays it:
 *
 * - device_copies: a CUDA-graphed compiled function's wrapper copies
 *   gone (torch 2.0's "cudagraphs" backend copies every input into the
 *   graph's static inputs and clones every output; Inductor's CUDA-graph
 *   trees copy neither parameters, buffers and inputs already in the
 *   graphs' pool, nor outputs);
 * - slow_dispatch: the named trivial operators' host time at a healthy
 *   dispatch's 2 us a call;
 * - small_allreduce: a step's small NCCL all-reduces merged into DDP's
 *   25 MB buckets, each bucket one call;
 * - aclop_binary (backs op_compile): each aclop call's host time at what
 *   a binary kernel of its class costs in the same export (the median
 *   Dequeue@aclnn span of that class, else both phases' medians:
 *   aclnn execution plus GetWorkspaceSize).
 *
 * The scenarios never touch measured values (s, e), only replay inputs
 * (dur, w, edge weights, host pieces); whatif.c restores the graph. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/checked.h"
#include "profreport/comm.h"
#include "profreport/critpath.h"
#include "profreport/whatif.h"

#include "../internal.h"

static int
has(const char *s, const char *sub)
{
    return strstr(s, sub) != NULL;
}

static const char *
str_of(const struct pr_trace *t, uint32_t id)
{
    return id != PR_STR_NONE ? pr_trace_str(t, id) : "";
}

static const char *
node_str(const struct pr_trace *t, const struct pr_cp_node *n)
{
    return str_of(t, n->name);
}

/* The operator a node ran for, else its own name (whatif.c's ev_name). */
static uint32_t
op_name(const struct pr_trace *t, const struct pr_cp_node *n)
{
    if (n->op_ev != PR_CP_NONE && n->op_ev < t->n_events)
        return t->events[n->op_ev].name;
    return n->name;
}

/* The part of a call's name after the producer's "AscendCL@" prefix. */
static const char *
fn_of(const char *call)
{
    const char *at = strrchr(call, '@');

    return at != NULL ? at + 1 : call;
}

/* Set a host node's pieces of `name` (edge 0's weight) to ns a piece
 * times k, and the edge's weight by the change; the time taken off. */
static int64_t
scale_pieces(struct pr_cp_graph *g, uint32_t first, uint32_t n, uint32_t name,
             double k, int64_t *w)
{
    int64_t d = 0;
    uint32_t i;

    for (i = 0; i < n; i++) {
        struct pr_cp_piece *p = &g->pc[first + i];
        int64_t to;

        if (p->name != name || p->ns <= 0)
            continue;
        to = (int64_t)((double)p->ns * k);
        d += p->ns - to;
        p->ns = to;
    }
    if (w != NULL && *w != PR_CP_GONE)
        *w -= d;
    return d;
}

/* Host edge i of g (its nodes' edge 0, then the end's edges): its
 * pieces, weight and whether the unchanged path runs through it; 0 when
 * node i has no host edge. */
static int
host_edge(struct pr_cp_graph *g, size_t i, uint32_t *first, uint32_t *n,
          int64_t **w, int *on_path)
{
    if (i < g->n) {
        struct pr_cp_node *h = &g->v[i];

        if ((h->type != PR_CP_N_HOST && h->type != PR_CP_N_SYNC) ||
            h->n_pred == 0)
            return 0;
        *first = h->pc_first;
        *n = h->pc_n;
        *w = &h->pw[0];
        *on_path = h->on_path;
        return 1;
    }
    i -= g->n;
    *first = g->end_pc_first[i];
    *n = g->end_pc_n[i];
    *w = &g->end_w[i];
    *on_path = (uint32_t)i == g->end_bind;
    return 1;
}

/* ------------------------------------------------------ the cache */

/* A CUDA-graphed compiled function's call (CompiledFunction or
 * CompiledFunctionBackward with a graph launch inside, on its thread). */
struct cf_span {
    int64_t s, e;
    uint32_t pid, tid;
};

/* A Dequeue@aclnn* span: its operator's class (op_class) and time. */
struct dq_span {
    char cls[24];
    int64_t ns;
    int64_t s; /* where it ran: an aclop call's enclosing Dequeue@<type> */
    uint32_t pid, tid;
    int aclnn; /* Dequeue@aclnn*: a binary kernel's issue */
};

struct pr_replay_cache {
    const struct pr_trace *t; /* what it was built for */
    struct cf_span *cf;
    size_t n_cf;
    double ar_gbps;     /* the largest all-reduces' bandwidth; NaN unknown */
    int64_t aclnn_ns;   /* median binary-kernel launch call; -1 none */
    int64_t gws_ns;     /* median aclnn*GetWorkspaceSize call; -1 none */
    int64_t heavy_ns;   /* the largest class median of the aclnn matmul,
                           convolution and pooling operators; -1 none */
    char heavy_cls[24]; /* that class */
    struct dq_span *dq; /* the Dequeue@aclnn* spans (an aclnn operator's
                           whole issue on torch_npu's dequeue thread) */
    size_t n_dq;
};

struct pr_replay_cache *
pr_replay_cache_new(void)
{
    return calloc(1, sizeof(struct pr_replay_cache));
}

void
pr_replay_cache_free(struct pr_replay_cache *c)
{
    if (c == NULL)
        return;
    free(c->cf);
    free(c->dq);
    free(c);
}

/* An operator's class for the aclop floor (review 7 #4): its name after
 * the producer's prefix ("Dequeue@", "aclnn", "aten::"), lower case,
 * without '_', up to its first digit or "with" / "grad" / "backward" /
 * "backprop": Conv2DBackpropFilter and aclnnConvolution are "conv" and
 * "convolution", MaxPoolGradWithArgmaxV1 and aclnnMaxPool2dWithMask
 * "maxpool". */
static void
op_class(const char *n, char *cls, size_t cap)
{
    const char *p = strrchr(n, '@'), *q = strstr(n, "::");
    size_t k = 0;

    n = q != NULL ? q + 2 : p != NULL ? p + 1 : n;
    if (strncmp(n, "aclnn", 5) == 0)
        n += 5;
    for (; *n != '\0' && k + 1 < cap; n++) {
        char ch = *n >= 'A' && *n <= 'Z' ? (char)(*n - 'A' + 'a') : *n;

        if (ch == '_')
            continue;
        if (!(ch >= 'a' && ch <= 'z'))
            break;
        cls[k++] = ch;
        cls[k] = '\0';
        if (k > 4 &&
            (strstr(cls, "with") != NULL || strstr(cls, "grad") != NULL ||
             strstr(cls, "backward") != NULL ||
             strstr(cls, "backprop") != NULL))
            break;
    }
    cls[k] = '\0';
    for (p = "with\0grad\0backward\0backprop\0"; *p != '\0';
         p += strlen(p) + 1) {
        q = strstr(cls, p);
        if (q != NULL && q > cls)
            cls[q - cls] = '\0';
    }
}

/* 1 when classes a and b are the same operator class: one a prefix of
 * the other, of 4 letters or more, or the same short name ("mm"). */
static int
same_class(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), m = la < lb ? la : lb;

    return (m >= 4 && strncmp(a, b, m) == 0) || (la > 0 && strcmp(a, b) == 0);
}

/* An operator class with a tiling of its own, heavier to issue than an
 * elementwise operator's (CANN's matmul, convolution and pooling
 * kernels): conv and pool aclop calls whose class the export runs no
 * aclnn operator of take their floor from these (review 8 #7: the
 * elementwise-dominated two-phase medians, 29 us on msprof_npu_out, were
 * too low for a Conv2D whose aclnn kin issue in 35-57 us). */
static int
heavy_class(const char *cls)
{
    static const char *const kin[] = {"mm",      "addmm",   "bmm",
                                      "baddbmm", "matmul",  "conv",
                                      "maxpool", "avgpool", "adaptiveavgpool"};
    size_t i, n;

    for (i = 0; i < sizeof(kin) / sizeof(kin[0]); i++) {
        n = strlen(kin[i]);
        if (n < 4 ? strcmp(cls, kin[i]) == 0 : strncmp(cls, kin[i], n) == 0)
            return 1;
    }
    return 0;
}

static int64_t class_median(const struct pr_replay_cache *c, const char *cls);

/* c's heavy_ns: the largest median Dequeue@aclnn span among the export's
 * heavy classes (heavy_class), each class's median taken once (the first
 * 16 classes seen: a model runs a handful). */
static void
heavy_floor(struct pr_replay_cache *c)
{
    char seen[16][24];
    size_t i, j, n_seen = 0;

    for (i = 0; i < c->n_dq; i++) {
        const struct dq_span *d = &c->dq[i];
        int64_t m;

        if (!d->aclnn || !heavy_class(d->cls))
            continue;
        for (j = 0; j < n_seen && strcmp(seen[j], d->cls) != 0; j++)
            ;
        if (j < n_seen || n_seen == sizeof(seen) / sizeof(seen[0]))
            continue; /* its class taken already, or too many */
        snprintf(seen[n_seen++], sizeof(seen[0]), "%s", d->cls);
        m = class_median(c, d->cls);
        if (m > c->heavy_ns) {
            c->heavy_ns = m;
            snprintf(c->heavy_cls, sizeof(c->heavy_cls), "%s", d->cls);
        }
    }
}

static int
graph_launch(const char *n)
{
    return strcmp(n, "cudaGraphLaunch") == 0 || strcmp(n, "cuGraphLaunch") == 0;
}

static int
compiled_fn(const char *n)
{
    return strcmp(n, "CompiledFunction") == 0 ||
           strcmp(n, "CompiledFunctionBackward") == 0;
}

/* A small all-reduce: an NCCL AllReduce kernel of under SMALL bytes
 * (its "In msg nelems" x dtype), or, unsized, one of a step's
 * SMALL_AR_UNSIZED or more (pathrules.c's SMALL_AR_CALLS: the call
 * pattern, not the kernel's name, which since NCCL's generic kernels
 * carries _LL_ whatever protocol ran). */
#define SMALL_AR_BYTES (1024.0 * 1024.0)
#define SMALL_AR_UNSIZED 32

static int
nccl_allreduce(const char *n)
{
    return has(n, "nccl") && has(n, "AllReduce");
}

static double
kernel_bytes(const struct pr_trace *t, const struct pr_event *e)
{
    struct pr_gpu_info gb;
    const struct pr_gpu_info *g = pr_trace_gpu(t, e, &gb);
    int size;

    if (g == NULL || g->in_nelems < 0)
        return -1;
    size = pr_comm_dtype_size(
        g->dtype == PR_STR_NONE ? NULL : pr_trace_str(t, g->dtype));
    return size > 0 ? (double)g->in_nelems * size : -1;
}

static int
cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

    return (a > b) - (a < b);
}

/* Build c for t: the graphed compiled functions' spans, the bandwidth of
 * the trace's largest all-reduces (those of at least half the largest's
 * bytes: their bytes over their time), the median aclnn launch call.
 * 0: out of memory. */
static int
cache_build(struct pr_replay_cache *c, const struct pr_trace *t)
{
    size_t i, k, n_cf = 0, n_gl = 0, n_acl = 0, n_gws = 0, n_dq = 0;
    struct cf_span *gl = NULL;
    int64_t *acl = NULL, *gws = NULL;
    double max_b = 0, b_sum = 0, ns_sum = 0;

    free(c->cf);
    c->cf = NULL;
    c->n_cf = 0;
    c->t = t;
    c->ar_gbps = NAN;
    c->aclnn_ns = c->gws_ns = c->heavy_ns = -1;
    c->heavy_cls[0] = '\0';
    free(c->dq);
    c->dq = NULL;
    c->n_dq = 0;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const char *n = pr_trace_str(t, e->name);

        if (e->kind == PR_KIND_HOST_OP && compiled_fn(n))
            n_cf++;
        else if ((e->kind == PR_KIND_RUNTIME_CALL ||
                  e->kind == PR_KIND_DRIVER_CALL) &&
                 graph_launch(n))
            n_gl++;
        else if (e->kind == PR_KIND_RUNTIME_CALL &&
                 strncmp(fn_of(n), "aclnn", 5) == 0 &&
                 !has(n, "GetWorkspaceSize"))
            n_acl++;
        else if (e->kind == PR_KIND_RUNTIME_CALL &&
                 strncmp(fn_of(n), "aclnn", 5) == 0)
            n_gws++;
        else if (e->kind == PR_KIND_DEVICE_TASK && nccl_allreduce(n)) {
            double b = kernel_bytes(t, e);

            max_b = b > max_b ? b : max_b;
        }
        n_dq += strncmp(n, "Dequeue@", 8) == 0 && e->dur_ns > 0;
    }
    if (n_cf > 0 && n_gl > 0) {
        c->cf = malloc(n_cf * sizeof(*c->cf));
        gl = malloc(n_gl * sizeof(*gl));
        if (c->cf == NULL || gl == NULL) {
            free(gl);
            return 0;
        }
    }
    if ((n_acl > 0 && (acl = malloc(n_acl * sizeof(*acl))) == NULL) ||
        (n_gws > 0 && (gws = malloc(n_gws * sizeof(*gws))) == NULL) ||
        (n_dq > 0 && (c->dq = malloc(n_dq * sizeof(*c->dq))) == NULL)) {
        free(gl);
        free(acl);
        free(gws);
        return 0;
    }
    n_gl = n_acl = n_gws = 0;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const char *n = pr_trace_str(t, e->name);
        struct pr_where w = pr_wheres_get(&t->wheres, e->where);
        struct cf_span sp = {e->ts_ns, e->ts_ns + e->dur_ns, w.pid, w.tid};

        if (e->kind == PR_KIND_HOST_OP && compiled_fn(n) && c->cf != NULL)
            c->cf[c->n_cf++] = sp;
        else if ((e->kind == PR_KIND_RUNTIME_CALL ||
                  e->kind == PR_KIND_DRIVER_CALL) &&
                 graph_launch(n) && gl != NULL)
            gl[n_gl++] = sp;
        else if (e->kind == PR_KIND_RUNTIME_CALL && acl != NULL &&
                 strncmp(fn_of(n), "aclnn", 5) == 0 &&
                 !has(n, "GetWorkspaceSize"))
            acl[n_acl++] = e->dur_ns;
        else if (e->kind == PR_KIND_RUNTIME_CALL && gws != NULL &&
                 strncmp(fn_of(n), "aclnn", 5) == 0)
            gws[n_gws++] = e->dur_ns;
        else if (e->kind == PR_KIND_DEVICE_TASK && nccl_allreduce(n) &&
                 max_b > 0 && e->dur_ns > 0) {
            double b = kernel_bytes(t, e);

            if (b >= 0.5 * max_b) {
                b_sum += b;
                ns_sum += (double)e->dur_ns;
            }
        }
    }
    for (i = 0; i < t->n_events && c->dq != NULL; i++) {
        const struct pr_event *e = &t->events[i];
        const char *n = pr_trace_str(t, e->name);

        if (strncmp(n, "Dequeue@", 8) == 0 && e->dur_ns > 0) {
            struct dq_span *d = &c->dq[c->n_dq++];
            struct pr_where w = pr_wheres_get(&t->wheres, e->where);

            op_class(n, d->cls, sizeof(d->cls));
            d->ns = e->dur_ns;
            d->s = e->ts_ns;
            d->pid = w.pid;
            d->tid = w.tid;
            d->aclnn = strncmp(n, "Dequeue@aclnn", 13) == 0;
        }
    }
    heavy_floor(c);
    /* keep the compiled functions that launched a graph on their thread */
    for (i = k = 0; i < c->n_cf; i++) {
        size_t j;

        for (j = 0; j < n_gl; j++) {
            if (gl[j].pid == c->cf[i].pid && gl[j].tid == c->cf[i].tid &&
                gl[j].s >= c->cf[i].s && gl[j].s < c->cf[i].e)
                break;
        }
        if (j < n_gl)
            c->cf[k++] = c->cf[i];
    }
    c->n_cf = k;
    free(gl);
    if (ns_sum > 0)
        c->ar_gbps = b_sum / ns_sum; /* bytes/ns = GB/s */
    if (n_acl > 0) {
        qsort(acl, n_acl, sizeof(*acl), cmp_i64);
        c->aclnn_ns = acl[(n_acl - 1) / 2];
    }
    if (n_gws > 0) {
        qsort(gws, n_gws, sizeof(*gws), cmp_i64);
        c->gws_ns = gws[(n_gws - 1) / 2];
    }
    free(acl);
    free(gws);
    return 1;
}

static int
cache_for(struct pr_replay_cache *c, const struct pr_trace *t)
{
    return c->t == t || cache_build(c, t);
}

/* ----------------------------------------------- device_copies */

static int
in_graphed_cf(const struct pr_replay_cache *c, const struct pr_trace *t,
              const struct pr_event *call)
{
    struct pr_where w = pr_wheres_get(&t->wheres, call->where);
    size_t i;

    for (i = 0; i < c->n_cf; i++) {
        if (c->cf[i].pid == w.pid && c->cf[i].tid == w.tid &&
            call->ts_ns >= c->cf[i].s && call->ts_ns < c->cf[i].e)
            return 1;
    }
    return 0;
}

static int
dtod(const struct pr_trace *t, const struct pr_cp_node *k)
{
    struct pr_gpu_info gb;
    const struct pr_gpu_info *gi;

    if (k->type != PR_CP_N_TASK || k->kind != PR_CP_COPY)
        return 0;
    gi = pr_trace_gpu(t, &t->events[k->ev], &gb);
    if (gi != NULL && gi->copy_dir != PR_DIR_UNKNOWN)
        return gi->copy_dir == PR_DIR_D2D;
    return has(node_str(t, k), "DtoD") ||
           has(node_str(t, k), "Device -> Device");
}

/* The wrapper's operators: what copies an input (aten::copy_) or clones
 * an output (aten::clone, its aten::empty_like / empty_strided). */
static int
wrapper_op(const char *n)
{
    return strcmp(n, "aten::copy_") == 0 || strcmp(n, "aten::clone") == 0 ||
           strcmp(n, "aten::empty_like") == 0 ||
           strcmp(n, "aten::empty_strided") == 0;
}

int
pr_replay_dtod(const struct pr_trace *t, struct pr_cp_graph *g,
               struct pr_replay_cache *c, pr_replay_ev_fn ev, void *ctx)
{
    size_t i;
    uint32_t k;
    int any = 0;

    if (!cache_for(c, t))
        return -1;
    if (c->n_cf == 0)
        return 0;
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *h = &g->v[i];
        struct pr_cp_node *q;

        if ((h->type != PR_CP_N_HOST && h->type != PR_CP_N_SYNC) ||
            h->ev == PR_CP_NONE || h->corr_task == PR_CP_NONE ||
            graph_launch(node_str(t, h)))
            continue;
        q = &g->v[h->corr_task];
        if (!dtod(t, q) || !in_graphed_cf(c, t, &t->events[h->ev]))
            continue;
        /* the copy, its call and the operator's host work before the
           call go: a CUDA-graph tree neither copies a static input nor
           clones an output */
        /* by the copy's own name ("Memcpy DtoD (Device -> Device)"):
           the copies of inputs and the clones of outputs both run in
           aten::copy_ */
        ev(ctx, q->on_path, q->name, q->dur);
        q->dur = 0;
        ev(ctx, h->on_path, h->name, h->dur);
        h->dur = 0;
        if (h->type == PR_CP_N_SYNC) {
            int j;

            for (j = 0; j < h->n_pred; j++) {
                if (h->p_end[j])
                    h->pw[j] = PR_CP_GONE; /* no longer waits for it */
            }
        }
        for (k = 0; k < h->pc_n; k++) {
            uint32_t nm = g->pc[h->pc_first + k].name;

            if (nm != PR_STR_NONE && wrapper_op(pr_trace_str(t, nm)) &&
                h->n_pred > 0)
                ev(ctx, h->on_path, nm,
                   scale_pieces(g, h->pc_first + k, 1, nm, 0.0, &h->pw[0]));
        }
        any = 1;
    }
    return any;
}

/* ----------------------------------------------- slow_dispatch */

int
pr_replay_dispatch(const struct pr_trace *t, struct pr_cp_graph *g,
                   const struct pr_whatif_in *in, pr_replay_ev_fn ev, void *ctx)
{
    size_t i, j;
    uint32_t k;
    int any = 0;

    if (in == NULL || in->n_dispatch == 0)
        return 0;
    for (i = 0; i < g->n + g->n_end; i++) {
        uint32_t first, n;
        int64_t *w;
        int on_path;

        if (!host_edge(g, i, &first, &n, &w, &on_path))
            continue;
        for (k = 0; k < n; k++) {
            struct pr_cp_piece *p = &g->pc[first + k];
            const char *nm;

            if (p->name == PR_STR_NONE || p->ns <= 0)
                continue;
            nm = pr_trace_str(t, p->name);
            for (j = 0; j < in->n_dispatch; j++) {
                if (strcmp(nm, in->dispatch[j].op) == 0)
                    break;
            }
            if (j == in->n_dispatch)
                continue;
            ev(ctx, on_path, p->name,
               scale_pieces(g, first + k, 1, p->name, in->dispatch[j].factor,
                            w));
            any = 1;
        }
    }
    return any;
}

/* ----------------------------------------------- small_allreduce */

/* DDP's bucket_cap_mb default (torch/nn/parallel/distributed.py). */
#define BUCKET_BYTES (25.0 * 1024.0 * 1024.0)

static int
small_ar(const struct pr_trace *t, const struct pr_cp_node *n, double *bytes)
{
    const char *s = node_str(t, n);

    if (n->type != PR_CP_N_TASK || n->kind != PR_CP_COMM || !nccl_allreduce(s))
        return 0;
    *bytes = kernel_bytes(t, &t->events[n->ev]);
    /* unsized: a candidate; the kernel's name says nothing of the size
       (NCCL's generic kernels run every protocol under an _LL_ name,
       review 7 #6), so a step of many calls (pr_replay_bucket) decides */
    return *bytes >= 0 ? *bytes < SMALL_AR_BYTES : 1;
}

/* A small all-reduce of the step and its measured start (the sort's
 * key). */
struct ar_at {
    int64_t s;
    uint32_t i;
};

static int
cmp_start(const void *x, const void *y)
{
    const struct ar_at *a = x, *b = y;

    if (a->s != b->s)
        return (a->s > b->s) - (a->s < b->s);
    return (a->i > b->i) - (a->i < b->i);
}

/* Close a bucket of calls v[0..n): its last call carries the merged
 * call's time, latency + bytes at the largest calls' bandwidth (sized),
 * else latency + what each call took over the latency; the others take
 * none and no wait (gone[] marks them for their launches). */
static void
close_bucket(struct pr_cp_graph *g, const struct ar_at *v, size_t n,
             double bytes, double gbps, int64_t lat, uint8_t *gone,
             pr_replay_ev_fn ev, void *ctx)
{
    struct pr_cp_node *l;
    int64_t to = lat, sum = 0, w0;
    size_t i;

    if (n < 2)
        return;
    w0 = g->v[v[0].i].w;
    for (i = 0; i < n; i++) {
        int64_t d = g->v[v[i].i].dur;

        sum += d;
        if (!(gbps > 0))
            to += d > lat ? d - lat : 0;
    }
    if (gbps > 0)
        to = lat + (int64_t)(bytes / gbps);
    /* the merged call never takes longer than its calls did apart */
    to = to < sum ? to : sum;
    for (i = 0; i + 1 < n; i++) {
        struct pr_cp_node *p = &g->v[v[i].i];

        ev(ctx, p->on_path, p->name, p->dur);
        p->dur = 0;
        p->w = 0;
        gone[v[i].i] = 1;
    }
    /* the last call carries the bucket (it may grow: the others' bytes
       move into it) */
    l = &g->v[v[n - 1].i];
    ev(ctx, l->on_path, l->name, l->dur - to);
    l->dur = to;
    /* its start waits as long after its launch as the bucket's first
       call did (the launch-to-start delay a call on its stream paid) */
    l->w = l->w > w0 ? l->w : w0;
}

/* A collective call's host work: c10d's operator (c10d::allreduce_),
 * the profiler's record_param_comms, ProcessGroupNCCL's nccl:all_reduce
 * range, and op, the operator the launch ran in. */
static int
coll_host(const struct pr_trace *t, uint32_t name, uint32_t op)
{
    const char *s;

    if (name == PR_STR_NONE)
        return 0;
    if (name == op)
        return 1;
    s = pr_trace_str(t, name);
    return strncmp(s, "c10d::allreduce", 15) == 0 ||
           strcmp(s, "record_param_comms") == 0 ||
           strcmp(s, "nccl:all_reduce") == 0;
}

/* Scale the all-reduce calls' host work on every host edge by k. */
static void
host_work(const struct pr_trace *t, struct pr_cp_graph *g, uint32_t op,
          double k, pr_replay_ev_fn ev, void *ctx)
{
    size_t i;
    uint32_t j;

    for (i = 0; i < g->n + g->n_end; i++) {
        uint32_t first, n;
        int64_t *w;
        int on_path;

        if (!host_edge(g, i, &first, &n, &w, &on_path))
            continue;
        for (j = 0; j < n; j++) {
            uint32_t nm = g->pc[first + j].name;

            if (coll_host(t, nm, op))
                ev(ctx, on_path, nm, scale_pieces(g, first + j, 1, nm, k, w));
        }
    }
}

int
pr_replay_bucket(const struct pr_trace *t, struct pr_cp_graph *g,
                 struct pr_replay_cache *c, pr_replay_ev_fn ev, void *ctx)
{
    size_t i, n = 0, first;
    int64_t lat = -1;
    int sized = 1;
    struct ar_at *v;
    uint8_t *gone;
    double bytes = 0;
    size_t n_gone;
    uint32_t kept_op = PR_STR_NONE;

    if (!cache_for(c, t))
        return -1;
    /* the latency of one call: the shortest small all-reduce's time */
    for (i = 0; i < g->n; i++) {
        double b;

        if (small_ar(t, &g->v[i], &b)) {
            n++;
            sized &= b >= 0;
            if (lat < 0 || g->v[i].dur < lat)
                lat = g->v[i].dur;
        }
    }
    if (n < 2 || lat < 0 || (!sized && n < SMALL_AR_UNSIZED))
        return 0;
    v = malloc(n * sizeof(*v));
    gone = calloc(g->n, 1);
    if (v == NULL || gone == NULL) {
        free(v);
        free(gone);
        return -1;
    }
    for (i = n = 0; i < g->n; i++) {
        double b;

        if (small_ar(t, &g->v[i], &b)) {
            v[n].s = g->v[i].s;
            v[n++].i = (uint32_t)i;
        }
    }
    qsort(v, n, sizeof(*v), cmp_start);
    /* buckets in the calls' order, each closing at BUCKET_BYTES (unsized
       calls: one bucket, the step's, see the gain note) */
    for (i = first = 0; i < n; i++) {
        double b = sized ? kernel_bytes(t, &t->events[g->v[v[i].i].ev]) : 0;

        if (sized && i > first && bytes + b > BUCKET_BYTES) {
            close_bucket(g, v + first, i - first, bytes,
                         sized ? c->ar_gbps : NAN, lat, gone, ev, ctx);
            first = i;
            bytes = 0;
        }
        bytes += b;
    }
    close_bucket(g, v + first, n - first, bytes, sized ? c->ar_gbps : NAN, lat,
                 gone, ev, ctx);
    /* the merged calls' launches go, and the host work of the calls
       (c10d's operator, its record_param_comms and the NCCL range,
       torch/csrc/distributed/c10d: Ops.cpp, ParamCommsUtils.hpp,
       ProcessGroupNCCL.cpp) shrinks to one call a bucket */
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *x = &g->v[i];

        if (x->type != PR_CP_N_HOST || x->corr_task == PR_CP_NONE ||
            !gone[x->corr_task])
            continue;
        kept_op = op_name(t, x);
        ev(ctx, x->on_path, x->name, x->dur);
        x->dur = 0;
    }
    for (i = 0, n_gone = 0; i < g->n; i++)
        n_gone += gone[i];
    if (n_gone > 0)
        host_work(t, g, kept_op, (double)(n - n_gone) / (double)n, ev, ctx);
    free(v);
    free(gone);
    return n >= 2;
}

/* ----------------------------------------------- aclop_binary */

/* The median of the Dequeue@aclnn spans of class cls; -1 none. */
static int64_t
class_median(const struct pr_replay_cache *c, const char *cls)
{
    int64_t v[64];
    size_t i, n = 0;

    for (i = 0; i < c->n_dq && n < sizeof(v) / sizeof(v[0]); i++) {
        if (c->dq[i].aclnn && same_class(c->dq[i].cls, cls))
            v[n++] = c->dq[i].ns;
    }
    if (n == 0)
        return -1;
    qsort(v, n, sizeof(v[0]), cmp_i64);
    return v[(n - 1) / 2];
}

/* What an aclop call h costs the host as a binary kernel (review 7 #4:
 * the median elementwise execution call, 7.2 us on msprof_npu_out, left
 * out GetWorkspaceSize, and binary conv / pool calls cost 57-144 us):
 * the median Dequeue@aclnn span of the same operator class where the
 * export runs one (the aclnn operator's whole issue), else both phases
 * of the two-phase API, the medians of the aclnn execution and
 * GetWorkspaceSize calls, else the execution calls' alone. */
static int64_t
aclop_floor(const struct pr_trace *t, const struct pr_replay_cache *c,
            const struct pr_cp_node *h)
{
    char cls[24] = "";
    int64_t m = -1;
    size_t i;

    /* its operator type: the Dequeue@<type> span it runs in (torch_npu's
       dequeue thread), else its operator's name */
    if (h->ev < t->n_events) {
        const struct pr_event *e = &t->events[h->ev];
        struct pr_where w = pr_wheres_get(&t->wheres, e->where);

        for (i = 0; i < c->n_dq; i++) {
            const struct dq_span *d = &c->dq[i];

            if (!d->aclnn && d->pid == w.pid && d->tid == w.tid &&
                d->s <= e->ts_ns && e->ts_ns < d->s + d->ns) {
                snprintf(cls, sizeof(cls), "%s", d->cls);
                break;
            }
        }
    }
    if (cls[0] == '\0')
        op_class(str_of(t, op_name(t, h)), cls, sizeof(cls));
    if (cls[0] != '\0')
        m = class_median(c, cls);
    if (m > 0)
        return m;
    if (cls[0] != '\0' && heavy_class(cls) && c->heavy_ns > 0)
        return c->heavy_ns;
    return c->aclnn_ns + (c->gws_ns > 0 ? c->gws_ns : 0);
}

/* The floor in words, for the what-if's change text. */
void
pr_replay_aclop_floor(const struct pr_replay_cache *c, char *buf, size_t cap)
{
    char heavy[200] = "";

    if (c == NULL || c->aclnn_ns < 0) {
        snprintf(buf, cap, "%s", "");
        return;
    }
    if (c->heavy_ns > 0)
        snprintf(
            heavy, sizeof(heavy),
            ", else for a matmul, convolution or pooling call %.1f \xC2\xB5s, "
            "the heaviest such aclnn class the export runs (%s, the "
            "median of its spans)",
            (double)c->heavy_ns / 1e3, c->heavy_cls);
    if (c->gws_ns > 0)
        snprintf(
            buf, cap,
            "; the floor here: an aclnn operator of the call's class "
            "where the export runs one (the median of its Dequeue@aclnn "
            "spans)%s, else %.1f \xC2\xB5s, the median aclnn execution call "
            "(%.1f \xC2\xB5s) plus the median aclnn*GetWorkspaceSize call "
            "(%.1f \xC2\xB5s), both phases of the two-phase API",
            heavy, (double)(c->aclnn_ns + c->gws_ns) / 1e3,
            (double)c->aclnn_ns / 1e3, (double)c->gws_ns / 1e3);
    else
        snprintf(buf, cap,
                 "; the floor here: an aclnn operator of the call's class "
                 "where the export runs one (the median of its Dequeue@aclnn "
                 "spans)%s, else %.1f \xC2\xB5s, the median aclnn execution "
                 "call (the "
                 "export records no GetWorkspaceSize call)",
                 heavy, (double)c->aclnn_ns / 1e3);
}

int
pr_replay_aclop(const struct pr_trace *t, struct pr_cp_graph *g,
                struct pr_replay_cache *c, pr_replay_ev_fn ev, void *ctx)
{
    size_t i;
    int any = 0;
    int64_t to;

    if (!cache_for(c, t))
        return -1;
    if (c->aclnn_ns < 0)
        return 0; /* no binary kernel launch in the export to go by */
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *h = &g->v[i];
        int64_t d;

        if (h->type != PR_CP_N_HOST || !pr_cp_is_aclop(node_str(t, h)))
            continue;
        to = aclop_floor(t, c, h);
        if (h->dur <= to)
            continue;
        d = h->dur - to;
        ev(ctx, h->on_path, op_name(t, h), d);
        h->dur = to;
        h->dur_compile = 0;
        if (h->corr_task != PR_CP_NONE) {
            struct pr_cp_node *q = &g->v[h->corr_task];

            q->w = q->w > d ? q->w - d : 0;
        }
        any = 1;
    }
    /* the device's wait inside those calls (critpath.c's w_compile and
       w_aclop: it waited for the host's aclop path) */
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *q = &g->v[i];
        int64_t d = q->w_compile + q->w_aclop;

        if (q->type != PR_CP_N_TASK || d <= 0 || q->w <= 0)
            continue;
        d = d < q->w ? d : q->w;
        ev(ctx, q->on_path,
           q->name_aclop != PR_STR_NONE ? q->name_aclop : q->name, d);
        q->w -= d;
        q->w_compile = q->w_aclop = 0;
        any = 1;
    }
    return any;
}
