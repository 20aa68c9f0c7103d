/* op_stats.c - the trace's table of operator totals without timestamps
 * (op_stats.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/op_stats.h"

struct pr_op_stat *
pr_op_stats_add(struct pr_trace *t, enum pr_op_stat_kind kind)
{
    struct pr_op_stats *s = t->op_stats;
    struct pr_op_stat *r;

    if (s == NULL) {
        s = calloc(1, sizeof(*s));
        if (s == NULL)
            return NULL;
        t->op_stats = s;
    }
    if (pr_grow((void **)&s->v[kind], &s->cap[kind], s->n[kind] + 1,
                sizeof(*r)) != PR_OK)
        return NULL;
    r = &s->v[kind][s->n[kind]++];
    r->name = r->shapes = r->core = PR_STR_NONE;
    r->calls = 1;
    r->host_self_ns = r->host_total_ns = PR_OP_STAT_UNKNOWN;
    r->dev_self_ns = r->dev_total_ns = PR_OP_STAT_UNKNOWN;
    r->cube_self_ns = r->cube_total_ns = PR_OP_STAT_UNKNOWN;
    r->min_ns = r->max_ns = PR_OP_STAT_UNKNOWN;
    r->ratio_pct = NAN;
    return r;
}

const struct pr_op_stat *
pr_op_stats_get(const struct pr_trace *t, enum pr_op_stat_kind kind, size_t *n)
{
    const struct pr_op_stats *s = t->op_stats;

    *n = s != NULL ? s->n[kind] : 0;
    return *n > 0 ? s->v[kind] : NULL;
}

void
pr_op_stats_free(struct pr_op_stats *s)
{
    if (s == NULL)
        return;
    free(s->v[0]);
    free(s->v[1]);
    free(s);
}
