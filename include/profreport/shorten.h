/* shorten.h - the one way profreport shortens an operator or kernel name
 * for display (tables, charts, diff Markdown, JUnit, HTML and PDF).  Names
 * are cut the way people read them: first the parts that never tell two
 * kernels apart (return type, parameter list, "(anonymous namespace)",
 * namespaces inside template arguments, the function's own namespace),
 * then nested template arguments, then all of them, and only then the
 * middle of what is left, so both ends (often what distinguishes two
 * names) stay.  The name that says what a kernel computes (the functor
 * or lambda owner its arguments hold: "MulFunctor") outlasts the
 * kernel's generic words ("_kernel", "_codegen"), its vector width and
 * its other arguments: "vectorized_elementwise…<…MulFunctor…>", not
 * "vectorized_elementwise_kernel<…>".  Full names stay in the JSON, CSV
 * and tooltips.
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

/* Display forms of n names in at most max_chars code points each, such
 * that two different names never read alike (issue #32): each is
 * pr_shorten's form unless another name shortens to the same one; such
 * names keep more of pr_shorten's steps undone (template arguments, then
 * namespaces, then the parameter list) until they differ, and are cut as
 * "head…tail" with one head length for all of them chosen so that every
 * two keep a differing part (the function name in the head where it
 * fits).  Names still alike after that (a width too small for their
 * difference, or groups still alike 8 levels of telling apart deep) end
 * in " [2]", " [3]" in name order.  Equal names get equal forms (and
 * numbers).  Time is linear in the names' length (a 1 MB name nested
 * 100,000 templates deep included) and nothing recurses deeper than 8.
 * forms[i] (n of them) are malloc'd, freed by pr_shorten_free.
 * Deterministic: no order depends on addresses.  Returns 0, or -1 on
 * out-of-memory (forms then all NULL). */
int pr_shorten_distinct(const char *const *names, size_t n, size_t max_chars,
                        char **forms);
void pr_shorten_free(char **forms, size_t n);

/* pr_shorten_distinct over n names, keeping the forms of the first
 * n_keep (the others only to be told apart from: the rest of a list a
 * table shows part of) at forms[i * stride] (a table's column). */
int pr_shorten_names(const char *const *names, size_t n, size_t n_keep,
                     size_t max_chars, char **forms, size_t stride);

/* pr_shorten_names for labels that are paths (a module tree's
 * "encoder.layers.3.self_attn", "Net_0/Linear_1"): a label that does not
 * fit keeps its head (its first part, at most a third of the width),
 * "…", and as many of its last parts as fit, the leaf always whole
 * (issue #32); labels that read alike so show the part where each first
 * differs from its nearest between ellipses, and are numbered " [2]"
 * where even that does not fit.  A label without '.' or '/', or whose
 * leaf alone does not fit, is cut in its middle.  Same contract as
 * pr_shorten_names (forms[i * stride], 0 or -1 on out-of-memory). */
int pr_shorten_labels(const char *const *names, size_t n, size_t n_keep,
                      size_t max_chars, char **forms, size_t stride);

/* The line a table prints once under it when one of its names reads
 * numbered (pr_shorten_numbered), so that " [2]" is explained where it
 * shows. */
#define PR_SHORTEN_LEGEND                                                      \
    "[n]: the n-th name of that short form; --json has the full names"

/* Whether a display form ends in a number pr_shorten_names gave it to
 * tell it from names that read alike (" [2]"). */
int pr_shorten_numbered(const char *form);

/* Code points of UTF-8 text (continuation bytes not counted). */
size_t pr_shorten_width(const char *s);

#endif
