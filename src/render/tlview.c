/* tlview.c - the summary's per-stream timeline as pr_chart_timeline
 * arguments, shared by html.c and pdf.c.  Reads only the summary; skips
 * malformed spans rather than failing, as the other charts do. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/tlview.h"

static const char *const kind_keys[] = {"kernel", "memcpy", "memset",
                                        "runtime"};
static const char *const kind_names[] = {"Kernel", "Memcpy", "Memset",
                                         "Runtime"};
/* The step-breakdown colours of the same categories, so both charts
 * read alike. */
static const uint32_t kind_colors[] = {0x0072B2, 0xE69F00, 0xF0E442, 0x56B4E9};
#define N_KINDS 4

static size_t
kind_of(const char *s)
{
    size_t k;

    for (k = 0; s != NULL && k < N_KINDS; k++)
        if (strcmp(s, kind_keys[k]) == 0)
            return k;
    return 0;
}

/* [start_us, duration_us, kind, name] -> *sp; 0 when malformed. */
static int
span_of(const cJSON *a, size_t lane, struct pr_chart_span *sp)
{
    const cJSON *s = cJSON_GetArrayItem(a, 0), *d = cJSON_GetArrayItem(a, 1);
    const cJSON *k = cJSON_GetArrayItem(a, 2), *n = cJSON_GetArrayItem(a, 3);

    if (!cJSON_IsNumber(s) || !cJSON_IsNumber(d) || !isfinite(s->valuedouble) ||
        !isfinite(d->valuedouble) || d->valuedouble < 0)
        return 0;
    sp->lane = lane;
    sp->start_us = s->valuedouble;
    sp->dur_us = d->valuedouble;
    sp->color_index = kind_of(cJSON_GetStringValue(k));
    sp->label = cJSON_GetStringValue(n);
    return 1;
}

static size_t
count_spans(const cJSON *lanes)
{
    const cJSON *l;
    size_t n = 0;

    cJSON_ArrayForEach(l, lanes)
    {
        n += (size_t)cJSON_GetArraySize(
            cJSON_GetObjectItemCaseSensitive(l, "spans"));
    }
    return n;
}

static void
fill(const cJSON *lanes, struct pr_tlview *v)
{
    const cJSON *l, *a;
    size_t nl = 0, ns = 0;

    cJSON_ArrayForEach(l, lanes)
    {
        const char *name =
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(l, "name"));

        v->lanes[nl] = name != NULL ? name : "?";
        cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(l, "spans"))
        {
            ns += span_of(a, nl, &v->spans[ns]);
        }
        nl++;
    }
    v->chart.n_lanes = nl;
    v->chart.n_spans = ns;
}

static void
set_title(const cJSON *tl, struct pr_tlview *v)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(tl, "duration_us");
    const char *step =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(tl, "step"));
    char dur[48];

    pr_chart_format(cJSON_IsNumber(d) ? d->valuedouble : NAN, PR_UNIT_US, dur,
                    sizeof(dur));
    snprintf(v->title, sizeof(v->title),
             "%s (%s, the step closest to the "
             "median)",
             step != NULL ? step : "step", dur);
}

enum pr_status
pr_tlview_build(const cJSON *timeline, struct pr_tlview *v,
                struct pr_error *err)
{
    const cJSON *lanes = cJSON_GetObjectItemCaseSensitive(timeline, "lanes");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(timeline, "duration_us");
    size_t nl = (size_t)cJSON_GetArraySize(lanes), ns = count_spans(lanes);

    memset(v, 0, sizeof(*v));
    if (!cJSON_IsObject(timeline) || !cJSON_IsArray(lanes) || nl == 0)
        return PR_OK;
    v->lanes = calloc(nl, sizeof(*v->lanes));
    v->spans = calloc(ns ? ns : 1, sizeof(*v->spans));
    if (v->lanes == NULL || v->spans == NULL) {
        pr_tlview_free(v);
        return pr_error_set(err, PR_E_NOMEM, "out of memory (timeline)");
    }
    fill(lanes, v);
    set_title(timeline, v);
    v->chart.title = v->title;
    v->chart.lanes = v->lanes;
    v->chart.spans = v->spans;
    /* the whole step, so idle time at either end shows as idle */
    v->chart.t1_us = cJSON_IsNumber(d) ? d->valuedouble : 0;
    v->chart.legend = kind_names;
    v->chart.n_legend = N_KINDS;
    v->chart.colors = kind_colors;
    return PR_OK;
}

double
pr_tlview_height(const struct pr_tlview *v)
{
    double lanes = (double)(v->chart.n_lanes < 16 ? v->chart.n_lanes : 16);

    return 80 + 34 * lanes;
}

void
pr_tlview_free(struct pr_tlview *v)
{
    free(v->lanes);
    free(v->spans);
    memset(v, 0, sizeof(*v));
}
