/* kernels.c - the kernel table (spec 11.1): all Kernel events grouped by
 * name.  The launching operator comes from the op tree's runtime links;
 * everything else is read from the events themselves. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/kernels.h"

#include "internal.h"

struct kgroup {
    const char *name; /* borrowed from the trace */
    const char *op;   /* launching op with most time; NULL */
    int64_t op_ns;    /* that op's share */
    size_t calls;
    int64_t total_ns, min_ns, max_ns;
    double bps_x_ns, occ_x_ns; /* duration-weighted sums */
};

struct ktable {
    struct kgroup *v; /* owned */
    size_t n, cap;
    struct pr_idmap index; /* kernel name id -> group */
    int has_bps, has_occ;  /* 9: some kernel carries the arg */
};

static void
ktable_free(struct ktable *kt)
{
    free(kt->v);
    pr_idmap_free(&kt->index);
}

static struct kgroup *
group_of(struct ktable *kt, const struct pr_trace *t, uint32_t name,
         struct pr_error *err)
{
    size_t gi = pr_idmap_get(&kt->index, name);
    struct kgroup *g;

    if (gi != PR_NONE)
        return &kt->v[gi];
    if (pr_grow((void **)&kt->v, &kt->cap, kt->n + 1, sizeof(*g)) ||
        pr_idmap_put(&kt->index, name, kt->n, err)) {
        pr_error_set(err, PR_E_NOMEM, "out of memory (kernels)");
        return NULL;
    }
    g = &kt->v[kt->n++];
    memset(g, 0, sizeof(*g));
    g->name = pr_trace_str(t, name);
    return g;
}

/* Missing (or non-finite) per-kernel values weigh in as 0 (11.1). */
static void
add_kernel(struct ktable *kt, struct kgroup *g, const struct pr_event *e,
           const struct pr_gpu_info *gi)
{
    double dur = (double)e->dur_ns;

    if (g->calls == 0 || e->dur_ns < g->min_ns)
        g->min_ns = e->dur_ns;
    if (g->calls == 0 || e->dur_ns > g->max_ns)
        g->max_ns = e->dur_ns;
    g->calls++;
    g->total_ns += e->dur_ns;
    if (gi == NULL)
        return;
    if (isfinite(gi->blocks_per_sm))
        g->bps_x_ns += gi->blocks_per_sm * dur;
    if (isfinite(gi->occupancy_pct))
        g->occ_x_ns += gi->occupancy_pct * dur;
    kt->has_bps |=
        gi->device >= 0 && isfinite(gi->blocks_per_sm) && gi->blocks_per_sm > 0;
    kt->has_occ |= gi->device >= 0 && gi->occupancy_pct >= 0;
}

static enum pr_status
collect(const struct pr_trace *t, struct ktable *kt, struct pr_error *err)
{
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        struct kgroup *g;

        if (e->kind != PR_K_KERNEL)
            continue;
        g = group_of(kt, t, e->name, err);
        if (g == NULL)
            return PR_E_NOMEM;
        add_kernel(kt, g, e, pr_trace_gpu(t, e));
    }
    return PR_OK;
}

struct pair {
    uint32_t kernel, op; /* string ids */
    int64_t ns;
};

struct pairs {
    struct pair *v; /* owned */
    size_t n, cap;
    struct pr_idmap index; /* (kernel << 32 | op) -> pair */
};

static enum pr_status
add_pair(struct pairs *p, uint32_t kernel, uint32_t op, int64_t ns,
         struct pr_error *err)
{
    int64_t key = (int64_t)(((uint64_t)kernel << 32) | op);
    size_t i = pr_idmap_get(&p->index, key);

    if (i == PR_NONE) {
        i = p->n;
        if (pr_grow((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v)) ||
            pr_idmap_put(&p->index, key, i, err))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (kernels)");
        p->v[p->n].kernel = kernel;
        p->v[p->n].op = op;
        p->v[p->n++].ns = 0;
    }
    p->v[i].ns += ns;
    return PR_OK;
}

/* The launching node of each kernel (tree.c, 5.2); kernels under a thread
 * root (zero-id runtimes, staled kernels) and lost runtimes have none. */
static enum pr_status
attribute(const struct pr_trace *t, const struct pr_tree *tree,
          struct ktable *kt, struct pr_error *err)
{
    struct pairs p = {0};
    enum pr_status st = PR_OK;
    size_t i;

    for (i = 0; i < tree->n_devs && st == PR_OK; i++) {
        const struct pr_tree_dev *d = &tree->devs[i];
        const struct pr_event *e = &t->events[d->ev];

        if (e->kind != PR_K_KERNEL || d->node == PR_TREE_NONE ||
            tree->nodes[d->node].type == PR_N_ROOT)
            continue;
        st = add_pair(&p, e->name, tree->nodes[d->node].name, e->dur_ns, err);
    }
    for (i = 0; i < p.n && st == PR_OK; i++) {
        struct kgroup *g = &kt->v[pr_idmap_get(&kt->index, p.v[i].kernel)];
        const char *op = pr_trace_str(t, p.v[i].op);

        if (g->op == NULL || p.v[i].ns > g->op_ns ||
            (p.v[i].ns == g->op_ns && strcmp(op, g->op) < 0)) {
            g->op = op;
            g->op_ns = p.v[i].ns;
        }
    }
    free(p.v);
    pr_idmap_free(&p.index);
    return st;
}

static int
cmp_kgroup(const void *a, const void *b)
{
    const struct kgroup *x = a, *y = b;

    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void
emit_kgroup(cJSON *arr, const struct ktable *kt, const struct kgroup *g,
            int *ok)
{
    cJSON *o = pr_emit_obj(arr, NULL, ok);
    double total = (double)g->total_ns;

    pr_emit_str(o, "name", g->name, ok);
    pr_emit_str(o, "operator", g->op, ok);
    pr_emit_num(o, "calls", (double)g->calls, ok);
    pr_emit_us(o, "total_us", g->total_ns, ok);
    pr_emit_num(o, "mean_us", total / 1000.0 / (double)g->calls, ok);
    pr_emit_us(o, "min_us", g->min_ns, ok);
    pr_emit_us(o, "max_us", g->max_ns, ok);
    if (kt->has_bps)
        pr_emit_num(o, "mean_blocks_per_sm",
                    total > 0 ? g->bps_x_ns / total : 0.0, ok);
    else
        pr_emit_null(o, "mean_blocks_per_sm", ok);
    if (kt->has_occ)
        pr_emit_num(o, "mean_est_achieved_occupancy_pct",
                    total > 0 ? g->occ_x_ns / total : 0.0, ok);
    else
        pr_emit_null(o, "mean_est_achieved_occupancy_pct", ok);
    pr_emit_bool(o, "tensor_cores_used", pr_tc_kernel_uses(g->name), ok);
}

enum pr_status
pr_kernels_build(const struct pr_trace *t, const struct pr_tree *tree,
                 cJSON **out, struct pr_error *err)
{
    struct ktable kt = {0};
    enum pr_status st = collect(t, &kt, err);
    int ok = 1;
    size_t i;

    *out = NULL;
    if (st == PR_OK)
        st = attribute(t, tree, &kt, err);
    if (st == PR_OK) {
        if (kt.n > 1)
            qsort(kt.v, kt.n, sizeof(*kt.v), cmp_kgroup);
        *out = cJSON_CreateArray();
        ok = *out != NULL;
        for (i = 0; i < kt.n && ok; i++)
            emit_kgroup(*out, &kt, &kt.v[i], &ok);
        if (!ok) {
            cJSON_Delete(*out);
            *out = NULL;
            st = pr_error_set(err, PR_E_NOMEM, "out of memory (kernels)");
        }
    }
    ktable_free(&kt);
    return st;
}

double
pr_kernels_tc_ratio(const struct pr_trace *t)
{
    int64_t all = 0, tc = 0;
    size_t i;
    int any = 0;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind != PR_K_KERNEL)
            continue;
        any = 1;
        all += e->dur_ns;
        if (pr_tc_kernel_uses(pr_trace_str(t, e->name)))
            tc += e->dur_ns;
    }
    if (!any)
        return NAN;
    return all > 0 ? (double)tc / (double)all : 0.0;
}
