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

#endif
