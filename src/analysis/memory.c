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
#include "profreport/memory.h"

#include "internal.h"

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
    double *t_us, *alloc, *reserved;
    size_t n_pts, cap_pts;
    size_t unattributed;    /* allocations outside any operator */
    size_t unmatched_frees; /* releases of an address never allocated */
    size_t n_alloc, n_free;
};

struct mem {
    const struct pr_trace *t;
    const struct pr_tree *tree;
    struct pr_error *err;
    struct mdev dev[MAX_DEVICES];
    size_t n_dev;
    size_t unknown_device; /* records of device type other than CPU/CUDA */
    int64_t start_ns;      /* profiler_start_ts (2.5) */
    int has_totals;        /* some record carries Total Allocated */
    size_t *rec_node;      /* per memory record: op node or PR_NONE */
    int *rec_dev;          /* per memory record: device or -1 */
    uint32_t *next_kid;    /* cursor per node (12.2) */
    unsigned char *visited;
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
    else if (mi->device_type == 1)
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

/* Descend from node c to the deepest child containing ts (12.2). */
static size_t
descend(struct mem *m, size_t c, int64_t ts)
{
    const struct pr_tree *tr = m->tree;

    for (;;) {
        const struct pr_tree_node *n = &tr->nodes[c];
        size_t k = m->next_kid[c];
        size_t found = PR_NONE;

        while (k < pr_tree_n_kids(tr, n)) {
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
        m->next_kid[c] = (uint32_t)k;
        if (found == PR_NONE)
            return c;
        m->visited[found] = 1;
        c = found;
    }
}

/* Walk the cursor of one thread to ts; returns the deepest node or
 * PR_NONE (staled). *cursor is updated. */
static size_t
locate(struct mem *m, size_t *cursor, int64_t ts)
{
    const struct pr_tree *tr = m->tree;
    size_t c = *cursor;
    int64_t s, e;

    for (;;) {
        if (c == PR_NONE)
            break;
        node_bounds(m, c, &s, &e);
        if (ts < s)
            return PR_NONE; /* before the root's first child */
        if (ts >= e) {
            c = tr->nodes[c].type == PR_N_ROOT ? PR_NONE : parent_of(tr, c);
            continue;
        }
        c = descend(m, c, ts);
        break;
    }
    *cursor = c;
    return c;
}

/* The row that node's records on device dev add to, made on first use;
 * &m->skip for a node that is not an operator (the table lists only
 * operators).  NULL on out-of-memory. */
static struct acc *
acc_for(struct mem *m, size_t node, int dev)
{
    const struct pr_tree_node *n = &m->tree->nodes[node];
    int64_t key = (int64_t)n->name * MAX_DEVICES + dev;
    size_t j;

    if (!n->is_operator)
        return &m->skip;
    j = pr_idmap_get(&m->row_of, key);
    if (j != PR_NONE)
        return &m->rows[j].a;
    if (pr_grow((void **)&m->rows, &m->cap_rows, m->n_rows + 1,
                sizeof(*m->rows)) != PR_OK ||
        pr_idmap_put(&m->row_of, key, m->n_rows, m->err) != PR_OK)
        return NULL;
    j = m->n_rows++;
    memset(&m->rows[j], 0, sizeof(m->rows[j]));
    m->rows[j].name = n->name;
    m->rows[j].dev = dev;
    return &m->rows[j].a;
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
    a->self_inc += bytes;
    a->self_size += is_alloc ? bytes : 0;
    a->self_count += is_alloc;
    for (p = node; p != PR_NONE; p = parent_of(m->tree, p)) {
        if (m->tree->nodes[p].type == PR_N_ROOT)
            break;
        a = acc_for(m, p, dev);
        if (a == NULL)
            return pr_error_set(m->err, PR_E_NOMEM, "out of memory (memory)");
        a->inc += bytes;
        a->size += is_alloc ? bytes : 0;
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

/* Peaks, running sums, unmatched frees and the curve point of a record. */
static enum pr_status
track(struct mem *m, struct pr_idmap *live, const struct pr_event *e,
      const struct pr_mem_info *mi, struct mdev *d, size_t rec)
{
    double alloc = mi->total_allocated, res = mi->total_reserved;

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
    d->running += mi->bytes;
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
    size_t i, k = 0;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const struct pr_mem_info *mi = pr_trace_mem(t, e);
        double t_us;
        int dev;

        if (mi == NULL)
            continue;
        dev = m->rec_dev[k++];
        if (dev < 0)
            continue;
        t_us = (double)pr_sat_sub_i64(e->ts_ns, m->start_ns) / 1000.0;
        running[dev] += mi->bytes;
        if (m->has_totals && isnan(mi->total_allocated))
            continue;
        if (add_point(&m->dev[dev], t_us,
                      m->has_totals ? mi->total_allocated
                                    : (double)running[dev],
                      m->has_totals ? mi->total_reserved : NAN) != PR_OK)
            return pr_error_set(m->err, PR_E_NOMEM, "out of memory (memory)");
    }
    return PR_OK;
}

static enum pr_status
scan_records(struct mem *m)
{
    const struct pr_trace *t = m->t;
    size_t *cursor, i, r, k = 0;
    struct pr_idmap live = {0};
    enum pr_status st = PR_OK;

    cursor = malloc((m->tree->n_roots + 1) * sizeof(*cursor));
    if (cursor == NULL)
        return pr_error_set(m->err, PR_E_NOMEM, "out of memory (memory)");
    for (r = 0; r < m->tree->n_roots; r++)
        cursor[r] = m->tree->roots[r];
    for (i = 0; i < t->n_events && st == PR_OK; i++) {
        const struct pr_event *e = &t->events[i];
        const struct pr_mem_info *mi = pr_trace_mem(t, e);
        size_t node = PR_NONE;
        int dev;

        if (mi == NULL)
            continue;
        dev = dev_index(m, mi);
        r = root_of_tid(m->tree, e->tid);
        if (r != PR_NONE)
            node = locate(m, &cursor[r], e->ts_ns);
        if (node != PR_NONE && !m->tree->nodes[node].is_operator)
            node = PR_NONE; /* staled: no statistic, not even an ancestor's */
        m->rec_node[k] = node;
        m->rec_dev[k++] = dev;
        if (dev < 0) {
            m->unknown_device++;
            continue;
        }
        if (node == PR_NONE && mi->bytes > 0)
            m->dev[dev].unattributed++;
        st = track(m, &live, e, mi, &m->dev[dev], k - 1);
        if (st == PR_OK && node != PR_NONE)
            st = attribute(m, node, dev, mi->bytes);
    }
    free(cursor);
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
        if (tr->nodes[p].type != PR_N_ROOT && !m->visited[p])
            continue;
        c = pr_idmap_get(calls, n->name);
        if (pr_idmap_put(calls, n->name, c == PR_NONE ? 1 : c + 1, m->err) !=
            PR_OK)
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

static void
emit_rows(struct mem *m, cJSON *mem, int *ok)
{
    cJSON *arr = pr_emit_arr(mem, "operators", ok);
    struct row *rows = NULL;
    size_t n = 0, i;

    if (!*ok)
        return;
    if (collect_rows(m, &rows, &n) != PR_OK) {
        *ok = 0;
        return;
    }
    for (i = 0; i < n && *ok; i++) {
        const struct row *r = &rows[i];
        cJSON *o;
        if (row_is_zero(r))
            continue;
        o = pr_emit_obj(arr, NULL, ok);
        pr_emit_str(o, "device", m->dev[r->dev].name, ok);
        pr_emit_str(o, "name", pr_trace_str(m->t, r->name), ok);
        pr_emit_num(o, "calls", (double)r->calls, ok);
        pr_emit_num(o, "size_increase_bytes", (double)r->a.inc, ok);
        pr_emit_num(o, "self_size_increase_bytes", (double)r->a.self_inc, ok);
        pr_emit_num(o, "allocation_count", (double)r->a.count, ok);
        pr_emit_num(o, "self_allocation_count", (double)r->a.self_count, ok);
        pr_emit_num(o, "allocation_size_bytes", (double)r->a.size, ok);
        pr_emit_num(o, "self_allocation_size_bytes", (double)r->a.self_size,
                    ok);
    }
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

static enum pr_status
live_add(struct mem *m, struct live *lv, size_t node, int64_t bytes)
{
    const struct pr_tree_node *nd = &m->tree->nodes[node];
    size_t p = parent_of(m->tree, node);
    uint32_t parent = PR_STR_NONE;
    size_t j;

    if (strncmp(pr_trace_str(m->t, nd->name), "aten::empty", 11) == 0 &&
        p != PR_NONE && m->tree->nodes[p].type != PR_N_ROOT)
        parent = m->tree->nodes[p].name;
    for (j = 0; j < lv->n; j++)
        if (lv->tops[j].name == nd->name && lv->tops[j].parent == parent)
            break;
    if (j == lv->n) {
        if (pr_grow((void **)&lv->tops, &lv->cap, lv->n + 1,
                    sizeof(*lv->tops)) != PR_OK)
            return PR_E_NOMEM;
        lv->tops[lv->n++] = (struct top){nd->name, parent, 0, 0};
    }
    lv->tops[j].bytes += bytes;
    lv->tops[j].tensors++;
    return PR_OK;
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
                lv->bytes += mi->bytes;
                if (m->rec_node[rec] == PR_NONE)
                    lv->outside_ops += mi->bytes;
                else
                    st = live_add(m, lv, m->rec_node[rec], mi->bytes);
            }
        }
    pr_idmap_free(&last);
    return st;
}

static void
emit_tops(struct mem *m, const struct live *lv, cJSON *o, int *ok)
{
    cJSON *arr = pr_emit_arr(o, "top_allocators_at_peak", ok);
    char label[512];
    size_t i;

    for (i = 0; i < lv->n && i < TOP_AT_PEAK && *ok; i++) {
        const struct top *tp = &lv->tops[i];
        cJSON *r = pr_emit_obj(arr, NULL, ok);
        if (tp->parent != PR_STR_NONE)
            snprintf(label, sizeof(label), "%s (%s)",
                     pr_trace_str(m->t, tp->parent),
                     pr_trace_str(m->t, tp->name));
        else
            snprintf(label, sizeof(label), "%s", pr_trace_str(m->t, tp->name));
        pr_emit_str(r, "name", label, ok);
        pr_emit_num(r, "self_allocation_size_bytes", (double)tp->bytes, ok);
        pr_emit_num(r, "live_bytes", (double)tp->bytes, ok);
        pr_emit_num(r, "tensors", (double)tp->tensors, ok);
    }
}

/* The step holding the device's peak, and which operators' tensors are
 * live at the peak: the ones to shrink, recompute or free earlier. */
static void
emit_peak_step(struct mem *m, const struct pr_steps *steps, int dev, cJSON *o,
               int *ok)
{
    const struct mdev *d = &m->dev[dev];
    int64_t ts = m->has_totals ? d->peak_ts_ns : d->running_peak_ts_ns;
    const struct pr_step *sp = NULL;
    struct live lv;
    size_t i;

    memset(&lv, 0, sizeof(lv));
    for (i = 0; steps != NULL && i < steps->n; i++)
        if (steps->v[i].start_ns <= ts && ts < steps->v[i].end_ns)
            sp = &steps->v[i];
    if (sp == NULL || sp->name == PR_STR_NONE)
        pr_emit_null(o, "peak_step", ok);
    else
        pr_emit_str(o, "peak_step", pr_trace_str(m->t, sp->name), ok);
    if (*ok && (d->n_alloc > 0 || d->n_free > 0) &&
        live_at(m, dev, m->has_totals ? d->peak_rec : d->running_peak_rec,
                &lv) != PR_OK)
        *ok = 0;
    if (lv.n > 1)
        qsort_r(lv.tops, lv.n, sizeof(*lv.tops), cmp_top,
                (void *)(uintptr_t)m->t);
    emit_tops(m, &lv, o, ok);
    pr_emit_num(o, "live_at_peak_bytes", (double)lv.bytes, ok);
    pr_emit_num(o, "live_at_peak_outside_operators_bytes",
                (double)lv.outside_ops, ok);
    pr_emit_num_or_null(o, "live_at_peak_untraced_bytes",
                        isnan(d->peak_alloc) || d->peak_alloc < (double)lv.bytes
                            ? NAN
                            : d->peak_alloc - (double)lv.bytes,
                        ok);
    if (lv.no_addr > 0) {
        char note[240];
        snprintf(note, sizeof(note),
                 "%zu allocations before the peak carry no address "
                 "(PyTorch before 1.10), so which tensors are live at the "
                 "peak is not known",
                 lv.no_addr);
        pr_emit_str(o, "top_allocators_note", note, ok);
    } else {
        pr_emit_null(o, "top_allocators_note", ok);
    }
    free(lv.tops);
}

static void
emit_curve(const struct mdev *d, cJSON *o, int *ok)
{
    cJSON *c = pr_emit_obj(o, "curve", ok);
    cJSON *t = pr_emit_arr(c, "t_us", ok);
    cJSON *a = pr_emit_arr(c, "allocated_bytes", ok);
    cJSON *r = pr_emit_arr(c, "reserved_bytes", ok);
    size_t *idx, n, i;

    if (!*ok)
        return;
    idx = malloc((d->n_pts < PR_MEMORY_MAX_POINTS ? d->n_pts + 1
                                                  : PR_MEMORY_MAX_POINTS) *
                 sizeof(*idx));
    if (idx == NULL) {
        *ok = 0;
        return;
    }
    n = pr_memory_downsample(d->alloc, d->n_pts, PR_MEMORY_MAX_POINTS, idx);
    for (i = 0; i < n && *ok; i++) {
        double v = d->reserved[idx[i]];
        *ok = cJSON_AddItemToArray(t, cJSON_CreateNumber(d->t_us[idx[i]])) &&
              cJSON_AddItemToArray(a, cJSON_CreateNumber(d->alloc[idx[i]])) &&
              cJSON_AddItemToArray(r, isnan(v) ? cJSON_CreateNull()
                                               : cJSON_CreateNumber(v));
    }
    free(idx);
}

static int
cmp_dev(const void *pa, const void *pb, void *ctx)
{
    const struct mem *m = ctx;

    return strcmp(m->dev[*(const int *)pa].name, m->dev[*(const int *)pb].name);
}

static void
emit_devices(struct mem *m, const struct pr_steps *steps, cJSON *mem, int *ok)
{
    cJSON *arr = pr_emit_arr(mem, "devices", ok);
    int order[MAX_DEVICES];
    size_t i;

    for (i = 0; i < m->n_dev; i++)
        order[i] = (int)i;
    qsort_r(order, m->n_dev, sizeof(order[0]), cmp_dev, m);
    for (i = 0; i < m->n_dev && *ok; i++) {
        const struct mdev *d = &m->dev[order[i]];
        cJSON *o = pr_emit_obj(arr, NULL, ok);
        int64_t peak_ts = m->has_totals ? d->peak_ts_ns : d->running_peak_ts_ns;
        pr_emit_str(o, "device", d->name, ok);
        pr_emit_num_or_null(o, "peak_allocated_bytes", d->peak_alloc, ok);
        pr_emit_num_or_null(o, "peak_reserved_bytes", d->peak_reserved, ok);
        pr_emit_num(o, "peak_increase_bytes", (double)d->running_peak, ok);
        pr_emit_us(o, "peak_at_us", peak_ts - m->start_ns, ok);
        pr_emit_str(
            o, "curve_basis",
            m->has_totals ? "total_allocated" : "bytes_since_first_record", ok);
        pr_emit_num(o, "allocations", (double)d->n_alloc, ok);
        pr_emit_num(o, "frees", (double)d->n_free, ok);
        pr_emit_num(o, "unattributed_allocations", (double)d->unattributed, ok);
        pr_emit_num(o, "unmatched_frees", (double)d->unmatched_frees, ok);
        emit_peak_step(m, steps, order[i], o, ok);
        emit_curve(d, o, ok);
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
    free(m->next_kid);
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
    m.next_kid = calloc(tree->n_nodes + 1, sizeof(*m.next_kid));
    m.visited = calloc(tree->n_nodes + 1, 1);
    if (!m.rec_node || !m.rec_dev || !m.next_kid || !m.visited)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory (memory)");
    if (st == PR_OK)
        st = scan_records(&m);
    if (st == PR_OK)
        st = build_curves(&m);
    if (st == PR_OK) {
        mem = cJSON_CreateObject();
        ok = mem != NULL;
        emit_devices(&m, steps, mem, &ok);
        emit_rows(&m, mem, &ok);
        pr_emit_num(mem, "unknown_device_records", (double)m.unknown_device,
                    &ok);
        if (ok && cJSON_GetObjectItemCaseSensitive(run, "memory") != NULL)
            ok = cJSON_ReplaceItemInObjectCaseSensitive(run, "memory", mem);
        else if (ok)
            ok = cJSON_AddItemToObject(run, "memory", mem);
        else
            cJSON_Delete(mem);
        if (!ok)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory (memory)");
    }
    mem_free(&m);
    return st;
}
