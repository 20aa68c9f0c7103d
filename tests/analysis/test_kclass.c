/* test_kclass.c - the kernel table (data/kernels.json, kclass.h): its
 * patterns, one rule per library family on names read from the
 * libraries' own sources (kclass_cases.txt), a user's rules coming first,
 * and each way a table file can be wrong. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "profreport/kclass.h"

#include "cases.h"

static void
test_glob(void **state)
{
    (void)state;
    assert_true(pr_kclass_glob("*", "", 0));
    assert_true(pr_kclass_glob("abc", "ABC", 0));
    assert_false(pr_kclass_glob("abc", "ABC", 1));
    assert_false(pr_kclass_glob("abc", "abcd", 0)); /* the whole name */
    assert_true(pr_kclass_glob("ab*", "abcd", 0));
    assert_true(pr_kclass_glob("*cd", "abcd", 0));
    assert_false(pr_kclass_glob("*cd", "abcde", 0));
    assert_true(pr_kclass_glob("*b*d*", "abcde", 0));
    assert_true(pr_kclass_glob("a?c", "abc", 0));
    assert_false(pr_kclass_glob("a?c", "ac", 0));
    /* '#' is one or more digits, all of them */
    assert_true(pr_kclass_glob("*_MI#x#x#*", "Cijk_MT64_MI16x16x1_SN", 0));
    assert_true(pr_kclass_glob("*_MI#x#x#*", "Cijk_MI32x32x2x1_SN", 0));
    assert_false(pr_kclass_glob("*_MI#x#x#*", "Cijk_MT64x64x8_SE", 0));
    assert_false(pr_kclass_glob("sm#", "sm", 0));
    assert_true(pr_kclass_glob("sm#_x", "sm100_x", 0));
    /* the last segment is found from the right, the others from the left */
    assert_true(pr_kclass_glob("*a*a", "aaa", 0));
    assert_true(pr_kclass_glob("*ab*abc", "abxabcabc", 0));
    /* '\' takes the next character literally */
    assert_true(pr_kclass_glob("a\\*b", "a*b", 0));
    assert_false(pr_kclass_glob("a\\*b", "axb", 0));
    assert_true(pr_kclass_glob("a\\#", "a#", 0));
}

static const char *
dash(const char *s)
{
    return s ? s : "-";
}

/* Every line of kclass_cases.txt: the rule, family, math and precision. */
static void
test_cases(void **state)
{
    FILE *f = cases_open("tests/analysis/kclass_cases.txt");
    struct pr_error err = {PR_OK, ""};
    struct pr_kclass_table *t = pr_kclass_table_builtin(&err);
    struct tcase c;
    struct pr_kclass k;
    int n = 0, bad = 0;

    (void)state;
    assert_non_null(t);
    memset(&c, 0, sizeof(c));
    while (cases_next(f, &c, 6)) {
        const char *rule, *fam, *math, *prec;

        pr_kclass_lookup(t, c.f[5], &k);
        rule = dash(k.rule);
        fam = dash(pr_kclass_family_name(k.family));
        math = dash(pr_kclass_math_name(k.math));
        prec = dash(pr_kclass_prec_name(k.precision));
        n++;
        if (strcmp(rule, c.f[1]) == 0 && strcmp(fam, c.f[2]) == 0 &&
            strcmp(math, c.f[3]) == 0 && strcmp(prec, c.f[4]) == 0)
            continue;
        print_error("%s (line %d): got %s | %s | %s | %s, want %s | %s | %s "
                    "| %s\n",
                    c.f[0], c.lineno, rule, fam, math, prec, c.f[1], c.f[2],
                    c.f[3], c.f[4]);
        bad++;
    }
    fclose(f);
    pr_kclass_table_free(t);
    assert_true(n >= 90); /* the file was read, not skipped */
    assert_int_equal(bad, 0);
}

/* Every library the table names has a case in kclass_cases.txt. */
static void
test_every_rule_has_a_case(void **state)
{
    FILE *f = cases_open("tests/analysis/kclass_cases.txt");
    struct pr_error err = {PR_OK, ""};
    struct pr_kclass_table *t = pr_kclass_table_builtin(&err);
    char seen[512];
    struct tcase c;
    struct pr_kclass k;
    size_t i, n;
    int missing = 0;

    (void)state;
    assert_non_null(t);
    n = pr_kclass_table_count(t);
    assert_true(n > 50 && n <= sizeof(seen));
    memset(seen, 0, sizeof(seen));
    memset(&c, 0, sizeof(c));
    while (cases_next(f, &c, 6)) {
        pr_kclass_lookup(t, c.f[5], &k);
        if (k.index >= 0)
            seen[k.index] = 1;
    }
    fclose(f);
    /* one case per library: every library's rules are reached */
    for (i = 0; i < n; i++) {
        size_t j;
        int lib_seen = 0;

        assert_true(pr_kclass_rule(t, (int)i, &k));
        for (j = 0; j < n; j++) {
            struct pr_kclass o;

            assert_true(pr_kclass_rule(t, (int)j, &o));
            lib_seen |= seen[j] && strcmp(o.library, k.library) == 0;
        }
        if (!lib_seen) {
            print_error("library %s (rule %s) has no case\n", k.library,
                        k.rule);
            missing++;
        }
        /* and every rule says where its naming comes from */
        assert_true(k.source != NULL && strlen(k.source) > 20);
    }
    pr_kclass_table_free(t);
    assert_int_equal(missing, 0);
}

static void
test_plugin_agreement(void **state)
{
    struct pr_error err = {PR_OK, ""};
    struct pr_kclass_table *t = pr_kclass_table_builtin(&err);
    struct pr_kclass k;

    (void)state;
    assert_non_null(t);
    pr_kclass_lookup(t, "volta_h884gemm_64x64_ldg8_nn", &k);
    assert_true(k.plugin_tc);
    pr_kclass_lookup(t, "nvjet_tst_128x256_64x4_1x2_h_bz_TNN", &k);
    assert_true(pr_kclass_is_matrix(k.math));
    assert_false(k.plugin_tc);
    /* "xmma_gemm" is on the plugin's list, but FFMA decides */
    pr_kclass_lookup(t,
                     "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_"
                     "stage3_warpsize2x2x1_ffma_aligna4",
                     &k);
    assert_false(pr_kclass_is_matrix(k.math));
    assert_false(k.plugin_tc);
    pr_kclass_lookup(t, NULL, &k);
    assert_null(k.rule);
    assert_int_equal(k.index, -1);
    assert_int_equal(k.family, PR_KF_UNKNOWN);
    pr_kclass_table_free(t);
}

/* The precision the matrix instruction ran in ("mma_precisions"): a
 * name that states fp4 weights beside wider activations runs at the wider
 * operand's rate (the roof it is held to); one that states no second
 * operand keeps its precision. */
static void
test_mma_precision(void **state)
{
    static const struct {
        const char *name;
        enum pr_kprec prec, mma;
    } cases[] = {
        /* TRT-LLM gen bmm_<out>_<A><B>: MXFP4 weights x MXFP8 activations
           (tcgen05 f8f6f4: the FP8 rate) */
        {"bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_et128x16_m128x16x32_"
         "cga1x1x1_16dp256b_rM_TN_transOut_schedP2x1x2x3_sm100f",
         PR_KP_MXFP4, PR_KP_MXFP8},
        {"bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_et128x8_m128x8x64_"
         "cga1x1x1_16dp256b_rM_TN_transOut_schedS_bN_sm100f",
         PR_KP_MXFP4, PR_KP_MXFP8},
        /* FP4 x FP4: the FP4 rate */
        {"bmm_E2m1_E2m1E2m1_Fp32_t128x8x512u2_s3_et128x8_m128x8x64_cga1x1x1_"
         "16dp256b_rM_TN_transOut_schedS_sm100a",
         PR_KP_NVFP4, PR_KP_NVFP4},
        /* an E4M3 query against an E2M1 KV cache: the FP8 MMA */
        {"fmhaSm100aKernel_QE4m3KvE2m1OE4m3H128PagedKvDenseP16VarSeqQ8Kv128"
         "PersistentSwapsAbForGen",
         PR_KP_FP4, PR_KP_FP8_E4M3},
        /* triton_kernels: bf16 activations x MXFP4 weights run in bf16,
           fp8 ones at the FP8 rate; bf16 x bf16 stays bf16 */
        {"_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1", PR_KP_MXFP4,
         PR_KP_BF16},
        {"_p_matmul_ogs_NNT_bf16xfp8e4nvxmxfp4_128x256x128x1", PR_KP_MXFP4,
         PR_KP_FP8},
        {"_p_matmul_ogs_NNT_bf16xbf16xbf16_128x256x64x1", PR_KP_BF16,
         PR_KP_BF16},
        /* no precision, none to run in */
        {"kernel_unified_attention_2d", PR_KP_NONE, PR_KP_NONE},
    };
    struct pr_error err = {PR_OK, ""};
    struct pr_kclass_table *t = pr_kclass_table_builtin(&err);
    struct pr_kclass k;
    size_t i;

    (void)state;
    assert_non_null(t);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pr_kclass_lookup(t, cases[i].name, &k);
        if (k.precision != cases[i].prec || k.mma_precision != cases[i].mma)
            fail_msg("%s: precision %s, mma %s", cases[i].name,
                     pr_kclass_prec_name(k.precision),
                     pr_kclass_prec_name(k.mma_precision));
    }
    pr_kclass_table_free(t);
}

static void
test_math_on(void **state)
{
    (void)state;
    assert_int_equal(pr_kclass_math_on(PR_KM_MATRIX, "nvidia"),
                     PR_KM_TENSOR_CORE);
    assert_int_equal(pr_kclass_math_on(PR_KM_MATRIX, "amd"), PR_KM_MFMA);
    assert_int_equal(pr_kclass_math_on(PR_KM_MATRIX, "huawei"), PR_KM_CUBE);
    assert_int_equal(pr_kclass_math_on(PR_KM_SIMT, "amd"), PR_KM_VECTOR);
    assert_int_equal(pr_kclass_math_on(PR_KM_SIMT, NULL), PR_KM_SIMT);
    assert_int_equal(pr_kclass_math_on(PR_KM_TENSOR_CORE, "amd"),
                     PR_KM_TENSOR_CORE);
    assert_string_equal(pr_kclass_family_name(PR_KF_COLLECTIVE), "collective");
    assert_null(pr_kclass_family_name(PR_KF_UNKNOWN));
    assert_int_equal(pr_kclass_family_of("attention"), PR_KF_ATTENTION);
    assert_int_equal(pr_kclass_family_of("nope"), PR_KF_UNKNOWN);
    assert_string_equal(pr_kclass_prec_name(PR_KP_MXFP4), "mxfp4");
}

static char *
write_tmp(const char *text)
{
    static char path[64];
    FILE *f;

    snprintf(path, sizeof(path), "/tmp/pr_kclass_test_%ld.json",
             (long)getpid());
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* A user's rule comes before the shipped ones, even for a name they know. */
static void
test_user_rules_first(void **state)
{
    struct pr_error err = {PR_OK, ""};
    char *path = write_tmp(
        "{\"rules\": [{\"id\": \"site.mygemm\", \"library\": \"ours\", "
        "\"family\": \"gemm\", \"math\": \"tensor_core\", \"precision\": "
        "\"bf16\", \"any\": [\"my_gemm_*\", \"volta_sgemm*\"], \"source\": "
        "\"our kernels/gemm.cu, named my_gemm_<tile>\"}]}");
    struct pr_kclass_table *t = pr_kclass_table_open(path, &err);
    struct pr_kclass k;

    (void)state;
    assert_non_null(t);
    pr_kclass_lookup(t, "my_gemm_128x128", &k);
    assert_string_equal(k.rule, "site.mygemm");
    assert_int_equal(k.precision, PR_KP_BF16);
    pr_kclass_lookup(t, "volta_sgemm_128x64_nn", &k);
    assert_string_equal(k.rule, "site.mygemm");
    pr_kclass_lookup(t, "nvjet_tst_128x128", &k); /* the shipped rules */
    assert_string_equal(k.rule, "nvjet");
    pr_kclass_table_free(t);
    remove(path);
}

static void
expect_error(const char *json, enum pr_status code, const char *msg)
{
    struct pr_error err = {PR_OK, ""};
    struct pr_kclass_table *t = pr_kclass_table_parse(json, strlen(json), &err);

    assert_null(t);
    assert_int_equal(err.code, code);
    if (strstr(err.msg, msg) == NULL)
        fail_msg("message \"%s\" lacks \"%s\"", err.msg, msg);
}

/* "no_matrix_math": FlashAttention's preprocess, dQ/dKV convert and
 * split-KV combine kernels (names as their sources declare them:
 * hopper/flash_bwd_preprocess_kernel.h, flash_bwd_postprocess_kernel.h,
 * flash_fwd_combine_kernel.h; csrc/flash_attn/src/flash_bwd_launch_template.h)
 * do no matrix math, though of the attention family on CUDA cores; the
 * attention kernels beside them, and mem-efficient attention's sm50 build
 * (matrix math on CUDA cores), do. */
static void
test_no_matrix_math(void **state)
{
    static const struct {
        const char *name;
        int no_mma;
    } cases[] = {
        {"void cutlass::device_kernel<flash::enable_sm90_or_later<flash::"
         "FlashAttnBwdPreprocess<cute::tuple<cute::C<128>, cute::C<128> >, "
         "cutlass::bfloat16_t, float, cutlass::arch::Sm90, true, false> > >"
         "(flash::FlashAttnBwdPreprocess<>::Params)",
         1},
        {"void cutlass::device_kernel<flash::FlashAttnBwdPostprocessConvertdQ<"
         "cute::tuple<cute::C<64>, cute::C<128> >, cutlass::bfloat16_t, float, "
         "cutlass::arch::Sm90, 256, cute::SM90_64x128x16_F32BF16BF16_SS> >"
         "(flash::FlashAttnBwdPostprocessConvertdQ<>::Params)",
         1},
        {"flash::FlashAttnFwdCombine", 1},
        {"void flash_bwd_dot_do_o_kernel<true, Flash_bwd_kernel_traits<128, "
         "64, "
         "128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t> "
         ">(Flash_bwd_params)",
         1},
        {"void flash_bwd_convert_dq_kernel<Flash_bwd_kernel_traits<128, 64, "
         "128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t> "
         ">(Flash_bwd_params)",
         1},
        {"void cutlass::device_kernel<flash::enable_sm90_or_later<flash::"
         "FlashAttnBwdSm90<flash::CollectiveMainloopBwdSm90<2, cutlass::"
         "bfloat16_t, float, cutlass::arch::Sm90> > > >(flash::"
         "FlashAttnBwdSm90<>::Params)",
         0},
        {"fmha_cutlassF_f32_aligned_64x64_rf_sm50(PyTorchMemEffAttention::"
         "AttentionKernel<float, cutlass::arch::Sm50, true, 64, 64, 64, true, "
         "true>::Params)",
         0},
    };
    struct pr_error err = {PR_OK, ""};
    struct pr_kclass_table *t = pr_kclass_table_builtin(&err);
    struct pr_kclass k;
    size_t i;

    (void)state;
    assert_non_null(t);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pr_kclass_lookup(t, cases[i].name, &k);
        if (k.rule == NULL || k.no_mma != cases[i].no_mma)
            print_error("case %zu: rule %s, no_mma %d\n", i, dash(k.rule),
                        k.no_mma);
        assert_non_null(k.rule);
        assert_int_equal(k.family, PR_KF_ATTENTION);
        assert_int_equal(k.no_mma, cases[i].no_mma);
    }
    pr_kclass_table_free(t);
}

#define RULE_HEAD "{\"rules\": [{\"id\": \"x\", \"library\": \"l\", "
#define RULE_SRC "\"source\": \"somewhere/file.cu\""

static void
test_bad_tables(void **state)
{
    struct pr_error err = {PR_OK, ""};

    (void)state;
    expect_error("[1, 2]", PR_E_FORMAT, "not a JSON object");
    expect_error("{\"devices\": []}", PR_E_FORMAT, "no \"rules\" list");
    expect_error("{\"rules\": [3]}", PR_E_FORMAT, "rule 1");
    expect_error(RULE_HEAD "\"family\": \"gemm\", \"any\": [\"a*\"]}]}",
                 PR_E_FORMAT, "\"source\"");
    expect_error(RULE_HEAD
                 "\"family\": \"matmul\", \"any\": [\"a*\"], " RULE_SRC "}]}",
                 PR_E_FORMAT, "\"family\" is \"matmul\"");
    expect_error(RULE_HEAD "\"family\": \"gemm\", \"math\": \"gpu\", \"any\": "
                           "[\"a*\"], " RULE_SRC "}]}",
                 PR_E_FORMAT, "\"math\"");
    expect_error(RULE_HEAD "\"family\": \"gemm\", \"precision\": \"fp7\", "
                           "\"any\": [\"a*\"], " RULE_SRC "}]}",
                 PR_E_FORMAT, "\"precision\"");
    expect_error(RULE_HEAD "\"family\": \"gemm\", \"any\": [], " RULE_SRC "}]}",
                 PR_E_FORMAT, "\"any\"");
    expect_error(RULE_HEAD "\"family\": \"gemm\", \"any\": [\"\"], " RULE_SRC
                           "}]}",
                 PR_E_FORMAT, "\"any\"");
    expect_error(RULE_HEAD "\"family\": \"gemm\", \"any\": [\"a\"], " RULE_SRC
                           "}, {\"id\": \"x\", \"library\": \"l\", "
                           "\"family\": \"gemm\", \"any\": [\"b\"], " RULE_SRC
                           "}]}",
                 PR_E_FORMAT, "share the id \"x\"");
    expect_error(RULE_HEAD "\"family\": \"attention\", \"no_matrix_math\": "
                           "\"yes\", \"any\": [\"a*\"], " RULE_SRC "}]}",
                 PR_E_FORMAT, "\"no_matrix_math\"");
    expect_error(RULE_HEAD "\"family\": \"collective\", \"host_polls\": "
                           "1, \"any\": [\"a*\"], " RULE_SRC "}]}",
                 PR_E_FORMAT, "\"host_polls\"");
    assert_null(pr_kclass_table_load("/nonexistent/kernels.json", &err));
    assert_int_equal(err.code, PR_E_IO);
    assert_non_null(strstr(err.msg, "/nonexistent/kernels.json"));
}

/* "host_polls": DeepEP's notify_dispatch, intranode and internode (its
 * host code spins on moe_recv_counter until the kernel writes it:
 * csrc/legacy/buffer.hpp), under DeepEP's namespace or a renamed one; not
 * its dispatch, combine, cached_notify or cached_notify_dispatch (cached
 * mode: the host knows the counts) kernels, which the host does not wait
 * for. */
static void
test_host_polls(void **state)
{
    static const struct {
        const char *name;
        int polls;
    } cases[] = {
        {"void deep_ep::intranode::notify_dispatch<8>(int const*, int*, int "
         "const*, int*, int, int, int, bool const*, int*, int*, int, int, "
         "void**, int**, int)",
         1},
        {"void dpsk::ep::internode::notify_dispatch<false, 8>(int const*, "
         "long*, int)",
         1},
        {"void deep_ep::internode::dispatch<false, 8, false, 8>(int4*)", 0},
        {"void deep_ep::internode::cached_notify<false>(int, int)", 0},
        {"void deep_ep::intranode::cached_notify_dispatch<8>(int const*, int, "
         "void**, int**, int)",
         0},
        {"void deep_ep::intranode::combine<__nv_bfloat16, 8, 768>(int4*)", 0},
    };
    struct pr_error err = {PR_OK, ""};
    struct pr_kclass_table *t = pr_kclass_table_builtin(&err);
    struct pr_kclass k;
    size_t i;

    (void)state;
    assert_non_null(t);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pr_kclass_lookup(t, cases[i].name, &k);
        if (k.rule == NULL || k.host_polls != cases[i].polls)
            print_error("case %zu: rule %s, host_polls %d\n", i, dash(k.rule),
                        k.host_polls);
        assert_non_null(k.rule);
        assert_int_equal(k.family, PR_KF_COLLECTIVE);
        assert_int_equal(k.host_polls, cases[i].polls);
    }
    pr_kclass_table_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glob),
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_every_rule_has_a_case),
        cmocka_unit_test(test_plugin_agreement),
        cmocka_unit_test(test_mma_precision),
        cmocka_unit_test(test_math_on),
        cmocka_unit_test(test_user_rules_first),
        cmocka_unit_test(test_no_matrix_math),
        cmocka_unit_test(test_host_polls),
        cmocka_unit_test(test_bad_tables),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
