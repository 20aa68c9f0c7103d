/* data_pipeline.c - run.data_pipeline (docs/summary-json.md): what
 * MindSpore's data-pipeline files say of the wait for data, as the
 * reader (src/ingest/mindspore/mindspore_minddata.c) found it in them:
 * the nearest sampled queue to the device, the device's GetNext, the operators
 * whose queues stayed empty, MindSpore's leaf and bottleneck rules, the device
 * queue's depth, and a conflict where the two pipeline files disagree. */
#include "config.h"

#include <math.h>

#include "../internal.h"
#include "profreport/keys.h"

/* A string of the trace, NULL (null) where the files gave none. */
static const char *
str_or_null(const struct pr_trace *t, uint32_t s)
{
    return s == PR_STR_NONE ? NULL : pr_trace_str(t, s);
}

static double
count_or_nan(int64_t v)
{
    return v < 0 ? NAN : (double)v;
}

/* The run's data_pipeline row (rows.def's pr_row_data_pipeline), written
 * once through the one writer. */
enum pr_status
pr_data_pipeline_fill(const struct pr_trace *t, cJSON *run,
                      struct pr_error *err)
{
    const struct pr_minddata *m = t->minddata;
    struct pr_row_data_pipeline r;

    if (m == NULL)
        return PR_OK;
    r = (struct pr_row_data_pipeline){
        .source = str_or_null(t, m->source),
        .pipeline_ops = str_or_null(t, m->ops),
        .feeding_op = str_or_null(t, m->feeding),
        .feeding_queue_usage_pct = m->feeding_usage_pct,
        .feeding_queue_empty_pct = m->feeding_empty_pct,
        .feeding_queue_samples =
            m->feeding == PR_STR_NONE ? NAN : (double)m->feeding_samples,
        .empty_queue_ops = str_or_null(t, m->empty_ops),
        .leaf_op = str_or_null(t, m->leaf),
        .leaf_queue_usage_pct = m->leaf_usage_pct,
        .leaf_workers = m->leaf == PR_STR_NONE || m->leaf_workers < 0
                            ? NAN
                            : (double)m->leaf_workers,
        .queues = str_or_null(t, m->queues),
        .reading = str_or_null(t, m->reading),
        .conflict = str_or_null(t, m->conflict),
        .bottleneck = str_or_null(t, m->bottleneck),
        .bottleneck_note = str_or_null(t, m->bottleneck_note),
        .device_queue_records = count_or_nan(m->dq_records),
        .device_queue_batches = count_or_nan(m->dq_batches),
        .device_queue_empty = count_or_nan(m->dq_empty),
        .device_queue_full = count_or_nan(m->dq_full),
        .get_next_batches = count_or_nan(m->gn_records),
        .get_next_empty = count_or_nan(m->gn_empty),
        .get_next_wait_us = m->gn_wait_us,
    };
    return pr_emit_put(run, PR_K_DATA_PIPELINE,
                       pr_rows_row(PR_RO_RUNS_DATA_PIPELINE, &r),
                       "data pipeline", err);
}
