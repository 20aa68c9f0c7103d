/* shorten.h - the one way profreport shortens an operator or kernel name
 * for display (tables, charts, diff Markdown, JUnit, HTML and PDF).  Names
 * are cut the way people read them: first the parts that never tell two
 * kernels apart (return type, parameter list, "(anonymous namespace)",
 * namespaces inside template arguments, the function's own namespace),
 * then nested template arguments, then all of them, and only then the
 * middle of what is left, so both ends (often what distinguishes two
 * names) stay.  Full names stay in the JSON, CSV and tooltips.
 *
 * Widths are counted in code points.  Output is valid UTF-8 whenever the
 * input is.  Nothing here allocates more than a copy of the name; on
 * out-of-memory the plain middle cut is used, so these cannot fail. */
#ifndef PROFREPORT_SHORTEN_H
#define PROFREPORT_SHORTEN_H

#include <stddef.h>

/* Bytes an output buffer needs for max_chars code points (UTF-8, plus an
 * ellipsis and the NUL). */
#define PR_SHORTEN_CAP(max_chars) (4 * (size_t)(max_chars) + 8)

/* The display form of `name` in at most max_chars code points (max_chars
 * >= 8; smaller is treated as 8), written into out (cap bytes, at least
 * PR_SHORTEN_CAP(max_chars) for the full form; a smaller buffer gets a
 * shorter cut).  Returns out.  A name that fits is copied unchanged. */
char *pr_shorten(const char *name, size_t max_chars, char *out, size_t cap);

/* Cut text to at most max_chars code points by replacing its middle with
 * an ellipsis ("head…tail"), for text that is not a name (a gate's
 * detail ends with its verdict).  Returns out. */
char *pr_shorten_middle(const char *text, size_t max_chars, char *out,
                        size_t cap);

/* Code points of UTF-8 text (continuation bytes not counted). */
size_t pr_shorten_width(const char *s);

#endif
