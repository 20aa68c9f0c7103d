/* evsort.c - the events into time order (evsort.h).  Sorting the 40-byte
 * events themselves moved each one about 20 times; instead 16-byte keys
 * (start, file index, position) are merge-sorted and the events moved
 * into key order once, in place.  The keys are all distinct (the position
 * breaks every tie), so any merge order gives the same result: with two
 * threads each sorts one half, then the halves are merged.  A merge
 * copies its left half out and merges back in place, so the scratch is
 * half the keys (8 bytes an event): at the sort, the run's memory is the
 * model's plus 24 bytes an event, as with qsort() before. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/evsort.h"
#include "profreport/task.h"

/* An event's sort key and where it sits before the sort. */
struct key {
    int64_t ts;
    uint32_t order;
    uint32_t at;
};

/* Below this many keys a merge costs more than an insertion sort. */
#define SMALL 16

static inline int
key_lt(const struct key *x, const struct key *y)
{
    if (x->ts != y->ts)
        return x->ts < y->ts;
    if (x->order != y->order)
        return x->order < y->order;
    return x->at < y->at;
}

static void
insertion(struct key *a, size_t n)
{
    size_t i, j;

    for (i = 1; i < n; i++) {
        struct key v = a[i];

        for (j = i; j > 0 && key_lt(&v, &a[j - 1]); j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

/* Merge a[0..h), copied to tmp first, with a[h..n) into a[0..n).  The
 * write position never passes the read position in a[h..n), so half the
 * keys' room is all the scratch a merge needs. */
static void
merge_half(struct key *a, size_t h, size_t n, struct key *tmp)
{
    size_t i = 0, j = h, k = 0;

    memcpy(tmp, a, h * sizeof(*a));
    while (i < h && j < n) {
        if (key_lt(&a[j], &tmp[i]))
            a[k++] = a[j++];
        else
            a[k++] = tmp[i++];
    }
    if (i < h)
        memcpy(&a[k], &tmp[i], (h - i) * sizeof(*a));
}

/* Sort a[0..n) with room for (n + 1) / 2 keys in tmp. */
static void
sort_rec(struct key *a, size_t n, struct key *tmp)
{
    size_t h = n / 2;

    if (n <= SMALL) {
        insertion(a, n);
        return;
    }
    sort_rec(a, h, tmp);
    sort_rec(a + h, n - h, tmp);
    if (key_lt(&a[h], &a[h - 1])) /* else already in order */
        merge_half(a, h, n, tmp);
}

/* The keys split in two halves, each with its own share of the scratch,
 * for two threads. */
struct split {
    struct key *k, *tmp;
    size_t n, h;
};

static void
sort_upper(void *arg)
{
    struct split *s = arg;

    sort_rec(s->k + s->h, s->n - s->h, s->tmp + (s->h + 1) / 2);
}

/* Sort k[0..n) in place with room for n / 2 + 1 keys in tmp: each half
 * sorted on a thread of its own, then merged on this one. */
static void
sort_keys(struct key *k, struct key *tmp, size_t n, int threads)
{
    struct split s = {k, tmp, n, n / 2};
    struct pr_task t;

    if (threads < 2 || n < 4096) {
        sort_rec(k, n, tmp);
        return;
    }
    pr_task_start(&t, threads, sort_upper, &s);
    sort_rec(k, s.h, tmp);
    pr_task_join(&t);
    if (key_lt(&k[s.h], &k[s.h - 1]))
        merge_half(k, s.h, n, tmp);
}

/* Move events into key order in place, one cycle of the permutation at a
 * time; each finished slot is marked by pointing its key at itself. */
static void
permute(struct pr_event *ev, struct key *k, size_t n)
{
    size_t i, j, src;

    for (i = 0; i < n; i++) {
        struct pr_event tmp;

        if (k[i].at == i)
            continue;
        tmp = ev[i];
        for (j = i; k[j].at != i; j = src) {
            src = k[j].at;
            ev[j] = ev[src];
            k[j].at = (uint32_t)j;
        }
        ev[j] = tmp;
        k[j].at = (uint32_t)j;
    }
}

int
pr_event_cmp(const void *a, const void *b)
{
    const struct pr_event *x = a, *y = b;

    if (x->ts_ns != y->ts_ns)
        return x->ts_ns < y->ts_ns ? -1 : 1;
    return x->order < y->order ? -1 : (x->order > y->order);
}

void
pr_events_sort(struct pr_event *ev, size_t n, int threads)
{
    struct key *k = NULL, *tmp = NULL;
    size_t i;

    if (n < UINT32_MAX) {
        k = malloc((n ? n : 1) * sizeof(*k));
        tmp = malloc((n / 2 + 1) * sizeof(*tmp));
    }
    if (k == NULL || tmp == NULL) {
        /* no room for the keys: sort the events themselves */
        free(k);
        free(tmp);
        qsort(ev, n, sizeof(*ev), pr_event_cmp);
        return;
    }
    for (i = 0; i < n; i++) {
        k[i].ts = ev[i].ts_ns;
        k[i].order = ev[i].order;
        k[i].at = (uint32_t)i;
    }
    sort_keys(k, tmp, n, threads);
    free(tmp);
    permute(ev, k, n);
    free(k);
}
