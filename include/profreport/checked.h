/* checked.h - overflow-checked integer arithmetic for sizes and times that
 * come from untrusted input.  Each returns 1 on success (result stored) and 0
 * on overflow (result unspecified). */
#ifndef PROFREPORT_CHECKED_H
#define PROFREPORT_CHECKED_H

#include <stddef.h>
#include <stdint.h>

static inline int
pr_checked_add_i64(int64_t a, int64_t b, int64_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

static inline int
pr_checked_mul_i64(int64_t a, int64_t b, int64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

/* a + b and a - b clamped to the int64 range.  For totals and spans of
 * trace times: the reader accepts each ts and dur within about +-2^62 ns,
 * which bounds no sum of many durations nor the difference of two far
 * ends, so every such sum saturates instead of wrapping (a hostile trace
 * then shows "very large", never a negative time). */
static inline int64_t
pr_sat_add_i64(int64_t a, int64_t b)
{
    int64_t r;

    if (!__builtin_add_overflow(a, b, &r))
        return r;
    return b > 0 ? INT64_MAX : INT64_MIN;
}

static inline int64_t
pr_sat_sub_i64(int64_t a, int64_t b)
{
    int64_t r;

    if (!__builtin_sub_overflow(a, b, &r))
        return r;
    return b < 0 ? INT64_MAX : INT64_MIN;
}

static inline int
pr_checked_mul_size(size_t a, size_t b, size_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

static inline int
pr_checked_add_size(size_t a, size_t b, size_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

#endif
