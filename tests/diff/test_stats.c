/* test_stats.c - Mann-Whitney U (exact and normal with ties) and the
 * fixed-seed bootstrap; reference p-values worked out by hand from the
 * textbook formulas (see comments). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/diff_stats.h"

static void
assert_near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.10g, want %.10g (tol %g)", got, want, tol);
}

static void
test_exact_separated(void **state)
{
    /* complete separation: P(U = max) = 1 / C(n_a + n_b, n_b) */
    double a[] = {1, 2, 3}, b[] = {4, 5, 6};
    double a6[] = {6, 1, 3, 2, 5, 4}, b6[] = {9, 12, 7, 8, 11, 10};
    struct pr_stats_mwu m;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_stats_mwu(a, 3, b, 3, &m, &err), PR_OK);
    assert_true(m.exact);
    assert_near(m.u, 9, 0);
    assert_near(m.p_value, 2.0 / 20, 1e-12);
    assert_near(m.p_min, 2.0 / 20, 1e-12);
    assert_int_equal(pr_stats_mwu(a6, 6, b6, 6, &m, &err), PR_OK);
    assert_near(m.p_value, 2.0 / 924, 1e-12);
    /* and the other direction gives the same two-sided p */
    assert_int_equal(pr_stats_mwu(b6, 6, a6, 6, &m, &err), PR_OK);
    assert_near(m.u, 0, 0);
    assert_near(m.p_value, 2.0 / 924, 1e-12);
}

static void
test_exact_overlap(void **state)
{
    /* U = 19 of 20; U >= 19 happens in 2 of C(9,4) = 126 orders */
    double a[] = {10, 12, 11, 14}, b[] = {13, 15, 16, 17, 18};
    struct pr_stats_mwu m;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_stats_mwu(a, 4, b, 5, &m, &err), PR_OK);
    assert_true(m.exact);
    assert_near(m.u, 19, 0);
    assert_near(m.p_value, 4.0 / 126, 1e-12);
}

static void
test_normal_with_ties(void **state)
{
    /* ranks with ties give U_b = 23.5, mu = 15; tie term 24 + 6 + 6 = 36;
     * var = 30/12 * (12 - 36/110); z = (8.5 - 0.5) / sqrt(var) */
    double a[] = {1, 2, 2, 3, 5}, b[] = {2, 3, 4, 4, 6, 7};
    double z = 8.0 / sqrt(2.5 * (12 - 36.0 / 110));
    struct pr_stats_mwu m;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_stats_mwu(a, 5, b, 6, &m, &err), PR_OK);
    assert_false(m.exact);
    assert_near(m.u, 23.5, 1e-12);
    assert_near(m.z, z, 1e-9);
    assert_near(m.p_value, erfc(z / sqrt(2.0)), 1e-12);
}

static void
test_identical_samples(void **state)
{
    double a[] = {5, 5, 5, 5}, b[] = {5, 5, 5};
    struct pr_stats_mwu m;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_stats_mwu(a, 4, b, 3, &m, &err), PR_OK);
    assert_near(m.p_value, 1.0, 0);
}

static void
test_bad_samples(void **state)
{
    double a[] = {1, NAN}, b[] = {2, 3};
    struct pr_stats_mwu m;
    struct pr_stats_ci ci;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_stats_mwu(a, 0, b, 2, &m, &err), PR_E_USAGE);
    pr_error_clear(&err);
    assert_int_equal(pr_stats_mwu(a, 2, b, 2, &m, &err), PR_E_USAGE);
    assert_non_null(strstr(err.msg, "finite"));
    pr_error_clear(&err);
    assert_int_equal(pr_stats_bootstrap(b, 2, b, 2, 5, 0.95, 1, &ci, &err),
                     PR_E_USAGE);
}

static void
test_bootstrap_deterministic(void **state)
{
    double a[] = {100, 102, 98, 101, 99, 100},
           b[] = {120, 121, 119, 122, 118, 120};
    struct pr_stats_ci c1, c2;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(
        pr_stats_bootstrap(a, 6, b, 6, 2000, 0.95, PR_STATS_SEED, &c1, &err),
        PR_OK);
    assert_int_equal(
        pr_stats_bootstrap(a, 6, b, 6, 2000, 0.95, PR_STATS_SEED, &c2, &err),
        PR_OK);
    assert_true(c1.lo_pct == c2.lo_pct && c1.hi_pct == c2.hi_pct);
    /* the true change is +20%; the interval holds it and excludes 0 */
    assert_true(c1.lo_pct > 15 && c1.lo_pct < 20);
    assert_true(c1.hi_pct > 20 && c1.hi_pct < 25);
}

/* The exact p-value against every one of the C(13, 6) = 1716 orders of a
 * sample of 6 among 13 values, counted one by one. */
static void
test_exact_by_enumeration(void **state)
{
    static const unsigned pick[][6] = {
        {1, 4, 5, 8, 10, 11}, {0, 1, 2, 3, 5, 4}, {2, 3, 6, 7, 9, 12}};
    struct pr_stats_mwu m;
    struct pr_error err;
    size_t k;

    (void)state;
    pr_error_clear(&err);
    for (k = 0; k < sizeof(pick) / sizeof(pick[0]); k++) {
        double a[7], b[6], u0 = 0;
        unsigned mask, inb = 0, i, na = 0, nb = 0, lo = 0, hi = 0;
        for (i = 0; i < 6; i++)
            inb |= 1u << pick[k][i];
        for (i = 0; i < 13; i++) {
            if (inb >> i & 1)
                b[nb++] = i, u0 += i; /* 0-based ranks: U = sum */
            else
                a[na++] = i;
        }
        u0 -= 15; /* minus 0 + 1 + ... + 5 */
        for (mask = 0; mask < 1u << 13; mask++) {
            double u = -15;
            if (__builtin_popcount(mask) != 6)
                continue;
            for (i = 0; i < 13; i++)
                if (mask >> i & 1)
                    u += i;
            lo += u <= u0;
            hi += u >= u0;
        }
        assert_int_equal(pr_stats_mwu(a, 7, b, 6, &m, &err), PR_OK);
        assert_true(m.exact);
        assert_near(m.u, u0, 0);
        assert_near(m.p_value,
                    fmin(1.0, 2.0 * (double)(lo < hi ? lo : hi) / 1716.0),
                    1e-12);
    }
}

static void
test_normal_ci_by_hand(void **state)
{
    /* a: mean 10, variance 2; b: mean 12, variance 2.  r = 1.2 and
       se^2 = 2 / (2 * 100) + 144 * 2 / (2 * 10^4) = 0.0244 */
    double a[] = {9, 11}, b[] = {11, 13};
    double se = sqrt(0.0244), z = 1.959963984540054;
    struct pr_stats_ci ci;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_stats_normal_ci(a, 2, b, 2, z, &ci, &err), PR_OK);
    assert_near(ci.lo_pct, 100 * (0.2 - z * se), 1e-9);
    assert_near(ci.hi_pct, 100 * (0.2 + z * se), 1e-9);
    /* one value a side, or no positive baseline: no interval */
    assert_int_equal(pr_stats_normal_ci(a, 1, b, 2, z, &ci, &err), PR_E_USAGE);
    a[0] = -11;
    assert_int_equal(pr_stats_normal_ci(a, 2, b, 2, z, &ci, &err), PR_E_USAGE);
}

/* On a large sample the normal interval is the bootstrap's, to a small
 * fraction of its width (why compare.c may use it past BOOT_MAX_N). */
static void
test_normal_ci_matches_bootstrap(void **state)
{
    enum { N = 3000 };
    static double a[N], b[N];
    uint64_t s = 7;
    struct pr_stats_ci boot, norm;
    struct pr_error err;
    size_t i;

    (void)state;
    pr_error_clear(&err);
    for (i = 0; i < N; i++) {
        a[i] = 100 + (double)(pr_stats_rand(&s) % 1000) / 100.0;
        b[i] = 103 + (double)(pr_stats_rand(&s) % 1400) / 100.0;
    }
    assert_int_equal(
        pr_stats_bootstrap(a, N, b, N, 2000, 0.95, PR_STATS_SEED, &boot, &err),
        PR_OK);
    assert_int_equal(
        pr_stats_normal_ci(a, N, b, N, 1.959963984540054, &norm, &err), PR_OK);
    assert_near(norm.lo_pct, boot.lo_pct, 0.1 * (boot.hi_pct - boot.lo_pct));
    assert_near(norm.hi_pct, boot.hi_pct, 0.1 * (boot.hi_pct - boot.lo_pct));
}

/* Forty steps of 98..102 us; `slow` of them (every tenth) take 300. */
static void
steps_with_tail(double *v, size_t slow)
{
    size_t i;

    for (i = 0; i < 40; i++)
        v[i] = i % 10 == 9 && i / 10 < slow ? 300 : 98 + (double)(i % 5);
}

/* The median and p90 intervals are of those statistics, not of the mean:
 * four slow steps in forty move the mean by +20% and leave the median
 * where it was, so the median's interval holds 0 and stays narrow while
 * the mean's reaches far up; the p90 (at the slow steps) moves further
 * than the mean. */
static void
test_quantile_intervals(void **state)
{
    double a[40], b[40], q;
    struct pr_stats_ci mean, med, p90, again;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    steps_with_tail(a, 0);
    steps_with_tail(b, 4);
    assert_int_equal(pr_stats_quantile(a, 40, 0.5, &q, &err), PR_OK);
    assert_near(q, 100, 0);
    assert_int_equal(pr_stats_quantile(b, 40, 0.95, &q, &err), PR_OK);
    assert_near(q, 300, 0); /* rank 37.05 of 0..39: among the 300s */
    assert_int_equal(pr_stats_bootstrap(a, 40, b, 40, 2000, 0.95, PR_STATS_SEED,
                                        &mean, &err),
                     PR_OK);
    assert_int_equal(pr_stats_bootstrap_q(a, 40, b, 40, 0.5, 2000, 0.95,
                                          PR_STATS_SEED, &med, &err),
                     PR_OK);
    assert_int_equal(pr_stats_bootstrap_q(a, 40, b, 40, 0.9, 2000, 0.95,
                                          PR_STATS_SEED, &p90, &err),
                     PR_OK);
    assert_int_equal(pr_stats_bootstrap_q(a, 40, b, 40, 0.5, 2000, 0.95,
                                          PR_STATS_SEED, &again, &err),
                     PR_OK);
    assert_true(med.lo_pct == again.lo_pct && med.hi_pct == again.hi_pct);
    assert_true(mean.hi_pct > 20);
    assert_true(med.lo_pct <= 0 && med.hi_pct >= 0 && med.hi_pct < 5);
    assert_true(p90.hi_pct > mean.hi_pct);
    /* the normal form says the same of the median */
    assert_int_equal(
        pr_stats_normal_ci_q(a, 40, b, 40, 0.5, 1.959963984540054, &med, &err),
        PR_OK);
    assert_true(med.lo_pct <= 0 && med.hi_pct >= 0 && med.hi_pct < 5);
    /* no positive baseline quantile, or q outside [0, 1]: no interval */
    pr_error_clear(&err);
    memset(a, 0, sizeof(a));
    assert_int_equal(pr_stats_bootstrap_q(a, 40, b, 40, 0.5, 2000, 0.95,
                                          PR_STATS_SEED, &med, &err),
                     PR_E_USAGE);
    pr_error_clear(&err);
    assert_int_equal(pr_stats_normal_ci_q(b, 40, b, 40, 1.5, 1.96, &med, &err),
                     PR_E_USAGE);
}

/* On a large sample the normal quantile interval is close to the
 * bootstrap's (why compare.c may use it past BOOT_MAX_N). */
static void
test_quantile_normal_matches_bootstrap(void **state)
{
    enum { N = 3000 };
    static double a[N], b[N];
    static const double qs[] = {0.5, 0.9};
    uint64_t s = 11;
    struct pr_stats_ci boot, norm;
    struct pr_error err;
    size_t i;

    (void)state;
    pr_error_clear(&err);
    for (i = 0; i < N; i++) {
        a[i] = 100 + (double)(pr_stats_rand(&s) % 1000) / 100.0;
        b[i] = 103 + (double)(pr_stats_rand(&s) % 1400) / 100.0;
    }
    for (i = 0; i < 2; i++) {
        double w;
        assert_int_equal(pr_stats_bootstrap_q(a, N, b, N, qs[i], 2000, 0.95,
                                              PR_STATS_SEED, &boot, &err),
                         PR_OK);
        assert_int_equal(pr_stats_normal_ci_q(a, N, b, N, qs[i],
                                              1.959963984540054, &norm, &err),
                         PR_OK);
        w = boot.hi_pct - boot.lo_pct;
        assert_true(w > 0);
        assert_near(norm.lo_pct, boot.lo_pct, 0.25 * w);
        assert_near(norm.hi_pct, boot.hi_pct, 0.25 * w);
    }
}

/* p_min is what pr_stats_mwu reports for samples without ties, or above
 * it (it cannot know the ties in advance). */
static void
test_p_min(void **state)
{
    double v[40];
    struct pr_stats_mwu m;
    struct pr_error err;
    size_t sizes[][2] = {{3, 3}, {2, 5}, {6, 6}, {20, 20}, {1, 1}};
    size_t k, i;

    (void)state;
    pr_error_clear(&err);
    for (i = 0; i < 40; i++)
        v[i] = (double)i;
    assert_near(pr_stats_p_min(3, 3), 2.0 / 20, 1e-12);
    assert_near(pr_stats_p_min(0, 3), 1.0, 0);
    assert_true(pr_stats_p_min(100, 100) < 1e-10);
    for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        assert_int_equal(
            pr_stats_mwu(v, sizes[k][0], v + 20, sizes[k][1], &m, &err), PR_OK);
        assert_true(pr_stats_p_min(sizes[k][0], sizes[k][1]) >=
                    m.p_min * (1 - 1e-12));
    }
}

static void
test_rand_sequence(void **state)
{
    uint64_t s = 0; /* splitmix64's published first output for seed 0 */

    (void)state;
    assert_true(pr_stats_rand(&s) == 0xe220a8397b1dcdafULL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_separated),
        cmocka_unit_test(test_exact_overlap),
        cmocka_unit_test(test_normal_with_ties),
        cmocka_unit_test(test_identical_samples),
        cmocka_unit_test(test_bad_samples),
        cmocka_unit_test(test_bootstrap_deterministic),
        cmocka_unit_test(test_exact_by_enumeration),
        cmocka_unit_test(test_normal_ci_by_hand),
        cmocka_unit_test(test_normal_ci_matches_bootstrap),
        cmocka_unit_test(test_quantile_intervals),
        cmocka_unit_test(test_quantile_normal_matches_bootstrap),
        cmocka_unit_test(test_p_min),
        cmocka_unit_test(test_rand_sequence),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
