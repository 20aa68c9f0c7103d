/* ascend_db.c - the SQLite export of the Ascend family: torch_npu's
 * ascend_pytorch_profiler_{rank}.db and msprof's msprof_{ts}.db (spec
 * shared/spec/other-producers.md §2.5).  One database is one rank's run.
 *
 * Every name is an id into STRING_IDS.  Times are ns on the host's Unix
 * clock in every table (PYTORCH_API keeps them as TEXT), so they go into
 * the model as they are.  What becomes what, as the text export's reader
 * (ascend_trace_map.c) does it, so the two give the same report:
 *   PYTORCH_API   operators (type op), task-queue records (queue: kept,
 *                 unmodelled), Python frames (trace), mstx ranges; the
 *                 call stack from PYTORCH_CALLCHAINS
 *   MSTX_EVENTS   mstx ranges (annotations, as NVTX ranges) where
 *                 PYTORCH_API has none
 *   CANN_API      runtime calls of their thread
 *   TASK          a kernel where COMPUTE_TASK_INFO describes it (name,
 *                 Accelerator Core, op type, device shapes) and its
 *                 measured FLOPs where TASK_PMU_INFO has the counters of
 *                 aic_metrics=ArithmeticUtilization (*_cube_fops,
 *                 *_vector_fops, summed as kernel_details.csv's); a copy,
 *                 wait or other task by its task type otherwise, a copy
 *                 with its bytes and direction where MEMCPY_INFO has
 *                 them (as trace_view.json's RTS copy tasks)
 *   TASK_PMU_INFO a kernel's PMU counters (pmu.h), under
 *                 kernel_details.csv's column names and units
 *   COMMUNICATION_OP  the collectives, one device task each; their own
 *                 tasks (COMMUNICATION_TASK_INFO) stay on the timeline
 *                 uncounted, as the collective counts their time, and
 *                 give the per-link traffic (pr_link) and group sizes
 *   OP_MEMORY     allocations and releases, as operator_memory.csv's
 *                 (else MEMORY_RECORD's PTA totals: the curve only; else,
 *                 in msprof's export, NPU_OP_MEM's rows of the session)
 *   MEMORY_RECORD, NPU_MEM (or NPU_OP_MEM)  the components beside PTA
 *                 (GE, PTA+GE, APP), as memory_record.csv's reader keeps
 *                 them
 *   ProfilerStep#N  made torch_npu's device-side steps (device_steps)
 *   RANK_DEVICE_MAP, NPU_INFO  the rank and the device
 * A task reaches its operator by connection id: an operator lists its ids
 * in CONNECTION_IDS, and a zero-length launch ("torch_to_npu") at the
 * operator's start, correlated with the task, lets the op tree attach the
 * task as it does a CUDA launch.  The schema moves between versions
 * (blockDim/blockNum, hf32Eligible, swapped shape and dtype columns in
 * 2025-01's PYTORCH_API): columns are probed, content is checked. */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "../internal.h"
#include "ascend_common.h"
#include "profreport/checked.h"
#include "profreport/formats.h"
#include "profreport/phases.h"
#include "profreport/pmu.h"

/* ENUM_API_TYPE ids of PYTORCH_API rows (stable across versions) */
#define API_OP 50001
#define API_QUEUE 50002
#define API_TRACE 50003
#define API_MSTX 50004

/* What a TASK row is, before its context says more. */
enum task_cls { T_KERNEL, T_COPY, T_SYNC, T_OTHER };

struct i64_pair {
    int64_t k, v;
};

/* PMU counters kept per task (the metric sets write 10 to 30) */
#define MAX_PMU 64

/* A TASK_PMU_INFO name: its column in the trace's table, and the factor
 * to that column's unit. */
struct pmu_col {
    int64_t name;
    int idx;
    double scale;
};

struct adb {
    sqlite3 *db;
    struct pr_trace *t;
    struct pr_sqlite_strings strs;
    struct pr_sqlite_strings api_types;  /* ENUM_API_TYPE */
    struct pr_sqlite_strings hccl_types; /* ENUM_HCCL_DATA_TYPE */
    struct pr_sqlite_strings transports; /* ENUM_HCCL_TRANSPORT_TYPE */
    struct pr_sqlite_strings links;      /* ENUM_HCCL_LINK_TYPE */
    struct pr_buf sql, a, b;
    int64_t device; /* the NPU; -1 until known */
    uint32_t dev_pid;
    struct i64_pair *chains; /* callchainId -> string id, sorted */
    size_t n_chains, cap_chains;
    struct i64_pair *op_stream; /* collective opId -> its stream, sorted */
    size_t n_op_stream, cap_op_stream;
    int64_t *comm_streams; /* sorted: streams of collectives' tasks */
    size_t n_comm_streams, cap_comm_streams;
    int64_t *comm_conns; /* sorted: connection ids of collectives */
    size_t n_comm_conns, cap_comm_conns;
    struct i64_pair *groups; /* group name id -> its ranks, sorted */
    size_t n_groups, cap_groups;
    int64_t world_top;          /* the highest rank a group's tasks name; -1 */
    int has_meta;               /* META_DATA is there with name and value */
    int has_pgi;                /* it holds a parallel_group_info */
    char meta[240];             /* META_DATA's names, ", "-separated, as met */
    struct i64_pair *pmu_tasks; /* globalTaskId -> pr_gpu_info, sorted */
    size_t n_pmu_tasks, cap_pmu_tasks;
    struct pmu_col pmu[MAX_PMU]; /* TASK_PMU_INFO's names, as met */
    size_t n_pmu;
    int has_pmu;                  /* TASK_PMU_INFO is there */
    int has_info;                 /* COMPUTE_TASK_INFO has rows */
    int api_mstx;                 /* PYTORCH_API has mstx ranges */
    int64_t sess_start, sess_end; /* SESSION_TIME_INFO; 0 unknown */
    size_t mstx_outside;          /* mstx ranges outside the session */
    size_t steps;                 /* ProfilerStep#N operators read */
    int64_t main_gtid; /* the thread of the first step (or operator) */
    int64_t chain_id;  /* the call chain being read */
    int64_t last_conn; /* the connection id launched last */
    int64_t *launched; /* sorted: connection ids an operator launched */
    size_t n_launched, cap_launched;
    /* CANN_API's rows, those of the node level (an operator's launch,
       whose connectionId a TASK row shares), their time, and the first
       distinct names with their counts, for the note on an export
       without launches */
    size_t n_cann, n_cann_node;
    int64_t cann_ns;
    struct {
        char name[48];
        size_t n;
    } cann_names[4];
    size_t n_cann_names;
    int cann_more;  /* more names than cann_names holds */
    size_t n_tasks; /* TASK rows read */
    size_t no_info; /* compute tasks COMPUTE_TASK_INFO does not name */
    int64_t no_info_ns;
    size_t mem_rows;
    int64_t last_alloc, last_res; /* the allocator's totals last seen */
    int has_pta;                  /* OP_MEMORY has PyTorch allocator rows */
    /* NPU_OP_MEM: the component whose totals make the curve, its rows and
       the other components' */
    char curve_comp[16];
    int64_t curve_comp_id, curve_rows, other_rows;
    int64_t mem_outside;    /* NPU_OP_MEM rows outside the session */
    int64_t mem_outside_ns; /* the first of them */
    char mem_pid[24], mem_tid[24];
    struct pr_asc_opthreads mem_th; /* OP_MEMORY's records' threads */
    struct pr_sqlite_at at; /* the query's row, and its first bad value */
    struct pr_error *err;
};

/* ------------------------------------------------------------ sniffing */

/* 1 when the database has the Ascend export's tables, 0 when not, -1
 * when it cannot be read. */
static int
is_ascend_db(sqlite3 *db)
{
    int s = pr_sqlite_has_table(db, "STRING_IDS");
    int t = s == 1 ? pr_sqlite_has_table(db, "TASK") : s;

    if (t == 1 && pr_sqlite_has_table(db, "StringIds") == 1)
        return 0; /* an Nsight Systems export that happens to have both */
    return t;
}

/* torch_npu's analysis.db: the SQL twins of step_trace_time.csv and
 * communication(_matrix).json, written next to the run's database. */
static int
is_analysis_db(sqlite3 *db)
{
    int s = pr_sqlite_has_table(db, "StepTraceTime");

    return s == 1 ? pr_sqlite_has_table(db, "CommAnalyzerTime") : s;
}

static enum pr_claim
sniff(const struct pr_probe *p)
{
    sqlite3 *db = NULL;
    struct pr_error e;
    int r = -1;

    if (p->is_dir || p->head == NULL || p->n_head < 16 ||
        memcmp(p->head, "SQLite format 3", 16) != 0)
        return PR_CLAIM_NO;
    pr_error_clear(&e);
    if (pr_sqlite_open(p->path, PR_READ_DEFAULT_MAX, &db, &e) == PR_OK) {
        r = is_ascend_db(db);
        if (r == 0)
            r = is_analysis_db(db);
    }
    pr_sqlite_close(db);
    return r == 1 ? PR_CLAIM_SURE : PR_CLAIM_NO;
}

/* ------------------------------------------------------------ helpers */

static int
cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

    return a < b ? -1 : a > b;
}

static int
has_i64(const int64_t *v, size_t n, int64_t x)
{
    return n > 0 && bsearch(&x, v, n, sizeof(*v), cmp_i64) != NULL;
}

/* Append x to a set kept sorted by the caller's qsort at the end. */
static enum pr_status
push_i64(int64_t **v, size_t *n, size_t *cap, int64_t x)
{
    if (pr_grow((void **)v, cap, *n + 1, sizeof(**v)) != PR_OK)
        return PR_E_NOMEM;
    (*v)[(*n)++] = x;
    return PR_OK;
}

static enum pr_status
push_pair(struct i64_pair **v, size_t *n, size_t *cap, int64_t k, int64_t x)
{
    if (pr_grow((void **)v, cap, *n + 1, sizeof(**v)) != PR_OK)
        return PR_E_NOMEM;
    (*v)[*n].k = k;
    (*v)[(*n)++].v = x;
    return PR_OK;
}

/* The value of key k (pairs sorted by key, first wins); `absent` if none. */
static int64_t
pair_get(const struct i64_pair *v, size_t n, int64_t k, int64_t absent)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (v[mid].k < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].k == k ? v[lo].v : absent;
}

/* An integer column: text or a blob there is bad input (sqlite.c). */
static int64_t
col_i64(struct adb *a, sqlite3_stmt *q, int i, int64_t dflt)
{
    return pr_sqlite_int(&a->at, q, i, dflt);
}

/* A time in ns: an INTEGER, or TEXT holding one (PYTORCH_API), exactly;
 * 0 when absent or text that is no integer (the row is skipped, and
 * counted, as the JSON reader does with a bad ts).  A time beyond the
 * range every reader keeps to (sqlite.c) is bad input: 0, and a->at says
 * so, which ends the read. */
static int
col_ns(struct adb *a, sqlite3_stmt *q, int i, int64_t *ns)
{
    const char *s;

    switch (sqlite3_column_type(q, i)) {
    case SQLITE_NULL:
        return 0;
    case SQLITE_TEXT:
        s = (const char *)sqlite3_column_text(q, i);
        if (s == NULL ||
            !pr_fld_parse_int64(s, (size_t)sqlite3_column_bytes(q, i), ns))
            return 0;
        if (*ns >= -PR_SQLITE_MAX_ABS_NS && *ns <= PR_SQLITE_MAX_ABS_NS)
            return 1;
        pr_sqlite_bad(&a->at, q, i,
                      "is a time beyond the +-2^62 ns (146 years) a time "
                      "may be");
        return 0;
    default:
        *ns = pr_sqlite_time(&a->at, q, i, 0);
        return a->at.st == PR_OK;
    }
}

/* The text of a STRING_IDS id in column i; NULL when absent. */
static const char *
col_str(struct adb *a, sqlite3_stmt *q, int i)
{
    if (sqlite3_column_type(q, i) == SQLITE_NULL)
        return NULL;
    return pr_sqlite_string(&a->strs, col_i64(a, q, i, -1));
}

static uint32_t
intern(struct pr_trace *t, const char *s)
{
    return pr_strtab_intern(t->strs, s ? s : "", s ? strlen(s) : 0);
}

/* A globalTid's process or thread (pid in the high 32 bits) in decimal. */
static void
tid_text(int64_t gtid, int thread, char *buf, size_t cap)
{
    uint64_t g = (uint64_t)gtid;

    snprintf(buf, cap, "%llu",
             (unsigned long long)(thread ? g & 0xFFFFFFFFu : g >> 32));
}

/* ------------------------------------------------------------ queries */

static enum pr_status
db_error(struct adb *a, int rc, const char *what)
{
    char why[512];

    return pr_error_set(a->err, rc == SQLITE_NOMEM ? PR_E_NOMEM : PR_E_FORMAT,
                        "reading %s: %s", what,
                        pr_sqlite_why(a->db, why, sizeof(why)));
}

typedef enum pr_status (*row_fn)(struct adb *a, sqlite3_stmt *q);

/* Run the query in a->sql and hand each row to fn. */
static enum pr_status
each_row(struct adb *a, const char *what, row_fn fn)
{
    sqlite3_stmt *q = NULL;
    enum pr_status st = PR_OK;
    int rc = sqlite3_prepare_v2(a->db, a->sql.data, -1, &q, NULL);

    if (rc != SQLITE_OK) {
        sqlite3_finalize(q);
        return db_error(a, rc, what);
    }
    a->at.what = what;
    a->at.row = 0;
    while (st == PR_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        a->at.row++;
        st = fn(a, q);
        if (st == PR_OK)
            st = a->at.st; /* a value of the row was bad input */
    }
    if (st == PR_OK && rc != SQLITE_DONE)
        st = db_error(a, rc, what);
    sqlite3_finalize(q);
    if (st != PR_OK && !a->err->msg[0])
        pr_error_set(a->err, st, "%s: out of memory", what);
    return st;
}

/* 1 when the table is there, 0 when not; -1 (error set) on a schema
 * that cannot be read. */
static int
table(struct adb *a, const char *name)
{
    int r = pr_sqlite_has_table(a->db, name);

    if (r < 0)
        pr_error_set(a->err, PR_E_FORMAT, "cannot read the schema");
    return r;
}

/* "alias.col" when `tab` has the column, else `dflt`, into the query. */
static enum pr_status
opt_col(struct adb *a, const char *tab, const char *alias, const char *col,
        const char *dflt)
{
    int r = pr_sqlite_has_column(a->db, tab, col);

    if (r < 0)
        return pr_error_set(a->err, PR_E_FORMAT, "%s: cannot read its columns",
                            tab);
    if ((r ? pr_buf_printf(&a->sql, ", %s.%s", alias, col)
           : pr_buf_printf(&a->sql, ", %s", dflt)) != PR_OK)
        return pr_error_set(a->err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

/* Start a->sql with `s`, to be continued (opt_col) and ended (end_sql). */
static enum pr_status
sql_begin(struct adb *a, const char *s)
{
    pr_buf_reset(&a->sql);
    return pr_buf_adds(&a->sql, s) == PR_OK
               ? PR_OK
               : pr_error_set(a->err, PR_E_NOMEM, "out of memory");
}

/* Set a->sql to the text `s` (NUL-terminated). */
static enum pr_status
set_sql(struct adb *a, const char *s)
{
    pr_buf_reset(&a->sql);
    if (pr_buf_adds(&a->sql, s) != PR_OK || pr_buf_addc(&a->sql, '\0') != PR_OK)
        return pr_error_set(a->err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

static enum pr_status
sql_add(struct adb *a, const char *s)
{
    return pr_buf_adds(&a->sql, s) == PR_OK
               ? PR_OK
               : pr_error_set(a->err, PR_E_NOMEM, "out of memory");
}

static enum pr_status
end_sql(struct adb *a, const char *tail)
{
    if (pr_buf_adds(&a->sql, tail) != PR_OK ||
        pr_buf_addc(&a->sql, '\0') != PR_OK)
        return pr_error_set(a->err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

static enum pr_status
oom(struct adb *a)
{
    return pr_error_set(a->err, PR_E_NOMEM, "out of memory");
}

/* ------------------------------------------------------------ the run */

static enum pr_status
on_rank(struct adb *a, sqlite3_stmt *q)
{
    if (a->t->rank < 0) {
        a->t->rank = col_i64(a, q, 0, -1);
        if (a->device < 0)
            a->device = col_i64(a, q, 1, -1);
    }
    return PR_OK;
}

static enum pr_status
on_device(struct adb *a, sqlite3_stmt *q)
{
    if (a->device < 0)
        a->device = col_i64(a, q, 0, -1);
    return PR_OK;
}

/* The rank (RANK_DEVICE_MAP; a database holds one rank's run) and the NPU
 * its tasks ran on. */
static enum pr_status
read_rank(struct adb *a)
{
    enum pr_status st = PR_OK;
    int r = table(a, "RANK_DEVICE_MAP");

    if (r < 0)
        return PR_E_FORMAT;
    if (r == 1 && (st = set_sql(a, "SELECT rankId, deviceId FROM "
                                   "RANK_DEVICE_MAP LIMIT 1")) == PR_OK)
        st = each_row(a, "RANK_DEVICE_MAP", on_rank);
    if (st == PR_OK && a->device < 0 &&
        (st = set_sql(a, "SELECT deviceId FROM TASK WHERE deviceId IS NOT "
                         "NULL LIMIT 1")) == PR_OK)
        st = each_row(a, "TASK", on_device);
    if (st == PR_OK && (a->device < 0 || a->device > INT32_MAX))
        a->device = 0;
    return st;
}

static enum pr_status
on_npu(struct adb *a, sqlite3_stmt *q)
{
    const char *name = (const char *)sqlite3_column_text(q, 1);
    struct pr_device *d;

    if (a->t->n_devices > 0 || col_i64(a, q, 0, -1) != a->device)
        return PR_OK;
    d = pr_trace_add_device(a->t);
    if (d == NULL)
        return oom(a);
    d->id = a->device;
    if (name == NULL || *name == '\0')
        return PR_OK; /* unnamed: as every Ascend reader leaves it */
    d->name = intern(a->t, name);
    return d->name == PR_STR_NONE ? oom(a) : PR_OK;
}

/* The device entry: NPU_INFO's name of the run's NPU ("Ascend910B"). */
static enum pr_status
read_npu(struct adb *a)
{
    enum pr_status st = PR_OK;
    int r = table(a, "NPU_INFO");
    struct pr_device *d;
    char b[24];

    if (r < 0)
        return PR_E_FORMAT;
    if (r == 1 && (st = set_sql(a, "SELECT id, name FROM NPU_INFO")) == PR_OK)
        st = each_row(a, "NPU_INFO", on_npu);
    if (st == PR_OK && a->t->n_devices == 0) {
        if ((d = pr_trace_add_device(a->t)) == NULL)
            return oom(a);
        d->id = a->device; /* NPU_INFO does not name it */
    }
    snprintf(b, sizeof(b), "%lld", (long long)a->device);
    a->dev_pid = intern(a->t, b);
    a->t->vendor = intern(a->t, "huawei");
    a->t->device_kind = intern(a->t, "npu");
    a->t->format = intern(a->t, "ascend_db");
    return st == PR_OK && a->dev_pid != PR_STR_NONE ? st : oom(a);
}

/* ------------------------------------------------------------ collectives */

static enum pr_status
on_comm_task(struct adb *a, sqlite3_stmt *q)
{
    int64_t stream = col_i64(a, q, 0, -1), op = col_i64(a, q, 1, -1);

    if (stream < 0)
        return PR_OK;
    if ((op >= 0 && push_pair(&a->op_stream, &a->n_op_stream, &a->cap_op_stream,
                              op, stream) != PR_OK) ||
        push_i64(&a->comm_streams, &a->n_comm_streams, &a->cap_comm_streams,
                 stream) != PR_OK)
        return oom(a);
    return PR_OK;
}

static enum pr_status
on_comm_conn(struct adb *a, sqlite3_stmt *q)
{
    if (sqlite3_column_type(q, 0) == SQLITE_NULL)
        return PR_OK;
    return push_i64(&a->comm_conns, &a->n_comm_conns, &a->cap_comm_conns,
                    col_i64(a, q, 0, -1)) == PR_OK
               ? PR_OK
               : oom(a);
}

static int
cmp_pair(const void *x, const void *y)
{
    const struct i64_pair *a = x, *b = y;

    return a->k < b->k ? -1 : a->k > b->k;
}

/* Ranks of a group beyond this are not a rank index but a marker
 * (COMMUNICATION_TASK_INFO writes 4294967295 for "no peer"). */
#define MAX_GROUP_RANK ((int64_t)1 << 24)

static enum pr_status
on_group(struct adb *a, sqlite3_stmt *q)
{
    int64_t name = col_i64(a, q, 0, -1), top = col_i64(a, q, 1, -1);

    if (name < 0 || top < 0 || top >= MAX_GROUP_RANK)
        return PR_OK;
    if (top + 1 > a->t->world_size) {
        a->t->world_size = top + 1;
        a->t->world_source = "communication groups";
        a->t->world_floor = 1; /* no table lists a group's members */
    }
    if (top > a->world_top)
        a->world_top = top;
    return push_pair(&a->groups, &a->n_groups, &a->cap_groups, name, top + 1) ==
                   PR_OK
               ? PR_OK
               : oom(a);
}

/* Whether COMMUNICATION_TASK_INFO is there with every column of need:
 * 1 yes, 0 no, -1 the database cannot say. */
static int
task_info_has(struct adb *a, const char *const *need, size_t n)
{
    size_t i;
    int r = table(a, "COMMUNICATION_TASK_INFO");

    for (i = 0; r == 1 && i < n; i++)
        r = pr_sqlite_has_column(a->db, "COMMUNICATION_TASK_INFO", need[i]);
    return r;
}

/* The size of each communication group: one more than the highest rank
 * (0-based, within the group) that its tasks name as source or
 * destination.  No table states a group's size, nor the world's: HCCL's
 * mesh algorithms inside a server (MESH, MESH-RING) address every peer,
 * so there it is exact; a ring addresses its neighbours only, and a rank
 * may then see fewer.  The run's world size is its largest group's (a
 * world group has every rank), so at least the truth. */
static enum pr_status
read_groups(struct adb *a)
{
    static const char *const need[] = {"groupName", "srcRank", "dstRank"};
    int r = task_info_has(a, need, sizeof(need) / sizeof(need[0]));

    if (r <= 0)
        return r < 0 ? PR_E_FORMAT : PR_OK;
    if (set_sql(a, "SELECT groupName, max(r) FROM (SELECT groupName, "
                   "srcRank AS r FROM COMMUNICATION_TASK_INFO WHERE srcRank "
                   "BETWEEN 0 AND 16777215 UNION ALL SELECT groupName, "
                   "dstRank FROM COMMUNICATION_TASK_INFO WHERE dstRank "
                   "BETWEEN 0 AND 16777215) GROUP BY groupName") != PR_OK)
        return PR_E_NOMEM;
    return each_row(a, "COMMUNICATION_TASK_INFO", on_group);
}

/* A name of COMMUNICATION_TASK_INFO: through its ENUM_ table where the
 * export has one (torch_npu), else a STRING_IDS id (msprof). */
static const char *
enum_str(struct adb *a, const struct pr_sqlite_strings *e, sqlite3_stmt *q,
         int i)
{
    if (sqlite3_column_type(q, i) == SQLITE_NULL)
        return "";
    if (e->n > 0) {
        const char *s = pr_sqlite_string(e, col_i64(a, q, i, -1));

        return s ? s : "";
    }
    return col_str(a, q, i) ? col_str(a, q, i) : "";
}

/* COMMUNICATION_TASK_INFO joined with TASK, for the links: these columns. */
enum { L_GROUP, L_SRC, L_DST, L_TRANS, L_LINK, L_SIZE, L_NS, L_TYPE };

/* A task that moved data, as traffic on its link, as msprof-analyze
 * builds analysis.db's CommAnalyzerMatrix from the same rows: the tasks
 * that move data (Memcpy, Reduce_Inline, RDMASend), a peer of 4294967295
 * being the rank itself (LOCAL), an SDMA copy named by its link (HCCS,
 * PCIE, SIO). */
static enum pr_status
on_link(struct adb *a, sqlite3_stmt *q)
{
    const char *tt = col_str(a, q, L_TYPE), *tr, *lk, *name;
    int64_t src = col_i64(a, q, L_SRC, -1), dst = col_i64(a, q, L_DST, -1);
    const char *group = col_str(a, q, L_GROUP);
    struct pr_link k;

    if (tt == NULL || src < 0 || src >= MAX_GROUP_RANK ||
        (strcmp(tt, "Memcpy") != 0 && strcmp(tt, "Reduce_Inline") != 0 &&
         strcmp(tt, "RDMASend") != 0))
        return PR_OK;
    if (dst < 0 || dst >= MAX_GROUP_RANK)
        dst = src;
    tr = enum_str(a, &a->transports, q, L_TRANS);
    lk = enum_str(a, &a->links, q, L_LINK);
    if (dst == src)
        name = "LOCAL";
    else if (strcmp(tr, "RDMA") == 0 || *lk == '\0' ||
             strcmp(lk, "INVALID_TYPE") == 0 || strcmp(lk, "N/A") == 0 ||
             strcmp(lk, "ON_CHIP") == 0)
        name = tr;
    else
        name = lk;
    if (*name == '\0')
        return PR_OK;
    memset(&k, 0, sizeof(k));
    k.src = (int32_t)src;
    k.dst = (int32_t)dst;
    k.group = group ? intern(a->t, group) : PR_STR_NONE;
    k.transport = intern(a->t, name);
    k.bytes = col_i64(a, q, L_SIZE, 0) > 0 ? col_i64(a, q, L_SIZE, 0) : 0;
    k.time_ns = col_i64(a, q, L_NS, 0) > 0 ? col_i64(a, q, L_NS, 0) : 0;
    if ((group && k.group == PR_STR_NONE) || k.transport == PR_STR_NONE ||
        pr_trace_add_link(a->t, &k) != PR_OK)
        return oom(a);
    return PR_OK;
}

/* The per-link traffic of the run's collectives, from their tasks. */
static enum pr_status
read_links(struct adb *a)
{
    static const char *const need[] = {"groupName", "srcRank",  "dstRank",
                                       "size",      "taskType", "transportType",
                                       "linkType"};
    size_t i;
    int r = table(a, "COMMUNICATION_TASK_INFO");
    int et = r == 1 ? table(a, "ENUM_HCCL_TRANSPORT_TYPE") : 0;
    int el = r == 1 ? table(a, "ENUM_HCCL_LINK_TYPE") : 0;
    enum pr_status st = PR_OK;

    for (i = 0; r == 1 && i < sizeof(need) / sizeof(need[0]); i++)
        r = pr_sqlite_has_column(a->db, "COMMUNICATION_TASK_INFO", need[i]);
    if (r <= 0 || et < 0 || el < 0)
        return r < 0 || et < 0 || el < 0 ? PR_E_FORMAT : PR_OK;
    if (et == 1)
        st = pr_sqlite_load_strings(a->db, "ENUM_HCCL_TRANSPORT_TYPE", "id",
                                    "name", &a->transports, a->err);
    if (st == PR_OK && el == 1)
        st = pr_sqlite_load_strings(a->db, "ENUM_HCCL_LINK_TYPE", "id", "name",
                                    &a->links, a->err);
    if (st == PR_OK)
        st = set_sql(a, "SELECT c.groupName, c.srcRank, c.dstRank, "
                        "c.transportType, c.linkType, c.size, t.endNs - "
                        "t.startNs, c.taskType FROM COMMUNICATION_TASK_INFO c "
                        "JOIN TASK t ON t.globalTaskId = c.globalTaskId");
    return st == PR_OK ? each_row(a, "COMMUNICATION_TASK_INFO", on_link) : st;
}

/* COMMUNICATION_TASK_INFO joined with TASK, for the peers: these
 * columns. */
enum { H_SRC, H_DST, H_TYPE, H_START, H_END };

static enum pr_status
on_hccl_peer(struct adb *a, sqlite3_stmt *q)
{
    const char *tt = col_str(a, q, H_TYPE);
    int64_t s, e;

    if (tt == NULL || !col_ns(a, q, H_START, &s) || !col_ns(a, q, H_END, &e))
        return PR_OK;
    return pr_ascend_hccl_peer(a->t, tt, col_i64(a, q, H_SRC, -1),
                               col_i64(a, q, H_DST, -1), s,
                               e > s ? e - s : 0) == PR_OK
               ? PR_OK
               : oom(a);
}

/* The HCCL tasks that name a peer, for the critical path's peer waits
 * (which rank a collective waited for before its first transfer). */
static enum pr_status
read_hccl_peers(struct adb *a)
{
    static const char *const need[] = {"srcRank", "dstRank", "taskType"};
    int r = task_info_has(a, need, sizeof(need) / sizeof(need[0]));

    if (r <= 0)
        return r < 0 ? PR_E_FORMAT : PR_OK;
    if (set_sql(a, "SELECT c.srcRank, c.dstRank, c.taskType, t.startNs, "
                   "t.endNs FROM COMMUNICATION_TASK_INFO c JOIN TASK t ON "
                   "t.globalTaskId = c.globalTaskId") != PR_OK)
        return PR_E_NOMEM;
    return each_row(a, "COMMUNICATION_TASK_INFO", on_hccl_peer);
}

/* The streams HCCL's tasks run on (a copy or a compute task there is part
 * of a collective), each collective's stream, and the connection ids of
 * the collectives (their device-side twin tasks share them). */
static enum pr_status
index_comm(struct adb *a)
{
    enum pr_status st = PR_OK;
    int ct = table(a, "COMMUNICATION_TASK_INFO"),
        co = table(a, "COMMUNICATION_OP");

    if (ct < 0 || co < 0)
        return PR_E_FORMAT;
    if (ct == 1) {
        st = sql_begin(a, "SELECT t.streamId");
        if (st == PR_OK)
            st = opt_col(a, "COMMUNICATION_TASK_INFO", "c", "opId", "NULL");
        if (st == PR_OK)
            st = end_sql(a, " FROM COMMUNICATION_TASK_INFO c JOIN TASK t "
                            "ON t.globalTaskId = c.globalTaskId");
        if (st == PR_OK)
            st = each_row(a, "COMMUNICATION_TASK_INFO", on_comm_task);
    }
    if (st == PR_OK && co == 1 &&
        (st = set_sql(a, "SELECT connectionId FROM COMMUNICATION_OP")) == PR_OK)
        st = each_row(a, "COMMUNICATION_OP", on_comm_conn);
    if (st == PR_OK)
        st = read_groups(a);
    if (a->n_groups > 0)
        qsort(a->groups, a->n_groups, sizeof(*a->groups), cmp_pair);
    if (a->n_op_stream > 0)
        qsort(a->op_stream, a->n_op_stream, sizeof(*a->op_stream), cmp_pair);
    if (a->n_comm_streams > 0)
        qsort(a->comm_streams, a->n_comm_streams, sizeof(int64_t), cmp_i64);
    if (a->n_comm_conns > 0)
        qsort(a->comm_conns, a->n_comm_conns, sizeof(int64_t), cmp_i64);
    return st;
}

/* ------------------------------------------------------------ host */

/* One call chain so far (a->a) as the string id of its text. */
static enum pr_status
flush_chain(struct adb *a, int64_t id)
{
    uint32_t s;

    if (id < 0 || a->a.len == 0)
        return PR_OK;
    s = pr_strtab_intern(a->t->strs, a->a.data, a->a.len);
    if (s == PR_STR_NONE ||
        push_pair(&a->chains, &a->n_chains, &a->cap_chains, id, s) != PR_OK)
        return oom(a);
    pr_buf_reset(&a->a);
    return PR_OK;
}

/* Frames come innermost first (stackDepth 0); the text is torch_npu's
 * "Call stack": each frame ended by ";\r\n". */
static enum pr_status
on_frame(struct adb *a, sqlite3_stmt *q)
{
    int64_t id = col_i64(a, q, 0, -1);
    const char *f = col_str(a, q, 1);

    if (id != a->chain_id && flush_chain(a, a->chain_id) != PR_OK)
        return PR_E_NOMEM;
    a->chain_id = id;
    if (id < 0 || f == NULL || *f == '\0')
        return PR_OK;
    if (pr_buf_adds(&a->a, f) != PR_OK || pr_buf_adds(&a->a, ";\r\n") != PR_OK)
        return pr_error_set(a->err, PR_E_LIMIT, "a call stack too large");
    return PR_OK;
}

static enum pr_status
read_chains(struct adb *a)
{
    enum pr_status st;
    int r = table(a, "PYTORCH_CALLCHAINS");

    if (r <= 0)
        return r < 0 ? PR_E_FORMAT : PR_OK;
    a->chain_id = -1;
    pr_buf_reset(&a->a);
    st = set_sql(a, "SELECT id, stack FROM PYTORCH_CALLCHAINS "
                    "ORDER BY id, stackDepth");
    if (st == PR_OK)
        st = each_row(a, "PYTORCH_CALLCHAINS", on_frame);
    if (st == PR_OK)
        st = flush_chain(a, a->chain_id);
    if (st == PR_OK && a->n_chains > 0)
        qsort(a->chains, a->n_chains, sizeof(*a->chains), cmp_pair);
    return st;
}

/* PYTORCH_API's columns, in this order; the optional ones read as NULL
 * where a version lacks them. */
enum {
    P_START,
    P_END,
    P_GTID,
    P_NAME,
    P_TYPE,
    P_SEQ,
    P_FWD,
    P_SHAPES,
    P_DTYPES,
    P_CHAIN,
    P_QUEUE /* a queue row's entry number (read_api); NULL */
};

static int
has_alpha(const char *s)
{
    for (; s != NULL && *s; s++)
        if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z'))
            return 1;
    return 0;
}

/* A list column as the model's text (a->a shapes, a->b types); NULL when
 * absent or not such a list. */
static const char *
list_text(struct pr_buf *out, const char *s, int shapes)
{
    int r;

    if (s == NULL)
        return NULL;
    pr_buf_reset(out);
    r = shapes ? pr_ascend_shapes(s, strlen(s), out)
               : pr_ascend_names(s, strlen(s), 0, out);
    if (r <= 0 || pr_buf_addc(out, '\0') != PR_OK)
        return NULL;
    return out->data;
}

/* An operator's inputs.  2025-01's writer stored the dtypes under
 * inputShapes and the shapes under inputDtypes: names hold letters,
 * shapes never do, so the content says which is which. */
static void
op_inputs(struct adb *a, sqlite3_stmt *q, struct pr_op_desc *d)
{
    const char *dims = col_str(a, q, P_SHAPES),
               *types = col_str(a, q, P_DTYPES);

    if (has_alpha(dims) && !has_alpha(types)) {
        const char *x = dims;

        dims = types;
        types = x;
    }
    d->dims = list_text(&a->a, dims, 1);
    d->types = list_text(&a->b, types, 0);
}

static enum pr_kind
api_kind(int64_t type, const char **cat)
{
    switch (type) {
    case API_OP:
        *cat = "cpu_op";
        return PR_KIND_HOST_OP;
    case API_TRACE:
        *cat = "python_function";
        return PR_KIND_PY_FUNCTION;
    case API_MSTX:
        *cat = "mstx";
        return PR_KIND_ANNOTATION;
    case API_QUEUE:
        *cat = "queue"; /* the task queue's enqueue and dequeue */
        return PR_KIND_OTHER;
    default:
        *cat = "";
        return PR_KIND_OTHER;
    }
}

/* Start, duration and thread of a row; 0 (counted) when its times are
 * not integers. */
static int
row_span(struct adb *a, sqlite3_stmt *q, int c_start, int c_end,
         struct pr_span *s)
{
    int64_t end;

    if (!col_ns(a, q, c_start, &s->ts_ns) || !col_ns(a, q, c_end, &end)) {
        a->t->diag.skipped_bad_ts++;
        return 0;
    }
    if (end < s->ts_ns) {
        a->t->diag.negative_dur++;
        end = s->ts_ns;
    }
    s->dur_ns = pr_sat_sub_i64(end, s->ts_ns);
    s->external_id = s->correlation = PR_NO_ID;
    a->t->n_trace_events++;
    return 1;
}

static enum pr_status
add_api_op(struct adb *a, sqlite3_stmt *q, enum pr_kind k,
           const struct pr_span *s)
{
    struct pr_op_desc d;
    size_t idx;
    int64_t chain = col_i64(a, q, P_CHAIN, -1);
    struct pr_op_info *op;

    memset(&d, 0, sizeof(d));
    d.seq = col_i64(a, q, P_SEQ, -1);
    d.fwd_tid = col_i64(a, q, P_FWD, -1);
    d.flops = -1;
    if (k == PR_KIND_HOST_OP)
        op_inputs(a, q, &d);
    if (pr_trace_add_host_op(a->t, k, s, &d, &idx) != PR_OK)
        return oom(a);
    op = pr_trace_op_edit(a->t, a->t->events[idx].info);
    if (op == NULL)
        return oom(a);
    op->stack = (uint32_t)pair_get(a->chains, a->n_chains, chain, PR_STR_NONE);
    /* an nn.Module's range (with_modules): the export keeps no Python ids,
       and the text export gives every module id 0; its nesting is by time */
    if (k == PR_KIND_PY_FUNCTION && s->name != NULL &&
        strncmp(s->name, "nn.Module: ", 11) == 0 &&
        pr_trace_set_py(a->t, a->t->events[idx].info, -1, -1, 0) != PR_OK)
        return oom(a);
    return PR_OK;
}

static enum pr_status
on_api(struct adb *a, sqlite3_stmt *q)
{
    struct pr_span s;
    char pid[24], tid[24];
    int64_t gtid = col_i64(a, q, P_GTID, 0);
    enum pr_kind k;

    memset(&s, 0, sizeof(s));
    k = api_kind(col_i64(a, q, P_TYPE, API_OP), &s.cat);
    if (!row_span(a, q, P_START, P_END, &s))
        return PR_OK;
    tid_text(gtid, 0, pid, sizeof(pid));
    tid_text(gtid, 1, tid, sizeof(tid));
    s.pid = pid;
    s.tid = tid;
    s.name = col_str(a, q, P_NAME);
    if (k == PR_KIND_HOST_OP && s.name != NULL &&
        strncmp(s.name, "ProfilerStep#", 13) == 0 && a->steps++ == 0)
        a->main_gtid = gtid;
    if (k == PR_KIND_HOST_OP && a->main_gtid == INT64_MIN)
        a->main_gtid = gtid;
    if (k == PR_KIND_HOST_OP || k == PR_KIND_PY_FUNCTION)
        return add_api_op(a, q, k, &s);
    /* a task-queue Enqueue / Dequeue@<op>: its entry's number pairs the
       two (critpath.c), as args.correlation_id does in trace_view.json */
    s.correlation = col_i64(a, q, P_QUEUE, PR_NO_ID);
    return pr_trace_add_span(a->t, k, &s, NULL) == PR_OK ? PR_OK : oom(a);
}

static enum pr_status
read_api(struct adb *a)
{
    static const char *const opt[] = {"type",        "sequenceNumber",
                                      "fwdThreadId", "inputShapes",
                                      "inputDtypes", "callchainId"};
    enum pr_status st;
    size_t i;
    int r = table(a, "PYTORCH_API"), q;

    if (r <= 0)
        return r < 0 ? PR_E_FORMAT : PR_OK;
    st = read_chains(a);
    if (st == PR_OK)
        st = sql_begin(a, "SELECT p.startNs, p.endNs, p.globalTid, p.name");
    for (i = 0; st == PR_OK && i < sizeof(opt) / sizeof(opt[0]); i++)
        st = opt_col(a, "PYTORCH_API", "p", opt[i], "NULL");
    /* torch_npu numbers each task-queue entry when it is enqueued and
       writes the number on its Enqueue and Dequeue@<op> rows (queue
       type) as the one CONNECTION_IDS row of their connectionId (both
       ranks of torch_npu/db_level1: 159 pairs, the queue's FIFO order) */
    q = pr_sqlite_has_column(a->db, "PYTORCH_API", "connectionId") > 0 &&
        pr_sqlite_has_column(a->db, "PYTORCH_API", "type") > 0 &&
        table(a, "CONNECTION_IDS") > 0;
    if (st == PR_OK)
        st = sql_add(a, q ? ", qn.c" : ", NULL");
    if (st == PR_OK)
        st = end_sql(
            a,
            q ? " FROM PYTORCH_API p LEFT JOIN (SELECT id, "
                "MIN(connectionId) AS c FROM CONNECTION_IDS "
                "GROUP BY id HAVING COUNT(*) = 1) qn ON p.type " /* API_QUEUE */
                "= 50002 AND qn.id = p.connectionId"
              : " FROM PYTORCH_API p");
    return st == PR_OK ? each_row(a, "PYTORCH_API", on_api) : st;
}

/* ------------------------------------------------------------ mstx */

/* MSTX_EVENTS' columns, in this order. */
enum { X_START, X_END, X_GTID, X_MSG };

static enum pr_status
on_mstx(struct adb *a, sqlite3_stmt *q)
{
    struct pr_span s;
    char pid[24], tid[24];
    int64_t gtid = col_i64(a, q, X_GTID, 0);

    if (sqlite3_column_type(q, X_END) == SQLITE_NULL) {
        a->t->diag.skipped_no_dur++; /* a range the capture ended inside */
        return PR_OK;
    }
    memset(&s, 0, sizeof(s));
    if (!row_span(a, q, X_START, X_END, &s))
        return PR_OK;
    if (a->sess_end > a->sess_start &&
        (s.ts_ns > a->sess_end ||
         pr_sat_add_i64(s.ts_ns, s.dur_ns) < a->sess_start)) {
        a->mstx_outside++;
        return PR_OK;
    }
    tid_text(gtid, 0, pid, sizeof(pid));
    tid_text(gtid, 1, tid, sizeof(tid));
    s.pid = pid;
    s.tid = tid;
    s.cat = "mstx";
    s.name = col_str(a, q, X_MSG);
    if (s.name == NULL || s.name[0] == '\0')
        s.name = "(unnamed range)";
    return pr_trace_add_span(a->t, PR_KIND_ANNOTATION, &s, NULL) == PR_OK
               ? PR_OK
               : oom(a);
}

static enum pr_status
on_session(struct adb *a, sqlite3_stmt *q)
{
    a->sess_start = col_i64(a, q, 0, 0);
    a->sess_end = col_i64(a, q, 1, 0);
    return PR_OK;
}

static enum pr_status
on_api_mstx(struct adb *a, sqlite3_stmt *q)
{
    (void)q;
    a->api_mstx = 1;
    return PR_OK;
}

/* mstx ranges (the NVTX of CANN: mstxRangeStart/End, mstxRangePush/Pop)
 * from MSTX_EVENTS, as annotations on their thread, as an Nsight export's
 * NVTX ranges are: eventType 1 (push/pop) and 2 (start/end); markers (0,
 * 3) are instants and left out, as NVTX markers are, and so are ranges
 * outside the profiling session (SESSION_TIME_INFO), which are not of
 * this capture.  torch_npu also
 * writes its own mstx ranges into PYTORCH_API (type mstx): a database
 * that has those is read from there alone, so no range counts twice. */
static enum pr_status
read_mstx(struct adb *a)
{
    enum pr_status st = PR_OK;
    int r = table(a, "MSTX_EVENTS"), p = r == 1 ? table(a, "PYTORCH_API") : 0;

    if (r <= 0 || p < 0)
        return r < 0 || p < 0 ? PR_E_FORMAT : PR_OK;
    if (p == 1 && pr_sqlite_has_column(a->db, "PYTORCH_API", "type") == 1 &&
        (st = set_sql(a, "SELECT 1 FROM PYTORCH_API WHERE type = 50004 "
                         "LIMIT 1")) == PR_OK)
        st = each_row(a, "PYTORCH_API", on_api_mstx);
    if (st != PR_OK || a->api_mstx)
        return st;
    r = table(a, "SESSION_TIME_INFO");
    if (r == 1 && (st = set_sql(a, "SELECT startTimeNs, endTimeNs FROM "
                                   "SESSION_TIME_INFO LIMIT 1")) == PR_OK)
        st = each_row(a, "SESSION_TIME_INFO", on_session);
    if (st != PR_OK || r < 0)
        return r < 0 ? PR_E_FORMAT : st;
    st = set_sql(a, "SELECT startNs, endNs, globalTid, message FROM "
                    "MSTX_EVENTS WHERE eventType IN (1, 2) ORDER BY startNs");
    return st == PR_OK ? each_row(a, "MSTX_EVENTS", on_mstx) : st;
}

/* A zero-length launch where an operator that connects to device work
 * starts, correlated with that work (one per connection id). */
static enum pr_status
on_launch(struct adb *a, sqlite3_stmt *q)
{
    struct pr_span s;
    char pid[24], tid[24];
    int64_t gtid = col_i64(a, q, 1, 0), conn = col_i64(a, q, 2, -1);

    memset(&s, 0, sizeof(s));
    if (!col_ns(a, q, 0, &s.ts_ns) || conn < 0 || conn == a->last_conn)
        return PR_OK;
    a->last_conn = conn;
    if (push_i64(&a->launched, &a->n_launched, &a->cap_launched, conn) != PR_OK)
        return oom(a);
    tid_text(gtid, 0, pid, sizeof(pid));
    tid_text(gtid, 1, tid, sizeof(tid));
    s.name = "torch_to_npu";
    s.cat = "async_npu";
    s.pid = pid;
    s.tid = tid;
    s.external_id = PR_NO_ID;
    s.correlation = conn;
    return pr_trace_add_span(a->t, PR_KIND_RUNTIME_CALL, &s, NULL) == PR_OK
               ? PR_OK
               : oom(a);
}

static enum pr_status
read_launches(struct adb *a)
{
    int ci = table(a, "CONNECTION_IDS"), co = table(a, "COMMUNICATION_OP");
    int pc = pr_sqlite_has_column(a->db, "PYTORCH_API", "connectionId");
    int ty = pr_sqlite_has_column(a->db, "PYTORCH_API", "type");
    enum pr_status st;

    if (ci < 0 || co < 0 || pc < 0 || ty < 0)
        return pr_error_set(a->err, PR_E_FORMAT, "cannot read the schema");
    if (ci == 0 || pc == 0)
        return PR_OK;
    a->last_conn = -1;
    st = sql_begin(a, "SELECT p.startNs, p.globalTid, c.connectionId FROM "
                      "PYTORCH_API p JOIN CONNECTION_IDS c ON c.id = "
                      "p.connectionId WHERE (c.connectionId IN (SELECT "
                      "connectionId FROM TASK)");
    if (st == PR_OK && co == 1)
        st = sql_add(a, " OR c.connectionId IN (SELECT connectionId FROM "
                        "COMMUNICATION_OP)");
    if (st == PR_OK && ty == 1)
        st = sql_add(a, ") AND (p.type = 50001 OR p.type IS NULL");
    if (st == PR_OK)
        st = end_sql(a, ") ORDER BY c.connectionId, p.startNs");
    return st == PR_OK ? each_row(a, "CONNECTION_IDS", on_launch) : st;
}

/* A CANN_API row in the counts the launches note reads. */
static void
count_cann(struct adb *a, const struct pr_span *s)
{
    size_t i;

    a->n_cann++;
    a->cann_ns += s->dur_ns;
    if (s->cat != NULL && strcmp(s->cat, "node") == 0)
        a->n_cann_node++;
    for (i = 0; i < a->n_cann_names; i++)
        if (strcmp(a->cann_names[i].name, s->name ? s->name : "") == 0)
            break;
    if (i == a->n_cann_names &&
        i < sizeof(a->cann_names) / sizeof(a->cann_names[0])) {
        snprintf(a->cann_names[i].name, sizeof(a->cann_names[i].name), "%s",
                 s->name ? s->name : "");
        a->n_cann_names++;
    }
    if (i < a->n_cann_names)
        a->cann_names[i].n++;
    else
        a->cann_more = 1;
}

static enum pr_status
on_cann(struct adb *a, sqlite3_stmt *q)
{
    struct pr_span s;
    char pid[24], tid[24];
    int64_t gtid = col_i64(a, q, 2, 0), conn = col_i64(a, q, 5, -1);

    memset(&s, 0, sizeof(s));
    if (!row_span(a, q, 0, 1, &s))
        return PR_OK;
    tid_text(gtid, 0, pid, sizeof(pid));
    tid_text(gtid, 1, tid, sizeof(tid));
    s.pid = pid;
    s.tid = tid;
    s.name = col_str(a, q, 3);
    s.cat = sqlite3_column_type(q, 4) == SQLITE_NULL
                ? NULL
                : pr_sqlite_string(&a->api_types, col_i64(a, q, 4, -1));
    count_cann(a, &s);
    if (conn >= 0 && !has_i64(a->launched, a->n_launched, conn) &&
        pr_ascend_api_launches(s.name))
        s.correlation = conn;
    if (s.correlation == PR_NO_ID && conn >= 0 &&
        pr_ascend_api_launches(s.name)) {
        /* an operator's work, launched here: by the task-queue thread
           where TASK_QUEUE_ENABLE is on (pr_queue_launch) */
        struct pr_queue_launch ql;

        ql.corr = conn;
        ql.ts_ns = s.ts_ns;
        ql.bare = 0; /* this CANN_API row is the call */
        ql.pid = pr_strtab_intern(a->t->strs, pid, strlen(pid));
        ql.tid = pr_strtab_intern(a->t->strs, tid, strlen(tid));
        if (ql.pid == PR_STR_NONE || ql.tid == PR_STR_NONE ||
            pr_trace_add_qlaunch(a->t, &ql) != PR_OK)
            return oom(a);
    }
    return pr_trace_add_span(a->t, PR_KIND_RUNTIME_CALL, &s, NULL) == PR_OK
               ? PR_OK
               : oom(a);
}

/* CANN's API (acl, node, runtime, hccl levels): runtime calls of their
 * thread, with their real durations.  A call whose device work no
 * operator launched (an aclrtMemcpyAsync of aten::to) is that work's
 * launch; the others leave it to the operator's launch, as one
 * correlation id must have one launch. */
static enum pr_status
read_cann(struct adb *a)
{
    enum pr_status st;
    int r = table(a, "CANN_API");

    if (r <= 0)
        return r < 0 ? PR_E_FORMAT : PR_OK;
    st = sql_begin(a, "SELECT c.startNs, c.endNs, c.globalTid, c.name");
    if (st == PR_OK)
        st = opt_col(a, "CANN_API", "c", "type", "NULL");
    if (st == PR_OK)
        st = opt_col(a, "CANN_API", "c", "connectionId", "NULL");
    if (st == PR_OK)
        st = end_sql(a, " FROM CANN_API c");
    return st == PR_OK ? each_row(a, "CANN_API", on_cann) : st;
}

/* ------------------------------------------------------------ device */

/* The columns of the TASK query, in this order. */
enum {
    K_START,
    K_END,
    K_DEV,
    K_CONN,
    K_TYPE,
    K_STREAM,
    K_TASKID,
    K_NAME,
    K_CORE,
    K_OPTYPE,
    K_SHAPES,
    K_DTYPES,
    K_HF32,
    K_BLOCK,
    K_COMM,
    K_FOPS,
    K_GTID,
    K_MSIZE, /* MEMCPY_INFO's size (bytes); NULL without the table */
    K_MOP    /* its memcpyOperation: ENUM_MEMCPY_OPERATION's name, or the
                id where the export has no such table */
};

static enum task_cls
task_cls(const char *tt)
{
    /* ascend_common.c's table names the runtime's task types too */
    switch (pr_ascend_task_class(tt)) {
    case PR_ASCEND_TASK_COPY:
        return T_COPY;
    case PR_ASCEND_TASK_SYNC:
        return T_SYNC;
    case PR_ASCEND_TASK_COMM:
        return T_OTHER; /* COMMUNICATION_OP rows are the collectives */
    case PR_ASCEND_TASK_OTHER:
        return T_OTHER;
    case PR_ASCEND_TASK_COMPUTE:
    default:
        return T_KERNEL;
    }
}

/* What a TASK row is.  COMPUTE_TASK_INFO names the kernels, as it names
 * the rows of kernel_details.csv; a task of HCCL (listed in
 * COMMUNICATION_TASK_INFO, on its streams or sharing a collective's
 * connection) is part of the collective, whose row counts its time.  A
 * compute task the info table does not name is kept, uncounted, when the
 * table names others. */
static enum pr_kind
task_kind(struct adb *a, sqlite3_stmt *q, const char *tt, int64_t stream)
{
    enum task_cls c = task_cls(tt);
    int comm =
        sqlite3_column_int64(q, K_COMM) != 0 ||
        has_i64(a->comm_conns, a->n_comm_conns, col_i64(a, q, K_CONN, -1)) ||
        has_i64(a->comm_streams, a->n_comm_streams, stream);

    if (sqlite3_column_type(q, K_NAME) != SQLITE_NULL)
        return PR_KIND_DEVICE_TASK;
    if (c == T_SYNC) /* a stream's wait, not the host's */
        return PR_KIND_DEVICE_SYNC;
    if (comm || c == T_OTHER)
        return PR_KIND_OTHER;
    if (c == T_COPY)
        return PR_KIND_COPY;
    return a->has_info ? PR_KIND_OTHER : PR_KIND_DEVICE_TASK;
}

/* HF32 Eligible: "YES"/"NO" as a string id, or 1/0. */
static int8_t
hf32_of(struct adb *a, sqlite3_stmt *q)
{
    const char *s = col_str(a, q, K_HF32);
    int64_t v = col_i64(a, q, K_HF32, -1);

    if (s != NULL && (strcmp(s, "YES") == 0 || strcmp(s, "NO") == 0))
        return s[0] == 'Y';
    return v == 0 || v == 1 ? (int8_t)v : -1;
}

/* A string id for optional text: PR_STR_NONE stays for absent text;
 * *bad is set when interning fails. */
static uint32_t
opt_intern(struct pr_trace *t, const char *s, int *bad)
{
    uint32_t id;

    if (s == NULL)
        return PR_STR_NONE;
    id = intern(t, s);
    *bad |= id == PR_STR_NONE;
    return id;
}

/* What COMPUTE_TASK_INFO says of a kernel, onto its side record. */
static enum pr_status
kernel_info(struct adb *a, sqlite3_stmt *q, struct pr_gpu_info *g,
            const char *tt)
{
    const char *core = col_str(a, q, K_CORE), *v;
    struct pr_trace *t = a->t;
    int64_t v64;
    int bad = 0;

    g->task_id = col_i64(a, q, K_TASKID, -1);
    if (sqlite3_column_type(q, K_FOPS) != SQLITE_NULL &&
        sqlite3_column_double(q, K_FOPS) >= 0)
        g->measured_flops = sqlite3_column_double(q, K_FOPS);
    g->task_type = opt_intern(t, core ? core : tt, &bad);
    g->unit = (uint8_t)pr_ascend_unit(core ? core : tt);
    g->hf32 = hf32_of(a, q);
    v64 = col_i64(a, q, K_BLOCK, -1);
    if (v64 >= 0 && v64 <= INT32_MAX)
        g->block_dim = (int32_t)v64;
    g->op_type = opt_intern(t, col_str(a, q, K_OPTYPE), &bad);
    g->dev_shapes =
        opt_intern(t, list_text(&a->a, col_str(a, q, K_SHAPES), 1), &bad);
    pr_buf_reset(&a->b);
    v = col_str(a, q, K_DTYPES);
    if (v != NULL && pr_ascend_names(v, strlen(v), 1, &a->b) > 0 &&
        pr_buf_addc(&a->b, '\0') == PR_OK)
        g->dev_types = opt_intern(t, a->b.data, &bad);
    return bad ? oom(a) : PR_OK;
}

/* A copy task's bytes and direction from MEMCPY_INFO (CANN 8.1's db,
 * as trace_view.json's "data size(Byte)" and "memcpy direction" give
 * them to the text export's reader): its memcpyOperation by
 * ENUM_MEMCPY_OPERATION's name, else by the enum's documented ids. */
static void
copy_info(struct adb *a, sqlite3_stmt *q, struct pr_gpu_info *g)
{
    static const char *const ops[] = {
        "host to host",      "host to device",   "device to host",
        "device to device",  "managed memory",   "addr device to device",
        "host to device ex", "device to host ex"};
    int64_t size = col_i64(a, q, K_MSIZE, -1), op;
    const char *d = NULL;

    if (sqlite3_column_type(q, K_MOP) == SQLITE_TEXT)
        d = (const char *)sqlite3_column_text(q, K_MOP);
    else if ((op = col_i64(a, q, K_MOP, -1)) >= 0 &&
             op < (int64_t)(sizeof(ops) / sizeof(ops[0])))
        d = ops[op];
    if (size >= 0 && sqlite3_column_type(q, K_MSIZE) != SQLITE_NULL)
        g->bytes = size;
    g->copy_dir = (uint8_t)pr_ascend_copy_dir(d);
}

static enum pr_status
on_task(struct adb *a, sqlite3_stmt *q)
{
    struct pr_span s;
    struct pr_task_desc d = pr_trace_task_desc();
    const char *tt = col_str(a, q, K_TYPE), *name = col_str(a, q, K_NAME);
    int64_t stream = col_i64(a, q, K_STREAM, -1),
            dev = col_i64(a, q, K_DEV, -1);
    char tid[24];
    enum pr_kind k;
    size_t idx;

    memset(&s, 0, sizeof(s));
    if (!row_span(a, q, K_START, K_END, &s))
        return PR_OK;
    a->n_tasks++;
    k = task_kind(a, q, tt ? tt : "", stream);
    if (k == PR_KIND_OTHER && name == NULL && a->has_info &&
        task_cls(tt ? tt : "") == T_KERNEL &&
        sqlite3_column_int64(q, K_COMM) == 0 &&
        !has_i64(a->comm_streams, a->n_comm_streams, stream) &&
        !has_i64(a->comm_conns, a->n_comm_conns, col_i64(a, q, K_CONN, -1))) {
        a->no_info++;
        a->no_info_ns = pr_sat_add_i64(a->no_info_ns, s.dur_ns);
    }
    snprintf(tid, sizeof(tid), "%lld", (long long)stream);
    s.name = name ? name : tt;
    s.cat = col_str(a, q, K_CORE) ? col_str(a, q, K_CORE) : tt;
    s.pid = pr_trace_str(a->t, a->dev_pid);
    s.tid = tid;
    if (k != PR_KIND_DEVICE_TASK && k != PR_KIND_COPY)
        return pr_trace_add_span(a->t, k, &s, NULL) == PR_OK ? PR_OK : oom(a);
    s.correlation = col_i64(a, q, K_CONN, PR_NO_ID);
    d.device = (int32_t)(dev >= 0 && dev <= INT32_MAX ? dev : a->device);
    d.stream = (int32_t)(stream >= 0 && stream <= INT32_MAX ? stream : -1);
    if (pr_trace_add_task(a->t, k, &s, &d, &idx) != PR_OK)
        return oom(a);
    if (k == PR_KIND_COPY)
        copy_info(a, q, &a->t->gpu[a->t->events[idx].info]);
    if (a->has_pmu && k == PR_KIND_DEVICE_TASK &&
        push_pair(&a->pmu_tasks, &a->n_pmu_tasks, &a->cap_pmu_tasks,
                  col_i64(a, q, K_GTID, -1), a->t->events[idx].info) != PR_OK)
        return oom(a);
    return kernel_info(a, q, &a->t->gpu[a->t->events[idx].info], tt ? tt : "");
}

/* 1 when COMPUTE_TASK_INFO has rows. */
static enum pr_status
on_any(struct adb *a, sqlite3_stmt *q)
{
    (void)q;
    a->has_info = 1;
    return PR_OK;
}

static enum pr_status
task_sql(struct adb *a, int info, int comm, int pmu, int mem, int mem_enum)
{
    static const char *const cols[] = {
        "name",           "taskType",     "opType",  "inputShapes",
        "inputDataTypes", "hf32Eligible", "blockDim"};
    enum pr_status st = sql_begin(a, "SELECT t.startNs, t.endNs, t.deviceId, "
                                     "t.connectionId, t.taskType, t.streamId, "
                                     "t.taskId");
    size_t i;

    for (i = 0; st == PR_OK && i < sizeof(cols) / sizeof(cols[0]); i++)
        st = info ? opt_col(a, "COMPUTE_TASK_INFO", "c", cols[i], "NULL")
                  : sql_add(a, ", NULL");
    if (st == PR_OK)
        st = sql_add(a, comm ? ", t.globalTaskId IN (SELECT globalTaskId FROM "
                               "COMMUNICATION_TASK_INFO)"
                             : ", 0");
    if (st == PR_OK)
        st = sql_add(a, pmu ? ", f.fops" : ", NULL");
    if (st == PR_OK)
        st = sql_add(a, ", t.globalTaskId");
    if (st == PR_OK)
        st = sql_add(a, !mem       ? ", NULL, NULL"
                        : mem_enum ? ", m.size, coalesce(e.name, "
                                     "m.memcpyOperation)"
                                   : ", m.size, m.memcpyOperation");
    if (st == PR_OK)
        st = sql_add(a, " FROM TASK t");
    if (st == PR_OK && mem)
        st = sql_add(a, " LEFT JOIN MEMCPY_INFO m ON m.globalTaskId = "
                        "t.globalTaskId");
    if (st == PR_OK && mem && mem_enum)
        st = sql_add(a, " LEFT JOIN ENUM_MEMCPY_OPERATION e ON e.id = "
                        "m.memcpyOperation");
    if (st == PR_OK && info)
        st = sql_add(a, " LEFT JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = "
                        "t.globalTaskId");
    if (st == PR_OK && pmu)
        st = sql_add(a, " LEFT JOIN (SELECT globalTaskId AS g, sum(value) AS "
                        "fops FROM TASK_PMU_INFO WHERE name IN (SELECT id "
                        "FROM STRING_IDS WHERE value IN ('aic_cube_fops', "
                        "'aic_vector_fops', 'aiv_cube_fops', "
                        "'aiv_vector_fops')) GROUP BY globalTaskId) f ON "
                        "f.g = t.globalTaskId");
    return st == PR_OK ? end_sql(a, "") : st;
}

static enum pr_status
read_tasks(struct adb *a)
{
    int info = table(a, "COMPUTE_TASK_INFO");
    int comm = table(a, "COMMUNICATION_TASK_INFO");
    int pmu = table(a, "TASK_PMU_INFO");
    int mem = table(a, "MEMCPY_INFO"),
        mem_enum = table(a, "ENUM_MEMCPY_OPERATION");
    enum pr_status st = PR_OK;

    if (info < 0 || comm < 0 || pmu < 0 || mem < 0 || mem_enum < 0)
        return PR_E_FORMAT;
    /* both columns, or the copies stay as the export without them */
    if (mem == 1 &&
        (pr_sqlite_has_column(a->db, "MEMCPY_INFO", "size") != 1 ||
         pr_sqlite_has_column(a->db, "MEMCPY_INFO", "memcpyOperation") != 1 ||
         pr_sqlite_has_column(a->db, "MEMCPY_INFO", "globalTaskId") != 1))
        mem = 0;
    a->has_pmu = pmu == 1;
    if (info == 1 &&
        (st = set_sql(a, "SELECT 1 FROM COMPUTE_TASK_INFO LIMIT 1")) == PR_OK)
        st = each_row(a, "COMPUTE_TASK_INFO", on_any);
    if (st == PR_OK)
        st = task_sql(a, info, comm, pmu, mem == 1, mem_enum == 1);
    return st == PR_OK ? each_row(a, "TASK", on_task) : st;
}

/* ------------------------------------------------------------ PMU */

/* A TASK_PMU_INFO name as kernel_details.csv spells the column, into
 * buf; *scale takes the database's value to the column's unit.  Its
 * times are ns (aiv_total_time 12912 in a task of 14581 ns), the
 * CSV's *_time(us) us; aic_total_time is the CSV's aicore_time(us). */
static void
pmu_name(const char *db, char *buf, size_t cap, double *scale)
{
    size_t n;

    if (strcmp(db, "aic_total_time") == 0)
        db = "aicore_time";
    else if (strcmp(db, "aiv_total_time") == 0)
        db = "aiv_time";
    n = strlen(db);
    *scale = 1;
    if (n > 5 && strcmp(db + n - 5, "_time") == 0) {
        snprintf(buf, cap, "%s(us)", db);
        *scale = 1e-3;
    } else {
        snprintf(buf, cap, "%s", db);
    }
}

/* The counters' names, in the order met (the writer's: the CSV's). */
static enum pr_status
on_pmu_name(struct adb *a, sqlite3_stmt *q)
{
    int64_t name = col_i64(a, q, 0, -1);
    size_t i;

    for (i = 0; i < a->n_pmu; i++)
        if (a->pmu[i].name == name)
            return PR_OK;
    if (a->n_pmu < MAX_PMU && pr_sqlite_string(&a->strs, name) != NULL)
        a->pmu[a->n_pmu++] = (struct pmu_col){name, -1, 1};
    return PR_OK;
}

static enum pr_status
on_pmu(struct adb *a, sqlite3_stmt *q)
{
    int64_t gpu =
        pair_get(a->pmu_tasks, a->n_pmu_tasks, col_i64(a, q, 0, -1), -1);
    int64_t name = col_i64(a, q, 1, -1);
    double v = sqlite3_column_double(q, 2);
    float *row;
    size_t i;

    if (gpu < 0 || sqlite3_column_type(q, 2) == SQLITE_NULL)
        return PR_OK; /* a task the run does not count as a kernel */
    for (i = 0; i < a->n_pmu && a->pmu[i].name != name; i++)
        ;
    if (i == a->n_pmu || a->pmu[i].idx < 0 || !isfinite(v))
        return PR_OK;
    row = pr_pmu_row(a->t, (uint32_t)gpu);
    if (row == NULL)
        return oom(a);
    row[a->pmu[i].idx] = (float)(v * a->pmu[i].scale);
    return PR_OK;
}

/* TASK_PMU_INFO (globalTaskId, name, value: one counter a row) into the
 * trace's table, one row of counters per kernel. */
static enum pr_status
read_pmu(struct adb *a)
{
    char buf[MAX_PMU][64];
    const char *names[MAX_PMU];
    int idx[MAX_PMU];
    size_t i;
    enum pr_status st;

    if (!a->has_pmu || a->n_pmu_tasks == 0)
        return PR_OK;
    qsort(a->pmu_tasks, a->n_pmu_tasks, sizeof(*a->pmu_tasks), cmp_pair);
    if (set_sql(a, "SELECT name FROM TASK_PMU_INFO") != PR_OK)
        return oom(a);
    st = each_row(a, "TASK_PMU_INFO", on_pmu_name);
    for (i = 0; st == PR_OK && i < a->n_pmu; i++) {
        pmu_name(pr_sqlite_string(&a->strs, a->pmu[i].name), buf[i],
                 sizeof(buf[i]), &a->pmu[i].scale);
        names[i] = buf[i];
    }
    if (st == PR_OK && pr_pmu_map(a->t, names, a->n_pmu, idx) < 0)
        return oom(a);
    for (i = 0; st == PR_OK && i < a->n_pmu; i++)
        a->pmu[i].idx = idx[i];
    if (st == PR_OK &&
        set_sql(a, "SELECT globalTaskId, name, value FROM "
                   "TASK_PMU_INFO ORDER BY globalTaskId") != PR_OK)
        return oom(a);
    if (st == PR_OK)
        st = each_row(a, "TASK_PMU_INFO", on_pmu);
    pr_pmu_finish(a->t);
    return st;
}

/* COMMUNICATION_OP's columns, in this order. */
enum { C_NAME, C_START, C_END, C_CONN, C_OPID, C_DTYPE, C_COUNT, C_GROUP };

/* The collective's element type in PyTorch's words ("Float"). */
static const char *
comm_dtype(struct adb *a, sqlite3_stmt *q)
{
    const char *s = NULL;
    struct pr_ascend_dtype d;

    if (sqlite3_column_type(q, C_DTYPE) == SQLITE_NULL)
        return NULL;
    if (a->hccl_types.n > 0)
        s = pr_sqlite_string(&a->hccl_types, col_i64(a, q, C_DTYPE, -1));
    if (s == NULL)
        s = col_str(a, q, C_DTYPE);
    return s != NULL && pr_ascend_dtype(s, strlen(s), &d) ? d.comm : NULL;
}

static enum pr_status
on_comm_op(struct adb *a, sqlite3_stmt *q)
{
    struct pr_span s;
    struct pr_task_desc d = pr_trace_task_desc();
    int64_t stream =
        pair_get(a->op_stream, a->n_op_stream, col_i64(a, q, C_OPID, -1), -1);
    const char *coll;
    char tid[24];
    size_t idx;
    int64_t group;
    struct pr_gpu_info *g;

    memset(&s, 0, sizeof(s));
    if (!row_span(a, q, C_START, C_END, &s))
        return PR_OK;
    s.name = col_str(a, q, C_NAME);
    coll = pr_ascend_collective(s.name ? s.name : "");
    snprintf(tid, sizeof(tid), "%lld", (long long)stream);
    s.cat = "HCCL";
    s.pid = pr_trace_str(a->t, a->dev_pid);
    s.tid = tid;
    s.correlation = col_i64(a, q, C_CONN, PR_NO_ID);
    d.device = (int32_t)a->device;
    d.stream = (int32_t)(stream >= 0 && stream <= INT32_MAX ? stream : -1);
    d.collective = coll ? coll : "";
    d.dtype = comm_dtype(a, q);
    d.nelems = col_i64(a, q, C_COUNT, -1);
    group = pair_get(a->groups, a->n_groups, col_i64(a, q, C_GROUP, -1), -1);
    d.group_size = (int32_t)group; /* < MAX_GROUP_RANK */
    if (pr_trace_add_task(a->t, PR_KIND_DEVICE_TASK, &s, &d, &idx) != PR_OK)
        return oom(a);
    g = &a->t->gpu[a->t->events[idx].info];
    g->unit = PR_UNIT_COMM;
    g->task_type = intern(a->t, "HCCL");
    return g->task_type == PR_STR_NONE ? oom(a) : PR_OK;
}

/* The collectives: one device task each, on the stream of their tasks. */
static enum pr_status
read_comm_ops(struct adb *a)
{
    static const char *const opt[] = {"connectionId", "opId", "dataType",
                                      "count", "groupName"};
    enum pr_status st;
    size_t i;
    int r = table(a, "COMMUNICATION_OP");

    if (r <= 0)
        return r < 0 ? PR_E_FORMAT : PR_OK;
    st = sql_begin(a, "SELECT o.opName, o.startNs, o.endNs");
    for (i = 0; st == PR_OK && i < sizeof(opt) / sizeof(opt[0]); i++)
        st = opt_col(a, "COMMUNICATION_OP", "o", opt[i], "NULL");
    if (st == PR_OK)
        st = end_sql(a, " FROM COMMUNICATION_OP o");
    return st == PR_OK ? each_row(a, "COMMUNICATION_OP", on_comm_op) : st;
}

/* ------------------------------------------------------------ steps */

static enum pr_status
on_step(struct adb *a, sqlite3_stmt *q)
{
    struct pr_span s;
    char name[48], pid[24], tid[24];

    memset(&s, 0, sizeof(s));
    if (!row_span(a, q, 1, 2, &s))
        return PR_OK;
    snprintf(name, sizeof(name), "ProfilerStep#%lld",
             (long long)col_i64(a, q, 0, (int64_t)a->steps));
    tid_text(a->main_gtid, 0, pid, sizeof(pid));
    tid_text(a->main_gtid, 1, tid, sizeof(tid));
    s.name = name;
    s.cat = "step";
    s.pid = a->main_gtid == INT64_MIN ? "" : pid;
    s.tid = a->main_gtid == INT64_MIN ? "" : tid;
    a->steps++;
    return pr_trace_add_span(a->t, PR_KIND_ANNOTATION, &s, NULL) == PR_OK
               ? PR_OK
               : oom(a);
}

/* STEP_TIME's windows, where no ProfilerStep#N operator gave them (a
 * database without PYTORCH_API). */
static enum pr_status
read_steps(struct adb *a)
{
    enum pr_status st;
    int r = table(a, "STEP_TIME");

    if (r <= 0 || a->steps > 0)
        return r < 0 ? PR_E_FORMAT : PR_OK;
    st = set_sql(a, "SELECT id, startNs, endNs FROM STEP_TIME ORDER BY "
                    "startNs");
    return st == PR_OK ? each_row(a, "STEP_TIME", on_step) : st;
}

/* ------------------------------------------------------------ device steps */

/* torch_npu's own step (StepTraceTime, step_trace_time.csv) is the device's
 * share of a ProfilerStep#N: from the first kernel an operator of the step
 * launched to the end of the last device work it launched; the host time
 * before that is its "Preparing".  The steps are made so, on the step's
 * thread, and the host ProfilerStep#N operators stop being steps: the
 * report's steps are then the producer's. */
struct launch {
    int64_t corr, ts;
};

static int
cmp_launch(const void *x, const void *y)
{
    const struct launch *a = x, *b = y;

    return a->corr < b->corr ? -1 : a->corr > b->corr;
}

struct dstep {
    size_t ev;      /* the host ProfilerStep#N */
    int64_t s0, s1; /* its window */
    int64_t lo, hi; /* device work it launched */
};

static int
cmp_dstep(const void *x, const void *y)
{
    const struct dstep *a = x, *b = y;

    return a->s0 < b->s0 ? -1 : a->s0 > b->s0;
}

/* The launches (RUNTIME_CALL with a correlation) by correlation, and the
 * host steps by start. */
static enum pr_status
collect_steps(struct adb *a, struct launch **lv, size_t *nl, struct dstep **sv,
              size_t *ns)
{
    struct pr_trace *t = a->t;
    size_t i, cl = 0, cs = 0;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_RUNTIME_CALL &&
            pr_event_correlation(t, e) != PR_NO_ID) {
            if (pr_grow((void **)lv, &cl, *nl + 1, sizeof(**lv)) != PR_OK)
                return oom(a);
            (*lv)[*nl].corr = pr_event_correlation(t, e);
            (*lv)[(*nl)++].ts = e->ts_ns;
        } else if (e->kind == PR_KIND_HOST_OP &&
                   strncmp(pr_trace_str(t, e->name), "ProfilerStep#", 13) ==
                       0) {
            if (pr_grow((void **)sv, &cs, *ns + 1, sizeof(**sv)) != PR_OK)
                return oom(a);
            (*sv)[*ns].ev = i;
            (*sv)[*ns].s0 = e->ts_ns;
            (*sv)[*ns].s1 = pr_sat_add_i64(e->ts_ns, e->dur_ns);
            (*sv)[*ns].lo = INT64_MAX;
            (*sv)[(*ns)++].hi = INT64_MIN;
        }
    }
    if (*nl > 0)
        qsort(*lv, *nl, sizeof(**lv), cmp_launch);
    if (*ns > 0)
        qsort(*sv, *ns, sizeof(**sv), cmp_dstep);
    return PR_OK;
}

/* The step whose host window holds `ts`; NULL when none. */
static struct dstep *
step_at(struct dstep *v, size_t n, int64_t ts)
{
    size_t lo = 0, hi = n;

    while (lo < hi) { /* the first step starting after ts */
        size_t mid = lo + (hi - lo) / 2;

        if (v[mid].s0 <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && ts <= v[lo - 1].s1 ? &v[lo - 1] : NULL;
}

static void
match_work(struct adb *a, const struct launch *lv, size_t nl, struct dstep *sv,
           size_t ns)
{
    size_t i;

    for (i = 0; i < a->t->n_events; i++) {
        const struct pr_event *e = &a->t->events[i];
        struct launch key, *l;
        struct dstep *st;

        if ((e->kind != PR_KIND_DEVICE_TASK && e->kind != PR_KIND_COPY) ||
            pr_event_correlation(a->t, e) == PR_NO_ID || nl == 0)
            continue;
        key.corr = pr_event_correlation(a->t, e);
        l = bsearch(&key, lv, nl, sizeof(*lv), cmp_launch);
        if (l == NULL || (st = step_at(sv, ns, l->ts)) == NULL)
            continue;
        if (e->kind == PR_KIND_DEVICE_TASK && e->ts_ns < st->lo)
            st->lo = e->ts_ns;
        if (pr_sat_add_i64(e->ts_ns, e->dur_ns) > st->hi)
            st->hi = pr_sat_add_i64(e->ts_ns, e->dur_ns);
    }
}

/* The device step of a host step that launched kernels; the host one
 * stops being a step. */
static enum pr_status
add_device_step(struct adb *a, const struct dstep *st)
{
    struct pr_event *e = &a->t->events[st->ev];
    char name[128], pid[64], tid[64];
    struct pr_span s;

    snprintf(name, sizeof(name), "%s", pr_trace_str(a->t, e->name));
    snprintf(pid, sizeof(pid), "%s", pr_trace_str(a->t, pr_event_pid(a->t, e)));
    snprintf(tid, sizeof(tid), "%s", pr_trace_str(a->t, pr_event_tid(a->t, e)));
    e->kind = PR_KIND_OTHER;
    e->info = PR_NO_INFO;
    memset(&s, 0, sizeof(s));
    s.name = name;
    s.cat = "device_step";
    s.pid = pid;
    s.tid = tid;
    s.ts_ns = st->lo;
    s.dur_ns = st->hi > st->lo ? st->hi - st->lo : 0;
    s.external_id = s.correlation = PR_NO_ID;
    return pr_trace_add_span(a->t, PR_KIND_ANNOTATION, &s, NULL) == PR_OK
               ? PR_OK
               : oom(a);
}

static enum pr_status
device_steps(struct adb *a)
{
    struct launch *lv = NULL;
    struct dstep *sv = NULL;
    size_t nl = 0, ns = 0, i, made = 0;
    enum pr_status st = collect_steps(a, &lv, &nl, &sv, &ns);

    if (st == PR_OK)
        match_work(a, lv, nl, sv, ns);
    for (i = 0; st == PR_OK && i < ns; i++) {
        if (sv[i].lo == INT64_MAX || sv[i].hi < sv[i].lo)
            continue; /* launched no kernel: stays the host's */
        st = add_device_step(a, &sv[i]);
        made++;
    }
    if (made > 0)
        a->t->device_steps = 1;
    free(lv);
    free(sv);
    return st;
}

/* ------------------------------------------------------------ memory */

static enum pr_status
on_mem(struct adb *a, sqlite3_stmt *q)
{
    struct pr_span s;
    struct pr_mem_desc m;
    int64_t alloc = col_i64(a, q, 1, -1), dev = col_i64(a, q, 3, -1);
    int64_t res = col_i64(a, q, 2, -1);

    memset(&s, 0, sizeof(s));
    if (!col_ns(a, q, 0, &s.ts_ns) || alloc < 0) {
        a->t->diag.skipped_bad_ts++;
        return PR_OK;
    }
    if (a->mem_rows > 0 && alloc == a->last_alloc && res == a->last_res)
        return PR_OK; /* another component's change, or Active's only */
    s.name = "[memory]";
    s.cat = "PTA";
    s.external_id = s.correlation = PR_NO_ID;
    m.device_type = 1;
    m.device_id = (int32_t)(dev >= 0 && dev <= INT32_MAX ? dev : a->device);
    m.addr = PR_NO_ID;
    m.bytes = a->mem_rows++ == 0 ? 0 : pr_sat_sub_i64(alloc, a->last_alloc);
    m.total_allocated = (double)alloc;
    m.total_reserved = sqlite3_column_type(q, 2) == SQLITE_NULL
                           ? NAN
                           : sqlite3_column_double(q, 2);
    a->last_alloc = alloc;
    a->last_res = res;
    a->t->n_trace_events++;
    return pr_trace_add_memory(a->t, &s, &m, NULL) == PR_OK ? PR_OK : oom(a);
}

/* OP_MEMORY (operator_memory.csv's twin; bytes, ns): one row per
 * allocation of the NPU's allocators, read as the CSV reader reads it
 * (ascend_memory.c): an allocation record and, when released inside the
 * window, a release record, paired by the row's number, on the thread of
 * the host operators so the memory view attributes them by time.  PTA's
 * totals make the curve; the graph engine's rows (GE: named by their
 * kernel here, where the CSV writes "cann::") count as allocations but
 * join the curve only when no PTA row exists, and go to their task's
 * row (pr_asc_ge_name), not the operator running then. */
enum { O_SIZE, O_ALLOC, O_FREE, O_AA, O_AR, O_FA, O_FR, O_DEV, O_GE, O_NAME };

static enum pr_status
op_mem_record(struct adb *a, sqlite3_stmt *q, int release)
{
    struct pr_span s;
    struct pr_mem_desc m;
    int64_t size = col_i64(a, q, O_SIZE, -1), dev = col_i64(a, q, O_DEV, -1);
    int totals = (sqlite3_column_int64(q, O_GE) != 0) == !a->has_pta;
    int ca = release ? O_FA : O_AA, cr = release ? O_FR : O_AR;
    int ge = sqlite3_column_int64(q, O_GE) != 0;
    const char *name = ge ? col_str(a, q, O_NAME) : NULL;
    uint32_t pid, tid;
    char label[256];

    memset(&s, 0, sizeof(s));
    if (!col_ns(a, q, release ? O_FREE : O_ALLOC, &s.ts_ns))
        return PR_OK;
    s.name = "[memory]";
    s.cat = "operator_memory";
    s.pid = a->mem_pid;
    s.tid = a->mem_tid;
    if (name != NULL && name[0] != '\0') {
        /* CANN's own, for the task it names (pr_asc_ge_name): on no
           operator's thread */
        pr_asc_ge_name(name, strlen(name), label, sizeof(label));
        s.name = label;
        s.pid = "NPU memory";
        s.tid = "allocator";
    } else if (pr_asc_opthreads_at(&a->mem_th, s.ts_ns, &pid, &tid)) {
        s.pid = pr_trace_str(a->t, pid);
        s.tid = pr_trace_str(a->t, tid);
    }
    s.external_id = s.correlation = PR_NO_ID;
    m.device_type = 1;
    m.device_id = (int32_t)(dev >= 0 && dev <= INT32_MAX ? dev : a->device);
    m.addr = (int64_t)a->mem_rows;
    m.bytes = release ? -size : size;
    m.total_allocated = totals && sqlite3_column_type(q, ca) != SQLITE_NULL
                            ? sqlite3_column_double(q, ca)
                            : NAN;
    m.total_reserved = totals && sqlite3_column_type(q, cr) != SQLITE_NULL
                           ? sqlite3_column_double(q, cr)
                           : NAN;
    a->t->n_trace_events++;
    return pr_trace_add_memory(a->t, &s, &m, NULL) == PR_OK ? PR_OK : oom(a);
}

static enum pr_status
on_op_mem(struct adb *a, sqlite3_stmt *q)
{
    enum pr_status st;

    if (col_i64(a, q, O_SIZE, -1) < 0) {
        a->t->diag.skipped_bad_ts++;
        return PR_OK;
    }
    st = op_mem_record(a, q, 0);
    if (st == PR_OK && sqlite3_column_type(q, O_FREE) != SQLITE_NULL)
        st = op_mem_record(a, q, 1);
    a->mem_rows++;
    return st;
}

static enum pr_status
on_pta(struct adb *a, sqlite3_stmt *q)
{
    (void)q;
    a->has_pta = 1;
    return PR_OK;
}

/* The SQL that says whether row o is the graph engine's: its name is
 * one NPU_OP_MEM gives to component GE (else one COMPUTE_TASK_INFO
 * gives a kernel). */
static const char *
ge_expr(struct adb *a)
{
    if (pr_sqlite_has_table(a->db, "NPU_OP_MEM") == 1 &&
        pr_sqlite_has_column(a->db, "NPU_OP_MEM", "component") == 1)
        return "(o.name IN (SELECT operatorName FROM NPU_OP_MEM WHERE "
               "component IN (SELECT id FROM STRING_IDS WHERE value = "
               "'GE')))";
    if (pr_sqlite_has_table(a->db, "COMPUTE_TASK_INFO") == 1)
        return "(o.name IN (SELECT name FROM COMPUTE_TASK_INFO))";
    return "0";
}

/* The thread the records go on: the host steps' (else "NPU memory"). */
static void
mem_thread(struct adb *a)
{
    if (a->main_gtid == INT64_MIN) {
        snprintf(a->mem_pid, sizeof(a->mem_pid), "NPU memory");
        snprintf(a->mem_tid, sizeof(a->mem_tid), "allocator");
        return;
    }
    tid_text(a->main_gtid, 0, a->mem_pid, sizeof(a->mem_pid));
    tid_text(a->main_gtid, 1, a->mem_tid, sizeof(a->mem_tid));
}

static enum pr_status
read_op_memory(struct adb *a)
{
    const char *ge = ge_expr(a);
    enum pr_status st = sql_begin(a, "SELECT 1 FROM OP_MEMORY o WHERE NOT ");

    mem_thread(a);
    pr_asc_opthreads_free(&a->mem_th);
    if (st == PR_OK && pr_asc_opthreads_make(a->t, &a->mem_th) != PR_OK)
        st = oom(a);
    if (st == PR_OK && sql_add(a, ge) == PR_OK &&
        (st = end_sql(a, " LIMIT 1")) == PR_OK)
        st = each_row(a, "OP_MEMORY", on_pta);
    if (st == PR_OK)
        st = sql_begin(a, "SELECT o.size, o.allocationTime, o.releaseTime, "
                          "o.allocationTotalAllocated, "
                          "o.allocationTotalReserved, "
                          "o.releaseTotalAllocated, o.releaseTotalReserved, "
                          "o.deviceId, ");
    if (st == PR_OK && sql_add(a, ge) == PR_OK)
        st = end_sql(a, ", o.name FROM OP_MEMORY o ORDER BY o.rowid");
    return st == PR_OK ? each_row(a, "OP_MEMORY", on_op_mem) : st;
}

/* NPU_OP_MEM (msprof's and torch_npu's db; bytes, ns): one row per
 * allocation or release of an NPU allocator, with its address, the
 * operator that made it and the component's totals after it.  The type
 * is an id of ENUM_MEMORY where the database has that table (msprof_0.db:
 * 5 allocate, 6 release), else of STRING_IDS (torch_npu 2025-01: 374
 * allocate, 373 release); the component an id of STRING_IDS in both
 * ("APP", "PTA+GE", "GE").  Read where neither OP_MEMORY nor
 * MEMORY_RECORD is there (msprof's own export): each row a record named
 * by its operator (memory.c lists such records by that name), the curve
 * the totals of one component, the one with the most rows. */
enum { N_NAME, N_ADDR, N_ALLOC, N_SIZE, N_TS, N_TA, N_TR, N_DEV, N_CURVE };

static enum pr_status
on_npu_op_mem(struct adb *a, sqlite3_stmt *q)
{
    struct pr_span s;
    struct pr_mem_desc m;
    int64_t size = col_i64(a, q, N_SIZE, -1), dev = col_i64(a, q, N_DEV, -1);
    const char *name = col_str(a, q, N_NAME);
    int curve = sqlite3_column_int64(q, N_CURVE) != 0;

    memset(&s, 0, sizeof(s));
    if (size < 0 || !col_ns(a, q, N_TS, &s.ts_ns)) {
        a->t->diag.skipped_bad_ts++;
        return PR_OK;
    }
    s.name = name != NULL && name[0] ? name : "[memory]";
    s.cat = "npu_op_mem";
    s.pid = a->mem_pid;
    s.tid = a->mem_tid;
    s.external_id = s.correlation = PR_NO_ID;
    m.device_type = 1;
    m.device_id = (int32_t)(dev >= 0 && dev <= INT32_MAX ? dev : a->device);
    m.addr = sqlite3_column_type(q, N_ADDR) == SQLITE_NULL
                 ? PR_NO_ID
                 : sqlite3_column_int64(q, N_ADDR);
    m.bytes = sqlite3_column_int64(q, N_ALLOC) != 0 ? size : -size;
    m.total_allocated = curve && sqlite3_column_type(q, N_TA) != SQLITE_NULL
                            ? sqlite3_column_double(q, N_TA)
                            : NAN;
    m.total_reserved = curve && sqlite3_column_type(q, N_TR) != SQLITE_NULL
                           ? sqlite3_column_double(q, N_TR)
                           : NAN;
    a->mem_rows++;
    a->t->n_trace_events++;
    return pr_trace_add_memory(a->t, &s, &m, NULL) == PR_OK ? PR_OK : oom(a);
}

/* The SQL naming the ids of memory enum `name` ("allocate", "app"). */
static enum pr_status
enum_ids(struct adb *a, const char *name)
{
    int e = table(a, "ENUM_MEMORY");
    enum pr_status st;

    if (e < 0)
        return PR_E_FORMAT;
    st = sql_add(a, e == 1 ? "(SELECT id FROM ENUM_MEMORY WHERE name = '"
                           : "(SELECT id FROM STRING_IDS WHERE value = '");
    if (st == PR_OK)
        st = sql_add(a, name);
    return st == PR_OK ? sql_add(a, "')") : st;
}

/* The component the curve follows (the one with the most rows), for the
 * data quality note; 0 when the table has none. */
static enum pr_status
on_curve_comp(struct adb *a, sqlite3_stmt *q)
{
    const char *c = col_str(a, q, 0);

    snprintf(a->curve_comp, sizeof(a->curve_comp), "%s", c ? c : "?");
    a->curve_comp_id = col_i64(a, q, 0, -1);
    a->curve_rows = col_i64(a, q, 1, 0);
    a->other_rows = col_i64(a, q, 2, 0);
    return PR_OK;
}

static enum pr_status
on_outside(struct adb *a, sqlite3_stmt *q)
{
    a->mem_outside = col_i64(a, q, 0, 0);
    a->mem_outside_ns = col_i64(a, q, 1, 0);
    return PR_OK;
}

/* The session's bounds (SESSION_TIME_INFO), where read_mstx did not read
 * them, and the SQL condition of a time inside them in *cond ("1" when
 * the database does not say). */
static enum pr_status
session_cond(struct adb *a, const char *col, char *cond, size_t cap)
{
    int r = a->sess_end > a->sess_start ? 0 : table(a, "SESSION_TIME_INFO");
    enum pr_status st = PR_OK;

    if (r < 0)
        return PR_E_FORMAT;
    if (r == 1 && (st = set_sql(a, "SELECT startTimeNs, endTimeNs FROM "
                                   "SESSION_TIME_INFO LIMIT 1")) == PR_OK)
        st = each_row(a, "SESSION_TIME_INFO", on_session);
    if (a->sess_end > a->sess_start)
        snprintf(cond, cap, "%s BETWEEN %lld AND %lld", col,
                 (long long)a->sess_start, (long long)a->sess_end);
    else
        snprintf(cond, cap, "1");
    return st;
}

/* The rows of the profiling session only: those outside it are not of
 * this capture (as read_mstx says of mstx ranges), and a curve of them
 * would stand apart from every task on the time axis. */
static enum pr_status
read_npu_op_mem(struct adb *a)
{
    enum pr_status st;
    char id[32], in[96];

    st = session_cond(a, "timestampNs", in, sizeof(in));
    if (st == PR_OK &&
        sql_begin(a, "SELECT COUNT(*), MIN(timestampNs) "
                     "FROM NPU_OP_MEM WHERE NOT (") == PR_OK &&
        sql_add(a, in) == PR_OK && end_sql(a, ")") == PR_OK)
        st = each_row(a, "NPU_OP_MEM", on_outside);
    if (st == PR_OK &&
        sql_begin(a, "SELECT component, COUNT(*), (SELECT "
                     "COUNT(*) FROM NPU_OP_MEM WHERE ") == PR_OK &&
        sql_add(a, in) == PR_OK &&
        sql_add(a, ") - COUNT(*) FROM NPU_OP_MEM WHERE ") == PR_OK &&
        sql_add(a, in) == PR_OK &&
        end_sql(a, " GROUP BY component ORDER BY COUNT(*) DESC, component "
                   "LIMIT 1") == PR_OK)
        st = each_row(a, "NPU_OP_MEM", on_curve_comp);
    if (st != PR_OK || a->curve_rows == 0)
        return st;
    mem_thread(a);
    snprintf(id, sizeof(id), "%lld", (long long)a->curve_comp_id);
    st = sql_begin(a, "SELECT operatorName, addr, type IN ");
    if (st == PR_OK)
        st = enum_ids(a, "allocate");
    if (st == PR_OK)
        st = sql_add(a, ", size, timestampNs, totalAllocate, totalReserve, "
                        "deviceId, component = ");
    if (st == PR_OK)
        st = sql_add(a, id);
    /* an allocation before a release of the same time (msprof_0.db
       writes such a pair release first) */
    if (st == PR_OK && (st = sql_add(a, " FROM NPU_OP_MEM WHERE ")) == PR_OK)
        st = sql_add(a, in);
    if (st == PR_OK)
        st = end_sql(a, " ORDER BY timestampNs, 3 DESC, rowid");
    return st == PR_OK ? each_row(a, "NPU_OP_MEM", on_npu_op_mem) : st;
}

/* ------------------------------------------------------ components */

/* A component's samples and peaks (phases.h), as memory_record.csv's
 * reader keeps them: name, device, rows, largest allocated and reserved
 * total (NULL where the table gives none). */
static enum pr_status
on_component(struct adb *a, sqlite3_stmt *q)
{
    const char *name = (const char *)sqlite3_column_text(q, 0);
    int64_t dev = col_i64(a, q, 1, -1);
    struct pr_mem_component *m;

    if (name == NULL || name[0] == '\0')
        return PR_OK;
    m = pr_phases_mem(a->t, name, dev >= 0 ? dev : a->device);
    if (m == NULL)
        return pr_error_set(a->err, PR_E_LIMIT,
                            "more than 64 memory components, or out of "
                            "memory");
    m->samples += (size_t)col_i64(a, q, 2, 0);
    if (sqlite3_column_type(q, 3) != SQLITE_NULL &&
        sqlite3_column_double(q, 3) > m->peak_allocated)
        m->peak_allocated = sqlite3_column_double(q, 3);
    if (sqlite3_column_type(q, 4) != SQLITE_NULL &&
        sqlite3_column_double(q, 4) > m->peak_reserved)
        m->peak_reserved = sqlite3_column_double(q, 4);
    return PR_OK;
}

/* The tables the components came from (static). */
static const char *
mem_source(int record, int op_mem, int npu_mem)
{
    if (record)
        return npu_mem ? "MEMORY_RECORD, NPU_MEM" : "MEMORY_RECORD";
    if (op_mem)
        return npu_mem ? "NPU_OP_MEM, NPU_MEM" : "NPU_OP_MEM";
    return "NPU_MEM";
}

/* The SQL of NPU_OP_MEM's components in the session, in a->sql. */
static enum pr_status
op_mem_components(struct adb *a)
{
    char in[96];
    enum pr_status st = session_cond(a, "m.timestampNs", in, sizeof(in));

    if (st == PR_OK)
        st = sql_begin(a, "SELECT s.value, m.deviceId, COUNT(*), "
                          "MAX(m.totalAllocate), MAX(m.totalReserve) FROM "
                          "NPU_OP_MEM m JOIN STRING_IDS s ON s.id = "
                          "m.component WHERE ");
    if (st == PR_OK)
        st = sql_add(a, in);
    return st == PR_OK ? end_sql(a, " GROUP BY m.component, m.deviceId "
                                    "ORDER BY MIN(m.timestampNs), s.value")
                       : st;
}

/* runs[].npu_memory: the components beside PTA, as the text export's
 * memory_record.csv lists them.  torch_npu writes that file from
 * MEMORY_RECORD's components (PTA, GE, PTA+GE) and npu_mem's "app" rows
 * (APP: the whole process on the device, a reserved total only; in the
 * 2025-01 samples its Total Reserved(MB) is NPU_MEM's hbm + ddr, ddr 0);
 * the database keeps the latter in NPU_MEM.  An export without
 * MEMORY_RECORD (msprof's) has its components in NPU_OP_MEM. */
static enum pr_status
read_components(struct adb *a)
{
    int r = table(a, "MEMORY_RECORD"), n = table(a, "NPU_MEM");
    int o = table(a, "NPU_OP_MEM");
    enum pr_status st = PR_OK;

    if (r < 0 || n < 0 || o < 0)
        return PR_E_FORMAT;
    if (n == 1) {
        st = sql_begin(a, "SELECT 'APP', deviceId, COUNT(*), NULL, "
                          "MAX(COALESCE(hbm, 0) + COALESCE(ddr, 0)) FROM "
                          "NPU_MEM WHERE type IN ");
        if (st == PR_OK)
            st = enum_ids(a, "app");
        if (st == PR_OK)
            st = end_sql(a, " GROUP BY deviceId ORDER BY deviceId");
        if (st == PR_OK)
            st = each_row(a, "NPU_MEM", on_component);
    }
    if (st == PR_OK && r == 1)
        st = set_sql(a, "SELECT s.value, m.deviceId, COUNT(*), "
                        "MAX(m.totalAllocated), MAX(m.totalReserved) FROM "
                        "MEMORY_RECORD m JOIN STRING_IDS s ON s.id = "
                        "m.component GROUP BY m.component, m.deviceId "
                        "ORDER BY MIN(m.timestamp), s.value");
    else if (st == PR_OK && o == 1 && a->curve_rows > 0)
        st = op_mem_components(a);
    else
        o = 0; /* none of NPU_OP_MEM's rows is of this session */
    if (st == PR_OK && (r == 1 || o == 1))
        st = each_row(a, r == 1 ? "MEMORY_RECORD" : "NPU_OP_MEM", on_component);
    if (st == PR_OK && a->t->phases != NULL && a->t->phases->n_mem > 0)
        a->t->phases->mem_source = mem_source(r == 1, o == 1, n == 1);
    return st;
}

/* Without OP_MEMORY: MEMORY_RECORD's rows of the PyTorch allocator
 * (component PTA; bytes), its totals after each change, for the curve.
 * The table does not say what allocated, so nothing is attributed. */
static enum pr_status
read_memory(struct adb *a)
{
    enum pr_status st;
    int o = table(a, "OP_MEMORY"), r = table(a, "MEMORY_RECORD");

    if (o < 0 || r < 0)
        return PR_E_FORMAT;
    if (o == 1)
        return read_op_memory(a);
    if (r == 0)
        return table(a, "NPU_OP_MEM") == 1 ? read_npu_op_mem(a) : PR_OK;
    st = set_sql(a, "SELECT timestamp, totalAllocated, totalReserved, "
                    "deviceId FROM MEMORY_RECORD WHERE component IN (SELECT "
                    "id FROM STRING_IDS WHERE value = 'PTA') ORDER BY "
                    "timestamp");
    return st == PR_OK ? each_row(a, "MEMORY_RECORD", on_mem) : st;
}

/* ------------------------------------------------------------ loading */

/* The rank from profiler_info[_<rank>].json in the run folder around
 * ASCEND_PROFILER_OUTPUT/, for a database without RANK_DEVICE_MAP, and
 * the profiler_level it states. */
static void
rank_from_info(struct pr_trace *t, const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096], f[4400];
    struct pr_ascend_info info;
    struct pr_error e;
    struct dirent *de;
    DIR *d;

    if (slash == NULL || (size_t)(slash - path) + 4 >= sizeof(dir))
        return;
    snprintf(dir, sizeof(dir), "%.*s/..", (int)(slash - path), path);
    if ((d = opendir(dir)) == NULL)
        return;
    while ((t->rank < 0 || t->profiler_level == PR_STR_NONE) &&
           (de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);

        if (strncmp(de->d_name, "profiler_info", 13) != 0 || n < 18 ||
            strcmp(de->d_name + n - 5, ".json") != 0)
            continue;
        snprintf(f, sizeof(f), "%s/%s", dir, de->d_name);
        pr_error_clear(&e);
        if (pr_ascend_info_read(f, &info, &e) == PR_OK) {
            if (t->rank < 0)
                t->rank = info.rank;
            if (info.profiler_level[0] != '\0')
                t->profiler_level = pr_strtab_intern(
                    t->strs, info.profiler_level, strlen(info.profiler_level));
        }
    }
    closedir(d);
}

/* A database that holds the device's tasks but none of the host calls
 * that launched them (review23a #12, msprof_full_db: CANN_API's 4 AscendCL
 * calls in 13.8 us beside 24 TASK rows, no PYTORCH_API): the host's time
 * is not what the export recorded, so its "unrecorded" host time is the
 * export's gap, not the run's. */
static enum pr_status
no_launches(struct adb *a)
{
    char text[900], names[300] = "", api[200];
    size_t i, len = 0;
    int py = pr_sqlite_has_table(a->db, "PYTORCH_API");

    for (i = 0; i < a->n_cann_names && len < sizeof(names); i++) {
        int n = a->cann_names[i].n > 1
                    ? snprintf(names + len, sizeof(names) - len, "%s%s x%zu",
                               i ? ", " : "", a->cann_names[i].name,
                               a->cann_names[i].n)
                    : snprintf(names + len, sizeof(names) - len, "%s%s",
                               i ? ", " : "", a->cann_names[i].name);

        len += n > 0 ? (size_t)n : 0;
    }
    if (a->n_cann > 0)
        snprintf(api, sizeof(api),
                 "CANN_API has %zu row%s (%s%s; %.1f "
                 "\xC2\xB5s in all) and none",
                 a->n_cann, a->n_cann == 1 ? "" : "s", names,
                 a->cann_more ? ", ..." : "", (double)a->cann_ns / 1000.0);
    else
        snprintf(api, sizeof(api), "CANN_API has no row");
    snprintf(text, sizeof(text),
             "the database holds %zu device tasks (TASK) but none of the "
             "host calls that launched them: %s of the node level (an "
             "operator's launch, whose connectionId its TASK rows share), "
             "and PYTORCH_API (the framework's operators) %s. So the host "
             "time that no recorded call covers tells what the export left "
             "out, not what the host did, and launch delays and the host's "
             "share of the run are not known",
             a->n_tasks, api, py == 1 ? "has no row" : "is absent");
    return pr_trace_add_gap(a->t, "no_launch_records", a->n_tasks, text);
}

/* What the database cannot give, each with what would have recorded it. */
static enum pr_status
add_gaps(struct adb *a)
{
    struct pr_trace *t = a->t;
    char text[320];
    size_t i, ops = 0;
    enum pr_status st = PR_OK;

    for (i = 0; i < t->n_events; i++)
        ops += t->events[i].kind == PR_KIND_HOST_OP;
    if (a->no_info > 0) {
        snprintf(
            text, sizeof(text),
            "device tasks that COMPUTE_TASK_INFO does not describe "
            "(%.1f \xC2\xB5s) are on the timeline but not counted as kernels, "
            "as torch_npu's kernel_details leaves them out",
            (double)a->no_info_ns / 1000.0);
        st = pr_trace_add_gap(t, "tasks_without_info", a->no_info, text);
    }
    if (st == PR_OK && ops == 0)
        st = pr_trace_add_gap(t, "no_operators", 0,
                              "no PYTORCH_API rows: device tasks have no "
                              "framework operators; profile with "
                              "torch_npu.profiler (export_type db) for them");
    if (st == PR_OK && ops == 0 && a->n_cann_node == 0 && a->n_tasks > 0)
        st = no_launches(a);
    if (st == PR_OK && a->mstx_outside > 0)
        st = pr_trace_add_gap(t, "mstx_outside_session", a->mstx_outside,
                              "mstx ranges outside the profiling session "
                              "(SESSION_TIME_INFO) are left out: they are not "
                              "of this capture");
    if (st == PR_OK && a->curve_rows > 0) {
        snprintf(text, sizeof(text),
                 "NPU memory from NPU_OP_MEM: the curve is component %s's "
                 "totalAllocate/totalReserve (%lld rows); %lld rows of "
                 "other components count as allocations but not in the "
                 "curve; an operator's calls are its allocations, as the "
                 "table records no launches",
                 a->curve_comp, (long long)a->curve_rows,
                 (long long)a->other_rows);
        st = pr_trace_add_gap(t, "npu_op_mem_curve", (size_t)a->curve_rows,
                              text);
    }
    if (st == PR_OK && a->mem_outside > 0) {
        snprintf(text, sizeof(text),
                 "NPU_OP_MEM rows outside the profiling session "
                 "(SESSION_TIME_INFO) are left out: they are not of this "
                 "capture (the first is %.1f days from the session's "
                 "start), and their curve would stand apart from every task",
                 (double)(a->mem_outside_ns - a->sess_start) / 86400e9);
        st = pr_trace_add_gap(t, "npu_op_mem_outside_session",
                              (size_t)a->mem_outside, text);
    }
    if (st == PR_OK && a->mem_rows == 0 && a->mem_outside == 0)
        st = pr_trace_add_gap(t, "no_memory", 0,
                              "no OP_MEMORY, MEMORY_RECORD or NPU_OP_MEM "
                              "rows: profile "
                              "with profile_memory=True for memory");
    return st == PR_OK ? PR_OK : oom(a);
}

static enum pr_status
load_enums(struct adb *a)
{
    int api = table(a, "ENUM_API_TYPE"), hccl = table(a, "ENUM_HCCL_DATA_TYPE");
    enum pr_status st = PR_OK;

    if (api < 0 || hccl < 0)
        return PR_E_FORMAT;
    if (api == 1)
        st = pr_sqlite_load_strings(a->db, "ENUM_API_TYPE", "id", "name",
                                    &a->api_types, a->err);
    if (st == PR_OK && hccl == 1)
        st = pr_sqlite_load_strings(a->db, "ENUM_HCCL_DATA_TYPE", "id", "name",
                                    &a->hccl_types, a->err);
    return st;
}

/* PR_E_NOT_FORMAT, saying what the database is when it is torch_npu's
 * other one. */
static enum pr_status
not_ours(struct adb *a)
{
    if (is_analysis_db(a->db) == 1)
        return pr_error_set(a->err, PR_E_NOT_FORMAT,
                            "torch_npu's analysis.db (step and communication "
                            "summaries): the run is read from "
                            "ascend_pytorch_profiler_<rank>.db beside it");
    return pr_error_set(a->err, PR_E_NOT_FORMAT,
                        "not an Ascend profiler database (it has no "
                        "STRING_IDS and TASK tables)");
}

static enum pr_status
read_run(struct adb *a)
{
    enum pr_status st = load_enums(a);

    if (st == PR_OK)
        st = read_rank(a);
    if (st == PR_OK)
        st = read_npu(a);
    if (st == PR_OK)
        st = index_comm(a);
    if (st == PR_OK)
        st = read_api(a);
    if (st == PR_OK)
        st = read_mstx(a);
    if (st == PR_OK)
        st = read_launches(a);
    if (st == PR_OK)
        st = read_cann(a);
    if (st == PR_OK)
        st = read_tasks(a);
    if (st == PR_OK)
        st = read_pmu(a);
    if (st == PR_OK)
        st = read_comm_ops(a);
    if (st == PR_OK)
        st = read_links(a);
    if (st == PR_OK)
        st = read_hccl_peers(a);
    if (st == PR_OK)
        st = read_steps(a);
    if (st == PR_OK)
        st = device_steps(a);
    if (st == PR_OK)
        st = read_memory(a);
    if (st == PR_OK)
        st = read_components(a);
    return st;
}

static enum pr_status
on_world(struct adb *a, sqlite3_stmt *q)
{
    const char *s = (const char *)sqlite3_column_text(q, 0);
    size_t n = s ? (size_t)sqlite3_column_bytes(q, 0) : 0;
    int64_t w;

    if (s != NULL && pr_ascend_json_text(s, n, a->err) != PR_OK) {
        pr_error_prefix(a->err, "META_DATA parallel_group_info: ");
        return a->err->code;
    }
    w = s ? pr_ascend_group_world(s, n, a->t->rank) : -1;
    if (w > 0) {
        a->t->world_size = w;
        a->t->world_source = "parallel_group_info";
        a->t->world_floor = 0;
    }
    return PR_OK;
}

/* A name META_DATA holds, for the note on a world from the groups. */
static enum pr_status
on_meta_name(struct adb *a, sqlite3_stmt *q)
{
    const char *s = (const char *)sqlite3_column_text(q, 0);
    size_t len = strlen(a->meta);

    if (s != NULL && strcmp(s, "parallel_group_info") == 0)
        a->has_pgi = 1;
    if (s == NULL || len + 1 >= sizeof(a->meta))
        return PR_OK;
    if (len > 0 && strlen(s) + len + 8 >= sizeof(a->meta)) {
        snprintf(a->meta + len, sizeof(a->meta) - len, ", ...");
        return PR_OK;
    }
    snprintf(a->meta + len, sizeof(a->meta) - len, "%s%s", len ? ", " : "", s);
    return PR_OK;
}

/* The world size META_DATA's parallel_group_info names (the ranks of the
 * world's own group), where the writer kept it: over read_groups' figure,
 * the largest group this rank's tasks address, which is the world's only
 * when some collective spans it. */
static enum pr_status
read_world(struct adb *a)
{
    int r = table(a, "META_DATA");
    enum pr_status st;

    if (r == 1)
        r = pr_sqlite_has_column(a->db, "META_DATA", "name");
    if (r == 1)
        r = pr_sqlite_has_column(a->db, "META_DATA", "value");
    if (r <= 0)
        return r < 0 ? pr_error_set(a->err, PR_E_FORMAT,
                                    "cannot read the schema of META_DATA")
                     : PR_OK;
    a->has_meta = 1;
    if (set_sql(a, "SELECT name FROM META_DATA") != PR_OK)
        return oom(a);
    if ((st = each_row(a, "META_DATA", on_meta_name)) != PR_OK)
        return st;
    if (set_sql(a, "SELECT value FROM META_DATA WHERE name = "
                   "'parallel_group_info'") != PR_OK)
        return oom(a);
    return each_row(a, "META_DATA", on_world);
}

/* Where the world size is only a lower bound (world_floor): what the
 * database holds of the groups, and that none of it lists a group's
 * members (npu_db1: COMMUNICATION_TASK_INFO's ranks 0 to 7; META_DATA
 * holds the schema version and ENV_VARIABLES, no parallel_group_info). */
static enum pr_status
world_note(struct adb *a)
{
    char note[700], meta[300];

    if (!a->t->world_floor || a->t->world_size < 0)
        return PR_OK;
    if (a->t->world_source != NULL &&
        strcmp(a->t->world_source, "parallel_group_info") == 0)
        /* the world group's ranks, without this one */
        snprintf(note, sizeof(note),
                 "at least %lld: META_DATA's parallel_group_info names a "
                 "world group without this rank, %lld",
                 (long long)a->t->world_size, (long long)a->t->rank);
    else {
        if (!a->has_meta)
            snprintf(meta, sizeof(meta), "it has no META_DATA table");
        else if (a->meta[0] == '\0')
            snprintf(meta, sizeof(meta), "its META_DATA is empty");
        else
            snprintf(meta, sizeof(meta), "its META_DATA holds %s", a->meta);
        snprintf(note, sizeof(note),
                 "at least %lld: %s HCCL tasks (COMMUNICATION_TASK_INFO) "
                 "name ranks up to %lld of their largest group%s, and the "
                 "database lists no group's members: %s (%s): the job may "
                 "hold more ranks",
                 (long long)a->t->world_size,
                 a->t->rank >= 0 ? "this rank's" : "the run's",
                 (long long)a->world_top,
                 a->t->rank > a->world_top ? ", below this rank's own" : "",
                 meta,
                 a->has_pgi ? "its parallel_group_info names no world group"
                            : "no parallel_group_info, where newer torch_npu "
                              "and MindSpore keep the groups' global_ranks");
    }
    a->t->world_note = intern(a->t, note);
    return a->t->world_note == PR_STR_NONE ? oom(a) : PR_OK;
}

static enum pr_status
read_db(struct adb *a, const char *path, uint64_t max)
{
    enum pr_status st = pr_sqlite_open(path, max, &a->db, a->err);
    struct stat sb;
    char w[32];
    int r;

    if (st != PR_OK)
        return st;
    r = is_ascend_db(a->db);
    if (r <= 0)
        return r < 0
                   ? pr_error_set(a->err, PR_E_FORMAT, "cannot read the schema")
                   : not_ours(a);
    st = pr_sqlite_allow_rows(a->db, a->err);
    if (st == PR_OK)
        st = pr_sqlite_load_strings(a->db, "STRING_IDS", "id", "value",
                                    &a->strs, a->err);
    if (st == PR_OK)
        st = read_run(a);
    if (st != PR_OK)
        return st;
    rank_from_info(a->t, path); /* and its profiler_level */
    if ((st = read_world(a)) != PR_OK)
        return st;
    if (a->t->world_size > 0 && a->t->rank >= a->t->world_size) {
        a->t->world_size = a->t->rank + 1; /* groups without this rank */
        a->t->world_floor = 1;
    }
    if ((st = world_note(a)) != PR_OK)
        return st;
    if (a->t->rank >= 0) {
        snprintf(w, sizeof(w), "rank%lld", (long long)a->t->rank);
        if ((a->t->worker = intern(a->t, w)) == PR_STR_NONE)
            return oom(a);
    }
    a->t->bytes = stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    return add_gaps(a);
}

static void
adb_free(struct adb *a)
{
    free(a->chains);
    free(a->op_stream);
    free(a->comm_streams);
    free(a->comm_conns);
    free(a->groups);
    free(a->pmu_tasks);
    free(a->launched);
    pr_asc_opthreads_free(&a->mem_th);
    pr_buf_free(&a->sql);
    pr_buf_free(&a->a);
    pr_buf_free(&a->b);
    pr_sqlite_strings_free(&a->strs);
    pr_sqlite_strings_free(&a->api_types);
    pr_sqlite_strings_free(&a->hccl_types);
    pr_sqlite_strings_free(&a->transports);
    pr_sqlite_strings_free(&a->links);
    pr_sqlite_close(a->db);
    pr_trace_free(a->t);
}

static enum pr_status
load(const char *path, const struct pr_read_opts *o, struct pr_trace **out,
     struct pr_error *err)
{
    struct adb a;
    enum pr_status st;

    *out = NULL;
    memset(&a, 0, sizeof(a));
    pr_buf_init(&a.sql, 0);
    pr_buf_init(&a.a, (size_t)64 << 20);
    pr_buf_init(&a.b, (size_t)64 << 20);
    a.err = err;
    a.at.err = err;
    a.device = -1;
    a.world_top = -1;
    a.main_gtid = INT64_MIN;
    a.t = pr_trace_new();
    st = a.t ? read_db(&a, path,
                       o && o->max_input_bytes ? o->max_input_bytes
                                               : PR_READ_DEFAULT_MAX)
             : pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK) {
        /* the framework by the export's name (msprof's own msprof_*.db
           does not say which one ran) */
        const char *b = strrchr(path, '/');

        b = b != NULL ? b + 1 : path;
        if (strncmp(b, "ascend_pytorch_profiler", 23) == 0)
            a.t->framework = intern(a.t, "pytorch");
        else if (strncmp(b, "ascend_mindspore_profiler", 25) == 0)
            a.t->framework = intern(a.t, "mindspore");
        pr_trace_finish(a.t);
        *out = a.t;
        a.t = NULL;
    } else {
        pr_error_prefix(err, "%s: ", path);
    }
    adb_free(&a);
    return st;
}

const struct pr_format pr_format_ascend_db = {"ascend_db", sniff, load, 0,
                                              "Ascend SQLite export"};
