/* report_html.c - the diff as one self-contained HTML page: verdict and
 * gates, per run a side-by-side step breakdown, a waterfall of where the
 * time went and the step times, then top regressions / improvements.
 * Charts come from the shared chart library through the SVG canvas; every
 * string from a trace goes through pr_escape_html. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/escape.h"
#include "profreport/sget.h"
#include "profreport/svg.h"

#define NAME_MAX_CHARS 90

static const char css[] =
    ":root{--ink:#222;--muted:#6b7280;--grid:#e5e7eb;--bg:#fff;"
    "--bad:#b42318;--good:#067647;--card:#f8f9fb}"
    "@media (prefers-color-scheme:dark){:root{--ink:#e5e7eb;--muted:#9ca3af;"
    "--grid:#374151;--bg:#111827;--card:#1f2937;--bad:#f97066;"
    "--good:#47cd89}}"
    "body{font:14px/1.45 system-ui,sans-serif;color:var(--ink);"
    "background:var(--bg);margin:0 auto;max-width:1200px;padding:16px 24px}"
    "h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin-top:28px;"
    "border-bottom:1px solid var(--grid)}h3{font-size:15px}"
    ".verdict{display:inline-block;padding:2px 10px;border-radius:4px;"
    "color:#fff;font-weight:600}.fail{background:var(--bad)}"
    ".pass{background:var(--good)}.skip{background:#6b7280}"
    ".inconclusive{background:#b54708}"
    "table{border-collapse:collapse;width:100%;margin:8px 0}"
    "th,td{text-align:left;padding:4px 8px;border-bottom:1px solid "
    "var(--grid);vertical-align:top}td.n{text-align:right;"
    "font-variant-numeric:tabular-nums;white-space:nowrap}"
    "code{font-size:12px;word-break:break-all}"
    ".up{color:var(--bad)}.down{color:var(--good)}.muted{color:var(--muted)}"
    /* charts are drawn 420-580 units wide: never shown much smaller,
       so their 10.5-unit labels stay readable (issue #15) */
    ".charts{display:grid;grid-template-columns:repeat(auto-fit,"
    "minmax(min(100%,520px),1fr));gap:12px}figure{margin:0;"
    "background:var(--card);border-radius:6px;padding:4px}"
    "svg.chart{display:block;width:100%;max-width:760px;height:auto;"
    "margin:auto}";

/* Appends are sticky on the buffer: check b->failed once at the end. */
#define ADDF(b, ...)                                                           \
    do {                                                                       \
        if (pr_buf_printf((b), __VA_ARGS__) != PR_OK)                          \
            (b)->failed = 1;                                                   \
    } while (0)

static void
esc(struct pr_buf *b, const char *s)
{
    if (s == NULL)
        s = "";
    if (pr_escape_html_trunc(b, s, strlen(s), NAME_MAX_CHARS) != PR_OK)
        b->failed = 1;
}

void
pr_dhtml_figure(struct pr_buf *b, double w, double h, const char *label,
                void (*draw)(struct pr_canvas *, const struct pr_chart_box *,
                             const void *),
                const void *spec)
{
    struct pr_svg svg;
    struct pr_canvas c;
    struct pr_chart_box box = {8, 8, w - 16, h - 16};

    pr_dadd(b, "<figure>");
    pr_svg_begin(&svg, &c, b, w, h, label);
    draw(&c, &box, spec);
    if (pr_svg_end(&svg, &c) != PR_OK)
        b->failed = 1;
    pr_dadd(b, "</figure>\n");
}

void
pr_dhtml_head(struct pr_buf *b, const char *title)
{
    pr_dadd(b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
               "<meta charset=\"utf-8\">"
               "<meta name=\"viewport\" content=\"width=device-width\">"
               "<meta http-equiv=\"Content-Security-Policy\" content=\""
               "default-src 'none'; style-src 'unsafe-inline'\">"
               "<meta name=\"color-scheme\" content=\"light dark\">"
               "<title>");
    pr_dadd(b, title);
    pr_dadd(b, "</title><style>");
    pr_dadd(b, css);
    pr_dadd(b, "</style></head><body>\n");
}

static void
draw_waterfall(struct pr_canvas *c, const struct pr_chart_box *b, const void *s)
{
    pr_dwaterfall(c, b, s);
}

/* The pair's charts (pair_figs.c): the mean breakdown of both runs, the
 * waterfall between them, and step time per step. */
static void
pair_charts(struct pr_buf *b, const cJSON *pair)
{
    struct pr_dpair_figs f;

    if (pr_dpair_figs(&f, pair) != 0) {
        b->failed = 1;
    } else {
        pr_dhtml_figure(b, 420, 300,
                        "Mean step breakdown, baseline and current",
                        pr_fig_draw_stacked, &f.stacked);
        pr_dhtml_figure(b, 440, 320,
                        "Waterfall of the change in mean step time",
                        draw_waterfall, &f.waterfall);
        pr_dhtml_figure(b, 420, 300, "Step time per step", pr_fig_draw_lines,
                        &f.steps);
    }
    pr_dpair_figs_free(&f);
}

/* "up" (red) for a change that grew, "down" (green) for one that shrank,
 * by its formatted sign; a dash or zero is muted. */
static const char *
change_class(const char *text)
{
    return text[0] == '+' ? "up" : text[0] == '-' ? "down" : "muted";
}

static const char *
verdict_class(const char *text)
{
    return pr_sget_is(text, "FAIL")      ? "fail"
           : pr_sget_is(text, "skipped") ? "skip"
                                         : "pass";
}

static void
html_cell(struct pr_buf *b, const struct pr_col *c, const char *text,
          const char *shown, const char *sub)
{
    if (c->fmt == PR_FMT_CHANGE) {
        ADDF(b, "<td class=\"n %s\">", change_class(text));
        esc(b, text);
    } else if (pr_col_numeric(c->fmt)) {
        pr_dadd(b, "<td class=\"n\">");
        esc(b, text);
    } else if (c->fmt == PR_FMT_NAME) {
        pr_dadd(b, "<td><code title=\"");
        pr_desc(b, text);
        pr_dadd(b, "\">");
        esc(b, shown != NULL ? shown : text); /* full name in title */
        pr_dadd(b, "</code>");
    } else if (c->fmt == PR_FMT_VERDICT) {
        ADDF(b, "<td><span class=\"verdict %s\">", verdict_class(text));
        esc(b, text);
        pr_dadd(b, "</span>");
    } else {
        pr_dadd(b, "<td>");
        if (c->fmt == PR_FMT_WRAP)
            pr_desc(b, text);
        else
            esc(b, text);
    }
    if (sub != NULL) {
        pr_dadd(b, " <span class=\"muted\">");
        esc(b, sub);
        pr_dadd(b, "</span>");
    }
    pr_dadd(b, "</td>");
}

void
pr_dtable_html(struct pr_buf *b, const struct pr_dtable *t)
{
    const cJSON *row;
    size_t i, r = 0, sub = pr_dtable_sub_col(t);
    char **forms = pr_dnames(t, NAME_MAX_CHARS);

    if (forms == NULL && pr_sget_len(t->rows) > 0)
        b->failed = 1; /* out of memory */

    pr_dadd(b, "<table><tr>");
    for (i = 0; i < t->n_cols; i++) {
        pr_dadd(b, "<th>");
        esc(b, t->cols[i].label);
        pr_dadd(b, "</th>");
    }
    pr_dadd(b, "</tr>\n");
    cJSON_ArrayForEach(row, t->rows)
    {
        pr_dadd(b, "<tr>");
        for (i = 0; i < t->n_cols; i++)
            html_cell(b, &t->cols[i], pr_sget_str_or(row, t->cols[i].key, ""),
                      forms ? forms[r * t->n_cols + i] : NULL,
                      i == sub ? pr_sget_str(row, PR_DTABLE_SUB) : NULL);
        pr_dadd(b, "</tr>\n");
        r++;
    }
    pr_dnames_free(forms, t);
    if (pr_sget_len(t->rows) == 0)
        ADDF(b, "<tr><td class=\"muted\" colspan=\"%zu\">none</td></tr>\n",
             t->n_cols);
    pr_dadd(b, "</table>\n");
}

static void
runs_section(struct pr_buf *b, const cJSON *diff)
{
    const cJSON *pair;
    struct pr_dtable t;

    pr_dadd(b, "<h2 id=\"runs\">Step time</h2>\n");
    cJSON_ArrayForEach(pair, pr_sget(diff, "runs"))
    {
        pr_dadd(b, "<h3>Run <code>");
        esc(b, pr_sget_str(pair, "baseline"));
        pr_dadd(b, "</code> vs <code>");
        esc(b, pr_sget_str(pair, "current"));
        pr_dadd(b, "</code> <span class=\"muted\">(per step)</span></h3>\n"
                   "<div class=\"charts\">\n");
        pair_charts(b, pair);
        pr_dadd(b, "</div>\n");
        pr_dtable_put(b, &t, pr_dtable_figures(&t, pair), pr_dtable_html);
    }
}

/* Headings of the change tables (pr_dchanges_put). */
static void
change_head(struct pr_buf *b, const struct pr_dchange *c,
            const struct pr_dkind *k)
{
    if (k == NULL)
        ADDF(b, "<h2 id=\"%s\">%s <span class=\"muted\">(%s)</span></h2>\n",
             c->key, c->title, c->measure);
    else
        ADDF(b, "<h3>%s</h3>\n", k->title);
}

/* A run that paired with none (pr_dunmatched_each). */
static void
unmatched(void *ctx, const struct pr_dunmatched *u)
{
    struct pr_buf *b = ctx;

    ADDF(b, "<p class=\"unmatched\"><strong>%s</strong> %s run <code>", u->lead,
         u->side_name);
    esc(b, u->run);
    ADDF(b, "</code> %s; not compared.</p>\n", u->what);
}

/* A comparability warning or note (pr_dcompat_each). */
static void
compat_line(void *ctx, const char *lead, const char *text)
{
    struct pr_buf *b = ctx;

    ADDF(b, "<p class=\"unmatched\"><strong>%s</strong> ", lead);
    pr_desc(b, text); /* a sentence: whole, not cut like a name */
    pr_dadd(b, "</p>\n");
}

static void
header(struct pr_buf *b, const cJSON *diff)
{
    const cJSON *bs = pr_sget(diff, "baseline");
    const cJSON *cs = pr_sget(diff, "current");
    struct pr_dverdict v;

    pr_dverdict(diff, &v);
    pr_dhtml_head(b, "profreport diff");
    pr_dadd(b, "<h1>Regression comparison ");
    ADDF(b,
         "<span class=\"verdict %s\">%s</span></h1>\n<p>%s.</p>\n"
         "<p>Baseline <code>",
         v.cls, v.word, v.counts);
    esc(b, pr_sget_str(bs, "label"));
    ADDF(b, "</code> (runs: %.0f, steps: %.0f) vs current <code>",
         pr_sget_num(bs, "runs"), pr_sget_num(bs, "steps"));
    esc(b, pr_sget_str(cs, "label"));
    ADDF(b, "</code> (runs: %.0f, steps: %.0f).</p>\n", pr_sget_num(cs, "runs"),
         pr_sget_num(cs, "steps"));
    pr_dunmatched_each(diff, unmatched, b);
    pr_dcompat_each(diff, compat_line, b);
}

static void
gates_section(struct pr_buf *b, const cJSON *diff)
{
    struct pr_dtable t;

    pr_dadd(b, "<h2 id=\"gates\">Gates</h2>\n");
    pr_dtable_put(b, &t, pr_dtable_gates(&t, diff), pr_dtable_html);
}

static void
method_section(struct pr_buf *b, const cJSON *diff)
{
    char before[200], after[1200], intervals[400];

    pr_dmethod_text(diff, before, sizeof(before), after, sizeof(after),
                    intervals, sizeof(intervals));
    pr_dadd(b, "<h2 id=\"method\">Method</h2>\n<p>");
    esc(b, before);
    pr_dadd(b, " <em>and</em> ");
    esc(b, after);
    pr_dadd(b, "</p>\n");
    if (intervals[0] != '\0') {
        pr_dadd(b, "<p>");
        esc(b, intervals);
        pr_dadd(b, "</p>\n");
    }
}

enum pr_status
pr_diff_html(const cJSON *diff, size_t top, struct pr_buf *out,
             struct pr_error *err)
{
    header(out, diff);
    gates_section(out, diff);
    runs_section(out, diff);
    pr_dchanges_put(out, diff, top, change_head, pr_dtable_html);
    method_section(out, diff);
    pr_dadd(out, "</body></html>\n");
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "html: out of memory");
    return PR_OK;
}
