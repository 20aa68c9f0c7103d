/* render.h - report writers.  Every renderer reads only the summary tree
 * (spec/summary-json.md), never the trace model (shared/DESIGN.md). */
#ifndef PROFREPORT_RENDER_H
#define PROFREPORT_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/buf.h"
#include "profreport/error.h"

struct pr_render_opts {
    int top;                  /* rows per table (default 50) */
    const char *template_dir; /* --template-dir; NULL = built-in templates */
    const char *paper;        /* "a4" (default) or "letter" */
    const char *font;         /* TrueType file for the PDF; NULL = default */
    int64_t generated_at;     /* Unix time shown as generation time
                                 (SOURCE_DATE_EPOCH when set) */
    const char *version;      /* tool version string */
    const char *source_link;  /* editor URL template of source locations
                                 (escape.h); NULL = PR_SOURCE_LINK_DEFAULT */
    const char *detail_ranks; /* --detail-ranks for each job of a summary
                                 of several (detail.h); NULL = default */
};

struct pr_figs;

/* An HTML page under construction: a view tree whose "sections" array
 * templates/sections.mustache lays out; the caller may add more keys to
 * `root` for its page template.  Table ids come from a counter, so equal
 * inputs give equal pages. */
struct pr_html_view {
    cJSON *root;     /* owned */
    cJSON *sections; /* borrowed from root */
    size_t n_tables;
    int oom;                 /* sticky out-of-memory */
    const char *source_link; /* borrowed; NULL: source cells link nowhere */
    const char *id_prefix;   /* the sections' ids' ("job2-"): a link to a
                                part of the report ("#critical-path") goes
                                to its job's part */
};

PR_NODISCARD enum pr_status pr_html_view_init(struct pr_html_view *v,
                                              struct pr_error *err);

/* Append one section's figures (charts drawn as inline SVG, cells
 * formatted); out-of-memory is sticky in v->oom. */
void pr_html_view_section(struct pr_html_view *v, const char *id,
                          const char *title, const struct pr_figs *f);

/* Render template `tmpl_name` (--template-dir first, then the built-in)
 * over the view, appending to out.  Errors: PR_E_NOMEM (also for an
 * earlier sticky one), PR_E_TEMPLATE with the template's name and line. */
PR_NODISCARD enum pr_status pr_html_view_render(struct pr_html_view *v,
                                                const char *tmpl_name,
                                                const char *template_dir,
                                                struct pr_buf *out,
                                                struct pr_error *err);

void pr_html_view_free(struct pr_html_view *v); /* accepts a zeroed v */

/* Self-contained HTML report, appended to `out`. */
PR_NODISCARD enum pr_status pr_html_render(const cJSON *summary,
                                           const struct pr_render_opts *o,
                                           struct pr_buf *out,
                                           struct pr_error *err);

/* PDF report written to `path` (atomically: temp file, then rename). */
PR_NODISCARD enum pr_status pr_pdf_render(const cJSON *summary,
                                          const struct pr_render_opts *o,
                                          const char *path,
                                          struct pr_error *err);

#endif
