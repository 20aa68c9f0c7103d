/* tlview.c - the summary's per-stream timeline as pr_chart_timeline
 * arguments, shared by html.c and pdf.c.  Reads only the summary; skips
 * malformed spans rather than failing, as the other charts do. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/keys.h"
#include "profreport/sget.h"
#include "profreport/tlview.h"

/* The breakdown categories a span can be, so both charts read alike. */
static const char *const kind_keys[] = {PR_K_KERNEL,     PR_K_MEMCPY,
                                        PR_K_MEMSET,     PR_K_RUNTIME,
                                        PR_K_DATALOADER, PR_K_COMMUNICATION};
#define N_KINDS 6

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
        n += (size_t)cJSON_GetArraySize(pr_sget(l, PR_K_SPANS));
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
        const char *name = pr_sget_str(l, PR_K_NAME);

        v->lanes[nl] = name != NULL ? name : "?";
        cJSON_ArrayForEach(a, pr_sget(l, PR_K_SPANS))
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
    const cJSON *d = pr_sget(tl, PR_K_DURATION_US);
    const char *step = pr_sget_str(tl, PR_K_STEP);
    char dur[48];

    pr_chart_format(cJSON_IsNumber(d) ? d->valuedouble : NAN, PR_UNIT_US, dur,
                    sizeof(dur));
    if (step != NULL && strcmp(step, "capture") == 0)
        /* a run without steps: its one window (issue #29) */
        snprintf(v->title, sizeof(v->title),
                 "The capture (%s, one window: the trace has no steps)", dur);
    else
        snprintf(v->title, sizeof(v->title),
                 "%s (%s, the step closest to the "
                 "median)",
                 step != NULL ? step : "step", dur);
}

/* The legend lists the categories the spans draw, in the breakdown's
 * order, and nothing else (review30a #11: kd_910B_v1's capture, device
 * tasks only, listed Memcpy, Memset, Runtime and DataLoader); the spans'
 * colour indices follow the legend's. */
static void
legend_drawn(struct pr_tlview *v)
{
    size_t k, n = 0, at[N_KINDS];
    int used[N_KINDS] = {0};

    for (k = 0; k < v->chart.n_spans; k++)
        used[v->spans[k].color_index] = 1;
    for (k = 0; k < N_KINDS; k++) {
        const struct pr_category *c = pr_keys_category(kind_keys[k]);

        at[k] = n;
        if (!used[k])
            continue;
        v->legend[n] = c->label;
        v->colors[n++] = c->color;
    }
    for (k = 0; k < v->chart.n_spans; k++)
        v->spans[k].color_index = at[v->spans[k].color_index];
    v->chart.legend = v->legend;
    v->chart.n_legend = n;
    v->chart.colors = v->colors;
}

enum pr_status
pr_tlview_build(const cJSON *timeline, struct pr_tlview *v,
                struct pr_error *err)
{
    const cJSON *lanes = pr_sget(timeline, PR_K_LANES);
    const cJSON *d = pr_sget(timeline, PR_K_DURATION_US);
    size_t nl = pr_sget_len(lanes), ns = count_spans(lanes);

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
    legend_drawn(v);
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
