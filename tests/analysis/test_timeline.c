/* test_timeline.c - the per-stream timeline of one step: which step,
 * lanes and their order, clipping to the step, the merge rule and the
 * span cap, and null without GPU work.  Steps are made by hand (only their
 * windows matter here); times in µs. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "profreport/timeline.h"

#include "testtrace.h"

struct fixture {
    struct pr_trace *t;
    struct pr_step v[3];
    struct pr_steps steps;
    cJSON *run;
};

static void
step(struct fixture *f, const char *name, double start_us, double end_us)
{
    struct pr_step *s = &f->v[f->steps.n++];

    s->name = tt_str(f->t, name);
    s->start_ns = (int64_t)llround(start_us * 1000);
    s->end_ns = (int64_t)llround(end_us * 1000);
    f->steps.v = f->v;
}

static void
setup(struct fixture *f)
{
    memset(f, 0, sizeof(*f));
    f->t = pr_trace_new();
    f->run = cJSON_CreateObject();
    assert_non_null(f->t);
    assert_non_null(cJSON_AddNullToObject(f->run, "timeline"));
}

static const cJSON *
fill(struct fixture *f)
{
    struct pr_error err = {0};

    pr_trace_finish(f->t);
    assert_int_equal(pr_timeline_fill(f->t, &f->steps, f->run, &err), PR_OK);
    return cJSON_GetObjectItemCaseSensitive(f->run, "timeline");
}

static void
release(struct fixture *f)
{
    cJSON_Delete(f->run);
    pr_trace_free(f->t);
}

/* A kernel on (dev, stream). */
static void
kernel_on(struct pr_trace *t, const char *name, int dev, int stream, double ts,
          double dur, int64_t corr)
{
    tt_dev(t, PR_KIND_DEVICE_TASK, name, dev, ts, dur, corr, -2, -2);
    t->gpu[t->n_gpu - 1].stream = stream;
}

static const cJSON *
lane(const cJSON *tl, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(tl, "lanes"), i);
}

static const char *
lane_name(const cJSON *tl, int i)
{
    return cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(lane(tl, i), "name"));
}

static const cJSON *
span(const cJSON *tl, int i, int k)
{
    return cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(lane(tl, i), "spans"), k);
}

static void
expect_span(const cJSON *s, double start, double dur, const char *kind,
            const char *name)
{
    assert_non_null(s);
    tt_near(cJSON_GetArrayItem(s, 0)->valuedouble, start);
    tt_near(cJSON_GetArrayItem(s, 1)->valuedouble, dur);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetArrayItem(s, 2)), kind);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetArrayItem(s, 3)), name);
}

static double
num(const cJSON *o, const char *key)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, key);

    assert_true(cJSON_IsNumber(n));
    return n->valuedouble;
}

/* Steps of 100, 120 and 300 µs: the median is 120, so step #2 [100, 220)
 * is drawn.  Lanes: streams by (device, stream), then the launching
 * thread; work of the other steps stays out. */
static void
test_lanes(void **state)
{
    struct fixture f;
    const cJSON *tl;

    (void)state;
    setup(&f);
    tt_op(f.t, "aten::first", 0, 5, 1); /* the origin: ts 0 */
    step(&f, "ProfilerStep#1", 0, 100);
    step(&f, "ProfilerStep#2", 100, 220);
    step(&f, "ProfilerStep#3", 220, 520);
    kernel_on(f.t, "k_other_step", 0, 7, 30, 10, 1);
    tt_rt(f.t, "cudaLaunchKernel", 105, 4, 2, -1);
    kernel_on(f.t, "k7", 0, 7, 110, 20, 2);
    kernel_on(f.t, "k3", 0, 3, 140, 30, 3);
    kernel_on(f.t, "k_dev1", 1, 7, 150, 10, 4);
    tt_dev(f.t, PR_KIND_COPY, "Memcpy HtoD", 0, 180, 5, 5, -2, -2);
    tl = fill(&f);
    assert_true(cJSON_IsObject(tl));
    assert_string_equal(
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(tl, "step")),
        "ProfilerStep#2");
    tt_near(num(tl, "start_us"), 100);
    tt_near(num(tl, "duration_us"), 120);
    assert_int_equal(
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tl, "lanes")), 4);
    assert_string_equal(lane_name(tl, 0), "GPU0 stream 3");
    assert_string_equal(lane_name(tl, 1), "GPU0 stream 7");
    assert_string_equal(lane_name(tl, 2), "GPU1 stream 7");
    assert_string_equal(lane_name(tl, 3), "CPU thread 1");
    expect_span(span(tl, 0, 0), 40, 30, "kernel", "k3");
    expect_span(span(tl, 1, 0), 10, 20, "kernel", "k7");
    expect_span(span(tl, 1, 1), 80, 5, "memcpy", "Memcpy HtoD");
    assert_null(span(tl, 1, 2));
    expect_span(span(tl, 3, 0), 5, 4, "runtime", "cudaLaunchKernel");
    release(&f);
}

/* The DataLoader the launching thread runs is drawn on its lane: in a
 * step [0, 200) that loads its batch for 60 us before it launches, the
 * host lane holds the DataLoader span [2, 62) beside the launch, so the
 * idle device's first 60 us are not blank (tb_plugin resnet50: 57 ms of
 * a 175 ms step).  Another host operator is not drawn. */
static void
test_dataloader(void **state)
{
    struct fixture f;
    const cJSON *tl;

    (void)state;
    setup(&f);
    step(&f, "ProfilerStep#1", 0, 200);
    tt_op(f.t, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 2,
          60, 1);
    tt_op(f.t, "aten::conv2d", 70, 10, 2);
    tt_rt(f.t, "cudaLaunchKernel", 72, 4, 3, -1);
    kernel_on(f.t, "k", 0, 7, 80, 20, 3);
    tl = fill(&f);
    assert_string_equal(lane_name(tl, 1), "CPU thread 1");
    expect_span(span(tl, 1, 0), 2, 60, "dataloader",
                "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    expect_span(span(tl, 1, 1), 72, 4, "runtime", "cudaLaunchKernel");
    assert_null(span(tl, 1, 2));
    release(&f);
}

/* Step [100, 200): a kernel across each edge is cut at it; one that ends
 * exactly at the start is not in the step. */
static void
test_clipping(void **state)
{
    struct fixture f;
    const cJSON *tl;

    (void)state;
    setup(&f);
    step(&f, "ProfilerStep#1", 100, 200);
    tt_kernel(f.t, "before", 80, 20, 1);
    tt_kernel(f.t, "across_start", 90, 20, 2);
    tt_kernel(f.t, "across_end", 190, 30, 3);
    tt_kernel(f.t, "after", 200, 10, 4);
    tl = fill(&f);
    expect_span(span(tl, 0, 0), 0, 10, "kernel", "across_start");
    expect_span(span(tl, 0, 1), 90, 10, "kernel", "across_end");
    assert_null(span(tl, 0, 2));
    assert_null(lane(tl, 1)); /* no runtime call: no host lane */
    release(&f);
}

/* Step of 2000 µs: spans under 1 µs (step / 2000) with gaps under 1 µs
 * merge into one; a short span alone and a long one stay as they are. */
static void
test_merge(void **state)
{
    struct fixture f;
    const cJSON *tl;

    (void)state;
    setup(&f);
    step(&f, "ProfilerStep#1", 0, 2000);
    tt_kernel(f.t, "tiny_a", 10, 0.5, 1);
    tt_kernel(f.t, "tiny_b", 10.7, 0.5, 2);
    tt_kernel(f.t, "tiny_c", 11.4, 0.25, 3);
    tt_kernel(f.t, "alone", 100, 0.5, 4);
    tt_kernel(f.t, "long", 101.5, 50, 5);
    tl = fill(&f);
    tt_near(num(tl, "merge_below_us"), 1);
    tt_near(num(tl, "n_events"), 5);
    expect_span(span(tl, 0, 0), 10, 1.65, "kernel", "\xE2\x80\xA6 3 kernels");
    expect_span(span(tl, 0, 1), 100, 0.5, "kernel", "alone");
    expect_span(span(tl, 0, 2), 101.5, 50, "kernel", "long");
    assert_null(span(tl, 0, 3));
    release(&f);
}

/* 1600 kernels of 1 µs every 1.25 µs are not short at step / 2000, but
 * over the cap: the threshold doubles until they merge. */
static void
test_cap(void **state)
{
    struct fixture f;
    const cJSON *tl;
    int n, i;

    (void)state;
    setup(&f);
    step(&f, "ProfilerStep#1", 0, 2000);
    for (i = 0; i < 1600; i++)
        tt_kernel(f.t, "k", 1.25 * i, 1, i + 1);
    tl = fill(&f);
    n = cJSON_GetArraySize(
        cJSON_GetObjectItemCaseSensitive(lane(tl, 0), "spans"));
    assert_true(n >= 1 && n <= PR_TIMELINE_MAX_SPANS);
    assert_true(num(tl, "merge_below_us") >= 2);
    tt_near(num(tl, "n_events"), 1600);
    release(&f);
}

/* Host work only, or no step at all: the key stays null. */
static void
test_null_without_gpu(void **state)
{
    struct fixture f;

    (void)state;
    setup(&f);
    step(&f, "ProfilerStep#1", 0, 100);
    tt_op(f.t, "aten::add", 10, 20, 1);
    tt_rt(f.t, "cudaMalloc", 12, 2, 9, 1);
    assert_true(cJSON_IsNull(fill(&f)));
    f.steps.n = 0;
    tt_kernel(f.t, "k", 50, 5, 2);
    assert_true(cJSON_IsNull(fill(&f)));
    release(&f);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lanes),
        cmocka_unit_test(test_dataloader),
        cmocka_unit_test(test_clipping),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_cap),
        cmocka_unit_test(test_null_without_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
