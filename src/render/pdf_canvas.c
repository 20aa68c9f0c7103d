/* pdf_canvas.c - struct pr_canvas drawn on a libharu page, so the charts of
 * the HTML report appear in the PDF as vectors.  Flips canvas coordinates
 * (y down) into page coordinates (y up) and cleans every string before it
 * reaches libharu.  Page layout and errors belong to render/pdf.c. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hpdf.h>

#include "profreport/pdf_canvas.h"

static void pc_rect(struct pr_canvas *c, double x, double y, double w, double h,
                    const struct pr_style *s);
static void pc_line(struct pr_canvas *c, double x1, double y1, double x2,
                    double y2, const struct pr_style *s);
static void pc_poly(struct pr_canvas *c, const double *xy, size_t n_points,
                    int closed, const struct pr_style *s);
static void pc_circle(struct pr_canvas *c, double cx, double cy, double r,
                      const struct pr_style *s);
static void pc_wedge(struct pr_canvas *c, double cx, double cy, double r_out,
                     double r_in, double a0, double a1,
                     const struct pr_style *s);
static void pc_text(struct pr_canvas *c, double x, double y, const char *utf8,
                    const struct pr_text_style *t);
static double pc_text_width(struct pr_canvas *c, const char *utf8, double size,
                            int bold);

static const struct pr_canvas_ops pdf_ops = {
    pc_rect, pc_line,       pc_poly, pc_circle, pc_wedge,
    pc_text, pc_text_width, NULL,    NULL,
};

/* ---- text ------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at p (1-3 bytes, BMP only, no
 * surrogates or overlongs), or 0 when it is not one. */
static size_t
utf8_bmp_len(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        return (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (p[0] >= 0xE0 && p[0] <= 0xEF) {
        unsigned cp;
        if ((p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
            return 0;
        cp = ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
        if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        return 3;
    }
    return 0;
}

/* Skip one invalid or unsupported sequence: a lead byte and the
 * continuation bytes that follow it (at most 3), so one bad character
 * becomes one '?'. */
static size_t
bad_len(const unsigned char *p)
{
    size_t n = 1;

    if (p[0] < 0xC0)
        return 1;
    while (n < 4 && (p[n] & 0xC0) == 0x80)
        n++;
    return n;
}

static int
is_control(const unsigned char *p, size_t n)
{
    if (n == 1)
        return p[0] < 0x20 || p[0] == 0x7F;
    /* C1 controls U+0080..U+009F are C2 80..C2 9F */
    return n == 2 && p[0] == 0xC2 && p[1] < 0xA0;
}

char *
pr_pdf_text_clean(const char *utf8)
{
    size_t len = strlen(utf8 ? utf8 : "");
    char *out = malloc(len + 1); /* never grows: '?' replaces >= 1 byte */

    if (out == NULL)
        return NULL;
    pr_pdf_text_clean_to(utf8, out);
    return out;
}

void
pr_pdf_text_clean_to(const char *utf8, char *out)
{
    const unsigned char *p = (const unsigned char *)(utf8 ? utf8 : "");
    size_t o = 0;

    while (*p != '\0') {
        size_t n = utf8_bmp_len(p);
        if (n == 0) {
            out[o++] = '?';
            p += bad_len(p);
        } else if (n == 1 && (*p == '\t' || *p == '\n' || *p == '\r')) {
            out[o++] = ' ';
            p++;
        } else if (is_control(p, n)) {
            out[o++] = '?';
            p += n;
        } else {
            memcpy(out + o, p, n);
            o += n;
            p += n;
        }
    }
    out[o] = '\0';
}

double
pr_pdf_text_width(HPDF_Font font, const char *clean, double size)
{
    size_t len = strlen(clean), off = 0;
    double units = 0;

    if (font == NULL)
        return 0.0;
    /* libharu measures at most 65,535 bytes at a time: longer text is
       measured in pieces cut between UTF-8 sequences (widths add up) */
    while (off < len) {
        size_t n = len - off < PR_PDF_TEXT_MAX ? len - off : PR_PDF_TEXT_MAX;
        HPDF_TextWidth tw;
        while (off + n < len && ((unsigned char)clean[off + n] & 0xC0) == 0x80)
            n--;
        tw = HPDF_Font_TextWidth(font, (const HPDF_BYTE *)clean + off,
                                 (HPDF_UINT)n);
        units += tw.width;
        off += n;
    }
    return units * size / 1000.0;
}

/* ---- state ------------------------------------------------------------ */

void
pr_pdf_canvas_init(struct pr_pdf_canvas *pc, HPDF_Doc pdf, HPDF_Page page,
                   HPDF_Font regular, HPDF_Font bold, double left, double top,
                   double width, double height)
{
    memset(pc, 0, sizeof(*pc));
    pc->canvas.ops = &pdf_ops;
    pc->canvas.backend = pc;
    pc->canvas.width = width;
    pc->canvas.height = height;
    pc->pdf = pdf;
    pc->page = page;
    pc->regular = regular;
    pc->bold = bold ? bold : regular;
    pc->left = left;
    pc->top = top;
}

static struct pr_pdf_canvas *
backend(struct pr_canvas *c)
{
    return c->backend;
}

static double
px(const struct pr_pdf_canvas *pc, double x)
{
    return pc->left + x;
}

static double
py(const struct pr_pdf_canvas *pc, double y)
{
    return pc->top - y;
}

static void
set_rgb_fill(HPDF_Page page, uint32_t rgb)
{
    HPDF_Page_SetRGBFill(page, ((rgb >> 16) & 0xFF) / 255.0f,
                         ((rgb >> 8) & 0xFF) / 255.0f, (rgb & 0xFF) / 255.0f);
}

static void
set_rgb_stroke(HPDF_Page page, uint32_t rgb)
{
    HPDF_Page_SetRGBStroke(page, ((rgb >> 16) & 0xFF) / 255.0f,
                           ((rgb >> 8) & 0xFF) / 255.0f, (rgb & 0xFF) / 255.0f);
}

/* Fill opacity through a cached ExtGState; alpha 1 needs none. */
static void
set_alpha(struct pr_pdf_canvas *pc, double opacity)
{
    int key;
    size_t i;
    HPDF_ExtGState gs;

    if (!(opacity > 0.0) || opacity >= 1.0)
        return;
    key = (int)lround(opacity * 100.0);
    for (i = 0; i < pc->n_alpha; i++) {
        if (pc->alpha_key[i] == key) {
            HPDF_Page_SetExtGState(pc->page, pc->alpha_state[i]);
            return;
        }
    }
    gs = HPDF_CreateExtGState(pc->pdf);
    if (gs == NULL) {
        pc->canvas.failed = 1;
        return;
    }
    HPDF_ExtGState_SetAlphaFill(gs, (HPDF_REAL)(key / 100.0));
    if (pc->n_alpha < PR_PDF_CANVAS_ALPHAS) {
        pc->alpha_key[pc->n_alpha] = key;
        pc->alpha_state[pc->n_alpha++] = gs;
    }
    HPDF_Page_SetExtGState(pc->page, gs);
}

/* Save the graphics state and apply `s`; returns 0 when there is nothing to
 * paint.  Every shape is painted between begin_shape() and end_shape(). */
static int
begin_shape(struct pr_pdf_canvas *pc, const struct pr_style *s)
{
    static const HPDF_UINT16 dash[] = {3, 2};

    if (s == NULL || (s->fill == PR_COLOR_NONE && s->stroke == PR_COLOR_NONE))
        return 0;
    HPDF_Page_GSave(pc->page);
    if (s->fill != PR_COLOR_NONE) {
        set_rgb_fill(pc->page, s->fill);
        set_alpha(pc, s->opacity);
    }
    if (s->stroke != PR_COLOR_NONE) {
        set_rgb_stroke(pc->page, s->stroke);
        HPDF_Page_SetLineWidth(
            pc->page, (HPDF_REAL)(s->stroke_width > 0 ? s->stroke_width : 1));
        if (s->dashed)
            HPDF_Page_SetDash(pc->page, dash, 2, 0);
    }
    return 1;
}

static void
end_shape(struct pr_pdf_canvas *pc, const struct pr_style *s, int closed)
{
    int fill = closed && s->fill != PR_COLOR_NONE;
    int stroke = s->stroke != PR_COLOR_NONE;

    if (fill && stroke)
        HPDF_Page_FillStroke(pc->page);
    else if (fill)
        HPDF_Page_Fill(pc->page);
    else if (stroke)
        HPDF_Page_Stroke(pc->page);
    else
        HPDF_Page_EndPath(pc->page);
    HPDF_Page_GRestore(pc->page);
    if (HPDF_GetError(pc->pdf) != HPDF_OK)
        pc->canvas.failed = 1;
}

/* ---- shapes ----------------------------------------------------------- */

static void
pc_rect(struct pr_canvas *c, double x, double y, double w, double h,
        const struct pr_style *s)
{
    struct pr_pdf_canvas *pc = backend(c);

    if (!(w > 0 && h > 0) || !begin_shape(pc, s))
        return;
    HPDF_Page_Rectangle(pc->page, (HPDF_REAL)px(pc, x),
                        (HPDF_REAL)py(pc, y + h), (HPDF_REAL)w, (HPDF_REAL)h);
    end_shape(pc, s, 1);
}

static void
pc_line(struct pr_canvas *c, double x1, double y1, double x2, double y2,
        const struct pr_style *s)
{
    struct pr_pdf_canvas *pc = backend(c);

    if (s == NULL || s->stroke == PR_COLOR_NONE || !begin_shape(pc, s))
        return;
    HPDF_Page_MoveTo(pc->page, (HPDF_REAL)px(pc, x1), (HPDF_REAL)py(pc, y1));
    HPDF_Page_LineTo(pc->page, (HPDF_REAL)px(pc, x2), (HPDF_REAL)py(pc, y2));
    end_shape(pc, s, 0);
}

static void
pc_poly(struct pr_canvas *c, const double *xy, size_t n_points, int closed,
        const struct pr_style *s)
{
    struct pr_pdf_canvas *pc = backend(c);
    size_t i;

    if (n_points < 2 || !begin_shape(pc, s))
        return;
    HPDF_Page_MoveTo(pc->page, (HPDF_REAL)px(pc, xy[0]),
                     (HPDF_REAL)py(pc, xy[1]));
    for (i = 1; i < n_points; i++)
        HPDF_Page_LineTo(pc->page, (HPDF_REAL)px(pc, xy[2 * i]),
                         (HPDF_REAL)py(pc, xy[2 * i + 1]));
    if (closed)
        HPDF_Page_ClosePath(pc->page);
    end_shape(pc, s, closed);
}

static void
pc_circle(struct pr_canvas *c, double cx, double cy, double r,
          const struct pr_style *s)
{
    struct pr_pdf_canvas *pc = backend(c);

    if (!(r > 0) || !begin_shape(pc, s))
        return;
    HPDF_Page_Circle(pc->page, (HPDF_REAL)px(pc, cx), (HPDF_REAL)py(pc, cy),
                     (HPDF_REAL)r);
    end_shape(pc, s, 1);
}

/* Append an arc of radius r around (cx, cy) from angle a0 to a1 (canvas
 * angles: 0 = 12 o'clock, clockwise) as Bezier curves of at most 90 degrees
 * each; the current point must already be at angle a0. */
static void
arc_to(struct pr_pdf_canvas *pc, double cx, double cy, double r, double a0,
       double a1)
{
    double span = a1 - a0;
    int n = (int)ceil(fabs(span) / (M_PI / 2.0));
    int i;

    if (n < 1)
        n = 1;
    for (i = 0; i < n; i++) {
        double s0 = a0 + span * i / n, s1 = a0 + span * (i + 1) / n;
        double h = 4.0 / 3.0 * tan((s1 - s0) / 4.0);
        /* P(a) = (cx + r sin a, cy - r cos a), P'(a) = (r cos a, r sin a) */
        double x0 = cx + r * sin(s0), y0 = cy - r * cos(s0);
        double x3 = cx + r * sin(s1), y3 = cy - r * cos(s1);
        double x1 = x0 + h * r * cos(s0), y1 = y0 + h * r * sin(s0);
        double x2 = x3 - h * r * cos(s1), y2 = y3 - h * r * sin(s1);
        HPDF_Page_CurveTo(pc->page, (HPDF_REAL)px(pc, x1),
                          (HPDF_REAL)py(pc, y1), (HPDF_REAL)px(pc, x2),
                          (HPDF_REAL)py(pc, y2), (HPDF_REAL)px(pc, x3),
                          (HPDF_REAL)py(pc, y3));
    }
}

static void
pc_wedge(struct pr_canvas *c, double cx, double cy, double r_out, double r_in,
         double a0, double a1, const struct pr_style *s)
{
    struct pr_pdf_canvas *pc = backend(c);

    if (!(r_out > 0) || !(a1 > a0) || !begin_shape(pc, s))
        return;
    if (a1 - a0 > 2 * M_PI)
        a1 = a0 + 2 * M_PI;
    HPDF_Page_MoveTo(pc->page, (HPDF_REAL)px(pc, cx + r_out * sin(a0)),
                     (HPDF_REAL)py(pc, cy - r_out * cos(a0)));
    arc_to(pc, cx, cy, r_out, a0, a1);
    if (r_in > 0) {
        HPDF_Page_LineTo(pc->page, (HPDF_REAL)px(pc, cx + r_in * sin(a1)),
                         (HPDF_REAL)py(pc, cy - r_in * cos(a1)));
        arc_to(pc, cx, cy, r_in, a1, a0);
    } else {
        HPDF_Page_LineTo(pc->page, (HPDF_REAL)px(pc, cx),
                         (HPDF_REAL)py(pc, cy));
    }
    HPDF_Page_ClosePath(pc->page);
    end_shape(pc, s, 1);
}

void
pr_pdf_text_cap(char *clean, size_t max_bytes)
{
    size_t n = strlen(clean), cut;

    if (n <= max_bytes || max_bytes < 4)
        return;
    cut = max_bytes - 3;
    while (cut > 0 && ((unsigned char)clean[cut] & 0xC0) == 0x80)
        cut--; /* never inside a UTF-8 sequence */
    memcpy(clean + cut, "\xE2\x80\xA6", 4);
}

static void
pc_text(struct pr_canvas *c, double x, double y, const char *utf8,
        const struct pr_text_style *t)
{
    struct pr_pdf_canvas *pc = backend(c);
    HPDF_Font font = t->bold ? pc->bold : pc->regular;
    double size = t->size > 0 ? t->size : 10;
    double rad = t->rotate_deg * M_PI / 180.0;
    double cs = cos(rad), sn = sin(rad), shift = 0;
    char *clean;

    /* after libharu failed (out of memory in its font resources), its
       text state is not to be trusted: draw no more text */
    if (c->failed || HPDF_GetError(pc->pdf) != HPDF_OK) {
        c->failed = 1;
        return;
    }
    clean = pr_pdf_text_clean(utf8);
    if (clean == NULL) {
        c->failed = 1;
        return;
    }
    pr_pdf_text_cap(clean, PR_PDF_TEXT_MAX);
    if (t->anchor != PR_ANCHOR_START) {
        shift = pr_pdf_text_width(font, clean, size);
        if (t->anchor == PR_ANCHOR_MIDDLE)
            shift /= 2;
    }
    HPDF_Page_BeginText(pc->page);
    HPDF_Page_SetFontAndSize(pc->page, font, (HPDF_REAL)size);
    if (HPDF_GetError(pc->pdf) != HPDF_OK) {
        /* the font's entry in the page could not be made (out of
           memory): libharu would show the text with no font and crash */
        HPDF_Page_EndText(pc->page);
        free(clean);
        c->failed = 1;
        return;
    }
    set_rgb_fill(pc->page, t->color == PR_COLOR_NONE ? 0 : t->color);
    /* page y is up, so a counter-clockwise rotation keeps its sign */
    HPDF_Page_SetTextMatrix(pc->page, (HPDF_REAL)cs, (HPDF_REAL)sn,
                            (HPDF_REAL)-sn, (HPDF_REAL)cs,
                            (HPDF_REAL)(px(pc, x) - shift * cs),
                            (HPDF_REAL)(py(pc, y) - shift * sn));
    HPDF_Page_ShowText(pc->page, clean);
    HPDF_Page_EndText(pc->page);
    free(clean);
    if (HPDF_GetError(pc->pdf) != HPDF_OK)
        c->failed = 1;
}

static double
pc_text_width(struct pr_canvas *c, const char *utf8, double size, int bold)
{
    struct pr_pdf_canvas *pc = backend(c);
    char *clean = pr_pdf_text_clean(utf8);
    double w;

    if (clean == NULL) {
        c->failed = 1;
        return 0.0;
    }
    w = pr_pdf_text_width(bold ? pc->bold : pc->regular, clean, size);
    free(clean);
    return w;
}
