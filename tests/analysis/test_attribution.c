/* test_attribution.c - the share of kernel time reaching an operator and
 * the reason given when it is low (issue #11), on hand-made traces, then
 * on every real trace under ../shared/traces/hta: at least 95% reaches an
 * operator, or the run carries the diagnostic that says why.  The real
 * traces are skipped when ../shared is absent. */
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
#include "profreport/attribution.h"
#include "profreport/reader.h"
#include "profreport/tree.h"

#include "testshared.h"
#include "testtrace.h"

static void
measure(struct pr_trace *t, struct pr_attribution *a)
{
    struct pr_error err = {0};
    struct pr_tree tr;

    pr_trace_finish(t);
    assert_int_equal(pr_tree_build(t, &tr, &err), PR_OK);
    pr_attribution_measure(t, &tr, a);
    pr_tree_free(&tr);
}

/* step [0,100) > mm [10,40); kernels: 60 µs from mm (corr 1), 30 µs
 * launched inside the step but no op (corr 2), 10 µs with no launch
 * event (corr 3): 60% reaches an operator, and the larger cause
 * (outside every operator) comes first, naming kernel "b". */
static void
test_measure_and_reason(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_attribution a;
    char why[512];

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 100, 1);
    tt_op(t, "aten::mm", 10, 30, 2);
    tt_rt(t, "cudaLaunchKernel", 12, 2, 1, 1);
    tt_rt(t, "cudaLaunchKernel", 50, 2, 2, 2);
    tt_kernel(t, "a", 20, 60, 1);
    tt_kernel(t, "b", 80, 30, 2);
    tt_kernel(t, "c", 110, 10, 3);
    measure(t, &a);
    assert_int_equal(a.n_kernels, 3);
    assert_int_equal(a.kernel_ns, 100000);
    assert_int_equal(a.op_ns, 60000);
    assert_int_equal(a.outside_ns, 30000);
    assert_int_equal(a.no_launch_ns, 10000);
    tt_near(pr_attribution_pct(&a), 60.0);
    assert_string_equal(pr_trace_str(t, a.top_name), "b");
    assert_true(pr_attribution_reason(&a, "b", why, sizeof(why)));
    assert_non_null(strstr(why, "40.0% of kernel time has no operator"));
    assert_non_null(strstr(why, "30.0% was launched outside every operator"));
    assert_non_null(strstr(why, "the largest part is b (30.0%"));
    assert_non_null(strstr(why, "CUDA graph replays"));
    /* an AMD run says HIP graphs, as ROCm names its hipGraphLaunch */
    a.amd = 1;
    assert_true(pr_attribution_reason(&a, "b", why, sizeof(why)));
    assert_non_null(strstr(why, "Triton kernels and HIP graph replays"));
    assert_null(strstr(why, "CUDA"));
    pr_trace_free(t);
}

/* A kernel launched from a user annotation (not an operator) whose parent
 * is an operator reaches that operator; with every kernel attributed there
 * is no reason, and a trace without kernels has no share at all. */
static void
test_below_operator_counts(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_attribution a;
    char why[64];

    (void)state;
    tt_op(t, "record_param_comms", 0, 50, 1);
    tt_host(t, PR_KIND_ANNOTATION, "nccl:all_reduce", "1", 5, 20, 2, NULL,
            NULL);
    tt_rt(t, "cudaLaunchKernel", 10, 2, 7, 7);
    tt_kernel(t, "ncclKernel_AllReduce_RING_LL_Sum_float", 20, 40, 7);
    measure(t, &a);
    tt_near(pr_attribution_pct(&a), 100.0);
    assert_false(pr_attribution_reason(&a, NULL, why, sizeof(why)));
    pr_trace_free(t);

    t = pr_trace_new();
    tt_op(t, "aten::add", 0, 5, 1);
    measure(t, &a);
    assert_true(isnan(pr_attribution_pct(&a)));
    assert_false(pr_attribution_reason(&a, NULL, why, sizeof(why)));
    pr_trace_free(t);
}

/* Kernels and no operator event at all: the reason says so. */
static void
test_no_operators(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_attribution a;
    char why[512];

    (void)state;
    tt_rt(t, "cudaLaunchKernel", 0, 2, 1, 1);
    tt_kernel(t, "gemm", 5, 10, 1);
    measure(t, &a);
    tt_near(pr_attribution_pct(&a), 0.0);
    assert_true(pr_attribution_reason(&a, NULL, why, sizeof(why)));
    assert_non_null(strstr(why, "no operator events"));
    pr_trace_free(t);
}

/* The run's notes have one writer (issue #10): pr_analysis_run appends
 * the attribution row after the diagnostics the run already holds, and
 * writes data_quality as its typed row (issue #34: the counts noted, in
 * the rows' order, in place of what the object held); a run without
 * data_quality/diagnostics gets neither. */
static void
test_notes_appended(void **state)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {0};
    struct pr_trace *t = pr_trace_new();
    cJSON *run = cJSON_CreateObject(), *q, *d;
    const cJSON *row;

    (void)state;
    tt_op(t, "ProfilerStep#1", 0, 100, 1);
    tt_op(t, "aten::mm", 10, 30, 2);
    tt_rt(t, "cudaLaunchKernel", 12, 2, 1, 1);
    tt_rt(t, "cudaLaunchKernel", 50, 2, 2, 2);
    tt_kernel(t, "a", 20, 60, 1);
    tt_kernel(t, "b", 80, 30, 2);
    tt_kernel(t, "c", 110, 10, 3);
    pr_trace_finish(t);
    q = cJSON_AddObjectToObject(run, "data_quality");
    d = cJSON_AddArrayToObject(run, "diagnostics");
    assert_non_null(cJSON_AddNumberToObject(q, "earlier", 1));
    assert_non_null(cJSON_AddItemToArray(d, cJSON_CreateString("earlier")));
    assert_int_equal(pr_analysis_run(t, &o, run, &err), PR_OK);
    /* the placeholder's key of no row gave way to the typed row */
    q = cJSON_GetObjectItemCaseSensitive(run, "data_quality");
    assert_non_null(q);
    assert_null(cJSON_GetObjectItemCaseSensitive(q, "earlier"));
    assert_string_equal(q->child->string, "kernel_time_without_operator_pct");
    tt_near(q->child->valuedouble, 40.0);
    /* the critical path's replay error follows (critpath.c) */
    assert_string_equal(q->child->next->string,
                        "critical_path_replay_error_pct");
    assert_null(q->child->next->next);
    /* and hostcov.c's: 80 of the step's 100 us are inside no operator */
    assert_int_equal(cJSON_GetArraySize(d), 3);
    row = cJSON_GetArrayItem(d, 1);
    assert_string_equal(
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "kind")),
        "kernels_without_operator");
    tt_near(
        cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(row, "count")),
        2.0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
                            cJSON_GetArrayItem(d, 2), "kind")),
                        "host_unrecorded");
    cJSON_Delete(run);

    /* a run without them gets them: the notes write both, no placeholder
       asked first */
    run = cJSON_CreateObject();
    assert_int_equal(pr_analysis_run(t, &o, run, &err), PR_OK);
    q = cJSON_GetObjectItemCaseSensitive(run, "data_quality");
    assert_non_null(q);
    assert_string_equal(q->child->string, "kernel_time_without_operator_pct");
    assert_int_equal(cJSON_GetArraySize(
                         cJSON_GetObjectItemCaseSensitive(run, "diagnostics")),
                     2);
    assert_non_null(cJSON_GetObjectItemCaseSensitive(run, "attribution"));
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* ------------------------------------------------ the real traces */

static char root[4096];

static int
find_shared(void)
{
    return shared_traces(root, sizeof(root), "/hta");
}

/* Every trace file of HTA's test data; `why` names the cause the report
 * must give for the traces that stay under 95% (NULL: must reach 95%). */
static const struct {
    const char *path;
    const char *why;
} hta[] = {
    {"call_stack/backward_thread.json", NULL},
    {"cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", NULL},
    {"critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
     NULL},
    /* torch.cuda._sleep's spin kernel is launched from Python, no op */
    {"critical_path/cuda_event_sync/event_sync_trace.json.gz",
     "launched outside every operator"},
    {"critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz",
     NULL},
    {"critical_path/end_to_end/simple_add/input/trace.json.gz", NULL},
    {"critical_path/simple_add/"
     "benchmark_result_493459_1694039959_trace.json.gz",
     NULL},
    {"df_index_resolver/df_index_resolver.json.gz", NULL},
    {"distributed_info_unavailable/distributed_info_not_found.json.gz", NULL},
    {"execution_trace/benchmark_simple_add_trace.json.gz", NULL},
    {"nccl_parser_config/nccl_data.json.gz", NULL},
    {"rank_non_gpu/rank_non_gpu.json.gz", NULL},
    {"timeline_analysis/sampled_rank-0.json.gz", NULL},
    {"trace_diff/control/control.json.gz", NULL},
    /* 56 ms of kernels whose runtime events are missing from the file */
    {"trace_diff/test/test.json.gz", "no launch event"},
    /* GPU activities only */
    {"trace_file_list/inference_rank_1.json.gz", "no operator events"},
    {"trace_filter/sampled_rank-0.json.gz", NULL},
    {"trace_filter/sampled_rank-1.json.gz", NULL},
};

/* The diagnostic row the reports show, or NULL. */
static const char *
diagnostic(const cJSON *run)
{
    const cJSON *d;

    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(run, "diagnostics"))
    {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(d, "kind");

        if (cJSON_IsString(k) &&
            strcmp(k->valuestring, "kernels_without_operator") == 0)
            return cJSON_GetStringValue(
                cJSON_GetObjectItemCaseSensitive(d, "text"));
    }
    return NULL;
}

static void
check_trace(const char *rel, const char *why)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {0};
    struct pr_trace *t = NULL;
    char path[4096 + 256];
    const cJSON *a;
    const char *text;
    double pct;
    cJSON *run;

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    if (pr_reader_load(path, NULL, &t, &err) != PR_OK)
        fail_msg("%s: %s", rel, err.msg);
    run = cJSON_CreateObject();
    assert_non_null(cJSON_AddArrayToObject(run, "diagnostics"));
    assert_non_null(cJSON_AddObjectToObject(run, "data_quality"));
    if (pr_analysis_run(t, &o, run, &err) != PR_OK)
        fail_msg("%s: %s", rel, err.msg);
    a = cJSON_GetObjectItemCaseSensitive(run, "attribution");
    pct = cJSON_GetNumberValue(
        cJSON_GetObjectItemCaseSensitive(a, "operator_pct"));
    text = diagnostic(run);
    if (isnan(pct))
        print_message("# %s: no kernels\n", rel);
    else
        print_message("# %s: %.1f%% of kernel time reaches an operator\n", rel,
                      pct);
    if (why == NULL) {
        if (!(isnan(pct) || pct >= PR_ATTRIBUTION_MIN_PCT) || text != NULL)
            fail_msg("%s: %.2f%% reaches an operator (%s)", rel, pct,
                     text ? text : "no diagnostic");
    } else if (text == NULL || strstr(text, why) == NULL) {
        fail_msg("%s: %.2f%%, diagnostic %s does not say \"%s\"", rel, pct,
                 text ? text : "(none)", why);
    }
    cJSON_Delete(run);
    pr_trace_free(t);
}

static void
test_hta_traces(void **state)
{
    size_t i;

    (void)state;
    if (!find_shared())
        skip();
    for (i = 0; i < sizeof(hta) / sizeof(hta[0]); i++)
        check_trace(hta[i].path, hta[i].why);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_measure_and_reason),
        cmocka_unit_test(test_below_operator_counts),
        cmocka_unit_test(test_no_operators),
        cmocka_unit_test(test_notes_appended),
        cmocka_unit_test(test_hta_traces),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
