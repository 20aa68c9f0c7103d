/* report_pdf.c - the diff and the trend as PDF documents: a title page
 * with the verdict, then the sections of their HTML pages (figs.c: gates,
 * noise tests, breakdown, waterfall and step charts, top changes, nights
 * and crossings) laid out by the main report's PDF layout
 * (pr_pdf_doc_figs), so the reports share their tables, charts and
 * numbers. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/pdf_doc.h"
#include "profreport/sget.h"

#define TITLE "Regression comparison"

/* ---- title and verdict ------------------------------------------------ */

#define C_INCONCLUSIVE 0xB54708u /* amber: nothing was compared */

static void
badge(struct pr_pdf_doc *d, double x, double y, const char *text,
      uint32_t color)
{
    double w = pr_pdf_doc_text_width(d, text, 11, 1) + 16;

    pr_pdf_doc_fill(d, x, y - 14, w, 20, color);
    pr_pdf_doc_put(d, x + 8, y, text, 11, 1, 0xFFFFFFu, PR_ANCHOR_START);
}

/* "file.json (runs: 1, steps: 8)" for one side of the comparison. */
static void
side_line(struct pr_pdf_doc *d, const char *label, const cJSON *side)
{
    const char *name = pr_sget_str(side, PR_K_LABEL);
    char line[300], x[80];

    /* the info line cleans the text for the font */
    pr_dside_text(side, x, sizeof(x));
    snprintf(line, sizeof(line), "%s (%s)", name ? name : "", x);
    pr_pdf_doc_info_line(d, label, line);
}

static void
diff_title(struct pr_pdf_doc *d, const cJSON *diff, const char *version)
{
    struct pr_dverdict v;
    char line[200], when[32];
    char word[32];

    pr_pdf_doc_bookmark(d, "Verdict");
    pr_pdf_doc_set_y(d, 110);
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, 110, TITLE, 26, 1, PR_PDF_C_TEXT,
                   PR_ANCHOR_START);
    pr_dverdict(diff, &v);
    snprintf(word, sizeof(word), "%s",
             pr_sget_is(v.cls, "pass") ? "NO REGRESSION" : v.word);
    badge(d, PR_PDF_MARGIN_X + pr_pdf_doc_text_width(d, TITLE, 26, 1) + 14,
          110 - 4, word,
          pr_sget_is(v.cls, "fail")   ? PR_PDF_C_BAD
          : pr_sget_is(v.cls, "pass") ? PR_PDF_C_GOOD
                                      : C_INCONCLUSIVE);
    pr_pdf_doc_skip(d, 22);
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, pr_pdf_doc_y(d),
                   pr_dno_steps(diff)
                       ? "Two profiling runs without steps compared per call "
                         "by profreport"
                       : "Two profiling runs compared step by step by "
                         "profreport",
                   12, 0, PR_PDF_C_MUTED, PR_ANCHOR_START);
    pr_pdf_doc_skip(d, 14);
    pr_pdf_doc_hline(d, PR_PDF_MARGIN_X,
                     pr_pdf_doc_page_width(d) - PR_PDF_MARGIN_X,
                     pr_pdf_doc_y(d), PR_PDF_C_ACCENT, 2);
    pr_pdf_doc_skip(d, 16);
    side_line(d, "Baseline", pr_sget(diff, "baseline"));
    side_line(d, "Current", pr_sget(diff, "current"));
    /* a partial comparison on a line of its own: the page's one line
       would cut it */
    pr_pdf_doc_info_line(d, "Gates", v.partial ? v.bare : v.counts);
    if (v.partial)
        pr_pdf_doc_info_line(d, "Runs", v.runs);
    snprintf(line, sizeof(line), "%s, profreport %s",
             pr_pdf_doc_iso_date(d, when, sizeof(when)), version);
    pr_pdf_doc_info_line(d, "Generated", line);
}

/* ---- documents -------------------------------------------------------- */

/* A section of figs.c laid out as the main report's sections are. */
static void
each_section(void *ctx, const char *id, const char *title,
             const struct pr_figs *f)
{
    (void)id;
    if (!pr_pdf_doc_failed(ctx))
        pr_pdf_doc_figs(ctx, title, f);
}

static void
diff_build(struct pr_pdf_doc *d, const cJSON *diff, size_t top)
{
    if (pr_pdf_doc_new_page(d) != 0)
        return;
    diff_title(d, diff, PACKAGE_VERSION);
    pr_pdf_doc_skip(d, 10);
    pr_dfigs_diff(diff, top, each_section, d);
    if (!pr_pdf_doc_failed(d))
        pr_pdf_doc_footers(d, TITLE, PACKAGE_VERSION);
}

/* Open, build with `fn`, save, close. */
static enum pr_status
write_pdf(const char *title, const char *path,
          void (*fn)(struct pr_pdf_doc *, const cJSON *, size_t),
          const cJSON *tree, size_t top, struct pr_error *err)
{
    struct pr_pdf_doc *d = NULL;
    struct pr_pdf_setup s;
    enum pr_status st;

    memset(&s, 0, sizeof(s));
    s.title = title;
    s.version = PACKAGE_VERSION;
    s.generated_at = pr_pdf_doc_now();
    s.top = top > 0 && top < 100000 ? (int)top : 0;
    st = pr_pdf_doc_open(&d, &s, err);
    if (st == PR_OK) {
        fn(d, tree, top);
        st = pr_pdf_doc_save(d, path);
    }
    pr_pdf_doc_close(d);
    return st;
}

enum pr_status
pr_diff_pdf(const cJSON *diff, size_t top, const char *path,
            struct pr_error *err)
{
    if (!cJSON_IsObject(diff))
        return pr_error_set(err, PR_E_FORMAT, "diff is not an object");
    return write_pdf(TITLE, path, diff_build, diff, top, err);
}

/* ---- trend ------------------------------------------------------------ */

static void
trend_build(struct pr_pdf_doc *d, const cJSON *t, size_t top)
{
    (void)top;
    if (pr_pdf_doc_new_page(d) != 0)
        return;
    pr_dfigs_trend(t, each_section, d);
    if (!pr_pdf_doc_failed(d))
        pr_pdf_doc_footers(d, "Nightly trend", PACKAGE_VERSION);
}

enum pr_status
pr_trend_pdf(const cJSON *trend, const char *path, struct pr_error *err)
{
    if (!cJSON_IsObject(trend))
        return pr_error_set(err, PR_E_FORMAT, "trend is not an object");
    return write_pdf("Nightly trend", path, trend_build, trend, 0, err);
}
