/* ranges.c - the range algebra of the TensorBoard plugin (Appendix A).
 * Inputs to intersect/subtract are merged lists, so the case analysis below
 * can be written as a plain two-pointer walk over disjoint sorted pieces. */
#include "config.h"

#include <stdlib.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/ranges.h"

void
pr_ranges_free(struct pr_ranges *r)
{
    free(r->v);
    r->v = NULL;
    r->n = r->cap = 0;
}

enum pr_status
pr_ranges_push(struct pr_ranges *r, int64_t start_ns, int64_t end_ns,
               struct pr_error *err)
{
    if (pr_grow((void **)&r->v, &r->cap, r->n + 1, sizeof(*r->v)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (ranges)");
    r->v[r->n].start_ns = start_ns;
    r->v[r->n].end_ns = end_ns;
    r->n++;
    return PR_OK;
}

enum pr_status
pr_ranges_push_merging(struct pr_ranges *r, int64_t start_ns, int64_t end_ns,
                       struct pr_error *err)
{
    struct pr_range *last = r->n > 0 ? &r->v[r->n - 1] : NULL;

    if (last != NULL && start_ns >= last->start_ns &&
        start_ns <= last->end_ns) {
        if (end_ns > last->end_ns)
            last->end_ns = end_ns;
        return PR_OK;
    }
    return pr_ranges_push(r, start_ns, end_ns, err);
}

/* Sorting by end as well as start makes the order total; the merged result
 * is the same either way. */
static int
cmp_range(const void *a, const void *b)
{
    const struct pr_range *x = a, *y = b;

    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    if (x->end_ns != y->end_ns)
        return x->end_ns < y->end_ns ? -1 : 1;
    return 0;
}

/* Merged lists are kept while later analyses run, often at a fraction of
 * the pushed length: give the rest back.  A failed shrink keeps the old,
 * still valid block. */
static void
shrink(struct pr_ranges *r)
{
    struct pr_range *v;

    if (r->n == 0 || r->n > r->cap / 2)
        return;
    v = realloc(r->v, r->n * sizeof(*v));
    if (v == NULL)
        return;
    r->v = v;
    r->cap = r->n;
}

void
pr_ranges_merge(struct pr_ranges *r)
{
    size_t i, last = 0;

    if (r->n < 2)
        return;
    /* Lists pushed in start order need no sort, nor qsort's copy of them
     * (a whole role list at once in steps.c). */
    for (i = 1; i < r->n && cmp_range(&r->v[i - 1], &r->v[i]) <= 0; i++)
        ;
    if (i < r->n)
        qsort(r->v, r->n, sizeof(*r->v), cmp_range);
    for (i = 1; i < r->n; i++) {
        struct pr_range cur = r->v[i];

        if (cur.end_ns <= r->v[last].end_ns)
            continue; /* absorbed */
        if (cur.start_ns <= r->v[last].end_ns)
            r->v[last].end_ns = cur.end_ns;
        else
            r->v[++last] = cur;
    }
    r->n = last + 1;
    shrink(r);
}

enum pr_status
pr_ranges_intersect(const struct pr_ranges *a, const struct pr_ranges *b,
                    struct pr_ranges *out, struct pr_error *err)
{
    size_t i = 0, j = 0;

    out->n = 0;
    while (i < a->n && j < b->n) {
        int64_t s = a->v[i].start_ns > b->v[j].start_ns ? a->v[i].start_ns
                                                        : b->v[j].start_ns;
        int64_t e =
            a->v[i].end_ns < b->v[j].end_ns ? a->v[i].end_ns : b->v[j].end_ns;

        /* A zero-length overlap is no time; emitting it would only add an
         * empty piece. */
        if (s < e && pr_ranges_push(out, s, e, err) != PR_OK)
            return PR_E_NOMEM;
        if (a->v[i].end_ns < b->v[j].end_ns)
            i++;
        else
            j++;
    }
    return PR_OK;
}

enum pr_status
pr_ranges_subtract(const struct pr_ranges *a, const struct pr_ranges *b,
                   struct pr_ranges *out, struct pr_error *err)
{
    size_t i, j = 0;

    out->n = 0;
    for (i = 0; i < a->n; i++) {
        int64_t s = a->v[i].start_ns, e = a->v[i].end_ns;

        while (j < b->n && b->v[j].end_ns <= s)
            j++;
        /* Cut every piece of b that starts inside [s, e) out of it. */
        while (j < b->n && b->v[j].start_ns < e) {
            if (b->v[j].start_ns > s &&
                pr_ranges_push(out, s, b->v[j].start_ns, err) != PR_OK)
                return PR_E_NOMEM;
            if (b->v[j].end_ns >= e) {
                s = e;
                break;
            }
            s = b->v[j].end_ns;
            j++;
        }
        if (s < e && pr_ranges_push(out, s, e, err) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

int64_t
pr_ranges_sum(const struct pr_ranges *r)
{
    int64_t sum = 0;
    size_t i;

    for (i = 0; i < r->n; i++)
        sum = pr_sat_add_i64(sum,
                             pr_sat_sub_i64(r->v[i].end_ns, r->v[i].start_ns));
    return sum;
}

/* First piece whose end is after t (binary search over a merged list). */
static size_t
first_ending_after(const struct pr_ranges *r, int64_t t)
{
    size_t lo = 0, hi = r->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (r->v[mid].end_ns <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int64_t
pr_ranges_overlap(const struct pr_ranges *r, int64_t start_ns, int64_t end_ns)
{
    int64_t sum = 0;
    size_t i;

    for (i = first_ending_after(r, start_ns);
         i < r->n && r->v[i].start_ns < end_ns; i++) {
        int64_t s = r->v[i].start_ns > start_ns ? r->v[i].start_ns : start_ns;
        int64_t e = r->v[i].end_ns < end_ns ? r->v[i].end_ns : end_ns;

        if (e > s)
            sum = pr_sat_add_i64(sum, pr_sat_sub_i64(e, s));
    }
    return sum;
}

/* The first of the lists' next boundaries after t, at most end_ns; at[c]
 * is each list's first range ending after t. */
static int64_t
next_boundary(const struct pr_ranges *const *lists, size_t n, size_t *at,
              int64_t t, int64_t end_ns, size_t *top)
{
    int64_t next = end_ns;
    size_t c;

    *top = n;
    for (c = 0; c < n; c++) {
        const struct pr_ranges *r = lists[c];
        int64_t b;

        while (at[c] < r->n && r->v[at[c]].end_ns <= t)
            at[c]++;
        if (at[c] == r->n)
            continue;
        b = r->v[at[c]].start_ns <= t ? r->v[at[c]].end_ns
                                      : r->v[at[c]].start_ns;
        if (r->v[at[c]].start_ns <= t && *top == n)
            *top = c;
        if (b < next)
            next = b;
    }
    return next;
}

void
pr_ranges_split(const struct pr_ranges *const *lists, size_t n,
                int64_t start_ns, int64_t end_ns, int64_t *out)
{
    size_t at[PR_RANGES_SPLIT_MAX], c, top;
    int64_t t = start_ns, next;

    for (c = 0; c <= n; c++)
        out[c] = 0;
    if (n > PR_RANGES_SPLIT_MAX)
        return;
    for (c = 0; c < n; c++)
        at[c] = first_ending_after(lists[c], start_ns);
    while (t < end_ns) {
        next = next_boundary(lists, n, at, t, end_ns, &top);
        out[top] = pr_sat_add_i64(out[top], pr_sat_sub_i64(next, t));
        t = next;
    }
}
