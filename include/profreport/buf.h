/* buf.h - growable byte buffers with a hard size cap, and a helper to grow
 * typed arrays.  Reaching the cap is an ordinary PR_E_LIMIT error (curl's
 * dynbuf).  The buffer owns its bytes; pr_buf_take() hands them over. */
#ifndef PROFREPORT_BUF_H
#define PROFREPORT_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "profreport/error.h"

struct pr_buf {
    char *data; /* owned; always NUL-terminated when len > 0 */
    size_t len;
    size_t cap; /* allocated bytes */
    size_t max; /* hard cap on len; 0 = SIZE_MAX */
    int failed; /* sticky: a write failed */
};

void pr_buf_init(struct pr_buf *b, size_t max);
void pr_buf_free(struct pr_buf *b);  /* accepts NULL */
void pr_buf_reset(struct pr_buf *b); /* len = 0, keeps memory */
PR_NODISCARD enum pr_status pr_buf_add(struct pr_buf *b, const void *p,
                                       size_t n);
PR_NODISCARD enum pr_status pr_buf_addc(struct pr_buf *b, char c);
PR_NODISCARD enum pr_status pr_buf_adds(struct pr_buf *b, const char *s);
PR_NODISCARD enum pr_status pr_buf_printf(struct pr_buf *b, const char *fmt,
                                          ...) PR_PRINTF(2, 3);
PR_NODISCARD enum pr_status pr_buf_vprintf(struct pr_buf *b, const char *fmt,
                                           va_list ap);
/* Hand over the bytes (NUL-terminated, may be NULL when empty); b is reset. */
char *pr_buf_take(struct pr_buf *b, size_t *len);

/* Grow a typed array so that it holds at least `need` elements of `elem`
 * bytes.  *data and *cap are updated; returns PR_E_NOMEM on failure (the old
 * array stays valid). */
PR_NODISCARD enum pr_status pr_grow(void **data, size_t *cap, size_t need,
                                    size_t elem);

#endif
