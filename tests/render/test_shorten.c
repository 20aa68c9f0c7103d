/* test_shorten.c - the display forms of operator and kernel names, from
 * the data file tests/render/shorten_cases.txt (one named case a line),
 * plus the hostile inputs: unbalanced brackets, a 70,000-character name,
 * a buffer smaller than the width asks for. */
#include "config.h"

/* clang-format off: cmocka.h needs these three first */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profreport/shorten.h"

static char *
trim(char *s)
{
    char *e;

    while (*s == ' ')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\n'))
        *--e = '\0';
    return s;
}

static void
test_cases_file(void **state)
{
    const char *src = getenv("PR_SRCDIR");
    char path[1024], line[4096], out[PR_SHORTEN_CAP(300)];
    FILE *f;
    int n = 0, bad = 0;
    (void)state;

    snprintf(path, sizeof(path), "%s/tests/render/shorten_cases.txt",
             src ? src : ".");
    f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof(line), f) != NULL) {
        char *a = line, *b, *c;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        b = strstr(a, " | ");
        c = b ? strstr(b + 3, " | ") : NULL;
        assert_non_null(c);
        *b = *c = '\0';
        pr_shorten(trim(a), (size_t)atoi(trim(b + 3)), out, sizeof(out));
        n++;
        if (strcmp(out, trim(c + 3)) != 0) {
            print_error("case %d (%s, %s): got \"%s\", want \"%s\"\n", n,
                        trim(b + 3), trim(a), out, trim(c + 3));
            bad++;
        }
        assert_true(pr_shorten_width(out) <= (size_t)atoi(trim(b + 3)));
    }
    fclose(f);
    assert_true(n >= 10);
    assert_int_equal(bad, 0);
}

static void
test_hostile(void **state)
{
    size_t n = 70000;
    char *big = malloc(n + 32), out[PR_SHORTEN_CAP(40)], small[16];
    (void)state;

    assert_non_null(big);
    memcpy(big, "void k_", 7);
    memset(big + 7, 'x', n);
    memcpy(big + 7 + n, "<float>(int)", 13);
    pr_shorten(big, 40, out, sizeof(out));
    assert_int_equal(pr_shorten_width(out), 40);
    assert_memory_equal(out, "k_xxx", 5);
    assert_non_null(strstr(out, "\xE2\x80\xA6"));
    free(big);
    /* unbalanced brackets fold to the end and stay valid */
    pr_shorten("void f<<<<a, b, c, d, e, f, g(int)", 10, out, sizeof(out));
    assert_true(pr_shorten_width(out) <= 10);
    pr_shorten("x>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>", 10, out,
               sizeof(out));
    assert_true(pr_shorten_width(out) <= 10);
    /* a small buffer gets a shorter cut, never an overflow */
    pr_shorten("sm80_xmma_wgrad_implicit_gemm_indexed_kernel", 40, small,
               sizeof(small));
    assert_true(strlen(small) < sizeof(small));
    /* the middle cut keeps both ends, whole code points */
    pr_shorten_middle("step.mean [w] +19.0% (+19 ms, 100 ms -> 119 ms): "
                      "within noise",
                      30, out, sizeof(out));
    assert_int_equal(pr_shorten_width(out), 30);
    assert_non_null(strstr(out, "within noise"));
    pr_shorten_middle("\xE2\x88\x91\xE2\x88\x91\xE2\x88\x91\xE2\x88\x91"
                      "\xE2\x88\x91\xE2\x88\x91\xE2\x88\x91\xE2\x88\x91"
                      "\xE2\x88\x91\xE2\x88\x91",
                      8, out, sizeof(out));
    assert_int_equal(pr_shorten_width(out), 8);
    assert_int_equal(strlen(out), 24);
}

/* The names of tests/render/kernel_names.txt (real kernels: templated
 * ATen, CUTLASS, cub, cuDNN, NCCL), n of them into names[]. */
static size_t
read_names(char **names, size_t cap)
{
    const char *src = getenv("PR_SRCDIR");
    char path[1024], line[8192];
    size_t n = 0;
    FILE *f;

    snprintf(path, sizeof(path), "%s/tests/render/kernel_names.txt",
             src ? src : ".");
    f = fopen(path, "r");
    assert_non_null(f);
    while (n < cap && fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] != '#' && line[0] != '\0')
            names[n++] = strdup(line);
    }
    fclose(f);
    return n;
}

static size_t
count(const char *s, const char *what)
{
    size_t n = 0;

    for (; (s = strstr(s, what)) != NULL; s++)
        n++;
    return n;
}

/* Two different kernels never read alike at any width, every form fits,
 * equal names read alike, and the plain shortener's forms collide on
 * these names (what the issue saw). */
static void
test_distinct_real_names(void **state)
{
    static const size_t widths[] = {8, 20, 30, 40, 48, 60, 96, 120};
    char *names[128], *forms[128], out[PR_SHORTEN_CAP(40)];
    size_t n, i, j, k, plain_alike = 0;
    (void)state;

    n = read_names(names, 127);
    assert_true(n >= 40);
    names[n] = names[0]; /* a name twice: read alike */
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            char other[PR_SHORTEN_CAP(40)];
            pr_shorten(names[i], 40, out, sizeof(out));
            pr_shorten(names[j], 40, other, sizeof(other));
            plain_alike += strcmp(out, other) == 0;
        }
    assert_true(plain_alike > 20);
    for (k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
        assert_int_equal(pr_shorten_distinct((const char *const *)names, n + 1,
                                             widths[k], forms),
                         0);
        for (i = 0; i <= n; i++) {
            if (pr_shorten_width(forms[i]) > widths[k])
                print_error("%zu: \"%s\" is wider than %zu\n", widths[k],
                            forms[i], widths[k]);
            assert_true(pr_shorten_width(forms[i]) <= widths[k]);
            for (j = i + 1; j <= n; j++) {
                int same = strcmp(names[i], names[j]) == 0;
                if (same != (strcmp(forms[i], forms[j]) == 0))
                    print_error("%zu: \"%s\" and \"%s\"\n", widths[k], forms[i],
                                forms[j]);
                assert_int_equal(same, strcmp(forms[i], forms[j]) == 0);
            }
        }
        /* from 40 characters on, a differing part shows, not a number */
        for (i = 0; i <= n && widths[k] >= 40; i++)
            if (count(forms[i], " [") > 0)
                print_error("%zu: numbered \"%s\"\n", widths[k], forms[i]);
        pr_shorten_free(forms, n + 1);
    }
    for (i = 0; i < n; i++)
        free(names[i]);
}

/* The forms people read: the function name, then the arguments that
 * differ (a CUTLASS kernel's tile and layout, a copy's dimension). */
static void
test_distinct_forms(void **state)
{
    const char *names[] = {
        "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x4_nn_"
        "align1>(cutlass_80_tensorop_s1688gemm_64x64_32x4_nn_align1::Params)",
        "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x4_nt_"
        "align1>(cutlass_80_tensorop_s1688gemm_64x64_32x4_nt_align1::Params)",
        "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, "
        "unsigned int, 2, 128, 1>(float*, int, unsigned int)",
        "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, "
        "unsigned int, 3, 128, 1>(float*, int, unsigned int)",
        "void cub::DeviceScanInitKernel<cub::ScanTileState<long, true> "
        ">(cub::ScanTileState<long, true>, int)",
        "void at_cuda_detail::cub::DeviceScanInitKernel<at_cuda_detail::cub::"
        "ScanTileState<long, true> >(at_cuda_detail::cub::ScanTileState<long, "
        "true>, int)",
        "ampere_sgemm_128x64_nn"};
    char *forms[7];
    (void)state;

    assert_int_equal(pr_shorten_distinct(names, 7, 40, forms), 0);
    assert_true(strstr(forms[0], "32x4_nn_align1>") != NULL);
    assert_true(strstr(forms[1], "32x4_nt_align1>") != NULL);
    assert_true(strncmp(forms[2], "CatArrayBatchedCopy<", 20) == 0);
    assert_true(strstr(forms[2], "2, 128, 1>") != NULL);
    assert_true(strstr(forms[3], "3, 128, 1>") != NULL);
    assert_true(strstr(forms[4], "cub::") != NULL);
    assert_true(strncmp(forms[5], "at_cuda_detail::", 16) == 0);
    assert_string_equal(forms[6], "ampere_sgemm_128x64_nn");
    pr_shorten_free(forms, 7);
}

/* Review 26g #7 (df_index's PDF Kernels table): the three MulFunctor
 * kernels, told apart by their holder (a scalar first, a scalar second,
 * two tensors), keep the holder and the functor that says what they
 * compute from 44 characters on, where they read
 * "vectorized…_kernel<4, AUnaryFunctor<…>, …>" before. */
static void
test_distinct_keep_functor(void **state)
{
#define MUL_K(H)                                                               \
    "void at::native::vectorized_elementwise_kernel<4, at::native::" H         \
    "<float, float, float, at::native::binary_internal::MulFunctor<float> >, " \
    "at::detail::Array<char*, 2> >(int, at::native::" H                        \
    "<float, float, float, at::native::binary_internal::MulFunctor<float> >, " \
    "at::detail::Array<char*, 2>)"
    const char *names[] = {MUL_K("AUnaryFunctor"), MUL_K("BUnaryFunctor"),
                           MUL_K("BinaryFunctor")};
    static const char *const holders[] = {"AUnaryFunctor<", "BUnaryFunctor<",
                                          "BinaryFunctor<"};
    static const size_t widths[] = {44, 50, 60, 72};
    char *forms[3];
    size_t i, k;
    (void)state;
#undef MUL_K

    for (k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
        assert_int_equal(pr_shorten_distinct(names, 3, widths[k], forms), 0);
        for (i = 0; i < 3; i++) {
            if (strstr(forms[i], "MulFunctor") == NULL ||
                strstr(forms[i], holders[i]) == NULL)
                print_error("%zu: \"%s\"\n", widths[k], forms[i]);
            assert_non_null(strstr(forms[i], "MulFunctor"));
            assert_non_null(strstr(forms[i], holders[i]));
            assert_true(pr_shorten_width(forms[i]) <= widths[k]);
        }
        pr_shorten_free(forms, 3);
    }
}

/* A cut next to a fold's ellipsis writes one "…" (event_sync's PDF chart
 * read "vectorized_ele……FillFunctor…>", review24 #3/#4). */
static void
test_distinct_one_ellipsis(void **state)
{
    const char *names[] = {
        "void at::native::vectorized_elementwise_kernel<4, "
        "at::native::FillFunctor<c10::Half>, at::detail::Array<char*, 1> "
        ">(int, at::native::FillFunctor<c10::Half>, at::detail::Array<char*, "
        "1>)",
        "void at::native::vectorized_elementwise_kernel<4, "
        "at::native::compare_scalar_kernel<c10::Half>(at::TensorIteratorBase&, "
        "at::native::(anonymous namespace)::OpType, "
        "c10::Half)::{lambda(c10::Half)#1}, at::detail::Array<char*, 2> "
        ">(int, at::native::compare_scalar_kernel<c10::Half>(at::"
        "TensorIteratorBase&, at::native::(anonymous namespace)::OpType, "
        "c10::Half)::{lambda(c10::Half)#1}, at::detail::Array<char*, 2>)"};
    char *forms[2];
    size_t w, i;
    (void)state;

    for (w = 20; w <= 60; w++) {
        assert_int_equal(pr_shorten_distinct(names, 2, w, forms), 0);
        for (i = 0; i < 2; i++) {
            if (strstr(forms[i], "……") != NULL)
                print_error("%zu: \"%s\"\n", w, forms[i]);
            assert_null(strstr(forms[i], "……"));
        }
        assert_string_not_equal(forms[0], forms[1]);
        pr_shorten_free(forms, 2);
    }
}

/* CPU seconds since `t0` (clock()): a bound that a busy machine does not
 * break, unlike wall time. */
static double
cpu_since(clock_t t0)
{
    return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

/* Names nested 100,000 templates deep, and a 1 MB one: every step and
 * the telling apart stay linear and off the stack (run under ASan and
 * UBSan in the sanitizer build). */
static void
test_hostile_nesting(void **state)
{
    size_t n = 100000, i, big = 1 << 20;
    char *deep[3], *forms[3], out[PR_SHORTEN_CAP(40)], *anon;
    const char *unit = "(anonymous namespace)::";
    clock_t t0;
    (void)state;

    for (i = 0; i < 3; i++) {
        deep[i] = malloc(2 * n + 16);
        assert_non_null(deep[i]);
        memcpy(deep[i], "void k", 6);
        memset(deep[i] + 6, '<', n); /* 100,000 '<', never closed */
        memset(deep[i] + 6 + n, 'a', n);
        deep[i][6 + 2 * n] = '\0';
    }
    deep[1][6 + 10] = 'x';        /* differs 10 levels deep */
    deep[2][6 + n + n / 2] = 'y'; /* and halfway through its tail */
    t0 = clock();
    pr_shorten(deep[0], 40, out, sizeof(out));
    assert_true(pr_shorten_width(out) <= 40);
    assert_int_equal(
        pr_shorten_distinct((const char *const *)deep, 3, 40, forms), 0);
    for (i = 0; i < 3; i++)
        assert_true(pr_shorten_width(forms[i]) <= 40);
    assert_string_not_equal(forms[0], forms[1]);
    assert_string_not_equal(forms[0], forms[2]);
    assert_string_not_equal(forms[1], forms[2]);
    pr_shorten_free(forms, 3);
    print_message("# 3 names nested 100,000 deep: %.3f CPU s\n", cpu_since(t0));
    assert_true(cpu_since(t0) < 10);
    for (i = 0; i < 3; i++)
        free(deep[i]);

    /* 1 MB of "(anonymous namespace)::" before the name: each removal
       once moved the rest of the name (a minute under ASan) */
    anon = malloc(big + 64);
    assert_non_null(anon);
    memcpy(anon, "void ", 5);
    for (i = 5; i + strlen(unit) < big; i += strlen(unit))
        memcpy(anon + i, unit, strlen(unit));
    memcpy(anon + i, "k<int>(int)", 12);
    t0 = clock();
    pr_shorten(anon, 40, out, sizeof(out));
    print_message("# a 1 MB name: %.3f CPU s\n", cpu_since(t0));
    assert_string_equal(out, "k<int>");
    assert_true(cpu_since(t0) < 1); /* 0.5 s without ASan, before */
    /* 1 MB of nesting */
    memset(anon, '<', big);
    memcpy(anon, "void k", 6);
    anon[big] = '\0';
    t0 = clock();
    pr_shorten(anon, 40, out, sizeof(out));
    print_message("# a 1 MB nested name: %.3f CPU s\n", cpu_since(t0));
    assert_true(pr_shorten_width(out) <= 40);
    assert_true(cpu_since(t0) < 5);
    free(anon);
}

/* 1,000 names that tell apart only group within group (each differs
 * from the others at its own place of one long run): the groups nest
 * at most 8 deep, every form fits, different names never read alike
 * and equal names (each is there twice) always do. */
static void
test_distinct_deep_groups(void **state)
{
    enum { N = 1000, L = 400 };
    char *names[N], *forms[N];
    size_t i, j, bad = 0;
    clock_t t0;
    (void)state;

    for (i = 0; i < N; i++) {
        names[i] = malloc(L + 2);
        assert_non_null(names[i]);
        memset(names[i], 'a', L);
        memcpy(names[i], "k<", 2);
        names[i][2 + ((i / 2) * 7) % (L - 4)] = 'b'; /* i and i + 1 equal */
        names[i][L - 1] = '>';
        names[i][L] = '\0';
    }
    t0 = clock();
    assert_int_equal(
        pr_shorten_distinct((const char *const *)names, N, 40, forms), 0);
    print_message("# 1,000 names in nested groups: %.3f CPU s\n",
                  cpu_since(t0));
    for (i = 0; i < N; i++) {
        assert_true(pr_shorten_width(forms[i]) <= 40);
        for (j = i + 1; j < N; j++)
            bad += (strcmp(names[i], names[j]) == 0) !=
                   (strcmp(forms[i], forms[j]) == 0);
    }
    assert_int_equal(bad, 0);
    assert_true(cpu_since(t0) < 20);
    pr_shorten_free(forms, N);
    for (i = 0; i < N; i++)
        free(names[i]);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases_file),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_distinct_real_names),
        cmocka_unit_test(test_distinct_forms),
        cmocka_unit_test(test_distinct_keep_functor),
        cmocka_unit_test(test_distinct_one_ellipsis),
        cmocka_unit_test(test_hostile_nesting),
        cmocka_unit_test(test_distinct_deep_groups),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
