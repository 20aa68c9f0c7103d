/* common.c - the helpers of src/diff/internal.h: tolerant tree reads, the
 * one place where diff reports format numbers, and the method text they
 * all show. */
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

/* "%.*f" (or "%+.*f" when sign) of v / unit with "-0" normalised: a
 * value that rounds to zero prints as 0. */
static char *
put(char *buf, size_t n, int prec, int sign, double v, double unit,
    const char *suffix)
{
    double x = v / unit;
    char num[48];

    if (!isfinite(v)) {
        snprintf(buf, n, "%s", DASH);
        return buf;
    }
    snprintf(num, sizeof(num), sign ? "%+.*f" : "%.*f", prec, x);
    if (strspn(num, "+-0.") == strlen(num)) /* all zeros, maybe signed */
        snprintf(num, sizeof(num), "%.*f", prec, 0.0);
    snprintf(buf, n, "%s%s", num, suffix);
    return buf;
}

char *
pr_dfmt_us(double us, char *buf, size_t n)
{
    double a = fabs(us);

    if (a >= 1e6)
        return put(buf, n, 3, 0, us, 1e6, " s");
    if (a >= 1e3)
        return put(buf, n, 2, 0, us, 1e3, " ms");
    return put(buf, n, 1, 0, us, 1.0, " \xC2\xB5s"); /* µs */
}

char *
pr_dfmt_bytes(double bytes, char *buf, size_t n)
{
    double a = fabs(bytes);

    if (a >= 1073741824.0)
        return put(buf, n, 2, 0, bytes, 1073741824.0, " GiB");
    if (a >= 1048576.0)
        return put(buf, n, 1, 0, bytes, 1048576.0, " MiB");
    if (a >= 1024.0)
        return put(buf, n, 1, 0, bytes, 1024.0, " KiB");
    return put(buf, n, 0, 0, bytes, 1.0, " B");
}

char *
pr_dfmt_pct(double pct, char *buf, size_t n)
{
    return put(buf, n, 1, 1, pct, 1.0, "%");
}

char *
pr_dfmt_pp(double pp, char *buf, size_t n)
{
    return put(buf, n, 1, 1, pp, 1.0, " pp");
}

char *
pr_dfmt_plain(double v, char *buf, size_t n)
{
    return put(buf, n, 1, 0, v, 1.0, "");
}

char *
pr_dfmt_p(double p, char *buf, size_t n)
{
    if (isfinite(p) && p < 0.0001) {
        snprintf(buf, n, "%.1e", p);
        return buf;
    }
    return put(buf, n, 4, 0, p, 1.0, "");
}

char *
pr_dfmt_value(double v, const char *unit, char *buf, size_t n)
{
    if (unit != NULL && strcmp(unit, "bytes") == 0)
        return pr_dfmt_bytes(v, buf, n);
    if (unit != NULL && strcmp(unit, "pct") == 0)
        return put(buf, n, 1, 0, v, 1.0, "%");
    return pr_dfmt_us(v, buf, n);
}

char *
pr_dfmt_delta(double v, const char *unit, char *buf, size_t n)
{
    char abs_text[48];

    if (unit != NULL && strcmp(unit, "pct") == 0)
        return pr_dfmt_pp(v, buf, n);
    if (!isfinite(v))
        return put(buf, n, 0, 0, v, 1.0, "");
    pr_dfmt_value(fabs(v), unit, abs_text, sizeof(abs_text));
    snprintf(buf, n, "%s%s", v > 0 ? "+" : v < 0 ? "-" : "", abs_text);
    return buf;
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

void
pr_dname(struct pr_buf *b, const char *s, size_t max_chars,
         void (*emit)(struct pr_buf *, const char *))
{
    char cut[PR_SHORTEN_CAP(PR_DNAME_MAX_CHARS)];

    if (max_chars > PR_DNAME_MAX_CHARS)
        max_chars = PR_DNAME_MAX_CHARS;
    emit(b, s != NULL ? pr_shorten(s, max_chars, cut, sizeof(cut)) : NULL);
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

enum pr_status
pr_ddescribe(struct pr_buf *b, const cJSON *it)
{
    const char *unit = pr_dj_str(it, "unit"), *method;
    const char *status = pr_dj_str(it, "status"), *run = pr_dj_str(it, "run");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(it, "device");
    char v1[48], v2[48], d[48], pct[48], p[48];
    double pv = pr_dj_num(it, "p_value");
    enum pr_status st;

    pr_dfmt_value(pr_dj_num(it, "baseline"), unit, v1, sizeof(v1));
    pr_dfmt_value(pr_dj_num(it, "current"), unit, v2, sizeof(v2));
    pr_dfmt_delta(pr_dj_num(it, "delta"), unit, d, sizeof(d));
    pr_dfmt_pct(pr_dj_num(it, "delta_pct"), pct, sizeof(pct));
    st = pr_buf_adds(b, pr_dj_str(it, "what") ? pr_dj_str(it, "what") : "?");
    if (st == PR_OK && cJSON_IsString(dev))
        st = pr_buf_printf(b, " %s", dev->valuestring);
    else if (st == PR_OK && cJSON_IsNumber(dev))
        st = pr_buf_printf(b, " GPU %d", dev->valueint);
    if (st == PR_OK && run != NULL)
        st = pr_buf_printf(b, " [%s]", run);
    if (st == PR_OK)
        st = pr_buf_printf(b, " %s (%s, %s -> %s)",
                           status != NULL && strcmp(status, "new") == 0 ? "new"
                                                                        : pct,
                           d, v1, v2);
    method = pr_dj_str(it, "noise_method");
    if (st == PR_OK && method != NULL && isfinite(pv))
        st = pr_buf_printf(b, ", p = %s (%s)", pr_dfmt_p(pv, p, sizeof(p)),
                           method);
    return st;
}

void
pr_dmethod_text(const cJSON *diff, char *before, size_t nb, char *after,
                size_t na, char *intervals, size_t ni)
{
    const cJSON *m = pr_sget(diff, "method");
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
             "rows; %.0f resamples, fixed seed %s) must exclude 0. Memory, "
             "GPU metrics, operators and kernels have no per-step samples "
             "and are judged on the limit alone. Operator and kernel times "
             "are device time per step, matched by name (and by name + input "
             "shapes); glob rules skip rows under %g%% of the step time.",
             pr_sget_num(m, "alpha"), pr_sget_num(bs, "confidence_pct"),
             pr_sget_num(bs, "resamples"), pr_sget_str_or(bs, "seed", "?"),
             pr_sget_num(m, "min_share_pct"));
    /* large jobs: which intervals the cost cap left (compare.c) */
    if (pr_sget_str(bs, "intervals") != NULL)
        snprintf(intervals, ni,
                 "Intervals: %s (%.0f steps a side at most for a bootstrap).",
                 pr_sget_str(bs, "intervals"), pr_sget_num(bs, "max_samples"));
    else
        snprintf(intervals, ni, "%s", "");
}
