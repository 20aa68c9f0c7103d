/* render.h - report writers.  Every renderer reads only the summary tree
 * (spec/summary-json.md), never the trace model (shared/DESIGN.md). */
#ifndef PROFREPORT_RENDER_H
#define PROFREPORT_RENDER_H

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
};

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
