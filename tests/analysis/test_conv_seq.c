/* test_conv_seq.c - forward convolution FLOPs without Concrete Inputs
 * (issue #4): the output size comes from the backward op that shares the
 * forward op's sequence number, and stays unknown (null) when any call has
 * no such op or two calls disagree. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/roofline.h"

#include "testroof.h"
#include "testtrace.h"

/* A host op on thread `tid` with sequence number `seq`. */
static void
op_seq(struct pr_trace *t, const char *name, const char *tid, double ts,
       int64_t seq, const char *dims, const char *types)
{
    tt_host(t, PR_KIND_HOST_OP, name, tid, ts, 5, PR_NO_ID, dims, types);
    pr_trace_op_edit(t, t->events[t->n_events - 1].info)->seq = seq;
}

#define FWD_A "[[2, 4, 9, 9], [8, 4, 3, 3], [], [], [], [], [], [], []]"
#define FWD_B "[[2, 4, 16, 16], [8, 4, 1, 1], [], [], [], [], [], [], []]"
#define TYPES "[float, float, GenericList, GenericList, GenericList, Int]"

static cJSON *
run_with_rows(void)
{
    cJSON *run = cJSON_Parse(
        "{\"devices\": [{\"id\": 0, \"name\": \"Tesla V100-SXM2-16GB\", "
        "\"compute_capability\": \"7.0\"}], \"gpu_metrics\": [], "
        "\"steps\": [], \"kernels\": [], \"operators\": [], "
        "\"tensor_cores\": null, \"recommendations\": null, "
        "\"operators_by_shape\": ["
        "{\"name\": \"aten::cudnn_convolution\", \"input_shapes\": \"" FWD_A
        "\", \"input_types\": \"" TYPES "\", \"calls\": 2, "
        "\"device_self_us\": 10, \"device_total_us\": 10},"
        "{\"name\": \"aten::cudnn_convolution\", \"input_shapes\": \"" FWD_B
        "\", \"input_types\": \"" TYPES "\", \"calls\": 2, "
        "\"device_self_us\": 10, \"device_total_us\": 10}]}");

    assert_non_null(run);
    return run;
}

static const cJSON *
shape_row(const cJSON *run, int i)
{
    return cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(run, "operators_by_shape"), i);
}

static const cJSON *
val(const cJSON *row, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(row, key);
}

/* Group A: both calls' backward nodes say [2, 8, 5, 5] (stride 2, pad 1):
 * 2*N*K*P*Q*C*R*S = 2*2*8*5*5*4*3*3 = 28800 FLOPs a call, bytes 4*(648 +
 * 288 + 400) = 5344.  Group B: the second call has no backward: null. */
static void
test_output_from_backward(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = run_with_rows();
    const cJSON *r;

    (void)state;
    assert_non_null(t);
    op_seq(t, "aten::cudnn_convolution", "1", 0, 10, FWD_A, TYPES);
    op_seq(t, "aten::cudnn_convolution", "1", 10, 11, FWD_A, TYPES);
    op_seq(t, "aten::cudnn_convolution", "1", 20, 12, FWD_B, TYPES);
    op_seq(t, "aten::cudnn_convolution", "1", 30, 13, FWD_B, TYPES);
    op_seq(t, "CudnnConvolutionBackward", "2", 40, 10, "[[2, 8, 5, 5]]",
           "[float]");
    op_seq(t, "ConvolutionBackward0", "2", 50, 11, "[[2, 8, 5, 5]]", "[float]");
    op_seq(t, "CudnnConvolutionBackward", "2", 60, 12, "[[2, 8, 16, 16]]",
           "[float]");
    pr_trace_finish(t);
    assert_int_equal(tr_roofline(t, &o, run, &err), PR_OK);
    r = shape_row(run, 0);
    tt_near(val(r, "flops")->valuedouble, 2 * 28800.0);
    tt_near(val(r, "bytes")->valuedouble, 2 * 5344.0);
    r = shape_row(run, 1);
    assert_true(cJSON_IsNull(val(r, "flops")));
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* Two calls of one shape whose backward ops disagree (different strides
 * behind the same input shapes) leave the row unknown. */
static void
test_disagreeing_calls_stay_unknown(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = run_with_rows();

    (void)state;
    assert_non_null(t);
    op_seq(t, "aten::cudnn_convolution", "1", 0, 10, FWD_A, TYPES);
    op_seq(t, "aten::cudnn_convolution", "1", 10, 11, FWD_A, TYPES);
    op_seq(t, "CudnnConvolutionBackward", "2", 40, 10, "[[2, 8, 5, 5]]",
           "[float]");
    op_seq(t, "CudnnConvolutionBackward", "2", 50, 11, "[[2, 8, 7, 7]]",
           "[float]");
    pr_trace_finish(t);
    assert_int_equal(tr_roofline(t, &o, run, &err), PR_OK);
    assert_true(cJSON_IsNull(val(shape_row(run, 0), "flops")));
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* pr_roofline_conv_from_output() on shapes written as the trace does. */
static int
from_output(const char *in, const char *out, struct pr_op_cost *c)
{
    static struct pr_shape_list a, b;

    assert_int_equal(pr_shapes_parse_dims(in, &a, NULL), PR_OK);
    assert_int_equal(pr_shapes_parse_dims(out, &b, NULL), PR_OK);
    return pr_roofline_conv_from_output(&a, &b, c);
}

/* The helper itself: a grad_output whose channels are not the weight's
 * first dim (a transposed conv) or whose batch differs does not fit. */
static void
test_conv_from_output(void **state)
{
    struct pr_op_cost c;

    (void)state;
    memset(&c, 0, sizeof(c));
    c.dtype = PR_DT_FP16;
    c.flops = c.bytes = -1;
    assert_int_equal(from_output(FWD_A, "[[2, 4, 17, 17]]", &c), 0);
    assert_int_equal(from_output(FWD_A, "[[3, 8, 5, 5]]", &c), 0);
    assert_int_equal(pr_roofline_conv_from_output(NULL, NULL, &c), 0);
    tt_near(c.flops, -1);
    assert_int_equal(from_output(FWD_A, "[[2, 8, 5, 5]]", &c), 1);
    tt_near(c.flops, 28800.0);
    tt_near(c.bytes, 2.0 * (648 + 288 + 400));
    assert_true(pr_roofline_is_conv_bwd_node("CudnnConvolutionBackward"));
    assert_true(pr_roofline_is_conv_bwd_node("ConvolutionBackward0"));
    assert_false(
        pr_roofline_is_conv_bwd_node("CudnnConvolutionTransposeBackward"));
    assert_false(pr_roofline_is_conv_bwd_node(
        "autograd::engine::evaluate_function: ConvolutionBackward0"));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_output_from_backward),
        cmocka_unit_test(test_disagreeing_calls_stay_unknown),
        cmocka_unit_test(test_conv_from_output),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
