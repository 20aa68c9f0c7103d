/* test_traces.c - every real Kineto trace under ../shared/traces loads,
 * and traceEvents is counted as Python's json module counts it; the files
 * that are not profiler traces are refused.  Skips when ../shared is
 * absent (found through $PR_SHARED, or $PR_SRCDIR/../shared). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "../analysis/testshared.h"
#include "profreport/reader.h"

/* Counts from: python3 -c "import json,gzip; print(len(json.load(
 * gzip.open(f))['traceEvents']))" */
static const struct {
    const char *path;
    size_t n;
} traces[] = {
    {"hta/call_stack/backward_thread.json", 7},
    {"hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", 30},
    {"hta/critical_path/alexnet/"
     "benchmark_result_2869224_1695835535_trace.json.gz",
     1408},
    {"hta/critical_path/cuda_event_sync/event_sync_trace.json.gz", 92},
    {"hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz",
     149},
    {"hta/critical_path/end_to_end/simple_add/input/trace.json.gz", 1348},
    {"hta/critical_path/end_to_end/simple_add/output/"
     "overlaid_critical_path_trace.json.gz",
     1732},
    {"hta/critical_path/simple_add/"
     "benchmark_result_493459_1694039959_trace.json.gz",
     1348},
    {"hta/df_index_resolver/df_index_resolver.json.gz", 216092},
    {"hta/distributed_info_unavailable/distributed_info_not_found.json.gz",
     2467},
    {"hta/execution_trace/benchmark_simple_add_trace.json.gz", 111},
    {"hta/mixed_files/rank_non_gpu.json.gz", 2467},
    {"hta/nccl_parser_config/nccl_data.json.gz", 40573},
    {"hta/rank_non_gpu/rank_non_gpu.json.gz", 2467},
    {"hta/rank_unavailable/rank_not_found.json.gz", 2467},
    {"hta/timeline_analysis/sampled_rank-0.json.gz", 4855},
    {"hta/trace_diff/control/control.json.gz", 109123},
    {"hta/trace_diff/test/test.json.gz", 105167},
    {"hta/trace_file_list/inference_rank_1.json.gz", 54},
    {"hta/trace_filter/sampled_rank-0.json.gz", 4855},
    {"hta/trace_filter/sampled_rank-1.json.gz", 4720},
    {"tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
     75718},
    {"tb_plugin/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz",
     75718},
};

/* JSON files that are not profiler traces. */
static const struct {
    const char *path, *says;
} refused[] = {
    /* a PyTorch execution trace: {"schema", "nodes", ...}, named as such
       with its Kineto twin asked for */
    {"hta/execution_trace/benchmark_simple_add_et.json.gz",
     ": a PyTorch execution trace ("},
    /* HTA's memory timeline: a bare array of [ts, dev, bytes, kind] rows */
    {"hta/memory_analysis/memory_timeline.raw.gz", ": not a profiler trace ("},
};

static char root[4096];

static int
find_shared(void)
{
    return shared_traces(root, sizeof(root), "");
}

static void
path_of(const char *rel, char *buf, size_t n)
{
    int k = snprintf(buf, n, "%s/%s", root, rel);

    assert_true(k > 0 && (size_t)k < n);
}

static void
test_counts(void **state)
{
    size_t i;

    (void)state;
    if (!find_shared())
        skip();
    for (i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
        char path[4096 + 256];
        struct pr_trace *t = NULL;
        struct pr_error err;

        path_of(traces[i].path, path, sizeof(path));
        pr_error_clear(&err);
        if (pr_reader_load(path, NULL, &t, &err) != PR_OK)
            fail_msg("%s", err.msg);
        if (t->n_trace_events != traces[i].n)
            fail_msg("%s: %zu events, want %zu", traces[i].path,
                     t->n_trace_events, traces[i].n);
        assert_true(t->n_events <= t->n_trace_events);
        pr_trace_free(t);
    }
}

static void
test_refused(void **state)
{
    size_t i;

    (void)state;
    if (!find_shared())
        skip();
    for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        char path[4096 + 256];
        struct pr_trace *t = NULL;
        struct pr_error err;

        path_of(refused[i].path, path, sizeof(path));
        pr_error_clear(&err);
        assert_int_equal(pr_reader_load(path, NULL, &t, &err), PR_E_NOT_FORMAT);
        assert_non_null(strstr(err.msg, refused[i].says));
        assert_null(t);
    }
}

/* The 2021 resnet50 sample: what the TB plugin's views read. */
static void
test_resnet50(void **state)
{
    char path[4096 + 256];
    struct pr_trace *t = NULL;
    struct pr_error err;
    size_t i, kernels = 0, mem = 0, ops = 0;

    (void)state;
    if (!find_shared())
        skip();
    path_of(traces[21].path, path, sizeof(path));
    pr_error_clear(&err);
    if (pr_reader_load(path, NULL, &t, &err) != PR_OK)
        fail_msg("%s", err.msg);
    for (i = 0; i < t->n_events; i++) {
        kernels += t->events[i].kind == PR_KIND_DEVICE_TASK;
        mem += t->events[i].kind == PR_KIND_MEMORY_RECORD;
        ops += t->events[i].kind == PR_KIND_HOST_OP;
    }
    /* grep -c of "cat": "Kernel" / "[memory]" / "Operator" in the file */
    assert_int_equal(kernels, 8772);
    assert_int_equal(mem, 12838);
    assert_int_equal(ops, 23646);
    assert_int_equal(t->n_devices, 4);
    assert_int_equal(pr_trace_device(t, 0)->compute_major, 7);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_resnet50),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
