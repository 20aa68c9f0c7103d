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

/* Sample variance (n - 1 in the denominator) around mean m. */
static double
variance(const double *v, size_t n, double m)
{
    double s = 0;
    size_t i;

    for (i = 0; i < n; i++)
        s += (v[i] - m) * (v[i] - m);
    return s / (double)(n - 1);
}

enum pr_status
pr_stats_normal_ci(const double *a, size_t n_a, const double *b, size_t n_b,
                   double z, struct pr_stats_ci *out, struct pr_error *err)
{
    double ma, mb, r, se2;

    if (n_a < 2 || n_b < 2 || !all_finite(a, n_a) || !all_finite(b, n_b))
        return pr_error_set(err, PR_E_USAGE, "bad interval arguments");
    ma = pr_stats_mean(a, n_a);
    mb = pr_stats_mean(b, n_b);
    if (!(ma > 0))
        return pr_error_set(err, PR_E_USAGE,
                            "interval needs a positive "
                            "baseline mean");
    r = mb / ma;
    se2 = variance(b, n_b, mb) / ((double)n_b * ma * ma) +
          mb * mb * variance(a, n_a, ma) / ((double)n_a * ma * ma * ma * ma);
    out->lo_pct = 100.0 * (r - 1.0 - z * sqrt(se2));
    out->hi_pct = 100.0 * (r - 1.0 + z * sqrt(se2));
    return PR_OK;
}

double
pr_stats_p_min(size_t n_a, size_t n_b)
{
    double na = (double)n_a, nb = (double)n_b, comb = 1, exact, normal;
    double mu = na * nb / 2.0, var0 = na * nb / 12.0 * (na + nb + 1);
    size_t i;

    if (n_a == 0 || n_b == 0)
        return 1.0;
    for (i = 1; i <= n_b && comb < 1e300; i++) /* C(n_a + n_b, n_b) */
        comb = comb * (na + (double)i) / (double)i;
    exact = fmin(1.0, 2.0 / comb);
    normal = erfc(fmax(mu - 0.5, 0) / sqrt(var0) / sqrt(2.0));
    return fmax(exact, normal);
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
 * null hypothesis.  The number of the C(n_a + n_b, n_b) orders that give
 * each U are the coefficients of the Gaussian binomial
 * [n_a + n_b, n_b]_q = prod_{i=1..n_b} (1 - q^(n_a+i)) / (1 - q^i), built
 * one factor at a time (every partial product [n_a + i, i]_q has
 * non-negative coefficients): O(n_b * n_a * n_b) and one array, where the
 * recurrence of Mann and Whitney takes n_a times longer, which a job of
 * thousands of runs felt (issue #19).  A coefficient depends only on those
 * below it, so the low ones are exact integers; both tails are summed from
 * below, the upper by the symmetry of U about n_a n_b / 2. */
static enum pr_status
exact_tails(size_t n_a, size_t n_b, double u, double *lower, double *upper,
            struct pr_error *err)
{
    size_t width = n_a * n_b + 1, deg = 0, i, k;
    double *c, lo = 0, hi = 0, total = 0, ui = floor(u);

    c = calloc(width + n_b + 1, sizeof(*c));
    if (c == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    c[0] = 1.0;
    for (i = 1; i <= n_b; i++) {
        size_t up = n_a + i, top = deg + up;
        for (k = top; k >= up; k--) /* times (1 - q^up) */
            c[k] -= c[k - up];
        for (k = i; k <= top; k++) /* divided by (1 - q^i) */
            c[k] += c[k - i];
        deg += n_a;
        for (k = deg + 1; k <= top; k++) /* zero in exact arithmetic */
            c[k] = 0;
    }
    for (k = 0; k < width; k++) {
        total += c[k];
        if ((double)k <= ui)
            lo += c[k];
        if ((double)k <= (double)(width - 1) - ui)
            hi += c[k];
    }
    free(c);
    *lower = lo / total;
    *upper = hi / total;
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

/* The central conf interval of the k resampled changes d (k >= 1), which
 * it sorts and frees. */
static enum pr_status
interval_of(double *d, size_t k, double conf, struct pr_stats_ci *out)
{
    qsort(d, k, sizeof(*d), cmp_double);
    out->lo_pct = percentile(d, k, (1.0 - conf) / 2.0);
    out->hi_pct = percentile(d, k, 1.0 - (1.0 - conf) / 2.0);
    free(d);
    return PR_OK;
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
        return pr_error_set(err, PR_E_USAGE,
                            "bootstrap needs a positive "
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
        return pr_error_set(err, PR_E_USAGE,
                            "bootstrap needs a positive "
                            "baseline mean");
    }
    return interval_of(d, k, conf, out);
}

/* A sorted copy of v (n >= 1) in *out, owned by the caller. */
static enum pr_status
sorted_copy(const double *v, size_t n, double **out, struct pr_error *err)
{
    *out = calloc(n, sizeof(**out));
    if (*out == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    memcpy(*out, v, n * sizeof(**out));
    qsort(*out, n, sizeof(**out), cmp_double);
    return PR_OK;
}

enum pr_status
pr_stats_quantile(const double *v, size_t n, double q, double *out,
                  struct pr_error *err)
{
    double *s;

    *out = NAN;
    if (n == 0 || !(q >= 0 && q <= 1))
        return PR_OK;
    if (sorted_copy(v, n, &s, err) != PR_OK)
        return err->code;
    *out = percentile(s, n, q);
    free(s);
    return PR_OK;
}

/* The q-quantile of one resample of the sorted sample s: n draws counted
 * per index in cnt (n zeros in, zeros out), then the values of ranks k and
 * k + 1 found by walking the counts in order, so a resample costs O(n)
 * and no sort. */
static double
resample_quantile(const double *s, size_t n, double q, size_t *cnt,
                  uint64_t *state)
{
    double pos = q * (double)(n - 1), lo = s[n - 1], hi = s[n - 1];
    size_t k = (size_t)pos, i, seen = 0;

    for (i = 0; i < n; i++)
        cnt[((pr_stats_rand(state) >> 32) * (uint64_t)n) >> 32]++;
    for (i = 0; i < n; i++) {
        size_t before = seen;
        seen += cnt[i];
        if (before <= k && k < seen)
            lo = s[i];
        if (before <= k + 1 && k + 1 < seen) {
            hi = s[i];
            break;
        }
    }
    memset(cnt, 0, n * sizeof(*cnt));
    if (k + 1 >= n)
        return lo;
    return lo + (pos - (double)k) * (hi - lo);
}

/* Both samples sorted into *sa and *sb (owned), after the checks the
 * quantile intervals share: finite values, q in [0, 1], a positive
 * baseline quantile. */
static enum pr_status
sorted_pair(const double *a, size_t n_a, const double *b, size_t n_b, double q,
            double **sa, double **sb, struct pr_error *err)
{
    *sa = *sb = NULL;
    if (n_a == 0 || n_b == 0 || !(q >= 0 && q <= 1) || !all_finite(a, n_a) ||
        !all_finite(b, n_b))
        return pr_error_set(err, PR_E_USAGE, "bad interval arguments");
    if (sorted_copy(a, n_a, sa, err) != PR_OK ||
        sorted_copy(b, n_b, sb, err) != PR_OK)
        goto fail;
    if (percentile(*sa, n_a, q) > 0)
        return PR_OK;
    pr_error_set(err, PR_E_USAGE, "interval needs a positive baseline");
fail:
    free(*sa);
    free(*sb);
    *sa = *sb = NULL;
    return err->code;
}

enum pr_status
pr_stats_bootstrap_q(const double *a, size_t n_a, const double *b, size_t n_b,
                     double q, size_t resamples, double conf, uint64_t seed,
                     struct pr_stats_ci *out, struct pr_error *err)
{
    double *sa, *sb, *d = NULL;
    size_t *cnt = NULL, i, k = 0;
    uint64_t state = seed;

    if (resamples < 10 || !(conf > 0 && conf < 1))
        return pr_error_set(err, PR_E_USAGE, "bad bootstrap arguments");
    if (sorted_pair(a, n_a, b, n_b, q, &sa, &sb, err) != PR_OK)
        return err->code;
    d = calloc(resamples, sizeof(*d));
    cnt = calloc(n_a > n_b ? n_a : n_b, sizeof(*cnt));
    if (d != NULL && cnt != NULL)
        for (i = 0; i < resamples; i++) {
            double qa = resample_quantile(sa, n_a, q, cnt, &state);
            double qb = resample_quantile(sb, n_b, q, cnt, &state);
            if (qa > 0)
                d[k++] = 100.0 * (qb / qa - 1.0);
        }
    free(sa);
    free(sb);
    free(cnt);
    if (d == NULL || cnt == NULL) {
        free(d);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    if (k == 0) { /* every resample had a non-positive baseline */
        free(d);
        return pr_error_set(err, PR_E_USAGE,
                            "interval needs a positive "
                            "baseline");
    }
    return interval_of(d, k, conf, out);
}

/* Standard error of the q-quantile of sorted s from its distribution-free
 * order-statistic interval: ranks n q -+ z sqrt(n q (1 - q)) span about
 * 2 z standard errors. */
static double
quantile_se(const double *s, size_t n, double q, double z)
{
    double m = q * (double)(n - 1), h = z * sqrt((double)n * q * (1.0 - q));
    double lo = floor(m - h), hi = ceil(m + h);
    size_t l = lo > 0 ? (size_t)lo : 0;
    size_t u = hi < (double)(n - 1) ? (size_t)hi : n - 1;

    return (s[u] - s[l]) / (2.0 * z);
}

enum pr_status
pr_stats_normal_ci_q(const double *a, size_t n_a, const double *b, size_t n_b,
                     double q, double z, struct pr_stats_ci *out,
                     struct pr_error *err)
{
    double *sa, *sb, qa, qb, ea, eb, r, se2;

    if (n_a < 2 || n_b < 2 || !(z > 0))
        return pr_error_set(err, PR_E_USAGE, "bad interval arguments");
    if (sorted_pair(a, n_a, b, n_b, q, &sa, &sb, err) != PR_OK)
        return err->code;
    qa = percentile(sa, n_a, q);
    qb = percentile(sb, n_b, q);
    ea = quantile_se(sa, n_a, q, z);
    eb = quantile_se(sb, n_b, q, z);
    free(sa);
    free(sb);
    r = qb / qa;
    se2 = eb * eb / (qa * qa) + qb * qb * ea * ea / (qa * qa * qa * qa);
    out->lo_pct = 100.0 * (r - 1.0 - z * sqrt(se2));
    out->hi_pct = 100.0 * (r - 1.0 + z * sqrt(se2));
    return PR_OK;
}
