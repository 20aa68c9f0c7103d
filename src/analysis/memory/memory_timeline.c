/* memory_timeline.c - runs[].memory_timeline: torch.profiler's raw memory
 * timeline (memtl.h), as HTA's MemoryAnalysis sums it: the peak, each
 * category's bytes at it and its own greatest, and the stacked curve.
 * Times are µs from the timeline's first time (HTA's t_min), as HTA's
 * plot starts its axis there. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "profreport/keys.h"
#include "profreport/memory.h"
#include "profreport/memtl.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/whatif.h"

#include "../internal.h"

static cJSON *
num_array(const struct pr_memtl *m, int cat, int *ok)
{
    cJSON *a = cJSON_CreateArray();
    size_t i;

    if (a == NULL) {
        *ok = 0;
        return NULL;
    }
    for (i = 0; i < m->n_curve && *ok; i++) {
        const struct pr_memtl_point *p = &m->curve[i];
        double v = cat < 0 ? (double)(p->t_ns - m->t_min_ns) / 1e3
                           : (double)p->bytes[cat];

        *ok = cJSON_AddItemToArray(a, cJSON_CreateNumber(v));
    }
    return a;
}

/* Category c as its typed row (rows.def), its curve a copy the writer
 * takes.  0 on out-of-memory. */
static int
emit_category(cJSON *arr, const struct pr_memtl *m, int c)
{
    double peak = (double)m->peak.total;
    int ok = 1;
    cJSON *curve = num_array(m, c, &ok);
    struct pr_row_memtl_category row = {
        .name = pr_memtl_category(c),
        .at_peak_bytes = (double)m->peak.bytes[c],
        .at_peak_pct = peak > 0 ? 100.0 * (double)m->peak.bytes[c] / peak : NAN,
        .max_bytes = (double)m->max_bytes[c],
        .curve_bytes = curve,
    };

    ok = ok && curve != NULL &&
         pr_rows_write(arr, PR_RO_RUNS_MEMORY_TIMELINE_CATEGORIES, &row, 1);
    cJSON_Delete(curve);
    return ok;
}

enum pr_status
pr_memtl_fill(const struct pr_trace *t, cJSON *run, struct pr_error *err)
{
    const struct pr_memtl *m = t->memtl;
    struct pr_row_memtl r;
    cJSON *o = NULL, *times, *cats;
    int ok = 1, c;

    if (m == NULL)
        return PR_OK;
    /* the row holds copies of its curve's times and its categories (typed
       rows); the export names no device: null */
    times = num_array(m, -1, &ok);
    cats = cJSON_CreateArray();
    ok = ok && times != NULL && cats != NULL;
    for (c = 0; c < PR_MEMTL_CATS && ok; c++)
        ok = emit_category(cats, m, c);
    r = (struct pr_row_memtl){
        .source = "torch.profiler export_memory_timeline_raw",
        .device = NULL,
        .rows = (int64_t)m->rows,
        .points = (int64_t)m->points,
        .rows_preexisting = (int64_t)m->by_action[PR_MEMTL_PREEXISTING],
        .rows_create = (int64_t)m->by_action[PR_MEMTL_CREATE],
        .rows_increment_version =
            (int64_t)m->by_action[PR_MEMTL_INCREMENT_VERSION],
        .rows_destroy = (int64_t)m->by_action[PR_MEMTL_DESTROY],
        .span_ns = m->t_max_ns - m->t_min_ns,
        .peak_bytes = m->peak.total,
        .peak_at_ns = m->peak.t_ns - m->t_min_ns,
        .curve_t_us = times,
        .categories = cats,
    };
    if (ok)
        o = pr_rows_row(PR_RO_RUNS_MEMORY_TIMELINE, &r);
    cJSON_Delete(times);
    cJSON_Delete(cats);
    if (o == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (memory timeline)");
    return pr_emit_put(run, PR_K_MEMORY_TIMELINE, o, "memory timeline", err);
}

void
pr_memtl_verdict(const struct pr_trace *t, struct pr_verdict *v)
{
    if (t->memtl == NULL || v == NULL)
        return;
    pr_whatif_verdict_set(
        v,
        "What bounds the step is not known: this input is torch.profiler's "
        "raw memory timeline (export_memory_timeline_raw), which records one "
        "device's tensor memory by category and no steps, operators or "
        "kernels. Its peak and make-up are in the Memory timeline section.",
        v->row.bound, v->row.bound_steps);
    if (v->row.no_finding == NULL)
        return; /* a finding stands: kept */
    snprintf(v->no_finding, sizeof(v->no_finding), "%s",
             "No finding: a memory timeline holds no operators or kernels for "
             "a rule to read and no step to replay a change on.");
    v->row.no_finding = v->no_finding;
}
