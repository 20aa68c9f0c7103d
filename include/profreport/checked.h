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
