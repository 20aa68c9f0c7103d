/* tmpl.h - Mustache templates rendered over a cJSON tree (the summary).
 *
 * Templates are files in templates/, embedded at build time into
 * pr_tmpl_builtin[]; a directory given with --template-dir overrides them
 * file by file.  {{x}} is HTML-escaped; {{{x}}} / {{& x}} insert raw text and
 * are used only for fragments the renderer itself produced (SVG, tables). */
#ifndef PROFREPORT_TMPL_H
#define PROFREPORT_TMPL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/buf.h"
#include "profreport/error.h"

struct pr_tmpl_file {
    const char *name; /* basename, e.g. "report.html" */
    const char *data; /* bytes, NUL-terminated */
    size_t len;
};

/* Generated from templates/ (src/render/tmpl_builtin.c); ends with a
 * {NULL, NULL, 0} entry. */
extern const struct pr_tmpl_file pr_tmpl_builtin[];

/* Load template `name`: from `dir` when non-NULL and the file exists there,
 * else the built-in copy.  *out receives an owned NUL-terminated copy. */
PR_NODISCARD enum pr_status pr_tmpl_load(const char *name, const char *dir,
                                         char **out, size_t *len,
                                         struct pr_error *err);

/* Partial lookup callback: return an owned copy of partial `name`, or NULL
 * when none (renders as empty). */
typedef char *(*pr_tmpl_partial_fn)(const char *name, void *user);

/* Render `tmpl` with `data` as the root context, appending to `out`.
 * Errors (unbalanced sections, bad delimiters) are PR_E_TEMPLATE with the
 * line number. */
PR_NODISCARD enum pr_status pr_tmpl_render(const char *tmpl, size_t len,
                                           const cJSON *data,
                                           pr_tmpl_partial_fn partial,
                                           void *user, struct pr_buf *out,
                                           struct pr_error *err);

#endif
