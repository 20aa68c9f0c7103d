/* error.c - status texts and the first-error-wins error record. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "profreport/error.h"

static const char *const texts[] = {
    "ok",
    "usage error",
    "i/o error",
    "bad input",
    "limit exceeded",
    "out of memory",
    "template error",
    "pdf error",
    "regression found",
    "not this format",
    "inconclusive: no gate compared anything",
};
_Static_assert(sizeof(texts) / sizeof(texts[0]) == PR_E_LAST,
               "one text per status");

const char *
pr_error_str(enum pr_status code)
{
    if ((unsigned)code >= sizeof(texts) / sizeof(texts[0]))
        return "unknown error";
    return texts[code];
}

void
pr_error_clear(struct pr_error *err)
{
    if (err == NULL)
        return;
    err->code = PR_OK;
    err->msg[0] = '\0';
}

enum pr_status
pr_error_set(struct pr_error *err, enum pr_status code, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL || err->code != PR_OK)
        return code;
    err->code = code;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
    return code;
}

void
pr_error_prefix(struct pr_error *err, const char *fmt, ...)
{
    char pre[PR_ERROR_MSG_SIZE];
    char old[PR_ERROR_MSG_SIZE];
    va_list ap;
    size_t np, no;

    if (err == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof(pre), fmt, ap);
    va_end(ap);

    memcpy(old, err->msg, sizeof(old));
    old[sizeof(old) - 1] = '\0';
    np = strlen(pre);
    no = strlen(old);
    if (np > sizeof(err->msg) - 1)
        np = sizeof(err->msg) - 1;
    if (no > sizeof(err->msg) - 1 - np)
        no = sizeof(err->msg) - 1 - np;
    memcpy(err->msg, pre, np);
    memcpy(err->msg + np, old, no);
    err->msg[np + no] = '\0';
}

int
pr_error_exit_status(enum pr_status code)
{
    switch (code) {
    case PR_OK:
        return 0;
    case PR_E_USAGE:
        return 1;
    case PR_E_REGRESSION:
        return 3;
    case PR_E_INCONCLUSIVE:
        return 4;
    default:
        return 2;
    }
}
