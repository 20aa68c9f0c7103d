/* report_trend.c - the trend page: the line charts of trend_figs.c (step
 * time, memory peak, breakdown and the top operators over the nights, the
 * most recent night that crossed a limit marked on the step chart), and a
 * table of nights with every crossing spelled out. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/escape.h"
#include "profreport/sget.h"
#include "profreport/svg.h"

/* One chart of the shared trend figures as an SVG figure. */
static void
line_chart(struct pr_buf *b, const struct pr_chart_lines *spec)
{
    struct pr_chart_box box = {8, 8, 564, 284};
    struct pr_svg svg;
    struct pr_canvas c;

    pr_dadd(b, "<figure>");
    pr_svg_begin(&svg, &c, b, 580, 300, spec->title);
    pr_chart_line(&c, &box, spec);
    if (pr_svg_end(&svg, &c) != PR_OK)
        b->failed = 1;
    pr_dadd(b, "</figure>\n");
}

static void
charts(struct pr_buf *b, const cJSON *t)
{
    struct pr_dtrend_figs f;
    size_t i;

    if (pr_dtrend_figs(&f, t) != 0) {
        b->failed = 1;
        pr_dtrend_figs_free(&f);
        return;
    }
    pr_dadd(b, "<div class=\"charts\">\n");
    for (i = 0; i < f.n; i++)
        line_chart(b, &f.charts[i]);
    pr_dadd(b, "</div>\n");
    pr_dtrend_figs_free(&f);
}

static void
nights_table(struct pr_buf *b, const cJSON *t)
{
    struct pr_dtable tab;

    pr_dadd(b, "<h2>Nights</h2>");
    pr_dtable_put(b, &tab, pr_dtable_nights(&tab, t), pr_dtable_html);
}

enum pr_status
pr_trend_html(const cJSON *trend, struct pr_buf *out, struct pr_error *err)
{
    pr_dadd(out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
                 "<meta charset=\"utf-8\">"
                 "<meta name=\"viewport\" content=\"width=device-width\">"
                 "<meta http-equiv=\"Content-Security-Policy\" content=\""
                 "default-src 'none'; style-src 'unsafe-inline'\">"
                 "<meta name=\"color-scheme\" content=\"light dark\">"
                 "<title>profreport trend</title><style>");
    pr_dadd(out, pr_dhtml_css);
    pr_dadd(
        out,
        "</style></head><body>\n<h1>Nightly trend</h1>\n<p class=\""
        "muted\">Each night is compared with the one before by "
        "the diff gates (noise-aware for step time); the step chart marks the "
        "latest night that crossed a limit, the table lists them all."
        "</p>\n");
    charts(out, trend);
    nights_table(out, trend);
    pr_dadd(out, "</body></html>\n");
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "html: out of memory");
    return PR_OK;
}
