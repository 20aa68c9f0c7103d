/* svg.c - canvas backend that writes SVG elements into a pr_buf.  Strings
 * are escaped here (escape.c), never by the charts. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profreport/escape.h"
#include "profreport/svg.h"

/* Helvetica advance widths (1/1000 em) for ASCII 32..126. */
static const unsigned short helvetica[95] = {
    278, 278, 355, 556, 556,  889, 667, 191, 333, 333, 389, 584, 278, 333,
    278, 278, 556, 556, 556,  556, 556, 556, 556, 556, 556, 556, 278, 278,
    584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278,
    500, 667, 556, 833, 722,  778, 667, 778, 722, 667, 611, 722, 667, 944,
    667, 667, 611, 278, 278,  278, 469, 556, 333, 556, 556, 500, 556, 556,
    278, 556, 556, 222, 222,  500, 222, 833, 556, 556, 556, 556, 333, 500,
    278, 556, 500, 722, 500,  500, 500, 334, 260, 334, 584,
};

static const char *const role_var[] = {"", "--ink", "--muted", "--grid",
                                       "--bg"};

double
pr_svg_text_width(const char *utf8, double size, int bold)
{
    size_t i = 0, len = strlen(utf8);
    double em = 0;

    while (i < len) {
        uint32_t cp;
        i += pr_escape_utf8_next(utf8 + i, len - i, &cp);
        if (cp >= 32 && cp < 127) {
            em += helvetica[cp - 32] / 1000.0;
        } else if (cp >= 0x1100) {
            em += 1.0; /* CJK and other wide scripts */
        } else {
            em += 0.556;
        }
    }
    /* The browser draws with Helvetica or Arial where it has them and
     * with DejaVu Sans on many Linux desktops (and headless Chromium on
     * Debian), about a tenth wider: lay out for the wider one, so legends
     * and labels never run into each other. */
    return em * size * (bold ? 1.07 : 1.0) * 1.1;
}

/* Appends are sticky: the first error stops the rest and marks the
 * canvas failed. */
static int
open_for_more(struct pr_canvas *c)
{
    return ((struct pr_svg *)c->backend)->status == PR_OK;
}

static void
keep(struct pr_canvas *c, enum pr_status st)
{
    if (st != PR_OK) {
        ((struct pr_svg *)c->backend)->status = st;
        c->failed = 1;
    }
}

static void
put(struct pr_canvas *c, const char *s)
{
    if (open_for_more(c))
        keep(c, pr_buf_adds(((struct pr_svg *)c->backend)->out, s));
}

static void
put_text(struct pr_canvas *c, const char *s)
{
    if (open_for_more(c))
        keep(c,
             pr_escape_html(((struct pr_svg *)c->backend)->out, s, strlen(s)));
}

/* A coordinate rounded to 0.01, without trailing zeros, never "-0". */
static void
num(struct pr_canvas *c, double d)
{
    char tmp[48];
    size_t n;

    if (!isfinite(d)) {
        d = 0;
    }
    d = round(d * 100) / 100;
    if (d == 0) {
        d = 0; /* drops the sign of -0 */
    }
    snprintf(tmp, sizeof(tmp), "%.2f", d);
    n = strlen(tmp);
    while (n > 0 && tmp[n - 1] == '0') {
        tmp[--n] = '\0';
    }
    if (n > 0 && tmp[n - 1] == '.') {
        tmp[--n] = '\0';
    }
    put(c, tmp);
}

/* ` name="value"` for a coordinate. */
static void
attr(struct pr_canvas *c, const char *name, double d)
{
    put(c, " ");
    put(c, name);
    put(c, "=\"");
    num(c, d);
    put(c, "\"");
}

static void
color(struct pr_canvas *c, const char *prop, uint32_t col)
{
    char tmp[64];

    if (col == PR_COLOR_NONE) {
        snprintf(tmp, sizeof(tmp), "%s:none", prop);
    } else if (pr_canvas_is_role(col)) {
        snprintf(tmp, sizeof(tmp), "%s:var(%s,#%06X)", prop,
                 role_var[col >> 24], (unsigned)(col & 0xFFFFFFu));
    } else {
        snprintf(tmp, sizeof(tmp), "%s:#%06X", prop,
                 (unsigned)(col & 0xFFFFFFu));
    }
    put(c, tmp);
}

static void
style(struct pr_canvas *c, const struct pr_style *s)
{
    put(c, " style=\"");
    color(c, "fill", s->fill);
    put(c, ";");
    color(c, "stroke", s->stroke);
    if (s->stroke != PR_COLOR_NONE) {
        put(c, ";stroke-width:");
        num(c, s->stroke_width > 0 ? s->stroke_width : 1);
    }
    if (s->opacity > 0 && s->opacity < 1) {
        put(c, ";fill-opacity:");
        num(c, s->opacity);
    }
    if (s->dashed) {
        put(c, ";stroke-dasharray:4 3");
    }
    put(c, "\"/>");
}

static void
svg_rect(struct pr_canvas *c, double x, double y, double w, double h,
         const struct pr_style *s)
{
    put(c, "<rect");
    attr(c, "x", x);
    attr(c, "y", y);
    attr(c, "width", w > 0 ? w : 0);
    attr(c, "height", h > 0 ? h : 0);
    style(c, s);
}

static void
svg_line(struct pr_canvas *c, double x1, double y1, double x2, double y2,
         const struct pr_style *s)
{
    put(c, "<line");
    attr(c, "x1", x1);
    attr(c, "y1", y1);
    attr(c, "x2", x2);
    attr(c, "y2", y2);
    style(c, s);
}

static void
svg_poly(struct pr_canvas *c, const double *xy, size_t n, int closed,
         const struct pr_style *s)
{
    put(c, closed ? "<polygon points=\"" : "<polyline points=\"");
    for (size_t i = 0; i < n; i++) {
        if (i > 0) {
            put(c, " ");
        }
        num(c, xy[2 * i]);
        put(c, ",");
        num(c, xy[2 * i + 1]);
    }
    put(c, "\"");
    style(c, s);
}

static void
svg_circle(struct pr_canvas *c, double cx, double cy, double r,
           const struct pr_style *s)
{
    put(c, "<circle");
    attr(c, "cx", cx);
    attr(c, "cy", cy);
    attr(c, "r", r);
    style(c, s);
}

static void
point(struct pr_canvas *c, const char *cmd, double cx, double cy, double r,
      double a)
{
    put(c, cmd);
    num(c, cx + r * sin(a));
    put(c, " ");
    num(c, cy - r * cos(a));
}

static void
arc(struct pr_canvas *c, double cx, double cy, double r, double a, int large,
    int sweep)
{
    put(c, " A");
    num(c, r);
    put(c, " ");
    num(c, r);
    put(c, large ? " 0 1 " : " 0 0 ");
    put(c, sweep ? "1" : "0");
    point(c, " ", cx, cy, r, a);
}

static void
svg_wedge(struct pr_canvas *c, double cx, double cy, double ro, double ri,
          double a0, double a1, const struct pr_style *s)
{
    const double full = 2 * 3.14159265358979323846;
    double mid;
    int large;

    if (a1 - a0 >= full - 1e-9) {
        a1 = a0 + full - 1e-4; /* an arc cannot close on itself */
    }
    mid = a1 - a0;
    large = mid > full / 2;
    put(c, "<path d=\"");
    point(c, "M", cx, cy, ro, a0);
    arc(c, cx, cy, ro, a1, large, 1);
    if (ri > 0) {
        point(c, " L", cx, cy, ri, a1);
        arc(c, cx, cy, ri, a0, large, 0);
    } else {
        put(c, " L");
        num(c, cx);
        put(c, " ");
        num(c, cy);
    }
    put(c, " Z\"");
    style(c, s);
}

static void
svg_text(struct pr_canvas *c, double x, double y, const char *utf8,
         const struct pr_text_style *t)
{
    static const char *const anchors[] = {"start", "middle", "end"};

    put(c, "<text");
    attr(c, "x", x);
    attr(c, "y", y);
    attr(c, "font-size", t->size);
    if (t->anchor != PR_ANCHOR_START) {
        put(c, " text-anchor=\"");
        put(c, anchors[t->anchor]);
        put(c, "\"");
    }
    if (t->bold) {
        put(c, " font-weight=\"600\"");
    }
    if (t->rotate_deg != 0) {
        put(c, " transform=\"rotate(");
        num(c, -t->rotate_deg);
        put(c, " ");
        num(c, x);
        put(c, " ");
        num(c, y);
        put(c, ")\"");
    }
    put(c, " style=\"");
    color(c, "fill", t->color);
    put(c, "\">");
    put_text(c, utf8);
    put(c, "</text>");
}

static double
svg_text_width(struct pr_canvas *c, const char *utf8, double size, int bold)
{
    (void)c;
    return pr_svg_text_width(utf8, size, bold);
}

static void
svg_group_begin(struct pr_canvas *c, const char *tooltip)
{
    put(c, "<g>");
    if (tooltip != NULL) {
        put(c, "<title>");
        put_text(c, tooltip);
        put(c, "</title>");
    }
}

static void
svg_group_end(struct pr_canvas *c)
{
    put(c, "</g>");
}

static const struct pr_canvas_ops svg_ops = {
    svg_rect, svg_line,       svg_poly,        svg_circle,    svg_wedge,
    svg_text, svg_text_width, svg_group_begin, svg_group_end,
};

void
pr_svg_begin(struct pr_svg *s, struct pr_canvas *c, struct pr_buf *out,
             double w, double h, const char *label)
{
    memset(c, 0, sizeof(*c));
    s->out = out;
    s->status = PR_OK;
    c->ops = &svg_ops;
    c->backend = s;
    c->width = w;
    c->height = h;
    put(c, "<svg class=\"chart\""); /* inline in HTML5: no xmlns */
    put(c, " font-family=\"Helvetica, Arial, &#39;Liberation Sans&#39;, "
           "sans-serif\" role=\"img\" viewBox=\"0 0 ");
    num(c, w);
    put(c, " ");
    num(c, h);
    put(c, "\"");
    attr(c, "width", w);
    attr(c, "height", h);
    /* its drawn width, for the page's CSS to bound how far a window
       scales it (report.css: review 25u #13, 8 px axis text at 800 px) */
    put(c, " style=\"--w:");
    num(c, w);
    put(c, "px\"");
    put(c, " aria-label=\"");
    put_text(c, label ? label : "chart");
    put(c, "\">");
}

enum pr_status
pr_svg_end(struct pr_svg *s, struct pr_canvas *c)
{
    put(c, "</svg>");
    if (s->status == PR_OK && c->failed) {
        return PR_E_NOMEM; /* a chart ran out of scratch memory */
    }
    return s->status;
}
