/* escape.c - HTML/SVG escaping and UTF-8 boundary helpers for trace strings.
 * Callers decide what to escape; this file only decides how. */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/escape.h"
#include "profreport/progress.h"

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */
#define ELLIPSIS "\xE2\x80\xA6"    /* U+2026 */

static int
is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

size_t
pr_escape_utf8_next(const char *s, size_t len, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t need;
    uint32_t v, min;

    *cp = 0xFFFD;
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    if ((u[0] & 0xE0) == 0xC0) {
        need = 2, v = u[0] & 0x1F, min = 0x80;
    } else if ((u[0] & 0xF0) == 0xE0) {
        need = 3, v = u[0] & 0x0F, min = 0x800;
    } else if ((u[0] & 0xF8) == 0xF0) {
        need = 4, v = u[0] & 0x07, min = 0x10000;
    } else {
        return 1;
    }
    if (len < need) {
        return 1;
    }
    for (size_t i = 1; i < need; i++) {
        if (!is_cont(u[i])) {
            return 1;
        }
        v = (v << 6) | (u[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        return 1;
    }
    *cp = v;
    return need;
}

size_t
pr_escape_utf8_len(const char *s, size_t len)
{
    size_t i = 0, n = 0;
    uint32_t cp;

    while (i < len) {
        i += pr_escape_utf8_next(s + i, len - i, &cp);
        n++;
    }
    return n;
}

size_t
pr_escape_utf8_prefix(const char *s, size_t len, size_t max_chars)
{
    size_t i = 0, n = 0;
    uint32_t cp;

    while (i < len && n < max_chars) {
        i += pr_escape_utf8_next(s + i, len - i, &cp);
        n++;
    }
    return i;
}

/* Entity for an ASCII byte that needs one, else NULL. */
static const char *
entity(unsigned char c)
{
    switch (c) {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '"':
        return "&quot;";
    case '\'':
        return "&#39;";
    default:
        break;
    }
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
        return REPLACEMENT;
    }
    return NULL;
}

enum pr_status
pr_escape_html(struct pr_buf *out, const char *s, size_t len)
{
    size_t i = 0, run = 0; /* run: start of bytes copied verbatim */
    enum pr_status st;

    while (i < len) {
        uint32_t cp;
        size_t n = pr_escape_utf8_next(s + i, len - i, &cp);
        const char *rep = NULL;

        if (n == 1) {
            rep = entity((unsigned char)s[i]);
            if (rep == NULL && (unsigned char)s[i] >= 0x80) {
                rep = REPLACEMENT; /* invalid byte */
            }
        }
        if (rep != NULL) {
            st = pr_buf_add(out, s + run, i - run);
            if (st == PR_OK) {
                st = pr_buf_adds(out, rep);
            }
            if (st != PR_OK) {
                return st;
            }
            run = i + n;
        }
        i += n;
    }
    return pr_buf_add(out, s + run, len - run);
}

enum pr_status
pr_escape_html_trunc(struct pr_buf *out, const char *s, size_t len,
                     size_t max_chars)
{
    size_t cut;
    enum pr_status st;

    if (max_chars < 2 || pr_escape_utf8_len(s, len) <= max_chars) {
        return pr_escape_html(out, s, len);
    }
    cut = pr_escape_utf8_prefix(s, len, max_chars - 1);
    st = pr_escape_html(out, s, cut);
    if (st != PR_OK) {
        return st;
    }
    return pr_buf_adds(out, ELLIPSIS);
}

/* ---- source links ----------------------------------------------------- */

static int
starts_ci(const char *s, const char *prefix)
{
    for (; *prefix != '\0'; s++, prefix++)
        if (tolower((unsigned char)*s) != *prefix)
            return 0;
    return 1;
}

enum pr_status
pr_source_link_check(const char *tmpl, struct pr_error *err)
{
    static const char *const banned[] = {"javascript:", "vbscript:", "data:"};
    size_t i, n = strlen(tmpl),
              scheme = strspn(tmpl, "abcdefghijklmnopqrstuvwxyz"
                                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                    "0123456789+.-");

    if (n > PR_SOURCE_LINK_MAX)
        return pr_error_set(err, PR_E_USAGE,
                            "--source-link: longer than %d bytes",
                            PR_SOURCE_LINK_MAX);
    for (i = 0; i < n; i++)
        if (tmpl[i] < 0x21 || tmpl[i] > 0x7e)
            return pr_error_set(err, PR_E_USAGE,
                                "--source-link: byte %zu is not printable "
                                "ASCII (percent-encode it)",
                                i);
    if (scheme == 0 || tmpl[scheme] != ':' || !isalpha((unsigned char)tmpl[0]))
        return pr_error_set(err, PR_E_USAGE,
                            "--source-link: '%s' does not start with a URL "
                            "scheme (e.g. vscode://file/{path}:{line})",
                            tmpl);
    for (i = 0; i < sizeof(banned) / sizeof(banned[0]); i++)
        if (starts_ci(tmpl, banned[i]))
            return pr_error_set(err, PR_E_USAGE,
                                "--source-link: %s links run code; use an "
                                "editor or file URL",
                                banned[i]);
    if (strstr(tmpl, "{path}") == NULL)
        return pr_error_set(err, PR_E_USAGE,
                            "--source-link: '%s' has no {path}", tmpl);
    return PR_OK;
}

/* Append path percent-encoded at out[*at]; 0 when it does not fit. */
static int
put_path(const char *path, char *out, size_t n, size_t *at)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *p;

    for (p = (const unsigned char *)path; *p != '\0'; p++) {
        int plain = isalnum(*p) || strchr("-._~/:", *p) != NULL;
        if (*at + (plain ? 1 : 3) >= n)
            return 0;
        if (plain) {
            out[(*at)++] = (char)*p;
        } else {
            out[(*at)++] = '%';
            out[(*at)++] = hex[*p >> 4];
            out[(*at)++] = hex[*p & 15];
        }
    }
    return 1;
}

int
pr_source_link(const char *tmpl, const char *path, long line, char *out,
               size_t n)
{
    size_t at = 0;
    const char *t;

    if (n == 0 || path == NULL || path[0] == '\0' ||
        (strcmp(tmpl, PR_SOURCE_LINK_DEFAULT) == 0 && path[0] != '/'))
        return 0;
    for (t = tmpl; *t != '\0';) {
        if (strncmp(t, "{path}", 6) == 0) {
            if (!put_path(path, out, n, &at))
                return 0;
            t += 6;
        } else if (strncmp(t, "{line}", 6) == 0) {
            int w = snprintf(out + at, n - at, "%ld", line > 0 ? line : 1);
            if (w < 0 || (size_t)w >= n - at)
                return 0;
            at += (size_t)w;
            t += 6;
        } else if (at + 1 < n) {
            out[at++] = *t++;
        } else {
            return 0;
        }
    }
    out[at] = '\0';
    return 1;
}

size_t
pr_escape_term(char *s, size_t len)
{
    size_t i = 0, o = 0;

    while (i < len) {
        uint32_t cp;
        size_t k = pr_escape_utf8_next(s + i, len - i, &cp);
        int bad =
            (cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0x7F ||
            (cp >= 0x80 && cp <= 0x9F) ||
            (cp == 0xFFFD && (k != 3 || memcmp(s + i, "\xEF\xBF\xBD", 3) != 0));

        if (bad) {
            s[o++] = '?';
        } else {
            memmove(s + o, s + i, k);
            o += k;
        }
        i += k;
    }
    if (o < len)
        s[o] = '\0';
    return o;
}

void
pr_term_printf(FILE *f, const char *fmt, ...)
{
    char small[1024], *p = small;
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof(small)) {
        p = malloc((size_t)n + 1);
        if (p == NULL) { /* the message cut, never unescaped */
            p = small;
            n = (int)sizeof(small) - 1;
        } else {
            va_start(ap, fmt);
            vsnprintf(p, (size_t)n + 1, fmt, ap);
            va_end(ap);
        }
    }
    pr_progress_interrupt(f); /* not into a progress line */
    fwrite(p, 1, pr_escape_term(p, (size_t)n), f);
    if (p != small)
        free(p);
}
