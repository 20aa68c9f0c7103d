/* test_roofline.c - tr_roofline() over hand-made run objects: peaks
 * on devices, FLOPs/bytes/rates/bound/roofline per row, operator
 * aggregation, the tensor_cores object, recommendations, and nulls for an
 * unknown device.  Expected numbers are worked out in the comments. */
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
#include "profreport/recommend.h"
#include "profreport/roofline.h"
#include "profreport/trace.h"

#include "testrec.h"
#include "testroof.h"
#include "testtrace.h"

static void
near(double got, double want)
{
    if (fabs(got - want) > 1e-9 * (fabs(want) > 1 ? fabs(want) : 1)) {
        print_error("got %.17g, want %.17g\n", got, want);
        fail();
    }
}

static double
num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static void
is_null(const cJSON *o, const char *key)
{
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, key)));
}

static const char *
str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

#define ROW(name, shapes, types, calls, self, total, elig)                     \
    "{\"name\": \"" name "\", \"input_shapes\": \"" shapes "\", "              \
    "\"input_types\": \"" types "\", \"calls\": " #calls ", "                  \
    "\"device_self_us\": " #self ", \"device_total_us\": " #total ", "         \
    "\"tc_eligible\": " elig ", \"tc_self_pct\": 0, \"tc_total_pct\": 0, "     \
    "\"flops\": null, \"bytes\": null, \"bound\": \"unknown\"}"

/* The run after the core analyses, from the device's compute capability
 * onwards (make_run() puts the device name and capability in front). */
static const char *const run_rest =
    ", \"peak_tflops\": {}, \"peak_gbps\": null, \"peak_source\": "
    "\"unknown\"}],"
    " \"gpu_metrics\": [{\"device\": 0, \"utilization_pct\": 80, "
    "\"kernel_time_us\": 250}],"
    " \"step_summary\": {\"mean_us\": 1000, \"breakdown_us\": {\"runtime\": "
    "10, \"dataloader\": 100}},"
    " \"steps\": [{\"start_us\": 0, \"duration_us\": 1000}],"
    " \"kernels\": [{\"name\": \"volta_sgemm_128x64_nn\", \"calls\": 11, "
    "\"total_us\": 150, \"mean_us\": 13.6, "
    "\"mean_est_achieved_occupancy_pct\": 50, \"mean_blocks_per_sm\": 4},"
    " {\"name\": \"elementwise_kernel\", \"calls\": 4, \"total_us\": 80, "
    "\"mean_us\": 20, \"mean_est_achieved_occupancy_pct\": 90, "
    "\"mean_blocks_per_sm\": 100},"
    " {\"name\": \"volta_h884gemm_64x64\", \"calls\": 1, \"total_us\": 20, "
    "\"mean_us\": 20, \"mean_est_achieved_occupancy_pct\": 10, "
    "\"mean_blocks_per_sm\": 0.5}],"
    " \"operators\": [{\"name\": \"aten::mm\", \"calls\": 11, "
    "\"device_self_us\": 150, \"device_total_us\": 150},"
    " {\"name\": \"aten::add_\", \"calls\": 4, \"device_self_us\": 80, "
    "\"device_total_us\": 80}],"
    " \"operators_by_shape\": [" ROW(
        "aten::mm", "[[64, 512], [512, 1000]]", "[float, float]", 10, 100, 100,
        "true") ", " ROW("aten::add_", "[[1000000], [1000000], []]",
                         "[float, float, Int]", 4, 80, 80,
                         "false") ", " ROW("aten::mm",
                                           "[[63, 512], [512, 1000]]",
                                           "[c10::Half, c10::Half]", 1, 50, 50,
                                           "true") "], \"tensor_cores\": null, "
                                                   "\"recommendations\": null}";

static cJSON *
make_run(const char *device, const char *cc)
{
    char buf[8192];
    cJSON *run;

    snprintf(buf, sizeof(buf),
             "{\"devices\": [{\"id\": 0, \"name\": \"%s\", "
             "\"compute_capability\": %s%s",
             device, cc, run_rest);
    run = cJSON_Parse(buf);
    assert_non_null(run);
    return run;
}

static const cJSON *
item(const cJSON *run, const char *arr, int i)
{
    const cJSON *v =
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(run, arr), i);

    assert_non_null(v);
    return v;
}

static void
test_v100(void **state)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = make_run("Tesla V100-SXM2-16GB", "\"7.0\"");
    const cJSON *d, *r, *tc, *f;

    (void)state;
    assert_int_equal(tr_roofline(NULL, &o, run, &err), PR_OK);
    d = item(run, "devices", 0);
    near(num(cJSON_GetObjectItemCaseSensitive(d, "peak_tflops"), "fp32"), 15.7);
    near(num(d, "peak_gbps"), 900.0);
    assert_string_equal(str(d, "peak_source"), "table");
    /* mm [64,512]x[512,1000] fp32, 10 calls in 100 us: 655,360,000 FLOPs,
     * 24,350,720 bytes; 6.5536 TFLOP/s, 243.5072 GB/s; AI 26.91 > ridge
     * 15.7e12/900e9 = 17.44 (fp32, no tensor cores): compute bound at
     * 6.5536/15.7 = 41.74% */
    r = item(run, "operators_by_shape", 0);
    near(num(r, "flops"), 655360000.0);
    near(num(r, "bytes"), 24350720.0);
    near(num(r, "achieved_tflops"), 6.5536);
    near(num(r, "achieved_gbps"), 243.5072);
    near(num(r, "arithmetic_intensity"), 655360000.0 / 24350720.0);
    assert_string_equal(str(r, "bound"), "compute");
    near(num(r, "roofline_pct"), 100.0 * 6.5536 / 15.7);
    assert_string_equal(str(r, "dtype"), "fp32");
    /* add_ 4 x 1e6 fp32 in 80 us: 4e6 FLOPs, 48e6 bytes; 600 GB/s; AI
     * 0.083: memory bound at 600/900 = 66.67% */
    r = item(run, "operators_by_shape", 1);
    near(num(r, "achieved_gbps"), 600.0);
    near(num(r, "achieved_tflops"), 0.05);
    assert_string_equal(str(r, "bound"), "memory");
    near(num(r, "roofline_pct"), 100.0 * 600.0 / 900.0);
    /* mm fp16 [63,512]x[512,1000] in 50 us: 64,512,000 FLOPs, 1,214,512
     * bytes; held to the fp16 tensor roof (eligible): ridge 125e12/900e9 =
     * 138.9 > AI 53.1, so memory bound at 24.29024/900 = 2.699% */
    r = item(run, "operators_by_shape", 2);
    near(num(r, "achieved_tflops"), 1.29024);
    assert_string_equal(str(r, "bound"), "memory");
    near(num(r, "roofline_pct"), 100.0 * 24.29024 / 900.0);
    /* operators: mm sums both shapes over its own 150 us */
    r = item(run, "operators", 0);
    near(num(r, "flops"), 719872000.0);
    near(num(r, "bytes"), 25565232.0);
    near(num(r, "achieved_tflops"), 719872000.0 / 150e-6 / 1e12);
    /* tensor cores: 20 of 250 kernel us; eligible self time 150 of 230 */
    tc = cJSON_GetObjectItemCaseSensitive(run, "tensor_cores");
    near(num(tc, "tc_kernel_time_pct"), 8.0);
    near(num(tc, "eligible_op_time_pct"), 100.0 * 150.0 / 230.0);
    near(num(tc, "eligible_on_tc_pct"), 0.0);
    f = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(tc, "findings"), 0);
    assert_string_equal(str(f, "operator"), "aten::mm");
    near(num(f, "device_us"), 100.0);
    assert_string_equal(str(f, "reason"),
                        "fp32 inputs (no TF32 before compute capability 8.0)");
    f = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(tc, "findings"), 1);
    assert_string_equal(str(f, "reason"), "M=63 not a multiple of 8");
    assert_string_equal(str(f, "advice"), "pad M from 63 to 64");
    assert_int_equal(
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tc, "findings")),
        2);
    cJSON_Delete(run);
}

static const cJSON *
find_rec(const cJSON *run, const char *id)
{
    const cJSON *r;

    cJSON_ArrayForEach(r,
                       cJSON_GetObjectItemCaseSensitive(run, "recommendations"))
    {
        if (strcmp(str(r, "id"), id) == 0)
            return r;
    }
    return NULL;
}

/* The recommendations of run as analysis.c makes them: its rows through
 * the roofline pass (peaks, rates, bounds) into pr_rec_tables_fill, the
 * step shares from its step summary, the capability from its device. */
static void
recommend(const struct pr_analysis_opts *o, cJSON *run)
{
    const cJSON *ss = cJSON_GetObjectItemCaseSensitive(run, "step_summary");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(ss, "breakdown_us"), *m;
    struct pr_error err = {PR_OK, ""};
    struct pr_device_rows devs;
    struct pr_ops ops;
    struct pr_kernel_refs ks;
    struct pr_gpu_row g[4];
    struct pr_gpu_rows gpus = {g, 0};
    struct pr_roofline_in in = {0};
    struct pr_roofline_out out;
    struct pr_rec_rows rows;
    struct pr_rec_facts f;
    size_t i;
    int c;

    tr_devices(run, &devs);
    tr_ops(run, "operators", &ops.by_name);
    tr_ops(run, "operators_by_shape", &ops.by_shape);
    tr_kernels(run, &ks);
    for (i = 0; i < ks.n; i++) { /* the rest of the row, as kernels.c's */
        m = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(run, "kernels"),
                               (int)i);
        ks.v[i].calls = (size_t)tr_num(m, "calls");
        ks.v[i].mean_us = tr_num(m, "mean_us");
        ks.v[i].occupancy_pct = tr_num(m, "mean_est_achieved_occupancy_pct");
        ks.v[i].blocks_per_sm = tr_num(m, "mean_blocks_per_sm");
    }
    in.t = NULL;
    in.tree = NULL;
    in.devices = &devs;
    in.ops = &ops;
    in.kernels = &ks;
    in.main_device = tr_busiest(run);
    in.tc_seed_pct = NAN;
    in.tc_seed_on_pct = NAN;
    assert_int_equal(pr_roofline_run(&in, o, &out, &err), PR_OK);
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(run, "gpu_metrics"))
    {
        assert_true(gpus.n < sizeof(g) / sizeof(g[0]));
        g[gpus.n].device = (int32_t)tr_num(m, "device");
        g[gpus.n].utilization_pct = tr_num(m, "utilization_pct");
        g[gpus.n++].kernel_ns = tr_ns(m, "kernel_time_us");
    }
    rows.devs = &devs;
    rows.by_shape = &ops.by_shape;
    rows.kernels = &ks;
    rows.gpus = &gpus;
    rows.main_device = in.main_device;
    rows.tc_kernel_pct = out.tc_kernel_pct;
    rows.eligible_op_pct = out.eligible_op_pct;
    trec_facts(&f);
    f.cc_major = devs.n > 0 && devs.v[0].compute_capability != NULL
                     ? (int)strtol(devs.v[0].compute_capability, NULL, 10)
                     : -1;
    f.tables.step_mean_us = tr_num(ss, "mean_us");
    for (c = 0; c < PR_CAT_COUNT; c++)
        f.tables.step_cat_us[c] = tr_num(b, pr_steps_cat_key((enum pr_cat)c));
    f.dataloader_share =
        f.tables.step_cat_us[PR_CAT_DATALOADER] / f.tables.step_mean_us;
    assert_int_equal(pr_rec_tables_fill(&f, &rows, &err), PR_OK);
    assert_int_equal(pr_recommend_fill(&f, run, &err), PR_OK);
    pr_rec_facts_free(&f);
    cJSON_Delete(out.tensor_cores);
    cJSON_Delete(out.roofline);
    pr_devices_free(&devs);
    pr_ops_free(&ops);
    free(ks.v);
}

static void
test_recommendations(void **state)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = make_run("Tesla V100-SXM2-16GB", "\"7.0\"");
    const cJSON *r;

    (void)state;
    assert_int_equal(tr_roofline(NULL, &o, run, &err), PR_OK);
    recommend(&o, run);
    /* DataLoader 100 of 1000 us > 5% (plugin rule) */
    r = find_rec(run, "dataloader");
    assert_non_null(r);
    assert_non_null(strstr(str(r, "text"), "10.0%"));
    /* the same mm is memory bound under its roof (fp16 tensor), at 3% of
     * 900 GB/s */
    r = find_rec(run, "memory_bound_ops");
    assert_non_null(r);
    assert_non_null(strstr(str(r, "text"), "(3% of 900 GB/s)"));
    /* fp16 mm with M = 63 */
    r = find_rec(run, "misaligned_dims");
    assert_non_null(r);
    assert_non_null(strstr(str(r, "text"), "pad M from 63 to 64"));
    assert_string_equal(str(r, "severity"), "info");
    /* h884 kernel: 8% of kernel time with 10% occupancy, but a tensor-core
     * GEMM is low-occupancy by design (issue #11): no advice */
    assert_null(find_rec(run, "low_occupancy"));
    /* TC time is not 0, GPU busy 80%: no AMP / utilization rules */
    assert_null(find_rec(run, "enable_amp"));
    assert_null(find_rec(run, "low_gpu_utilization"));
    assert_null(find_rec(run, "launch_bound"));
    /* running the passes again appends nothing twice */
    assert_int_equal(tr_roofline(NULL, &o, run, &err), PR_OK);
    recommend(&o, run);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
                         run, "recommendations")),
                     3);
    cJSON_Delete(run);
}

static void
test_unknown_device(void **state)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = make_run("Mystery Accelerator", "null");
    const cJSON *d, *r;

    (void)state;
    assert_int_equal(tr_roofline(NULL, &o, run, &err), PR_OK);
    d = item(run, "devices", 0);
    assert_string_equal(str(d, "peak_source"), "unknown");
    is_null(d, "peak_gbps");
    is_null(cJSON_GetObjectItemCaseSensitive(d, "peak_tflops"), "fp32");
    r = item(run, "operators_by_shape", 0);
    near(num(r, "achieved_tflops"), 6.5536); /* rates still reported */
    is_null(r, "roofline_pct");
    assert_string_equal(str(r, "bound"), "unknown");
    cJSON_Delete(run);
}

static void
test_cli_override(void **state)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = make_run("Mystery Accelerator", "null");
    const cJSON *d, *r;

    (void)state;
    o.peak_tflops = 10.0;
    o.peak_gbps = 1000.0;
    assert_int_equal(tr_roofline(NULL, &o, run, &err), PR_OK);
    d = item(run, "devices", 0);
    assert_string_equal(str(d, "peak_source"), "cli");
    /* mm fp32: ridge 10e12/1e12 = 10 < AI 26.9: compute bound, 65.536% */
    r = item(run, "operators_by_shape", 0);
    assert_string_equal(str(r, "bound"), "compute");
    near(num(r, "roofline_pct"), 65.536);
    cJSON_Delete(run);
    /* an unreadable --device-spec is an error, not a silent default */
    run = make_run("Mystery Accelerator", "null");
    o.device_spec = "/nonexistent/devices.json";
    assert_int_equal(tr_roofline(NULL, &o, run, &err), PR_E_IO);
    cJSON_Delete(run);
}

/* Points above their roof carry a mark.  V100 (900 GB/s, 6 MiB L2):
 * - add_ of 3 x 1000 fp32 (12,000 bytes a call, in L2), 10 calls in
 *   0.1 us: 1,200 GB/s = 133% of HBM -> cache_resident;
 * - add_ of 3 x 1e8 fp32 (1.2e9 bytes a call, far over L2) in 1000 us:
 *   1,200 GB/s -> model_overcount;
 * - mm within its roof -> no mark;
 * - add_ of 3 x 2^20 fp32 (12.58 MB a call, twice L2) in 11 us: 1,144
 *   GB/s = 127%, but beyond one L2-full (6.29 MB) only 572 GB/s came from
 *   DRAM: the cache explains it -> cache_resident (tb_plugin resnet50's
 *   relu_ of [32, 256, 14, 14] at 126% was model_overcount). */
/* Review 20 finding 9: host copies are no point of the device-memory
 * roofline.  V100 (900 GB/s):
 * - aten::to of the [32, 3, 224, 224] fp32 input whose 11,486 us of
 *   device time are all its aten::copy_'s host-to-device copies of
 *   19,267,584 bytes (tb_resnet50): roofline_mark host_copy, bytes the
 *   copies' own, their 1.68 GB/s, no roofline_pct, bound unknown;
 * - aten::to of [160] bools, 1.18 us on the device (a conversion): a
 *   point; the name's row is that shape's alone, copies and
 *   the calls without device time apart (npu_db1: 38.5 MB over 2.58 us
 *   was 933% of HBM);
 * - aten::div of a CPU tensor (no device time) and of [32, 2048, 7, 7] in
 *   24 us: the name's bytes are the second's (tb_resnet50's div at 297%);
 * - aten::copy_ whose device time is all host copies, its name's row too:
 *   host_copy. */
#define COPY_ROW(name, shapes, types, total, copy_us, copy_b)                  \
    "{\"name\": \"" name "\", \"input_shapes\": \"" shapes "\", "              \
    "\"input_types\": \"" types "\", \"calls\": 1, \"device_self_us\": 0, "    \
    "\"device_total_us\": " #total ", \"host_copy_total_us\": " #copy_us       \
    ", \"host_copy_total_bytes\": " #copy_b ", \"tc_eligible\": false, "       \
    "\"tc_self_pct\": 0, \"tc_total_pct\": 0, \"flops\": null, "               \
    "\"bytes\": null, \"bound\": \"unknown\"}"

static void
test_host_copies(void **state)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = cJSON_Parse(
        "{\"devices\": [{\"id\": 0, \"name\": \"Tesla V100-SXM2-16GB\", "
        "\"compute_capability\": \"7.0\", \"vendor\": \"nvidia\"}], "
        "\"gpu_metrics\": [{\"device\": 0, \"kernel_time_us\": 1000}], "
        "\"operators\": [" COPY_ROW("aten::to", "", "", 11487.18, 11486, 19267584) ", " COPY_ROW(
            "aten::div", "", "", 24, 0,
            0) ", " COPY_ROW("aten::copy_", "", "", 11486, 11486,
                             19267584) "], "
                                       "\"operators_by_shape\": [" COPY_ROW(
                                           "aten::to",
                                           "[[32, 3, 224, 224], [], [], [], "
                                           "[], [], [], []]",
                                           "[float, Scalar, Scalar, None, "
                                           "None, Scalar, Scalar, None]",
                                           11486, 11486,
                                           19267584) ", " COPY_ROW("aten::to",
                                                                   "[[160], "
                                                                   "[], [], "
                                                                   "[], []]",
                                                                   "[bool, "
                                                                   "Scalar, "
                                                                   "Scalar, "
                                                                   "Scalar, "
                                                                   "None]",
                                                                   1.18, 0,
                                                                   0) ","
                                                                      " " COPY_ROW(
                                                                          "aten"
                                                                          "::"
                                                                          "div",
                                                                          "[[3,"
                                                                          " 224"
                                                                          ", "
                                                                          "224]"
                                                                          ", "
                                                                          "[]]",
                                                                          "[flo"
                                                                          "at, "
                                                                          "Scal"
                                                                          "ar]",
                                                                          0, 0,
                                                                          0) ","
                                                                             " " COPY_ROW(
                                                                                 "aten::div",
                                                                                 "[[32, 2048, 7, 7], []]",
                                                                                 "[float, Scalar]",
                                                                                 24,
                                                                                 0,
                                                                                 0) ", " COPY_ROW("aten::copy_",
                                                                                                  "[[32, 3, 224, 224], [32, 3, 224, 224], []]",
                                                                                                  "[float, float, bool]",
                                                                                                  11486,
                                                                                                  11486,
                                                                                                  19267584) "]}");
    const cJSON *to, *bool_to, *div, *cpu_div;

    (void)state;
    assert_non_null(run);
    assert_int_equal(tr_roofline(NULL, &o, run, &err), PR_OK);
    /* the input copy: its bytes, their rate, no roofline point */
    to = item(run, "operators_by_shape", 0);
    assert_string_equal(str(to, "roofline_mark"), "host_copy");
    near(num(to, "bytes"), 19267584.0);
    near(num(to, "achieved_gbps"), 19267584.0 / 11486e-6 / 1e9);
    is_null(to, "roofline_pct");
    assert_string_equal(str(to, "bound"), "unknown");
    /* aten::to by name: the [160] conversion alone */
    bool_to = item(run, "operators_by_shape", 1);
    assert_true(num(bool_to, "bytes") > 0);
    near(num(item(run, "operators", 0), "bytes"), num(bool_to, "bytes"));
    near(num(item(run, "operators", 0), "achieved_gbps"),
         num(bool_to, "bytes") / 1.18e-6 / 1e9);
    is_null(item(run, "operators", 0), "roofline_mark");
    /* aten::div by name: the device's [32, 2048, 7, 7] alone */
    cpu_div = item(run, "operators_by_shape", 2);
    div = item(run, "operators_by_shape", 3);
    assert_true(num(cpu_div, "bytes") > 0); /* not in the name's */
    near(num(item(run, "operators", 1), "bytes"), num(div, "bytes"));
    near(num(item(run, "operators", 1), "roofline_pct"),
         num(div, "roofline_pct"));
    /* a name whose device time is all host copies */
    assert_string_equal(
        str(item(run, "operators_by_shape", 4), "roofline_mark"), "host_copy");
    assert_string_equal(str(item(run, "operators", 2), "roofline_mark"),
                        "host_copy");
    near(num(item(run, "operators", 2), "bytes"), 19267584.0);
    is_null(item(run, "operators", 2), "roofline_pct");
    cJSON_Delete(run);
}

/* A copy_ whose device time is partly host copies (hta_diff_test's
 * [1024, 1705]): two calls of 13,967,360 formula bytes each (read and
 * write), one a host-to-device copy of 6,983,680 bytes in 5,888 us: the
 * point is the other call, 13,967,360 bytes in 260 us; the name's row
 * the same. */
static void
test_partly_copies(void **state)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = cJSON_Parse(
        "{\"devices\": [{\"id\": 0, \"name\": \"Tesla V100-SXM2-16GB\", "
        "\"compute_capability\": \"7.0\", \"vendor\": \"nvidia\"}], "
        "\"gpu_metrics\": [{\"device\": 0, \"kernel_time_us\": 1000}], "
        "\"operators\": [" COPY_ROW(
            "aten::copy_", "", "", 6148, 5888,
            6983680) "], "
                     "\"operators_by_shape\": [" COPY_ROW(
                         "aten::copy_", "[[1024, 1705], [1024, 1705], []]",
                         "[float, float, bool]", 6148, 5888, 6983680) "]}");
    const cJSON *r;
    int i;

    (void)state;
    assert_non_null(run);
    for (i = 0; i < 2; i++)
        cJSON_ReplaceItemInObject(
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
                                   run, i ? "operators" : "operators_by_shape"),
                               0),
            "calls", cJSON_CreateNumber(2));
    assert_int_equal(tr_roofline(NULL, &o, run, &err), PR_OK);
    for (i = 0; i < 2; i++) {
        r = item(run, i ? "operators" : "operators_by_shape", 0);
        near(num(r, "bytes"), 13967360.0);
        near(num(r, "achieved_gbps"), 13967360.0 / 260e-6 / 1e9);
        near(num(r, "roofline_pct"), 100.0 * 13967360.0 / 260e-6 / 1e9 / 900.0);
        is_null(r, "roofline_mark");
    }
    cJSON_Delete(run);
}

static void
test_marks(void **state)
{
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = cJSON_Parse(
        "{\"devices\": [{\"id\": 0, \"name\": \"Tesla V100-SXM2-16GB\", "
        "\"compute_capability\": \"7.0\", \"vendor\": \"nvidia\"}], "
        "\"gpu_metrics\": [{\"device\": 0, \"kernel_time_us\": 1000}], "
        "\"operators\": [], \"operators_by_shape\": [" ROW(
            "aten::add_", "[[1000], [1000], []]", "[float, float, Int]", 10,
            0.1, 0.1,
            "false") ", " ROW("aten::add_", "[[100000000], [100000000], []]",
                              "[float, float, Int]", 1, 1000, 1000,
                              "false") ", " ROW("aten::mm",
                                                "[[64, 512], [512, "
                                                "1000]]",
                                                "[float, float]", 10, 100, 100,
                                                "true") ", " ROW("aten::add_",
                                                                 "[[1048576], "
                                                                 "[1048576], "
                                                                 "[]]",
                                                                 "[float, "
                                                                 "float, Int]",
                                                                 1, 11, 11,
                                                                 "false") "]}");
    const cJSON *rl, *roofs;

    (void)state;
    assert_non_null(run);
    assert_int_equal(tr_roofline(NULL, &o, run, &err), PR_OK);
    near(num(item(run, "operators_by_shape", 0), "achieved_gbps"), 1200.0);
    assert_string_equal(
        str(item(run, "operators_by_shape", 0), "roofline_mark"),
        "cache_resident");
    near(num(item(run, "operators_by_shape", 1), "roofline_pct"),
         100.0 * 1200.0 / 900.0);
    assert_string_equal(
        str(item(run, "operators_by_shape", 1), "roofline_mark"),
        "model_overcount");
    is_null(item(run, "operators_by_shape", 2), "roofline_mark");
    near(num(item(run, "operators_by_shape", 3), "roofline_pct"),
         100.0 * 12582912.0 / 11e-6 / 1e9 / 900.0);
    assert_string_equal(
        str(item(run, "operators_by_shape", 3), "roofline_mark"),
        "cache_resident");
    /* an fp32 run is drawn under the FP32 roof alone: no tensor roofs */
    rl = cJSON_GetObjectItemCaseSensitive(run, "roofline");
    roofs = cJSON_GetObjectItemCaseSensitive(rl, "roofs");
    assert_int_equal(cJSON_GetArraySize(roofs), 1);
    assert_string_equal(str(cJSON_GetArrayItem(roofs, 0), "label"), "FP32");
    near(num(rl, "peak_gbps"), 900.0);
    cJSON_Delete(run);
}

/* A convolution whose kernels are Winograd ones executes fewer FLOPs than
 * the nominal 2*N*K*P*Q*C*R*S; it is reported nominal, and marked where
 * its point is above its roof.  conv [32,64,56,56] * [64,64,3,3], stride
 * 1, pad 1: 2*32*64*56*56*64*9 = 7,398,752,256 FLOPs in 100 us = 74
 * TFLOP/s, 471% of a V100's fp32 roof; in 1000 us 7.4 TFLOP/s, 47%: no
 * mark (review 32g #6). */
static cJSON *
winograd_run(double kernel_us)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = cJSON_CreateObject();

    assert_non_null(t);
    tt_device(t, "Tesla V100-SXM2-16GB", 7, 0, 80, 1);
    tt_host(t, PR_KIND_HOST_OP, "aten::convolution", "1", 0, 1200, 5,
            "[[32, 64, 56, 56], [64, 64, 3, 3], [], [], [], [], [], [], []]",
            "[float, float, , ScalarList, ScalarList, ScalarList, Bool, "
            "ScalarList, Int]");
    pr_trace_op_edit(t, (uint32_t)t->n_ops - 1)->concrete_inputs =
        tt_str(t, "[\"\", \"\", \"\", \"[1, 1]\", \"[1, 1]\", \"[1, 1]\", "
                  "\"False\", \"[0, 0]\", \"1\"]");
    tt_rt(t, "cudaLaunchKernel", 10, 5, 1, 5);
    tt_kernel(t, "volta_scudnn_winograd_128x128_ldg1_ldg4_relu_tile148t_nt_v1",
              50, kernel_us, 1);
    assert_int_equal(
        pr_event_set_external_id(t, &t->events[t->n_events - 1], 5), PR_OK);
    pr_trace_finish(t);
    assert_non_null(run);
    assert_int_equal(pr_analysis_run(t, &o, run, &err), PR_OK);
    pr_trace_free(t);
    return run;
}

static void
test_winograd_mark(void **state)
{
    cJSON *run = winograd_run(100);
    const cJSON *r;

    (void)state;
    r = item(run, "operators_by_shape", 0);
    near(num(r, "flops"), 7398752256.0);
    near(num(r, "roofline_pct"), 100.0 * 73.98752256 / 15.7);
    assert_string_equal(str(r, "roofline_mark"), "winograd");
    assert_string_equal(str(item(run, "operators", 0), "roofline_mark"),
                        "winograd");
    cJSON_Delete(run);
    run = winograd_run(1000);
    r = item(run, "operators_by_shape", 0);
    near(num(r, "roofline_pct"), 100.0 * 7.398752256 / 15.7);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "roofline_mark")) ||
                cJSON_GetObjectItem(r, "roofline_mark") == NULL);
    r = item(run, "operators", 0);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "roofline_mark")) ||
                cJSON_GetObjectItem(r, "roofline_mark") == NULL);
    cJSON_Delete(run);
}

/* An Ascend task on the Cube, as the Ascend readers fill it. */
static void
npu_task(struct pr_trace *t, const char *name, double ts, double dur,
         int64_t corr, int64_t ext, int hf32)
{
    tt_kernel(t, name, ts, dur, corr);
    assert_int_equal(
        pr_event_set_external_id(t, &t->events[t->n_events - 1], ext), PR_OK);
    t->gpu[t->n_gpu - 1].unit = PR_UNIT_MATRIX;
    t->gpu[t->n_gpu - 1].hf32 = (int8_t)hf32;
    t->gpu[t->n_gpu - 1].op_type = tt_str(t, "MatMulV2");
    t->gpu[t->n_gpu - 1].dev_types = tt_str(t, "['FLOAT', 'FLOAT']");
}

/* Ascend: fp32 matmul tasks that say HF32 Eligible NO are the finding,
 * under the operator that launched them, with torch_npu's switch; one
 * with HF32 on is not.  The device is recognised by its NPU_INFO name. */
static void
test_npu_hf32(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    cJSON *run = cJSON_CreateObject();
    const cJSON *tc, *f, *d;

    (void)state;
    assert_non_null(t);
    tt_device(t, "Ascend910B3", -1, -1, -1, -1);
    t->vendor = tt_str(t, "huawei");
    t->device_kind = tt_str(t, "npu");
    tt_host(t, PR_KIND_HOST_OP, "aten::mm", "1", 0, 200, 5,
            "[[64, 512], [512, 1000]]", "[float, float]");
    tt_rt(t, "launch", 10, 5, 1, 5);
    npu_task(t, "aclnnMm_MatMulV2", 50, 100, 1, 5, 0);
    tt_host(t, PR_KIND_HOST_OP, "aten::mm", "1", 300, 200, 6,
            "[[64, 256], [256, 1000]]", "[float, float]");
    tt_rt(t, "launch", 310, 5, 2, 6);
    npu_task(t, "aclnnMm_MatMulV3", 350, 40, 2, 6, 1);
    /* a launch-level op without types: its tasks still tell */
    tt_op(t, "aclnnMm", 600, 100, 7);
    tt_rt(t, "launch", 610, 5, 3, 7);
    npu_task(t, "aclnnMm_MatMulCommon_MatMulV2", 650, 30, 3, 7, 0);
    /* a matmul whose task says nothing of its unit */
    tt_host(t, PR_KIND_HOST_OP, "aten::mm", "1", 800, 100, 8,
            "[[128, 128], [128, 128]]", "[float, float]");
    tt_rt(t, "launch", 810, 5, 4, 8);
    tt_kernel(t, "aclnnMm_MatMulV2_plain", 850, 10, 4);
    assert_int_equal(
        pr_event_set_external_id(t, &t->events[t->n_events - 1], 8), PR_OK);
    pr_trace_finish(t);
    assert_non_null(run);
    assert_int_equal(pr_analysis_run(t, &o, run, &err), PR_OK);
    d = item(run, "devices", 0);
    assert_string_equal(str(d, "peak_source"), "table");
    near(num(cJSON_GetObjectItemCaseSensitive(d, "peak_tflops"), "fp16_tensor"),
         294.9);
    tc = cJSON_GetObjectItemCaseSensitive(run, "tensor_cores");
    assert_int_equal(
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tc, "findings")),
        2);
    f = item(tc, "findings", 0);
    assert_string_equal(str(f, "operator"), "aten::mm");
    near(num(f, "device_us"), 100.0);
    assert_string_equal(str(f, "reason_id"), "hf32_matmul_off");
    assert_string_equal(str(f, "dtype"), "fp32");
    assert_non_null(
        strstr(str(f, "advice"), "torch.npu.matmul.allow_hf32 = True"));
    assert_null(strstr(str(f, "advice"), "cuda"));
    f = item(tc, "findings", 1);
    assert_string_equal(str(f, "operator"), "aclnnMm");
    assert_string_equal(str(f, "reason_id"), "hf32_matmul_off");
    /* a matmul is held to the Cube's roof, never the vector unit's: for
     * fp32 (HF32) no rate is published, so no percentage */
    cJSON_ArrayForEach(
        f, cJSON_GetObjectItemCaseSensitive(run, "operators_by_shape"))
    {
        if (strcmp(str(f, "name"), "aten::mm") == 0)
            is_null(f, "roofline_pct");
    }
    cJSON_Delete(run);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v100),
        cmocka_unit_test(test_recommendations),
        cmocka_unit_test(test_unknown_device),
        cmocka_unit_test(test_cli_override),
        cmocka_unit_test(test_marks),
        cmocka_unit_test(test_host_copies),
        cmocka_unit_test(test_partly_copies),
        cmocka_unit_test(test_winograd_mark),
        cmocka_unit_test(test_npu_hf32),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
