/* test_ascend_common.c - the shared Ascend vocabulary: task types to
 * kinds, accelerator cores to units, CANN/HCCL dtype names, the two shape
 * spellings (trace_view ";\r\n" strings, triple-quoted CSV cells), name
 * lists, hcom collectives and profiler_info ranks (int and string). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/ingest/ascend/ascend_common.h"

static void
test_task_types(void **state)
{
    (void)state;
    assert_int_equal(pr_ascend_task_class("AI_CORE"), PR_ASCEND_TASK_COMPUTE);
    assert_int_equal(pr_ascend_task_class("MIX_AIV"), PR_ASCEND_TASK_COMPUTE);
    assert_int_equal(pr_ascend_task_class("DSA_SQE"), PR_ASCEND_TASK_COMPUTE);
    assert_int_equal(pr_ascend_task_class("Other"), PR_ASCEND_TASK_COMPUTE);
    assert_int_equal(pr_ascend_task_class("SDMA"), PR_ASCEND_TASK_COPY);
    assert_int_equal(pr_ascend_task_class("PCIE_DMA_SQE"), PR_ASCEND_TASK_COPY);
    assert_int_equal(pr_ascend_task_class("Notify Wait"), PR_ASCEND_TASK_SYNC);
    assert_int_equal(pr_ascend_task_class("Write Value"), PR_ASCEND_TASK_SYNC);
    assert_int_equal(pr_ascend_task_class("NOTIFY_WAIT"), PR_ASCEND_TASK_SYNC);
    assert_int_equal(pr_ascend_task_class("EVENT_RESET"), PR_ASCEND_TASK_SYNC);
    assert_int_equal(pr_ascend_task_class("REDUCE_ASYNC_V2"),
                     PR_ASCEND_TASK_COPY);
    assert_int_equal(pr_ascend_task_class("MEMCPY_ASYNC"), PR_ASCEND_TASK_COPY);
    assert_int_equal(pr_ascend_task_class("EVENT_WAIT_SQE"),
                     PR_ASCEND_TASK_SYNC);
    assert_int_equal(pr_ascend_task_class("NEW_THING_SQE"),
                     PR_ASCEND_TASK_SYNC);
    assert_int_equal(pr_ascend_task_class("HCCL"), PR_ASCEND_TASK_COMM);
    assert_int_equal(pr_ascend_task_kind(PR_ASCEND_TASK_COMPUTE),
                     PR_KIND_DEVICE_TASK);
    assert_int_equal(pr_ascend_task_kind(PR_ASCEND_TASK_COMM),
                     PR_KIND_DEVICE_TASK);
    assert_int_equal(pr_ascend_task_kind(PR_ASCEND_TASK_COPY), PR_KIND_COPY);
    assert_int_equal(pr_ascend_task_kind(PR_ASCEND_TASK_SYNC),
                     PR_KIND_DEVICE_SYNC);
}

static void
test_units(void **state)
{
    (void)state;
    assert_int_equal(pr_ascend_unit("AI_CORE"), PR_UNIT_MATRIX);
    assert_int_equal(pr_ascend_unit("AI_VECTOR_CORE"), PR_UNIT_VECTOR);
    assert_int_equal(pr_ascend_unit("MIX_AIC"), PR_UNIT_MIX_MATRIX);
    assert_int_equal(pr_ascend_unit("MIX_AIV"), PR_UNIT_MIX_VECTOR);
    assert_int_equal(pr_ascend_unit("AI_CPU"), PR_UNIT_CPU);
    assert_int_equal(pr_ascend_unit("HCCL"), PR_UNIT_COMM);
    assert_int_equal(pr_ascend_unit("DSA_SQE"), PR_UNIT_OTHER);
    assert_int_equal(pr_ascend_unit("N/A"), PR_UNIT_UNKNOWN);
    assert_int_equal(pr_ascend_unit(""), PR_UNIT_UNKNOWN);
}

static void
test_dtypes(void **state)
{
    struct pr_ascend_dtype d;

    (void)state;
    assert_true(pr_ascend_dtype("FLOAT", 5, &d));
    assert_string_equal(d.torch, "float");
    assert_string_equal(d.comm, "Float");
    assert_int_equal(d.bytes, 4);
    assert_true(pr_ascend_dtype("DT_BF16", 7, &d));
    assert_string_equal(d.torch, "c10::BFloat16");
    assert_int_equal(d.bytes, 2);
    assert_true(pr_ascend_dtype("FP32", 4, &d)); /* HCCL's spelling */
    assert_string_equal(d.comm, "Float");
    assert_true(pr_ascend_dtype("float16", 7, &d));
    assert_string_equal(d.torch, "c10::Half");
    assert_true(pr_ascend_dtype("INT64", 5, &d));
    assert_int_equal(d.bytes, 8);
    assert_true(pr_ascend_dtype("FLOATX", 5, &d)); /* only len bytes */
    assert_false(pr_ascend_dtype("UNDEFINED", 9, &d));
    assert_false(pr_ascend_dtype("N/A", 3, &d));
    assert_false(pr_ascend_dtype("", 0, &d));
}

/* Shape text of `in`, or "(none)" when it is not a shape list. */
static char *
shapes(const char *in)
{
    static char keep[512];
    struct pr_buf b;
    int r;

    pr_buf_init(&b, 0);
    r = pr_ascend_shapes(in, strlen(in), &b);
    assert_true(r >= 0);
    snprintf(keep, sizeof(keep), "%s", r ? b.data : "(none)");
    pr_buf_free(&b);
    return keep;
}

static void
test_shapes(void **state)
{
    (void)state;
    /* trace_view Input Dims: one entry per input, empty = scalar/None */
    assert_string_equal(shapes("32,3,224,224;\r\n64,3,11,11;\r\n64;\r\n"),
                        "[[32, 3, 224, 224], [64, 3, 11, 11], [64], []]");
    assert_string_equal(shapes(";\r\n;\r\n"), "[[], [], []]");
    assert_string_equal(shapes("128,256"), "[[128, 256]]");
    /* a kernel_details cell keeps the inner quotes of """...""" */
    assert_string_equal(shapes("\"32,1,224,224,8;121,4,16,8;64\""),
                        "[[32, 1, 224, 224, 8], [121, 4, 16, 8], [64]]");
    assert_string_equal(shapes("\"\""), "(none)");
    assert_string_equal(shapes("N/A"), "(none)");
    assert_string_equal(shapes(""), "(none)");
    assert_string_equal(shapes("32,a"), "(none)");
    assert_string_equal(shapes("32,"), "(none)");
    assert_string_equal(shapes("-1,4"), "(none)");
    assert_string_equal(shapes("99999999999999999999"), "(none)");
}

static char *
names(const char *in, int torch)
{
    static char keep[512];
    struct pr_buf b;

    pr_buf_init(&b, 0);
    assert_int_equal(pr_ascend_names(in, strlen(in), torch, &b), 1);
    snprintf(keep, sizeof(keep), "%s", b.data);
    pr_buf_free(&b);
    return keep;
}

static void
test_names(void **state)
{
    (void)state;
    assert_string_equal(names("float;\r\nScalarList;\r\nNone", 0),
                        "['float', 'ScalarList', 'None']");
    assert_string_equal(names("FLOAT;DT_BF16;WEIRD", 1),
                        "['float', 'c10::BFloat16', 'WEIRD']");
    assert_string_equal(names("", 0), "[]");
}

static void
test_collectives(void **state)
{
    (void)state;
    assert_string_equal(pr_ascend_collective("hcom_allReduce__586_0_1"),
                        "allreduce");
    assert_string_equal(pr_ascend_collective("hcom_reduceScatter_1"),
                        "reducescatter");
    assert_string_equal(pr_ascend_collective("hcom_receive__7"), "recv");
    assert_string_equal(pr_ascend_collective("hcom_broadcast_"), "broadcast");
    assert_null(pr_ascend_collective("hcom_unknownOp_1"));
    assert_null(pr_ascend_collective("MatMulV2"));
}

/* Which CANN API calls put work on a stream (review-5 finding 8: a
 * device query shared connection id 0 with a kernel). */
static void
test_api_launches(void **state)
{
    (void)state;
    assert_true(pr_ascend_api_launches("aclnnAdd"));
    assert_false(pr_ascend_api_launches("aclnnAddGetWorkspaceSize"));
    assert_true(pr_ascend_api_launches("aclopCompileAndExecute"));
    assert_true(pr_ascend_api_launches("aclopExecuteV2"));
    assert_true(pr_ascend_api_launches("launch"));
    assert_true(pr_ascend_api_launches("aclrtMemcpyAsync"));
    assert_true(pr_ascend_api_launches("aclrtStreamWaitEvent"));
    assert_true(pr_ascend_api_launches("hcom_allReduce_"));
    assert_false(pr_ascend_api_launches("aclrtGetDeviceCount"));
    assert_false(pr_ascend_api_launches("aclrtSynchronizeStream"));
    assert_false(pr_ascend_api_launches("aclrtQueryEventStatus"));
    assert_false(pr_ascend_api_launches("opCompile"));
    assert_false(pr_ascend_api_launches("aclCreateTensorDesc"));
    assert_false(pr_ascend_api_launches("TransData_Tiling"));
    assert_false(pr_ascend_api_launches(NULL));
}

static void
test_info(void **state)
{
    struct pr_ascend_info info;
    struct pr_error err;
    const char *as_int = "{\"config\":{\"experimental_config\":"
                         "{\"_profiler_level\":\"Level1\"}},\"rank_id\":3}";
    const char *as_str = "{\"rank_id\":\"12\",\"cann_version\":\"8.3.RC1\"}";
    const char *bad = "{\"rank_id\":\"x\"}";

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_ascend_info_parse(as_int, strlen(as_int), &info, &err),
                     PR_OK);
    assert_int_equal(info.rank, 3);
    assert_string_equal(info.profiler_level, "Level1");
    assert_int_equal(pr_ascend_info_parse(as_str, strlen(as_str), &info, &err),
                     PR_OK);
    assert_int_equal(info.rank, 12);
    assert_string_equal(info.cann, "8.3.RC1");
    assert_int_equal(pr_ascend_info_parse("{}", 2, &info, &err), PR_OK);
    assert_int_equal(info.rank, -1);
    assert_int_equal(pr_ascend_info_parse(bad, strlen(bad), &info, &err),
                     PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "rank_id"));
    pr_error_clear(&err);
    assert_int_equal(pr_ascend_info_parse("[1]", 3, &info, &err), PR_E_FORMAT);
    pr_error_clear(&err);
    assert_int_equal(
        pr_ascend_info_read("/nonexistent/profiler_info_0.json", &info, &err),
        PR_E_IO);
    assert_non_null(strstr(err.msg, "/nonexistent/profiler_info_0.json"));
}

/* parallel_group_info as torch_npu writes it (the msmonitor docs'
 * example: rank 2 of 4) and as MindSpore does: only the world's own group
 * gives the world size, and only when its ranks are 0..n-1 with ours. */
static void
test_world(void **state)
{
    const char *torch =
        "{\"group_name_0\": {\"group_name\": \"default_group\", "
        "\"group_rank\": 2, \"global_ranks\": [0, 1, 2, 3]},"
        " \"group_name_5\": {\"group_name\": \"dp\", \"group_rank\": 0, "
        "\"global_ranks\": [2]},"
        " \"group_name_23\": {\"group_name\": \"tp\", \"group_rank\": 0, "
        "\"global_ranks\": [2, 3]}}";
    const char *ms = "{\"1234\": {\"group_name\": \"hccl_world_group\", "
                     "\"group_rank\": 1, \"global_ranks\": [\"1\", \"0\"]}}";
    const char *no_world =
        "{\"g\": {\"group_name\": \"tp\", \"global_ranks\": [0, 1, 2]}}";
    const char *as_text =
        "\"{\\\"g\\\": {\\\"group_name\\\": "
        "\\\"default_group\\\", \\\"global_ranks\\\": [0, 1]}}\"";
    const char *gap = "{\"g\": {\"group_name\": \"default_group\", "
                      "\"global_ranks\": [0, 2]}}";
    const char *twice = "{\"g\": {\"group_name\": \"default_group\", "
                        "\"global_ranks\": [0, 1, 1]}}";
    const char *nul = "{\"g\": {\"group_name\": \"default_group\\u0000x\"}}";
    const char *esc = "{\"g\": {\"group_name\": \"default_group\\\\u0000x\"}}";
    struct pr_error err;
    int64_t w = 0;

    (void)state;
    assert_int_equal(pr_ascend_group_world(torch, strlen(torch), 2), 4);
    assert_int_equal(pr_ascend_group_world(torch, strlen(torch), -1), 4);
    assert_int_equal(pr_ascend_group_world(torch, strlen(torch), 4), -1);
    assert_int_equal(pr_ascend_group_world(ms, strlen(ms), 1), 2);
    assert_int_equal(pr_ascend_group_world(no_world, strlen(no_world), 0), -1);
    assert_int_equal(pr_ascend_group_world(as_text, strlen(as_text), 1), 2);
    assert_int_equal(pr_ascend_group_world(gap, strlen(gap), 0), -1);
    assert_int_equal(pr_ascend_group_world(twice, strlen(twice), 0), -1);
    assert_int_equal(pr_ascend_group_world("nope", 4, 0), -1);
    assert_int_equal(pr_ascend_group_world("[]", 2, 0), -1);
    /* an absent file adds nothing and fails nothing */
    pr_error_clear(&err);
    assert_int_equal(pr_ascend_metadata_world(
                         "/nonexistent/profiler_metadata.json", 0, &w, &err),
                     PR_OK);
    assert_int_equal(w, -1);
    /* NUL in the text: a raw byte, or an escape in a string; an escaped
       backslash before u0000 is neither */
    pr_error_clear(&err);
    assert_int_equal(pr_ascend_json_text("{\"a\": 1}", 8, &err), PR_OK);
    assert_int_equal(pr_ascend_json_text("{\"a\0\": 1}", 10, &err),
                     PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "byte 3: a NUL byte"));
    pr_error_clear(&err);
    assert_int_equal(pr_ascend_json_text(nul, strlen(nul), &err), PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "byte 35: "));
    pr_error_clear(&err);
    assert_int_equal(pr_ascend_json_text(esc, strlen(esc), &err), PR_OK);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_task_types),   cmocka_unit_test(test_units),
        cmocka_unit_test(test_dtypes),       cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_names),        cmocka_unit_test(test_collectives),
        cmocka_unit_test(test_api_launches), cmocka_unit_test(test_info),
        cmocka_unit_test(test_world),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
