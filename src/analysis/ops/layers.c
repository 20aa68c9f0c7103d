/* layers.c - the roofline by layer (layers.h): every tree node is given
 * to the nearest layer (top-level forward operator) or backward root
 * around it, each root sums its nodes' time and the FLOPs and bytes of
 * its outermost counted operators, backward roots join their layer by
 * sequence number, and layers of one name and input shapes become one
 * row with its place on the roofline.
 *
 * Memory (issue #17): the pass runs beside the op tree, so it keeps no
 * record per node.  Four walks: the sequence numbers of the backward
 * roots; which of them forward ops of several layers carry (enter_mark);
 * the layers, in the order they ran, each folded into its row as
 * it ends (only a layer with backward roots keeps a small record for
 * them); the backward roots, listed in time order with their layers,
 * then summed a layer at a time into its row. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/flops.h"
#include "profreport/keys.h"
#include "profreport/layers.h"
#include "profreport/memtl.h"
#include "profreport/peaks.h"
#include "profreport/roofline.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/shapes.h"
#include "profreport/strtab.h"
#include "profreport/tensorcore.h"

#include "../internal.h"

#define NO_NODE UINT32_MAX
#define NO_SLOT UINT32_MAX
#define MAX_BWD_NAMES 3 /* backward root names a row lists */
#define STOP_FLOPS 1u   /* FLOPs counted at or above this node */
#define STOP_BYTES 2u   /* bytes counted at or above this node */
#define UNKNOWN_F 1u    /* part: a node with kernels and no FLOP count */
#define UNKNOWN_B 2u    /* part: ... and no byte count */

/* One operators_by_shape row, per call; NaN unknown. */
struct cost {
    double flops, bytes;
    const char *flops_src; /* the row's flops_source; borrowed */
    const char *mark;      /* the row's roofline_mark; borrowed, NULL */
};

/* What the nodes of one root (or of several, summed) add up to.  The FLOPs
 * of its top node are not kept: they are that node's cost. */
struct part {
    double flops, bytes;               /* counted; NaN once unknown */
    int64_t dev_ns, host_ns, tc_ns;    /* self times of its nodes */
    const char *flops_src, *bytes_src; /* static or borrowed; "mixed" */
    uint32_t top;                      /* counted node with most FLOPs */
    unsigned char unknown;             /* UNKNOWN_* */
};

/* A layer with backward roots, until they are read: its forward is in
 * its row already.  24 bytes: its backward roots are summed one layer at
 * a time (fold_backward), not each into a sum held per layer. */
struct layer {
    double est_flops, est_bytes; /* a backward of unknown count: twice the
                                    forward's, or NaN */
    uint32_t row;
};

/* A backward root and the layer (slot in ctx.layers) that claimed its
 * sequence number. */
struct bwd_root {
    uint32_t slot, node;
};

/* A sequence number of backward roots: how many carry it, and the layer
 * (slot in ctx.layers) that claimed it; 24 bytes. */
struct seq {
    int64_t seq;
    uint32_t n_bwd, slot;
    uint32_t layer;      /* top node of the first layer found to carry it */
    unsigned char multi; /* forward ops of two layers or more carry it */
    unsigned char cpp;   /* its backward is a C++ Function's CppNode<> */
};

/* One row: the layers of one (name, input shapes). */
struct row {
    const char *name, *shapes; /* borrowed from the trace */
    uint32_t first;            /* node of its first layer */
    size_t calls, bwd_calls;
    struct part fwd, back;
    uint32_t names[MAX_BWD_NAMES];
};

/* A node on the walk's path, and what its children inherit. */
struct frame {
    uint32_t node;
    uint32_t kid;       /* children still to visit, the last first */
    unsigned char stop; /* STOP_* */
    unsigned char own;  /* the layer walk: OWN_* */
};

enum { OWN_NONE, OWN_LAYER };

struct ctx {
    const struct pr_trace *t;   /* borrowed */
    const struct pr_tree *tree; /* borrowed */
    struct cost *costs;         /* owned */
    size_t n_costs;
    struct pr_idmap by_op; /* (name id, dims id) -> costs index */
    uint32_t empty;        /* id of "[]"; PR_STR_NONE when absent */
    int has_device;        /* the trace has device events */
    struct seq *seqs;      /* owned; by seq */
    size_t n_seqs;
    struct layer *layers; /* owned */
    size_t n_slots, cap_slots;
    struct row *rows; /* owned */
    size_t n_rows, cap_rows;
    struct pr_idmap row_ids; /* (name id, dims id) -> rows index */
    struct frame *stack;     /* owned */
    size_t cap_stack;
    struct pr_op_inputs *in; /* owned; op_cost() scratch */
    /* the root being walked: its node, its part, a layer's slot (NO_SLOT
     * before it claims a sequence number) and backward roots */
    uint32_t cur_node, cur_slot;
    struct part cur;
    size_t cur_back;
    size_t n_layers, n_bwd, n_unpaired;
    unsigned grads; /* PR_CONV_GRAD_*: what the backward roots being folded
                       hold (pr_flops_conv_grad_of) */
};

/* ---- operators ---------------------------------------------------------- */

/* The operator of nd, copied into *buf; NULL for another node. */
static const struct pr_op_info *
node_op(const struct ctx *c, const struct pr_tree_node *nd,
        struct pr_op_info *buf)
{
    if (!nd->is_operator || nd->ev == PR_TREE_NONE)
        return NULL;
    return pr_trace_op(c->t, &c->t->events[nd->ev], buf);
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
is_backward_root(const struct ctx *c, uint32_t ni)
{
    const struct pr_tree_node *nd = &c->tree->nodes[ni];
    struct pr_op_info ob, pb;
    const struct pr_op_info *op = node_op(c, nd, &ob), *pop;

    if (!is_backward(op))
        return 0;
    if (nd->parent == PR_TREE_NONE)
        return 1;
    pop = node_op(c, &c->tree->nodes[nd->parent], &pb);
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

/* The per-call cost of node ni's operators_by_shape row; NULL none. */
static const struct cost *
cost_of(const struct ctx *c, uint32_t ni)
{
    const struct pr_tree_node *nd = &c->tree->nodes[ni];
    struct pr_op_info ob;
    const struct pr_op_info *op = node_op(c, nd, &ob);
    size_t i;

    if (!nd->is_operator || nd->ev == PR_TREE_NONE)
        return NULL;
    i = pr_idmap_get(&c->by_op,
                     op_key(pr_tree_name(c->t, c->tree, nd), dims_of(c, op)));
    return i == PR_NONE ? NULL : &c->costs[i];
}

/* The FLOPs of a part's top node (counted, so known). */
static double
top_flops(const struct ctx *c, const struct part *p)
{
    return cost_of(c, p->top)->flops;
}

/* operators_by_shape per call, from the roofline pass's rows, by the
 * trace's string ids of their name and shapes; 0 on out-of-memory. */
static int
index_costs(struct ctx *c, const struct pr_op_rows *rows)
{
    size_t i;

    c->costs = calloc(rows->n ? rows->n : 1, sizeof(*c->costs));
    if (!c->costs)
        return 0;
    for (i = 0; i < rows->n; i++) {
        const struct pr_op_row *r = &rows->v[i];
        double calls = (double)r->calls;
        int set = r->rate.set;
        uint32_t ni, di;
        struct cost *k = &c->costs[c->n_costs];

        if (!r->name || !r->shapes || r->calls == 0)
            continue;
        ni = pr_strtab_find(c->t->strs, r->name, strlen(r->name));
        di = pr_strtab_find(c->t->strs, r->shapes, strlen(r->shapes));
        if (ni == PR_STR_NONE || di == PR_STR_NONE)
            continue;
        /* as the row is written: null unless known and finite */
        k->flops = set && isfinite(r->rate.flops) ? r->rate.flops / calls : NAN;
        k->bytes = set && isfinite(r->rate.bytes) ? r->rate.bytes / calls : NAN;
        k->flops_src = set ? r->rate.flops_src : NULL;
        k->mark = set ? r->rate.mark : NULL;
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
part_add(const struct ctx *c, struct part *dst, const struct part *src)
{
    dst->flops += src->flops; /* NaN is sticky */
    dst->bytes += src->bytes;
    dst->flops_src = merge_src(dst->flops_src, src->flops_src);
    dst->bytes_src = merge_src(dst->bytes_src, src->bytes_src);
    dst->unknown |= src->unknown;
    dst->dev_ns = pr_sat_add_i64(dst->dev_ns, src->dev_ns);
    dst->host_ns = pr_sat_add_i64(dst->host_ns, src->host_ns);
    dst->tc_ns = pr_sat_add_i64(dst->tc_ns, src->tc_ns);
    if (src->top != NO_NODE &&
        (dst->top == NO_NODE || top_flops(c, src) > top_flops(c, dst)))
        dst->top = src->top;
}

/* A node that did work on the device (or, in a trace without device
 * events, a leaf operator) and whose count is unknown leaves its part
 * unknown: what it did cannot be told. */
static int
did_work(const struct ctx *c, const struct pr_tree_node *nd)
{
    return pr_tree_device_self(c->t, c->tree, nd) > 0 ||
           (!c->has_device && pr_tree_n_kids(c->tree, nd) == 0);
}

/* Node ni's times into part p, and its FLOPs and bytes unless an operator
 * above it in the same root counted them already (stop, its parent's);
 * returns node ni's stop. */
static unsigned
count(const struct ctx *c, struct part *p, uint32_t ni, unsigned stop)
{
    const struct pr_tree_node *nd = &c->tree->nodes[ni];
    const struct cost *k = cost_of(c, ni);

    p->dev_ns =
        pr_sat_add_i64(p->dev_ns, pr_tree_device_self(c->t, c->tree, nd));
    p->host_ns =
        pr_sat_add_i64(p->host_ns, pr_tree_host_self(c->t, c->tree, nd));
    p->tc_ns = pr_sat_add_i64(p->tc_ns, pr_tree_tc_self(c->t, c->tree, nd));
    if (nd->is_operator && !(stop & STOP_FLOPS)) {
        if (k && isfinite(k->flops)) {
            if (p->top == NO_NODE || k->flops > top_flops(c, p))
                p->top = ni;
            p->flops += k->flops;
            p->flops_src = merge_src(p->flops_src, k->flops_src);
            stop |= STOP_FLOPS;
        } else if (did_work(c, nd)) {
            p->unknown |= UNKNOWN_F;
        }
    }
    if (nd->is_operator && !(stop & STOP_BYTES)) {
        if (k && isfinite(k->bytes)) {
            p->bytes += k->bytes;
            p->bytes_src = merge_src(p->bytes_src, k->flops_src);
            stop |= STOP_BYTES;
        } else if (did_work(c, nd)) {
            p->unknown |= UNKNOWN_B;
        }
    }
    return stop;
}

/* ---- walks -------------------------------------------------------------- */

/* enter: 1 to visit the node's children, 0 to skip them, -1 on
 * out-of-memory; leave: 0 on out-of-memory. */
typedef int (*enter_fn)(struct ctx *c, const struct frame *up, struct frame *f);
typedef int (*leave_fn)(struct ctx *c, const struct frame *f);

static int
push(struct ctx *c, size_t depth, uint32_t ni, enter_fn enter)
{
    struct frame *f;
    int r;

    if (pr_grow((void **)&c->stack, &c->cap_stack, depth + 1,
                sizeof(*c->stack)) != PR_OK)
        return -1;
    f = &c->stack[depth];
    memset(f, 0, sizeof(*f));
    f->node = ni;
    r = enter(c, depth > 0 ? &c->stack[depth - 1] : NULL, f);
    if (r > 0)
        f->kid = pr_tree_n_kids(c->tree, &c->tree->nodes[ni]);
    return r;
}

/* Node top's subtree, parents first and children last to first: the
 * reverse of the tree's post-order, the order the layers are defined
 * in.  A node whose enter() says 0 is left, with its subtree, unvisited
 * (and not left).  0 on out-of-memory. */
static int
walk(struct ctx *c, uint32_t top, enter_fn enter, leave_fn leave)
{
    int r = push(c, 0, top, enter);
    size_t depth = r > 0 ? 1 : 0;

    while (r >= 0 && depth > 0) {
        struct frame *f = &c->stack[depth - 1];
        const struct pr_tree_node *nd = &c->tree->nodes[f->node];

        if (f->kid == 0) {
            if (leave && !leave(c, f))
                return 0;
            depth--;
            continue;
        }
        r = push(c, depth, pr_tree_kids(c->tree, nd)[--f->kid], enter);
        if (r > 0)
            depth++;
    }
    return r >= 0;
}

/* ---- backward roots' sequence numbers ----------------------------------- */

/* A backward root of a C++ autograd Function ("...CppNode<Name>"): the
 * op that made it records no sequence number, so the ops that carry its
 * number are ones that ran before it. */
static int
is_cpp_node(const struct ctx *c, uint32_t ni)
{
    const char *nm =
        pr_trace_str(c->t, pr_tree_name(c->t, c->tree, &c->tree->nodes[ni]));

    return nm != NULL && strstr(nm, "CppNode<") != NULL;
}

static int
cmp_seqs(const void *a, const void *b)
{
    const struct seq *x = a, *y = b;

    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The sequence numbers of the backward roots, each once, with how many
 * carry it; 0 on out-of-memory. */
static int
collect_seqs(struct ctx *c)
{
    const struct pr_tree *tr = c->tree;
    size_t i, n = 0, cap = 0;
    struct pr_tree_walk w;
    struct pr_op_info ob;
    uint32_t ni;
    int ok = pr_tree_walk_init(&w, tr, 0, NULL) == PR_OK;

    while (ok && (ni = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
        if (!is_backward_root(c, ni))
            continue;
        ok = pr_grow((void **)&c->seqs, &cap, n + 1, sizeof(*c->seqs)) == PR_OK;
        if (!ok)
            break;
        c->seqs[n].seq = node_op(c, &tr->nodes[ni], &ob)->seq;
        c->seqs[n].n_bwd = 1;
        c->seqs[n].layer = NO_NODE;
        c->seqs[n].multi = 0;
        c->seqs[n].cpp = is_cpp_node(c, ni);
        c->seqs[n++].slot = NO_SLOT;
    }
    pr_tree_walk_free(&w);
    if (!ok)
        return 0;
    if (n > 1)
        qsort(c->seqs, n, sizeof(*c->seqs), cmp_seqs);
    for (i = 0; i < n; i++) {
        if (c->n_seqs > 0 && c->seqs[c->n_seqs - 1].seq == c->seqs[i].seq) {
            c->seqs[c->n_seqs - 1].n_bwd++;
            c->seqs[c->n_seqs - 1].cpp |= c->seqs[i].cpp;
        } else
            c->seqs[c->n_seqs++] = c->seqs[i];
    }
    return 1;
}

static struct seq *
find_seq(const struct ctx *c, int64_t seq)
{
    struct seq key;

    key.seq = seq;
    if (c->n_seqs == 0)
        return NULL;
    return bsearch(&key, c->seqs, c->n_seqs, sizeof(*c->seqs), cmp_seqs);
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

/* What flops.c makes of node ni's operator (class PR_OPC_OTHER and dtype
 * unknown: nothing). */
static void
op_cost(const struct ctx *c, uint32_t ni, struct pr_op_cost *cost)
{
    struct pr_op_info ob;
    const struct pr_op_info *op =
        ni == NO_NODE ? NULL : node_op(c, &c->tree->nodes[ni], &ob);
    struct pr_op_call call;
    struct pr_error e = {PR_OK, ""};

    memset(cost, 0, sizeof(*cost));
    cost->cls = PR_OPC_OTHER;
    cost->dtype = PR_DT_UNKNOWN;
    if (op == NULL)
        return;
    pr_shapes_get(c->t, op->input_dims, op->input_types, op->concrete_inputs,
                  c->in);
    call.name =
        pr_trace_str(c->t, pr_tree_name(c->t, c->tree, &c->tree->nodes[ni]));
    call.in = c->in;
    call.trace_flops = op->flops;
    call.conv_grads = pr_roofline_conv_grads(c->t, c->tree, ni);
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

/* The row of the layer at node ni (created on first sight); NULL on
 * out-of-memory. */
static struct row *
row_of(struct ctx *c, uint32_t ni)
{
    const struct pr_tree_node *nd = &c->tree->nodes[ni];
    struct pr_op_info ob;
    uint32_t dims = dims_of(c, node_op(c, nd, &ob));
    size_t i = pr_idmap_get(&c->row_ids,
                            op_key(pr_tree_name(c->t, c->tree, nd), dims));
    struct row *r;

    if (i != PR_NONE)
        return &c->rows[i];
    if (pr_grow((void **)&c->rows, &c->cap_rows, c->n_rows + 1,
                sizeof(*c->rows)) != PR_OK ||
        pr_idmap_put(&c->row_ids, op_key(pr_tree_name(c->t, c->tree, nd), dims),
                     c->n_rows, NULL) != PR_OK)
        return NULL;
    r = &c->rows[c->n_rows++];
    memset(r, 0, sizeof(*r));
    r->name = pr_trace_str(c->t, pr_tree_name(c->t, c->tree, nd));
    r->shapes = dims == PR_STR_NONE ? "[]" : pr_trace_str(c->t, dims);
    r->first = ni;
    part_init(&r->fwd);
    part_init(&r->back);
    no_names(r->names);
    return r;
}

/* A record for the layer being walked; 0 on out-of-memory. */
static int
new_slot(struct ctx *c)
{
    struct layer *l;

    if (c->n_slots >= NO_SLOT ||
        pr_grow((void **)&c->layers, &c->cap_slots, c->n_slots + 1,
                sizeof(*c->layers)) != PR_OK)
        return 0;
    l = &c->layers[c->n_slots];
    memset(l, 0, sizeof(*l));
    l->est_flops = l->est_bytes = NAN;
    l->row = NO_SLOT;
    c->cur_slot = (uint32_t)c->n_slots++;
    return 1;
}

/* A forward op of the layer being walked claims its sequence number for
 * it, unless an op walked before did: the last in post-order wins, the op
 * that made the autograd node (ops before it in the same layer share its
 * number).  0 on out-of-memory. */
static int
claim(struct ctx *c, const struct pr_op_info *op)
{
    struct seq *s = is_forward(op) ? find_seq(c, op->seq) : NULL;

    if (s == NULL || s->slot != NO_SLOT || (s->multi && s->cpp))
        return 1;
    if (c->cur_slot == NO_SLOT && !new_slot(c))
        return 0;
    s->slot = c->cur_slot;
    c->cur_back += s->n_bwd;
    return 1;
}

/* An operator of its own namespace without a sequence number (a C++
 * autograd Function: fbgemm::split_embedding_codegen_lookup_..._function,
 * whose backward node takes the number its inner aten::zero_, view and
 * select record): when ops inside it carry numbers it is the layer, not
 * one of them (review25g #4: hta_diff_control's SplitLookupFunction
 * backward, 59.4 ms, was paired with an aten::zero_ [[1]]).  Annotations
 * (ProfilerStep#, Optimizer.step#, enumerate(DataLoader)) are not. */
static int
encloses_forward(const struct ctx *c, uint32_t ni, const struct pr_op_info *op)
{
    const struct pr_tree_node *nd = &c->tree->nodes[ni];
    const char *nm;

    if (!nd->is_operator || (op != NULL && op->seq >= 0) ||
        pr_tree_n_kids(c->tree, nd) == 0)
        return 0;
    nm = pr_trace_str(c->t, pr_tree_name(c->t, c->tree, nd));
    return nm != NULL && strstr(nm, "::") != NULL && strchr(nm, '#') == NULL &&
           strncmp(nm, "autograd::", 10) != 0;
}

/* Whose the node is: a top-level forward op starts a layer, anything else
 * below one is the layer's; a backward root's subtree is left to
 * walk_backward(). */
static int
enter_layer(struct ctx *c, const struct frame *up, struct frame *f)
{
    struct pr_op_info ob;
    const struct pr_op_info *op = node_op(c, &c->tree->nodes[f->node], &ob);
    int in_layer = up != NULL && up->own == OWN_LAYER;

    if (is_backward_root(c, f->node))
        return 0;
    if (!in_layer && (is_forward(op) || encloses_forward(c, f->node, op))) {
        c->cur_node = f->node;
        c->cur_slot = NO_SLOT;
        c->cur_back = 0;
        part_init(&c->cur);
    } else if (!in_layer) {
        return 1;
    }
    f->own = OWN_LAYER;
    f->stop =
        (unsigned char)count(c, &c->cur, f->node, in_layer ? up->stop : 0u);
    return claim(c, op) ? 1 : -1;
}

/* The first walk: which sequence numbers forward ops of more than one
 * layer carry.  Their backward cannot be told apart from the ops that
 * ran before the autograd node was made: a C++ autograd Function
 * (fbgemm's SplitLookupFunction) records no number of its own, so the
 * number its CppNode takes is carried by the view, select, to and zero_
 * of the layers before it (review25g #4: hta_diff_control's 59.4 ms
 * backward was paired with an aten::zero_ [[1]] inside
 * fbgemm::bounds_check_indices).  Such a backward is left unpaired
 * (claim).  Elsewhere the last op to carry a number is the one that made
 * the node (ops on tensors without grad before it carry it too, as the
 * input batch's view, permute, to and div before ResNet's conv1 do). */
static int
enter_mark(struct ctx *c, const struct frame *up, struct frame *f)
{
    struct pr_op_info ob;
    const struct pr_op_info *op = node_op(c, &c->tree->nodes[f->node], &ob);
    int in_layer = up != NULL && up->own == OWN_LAYER;
    struct seq *s;

    if (is_backward_root(c, f->node))
        return 0;
    if (!in_layer && (is_forward(op) || encloses_forward(c, f->node, op)))
        c->cur_node = f->node;
    else if (!in_layer)
        return 1;
    f->own = OWN_LAYER;
    if ((s = is_forward(op) ? find_seq(c, op->seq) : NULL) == NULL)
        return 1;
    if (s->layer == NO_NODE)
        s->layer = c->cur_node;
    else if (s->layer != c->cur_node)
        s->multi = 1;
    return 1;
}

/* The layer walked, when it has backward roots, into its row: its
 * forward as it counts (unknown once a node's count is), and what an
 * unknown backward count is estimated as: twice the forward's for a
 * matmul or convolution.  0 on out-of-memory. */
static int
leave_layer(struct ctx *c, const struct frame *f)
{
    struct part fwd = c->cur;
    struct pr_op_cost cost;
    struct layer *l;
    struct row *r;
    int twice;

    if (f->own != OWN_LAYER || f->node != c->cur_node || c->cur_slot == NO_SLOT)
        return 1;
    if ((r = row_of(c, c->cur_node)) == NULL)
        return 0;
    op_cost(c, fwd.top, &cost);
    twice = twice_forward(cost.cls);
    if (fwd.unknown & UNKNOWN_F) {
        fwd.flops = NAN;
        fwd.flops_src = NULL;
    }
    if (fwd.unknown & UNKNOWN_B) {
        fwd.bytes = NAN;
        fwd.bytes_src = NULL;
    }
    part_add(c, &r->fwd, &fwd);
    r->calls++;
    r->bwd_calls += c->cur_back;
    c->n_layers++;
    l = &c->layers[c->cur_slot];
    l->row = (uint32_t)(r - c->rows);
    l->est_flops = twice && isfinite(fwd.flops) ? 2.0 * fwd.flops : NAN;
    l->est_bytes = twice && isfinite(fwd.bytes) ? 2.0 * fwd.bytes : NAN;
    return 1;
}

/* The layers in the order their roots were defined: the reverse of the
 * tree's post-order, threads last to first.  0 on out-of-memory. */
static int
walk_layers(struct ctx *c)
{
    size_t r;

    for (r = c->tree->n_roots; r > 0 && c->n_seqs > 0; r--) {
        if (!walk(c, c->tree->roots[r - 1], enter_mark, NULL))
            return 0;
    }
    for (r = c->tree->n_roots; r > 0; r--) {
        if (!walk(c, c->tree->roots[r - 1], enter_layer, leave_layer))
            return 0;
    }
    return 1;
}

/* A backward root's own nodes: not those of a backward root inside it. */
static int
enter_backward(struct ctx *c, const struct frame *up, struct frame *f)
{
    if (up != NULL && is_backward_root(c, f->node))
        return 0;
    c->grads |= pr_flops_conv_grad_of(pr_trace_str(
        c->t, pr_tree_name(c->t, c->tree, &c->tree->nodes[f->node])));
    f->stop = (unsigned char)count(c, &c->cur, f->node, up ? up->stop : 0u);
    return 1;
}

/* Each backward root whose sequence number a layer claimed, in time
 * order (post-order), into *v (*n of them).  0 on out-of-memory. */
static int
collect_backward(struct ctx *c, struct bwd_root **v, size_t *n)
{
    const struct pr_tree *tr = c->tree;
    struct pr_tree_walk w;
    uint32_t ni;
    size_t cap = 0;
    int ok;

    *v = NULL;
    *n = 0;
    if (c->n_seqs == 0)
        return 1; /* collect_seqs met no backward root */
    ok = pr_tree_walk_init(&w, tr, 0, NULL) == PR_OK;
    while (ok && (ni = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
        struct pr_op_info ob;
        const struct seq *s;

        if (!is_backward_root(c, ni))
            continue;
        c->n_bwd++;
        s = find_seq(c, node_op(c, &tr->nodes[ni], &ob)->seq);
        if (s == NULL || s->slot == NO_SLOT) {
            c->n_unpaired++;
            continue;
        }
        ok = pr_grow((void **)v, &cap, *n + 1, sizeof(**v)) == PR_OK;
        if (ok) {
            (*v)[*n].slot = s->slot;
            (*v)[(*n)++].node = ni;
        }
    }
    pr_tree_walk_free(&w);
    return ok;
}

/* The backward roots of v grouped by layer, each layer's in time order
 * (a counting sort): layer s has roots[first[s] .. first[s + 1]).  0 on
 * out-of-memory. */
static int
group_backward(const struct ctx *c, const struct bwd_root *v, size_t n,
               uint32_t **roots, uint32_t **first)
{
    size_t i, s;

    *roots = malloc((n ? n : 1) * sizeof(**roots));
    *first = calloc(c->n_slots + 1, sizeof(**first));
    if (*roots == NULL || *first == NULL)
        return 0;
    for (i = 0; i < n; i++)
        (*first)[v[i].slot + 1]++;
    for (s = 0; s < c->n_slots; s++)
        (*first)[s + 1] += (*first)[s];
    for (i = 0; i < n; i++)
        (*roots)[(*first)[v[i].slot]++] = v[i].node;
    for (s = c->n_slots; s > 0; s--)
        (*first)[s] = (*first)[s - 1];
    (*first)[0] = 0;
    return 1;
}

/* Layer `slot`'s backward roots (n of them, in time order) summed, then
 * into its row as they count: unknown once a node's count is, but for
 * the estimate.  0 on out-of-memory. */
static int
fold_layer(struct ctx *c, size_t slot, const uint32_t *roots, size_t n)
{
    const struct layer *l = &c->layers[slot];
    uint32_t names[MAX_BWD_NAMES];
    struct part bwd;
    struct row *r;
    size_t i, k;
    unsigned grads = 0;
    int half;

    part_init(&bwd);
    no_names(names);
    for (i = 0; i < n; i++) {
        part_init(&c->cur);
        c->grads = 0;
        if (!walk(c, roots[i], enter_backward, NULL))
            return 0;
        grads |= c->grads;
        part_add(c, &bwd, &c->cur);
        add_name(names, pr_tree_name(c->t, c->tree, &c->tree->nodes[roots[i]]));
    }
    if (l->row == NO_SLOT)
        return 1; /* cannot happen: every claiming layer ends */
    r = &c->rows[l->row];
    /* one gradient alone redoes the forward's work once, not twice: no
       data gradient ran (cudnn_convolution_backward_weight without
       _backward_input, ResNet's conv1).  A counted backward carries it
       already (pr_roofline_conv_grads: its cost counts one pass) */
    half = grads == PR_CONV_GRAD_WEIGHT || grads == PR_CONV_GRAD_INPUT;
    if (bwd.unknown & UNKNOWN_F) {
        bwd.flops = half ? 0.5 * l->est_flops : l->est_flops;
        bwd.flops_src = !isfinite(bwd.flops) ? NULL
                        : half               ? PR_LAYERS_ESTIMATED_1X
                                             : PR_LAYERS_ESTIMATED;
    }
    if (bwd.unknown & UNKNOWN_B) {
        bwd.bytes = half ? 0.5 * l->est_bytes : l->est_bytes;
        bwd.bytes_src = !isfinite(bwd.bytes) ? NULL
                        : half               ? PR_LAYERS_ESTIMATED_1X
                                             : PR_LAYERS_ESTIMATED;
    }
    part_add(c, &r->back, &bwd);
    for (k = 0; k < MAX_BWD_NAMES; k++)
        if (names[k] != PR_STR_NONE)
            add_name(r->names, names[k]);
    return 1;
}

/* The backward roots into the layers that claimed their sequence
 * numbers, a layer at a time in layer order.  Only an 8-byte record per
 * root is held (issue #17: a 96-byte sum per layer was the pass's
 * peak).  0 on out-of-memory. */
static int
fold_backward(struct ctx *c)
{
    struct bwd_root *v;
    uint32_t *roots = NULL, *first = NULL;
    size_t n, s;
    int ok =
        collect_backward(c, &v, &n) && group_backward(c, v, n, &roots, &first);

    free(v);
    for (s = 0; s < c->n_slots && ok; s++)
        ok = fold_layer(c, s, roots + first[s], first[s + 1] - first[s]);
    free(roots);
    free(first);
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
 * first) with the peaks roofline.c gave it, as the devices rows are
 * written. */
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
read_device(const struct pr_layers_in *in, struct roof_dev *d)
{
    const struct pr_device_row *dev = in->device;
    int k;

    if (dev == NULL && in->devices != NULL && in->devices->n > 0)
        dev = &in->devices->v[0];
    memset(d, 0, sizeof(*d));
    for (k = 0; k < PR_PEAK_COUNT; k++)
        d->pk.tflops[k] =
            dev && dev->has_peaks && isfinite(dev->peaks.tflops[k])
                ? dev->peaks.tflops[k]
                : NAN;
    d->pk.gbps = dev && dev->has_peaks && isfinite(dev->peaks.gbps)
                     ? dev->peaks.gbps
                     : NAN;
    d->pk.cache_bytes = dev && dev->has_peaks &&
                                isfinite(dev->peaks.cache_bytes) &&
                                dev->peaks.cache_bytes > 0
                            ? dev->peaks.cache_bytes
                            : NAN;
    d->npu = dev && dev->kind && strcmp(dev->kind, "npu") == 0;
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
         struct roof *out)
{
    uint32_t top = r->fwd.top != NO_NODE ? r->fwd.top : r->first;
    const char *name =
        pr_trace_str(c->t, pr_tree_name(c->t, c->tree, &c->tree->nodes[top]));
    struct pr_op_cost cost;
    int tc, matrix;

    op_cost(c, top, &cost);
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

/* One part's counts, times and rates (the layer's, its forward's or its
 * backward's), as the row's columns under their prefix hold them. */
struct part_vals {
    double flops;
    const char *flops_src;
    double bytes;
    const char *bytes_src;
    int64_t dev_ns, host_ns;
    double tflops, gbps, ai;
    const char *bound;
};

/* Fills v from p; returns its intensity. */
static double
part_vals(const struct part *p, const struct roof *rf, struct part_vals *v)
{
    double secs = p->dev_ns > 0 ? (double)p->dev_ns * 1e-9 : NAN;
    double ai = p->bytes > 0 ? p->flops / p->bytes : NAN;
    double ridge = rf->peak * 1e12 / (rf->bw * 1e9);

    v->flops = p->flops;
    v->flops_src = isfinite(p->flops) ? p->flops_src : NULL;
    v->bytes = p->bytes;
    v->bytes_src = isfinite(p->bytes) ? p->bytes_src : NULL;
    v->dev_ns = p->dev_ns;
    v->host_ns = p->host_ns;
    v->tflops = p->flops / secs / 1e12;
    v->gbps = p->bytes / secs / 1e9;
    v->ai = ai;
    v->bound = !isfinite(ai) || !isfinite(ridge) ? "unknown"
               : ai < ridge                      ? "memory"
                                                 : "compute";
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

/* Whether a side above its memory roof is explained by the last-level
 * cache, as roofline.c's roof_mark tests an operator: memory-bound at the
 * side's intensity, and its bytes a call fit in the cache, or its traffic
 * beyond one cache-full fits under DRAM bandwidth. */
static int
side_cached(const struct part *p, size_t calls, const struct roof *rf,
            const struct roof_dev *d)
{
    double n = calls > 0 ? (double)calls : 1.0;
    double per_call = p->bytes / n, call_s = (double)p->dev_ns * 1e-9 / n;
    double ridge = rf->peak * 1e12 / (rf->bw * 1e9);
    double ai = p->bytes > 0 ? p->flops / p->bytes : NAN;
    double cache = d->pk.cache_bytes;

    if (!isfinite(per_call) || !isfinite(cache) || !(rf->bw > 0))
        return 0;
    if (isfinite(ai) && isfinite(ridge) && !(ai < ridge))
        return 0; /* compute-bound: the cache does not lift it */
    return per_call <= cache ||
           (call_s > 0 && (per_call - cache) / call_s <= rf->bw * 1e9);
}

/* Why a layer, or its forward or backward alone, sits above its roof
 * (NULL when none does): the mark roofline.c gave the operator of that
 * side with the most FLOPs (Winograd, FFT, cache-resident); else, where
 * every side above its roof is memory-bound and fits the cache as
 * roof_mark's test says, cache_resident (review 29 #6: hta_diff_control's
 * aten::mul [1024, 2560] moves 31.5 MB a forward call, under the A100's
 * 40 MB L2, at 178%, and was model_overcount); else a FLOP or byte model
 * that counts more than the kernels did.  A side alone counts (review
 * 28g #1: tb_resnet50's 3x3 64->64 conv ran its forward at 134% of the
 * V100's fp32 peak in volta_scudnn_winograd, averaged to 98% with its
 * backward and left unmarked). */
static const char *
row_mark(const struct ctx *c, const struct row *r, const struct roof *rf,
         const struct roof_dev *d, double pct, double fwd_pct, double bwd_pct)
{
    const struct cost *f =
        r->fwd.top == NO_NODE ? NULL : cost_of(c, r->fwd.top);
    const struct cost *b =
        r->back.top == NO_NODE ? NULL : cost_of(c, r->back.top);

    if (!(pct > 100.0) && !(fwd_pct > 100.0) && !(bwd_pct > 100.0))
        return NULL;
    if (f && f->mark && (pct > 100.0 || fwd_pct > 100.0))
        return f->mark;
    if (b && b->mark && (pct > 100.0 || bwd_pct > 100.0))
        return b->mark;
    if (f && f->mark)
        return f->mark;
    if (b && b->mark)
        return b->mark;
    if ((fwd_pct > 100.0 || bwd_pct > 100.0) &&
        (!(fwd_pct > 100.0) || side_cached(&r->fwd, r->calls, rf, d)) &&
        (!(bwd_pct > 100.0) || side_cached(&r->back, r->bwd_calls, rf, d)))
        return "cache_resident";
    return "model_overcount";
}

/* One row: the layer, its totals on the roofline, then forward and
 * backward side by side. */
static void
emit_row(const struct ctx *c, cJSON *arr, const struct row *r,
         const struct roof_dev *d, int *ok)
{
    struct part all = r->fwd;
    struct part_vals t, f, b;
    struct roof rf;
    char names[512];
    const char *mark, *side = NULL;
    double pct;

    if (!*ok)
        return;
    row_roof(c, r, d, &rf);
    part_add(c, &all, &r->back);
    pct = roof_pct(&all, &rf, part_vals(&all, &rf, &t));
    {
        double fp = roof_pct(&r->fwd, &rf, part_vals(&r->fwd, &rf, &f));
        double bp = roof_pct(&r->back, &rf, part_vals(&r->back, &rf, &b));

        mark = row_mark(c, r, &rf, d, pct, fp, bp);
        /* the side that carries it where the layer's point is not above
           its roof (review 32g #6: "winograd" beside 98.4% read as a
           contradiction of the Above roof column) */
        if (mark && !(pct > 100.0))
            side = fp > 100.0 ? "forward" : bp > 100.0 ? "backward" : NULL;
    }
    if (mark && strcmp(mark, PR_MARK_BROADCAST_INPUT) == 0)
        pct = NAN; /* of bytes the kernels did not move: no share */
    {
        struct pr_row_layer row = {r->name,
                                   r->shapes,
                                   bwd_names(c, r, names, sizeof(names)),
                                   (double)r->calls,
                                   (double)r->bwd_calls,
                                   t.flops,
                                   t.flops_src,
                                   t.bytes,
                                   t.bytes_src,
                                   t.dev_ns,
                                   t.host_ns,
                                   t.tflops,
                                   t.gbps,
                                   t.ai,
                                   t.bound,
                                   pct,
                                   mark,
                                   side,
                                   isfinite(rf.peak) ? pr_peaks_key(rf.kind)
                                                     : NULL,
                                   rf.peak,
                                   rf.dt == PR_DT_UNKNOWN || rf.dt == PR_DT_NONE
                                       ? NULL
                                       : pr_dtype_name(rf.dt),
                                   f.flops,
                                   f.flops_src,
                                   f.bytes,
                                   f.bytes_src,
                                   f.dev_ns,
                                   f.host_ns,
                                   f.tflops,
                                   f.gbps,
                                   f.ai,
                                   f.bound,
                                   b.flops,
                                   b.flops_src,
                                   b.bytes,
                                   b.bytes_src,
                                   b.dev_ns,
                                   b.host_ns,
                                   b.tflops,
                                   b.gbps,
                                   b.ai,
                                   b.bound};
        *ok = pr_rows_write(arr, PR_RO_RUNS_LAYERS, &row, 1);
    }
}

/* runs[].layers: the top PR_LAYERS_ROWS rows; NULL on out-of-memory. */
static cJSON *
rows_json(const struct ctx *c, const struct pr_layers_in *in)
{
    cJSON *arr = cJSON_CreateArray();
    struct roof_dev d;
    size_t i;
    int ok = arr != NULL;

    read_device(in, &d);
    for (i = 0; ok && i < c->n_rows && i < PR_LAYERS_ROWS; i++)
        emit_row(c, arr, &c->rows[i], &d, &ok);
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

/* Whether an operator from event `from` on carries a sequence number. */
static int
has_seq(const struct pr_trace *t, size_t from)
{
    size_t i;

    for (i = from; i < t->n_events; i++) {
        struct pr_op_info op;

        if (t->events[i].kind == PR_KIND_HOST_OP &&
            pr_trace_op(t, &t->events[i], &op) != NULL && op.seq >= 0)
            return 1;
    }
    return 0;
}

/* Milliseconds from the trace's first event to the end of its last. */
static double
events_span_ms(const struct pr_trace *t)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t end = pr_sat_add_i64(e->ts_ns, e->dur_ns);

        if (e->ts_ns < lo)
            lo = e->ts_ns;
        if (end > hi)
            hi = end;
    }
    return hi > lo ? (double)(hi - lo) / 1e6 : 0.0;
}

/* An Nsight Systems export's trace. */
static int
is_nsys(const struct pr_trace *t)
{
    return t->format != PR_STR_NONE &&
           strcmp(pr_trace_str(t, t->format), "nsys") == 0;
}

/* Why no layer has a backward pass, in the producer's terms (review32a
 * #5): record_shapes=True is a PyTorch option, MindSpore writes no
 * sequence numbers, and an export of device tasks (kernel_details.csv,
 * msprof's op_summary) has no host operators.  buf holds a note with
 * the trace's figures. */
static const char *
no_pairs_note(const struct pr_trace *t, char *buf, size_t n)
{
    size_t i;

    if (pr_sget_is(pr_run_framework(t), "mindspore"))
        return PR_LAYERS_NO_PAIRS_MINDSPORE;
    /* msprof's own export, of a framework its tasks do not name: its
       operators (op_summary's) are the device's, not a framework's */
    if (pr_run_framework(t) == NULL && pr_trace_is_npu(t))
        return PR_LAYERS_NO_OPS;
    for (i = 0; i < t->n_events; i++)
        if (t->events[i].kind == PR_KIND_HOST_OP) {
            if (!is_nsys(t))
                return PR_LAYERS_NO_PAIRS;
            /* recorded under emit_nvtx (an operator with its sequence
               number) but no backward pass in the capture: its window,
               not the option, is what is missing (issue #28) */
            if (!has_seq(t, i) || pr_trace_has_backward(t))
                return PR_LAYERS_NO_PAIRS_NSYS;
            snprintf(buf, n, PR_LAYERS_FORWARD_ONLY_NSYS, events_span_ms(t));
            return buf;
        }
    return PR_LAYERS_NO_OPS;
}

/* runs[].layer_view: what the rows stand for; NULL on out-of-memory. */
static cJSON *
view_json(const struct ctx *c)
{
    struct pr_row_layer_view v;
    char note[400];
    size_t i;

    memset(&v, 0, sizeof(v));
    for (i = 0; i < c->n_rows; i++) {
        v.forward_device_ns =
            pr_sat_add_i64(v.forward_device_ns, c->rows[i].fwd.dev_ns);
        v.backward_device_ns =
            pr_sat_add_i64(v.backward_device_ns, c->rows[i].back.dev_ns);
    }
    v.layers = (int64_t)c->n_layers;
    v.rows = (int64_t)c->n_rows;
    v.rows_omitted =
        c->n_rows > PR_LAYERS_ROWS ? (int64_t)(c->n_rows - PR_LAYERS_ROWS) : 0;
    v.backward_roots = (int64_t)c->n_bwd;
    v.backward_unpaired = (int64_t)c->n_unpaired;
    v.note = c->n_layers > 0       ? NULL
             : c->t->memtl != NULL ? PR_MEMTL_ONLY_ALLOCS
             : c->n_bwd > 0        ? (is_nsys(c->t) ? PR_LAYERS_NO_FORWARD_NSYS
                                                    : PR_LAYERS_NO_FORWARD)
                                   : no_pairs_note(c->t, note, sizeof(note));
    return pr_rows_row(PR_RO_RUNS_LAYER_VIEW, &v);
}

/* ---- the pass ----------------------------------------------------------- */

static int
ctx_init(struct ctx *c, const struct pr_trace *t, const struct pr_tree *tree)
{
    memset(c, 0, sizeof(*c));
    c->t = t;
    c->tree = tree;
    c->empty = pr_strtab_find(t->strs, "[]", 2);
    c->has_device = tree->n_devs > 0;
    c->in = malloc(sizeof(*c->in));
    return c->in != NULL;
}

/* What the walks needed; the rows stay. */
static void
walks_free(struct ctx *c)
{
    free(c->seqs);
    free(c->layers);
    free(c->stack);
    c->seqs = NULL;
    c->layers = NULL;
    c->stack = NULL;
    c->n_seqs = c->n_slots = c->cap_slots = c->cap_stack = 0;
}

static void
ctx_free(struct ctx *c)
{
    walks_free(c);
    free(c->costs);
    pr_idmap_free(&c->by_op);
    pr_idmap_free(&c->row_ids);
    free(c->rows);
    free(c->in);
}

/* The rows, in order; 0 on out-of-memory. */
static int
make_rows(struct ctx *c, const struct pr_layers_in *in)
{
    int ok = ctx_init(c, in->t, in->tree) && index_costs(c, in->by_shape) &&
             collect_seqs(c) && walk_layers(c) && fold_backward(c);

    walks_free(c);
    if (ok && c->n_rows > 1)
        qsort(c->rows, c->n_rows, sizeof(*c->rows), cmp_rows);
    return ok;
}

enum pr_status
pr_layers_fill(const struct pr_layers_in *in, cJSON *run, struct pr_error *err)
{
    static const char *const keys[] = {"layers", "layer_view"};
    struct ctx c;
    cJSON *items[2] = {NULL, NULL};

    if (make_rows(&c, in)) {
        items[0] = rows_json(&c, in);
        items[1] = view_json(&c);
    }
    ctx_free(&c);
    return pr_emit_put_all(run, keys, items, 2, "layers", err);
}
