/* test_ascend.c - a torch_npu rank folder (*_ascend_pt): claimed when
 * ASCEND_PROFILER_OUTPUT holds the text export, not when it holds only
 * the SQLite one; the rank comes from profiler_info_{r}.json whether
 * rank_id is an integer or a string, also when the output folder itself
 * is given; files not read are listed as skipped.  step_trace_time.csv
 * gives the steps (Stage + Bubble from the first task of the step), in
 * place of the host's ProfilerStep#N.  kernel_details.csv adds its
 * columns to the timeline's tasks, or is the kernels of a folder without
 * trace_view.json, in its 2023, 2025-01 and CANN 8.3 column sets.
 * operator_memory.csv gives allocation and release records, and
 * communication.json the collectives' sizes where trace_view.json is
 * absent. */
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

#include "profreport/formats.h"
#include "profreport/trace.h"

static const char *const tv_doc =
    "[{\"ph\": \"X\", \"name\": \"ProfilerStep#7\", \"pid\": 100, \"tid\": "
    "100, \"ts\": \"1736408883700000.000\", \"dur\": 500.0, \"cat\": "
    "\"cpu_op\"},\n"
    "{\"ph\": \"X\", \"name\": \"Conv2D1\", \"pid\": 900, \"tid\": 2, "
    "\"ts\": \"1736408883700100.001\", \"dur\": 30.25, \"args\": {\"Task "
    "Type\": \"AI_CORE\", \"Physic Stream Id\": 2, \"Task Id\": 11}},\n"
    "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 100, \"tid\": 0, "
    "\"args\": {\"name\": \"Python\"}},\n"
    "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 900, \"tid\": 0, "
    "\"args\": {\"name\": \"Ascend Hardware\"}}]\n";

static const struct pr_format *
row(void)
{
    const struct pr_format_table *t = pr_formats_builtin();
    size_t i;

    for (i = 0; i < t->n; i++)
        if (strcmp(t->v[i]->name, "ascend") == 0)
            return t->v[i];
    fail_msg("no ascend row");
    return NULL;
}

/* A scratch folder, removed with everything in it by rm_tree. */
static void
mk_root(char *root, size_t cap)
{
    snprintf(root, cap, "/tmp/pr_ascend_XXXXXX");
    assert_non_null(mkdtemp(root));
}

static void
put(const char *root, const char *rel, const char *text)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    fclose(f);
}

static void
mk(const char *root, const char *rel)
{
    char path[4096];

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    assert_int_equal(mkdir(path, 0700), 0);
}

static void
rm_tree(const char *root)
{
    char cmd[4200];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static enum pr_claim
claim(const char *dir)
{
    struct pr_probe p;

    memset(&p, 0, sizeof(p));
    p.path = dir;
    p.base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    p.is_dir = 1;
    return row()->sniff(&p);
}

static struct pr_trace *
load_dir(const char *dir)
{
    struct pr_trace *t = NULL;
    struct pr_error err;

    pr_error_clear(&err);
    if (row()->load(dir, NULL, &t, &err) != PR_OK)
        fail_msg("%s", err.msg);
    return t;
}

/* A rank folder with a trace_view and the given profiler_info text. */
static void
rank_folder(const char *root, const char *info_name, const char *info)
{
    mk(root, "r_ascend_pt");
    mk(root, "r_ascend_pt/ASCEND_PROFILER_OUTPUT");
    put(root, "r_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", tv_doc);
    put(root, "r_ascend_pt/ASCEND_PROFILER_OUTPUT/l2_cache.csv",
        "Stream Id,Task Id,Hit Rate,Victim Rate,Op Name\n");
    if (info != NULL)
        put(root, info_name, info);
}

static void
test_rank_int(void **state)
{
    char root[64], dir[128];
    struct pr_trace *t;
    size_t i;
    int skipped_api = 0;

    (void)state;
    mk_root(root, sizeof(root));
    rank_folder(root, "r_ascend_pt/profiler_info_1.json",
                "{\"config\": {}, \"rank_id\": 1}");
    snprintf(dir, sizeof(dir), "%s/r_ascend_pt", root);
    assert_int_equal(claim(dir), PR_CLAIM_SURE);
    t = load_dir(dir);
    assert_string_equal(pr_trace_str(t, t->format), "ascend");
    assert_int_equal(t->rank, 1);
    assert_string_equal(pr_trace_str(t, t->worker), "rank1");
    for (i = 0; i < t->n_events; i++)
        if (t->events[i].kind == PR_KIND_DEVICE_TASK)
            break;
    assert_true(i < t->n_events); /* the timeline was read */
    for (i = 0; i < t->n_skipped; i++)
        skipped_api |=
            strstr(pr_trace_str(t, t->skipped[i].path), "l2_cache.csv") != NULL;
    assert_true(skipped_api);
    pr_trace_free(t);
    rm_tree(root);
}

/* CANN 8.3 writes rank_id as a string; the output folder may be given
 * itself, and the rank is then in its parent. */
static void
test_rank_string_from_output(void **state)
{
    char root[64], dir[160];
    struct pr_trace *t;

    (void)state;
    mk_root(root, sizeof(root));
    rank_folder(root, "r_ascend_pt/profiler_info_12.json",
                "{\"rank_id\": \"12\", \"cann_version\": \"8.3.RC1\"}");
    snprintf(dir, sizeof(dir), "%s/r_ascend_pt/ASCEND_PROFILER_OUTPUT", root);
    assert_int_equal(claim(dir), PR_CLAIM_SURE);
    t = load_dir(dir);
    assert_int_equal(t->rank, 12);
    assert_string_equal(pr_trace_str(t, t->worker), "rank12");
    pr_trace_free(t);
    rm_tree(root);
}

/* profiler_info has no world size; profiler_metadata.json beside it names
 * the world's group (parallel_group_info), which gives it.  Without that
 * group, or with a metadata file that is not JSON, it stays unknown. */
static void
test_world_from_metadata(void **state)
{
    char root[64], dir[128];
    struct pr_trace *t;

    (void)state;
    mk_root(root, sizeof(root));
    rank_folder(root, "r_ascend_pt/profiler_info_1.json", "{\"rank_id\": 1}");
    snprintf(dir, sizeof(dir), "%s/r_ascend_pt", root);
    t = load_dir(dir);
    assert_int_equal(t->world_size, -1);
    pr_trace_free(t);
    put(root, "r_ascend_pt/profiler_metadata.json",
        "{\"ENV_VARIABLES\": {}, \"parallel_group_info\": {\"group_name_0\": "
        "{\"group_name\": \"default_group\", \"group_rank\": 1, "
        "\"global_ranks\": [0, 1, 2, 3, 4, 5, 6, 7]}, \"group_name_9\": "
        "{\"group_name\": \"tp\", \"group_rank\": 1, \"global_ranks\": [0, "
        "1]}}}");
    t = load_dir(dir);
    assert_int_equal(t->rank, 1);
    assert_int_equal(t->world_size, 8);
    pr_trace_free(t);
    put(root, "r_ascend_pt/profiler_metadata.json",
        "{\"parallel_group_info\": {\"group_name_9\": {\"group_name\": "
        "\"tp\", \"global_ranks\": [0, 1]}}}");
    t = load_dir(dir);
    assert_int_equal(t->world_size, -1);
    pr_trace_free(t);
    put(root, "r_ascend_pt/profiler_metadata.json", "{broken");
    t = load_dir(dir);
    assert_int_equal(t->world_size, -1);
    pr_trace_free(t);
    rm_tree(root);
}

/* No profiler_info: the run keeps its folder's name; a rank_id that is
 * not a number is an error that names the file. */
static void
test_no_or_bad_info(void **state)
{
    char root[64], dir[128];
    struct pr_trace *t = NULL;
    struct pr_error err;

    (void)state;
    mk_root(root, sizeof(root));
    rank_folder(root, "", NULL);
    snprintf(dir, sizeof(dir), "%s/r_ascend_pt", root);
    t = load_dir(dir);
    assert_int_equal(t->rank, -1);
    assert_int_equal(t->worker, PR_STR_NONE);
    pr_trace_free(t);
    put(root, "r_ascend_pt/profiler_info_0.json", "{\"rank_id\": \"x\"}");
    pr_error_clear(&err);
    t = NULL;
    assert_int_equal(row()->load(dir, NULL, &t, &err), PR_E_FORMAT);
    assert_null(t);
    assert_non_null(strstr(err.msg, "profiler_info_0.json"));
    rm_tree(root);
}

/* A rank folder of only the SQLite export is claimed (the database's
 * reader reads it, and the folder's profiler_info is the run's); an
 * output folder with neither export, or no output folder, is not. */
static void
test_not_claimed(void **state)
{
    char root[64], dir[128];

    (void)state;
    mk_root(root, sizeof(root));
    mk(root, "db_ascend_pt");
    mk(root, "db_ascend_pt/ASCEND_PROFILER_OUTPUT");
    put(root, "db_ascend_pt/profiler_info_0.json", "{\"rank_id\": 0}");
    snprintf(dir, sizeof(dir), "%s/db_ascend_pt", root);
    assert_int_equal(claim(dir), PR_CLAIM_NO);
    put(root,
        "db_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db",
        "SQLite format 3");
    assert_int_equal(claim(dir), PR_CLAIM_SURE);
    assert_int_equal(claim(root), PR_CLAIM_NO);
    rm_tree(root);
}

static const struct pr_event *
step_of(const struct pr_trace *t, const char *name)
{
    const struct pr_event *hit = NULL;
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_ANNOTATION &&
            strcmp(pr_trace_str(t, e->name), name) == 0) {
            assert_null(hit); /* one step of that name */
            hit = e;
        }
    }
    assert_non_null(hit);
    return hit;
}

#define STEPS_HDR                                                              \
    "Step,Computing,Communication(Not Overlapped),Overlapped,"                 \
    "Communication,Free,Stage,Bubble,Communication(Not Overlapped and "        \
    "Exclude Receive),Preparing\n"

/* The producer's step: Stage + Bubble long, from the first task that
 * kernel_details gives the step; the host ProfilerStep#7 is no step. */
static void
test_steps_from_table(void **state)
{
    char root[64], dir[128];
    struct pr_trace *t;
    const struct pr_event *e;
    size_t i;

    (void)state;
    mk_root(root, sizeof(root));
    rank_folder(root, "r_ascend_pt/profiler_info_0.json", "{\"rank_id\": 0}");
    put(root, "r_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
        STEPS_HDR "7,20.5,10,4.5,14.5,69.5,100.0,2.5,10,100.000\n");
    put(root, "r_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
        "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator "
        "Core,Start Time(us),Duration(us)\n"
        "7,4294967295,12,2,B,B,dynamic,AI_CORE,1736408883700200.500\t,5\n"
        "7,4294967295,11,2,A,A,dynamic,AI_CORE,\"1736408883700100.001\t\",5\n"
        "8,4294967295,13,2,C,C,dynamic,AI_CORE,1736408883600000.000\t,5\n");
    snprintf(dir, sizeof(dir), "%s/r_ascend_pt", root);
    t = load_dir(dir);
    assert_int_equal(t->device_steps, 1);
    e = step_of(t, "ProfilerStep#7");
    assert_true(e->ts_ns == INT64_C(1736408883700100001));
    assert_true(e->dur_ns == 102500);
    for (i = 0; i < t->n_events; i++)
        if (strcmp(pr_trace_str(t, t->events[i].name), "ProfilerStep#7") == 0)
            assert_true(&t->events[i] == e ||
                        t->events[i].kind == PR_KIND_OTHER);
    pr_trace_free(t);
    rm_tree(root);
}

/* A 2023 table (no Stage column here, no Preparing) and no
 * kernel_details: the phases make the length; the host step's start
 * plus Preparing, when there is one, makes the start. */
static void
test_steps_fallbacks(void **state)
{
    char root[64], dir[128];
    struct pr_trace *t;
    const struct pr_event *e;

    (void)state;
    mk_root(root, sizeof(root));
    rank_folder(root, "r_ascend_pt/profiler_info_0.json", "{\"rank_id\": 0}");
    put(root, "r_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
        "Step,Computing,Communication(Not Overlapped),Free\n"
        "7,20.5,10,69.25\n");
    snprintf(dir, sizeof(dir), "%s/r_ascend_pt", root);
    t = load_dir(dir);
    e = step_of(t, "ProfilerStep#7");
    assert_true(e->ts_ns == INT64_C(1736408883700000000));
    assert_true(e->dur_ns == 99750);
    pr_trace_free(t);
    put(root, "r_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
        STEPS_HDR "7,20.5,10,4.5,14.5,69.5,100.0,0,10,17.25\n");
    t = load_dir(dir);
    e = step_of(t, "ProfilerStep#7");
    assert_true(e->ts_ns == INT64_C(1736408883700017250));
    assert_true(e->dur_ns == 100000);
    pr_trace_free(t);
    rm_tree(root);
}

/* A cell that is no number: the file and line are named. */
static void
test_steps_bad(void **state)
{
    char root[64], dir[128];
    struct pr_trace *t = NULL;
    struct pr_error err;

    (void)state;
    mk_root(root, sizeof(root));
    rank_folder(root, "r_ascend_pt/profiler_info_0.json", "{\"rank_id\": 0}");
    put(root, "r_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
        STEPS_HDR "7,20.5,10,4.5,14.5,69.5,1x00.0,0,10,17.25\n");
    snprintf(dir, sizeof(dir), "%s/r_ascend_pt", root);
    pr_error_clear(&err);
    assert_int_equal(row()->load(dir, NULL, &t, &err), PR_E_FORMAT);
    assert_null(t);
    assert_non_null(strstr(err.msg, "step_trace_time.csv: line 2:"));
    rm_tree(root);
}

static const struct pr_event *
event_of(const struct pr_trace *t, const char *name)
{
    size_t i;

    for (i = 0; i < t->n_events; i++)
        if (strcmp(pr_trace_str(t, t->events[i].name), name) == 0)
            return &t->events[i];
    fail_msg("no event %s", name);
    return NULL;
}

/* With trace_view.json the row's columns go onto the task that starts at
 * the same ns; the HCCL row and the row of no task add no task. */
static void
test_kernels_enrich(void **state)
{
    char root[64], dir[128];
    struct pr_trace *t;
    const struct pr_gpu_info *g;
    size_t i, tasks = 0;

    (void)state;
    mk_root(root, sizeof(root));
    rank_folder(root, "r_ascend_pt/profiler_info_0.json", "{\"rank_id\": 0}");
    put(root, "r_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
        "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator "
        "Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Mix Block "
        "Dim,HF32 Eligible,Input Shapes,Input Data Types,Input "
        "Formats,aic_cube_fops,aiv_vector_fops,cube_utilization(%)\n"
        "7,4294967295,11,2,Conv2D1,Conv2D,dynamic,AI_CORE,"
        "1736408883700100.001\t,30.25,0,8,0,YES,\"\"\"32,1,224,224,8;121,4,"
        "16,8\"\"\",FLOAT;FLOAT,NC1HWC0;FRACTAL_Z,1000,24,55.5\n"
        "7,4294967295,N/A,N/A,hcom_allReduce__1_0_1,hcom_allReduce_,N/A,"
        "HCCL,1736408883700200.000\t,9,0,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A\n"
        "7,4294967295,99,2,Lost,Add,dynamic,AI_VECTOR_CORE,"
        "1736408883700300.000\t,1,0,8,0,NO,\"\"\"4\"\"\",FLOAT,ND,0,4,0\n");
    snprintf(dir, sizeof(dir), "%s/r_ascend_pt", root);
    t = load_dir(dir);
    for (i = 0; i < t->n_events; i++)
        tasks += t->events[i].kind == PR_KIND_DEVICE_TASK;
    assert_int_equal(tasks, 1); /* Conv2D1 from the timeline, once */
    g = pr_trace_gpu(t, event_of(t, "Conv2D1"), &(struct pr_gpu_info){0});
    assert_int_equal(g->unit, PR_UNIT_MATRIX);
    assert_int_equal(g->hf32, 1);
    assert_int_equal(g->block_dim, 8); /* "Block Dim" */
    assert_int_equal(g->stream, 2);
    assert_string_equal(pr_trace_str(t, g->op_type), "Conv2D");
    assert_string_equal(pr_trace_str(t, g->dev_shapes),
                        "[[32, 1, 224, 224, 8], [121, 4, 16, 8]]");
    assert_string_equal(pr_trace_str(t, g->dev_types), "['float', 'float']");
    assert_true(g->matrix_util_pct == 55.5);
    assert_true(g->measured_flops == 1024);
    assert_int_equal(t->n_gaps, 1); /* "Lost" starts at no task */
    assert_int_equal(t->gaps[0].count, 1);
    pr_trace_free(t);
    rm_tree(root);
}

/* A CSV-only folder: each row a task, in each column generation. */
static void
csv_only(const char *header, const char *rows, const char *info, int device)
{
    char root[64], dir[128], text[2048];
    struct pr_trace *t;
    const struct pr_event *e;
    const struct pr_gpu_info *g;

    mk_root(root, sizeof(root));
    mk(root, "r");
    mk(root, "r/ASCEND_PROFILER_OUTPUT");
    snprintf(text, sizeof(text), "%s\n%s", header, rows);
    put(root, "r/ASCEND_PROFILER_OUTPUT/kernel_details.csv", text);
    put(root, "r/profiler_info_1.json", info);
    snprintf(dir, sizeof(dir), "%s/r", root);
    assert_int_equal(claim(dir), PR_CLAIM_SURE);
    t = load_dir(dir);
    assert_int_equal(t->rank, 1);
    assert_string_equal(pr_trace_str(t, t->device_kind), "npu");
    assert_int_equal(t->n_gaps, 1);
    assert_string_equal(pr_trace_str(t, t->gaps[0].kind), "no_operators");
    e = event_of(t, "MatMulV2");
    assert_int_equal(e->kind, PR_KIND_DEVICE_TASK);
    assert_true(e->ts_ns == INT64_C(1695115378713661000));
    assert_true(e->dur_ns == 496851);
    g = pr_trace_gpu(t, e, &(struct pr_gpu_info){0});
    assert_int_equal(g->device, device);
    assert_int_equal(g->stream, 16);
    assert_int_equal(g->task_id, 2451);
    assert_int_equal(g->unit, PR_UNIT_MATRIX);
    assert_int_equal(g->hf32, 0);
    e = event_of(t, "hcom_broadcast__483_0");
    assert_int_equal(e->kind, PR_KIND_DEVICE_TASK);
    g = pr_trace_gpu(t, e, &(struct pr_gpu_info){0});
    assert_int_equal(g->unit, PR_UNIT_COMM);
    assert_string_equal(pr_trace_str(t, g->collective), "broadcast");
    pr_trace_free(t);
    rm_tree(root);
}

static void
test_kernels_csv_only(void **state)
{
    (void)state;
    /* 2023: no OP State */
    csv_only("Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,"
             "Start Time(us),Duration(us),Wait Time(us),Block Dim,Mix Block "
             "Dim,HF32 Eligible,Input Shapes",
             "2,4294967295,2451,16,MatMulV2,MatMulV2,AI_CORE,1695115378713661,"
             "496.8508,0,48,0,NO,\"\"\"8,8\"\"\"\n"
             "2,4294967295,N/A,N/A,hcom_broadcast__483_0,hcom_broadcast_,HCCL,"
             "1695115378715400.2,4975.2664,1242.3992,0,N/A,N/A,N/A\n",
             "{\"rank_id\": 1}", 0);
    /* 2025-01: OP State, tab-suffixed times */
    csv_only("Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,"
             "Accelerator Core,Start Time(us),Duration(us),HF32 Eligible",
             "2,4294967295,2451,16,MatMulV2,MatMulV2,dynamic,AI_CORE,"
             "1695115378713661.000\t,496.8508,NO\n"
             "2,4294967295,N/A,N/A,hcom_broadcast__483_0,hcom_broadcast_,N/A,"
             "HCCL,1695115378715400.200\t,4975.2664,N/A\n",
             "{\"rank_id\": 1}", 0);
    /* CANN 8.3: Device_id first, rank_id a string */
    csv_only("Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP "
             "State,Accelerator Core,Start Time(us),Duration(us),HF32 "
             "Eligible",
             "2,5,4294967295,2451,16,MatMulV2,MatMulV2,dynamic,AI_CORE,"
             "\"1695115378713661.000\t\",496.8508,NO\n"
             "2,5,4294967295,N/A,N/A,hcom_broadcast__483_0,hcom_broadcast_,"
             "N/A,HCCL,\"1695115378715400.200\t\",4975.2664,N/A\n",
             "{\"rank_id\": \"1\"}", 5);
}

/* A time that is no time: the file and line are named. */
static void
test_kernels_bad(void **state)
{
    char root[64], dir[128];
    struct pr_trace *t = NULL;
    struct pr_error err;

    (void)state;
    mk_root(root, sizeof(root));
    mk(root, "r");
    mk(root, "r/ASCEND_PROFILER_OUTPUT");
    put(root, "r/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
        "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)\n"
        "1,A,A,AI_CORE,1695115378713661,1\n"
        "1,B,B,AI_CORE,16951153787x,1\n");
    snprintf(dir, sizeof(dir), "%s/r", root);
    pr_error_clear(&err);
    assert_int_equal(row()->load(dir, NULL, &t, &err), PR_E_FORMAT);
    assert_null(t);
    assert_non_null(strstr(err.msg, "kernel_details.csv: line 3:"));
    rm_tree(root);
}

/* operator_memory.csv: an allocation record per row, a release record
 * when it was released, paired by a number; the curve's totals are the
 * PTA rows' (MB of 2^20 bytes), not the GE ("cann::") rows'. */
static void
test_memory(void **state)
{
    char root[64], dir[128];
    struct pr_trace *t;
    size_t i, n_alloc = 0, n_free = 0, n_totals = 0;
    int64_t sum = 0;

    (void)state;
    mk_root(root, sizeof(root));
    rank_folder(root, "r_ascend_pt/profiler_info_0.json", "{\"rank_id\": 0}");
    put(root, "r_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_memory.csv",
        "Name,Size(KB),Allocation Time(us),Release Time(us),Active Release "
        "Time(us),Duration(us),Active Duration(us),Allocation Total "
        "Allocated(MB),Allocation Total Reserved(MB),Allocation Total "
        "Active(MB),Release Total Allocated(MB),Release Total "
        "Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n"
        "aten::empty,2,1736408883700010.000\t,1736408883700020.000\t,,10,,"
        "1.5,4.0,1.5,1.0,4.0,1.0,1,NPU:2\n"
        "cann::Graph_1,4,1736408883700030.000\t,,,,,9,9,9,,,,1,NPU:2\n");
    snprintf(dir, sizeof(dir), "%s/r_ascend_pt", root);
    t = load_dir(dir);
    for (i = 0; i < t->n_events; i++) {
        const struct pr_mem_info *m = pr_trace_mem(t, &t->events[i]);

        if (m == NULL)
            continue;
        assert_int_equal(m->device_id, 2);
        assert_int_equal(m->device_type, 1);
        n_alloc += m->bytes > 0;
        n_free += m->bytes <= 0;
        sum += m->bytes;
        if (!isnan(m->total_allocated)) {
            n_totals++;
            assert_true(m->bytes > 0 ? m->total_allocated == 1.5 * 1048576
                                     : m->total_reserved == 4.0 * 1048576);
            assert_true(m->addr == 0); /* the first row's pair */
        }
    }
    assert_int_equal(n_alloc, 2);
    assert_int_equal(n_free, 1);
    assert_int_equal(n_totals, 2);
    assert_true(sum == 4096); /* the GE row was never released */
    pr_trace_free(t);
    rm_tree(root);
}

/* communication.json sizes the collectives of a CSV-only folder: Σ
 * Transit Size (MB = 10^6 bytes) onto the task of the same name that
 * starts within 1 us; "Total Op Info" and unknown ops are passed over. */
static void
test_comm_sizes(void **state)
{
    char root[64], dir[128];
    struct pr_trace *t;
    const struct pr_gpu_info *g;

    (void)state;
    mk_root(root, sizeof(root));
    mk(root, "r");
    mk(root, "r/ASCEND_PROFILER_OUTPUT");
    put(root, "r/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
        "Step Id,Task ID,Stream ID,Name,Type,Accelerator Core,Start "
        "Time(us),Duration(us)\n"
        "2,N/A,N/A,hcom_allReduce__483_2,hcom_allReduce_,HCCL,"
        "1695115378727429.0,1852.8\n"
        "2,N/A,N/A,hcom_broadcast__483_0,hcom_broadcast_,HCCL,"
        "1695115378715400.2,4975.2664\n");
    put(root, "r/ASCEND_PROFILER_OUTPUT/communication.json",
        "{\"step2\": {\"p2p\": {}, \"collective\": {"
        "\"hcom_allReduce__483_2@93\": {\"Communication Time Info\": "
        "{\"Start Timestamp(us)\": 1695115378727429.0}, \"Communication "
        "Bandwidth Info\": {\"HCCS\": {\"Transit Size(MB)\": 1.5}, "
        "\"RDMA\": {\"Transit Size(MB)\": 0.25}, \"SDMA\": {}}},"
        "\"hcom_broadcast__483_0@93\": {\"Communication Time Info\": "
        "{\"Start Timestamp(us)\": 1695115378715500.2}, \"Communication "
        "Bandwidth Info\": {\"HCCS\": {\"Transit Size(MB)\": 1}}},"
        "\"Total Op Info\": {}}}}");
    snprintf(dir, sizeof(dir), "%s/r", root);
    t = load_dir(dir);
    g = pr_trace_gpu(t, event_of(t, "hcom_allReduce__483_2"),
                     &(struct pr_gpu_info){0});
    /* the bytes sent over the links, marked as such: not the message
       (review 20 #1; the analysis divides by the link factor) */
    assert_string_equal(pr_trace_str(t, g->dtype), PR_DTYPE_LINK_BYTES);
    assert_true(g->in_nelems == 1750000);
    /* 100 us away from the task: not that task's */
    g = pr_trace_gpu(t, event_of(t, "hcom_broadcast__483_0"),
                     &(struct pr_gpu_info){0});
    assert_true(g->in_nelems == -1);
    pr_trace_free(t);
    put(root, "r/ASCEND_PROFILER_OUTPUT/communication.json", "[1, 2");
    t = NULL;
    {
        struct pr_error err;

        pr_error_clear(&err);
        assert_int_equal(row()->load(dir, NULL, &t, &err), PR_E_FORMAT);
        assert_non_null(strstr(err.msg, "communication.json: "));
    }
    rm_tree(root);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_int),
        cmocka_unit_test(test_rank_string_from_output),
        cmocka_unit_test(test_world_from_metadata),
        cmocka_unit_test(test_no_or_bad_info),
        cmocka_unit_test(test_not_claimed),
        cmocka_unit_test(test_steps_from_table),
        cmocka_unit_test(test_steps_fallbacks),
        cmocka_unit_test(test_steps_bad),
        cmocka_unit_test(test_kernels_enrich),
        cmocka_unit_test(test_kernels_csv_only),
        cmocka_unit_test(test_kernels_bad),
        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_comm_sizes),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
