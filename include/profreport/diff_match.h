/* diff_match.h - pair the rows of two summaries' operator or kernel tables
 * by name (or by name + input shapes), so that each row carries the
 * baseline and current device time and rows present on one side only are
 * reported as new or vanished.  Rows from several runs of one summary
 * (ranks) are summed first. */
#ifndef PROFREPORT_DIFF_MATCH_H
#define PROFREPORT_DIFF_MATCH_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"

/* One side of the comparison. */
struct pr_match_side {
    const cJSON *const *tables; /* borrowed: one table (JSON array) per run,
                                   e.g. runs[i].operators; NULL entries and
                                   non-arrays are skipped */
    size_t n_tables;
    double divisor; /* values are divided by this (the number
                       of steps, to compare per step); > 0 */
};

struct pr_match_row {
    const char *name;   /* borrowed from the summary tree */
    const char *shapes; /* borrowed; NULL unless matched by shape */
    double base, cur;   /* value / divisor; 0 on the side it is absent */
    double calls_base, calls_cur; /* calls / divisor */
    int in_base, in_cur;          /* present on that side */
};

struct pr_match_fold;

struct pr_match_table {
    struct pr_match_row *rows; /* owned; sorted by name, then shapes */
    size_t n;
    struct pr_match_fold *own[2]; /* owned folds the rows' names are in
                                     (pr_match_tables*), else NULL */
};

/* Match base against cur on `value_key` (e.g. "device_self_us"; null or
 * missing values count 0).  by_shape also keys on "input_shapes" (a missing
 * one matches only another missing one).  Entries without a string "name"
 * are ignored.  The rows' strings are copies `out` owns.  Errors:
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_match_tables(const struct pr_match_side *base,
                                            const struct pr_match_side *cur,
                                            const char *value_key, int by_shape,
                                            struct pr_match_table *out,
                                            struct pr_error *err);

/* The same with rows named by `name_key` instead of "name" (the source
 * view's "location", the module view's "path"). */
PR_NODISCARD enum pr_status
pr_match_tables_by(const struct pr_match_side *base,
                   const struct pr_match_side *cur, const char *name_key,
                   const char *value_key, int by_shape,
                   struct pr_match_table *out, struct pr_error *err);

/* One side's table summed by key one run's table at a time, so that a
 * side of many ranks need not hold every run (issue #17): the keys and
 * sums are copied, the tables only read.  Rows named by `name_key`
 * (a string, else skipped), valued by `value_key` and "calls" (null or
 * missing: 0), keyed also on "input_shapes" when by_shape.  The sums are
 * those pr_match_tables gives for the same tables in the same order.
 * NULL on out-of-memory; the keys are borrowed for the fold's life. */
struct pr_match_fold *pr_match_fold_new(const char *name_key,
                                        const char *value_key, int by_shape);

/* Add one run's table (a non-array adds nothing).  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_match_fold_add(struct pr_match_fold *f,
                                              const cJSON *table,
                                              struct pr_error *err);

/* Add one row: name (NULL: nothing added), shapes (kept when by_shape;
 * NULL is its own key), value and calls (NAN: 0), as pr_match_fold_add
 * adds a table's row.  For a table read as typed rows (rows.h).  Errors:
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_match_fold_put(struct pr_match_fold *f, const char *name, const char *shapes,
                  double value, double calls, struct pr_error *err);

/* Match two folds, their sums divided by div_base and div_cur (> 0, else
 * PR_E_USAGE), as pr_match_tables_by does; the rows borrow the folds'
 * names, so the folds must outlive `out`.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_match_folds(const struct pr_match_fold *base, double div_base,
               const struct pr_match_fold *cur, double div_cur,
               struct pr_match_table *out, struct pr_error *err);

void pr_match_fold_free(struct pr_match_fold *f); /* accepts NULL */

/* Release out->rows (and the folds it owns); accepts NULL. */
void pr_match_free(struct pr_match_table *t);

#endif
