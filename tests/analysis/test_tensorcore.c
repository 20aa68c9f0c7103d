/* test_tensorcore.c - kernel-name detection (the plugin's list verbatim,
 * our newer patterns as heuristic), op eligibility, and each reason and
 * fix for an eligible op that ran without tensor cores. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/tensorcore.h"

#include "cases.h"

/* Every line of tc_kernels.txt: the verdict and the rule that decided. */
static void
test_kernel_table(void **state)
{
    FILE *f = cases_open("tests/analysis/tc_kernels.txt");
    struct tcase c;
    struct pr_tc_kernel k;
    int n = 0, bad = 0;

    (void)state;
    memset(&c, 0, sizeof(c));
    while (cases_next(f, &c, 4)) {
        const char *want_rule = strcmp(c.f[2], "-") == 0 ? NULL : c.f[2];
        int want_tc = strcmp(c.f[1], "tc") == 0;

        if (!want_tc && strcmp(c.f[1], "no") != 0)
            fail_msg("line %d: verdict is \"tc\" or \"no\"", c.lineno);
        pr_tensorcore_classify(c.f[3], &k);
        n++;
        if (k.tc == want_tc &&
            (want_rule ? k.rule && strcmp(k.rule, want_rule) == 0 : !k.rule))
            continue;
        print_error("%s (line %d): got %s by %s, want %s by %s\n", c.f[0],
                    c.lineno, k.tc ? "tc" : "no", k.rule ? k.rule : "-", c.f[1],
                    c.f[2]);
        bad++;
    }
    fclose(f);
    assert_true(n >= 50); /* the table was read, not skipped */
    assert_int_equal(bad, 0);
}

static void
test_kernels(void **state)
{
    struct pr_tc_kernel k;

    (void)state;
    /* the plugin's list answers "plugin", the families "heuristic" */
    assert_int_equal(pr_tensorcore_kernel("volta_h884gemm_64x64_ldg8_nn"),
                     PR_TC_PLUGIN);
    assert_int_equal(pr_tensorcore_kernel("nvjet_tst_128x256_64x4_1x2_h_bz"),
                     PR_TC_HEURISTIC);
    /* the CUDA-core flavour of xmma is not rescued by the plugin's list */
    assert_int_equal(pr_tensorcore_kernel("sm80_xmma_gemm_f32f32_f32f32_f32"),
                     PR_TC_NONE);
    assert_int_equal(pr_tensorcore_kernel(NULL), PR_TC_NONE);
    pr_tensorcore_classify(NULL, &k);
    assert_false(k.tc);
    assert_null(k.rule);
    /* TF32 is read from the name */
    pr_tensorcore_classify("cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4",
                           &k);
    assert_true(k.tf32);
    pr_tensorcore_classify("turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_nn",
                           &k);
    assert_true(k.tc);
    assert_false(k.tf32);
    pr_tensorcore_classify("nvjet_sss_tf32_128x256_TNT", &k);
    assert_true(k.tf32);
    pr_tensorcore_classify("sm80_xmma_gemm_f16f16_f16f32_f32_nt_n", &k);
    assert_false(k.tf32);
}

static void
test_eligible(void **state)
{
    int heur = -1;

    (void)state;
    assert_true(pr_tensorcore_op_eligible("aten::mm", &heur));
    assert_int_equal(heur, 0);
    assert_true(pr_tensorcore_op_eligible("aten::cudnn_convolution", NULL));
    assert_true(pr_tensorcore_op_eligible("CudnnConvolutionBackward", NULL));
    assert_true(pr_tensorcore_op_eligible(
        "aten::_scaled_dot_product_flash_attention", &heur));
    assert_int_equal(heur, 1);
    assert_true(pr_tensorcore_op_eligible("aten::convolution_backward", &heur));
    assert_false(pr_tensorcore_op_eligible("aten::add_", &heur));
    assert_int_equal(heur, 0);
    assert_false(pr_tensorcore_op_eligible("aten::mm ", NULL)); /* exact */
    assert_false(pr_tensorcore_op_eligible(NULL, NULL));
}

static struct pr_op_cost
gemm(enum pr_dtype dt, long long m, long long n, long long k)
{
    struct pr_op_cost c;

    memset(&c, 0, sizeof(c));
    c.cls = PR_OPC_GEMM;
    c.dtype = dt;
    c.m = m;
    c.n = n;
    c.k = k;
    return c;
}

static void
test_reasons(void **state)
{
    struct pr_op_cost c;
    struct pr_tc_diag d;

    (void)state;
    /* fp32 on Ampere: TF32 off */
    c = gemm(PR_DT_FP32, 64, 1000, 512);
    pr_tensorcore_diagnose(&c, 8, 0, &d);
    assert_int_equal(d.reason, PR_TCR_FP32);
    assert_string_equal(d.text, "fp32 inputs and TF32 disabled");
    assert_non_null(strstr(d.advice, "allow_tf32 = True"));
    assert_non_null(strstr(d.advice, "autocast"));
    /* fp32 on Volta: no TF32 at all, so AMP */
    pr_tensorcore_diagnose(&c, 7, 0, &d);
    assert_int_equal(d.reason, PR_TCR_FP32);
    assert_non_null(strstr(d.text, "no TF32 before"));
    assert_non_null(strstr(d.advice, "float16"));
    /* Pascal */
    pr_tensorcore_diagnose(&c, 6, 1, &d);
    assert_int_equal(d.reason, PR_TCR_OLD_GPU);
    assert_string_equal(d.text, "compute capability 6.1 has no tensor cores");
    /* fp16 with K = 1001 */
    c = gemm(PR_DT_FP16, 64, 1000, 1001);
    pr_tensorcore_diagnose(&c, 7, 0, &d);
    assert_int_equal(d.reason, PR_TCR_ALIGN);
    assert_string_equal(d.text, "K=1001 not a multiple of 8");
    assert_string_equal(d.advice, "pad K from 1001 to 1008");
    /* M=63 and K=1001 */
    c = gemm(PR_DT_BF16, 63, 1000, 1001);
    pr_tensorcore_diagnose(&c, 8, 0, &d);
    assert_string_equal(d.text, "M=63, K=1001 not multiples of 8");
    assert_string_equal(d.advice,
                        "pad M from 63 to 64; pad K from 1001 to 1008");
    /* int8 needs 16 */
    c = gemm(PR_DT_INT8, 64, 24, 32);
    pr_tensorcore_diagnose(&c, 8, 0, &d);
    assert_string_equal(d.text, "N=24 not a multiple of 16");
    /* bf16 on Volta, fp8 on Ampere */
    c = gemm(PR_DT_BF16, 64, 64, 64);
    pr_tensorcore_diagnose(&c, 7, 0, &d);
    assert_int_equal(d.reason, PR_TCR_DTYPE_GPU);
    c = gemm(PR_DT_FP8, 64, 64, 64);
    pr_tensorcore_diagnose(&c, 8, 0, &d);
    assert_int_equal(d.reason, PR_TCR_DTYPE_GPU);
    pr_tensorcore_diagnose(&c, 9, 0, &d);
    assert_int_equal(d.reason, PR_TCR_UNKNOWN);
    /* fp64, unknown dtype */
    c = gemm(PR_DT_FP64, 64, 64, 64);
    pr_tensorcore_diagnose(&c, 8, 0, &d);
    assert_int_equal(d.reason, PR_TCR_FP64);
    c = gemm(PR_DT_UNKNOWN, 64, 64, 64);
    pr_tensorcore_diagnose(&c, 8, 0, &d);
    assert_int_equal(d.reason, PR_TCR_NO_DTYPE);
    assert_non_null(strstr(d.advice, "record_shapes"));
}

static void
test_conv_channels(void **state)
{
    struct pr_op_cost c;
    struct pr_tc_diag d;

    (void)state;
    memset(&c, 0, sizeof(c));
    c.cls = PR_OPC_CONV;
    c.dtype = PR_DT_FP16;
    c.conv_n = 32;
    c.conv_c = 3;
    c.conv_k = 64;
    c.groups = 1;
    assert_true(pr_tensorcore_misaligned(&c, &d));
    assert_string_equal(d.text, "C=3 not a multiple of 8");
    assert_non_null(strstr(d.advice, "pad C from 3 to 8"));
    assert_non_null(strstr(d.advice, "channels_last"));
    c.conv_c = 64;
    assert_false(pr_tensorcore_misaligned(&c, &d));
    c.dtype = PR_DT_FP32; /* only 16/8-bit types are checked */
    c.conv_c = 3;
    assert_false(pr_tensorcore_misaligned(&c, &d));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_table),  cmocka_unit_test(test_kernels),
        cmocka_unit_test(test_eligible),      cmocka_unit_test(test_reasons),
        cmocka_unit_test(test_conv_channels),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
