/* stats.c - Mann-Whitney U and a fixed-seed bootstrap over per-step
 * samples (diff_stats.h).  Deciding what counts as a regression is left to
 * the gate code; this file only measures. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/checked.h"
#include "profreport/diff_stats.h"

struct ranked {
    double v;
    size_t from_b; /* 1 when the value belongs to sample b */
};

static int
cmp_ranked(const void *pa, const void *pb)
{
    const struct ranked *x = pa, *y = pb;

    if (x->v < y->v)
        return -1;
    if (x->v > y->v)
        return 1;
    return (int)x->from_b - (int)y->from_b;
}

static int
cmp_double(const void *pa, const void *pb)
{
    double x = *(const double *)pa, y = *(const double *)pb;

    return (x > y) - (x < y);
}

static int
all_finite(const double *v, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

double
pr_stats_mean(const double *v, size_t n)
{
    double s = 0;
    size_t i;

    if (n == 0)
        return NAN;
    for (i = 0; i < n; i++)
        s += v[i];
    return s / (double)n;
}

uint64_t
pr_stats_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Rank-sum of sample b in the pooled, sorted values (average ranks for
 * ties); *tie_term receives sum(t^3 - t) over tie groups. */
static double
rank_sum_b(const struct ranked *r, size_t n, double *tie_term)
{
    double sum = 0, ties = 0;
    size_t i = 0, j, k;

    while (i < n) {
        j = i;
        while (j + 1 < n && r[j + 1].v == r[i].v)
            j++;
        /* ranks i+1 .. j+1 share their average */
        for (k = i; k <= j; k++)
            if (r[k].from_b)
                sum += ((double)i + (double)j) / 2.0 + 1.0;
        if (j > i) {
            double t = (double)(j - i + 1);
            ties += t * t * t - t;
        }
        i = j + 1;
    }
    *tie_term = ties;
    return sum;
}

/* P(U <= u) and P(U >= u) for U of a sample of n_b against n_a under the
 * null hypothesis, from the recurrence of Mann and Whitney (1947):
 * p(m, n, u) = m/(m+n) p(m-1, n, u-n) + n/(m+n) p(m, n-1, u), where the
 * largest value comes from the first sample (m = n_b) or the second. */
static enum pr_status
exact_tails(size_t n_a, size_t n_b, double u, double *lower, double *upper,
            struct pr_error *err)
{
    size_t width = n_a * n_b + 1, m, n, k, cells;
    double *prev, *cur, lo = 0, hi = 0;

    if (!pr_checked_mul_size(width, n_a + 1, &cells))
        return pr_error_set(err, PR_E_LIMIT, "samples too large");
    prev = calloc(cells, sizeof(*prev));
    cur = calloc(cells, sizeof(*cur));
    if (prev == NULL || cur == NULL) {
        free(prev);
        free(cur);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    /* row m = 0: every arrangement has U = 0 */
    for (n = 0; n <= n_a; n++)
        prev[n * width] = 1.0;
    for (m = 1; m <= n_b; m++) {
        memset(cur, 0, cells * sizeof(*cur));
        cur[0] = 1.0;
        for (n = 1; n <= n_a; n++) {
            double pm = (double)m / (double)(m + n), pn = 1.0 - pm;
            for (k = 0; k < width; k++) {
                double v = pn * cur[(n - 1) * width + k];
                if (k >= n)
                    v += pm * prev[n * width + k - n];
                cur[n * width + k] = v;
            }
        }
        memcpy(prev, cur, cells * sizeof(*cur));
    }
    for (k = 0; k < width; k++) {
        if ((double)k <= u)
            lo += prev[n_a * width + k];
        if ((double)k >= u)
            hi += prev[n_a * width + k];
    }
    free(prev);
    free(cur);
    *lower = lo;
    *upper = hi;
    return PR_OK;
}

/* The normal approximation with tie correction and continuity
 * correction. */
static void
normal_p(double u, double n_a, double n_b, double tie_term,
         struct pr_stats_mwu *out)
{
    double n = n_a + n_b, mu = n_a * n_b / 2.0;
    double var = n_a * n_b / 12.0 * ((n + 1) - tie_term / (n * (n - 1)));
    double var0 = n_a * n_b / 12.0 * (n + 1), dev;

    out->exact = 0;
    out->p_min = erfc(fmax(mu - 0.5, 0) / sqrt(var0) / sqrt(2.0));
    if (!(var > 0)) { /* every value equal: nothing to see */
        out->z = 0;
        out->p_value = 1.0;
        return;
    }
    dev = fmax(fabs(u - mu) - 0.5, 0);
    out->z = (u >= mu ? dev : -dev) / sqrt(var);
    out->p_value = fmin(1.0, erfc(fabs(out->z) / sqrt(2.0)));
}

static enum pr_status
mwu_from_ranks(const struct ranked *r, size_t n_a, size_t n_b,
               struct pr_stats_mwu *out, struct pr_error *err)
{
    double tie_term, lower = 1, upper = 1, comb = 1;
    double rb = rank_sum_b(r, n_a + n_b, &tie_term);
    size_t i;
    enum pr_status st;

    memset(out, 0, sizeof(*out));
    out->u = rb - (double)n_b * ((double)n_b + 1) / 2.0;
    if (tie_term > 0 || n_a > PR_STATS_EXACT_MAX || n_b > PR_STATS_EXACT_MAX) {
        normal_p(out->u, (double)n_a, (double)n_b, tie_term, out);
        return PR_OK;
    }
    st = exact_tails(n_a, n_b, out->u, &lower, &upper, err);
    if (st != PR_OK)
        return st;
    for (i = 1; i <= n_b; i++) /* C(n_a + n_b, n_b) */
        comb = comb * (double)(n_a + i) / (double)i;
    out->exact = 1;
    out->p_value = fmin(1.0, 2.0 * fmin(lower, upper));
    out->p_min = fmin(1.0, 2.0 / comb);
    return PR_OK;
}

enum pr_status
pr_stats_mwu(const double *a, size_t n_a, const double *b, size_t n_b,
             struct pr_stats_mwu *out, struct pr_error *err)
{
    struct ranked *r;
    size_t i, n;
    enum pr_status st;

    if (n_a == 0 || n_b == 0)
        return pr_error_set(err, PR_E_USAGE, "rank test needs samples");
    if (!all_finite(a, n_a) || !all_finite(b, n_b))
        return pr_error_set(err, PR_E_USAGE, "sample is not finite");
    if (!pr_checked_add_size(n_a, n_b, &n))
        return pr_error_set(err, PR_E_LIMIT, "samples too large");
    r = calloc(n, sizeof(*r));
    if (r == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < n_a; i++)
        r[i].v = a[i];
    for (i = 0; i < n_b; i++) {
        r[n_a + i].v = b[i];
        r[n_a + i].from_b = 1;
    }
    qsort(r, n, sizeof(*r), cmp_ranked);
    st = mwu_from_ranks(r, n_a, n_b, out, err);
    free(r);
    return st;
}

static double
resample_mean(const double *v, size_t n, uint64_t *state)
{
    double s = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        /* multiply-shift maps 32 random bits to [0, n) without a modulo */
        uint64_t pick = ((pr_stats_rand(state) >> 32) * (uint64_t)n) >> 32;
        s += v[pick];
    }
    return s / (double)n;
}

/* Percentile of sorted v (linear interpolation between closest ranks). */
static double
percentile(const double *v, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t k = (size_t)pos;

    if (k + 1 >= n)
        return v[n - 1];
    return v[k] + (pos - (double)k) * (v[k + 1] - v[k]);
}

enum pr_status
pr_stats_bootstrap(const double *a, size_t n_a, const double *b, size_t n_b,
                   size_t resamples, double conf, uint64_t seed,
                   struct pr_stats_ci *out, struct pr_error *err)
{
    double *d;
    size_t i, k = 0;
    uint64_t state = seed;

    if (n_a == 0 || n_b == 0 || resamples < 10 || !(conf > 0 && conf < 1))
        return pr_error_set(err, PR_E_USAGE, "bad bootstrap arguments");
    if (!all_finite(a, n_a) || !all_finite(b, n_b) ||
        !(pr_stats_mean(a, n_a) > 0))
        return pr_error_set(err, PR_E_USAGE, "bootstrap needs a positive "
                                             "baseline mean");
    d = calloc(resamples, sizeof(*d));
    if (d == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < resamples; i++) {
        double ma = resample_mean(a, n_a, &state);
        double mb = resample_mean(b, n_b, &state);
        if (ma > 0)
            d[k++] = 100.0 * (mb / ma - 1.0);
    }
    if (k == 0) { /* every resample had a non-positive baseline mean */
        free(d);
        return pr_error_set(err, PR_E_USAGE, "bootstrap needs a positive "
                                             "baseline mean");
    }
    qsort(d, k, sizeof(*d), cmp_double);
    out->lo_pct = percentile(d, k, (1.0 - conf) / 2.0);
    out->hi_pct = percentile(d, k, 1.0 - (1.0 - conf) / 2.0);
    free(d);
    return PR_OK;
}
