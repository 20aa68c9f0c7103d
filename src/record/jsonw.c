/* jsonw.c - streaming JSON text for the trace writer: escaping, members,
 * numbers in the C locale, and a sticky error checked once at the end. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

void
pr_jsonw_init(struct pr_jsonw *w, FILE *fp, struct pr_buf *mem)
{
    w->fp = fp;
    w->mem = mem;
    w->st = PR_OK;
    w->first = 1;
}

static void
put(struct pr_jsonw *w, const char *s, size_t n)
{
    if (w->st != PR_OK || n == 0)
        return;
    if (w->fp != NULL) {
        if (fwrite(s, 1, n, w->fp) != n)
            w->st = PR_E_IO;
        return;
    }
    w->st = pr_buf_add(w->mem, s, n);
}

void
pr_jsonw_raw(struct pr_jsonw *w, const char *s)
{
    put(w, s, strlen(s));
}

void
pr_jsonw_rawn(struct pr_jsonw *w, const char *s, size_t n)
{
    put(w, s, n);
}

void
pr_jsonw_fmt(struct pr_jsonw *w, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    /* only numbers go through here; a longer result is a programmer error */
    if (n < 0 || (size_t)n >= sizeof(tmp)) {
        if (w->st == PR_OK)
            w->st = PR_E_LIMIT;
        return;
    }
    put(w, tmp, (size_t)n);
}

void
pr_jsonw_str(struct pr_jsonw *w, const char *s)
{
    const char *run = s;
    const char *p;

    put(w, "\"", 1);
    for (p = s; *p != '\0'; p++) {
        unsigned char ch = (unsigned char)*p;
        char esc[8];
        if (ch >= 0x20 && ch != '"' && ch != '\\')
            continue;
        put(w, run, (size_t)(p - run));
        if (ch == '"' || ch == '\\')
            snprintf(esc, sizeof(esc), "\\%c", ch);
        else
            snprintf(esc, sizeof(esc), "\\u%04x", ch);
        put(w, esc, strlen(esc));
        run = p + 1;
    }
    put(w, run, (size_t)(p - run));
    put(w, "\"", 1);
}

void
pr_jsonw_key(struct pr_jsonw *w, const char *key)
{
    if (!w->first)
        put(w, ", ", 2);
    w->first = 0;
    pr_jsonw_str(w, key);
    put(w, ": ", 2);
}

void
pr_jsonw_kstr(struct pr_jsonw *w, const char *key, const char *v)
{
    pr_jsonw_key(w, key);
    pr_jsonw_str(w, v);
}

void
pr_jsonw_kint(struct pr_jsonw *w, const char *key, int64_t v)
{
    pr_jsonw_key(w, key);
    pr_jsonw_fmt(w, "%" PRId64, v);
}

void
pr_jsonw_kuint(struct pr_jsonw *w, const char *key, uint64_t v)
{
    pr_jsonw_key(w, key);
    pr_jsonw_fmt(w, "%" PRIu64, v);
}

void
pr_jsonw_kdbl(struct pr_jsonw *w, const char *key, double v)
{
    pr_jsonw_key(w, key);
    if (!isfinite(v)) { /* JSON has no NaN; nothing we compute should be */
        pr_jsonw_raw(w, "0");
        return;
    }
    pr_jsonw_fmt(w, "%.9g", v);
}

void
pr_jsonw_kus(struct pr_jsonw *w, const char *key, int64_t ns)
{
    const char *sign = ns < 0 ? "-" : "";
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

    pr_jsonw_key(w, key);
    pr_jsonw_fmt(w, "%s%" PRIu64 ".%03u", sign, a / 1000u,
                 (unsigned)(a % 1000u));
}
