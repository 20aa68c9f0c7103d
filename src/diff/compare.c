/* compare.c - build the diff tree of two summaries (diff.h): per-run
 * figures with their noise test, and the matched operator and kernel
 * tables.  Gates and reports read the tree; nothing here decides what is a
 * regression beyond recording whether a change is significant. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/diff_match.h"
#include "profreport/diff_stats.h"
#include "profreport/merge.h"
#include "profreport/parse.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"

static const char *const categories[] = {
    PR_K_KERNEL,  PR_K_MEMCPY,     PR_K_MEMSET,   PR_K_COMMUNICATION,
    PR_K_RUNTIME, PR_K_DATALOADER, PR_K_CPU_EXEC, PR_K_OTHER};

#define N_CATEGORIES (sizeof(categories) / sizeof(categories[0]))

#define NOMEM(err) pr_error_set(err, PR_E_NOMEM, "out of memory")

/* How the noise tests of one comparison take their interval of the change
 * (diff.h, "method"), so that its cost stays bounded whatever the number
 * of steps and runs:
 *  - a side of more than BOOT_MAX_N samples gets the normal-approximation
 *    interval (pr_stats_normal_ci: O(n), and as good as a bootstrap there);
 *  - otherwise a fixed-seed bootstrap, when all of them together need at
 *    most BOOT_BUDGET draws (resamples x samples); past that, only the
 *    tests whose significance the bootstrap decides (the rank test cannot
 *    reach alpha) keep it, with the resamples the budget allows (at least
 *    BOOT_MIN_RESAMPLES), and the others get the normal interval.
 * Deterministic: the choice depends on the sample sizes only. */
#define BOOT_MAX_N 5000
#define BOOT_BUDGET 200000000.0
#define BOOT_MIN_RESAMPLES 200
#define Z_95 1.959963984540054 /* the 97.5% quantile of the normal law */
#define STAT_MEAN (-1.0)
#define QUANTILE_COST 2 /* draws of a mean a quantile resample costs */

struct plan {
    const struct pr_diff_opts *o;
    size_t resamples;   /* of each bootstrap */
    int info_bootstrap; /* 1: a bootstrap also where the rank test decides */
    double q; /* the interval's statistic: STAT_MEAN, else this quantile
                 (the median and p90 rows: each row its own interval) */
    const struct pr_dstep_pairs *sp; /* the steps a pair of runs compares;
                                        NULL: every step */
};

void
pr_diff_opts_init(struct pr_diff_opts *o)
{
    o->threshold_pct = 5.0;
    o->alpha = 0.05;
    o->min_share_pct = 1.0;
    o->resamples = 2000;
    o->top = 15;
    o->strict = 0;
    o->no_default_gate = 0;
}

/* Per-step samples of side `side` of the pair: durations (cat == NULL)
 * or one breakdown category, of the steps the pair compares (steps paired
 * by number, step_pairs.c).  Steps whose value is missing are left out.
 * *out is owned. */
static enum pr_status
step_samples(const struct plan *p, int side, const cJSON *run, const char *cat,
             double **out, size_t *n, struct pr_error *err)
{
    return pr_dstep_samples(p->sp, side, run, cat, out, n, err);
}

/* A step figure of side `side`: the summary's own (step_summary[key], or
 * its breakdown category cat) when the pair compares every step of the
 * run, else the same statistic (mean for q < 0, else the q-quantile) of
 * the steps it compares, so that both sides are taken over the same step
 * numbers (issue #29). */
static enum pr_status
side_figure(const struct plan *p, int side, const cJSON *run, const char *key,
            const char *cat, double q, double *out, struct pr_error *err)
{
    const cJSON *ss = pr_sget(run, PR_K_STEP_SUMMARY);

    if (p->sp == NULL || pr_dstep_all_kept(p->sp, side)) {
        *out = cat == NULL ? pr_dj_num(ss, key)
                           : pr_dj_num(cJSON_GetObjectItemCaseSensitive(
                                           ss, PR_K_BREAKDOWN_US),
                                       cat);
        return PR_OK;
    }
    return pr_dstep_stat(p->sp, side, run, cat, q, out, err);
}

/* The interval of the change, by the method the plan gives this test
 * (NAN bounds when it cannot be computed: no positive baseline mean);
 * *method receives its name. */
static enum pr_status
interval(const double *a, size_t na, const double *b, size_t nb,
         const struct pr_stats_mwu *m, const struct plan *p,
         struct pr_stats_ci *ci, const char **method, struct pr_error *err)
{
    struct pr_error ignored;
    enum pr_status st;
    int boot = na <= BOOT_MAX_N && nb <= BOOT_MAX_N &&
               (p->info_bootstrap || m->p_min > p->o->alpha);

    pr_error_clear(&ignored);
    *method = boot ? "bootstrap" : "normal";
    if (p->q >= 0)
        st = boot
                 ? pr_stats_bootstrap_q(a, na, b, nb, p->q, p->resamples, 0.95,
                                        PR_STATS_SEED, ci, &ignored)
                 : pr_stats_normal_ci_q(a, na, b, nb, p->q, Z_95, ci, &ignored);
    else if (!(pr_stats_mean(a, na) > 0))
        return PR_OK;
    else
        st = boot ? pr_stats_bootstrap(a, na, b, nb, p->resamples, 0.95,
                                       PR_STATS_SEED, ci, &ignored)
                  : pr_stats_normal_ci(a, na, b, nb, Z_95, ci, &ignored);
    if (st != PR_OK) /* no positive baseline: NAN bounds, as promised */
        ci->lo_pct = ci->hi_pct = NAN;
    return st == PR_E_NOMEM ? NOMEM(err) : PR_OK;
}

/* Is the change significant?  The rank test decides when it can reach
 * alpha with these sample sizes; with fewer steps (p_min > alpha, e.g. 3
 * against 3) the bootstrap interval decides: significant when it excludes
 * zero. */
static enum pr_status
noise_test(cJSON *noise, const double *a, size_t na, const double *b, size_t nb,
           const struct plan *p, struct pr_error *err)
{
    struct pr_stats_mwu m;
    struct pr_stats_ci ci = {NAN, NAN};
    const char *ci_method;
    int sig, ok = 1;
    enum pr_status st = pr_stats_mwu(a, na, b, nb, &m, err);

    if (st == PR_OK)
        st = interval(a, na, b, nb, &m, p, &ci, &ci_method, err);
    if (st != PR_OK)
        return st;
    if (m.p_min <= p->o->alpha) {
        sig = m.p_value < p->o->alpha;
        ok &= cJSON_AddStringToObject(noise, PR_K_METHOD,
                                      m.exact ? "mann-whitney-exact"
                                              : "mann-whitney-normal") != NULL;
    } else {
        sig = ci.lo_pct > 0 || ci.hi_pct < 0;
        ok &= cJSON_AddStringToObject(noise, PR_K_METHOD, "bootstrap") != NULL;
    }
    ok &= pr_dj_add_num(noise, "n_baseline", (double)na);
    ok &= pr_dj_add_num(noise, "n_current", (double)nb);
    ok &= pr_dj_add_num(noise, "u", m.u);
    ok &= pr_dj_add_num(noise, "z", m.z);
    ok &= pr_dj_add_num(noise, "p_value", m.p_value);
    ok &= pr_dj_add_num(noise, "p_min", m.p_min);
    ok &= pr_dj_add_num(noise, "ci_lo_pct", ci.lo_pct);
    ok &= pr_dj_add_num(noise, "ci_hi_pct", ci.hi_pct);
    ok &= cJSON_AddStringToObject(noise, "ci_method", ci_method) != NULL;
    ok &= cJSON_AddStringToObject(noise, "ci_of",
                                  p->q < 0      ? "mean"
                                  : p->q == 0.5 ? "median"
                                                : "p90") != NULL;
    ok &= cJSON_AddBoolToObject(noise, "significant", sig) != NULL;
    return ok ? PR_OK : NOMEM(err);
}

/* "noise" of a metric row from the runs' per-step samples; fewer than two
 * samples on a side means no test: method "none", significant null. */
static enum pr_status
add_noise(cJSON *row, const cJSON *rb, const cJSON *rc, const char *cat,
          const struct plan *p, struct pr_error *err)
{
    double *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    cJSON *noise = cJSON_AddObjectToObject(row, "noise");
    enum pr_status st;

    if (noise == NULL)
        return NOMEM(err);
    st = step_samples(p, 0, rb, cat, &a, &na, err);
    if (st == PR_OK)
        st = step_samples(p, 1, rc, cat, &b, &nb, err);
    if (st == PR_OK && (na < 2 || nb < 2)) {
        if (cJSON_AddStringToObject(noise, PR_K_METHOD, "none") == NULL ||
            !pr_dj_add_num(noise, "n_baseline", (double)na) ||
            !pr_dj_add_num(noise, "n_current", (double)nb) ||
            cJSON_AddNullToObject(noise, "significant") == NULL)
            st = NOMEM(err);
    } else if (st == PR_OK) {
        st = noise_test(noise, a, na, b, nb, p, err);
    }
    free(a);
    free(b);
    return st;
}

/* A metric row with baseline, current and their differences.  device may
 * be NULL (duplicated otherwise).  Returns NULL on out-of-memory. */
static cJSON *
metric_row(cJSON *metrics, const char *name, const cJSON *device,
           const char *unit, double base, double cur)
{
    cJSON *row = cJSON_CreateObject();
    cJSON *dev =
        device != NULL ? cJSON_Duplicate(device, 0) : cJSON_CreateNull();
    int ok = row != NULL && dev != NULL;

    if (ok) {
        cJSON_AddItemToArray(metrics, row);
        ok &= cJSON_AddStringToObject(row, "metric", name) != NULL;
        cJSON_AddItemToObject(row, PR_K_DEVICE, dev);
        dev = NULL;
        ok &= cJSON_AddStringToObject(row, "unit", unit) != NULL;
        ok &= pr_dj_add_num(row, "baseline", base);
        ok &= pr_dj_add_num(row, "current", cur);
        ok &= pr_dj_add_num(row, "delta", cur - base);
        ok &= pr_dj_add_num(row, "delta_pct",
                            base > 0 ? 100.0 * (cur / base - 1.0) : NAN);
    }
    cJSON_Delete(dev);
    return ok ? row : NULL;
}

static enum pr_status
add_step_metrics(cJSON *metrics, const cJSON *rb, const cJSON *rc,
                 const struct plan *o, struct pr_error *err)
{
    static const char *const keys[][2] = {{"step.mean", PR_K_MEAN_US},
                                          {"step.median", PR_K_MEDIAN_US},
                                          {"step.p90", PR_K_P90_US}};
    static const double stat[] = {STAT_MEAN, 0.5, 0.9};
    size_t i;

    for (i = 0; i < 3; i++) {
        struct plan own = *o;
        double x = NAN, y = NAN;
        cJSON *row;
        enum pr_status st =
            side_figure(o, 0, rb, keys[i][1], NULL, stat[i], &x, err);
        if (st == PR_OK)
            st = side_figure(o, 1, rc, keys[i][1], NULL, stat[i], &y, err);
        if (st != PR_OK)
            return st;
        row = metric_row(metrics, keys[i][0], NULL, "us", x, y);
        if (row == NULL)
            return NOMEM(err);
        own.q = stat[i];
        st = add_noise(row, rb, rc, NULL, &own, err);
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

/* A run's collectives' whole time per step, hidden under compute or not:
 * its communication split's communication (collective time alone) plus
 * overlap (collectives beside compute kernels); NAN where the run has no
 * such split. */
static double
comm_total(const cJSON *run)
{
    const cJSON *c = pr_sget(run, PR_K_COMMUNICATION);

    return pr_sget_num(c, PR_K_COMMUNICATION_US) +
           pr_sget_num(c, PR_K_OVERLAP_US);
}

/* Issue #29: breakdown.communication is the exposed part on both sides
 * (each breakdown part is the time the parts before it, kernel first,
 * leave): the row carries both runs' total collective time per step, so
 * that the reports say which of the two it compares and give the other
 * (HTA trace_diff: exposed 14.4 -> 9.59 ms while the total rose 27.3 ->
 * 36.6 ms, kernels hiding more of it).  Only where the pair compares every
 * step of both runs: the totals are the runs' means. */
static int
comm_totals(cJSON *row, const cJSON *rb, const cJSON *rc, const struct plan *o)
{
    double x = comm_total(rb), y = comm_total(rc);

    if (o->sp != NULL &&
        (!pr_dstep_all_kept(o->sp, 0) || !pr_dstep_all_kept(o->sp, 1)))
        return 1;
    if (!isfinite(x) || !isfinite(y))
        return 1;
    return pr_dj_add_num(row, "total_baseline_us", x) &&
           pr_dj_add_num(row, "total_current_us", y);
}

static enum pr_status
add_breakdown_metrics(cJSON *metrics, const cJSON *rb, const cJSON *rc,
                      const struct plan *o, struct pr_error *err)
{
    char name[64];
    size_t i;

    for (i = 0; i < N_CATEGORIES; i++) {
        double x = NAN, y = NAN;
        cJSON *row;
        enum pr_status st =
            side_figure(o, 0, rb, NULL, categories[i], STAT_MEAN, &x, err);
        if (st == PR_OK)
            st = side_figure(o, 1, rc, NULL, categories[i], STAT_MEAN, &y, err);
        if (st != PR_OK)
            return st;
        snprintf(name, sizeof(name), "breakdown.%s", categories[i]);
        row = metric_row(metrics, name, NULL, "us", x, y);
        if (row == NULL || (strcmp(categories[i], PR_K_COMMUNICATION) == 0 &&
                            !comm_totals(row, rb, rc, o)))
            return NOMEM(err);
        st = add_noise(row, rb, rc, categories[i], o, err);
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

static int
same_device(const cJSON *a, const cJSON *b)
{
    if (cJSON_IsNumber(a) && cJSON_IsNumber(b))
        return a->valuedouble == b->valuedouble;
    if (cJSON_IsString(a) && cJSON_IsString(b))
        return strcmp(a->valuestring, b->valuestring) == 0;
    return 0;
}

static const cJSON *
find_device(const cJSON *arr, const cJSON *dev)
{
    const cJSON *e;

    cJSON_ArrayForEach(e, arr)
    {
        if (same_device(pr_sget(e, PR_K_DEVICE), dev))
            return e;
    }
    return NULL;
}

/* A solo pair of two devices with different ids (GPU 3 last night, GPU
 * 1 tonight): the row names the current one too, so "GPU 3" does not
 * label a figure of GPU 1.  0 on out-of-memory. */
static int
pair_label(cJSON *row, const cJSON *dev, const cJSON *peer)
{
    const cJSON *pdev = pr_sget(peer, PR_K_DEVICE);

    if (peer == NULL || pdev == NULL || same_device(dev, pdev))
        return 1;
    return cJSON_AddItemToObject(row, "device_current",
                                 cJSON_Duplicate(pdev, 0));
}

/* One row per device and figure of two per-device arrays (gpu_metrics,
 * memory.devices): baseline devices first, then devices only current
 * has. */
/* The achieved occupancy of a device is a mean over the kernels whose
 * occupancy is known: one that leaves out more than OCC_UNKNOWN_MAX% of
 * its kernel time (runs[].gpu_metrics[].occupancy_unknown_kernel_pct) is
 * a mean over another set of kernels than its peer's, so the row is not
 * compared (review26g: 14% left out on one side, none on the other).
 * 0 on out-of-memory. */
#define OCC_UNKNOWN_MAX 5.0
static int
occupancy_basis(cJSON *row, const char *metric, const cJSON *b, const cJSON *c)
{
    double ub = pr_dj_num(b, PR_K_OCCUPANCY_UNKNOWN_KERNEL_PCT);
    double uc = pr_dj_num(c, PR_K_OCCUPANCY_UNKNOWN_KERNEL_PCT);
    char why[200];

    if (strcmp(metric, "gpu.occupancy") != 0 ||
        !((isfinite(ub) && ub > OCC_UNKNOWN_MAX) ||
          (isfinite(uc) && uc > OCC_UNKNOWN_MAX)))
        return 1;
    snprintf(why, sizeof(why),
             "occupancy unknown for part of the kernel time: the means "
             "leave out %.0f%% (baseline) and %.0f%% (current) of it",
             isfinite(ub) ? ub : 0.0, isfinite(uc) ? uc : 0.0);
    /* the shares themselves, for the note under the figures (review 27
       #6: which side, how much) */
    return cJSON_AddFalseToObject(row, "comparable") != NULL &&
           cJSON_AddStringToObject(row, "not_comparable", why) != NULL &&
           pr_dj_add_num(row, "occupancy_unknown_baseline_pct",
                         isfinite(ub) ? ub : 0.0) &&
           pr_dj_add_num(row, "occupancy_unknown_current_pct",
                         isfinite(uc) ? uc : 0.0);
}

/* A utilization row carries each run's own note on it (gpu_metrics[].
 * note: "utilization counts HCCL tasks as busy: of 96.7% busy, all is
 * HCCL tasks", review 27 #10b), as "note_baseline" and "note_current";
 * 0 on out-of-memory. */
static int
utilization_notes(cJSON *row, const char *metric, const cJSON *b,
                  const cJSON *c)
{
    const char *nb = pr_dj_str(b, PR_K_NOTE), *nc = pr_dj_str(c, PR_K_NOTE);

    if (strcmp(metric, "gpu.utilization") != 0)
        return 1;
    return (nb == NULL ||
            cJSON_AddStringToObject(row, "note_baseline", nb) != NULL) &&
           (nc == NULL ||
            cJSON_AddStringToObject(row, "note_current", nc) != NULL);
}

static enum pr_status
add_device_metrics(cJSON *metrics, const cJSON *ab, const cJSON *ac,
                   const char *const (*fig)[2], size_t n_fig, const char *unit,
                   struct pr_error *err)
{
    const cJSON *e;
    size_t i;
    int pass;
    /* one device a side pairs whatever its id: rank 3 on GPU3 last night
       and rank 1 on GPU1 tonight are the same job's device */
    int solo = cJSON_GetArraySize(ab) == 1 && cJSON_GetArraySize(ac) == 1;

    for (pass = 0; pass < 2; pass++) {
        const cJSON *mine = pass == 0 ? ab : ac, *other = pass == 0 ? ac : ab;
        cJSON_ArrayForEach(e, mine)
        {
            const cJSON *dev = pr_sget(e, PR_K_DEVICE);
            const cJSON *peer =
                solo ? cJSON_GetArrayItem(other, 0) : find_device(other, dev);
            if (pass == 1 && peer != NULL)
                continue; /* already paired in pass 0 */
            for (i = 0; i < n_fig; i++) {
                double x = pr_dj_num(e, fig[i][1]);
                double y = pr_dj_num(peer, fig[i][1]);
                cJSON *row = metric_row(metrics, fig[i][0], dev, unit,
                                        pass == 0 ? x : y, pass == 0 ? y : x);
                if (row == NULL || !pair_label(row, dev, peer) ||
                    !occupancy_basis(row, fig[i][0], pass == 0 ? e : peer,
                                     pass == 0 ? peer : e) ||
                    !utilization_notes(row, fig[i][0], pass == 0 ? e : peer,
                                       pass == 0 ? peer : e))
                    return NOMEM(err);
            }
        }
    }
    return PR_OK;
}

static enum pr_status
add_hardware_metrics(cJSON *metrics, const cJSON *rb, const cJSON *rc,
                     struct pr_error *err)
{
    static const char *const gpu[][2] = {
        {"gpu.utilization", PR_K_UTILIZATION_PCT},
        {"gpu.sm_efficiency", PR_K_EST_SM_EFFICIENCY_PCT},
        {"gpu.occupancy", PR_K_EST_ACHIEVED_OCCUPANCY_PCT}};
    static const char *const mem[][2] = {
        {"memory.peak", PR_K_PEAK_ALLOCATED_BYTES}};
    const cJSON *mb = pr_sget(rb, PR_K_MEMORY);
    const cJSON *mc = pr_sget(rc, PR_K_MEMORY);
    enum pr_status st;

    st = add_device_metrics(metrics, pr_sget(rb, PR_K_GPU_METRICS),
                            pr_sget(rc, PR_K_GPU_METRICS), gpu, 3, "pct", err);
    if (st == PR_OK)
        st =
            add_device_metrics(metrics, pr_sget(mb, PR_K_DEVICES),
                               pr_sget(mc, PR_K_DEVICES), mem, 1, "bytes", err);
    if (st == PR_OK && metric_row(metrics, "tc.share", NULL, "pct",
                                  pr_dj_num(pr_sget(rb, PR_K_TENSOR_CORES),
                                            PR_K_TC_KERNEL_TIME_PCT),
                                  pr_dj_num(pr_sget(rc, PR_K_TENSOR_CORES),
                                            PR_K_TC_KERNEL_TIME_PCT)) == NULL)
        st = NOMEM(err);
    return st;
}

/* The per-step series a chart shows side by side: durations and the mean
 * breakdown of each run, over the steps the pair compares. */
static enum pr_status
add_series(cJSON *out, const cJSON *rb, const cJSON *rc, const struct plan *p,
           struct pr_error *err)
{
    const char *keys[2] = {"steps_baseline_us", "steps_current_us"};
    const cJSON *runs[2] = {rb, rc};
    cJSON *bd = cJSON_AddArrayToObject(out, "breakdown");
    size_t i;
    int k;

    if (bd == NULL)
        return NOMEM(err);
    for (k = 0; k < 2; k++) {
        double *v = NULL;
        size_t n = 0;
        cJSON *arr;
        if (step_samples(p, k, runs[k], NULL, &v, &n, err) != PR_OK)
            return NOMEM(err);
        arr = cJSON_CreateDoubleArray(v, (int)n);
        free(v);
        if (arr == NULL)
            return NOMEM(err);
        cJSON_AddItemToObject(out, keys[k], arr);
    }
    for (i = 0; i < N_CATEGORIES; i++) {
        cJSON *row = cJSON_CreateObject();
        double x[2] = {NAN, NAN};
        if (row == NULL)
            return NOMEM(err);
        cJSON_AddItemToArray(bd, row);
        for (k = 0; k < 2; k++)
            if (side_figure(p, k, runs[k], NULL, categories[i], STAT_MEAN,
                            &x[k], err) != PR_OK)
                return err->code;
        if (cJSON_AddStringToObject(row, "category", categories[i]) == NULL ||
            !pr_dj_add_num(row, "baseline", x[0]) ||
            !pr_dj_add_num(row, "current", x[1]))
            return NOMEM(err);
    }
    return PR_OK;
}

/* The runs of each side of a comparison, to name a run by its worker and,
 * where one worker has several runs (spans), its span; and where their
 * whole forms are when they are lite runs of merged summaries (NULL:
 * whole). */
/* The warm-up first steps the pairs left out (review 27 #10a): per side,
 * the runs that lost theirs, and the longest such step with its run and
 * the median of that run's other steps, for the note that says so. */
struct warm {
    size_t n[2];
    double first_us, median_us;
    char run[256];
};

struct sides_runs {
    const cJSON *b, *c;
    struct pr_merge *mb, *mc;
    /* each side's runs (by index) whose first step its job leaves out
       (job.per_rank[].first_step_excluded); NULL: none */
    const unsigned char *drop_b, *drop_c;
    struct warm *warm;
};

/* The pair of runs lb and lc (as the summaries hold them, for their
 * names), whose whole forms are rb and rc. */
/* Leave out side k's first step where its job does (drop), with the
 * longest such step in all->warm.  Errors: PR_E_NOMEM. */
static enum pr_status
drop_warmup(struct pr_dstep_pairs *sp, int k, int drop, const cJSON *run,
            const char *name, const struct sides_runs *all,
            struct pr_error *err)
{
    double first, med = NAN;
    enum pr_status st;

    if (!drop || sp->n[k] < 2)
        return PR_OK;
    sp->drop_first[k] = 1;
    all->warm->n[k]++;
    first = pr_sget_num(cJSON_GetArrayItem(pr_sget(run, PR_K_STEPS), 0),
                        PR_K_DURATION_US);
    if (!(first > all->warm->first_us))
        return PR_OK;
    st = pr_dstep_stat(sp, k, run, NULL, 0.5, &med, err);
    if (st != PR_OK)
        return st;
    all->warm->first_us = first;
    all->warm->median_us = med;
    snprintf(all->warm->run, sizeof(all->warm->run), "%s", name);
    return PR_OK;
}

static enum pr_status
compare_runs(cJSON *diff, cJSON *runs, const cJSON *lb, const cJSON *lc,
             const cJSON *rb, const cJSON *rc, const struct sides_runs *all,
             const int drop[2], const struct plan *o, struct pr_error *err)
{
    cJSON *pair = cJSON_CreateObject(), *metrics, *rank;
    struct pr_dstep_pairs sp;
    struct plan pl = *o;
    char wb[256], wc[256];
    enum pr_status st;

    if (pair == NULL)
        return NOMEM(err);
    cJSON_AddItemToArray(runs, pair);
    rank = cJSON_Duplicate(pr_sget(rb, PR_K_RANK), 0);
    if (rank == NULL)
        rank = cJSON_CreateNull();
    if (rank == NULL)
        return NOMEM(err);
    cJSON_AddItemToObject(pair, PR_K_RANK, rank);
    pr_sget_run_name(all->b, lb, wb, sizeof(wb));
    pr_sget_run_name(all->c, lc, wc, sizeof(wc));
    if (cJSON_AddStringToObject(pair, "baseline", wb) == NULL ||
        cJSON_AddStringToObject(pair, "current", wc) == NULL)
        return NOMEM(err);
    metrics = cJSON_AddArrayToObject(pair, "metrics");
    if (metrics == NULL)
        return NOMEM(err);
    st = pr_dstep_pair(rb, rc, &sp, err);
    /* steps paired by number against a run of the program's first
       iteration alone: the pair is that first step on both sides, like
       for like, which no warm-up rule leaves out (review32a #2; where the
       steps are not paired by number compat.c's check_first_only marks
       the rows not compared) */
    if (st == PR_OK)
        st = drop_warmup(
            &sp, 0,
            drop[0] && !(sp.by_number && pr_sget_run_first_iteration_only(rc)),
            rb, wb, all, err);
    if (st == PR_OK)
        st = drop_warmup(
            &sp, 1,
            drop[1] && !(sp.by_number && pr_sget_run_first_iteration_only(rb)),
            rc, wc, all, err);
    pl.sp = &sp;
    if (st == PR_OK)
        st = add_step_metrics(metrics, rb, rc, &pl, err);
    if (st == PR_OK)
        st = add_breakdown_metrics(metrics, rb, rc, &pl, err);
    if (st == PR_OK)
        st = add_hardware_metrics(metrics, rb, rc, err);
    if (st == PR_OK)
        st = pr_drates_pair(metrics, rb, rc, err);
    if (st == PR_OK)
        st = pr_dcollectives_pair(pair, rb, rc, err);
    if (st == PR_OK)
        st = add_series(pair, rb, rc, &pl, err);
    if (st == PR_OK)
        st = pr_dcompat_pair(diff, pair, rb, rc, &sp, err);
    pr_dstep_pairs_free(&sp);
    return st;
}

static enum pr_status
add_unmatched(cJSON *um, const cJSON *const *runs, size_t n, const cJSON *all,
              const unsigned char *taken, const char *side,
              struct pr_error *err)
{
    cJSON *arr = cJSON_AddArrayToObject(um, side);
    char w[256];
    size_t i;

    if (arr == NULL)
        return NOMEM(err);
    for (i = 0; i < n; i++) {
        if (!taken[i] &&
            !cJSON_AddItemToArray(arr, cJSON_CreateString(pr_sget_run_name(
                                           all, runs[i], w, sizeof(w)))))
            return NOMEM(err);
    }
    return PR_OK;
}

/* The noise tests' plan (struct plan): count the samples the tests of the
 * paired runs would resample (11 figures a pair, the steps of each side
 * as the sample size; the median and p90 count QUANTILE_COST figures each,
 * as their resample also walks its counts) and choose the resamples
 * within the budget. */
static struct plan
make_plan(const struct pr_dpairs *p, const struct pr_diff_opts *o)
{
    struct plan pl = {o, o->resamples, 1, STAT_MEAN, NULL};
    double all = 0, need = 0;
    size_t i;

    for (i = 0; i < p->nb; i++) {
        size_t na, nb;
        double w;
        if (p->with[i] == SIZE_MAX)
            continue;
        na = (size_t)cJSON_GetArraySize(pr_sget(p->b[i], PR_K_STEPS));
        nb = (size_t)cJSON_GetArraySize(pr_sget(p->c[p->with[i]], PR_K_STEPS));
        if (na < 2 || nb < 2 || na > BOOT_MAX_N || nb > BOOT_MAX_N)
            continue;
        w = (double)(na + nb) * (1 + 2 * QUANTILE_COST + N_CATEGORIES);
        all += w;
        if (pr_stats_p_min(na, nb) > o->alpha)
            need += w;
    }
    if ((double)o->resamples * all <= BOOT_BUDGET)
        return pl;
    pl.info_bootstrap = 0;
    if (need > 0 && (double)o->resamples * need > BOOT_BUDGET)
        pl.resamples = (size_t)fmax(BOOT_MIN_RESAMPLES, BOOT_BUDGET / need);
    return pl;
}

/* The whole form of `run`: itself, or when it is a lite run of the
 * merge m (merge.h) its whole run read again, valid until the next call
 * on m. */
static enum pr_status
whole_run(struct pr_merge *m, const cJSON *run, const cJSON **full,
          struct pr_error *err)
{
    enum pr_status st = PR_OK;

    *full = NULL;
    if (m != NULL)
        st = pr_merge_run(m, run, full, err);
    if (*full == NULL)
        *full = run;
    return st;
}

/* Compare every pair of runs, each pair read whole (one run of each side
 * at a time when they are lite); list the runs that paired with none. */
static enum pr_status
compare_all_runs(cJSON *diff, const struct pr_dpairs *p,
                 const struct sides_runs *all, const struct plan *pl,
                 struct pr_error *err)
{
    cJSON *runs = cJSON_AddArrayToObject(diff, PR_K_RUNS);
    cJSON *um = cJSON_AddObjectToObject(diff, "runs_unmatched");
    unsigned char *tb = calloc(p->nb + 1, 1);
    const cJSON *rb, *rc;
    enum pr_status st = PR_OK;
    size_t i;

    if (tb == NULL || runs == NULL || um == NULL)
        st = NOMEM(err);
    for (i = 0; i < p->nb && st == PR_OK; i++) {
        if (p->with[i] == SIZE_MAX)
            continue;
        tb[i] = 1;
        st = whole_run(all->mb, p->b[i], &rb, err);
        if (st == PR_OK)
            st = whole_run(all->mc, p->c[p->with[i]], &rc, err);
        if (st == PR_OK) {
            int drop[2] = {all->drop_b != NULL && all->drop_b[i],
                           all->drop_c != NULL && all->drop_c[p->with[i]]};
            st = compare_runs(diff, runs, p->b[i], p->c[p->with[i]], rb, rc,
                              all, drop, pl, err);
        }
    }
    if (st == PR_OK)
        st = add_unmatched(um, p->b, p->nb, all->b, tb, "baseline", err);
    if (st == PR_OK)
        st = add_unmatched(um, p->c, p->nc, all->c, p->taken_c, "current", err);
    free(tb);
    return st;
}

/* A typed table's row as the fold takes it: name, shapes, value, calls. */
struct fold_row {
    const char *name, *shapes;
    double value, calls;
};

static void
op_row(const void *row, struct fold_row *out)
{
    const struct pr_row_operator *r = row;

    *out =
        (struct fold_row){r->name, NULL, r->device_self_us, (double)r->calls};
}

static void
op_shape_row(const void *row, struct fold_row *out)
{
    const struct pr_row_operator_shape *r = row;

    *out = (struct fold_row){r->name, r->input_shapes, r->device_self_us,
                             (double)r->calls};
}

static void
kernel_row(const void *row, struct fold_row *out)
{
    const struct pr_row_kernel *r = row;

    *out = (struct fold_row){r->name, NULL, r->total_us, (double)r->calls};
}

static void
source_row(const void *row, struct fold_row *out)
{
    const struct pr_row_source *r = row;

    *out =
        (struct fold_row){r->location, NULL, (double)r->device_self_ns / 1000.0,
                          (double)r->calls};
}

/* The tables of the runs compared (diff.h): where each is in a run, the
 * column that names and the column that values its rows; a typed table
 * (rows.h) is read as its rows, the others by those keys. */
static const struct {
    const char *key, *name_key, *value_key;
    int by_shape;
    enum pr_rows_object ro; /* PR_RO_N: not typed */
    void (*row)(const void *row, struct fold_row *out);
} tables[] = {
    {PR_K_OPERATORS, PR_K_NAME, PR_K_DEVICE_SELF_US, 0, PR_RO_RUNS_OPERATORS,
     op_row},
    {PR_K_OPERATORS_BY_SHAPE, PR_K_NAME, PR_K_DEVICE_SELF_US, 1,
     PR_RO_RUNS_OPERATORS_BY_SHAPE, op_shape_row},
    {PR_K_KERNELS, PR_K_NAME, PR_K_TOTAL_US, 0, PR_RO_RUNS_KERNELS, kernel_row},
    /* issue #16: a regression points at a line of code and a module */
    {PR_K_SOURCES, PR_K_LOCATION, PR_K_DEVICE_SELF_US, 0, PR_RO_RUNS_SOURCES,
     source_row},
    {PR_K_MODULES, PR_K_PATH, PR_K_DEVICE_TOTAL_US, 0, PR_RO_N, NULL},
};

#define N_TABLES (sizeof(tables) / sizeof(tables[0]))

struct side {
    const cJSON *sum;
    struct pr_merge *m; /* its runs are lite runs of m; NULL: whole */
    struct pr_match_fold *fold[N_TABLES]; /* owned: the runs' tables */
    double steps;                         /* all steps of all runs */
    double step_mean_us; /* mean over runs of the mean step time */
    int capture;         /* every run has no steps: its one "step" is the
                            profiler's window (step_summary.basis) */
    cJSON *comm;         /* owned, captures only: {"k:"/"o:" name: [{run, calls,
                            us}] of each run in order}: communication rows */
    cJSON *mix;          /* owned, captures only: {"k:" kernel or "o:" operator:
                            the largest max/min of a call's time over its kernels} */
};

static void
side_init(struct side *s, const cJSON *sum, struct pr_merge *m)
{
    const cJSON *runs = pr_sget(sum, PR_K_RUNS), *r;
    double total = 0, n = 0;

    memset(s, 0, sizeof(*s));
    s->sum = sum;
    s->m = m;
    s->capture = cJSON_GetArraySize(runs) > 0;
    cJSON_ArrayForEach(r, runs)
    {
        int k = cJSON_GetArraySize(pr_sget(r, PR_K_STEPS));
        double mean = pr_dj_num(pr_sget(r, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
        s->capture &= pr_sget_run_is_capture(r);
        s->steps += k > 0 ? k : 1; /* a trace without steps is one step */
        if (isfinite(mean)) {
            total += mean;
            n++;
        }
    }
    s->step_mean_us = n > 0 ? total / n : NAN;
}

static void
side_free(struct side *s)
{
    size_t k;

    for (k = 0; k < N_TABLES; k++)
        pr_match_fold_free(s->fold[k]);
    cJSON_Delete(s->mix);
    cJSON_Delete(s->comm);
}

/* A communication kernel or operator (NCCL/HCCL collectives, c10d): its
 * calls last until the peer arrives (review 23g #5). */
static int
is_comm(const char *name)
{
    return name != NULL &&
           (strstr(name, "nccl") != NULL || strstr(name, "NCCL") != NULL ||
            strstr(name, "hccl") != NULL || strstr(name, "HCCL") != NULL ||
            strncmp(name, "c10d::", 6) == 0);
}

/* One run's calls and time of a communication row, appended to
 * s->comm[prefix name]. */
static int
comm_put(struct side *s, const char *prefix, const char *name,
         const char *worker, double calls, double us)
{
    char key[1100];
    cJSON *arr, *o;

    snprintf(key, sizeof(key), "%s%.1000s", prefix, name);
    arr = cJSON_GetObjectItemCaseSensitive(s->comm, key);
    if (arr == NULL && (arr = cJSON_AddArrayToObject(s->comm, key)) == NULL)
        return 0;
    o = cJSON_CreateObject();
    if (o == NULL || !cJSON_AddItemToArray(arr, o))
        return 0;
    return cJSON_AddStringToObject(o, PR_K_RUN, worker ? worker : "?") !=
               NULL &&
           pr_dj_add_num(o, PR_K_CALLS, calls) && pr_dj_add_num(o, PR_K_US, us);
}

/* Calls of one kernel this many times apart (its longest over its
 * shortest) are of different kinds: the mean per call of a capture moves
 * with which calls the window's edges cut (review 23g #1). */
#define MIX_RATIO 10.0

static int
mix_put(cJSON *mix, const char *prefix, const char *name, double ratio)
{
    char key[1100];
    cJSON *had;

    snprintf(key, sizeof(key), "%s%.1000s", prefix, name);
    had = cJSON_GetObjectItemCaseSensitive(mix, key);
    if (had != NULL) {
        if (ratio > had->valuedouble)
            cJSON_SetNumberValue(had, ratio);
        return 1;
    }
    return cJSON_AddNumberToObject(mix, key, ratio) != NULL;
}

/* The spread of the calls of run's kernels, each kernel's and the
 * largest of an operator's kernels, into s->mix. */
static enum pr_status
mix_run(struct side *s, const cJSON *run, struct pr_error *err)
{
    const cJSON *k;

    const char *worker = pr_sget_str(run, PR_K_WORKER);

    if (s->mix == NULL && (s->mix = cJSON_CreateObject()) == NULL)
        return NOMEM(err);
    if (s->comm == NULL && (s->comm = cJSON_CreateObject()) == NULL)
        return NOMEM(err);
    cJSON_ArrayForEach(k, pr_sget(run, PR_K_OPERATORS))
    {
        const char *name = pr_sget_str(k, PR_K_NAME);
        if (is_comm(name) &&
            !comm_put(s, "o:", name, worker, pr_sget_num(k, PR_K_CALLS),
                      pr_sget_num(k, PR_K_DEVICE_SELF_US)))
            return NOMEM(err);
    }
    cJSON_ArrayForEach(k, pr_sget(run, PR_K_KERNELS))
    {
        double lo = pr_sget_num(k, PR_K_MIN_US),
               hi = pr_sget_num(k, PR_K_MAX_US);
        const char *name = pr_sget_str(k, PR_K_NAME);
        const char *op = pr_sget_str(k, PR_K_OPERATOR);
        double ratio;

        if (name == NULL || !(lo > 0) || !isfinite(hi))
            continue;
        if (is_comm(name) &&
            !comm_put(s, "k:", name, worker, pr_sget_num(k, PR_K_CALLS),
                      pr_sget_num(k, PR_K_TOTAL_US)))
            return NOMEM(err);
        ratio = hi / lo;
        if (!mix_put(s->mix, "k:", name, ratio) ||
            (op != NULL && !mix_put(s->mix, "o:", op, ratio)) ||
            !mix_put(s->mix, "K:", name, hi - lo) ||
            (op != NULL && !mix_put(s->mix, "O:", op, hi - lo)))
            return NOMEM(err);
    }
    return PR_OK;
}

/* Table k of one run into fold f: its typed rows, or its rows by key. */
static enum pr_status
fold_table(struct pr_match_fold *f, size_t k, const cJSON *run,
           struct pr_error *err)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(run, tables[k].key);
    const struct pr_rows_objinfo *o = pr_rows_object(tables[k].ro);
    void *rows = NULL;
    size_t n = 0, i;
    enum pr_status st;

    if (o == NULL || !cJSON_IsArray(arr))
        return pr_match_fold_add(f, arr, err);
    st = pr_rows_load(arr, tables[k].key, tables[k].ro, &rows, &n, err);
    for (i = 0; i < n && st == PR_OK; i++) {
        struct fold_row r;

        tables[k].row((const char *)rows + i * o->size, &r);
        st = pr_match_fold_put(f, r.name, r.shapes, r.value, r.calls, err);
    }
    free(rows);
    return st;
}

/* Every table of every run of the side summed by key, each run read
 * whole once (pr_match_fold): a side of many lite runs never holds all
 * of their tables. */
static enum pr_status
side_fold(struct side *s, struct pr_error *err)
{
    const cJSON *r, *full;
    size_t k;
    enum pr_status st = PR_OK;

    for (k = 0; k < N_TABLES; k++) {
        s->fold[k] = pr_match_fold_new(tables[k].name_key, tables[k].value_key,
                                       tables[k].by_shape);
        if (s->fold[k] == NULL)
            return NOMEM(err);
    }
    cJSON_ArrayForEach(r, pr_sget(s->sum, PR_K_RUNS))
    {
        st = whole_run(s->m, r, &full, err);
        for (k = 0; k < N_TABLES && st == PR_OK; k++)
            st = fold_table(s->fold[k], k, full, err);
        if (st == PR_OK && s->capture)
            st = mix_run(s, full, err);
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

static int
cmp_row(const void *pa, const void *pb)
{
    const struct pr_match_row *a = pa, *b = pb;
    double da = fabs(a->cur - a->base), db = fabs(b->cur - b->base);
    int c;

    if (da != db)
        return da > db ? -1 : 1;
    c = strcmp(a->name, b->name);
    if (c != 0 || a->shapes == NULL || b->shapes == NULL)
        return c != 0 ? c : (a->shapes != NULL) - (b->shapes != NULL);
    return strcmp(a->shapes, b->shapes);
}

static double
share(double v, double step_us)
{
    return step_us > 0 ? 100.0 * v / step_us : NAN;
}

/* Time per call of one side of a row (0 on the side it is absent; NAN
 * for time without a call count). */
static double
per_call(int in, double us, double calls)
{
    if (!in)
        return 0;
    return calls > 0 ? us / calls : NAN;
}

/* The rows of two sides without steps (both `capture`), compared per
 * call: the time a change per call is worth over the calls of the larger
 * side, the largest first, so that a kernel that got slower per call
 * leads and one that merely ran fewer times in the window is no change
 * (review 22g #1). */
static double
per_call_weight(const struct pr_match_row *r)
{
    double b = per_call(r->in_base, r->base, r->calls_base);
    double c = per_call(r->in_cur, r->cur, r->calls_cur);
    double calls = fmax(r->calls_base, r->calls_cur);

    if (!r->in_base || !r->in_cur)
        return r->base + r->cur; /* new or vanished: its whole time */
    return isfinite(b) && isfinite(c) ? fabs(c - b) * calls : 0;
}

static int
cmp_row_call(const void *pa, const void *pb)
{
    const struct pr_match_row *a = pa, *b = pb;
    double da = per_call_weight(a), db = per_call_weight(b);

    if (da != db)
        return da > db ? -1 : 1;
    return cmp_row(pa, pb);
}

/* A row of a change list: its time per step (per_call 0), or, for two
 * sides without steps, its mean time per call (per: "call"), with the
 * time per capture beside it (baseline_total_us, current_total_us); a
 * row with time but no call count is then not compared. */
/* The larger spread of row name's calls (mix_run) on either side; 0
 * when neither side has it. */
static double
mix_of(const struct side *b, const struct side *c, const char *prefix,
       const char *name)
{
    char key[1100];
    double x = 0, y = 0;

    if (prefix == NULL)
        return 0;
    snprintf(key, sizeof(key), "%s%.1000s", prefix, name);
    x = pr_dj_num(b->mix, key);
    y = pr_dj_num(c->mix, key);
    return fmax(isfinite(x) ? x : 0, isfinite(y) ? y : 0);
}

/* A communication row of two captures: each run pair's change per call
 * (the runs paired in order) as o["per_run"], and into why, when one
 * run's time per call rose by 10% or more while another's fell as much,
 * the words for it: the kernel waits for its peer, so this is the late
 * rank moving, not the link (review 23g #5).  0 on out-of-memory. */
static int
comm_runs(cJSON *o, const struct side *b, const struct side *c,
          const char *prefix, const char *name, char *why, size_t n)
{
    char key[1100], part[200];
    const cJSON *ab, *ac;
    cJSON *arr;
    int i, len, up = 0, down = 0;
    size_t at = 0;

    why[0] = '\0';
    if (prefix == NULL || !is_comm(name))
        return 1;
    snprintf(key, sizeof(key), "%s%.1000s", prefix, name);
    ab = cJSON_GetObjectItemCaseSensitive(b->comm, key);
    ac = cJSON_GetObjectItemCaseSensitive(c->comm, key);
    len = cJSON_GetArraySize(ab);
    if (len < 2 || len != cJSON_GetArraySize(ac))
        return 1;
    arr = cJSON_AddArrayToObject(o, "per_run");
    if (arr == NULL)
        return 0;
    at = (size_t)snprintf(why, n, "peer wait: per call by run (in order),");
    for (i = 0; i < len; i++) {
        const cJSON *x = cJSON_GetArrayItem(ab, i),
                    *y = cJSON_GetArrayItem(ac, i);
        double xc = pr_dj_num(x, PR_K_CALLS), yc = pr_dj_num(y, PR_K_CALLS);
        double xu = xc > 0 ? pr_dj_num(x, PR_K_US) / xc : NAN;
        double yu = yc > 0 ? pr_dj_num(y, PR_K_US) / yc : NAN;
        double pct = xu > 0 ? 100.0 * (yu / xu - 1.0) : NAN;
        cJSON *e = cJSON_CreateObject();
        if (e == NULL || !cJSON_AddItemToArray(arr, e) ||
            cJSON_AddStringToObject(e, "baseline", pr_dj_str(x, PR_K_RUN)) ==
                NULL ||
            cJSON_AddStringToObject(e, "current", pr_dj_str(y, PR_K_RUN)) ==
                NULL ||
            !pr_dj_add_num(e, "calls_baseline", xc) ||
            !pr_dj_add_num(e, "calls_current", yc) ||
            !pr_dj_add_num(e, "baseline_us", xu) ||
            !pr_dj_add_num(e, "current_us", yu) ||
            !pr_dj_add_num(e, "delta_pct", pct))
            return 0;
        up += pct >= 10;
        down += pct <= -10;
        snprintf(part, sizeof(part), "%s %s %.0f -> %.0f µs (%+.0f%%)",
                 i > 0 ? ";" : "", pr_dj_str(y, PR_K_RUN), xu, yu, pct);
        if (at < n)
            at += (size_t)snprintf(why + at, n - at, "%s", part);
    }
    if (!(up > 0 && down > 0)) {
        why[0] = '\0';
        return 1;
    }
    if (at < n)
        snprintf(why + at, n - at,
                 ": a communication call lasts until its peer arrives, so a "
                 "rise on one rank with a fall on another is imbalance (the "
                 "late rank moved), not bandwidth");
    return 1;
}

static cJSON *
table_row(const struct pr_match_row *r, const struct side *b,
          const struct side *c, int by_call, const char *mix_prefix)
{
    cJSON *o = cJSON_CreateObject();
    const char *status = r->in_base && r->in_cur ? "both"
                         : r->in_base            ? "vanished"
                                                 : "new";
    double x = by_call ? per_call(r->in_base, r->base, r->calls_base) : r->base;
    double y = by_call ? per_call(r->in_cur, r->cur, r->calls_cur) : r->cur;
    int ok = o != NULL;

    ok = ok && cJSON_AddStringToObject(o, PR_K_NAME, r->name) != NULL;
    if (ok && r->shapes != NULL)
        ok = cJSON_AddStringToObject(o, PR_K_INPUT_SHAPES, r->shapes) != NULL;
    ok = ok && cJSON_AddStringToObject(o, "status", status) != NULL;
    ok = ok && pr_dj_add_num(o, "baseline_us", x);
    ok = ok && pr_dj_add_num(o, "current_us", y);
    ok = ok && pr_dj_add_num(o, "delta_us", y - x);
    ok = ok &&
         pr_dj_add_num(o, "delta_pct", x > 0 ? 100.0 * (y / x - 1.0) : NAN);
    if (ok && by_call) {
        ok = cJSON_AddStringToObject(o, "per", "call") != NULL &&
             pr_dj_add_num(o, "baseline_total_us", r->base) &&
             pr_dj_add_num(o, "current_total_us", r->cur);
        double mix = mix_of(b, c, mix_prefix, r->name);
        /* one call at an edge: the span of a kernel's calls over the
           fewer calls of a run */
        double edge = mix_of(b, c,
                             mix_prefix == NULL     ? NULL
                             : mix_prefix[0] == 'k' ? "K:"
                                                    : "O:",
                             r->name) /
                      fmax(1.0, fmin(r->calls_base, r->calls_cur));
        char wait[700];
        ok = ok && comm_runs(o, b, c, mix_prefix, r->name, wait, sizeof(wait));
        if (ok && (isnan(x) || isnan(y)))
            ok = cJSON_AddFalseToObject(o, "comparable") != NULL &&
                 cJSON_AddStringToObject(
                     o, "not_comparable",
                     "no steps: each run is one capture, the profiler's "
                     "window, and this row has no call count to compare "
                     "its time per call") != NULL;
        else if (ok && r->in_base && r->in_cur && wait[0] != '\0')
            ok = cJSON_AddFalseToObject(o, "comparable") != NULL &&
                 cJSON_AddStringToObject(o, "not_comparable", wait) != NULL;
        else if (ok && r->in_base && r->in_cur && mix > MIX_RATIO &&
                 fabs(y - x) <= edge) {
            /* review 23g #1: calls of 7.9 ms and 0.16 ms alternate; the
               mean moves with the calls the window's edges cut: a change
               per call that one call more or less of the other kind
               makes is no change */
            char why[400];
            snprintf(why, sizeof(why),
                     "mix-sensitive: its calls differ up to %.0fx in length "
                     "(longest over shortest of a kernel), and one call more "
                     "or less of either kind at the capture's edge moves its "
                     "mean per call by up to %.3g µs, at least this change",
                     mix, edge);
            ok = cJSON_AddFalseToObject(o, "comparable") != NULL &&
                 cJSON_AddStringToObject(o, "not_comparable", why) != NULL;
        }
    }
    ok = ok && pr_dj_add_num(o, "calls_baseline", r->calls_base);
    ok = ok && pr_dj_add_num(o, "calls_current", r->calls_cur);
    ok = ok && pr_dj_add_num(o, PR_K_SHARE_PCT,
                             fmax(share(r->base, b->step_mean_us),
                                  share(r->cur, c->step_mean_us)));
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* ---- kernels renamed by an integer template argument (review 28g #8) */

/* A character of a C++ identifier or number. */
static int
ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '_';
}

/* The end of the integer literal ("5", "5ul", "128u") at s[i], a token of
 * its own; i when there is none. */
static size_t
int_token_end(const char *s, size_t i)
{
    size_t j = i;

    if (i > 0 && ident_char(s[i - 1]))
        return i;
    while (s[j] >= '0' && s[j] <= '9')
        j++;
    if (j == i)
        return i;
    while (s[j] == 'u' || s[j] == 'U' || s[j] == 'l' || s[j] == 'L')
        j++;
    return ident_char(s[j]) ? i : j;
}

/* name without its integer literals (malloc'd; NULL on out-of-memory):
 * "k<float, 2ul>(int)" -> "k<float, >(int)". */
static char *
int_free(const char *name)
{
    size_t n = strlen(name), i = 0, w = 0;
    char *out = malloc(n + 1);

    if (out == NULL)
        return NULL;
    while (i < n) {
        size_t e = int_token_end(name, i);

        if (e > i)
            i = e;
        else
            out[w++] = name[i++];
    }
    out[w] = '\0';
    return out;
}

/* An HCCL operation's name without its group's number, the "*" in
 * "hcom_allReduce__*_0_1" (malloc'd; NULL when name is not such a name or
 * on out-of-memory, *oom set).  HCCL names an operation
 * hcom_<op>__<group>_<index>_<n>, where <group> is the last three digits of
 * its communication group's hash (MindStudio Insight's GroupId) and the
 * group's name holds the host, port and creation time: it differs from
 * run to run, the rest does not. */
static char *
hccl_key(const char *name, int *oom)
{
    size_t a, n;
    const char *d = pr_parse_hccl_group(name, &n);
    char *out;

    if (d == NULL)
        return NULL;
    a = (size_t)(d - name);
    out = malloc(strlen(name) - n + 2);
    if (out == NULL) {
        *oom = 1;
        return NULL;
    }
    memcpy(out, name, a);
    out[a] = '*';
    memcpy(out + a + 1, d + n, strlen(d + n) + 1);
    return out;
}

/* The first integer literal of a (at *ta, length *na) that differs from
 * b's at the same place, the two names alike but for integers. */
static void
first_int_change(const char *a, const char *b, const char **ta, size_t *na,
                 const char **tb, size_t *nb)
{
    size_t i = 0, j = 0;

    *ta = *tb = NULL;
    *na = *nb = 0;
    while (a[i] != '\0' && b[j] != '\0') {
        size_t ea = int_token_end(a, i), eb = int_token_end(b, j);

        if (ea > i && eb > j) {
            if (ea - i != eb - j || strncmp(a + i, b + j, ea - i) != 0) {
                *ta = a + i, *na = ea - i, *tb = b + j, *nb = eb - j;
                return;
            }
            i = ea, j = eb;
        } else if (a[i] != b[j])
            return;
        else
            i++, j++;
    }
}

/* The row's display name: "fn<..., 2ul> -> <..., 5ul>" (malloc'd; NULL
 * on out-of-memory). */
/* The function name's room in a renamed row's display name, so that a
 * report's name column (about 80 code points in the terminal) keeps the
 * integers that changed. */
#define RENAMED_FN_MAX 48

static char *
renamed_name(const char *base, const char *cur)
{
    const char *ta, *tb, *fn = strncmp(base, "void ", 5) == 0 ? base + 5 : base;
    size_t na, nb, nf = strcspn(fn, "<(");
    char *out, *whole;
    char cut[PR_SHORTEN_CAP(RENAMED_FN_MAX)];
    size_t cap;

    first_int_change(base, cur, &ta, &na, &tb, &nb);
    if (ta == NULL || (whole = malloc(nf + 1)) == NULL)
        return NULL;
    memcpy(whole, fn, nf);
    whole[nf] = '\0';
    pr_shorten_middle(whole, RENAMED_FN_MAX, cut, sizeof(cut));
    free(whole);
    cap = strlen(cut) + na + nb + 32;
    out = malloc(cap);
    if (out != NULL)
        snprintf(out, cap, "%s<…, %.*s> -> <…, %.*s>", cut, (int)na, ta,
                 (int)nb, tb);
    return out;
}

struct renames {
    char **names;             /* owned: the merged rows' display names */
    const char **base, **cur; /* their full names (borrowed from t) */
    size_t n;
};

static void
renames_free(struct renames *rn)
{
    size_t i;

    for (i = 0; i < rn->n; i++)
        free(rn->names[i]);
    free(rn->names);
    free(rn->base);
    free(rn->cur);
    memset(rn, 0, sizeof(*rn));
}

/* Room for one more merged row; 0 on out-of-memory. */
static int
renames_grow(struct renames *rn)
{
    char **n = realloc(rn->names, (rn->n + 1) * sizeof(*n));
    const char **b, **c;

    if (n == NULL)
        return 0;
    rn->names = n;
    b = realloc(rn->base, (rn->n + 1) * sizeof(*b));
    if (b == NULL)
        return 0;
    rn->base = b;
    c = realloc(rn->cur, (rn->n + 1) * sizeof(*c));
    if (c == NULL)
        return 0;
    rn->cur = c;
    return 1;
}

/* The merged row named name (its display name's pointer); rn->n none. */
static size_t
renamed_row(const struct renames *rn, const char *name)
{
    size_t k;

    for (k = 0; k < rn->n && rn->names[k] != name; k++)
        ;
    return k;
}

/* A kernel whose name differs between the runs only in integer template
 * arguments (an fbgemm TBE kernel's kMaxVecsPerThread, 2ul -> 5ul:
 * hta_diff_control vs hta_diff_test) is one kernel, not a vanished and a
 * new one: where exactly one vanished and exactly one new kernel share
 * the name with its integers removed, the two rows become one, named
 * "fn<…, 2ul> -> <…, 5ul>" in the vanished row's place (rn keeps the
 * full names), and the new row goes.  An HCCL operation pairs by its name
 * without its group's number (hccl_key: text_level1's
 * hcom_allReduce__586_0_1 is text_level2's hcom_allReduce__271_0_1), the
 * row named "hcom_allReduce__*_0_1". */
static enum pr_status
pair_int_renames(struct pr_match_table *t, struct renames *rn,
                 struct pr_error *err)
{
    size_t n = t->n, i, j, w;
    char **keys = calloc(n ? n : 1, sizeof(*keys));
    unsigned char *drop = calloc(n ? n : 1, 1);
    enum pr_status st = keys && drop ? PR_OK : NOMEM(err);

    for (i = 0; i < n && st == PR_OK; i++) {
        const struct pr_match_row *r = &t->rows[i];

        int oom = 0;

        if (r->in_base == r->in_cur || r->shapes != NULL)
            continue;
        keys[i] = hccl_key(r->name, &oom);
        if (keys[i] == NULL && !oom)
            keys[i] = int_free(r->name);
        if (keys[i] == NULL)
            st = NOMEM(err);
    }
    for (i = 0; i < n && st == PR_OK; i++) {
        size_t nv = 0, nn = 0, mate = 0;
        struct pr_match_row *r = &t->rows[i];
        char *nm;

        if (keys[i] == NULL || !r->in_base)
            continue;
        for (j = 0; j < n; j++) {
            if (keys[j] == NULL || strcmp(keys[j], keys[i]) != 0)
                continue;
            nv += t->rows[j].in_base;
            if (t->rows[j].in_cur) {
                nn++;
                mate = j;
            }
        }
        if (nv != 1 || nn != 1)
            continue;
        if (strncmp(keys[i], "hcom_", 5) == 0 &&
            strstr(keys[i], "__*_") != NULL)
            nm = strdup(keys[i]);
        else
            nm = renamed_name(r->name, t->rows[mate].name);
        if (nm == NULL)
            continue; /* no integer differs (cannot be), or no memory */
        if (!renames_grow(rn)) {
            free(nm);
            st = NOMEM(err);
            break;
        }
        rn->names[rn->n] = nm;
        rn->base[rn->n] = r->name;
        rn->cur[rn->n++] = t->rows[mate].name;
        r->name = nm;
        r->cur = t->rows[mate].cur;
        r->calls_cur = t->rows[mate].calls_cur;
        r->in_cur = 1;
        drop[mate] = 1;
    }
    for (i = w = 0; i < n && st == PR_OK; i++)
        if (!drop[i])
            t->rows[w++] = t->rows[i];
    if (st == PR_OK)
        t->n = w;
    for (i = 0; keys != NULL && i < n; i++)
        free(keys[i]);
    free(keys);
    free(drop);
    return st;
}

/* The merged row's full names beside its display name; 0 on
 * out-of-memory. */
static int
add_renamed(cJSON *row, const struct renames *rn, const char *name)
{
    size_t k = renamed_row(rn, name);

    if (k == rn->n)
        return 1;
    return cJSON_AddStringToObject(row, "baseline_name", rn->base[k]) != NULL &&
           cJSON_AddStringToObject(row, "current_name", rn->cur[k]) != NULL;
}

/* Table k of both sides as diff[key], rows matched by their name. */
static enum pr_status
add_table(cJSON *diff, size_t k, const struct side *b, const struct side *c,
          struct pr_error *err)
{
    struct pr_match_table t;
    struct renames rn = {NULL, NULL, NULL, 0};
    cJSON *arr = cJSON_AddArrayToObject(diff, tables[k].key);
    size_t i;
    int by_call = b->capture && c->capture;
    enum pr_status st;

    if (arr == NULL)
        return NOMEM(err);
    st = pr_match_folds(b->fold[k], b->steps, c->fold[k], c->steps, &t, err);
    if (st != PR_OK)
        return st;
    if (k == 2)
        st = pair_int_renames(&t, &rn, err);
    qsort(t.rows, t.n, sizeof(*t.rows), by_call ? cmp_row_call : cmp_row);
    for (i = 0; i < t.n && st == PR_OK; i++) {
        cJSON *row;
        if (t.rows[i].base == 0 && t.rows[i].cur == 0)
            continue; /* host-only operators: no device time to compare */
        row = table_row(&t.rows[i], b, c, by_call,
                        k == 2   ? "k:"
                        : k <= 1 ? "o:"
                                 : NULL);
        if (row == NULL || !add_renamed(row, &rn, t.rows[i].name)) {
            cJSON_Delete(row);
            st = NOMEM(err);
        } else
            cJSON_AddItemToArray(arr, row);
    }
    /* operators and kernels on one side only, host-only ones included */
    if (st == PR_OK && (k == 0 || k == 2))
        st = pr_dcompat_table(diff, tables[k].key,
                              k == 0 ? "operators" : "kernels", &t, err);
    pr_match_free(&t);
    renames_free(&rn);
    if (st == PR_OK && pr_dshort_names(arr, PR_DNAME_MAX_CHARS) != 0)
        st = NOMEM(err);
    return st;
}

static enum pr_status
add_side(cJSON *diff, const char *key, const struct side *s, const char *label,
         struct pr_error *err)
{
    cJSON *o = cJSON_AddObjectToObject(diff, key);

    if (o == NULL || cJSON_AddStringToObject(o, PR_K_LABEL, label) == NULL ||
        !pr_dj_add_num(
            o, PR_K_RUNS,
            (double)cJSON_GetArraySize(pr_sget(s->sum, PR_K_RUNS))) ||
        !pr_dj_add_num(o, PR_K_STEPS, s->steps) ||
        !pr_dj_add_num(o, "step_mean_us", s->step_mean_us) ||
        cJSON_AddBoolToObject(o, "no_steps", s->capture) == NULL)
        return NOMEM(err);
    return PR_OK;
}

static enum pr_status
add_method(cJSON *diff, const struct plan *pl, struct pr_error *err)
{
    const struct pr_diff_opts *o = pl->o;
    cJSON *m = cJSON_AddObjectToObject(diff, PR_K_METHOD), *bs;
    char seed[24];

    snprintf(seed, sizeof(seed), "0x%016llx",
             (unsigned long long)PR_STATS_SEED);
    bs = m != NULL ? cJSON_AddObjectToObject(m, "bootstrap") : NULL;
    if (bs == NULL ||
        cJSON_AddStringToObject(m, "test", "Mann-Whitney U, two-sided") ==
            NULL ||
        !pr_dj_add_num(m, "alpha", o->alpha) ||
        !pr_dj_add_num(m, "threshold_pct", o->threshold_pct) ||
        !pr_dj_add_num(m, "min_share_pct", o->min_share_pct) ||
        !pr_dj_add_num(bs, "resamples", (double)pl->resamples) ||
        !pr_dj_add_num(bs, "confidence_pct", 95) ||
        cJSON_AddStringToObject(bs, "seed", seed) == NULL ||
        !pr_dj_add_num(bs, "max_samples", BOOT_MAX_N) ||
        !pr_dj_add_num(bs, "budget_draws", BOOT_BUDGET) ||
        cJSON_AddStringToObject(
            bs, "intervals",
            pl->info_bootstrap
                ? "bootstrap; normal approximation for a side of more than "
                  "max_samples steps"
                : "bootstrap where it decides significance; normal "
                  "approximation elsewhere (over the draw budget)") == NULL)
        return NOMEM(err);
    return PR_OK;
}

static enum pr_status
check_summary(const cJSON *sum, const char *label, struct pr_error *err)
{
    const cJSON *runs = pr_sget(sum, PR_K_RUNS);

    if (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) == 0)
        return pr_error_set(err, PR_E_FORMAT, "%s: summary has no runs", label);
    return PR_OK;
}

enum pr_status
pr_diff_compare(const cJSON *base, const cJSON *cur, const char *base_label,
                const char *cur_label, const struct pr_diff_opts *o,
                cJSON **out, struct pr_error *err)
{
    return pr_diff_compare_merged(base, NULL, cur, NULL, base_label, cur_label,
                                  o, out, err);
}

/* The runs of summary sum (n of them) whose first step its job's one
 * warm-up rule leaves out of the job line (job.per_rank[].
 * first_step_excluded: pr_job_build's, the same rule), as an owned array
 * by run index; NULL with *ok 1 when none, *ok 0 on out-of-memory. */
static unsigned char *
job_drops(const cJSON *sum, int *ok)
{
    const cJSON *r;
    size_t n = (size_t)pr_sget_len(pr_sget(sum, PR_K_RUNS));
    unsigned char *v = NULL;

    *ok = 1;
    cJSON_ArrayForEach(r, pr_sget(pr_sget(sum, PR_K_JOB), PR_K_PER_RANK))
    {
        double i = pr_sget_num(r, PR_K_RUN);
        if (!cJSON_IsTrue(pr_sget(r, PR_K_FIRST_STEP_EXCLUDED)) || !(i >= 0) ||
            i >= (double)n)
            continue;
        if (v == NULL && (v = calloc(n, 1)) == NULL) {
            *ok = 0;
            return NULL;
        }
        v[(size_t)i] = 1;
    }
    return v;
}

/* The note on the warm-up first steps the step figures left out. */
static enum pr_status
warm_note(cJSON *diff, const struct warm *w, const cJSON *base,
          const cJSON *cur, struct pr_error *err)
{
    cJSON *c = cJSON_GetObjectItemCaseSensitive(diff, "comparability");
    cJSON *notes = cJSON_GetObjectItemCaseSensitive(c, "notes"), *s;
    size_t nb = (size_t)pr_sget_len(pr_sget(base, PR_K_RUNS));
    size_t nc = (size_t)pr_sget_len(pr_sget(cur, PR_K_RUNS));
    char sides[200], text[900], a[64], m[64];

    if (w->n[0] == 0 && w->n[1] == 0)
        return PR_OK;
    if (notes == NULL)
        return NOMEM(err);
    if (w->n[0] == w->n[1] && nb == nc)
        snprintf(sides, sizeof(sides), "%zu of %zu runs on each side", w->n[0],
                 nb);
    else
        snprintf(sides, sizeof(sides),
                 "%zu of %zu runs of the baseline and %zu of %zu of the "
                 "current",
                 w->n[0], nb, w->n[1], nc);
    pr_fig_format(w->first_us, PR_FMT_US, a, sizeof(a));
    pr_fig_format(w->median_us, PR_FMT_US, m, sizeof(m));
    snprintf(text, sizeof(text),
             "warm-up: the step and breakdown figures leave out the first "
             "step of %s, as the job line does (one rule for a job: where a "
             "rank's first step is a warm-up, every rank's first step is left "
             "out; the longest, run %s's, %s against a median of %s for its "
             "other steps); the operator and kernel tables keep every step",
             sides, w->run, a, m);
    s = cJSON_CreateString(text);
    if (s == NULL || !cJSON_AddItemToArray(notes, s)) {
        cJSON_Delete(s);
        return NOMEM(err);
    }
    return PR_OK;
}

/* The runs compared pair by pair, then the tables of both sides. */
static enum pr_status
compare_sides(cJSON *diff, struct side *b, struct side *c,
              const struct pr_diff_opts *o, struct pr_error *err)
{
    struct pr_dpairs pairs;
    struct plan plan;
    struct warm warm = {{0, 0}, 0, NAN, ""};
    int okb, okc;
    unsigned char *db = job_drops(b->sum, &okb), *dc = job_drops(c->sum, &okc);
    struct sides_runs all = {pr_sget(b->sum, PR_K_RUNS),
                             pr_sget(c->sum, PR_K_RUNS),
                             b->m,
                             c->m,
                             db,
                             dc,
                             &warm};
    size_t k;
    enum pr_status st = pr_dpair_runs(b->sum, c->sum, &pairs, err);

    if (st == PR_OK && (!okb || !okc))
        st = NOMEM(err);
    if (st == PR_OK) {
        plan = make_plan(&pairs, o);
        st = add_method(diff, &plan, err);
    }
    if (st == PR_OK)
        st = compare_all_runs(diff, &pairs, &all, &plan, err);
    if (st == PR_OK)
        st = warm_note(diff, &warm, b->sum, c->sum, err);
    if (st == PR_OK)
        st = pr_dcollectives_skew(
            cJSON_GetObjectItemCaseSensitive(diff, PR_K_RUNS), err);
    free(db);
    free(dc);
    pr_dpairs_free(&pairs);
    if (st == PR_OK)
        st = side_fold(b, err);
    if (st == PR_OK)
        st = side_fold(c, err);
    for (k = 0; k < N_TABLES && st == PR_OK; k++)
        st = add_table(diff, k, b, c, err);
    if (st == PR_OK)
        st = pr_dcompat_finish(diff, b->sum, c->sum, err);
    return st;
}

enum pr_status
pr_diff_compare_merged(const cJSON *base, struct pr_merge *mb, const cJSON *cur,
                       struct pr_merge *mc, const char *base_label,
                       const char *cur_label, const struct pr_diff_opts *o,
                       cJSON **out, struct pr_error *err)
{
    struct side b, c;
    cJSON *diff;
    enum pr_status st;

    *out = NULL;
    st = check_summary(base, base_label, err);
    if (st == PR_OK)
        st = check_summary(cur, cur_label, err);
    if (st != PR_OK)
        return st;
    diff = cJSON_CreateObject();
    if (diff == NULL || !pr_dj_add_num(diff, "diff_version", 1)) {
        cJSON_Delete(diff);
        return NOMEM(err);
    }
    side_init(&b, base, mb);
    side_init(&c, cur, mc);
    st = add_side(diff, "baseline", &b, base_label, err);
    if (st == PR_OK)
        st = add_side(diff, "current", &c, cur_label, err);
    if (st == PR_OK)
        st = compare_sides(diff, &b, &c, o, err);
    side_free(&b);
    side_free(&c);
    if (st != PR_OK) {
        cJSON_Delete(diff);
        return st;
    }
    *out = diff;
    return PR_OK;
}
