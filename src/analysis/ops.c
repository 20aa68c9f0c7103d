/* ops.c - operator tables (spec section 8) from the op tree: one group per
 * name and per name + input shapes, summed over every operator node of
 * every thread.  The tree (tree.c) has already computed each node's
 * self/total times. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/ops.h"

#include "internal.h"

struct group {
    const char *name;   /* borrowed from the trace */
    const char *shapes; /* "[]" when the op has no Input Dims */
    const char *types;  /* NULL when absent (first member's) */
    size_t calls;
    int64_t host_total_ns, host_self_ns, dev_total_ns, dev_self_ns;
    int64_t tc_total_ns, tc_self_ns;
    int tc_eligible; /* the first member's, as in 8.3 */
    /* FLOPs CUPTI counted on the members' own kernels (kernel-replay
     * traces), and how many own kernels had no count */
    double measured_flops;
    size_t n_measured, n_unmeasured;
};

struct table {
    struct group *v; /* owned */
    size_t n, cap;
    struct pr_idmap index; /* key -> group */
};

static void
table_free(struct table *tb)
{
    free(tb->v);
    pr_idmap_free(&tb->index);
}

/* A missing shape groups with "[]" (8.2). */
static uint32_t
shape_id(const struct pr_trace *t, const struct pr_op_info *op)
{
    if (op != NULL && op->input_dims != PR_STR_NONE)
        return op->input_dims;
    return pr_strtab_find(t->strs, "[]", 2);
}

/* Counted FLOPs of node n's own kernels into g. */
static void
add_measured(struct group *g, const struct pr_trace *t,
             const struct pr_tree *tree, const struct pr_tree_node *n)
{
    size_t i, j;

    for (i = 0; i < n->n_rts; i++) {
        const struct pr_tree_rt *r = &tree->rts[pr_tree_rts(tree, n)[i]];

        for (j = 0; j < r->n_dev; j++) {
            const struct pr_event *e =
                &t->events[tree->devs[tree->rt_devs[r->dev_first + j]].ev];
            const struct pr_gpu_info *gi = pr_trace_gpu(t, e);

            if (e->kind != PR_KIND_DEVICE_TASK)
                continue;
            if (gi && gi->measured_flops >= 0) {
                g->measured_flops += gi->measured_flops;
                g->n_measured++;
            } else {
                g->n_unmeasured++;
            }
        }
    }
}

static enum pr_status
add_member(struct table *tb, int64_t key, const struct pr_trace *t,
           const struct pr_tree *tree, const struct pr_tree_node *n,
           struct pr_error *err)
{
    const struct pr_op_info *op = pr_trace_op(t, &t->events[n->ev]);
    size_t gi = pr_idmap_get(&tb->index, key);
    struct group *g;

    if (gi == PR_NONE) {
        gi = tb->n;
        if (pr_grow((void **)&tb->v, &tb->cap, tb->n + 1, sizeof(*g)) ||
            pr_idmap_put(&tb->index, key, gi, err))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (ops)");
        g = &tb->v[tb->n++];
        memset(g, 0, sizeof(*g));
        g->name = pr_trace_str(t, n->name);
        g->shapes = op != NULL && op->input_dims != PR_STR_NONE
                        ? pr_trace_str(t, op->input_dims)
                        : "[]";
        g->types = op != NULL && op->input_types != PR_STR_NONE
                       ? pr_trace_str(t, op->input_types)
                       : NULL;
        g->tc_eligible = n->tc_eligible;
    }
    g = &tb->v[gi];
    g->calls++;
    g->host_total_ns =
        pr_sat_add_i64(g->host_total_ns, pr_tree_host_total(t, n));
    g->host_self_ns = pr_sat_add_i64(g->host_self_ns, n->host_self_ns);
    g->dev_total_ns = pr_sat_add_i64(g->dev_total_ns, n->device_total_ns);
    g->dev_self_ns = pr_sat_add_i64(g->dev_self_ns, n->device_self_ns);
    g->tc_total_ns = pr_sat_add_i64(g->tc_total_ns, n->tc_total_ns);
    g->tc_self_ns = pr_sat_add_i64(g->tc_self_ns, pr_tree_tc_self(tree, n));
    add_measured(g, t, tree, n);
    return PR_OK;
}

static enum pr_status
collect(const struct pr_trace *t, const struct pr_tree *tree,
        struct table *by_name, struct table *by_shape, struct pr_error *err)
{
    size_t i;

    for (i = 0; i < tree->n_post; i++) {
        const struct pr_tree_node *n = &tree->nodes[tree->post[i]];
        const struct pr_op_info *op;
        int64_t shape_key;

        if (!n->is_operator)
            continue;
        op = pr_trace_op(t, &t->events[n->ev]);
        shape_key = (int64_t)(((uint64_t)n->name << 32) | shape_id(t, op));
        if (add_member(by_name, n->name, t, tree, n, err) != PR_OK ||
            add_member(by_shape, shape_key, t, tree, n, err) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

static int
cmp_group(const void *a, const void *b)
{
    const struct group *x = a, *y = b;
    int c;

    if (x->dev_self_ns != y->dev_self_ns)
        return x->dev_self_ns > y->dev_self_ns ? -1 : 1;
    c = strcmp(x->name, y->name);
    return c != 0 ? c : strcmp(x->shapes, y->shapes);
}

static double
pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void
emit_group(cJSON *arr, const struct group *g, int with_shapes, int *ok)
{
    cJSON *o = pr_emit_obj(arr, NULL, ok);

    pr_emit_str(o, "name", g->name, ok);
    if (with_shapes) {
        pr_emit_str(o, "input_shapes", g->shapes, ok);
        pr_emit_str(o, "input_types", g->types, ok);
    }
    pr_emit_num(o, "calls", (double)g->calls, ok);
    pr_emit_us(o, "device_self_us", g->dev_self_ns, ok);
    pr_emit_us(o, "device_total_us", g->dev_total_ns, ok);
    pr_emit_us(o, "host_self_us", g->host_self_ns, ok);
    pr_emit_us(o, "host_total_us", g->host_total_ns, ok);
    pr_emit_bool(o, "tc_eligible", g->tc_eligible, ok);
    pr_emit_num(o, "tc_self_pct", pct(g->tc_self_ns, g->dev_self_ns), ok);
    pr_emit_num(o, "tc_total_pct", pct(g->tc_total_ns, g->dev_total_ns), ok);
    pr_emit_null(o, "flops", ok);
    pr_emit_null(o, "bytes", ok);
    pr_emit_null(o, "achieved_tflops", ok);
    pr_emit_null(o, "achieved_gbps", ok);
    pr_emit_null(o, "arithmetic_intensity", ok);
    pr_emit_str(o, "bound", "unknown", ok);
    pr_emit_null(o, "roofline_pct", ok);
    /* the roofline pass prefers these to its formulas (roofline.h) */
    if (g->n_measured > 0 && g->n_unmeasured == 0)
        pr_emit_num(o, "measured_flops", g->measured_flops, ok);
}

static cJSON *
to_json(struct table *tb, int with_shapes)
{
    cJSON *arr = cJSON_CreateArray();
    int ok = arr != NULL;
    size_t i;

    if (tb->n > 1)
        qsort(tb->v, tb->n, sizeof(*tb->v), cmp_group);
    for (i = 0; i < tb->n && ok; i++)
        emit_group(arr, &tb->v[i], with_shapes, &ok);
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

enum pr_status
pr_ops_build(const struct pr_trace *t, const struct pr_tree *tree,
             cJSON **by_name, cJSON **by_shape, struct pr_error *err)
{
    struct table names = {0}, shapes = {0};
    enum pr_status st = collect(t, tree, &names, &shapes, err);

    *by_name = *by_shape = NULL;
    if (st == PR_OK) {
        *by_name = to_json(&names, 0);
        *by_shape = to_json(&shapes, 1);
        if (*by_name == NULL || *by_shape == NULL) {
            cJSON_Delete(*by_name);
            cJSON_Delete(*by_shape);
            *by_name = *by_shape = NULL;
            st = pr_error_set(err, PR_E_NOMEM, "out of memory (ops)");
        }
    }
    table_free(&names);
    table_free(&shapes);
    return st;
}

/* Kernel time of node n's own runtimes. */
static int64_t
own_kernel_ns(const struct pr_trace *t, const struct pr_tree *tree,
              const struct pr_tree_node *n)
{
    int64_t sum = 0;
    size_t i, j;

    for (i = 0; i < n->n_rts; i++) {
        const struct pr_tree_rt *r = &tree->rts[pr_tree_rts(tree, n)[i]];

        for (j = 0; j < r->n_dev; j++) {
            const struct pr_event *e =
                &t->events[tree->devs[tree->rt_devs[r->dev_first + j]].ev];

            if (e->kind == PR_KIND_DEVICE_TASK)
                sum = pr_sat_add_i64(sum, e->dur_ns);
        }
    }
    return sum;
}

double
pr_ops_tc_eligible_ratio(const struct pr_trace *t, const struct pr_tree *tree)
{
    unsigned char *below = calloc(tree->n_nodes ? tree->n_nodes : 1, 1);
    int64_t num = 0, den = 0;
    size_t i, k;

    if (below == NULL)
        return 0; /* only feeds a recommendation; no hint rather than fail */
    /* Post-order: bit 1 = bottom-eligible, bit 2 = one below it is. */
    for (i = 0; i < tree->n_post; i++) {
        const struct pr_tree_node *n = &tree->nodes[tree->post[i]];
        int has_below = 0;

        for (k = 0; k < n->n_kids; k++)
            has_below |= below[pr_tree_kids(tree, n)[k]] != 0;
        below[tree->post[i]] = (unsigned char)(has_below ? 2 : 0);
        if (n->tc_eligible && !has_below) {
            below[tree->post[i]] = 1;
            num = pr_sat_add_i64(num, own_kernel_ns(t, tree, n));
        }
        if (n->is_operator)
            den = pr_sat_add_i64(den, own_kernel_ns(t, tree, n));
    }
    free(below);
    return den > 0 ? (double)num / (double)den : 0.0;
}
