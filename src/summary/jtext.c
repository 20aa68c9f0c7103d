/* jtext.c - printed numbers and exact compact JSON text (jtext.h). */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "profreport/jtext.h"

/* Whether d is the double nearest a decimal of at most 15 significant
 * digits with at most 6 decimals (k / 10^j, |k| < 10^15): then its 15
 * digits are that decimal (d is within half an ulp of it, far finer than
 * the 15th digit), which reads back as d.  Most figures of a summary are
 * such (microseconds to the nanosecond, bytes, counts), and this avoids
 * printing and parsing them. */
static int
short_decimal(double d)
{
    static const double p10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6};
    size_t j;

    for (j = 0; j < sizeof(p10) / sizeof(p10[0]); j++) {
        double k = nearbyint(d * p10[j]);
        if (fabs(k) >= 1e15)
            return 0;
        if (k / p10[j] == d) /* a correctly rounded division: exact test */
            return 1;
    }
    return 0;
}

double
pr_jtext_num(double d)
{
    char text[32];
    double t, big;

    if (!isfinite(d))
        return NAN;
    if (d != 0 && short_decimal(d))
        return d;
    snprintf(text, sizeof(text), "%1.15g", d);
    t = strtod(text, NULL);
    big = fabs(t) > fabs(d) ? fabs(t) : fabs(d);
    return fabs(t - d) <= big * DBL_EPSILON ? t : d; /* else 17 digits: d */
}

void
pr_jtext_canon(cJSON *it)
{
    cJSON *c;

    if (cJSON_IsNumber(it)) {
        double v = pr_jtext_num(it->valuedouble);
        if (isnan(v)) { /* printed as null, read back as null */
            it->type = (it->type & ~0xFF) | cJSON_NULL;
            it->valuedouble = 0;
            it->valueint = 0;
        } else if (v != it->valuedouble || signbit(it->valuedouble)) {
            cJSON_SetNumberValue(it, v);
        }
        return;
    }
    for (c = it != NULL ? it->child : NULL; c != NULL; c = c->next)
        pr_jtext_canon(c);
}

int
pr_jtext_str(struct pr_buf *b, const char *s)
{
    int ok = pr_buf_addc(b, '"') == PR_OK;

    for (; ok && *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            ok = pr_buf_addc(b, '\\') == PR_OK && pr_buf_addc(b, *s) == PR_OK;
        else if (c < 0x20)
            ok = pr_buf_printf(b, "\\u%04x", c) == PR_OK;
        else
            ok = pr_buf_addc(b, *s) == PR_OK;
    }
    return ok && pr_buf_addc(b, '"') == PR_OK;
}

int
pr_jtext_putnum(struct pr_buf *b, double d)
{
    if (!isfinite(d))
        return pr_buf_adds(b, "null") == PR_OK;
    return pr_buf_printf(b, "%.17g", d) == PR_OK;
}

static int
put(struct pr_buf *b, const cJSON *it, int as_read)
{
    const cJSON *c;
    int ok;

    if (cJSON_IsNumber(it))
        return pr_jtext_putnum(b, as_read ? pr_jtext_num(it->valuedouble)
                                          : it->valuedouble);
    if (cJSON_IsString(it))
        return pr_jtext_str(b, it->valuestring);
    if (!cJSON_IsArray(it) && !cJSON_IsObject(it))
        return pr_buf_adds(b, cJSON_IsTrue(it)    ? "true"
                              : cJSON_IsFalse(it) ? "false"
                                                  : "null") == PR_OK;
    ok = pr_buf_addc(b, cJSON_IsArray(it) ? '[' : '{') == PR_OK;
    for (c = it->child; ok && c != NULL; c = c->next) {
        if (cJSON_IsObject(it))
            ok = pr_jtext_str(b, c->string != NULL ? c->string : "") &&
                 pr_buf_addc(b, ':') == PR_OK;
        ok = ok && put(b, c, as_read) &&
             (c->next == NULL || pr_buf_addc(b, ',') == PR_OK);
    }
    return ok && pr_buf_addc(b, cJSON_IsArray(it) ? ']' : '}') == PR_OK;
}

int
pr_jtext_put(struct pr_buf *b, const cJSON *it)
{
    return put(b, it, 0);
}

int
pr_jtext_put_read(struct pr_buf *b, const cJSON *it)
{
    return put(b, it, 1);
}
