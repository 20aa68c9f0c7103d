/* test_tree.c - op tree rules of spec sections 4-5, one small trace each;
 * expected numbers are worked out in the comments (times in µs). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "profreport/tree.h"

#include "testtrace.h"

static const struct pr_tree_node *
find(const struct pr_trace *t, const struct pr_tree *tr, const char *name,
     int nth)
{
    size_t i;

    for (i = 0; i < tr->n_nodes; i++) {
        if (strcmp(pr_trace_str(t, tr->nodes[i].name), name) == 0 && nth-- == 0)
            return &tr->nodes[i];
    }
    fail_msg("no node %s", name);
    return NULL;
}

static void
build(struct pr_trace *t, struct pr_tree *tr)
{
    struct pr_error err = {0};

    pr_trace_finish(t);
    assert_int_equal(pr_tree_build(t, tr, &err), PR_OK);
}

/* conv2d [0,100) ext 1 holds cudnn_convolution [10,60) ext 2.
 * Runtimes: [20,25) corr 11 ext 2; [60,62) corr 13 ext 2 (taken by ext id,
 * not time); [70,75) corr 12 ext 1.  Kernels: h884 [30,70) corr 11 (tensor
 * cores); k3 [55,60) corr 13 arrives before its runtime (pending list);
 * elementwise [80,90) corr 12.
 *   cudnn: host self = 50 - 5 - 2 = 43; device self = 40 + 5 = 45; tc 40.
 *   conv2d: host self = 100 - 50 - 5 = 45; device self 10, total 55; tc
 *   total 40, tc self 0. */
static void
test_link_and_self_time(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_tree tr;
    const struct pr_tree_node *a, *b;

    (void)state;
    tt_op(t, "aten::conv2d", 0, 100, 1);
    tt_op(t, "aten::cudnn_convolution", 10, 50, 2);
    tt_rt(t, "cudaLaunchKernel", 20, 5, 11, 2);
    tt_kernel(t, "volta_h884gemm", 30, 40, 11);
    tt_kernel(t, "k3", 55, 5, 13);
    tt_rt(t, "cudaLaunchKernel", 60, 2, 13, 2);
    tt_rt(t, "cudaLaunchKernel", 70, 5, 12, 1);
    tt_kernel(t, "elementwise", 80, 10, 12);
    build(t, &tr);
    a = find(t, &tr, "aten::conv2d", 0);
    b = find(t, &tr, "aten::cudnn_convolution", 0);
    assert_int_equal(a->n_kids, 1);
    assert_int_equal(b->n_rts, 2);
    assert_int_equal(b->host_self_ns, 43000);
    assert_int_equal(b->device_self_ns, 45000);
    assert_int_equal(b->device_total_ns, 45000);
    assert_int_equal(b->tc_self_ns, 40000);
    assert_int_equal(a->host_total_ns, 100000);
    assert_int_equal(a->host_self_ns, 45000);
    assert_int_equal(a->device_self_ns, 10000);
    assert_int_equal(a->device_total_ns, 55000);
    assert_int_equal(a->tc_total_ns, 40000);
    assert_int_equal(a->tc_self_ns, 0);
    assert_true(a->is_operator && b->is_operator);
    pr_tree_free(&tr);
    pr_trace_free(t);
}

/* The first host node (tid order, then time) with an external id takes
 * all its runtimes: two ops share ext 7, the earlier one gets both. */
static void
test_first_node_takes_runtimes(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_tree tr;

    (void)state;
    tt_op(t, "aten::a", 0, 10, 7);
    tt_rt(t, "cudaLaunchKernel", 1, 1, 1, 7);
    tt_op(t, "aten::b", 20, 10, 7);
    tt_rt(t, "cudaLaunchKernel", 21, 1, 2, 7);
    tt_kernel(t, "k", 40, 3, 1);
    tt_kernel(t, "k", 50, 4, 2);
    build(t, &tr);
    assert_int_equal(find(t, &tr, "aten::a", 0)->n_rts, 2);
    assert_int_equal(find(t, &tr, "aten::a", 0)->device_self_ns, 7000);
    assert_int_equal(find(t, &tr, "aten::b", 0)->n_rts, 0);
    pr_tree_free(&tr);
    pr_trace_free(t);
}

/* Zero runtimes go to the thread root; a kernel without runtime (corr 99)
 * goes to the main thread's root through the dummy runtime; neither is
 * any operator's device time. */
static void
test_zero_runtime_and_staled(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_tree tr;
    const struct pr_tree_node *root;
    size_t i, kernels_under_root = 0;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 100, 3);
    tt_op(t, "aten::x", 10, 10, 4);
    tt_rt(t, "cudaDeviceSynchronize", 30, 5, 50, 0);
    tt_kernel(t, "kzero", 31, 2, 50);
    tt_kernel(t, "kstale", 40, 6, 99);
    build(t, &tr);
    assert_int_equal(tr.n_roots, 1);
    root = &tr.nodes[tr.roots[0]];
    assert_int_equal(root->n_rts, 2); /* zero runtime, then dummy */
    for (i = 0; i < root->n_rts; i++)
        kernels_under_root += tr.rts[root->rts[i]].n_dev;
    assert_int_equal(kernels_under_root, 2);
    assert_int_equal(root->device_self_ns, 8000);
    assert_int_equal(find(t, &tr, "aten::x", 0)->device_total_ns, 0);
    assert_int_equal(find(t, &tr, "ProfilerStep#1", 0)->device_total_ns, 0);
    pr_tree_free(&tr);
    pr_trace_free(t);
}

/* aten::add [0,10) ext 5 with one child aten::add [1,9) ext 6: collapsed
 * into one node that keeps both runtimes ([0.5,1.5) -> 3 µs kernel and
 * [2,3) -> 4 µs kernel): device self 7, host self 10 - 1 - 1 = 8. */
static void
test_duplicate_collapse(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_tree tr;
    const struct pr_tree_node *a;
    size_t i, ops = 0;

    (void)state;
    tt_op(t, "aten::add", 0, 10, 5);
    tt_rt(t, "cudaLaunchKernel", 0.5, 1, 21, 5);
    tt_op(t, "aten::add", 1, 8, 6);
    tt_rt(t, "cudaLaunchKernel", 2, 1, 22, 6);
    tt_kernel(t, "k1", 20, 3, 21);
    tt_kernel(t, "k2", 30, 4, 22);
    build(t, &tr);
    for (i = 0; i < tr.n_post; i++)
        ops += tr.nodes[tr.post[i]].is_operator;
    assert_int_equal(ops, 1);
    a = find(t, &tr, "aten::add", 0);
    assert_int_equal(a->n_kids, 0);
    assert_int_equal(a->device_self_ns, 7000);
    assert_int_equal(a->host_self_ns, 8000);
    assert_int_equal(a->host_total_ns, 10000);
    pr_tree_free(&tr);
    pr_trace_free(t);
}

/* x [0,10), y [5,15) overlaps x partially and is dropped; z [6,8) would
 * have nested in y and becomes x's child.  Equal intervals nest: w1 and
 * w2 both [20,30), w1 first in trace order is the parent. */
static void
test_partial_overlap_dropped(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_tree tr;
    const struct pr_tree_node *x, *w1;

    (void)state;
    tt_op(t, "x", 0, 10, 1);
    tt_op(t, "y", 5, 10, 2);
    tt_op(t, "z", 6, 2, 3);
    tt_op(t, "w1", 20, 10, 4);
    tt_op(t, "w2", 20, 10, 5);
    build(t, &tr);
    x = find(t, &tr, "x", 0);
    assert_true(find(t, &tr, "y", 0)->dropped);
    assert_int_equal(x->n_kids, 1);
    assert_string_equal(pr_trace_str(t, tr.nodes[x->kids[0]].name), "z");
    assert_int_equal(x->host_self_ns, 8000);
    w1 = find(t, &tr, "w1", 0);
    assert_int_equal(w1->n_kids, 1);
    assert_string_equal(pr_trace_str(t, tr.nodes[w1->kids[0]].name), "w2");
    pr_tree_free(&tr);
    pr_trace_free(t);
}

/* 10.2 + 5.2: aten::foo (not listed) launching an h1688 kernel becomes
 * eligible; aten::wrap around aten::mm becomes eligible; a ProfilerStep
 * around them does not (not an Operator-type node). */
static void
test_tc_propagation(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_tree tr;

    (void)state;
    tt_op(t, "ProfilerStep#3", 0, 100, 1);
    tt_op(t, "aten::foo", 10, 10, 2);
    tt_rt(t, "cudaLaunchKernel", 11, 1, 31, 2);
    tt_op(t, "aten::wrap", 30, 20, 3);
    tt_op(t, "aten::mm", 31, 10, 4);
    tt_op(t, "aten::relu", 60, 5, 5);
    tt_kernel(t, "turing_h1688gemm", 12, 5, 31);
    build(t, &tr);
    assert_true(find(t, &tr, "aten::foo", 0)->tc_eligible);
    assert_true(find(t, &tr, "aten::wrap", 0)->tc_eligible);
    assert_true(find(t, &tr, "aten::mm", 0)->tc_eligible);
    assert_false(find(t, &tr, "aten::relu", 0)->tc_eligible);
    assert_false(find(t, &tr, "ProfilerStep#3", 0)->tc_eligible);
    assert_false(find(t, &tr, "ProfilerStep#3", 0)->is_operator);
    pr_tree_free(&tr);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_and_self_time),
        cmocka_unit_test(test_first_node_takes_runtimes),
        cmocka_unit_test(test_zero_runtime_and_staled),
        cmocka_unit_test(test_duplicate_collapse),
        cmocka_unit_test(test_partial_overlap_dropped),
        cmocka_unit_test(test_tc_propagation),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
