/* memory.c - the memory view of spec/tb-plugin-semantics.md §12 over the
 * frozen trace and its op tree: attribution of [memory] records to the
 * deepest operator (12.2), the per-operator statistics (12.4), peaks and
 * curves (12.5, 12.6).  Writes only run["memory"]. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/keys.h"
#include "profreport/memory.h"
#include "profreport/phases.h"
#include "profreport/rows.h"

#include "../internal.h"

#define MAX_DEVICES 64
#define TOP_AT_PEAK 10

/* The 12.4 statistics of an operator name on a device. */
struct acc {
    int64_t self_inc, self_size, self_count;
    int64_t inc, size, count;
};

struct row {
    uint32_t name;
    int dev;
    int by_name; /* rows of records the producer names (named_acc) */
    int64_t calls;
    struct acc a;
};

struct mdev {
    char name[24];
    double peak_alloc;    /* NaN when the trace has no totals */
    double peak_reserved; /* NaN when none */
    int64_t peak_ts_ns;
    int64_t running, running_peak; /* Σ Bytes since the first record */
    int64_t running_peak_ts_ns;
    size_t peak_rec, running_peak_rec; /* memory record ordinal of each */
    /* The curve, downsampled as its points come (struct sampler): a
     * point per record was 24 bytes each, the pass's largest array. */
    double *t_us, *alloc, *reserved;
    size_t n_pts, cap_pts;
    size_t n_recs, n_totals; /* records; those with Total Allocated */
    size_t unattributed;     /* allocations outside any operator */
    size_t unmatched_frees;  /* releases of an address never allocated */
    size_t n_alloc, n_free;
};

struct mem {
    const struct pr_trace *t;
    const struct pr_tree *tree;
    struct pr_error *err;
    struct mdev dev[MAX_DEVICES];
    size_t n_dev;
    size_t unknown_device;  /* records of device type other than CPU/CUDA */
    int64_t start_ns;       /* profiler_start_ts (2.5) */
    int has_totals;         /* some record carries Total Allocated */
    uint32_t *rec_node;     /* per memory record: op node or PR_TREE_NONE */
    signed char *rec_dev;   /* per memory record: device or -1 */
    unsigned char *visited; /* a bit per node the 12.2 walk went through */
    /* The operators table as it fills: one row per operator name and
     * device, found by name * MAX_DEVICES + device.  Records add to rows
     * directly: per node and device records took 64 bytes for most op
     * nodes of a trace, the largest scratch of the analysis (issue #17),
     * while the table only ever sums them by name. */
    struct row *rows;
    size_t n_rows, cap_rows;
    struct pr_idmap row_of;
    struct acc skip; /* what non-operator ancestors add to: never read */
};

static int
dev_index(struct mem *m, const struct pr_mem_info *mi)
{
    char name[24];
    size_t i;

    if (mi->device_type == 0)
        snprintf(name, sizeof(name), "CPU");
    else if (mi->device_type == 1 || mi->device_type == 6) /* CUDA, HIP */
        snprintf(name, sizeof(name), "%s%d",
                 m->t->device_kind != PR_STR_NONE &&
                         strcmp(pr_trace_str(m->t, m->t->device_kind), "npu") ==
                             0
                     ? "NPU"
                     : "GPU",
                 (int)mi->device_id);
    else
        return -1;
    for (i = 0; i < m->n_dev; i++)
        if (strcmp(m->dev[i].name, name) == 0)
            return (int)i;
    if (m->n_dev == MAX_DEVICES)
        return -1;
    memset(&m->dev[m->n_dev], 0, sizeof(m->dev[0]));
    memcpy(m->dev[m->n_dev].name, name, sizeof(name));
    m->dev[m->n_dev].peak_alloc = NAN;
    m->dev[m->n_dev].peak_reserved = NAN;
    return (int)m->n_dev++;
}

/* Curve times count from the run's first event, like every other time of
 * the run (spec/summary-json.md), so the curve lines up with the steps. */
static int64_t
profiler_start(const struct pr_trace *t)
{
    return t->n_events > 0 ? t->events[0].ts_ns : 0;
}

/* The parent of node i, or PR_NONE: the tree's 32-bit PR_TREE_NONE is
 * not this file's size_t PR_NONE. */
static size_t
parent_of(const struct pr_tree *tr, size_t i)
{
    uint32_t p = tr->nodes[i].parent;

    return p == PR_TREE_NONE ? PR_NONE : p;
}

static void
node_bounds(const struct mem *m, size_t i, int64_t *s, int64_t *e)
{
    const struct pr_tree *tr = m->tree;
    const struct pr_tree_node *n = &tr->nodes[i];

    if (n->type != PR_N_ROOT) {
        *s = pr_tree_start(m->t, n);
        *e = pr_tree_end(m->t, n);
        return;
    }
    if (pr_tree_n_kids(tr, n) == 0) {
        *s = INT64_MAX; /* an empty root holds nothing */
        *e = INT64_MIN;
        return;
    }
    *s = pr_tree_start(m->t, &tr->nodes[pr_tree_kids(tr, n)[0]]);
    *e = pr_tree_end(
        m->t, &tr->nodes[pr_tree_kids(tr, n)[pr_tree_n_kids(tr, n) - 1]]);
}

/* Where a thread's 12.2 walk stands: the nodes from its root down to the
 * deepest one the last record fell in, each with the next child to try.
 * Records come in time order, so a node the walk has left is never
 * entered again: only the nodes on the path need a cursor, not every
 * node of the tree. */
struct frame {
    uint32_t node, kid;
};

struct path {
    struct frame *v; /* owned */
    size_t n, cap;
};

static void
visit(struct mem *m, size_t node)
{
    m->visited[node >> 3] |= (unsigned char)(1u << (node & 7));
}

static int
was_visited(const struct mem *m, size_t node)
{
    return (m->visited[node >> 3] >> (node & 7)) & 1;
}

/* Descend from the path's last node to the deepest child containing ts
 * (12.2).  PR_E_NOMEM when the path cannot grow. */
static enum pr_status
descend(struct mem *m, struct path *p, int64_t ts, size_t *deepest)
{
    const struct pr_tree *tr = m->tree;

    for (;;) {
        struct frame *f = &p->v[p->n - 1];
        const struct pr_tree_node *n = &tr->nodes[f->node];
        uint32_t k = f->kid, n_kids = pr_tree_n_kids(tr, n);
        size_t found = PR_NONE;

        while (k < n_kids) {
            const struct pr_tree_node *ch = &tr->nodes[pr_tree_kids(tr, n)[k]];
            if (pr_tree_start(m->t, ch) > ts)
                break;
            if (pr_tree_end(m->t, ch) <= ts) {
                k++;
                continue;
            }
            found = pr_tree_kids(tr, n)[k];
            break;
        }
        f->kid = k;
        if (found == PR_NONE) {
            *deepest = f->node;
            return PR_OK;
        }
        visit(m, found);
        if (pr_grow((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v)) != PR_OK)
            return pr_error_set(m->err, PR_E_NOMEM, "out of memory (memory)");
        p->v[p->n].node = (uint32_t)found;
        p->v[p->n++].kid = 0;
    }
}

/* Walk the path of one thread to ts: *node is the deepest node holding it
 * or PR_NONE (staled).  The path is emptied once ts is past the thread's
 * last node. */
static enum pr_status
locate(struct mem *m, struct path *p, int64_t ts, size_t *node)
{
    int64_t s, e;

    *node = PR_NONE;
    while (p->n > 0) {
        size_t c = p->v[p->n - 1].node;

        node_bounds(m, c, &s, &e);
        if (ts < s)
            return PR_OK; /* before the root's first child */
        if (ts < e)
            return descend(m, p, ts, node);
        /* left for good: go up to the parent, past the root to none */
        p->n = m->tree->nodes[c].type == PR_N_ROOT ? 0 : p->n - 1;
    }
    return PR_OK;
}

/* The row of operator name `name` on device dev, made on first use;
 * NULL on out-of-memory. */
static struct row *
row_for(struct mem *m, uint32_t name, int dev)
{
    int64_t key = (int64_t)name * MAX_DEVICES + dev;
    size_t j = pr_idmap_get(&m->row_of, key);

    if (j != PR_NONE)
        return &m->rows[j];
    if (pr_grow((void **)&m->rows, &m->cap_rows, m->n_rows + 1,
                sizeof(*m->rows)) != PR_OK ||
        pr_idmap_put(&m->row_of, key, m->n_rows, m->err) != PR_OK)
        return NULL;
    j = m->n_rows++;
    memset(&m->rows[j], 0, sizeof(m->rows[j]));
    m->rows[j].name = name;
    m->rows[j].dev = dev;
    return &m->rows[j];
}

/* The row that node's records on device dev add to, made on first use;
 * &m->skip for a node that is not an operator (the table lists only
 * operators).  NULL on out-of-memory. */
static struct acc *
acc_for(struct mem *m, size_t node, int dev)
{
    const struct pr_tree_node *n = &m->tree->nodes[node];
    struct row *r;

    if (!n->is_operator)
        return &m->skip;
    r = row_for(m, pr_tree_name(m->t, m->tree, n), dev);
    return r != NULL ? &r->a : NULL;
}

/* A record that no operator of the trace encloses but that its producer
 * names by the operator that made it (msprof's NPU_OP_MEM, where the
 * database has no framework operators): its statistics go to that name's
 * row, self and total alike, as nothing is known of its callers; its
 * calls are its allocations (the table records no launches). */
static enum pr_status
attribute_named(struct mem *m, const struct pr_event *e, int dev, int64_t bytes)
{
    int is_alloc = bytes > 0;
    struct row *r = row_for(m, e->name, dev);

    if (r == NULL)
        return pr_error_set(m->err, PR_E_NOMEM, "out of memory (memory)");
    r->by_name = 1;
    r->a.self_inc = r->a.inc = pr_sat_add_i64(r->a.self_inc, bytes);
    r->a.self_size = r->a.size =
        pr_sat_add_i64(r->a.self_size, is_alloc ? bytes : 0);
    r->a.self_count = r->a.count = r->a.self_count + is_alloc;
    return PR_OK;
}

/* 1 when the record carries its operator's name, not "[memory]". */
static int
is_named(const struct pr_trace *t, const struct pr_event *e)
{
    const char *n = pr_trace_str(t, e->name);

    return n != NULL && n[0] != '\0' && strcmp(n, "[memory]") != 0;
}

/* Self values on the op node, totals on it and every ancestor (the 12.4
 * bottom-up sums, including same-name double counting). */
static enum pr_status
attribute(struct mem *m, size_t node, int dev, int64_t bytes)
{
    int is_alloc = bytes > 0;
    struct acc *a = acc_for(m, node, dev);
    size_t p;

    if (a == NULL)
        return pr_error_set(m->err, PR_E_NOMEM, "out of memory (memory)");
    /* bytes come from the trace: totals saturate rather than wrap */
    a->self_inc = pr_sat_add_i64(a->self_inc, bytes);
    a->self_size = pr_sat_add_i64(a->self_size, is_alloc ? bytes : 0);
    a->self_count += is_alloc;
    for (p = node; p != PR_NONE; p = parent_of(m->tree, p)) {
        if (m->tree->nodes[p].type == PR_N_ROOT)
            break;
        a = acc_for(m, p, dev);
        if (a == NULL)
            return pr_error_set(m->err, PR_E_NOMEM, "out of memory (memory)");
        a->inc = pr_sat_add_i64(a->inc, bytes);
        a->size = pr_sat_add_i64(a->size, is_alloc ? bytes : 0);
        a->count += is_alloc;
    }
    return PR_OK;
}

static size_t
root_of_tid(const struct pr_tree *tr, uint32_t tid)
{
    size_t r;

    for (r = 0; r < tr->n_roots; r++)
        if (tr->root_tids[r] == tid)
            return r;
    return PR_NONE;
}

static enum pr_status
add_point(struct mdev *d, double t_us, double alloc, double reserved)
{
    size_t need = d->n_pts + 1;
    size_t c1 = d->cap_pts, c2 = d->cap_pts;

    if (pr_grow((void **)&d->t_us, &c1, need, sizeof(double)) != PR_OK ||
        pr_grow((void **)&d->alloc, &c2, need, sizeof(double)) != PR_OK)
        return PR_E_NOMEM;
    c2 = d->cap_pts;
    if (pr_grow((void **)&d->reserved, &c2, need, sizeof(double)) != PR_OK)
        return PR_E_NOMEM;
    d->cap_pts = c1 < c2 ? c1 : c2;
    d->t_us[d->n_pts] = t_us;
    d->alloc[d->n_pts] = alloc;
    d->reserved[d->n_pts] = reserved;
    d->n_pts++;
    return PR_OK;
}

/* One curve point, with its place in the device's whole curve. */
struct pt {
    size_t i;
    double t_us, alloc, reserved;
};

/* pr_memory_downsample() over a curve whose length n is known before its
 * points come: per bucket, only its first point and the lowest and highest
 * so far are held, and the kept ones are added as each bucket ends (the
 * same points, in the same order, as downsampling the whole curve). */
struct sampler {
    size_t n, buckets; /* 0 buckets: n <= PR_MEMORY_MAX_POINTS, keep all */
    size_t b, hi;      /* the current bucket and where it ends */
    struct pt lo, min, max;
};

static void
sampler_init(struct sampler *sm, size_t n)
{
    memset(sm, 0, sizeof(*sm));
    sm->n = n;
    if (n > PR_MEMORY_MAX_POINTS)
        sm->buckets = (PR_MEMORY_MAX_POINTS - 1) / 3;
}

static enum pr_status
add_pt(struct mdev *d, const struct pt *p)
{
    return add_point(d, p->t_us, p->alloc, p->reserved);
}

/* The bucket's points, as pr_memory_downsample() lists them. */
static enum pr_status
flush_bucket(struct mdev *d, const struct sampler *sm)
{
    const struct pt *a = sm->min.i < sm->max.i ? &sm->min : &sm->max;
    const struct pt *c = sm->min.i < sm->max.i ? &sm->max : &sm->min;
    enum pr_status st = add_pt(d, &sm->lo);

    if (st == PR_OK && a->i != sm->lo.i)
        st = add_pt(d, a);
    if (st == PR_OK && c->i != a->i && c->i != sm->lo.i)
        st = add_pt(d, c);
    return st;
}

/* Point p (p->i counts from 0 up to sm->n - 1). */
static enum pr_status
sample(struct mdev *d, struct sampler *sm, const struct pt *p)
{
    enum pr_status st = PR_OK;

    if (sm->buckets == 0)
        return add_pt(d, p);
    if (p->i == sm->n - 1) /* the last point, after every bucket */
        return flush_bucket(d, sm) == PR_OK ? add_pt(d, p) : PR_E_NOMEM;
    if (p->i > 0 && p->i == sm->hi) {
        st = flush_bucket(d, sm);
        sm->b++;
    }
    if (p->i == 0 || p->i == sm->hi) {
        sm->hi = (sm->b + 1) * (sm->n - 1) / sm->buckets;
        sm->lo = sm->min = sm->max = *p;
        return st;
    }
    if (p->alloc < sm->min.alloc)
        sm->min = *p;
    if (p->alloc > sm->max.alloc)
        sm->max = *p;
    return st;
}

/* Peaks, running sums, unmatched frees and the curve point of a record. */
static enum pr_status
track(struct mem *m, struct pr_idmap *live, const struct pr_event *e,
      const struct pr_mem_info *mi, struct mdev *d, size_t rec)
{
    double alloc = mi->total_allocated, res = mi->total_reserved;

    d->n_recs++;
    d->n_totals += !isnan(alloc);
    if (mi->bytes > 0) {
        d->n_alloc++;
        if (mi->addr != PR_NO_ID &&
            pr_idmap_put(live, mi->addr, 1, m->err) != PR_OK)
            return PR_E_NOMEM;
    } else {
        d->n_free++;
        if (mi->addr != PR_NO_ID && pr_idmap_get(live, mi->addr) != 1)
            d->unmatched_frees++;
        else if (mi->addr != PR_NO_ID &&
                 pr_idmap_put(live, mi->addr, 0, m->err) != PR_OK)
            return PR_E_NOMEM;
    }
    d->running = pr_sat_add_i64(d->running, mi->bytes);
    if (d->running > d->running_peak) {
        d->running_peak = d->running;
        d->running_peak_ts_ns = e->ts_ns;
        d->running_peak_rec = rec;
    }
    if (!isnan(alloc)) {
        m->has_totals = 1;
        if (isnan(d->peak_alloc) || alloc > d->peak_alloc) {
            d->peak_alloc = alloc;
            d->peak_ts_ns = e->ts_ns;
            d->peak_rec = rec;
        }
    }
    if (!isnan(res) && (isnan(d->peak_reserved) || res > d->peak_reserved))
        d->peak_reserved = res;
    return PR_OK;
}

/* The curve: the trace's own totals when it records them (12.6; the
 * address is not required), else the running sum of Bytes since the first
 * record, which old traces allow (said so in the summary). */
static enum pr_status
build_curves(struct mem *m)
{
    const struct pr_trace *t = m->t;
    int64_t running[MAX_DEVICES] = {0};
    struct sampler sm[MAX_DEVICES];
    size_t i, k = 0, seen[MAX_DEVICES] = {0};

    for (i = 0; i < m->n_dev; i++)
        sampler_init(&sm[i],
                     m->has_totals ? m->dev[i].n_totals : m->dev[i].n_recs);
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const struct pr_mem_info *mi = pr_trace_mem(t, e);
        struct pt p;
        int dev;

        if (mi == NULL)
            continue;
        dev = m->rec_dev[k++];
        if (dev < 0)
            continue;
        running[dev] = pr_sat_add_i64(running[dev], mi->bytes);
        if (m->has_totals && isnan(mi->total_allocated))
            continue;
        p.i = seen[dev]++;
        p.t_us = (double)pr_sat_sub_i64(e->ts_ns, m->start_ns) / 1000.0;
        p.alloc = m->has_totals ? mi->total_allocated : (double)running[dev];
        p.reserved = m->has_totals ? mi->total_reserved : NAN;
        if (sample(&m->dev[dev], &sm[dev], &p) != PR_OK)
            return pr_error_set(m->err, PR_E_NOMEM, "out of memory (memory)");
    }
    return PR_OK;
}

static void
free_paths(struct path *paths, size_t n)
{
    size_t r;

    for (r = 0; paths != NULL && r < n; r++)
        free(paths[r].v);
    free(paths);
}

/* One path per thread, each at its root. */
static struct path *
start_paths(struct mem *m)
{
    size_t r, n = m->tree->n_roots;
    struct path *paths = calloc(n + 1, sizeof(*paths));
    int ok = paths != NULL;

    for (r = 0; r < n && ok; r++) {
        ok = pr_grow((void **)&paths[r].v, &paths[r].cap, 16,
                     sizeof(*paths[r].v)) == PR_OK;
        if (ok) {
            paths[r].v[0].node = m->tree->roots[r];
            paths[r].v[0].kid = 0;
            paths[r].n = 1;
        }
    }
    if (!ok) {
        free_paths(paths, n);
        pr_error_set(m->err, PR_E_NOMEM, "out of memory (memory)");
        return NULL;
    }
    return paths;
}

static enum pr_status
scan_records(struct mem *m)
{
    const struct pr_trace *t = m->t;
    struct path *paths = start_paths(m);
    size_t i, r, k = 0;
    struct pr_idmap live = {0};
    enum pr_status st = paths != NULL ? PR_OK : PR_E_NOMEM;

    for (i = 0; i < t->n_events && st == PR_OK; i++) {
        const struct pr_event *e = &t->events[i];
        const struct pr_mem_info *mi = pr_trace_mem(t, e);
        size_t node = PR_NONE;
        int dev, named;

        if (mi == NULL)
            continue;
        dev = dev_index(m, mi);
        r = root_of_tid(m->tree, pr_event_tid(t, e));
        if (r != PR_NONE && locate(m, &paths[r], e->ts_ns, &node) != PR_OK)
            st = PR_E_NOMEM;
        if (node != PR_NONE && !m->tree->nodes[node].is_operator)
            node = PR_NONE; /* staled: no statistic, not even an ancestor's */
        m->rec_node[k] = node == PR_NONE ? PR_TREE_NONE : (uint32_t)node;
        m->rec_dev[k++] = (signed char)dev;
        if (dev < 0 || st != PR_OK) {
            m->unknown_device += dev < 0;
            continue;
        }
        named = node == PR_NONE && is_named(t, e);
        if (node == PR_NONE && !named && mi->bytes > 0)
            m->dev[dev].unattributed++;
        st = track(m, &live, e, mi, &m->dev[dev], k - 1);
        if (st == PR_OK && node != PR_NONE)
            st = attribute(m, node, dev, mi->bytes);
        else if (st == PR_OK && named)
            st = attribute_named(m, e, dev, mi->bytes);
    }
    free_paths(paths, m->tree->n_roots);
    pr_idmap_free(&live);
    return st;
}

size_t
pr_memory_downsample(const double *y, size_t n, size_t max, size_t *out)
{
    size_t buckets, b, k = 0;

    if (n <= max) {
        for (b = 0; b < n; b++)
            out[b] = b;
        return n;
    }
    buckets = (max - 1) / 3; /* first, min, max per bucket; plus the last */
    for (b = 0; b < buckets; b++) {
        size_t lo = b * (n - 1) / buckets, hi = (b + 1) * (n - 1) / buckets;
        size_t i, imin = lo, imax = lo, a, c;
        for (i = lo; i < hi; i++) {
            if (y[i] < y[imin])
                imin = i;
            if (y[i] > y[imax])
                imax = i;
        }
        a = imin < imax ? imin : imax;
        c = imin < imax ? imax : imin;
        out[k++] = lo;
        if (a != lo)
            out[k++] = a;
        if (c != a && c != lo)
            out[k++] = c;
    }
    out[k++] = n - 1;
    return k;
}

static int
cmp_row(const void *pa, const void *pb, void *ctx)
{
    const struct row *x = pa, *y = pb;
    const struct mem *m = ctx;
    int c;

    if (x->a.inc != y->a.inc)
        return x->a.inc > y->a.inc ? -1 : 1;
    c = strcmp(m->dev[x->dev].name, m->dev[y->dev].name);
    if (c != 0)
        return c;
    return strcmp(pr_trace_str(m->t, x->name), pr_trace_str(m->t, y->name));
}

/* Calls: operator nodes the 12.4 walk reaches (children of a root or of a
 * visited node), per name. */
static enum pr_status
count_calls(struct mem *m, struct pr_idmap *calls)
{
    const struct pr_tree *tr = m->tree;
    size_t i;

    for (i = 0; i < tr->n_nodes; i++) {
        const struct pr_tree_node *n = &tr->nodes[i];
        size_t p = parent_of(tr, i), c;
        if (!n->is_operator || n->dropped || p == PR_NONE)
            continue;
        if (tr->nodes[p].type != PR_N_ROOT && !was_visited(m, p))
            continue;
        c = pr_idmap_get(calls, pr_tree_name(m->t, tr, n));
        if (pr_idmap_put(calls, pr_tree_name(m->t, tr, n),
                         c == PR_NONE ? 1 : c + 1, m->err) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

/* The rows with their calls, sorted; the caller owns *out. */
static enum pr_status
collect_rows(struct mem *m, struct row **out, size_t *n_out)
{
    struct pr_idmap calls = {0};
    size_t i, c;
    enum pr_status st = count_calls(m, &calls);

    for (i = 0; i < m->n_rows && st == PR_OK; i++) {
        c = pr_idmap_get(&calls, m->rows[i].name);
        m->rows[i].calls = c == PR_NONE ? 0 : (int64_t)c;
        if (m->rows[i].by_name && c == PR_NONE)
            m->rows[i].calls = m->rows[i].a.self_count;
    }
    pr_idmap_free(&calls);
    if (st != PR_OK)
        return pr_error_set(m->err, PR_E_NOMEM, "out of memory (memory)");
    /* made in record order: cmp_row sorts them totally */
    if (m->n_rows > 1)
        qsort_r(m->rows, m->n_rows, sizeof(*m->rows), cmp_row, m);
    *out = m->rows;
    *n_out = m->n_rows;
    m->rows = NULL;
    m->n_rows = m->cap_rows = 0;
    return PR_OK;
}

static int
row_is_zero(const struct row *r)
{
    return r->a.self_inc == 0 && r->a.self_size == 0 && r->a.self_count == 0 &&
           r->a.inc == 0 && r->a.size == 0 && r->a.count == 0;
}

/* The operators' rows as the summary's typed rows (rows.def), written
 * once by the one writer. */
static void
emit_rows(struct mem *m, cJSON *arr, int *ok)
{
    struct pr_row_memory_operator *out;
    struct row *rows = NULL;
    size_t n = 0, i, k = 0;

    if (!*ok)
        return;
    if (collect_rows(m, &rows, &n) != PR_OK) {
        *ok = 0;
        return;
    }
    out = malloc((n ? n : 1) * sizeof(*out));
    for (i = 0; i < n && out != NULL; i++) {
        const struct row *r = &rows[i];
        if (row_is_zero(r))
            continue;
        out[k++] = (struct pr_row_memory_operator){
            .device = m->dev[r->dev].name,
            .name = pr_trace_str(m->t, r->name),
            .calls = r->calls,
            .size_increase_bytes = r->a.inc,
            .self_size_increase_bytes = r->a.self_inc,
            .allocation_count = r->a.count,
            .self_allocation_count = r->a.self_count,
            .allocation_size_bytes = r->a.size,
            .self_allocation_size_bytes = r->a.self_size,
        };
    }
    if (out == NULL || !pr_rows_write(arr, PR_RO_RUNS_MEMORY_OPERATORS, out, k))
        *ok = 0;
    free(out);
    free(rows);
}

/* An operator holding memory at the peak: named as spec 12.8 names an
 * allocation, an aten::empty* by the operator that called it. */
struct top {
    uint32_t name, parent; /* parent: PR_STR_NONE unless an aten::empty* */
    int64_t bytes, tensors;
};

static int
cmp_top(const void *pa, const void *pb, void *ctx)
{
    const struct top *x = pa, *y = pb;
    int c;

    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    c = strcmp(pr_trace_str(ctx, x->name), pr_trace_str(ctx, y->name));
    if (c != 0 || x->parent == y->parent)
        return c;
    if (x->parent == PR_STR_NONE || y->parent == PR_STR_NONE)
        return x->parent == PR_STR_NONE ? -1 : 1;
    return strcmp(pr_trace_str(ctx, x->parent), pr_trace_str(ctx, y->parent));
}

/* What is live at the peak: the allocations up to the peak record whose
 * address was not freed (or reused) before it.  Per address, the map
 * holds its last allocation record, PR_NONE once freed. */
struct live {
    struct top *tops;
    size_t n, cap;
    int64_t bytes, outside_ops; /* live bytes traced; those of no operator */
    size_t no_addr;             /* allocations before the peak without one */
};

/* Bytes live at the peak of operator `name` (`parent` the caller of an
 * aten::empty* or empty_tensor, else PR_STR_NONE). */
static enum pr_status
live_top(struct live *lv, uint32_t name, uint32_t parent, int64_t bytes)
{
    size_t j;

    for (j = 0; j < lv->n; j++)
        if (lv->tops[j].name == name && lv->tops[j].parent == parent)
            break;
    if (j == lv->n) {
        if (pr_grow((void **)&lv->tops, &lv->cap, lv->n + 1,
                    sizeof(*lv->tops)) != PR_OK)
            return PR_E_NOMEM;
        lv->tops[lv->n++] = (struct top){name, parent, 0, 0};
    }
    lv->tops[j].bytes = pr_sat_add_i64(lv->tops[j].bytes, bytes);
    lv->tops[j].tensors++;
    return PR_OK;
}

static enum pr_status
live_add(struct mem *m, struct live *lv, size_t node, int64_t bytes)
{
    const struct pr_tree_node *nd = &m->tree->nodes[node];
    size_t p = parent_of(m->tree, node);
    uint32_t parent = PR_STR_NONE, name = pr_tree_name(m->t, m->tree, nd);

    /* an allocation operator says little alone: aten::empty* and
       torch_npu's empty_tensor are named by their caller */
    if ((strncmp(pr_trace_str(m->t, name), "aten::empty", 11) == 0 ||
         strcmp(pr_trace_str(m->t, name), "empty_tensor") == 0) &&
        p != PR_NONE && m->tree->nodes[p].type != PR_N_ROOT)
        parent = pr_tree_name(m->t, m->tree, &m->tree->nodes[p]);
    return live_top(lv, name, parent, bytes);
}

static enum pr_status
live_at(struct mem *m, int dev, size_t peak, struct live *lv)
{
    struct pr_idmap last = {0};
    enum pr_status st = PR_OK;
    size_t i, k, pass;

    for (pass = 0; pass < 2 && st == PR_OK; pass++)
        for (i = 0, k = 0; i < m->t->n_events && k <= peak && st == PR_OK;
             i++) {
            const struct pr_mem_info *mi = pr_trace_mem(m->t, &m->t->events[i]);
            size_t rec = k;
            if (mi == NULL)
                continue;
            k++;
            if (m->rec_dev[rec] != dev)
                continue;
            if (mi->addr == PR_NO_ID) {
                lv->no_addr += pass == 1 && mi->bytes > 0;
                continue;
            }
            if (pass == 0)
                st = pr_idmap_put(&last, mi->addr,
                                  mi->bytes > 0 ? rec : PR_NONE, m->err);
            else if (mi->bytes > 0 && pr_idmap_get(&last, mi->addr) == rec) {
                lv->bytes = pr_sat_add_i64(lv->bytes, mi->bytes);
                const struct pr_event *e = &m->t->events[i];

                if (m->rec_node[rec] == PR_TREE_NONE && is_named(m->t, e))
                    st = live_top(lv, e->name, PR_STR_NONE, mi->bytes);
                else if (m->rec_node[rec] == PR_TREE_NONE)
                    lv->outside_ops =
                        pr_sat_add_i64(lv->outside_ops, mi->bytes);
                else
                    st = live_add(m, lv, m->rec_node[rec], mi->bytes);
            }
        }
    pr_idmap_free(&last);
    return st;
}

static void
emit_tops(struct mem *m, const struct live *lv, cJSON *arr, int *ok)
{
    char label[512];
    size_t i;

    for (i = 0; i < lv->n && i < TOP_AT_PEAK && *ok; i++) {
        const struct top *tp = &lv->tops[i];
        struct pr_row_top_allocator r = {label, tp->bytes, tp->bytes,
                                         tp->tensors};
        if (tp->parent != PR_STR_NONE)
            snprintf(label, sizeof(label), "%s (%s)",
                     pr_trace_str(m->t, tp->parent),
                     pr_trace_str(m->t, tp->name));
        else
            snprintf(label, sizeof(label), "%s", pr_trace_str(m->t, tp->name));
        if (*ok &&
            !pr_rows_write(
                arr, PR_RO_RUNS_MEMORY_DEVICES_TOP_ALLOCATORS_AT_PEAK, &r, 1))
            *ok = 0;
    }
}

/* The step holding the device's peak, and which operators' tensors are
 * live at the peak: the ones to shrink, recompute or free earlier.  Into
 * r, its top allocators into tops and its note into note (cap bytes). */
static void
peak_step(struct mem *m, const struct pr_steps *steps, int dev,
          struct pr_row_mem_device *r, cJSON *tops, char *note, size_t cap,
          int *ok)
{
    const struct mdev *d = &m->dev[dev];
    int64_t ts = m->has_totals ? d->peak_ts_ns : d->running_peak_ts_ns;
    const struct pr_step *sp = NULL;
    struct live lv;
    size_t i;

    memset(&lv, 0, sizeof(lv));
    for (i = 0; steps != NULL && i < steps->n; i++)
        if (pr_step_host_side_start(steps, &steps->v[i]) <= ts &&
            ts < steps->v[i].end_ns)
            sp = &steps->v[i];
    r->peak_step = sp == NULL || sp->name == PR_STR_NONE
                       ? NULL
                       : pr_trace_str(m->t, sp->name);
    if (*ok && (d->n_alloc > 0 || d->n_free > 0) &&
        live_at(m, dev, m->has_totals ? d->peak_rec : d->running_peak_rec,
                &lv) != PR_OK)
        *ok = 0;
    if (lv.n > 1)
        qsort_r(lv.tops, lv.n, sizeof(*lv.tops), cmp_top,
                (void *)(uintptr_t)m->t);
    emit_tops(m, &lv, tops, ok);
    r->live_at_peak_bytes = (double)lv.bytes;
    r->live_at_peak_outside_operators_bytes = (double)lv.outside_ops;
    r->live_at_peak_untraced_bytes =
        isnan(d->peak_alloc) || d->peak_alloc < (double)lv.bytes
            ? NAN
            : d->peak_alloc - (double)lv.bytes;
    if (lv.no_addr > 0) {
        const char *fmt = pr_trace_str(m->t, m->t->format);
        /* the legacy autograd trace has no Addr at any version */
        snprintf(note, cap,
                 "%zu allocations before the peak carry no address (%s), so "
                 "which tensors are live at the peak is not known",
                 lv.no_addr,
                 fmt != NULL && strcmp(fmt, "autograd") == 0
                     ? "the legacy autograd profiler records none"
                     : "PyTorch before 1.10");
        r->top_allocators_note = note;
    }
    free(lv.tops);
}

/* A device's curve (rows.def's pr_row_mem_curve, its three arrays of
 * downsampled points); NULL when out of memory. */
static cJSON *
curve_json(const struct mdev *d)
{
    struct pr_row_mem_curve c;
    cJSON *t = cJSON_CreateArray(), *a = cJSON_CreateArray(),
          *r = cJSON_CreateArray(), *o = NULL;
    size_t *idx =
        malloc((d->n_pts < PR_MEMORY_MAX_POINTS ? d->n_pts + 1
                                                : PR_MEMORY_MAX_POINTS) *
               sizeof(*idx));
    size_t n, i;
    int ok = t != NULL && a != NULL && r != NULL && idx != NULL;

    n = ok ? pr_memory_downsample(d->alloc, d->n_pts, PR_MEMORY_MAX_POINTS, idx)
           : 0;
    for (i = 0; i < n && ok; i++) {
        double v = d->reserved[idx[i]];
        ok = cJSON_AddItemToArray(t, cJSON_CreateNumber(d->t_us[idx[i]])) &&
             cJSON_AddItemToArray(a, cJSON_CreateNumber(d->alloc[idx[i]])) &&
             cJSON_AddItemToArray(r, isnan(v) ? cJSON_CreateNull()
                                              : cJSON_CreateNumber(v));
    }
    free(idx);
    c = (struct pr_row_mem_curve){
        .t_us = t, .allocated_bytes = a, .reserved_bytes = r};
    if (ok)
        o = pr_rows_row(PR_RO_RUNS_MEMORY_DEVICES_CURVE, &c);
    cJSON_Delete(t);
    cJSON_Delete(a);
    cJSON_Delete(r);
    return o;
}

static int
cmp_dev(const void *pa, const void *pb, void *ctx)
{
    const struct mem *m = ctx;

    return strcmp(m->dev[*(const int *)pa].name, m->dev[*(const int *)pb].name);
}

/* The PTA component (PyTorch's caching allocator) memory_record.csv
 * samples for device `name` ("NPU0"), or NULL. */
static const struct pr_mem_component *
pta_of(const struct pr_phases *p, const char *name)
{
    size_t i;
    char *end;
    long id;

    if (p == NULL || strncmp(name, "NPU", 3) != 0)
        return NULL;
    id = strtol(name + 3, &end, 10);
    for (i = 0; *end == '\0' && i < p->n_mem; i++)
        if (p->mem[i].device == id && strcmp(p->mem[i].name, "PTA") == 0 &&
            (p->mem[i].peak_allocated >= 0 || p->mem[i].peak_reserved >= 0))
            return &p->mem[i];
    return NULL;
}

/* The device's peaks from memory_record.csv's PTA rows, as MindStudio
 * Insight draws the PTA curve, where they are above the curve's: the
 * curve of GE's rows alone (torch_npu 2023: operator_memory.csv held
 * only cann:: rows, 80 MiB against PTA's 4.49 GiB) is not the device's
 * peak.  The untraced rest is then not known: the curve's live bytes
 * and PTA's total are not of one allocator. */
static void
take_pta(const struct mem *m, const struct pr_steps *steps,
         const struct mdev *d, struct pr_row_mem_device *r)
{
    const struct pr_mem_component *pta = pta_of(m->t->phases, d->name);
    double a, v;

    r->curve_allocator = m->t->phases ? m->t->phases->mem_curve : NULL;
    r->peak_allocator = r->curve_allocator;
    if (pta == NULL || r->curve_allocator == NULL)
        return; /* a reader that does not say whose the curve is */
    a = pta->peak_allocated >= 0 ? pta->peak_allocated : NAN;
    v = pta->peak_reserved >= 0 ? pta->peak_reserved : NAN;
    if (strcmp(r->curve_allocator, "PTA") == 0) {
        /* one allocator: the higher of the sampled and the itemized */
        if (a > r->peak_allocated_bytes)
            r->peak_allocated_bytes = a;
        if (v > r->peak_reserved_bytes)
            r->peak_reserved_bytes = v;
        return;
    }
    r->peak_allocated_bytes = a;
    r->peak_reserved_bytes = v;
    r->peak_allocator = "PTA";
    r->live_at_peak_untraced_bytes = NAN;
    /* the peak's time and step are PTA's too (review24: old2023 rank 0's
       peak_at_us was GE's 84 MB at 22.5 ms beside PTA's 4.49 GiB, whose
       memory_record.csv row is at 8.2 ms); live_at_peak_* stay the
       curve's, the allocations the trace itemizes */
    r->peak_at_us = NAN;
    r->peak_step = NULL;
    if (pta->peak_ns >= 0) {
        size_t i;

        r->peak_at_us = (double)(pta->peak_ns - m->start_ns) / 1000.0;
        for (i = 0; steps != NULL && i < steps->n; i++)
            if (pr_step_host_side_start(steps, &steps->v[i]) <= pta->peak_ns &&
                pta->peak_ns < steps->v[i].end_ns &&
                steps->v[i].name != PR_STR_NONE)
                r->peak_step = pr_trace_str(m->t, steps->v[i].name);
    }
}

static void
emit_devices(struct mem *m, const struct pr_steps *steps, cJSON *arr, int *ok)
{
    int order[MAX_DEVICES];
    size_t i;

    for (i = 0; i < m->n_dev; i++)
        order[i] = (int)i;
    qsort_r(order, m->n_dev, sizeof(order[0]), cmp_dev, m);
    for (i = 0; i < m->n_dev && *ok; i++) {
        const struct mdev *d = &m->dev[order[i]];
        int64_t peak_ts = m->has_totals ? d->peak_ts_ns : d->running_peak_ts_ns;
        /* a device's row (rows.def's pr_row_mem_device) holds copies of
           its top allocators (typed rows) and its curve */
        cJSON *tops = cJSON_CreateArray(), *curve = NULL;
        char note[240];
        struct pr_row_mem_device r = {
            .device = d->name,
            .peak_allocated_bytes = d->peak_alloc,
            /* every record's Total Reserved 0 beside allocations: the
               trace does not record a reserve for it (Kineto writes 0
               for the CPU, which has no caching allocator; review22g
               item 12), so not "0 B reserved" */
            .peak_reserved_bytes = d->peak_reserved == 0 && d->peak_alloc > 0
                                       ? NAN
                                       : d->peak_reserved,
            .peak_increase_bytes = (double)d->running_peak,
            .peak_at_us = (double)(peak_ts - m->start_ns) / 1000.0,
            .curve_basis =
                m->has_totals ? "total_allocated" : "bytes_since_first_record",
            .allocations = (double)d->n_alloc,
            .frees = (double)d->n_free,
            .unattributed_allocations = (double)d->unattributed,
            .unmatched_frees = (double)d->unmatched_frees,
            .top_allocators_at_peak = tops,
        };

        *ok = arr != NULL && tops != NULL;
        peak_step(m, steps, order[i], &r, tops, note, sizeof(note), ok);
        take_pta(m, steps, d, &r);
        if (*ok) {
            curve = curve_json(d);
            r.curve = curve;
            *ok = curve != NULL;
        }
        *ok = *ok && pr_rows_write(arr, PR_RO_RUNS_MEMORY_DEVICES, &r, 1);
        cJSON_Delete(tops);
        cJSON_Delete(curve);
    }
}

static void
mem_free(struct mem *m)
{
    size_t i;

    for (i = 0; i < m->n_dev; i++) {
        free(m->dev[i].t_us);
        free(m->dev[i].alloc);
        free(m->dev[i].reserved);
    }
    free(m->rec_node);
    free(m->rec_dev);
    free(m->visited);
    free(m->rows);
    pr_idmap_free(&m->row_of);
}

enum pr_status
pr_memory_fill(const struct pr_trace *t, const struct pr_tree *tree,
               const struct pr_steps *steps, cJSON *run, struct pr_error *err)
{
    struct mem m;
    cJSON *mem;
    enum pr_status st = PR_OK;
    int ok = 1;

    if (t->n_mem == 0)
        return PR_OK; /* "memory" stays null: no [memory] events */
    memset(&m, 0, sizeof(m));
    m.t = t;
    m.tree = tree;
    m.err = err;
    m.start_ns = profiler_start(t);
    m.rec_node = malloc(t->n_mem * sizeof(*m.rec_node));
    m.rec_dev = malloc(t->n_mem * sizeof(*m.rec_dev));
    m.visited = calloc(tree->n_nodes / 8 + 1, 1);
    if (!m.rec_node || !m.rec_dev || !m.visited)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory (memory)");
    if (st == PR_OK)
        st = scan_records(&m);
    if (st == PR_OK)
        st = build_curves(&m);
    if (st == PR_OK) {
        /* the run's memory row holds copies of its device and operator
           tables (typed rows) */
        struct pr_row_memory row;
        cJSON *devs = cJSON_CreateArray(), *ops = cJSON_CreateArray();

        ok = devs != NULL && ops != NULL;
        if (ok)
            emit_devices(&m, steps, devs, &ok);
        if (ok)
            emit_rows(&m, ops, &ok);
        memset(&row, 0, sizeof(row));
        row.devices = devs;
        row.operators = ops;
        row.unknown_device_records = (int64_t)m.unknown_device;
        /* NULL: out of memory, which pr_emit_put reports */
        mem = ok ? pr_rows_row(PR_RO_RUNS_MEMORY, &row) : NULL;
        cJSON_Delete(devs);
        cJSON_Delete(ops);
        st = pr_emit_put(run, PR_K_MEMORY, mem, "memory", err);
    }
    mem_free(&m);
    return st;
}
