/* tlview.h - turn a summary run's "timeline" object into the arguments of
 * pr_chart_timeline, so the HTML and PDF reports draw the same chart from
 * the summary alone. */
#ifndef PROFREPORT_TLVIEW_H
#define PROFREPORT_TLVIEW_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/chart.h"
#include "profreport/error.h"

/* The one line a report shows instead of the chart. */
#define PR_TLVIEW_EMPTY "No GPU activity to show on a timeline."

struct pr_tlview {
    struct pr_chart_timeline chart; /* points into the fields below */
    const char **lanes;             /* owned array; strings borrowed from
                                       the summary */
    struct pr_chart_span *spans;    /* owned; labels borrowed likewise */
    const char *legend[6];          /* labels of the span kinds */
    uint32_t colors[6];             /* their colours */
    char title[160];
};

/* Fill *v from `timeline` (a run's "timeline" value).  Returns PR_OK with
 * v->chart.n_lanes == 0 when there is nothing to draw (null or malformed),
 * PR_E_NOMEM on allocation failure.  *v borrows from `timeline`, which
 * must outlive it; release with pr_tlview_free. */
PR_NODISCARD enum pr_status pr_tlview_build(const cJSON *timeline,
                                            struct pr_tlview *v,
                                            struct pr_error *err);

/* Suggested chart height in points for the lane count. */
double pr_tlview_height(const struct pr_tlview *v);

void pr_tlview_free(struct pr_tlview *v); /* accepts a zeroed struct */

#endif
