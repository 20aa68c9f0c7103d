/* correlate.c - the links Kineto would have written itself: NVTX start/end
 * records paired into ranges, External ids for ranges, API calls inside a
 * range (same thread, time containment), and GPU work through the launching
 * call's correlation id.  The writer (convert.c) only reads the result. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/record.h"

/* An API call or range start, sortable by thread then time. */
struct timed {
    uint32_t tid;
    int64_t start_ns;
    size_t idx;
};

static int
is_api(const struct pr_rec *r)
{
    return r->kind == PR_REC_RUNTIME || r->kind == PR_REC_DRIVER;
}

static int
is_gpu(const struct pr_rec *r)
{
    return r->kind == PR_REC_KERNEL || r->kind == PR_REC_MEMCPY ||
           r->kind == PR_REC_MEMSET;
}

static int
cmp_u32(uint32_t a, uint32_t b)
{
    return a < b ? -1 : a > b;
}

static int
cmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

static int
cmp_size(size_t a, size_t b)
{
    return a < b ? -1 : a > b;
}

/* Ranges by thread, start, longer first (so parents precede children). */
static int
cmp_range(const void *pa, const void *pb)
{
    const struct pr_rec_range *a = pa, *b = pb;
    int c = cmp_u32(a->tid, b->tid);

    if (c == 0)
        c = cmp_i64(a->start_ns, b->start_ns);
    if (c == 0)
        c = cmp_i64(b->end_ns, a->end_ns);
    if (c == 0)
        c = cmp_i64(a->ext, b->ext); /* file order, set before sorting */
    return c;
}

static int
cmp_timed(const void *pa, const void *pb)
{
    const struct timed *a = pa, *b = pb;
    int c = cmp_u32(a->tid, b->tid);

    if (c == 0)
        c = cmp_i64(a->start_ns, b->start_ns);
    return c ? c : cmp_size(a->idx, b->idx);
}

static int
cmp_corr(const void *pa, const void *pb)
{
    const struct pr_rec_corr *a = pa, *b = pb;
    int c = cmp_u32(a->corr, b->corr);

    if (c == 0)
        c = a->rank - b->rank;
    return c ? c : cmp_size(a->idx, b->idx);
}

/* Starts by NVTX id; the end record finds its start by binary search. */
static int
cmp_start_id(const void *pa, const void *pb)
{
    const struct timed *a = pa, *b = pb;
    int c = cmp_u32(a->tid, b->tid); /* tid holds the NVTX id here */

    return c ? c : cmp_size(a->idx, b->idx);
}

static void *
alloc_array(size_t n, size_t elem)
{
    size_t bytes;

    if (!pr_checked_mul_size(n ? n : 1, elem, &bytes))
        return NULL;
    return calloc(1, bytes);
}

/* The open start with NVTX id `id` (first one not yet used), or NULL. */
static struct timed *
find_start(struct timed *starts, size_t n, uint32_t id)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (starts[mid].tid < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && starts[lo].tid == id; lo++)
        if (starts[lo].start_ns >= 0)
            return &starts[lo];
    return NULL;
}

static void
make_range(const struct pr_rec *st, const struct pr_rec *en,
           struct pr_rec_range *out)
{
    memset(out, 0, sizeof(*out));
    out->start_ns = st->start_ns;
    out->end_ns = en->start_ns < st->start_ns ? st->start_ns : en->start_ns;
    out->pid = st->pid;
    out->tid = st->tid;
    out->text = st->name != NULL ? st->name : "";
    out->is_op = pr_record_parse_nvtx(out->text, &out->op);
}

static enum pr_status
pair_ranges(const struct pr_record_session *s, struct pr_rec_links *l,
            struct pr_error *err)
{
    struct timed *starts = alloc_array(s->n, sizeof(*starts));
    size_t i, n_starts = 0;

    l->ranges = alloc_array(s->n, sizeof(*l->ranges));
    if (starts == NULL || l->ranges == NULL) {
        free(starts);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    for (i = 0; i < s->n; i++)
        if (s->recs[i].kind == PR_REC_RANGE_START)
            starts[n_starts++] = (struct timed){s->recs[i].id, 0, i};
    qsort(starts, n_starts, sizeof(*starts), cmp_start_id);
    for (i = 0; i < s->n; i++) {
        struct timed *t;
        if (s->recs[i].kind != PR_REC_RANGE_END)
            continue;
        t = find_start(starts, n_starts, s->recs[i].id);
        if (t == NULL) {
            l->n_unpaired++;
            continue;
        }
        t->start_ns = -1; /* used */
        make_range(&s->recs[t->idx], &s->recs[i], &l->ranges[l->n_ranges]);
        l->ranges[l->n_ranges].ext = (int64_t)t->idx; /* order tie-break */
        l->n_ranges++;
    }
    for (i = 0; i < n_starts; i++)
        l->n_unpaired += starts[i].start_ns >= 0;
    free(starts);
    return PR_OK;
}

/* Innermost open range on the stack that contains [start, end]. */
static int64_t
containing(const struct pr_rec_range *r, const size_t *stack, size_t depth,
           int64_t end_ns)
{
    while (depth-- > 0)
        if (r[stack[depth]].end_ns >= end_ns)
            return r[stack[depth]].ext;
    return 0;
}

/* One sweep per thread over ranges and calls, both sorted by time, with a
 * stack of the ranges still open. */
static void
sweep(const struct pr_record_session *s, struct pr_rec_links *l,
      const struct timed *apis, size_t n_api, size_t *stack)
{
    const struct pr_rec_range *r = l->ranges;
    size_t i, ri = 0, depth = 0;

    for (i = 0; i < n_api; i++) {
        const struct pr_rec *a = &s->recs[apis[i].idx];
        if (i == 0 || apis[i].tid != apis[i - 1].tid) {
            depth = 0;
            while (ri < l->n_ranges && r[ri].tid < a->tid)
                ri++;
        }
        for (; ri < l->n_ranges && r[ri].tid == a->tid &&
               r[ri].start_ns <= a->start_ns;
             ri++) {
            while (depth > 0 && r[stack[depth - 1]].end_ns < r[ri].start_ns)
                depth--;
            stack[depth++] = ri;
        }
        while (depth > 0 && r[stack[depth - 1]].end_ns < a->start_ns)
            depth--;
        l->ext[apis[i].idx] = containing(r, stack, depth, a->end_ns);
    }
}

static enum pr_status
link_apis(const struct pr_record_session *s, struct pr_rec_links *l,
          struct pr_error *err)
{
    struct timed *apis = alloc_array(s->n, sizeof(*apis));
    size_t *stack = alloc_array(l->n_ranges, sizeof(*stack));
    size_t i, n = 0;

    if (apis == NULL || stack == NULL) {
        free(apis);
        free(stack);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    for (i = 0; i < s->n; i++)
        if (is_api(&s->recs[i]))
            apis[n++] = (struct timed){s->recs[i].tid, s->recs[i].start_ns, i};
    qsort(apis, n, sizeof(*apis), cmp_timed);
    sweep(s, l, apis, n, stack);
    free(apis);
    free(stack);
    return PR_OK;
}

static enum pr_status
index_corr(const struct pr_record_session *s, struct pr_rec_links *l,
           struct pr_error *err)
{
    size_t i;

    l->by_corr = alloc_array(s->n, sizeof(*l->by_corr));
    if (l->by_corr == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < s->n; i++) {
        const struct pr_rec *r = &s->recs[i];
        if (is_api(r) && r->correlation != 0)
            l->by_corr[l->n_api++] = (struct pr_rec_corr){
                r->correlation, r->kind == PR_REC_RUNTIME ? 0 : 1, i};
    }
    qsort(l->by_corr, l->n_api, sizeof(*l->by_corr), cmp_corr);
    return PR_OK;
}

const struct pr_rec *
pr_correlate_api(const struct pr_record_session *s,
                 const struct pr_rec_links *l, uint32_t corr)
{
    size_t lo = 0, hi = l->n_api;

    if (corr == 0)
        return NULL;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->by_corr[mid].corr < corr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < l->n_api && l->by_corr[lo].corr == corr)
        return &s->recs[l->by_corr[lo].idx];
    return NULL;
}

static void
number_ranges(struct pr_rec_links *l)
{
    size_t i;

    qsort(l->ranges, l->n_ranges, sizeof(*l->ranges), cmp_range);
    for (i = 0; i < l->n_ranges; i++)
        l->ranges[i].ext = (int64_t)i + 1;
}

static void
link_gpu(const struct pr_record_session *s, struct pr_rec_links *l)
{
    size_t i;

    for (i = 0; i < s->n; i++) {
        const struct pr_rec *api;
        if (!is_gpu(&s->recs[i]))
            continue;
        api = pr_correlate_api(s, l, s->recs[i].correlation);
        if (api != NULL)
            l->ext[i] = l->ext[api - s->recs];
    }
}

enum pr_status
pr_correlate_build(const struct pr_record_session *s, struct pr_rec_links *out,
                   struct pr_error *err)
{
    enum pr_status st;

    memset(out, 0, sizeof(*out));
    out->ext = alloc_array(s->n, sizeof(*out->ext));
    if (out->ext == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = pair_ranges(s, out, err);
    if (st == PR_OK) {
        number_ranges(out);
        st = link_apis(s, out, err);
    }
    if (st == PR_OK)
        st = index_corr(s, out, err);
    if (st == PR_OK)
        link_gpu(s, out);
    if (st != PR_OK)
        pr_correlate_free(out);
    return st;
}

void
pr_correlate_free(struct pr_rec_links *l)
{
    if (l == NULL)
        return;
    free(l->ranges);
    free(l->ext);
    free(l->by_corr);
    memset(l, 0, sizeof(*l));
}
