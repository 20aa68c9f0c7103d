/* test_layers.c - the roofline by layer (issue #16): hand-made traces of
 * a Linear and a convolution layer with their backward ops (sequence
 * numbers, shapes), whose FLOPs, bytes and times are worked out by hand
 * below; then the real traces: on tb_plugin's ResNet-50 the layers'
 * FLOPs add up to the operators they came from, and on HTA's call_stack
 * trace (a backward op without its forward) there is no layer and the
 * note says why.  The real traces are skipped when ../shared is absent. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/analysis.h"
#include "profreport/devices.h"
#include "profreport/gpu_util.h"
#include "profreport/layers.h"
#include "profreport/ops.h"
#include "profreport/reader.h"
#include "profreport/roofline.h"
#include "profreport/tree.h"

#include "testshared.h"
#include "testtrace.h"

static double
num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

    if (!cJSON_IsNumber(v))
        fail_msg("%s is not a number", k);
    return v->valuedouble;
}

static int
is_null(const cJSON *o, const char *k)
{
    return cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, k));
}

static const char *
str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const cJSON *
get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* The op just added: its sequence number and forward thread id. */
static void
seq(struct pr_trace *t, int64_t n, int64_t fwd_tid)
{
    pr_trace_op_edit(t, (uint32_t)t->n_ops - 1)->seq = n;
    pr_trace_op_edit(t, (uint32_t)t->n_ops - 1)->fwd_tid = fwd_tid;
}

/* An op on thread tid with shapes and float inputs. */
static void
op(struct pr_trace *t, const char *name, const char *tid, double ts, double dur,
   int64_t ext, const char *dims)
{
    tt_host(t, PR_KIND_HOST_OP, name, tid, ts, dur, ext, dims,
            dims ? "[float, float, float, float, float, float, float]" : NULL);
}

/* A launch on thread tid at ts of a kernel of kdur µs at kts (the op with
 * External id ext launched it). */
static void
launch(struct pr_trace *t, const char *tid, double ts, int64_t ext, double kts,
       double kdur)
{
    struct pr_event *e =
        tt_event(t, PR_KIND_RUNTIME_CALL, "cudaLaunchKernel", tid, ts, 1);

    assert_int_equal(pr_event_set_correlation(t, e, ext), PR_OK);
    assert_int_equal(pr_event_set_external_id(t, e, ext), PR_OK);
    tt_kernel(t, "sgemm_or_conv_kernel", kts, kdur, ext);
    assert_int_equal(
        pr_event_set_external_id(t, &t->events[t->n_events - 1], ext), PR_OK);
}

/* The run of the whole analysis of t (finished here), on a V100. */
static cJSON *
analyse_trace(struct pr_trace *t)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = cJSON_CreateObject();

    assert_non_null(run);
    assert_non_null(cJSON_AddArrayToObject(run, "diagnostics"));
    assert_non_null(cJSON_AddObjectToObject(run, "data_quality"));
    pr_trace_finish(t);
    if (pr_analysis_run(t, &o, run, &err) != PR_OK)
        fail_msg("%s", err.msg);
    return run;
}

/* The layer pass alone on the C rows of the passes before it (issue
 * #10: no pass reads another's JSON back), into a run that holds nothing
 * else: it must write what the whole analysis wrote into `whole`. */
static void
same_from_rows(const struct pr_trace *t, const cJSON *whole)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    struct pr_tree tree;
    struct pr_ops ops;
    struct pr_device_rows devs;
    struct pr_roofline_in rin;
    struct pr_roofline_out rout;
    struct pr_layers_in lin;
    cJSON *run = cJSON_CreateObject();

    assert_non_null(run);
    assert_int_equal(pr_tree_build(t, &tree, &err), PR_OK);
    assert_int_equal(pr_ops_collect(t, &tree, &ops, &err), PR_OK);
    assert_int_equal(pr_devices_collect(t, &devs, &err), PR_OK);
    memset(&rin, 0, sizeof(rin));
    rin.t = t;
    rin.tree = &tree; /* as the analysis: MeanBackward's calls (roofline.c) */
    rin.devices = &devs;
    rin.ops = &ops;
    rin.main_device = pr_gpu_util_busiest(t);
    rin.tc_seed_pct = NAN;
    rin.tc_seed_on_pct = NAN;
    assert_int_equal(pr_roofline_run(&rin, &o, &rout, &err), PR_OK);
    lin.t = t;
    lin.tree = &tree;
    lin.by_shape = &ops.by_shape;
    lin.devices = &devs;
    lin.device = rout.device;
    assert_int_equal(pr_layers_fill(&lin, run, &err), PR_OK);
    assert_int_equal(cJSON_GetArraySize(run), 2); /* layers, layer_view */
    assert_true(cJSON_Compare(get(run, "layers"), get(whole, "layers"), 1));
    assert_true(
        cJSON_Compare(get(run, "layer_view"), get(whole, "layer_view"), 1));
    cJSON_Delete(rout.roofline);
    cJSON_Delete(rout.tensor_cores);
    pr_devices_free(&devs);
    pr_ops_free(&ops);
    pr_tree_free(&tree);
    cJSON_Delete(run);
}

/* ------------------------------------------------ hand-made traces */

/* nn.Linear(64, 128) on a [32, 64] batch, fp32 on a V100 (15.7 TFLOP/s,
 * 900 GB/s).  Forward, thread 1: aten::linear (seq 7) > aten::t (seq 7)
 * and aten::addmm (seq 8, 10 µs of kernel).  Backward, thread 2:
 * AddmmBackward0 (seq 8) > mm [32,128]x[128,64] (grad input, 20 µs) and
 * mm [128,32]x[32,64] (grad weight, 15 µs); TBackward0 (seq 7) > t.
 *
 *   forward FLOPs  = linear's formula 2*M*N*K = 2*32*128*64 = 524,288
 *                    (the addmm inside it is not counted again)
 *   forward bytes  = 4*(M*N + M*K + N*K) = 4*(4096 + 2048 + 8192) = 57,344
 *   backward FLOPs = 2 * 524,288 (both mm, 2*32*128*64 each) = 1,048,576
 *   backward bytes = 4*(4096 + 8192 + 2048) * 2 = 114,688
 *   layer: 1,572,864 FLOPs / 172,032 B = 9.142857 FLOP/B, below the
 *   ridge 15.7e12 / 900e9 = 17.44: memory-bound; 172,032 B in 45 µs =
 *   3.8229 GB/s = 0.42477% of 900 GB/s. */
static struct pr_trace *
linear_trace(void)
{
    struct pr_trace *t = pr_trace_new();

    assert_non_null(t);
    tt_device(t, "Tesla V100-SXM2-16GB", 7, 0, 80, 1);
    tt_op(t, "ProfilerStep#1", 0, 200, 100);
    op(t, "aten::linear", "1", 10, 30, 1, "[[32, 64], [128, 64], [128]]");
    seq(t, 7, 0);
    op(t, "aten::t", "1", 11, 2, 2, "[[128, 64]]");
    seq(t, 7, 0);
    op(t, "aten::addmm", "1", 14, 20, 3,
       "[[128], [32, 64], [64, 128], [], []]");
    seq(t, 8, 0);
    launch(t, "1", 15, 3, 50, 10);
    op(t, "autograd::engine::evaluate_function: AddmmBackward0", "2", 100, 40,
       4, NULL);
    seq(t, 8, 1);
    op(t, "AddmmBackward0", "2", 101, 38, 5, "[[32, 128]]");
    seq(t, 8, 1);
    op(t, "aten::mm", "2", 102, 10, 6, "[[32, 128], [128, 64]]");
    launch(t, "2", 103, 6, 150, 20);
    op(t, "aten::mm", "2", 115, 10, 7, "[[128, 32], [32, 64]]");
    launch(t, "2", 116, 7, 180, 15);
    op(t, "autograd::engine::evaluate_function: TBackward0", "2", 145, 10, 8,
       NULL);
    seq(t, 7, 1);
    op(t, "aten::t", "2", 146, 2, 9, "[[64, 128]]");
    return t;
}

static void
test_linear(void **state)
{
    struct pr_trace *t = linear_trace();
    cJSON *run = analyse_trace(t);
    const cJSON *rows = get(run, "layers"), *r = cJSON_GetArrayItem(rows, 0);
    const cJSON *v = get(run, "layer_view");

    (void)state;
    assert_int_equal(cJSON_GetArraySize(rows), 1);
    assert_string_equal(str(r, "name"), "aten::linear");
    assert_string_equal(str(r, "input_shapes"), "[[32, 64], [128, 64], [128]]");
    assert_string_equal(str(r, "backward"), "AddmmBackward0, TBackward0");
    tt_near(num(r, "calls"), 1);
    tt_near(num(r, "backward_calls"), 2);
    tt_near(num(r, "forward_flops"), 524288);
    assert_string_equal(str(r, "forward_flops_source"), "formula");
    tt_near(num(r, "forward_bytes"), 57344);
    tt_near(num(r, "forward_device_us"), 10);
    tt_near(num(r, "backward_flops"), 1048576);
    assert_string_equal(str(r, "backward_flops_source"), "formula");
    tt_near(num(r, "backward_bytes"), 114688);
    tt_near(num(r, "backward_device_us"), 35);
    tt_near(num(r, "flops"), 1572864);
    tt_near(num(r, "bytes"), 172032);
    tt_near(num(r, "device_us"), 45);
    tt_near(num(r, "arithmetic_intensity"), 1572864.0 / 172032.0);
    tt_near(num(r, "achieved_tflops"), 1572864.0 / 45e-6 / 1e12);
    tt_near(num(r, "achieved_gbps"), 172032.0 / 45e-6 / 1e9);
    assert_string_equal(str(r, "bound"), "memory");
    tt_near(num(r, "roofline_pct"), 100.0 * 172032.0 / 45e-6 / 1e9 / 900.0);
    assert_string_equal(str(r, "roof"), "fp32");
    tt_near(num(r, "peak_tflops"), 15.7);
    assert_string_equal(str(r, "dtype"), "fp32");
    assert_true(is_null(r, "roofline_mark"));
    /* forward alone: 524,288 / 57,344 = 9.14 FLOP/B, 52.4 GFLOP/s */
    tt_near(num(r, "forward_achieved_tflops"), 524288.0 / 10e-6 / 1e12);
    tt_near(num(r, "forward_arithmetic_intensity"), 524288.0 / 57344.0);
    assert_string_equal(str(r, "forward_bound"), "memory");
    tt_near(num(v, "layers"), 1);
    tt_near(num(v, "backward_roots"), 2);
    tt_near(num(v, "backward_unpaired"), 0);
    tt_near(num(v, "forward_device_us"), 10);
    tt_near(num(v, "backward_device_us"), 35);
    assert_true(is_null(v, "note"));
    same_from_rows(t, run);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* x * y on two [rows, 1024] fp32 tensors on a V100 (900 GB/s, 6 MiB L2):
 * the forward aten::mul (seq 3, a `fwd_us` kernel) and MulBackward0 > two
 * aten::mul of the same shape (`bwd_us` each), so the operator row of that
 * shape (three calls) sits under its roof and gives no mark: the layer's
 * forward side alone is above it. */
static struct pr_trace *
mul_trace(int rows, double fwd_us, double bwd_us)
{
    struct pr_trace *t = pr_trace_new();
    char dims[64];

    assert_non_null(t);
    snprintf(dims, sizeof(dims), "[[%d, 1024], [%d, 1024]]", rows, rows);
    tt_device(t, "Tesla V100-SXM2-16GB", 7, 0, 80, 1);
    tt_op(t, "ProfilerStep#1", 0, 200, 100);
    op(t, "aten::mul", "1", 10, 30, 1, dims);
    seq(t, 3, 0);
    launch(t, "1", 15, 1, 50, fwd_us);
    op(t, "autograd::engine::evaluate_function: MulBackward0", "2", 100, 40, 2,
       NULL);
    seq(t, 3, 1);
    op(t, "MulBackward0", "2", 101, 38, 3, NULL);
    seq(t, 3, 1);
    op(t, "aten::mul", "2", 102, 10, 4, dims);
    launch(t, "2", 103, 4, 150, bwd_us);
    op(t, "aten::mul", "2", 115, 10, 5, dims);
    launch(t, "2", 116, 5, 150 + bwd_us + 5, bwd_us);
    return t;
}

/* A layer side above the memory roof gets cache_resident by roofline.c's
 * own test (review 29 #6: hta_diff_control's aten::mul [1024, 2560], 31.5
 * MB a forward call under the A100's 40 MB L2 at 178%, read
 * model_overcount):
 *   [256, 1024]: 3 * 256 * 1024 * 4 = 3.1 MB a call, under 6 MiB, in 1 us
 *     (3,146 GB/s, 350%): cache_resident;
 *   [2048, 1024]: 25.2 MB a call in 1 us; beyond one cache-full 18.9 MB in
 *     1 us, far over 900 GB/s: the byte model counts more than ran. */
static void
test_side_cache(void **state)
{
    static const struct {
        int rows;
        const char *mark;
    } c[] = {{256, "cache_resident"}, {2048, "model_overcount"}};
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        /* the backward at 315 GB/s: 10 us a call per 256 rows */
        double bwd_us = 10.0 * c[i].rows / 256;
        struct pr_trace *t = mul_trace(c[i].rows, 1, bwd_us);
        cJSON *run = analyse_trace(t);
        const cJSON *r = cJSON_GetArrayItem(get(run, "layers"), 0);
        double per_call = 3.0 * c[i].rows * 1024 * 4;

        assert_non_null(r);
        assert_string_equal(str(r, "name"), "aten::mul");
        assert_string_equal(str(r, "backward"), "MulBackward0");
        tt_near(num(r, "forward_bytes"), per_call);
        tt_near(num(r, "forward_device_us"), 1);
        tt_near(num(r, "backward_device_us"), 2 * bwd_us);
        /* the whole layer under its roof, the forward over it */
        assert_true(num(r, "roofline_pct") < 100.0);
        assert_true(num(r, "forward_achieved_gbps") > 900.0);
        assert_string_equal(str(r, "roofline_mark"), c[i].mark);
        cJSON_Delete(run);
        pr_trace_free(t);
    }
}

/* A convolution whose backward op has no formula, and a ReLU whose
 * backward has none either.  conv2d [8,16,32,32] * [32,16,3,3], stride 1,
 * padding 1: out [8,32,32,32]; 2*8*32*32*32*16*9 = 75,497,472 FLOPs,
 * bytes 4*(131072 + 4608 + 262144) = 1,591,296.  Its backward
 * (my_conv_backward, 80 µs, no formula) is estimated as twice that and
 * says so; the ReLU's backward (my_relu_backward) stays unknown: the 2x
 * rule is for matmul and convolution only. */
static void
test_estimated(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *rows, *c, *r;
    cJSON *run;

    (void)state;
    assert_non_null(t);
    tt_device(t, "Tesla V100-SXM2-16GB", 7, 0, 80, 1);
    tt_op(t, "ProfilerStep#1", 0, 400, 100);
    op(t, "aten::conv2d", "1", 10, 30, 1,
       "[[8, 16, 32, 32], [32, 16, 3, 3], [], [], [], [], []]");
    pr_trace_op_edit(t, (uint32_t)t->n_ops - 1)->concrete_inputs =
        tt_str(t, "[\"\", \"\", \"\", \"[1, 1]\", \"[1, 1]\", \"[1, 1]\", "
                  "\"1\"]");
    seq(t, 3, 0);
    launch(t, "1", 11, 1, 50, 40);
    op(t, "aten::relu", "1", 45, 10, 2, "[[8, 32, 32, 32]]");
    seq(t, 4, 0);
    launch(t, "1", 46, 2, 95, 5);
    op(t, "autograd::engine::evaluate_function: ReluBackward0", "2", 100, 20, 3,
       NULL);
    seq(t, 4, 1);
    op(t, "my_relu_backward", "2", 101, 10, 4, "[[8, 32, 32, 32]]");
    launch(t, "2", 102, 4, 120, 6);
    op(t, "autograd::engine::evaluate_function: ConvolutionBackward0", "2", 130,
       40, 5, NULL);
    seq(t, 3, 1);
    op(t, "my_conv_backward", "2", 131, 30, 6,
       "[[8, 32, 32, 32], [8, 16, 32, 32], [32, 16, 3, 3]]");
    launch(t, "2", 132, 6, 140, 80);
    run = analyse_trace(t);
    rows = get(run, "layers");
    assert_int_equal(cJSON_GetArraySize(rows), 2);
    c = cJSON_GetArrayItem(rows, 0); /* 120 µs before the ReLU's 11 */
    assert_string_equal(str(c, "name"), "aten::conv2d");
    assert_string_equal(str(c, "backward"), "ConvolutionBackward0");
    tt_near(num(c, "forward_flops"), 75497472);
    tt_near(num(c, "forward_bytes"), 1591296);
    tt_near(num(c, "backward_flops"), 2 * 75497472.0);
    assert_string_equal(str(c, "backward_flops_source"), PR_LAYERS_ESTIMATED);
    tt_near(num(c, "backward_bytes"), 2 * 1591296.0);
    assert_string_equal(str(c, "backward_bytes_source"), PR_LAYERS_ESTIMATED);
    tt_near(num(c, "backward_device_us"), 80);
    tt_near(num(c, "flops"), 3 * 75497472.0);
    /* 226,492,416 / 120 µs = 1.887 TFLOP/s; intensity 47.4 > 17.4 */
    assert_string_equal(str(c, "bound"), "compute");
    assert_string_equal(str(c, "flops_source"), "mixed");
    tt_near(num(c, "roofline_pct"),
            100.0 * 3 * 75497472.0 / 120e-6 / 1e12 / 15.7);
    r = cJSON_GetArrayItem(rows, 1);
    assert_string_equal(str(r, "name"), "aten::relu");
    tt_near(num(r, "forward_flops"), 8 * 32 * 32 * 32);
    assert_true(is_null(r, "backward_flops"));
    assert_true(is_null(r, "backward_flops_source"));
    assert_true(is_null(r, "flops"));
    assert_string_equal(str(r, "bound"), "unknown");
    tt_near(num(r, "backward_device_us"), 6);
    same_from_rows(t, run);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* Inference: forward ops with sequence numbers and no backward make no
 * layer, and the note says how to get them. */
static void
test_no_backward(void **state)
{
    struct pr_trace *t = pr_trace_new();
    const cJSON *v;
    cJSON *run;

    (void)state;
    assert_non_null(t);
    op(t, "aten::linear", "1", 10, 30, 1, "[[32, 64], [128, 64], [128]]");
    seq(t, 7, 0);
    run = analyse_trace(t);
    assert_int_equal(cJSON_GetArraySize(get(run, "layers")), 0);
    v = get(run, "layer_view");
    tt_near(num(v, "layers"), 0);
    assert_string_equal(str(v, "note"), PR_LAYERS_NO_PAIRS);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* ------------------------------------------------ the real traces */

static char root[4096];

static cJSON *
analyse(const char *rel)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {0};
    struct pr_trace *t = NULL;
    char path[4096 + 256];
    cJSON *run;

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    if (pr_reader_load(path, NULL, &t, &err) != PR_OK)
        fail_msg("%s: %s", rel, err.msg);
    run = cJSON_CreateObject();
    assert_non_null(cJSON_AddArrayToObject(run, "diagnostics"));
    assert_non_null(cJSON_AddObjectToObject(run, "data_quality"));
    if (pr_analysis_run(t, &o, run, &err) != PR_OK)
        fail_msg("%s: %s", rel, err.msg);
    pr_trace_free(t);
    return run;
}

/* Sum of key over the rows of arr named name (calls into *calls). */
static double
sum_named(const cJSON *arr, const char *name, const char *key, double *calls)
{
    const cJSON *r;
    double s = 0;

    *calls = 0;
    cJSON_ArrayForEach(r, arr)
    {
        if (str(r, "name") && strcmp(str(r, "name"), name) == 0) {
            s += num(r, key);
            *calls += num(r, "calls");
        }
    }
    return s;
}

static void
near_rel(double a, double b)
{
    if (!(fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b))))
        fail_msg("%.6f != %.6f", a, b);
}

/* Layer names every call of which is a layer (each name once): the
 * layers' forward device time into *layer_us, their operators' device
 * total time into *ops_us; returns how many names. */
static size_t
whole_names(const cJSON *rows, const cJSON *ops, double *layer_us,
            double *ops_us)
{
    const cJSON *r, *p;
    double calls, ocalls, us, ous;
    size_t n = 0;

    *layer_us = *ops_us = 0;
    cJSON_ArrayForEach(r, rows)
    {
        int first = 1;

        for (p = rows->child; p != r; p = p->next)
            first &= strcmp(str(p, "name"), str(r, "name")) != 0;
        us = sum_named(rows, str(r, "name"), "forward_device_us", &calls);
        ous = sum_named(ops, str(r, "name"), "device_total_us", &ocalls);
        if (!first || calls != ocalls)
            continue; /* aten::add_: the optimizer's calls are no layer */
        *layer_us += us;
        *ops_us += ous;
        n++;
    }
    return n;
}

/* tb_plugin's ResNet-50 (6 steps, every forward op with its backward):
 * every conv2d, batch_norm and relu_ call is a layer, so the layers'
 * forward FLOPs equal those operators' FLOPs, and their backward FLOPs
 * equal the backward operators' (cudnn_convolution_backward,
 * cudnn_batch_norm_backward, threshold_backward): conv1's backward, which
 * ran the weight gradient only, one pass in both (pr_roofline_conv_grads).  The
 * layers' forward time is the device total of their operators (the addmm inside
 * linear counted once), their backward time what the fwd_bwd pairs say. */
static void
test_tb_plugin(void **state)
{
    static const struct {
        const char *layer, *bwd_op;
        double calls;
    } want[] = {{"aten::conv2d", "aten::cudnn_convolution_backward", 318},
                {"aten::batch_norm", "aten::cudnn_batch_norm_backward", 318},
                {"aten::relu_", "aten::threshold_backward", 294}};
    const cJSON *rows, *ops, *r, *v;
    double calls, ocalls, fwd_us = 0, bwd_us = 0, pair_b = 0, lu, ou;
    cJSON *run;
    size_t i;

    (void)state;
    if (!shared_traces(root, sizeof(root), ""))
        skip();
    run = analyse("tb_plugin/resnet50_num_workers_0/"
                  "worker0.1623143089861.pt.trace.json.gz");
    rows = get(run, "layers");
    ops = get(run, "operators_by_shape");
    for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        double f = sum_named(rows, want[i].layer, "forward_flops", &calls);
        double b = sum_named(rows, want[i].layer, "backward_flops", &calls);

        near_rel(calls, want[i].calls);
        near_rel(f, sum_named(ops, want[i].layer, "flops", &ocalls));
        near_rel(ocalls, want[i].calls);
        near_rel(b, sum_named(ops, want[i].bwd_op, "flops", &ocalls));
        assert_true(f > 0 && b > 0);
    }
    cJSON_ArrayForEach(r, rows)
    {
        fwd_us += num(r, "forward_device_us");
        bwd_us += num(r, "backward_device_us");
        near_rel(num(r, "device_us"),
                 num(r, "forward_device_us") + num(r, "backward_device_us"));
        if (!is_null(r, "flops_source"))
            assert_string_not_equal(str(r, "flops_source"),
                                    PR_LAYERS_ESTIMATED);
    }
    cJSON_ArrayForEach(r, get(run, "fwd_bwd")) pair_b +=
        num(r, "backward_device_us");
    /* conv2d, batch_norm, relu_, max_pool2d, linear, adaptive_avg_pool2d,
     * cross_entropy_loss, flatten */
    assert_int_equal(whole_names(rows, get(run, "operators"), &lu, &ou), 8);
    near_rel(lu, ou);
    near_rel(bwd_us, pair_b);
    v = get(run, "layer_view");
    near_rel(num(v, "forward_device_us"), fwd_us);
    near_rel(num(v, "backward_device_us"), bwd_us);
    tt_near(num(v, "layers"), 1056);
    tt_near(num(v, "backward_unpaired"), 0);
    cJSON_Delete(run);
}

/* The same ResNet-50 trace: 1,056 layers from the C rows alone. */
static void
test_tb_plugin_rows(void **state)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {0};
    struct pr_trace *t = NULL;
    char path[4096 + 256];
    cJSON *run = cJSON_CreateObject();

    (void)state;
    assert_non_null(run);
    if (!shared_traces(root, sizeof(root), "")) {
        cJSON_Delete(run);
        skip();
    }
    snprintf(path, sizeof(path), "%s/%s", root,
             "tb_plugin/resnet50_num_workers_0/"
             "worker0.1623143089861.pt.trace.json.gz");
    if (pr_reader_load(path, NULL, &t, &err) != PR_OK)
        fail_msg("%s", err.msg);
    assert_non_null(cJSON_AddArrayToObject(run, "diagnostics"));
    assert_non_null(cJSON_AddObjectToObject(run, "data_quality"));
    if (pr_analysis_run(t, &o, run, &err) != PR_OK)
        fail_msg("%s", err.msg);
    tt_near(num(get(run, "layer_view"), "layers"), 1056);
    same_from_rows(t, run);
    cJSON_Delete(run);
    pr_trace_free(t);
}

/* HTA's call_stack trace: one backward op whose forward is not in it. */
static void
test_hta_call_stack(void **state)
{
    const cJSON *v;
    cJSON *run;

    (void)state;
    if (!shared_traces(root, sizeof(root), ""))
        skip();
    run = analyse("hta/call_stack/backward_thread.json");
    assert_int_equal(cJSON_GetArraySize(get(run, "layers")), 0);
    v = get(run, "layer_view");
    tt_near(num(v, "backward_roots"), 1);
    tt_near(num(v, "backward_unpaired"), 1);
    assert_string_equal(str(v, "note"), PR_LAYERS_NO_FORWARD);
    cJSON_Delete(run);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear),
        cmocka_unit_test(test_side_cache),
        cmocka_unit_test(test_estimated),
        cmocka_unit_test(test_no_backward),
        cmocka_unit_test(test_tb_plugin),
        cmocka_unit_test(test_hta_call_stack),
        cmocka_unit_test(test_tb_plugin_rows),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
