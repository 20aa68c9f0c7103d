/* test_kernel_calls.c - the per-launch rows of issue #3 on a hand-made
 * trace: launching op, direction from the autograd evaluate_function node,
 * sequence numbers, launch geometry, and FLOPs/bytes charged to the first
 * kernel of a call only. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/kernel_calls.h"

#include "testtrace.h"

#define MM_DIMS "[[64, 512], [512, 1000]]"
#define MM_TYPES "[float, float]"

static void
set_seq(struct pr_trace *t, int64_t seq)
{
    pr_trace_op_edit(t, t->events[t->n_events - 1].info)->seq = seq;
}

static void
rt_on(struct pr_trace *t, const char *tid, double ts, int64_t corr, int64_t ext)
{
    struct pr_event *e =
        tt_event(t, PR_KIND_RUNTIME_CALL, "cudaLaunchKernel", tid, ts, 2);

    assert_int_equal(pr_event_set_correlation(t, e, corr), PR_OK);
    assert_int_equal(pr_event_set_external_id(t, e, ext), PR_OK);
}

static void
kernel(struct pr_trace *t, const char *name, double ts, int64_t corr,
       int grid_x)
{
    tt_kernel(t, name, ts, 5, corr);
    t->gpu[t->n_gpu - 1].grid[0] = grid_x;
    t->gpu[t->n_gpu - 1].grid[1] = 2;
    t->gpu[t->n_gpu - 1].grid[2] = 1;
    t->gpu[t->n_gpu - 1].block[0] = 128;
    t->gpu[t->n_gpu - 1].block[1] = 1;
    t->gpu[t->n_gpu - 1].block[2] = 1;
}

/* Forward mm (two kernels) on thread 1, its backward on thread 2 under an
 * evaluate_function node, and one kernel no runtime launched. */
static struct pr_trace *
make_trace(void)
{
    struct pr_trace *t = pr_trace_new();

    assert_non_null(t);
    tt_host(t, PR_KIND_HOST_OP, "aten::mm", "1", 0, 10, 1, MM_DIMS, MM_TYPES);
    set_seq(t, 5);
    rt_on(t, "1", 1, 100, 1);
    rt_on(t, "1", 4, 101, 1);
    tt_host(t, PR_KIND_HOST_OP,
            "autograd::engine::evaluate_function: MmBackward", "2", 50, 20, 2,
            NULL, NULL);
    tt_host(t, PR_KIND_HOST_OP, "MmBackward", "2", 51, 18, 3, "[[64, 1000]]",
            "[float]");
    set_seq(t, 5);
    tt_host(t, PR_KIND_HOST_OP, "aten::mm", "2", 52, 10, 4, MM_DIMS, MM_TYPES);
    rt_on(t, "2", 53, 102, 4);
    kernel(t, "volta_sgemm_128x64_nn", 20, 100, 4);
    kernel(t, "splitKreduce_kernel", 26, 101, 8);
    kernel(t, "volta_h884gemm_64x64", 60, 102, 16);
    kernel(t, "orphan_kernel", 80, 999, 0);
    pr_trace_finish(t);
    return t;
}

static const cJSON *
field(const cJSON *rows, int i, const char *key)
{
    const cJSON *v =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, i), key);

    assert_non_null(v);
    return v;
}

static void
is_str(const cJSON *rows, int i, const char *key, const char *want)
{
    const cJSON *v = field(rows, i, key);

    if (want == NULL) {
        assert_true(cJSON_IsNull(v));
        return;
    }
    assert_true(cJSON_IsString(v));
    assert_string_equal(v->valuestring, want);
}

static double
num(const cJSON *rows, int i, const char *key)
{
    const cJSON *v = field(rows, i, key);

    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

/* mm [64,512]x[512,1000] fp32: 2*64*512*1000 = 65,536,000 FLOPs and
 * 4*(64*512 + 512*1000 + 64*1000) = 2,435,072 bytes. */
static void
test_rows(void **state)
{
    struct pr_trace *t = make_trace();
    struct pr_error err = {PR_OK, ""};
    cJSON *rows = NULL;

    (void)state;
    assert_int_equal(pr_kernel_calls_build(t, &rows, &err), PR_OK);
    assert_int_equal(cJSON_GetArraySize(rows), 4);
    is_str(rows, 0, "kernel", "volta_sgemm_128x64_nn");
    is_str(rows, 0, "op", "aten::mm");
    is_str(rows, 0, "direction", "fprop");
    tt_near(num(rows, 0, "seq"), 5);
    tt_near(num(rows, 0, "sub"), 0);
    is_str(rows, 0, "input_shapes", MM_DIMS);
    is_str(rows, 0, "grid", "[4, 2, 1]");
    is_str(rows, 0, "block", "[128, 1, 1]");
    tt_near(num(rows, 0, "start_us"), 20);
    tt_near(num(rows, 0, "duration_us"), 5);
    tt_near(num(rows, 0, "stream"), 7);
    tt_near(num(rows, 0, "device"), 0);
    tt_near(num(rows, 0, "flops"), 65536000.0);
    tt_near(num(rows, 0, "bytes"), 4.0 * (64 * 512 + 512 * 1000 + 64 * 1000));
    assert_true(cJSON_IsFalse(field(rows, 0, "tc")));
    /* the call's second kernel: counted once, on the first */
    tt_near(num(rows, 1, "sub"), 1);
    tt_near(num(rows, 1, "flops"), 0);
    tt_near(num(rows, 1, "bytes"), 0);
    /* backward mm: direction from the evaluate_function ancestor, seq from
     * the MmBackward node */
    is_str(rows, 2, "op", "aten::mm");
    is_str(rows, 2, "direction", "bprop");
    tt_near(num(rows, 2, "seq"), 5);
    assert_true(cJSON_IsTrue(field(rows, 2, "tc")));
    /* no launching op: nothing to attribute */
    is_str(rows, 3, "op", NULL);
    is_str(rows, 3, "direction", NULL);
    assert_true(cJSON_IsNull(field(rows, 3, "flops")));
    is_str(rows, 3, "grid", NULL);
    cJSON_Delete(rows);
    pr_trace_free(t);
}

/* A trace without kernels gives an empty array, not NULL. */
static void
test_empty(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_error err = {PR_OK, ""};
    cJSON *rows = NULL;

    (void)state;
    assert_non_null(t);
    tt_op(t, "aten::mm", 0, 10, 1);
    pr_trace_finish(t);
    assert_int_equal(pr_kernel_calls_build(t, &rows, &err), PR_OK);
    assert_true(cJSON_IsArray(rows));
    assert_int_equal(cJSON_GetArraySize(rows), 0);
    cJSON_Delete(rows);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_empty),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
