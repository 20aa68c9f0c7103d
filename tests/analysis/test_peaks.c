/* test_peaks.c - the device peak table: whole-word name matching (most
 * specific first), the capability fallback, overrides, --device-spec
 * files, and data/devices.json agreeing with the compiled-in copy. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/peaks.h"

static void
near(double got, double want)
{
    if (fabs(got - want) > 1e-9 * (fabs(want) > 1 ? fabs(want) : 1)) {
        print_error("got %.17g, want %.17g\n", got, want);
        fail();
    }
}

static struct pr_peak_table *
builtin(void)
{
    struct pr_error err = {PR_OK, ""};
    struct pr_peak_table *t =
        pr_peaks_table_parse((const char *)pr_peaks_builtin_json,
                             pr_peaks_builtin_json_len, 0, &err);

    assert_non_null(t);
    return t;
}

static void
expect_entry(const struct pr_peak_table *t, const char *name, int major,
             int minor, const char *entry)
{
    struct pr_peaks p;

    pr_peaks_lookup(t, NULL, name, major, minor, &p);
    if (!entry) {
        assert_int_equal(p.origin, PR_PEAK_UNKNOWN);
        assert_true(isnan(p.gbps));
        return;
    }
    if (strcmp(p.entry, entry) != 0) {
        print_error("%s -> \"%s\", want \"%s\"\n", name ? name : "(null)",
                    p.entry, entry);
        fail();
    }
}

static void
test_match_by_name(void **state)
{
    struct pr_peak_table *t = builtin();

    (void)state;
    expect_entry(t, "Tesla V100-SXM2-16GB", 7, 0, "NVIDIA V100 SXM2");
    expect_entry(t, "Tesla V100-SXM2-32GB", 7, 0, "NVIDIA V100 SXM2");
    expect_entry(t, "Tesla V100-DGXS-32GB", 7, 0, "NVIDIA V100 SXM2");
    expect_entry(t, "Tesla V100-PCIE-16GB", 7, 0, "NVIDIA V100 PCIe");
    expect_entry(t, "Tesla V100S-PCIE-32GB", 7, 0, "NVIDIA V100S PCIe");
    expect_entry(t, "NVIDIA A100-SXM4-40GB", 8, 0, "NVIDIA A100 SXM4 40GB");
    expect_entry(t, "NVIDIA A100-SXM4-80GB", 8, 0, "NVIDIA A100 SXM4 80GB");
    expect_entry(t, "NVIDIA A100-PCIE-40GB", 8, 0, "NVIDIA A100 PCIe 40GB");
    expect_entry(t, "NVIDIA A100 80GB PCIe", 8, 0, "NVIDIA A100 PCIe 80GB");
    expect_entry(t, "NVIDIA H100 80GB HBM3", 9, 0, "NVIDIA H100 SXM5");
    expect_entry(t, "NVIDIA H100 PCIe", 9, 0, "NVIDIA H100 PCIe");
    expect_entry(t, "NVIDIA H100 NVL", 9, 0, "NVIDIA H100 NVL");
    expect_entry(t, "NVIDIA H200", 9, 0, "NVIDIA H200 SXM");
    expect_entry(t, "NVIDIA H200 NVL", 9, 0, "NVIDIA H200 NVL");
    expect_entry(t, "NVIDIA L4", 8, 9, "NVIDIA L4");
    expect_entry(t, "NVIDIA L40S", 8, 9, "NVIDIA L40S");
    expect_entry(t, "NVIDIA A10", 8, 6, "NVIDIA A10");
    expect_entry(t, "Tesla T4", 7, 5, "NVIDIA T4");
    expect_entry(t, "NVIDIA GeForce RTX 3090", 8, 6, "NVIDIA GeForce RTX 3090");
    expect_entry(t, "NVIDIA GeForce RTX 4090", 8, 9, "NVIDIA GeForce RTX 4090");
    expect_entry(t, "AMD Instinct MI250X", 9, 0,
                 "AMD Instinct MI250X (one GCD)");
    expect_entry(t, "AMD Instinct MI300X", 9, 4, "AMD Instinct MI300X");
    expect_entry(t, "AMD Instinct MI325X", 9, 4, "AMD Instinct MI325X");
    expect_entry(t, "AMD Instinct MI250", 9, 0, "AMD Instinct MI250 (one GCD)");
    expect_entry(t, "NVIDIA L40", 8, 9, "NVIDIA L40");
    expect_entry(t, "NVIDIA A30", 8, 0, "NVIDIA A30");
    expect_entry(t, "NVIDIA A800-SXM4-80GB", 8, 0, "NVIDIA A800 SXM4 80GB");
    expect_entry(t, "NVIDIA A800 80GB PCIe", 8, 0, "NVIDIA A800 PCIe 80GB");
    expect_entry(t, "NVIDIA H800", 9, 0, "NVIDIA H800 SXM5");
    expect_entry(t, "NVIDIA H20", 9, 0, "NVIDIA H20");
    expect_entry(t, "NVIDIA B200", 10, 0, "NVIDIA B200 (HGX)");
    expect_entry(t, "NVIDIA GB200", 10, 0, "NVIDIA GB200 (one B200 GPU)");
    /* "h20" is not H200, "b200" is not GB200 */
    expect_entry(t, "NVIDIA H200", 9, 0, "NVIDIA H200 SXM");
    /* case-insensitive */
    expect_entry(t, "tesla v100-sxm2-16gb", -1, -1, "NVIDIA V100 SXM2");
    pr_peaks_table_free(t);
}

static void
test_values(void **state)
{
    struct pr_peak_table *t = builtin();
    struct pr_peaks p;

    (void)state;
    pr_peaks_lookup(t, NULL, "Tesla V100-DGXS-32GB", 7, 0, &p);
    near(p.tflops[PR_PEAK_FP32], 15.7);
    near(p.tflops[PR_PEAK_FP16], 125.0);
    assert_true(isnan(p.tflops[PR_PEAK_TF32])); /* Volta has no TF32 */
    near(p.gbps, 900.0);
    assert_int_equal(p.origin, PR_PEAK_TABLE);
    assert_int_equal(p.match, PR_MATCH_EXACT);
    assert_true(strlen(p.source) > 10);
    /* the compute roof follows dtype and tensor-core use */
    near(pr_peaks_compute(&p, PR_DT_FP16, 1), 125.0);
    near(pr_peaks_compute(&p, PR_DT_FP16, 0), 15.7);
    near(pr_peaks_compute(&p, PR_DT_FP64, 1), 7.8);
    pr_peaks_lookup(t, NULL, "NVIDIA H100 80GB HBM3", 9, 0, &p);
    near(pr_peaks_compute(&p, PR_DT_FP32, 1), 494.5); /* TF32 dense */
    near(pr_peaks_compute(&p, PR_DT_BF16, 1), 989.5);
    near(pr_peaks_compute(&p, PR_DT_FP8, 1), 1979.0);
    near(p.gbps, 3350.0);
    pr_peaks_table_free(t);
}

/* AMD parts are guessed by architecture and compute units, never by
 * HIP's version numbers, and fp32 on matrix cores has its own roof. */
static void
test_amd(void **state)
{
    struct pr_peak_table *t = builtin();
    struct pr_peak_query q = {
        "AMD Radeon Graphics", 9, 0, 1, "gfx90a", 104, 0, 0, 0};
    struct pr_peaks p;

    (void)state;
    /* HTA's MI250 trace: a generic name, 104 CUs, Tensile built for 90a */
    pr_peaks_lookup_query(t, NULL, &q, &p);
    assert_string_equal(p.entry, "AMD Instinct MI250 (one GCD)");
    assert_int_equal(p.origin, PR_PEAK_GUESS);
    near(pr_peaks_compute(&p, PR_DT_BF16, 1), 181.05);
    near(pr_peaks_compute(&p, PR_DT_FP32, 1), 45.25); /* fp32 MFMA */
    near(pr_peaks_compute(&p, PR_DT_FP32, 0), 22.65); /* vector */
    near(p.cache_bytes, 8.0 * 1024 * 1024);
    assert_string_equal(p.arch, "gfx90a");
    /* 110 CUs: the MI250X */
    q.compute_units = 110;
    pr_peaks_lookup_query(t, NULL, &q, &p);
    assert_string_equal(p.entry, "AMD Instinct MI250X (one GCD)");
    /* unknown CU count: the architecture's default */
    q.compute_units = 96;
    pr_peaks_lookup_query(t, NULL, &q, &p);
    assert_string_equal(p.entry, "AMD Instinct MI250 (one GCD)");
    /* no architecture: no guess (9.0 is gfx908 and gfx90a alike) */
    q.arch = NULL;
    pr_peaks_lookup_query(t, NULL, &q, &p);
    assert_int_equal(p.origin, PR_PEAK_UNKNOWN);
    /* MI300X: fp32 GEMMs on MFMA, not on the xf32 (TF32) figure */
    pr_peaks_lookup(t, NULL, "AMD Instinct MI300X", 9, 4, &p);
    near(pr_peaks_compute(&p, PR_DT_FP32, 1), 163.4);
    near(p.tflops[PR_PEAK_TF32], 653.7);
    pr_peaks_table_free(t);
}

/* A nameless gfx942 of 304 CUs is an MI300X (192 GiB) or an MI325X
 * (256 GiB): the memory the trace states tells which; without it, the
 * first entry (the MI300X), still a guess.  Figures as vLLM's MI300X
 * traces give them (totalGlobalMem 206141652992, an SR-IOV VF's
 * 205571227648). */
static void
test_amd_by_memory(void **state)
{
    struct pr_peak_table *t = builtin();
    struct pr_peak_query q = {"", -1, -1, 1, "gfx942", 304, 0, 0, 0};
    struct pr_peaks p;

    (void)state;
    q.memory_bytes = 206141652992.0;
    pr_peaks_lookup_query(t, NULL, &q, &p);
    assert_string_equal(p.entry, "AMD Instinct MI300X");
    assert_int_equal(p.origin, PR_PEAK_GUESS);
    near(p.gbps, 5300.0);
    q.memory_bytes = 205571227648.0;
    pr_peaks_lookup_query(t, NULL, &q, &p);
    assert_string_equal(p.entry, "AMD Instinct MI300X");
    q.memory_bytes = 274861129728.0; /* 256 GiB less a reserve */
    pr_peaks_lookup_query(t, NULL, &q, &p);
    assert_string_equal(p.entry, "AMD Instinct MI325X");
    assert_int_equal(p.origin, PR_PEAK_GUESS);
    near(p.gbps, 6000.0);
    /* memory of neither: the first of arch and CUs, as before */
    q.memory_bytes = 0;
    pr_peaks_lookup_query(t, NULL, &q, &p);
    assert_string_equal(p.entry, "AMD Instinct MI300X");
    /* memory does not outvote the CU count: 228 CUs match no entry */
    q.memory_bytes = 274861129728.0;
    q.compute_units = 228;
    pr_peaks_lookup_query(t, NULL, &q, &p);
    assert_int_equal(p.origin, PR_PEAK_UNKNOWN);
    pr_peaks_table_free(t);
}

static void
test_word_boundaries_and_capability(void **state)
{
    struct pr_peak_table *t = builtin();
    struct pr_peaks p;

    (void)state;
    /* "a10" must not match an A100 variant we do not list */
    pr_peaks_lookup(t, NULL, "NVIDIA A100X", 8, 0, &p);
    assert_int_equal(p.match, PR_MATCH_CAPABILITY);
    assert_int_equal(p.origin, PR_PEAK_GUESS);
    assert_string_equal(p.entry, "NVIDIA A100 SXM4 40GB");
    /* unknown name, known capability */
    pr_peaks_lookup(t, NULL, "NVIDIA Mystery GPU", 7, 5, &p);
    assert_string_equal(p.entry, "NVIDIA T4");
    assert_int_equal(p.match, PR_MATCH_CAPABILITY);
    assert_int_equal(p.origin, PR_PEAK_GUESS);
    /* a family name, not an exact one */
    pr_peaks_lookup(t, NULL, "NVIDIA A100-PG509-200", 8, 0, &p);
    assert_int_equal(p.match, PR_MATCH_FAMILY);
    assert_int_equal(p.origin, PR_PEAK_TABLE);
    assert_string_equal(p.entry, "NVIDIA A100 SXM4 40GB");
    /* an AMD part reporting gfx 9.0 never falls back to Hopper */
    expect_entry(t, "AMD Instinct MI100", 9, 0, NULL);
    /* nothing known */
    expect_entry(t, "Some GPU", -1, -1, NULL);
    expect_entry(t, NULL, -1, -1, NULL);
    expect_entry(t, "Some GPU", 6, 1, NULL);
    pr_peaks_table_free(t);
}

static void
test_overrides(void **state)
{
    struct pr_peak_table *t = builtin();
    struct pr_analysis_opts o = {0};
    struct pr_peaks p;
    int k;

    (void)state;
    o.peak_tflops = 100.0;
    pr_peaks_lookup(t, &o, "Tesla T4", 7, 5, &p);
    for (k = 0; k < PR_PEAK_COUNT; k++)
        near(p.tflops[k], 100.0);
    near(p.gbps, 320.0); /* still the table's */
    assert_int_equal(p.origin, PR_PEAK_CLI);
    o.peak_tflops = 0;
    o.peak_gbps = 1234.0;
    pr_peaks_lookup(t, &o, "unknown gpu", -1, -1, &p);
    near(p.gbps, 1234.0);
    assert_true(isnan(p.tflops[PR_PEAK_FP32]));
    assert_int_equal(p.origin, PR_PEAK_CLI);
    pr_peaks_table_free(t);
}

static void
test_device_spec(void **state)
{
    const char *path = "test_peaks_spec.json";
    const char *one = "{\"peak_tflops\": {\"fp32\": 10, \"fp16_tensor\": 80},"
                      " \"peak_gbps\": 500, \"source\": \"lab measurement\"}";
    const char *list = "{\"devices\": [{\"name\": \"My V100\", \"match\": "
                       "[\"v100-dgxs\"], \"peak_tflops\": {\"fp32\": 14}, "
                       "\"peak_gbps\": 800}]}";
    struct pr_analysis_opts o = {0};
    struct pr_error err = {PR_OK, ""};
    struct pr_peak_table *t;
    struct pr_peaks p;
    FILE *f;

    (void)state;
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(one, f);
    fclose(f);
    o.device_spec = path;
    t = pr_peaks_table_open(&o, &err);
    assert_non_null(t);
    pr_peaks_lookup(t, &o, "Tesla V100-DGXS-32GB", 7, 0, &p);
    assert_int_equal(p.match, PR_MATCH_ALL);
    assert_int_equal(p.origin, PR_PEAK_CLI);
    near(p.tflops[PR_PEAK_FP16], 80.0);
    near(p.gbps, 500.0);
    assert_string_equal(p.source, "lab measurement");
    pr_peaks_table_free(t);
    /* a list: user entries win over the table's, others still match */
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(list, f);
    fclose(f);
    t = pr_peaks_table_open(&o, &err);
    assert_non_null(t);
    pr_peaks_lookup(t, &o, "Tesla V100-DGXS-32GB", 7, 0, &p);
    assert_string_equal(p.entry, "My V100");
    near(p.gbps, 800.0);
    pr_peaks_lookup(t, &o, "NVIDIA L4", 8, 9, &p);
    assert_string_equal(p.entry, "NVIDIA L4");
    pr_peaks_table_free(t);
    /* malformed and missing files */
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"devices\": [{\"name\": \"x\", \"peak_tflops\": "
          "{\"fp23\": 1}}]}",
          f);
    fclose(f);
    assert_null(pr_peaks_table_open(&o, &err));
    assert_int_equal(err.code, PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "fp23"));
    remove(path);
    pr_error_clear(&err);
    assert_null(pr_peaks_table_open(&o, &err));
    assert_int_equal(err.code, PR_E_IO);
    pr_error_clear(&err);
    assert_null(pr_peaks_table_parse("{\"peak_gbps\": -1}", 17, 1, &err));
    assert_int_equal(err.code, PR_E_FORMAT);
}

/* Ascend parts by the names torch_npu, msprof and CANN write (NPU_INFO,
 * soc_version): each variant exactly; the bare family name as a guess with
 * the largest variant's figures; no family match across variant digits,
 * and the generic "Ascend NPU" of a trace that names no chip stays
 * unknown. */
static void
test_ascend(void **state)
{
    struct pr_peak_table *t = builtin();
    struct pr_peaks p;

    (void)state;
    pr_peaks_lookup(t, NULL, "Ascend910B3", -1, -1, &p);
    assert_string_equal(p.entry, "Huawei Ascend 910B3");
    assert_int_equal(p.origin, PR_PEAK_TABLE);
    assert_int_equal(p.match, PR_MATCH_EXACT);
    near(p.tflops[PR_PEAK_FP16], 294.9); /* 20 x 1.8 GHz x 8192 */
    near(p.tflops[PR_PEAK_BF16], 294.9);
    near(p.tflops[PR_PEAK_INT8], 589.8);
    near(p.gbps, 1600.0);
    assert_true(strstr(p.source, "1800 MHz") != NULL);
    /* a bf16 matmul on the Cube is held to the Cube's rate, an
     * elementwise op to the vector unit's */
    near(pr_peaks_compute(&p, PR_DT_BF16, 1), 294.9);
    near(pr_peaks_compute(&p, PR_DT_FP32, 0), 2.3);
    pr_peaks_lookup(t, NULL, "ascend910b4-1", -1, -1, &p);
    assert_string_equal(p.entry, "Huawei Ascend 910B4");
    near(p.gbps, 800.0);
    pr_peaks_lookup(t, NULL, "Ascend910B", -1, -1, &p);
    assert_int_equal(p.origin, PR_PEAK_GUESS);
    near(p.tflops[PR_PEAK_FP16], 353.9);
    pr_peaks_lookup(t, NULL, "Ascend910A", -1, -1, &p);
    near(p.tflops[PR_PEAK_FP16], 262.1); /* 32 x 1 GHz x 8192 */
    assert_true(isnan(p.tflops[PR_PEAK_BF16]));
    pr_peaks_lookup(t, NULL, "Ascend310P3", -1, -1, &p);
    near(p.tflops[PR_PEAK_INT8], 140.0);
    near(p.gbps, 204.8);
    expect_entry(t, "Ascend NPU", -1, -1, NULL);
    expect_entry(t, "Ascend910B9", -1, -1, NULL);
    expect_entry(t, "Ascend910_9391", -1, -1, NULL);
    pr_peaks_table_free(t);
}

/* data/devices.json in the source tree is byte-for-byte the compiled-in
 * table, and every required device is present with a source. */
static void
test_json_matches_builtin(void **state)
{
    const char *srcdir = getenv("PR_SRCDIR");
    char path[1024];
    FILE *f;
    char *buf;
    size_t n;

    (void)state;
    if (!srcdir) {
        /* a skip, counted as such by tests/run.sh, never as a pass */
        print_message("# PR_SRCDIR unset, not checked\n");
        skip();
    }
    snprintf(path, sizeof(path), "%s/data/devices.json", srcdir);
    f = fopen(path, "rb");
    assert_non_null(f);
    buf = malloc(pr_peaks_builtin_json_len + 2);
    assert_non_null(buf);
    n = fread(buf, 1, pr_peaks_builtin_json_len + 1, f);
    fclose(f);
    assert_int_equal(n, pr_peaks_builtin_json_len);
    assert_memory_equal(buf, pr_peaks_builtin_json, n);
    free(buf);
    {
        struct pr_error err = {PR_OK, ""};
        struct pr_peak_table *t = pr_peaks_table_load(path, 0, &err);

        assert_non_null(t);
        assert_true(pr_peaks_table_count(t) >= 30);
        pr_peaks_table_free(t);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match_by_name),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_amd),
        cmocka_unit_test(test_amd_by_memory),
        cmocka_unit_test(test_ascend),
        cmocka_unit_test(test_word_boundaries_and_capability),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_device_spec),
        cmocka_unit_test(test_json_matches_builtin),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
