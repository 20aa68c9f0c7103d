/* test_accelerators.c - traces of accelerators other than a plain CUDA GPU
 * give device work, tensor-core figures and findings that match what the
 * kernels did (issue #12).  The traces are small hand-made copies of the
 * shapes HTA's public test data has (tests/data/amd_trace,
 * mtia_trace_single_rank, cupti_profiler): Meta MTIA work in
 * mtia_ccp_events, a CUPTI counter (kernel-replay) trace whose kernels are
 * cuda_profiler_range events, and an AMD MI250 (gfx90a) run.  Each goes
 * through the whole pipeline: reader, analyses, roofline, advice. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "profreport/pipeline.h"

#include "testjson.h"

/* |a - b| <= 1e-9 * max(1, |b|) */
static void
near(double a, double b)
{
    double tol = 1e-9 * (b > 1 || b < -1 ? (b < 0 ? -b : b) : 1);

    if (!(a - b <= tol && b - a <= tol))
        fail_msg("%.12g != %.12g", a, b);
}

/* The summary of one trace given as text. */
static cJSON *
summarize(const char *json)
{
    char path[] = "/tmp/pr_accel_XXXXXX";
    const char *inputs[1];
    struct pr_error err = {0};
    cJSON *out = NULL;
    int fd = mkstemp(path);
    size_t n = strlen(json);

    assert_true(fd >= 0);
    assert_int_equal(write(fd, json, n), (ssize_t)n);
    close(fd);
    inputs[0] = path;
    assert_int_equal(pr_pipeline_summary(inputs, 1, 1, 0, &out, &err), PR_OK);
    unlink(path);
    assert_non_null(out);
    return out;
}

static const cJSON *
run0(const cJSON *sum)
{
    return at(sum, "runs", 0);
}

static const cJSON *
find_named(const cJSON *arr, const char *name)
{
    const cJSON *o;

    cJSON_ArrayForEach(o, arr)
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "name");

        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return o;
    }
    fail_msg("no row named %s", name);
    return NULL;
}

/* The diagnostic row of this kind. */
static const cJSON *
diag(const cJSON *run, const char *kind)
{
    const cJSON *d;

    cJSON_ArrayForEach(d, get(run, "diagnostics"))
    {
        if (strcmp(str(d, "kind"), kind) == 0)
            return d;
    }
    fail_msg("no diagnostic %s", kind);
    return NULL;
}

static int
has_rec(const cJSON *run, const char *id)
{
    const cJSON *r;

    cJSON_ArrayForEach(r, get(run, "recommendations"))
    {
        if (strcmp(str(r, "id"), id) == 0)
            return 1;
    }
    return 0;
}

/* One step of an MTIA run (HTA's mtia_trace_single_rank): the host op
 * launches through mtia_runtime, the device runs "fc-dtype_Float" on
 * pid 17 (the device id; no "device" arg), a DMA moves 4 KiB and a
 * stream waits on an event for 100 us. */
static const char mtia_trace[] =
    "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 17, \"name\": "
    "\"ARTEMIS\", \"runtimeMajorVersion\": 1}],\n\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
    "\"ProfilerStep#1\", \"pid\": 9, \"tid\": 9, \"ts\": 0, \"dur\": 1000},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 9, "
    "\"tid\": 9, \"ts\": 10, \"dur\": 100, \"args\": {\"External id\": 1, "
    "\"Input Dims\": [[1024, 1024], [1024, 2080]], \"Input type\": "
    "[\"float\", \"float\"]}},\n"
    "{\"ph\": \"X\", \"cat\": \"mtia_runtime\", \"name\": \"runFunction - "
    "job_prep_and_submit_for_execution\", \"pid\": 9, \"tid\": 9, \"ts\": 20, "
    "\"dur\": 50, \"args\": {\"correlation\": 5}},\n"
    "{\"ph\": \"X\", \"cat\": \"mtia_ccp_events\", \"name\": "
    "\"fc-dtype_Float\", \"pid\": 17, \"tid\": 4, \"ts\": 200, \"dur\": 400, "
    "\"args\": {\"correlation\": 5, \"stream\": 1, \"column\": \"0\", "
    "\"row\": \"0\", \"packet_ptr\": 330}},\n"
    "{\"ph\": \"X\", \"cat\": \"mtia_ccp_events\", \"name\": "
    "\"dma_request\", \"pid\": 17, \"tid\": 801, \"ts\": 650, \"dur\": 10, "
    "\"args\": {\"direction\": \"DEVICE_TO_HOST\", \"size\": 4096, "
    "\"packet_ptr\": 225, \"sqid\": 1}},\n"
    "{\"ph\": \"X\", \"cat\": \"mtia_ccp_events\", \"name\": \"event_wait\", "
    "\"pid\": 17, \"tid\": 5, \"ts\": 700, \"dur\": 100, \"args\": "
    "{\"stream\": 2, \"wait_on_stream\": 1}}\n]}\n";

static void
test_mtia(void **state)
{
    cJSON *sum = summarize(mtia_trace);
    const cJSON *run = run0(sum), *dev = at(run, "devices", 0);
    const cJSON *g = at(run, "gpu_metrics", 0), *tc = get(run, "tensor_cores");
    const cJSON *k = at(run, "kernels", 0);
    const cJSON *bd = get(get(run, "step_summary"), "breakdown_us");
    const cJSON *cp, *lane;
    int n_mtia = 0, n_gpu = 0;

    (void)state;
    /* the device by its own id, named, and no GPU */
    near(num(dev, "id"), 17);
    assert_string_equal(str(dev, "name"), "ARTEMIS");
    assert_string_equal(str(dev, "label"), "ARTEMIS");
    assert_string_equal(str(dev, "name_source"), "device_properties");
    assert_string_equal(str(dev, "vendor"), "meta");
    assert_string_equal(str(dev, "architecture"), "mtia");
    assert_true(cJSON_IsNull(get(dev, "compute_capability")));
    /* device work: the operator's 400 us; the wait is no work, the DMA a
     * copy */
    near(num(g, "device"), 17);
    near(num(g, "kernel_time_us"), 400);
    near(num(bd, "kernel"), 400);
    near(num(bd, "memcpy"), 10);
    assert_int_equal(cJSON_GetArraySize(get(run, "kernels")), 1);
    assert_string_equal(str(k, "name"), "fc-dtype_Float");
    assert_string_equal(str(k, "operator"), "aten::mm");
    near(num(get(run, "data_quality"), "unknown_cat"), 0);
    /* the DMA's size and direction reach the copy analysis */
    cp = at(get(run, "copies"), "by_kind", 0);
    assert_string_equal(str(cp, "direction"), "DtoH");
    near(num(cp, "bytes"), 4096);
    /* its timeline lanes are named for it: the work's stream and the
     * DMA's (which names none) */
    cJSON_ArrayForEach(lane, get(get(run, "timeline"), "lanes"))
    {
        n_mtia += strncmp(str(lane, "name"), "MTIA17 stream ", 14) == 0;
        n_gpu += strncmp(str(lane, "name"), "GPU", 3) == 0;
    }
    assert_int_equal(n_mtia, 2);
    assert_int_equal(n_gpu, 0);
    /* no CUDA tensor-core story for an fp32 matmul on MTIA */
    assert_true(cJSON_IsNull(get(tc, "tc_kernel_time_pct")));
    assert_int_equal(cJSON_GetArraySize(get(tc, "findings")), 0);
    assert_non_null(strstr(str(tc, "note"), "MTIA"));
    assert_false(has_rec(run, "enable_amp"));
    cJSON_Delete(sum);
}

/* A CUPTI counter trace (HTA's cupti_profiler sample): no "kernel"
 * events; one cuda_profiler_range per launch, in launch order, with the
 * SASS counters and replayed times.  As in that sample, the launches'
 * External ids are their correlation ids, not their operators'. */
#define RANGE(name, ts, ffma, fadd)                                            \
    "{\"ph\": \"X\", \"cat\": \"cuda_profiler_range\", \"name\": \"" name      \
    "\", \"pid\": 0, \"tid\": 0, \"ts\": " ts ", \"dur\": 121431, \"args\": "  \
    "{\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\": " ffma ", "     \
    "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum\": " fadd ", "      \
    "\"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum\": 0, "             \
    "\"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum\": 0}}"
#define LAUNCH(ts, corr)                                                       \
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "                    \
    "\"cudaLaunchKernel\", \"pid\": 9, \"tid\": 9, \"ts\": " ts ", \"dur\": "  \
    "5, \"args\": {\"External id\": " corr ", \"correlation\": " corr "}}"
#define REPLAY_HEAD                                                            \
    "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": "     \
    "\"NVIDIA A100-PG509-200\", \"computeMajor\": 8, \"computeMinor\": 0, "    \
    "\"numSms\": 108, \"totalGlobalMem\": 42505273344}],\n"                    \
    "\"traceEvents\": [\n"                                                     \
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": "   \
    "9, \"tid\": 9, \"ts\": 10, \"dur\": 100, \"args\": {\"External id\": 1, " \
    "\"Input Dims\": [[64, 128], [128, 256]], \"Input type\": [\"float\", "    \
    "\"float\"]}},\n"                                                          \
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add_\", "          \
    "\"pid\": 9, \"tid\": 9, \"ts\": 200, \"dur\": 100, \"args\": "            \
    "{\"External id\": 2}},\n" LAUNCH("20", "77") ",\n"

static const char replay_trace[] = REPLAY_HEAD LAUNCH("210", "78") ",\n" RANGE(
    "ampere_sgemm_64x64_nn", "1000", "2000000",
    "1000") ",\n" RANGE("void at::native::elementwise_kernel<128, 2>", "122431",
                        "0", "8192") "\n]}\n";

/* The same with a ProfilerStep around the host work: the step is the
 * host's interval, not stretched to the ranges' made-up times. */
static const char replay_stepped[] = REPLAY_HEAD
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
    "\"ProfilerStep#1\", \"pid\": 9, \"tid\": 9, \"ts\": 0, "
    "\"dur\": 400},\n" LAUNCH("210", "78") ",\n" RANGE(
        "ampere_sgemm_64x64_nn", "1000", "2000000",
        "1000") ",\n" RANGE("void at::native::elementwise_kernel<128, "
                            "2>",
                            "122431", "0", "8192") "\n]}\n";

/* Two ranges of the elementwise kernel after a longer one of the GEMM: a
 * range profiler's kernel table is by calls, whatever the ranges last. */
static const char replay_calls[] = REPLAY_HEAD LAUNCH("210", "78") ",\n" LAUNCH(
    "220", "79") ",\n"
                 "{\"ph\": \"X\", \"cat\": \"cuda_profiler_range\", "
                 "\"name\": \"ampere_sgemm_64x64_nn\", \"pid\": 0, "
                 "\"tid\": 0, \"ts\": 1000, \"dur\": 500000},\n" RANGE(
                     "void at::native::elementwise_kernel<128, 2>", "501000",
                     "0", "8192") ",\n" RANGE("void at::native::elementwise_"
                                              "kernel<128, 2>",
                                              "622431", "0", "8192") "\n]}\n";

/* One launch for two ranges: pairing by order would guess. */
static const char replay_unpaired[] =
    REPLAY_HEAD RANGE("ampere_sgemm_64x64_nn", "1000", "2000000",
                      "1000") ",\n" RANGE("void at::native::elementwise_"
                                          "kernel<128, 2>",
                                          "122431", "0", "8192") "\n]}\n";

static void
test_cupti_counters(void **state)
{
    cJSON *sum = summarize(replay_trace);
    const cJSON *run = run0(sum), *q = get(run, "data_quality");
    const cJSON *mm = find_named(get(run, "operators_by_shape"), "aten::mm");
    const cJSON *add = find_named(get(run, "operators"), "aten::add_");
    const cJSON *k = find_named(get(run, "kernels"), "ampere_sgemm_64x64_nn");
    const cJSON *d = diag(run, "kernel_replay");
    const cJSON *g = at(run, "gpu_metrics", 0);

    (void)state;
    /* read as the device's kernels, each under the op that launched it */
    /* no kernel time either: the ranges' durations are made up */
    assert_true(cJSON_IsNull(get(g, "kernel_time_us")));
    assert_true(cJSON_IsNull(get(k, "total_us")));
    assert_true(cJSON_IsNull(get(k, "mean_us")));
    near(num(k, "calls"), 1);
    assert_string_equal(str(k, "operator"), "aten::mm");
    near(num(q, "kernel_time_without_operator_pct"), 0);
    /* measured: 2 per FMA + 1 per add = 4,001,000, not the formula's
     * 2*64*128*256 = 4,194,304 */
    near(num(mm, "flops"), 2.0 * 2000000 + 1000);
    assert_string_equal(str(mm, "flops_source"), "measured");
    near(num(add, "flops"), 8192);
    assert_string_equal(str(add, "flops_source"), "measured");
    /* the ranges (of one duration: Kineto spreads them over the span)
     * carry no timing: no utilization, and the reports say so, and that
     * the measured FLOPs leave tensor-core work out (issue #29) */
    near(num(q, "replayed_kernels"), 2);
    assert_non_null(strstr(str(d, "text"), "no timing"));
    assert_non_null(strstr(str(d, "text"), "tensor-core work is not in them"));
    assert_null(strstr(str(d, "text"), "replays'"));
    assert_null(strstr(str(d, "text"), "not paired"));
    assert_true(cJSON_IsNull(get(g, "utilization_pct")));
    assert_true(cJSON_IsNull(get(g, "est_sm_efficiency_pct")));
    assert_non_null(strstr(str(g, "note"), "no timing"));
    assert_false(has_rec(run, "low_gpu_utilization"));
    /* nor any share of kernel time or rate from them (review 28h #4:
       "7.8% of kernel time on tensor cores" was 6 of 77 launches) */
    assert_true(
        cJSON_IsNull(get(get(run, "tensor_cores"), "tc_kernel_time_pct")));
    assert_true(
        cJSON_IsNull(get(get(run, "tensor_cores"), "eligible_op_time_pct")));
    assert_non_null(
        strstr(str(get(run, "tensor_cores"), "note"), "kernel replay"));
    assert_true(cJSON_IsNull(get(mm, "achieved_tflops")));
    assert_true(cJSON_IsNull(get(mm, "tc_self_pct")));
    /* nor any time made of them (review30g #3: "Kernel 9.35 s (78.9%)",
       "Compute 100%, idle 0", aten::cudnn_convolution "3.40 s" and
       "9.35 s of 9.35 s kernel time" were 77 ranges of 121,431 us): the
       step split, the device's busy and idle time, the operators' device
       times and the attribution's times are null, each saying why once */
    assert_true(cJSON_IsNull(
        get(get(get(run, "step_summary"), "breakdown_us"), "kernel")));
    assert_true(cJSON_IsNull(
        get(get(get(run, "step_summary"), "breakdown_us"), "cpu_exec")));
    assert_true(
        cJSON_IsNull(get(get(at(run, "steps", 0), "breakdown_us"), "kernel")));
    assert_true(
        cJSON_IsNull(get(get(at(run, "steps", 0), "breakdown_us"), "other")));
    assert_true(
        cJSON_IsNull(get(at(run, "temporal_breakdown", 0), "compute_us")));
    assert_true(
        cJSON_IsNull(get(at(run, "temporal_breakdown", 0), "idle_pct")));
    assert_non_null(
        strstr(str(at(run, "temporal_breakdown", 0), "note"), "kernel replay"));
    assert_true(cJSON_IsNull(get(mm, "device_self_us")));
    assert_true(cJSON_IsNull(get(add, "device_total_us")));
    near(num(add, "calls"), 1);
    assert_true(cJSON_IsNull(get(get(run, "attribution"), "kernel_time_us")));
    assert_true(cJSON_IsNull(get(get(run, "attribution"), "operator_pct")));
    near(num(get(run, "attribution"), "kernels"), 2);
    assert_non_null(
        strstr(str(get(run, "attribution"), "reason"), "Kernel replay"));
    cJSON_Delete(sum);

    /* no critical path or what-if through times that are not there, and
       the verdict names no bound but says why (issue #29) */
    sum = summarize(replay_stepped);
    run = run0(sum);
    assert_string_equal(str(get(run, "step_summary"), "basis"), "host");
    near(num(get(run, "step_summary"), "mean_us"), 400);
    assert_string_equal(str(get(run, "critical_path"), "no_path_reason"),
                        "kernel_replay");
    assert_int_equal(
        cJSON_GetArraySize(get(get(run, "critical_path"), "steps")), 0);
    assert_true(cJSON_IsNull(get(get(run, "verdict"), "bound")));
    assert_non_null(
        strstr(str(get(run, "verdict"), "text"), "CUPTI's range profiler"));
    cJSON_Delete(sum);

    /* the kernel table ranks by calls, not by the ranges' made-up times */
    sum = summarize(replay_calls);
    run = run0(sum);
    assert_string_equal(str(at(run, "kernels", 0), "name"),
                        "void at::native::elementwise_kernel<128, 2>");
    near(num(at(run, "kernels", 0), "calls"), 2);
    assert_true(cJSON_IsNull(get(at(run, "kernels", 0), "total_us")));
    assert_string_equal(str(at(run, "kernels", 1), "name"),
                        "ampere_sgemm_64x64_nn");
    cJSON_Delete(sum);

    sum = summarize(replay_unpaired);
    run = run0(sum);
    mm = find_named(get(run, "operators_by_shape"), "aten::mm");
    assert_non_null(
        strstr(str(diag(run, "kernel_replay"), "text"), "not paired"));
    near(num(get(run, "data_quality"), "kernel_time_without_operator_pct"),
         100);
    /* no kernel of its own: the formula, and it says so */
    near(num(mm, "flops"), 2.0 * 64 * 128 * 256);
    assert_string_equal(str(mm, "flops_source"), "formula");
    cJSON_Delete(sum);
}

/* An MI250 run (HTA's amd_trace): HIP reports gfx90a as "9.0" with 64-wide
 * wavefronts; the fp32 GEMM ran on the matrix cores (MI16x16x1 in its
 * Tensile name), which CDNA runs fp32 on, TF32 or not. */
static const char mi250_trace[] =
    "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": "
    "\"AMD Radeon Graphics\", \"totalGlobalMem\": 68702699520, "
    "\"computeMajor\": 9, \"computeMinor\": 0, \"warpSize\": 64, "
    "\"numSms\": 104}],\n\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::addmm\", "
    "\"pid\": 9, \"tid\": 9, \"ts\": 10, \"dur\": 100, \"args\": "
    "{\"External id\": 1, \"Input Dims\": [[128], [5, 128], [128, 128], [], "
    "[]], \"Input type\": [\"float\", \"float\", \"float\", \"Scalar\", "
    "\"Scalar\"]}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::sum\", \"pid\": "
    "9, \"tid\": 9, \"ts\": 200, \"dur\": 100, \"args\": {\"External id\": "
    "2, \"Input Dims\": [[5, 128], [], [], []], \"Input type\": [\"float\", "
    "\"ScalarList\", \"Scalar\", \"\"]}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
    "\"hipExtModuleLaunchKernel\", \"pid\": 9, \"tid\": 9, \"ts\": 20, "
    "\"dur\": 5, \"args\": {\"External id\": 1, \"correlation\": 3}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
    "\"hipLaunchKernel\", \"pid\": 9, \"tid\": 9, \"ts\": 210, \"dur\": 5, "
    "\"args\": {\"External id\": 2, \"correlation\": 4}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": "
    "\"Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_"
    "LDSB0_ISA90a_IU1_K1_WG64_4_1\", \"pid\": 0, \"tid\": 1, \"ts\": 30, "
    "\"dur\": 30, \"args\": {\"External id\": 1, \"device\": 0, \"stream\": "
    "0, \"correlation\": 3}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"void "
    "at::native::reduce_kernel<128, 4>\", \"pid\": 0, \"tid\": 1, \"ts\": "
    "220, \"dur\": 10, \"args\": {\"External id\": 2, \"device\": 0, "
    "\"stream\": 0, \"correlation\": 4}}\n]}\n";

/* An MI300X rank under HIP_VISIBLE_DEVICES (issue #28): deviceProperties
 * lists its one GPU as id 0 with gcnArchName, the kernels and memory
 * records say device 2, and the memory records are HIP's (Device Type 6).
 * Kernels: a hipBLASLt MFMA GEMM 40 us, a Triton attention kernel 40 us
 * (tl.dot: the matrix cores), an RCCL all-reduce 15 us, a PyTorch
 * elementwise kernel 5 us: 80 of 100 us on the matrix cores. */
static const char mi300x_trace[] =
    "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": "
    "\"AMD Instinct MI300X\", \"totalGlobalMem\": 206141652992, "
    "\"computeMajor\": 9, \"computeMinor\": 4, \"warpSize\": 64, "
    "\"numSms\": 304, \"gcnArchName\": \"gfx942:sramecc+:xnack-\"}],\n"
    "\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
    "\"ProfilerStep#1\", \"pid\": 9, \"tid\": 9, \"ts\": 0, \"dur\": 300},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"Cijk_Alik_Bljk_BBS_BH_"
    "MT256x256x64_MI16x16x1_SN_ISA942_WG64_4_1\", \"pid\": 2, \"tid\": 1, "
    "\"ts\": 10, \"dur\": 40, \"args\": {\"device\": 2, \"stream\": 0, "
    "\"correlation\": 3}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"attn_fwd\", \"pid\": "
    "2, \"tid\": 1, \"ts\": 60, \"dur\": 40, \"args\": {\"device\": 2, "
    "\"stream\": 0, \"correlation\": 4}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": "
    "\"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<"
    "4096ul>)\", \"pid\": 2, \"tid\": 2, \"ts\": 110, \"dur\": 15, "
    "\"args\": {\"device\": 2, \"stream\": 1, \"correlation\": 5}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"void "
    "at::native::vectorized_elementwise_kernel<4>\", \"pid\": 2, \"tid\": "
    "1, \"ts\": 130, \"dur\": 5, \"args\": {\"device\": 2, \"stream\": 0, "
    "\"correlation\": 6}},\n"
    "{\"ph\": \"i\", \"s\": \"t\", \"cat\": \"cpu_instant_event\", \"name\": "
    "\"[memory]\", \"pid\": 9, \"tid\": 9, \"ts\": 5, \"args\": {\"Device "
    "Type\": 6, \"Device Id\": 2, \"Addr\": 4096, \"Bytes\": 2097152, "
    "\"Total Allocated\": 2097152, \"Total Reserved\": 4194304}},\n"
    "{\"ph\": \"i\", \"s\": \"t\", \"cat\": \"cpu_instant_event\", \"name\": "
    "\"[memory]\", \"pid\": 9, \"tid\": 9, \"ts\": 200, \"args\": "
    "{\"Device Type\": 6, \"Device Id\": 2, \"Addr\": 4096, \"Bytes\": "
    "-2097152, \"Total Allocated\": 0, \"Total Reserved\": 4194304}}\n]}\n";

static void
test_mi300x_renumbered(void **state)
{
    cJSON *sum = summarize(mi300x_trace);
    const cJSON *run = run0(sum), *dev = at(run, "devices", 0), *d;
    const cJSON *mem = at(get(run, "memory"), "devices", 0);
    int noted = 0;

    (void)state;
    near(num(dev, "id"), 2);
    assert_string_equal(str(dev, "name"), "AMD Instinct MI300X");
    assert_string_equal(str(dev, "vendor"), "amd");
    assert_string_equal(str(dev, "architecture"), "gfx942");
    assert_true(cJSON_IsNull(get(dev, "compute_capability")));
    assert_true(num(dev, "peak_gbps") > 5000);
    /* the matrix cores: the GEMM and the Triton attention kernel */
    near(num(get(run, "tensor_cores"), "tc_kernel_time_pct"), 80);
    assert_string_equal(str(at(run, "kernels", 1), "math"), "mfma");
    /* HIP's memory records make the GPU's curve */
    assert_string_equal(str(mem, "device"), "GPU2");
    near(num(mem, "peak_allocated_bytes"), 2097152);
    cJSON_ArrayForEach(d, get(run, "diagnostics"))
    {
        noted |= strcmp(str(d, "kind"), "device_ids") == 0 &&
                 strstr(str(d, "text"), "device 2") != NULL &&
                 strstr(str(d, "text"), "GPU 0 (AMD Instinct MI300X)");
    }
    assert_true(noted);
    cJSON_Delete(sum);
}

static void
test_mi250(void **state)
{
    cJSON *sum = summarize(mi250_trace);
    const cJSON *run = run0(sum), *dev = at(run, "devices", 0);
    const cJSON *tc = get(run, "tensor_cores");
    const cJSON *k = find_named(get(run, "kernels"),
                                "Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_"
                                "MT64x16x32_MI16x16x1_SN_LDSB0_ISA90a_IU1_K1_"
                                "WG64_4_1");

    (void)state;
    assert_string_equal(str(dev, "vendor"), "amd");
    assert_string_equal(str(dev, "architecture"), "gfx90a");
    assert_true(cJSON_IsNull(get(dev, "compute_capability")));
    assert_string_equal(str(dev, "peak_source"), "guess");
    near(num(dev, "peak_gbps"), 1638.4);
    /* the GEMM's 30 us of 40 us kernel time ran on the matrix cores */
    assert_true(cJSON_IsTrue(get(k, "tensor_cores_used")));
    assert_string_equal(str(k, "tensor_cores_rule"), "tensile.mfma");
    assert_string_equal(str(k, "kernel_rule"), "tensile.mfma");
    assert_string_equal(str(k, "family"), "gemm");
    assert_string_equal(str(k, "math"), "mfma");
    assert_string_equal(str(k, "library"), "hipBLASLt/Tensile");
    near(num(tc, "tc_kernel_time_pct"), 75);
    near(num(tc, "eligible_on_tc_pct"), 100);
    assert_int_equal(cJSON_GetArraySize(get(tc, "findings")), 0);
    assert_false(has_rec(run, "enable_amp"));
    cJSON_Delete(sum);
}

#define RESNET                                                                 \
    "tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"

/* The enable_amp advice quotes the tensor-core card's eligible share, on
 * the plugin's ResNet-50 sample (fp32 on a V100: 67.6% of kernel time is
 * in eligible operators, none on tensor cores). */
static void
test_amp_matches_card(void **state)
{
    const char *shared = getenv("PR_SHARED");
    const char *src = getenv("PR_SRCDIR");
    const char *inputs[1];
    char path[4096], pct[32];
    struct pr_error err = {0};
    cJSON *sum = NULL;
    const cJSON *run, *r, *amp = NULL;
    FILE *f;

    (void)state;
    if (shared != NULL)
        snprintf(path, sizeof(path), "%s/traces/%s", shared, RESNET);
    else
        snprintf(path, sizeof(path), "%s/../shared/traces/%s", src ? src : ".",
                 RESNET);
    f = fopen(path, "rb");
    if (f == NULL) {
        print_message("# sample trace absent, not checked: %s\n", path);
        skip();
    }
    fclose(f);
    inputs[0] = path;
    assert_int_equal(pr_pipeline_summary(inputs, 1, 1, 0, &sum, &err), PR_OK);
    run = run0(sum);
    cJSON_ArrayForEach(r, get(run, "recommendations"))
    {
        if (strcmp(str(r, "id"), "enable_amp") == 0)
            amp = r;
    }
    assert_non_null(amp);
    snprintf(pct, sizeof(pct), "%.1f%%",
             num(get(run, "tensor_cores"), "eligible_op_time_pct"));
    assert_string_equal(pct, "67.6%");
    assert_non_null(strstr(str(amp, "text"), pct));
    cJSON_Delete(sum);
}

/* A kernel on a device the trace lists no deviceProperties for (HTA's
 * call_stack): still a device of the run, labelled by kind and id and
 * saying what is missing; its name stays null, so no peaks are guessed
 * from a made-up name (issue #11). */
static void
test_unnamed_device(void **state)
{
    static const char json[] =
        "{\"schemaVersion\": 1, \"traceEvents\": ["
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
        "\"pid\": 0, \"tid\": 7, \"ts\": 100, \"dur\": 45, \"args\": "
        "{\"device\": 0, \"stream\": 7, \"correlation\": 1}}]}";
    cJSON *sum = summarize(json);
    const cJSON *dev = at(run0(sum), "devices", 0);

    (void)state;
    assert_true(cJSON_IsNull(get(dev, "name")));
    assert_string_equal(str(dev, "label"),
                        "GPU 0 (no deviceProperties in trace)");
    assert_string_equal(str(dev, "name_source"), "none");
    cJSON_Delete(sum);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mtia),
        cmocka_unit_test(test_cupti_counters),
        cmocka_unit_test(test_mi250),
        cmocka_unit_test(test_mi300x_renumbered),
        cmocka_unit_test(test_amp_matches_card),
        cmocka_unit_test(test_unnamed_device),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
