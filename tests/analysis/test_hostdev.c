/* test_hostdev.c - the temporal breakdown, synchronisation, copies and
 * launches of hostdev.c (issue #11) on hand-made traces, then pinned on
 * real traces of ../shared/traces/hta and tb_plugin (skipped when
 * ../shared is absent). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "profreport/analysis.h"
#include "profreport/hostdev.h"
#include "profreport/reader.h"
#include "profreport/recommend.h"
#include "profreport/syncs.h"
#include "profreport/whatif.h"

#include "testrec.h"
#include "testshared.h"
#include "testtrace.h"

/* Analyse t (finished here) into a new run object; caller deletes it. */
static cJSON *
analyse(struct pr_trace *t)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {0};
    cJSON *run = cJSON_CreateObject();

    assert_non_null(run);
    assert_non_null(cJSON_AddArrayToObject(run, "diagnostics"));
    assert_non_null(cJSON_AddObjectToObject(run, "data_quality"));
    pr_trace_finish(t);
    if (pr_analysis_run(t, &o, run, &err) != PR_OK)
        fail_msg("%s", err.msg);
    return run;
}

static const cJSON *
at(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    if (v == NULL)
        fail_msg("no key %s", key);
    return v;
}

static double
num(const cJSON *o, const char *key)
{
    const cJSON *v = at(o, key);

    if (!cJSON_IsNumber(v))
        fail_msg("%s is not a number", key);
    return v->valuedouble;
}

static void
is_null(const cJSON *o, const char *key)
{
    if (!cJSON_IsNull(at(o, key)))
        fail_msg("%s is not null", key);
}

/* The row of array arr whose string key equals val (and, when key2 is
 * given, whose key2 equals val2). */
static const cJSON *
row(const cJSON *arr, const char *key, const char *val, const char *key2,
    const char *val2)
{
    const cJSON *r;

    cJSON_ArrayForEach(r, arr)
    {
        const char *a =
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, key));
        const char *b = key2 ? cJSON_GetStringValue(
                                   cJSON_GetObjectItemCaseSensitive(r, key2))
                             : NULL;

        if (a != NULL && strcmp(a, val) == 0 &&
            (key2 == NULL || (b != NULL && strcmp(b, val2) == 0)))
            return r;
    }
    return NULL;
}

/* The last device record's bytes and stream. */
static void
set_gpu(struct pr_trace *t, int64_t bytes, int32_t stream)
{
    t->gpu[t->n_gpu - 1].bytes = bytes;
    t->gpu[t->n_gpu - 1].stream = stream;
}

static void
sync_rec(struct pr_trace *t, const char *name, double ts, double dur,
         int64_t corr)
{
    struct pr_event *e = tt_event(t, PR_KIND_SYNC, name, "1", ts, dur);

    assert_int_equal(pr_event_set_correlation(t, e, corr), PR_OK);
}

/* Device work on [10,190) in the step [0,200) (the window, issue #29):
 * compute 40, communication 20, memory 10; idle gaps (HTA's rules, its
 * 30 us threshold): [0,10) before a kernel launched at 5 and [190,200)
 * with no work after it (host wait), [50,60) before a copy
 * launched long before (kernel wait, under 30 us), [70,90) before a
 * kernel launched at 85 (the host was late: host wait), [95,140) before
 * a kernel launched long before (other, 45 us), [150,185) before a
 * kernel launched at 180 (host wait) while a device sync [120,160)
 * returned in it: 35 us of idle after a sync. */
static void
test_temporal(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *r;
    cJSON *run;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 200, 1);
    tt_rt(t, "cudaLaunchKernel", 5, 1, 1, 1);
    tt_rt(t, "cudaLaunchKernel", 6, 1, 2, 2);
    tt_rt(t, "cudaMemcpyAsync", 8, 1, 3, 3);
    tt_rt(t, "cudaLaunchKernel", 9, 1, 6, 6);
    tt_rt(t, "cudaLaunchKernel", 85, 1, 4, 4);
    tt_rt(t, "cudaDeviceSynchronize", 120, 40, 8, 8);
    tt_rt(t, "cudaLaunchKernel", 180, 1, 7, 7);
    tt_kernel(t, "gemm", 10, 20, 1);
    tt_kernel(t, "relu", 25, 5, 5); /* overlaps gemm: counted once */
    tt_kernel(t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 30, 20, 2);
    tt_dev(t, PR_KIND_COPY, "Memcpy DtoD (Device -> Device)", 0, 60, 10, 3, -2,
           -2);
    tt_kernel(t, "gemm", 90, 5, 4);
    tt_kernel(t, "gemm", 140, 10, 6);
    tt_kernel(t, "gemm", 185, 5, 7);
    run = analyse(t);
    r = cJSON_GetArrayItem(at(run, "temporal_breakdown"), 0);
    assert_non_null(r);
    tt_near(num(r, "span_us"), 200);
    tt_near(num(r, "compute_us"), 40);
    tt_near(num(r, "communication_us"), 20);
    tt_near(num(r, "memory_us"), 10);
    tt_near(num(r, "idle_us"), 130);
    tt_near(num(r, "idle_host_wait_us"), 75);
    tt_near(num(r, "idle_kernel_wait_us"), 10);
    tt_near(num(r, "idle_other_us"), 45);
    tt_near(num(r, "idle_after_sync_us"), 35);
    tt_near(num(r, "idle_pct"), 100.0 * 130 / 200);
    /* HTA's figures: first to last work */
    tt_near(num(r, "device_span_us"), 180);
    tt_near(num(r, "device_span_idle_us"), 110);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* A set-up kernel long before the one step (MindSpore's InitData at t=0,
 * a warm-up) is not the training loop: the breakdown covers the step, as
 * gpu_metrics does, and keeps HTA's figures over the device's whole span
 * apart.  Step [1000,1100); the kernels [1010,1090) and [1090,1095)
 * launched at 1005 and 1008: the device waited for the host from the
 * step's start to 1010 and after 1095.  A trace
 * without steps keeps HTA's window. */
static void
test_temporal_steps_window(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *r;
    cJSON *run;

    (void)state;
    tt_rt(t, "cudaLaunchKernel", 1, 1, 1, 1);
    tt_kernel(t, "init_kernel", 2, 10, 1);
    tt_op(t, "ProfilerStep#1", 1000, 100, 2);
    tt_rt(t, "cudaLaunchKernel", 1005, 1, 2, 2);
    tt_rt(t, "cudaLaunchKernel", 1008, 1, 3, 2);
    tt_kernel(t, "gemm", 1010, 80, 2);
    tt_kernel(t, "relu", 1090, 5, 3);
    run = analyse(t);
    r = cJSON_GetArrayItem(at(run, "temporal_breakdown"), 0);
    assert_non_null(r);
    assert_string_equal(cJSON_GetStringValue(at(r, "window")), "steps");
    tt_near(num(r, "window_steps"), 1);
    tt_near(num(r, "span_us"), 100);
    tt_near(num(r, "compute_us"), 85);
    tt_near(num(r, "idle_us"), 15);
    /* [1000,1010) and the step's end [1095,1100): nothing launched */
    tt_near(num(r, "idle_host_wait_us"), 15);
    tt_near(num(r, "idle_other_us"), 0);
    tt_near(num(r, "idle_pct"), 100.0 * 15 / 100);
    /* HTA's window: first to last work, the set-up kernel included */
    tt_near(num(r, "device_span_us"), 1093);
    tt_near(num(r, "device_span_idle_us"), 1093 - 95);
    tt_near(num(r, "device_span_idle_pct"), 100.0 * (1093 - 95) / 1093);
    /* the same busy share as GPU utilization over the step */
    tt_near(
        num(cJSON_GetArrayItem(at(run, "gpu_metrics"), 0), "utilization_pct"),
        100.0 - num(r, "idle_pct"));
    cJSON_Delete(run);
    pr_trace_free(t);

    t = pr_trace_new();
    tt_rt(t, "cudaLaunchKernel", 1, 1, 1, 1);
    tt_kernel(t, "init_kernel", 2, 10, 1);
    tt_rt(t, "cudaLaunchKernel", 1005, 1, 2, 2);
    tt_kernel(t, "gemm", 1010, 80, 2);
    run = analyse(t);
    r = cJSON_GetArrayItem(at(run, "temporal_breakdown"), 0);
    assert_string_equal(cJSON_GetStringValue(at(r, "window")), "device_span");
    is_null(r, "window_steps");
    tt_near(num(r, "span_us"), 1088);
    tt_near(num(r, "device_span_us"), 1088);
    tt_near(num(r, "idle_us"), 998);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* A stream sync inside the step drains the queue: the device idles from
 * running dry (45, while the host waits) until new work (58).  Its cuda_sync
 * twin and an "Event Sync" record of a non-blocking cudaEventQuery add nothing;
 * a device sync after the last step is the profiler's shutdown. */
static void
test_sync(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *s, *calls, *r;
    cJSON *run;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 100, 1);
    tt_rt(t, "cudaLaunchKernel", 5, 1, 1, 1);
    tt_kernel(t, "gemm", 10, 35, 1);
    tt_rt(t, "cudaStreamSynchronize", 40, 10, 2, 2);
    sync_rec(t, "Stream Sync", 40, 10, 2);
    tt_rt(t, "cudaEventQuery", 52, 1, 3, 3);
    sync_rec(t, "Event Sync", 52, 1, 3);
    tt_rt(t, "cudaStreamWaitEvent", 55, 1, 4, 4);
    tt_rt(t, "cudaMemcpyAsync", 56, 2, 5, 5); /* pinned: does not block */
    tt_dev(t, PR_KIND_COPY, "Memcpy HtoD (Pinned -> Device)", 0, 58, 1, 5, -2,
           -2);
    tt_rt(t, "cudaLaunchKernel", 60, 1, 6, 6);
    tt_kernel(t, "gemm", 70, 10, 6);
    tt_rt(t, "cudaDeviceSynchronize", 120, 4, 7, 7);
    run = analyse(t);
    s = at(run, "synchronization");
    calls = at(s, "calls");
    r = row(calls, "name", "cudaStreamSynchronize", NULL, NULL);
    assert_non_null(r);
    tt_near(num(r, "count"), 1);
    tt_near(num(r, "host_us"), 10);
    /* [45,58) follows it (the copy is work); the host was blocked 10 us,
     * so the call explains 10 of the 13 */
    tt_near(num(r, "gpu_idle_us"), 10);
    assert_null(row(calls, "name", "Stream Sync", NULL, NULL));
    assert_null(row(calls, "name", "Event Sync", NULL, NULL));
    assert_null(row(calls, "name", "cudaEventQuery", NULL, NULL));
    assert_null(row(calls, "name", "cudaMemcpyAsync", NULL, NULL));
    r = row(calls, "kind", "stream_wait", NULL, NULL);
    assert_non_null(r);
    is_null(r, "gpu_idle_us");
    r = row(calls, "name", "cudaDeviceSynchronize", NULL, NULL);
    assert_non_null(r);
    tt_near(num(r, "count"), 0);
    tt_near(num(r, "outside_steps_count"), 1);
    tt_near(num(s, "host_us"), 10);
    tt_near(num(s, "outside_steps_count"), 1);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* One wait seen at two API layers is one sync (torch_npu text_level2:
 * CANN's level acl AscendCL@aclrtSynchronizeStreamWithTimeout [40,60)
 * around level runtime Runtime@StreamSynchronize [41,59) on the same
 * thread were 171 ms of syncs for 85.6 ms of waiting).  The same call on
 * another thread at the same time is a wait of its own. */
static void
test_sync_layers_once(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *s, *calls, *r;
    struct pr_event *e;
    cJSON *run;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 100, 1);
    tt_rt(t, "aclrtLaunchKernel", 5, 1, 1, 1);
    tt_kernel(t, "MatMul", 10, 30, 1);
    tt_rt(t, "AscendCL@aclrtSynchronizeStreamWithTimeout", 40, 20, 2, 2);
    tt_rt(t, "Runtime@StreamSynchronize", 41, 18, 3, 3);
    e = tt_event(t, PR_KIND_RUNTIME_CALL, "Runtime@StreamSynchronize", "2", 42,
                 10);
    assert_int_equal(pr_event_set_correlation(t, e, 4), PR_OK);
    run = analyse(t);
    s = at(run, "synchronization");
    calls = at(s, "calls");
    r = row(calls, "name", "AscendCL@aclrtSynchronizeStreamWithTimeout", NULL,
            NULL);
    assert_non_null(r);
    tt_near(num(r, "count"), 1);
    tt_near(num(r, "host_us"), 20);
    r = row(calls, "name", "Runtime@StreamSynchronize", NULL, NULL);
    assert_non_null(r);
    tt_near(num(r, "count"), 1); /* thread 2's only */
    tt_near(num(r, "host_us"), 10);
    tt_near(num(s, "host_us"), 30);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* A sync explains no more device idle than the host spent blocked in it:
 * here the kernel runs dry at 42 as cudaDeviceSynchronize [30,42) returns,
 * then the host spends 500 us in a cudaMalloc (a cold start) before the
 * next launch (550).  Without the sync the host would have reached that
 * launch 12 us earlier, so the sync explains 12 us of the 513 us gap, in
 * the calls' rows and in the temporal breakdown alike; the gap stays host
 * wait (hta/alexnet: four syncs of 0.9 ms in all were blamed for 860 ms). */
static void
test_sync_idle_at_most_blocked(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *s, *r;
    cJSON *run;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 1000, 1);
    tt_rt(t, "cudaLaunchKernel", 5, 1, 1, 1);
    tt_kernel(t, "gemm", 10, 32, 1);
    tt_rt(t, "cudaDeviceSynchronize", 30, 12, 2, 2);
    tt_rt(t, "cudaMalloc", 45, 500, 3, 3);
    tt_rt(t, "cudaLaunchKernel", 550, 1, 4, 4);
    tt_kernel(t, "gemm", 555, 10, 4);
    run = analyse(t);
    s = at(run, "synchronization");
    r = row(at(s, "calls"), "name", "cudaDeviceSynchronize", NULL, NULL);
    assert_non_null(r);
    tt_near(num(r, "host_us"), 12);
    tt_near(num(r, "gpu_idle_us"), 12);
    tt_near(num(s, "gpu_idle_us"), 12);
    r = cJSON_GetArrayItem(at(run, "temporal_breakdown"), 0);
    tt_near(num(r, "idle_after_sync_us"), 12);
    /* [0,10), the gap and the step's end [565,1000) with nothing launched */
    tt_near(num(r, "idle_host_wait_us"), 10 + 513 + 435);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* A sync inside the training loop is the user's, wherever the steps'
 * device-aware ends put it: here in a last step that 6.4 trims (it
 * launched no kernel), and, in a run without steps, anywhere in the
 * capture (an Nsight export: a 428 ms cudaStreamSynchronize under
 * aten::item).  Only a sync after the last step event is the
 * profiler's. */
static void
test_sync_in_loop(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *s, *r;
    cJSON *run;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 100, 1);
    tt_rt(t, "cudaLaunchKernel", 5, 1, 1, 1);
    tt_kernel(t, "gemm", 10, 50, 1);
    tt_op(t, "ProfilerStep#2", 100, 100, 2);
    tt_rt(t, "cudaLaunchKernel", 105, 1, 2, 2);
    tt_kernel(t, "gemm", 110, 50, 2);
    tt_op(t, "ProfilerStep#3", 200, 100, 3);
    tt_rt(t, "cudaStreamSynchronize", 210, 20, 3, 3);
    tt_rt(t, "cudaDeviceSynchronize", 320, 5, 4, 4);
    run = analyse(t);
    assert_int_equal(cJSON_GetArraySize(at(run, "steps")), 2);
    s = at(run, "synchronization");
    r = row(at(s, "calls"), "name", "cudaStreamSynchronize", NULL, NULL);
    assert_non_null(r);
    tt_near(num(r, "count"), 1);
    tt_near(num(r, "outside_steps_count"), 0);
    r = row(at(s, "calls"), "name", "cudaDeviceSynchronize", NULL, NULL);
    tt_near(num(r, "outside_steps_count"), 1);
    cJSON_Delete(run);
    pr_trace_free(t);

    t = pr_trace_new();
    tt_op(t, "aten::is_nonzero", 0, 500, 1);
    tt_op(t, "aten::item", 10, 480, 2);
    tt_rt(t, "cudaLaunchKernel", 1, 1, 1, 1);
    tt_kernel(t, "gemm", 5, 40, 1);
    tt_rt(t, "cudaStreamSynchronize", 20, 428, 2, 2);
    tt_rt(t, "cudaLaunchKernel", 600, 1, 3, 3);
    tt_kernel(t, "gemm", 605, 40, 3);
    run = analyse(t);
    s = at(run, "synchronization");
    r = row(at(s, "calls"), "name", "cudaStreamSynchronize", NULL, NULL);
    assert_non_null(r);
    tt_near(num(r, "count"), 1);
    tt_near(num(r, "host_us"), 428);
    tt_near(num(r, "outside_steps_count"), 0);
    tt_near(num(s, "outside_steps_count"), 0);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* The runtimes' spellings of a sync are one kind each (syncs.h). */
static void
test_sync_names(void **state)
{
    static const struct {
        const char *name;
        enum pr_sync_kind kind;
    } v[] = {
        {"cudaDeviceSynchronize", PR_SYNCK_DEVICE},
        {"cuCtxSynchronize", PR_SYNCK_DEVICE},
        {"hipDeviceSynchronize", PR_SYNCK_DEVICE},
        {"AscendCL@aclrtSynchronizeDevice", PR_SYNCK_DEVICE},
        {"synchronize", PR_SYNCK_DEVICE}, /* MTIA's runtime */
        {"cudaStreamSynchronize", PR_SYNCK_STREAM},
        {"hipStreamSynchronize", PR_SYNCK_STREAM},
        {"aclrtSynchronizeStream", PR_SYNCK_STREAM},
        {"Runtime@StreamSynchronize", PR_SYNCK_STREAM},
        {"synchronizeStream", PR_SYNCK_STREAM}, /* MTIA's runtime */
        {"cudaEventSynchronize", PR_SYNCK_EVENT},
        {"aclrtSynchronizeEvent", PR_SYNCK_EVENT},
        {"cudaStreamWaitEvent", PR_SYNCK_STREAM_WAIT},
        {"AscendCL@aclrtStreamWaitEvent", PR_SYNCK_STREAM_WAIT},
        {"cudaMemcpy", PR_SYNCK_COPY},
        {"aclrtMemcpy", PR_SYNCK_COPY},
        {"hipMemcpyWithStream", PR_SYNCK_COPY},
        {"cudaMemcpyAsync", PR_SYNCK_ASYNC_COPY},
        {"cudaMemcpyPeerAsync", PR_SYNCK_NONE},
        {"cudaLaunchKernel", PR_SYNCK_NONE},
        {"cudaEventQuery", PR_SYNCK_NONE},
        {"cudaEventRecord", PR_SYNCK_NONE},
        {"runFunction - job_prep_and_submit_for_execution", PR_SYNCK_NONE},
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        if (pr_sync_call_kind(v[i].name) != v[i].kind)
            fail_msg("%s: kind %d, not %d", v[i].name,
                     (int)pr_sync_call_kind(v[i].name), (int)v[i].kind);
    assert_int_equal(pr_sync_call_kind(NULL), PR_SYNCK_NONE);
    assert_int_equal(pr_sync_record_kind("Context Sync"), PR_SYNCK_DEVICE);
    assert_int_equal(pr_sync_record_kind("Stream Sync"), PR_SYNCK_STREAM);
    assert_int_equal(pr_sync_record_kind("Event Sync"), PR_SYNCK_EVENT);
    assert_int_equal(pr_sync_record_kind("Stream Wait Event"),
                     PR_SYNCK_STREAM_WAIT);
    assert_string_equal(pr_sync_kind_name(PR_SYNCK_COPY), "blocking_copy");
    assert_false(pr_sync_blocks_host(PR_SYNCK_STREAM_WAIT));
    assert_true(pr_sync_blocks_host(PR_SYNCK_EVENT));
}

/* A device's own waits and records (MTIA's event_wait/event_record,
 * Ascend's Notify Wait, EVENT_WAIT, Write Value) are no host sync, even
 * where the device idles beside them; MTIA's runtime synchronizeStream
 * is one: the device idles from running dry (300) until the next work
 * (420). */
static void
test_device_side_waits(void **state)
{
    static const char *const waits[] = {"event_wait", "event_record",
                                        "Notify Wait", "EVENT_WAIT",
                                        "Write Value"};
    struct pr_trace *t = pr_trace_new();
    const cJSON *s, *calls, *r;
    cJSON *run;
    size_t i;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 1000, 1);
    tt_rt(t, "runFunction - job_prep_and_submit_for_execution", 5, 5, 1, 1);
    tt_kernel(t, "fc-dtype_Float", 100, 200, 1);
    for (i = 0; i < sizeof(waits) / sizeof(waits[0]); i++)
        tt_event(t, PR_KIND_DEVICE_SYNC, waits[i], "stream 5",
                 300 + 10 * (double)i, 50);
    tt_rt(t, "synchronizeStream", 250, 150, 2, 2);
    tt_rt(t, "runFunction - job_prep_and_submit_for_execution", 410, 5, 3, 3);
    tt_kernel(t, "fc-dtype_Float", 420, 100, 3);
    run = analyse(t);
    s = at(run, "synchronization");
    calls = at(s, "calls");
    assert_int_equal(cJSON_GetArraySize(calls), 1);
    r = row(calls, "name", "synchronizeStream", NULL, NULL);
    assert_non_null(r);
    assert_string_equal(cJSON_GetStringValue(at(r, "kind")), "stream");
    tt_near(num(r, "host_us"), 150);
    tt_near(num(r, "gpu_idle_us"), 120);
    for (i = 0; i < sizeof(waits) / sizeof(waits[0]); i++)
        assert_null(row(calls, "name", waits[i], NULL, NULL));
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* cudaMemcpyAsync to pageable memory blocks the host (a staged copy). */
static void
test_pageable_blocks(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *r;
    cJSON *run;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 100, 1);
    tt_rt(t, "cudaMemcpyAsync", 10, 30, 1, 1);
    tt_dev(t, PR_KIND_COPY, "Memcpy DtoH (Device -> Pageable)", 0, 20, 10, 1,
           -2, -2);
    tt_rt(t, "cudaMemcpy", 50, 5, 2, 2);
    tt_dev(t, PR_KIND_COPY, "Memcpy HtoD (Pinned -> Device)", 0, 51, 2, 2, -2,
           -2);
    run = analyse(t);
    r = row(at(at(run, "synchronization"), "calls"), "name", "cudaMemcpyAsync",
            NULL, NULL);
    assert_non_null(r);
    assert_string_equal(cJSON_GetStringValue(at(r, "kind")), "blocking_copy");
    r = row(at(at(run, "synchronization"), "calls"), "name", "cudaMemcpy", NULL,
            NULL);
    assert_non_null(r);
    tt_near(num(at(run, "synchronization"), "host_us"), 35);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* Copies by direction and host memory, bytes counted once, host copies
 * judged against the host link of data/devices.json. */
static void
test_copies(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *c, *r;
    cJSON *run;

    (void)state;
    tt_device(t, "NVIDIA A100-SXM4-80GB", 8, 0, 108, 80LL << 30);
    tt_op(t, "ProfilerStep#1", 0, 1000, 1);
    tt_rt(t, "cudaMemcpyAsync", 1, 1, 1, 1);
    tt_dev(t, PR_KIND_COPY, "Memcpy HtoD (Pageable -> Device)", 0, 10, 100, 1,
           -2, -2);
    set_gpu(t, 1000000, 7); /* 10 GB/s */
    tt_rt(t, "cudaMemcpyAsync", 2, 1, 2, 2);
    tt_dev(t, PR_KIND_COPY, "Memcpy HtoD (Pinned -> Device)", 0, 200, 40, 2, -2,
           -2);
    set_gpu(t, 1000000, 7); /* 25 GB/s */
    tt_dev(t, PR_KIND_COPY, "Memcpy DtoD (Device -> Device)", 0, 300, 10, 3, -2,
           -2);
    set_gpu(t, 8000000, 7);
    tt_dev(t, PR_KIND_SET, "Memset (Device)", 0, 400, 1, 4, -2, -2);
    set_gpu(t, 4096, 7);
    run = analyse(t);
    c = at(run, "copies");
    tt_near(num(c, "count"), 3);
    tt_near(num(c, "bytes"), 10000000);
    tt_near(num(at(c, "memset"), "bytes"), 4096);
    is_null(c, "note");
    r = row(at(c, "by_kind"), "direction", "HtoD", "host_memory", "pageable");
    assert_non_null(r);
    tt_near(num(r, "gbps"), 10.0);
    assert_string_equal(cJSON_GetStringValue(at(r, "link")), "PCIe 4.0 x16");
    tt_near(num(r, "link_pct"), 100.0 * 10.0 / 31.5);
    r = row(at(c, "by_kind"), "direction", "HtoD", "host_memory", "pinned");
    assert_non_null(r);
    tt_near(num(r, "gbps"), 25.0);
    r = row(at(c, "by_kind"), "direction", "DtoD", NULL, NULL);
    assert_non_null(r);
    is_null(r, "host_memory");
    is_null(r, "link_pct"); /* device memory is not a host link */
    tt_near(num(r, "gbps"), 800.0);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* Without deviceProperties a host copy cannot be judged: null and a note. */
static void
test_copies_unknown_link(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *c, *r;
    cJSON *run;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 100, 1);
    tt_dev(t, PR_KIND_COPY, "Memcpy DtoH (Device -> Pinned)", 0, 10, 10, 1, -2,
           -2);
    set_gpu(t, 1000, 7);
    run = analyse(t);
    c = at(run, "copies");
    r = row(at(c, "by_kind"), "direction", "DtoH", "host_memory", "pinned");
    assert_non_null(r);
    is_null(r, "link_pct");
    assert_non_null(
        strstr(cJSON_GetStringValue(at(c, "note")), "no deviceProperties"));
    cJSON_Delete(run);
    pr_trace_free(t);
}

static void
test_host_link_table(void **state)
{
    char label[64];

    (void)state;
    tt_near(
        pr_hostdev_link("NVIDIA GH200 480GB", "sm_90", label, sizeof(label)),
        450.0);
    assert_string_equal(label, "NVLink-C2C");
    tt_near(
        pr_hostdev_link("NVIDIA H100 80GB HBM3", "sm_90", label, sizeof(label)),
        63.0);
    tt_near(pr_hostdev_link(NULL, "sm_70", label, sizeof(label)), 15.75);
    assert_true(isnan(pr_hostdev_link("Some NPU", NULL, label, sizeof(label))));
    assert_string_equal(label, "");
}

/* Launch delay (kernel start - launch call end), queue length per stream,
 * and a CUDA graph launch running three kernels under one correlation. */
static void
test_launches(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *l, *q, *d;
    cJSON *run;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 200, 1);
    tt_rt(t, "cudaLaunchKernel", 0, 2, 1, 1);
    tt_rt(t, "cudaLaunchKernel", 2, 2, 2, 2);
    tt_rt(t, "cudaMemcpyAsync", 5, 1, 4, 4);
    tt_rt(t, "cudaMemsetAsync", 6, 1, 5, 5);
    tt_kernel(t, "a", 10, 10, 1); /* delay 8 */
    tt_kernel(t, "b", 20, 10, 2); /* delay 16 */
    tt_dev(t, PR_KIND_COPY, "Memcpy HtoD (Pinned -> Device)", 0, 30, 2, 4, -2,
           -2);
    tt_dev(t, PR_KIND_SET, "Memset (Device)", 0, 33, 1, 5, -2, -2);
    tt_rt(t, "cudaGraphLaunch", 40, 5, 3, 3);
    tt_kernel(t, "g1", 50, 5, 3);
    tt_kernel(t, "g2", 55, 5, 3);
    tt_kernel(t, "g3", 60, 5, 3);
    run = analyse(t);
    l = at(run, "launches");
    tt_near(num(l, "kernels_with_launch"), 2); /* graph kernels apart */
    d = at(l, "launch_delay_us");
    tt_near(num(d, "mean"), 12);
    tt_near(num(d, "max"), 16);
    q = cJSON_GetArrayItem(at(l, "queue_length"), 0);
    assert_non_null(q);
    /* HTA's queue: launched, not yet started; the copy and the memset
     * count, so at [6,10) a, b, the copy and the memset wait: 4; the
     * graph's three kernels are queued from its launch (3 at [40,50)),
     * each counted once (issue #29 #1) */
    tt_near(num(q, "max"), 4);
    tt_near(num(q, "operations"), 7);
    tt_near(num(q, "kernels"), 5);
    tt_near(num(l, "graph_launches"), 1);
    tt_near(num(l, "graph_kernels"), 3);
    assert_true(cJSON_IsTrue(at(l, "cuda_graphs")));
    is_null(l, "note");
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* The device's clock ahead of the host's (a B200 Kineto trace of CUDA
 * 12.9 / driver 13.0: 113 of 179 kernels start up to 200 us before their
 * launch call begins): kernels b and c start 5 and 3 us before their
 * calls, d 0.5 us (within the 1 us left to rounding), a after: 2 of 4,
 * a launches note and a "clock_skew" data-quality row; with one early
 * kernel of 12 (under 10%) neither. */
static void
test_clock_skew(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *l, *r;
    const char *note;
    cJSON *run;
    int i;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 200, 1);
    tt_rt(t, "cudaLaunchKernel", 10, 2, 1, 1);
    tt_rt(t, "cudaLaunchKernel", 30, 2, 2, 2);
    tt_rt(t, "cudaLaunchKernel", 50, 2, 3, 3);
    tt_rt(t, "cudaLaunchKernel", 70, 2, 4, 4);
    tt_kernel(t, "a", 14, 4, 1);
    tt_kernel(t, "b", 25, 4, 2);   /* 5 us before its call */
    tt_kernel(t, "c", 47, 2, 3);   /* 3 us before */
    tt_kernel(t, "d", 69.5, 2, 4); /* 0.5 us: rounding */
    run = analyse(t);
    l = at(run, "launches");
    note = cJSON_GetStringValue(at(l, "note"));
    assert_non_null(note);
    assert_non_null(strstr(note, "2 of 4 kernels and copies start before "
                                 "their launch call begins (by up to 5.0"));
    r = row(at(run, "diagnostics"), "kind", "clock_skew", NULL, NULL);
    assert_non_null(r);
    tt_near(num(r, "count"), 2);
    /* read from those clocks: not known, null rather than a number */
    is_null(l, "launch_delay_us");
    is_null(l, "queue_length");
    is_null(l, "gpu_idle_host_wait_pct");
    cJSON_Delete(run);
    pr_trace_free(t);

    t = pr_trace_new();
    tt_op(t, "ProfilerStep#1", 0, 400, 1);
    for (i = 0; i < 12; i++) {
        tt_rt(t, "cudaLaunchKernel", 10 + 30 * i, 2, 1 + i, 1 + i);
        tt_kernel(t, "k", i == 0 ? 5 : 14 + 30 * i, 4, 1 + i);
    }
    run = analyse(t);
    l = at(run, "launches");
    is_null(l, "note");
    assert_null(row(at(run, "diagnostics"), "kind", "clock_skew", NULL, NULL));
    assert_true(cJSON_IsObject(at(l, "launch_delay_us")));
    assert_true(cJSON_IsArray(at(l, "queue_length")));
    assert_true(cJSON_IsNumber(at(l, "gpu_idle_host_wait_pct")));
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* A cold step: the only step's first hipLaunchKernel holds the host 7 of
 * its 10 ms while the code object loads (issue #29).  The slowest launch
 * and its share of the step are measured and the step is named cold; a
 * warm step (launches of 5 us) is not. */
static void
test_cold_step(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *sl, *r;
    const char *text = NULL;
    cJSON *run;

    (void)state;
    tt_op(t, "ProfilerStep#0", 0, 10000, 1);
    tt_rt(t, "hipLaunchKernel", 100, 7000, 1, 1);
    tt_kernel(t, "Cijk_Ailk_Bljk_SB", 7110, 500, 1);
    tt_rt(t, "hipLaunchKernel", 7200, 5, 2, 2);
    tt_kernel(t, "elementwise", 7700, 100, 2);
    run = analyse(t);
    sl = at(at(run, "launches"), "slowest_launch");
    assert_string_equal(cJSON_GetStringValue(at(sl, "name")),
                        "hipLaunchKernel");
    assert_string_equal(cJSON_GetStringValue(at(sl, "kernel")),
                        "Cijk_Ailk_Bljk_SB");
    assert_string_equal(cJSON_GetStringValue(at(sl, "step")), "ProfilerStep#0");
    tt_near(num(sl, "duration_us"), 7000);
    tt_near(num(sl, "delay_us"), 10);
    tt_near(num(sl, "step_pct"), 70);
    cJSON_ArrayForEach(r, at(run, "recommendations"))
    {
        if (strcmp(cJSON_GetStringValue(at(r, "id")), "cold_step") == 0)
            text = cJSON_GetStringValue(at(r, "text"));
    }
    /* in its replay's words (review R2): every call of 1 ms or more, and
       how much shorter the warm step is (7 ms of 10 saved: 69.95%) */
    assert_non_null(text);
    assert_non_null(strstr(text, "The capture is cold"));
    assert_non_null(strstr(text, "(hipLaunchKernel 7.0 ms)"));
    assert_non_null(strstr(text, "its steps would be 70% shorter"));
    assert_non_null(strstr(text, "after warm-up"));
    cJSON_Delete(run);
    pr_trace_free(t);

    t = pr_trace_new();
    tt_op(t, "ProfilerStep#1", 0, 100, 1);
    tt_rt(t, "cudaLaunchKernel", 10, 5, 1, 1);
    tt_kernel(t, "gemm", 20, 50, 1);
    run = analyse(t);
    sl = at(at(run, "launches"), "slowest_launch");
    tt_near(num(sl, "duration_us"), 5);
    cJSON_ArrayForEach(r, at(run, "recommendations"))
    {
        assert_string_not_equal(cJSON_GetStringValue(at(r, "id")), "cold_step");
    }
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* GPU activities only: sync and launch numbers are null, with a note. */
static void
test_no_runtime(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *s, *l;
    cJSON *run;

    (void)state;
    tt_kernel(t, "a", 10, 10, 1);
    tt_kernel(t, "b", 30, 10, 2);
    run = analyse(t);
    s = at(run, "synchronization");
    is_null(s, "host_us");
    is_null(s, "gpu_idle_us");
    assert_non_null(
        strstr(cJSON_GetStringValue(at(s, "note")), "no runtime calls"));
    l = at(run, "launches");
    is_null(l, "launch_delay_us");
    assert_non_null(
        strstr(cJSON_GetStringValue(at(l, "note")), "no runtime calls"));
    tt_near(
        num(cJSON_GetArrayItem(at(run, "temporal_breakdown"), 0), "idle_us"),
        10);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* ------------------------------------------------ the recommendations */

/* facts over one step of 1000 us (steps_span_us). */
static void
one_step(struct pr_rec_facts *f)
{
    trec_facts(f);
    f->tables.steps_span_us = 1000;
}

/* NCCL kernels and tensor-core GEMMs are low-occupancy by design. */
static void
test_rec_occupancy(void **state)
{
    struct pr_rec_kernel k[] = {
        TREC_KERNEL("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 50, 1, 0.1),
        TREC_KERNEL("cutlass_80_tensorop_s1688gemm_128x128", 30, 10, 0.5),
        TREC_KERNEL("my_kernel", 20, 10, 4),
        TREC_KERNEL("volta_sgemm_128x64_nn", 25, 24, 9.6),
        TREC_KERNEL("cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1", 22, 19,
                    28)};
    struct pr_rec_kernel k2[] = {
        TREC_KERNEL("volta_sgemm_128x64_nn", 25, 5, 0.4)};
    struct pr_rec_kernel k3[] = {TREC_KERNEL("my_kernel", 20, 7, 1.2)};
    struct pr_rec_gpu g[] = {trec_gpu(0, 2, 20)};
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    k[1].tc_used = 1;
    trec_facts(&f);
    f.tables.kernels = k;
    f.tables.n_kernels = 5;
    t = trec_text(&f, &run, "{}", "low_occupancy");
    assert_non_null(t);
    assert_non_null(strstr(t, "my_kernel: 13.6% of kernel time"));
    assert_null(strstr(t, "nccl"));
    assert_null(strstr(t, "cutlass"));
    /* R4: the libraries' large-tile GEMM and convolution kernels run at
       low occupancy by design (registers per thread) */
    assert_null(strstr(t, "volta_sgemm"));
    assert_null(strstr(t, "scudnn"));
    /* only the branch that applies: my_kernel has 4 blocks per SM */
    assert_non_null(strstr(t, "registers or shared memory per block"));
    assert_null(strstr(t, "Under one block per SM"));
    cJSON_Delete(run);
    /* a GEMM whose grid is under one block per SM is named, with the
       grid's branch only */
    trec_facts(&f);
    f.tables.kernels = k2;
    f.tables.n_kernels = 1;
    t = trec_text(&f, &run, "{}", "low_occupancy");
    assert_non_null(t);
    assert_non_null(strstr(t, "volta_sgemm_128x64_nn"));
    assert_non_null(strstr(t, "Under one block per SM"));
    assert_null(strstr(t, "registers or shared memory"));
    cJSON_Delete(run);
    /* a device idle 98% of the steps: its kernels' occupancy is not what
       bounds them (hta inference: a 1.6 ms capture of a few kernels) */
    one_step(&f);
    f.tables.gpus = g;
    f.tables.n_gpus = 1;
    f.tables.kernels = k3;
    f.tables.n_kernels = 1;
    assert_null(trec_text(&f, &run, "{}", "low_occupancy"));
    cJSON_Delete(run);
}

/* An operators_by_shape row with only a name and device times. */
static struct pr_rec_op
op_row(const char *name, double self_us, double total_us)
{
    struct pr_rec_op r = {name, NULL, NULL, NULL, self_us, total_us,
                          NAN,  NAN,  NAN,  NAN,  0};

    return r;
}

/* Dtype conversions (review R18): PyTorch's casting kernels by name
 * (Copy.cu's bfloat16_copy_kernel_cuda: float to bf16) and the device
 * time of aten::_to_copy, 5% of kernel time or more.  A direct copy
 * (direct_copy_kernel_cuda: also .contiguous(), no cast) outside
 * aten::_to_copy is not one. */
static void
test_rec_dtype_conversions(void **state)
{
    struct pr_rec_kernel k[] = {
        TREC_KERNEL("volta_sgemm_128x64_nn", 80, NAN, NAN),
        TREC_KERNEL("void at::native::vectorized_elementwise_kernel<4, "
                    "at::native::bfloat16_copy_kernel_cuda(at::"
                    "TensorIteratorBase&)::{lambda(float)#1}>",
                    6, NAN, NAN),
        TREC_KERNEL("void at::native::unrolled_elementwise_kernel<"
                    "at::native::direct_copy_kernel_cuda(at::"
                    "TensorIteratorBase&)>",
                    14, NAN, NAN)};
    struct pr_rec_kernel k2[] = {
        TREC_KERNEL("volta_sgemm_128x64_nn", 50, NAN, NAN),
        TREC_KERNEL("void at::native::unrolled_elementwise_kernel<"
                    "at::native::direct_copy_kernel_cuda(at::"
                    "TensorIteratorBase&)>",
                    50, NAN, NAN)};
    struct pr_rec_op ops[] = {op_row("aten::_to_copy", 0, 9)};
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    k[1].calls = 12;
    k[2].calls = 3;
    trec_facts(&f);
    f.tables.kernels = k;
    f.tables.n_kernels = 3;
    f.tables.ops = ops;
    f.tables.n_ops = 1;
    t = trec_text(&f, &run, "{}", "dtype_conversions");
    assert_non_null(t);
    /* the larger of the casts (6) and aten::_to_copy (9): up to 9%, an
       upper bound, beside the casting kernels the replay takes off (6%) */
    assert_non_null(strstr(t, "take up to 9.0% of kernel time (0.009 ms, an "
                              "upper bound: aten::_to_copy's device time"));
    assert_non_null(strstr(t, "the casting kernels by name take 6.0% "
                              "(0.006 ms), the part its replay takes off"));
    assert_non_null(strstr(t, "bfloat16_copy_kernel_cuda 6.0% (12 calls)"));
    assert_null(strstr(t, "direct_copy"));
    cJSON_Delete(run);
    trec_facts(&f);
    f.tables.kernels = k2;
    f.tables.n_kernels = 2;
    assert_null(trec_text(&f, &run, "{}", "dtype_conversions"));
    cJSON_Delete(run);
}

/* A sync inside the steps that starved the GPU 10% of the steps fires and
 * names the call; 1% does not. */
static void
test_rec_host_sync(void **state)
{
    struct pr_hostdev_sync sy[] = {
        {"cudaDeviceSynchronize", NULL, 2, 100, 0, 0}};
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    one_step(&f);
    f.tables.hostdev.sync_idle_us = 100;
    f.tables.hostdev.syncs = sy;
    f.tables.hostdev.n_syncs = 1;
    t = trec_text(&f, &run, "{}", "host_sync");
    assert_non_null(t);
    assert_non_null(strstr(t, "idles 0.1 ms (10.0% of the profiled steps)"));
    assert_non_null(strstr(t, "cudaDeviceSynchronize x2"));
    cJSON_Delete(run);
    one_step(&f);
    f.tables.hostdev.sync_idle_us = 10;
    assert_null(trec_text(&f, &run, "{}", "host_sync"));
    cJSON_Delete(run);
}

/* On an Ascend run (devices of kind "npu") the advice names the NPU and
 * torch_npu's call, never the GPU or CUDA. */
static void
test_rec_npu_words(void **state)
{
    struct pr_hostdev_sync sy[] = {
        {"AscendCL@aclrtSynchronizeStream", NULL, 2, 100, 0, 0}};
    struct pr_rec_device d[] = {trec_device(0, 1)};
    struct pr_rec_gpu g[] = {trec_gpu(0, 20, NAN)};
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    one_step(&f);
    f.tables.devs = d;
    f.tables.n_devs = 1;
    f.tables.gpus = g;
    f.tables.n_gpus = 1;
    f.tables.hostdev.sync_idle_us = 100;
    f.tables.hostdev.syncs = sy;
    f.tables.hostdev.n_syncs = 1;
    t = trec_text(&f, &run, "{}", "host_sync");
    assert_non_null(t);
    assert_non_null(strstr(t, "The host blocks on the NPU"));
    assert_non_null(strstr(t, "(0.1 ms NPU idle)"));
    assert_non_null(strstr(t, "torch.npu.synchronize()"));
    assert_null(strstr(t, "GPU"));
    assert_null(strstr(t, "cuda"));
    cJSON_Delete(run);
    f.tables.hostdev.syncs = NULL;
    f.tables.hostdev.n_syncs = 0;
    f.tables.hostdev.sync_idle_us = NAN;
    t = trec_text(&f, &run, "{}", "low_gpu_utilization");
    assert_non_null(t);
    assert_non_null(strstr(t, "NPU 0 has low utilization"));
    assert_null(strstr(t, "GPU"));
    cJSON_Delete(run);
}

/* One pageable HtoD copy row over the PCIe 4.0 x16 link (31.5 GB/s). */
static struct pr_hostdev_copy
pageable_row(double count, double us, double bytes, double gbps,
             double link_pct, double call_us)
{
    struct pr_hostdev_copy c = {.direction = "HtoD",
                                .host_memory = "pageable",
                                .link = "PCIe 4.0 x16",
                                .count = count,
                                .us = us,
                                .bytes = bytes,
                                .gbps = gbps,
                                .link_pct = link_pct,
                                .link_gbps = 31.5,
                                .call_us = call_us};

    return c;
}

/* Slow pageable copies: pin_memory + non_blocking, judged against the
 * host link and never HBM; copies near the link speed are left alone. */
static void
test_rec_pageable(void **state)
{
    struct pr_hostdev_copy cp[] = {pageable_row(4, 20, 4e7, NAN, 14, NAN)};
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    one_step(&f);
    f.tables.hostdev.copies = cp;
    f.tables.hostdev.n_copies = 1;
    t = trec_text(&f, &run, "{}", "pageable_copies");
    assert_non_null(t);
    assert_non_null(strstr(t, "14% of the PCIe 4.0 x16 link"));
    assert_non_null(strstr(t, "pin_memory=True"));
    assert_non_null(strstr(t, "non_blocking=True"));
    assert_null(strstr(t, "HBM"));
    cJSON_Delete(run);
    cp[0].link_pct = 64;
    assert_null(trec_text(&f, &run, "{}", "pageable_copies"));
    cJSON_Delete(run);
}

/* Device 0 busy 20% of one step, its 100 us of idle split into host wait
 * and other (hostdev.c's shares), copies from the host running copy_pct
 * of its span, its stream's queue. */
static void
waits(struct pr_rec_facts *f, struct pr_rec_gpu *g, double host_wait,
      double other, double copy_pct, double queue_mean, double queue_max)
{
    struct pr_hostdev_out *hd = &f->tables.hostdev;

    one_step(f);
    *g = trec_gpu(0, 20, 200);
    f->tables.gpus = g;
    f->tables.n_gpus = 1;
    hd->idle_host_share = host_wait / 100;
    hd->idle_other_share = other / 100;
    hd->copy_busy_pct = copy_pct;
    hd->queue_mean = queue_mean;
    hd->queue_max = queue_max;
}

/* "Increase batch size" only when the host starves the device: most idle
 * is host wait and the queue is near empty.  Never with 1,022 operations
 * queued, nor when host copies keep the device busy (issue #29). */
static void
test_rec_batch_gated(void **state)
{
    struct pr_rec_gpu g;
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    waits(&f, &g, 80, 20, 0, 0.2, 2);
    t = trec_text(&f, &run, "{\"framework\": \"pytorch\"}",
                  "low_gpu_utilization");
    assert_non_null(t);
    assert_non_null(strstr(t, "increase batch size"));
    cJSON_Delete(run);
    /* a program the trace shows no framework in has no batch (review
       28h #8: an MPI saxpy under nsys) */
    waits(&f, &g, 80, 20, 0, 0.2, 2);
    t = trec_text(&f, &run, "{}", "low_gpu_utilization");
    assert_non_null(t);
    assert_null(strstr(t, "batch size"));
    assert_non_null(strstr(t, "more work"));
    cJSON_Delete(run);
    waits(&f, &g, 80, 20, 0, 300, 1022);
    t = trec_text(&f, &run, "{}", "low_gpu_utilization");
    assert_non_null(t);
    assert_null(strstr(t, "increase batch size"));
    assert_non_null(strstr(t, "up to 1022"));
    cJSON_Delete(run);
    waits(&f, &g, 80, 20, 97, 0.2, 2);
    t = trec_text(&f, &run, "{}", "low_gpu_utilization");
    assert_non_null(t);
    assert_null(strstr(t, "increase batch size"));
    assert_non_null(strstr(t, "keep it busy 97%"));
    cJSON_Delete(run);
    waits(&f, &g, 20, 80, 0, 0.2, 2);
    t = trec_text(&f, &run, "{}", "low_gpu_utilization");
    assert_non_null(t);
    assert_null(strstr(t, "increase batch size"));
    assert_non_null(strstr(t, "20% of its idle time waits for the host"));
    assert_non_null(strstr(t, "80% has work queued"));
    cJSON_Delete(run);
}

/* Blocking input copies (HtoD, pageable cudaMemcpyAsync) get the pinned
 * memory advice, not the .item()/.cpu() one; a DtoH .item() copy stays a
 * sync. */
static void
test_rec_input_copy_pinned(void **state)
{
    struct pr_hostdev_sync sy[] = {{"cudaMemcpyAsync", "HtoD", 12, 100, 0, 0}};
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    one_step(&f);
    f.tables.hostdev.sync_idle_us = 100;
    f.tables.hostdev.syncs = sy;
    f.tables.hostdev.n_syncs = 1;
    t = trec_text(&f, &run, "{}", "pageable_copies");
    assert_non_null(t);
    assert_non_null(strstr(t, "12 blocking copies to the GPU"));
    assert_non_null(strstr(t, "pin_memory=True"));
    cJSON_Delete(run);
    assert_null(trec_text(&f, &run, "{}", "host_sync"));
    cJSON_Delete(run);
    sy[0].direction = "DtoH";
    sy[0].count = 3;
    t = trec_text(&f, &run, "{\"framework\": \"pytorch\"}", "host_sync");
    assert_non_null(t);
    assert_non_null(strstr(t, ".item()"));
    cJSON_Delete(run);
    /* a program whose trace shows no PyTorch is told in CUDA's words
       (review 28h #11) */
    t = trec_text(&f, &run, "{}", "host_sync");
    assert_non_null(t);
    assert_null(strstr(t, ".item()"));
    assert_non_null(strstr(t, "Synchronize less"));
    cJSON_Delete(run);
}

/* HtoD copies keep the device busy 97% of its span: the run is
 * copy-bound, said with the host time inside the calls. */
static void
test_rec_copy_bound(void **state)
{
    struct pr_hostdev_copy cp[] = {pageable_row(100, 970, NAN, 6, 19, 466000)};
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    one_step(&f);
    f.tables.hostdev.idle_host_share = 1; /* its 10 us idle: host wait */
    f.tables.hostdev.copy_busy_pct = 97;
    f.tables.hostdev.copies = cp;
    f.tables.hostdev.n_copies = 1;
    t = trec_text(&f, &run, "{}", "copy_bound");
    assert_non_null(t);
    assert_non_null(strstr(t, "keep it busy 97% of its span"));
    assert_non_null(strstr(t, "19% of the PCIe 4.0 x16 link"));
    assert_non_null(strstr(t, "466.0 ms inside the calls"));
    cJSON_Delete(run);
    one_step(&f);
    f.tables.hostdev.copy_busy_pct = 30;
    assert_null(trec_text(&f, &run, "{}", "copy_bound"));
    cJSON_Delete(run);
}

/* A host copy inside an operator is never held to HBM (the 1% of 900
 * GB/s of an input copy over PCIe); an operator with both kinds is
 * judged on its device part, its host copies named apart. */
static void
test_rec_memory_bound_host_copy(void **state)
{
    struct pr_rec_device d[] = {trec_device(0, 0)};
    struct pr_rec_gpu g[] = {trec_gpu(0, NAN, 1000)};
    struct pr_rec_op op[] = {op_row("aten::copy_", 900, 900)};
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    d[0].peak_gbps = 900;
    op[0].shapes = "[[32, 3, 224, 224]]";
    op[0].bound = "memory";
    op[0].bytes = 38535168;
    op[0].host_copy_us = 900;
    op[0].host_copy_bytes = 9633792;
    trec_facts(&f);
    f.tables.devs = d;
    f.tables.n_devs = 1;
    f.tables.gpus = g;
    f.tables.n_gpus = 1;
    f.tables.ops = op;
    f.tables.n_ops = 1;
    assert_null(trec_text(&f, &run, "{}", "memory_bound_ops"));
    cJSON_Delete(run);
    op[0].host_copy_us = 300;
    t = trec_text(&f, &run, "{}", "memory_bound_ops");
    assert_non_null(t);
    /* (38535168 - 2 x 9633792) bytes over 600 us: 32 GB/s */
    assert_non_null(strstr(t, "at 32 GB/s (4% of 900 GB/s)"));
    assert_non_null(strstr(t, "besides 0.3 ms of copies from or to the host"));
    cJSON_Delete(run);
}

/* An op whose calls each move bytes the roof would take under 2 us to
 * move is latency-bound, not memory-bound (review 28h #10: a 5x128
 * addmm, 70.7 KB a call, on an MI250); the same bytes in one call of a
 * big tensor stay memory-bound; channels_last only with a convolution. */
static void
test_rec_memory_bound_latency(void **state)
{
    struct pr_rec_device d[] = {trec_device(0, 0)};
    struct pr_rec_gpu g[] = {trec_gpu(0, NAN, 1000)};
    struct pr_rec_op op[] = {op_row("aten::addmm", 880, 880)};
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    d[0].peak_gbps = 1638;
    op[0].shapes = "[[128], [5, 128], [128, 128], [], []]";
    op[0].bound = "memory";
    op[0].bytes = 50 * 70720.0; /* 50 calls of 70.7 KB, 17.6 us each */
    op[0].calls = 50;
    trec_facts(&f);
    f.tables.devs = d;
    f.tables.n_devs = 1;
    f.tables.gpus = g;
    f.tables.n_gpus = 1;
    f.tables.ops = op;
    f.tables.n_ops = 1;
    assert_null(trec_text(&f, &run, "{}", "memory_bound_ops"));
    cJSON_Delete(run);
    op[0].calls = 1; /* 3.5 MB in one 880 us call: slow, not latency */
    t = trec_text(&f, &run, "{}", "memory_bound_ops");
    assert_non_null(t);
    assert_null(strstr(t, "channels_last"));
    cJSON_Delete(run);
}

/* Launch-bound needs evidence: the GPU idle waiting for launches. */
static void
test_rec_launch_bound(void **state)
{
    struct pr_rec_kernel k[] = {TREC_KERNEL("k", 400, NAN, NAN)};
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    k[0].calls = 200;
    k[0].mean_us = 2;
    trec_facts(&f);
    f.tables.step_mean_us = 1000;
    f.tables.step_cat_us[PR_CAT_RUNTIME] = 300;
    f.tables.kernels = k;
    f.tables.n_kernels = 1;
    f.tables.hostdev.host_wait_pct = 40;
    f.tables.hostdev.delay_median_us = 3;
    t = trec_text(&f, &run, "{}", "launch_bound");
    assert_non_null(t);
    assert_non_null(strstr(t, "idles 40.0% of its time"));
    assert_non_null(strstr(t, "CUDA graph"));
    cJSON_Delete(run);
    f.tables.hostdev.host_wait_pct = 2;
    assert_null(trec_text(&f, &run, "{}", "launch_bound"));
    cJSON_Delete(run);
}

/* The slowest launch (hostdev.c's launches.slowest_launch): its call
 * time, its step and the share of the step's host time, its kernel's
 * delay. */
static void
slowest(struct pr_rec_facts *f, double us, double delay_us, const char *step,
        double step_pct)
{
    struct pr_hostdev_out *hd = &f->tables.hostdev;

    one_step(f);
    hd->slow_launch_us = us;
    hd->slow_launch_delay_us = delay_us;
    hd->slow_launch_step_pct = step_pct;
    snprintf(hd->slow_launch_name, sizeof(hd->slow_launch_name), "%s",
             "cudaLaunchKernel");
    snprintf(hd->slow_launch_step, sizeof(hd->slow_launch_step), "%s", step);
}

/* ------------------------------------------------ the real traces */

static char root[4096];

/* The same rule on hostdev.c's figures alone. */
static void
test_rec_cold_step(void **state)
{
    struct pr_rec_facts f;
    cJSON *run;
    const char *t;

    (void)state;
    slowest(&f, 1200, NAN, "ProfilerStep#3", 40);
    t = trec_text(&f, &run, "{}", "cold_step");
    assert_non_null(t);
    assert_non_null(strstr(t, "Step ProfilerStep#3 is cold"));
    cJSON_Delete(run);
    /* a 150 ms launch whose kernel started at once: loading, whatever
     * its share (HTA's alexnet: a 3.06 s cudaLaunchKernel, 7% of the
     * capture); one whose kernel waited 50 ms behind a full queue: not */
    slowest(&f, 150000, 0, "capture", 7);
    t = trec_text(&f, &run, "{}", "cold_step");
    assert_non_null(t);
    assert_non_null(strstr(t, "The capture is cold"));
    assert_non_null(strstr(t, "7% of the capture's host time"));
    cJSON_Delete(run);
    slowest(&f, 150000, 50000, "s", 7);
    assert_null(trec_text(&f, &run, "{}", "cold_step"));
    cJSON_Delete(run);
    /* a slow launch in a long step is not a cold step */
    slowest(&f, 1200, NAN, "s", 5);
    assert_null(trec_text(&f, &run, "{}", "cold_step"));
    cJSON_Delete(run);
}

static int
find_shared(void)
{
    return shared_traces(root, sizeof(root), "");
}

static cJSON *
load_run(const char *rel, struct pr_trace **t)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {0};
    char path[4096 + 256];
    cJSON *run;

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    *t = NULL;
    if (pr_reader_load(path, NULL, t, &err) != PR_OK)
        fail_msg("%s: %s", rel, err.msg);
    run = cJSON_CreateObject();
    assert_non_null(cJSON_AddArrayToObject(run, "diagnostics"));
    assert_non_null(cJSON_AddObjectToObject(run, "data_quality"));
    if (pr_analysis_run(*t, &o, run, &err) != PR_OK)
        fail_msg("%s: %s", rel, err.msg);
    return run;
}

/* The four parts of the temporal breakdown make up the span. */
static void
check_parts(const cJSON *run)
{
    const cJSON *r;

    cJSON_ArrayForEach(r, at(run, "temporal_breakdown"))
    {
        tt_near(num(r, "compute_us") + num(r, "communication_us") +
                    num(r, "memory_us") + num(r, "idle_us"),
                num(r, "span_us"));
        tt_near(num(r, "idle_host_wait_us") + num(r, "idle_kernel_wait_us") +
                    num(r, "idle_other_us"),
                num(r, "idle_us"));
    }
}

/* HTA's alexnet benchmark: 16 pageable HtoD copies of 244 MB at 14% of
 * PCIe 4.0 (an A100), and the device sync after the last step is apart. */
static void
test_alexnet(void **state)
{
    struct pr_trace *t;
    const cJSON *r, *s;
    cJSON *run;

    (void)state;
    if (!find_shared())
        skip();
    run = load_run("hta/critical_path/alexnet/"
                   "benchmark_result_2869224_1695835535_trace.json.gz",
                   &t);
    r = row(at(at(run, "copies"), "by_kind"), "direction", "HtoD",
            "host_memory", "pageable");
    assert_non_null(r);
    tt_near(num(r, "count"), 16);
    tt_near(num(r, "bytes"), 244403360);
    assert_string_equal(cJSON_GetStringValue(at(r, "link")), "PCIe 4.0 x16");
    assert_true(num(r, "link_pct") > 13.9 && num(r, "link_pct") < 14.1);
    s = at(run, "synchronization");
    r = row(at(s, "calls"), "name", "cudaDeviceSynchronize", NULL, NULL);
    assert_non_null(r);
    tt_near(num(r, "count"), 4);
    tt_near(num(r, "outside_steps_count"), 1);
    r = row(at(s, "calls"), "name", "cudaMemcpyAsync", NULL, NULL);
    assert_non_null(r);
    tt_near(num(r, "count"), 16);
    check_parts(run);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* HTA's event-sync sample: the "Event Sync" record of cudaEventQuery is
 * not a wait; cudaEventSynchronize is, once. */
static void
test_event_sync(void **state)
{
    struct pr_trace *t;
    const cJSON *calls, *r;
    cJSON *run;

    (void)state;
    if (!find_shared())
        skip();
    run = load_run("hta/critical_path/cuda_event_sync/event_sync_trace.json.gz",
                   &t);
    calls = at(at(run, "synchronization"), "calls");
    r = row(calls, "name", "cudaEventSynchronize", NULL, NULL);
    assert_non_null(r);
    tt_near(num(r, "count"), 1);
    assert_null(row(calls, "name", "Event Sync", NULL, NULL));
    check_parts(run);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* trace_filter rank 0 (no deviceProperties): communication kernels are
 * communication in the temporal breakdown as in the step breakdown. */
static void
test_trace_filter(void **state)
{
    struct pr_trace *t;
    const cJSON *r;
    cJSON *run;

    (void)state;
    if (!find_shared())
        skip();
    run = load_run("hta/trace_filter/sampled_rank-0.json.gz", &t);
    r = cJSON_GetArrayItem(at(run, "temporal_breakdown"), 0);
    assert_non_null(r);
    assert_true(num(r, "communication_us") > num(r, "compute_us"));
    check_parts(run);
    assert_non_null(cJSON_GetStringValue(at(at(run, "copies"), "note")));
    assert_false(cJSON_IsTrue(at(at(run, "launches"), "cuda_graphs")));
    cJSON_Delete(run);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_temporal),
        cmocka_unit_test(test_temporal_steps_window),
        cmocka_unit_test(test_sync),
        cmocka_unit_test(test_sync_idle_at_most_blocked),
        cmocka_unit_test(test_sync_in_loop),
        cmocka_unit_test(test_sync_names),
        cmocka_unit_test(test_sync_layers_once),
        cmocka_unit_test(test_device_side_waits),
        cmocka_unit_test(test_pageable_blocks),
        cmocka_unit_test(test_copies),
        cmocka_unit_test(test_copies_unknown_link),
        cmocka_unit_test(test_host_link_table),
        cmocka_unit_test(test_launches),
        cmocka_unit_test(test_clock_skew),
        cmocka_unit_test(test_no_runtime),
        cmocka_unit_test(test_rec_occupancy),
        cmocka_unit_test(test_rec_dtype_conversions),
        cmocka_unit_test(test_rec_host_sync),
        cmocka_unit_test(test_rec_npu_words),
        cmocka_unit_test(test_rec_pageable),
        cmocka_unit_test(test_rec_launch_bound),
        cmocka_unit_test(test_cold_step),
        cmocka_unit_test(test_rec_cold_step),
        cmocka_unit_test(test_rec_batch_gated),
        cmocka_unit_test(test_rec_input_copy_pinned),
        cmocka_unit_test(test_rec_copy_bound),
        cmocka_unit_test(test_rec_memory_bound_host_copy),
        cmocka_unit_test(test_rec_memory_bound_latency),
        cmocka_unit_test(test_alexnet),
        cmocka_unit_test(test_event_sync),
        cmocka_unit_test(test_trace_filter),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
