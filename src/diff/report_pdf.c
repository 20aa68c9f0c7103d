/* report_pdf.c - the diff and the trend as PDF documents: the same content
 * as their HTML pages (verdict, gates, noise tests, breakdown, waterfall
 * and step charts, top changes, nights and crossings), laid out by the
 * shared page module pdf_doc.c and drawn through the PDF canvas.  Numbers
 * are formatted by common.c exactly as in the other diff reports. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/pdf_doc.h"
#include "profreport/sget.h"

#define HALF_GAP 12.0 /* points between two charts side by side */
#define TITLE "Regression comparison"

/* ---- small helpers ---------------------------------------------------- */

/* The table, its names told apart from the rest of its list too (the
 * names the Markdown and HTML tell them apart from: pr_dnames). */
static void
others_table(struct pr_pdf_doc *d, const struct pr_dtable *t)
{
    size_t n = (size_t)pr_sget_len(t->names_from), k = 0;
    const char **others = n ? calloc(n, sizeof(*others)) : NULL;
    const cJSON *it;

    if (n > 0 && others == NULL) {
        pr_pdf_doc_nomem(d);
        return;
    }
    cJSON_ArrayForEach(it, t->names_from)
    {
        others[k++] = pr_sget_str_or(it, "name", "");
    }
    pr_pdf_doc_col_table(d, t->cols, t->n_cols, t->rows, others, k);
    free(others);
}

/* Lay out a table whose build returned `built` (tables.c), "None." when
 * it has no rows, then free it.  A row's muted text follows its name
 * cell. */
static void
pdf_table(struct pr_pdf_doc *d, struct pr_dtable *t, int built)
{
    const char *k0 = t->n_cols > 0 ? t->cols[pr_dtable_sub_col(t)].key : "";
    cJSON *row;
    char cell[700];

    if (built != 0) {
        pr_pdf_doc_nomem(d);
        pr_dtable_free(t);
        return;
    }
    cJSON_ArrayForEach(row, t->rows)
    {
        const char *sub = pr_sget_str(row, PR_DTABLE_SUB);
        if (sub == NULL)
            continue;
        snprintf(cell, sizeof(cell), "%s  %s", pr_sget_str_or(row, k0, ""),
                 sub);
        cJSON *s = cJSON_CreateString(cell);

        if (!pr_sput(row, k0, s)) {
            cJSON_Delete(s);
            pr_pdf_doc_nomem(d);
        }
    }
    if (pr_sget_len(t->rows) == 0)
        pr_pdf_doc_note(d, "None.");
    else if (!pr_pdf_doc_failed(d))
        others_table(d, t);
    pr_dtable_free(t);
}

/* The box of `h` points at the cursor, split into two side by side. */
static void
two_boxes(struct pr_pdf_doc *d, double h, struct pr_chart_box *l,
          struct pr_chart_box *r)
{
    struct pr_chart_box b = pr_pdf_doc_chart_box(d, h);

    *l = b;
    l->w = (b.w - HALF_GAP) / 2;
    *r = *l;
    r->x = b.x + l->w + HALF_GAP;
}

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
    const char *name = pr_sget_str(side, "label");
    char line[300];

    /* the info line cleans the text for the font */
    snprintf(line, sizeof(line), "%s (runs: %.0f, steps: %.0f)",
             name ? name : "", pr_sget_num(side, "runs"),
             pr_sget_num(side, "steps"));
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
                   "Two profiling runs compared step by step by profreport", 12,
                   0, PR_PDF_C_MUTED, PR_ANCHOR_START);
    pr_pdf_doc_skip(d, 14);
    pr_pdf_doc_hline(d, PR_PDF_MARGIN_X,
                     pr_pdf_doc_page_width(d) - PR_PDF_MARGIN_X,
                     pr_pdf_doc_y(d), PR_PDF_C_ACCENT, 2);
    pr_pdf_doc_skip(d, 16);
    side_line(d, "Baseline", pr_sget(diff, "baseline"));
    side_line(d, "Current", pr_sget(diff, "current"));
    pr_pdf_doc_info_line(d, "Gates", v.counts);
    snprintf(line, sizeof(line), "%s, profreport %s",
             pr_pdf_doc_iso_date(d, when, sizeof(when)), version);
    pr_pdf_doc_info_line(d, "Generated", line);
}

/* ---- gates ------------------------------------------------------------ */

static void
gates_section(struct pr_pdf_doc *d, const cJSON *diff)
{
    struct pr_dtable t;

    pr_pdf_doc_section(d, "Gates");
    pdf_table(d, &t, pr_dtable_gates(&t, diff));
}

/* ---- one pair of runs ------------------------------------------------- */

/* The pair's charts (pair_figs.c): the mean breakdown beside step time
 * per step, the waterfall under them. */
static void
pair_charts(struct pr_pdf_doc *d, const cJSON *pair)
{
    struct pr_dpair_figs f;
    struct pr_chart_box l, r;

    if (pr_dpair_figs(&f, pair) != 0) {
        pr_pdf_doc_nomem(d);
    } else {
        two_boxes(d, 250, &l, &r);
        pr_chart_stacked_bars(pr_pdf_doc_canvas(d), &l, &f.stacked);
        pr_chart_line(pr_pdf_doc_canvas(d), &r, &f.steps);
        l = pr_pdf_doc_chart_box(d, 270);
        pr_dwaterfall(pr_pdf_doc_canvas(d), &l, &f.waterfall);
    }
    pr_dpair_figs_free(&f);
}

static void
runs_section(struct pr_pdf_doc *d, const cJSON *diff)
{
    const cJSON *pair;
    struct pr_dtable t;
    char title[300];

    pr_pdf_doc_section(d, "Step time");
    cJSON_ArrayForEach(pair, pr_sget(diff, "runs"))
    {
        if (pr_pdf_doc_failed(d))
            return;
        snprintf(
            title, sizeof(title), "Run %s vs %s (per step)",
            pr_sget_str(pair, "baseline") ? pr_sget_str(pair, "baseline") : "?",
            pr_sget_str(pair, "current") ? pr_sget_str(pair, "current") : "?");
        pr_pdf_doc_subheading(d, title, 250);
        pair_charts(d, pair);
        pdf_table(d, &t, pr_dtable_figures(&t, pair));
    }
}

/* ---- operators and kernels -------------------------------------------- */

static void
tables_section(struct pr_pdf_doc *d, const cJSON *diff, size_t top)
{
    struct pr_dtable tab;
    char note[160];
    size_t t, k;

    for (t = 0; t < PR_N_DCHANGES && !pr_pdf_doc_failed(d); t++) {
        const struct pr_dchange *c = &pr_dchanges[t];
        if (!pr_dchange_shown(c, diff))
            continue;
        pr_pdf_doc_section(d, c->title);
        snprintf(note, sizeof(note), "%c%s, matched by %s.",
                 toupper((unsigned char)c->measure[0]), c->measure + 1,
                 c->matched);
        pr_pdf_doc_note(d, note);
        for (k = 0; k < PR_N_DKINDS; k++) {
            pr_pdf_doc_subheading(d, pr_dkinds[k].title, 60);
            pdf_table(d, &tab,
                      pr_dtable_changes(&tab, pr_sget(diff, c->key),
                                        pr_dkinds[k].want, top));
        }
    }
}

/* ---- method ----------------------------------------------------------- */

/* Runs that paired with none, under the title as in the Markdown and HTML
 * reports: a vanished rank must not go unseen.  A job that lost many ranks
 * gets the first UNMATCHED_SHOWN a side named and a count of the rest. */
#define UNMATCHED_SHOWN 20

static void
unmatched_note(void *ctx, const struct pr_dunmatched *u)
{
    struct pr_pdf_doc *d = ctx;
    char line[600];

    if (u->index < UNMATCHED_SHOWN) {
        snprintf(line, sizeof(line), "%s %s run %s %s; not compared.", u->lead,
                 u->side_name, u->run, u->what);
        pr_pdf_doc_paragraph(d, 0, line, PR_PDF_BODY_SIZE,
                             u->side == 0 ? PR_PDF_C_BAD : PR_PDF_C_TEXT);
    } else if (u->index == UNMATCHED_SHOWN) {
        snprintf(line, sizeof(line),
                 "... and %zu more runs of the %s with no partner (the "
                 "JSON diff lists them all).",
                 u->count - UNMATCHED_SHOWN, u->side_name);
        pr_pdf_doc_paragraph(d, 0, line, PR_PDF_BODY_SIZE, PR_PDF_C_MUTED);
    }
}

/* A comparability warning or note (pr_dcompat_each), under the title. */
static void
compat_note(void *ctx, const char *lead, const char *text)
{
    struct pr_pdf_doc *d = ctx;
    char line[600];

    snprintf(line, sizeof(line), "%s %s", lead, text);
    pr_pdf_doc_paragraph(d, 0, line, PR_PDF_BODY_SIZE,
                         lead[0] == 'W' ? PR_PDF_C_BAD : PR_PDF_C_TEXT);
}

static void
method_section(struct pr_pdf_doc *d, const cJSON *diff)
{
    char before[200], after[1200], intervals[400], text[1500];

    pr_dmethod_text(diff, before, sizeof(before), after, sizeof(after),
                    intervals, sizeof(intervals));
    pr_pdf_doc_section(d, "Method");
    snprintf(text, sizeof(text), "%s and %s", before, after);
    pr_pdf_doc_paragraph(d, 0, text, PR_PDF_BODY_SIZE + 0.5, PR_PDF_C_TEXT);
    if (intervals[0] != '\0')
        pr_pdf_doc_paragraph(d, 0, intervals, PR_PDF_BODY_SIZE, PR_PDF_C_MUTED);
}

/* ---- documents -------------------------------------------------------- */

static void
diff_build(struct pr_pdf_doc *d, const cJSON *diff, size_t top)
{
    if (pr_pdf_doc_new_page(d) != 0)
        return;
    diff_title(d, diff, PACKAGE_VERSION);
    pr_pdf_doc_skip(d, 10);
    pr_dunmatched_each(diff, unmatched_note, d);
    pr_dcompat_each(diff, compat_note, d);
    gates_section(d, diff);
    if (!pr_pdf_doc_failed(d))
        runs_section(d, diff);
    if (!pr_pdf_doc_failed(d))
        tables_section(d, diff, top);
    if (!pr_pdf_doc_failed(d))
        method_section(d, diff);
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

/* The shared trend figures (trend_figs.c), one chart across the page
 * each. */
static void
trend_charts(struct pr_pdf_doc *d, const cJSON *t)
{
    struct pr_dtrend_figs f;
    struct pr_chart_box b;
    size_t i;

    if (pr_dtrend_figs(&f, t) != 0) {
        pr_pdf_doc_nomem(d);
        pr_dtrend_figs_free(&f);
        return;
    }
    for (i = 0; i < f.n && !pr_pdf_doc_failed(d); i++) {
        b = pr_pdf_doc_chart_box(d, 215);
        pr_chart_line(pr_pdf_doc_canvas(d), &b, &f.charts[i]);
    }
    pr_dtrend_figs_free(&f);
}

static void
nights_table(struct pr_pdf_doc *d, const cJSON *t)
{
    struct pr_dtable tab;

    pr_pdf_doc_section(d, "Nights");
    pdf_table(d, &tab, pr_dtable_nights(&tab, t));
}

static void
trend_build(struct pr_pdf_doc *d, const cJSON *t, size_t top)
{
    (void)top;
    if (pr_pdf_doc_new_page(d) != 0)
        return;
    struct pr_dverdict v;
    const cJSON *u;
    char line[700];

    pr_dtrend_verdict(t, &v);
    pr_pdf_doc_section(d, "Nightly trend");
    snprintf(line, sizeof(line), "%s (%s).", v.word, v.counts);
    pr_pdf_doc_paragraph(d, 0, line, PR_PDF_BODY_SIZE + 2,
                         pr_sget_is(v.cls, "pass") ? PR_PDF_C_TEXT
                                                   : PR_PDF_C_BAD);
    cJSON_ArrayForEach(u, pr_sget(t, "unreadable"))
    {
        snprintf(line, sizeof(line),
                 "Warning: night %.200s could not be read and is left out: "
                 "%.400s",
                 pr_sget_str_or(u, "path", "?"),
                 pr_sget_str_or(u, "error", "?"));
        pr_pdf_doc_paragraph(d, 0, line, PR_PDF_BODY_SIZE, PR_PDF_C_BAD);
    }
    pr_pdf_doc_paragraph(
        d, 0,
        "Each night is compared with the one before and, from the third "
        "night on, with the first night by the diff gates (noise-aware for "
        "step time); the step chart marks the latest night that crossed a "
        "limit, the table lists them all.",
        PR_PDF_BODY_SIZE + 0.5, PR_PDF_C_MUTED);
    trend_charts(d, t);
    if (!pr_pdf_doc_failed(d))
        nights_table(d, t);
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
