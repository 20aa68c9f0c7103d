/* ascend_ops.c - the operator tables of a folder without trace_view.json
 * (spec §2.3): operator_details.csv, one row per operator call with its
 * host and device self/total time (and the AI Core part of the device
 * times), and op_statistic.csv, one row per operator type and unit with
 * its count and total/min/avg/max device time.  Neither has timestamps,
 * so the rows go to the trace's op_stats table (op_stats.h), never onto
 * a timeline: the operator views are then summary-level.  Columns are
 * found by name, so a generation that adds or drops one still reads;
 * a time a generation lacks stays unknown (null), never 0. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../internal.h"
#include "ascend.h"
#include "ascend_common.h"
#include "profreport/op_stats.h"

/* ------------------------------------------------------------ cells */

struct tab {
    struct pr_asc *a;
    struct pr_csv *c;
    struct pr_buf b;
};

static int
is_na(const char *s, size_t n)
{
    return n == 0 || (n == 3 && memcmp(s, "N/A", 3) == 0);
}

/* A µs cell into *ns: PR_OP_STAT_UNKNOWN when the column is absent or
 * the cell empty or N/A; PR_E_FORMAT for anything else not a time. */
static enum pr_status
us_cell(const struct tab *tb, int col, const char *what, int64_t *ns,
        struct pr_error *err)
{
    size_t n;
    const char *s = pr_csv_field(tb->c, col, &n);

    *ns = PR_OP_STAT_UNKNOWN;
    while (n > 0 && (s[n - 1] == '\t' || s[n - 1] == ' '))
        n--;
    if (col < 0 || is_na(s, n))
        return PR_OK;
    if (pr_asc_us(s, n, ns) && *ns >= 0)
        return PR_OK;
    *ns = PR_OP_STAT_UNKNOWN;
    return pr_error_set(err, PR_E_FORMAT, "line %llu: %s is not a time in us",
                        (unsigned long long)pr_csv_line(tb->c), what);
}

static uint32_t
intern_cell(struct tab *tb, int col)
{
    size_t n;
    const char *s = pr_csv_field(tb->c, col, &n);

    while (n > 0 && (s[n - 1] == '\t' || s[n - 1] == ' '))
        n--;
    if (col < 0 || is_na(s, n))
        return PR_STR_NONE;
    return pr_strtab_intern(tb->a->t->strs, s, n);
}

static enum pr_status
open_tab(struct tab *tb, struct pr_asc *a, const char *path,
         struct pr_error *err)
{
    memset(tb, 0, sizeof(*tb));
    tb->a = a;
    pr_buf_init(&tb->b, 0);
    return pr_csv_open(path, a->max, &tb->c, err);
}

static void
close_tab(struct tab *tb)
{
    tb->a->t->bytes += pr_csv_bytes(tb->c);
    pr_csv_close(tb->c);
    pr_buf_free(&tb->b);
}

/* ------------------------------------------------- operator_details.csv */

enum {
    D_NAME,
    D_SHAPES,
    D_HOST_SELF,
    D_HOST_TOTAL,
    D_DEV_SELF,
    D_DEV_TOTAL,
    D_CUBE_SELF,
    D_CUBE_TOTAL,
    D_N
};

static const char *const detail_cols[D_N] = {
    "Name",
    "Input Shapes",
    "Host Self Duration(us)",
    "Host Total Duration(us)",
    "Device Self Duration(us)",
    "Device Total Duration(us)",
    "Device Self Duration With AICore(us)",
    "Device Total Duration With AICore(us)"};

/* Input Shapes in the model's list text; PR_STR_NONE when absent or not
 * a shape list. */
static uint32_t
shapes_cell(struct tab *tb, int col)
{
    size_t n;
    const char *s = pr_csv_field(tb->c, col, &n);

    if (col < 0 || is_na(s, n))
        return PR_STR_NONE;
    pr_buf_reset(&tb->b);
    if (pr_ascend_shapes(s, n, &tb->b) <= 0 || tb->b.len == 0)
        return PR_STR_NONE;
    return pr_strtab_intern(tb->a->t->strs, tb->b.data, tb->b.len);
}

static enum pr_status
detail_row(struct tab *tb, const int *col, struct pr_error *err)
{
    struct pr_op_stat *r = pr_op_stats_add(tb->a->t, PR_OP_STAT_CALLS);
    int64_t *at[D_N];
    enum pr_status st = PR_OK;
    int i;

    if (r == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    r->name = intern_cell(tb, col[D_NAME]);
    if (r->name == PR_STR_NONE)
        r->name = pr_strtab_intern(tb->a->t->strs, "", 0);
    r->shapes = shapes_cell(tb, col[D_SHAPES]);
    at[D_HOST_SELF] = &r->host_self_ns;
    at[D_HOST_TOTAL] = &r->host_total_ns;
    at[D_DEV_SELF] = &r->dev_self_ns;
    at[D_DEV_TOTAL] = &r->dev_total_ns;
    at[D_CUBE_SELF] = &r->cube_self_ns;
    at[D_CUBE_TOTAL] = &r->cube_total_ns;
    for (i = D_HOST_SELF; st == PR_OK && i < D_N; i++)
        st = us_cell(tb, col[i], detail_cols[i], at[i], err);
    return st;
}

enum pr_status
pr_asc_op_details(struct pr_asc *a, struct pr_error *err)
{
    char path[4096];
    struct tab tb;
    int col[D_N], got = 1, i;
    enum pr_status st;

    if (!pr_asc_path(a, "operator_details.csv", path, sizeof(path)))
        return PR_OK;
    st = open_tab(&tb, a, path, err);
    for (i = 0; st == PR_OK && i < D_N; i++)
        col[i] = pr_csv_col(tb.c, detail_cols[i]);
    if (st == PR_OK &&
        (col[D_NAME] < 0 || (col[D_DEV_SELF] < 0 && col[D_HOST_SELF] < 0)))
        st = pr_error_set(err, PR_E_FORMAT,
                          "no Name, Device Self Duration(us) or Host Self "
                          "Duration(us) column: not an operator_details "
                          "table");
    if (st == PR_OK)
        pr_csv_skip_ragged(tb.c, col[D_NAME]);
    while (st == PR_OK && (st = pr_csv_next(tb.c, &got, err)) == PR_OK && got)
        st = detail_row(&tb, col, err);
    if (st == PR_OK && pr_csv_note_ragged(tb.c, a->t, path) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    a->has_op_details = st == PR_OK;
    close_tab(&tb);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

/* ---------------------------------------------------- op_statistic.csv */

enum { S_TYPE, S_CORE, S_COUNT, S_TOTAL, S_MIN, S_MAX, S_RATIO, S_N };

static const char *const stat_cols[S_N] = {
    "OP Type",      "Core Type",    "Count",   "Total Time(us)",
    "Min Time(us)", "Max Time(us)", "Ratio(%)"};

static enum pr_status
stat_row(struct tab *tb, const int *col, struct pr_error *err)
{
    struct pr_op_stat *r = pr_op_stats_add(tb->a->t, PR_OP_STAT_TYPES);
    size_t n;
    const char *s;
    double d;
    enum pr_status st;

    if (r == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    r->name = intern_cell(tb, col[S_TYPE]);
    if (r->name == PR_STR_NONE)
        r->name = pr_strtab_intern(tb->a->t->strs, "", 0);
    r->core = intern_cell(tb, col[S_CORE]);
    s = pr_csv_field(tb->c, col[S_COUNT], &n);
    if (!pr_asc_int(s, n, &r->calls) || r->calls < 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "line %llu: Count is not a count of calls",
                            (unsigned long long)pr_csv_line(tb->c));
    st = us_cell(tb, col[S_TOTAL], stat_cols[S_TOTAL], &r->dev_total_ns, err);
    r->dev_self_ns = r->dev_total_ns; /* a type's tasks have no children */
    if (st == PR_OK)
        st = us_cell(tb, col[S_MIN], stat_cols[S_MIN], &r->min_ns, err);
    if (st == PR_OK)
        st = us_cell(tb, col[S_MAX], stat_cols[S_MAX], &r->max_ns, err);
    s = pr_csv_field(tb->c, col[S_RATIO], &n);
    if (col[S_RATIO] >= 0 && pr_fld_parse_number(s, n, &d) && isfinite(d))
        r->ratio_pct = d;
    return st;
}

enum pr_status
pr_asc_op_types(struct pr_asc *a, struct pr_error *err)
{
    char path[4096];
    struct tab tb;
    int col[S_N], got = 1, i;
    enum pr_status st;

    if (!pr_asc_path(a, "op_statistic.csv", path, sizeof(path)))
        return PR_OK;
    st = open_tab(&tb, a, path, err);
    for (i = 0; st == PR_OK && i < S_N; i++)
        col[i] = pr_csv_col(tb.c, stat_cols[i]);
    if (st == PR_OK &&
        (col[S_TYPE] < 0 || col[S_COUNT] < 0 || col[S_TOTAL] < 0))
        st = pr_error_set(err, PR_E_FORMAT,
                          "no OP Type, Count or Total Time(us) column: not "
                          "an op_statistic table");
    if (st == PR_OK)
        pr_csv_skip_ragged(tb.c, col[S_TYPE]);
    while (st == PR_OK && (st = pr_csv_next(tb.c, &got, err)) == PR_OK && got)
        st = stat_row(&tb, col, err);
    if (st == PR_OK && pr_csv_note_ragged(tb.c, a->t, path) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    a->has_op_types = st == PR_OK;
    close_tab(&tb);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}
