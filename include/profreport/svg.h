/* svg.h - the SVG backend of the canvas (canvas.h): charts become SVG text
 * appended to a struct pr_buf, for inline use in the HTML report.  Theme
 * roles (PR_COLOR_INK, ...) become CSS variables with a light fallback, so
 * the page's light / dark scheme restyles the charts.  Coordinates are
 * rounded to 0.01 and formatted in the C locale: the same drawing gives the
 * same bytes. */
#ifndef PROFREPORT_SVG_H
#define PROFREPORT_SVG_H

#include <stddef.h>

#include "profreport/buf.h"
#include "profreport/canvas.h"
#include "profreport/error.h"

struct pr_svg {
    struct pr_buf *out;    /* borrowed */
    enum pr_status status; /* sticky: first write error */
};

/* Make `c` an SVG canvas of w x h points writing into `out`, and write the
 * opening <svg> tag with role="img" and `label` (escaped) as its accessible
 * name.  `s` and `out` must outlive the canvas.  Errors are sticky: check
 * pr_svg_end(). */
void pr_svg_begin(struct pr_svg *s, struct pr_canvas *c, struct pr_buf *out,
                  double w, double h, const char *label);

/* Close the </svg> element; returns the first write error (PR_E_NOMEM,
 * PR_E_LIMIT), or PR_E_NOMEM when a chart could not allocate scratch. */
PR_NODISCARD enum pr_status pr_svg_end(struct pr_svg *s, struct pr_canvas *c);

/* Estimated width in points of utf8 in the report's sans-serif font
 * (Helvetica metrics for ASCII, 1 em for wide scripts).  Cannot fail. */
double pr_svg_text_width(const char *utf8, double size, int bold);

#endif
