/* kernel_calls.c - one row per kernel launch (PyProf's view, issue #3): the
 * op tree gives the launching node, its ancestors give the direction, and
 * flops.c gives the call's cost.  Too large for the summary, so the table
 * command asks for it directly; rendering is table.c's job. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/checked.h"
#include "profreport/cube.h"
#include "profreport/flops.h"
#include "profreport/kernel_calls.h"
#include "profreport/keys.h"
#include "profreport/roofline.h"
#include "profreport/tensorcore.h"
#include "profreport/tree.h"

#include "profreport/kclass.h"

#include "../internal.h"

#define EVAL_PREFIX "autograd::engine::evaluate_function:"

/* Thread roles, bits in the tids map. */
#define TID_BACKWARD 1u
#define TID_STEP 2u

struct calls {
    const struct pr_trace *t;
    struct pr_tree tree;
    struct pr_idmap tids;     /* tid string id -> TID_* bits */
    struct pr_idmap conv_bwd; /* seq -> grad_output dims string id */
    size_t *n_launched;       /* owned; per node: kernels so far */
    int64_t t0_ns;            /* first event of the trace */
    uint32_t range_cat;       /* "cuda_profiler_range" where kernels were
                                 replayed (replay.c), else PR_STR_NONE */
    struct pr_op_inputs *in;  /* owned; scratch for one call's inputs */
    struct pr_names names;    /* the kernel table's answers by name */
    int npu;                  /* an Ascend run: its tasks' own words */
    struct pr_cube_ctx cube;  /* which of its tasks ran on the Cube */
};

/* The op call's cost, shared by its kernels. */
struct cost {
    double flops, bytes; /* per call; -1 unknown */
};

static int
ends_with_backward(const char *name)
{
    size_t n = strlen(name);

    while (n > 0 && name[n - 1] >= '0' && name[n - 1] <= '9')
        n--;
    return n >= 8 && memcmp(name + n - 8, "Backward", 8) == 0;
}

static int
is_backward_name(const char *name)
{
    return strncmp(name, EVAL_PREFIX, sizeof(EVAL_PREFIX) - 1) == 0 ||
           ends_with_backward(name) || strstr(name, "_backward") != NULL;
}

/* MindSpore names every operator of the backward graph under the
 * "Gradients" scope (its ad passes test a node's fullname_with_scope for
 * the prefix kGradientsFlag, mindspore/ccsrc/frontend/optimizer/
 * recompute.cc), e.g. "Gradients/Default/network-.../gradMatMul/
 * MatMul-op45"; the forward graph's are under "Default/". */
static int
is_gradients_scope(const char *name)
{
    return strncmp(name, "Gradients/", 10) == 0;
}

static const char *
node_name(const struct calls *c, size_t node)
{
    return pr_trace_str(c->t,
                        pr_tree_name(c->t, &c->tree, &c->tree.nodes[node]));
}

/* Which threads run backward work only: they hold backward-named nodes and
 * no ProfilerStep (a CPU-only backward runs on the main thread, which then
 * is no evidence either way). */
static enum pr_status
index_threads(struct calls *c, struct pr_error *err)
{
    size_t i;

    for (i = 0; i < c->tree.n_nodes; i++) {
        const struct pr_tree_node *n = &c->tree.nodes[i];
        const char *name;
        size_t bits;

        if (n->type == PR_N_ROOT)
            continue;
        name = node_name(c, i);
        bits = pr_idmap_get(&c->tids, pr_tree_tid(c->t, &c->tree, i));
        bits = bits == PR_NONE ? 0 : bits;
        bits |= is_backward_name(name) ? TID_BACKWARD : 0;
        bits |= pr_tree_is_step(name) ? TID_STEP : 0;
        if (pr_idmap_put(&c->tids, pr_tree_tid(c->t, &c->tree, i), bits, err) !=
            PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

/* Sequence number -> the conv backward node's grad_output dims, as
 * roofline.c uses it; PR_STR_NONE where two nodes disagree. */
static enum pr_status
index_conv_bwd(struct calls *c, struct pr_error *err)
{
    size_t i;

    for (i = 0; i < c->t->n_events; i++) {
        const struct pr_event *e = &c->t->events[i];
        struct pr_op_info ob;
        const struct pr_op_info *op = pr_trace_op(c->t, e, &ob);
        size_t prev;

        if (e->kind != PR_KIND_HOST_OP || !op || op->seq < 0 ||
            op->input_dims == PR_STR_NONE ||
            !pr_roofline_is_conv_bwd_node(pr_trace_str(c->t, e->name)))
            continue;
        prev = pr_idmap_get(&c->conv_bwd, op->seq);
        prev = prev != PR_NONE && prev != op->input_dims ? PR_STR_NONE
                                                         : op->input_dims;
        if (pr_idmap_put(&c->conv_bwd, op->seq, prev, err) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

/* The operator of a node, copied into *buf; NULL when none. */
static const struct pr_op_info *
node_op(const struct calls *c, size_t node, struct pr_op_info *buf)
{
    const struct pr_tree_node *n = &c->tree.nodes[node];

    return n->ev == PR_TREE_NONE ? NULL
                                 : pr_trace_op(c->t, &c->t->events[n->ev], buf);
}

/* Backward work: a node or ancestor of PyTorch's backward names, or a
 * task (or node) of MindSpore's backward graph (is_gradients_scope; its
 * task carries the full scope name, its node only the operator type),
 * else a thread that runs backward work only. */
static int
is_bprop(const struct calls *c, size_t node, const char *task)
{
    size_t bits, i = node;

    if (is_gradients_scope(task))
        return 1;
    for (; i != PR_TREE_NONE && c->tree.nodes[i].type != PR_N_ROOT;
         i = c->tree.nodes[i].parent) {
        if (is_backward_name(node_name(c, i)) ||
            is_gradients_scope(node_name(c, i)))
            return 1;
    }
    bits = pr_idmap_get(&c->tids, pr_tree_tid(c->t, &c->tree, node));
    return bits != PR_NONE && (bits & TID_BACKWARD) && !(bits & TID_STEP);
}

/* The op's own sequence number; a backward op without one takes its
 * autograd node's (the nearest ancestor that has one). */
static int64_t
seq_of(const struct calls *c, size_t node, int bprop)
{
    size_t i = node;

    for (; i != PR_TREE_NONE && c->tree.nodes[i].type != PR_N_ROOT;
         i = c->tree.nodes[i].parent) {
        struct pr_op_info ob;
        const struct pr_op_info *op = node_op(c, i, &ob);

        if (op && op->seq >= 0)
            return op->seq;
        if (!bprop)
            break;
    }
    return -1;
}

static const char *
op_text(const struct calls *c, uint32_t id)
{
    return id == PR_STR_NONE ? NULL : pr_trace_str(c->t, id);
}

/* A forward conv's output size from its backward op (roofline.h). */
static void
conv_from_bwd(const struct calls *c, const struct pr_op_info *op,
              const struct pr_op_inputs *in, struct pr_op_cost *oc)
{
    size_t dims = pr_idmap_get(&c->conv_bwd, op->seq);
    struct pr_op_inputs *out;

    if (dims == PR_NONE || dims == PR_STR_NONE || !in->has_shapes ||
        (out = malloc(sizeof(*out))) == NULL)
        return;
    pr_shapes_get(c->t, (uint32_t)dims, PR_STR_NONE, PR_STR_NONE, out);
    if (out->st == PR_OK)
        (void)pr_roofline_conv_from_output(&in->shapes, &out->shapes, oc);
    free(out);
}

/* Per-call FLOPs and bytes; a forward conv whose output size was not
 * recorded takes it from its backward op (roofline.h).  `in` is scratch. */
static struct cost
estimate(const struct calls *c, size_t node, struct pr_op_inputs *in)
{
    struct pr_op_info ob;
    const struct pr_op_info *op = node_op(c, node, &ob);
    struct pr_op_call call = {
        node_name(c, node), NULL, -1.0,
        pr_roofline_conv_grads(c->t, &c->tree, (uint32_t)node)};
    struct pr_op_cost oc;
    struct cost r = {-1.0, -1.0};

    if (op) {
        pr_shapes_get(c->t, op->input_dims, op->input_types,
                      op->concrete_inputs, in);
        call.in = in;
        call.trace_flops = op->flops;
    }
    if (pr_flops_estimate(&call, &oc, NULL) != PR_OK)
        return r; /* malformed text: unknown */
    if (oc.cls == PR_OPC_CONV && oc.flops < 0 && op && op->seq >= 0)
        conv_from_bwd(c, op, in, &oc);
    r.flops = oc.flops;
    r.bytes = oc.bytes;
    return r;
}

static void
emit_dims(cJSON *o, const char *key, const int32_t *v, int *ok)
{
    char buf[48];

    if (v == NULL || v[0] <= 0) {
        pr_emit_null(o, key, ok);
        return;
    }
    snprintf(buf, sizeof(buf), "[%d, %d, %d]", (int)v[0], (int)v[1], (int)v[2]);
    pr_emit_str(o, key, buf, ok);
}

static void
emit_id(cJSON *o, const char *key, int64_t v, int *ok)
{
    if (v < 0)
        pr_emit_null(o, key, ok);
    else
        pr_emit_num(o, key, (double)v, ok);
}

/* flops/bytes of launch number `sub` of a call: the call's value on its
 * first kernel, 0 on the others, null throughout when unknown. */
static void
emit_cost(cJSON *o, const char *key, double v, size_t sub, int *ok)
{
    if (v < 0)
        pr_emit_null(o, key, ok);
    else
        pr_emit_num(o, key, sub == 0 ? v : 0.0, ok);
}

/* A text of the operator, else the task's own (an Ascend task states its
 * Input Shapes / Input Data Types, kernel_details.csv, where the CANN
 * operator that launched it carries none: review30a #5). */
static const char *
op_or_task(const struct calls *c, uint32_t op, uint32_t task)
{
    const char *s = op_text(c, op);

    return s != NULL && s[0] != '\0' ? s : op_text(c, task);
}

static void
emit_op(cJSON *o, const struct calls *c, size_t node, size_t sub,
        const struct pr_gpu_info *g, const char *task, int *ok)
{
    struct pr_op_info ob;
    const struct pr_op_info *op;
    struct cost cost;
    int bprop;

    if (node == PR_TREE_NONE || c->tree.nodes[node].type == PR_N_ROOT) {
        pr_emit_null(o, "op", ok);
        /* no operator, but MindSpore's scope still tells backward */
        if (is_gradients_scope(task))
            pr_emit_str(o, PR_K_DIRECTION, "bprop", ok);
        else
            pr_emit_null(o, PR_K_DIRECTION, ok);
        pr_emit_null(o, "seq", ok);
        pr_emit_str(o, PR_K_INPUT_SHAPES, g ? op_text(c, g->dev_shapes) : NULL,
                    ok);
        pr_emit_str(o, PR_K_INPUT_TYPES, g ? op_text(c, g->dev_types) : NULL,
                    ok);
        pr_emit_null(o, "sub", ok);
        pr_emit_null(o, PR_K_FLOPS, ok);
        pr_emit_null(o, PR_K_BYTES, ok);
        return;
    }
    op = node_op(c, node, &ob);
    bprop = is_bprop(c, node, task);
    pr_emit_str(o, "op", node_name(c, node), ok);
    pr_emit_str(o, PR_K_DIRECTION, bprop ? "bprop" : "fprop", ok);
    emit_id(o, "seq", seq_of(c, node, bprop), ok);
    pr_emit_str(o, PR_K_INPUT_SHAPES,
                op_or_task(c, op ? op->input_dims : PR_STR_NONE,
                           g ? g->dev_shapes : PR_STR_NONE),
                ok);
    pr_emit_str(o, PR_K_INPUT_TYPES,
                op_or_task(c, op ? op->input_types : PR_STR_NONE,
                           g ? g->dev_types : PR_STR_NONE),
                ok);
    pr_emit_num(o, "sub", (double)sub, ok);
    cost = estimate(c, node, c->in); /* later kernels know it is known */
    emit_cost(o, PR_K_FLOPS, cost.flops, sub, ok);
    emit_cost(o, PR_K_BYTES, cost.bytes, sub, ok);
}

/* Whether the call ran on tensor cores (the Cube on an NPU) and what
 * decided, as the kernels table judges its kernel (kernels.c): an Ascend
 * task whose producer names its unit by that unit (pr_cube_task: its
 * counters, core and operator type; rule the unit's name), one that names
 * none null where its work is matrix work the Cube may have done (a GEMM,
 * convolution or attention, or a name no rule knows), else by its name's
 * rule (review30a #5: "TC no" on every Conv2D and MatMul of npu_text2). */
static void
emit_tc(cJSON *o, struct calls *c, const struct pr_event *e,
        const struct pr_gpu_info *g, const struct pr_kclass *k, int *ok)
{
    int tc = (pr_names_get(&c->names, e->name) & PR_NAME_TC) != 0;
    const char *rule = k->rule;

    if (c->npu && g != NULL && g->unit != PR_UNIT_UNKNOWN) {
        enum pr_cube cu = pr_cube_task(&c->cube, e->info, g);

        if (cu == PR_CUBE_UNKNOWN) { /* MIX_AIC without counters */
            pr_emit_null(o, "tc", ok);
            pr_emit_null(o, "tc_rule", ok);
            return;
        }
        tc = cu == PR_CUBE_YES;
        rule = pr_unit_name(g->unit);
    } else if (c->npu && k->math == PR_KM_UNKNOWN &&
               (k->family == PR_KF_GEMM || k->family == PR_KF_CONV ||
                k->family == PR_KF_ATTENTION || k->family == PR_KF_UNKNOWN)) {
        pr_emit_null(o, "tc", ok);
        pr_emit_null(o, "tc_rule", ok);
        return;
    }
    pr_emit_bool(o, "tc", tc, ok);
    pr_emit_str(o, "tc_rule", rule, ok);
}

static void
emit_launch(cJSON *arr, struct calls *c, const struct pr_tree_dev *d, int *ok)
{
    const struct pr_event *e = &c->t->events[d->ev];
    struct pr_gpu_info gb;
    const struct pr_gpu_info *g = pr_trace_gpu(c->t, e, &gb);
    const char *name = pr_trace_str(c->t, e->name);
    cJSON *o = pr_emit_obj(arr, NULL, ok);
    struct pr_kclass k;
    size_t sub = 0;
    uint32_t node = pr_tree_dev_node(&c->tree, d);

    if (node != PR_TREE_NONE)
        sub = c->n_launched[node]++;
    pr_emit_str(o, PR_K_KERNEL, name, ok);
    emit_op(o, c, node, sub, g, name, ok);
    if (c->range_cat != PR_STR_NONE && pr_event_cat(c->t, e) == c->range_cat) {
        /* a kernel-replay range: its start and length are Kineto's, one
           made-up length for every range, not the kernel's (review30g
           #3: "Duration 121 ms" on all 77 launches) */
        pr_emit_null(o, PR_K_START_US, ok);
        pr_emit_null(o, PR_K_DURATION_US, ok);
    } else {
        pr_emit_us(o, PR_K_START_US, pr_sat_sub_i64(e->ts_ns, c->t0_ns), ok);
        pr_emit_us(o, PR_K_DURATION_US, e->dur_ns, ok);
    }
    pr_names_rule(&c->names, e->name, &k);
    emit_tc(o, c, e, g, &k, ok);
    emit_dims(o, "grid", g ? g->grid : NULL, ok);
    emit_dims(o, "block", g ? g->block : NULL, ok);
    emit_id(o, PR_K_BLOCK_DIM, g ? g->block_dim : -1, ok);
    emit_id(o, PR_K_STREAM, g ? g->stream : -1, ok);
    emit_id(o, PR_K_DEVICE, g ? g->device : -1, ok);
}

static enum pr_status
emit_rows(struct calls *c, cJSON **rows, struct pr_error *err)
{
    size_t i;
    int ok = 1;

    *rows = cJSON_CreateArray();
    ok = *rows != NULL;
    for (i = 0; i < c->tree.n_devs && ok; i++) {
        const struct pr_tree_dev *d = &c->tree.devs[i];

        if (c->t->events[d->ev].kind == PR_KIND_DEVICE_TASK)
            emit_launch(*rows, c, d, &ok);
    }
    if (ok)
        return PR_OK;
    cJSON_Delete(*rows);
    *rows = NULL;
    return pr_error_set(err, PR_E_NOMEM, "out of memory (kernel calls)");
}

enum pr_status
pr_kernel_calls_build(const struct pr_trace *t, cJSON **rows,
                      struct pr_error *err)
{
    struct calls c;
    enum pr_status st;

    memset(&c, 0, sizeof(c));
    c.t = t;
    *rows = NULL;
    c.t0_ns = t->n_events > 0 ? t->events[0].ts_ns : 0;
    c.range_cat = t->replayed_kernels > 0
                      ? pr_strtab_find(t->strs, "cuda_profiler_range",
                                       strlen("cuda_profiler_range"))
                      : PR_STR_NONE;
    st = pr_tree_build(t, &c.tree, err);
    if (st != PR_OK)
        return st;
    pr_names_init(&c.names, t);
    c.npu = pr_trace_is_npu(t);
    if (c.npu)
        pr_cube_init(t, &c.cube);
    c.n_launched = calloc(c.tree.n_nodes + 1, sizeof(*c.n_launched));
    c.in = malloc(sizeof(*c.in));
    if (c.n_launched == NULL || c.in == NULL)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory (kernel calls)");
    if (st == PR_OK)
        st = index_threads(&c, err);
    if (st == PR_OK)
        st = index_conv_bwd(&c, err);
    if (st == PR_OK)
        st = emit_rows(&c, rows, err);
    free(c.n_launched);
    free(c.in);
    pr_idmap_free(&c.tids);
    pr_idmap_free(&c.conv_bwd);
    pr_names_free(&c.names);
    pr_tree_free(&c.tree);
    return st;
}
