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

/* The priority split by hand: over [0,20) list 0 = [2,6) [10,12), list 1
 * = [4,8) [11,15), list 2 = [0,3) [7,7) [14,18).  0 takes 4+2 = 6; 1 takes
 * [6,8) and [12,15) = 5; 2 takes [0,2) and [15,18) = 5; none covers
 * [8,10) and [18,20) = 4.  A span with end <= start is all zero. */
static void
test_split(void **state)
{
    struct pr_ranges r[3] = {{0}, {0}, {0}};
    const struct pr_ranges *lists[3] = {&r[0], &r[1], &r[2]};
    const int64_t a[] = {2, 6, 10, 12}, b[] = {4, 8, 11, 15},
                  c[] = {0, 3, 7, 7, 14, 18};
    int64_t out[4];
    size_t i;

    (void)state;
    push_all(&r[0], a, 4);
    push_all(&r[1], b, 4);
    push_all(&r[2], c, 6);
    pr_ranges_split(lists, 3, 0, 20, out);
    assert_int_equal(out[0], 6);
    assert_int_equal(out[1], 5);
    assert_int_equal(out[2], 5);
    assert_int_equal(out[3], 4);
    pr_ranges_split(lists, 3, 5, 13, out); /* [5,6) [10,12); [6,8) [12,13) */
    assert_int_equal(out[0], 3);
    assert_int_equal(out[1], 3);
    assert_int_equal(out[2], 0);
    assert_int_equal(out[3], 2);
    pr_ranges_split(lists, 3, 9, 9, out);
    for (i = 0; i < 4; i++)
        assert_int_equal(out[i], 0);
    for (i = 0; i < 3; i++)
        pr_ranges_free(&r[i]);
}

/* The split equals the 7.1 walk it replaced: intersect the time still free
 * with each list, subtract, go on; pseudo-random merged lists. */
static void
test_split_matches_walk(void **state)
{
    struct pr_ranges r[4] = {{0}, {0}, {0}, {0}}, slots = {0}, cost = {0},
                     rest = {0}, tmp;
    const struct pr_ranges *lists[4] = {&r[0], &r[1], &r[2], &r[3]};
    uint64_t x = 12345;
    int64_t out[5], walk;
    size_t i, c;

    (void)state;
    for (c = 0; c < 4; c++) {
        for (i = 0; i < 200; i++) {
            int64_t s, len;

            x = x * 6364136223846793005u + 1442695040888963407u;
            s = (int64_t)((x >> 33) % 10000);
            len = (int64_t)((x >> 17) % 97);
            assert_int_equal(pr_ranges_push(&r[c], s, s + len, NULL), PR_OK);
        }
        pr_ranges_merge(&r[c]);
    }
    assert_int_equal(pr_ranges_push(&slots, 1234, 8765, NULL), PR_OK);
    pr_ranges_split(lists, 4, 1234, 8765, out);
    for (c = 0; c <= 4; c++) {
        assert_int_equal(
            pr_ranges_intersect(&slots, c < 4 ? &r[c] : &slots, &cost, NULL),
            PR_OK);
        walk = pr_ranges_overlap(&cost, 1234, 8765);
        assert_int_equal(out[c], walk);
        assert_int_equal(pr_ranges_subtract(&slots, &cost, &rest, NULL), PR_OK);
        tmp = slots;
        slots = rest;
        rest = tmp;
    }
    for (c = 0; c < 4; c++)
        pr_ranges_free(&r[c]);
    pr_ranges_free(&slots);
    pr_ranges_free(&cost);
    pr_ranges_free(&rest);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_push_merging),
        cmocka_unit_test(test_intersect),
        cmocka_unit_test(test_subtract),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_split_matches_walk),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
