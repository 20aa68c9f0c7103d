/* nsys.c - Nsight Systems exports: the SQLite database that `nsys export
 * --type sqlite` writes (spec/other-producers.md §5.1).
 *
 * An export holds every process of the capture.  Each process that did
 * CUDA or NVTX work becomes one run, chained in device order (a 2-GPU
 * torchrun job: two runs); globalPid/globalTid carry the pid in bits
 * 24..47 and the tid in bits 0..23.  Kernels, copies, fills and
 * synchronisations go to device lanes (pid = CUDA device, tid = stream) as
 * Kineto puts them; runtime and driver calls and NVTX ranges to their
 * thread.  Kernels link to their launch by correlationId (all the nodes of
 * a CUDA graph share their cudaGraphLaunch's), and launches to the NVTX
 * range around them by time, on the same thread, as PyProf does.
 *
 * NVTX ranges that PyTorch's emit_nvtx wrote ("aten::mm, seq = 12, op_id =
 * 34, sizes = [[64, 512], [512, 1000]]") are operators with their input
 * shapes, and those of autograd nodes ("MmBackward0, seq = 12, ...") are
 * backward ops that pair with the forward op of their sequence number;
 * other ranges are annotations, and a range named like a step
 * ("step 3", "train_step", "Iteration 12") is a step.  Names are ids into
 * StringIds, except NVTX text, which is inline or a registered string id.
 * Times stay ns on the capture's clock.  The schema moves between
 * versions, so optional columns are probed, never assumed. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "../internal.h"
#include "profreport/checked.h"
#include "profreport/formats.h"
#include "profreport/parse.h"
#include "profreport/shapes.h"

#define ID_BITS 24
#define ID_MASK ((int64_t)0xFFFFFF)

/* ENUM_NSYS_EVENT_CLASS of a driver call */
#define CLASS_DRIVER 1

static const char *const report_exts[] = {".nsys-rep", ".qdrep"};

/* An NCCL call's NVTX range with the message size its payload gives
 * (nccl_call_of): its kernel, launched inside it, takes the size. */
struct nccl_call {
    uint32_t tid; /* string id of its thread's number, as its events' */
    int64_t start, end;
    int64_t bytes; /* the payload's: one rank's share for AllGather and
                      ReduceScatter (NCCL's collectives.cc) */
    uint64_t comm; /* "NCCL communicator ID"; 0 unknown */
    int share;     /* 1: AllGather, 2: ReduceScatter, 0: the others */
};

/* A communicator the process joined and its size. */
struct nccl_comm {
    uint64_t id;
    int64_t size;
};
#define MAX_COMMS 64

struct proc {
    int64_t gpid; /* globalPid: the tid bits cleared */
    struct pr_trace *t;
    int device;    /* the first device it ran work on; -1 none */
    int devices;   /* 1 when it ran work on more than one */
    int64_t steps; /* step ranges so far, to number unnumbered ones */
    /* the last "autograd::engine::evaluate_function: X" range without a
       sequence number, until X's node range inside it gives it one
       (eval_op): its op index, thread, end and X */
    uint32_t eval_op;
    int64_t eval_gtid, eval_end;
    char eval_node[128];
    /* its rank in its largest NCCL communicator and that one's size, as
       the payload of NCCL's ncclCommInitRank NVTX range states them
       (nccl_rank_of); nccl_size 0: none read; nccl_clash: two of that
       size gave it different ranks */
    int64_t nccl_rank, nccl_size;
    int nccl_clash;
    /* NCCL call ranges whose payload gives a message size (nccl_calls
       owned), the communicators it joined; the NCCL kernels whose launch
       lies in one take its size (nccl_sizes) */
    struct nccl_call *calls;
    size_t n_calls, cap_calls;
    struct nccl_comm comms[MAX_COMMS];
    size_t n_comms;
};

struct gpu_row {
    int64_t v[16]; /* gpu_cols; -1 absent; v[1], the name, is an offset
                      into names */
};

struct gpus {
    struct gpu_row *v;
    size_t n, cap;
    int64_t (*map)[3]; /* TARGET_INFO_CUDA_DEVICE: gpuId, cudaId, pid */
    size_t n_map, cap_map;
};

struct nsys {
    sqlite3 *db;
    struct pr_sqlite_strings strs;
    struct proc *procs; /* owned, with their traces until handed out */
    size_t n_procs, cap_procs, last;
    size_t *slots; /* owned: n_slots, procs' index + 1 by gpid, 0 empty */
    size_t n_slots;
    struct pr_buf sql, tmp;
    struct gpus gpus;
    struct pr_buf names;    /* of the GPUs */
    uint64_t bytes;         /* the database's size */
    int has_memory;         /* CUDA_GPU_MEMORY_USAGE_EVENTS was read */
    int64_t capture_ns;     /* ANALYSIS_DETAILS' duration; 0 unknown */
    struct pr_sqlite_at at; /* the query's row, and its first bad value */
    struct pr_error *err;
};

/* ------------------------------------------------------------ sniffing */

/* 1 when the database has an export's tables, 0 when not, -1 when it
 * cannot be read. */
static int
is_export(sqlite3 *db)
{
    static const char *const activity[] = {"CUPTI_ACTIVITY_KIND_KERNEL",
                                           "CUPTI_ACTIVITY_KIND_RUNTIME",
                                           "NVTX_EVENTS"};
    int r = pr_sqlite_has_table(db, "StringIds");
    size_t i;

    for (i = 0; r == 1 && i < sizeof(activity) / sizeof(activity[0]); i++) {
        int a = pr_sqlite_has_table(db, activity[i]);

        if (a != 0)
            return a;
    }
    return r == 1 ? 0 : r;
}

static int
is_report_name(const char *path)
{
    size_t n = strlen(path), i;

    for (i = 0; i < sizeof(report_exts) / sizeof(report_exts[0]); i++) {
        size_t m = strlen(report_exts[i]);

        if (n >= m && strcmp(path + n - m, report_exts[i]) == 0)
            return 1;
    }
    return 0;
}

/* The SQLite magic alone is not enough: the Ascend databases have it too.
 * The tables decide, so the database is opened; one that cannot be read
 * is claimed by its name only, for the loader to say what is wrong. */
static enum pr_claim
sniff(const struct pr_probe *p)
{
    sqlite3 *db = NULL;
    struct pr_error e;
    int r = -1;

    if (is_report_name(p->base))
        return PR_CLAIM_NAME;
    if (p->is_dir || p->head == NULL || p->n_head < 16 ||
        memcmp(p->head, "SQLite format 3", 16) != 0)
        return PR_CLAIM_NO;
    pr_error_clear(&e);
    if (pr_sqlite_open(p->path, PR_READ_DEFAULT_MAX, &db, &e) == PR_OK)
        r = is_export(db);
    pr_sqlite_close(db);
    if (r == 1)
        return PR_CLAIM_SURE;
    return r < 0 && pr_probe_name_ends(p, ".sqlite") ? PR_CLAIM_NAME
                                                     : PR_CLAIM_NO;
}

/* ------------------------------------------------------------ processes */

static uint32_t
intern(struct pr_trace *t, const char *s)
{
    return pr_strtab_intern(t->strs, s, strlen(s));
}

static uint32_t
intern_num(struct pr_trace *t, int64_t v)
{
    char b[24];

    snprintf(b, sizeof(b), "%lld", (long long)v);
    return intern(t, b);
}

/* Where process `gpid` is, or would go, in the open-addressed slots. */
static size_t
slot_of(const struct nsys *n, int64_t gpid)
{
    size_t i = (size_t)(((uint64_t)gpid >> ID_BITS) * 0x9E3779B97F4A7C15u) &
               (n->n_slots - 1);

    while (n->slots[i] != 0 && n->procs[n->slots[i] - 1].gpid != gpid)
        i = (i + 1) & (n->n_slots - 1);
    return i;
}

/* Room in the slots for one more process (kept at most half full). */
static int
grow_slots(struct nsys *n)
{
    size_t k = n->n_slots ? n->n_slots * 2 : 64, i, *old = n->slots;
    size_t n_old = n->n_slots;

    if ((n->n_procs + 1) * 2 <= n->n_slots)
        return 1;
    n->slots = calloc(k, sizeof(*n->slots));
    if (n->slots == NULL) {
        n->slots = old;
        return 0;
    }
    n->n_slots = k;
    for (i = 0; i < n_old; i++)
        if (old[i] != 0)
            n->slots[slot_of(n, n->procs[old[i] - 1].gpid)] = old[i];
    free(old);
    return 1;
}

/* The run of process `gpid`, made on first sight; NULL on out-of-memory.
 * An export may hold tens of thousands of processes: found by hash. */
static struct proc *
proc_of(struct nsys *n, int64_t gpid)
{
    struct proc *p;
    size_t at;

    gpid &= ~ID_MASK;
    if (n->last < n->n_procs && n->procs[n->last].gpid == gpid)
        return &n->procs[n->last];
    if (n->n_slots > 0 && n->slots[at = slot_of(n, gpid)] != 0) {
        n->last = n->slots[at] - 1;
        return &n->procs[n->last];
    }
    if (!grow_slots(n) || pr_grow((void **)&n->procs, &n->cap_procs,
                                  n->n_procs + 1, sizeof(*p)) != PR_OK)
        return NULL;
    p = &n->procs[n->n_procs];
    memset(p, 0, sizeof(*p));
    p->gpid = gpid;
    p->device = -1;
    p->eval_op = PR_NO_INFO;
    p->t = pr_trace_new();
    if (p->t == NULL)
        return NULL;
    p->t->format = intern(p->t, "nsys");
    if (p->t->format == PR_STR_NONE)
        return NULL;
    n->slots[slot_of(n, gpid)] = n->n_procs + 1;
    n->last = n->n_procs++;
    return p;
}

static void
note_device(struct proc *p, int dev)
{
    if (dev < 0)
        return;
    if (p->device < 0)
        p->device = dev;
    else if (p->device != dev)
        p->devices = 1;
}

/* ------------------------------------------------------------ queries */

static enum pr_status
sql_add(struct nsys *n, const char *s)
{
    return pr_buf_adds(&n->sql, s);
}

/* Append one column of `table` to the select list: `column` when the
 * table has it, else `dflt` (what a schema version lacks reads as its
 * default). */
static enum pr_status
sql_col(struct nsys *n, const char *table, const char *column, const char *dflt,
        int first)
{
    int has = pr_sqlite_has_column(n->db, table, column);

    if (has < 0)
        return pr_error_set(n->err, PR_E_FORMAT, "%s: cannot read its columns",
                            table);
    if ((!first && sql_add(n, ", ") != PR_OK) ||
        sql_add(n, has ? column : dflt) != PR_OK)
        return pr_error_set(n->err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

/* SELECT the columns of `table` in order, into n->sql: "name" or
 * "name=default" (optional; NULL by default), or "!name" (required: the
 * table is unusable without it). */
static enum pr_status
sql_select(struct nsys *n, const char *table, const char *const *cols,
           size_t n_cols)
{
    enum pr_status st = PR_OK;
    size_t i;

    pr_buf_reset(&n->sql);
    if (sql_add(n, "SELECT ") != PR_OK)
        return pr_error_set(n->err, PR_E_NOMEM, "out of memory");
    for (i = 0; st == PR_OK && i < n_cols; i++) {
        const char *c = cols[i] + (cols[i][0] == '!'), *eq = strchr(c, '=');
        char name[64];

        snprintf(name, sizeof(name), "%.*s",
                 (int)(eq ? (size_t)(eq - c) : strlen(c)), c);
        if (cols[i][0] == '!' && pr_sqlite_has_column(n->db, table, name) != 1)
            return pr_error_set(n->err, PR_E_FORMAT, "%s has no column %s",
                                table, name);
        st = sql_col(n, table, name, eq ? eq + 1 : "NULL", i == 0);
    }
    if (st == PR_OK &&
        (sql_add(n, " FROM ") != PR_OK || sql_add(n, table) != PR_OK ||
         pr_buf_addc(&n->sql, '\0') != PR_OK))
        st = pr_error_set(n->err, PR_E_NOMEM, "out of memory");
    return st;
}

typedef enum pr_status (*row_fn)(struct nsys *n, sqlite3_stmt *q);

static enum pr_status
db_error(struct nsys *n, int rc, const char *what)
{
    char why[512];

    return pr_error_set(n->err, rc == SQLITE_NOMEM ? PR_E_NOMEM : PR_E_FORMAT,
                        "reading %s: %s", what,
                        pr_sqlite_why(n->db, why, sizeof(why)));
}

/* Run the query in n->sql and hand each row to fn. */
static enum pr_status
each_row(struct nsys *n, const char *what, row_fn fn)
{
    sqlite3_stmt *q = NULL;
    enum pr_status st = PR_OK;
    int rc = sqlite3_prepare_v2(n->db, n->sql.data, -1, &q, NULL);

    if (rc != SQLITE_OK) {
        sqlite3_finalize(q);
        return db_error(n, rc, what);
    }
    n->at.what = what;
    n->at.row = 0;
    while (st == PR_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        n->at.row++;
        st = fn(n, q);
        if (st == PR_OK)
            st = n->at.st; /* a value of the row was bad input */
    }
    if (st == PR_OK && rc != SQLITE_DONE)
        st = db_error(n, rc, what);
    sqlite3_finalize(q);
    if (st != PR_OK)
        pr_error_set(n->err, st, "%s: out of memory", what);
    return st;
}

/* Read `table` when the export has it (captures leave out what was not
 * traced: no memset table when nothing was set). */
static enum pr_status
read_table(struct nsys *n, const char *table, const char *const *cols,
           size_t n_cols, row_fn fn)
{
    int has = pr_sqlite_has_table(n->db, table);
    enum pr_status st;

    if (has < 0)
        return pr_error_set(n->err, PR_E_FORMAT, "cannot read the schema");
    if (has == 0)
        return PR_OK;
    st = sql_select(n, table, cols, n_cols);
    return st == PR_OK ? each_row(n, table, fn) : st;
}

static int64_t
col_i64(struct nsys *n, sqlite3_stmt *q, int i, int64_t dflt)
{
    return pr_sqlite_int(&n->at, q, i, dflt);
}

/* A time (ns on the capture's clock), range-checked. */
static int64_t
col_ns(struct nsys *n, sqlite3_stmt *q, int i, int64_t dflt)
{
    return pr_sqlite_time(&n->at, q, i, dflt);
}

static int32_t
col_i32(struct nsys *n, sqlite3_stmt *q, int i, int32_t dflt)
{
    int64_t v = col_i64(n, q, i, dflt);

    return v < INT32_MIN || v > INT32_MAX ? dflt : (int32_t)v;
}

/* The text of a StringIds id, NULL when it has none. */
static const char *
string_of(struct nsys *n, sqlite3_stmt *q, int i)
{
    if (sqlite3_column_type(q, i) == SQLITE_NULL)
        return NULL;
    return pr_sqlite_string(&n->strs, col_i64(n, q, i, -1));
}

/* ------------------------------------------------------------ device rows */

/* The first columns of every device table, in this order. */
#define DEVICE_COLS                                                            \
    "!start", "!end", "!deviceId", "streamId", "correlationId", "globalPid"
enum { C_START, C_END, C_DEVICE, C_STREAM, C_CORR, C_GPID, C_MORE };

/* A new event of p spanning the row's [start, end]. */
static struct pr_event *
add_event(struct nsys *n, struct proc *p, sqlite3_stmt *q, int kind,
          uint32_t name)
{
    int64_t start = col_ns(n, q, C_START, 0);
    int64_t end = col_ns(n, q, C_END, start);
    struct pr_event *e;

    if (name == PR_STR_NONE || (e = pr_trace_add_event(p->t)) == NULL)
        return NULL;
    if (end < start) {
        p->t->diag.negative_dur++;
        end = start;
    }
    e->ts_ns = start;
    e->dur_ns = pr_sat_sub_i64(end, start);
    e->name = name;
    e->kind = (uint8_t)kind;
    e->order = (uint32_t)(p->t->n_events - 1);
    p->t->n_trace_events++;
    return e;
}

/* An event on the device lane of the row (pid = device, tid = stream),
 * with a side record unless it is a synchronisation; *g (may be NULL)
 * gets the record. */
static enum pr_status
add_device_event(struct nsys *n, sqlite3_stmt *q, int kind, const char *name,
                 struct pr_gpu_info **g)
{
    struct proc *p = proc_of(n, col_i64(n, q, C_GPID, 0));
    int32_t dev = col_i32(n, q, C_DEVICE, -1),
            stream = col_i32(n, q, C_STREAM, -1);
    struct pr_event *e;
    struct pr_gpu_info *rec;
    uint32_t idx, pid, tid;

    if (p == NULL || (e = add_event(n, p, q, kind, intern(p->t, name))) == NULL)
        return PR_E_NOMEM;
    pid = intern_num(p->t, dev);
    tid = intern_num(p->t, stream);
    if (pid == PR_STR_NONE || tid == PR_STR_NONE ||
        pr_event_set_where(p->t, e, pr_event_cat(p->t, e), pid, tid) != PR_OK ||
        pr_event_set_correlation(p->t, e, col_i64(n, q, C_CORR, PR_NO_ID)) !=
            PR_OK)
        return PR_E_NOMEM;
    if (pr_info_table_of(kind) != PR_INFO_GPU)
        return PR_OK; /* a sync names device 0 whatever the process ran on */
    note_device(p, dev);
    if ((rec = pr_trace_add_gpu(p->t, &idx)) == NULL)
        return PR_E_NOMEM;
    p->t->events[p->t->n_events - 1].info = idx;
    rec->device = dev;
    rec->stream = stream;
    if (g != NULL)
        *g = rec;
    return PR_OK;
}

static const char *const kernel_cols[] = {DEVICE_COLS,
                                          "demangledName",
                                          "shortName",
                                          "gridX",
                                          "gridY",
                                          "gridZ",
                                          "blockX",
                                          "blockY",
                                          "blockZ",
                                          "registersPerThread",
                                          "staticSharedMemory",
                                          "dynamicSharedMemory"};

static enum pr_status
on_kernel(struct nsys *n, sqlite3_stmt *q)
{
    const char *name = string_of(n, q, C_MORE);
    struct pr_gpu_info *g = NULL;
    int64_t smem;
    int i;

    if (name == NULL)
        name = string_of(n, q, C_MORE + 1);
    if (add_device_event(n, q, PR_KIND_DEVICE_TASK,
                         name ? name : "(unnamed kernel)", &g) != PR_OK)
        return PR_E_NOMEM;
    for (i = 0; i < 3; i++) {
        g->grid[i] = col_i32(n, q, C_MORE + 2 + i, 0);
        g->block[i] = col_i32(n, q, C_MORE + 5 + i, 0);
    }
    g->regs_per_thread = col_i32(n, q, C_MORE + 8, -1);
    smem = pr_sat_add_i64(col_i64(n, q, C_MORE + 9, 0),
                          col_i64(n, q, C_MORE + 10, 0));
    g->shared_mem = sqlite3_column_type(q, C_MORE + 9) == SQLITE_NULL ||
                            smem < 0 || smem > INT32_MAX
                        ? -1
                        : (int32_t)smem;
    return PR_OK;
}

/* CUPTI's names (ENUM_CUDA_MEMCPY_OPER, ENUM_CUDA_MEM_KIND), spelled as
 * Kineto spells its memcpy events: "Memcpy HtoD (Pageable -> Device)". */
static const char *const copy_kinds[] = {
    "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD",
    "DtoA",    "DtoD", "HtoH", "PtoP", "HtoD", "DtoH", "DtoD"};
static const char *const mem_kinds[] = {
    "Pageable", "Pinned",        "Device",         "Array",
    "Managed",  "Device Static", "Managed Static", "Unknown"};

static const char *
enum_name(const char *const *names, size_t n, int64_t v)
{
    return v >= 0 && (uint64_t)v < n ? names[v] : "Unknown";
}

#define ENUM_NAME(tab, v) enum_name(tab, sizeof(tab) / sizeof(tab[0]), v)

/* The direction of ENUM_CUDA_MEMCPY_OPER `k`; arrays count as the side
 * they are on. */
static enum pr_copy_dir
copy_dir(int64_t k)
{
    static const uint8_t dirs[] = {
        PR_DIR_UNKNOWN, PR_DIR_H2D, PR_DIR_D2H, PR_DIR_H2D, PR_DIR_D2H,
        PR_DIR_D2D,     PR_DIR_D2D, PR_DIR_D2D, PR_DIR_D2D, PR_DIR_H2H,
        PR_DIR_P2P,     PR_DIR_H2D, PR_DIR_D2H, PR_DIR_D2D};

    return k >= 0 && (uint64_t)k < sizeof(dirs) ? (enum pr_copy_dir)dirs[k]
                                                : PR_DIR_UNKNOWN;
}

static const char *const copy_cols[] = {DEVICE_COLS, "bytes", "copyKind",
                                        "srcKind", "dstKind"};

static enum pr_status
on_copy(struct nsys *n, sqlite3_stmt *q)
{
    struct pr_gpu_info *g = NULL;
    char name[96];

    snprintf(name, sizeof(name), "Memcpy %s (%s -> %s)",
             ENUM_NAME(copy_kinds, col_i64(n, q, C_MORE + 1, 0)),
             ENUM_NAME(mem_kinds, col_i64(n, q, C_MORE + 2, 7)),
             ENUM_NAME(mem_kinds, col_i64(n, q, C_MORE + 3, 7)));
    if (add_device_event(n, q, PR_KIND_COPY, name, &g) != PR_OK)
        return PR_E_NOMEM;
    g->bytes = col_i64(n, q, C_MORE, -1);
    g->copy_dir = (uint8_t)copy_dir(col_i64(n, q, C_MORE + 1, 0));
    return PR_OK;
}

static const char *const set_cols[] = {DEVICE_COLS, "bytes", "memKind"};

static enum pr_status
on_set(struct nsys *n, sqlite3_stmt *q)
{
    struct pr_gpu_info *g = NULL;
    char name[64];

    snprintf(name, sizeof(name), "Memset (%s)",
             ENUM_NAME(mem_kinds, col_i64(n, q, C_MORE + 1, 2)));
    if (add_device_event(n, q, PR_KIND_SET, name, &g) != PR_OK)
        return PR_E_NOMEM;
    g->bytes = col_i64(n, q, C_MORE, -1);
    return PR_OK;
}

/* ENUM_CUPTI_SYNC_TYPE, as Kineto names its cuda_sync events */
static const char *const sync_kinds[] = {"Unknown Sync", "Event Sync",
                                         "Stream Wait Event", "Stream Sync",
                                         "Context Sync"};
static const char *const sync_cols[] = {DEVICE_COLS, "syncType"};

static enum pr_status
on_sync(struct nsys *n, sqlite3_stmt *q)
{
    int64_t k = col_i64(n, q, C_MORE, 0);

    return add_device_event(n, q, PR_KIND_SYNC,
                            k > 0 && k < 5 ? sync_kinds[k] : sync_kinds[0],
                            NULL);
}

/* ------------------------------------------------------------ memory */

/* CUDA_GPU_MEMORY_USAGE_EVENTS (nsys profile --cuda-memory-usage=true):
 * one row per allocation (memoryOperationType 0) and release (1), with no
 * thread.  The records go to the process's main thread (tid = pid), where
 * PyTorch runs its operators and allocates, as Kineto's [memory] records
 * with the size signed; the export has no running totals, so the memory
 * view counts from the first record. */
static const char *const mem_cols[] = {
    "!start", "!globalPid",           "!deviceId", "address",
    "!bytes", "!memoryOperationType", "memKind"};

static enum pr_status
on_mem(struct nsys *n, sqlite3_stmt *q)
{
    struct proc *p = proc_of(n, col_i64(n, q, 1, 0));
    int64_t op = col_i64(n, q, 5, -1), kind = col_i64(n, q, 6, 2), pid;
    int64_t bytes = col_i64(n, q, 4, 0) < 0 ? 0 : col_i64(n, q, 4, 0);
    struct pr_mem_info *mi;
    struct pr_event *e;
    uint32_t idx, pid_id;

    if (p == NULL)
        return PR_E_NOMEM;
    if (op != 0 && op != 1)
        return PR_OK; /* an operation this reader does not know */
    if ((e = pr_trace_add_event(p->t)) == NULL)
        return PR_E_NOMEM;
    pid = (p->gpid >> ID_BITS) & ID_MASK;
    e->ts_ns = col_ns(n, q, 0, 0);
    e->kind = PR_KIND_MEMORY_RECORD;
    e->order = (uint32_t)(p->t->n_events - 1);
    e->name = intern(p->t, "[memory]");
    pid_id = intern_num(p->t, pid);
    p->t->n_trace_events++;
    if (e->name == PR_STR_NONE || pid_id == PR_STR_NONE ||
        pr_event_set_where(p->t, e, pr_event_cat(p->t, e), pid_id, pid_id) !=
            PR_OK ||
        (mi = pr_trace_add_mem(p->t, &idx)) == NULL)
        return PR_E_NOMEM;
    p->t->events[p->t->n_events - 1].info = idx;
    mi->device_type = kind == 0 || kind == 1 ? 0 : 1; /* pageable, pinned */
    mi->device_id = col_i32(n, q, 2, -1);
    mi->addr = col_i64(n, q, 3, PR_NO_ID);
    mi->bytes = op == 0 ? bytes : -bytes;
    n->has_memory = 1;
    return PR_OK;
}

/* ------------------------------------------------------------ host rows */

/* An event on the thread of globalTid `gtid`, named `name` (an API name,
 * without CUPTI's version suffix, when `api`); *pp gets its process. */
static struct pr_event *
add_host_event(struct nsys *n, sqlite3_stmt *q, int64_t gtid, int kind,
               const char *name, int api, struct proc **pp)
{
    struct proc *p = proc_of(n, gtid);
    struct pr_event *e;
    uint32_t id, pid, tid;

    if (p == NULL || (id = intern(p->t, name)) == PR_STR_NONE)
        return NULL;
    /* "cudaLaunchKernel_v7000": the analyses' name rules expect no
     * version */
    if (api && (id = pr_megengine_api_name(p->t->strs, id)) == PR_STR_NONE)
        return NULL;
    if ((e = add_event(n, p, q, kind, id)) == NULL)
        return NULL;
    pid = intern_num(p->t, (gtid >> ID_BITS) & ID_MASK);
    tid = intern_num(p->t, gtid & ID_MASK);
    if (pid == PR_STR_NONE || tid == PR_STR_NONE ||
        pr_event_set_where(p->t, e, pr_event_cat(p->t, e), pid, tid) != PR_OK)
        return NULL;
    *pp = p;
    return e;
}

static const char *const runtime_cols[] = {
    "!start", "!end", "eventClass", "globalTid", "correlationId", "nameId"};

static enum pr_status
on_runtime(struct nsys *n, sqlite3_stmt *q)
{
    const char *name = string_of(n, q, 5);
    int driver = col_i64(n, q, 2, 0) == CLASS_DRIVER;
    struct pr_event *e;
    struct proc *p;

    if (name == NULL)
        name = driver ? "(unnamed driver call)" : "(unnamed runtime call)";
    else if (name[0] == 'c' && name[1] == 'u' &&
             isupper((unsigned char)name[2]))
        driver = 1;
    e = add_host_event(n, q, col_i64(n, q, 3, 0),
                       driver ? PR_KIND_DRIVER_CALL : PR_KIND_RUNTIME_CALL,
                       name, 1, &p);
    if (e == NULL)
        return PR_E_NOMEM;
    return pr_event_set_correlation(p->t, e, col_i64(n, q, 4, PR_NO_ID));
}

/* ------------------------------------------------------------ NVTX */

/* What PyTorch's emit_nvtx appends to an operator's name (getNvtxStr in
 * torch/csrc/profiler/util.cpp, >= 1.1: ", seq = " on every range with a
 * sequence number, forward ops and autograd nodes alike); PyTorch 0.4 and
 * 1.0 wrote ", seq=" on forward ops and ", stashed seq=" on the backward
 * node's apply() (RecordFunction(Function*) in
 * torch/csrc/autograd/profiler.cpp). */
enum { K_SEQ, K_OP_ID, K_SIZES, K_INPUTS, K_SEQ_OLD, K_STASHED, N_KEYS };
static const char *const op_keys[N_KEYS] = {
    ", seq = ",          ", op_id = ", ", sizes = ",
    ", input_op_ids = ", ", seq=",     ", stashed seq="};

struct nvtx_op {
    size_t name_len;   /* the operator's name: the text before the keys */
    int64_t seq;       /* autograd sequence number; -1 absent */
    int stashed;       /* the sequence number was a ", stashed seq=" */
    const char *sizes; /* "[[64, 512], [512, 1000]]"; NULL absent */
    size_t sizes_len;
};

/* Length of the bracketed list at s ("[[1, 2], []]"), 0 if there is none
 * or it is not closed. */
static size_t
list_len(const char *s)
{
    size_t i, depth = 0;

    if (s[0] != '[')
        return 0;
    for (i = 0; s[i] != '\0'; i++) {
        if (s[i] == '[')
            depth++;
        else if (s[i] == ']' && --depth == 0)
            return i + 1;
    }
    return 0;
}

/* 1 when `s` is an emit_nvtx operator string, its parts in *op. */
static int
parse_op(const char *s, struct nvtx_op *op)
{
    static const int seq_keys[] = {K_SEQ, K_STASHED, K_SEQ_OLD};
    const char *first = NULL, *k;
    size_t i, d;

    for (i = 0; i < N_KEYS; i++) {
        k = strstr(s, op_keys[i]);
        if (k != NULL && (first == NULL || k < first))
            first = k;
    }
    if (first == NULL || first == s)
        return 0;
    op->name_len = (size_t)(first - s);
    op->seq = -1;
    op->stashed = 0;
    op->sizes = NULL;
    op->sizes_len = 0;
    for (i = 0; i < sizeof(seq_keys) / sizeof(seq_keys[0]); i++) {
        if ((k = strstr(first, op_keys[seq_keys[i]])) == NULL)
            continue;
        k += strlen(op_keys[seq_keys[i]]);
        for (d = 0; k[d] >= '0' && k[d] <= '9'; d++)
            ;
        if (!pr_fld_parse_int64(k, d, &op->seq))
            op->seq = -1;
        op->stashed = seq_keys[i] == K_STASHED && op->seq >= 0;
        break;
    }
    if ((k = strstr(first, op_keys[K_SIZES])) != NULL) {
        k += strlen(op_keys[K_SIZES]);
        op->sizes_len = list_len(k);
        op->sizes = op->sizes_len ? k : NULL;
    }
    return 1;
}

/* Whether s starts with the lower-case word w, in any case. */
static int
same_lower(const char *s, const char *w)
{
    for (; *w; s++, w++) {
        if (tolower((unsigned char)*s) != *w)
            return 0;
    }
    return 1;
}

/* Whether the word before s[w] (after a space, '_' or '-') names a part
 * of an iteration whose call is a "step" in PyTorch's API: the optimizer's
 * (optimizer.step()), the learning-rate scheduler's, GradScaler's
 * (scaler.step(optimizer)), an EMA's.  A CS336 A100 export's "optimizer
 * step" range was taken for the training step: 59 ms of a 236 ms
 * iteration, its forward and backward left out. */
static int
part_of_step(const char *s, size_t w)
{
    static const char *const parts[] = {
        "optimizer", "optim", "opt",  "scheduler", "sched", "lr",
        "scaler",    "ema",   "adam", "adamw",     "sgd"};
    size_t e = w, b, i;

    while (e > 0 && strchr(" _-", s[e - 1]) != NULL)
        e--;
    for (b = e; b > 0 && isalpha((unsigned char)s[b - 1]); b--)
        ;
    for (i = 0; e < w && i < sizeof(parts) / sizeof(parts[0]); i++)
        if (strlen(parts[i]) == e - b && same_lower(s + b, parts[i]))
            return 1;
    return 0;
}

/* A user range named like a training step: a last word "step",
 * "iteration" or "iter" (any case; "ProfilerStep" too), after nothing or
 * a space, '_' or '-' (so "optimizer.step" is no step), then an optional
 * number: "step 3", "train_step", "Iteration#12"; not a part of one
 * ("optimizer step", "lr_scheduler_step": part_of_step).  *num gets the
 * number, -1 when there is none. */
static int
step_name(const char *s, int64_t *num)
{
    static const char *const words[] = {"step", "iteration", "iter",
                                        "profilerstep"};
    size_t n = strlen(s), k = n, j, w, i;

    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    for (j = k; j > 0 && strchr(" _#:-=", s[j - 1]) != NULL; j--)
        ;
    for (w = j; w > 0 && isalpha((unsigned char)s[w - 1]); w--)
        ;
    if (w > 0 && strchr(" _-", s[w - 1]) == NULL)
        return 0;
    if (k == n && j != n) /* "step_" */
        return 0;
    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        if (strlen(words[i]) == j - w && same_lower(s + w, words[i]))
            break;
    }
    if (i == sizeof(words) / sizeof(words[0]) || part_of_step(s, w))
        return 0;
    if (k == n || n - k > 18 || !pr_fld_parse_int64(s + k, n - k, num))
        *num = -1;
    return 1;
}

/* NVTX_EVENTS' columns as on_nvtx selects them */
enum { N_START, N_END, N_TYPE, N_TID, N_TEXT, N_JSON };

/* nsys's PyTorch ranges give "autograd::engine::evaluate_function:
 * MaxBackward0, op_id = 75874" no sequence number, only the node range
 * inside it ("MaxBackward0, seq = 12339, ..."); Kineto gives both the
 * node's number and forward thread, so the backward root is the
 * evaluate_function, which also holds the gradient's accumulation into
 * its input (the aten::add_ outside the node's range).  A CS336 A100
 * export's backward was 8.05 ms (8.8%) short without it.  The pending
 * evaluate_function of p takes the number of the first node range of its
 * name that starts inside it on its thread; op (at index idx, on thread
 * gtid from start to end) is either. */
static void
eval_op(struct proc *p, int64_t gtid, int64_t start, int64_t end,
        const char *text, const struct nvtx_op *op, uint32_t idx)
{
    static const char pre[] = "autograd::engine::evaluate_function: ";
    const size_t np = sizeof(pre) - 1;
    struct pr_op_info *rec;

    if (op->seq < 0 && op->name_len > np && strncmp(text, pre, np) == 0 &&
        op->name_len - np < sizeof(p->eval_node)) {
        p->eval_op = idx;
        p->eval_gtid = gtid;
        p->eval_end = end;
        memcpy(p->eval_node, text + np, op->name_len - np);
        p->eval_node[op->name_len - np] = '\0';
        return;
    }
    if (p->eval_op == PR_NO_INFO || gtid != p->eval_gtid)
        return;
    if (start >= p->eval_end) {
        p->eval_op = PR_NO_INFO; /* it ended with no node range inside */
        return;
    }
    if (op->seq < 0 || strlen(p->eval_node) != op->name_len ||
        strncmp(text, p->eval_node, op->name_len) != 0 ||
        (rec = pr_trace_op_edit(p->t, p->eval_op)) == NULL)
        return;
    rec->seq = op->seq;
    rec->fwd_tid =
        (gtid >> ID_BITS) & ID_MASK ? (gtid >> ID_BITS) & ID_MASK : 1;
    p->eval_op = PR_NO_INFO;
}

/* An emit_nvtx operator: the name alone, with its sequence number and
 * input shapes (no dtypes: emit_nvtx records none). */
static enum pr_status
add_op(struct nsys *n, sqlite3_stmt *q, int64_t gtid, const char *text,
       const struct nvtx_op *op)
{
    struct pr_op_info *rec;
    struct pr_event *e;
    struct proc *p;
    uint32_t idx;

    pr_buf_reset(&n->tmp);
    if (pr_buf_add(&n->tmp, text, op->name_len) != PR_OK ||
        pr_buf_addc(&n->tmp, '\0') != PR_OK)
        return PR_E_NOMEM;
    e = add_host_event(n, q, gtid, PR_KIND_HOST_OP, n->tmp.data, 0, &p);
    if (e == NULL || (rec = pr_trace_add_op(p->t, &idx)) == NULL)
        return PR_E_NOMEM;
    e->info = idx;
    rec->seq = op->seq;
    eval_op(p, gtid, col_i64(n, q, N_START, 0), col_i64(n, q, N_END, 0), text,
            op, idx);
    rec = pr_trace_op_edit(p->t, idx); /* eval_op may have edited another */
    if (rec == NULL)
        return PR_E_NOMEM;
    /* an autograd node's range: a backward op, as Kineto's "Fwd thread
       id" marks it.  emit_nvtx names no forward thread, so the process's
       main thread (its tid is the pid), where a training loop runs its
       forward, stands for it (only > 0 is read: is_backward in
       analysis/ops) */
    if (op->seq >= 0 &&
        (op->stashed || pr_parse_autograd_node(text, op->name_len)))
        rec->fwd_tid =
            (gtid >> ID_BITS) & ID_MASK ? (gtid >> ID_BITS) & ID_MASK : 1;
    if (op->sizes == NULL)
        return PR_OK;
    rec->input_dims = pr_strtab_intern(p->t->strs, op->sizes, op->sizes_len);
    if (rec->input_dims == PR_STR_NONE)
        return PR_E_NOMEM;
    return pr_shapes_note(p->t, PR_SHAPES_DIMS, rec->input_dims);
}

/* A step range becomes "ProfilerStep#N", the name the step analysis
 * knows; unnumbered ones are numbered in order. */
static enum pr_status
add_annotation(struct nsys *n, sqlite3_stmt *q, int64_t gtid, const char *text)
{
    struct proc *p = proc_of(n, gtid);
    char step[40];
    int64_t num;

    if (p == NULL)
        return PR_E_NOMEM;
    if (step_name(text, &num)) {
        snprintf(step, sizeof(step), "ProfilerStep#%lld",
                 (long long)(num >= 0 ? num : p->steps));
        p->steps++;
        text = step;
    }
    return add_host_event(n, q, gtid, PR_KIND_ANNOTATION, text, 0, &p)
               ? PR_OK
               : PR_E_NOMEM;
}

/* An NCCL that describes its calls in NVTX payloads gives a communicator's
 * creation in its NVTX range's payload, which nsys exports as JSON
 * (NVTX_EVENTS.jsonText): ncclCommInitRankConfig {"NCCL communicator ID": ...,
 * "No. of ranks": 2, "Rank": 1, "CUDA device": 1} (a CS336 DDP export).
 * The largest communicator a process joins is
 * taken as its job's world (PyTorch's default group spans every rank),
 * and its rank there as the process's; a process that joins two of that
 * size as different ranks gets none. */
#define NCCL_JSON_MAX 4096
static void
nccl_rank_of(struct proc *p, const char *text, const cJSON *j)
{
    double rank, size, id;

    if (strncmp(text, "ncclComm", 8) != 0)
        return;
    rank = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "Rank"));
    size = cJSON_GetNumberValue(
        cJSON_GetObjectItemCaseSensitive(j, "No. of ranks"));
    id = cJSON_GetNumberValue(
        cJSON_GetObjectItemCaseSensitive(j, "NCCL communicator ID"));
    if (!(size >= 1 && size <= 1e6 && rank >= 0 && rank < size &&
          rank == (double)(int64_t)rank && size == (double)(int64_t)size))
        return;
    if (id > 0 && id < 1.9e19 && p->n_comms < MAX_COMMS) {
        p->comms[p->n_comms].id = (uint64_t)id;
        p->comms[p->n_comms++].size = (int64_t)size;
    }
    if ((int64_t)size > p->nccl_size) {
        p->nccl_size = (int64_t)size;
        p->nccl_rank = (int64_t)rank;
        p->nccl_clash = 0;
    } else if ((int64_t)size == p->nccl_size && (int64_t)rank != p->nccl_rank)
        p->nccl_clash = 1;
}

/* NCCL's call ranges whose payload gives the message size ("Message
 * size [bytes]", "Bytes" in older NCCL's Broadcast, Send and Recv): one
 * call each, kept for nccl_sizes.  0 on out-of-memory. */
static int
nccl_call_of(struct proc *p, int64_t gtid, int64_t start, int64_t end,
             const char *text, const cJSON *j)
{
    static const char *const calls[] = {
        "ncclAllReduce",     "ncclBroadcast", "ncclReduce", "ncclAllGather",
        "ncclReduceScatter", "ncclSend",      "ncclRecv"};
    struct nccl_call *c;
    double bytes, comm;
    size_t i;

    for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
        if (strcmp(text, calls[i]) == 0)
            break;
    if (i == sizeof(calls) / sizeof(calls[0]))
        return 1;
    bytes = cJSON_GetNumberValue(
        cJSON_GetObjectItemCaseSensitive(j, "Message size [bytes]"));
    if (isnan(bytes))
        bytes =
            cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "Bytes"));
    comm = cJSON_GetNumberValue(
        cJSON_GetObjectItemCaseSensitive(j, "NCCL communicator ID"));
    if (!(bytes >= 0 && bytes < 9e18) || end < start)
        return 1;
    if (pr_grow((void **)&p->calls, &p->cap_calls, p->n_calls + 1,
                sizeof(*p->calls)) != PR_OK)
        return 0;
    c = &p->calls[p->n_calls];
    if ((c->tid = intern_num(p->t, gtid & ID_MASK)) == PR_STR_NONE)
        return 0;
    p->n_calls++;
    c->start = start;
    c->end = end;
    c->bytes = (int64_t)bytes;
    c->comm = comm > 0 && comm < 1.9e19 ? (uint64_t)comm : 0;
    c->share = strcmp(text, "ncclAllGather") == 0       ? 1
               : strcmp(text, "ncclReduceScatter") == 0 ? 2
                                                        : 0;
    return 1;
}

static enum pr_status
on_nvtx(struct nsys *n, sqlite3_stmt *q)
{
    const char *text = (const char *)sqlite3_column_text(q, N_TEXT);
    int64_t gtid = col_i64(n, q, N_TID, 0);
    struct nvtx_op op;
    struct proc *p;

    if (sqlite3_column_type(q, N_END) == SQLITE_NULL) {
        /* a range the capture ended inside */
        if ((p = proc_of(n, gtid)) == NULL)
            return PR_E_NOMEM;
        p->t->diag.skipped_no_dur++;
        return PR_OK;
    }
    if (text == NULL)
        text = "(unnamed range)";
    if (sqlite3_column_type(q, N_JSON) == SQLITE_TEXT &&
        strncmp(text, "nccl", 4) == 0) {
        /* NCCL's payload, parsed once for both readings */
        const char *js = (const char *)sqlite3_column_text(q, N_JSON);
        int len = sqlite3_column_bytes(q, N_JSON), ok;
        cJSON *j = js != NULL && len > 0 && len <= NCCL_JSON_MAX
                       ? cJSON_ParseWithLength(js, (size_t)len)
                       : NULL;

        if (j != NULL) {
            if ((p = proc_of(n, gtid)) == NULL) {
                cJSON_Delete(j);
                return PR_E_NOMEM;
            }
            nccl_rank_of(p, text, j);
            ok = nccl_call_of(p, gtid, col_i64(n, q, N_START, 0),
                              col_i64(n, q, N_END, 0), text, j);
            cJSON_Delete(j);
            if (!ok)
                return PR_E_NOMEM;
        }
    }
    if (parse_op(text, &op))
        return add_op(n, q, gtid, text, &op);
    return add_annotation(n, q, gtid, text);
}

/* Ranges only (ENUM_NSYS_EVENT_TYPE 59 push/pop, 60 start/end), their text
 * inline or a registered string; in time order, so unnumbered steps count up.
 */
static enum pr_status
read_nvtx(struct nsys *n)
{
    int has = pr_sqlite_has_table(n->db, "NVTX_EVENTS"), ids, json;

    if (has <= 0)
        return has < 0
                   ? pr_error_set(n->err, PR_E_FORMAT, "cannot read the schema")
                   : PR_OK;
    ids = pr_sqlite_has_column(n->db, "NVTX_EVENTS", "textId") == 1;
    json = pr_sqlite_has_column(n->db, "NVTX_EVENTS", "jsonText") == 1;
    pr_buf_reset(&n->sql);
    if (pr_buf_adds(&n->sql, "SELECT n.start, n.end, n.eventType, "
                             "n.globalTid, ") != PR_OK ||
        pr_buf_adds(&n->sql, ids ? "COALESCE(n.text, s.value), "
                                 : "n.text, ") != PR_OK ||
        pr_buf_adds(&n->sql, json ? "n.jsonText" : "NULL") != PR_OK ||
        pr_buf_adds(&n->sql, ids ? " FROM NVTX_EVENTS n LEFT JOIN StringIds "
                                   "s ON s.id = n.textId"
                                 : " FROM NVTX_EVENTS n") != PR_OK ||
        pr_buf_adds(&n->sql, " WHERE n.eventType IN (59, 60) ORDER BY "
                             "n.start") != PR_OK ||
        pr_buf_addc(&n->sql, '\0') != PR_OK)
        return pr_error_set(n->err, PR_E_NOMEM, "out of memory");
    return each_row(n, "NVTX_EVENTS", on_nvtx);
}

/* ------------------------------------------------------------ devices */

/* TARGET_INFO_GPU, as deviceProperties: what the peaks and the occupancy
 * need. */
static const char *const gpu_cols[] = {"!id",
                                       "name",
                                       "totalMemory",
                                       "computeMajor",
                                       "computeMinor",
                                       "smCount",
                                       "maxThreadsPerBlock",
                                       "maxWarpsPerSm",
                                       "threadsPerWarp",
                                       "maxRegistersPerBlock",
                                       "maxRegistersPerSm",
                                       "maxShmemPerBlock",
                                       "maxShmemPerSm",
                                       "maxShmemPerBlockOptin",
                                       "clockRate",
                                       "memoryBandwidth"};
enum {
    G_ID,
    G_NAME,
    G_MEM,
    G_MAJOR,
    G_MINOR,
    G_SMS,
    G_TPB,
    G_WARPS,
    G_WARP,
    G_RPB,
    G_RPSM,
    G_SPB,
    G_SPSM,
    G_OPTIN,
    G_CLOCK, /* Hz */
    G_BW,    /* B/s */
    G_N
};
_Static_assert(G_N <= sizeof(((struct gpu_row *)0)->v) / sizeof(int64_t),
               "struct gpu_row holds every column of gpu_cols");

static enum pr_status
on_gpu(struct nsys *n, sqlite3_stmt *q)
{
    const unsigned char *name = sqlite3_column_text(q, G_NAME);
    struct gpu_row *g;
    int i;

    if (pr_grow((void **)&n->gpus.v, &n->gpus.cap, n->gpus.n + 1, sizeof(*g)) !=
        PR_OK)
        return PR_E_NOMEM;
    g = &n->gpus.v[n->gpus.n++];
    for (i = 0; i < G_N; i++)
        g->v[i] = i == G_NAME ? (int64_t)n->names.len : col_i64(n, q, i, -1);
    if (pr_buf_adds(&n->names, name ? (const char *)name : "") != PR_OK ||
        pr_buf_addc(&n->names, '\0') != PR_OK)
        return PR_E_NOMEM;
    return PR_OK;
}

/* The capture's length: nsys's own ANALYSIS_DETAILS.duration (ns), the
 * whole session from start to stop, process start-up included. */
static const char *const details_cols[] = {"!duration"};

static enum pr_status
on_details(struct nsys *n, sqlite3_stmt *q)
{
    int64_t d = col_ns(n, q, 0, 0);

    if (d > n->capture_ns)
        n->capture_ns = d;
    return PR_OK;
}

static const char *const map_cols[] = {"!gpuId", "!cudaId", "pid"};

static enum pr_status
on_map(struct nsys *n, sqlite3_stmt *q)
{
    int64_t *m;
    int i;

    if (pr_grow((void **)&n->gpus.map, &n->gpus.cap_map, n->gpus.n_map + 1,
                sizeof(*n->gpus.map)) != PR_OK)
        return PR_E_NOMEM;
    m = n->gpus.map[n->gpus.n_map++];
    for (i = 0; i < 3; i++)
        m[i] = col_i64(n, q, i, -1);
    return PR_OK;
}

/* The GPU that is CUDA device `cuda` of process `pid`: through
 * TARGET_INFO_CUDA_DEVICE when the export maps it, else the same id. */
static const struct gpu_row *
gpu_of(const struct gpus *g, int64_t pid, int64_t cuda)
{
    int64_t want = cuda;
    size_t i;

    for (i = 0; i < g->n_map; i++) {
        if (g->map[i][1] == cuda && (g->map[i][2] == pid || g->map[i][2] < 0))
            want = g->map[i][0];
    }
    for (i = 0; i < g->n; i++) {
        if (g->v[i].v[G_ID] == want)
            return &g->v[i];
    }
    return NULL;
}

static int
as_int(int64_t v)
{
    return v < 0 || v > INT32_MAX ? -1 : (int)v;
}

/* deviceProperties of p's trace: CUDA devices 0, 1, ... as far as the
 * export knows them. */
static enum pr_status
give_devices(struct nsys *n, struct proc *p)
{
    int64_t pid = (p->gpid >> ID_BITS) & ID_MASK, k;
    const struct gpu_row *g;
    struct pr_device *d;

    for (k = 0; (g = gpu_of(&n->gpus, pid, k)) != NULL; k++) {
        const int64_t *v = g->v;

        if ((d = pr_trace_add_device(p->t)) == NULL)
            return PR_E_NOMEM;
        d->id = k;
        d->name = intern(p->t, n->names.data + v[G_NAME]);
        if (d->name == PR_STR_NONE)
            return PR_E_NOMEM;
        d->total_global_mem = v[G_MEM];
        d->compute_major = as_int(v[G_MAJOR]);
        d->compute_minor = as_int(v[G_MINOR]);
        d->num_sms = as_int(v[G_SMS]);
        d->max_threads_per_block = as_int(v[G_TPB]);
        d->max_threads_per_sm = v[G_WARPS] < 0 || v[G_WARP] < 0
                                    ? -1
                                    : as_int(v[G_WARPS] * v[G_WARP]);
        d->regs_per_block = as_int(v[G_RPB]);
        d->regs_per_sm = as_int(v[G_RPSM]);
        d->warp_size = as_int(v[G_WARP]);
        d->smem_per_block = v[G_SPB];
        d->smem_per_sm = v[G_SPSM];
        d->smem_per_block_optin = v[G_OPTIN];
        /* the part's own clock and bandwidth: they win over a guess from
           another part of its compute capability (peaks.c) */
        d->clock_mhz = v[G_CLOCK] > 0 ? (double)v[G_CLOCK] / 1e6 : -1;
        d->mem_gbps = v[G_BW] > 0 ? (double)v[G_BW] / 1e9 : -1;
    }
    return PR_OK;
}

/* ------------------------------------------------------------ links */

/* The export has no ids from operators to their launches: a launch
 * belongs to the innermost emit_nvtx operator around it on its thread
 * (PyProf's rule), and its kernels, by correlationId, to the same one.
 * The links are written as Kineto writes them, as external ids (each
 * operator its own), which the operator tree and the per-operator kernel
 * time both follow. */
struct span_ref {
    uint32_t tid;
    int64_t start, end;
    size_t ev;
    int op; /* 1 operator, 0 launch */
};

static int
cmp_span(const void *a, const void *b)
{
    const struct span_ref *x = a, *y = b;

    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->op != y->op) /* an operator opens before a launch at its start */
        return y->op - x->op;
    if (x->end != y->end) /* outer first */
        return x->end > y->end ? -1 : 1;
    return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* Operators (numbered as their external ids) and launches of t, sorted by
 * thread and time; NULL on out-of-memory. */
static struct span_ref *
collect_spans(struct pr_trace *t, size_t *n_out)
{
    struct span_ref *v = malloc((t->n_events ? t->n_events : 1) * sizeof(*v));
    size_t i, n = 0;
    int64_t next_id = 1;

    if (v == NULL)
        return NULL;
    for (i = 0; i < t->n_events; i++) {
        struct pr_event *e = &t->events[i];
        int op = e->kind == PR_KIND_HOST_OP;

        if (!op && e->kind != PR_KIND_RUNTIME_CALL &&
            e->kind != PR_KIND_DRIVER_CALL)
            continue;
        if (op && pr_event_set_external_id(t, e, next_id++) != PR_OK) {
            free(v);
            return NULL;
        }
        v[n].tid = pr_event_tid(t, e);
        v[n].start = e->ts_ns;
        v[n].end = pr_sat_add_i64(e->ts_ns, e->dur_ns);
        v[n].ev = i;
        v[n++].op = op;
    }
    qsort(v, n, sizeof(*v), cmp_span);
    *n_out = n;
    return v;
}

/* Give each launch the id of the innermost operator around it: one sweep
 * per thread with the stack of operators open at the launch's start. */
static enum pr_status
link_launches(struct pr_trace *t, const struct span_ref *v, size_t n,
              size_t *stack)
{
    size_t i, top = 0, k;

    for (i = 0; i < n; i++) {
        const struct span_ref *x = &v[i];

        if (i > 0 && v[i - 1].tid != x->tid)
            top = 0;
        while (top > 0 && v[stack[top - 1]].end < x->start)
            top--;
        if (x->op) {
            stack[top++] = i;
            continue;
        }
        for (k = top; k > 0; k--) {
            const struct span_ref *o = &v[stack[k - 1]];

            if (o->start <= x->start && o->end >= x->end) {
                if (pr_event_set_external_id(
                        t, &t->events[x->ev],
                        pr_event_external_id(t, &t->events[o->ev])) != PR_OK)
                    return PR_E_NOMEM;
                break;
            }
        }
    }
    return PR_OK;
}

struct corr_ref {
    int64_t corr, ext;
};

static int
cmp_corr(const void *a, const void *b)
{
    const struct corr_ref *x = a, *y = b;

    return x->corr < y->corr ? -1 : x->corr > y->corr;
}

/* The launches of t (runtime and driver calls) that carry a
 * correlationId, into c sorted by it: ext, each one's external id (those
 * without one left out) where by_ext, else its event index; how many. */
static size_t
launches_by_corr(const struct pr_trace *t, struct corr_ref *c, int by_ext)
{
    size_t i, n = 0;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t ext = by_ext ? pr_event_external_id(t, e) : (int64_t)i,
                corr = pr_event_correlation(t, e);

        if ((e->kind == PR_KIND_RUNTIME_CALL ||
             e->kind == PR_KIND_DRIVER_CALL) &&
            ext != PR_NO_ID && corr != PR_NO_ID) {
            c[n].corr = corr;
            c[n++].ext = ext;
        }
    }
    qsort(c, n, sizeof(*c), cmp_corr);
    return n;
}

/* Device work takes its launch's operator id, by correlationId. */
static enum pr_status
link_devices(struct pr_trace *t, struct corr_ref *c)
{
    size_t i, n = launches_by_corr(t, c, 1);

    for (i = 0; i < t->n_events && n > 0; i++) {
        struct pr_event *e = &t->events[i];
        struct corr_ref key, *hit;

        if (pr_info_table_of(e->kind) != PR_INFO_GPU ||
            (key.corr = pr_event_correlation(t, e)) == PR_NO_ID)
            continue;
        hit = bsearch(&key, c, n, sizeof(*c), cmp_corr);
        if (hit != NULL && pr_event_set_external_id(t, e, hit->ext) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

static enum pr_status
link_ops(struct pr_trace *t)
{
    size_t n = 0, *stack = NULL;
    struct span_ref *v = collect_spans(t, &n);
    struct corr_ref *c = NULL;
    enum pr_status st = PR_E_NOMEM;

    if (v != NULL)
        stack = malloc((n ? n : 1) * sizeof(*stack));
    if (stack != NULL)
        c = malloc((n ? n : 1) * sizeof(*c));
    if (c != NULL) {
        st = link_launches(t, v, n, stack);
        if (st == PR_OK)
            st = link_devices(t, c);
    }
    free(v);
    free(stack);
    free(c);
    return st;
}

/* ------------------------------------------------------------ dtypes */

/* emit_nvtx records shapes but no dtypes, and without one neither the
 * FLOP count's precision nor the tensor-core rules can speak (an fp32
 * GEMM without TF32 is the finding users most need).  The GEMM and
 * convolution kernels an operator launched name their element type
 * ("sm80_xmma_gemm_f32f32_...", "ampere_bf16_s16816gemm_..."), so their
 * operator's tensor inputs get it.  Other kernels' names (elementwise
 * templates) say too little to be trusted; nvjet names say nothing. */
static const char *
kernel_dtype(const char *name)
{
    static const char *const half[] = {"f16",    "h884",  "h1688",
                                       "h16816", "hgemm", "half"};
    static const char *const single[] = {"f32", "sgemm", "_ffma", "s1688"};
    char low[256];
    size_t i;

    for (i = 0; i + 1 < sizeof(low) && name[i] != '\0'; i++)
        low[i] = (char)tolower((unsigned char)name[i]);
    low[i] = '\0';
    if (strstr(low, "gemm") == NULL && strstr(low, "xmma") == NULL &&
        strstr(low, "conv") == NULL)
        return NULL;
    if (strstr(low, "bf16") != NULL)
        return "c10::BFloat16";
    for (i = 0; i < sizeof(half) / sizeof(half[0]); i++) {
        if (strstr(low, half[i]) != NULL)
            return "c10::Half";
    }
    for (i = 0; i < sizeof(single) / sizeof(single[0]); i++) {
        if (strstr(low, single[i]) != NULL)
            return "float";
    }
    return NULL;
}

/* "['float', 'float', '']" for sizes "[[64, 512], [512, 1000], []]": the
 * type for every tensor (or tensor list), '' for the empty entries. */
static enum pr_status
types_text(struct pr_buf *b, const char *sizes, const char *type)
{
    enum pr_status st = pr_buf_addc(b, '[');
    int depth = 0, first = 1;

    for (; st == PR_OK && *sizes != '\0'; sizes++) {
        if (*sizes == ']')
            depth--;
        if (*sizes != '[' || depth++ != 1)
            continue;
        while (sizes[1] == ' ')
            sizes++;
        st = pr_buf_printf(b, "%s'%s'", first ? "" : ", ",
                           sizes[1] == ']' ? "" : type);
        first = 0;
    }
    return st == PR_OK ? pr_buf_addc(b, ']') : st;
}

/* Give the operators with shapes but no types the type their kernels
 * name; *guessed counts them. */
static enum pr_status
guess_types(struct nsys *n, struct pr_trace *t, size_t *guessed)
{
    const char **by_op = calloc(t->n_events + 1, sizeof(*by_op));
    enum pr_status st = by_op ? PR_OK : PR_E_NOMEM;
    size_t i;

    for (i = 0; st == PR_OK && i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t ext = pr_event_external_id(t, e);

        if (e->kind == PR_KIND_DEVICE_TASK && ext > 0 &&
            (uint64_t)ext <= t->n_events && by_op[ext] == NULL)
            by_op[ext] = kernel_dtype(pr_trace_str(t, e->name));
    }
    for (i = 0; st == PR_OK && i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t ext = pr_event_external_id(t, e);
        struct pr_op_info ob, *op;

        if (e->kind != PR_KIND_HOST_OP || ext <= 0 ||
            (uint64_t)ext > t->n_events || by_op[ext] == NULL ||
            pr_trace_op(t, e, &ob) == NULL)
            continue;
        if (ob.input_dims == PR_STR_NONE || ob.input_types != PR_STR_NONE)
            continue;
        if ((op = pr_trace_op_edit(t, e->info)) == NULL) {
            st = PR_E_NOMEM;
            break;
        }
        pr_buf_reset(&n->tmp);
        st = types_text(&n->tmp, pr_trace_str(t, op->input_dims), by_op[ext]);
        if (st == PR_OK &&
            (op->input_types = pr_strtab_intern(t->strs, n->tmp.data,
                                                n->tmp.len)) == PR_STR_NONE)
            st = PR_E_NOMEM;
        if (st == PR_OK)
            st = pr_shapes_note(t, PR_SHAPES_TYPES, op->input_types);
        (*guessed)++;
    }
    free(by_op);
    return st;
}

/* NCCL kernels take the message size of the NCCL call range their launch
 * lies in (on its thread), as bytes: in and out the message, except
 * AllGather's gathered output and ReduceScatter's whole input, its size
 * times the communicator's ranks, which nccl-tests' sizes are (comm.c
 * meta_bytes); left unsized where the range's communicator is not known.
 * Grouped calls (ncclGroupStart ... End) launch their kernel at the end,
 * outside any call range: unsized. */
static int
cmp_call(const void *a, const void *b)
{
    const struct nccl_call *x = a, *y = b;

    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int64_t
comm_size(const struct proc *p, uint64_t id)
{
    size_t i;

    for (i = 0; id != 0 && i < p->n_comms; i++)
        if (p->comms[i].id == id)
            return p->comms[i].size;
    return -1;
}

/* The call range on thread tid around ts, or NULL. */
static const struct nccl_call *
call_at(const struct proc *p, uint32_t tid, int64_t ts)
{
    size_t lo = 0, hi = p->n_calls;

    while (lo < hi) { /* the first call after (tid, ts) */
        size_t mid = lo + (hi - lo) / 2;
        const struct nccl_call *c = &p->calls[mid];

        if (c->tid < tid || (c->tid == tid && c->start <= ts))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || p->calls[lo - 1].tid != tid || p->calls[lo - 1].end < ts)
        return NULL;
    return &p->calls[lo - 1];
}

static enum pr_status
nccl_sizes(struct proc *p)
{
    struct pr_trace *t = p->t;
    struct corr_ref *c, key, *hit;
    size_t i, n = 0;
    uint32_t byte;

    if (p->n_calls == 0)
        return PR_OK;
    qsort(p->calls, p->n_calls, sizeof(*p->calls), cmp_call);
    c = malloc((t->n_events ? t->n_events : 1) * sizeof(*c));
    if (c == NULL || (byte = intern(t, "Byte")) == PR_STR_NONE) {
        free(c);
        return PR_E_NOMEM;
    }
    n = launches_by_corr(t, c, 0);
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i], *l;
        const struct nccl_call *call;
        struct pr_gpu_info *g;
        int64_t size;

        if (e->kind != PR_KIND_DEVICE_TASK || e->info == PR_NO_INFO ||
            pr_info_table_of(e->kind) != PR_INFO_GPU ||
            strncmp(pr_trace_str(t, e->name), "nccl", 4) != 0)
            continue;
        key.corr = pr_event_correlation(t, e);
        hit = key.corr == PR_NO_ID ? NULL
                                   : bsearch(&key, c, n, sizeof(*c), cmp_corr);
        l = hit != NULL ? &t->events[hit->ext] : NULL;
        call = l != NULL ? call_at(p, pr_event_tid(t, l), l->ts_ns) : NULL;
        size = call != NULL ? comm_size(p, call->comm) : -1;
        if (call == NULL || (call->share && size < 1) ||
            (size > 0 && call->bytes > INT64_MAX / size))
            continue;
        g = &t->gpu[e->info];
        g->dtype = byte;
        g->in_nelems = call->share == 2 ? call->bytes * size : call->bytes;
        g->out_nelems = call->share == 1 ? call->bytes * size : call->bytes;
        g->group_size = size > 0 ? (int32_t)size : -1;
    }
    free(c);
    return PR_OK;
}

/* ------------------------------------------------------------ gaps */

/* What one run holds, for saying what the export cannot give. */
struct run_facts {
    size_t ops, ops_no_sizes, kernels, nccl, nccl_sized, guessed;
    int64_t first_ns, last_ns; /* the events' span; first > last: none */
};

static void
run_facts(const struct pr_trace *t, struct run_facts *f)
{
    size_t i;

    f->first_ns = INT64_MAX;
    f->last_ns = INT64_MIN;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        struct pr_op_info ob;

        if (pr_kind_in_capture(e->kind) && e->ts_ns < f->first_ns)
            f->first_ns = e->ts_ns;
        if (pr_kind_in_capture(e->kind) &&
            pr_sat_add_i64(e->ts_ns, e->dur_ns) > f->last_ns)
            f->last_ns = pr_sat_add_i64(e->ts_ns, e->dur_ns);
        if (e->kind == PR_KIND_HOST_OP) {
            f->ops++;
            f->ops_no_sizes +=
                pr_trace_op(t, e, &ob) != NULL && ob.input_dims == PR_STR_NONE;
        } else if (e->kind == PR_KIND_DEVICE_TASK) {
            int nccl = strncmp(pr_trace_str(t, e->name), "nccl", 4) == 0;

            f->kernels++;
            f->nccl += nccl;
            f->nccl_sized +=
                nccl && e->info != PR_NO_INFO && t->gpu[e->info].in_nelems >= 0;
        }
    }
}

static enum pr_status
gap(struct pr_trace *t, const char *kind, size_t count, const char *text)
{
    return pr_trace_add_gap(t, kind, count, text);
}

/* "1871.6 ms", "138.03 s", "29.0 µs" */
static void
fmt_ns(int64_t ns, char *b, size_t n)
{
    if (ns >= 10000000000LL)
        snprintf(b, n, "%.2f s", (double)ns / 1e9);
    else if (ns >= 1000000)
        snprintf(b, n, "%.1f ms", (double)ns / 1e6);
    else
        snprintf(b, n, "%.1f \xC2\xB5s", (double)ns / 1e3); /* µs */
}

/* The session against the span of this process's events: every figure
 * is over the events' span (the capture window of steps.c), which leaves
 * out the session's start-up and teardown; say how much when that is
 * over a tenth of it. */
static enum pr_status
capture_gap(const struct nsys *n, struct pr_trace *t, const struct run_facts *f)
{
    char cap[32], span[32], text[400];
    int64_t s;

    if (n->capture_ns <= 0 || f->first_ns > f->last_ns)
        return PR_OK;
    s = pr_sat_sub_i64(f->last_ns, f->first_ns);
    if ((double)s >= 0.9 * (double)n->capture_ns)
        return PR_OK;
    fmt_ns(n->capture_ns, cap, sizeof(cap));
    fmt_ns(s, span, sizeof(span));
    snprintf(text, sizeof(text),
             "the nsys session ran %s (ANALYSIS_DETAILS); this process's "
             "CUDA and NVTX activity spans %s of it (%.1f%%): every figure "
             "is over that span; the rest of the session recorded none of "
             "its activity (start-up, model loading, teardown, or time "
             "outside nsys's --capture-range)",
             cap, span, 100.0 * (double)s / (double)n->capture_ns);
    return gap(t, "capture_window", 0, text);
}

/* The report's notes on what this export lacks, each with the capture
 * option that would have recorded it. */
static enum pr_status
add_gaps(const struct nsys *n, const struct proc *p, const struct run_facts *f)
{
    struct pr_trace *t = p->t;
    enum pr_status st = PR_OK;

    if (f->kernels > 0 && n->gpus.n == 0)
        st = gap(t, "no_gpu_info", 0,
                 "the export has no TARGET_INFO_GPU rows (a trimmed or "
                 "windowed export): the GPU's name, SM count and peaks are "
                 "unknown, so SM efficiency, occupancy, the roofline and "
                 "MFU need --device-spec or --peak-tflops");
    if (st == PR_OK && f->kernels > 0 && f->ops == 0)
        st = gap(t, "no_operators", 0,
                 "kernels have no operators: the export holds no PyTorch "
                 "emit_nvtx ranges (a PyTorch program: profile under "
                 "torch.autograd.profiler.emit_nvtx(record_shapes=True), "
                 "which writes the input sizes too, with nsys profile "
                 "--trace=cuda,nvtx)");
    if (st == PR_OK && f->ops_no_sizes > 0)
        st = gap(t, "no_shapes", f->ops_no_sizes,
                 "operators whose NVTX range has no \", sizes = [...]\" "
                 "(PyTorch writes an operator's input sizes there only "
                 "under torch.autograd.profiler.emit_nvtx(record_shapes="
                 "True)): no FLOPs, roofline or per-shape rows for them");
    if (st == PR_OK && f->guessed > 0)
        st = gap(t, "dtype_from_kernel", f->guessed,
                 "operators whose dtype comes from their GEMM or convolution "
                 "kernel's name: emit_nvtx records no dtypes");
    if (st == PR_OK && p->steps == 0)
        st = gap(t, "no_steps", 0,
                 "no NVTX range named like a step: the capture is one window, "
                 "not a step; "
                 "push a range per iteration (nvtx.range_push(\"step 3\"))");
    if (st == PR_OK && f->nccl > f->nccl_sized)
        st = gap(t, "no_comm_bytes", f->nccl - f->nccl_sized,
                 p->n_calls > 0
                     ? "NCCL kernels whose launch lies in no NCCL call range "
                       "that gives its message size and communicator (a "
                       "grouped call launches at ncclGroupEnd) give time "
                       "only: no bandwidth for them"
                     : "NCCL kernels give time only: the export records no "
                       "message sizes, so there is no bandwidth");
    if (st == PR_OK && !n->has_memory)
        st = gap(t, "no_memory", 0,
                 "no memory events: profile with nsys profile "
                 "--cuda-memory-usage=true for the memory curve");
    if (st == PR_OK)
        st = capture_gap(n, t, f);
    return st;
}

/* After the links: dtypes from kernels, then the notes. */
static enum pr_status
finish_run(struct nsys *n, struct proc *p)
{
    struct run_facts f;
    enum pr_status st;

    memset(&f, 0, sizeof(f));
    if (p->nccl_size > 0 && !p->nccl_clash) {
        p->t->rank = p->nccl_rank;
        p->t->world_size = p->nccl_size;
        p->t->world_source = "ncclCommInitRank";
    }
    st = guess_types(n, p->t, &f.guessed);
    if (st == PR_OK) {
        run_facts(p->t, &f);
        st = add_gaps(n, p, &f);
    }
    return st;
}

/* ------------------------------------------------------------ the runs */

/* Runs in device order (rank 0's GPU first, as a job numbers them), then
 * by pid; processes without a device last. */
static int
cmp_proc(const void *a, const void *b)
{
    const struct proc *x = a, *y = b;
    int dx = x->device < 0 ? INT32_MAX : x->device;
    int dy = y->device < 0 ? INT32_MAX : y->device;

    if (dx != dy)
        return dx < dy ? -1 : 1;
    return x->gpid < y->gpid ? -1 : x->gpid > y->gpid;
}

/* A run's name when the export holds several: its GPU and pid. */
static enum pr_status
name_run(struct proc *p)
{
    char b[64];
    long long pid = (long long)((p->gpid >> ID_BITS) & ID_MASK);

    if (p->device >= 0 && !p->devices)
        snprintf(b, sizeof(b), "gpu%d pid %lld", p->device, pid);
    else
        snprintf(b, sizeof(b), "pid %lld", pid);
    p->t->worker = intern(p->t, b);
    return p->t->worker == PR_STR_NONE ? PR_E_NOMEM : PR_OK;
}

/* Chain the runs that hold events into *out (an empty run when none
 * does: an export of a capture without CUDA or NVTX). */
static enum pr_status
hand_out(struct nsys *n, struct pr_trace **out)
{
    struct pr_trace **tail = out;
    size_t i, kept = 0;

    free(n->slots); /* the processes move below: no more lookups */
    n->slots = NULL;
    n->n_slots = 0;
    for (i = 0; i < n->n_procs; i++) {
        if (n->procs[i].t->n_events > 0)
            n->procs[kept++] = n->procs[i];
        else {
            pr_trace_free(n->procs[i].t);
            free(n->procs[i].calls);
        }
    }
    n->n_procs = kept;
    if (kept == 0 && proc_of(n, 0) == NULL)
        return pr_error_set(n->err, PR_E_NOMEM, "out of memory");
    qsort(n->procs, n->n_procs, sizeof(*n->procs), cmp_proc);
    for (i = 0; i < n->n_procs; i++) {
        struct proc *p = &n->procs[i];

        if ((n->n_procs > 1 && name_run(p) != PR_OK) ||
            give_devices(n, p) != PR_OK || link_ops(p->t) != PR_OK ||
            nccl_sizes(p) != PR_OK || finish_run(n, p) != PR_OK)
            return pr_error_set(n->err, PR_E_NOMEM, "out of memory");
        p->t->bytes = n->bytes;
        pr_trace_finish(p->t);
    }
    for (i = 0; i < n->n_procs; i++) {
        *tail = n->procs[i].t;
        tail = &(*tail)->next;
        n->procs[i].t = NULL;
    }
    return PR_OK;
}

/* ------------------------------------------------------------ loading */

#define N_COLS(a) (sizeof(a) / sizeof(a[0]))

static enum pr_status
read_tables(struct nsys *n)
{
    enum pr_status st = read_table(n, "CUPTI_ACTIVITY_KIND_KERNEL", kernel_cols,
                                   N_COLS(kernel_cols), on_kernel);

    if (st == PR_OK)
        st = read_table(n, "CUPTI_ACTIVITY_KIND_MEMCPY", copy_cols,
                        N_COLS(copy_cols), on_copy);
    if (st == PR_OK)
        st = read_table(n, "CUPTI_ACTIVITY_KIND_MEMSET", set_cols,
                        N_COLS(set_cols), on_set);
    if (st == PR_OK)
        st = read_table(n, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", sync_cols,
                        N_COLS(sync_cols), on_sync);
    if (st == PR_OK)
        st = read_table(n, "CUPTI_ACTIVITY_KIND_RUNTIME", runtime_cols,
                        N_COLS(runtime_cols), on_runtime);
    if (st == PR_OK)
        st = read_nvtx(n);
    if (st == PR_OK)
        st = read_table(n, "CUDA_GPU_MEMORY_USAGE_EVENTS", mem_cols,
                        N_COLS(mem_cols), on_mem);
    if (st == PR_OK)
        st = read_table(n, "TARGET_INFO_GPU", gpu_cols, N_COLS(gpu_cols),
                        on_gpu);
    if (st == PR_OK)
        st = read_table(n, "TARGET_INFO_CUDA_DEVICE", map_cols,
                        N_COLS(map_cols), on_map);
    if (st == PR_OK)
        st = read_table(n, "ANALYSIS_DETAILS", details_cols,
                        N_COLS(details_cols), on_details);
    return st;
}

static enum pr_status
read_db(struct nsys *n, const char *path, uint64_t max, struct pr_trace **out)
{
    enum pr_status st = pr_sqlite_open(path, max, &n->db, n->err);
    struct stat sb;
    int r;

    if (st != PR_OK)
        return st;
    n->bytes = stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    r = is_export(n->db);
    if (r < 0)
        return pr_error_set(n->err, PR_E_FORMAT, "cannot read the schema");
    if (r == 0)
        return pr_error_set(n->err, PR_E_NOT_FORMAT,
                            "not an Nsight Systems export (it has no "
                            "StringIds table with CUPTI or NVTX tables)");
    st = pr_sqlite_allow_rows(n->db, n->err);
    if (st == PR_OK)
        st = pr_sqlite_load_strings(n->db, "StringIds", "id", "value", &n->strs,
                                    n->err);
    if (st == PR_OK)
        st = read_tables(n);
    return st == PR_OK ? hand_out(n, out) : st;
}

static void
nsys_free(struct nsys *n)
{
    size_t i;

    for (i = 0; i < n->n_procs; i++) {
        pr_trace_free(n->procs[i].t);
        free(n->procs[i].calls);
    }
    free(n->procs);
    free(n->slots);
    free(n->gpus.v);
    free(n->gpus.map);
    pr_buf_free(&n->names);
    pr_buf_free(&n->sql);
    pr_buf_free(&n->tmp);
    pr_sqlite_strings_free(&n->strs);
    pr_sqlite_close(n->db);
}

static enum pr_status
load(const char *path, const struct pr_read_opts *o, struct pr_trace **out,
     struct pr_error *err)
{
    struct nsys n;
    enum pr_status st;

    *out = NULL;
    if (is_report_name(path))
        return pr_error_set(
            err, PR_E_FORMAT,
            "%s: an Nsight Systems report, which only NVIDIA's tools read; "
            "export it to SQLite first: nsys export --type sqlite --output "
            "report.sqlite %s",
            path, path);
    memset(&n, 0, sizeof(n));
    pr_buf_init(&n.sql, 0);
    pr_buf_init(&n.tmp, 0);
    pr_buf_init(&n.names, 0);
    n.err = err;
    n.at.err = err;
    st = read_db(&n, path,
                 o && o->max_input_bytes ? o->max_input_bytes
                                         : PR_READ_DEFAULT_MAX,
                 out);
    if (st != PR_OK) {
        pr_trace_free(*out);
        *out = NULL;
        pr_error_prefix(err, "%s: ", path);
    }
    nsys_free(&n);
    return st;
}

const struct pr_format pr_format_nsys = {"nsys", sniff, load, 0,
                                         "Nsight Systems SQLite export"};
