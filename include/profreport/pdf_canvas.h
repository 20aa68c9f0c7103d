/* pdf_canvas.h - the libharu backend of struct pr_canvas (canvas.h): chart
 * functions draw on a rectangle of a PDF page as vectors.  It also owns the
 * one function that turns trace text (UTF-8 of unknown quality) into text the
 * PDF font can show.  The document, page and fonts belong to the caller
 * (render/pdf.c); this module only draws on them. */
#ifndef PROFREPORT_PDF_CANVAS_H
#define PROFREPORT_PDF_CANVAS_H

#include <stddef.h>

#include <hpdf.h>

#include "profreport/canvas.h"

#define PR_PDF_CANVAS_ALPHAS 8

struct pr_pdf_canvas {
    struct pr_canvas canvas; /* hand &pc->canvas to chart functions */
    HPDF_Doc pdf;            /* borrowed */
    HPDF_Page page;          /* borrowed */
    HPDF_Font regular;       /* borrowed; UTF-8 encoded TrueType font */
    HPDF_Font bold;          /* borrowed; may equal regular */
    double left;             /* canvas origin on the page, PDF points from */
    double top;              /* the page's bottom-left corner (y up) */
    /* fill-opacity states made so far (per alpha in 1/100), so a chart with
       many translucent shapes adds one PDF object per distinct alpha */
    HPDF_ExtGState alpha_state[PR_PDF_CANVAS_ALPHAS];
    int alpha_key[PR_PDF_CANVAS_ALPHAS];
    size_t n_alpha;
};

/* Set up `pc` to draw on the `width` x `height` point rectangle whose top-left
 * corner is (`left`, `top`) in page coordinates (y up, as libharu).  Canvas
 * coordinates have y growing downwards from that corner.  Cannot fail; a
 * libharu failure while drawing goes to the document's error handler and
 * sets pc->canvas.failed. */
void pr_pdf_canvas_init(struct pr_pdf_canvas *pc, HPDF_Doc pdf, HPDF_Page page,
                        HPDF_Font regular, HPDF_Font bold, double left,
                        double top, double width, double height);

/* The one mapping from trace text to PDF text: a NUL-terminated copy of
 * `utf8` that is valid UTF-8 limited to the Basic Multilingual Plane (what a
 * TrueType cmap and libharu's UTF-8 encoder handle), with every invalid byte
 * sequence, control character and code point above U+FFFF replaced by '?'
 * and tabs/newlines by spaces.  Returns an owned string (free()), or NULL on
 * out-of-memory.  NULL input gives "". */
char *pr_pdf_text_clean(const char *utf8);
/* The same into out, which holds strlen(utf8) + 1 bytes (the text never
 * grows): no allocation, for a measure that must not fail. */
void pr_pdf_text_clean_to(const char *utf8, char *out);

/* The most bytes of clean text drawn in one piece: far more than a line
 * of a page holds, and far under libharu's 65,535-byte string limit, so a
 * name of any length is shown cut instead of failing the document. */
#define PR_PDF_TEXT_MAX 4096

/* Cut clean text (in place) to at most max_bytes, on a UTF-8 boundary,
 * ending in an ellipsis when cut.  Cannot fail. */
void pr_pdf_text_cap(char *clean, size_t max_bytes);

/* Width in points of already-clean text at `size` in `font`. */
double pr_pdf_text_width(HPDF_Font font, const char *clean, double size);

#endif
