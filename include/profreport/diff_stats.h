/* diff_stats.h - the statistics behind `profreport diff`: is a change in
 * per-step samples larger than step-to-step noise?  Two tools, both over
 * the raw samples of the two runs (baseline a, current b):
 *  - the Mann-Whitney U rank test (two-sided; exact distribution for small
 *    samples without ties, otherwise the normal approximation with tie and
 *    continuity correction), which makes no assumption about the shape of
 *    the step-time distribution (warm-up outliers are common);
 *  - a percentile bootstrap interval of the relative change of the mean
 *    (or of a quantile: the median and p90 rows have their own), driven
 *    by a fixed-seed PRNG so that the same inputs always give the same
 *    report.
 * libc and libm only; nothing here knows about cJSON or the summary. */
#ifndef PROFREPORT_DIFF_STATS_H
#define PROFREPORT_DIFF_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"

/* Both samples at most this long use the exact distribution (when there
 * are no ties); the table costs O(n_a * n_b^2) doubles of work. */
#define PR_STATS_EXACT_MAX 50

/* Seed of the bootstrap PRNG: fixed so reports are reproducible. */
#define PR_STATS_SEED 0x70726f667265706fULL

struct pr_stats_mwu {
    double u;       /* U of the current sample: pairs (a_i, b_j) with
                       b_j > a_i, ties counting one half */
    double z;       /* normal score with continuity correction; 0 when
                       exact */
    double p_value; /* two-sided */
    double p_min;   /* smallest p-value these sample sizes can reach: when
                       it is above alpha the test cannot decide */
    int exact;      /* 1 = exact distribution, 0 = normal approximation */
};

struct pr_stats_ci {
    double lo_pct, hi_pct; /* interval of 100 * (mean(b) / mean(a) - 1) */
};

/* Mann-Whitney U test of a (n_a >= 1 values) against b (n_b >= 1).  Values
 * must be finite.  Errors: PR_E_USAGE for empty or non-finite samples,
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_stats_mwu(const double *a, size_t n_a,
                                         const double *b, size_t n_b,
                                         struct pr_stats_mwu *out,
                                         struct pr_error *err);

/* Percentile bootstrap interval (confidence 0 < conf < 1, e.g. 0.95) of
 * the relative change of the mean from a to b, in percent, from
 * `resamples` (>= 10) resamplings of each sample with replacement, drawn
 * from a PRNG seeded with `seed`.  mean(a) must be > 0.  Errors:
 * PR_E_USAGE for bad arguments, PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_stats_bootstrap(const double *a, size_t n_a, const double *b, size_t n_b,
                   size_t resamples, double conf, uint64_t seed,
                   struct pr_stats_ci *out, struct pr_error *err);

/* The interval of pr_stats_bootstrap by the normal approximation (the
 * delta method for the ratio of two means): 100 * (r - 1 +- z * se) with
 * r = mean(b) / mean(a) and se^2 = var(b) / (n_b mean(a)^2) +
 * mean(b)^2 var(a) / (n_a mean(a)^4), sample variances.  O(n) and exact
 * to compute, so large samples (where the central limit theorem makes it
 * as good as a bootstrap) cost no resampling; z = 1.959964 for 95%.
 * Needs n_a, n_b >= 2 and mean(a) > 0.  Errors: PR_E_USAGE. */
PR_NODISCARD enum pr_status
pr_stats_normal_ci(const double *a, size_t n_a, const double *b, size_t n_b,
                   double z, struct pr_stats_ci *out, struct pr_error *err);

/* The intervals above for a quantile instead of the mean: of the relative
 * change of the q-quantile (0 <= q <= 1; 0.5 the median, 0.9 the p90,
 * interpolated between closest ranks as the summary's step_summary does)
 * from a to b, in percent.  The bootstrap resamples as pr_stats_bootstrap
 * does, in O(n) a resample (a counting pass over the sorted sample, no
 * sort per resample).  The normal form takes each side's standard error
 * from the distribution-free order-statistic interval of its quantile
 * (ranks n q -+ z sqrt(n q (1 - q))) and joins them by the delta method,
 * as pr_stats_normal_ci does for means: O(n log n), no resampling.  The
 * baseline quantile must be > 0.  Errors: PR_E_USAGE for bad arguments,
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_stats_bootstrap_q(const double *a, size_t n_a, const double *b, size_t n_b,
                     double q, size_t resamples, double conf, uint64_t seed,
                     struct pr_stats_ci *out, struct pr_error *err);
PR_NODISCARD enum pr_status pr_stats_normal_ci_q(const double *a, size_t n_a,
                                                 const double *b, size_t n_b,
                                                 double q, double z,
                                                 struct pr_stats_ci *out,
                                                 struct pr_error *err);

/* The q-quantile of v (n values, any order), interpolated between closest
 * ranks; NAN for n = 0 or q outside [0, 1].  Errors: PR_E_NOMEM (it sorts
 * a copy). */
PR_NODISCARD enum pr_status pr_stats_quantile(const double *v, size_t n,
                                              double q, double *out,
                                              struct pr_error *err);

/* The smallest two-sided p-value the rank test can reach with samples of
 * n_a and n_b values, whichever of its forms it takes (the larger of the
 * exact and the normal bound): when it is above alpha the rank test cannot
 * decide and the bootstrap interval does.  Cannot fail. */
double pr_stats_p_min(size_t n_a, size_t n_b);

/* Arithmetic mean; NAN for n = 0.  Cannot fail. */
double pr_stats_mean(const double *v, size_t n);

/* splitmix64: the next value of the generator whose state is *state.
 * Cannot fail; the same seed gives the same sequence everywhere. */
uint64_t pr_stats_rand(uint64_t *state);

#endif
