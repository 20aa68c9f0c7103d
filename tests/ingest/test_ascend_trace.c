/* test_ascend_trace.c - torch_npu's trace_view.json: processes mean what
 * their process_name says even when the metadata comes last; string
 * timestamps to exact ns; Input Dims strings to shapes; Ascend Hardware
 * tasks to kernels, copies and waits (copies on HCCL's streams belong to
 * the collective); HCCL operations with their collective, dtype and
 * count; torch_to_npu flows as zero-length launches on the operator's
 * thread; a Chrome array with no Ascend process is not this format. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "profreport/formats.h"
#include "profreport/trace.h"

#define PY "\"pid\": 100, \"tid\": 100"
#define HW "\"pid\": 900"

static const char *const doc =
    "[{\"ph\": \"X\", \"name\": \"ProfilerStep#7\", " PY ", \"ts\": "
    "\"1736408883700000.000\", \"dur\": 500.0, \"cat\": \"cpu_op\"},\n"
    "{\"ph\": \"X\", \"name\": \"aten::conv2d\", " PY ", \"ts\": "
    "\"1736408883700010.123\", \"dur\": 50.5, \"cat\": \"cpu_op\", \"args\": "
    "{\"Sequence number\": 5, \"Fwd thread id\": 0, \"Input Dims\": "
    "\"32,3,224,224;\\r\\n64,3,11,11;\\r\\n64;\\r\\n\", \"Input type\": "
    "\"float;\\r\\nfloat;\\r\\nfloat;\\r\\nScalarList\"}},\n"
    "{\"ph\": \"s\", \"bp\": \"e\", \"name\": \"torch_to_npu\", \"id\": "
    "1736408883700100001, " PY ", \"ts\": \"1736408883700010.123\", \"cat\": "
    "\"async_npu\"},\n"
    "{\"ph\": \"X\", \"name\": \"AscendCL@aclnnConvolution\", \"pid\": 800, "
    "\"tid\": 100, \"ts\": \"1736408883700020.000\", \"dur\": 10.0, "
    "\"args\": {\"connection_id\": 7}},\n"
    "{\"ph\": \"X\", \"name\": \"Conv2D1\", " HW ", \"tid\": 2, \"ts\": "
    "\"1736408883700100.001\", \"dur\": 30.25, \"args\": {\"Task Type\": "
    "\"AI_CORE\", \"Physic Stream Id\": 2, \"Task Id\": 11, "
    "\"connection_id\": 7}},\n"
    "{\"ph\": \"f\", \"bp\": \"e\", \"name\": \"torch_to_npu\", \"id\": "
    "1736408883700100001, " HW ", \"tid\": 2, \"ts\": "
    "\"1736408883700100.001\", \"cat\": \"async_npu\"},\n"
    "{\"ph\": \"X\", \"name\": \"MemcpyAsync\", " HW ", \"tid\": 2, \"ts\": "
    "\"1736408883700140.000\", \"dur\": 5.0, \"args\": {\"Task Type\": "
    "\"PCIE_DMA_SQE\"}},\n"
    "{\"ph\": \"X\", \"name\": \"Notify Wait\", " HW ", \"tid\": 4, \"ts\": "
    "\"1736408883700150.000\", \"dur\": 5.0, \"args\": {\"Task Type\": "
    "\"Notify Wait\"}},\n"
    "{\"ph\": \"X\", \"name\": \"Memcpy\", " HW ", \"tid\": 4, \"ts\": "
    "\"1736408883700160.000\", \"dur\": 5.0, \"args\": {\"Task Type\": "
    "\"SDMA\"}},\n"
    "{\"ph\": \"X\", \"name\": \"hcom_allReduce__586_0_1\", \"pid\": 950, "
    "\"tid\": 0, \"ts\": \"1736408883700150.000\", \"dur\": 40.0, \"args\": "
    "{\"data_type\": \"FP32\", \"count\": 1000, \"alg_type\": \"MESH\"}},\n"
    "{\"ph\": \"X\", \"name\": \"Memcpy\", \"pid\": 950, \"tid\": 1, \"ts\": "
    "\"1736408883700160.000\", \"dur\": 5.0, \"args\": {\"stream id\": 4, "
    "\"task type\": \"Memcpy\", \"size(Byte)\": 4000}},\n"
    "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 100, \"tid\": 0, "
    "\"args\": {\"name\": \"Python\"}},\n"
    "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 800, \"tid\": 0, "
    "\"args\": {\"name\": \"CANN\"}},\n"
    "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 900, \"tid\": 0, "
    "\"args\": {\"name\": \"Ascend Hardware\"}},\n"
    "{\"ph\": \"M\", \"name\": \"process_labels\", \"pid\": 900, \"tid\": 0, "
    "\"args\": {\"labels\": \"NPU 3\"}},\n"
    "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 950, \"tid\": 0, "
    "\"args\": {\"name\": \"HCCL\"}},\n"
    "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 950, \"tid\": 0, "
    "\"args\": {\"name\": \"Group 0 Communication\"}},\n"
    "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 950, \"tid\": 1, "
    "\"args\": {\"name\": \"Plane 0\"}}]\n";

static const struct pr_format *
ascend_row(void)
{
    const struct pr_format_table *t = pr_formats_builtin();
    size_t i;

    for (i = 0; i < t->n; i++)
        if (strcmp(t->v[i]->name, "ascend_trace") == 0)
            return t->v[i];
    fail_msg("no ascend_trace row");
    return NULL;
}

static enum pr_status
load_text(const char *text, struct pr_trace **t, struct pr_error *err)
{
    char path[] = "/tmp/pr_ascend_trace_XXXXXX";
    int fd = mkstemp(path);
    enum pr_status st;

    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    pr_error_clear(err);
    st = ascend_row()->load(path, NULL, t, err);
    unlink(path);
    return st;
}

static const struct pr_event *
find(const struct pr_trace *t, const char *name, int kind)
{
    size_t i;

    for (i = 0; i < t->n_events; i++)
        if (strcmp(pr_trace_str(t, t->events[i].name), name) == 0 &&
            (kind < 0 || t->events[i].kind == kind))
            return &t->events[i];
    fail_msg("no event %s", name);
    return NULL;
}

static void
test_host_ops(void **state)
{
    struct pr_trace *t = NULL;
    struct pr_error err;
    const struct pr_event *e;
    const struct pr_op_info *o;

    (void)state;
    assert_int_equal(load_text(doc, &t, &err), PR_OK);
    assert_string_equal(pr_trace_str(t, t->format), "ascend_trace");
    assert_int_equal(t->n_trace_events, 18);
    e = find(t, "aten::conv2d", PR_KIND_HOST_OP);
    assert_true(e->ts_ns == INT64_C(1736408883700010123)); /* exact */
    assert_true(e->dur_ns == 50500);
    o = pr_trace_op(t, e, &(struct pr_op_info){0});
    assert_non_null(o);
    assert_string_equal(pr_trace_str(t, o->input_dims),
                        "[[32, 3, 224, 224], [64, 3, 11, 11], [64], []]");
    assert_string_equal(pr_trace_str(t, o->input_types),
                        "['float', 'float', 'float', 'ScalarList']");
    assert_int_equal(o->seq, 5);
    find(t, "ProfilerStep#7", PR_KIND_HOST_OP);
    /* the CANN call runs on the Python process's thread */
    e = find(t, "AscendCL@aclnnConvolution", PR_KIND_RUNTIME_CALL);
    assert_string_equal(pr_trace_str(t, pr_event_pid(t, e)), "100");
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "100");
    assert_string_equal(pr_trace_str(t, t->vendor), "huawei");
    assert_string_equal(pr_trace_str(t, t->device_kind), "npu");
    pr_trace_free(t);
}

static void
test_tasks(void **state)
{
    struct pr_trace *t = NULL;
    struct pr_error err;
    const struct pr_event *e, *launch;
    const struct pr_gpu_info *g;
    size_t i, n_copy = 0;

    (void)state;
    assert_int_equal(load_text(doc, &t, &err), PR_OK);
    e = find(t, "Conv2D1", PR_KIND_DEVICE_TASK);
    g = pr_trace_gpu(t, e, &(struct pr_gpu_info){0});
    assert_int_equal(g->device, 3); /* from the label "NPU 3" */
    assert_int_equal(g->stream, 2);
    assert_int_equal(g->task_id, 11);
    assert_string_equal(pr_trace_str(t, g->task_type), "AI_CORE");
    assert_int_equal(g->unit, PR_UNIT_UNKNOWN); /* kernel_details says */
    /* the flow: a zero-length launch on the op's thread, same id */
    launch = find(t, "torch_to_npu", PR_KIND_RUNTIME_CALL);
    assert_true(launch->dur_ns == 0);
    assert_true(launch->ts_ns == INT64_C(1736408883700010123));
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, launch)), "100");
    assert_true(pr_event_correlation(t, launch) == pr_event_correlation(t, e));
    assert_true(pr_event_correlation(t, e) == INT64_C(1736408883700100001));
    /* a copy on a compute stream is a copy; on HCCL's stream it is part
     * of the collective, and waits are waits */
    find(t, "MemcpyAsync", PR_KIND_COPY);
    find(t, "Notify Wait", PR_KIND_DEVICE_SYNC);
    for (i = 0; i < t->n_events; i++)
        n_copy += t->events[i].kind == PR_KIND_COPY;
    assert_int_equal(n_copy, 1);
    pr_trace_free(t);
}

static void
test_hccl(void **state)
{
    struct pr_trace *t = NULL;
    struct pr_error err;
    const struct pr_event *e;
    const struct pr_gpu_info *g;

    (void)state;
    assert_int_equal(load_text(doc, &t, &err), PR_OK);
    e = find(t, "hcom_allReduce__586_0_1", PR_KIND_DEVICE_TASK);
    g = pr_trace_gpu(t, e, &(struct pr_gpu_info){0});
    assert_int_equal(g->unit, PR_UNIT_COMM);
    assert_string_equal(pr_trace_str(t, g->collective), "allreduce");
    assert_string_equal(pr_trace_str(t, g->dtype), "Float");
    assert_int_equal(g->in_nelems, 1000);
    /* a plane task is kept but is no kernel */
    assert_int_equal(find(t, "Memcpy", -1)->kind == PR_KIND_DEVICE_TASK, 0);
    pr_trace_free(t);
}

static void
test_not_ascend(void **state)
{
    struct pr_trace *t = NULL;
    struct pr_error err;

    (void)state;
    assert_int_equal(load_text("[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, "
                               "\"tid\": 1, \"ts\": \"5\", \"dur\": 1, "
                               "\"cat\": \"cpu_op\"}]",
                               &t, &err),
                     PR_E_NOT_FORMAT);
    assert_null(t);
    assert_non_null(strstr(err.msg, "no Ascend process"));
    assert_int_equal(load_text("[{\"ph\": \"X\", \"ts\": \"5\"", &t, &err),
                     PR_E_FORMAT);
    assert_null(t);
    assert_non_null(strstr(err.msg, "/tmp/pr_ascend_trace_"));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_ops),
        cmocka_unit_test(test_tasks),
        cmocka_unit_test(test_hccl),
        cmocka_unit_test(test_not_ascend),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
