/* test_tensorcore.c - op eligibility (the plugin's list verbatim, our
 * additions as heuristic), and each reason and fix for an eligible op that
 * ran without tensor cores.  Kernel names are test_kclass.c's. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/tensorcore.h"

#include "cases.h"

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

/* torch's convolution operators by name alone (native_functions.yaml and
 * derivatives.yaml's names), for traces without shapes (review 13 #1). */
static void
test_conv_by_name(void **state)
{
    static const char *const conv[] = {
        "aten::conv2d",
        "aten::convolution",
        "aten::_convolution",
        "aten::cudnn_convolution",
        "aten::cudnn_convolution_relu",
        "aten::convolution_backward",
        "aten::cudnn_convolution_backward_weight",
        "aten::mkldnn_convolution",
        "aten::_conv_depthwise2d",
        "aten::slow_conv3d",
        "aten::conv_transpose2d",
        "ConvolutionBackward0",
        "CudnnConvolutionBackward",
        "SlowConv2DBackward0",
        "autograd::engine::evaluate_function: ConvolutionBackward0",
    };
    static const char *const other[] = {
        "aten::mm",
        "aten::addmm",
        "AddmmBackward0",
        "aten::copy_",
        "aten::_convert_indices_from_coo_to_csr",
        "aten::_convert_weight_to_int4pack",
        "aten::cudnn_batch_norm",
        "ProfilerStep#1",
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(conv) / sizeof(conv[0]); i++)
        if (!pr_tensorcore_op_is_conv(conv[i]))
            fail_msg("%s is a convolution", conv[i]);
    for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
        if (pr_tensorcore_op_is_conv(other[i]))
            fail_msg("%s is no convolution", other[i]);
    assert_false(pr_tensorcore_op_is_conv(NULL));
}

static void
parse_gpu(const char *s, struct pr_tc_context *ctx)
{
    int a, b;

    memset(ctx, 0, sizeof(*ctx));
    ctx->cc_major = ctx->cc_minor = -1;
    if (sscanf(s, "sm%1d%1d", &a, &b) == 2) {
        ctx->cc_major = a;
        ctx->cc_minor = b;
    } else if (strcmp(s, "gfx90a") == 0 || strcmp(s, "gfx942") == 0) {
        ctx->amd = 1;
        ctx->cc_major = 9;
        ctx->cc_minor = s[4] == '4' ? 4 : 0;
    } else if (strcmp(s, "none") != 0) {
        fail_msg("gpu \"%s\"", s);
    }
}

static enum pr_dtype
dtype_named(const char *s)
{
    static const struct {
        const char *name;
        enum pr_dtype dt;
    } map[] = {{"fp32", PR_DT_FP32},   {"fp16", PR_DT_FP16},
               {"bf16", PR_DT_BF16},   {"fp8", PR_DT_FP8},
               {"int8", PR_DT_INT8},   {"fp64", PR_DT_FP64},
               {"int64", PR_DT_INT64}, {"unknown", PR_DT_UNKNOWN}};
    size_t i;

    for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        if (strcmp(s, map[i].name) == 0)
            return map[i].dt;
    }
    fail_msg("dtype \"%s\"", s);
    return PR_DT_UNKNOWN;
}

/* "gemm fp32 M=64 N=1000 K=512", "conv fp16 C=3 K=64 G=1", ... */
static void
parse_op(char *s, struct pr_op_cost *c)
{
    char *tok, *save = NULL;
    int conv;

    memset(c, 0, sizeof(*c));
    tok = strtok_r(s, " ", &save);
    conv = strncmp(tok, "conv", 4) == 0;
    c->cls = strcmp(tok, "gemm") == 0        ? PR_OPC_GEMM
             : strcmp(tok, "conv") == 0      ? PR_OPC_CONV
             : strcmp(tok, "conv_bwd") == 0  ? PR_OPC_CONV_BWD
             : strcmp(tok, "attention") == 0 ? PR_OPC_ATTENTION
                                             : PR_OPC_OTHER;
    c->dtype = dtype_named(strtok_r(NULL, " ", &save));
    while ((tok = strtok_r(NULL, " ", &save)) != NULL) {
        long long v = strtoll(tok + 2, NULL, 10);

        if (tok[0] == 'M')
            c->m = v;
        else if (tok[0] == 'N')
            c->n = v;
        else if (tok[0] == 'K' && conv)
            c->conv_k = v;
        else if (tok[0] == 'K')
            c->k = v;
        else if (tok[0] == 'C')
            c->conv_c = v;
        else if (tok[0] == 'G')
            c->groups = v;
    }
}

/* Every line of tc_reasons.txt: reason id, and words of text and advice. */
static void
test_reason_table(void **state)
{
    FILE *f = cases_open("tests/analysis/tc_reasons.txt");
    struct tcase c;
    struct pr_tc_context ctx;
    struct pr_op_cost cost;
    struct pr_tc_diag d;
    int n = 0, bad = 0;

    (void)state;
    memset(&c, 0, sizeof(c));
    while (cases_next(f, &c, 7)) {
        const char *id;

        parse_gpu(c.f[1], &ctx);
        ctx.tf32_matmul = strstr(c.f[2], "matmul") || !strcmp(c.f[2], "both");
        ctx.tf32_conv = strstr(c.f[2], "conv") || !strcmp(c.f[2], "both");
        parse_op(c.f[3], &cost);
        pr_tensorcore_diagnose(&cost, &ctx, &d);
        id = pr_tensorcore_reason_id(d.reason);
        n++;
        if (!strcmp(id, c.f[4]) && strstr(d.text, c.f[5]) &&
            strstr(d.advice, c.f[6]))
            continue;
        print_error("%s (line %d): got %s: \"%s\" / \"%s\"\n", c.f[0], c.lineno,
                    id, d.text, d.advice);
        bad++;
    }
    fclose(f);
    assert_true(n >= 30);
    assert_int_equal(bad, 0);
}

/* An fp32 GEMM whose kernel the kernel table puts on CUDA cores names
 * that kernel as its evidence; a format without input types gives no
 * "record_shapes" advice. */
static void
test_kernel_evidence(void **state)
{
    static const char ffma[] =
        "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_"
        "warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas_"
        "and_a_name_long_enough_to_be_cut_somewhere_before_its_end_0123456789"
        "0123456789012345678901234567890123456789";
    struct pr_tc_context ctx;
    struct pr_op_cost c;
    struct pr_tc_diag d;

    (void)state;
    memset(&ctx, 0, sizeof(ctx));
    ctx.cc_major = 8;
    ctx.cc_minor = 0;
    ctx.fp32_kernel = ffma;
    memset(&c, 0, sizeof(c));
    c.cls = PR_OPC_GEMM;
    c.dtype = PR_DT_FP32;
    c.m = c.n = c.k = 1024;
    pr_tensorcore_diagnose(&c, &ctx, &d);
    assert_string_equal(pr_tensorcore_reason_id(d.reason), "tf32_matmul_off");
    assert_non_null(strstr(d.text, "; its kernel sm80_xmma_gemm_f32f32"));
    /* the shortener's form, cut with its ellipsis, never a byte count */
    assert_non_null(strstr(d.text, "\xe2\x80\xa6"));
    assert_non_null(strstr(d.text, " runs on CUDA cores"));
    assert_null(strstr(d.text, "..."));
    assert_true(strlen(d.text) < sizeof(d.text));
    /* no types, and kernels that state none */
    ctx.fp32_kernel = NULL;
    ctx.no_types = 1;
    c.dtype = PR_DT_UNKNOWN;
    pr_tensorcore_diagnose(&c, &ctx, &d);
    assert_string_equal(pr_tensorcore_reason_id(d.reason), "no_dtype");
    assert_null(strstr(d.advice, "record_shapes"));
    ctx.no_types = 0;
    pr_tensorcore_diagnose(&c, &ctx, &d);
    assert_non_null(strstr(d.advice, "record_shapes=True"));
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

/* Ascend's HF32: fp32 matmuls without it (recorded NO, or not recorded:
 * off by default), fp32 convolutions recorded NO (on by default); never
 * for HF32 on, other dtypes or other ops. */
static void
test_hf32(void **state)
{
    struct pr_op_cost c;
    struct pr_tc_diag d;

    (void)state;
    memset(&c, 0, sizeof(c));
    c.dtype = PR_DT_FP32;
    c.cls = PR_OPC_GEMM;
    assert_true(pr_tensorcore_diagnose_hf32(&c, 0, &d));
    assert_int_equal(d.reason, PR_TCR_HF32_MATMUL);
    assert_string_equal(pr_tensorcore_reason_id(d.reason), "hf32_matmul_off");
    assert_non_null(strstr(d.advice, "torch.npu.matmul.allow_hf32 = True"));
    assert_non_null(strstr(d.text, "HF32 Eligible: NO"));
    assert_true(pr_tensorcore_diagnose_hf32(&c, -1, &d));
    assert_non_null(strstr(d.text, "probably ran without HF32"));
    assert_false(pr_tensorcore_diagnose_hf32(&c, 1, &d));
    c.cls = PR_OPC_CONV_BWD;
    assert_true(pr_tensorcore_diagnose_hf32(&c, 0, &d));
    assert_string_equal(pr_tensorcore_reason_id(d.reason), "hf32_conv_off");
    assert_non_null(strstr(d.advice, "torch.npu.conv.allow_hf32 = True"));
    assert_false(pr_tensorcore_diagnose_hf32(&c, -1, &d));
    c.dtype = PR_DT_BF16;
    assert_false(pr_tensorcore_diagnose_hf32(&c, 0, &d));
    c.dtype = PR_DT_FP32;
    c.cls = PR_OPC_OTHER;
    assert_false(pr_tensorcore_diagnose_hf32(&c, 0, &d));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eligible),
        cmocka_unit_test(test_conv_by_name),
        cmocka_unit_test(test_reason_table),
        cmocka_unit_test(test_conv_channels),
        cmocka_unit_test(test_kernel_evidence),
        cmocka_unit_test(test_hf32),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
