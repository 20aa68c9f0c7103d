/* pdf_doc.c - the page layout shared by the PDF reports (pdf_doc.h): the
 * libharu document and its error handler, fonts, the flowing cursor,
 * headings, wrapped text, tables across pages, footers and the atomic save.
 * What goes on the pages belongs to render/pdf.c and diff/report_pdf.c. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hpdf.h>
#include <zlib.h>

#include "profreport/buf.h"
#include "profreport/chart.h"
#include "profreport/clock.h"
#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/parse.h"
#include "profreport/pdf_canvas.h"
#include "profreport/pdf_doc.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"
#include "profreport/sink.h"

/* The document (opaque in pdf_doc.h, so libharu's types stay in render). */
struct pr_pdf_doc {
    HPDF_Doc doc;        /* owned: pr_pdf_doc_close() */
    HPDF_Font reg, bold; /* borrowed from doc; bold may equal reg */
    HPDF_Encoder enc;    /* borrowed: UTF-8, for bookmark titles */
    HPDF_Page *pages;    /* owned array; the pages belong to doc */
    size_t n_pages, cap_pages;
    struct pr_pdf_canvas pc; /* the whole current page, origin top-left */
    double pw, ph;           /* page size, points */
    double y;                /* next free position, points from the top */
    HPDF_Outline parent;     /* section bookmarks go here; NULL = root */
    char section[160];       /* current section title, for "continued" */
    const char *paper;       /* borrowed: "letter", else A4 */
    int64_t generated_at;    /* Unix time of the info dates */
    int top;                 /* rows per table */
    struct pr_error *err;    /* borrowed: where the first error goes */
    int failed;              /* sticky: something went wrong */
};

#define MARGIN_BOTTOM 56.0
#define MAX_COLS 12
#define TABLE_SIZE 7.5 /* font size of table cells, points */
#define TABLE_LINE 9.5 /* line height of table cells */
#define TABLE_PAD 3.0  /* vertical padding of a table row */
/* a table's caption, header and first rows stay together */
#define TABLE_KEEP (14 + 5 * (TABLE_LINE + 2 * TABLE_PAD))

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

/* libharu often reports a failed allocation as what failed next ("invalid
 * document", "invalid encoding name"): its allocator says so here, per
 * thread, as libharu's callbacks run on the thread that called it. */
static _Thread_local int hpdf_oom;

static void *HPDF_STDCALL
hpdf_alloc(HPDF_UINT size)
{
    void *p = malloc(size);

    if (p == NULL)
        hpdf_oom = 1;
    return p;
}

static void HPDF_STDCALL
hpdf_free(void *p)
{
    free(p);
}

/* libharu's error callback: record the first error and carry on; libharu
 * returns an error status from the failing call, and we check the sticky
 * flag at every section boundary (no longjmp). */
static void
on_hpdf_error(HPDF_STATUS code, HPDF_STATUS detail, void *user)
{
    struct pr_pdf_doc *d = user;
    enum pr_status st = PR_E_PDF;
    int e = errno; /* a failed write's cause: libharu keeps only ferror */

    if (d->failed)
        return; /* a later error is most often the first one's echo */
    /* a file libharu could not open for want of memory: detail is errno */
    /* zlib's deflateInit, which libharu calls for a compressed stream,
       allocates through malloc, not hpdf_alloc: its Z_MEM_ERROR comes back
       as the detail of HPDF_ZLIB_ERROR (test_nomem, allocation 151,901) */
    if (code == HPDF_FAILD_TO_ALLOC_MEM || hpdf_oom ||
        (code == HPDF_ZLIB_ERROR && (int)detail == Z_MEM_ERROR) ||
        ((code == HPDF_FILE_OPEN_ERROR || code == HPDF_FILE_IO_ERROR) &&
         detail == ENOMEM)) {
        code = HPDF_FAILD_TO_ALLOC_MEM;
        st = PR_E_NOMEM;
    } else if (code == HPDF_FILE_IO_ERROR || code == HPDF_FILE_OPEN_ERROR) {
        /* in the user's words ("No space left on device"), not libharu's
         * code: an open's detail is errno, a write's is only ferror() */
        int why = code == HPDF_FILE_OPEN_ERROR ? (int)detail : e;

        d->failed = 1;
        if (why > 0)
            pr_error_set(d->err, PR_E_IO, "%s: %s", hpdf_what(code),
                         strerror(why));
        else
            pr_error_set(d->err, PR_E_IO, "%s",
                         code == HPDF_FILE_IO_ERROR
                             ? "write failed (the file system took only "
                               "part of the PDF)"
                             : hpdf_what(code));
        return;
    }
    d->failed = 1;
    pr_error_set(d->err, st, "%s (libharu error 0x%04X, detail %u)",
                 hpdf_what(code), (unsigned)code, (unsigned)detail);
}

/* A libharu status that was returned, not raised: recorded as if the
 * callback had seen it. */
static void
hpdf_ok(struct pr_pdf_doc *d, HPDF_STATUS st)
{
    if (st != HPDF_OK)
        on_hpdf_error(st, 0, d);
}

int
pr_pdf_doc_failed(struct pr_pdf_doc *d)
{
    /* libharu's own errors came through on_hpdf_error; a canvas that
     * failed without one ran out of memory in our drawing code */
    if (d->pc.canvas.failed && !d->failed)
        pr_pdf_doc_nomem(d);
    return d->failed;
}

void
pr_pdf_doc_nomem(struct pr_pdf_doc *d)
{
    d->failed = 1;
    pr_error_set(d->err, PR_E_NOMEM, "out of memory");
}

void
pr_pdf_doc_fail(struct pr_pdf_doc *d, const struct pr_error *e)
{
    if (d->failed)
        return;
    d->failed = 1;
    pr_error_set(d->err, e->code, "%s", e->msg);
}
/* ---- row access: every getter checks the type -------------------------- */

/* ---- the old column kinds, as figure formats ------------------------- */

static enum pr_fmt
fmt_of(enum pr_pdf_kind k)
{
    static const enum pr_fmt map[] = {
        [PR_PDF_K_TEXT] = PR_FMT_TEXT,       [PR_PDF_K_NAME] = PR_FMT_NAME,
        [PR_PDF_K_INT] = PR_FMT_COUNT,       [PR_PDF_K_US] = PR_FMT_US,
        [PR_PDF_K_PCT] = PR_FMT_PCT,         [PR_PDF_K_BYTES] = PR_FMT_BYTES,
        [PR_PDF_K_FLOPS] = PR_FMT_FLOPS,     [PR_PDF_K_TFLOPS] = PR_FMT_TFLOPS,
        [PR_PDF_K_GBPS] = PR_FMT_GBPS,       [PR_PDF_K_AI] = PR_FMT_AI,
        [PR_PDF_K_NUM] = PR_FMT_NUM,         [PR_PDF_K_BOOL] = PR_FMT_BOOL,
        [PR_PDF_K_WRAP] = PR_FMT_WRAP,       [PR_PDF_K_FILE] = PR_FMT_FILE,
        [PR_PDF_K_FIGURE] = PR_FMT_FIGURE,   [PR_PDF_K_CHANGE] = PR_FMT_CHANGE,
        [PR_PDF_K_VERDICT] = PR_FMT_VERDICT,
    };

    return map[k];
}

int64_t
pr_pdf_doc_now(void)
{
    return pr_clock_generation_time();
}

/* Civil UTC date of Unix time t, computed here: the libc converters are
 * banned (STYLE.md) and this needs no time zone.  Clamped to years
 * 1970..9999, the range a PDF date holds. */
static HPDF_Date
pdf_date(int64_t t)
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
    HPDF_Date t = pdf_date(d->generated_at);

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

double
pr_pdf_doc_page_width(const struct pr_pdf_doc *d)
{
    return d->pw;
}

double
pr_pdf_doc_y(const struct pr_pdf_doc *d)
{
    return d->y;
}

void
pr_pdf_doc_set_y(struct pr_pdf_doc *d, double y)
{
    d->y = y;
}

void
pr_pdf_doc_skip(struct pr_pdf_doc *d, double dy)
{
    d->y += dy;
}

int
pr_pdf_doc_top(const struct pr_pdf_doc *d)
{
    return d->top;
}

struct pr_canvas *
pr_pdf_doc_canvas(struct pr_pdf_doc *d)
{
    return &d->pc.canvas;
}

double
pr_pdf_doc_text_width(struct pr_pdf_doc *d, const char *utf8, double size,
                      int bold)
{
    char *clean = pr_pdf_text_clean(utf8);
    double w;

    if (clean == NULL) {
        pr_pdf_doc_nomem(d);
        return 0;
    }
    pr_pdf_text_cap(clean, PR_PDF_TEXT_MAX); /* as drawn */
    w = pr_pdf_text_width(bold ? d->bold : d->reg, clean, size);
    free(clean);
    return w;
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
    (void)pr_pdf_doc_failed(d); /* the old page's canvas failure is kept */
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

/* Closing punctuation at s: UAX #14's CL, CP, IS and EX (")", "]", "}",
 * ".", ",", ";", ":", "!", "?") and a closing curly quote or guillemet.
 * No line starts with one (LB13: no break before them, even after
 * spaces). */
static int
is_close(const char *s)
{
    return (*s != '\0' && strchr(".,;:)]}!?", *s) != NULL) ||
           strncmp(s, "\xE2\x80\x9D", 3) == 0 || /* right double quote */
           strncmp(s, "\xE2\x80\x99", 3) == 0 || /* right single quote */
           strncmp(s, "\xC2\xBB", 2) == 0;       /* right guillemet */
}

/* Whether the character that ends just before byte i of s is opening
 * punctuation: UAX #14's OP ("(", "[", "{") or an opening curly quote or
 * guillemet.  No line ends with one (LB14: no break after it). */
static int
is_open_before(const char *s, size_t i)
{
    if (i >= 1 && strchr("([{", s[i - 1]) != NULL && s[i - 1] != '\0')
        return 1;
    if (i >= 3 && (strncmp(s + i - 3, "\xE2\x80\x9C", 3) == 0 ||
                   strncmp(s + i - 3, "\xE2\x80\x98", 3) == 0))
        return 1;
    return i >= 2 && strncmp(s + i - 2, "\xC2\xAB", 2) == 0;
}

/* Whether byte i of s follows the leading "-" or "--" of a word (a
 * command-line switch, "--aic-metrics", "--export=on"): the dashes start
 * the text or follow a space or opening punctuation, and a word goes on
 * after them.  A switch is one word: no line ends after its dashes (issue
 * #30: msprof_cann6's PDF broke "--" / "aic-metrics" and "msprof --" /
 * "export=on"). */
static int
after_lead_dash(const char *s, size_t i)
{
    size_t k = i;

    if (i == 0 || s[i - 1] != '-' || s[i] == ' ' || s[i] == '-')
        return 0;
    while (k > 0 && s[k - 1] == '-')
        k--;
    return k == 0 || s[k - 1] == ' ' || is_open_before(s, k) ||
           s[k - 1] == '"' || s[k - 1] == '\'';
}

/* Whether a line may end before byte i of clean text s (0 < i, s[i] not
 * NUL) at all, separator or not: never before closing punctuation (review
 * 10 #7: a sentence's final "." after a ")" does not wrap alone onto the
 * next line), never after opening punctuation, spaces between or not
 * (review 18 #8: npu_text1's "22.0 ms (" / "the bound's parts"), and never
 * right before or after a straight quote but for a space (UAX #14's QU,
 * LB19: it may open or close, so it stays with the word it touches), nor
 * after a word's leading dashes (after_lead_dash) or between them. */
int
pr_pdf_break_ok(const char *s, size_t i)
{
    size_t j = i;

    if (i == 0 || s[i] == '\0' || is_close(s + i) || after_lead_dash(s, i) ||
        (s[i] == '-' && s[i - 1] == '-'))
        return 0;
    while (j > 0 && s[j - 1] == ' ')
        j--;
    if (is_open_before(s, j))
        return 0;
    if ((s[i] == '"' || s[i] == '\'') && s[i - 1] != ' ')
        return 0;
    return !((s[i - 1] == '"' || s[i - 1] == '\'') && s[i] != ' ');
}

/* Whether a line may end before byte i of s at a separator: after a space
 * or a punctuation mark of code names ("_", "::", "/", ...) where
 * pr_pdf_break_ok allows it, never inside a number ("0.05", "1,234",
 * "-12" stay whole). */
static int
is_break_at(const char *s, size_t i)
{
    char c = s[i - 1], next = s[i];

    if (next >= '0' && next <= '9' && strchr(".,-+", c) != NULL)
        return 0;
    return strchr(" _,:;<>)/.-=+*&", c) != NULL && pr_pdf_break_ok(s, i);
}

/* A unit at s ("ms", "µs", "GB/s", ...) ending its word: a number's space
 * before it is no break (review 13 #10: hta_nccl's Verdict table had
 * "aten::view 9.4" / "ms"). */
static int
unit_follows(const char *s)
{
    static const char *const units[] = {
        "ns",      "us",   "\xC2\xB5s", "ms",    "s",    "min",  "h",
        "B",       "KB",   "kB",        "MB",    "GB",   "TB",   "KiB",
        "MiB",     "GiB",  "TiB",       "GB/s",  "MB/s", "TB/s", "GFLOP/s",
        "TFLOP/s", "FLOP", "GFLOP",     "TFLOP", "pp",   "%",    "x"};
    size_t k, n;

    for (k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
        n = strlen(units[k]);
        if (strncmp(s, units[k], n) == 0 &&
            (s[n] == '\0' || !isalnum((unsigned char)s[n])))
            return 1;
    }
    return 0;
}

/* The start of the character that ends at byte i of UTF-8 text s. */
static size_t
char_before(const char *s, size_t i)
{
    while (i > 0 && ((unsigned char)s[--i] & 0xC0) == 0x80)
        ;
    return i;
}

/* Set while a name column's cell (PR_FMT_NAME) is laid out or drawn: its
 * names share NAME_LINES lines at the widest shortening every one fits
 * (fit_group), so a name moved down whole would cost every row of the
 * column its detail (hta_timeline's "DeviceRadixSortOnesweepKernel<...,
 * false, long, int, int, int>" read "<..., int, ...>"); such cells break
 * at '_' as before. */
static _Thread_local int split_names;

static int
name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '*' ||
           c == ':';
}

/* Where a line may end instead of before byte b of s when b follows a '_'
 * or '.' inside a name with a '_' (a run of letters, digits, '_', '.', a
 * glob's '*' and a scope's ':': "num_workers", "step_trace_time.csv",
 * "*_cube_fops", "aten::cudnn_convolution") that fits in
 * a line of width w on its own: at the last break before the name, so the name
 * moves down whole (issue #30 #5: msprof_tv's PDF read "set num_" / "workers");
 * b where the name is wider than the line, or nothing before it may end a line.
 */
static size_t
keep_name(const char *s, size_t b, double w, pr_pdf_width_fn width, void *ctx)
{
    size_t k = b, e = b, j;
    double x = 0;

    if (b == 0 || (s[b - 1] != '_' && s[b - 1] != '.') || !name_char(s[b]))
        return b;
    while (k > 0 && name_char(s[k - 1]))
        k--;
    while (s[e] != '\0' && name_char(s[e]))
        e++;
    if (memchr(s + k, '_', e - k) == NULL)
        return b; /* "torch.|autocast": no '_', a '.' breaks */
    for (j = k; j < e; j++) {
        char ch[2] = {s[j], '\0'};

        x += width(ctx, ch);
        if (x > w)
            return b;
    }
    for (j = k; j > 0; j--)
        if (is_break_at(s, j))
            return j;
    return b;
}

/* Byte length of the longest prefix of clean text `s` that fits in `w`
 * (widths of one character at a time by `width`); breaks after a separator
 * when one lies in the last 70% of the line, so "aten::cudnn_convolution"
 * breaks at "_", not mid-word, and only where the name is wider than
 * a line (keep_name; in a name column's cells, split_names, where it fits
 * NAME_LINES).  Always at least one character when s is
 * not empty. */
size_t
pr_pdf_fit(const char *s, double w, pr_pdf_width_fn width, void *ctx)
{
    size_t i = 0, brk = 0, word = 0, j;
    double x = 0;

    while (s[i] != '\0') {
        size_t n = char_len(s + i);
        char ch[4] = {0};
        memcpy(ch, s + i, n);
        x += width(ctx, ch);
        if (x > w && i > 0) {
            if (brk * 10 > i * 3)
                return split_names ? brk : keep_name(s, brk, w, width, ctx);
            /* a cut inside a word follows pr_pdf_break_ok's rule too: not
               before closing punctuation, which would start the next line
               (review 11 #8: hta_timeline's Kernels table,
               "DeviceRadixSortOneswee...long" / ", float, int, int>"), nor
               after opening punctuation (review 18 #8), and the word before
               it moves down whole where it can (review 12 #5: not "...lon"
               / "g, float"), else the characters that the rule binds */
            if (pr_pdf_break_ok(s, i))
                return i;
            if (word > 0 && pr_pdf_break_ok(s, word))
                return split_names ? word : keep_name(s, word, w, width, ctx);
            if (brk > 0)
                return brk;
            for (j = char_before(s, i); j > 0; j = char_before(s, j))
                if (pr_pdf_break_ok(s, j))
                    return j;
            return i;
        }
        if (isalnum((unsigned char)s[i]) &&
            (i == 0 || !isalnum((unsigned char)s[i - 1])))
            word = i;
        i += n;
        if (s[i] != '\0' && is_break_at(s, i) &&
            !(s[i - 1] == ' ' && i >= 2 && isdigit((unsigned char)s[i - 2]) &&
              unit_follows(s + i)))
            brk = i;
    }
    return i;
}

struct font_size {
    HPDF_Font f;
    double size;
};

static double
font_width(void *ctx, const char *ch)
{
    const struct font_size *fs = ctx;

    return pr_pdf_text_width(fs->f, ch, fs->size);
}

static size_t
fit_prefix(HPDF_Font f, double size, const char *s, double w)
{
    struct font_size fs;

    fs.f = f;
    fs.size = size;
    return pr_pdf_fit(s, w, font_width, &fs);
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

/* Draw clean text `clean` clipped to `cw` points from x, an ellipsis
 * after it: the whole text is still drawn (so it stays searchable and
 * copyable). */
static void
clip_at(struct pr_pdf_doc *d, double x, double y, double cw, const char *clean,
        double size, int bold, uint32_t color)
{
    const char *ell = "\xE2\x80\xA6";

    HPDF_Page_GSave(d->pc.page);
    HPDF_Page_Rectangle(d->pc.page, (HPDF_REAL)x,
                        (HPDF_REAL)(d->ph - y - size * 0.4),
                        (HPDF_REAL)(cw > 0 ? cw : 0), (HPDF_REAL)(size * 1.6));
    HPDF_Page_Clip(d->pc.page);
    HPDF_Page_EndPath(d->pc.page);
    pr_pdf_doc_put(d, x, y, clean, size, bold, color, PR_ANCHOR_START);
    HPDF_Page_GRestore(d->pc.page);
    pr_pdf_doc_put(d, x + cw, y, ell, size, bold, color, PR_ANCHOR_START);
}

/* Draw clean text on one line within `w` points.  When it does not fit, the
 * whole text is still drawn (so it stays searchable and copyable) but
 * clipped, with an ellipsis at the end. */
void
pr_pdf_doc_clipped(struct pr_pdf_doc *d, double x, double y, double w,
                   const char *s, double size, int bold, uint32_t color)
{
    HPDF_Font f = bold ? d->bold : d->reg;
    char *clean = pr_pdf_text_clean(s); /* widths are of what is drawn */
    double ew;

    if (clean == NULL) {
        pr_pdf_doc_nomem(d);
        return;
    }
    if (pr_pdf_text_width(f, clean, size) <= w) {
        pr_pdf_doc_put(d, x, y, clean, size, bold, color, PR_ANCHOR_START);
        free(clean);
        return;
    }
    ew = pr_pdf_text_width(f, "\xE2\x80\xA6", size);
    clip_at(d, x, y, w - ew, clean, size, bold, color);
    free(clean);
}

/* The last line of a wrapped cell that does not fit: the text up to the
 * last clause end (". ", "; ", ": ") in the room left for the ellipsis,
 * when one lies past 40% of it, else the last word, then the ellipsis, so
 * a clipped cell ends between words, not inside one (review 8 #10:
 * "whose wait grows by what they save (s..."). */
static void
clip_last(struct pr_pdf_doc *d, const struct pr_pdf_textbox *b, double y,
          HPDF_Font f, const char *s)
{
    double ew = pr_pdf_text_width(f, "\xE2\x80\xA6", b->size);
    size_t n = fit_prefix(f, b->size, s, b->w - ew), i, cut = 0, word = 0;
    char *part;

    for (i = 1; i < n; i++) {
        if (s[i] != ' ')
            continue;
        word = i;
        if (strchr(".;:", s[i - 1]) != NULL && i * 10 > n * 4)
            cut = i;
    }
    cut = cut > 0 ? cut : word * 10 > n * 5 ? word : n;
    part = malloc(cut + 1);
    if (part == NULL) {
        pr_pdf_doc_nomem(d);
        return;
    }
    memcpy(part, s, cut);
    part[cut] = '\0';
    clip_at(d, b->x, y, pr_pdf_text_width(f, part, b->size) + b->size * 0.25, s,
            b->size, b->bold, b->color);
    free(part);
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
    else if (b->max_lines > 1 && !b->right)
        clip_last(d, b, y, f, s);
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

/* A bookmark under `parent` (NULL = top level) to the cursor's height on
 * the current page; NULL on failure. */
static HPDF_Outline
bookmark_under(struct pr_pdf_doc *d, HPDF_Outline parent, const char *title)
{
    char *clean = pr_pdf_text_clean(title);
    HPDF_Outline ol;
    HPDF_Destination dst;

    if (clean == NULL) {
        pr_pdf_doc_nomem(d);
        return NULL;
    }
    pr_pdf_text_cap(clean, 256); /* a bookmark is a line of a side panel */
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

void
pr_pdf_doc_bookmark(struct pr_pdf_doc *d, const char *title)
{
    (void)bookmark_under(d, NULL, title);
}

/* A section with a bookmark under d->parent.  It starts a new page unless
 * more than a third of this one is still free, so short sections share.
 * Returns the bookmark, for the parts under it. */
static HPDF_Outline
section_mark(struct pr_pdf_doc *d, const char *title)
{
    HPDF_Outline ol;

    if (d->y > PR_PDF_MARGIN_TOP && d->y + d->ph / 3 > pr_pdf_doc_bottom(d))
        (void)pr_pdf_doc_new_page(d);
    else if (d->y > PR_PDF_MARGIN_TOP)
        d->y += 18;
    if (pr_pdf_doc_failed(d))
        return NULL;
    snprintf(d->section, sizeof(d->section), "%s", title);
    ol = bookmark_under(d, d->parent, title);
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, d->y + 18, title, 18, 1, PR_PDF_C_TEXT,
                   PR_ANCHOR_START);
    d->y += 26;
    pr_pdf_doc_hline(d, PR_PDF_MARGIN_X, d->pw - PR_PDF_MARGIN_X, d->y,
                     PR_PDF_C_ACCENT, 1.5);
    d->y += 16;
    return ol;
}

void
pr_pdf_doc_section(struct pr_pdf_doc *d, const char *title)
{
    (void)section_mark(d, title);
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
is_fail(const char *s)
{
    return strcmp(s, "FAIL") == 0 || strcmp(s, "fail") == 0;
}

/* Colour of a cell's text: changes and verdicts carry their direction. */
static uint32_t
cell_color(enum pr_fmt f, const cJSON *row, const char *text)
{
    if (f == PR_FMT_CHANGE)
        return pr_fig_change_dir(row, text) > 0   ? PR_PDF_C_BAD
               : pr_fig_change_dir(row, text) < 0 ? PR_PDF_C_GOOD
                                                  : PR_PDF_C_TEXT;
    if (f == PR_FMT_VERDICT)
        return is_fail(text) ? PR_PDF_C_BAD : PR_PDF_C_GOOD;
    return PR_PDF_C_TEXT;
}

/* Lines a cell wraps on before its last is elided.  Prose gets seven: an
 * opening bracket now moves down with its word (review 18 #8), which cost
 * the sixth line of 8 cells on 5 ../shared samples ("torch." / "autocast(
 * "cuda", ..." lost "dtype=torch.bfloat16)"); with seven none is elided
 * that fix12 showed whole, and 19 cells fewer are elided. */
/* Lines a name cell holds: three, so that a kernel's name in a narrow
 * column keeps the functor that says what it computes (review 26g #7:
 * two lines read "vectorized…_kernel<4, AUnaryFunctor<…>, …>" for a
 * MulFunctor kernel). */
#define NAME_LINES 3

static int
max_lines(enum pr_fmt f)
{
    return f == PR_FMT_WRAP ? 7 : f == PR_FMT_NAME ? NAME_LINES : 1;
}

/* Lines column c's cells wrap on: a finding's evidence grows its row,
 * since the words that qualify a gain come last (review 28a #11:
 * ms_cluster4's pipeline-bubble evidence was cut at "1F1B: a step is
 * about", before what makes its 54.2 ms a lower bound). */
#define EVIDENCE_LINES 40

static int
col_max_lines(const struct pr_col *c)
{
    if (c->fmt == PR_FMT_WRAP && c->key != NULL &&
        strcmp(c->key, PR_K_EVIDENCE) == 0)
        return EVIDENCE_LINES;
    return max_lines(c->fmt);
}

/* The columns of one table and their edges: x[0] = left margin, x[n] =
 * right, from the columns' width shares. */
struct table {
    const struct pr_col *cols[MAX_COLS];
    size_t n;
    double x[MAX_COLS + 1];
    const char *depth_key;     /* a tree: first column indented by depth */
    const char *const *others; /* names the shown ones are told apart */
    size_t n_others;           /* from (the rest of a list), borrowed */
    const char *sub_key;       /* muted text after the first name cell */
    char **forms; /* forms[r * MAX_COLS + i]: the shown text of name column
                     i in shown row r (owned, clean), NULL when not yet set */
};

#define TREE_INDENT 9.0  /* points a tree level indents its first column */
#define TREE_MAX_DEPTH 8 /* deeper levels indent no further */

/* Points the first cell of `row` is indented in a tree table. */
static double
tree_indent(const struct table *t, const cJSON *row)
{
    double d = t->depth_key ? pr_sget_num(row, t->depth_key) : NAN;

    return d > 0 ? TREE_INDENT * fmin(d, TREE_MAX_DEPTH) : 0;
}

/* Width of the longest word of a header, with the cell's padding: less
 * and the header breaks inside a word ("Communica" / "tion"). */
static double
header_min(const struct pr_pdf_doc *d, const char *label)
{
    char word[64];
    double w = 0;
    size_t n;

    while (*label != '\0') {
        n = strcspn(label, " ");
        if (n > 0 && n < sizeof(word)) {
            memcpy(word, label, n);
            word[n] = '\0';
            w = fmax(w, pr_pdf_text_width(d->bold, word, TABLE_SIZE));
        }
        label += n;
        label += strspn(label, " ");
    }
    return w + 9;
}

/* Width of the widest cell of numeric column c over the first `limit`
 * rows, with the cell's padding. */
static double
numeric_min(const struct pr_pdf_doc *d, const struct pr_col *c,
            const cJSON *rows, size_t limit)
{
    const cJSON *r = cJSON_IsArray(rows) ? rows->child : rows;
    double w = 0;
    size_t k;

    for (k = 0; r != NULL && k < limit;
         r = cJSON_IsArray(rows) ? r->next : NULL, k++) {
        char buf[64], small[256], *clean;
        const char *cell = pr_fig_cell(r, c, buf, sizeof(buf));

        /* a number's cell fits on the stack: a failed allocation must
           not narrow the column (test_nomem: the PDF differed) */
        if (strlen(cell) < sizeof(small)) {
            pr_pdf_text_clean_to(cell, small);
            w = fmax(w, pr_pdf_text_width(d->reg, small, TABLE_SIZE));
            continue;
        }
        if ((clean = pr_pdf_text_clean(cell)) == NULL)
            break;
        w = fmax(w, pr_pdf_text_width(d->reg, clean, TABLE_SIZE));
        free(clean);
    }
    return w > 0 ? w + 9 : 0;
}

/* Column edges from the width shares, each column at least as wide as its
 * header's longest word: what the narrow ones lack comes from the others'
 * room above their own minimum, in proportion to it. */
static void
column_edges(const struct pr_pdf_doc *d, struct table *t, const cJSON *rows,
             size_t limit)
{
    double total = 0, need = 0, room = 0, w[MAX_COLS], lo[MAX_COLS];
    size_t i;

    for (i = 0; i < t->n; i++)
        total += t->cols[i]->width > 0 ? t->cols[i]->width : 1;
    for (i = 0; i < t->n; i++) {
        w[i] = pr_pdf_doc_width(d) *
               (t->cols[i]->width > 0 ? t->cols[i]->width : 1) / total;
        lo[i] = header_min(d, t->cols[i]->label);
        /* a number is never clipped: its column at least as wide as its
           widest cell, unit included (review 25a #14, 25u #5: "52.5 …"
           for 52.5 us, the ellipsis over the unit) */
        if (pr_col_numeric(t->cols[i]->fmt))
            lo[i] = fmax(lo[i], numeric_min(d, t->cols[i], rows, limit));
        need += fmax(0, lo[i] - w[i]);
        room += fmax(0, w[i] - lo[i]);
    }
    for (i = 0; i < t->n && need > 0 && room > need; i++)
        w[i] = w[i] < lo[i] ? lo[i] : w[i] - need * (w[i] - lo[i]) / room;
    t->x[0] = PR_PDF_MARGIN_X;
    for (i = 0; i < t->n; i++)
        t->x[i + 1] = t->x[i] + w[i];
}

/* Header cells wrap onto up to three lines, so narrow numeric columns
 * keep readable titles: each column is as wide as its header's longest
 * word (column_edges), and two lines cut a three-word title (the
 * critical-path table's "Data loader, ms" read "Data / loader, ..." on
 * hta trace_diff). */
#define HEADER_LINES 3

static void
table_header(struct pr_pdf_doc *d, const struct table *t)
{
    int lines = 1;
    double h;
    size_t i;

    for (i = 0; i < t->n; i++) {
        int n = count_lines(d->bold, TABLE_SIZE, t->cols[i]->label,
                            t->x[i + 1] - t->x[i] - 8, HEADER_LINES);
        if (n > lines)
            lines = n;
    }
    h = lines * TABLE_LINE + 2 * TABLE_PAD + 2;
    pr_pdf_doc_fill(d, PR_PDF_MARGIN_X, d->y, pr_pdf_doc_width(d), h,
                    PR_PDF_C_HEAD);
    for (i = 0; i < t->n; i++) {
        struct pr_pdf_textbox b;
        b.x = t->x[i] + 4;
        b.y = d->y + TABLE_PAD + TABLE_SIZE + 1;
        b.w = t->x[i + 1] - t->x[i] - 8;
        b.size = TABLE_SIZE;
        b.lh = TABLE_LINE;
        b.max_lines = HEADER_LINES;
        b.bold = 1;
        b.right = pr_col_numeric(t->cols[i]->fmt);
        b.color = PR_PDF_C_TEXT;
        pr_pdf_doc_wrapped(d, &b, t->cols[i]->label);
    }
    d->y += h;
}

/* Lines of clean text s in w points, up to NAME_LINES + 1: a name cell
 * holds NAME_LINES. */
static int
name_lines(struct pr_pdf_doc *d, const char *s, double w)
{
    int n;

    split_names = 1;
    n = count_lines(d->reg, TABLE_SIZE, s, w, NAME_LINES + 1);
    split_names = 0;
    return n;
}

/* The shown forms of the rows in[0..k) of a name column whose cells are
 * w points wide, among names[0..n) (the k first, the rest only to be
 * told apart from): pr_shorten_names' forms (pr_shorten_labels' for a
 * tree's labels) at the widest count of code points at which every one
 * fits two lines, found by binary search (the
 * narrowest, 8, when none does).  out[0..k) owned.  0, or -1 on
 * out-of-memory. */
static int
fit_group(struct pr_pdf_doc *d, const char **names, size_t n, size_t k,
          double w, int labels, char **out)
{
    int (*forms)(const char *const *, size_t, size_t, size_t, char **, size_t) =
        labels ? pr_shorten_labels : pr_shorten_names;
    size_t lo = 9, hi = 8, j;
    char **tmp = calloc(k, sizeof(*tmp));

    if (tmp == NULL || forms(names, n, k, 8, out, 1) != 0) {
        free(tmp);
        return -1;
    }
    for (j = 0; j < k; j++)
        if (pr_shorten_width(names[j]) > hi)
            hi = pr_shorten_width(names[j]);
    if (hi > 2048)
        hi = 2048; /* two table lines hold far fewer */
    while (lo <= hi) {
        size_t mid = lo + (hi - lo) / 2;
        int ok = 1;
        if (forms(names, n, k, mid, tmp, 1) != 0) {
            pr_shorten_free(out, k);
            free(tmp);
            return -1;
        }
        for (j = 0; j < k && ok; j++)
            ok = name_lines(d, tmp[j], w) <= NAME_LINES;
        if (ok) {
            pr_shorten_free(out, k);
            memcpy(out, tmp, k * sizeof(*tmp));
            lo = mid + 1;
        } else {
            pr_shorten_free(tmp, k);
            hi = mid - 1;
        }
    }
    free(tmp);
    return 0;
}

/* Text width of column i's cells in a row, less the row's indent. */
static double
cell_room(const struct table *t, const cJSON *row, size_t i)
{
    return t->x[i + 1] - t->x[i] - 8 - (i == 0 ? tree_indent(t, row) : 0);
}

/* The index of t's first name column (t->n when none). */
static size_t
first_name(const struct table *t)
{
    size_t i;

    for (i = 0; i < t->n && t->cols[i]->fmt != PR_FMT_NAME; i++)
        ;
    return i;
}

/* The clean text of a name cell and, when not NULL, its row's muted
 * text after two spaces (a gate's "(default)", an operator's input
 * shapes); NULL on out-of-memory. */
static char *
with_sub(const char *name, const char *sub)
{
    size_t len;
    char *both, *clean;

    if (sub == NULL)
        return pr_pdf_text_clean(name);
    len = strlen(name) + strlen(sub) + 3;
    both = malloc(len);
    if (both == NULL)
        return NULL;
    snprintf(both, len, "%s  %s", name, sub);
    clean = pr_pdf_text_clean(both);
    free(both);
    return clean;
}

/* The shown forms of name column i in rows[0..n) into t->forms (clean
 * text): a name that fits two lines of its cell stays whole; the others
 * are told apart (issue #32: two kernels never read as one) among every
 * name of the column and t->others by pr_shorten_names, in groups of
 * rows with the same room (a tree's levels), each group at the widest
 * width at which all of it fits.  0, or -1 on out-of-memory. */
static int
name_column(struct pr_pdf_doc *d, struct table *t, const cJSON **rows, size_t n,
            size_t i)
{
    size_t all = n + t->n_others, r, j, k, m;
    char **clean = calloc(n, sizeof(*clean)), **out = calloc(n, sizeof(*out));
    const char **names = calloc(all, sizeof(*names));
    unsigned char *fit = calloc(n, 1), *in = calloc(n, 1);
    size_t *who = calloc(n, sizeof(*who));
    int rc = -1;

    if (clean == NULL || out == NULL || names == NULL || fit == NULL ||
        in == NULL || who == NULL)
        goto done;
    for (r = 0; r < n; r++) {
        char buf[64];
        const char *sub = i == first_name(t) && t->sub_key != NULL
                              ? pr_sget_str(rows[r], t->sub_key)
                              : NULL;
        clean[r] =
            with_sub(pr_fig_cell(rows[r], t->cols[i], buf, sizeof(buf)), sub);
        if (clean[r] == NULL)
            goto done;
        fit[r] =
            name_lines(d, clean[r], cell_room(t, rows[r], i)) <= NAME_LINES;
        if (fit[r] && (t->forms[r * MAX_COLS + i] = strdup(clean[r])) == NULL)
            goto done;
    }
    for (r = 0; r < n; r++) {
        double w = cell_room(t, rows[r], i);
        if (t->forms[r * MAX_COLS + i] != NULL)
            continue;
        for (j = r, k = 0; j < n; j++) /* the group: as much room as r */
            if ((in[j] = !fit[j] && t->forms[j * MAX_COLS + i] == NULL &&
                         cell_room(t, rows[j], i) == w))
                names[k] = clean[j], who[k++] = j;
        for (j = 0, m = k; j < n; j++) /* the rest, to be told apart */
            if (j < r || !in[j])
                names[m++] = clean[j];
        for (j = 0; j < t->n_others; j++)
            names[m++] = t->others[j];
        if (fit_group(d, names, all, k, w, t->depth_key != NULL && i == 0,
                      out) != 0)
            goto done;
        for (j = 0; j < k; j++)
            t->forms[who[j] * MAX_COLS + i] = out[j];
        memset(in, 0, n);
    }
    rc = 0;
done:
    for (r = 0; clean != NULL && r < n; r++)
        free(clean[r]);
    free(clean);
    free(out);
    free(names);
    free(fit);
    free(in);
    free(who);
    return rc;
}

/* The clean display text of column i of shown row r (owned), or NULL on
 * out-of-memory. */
static char *
cell_clean(const struct table *t, size_t r, const cJSON *row, size_t i)
{
    char buf[64];

    if (t->cols[i]->fmt == PR_FMT_NAME && t->forms != NULL)
        return strdup(t->forms[r * MAX_COLS + i]);
    return pr_pdf_text_clean(pr_fig_cell(row, t->cols[i], buf, sizeof(buf)));
}

/* Height of shown row r: the tallest wrapped text decides. */
static double
row_height(struct pr_pdf_doc *d, size_t r, const cJSON *row,
           const struct table *t)
{
    int lines = 1;
    size_t i;

    for (i = 0; i < t->n; i++) {
        char *clean;
        int n;
        if (col_max_lines(t->cols[i]) < 2)
            continue;
        clean = cell_clean(t, r, row, i);
        if (clean == NULL) {
            pr_pdf_doc_nomem(d);
            return TABLE_LINE;
        }
        split_names = t->cols[i]->fmt == PR_FMT_NAME;
        n = count_lines(d->reg, TABLE_SIZE, clean, cell_room(t, row, i),
                        col_max_lines(t->cols[i]));
        split_names = 0;
        free(clean);
        if (n > lines)
            lines = n;
    }
    return lines * TABLE_LINE + 2 * TABLE_PAD;
}

static void
table_row(struct pr_pdf_doc *d, size_t r, const cJSON *row,
          const struct table *t)
{
    size_t i;

    for (i = 0; i < t->n; i++) {
        const struct pr_col *c = t->cols[i];
        struct pr_pdf_textbox b;
        double in = i == 0 ? tree_indent(t, row) : 0;
        char *clean = cell_clean(t, r, row, i);
        if (clean == NULL) {
            pr_pdf_doc_nomem(d);
            return;
        }
        b.x = t->x[i] + 4 + in;
        b.y = d->y + TABLE_PAD + TABLE_SIZE;
        b.w = t->x[i + 1] - b.x - 4;
        b.size = TABLE_SIZE;
        b.lh = TABLE_LINE;
        b.max_lines = col_max_lines(c);
        b.bold = c->fmt == PR_FMT_VERDICT && is_fail(clean);
        b.right = pr_col_numeric(c->fmt);
        b.color = cell_color(c->fmt, row, clean);
        split_names = c->fmt == PR_FMT_NAME;
        pr_pdf_doc_wrapped(d, &b, clean);
        split_names = 0;
        free(clean);
    }
}

/* The rows table_draw shows (objects; with `require`, where that key is
 * a number; at most `limit`) into *v (a new array, NULL when none) and
 * *n, and their name columns' forms into t->forms.  0, or -1 on
 * out-of-memory. */
static int
shown_rows(struct pr_pdf_doc *d, struct table *t, const cJSON *rows,
           size_t limit, const char *require, const cJSON ***v, size_t *n)
{
    const cJSON *row = cJSON_IsArray(rows) ? rows->child : rows;
    size_t cap = cJSON_IsArray(rows) ? (size_t)cJSON_GetArraySize(rows) : 1;
    size_t i;

    *n = 0;
    *v = NULL;
    if (cap > limit)
        cap = limit;
    if (cap == 0)
        return 0;
    if ((*v = calloc(cap, sizeof(**v))) == NULL)
        return -1;
    for (; row != NULL && *n < cap;
         row = cJSON_IsArray(rows) ? row->next : NULL)
        if (cJSON_IsObject(row) &&
            !(require && isnan(pr_sget_num(row, require))))
            (*v)[(*n)++] = row;
    if (*n == 0)
        return 0;
    t->forms = calloc(*n * MAX_COLS, sizeof(*t->forms));
    for (i = 0; i < t->n && t->forms != NULL; i++)
        if (t->cols[i]->fmt == PR_FMT_NAME &&
            name_column(d, t, *v, *n, i) != 0) {
            pr_shorten_free(t->forms, *n * MAX_COLS);
            free(t->forms);
            t->forms = NULL;
        }
    return t->forms != NULL ? 0 : -1;
}

/* Rows of `rows` (an array of objects, or one object) up to `limit`,
 * zebra-striped, with the header repeated on every page the table
 * reaches.  With `require`, only rows where that key is a number. */
static void
table_draw(struct pr_pdf_doc *d, struct table *t, const cJSON *rows,
           size_t limit, const char *require)
{
    const cJSON **v, *first = cJSON_IsArray(rows) ? rows->child : rows;
    size_t i, n;

    if (t->n == 0 || !cJSON_IsObject(first))
        return;
    column_edges(d, t, rows, limit);
    if (shown_rows(d, t, rows, limit, require, &v, &n) != 0) {
        free(v);
        pr_pdf_doc_nomem(d);
        return;
    }
    pr_pdf_doc_ensure(d, 3 * (TABLE_LINE + 2 * TABLE_PAD));
    table_header(d, t);
    for (i = 0; i < n && !pr_pdf_doc_failed(d); i++) {
        double h = row_height(d, i, v[i], t);
        if (d->y + h > pr_pdf_doc_bottom(d)) {
            char line[200];
            (void)pr_pdf_doc_new_page(d);
            snprintf(line, sizeof(line), "%s (continued)", d->section);
            pr_pdf_doc_note(d, line);
            table_header(d, t);
        }
        if (i % 2 == 1)
            pr_pdf_doc_fill(d, PR_PDF_MARGIN_X, d->y, pr_pdf_doc_width(d), h,
                            PR_PDF_C_ZEBRA);
        table_row(d, i, v[i], t);
        d->y += h;
    }
    pr_shorten_free(t->forms, n * MAX_COLS);
    free(t->forms);
    t->forms = NULL;
    free(v);
    pr_pdf_doc_hline(d, PR_PDF_MARGIN_X, d->pw - PR_PDF_MARGIN_X, d->y,
                     PR_PDF_C_RULE, 0.5);
    d->y += 14;
}

void
pr_pdf_doc_table(struct pr_pdf_doc *d, const struct pr_pdf_col *cols,
                 size_t n_cols, const cJSON *rows, size_t limit,
                 const char *require)
{
    struct pr_col c[MAX_COLS];
    struct table t;
    size_t i;

    if (n_cols > MAX_COLS)
        return;
    memset(&t, 0, sizeof(t));
    for (i = 0; i < n_cols; i++) {
        memset(&c[i], 0, sizeof(c[i]));
        c[i].key = cols[i].key;
        c[i].label = cols[i].title;
        c[i].fmt = fmt_of(cols[i].kind);
        c[i].width = cols[i].weight;
        t.cols[t.n++] = &c[i];
    }
    table_draw(d, &t, rows, limit, require);
}

void
pr_pdf_doc_col_table(struct pr_pdf_doc *d, const struct pr_col *cols,
                     size_t n_cols, const cJSON *rows,
                     const char *const *others, size_t n_others)
{
    struct table t;

    if (n_cols > MAX_COLS)
        return;
    memset(&t, 0, sizeof(t));
    t.others = others;
    t.n_others = others != NULL ? n_others : 0;
    while (t.n < n_cols) {
        t.cols[t.n] = &cols[t.n];
        t.n++;
    }
    table_draw(d, &t, rows, (size_t)-1, NULL);
}

/* The caption's end: "A, B and C: in the HTML report ..." for the labels
 * of the n columns a page leaves out. */
static void
wide_note(char *caption, size_t cap, const char *const *label, size_t n,
          int report_only)
{
    size_t i, len = strlen(caption);

    for (i = 0; i < n && len < cap; i++) {
        snprintf(caption + len, cap - len, "%s%s",
                 i == 0      ? (len > 0 ? " " : "")
                 : i + 1 < n ? ", "
                             : " and ",
                 label[i]);
        len = strlen(caption);
    }
    if (n > 0 && len < cap)
        snprintf(caption + len, cap - len, "%s",
                 report_only ? ": in the HTML report."
                             : ": in the HTML report and `profreport table`.");
}

/* t->others: the "name"s of ft->names_from, in an array (of borrowed
 * strings) the caller frees from *owned; 0, or -1 on out-of-memory
 * (recorded). */
static int
names_from(struct pr_pdf_doc *d, const struct pr_fig_table *ft, struct table *t,
           const char ***owned)
{
    size_t n = (size_t)pr_sget_len(ft->names_from), k = 0;
    const char **others;
    const cJSON *it;

    *owned = NULL;
    if (n == 0)
        return 0;
    others = calloc(n, sizeof(*others));
    if (others == NULL) {
        pr_pdf_doc_nomem(d);
        return -1;
    }
    cJSON_ArrayForEach(it, ft->names_from)
    {
        others[k++] = pr_sget_str_or(it, PR_K_NAME, "");
    }
    t->others = others;
    t->n_others = k;
    *owned = others;
    return 0;
}

void
pr_pdf_doc_fig_table(struct pr_pdf_doc *d, const struct pr_fig_table *ft)
{
    struct table t;
    const struct pr_col *c;
    size_t shown, total, k, n_left = 0;
    const char *left[8], **others;
    char caption[320];

    memset(&t, 0, sizeof(t));
    for (k = 0; t.n < MAX_COLS && (c = pr_fig_table_col(ft, k)) != NULL; k++)
        if ((c->show & PR_COL_WIDE) && n_left < 8)
            left[n_left++] = c->label; /* the page's room is the numbers' */
        else
            t.cols[t.n++] = c;
    t.depth_key = ft->depth_key;
    t.sub_key = ft->sub_key;
    if (names_from(d, ft, &t, &others) != 0)
        return;
    pr_fig_table_count(ft, (size_t)d->top, &shown, &total);
    pr_fig_table_caption(ft, (size_t)d->top, caption, sizeof(caption));
    wide_note(caption, sizeof(caption), left, n_left, ft->report_only);
    if (caption[0] != '\0') {
        pr_pdf_doc_ensure(d, TABLE_KEEP); /* the caption goes with rows */
        pr_pdf_doc_note(d, caption);
    }
    table_draw(d, &t, ft->rows, shown, ft->require);
    free(others);
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
    for (i = 0; i < d->n_pages && !pr_pdf_doc_failed(d); i++) {
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

/* ---- figures (figures.h) --------------------------------------------- */

#define KPI_H 50.0     /* height of a key-figure box */
#define PART_H 30.0    /* a part's heading with the space above it */
#define SECTION_H 60.0 /* a section heading: space, title and rule */
#define MIN_HALF 300.0 /* two charts sit side by side only this wide each */

/* A key figure's note takes up to KPI_NOTE_LINES lines (review-3
 * finding 6: "81.2% / time with any kernel running, over the s..." lost
 * "74.7 points of it HCCL tasks, compute alone 6.5%"); a row of boxes is as
 * tall as its longest note.  Three lines cut the longest notes of a box
 * a third of the page wide: nsys_before's "... compute alone 60.5%",
 * ms_cluster4's "... the export holds HCCL tasks only" and old2023's
 * "the incomplete task list: -" ended in an ellipsis; six hold them. */
#define KPI_NOTE_LINES 6
#define KPI_NOTE_LH 8.5
/* the lines a page keeps for a row of boxes at the least, as before notes
   could take more than three: a block whose notes fit in three moves to
   the next page exactly where it did */
#define KPI_KEEP_LINES 3

/* Lines the longest note of boxes [from, to) takes in width w. */
static int
kpi_note_lines(struct pr_pdf_doc *d, const struct pr_block *b, size_t from,
               size_t to, double w)
{
    int most = 1;
    size_t i;

    for (i = from; i < to && i < b->n; i++) {
        char *clean;
        int n;

        if ((clean = pr_pdf_text_clean(b->kpis[i].sub)) == NULL) {
            pr_pdf_doc_nomem(d);
            return most;
        }
        n = count_lines(d->reg, 7, clean, w, KPI_NOTE_LINES);
        most = n > most ? n : most;
        free(clean);
    }
    return most;
}

/* Boxes a row of a block holds: rows of at most four, as even as they
 * go. */
static size_t
kpis_per_row(const struct pr_block *b)
{
    size_t rows = (b->n + 3) / 4;

    return rows ? (b->n + rows - 1) / rows : 1;
}

/* Points a block of key figures takes: each row as tall as its longest
 * note, at least KPI_KEEP_LINES of it. */
static double
kpis_height(struct pr_pdf_doc *d, const struct pr_block *b)
{
    size_t per = kpis_per_row(b), i;
    double w = pr_pdf_doc_width(d) / (double)per, h = 8;

    for (i = 0; i < b->n; i += per) {
        int lines = kpi_note_lines(d, b, i, i + per, w - 20);

        h += KPI_H +
             ((lines > KPI_KEEP_LINES ? lines : KPI_KEEP_LINES) - 1) *
                 KPI_NOTE_LH +
             8;
    }
    return h;
}

/* Rows of at most four boxes, each with a label, one big number and a
 * note; `keep` more points stay on the page with them. */
static void
kpis(struct pr_pdf_doc *d, const struct pr_block *b, double keep)
{
    size_t per = kpis_per_row(b);
    double w = pr_pdf_doc_width(d) / (double)per, h = KPI_H;
    size_t i;

    pr_pdf_doc_ensure(d, kpis_height(d, b) + keep);
    for (i = 0; i < b->n; i++) {
        const struct pr_kpi *k = &b->kpis[i];
        double x = PR_PDF_MARGIN_X + w * (double)(i % per);
        struct pr_pdf_textbox tb;
        char *clean;

        if (i % per == 0) {
            if (i > 0)
                d->y += h + 8;
            h = KPI_H +
                (kpi_note_lines(d, b, i, i + per, w - 20) - 1) * KPI_NOTE_LH;
        }
        pr_pdf_doc_fill(d, x + 2, d->y, w - 4, h, PR_PDF_C_ZEBRA);
        pr_pdf_doc_fill(d, x + 2, d->y, 3, h, PR_PDF_C_ACCENT);
        pr_pdf_doc_clipped(d, x + 12, d->y + 12, w - 20, k->label, 7.5, 0,
                           PR_PDF_C_MUTED);
        pr_pdf_doc_clipped(d, x + 12, d->y + 30, w - 20, k->value, 15, 1,
                           k->na ? PR_PDF_C_MUTED : PR_PDF_C_TEXT);
        if ((clean = pr_pdf_text_clean(k->sub)) == NULL) {
            pr_pdf_doc_nomem(d);
            return;
        }
        tb = (struct pr_pdf_textbox){.x = x + 12,
                                     .y = d->y + 43,
                                     .w = w - 20,
                                     .size = 7,
                                     .lh = KPI_NOTE_LH,
                                     .max_lines = KPI_NOTE_LINES,
                                     .color = PR_PDF_C_MUTED};
        pr_pdf_doc_wrapped(d, &tb, clean);
        free(clean);
    }
    d->y += h + 16;
}

static void
chart_in(struct pr_pdf_doc *d, const struct pr_fig_chart *ch,
         const struct pr_chart_box *b)
{
    ch->draw(&d->pc.canvas, b, ch->spec);
}

/* One chart across the text width, or two side by side when each gets
 * MIN_HALF points (else one under the other). */
static void
charts(struct pr_pdf_doc *d, const struct pr_block *b)
{
    struct pr_chart_box l, r;
    double gap = 12, h;

    if (b->n == 2 && (pr_pdf_doc_width(d) - gap) / 2 >= MIN_HALF) {
        h = fmax(b->charts[0]->pdf_h, b->charts[1]->pdf_h);
        l = pr_pdf_doc_chart_box(d, h);
        l.w = (l.w - gap) / 2;
        r = l;
        r.x = l.x + l.w + gap;
        chart_in(d, b->charts[0], &l);
        chart_in(d, b->charts[1], &r);
        return;
    }
    for (size_t i = 0; i < b->n; i++) {
        l = pr_pdf_doc_chart_box(d, b->charts[i]->pdf_h);
        chart_in(d, b->charts[i], &l);
    }
}

static uint32_t
severity_color(const char *sev)
{
    if (sev && strcmp(sev, "critical") == 0)
        return 0xD55E00u; /* vermillion */
    if (sev && strcmp(sev, "warning") == 0)
        return 0xE69F00u; /* orange */
    return PR_PDF_C_ACCENT;
}

/* Callouts: a coloured mark and the severity, the code muted beside it,
 * the title and text as a paragraph under them. */
static void
items(struct pr_pdf_doc *d, const cJSON *arr)
{
    const cJSON *it;
    char *text;

    cJSON_ArrayForEach(it, arr)
    {
        const char *sev = pr_sget_str_or(it, "sev", "info");
        const char *title = pr_sget_str_or(it, PR_K_TITLE, "");
        const char *body = pr_sget_str_or(it, PR_K_TEXT, "");
        if (pr_pdf_doc_failed(d))
            return;
        pr_pdf_doc_ensure(d, 30);
        pr_pdf_doc_fill(d, PR_PDF_MARGIN_X, d->y, 3, 12, severity_color(sev));
        pr_pdf_doc_put(d, PR_PDF_MARGIN_X + 8, d->y + 9, sev, 8, 1,
                       severity_color(sev), PR_ANCHOR_START);
        pr_pdf_doc_clipped(
            d, PR_PDF_MARGIN_X + 64, d->y + 9, pr_pdf_doc_width(d) - 64,
            pr_sget_str_or(it, "code", ""), 8, 0, PR_PDF_C_MUTED);
        d->y += 14;
        text = malloc(strlen(title) + strlen(body) + 2);
        if (text == NULL) {
            pr_pdf_doc_nomem(d);
            return;
        }
        snprintf(text, strlen(title) + strlen(body) + 2, "%s%s%s", title,
                 title[0] ? " " : "", body);
        pr_pdf_doc_paragraph(d, 8, text, PR_PDF_BODY_SIZE, PR_PDF_C_TEXT);
        free(text);
        d->y += 4;
    }
}

/* Points paragraph `utf8` takes at `size` (pr_pdf_doc_paragraph's lines
 * and gap), at most `cap` points. */
static double
paragraph_h(struct pr_pdf_doc *d, const char *utf8, double size, double cap)
{
    char *clean = pr_pdf_text_clean(utf8);
    int max = (int)(cap / (size * 1.45)) + 1, lines;

    if (clean == NULL)
        return 22; /* pr_pdf_doc_paragraph reports the failure */
    lines = count_lines(d->reg, size, clean, pr_pdf_doc_width(d), max);
    free(clean);
    return fmin(cap, lines * size * 1.45 + size * 0.5);
}

/* Points the blocks from i on need to start on this page: a heading or
 * a short text goes with what follows it, so no heading ends a page (a
 * text by its measured height, up to 120 points: review 8 #10 found the
 * Critical path heading and its four-line intro alone at a page's foot).
 * Each figure must not ask for less than the block itself ensures, or
 * the heading stays behind when the block moves on. */
static double
keep_from(struct pr_pdf_doc *d, const struct pr_part *p, size_t i)
{
    const struct pr_block *b = i < p->n_blocks ? &p->blocks[i] : NULL;

    if (b == NULL)
        return 20;
    switch (b->kind) {
    case PR_BLOCK_CHARTS:
        return b->charts[0]->pdf_h + 12;
    case PR_BLOCK_TABLE:
        return TABLE_KEEP;
    case PR_BLOCK_ITEMS:
        return 40;
    case PR_BLOCK_KPIS:
        /* kpis() keeps a chart after them on the page too */
        return kpis_height(d, b) +
               (i + 1 < p->n_blocks && p->blocks[i + 1].kind == PR_BLOCK_CHARTS
                    ? keep_from(d, p, i + 1)
                    : 0);
    case PR_BLOCK_TEXT:
    case PR_BLOCK_NOTE:
        return paragraph_h(d, b->text,
                           PR_PDF_BODY_SIZE +
                               (b->kind == PR_BLOCK_TEXT ? 0.5 : 0),
                           120) +
               keep_from(d, p, i + 1);
    default: /* heading */
        return 22 + keep_from(d, p, i + 1);
    }
}

/* Points a section's first part needs below the section heading: its
 * heading and first block, and where it is only prose (a lede before
 * the per-rank parts) the next part's heading and first block too, so
 * no lede ends a page alone (review 8 #10: Critical path, npu_text1). */
static double
first_keep(struct pr_pdf_doc *d, const struct pr_figs *f)
{
    const struct pr_part *p = &f->parts[0];
    double h = (p->label[0] != '\0' ? PART_H : 0) + keep_from(d, p, 0);
    size_t i;

    for (i = 0; i < p->n_blocks; i++) {
        if (p->blocks[i].kind != PR_BLOCK_TEXT &&
            p->blocks[i].kind != PR_BLOCK_NOTE &&
            p->blocks[i].kind != PR_BLOCK_HEADING)
            return h;
    }
    if (f->n_parts < 2)
        return h;
    return h - keep_from(d, p, p->n_blocks) +
           (f->parts[1].label[0] != '\0' ? PART_H : 0) +
           keep_from(d, &f->parts[1], 0);
}

static void
block(struct pr_pdf_doc *d, const struct pr_part *p, size_t i)
{
    const struct pr_block *b = &p->blocks[i];
    const struct pr_block *next = i + 1 < p->n_blocks ? b + 1 : NULL;

    switch (b->kind) {
    case PR_BLOCK_HEADING:
        pr_pdf_doc_subheading(d, b->text, keep_from(d, p, i + 1));
        break;
    case PR_BLOCK_NOTE:
        pr_pdf_doc_paragraph(d, 0, b->text, PR_PDF_BODY_SIZE, PR_PDF_C_MUTED);
        break;
    case PR_BLOCK_TEXT:
        pr_pdf_doc_paragraph(d, 0, b->text, PR_PDF_BODY_SIZE + 0.5,
                             PR_PDF_C_TEXT);
        break;
    case PR_BLOCK_KPIS:
        kpis(d, b,
             next && next->kind == PR_BLOCK_CHARTS ? keep_from(d, p, i + 1)
                                                   : 0);
        break;
    case PR_BLOCK_CHARTS:
        charts(d, b);
        break;
    case PR_BLOCK_TABLE:
        pr_pdf_doc_fig_table(d, &b->table);
        break;
    case PR_BLOCK_ITEMS:
        items(d, b->own);
        break;
    }
}

/* A part's own heading: its label in bold with the sub muted beside it,
 * and a bookmark under the section's. */
static void
part_heading(struct pr_pdf_doc *d, const struct pr_part *p, HPDF_Outline ol)
{
    char line[sizeof(p->label) + sizeof(p->sub) + 8];

    pr_pdf_doc_ensure(d, PART_H + keep_from(d, p, 0));
    d->y += 6;
    (void)bookmark_under(d, ol, p->label);
    snprintf(line, sizeof(line), "%s%s%s", p->label,
             p->sub[0] ? "  \xC2\xB7  " : "", p->sub);
    pr_pdf_doc_clipped(d, PR_PDF_MARGIN_X, d->y + 12, pr_pdf_doc_width(d), line,
                       12.5, 1, PR_PDF_C_TEXT);
    d->y += 22;
}

void
pr_pdf_doc_figs(struct pr_pdf_doc *d, const char *title,
                const struct pr_figs *f)
{
    HPDF_Outline ol;
    size_t p, i;

    if (f->failed) {
        pr_pdf_doc_nomem(d);
        return;
    }
    /* the section heading goes with its first part's heading and block */
    if (f->n_parts > 0)
        pr_pdf_doc_ensure(d, SECTION_H + first_keep(d, f));
    ol = section_mark(d, title);
    for (p = 0; p < f->n_parts && !pr_pdf_doc_failed(d); p++) {
        const struct pr_part *part = &f->parts[p];
        if (part->label[0] != '\0')
            part_heading(d, part, ol);
        for (i = 0; i < part->n_blocks && !pr_pdf_doc_failed(d); i++)
            block(d, part, i);
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

/* libharu 2.3 writes a TrueType font's ToUnicode map as a copy of its
 * UTF-8 encoder CMap (a "begincidrange" of CIDs), which is no ToUnicode
 * map: poppler warns "Invalid 'begincidrange' operator" and text
 * extraction has to guess.  Our fonts use Identity-H with the Unicode code
 * point as the CID, so the right map is the identity on the Basic
 * Multilingual Plane: rewrite the stream with bfrange lines (one per 256
 * codes, at most 100 per block as the CMap format wants, surrogates left
 * out).  Returns 0 when the font has no such stream to fix. */
static int
fix_to_unicode(HPDF_Font font)
{
    HPDF_Dict cmap = HPDF_Dict_GetItem(font, "ToUnicode", HPDF_OCLASS_DICT);
    unsigned char rows[256];
    char line[64];
    size_t n = 0, i;
    unsigned hi;

    if (cmap == NULL || cmap->stream == NULL)
        return 0;
    for (hi = 0; hi < 256; hi++)
        if (hi < 0xD8 || hi > 0xDF) /* UTF-16 surrogates are no characters */
            rows[n++] = (unsigned char)hi;
    HPDF_MemStream_FreeData(cmap->stream);
    HPDF_Dict_RemoveElement(cmap, "Type");
    HPDF_Dict_RemoveElement(cmap, "CMapName");
    HPDF_Dict_RemoveElement(cmap, "CIDSystemInfo");
    HPDF_Dict_RemoveElement(cmap, "WMode");
    HPDF_Stream_WriteStr(
        cmap->stream,
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 "
        ">> def\n/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n");
    for (i = 0; i < n; i++) {
        if (i % 100 == 0) {
            snprintf(line, sizeof(line), "%zu beginbfrange\n",
                     n - i < 100 ? n - i : (size_t)100);
            HPDF_Stream_WriteStr(cmap->stream, line);
        }
        snprintf(line, sizeof(line), "<%02X00> <%02XFF> <%02X00>\n", rows[i],
                 rows[i], rows[i]);
        HPDF_Stream_WriteStr(cmap->stream, line);
        if (i % 100 == 99 || i + 1 == n)
            HPDF_Stream_WriteStr(cmap->stream, "endbfrange\n");
    }
    HPDF_Stream_WriteStr(cmap->stream,
                         "endcmap\nCMapName currentdict /CMap defineresource "
                         "pop\nend\nend\n");
    return 1;
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
    (void)fix_to_unicode(*out);
    return PR_OK;
}

/* pr_pdf_doc_open() on a zeroed document. */
static enum pr_status
doc_setup(struct pr_pdf_doc *d, const struct pr_pdf_setup *s,
          struct pr_error *err)
{
    const char *font = s->font ? s->font : PR_DEFAULT_FONT;
    char *bold = NULL;
    char creator[96];
    HPDF_Date t = pdf_date(s->generated_at);
    enum pr_status st;

    d->err = err;
    d->paper = s->paper;
    d->generated_at = s->generated_at;
    d->top = s->top > 0 ? s->top : PR_PDF_TOP_DEFAULT;
    hpdf_oom = 0;
    d->doc = HPDF_NewEx(on_hpdf_error, hpdf_alloc, hpdf_free, 0, d);
    if (d->doc == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");

    /* some of libharu's calls return their error without raising it, and
     * the next call then raises "invalid document": keep the first */
    hpdf_ok(d, HPDF_SetCompressionMode(d->doc, HPDF_COMP_ALL));
    hpdf_ok(d, HPDF_UseUTFEncodings(d->doc));
    d->enc = HPDF_GetEncoder(d->doc, "UTF-8");
    hpdf_ok(d, HPDF_SetPageMode(d->doc, HPDF_PAGE_MODE_USE_OUTLINE));
    /* fixed dates, no encryption (hence no random /ID): the same input
       and generated_at give byte-identical files */
    hpdf_ok(d, HPDF_SetInfoDateAttr(d->doc, HPDF_INFO_CREATION_DATE, t));
    hpdf_ok(d, HPDF_SetInfoDateAttr(d->doc, HPDF_INFO_MOD_DATE, t));
    hpdf_ok(d, HPDF_SetInfoAttr(d->doc, HPDF_INFO_TITLE, s->title));
    snprintf(creator, sizeof(creator), "profreport %s", s->version);
    hpdf_ok(d, HPDF_SetInfoAttr(d->doc, HPDF_INFO_CREATOR, creator));
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

enum pr_status
pr_pdf_doc_open(struct pr_pdf_doc **out, const struct pr_pdf_setup *s,
                struct pr_error *err)
{
    *out = calloc(1, sizeof(**out));
    if (*out == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return doc_setup(*out, s, err);
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
    if (d == NULL)
        return;
    if (d->doc != NULL)
        HPDF_Free(d->doc);
    free(d->pages);
    free(d);
}
