/* comm.c - communication per run: which events are collectives (kernels
 * of the kernel table's collective family on the device: NCCL, RCCL, HCCL,
 * DeepEP, symmetric memory ...; Gloo ops on the host), the computation /
 * communication split per step (spec §13.2, over the role ranges of
 * steps.c, so that the breakdown and this view tell one story) and the
 * collective table with sizes and nccl-tests' bandwidths.  The cross-rank
 * section is distributed.c's. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/comm.h"
#include "profreport/flops.h"
#include "profreport/kclass.h"
#include "profreport/keys.h"
#include "profreport/phases.h"
#include "profreport/producer.h"
#include "profreport/ranges.h"
#include "profreport/rows.h"

#include "../internal.h"

static const struct {
    const char *spelling;
    const char *canon;
} collectives[] = {
    {"allreduce", "all_reduce"},
    {"all_reduce", "all_reduce"},
    {"allgather", "all_gather"},
    {"allgatherv", "all_gather"}, /* NCCL's ncclDevKernel_AllGatherV_* */
    {"all_gather", "all_gather"},
    {"_allgather_base", "all_gather"},
    {"_all_gather_base", "all_gather"},
    {"allgather_into_tensor_coalesced", "all_gather"},
    {"all_gather_into_tensor", "all_gather"},
    {"allgather_coalesced", "all_gather"},
    {"reducescatter", "reduce_scatter"},
    {"reduce_scatter", "reduce_scatter"},
    {"_reduce_scatter_base", "reduce_scatter"},
    {"reduce_scatter_tensor", "reduce_scatter"},
    {"reduce_scatter_tensor_coalesced", "reduce_scatter"},
    {"alltoall", "all_to_all"},
    {"all_to_all", "all_to_all"},
    {"all_to_allv", "all_to_all"},
    {"alltoall_base", "all_to_all"},
    {"all_to_all_single", "all_to_all"},
    {"allreduce_coalesced", "all_reduce"},
    {"broadcast", "broadcast"},
    {"reduce", "reduce"},
    {"sendrecv", "send_recv"},
    {"send", "send"},
    {"recv", "recv"},
    {"receive", "recv"},
    {"barrier", "barrier"},
    {"gather", "gather"},
    {"scatter", "scatter"},
};

const char *
pr_comm_collective(const char *name)
{
    char word[64];
    const char *p;
    size_t i, n;

    /* kernel names: ncclKernel_AllReduce_RING_LL_Sum_float(...) or
       ncclDevKernel_AllGather_RING_LL(...), also after a "void ";
       host ops: nccl:all_reduce; MindSpore's Default/AllReduce-op5 */
    p = strstr(name, "Kernel_");
    if (strncmp(name, "void ", 5) == 0)
        name += 5;
    if (pr_comm_backend(name) != NULL) {
        name = strchr(name, ':') + 1;
        n = strlen(name);
    } else if (strncasecmp(name, "nccl", 4) == 0 && p != NULL) {
        name = p + 7;
        n = strcspn(name, "_(");
    } else if (strrchr(name, '/') != NULL &&
               strstr(strrchr(name, '/'), "-op") != NULL) {
        /* a MindSpore graph kernel: <scope>/<primitive>-op<id> */
        name = strrchr(name, '/') + 1;
        n = strcspn(name, "-");
    } else {
        n = strcspn(name, "(");
    }
    if (n >= sizeof(word))
        return NULL;
    memcpy(word, name, n);
    word[n] = '\0';
    for (i = 0; i < sizeof(collectives) / sizeof(collectives[0]); i++)
        if (strcasecmp(word, collectives[i].spelling) == 0)
            return collectives[i].canon;
    return NULL;
}

int
pr_comm_dtype_size(const char *d)
{
    static const struct {
        const char *name;
        int size;
    } sizes[] = {
        {"Float", 4},        {"float", 4},          {"Float32", 4},
        {"Half", 2},         {"Float16", 2},        {"BFloat16", 2},
        {"Double", 8},       {"Float64", 8},        {"Int", 4},
        {"Int32", 4},        {"Long", 8},           {"Int64", 8},
        {"Short", 2},        {"Int16", 2},          {"Char", 1},
        {"Byte", 1},         {"Int8", 1},           {"UInt8", 1},
        {"Bool", 1},         {"Float8_e4m3fn", 1},  {"Float8_e5m2", 1},
        {"ComplexFloat", 8}, {"ComplexDouble", 16},
    };
    size_t i;

    for (i = 0; d != NULL && i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(d, sizes[i].name) == 0)
            return sizes[i].size;
    return 0;
}

double
pr_comm_bus_factor(const char *c, int n)
{
    if (c == NULL || n <= 1)
        return 1.0;
    if (strcmp(c, "all_reduce") == 0)
        return 2.0 * (n - 1) / n;
    if (strcmp(c, "all_gather") == 0 || strcmp(c, "reduce_scatter") == 0 ||
        strcmp(c, "all_to_all") == 0)
        return (double)(n - 1) / n;
    return 1.0;
}

static const struct {
    const char *prefix; /* of a host op name: "nccl:all_reduce" */
    const char *name;
    int on_host; /* the host op is the transfer itself (a CPU backend) */
} backends[] = {
    {"nccl:", "nccl", 0}, {"hccl:", "hccl", 0}, {"ucc:", "ucc", 0},
    {"gloo:", "gloo", 1}, {"mpi:", "mpi", 1},
};

#define N_BACKENDS (sizeof(backends) / sizeof(backends[0]))

const char *
pr_comm_backend(const char *name)
{
    size_t i;

    for (i = 0; i < N_BACKENDS; i++)
        if (strncmp(name, backends[i].prefix, strlen(backends[i].prefix)) == 0)
            return backends[i].name;
    return NULL;
}

int
pr_comm_on_host(const char *backend)
{
    size_t i;

    for (i = 0; backend != NULL && i < N_BACKENDS; i++)
        if (strcmp(backend, backends[i].name) == 0)
            return backends[i].on_host;
    return 0;
}

int
pr_comm_host_collective(const char *name)
{
    return pr_comm_backend(name) != NULL && pr_comm_collective(name) != NULL;
}

/* Collective metadata that newer PyTorch copies onto NCCL kernels. */
static int
has_meta(const struct pr_gpu_info *g)
{
    return g != NULL && g->collective != PR_STR_NONE &&
           g->collective != PR_STR_EMPTY;
}

int
pr_comm_kernel_cached(struct pr_names *nc, const struct pr_event *e)
{
    struct pr_gpu_info gb;

    return e->kind == PR_KIND_DEVICE_TASK &&
           ((pr_names_get(nc, e->name) & PR_NAME_COMM_KERNEL) ||
            has_meta(pr_trace_gpu(nc->t, e, &gb)));
}

/* ---- the calls */

/* A collective op on the host (nccl:all_reduce, gloo:broadcast, ...) and
 * the device kernels it launched. */
/* PyTorch's all_gather_into_tensor op (c10d's Ops.cpp) */
#define GATHER_BASE "c10d::_allgather_base_"

struct hop {
    uint32_t ev, tid;
    int64_t start_ns, end_ns;
    const char *backend, *coll; /* static strings */
    int64_t kernel_ns;          /* its kernels, summed */
    size_t n_kernels;
    int proto;      /* the protocol its kernels' names give (PROTO_*) */
    size_t meta_ev; /* its first kernel (n_kernels > 0) */
    /* its kernels' producer transfer time (producer_transit), summed;
       -1 once one has none */
    int64_t transit_ns;
    /* why one of them left it unrated (pr_comm_stat_rated_ns's
       PR_COMM_*; PR_COMM_RATED when none did) */
    int why;
};

/* One row of the collective table. */
struct op {
    char name[48];    /* "nccl:all_reduce" */
    char backend[24]; /* "nccl", "deepep": the library's rule id */
    const char *coll; /* static */
    int64_t calls, timed_calls, sized_calls;
    int64_t total_ns;
    double bytes; /* sum over the sized calls */
    /* calls sized only by what their rank sent over its links
       (PR_DTYPE_LINK_BYTES): those bytes and time, over calls both timed
       and so sized; link_open: of them, calls whose message is not known
       (no group size) */
    int64_t link_calls, link_open, link_ns;
    double link_bytes;
    /* calls so sized, rated or not, and of them those whose message is
       not known: what link_note explains (an unrated call's bytes are
       still the link bytes over the factor) */
    int64_t link_sized, link_sized_open;
    /* calls so sized and timed that are not rated for moving under
       PR_COMM_RATE_MIN_BYTES (pr_comm_stat_rated_ns): their count, link
       bytes and time; and the time of the rated ones (link_calls), for
       the split by size (issue #30: ms_cluster4's all-reduces, rated on
       the few of 1 MiB or more) */
    int64_t link_small, link_small_ns, link_large_ns;
    double link_small_bytes;
    double bw_bytes; /* over calls both sized and timed */
    int64_t bw_ns, bw_calls;
    /* of them, calls whose bandwidth time is not their task's but the
       transfer time MindSpore's hccl_raw pairs with their bytes
       (communication_cost, review31 #4): no interval of their own */
    int64_t transit_calls;
    /* calls that are a kernel without the host collective that launched
       it in the trace, and no size of their own (HTA's trace_diff test:
       3 of 21 all-reduce kernels start before its first host call) */
    int64_t bare_unsized;
    int group; /* ranks in the group (max seen) */
    /* the sized and timed calls' intervals laid over each other: the
       time at least one was in flight, and the most at once (0: none
       has an interval) */
    int64_t wall_ns;
    int in_flight;
    /* time against size (review-5 finding 3): the means of the calls
       under and over the geometric middle of their sizes, where they
       span 2x or more in one group (small_n 0: no such test) */
    int64_t small_n, large_n;
    double small_bytes, large_bytes, small_ns, large_ns;
    /* the protocol its kernels' names give, where all give the same one
       (PROTO_NONE: none, PROTO_MIXED: several), a kernel's name, and
       the largest sized call */
    int proto;
    const char *kernel;
    double max_bytes;
};

/* The protocol in an NCCL kernel's name (ncclKernel_AllReduce_RING_LL_
 * Sum_float, ncclDevKernel_AllReduce_Sum_f32_RING_LL, ..._SIMPLE_...). */
enum { PROTO_NONE = 0, PROTO_LL, PROTO_LL128, PROTO_SIMPLE, PROTO_MIXED };

/* A sized and timed call's interval, for the op's wall time. */
struct call_iv {
    size_t op;
    int64_t a, b;
    double bytes;
    int group;
};

#define MAX_OPS 64

/* One NCCL/RCCL kernel: its collective (a static string) and times. */
struct ktime {
    const char *coll;
    int64_t s, e;
};

struct collect {
    const struct pr_trace *t;
    struct hop *hops; /* owned, sorted by (tid, start) */
    size_t n_hops;
    /* c10d::_allgather_base_ calls (their output and input tensors give
       an all-gather's group), sorted like hops; owned */
    struct hop *gathers;
    size_t n_gathers;
    struct pr_idmap launch; /* correlation -> launching event index */
    struct op ops[MAX_OPS];
    size_t n_ops;
    /* timed calls with bytes but no transfer time to rate them over
       (an operation whose Transit Time is 0, as torch_npu files some), and of
       them those of an operation under PR_COMM_RATE_MIN_BYTES or whose
       Transit Time is longer than its Elapse (pr_comm_stat_rated_ns) */
    int64_t unrated, unrated_small, unrated_long;
    int64_t single_rank; /* device collectives of a one-rank group without
                            a kernel: NCCL launches none when nranks = 1 */
    struct call_iv *ivs; /* owned */
    size_t n_ivs, cap_ivs;
    /* NCCL/RCCL kernels' times on the trace's clock, for the job's
       pairing of a collective's kernels across ranks (kernel_times) */
    struct ktime *kts; /* owned */
    size_t n_kts, cap_kts;
    int oom;
};

static int
name_proto(const char *name)
{
    const char *p;

    if (name == NULL ||
        strncasecmp(name + (strncmp(name, "void ", 5) == 0 ? 5 : 0), "nccl",
                    4) != 0)
        return PROTO_NONE;
    if (strstr(name, "_LL128") != NULL)
        return PROTO_LL128;
    if (strstr(name, "_SIMPLE") != NULL)
        return PROTO_SIMPLE;
    for (p = strstr(name, "_LL"); p != NULL; p = strstr(p + 3, "_LL"))
        if (p[3] == '_' || p[3] == '(' || p[3] == '\0' || p[3] == '<')
            return PROTO_LL;
    return PROTO_NONE;
}

/* Fold one call's protocol (from its kernels' names) into its op's. */
static void
fold_proto(struct op *o, int proto, const char *kernel)
{
    if (o->calls == 1) {
        o->proto = proto;
        o->kernel = kernel;
    } else if (o->proto != proto) {
        o->proto = PROTO_MIXED;
    }
}

static struct op *
op_for(struct collect *c, const char *backend, const char *coll)
{
    size_t i;

    for (i = 0; i < c->n_ops; i++)
        if (strcmp(c->ops[i].backend, backend) == 0 &&
            strcmp(c->ops[i].coll, coll) == 0)
            return &c->ops[i];
    if (c->n_ops == MAX_OPS)
        return NULL;
    memset(&c->ops[c->n_ops], 0, sizeof(c->ops[0]));
    snprintf(c->ops[c->n_ops].backend, sizeof(c->ops[0].backend), "%s",
             backend);
    c->ops[c->n_ops].coll = coll;
    snprintf(c->ops[c->n_ops].name, sizeof(c->ops[0].name), "%s:%s", backend,
             coll);
    return &c->ops[c->n_ops++];
}

/* One call: ns < 0 when its time is not in the trace, bytes < 0 when its
 * size is not; it starts at start_ns (-1: no one interval holds it).
 * bw_ns: the time its bytes are rated over, ns but where the producer
 * pairs the bytes with a transfer time of their own (-1: none). */
static void
add_call(struct collect *c, const char *backend, const char *coll, int64_t ns,
         int64_t bw_ns, int why, double bytes, double link, int group,
         int64_t start_ns, int proto, const char *kernel)
{
    struct op *o = op_for(c, backend, coll);
    int unrated = ns >= 0 && bw_ns < 0 && (link >= 0 || bytes >= 0);

    if (o == NULL)
        return; /* more kinds of collectives than rows: left out */
    o->calls++;
    c->unrated += unrated;
    c->unrated_small += unrated && why == PR_COMM_SMALL;
    c->unrated_long += unrated && why == PR_COMM_OVER_ELAPSE;
    o->transit_calls += bw_ns >= 0 && bw_ns != ns && (link >= 0 || bytes >= 0);
    if (link >= 0) {
        o->link_sized++;
        o->link_sized_open += bytes < 0;
    }
    if (link >= 0 && bw_ns >= 0) {
        o->link_calls++;
        o->link_open += bytes < 0;
        o->link_bytes += link;
        o->link_ns = pr_sat_add_i64(o->link_ns, bw_ns);
        o->link_large_ns = pr_sat_add_i64(o->link_large_ns, ns < 0 ? 0 : ns);
    } else if (link >= 0 && ns >= 0 && why == PR_COMM_SMALL) {
        o->link_small++;
        o->link_small_bytes += link;
        o->link_small_ns = pr_sat_add_i64(o->link_small_ns, ns);
    }
    fold_proto(o, proto, kernel);
    if (bytes > o->max_bytes)
        o->max_bytes = bytes;
    if (ns >= 0) {
        o->timed_calls++;
        o->total_ns = pr_sat_add_i64(o->total_ns, ns);
    }
    if (bytes >= 0) {
        o->sized_calls++;
        o->bytes += bytes;
    }
    if (bw_ns >= 0 && bytes >= 0) {
        o->bw_calls++;
        o->bw_bytes += bytes;
        o->bw_ns = pr_sat_add_i64(o->bw_ns, bw_ns);
        if (bw_ns != ns) /* a transfer time: no interval on the clock */
            start_ns = -1;
        if (start_ns >= 0 && ns > 0 &&
            pr_grow((void **)&c->ivs, &c->cap_ivs, c->n_ivs + 1,
                    sizeof(*c->ivs)) == PR_OK)
            c->ivs[c->n_ivs++] =
                (struct call_iv){(size_t)(o - c->ops), start_ns,
                                 pr_sat_add_i64(start_ns, ns), bytes, group};
        else if (start_ns >= 0 && ns > 0)
            c->oom = 1;
    }
    if (group > o->group)
        o->group = group;
}

/* The link factor nccl-tests' busBw applies (doc/PERFORMANCE.md): what
 * each rank sends over its links is the message times it, for the ring
 * and for HCCL's mesh alike (an 8-rank all-reduce of text_level1 sends
 * 1.75 times the message its trace_view states).  0 where the collective
 * is not one of these, or its factor needs a group size not known. */
static double
link_factor(const char *coll, int group)
{
    static const char *const one[] = {"broadcast", "reduce", "send", "recv",
                                      "send_recv"};
    size_t i;

    for (i = 0; coll != NULL && i < sizeof(one) / sizeof(one[0]); i++)
        if (strcmp(coll, one[i]) == 0)
            return 1.0;
    if (coll == NULL || group < 2 ||
        pr_comm_bus_factor(coll, group) == pr_comm_bus_factor(coll, 3))
        return 0;
    return pr_comm_bus_factor(coll, group);
}

/* The message of a call known by its link bytes `link` alone: those over
 * the collective's link factor; -1 unknown. */
static double
link_message(double link, const char *coll, int group)
{
    double f = link_factor(coll, group);

    return link >= 0 && f > 0 ? link / f : -1;
}

/* The bytes a call's rank sent over its links where that is all the
 * producer gives of its size (PR_DTYPE_LINK_BYTES); -1 otherwise. */
static double
meta_link(const struct pr_trace *t, const struct pr_gpu_info *g)
{
    if (g == NULL || g->dtype == PR_STR_NONE || g->in_nelems < 0 ||
        strcmp(pr_trace_str(t, g->dtype), PR_DTYPE_LINK_BYTES) != 0)
        return -1;
    return (double)g->in_nelems;
}

/* nccl-tests' size of a call from kernel metadata: the gathered output
 * for all-gather, the input otherwise (reduce-scatter's input is the full
 * buffer); from link bytes, those over the link factor; -1 unknown. */
static double
meta_bytes(const struct pr_trace *t, const struct pr_gpu_info *g,
           const char *coll)
{
    int size;
    int64_t n;

    if (g == NULL)
        return -1;
    if (meta_link(t, g) >= 0)
        return link_message(meta_link(t, g), coll, g->group_size);
    size = pr_comm_dtype_size(
        g->dtype == PR_STR_NONE ? NULL : pr_trace_str(t, g->dtype));
    n = strcmp(coll, "all_gather") == 0 ? g->out_nelems : g->in_nelems;
    if (size == 0 || n < 0)
        return -1;
    return (double)n * size;
}

/* Sum of numel x element size over the tensor inputs of "Input Dims" /
 * "Input type" (the plugin's 13.4 with every dtype); -1 when not recorded
 * or a tensor's type is unknown. */
static double
input_bytes(const struct pr_trace *t, const struct pr_event *e)
{
    struct pr_op_info ob;
    const struct pr_op_info *op = pr_trace_op(t, e, &ob);
    struct pr_op_inputs *in;
    double b = 0;
    size_t i;
    int any = 0;

    if (op == NULL || op->input_dims == PR_STR_NONE ||
        op->input_types == PR_STR_NONE)
        return -1;
    in = malloc(sizeof(*in));
    if (in == NULL)
        return -1;
    pr_shapes_get(t, op->input_dims, op->input_types, PR_STR_NONE, in);
    for (i = 0;
         in->st == PR_OK && i < in->shapes.n && i < in->types.n && b >= 0;
         i++) {
        enum pr_dtype dt = in->types.t[i];

        if (dt == PR_DT_NONE)
            continue; /* "", Scalar, TensorList of unknown type */
        if (pr_dtype_size(dt) == 0)
            b = -1;
        else
            b += (double)in->shapes.arg[i].numel * pr_dtype_size(dt);
        any = 1;
    }
    free(in);
    return any ? b : -1;
}

static int
cmp_hop(const void *a, const void *b)
{
    const struct hop *x = a, *y = b;

    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return x->ev < y->ev ? -1 : (x->ev > y->ev);
}

static int
is_host_kind(int kind)
{
    return kind == PR_KIND_HOST_OP || kind == PR_KIND_ANNOTATION ||
           kind == PR_KIND_PY_LEGACY;
}

/* The host collectives, sorted for find_hop, and the launch map. */
static enum pr_status
index_trace(struct collect *c, struct pr_error *err)
{
    const struct pr_trace *t = c->t;
    size_t i, n = 0;

    size_t ng = 0;

    for (i = 0; i < t->n_events; i++) {
        n += is_host_kind(t->events[i].kind) &&
             pr_comm_host_collective(pr_trace_str(t, t->events[i].name));
        ng += is_host_kind(t->events[i].kind) &&
              strcmp(pr_trace_str(t, t->events[i].name), GATHER_BASE) == 0;
    }
    c->hops = calloc(n ? n : 1, sizeof(*c->hops));
    c->gathers = calloc(ng ? ng : 1, sizeof(*c->gathers));
    if (c->hops == NULL || c->gathers == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (communication)");
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const char *name = pr_trace_str(t, e->name);
        struct hop *h;

        if (pr_tree_is_launcher(e->kind) &&
            pr_event_correlation(t, e) != PR_NO_ID &&
            pr_idmap_put(&c->launch, pr_event_correlation(t, e), i, err) !=
                PR_OK)
            return PR_E_NOMEM;
        if (is_host_kind(e->kind) && strcmp(name, GATHER_BASE) == 0) {
            h = &c->gathers[c->n_gathers++];
            h->ev = (uint32_t)i;
            h->tid = pr_event_tid(t, e);
            h->start_ns = e->ts_ns;
            h->end_ns = pr_sat_add_i64(e->ts_ns, e->dur_ns);
            continue;
        }
        if (!is_host_kind(e->kind) || !pr_comm_host_collective(name))
            continue;
        h = &c->hops[c->n_hops++];
        h->ev = (uint32_t)i;
        h->tid = pr_event_tid(t, e);
        h->start_ns = e->ts_ns;
        h->end_ns = pr_sat_add_i64(e->ts_ns, e->dur_ns);
        h->backend = pr_comm_backend(name);
        h->coll = pr_comm_collective(name);
    }
    qsort(c->hops, c->n_hops, sizeof(*c->hops), cmp_hop);
    qsort(c->gathers, c->n_gathers, sizeof(*c->gathers), cmp_hop);
    return PR_OK;
}

/* The group of an all-gather hop from the c10d::_allgather_base_ call
 * around it on its thread: its output tensor's elements over its input's
 * (torch.distributed.all_gather_into_tensor(output, input): the output is
 * the group's inputs side by side).  -1 when no such call holds it or the
 * ratio is not a whole number over 1 (review 28g #6: HTA's
 * timeline_analysis gathers 16 MiB into 1 GiB, a group of 64 of a world
 * of 128, whose bytes read "not known"). */
static int
gather_group(const struct collect *c, const struct hop *h)
{
    size_t lo = 0, hi = c->n_gathers;
    const struct hop *g;
    struct pr_op_info ob;
    const struct pr_op_info *op;
    struct pr_op_inputs *in;
    int group = -1;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct hop *m = &c->gathers[mid];

        if (m->tid < h->tid || (m->tid == h->tid && m->start_ns <= h->start_ns))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    g = &c->gathers[lo - 1];
    if (g->tid != h->tid || g->end_ns < h->end_ns)
        return -1;
    op = pr_trace_op(c->t, &c->t->events[g->ev], &ob);
    if (op == NULL || op->input_dims == PR_STR_NONE)
        return -1;
    in = malloc(sizeof(*in));
    if (in == NULL)
        return -1;
    pr_shapes_get(c->t, op->input_dims, PR_STR_NONE, PR_STR_NONE, in);
    if (in->st == PR_OK && in->shapes.n >= 2 && in->shapes.arg[1].numel > 0 &&
        in->shapes.arg[0].numel > in->shapes.arg[1].numel &&
        in->shapes.arg[0].numel % in->shapes.arg[1].numel == 0 &&
        in->shapes.arg[0].numel / in->shapes.arg[1].numel <= 1 << 20)
        group = (int)(in->shapes.arg[0].numel / in->shapes.arg[1].numel);
    free(in);
    return group;
}

/* The host collective on the launch's thread whose interval holds the
 * launch, or NULL: the last one starting at or before it. */
static struct hop *
find_hop(struct collect *c, const struct pr_event *launch)
{
    struct hop key;
    size_t lo = 0, hi = c->n_hops;

    key.tid = pr_event_tid(c->t, launch);
    key.start_ns = launch->ts_ns;
    key.ev = UINT32_MAX;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (cmp_hop(&c->hops[mid], &key) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || c->hops[lo - 1].tid != pr_event_tid(c->t, launch) ||
        c->hops[lo - 1].end_ns < pr_sat_add_i64(launch->ts_ns, launch->dur_ns))
        return NULL;
    return &c->hops[lo - 1];
}

/* The host collective whose interval holds the launch of kernel e, or
 * NULL (no launch traced, or none around it). */
static struct hop *
kernel_hop(struct collect *c, const struct pr_event *e)
{
    const struct pr_trace *t = c->t;
    size_t l = pr_event_correlation(t, e) == PR_NO_ID
                   ? PR_NONE
                   : pr_idmap_get(&c->launch, pr_event_correlation(t, e));

    return l == PR_NONE ? NULL : find_hop(c, &t->events[l]);
}

/* The backend a kernel's collective row is named by: HCCL for a task its
 * producer put on the communication unit (whatever names it: MindSpore
 * calls HCCL's all-reduce Default/AllReduce-op5), else its kernel-table
 * rule's id up to the first '.' ("nccl", "deepep", "symm_mem"), else, for
 * a task known by its collective metadata alone, the device's: "mtia" for
 * an MTIA's (Kineto's mtia_ccp_events: no NCCL or HCCL runs there, issue
 * #30 #4), else "nccl". */
static void
kernel_backend(const struct pr_trace *t, const struct pr_event *e,
               const struct pr_kclass *k, const struct pr_gpu_info *g,
               char *buf, size_t cap)
{
    if (g != NULL && g->unit == PR_UNIT_COMM)
        snprintf(buf, cap, "hccl");
    else if (k->rule != NULL)
        snprintf(buf, cap, "%.*s", (int)strcspn(k->rule, "."), k->rule);
    else if (strcmp(pr_trace_str(t, pr_event_cat(t, e)), "mtia_ccp_events") ==
             0)
        snprintf(buf, cap, "mtia");
    else
        snprintf(buf, cap, "nccl");
}

/* The canonical collective of a kernel: the one its rule fixes, else its
 * metadata's, else its name's, else "other". */
static const char *
kernel_collective(const struct pr_trace *t, const struct pr_kclass *k,
                  const struct pr_gpu_info *g, const char *name)
{
    const char *coll = NULL;

    if (k->collective != NULL)
        coll = pr_comm_collective(k->collective);
    if (coll == NULL && has_meta(g))
        coll = pr_comm_collective(pr_trace_str(t, g->collective));
    if (coll == NULL)
        coll = pr_comm_collective(name);
    return coll != NULL ? coll : "other";
}

/* The time a task sized by its link bytes is rated over: where the bytes
 * are MindSpore's hccl_raw (mindspore_ascend.c's hccl_op), the transfer
 * time its parser pairs with them, the op's communication_cost in the
 * step holding the task (review31 #4: ms_cluster4's Receive, 98.7% of its
 * task time Notify Wait, read 0.3 GB/s against 22.7 over the link), -1
 * where that step has no such time; else the task's own time. */
/* Whether the run's HCCL operations carry the producer's own Transit
 * Time, task by task: torch_npu's and msprof's communication.json and
 * analysis.db's CommAnalyzerTime (msprof-analyze's Communication
 * Bandwidth Info rates bytes over it, never over Elapse). */
#define MATCH_NS 50000

static int
producer_transit(const struct pr_phases *p)
{
    return p != NULL && p->comm_source != NULL &&
           (strcmp(p->comm_source, "communication.json") == 0 ||
            strcmp(p->comm_source, "analysis.db CommAnalyzerTime") == 0);
}

/* The operation's Transit Time of the HCCL task e where producer_transit:
 * the operation of its name starting nearest it, within MATCH_NS
 * (communication.json's start is the task's to 0.1 us; analysis.db's
 * CommAnalyzerTime start was 13.4 us after its task's on npu_db1), never
 * the task's time (review32a #3, #7: npu_text2's all_reduce, 93% of its
 * Elapse Idle waiting for a late rank, read 4.3 GB/s busbw beside 15 GB/s a
 * link).  -1 where pr_comm_stat_rated_ns rates it not (why in *why: a
 * Transit Time of 0 is not replaced by its link types', summed over
 * transfers that run side by side: issue #30) or the operation gives none;
 * the task's own time where no operation names it. */
static int64_t
producer_transit_of(const struct pr_trace *t, const struct pr_event *e,
                    int *why)
{
    const struct pr_phases *p = t->phases;
    const struct pr_comm_stat *best = NULL;
    int64_t best_d = MATCH_NS + 1, ns;
    size_t i;

    for (i = 0; i < p->n_comm; i++) {
        const struct pr_comm_stat *s = &p->comm[i];
        int64_t d;

        if (s->name != e->name || s->start_ns == PR_PHASE_UNKNOWN)
            continue;
        d = s->start_ns > e->ts_ns ? s->start_ns - e->ts_ns
                                   : e->ts_ns - s->start_ns;
        if (d < best_d) {
            best = s;
            best_d = d;
        }
    }
    *why = PR_COMM_RATED;
    if (best == NULL)
        return e->dur_ns;
    ns = pr_comm_stat_rated_ns(best, why);
    return ns > 0 ? ns : -1;
}

static int64_t
transit_of(const struct pr_trace *t, const struct pr_event *e, int *why)
{
    const struct pr_phases *p = t->phases;
    int64_t step = -1;
    size_t i;

    *why = PR_COMM_RATED;
    if (producer_transit(p))
        return producer_transit_of(t, e, why);
    if (p == NULL || p->comm_source == NULL ||
        strcmp(p->comm_source, "hccl_raw") != 0 || p->n_split == 0)
        return e->dur_ns;
    /* the step as HcclParser gives it a time: the one holding it, the
       first before the first, the last after the last */
    if (e->ts_ns < p->split[0].start_ns)
        step = p->split[0].number;
    else if (e->ts_ns >= p->split[p->n_split - 1].end_ns)
        step = p->split[p->n_split - 1].number;
    for (i = 0; step < 0 && i < p->n_split; i++)
        if (e->ts_ns >= p->split[i].start_ns && e->ts_ns < p->split[i].end_ns)
            step = p->split[i].number;
    /* rated as the HCCL table rates it: over its links' own time, not
       under 1 MiB (issue #30) */
    for (i = 0; step >= 0 && i < p->n_comm; i++)
        if (p->comm[i].step == step && p->comm[i].name == e->name) {
            int64_t ns = pr_comm_stat_rated_ns(&p->comm[i], why);

            return ns > 0 ? ns : -1;
        }
    return -1;
}

/* A communication kernel: part of the host collective that launched it,
 * or a call of its own when none did (h: that collective, kernel_hop). */
static void
take_kernel(struct collect *c, struct pr_names *nc, const struct pr_event *e,
            struct hop *h)
{
    const struct pr_trace *t = c->t;
    struct pr_gpu_info gb;
    const struct pr_gpu_info *g = pr_trace_gpu(t, e, &gb);
    struct pr_kclass k;
    char backend[24];
    const char *coll;
    int why = PR_COMM_RATED;
    int64_t bw;

    if (h != NULL) {
        int proto = name_proto(pr_trace_str(t, e->name));

        h->kernel_ns = pr_sat_add_i64(h->kernel_ns, e->dur_ns);
        if (producer_transit(t->phases)) {
            int64_t tr = producer_transit_of(t, e, &why);

            h->transit_ns = h->transit_ns < 0 || tr < 0
                                ? -1
                                : pr_sat_add_i64(h->transit_ns, tr);
            if (why != PR_COMM_RATED)
                h->why = why;
        }
        if (h->n_kernels++ == 0) {
            h->meta_ev = (size_t)(e - t->events);
            h->proto = proto;
        } else if (h->proto != proto) {
            h->proto = PROTO_MIXED;
        }
        return;
    }
    pr_names_rule(nc, e->name, &k);
    kernel_backend(t, e, &k, g, backend, sizeof(backend));
    coll = kernel_collective(t, &k, g, pr_trace_str(t, e->name));
    bw = meta_link(t, g) >= 0 || producer_transit(t->phases)
             ? transit_of(t, e, &why)
             : e->dur_ns;
    add_call(c, backend, coll, e->dur_ns, bw, why, meta_bytes(t, g, coll),
             meta_link(t, g), g != NULL ? g->group_size : -1, e->ts_ns,
             name_proto(pr_trace_str(t, e->name)), pr_trace_str(t, e->name));
    if (meta_bytes(t, g, coll) < 0 && op_for(c, backend, coll) != NULL)
        op_for(c, backend, coll)->bare_unsized++;
}

/* A host collective: a CPU backend's interval is the transfer; a device
 * backend's is the time of its kernels, unknown when none was traced. */
static void
take_hop(struct collect *c, const struct hop *h)
{
    struct pr_gpu_info mb;
    const struct pr_gpu_info *meta =
        h->n_kernels > 0 ? pr_trace_gpu(c->t, &c->t->events[h->meta_ev], &mb)
                         : NULL;
    int meta_group = meta != NULL ? meta->group_size : -1;
    int group = meta_group; /* the world's size is not the group's */
    double bytes = meta_bytes(c->t, meta, h->coll);
    int64_t ns = -1, start = -1, bw;

    /* a world of one rank has only groups of one */
    if (meta_group <= 0 && c->t->world_size == 1)
        meta_group = 1;
    /* an all-gather's group from the tensors of the call around it */
    if (meta_group <= 0 && strcmp(h->coll, "all_gather") == 0)
        group = meta_group = gather_group(c, h);
    if (bytes < 0) {
        bytes = input_bytes(c->t, &c->t->events[h->ev]);
        /* nccl-tests counts all-gather by its gathered output: the input
         * times the group, whose size the world size does not tell (a
         * subgroup is common) unless the world is one rank */
        if (bytes >= 0 && strcmp(h->coll, "all_gather") == 0)
            bytes = meta_group > 0 ? bytes * meta_group : -1;
    }
    if (pr_comm_on_host(h->backend)) {
        ns = pr_sat_sub_i64(h->end_ns, h->start_ns);
        start = h->start_ns;
    } else if (h->n_kernels == 1) {
        ns = h->kernel_ns;
        start = c->t->events[h->meta_ev].ts_ns;
    } else if (h->n_kernels > 0)
        ns = h->kernel_ns;
    else if (meta_group == 1) {
        /* NCCL returns at once for nranks = 1 (a copy at most): no
         * kernel, no device time, nothing missing from the trace */
        ns = 0;
        c->single_rank++;
    }
    bw = ns;
    if (h->n_kernels > 0 && !pr_comm_on_host(h->backend) &&
        producer_transit(c->t->phases))
        bw = h->transit_ns;
    add_call(
        c, h->backend, h->coll, ns, bw, h->why, bytes, meta_link(c->t, meta),
        group, start, h->n_kernels > 0 ? h->proto : PROTO_NONE,
        h->n_kernels > 0 ? pr_trace_str(c->t, c->t->events[h->meta_ev].name)
                         : NULL);
}

/* A run with no collective task but the producer's operations
 * (communication.json of a rank folder without its kernels): each
 * operation a call, timed by its Elapse, sized by what it moved. */
static void
take_stats(struct collect *c)
{
    const struct pr_phases *p = c->t->phases;
    size_t i;

    for (i = 0; p != NULL && i < p->n_comm; i++) {
        const struct pr_comm_stat *s = &p->comm[i];
        const char *coll = pr_producer_collective(
            s->name != PR_STR_NONE ? pr_trace_str(c->t, s->name) : "");

        double link = pr_comm_stat_bytes(s);
        int64_t ns = s->elapse_ns != PR_PHASE_UNKNOWN ? s->elapse_ns : -1;
        int why;
        int64_t bw = pr_comm_stat_rated_ns(s, &why);

        if (bw == PR_PHASE_UNKNOWN)
            bw = ns;
        /* what the rank sent over its links, not the message, rated over
           the operation's Transit Time (review32a #3) */
        add_call(c, "hccl", coll ? coll : "other", ns, bw, why,
                 link_message(link, coll, s->group_size), link, s->group_size,
                 -1, PROTO_NONE, NULL);
    }
}

/* A kernel of NCCL or RCCL (the kernel table's rule, or none: known by
 * its collective metadata), kept with its collective for kernel_times;
 * HCCL's tasks have their own peer reading (critpath.c peer_waits). */
static void
keep_time(struct collect *c, struct pr_names *nc, const struct pr_event *e,
          const struct hop *h)
{
    const struct pr_trace *t = c->t;
    struct pr_gpu_info gb;
    const struct pr_gpu_info *g = pr_trace_gpu(t, e, &gb);
    struct pr_kclass k;
    char backend[24];

    pr_names_rule(nc, e->name, &k);
    kernel_backend(t, e, &k, g, backend, sizeof(backend));
    if ((strcmp(backend, "nccl") != 0 && strcmp(backend, "rccl") != 0) ||
        e->dur_ns <= 0)
        return;
    if (c->n_kts == c->cap_kts) {
        size_t cap = c->cap_kts ? 2 * c->cap_kts : 64;
        struct ktime *v = realloc(c->kts, cap * sizeof(*v));

        if (v == NULL) {
            c->oom = 1;
            return;
        }
        c->kts = v;
        c->cap_kts = cap;
    }
    /* issue #28: the collective the host op launching it names (Nsight's
       emit_nvtx range nccl:all_to_all around the launch of an
       ncclDevKernel_SendRecv: PyTorch's all-to-all runs as NCCL's grouped
       sends and receives), else the kernel's own */
    c->kts[c->n_kts].coll =
        h != NULL ? h->coll
                  : kernel_collective(t, &k, g, pr_trace_str(t, e->name));
    c->kts[c->n_kts].s = e->ts_ns;
    c->kts[c->n_kts].e = pr_sat_add_i64(e->ts_ns, e->dur_ns);
    c->n_kts++;
}

static enum pr_status
collect_calls(struct collect *c, struct pr_error *err)
{
    struct pr_names nc;
    size_t i;
    enum pr_status st = index_trace(c, err);

    if (st != PR_OK)
        return st;
    pr_names_init(&nc, c->t);
    for (i = 0; i < c->t->n_events; i++)
        if (pr_comm_kernel_cached(&nc, &c->t->events[i])) {
            /* the launching host op, looked up once for both */
            struct hop *h = kernel_hop(c, &c->t->events[i]);

            keep_time(c, &nc, &c->t->events[i], h);
            take_kernel(c, &nc, &c->t->events[i], h);
        }
    pr_names_free(&nc);
    for (i = 0; i < c->n_hops; i++)
        take_hop(c, &c->hops[i]);
    if (c->n_ops == 0)
        take_stats(c);
    return PR_OK;
}

/* ---- the summary */

static int
cmp_op(const void *a, const void *b)
{
    const struct op *x = a, *y = b;

    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The group size a collective's bus bandwidth is computed with: its
 * own, else, for PyTorch's distributedInfo, the world (the default group:
 * as the plugin and nccl-tests count a job's collectives); never a lower
 * bound of the world or the number of ranks read (issue #30).  0 when
 * unknown. */
static int
group_of(const struct pr_trace *t, const struct op *o)
{
    if (o->group > 0)
        return o->group;
    if (t->world_source != NULL &&
        strcmp(t->world_source, "distributedInfo") == 0 && t->world_size > 0)
        return (int)t->world_size;
    return 0;
}

/* Time that does not grow with size: the larger calls' mean time grows
 * by under a quarter of their size's growth (a bandwidth-bound call's
 * time grows as its size: 6.5x the bytes, 6.5x the time), and by under a
 * quarter at all (trace_diff test's all_to_all, 173 kB calls in 33 us
 * and 160 MB ones in 6.2 ms: 924x the bytes, 188x the time, grows, though
 * latency holds up its small calls' time), nor shrinks by as much
 * (MindSpore's cluster ranks: 12.5 MiB all-reduces in 48 ms, 104 MiB ones
 * in 2.3 ms, the small calls waiting, not taking as long whatever they
 * move).  HTA's
 * cpu_only: gloo buckets of 1.29 MB and 8.33 MB both take ~175 ms
 * (review-5 finding 3); nccl_parser_config: all-reduce buckets of 8.2 and
 * 31.5 MB both take ~3 ms (review 6 #5).  The reading in words, beside
 * the collective table (sections.c, the terminal) and in the
 * communication advice (whatif.c); 0 where it does not hold. */
#define SIZE_FLAT 0.25
#define SIZE_NOTE_BYTES 1048576.0

static void
fmt_ms(double ns, char *buf, size_t cap)
{
    if (ns >= 1e6)
        snprintf(buf, cap, "%.1f ms", ns / 1e6);
    else
        snprintf(buf, cap, "%.0f \xC2\xB5s", ns / 1e3);
}

static int
size_note(const struct op *o, char *text, size_t cap)
{
    double sb = o->small_bytes, lb = o->large_bytes, st = o->small_ns,
           lt = o->large_ns;
    char a[32], b[32];

    /* calls of a MiB or more: a bandwidth-bound size on any link (small
       messages are latency-bound by nature: nccl_parser_config's
       broadcasts of 0.4 kB and 0.2 MiB) */
    if (o->small_n <= 0 || !(sb > 0 && st > 0 && lb >= 2 * sb && lt > 0) ||
        !(lb >= SIZE_NOTE_BYTES) ||
        !(lt / st - 1 < SIZE_FLAT * (lb / sb - 1)) ||
        !(lt / st < 1 + SIZE_FLAT) || !(lt / st > 1 / (1 + SIZE_FLAT)))
        return 0;
    fmt_ms(st, a, sizeof(a));
    fmt_ms(lt, b, sizeof(b));
    /* its return used: gcc then does not warn of a cut it cannot rule out
       for a name of any length (the note is cut at cap, as before) */
    return snprintf(
               text, cap,
               "%s: time does not grow with size: its %lld calls of %.2f MiB "
               "take %s on average and its %lld calls of %.2f MiB take %s "
               "(%.1fx the bytes, %.2fx the time), so the link's bandwidth is "
               "not what limits them, and the bandwidth columns are each "
               "call's bytes over its time, not what the link can carry. A "
               "call that takes as long whatever it moves waits on per-hop "
               "latency or on peers that arrive late.",
               o->name, (long long)o->small_n, sb / 1048576.0, a,
               (long long)o->large_n, lb / 1048576.0, b, lb / sb, lt / st) >= 0;
}

void
pr_comm_bytes_text(double b, char *buf, size_t cap)
{
    if (b >= 1073741824.0)
        snprintf(buf, cap, "%.2f GiB", b / 1073741824.0);
    else if (b >= 1048576.0)
        snprintf(buf, cap, "%.1f MiB", b / 1048576.0);
    else
        snprintf(buf, cap, "%.1f KiB", b / 1024.0);
}

/* Some of an op's calls sized by link bytes whose message they give (a
 * factor of 1: send, recv, broadcast), each of those rated, and the
 * others with no link bytes at all: its rates are over the sized ones,
 * as for a size had from the trace (issue #30 review: ms_cluster4's
 * ranks 2 and 3, 6 of 20 receives in hccl_raw, were left unrated while
 * the HCCL table rated them at 22-24 GB/s). */
static int
link_partial(const struct op *o)
{
    return o->link_sized > 0 && o->link_sized < o->calls &&
           o->link_sized_open == 0 && o->link_small == 0 &&
           o->link_calls == o->link_sized && o->bw_calls == o->link_sized &&
           o->sized_calls == o->link_sized && o->timed_calls == o->calls;
}

/* Where some of an op's calls have no size (or no time) and the rest
 * give a rate: which are sized, why the others are not where the trace
 * says (a kernel without its host call), and what the bandwidth columns
 * are over (review 22g #4: HTA's trace_diff test, 18 of 21 all-reduces
 * sized by their host calls' Input Dims, 1.12 GiB, shown as unknown).
 * 0 where every call is sized and timed, or none gives a rate. */
static int
sized_note(const struct op *o, char *text, size_t cap)
{
    char b[32], bw[32], all[32];
    size_t len;
    int w;

    if (o->bw_calls == 0 || (o->link_calls > 0 && !link_partial(o)) ||
        (o->sized_calls == o->calls && o->timed_calls == o->calls))
        return 0;
    pr_comm_bytes_text(o->bytes, b, sizeof(b));
    if (link_partial(o))
        w = snprintf(text, cap,
                     "%s: %lld of its %lld calls %s link bytes in hccl_raw, "
                     "their size (%s in all); the file holds none for the "
                     "other %lld, so they are neither sized nor rated",
                     o->name, (long long)o->sized_calls, (long long)o->calls,
                     o->sized_calls == 1 ? "has" : "have", b,
                     (long long)(o->calls - o->sized_calls));
    else if (o->sized_calls < o->calls)
        w = snprintf(text, cap,
                     "%s: %lld of its %lld calls %s a size in the trace (%s "
                     "in all)",
                     o->name, (long long)o->sized_calls, (long long)o->calls,
                     o->sized_calls == 1 ? "has" : "have", b);
    else
        w = snprintf(text, cap,
                     "%s: its %lld calls have a size in the trace (%s in "
                     "all), %lld of them no time in it",
                     o->name, (long long)o->calls, b,
                     (long long)(o->calls - o->timed_calls));
    len = w < 0 ? cap : (size_t)w;
    if (o->bare_unsized > 0 && !link_partial(o) && len < cap) {
        w = snprintf(text + len, cap - len,
                     "; %lld %s whose host call%s the trace does not "
                     "hold (issued outside the host's record), so nothing "
                     "gives %s size",
                     (long long)o->bare_unsized,
                     o->bare_unsized == 1 ? "is a kernel" : "are kernels",
                     o->bare_unsized == 1 ? "" : "s",
                     o->bare_unsized == 1 ? "its" : "their");
        len = w < 0 ? cap : len + (size_t)w;
    }
    fmt_ms((double)o->bw_ns, bw, sizeof(bw));
    fmt_ms((double)o->total_ns, all, sizeof(all));
    if (len < cap)
        snprintf(text + len, cap - len,
                 ". The bandwidth columns are over the %lld calls both sized "
                 "and timed (%s%s%s).",
                 (long long)o->bw_calls, bw,
                 o->bw_ns != o->total_ns ? " of the " : "",
                 o->bw_ns != o->total_ns ? all : "");
    return 1;
}

static const char *
proto_word(int proto)
{
    return proto == PROTO_LL       ? "LL"
           : proto == PROTO_LL128  ? "LL128"
           : proto == PROTO_SIMPLE ? "SIMPLE"
                                   : NULL;
}

/* Every call of an op sized by its link bytes alone and timed, and rated
 * or left unrated for moving under PR_COMM_RATE_MIN_BYTES only, some so:
 * its rates are over the rated calls, the others shown apart (issue #30:
 * ms_cluster4's mindspore:all_reduce read 5.9 GB/s busbw over 445 calls,
 * most of 2-4 kB, latency). */
static int
link_split(const struct op *o)
{
    /* the calls with link bytes (link_sized), not all the op's calls:
       hccl_raw may hold fewer operations than the trace has calls, the
       rest with no link bytes at all (issue #30 review: ms_cluster4's
       rank 2, 489 of 1705 all-reduces) */
    return o->link_small > 0 &&
           o->link_calls + o->link_small == o->link_sized &&
           o->timed_calls == o->calls;
}

/* Where link_split holds: the calls left out of the rate for their size
 * and what the rate is over, in text at len; the new length. */
static size_t
small_note(const struct op *o, char *text, size_t cap, size_t len)
{
    char sb[32], st[32], lb[32];
    double ns = (double)o->link_small, nl = (double)o->link_calls;
    int w;

    if (!link_split(o) || len >= cap)
        return len;
    pr_comm_bytes_text(o->link_small_bytes / ns, sb, sizeof(sb));
    fmt_ms((double)o->link_small_ns / ns, st, sizeof(st));
    if (o->link_calls == 0)
        w = snprintf(text + len, cap - len,
                     "; %s: no rate holds: each of its %lld calls %smoved "
                     "under 1 MiB over the links (%s and %s a call on "
                     "average), so its time is latency, not bandwidth",
                     o->name, (long long)o->link_small,
                     o->link_sized < o->calls ? "with link bytes " : "", sb,
                     st);
    else {
        pr_comm_bytes_text(o->link_bytes / nl, lb, sizeof(lb));
        w = snprintf(text + len, cap - len,
                     "; %s: %lld of its %lld calls %smoved under 1 MiB "
                     "over the links (%s and %s a call on average): their "
                     "time is latency, not bandwidth, and they are left out "
                     "of its rates, which are over the other %lld (%s a call "
                     "on average)",
                     o->name, (long long)o->link_small,
                     (long long)o->link_sized,
                     o->link_sized < o->calls ? "with link bytes " : "", sb, st,
                     (long long)o->link_calls, lb);
    }
    return w < 0 ? cap : len + (size_t)w;
}

/* An op's typed row (rows.def's pr_row_comm_op); note holds its
 * size_note's text. */
static int
emit_op(const struct pr_trace *t, const struct op *o, cJSON *arr)
{
    char note[700], snote[700];
    int group = group_of(t, o);
    double algbw = NAN, factor;
    int wall, sized;
    struct pr_row_comm_op r = {
        .name = o->name,
        .backend = o->backend,
        .calls = o->calls,
        .total_bytes =
            o->sized_calls == o->calls && o->calls > 0 ? o->bytes : NAN,
        .timed_calls = o->timed_calls,
        .total_us = o->timed_calls > 0 ? (double)o->total_ns / 1000.0 : NAN,
        .mean_us = o->timed_calls > 0
                       ? (double)o->total_ns / 1000.0 / (double)o->timed_calls
                       : NAN,
        .group_size = group > 0 ? group : NAN,
        .kernel_protocol = proto_word(o->proto),
    };

    /* over the calls both sized and timed (bw_calls), which the tables
       and sized_note then name beside the calls' count (review 22g #4:
       HTA's trace_diff test, 18 of 21 nccl:all_reduce sized by their
       host calls, had no rate at all; review-5 finding 9 had voided it
       where the table gave no count of the sized calls beside it).
       Sizes from link bytes alone keep every call or none (link_note),
       but where the others have no link bytes at all (link_partial) */
    if (o->bw_ns > 0 &&
        ((o->sized_calls == o->calls && o->timed_calls == o->calls &&
          o->bw_calls == o->calls) ||
         o->link_calls == 0 ||
         (link_split(o) && o->bw_calls == o->link_calls) || link_partial(o)))
        algbw = o->bw_bytes / (double)o->bw_ns; /* bytes/ns = GB/s */
    r.algbw_gbps = algbw;
    r.sized_calls = o->sized_calls;
    r.sized_bytes = o->sized_calls > 0 ? o->bytes : NAN;
    r.bw_calls = isnan(algbw) ? 0 : o->bw_calls;
    r.bw_us = isnan(algbw) ? NAN : (double)o->bw_ns / 1000.0;
    if (!isnan(algbw) && sized_note(o, snote, sizeof(snote)))
        r.sized_note = snote;
    /* the bus factor needs the group's size: never the world's in its
       place (a subgroup is common) */
    factor = pr_comm_bus_factor(o->coll, group > 0 ? group : 2);
    if (group <= 0 && factor != pr_comm_bus_factor(o->coll, 3))
        factor = NAN; /* depends on a size the trace does not give */
    r.busbw_gbps = algbw * factor;
    /* every call sized by its link bytes alone, some without the group
       size its message needs: no algbw, and busbw is what the links
       carried over the time (nccl-tests' busBw is that for a ring) */
    if (isnan(algbw) && o->link_open > 0 && o->timed_calls == o->calls &&
        o->link_ns > 0 &&
        (o->link_calls == o->calls || (link_split(o) && o->link_calls > 0))) {
        r.busbw_gbps = o->link_bytes / (double)o->link_ns;
        /* what it is over, where some calls are left out */
        r.bw_calls = link_split(o) ? o->link_calls : r.bw_calls;
        r.bw_us = link_split(o) ? (double)o->link_ns / 1000.0 : r.bw_us;
    }
    /* calls in flight together share the link: their bytes over the
       time any was in flight, beside nccl-tests' per-call algBw */
    wall = o->wall_ns > 0 && !isnan(algbw);
    r.wall_us = wall ? (double)o->wall_ns / 1000.0 : NAN;
    r.in_flight_max = wall ? o->in_flight : NAN;
    r.wall_gbps = wall ? o->bw_bytes / (double)o->wall_ns : NAN;
    sized = o->small_n > 0 && !isnan(algbw);
    r.small_calls = sized ? (double)o->small_n : NAN;
    r.small_bytes = sized ? o->small_bytes : NAN;
    r.small_us = sized ? (double)(int64_t)o->small_ns / 1000.0 : NAN;
    r.large_calls = sized ? (double)o->large_n : NAN;
    r.large_bytes = sized ? o->large_bytes : NAN;
    r.large_us = sized ? (double)(int64_t)o->large_ns / 1000.0 : NAN;
    /* sized by link bytes, some calls too small to rate: those apart
       (count, mean link bytes, mean time), the rated ones beside them */
    if (!sized && link_split(o)) {
        double nl = (double)o->link_calls, ns = (double)o->link_small;

        r.small_calls = ns;
        r.small_bytes = o->link_small_bytes / ns;
        r.small_us = (double)o->link_small_ns / 1000.0 / ns;
        r.large_calls = nl;
        r.large_bytes = nl > 0 ? o->link_bytes / nl : NAN;
        r.large_us = nl > 0 ? (double)o->link_large_ns / 1000.0 / nl : NAN;
    }
    if (!isnan(algbw) && size_note(o, note, sizeof(note)))
        r.size_note = note;
    return pr_rows_write(arr, PR_RO_RUNS_COMMUNICATION_OPS, &r, 1);
}

/* Every call of a collective ran a kernel named for the LL protocol, 4 MiB
 * calls or larger among them: the name is no evidence of the protocol.
 * NCCL's maintainers: one kernel runs any operation, algorithm and
 * protocol its work items name, the name hinting at one combination only
 * (NVIDIA/nccl #739 "looking at the kernel name no longer reflects what
 * is actually run", #1595, #2196), so ..._RING_LL on a 31.5 MB bucket
 * (HTA's nccl_parser_config) does not show NCCL_PROTO forced LL, whose
 * 8-byte stores carry 4 bytes of flag and cap it at half the peak
 * bandwidth (#281).  NCCL_DEBUG_SUBSYS=TUNING logs the choice.  Said once
 * a run, for its largest such op. */
#define PROTO_NOTE_BYTES (4.0 * 1048576.0)

static const char *
proto_note(const struct collect *c, char *text, size_t cap)
{
    const struct op *big = NULL;
    size_t i;

    for (i = 0; i < c->n_ops; i++) {
        const struct op *x = &c->ops[i];

        if (x->proto == PROTO_LL && x->kernel != NULL &&
            x->max_bytes >= PROTO_NOTE_BYTES &&
            (big == NULL || x->max_bytes > big->max_bytes))
            big = x;
    }
    if (big == NULL)
        return NULL;
    snprintf(text, cap,
             "Every %s call ran a kernel named for NCCL's LL protocol "
             "(%.*s), calls of %.1f MiB included. The name does not say "
             "which protocol ran: one NCCL kernel runs whatever algorithm "
             "and protocol NCCL chose for each call, its name hinting at "
             "one of them only (NCCL's maintainers, NVIDIA/nccl issues 739, "
             "1595 and 2196), so it is no sign that NCCL_PROTO forced LL, "
             "which would cap these calls at half the link's bandwidth. "
             "NCCL_DEBUG=INFO with NCCL_DEBUG_SUBSYS=TUNING logs the "
             "protocol each call gets.",
             big->name, (int)strcspn(big->kernel, "(<"), big->kernel,
             big->max_bytes / 1048576.0);
    return text;
}

static int
cmp_iv(const void *pa, const void *pb)
{
    const struct call_iv *a = pa, *b = pb;

    if (a->op != b->op)
        return a->op < b->op ? -1 : 1;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

/* Does a call's time grow with its size?  Its calls split at the
 * geometric middle of their smallest and largest sizes, where those are
 * 2x apart or more, each side with 2 calls or more, all in one group;
 * the means of each side (review-5 finding 3: HTA's cpu_only, gloo
 * buckets of 1.29 MB and 8.33 MB that take the same ~170 ms). */
#define SIZE_SPAN 2.0

static void
by_size(struct op *o, const struct call_iv *v, size_t n)
{
    double lo = v[0].bytes, hi = v[0].bytes, mid;
    size_t i;

    for (i = 1; i < n; i++) {
        if (v[i].group != v[0].group)
            return;
        lo = v[i].bytes < lo ? v[i].bytes : lo;
        hi = v[i].bytes > hi ? v[i].bytes : hi;
    }
    if (!(lo > 0) || !(hi >= SIZE_SPAN * lo))
        return;
    mid = sqrt(lo * hi);
    for (i = 0; i < n; i++) {
        double ns = (double)(v[i].b - v[i].a);

        if (v[i].bytes < mid) {
            o->small_n++;
            o->small_bytes += v[i].bytes;
            o->small_ns += ns;
        } else {
            o->large_n++;
            o->large_bytes += v[i].bytes;
            o->large_ns += ns;
        }
    }
    if (o->small_n < 2 || o->large_n < 2) {
        o->small_n = o->large_n = 0;
        return;
    }
    o->small_bytes /= (double)o->small_n;
    o->small_ns /= (double)o->small_n;
    o->large_bytes /= (double)o->large_n;
    o->large_ns /= (double)o->large_n;
}

/* Each op's wall time and most calls in flight, from its calls'
 * intervals; only where every sized and timed call has one (a wall over
 * part of the bytes would overstate the rate). */
#define MAX_IN_FLIGHT 256

static void
walls(struct collect *c)
{
    size_t i = 0, j, k;
    int64_t ends[MAX_IN_FLIGHT];

    if (c->oom || c->n_ivs == 0)
        return;
    qsort(c->ivs, c->n_ivs, sizeof(*c->ivs), cmp_iv);
    while (i < c->n_ivs) {
        struct op *o = &c->ops[c->ivs[i].op];
        int64_t end = c->ivs[i].a, span = 0, sum = 0;
        int most = 0;

        size_t live = 0;

        for (j = i; j < c->n_ivs && c->ivs[j].op == c->ivs[i].op; j++) {
            /* the ends of the calls still in flight when this one starts */
            for (k = 0; k < live;)
                if (ends[k] <= c->ivs[j].a)
                    ends[k] = ends[--live];
                else
                    k++;
            if (live < MAX_IN_FLIGHT)
                ends[live++] = c->ivs[j].b;
            most = (int)live > most ? (int)live : most;
            sum = pr_sat_add_i64(sum, c->ivs[j].b - c->ivs[j].a);
            if (c->ivs[j].a >= end)
                span = pr_sat_add_i64(span, c->ivs[j].b - c->ivs[j].a);
            else if (c->ivs[j].b > end)
                span = pr_sat_add_i64(span, c->ivs[j].b - end);
            if (c->ivs[j].b > end)
                end = c->ivs[j].b;
        }
        if (sum == o->bw_ns) {
            o->wall_ns = span;
            o->in_flight = most;
            by_size(o, &c->ivs[i], j - i);
        }
        i = j;
    }
}

/* The ops' rows, by cmp_op; NULL when out of memory. */
static cJSON *
emit_ops(const struct pr_trace *t, struct op *ops, size_t n)
{
    cJSON *arr = cJSON_CreateArray();
    size_t i;

    qsort(ops, n, sizeof(*ops), cmp_op);
    for (i = 0; i < n && arr != NULL; i++)
        if (!emit_op(t, &ops[i], arr)) {
            cJSON_Delete(arr);
            arr = NULL;
        }
    return arr;
}

/* 13.2 per step, as steps.c split it over its role ranges: computation is
 * kernel time (host operator time when the run has no kernel at all), and
 * communication is the Communication role, the same ranges the breakdown
 * splits. */
static void
emit_steps(const struct pr_steps *steps, struct pr_row_communication *c,
           int compute, cJSON *arr, int *ok)
{
    int64_t sum[4] = {0, 0, 0, 0};
    size_t i;

    for (i = 0; i < steps->n && *ok; i++) {
        const struct pr_step *s = &steps->v[i];
        int64_t cp = s->comp_ns, cm = s->comm_ns, bo = s->both_ns;
        int64_t other = pr_sat_sub_i64(
            pr_sat_sub_i64(
                pr_sat_add_i64(pr_sat_sub_i64(s->end_ns, s->start_ns), bo), cp),
            cm);
        struct pr_row_comm_step r;

        if (other < 0) /* only after saturation: span >= |comp U comm| */
            other = 0;
        /* no compute task: what overlaps is not known (review31 #8) */
        r = (struct pr_row_comm_step){(int64_t)i, cp - bo,
                                      compute ? (double)bo / 1000.0 : NAN,
                                      cm - bo, other};
        *ok = arr != NULL &&
              pr_rows_write(arr, PR_RO_RUNS_COMMUNICATION_PER_STEP, &r, 1);
        sum[0] = pr_sat_add_i64(sum[0], cp - bo);
        sum[1] = pr_sat_add_i64(sum[1], bo);
        sum[2] = pr_sat_add_i64(sum[2], cm - bo);
        sum[3] = pr_sat_add_i64(sum[3], other);
    }
    if (steps->n > 0) {
        double n = (double)steps->n * 1000.0;
        c->computation_us = (double)sum[0] / n;
        /* no compute task (a MindSpore export of its HCCL tasks only,
           review31 #8): what computes beside the collectives is not
           known, so neither is their overlap (0 would be a claim) */
        c->overlap_us = compute ? (double)sum[1] / n : NAN;
        c->communication_us = (double)sum[2] / n;
        c->other_us = (double)sum[3] / n;
    } else { /* no step: no mean split */
        pr_rows_omit(PR_RO_RUNS_COMMUNICATION, c,
                     PR_SR_RUNS_COMMUNICATION_PR_K_COMPUTATION_US);
        pr_rows_omit(PR_RO_RUNS_COMMUNICATION, c,
                     PR_SR_RUNS_COMMUNICATION_PR_K_OVERLAP_US);
        pr_rows_omit(PR_RO_RUNS_COMMUNICATION, c,
                     PR_SR_RUNS_COMMUNICATION_PR_K_COMMUNICATION_US);
        pr_rows_omit(PR_RO_RUNS_COMMUNICATION, c,
                     PR_SR_RUNS_COMMUNICATION_PR_K_OTHER_US);
    }
}

/* Device-side collectives whose kernels are not in the trace (GPU
 * activities not recorded): their calls are listed, their time is not
 * known, and the split per step cannot show it. */
/* The producer's operation list (communication.json) holds more HCCL
 * operations than the task list gave the table (review 20 #3: old2023's
 * kernel_details.csv has 4 HCCL tasks, its communication.json 28
 * operations a rank): what each lists, in text at len; the new length. */
static size_t
fuller_list(const struct collect *c, char *text, size_t cap, size_t len)
{
    const struct pr_phases *p = c->t->phases;
    static const char *const kinds[] = {
        "all_reduce", "all_gather", "reduce_scatter", "all_to_all",
        "broadcast",  "reduce",     "send",           "recv"};
    int64_t tasks = 0, n[sizeof(kinds) / sizeof(kinds[0]) + 1] = {0};
    size_t i, k, all = 0;
    int w;

    for (i = 0; i < c->n_ops; i++)
        if (strcmp(c->ops[i].backend, "hccl") == 0)
            tasks += c->ops[i].calls;
    for (i = 0; p != NULL && i < p->n_comm; i++) {
        const char *coll = pr_producer_collective(
            p->comm[i].name != PR_STR_NONE ? pr_trace_str(c->t, p->comm[i].name)
                                           : "");

        for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
            if (coll != NULL && strcmp(coll, kinds[k]) == 0)
                break;
        n[k]++;
        all++;
    }
    if (tasks == 0 || (int64_t)all <= tasks || p->comm_source == NULL ||
        len >= cap)
        return len;
    w = snprintf(text + len, cap - len,
                 "%sthe collective table lists the %lld HCCL tasks the "
                 "task list recorded, while %s lists %zu operations (",
                 len > 0 ? "; " : "", (long long)tasks, p->comm_source, all);
    for (k = 0;
         w >= 0 && len + (size_t)w < cap && k <= sizeof(n) / sizeof(n[0]) - 1;
         k++)
        if (n[k] > 0) {
            size_t at = len + (size_t)w;
            int more = snprintf(
                text + at, cap - at, "%s%lld %s",
                text[at - 1] == '(' ? "" : ", ", (long long)n[k],
                k < sizeof(kinds) / sizeof(kinds[0]) ? kinds[k] : "other");

            w = more < 0 ? -1 : w + more;
        }
    if (w >= 0 && len + (size_t)w < cap)
        w += snprintf(text + len + (size_t)w, cap - len - (size_t)w,
                      "): the task list is incomplete, and the table's "
                      "counts, times and bandwidths are of its tasks only");
    return w < 0 ? len : len + (size_t)w;
}

/* Ops sized by their link bytes alone (PR_DTYPE_LINK_BYTES, review 20
 * #1): how the message was had from them, or why it was not, in text at
 * len; the new length. */
static size_t
link_note(const struct collect *c, char *text, size_t cap, size_t len)
{
    size_t i, at;
    int any = 0, open = 0, first = 1, w, ms;

    for (i = 0; i < c->n_ops; i++) {
        any |= c->ops[i].link_sized > 0 && c->ops[i].link_sized_open == 0;
        open |= c->ops[i].link_sized_open > 0;
    }
    if ((!any && !open) || len >= cap)
        return len;
    ms = c->t->phases != NULL && c->t->phases->comm_source != NULL &&
         strcmp(c->t->phases->comm_source, "hccl_raw") == 0;
    w = snprintf(text + len, cap - len,
                 "%sthe trace gives HCCL's sizes only as the bytes each call "
                 "%s over this rank's links (%s), not the message",
                 len > 0 ? "; " : "", ms ? "moved" : "sent",
                 ms ? "MindSpore's hccl_raw link_info sizes, sent and "
                      "received, as its HcclParser sums them, but a "
                      "collective's pairs of a rank with itself, its SDMA "
                      "copies in the card, which cross no link"
                 : c->t->phases == NULL || c->t->phases->comm_source == NULL
                     ? "the sizes of its HCCL plane tasks"
                     : "communication.json's Transit Size");
    at = w < 0 ? cap : len + (size_t)w;
    for (i = 0; any && at < cap && i < c->n_ops; i++) {
        const struct op *o = &c->ops[i];
        int g = group_of(c->t, o);
        double f = link_factor(o->coll, g);

        if (o->link_sized == 0 || o->link_sized_open > 0)
            continue;
        w = snprintf(text + at, cap - at, "%s%s %.4g",
                     first ? ": the bytes shown are those over the bus "
                             "bandwidth factor of each collective (a ring's "
                             "2(n-1)/n of the message for all_reduce, "
                             "(n-1)/n for all_gather and reduce_scatter), so "
                             "algbw is the message over the time and busbw "
                             "the link bytes over it ("
                           : ", ",
                     o->name, f);
        first = 0;
        at = w < 0 ? cap : at + (size_t)w;
        if (at < cap && f != 1.0) {
            w = snprintf(text + at, cap - at, " for n = %d", g);
            at = w < 0 ? cap : at + (size_t)w;
        }
    }
    if (!first && at < cap) {
        w = snprintf(text + at, cap - at, ")");
        at = w < 0 ? cap : at + (size_t)w;
    }
    for (i = 0; ms && at < cap && i < c->n_ops; i++)
        if (c->ops[i].transit_calls > 0) {
            w = snprintf(text + at, cap - at,
                         "; their algbw and busbw are over the link time "
                         "the parser pairs with those bytes (each link "
                         "entry's time, HcclParser's per-link bandwidth "
                         "is the size over it), not the task's time, "
                         "which also holds the wait for the peer (Notify "
                         "Wait, the hccl rows' wait_us)");
            at = w < 0 ? cap : at + (size_t)w;
            break;
        }
    /* a ring's rank names its neighbours' links only: n may be short,
       its factor too small and the message derived too large */
    if (!first && at < cap && c->t->group_floor)
        for (i = 0; i < c->n_ops; i++)
            if (c->ops[i].link_sized > 0 && c->ops[i].link_sized_open == 0 &&
                link_factor(c->ops[i].coll, group_of(c->t, &c->ops[i])) !=
                    1.0) {
                w = snprintf(
                    text + at, cap - at,
                    "; n is the ranks this rank's links name in the group "
                    "(communication_matrix.json), as no file here lists "
                    "the group's members: the group has at least n ranks "
                    "(a ring's rank links only to its neighbours), so the "
                    "bytes and algbw shown are upper bounds, while busbw, "
                    "the link bytes over the time, holds for any n");
                at = w < 0 ? cap : at + (size_t)w;
                break;
            }
    for (i = 0; open && at < cap && i < c->n_ops; i++) {
        const struct op *o = &c->ops[i];

        if (o->link_sized_open == 0)
            continue;
        if (o->link_sized < o->calls)
            w = snprintf(text + at, cap - at,
                         "; %s: %lld of its %lld calls have link bytes in "
                         "hccl_raw (the other %lld none: the file holds "
                         "fewer of its operations than the trace has "
                         "calls, so they are neither sized nor rated), ",
                         o->name, (long long)o->link_sized, (long long)o->calls,
                         (long long)(o->calls - o->link_sized));
        else
            w = snprintf(text + at, cap - at, "; %s: %lld of its ", o->name,
                         (long long)o->link_sized_open);
        at = w < 0 ? cap : at + (size_t)w;
        if (at >= cap)
            break;
        if (o->link_sized < o->calls)
            w = snprintf(text + at, cap - at, "%lld of those",
                         (long long)o->link_sized_open);
        else
            w = snprintf(text + at, cap - at, "%lld calls",
                         (long long)o->calls);
        at = w < 0 ? cap : at + (size_t)w;
        if (at >= cap)
            break;
        w = snprintf(text + at, cap - at,
                     " have no group size in the trace, so their message is "
                     "not known (an all-reduce sends 2(n-1)/n times it): no "
                     "bytes or algbw shown, and busbw is the link bytes over "
                     "the time");
        at = w < 0 ? cap : at + (size_t)w;
    }
    /* hccl_raw's (elsewhere transit_note counts the calls under 1 MiB) */
    for (i = 0; ms && at < cap && i < c->n_ops; i++)
        at = small_note(&c->ops[i], text, cap, at);
    return at < cap ? at : strlen(text);
}

/* Where the run's bandwidths are over the producer's Transit Time
 * (producer_transit): that they are, and the calls left unrated, in text
 * at len; the new length. */
static size_t
transit_note(const struct collect *c, char *text, size_t cap, size_t len)
{
    int64_t transit = 0;
    size_t i;
    int w;

    for (i = 0; i < c->n_ops; i++)
        transit += c->ops[i].transit_calls;
    if (!producer_transit(c->t->phases) || (transit == 0 && c->unrated == 0) ||
        len >= cap)
        return len;
    w = snprintf(text + len, cap - len,
                 "%salgbw and busbw are over each HCCL operation's Transit "
                 "Time (%s), not the task's time, which also holds the wait "
                 "for the peer (its Wait and Idle Time)",
                 len > 0 ? "; " : "", c->t->phases->comm_source);
    len = w < 0 ? cap : len + (size_t)w;
    if (c->unrated > c->unrated_small + c->unrated_long && len < cap) {
        w = snprintf(
            text + len, cap - len,
            "; %lld call(s) whose operation has a Transit Time of 0 "
            "(torch_npu records 0 for some operations whose links "
            "carried bytes, in 2023 builds as in 2.7.1 with CANN 8.3) "
            "are not rated: the per-link Transit Time in its "
            "Bandwidth Info sums transfers that run in parallel, so it "
            "is not the operation's time (the HCCL table's note gives "
            "msprof's per-link figure where one link type carried the "
            "bytes)",
            (long long)(c->unrated - c->unrated_small - c->unrated_long));
        len = w < 0 ? cap : len + (size_t)w;
    }
    if (c->unrated_small > 0 && len < cap) {
        w = snprintf(text + len, cap - len,
                     "; %lld call(s) whose operation sent under 1 MiB are "
                     "not rated: their time is latency, not bandwidth",
                     (long long)c->unrated_small);
        len = w < 0 ? cap : len + (size_t)w;
    }
    if (c->unrated_long > 0 && len < cap) {
        w = snprintf(text + len, cap - len,
                     "; %lld call(s) whose operation's Transit Time is "
                     "longer than its Elapse are not rated",
                     (long long)c->unrated_long);
        len = w < 0 ? cap : len + (size_t)w;
    }
    if (c->unrated > 0 && len < cap) {
        w = snprintf(text + len, cap - len,
                     "; a row sized by link bytes alone is not rated unless "
                     "all its calls are, those under 1 MiB aside");
        len = w < 0 ? cap : len + (size_t)w;
    }
    return len < cap ? len : strlen(text);
}

static const char *
note(const struct collect *c, char *text, size_t cap)
{
    int64_t untimed = 0;
    size_t i;
    size_t len = 0;

    for (i = 0; i < c->n_ops; i++)
        untimed += c->ops[i].calls - c->ops[i].timed_calls;
    text[0] = '\0';
    if (untimed == 0 && c->single_rank == 0)
        return fuller_list(
                   c, text, cap,
                   transit_note(c, text, cap, link_note(c, text, cap, 0))) > 0
                   ? text
                   : NULL;
    if (c->single_rank > 0)
        len = (size_t)snprintf(
            text, cap,
            "%lld collective call(s) ran on a group of one rank: NCCL "
            "launches no kernel when nranks = 1, so they take no device "
            "time (a single-process run; nothing is missing)",
            (long long)c->single_rank);
    if (untimed > 0 && len < cap)
        snprintf(text + len, cap - len,
                 "%s%lld collective call(s) have no device kernel in the "
                 "trace (GPU activities were not recorded, or their kernels "
                 "fell outside the window): their sizes are listed, their "
                 "time is unknown and missing from the communication time",
                 len > 0 ? "; " : "", (long long)untimed);
    fuller_list(
        c, text, cap,
        transit_note(c, text, cap, link_note(c, text, cap, strlen(text))));
    return text;
}

/* The most calls of one collective kernel_times keeps: the pairing
 * reads them in order, so the first ones. */
#define KT_MAX 8192
#define KT_NAMES 32 /* collectives kept */

/* kernel_times: every NCCL/RCCL kernel's start and end, by collective,
 * in order, relative to clock_us (the trace's clock, its base time
 * added: two ranks of one Nsight file, or Kineto ranks of one job, can
 * be laid side by side); NULL where the run has none. */
static cJSON *
kernel_times(const struct collect *c, int *ok)
{
    const struct pr_trace *t = c->t;
    double base = t->has_base_time ? (double)t->base_time_ns : 0.0; /* ns */
    int64_t t0;
    cJSON *o, *groups;
    const char *names[KT_NAMES];
    size_t i, j, k, n_names = 0;

    if (c->n_kts == 0 || c->oom)
        return NULL;
    t0 = c->kts[0].s;
    o = cJSON_CreateObject();
    if (o == NULL) {
        *ok = 0;
        return NULL;
    }
    pr_emit_num(o, PR_K_CLOCK_US, ((double)t0 + base) / 1e3, ok);
    groups = cJSON_AddArrayToObject(o, PR_K_GROUPS);
    if (groups == NULL) {
        cJSON_Delete(o);
        *ok = 0;
        return NULL;
    }
    /* the collectives, in the order first seen (static strings: a
       handful; one scan of the kernels each) */
    for (i = 0; i < c->n_kts && n_names < KT_NAMES; i++) {
        for (j = 0; j < n_names && strcmp(names[j], c->kts[i].coll) != 0; j++)
            ;
        if (j == n_names)
            names[n_names++] = c->kts[i].coll;
    }
    for (k = 0; k < n_names && *ok; k++) {
        cJSON *g = cJSON_CreateObject(), *s, *e;
        size_t n = 0;

        if (g == NULL || !cJSON_AddItemToArray(groups, g)) {
            cJSON_Delete(g);
            *ok = 0;
            break;
        }
        pr_emit_str(g, PR_K_NAME, names[k], ok);
        s = cJSON_AddArrayToObject(g, PR_K_START_US);
        e = cJSON_AddArrayToObject(g, PR_K_END_US);
        if (s == NULL || e == NULL) {
            *ok = 0;
            break;
        }
        for (j = 0; j < c->n_kts && n < KT_MAX && *ok; j++) {
            if (strcmp(c->kts[j].coll, names[k]) != 0)
                continue;
            *ok = cJSON_AddItemToArray(
                      s, cJSON_CreateNumber(
                             (double)pr_sat_sub_i64(c->kts[j].s, t0) / 1e3)) &&
                  cJSON_AddItemToArray(
                      e, cJSON_CreateNumber(
                             (double)pr_sat_sub_i64(c->kts[j].e, t0) / 1e3));
            n++;
        }
    }
    return o;
}

/* Whether what computes beside the collectives is known: 0 for a run
 * with MindSpore's step trace and no compute task (no device task but
 * HCCL's, no copy or set: step_trace.compute_tasks false,
 * pr_producer_has_tasks), whose computation the export does not record. */
static int
compute_known(const struct pr_trace *t)
{
    return t->phases == NULL || t->phases->n_split == 0 ||
           pr_producer_has_tasks(t);
}

static enum pr_status
emit_comm(struct collect *c, const struct pr_steps *steps, cJSON *run,
          struct pr_error *err)
{
    struct pr_row_communication r = {
        .computation_basis = steps->comp_kernels ? "kernels" : "host_ops",
    };
    char text[2048], proto[900];
    cJSON *per_step = cJSON_CreateArray(), *links = cJSON_CreateObject(), *ops;
    int ok = per_step != NULL && links != NULL;
    cJSON *kt = kernel_times(c, &ok);

    r.per_step = per_step;
    emit_steps(steps, &r, compute_known(c->t), per_step, &ok);
    r.note = note(c, text, sizeof(text));
    walls(c);
    r.protocol_note = proto_note(c, proto, sizeof(proto));
    ops = ok ? emit_ops(c->t, c->ops, c->n_ops) : NULL;
    ok = ok && ops != NULL;
    r.ops = ops;
    /* links and link_types, where the producer gives per-link traffic */
    pr_comm_links_emit(c->t, links, &ok);
    r.links = cJSON_GetObjectItemCaseSensitive(links, PR_K_LINKS);
    r.link_types = cJSON_GetObjectItemCaseSensitive(links, PR_K_LINK_TYPES);
    if (r.links == NULL)
        pr_rows_omit(PR_RO_RUNS_COMMUNICATION, &r,
                     PR_SR_RUNS_COMMUNICATION_PR_K_LINKS);
    if (r.link_types == NULL)
        pr_rows_omit(PR_RO_RUNS_COMMUNICATION, &r,
                     PR_SR_RUNS_COMMUNICATION_PR_K_LINK_TYPES);
    r.kernel_times = kt;
    if (kt == NULL)
        pr_rows_omit(PR_RO_RUNS_COMMUNICATION, &r,
                     PR_SR_RUNS_COMMUNICATION_PR_K_KERNEL_TIMES);
    pr_emit_one(run, PR_K_COMMUNICATION, PR_RO_RUNS_COMMUNICATION, &r, &ok);
    cJSON_Delete(kt);
    cJSON_Delete(per_step);
    cJSON_Delete(ops);
    cJSON_Delete(links);
    return ok ? PR_OK
              : pr_error_set(err, PR_E_NOMEM, "out of memory (communication)");
}

enum pr_status
pr_comm_fill(const struct pr_trace *t, const struct pr_steps *steps, cJSON *run,
             struct pr_error *err)
{
    struct collect *c = calloc(1, sizeof(*c));
    enum pr_status st;

    if (c == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (communication)");
    c->t = t;
    st = collect_calls(c, err);
    if (st == PR_OK && (steps->has_comm || c->n_ops > 0 || t->n_links > 0))
        st = emit_comm(c, steps, run, err);
    else if (st == PR_OK &&
             cJSON_AddNullToObject(run, PR_K_COMMUNICATION) == NULL)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory (communication)");
    free(c->hops);
    free(c->gathers);
    free(c->ivs);
    free(c->kts);
    pr_idmap_free(&c->launch);
    free(c);
    return st;
}
