/* parse.h - numbers from untrusted text (command-line values, environment
 * variables, rule limits): the whole string must be one number in [lo, hi].
 * One grammar for all of them, plain decimal: strtod alone would also take
 * hexadecimal ("0x10" is 16), "inf", "nan" and leading blanks, and turn
 * "1e999" into infinity.  Header-only and libc-only, like checked.h, so
 * every layer may use it.  Each returns 1 on success (value stored) and 0
 * otherwise (*out untouched); wording the error is the caller's, since
 * each command phrases its own. */
#ifndef PROFREPORT_PARSE_H
#define PROFREPORT_PARSE_H

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline size_t
pr_parse_digits(const char *s)
{
    size_t n = 0;

    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n;
}

/* Length of the decimal number at the start of s, 0 when there is none:
 * [+-] digits [. digits] [e|E [+-] digits], or [+-] . digits [e...].  A
 * unit may follow (the caller checks what). */
static inline size_t
pr_parse_decimal_len(const char *s)
{
    size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
    size_t whole = pr_parse_digits(s + i), frac = 0, e;

    i += whole;
    if (s[i] == '.') {
        frac = pr_parse_digits(s + i + 1);
        if (whole + frac == 0)
            return 0;
        i += 1 + frac;
    }
    if (whole + frac == 0)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        e = (s[i + 1] == '+' || s[i + 1] == '-') ? 2 : 1;
        if (pr_parse_digits(s + i + e) > 0)
            i += e + pr_parse_digits(s + i + e);
    }
    return i;
}

/* The decimal number of exactly n bytes at s (n from
 * pr_parse_decimal_len, n < 64) as a finite double; 0 on overflow. */
static inline int
pr_parse_decimal_n(const char *s, size_t n, double *out)
{
    char tmp[64];
    double v;

    if (n == 0 || n >= sizeof(tmp))
        return 0;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    errno = 0;
    v = strtod(tmp, NULL);
    if (errno == ERANGE && v != 0) /* underflow to 0 is harmless */
        return 0;
    if (!isfinite(v))
        return 0;
    *out = v;
    return 1;
}

/* A decimal integer: optional sign, digits, nothing else; overflow fails. */
static inline int
pr_parse_int64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
    char *end;
    long long v;

    if (pr_parse_digits(s + i) == 0 || s[i + pr_parse_digits(s + i)] != '\0')
        return 0;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return 0;
    *out = (int64_t)v;
    return 1;
}

/* A decimal number (pr_parse_decimal_len) and nothing else, finite and in
 * [lo, hi]. */
static inline int
pr_parse_double(const char *s, double lo, double hi, double *out)
{
    size_t n = pr_parse_decimal_len(s);
    double v;

    if (n == 0 || s[n] != '\0' || !pr_parse_decimal_n(s, n, &v))
        return 0;
    if (!(v >= lo && v <= hi))
        return 0;
    *out = v;
    return 1;
}

/* A percentage: pr_parse_double's number, with or without a trailing '%'
 * ("5" and "5%" alike, the way gate rules write "+5%"). */
static inline int
pr_parse_pct(const char *s, double lo, double hi, double *out)
{
    size_t n = pr_parse_decimal_len(s);
    double v;

    if (n == 0 || (s[n] != '\0' && !(s[n] == '%' && s[n + 1] == '\0')) ||
        !pr_parse_decimal_n(s, n, &v))
        return 0;
    if (!(v >= lo && v <= hi))
        return 0;
    *out = v;
    return 1;
}

struct pr_parse_unit {
    const char *suffix;
    uint64_t scale;
};

/* A time in microseconds: a non-negative decimal number with an optional
 * unit, ns, us (or µs), ms or s, with or without a space before it; a bare
 * number is microseconds (the unit of every time option).  In [lo, hi]
 * microseconds. */
static inline int
pr_parse_time_us(const char *s, double lo, double hi, double *out)
{
    static const struct {
        const char *suffix;
        double scale;
    } units[] = {{"", 1},          {"ns", 1e-3}, {"us", 1},
                 {"\xc2\xb5s", 1}, {"ms", 1e3},  {"s", 1e6}};
    size_t n = pr_parse_decimal_len(s), i;
    const char *u = s + n;
    double v;

    if (n == 0 || s[0] == '-' || !pr_parse_decimal_n(s, n, &v))
        return 0;
    if (*u == ' ')
        u++;
    for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(u, units[i].suffix) != 0 || (u != s + n && *u == '\0'))
            continue;
        v *= units[i].scale;
        if (!(v >= lo && v <= hi))
            return 0;
        *out = v;
        return 1;
    }
    return 0;
}

/* The multiplier of a byte unit ("" and "B" are 1, KiB 1024, KB 1000, up
 * to TiB / TB; K, M, G and T alone are KiB to TiB, as in GNU sort -S and
 * head -c); 0 for anything else. */
static inline uint64_t
pr_parse_byte_unit(const char *u)
{
    static const struct pr_parse_unit units[] = {
        {"", 1},
        {"B", 1},
        {"KiB", 1ULL << 10},
        {"MiB", 1ULL << 20},
        {"GiB", 1ULL << 30},
        {"TiB", 1ULL << 40},
        {"KB", 1000ULL},
        {"MB", 1000000ULL},
        {"GB", 1000000000ULL},
        {"TB", 1000000000000ULL},
        {"K", 1ULL << 10},
        {"M", 1ULL << 20},
        {"G", 1ULL << 30},
        {"T", 1ULL << 40},
    };
    size_t i;

    for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(u, units[i].suffix) == 0)
            return units[i].scale;
    return 0;
}

/* m * 10^exp10 * scale exactly, when it is a whole number that fits. */
static inline int
pr_parse_scaled(uint64_t m, long exp10, uint64_t scale, uint64_t *out)
{
    uint64_t v;

    if (__builtin_mul_overflow(m, scale, &v))
        return 0;
    for (; exp10 > 0; exp10--)
        if (__builtin_mul_overflow(v, 10, &v))
            return 0;
    for (; exp10 < 0; exp10++) {
        if (v % 10 != 0)
            return 0; /* a fraction of a byte */
        v /= 10;
    }
    *out = v;
    return 1;
}

/* A byte count: a non-negative decimal number with an optional unit
 * (pr_parse_byte_unit) that together make a whole number of bytes in
 * [lo, hi], computed exactly ("1.5KiB" is 1536; "0.5" and "1e308GiB"
 * fail). */
static inline int
pr_parse_bytes(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    size_t n = pr_parse_decimal_len(s), i = s[0] == '+' ? 1 : 0;
    uint64_t m = 0, scale, v;
    long exp10 = 0, e = 0;
    int seen_point = 0;

    if (n == 0 || s[0] == '-' || (scale = pr_parse_byte_unit(s + n)) == 0)
        return 0;
    for (; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
        if (s[i] == '.') {
            seen_point = 1;
            continue;
        }
        if (m == 0 && s[i] == '0' && !seen_point)
            continue;
        if (m > UINT64_MAX / 10)
            return 0; /* more digits than any byte count needs */
        m = m * 10 + (uint64_t)(s[i] - '0');
        exp10 -= seen_point;
    }
    if (i < n) {
        int64_t x;
        char tmp[24];
        size_t k = n - i - 1;
        if (k >= sizeof(tmp))
            return 0;
        memcpy(tmp, s + i + 1, k);
        tmp[k] = '\0';
        if (!pr_parse_int64(tmp, -40, 40, &x))
            return 0;
        e = (long)x;
    }
    if (!pr_parse_scaled(m, exp10 + e, scale, &v) || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* The offset in `text` (JSON) of the first "\u0000" escape, a NUL
 * character inside a string, or SIZE_MAX when there is none.  cJSON
 * decodes the escape into its C string and so cuts the string there: a
 * name "a\u0000b" would be read as "a", and two names that differ after
 * it as one.  Every backslash of valid JSON starts an escape pair, so the
 * pairs are stepped over whole ("\\u0000" is a backslash, then
 * "u0000"); invalid JSON is the parser's to refuse. */
static inline size_t
pr_parse_json_nul(const char *text, size_t len)
{
    const char *p = text, *end = text + len;

    while (end - p >= 2 &&
           (p = (const char *)memchr(p, '\\', (size_t)(end - p))) != NULL) {
        if (end - p >= 6 && memcmp(p + 1, "u0000", 5) == 0)
            return (size_t)(p - text);
        if (end - p < 2)
            break;
        p += 2;
    }
    return SIZE_MAX;
}

/* The group number an HCCL operation's name carries: the digits after the
 * "__" that follows its "hcom_" prefix, up to the next '_' or the name's
 * end ("hcom_allReduce__935_1" -> "935", the last digits of its
 * communicator's id; MindStudio Insight's GroupId).  Returns where they
 * start, their count (1 to 11) in *len; NULL (*len 0) when the name
 * carries none. */
static inline const char *
pr_parse_hccl_group(const char *name, size_t *len)
{
    const char *g = name != NULL && strncmp(name, "hcom_", 5) == 0
                        ? strstr(name + 5, "__")
                        : NULL;
    size_t n = g != NULL ? pr_parse_digits(g + 2) : 0;

    *len = 0;
    if (n == 0 || n >= 12 || (g[2 + n] != '_' && g[2 + n] != '\0'))
        return NULL;
    *len = n;
    return g + 2;
}

/* An autograd node's name as Node::name() gives it, the name of the range
 * around its apply() (Node::operator() in torch/csrc/autograd/function.h
 * records it with the node's sequence number): a generated node's
 * "MmBackward0" (PyTorch >= 1.11; "MmBackward" before), a Python
 * Function's "<class>Backward" ("CheckpointFunctionBackward"), or one of
 * torch::autograd's own ("torch::autograd::CopySlices",
 * "torch::autograd::CopyBackwards", "torch::autograd::GraphRoot").  Never
 * an ATen op ("aten::convolution_backward": a namespace, lower case) nor
 * the engine's "autograd::engine::evaluate_function: MmBackward0" wrapper,
 * which has no sequence number.  s: n bytes, the name alone. */
static inline int
pr_parse_autograd_node(const char *s, size_t n)
{
    static const char ns[] = "torch::autograd::";
    size_t b = sizeof("Backward") - 1;

    if (n > sizeof(ns) - 1 && memcmp(s, ns, sizeof(ns) - 1) == 0)
        return memchr(s + sizeof(ns) - 1, ' ', n - (sizeof(ns) - 1)) == NULL;
    if (memchr(s, ':', n) != NULL || memchr(s, ' ', n) != NULL)
        return 0;
    while (n > 0 && s[n - 1] >= '0' && s[n - 1] <= '9')
        n--;
    if (n > b + 1 && s[n - 1] == 's' &&
        memcmp(s + n - 1 - b, "Backward", b) == 0)
        return 1; /* "CopyBackwards" */
    return n > b && memcmp(s + n - b, "Backward", b) == 0;
}

#endif
