/* parse.h - numbers from untrusted text (command-line values, environment
 * variables): the whole string must be one number in [lo, hi].  Header-only
 * and libc-only, like checked.h, so every layer may use it.  Each returns 1
 * on success (value stored) and 0 otherwise (*out untouched); wording the
 * error is the caller's, since each command phrases its own. */
#ifndef PROFREPORT_PARSE_H
#define PROFREPORT_PARSE_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* A decimal integer; empty text, trailing bytes and overflow fail. */
static inline int
pr_parse_int64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    long long v;

    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        return 0;
    *out = (int64_t)v;
    return 1;
}

/* A number as strtod reads it; NaN is never in range, so it fails. */
static inline int
pr_parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v >= lo && v <= hi))
        return 0;
    *out = v;
    return 1;
}

#endif
