/* common.c - the helpers of src/diff/internal.h: tolerant tree reads, the
 * diff's units mapped onto the reports' one number formatting (figures.h),
 * and the method text they all show. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/escape.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"

#define DASH "\xE2\x80\x93" /* U+2013, shown for unknown values */

/* Forwards for the command files (cmd_*.c, compare.c, gate.c); the reports
 * call pr_sget_* directly. */
double
pr_dj_num(const cJSON *o, const char *key)
{
    return pr_sget_num(o, key);
}

const char *
pr_dj_str(const cJSON *o, const char *key)
{
    return pr_sget_str(o, key);
}

int
pr_dj_add_num(cJSON *obj, const char *key, double v)
{
    if (isfinite(v))
        return cJSON_AddNumberToObject(obj, key, v) != NULL;
    return cJSON_AddNullToObject(obj, key) != NULL;
}

double
pr_drow_us(const cJSON *row, const char *key)
{
    const char *status = pr_dj_str(row, "status");
    int base = strcmp(key, "baseline_us") == 0;

    if (status != NULL && strcmp(status, base ? "new" : "vanished") == 0)
        return NAN;
    return pr_dj_num(row, key);
}

/* The format of a metric row's unit ("us", "bytes", "pct", "per_s": a
 * count per second, "/s" after it). */
static enum pr_fmt
unit_fmt(const char *unit)
{
    if (unit != NULL && strcmp(unit, "per_s") == 0)
        return PR_FMT_COUNT;
    if (unit != NULL && strcmp(unit, "bytes") == 0)
        return PR_FMT_BYTES;
    if (unit != NULL && strcmp(unit, "pct") == 0)
        return PR_FMT_PCT;
    return PR_FMT_US;
}

char *
pr_dfmt_p(double p, char *buf, size_t n)
{
    if (!isfinite(p)) {
        snprintf(buf, n, "%s", DASH);
        return buf;
    }
    if (p < 0.0001) {
        snprintf(buf, n, "%.1e", p);
        return buf;
    }
    snprintf(buf, n, "%.4f", p);
    return buf;
}

/* "/s" after a finite per-second figure. */
static char *
per_s(double v, const char *unit, char *buf, size_t n)
{
    size_t len = strlen(buf);

    if (isfinite(v) && unit != NULL && strcmp(unit, "per_s") == 0 &&
        len + 3 <= n)
        memcpy(buf + len, "/s", 3);
    return buf;
}

/* A rate under ten a second keeps two significant digits: 3 kernels in
 * 15.9 s are 0.19/s, not "0/s" (hunt31 #8). */
static int
small_rate(double v, const char *unit)
{
    return unit != NULL && strcmp(unit, "per_s") == 0 && isfinite(v) &&
           v != 0 && fabs(v) < 10;
}

char *
pr_dfmt_value(double v, const char *unit, char *buf, size_t n)
{
    if (small_rate(v, unit)) {
        snprintf(buf, n, "%.2g", v);
        return per_s(v, unit, buf, n);
    }
    return per_s(v, unit, pr_fig_format(v, unit_fmt(unit), buf, n), n);
}

void
pr_dfmt_pair(double x, double y, const char *unit, char *bx, char *by, size_t n)
{
    if (small_rate(x, unit) || small_rate(y, unit)) {
        pr_dfmt_value(x, unit, bx, n);
        pr_dfmt_value(y, unit, by, n);
        return;
    }
    pr_fig_format_pair(x, y, unit_fmt(unit), bx, by, n);
    per_s(x, unit, bx, n);
    per_s(y, unit, by, n);
}

char *
pr_dfmt_delta(double v, const char *unit, char *buf, size_t n)
{
    if (unit_fmt(unit) == PR_FMT_PCT)
        return pr_fig_format_pp(v, buf, n);
    if (small_rate(v, unit)) {
        snprintf(buf, n, "%+.2g", v);
        return per_s(v, unit, buf, n);
    }
    return per_s(v, unit, pr_fig_format_change(v, unit_fmt(unit), buf, n), n);
}

char *
pr_dfmt_pct(double pct, char *buf, size_t n)
{
    return pr_fig_format_change(pct, PR_FMT_PCT, buf, n);
}

void
pr_dadd(struct pr_buf *b, const char *s)
{
    if (pr_buf_adds(b, s) != PR_OK)
        b->failed = 1;
}

/* Also for XML: the HTML escaper produces only entities XML knows (&amp;
 * &lt; &gt; &quot; &#39;) and drops control bytes. */
void
pr_desc(struct pr_buf *b, const char *s)
{
    if (s == NULL)
        s = "";
    if (pr_escape_html(b, s, strlen(s)) != PR_OK)
        b->failed = 1;
}

int
pr_drow_wanted(const cJSON *row, int want)
{
    const char *status = pr_dj_str(row, "status");
    double dv = pr_dj_num(row, "delta_us");
    int both = status != NULL && strcmp(status, "both") == 0;

    if (want == 0)
        return !both;
    return both && (want > 0 ? dv > 0 : dv < 0);
}

void
pr_dbreakdown(const cJSON *pair, double vals[16], double deltas[8],
              double *start, double *end)
{
    const cJSON *bd = cJSON_GetObjectItemCaseSensitive(pair, "breakdown");
    size_t k;

    *start = *end = 0;
    for (k = 0; k < 8; k++) {
        const cJSON *row = cJSON_GetArrayItem(bd, (int)k);
        double x = pr_dj_num(row, "baseline"), y = pr_dj_num(row, "current");
        vals[k] = isfinite(x) ? x : 0;
        vals[8 + k] = isfinite(y) ? y : 0;
        deltas[k] = vals[8 + k] - vals[k];
        *start += vals[k];
        *end += vals[8 + k];
    }
}

char **
pr_dnames(const struct pr_dtable *t, size_t max_chars)
{
    size_t n = (size_t)pr_sget_len(t->rows), c, r,
           all = n + (size_t)pr_sget_len(t->names_from);
    char **forms = n ? calloc(n * t->n_cols, sizeof(*forms)) : NULL;
    const char **names = n ? calloc(all, sizeof(*names)) : NULL;
    const cJSON *row, *it;

    if (max_chars > PR_DNAME_MAX_CHARS)
        max_chars = PR_DNAME_MAX_CHARS;
    for (c = 0; c < t->n_cols && forms && names; c++) {
        if (t->cols[c].fmt != PR_FMT_NAME)
            continue;
        r = 0;
        cJSON_ArrayForEach(row, t->rows)
        {
            names[r++] = pr_sget_str_or(row, t->cols[c].key, "");
        }
        cJSON_ArrayForEach(it, t->names_from)
        {
            names[r++] = pr_sget_str_or(it, PR_K_NAME, "");
        }
        if (pr_shorten_names(names, all, n, max_chars, forms + c, t->n_cols) !=
            0) {
            pr_dnames_free(forms, t);
            forms = NULL;
        }
    }
    if (names == NULL) {
        free(forms);
        forms = NULL;
    }
    free(names);
    return forms;
}

void
pr_dnames_free(char **forms, const struct pr_dtable *t)
{
    if (forms != NULL)
        pr_shorten_free(forms, (size_t)pr_sget_len(t->rows) * t->n_cols);
    free(forms);
}

void
pr_dunmatched_each(const cJSON *diff,
                   void (*each)(void *ctx, const struct pr_dunmatched *u),
                   void *ctx)
{
    static const char *const sides[] = {"baseline", "current"};
    static const char *const leads[] = {"Warning:", "Note:"};
    static const char *const what[] = {
        "vanished (no run of the current side pairs with it)",
        "is new (no run of the baseline pairs with it)"};
    const cJSON *um = pr_sget(diff, "runs_unmatched"), *w;
    struct pr_dunmatched u;

    for (u.side = 0; u.side < 2; u.side++) {
        u.lead = leads[u.side];
        u.side_name = sides[u.side];
        u.what = what[u.side];
        u.count = pr_sget_len(pr_sget(um, sides[u.side]));
        u.index = 0;
        cJSON_ArrayForEach(w, pr_sget(um, sides[u.side]))
        {
            u.run = cJSON_IsString(w) ? w->valuestring : "?";
            each(ctx, &u);
            u.index++;
        }
    }
}

void
pr_dcompat_each(const cJSON *diff,
                void (*each)(void *ctx, const char *lead, const char *text),
                void *ctx)
{
    static const char *const lists[] = {"warnings", "notes"};
    static const char *const leads[] = {"Warning:", "Note:"};
    const cJSON *c = pr_sget(diff, "comparability"), *w;
    size_t k;

    for (k = 0; k < 2; k++) {
        cJSON_ArrayForEach(w, pr_sget(c, lists[k]))
        {
            if (cJSON_IsString(w))
                each(ctx, leads[k], w->valuestring);
        }
    }
}

enum pr_status
pr_dmd_code(struct pr_buf *b, const char *s, size_t max_chars)
{
    size_t len = strlen(s), cut = pr_escape_utf8_prefix(s, len, max_chars);
    size_t i;
    enum pr_status st = pr_buf_addc(b, '`');

    for (i = 0; i < cut && st == PR_OK; i++) {
        char c = s[i];
        if (c == '|')
            st = pr_buf_adds(b, "\\|");
        else if (c == '`')
            st = pr_buf_addc(b, '\'');
        else if (c == '\n' || c == '\r' || c == '\t')
            st = pr_buf_addc(b, ' ');
        else
            st = pr_buf_addc(b, c);
    }
    if (st == PR_OK && cut < len)
        st = pr_buf_adds(b, "\xE2\x80\xA6");
    if (st == PR_OK)
        st = pr_buf_addc(b, '`');
    return st;
}

/* What decided a noise-tested item, for a gate line: the rank test's p,
 * or the bootstrap interval when too few steps let the rank test reach
 * alpha (its p would read as the decision; issue #32). */
static enum pr_status
describe_test(struct pr_buf *b, const cJSON *it)
{
    const char *method = pr_dj_str(it, "noise_method");
    double pv = pr_dj_num(it, "p_value");
    double lo = pr_dj_num(it, "ci_lo_pct"), hi = pr_dj_num(it, "ci_hi_pct");
    char p[64], a[64], c[64];

    if (method == NULL)
        return PR_OK;
    if (strcmp(method, "bootstrap") == 0 && isfinite(lo) && isfinite(hi))
        return pr_buf_printf(b, ", 95%% CI %s to %s (bootstrap)",
                             pr_dfmt_pct(lo, a, sizeof(a)),
                             pr_dfmt_pct(hi, c, sizeof(c)));
    if (strncmp(method, "mann-whitney", 12) == 0 && isfinite(pv))
        return pr_buf_printf(b, ", p = %s (%s)", pr_dfmt_p(pv, p, sizeof(p)),
                             method);
    return PR_OK;
}

enum pr_status
pr_ddescribe(struct pr_buf *b, const cJSON *it)
{
    const char *unit = pr_dj_str(it, "unit");
    const char *status = pr_dj_str(it, "status"),
               *run = pr_dj_str(it, PR_K_RUN);
    const char *what = pr_dj_str(it, "short");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(it, PR_K_DEVICE);
    char v1[64], v2[64], d[64], pct[64];
    char cut[PR_SHORTEN_CAP(PR_DNAME_MAX_CHARS)];
    enum pr_status st;

    pr_dfmt_pair(pr_dj_num(it, "baseline"), pr_dj_num(it, "current"), unit, v1,
                 v2, sizeof(v1));
    pr_dfmt_delta(pr_dj_num(it, "delta"), unit, d, sizeof(d));
    pr_dfmt_pct(pr_dj_num(it, "delta_pct"), pct, sizeof(pct));
    /* a kernel name can be 10,000 characters: the table's distinct short
       form, else the one shortener (the full name stays in the tree) */
    if (what == NULL)
        what = pr_shorten(pr_dj_str(it, "what") ? pr_dj_str(it, "what") : "?",
                          PR_DNAME_MAX_CHARS, cut, sizeof(cut));
    st = pr_buf_adds(b, what);
    if (st == PR_OK && cJSON_IsString(dev))
        st = pr_buf_printf(b, " %s", dev->valuestring);
    else if (st == PR_OK && cJSON_IsString(pr_sget(it, "device_label")))
        st = pr_buf_printf(b, " %s", pr_sget_str(it, "device_label"));
    else if (st == PR_OK && cJSON_IsNumber(dev))
        st = pr_buf_printf(b, " GPU %d", dev->valueint);
    /* a solo pair of two ids names the current device too */
    if (st == PR_OK && cJSON_IsString(pr_sget(it, "device_current")))
        st = pr_buf_printf(b, " / %s",
                           pr_sget(it, "device_current")->valuestring);
    else if (st == PR_OK && cJSON_IsNumber(pr_sget(it, "device_current")))
        st = pr_buf_printf(
            b, " / %s %d",
            strncmp(pr_sget_str_or(it, "device_label", ""), "NPU", 3) == 0
                ? "NPU"
                : "GPU",
            pr_sget(it, "device_current")->valueint);
    if (st == PR_OK && run != NULL)
        st = pr_buf_printf(b, " [%s]", run);
    if (st == PR_OK)
        st = pr_buf_printf(b, " %s (%s, %s -> %s)",
                           status != NULL && strcmp(status, "new") == 0 ? "new"
                                                                        : pct,
                           d, v1, v2);
    if (st == PR_OK)
        st = describe_test(b, it);
    return st;
}

const char *
pr_ddevice_word(const cJSON *diff)
{
    return pr_sget_is(pr_sget_str(diff, PR_K_DEVICE_KIND), "npu") ? "NPU"
                                                                  : "GPU";
}

int
pr_dnpu_hccl(const cJSON *diff)
{
    return strcmp(pr_ddevice_word(diff), "NPU") == 0 &&
           cJSON_IsTrue(pr_sget(diff, "npu_hccl"));
}

void
pr_dmethod_text(const cJSON *diff, char *before, size_t nb, char *after,
                size_t na, char *intervals, size_t ni)
{
    const cJSON *m = pr_sget(diff, PR_K_METHOD);
    const cJSON *bs = pr_sget(m, "bootstrap");

    snprintf(before, nb,
             "A figure with per-step samples (step time, breakdown) regresses "
             "only when its change crosses the gate's limit");
    snprintf(after, na,
             "is unlikely to be step-to-step noise: Mann-Whitney U over the "
             "steps (two-sided, exact distribution up to 50 steps a side "
             "without ties, else normal approximation with tie correction), "
             "alpha = %g. When there are too few steps for the test to reach "
             "alpha, a %g%% percentile bootstrap interval of the change of "
             "the row's own statistic (the mean; the median or p90 on their "
             "rows; %.0f resamples, fixed seed %s) must exclude 0. Where "
             "the rank test decides, the interval beside it gives the "
             "change's size only: it can exclude 0 on a row the test keeps "
             "within noise. Memory, "
             "%s metrics, operators and kernels have no per-step samples "
             "and are judged on the limit alone. Operator and kernel times "
             "are %s, matched by name (and by name + input "
             "shapes); glob rules skip rows under %g%% of the %s time.",
             pr_sget_num(m, "alpha"), pr_sget_num(bs, "confidence_pct"),
             pr_sget_num(bs, "resamples"), pr_sget_str_or(bs, "seed", "?"),
             pr_ddevice_word(diff),
             pr_dno_steps(diff)
                 ? "mean device time per call (neither side has steps: each "
                   "run is one capture, whose length is the profiler's "
                   "window, so time per capture is no speed and the step "
                   "and breakdown figures are not compared; a change under "
                   "1% a call is not listed as a regression or improvement, "
                   "a row whose kernel calls differ over 10x in length and "
                   "whose change per call one call at a capture's edge can "
                   "make is mix-sensitive, and a communication row whose "
                   "calls rose on one run and fell on another is peer wait: "
                   "neither is listed nor gated)"
                 : "device time per step",
             pr_sget_num(m, "min_share_pct"),
             pr_dno_steps(diff) ? "capture's" : "step");
    /* large jobs: which intervals the cost cap left (compare.c) */
    if (pr_sget_str(bs, "intervals") != NULL)
        snprintf(intervals, ni,
                 "Intervals: %s (%.0f steps a side at most for a bootstrap).",
                 pr_sget_str(bs, "intervals"), pr_sget_num(bs, "max_samples"));
    else
        snprintf(intervals, ni, "%s", "");
}

const char *
pr_dshort_why(const char *why)
{
    if (why == NULL)
        return "see Comparability";
    if (strstr(why, "CPU-only") != NULL)
        return "a CPU-only run";
    if (strstr(why, "definition changed") != NULL)
        return "definition changed";
    if (strstr(why, "definition may have changed") != NULL)
        return "definition may have changed";
    if (strstr(why, "different windows") != NULL)
        return "different windows";
    if (strncmp(why, "windows differ", 14) == 0)
        return "capture windows over 10% apart";
    if (strstr(why, "no steps: each run is one capture") != NULL)
        return "no steps";
    if (strncmp(why, "peer wait", 9) == 0)
        return "peer wait: one rank's calls rose, another's fell";
    if (strncmp(why, "mix-sensitive", 13) == 0)
        return "mix-sensitive: calls of very different lengths";
    if (strstr(why, "whole capture against a step") != NULL)
        return "steps against a whole capture";
    if (strncmp(why, "occupancy unknown", 17) == 0)
        return "occupancy unknown for over 5% of kernel time";
    return "see Comparability";
}

/* Count the gates of list into v, and v's word and class from verdict;
 * returns 1 when the verdict is inconclusive. */
static int
verdict_words(const cJSON *list, const char *verdict, struct pr_dverdict *v)
{
    const cJSON *g;

    cJSON_ArrayForEach(g, list)
    {
        v->total++;
        v->failed += pr_sget_is(pr_dj_str(g, "result"), "fail");
        v->skipped += pr_sget_is(pr_dj_str(g, "result"), "skipped");
    }
    v->word = pr_sget_is(verdict, "fail")           ? "REGRESSION"
              : pr_sget_is(verdict, "inconclusive") ? "INCONCLUSIVE"
                                                    : "no regression";
    v->cls = pr_sget_is(verdict, "fail")           ? "fail"
             : pr_sget_is(verdict, "inconclusive") ? "inconclusive"
                                                   : "pass";
    return pr_sget_is(verdict, "inconclusive");
}

/* "3 of 4 runs compared, 1 not compared: different windows" when a
 * gate that compared something could not compare some runs (gate.c's
 * "runs_compared" of "runs_matched"; the fewest runs compared of such
 * gates), and "1 of 3 runs compared; 2 new, no baseline; 1 gone" when
 * runs paired with none ("runs_unmatched": new on the current side, gone
 * from the baseline), else "": a pass over part of the runs says so where
 * the verdict is read, not only in the gate's detail or the notes
 * (review 19 #6, review 21 #2). */
static void
partial_text(const cJSON *diff, char *buf, size_t n)
{
    const cJSON *g, *least = NULL;
    const cJSON *um = pr_sget(diff, "runs_unmatched");
    size_t fresh = pr_sget_len(pr_sget(um, "current"));
    size_t gone = pr_sget_len(pr_sget(um, "baseline"));
    double c, m;
    char why[120] = "", unpaired[80] = "";
    int len;

    buf[0] = '\0';
    cJSON_ArrayForEach(g, pr_sget(diff, "gates"))
    {
        if (isfinite(pr_dj_num(g, "runs_compared")) &&
            (least == NULL ||
             pr_dj_num(g, "runs_compared") < pr_dj_num(least, "runs_compared")))
            least = g;
    }
    if (least == NULL && fresh + gone == 0)
        return;
    if (least != NULL) {
        c = pr_dj_num(least, "runs_compared");
        m = pr_dj_num(least, "runs_matched");
        snprintf(why, sizeof(why), ", %.0f not compared: %s", m - c,
                 pr_dshort_why(pr_dj_str(least, "not_comparable")));
    } else {
        /* every paired run was compared: the pairs are the runs */
        c = m = (double)pr_sget_len(pr_sget(diff, PR_K_RUNS));
    }
    if (fresh > 0)
        snprintf(unpaired, sizeof(unpaired), "; %zu new, no baseline", fresh);
    len = (int)strlen(unpaired);
    if (gone > 0 && len >= 0 && (size_t)len < sizeof(unpaired))
        snprintf(unpaired + len, sizeof(unpaired) - (size_t)len, "; %zu gone",
                 gone);
    snprintf(buf, n, "%.0f of %.0f runs compared%s%s", c,
             m + (double)(fresh + gone), why, unpaired);
}

/* For a diff of captures without steps, whose default gate compares
 * nothing: "; largest GPU change gpu.utilization GPU 0 -11.0 pp (90.3% ->
 * 79.4%): gate it with --fail-on 'gpu.utilization<-5pp'", the gpu.*
 * figure of the runs that moved most, or "" (review 23g #2). */
static void
gpu_largest(const cJSON *diff, char *buf, size_t n)
{
    const cJSON *pair, *row, *best = NULL;
    double best_d = 0;
    char dev[32] = "";

    buf[0] = '\0';
    cJSON_ArrayForEach(pair, pr_sget(diff, PR_K_RUNS))
    {
        cJSON_ArrayForEach(row, pr_sget(pair, "metrics"))
        {
            const char *m = pr_dj_str(row, "metric");
            double d = pr_dj_num(row, "delta");
            if (m == NULL || strncmp(m, "gpu.", 4) != 0 ||
                !pr_sget_is(pr_dj_str(row, "unit"), "pct") || !isfinite(d) ||
                fabs(d) <= fabs(best_d))
                continue;
            best = row;
            best_d = d;
        }
    }
    if (best == NULL)
        return;
    if (pr_sget_str(best, "device_label") != NULL)
        snprintf(dev, sizeof(dev), " %s", pr_sget_str(best, "device_label"));
    else if (isfinite(pr_dj_num(best, PR_K_DEVICE)))
        snprintf(dev, sizeof(dev), " GPU %.0f", pr_dj_num(best, PR_K_DEVICE));
    /* an Ascend device's utilization counts HCCL tasks (waits for a late
       rank included) as busy: a rank that waits longer looks busier, so
       the gate to propose is the kernels' time per call (review 25u #4) */
    if (pr_dnpu_hccl(diff)) {
        snprintf(buf, n,
                 "; largest NPU change %s%s %+.1f pp (%.1f%% -> %.1f%%), "
                 "but an NPU's utilization counts HCCL waits as busy: gate "
                 "a capture with "
                 "--fail-on 'kernel:*>+10%%' (per call)",
                 pr_dj_str(best, "metric"), dev, best_d,
                 pr_dj_num(best, "baseline"), pr_dj_num(best, "current"));
        return;
    }
    /* gpu.* shares are better higher: the gate a fall trips */
    snprintf(buf, n,
             "; largest %s change %s%s %+.1f pp (%.1f%% -> %.1f%%): "
             "gate a capture with --fail-on '%s<-5pp'",
             pr_ddevice_word(diff), pr_dj_str(best, "metric"), dev, best_d,
             pr_dj_num(best, "baseline"), pr_dj_num(best, "current"),
             pr_dj_str(best, "metric"));
}

/* For a diff of captures without steps, whose default gate compares
 * nothing, where a capture's kernels per second changed 5% or more:
 * "; the current capture ran 9.8% fewer kernels per second (GPU 0: 6,646
 * -> 5,992/s) at the same per-call times (+1.1%): gate it with
 * --fail-on 'rate.kernels<-5%'", the compared rate.kernels row that
 * moved most, or "" (review24 #5). */
static void
rate_largest(const cJSON *diff, char *buf, size_t n)
{
    const cJSON *pair, *row, *best = NULL;
    double best_d = 0, pc;
    char dev[16] = "", x[32], y[32], calls[56];

    buf[0] = '\0';
    cJSON_ArrayForEach(pair, pr_sget(diff, PR_K_RUNS))
    {
        cJSON_ArrayForEach(row, pr_sget(pair, "metrics"))
        {
            double d = pr_dj_num(row, "delta_pct");
            if (!pr_sget_is(pr_dj_str(row, "metric"), "rate.kernels") ||
                cJSON_IsFalse(pr_sget(row, "comparable")) || !isfinite(d) ||
                fabs(d) < 5.0 || fabs(d) <= fabs(best_d))
                continue;
            best = row;
            best_d = d;
        }
    }
    if (best == NULL)
        return;
    if (isfinite(pr_dj_num(best, PR_K_DEVICE)))
        snprintf(dev, sizeof(dev), "GPU %.0f: ", pr_dj_num(best, PR_K_DEVICE));
    pr_dfmt_pair(pr_dj_num(best, "baseline"), pr_dj_num(best, "current"),
                 "per_s", x, y, sizeof(x));
    pc = pr_dj_num(best, "per_call_change_pct");
    if (!isfinite(pc))
        snprintf(calls, sizeof(calls), "%s", "");
    else if (fabs(pc) < 3.0)
        snprintf(calls, sizeof(calls), " at the same per-call times (%+.1f%%)",
                 pc);
    else
        snprintf(calls, sizeof(calls), " with per-call times %+.1f%%", pc);
    snprintf(buf, n,
             "; the current capture ran %.1f%% %s kernels per second (%s%s "
             "-> %s)%s: gate it with --fail-on 'rate.kernels%s'",
             fabs(best_d), best_d < 0 ? "fewer" : "more", dev, x, y, calls,
             best_d < 0 ? "<-5%" : ">+5%");
}

void
pr_dverdict(const cJSON *diff, struct pr_dverdict *v)
{
    const char *verdict = pr_dj_str(diff, PR_K_VERDICT);
    char skipped[48] = "", marked[80] = "", partial[240] = "";

    memset(v, 0, sizeof(*v));
    partial_text(diff, v->runs, sizeof(v->runs));
    v->partial = v->runs[0] != '\0';
    if (v->partial)
        snprintf(partial, sizeof(partial), " in %s", v->runs);
    v->warnings =
        pr_sget_len(pr_sget(pr_sget(diff, "comparability"), "warnings"));
    if (v->warnings > 0)
        snprintf(marked, sizeof(marked),
                 "; the runs may not be comparable: %zu warning%s", v->warnings,
                 v->warnings == 1 ? "" : "s");
    if (verdict_words(pr_sget(diff, "gates"), verdict, v)) {
        char gpu[300] = "";
        if (pr_dno_steps(diff))
            rate_largest(diff, gpu, sizeof(gpu));
        if (pr_dno_steps(diff) && gpu[0] == '\0')
            gpu_largest(diff, gpu, sizeof(gpu));
        snprintf(v->counts, sizeof(v->counts),
                 "no gate compared anything: %zu of %zu skipped%s%s",
                 v->skipped, v->total, marked, gpu);
        return;
    }
    if (v->skipped > 0)
        snprintf(skipped, sizeof(skipped), "; %zu skipped", v->skipped);
    snprintf(v->counts, sizeof(v->counts), "%zu of %zu gate%s tripped%s%s%s",
             v->failed, v->total, v->total == 1 ? "" : "s", partial, skipped,
             marked);
    snprintf(v->bare, sizeof(v->bare), "%zu of %zu gate%s tripped%s%s",
             v->failed, v->total, v->total == 1 ? "" : "s", skipped, marked);
}

int
pr_dtrend_warn_words(const cJSON *night, const char *key, char *buf, size_t cap)
{
    char wkey[40];
    const cJSON *w;
    size_t at = 0;

    buf[0] = '\0';
    snprintf(wkey, sizeof(wkey), "%s_warnings", key);
    cJSON_ArrayForEach(w, pr_sget(night, wkey))
    {
        /* "run test: devices differ: A (baseline), B (current): ..." ->
           "devices differ" */
        const char *s = cJSON_GetStringValue(w), *e;
        int n;

        if (s == NULL || at >= cap)
            continue;
        if (strncmp(s, "run ", 4) == 0 && (e = strstr(s, ": ")) != NULL)
            s = e + 2;
        e = strchr(s, ':');
        n = snprintf(buf + at, cap - at, "%s%.*s", at > 0 ? "; " : "",
                     (int)(e != NULL && e - s < 60 ? e - s : 60), s);
        at += n > 0 ? (size_t)n : 0;
    }
    return at > 0;
}

void
pr_dtrend_verdict(const cJSON *trend, struct pr_dverdict *v)
{
    static const char *const keys[] = {"gates", "gates_vs_first"};
    const cJSON *nights = pr_sget(trend, "nights");
    const cJSON *last = cJSON_GetArrayItem(nights, pr_sget_len(nights) - 1);
    const char *verdict = pr_dj_str(trend, PR_K_VERDICT);
    const char *label = pr_sget_str_or(last, PR_K_LABEL, "?");
    size_t k, unreadable = pr_sget_len(pr_sget(trend, "unreadable"));
    char skipped[48] = "", lost[64] = "";
    int inconclusive = 0;

    memset(v, 0, sizeof(*v));
    if (unreadable > 0)
        snprintf(lost, sizeof(lost), "; %zu night%s unreadable, left out",
                 unreadable, unreadable == 1 ? "" : "s");
    for (k = 0; k < 2; k++)
        inconclusive = verdict_words(pr_sget(last, keys[k]), verdict, v);
    if (inconclusive) {
        snprintf(v->counts, sizeof(v->counts),
                 "last night %.60s: no gate compared anything%s", label, lost);
        return;
    }
    if (v->skipped > 0)
        snprintf(skipped, sizeof(skipped), ", %zu skipped", v->skipped);
    snprintf(v->counts, sizeof(v->counts),
             "last night %.60s: %zu of %zu gate%s tripped%s; %.0f of %zu "
             "nights crossed%s",
             label, v->failed, v->total, v->total == 1 ? "" : "s", skipped,
             pr_sget_num(trend, "crossed_nights"), pr_sget_len(nights), lost);
    {
        char why[200];
        size_t len = strlen(v->counts);

        if (pr_dtrend_warn_words(last, "gates", why, sizeof(why))) {
            v->warnings = 1;
            snprintf(v->counts + len, sizeof(v->counts) - len,
                     "; not comparable with the night before (%s)", why);
        }
    }
}

/* ---- distinct short names (pr_dshort_names) ---------------------------- */

int
pr_dshort_names(cJSON *rows, size_t max_chars)
{
    size_t n = (size_t)cJSON_GetArraySize(rows), k = 0, i;
    const char **names = calloc(n ? n : 1, sizeof(*names));
    cJSON **at = calloc(n ? n : 1, sizeof(*at));
    char **forms = calloc(n ? n : 1, sizeof(*forms));
    cJSON *row;
    int rc = names && at && forms ? 0 : -1;

    if (max_chars > PR_DNAME_MAX_CHARS)
        max_chars = PR_DNAME_MAX_CHARS;
    cJSON_ArrayForEach(row, rows)
    {
        if (rc == 0 && pr_dj_str(row, PR_K_NAME) != NULL) {
            names[k] = pr_dj_str(row, PR_K_NAME);
            at[k++] = row;
        }
    }
    if (rc == 0)
        rc = pr_shorten_distinct(names, k, max_chars, forms);
    for (i = 0; i < k && rc == 0; i++)
        if (strcmp(forms[i], names[i]) != 0 &&
            cJSON_AddStringToObject(at[i], "short_name", forms[i]) == NULL)
            rc = -1;
    if (forms != NULL)
        pr_shorten_free(forms, k);
    free(forms);
    free(at);
    free(names);
    return rc;
}
