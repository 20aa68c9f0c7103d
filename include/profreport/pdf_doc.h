/* pdf_doc.h - the page layout that every PDF report of profreport shares
 * (the main report in render/pdf.c, the diff and trend reports in
 * diff/report_pdf.c): one libharu document with embedded UTF-8 TrueType
 * fonts, a flowing cursor down A4 or Letter pages, headings with bookmarks,
 * wrapped text, tables that continue across pages under a repeated header,
 * chart boxes, "page N of M" footers, deterministic dates and an atomic save.
 *
 * Errors are sticky, as for the canvas: libharu's error handler and every
 * failed allocation record the first error in the struct pr_error given to
 * pr_pdf_doc_open(); drawing functions then do nothing useful but stay
 * safe, and the caller checks pr_pdf_doc_failed() at section boundaries and
 * once more through pr_pdf_doc_save().
 *
 * The document is opaque: libharu's types stay inside render/pdf*.c
 * (issue #10), so the diff and trend reports lay out pages through the
 * functions below and draw charts on pr_pdf_doc_canvas(). */
#ifndef PROFREPORT_PDF_DOC_H
#define PROFREPORT_PDF_DOC_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/canvas.h"
#include "profreport/chart.h"
#include "profreport/error.h"
#include "profreport/figures.h"

#define PR_PDF_MARGIN_X 48.0   /* left and right margin, points */
#define PR_PDF_MARGIN_TOP 56.0 /* first baseline area below the top edge */
#define PR_PDF_TOP_DEFAULT 50  /* table rows when the caller gives none */
#define PR_PDF_BODY_SIZE 9.0   /* font size of notes and prose */

#define PR_PDF_DASH "\xE2\x80\x93" /* en dash: a value that is null */

/* Colours of text and table furniture, 0xRRGGBB. */
#define PR_PDF_C_TEXT 0x1F2933u
#define PR_PDF_C_MUTED 0x5F6B7Au
#define PR_PDF_C_RULE 0xC3CCD6u
#define PR_PDF_C_ACCENT 0x0072B2u
#define PR_PDF_C_ZEBRA 0xF0F3F7u
#define PR_PDF_C_HEAD 0xDCE3ECu
#define PR_PDF_C_BAD 0xB42318u  /* a regression, a failed gate */
#define PR_PDF_C_GOOD 0x067647u /* an improvement, a passed gate */

/* One document being laid out (pdf_doc.c): a libharu document, its fonts
 * and pages, and a flowing cursor `y` in points from the top of the
 * current page. */
struct pr_pdf_doc;

/* What pr_pdf_doc_open() needs; strings are borrowed for the call, except
 * `paper`, which must outlive the document. */
struct pr_pdf_setup {
    const char *title;    /* document info title */
    const char *version;  /* tool version, for the info creator */
    const char *font;     /* TrueType file; NULL = PR_DEFAULT_FONT.  A
                             sibling "X-Bold.ttf" is used for bold */
    const char *paper;    /* "a4" (NULL) or "letter" */
    int64_t generated_at; /* Unix time (SOURCE_DATE_EPOCH when set) */
    int top;              /* rows per table; <= 0 = PR_PDF_TOP_DEFAULT */
};

/* How a table column shows the value at its key. */
enum pr_pdf_kind {
    PR_PDF_K_TEXT,   /* string, one line, elided */
    PR_PDF_K_NAME,   /* string, wrapped on up to two lines, then elided */
    PR_PDF_K_INT,    /* count */
    PR_PDF_K_US,     /* microseconds */
    PR_PDF_K_PCT,    /* 0..100 */
    PR_PDF_K_BYTES,  /* bytes */
    PR_PDF_K_FLOPS,  /* FLOP count */
    PR_PDF_K_TFLOPS, /* 10^12 FLOP/s */
    PR_PDF_K_GBPS,   /* 10^9 bytes/s */
    PR_PDF_K_AI,     /* FLOP/byte */
    PR_PDF_K_NUM,    /* plain number, two decimals */
    PR_PDF_K_BOOL,   /* yes / no */
    PR_PDF_K_WRAP,   /* string, wrapped on up to seven lines (prose) */
    PR_PDF_K_FILE,   /* path, shown by its basename */
    PR_PDF_K_FIGURE, /* string already formatted as a number: right-aligned */
    PR_PDF_K_CHANGE, /* formatted signed change: right-aligned, red when it
                        starts with '+', green with '-' */
    PR_PDF_K_VERDICT /* "FAIL" / "fail" in bold red, anything else green */
};

/* One table column: `key` of each row object (may name one nested member,
 * "a.b"), shown as `kind`. */
struct pr_pdf_col {
    const char *title;
    const char *key;
    enum pr_pdf_kind kind;
    double weight; /* share of the table width */
};

/* The width of one character `ch` (clean UTF-8, NUL-terminated) in
 * points, for pr_pdf_fit(). */
typedef double (*pr_pdf_width_fn)(void *ctx, const char *ch);

/* Whether a line of clean text s may end before byte i: not before closing
 * punctuation (")", ".", ",", ...), not after opening punctuation ("(",
 * "[", "{", spaces between or not), not beside a straight quote but for a
 * space (UAX #14's CL/OP/QU, simply). */
int pr_pdf_break_ok(const char *s, size_t i);

/* Byte length of the longest prefix of clean text s that fits in w by
 * `width`, broken after a space or a separator of code names where
 * pr_pdf_break_ok allows it; a number and its unit stay together.  At
 * least one character when s is not empty. */
size_t pr_pdf_fit(const char *s, double w, pr_pdf_width_fn width, void *ctx);

/* A box for pr_pdf_doc_wrapped(): `w` points wide, first baseline at
 * (x, y), lines `lh` apart. */
struct pr_pdf_textbox {
    double x, y, w;
    double size, lh;
    int max_lines; /* the last one is elided */
    int bold;
    int right; /* right-aligned lines (numeric column headers) */
    uint32_t color;
};

/* Create the document in *out: compression, UTF-8, outline page mode,
 * fixed info dates from s->generated_at (no encryption, hence no random
 * /ID, so equal inputs give byte-identical files), fonts embedded.  `err`
 * is kept in the document for every later call.  Whatever the result,
 * *out (possibly NULL) goes to pr_pdf_doc_close().  Errors: PR_E_NOMEM,
 * PR_E_IO (font unreadable), PR_E_PDF (font unusable). */
PR_NODISCARD enum pr_status pr_pdf_doc_open(struct pr_pdf_doc **out,
                                            const struct pr_pdf_setup *s,
                                            struct pr_error *err);

/* Write the document to `path` through a temporary file renamed into place;
 * when the document already failed, write nothing and return that error
 * prefixed with the path.  "-" is refused (libharu needs a file).  Errors go
 * to the pr_error of pr_pdf_doc_open(): PR_E_IO, PR_E_USAGE, and the
 * document's own. */
PR_NODISCARD enum pr_status pr_pdf_doc_save(struct pr_pdf_doc *d,
                                            const char *path);

/* Free the document; accepts NULL. */
void pr_pdf_doc_close(struct pr_pdf_doc *d);

/* Non-zero once anything failed (canvas errors included). */
int pr_pdf_doc_failed(struct pr_pdf_doc *d);

/* Record out-of-memory (sticky). */
void pr_pdf_doc_nomem(struct pr_pdf_doc *d);

/* Record the error `e` of a step that fed the document (sticky; the first
 * error recorded wins), so pr_pdf_doc_save() reports it as it is rather
 * than as out of memory. */
void pr_pdf_doc_fail(struct pr_pdf_doc *d, const struct pr_error *e);

/* The generation time of a report: SOURCE_DATE_EPOCH when it holds a
 * non-negative integer (reproducible builds), else the current time. */
int64_t pr_pdf_doc_now(void);

/* The generation time as "2023-11-14T22:13:20Z" in buf (n >= 21); returns
 * buf.  Cannot fail. */
char *pr_pdf_doc_iso_date(const struct pr_pdf_doc *d, char *buf, size_t n);

/* Width between the margins, and the lowest usable y, in points. */
double pr_pdf_doc_width(const struct pr_pdf_doc *d);
double pr_pdf_doc_bottom(const struct pr_pdf_doc *d);

/* The page width in points. */
double pr_pdf_doc_page_width(const struct pr_pdf_doc *d);

/* The cursor: the next free position, points from the top of the page;
 * pr_pdf_doc_skip() moves it down by dy. */
double pr_pdf_doc_y(const struct pr_pdf_doc *d);
void pr_pdf_doc_set_y(struct pr_pdf_doc *d, double y);
void pr_pdf_doc_skip(struct pr_pdf_doc *d, double dy);

/* Rows per table (pr_pdf_setup.top, or its default). */
int pr_pdf_doc_top(const struct pr_pdf_doc *d);

/* The current page as a chart canvas, origin at its top-left corner. */
struct pr_canvas *pr_pdf_doc_canvas(struct pr_pdf_doc *d);

/* Width in points of UTF-8 text (cleaned as for drawing) at `size`. */
double pr_pdf_doc_text_width(struct pr_pdf_doc *d, const char *utf8,
                             double size, int bold);

/* Start a page (the cursor goes to its top); -1 on failure (recorded). */
int pr_pdf_doc_new_page(struct pr_pdf_doc *d);

/* Start a new page unless `h` more points fit on this one. */
void pr_pdf_doc_ensure(struct pr_pdf_doc *d, double h);

/* Drawing at page coordinates (points from the top-left); strings are
 * UTF-8 and cleaned by the canvas. */
void pr_pdf_doc_put(struct pr_pdf_doc *d, double x, double y, const char *s,
                    double size, int bold, uint32_t color, enum pr_anchor a);
void pr_pdf_doc_fill(struct pr_pdf_doc *d, double x, double y, double w,
                     double h, uint32_t color);
void pr_pdf_doc_hline(struct pr_pdf_doc *d, double x1, double x2, double y,
                      uint32_t color, double width);

/* UTF-8 text, cleaned for the font, on one line within `w` points; when it is
 * too long, the whole text is drawn clipped (still searchable) and ends in
 * an ellipsis. */
void pr_pdf_doc_clipped(struct pr_pdf_doc *d, double x, double y, double w,
                        const char *s, double size, int bold, uint32_t color);

/* Clean text wrapped on at most b->max_lines lines. */
void pr_pdf_doc_wrapped(struct pr_pdf_doc *d, const struct pr_pdf_textbox *b,
                        const char *s);

/* A paragraph of UTF-8 text at the cursor, wrapped over the content width
 * less `indent` and across pages. */
void pr_pdf_doc_paragraph(struct pr_pdf_doc *d, double indent, const char *utf8,
                          double size, uint32_t color);

/* A top-level bookmark to the cursor's height on the current page. */
void pr_pdf_doc_bookmark(struct pr_pdf_doc *d, const char *title);

/* A section heading with a bookmark; a new page unless more than a third
 * of this one is still free. */
void pr_pdf_doc_section(struct pr_pdf_doc *d, const char *title);

/* A sub-heading that keeps `keep` points below it on the same page. */
void pr_pdf_doc_subheading(struct pr_pdf_doc *d, const char *title,
                           double keep);

/* One muted line. */
void pr_pdf_doc_note(struct pr_pdf_doc *d, const char *text);

/* A "Label   value" line of a title page: the label bold and muted, the
 * value clipped to the width left. */
void pr_pdf_doc_info_line(struct pr_pdf_doc *d, const char *label,
                          const char *value);

/* Rows of `rows` (an array of objects, or one object) up to `limit`,
 * zebra-striped, with the header repeated on every page the table reaches
 * under "<section> (continued)".  With `require`, only rows where that key
 * is a number are shown.  At most 12 columns.  A name cell too long for
 * two lines is shortened (shorten.h) so that no two different names of a
 * column read alike (issue #32). */
void pr_pdf_doc_table(struct pr_pdf_doc *d, const struct pr_pdf_col *cols,
                      size_t n_cols, const cJSON *rows, size_t limit,
                      const char *require);

/* The same with the figure model's columns (figures.h): n_cols of cols,
 * every row of `rows` (the diff and trend tables).  Name cells too long
 * for two lines are shortened so that no two read alike, among
 * themselves and others[0..n_others) (the rest of the list the table
 * shows part of; NULL when none). */
void pr_pdf_doc_col_table(struct pr_pdf_doc *d, const struct pr_col *cols,
                          size_t n_cols, const cJSON *rows,
                          const char *const *others, size_t n_others);

/* A table of the figure model (figures.h): its caption, then its rows
 * (up to its limit or the document's top). */
void pr_pdf_doc_fig_table(struct pr_pdf_doc *d, const struct pr_fig_table *t);

/* Lay out one section's figures: the section heading and bookmark, each
 * labelled part under a heading and bookmark of its own, then the
 * blocks; a heading is kept on the page with the block after it. */
void pr_pdf_doc_figs(struct pr_pdf_doc *d, const char *title,
                     const struct pr_figs *f);

/* Reserve `h` points at the cursor for a chart (a new page when they do
 * not fit) and return its box on pr_pdf_doc_canvas(d). */
struct pr_chart_box pr_pdf_doc_chart_box(struct pr_pdf_doc *d, double h);

/* "<title> · profreport <version>" and "page N of M" at the foot of every
 * page; call last. */
void pr_pdf_doc_footers(struct pr_pdf_doc *d, const char *title,
                        const char *version);

#endif
