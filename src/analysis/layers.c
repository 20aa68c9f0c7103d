/* layers.c - the roofline by layer (layers.h): every tree node is given
 * to the nearest layer (top-level forward operator) or backward root
 * around it, each root sums its nodes' time and the FLOPs and bytes of
 * its outermost counted operators, backward roots join their layer by
 * sequence number, and layers of one name and input shapes become one
 * row with its place on the roofline. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/flops.h"
#include "profreport/layers.h"
#include "profreport/peaks.h"
#include "profreport/shapes.h"
#include "profreport/strtab.h"
#include "profreport/tensorcore.h"

#include "internal.h"

#define NO_PART UINT32_MAX
#define NO_NODE UINT32_MAX
#define MAX_BWD_NAMES 3 /* backward root names a row lists */
#define STOP_FLOPS 1u   /* stop[]: FLOPs counted at or above this node */
#define STOP_BYTES 2u   /* stop[]: bytes counted at or above this node */

/* One operators_by_shape row, per call; NaN unknown. */
struct cost {
    double flops, bytes;
    const char *flops_src; /* the row's flops_source; borrowed */
    const char *mark;      /* the row's roofline_mark; borrowed, NULL */
};

/* What the nodes of one root (or of several, summed) add up to. */
struct part {
    double flops, bytes;               /* counted; NaN once unknown */
    const char *flops_src, *bytes_src; /* static or borrowed; "mixed" */
    size_t unknown_f, unknown_b;       /* nodes with kernels, no count */
    int64_t dev_ns, host_ns, tc_ns;    /* self times of its nodes */
    uint32_t top;                      /* counted node with most FLOPs */
    double top_flops;
};

/* A layer or backward root: a tree node and what its nodes add up to. */
struct root {
    uint32_t node;
    int bwd;
    struct part own;
    struct part back;              /* a layer: its backward roots, summed */
    size_t n_back;                 /* a layer: how many */
    uint32_t names[MAX_BWD_NAMES]; /* a layer: its backward root names */
};

/* One row: the layers of one (name, input shapes). */
struct row {
    const char *name, *shapes; /* borrowed from the trace */
    uint32_t first;            /* root index of its first layer */
    size_t calls, bwd_calls;
    struct part fwd, back;
    uint32_t names[MAX_BWD_NAMES];
};

struct ctx {
    const struct pr_trace *t;   /* borrowed */
    const struct pr_tree *tree; /* borrowed */
    struct cost *costs;         /* owned */
    size_t n_costs;
    struct pr_idmap by_op; /* (name id, dims id) -> costs index */
    uint32_t empty;        /* id of "[]"; PR_STR_NONE when absent */
    uint32_t *owner;       /* owned; per node, its root; NO_PART none */
    unsigned char *stop;   /* owned; per node, STOP_* */
    struct root *roots;    /* owned */
    size_t n_roots, cap_roots;
    struct row *rows; /* owned */
    size_t n_rows, cap_rows;
    size_t n_layers, n_bwd, n_unpaired;
    int has_device; /* the trace has device events */
};

/* ---- operators ---------------------------------------------------------- */

static const struct pr_op_info *
node_op(const struct ctx *c, const struct pr_tree_node *nd)
{
    if (!nd->is_operator || nd->ev == PR_TREE_NONE)
        return NULL;
    return pr_trace_op(c->t, &c->t->events[nd->ev]);
}

/* A backward operator: autograd ran it for the forward op with its
 * sequence number (as sources.c reads it). */
static int
is_backward(const struct pr_op_info *op)
{
    return op != NULL && op->seq >= 0 && op->fwd_tid > 0;
}

static int
is_forward(const struct pr_op_info *op)
{
    return op != NULL && op->seq >= 0 && !is_backward(op);
}

/* A backward op not inside a backward op of its sequence number: the
 * evaluate_function, not the AddmmBackward0 inside it. */
static int
is_backward_root(const struct ctx *c, const struct pr_tree_node *nd,
                 const struct pr_op_info *op)
{
    const struct pr_op_info *pop;

    if (!is_backward(op))
        return 0;
    if (nd->parent == PR_TREE_NONE)
        return 1;
    pop = node_op(c, &c->tree->nodes[nd->parent]);
    return !(is_backward(pop) && pop->seq == op->seq);
}

static uint32_t
dims_of(const struct ctx *c, const struct pr_op_info *op)
{
    return op && op->input_dims != PR_STR_NONE ? op->input_dims : c->empty;
}

static int64_t
op_key(uint32_t name, uint32_t dims)
{
    return (int64_t)(((uint64_t)name << 32) | dims);
}

/* The per-call cost of node nd's operators_by_shape row; NULL none. */
static const struct cost *
cost_of(const struct ctx *c, const struct pr_tree_node *nd)
{
    const struct pr_op_info *op = node_op(c, nd);
    size_t i;

    if (!nd->is_operator || nd->ev == PR_TREE_NONE)
        return NULL;
    i = pr_idmap_get(&c->by_op, op_key(nd->name, dims_of(c, op)));
    return i == PR_NONE ? NULL : &c->costs[i];
}

static double
num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *
str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* operators_by_shape per call, by the trace's string ids of its name and
 * shapes; 0 on out-of-memory. */
static int
index_costs(struct ctx *c, const cJSON *run)
{
    const cJSON *rows =
        cJSON_GetObjectItemCaseSensitive(run, "operators_by_shape");
    size_t n = (size_t)cJSON_GetArraySize(rows);
    const cJSON *r;

    c->costs = calloc(n ? n : 1, sizeof(*c->costs));
    if (!c->costs)
        return 0;
    cJSON_ArrayForEach(r, rows)
    {
        const char *name = str(r, "name"), *dims = str(r, "input_shapes");
        double calls = num(r, "calls");
        uint32_t ni, di;
        struct cost *k = &c->costs[c->n_costs];

        if (!name || !dims || !(calls > 0))
            continue;
        ni = pr_strtab_find(c->t->strs, name, strlen(name));
        di = pr_strtab_find(c->t->strs, dims, strlen(dims));
        if (ni == PR_STR_NONE || di == PR_STR_NONE)
            continue;
        k->flops = num(r, "flops") / calls; /* NaN stays NaN */
        k->bytes = num(r, "bytes") / calls;
        k->flops_src = str(r, "flops_source");
        k->mark = str(r, "roofline_mark");
        if (pr_idmap_put(&c->by_op, op_key(ni, di), c->n_costs++, NULL) !=
            PR_OK)
            return 0;
    }
    return 1;
}

/* ---- parts -------------------------------------------------------------- */

static const char *
merge_src(const char *a, const char *b)
{
    if (!a)
        return b;
    if (!b || strcmp(a, b) == 0)
        return a;
    return "mixed";
}

static void
part_init(struct part *p)
{
    memset(p, 0, sizeof(*p));
    p->top = NO_NODE;
}

/* dst += src: counts, times and the busiest counted node. */
static void
part_add(struct part *dst, const struct part *src)
{
    dst->flops += src->flops; /* NaN is sticky */
    dst->bytes += src->bytes;
    dst->flops_src = merge_src(dst->flops_src, src->flops_src);
    dst->bytes_src = merge_src(dst->bytes_src, src->bytes_src);
    dst->unknown_f += src->unknown_f;
    dst->unknown_b += src->unknown_b;
    dst->dev_ns = pr_sat_add_i64(dst->dev_ns, src->dev_ns);
    dst->host_ns = pr_sat_add_i64(dst->host_ns, src->host_ns);
    dst->tc_ns = pr_sat_add_i64(dst->tc_ns, src->tc_ns);
    if (src->top != NO_NODE &&
        (dst->top == NO_NODE || src->top_flops > dst->top_flops)) {
        dst->top = src->top;
        dst->top_flops = src->top_flops;
    }
}

/* A new root at node ni; NO_PART on out-of-memory. */
static uint32_t
new_root(struct ctx *c, uint32_t ni, int bwd)
{
    struct root *r;

    if (c->n_roots >= NO_PART - 1 ||
        pr_grow((void **)&c->roots, &c->cap_roots, c->n_roots + 1,
                sizeof(*c->roots)) != PR_OK)
        return NO_PART;
    r = &c->roots[c->n_roots];
    memset(r, 0, sizeof(*r));
    r->node = ni;
    r->bwd = bwd;
    part_init(&r->own);
    part_init(&r->back);
    return (uint32_t)c->n_roots++;
}

/* ---- nodes -------------------------------------------------------------- */

/* Whose node ni is: a backward root or a top-level forward op starts a
 * root, anything else belongs to its parent's.  0 on out-of-memory. */
static int
assign(struct ctx *c, uint32_t ni)
{
    const struct pr_tree_node *nd = &c->tree->nodes[ni];
    const struct pr_op_info *op = node_op(c, nd);
    uint32_t up = nd->parent == PR_TREE_NONE ? NO_PART : c->owner[nd->parent];

    c->owner[ni] = up;
    if (is_backward_root(c, nd, op))
        c->owner[ni] = new_root(c, ni, 1);
    else if (up == NO_PART && is_forward(op))
        c->owner[ni] = new_root(c, ni, 0);
    else
        return 1;
    return c->owner[ni] != NO_PART;
}

/* A node that did work on the device (or, in a trace without device
 * events, a leaf operator) and whose count is unknown leaves its part
 * unknown: what it did cannot be told. */
static int
did_work(const struct ctx *c, const struct pr_tree_node *nd)
{
    return nd->device_self_ns > 0 || (!c->has_device && nd->n_kids == 0);
}

/* Node ni's times into its root, and its FLOPs and bytes unless an
 * operator above it in the same root counted them already. */
static void
count(struct ctx *c, uint32_t ni)
{
    const struct pr_tree_node *nd = &c->tree->nodes[ni];
    const struct cost *k = cost_of(c, nd);
    uint32_t up = nd->parent;
    unsigned stop = 0;
    struct part *p;

    if (c->owner[ni] == NO_PART)
        return;
    p = &c->roots[c->owner[ni]].own;
    if (up != PR_TREE_NONE && c->owner[up] == c->owner[ni])
        stop = c->stop[up];
    p->dev_ns = pr_sat_add_i64(p->dev_ns, nd->device_self_ns);
    p->host_ns = pr_sat_add_i64(p->host_ns, nd->host_self_ns);
    p->tc_ns = pr_sat_add_i64(p->tc_ns, pr_tree_tc_self(c->tree, nd));
    if (nd->is_operator && !(stop & STOP_FLOPS)) {
        if (k && isfinite(k->flops)) {
            p->flops += k->flops;
            p->flops_src = merge_src(p->flops_src, k->flops_src);
            stop |= STOP_FLOPS;
            if (p->top == NO_NODE || k->flops > p->top_flops) {
                p->top = ni;
                p->top_flops = k->flops;
            }
        } else if (did_work(c, nd)) {
            p->unknown_f++;
        }
    }
    if (nd->is_operator && !(stop & STOP_BYTES)) {
        if (k && isfinite(k->bytes)) {
            p->bytes += k->bytes;
            p->bytes_src = merge_src(p->bytes_src, k->flops_src);
            stop |= STOP_BYTES;
        } else if (did_work(c, nd)) {
            p->unknown_b++;
        }
    }
    c->stop[ni] = (unsigned char)stop;
}

/* Parents before children: reverse post-order.  0 on out-of-memory. */
static int
walk_nodes(struct ctx *c)
{
    const struct pr_tree *tr = c->tree;
    size_t i;

    for (i = tr->n_post; i > 0; i--) {
        if (!assign(c, tr->post[i - 1]))
            return 0;
        count(c, tr->post[i - 1]);
    }
    return 1;
}

/* ---- layers ------------------------------------------------------------- */

static void
add_name(uint32_t *names, uint32_t name)
{
    size_t i;

    for (i = 0; i < MAX_BWD_NAMES && names[i] != name; i++) {
        if (names[i] == PR_STR_NONE) {
            names[i] = name;
            return;
        }
    }
}

static void
no_names(uint32_t *names)
{
    size_t i;

    for (i = 0; i < MAX_BWD_NAMES; i++)
        names[i] = PR_STR_NONE;
}

/* Each backward root joins the layer of the forward operator with its
 * sequence number: the last one in post-order, the op that made the
 * autograd node (ops before it in the same layer share its number).
 * 0 on out-of-memory. */
static int
pair_roots(struct ctx *c)
{
    const struct pr_tree *tr = c->tree;
    struct pr_idmap fwd = {0}; /* sequence number -> layer root */
    size_t i, f;
    int ok = 1;

    for (i = 0; i < c->n_roots; i++)
        no_names(c->roots[i].names);
    for (i = 0; i < tr->n_post && ok; i++) {
        uint32_t ni = tr->post[i], o = c->owner[ni];
        const struct pr_op_info *op = node_op(c, &tr->nodes[ni]);

        if (o != NO_PART && !c->roots[o].bwd && is_forward(op))
            ok = pr_idmap_put(&fwd, op->seq, o, NULL) == PR_OK;
    }
    /* roots were made in reverse post-order: backwards, they come in
     * time order, so a row names its backward ops as they ran */
    for (i = c->n_roots; i > 0 && ok; i--) {
        const struct root *b = &c->roots[i - 1];
        const struct pr_tree_node *bn = &tr->nodes[b->node];
        struct root *l;

        if (!b->bwd)
            continue;
        c->n_bwd++;
        f = pr_idmap_get(&fwd, node_op(c, bn)->seq);
        if (f == PR_NONE) {
            c->n_unpaired++;
            continue;
        }
        l = &c->roots[f];
        part_add(&l->back, &b->own);
        l->n_back++;
        add_name(l->names, bn->name);
    }
    pr_idmap_free(&fwd);
    return ok;
}

/* What flops.c makes of node ni's operator (class PR_OPC_OTHER and dtype
 * unknown: nothing).  `in` is scratch. */
static void
op_cost(const struct ctx *c, uint32_t ni, struct pr_op_inputs *in,
        struct pr_op_cost *cost)
{
    const struct pr_op_info *op =
        ni == NO_NODE ? NULL : node_op(c, &c->tree->nodes[ni]);
    struct pr_op_call call;
    struct pr_error e = {PR_OK, ""};

    memset(cost, 0, sizeof(*cost));
    cost->cls = PR_OPC_OTHER;
    cost->dtype = PR_DT_UNKNOWN;
    if (op == NULL)
        return;
    pr_shapes_get(c->t, op->input_dims, op->input_types, op->concrete_inputs,
                  in);
    call.name = pr_trace_str(c->t, c->tree->nodes[ni].name);
    call.in = in;
    call.trace_flops = op->flops;
    if (pr_flops_estimate(&call, cost, &e) != PR_OK)
        cost->cls = PR_OPC_OTHER;
}

/* A matmul or convolution: its backward costs about twice its forward
 * (the input and the weight gradient each redo the forward's work). */
static int
twice_forward(enum pr_op_class cls)
{
    return cls == PR_OPC_GEMM || cls == PR_OPC_CONV;
}

/* One layer's parts as they count: a part with an unknown node is
 * unknown, except a matmul or convolution backward, estimated as twice
 * its forward. */
static void
settle(const struct root *l, int twice, struct part *fwd, struct part *bwd)
{
    *fwd = l->own;
    *bwd = l->back;
    if (fwd->unknown_f > 0) {
        fwd->flops = NAN;
        fwd->flops_src = NULL;
    }
    if (fwd->unknown_b > 0) {
        fwd->bytes = NAN;
        fwd->bytes_src = NULL;
    }
    if (bwd->unknown_f > 0) {
        bwd->flops = twice && isfinite(fwd->flops) ? 2.0 * fwd->flops : NAN;
        bwd->flops_src = isfinite(bwd->flops) ? PR_LAYERS_ESTIMATED : NULL;
    }
    if (bwd->unknown_b > 0) {
        bwd->bytes = twice && isfinite(fwd->bytes) ? 2.0 * fwd->bytes : NAN;
        bwd->bytes_src = isfinite(bwd->bytes) ? PR_LAYERS_ESTIMATED : NULL;
    }
}

/* The row of layer l (created on first sight); NULL on out-of-memory. */
static struct row *
row_of(struct ctx *c, struct pr_idmap *ids, size_t l)
{
    const struct pr_tree_node *nd = &c->tree->nodes[c->roots[l].node];
    uint32_t dims = dims_of(c, node_op(c, nd));
    size_t i = pr_idmap_get(ids, op_key(nd->name, dims));
    struct row *r;

    if (i != PR_NONE)
        return &c->rows[i];
    if (pr_grow((void **)&c->rows, &c->cap_rows, c->n_rows + 1,
                sizeof(*c->rows)) != PR_OK ||
        pr_idmap_put(ids, op_key(nd->name, dims), c->n_rows, NULL) != PR_OK)
        return NULL;
    r = &c->rows[c->n_rows++];
    memset(r, 0, sizeof(*r));
    r->name = pr_trace_str(c->t, nd->name);
    r->shapes = dims == PR_STR_NONE ? "[]" : pr_trace_str(c->t, dims);
    r->first = (uint32_t)l;
    part_init(&r->fwd);
    part_init(&r->back);
    no_names(r->names);
    return r;
}

/* Layers of one (name, input shapes) into one row; 0 on out-of-memory. */
static int
make_rows(struct ctx *c)
{
    struct pr_idmap ids = {0};
    struct pr_op_inputs *in = malloc(sizeof(*in));
    size_t i, k;
    int ok = in != NULL;

    for (i = 0; i < c->n_roots && ok; i++) {
        const struct root *l = &c->roots[i];
        struct part fwd, bwd;
        struct pr_op_cost cost;
        struct row *r;

        if (l->bwd || l->n_back == 0)
            continue;
        r = row_of(c, &ids, i);
        if (!(ok = r != NULL))
            break;
        op_cost(c, l->own.top, in, &cost);
        settle(l, twice_forward(cost.cls), &fwd, &bwd);
        part_add(&r->fwd, &fwd);
        part_add(&r->back, &bwd);
        r->calls++;
        r->bwd_calls += l->n_back;
        c->n_layers++;
        for (k = 0; k < MAX_BWD_NAMES; k++)
            if (l->names[k] != PR_STR_NONE)
                add_name(r->names, l->names[k]);
    }
    free(in);
    pr_idmap_free(&ids);
    return ok;
}

static int
cmp_rows(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    int64_t dx = pr_sat_add_i64(x->fwd.dev_ns, x->back.dev_ns);
    int64_t dy = pr_sat_add_i64(y->fwd.dev_ns, y->back.dev_ns);
    int d;

    if (dx != dy)
        return dx > dy ? -1 : 1;
    if (x->fwd.host_ns != y->fwd.host_ns)
        return x->fwd.host_ns > y->fwd.host_ns ? -1 : 1;
    d = strcmp(x->name, y->name);
    return d != 0 ? d : strcmp(x->shapes, y->shapes);
}

/* ---- the roofline ------------------------------------------------------- */

/* The device the run's roofline uses (runs[].roofline.device, else the
 * first) with the peaks roofline.c gave it. */
struct roof_dev {
    struct pr_peaks pk;
    int npu;
};

/* What one row is measured against. */
struct roof {
    double peak, bw; /* TFLOP/s, GB/s; NaN unknown */
    enum pr_peak_kind kind;
    enum pr_dtype dt;
};

static void
read_device(const cJSON *run, struct roof_dev *d)
{
    const cJSON *roof = cJSON_GetObjectItemCaseSensitive(run, "roofline");
    double id = num(roof, "device");
    const cJSON *dev = NULL, *x, *tf;
    int k;

    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(run, "devices"))
    {
        if (!dev || num(x, "id") == id)
            dev = x;
        if (num(x, "id") == id)
            break;
    }
    memset(d, 0, sizeof(*d));
    tf = cJSON_GetObjectItemCaseSensitive(dev, "peak_tflops");
    for (k = 0; k < PR_PEAK_COUNT; k++)
        d->pk.tflops[k] = num(tf, pr_peaks_key((enum pr_peak_kind)k));
    d->pk.gbps = num(dev, "peak_gbps");
    d->npu = str(dev, "kind") && strcmp(str(dev, "kind"), "npu") == 0;
}

static int
is_low_precision(enum pr_dtype dt)
{
    return dt == PR_DT_FP16 || dt == PR_DT_BF16 || dt == PR_DT_FP8 ||
           dt == PR_DT_INT8 || dt == PR_DT_UINT8;
}

/* The roof of a row, by roofline.c's rule for its forward operator (the
 * one with the most FLOPs, else the layer's own): its dtype on tensor
 * cores when the layer used them, when an eligible 16/8-bit op could, or
 * on an NPU for matrix work; the CUDA-core rate otherwise. */
static void
row_roof(const struct ctx *c, const struct row *r, const struct roof_dev *d,
         struct pr_op_inputs *in, struct roof *out)
{
    uint32_t top = r->fwd.top != NO_NODE ? r->fwd.top : c->roots[r->first].node;
    const char *name = pr_trace_str(c->t, c->tree->nodes[top].name);
    struct pr_op_cost cost;
    int tc, matrix;

    op_cost(c, top, in, &cost);
    matrix = cost.cls == PR_OPC_GEMM || cost.cls == PR_OPC_CONV ||
             cost.cls == PR_OPC_CONV_BWD || cost.cls == PR_OPC_ATTENTION;
    tc = pr_sat_add_i64(r->fwd.tc_ns, r->back.tc_ns) > 0 ||
         (pr_tensorcore_op_eligible(name, NULL) &&
          is_low_precision(cost.dtype)) ||
         (d->npu && matrix);
    out->dt = cost.dtype;
    out->kind = pr_peaks_kind(&d->pk, cost.dtype, tc);
    out->peak = d->pk.tflops[out->kind];
    out->bw = d->pk.gbps;
}

/* "forward_" + "flops" in buf. */
static const char *
key(char *buf, size_t n, const char *prefix, const char *name)
{
    size_t a = strlen(prefix), b = strlen(name);

    if (a + b + 1 > n)
        return name; /* cannot happen: every key is short */
    memcpy(buf, prefix, a);
    memcpy(buf + a, name, b + 1);
    return buf;
}

/* Counts, times and rates of one part under prefix ("forward_",
 * "backward_", or "" for the layer); returns its intensity. */
static double
emit_part(cJSON *o, const char *pre, const struct part *p,
          const struct roof *rf, int *ok)
{
    char k[64];
    double secs = p->dev_ns > 0 ? (double)p->dev_ns * 1e-9 : NAN;
    double ai = p->bytes > 0 ? p->flops / p->bytes : NAN;
    double ridge = rf->peak * 1e12 / (rf->bw * 1e9);

    pr_emit_num_or_null(o, key(k, sizeof(k), pre, "flops"), p->flops, ok);
    pr_emit_str(o, key(k, sizeof(k), pre, "flops_source"),
                isfinite(p->flops) ? p->flops_src : NULL, ok);
    pr_emit_num_or_null(o, key(k, sizeof(k), pre, "bytes"), p->bytes, ok);
    pr_emit_str(o, key(k, sizeof(k), pre, "bytes_source"),
                isfinite(p->bytes) ? p->bytes_src : NULL, ok);
    pr_emit_us(o, key(k, sizeof(k), pre, "device_us"), p->dev_ns, ok);
    pr_emit_us(o, key(k, sizeof(k), pre, "host_us"), p->host_ns, ok);
    pr_emit_num_or_null(o, key(k, sizeof(k), pre, "achieved_tflops"),
                        p->flops / secs / 1e12, ok);
    pr_emit_num_or_null(o, key(k, sizeof(k), pre, "achieved_gbps"),
                        p->bytes / secs / 1e9, ok);
    pr_emit_num_or_null(o, key(k, sizeof(k), pre, "arithmetic_intensity"), ai,
                        ok);
    pr_emit_str(o, key(k, sizeof(k), pre, "bound"),
                !isfinite(ai) || !isfinite(ridge) ? "unknown"
                : ai < ridge                      ? "memory"
                                                  : "compute",
                ok);
    return ai;
}

#define BWD_PREFIX "autograd::engine::evaluate_function: "

/* The backward root names of a row, "A, B" (the evaluate_function
 * prefix dropped), in buf; NULL when it has none. */
static const char *
bwd_names(const struct ctx *c, const struct row *r, char *buf, size_t cap)
{
    size_t i, n = strlen(BWD_PREFIX), len = 0;

    buf[0] = '\0';
    for (i = 0; i < MAX_BWD_NAMES && r->names[i] != PR_STR_NONE; i++) {
        const char *nm = pr_trace_str(c->t, r->names[i]);
        int w;

        if (strncmp(nm, BWD_PREFIX, n) == 0)
            nm += n;
        w = snprintf(buf + len, cap - len, "%s%s", i > 0 ? ", " : "", nm);
        if (w < 0 || (size_t)w >= cap - len)
            break; /* a cut name: the ones before it stay */
        len += (size_t)w;
    }
    return len > 0 ? buf : NULL;
}

/* Achieved over attainable at intensity ai: bandwidth below the ridge,
 * FLOP/s above it; NaN without both. */
static double
roof_pct(const struct part *p, const struct roof *rf, double ai)
{
    double secs = p->dev_ns > 0 ? (double)p->dev_ns * 1e-9 : NAN;
    double ridge = rf->peak * 1e12 / (rf->bw * 1e9);

    if (!isfinite(ai) || !isfinite(ridge) || !isfinite(secs))
        return NAN;
    if (ai < ridge)
        return 100.0 * p->bytes / secs / 1e9 / rf->bw;
    return 100.0 * p->flops / secs / 1e12 / rf->peak;
}

/* Why a layer sits above its roof (NULL when it does not): the mark
 * roofline.c gave the operator of its forward or backward with the most
 * FLOPs (Winograd, FFT, cache-resident), else a FLOP or byte model that
 * counts more than the kernels did. */
static const char *
row_mark(const struct ctx *c, const struct row *r, double pct)
{
    const struct cost *f =
        r->fwd.top == NO_NODE ? NULL : cost_of(c, &c->tree->nodes[r->fwd.top]);
    const struct cost *b = r->back.top == NO_NODE
                               ? NULL
                               : cost_of(c, &c->tree->nodes[r->back.top]);

    if (!(pct > 100.0))
        return NULL;
    if (f && f->mark)
        return f->mark;
    if (b && b->mark)
        return b->mark;
    return "model_overcount";
}

/* One row: the layer, its totals on the roofline, then forward and
 * backward side by side. */
static void
emit_row(const struct ctx *c, cJSON *arr, const struct row *r,
         const struct roof_dev *d, struct pr_op_inputs *in, int *ok)
{
    cJSON *o = pr_emit_obj(arr, NULL, ok);
    struct part all = r->fwd;
    struct roof rf;
    char names[512];
    double ai;

    if (!*ok)
        return;
    row_roof(c, r, d, in, &rf);
    part_add(&all, &r->back);
    pr_emit_str(o, "name", r->name, ok);
    pr_emit_str(o, "input_shapes", r->shapes, ok);
    pr_emit_str(o, "backward", bwd_names(c, r, names, sizeof(names)), ok);
    pr_emit_num(o, "calls", (double)r->calls, ok);
    pr_emit_num(o, "backward_calls", (double)r->bwd_calls, ok);
    ai = emit_part(o, "", &all, &rf, ok);
    pr_emit_num_or_null(o, "roofline_pct", roof_pct(&all, &rf, ai), ok);
    pr_emit_str(o, "roofline_mark", row_mark(c, r, roof_pct(&all, &rf, ai)),
                ok);
    pr_emit_str(o, "roof", isfinite(rf.peak) ? pr_peaks_key(rf.kind) : NULL,
                ok);
    pr_emit_num_or_null(o, "peak_tflops", rf.peak, ok);
    pr_emit_str(o, "dtype",
                rf.dt == PR_DT_UNKNOWN || rf.dt == PR_DT_NONE
                    ? NULL
                    : pr_dtype_name(rf.dt),
                ok);
    (void)emit_part(o, "forward_", &r->fwd, &rf, ok);
    (void)emit_part(o, "backward_", &r->back, &rf, ok);
}

/* runs[].layers: the top PR_LAYERS_ROWS rows; NULL on out-of-memory. */
static cJSON *
rows_json(const struct ctx *c, const cJSON *run)
{
    cJSON *arr = cJSON_CreateArray();
    struct pr_op_inputs *in = malloc(sizeof(*in));
    struct roof_dev d;
    size_t i;
    int ok = arr != NULL && in != NULL;

    read_device(run, &d);
    for (i = 0; ok && i < c->n_rows && i < PR_LAYERS_ROWS; i++)
        emit_row(c, arr, &c->rows[i], &d, in, &ok);
    free(in);
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

/* runs[].layer_view: what the rows stand for; NULL on out-of-memory. */
static cJSON *
view_json(const struct ctx *c)
{
    cJSON *o = cJSON_CreateObject();
    int64_t fwd = 0, bwd = 0;
    size_t i;
    int ok = o != NULL;

    for (i = 0; i < c->n_rows; i++) {
        fwd = pr_sat_add_i64(fwd, c->rows[i].fwd.dev_ns);
        bwd = pr_sat_add_i64(bwd, c->rows[i].back.dev_ns);
    }
    pr_emit_num(o, "layers", (double)c->n_layers, &ok);
    pr_emit_num(o, "rows", (double)c->n_rows, &ok);
    pr_emit_num(
        o, "rows_omitted",
        c->n_rows > PR_LAYERS_ROWS ? (double)(c->n_rows - PR_LAYERS_ROWS) : 0.0,
        &ok);
    pr_emit_num(o, "backward_roots", (double)c->n_bwd, &ok);
    pr_emit_num(o, "backward_unpaired", (double)c->n_unpaired, &ok);
    pr_emit_us(o, "forward_device_us", fwd, &ok);
    pr_emit_us(o, "backward_device_us", bwd, &ok);
    pr_emit_str(o, "note",
                c->n_layers > 0 ? NULL
                : c->n_bwd > 0  ? PR_LAYERS_NO_FORWARD
                                : PR_LAYERS_NO_PAIRS,
                &ok);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* ---- the pass ----------------------------------------------------------- */

static int
ctx_init(struct ctx *c, const struct pr_trace *t, const struct pr_tree *tree)
{
    size_t n = tree->n_nodes ? tree->n_nodes : 1, i;

    memset(c, 0, sizeof(*c));
    c->t = t;
    c->tree = tree;
    c->empty = pr_strtab_find(t->strs, "[]", 2);
    c->has_device = tree->n_devs > 0;
    c->owner = malloc(n * sizeof(*c->owner));
    c->stop = calloc(n, sizeof(*c->stop));
    if (!c->owner || !c->stop)
        return 0;
    for (i = 0; i < n; i++)
        c->owner[i] = NO_PART;
    return 1;
}

static void
ctx_free(struct ctx *c)
{
    free(c->costs);
    pr_idmap_free(&c->by_op);
    free(c->owner);
    free(c->stop);
    free(c->roots);
    free(c->rows);
}

static int
put(cJSON *run, const char *k, cJSON *item)
{
    if (cJSON_GetObjectItemCaseSensitive(run, k) != NULL)
        return cJSON_ReplaceItemInObjectCaseSensitive(run, k, item);
    return cJSON_AddItemToObject(run, k, item);
}

enum pr_status
pr_layers_fill(const struct pr_trace *t, const struct pr_tree *tree, cJSON *run,
               struct pr_error *err)
{
    struct ctx c;
    cJSON *rows = NULL, *view = NULL;
    int ok = ctx_init(&c, t, tree) && index_costs(&c, run) && walk_nodes(&c) &&
             pair_roots(&c) && make_rows(&c);

    if (ok) {
        if (c.n_rows > 1)
            qsort(c.rows, c.n_rows, sizeof(*c.rows), cmp_rows);
        rows = rows_json(&c, run);
        view = view_json(&c);
    }
    ctx_free(&c);
    ok = rows != NULL && view != NULL && put(run, "layers", rows);
    if (ok) {
        rows = NULL;
        ok = put(run, "layer_view", view);
        view = ok ? NULL : view;
    }
    cJSON_Delete(rows);
    cJSON_Delete(view);
    if (!ok)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (layers)");
    return PR_OK;
}
