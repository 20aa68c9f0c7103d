/* error.h - one status enum and a fixed-size error record for the whole tool.
 *
 * Every fallible function returns enum pr_status (or NULL for constructors)
 * and takes `struct pr_error *err` last.  pr_error_set() keeps the FIRST
 * error: the innermost, most specific message wins; callers add context with
 * pr_error_prefix().  The message buffer is fixed so out-of-memory can be
 * reported without allocating. */
#ifndef PROFREPORT_ERROR_H
#define PROFREPORT_ERROR_H

#include <stddef.h>

#if defined(__GNUC__)
#define PR_NODISCARD __attribute__((warn_unused_result))
#define PR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PR_NODISCARD
#define PR_PRINTF(a, b)
#endif

/* 1 when built under a sanitizer.  Its allocator replaces glibc's, so
 * glibc's malloc_trim() must not be called: it walks arenas that were
 * never set up, and crashed in a parser thread under ASan (--jobs 3). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PR_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PR_SANITIZED 1
#endif
#endif
#ifndef PR_SANITIZED
#define PR_SANITIZED 0
#endif

/* Values are never renumbered. */
enum pr_status {
    PR_OK = 0,
    PR_E_USAGE = 1,      /* bad command line */
    PR_E_IO = 2,         /* cannot read or write a file */
    PR_E_FORMAT = 3,     /* input is not what it claims to be */
    PR_E_LIMIT = 4,      /* input exceeds a configured limit */
    PR_E_NOMEM = 5,      /* allocation failed */
    PR_E_TEMPLATE = 6,   /* report template is broken */
    PR_E_PDF = 7,        /* libharu failed */
    PR_E_REGRESSION = 8, /* diff: a gate tripped */
    PR_E_NOT_FORMAT = 9, /* input is not in the format asked to read it:
                            a folder member is skipped, a file given
                            explicitly is bad input */
    /* diff, trend: every gate was skipped, so nothing was compared */
    PR_E_INCONCLUSIVE = 10,
    PR_E_LAST
};

#define PR_ERROR_MSG_SIZE 512

struct pr_error {
    enum pr_status code;
    char msg[PR_ERROR_MSG_SIZE];
};

/* Static text for a status code; never NULL. */
const char *pr_error_str(enum pr_status code);

/* Reset to PR_OK with an empty message. */
void pr_error_clear(struct pr_error *err);

/* Record an error unless one is already recorded.  Returns `code` so callers
 * can write `return pr_error_set(err, PR_E_IO, "...")`.  err may be NULL. */
enum pr_status pr_error_set(struct pr_error *err, enum pr_status code,
                            const char *fmt, ...) PR_PRINTF(3, 4);

/* Prepend context ("file.json: ") to an existing message. */
void pr_error_prefix(struct pr_error *err, const char *fmt, ...)
    PR_PRINTF(2, 3);

/* Process exit status for a code (DESIGN.md): 0 ok, 1 usage, 2 input, 3
 * regression, 4 a gate run that compared nothing (inconclusive); other
 * failures (I/O on output, memory) map to 2. */
int pr_error_exit_status(enum pr_status code);

#endif
