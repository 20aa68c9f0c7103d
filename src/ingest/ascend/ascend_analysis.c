/* ascend_analysis.c - torch_npu's analysis.db beside the SQLite export
 * (export_type=db): the same producer's figures the text export writes as
 * step_trace_time.csv and communication.json, as tables (issue #30):
 *
 *   StepTraceTime          step, computing, communication_not_overlapped,
 *                          overlapped, communication, free, stage, bubble,
 *                          communication_not_overlapped_and_exclude_receive,
 *                          preparing (µs, one row a step)
 *   CommAnalyzerTime       hccl_op_name, group_name, start_timestamp (µs),
 *                          elapse_time, transit_time, wait_time,
 *                          synchronization_time, idle_time (ms), step
 *                          ("step50"), type (collective | p2p)
 *   CommAnalyzerBandwidth  hccl_op_name, group_name, transport_type, step,
 *                          transit_size (MB), transit_time (ms), one row
 *                          per packet size: the operation's size and time
 *                          per link are any of its rows'
 *
 * (msprof-analyze's cluster_analyse reads the same tables; torch_npu's
 * profiler/analysis/prof_view/... DbParser writes them).  Read into the
 * trace's phases (phases.h), as ascend_steps.c and ascend_comm.c read the
 * text files; a table that is absent is left out, a value that is not a
 * number is unknown. */
#include "config.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ascend.h"
#include "ascend_common.h"
#include "profreport/phases.h"

/* Column i as a time: µs x scale (1 µs, 1000 ms); PR_PHASE_UNKNOWN when
 * NULL, text or out of range. */
static int64_t
col_time(sqlite3_stmt *q, int i, double scale)
{
    int64_t ns;
    int ty = sqlite3_column_type(q, i);

    if (ty != SQLITE_INTEGER && ty != SQLITE_FLOAT)
        return PR_PHASE_UNKNOWN;
    if (pr_fld_us_to_ns(sqlite3_column_double(q, i) * scale, &ns) != PR_FLD_OK)
        return PR_PHASE_UNKNOWN;
    return ns;
}

static const char *
col_text(sqlite3_stmt *q, int i)
{
    const unsigned char *s = sqlite3_column_text(q, i);

    return s != NULL ? (const char *)s : "";
}

/* "step50" or 50 -> 50; -1 for anything else. */
static int64_t
col_step(sqlite3_stmt *q, int i)
{
    const char *s;
    int64_t n;

    if (sqlite3_column_type(q, i) == SQLITE_INTEGER)
        return sqlite3_column_int64(q, i) >= 0 ? sqlite3_column_int64(q, i)
                                               : -1;
    s = col_text(q, i);
    if (strncmp(s, "step", 4) == 0)
        s += 4;
    if (*s == '\0' || !pr_fld_parse_int64(s, strlen(s), &n) || n < 0)
        return -1;
    return n;
}

/* The columns of `table` named in cols[0..n) as a select list, the absent
 * ones as NULL; 0 when the table is absent or the text does not fit. */
static int
select_list(sqlite3 *db, const char *table, const char *const *cols, size_t n,
            char *sql, size_t cap)
{
    size_t len, i;
    int k;

    if (pr_sqlite_has_table(db, table) != 1)
        return 0;
    k = snprintf(sql, cap, "SELECT ");
    len = k > 0 ? (size_t)k : cap;
    for (i = 0; i < n && len < cap; i++) {
        int has = pr_sqlite_has_column(db, table, cols[i]) == 1;

        k = snprintf(sql + len, cap - len, "%s%s%s%s", i ? ", " : "",
                     has ? "\"" : "", has ? cols[i] : "NULL", has ? "\"" : "");
        len += k > 0 ? (size_t)k : cap;
    }
    if (len < cap) {
        k = snprintf(sql + len, cap - len, " FROM \"%s\"", table);
        len += k > 0 ? (size_t)k : cap;
    }
    return len < cap;
}

/* The rows of `table` (cols[0..n) as select_list makes them) prepared in
 * *q; *q NULL (and PR_OK) when the table, or its column `key` when one is
 * named, is absent: an export without it is no error. */
static enum pr_status
open_rows(sqlite3 *db, const char *table, const char *const *cols, size_t n,
          const char *key, sqlite3_stmt **q, struct pr_error *err)
{
    char sql[1024];

    *q = NULL;
    if (!select_list(db, table, cols, n, sql, sizeof(sql)) ||
        (key != NULL && pr_sqlite_has_column(db, table, key) != 1))
        return PR_OK;
    if (sqlite3_prepare_v2(db, sql, -1, q, NULL) != SQLITE_OK) {
        *q = NULL;
        return pr_error_set(err, PR_E_FORMAT, "%s: %s", table,
                            sqlite3_errmsg(db));
    }
    return PR_OK;
}

static enum pr_status
step_rows(sqlite3 *db, struct pr_trace *t, struct pr_error *err)
{
    static const char *const cols[] = {
        "step",
        "computing",
        "communication_not_overlapped",
        "overlapped",
        "communication",
        "free",
        "stage",
        "bubble",
        "communication_not_overlapped_and_exclude_receive",
        "preparing"};
    sqlite3_stmt *q;
    enum pr_status st =
        open_rows(db, "StepTraceTime", cols, 10, "computing", &q, err);
    int rc;

    if (st != PR_OK || q == NULL)
        return st;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pr_phase_step *p = pr_phases_add_step(t);

        if (p == NULL) {
            sqlite3_finalize(q);
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        }
        p->number = col_step(q, 0);
        p->computing_ns = col_time(q, 1, 1);
        p->comm_alone_ns = col_time(q, 2, 1);
        p->overlapped_ns = col_time(q, 3, 1);
        p->comm_ns = col_time(q, 4, 1);
        p->free_ns = col_time(q, 5, 1);
        p->stage_ns = col_time(q, 6, 1);
        p->bubble_ns = col_time(q, 7, 1);
        p->comm_excl_recv_ns = col_time(q, 8, 1);
        p->preparing_ns = col_time(q, 9, 1);
        t->phases->steps_source = "analysis.db StepTraceTime";
    }
    sqlite3_finalize(q);
    return rc == SQLITE_DONE
               ? PR_OK
               : pr_error_set(err, PR_E_FORMAT, "StepTraceTime: %s",
                              sqlite3_errmsg(db));
}

/* The operation of (name, group, step) read from CommAnalyzerTime. */
static struct pr_comm_stat *
find_op(struct pr_trace *t, const char *name, const char *group, int64_t step)
{
    struct pr_phases *p = t->phases;
    size_t i;

    for (i = 0; p != NULL && i < p->n_comm; i++) {
        const struct pr_comm_stat *c = &p->comm[i];

        if (c->step == step && c->name != PR_STR_NONE &&
            strcmp(pr_trace_str(t, c->name), name) == 0 &&
            c->group != PR_STR_NONE &&
            strcmp(pr_trace_str(t, c->group), group) == 0)
            return &p->comm[i];
    }
    return NULL;
}

static enum pr_status
time_rows(sqlite3 *db, struct pr_trace *t, struct pr_error *err)
{
    static const char *const cols[] = {
        "hccl_op_name", "group_name", "start_timestamp",      "elapse_time",
        "transit_time", "wait_time",  "synchronization_time", "idle_time",
        "step",         "type"};
    sqlite3_stmt *q;
    enum pr_status st =
        open_rows(db, "CommAnalyzerTime", cols, 10, "hccl_op_name", &q, err);
    int rc;

    if (st != PR_OK || q == NULL)
        return st;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *name = col_text(q, 0), *group = col_text(q, 1);
        struct pr_comm_stat *c = pr_phases_add_comm(t);

        if (c == NULL ||
            (c->name = pr_strtab_intern(t->strs, name, strlen(name))) ==
                PR_STR_NONE ||
            (c->group = pr_strtab_intern(t->strs, group, strlen(group))) ==
                PR_STR_NONE) {
            sqlite3_finalize(q);
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        }
        c->start_ns = col_time(q, 2, 1);
        c->elapse_ns = col_time(q, 3, 1000);
        c->transit_ns = col_time(q, 4, 1000);
        c->wait_ns = col_time(q, 5, 1000);
        c->sync_ns = col_time(q, 6, 1000);
        c->idle_ns = col_time(q, 7, 1000);
        c->step = col_step(q, 8);
        c->p2p = strcmp(col_text(q, 9), "p2p") == 0;
        t->phases->comm_source = "analysis.db CommAnalyzerTime";
    }
    sqlite3_finalize(q);
    return rc == SQLITE_DONE
               ? PR_OK
               : pr_error_set(err, PR_E_FORMAT, "CommAnalyzerTime: %s",
                              sqlite3_errmsg(db));
}

/* Each operation's size per link: SDMA (= HCCS + PCIE + SIO, as msprof
 * sums them), RDMA and the parts, in bytes (transit_size is MB). */
static enum pr_status
bandwidth_rows(sqlite3 *db, struct pr_trace *t, struct pr_error *err)
{
    static const char *const cols[] = {"hccl_op_name", "group_name",
                                       "step",         "transport_type",
                                       "transit_size", "transit_time"};
    sqlite3_stmt *q = NULL;
    enum pr_status st = PR_OK;
    int rc;

    if (t->phases == NULL || t->phases->n_comm == 0)
        return PR_OK;
    st = open_rows(db, "CommAnalyzerBandwidth", cols, 6, NULL, &q, err);
    if (st != PR_OK || q == NULL)
        return st;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pr_comm_stat *c =
            find_op(t, col_text(q, 0), col_text(q, 1), col_step(q, 2));
        const char *link = col_text(q, 3);
        int ty = sqlite3_column_type(q, 4);
        double mb = sqlite3_column_double(q, 4), *to = NULL;
        int64_t *ns = NULL;

        if (c == NULL || (ty != SQLITE_INTEGER && ty != SQLITE_FLOAT) ||
            !isfinite(mb) || mb < 0 || mb > 1e12)
            continue;
        if (strcmp(link, "SDMA") == 0) {
            to = &c->sdma_bytes;
            ns = &c->sdma_ns;
        } else if (strcmp(link, "RDMA") == 0) {
            to = &c->rdma_bytes;
            ns = &c->rdma_ns;
        } else if (strcmp(link, "HCCS") == 0) {
            to = &c->hccs_bytes;
            ns = &c->hccs_ns;
        } else if (strcmp(link, "PCIE") == 0) {
            to = &c->pcie_bytes;
            ns = &c->pcie_ns;
        } else if (strcmp(link, "SIO") == 0) {
            to = &c->sio_bytes;
            ns = &c->sio_ns;
        }
        if (to != NULL && *to < 0) { /* the first of its packet-size rows */
            *to = mb * 1e6;
            /* its Transit Time (ms), which an operation whose own is 0
               is rated over (pr_comm_stat_rated_ns) */
            *ns = col_time(q, 5, 1000);
        }
    }
    sqlite3_finalize(q);
    return rc == SQLITE_DONE
               ? PR_OK
               : pr_error_set(err, PR_E_FORMAT, "CommAnalyzerBandwidth: %s",
                              sqlite3_errmsg(db));
}

enum pr_status
pr_asc_analysis_db(struct pr_trace *t, const char *path, uint64_t max,
                   struct pr_error *err)
{
    sqlite3 *db = NULL;
    enum pr_status st = pr_sqlite_open(path, max, &db, err);

    if (st == PR_OK)
        st = pr_sqlite_allow_rows(db, err);
    if (st == PR_OK)
        st = step_rows(db, t, err);
    if (st == PR_OK)
        st = time_rows(db, t, err);
    if (st == PR_OK)
        st = bandwidth_rows(db, t, err);
    pr_sqlite_close(db);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}
