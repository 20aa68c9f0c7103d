/* report_trend.c - the trend page: one line chart each for step time,
 * breakdown, memory peak and the top operators over the nights, the most
 * recent night that crossed a limit marked on the step chart, and a table
 * of nights with every crossing spelled out. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/escape.h"
#include "profreport/svg.h"
#include "profreport/sget.h"
#include "internal.h"

#define N_CAT 8
#define MAX_SERIES 8

/* Series values: nights[i][group][key] (group NULL = the night itself). */
static void
fill(const cJSON *nights, const char *group, const char *key, double *y)
{
    const cJSON *n;
    size_t i = 0;

    cJSON_ArrayForEach(n, nights)
    {
        const cJSON *o = group ? pr_sget(n, group)
                               : n;
        double v = pr_sget_num(o, key);
        y[i++] = isfinite(v) ? v : 0;
    }
}

struct chart {
    const char *title;
    enum pr_unit unit;
    const char *names[MAX_SERIES];
    const char *group;
    const char *keys[MAX_SERIES];
    size_t n_series;
    int mark; /* mark the latest crossed night on series 0 */
};

static void
line_chart(struct pr_buf *b, const cJSON *nights, const struct chart *ch,
           const double *x, double *y, size_t n)
{
    struct pr_chart_series s[MAX_SERIES];
    struct pr_chart_lines spec;
    struct pr_chart_box box = {8, 8, 564, 284};
    struct pr_svg svg;
    struct pr_canvas c;
    const cJSON *night;
    size_t k, i = 0;
    char label[64];

    memset(&spec, 0, sizeof(spec));
    for (k = 0; k < ch->n_series; k++) {
        fill(nights, ch->group, ch->keys[k], y + k * n);
        s[k] = (struct pr_chart_series){ch->names[k], x, y + k * n, n,
                                        PR_COLOR_NONE, 0, 0};
    }
    spec = (struct pr_chart_lines){ch->title, s, ch->n_series,
                                   PR_UNIT_COUNT, ch->unit, "night", NULL,
                                   0, 0, 0, NULL};
    cJSON_ArrayForEach(night, nights)
    {
        if (ch->mark && i > 0 &&
            cJSON_IsTrue(pr_sget(night, "crossed"))) {
            snprintf(label, sizeof(label), "crossed (night %zu)", i + 1);
            spec.mark_x = x[i];
            spec.mark_y = y[i];
            spec.mark_label = label;
        }
        i++;
    }
    pr_dadd(b, "<figure>");
    pr_svg_begin(&svg, &c, b, 580, 300, ch->title);
    pr_chart_line(&c, &box, &spec);
    if (pr_svg_end(&svg, &c) != PR_OK)
        b->failed = 1;
    pr_dadd(b, "</figure>\n");
}

static void
charts(struct pr_buf *b, const cJSON *t)
{
    const cJSON *nights = pr_sget(t, "nights");
    const cJSON *top = pr_sget(t, "top_operators");
    size_t n = (size_t)cJSON_GetArraySize(nights), i, k = 0;
    double *x = calloc(n + 1, sizeof(double));
    double *y = calloc((n + 1) * MAX_SERIES, sizeof(double));
    struct chart step = {"Step time", PR_UNIT_US, {"mean", "p90"}, NULL,
                         {"step_mean_us", "step_p90_us"}, 2, 1};
    struct chart bd = {"Breakdown (mean step)", PR_UNIT_US,
                       {"kernel", "memcpy", "memset", "communication",
                        "runtime", "dataloader", "cpu_exec", "other"},
                       "breakdown_us", {NULL}, N_CAT, 0};
    struct chart mem = {"Memory peak", PR_UNIT_BYTES, {"peak allocated"},
                        NULL, {"memory_peak_bytes"}, 1, 0};
    struct chart ops = {"Top operators (device time per step)", PR_UNIT_US,
                        {NULL}, "operators_us", {NULL}, 0, 0};
    const cJSON *name;

    if (x == NULL || y == NULL) {
        b->failed = 1;
        free(x);
        free(y);
        return;
    }
    for (i = 0; i < n; i++)
        x[i] = (double)(i + 1);
    for (i = 0; i < N_CAT; i++)
        bd.keys[i] = pr_dcat_keys[i];
    cJSON_ArrayForEach(name, top)
    {
        if (k < MAX_SERIES && cJSON_IsString(name)) {
            ops.names[k] = ops.keys[k] = name->valuestring;
            k++;
        }
    }
    ops.n_series = k;
    pr_dadd(b, "<div class=\"charts\">\n");
    line_chart(b, nights, &step, x, y, n);
    line_chart(b, nights, &bd, x, y, n);
    line_chart(b, nights, &mem, x, y, n);
    if (ops.n_series > 0)
        line_chart(b, nights, &ops, x, y, n);
    pr_dadd(b, "</div>\n");
    free(x);
    free(y);
}

static void
nights_table(struct pr_buf *b, const cJSON *t)
{
    const cJSON *n, *g;
    char v[48], p[48], m[48];
    int i = 0;

    pr_dadd(b, "<h2>Nights</h2><table><tr><th>#</th><th>Input</th><th>Mean step"
               "</th><th>p90</th><th>Memory peak</th><th>vs previous night</th>"
               "</tr>\n");
    cJSON_ArrayForEach(n, pr_sget(t, "nights"))
    {
        if (pr_buf_printf(b, "<tr><td>%d</td><td><code>", ++i) != PR_OK)
            b->failed = 1;
        pr_desc(b, pr_sget_str(n, "label"));
        if (pr_buf_printf(b, "</code></td><td class=\"n\">%s</td><td "
                             "class=\"n\">%s</td><td class=\"n\">%s</td><td>",
                          pr_dfmt_us(pr_sget_num(n, "step_mean_us"), v,
                                     sizeof(v)),
                          pr_dfmt_us(pr_sget_num(n, "step_p90_us"), p,
                                     sizeof(p)),
                          pr_dfmt_bytes(pr_sget_num(n, "memory_peak_bytes"), m,
                                        sizeof(m))) != PR_OK)
            b->failed = 1;
        cJSON_ArrayForEach(g, pr_sget(n, "gates"))
        {
            const char *res = pr_sget_str(g, "result");
            int failed = res != NULL && strcmp(res, "fail") == 0;
            if (pr_buf_printf(b, "<div><span class=\"verdict %s\">%s</span> "
                                 "<code>", failed ? "fail" : "pass",
                              failed ? "crossed" : "ok") != PR_OK)
                b->failed = 1;
            pr_desc(b, pr_sget_str(g, "rule"));
            pr_dadd(b, "</code> ");
            pr_desc(b, pr_sget_str(g, "detail"));
            pr_dadd(b, "</div>");
        }
        pr_dadd(b, "</td></tr>\n");
    }
    pr_dadd(b, "</table>\n");
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
    pr_dadd(out, "</style></head><body>\n<h1>Nightly trend</h1>\n<p class=\""
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
