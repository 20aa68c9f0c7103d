/* memtl.c - the aggregate of a raw memory timeline (memtl.h): HTA's
 * per-category running sums, the peak, each category's greatest, and a
 * curve of at most PR_MEMTL_MAX_POINTS points.  The curve is filled in
 * buckets of `stride` consecutive points, each bucket kept as its highest
 * point; when the curve is full its neighbours are merged in pairs and
 * the stride doubles, so memory stays fixed however long the file is and
 * the highest point of all (the peak) is always on the curve.  The reader
 * (src/ingest/kineto/memtl.c) checks the rows. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/checked.h"
#include "profreport/memtl.h"

static const char *const cat_names[PR_MEMTL_CATS] = {
    "Parameter",  "Optimizer state", "Input",    "Temporary",
    "Activation", "Gradient",        "Autograd", "Unknown"};

const char *
pr_memtl_category(int cat)
{
    return cat >= 0 && cat < PR_MEMTL_CATS ? cat_names[cat] : NULL;
}

struct pr_memtl *
pr_memtl_new(void)
{
    struct pr_memtl *m = calloc(1, sizeof(*m));

    if (m == NULL)
        return NULL;
    m->curve = calloc(PR_MEMTL_MAX_POINTS, sizeof(*m->curve));
    if (m->curve == NULL) {
        free(m);
        return NULL;
    }
    m->t_min_ns = -1;
    m->t_max_ns = -1;
    m->stride = 1;
    return m;
}

void
pr_memtl_free(struct pr_memtl *m)
{
    if (m == NULL)
        return;
    free(m->curve);
    free(m);
}

/* Halve a full curve: each pair of neighbours becomes its higher point
 * (the earlier on a tie). */
static void
halve(struct pr_memtl *m)
{
    size_t i, n = 0;

    for (i = 0; i + 1 < m->n_curve; i += 2) {
        const struct pr_memtl_point *a = &m->curve[i], *b = &m->curve[i + 1];

        m->curve[n++] = b->total > a->total ? *b : *a;
    }
    if (i < m->n_curve)
        m->curve[n++] = m->curve[i];
    m->n_curve = n;
    m->stride *= 2;
}

static void
flush_bucket(struct pr_memtl *m)
{
    if (m->in_bucket == 0)
        return;
    if (m->n_curve == PR_MEMTL_MAX_POINTS)
        halve(m);
    m->curve[m->n_curve++] = m->best;
    m->in_bucket = 0;
}

/* The point in cur is complete: count it, and put it in the bucket. */
static void
close_point(struct pr_memtl *m)
{
    int c;

    m->points++;
    if (m->cur.t_ns > m->t_max_ns)
        m->t_max_ns = m->cur.t_ns;
    m->cur.total = 0;
    for (c = 0; c < PR_MEMTL_CATS; c++) {
        m->cur.total = pr_sat_add_i64(m->cur.total, m->cur.bytes[c]);
        if (m->points == 1 || m->cur.bytes[c] > m->max_bytes[c])
            m->max_bytes[c] = m->cur.bytes[c];
    }
    if (m->points == 1 || m->cur.total > m->peak.total)
        m->peak = m->cur;
    if (m->in_bucket == 0 || m->cur.total > m->best.total)
        m->best = m->cur;
    if (++m->in_bucket == m->stride)
        flush_bucket(m);
}

void
pr_memtl_add(struct pr_memtl *m, int64_t t_ns, int64_t bytes, int cat)
{
    /* HTA: the first time seen, then the smallest positive one */
    if (m->t_min_ns == -1 || (t_ns < m->t_min_ns && t_ns > 0))
        m->t_min_ns = t_ns;
    if (m->open && t_ns != m->cur.t_ns)
        close_point(m);
    m->open = 1;
    m->cur.t_ns = t_ns;
    m->rows++;
    if (cat >= 0 && cat < PR_MEMTL_CATS)
        m->cur.bytes[cat] = pr_sat_add_i64(m->cur.bytes[cat], bytes);
}

static int64_t
mapped(const struct pr_memtl *m, int64_t t_ns)
{
    return t_ns < 0 ? m->t_min_ns : t_ns;
}

void
pr_memtl_end(struct pr_memtl *m)
{
    size_t i;

    if (m->open)
        close_point(m);
    flush_bucket(m);
    /* the curve ends where the timeline does, not at its last bucket's
       highest point */
    if (m->open && m->n_curve > 0 &&
        memcmp(&m->curve[m->n_curve - 1], &m->cur, sizeof(m->cur)) != 0) {
        if (m->n_curve == PR_MEMTL_MAX_POINTS)
            halve(m);
        m->curve[m->n_curve++] = m->cur;
    }
    m->open = 0;
    for (i = 0; i < m->n_curve; i++)
        m->curve[i].t_ns = mapped(m, m->curve[i].t_ns);
    m->peak.t_ns = mapped(m, m->peak.t_ns);
    m->t_max_ns = mapped(m, m->t_max_ns);
}
