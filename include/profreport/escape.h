/* escape.h - the one place where trace strings become safe markup.
 *
 * Trace strings (operator and kernel names, shapes, paths) are UTF-8 from an
 * untrusted file.  pr_escape_html() makes them safe in HTML text, in quoted
 * HTML attributes and in SVG text alike; the UTF-8 helpers let renderers cut
 * long names for display without splitting a character. */
#ifndef PROFREPORT_ESCAPE_H
#define PROFREPORT_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profreport/buf.h"
#include "profreport/error.h"

/* Append len bytes of s to out, escaped for HTML/SVG text and for attribute
 * values in single or double quotes: & < > " ' become entities, invalid
 * UTF-8 and C0 controls other than tab, LF and CR become U+FFFD.  Already
 * escaped text is escaped again (data is never trusted to be markup).
 * Errors: those of pr_buf_add (PR_E_NOMEM, PR_E_LIMIT). */
PR_NODISCARD enum pr_status pr_escape_html(struct pr_buf *out, const char *s,
                                           size_t len);

/* Decode one code point from s (len > 0 bytes available).  Returns the bytes
 * consumed (1..4); an invalid or truncated sequence, an overlong form or a
 * surrogate consumes 1 byte and yields U+FFFD.  Cannot fail. */
size_t pr_escape_utf8_next(const char *s, size_t len, uint32_t *cp);

/* Number of code points in s (invalid bytes count one each). */
size_t pr_escape_utf8_len(const char *s, size_t len);

/* Byte length of the longest prefix of s holding at most max_chars code
 * points; never ends inside a multi-byte sequence. */
size_t pr_escape_utf8_prefix(const char *s, size_t len, size_t max_chars);

/* Append s escaped as by pr_escape_html, cut to at most max_chars code points
 * with "…" (counted in max_chars) when it is longer.  max_chars >= 2. */
PR_NODISCARD enum pr_status pr_escape_html_trunc(struct pr_buf *out,
                                                 const char *s, size_t len,
                                                 size_t max_chars);

/* The editor link of a source location (--source-link): the default
 * template, and the most bytes a template or a link may take. */
#define PR_SOURCE_LINK_DEFAULT "file://{path}"
#define PR_SOURCE_LINK_MAX 1024

/* Check a --source-link template before any work: at most
 * PR_SOURCE_LINK_MAX bytes, printable ASCII, a URL scheme
 * ("vscode:", "file:", "https:" ...) that is not one that runs code
 * (javascript:, vbscript:, data:), and a {path} placeholder.  Errors:
 * PR_E_USAGE naming what is wrong. */
PR_NODISCARD enum pr_status pr_source_link_check(const char *tmpl,
                                                 struct pr_error *err);

/* The link of source file `path` at `line` (<= 0: unknown, {line} becomes
 * 1) from a checked template: {path} becomes the path percent-encoded
 * (bytes other than letters, digits, "-._~/:" become %XX, so a hostile
 * path can neither end the attribute nor add a query), {line} the line
 * number.  Written into out (n bytes); returns 0 when it does not fit or
 * the default template gets a relative path (a file:// link needs an
 * absolute one), else 1.  The caller still HTML-escapes the result.
 * Cannot fail otherwise. */
int pr_source_link(const char *tmpl, const char *path, long line, char *out,
                   size_t n);

/* Make text from a trace safe for a terminal, in place: C0 controls but
 * tab and newline, DEL, the C1 controls (U+0080..U+009F) and bytes that
 * are not UTF-8 become '?', so that a name cannot move the cursor, retitle
 * the window or write the clipboard (ESC ] 52).  Returns the new length
 * (never longer); s stays NUL-terminated when it was. */
size_t pr_escape_term(char *s, size_t len);

/* fprintf to a terminal-bound stream with the whole text passed through
 * pr_escape_term first (messages name paths and operators). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void
pr_term_printf(FILE *f, const char *fmt, ...);

#endif
