/* test_ascend_db.c - the Ascend SQLite reader (ascend_db.c) on databases
 * built here: a torch_npu export with every table the reader takes (the
 * 2025-01 swap of PYTORCH_API's shape and dtype columns included), an
 * msprof export without framework tables, torch_npu's analysis.db, and
 * what is not an export or not readable. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "profreport/formats.h"
#include "profreport/phases.h"
#include "profreport/pmu.h"
#include "profreport/shapes.h"

extern const struct pr_format pr_format_ascend_db;

static char dir[64];

/* main thread 100 of pid 100; thread 101 of the same process */
#define G "429496729700"
#define G2 "429496729701"

static const char *const torch_npu_sql[] = {
    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);",
    "INSERT INTO STRING_IDS VALUES (1,'KERNEL_AIVEC'),(2,'AI_VECTOR_CORE'),"
    " (3,'Add'),(4,'aclnnAdd_AddAiCore_Add'),(5,'\"2,3;2,3\"'),"
    " (6,'FLOAT;FLOAT'),(7,'MEMCPY_ASYNC'),(8,'Notify Wait'),(9,'SDMA'),"
    " (10,'hcom_allReduce__1_0_1'),(11,'group'),(12,'aten::add'),"
    " (14,'ProfilerStep#7'),(15,'aclrtMemcpyAsync'),(16,'launch'),"
    " (17,'KERNEL_AICORE'),(18,'PTA'),(19,'GE'),(20,'a.py(1): f'),"
    " (21,'b.py(2): g'),(22,'EVENT_WAIT'),(23,'AI_CORE'),(24,'MatMulV2'),"
    " (25,'aclnnMm_MatMulV2'),(26,'YES'),(27,'NO'),(28,'NC1HWC0;FRACTAL_Z'),"
    " (29,'aten::mm'),(30,'HcclAllreduce'),(31,'Enqueue'),(32,'f'),"
    " (33,'\"4,5;5,6\"');",
    "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);",
    "INSERT INTO ENUM_API_TYPE VALUES (20000,'acl'),(10000,'node'),"
    " (50001,'op'),(50002,'queue'),(50003,'trace');",
    "CREATE TABLE ENUM_HCCL_DATA_TYPE (id INTEGER PRIMARY KEY, name TEXT);",
    "INSERT INTO ENUM_HCCL_DATA_TYPE VALUES (4,'FP32');",
    "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER,"
    " connectionId INTEGER, name INTEGER, sequenceNumber INTEGER,"
    " fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER,"
    " callchainId INTEGER, type INTEGER, depth INTEGER);",
    "INSERT INTO STRING_IDS VALUES (40,'2,3;\r\n2,3'),(41,'float;\r\nfloat'),"
    " (42,'4,5;\r\n5,6');",
    "INSERT INTO PYTORCH_API VALUES"
    " ('1000','100000'," G ",NULL,14,-1,0,NULL,NULL,NULL,50001,0),"
    /* 2025-01: the dims under inputDtypes, the dtypes under inputShapes */
    " ('2000','10000'," G ",0,12,5,0,40,41,0,50001,1),"
    " ('20000','30000'," G ",1,29,6,0,41,42,NULL,50001,1),"
    " ('40000','50000'," G ",2,30,-1,0,NULL,NULL,NULL,50001,1),"
    " ('3000','3500'," G ",NULL,31,-1,0,NULL,NULL,NULL,50002,1),"
    " ('60000','61000'," G ",NULL,32,-1,0,NULL,NULL,NULL,50003,1),"
    " ('soon','later'," G ",NULL,12,-1,0,NULL,NULL,NULL,50001,1);",
    "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);",
    "INSERT INTO CONNECTION_IDS VALUES (0,500),(0,900),(1,501),(2,502);",
    "CREATE TABLE PYTORCH_CALLCHAINS (id INTEGER, stack INTEGER,"
    " stackDepth INTEGER);",
    "INSERT INTO PYTORCH_CALLCHAINS VALUES (0,21,1),(0,20,0);",
    "CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER,"
    " globalTid INTEGER, connectionId INTEGER PRIMARY KEY, name INTEGER);",
    "INSERT INTO CANN_API VALUES (5000,6000,20000," G ",503,15),"
    " (7000,7500,10000," G2 ",500,16);",
    "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,"
    " connectionId INTEGER, globalTaskId INTEGER, globalPid INTEGER,"
    " taskType INTEGER, contextId INTEGER, streamId INTEGER,"
    " taskId INTEGER, modelId INTEGER);",
    "INSERT INTO TASK VALUES (11000,12000,5,500,0,100,1,0,2,10,0),"
    " (31000,34000,5,501,1,100,23,0,2,11,0),"
    " (35000,35500,5,501,2,100,17,0,2,12,0),"
    " (6500,7000,5,503,3,100,7,0,2,13,0),"
    " (45000,46000,5,502,4,100,8,0,4,14,0),"
    " (46000,47000,5,502,5,100,9,0,4,15,0),"
    " (44000,48000,5,502,6,100,23,0,4,16,0),"
    " (50000,50100,5,504,7,100,22,0,2,17,0);",
    "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER"
    " PRIMARY KEY, blockDim INTEGER, mixBlockDim INTEGER, taskType INTEGER,"
    " opType INTEGER, inputFormats INTEGER, inputDataTypes INTEGER,"
    " inputShapes INTEGER, outputFormats INTEGER, outputDataTypes INTEGER,"
    " outputShapes INTEGER, attrInfo INTEGER, hf32Eligible INTEGER,"
    " waitNs INTEGER);",
    "INSERT INTO COMPUTE_TASK_INFO VALUES"
    " (4,0,8,0,2,3,28,6,5,NULL,NULL,NULL,NULL,NULL,0),"
    " (25,1,16,0,23,24,28,6,33,NULL,NULL,NULL,NULL,27,0);",
    "CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER,"
    " endNs INTEGER, connectionId INTEGER, groupName INTEGER, opId INTEGER"
    " PRIMARY KEY, relay INTEGER, retry INTEGER, dataType INTEGER,"
    " algType INTEGER, count NUMERIC, opType INTEGER);",
    "INSERT INTO COMMUNICATION_OP VALUES"
    " (10,44000,48000,502,11,1,0,0,4,NULL,1000,NULL);",
    "CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER, globalTaskId"
    " INTEGER, taskType INTEGER, planeId INTEGER, groupName INTEGER,"
    " notifyId INTEGER, rdmaType INTEGER, srcRank INTEGER, dstRank INTEGER,"
    " transportType INTEGER, size INTEGER, dataType INTEGER,"
    " linkType INTEGER, opId INTEGER);",
    "INSERT INTO COMMUNICATION_TASK_INFO VALUES"
    " (10,4,8,0,11,0,0,0,1,0,0,4,0,1),(10,5,9,0,11,0,0,0,1,0,64,4,0,1);",
    "CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER,"
    " totalAllocated INTEGER, totalReserved INTEGER, totalActive INTEGER,"
    " streamPtr INTEGER, deviceId INTEGER);",
    "INSERT INTO MEMORY_RECORD VALUES (18,1500,1000,4000,0,0,5),"
    " (19,1600,99,99,0,0,5),(18,2500,3000,4000,0,0,5),"
    " (18,2600,3000,4000,7,0,5),(18,9000,1000,4000,0,0,5);",
    "CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);",
    "INSERT INTO RANK_DEVICE_MAP VALUES (3,5);",
    "CREATE TABLE NPU_INFO (id INTEGER, name TEXT);",
    "INSERT INTO NPU_INFO VALUES (4,'Ascend310P'),(5,'Ascend910B');",
    "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);",
    "INSERT INTO STEP_TIME VALUES (7,1000,100000);",
    NULL};

/* torch_npu's OP_MEMORY: a PTA allocation released in the window, and a
 * graph-engine one (GE in NPU_OP_MEM) that is not */
static const char *const op_memory_sql[] = {
    "CREATE TABLE OP_MEMORY (name INTEGER, size INTEGER, allocationTime"
    " INTEGER, releaseTime INTEGER, activeReleaseTime INTEGER, duration"
    " INTEGER, activeDuration INTEGER, allocationTotalAllocated INTEGER,"
    " allocationTotalReserved INTEGER, allocationTotalActive INTEGER,"
    " releaseTotalAllocated INTEGER, releaseTotalReserved INTEGER,"
    " releaseTotalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);",
    "INSERT INTO OP_MEMORY VALUES (12,512,2500,8000,NULL,NULL,NULL,1512,"
    " 4096,NULL,1000,4096,NULL,0,5),"
    " (4,64,11000,NULL,NULL,NULL,NULL,64,128,NULL,NULL,NULL,NULL,0,5);",
    "CREATE TABLE NPU_OP_MEM (operatorName INTEGER, addr INTEGER, type"
    " INTEGER, size INTEGER, timestampNs INTEGER, globalTid INTEGER,"
    " totalAllocate NUMERIC, totalReserve NUMERIC, component INTEGER,"
    " deviceId INTEGER);",
    "INSERT INTO NPU_OP_MEM VALUES (4,1,0,64,11000," G ",64,128,19,5);", NULL};

/* msprof: CANN only, no compute info, steps from STEP_TIME */
static const char *const msprof_sql[] = {
    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);",
    "INSERT INTO STRING_IDS VALUES (1,'AI_CORE'),(2,'MEMCPY_ASYNC'),"
    " (3,'aclnnAdd'),(4,'aclrtGetDeviceCount');",
    "CREATE TABLE NPU_INFO (id INTEGER PRIMARY KEY, name TEXT);",
    "INSERT INTO NPU_INFO VALUES (0,'Ascend910A'),(2,'Ascend910B');",
    "CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER,"
    " globalTid INTEGER, name INTEGER, depth INTEGER, connectionId INTEGER);",
    "INSERT INTO CANN_API VALUES (100,200,20000," G ",3,0,7),"
    /* a device query shares the copy's id: it launches nothing */
    " (50,60,20000," G ",4,0,8);",
    "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,"
    " connectionId INTEGER, globalPid INTEGER, taskType INTEGER,"
    " contextId INTEGER, streamId INTEGER, taskId INTEGER, modelId INTEGER,"
    " globalTaskId INTEGER PRIMARY KEY);",
    "INSERT INTO TASK VALUES (300,700,2,7,100,1,0,3,1,0,0),"
    " (800,900,2,8,100,2,0,3,2,0,1),(2300,2400,2,9,100,1,0,3,3,0,2);",
    "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);",
    "INSERT INTO STEP_TIME VALUES (1,0,1000),(2,2000,3000);",
    NULL};

static const char *const analysis_sql[] = {
    "CREATE TABLE StepTraceTime (step TEXT, computing NUMERIC);",
    "CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT);",
    NULL};

/* Write `sql` into dir/<name> (created fresh); its path. */
static const char *
build(const char *name, const char *const *sql)
{
    static char path[256];
    sqlite3 *db = NULL;
    char *msg = NULL;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    unlink(path);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    for (; *sql != NULL; sql++)
        if (sqlite3_exec(db, *sql, NULL, NULL, &msg) != SQLITE_OK)
            fail_msg("%s: %s", name, msg);
    sqlite3_close(db);
    return path;
}

/* The path of dir/<name>. */
static const char *
build_path(const char *name)
{
    static char path[256];

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return path;
}

/* A database of one statement list. */
static const char *
build1(const char *name, const char *sql)
{
    const char *v[2];

    v[0] = sql;
    v[1] = NULL;
    return build(name, v);
}

static struct pr_trace *
load(const char *path)
{
    struct pr_trace *t = NULL;
    struct pr_error err;

    pr_error_clear(&err);
    if (pr_format_ascend_db.load(path, NULL, &t, &err) != PR_OK)
        fail_msg("%s", err.msg);
    assert_non_null(t);
    return t;
}

struct tally {
    size_t n[PR_KIND_COUNT];
    int64_t ns[PR_KIND_COUNT];
};

static void
count(const struct pr_trace *t, struct tally *y)
{
    size_t i;

    memset(y, 0, sizeof(*y));
    for (i = 0; i < t->n_events; i++) {
        y->n[t->events[i].kind]++;
        y->ns[t->events[i].kind] += t->events[i].dur_ns;
    }
}

/* The k-th event of `kind` named `name` (0-based). */
static const struct pr_event *
named(const struct pr_trace *t, int kind, const char *name, int k)
{
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == kind && strcmp(pr_trace_str(t, e->name), name) == 0 &&
            k-- == 0)
            return e;
    }
    fail_msg("no event %s of kind %d", name, kind);
    return NULL;
}

static const struct pr_gap *
gap(const struct pr_trace *t, const char *kind)
{
    size_t i;

    for (i = 0; i < t->n_gaps; i++)
        if (strcmp(pr_trace_str(t, t->gaps[i].kind), kind) == 0)
            return &t->gaps[i];
    return NULL;
}

/* Kernels are the tasks COMPUTE_TASK_INFO names plus the collectives;
 * HCCL's own tasks, and compute tasks without info, are kept uncounted. */
static void
test_device(void **state)
{
    struct pr_trace *t = load(build("run.db", torch_npu_sql));
    const struct pr_gpu_info *g;
    const struct pr_event *e;
    struct tally y;

    (void)state;
    count(t, &y);
    assert_string_equal(pr_trace_str(t, t->format), "ascend_db");
    assert_int_equal(y.n[PR_KIND_DEVICE_TASK], 3);
    assert_int_equal(y.ns[PR_KIND_DEVICE_TASK], 1000 + 3000 + 4000);
    e = named(t, PR_KIND_DEVICE_TASK, "aclnnAdd_AddAiCore_Add", 0);
    assert_string_equal(pr_trace_str(t, pr_event_pid(t, e)), "5");
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "2");
    assert_int_equal(pr_event_correlation(t, e), 500);
    g = pr_trace_gpu(t, e, &(struct pr_gpu_info){0});
    assert_int_equal(g->device, 5);
    assert_int_equal(g->stream, 2);
    assert_int_equal(g->task_id, 10);
    assert_int_equal(g->unit, PR_UNIT_VECTOR);
    assert_int_equal(g->hf32, -1);
    assert_string_equal(pr_trace_str(t, g->task_type), "AI_VECTOR_CORE");
    assert_string_equal(pr_trace_str(t, g->op_type), "Add");
    assert_string_equal(pr_trace_str(t, g->dev_shapes), "[[2, 3], [2, 3]]");
    assert_string_equal(pr_trace_str(t, g->dev_types), "['float', 'float']");
    g = pr_trace_gpu(t, named(t, PR_KIND_DEVICE_TASK, "aclnnMm_MatMulV2", 0),
                     &(struct pr_gpu_info){0});
    assert_int_equal(g->unit, PR_UNIT_MATRIX);
    assert_int_equal(g->hf32, 0);
    /* the collective: its stream from its tasks, bytes from count x FP32 */
    e = named(t, PR_KIND_DEVICE_TASK, "hcom_allReduce__1_0_1", 0);
    assert_int_equal(pr_event_correlation(t, e), 502);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "4");
    g = pr_trace_gpu(t, e, &(struct pr_gpu_info){0});
    assert_int_equal(g->unit, PR_UNIT_COMM);
    assert_string_equal(pr_trace_str(t, g->collective), "allreduce");
    assert_string_equal(pr_trace_str(t, g->dtype), "Float");
    assert_int_equal(g->in_nelems, 1000);
    /* a copy, waits, and what the collective and kernels account for */
    assert_int_equal(y.n[PR_KIND_COPY], 1);
    assert_int_equal(
        pr_event_correlation(t, named(t, PR_KIND_COPY, "MEMCPY_ASYNC", 0)),
        503);
    assert_int_equal(y.n[PR_KIND_DEVICE_SYNC], 2);
    named(t, PR_KIND_DEVICE_SYNC, "Notify Wait", 0);
    named(t, PR_KIND_DEVICE_SYNC, "EVENT_WAIT", 0);
    named(t, PR_KIND_OTHER, "SDMA", 0);
    named(t, PR_KIND_OTHER, "AI_CORE", 0);
    named(t, PR_KIND_OTHER, "KERNEL_AICORE", 0);
    assert_non_null(gap(t, "tasks_without_info"));
    assert_int_equal(gap(t, "tasks_without_info")->count, 1);
    assert_null(gap(t, "no_operators"));
    assert_null(gap(t, "no_memory"));
    /* the run: rank and device from the database */
    assert_int_equal(t->rank, 3);
    assert_string_equal(pr_trace_str(t, t->worker), "rank3");
    assert_int_equal(t->n_devices, 1);
    assert_int_equal(t->devices[0].id, 5);
    assert_string_equal(pr_trace_str(t, t->devices[0].name), "Ascend910B");
    assert_string_equal(pr_trace_str(t, t->vendor), "huawei");
    assert_string_equal(pr_trace_str(t, t->device_kind), "npu");
    pr_trace_free(t);
}

/* Operators with their inputs (the swapped columns put right), stacks,
 * and the launches that link device work to them. */
static void
test_host(void **state)
{
    struct pr_trace *t = load(build("run.db", torch_npu_sql));
    const struct pr_op_info *op;
    const struct pr_event *e;
    struct tally y;

    (void)state;
    count(t, &y);
    assert_int_equal(y.n[PR_KIND_HOST_OP], 3);
    assert_int_equal(t->diag.skipped_bad_ts, 1);
    op = pr_trace_op(t, named(t, PR_KIND_HOST_OP, "aten::add", 0),
                     &(struct pr_op_info){0});
    assert_int_equal(op->seq, 5);
    assert_int_equal(op->fwd_tid, 0);
    assert_string_equal(pr_trace_str(t, op->input_dims), "[[2, 3], [2, 3]]");
    assert_string_equal(pr_trace_str(t, op->input_types), "['float', 'float']");
    assert_true(pr_shapes_noted(t, PR_SHAPES_DIMS, op->input_dims));
    assert_string_equal(pr_trace_str(t, op->stack),
                        "a.py(1): f;\r\nb.py(2): g;\r\n");
    op = pr_trace_op(t, named(t, PR_KIND_HOST_OP, "aten::mm", 0),
                     &(struct pr_op_info){0});
    assert_string_equal(pr_trace_str(t, op->input_dims), "[[4, 5], [5, 6]]");
    assert_int_equal(op->stack, PR_STR_NONE);
    named(t, PR_KIND_OTHER, "Enqueue", 0);
    assert_int_equal(y.n[PR_KIND_PY_FUNCTION], 1);
    /* one launch per operator connection that reaches device work (900
       reaches none), at the operator's start on its thread */
    assert_int_equal(y.n[PR_KIND_RUNTIME_CALL], 2 + 3);
    e = named(t, PR_KIND_RUNTIME_CALL, "torch_to_npu", 0);
    assert_int_equal(e->ts_ns, 2000);
    assert_int_equal(e->dur_ns, 0);
    assert_int_equal(pr_event_correlation(t, e), 500);
    assert_int_equal(pr_event_correlation(
                         t, named(t, PR_KIND_RUNTIME_CALL, "torch_to_npu", 2)),
                     502);
    /* CANN calls: the memcpy no operator launched is its own launch */
    e = named(t, PR_KIND_RUNTIME_CALL, "aclrtMemcpyAsync", 0);
    assert_int_equal(pr_event_correlation(t, e), 503);
    assert_string_equal(pr_trace_str(t, pr_event_cat(t, e)), "acl");
    e = named(t, PR_KIND_RUNTIME_CALL, "launch", 0);
    assert_int_equal(pr_event_correlation(t, e), PR_NO_ID);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "101");
    pr_trace_free(t);
}

/* The step is torch_npu's: from the first kernel the host step launched
 * (11000, not the copy at 6500) to the end of its last device work (the
 * collective, 48000); the host ProfilerStep#7 is no longer a step. */
static void
test_steps(void **state)
{
    struct pr_trace *t = load(build("run.db", torch_npu_sql));
    const struct pr_event *e;
    struct tally y;

    (void)state;
    count(t, &y);
    assert_int_equal(y.n[PR_KIND_ANNOTATION], 1);
    e = named(t, PR_KIND_ANNOTATION, "ProfilerStep#7", 0);
    assert_int_equal(e->ts_ns, 11000);
    assert_int_equal(e->dur_ns, 48000 - 11000);
    assert_string_equal(pr_trace_str(t, pr_event_pid(t, e)), "100");
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "100");
    e = named(t, PR_KIND_OTHER, "ProfilerStep#7", 0);
    assert_int_equal(e->ts_ns, 1000);
    assert_int_equal(e->dur_ns, 99000);
    assert_true(t->device_steps);
    pr_trace_free(t);
}

/* The PTA allocator's totals; other components and repeats left out. */
static void
test_memory(void **state)
{
    struct pr_trace *t = load(build("run.db", torch_npu_sql));
    const struct pr_mem_info *m[4];
    size_t i, k = 0;

    (void)state;
    for (i = 0; i < t->n_events; i++)
        if (t->events[i].kind == PR_KIND_MEMORY_RECORD && k < 4)
            m[k++] = pr_trace_mem(t, &t->events[i]);
    assert_int_equal(k, 3);
    assert_int_equal(m[0]->bytes, 0);
    assert_int_equal(m[1]->bytes, 2000);
    assert_int_equal(m[2]->bytes, -2000);
    assert_true(m[1]->total_allocated == 3000.0);
    assert_true(m[1]->total_reserved == 4000.0);
    assert_int_equal(m[1]->device_type, 1);
    assert_int_equal(m[1]->device_id, 5);
    pr_trace_free(t);
}

/* Run the statements of `sql` on dir/<name>; its path. */
static const char *
run_sql(const char *name, const char *const *sql)
{
    sqlite3 *db = NULL;
    char *msg = NULL;

    assert_int_equal(sqlite3_open(build_path(name), &db), SQLITE_OK);
    for (; *sql != NULL; sql++)
        if (sqlite3_exec(db, *sql, NULL, NULL, &msg) != SQLITE_OK)
            fail_msg("%s: %s", name, msg);
    sqlite3_close(db);
    return build_path(name);
}

/* dir/<name> of `base` with the statements of `sql` run on it. */
static const char *
build_on(const char *name, const char *const *base, const char *const *sql)
{
    build(name, base);
    return run_sql(name, sql);
}

/* run.db of torch_npu_sql with the statements of `sql` run on it. */
static const char *
build_more(const char *const *sql)
{
    return build_on("run.db", torch_npu_sql, sql);
}

static const char *const mstx_sql[] = {
    "INSERT INTO STRING_IDS VALUES (50,'forward'),(51,'load'),(52,'mark'),"
    " (53,'open');",
    "CREATE TABLE MSTX_EVENTS (startNs INTEGER, endNs INTEGER, eventType"
    " INTEGER, rangeId INTEGER, category INTEGER, message INTEGER,"
    " globalTid INTEGER, endGlobalTid INTEGER, domainId INTEGER,"
    " connectionId INTEGER, depth INTEGER);",
    "INSERT INTO MSTX_EVENTS VALUES"
    " (1000,4000,1,1,0,50," G ",0,0,NULL,0),"       /* push/pop */
    " (5000,9000,2,2,0,51," G2 "," G2 ",0,NULL,0)," /* start/end */
    " (6000,6000,0,3,0,52," G ",0,0,NULL,0),"       /* a marker */
    " (7000,NULL,2,4,0,53," G ",0,0,NULL,0),"       /* still open */
    " (8000,8500,2,5,0,NULL," G ",0,0,NULL,0),"     /* no message */
    " (200000,300000,2,6,0,50," G ",0,0,NULL,0);",  /* another capture's */
    "CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER, endTimeNs"
    " INTEGER);",
    "INSERT INTO SESSION_TIME_INFO VALUES (0,100000);",
    NULL};

/* mstx ranges are annotations on their thread, as NVTX ranges are;
 * markers are not, nor ranges outside the session; where torch_npu wrote
 * its own mstx rows, those alone are read. */
static void
test_mstx(void **state)
{
    static const char *const api_mstx[] = {
        "INSERT INTO STRING_IDS VALUES (54,'fwd');",
        "INSERT INTO PYTORCH_API VALUES ('1500','2500'," G
        ",NULL,54,-1,0,NULL,NULL,NULL,50004,1);",
        NULL};
    struct pr_trace *t = load(build_on("msprof.db", msprof_sql, mstx_sql));
    const struct pr_event *e;
    struct tally y;

    (void)state;
    count(t, &y);
    assert_int_equal(y.n[PR_KIND_ANNOTATION], 2 + 3); /* 2 steps */
    e = named(t, PR_KIND_ANNOTATION, "forward", 0);
    assert_int_equal(e->ts_ns, 1000);
    assert_int_equal(e->dur_ns, 3000);
    assert_string_equal(pr_trace_str(t, pr_event_cat(t, e)), "mstx");
    assert_string_equal(pr_trace_str(t, pr_event_pid(t, e)), "100");
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "100");
    e = named(t, PR_KIND_ANNOTATION, "load", 0);
    assert_int_equal(e->dur_ns, 4000);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "101");
    assert_int_equal(named(t, PR_KIND_ANNOTATION, "(unnamed range)", 0)->ts_ns,
                     8000);
    assert_int_equal(t->diag.skipped_no_dur, 1);
    assert_non_null(gap(t, "mstx_outside_session"));
    assert_int_equal(gap(t, "mstx_outside_session")->count, 1);
    pr_trace_free(t);
    /* torch_npu's own mstx rows win over MSTX_EVENTS */
    build_on("run.db", torch_npu_sql, mstx_sql);
    t = load(run_sql("run.db", api_mstx));
    count(t, &y);
    assert_int_equal(y.n[PR_KIND_ANNOTATION], 1 + 1); /* fwd, the step */
    named(t, PR_KIND_ANNOTATION, "fwd", 0);
    pr_trace_free(t);
}

/* A group's size is one more than the highest rank its tasks name (the
 * "no peer" marker 4294967295 is not a rank); the run's world size is its
 * largest group's, and at least its own rank's, unless META_DATA's
 * parallel_group_info (newer writers) lists the world group's ranks. */
static void
test_groups(void **state)
{
    static const char *const tp_only[] = {
        "CREATE TABLE META_DATA (name TEXT, value TEXT);",
        "INSERT INTO META_DATA VALUES ('SCHEMA_VERSION','1.0.0'),"
        " ('parallel_group_info','{\"g9\": {\"group_name\": \"tp\","
        " \"group_rank\": 1, \"global_ranks\": [2, 3]}}');",
        NULL};
    static const char *const world[] = {
        "CREATE TABLE META_DATA (name TEXT, value TEXT);",
        "INSERT INTO META_DATA VALUES ('parallel_group_info','{\"g0\":"
        " {\"group_name\": \"default_group\", \"group_rank\": 3,"
        " \"global_ranks\": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,"
        " 15]}}');",
        NULL};
    static const char *const more[] = {
        "INSERT INTO STRING_IDS VALUES (34,'tp'),(35,'hcom_allGather__2_0_1');",
        "INSERT INTO COMMUNICATION_TASK_INFO VALUES"
        " (10,8,8,0,11,0,0,1,4294967295,0,4,4,0,1),"
        " (35,9,8,0,34,0,0,2,5,0,8,4,0,2),(35,10,8,0,34,0,0,5,2,0,8,4,0,2);",
        "INSERT INTO TASK VALUES (52000,53000,5,505,8,100,8,0,6,18,0),"
        " (53000,54000,5,505,9,100,8,0,6,19,0),"
        " (54000,55000,5,505,10,100,8,0,6,20,0);",
        "INSERT INTO COMMUNICATION_OP VALUES"
        " (35,52000,55000,505,34,2,0,0,4,NULL,10,NULL);",
        NULL};
    struct pr_trace *t = load(build("run.db", torch_npu_sql));
    const struct pr_event *e;

    (void)state;
    e = named(t, PR_KIND_DEVICE_TASK, "hcom_allReduce__1_0_1", 0);
    assert_int_equal(pr_trace_gpu(t, e, &(struct pr_gpu_info){0})->group_size,
                     2);
    assert_int_equal(t->world_size, 4); /* rank 3 is in it */
    pr_trace_free(t);
    t = load(build_more(more));
    e = named(t, PR_KIND_DEVICE_TASK, "hcom_allReduce__1_0_1", 0);
    assert_int_equal(pr_trace_gpu(t, e, &(struct pr_gpu_info){0})->group_size,
                     2);
    e = named(t, PR_KIND_DEVICE_TASK, "hcom_allGather__2_0_1", 0);
    assert_int_equal(pr_trace_gpu(t, e, &(struct pr_gpu_info){0})->group_size,
                     6);
    assert_int_equal(t->world_size, 6);
    pr_trace_free(t);
    t = load(build_more(tp_only)); /* META_DATA without the world group */
    assert_int_equal(t->world_size, 4);
    pr_trace_free(t);
    t = load(build_more(world)); /* the world group's ranks win */
    assert_int_equal(t->world_size, 16);
    pr_trace_free(t);
    t = load(build("msprof.db", msprof_sql)); /* no HCCL tables */
    assert_int_equal(t->world_size, -1);
    pr_trace_free(t);
}

/* Per-link traffic from the collective's data-moving tasks, as
 * analysis.db's CommAnalyzerMatrix: names through the ENUM_ tables
 * (torch_npu) or STRING_IDS (msprof), a peer of 4294967295 is the rank
 * itself, an SDMA copy is named by its link, notify tasks move nothing. */
static void
test_links(void **state)
{
    static const char *const enums[] = {
        "INSERT INTO STRING_IDS VALUES (70,'Memcpy'),(71,'Reduce_Inline');",
        "CREATE TABLE ENUM_HCCL_TRANSPORT_TYPE (id INTEGER, name TEXT);",
        "INSERT INTO ENUM_HCCL_TRANSPORT_TYPE VALUES (0,'SDMA'),(1,'RDMA');",
        "CREATE TABLE ENUM_HCCL_LINK_TYPE (id INTEGER, name TEXT);",
        "INSERT INTO ENUM_HCCL_LINK_TYPE VALUES (0,'ON_CHIP'),(1,'HCCS'),"
        " (3,'ROCE');",
        "INSERT INTO TASK VALUES (60000,60300,5,506,20,100,8,0,4,30,0),"
        " (61000,61500,5,506,21,100,8,0,4,31,0),"
        " (62000,62100,5,506,22,100,8,0,4,32,0),"
        " (63000,63900,5,506,23,100,8,0,4,33,0);",
        "INSERT INTO COMMUNICATION_TASK_INFO VALUES"
        " (10,20,70,0,11,0,0,0,1,0,100,4,1,1),"
        " (10,21,71,0,11,0,0,0,1,0,50,4,1,1),"
        " (10,22,71,0,11,0,0,0,4294967295,0,8,4,0,1),"
        " (10,23,70,0,11,0,0,0,2,1,400,4,3,1);",
        NULL};
    static const char *const ids[] = {
        "INSERT INTO STRING_IDS VALUES (70,'Memcpy'),(72,'SDMA_T'),"
        " (73,'HCCS');",
        "INSERT INTO TASK VALUES (60000,60300,5,506,20,100,8,0,4,30,0);",
        "INSERT INTO COMMUNICATION_TASK_INFO VALUES"
        " (10,20,70,0,11,0,0,0,3,72,100,4,73,1);",
        NULL};
    struct pr_trace *t = load(build_more(enums));
    int64_t bytes[3] = {0, 0, 0}, ns[3] = {0, 0, 0};
    size_t i;

    (void)state;
    assert_int_equal(t->n_links, 4);
    for (i = 0; i < t->n_links; i++) {
        const struct pr_link *l = &t->links[i];
        const char *want[] = {"LOCAL", "HCCS", "RDMA"};

        assert_int_equal(l->src, 0);
        assert_true(l->dst >= 0 && l->dst <= 2);
        assert_string_equal(pr_trace_str(t, l->group), "group");
        assert_string_equal(pr_trace_str(t, l->transport), want[l->dst]);
        bytes[l->dst] += l->bytes;
        ns[l->dst] += l->time_ns;
    }
    assert_int_equal(bytes[0], 8);
    assert_int_equal(ns[0], 100);
    assert_int_equal(bytes[1], 150);
    assert_int_equal(ns[1], 800);
    assert_int_equal(bytes[2], 400);
    assert_int_equal(ns[2], 900);
    pr_trace_free(t);
    t = load(build_more(ids)); /* no ENUM_ tables: names are STRING_IDS */
    assert_int_equal(t->n_links, 1);
    assert_int_equal(t->links[0].dst, 3);
    assert_string_equal(pr_trace_str(t, t->links[0].transport), "HCCS");
    pr_trace_free(t);
}

/* The counter of column `name` of the kernel's task, NAN when absent. */
static double
counter(const struct pr_trace *t, const struct pr_event *e, const char *name)
{
    const float *v = pr_pmu_get(t, e->info);
    size_t i;

    assert_non_null(t->pmu);
    for (i = 0; v != NULL && i < t->pmu->n_cols; i++)
        if (strcmp(pr_trace_str(t, t->pmu->cols[i]), name) == 0)
            return v[i];
    return NAN;
}

/* TASK_PMU_INFO's operation counts (aic_metrics=ArithmeticUtilization;
 * the samples hold PipeUtilization's ratios only, so the rows are made
 * here from the schema) are the kernel's measured FLOPs, summed as
 * kernel_details.csv's four *_fops columns are; other counters are not
 * FLOPs.  Every counter is the task's (pmu.h), named as kernel_details.csv
 * names it: the database's *_time in ns are the CSV's *_time(us), its
 * aic_total_time the CSV's aicore_time(us).  The rows come by counter,
 * as torch_npu writes them; a counter of a task that is no kernel (the
 * copy, 3) is dropped. */
static void
test_pmu(void **state)
{
    static const char *const pmu[] = {
        "INSERT INTO STRING_IDS VALUES (60,'aic_cube_fops'),"
        " (61,'aiv_vector_fops'),(62,'aic_mac_ratio'),(63,'aic_total_cycles'),"
        " (64,'aic_total_time'),(65,'aiv_mte2_time'),(66,'aiv_mte2_ratio');",
        "CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER, name INTEGER,"
        " value NUMERIC);",
        "INSERT INTO TASK_PMU_INFO VALUES (1,60,1048576),(1,61,4096.5),"
        " (1,62,0.75),(0,62,0),(1,63,123456),(0,63,99),(1,64,2500),"
        " (0,64,800),(3,64,1),(0,65,600),(0,66,0.75),(1,66,NULL);",
        NULL};
    struct pr_trace *t = load(build("run.db", torch_npu_sql));
    const struct pr_event *mm, *add;
    const struct pr_gpu_info *g;

    (void)state;
    g = pr_trace_gpu(t, named(t, PR_KIND_DEVICE_TASK, "aclnnMm_MatMulV2", 0),
                     &(struct pr_gpu_info){0});
    assert_true(g->measured_flops == -1); /* no PMU table */
    assert_null(t->pmu);
    pr_trace_free(t);
    t = load(build_more(pmu));
    mm = named(t, PR_KIND_DEVICE_TASK, "aclnnMm_MatMulV2", 0);
    add = named(t, PR_KIND_DEVICE_TASK, "aclnnAdd_AddAiCore_Add", 0);
    assert_true(pr_trace_gpu(t, mm, &(struct pr_gpu_info){0})->measured_flops ==
                1048576 + 4096.5);
    /* ratios and cycles only */
    assert_true(
        pr_trace_gpu(t, add, &(struct pr_gpu_info){0})->measured_flops == -1);
    assert_int_equal(t->pmu->n_cols, 7);
    assert_string_equal(pr_trace_str(t, t->pmu->cols[0]), "aic_cube_fops");
    assert_string_equal(pr_trace_str(t, t->pmu->cols[4]), "aicore_time(us)");
    assert_string_equal(pr_trace_str(t, t->pmu->cols[5]), "aiv_mte2_time(us)");
    assert_true(counter(t, mm, "aic_mac_ratio") == 0.75f);
    assert_true(counter(t, mm, "aic_total_cycles") == 123456);
    assert_true(counter(t, mm, "aicore_time(us)") == 2.5f);
    assert_true(isnan(counter(t, mm, "aiv_mte2_time(us)")));
    assert_true(isnan(counter(t, mm, "aiv_mte2_ratio"))); /* NULL */
    assert_true(counter(t, add, "aicore_time(us)") == 0.8f);
    assert_true(counter(t, add, "aiv_mte2_time(us)") == 0.6f);
    assert_true(counter(t, add, "aiv_mte2_ratio") == 0.75f);
    assert_true(counter(t, add, "aic_mac_ratio") == 0);
    assert_int_equal(t->pmu->n_rows, 2); /* not the copy's */
    pr_trace_free(t);
}

/* OP_MEMORY's rows, as operator_memory.csv's are read: allocation and
 * release records on the host step's thread; the curve is PTA's. */
static void
test_op_memory(void **state)
{
    struct pr_trace *t = load(build_more(op_memory_sql));
    const struct pr_mem_info *m[4];
    const struct pr_event *ev[4];
    size_t i, k = 0;

    (void)state;
    for (i = 0; i < t->n_events; i++)
        if (t->events[i].kind == PR_KIND_MEMORY_RECORD && k < 4) {
            ev[k] = &t->events[i];
            m[k++] = pr_trace_mem(t, &t->events[i]);
        }
    assert_int_equal(k, 3);
    assert_int_equal(ev[0]->ts_ns, 2500);
    assert_int_equal(m[0]->bytes, 512);
    assert_true(m[0]->total_allocated == 1512.0);
    assert_true(m[0]->total_reserved == 4096.0);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, ev[0])), "100");
    assert_int_equal(ev[1]->ts_ns, 8000);
    assert_int_equal(m[1]->bytes, -512);
    assert_int_equal(m[1]->addr, m[0]->addr);
    assert_true(m[1]->total_allocated == 1000.0);
    assert_int_equal(m[2]->bytes, 64); /* GE's: counted, not in the curve */
    assert_true(m[2]->total_allocated != m[2]->total_allocated);
    assert_true(m[2]->addr != m[0]->addr);
    pr_trace_free(t);
}

/* msprof: no framework tables; kernels named by their task type, steps
 * from STEP_TIME, the rank from profiler_info beside the output folder. */
static void
test_msprof(void **state)
{
    char sub[128], info[160], path[200];
    struct pr_trace *t;
    const struct pr_event *e;
    struct tally y;
    FILE *f;

    (void)state;
    snprintf(sub, sizeof(sub), "%s/out", dir);
    mkdir(sub, 0700);
    snprintf(path, sizeof(path), "out/msprof_1.db");
    t = load(build(path, msprof_sql));
    count(t, &y);
    assert_int_equal(t->rank, -1);
    assert_int_equal(t->worker, PR_STR_NONE);
    assert_int_equal(y.n[PR_KIND_DEVICE_TASK], 2);
    assert_int_equal(y.ns[PR_KIND_DEVICE_TASK], 500);
    assert_int_equal(y.n[PR_KIND_COPY], 1);
    e = named(t, PR_KIND_DEVICE_TASK, "AI_CORE", 0);
    assert_int_equal(pr_event_correlation(t, e), 7);
    assert_int_equal(
        pr_event_correlation(t, named(t, PR_KIND_RUNTIME_CALL, "aclnnAdd", 0)),
        7);
    assert_int_equal(pr_event_correlation(t, named(t, PR_KIND_RUNTIME_CALL,
                                                   "aclrtGetDeviceCount", 0)),
                     PR_NO_ID);
    assert_int_equal(y.n[PR_KIND_ANNOTATION], 2);
    assert_int_equal(named(t, PR_KIND_ANNOTATION, "ProfilerStep#2", 0)->ts_ns,
                     2000);
    assert_string_equal(pr_trace_str(t, t->devices[0].name), "Ascend910B");
    assert_non_null(gap(t, "no_operators"));
    assert_non_null(gap(t, "no_memory"));
    assert_null(gap(t, "tasks_without_info"));
    pr_trace_free(t);
    /* profiler_info_<rank>.json of the run folder names the rank */
    snprintf(info, sizeof(info), "%s/profiler_info_4.json", dir);
    f = fopen(info, "w");
    assert_non_null(f);
    fputs("{\"rank_id\": \"4\"}", f);
    fclose(f);
    snprintf(path, sizeof(path), "%s/out/msprof_1.db", dir);
    t = load(path);
    assert_int_equal(t->rank, 4);
    assert_string_equal(pr_trace_str(t, t->worker), "rank4");
    pr_trace_free(t);
    unlink(info);
    unlink(path);
    rmdir(sub);
}

/* msprof's NPU_OP_MEM: type ids of ENUM_MEMORY, components of
 * STRING_IDS; a release written before the allocation of the same time,
 * and a row of another capture (after the session). */
static const char *const npu_op_mem_sql[] = {
    "INSERT INTO STRING_IDS VALUES (60,'APP'),(61,'PTA+GE'),(62,'MatMul'),"
    " (63,'hcom_allReduce_');",
    "CREATE TABLE ENUM_MEMORY (id INTEGER PRIMARY KEY, name TEXT);",
    "INSERT INTO ENUM_MEMORY VALUES (0,'app'),(1,'device'),(5,'allocate'),"
    " (6,'release');",
    "CREATE TABLE NPU_OP_MEM (operatorName INTEGER, addr INTEGER, type"
    " INTEGER, size INTEGER, timestampNs INTEGER, globalTid INTEGER,"
    " totalAllocate NUMERIC, totalReserve NUMERIC, component INTEGER,"
    " deviceId INTEGER);",
    "INSERT INTO NPU_OP_MEM VALUES (62,4096,5,1000,100,1,1000,8000,60,2),"
    " (63,8192,5,3000,150,1,4000,8000,60,2),"
    " (62,4096,6,1000,200,1,3000,8000,60,2),"
    " (62,4096,6,500,250,1,64,9000,61,2),"
    " (62,4096,5,500,250,1,564,9000,61,2),"
    " (63,8192,6,3000,300,1,1000,8000,60,2),"
    " (62,1,5,7,999999,1,7,7,60,2);",
    "CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER, endTimeNs"
    " INTEGER);",
    "INSERT INTO SESSION_TIME_INFO VALUES (0,5000);",
    NULL};

/* Where neither OP_MEMORY nor MEMORY_RECORD is there, NPU_OP_MEM's rows
 * are the records, named by their operator; the curve is the component
 * with the most rows (APP: 4 of the session's 6), the others' rows count
 * without totals; an allocation goes before a release of the same time;
 * the row outside the session is left out and said so. */
static void
test_npu_op_mem(void **state)
{
    static const int64_t ts[] = {100, 150, 200, 250, 250, 300};
    static const int64_t bytes[] = {1000, 3000, -1000, 500, -500, -3000};
    static const double alloc[] = {1000, 4000, 3000, NAN, NAN, 1000};
    static const char *const names[] = {"MatMul", "hcom_allReduce_",
                                        "MatMul", "MatMul",
                                        "MatMul", "hcom_allReduce_"};
    struct pr_trace *t =
        load(build_on("op_mem.db", msprof_sql, npu_op_mem_sql));
    const struct pr_mem_component *c;
    size_t i, k = 0;

    (void)state;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const struct pr_mem_info *m;

        if (e->kind != PR_KIND_MEMORY_RECORD)
            continue;
        assert_true(k < 6);
        m = pr_trace_mem(t, e);
        assert_int_equal(e->ts_ns, ts[k]);
        assert_int_equal(m->bytes, bytes[k]);
        assert_string_equal(pr_trace_str(t, e->name), names[k]);
        assert_int_equal(m->device_id, 2);
        if (isnan(alloc[k]))
            assert_true(isnan(m->total_allocated));
        else
            assert_true(m->total_allocated == alloc[k]);
        k++;
    }
    assert_int_equal(k, 6);
    assert_int_equal(gap(t, "npu_op_mem_curve")->count, 4);
    assert_non_null(strstr(pr_trace_str(t, gap(t, "npu_op_mem_curve")->text),
                           "component APP"));
    assert_int_equal(gap(t, "npu_op_mem_outside_session")->count, 1);
    assert_null(gap(t, "no_memory"));
    /* the components, as memory_record.csv would list them */
    assert_non_null(t->phases);
    assert_int_equal(t->phases->n_mem, 2);
    assert_string_equal(t->phases->mem_source, "NPU_OP_MEM");
    c = &t->phases->mem[0];
    assert_string_equal(c->name, "APP");
    assert_int_equal(c->device, 2);
    assert_int_equal(c->samples, 4);
    assert_true(c->peak_allocated == 4000 && c->peak_reserved == 8000);
    c = &t->phases->mem[1];
    assert_string_equal(c->name, "PTA+GE");
    assert_int_equal(c->samples, 2);
    assert_true(c->peak_allocated == 564 && c->peak_reserved == 9000);
    pr_trace_free(t);
}

/* torch_npu 2025-01 writes NPU_OP_MEM's types as STRING_IDS ids (no
 * ENUM_MEMORY table): read by their names, and no session to keep to. */
static const char *const npu_op_mem_str_sql[] = {
    "INSERT INTO STRING_IDS VALUES (60,'GE'),(62,'MatMul'),(73,'release'),"
    " (74,'allocate');",
    "CREATE TABLE NPU_OP_MEM (operatorName INTEGER, addr INTEGER, type"
    " INTEGER, size INTEGER, timestampNs INTEGER, globalTid INTEGER,"
    " totalAllocate NUMERIC, totalReserve NUMERIC, component INTEGER,"
    " deviceId INTEGER);",
    "INSERT INTO NPU_OP_MEM VALUES (62,4096,74,256,100,1,256,1024,60,2),"
    " (62,4096,73,256,900000,1,0,1024,60,2);",
    NULL};

static void
test_npu_op_mem_strings(void **state)
{
    struct pr_trace *t =
        load(build_on("op_mem.db", msprof_sql, npu_op_mem_str_sql));
    int64_t got[2] = {0, 0};
    size_t i, k = 0;

    (void)state;
    for (i = 0; i < t->n_events; i++)
        if (t->events[i].kind == PR_KIND_MEMORY_RECORD && k < 2)
            got[k++] = pr_trace_mem(t, &t->events[i])->bytes;
    assert_int_equal(k, 2);
    assert_int_equal(got[0], 256);
    assert_int_equal(got[1], -256);
    assert_null(gap(t, "npu_op_mem_outside_session"));
    assert_string_equal(t->phases->mem[0].name, "GE");
    pr_trace_free(t);
}

/* torch_npu: NPU_MEM's app rows (types of STRING_IDS) are the APP
 * component, a reserved total of hbm + ddr; MEMORY_RECORD's components
 * follow in the order they start. */
static const char *const npu_mem_sql[] = {
    "INSERT INTO STRING_IDS VALUES (64,'app'),(65,'device');",
    "CREATE TABLE NPU_MEM (type INTEGER, ddr NUMERIC, hbm NUMERIC,"
    " timestampNs INTEGER, deviceId INTEGER);",
    "INSERT INTO NPU_MEM VALUES (64,0,5000,1000,5),(64,100,7000,2000,5),"
    " (65,0,9999,1500,5);",
    NULL};

static void
test_npu_mem(void **state)
{
    struct pr_trace *t = load(build_more(npu_mem_sql));
    const struct pr_mem_component *c;

    (void)state;
    assert_non_null(t->phases);
    assert_int_equal(t->phases->n_mem, 3);
    assert_string_equal(t->phases->mem_source, "MEMORY_RECORD, NPU_MEM");
    c = &t->phases->mem[0];
    assert_string_equal(c->name, "APP");
    assert_int_equal(c->device, 5);
    assert_int_equal(c->samples, 2);
    assert_true(c->peak_allocated < 0 && c->peak_reserved == 7100);
    c = &t->phases->mem[1];
    assert_string_equal(c->name, "PTA");
    assert_int_equal(c->samples, 4);
    assert_true(c->peak_allocated == 3000 && c->peak_reserved == 4000);
    c = &t->phases->mem[2];
    assert_string_equal(c->name, "GE");
    assert_int_equal(c->samples, 1);
    assert_true(c->peak_allocated == 99 && c->peak_reserved == 99);
    pr_trace_free(t);
}

static struct pr_probe
probe_of(const char *path, char *head, size_t cap)
{
    struct pr_probe p;
    FILE *f = fopen(path, "rb");

    assert_non_null(f);
    memset(&p, 0, sizeof(p));
    p.path = path;
    p.base = strrchr(path, '/') + 1;
    p.head = head;
    p.n_head = fread(head, 1, cap, f);
    fclose(f);
    return p;
}

/* Claimed by the magic and the tables; analysis.db is claimed to be
 * named in the warning, and unrelated databases are left alone. */
static void
test_sniff(void **state)
{
    static char head[4096];
    struct pr_probe p;
    struct pr_trace *t = NULL;
    struct pr_error err;
    enum pr_claim c;

    (void)state;
    p = probe_of(build("run.db", torch_npu_sql), head, sizeof(head));
    assert_ptr_equal(
        pr_formats_pick(pr_formats_builtin(), &p, PR_CLAIM_SHAPE, &c),
        &pr_format_ascend_db);
    assert_int_equal(c, PR_CLAIM_SURE);
    p = probe_of(build("analysis.db", analysis_sql), head, sizeof(head));
    assert_int_equal(pr_format_ascend_db.sniff(&p), PR_CLAIM_SURE);
    pr_error_clear(&err);
    assert_int_equal(pr_format_ascend_db.load(p.path, NULL, &t, &err),
                     PR_E_NOT_FORMAT);
    assert_null(t);
    assert_non_null(strstr(err.msg, "analysis.db"));
    assert_true(strncmp(err.msg, p.path, strlen(p.path)) == 0);
    p = probe_of(build1("other.db", "CREATE TABLE STRING_IDS (id, value);"),
                 head, sizeof(head));
    assert_int_equal(pr_format_ascend_db.sniff(&p), PR_CLAIM_NO);
    pr_error_clear(&err);
    assert_int_equal(pr_format_ascend_db.load(p.path, NULL, &t, &err),
                     PR_E_NOT_FORMAT);
    assert_non_null(strstr(err.msg, "not an Ascend profiler database"));
}

/* What cannot be read says so, with the file's name, and leaves nothing. */
static void
test_bad(void **state)
{
    char path[256];
    struct pr_trace *t = NULL;
    struct pr_error err;
    FILE *f;
    int i;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(
        pr_format_ascend_db.load(
            build1("no_start.db",
                   "CREATE TABLE STRING_IDS (id INTEGER, value TEXT);"
                   "CREATE TABLE TASK (endNs, deviceId, connectionId,"
                   " taskType, streamId, taskId, globalTaskId);"),
            NULL, &t, &err),
        PR_E_FORMAT);
    assert_null(t);
    assert_non_null(strstr(err.msg, "TASK"));
    assert_non_null(strstr(err.msg, "no_start.db"));
    snprintf(path, sizeof(path), "%s/corrupt.db", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    fwrite("SQLite format 3", 1, 16, f);
    for (i = 0; i < 8192; i++)
        fputc((i * 7919) & 0xff, f);
    fclose(f);
    pr_error_clear(&err);
    assert_int_equal(pr_format_ascend_db.load(path, NULL, &t, &err),
                     PR_E_FORMAT);
    assert_null(t);
    assert_true(strncmp(err.msg, path, strlen(path)) == 0);
    unlink(path);
}

static int
setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/pr_adb_XXXXXX");
    return mkdtemp(dir) == NULL;
}

static int
teardown(void **state)
{
    static const char *const names[] = {"run.db",    "analysis.db",
                                        "other.db",  "no_start.db",
                                        "msprof.db", "op_mem.db"};
    char path[256];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        unlink(path);
    }
    return rmdir(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device),
        cmocka_unit_test(test_host),
        cmocka_unit_test(test_steps),
        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_op_memory),
        cmocka_unit_test(test_msprof),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_groups),
        cmocka_unit_test(test_mstx),
        cmocka_unit_test(test_pmu),
        cmocka_unit_test(test_links),
        cmocka_unit_test(test_npu_op_mem),
        cmocka_unit_test(test_npu_mem),
        cmocka_unit_test(test_npu_op_mem_strings),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
