/* pdf_doc.c - the page layout shared by the PDF reports (pdf_doc.h): the
 * libharu document and its error handler, fonts, the flowing cursor,
 * headings, wrapped text, tables across pages, footers and the atomic save.
 * What goes on the pages belongs to render/pdf.c and diff/report_pdf.c. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hpdf.h>

#include "profreport/buf.h"
#include "profreport/chart.h"
#include "profreport/parse.h"
#include "profreport/clock.h"
#include "profreport/pdf_doc.h"
#include "profreport/sget.h"
#include "profreport/sink.h"

#define MARGIN_BOTTOM 56.0
#define MAX_COLS 12
#define TABLE_SIZE 7.5 /* font size of table cells, points */
#define TABLE_LINE 9.5 /* line height of table cells */
#define TABLE_PAD 3.0  /* vertical padding of a table row */

/* ---- errors ----------------------------------------------------------- */

static const char *
hpdf_what(HPDF_STATUS code)
{
    switch (code) {
    case HPDF_FAILD_TO_ALLOC_MEM:
        return "out of memory";
    case HPDF_FILE_IO_ERROR:
        return "write failed";
    case HPDF_FILE_OPEN_ERROR:
        return "cannot open file";
    case HPDF_TTF_INVALID_CMAP:
    case HPDF_TTF_INVALID_FOMAT:
    case HPDF_TTF_MISSING_TABLE:
    case HPDF_INVALID_TTC_FILE:
    case HPDF_UNSUPPORTED_FONT_TYPE:
    case HPDF_INVALID_FONTDEF_DATA:
        return "not a usable TrueType font";
    case HPDF_TTF_CANNOT_EMBEDDING_FONT:
        return "the font's license forbids embedding";
    default:
        return "libharu failed";
    }
}

/* libharu's error callback: record the first error and carry on; libharu
 * returns an error status from the failing call, and we check the sticky
 * flag at every section boundary (no longjmp). */
static void
on_hpdf_error(HPDF_STATUS code, HPDF_STATUS detail, void *user)
{
    struct pr_pdf_doc *d = user;
    enum pr_status st = PR_E_PDF;

    if (code == HPDF_FAILD_TO_ALLOC_MEM)
        st = PR_E_NOMEM;
    else if (code == HPDF_FILE_IO_ERROR || code == HPDF_FILE_OPEN_ERROR)
        st = PR_E_IO;
    d->failed = 1;
    pr_error_set(d->err, st, "%s (libharu error 0x%04X, detail %u)",
                 hpdf_what(code), (unsigned)code, (unsigned)detail);
}

int
pr_pdf_doc_failed(struct pr_pdf_doc *d)
{
    if (d->pc.canvas.failed)
        d->failed = 1;
    return d->failed;
}

void
pr_pdf_doc_nomem(struct pr_pdf_doc *d)
{
    d->failed = 1;
    pr_error_set(d->err, PR_E_NOMEM, "out of memory");
}
/* ---- row access: every getter checks the type -------------------------- */

/* The last path component: reports show inputs by basename. */
static const char *
base_name(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

/* ---- formatting ------------------------------------------------------- */

static void
fmt_si(double v, const char *unit, char *buf, size_t n)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T", "P", "E"};
    size_t i = 0;

    while (fabs(v) >= 1000.0 && i + 1 < sizeof(prefix) / sizeof(*prefix)) {
        v /= 1000.0;
        i++;
    }
    /* three significant digits keep the column narrow: 980 GFLOP */
    snprintf(buf, n, "%.*f %s%s",
             fabs(v) >= 100  ? 0
             : fabs(v) >= 10 ? 1
                             : 2,
             v, prefix[i], unit);
}

static const char *
text_cell(const cJSON *v, enum pr_pdf_kind kind, char *buf, size_t n)
{
    if (cJSON_IsString(v))
        return kind == PR_PDF_K_FILE ? base_name(v->valuestring)
                                     : v->valuestring;
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
        snprintf(buf, n, "%.15g", v->valuedouble);
        return buf;
    }
    return PR_PDF_DASH;
}

/* Text of one table cell; numbers carry their unit, null is an en dash. */
static const char *
cell_text(const cJSON *row, const struct pr_pdf_col *c, char *buf, size_t n)
{
    const cJSON *v = pr_sget_path(row, c->key);
    double x = NAN;

    if (c->kind == PR_PDF_K_TEXT || c->kind == PR_PDF_K_NAME ||
        c->kind == PR_PDF_K_WRAP || c->kind == PR_PDF_K_FILE ||
        c->kind >= PR_PDF_K_FIGURE)
        return text_cell(v, c->kind, buf, n);
    if (c->kind == PR_PDF_K_BOOL)
        return cJSON_IsTrue(v) ? "yes" : cJSON_IsFalse(v) ? "no" : PR_PDF_DASH;
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
        x = v->valuedouble;
    switch (c->kind) {
    case PR_PDF_K_INT:
        return pr_chart_format(x, PR_UNIT_COUNT, buf, n);
    case PR_PDF_K_US:
        return pr_chart_format(x, PR_UNIT_US, buf, n);
    case PR_PDF_K_PCT:
        return pr_chart_format(x, PR_UNIT_PCT, buf, n);
    case PR_PDF_K_BYTES:
        return pr_chart_format(x, PR_UNIT_BYTES, buf, n);
    case PR_PDF_K_TFLOPS:
        return pr_chart_format(x, PR_UNIT_TFLOPS, buf, n);
    case PR_PDF_K_AI:
        return pr_chart_format(x, PR_UNIT_FLOP_PER_BYTE, buf, n);
    default:
        break;
    }
    if (isnan(x))
        return PR_PDF_DASH;
    if (c->kind == PR_PDF_K_FLOPS)
        fmt_si(x, "FLOP", buf, n);
    else if (c->kind == PR_PDF_K_GBPS)
        snprintf(buf, n, "%.1f GB/s", x);
    else
        snprintf(buf, n, "%.2f", x);
    return buf;
}

int64_t
pr_pdf_doc_now(void)
{
    return pr_clock_generation_time();
}

/* Civil UTC date of Unix time t, computed here: the libc converters are
 * banned (STYLE.md) and this needs no time zone.  Clamped to years
 * 1970..9999, the range a PDF date holds. */
HPDF_Date
pr_pdf_doc_date(int64_t t)
{
    HPDF_Date d;
    int64_t days, rem, era, y;
    unsigned doe, yoe, doy, mp;

    if (t < 0)
        t = 0;
    if (t > 253402300799)
        t = 253402300799;
    days = t / 86400 + 719468; /* days since 0000-03-01 */
    rem = t % 86400;
    era = days / 146097;
    doe = (unsigned)(days - era * 146097);
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    memset(&d, 0, sizeof(d));
    d.day = (HPDF_INT)(doy - (153 * mp + 2) / 5 + 1);
    d.month = (HPDF_INT)(mp < 10 ? mp + 3 : mp - 9);
    y = (int64_t)yoe + era * 400 + (d.month <= 2);
    d.year = (HPDF_INT)y;
    d.hour = (HPDF_INT)(rem / 3600);
    d.minutes = (HPDF_INT)(rem % 3600 / 60);
    d.seconds = (HPDF_INT)(rem % 60);
    d.ind = 'Z';
    return d;
}

char *
pr_pdf_doc_iso_date(const struct pr_pdf_doc *d, char *buf, size_t n)
{
    HPDF_Date t = pr_pdf_doc_date(d->generated_at);

    snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02dZ", t.year, t.month, t.day,
             t.hour, t.minutes, t.seconds);
    return buf;
}

/* ---- pages and drawing ------------------------------------------------ */

double
pr_pdf_doc_width(const struct pr_pdf_doc *d)
{
    return d->pw - 2 * PR_PDF_MARGIN_X;
}

double
pr_pdf_doc_bottom(const struct pr_pdf_doc *d)
{
    return d->ph - MARGIN_BOTTOM;
}

int
pr_pdf_doc_new_page(struct pr_pdf_doc *d)
{
    int letter = d->paper && strcmp(d->paper, "letter") == 0;
    void *pages = d->pages;
    HPDF_Page p;

    if (pr_grow(&pages, &d->cap_pages, d->n_pages + 1, sizeof(*d->pages)) !=
        PR_OK) {
        pr_pdf_doc_nomem(d);
        return -1;
    }
    d->pages = pages;
    p = HPDF_AddPage(d->doc);
    if (p == NULL)
        return -1;
    HPDF_Page_SetSize(p, letter ? HPDF_PAGE_SIZE_LETTER : HPDF_PAGE_SIZE_A4,
                      HPDF_PAGE_PORTRAIT);
    d->pages[d->n_pages++] = p;
    d->pw = HPDF_Page_GetWidth(p);
    d->ph = HPDF_Page_GetHeight(p);
    pr_pdf_canvas_init(&d->pc, d->doc, p, d->reg, d->bold, 0, d->ph, d->pw,
                       d->ph);
    d->y = PR_PDF_MARGIN_TOP;
    return 0;
}

/* Start a new page unless `h` more points fit on this one. */
void
pr_pdf_doc_ensure(struct pr_pdf_doc *d, double h)
{
    if (d->y + h > pr_pdf_doc_bottom(d))
        (void)pr_pdf_doc_new_page(d);
}

void
pr_pdf_doc_put(struct pr_pdf_doc *d, double x, double y, const char *s,
               double size, int bold, uint32_t color, enum pr_anchor a)
{
    struct pr_text_style t;

    memset(&t, 0, sizeof(t));
    t.size = size;
    t.color = color;
    t.anchor = a;
    t.bold = bold;
    d->pc.canvas.ops->text(&d->pc.canvas, x, y, s, &t);
}

void
pr_pdf_doc_fill(struct pr_pdf_doc *d, double x, double y, double w, double h,
                uint32_t color)
{
    struct pr_style s;

    memset(&s, 0, sizeof(s));
    s.fill = color;
    s.stroke = PR_COLOR_NONE;
    d->pc.canvas.ops->rect(&d->pc.canvas, x, y, w, h, &s);
}

void
pr_pdf_doc_hline(struct pr_pdf_doc *d, double x1, double x2, double y,
                 uint32_t color, double width)
{
    struct pr_style s;

    memset(&s, 0, sizeof(s));
    s.fill = PR_COLOR_NONE;
    s.stroke = color;
    s.stroke_width = width;
    d->pc.canvas.ops->line(&d->pc.canvas, x1, y, x2, y, &s);
}

/* ---- text fitting ----------------------------------------------------- */

static size_t
char_len(const char *s)
{
    unsigned char c = (unsigned char)*s;

    return c < 0x80 ? 1 : c < 0xE0 ? 2 : 3; /* clean text: BMP only */
}

static int
is_break_after(char c, char next)
{
    /* never inside a number: "0.05", "1,234", "-12" stay whole */
    if (next >= '0' && next <= '9' && strchr(".,-+", c) != NULL)
        return 0;
    return strchr(" _,:;<>()/.-=+*&", c) != NULL && c != '\0';
}

/* Byte length of the longest prefix of clean text `s` that fits in `w`
 * points; breaks after a separator when one lies in the last 70% of the
 * line, so "aten::cudnn_convolution" breaks at "_", not mid-word.  Always at
 * least one character when s is not empty. */
static size_t
fit_prefix(HPDF_Font f, double size, const char *s, double w)
{
    size_t i = 0, brk = 0;
    double x = 0;

    while (s[i] != '\0') {
        size_t n = char_len(s + i);
        char ch[4] = {0};
        memcpy(ch, s + i, n);
        x += pr_pdf_text_width(f, ch, size);
        if (x > w && i > 0)
            return brk * 10 > i * 3 ? brk : i;
        i += n;
        if (is_break_after(s[i - 1], s[i]))
            brk = i;
    }
    return i;
}

/* Lines that clean text `s` needs in width `w`, at most `max_lines`. */
static int
count_lines(HPDF_Font f, double size, const char *s, double w, int max_lines)
{
    int lines = 1;

    while (lines < max_lines) {
        size_t n = fit_prefix(f, size, s, w);
        if (s[n] == '\0')
            break;
        s += n;
        while (*s == ' ')
            s++;
        lines++;
    }
    return lines;
}

/* Draw clean text on one line within `w` points.  When it does not fit, the
 * whole text is still drawn (so it stays searchable and copyable) but
 * clipped, with an ellipsis at the end. */
void
pr_pdf_doc_clipped(struct pr_pdf_doc *d, double x, double y, double w,
                   const char *s, double size, int bold, uint32_t color)
{
    HPDF_Font f = bold ? d->bold : d->reg;
    const char *ell = "\xE2\x80\xA6";
    double ew;

    if (pr_pdf_text_width(f, s, size) <= w) {
        pr_pdf_doc_put(d, x, y, s, size, bold, color, PR_ANCHOR_START);
        return;
    }
    ew = pr_pdf_text_width(f, ell, size);
    HPDF_Page_GSave(d->pc.page);
    HPDF_Page_Rectangle(
        d->pc.page, (HPDF_REAL)x, (HPDF_REAL)(d->ph - y - size * 0.4),
        (HPDF_REAL)(w - ew > 0 ? w - ew : 0), (HPDF_REAL)(size * 1.6));
    HPDF_Page_Clip(d->pc.page);
    HPDF_Page_EndPath(d->pc.page);
    pr_pdf_doc_put(d, x, y, s, size, bold, color, PR_ANCHOR_START);
    HPDF_Page_GRestore(d->pc.page);
    pr_pdf_doc_put(d, x + w - ew, y, ell, size, bold, color, PR_ANCHOR_START);
}

static void
put_line(struct pr_pdf_doc *d, const struct pr_pdf_textbox *b, double y,
         const char *s)
{
    if (b->right)
        pr_pdf_doc_put(d, b->x + b->w, y, s, b->size, b->bold, b->color,
                       PR_ANCHOR_END);
    else
        pr_pdf_doc_put(d, b->x, y, s, b->size, b->bold, b->color,
                       PR_ANCHOR_START);
}

/* Draw clean text wrapped on at most b->max_lines lines. */
void
pr_pdf_doc_wrapped(struct pr_pdf_doc *d, const struct pr_pdf_textbox *b,
                   const char *s)
{
    HPDF_Font f = b->bold ? d->bold : d->reg;
    double y = b->y;
    int line;

    for (line = 1; line < b->max_lines; line++) {
        size_t n = fit_prefix(f, b->size, s, b->w);
        char *part;
        if (s[n] == '\0')
            break;
        part = malloc(n + 1);
        if (part == NULL) {
            pr_pdf_doc_nomem(d);
            return;
        }
        memcpy(part, s, n);
        part[n] = '\0';
        put_line(d, b, y, part);
        free(part);
        s += n;
        while (*s == ' ')
            s++;
        y += b->lh;
    }
    if (pr_pdf_text_width(f, s, b->size) <= b->w)
        put_line(d, b, y, s);
    else
        pr_pdf_doc_clipped(d, b->x, y, b->w, s, b->size, b->bold, b->color);
}

/* A paragraph of trace or summary text, wrapped over the content width and
 * across pages. */
void
pr_pdf_doc_paragraph(struct pr_pdf_doc *d, double indent, const char *utf8,
                     double size, uint32_t color)
{
    char *clean = pr_pdf_text_clean(utf8);
    char *s = clean;
    double w = pr_pdf_doc_width(d) - indent;

    if (clean == NULL) {
        pr_pdf_doc_nomem(d);
        return;
    }
    while (*s != '\0' && !pr_pdf_doc_failed(d)) {
        size_t n = fit_prefix(d->reg, size, s, w);
        char keep = s[n];
        pr_pdf_doc_ensure(d, size * 1.45);
        s[n] = '\0'; /* cut the line in place, then put the byte back */
        pr_pdf_doc_put(d, PR_PDF_MARGIN_X + indent, d->y + size, s, size, 0,
                       color, PR_ANCHOR_START);
        s[n] = keep;
        s += n;
        while (*s == ' ')
            s++;
        d->y += size * 1.45;
    }
    d->y += size * 0.5;
    free(clean);
}

/* ---- headings and bookmarks ------------------------------------------- */

HPDF_Outline
pr_pdf_doc_bookmark(struct pr_pdf_doc *d, HPDF_Outline parent,
                    const char *title)
{
    char *clean = pr_pdf_text_clean(title);
    HPDF_Outline ol;
    HPDF_Destination dst;

    if (clean == NULL) {
        pr_pdf_doc_nomem(d);
        return NULL;
    }
    ol = HPDF_CreateOutline(d->doc, parent, clean, d->enc);
    free(clean);
    if (ol == NULL)
        return NULL;
    dst = HPDF_Page_CreateDestination(d->pc.page);
    if (dst == NULL)
        return NULL;
    /* FitH: jump to the heading and keep the reader's zoom-to-width */
    HPDF_Destination_SetFitH(dst, (HPDF_REAL)(d->ph - d->y + 12));
    HPDF_Outline_SetDestination(ol, dst);
    return ol;
}

/* A section with a bookmark under d->parent.  It starts a new page unless
 * more than a third of this one is still free, so short sections share. */
void
pr_pdf_doc_section(struct pr_pdf_doc *d, const char *title)
{
    if (d->y > PR_PDF_MARGIN_TOP && d->y + d->ph / 3 > pr_pdf_doc_bottom(d))
        (void)pr_pdf_doc_new_page(d);
    else if (d->y > PR_PDF_MARGIN_TOP)
        d->y += 18;
    if (pr_pdf_doc_failed(d))
        return;
    snprintf(d->section, sizeof(d->section), "%s", title);
    (void)pr_pdf_doc_bookmark(d, d->parent, title);
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, d->y + 18, title, 18, 1, PR_PDF_C_TEXT,
                   PR_ANCHOR_START);
    d->y += 26;
    pr_pdf_doc_hline(d, PR_PDF_MARGIN_X, d->pw - PR_PDF_MARGIN_X, d->y,
                     PR_PDF_C_ACCENT, 1.5);
    d->y += 16;
}

/* A sub-heading; keeps `keep` points below it on the same page. */
void
pr_pdf_doc_subheading(struct pr_pdf_doc *d, const char *title, double keep)
{
    pr_pdf_doc_ensure(d, 22 + keep);
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, d->y + 11, title, 11.5, 1,
                   PR_PDF_C_ACCENT, PR_ANCHOR_START);
    d->y += 20;
}

void
pr_pdf_doc_note(struct pr_pdf_doc *d, const char *text)
{
    pr_pdf_doc_ensure(d, 14);
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, d->y + PR_PDF_BODY_SIZE, text,
                   PR_PDF_BODY_SIZE, 0, PR_PDF_C_MUTED, PR_ANCHOR_START);
    d->y += 16;
}

void
pr_pdf_doc_info_line(struct pr_pdf_doc *d, const char *label, const char *value)
{
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, d->y + 10, label, 10, 1, PR_PDF_C_MUTED,
                   PR_ANCHOR_START);
    pr_pdf_doc_clipped(d, PR_PDF_MARGIN_X + 90, d->y + 10,
                       pr_pdf_doc_width(d) - 90, value, 10, 0, PR_PDF_C_TEXT);
    d->y += 16;
}

/* ---- tables ----------------------------------------------------------- */

static int
is_numeric(enum pr_pdf_kind k)
{
    return k != PR_PDF_K_TEXT && k != PR_PDF_K_NAME && k != PR_PDF_K_BOOL &&
           k != PR_PDF_K_WRAP && k != PR_PDF_K_FILE && k != PR_PDF_K_VERDICT;
}

static int
is_fail(const char *s)
{
    return strcmp(s, "FAIL") == 0 || strcmp(s, "fail") == 0;
}

/* Colour of a cell's text: changes and verdicts carry their direction. */
static uint32_t
cell_color(enum pr_pdf_kind k, const char *text)
{
    if (k == PR_PDF_K_CHANGE && text[0] == '+')
        return PR_PDF_C_BAD;
    if (k == PR_PDF_K_CHANGE && text[0] == '-')
        return PR_PDF_C_GOOD;
    if (k == PR_PDF_K_VERDICT)
        return is_fail(text) ? PR_PDF_C_BAD : PR_PDF_C_GOOD;
    return PR_PDF_C_TEXT;
}

static int
max_lines(enum pr_pdf_kind k)
{
    return k == PR_PDF_K_WRAP ? 6 : k == PR_PDF_K_NAME ? 2 : 1;
}

/* Header cells wrap onto two lines, so narrow numeric columns can keep
 * readable titles. */
static void
table_header(struct pr_pdf_doc *d, const struct pr_pdf_col *cols, size_t n_cols,
             const double *x)
{
    int lines = 1;
    double h;
    size_t i;

    for (i = 0; i < n_cols; i++) {
        int n = count_lines(d->bold, TABLE_SIZE, cols[i].title,
                            x[i + 1] - x[i] - 8, 2);
        if (n > lines)
            lines = n;
    }
    h = lines * TABLE_LINE + 2 * TABLE_PAD + 2;
    pr_pdf_doc_fill(d, PR_PDF_MARGIN_X, d->y, pr_pdf_doc_width(d), h,
                    PR_PDF_C_HEAD);
    for (i = 0; i < n_cols; i++) {
        struct pr_pdf_textbox b;
        b.x = x[i] + 4;
        b.y = d->y + TABLE_PAD + TABLE_SIZE + 1;
        b.w = x[i + 1] - x[i] - 8;
        b.size = TABLE_SIZE;
        b.lh = TABLE_LINE;
        b.max_lines = 2;
        b.bold = 1;
        b.right = is_numeric(cols[i].kind);
        b.color = PR_PDF_C_TEXT;
        pr_pdf_doc_wrapped(d, &b, cols[i].title);
    }
    d->y += h;
}

/* Height of one row: the tallest wrapped text decides. */
static double
row_height(struct pr_pdf_doc *d, const cJSON *row,
           const struct pr_pdf_col *cols, size_t n_cols, const double *x)
{
    int lines = 1;
    size_t i;

    for (i = 0; i < n_cols; i++) {
        const cJSON *v = pr_sget_path(row, cols[i].key);
        char *clean;
        int n;
        if (max_lines(cols[i].kind) < 2 || !cJSON_IsString(v))
            continue;
        clean = pr_pdf_text_clean(v->valuestring);
        if (clean == NULL) {
            pr_pdf_doc_nomem(d);
            return TABLE_LINE;
        }
        n = count_lines(d->reg, TABLE_SIZE, clean, x[i + 1] - x[i] - 8,
                        max_lines(cols[i].kind));
        free(clean);
        if (n > lines)
            lines = n;
    }
    return lines * TABLE_LINE + 2 * TABLE_PAD;
}

static void
table_row(struct pr_pdf_doc *d, const cJSON *row, const struct pr_pdf_col *cols,
          size_t n_cols, const double *x)
{
    size_t i;

    for (i = 0; i < n_cols; i++) {
        char buf[64];
        struct pr_pdf_textbox b;
        char *clean =
            pr_pdf_text_clean(cell_text(row, &cols[i], buf, sizeof(buf)));
        if (clean == NULL) {
            pr_pdf_doc_nomem(d);
            return;
        }
        b.x = x[i] + 4;
        b.y = d->y + TABLE_PAD + TABLE_SIZE;
        b.w = x[i + 1] - x[i] - 8;
        b.size = TABLE_SIZE;
        b.lh = TABLE_LINE;
        b.max_lines = max_lines(cols[i].kind);
        b.bold = cols[i].kind == PR_PDF_K_VERDICT && is_fail(clean);
        b.right = is_numeric(cols[i].kind);
        b.color = cell_color(cols[i].kind, clean);
        pr_pdf_doc_wrapped(d, &b, clean);
        free(clean);
    }
}

/* Column edges from the weights: x[0] = left margin, x[n] = right. */
static void
column_edges(const struct pr_pdf_doc *d, const struct pr_pdf_col *cols,
             size_t n_cols, double *x)
{
    double total = 0, at = PR_PDF_MARGIN_X;
    size_t i;

    for (i = 0; i < n_cols; i++)
        total += cols[i].weight;
    x[0] = at;
    for (i = 0; i < n_cols; i++) {
        at += pr_pdf_doc_width(d) * cols[i].weight / total;
        x[i + 1] = at;
    }
}

/* Rows of `rows` (an array of objects, or one object) up to `limit`,
 * zebra-striped, with the header repeated on every page the table reaches.
 * With `require`, only rows where that key is a number are shown. */
void
pr_pdf_doc_table(struct pr_pdf_doc *d, const struct pr_pdf_col *cols,
                 size_t n_cols, const cJSON *rows, size_t limit,
                 const char *require)
{
    double x[MAX_COLS + 1];
    const cJSON *row = cJSON_IsArray(rows) ? rows->child : rows;
    size_t i = 0;

    if (n_cols > MAX_COLS || !cJSON_IsObject(row))
        return;
    column_edges(d, cols, n_cols, x);
    pr_pdf_doc_ensure(d, 3 * (TABLE_LINE + 2 * TABLE_PAD));
    table_header(d, cols, n_cols, x);
    for (; row != NULL && i < limit && !pr_pdf_doc_failed(d);
         row = cJSON_IsArray(rows) ? row->next : NULL) {
        double h;
        if (!cJSON_IsObject(row) ||
            (require && !cJSON_IsNumber(pr_sget(row, require))))
            continue;
        h = row_height(d, row, cols, n_cols, x);
        if (d->y + h > pr_pdf_doc_bottom(d)) {
            char line[200];
            (void)pr_pdf_doc_new_page(d);
            snprintf(line, sizeof(line), "%s (continued)", d->section);
            pr_pdf_doc_note(d, line);
            table_header(d, cols, n_cols, x);
        }
        if (i % 2 == 1)
            pr_pdf_doc_fill(d, PR_PDF_MARGIN_X, d->y, pr_pdf_doc_width(d), h,
                            PR_PDF_C_ZEBRA);
        table_row(d, row, cols, n_cols, x);
        d->y += h;
        i++;
    }
    pr_pdf_doc_hline(d, PR_PDF_MARGIN_X, d->pw - PR_PDF_MARGIN_X, d->y,
                     PR_PDF_C_RULE, 0.5);
    d->y += 14;
}

/* "Top 50 of 312, by device self time." above a table (order NULL: only
 * when rows are left out), or the one line that says there is nothing to
 * show.  Returns 1 when there are rows. */
int
pr_pdf_doc_caption(struct pr_pdf_doc *d, const cJSON *rows, const char *what,
                   const char *order)
{
    size_t n = pr_sget_len(rows);
    char line[160];

    if (rows == NULL || cJSON_IsNull(rows)) {
        snprintf(line, sizeof(line), "No %s data in this summary.", what);
        pr_pdf_doc_note(d, line);
        return 0;
    }
    if (n == 0) {
        snprintf(line, sizeof(line), "No %s recorded.", what);
        pr_pdf_doc_note(d, line);
        return 0;
    }
    if (n > (size_t)d->top && order != NULL)
        snprintf(line, sizeof(line), "Top %d of %zu, by %s.", d->top, n, order);
    else if (n > (size_t)d->top)
        snprintf(line, sizeof(line), "First %d of %zu.", d->top, n);
    else if (order != NULL)
        snprintf(line, sizeof(line), "By %s.", order);
    else
        return 1;
    pr_pdf_doc_note(d, line);
    return 1;
}

/* Reserve `h` points for a chart and return its box on the page canvas. */
struct pr_chart_box
pr_pdf_doc_chart_box(struct pr_pdf_doc *d, double h)
{
    struct pr_chart_box b;

    pr_pdf_doc_ensure(d, h);
    b.x = PR_PDF_MARGIN_X;
    b.y = d->y;
    b.w = pr_pdf_doc_width(d);
    b.h = h;
    d->y += h + 12;
    return b;
}
/* "page N of M" on every page, written once the page count is known. */
void
pr_pdf_doc_footers(struct pr_pdf_doc *d, const char *title, const char *version)
{
    char left[96], right[48];
    size_t i;

    snprintf(left, sizeof(left), "%s %s profreport %s", title, "\xC2\xB7",
             version);
    for (i = 0; i < d->n_pages; i++) {
        pr_pdf_canvas_init(&d->pc, d->doc, d->pages[i], d->reg, d->bold, 0,
                           d->ph, d->pw, d->ph);
        snprintf(right, sizeof(right), "page %zu of %zu", i + 1, d->n_pages);
        pr_pdf_doc_hline(d, PR_PDF_MARGIN_X, d->pw - PR_PDF_MARGIN_X,
                         d->ph - 40, PR_PDF_C_RULE, 0.5);
        pr_pdf_doc_put(d, PR_PDF_MARGIN_X, d->ph - 28, left, 7.5, 0,
                       PR_PDF_C_MUTED, PR_ANCHOR_START);
        pr_pdf_doc_put(d, d->pw - PR_PDF_MARGIN_X, d->ph - 28, right, 7.5, 0,
                       PR_PDF_C_MUTED, PR_ANCHOR_END);
    }
}

/* ---- document --------------------------------------------------------- */

/* "X.ttf" -> "X-Bold.ttf" when that file exists; owned, or NULL. */
static char *
bold_variant(const char *path)
{
    size_t n = strlen(path);
    char *b;
    FILE *f;

    if (n < 4 || strcmp(path + n - 4, ".ttf") != 0)
        return NULL;
    b = malloc(n + 6);
    if (b == NULL)
        return NULL;
    memcpy(b, path, n - 4);
    memcpy(b + n - 4, "-Bold.ttf", 10);
    f = fopen(b, "rb");
    if (f == NULL) {
        free(b);
        return NULL;
    }
    fclose(f);
    return b;
}

static enum pr_status
load_font(struct pr_pdf_doc *d, const char *path, HPDF_Font *out)
{
    FILE *f = fopen(path, "rb");
    const char *name;

    if (f == NULL)
        return pr_error_set(d->err, PR_E_IO, "%s: cannot open font: %s", path,
                            strerror(errno));
    fclose(f);
    name = HPDF_LoadTTFontFromFile(d->doc, path, HPDF_TRUE);
    *out = name ? HPDF_GetFont(d->doc, name, "UTF-8") : NULL;
    if (*out == NULL) {
        if (d->err->code == PR_OK)
            return pr_error_set(d->err, PR_E_PDF, "%s: cannot load font", path);
        pr_error_prefix(d->err, "%s: ", path);
        return d->err->code;
    }
    return PR_OK;
}

enum pr_status
pr_pdf_doc_open(struct pr_pdf_doc *d, const struct pr_pdf_setup *s,
                struct pr_error *err)
{
    const char *font = s->font ? s->font : PR_DEFAULT_FONT;
    char *bold = NULL;
    char creator[96];
    HPDF_Date t = pr_pdf_doc_date(s->generated_at);
    enum pr_status st;

    d->err = err;
    d->paper = s->paper;
    d->generated_at = s->generated_at;
    d->top = s->top > 0 ? s->top : PR_PDF_TOP_DEFAULT;
    d->doc = HPDF_New(on_hpdf_error, d);
    if (d->doc == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");

    HPDF_SetCompressionMode(d->doc, HPDF_COMP_ALL);
    HPDF_UseUTFEncodings(d->doc);
    d->enc = HPDF_GetEncoder(d->doc, "UTF-8");
    HPDF_SetPageMode(d->doc, HPDF_PAGE_MODE_USE_OUTLINE);
    /* fixed dates, no encryption (hence no random /ID): the same input
       and generated_at give byte-identical files */
    HPDF_SetInfoDateAttr(d->doc, HPDF_INFO_CREATION_DATE, t);
    HPDF_SetInfoDateAttr(d->doc, HPDF_INFO_MOD_DATE, t);
    HPDF_SetInfoAttr(d->doc, HPDF_INFO_TITLE, s->title);
    snprintf(creator, sizeof(creator), "profreport %s", s->version);
    HPDF_SetInfoAttr(d->doc, HPDF_INFO_CREATOR, creator);
    if (pr_pdf_doc_failed(d))
        return d->err->code;
    st = load_font(d, font, &d->reg);
    if (st != PR_OK)
        return st;
    bold = bold_variant(font);
    d->bold = d->reg;
    if (bold != NULL)
        st = load_font(d, bold, &d->bold);
    free(bold);
    return st;
}

/* A document that failed while drawing is not written: its error, with
 * the path, is the result. */
static enum pr_status
drawing_error(struct pr_pdf_doc *d, const char *path)
{
    if (d->err->code == PR_OK)
        pr_error_set(d->err, PR_E_PDF, "drawing failed");
    pr_error_prefix(d->err, "%s: ", path);
    return d->err->code;
}

/* Save into a temporary file beside `path`, then rename it into place. */
enum pr_status
pr_pdf_doc_save(struct pr_pdf_doc *d, const char *path)
{
    char *tmp = NULL;
    enum pr_status st;

    if (pr_pdf_doc_failed(d))
        return drawing_error(d, path);
    if (strcmp(path, "-") == 0)
        return pr_error_set(d->err, PR_E_USAGE,
                            "the PDF cannot be written to standard output");
    st = pr_sink_temp_path(path, &tmp, d->err);
    if (st != PR_OK)
        return st;
    if (HPDF_SaveToFile(d->doc, tmp) != HPDF_OK || d->failed) {
        pr_sink_abort(tmp);
        free(tmp);
        if (d->err->code == PR_OK)
            pr_error_set(d->err, PR_E_IO, "write failed");
        pr_error_prefix(d->err, "%s: ", path);
        return d->err->code;
    }
    st = pr_sink_commit(tmp, path, d->err);
    free(tmp);
    return st;
}

void
pr_pdf_doc_close(struct pr_pdf_doc *d)
{
    if (d->doc != NULL)
        HPDF_Free(d->doc);
    free(d->pages);
    d->doc = NULL;
    d->pages = NULL;
    d->n_pages = d->cap_pages = 0;
}
