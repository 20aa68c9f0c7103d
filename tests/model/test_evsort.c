/* test_evsort.c - the event sort against a reference (qsort by start,
 * file index and position): many ties, already sorted and reversed input,
 * sizes around the insertion-sort cut and the two-thread split, and the
 * same result with one thread and with two. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/evsort.h"

/* A tiny deterministic generator (xorshift), so a failure reproduces. */
static uint64_t
next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Events whose starts take `spread` values (few: many ties), file indexes
 * `orders` values; dur_ns records each one's position before the sort. */
static struct pr_event *
make(size_t n, uint64_t spread, uint64_t orders, uint64_t seed)
{
    struct pr_event *ev = calloc(n ? n : 1, sizeof(*ev));
    size_t i;

    assert_non_null(ev);
    for (i = 0; i < n; i++) {
        ev[i].ts_ns = (int64_t)(next(&seed) % spread) - 5;
        ev[i].order = (unsigned)(next(&seed) % orders);
        ev[i].dur_ns = (int64_t)i;
    }
    return ev;
}

static int
cmp_ref(const void *a, const void *b)
{
    const struct pr_event *x = a, *y = b;

    if (x->ts_ns != y->ts_ns)
        return x->ts_ns < y->ts_ns ? -1 : 1;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->dur_ns < y->dur_ns ? -1 : (x->dur_ns > y->dur_ns);
}

/* Sort a copy with `threads` and compare it with the reference. */
static void
check(const struct pr_event *ev, size_t n, int threads)
{
    struct pr_event *got = malloc((n ? n : 1) * sizeof(*got));
    struct pr_event *want = malloc((n ? n : 1) * sizeof(*want));

    assert_non_null(got);
    assert_non_null(want);
    if (n > 0) {
        memcpy(got, ev, n * sizeof(*ev));
        memcpy(want, ev, n * sizeof(*ev));
    }
    qsort(want, n, sizeof(*want), cmp_ref);
    pr_events_sort(got, n, threads);
    if (n > 0)
        assert_memory_equal(got, want, n * sizeof(*got));
    free(got);
    free(want);
}

static void
test_sizes(void **state)
{
    static const size_t sizes[] = {0,  1,   2,    15,   16,   17,
                                   33, 100, 4095, 4096, 4097, 70001};
    size_t i;
    int threads;

    (void)state;
    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        struct pr_event *ev = make(sizes[i], 1000, 7, 0x9e3779b97f4a7c15u + i);

        for (threads = 1; threads <= 3; threads++)
            check(ev, sizes[i], threads);
        free(ev);
    }
}

/* Equal starts and file indexes everywhere: only the positions decide,
 * so the sort must keep the array order (stable). */
static void
test_all_ties(void **state)
{
    struct pr_event *ev = make(50000, 1, 1, 42);
    size_t i;

    (void)state;
    pr_events_sort(ev, 50000, 2);
    for (i = 0; i < 50000; i++)
        assert_int_equal(ev[i].dur_ns, (int64_t)i);
    free(ev);
}

/* Sorted and reversed input, and starts spread wide (no ties). */
static void
test_orders(void **state)
{
    struct pr_event *ev = make(30000, UINT64_MAX / 4, 1u << 27, 7);
    size_t i;

    (void)state;
    check(ev, 30000, 2);
    qsort(ev, 30000, sizeof(*ev), cmp_ref);
    check(ev, 30000, 2);
    for (i = 0; i < 15000; i++) {
        struct pr_event x = ev[i];

        ev[i] = ev[29999 - i];
        ev[29999 - i] = x;
    }
    check(ev, 30000, 1);
    check(ev, 30000, 2);
    free(ev);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_all_ties),
        cmocka_unit_test(test_orders),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
