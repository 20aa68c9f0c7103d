/* error.c - status texts and the first-error-wins error record. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

#define ELLIPSIS "\xE2\x80\xA6"
#define FULL_SIZE                                                              \
    16384 /* a message formatted whole on the stack (two                       \
             paths of PATH_MAX); longer ones on the heap */

/* Byte offset at or before i that starts a UTF-8 code point. */
static size_t
cp_start(const char *s, size_t i)
{
    while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
        i--;
    return i;
}

/* Does byte c end a word of a message (a path has none of these but
 * the space, which a path of spaces gives up on)? */
static int
is_gap(char c)
{
    return c == ' ' || c == '\'' || c == '"' || c == '\n' || c == '\t' ||
           c == '(' || c == ')' || c == ',';
}

/* full (len bytes) into msg (PR_ERROR_MSG_SIZE): whole when it fits;
 * else the middle of its longest word (a path: its head and its file
 * name stay, and the reason after it) gives way to an ellipsis; where
 * no word is long enough, the middle of the whole message. */
static void
fit(char *msg, const char *full, size_t len)
{
    size_t cap = PR_ERROR_MSG_SIZE - 1, over, i, at = 0, best = 0, w0 = 0;
    size_t head, cut_from, cut_to;

    if (len <= cap) {
        memcpy(msg, full, len);
        msg[len] = '\0';
        return;
    }
    over = len - cap + 3;        /* bytes to drop, the ellipsis included */
    for (i = 0; i <= len; i++) { /* the longest word */
        if (i == len || is_gap(full[i])) {
            if (i - at > best) {
                best = i - at;
                w0 = at;
            }
            at = i + 1;
        }
    }
    if (best >= over + 24) { /* keep 16 bytes of its head, and its tail */
        head = (best - over) / 4 < 16 ? (best - over) / 4 : 16;
        cut_from = w0 + head;
    } else { /* the middle of the message: a third before, the rest after */
        cut_from = (cap - 3) / 3;
    }
    cut_from = cp_start(full, cut_from);
    cut_to = cut_from + over; /* <= len: the word, or the message, holds it */
    while (cut_to < len && ((unsigned char)full[cut_to] & 0xC0) == 0x80)
        cut_to++;
    memcpy(msg, full, cut_from);
    memcpy(msg + cut_from, ELLIPSIS, 3);
    memcpy(msg + cut_from + 3, full + cut_to, len - cut_to);
    msg[cut_from + 3 + len - cut_to] = '\0';
}

/* vsnprintf(fmt, ap) into err->msg through fit(): formatted whole first
 * (on the heap when long; on out-of-memory, the stack's part of it). */
static void
put(struct pr_error *err, const char *fmt, va_list ap)
{
    char stack[FULL_SIZE], *full = stack;
    size_t cap = sizeof(stack);
    va_list again;
    int n;

    va_copy(again, ap);
    n = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    if (n >= (int)sizeof(stack) && (full = malloc((size_t)n + 1)) != NULL)
        cap = (size_t)n + 1;
    else
        full = stack;
    vsnprintf(full, cap, fmt, ap);
    fit(err->msg, full, strlen(full));
    if (full != stack)
        free(full);
}

enum pr_status
pr_error_set(struct pr_error *err, enum pr_status code, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL || err->code != PR_OK)
        return code;
    err->code = code;
    va_start(ap, fmt);
    put(err, fmt, ap);
    va_end(ap);
    return code;
}

void
pr_error_prefix(struct pr_error *err, const char *fmt, ...)
{
    char full[FULL_SIZE + PR_ERROR_MSG_SIZE];
    va_list ap;
    size_t np, no;

    if (err == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(full, FULL_SIZE, fmt, ap);
    va_end(ap);
    np = strlen(full);
    no = strnlen(err->msg, sizeof(err->msg) - 1);
    memcpy(full + np, err->msg, no);
    full[np + no] = '\0';
    fit(err->msg, full, np + no);
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
