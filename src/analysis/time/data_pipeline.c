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

static void
str_or_null(const struct pr_trace *t, cJSON *o, const char *key, uint32_t s,
            int *ok)
{
    if (s == PR_STR_NONE)
        pr_emit_null(o, key, ok);
    else
        pr_emit_str(o, key, pr_trace_str(t, s), ok);
}

static double
count_or_nan(int64_t v)
{
    return v < 0 ? NAN : (double)v;
}

enum pr_status
pr_data_pipeline_fill(const struct pr_trace *t, cJSON *run,
                      struct pr_error *err)
{
    const struct pr_minddata *m = t->minddata;
    int ok = 1;
    cJSON *o;

    if (m == NULL)
        return PR_OK;
    o = cJSON_CreateObject();
    ok = o != NULL;
    str_or_null(t, o, PR_K_SOURCE, m->source, &ok);
    str_or_null(t, o, PR_K_PIPELINE_OPS, m->ops, &ok);
    str_or_null(t, o, PR_K_FEEDING_OP, m->feeding, &ok);
    pr_emit_num_or_null(o, PR_K_FEEDING_QUEUE_USAGE_PCT, m->feeding_usage_pct,
                        &ok);
    pr_emit_num_or_null(o, PR_K_FEEDING_QUEUE_EMPTY_PCT, m->feeding_empty_pct,
                        &ok);
    pr_emit_num_or_null(
        o, PR_K_FEEDING_QUEUE_SAMPLES,
        m->feeding == PR_STR_NONE ? NAN : (double)m->feeding_samples, &ok);
    str_or_null(t, o, PR_K_EMPTY_QUEUE_OPS, m->empty_ops, &ok);
    str_or_null(t, o, PR_K_LEAF_OP, m->leaf, &ok);
    pr_emit_num_or_null(o, PR_K_LEAF_QUEUE_USAGE_PCT, m->leaf_usage_pct, &ok);
    pr_emit_num_or_null(o, PR_K_LEAF_WORKERS,
                        m->leaf == PR_STR_NONE || m->leaf_workers < 0
                            ? NAN
                            : (double)m->leaf_workers,
                        &ok);
    str_or_null(t, o, PR_K_QUEUES, m->queues, &ok);
    str_or_null(t, o, PR_K_READING, m->reading, &ok);
    str_or_null(t, o, PR_K_CONFLICT, m->conflict, &ok);
    str_or_null(t, o, PR_K_BOTTLENECK, m->bottleneck, &ok);
    str_or_null(t, o, PR_K_BOTTLENECK_NOTE, m->bottleneck_note, &ok);
    pr_emit_num_or_null(o, PR_K_DEVICE_QUEUE_RECORDS,
                        count_or_nan(m->dq_records), &ok);
    pr_emit_num_or_null(o, PR_K_DEVICE_QUEUE_BATCHES,
                        count_or_nan(m->dq_batches), &ok);
    pr_emit_num_or_null(o, PR_K_DEVICE_QUEUE_EMPTY, count_or_nan(m->dq_empty),
                        &ok);
    pr_emit_num_or_null(o, PR_K_DEVICE_QUEUE_FULL, count_or_nan(m->dq_full),
                        &ok);
    pr_emit_num_or_null(o, PR_K_GET_NEXT_BATCHES, count_or_nan(m->gn_records),
                        &ok);
    pr_emit_num_or_null(o, PR_K_GET_NEXT_EMPTY, count_or_nan(m->gn_empty), &ok);
    pr_emit_num_or_null(o, PR_K_GET_NEXT_WAIT_US, m->gn_wait_us, &ok);
    if (!ok) {
        cJSON_Delete(o);
        o = NULL;
    }
    return pr_emit_put(run, PR_K_DATA_PIPELINE, o, "data pipeline", err);
}
