/* test_mindspore.c - the legacy MindSpore profiler/ folder: files told
 * apart by content (every header generation), rank ids from names, exact
 * decimal times, and whole folders written by the test (Ascend rows and
 * AI CPU table, framework op_info shapes, flops, step trace with its
 * communication segments, the timeline JSON with its origin, per-op
 * totals only, several ranks in one folder) read into the model, plus the
 * errors a damaged file gives. */
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

#include "../../src/ingest/mindspore/mindspore.h"
#include "profreport/formats.h"

extern const struct pr_format pr_format_mindspore;

static enum pr_ms_kind
kind_of(const char *text)
{
    return pr_ms_classify(text, strlen(text), 1);
}

static void
test_classify(void **state)
{
    (void)state;
    assert_int_equal(kind_of("task_id,stream_id,block_dim,full_kernel_name,"
                             "op_name,kernel_name,kernel_type,subgraph,"
                             "op_info\n"),
                     PR_MS_FRAMEWORK);
    assert_int_equal(kind_of("task_id,stream_id,block_dim,full_op_name,"
                             "op_name,op_type,subgraph,op_info\n"),
                     PR_MS_FRAMEWORK);
    assert_int_equal(kind_of("full_kernel_name,execution_time,"
                             "execution_frequency\n"),
                     PR_MS_AICORE_DETAIL);
    assert_int_equal(kind_of("full_op_name,execution_time\n"),
                     PR_MS_AICORE_DETAIL);
    assert_int_equal(kind_of("op_type,execution_time,execution_frequency,"
                             "percent\n"),
                     PR_MS_AICORE_TYPE);
    assert_int_equal(kind_of("serial_number,kernel_type,total_time,dispatch_"
                             "time,execution_time,run_start,run_end\n"),
                     PR_MS_AICPU);
    assert_int_equal(kind_of("op_name, stream_id, start_time(ms), "
                             "duration(ms)\n"),
                     PR_MS_TIMELINE_DATA);
    assert_int_equal(kind_of("step_num,start_point,end_point,total,fp_point\n"),
                     PR_MS_STEP_TRACE);
    assert_int_equal(kind_of("full_kernel_name, FLOPs, FLOPS, FLOPS "
                             "utilization\n"),
                     PR_MS_FLOPS);
    assert_int_equal(kind_of("op_full_name, MFLOPs(10^6), GFLOPS(10^9), "
                             "FLOPS utilization(%)\n"),
                     PR_MS_FLOPS);
    assert_int_equal(kind_of("full_kernel_name, MFLOPs(10^6 cube), "
                             "GFLOPS(10^9 cube), FLOPS utilization(cube), "
                             "MFLOPs(10^6 vector)\n"),
                     PR_MS_FLOPS);
    assert_int_equal(kind_of("step_num,communication_cost,wait_cost,link_"
                             "info,communication_operator_cost\n"),
                     PR_MS_HCCL);
    assert_int_equal(kind_of("computation,communication_alone_time\n1,2\n"),
                     PR_MS_CLUSTER);
    assert_int_equal(kind_of("{\"fp_start\": \"a\", \"bp_end\": \"b\"}"),
                     PR_MS_STEP_POINTS);
    assert_int_equal(kind_of("{\"FLOPs\": 1, \"FLOPS\": 2, "
                             "\"FLOPS_Utilization\": 3}"),
                     PR_MS_FLOPS_SUMMARY);
    assert_int_equal(kind_of("[{\"name\": \"A-op1\", \"ph\": \"X\", \"tid\": "
                             "5, \"ts\": 0, \"dur\": 1, \"pid\": 1, \"args\": "
                             "{\"type\": \"A\", \"fullname\": \"D/A-op1\"}}]"),
                     PR_MS_TIMELINE);
    assert_int_equal(kind_of("[{\"name\": \"k\", \"ph\": \"X\", \"tid\": "
                             "\"Ops\", \"ts\": 1, \"dur\": 2, \"pid\": 0}]"),
                     PR_MS_GPU_TIMELINE);
    assert_int_equal(kind_of("43806841592.0"), PR_MS_MIN_CYCLE);
    assert_int_equal(kind_of("0 1 1 4 10\n0 2 1 4 10\n"), PR_MS_DEVICE_QUEUE);
    assert_int_equal(kind_of("====================op compute time====\n"),
                     PR_MS_REDUNDANT);
    assert_int_equal(kind_of("op_side,op_type,op_name,op_full_name,op_"
                             "occurrences,op_total_time(us)\n"),
                     PR_MS_GPU_OP_DETAIL);
    assert_int_equal(kind_of("name,type,op_full_name,stream_id,block_dim,"
                             "grid_dim,occurrences\n"),
                     PR_MS_GPU_ACTIVITY);
    assert_int_equal(kind_of("void k<float>(int);7;1600695897737724;5.792\n"),
                     PR_MS_GPU_KERNEL_TS);
    assert_int_equal(kind_of("Default/A-op1;GpuOps;1600,3.5 1700,2.5 \n"),
                     PR_MS_GPU_OP_TS);
    assert_int_equal(kind_of("Default/A-op1 160,170 180,190 \n"),
                     PR_MS_GPU_STEP_TRACE);
    /* other producers' files are not ours */
    assert_int_equal(kind_of("[{\"name\": \"x\", \"ph\": \"X\", \"cat\": "
                             "\"kernel\", \"pid\": 1, \"args\": {\"fullname\": "
                             "1}}]"),
                     PR_MS_UNKNOWN);
    assert_int_equal(kind_of("Step Id,Model ID,Task ID\n"), PR_MS_UNKNOWN);
    assert_int_equal(kind_of("{\"traceEvents\": []}"), PR_MS_UNKNOWN);
    assert_int_equal(kind_of(""), PR_MS_UNKNOWN);
}

static void
test_names_and_numbers(void **state)
{
    char type[32];
    int64_t ns = 0;

    (void)state;
    assert_int_equal(pr_ms_rank_of("aicore_intermediate_1_detail.csv"), 1);
    assert_int_equal(pr_ms_rank_of("step_trace_raw_10_detail_time.csv"), 10);
    assert_int_equal(
        pr_ms_rank_of("ascend_cluster_analyse_pipeline-parallel_2_4_3.csv"), 3);
    assert_int_equal(pr_ms_rank_of("output_timeline_data_7.txt"), 7);
    assert_int_equal(pr_ms_rank_of("step_trace_point_info.json"), -1);
    assert_int_equal(pr_ms_rank_of("flops_x1.txt"), -1);
    pr_ms_op_type("Default/network-WithLossCell/conv1-Conv2d/Conv2D-op5", type,
                  sizeof(type));
    assert_string_equal(type, "Conv2D");
    pr_ms_op_type("GetNext", type, sizeof(type));
    assert_string_equal(type, "GetNext");
    assert_string_equal(pr_ms_collective("AllReduce"), "allreduce");
    assert_string_equal(pr_ms_collective("Receive"), "recv");
    assert_string_equal(pr_ms_collective("HcomAllGather"), "allgather");
    assert_null(pr_ms_collective("MatMul"));
    /* ms, 10 ns ticks, µs: exact, rounding past 1 ns */
    assert_true(pr_ms_dec_ns("438068.41592", 12, 6, &ns));
    assert_int_equal(ns, 438068415920LL);
    assert_true(pr_ms_dec_ns(" 43806841592.0 ", 15, 1, &ns));
    assert_int_equal(ns, 438068415920LL);
    assert_true(pr_ms_dec_ns("0.0000015", 9, 6, &ns));
    assert_int_equal(ns, 2);
    assert_true(pr_ms_dec_ns("-5", 2, 3, &ns));
    assert_int_equal(ns, -5000);
    assert_false(pr_ms_dec_ns("1e3", 3, 3, &ns));
    assert_false(pr_ms_dec_ns("", 0, 3, &ns));
    assert_false(pr_ms_dec_ns("99999999999999999999", 20, 0, &ns));
}

/* ------------------------------------------------------------ folders */

static void
put(const char *dir, const char *name, const char *text)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    fclose(f);
}

static void
rm_dir(const char *dir, const char *const *names)
{
    char path[512];

    for (; *names; names++) {
        snprintf(path, sizeof(path), "%s/%s", dir, *names);
        unlink(path);
    }
    rmdir(dir);
}

static struct pr_trace *
load_ok(const char *path)
{
    struct pr_trace *t = NULL;
    struct pr_error err;

    pr_error_clear(&err);
    if (pr_format_mindspore.load(path, NULL, &t, &err) != PR_OK)
        fail_msg("load failed: %s", err.msg);
    return t;
}

static enum pr_claim
sniff_dir(const char *dir)
{
    struct pr_probe p;

    memset(&p, 0, sizeof(p));
    p.path = dir;
    p.base = dir;
    p.is_dir = 1;
    return pr_format_mindspore.sniff(&p);
}

/* Device tasks (kind DEVICE_TASK) and their summed duration. */
static void
tasks(const struct pr_trace *t, size_t *n, int64_t *dur_ns)
{
    size_t i;

    *n = 0;
    *dur_ns = 0;
    for (i = 0; i < t->n_events; i++)
        if (t->events[i].kind == PR_KIND_DEVICE_TASK) {
            (*n)++;
            *dur_ns += t->events[i].dur_ns;
        }
}

static const struct pr_event *
find(const struct pr_trace *t, enum pr_kind kind, const char *name, int nth)
{
    size_t i;

    for (i = 0; i < t->n_events; i++)
        if (t->events[i].kind == kind &&
            strcmp(pr_trace_str(t, t->events[i].name), name) == 0 && nth-- == 0)
            return &t->events[i];
    return NULL;
}

#define ROWS                                                                   \
    "op_name, stream_id, start_time(ms), duration(ms)\n"                       \
    "Default/net/MatMul-op12,519,438068.41592,0.00266\n"                       \
    "Default/net/Cast-op3,519,438068.42000,0.001\n"                            \
    "Default/AllReduce-op9,520,438068.43000,0.5\n"                             \
    "Default/net/MatMul-op12,519,438069.00000,0.003\n"

#define FRAMEWORK                                                              \
    "task_id,stream_id,block_dim,full_kernel_name,op_name,kernel_name,"        \
    "kernel_type,subgraph,op_info\n"                                           \
    "2,519,32,Default/net/MatMul-op12,Default/net/MatMul-op12,MatMul-op12,"    \
    "MatMul,Default,\"{\"\"input_0\"\": {\"\"format\"\": "                     \
    "\"\"DefaultFormat\"\", "                                                  \
    "\"\"data_type\"\": \"\"NUMBER_TYPE_FLOAT16\"\", \"\"shape\"\": "          \
    "\"\"32,64\"\"}, \"\"input_1\"\": {\"\"format\"\": "                       \
    "\"\"DefaultFormat\"\", "                                                  \
    "\"\"data_type\"\": \"\"NUMBER_TYPE_FLOAT16\"\", \"\"shape\"\": [64, "     \
    "16]}}\"\n"                                                                \
    "3,519,1,Default/net/Cast-op3,Default/net/Cast-op3,Cast-op3,Cast,"         \
    "Default,\"{\"\"input_0\"\": {\"\"format\"\": \"\"NC1HWC0\"\", "           \
    "\"\"data_type\"\": \"\"NUMBER_TYPE_FLOAT32\"\", \"\"shape\"\": "          \
    "\"\"32,1,4,4,16\"\"}}\"\n"

#define STEPS                                                                  \
    "step_num,start_point,end_point,total,fp_point,bp_point,"                  \
    "iteration_interval,fp_and_bp,tail\n"                                      \
    "1,43806841000,43806850000,9000,43806841000,43806849000,0,8000,1000\n"     \
    "2,43806850000,43806910000,60000,43806851000,43806900000,1000,49000,"      \
    "10000\n"                                                                  \
    "-,43806850000,43806880000,34500,0,0,500,28500,5500\n"

static void
test_ascend_folder(void **state)
{
    static const char *const files[] = {"output_timeline_data_1.txt",
                                        "aicpu_intermediate_1.csv",
                                        "framework_raw_1.csv",
                                        "flops_1.txt",
                                        "step_trace_raw_1_detail_time.csv",
                                        "notes.txt",
                                        "output_op_compute_time_1.txt",
                                        NULL};
    char dir[] = "/tmp/pr_ms_XXXXXX";
    const struct pr_event *e;
    const struct pr_op_info *op;
    struct pr_trace *t;
    size_t n;
    int64_t dur;

    (void)state;
    assert_non_null(mkdtemp(dir));
    put(dir, files[0], ROWS);
    put(dir, files[1],
        "serial_number,kernel_type,total_time,dispatch_time,execution_time,"
        "run_start,run_end\n1,GetNext,0.888,0.132,0.22,438068410,438068418\n");
    put(dir, files[2], FRAMEWORK);
    put(dir, files[3],
        "full_kernel_name, FLOPs, FLOPS, FLOPS utilization\n"
        "Default/net/MatMul-op12, 0.065536, 24.6, 1.5\n");
    put(dir, files[4], STEPS);
    put(dir, files[5], "a note of the user's\n");
    put(dir, files[6], "====================op compute time=========\n");
    assert_int_equal(sniff_dir(dir), PR_CLAIM_SURE);
    t = load_ok(dir);
    assert_null(t->next);
    assert_string_equal(pr_trace_str(t, t->worker), "rank1");
    assert_int_equal(t->rank, 1);
    assert_string_equal(pr_trace_str(t, t->format), "mindspore");
    /* 4 AI Core rows + 1 AI CPU row, times exact */
    tasks(t, &n, &dur);
    assert_int_equal(n, 5);
    assert_int_equal(dur, 2660 + 1000 + 500000 + 3000 + 8000);
    e = find(t, PR_KIND_DEVICE_TASK, "Default/net/MatMul-op12", 0);
    assert_non_null(e);
    assert_int_equal(e->ts_ns, 438068415920LL);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "519");
    assert_string_equal(pr_trace_str(t, pr_event_pid(t, e)), "1");
    /* the operator: type, logical shapes and types, measured FLOPs */
    e = find(t, PR_KIND_HOST_OP, "MatMul", 1);
    assert_non_null(e);
    assert_int_equal(e->dur_ns, 0);
    op = pr_trace_op(t, e, &(struct pr_op_info){0});
    assert_string_equal(pr_trace_str(t, op->input_dims),
                        "[[32, 64], [64, 16]]");
    assert_string_equal(pr_trace_str(t, op->input_types),
                        "['c10::Half', 'c10::Half']");
    assert_true(op->flops > 65535.9 && op->flops < 65536.1);
    /* device-format shapes never reach the model; types do */
    op = pr_trace_op(t, find(t, PR_KIND_HOST_OP, "Cast", 0),
                     &(struct pr_op_info){0});
    assert_int_equal(op->input_dims, PR_STR_NONE);
    assert_string_equal(pr_trace_str(t, op->input_types), "['float']");
    /* the AllReduce task is a collective; the AI CPU task has its row */
    assert_string_equal(
        pr_trace_str(t, pr_trace_gpu(t,
                                     find(t, PR_KIND_DEVICE_TASK,
                                          "Default/AllReduce-op9", 0),
                                     &(struct pr_gpu_info){0})
                            ->collective),
        "allreduce");
    e = find(t, PR_KIND_DEVICE_TASK, "GetNext", 0);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "AI CPU");
    assert_int_equal(e->ts_ns, 438068410000LL);
    /* steps 1 and 2 (not the "-" averages) on the device clock */
    assert_true(t->device_steps);
    e = find(t, PR_KIND_ANNOTATION, "ProfilerStep#2", 0);
    assert_non_null(e);
    assert_int_equal(e->ts_ns, 438068500000LL);
    assert_int_equal(e->dur_ns, 600000);
    assert_null(find(t, PR_KIND_ANNOTATION, "ProfilerStep#0", 0));
    /* the unknown file is named; the known duplicate view is not */
    assert_int_equal(t->n_skipped, 1);
    assert_non_null(strstr(pr_trace_str(t, t->skipped[0].path), "notes.txt"));
    /* rows read: 4 + 1 + 2 + 1 + 3 */
    assert_int_equal(t->n_trace_events, 11);
    pr_trace_free(t);
    rm_dir(dir, files);
}

/* The timeline JSON when the rows are absent: ts from min_cycle_counter;
 * AI CPU tasks from pid 9000, stream-parallel segments left out. */
static void
test_timeline_json(void **state)
{
    static const char *const files[] = {"timeline_display_1.json",
                                        "min_cycle_counter_1.txt", NULL};
    char dir[] = "/tmp/pr_ms_XXXXXX";
    const struct pr_event *e;
    struct pr_trace *t;
    size_t n;
    int64_t dur;

    (void)state;
    assert_non_null(mkdtemp(dir));
    put(dir, files[0],
        "[{\"name\": \"Mul-op29\", \"ph\": \"X\", \"tid\": 519, \"ts\": 2.77, "
        "\"dur\": 2.15, \"pid\": 1, \"args\": {\"type\": \"Mul\", \"fullname\":"
        " \"Default/opt/Mul-op29\", \"input_0\": {\"format\": \"DefaultFormat\""
        ", \"data_type\": \"NUMBER_TYPE_FLOAT32\", \"shape\": \"8,2\"}}},"
        "{\"name\": \"GetNext\", \"ph\": \"X\", \"tid\": \"0\", \"ts\": 0.0, "
        "\"dur\": 1.5, \"pid\": 9000},"
        "{\"name\": \"stream_520_parallel_0\", \"ph\": \"X\", \"tid\": 520, "
        "\"ts\": 0, \"dur\": 9, \"pid\": 10000}]");
    put(dir, files[1], "100.0\n");
    t = load_ok(dir);
    tasks(t, &n, &dur);
    assert_int_equal(n, 2);
    assert_int_equal(dur, 2150 + 1500);
    e = find(t, PR_KIND_DEVICE_TASK, "Default/opt/Mul-op29", 0);
    assert_non_null(e);
    assert_int_equal(e->ts_ns, 1000 + 2770);
    assert_string_equal(
        pr_trace_str(t, pr_trace_op(t, find(t, PR_KIND_HOST_OP, "Mul", 0),
                                    &(struct pr_op_info){0})
                            ->input_dims),
        "[[8, 2]]");
    assert_int_equal(t->n_trace_events, 3);
    pr_trace_free(t);
    rm_dir(dir, files);
}

/* Per-operator totals only: calls laid end to end, counts and time kept. */
static void
test_totals_only(void **state)
{
    static const char *const files[] = {"aicore_intermediate_0_detail.csv",
                                        NULL};
    char dir[] = "/tmp/pr_ms_XXXXXX";
    struct pr_trace *t;
    size_t n;
    int64_t dur;

    (void)state;
    assert_non_null(mkdtemp(dir));
    put(dir, files[0],
        "full_kernel_name,execution_time,execution_frequency\n"
        "Default/A-op1,0.5,3\nDefault/B-op2,0.25,1\n");
    t = load_ok(dir);
    tasks(t, &n, &dur);
    assert_int_equal(n, 4);
    assert_int_equal(dur, 1750000);
    assert_int_equal(find(t, PR_KIND_DEVICE_TASK, "Default/B-op2", 0)->ts_ns,
                     1500000);
    pr_trace_free(t);
    rm_dir(dir, files);
}

/* A pipeline-parallel cluster folder: one run per rank, named by it; the
 * step trace's communication segments are the tasks. */
static void
test_ranks_and_segments(void **state)
{
    static const char *const files[] = {"step_trace_raw_0_detail_time.csv",
                                        "step_trace_raw_3_detail_time.csv",
                                        "hccl_raw_3.csv", NULL};
    static const char steps[] =
        "step_num,start_point,end_point,total,fp_point,bp_point,iteration_"
        "interval,fp_and_bp,tail,stream_48_0_Receive-op663,stream_48_0_"
        "Receive-op663_start_point,stream_48_0_Receive-op663_end_point,"
        "stream_520_parallel_0_start_point,stream_520_parallel_0_end_point,"
        "stream_520_parallel_0\n"
        "1,1000,2000,1000,1000,1900,0,900,100,30,1100,1130,1000,1500,500\n"
        "2,2000,3000,1000,2010,2900,10,890,100,0,0,0,2000,2500,500\n";
    char dir[] = "/tmp/pr_ms_XXXXXX";
    const struct pr_event *e;
    struct pr_trace *t;
    size_t n;
    int64_t dur;

    (void)state;
    assert_non_null(mkdtemp(dir));
    put(dir, files[0], steps);
    put(dir, files[1], steps);
    put(dir, files[2],
        "step_num,communication_cost,wait_cost,link_info,"
        "communication_operator_cost\n");
    t = load_ok(dir);
    assert_non_null(t->next);
    assert_null(t->next->next);
    assert_string_equal(pr_trace_str(t, t->worker), "rank0");
    assert_string_equal(pr_trace_str(t->next, t->next->worker), "rank3");
    tasks(t, &n, &dur);
    assert_int_equal(n, 1); /* step 2 did not run it (0, 0) */
    assert_int_equal(dur, 300);
    e = find(t, PR_KIND_DEVICE_TASK, "Receive-op663", 0);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "48");
    assert_string_equal(
        pr_trace_str(t,
                     pr_trace_gpu(t, e, &(struct pr_gpu_info){0})->collective),
        "recv");
    assert_non_null(find(t, PR_KIND_ANNOTATION, "ProfilerStep#2", 0));
    pr_trace_free(t);
    rm_dir(dir, files);
}

/* ------------------------------------------------------------ GPU */

/* A GPU profiler/ folder as DataSaver writes it (other-producers.md
 * §3.2): no real sample is public, so the files are written here from the
 * writer's format. */
#define CONV "Default/network-WithLossCell/conv1-Conv2d/Conv2D-op5"
#define RELU "Default/network-WithLossCell/relu-ReLU/ReLU-op6"
#define WINO "void cudnn::winograd<float, 4>(int, float*)"

#define GPU_OP_DETAIL                                                          \
    "op_side,op_type,op_name,op_full_name,op_occurrences,op_total_time(us),"   \
    "op_avg_time(us),total_proportion,cuda_activity_cost_time(us),cuda_"       \
    "activity_call_count\n"                                                    \
    "Device,Conv2D,Conv2D-op5," CONV ",2,100.0,50.0,0.8,80.0,4\n"              \
    "Device,ReLU,ReLU-op6," RELU ",2,25.0,12.5,0.2,10.0,2\n"

#define GPU_ACTIVITY                                                           \
    "name,type,op_full_name,stream_id,block_dim,grid_dim,occurrences,total_"   \
    "duration(us),avg_duration(us),max_duration(us),min_duration(us)\n"        \
    "\"" WINO "\",cuLaunchKernel," CONV ",7,\"256,1,1\",\"64,2,1\",2,60.0,"    \
    "30.0,31.0,29.0\n"                                                         \
    "implicit_gemm,cuLaunchKernel," CONV ",7,\"128,1,1\",\"32,1,1\",2,20.0,"   \
    "10.0,10.0,10.0\n"                                                         \
    "relu_kernel,cuLaunchKernel," RELU ",7,\"512,1,1\",\"16,1,1\",2,10.0,5.0," \
    "5.0,5.0\n"

static const char *const gpu_files[] = {"gpu_op_detail_info_0.csv",
                                        "gpu_op_type_info_0.csv",
                                        "gpu_activity_data_0.csv",
                                        "op_execute_timestamp_0.txt",
                                        "activity_execute_timestamp_0.txt",
                                        "gpu_framework_0.txt",
                                        "step_trace_profiling_0.txt",
                                        "start_time_0.txt",
                                        NULL};

static void
put_gpu(const char *dir, int with_timestamps)
{
    put(dir, gpu_files[0], GPU_OP_DETAIL);
    put(dir, gpu_files[1],
        "op_type,type_occurrences,total_time(us),total_proportion,avg_time("
        "us)\nConv2D,2,100.0,0.8,50.0\nReLU,2,25.0,0.2,12.5\n");
    put(dir, gpu_files[2], GPU_ACTIVITY);
    if (!with_timestamps)
        return;
    put(dir, gpu_files[3],
        CONV ";GpuOps;1000000,40.5 2000000,59.5 \n" RELU
             ";GpuOps;1050000,12.5 2060000,12.5 \n");
    put(dir, gpu_files[4],
        WINO ";7;1010000;31.0\nimplicit_gemm;7;1041000;10.0\n"
             "relu_kernel;7;1060000;5.0\n" WINO ";7;2010000;29.0\n"
             "implicit_gemm;7;2039000;10.0\nrelu_kernel;7;2070000;5.0\n");
    put(dir, gpu_files[5],
        "Conv2D;Conv2D-op5;1;input_0:32,3,224,224;input_1:64,3,7,7\n"
        "ReLU;ReLU-op6;1;input_0:[32, 64, 112, 112]\n");
    put(dir, gpu_files[6],
        CONV " 100000,101000 200000,201000\n"
             "Default/Gradients/ReLUGrad-op20 180000,181000 280000,281000\n"
             "Default/optimizer-Momentum/ApplyMomentum-op55 190000,195000 "
             "290000,295000\n"
             "Default/AllReduce-op30 185000,186000 285000,286000\n");
    put(dir, gpu_files[7],
        "host_monotonic_raw_time(ns): 1000\ngpu_start_time(ns): 2000\n");
}

/* The launch that joins kernel e to its operator: the host op's ext. */
static int64_t
op_ext_of(const struct pr_trace *t, const struct pr_event *k)
{
    size_t i;

    for (i = 0; i < t->n_events; i++)
        if (t->events[i].kind == PR_KIND_RUNTIME_CALL &&
            pr_event_correlation(t, &t->events[i]) ==
                pr_event_correlation(t, k))
            return pr_event_external_id(t, &t->events[i]);
    return -1;
}

static size_t
gaps_of(const struct pr_trace *t, const char *kind)
{
    size_t i, n = 0;

    for (i = 0; i < t->n_gaps; i++)
        n += strcmp(pr_trace_str(t, t->gaps[i].kind), kind) == 0;
    return n;
}

static void
test_gpu_folder(void **state)
{
    char dir[] = "/tmp/pr_ms_XXXXXX";
    const struct pr_event *e, *op;
    const struct pr_gpu_info *g;
    struct pr_trace *t;
    size_t n;
    int64_t dur;

    (void)state;
    assert_non_null(mkdtemp(dir));
    put_gpu(dir, 1);
    assert_int_equal(sniff_dir(dir), PR_CLAIM_SURE);
    t = load_ok(dir);
    assert_null(t->next);
    assert_string_equal(pr_trace_str(t, t->worker), "rank0");
    assert_string_equal(pr_trace_str(t, t->device_kind), "gpu");
    /* every kernel call, exact times, with its launch shape */
    tasks(t, &n, &dur);
    assert_int_equal(n, 6);
    assert_int_equal(dur, 90000);
    e = find(t, PR_KIND_DEVICE_TASK, WINO, 1);
    assert_non_null(e);
    assert_int_equal(e->ts_ns, 2010000);
    assert_int_equal(e->dur_ns, 29000);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "7");
    assert_string_equal(pr_trace_str(t, pr_event_pid(t, e)), "0");
    g = pr_trace_gpu(t, e, &(struct pr_gpu_info){0});
    assert_int_equal(g->grid[0], 64);
    assert_int_equal(g->grid[1], 2);
    assert_int_equal(g->block[0], 256);
    assert_int_equal(g->stream, 7);
    /* operator calls with their host time and shapes; each kernel joins
     * the call of its operator that ran last before it */
    op = find(t, PR_KIND_HOST_OP, "Conv2D", 1);
    assert_non_null(op);
    assert_int_equal(op->ts_ns, 2000000);
    assert_int_equal(op->dur_ns, 59500);
    assert_string_equal(
        pr_trace_str(t,
                     pr_trace_op(t, op, &(struct pr_op_info){0})->input_dims),
        "[[32, 3, 224, 224], [64, 3, 7, 7]]");
    assert_int_equal(op_ext_of(t, e), pr_event_external_id(t, op));
    op = find(t, PR_KIND_HOST_OP, "ReLU", 0);
    assert_string_equal(
        pr_trace_str(t,
                     pr_trace_op(t, op, &(struct pr_op_info){0})->input_dims),
        "[[32, 64, 112, 112]]");
    assert_int_equal(
        op_ext_of(t, find(t, PR_KIND_DEVICE_TASK, "relu_kernel", 0)),
        pr_event_external_id(t, op));
    assert_null(find(t, PR_KIND_HOST_OP, "Conv2D", 2));
    /* steps: fp_start of step 1 to iter_end, then iter_end to iter_end */
    assert_true(t->device_steps);
    e = find(t, PR_KIND_ANNOTATION, "ProfilerStep#1", 0);
    assert_int_equal(e->ts_ns, 1000000);
    assert_int_equal(e->dur_ns, 950000);
    e = find(t, PR_KIND_ANNOTATION, "ProfilerStep#2", 0);
    assert_int_equal(e->ts_ns, 1950000);
    assert_int_equal(e->dur_ns, 1000000);
    assert_int_equal(gaps_of(t, "no_dtypes"), 1);
    assert_int_equal(t->n_skipped, 0);
    /* rows and lines: 2 + 3 + 2 + 6 + 2 + 4 */
    assert_int_equal(t->n_trace_events, 19);
    pr_trace_free(t);
    rm_dir(dir, gpu_files);
}

/* Only the aggregated tables: calls laid end to end from 0, the nth kernel
 * of an operator joined to its nth call. */
static void
test_gpu_totals(void **state)
{
    char dir[] = "/tmp/pr_ms_XXXXXX";
    const struct pr_event *e, *op;
    struct pr_trace *t;
    size_t n;
    int64_t dur;

    (void)state;
    assert_non_null(mkdtemp(dir));
    put_gpu(dir, 0);
    t = load_ok(dir);
    tasks(t, &n, &dur);
    assert_int_equal(n, 6);
    assert_int_equal(dur, 90000);
    op = find(t, PR_KIND_HOST_OP, "ReLU", 1);
    assert_non_null(op);
    assert_int_equal(op->ts_ns, 100000 + 12500);
    assert_int_equal(op->dur_ns, 12500);
    e = find(t, PR_KIND_DEVICE_TASK, "relu_kernel", 1);
    assert_int_equal(e->dur_ns, 5000);
    assert_int_equal(op_ext_of(t, e), pr_event_external_id(t, op));
    assert_int_equal(pr_trace_gpu(t, e, &(struct pr_gpu_info){0})->block[0],
                     512);
    assert_false(t->device_steps);
    pr_trace_free(t);
    rm_dir(dir, gpu_files);
}

/* The timeline JSON alone (MindInsight's fixture, with the operator of
 * its kernel added): operators on "Ops", kernels on their stream. */
static void
test_gpu_timeline(void **state)
{
    static const char *const files[] = {"gpu_timeline_display_0.json", NULL};
    char dir[] = "/tmp/pr_ms_XXXXXX";
    const struct pr_event *e, *op;
    const struct pr_gpu_info *g;
    struct pr_trace *t;
    size_t n;
    int64_t dur;

    (void)state;
    assert_non_null(mkdtemp(dir));
    put(dir, files[0],
        "[{\"name\": \"Default/InitDataSetQueue-op0\", \"ph\": \"X\", \"tid\": "
        "\"Ops\", \"ts\": 1600695893269618.2, \"dur\": 303.84, \"pid\": 0},"
        "{\"name\": \"Default/optimizer-Momentum/ApplyMomentum-op55\", \"ph\": "
        "\"X\", \"tid\": \"Ops\", \"ts\": 1600695897737700, \"dur\": 20, "
        "\"pid\": 0},"
        "{\"name\": \"void MomentumUpdateVariableKernel<float, float, "
        "float>(unsigned long, float*, float*, float const*, float const*, "
        "float const*, bool)\", \"ph\": \"X\", \"tid\": \"17\", \"ts\": "
        "1600695897737724.8, \"dur\": 5.792, \"pid\": 0, \"args\": {\"type\": "
        "\"cuLaunchKernel\", \"op_full_name\": "
        "\"Default/optimizer-Momentum/ApplyMomentum-op55\", \"block_dim\": "
        "\"1024,1,1\", \"grid_dim\": \"8,1,1\"}}]");
    t = load_ok(dir);
    tasks(t, &n, &dur);
    assert_int_equal(n, 1);
    assert_int_equal(dur, 5792);
    e = &t->events[t->n_events - 1];
    assert_int_equal(e->kind, PR_KIND_DEVICE_TASK);
    assert_true(e->ts_ns > 1600695897737724500LL &&
                e->ts_ns < 1600695897737725100LL);
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "17");
    g = pr_trace_gpu(t, e, &(struct pr_gpu_info){0});
    assert_int_equal(g->block[0], 1024);
    assert_int_equal(g->grid[0], 8);
    op = find(t, PR_KIND_HOST_OP, "ApplyMomentum", 0);
    assert_non_null(op);
    assert_int_equal(op->dur_ns, 20000);
    assert_int_equal(op_ext_of(t, e), pr_event_external_id(t, op));
    assert_non_null(find(t, PR_KIND_HOST_OP, "InitDataSetQueue", 0));
    pr_trace_free(t);
    rm_dir(dir, files);
}

static void
expect_error(const char *name, const char *text, const char *msg)
{
    static const char *files[2] = {NULL, NULL};
    char dir[] = "/tmp/pr_ms_XXXXXX";
    struct pr_trace *t = NULL;
    struct pr_error err;

    assert_non_null(mkdtemp(dir));
    put(dir, name, text);
    pr_error_clear(&err);
    if (pr_format_mindspore.load(dir, NULL, &t, &err) != PR_E_FORMAT)
        fail_msg("%s: not a format error (%s)", name, err.msg);
    assert_null(t);
    if (strstr(err.msg, name) == NULL || strstr(err.msg, msg) == NULL)
        fail_msg("message \"%s\" lacks \"%s\"", err.msg, msg);
    files[0] = name;
    rm_dir(dir, files);
}

static void
test_errors(void **state)
{
    static const char *const files[] = {"a.txt", NULL};
    struct pr_trace *t = NULL;
    struct pr_error err;
    char dir[] = "/tmp/pr_ms_XXXXXX";

    (void)state;
    expect_error("output_timeline_data_1.txt",
                 "op_name, stream_id, start_time(ms), duration(ms)\n"
                 "A-op1,5,1.0,0.5\nA-op1,5,x,0.5\n",
                 "line 3: start_time or duration is not a time in ms");
    expect_error("output_timeline_data_1.txt",
                 "op_name, stream_id, start_time(ms), duration(ms)\n"
                 "A-op1,5,1.0,-0.5\n",
                 "duration is negative");
    expect_error("step_trace_raw_1_detail_time.csv",
                 "step_num,start_point,end_point,total\n1,500,400,100\n",
                 "step 1 ends before it starts");
    expect_error("output_timeline_data_1.txt",
                 "op_name, stream_id, start_time(ms)\nA-op1,5,1.0\n",
                 "no column duration(ms)");
    expect_error("timeline_display_1.json",
                 "[{\"name\": \"A\", \"ph\": \"X\", \"pid\": 1, \"tid\": 5, "
                 "\"ts\": 1, \"args\": {\"fullname\": \"A\"}}]",
                 "event 0: an event without name, ts or dur");
    expect_error("timeline_display_1.json",
                 "[{\"name\": \"A\", \"ph\": \"X\", \"pid\": 9000, \"ts\": 1, "
                 "\"dur\": 1, \"args\": {\"fullname\": \"A\"}}, 3",
                 "timeline_display_1.json");
    expect_error("activity_execute_timestamp_0.txt",
                 "k;7;1000;1.5\nk;7;x;1.5\n",
                 "line 2: not \"<kernel>;<stream>;<start ns>;<duration us>\"");
    expect_error("op_execute_timestamp_0.txt",
                 "Default/A-op1;GpuOps;1000,1.5 2000,y\n",
                 "\"2000,y\" is not <start ns>,<duration us>");
    expect_error("step_trace_profiling_0.txt",
                 "A-op1 100,110 200,210\nB-op2 150,160 250,260\n"
                 "C-op3 190,195\n",
                 "fp_start and iter_end lines do not hold one time per step");
    expect_error("gpu_activity_data_0.csv",
                 "name,type,op_full_name,stream_id,block_dim,grid_dim,"
                 "occurrences,total_duration(us)\nk,t,A,7,\"1,1\",\"1,1,1\","
                 "1,2.0\n",
                 "k: stream_id, block_dim, grid_dim");
    /* a folder with nothing of MindSpore's: not this format */
    assert_non_null(mkdtemp(dir));
    put(dir, "a.txt", "hello\n");
    assert_int_equal(sniff_dir(dir), PR_CLAIM_NO);
    pr_error_clear(&err);
    assert_int_equal(pr_format_mindspore.load(dir, NULL, &t, &err),
                     PR_E_NOT_FORMAT);
    assert_null(t);
    rm_dir(dir, files);
}

/* ------------------------------------------------------------ host CPU */

/* minddata_cpu_utilization as CpuSampler::SaveToFile writes it (nlohmann
 * json: keys sorted, no blanks; "runnable_process"), with the pipeline's
 * own table beside it; and as cpu_sampling.cc wrote it before 1.6 (op -1
 * first: the pipeline's threads of no operator; "runable_processes"). */
#define CPU_NEW                                                                \
    "{\"cpu_processor_num\":8,\"device_info\":{\"context_switch_count\":[0,"   \
    "5,6,7],\"idle_utilization\":[0,60,50,40],\"io_utilization\":[0,2,4,6],"   \
    "\"runnable_process\":[1,2,2,3],\"sys_utilization\":[0,5,5,10],"           \
    "\"user_utilization\":[0,30,40,45]},\"op_info\":[{\"metrics\":{\"sys_"     \
    "utilization\":[0,10,20],\"user_utilization\":[0,150,170]},\"op_id\":0},"  \
    "{\"metrics\":{\"sys_utilization\":[1,1,1],\"user_utilization\":[9,9,9]}," \
    "\"op_id\":1}],\"process_info\":{\"sys_utilization\":[8,9,10],\"user_"     \
    "utilization\":[200,210,220]},\"sampling_interval\":10,\"time_stamp\":["   \
    "1700000000000,1700000000010,1700000000020,1700000000030]}"

#define PIPELINE                                                               \
    "op_id,op_type,num_workers,output_queue_size,output_queue_average_size,"   \
    "output_queue_length,output_queue_usage_rate,sample_interval,parent_id,"   \
    "children_id\n0,MapOp,2,\"[0, 2]\",1.0,64,0.015625,10,,[1]\n"              \
    "1,ImageFolderOp,8,\"[0, 0]\",0.0,128,0.0,10,0,\n"

static const struct pr_cpu_series *
cpu_series(const struct pr_trace *t, enum pr_cpu_scope k, int64_t op)
{
    size_t i;

    for (i = 0; t->cpu_use && i < t->cpu_use->n_series; i++)
        if (t->cpu_use->series[i].scope == k &&
            t->cpu_use->series[i].op_id == op)
            return &t->cpu_use->series[i];
    return NULL;
}

static void
test_cpu_use(void **state)
{
    static const char *const more[] = {"minddata_cpu_utilization_0.json",
                                       "minddata_pipeline_raw_0.csv", NULL};
    char dir[] = "/tmp/pr_ms_XXXXXX";
    const struct pr_cpu_series *s;
    struct pr_trace *t;

    (void)state;
    assert_non_null(mkdtemp(dir));
    put_gpu(dir, 1);
    put(dir, more[0], CPU_NEW);
    put(dir, more[1], PIPELINE);
    t = load_ok(dir);
    assert_non_null(t->cpu_use);
    assert_int_equal(t->cpu_use->interval_ms, 10);
    assert_int_equal(t->cpu_use->cpus, 8);
    assert_int_equal(t->cpu_use->n_series, 4);
    s = cpu_series(t, PR_CPU_MACHINE, -1);
    assert_non_null(s);
    assert_int_equal(s->n, 4);
    assert_true(s->user[3] == 45 && s->sys[2] == 5 && s->io[3] == 6 &&
                s->idle[1] == 60);
    s = cpu_series(t, PR_CPU_PROCESS, -1);
    assert_true(s != NULL && s->n == 3 && s->user[2] == 220 && !s->io);
    s = cpu_series(t, PR_CPU_OP, 0);
    assert_true(s != NULL && s->user[1] == 150 && s->sys[2] == 20);
    assert_string_equal(pr_trace_str(t, s->op_type), "MapOp");
    assert_int_equal(s->workers, 2);
    s = cpu_series(t, PR_CPU_OP, 1);
    assert_string_equal(pr_trace_str(t, s->op_type), "ImageFolderOp");
    assert_int_equal(s->workers, 8);
    assert_int_equal(t->n_skipped, 0);
    pr_trace_free(t);
    /* the older writer, without the pipeline table: an array shorter than
     * the others is NaN past its end, a missing metric NaN throughout */
    put(dir, more[0],
        "{\"sampling_interval\": 100, \"cpu_processor_num\": 4, "
        "\"time_stamp\": [1, 2, 3], \"device_info\": {\"user_utilization\": "
        "[10, 20, 30], \"sys_utilization\": [1, 2], \"runable_processes\": "
        "[1, 1, 1]}, \"op_info\": [{\"metrics\": {\"user_utilization\": [5, "
        "6, 7], \"sys_utilization\": [0, 0, 0]}, \"op_id\": -1}]}");
    {
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", dir, more[1]);
        unlink(path);
    }
    t = load_ok(dir);
    s = cpu_series(t, PR_CPU_MACHINE, -1);
    assert_true(s != NULL && s->n == 3 && s->sys[1] == 2 && isnan(s->sys[2]));
    assert_true(isnan(s->io[0]) && isnan(s->idle[2]));
    assert_null(cpu_series(t, PR_CPU_PROCESS, -1));
    s = cpu_series(t, PR_CPU_OP, -1);
    assert_true(s != NULL && s->op_type == PR_STR_NONE && s->workers == -1);
    pr_trace_free(t);
    rm_dir(dir, more);
    rm_dir(dir, gpu_files);
}

static void
cpu_error(const char *text, const char *msg)
{
    static const char *const more[] = {"minddata_cpu_utilization_0.json", NULL};
    char dir[] = "/tmp/pr_ms_XXXXXX";
    struct pr_trace *t = NULL;
    struct pr_error err;

    assert_non_null(mkdtemp(dir));
    put_gpu(dir, 1);
    put(dir, more[0], text);
    pr_error_clear(&err);
    if (pr_format_mindspore.load(dir, NULL, &t, &err) != PR_E_FORMAT)
        fail_msg("not a format error (%s)", err.msg);
    assert_null(t);
    if (strstr(err.msg, more[0]) == NULL || strstr(err.msg, msg) == NULL)
        fail_msg("message \"%s\" lacks \"%s\"", err.msg, msg);
    rm_dir(dir, more);
    rm_dir(dir, gpu_files);
}

static void
test_cpu_errors(void **state)
{
    (void)state;
    cpu_error("{\"cpu_processor_num\": 8, \"device_info\": ", "not JSON");
    cpu_error("{\"cpu_processor_num\": 8, \"process_info\": [1, 2]}",
              "process_info is not an object");
    cpu_error("{\"cpu_processor_num\": 8, \"device_info\": "
              "{\"user_utilization\": 5}}",
              "device_info.user_utilization is not an array");
    cpu_error("{\"cpu_processor_num\": 8, \"op_info\": [{\"op_id\": 1.5, "
              "\"metrics\": {}}]}",
              "op_info[0].op_id is not an integer");
    cpu_error("{\"cpu_processor_num\": 8, \"op_info\": [{\"op_id\": 1}]}",
              "op_info[0].metrics is not an object");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_names_and_numbers),
        cmocka_unit_test(test_ascend_folder),
        cmocka_unit_test(test_timeline_json),
        cmocka_unit_test(test_totals_only),
        cmocka_unit_test(test_ranks_and_segments),
        cmocka_unit_test(test_gpu_folder),
        cmocka_unit_test(test_gpu_totals),
        cmocka_unit_test(test_gpu_timeline),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_cpu_use),
        cmocka_unit_test(test_cpu_errors),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
