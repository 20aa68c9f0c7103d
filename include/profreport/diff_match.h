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

struct pr_match_table {
    struct pr_match_row *rows; /* owned; sorted by name, then shapes */
    size_t n;
};

/* Match base against cur on `value_key` (e.g. "device_self_us"; null or
 * missing values count 0).  by_shape also keys on "input_shapes" (a missing
 * one matches only another missing one).  Entries without a string "name"
 * are ignored.  The rows borrow strings from the trees, which must outlive
 * `out`.  Errors: PR_E_NOMEM. */
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

/* Release out->rows; accepts NULL. */
void pr_match_free(struct pr_match_table *t);

#endif
