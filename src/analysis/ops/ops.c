/* ops.c - operator tables (spec section 8) from the op tree: one group per
 * name and per name + input shapes, summed over every operator node of
 * every thread.  The tree (tree.c) has already computed each node's
 * self/total times. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/hostdev.h"
#include "profreport/keys.h"
#include "profreport/op_stats.h"
#include "profreport/ops.h"
#include "profreport/rows.h"

#include "../internal.h"

struct table {
    struct pr_op_row *v; /* owned */
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
add_measured(struct pr_op_row *g, const struct pr_trace *t,
             const struct pr_tree *tree, const struct pr_tree_node *n)
{
    size_t i, j;

    for (i = 0; i < pr_tree_n_rts(tree, n); i++) {
        const struct pr_tree_rt *r = &tree->rts[pr_tree_rts(tree, n)[i]];

        for (j = 0; j < r->n_dev; j++) {
            const struct pr_event *e =
                &t->events[tree->devs[tree->rt_devs[r->dev_first + j]].ev];
            struct pr_gpu_info gb;
            const struct pr_gpu_info *gi = pr_trace_gpu(t, e, &gb);

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

/* Node n's own copies between the host and a device: their time into
 * *ns and the bytes their records give into *bytes (NaN once a copy has
 * none). */
static void
node_copies(const struct pr_trace *t, const struct pr_tree *tree,
            const struct pr_tree_node *n, int64_t *ns, double *bytes)
{
    size_t i, j;

    *ns = 0;
    *bytes = 0.0;
    for (i = 0; i < pr_tree_n_rts(tree, n); i++) {
        const struct pr_tree_rt *r = &tree->rts[pr_tree_rts(tree, n)[i]];

        for (j = 0; j < r->n_dev; j++) {
            const struct pr_event *e =
                &t->events[tree->devs[tree->rt_devs[r->dev_first + j]].ev];
            struct pr_gpu_info gb;
            const struct pr_gpu_info *gi;

            if (!pr_hostdev_is_host_copy(t, e))
                continue;
            gi = pr_trace_gpu(t, e, &gb);
            *ns = pr_sat_add_i64(*ns, e->dur_ns);
            *bytes += gi == NULL || gi->bytes < 0 ? NAN : (double)gi->bytes;
        }
    }
}

/* A node's times, read once for both tables. */
struct figs {
    int64_t host_total, host_self, dev_total, dev_self, tc_total, tc_self;
    /* host copies: the node's own, and its and its descendants' */
    int64_t copy_ns, copy_total_ns;
    double copy_bytes, copy_total_bytes; /* NaN: a copy has none */
};

static enum pr_status
add_member(struct table *tb, int64_t key, const struct pr_trace *t,
           const struct pr_tree *tree, const struct pr_tree_node *n,
           const struct figs *f, struct pr_error *err)
{
    struct pr_op_info ob;
    const struct pr_op_info *op = pr_trace_op(t, &t->events[n->ev], &ob);
    size_t gi = pr_idmap_get(&tb->index, key);
    struct pr_op_row *g;

    if (gi == PR_NONE) {
        gi = tb->n;
        if (pr_grow((void **)&tb->v, &tb->cap, tb->n + 1, sizeof(*g)) ||
            pr_idmap_put(&tb->index, key, gi, err))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (ops)");
        g = &tb->v[tb->n++];
        memset(g, 0, sizeof(*g));
        g->name = pr_trace_str(t, pr_tree_name(t, tree, n));
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
    g->host_total_ns = pr_sat_add_i64(g->host_total_ns, f->host_total);
    g->host_self_ns = pr_sat_add_i64(g->host_self_ns, f->host_self);
    g->dev_total_ns = pr_sat_add_i64(g->dev_total_ns, f->dev_total);
    g->dev_self_ns = pr_sat_add_i64(g->dev_self_ns, f->dev_self);
    g->tc_total_ns = pr_sat_add_i64(g->tc_total_ns, f->tc_total);
    g->tc_self_ns = pr_sat_add_i64(g->tc_self_ns, f->tc_self);
    add_measured(g, t, tree, n);
    g->host_copy_ns = pr_sat_add_i64(g->host_copy_ns, f->copy_ns);
    if (!isfinite(f->copy_bytes) || g->host_copy_bytes < 0)
        g->host_copy_bytes = -1;
    else
        g->host_copy_bytes += f->copy_bytes;
    g->host_copy_total_ns =
        pr_sat_add_i64(g->host_copy_total_ns, f->copy_total_ns);
    g->host_copy_total_bytes += f->copy_total_bytes; /* NaN is sticky */
    return PR_OK;
}

/* Tensor-core total of the node the walk w just returned (5.2): its own
 * (tc_self) and its children's, which the walk returned just before it
 * and summed into below[level + 1].  Not stored in the tree (8 bytes a
 * node). */
static int64_t
tc_total(const struct pr_tree_walk *w, int64_t tc_self, int64_t *below)
{
    int64_t sum = pr_sat_add_i64(below[w->level + 1], tc_self);

    below[w->level + 1] = 0;
    below[w->level] = pr_sat_add_i64(below[w->level], sum);
    return sum;
}

/* The host copies of the node the walk w just returned and of its
 * descendants, summed as tc_total sums (below_ns / below_b by level). */
static void
copy_total(const struct pr_tree_walk *w, struct figs *f, int64_t *below_ns,
           double *below_b)
{
    f->copy_total_ns = pr_sat_add_i64(below_ns[w->level + 1], f->copy_ns);
    f->copy_total_bytes = below_b[w->level + 1] + f->copy_bytes;
    below_ns[w->level + 1] = 0;
    below_b[w->level + 1] = 0.0;
    below_ns[w->level] = pr_sat_add_i64(below_ns[w->level], f->copy_total_ns);
    below_b[w->level] += f->copy_total_bytes;
}

static enum pr_status
collect(const struct pr_trace *t, const struct pr_tree *tree,
        struct table *by_name, struct table *by_shape, struct pr_error *err)
{
    struct pr_tree_walk w;
    uint32_t ni;
    int64_t *below = calloc(tree->depth + 2, sizeof(*below));
    int64_t *below_ns = calloc(tree->depth + 2, sizeof(*below_ns));
    double *below_b = calloc(tree->depth + 2, sizeof(*below_b));
    int have = below != NULL && below_ns != NULL && below_b != NULL;
    enum pr_status st =
        !have ? pr_error_set(err, PR_E_NOMEM, "out of memory (ops)")
              : pr_tree_walk_init(&w, tree, 0, err);

    while (st == PR_OK && (ni = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
        const struct pr_tree_node *n = &tree->nodes[ni];
        struct figs f;
        struct pr_op_info ob;
        int64_t shape_key;
        uint32_t name;

        f.tc_self = pr_tree_tc_self(t, tree, n);
        f.tc_total = tc_total(&w, f.tc_self, below);
        node_copies(t, tree, n, &f.copy_ns, &f.copy_bytes);
        copy_total(&w, &f, below_ns, below_b);
        if (!n->is_operator)
            continue;
        f.host_total = pr_tree_host_total(t, n);
        f.host_self = pr_tree_host_self(t, tree, n);
        f.dev_total = n->device_total_ns;
        f.dev_self = pr_tree_device_self(t, tree, n);
        name = pr_tree_name(t, tree, n);
        shape_key =
            (int64_t)(((uint64_t)name << 32) |
                      shape_id(t, pr_trace_op(t, &t->events[n->ev], &ob)));
        if (add_member(by_name, name, t, tree, n, &f, err) != PR_OK ||
            add_member(by_shape, shape_key, t, tree, n, &f, err) != PR_OK)
            st = PR_E_NOMEM;
    }
    if (have)
        pr_tree_walk_free(&w);
    free(below);
    free(below_ns);
    free(below_b);
    return st;
}

/* ---- rows of a table without timestamps (op_stats.h) */

/* A time of a table row: 0 and a flag where the table lacks it. */
static int64_t
stat_ns(int64_t v, unsigned flag, unsigned *unknown)
{
    if (v != PR_OP_STAT_UNKNOWN)
        return v;
    *unknown |= flag;
    return 0;
}

static struct pr_op_row *
stat_group(struct table *tb, int64_t key, const struct pr_trace *t,
           const struct pr_op_stat *s, struct pr_error *err)
{
    size_t gi = pr_idmap_get(&tb->index, key);
    struct pr_op_row *g;

    if (gi != PR_NONE)
        return &tb->v[gi];
    gi = tb->n;
    if (pr_grow((void **)&tb->v, &tb->cap, tb->n + 1, sizeof(*g)) ||
        pr_idmap_put(&tb->index, key, gi, err)) {
        pr_error_set(err, PR_E_NOMEM, "out of memory (ops)");
        return NULL;
    }
    g = &tb->v[tb->n++];
    memset(g, 0, sizeof(*g));
    g->name = pr_trace_str(t, s->name);
    g->shapes = s->shapes != PR_STR_NONE ? pr_trace_str(t, s->shapes) : "[]";
    g->tc_eligible = pr_tc_op_eligible(g->name);
    return g;
}

static enum pr_status
add_stat(struct table *tb, int64_t key, const struct pr_trace *t,
         const struct pr_op_stat *s, struct pr_error *err)
{
    struct pr_op_row *g = stat_group(tb, key, t, s, err);
    unsigned *u;

    if (g == NULL)
        return PR_E_NOMEM;
    u = &g->unknown;
    g->calls += s->calls > 0 ? (size_t)s->calls : 0;
    g->host_total_ns = pr_sat_add_i64(
        g->host_total_ns, stat_ns(s->host_total_ns, PR_OP_ROW_NO_HOST, u));
    g->host_self_ns = pr_sat_add_i64(
        g->host_self_ns, stat_ns(s->host_self_ns, PR_OP_ROW_NO_HOST, u));
    g->dev_total_ns = pr_sat_add_i64(
        g->dev_total_ns, stat_ns(s->dev_total_ns, PR_OP_ROW_NO_DEVICE, u));
    g->dev_self_ns = pr_sat_add_i64(
        g->dev_self_ns, stat_ns(s->dev_self_ns, PR_OP_ROW_NO_DEVICE, u));
    g->tc_total_ns = pr_sat_add_i64(
        g->tc_total_ns, stat_ns(s->cube_total_ns, PR_OP_ROW_NO_TC, u));
    g->tc_self_ns = pr_sat_add_i64(
        g->tc_self_ns, stat_ns(s->cube_self_ns, PR_OP_ROW_NO_TC, u));
    return PR_OK;
}

/* The producer's operator table: its calls when it has them, else its
 * operator types.  *source names the file, or stays NULL. */
static enum pr_status
collect_stats(const struct pr_trace *t, struct table *by_name,
              struct table *by_shape, const char **source, struct pr_error *err)
{
    enum pr_op_stat_kind kind = PR_OP_STAT_CALLS;
    size_t i, n;
    const struct pr_op_stat *v = pr_op_stats_get(t, kind, &n);

    if (n == 0) {
        kind = PR_OP_STAT_TYPES;
        v = pr_op_stats_get(t, kind, &n);
    }
    if (n == 0)
        return PR_OK;
    *source =
        kind == PR_OP_STAT_CALLS ? "operator_details.csv" : "op_statistic.csv";
    for (i = 0; i < n; i++) {
        int64_t shape_key = (int64_t)(((uint64_t)v[i].name << 32) |
                                      (v[i].shapes != PR_STR_NONE
                                           ? v[i].shapes
                                           : pr_strtab_find(t->strs, "[]", 2)));

        if (add_stat(by_name, v[i].name, t, &v[i], err) != PR_OK ||
            add_stat(by_shape, shape_key, t, &v[i], err) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

static int
cmp_group(const void *a, const void *b)
{
    const struct pr_op_row *x = a, *y = b;
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

static double
us_or_null(int64_t ns, unsigned unknown)
{
    return unknown ? NAN : (double)ns / 1000.0;
}

/* A row of runs[].operators_by_shape[] (and, without its shapes, of
 * runs[].operators[]).  The roofline columns are the pass's figures, or
 * the unknowns it starts from; flops_source, roofline_mark and dtype only
 * where the pass set them.  host_known 0: the producer recorded no host
 * times (device-only MindSpore and msprof runs, whose operators are made
 * from their tasks), so the host columns are null, not 0; a row from a
 * table without them (ops.h) says so itself. */
static struct pr_row_operator_shape
fill_row(const struct pr_op_row *g, int host_known)
{
    const struct pr_op_rate *r = &g->rate;
    unsigned no_dev = g->unknown & PR_OP_ROW_NO_DEVICE;
    unsigned no_tc = g->unknown & PR_OP_ROW_NO_TC;
    struct pr_row_operator_shape row;

    host_known = host_known && !(g->unknown & PR_OP_ROW_NO_HOST);
    row = (struct pr_row_operator_shape){
        .name = g->name,
        .input_shapes = g->shapes,
        .input_types = g->types,
        .calls = (int64_t)g->calls,
        .device_self_us = us_or_null(g->dev_self_ns, no_dev),
        .device_total_us = us_or_null(g->dev_total_ns, no_dev),
        .host_self_us = us_or_null(g->host_self_ns, !host_known),
        .host_total_us = us_or_null(g->host_total_ns, !host_known),
        .host_copy_us = us_or_null(g->host_copy_ns, no_dev),
        .host_copy_bytes =
            no_dev || g->host_copy_bytes < 0 ? NAN : g->host_copy_bytes,
        .tc_eligible = g->tc_eligible != 0,
        .tc_self_pct = no_tc ? NAN : pr_ops_tc_self_pct(g),
        .tc_total_pct = no_tc ? NAN : pr_ops_tc_total_pct(g),
        .flops = r->set ? r->flops : NAN,
        .bytes = r->set ? r->bytes : NAN,
        .achieved_tflops = r->set ? r->tflops : NAN,
        .achieved_gbps = r->set ? r->gbps : NAN,
        .arithmetic_intensity = r->set ? r->ai : NAN,
        .bound = r->set ? r->bound : "unknown",
        .roofline_pct = r->set ? r->pct : NAN,
        .flops_source = r->flops_src,
        .roofline_mark = r->mark,
        .dtype = r->dtype,
    };
    if (!r->set) {
        enum pr_rows_object ro = PR_RO_RUNS_OPERATORS_BY_SHAPE;
        pr_rows_omit(ro, &row, PR_SR_RUNS_OPERATORS_BY_SHAPE_PR_K_FLOPS_SOURCE);
        pr_rows_omit(ro, &row,
                     PR_SR_RUNS_OPERATORS_BY_SHAPE_PR_K_ROOFLINE_MARK);
        pr_rows_omit(ro, &row, PR_SR_RUNS_OPERATORS_BY_SHAPE_PR_K_DTYPE);
    }
    return row;
}

/* The same row without its shapes. */
static struct pr_row_operator
name_row(const struct pr_row_operator_shape *s)
{
    struct pr_row_operator o = {
        .name = s->name,
        .calls = s->calls,
        .device_self_us = s->device_self_us,
        .device_total_us = s->device_total_us,
        .host_self_us = s->host_self_us,
        .host_total_us = s->host_total_us,
        .host_copy_us = s->host_copy_us,
        .host_copy_bytes = s->host_copy_bytes,
        .tc_eligible = s->tc_eligible,
        .tc_self_pct = s->tc_self_pct,
        .tc_total_pct = s->tc_total_pct,
        .flops = s->flops,
        .bytes = s->bytes,
        .achieved_tflops = s->achieved_tflops,
        .achieved_gbps = s->achieved_gbps,
        .arithmetic_intensity = s->arithmetic_intensity,
        .bound = s->bound,
        .roofline_pct = s->roofline_pct,
        .flops_source = s->flops_source,
        .roofline_mark = s->roofline_mark,
        .dtype = s->dtype,
    };
    enum pr_rows_object ro = PR_RO_RUNS_OPERATORS;
    enum pr_rows_object rs = PR_RO_RUNS_OPERATORS_BY_SHAPE;

    if (!pr_rows_has(rs, s, PR_SR_RUNS_OPERATORS_BY_SHAPE_PR_K_FLOPS_SOURCE))
        pr_rows_omit(ro, &o, PR_SR_RUNS_OPERATORS_PR_K_FLOPS_SOURCE);
    if (!pr_rows_has(rs, s, PR_SR_RUNS_OPERATORS_BY_SHAPE_PR_K_ROOFLINE_MARK))
        pr_rows_omit(ro, &o, PR_SR_RUNS_OPERATORS_PR_K_ROOFLINE_MARK);
    if (!pr_rows_has(rs, s, PR_SR_RUNS_OPERATORS_BY_SHAPE_PR_K_DTYPE))
        pr_rows_omit(ro, &o, PR_SR_RUNS_OPERATORS_PR_K_DTYPE);
    return o;
}

static void
emit_row(cJSON *arr, const struct pr_op_row *g, int with_shapes, int host_known,
         int *ok)
{
    struct pr_row_operator_shape s = fill_row(g, host_known);
    struct pr_row_operator n;
    cJSON *o;

    if (with_shapes)
        o = pr_rows_row(PR_RO_RUNS_OPERATORS_BY_SHAPE, &s);
    else {
        n = name_row(&s);
        o = pr_rows_row(PR_RO_RUNS_OPERATORS, &n);
    }
    if (o == NULL || !cJSON_AddItemToArray(arr, o)) {
        cJSON_Delete(o);
        *ok = 0;
        return;
    }
    /* no schema row: the summary ordering puts it last, after dtype,
       as it always stood once ordered */
    if (pr_ops_measured(g))
        pr_emit_num(o, "measured_flops", g->measured_flops, ok);
}

/* Whether any operator of the run took host time. */
static int
host_known(const struct pr_op_rows *rows)
{
    for (size_t i = 0; i < rows->n; i++)
        if (rows->v[i].host_total_ns > 0)
            return 1;
    return 0;
}

static cJSON *
to_json(const struct pr_op_rows *rows, int with_shapes, int host)
{
    cJSON *arr = cJSON_CreateArray();
    int ok = arr != NULL;
    size_t i;

    for (i = 0; i < rows->n && ok; i++)
        emit_row(arr, &rows->v[i], with_shapes, host, &ok);
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

double
pr_ops_tc_self_pct(const struct pr_op_row *r)
{
    return pct(r->tc_self_ns, r->dev_self_ns);
}

double
pr_ops_tc_total_pct(const struct pr_op_row *r)
{
    return pct(r->tc_total_ns, r->dev_total_ns);
}

int
pr_ops_measured(const struct pr_op_row *r)
{
    return r->n_measured > 0 && r->n_unmeasured == 0;
}

/* Sorted, and handed over without the index. */
static void
take(struct table *tb, struct pr_op_rows *out)
{
    if (tb->n > 1)
        qsort(tb->v, tb->n, sizeof(*tb->v), cmp_group);
    out->v = tb->v;
    out->n = tb->n;
    tb->v = NULL;
    tb->n = tb->cap = 0;
}

enum pr_status
pr_ops_collect(const struct pr_trace *t, const struct pr_tree *tree,
               struct pr_ops *out, struct pr_error *err)
{
    struct table names = {0}, shapes = {0};
    enum pr_status st = collect(t, tree, &names, &shapes, err);

    memset(out, 0, sizeof(*out));
    out->source = "timeline";
    if (st == PR_OK && names.n == 0)
        st = collect_stats(t, &names, &shapes, &out->source, err);
    if (st == PR_OK) {
        take(&names, &out->by_name);
        take(&shapes, &out->by_shape);
    }
    table_free(&names);
    table_free(&shapes);
    return st;
}

void
pr_ops_free(struct pr_ops *ops)
{
    free(ops->by_name.v);
    free(ops->by_shape.v);
    memset(ops, 0, sizeof(*ops));
}

enum pr_status
pr_ops_emit(const struct pr_ops *ops, cJSON **by_name, cJSON **by_shape,
            struct pr_error *err)
{
    int host = host_known(&ops->by_name);

    *by_name = to_json(&ops->by_name, 0, host);
    *by_shape = to_json(&ops->by_shape, 1, host);
    if (*by_name == NULL || *by_shape == NULL) {
        cJSON_Delete(*by_name);
        cJSON_Delete(*by_shape);
        *by_name = *by_shape = NULL;
        return pr_error_set(err, PR_E_NOMEM, "out of memory (ops)");
    }
    return PR_OK;
}

/* ---- op_statistic.csv as it is: operator types */

static int
cmp_type(const void *a, const void *b)
{
    const struct pr_op_stat *const *x = a, *const *y = b;

    if ((*x)->dev_total_ns != (*y)->dev_total_ns)
        return (*x)->dev_total_ns > (*y)->dev_total_ns ? -1 : 1;
    if ((*x)->name != (*y)->name)
        return (*x)->name < (*y)->name ? -1 : 1;
    return (*x)->core < (*y)->core ? -1 : (*x)->core > (*y)->core;
}

/* ns in us, NAN where unknown (null in the summary). */
static double
us_or_nan(int64_t ns)
{
    return ns == PR_OP_STAT_UNKNOWN ? NAN : (double)ns / 1000.0;
}

static void
emit_type(cJSON *arr, const struct pr_trace *t, const struct pr_op_stat *s,
          int *ok)
{
    int known = s->dev_total_ns != PR_OP_STAT_UNKNOWN && s->calls > 0;
    struct pr_row_operator_type row = {
        .name = pr_trace_str(t, s->name),
        .core_type = s->core != PR_STR_NONE ? pr_trace_str(t, s->core) : NULL,
        .calls = (int64_t)s->calls,
        .total_us = us_or_nan(s->dev_total_ns),
        .mean_us =
            known ? (double)s->dev_total_ns / 1e3 / (double)s->calls : NAN,
        .min_us = us_or_nan(s->min_ns),
        .max_us = us_or_nan(s->max_ns),
        .ratio_pct = s->ratio_pct,
    };

    if (*ok)
        *ok = arr != NULL &&
              pr_rows_write(arr, PR_RO_RUNS_OPERATOR_TYPES, &row, 1);
}

static cJSON *
types_json(const struct pr_trace *t, const struct pr_op_stat *v, size_t n)
{
    const struct pr_op_stat **by = malloc((n ? n : 1) * sizeof(*by));
    cJSON *arr = by != NULL ? cJSON_CreateArray() : NULL;
    int ok = arr != NULL;
    size_t i;

    for (i = 0; ok && i < n; i++)
        by[i] = &v[i];
    if (ok && n > 1)
        qsort(by, n, sizeof(*by), cmp_type);
    for (i = 0; ok && i < n; i++)
        emit_type(arr, t, by[i], &ok);
    free(by);
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

enum pr_status
pr_ops_emit_tables(const struct pr_trace *t, const struct pr_ops *ops,
                   cJSON *run, struct pr_error *err)
{
    size_t n;
    const struct pr_op_stat *v = pr_op_stats_get(t, PR_OP_STAT_TYPES, &n);
    int ok = 1;

    if (ops->source == NULL || strcmp(ops->source, "timeline") == 0)
        return PR_OK;
    pr_emit_str(run, PR_K_OPERATORS_SOURCE, ops->source, &ok);
    if (ok && n > 0) {
        cJSON *arr = types_json(t, v, n);

        ok =
            arr != NULL && cJSON_AddItemToObject(run, PR_K_OPERATOR_TYPES, arr);
        if (!ok)
            cJSON_Delete(arr);
    }
    return ok ? PR_OK : pr_error_set(err, PR_E_NOMEM, "out of memory (ops)");
}

/* The device tasks of node n's own runtimes, one a call: it->i, it->j
 * start at 0; NULL after the last. */
struct own_it {
    size_t i, j;
};

static const struct pr_event *
next_own(const struct pr_trace *t, const struct pr_tree *tree,
         const struct pr_tree_node *n, struct own_it *it)
{
    for (; it->i < pr_tree_n_rts(tree, n); it->i++, it->j = 0) {
        const struct pr_tree_rt *r = &tree->rts[pr_tree_rts(tree, n)[it->i]];

        while (it->j < r->n_dev) {
            const struct pr_event *e =
                &t->events[tree->devs[tree->rt_devs[r->dev_first + it->j++]]
                               .ev];

            if (e->kind == PR_KIND_DEVICE_TASK)
                return e;
        }
    }
    return NULL;
}

/* Kernel time of node n's own runtimes; *tc_ns: of it on tensor cores
 * by the kernel table (NULL: not asked). */
static int64_t
own_kernel_ns(const struct pr_trace *t, const struct pr_tree *tree,
              const struct pr_tree_node *n, struct pr_names *nc, int64_t *tc_ns)
{
    struct own_it it = {0, 0};
    const struct pr_event *e;
    int64_t sum = 0;

    for (e = next_own(t, tree, n, &it); e != NULL;
         e = next_own(t, tree, n, &it)) {
        sum = pr_sat_add_i64(sum, e->dur_ns);
        if (tc_ns != NULL && (pr_names_get(nc, e->name) & PR_NAME_TC))
            *tc_ns = pr_sat_add_i64(*tc_ns, e->dur_ns);
    }
    return sum;
}

unsigned
pr_ops_kernel_by_name(struct pr_names *nc, const struct pr_tree *tree,
                      uint32_t node, uint32_t kernel_name)
{
    unsigned bits = pr_names_get(nc, kernel_name) &
                    (PR_NAME_GEMM_FP32_SIMT | PR_NAME_GEMM_MATRIX);
    uint32_t ni = node;
    size_t hops = 0;

    if (bits == 0 || node >= tree->n_nodes)
        return 0;
    /* a 10.2 operator at or above it already counts it; one eligible
       only by 5.2's propagation (a CompiledFunction that also ran a
       tensor-core kernel) does not say this kernel used them.  The walk
       is bounded by the tree's depth */
    for (; ni < tree->n_nodes && hops <= tree->depth; hops++) {
        const struct pr_tree_node *n = &tree->nodes[ni];

        if (n->ev != PR_TREE_NONE &&
            (pr_names_get(nc, nc->t->events[n->ev].name) & PR_NAME_TC_OP))
            return 0;
        ni = n->parent;
    }
    return bits;
}

/* Remember op (a string id) among the top launchers of the kernels
 * eligible by name. */
static void
note_top(struct pr_tc_share *s, uint32_t op, int64_t ns)
{
    size_t i, low = 0;

    for (i = 0; i < PR_TC_SHARE_TOP; i++) {
        if (s->top_ns[i] > 0 && s->top_op[i] == op) {
            s->top_ns[i] = pr_sat_add_i64(s->top_ns[i], ns);
            return;
        }
        if (s->top_ns[i] < s->top_ns[low])
            low = i;
    }
    if (ns > s->top_ns[low]) {
        s->top_op[low] = op;
        s->top_ns[low] = ns;
    }
}

/* Node ni's own kernels that are eligible by their names: their time
 * into s (ns sums) and the longest fp32 CUDA-core one's name; counted:
 * the node is bottom-eligible, its kernels already in 10.5's share. */
static void
by_name(const struct pr_trace *t, const struct pr_tree *tree,
        struct pr_names *nc, uint32_t ni, int counted, struct pr_tc_share *s,
        int64_t *longest)
{
    const struct pr_tree_node *n = &tree->nodes[ni];
    struct own_it it = {0, 0};
    const struct pr_event *e;
    int64_t simt = 0;

    for (e = next_own(t, tree, n, &it); e != NULL;
         e = next_own(t, tree, n, &it)) {
        unsigned b = pr_ops_kernel_by_name(nc, tree, ni, e->name);

        if ((b & PR_NAME_GEMM_MATRIX) && !counted)
            s->matrix_ns = pr_sat_add_i64(s->matrix_ns, e->dur_ns);
        if (!(b & PR_NAME_GEMM_FP32_SIMT))
            continue;
        simt = pr_sat_add_i64(simt, e->dur_ns);
        if (!counted && e->dur_ns > *longest) {
            *longest = e->dur_ns;
            s->kernel = e->name;
        }
    }
    s->simt_ns = pr_sat_add_i64(s->simt_ns, simt);
    if (!counted)
        s->simt_new_ns = pr_sat_add_i64(s->simt_new_ns, simt);
    /* the launchers and the example kernel are those of the uncounted
       ones only: the text names what no eligible operator launched */
    if (!counted && simt > 0 && n->ev != PR_TREE_NONE)
        note_top(s, t->events[n->ev].name, simt);
}

/* The top launchers by time, then name: a total order. */
static void
sort_top(const struct pr_trace *t, struct pr_tc_share *s)
{
    size_t i, k;

    for (i = 1; i < PR_TC_SHARE_TOP; i++)
        for (k = i; k > 0; k--) {
            int64_t a = s->top_ns[k - 1], b = s->top_ns[k];
            uint32_t op;

            if (a > b ||
                (a == b &&
                 (b == 0 || strcmp(pr_trace_str(t, s->top_op[k - 1]),
                                   pr_trace_str(t, s->top_op[k])) <= 0)))
                break;
            op = s->top_op[k];
            s->top_op[k] = s->top_op[k - 1];
            s->top_op[k - 1] = op;
            s->top_ns[k] = a;
            s->top_ns[k - 1] = b;
        }
}

enum pr_status
pr_ops_tc_share(const struct pr_trace *t, const struct pr_tree *tree,
                struct pr_tc_share *s, struct pr_error *err)
{
    unsigned char *below = calloc(tree->n_nodes ? tree->n_nodes : 1, 1);
    int64_t longest = 0;
    struct pr_tree_walk w;
    struct pr_names nc;
    uint32_t ni;
    size_t k;

    memset(s, 0, sizeof(*s));
    s->kernel = PR_STR_NONE;
    if (below == NULL) {
        return pr_error_set(err, PR_E_NOMEM, "out of memory (eligible time)");
    } else if (pr_tree_walk_init(&w, tree, 0, err) != PR_OK) {
        free(below);
        return err->code;
    }
    pr_names_init(&nc, t);
    /* Post-order: bit 1 = bottom-eligible, bit 2 = one below it is. */
    while ((ni = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
        const struct pr_tree_node *n = &tree->nodes[ni];
        int has_below = 0;

        for (k = 0; k < pr_tree_n_kids(tree, n); k++)
            has_below |= below[pr_tree_kids(tree, n)[k]] != 0;
        below[ni] = (unsigned char)(has_below ? 2 : 0);
        if (n->tc_eligible && !has_below) {
            below[ni] = 1;
            s->eligible_ns = pr_sat_add_i64(
                s->eligible_ns, own_kernel_ns(t, tree, n, &nc, &s->tc_ns));
        }
        if (!n->is_operator)
            continue;
        s->op_ns =
            pr_sat_add_i64(s->op_ns, own_kernel_ns(t, tree, n, &nc, NULL));
        by_name(t, tree, &nc, ni, below[ni] == 1, s, &longest);
    }
    pr_names_free(&nc);
    pr_tree_walk_free(&w);
    free(below);
    sort_top(t, s);
    return PR_OK;
}

enum pr_status
pr_ops_tc_eligible_ratio(const struct pr_trace *t, const struct pr_tree *tree,
                         double *ratio, struct pr_error *err)
{
    struct pr_tc_share s;
    enum pr_status st = pr_ops_tc_share(t, tree, &s, err);

    *ratio = st == PR_OK && s.op_ns > 0
                 ? (double)s.eligible_ns / (double)s.op_ns
                 : 0.0;
    return st;
}
