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

/* Steps [0,100) [100,200) [200,300); step 1's kernel runs [40,150),
 * 26 us after its launch call [12,14) returned (no queue: under HTA's 30
 * us of launch overhead).
 *   6.3: step 1 = [0, max(100,150)) = [0,150); step 2 starts at 150 and
 *   ends max(200, 170) = 200; step 3 = [200, max(300, 240)) = [200,300).
 *   Step 1 breakdown: kernel [40,150) 110, runtime [12,14) 2, cpu exec
 *   [10,20) minus runtime = 8, other 30.  Step 2: kernel 10, other 40.
 *   Step 3: kernel [230,240) 10, runtime 2, cpu 8, other 80. */
static void
test_device_extends_step(void **state)
{
    struct fixture f = {.t = pr_trace_new()};

    (void)state;
    tt_op(f.t, "ProfilerStep#1", 0, 100, 1);
    launch(f.t, 0, 11, 1, 40, 110);
    tt_op(f.t, "ProfilerStep#2", 100, 100, 2);
    launch(f.t, 100, 12, 2, 160, 10);
    tt_op(f.t, "ProfilerStep#3", 200, 100, 3);
    launch(f.t, 200, 13, 3, 230, 10);
    compute(&f);
    assert_true(f.steps.gpu_used);
    assert_int_equal(f.steps.basis, PR_STEPS_BASIS_DEVICE);
    assert_int_equal(f.steps.n, 3);
    expect_step(&f.steps.v[0], 0, 150);
    expect_step(&f.steps.v[1], 150, 200);
    expect_step(&f.steps.v[2], 200, 300);
    /* the host intervals stay the ProfilerSteps' */
    assert_int_equal(f.steps.v[1].host_start_ns, 100000);
    assert_int_equal(f.steps.v[1].host_end_ns, 200000);
    assert_int_equal(f.steps.backlog_ns, 0);
    assert_int_equal(f.steps.v[0].breakdown_ns[PR_CAT_KERNEL], 110000);
    assert_int_equal(f.steps.v[0].breakdown_ns[PR_CAT_RUNTIME], 2000);
    assert_int_equal(f.steps.v[0].breakdown_ns[PR_CAT_CPU_EXEC], 8000);
    assert_int_equal(f.steps.v[0].breakdown_ns[PR_CAT_OTHER], 30000);
    assert_int_equal(f.steps.v[1].breakdown_ns[PR_CAT_KERNEL], 10000);
    assert_int_equal(f.steps.v[1].breakdown_ns[PR_CAT_OTHER], 40000);
    assert_int_equal(f.steps.v[2].breakdown_ns[PR_CAT_CPU_EXEC], 8000);
    assert_int_equal(f.steps.v[2].breakdown_ns[PR_CAT_OTHER], 80000);
    release(&f);
}

/* The host runs ahead of a busy device (a full launch queue): each step
 * launches at once, and its kernel runs about a step later, behind work
 * launched before the capture whose launches the trace does not hold.
 * Host steps [0,100) [100,200) [200,300) [300,400); kernels [90,190)
 * [190,290) [290,390) [390,490), launched at [12,14), [112,114), ...
 * Step 1's kernel waited 76 us after its launch returned: the device was
 * busy, so step 1 starts at 90, not 0 (the plugin would give it the
 * backlog, 190 us against 100 for the others).  Every step is then 100
 * on the device basis; the last is trimmed (6.4 keeps steps 1-4 here:
 * same counts).  That earlier work is the kernel at [0,90): with the
 * device idle in the wait there is no backlog (test_idle_wait_no_backlog). */
static void
test_first_step_backlog(void **state)
{
    struct fixture f = {.t = pr_trace_new()};
    int i;

    (void)state;
    tt_kernel(f.t, "earlier", 0, 90, 99);
    for (i = 0; i < 4; i++) {
        char name[32];

        snprintf(name, sizeof(name), "ProfilerStep#%d", i + 1);
        tt_op(f.t, name, 100 * i, 100, i + 1);
        launch(f.t, 100 * i, 11 + i, i + 1, 90 + 100 * i, 100);
    }
    compute(&f);
    assert_int_equal(f.steps.basis, PR_STEPS_BASIS_DEVICE);
    assert_int_equal(f.steps.n, 4);
    expect_step(&f.steps.v[0], 90, 190);
    expect_step(&f.steps.v[1], 190, 290);
    expect_step(&f.steps.v[3], 390, 490);
    assert_int_equal(f.steps.backlog_ns, 90000);
    assert_int_equal(f.steps.v[0].host_start_ns, 0);
    release(&f);
}

/* Review 30g #2: the same launches on an idle device (no work before
 * the first kernel): the wait was no backlog, the first step keeps its
 * host start and holds its kernel, [0,190). */
static void
test_idle_wait_no_backlog(void **state)
{
    struct fixture f = {.t = pr_trace_new()};
    int i;

    (void)state;
    for (i = 0; i < 4; i++) {
        char name[32];

        snprintf(name, sizeof(name), "ProfilerStep#%d", i + 1);
        tt_op(f.t, name, 100 * i, 100, i + 1);
        launch(f.t, 100 * i, 11 + i, i + 1, 90 + 100 * i, 100);
    }
    compute(&f);
    assert_int_equal(f.steps.n, 4);
    expect_step(&f.steps.v[0], 0, 190);
    expect_step(&f.steps.v[1], 190, 290);
    assert_int_equal(f.steps.backlog_ns, 0);
    release(&f);
}

/* The same with one step: no steady state to keep, the plugin's step. */
static void
test_one_step_no_backlog_rule(void **state)
{
    struct fixture f = {.t = pr_trace_new()};

    (void)state;
    tt_op(f.t, "ProfilerStep#1", 0, 100, 1);
    launch(f.t, 0, 11, 1, 90, 100);
    compute(&f);
    expect_step(&f.steps.v[0], 0, 190);
    assert_int_equal(f.steps.backlog_ns, 0);
    release(&f);
}

/* A step whose recorded dur runs far past the capture (the profiler
 * stopped 1.8 ms after it began; dur says 13.3 s) ends with the capture:
 * its profiler span [0, 1800) here.  A step that begins after it is
 * left out. */
static void
test_step_clipped_to_capture(void **state)
{
    struct fixture f = {.t = pr_trace_new()};

    (void)state;
    tt_event(f.t, PR_KIND_PROFILER_SPAN, "PyTorch Profiler (0)", "1", 0, 1800);
    tt_op(f.t, "ProfilerStep#1", 10, 13.3e6, 1);
    tt_op(f.t, "aten::item", 20, 30, 2);
    tt_rt(f.t, "cudaDeviceSynchronize", 30, 16.8, 3, 2);
    tt_op(f.t, "ProfilerStep#2", 2000, 100, 3);
    compute(&f);
    assert_int_equal(f.steps.n, 1);
    assert_int_equal(f.steps.clipped, 1);
    assert_int_equal(f.steps.dropped, 1);
    assert_int_equal(f.steps.basis, PR_STEPS_BASIS_HOST);
    expect_step(&f.steps.v[0], 10, 1800);
    assert_int_equal(f.steps.v[0].host_end_ns, 1800000);
    release(&f);
}

/* Kineto's "Record Window End" instant, later than the span, is where
 * the capture ends when it is there. */
static void
test_step_clipped_to_window_end(void **state)
{
    struct fixture f = {.t = pr_trace_new()};

    (void)state;
    tt_event(f.t, PR_KIND_PROFILER_SPAN, "PyTorch Profiler (0)", "1", 0, 1000);
    tt_op(f.t, "ProfilerStep#1", 10, 5000, 1);
    f.t->window_end_ns = 2500000;
    f.t->has_window_end = 1;
    compute(&f);
    expect_step(&f.steps.v[0], 10, 2500);
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

/* No ProfilerStep: no step "0" over the host events [10,60) (the
 * plugin's 6.2), but the whole capture as one window: every event,
 * here the user annotation [0,100), and a kernel [90,130). */
static void
test_no_step_capture(void **state)
{
    struct fixture f = {.t = pr_trace_new()};

    (void)state;
    tt_host(f.t, PR_KIND_ANNOTATION, "## forward ##", "1", 0, 100, 9, NULL,
            NULL);
    tt_op(f.t, "aten::a", 10, 10, 1);
    tt_op(f.t, "aten::b", 30, 30, 2);
    tt_kernel(f.t, "k", 90, 40, 5);
    compute(&f);
    assert_false(f.steps.has_step_events);
    assert_int_equal(f.steps.basis, PR_STEPS_BASIS_CAPTURE);
    assert_int_equal(f.steps.n, 1);
    assert_int_equal(f.steps.v[0].name, PR_STR_NONE);
    assert_string_equal(pr_steps_name(f.t, &f.steps.v[0]), "capture");
    expect_step(&f.steps.v[0], 0, 130);
    /* [0,100) is the annotation's (CPU exec), the kernel takes [90,130) */
    assert_int_equal(f.steps.v[0].breakdown_ns[PR_CAT_KERNEL], 40000);
    assert_int_equal(f.steps.v[0].breakdown_ns[PR_CAT_CPU_EXEC], 90000);
    release(&f);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_extends_step),
        cmocka_unit_test(test_first_step_backlog),
        cmocka_unit_test(test_idle_wait_no_backlog),
        cmocka_unit_test(test_one_step_no_backlog_rule),
        cmocka_unit_test(test_step_clipped_to_capture),
        cmocka_unit_test(test_step_clipped_to_window_end),
        cmocka_unit_test(test_unmatched_device_before_first_step),
        cmocka_unit_test(test_tail_trimming),
        cmocka_unit_test(test_category_priority),
        cmocka_unit_test(test_slots_exhausted),
        cmocka_unit_test(test_no_step_capture),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
