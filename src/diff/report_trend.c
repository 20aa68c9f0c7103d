/* report_trend.c - the trend page: the line charts of trend_figs.c (step
 * time, memory peak, breakdown and the top operators over the nights, the
 * most recent night that crossed a limit marked on the step chart), and a
 * table of nights with every crossing spelled out. */
#include "config.h"

#include "internal.h"
#include "profreport/sget.h"

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
        pr_dhtml_figure(b, 580, 300, f.charts[i].title, pr_fig_draw_lines,
                        &f.charts[i]);
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
    struct pr_dverdict v;
    const cJSON *u;

    pr_dtrend_verdict(trend, &v);
    pr_dhtml_head(out, "profreport trend");
    pr_dadd(out, "<h1>Nightly trend <span class=\"verdict ");
    pr_dadd(out, v.cls);
    pr_dadd(out, "\">");
    pr_dadd(out, v.word);
    pr_dadd(out, "</span></h1>\n<p>");
    pr_desc(out, v.counts);
    pr_dadd(out, ".</p>\n");
    cJSON_ArrayForEach(u, pr_sget(trend, "unreadable"))
    {
        pr_dadd(out, "<p class=\"unmatched\"><strong>Warning:</strong> night "
                     "<code>");
        pr_desc(out, pr_sget_str_or(u, "path", "?"));
        pr_dadd(out, "</code> could not be read and is left out: ");
        pr_desc(out, pr_sget_str_or(u, "error", "?"));
        pr_dadd(out, "</p>\n");
    }
    pr_dadd(
        out,
        "<p class=\""
        "muted\">Each night is compared with the one before and, from the "
        "third night on, with the first night by the diff gates (noise-aware "
        "for step time); the step chart marks the latest night that crossed "
        "a limit, the table lists them all."
        "</p>\n");
    charts(out, trend);
    nights_table(out, trend);
    pr_dadd(out, "</body></html>\n");
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "html: out of memory");
    return PR_OK;
}
