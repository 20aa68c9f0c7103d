/* pmu.h - hardware counters a producer recorded per device task (Ascend's
 * PMU columns: kernel_details.csv / op_summary's aic_mac_ratio,
 * aic_mte2_ratio, aiv_vec_ratio, aic_total_cycles, ..., the database's
 * TASK_PMU_INFO), kept as the producer named them.  One table per trace
 * (pr_trace.pmu): its columns are fixed by the first reader that sets
 * them, then one row of floats per task, keyed by the task's side record
 * (pr_gpu_info index, stable across pr_trace_finish).  Floats: these are
 * ratios and counts of a few significant digits, and a run may hold
 * millions of tasks. */
#ifndef PROFREPORT_PMU_H
#define PROFREPORT_PMU_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"
#include "profreport/trace.h"

struct pr_pmu {
    uint32_t *cols; /* owned: interned column names, n_cols */
    size_t n_cols;
    unsigned char *rows; /* owned: n_rows records of row_size bytes: the
                            uint32 gpu index, then n_cols floats (NaN:
                            absent) */
    size_t n_rows, cap_rows, row_size;
    int sorted; /* rows by gpu index (pr_pmu_finish) */
};

/* Give t a table with these columns (names copied).  0 when t already has
 * one (the columns of the first reader stand; the caller stores nothing)
 * or n is 0; 1 done; -1 out of memory. */
int pr_pmu_set_cols(struct pr_trace *t, const char *const *names, size_t n);

/* The table's column of each name (idx[i], -1 where it has none), the
 * table made from these names when t has none yet, so that every reader
 * of a run (several op_summary files, a database) stores into one table.
 * The number of names that have a column; -1 on out of memory. */
int pr_pmu_map(struct pr_trace *t, const char *const *names, size_t n,
               int *idx);

/* The row of task record `gpu` (new, every value NaN; or the one it has),
 * NULL on out-of-memory or without a table.  Valid until the next call. */
float *pr_pmu_row(struct pr_trace *t, uint32_t gpu);

/* Sort the rows for lookups, one row per task (a task's rows merged: a
 * column two of them give, the larger); a reader calls it when done. */
void pr_pmu_finish(struct pr_trace *t);

/* The values of task record `gpu` (n_cols floats), NULL when it has none
 * or the table is not finished. */
const float *pr_pmu_get(const struct pr_trace *t, uint32_t gpu);

/* Accepts NULL. */
void pr_pmu_free(struct pr_pmu *p);

#endif
