/* report_html.c - the diff and the trend as HTML pages in the main
 * report's layout: their sections (figs.c) go through html.c's view into
 * templates/diff.html, which takes the report's stylesheet, section and
 * table templates, charts and script, so a comparison looks like the
 * reports it compares.  Every string from a trace is escaped by the
 * template engine or the SVG backend. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/render.h"
#include "profreport/sget.h"

static void
each_section(void *ctx, const char *id, const char *title,
             const struct pr_figs *f)
{
    pr_html_view_section(ctx, id, title, f);
}

/* A "label: value" line of the page's header. */
static void
meta(struct pr_html_view *v, cJSON *arr, const char *label, const char *value)
{
    cJSON *o = cJSON_CreateObject();

    if (o == NULL || !cJSON_AddItemToArray(arr, o)) {
        cJSON_Delete(o);
        v->oom = 1;
        return;
    }
    if (cJSON_AddStringToObject(o, "m_label", label) == NULL ||
        cJSON_AddStringToObject(o, "m_value", value) == NULL)
        v->oom = 1;
}

/* The page's header: its kind and title, the verdict, and the meta array
 * the caller fills; NULL (v->oom set) on out-of-memory. */
static cJSON *
header(struct pr_html_view *v, const char *kind, const char *title,
       const struct pr_dverdict *vd)
{
    cJSON *r = v->root;
    cJSON *arr = cJSON_AddArrayToObject(r, "meta");

    if (arr == NULL || cJSON_AddStringToObject(r, PR_K_KIND, kind) == NULL ||
        cJSON_AddStringToObject(r, PR_K_TITLE, title) == NULL ||
        cJSON_AddStringToObject(r, PR_K_VERDICT, vd->word) == NULL ||
        cJSON_AddStringToObject(r, "verdict_cls", vd->cls) == NULL ||
        cJSON_AddStringToObject(r, PR_K_VERSION, PACKAGE_VERSION) == NULL) {
        v->oom = 1;
        return NULL;
    }
    return arr;
}

/* "file.json (runs: 1, steps: 8)" for one side of the comparison. */
static void
side_meta(struct pr_html_view *v, cJSON *arr, const char *label,
          const cJSON *side)
{
    char line[600], x[80];

    pr_dside_text(side, x, sizeof(x));
    snprintf(line, sizeof(line), "%.500s (%s)",
             pr_sget_str_or(side, PR_K_LABEL, ""), x);
    meta(v, arr, label, line);
}

/* Render the view through templates/diff.html into out, then free it. */
static enum pr_status
finish(struct pr_html_view *v, struct pr_buf *out, struct pr_error *err)
{
    enum pr_status st = pr_html_view_render(v, "diff.html", NULL, out, err);

    pr_html_view_free(v);
    return st;
}

enum pr_status
pr_diff_html(const cJSON *diff, size_t top, struct pr_buf *out,
             struct pr_error *err)
{
    struct pr_html_view v;
    struct pr_dverdict vd;
    cJSON *arr;
    enum pr_status st = pr_html_view_init(&v, err);

    if (st != PR_OK)
        return st;
    pr_dverdict(diff, &vd);
    arr = header(&v, "diff", "Regression comparison", &vd);
    if (arr != NULL) {
        side_meta(&v, arr, "Baseline", pr_sget(diff, "baseline"));
        side_meta(&v, arr, "Current", pr_sget(diff, "current"));
        meta(&v, arr, "Gates", vd.counts);
    }
    pr_dfigs_diff(diff, top, each_section, &v);
    return finish(&v, out, err);
}

enum pr_status
pr_trend_html(const cJSON *trend, struct pr_buf *out, struct pr_error *err)
{
    struct pr_html_view v;
    struct pr_dverdict vd;
    cJSON *arr;
    char nights[32];
    enum pr_status st = pr_html_view_init(&v, err);

    if (st != PR_OK)
        return st;
    pr_dtrend_verdict(trend, &vd);
    arr = header(&v, "trend", "Nightly trend", &vd);
    if (arr != NULL) {
        snprintf(nights, sizeof(nights), "%zu",
                 pr_sget_len(pr_sget(trend, "nights")));
        meta(&v, arr, "Nights", nights);
        meta(&v, arr, "Gates", vd.counts);
    }
    pr_dfigs_trend(trend, each_section, &v);
    return finish(&v, out, err);
}
