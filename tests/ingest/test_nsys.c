/* test_nsys.c - the Nsight Systems export reader on databases built here
 * from the SQL texts of tests/data/nsys/: every kind of row of a 2-GPU
 * export, the links from kernels to emit_nvtx operators, steps from user
 * ranges, an older schema, and what is not an export or not readable. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "profreport/formats.h"
#include "profreport/shapes.h"

extern const struct pr_format pr_format_nsys;

static char dir[64];

/* Build dir/<name>.sqlite from tests/data/nsys/<name>.sql; its path. */
static const char *
build(const char *name)
{
    static char path[256];
    const char *src = getenv("PR_SRCDIR");
    char sql_path[4096], *sql, *msg = NULL;
    sqlite3 *db = NULL;
    FILE *f;
    long n;

    snprintf(sql_path, sizeof(sql_path), "%s/tests/data/nsys/%s.sql",
             src ? src : ".", name);
    f = fopen(sql_path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    rewind(f);
    sql = calloc((size_t)n + 1, 1);
    assert_non_null(sql);
    assert_int_equal(fread(sql, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    snprintf(path, sizeof(path), "%s/%s.sqlite", dir, name);
    unlink(path);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql_path, msg);
    sqlite3_close(db);
    free(sql);
    return path;
}

static struct pr_trace *
load(const char *path)
{
    struct pr_trace *t = NULL;
    struct pr_error err;

    pr_error_clear(&err);
    if (pr_format_nsys.load(path, NULL, &t, &err) != PR_OK)
        fail_msg("%s", err.msg);
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
    fail_msg("no event %s", name);
    return NULL;
}

static const struct pr_event *
kernel_at(const struct pr_trace *t, int64_t ts)
{
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        if (t->events[i].kind == PR_KIND_DEVICE_TASK &&
            t->events[i].ts_ns == ts)
            return &t->events[i];
    }
    fail_msg("no kernel at %lld", (long long)ts);
    return NULL;
}

static void
test_device_rows(void **state)
{
    struct pr_trace *t = load(build("basic"));
    const struct pr_gpu_info *g;
    const struct pr_event *e;
    struct tally y;

    (void)state;
    count(t, &y);
    assert_string_equal(pr_trace_str(t, t->format), "nsys");
    assert_int_equal(y.n[PR_KIND_DEVICE_TASK], 5);
    assert_int_equal(y.ns[PR_KIND_DEVICE_TASK], 9000);
    e = kernel_at(t, 5000);
    assert_string_equal(pr_trace_str(t, pr_event_pid(t, e)), "0");
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "7");
    g = pr_trace_gpu(t, e, &(struct pr_gpu_info){0});
    assert_int_equal(g->grid[0], 8);
    assert_int_equal(g->grid[1], 4);
    assert_int_equal(g->block[0], 256);
    assert_int_equal(g->regs_per_thread, 126);
    assert_int_equal(g->shared_mem, 16384 + 32768);
    g = pr_trace_gpu(
        t, named(t, PR_KIND_COPY, "Memcpy HtoD (Pageable -> Device)", 0),
        &(struct pr_gpu_info){0});
    assert_int_equal(g->bytes, 1048576);
    assert_int_equal(g->copy_dir, PR_DIR_H2D);
    g = pr_trace_gpu(t, named(t, PR_KIND_SET, "Memset (Device)", 0),
                     &(struct pr_gpu_info){0});
    assert_int_equal(g->bytes, 4096);
    assert_int_equal(named(t, PR_KIND_SYNC, "Stream Sync", 0)->dur_ns, 1000);
    /* the devices, with what the peaks need */
    assert_int_equal(t->n_devices, 2);
    assert_string_equal(pr_trace_str(t, t->devices[0].name),
                        "NVIDIA H100 80GB HBM3");
    assert_int_equal(t->devices[0].compute_major, 9);
    assert_int_equal(t->devices[0].num_sms, 132);
    assert_int_equal(t->devices[0].max_threads_per_sm, 2048);
    assert_true(t->bytes > 0);
    pr_trace_free(t);
}

static void
test_host_rows(void **state)
{
    struct pr_trace *t = load(build("basic"));
    const struct pr_op_info *op;
    const struct pr_event *e;
    struct tally y;

    (void)state;
    count(t, &y);
    /* API names without CUPTI's version suffix */
    assert_int_equal(y.n[PR_KIND_RUNTIME_CALL], 4);
    assert_int_equal(pr_event_correlation(t, named(t, PR_KIND_RUNTIME_CALL,
                                                   "cudaLaunchKernel", 1)),
                     11);
    named(t, PR_KIND_RUNTIME_CALL, "cudaGraphLaunch", 0);
    assert_int_equal(y.n[PR_KIND_DRIVER_CALL], 1);
    e = named(t, PR_KIND_DRIVER_CALL, "cuLaunchKernel", 0);
    assert_string_equal(pr_trace_str(t, pr_event_pid(t, e)), "100");
    assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "100");
    /* emit_nvtx operators: the name, the sequence number, the shapes */
    assert_int_equal(y.n[PR_KIND_HOST_OP], 2);
    op = pr_trace_op(t, named(t, PR_KIND_HOST_OP, "aten::mm", 0),
                     &(struct pr_op_info){0});
    assert_int_equal(op->seq, 3);
    assert_string_equal(pr_trace_str(t, op->input_dims),
                        "[[64, 512], [512, 1000]]");
    assert_true(pr_shapes_noted(t, PR_SHAPES_DIMS, op->input_dims));
    op = pr_trace_op(t, named(t, PR_KIND_HOST_OP, "aten::relu", 0),
                     &(struct pr_op_info){0});
    assert_int_equal(op->seq, 7);
    /* steps from the user's ranges; a range never closed is counted */
    assert_int_equal(y.n[PR_KIND_ANNOTATION], 6);
    assert_int_equal(named(t, PR_KIND_ANNOTATION, "ProfilerStep#1", 0)->dur_ns,
                     49000);
    named(t, PR_KIND_ANNOTATION, "ProfilerStep#2", 0);
    named(t, PR_KIND_ANNOTATION, "optimizer.step", 0);
    named(t, PR_KIND_ANNOTATION, "optimizer step", 0);
    named(t, PR_KIND_ANNOTATION, "LR_scheduler_step", 0);
    named(t, PR_KIND_ANNOTATION, "forward", 0);
    assert_int_equal(t->diag.skipped_no_dur, 1);
    pr_trace_free(t);
}

/* An op's sequence number and its backward marker (fwd_tid > 0: a
 * backward op, as sources.c and layers.c read it). */
static void
op_is(const struct pr_trace *t, const char *name, int k, int64_t seq,
      int backward)
{
    struct pr_op_info buf;
    const struct pr_op_info *op =
        pr_trace_op(t, named(t, PR_KIND_HOST_OP, name, k), &buf);

    assert_non_null(op);
    if (op->seq != seq || (op->fwd_tid > 0) != backward)
        fail_msg("%s #%d: seq %lld fwd_tid %lld, want seq %lld %s", name, k,
                 (long long)op->seq, (long long)op->fwd_tid, (long long)seq,
                 backward ? "backward" : "not backward");
}

/* emit_nvtx ranges of autograd nodes are backward ops with their
 * sequence number (issue #29), whatever the PyTorch version wrote, and so
 * is the engine's evaluate_function wrapper around one; the forward ops
 * and the ATen ops backward runs are not. */
static void
test_backward_nodes(void **state)
{
    struct pr_trace *t = load(build("backward"));
    struct pr_op_info buf;

    (void)state;
    op_is(t, "aten::mm", 0, 1, 0);
    op_is(t, "mm", 0, 2, 0); /* 0.4-1.0: ", seq=" */
    /* the engine's wrapper takes its node's number and thread, as Kineto
       gives them, so that the backward root holds the gradient's
       accumulation too (issue #29 review) */
    op_is(t, "autograd::engine::evaluate_function: MmBackward0", 0, 1, 1);
    op_is(t, "autograd::engine::evaluate_function: AddBackward0", 0, -1, 0);
    op_is(t, "AddBackward0", 0, 7, 1);
    op_is(t, "MmBackward0", 0, 1, 1);
    op_is(t, "aten::convolution_backward", 0, 0, 0);
    op_is(t, "MmBackward", 0, 4, 1);
    op_is(t, "CheckpointFunctionBackward", 0, 5, 1);
    op_is(t, "torch::autograd::CopySlices", 0, 6, 1);
    op_is(t, "MmBackward", 1, 2, 1); /* ", stashed seq=" */
    op_is(t, "torch::autograd::AccumulateGrad", 0, -1, 0);
    /* the forward thread stands for it: the main thread, tid = pid */
    assert_int_equal(
        pr_trace_op(t, named(t, PR_KIND_HOST_OP, "MmBackward0", 0), &buf)
            ->fwd_tid,
        42);
    /* a user's range, no emit_nvtx field: an annotation */
    named(t, PR_KIND_ANNOTATION, "MyBackward", 0);
    pr_trace_free(t);
}

/* Kernels reach the innermost operator around their launch; the nodes of
 * a CUDA graph share their launch; work launched outside every operator
 * stays unlinked. */
static void
test_links(void **state)
{
    struct pr_trace *t = load(build("basic"));
    int64_t mm =
        pr_event_external_id(t, named(t, PR_KIND_HOST_OP, "aten::mm", 0));
    int64_t relu =
        pr_event_external_id(t, named(t, PR_KIND_HOST_OP, "aten::relu", 0));

    (void)state;
    assert_true(mm != PR_NO_ID && relu != PR_NO_ID && mm != relu);
    assert_int_equal(pr_event_external_id(t, kernel_at(t, 5000)), mm);
    assert_int_equal(pr_event_external_id(t, named(t, PR_KIND_RUNTIME_CALL,
                                                   "cudaLaunchKernel", 0)),
                     mm);
    assert_int_equal(pr_event_external_id(t, kernel_at(t, 14000)), relu);
    assert_true(pr_event_external_id(t, kernel_at(t, 31000)) == PR_NO_ID);
    assert_true(
        pr_event_external_id(
            t, named(t, PR_KIND_COPY, "Memcpy HtoD (Pageable -> Device)", 0)) ==
        PR_NO_ID);
    assert_int_equal(pr_event_correlation(t, kernel_at(t, 62000)), 30);
    assert_int_equal(pr_event_correlation(t, kernel_at(t, 63000)), 30);
    assert_int_equal(pr_event_correlation(t, named(t, PR_KIND_RUNTIME_CALL,
                                                   "cudaGraphLaunch", 0)),
                     30);
    pr_trace_free(t);
}

/* One run per process, in device order, named by GPU and pid. */
static void
test_processes(void **state)
{
    struct pr_trace *t = load(build("basic")), *u;
    struct tally y;

    (void)state;
    assert_string_equal(pr_trace_str(t, t->worker), "gpu0 pid 100");
    u = t->next;
    assert_non_null(u);
    assert_null(u->next);
    assert_string_equal(pr_trace_str(u, u->worker), "gpu1 pid 200");
    count(u, &y);
    assert_int_equal(y.n[PR_KIND_DEVICE_TASK], 1);
    assert_int_equal(y.ns[PR_KIND_DEVICE_TASK], 20000);
    assert_int_equal(y.n[PR_KIND_SYNC], 1);
    /* an unnumbered step is numbered in order */
    named(u, PR_KIND_ANNOTATION, "ProfilerStep#0", 0);
    assert_int_equal(u->n_devices, 2);
    pr_trace_free(t);
}

static void
test_old_schema(void **state)
{
    struct pr_trace *t = load(build("old_schema"));
    const struct pr_gpu_info *g;
    struct tally y;

    (void)state;
    count(t, &y);
    assert_null(t->next);
    assert_true(t->worker == PR_STR_NONE);
    assert_int_equal(y.n[PR_KIND_DEVICE_TASK], 2);
    assert_int_equal(y.ns[PR_KIND_DEVICE_TASK], 3000);
    g = pr_trace_gpu(t,
                     named(t, PR_KIND_DEVICE_TASK, "volta_sgemm_128x64_nn", 0),
                     &(struct pr_gpu_info){0});
    assert_int_equal(g->grid[0], 4);
    assert_int_equal(g->regs_per_thread, -1);
    assert_int_equal(g->shared_mem, -1);
    named(t, PR_KIND_ANNOTATION, "inference", 0);
    assert_int_equal(t->n_devices, 0);
    pr_trace_free(t);
}

/* The count of the note of `kind` on what the export cannot give, -1
 * when there is none. */
static long
gap_count(const struct pr_trace *t, const char *kind)
{
    size_t i;

    for (i = 0; i < t->n_gaps; i++) {
        if (strcmp(pr_trace_str(t, t->gaps[i].kind), kind) == 0)
            return (long)t->gaps[i].count;
    }
    return -1;
}

/* Memory events become signed [memory] records on the main thread; an
 * operator takes its dtype from the GEMM it launched, never from other
 * kernels. */
static void
test_memory_and_types(void **state)
{
    struct pr_trace *t = load(build("memory"));
    const struct pr_mem_info *m[2];
    const struct pr_op_info *op;
    size_t i, k = 0;

    (void)state;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind != PR_KIND_MEMORY_RECORD)
            continue;
        assert_true(k < 2);
        assert_string_equal(pr_trace_str(t, pr_event_pid(t, e)), "42");
        assert_string_equal(pr_trace_str(t, pr_event_tid(t, e)), "42");
        m[k++] = pr_trace_mem(t, e);
    }
    assert_int_equal(k, 2);
    assert_int_equal(m[0]->bytes, 1048576);
    assert_int_equal(m[1]->bytes, -1048576);
    assert_int_equal(m[0]->device_type, 1);
    assert_int_equal(m[0]->device_id, 0);
    assert_int_equal(m[0]->addr, 140000000);
    op = pr_trace_op(t, named(t, PR_KIND_HOST_OP, "aten::addmm", 0),
                     &(struct pr_op_info){0});
    assert_string_equal(pr_trace_str(t, op->input_types),
                        "['c10::BFloat16', 'c10::BFloat16', "
                        "'c10::BFloat16', '', '']");
    assert_true(pr_shapes_noted(t, PR_SHAPES_TYPES, op->input_types));
    op = pr_trace_op(t, named(t, PR_KIND_HOST_OP, "aten::cat", 0),
                     &(struct pr_op_info){0});
    assert_string_equal(pr_trace_str(t, op->input_dims),
                        "[[[2, 3], [4, 3]], []]");
    assert_true(op->input_types == PR_STR_NONE);
    assert_int_equal(gap_count(t, "dtype_from_kernel"), 1);
    assert_int_equal(gap_count(t, "no_gpu_info"), 0);
    assert_int_equal(gap_count(t, "no_steps"), 0);
    assert_int_equal(gap_count(t, "no_memory"), -1);
    assert_int_equal(gap_count(t, "no_shapes"), -1);
    pr_trace_free(t);
}

/* Each run says what its export lacks, and only that. */
static void
test_gaps(void **state)
{
    struct pr_trace *t = load(build("basic")), *u = t->next;
    const struct pr_op_info *op;

    (void)state;
    /* aten::mm ran an fp32 FFMA GEMM: float inputs, so the tensor-core
     * rules can say "fp32 without TF32" */
    op = pr_trace_op(t, named(t, PR_KIND_HOST_OP, "aten::mm", 0),
                     &(struct pr_op_info){0});
    assert_string_equal(pr_trace_str(t, op->input_types), "['float', 'float']");
    assert_int_equal(gap_count(t, "no_shapes"), 1); /* aten::relu */
    assert_int_equal(gap_count(t, "dtype_from_kernel"), 1);
    assert_int_equal(gap_count(t, "no_memory"), 0);
    assert_int_equal(gap_count(t, "no_gpu_info"), -1);
    assert_int_equal(gap_count(t, "no_steps"), -1);
    assert_int_equal(gap_count(t, "no_operators"), -1);
    assert_int_equal(gap_count(u, "no_operators"), 0);
    assert_int_equal(gap_count(u, "no_comm_bytes"), 1);
    assert_int_equal(gap_count(u, "no_shapes"), -1);
    pr_trace_free(t);
    t = load(build("old_schema"));
    assert_int_equal(gap_count(t, "no_gpu_info"), 0);
    assert_int_equal(gap_count(t, "no_steps"), 0);
    assert_int_equal(gap_count(t, "no_operators"), 0);
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
    p.base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    p.head = head;
    p.n_head = fread(head, 1, cap, f);
    fclose(f);
    return p;
}

/* Claimed by its tables, not by the SQLite magic the Ascend databases
 * share; an unrelated database is not this format, even when named. */
static void
test_sniff(void **state)
{
    static char head[4096];
    struct pr_probe p;
    struct pr_trace *t = NULL;
    struct pr_error err;
    enum pr_claim c;

    (void)state;
    p = probe_of(build("basic"), head, sizeof(head));
    assert_ptr_equal(
        pr_formats_pick(pr_formats_builtin(), &p, PR_CLAIM_SHAPE, &c),
        &pr_format_nsys);
    assert_int_equal(c, PR_CLAIM_SURE);
    p = probe_of(build("unrelated"), head, sizeof(head));
    assert_int_equal(pr_format_nsys.sniff(&p), PR_CLAIM_NO);
    pr_error_clear(&err);
    assert_int_equal(pr_format_nsys.load(p.path, NULL, &t, &err),
                     PR_E_NOT_FORMAT);
    assert_null(t);
    assert_non_null(strstr(err.msg, "not an Nsight Systems export"));
    assert_non_null(strstr(err.msg, p.path));
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
    assert_int_equal(pr_format_nsys.load(build("no_end"), NULL, &t, &err),
                     PR_E_FORMAT);
    assert_null(t);
    assert_non_null(
        strstr(err.msg, "CUPTI_ACTIVITY_KIND_KERNEL has no column end"));
    /* the magic, then garbage */
    snprintf(path, sizeof(path), "%s/corrupt.sqlite", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    fwrite("SQLite format 3", 1, 16, f);
    for (i = 0; i < 8192; i++)
        fputc((i * 7919) & 0xff, f);
    fclose(f);
    pr_error_clear(&err);
    assert_int_equal(pr_format_nsys.load(path, NULL, &t, &err), PR_E_FORMAT);
    assert_null(t);
    assert_true(strncmp(err.msg, path, strlen(path)) == 0);
    /* the report itself: only NVIDIA's tools read it */
    pr_error_clear(&err);
    assert_int_equal(pr_format_nsys.load("run.nsys-rep", NULL, &t, &err),
                     PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "nsys export --type sqlite"));
}

static int
setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/pr_nsys_XXXXXX");
    return mkdtemp(dir) == NULL;
}

static int
teardown(void **state)
{
    static const char *const names[] = {"basic",   "old_schema", "unrelated",
                                        "no_end",  "corrupt",    "memory",
                                        "backward"};
    char path[256];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s.sqlite", dir, names[i]);
        unlink(path);
    }
    return rmdir(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_rows),
        cmocka_unit_test(test_host_rows),
        cmocka_unit_test(test_backward_nodes),
        cmocka_unit_test(test_links),
        cmocka_unit_test(test_processes),
        cmocka_unit_test(test_old_schema),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_gaps),
        cmocka_unit_test(test_memory_and_types),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
