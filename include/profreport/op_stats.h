/* op_stats.h - operator totals a producer writes as a table, without the
 * timestamps of the calls: torch_npu's operator_details.csv (one row per
 * call, host and device self/total time) and op_statistic.csv (one row
 * per operator type and unit: count and total/min/max device time).  A
 * run whose timeline has no host operators (a CSV-only
 * ASCEND_PROFILER_OUTPUT folder) takes its operator tables from these
 * rows (ops.h); nothing places them on a timeline.  Owned by the trace
 * (pr_trace.op_stats). */
#ifndef PROFREPORT_OP_STATS_H
#define PROFREPORT_OP_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/trace.h"

/* A time the table does not give (a column the file generation lacks). */
#define PR_OP_STAT_UNKNOWN INT64_MIN

/* Which table a row came from: operators as the framework called them,
 * or operator types as the device ran them. */
enum pr_op_stat_kind {
    PR_OP_STAT_CALLS = 0, /* operator_details.csv */
    PR_OP_STAT_TYPES      /* op_statistic.csv */
};

/* One row.  Strings are interned in the trace's table. */
struct pr_op_stat {
    uint32_t name;   /* operator (or operator type) name */
    uint32_t shapes; /* input shapes in the model's text; PR_STR_NONE */
    uint32_t core;   /* the unit that ran it ("AI_CORE"); PR_STR_NONE */
    int64_t calls;   /* >= 1 */
    /* all calls; PR_OP_STAT_UNKNOWN where the table has no such column */
    int64_t host_self_ns, host_total_ns, dev_self_ns, dev_total_ns;
    /* the part of the device times on AI Core tasks (the Cube, as
       pr_ascend_unit() maps it): the tensor-core columns */
    int64_t cube_self_ns, cube_total_ns;
    int64_t min_ns, max_ns; /* of one call; PR_OP_STAT_UNKNOWN */
    double ratio_pct;       /* the producer's share; NaN absent */
};

struct pr_op_stats {
    struct pr_op_stat *v[2]; /* owned, by enum pr_op_stat_kind */
    size_t n[2], cap[2];
};

/* Append a row of `kind` to t->op_stats (created on first use) with every
 * time PR_OP_STAT_UNKNOWN, strings PR_STR_NONE, calls 1 and ratio NaN.
 * NULL on out-of-memory.  The pointer is valid until the next append. */
struct pr_op_stat *pr_op_stats_add(struct pr_trace *t,
                                   enum pr_op_stat_kind kind);

/* The rows of `kind` (NULL, *n = 0 when none). */
const struct pr_op_stat *pr_op_stats_get(const struct pr_trace *t,
                                         enum pr_op_stat_kind kind, size_t *n);

/* Accepts NULL. */
void pr_op_stats_free(struct pr_op_stats *s);

#endif
