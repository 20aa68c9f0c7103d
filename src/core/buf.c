/* buf.c - capped growable byte buffers and typed-array growth. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"

void
pr_buf_init(struct pr_buf *b, size_t max)
{
    memset(b, 0, sizeof(*b));
    b->max = max ? max : SIZE_MAX;
}

void
pr_buf_free(struct pr_buf *b)
{
    if (b == NULL)
        return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void
pr_buf_reset(struct pr_buf *b)
{
    b->len = 0;
    b->failed = 0;
    if (b->data)
        b->data[0] = '\0';
}

static enum pr_status
ensure(struct pr_buf *b, size_t extra)
{
    size_t need, ncap;
    char *p;

    if (!pr_checked_add_size(b->len, extra, &need) ||
        !pr_checked_add_size(need, 1, &need) || need - 1 > b->max)
        return PR_E_LIMIT;
    if (need <= b->cap)
        return PR_OK;
    ncap = b->cap ? b->cap : 64;
    while (ncap < need)
        ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
    p = realloc(b->data, ncap);
    if (p == NULL)
        return PR_E_NOMEM;
    b->data = p;
    b->cap = ncap;
    return PR_OK;
}

enum pr_status
pr_buf_add(struct pr_buf *b, const void *p, size_t n)
{
    enum pr_status st;

    if (b->failed)
        return PR_E_NOMEM;
    st = ensure(b, n);
    if (st != PR_OK) {
        b->failed = 1;
        return st;
    }
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return PR_OK;
}

enum pr_status
pr_buf_addc(struct pr_buf *b, char c)
{
    return pr_buf_add(b, &c, 1);
}

enum pr_status
pr_buf_adds(struct pr_buf *b, const char *s)
{
    return pr_buf_add(b, s, strlen(s));
}

enum pr_status
pr_buf_vprintf(struct pr_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    int n;
    enum pr_status st;

    if (b->failed)
        return PR_E_NOMEM;
    va_copy(ap2, ap);
    n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return PR_E_FORMAT;
    st = ensure(b, (size_t)n);
    if (st != PR_OK) {
        b->failed = 1;
        return st;
    }
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return PR_OK;
}

enum pr_status
pr_buf_printf(struct pr_buf *b, const char *fmt, ...)
{
    va_list ap;
    enum pr_status st;

    va_start(ap, fmt);
    st = pr_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return st;
}

char *
pr_buf_take(struct pr_buf *b, size_t *len)
{
    char *p = b->data;

    if (len)
        *len = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
    return p;
}

enum pr_status
pr_grow(void **data, size_t *cap, size_t need, size_t elem)
{
    size_t ncap, bytes;
    void *p;

    if (need <= *cap)
        return PR_OK;
    ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 4)
            return PR_E_NOMEM;
        ncap = ncap + ncap / 2 + 16;
    }
    if (!pr_checked_mul_size(ncap, elem, &bytes))
        return PR_E_NOMEM;
    p = realloc(*data, bytes);
    if (p == NULL)
        return PR_E_NOMEM;
    *data = p;
    *cap = ncap;
    return PR_OK;
}
