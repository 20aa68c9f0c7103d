/* rates.c - work rates of two captures without steps (review24 #5).
 * A capture's length is the profiler's window, no speed (compat.c), but
 * the work done per second of two windows of about one length is: an
 * nsys capture of 300 ms that ran 1,993 kernels against one of 299 ms
 * that ran 1,793 at the same time per call ran ~10% slower per unit of
 * work, which per-call tables cannot show.  Each pair of captures gets
 * metric rows "rate.kernels" (kernel events per second of capture),
 * "rate.gemm" (calls of GEMM-family kernels per second) and "rate.op"
 * (calls of the baseline's most frequent operator per second), gated by
 * --fail-on 'rate.kernels<-5%' and the like; a pair whose windows differ
 * by more than RATE_WINDOW_PCT of the longer is not compared. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "profreport/sget.h"

#define NOMEM(err) pr_error_set(err, PR_E_NOMEM, "out of memory")

/* how far apart two windows' lengths may be for their rates to compare:
   a window much longer than the other can hold a phase the shorter lacks
   (a warm-up, an evaluation pass) */
#define RATE_WINDOW_PCT 10.0

/* The capture's length in seconds, NAN when unknown. */
static double
window_s(const cJSON *run)
{
    double us = pr_sget_num(cJSON_GetArrayItem(pr_sget(run, PR_K_STEPS), 0),
                            PR_K_DURATION_US);

    return us > 0 ? us / 1e6 : NAN;
}

/* The run's one device id, or NULL (none, or several). */
static const cJSON *
one_device(const cJSON *run)
{
    const cJSON *gm = pr_sget(run, PR_K_GPU_METRICS);

    return cJSON_GetArraySize(gm) == 1
               ? pr_sget(cJSON_GetArrayItem(gm, 0), PR_K_DEVICE)
               : NULL;
}

/* Whether kernel row k's family (data/kernels.json) is `family`. */
static int
is_family(const cJSON *k, const char *family)
{
    const char *f = pr_sget_str(k, PR_K_KFAMILY);

    return f != NULL && strcmp(f, family) == 0;
}

/* Calls of the kernels of `run` whose family is "gemm"; NAN without a
 * kernel table. */
static double
gemm_calls(const cJSON *run)
{
    const cJSON *k, *arr = pr_sget(run, PR_K_KERNELS);
    double n = 0;

    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
        return NAN;
    cJSON_ArrayForEach(k, arr)
    {
        if (is_family(k, "gemm") && pr_sget_num(k, PR_K_CALLS) > 0)
            n += pr_sget_num(k, PR_K_CALLS);
    }
    return n;
}

/* The row of `arr` named `name`, or NULL. */
static const cJSON *
by_name(const cJSON *arr, const char *name)
{
    const cJSON *e;

    cJSON_ArrayForEach(e, arr)
    {
        if (pr_sget_is(pr_sget_str(e, PR_K_NAME), name))
            return e;
    }
    return NULL;
}

/* The change of the mean time per call of the kernels both runs ran
 * (collectives aside: their calls wait for peers), weighted by the
 * baseline's calls (what the baseline's mix of kernels would take at the
 * current per-call times), in %; NAN when none matches. */
static double
per_call_change_pct(const cJSON *rb, const cJSON *rc)
{
    const cJSON *k, *kc = pr_sget(rc, PR_K_KERNELS);
    double at_b = 0, at_c = 0;

    cJSON_ArrayForEach(k, pr_sget(rb, PR_K_KERNELS))
    {
        const cJSON *o = by_name(kc, pr_sget_str_or(k, PR_K_NAME, ""));
        double n = pr_sget_num(k, PR_K_CALLS),
               mb = pr_sget_num(k, PR_K_MEAN_US),
               mc = pr_sget_num(o, PR_K_MEAN_US);
        if (o == NULL || !(n > 0) || !isfinite(mb) || !isfinite(mc) ||
            is_family(k, "collective"))
            continue; /* a collective's time per call is mostly its wait */
        at_b += n * mb;
        at_c += n * mc;
    }
    return at_b > 0 ? 100.0 * (at_c / at_b - 1.0) : NAN;
}

/* A "rate.*" metric row: baseline and current per second, their change;
 * `why` (not NULL): not compared, for that reason.  0 on
 * out-of-memory. */
static cJSON *
rate_row(cJSON *metrics, const char *metric, const cJSON *dev, const char *name,
         double xb, double xc, const char *why)
{
    cJSON *row = cJSON_CreateObject();
    int ok = row != NULL && cJSON_AddItemToArray(metrics, row);

    ok = ok && cJSON_AddStringToObject(row, "metric", metric) != NULL;
    ok = ok && cJSON_AddItemToObject(row, PR_K_DEVICE,
                                     dev != NULL ? cJSON_Duplicate(dev, 0)
                                                 : cJSON_CreateNull());
    ok = ok && (name == NULL ||
                cJSON_AddStringToObject(row, PR_K_NAME, name) != NULL);
    ok = ok && cJSON_AddStringToObject(row, "unit", "per_s") != NULL;
    ok =
        ok && pr_dj_add_num(row, "baseline", xb) &&
        pr_dj_add_num(row, "current", xc) &&
        pr_dj_add_num(row, "delta", xc - xb) &&
        pr_dj_add_num(row, "delta_pct", xb > 0 ? 100.0 * (xc / xb - 1.0) : NAN);
    if (ok && why != NULL)
        ok = cJSON_AddFalseToObject(row, "comparable") != NULL &&
             cJSON_AddStringToObject(row, "not_comparable", why) != NULL;
    return ok ? row : NULL;
}

enum pr_status
pr_drates_pair(cJSON *metrics, const cJSON *rb, const cJSON *rc,
               struct pr_error *err)
{
    double sb = window_s(rb), sc = window_s(rc), longer, kb, kc, gb, gc;
    const cJSON *top = NULL, *o, *oc, *dev = one_device(rb);
    const cJSON *ab = pr_sget(rb, PR_K_ATTRIBUTION),
                *ac = pr_sget(rc, PR_K_ATTRIBUTION);
    char why[300], *w = NULL;
    cJSON *row;

    if (!pr_sget_run_is_capture(rb) || !pr_sget_run_is_capture(rc) ||
        !isfinite(sb) || !isfinite(sc))
        return PR_OK;
    longer = sb > sc ? sb : sc;
    if (fabs(sb - sc) > RATE_WINDOW_PCT / 100.0 * longer) {
        snprintf(why, sizeof(why),
                 "windows differ: the captures' windows (%.0f ms and %.0f "
                 "ms) differ by more than %.0f%% of the longer, so their "
                 "rates may cover different phases of the program",
                 sb * 1e3, sc * 1e3, RATE_WINDOW_PCT);
        w = why;
    }
    kb = pr_sget_num(ab, PR_K_KERNELS);
    kc = pr_sget_num(ac, PR_K_KERNELS);
    if (kb > 0 || kc > 0) {
        row = rate_row(metrics, "rate.kernels", dev, NULL, kb / sb, kc / sc, w);
        if (row == NULL ||
            !pr_dj_add_num(row, "per_call_change_pct",
                           per_call_change_pct(rb, rc)) ||
            !pr_dj_add_num(row, "baseline_calls", kb) ||
            !pr_dj_add_num(row, "current_calls", kc) ||
            !pr_dj_add_num(row, "baseline_window_us", sb * 1e6) ||
            !pr_dj_add_num(row, "current_window_us", sc * 1e6))
            return NOMEM(err);
    }
    gb = gemm_calls(rb);
    gc = gemm_calls(rc);
    if ((gb > 0 || gc > 0) &&
        rate_row(metrics, "rate.gemm", dev, NULL, gb / sb, gc / sc, w) == NULL)
        return NOMEM(err);
    cJSON_ArrayForEach(o, pr_sget(rb, PR_K_OPERATORS))
    {
        if (pr_sget_num(o, PR_K_CALLS) > 0 &&
            (top == NULL ||
             pr_sget_num(o, PR_K_CALLS) > pr_sget_num(top, PR_K_CALLS)))
            top = o;
    }
    oc = top != NULL ? by_name(pr_sget(rc, PR_K_OPERATORS),
                               pr_sget_str_or(top, PR_K_NAME, ""))
                     : NULL;
    if (top != NULL &&
        rate_row(metrics, "rate.op", dev, pr_sget_str(top, PR_K_NAME),
                 pr_sget_num(top, PR_K_CALLS) / sb,
                 (oc != NULL ? pr_sget_num(oc, PR_K_CALLS) : 0) / sc,
                 w) == NULL)
        return NOMEM(err);
    return PR_OK;
}
