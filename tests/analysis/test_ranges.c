/* test_ranges.c - the range algebra of Appendix A on hand-made lists. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "profreport/ranges.h"

static void
push_all(struct pr_ranges *r, const int64_t *v, size_t n)
{
    size_t i;

    for (i = 0; i + 1 < n; i += 2)
        assert_int_equal(pr_ranges_push(r, v[i], v[i + 1], NULL), PR_OK);
}

static void
expect(const struct pr_ranges *r, const int64_t *v, size_t n)
{
    size_t i;

    assert_int_equal(r->n, n / 2);
    for (i = 0; i < r->n; i++) {
        assert_int_equal(r->v[i].start_ns, v[2 * i]);
        assert_int_equal(r->v[i].end_ns, v[2 * i + 1]);
    }
}

/* A.1: unsorted input; [1,3) absorbs [2,3); touching [3,5) joins; [7,7)
 * past the end stays a piece; [6,9) then swallows it. */
static void
test_merge(void **state)
{
    struct pr_ranges r = {0};
    const int64_t in[] = {3, 5, 1, 3, 2, 3, 10, 12, 7, 7, 6, 9};
    const int64_t out[] = {1, 5, 6, 9, 10, 12};

    (void)state;
    push_all(&r, in, 12);
    pr_ranges_merge(&r);
    expect(&r, out, 6);
    assert_int_equal(pr_ranges_sum(&r), 4 + 3 + 2);
    pr_ranges_free(&r);
}

/* A.2: [0,10) [20,30) ∩ [5,25) = [5,10) [20,25). */
/* Pushed in start order, the list is merged as it grows (one range for
 * a run of overlapping and touching pieces, an instant inside the last
 * range absorbed); in any order, a merge afterwards gives what plain
 * pushes and a merge give. */
static void
test_push_merging(void **state)
{
    struct pr_ranges r = {0}, plain = {0};
    const int64_t sorted[] = {1, 3, 2, 6, 6, 7, 7, 7, 9, 10, 9, 9, 12, 13};
    const int64_t merged[] = {1, 7, 9, 10, 12, 13};
    const int64_t shuffled[] = {6, 9, 1, 3, 2, 3, 3, 5, 10, 12, 7, 7};
    size_t i;

    (void)state;
    for (i = 0; i + 1 < sizeof(sorted) / sizeof(sorted[0]); i += 2)
        assert_int_equal(
            pr_ranges_push_merging(&r, sorted[i], sorted[i + 1], NULL), PR_OK);
    expect(&r, merged, sizeof(merged) / sizeof(merged[0]));
    pr_ranges_free(&r);
    for (i = 0; i + 1 < sizeof(shuffled) / sizeof(shuffled[0]); i += 2)
        assert_int_equal(
            pr_ranges_push_merging(&r, shuffled[i], shuffled[i + 1], NULL),
            PR_OK);
    push_all(&plain, shuffled, sizeof(shuffled) / sizeof(shuffled[0]));
    pr_ranges_merge(&r);
    pr_ranges_merge(&plain);
    assert_int_equal(r.n, plain.n);
    for (i = 0; i < r.n; i++) {
        assert_int_equal(r.v[i].start_ns, plain.v[i].start_ns);
        assert_int_equal(r.v[i].end_ns, plain.v[i].end_ns);
    }
    pr_ranges_free(&r);
    pr_ranges_free(&plain);
}

static void
test_intersect(void **state)
{
    struct pr_ranges a = {0}, b = {0}, o = {0};
    const int64_t va[] = {0, 10, 20, 30}, vb[] = {5, 25};
    const int64_t out[] = {5, 10, 20, 25};

    (void)state;
    push_all(&a, va, 4);
    push_all(&b, vb, 2);
    assert_int_equal(pr_ranges_intersect(&a, &b, &o, NULL), PR_OK);
    expect(&o, out, 4);
    pr_ranges_free(&a);
    pr_ranges_free(&b);
    pr_ranges_free(&o);
}

/* A.3: [0,100) minus [10,20) [30,40) [90,120) = [0,10) [20,30) [40,90). */
static void
test_subtract(void **state)
{
    struct pr_ranges a = {0}, b = {0}, o = {0};
    const int64_t va[] = {0, 100}, vb[] = {10, 20, 30, 40, 90, 120};
    const int64_t out[] = {0, 10, 20, 30, 40, 90};

    (void)state;
    push_all(&a, va, 2);
    push_all(&b, vb, 6);
    assert_int_equal(pr_ranges_subtract(&a, &b, &o, NULL), PR_OK);
    expect(&o, out, 6);
    /* Subtracting the cover leaves nothing. */
    assert_int_equal(pr_ranges_subtract(&a, &a, &o, NULL), PR_OK);
    assert_int_equal(o.n, 0);
    pr_ranges_free(&a);
    pr_ranges_free(&b);
    pr_ranges_free(&o);
}

/* Overlap of [0,10) [20,30) with [5,25): 5 + 5 = 10; with [30,40): 0. */
static void
test_overlap(void **state)
{
    struct pr_ranges a = {0};
    const int64_t va[] = {0, 10, 20, 30};

    (void)state;
    push_all(&a, va, 4);
    assert_int_equal(pr_ranges_overlap(&a, 5, 25), 10);
    assert_int_equal(pr_ranges_overlap(&a, 30, 40), 0);
    assert_int_equal(pr_ranges_overlap(&a, -5, 100), 20);
    pr_ranges_free(&a);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge),     cmocka_unit_test(test_push_merging),
        cmocka_unit_test(test_intersect), cmocka_unit_test(test_subtract),
        cmocka_unit_test(test_overlap),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
