/* test_steps.c - step windows and breakdown (spec 6, 7.1), one small trace
 * per rule; expected numbers are worked out in the comments (µs). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "profreport/steps.h"
#include "profreport/tree.h"

#include "testtrace.h"

struct fixture {
    struct pr_trace *t;
    struct pr_tree tree;
    struct pr_steps steps;
};

static void
compute(struct fixture *f)
{
    struct pr_error err = {0};

    pr_trace_finish(f->t);
    assert_int_equal(pr_tree_build(f->t, &f->tree, &err), PR_OK);
    assert_int_equal(pr_steps_compute(f->t, &f->tree, &f->steps, &err), PR_OK);
}

static void
release(struct fixture *f)
{
    pr_steps_free(&f->steps);
    pr_tree_free(&f->tree);
    pr_trace_free(f->t);
}

static void
expect_step(const struct pr_step *s, int64_t start_us, int64_t end_us)
{
    int64_t sum = 0;
    int c;

    assert_int_equal(s->start_ns, start_us * 1000);
    assert_int_equal(s->end_ns, end_us * 1000);
    for (c = 0; c < PR_CAT_COUNT; c++)
        sum += s->breakdown_ns[c];
    assert_int_equal(sum, s->end_ns - s->start_ns);
}

/* An op at [at+10, at+20) in step ext `ext` launching one kernel. */
static void
launch(struct pr_trace *t, double at, int64_t ext, int64_t corr, double k_ts,
       double k_dur)
{
    tt_op(t, "aten::op", at + 10, 10, ext);
    tt_rt(t, "cudaLaunchKernel", at + 12, 2, corr, ext);
    tt_kernel(t, "k", k_ts, k_dur, corr);
}

/* Steps [0,100) [100,200) [200,300); step 1's kernel runs [50,150).
 *   6.3: step 1 = [0, max(100,150)) = [0,150); step 2 starts at 150 and
 *   ends max(200, 170) = 200; step 3 = [200, max(300, 240)) = [200,300).
 *   Step 1 breakdown: kernel [50,150) 100, runtime [12,14) 2, cpu exec
 *   [10,20) minus runtime = 8, other 40.  Step 2: kernel 10, other 40.
 *   Step 3: kernel [230,240) 10, runtime 2, cpu 8, other 80. */
static void
test_device_extends_step(void **state)
{
    struct fixture f = {.t = pr_trace_new()};

    (void)state;
    tt_op(f.t, "ProfilerStep#1", 0, 100, 1);
    launch(f.t, 0, 11, 1, 50, 100);
    tt_op(f.t, "ProfilerStep#2", 100, 100, 2);
    launch(f.t, 100, 12, 2, 160, 10);
    tt_op(f.t, "ProfilerStep#3", 200, 100, 3);
    launch(f.t, 200, 13, 3, 230, 10);
    compute(&f);
    assert_true(f.steps.gpu_used);
    assert_int_equal(f.steps.n, 3);
    expect_step(&f.steps.v[0], 0, 150);
    expect_step(&f.steps.v[1], 150, 200);
    expect_step(&f.steps.v[2], 200, 300);
    assert_int_equal(f.steps.v[0].breakdown_ns[PR_CAT_KERNEL], 100000);
    assert_int_equal(f.steps.v[0].breakdown_ns[PR_CAT_RUNTIME], 2000);
    assert_int_equal(f.steps.v[0].breakdown_ns[PR_CAT_CPU_EXEC], 8000);
    assert_int_equal(f.steps.v[0].breakdown_ns[PR_CAT_OTHER], 40000);
    assert_int_equal(f.steps.v[1].breakdown_ns[PR_CAT_KERNEL], 10000);
    assert_int_equal(f.steps.v[1].breakdown_ns[PR_CAT_OTHER], 40000);
    assert_int_equal(f.steps.v[2].breakdown_ns[PR_CAT_CPU_EXEC], 8000);
    assert_int_equal(f.steps.v[2].breakdown_ns[PR_CAT_OTHER], 80000);
    release(&f);
}

/* Step [100,200) launches a kernel at [150,250); a staled kernel [120,140)
 * ends before it, so the step starts at 140 (6.3 prev_end rule). */
static void
test_unmatched_device_before_first_step(void **state)
{
    struct fixture f = {.t = pr_trace_new()};

    (void)state;
    tt_op(f.t, "ProfilerStep#1", 100, 100, 1);
    launch(f.t, 100, 11, 1, 150, 100);
    tt_kernel(f.t, "stale", 120, 20, 77);
    compute(&f);
    assert_int_equal(f.steps.n, 1);
    expect_step(&f.steps.v[0], 140, 250);
    release(&f);
}

/* Launch counts 5, 5, 3, 0: steps after the last launching one go, and so
 * does that one (0.8 * 5 > 3): 2 steps kept.  With 5, 5, 4: 0.8 * 5 = 4 is
 * not > 4, 3 kept. */
static void
trim_case(int last_count, size_t expect_n, int device_steps)
{
    struct fixture f = {.t = pr_trace_new()};
    int counts[4] = {5, 5, last_count, 0}, s, k;
    int64_t corr = 1;
    char name[32];

    for (s = 0; s < 4; s++) {
        snprintf(name, sizeof(name), "ProfilerStep#%d", s + 1);
        tt_op(f.t, name, s * 100, 100, 1000 + s);
        tt_op(f.t, "aten::op", s * 100 + 10, 50, 2000 + s);
        for (k = 0; k < counts[s]; k++, corr++) {
            tt_rt(f.t, "cudaLaunchKernel", s * 100 + 11 + k, 1, corr, 2000 + s);
            tt_kernel(f.t, "k", s * 100 + 20 + k, 1, corr);
        }
    }
    f.t->device_steps = device_steps;
    compute(&f);
    assert_int_equal(f.steps.n, expect_n);
    for (s = 0; s < (int)f.steps.n; s++)
        expect_step(&f.steps.v[s], s * 100, s * 100 + 100);
    release(&f);
}

/* Steps 3 and 4 launch less than 80% of step 2, or nothing: trimmed,
 * unless the steps are the producer's own device-side windows, which are
 * kept as they are. */
static void
test_tail_trimming(void **state)
{
    (void)state;
    trim_case(3, 2, 0);
    trim_case(4, 3, 0);
    trim_case(3, 4, 1);
}

/* One step [0,100), no device match (host bounds kept):
 *   kernel [10,40) 30; memcpy [30,50) -> [40,50) 10; memset [45,60) ->
 *   [50,60) 10; runtime [5,70) -> [5,10)+[60,70) 15; DataLoader [0,80) ->
 *   [0,5)+[70,80) 15; op [85,90) cpu exec 5; other 100 - 85 = 15. */
static void
test_category_priority(void **state)
{
    struct fixture f = {.t = pr_trace_new()};
    const struct pr_step *s;

    (void)state;
    tt_op(f.t, "ProfilerStep#1", 0, 100, 1);
    tt_op(f.t, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0,
          80, 2);
    tt_rt(f.t, "cudaMemcpyAsync", 5, 65, 1, 2);
    tt_kernel(f.t, "k", 10, 30, PR_NO_ID);
    tt_dev(f.t, PR_KIND_COPY, "Memcpy HtoD", 0, 30, 20, PR_NO_ID, -2, -2);
    tt_dev(f.t, PR_KIND_SET, "Memset", 0, 45, 15, PR_NO_ID, -2, -2);
    tt_op(f.t, "aten::x", 85, 5, 3);
    compute(&f);
    assert_int_equal(f.steps.n, 1);
    s = &f.steps.v[0];
    expect_step(s, 0, 100);
    assert_int_equal(s->breakdown_ns[PR_CAT_KERNEL], 30000);
    assert_int_equal(s->breakdown_ns[PR_CAT_MEMCPY], 10000);
    assert_int_equal(s->breakdown_ns[PR_CAT_MEMSET], 10000);
    assert_int_equal(s->breakdown_ns[PR_CAT_RUNTIME], 15000);
    assert_int_equal(s->breakdown_ns[PR_CAT_DATALOADER], 15000);
    assert_int_equal(s->breakdown_ns[PR_CAT_CPU_EXEC], 5000);
    assert_int_equal(s->breakdown_ns[PR_CAT_OTHER], 15000);
    release(&f);
}

/* Kernels cover the whole step [0,100): the plugin would count memcpy and
 * runtime again on top (7.1 note); here they get 0 and the sum is 100. */
static void
test_slots_exhausted(void **state)
{
    struct fixture f = {.t = pr_trace_new()};
    const struct pr_step *s;

    (void)state;
    tt_op(f.t, "ProfilerStep#1", 0, 100, 1);
    tt_rt(f.t, "cudaLaunchKernel", 0, 10, 1, 5);
    tt_kernel(f.t, "k", 0, 100, PR_NO_ID);
    tt_dev(f.t, PR_KIND_COPY, "Memcpy HtoD", 0, 10, 10, PR_NO_ID, -2, -2);
    compute(&f);
    s = &f.steps.v[0];
    expect_step(s, 0, 100);
    assert_int_equal(s->breakdown_ns[PR_CAT_KERNEL], 100000);
    assert_int_equal(s->breakdown_ns[PR_CAT_MEMCPY], 0);
    assert_int_equal(s->breakdown_ns[PR_CAT_RUNTIME], 0);
    assert_int_equal(s->breakdown_ns[PR_CAT_OTHER], 0);
    release(&f);
}

/* No ProfilerStep: one step over the host events [10,60); a user
 * annotation [0,100) does not widen it (6.2). */
static void
test_no_step_fallback(void **state)
{
    struct fixture f = {.t = pr_trace_new()};

    (void)state;
    tt_host(f.t, PR_KIND_ANNOTATION, "## forward ##", "1", 0, 100, 9, NULL,
            NULL);
    tt_op(f.t, "aten::a", 10, 10, 1);
    tt_op(f.t, "aten::b", 30, 30, 2);
    compute(&f);
    assert_false(f.steps.has_step_events);
    assert_int_equal(f.steps.n, 1);
    assert_int_equal(f.steps.v[0].name, PR_STR_NONE);
    expect_step(&f.steps.v[0], 10, 60);
    /* The annotation is CPU exec where no op is: [10,60) all covered by
     * the annotation, so cpu exec = 50. */
    assert_int_equal(f.steps.v[0].breakdown_ns[PR_CAT_CPU_EXEC], 50000);
    release(&f);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_extends_step),
        cmocka_unit_test(test_unmatched_device_before_first_step),
        cmocka_unit_test(test_tail_trimming),
        cmocka_unit_test(test_category_priority),
        cmocka_unit_test(test_slots_exhausted),
        cmocka_unit_test(test_no_step_fallback),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
