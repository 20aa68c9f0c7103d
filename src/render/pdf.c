/* pdf.c - the PDF report.  Walks the summary tree (spec/summary-json.md),
 * never the trace, and lays it out with libharu: a title page, one section
 * per analysis with a bookmark, tables that continue across pages under a
 * repeated header, the charts of chart.c drawn as vectors through
 * pdf_canvas.c, and "page N of M" footers.  The libharu document lives only
 * inside this file; writing the file atomically is left to output/sink.c. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hpdf.h>

#include "profreport/chart.h"
#include "profreport/pdf_canvas.h"
#include "profreport/render.h"
#include "profreport/sink.h"

#define MARGIN_X 48.0
#define MARGIN_TOP 56.0
#define MARGIN_BOTTOM 56.0
#define TOP_DEFAULT 50
#define MAX_COLS 12
#define TABLE_SIZE 7.5 /* font size of table cells, points */
#define TABLE_LINE 9.5 /* line height of table cells */
#define TABLE_PAD 3.0  /* vertical padding of a table row */
#define BODY_SIZE 9.0
#define MAX_STEP_BARS 64
#define MAX_KERNEL_BARS 15
#define MAX_MEMORY_CHARTS 4

#define DASH "\xE2\x80\x93" /* en dash: a value that is null */

#define C_TEXT 0x1F2933u
#define C_MUTED 0x5F6B7Au
#define C_RULE 0xC3CCD6u
#define C_ACCENT 0x0072B2u
#define C_ZEBRA 0xF0F3F7u
#define C_HEAD 0xDCE3ECu

struct pdf {
    HPDF_Doc doc;
    HPDF_Font reg, bold;
    HPDF_Encoder enc; /* UTF-8, for bookmark titles */
    HPDF_Page *pages; /* owned array; the pages belong to doc */
    size_t n_pages, cap_pages;
    struct pr_pdf_canvas pc; /* the whole current page, origin top-left */
    double pw, ph;           /* page size, points */
    double y;                /* next free position, points from the top */
    HPDF_Outline parent;     /* section bookmarks go here; NULL = root */
    char section[160];       /* current section title, for "continued" */
    const struct pr_render_opts *o;
    struct pr_error *err; /* borrowed */
    int failed;           /* sticky: libharu reported an error */
    int top;              /* rows per table */
};

/* One table column: `key` of each row object, shown as `kind`. */
enum kind {
    K_TEXT,   /* string, one line, elided */
    K_NAME,   /* string, wrapped on up to two lines, then elided */
    K_INT,    /* count */
    K_US,     /* microseconds */
    K_PCT,    /* 0..100 */
    K_BYTES,  /* bytes */
    K_FLOPS,  /* FLOP count */
    K_TFLOPS, /* 10^12 FLOP/s */
    K_GBPS,   /* 10^9 bytes/s */
    K_AI,     /* FLOP/byte */
    K_NUM,    /* plain number, two decimals */
    K_BOOL,   /* yes / no */
    K_WRAP,   /* string, wrapped on up to six lines (prose) */
    K_FILE    /* path, shown by its basename */
};

struct col {
    const char *title;
    const char *key;
    enum kind kind;
    double weight; /* share of the table width */
};

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
    struct pdf *d = user;
    enum pr_status st = PR_E_PDF;

    if (code == HPDF_FAILD_TO_ALLOC_MEM)
        st = PR_E_NOMEM;
    else if (code == HPDF_FILE_IO_ERROR || code == HPDF_FILE_OPEN_ERROR)
        st = PR_E_IO;
    d->failed = 1;
    pr_error_set(d->err, st, "%s (libharu error 0x%04X, detail %u)",
                 hpdf_what(code), (unsigned)code, (unsigned)detail);
}

static int
is_failed(struct pdf *d)
{
    if (d->pc.canvas.failed)
        d->failed = 1;
    return d->failed;
}

static void
set_nomem(struct pdf *d)
{
    d->failed = 1;
    pr_error_set(d->err, PR_E_NOMEM, "out of memory");
}

/* ---- summary access: every getter checks the type ---------------------- */

static const cJSON *
get(const cJSON *o, const char *key)
{
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

static const char *
get_str(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* NAN when absent, null or not a finite number. */
static double
get_num(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);

    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return NAN;
    return v->valuedouble;
}

static size_t
array_len(const cJSON *a)
{
    int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;

    return n > 0 ? (size_t)n : 0;
}

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

/* A row's value at `key`, which may name one nested member ("a.b"). */
static const cJSON *
lookup(const cJSON *row, const char *key)
{
    const char *dot = strchr(key, '.');
    char head[32];
    size_t n;

    if (dot == NULL)
        return get(row, key);
    n = (size_t)(dot - key);
    if (n >= sizeof(head))
        return NULL;
    memcpy(head, key, n);
    head[n] = '\0';
    return get(get(row, head), dot + 1);
}

static const char *
text_cell(const cJSON *v, enum kind kind, char *buf, size_t n)
{
    if (cJSON_IsString(v))
        return kind == K_FILE ? base_name(v->valuestring) : v->valuestring;
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
        snprintf(buf, n, "%.15g", v->valuedouble);
        return buf;
    }
    return DASH;
}

/* Text of one table cell; numbers carry their unit, null is an en dash. */
static const char *
cell_text(const cJSON *row, const struct col *c, char *buf, size_t n)
{
    const cJSON *v = lookup(row, c->key);
    double x = NAN;

    if (c->kind == K_TEXT || c->kind == K_NAME || c->kind == K_WRAP ||
        c->kind == K_FILE)
        return text_cell(v, c->kind, buf, n);
    if (c->kind == K_BOOL)
        return cJSON_IsTrue(v) ? "yes" : cJSON_IsFalse(v) ? "no" : DASH;
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
        x = v->valuedouble;
    switch (c->kind) {
    case K_INT:
        return pr_chart_format(x, PR_UNIT_COUNT, buf, n);
    case K_US:
        return pr_chart_format(x, PR_UNIT_US, buf, n);
    case K_PCT:
        return pr_chart_format(x, PR_UNIT_PCT, buf, n);
    case K_BYTES:
        return pr_chart_format(x, PR_UNIT_BYTES, buf, n);
    case K_TFLOPS:
        return pr_chart_format(x, PR_UNIT_TFLOPS, buf, n);
    case K_AI:
        return pr_chart_format(x, PR_UNIT_FLOP_PER_BYTE, buf, n);
    default:
        break;
    }
    if (isnan(x))
        return DASH;
    if (c->kind == K_FLOPS)
        fmt_si(x, "FLOP", buf, n);
    else if (c->kind == K_GBPS)
        snprintf(buf, n, "%.1f GB/s", x);
    else
        snprintf(buf, n, "%.2f", x);
    return buf;
}

/* Civil UTC date of Unix time t, computed here: the libc converters are
 * banned (STYLE.md) and this needs no time zone.  Clamped to years
 * 1970..9999, the range a PDF date holds. */
static HPDF_Date
utc_date(int64_t t)
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

/* ---- pages and drawing ------------------------------------------------ */

static double
content_w(const struct pdf *d)
{
    return d->pw - 2 * MARGIN_X;
}

static double
page_bottom(const struct pdf *d)
{
    return d->ph - MARGIN_BOTTOM;
}

static int
new_page(struct pdf *d)
{
    int letter = d->o->paper && strcmp(d->o->paper, "letter") == 0;
    void *pages = d->pages;
    HPDF_Page p;

    if (pr_grow(&pages, &d->cap_pages, d->n_pages + 1, sizeof(*d->pages)) !=
        PR_OK) {
        set_nomem(d);
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
    d->y = MARGIN_TOP;
    return 0;
}

/* Start a new page unless `h` more points fit on this one. */
static void
ensure(struct pdf *d, double h)
{
    if (d->y + h > page_bottom(d))
        (void)new_page(d);
}

static void
put(struct pdf *d, double x, double y, const char *s, double size, int bold,
    uint32_t color, enum pr_anchor a)
{
    struct pr_text_style t;

    memset(&t, 0, sizeof(t));
    t.size = size;
    t.color = color;
    t.anchor = a;
    t.bold = bold;
    d->pc.canvas.ops->text(&d->pc.canvas, x, y, s, &t);
}

static void
fill_rect(struct pdf *d, double x, double y, double w, double h, uint32_t color)
{
    struct pr_style s;

    memset(&s, 0, sizeof(s));
    s.fill = color;
    s.stroke = PR_COLOR_NONE;
    d->pc.canvas.ops->rect(&d->pc.canvas, x, y, w, h, &s);
}

static void
hline(struct pdf *d, double x1, double x2, double y, uint32_t color,
      double width)
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
is_break_after(char c)
{
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
        if (is_break_after(s[i - 1]))
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
static void
put_clipped(struct pdf *d, double x, double y, double w, const char *s,
            double size, int bold, uint32_t color)
{
    HPDF_Font f = bold ? d->bold : d->reg;
    const char *ell = "\xE2\x80\xA6";
    double ew;

    if (pr_pdf_text_width(f, s, size) <= w) {
        put(d, x, y, s, size, bold, color, PR_ANCHOR_START);
        return;
    }
    ew = pr_pdf_text_width(f, ell, size);
    HPDF_Page_GSave(d->pc.page);
    HPDF_Page_Rectangle(
        d->pc.page, (HPDF_REAL)x, (HPDF_REAL)(d->ph - y - size * 0.4),
        (HPDF_REAL)(w - ew > 0 ? w - ew : 0), (HPDF_REAL)(size * 1.6));
    HPDF_Page_Clip(d->pc.page);
    HPDF_Page_EndPath(d->pc.page);
    put(d, x, y, s, size, bold, color, PR_ANCHOR_START);
    HPDF_Page_GRestore(d->pc.page);
    put(d, x + w - ew, y, ell, size, bold, color, PR_ANCHOR_START);
}

/* Where and how put_wrapped() draws: a box `w` points wide whose first
 * baseline is at (x, y), lines `lh` apart. */
struct textbox {
    double x, y, w;
    double size, lh;
    int max_lines; /* the last one is elided by put_clipped() */
    int bold;
    int right; /* right-aligned lines (numeric column headers) */
    uint32_t color;
};

static void
put_line(struct pdf *d, const struct textbox *b, double y, const char *s)
{
    if (b->right)
        put(d, b->x + b->w, y, s, b->size, b->bold, b->color, PR_ANCHOR_END);
    else
        put(d, b->x, y, s, b->size, b->bold, b->color, PR_ANCHOR_START);
}

/* Draw clean text wrapped on at most b->max_lines lines. */
static void
put_wrapped(struct pdf *d, const struct textbox *b, const char *s)
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
            set_nomem(d);
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
        put_clipped(d, b->x, y, b->w, s, b->size, b->bold, b->color);
}

/* A paragraph of trace or summary text, wrapped over the content width and
 * across pages. */
static void
paragraph(struct pdf *d, double indent, const char *utf8, double size,
          uint32_t color)
{
    char *clean = pr_pdf_text_clean(utf8);
    char *s = clean;
    double w = content_w(d) - indent;

    if (clean == NULL) {
        set_nomem(d);
        return;
    }
    while (*s != '\0' && !is_failed(d)) {
        size_t n = fit_prefix(d->reg, size, s, w);
        char keep = s[n];
        ensure(d, size * 1.45);
        s[n] = '\0'; /* cut the line in place, then put the byte back */
        put(d, MARGIN_X + indent, d->y + size, s, size, 0, color,
            PR_ANCHOR_START);
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

static HPDF_Outline
bookmark(struct pdf *d, HPDF_Outline parent, const char *title)
{
    char *clean = pr_pdf_text_clean(title);
    HPDF_Outline ol;
    HPDF_Destination dst;

    if (clean == NULL) {
        set_nomem(d);
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
static void
section(struct pdf *d, const char *title)
{
    if (d->y > MARGIN_TOP && d->y + d->ph / 3 > page_bottom(d))
        (void)new_page(d);
    else if (d->y > MARGIN_TOP)
        d->y += 18;
    if (is_failed(d))
        return;
    snprintf(d->section, sizeof(d->section), "%s", title);
    (void)bookmark(d, d->parent, title);
    put(d, MARGIN_X, d->y + 18, title, 18, 1, C_TEXT, PR_ANCHOR_START);
    d->y += 26;
    hline(d, MARGIN_X, d->pw - MARGIN_X, d->y, C_ACCENT, 1.5);
    d->y += 16;
}

/* A sub-heading; keeps `keep` points below it on the same page. */
static void
subheading(struct pdf *d, const char *title, double keep)
{
    ensure(d, 22 + keep);
    put(d, MARGIN_X, d->y + 11, title, 11.5, 1, C_ACCENT, PR_ANCHOR_START);
    d->y += 20;
}

static void
note(struct pdf *d, const char *text)
{
    ensure(d, 14);
    put(d, MARGIN_X, d->y + BODY_SIZE, text, BODY_SIZE, 0, C_MUTED,
        PR_ANCHOR_START);
    d->y += 16;
}

/* ---- tables ----------------------------------------------------------- */

static int
is_numeric(enum kind k)
{
    return k != K_TEXT && k != K_NAME && k != K_BOOL && k != K_WRAP &&
           k != K_FILE;
}

/* Lines a text cell may wrap onto; the last one is elided. */
static int
max_lines(enum kind k)
{
    return k == K_WRAP ? 6 : k == K_NAME ? 2 : 1;
}

/* Header cells wrap onto two lines, so narrow numeric columns can keep
 * readable titles. */
static void
table_header(struct pdf *d, const struct col *cols, size_t n_cols,
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
    fill_rect(d, MARGIN_X, d->y, content_w(d), h, C_HEAD);
    for (i = 0; i < n_cols; i++) {
        struct textbox b;
        b.x = x[i] + 4;
        b.y = d->y + TABLE_PAD + TABLE_SIZE + 1;
        b.w = x[i + 1] - x[i] - 8;
        b.size = TABLE_SIZE;
        b.lh = TABLE_LINE;
        b.max_lines = 2;
        b.bold = 1;
        b.right = is_numeric(cols[i].kind);
        b.color = C_TEXT;
        put_wrapped(d, &b, cols[i].title);
    }
    d->y += h;
}

/* Height of one row: the tallest wrapped text decides. */
static double
row_height(struct pdf *d, const cJSON *row, const struct col *cols,
           size_t n_cols, const double *x)
{
    int lines = 1;
    size_t i;

    for (i = 0; i < n_cols; i++) {
        const cJSON *v = lookup(row, cols[i].key);
        char *clean;
        int n;
        if (max_lines(cols[i].kind) < 2 || !cJSON_IsString(v))
            continue;
        clean = pr_pdf_text_clean(v->valuestring);
        if (clean == NULL) {
            set_nomem(d);
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
table_row(struct pdf *d, const cJSON *row, const struct col *cols,
          size_t n_cols, const double *x)
{
    size_t i;

    for (i = 0; i < n_cols; i++) {
        char buf[64];
        struct textbox b;
        char *clean =
            pr_pdf_text_clean(cell_text(row, &cols[i], buf, sizeof(buf)));
        if (clean == NULL) {
            set_nomem(d);
            return;
        }
        b.x = x[i] + 4;
        b.y = d->y + TABLE_PAD + TABLE_SIZE;
        b.w = x[i + 1] - x[i] - 8;
        b.size = TABLE_SIZE;
        b.lh = TABLE_LINE;
        b.max_lines = max_lines(cols[i].kind);
        b.bold = 0;
        b.right = is_numeric(cols[i].kind);
        b.color = C_TEXT;
        put_wrapped(d, &b, clean);
        free(clean);
    }
}

/* Column edges from the weights: x[0] = left margin, x[n] = right. */
static void
column_edges(const struct pdf *d, const struct col *cols, size_t n_cols,
             double *x)
{
    double total = 0, at = MARGIN_X;
    size_t i;

    for (i = 0; i < n_cols; i++)
        total += cols[i].weight;
    x[0] = at;
    for (i = 0; i < n_cols; i++) {
        at += content_w(d) * cols[i].weight / total;
        x[i + 1] = at;
    }
}

/* Rows of `rows` (an array of objects, or one object) up to `limit`,
 * zebra-striped, with the header repeated on every page the table reaches.
 * With `require`, only rows where that key is a number are shown. */
static void
table(struct pdf *d, const struct col *cols, size_t n_cols, const cJSON *rows,
      size_t limit, const char *require)
{
    double x[MAX_COLS + 1];
    const cJSON *row = cJSON_IsArray(rows) ? rows->child : rows;
    size_t i = 0;

    if (n_cols > MAX_COLS || !cJSON_IsObject(row))
        return;
    column_edges(d, cols, n_cols, x);
    ensure(d, 3 * (TABLE_LINE + 2 * TABLE_PAD));
    table_header(d, cols, n_cols, x);
    for (; row != NULL && i < limit && !is_failed(d);
         row = cJSON_IsArray(rows) ? row->next : NULL) {
        double h;
        if (!cJSON_IsObject(row) ||
            (require && !cJSON_IsNumber(get(row, require))))
            continue;
        h = row_height(d, row, cols, n_cols, x);
        if (d->y + h > page_bottom(d)) {
            char line[200];
            (void)new_page(d);
            snprintf(line, sizeof(line), "%s (continued)", d->section);
            note(d, line);
            table_header(d, cols, n_cols, x);
        }
        if (i % 2 == 1)
            fill_rect(d, MARGIN_X, d->y, content_w(d), h, C_ZEBRA);
        table_row(d, row, cols, n_cols, x);
        d->y += h;
        i++;
    }
    hline(d, MARGIN_X, d->pw - MARGIN_X, d->y, C_RULE, 0.5);
    d->y += 14;
}

/* "Top 50 of 312, by device self time." above a table (order NULL: only
 * when rows are left out), or the one line that says there is nothing to
 * show.  Returns 1 when there are rows. */
static int
table_caption(struct pdf *d, const cJSON *rows, const char *what,
              const char *order)
{
    size_t n = array_len(rows);
    char line[160];

    if (rows == NULL || cJSON_IsNull(rows)) {
        snprintf(line, sizeof(line), "No %s data in this summary.", what);
        note(d, line);
        return 0;
    }
    if (n == 0) {
        snprintf(line, sizeof(line), "No %s recorded.", what);
        note(d, line);
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
    note(d, line);
    return 1;
}

/* ---- charts ----------------------------------------------------------- */

/* Reserve `h` points for a chart and return its box on the page canvas. */
static struct pr_chart_box
chart_box(struct pdf *d, double h)
{
    struct pr_chart_box b;

    ensure(d, h);
    b.x = MARGIN_X;
    b.y = d->y;
    b.w = content_w(d);
    b.h = h;
    d->y += h + 12;
    return b;
}

static const char *const breakdown_keys[] = {
    "kernel",  "memcpy",     "memset",   "communication",
    "runtime", "dataloader", "cpu_exec", "other"};
static const char *const breakdown_names[] = {
    "Kernel",  "Memcpy",     "Memset",   "Communication",
    "Runtime", "DataLoader", "CPU Exec", "Other"};
#define N_BREAKDOWN 8

static void
chart_steps(struct pdf *d, const cJSON *steps)
{
    size_t n = array_len(steps), i = 0, k;
    const char **names;
    double *values;
    const cJSON *step;
    struct pr_chart_stacked s;
    struct pr_chart_box b;

    if (n == 0)
        return;
    if (n > MAX_STEP_BARS)
        n = MAX_STEP_BARS;
    names = calloc(n, sizeof(*names));
    values = calloc(n * N_BREAKDOWN, sizeof(*values));
    if (names == NULL || values == NULL) {
        set_nomem(d);
        goto out;
    }
    cJSON_ArrayForEach(step, steps)
    {
        const cJSON *bd = get(step, "breakdown_us");
        if (i == n)
            break;
        names[i] = get_str(step, "name") ? get_str(step, "name") : "?";
        for (k = 0; k < N_BREAKDOWN; k++) {
            double v = get_num(bd, breakdown_keys[k]);
            values[i * N_BREAKDOWN + k] = isnan(v) ? 0 : v;
        }
        i++;
    }
    memset(&s, 0, sizeof(s));
    s.title = "Step time breakdown";
    s.categories = names;
    s.n_categories = i;
    s.series = breakdown_names;
    s.n_series = N_BREAKDOWN;
    s.values = values;
    s.unit = PR_UNIT_US;
    s.y_label = "time per step";
    b = chart_box(d, 190);
    pr_chart_stacked_bars(&d->pc.canvas, &b, &s);
out:
    free(names);
    free(values);
}

static void
chart_breakdown(struct pdf *d, const cJSON *step_summary)
{
    const cJSON *bd = get(step_summary, "breakdown_us");
    double values[N_BREAKDOWN];
    char center[64];
    struct pr_chart_donut s;
    struct pr_chart_box b;
    size_t k;

    if (!cJSON_IsObject(bd))
        return;
    for (k = 0; k < N_BREAKDOWN; k++) {
        double v = get_num(bd, breakdown_keys[k]);
        values[k] = isnan(v) ? 0 : v;
    }
    memset(&s, 0, sizeof(s));
    s.title = "Mean step: where the time goes";
    s.labels = breakdown_names;
    s.values = values;
    s.n = N_BREAKDOWN;
    s.unit = PR_UNIT_US;
    s.center_value = pr_chart_format(get_num(step_summary, "mean_us"),
                                     PR_UNIT_US, center, sizeof(center));
    s.center_label = "mean step";
    b = chart_box(d, 170);
    pr_chart_donut(&d->pc.canvas, &b, &s);
}

static void
chart_kernels(struct pdf *d, const cJSON *kernels)
{
    static const char *const legend[] = {"CUDA cores", "tensor cores"};
    size_t n = array_len(kernels), i = 0;
    const char **labels;
    double *values;
    size_t *colors;
    const cJSON *k;
    struct pr_chart_hbars s;
    struct pr_chart_box b;

    if (n > MAX_KERNEL_BARS)
        n = MAX_KERNEL_BARS;
    if (n == 0)
        return;
    labels = calloc(n, sizeof(*labels));
    values = calloc(n, sizeof(*values));
    colors = calloc(n, sizeof(*colors));
    if (labels == NULL || values == NULL || colors == NULL) {
        set_nomem(d);
        goto out;
    }
    cJSON_ArrayForEach(k, kernels)
    {
        double v = get_num(k, "total_us");
        if (i == n)
            break;
        labels[i] = get_str(k, "name") ? get_str(k, "name") : "?";
        values[i] = isnan(v) ? 0 : v;
        colors[i] = cJSON_IsTrue(get(k, "tensor_cores_used")) ? 1 : 0;
        i++;
    }
    memset(&s, 0, sizeof(s));
    s.title = "Top kernels by total time";
    s.labels = labels;
    s.values = values;
    s.n = i;
    s.color_index = colors;
    s.unit = PR_UNIT_US;
    s.legend = legend;
    s.n_legend = 2;
    b = chart_box(d, 70 + 16.0 * (double)i);
    pr_chart_hbars(&d->pc.canvas, &b, &s);
out:
    free(labels);
    free(values);
    free(colors);
}

/* Operators with both an intensity and a rate as roofline points, coloured
 * by their bound; returns how many of `cap` were filled. */
static size_t
roofline_points(const cJSON *ops, struct pr_chart_point *pts, size_t cap)
{
    const cJSON *op;
    size_t i = 0;

    cJSON_ArrayForEach(op, ops)
    {
        const char *bound = get_str(op, "bound");
        if (i == cap)
            break;
        pts[i].label = get_str(op, "name") ? get_str(op, "name") : "?";
        pts[i].x = get_num(op, "arithmetic_intensity");
        pts[i].y = get_num(op, "achieved_tflops");
        pts[i].weight = get_num(op, "device_self_us");
        if (isnan(pts[i].x) || isnan(pts[i].y))
            continue; /* not a point */
        if (isnan(pts[i].weight))
            pts[i].weight = 0;
        pts[i].color_index = bound && strcmp(bound, "compute") == 0  ? 0
                             : bound && strcmp(bound, "memory") == 0 ? 1
                                                                     : 2;
        i++;
    }
    return i;
}

/* The roofline of the run's operators under its first device's roofs. */
static void
chart_roofline(struct pdf *d, const cJSON *run, size_t n_points)
{
    static const char *const legend[] = {"compute-bound", "memory-bound",
                                         "unknown"};
    static const char *const roof_keys[] = {"fp64", "fp32", "tf32_tensor",
                                            "bf16_tensor", "fp16_tensor"};
    const cJSON *devs = get(run, "devices");
    const cJSON *dev = cJSON_IsArray(devs) ? devs->child : NULL;
    struct pr_chart_point *pts = calloc(n_points, sizeof(*pts));
    struct pr_chart_roof roofs[5];
    struct pr_chart_roofline s;
    struct pr_chart_box b;
    size_t i = 0, k;

    if (pts == NULL) {
        set_nomem(d);
        return;
    }
    memset(&s, 0, sizeof(s));
    i = roofline_points(get(run, "operators"), pts, n_points);
    for (k = 0; k < 5; k++) {
        double t = get_num(get(dev, "peak_tflops"), roof_keys[k]);
        if (!isnan(t) && t > 0) {
            roofs[s.n_roofs].name = roof_keys[k];
            roofs[s.n_roofs++].tflops = t;
        }
    }
    s.title = "Roofline (operators, first device's peaks)";
    s.points = pts;
    s.n_points = i;
    s.roofs = roofs;
    s.peak_gbps =
        isnan(get_num(dev, "peak_gbps")) ? 0 : get_num(dev, "peak_gbps");
    s.n_labels = 8;
    s.legend = legend;
    s.n_legend = 3;
    b = chart_box(d, 300);
    pr_chart_roofline(&d->pc.canvas, &b, &s);
    free(pts);
}

/* Copy up to n numbers of a JSON array into a new array (non-numbers read
 * as 0).  NULL on out-of-memory. */
static double *
numbers(const cJSON *a, size_t n)
{
    double *v = calloc(n ? n : 1, sizeof(*v));
    const cJSON *e;
    size_t i = 0;

    if (v == NULL)
        return NULL;
    cJSON_ArrayForEach(e, a)
    {
        if (i == n)
            break;
        v[i++] =
            cJSON_IsNumber(e) && isfinite(e->valuedouble) ? e->valuedouble : 0;
    }
    return v;
}

/* Allocated and reserved memory over time for one device. */
static void
chart_memory(struct pdf *d, const cJSON *mdev)
{
    const cJSON *curve = get(mdev, "curve");
    size_t n = array_len(get(curve, "t_us")), i, peak = 0;
    double *t, *alloc, *resv;
    struct pr_chart_series ser[2];
    struct pr_chart_lines s;
    struct pr_chart_box b;
    char title[96], mark[64], val[48];

    if (array_len(get(curve, "allocated_bytes")) < n)
        n = array_len(get(curve, "allocated_bytes"));
    if (n < 2)
        return;
    t = numbers(get(curve, "t_us"), n);
    alloc = numbers(get(curve, "allocated_bytes"), n);
    resv = numbers(get(curve, "reserved_bytes"), n);
    if (t == NULL || alloc == NULL || resv == NULL) {
        set_nomem(d);
        goto out;
    }
    for (i = 1; i < n; i++)
        if (alloc[i] > alloc[peak])
            peak = i;
    memset(ser, 0, sizeof(ser));
    memset(&s, 0, sizeof(s));
    ser[0].name = "allocated";
    ser[0].x = t;
    ser[0].y = alloc;
    ser[0].n = n;
    ser[0].color = pr_canvas_palette(0);
    ser[0].fill = 1;
    ser[0].step = 1;
    ser[1] = ser[0];
    ser[1].name = "reserved";
    ser[1].y = resv;
    ser[1].color = pr_canvas_palette(1);
    ser[1].fill = 0;
    snprintf(title, sizeof(title), "Memory over time: %s",
             get_str(mdev, "device") ? get_str(mdev, "device") : "?");
    snprintf(mark, sizeof(mark), "peak %s",
             pr_chart_format(alloc[peak], PR_UNIT_BYTES, val, sizeof(val)));
    s.title = title;
    s.series = ser;
    s.n_series = array_len(get(curve, "reserved_bytes")) >= n ? 2 : 1;
    s.x_unit = PR_UNIT_US;
    s.y_unit = PR_UNIT_BYTES;
    s.x_label = "time since the first event";
    s.y_label = "memory";
    s.mark_x = t[peak];
    s.mark_y = alloc[peak];
    s.mark_label = mark;
    b = chart_box(d, 200);
    pr_chart_line(&d->pc.canvas, &b, &s);
out:
    free(t);
    free(alloc);
    free(resv);
}

/* Computation / overlap / communication / other per worker. */
static void
chart_distributed(struct pdf *d, const cJSON *workers)
{
    static const char *const keys[] = {"computation_us", "overlap_us",
                                       "communication_us", "other_us"};
    static const char *const names[] = {"Computation", "Overlap",
                                        "Communication", "Other"};
    size_t n = array_len(workers), i = 0, k;
    const char **cats;
    double *values;
    const cJSON *w;
    struct pr_chart_stacked s;
    struct pr_chart_box b;

    if (n == 0)
        return;
    if (n > MAX_STEP_BARS)
        n = MAX_STEP_BARS;
    cats = calloc(n, sizeof(*cats));
    values = calloc(n * 4, sizeof(*values));
    if (cats == NULL || values == NULL) {
        set_nomem(d);
        goto out;
    }
    cJSON_ArrayForEach(w, workers)
    {
        if (i == n)
            break;
        cats[i] = get_str(w, "worker") ? get_str(w, "worker") : "?";
        for (k = 0; k < 4; k++)
            values[i * 4 + k] =
                isnan(get_num(w, keys[k])) ? 0 : get_num(w, keys[k]);
        i++;
    }
    memset(&s, 0, sizeof(s));
    s.title = "Time per step by worker";
    s.categories = cats;
    s.n_categories = i;
    s.series = names;
    s.n_series = 4;
    s.values = values;
    s.unit = PR_UNIT_US;
    s.y_label = "time per step";
    b = chart_box(d, 210);
    pr_chart_stacked_bars(&d->pc.canvas, &b, &s);
out:
    free(cats);
    free(values);
}

/* ---- key figures ------------------------------------------------------ */

struct figure {
    const char *label;
    char value[48];
};

/* A row of boxes, each with one big number and a label. */
static void
figures(struct pdf *d, const struct figure *f, size_t n)
{
    double w = content_w(d) / (double)n, h = 44;
    size_t i;

    ensure(d, h + 14);
    for (i = 0; i < n; i++) {
        double x = MARGIN_X + w * (double)i;
        fill_rect(d, x + 2, d->y, w - 4, h, C_ZEBRA);
        fill_rect(d, x + 2, d->y, 3, h, C_ACCENT);
        put(d, x + 12, d->y + 21, f[i].value, 15, 1, C_TEXT, PR_ANCHOR_START);
        put_clipped(d, x + 12, d->y + 35, w - 20, f[i].label, 7.5, 0, C_MUTED);
    }
    d->y += h + 16;
}

static void
figure_set(struct figure *f, const char *label, double v, enum pr_unit u)
{
    f->label = label;
    pr_chart_format(v, u, f->value, sizeof(f->value));
}

/* ---- sections --------------------------------------------------------- */

static const struct col step_cols[] = {
    {"Steps", "count", K_INT, 1},     {"Mean", "mean_us", K_US, 1},
    {"Median", "median_us", K_US, 1}, {"p90", "p90_us", K_US, 1},
    {"Min", "min_us", K_US, 1},       {"Max", "max_us", K_US, 1},
};

static const struct col gpu_cols[] = {
    {"Device", "device", K_TEXT, 0.8},
    {"GPU utilization", "utilization_pct", K_PCT, 1.2},
    {"Est. SM efficiency", "est_sm_efficiency_pct", K_PCT, 1.2},
    {"Est. achieved occupancy", "est_achieved_occupancy_pct", K_PCT, 1.5},
    {"Kernel time", "kernel_time_us", K_US, 1.1},
};

static const struct col device_cols[] = {
    {"Id", "id", K_TEXT, 0.4},
    {"Name", "name", K_NAME, 2.4},
    {"SMs", "num_sms", K_INT, 0.5},
    {"CC", "compute_capability", K_TEXT, 0.5},
    {"Memory", "memory_bytes", K_BYTES, 0.9},
    {"FP32 peak", "peak_tflops.fp32", K_TFLOPS, 1.1},
    {"FP16 TC peak", "peak_tflops.fp16_tensor", K_TFLOPS, 1.1},
    {"Bandwidth", "peak_gbps", K_GBPS, 1},
    {"Peaks from", "peak_source", K_TEXT, 0.8},
};

static void
sec_overview(struct pdf *d, const cJSON *run, const char *title)
{
    const cJSON *ss = get(run, "step_summary");
    const cJSON *gm = get(run, "gpu_metrics");
    struct figure f[4];
    double mean = get_num(ss, "mean_us");

    section(d, title);
    figure_set(&f[0], "steps", get_num(ss, "count"), PR_UNIT_COUNT);
    figure_set(&f[1], "mean step time", mean, PR_UNIT_US);
    figure_set(&f[2], "GPU utilization",
               get_num(cJSON_IsArray(gm) ? gm->child : NULL, "utilization_pct"),
               PR_UNIT_PCT);
    figure_set(&f[3], "of the mean step in kernels",
               100.0 * get_num(get(ss, "breakdown_us"), "kernel") / mean,
               PR_UNIT_PCT);
    figures(d, f, 4);
    subheading(d, "Step time", 60);
    if (!cJSON_IsObject(ss))
        note(d, "No step data in this summary.");
    table(d, step_cols, 6, ss, 1, NULL);
    chart_steps(d, get(run, "steps"));
    chart_breakdown(d, ss);
    subheading(d, "GPU metrics", 60);
    if (table_caption(d, gm, "GPU metrics", NULL))
        table(d, gpu_cols, 5, gm, (size_t)d->top, NULL);
    subheading(d, "Devices", 60);
    if (table_caption(d, get(run, "devices"), "devices", NULL))
        table(d, device_cols, 9, get(run, "devices"), (size_t)d->top, NULL);
}

static const struct col op_cols[] = {
    {"Operator", "name", K_NAME, 3.2},
    {"Calls", "calls", K_INT, 0.7},
    {"Device self", "device_self_us", K_US, 1},
    {"Device total", "device_total_us", K_US, 1},
    {"Host self", "host_self_us", K_US, 1},
    {"Host total", "host_total_us", K_US, 1},
    {"TC eligible", "tc_eligible", K_BOOL, 0.8},
    {"TC self", "tc_self_pct", K_PCT, 0.7},
};

static const struct col op_shape_cols[] = {
    {"Operator", "name", K_NAME, 2.2},
    {"Input shapes", "input_shapes", K_NAME, 2.2},
    {"Calls", "calls", K_INT, 0.7},
    {"Device self", "device_self_us", K_US, 1},
    {"Device total", "device_total_us", K_US, 1},
    {"Host self", "host_self_us", K_US, 1},
    {"TC self", "tc_self_pct", K_PCT, 0.7},
};

static void
sec_operators(struct pdf *d, const cJSON *run, const char *title)
{
    const cJSON *ops = get(run, "operators");
    const cJSON *by_shape = get(run, "operators_by_shape");

    section(d, title);
    subheading(d, "By name", 60);
    if (table_caption(d, ops, "operators", "device self time"))
        table(d, op_cols, 8, ops, (size_t)d->top, NULL);
    subheading(d, "By name and input shape", 60);
    if (table_caption(d, by_shape, "operator shapes", "device self time"))
        table(d, op_shape_cols, 7, by_shape, (size_t)d->top, NULL);
}

static const struct col kernel_cols[] = {
    {"Kernel", "name", K_NAME, 2.65},
    {"Operator", "operator", K_TEXT, 1.4},
    {"Calls", "calls", K_INT, 0.6},
    {"Total", "total_us", K_US, 0.9},
    {"Mean", "mean_us", K_US, 0.8},
    {"Min", "min_us", K_US, 0.8},
    {"Max", "max_us", K_US, 0.8},
    {"Blocks/SM", "mean_blocks_per_sm", K_NUM, 0.8},
    {"Occupancy", "mean_est_achieved_occupancy_pct", K_PCT, 1.25},
    {"TC", "tensor_cores_used", K_BOOL, 0.5},
};

static void
sec_kernels(struct pdf *d, const cJSON *run, const char *title)
{
    const cJSON *kernels = get(run, "kernels");

    section(d, title);
    if (!table_caption(d, kernels, "kernels", "total time"))
        return;
    chart_kernels(d, kernels);
    table(d, kernel_cols, 10, kernels, (size_t)d->top, NULL);
}

static const struct col finding_cols[] = {
    {"Operator", "operator", K_NAME, 1.5},
    {"Input shapes", "input_shapes", K_NAME, 1.6},
    {"Device time", "device_us", K_US, 0.9},
    {"Why not on tensor cores", "reason", K_WRAP, 2},
    {"Advice", "advice", K_WRAP, 2},
};

static void
sec_tensor_cores(struct pdf *d, const cJSON *run, const char *title)
{
    const cJSON *tc = get(run, "tensor_cores");
    struct figure f[3];

    section(d, title);
    if (!cJSON_IsObject(tc)) {
        note(d, "No tensor-core data in this summary.");
        return;
    }
    figure_set(&f[0], "of kernel time in tensor-core kernels",
               get_num(tc, "tc_kernel_time_pct"), PR_UNIT_PCT);
    figure_set(&f[1], "of operator time is tensor-core eligible",
               get_num(tc, "eligible_op_time_pct"), PR_UNIT_PCT);
    figure_set(&f[2], "of eligible time ran on tensor cores",
               get_num(tc, "eligible_on_tc_pct"), PR_UNIT_PCT);
    figures(d, f, 3);
    subheading(d, "Eligible operators not using tensor cores", 60);
    if (table_caption(d, get(tc, "findings"), "findings", "device time"))
        table(d, finding_cols, 5, get(tc, "findings"), (size_t)d->top, NULL);
}

static const struct col roofline_cols[] = {
    {"Operator", "name", K_NAME, 2.3},
    {"FLOPs", "flops", K_FLOPS, 1},
    {"Bytes", "bytes", K_BYTES, 0.9},
    {"Intensity", "arithmetic_intensity", K_AI, 1.15},
    {"Achieved", "achieved_tflops", K_TFLOPS, 1.15},
    {"Bandwidth", "achieved_gbps", K_GBPS, 1.05},
    {"Bound", "bound", K_TEXT, 0.8},
    {"Of roofline", "roofline_pct", K_PCT, 0.8},
};

static void
sec_roofline(struct pdf *d, const cJSON *run, const char *title)
{
    const cJSON *ops = get(run, "operators");
    const cJSON *op;
    size_t n = 0;

    section(d, title);
    cJSON_ArrayForEach(op, ops)
    {
        if (!isnan(get_num(op, "arithmetic_intensity")) &&
            !isnan(get_num(op, "achieved_tflops")))
            n++;
    }
    if (n == 0) {
        note(d, "No operator has FLOP and byte estimates, so there is no "
                "roofline to draw.");
        return;
    }
    chart_roofline(d, run, array_len(ops));
    subheading(d, "Operators with FLOP estimates", 60);
    note(d, "Ordered by device self time; operators without a FLOP formula "
            "are left out.");
    table(d, roofline_cols, 8, ops, (size_t)d->top, "flops");
}

static const struct col mem_peak_cols[] = {
    {"Device", "device", K_TEXT, 1},
    {"Peak allocated", "peak_allocated_bytes", K_BYTES, 1},
    {"Peak reserved", "peak_reserved_bytes", K_BYTES, 1},
};

static const struct col mem_op_cols[] = {
    {"Device", "device", K_TEXT, 0.6},
    {"Operator", "name", K_NAME, 2.4},
    {"Calls", "calls", K_INT, 0.6},
    {"Size increase", "size_increase_bytes", K_BYTES, 1},
    {"Self increase", "self_size_increase_bytes", K_BYTES, 1},
    {"Allocs", "allocation_count", K_INT, 0.7},
    {"Self allocs", "self_allocation_count", K_INT, 0.7},
    {"Alloc size", "allocation_size_bytes", K_BYTES, 0.9},
    {"Self alloc size", "self_allocation_size_bytes", K_BYTES, 1},
};

static void
sec_memory(struct pdf *d, const cJSON *run, const char *title)
{
    const cJSON *mem = get(run, "memory");
    const cJSON *devs = get(mem, "devices");
    const cJSON *dev;
    size_t n = 0;

    section(d, title);
    if (!cJSON_IsObject(mem)) {
        note(d, "No memory data in this summary (profile with "
                "profile_memory=True).");
        return;
    }
    if (table_caption(d, devs, "memory devices", NULL))
        table(d, mem_peak_cols, 3, devs, (size_t)d->top, NULL);
    cJSON_ArrayForEach(dev, devs)
    {
        if (n++ == MAX_MEMORY_CHARTS || is_failed(d))
            break;
        chart_memory(d, dev);
    }
    subheading(d, "Operators by memory use", 60);
    if (table_caption(d, get(mem, "operators"), "operators", "size increase"))
        table(d, mem_op_cols, 9, get(mem, "operators"), (size_t)d->top, NULL);
}

static const struct col worker_cols[] = {
    {"Worker", "worker", K_NAME, 2},
    {"Rank", "rank", K_TEXT, 0.5},
    {"Computation", "computation_us", K_US, 1},
    {"Overlap", "overlap_us", K_US, 1},
    {"Communication", "communication_us", K_US, 1},
    {"Other", "other_us", K_US, 1},
};

static const struct col comm_cols[] = {
    {"Collective", "name", K_NAME, 2},
    {"Calls", "calls", K_INT, 0.6},
    {"Total bytes", "total_bytes", K_BYTES, 1},
    {"Total time", "total_us", K_US, 1},
    {"Mean", "mean_us", K_US, 0.9},
    {"Algorithm bw", "algbw_gbps", K_GBPS, 1},
    {"Bus bw", "busbw_gbps", K_GBPS, 1},
};

static const struct col straggler_cols[] = {
    {"Worker", "worker", K_NAME, 1},
    {"Why", "reason", K_WRAP, 3},
};

static void
sec_distributed(struct pdf *d, const cJSON *dist)
{
    struct figure f[1];

    section(d, "Distributed");
    if (!cJSON_IsObject(dist)) {
        note(d, "Not a distributed run: the summary has no distributed "
                "data.");
        return;
    }
    figure_set(&f[0], "ranks (world size)", get_num(dist, "world_size"),
               PR_UNIT_COUNT);
    figures(d, f, 1);
    chart_distributed(d, get(dist, "workers"));
    subheading(d, "Workers (per step, averaged)", 60);
    if (table_caption(d, get(dist, "workers"), "workers", NULL))
        table(d, worker_cols, 6, get(dist, "workers"), (size_t)d->top, NULL);
    subheading(d, "Collectives", 60);
    if (table_caption(d, get(dist, "comm_ops"), "collectives", "total time"))
        table(d, comm_cols, 7, get(dist, "comm_ops"), (size_t)d->top, NULL);
    subheading(d, "Stragglers", 60);
    if (table_caption(d, get(dist, "stragglers"), "stragglers", NULL))
        table(d, straggler_cols, 2, get(dist, "stragglers"), (size_t)d->top,
              NULL);
}

static uint32_t
severity_color(const char *sev)
{
    if (sev && strcmp(sev, "critical") == 0)
        return 0xD55E00u; /* vermillion */
    if (sev && strcmp(sev, "warning") == 0)
        return 0xE69F00u; /* orange */
    return C_ACCENT;
}

static void
recommendation(struct pdf *d, const cJSON *rec)
{
    const char *sev = get_str(rec, "severity");
    const char *text = get_str(rec, "text");

    ensure(d, 30);
    fill_rect(d, MARGIN_X, d->y, 3, 12, severity_color(sev));
    put(d, MARGIN_X + 8, d->y + 9, sev ? sev : "note", 8, 1,
        severity_color(sev), PR_ANCHOR_START);
    put_clipped(d, MARGIN_X + 64, d->y + 9, content_w(d) - 64,
                get_str(rec, "id") ? get_str(rec, "id") : "", 8, 0, C_MUTED);
    d->y += 14;
    paragraph(d, 8, text ? text : "", BODY_SIZE, C_TEXT);
    d->y += 4;
}

static void
sec_recommendations(struct pdf *d, const cJSON *runs)
{
    const cJSON *run, *rec;
    size_t n_runs = array_len(runs), n = 0;

    section(d, "Recommendations");
    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *recs = get(run, "recommendations");
        if (n_runs > 1)
            subheading(d, get_str(run, "worker") ? get_str(run, "worker") : "?",
                       40);
        if (!cJSON_IsArray(recs)) {
            note(d, "No recommendation data in this summary.");
            continue;
        }
        cJSON_ArrayForEach(rec, recs)
        {
            if (is_failed(d))
                return;
            recommendation(d, rec);
            n++;
        }
        if (array_len(recs) == 0)
            note(d, "Nothing to recommend: no rule fired.");
    }
    if (n_runs == 0)
        note(d, "The summary holds no runs.");
}

static const struct col diag_cols[] = {
    {"Count", "count", K_INT, 0.6},
    {"Kind", "kind", K_TEXT, 1.4},
    {"What was skipped or guessed", "text", K_WRAP, 4},
};

/* Problems in the input that were counted instead of failing the run
 * (STYLE.md "Data quality").  The key is optional: without it in any run
 * there is no section. */
static void
sec_data_quality(struct pdf *d, const cJSON *runs)
{
    const cJSON *run;
    int any = 0;

    cJSON_ArrayForEach(run, runs)
    {
        if (cJSON_IsArray(get(run, "diagnostics")))
            any = 1;
    }
    if (!any)
        return;
    section(d, "Data quality");
    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *diags = get(run, "diagnostics");
        if (is_failed(d))
            return;
        if (array_len(runs) > 1)
            subheading(d, get_str(run, "worker") ? get_str(run, "worker") : "?",
                       40);
        if (array_len(diags) == 0)
            note(d, "No problems recorded in the input.");
        else
            table(d, diag_cols, 3, diags, (size_t)d->top, NULL);
    }
}

/* ---- title page ------------------------------------------------------- */

static const struct col input_cols[] = {
    {"File", "path", K_FILE, 3},       {"Format", "format", K_TEXT, 0.8},
    {"Worker", "worker", K_TEXT, 1.2}, {"Size", "bytes", K_BYTES, 0.9},
    {"Events", "events", K_INT, 0.9},
};

static const struct col worker_dev_cols[] = {
    {"Worker", "worker", K_NAME, 1.4}, {"Span", "span", K_TEXT, 1},
    {"Rank", "rank", K_TEXT, 0.5},     {"Device", "device", K_NAME, 2.4},
    {"CC", "cc", K_TEXT, 0.5},         {"Memory", "memory", K_BYTES, 0.8},
};

/* Copy `v` (may be NULL: nothing to copy) into r[key]; 0 on failure. */
static int
add_copy(cJSON *r, const char *key, const cJSON *v)
{
    cJSON *c;

    if (v == NULL)
        return 1;
    c = cJSON_Duplicate(v, 1);
    return c != NULL && cJSON_AddItemToObject(r, key, c);
}

/* The title page's row for one device of a run (dev may be NULL). */
static cJSON *
worker_device_row(const cJSON *run, const cJSON *dev)
{
    cJSON *r = cJSON_CreateObject();
    char name[200];

    if (r == NULL)
        return NULL;
    if (dev == NULL)
        snprintf(name, sizeof(name), "%s", DASH);
    else
        snprintf(name, sizeof(name), "%.0f: %s",
                 isnan(get_num(dev, "id")) ? -1 : get_num(dev, "id"),
                 get_str(dev, "name") ? get_str(dev, "name") : "?");
    if (!add_copy(r, "worker", get(run, "worker")) ||
        !add_copy(r, "span", get(run, "span")) ||
        !add_copy(r, "rank", get(run, "rank")) ||
        !add_copy(r, "cc", get(dev, "compute_capability")) ||
        !add_copy(r, "memory", get(dev, "memory_bytes")) ||
        cJSON_AddStringToObject(r, "device", name) == NULL) {
        cJSON_Delete(r);
        return NULL;
    }
    return r;
}

/* One row per (run, device) for the title page; a run without devices
 * gets one row.  Returns an owned array, NULL on out-of-memory. */
static cJSON *
worker_device_rows(const cJSON *runs)
{
    cJSON *rows = cJSON_CreateArray();
    const cJSON *run, *dev;

    if (rows == NULL)
        return NULL;
    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *devs = get(run, "devices");
        dev = cJSON_IsArray(devs) ? devs->child : NULL;
        do {
            cJSON *r = worker_device_row(run, dev);
            if (r == NULL || !cJSON_AddItemToArray(rows, r)) {
                cJSON_Delete(r);
                cJSON_Delete(rows);
                return NULL;
            }
            dev = dev ? dev->next : NULL;
        } while (dev != NULL);
    }
    return rows;
}

/* "Label   value" lines under the title. */
static void
info_line(struct pdf *d, const char *label, const char *value)
{
    put(d, MARGIN_X, d->y + 10, label, 10, 1, C_MUTED, PR_ANCHOR_START);
    put_clipped(d, MARGIN_X + 90, d->y + 10, content_w(d) - 90, value, 10, 0,
                C_TEXT);
    d->y += 16;
}

static void
title_page(struct pdf *d, const cJSON *summary, const char *version)
{
    const cJSON *inputs = get(summary, "inputs");
    const cJSON *runs = get(summary, "runs");
    HPDF_Date t = utc_date(d->o->generated_at);
    char line[128], num[48];
    cJSON *rows;

    d->y = 150;
    put(d, MARGIN_X, d->y, "Profiling report", 30, 1, C_TEXT, PR_ANCHOR_START);
    d->y += 24;
    put(d, MARGIN_X, d->y, "PyTorch profiler traces, analysed by profreport",
        12, 0, C_MUTED, PR_ANCHOR_START);
    d->y += 16;
    hline(d, MARGIN_X, d->pw - MARGIN_X, d->y, C_ACCENT, 2);
    d->y += 20;
    snprintf(line, sizeof(line), "%04d-%02d-%02dT%02d:%02d:%02dZ", t.year,
             t.month, t.day, t.hour, t.minutes, t.seconds);
    info_line(d, "Generated", line);
    snprintf(line, sizeof(line), "profreport %s", version);
    info_line(d, "Tool", line);
    snprintf(line, sizeof(line), "%zu files", array_len(inputs));
    info_line(d, "Inputs", line);
    snprintf(line, sizeof(line), "%zu (worker, span) runs", array_len(runs));
    info_line(d, "Runs", line);
    info_line(d, "Distributed",
              cJSON_IsObject(get(summary, "distributed"))
                  ? pr_chart_format(
                        get_num(get(summary, "distributed"), "world_size"),
                        PR_UNIT_COUNT, num, sizeof(num))
                  : "no");
    d->y += 14;
    subheading(d, "Inputs", 60);
    if (table_caption(d, inputs, "input files", NULL))
        table(d, input_cols, 5, inputs, (size_t)d->top, NULL);
    subheading(d, "Workers and devices", 60);
    rows = worker_device_rows(runs);
    if (rows == NULL) {
        set_nomem(d);
        return;
    }
    if (table_caption(d, rows, "devices", NULL))
        table(d, worker_dev_cols, 6, rows, (size_t)d->top, NULL);
    cJSON_Delete(rows);
}

/* "page N of M" on every page, written once the page count is known. */
static void
footers(struct pdf *d, const char *version)
{
    char left[96], right[48];
    size_t i;

    snprintf(left, sizeof(left), "Profiling report %s profreport %s",
             "\xC2\xB7", version);
    for (i = 0; i < d->n_pages; i++) {
        pr_pdf_canvas_init(&d->pc, d->doc, d->pages[i], d->reg, d->bold, 0,
                           d->ph, d->pw, d->ph);
        snprintf(right, sizeof(right), "page %zu of %zu", i + 1, d->n_pages);
        hline(d, MARGIN_X, d->pw - MARGIN_X, d->ph - 40, C_RULE, 0.5);
        put(d, MARGIN_X, d->ph - 28, left, 7.5, 0, C_MUTED, PR_ANCHOR_START);
        put(d, d->pw - MARGIN_X, d->ph - 28, right, 7.5, 0, C_MUTED,
            PR_ANCHOR_END);
    }
}

/* ---- document --------------------------------------------------------- */

typedef void (*section_fn)(struct pdf *d, const cJSON *run, const char *title);

/* The per-run sections; with several runs they nest under a bookmark per
 * run and their titles name the worker. */
static void
run_sections(struct pdf *d, const cJSON *run, size_t n_runs)
{
    static const struct {
        const char *name;
        section_fn fn;
    } secs[] = {
        {"Overview", sec_overview}, {"Operators", sec_operators},
        {"Kernels", sec_kernels},   {"Tensor cores", sec_tensor_cores},
        {"Roofline", sec_roofline}, {"Memory", sec_memory},
    };
    const char *worker = get_str(run, "worker") ? get_str(run, "worker") : "?";
    const char *span = get_str(run, "span") ? get_str(run, "span") : "";
    char title[192];
    size_t i;

    d->parent = NULL;
    (void)new_page(d); /* each run starts a page; the title page is alone */
    if (n_runs > 1) {
        snprintf(title, sizeof(title), "%s %s", worker, span);
        d->parent = bookmark(d, NULL, title);
        if (d->parent)
            HPDF_Outline_SetOpened(d->parent, HPDF_TRUE);
    }
    for (i = 0; i < sizeof(secs) / sizeof(*secs) && !is_failed(d); i++) {
        if (n_runs > 1)
            snprintf(title, sizeof(title), "%s: %s", secs[i].name, worker);
        else
            snprintf(title, sizeof(title), "%s", secs[i].name);
        secs[i].fn(d, run, title);
    }
    d->parent = NULL;
}

static void
build(struct pdf *d, const cJSON *summary, const char *version)
{
    const cJSON *runs = get(summary, "runs");
    const cJSON *run;
    size_t n_runs = array_len(runs);

    if (new_page(d) != 0)
        return;
    (void)bookmark(d, NULL, "Title page");
    title_page(d, summary, version);
    cJSON_ArrayForEach(run, runs)
    {
        if (is_failed(d))
            return;
        run_sections(d, run, n_runs);
    }
    if (!is_failed(d))
        sec_distributed(d, get(summary, "distributed"));
    if (!is_failed(d))
        sec_recommendations(d, runs);
    if (!is_failed(d))
        sec_data_quality(d, runs);
    if (!is_failed(d))
        footers(d, version);
}

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
load_font(struct pdf *d, const char *path, HPDF_Font *out)
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

static enum pr_status
setup(struct pdf *d, const char *version)
{
    const char *font = d->o->font ? d->o->font : PR_DEFAULT_FONT;
    char *bold = NULL;
    char creator[96];
    HPDF_Date t = utc_date(d->o->generated_at);
    enum pr_status st;

    HPDF_SetCompressionMode(d->doc, HPDF_COMP_ALL);
    HPDF_UseUTFEncodings(d->doc);
    d->enc = HPDF_GetEncoder(d->doc, "UTF-8");
    HPDF_SetPageMode(d->doc, HPDF_PAGE_MODE_USE_OUTLINE);
    /* fixed dates, no encryption (hence no random /ID): the same summary
       and generated_at give byte-identical files */
    HPDF_SetInfoDateAttr(d->doc, HPDF_INFO_CREATION_DATE, t);
    HPDF_SetInfoDateAttr(d->doc, HPDF_INFO_MOD_DATE, t);
    HPDF_SetInfoAttr(d->doc, HPDF_INFO_TITLE, "Profiling report");
    snprintf(creator, sizeof(creator), "profreport %s", version);
    HPDF_SetInfoAttr(d->doc, HPDF_INFO_CREATOR, creator);
    if (is_failed(d))
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

/* Save into a temporary file beside `path`, then rename it into place; "-"
 * writes to standard output. */
static enum pr_status
save(struct pdf *d, const char *path)
{
    char *tmp = NULL;
    enum pr_status st;

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

enum pr_status
pr_pdf_render(const cJSON *summary, const struct pr_render_opts *o,
              const char *path, struct pr_error *err)
{
    struct pr_error local;
    struct pdf d;
    const char *version;
    enum pr_status st;

    if (err == NULL) {
        pr_error_clear(&local);
        err = &local;
    }
    if (!cJSON_IsObject(summary))
        return pr_error_set(err, PR_E_FORMAT, "summary is not an object");
    memset(&d, 0, sizeof(d));
    d.o = o;
    d.err = err;
    d.top = o->top > 0 ? o->top : TOP_DEFAULT;
    version =
        o->version ? o->version : get_str(get(summary, "tool"), "version");
    if (version == NULL)
        version = "?";
    d.doc = HPDF_New(on_hpdf_error, &d);
    if (d.doc == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = setup(&d, version);
    if (st == PR_OK) {
        build(&d, summary, version);
        if (is_failed(&d)) {
            st = err->code != PR_OK
                     ? err->code
                     : pr_error_set(err, PR_E_PDF, "drawing failed");
            pr_error_prefix(err, "%s: ", path);
        }
    }
    if (st == PR_OK)
        st = save(&d, path);
    HPDF_Free(d.doc);
    free(d.pages);
    return st;
}
