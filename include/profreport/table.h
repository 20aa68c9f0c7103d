/* table.h - terminal, CSV and JSON tables drawn from the summary (the views
 * of PyProf's prof.py, MegEngine's profile_analyze and MindSpore's
 * op_analyse).  Reads only the summary tree. */
#ifndef PROFREPORT_TABLE_H
#define PROFREPORT_TABLE_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "profreport/buf.h"
#include "profreport/error.h"

enum pr_table_format { PR_TABLE_TEXT = 0, PR_TABLE_CSV, PR_TABLE_JSON };

struct pr_table_opts {
    const char *kind;     /* operators|kernels|kernel-calls|memory|steps */
    const char *sort;     /* column key; NULL = the kind's default */
    const char *group_by; /* name|shape|type (operators); NULL = name */
    const char *filter;   /* substring of the name; NULL = all */
    const char *job;      /* the runs of summary["jobs"][] of this name;
                             NULL = every run */
    const char *columns;  /* comma-separated column keys; NULL = default */
    double min_time_us;   /* hide rows whose time column is below */
    int top;              /* 0 = all rows */
    int width;            /* text width; <= 0 = pr_table_term_width() */
    enum pr_table_format format;
    int npu; /* rows of NPU traces only (pr_table_render_rows): their
                columns and notes in an NPU's words (issue #30); a
                summary's runs say it themselves */
};

/* The width text tables fill when no -w is given: $COLUMNS, else the
 * terminal's on standard output, else 120.  Cannot fail. */
int pr_table_term_width(void);

/* Render the table into `out`.  Unknown kind, column or sort key is
 * PR_E_USAGE naming the valid choices; so is kernel-calls, which is not in
 * the summary (use pr_table_render_rows). */
PR_NODISCARD enum pr_status pr_table_render(const cJSON *summary,
                                            const struct pr_table_opts *o,
                                            struct pr_buf *out,
                                            struct pr_error *err);

/* The member of each run that pr_table_render reads for o (besides the
 * run's worker and span): "operators", "memory.operators", ...; NULL when
 * o->kind is unknown or not in the summary.  Cannot fail. */
const char *pr_table_member(const struct pr_table_opts *o);

/* Render rows the caller built (kernel-calls: pr_kernel_calls_build()
 * rows, concatenated over traces, each with a "worker" key when there are
 * several) with o->kind's column catalogue, through the same columns,
 * sort, filter, --top and text/CSV/JSON output as pr_table_render.  Rows
 * are only read.  Errors as pr_table_render. */
PR_NODISCARD enum pr_status pr_table_render_rows(const cJSON *rows,
                                                 const struct pr_table_opts *o,
                                                 struct pr_buf *out,
                                                 struct pr_error *err);

/* Lay out rows whose cells are display text already (each row an object
 * of strings at its columns' keys: a diff's tables) as pr_table_render's
 * aligned text: the same widths, numbers right-aligned, names shortened
 * so that two never read alike, columns fitted to width (<= 0:
 * pr_table_term_width()), an absent cell "-".  A last column of prose
 * (PR_FMT_WRAP) wraps in the room the others leave instead of being cut.
 * Rows are only read.  Errors: PR_E_NOMEM; PR_E_USAGE for no columns or
 * more than the text layout holds. */
struct pr_col; /* figures.h */
PR_NODISCARD enum pr_status pr_table_render_cells(const cJSON *rows,
                                                  const struct pr_col *cols,
                                                  size_t n_cols, int width,
                                                  struct pr_buf *out,
                                                  struct pr_error *err);

/* For `table --help`: each kind with the ids of its columns, from the
 * kinds' own column catalogues (those shown by default marked "*"),
 * lines of at most 78 characters. */
void pr_table_help_columns(FILE *out);

#endif
