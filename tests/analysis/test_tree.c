/* test_tree.c - op tree rules of spec sections 4-5, one small trace each;
 * expected numbers are worked out in the comments (times in µs). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "profreport/ops.h"
#include "profreport/tree.h"

#include "testtrace.h"

static const struct pr_tree_node *
find(const struct pr_trace *t, const struct pr_tree *tr, const char *name,
     int nth)
{
    size_t i;

    for (i = 0; i < tr->n_nodes; i++) {
        if (strcmp(pr_trace_str(t, pr_tree_name(t, tr, &tr->nodes[i])), name) ==
                0 &&
            nth-- == 0)
            return &tr->nodes[i];
    }
    fail_msg("no node %s", name);
    return NULL;
}

/* The tensor-core total of the operators table's row `name`: a node's
 * is not stored but summed by ops.c's walk over the tree. */
static int64_t
op_tc_total(const struct pr_trace *t, const struct pr_tree *tr,
            const char *name)
{
    struct pr_ops ops;
    struct pr_error err = {0};
    int64_t tc = -1;
    size_t i;

    assert_int_equal(pr_ops_collect(t, tr, &ops, &err), PR_OK);
    for (i = 0; i < ops.by_name.n; i++)
        if (strcmp(ops.by_name.v[i].name, name) == 0)
            tc = ops.by_name.v[i].tc_total_ns;
    pr_ops_free(&ops);
    return tc;
}

/* Child and runtime counts are not stored but read from the slices in
 * node order: every kept node is the child of its parent exactly once,
 * every runtime's node lists it, and the slices cover the index arrays. */
static void
check_slices(const struct pr_tree *tr)
{
    size_t i, kids = 0, rts = 0, kept = 0;
    uint32_t k;

    for (i = 0; i < tr->n_nodes; i++) {
        const struct pr_tree_node *n = &tr->nodes[i];

        assert_int_equal(n->kid0, kids);
        if (pr_tree_n_rts(tr, n) > 0)
            assert_int_equal(pr_tree_rts(tr, n) - tr->rt_idx, rts);
        kids += pr_tree_n_kids(tr, n);
        rts += pr_tree_n_rts(tr, n);
        kept += n->parent != PR_TREE_NONE && !n->dropped;
        for (k = 0; k < pr_tree_n_kids(tr, n); k++)
            assert_int_equal(tr->nodes[pr_tree_kids(tr, n)[k]].parent, i);
        for (k = 0; k < pr_tree_n_rts(tr, n); k++)
            assert_int_equal(tr->rts[pr_tree_rts(tr, n)[k]].node, i);
    }
    assert_int_equal(kids, tr->n_kid_idx);
    assert_int_equal(kids, kept);
    assert_int_equal(rts, tr->n_rt_idx);
}

/* The walks: post-order meets every kept node and root once, each after
 * its children in their order; the reverse walk is that order backwards. */
static void
check_walks(const struct pr_tree *tr)
{
    uint32_t *seen = test_calloc(tr->n_nodes + 1, sizeof(*seen));
    uint32_t *order = test_calloc(tr->n_nodes + 1, sizeof(*order));
    struct pr_tree_walk w;
    size_t n = 0, i, k;
    uint32_t ni;

    assert_int_equal(pr_tree_walk_init(&w, tr, 0, NULL), PR_OK);
    while ((ni = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
        const struct pr_tree_node *nd = &tr->nodes[ni];

        assert_true(ni < tr->n_nodes && n < tr->n_nodes);
        assert_int_equal(seen[ni], 0);
        for (k = 0; k < pr_tree_n_kids(tr, nd); k++) {
            uint32_t kid = pr_tree_kids(tr, nd)[k];

            assert_true(seen[kid] > 0);
            if (k > 0)
                assert_true(seen[kid] > seen[pr_tree_kids(tr, nd)[k - 1]]);
        }
        order[n++] = ni;
        seen[ni] = (uint32_t)n;
    }
    pr_tree_walk_free(&w);
    assert_int_equal(n, tr->n_post);
    for (i = 0; i < tr->n_nodes; i++)
        assert_int_equal(seen[i] > 0,
                         !tr->nodes[i].dropped &&
                             (tr->nodes[i].parent != PR_TREE_NONE ||
                              tr->nodes[i].type == PR_N_ROOT));
    assert_int_equal(pr_tree_walk_init(&w, tr, 1, NULL), PR_OK);
    for (i = n; i > 0; i--)
        assert_int_equal(pr_tree_walk_next(&w), order[i - 1]);
    assert_int_equal(pr_tree_walk_next(&w), PR_TREE_NONE);
    pr_tree_walk_free(&w);
    test_free(seen);
    test_free(order);
}

static void
build(struct pr_trace *t, struct pr_tree *tr)
{
    struct pr_error err = {0};

    pr_trace_finish(t);
    assert_int_equal(pr_tree_build(t, tr, &err), PR_OK);
    /* 24 bytes on LP64, where the 4M nodes of a 3 GB trace weigh */
    if (sizeof(void *) == 8)
        assert_int_equal(sizeof(struct pr_tree_node), 24);
    assert_int_equal(sizeof(struct pr_tree_dev), 12);
    assert_int_equal(sizeof(struct pr_tree_rt), 16);
    check_slices(tr);
    check_walks(tr);
}

/* conv2d [0,100) ext 1 holds cudnn_convolution [10,60) ext 2.
 * Runtimes: [20,25) corr 11 ext 2; [60,62) corr 13 ext 2 lies outside
 * cudnn, but its id names cudnn, which takes it (4.4, the plugin's rule);
 * [70,75) corr 12 ext 1.  Kernels: h884 [30,70) corr 11 (tensor cores);
 * k3 [55,60) corr 13 arrives before its runtime (pending list);
 * elementwise [80,90) corr 12.
 *   cudnn: host self = 50 - 5 - 2 = 43; device self = 40 + 5 = 45; tc 40.
 *   conv2d: host self = 100 - 50 - 5 = 45; device self 10, total 55;
 *   tc total 40, tc self 0. */
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
    assert_int_equal(pr_tree_n_kids(&tr, a), 1);
    assert_int_equal(pr_tree_n_rts(&tr, b), 2);
    assert_int_equal(pr_tree_n_rts(&tr, a), 1);
    assert_int_equal(pr_tree_host_self(t, &tr, b), 43000);
    assert_int_equal(pr_tree_device_self(t, &tr, b), 45000);
    assert_int_equal(b->device_total_ns, 45000);
    assert_int_equal(pr_tree_tc_self(t, &tr, b), 40000);
    assert_int_equal(pr_tree_host_total(t, a), 100000);
    assert_int_equal(pr_tree_host_self(t, &tr, a), 45000);
    assert_int_equal(pr_tree_device_self(t, &tr, a), 10000);
    assert_int_equal(a->device_total_ns, 55000);
    assert_int_equal(op_tc_total(t, &tr, "aten::conv2d"), 40000);
    assert_int_equal(pr_tree_tc_self(t, &tr, a), 0);
    assert_true(a->is_operator && b->is_operator);
    assert_int_equal(tr.n_rt_by_id, 3);
    assert_int_equal(tr.n_rt_by_time, 0);
    pr_tree_free(&tr);
    pr_trace_free(t);
}

/* Two ops share ext 7.  The first takes every runtime of its id, the one
 * inside the second op too (4.4: the first host node with an id claims
 * it, as the plugin does). */
static void
test_first_node_takes_runtimes(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_tree tr;

    (void)state;
    tt_op(t, "aten::a", 0, 10, 7);
    tt_rt(t, "cudaLaunchKernel", 1, 1, 1, 7);
    tt_rt(t, "cudaLaunchKernel", 2, 1, 3, 7);
    tt_op(t, "aten::b", 20, 10, 7);
    tt_rt(t, "cudaLaunchKernel", 21, 1, 2, 7);
    tt_kernel(t, "k", 40, 3, 1);
    tt_kernel(t, "k", 45, 2, 3);
    tt_kernel(t, "k", 50, 4, 2);
    build(t, &tr);
    assert_int_equal(pr_tree_n_rts(&tr, find(t, &tr, "aten::a", 0)), 3);
    assert_int_equal(pr_tree_device_self(t, &tr, find(t, &tr, "aten::a", 0)),
                     9000);
    assert_int_equal(pr_tree_n_rts(&tr, find(t, &tr, "aten::b", 0)), 0);
    assert_int_equal(pr_tree_device_self(t, &tr, find(t, &tr, "aten::b", 0)),
                     0);
    pr_tree_free(&tr);
    pr_trace_free(t);
}

/* PyTorch 2.x: every runtime's External id equals its own correlation id
 * (hta/call_stack), so no id names an op.  Each launch goes to the deepest
 * op of its thread that contains it:
 *   step [0,100) ext 1 > mm [10,40) ext 2 > addmm [12,30) ext 3;
 *   relu [50,60) ext 4.  Runtimes (corr = ext): 101 at [14,16) -> addmm;
 *   102 at [32,34) -> mm; 103 at [52,53) -> relu; 104 at [70,71) -> the
 *   step (inside no op); 105 on thread 2 at [14,15) -> no node there. */
static void
test_attach_by_time(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_tree tr;
    const struct pr_tree_node *mm, *addmm, *relu, *step;
    struct pr_event *e;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 100, 1);
    tt_op(t, "aten::mm", 10, 30, 2);
    tt_op(t, "aten::addmm", 12, 18, 3);
    tt_op(t, "aten::relu", 50, 10, 4);
    tt_rt(t, "cudaLaunchKernel", 14, 2, 101, 101);
    tt_rt(t, "cudaLaunchKernel", 32, 2, 102, 102);
    tt_rt(t, "cudaLaunchKernel", 52, 1, 103, 103);
    tt_rt(t, "cudaLaunchKernel", 70, 1, 104, 104);
    e = tt_event(t, PR_KIND_RUNTIME_CALL, "cudaLaunchKernel", "2", 14, 1);
    assert_int_equal(pr_event_set_correlation(t, e, 105), PR_OK);
    assert_int_equal(pr_event_set_external_id(t, e, 105), PR_OK);
    tt_kernel(t, "gemm", 20, 8, 101);
    tt_kernel(t, "copy", 40, 2, 102);
    tt_kernel(t, "relu_k", 60, 3, 103);
    tt_kernel(t, "other", 80, 5, 104);
    tt_kernel(t, "thread2", 90, 1, 105);
    build(t, &tr);
    mm = find(t, &tr, "aten::mm", 0);
    addmm = find(t, &tr, "aten::addmm", 0);
    relu = find(t, &tr, "aten::relu", 0);
    step = find(t, &tr, "ProfilerStep#1", 0);
    assert_int_equal(pr_tree_device_self(t, &tr, addmm), 8000);
    assert_int_equal(pr_tree_device_self(t, &tr, mm), 2000);
    assert_int_equal(mm->device_total_ns, 10000);
    assert_int_equal(pr_tree_device_self(t, &tr, relu), 3000);
    assert_int_equal(pr_tree_device_self(t, &tr, step), 5000);
    assert_int_equal(pr_tree_host_self(t, &tr, addmm), 16000);
    assert_int_equal(pr_tree_host_self(t, &tr, mm), 30000 - 18000 - 2000);
    assert_int_equal(tr.n_rt_by_id, 0);
    assert_int_equal(tr.n_rt_by_time, 4);
    pr_tree_free(&tr);
    pr_trace_free(t);
}

/* An id that names an op by coincidence (2.x runtime ids are correlation
 * ids, which collide with op ids) is not trusted: ext 3 names addmm, which
 * lies elsewhere; ext 1 names the step, which contains the runtime but is
 * not the innermost op around it.  Both go to mm by time, and addmm's host
 * self time stays positive. */
static void
test_coincident_id_not_trusted(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_tree tr;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 100, 1);
    tt_op(t, "aten::mm", 10, 30, 2);
    tt_op(t, "aten::addmm", 50, 5, 3);
    tt_rt(t, "cudaLaunchKernel", 14, 20, 3, 3);
    tt_rt(t, "cudaLaunchKernel", 35, 2, 1, 1);
    tt_kernel(t, "gemm", 40, 8, 3);
    tt_kernel(t, "copy", 50, 2, 1);
    build(t, &tr);
    assert_int_equal(pr_tree_device_self(t, &tr, find(t, &tr, "aten::mm", 0)),
                     10000);
    assert_int_equal(
        pr_tree_device_self(t, &tr, find(t, &tr, "aten::addmm", 0)), 0);
    assert_int_equal(pr_tree_host_self(t, &tr, find(t, &tr, "aten::addmm", 0)),
                     5000);
    assert_int_equal(
        pr_tree_device_self(t, &tr, find(t, &tr, "ProfilerStep#1", 0)), 0);
    assert_int_equal(tr.n_rt_by_id, 0);
    assert_int_equal(tr.n_rt_by_time, 2);
    pr_tree_free(&tr);
    pr_trace_free(t);
}

/* Triton/Inductor launch through the driver API (cuda_driver
 * cuLaunchKernel) and CUDA graphs launch many kernels under one
 * correlation id: both are launches.  triton_op [0,10) launches one kernel
 * of 4 µs; graph_replay [20,30) launches three kernels (2 + 3 + 5). */
static void
test_driver_and_graph_launches(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_tree tr;
    struct pr_event *e;

    (void)state;
    tt_op(t, "triton_op", 0, 10, 1);
    e = tt_event(t, PR_KIND_DRIVER_CALL, "cuLaunchKernel", "1", 2, 1);
    assert_int_equal(pr_event_set_correlation(t, e, 7), PR_OK);
    assert_int_equal(pr_event_set_external_id(t, e, 7), PR_OK);
    tt_op(t, "graph_replay", 20, 10, 2);
    tt_rt(t, "cudaGraphLaunch", 22, 3, 8, 8);
    tt_kernel(t, "triton_poi_fused_add_0", 5, 4, 7);
    tt_kernel(t, "k1", 26, 2, 8);
    tt_kernel(t, "k2", 28, 3, 8);
    tt_kernel(t, "k3", 31, 5, 8);
    build(t, &tr);
    assert_int_equal(pr_tree_device_self(t, &tr, find(t, &tr, "triton_op", 0)),
                     4000);
    assert_int_equal(pr_tree_host_self(t, &tr, find(t, &tr, "triton_op", 0)),
                     9000);
    assert_int_equal(
        pr_tree_device_self(t, &tr, find(t, &tr, "graph_replay", 0)), 10000);
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
    assert_int_equal(pr_tree_n_rts(&tr, root),
                     2); /* zero runtime, then dummy */
    for (i = 0; i < pr_tree_n_rts(&tr, root); i++)
        kernels_under_root += tr.rts[pr_tree_rts(&tr, root)[i]].n_dev;
    assert_int_equal(kernels_under_root, 2);
    assert_int_equal(pr_tree_device_self(t, &tr, root), 8000);
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
    for (i = 0; i < tr.n_nodes; i++)
        ops += !tr.nodes[i].dropped && tr.nodes[i].is_operator;
    assert_int_equal(ops, 1);
    a = find(t, &tr, "aten::add", 0);
    assert_int_equal(pr_tree_n_kids(&tr, a), 0);
    assert_int_equal(pr_tree_device_self(t, &tr, a), 7000);
    assert_int_equal(pr_tree_host_self(t, &tr, a), 8000);
    assert_int_equal(pr_tree_host_total(t, a), 10000);
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
    assert_int_equal(pr_tree_n_kids(&tr, x), 1);
    assert_string_equal(
        pr_trace_str(t,
                     pr_tree_name(t, &tr, &tr.nodes[pr_tree_kids(&tr, x)[0]])),
        "z");
    assert_int_equal(pr_tree_host_self(t, &tr, x), 8000);
    w1 = find(t, &tr, "w1", 0);
    assert_int_equal(pr_tree_n_kids(&tr, w1), 1);
    assert_string_equal(
        pr_trace_str(t,
                     pr_tree_name(t, &tr, &tr.nodes[pr_tree_kids(&tr, w1)[0]])),
        "w2");
    pr_tree_free(&tr);
    pr_trace_free(t);
}

/* 10.2 + 5.2: aten::foo (not listed) launching an h1688 kernel becomes
 * eligible; aten::wrap around aten::mm becomes eligible; a ProfilerStep
 * around them does not (not an Operator-type node). */
/* Tensor-core totals summed level by level on the walk: outer [0,100)
 * holds mid [10,50) holding inner [20,30) (a 5 µs tensor-core kernel)
 * and mid2 [60,80) (7 µs); other [200,210) on its own (3 µs).  outer 12,
 * mid 5, inner 5, mid2 7, other 3: a finished subtree's sum does not leak
 * into its next sibling's. */
static void
test_tc_totals_by_level(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_tree tr;

    (void)state;
    tt_op(t, "aten::outer", 0, 100, 1);
    tt_op(t, "aten::mid", 10, 40, 2);
    tt_op(t, "aten::inner", 20, 10, 3);
    tt_rt(t, "cudaLaunchKernel", 21, 1, 41, 3);
    tt_op(t, "aten::mid2", 60, 20, 4);
    tt_rt(t, "cudaLaunchKernel", 61, 1, 42, 4);
    tt_op(t, "aten::other", 200, 10, 5);
    tt_rt(t, "cudaLaunchKernel", 201, 1, 43, 5);
    tt_kernel(t, "turing_h1688gemm", 22, 5, 41);
    tt_kernel(t, "turing_h1688gemm", 62, 7, 42);
    tt_kernel(t, "turing_h1688gemm", 202, 3, 43);
    build(t, &tr);
    assert_int_equal(tr.depth, 4); /* root, outer, mid, inner */
    assert_int_equal(op_tc_total(t, &tr, "aten::outer"), 12000);
    assert_int_equal(op_tc_total(t, &tr, "aten::mid"), 5000);
    assert_int_equal(op_tc_total(t, &tr, "aten::inner"), 5000);
    assert_int_equal(op_tc_total(t, &tr, "aten::mid2"), 7000);
    assert_int_equal(op_tc_total(t, &tr, "aten::other"), 3000);
    pr_tree_free(&tr);
    pr_trace_free(t);
}

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
        cmocka_unit_test(test_attach_by_time),
        cmocka_unit_test(test_coincident_id_not_trusted),
        cmocka_unit_test(test_driver_and_graph_launches),
        cmocka_unit_test(test_zero_runtime_and_staled),
        cmocka_unit_test(test_duplicate_collapse),
        cmocka_unit_test(test_partial_overlap_dropped),
        cmocka_unit_test(test_tc_propagation),
        cmocka_unit_test(test_tc_totals_by_level),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
