/* fields.c - typed, checked getters over cJSON values: numbers that may be
 * written as strings, finiteness and range checks, the one place where
 * microseconds become nanoseconds, and the canonical texts the model keeps
 * (pid/tid decimals, Python's str() of shapes).  Event logic is in
 * events.c. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* 2^62 ns is about 146 years: any larger ts or dur is corrupt data, and the
 * margin keeps ts + dur from overflowing int64. */
#define MAX_ABS_NS 4611686018427387904.0L

static int
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int
pr_fld_parse_number(const char *s, size_t len, double *out)
{
    char tmp[64];
    size_t i = 0;
    char *end;

    if (len == 0 || len >= sizeof(tmp))
        return 0;
    if (s[i] == '-')
        i++;
    if (i == len || !is_digit(s[i]))
        return 0;
    while (i < len && is_digit(s[i]))
        i++;
    if (i < len && s[i] == '.') {
        if (++i == len || !is_digit(s[i]))
            return 0;
        while (i < len && is_digit(s[i]))
            i++;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i == len || !is_digit(s[i]))
            return 0;
        while (i < len && is_digit(s[i]))
            i++;
    }
    if (i != len)
        return 0;
    /* strtod needs a terminator; the grammar check above already ruled
     * out its extensions (hex, inf, nan, leading space) */
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    *out = strtod(tmp, &end);
    return end == tmp + len;
}

int
pr_fld_parse_int64(const char *s, size_t len, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    uint64_t v = 0, lim;

    if (len > 0 && s[0] == '-') {
        neg = 1;
        i = 1;
    }
    if (i == len)
        return 0;
    lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; i < len; i++) {
        unsigned d = (unsigned char)s[i] - '0';

        if (d > 9 || v > (lim - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 1;
}

enum pr_fld
pr_fld_num(const cJSON *v, double *out)
{
    if (v == NULL || cJSON_IsNull(v))
        return PR_FLD_ABSENT;
    if (cJSON_IsNumber(v)) {
        if (!isfinite(v->valuedouble))
            return PR_FLD_RANGE;
        *out = v->valuedouble;
        return PR_FLD_OK;
    }
    /* torch_npu writes ts and dur as strings */
    if (cJSON_IsString(v) &&
        pr_fld_parse_number(v->valuestring, strlen(v->valuestring), out))
        return isfinite(*out) ? PR_FLD_OK : PR_FLD_RANGE;
    return PR_FLD_BAD;
}

/* Any integral value as int64; integers in strings are read exactly, even
 * beyond a double's 2^53. */
static enum pr_fld
to_int64(const cJSON *v, int64_t *out)
{
    double d;
    enum pr_fld r;

    if (cJSON_IsString(v) &&
        pr_fld_parse_int64(v->valuestring, strlen(v->valuestring), out))
        return PR_FLD_OK;
    r = pr_fld_num(v, &d);
    if (r != PR_FLD_OK)
        return r;
    if (d != floor(d))
        return PR_FLD_BAD;
    if (d < -9223372036854775808.0 || d >= 9223372036854775808.0)
        return PR_FLD_RANGE;
    *out = (int64_t)d;
    return PR_FLD_OK;
}

enum pr_fld
pr_fld_int(const cJSON *v, int64_t lo, int64_t hi, int64_t *out)
{
    int64_t i;
    enum pr_fld r = to_int64(v, &i);

    if (r != PR_FLD_OK)
        return r;
    if (i < lo || i > hi)
        return PR_FLD_RANGE;
    *out = i;
    return PR_FLD_OK;
}

enum pr_fld
pr_fld_us_to_ns(double us, int64_t *ns)
{
    /* The product is formed in long double: a double carries 53 bits and
     * 1000 needs 10 more, so x87's 64-bit mantissa holds it exactly and
     * the only rounding is the final one (a 3-decimal ts near 4.4e12 us
     * would otherwise come out 1 ns off). */
    long double x = (long double)us * 1000.0L;

    if (!isfinite(us) || fabsl(x) > MAX_ABS_NS)
        return PR_FLD_RANGE;
    *ns = (int64_t)llroundl(x);
    return PR_FLD_OK;
}

enum pr_fld
pr_fld_us_text_to_ns(const char *s, size_t n, int64_t *ns)
{
    size_t i = s[0] == '-' ? 1 : 0, digits = 0;
    int64_t us = 0, frac = 0, scale = 100;
    int up = 0;

    if (n == 0 || i == n || !is_digit(s[i]) ||
        (s[i] == '0' && i + 1 < n && is_digit(s[i + 1])))
        return PR_FLD_BAD;
    for (; i < n && is_digit(s[i]); i++) {
        /* 2^62 ns is 4.6e15 us: 16 digits, checked after the loop */
        if (++digits > 16)
            return PR_FLD_RANGE;
        us = us * 10 + (s[i] - '0');
    }
    if (i < n && s[i] == '.') {
        if (++i == n || !is_digit(s[i]))
            return PR_FLD_BAD;
        for (; i < n && is_digit(s[i]); i++) {
            if (scale > 0)
                frac += (s[i] - '0') * scale;
            else if (scale == 0)
                up = s[i] >= '5'; /* round half away from zero */
            scale = scale > 0 ? scale / 10 : -1;
        }
    }
    if (i != n)
        return PR_FLD_BAD; /* an exponent: leave it to strtod */
    if (us > 4611686018427387LL)
        return PR_FLD_RANGE;
    *ns = us * 1000 + frac + up;
    if (s[0] == '-')
        *ns = -*ns;
    return PR_FLD_OK;
}

enum pr_fld
pr_fld_time_ns(const cJSON *v, int64_t *ns)
{
    double us;
    enum pr_fld r;

    /* a plain decimal in a string (torch_npu) is read exactly, like one
     * that the slim pass takes from the text */
    if (cJSON_IsString(v)) {
        r = pr_fld_us_text_to_ns(v->valuestring, strlen(v->valuestring), ns);
        if (r != PR_FLD_BAD)
            return r;
    }
    r = pr_fld_num(v, &us);

    return r == PR_FLD_OK ? pr_fld_us_to_ns(us, ns) : r;
}

/* Decimal text of an int64 without snprintf (it runs twice per event). */
static size_t
i64_text(int64_t v, char *buf)
{
    char tmp[24];
    size_t n = 0, i;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    i = 0;
    if (v < 0)
        buf[i++] = '-';
    while (n)
        buf[i++] = tmp[--n];
    return i;
}

static int
add_i64(struct pr_buf *out, int64_t v)
{
    char tmp[24];

    return pr_buf_add(out, tmp, i64_text(v, tmp)) == PR_OK;
}

int
pr_fld_id_text(const cJSON *v, int absolute, struct pr_buf *out)
{
    int64_t i;

    pr_buf_reset(out);
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        size_t len = strlen(s);

        /* "25738" names the same thread as 25738 */
        if (!pr_fld_parse_int64(s, len, &i))
            return pr_buf_add(out, s, len) == PR_OK;
    } else if (pr_fld_int(v, INT64_MIN, INT64_MAX, &i) != PR_FLD_OK) {
        if (!cJSON_IsNumber(v))
            return 0;
        return pr_fld_py_float(v->valuedouble, out) == PR_OK;
    }
    if (absolute && i < 0 && i != INT64_MIN)
        i = -i;
    return add_i64(out, i);
}

enum pr_status
pr_fld_py_float(double d, struct pr_buf *out)
{
    char tmp[40];
    int prec;

    if (isnan(d))
        return pr_buf_adds(out, "nan");
    if (isinf(d))
        return pr_buf_adds(out, d > 0 ? "inf" : "-inf");
    if (d == floor(d) && fabs(d) < 1e16) {
        /* repr(2.0) is "2.0" */
        snprintf(tmp, sizeof(tmp), "%.1f", d);
        return pr_buf_adds(out, tmp);
    }
    /* repr() is the shortest text that reads back as the same double */
    for (prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof(tmp), "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    return pr_buf_adds(out, tmp);
}

/* Python's repr() of a string: single quotes unless the text has a single
 * quote and no double quote. */
static enum pr_status
py_repr_str(const char *s, struct pr_buf *out)
{
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    enum pr_status st = pr_buf_addc(out, q);

    for (; *s && st == PR_OK; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];

        if (c == '\\' || c == (unsigned char)q) {
            esc[0] = '\\';
            esc[1] = (char)c;
            st = pr_buf_add(out, esc, 2);
        } else if (c == '\n' || c == '\r' || c == '\t') {
            st = pr_buf_adds(out, c == '\n'   ? "\\n"
                                  : c == '\r' ? "\\r"
                                              : "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof(esc), "\\x%02x", c);
            st = pr_buf_adds(out, esc);
        } else {
            st = pr_buf_addc(out, (char)c);
        }
    }
    return st == PR_OK ? pr_buf_addc(out, q) : st;
}

static enum pr_status
py_number(double d, struct pr_buf *out)
{
    /* cJSON does not say whether the text had a fraction; shapes and the
     * like are integers, so integral values print as Python ints */
    if (d == floor(d) && fabs(d) < 9007199254740992.0)
        return add_i64(out, (int64_t)d) ? PR_OK : PR_E_NOMEM;
    return pr_fld_py_float(d, out);
}

enum pr_status
pr_fld_py_str(const cJSON *v, struct pr_buf *out)
{
    const cJSON *c;
    enum pr_status st = PR_OK;
    int obj = cJSON_IsObject(v);

    if (v == NULL || cJSON_IsNull(v))
        return pr_buf_adds(out, "None");
    if (cJSON_IsTrue(v) || cJSON_IsFalse(v))
        return pr_buf_adds(out, cJSON_IsTrue(v) ? "True" : "False");
    if (cJSON_IsNumber(v))
        return py_number(v->valuedouble, out);
    if (cJSON_IsString(v))
        return py_repr_str(v->valuestring, out);
    st = pr_buf_addc(out, obj ? '{' : '[');
    for (c = v->child; c != NULL && st == PR_OK; c = c->next) {
        if (c != v->child)
            st = pr_buf_add(out, ", ", 2);
        if (obj && st == PR_OK && c->string != NULL) {
            st = py_repr_str(c->string, out);
            if (st == PR_OK)
                st = pr_buf_add(out, ": ", 2);
        }
        if (st == PR_OK)
            st = pr_fld_py_str(c, out);
    }
    return st == PR_OK ? pr_buf_addc(out, obj ? '}' : ']') : st;
}

/* Output of raw_list(): a fixed buffer, since shapes and type lists are
 * short; a longer list is left to cJSON (its text is rare, and correct
 * either way). */
struct rawout {
    char buf[1024];
    size_t len;
};

static int
emit(struct rawout *o, const char *s, size_t n)
{
    if (n > sizeof(o->buf) - o->len)
        return 0;
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    return 1;
}

/* A JSON string without escapes or control bytes, printed with quote `q`
 * (Python's repr() uses ', and then the text may not hold one); 0 when it
 * does not qualify.  *pp is at the opening quote and ends after the
 * closing one. */
static int
raw_plain_string(const char **pp, const char *end, char q, struct rawout *o)
{
    const char *s = *pp + 1, *e = memchr(s, '"', (size_t)(end - s));
    const char *i;

    if (e == NULL)
        return 0;
    for (i = s; i < e; i++) {
        unsigned char c = (unsigned char)*i;

        if (c < 0x20 || c == 0x7f || c == '\\' || c == (unsigned char)q)
            return 0;
    }
    *pp = e + 1;
    return emit(o, &q, 1) && emit(o, s, (size_t)(e - s)) && emit(o, &q, 1);
}

/* An integer literal copied as is, when both Python and cJSON would print
 * it the same way: no fraction or exponent, no "-0" or leading zeros, at
 * most 15 digits (cJSON prints larger ones with %g). */
static int
raw_int(const char **pp, const char *end, struct rawout *o)
{
    const char *s = *pp, *p = s;

    if (p < end && *p == '-')
        p++;
    if (p == end || !is_digit(*p) ||
        (*p == '0' && (p > s || (p + 1 < end && is_digit(p[1])))))
        return 0;
    while (p < end && is_digit(*p))
        p++;
    if ((p < end && (*p == '.' || *p == 'e' || *p == 'E')) || p - s > 15)
        return 0;
    *pp = p;
    return emit(o, s, (size_t)(p - s));
}

/* One byte of a list outside its scalars; 0 when it does not belong. */
static int
raw_punct(char c, int json, int *depth, int *after_value, int *after_open,
          struct rawout *o)
{
    if (c == '[' && !*after_value && *depth < PR_INGEST_MAX_DEPTH) {
        ++*depth;
        *after_open = 1;
        return emit(o, "[", 1);
    }
    if (c == ']' && (*after_value || *after_open) && *depth > 0) {
        --*depth;
        *after_value = 1;
        *after_open = 0;
        return emit(o, "]", 1);
    }
    if (c == ',' && *after_value) {
        *after_value = 0;
        *after_open = 0;
        return emit(o, ", ", json ? 1 : 2);
    }
    return 0;
}

/* A list of lists, integers and plain strings, reprinted from its text:
 * Python's str() when !json, else cJSON's unformatted JSON. */
static int
raw_list(const char *p, size_t n, int json, struct pr_buf *out)
{
    const char *end = p + n;
    int depth = 0, after_value = 0, after_open = 0;
    struct rawout o;

    o.len = 0;
    while (p < end) {
        char c = *p;

        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            p++;
        } else if (depth == 0 && (after_value || c != '[')) {
            return 0; /* not a list, or bytes after it */
        } else if (c == '"' || c == '-' || is_digit(c)) {
            if (after_value ||
                !(c == '"' ? raw_plain_string(&p, end, json ? '"' : '\'', &o)
                           : raw_int(&p, end, &o)))
                return 0;
            after_value = 1;
            after_open = 0;
        } else if (raw_punct(c, json, &depth, &after_value, &after_open, &o)) {
            p++;
        } else {
            return 0;
        }
    }
    pr_buf_reset(out);
    return depth == 0 && after_value && pr_buf_add(out, o.buf, o.len) == PR_OK;
}

int
pr_fld_py_str_raw(const char *p, size_t n, struct pr_buf *out)
{
    return raw_list(p, n, 0, out);
}

int
pr_fld_json_raw(const char *p, size_t n, struct pr_buf *out)
{
    return raw_list(p, n, 1, out);
}
