/* test_kernels.c - the kernel table's occupancy fallback (issue #4): rows
 * keep the trace's "blocks per SM" / occupancy args when present, compute
 * them from the launch and deviceProperties when absent, and say which in
 * occupancy_source.  Expected values are worked out in the comments. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/kernels.h"
#include "profreport/tree.h"

#include "testtrace.h"

/* A V100 as its deviceProperties entry describes it. */
static void
v100(struct pr_trace *t)
{
    struct pr_device *d;

    tt_device(t, "Tesla V100-SXM2-16GB", 7, 0, 80, 16945512448);
    d = &t->devices[t->n_devices - 1];
    d->max_threads_per_block = 1024;
    d->max_threads_per_sm = 2048;
    d->regs_per_block = 65536;
    d->regs_per_sm = 65536;
    d->warp_size = 32;
    d->smem_per_block = 49152;
    d->smem_per_sm = 98304;
    d->smem_per_block_optin = 98304;
}

/* The last kernel added: set its launch. */
static void
launch(struct pr_trace *t, int grid, int block, int regs, int smem)
{
    struct pr_gpu_info *g = &t->gpu[t->n_gpu - 1];

    g->grid[0] = grid;
    g->grid[1] = g->grid[2] = 1;
    g->block[0] = block;
    g->block[1] = g->block[2] = 1;
    g->regs_per_thread = regs;
    g->shared_mem = smem;
}

static cJSON *
kernels_of(struct pr_trace *t)
{
    struct pr_tree tree;
    struct pr_error err = {0};
    cJSON *rows = NULL;

    pr_trace_finish(t);
    assert_int_equal(pr_tree_build(t, &tree, &err), PR_OK);
    assert_int_equal(pr_kernels_build(t, &tree, &rows, NULL, &err), PR_OK);
    pr_tree_free(&tree);
    return rows;
}

static const cJSON *
row_named(const cJSON *rows, const char *name)
{
    const cJSON *r;

    cJSON_ArrayForEach(r, rows)
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(r, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return r;
    }
    fail_msg("no row %s", name);
    return NULL;
}

static double
num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static void
has_str(const cJSON *o, const char *key, const char *want)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    if (want == NULL) {
        assert_true(cJSON_IsNull(v));
        return;
    }
    assert_true(cJSON_IsString(v));
    assert_string_equal(v->valuestring, want);
}

/* volta_scudnn_128x64 from the resnet50 sample: grid 3136, block 128, 128
 * registers, 16 KiB shared.  Registers: 128*32 = 4096 a warp, 4 warps =
 * 16384 a block, 65536/16384 = 4 blocks; smem 96 KiB / 16 KiB = 6; warps
 * 64/4 = 16.  So 4 blocks of 128 threads: 512/2048 = 25 %, and blocks per
 * SM 3136/80 = 39.2 - what Kineto wrote in that trace. */
static void
test_computed_when_args_absent(void **state)
{
    struct pr_trace *t = pr_trace_new();
    cJSON *rows;
    const cJSON *r;

    (void)state;
    assert_non_null(t);
    v100(t);
    tt_kernel(t, "volta_scudnn_128x64", 0, 10, 1);
    launch(t, 3136, 128, 128, 16384);
    tt_kernel(t, "volta_scudnn_128x64", 20, 30, 2);
    launch(t, 3136, 128, 128, 16384);
    rows = kernels_of(t);
    r = row_named(rows, "volta_scudnn_128x64");
    tt_near(num(r, "mean_blocks_per_sm"), 39.2);
    tt_near(num(r, "mean_est_achieved_occupancy_pct"), 25.0);
    has_str(r, "occupancy_source", "computed");
    cJSON_Delete(rows);
    pr_trace_free(t);
}

/* A kernel carrying the args keeps them even where the calculator would
 * disagree; one without a launch (no grid) is neither. */
static void
test_trace_args_win(void **state)
{
    struct pr_trace *t = pr_trace_new();
    cJSON *rows;
    const cJSON *r;

    (void)state;
    assert_non_null(t);
    v100(t);
    tt_dev(t, PR_KIND_DEVICE_TASK, "k_args", 0, 0, 10, 1, 2.5, 50);
    launch(t, 3136, 128, 128, 16384);
    tt_kernel(t, "k_bare", 20, 10, 2);
    rows = kernels_of(t);
    r = row_named(rows, "k_args");
    tt_near(num(r, "mean_blocks_per_sm"), 2.5);
    tt_near(num(r, "mean_est_achieved_occupancy_pct"), 50);
    has_str(r, "occupancy_source", "trace");
    r = row_named(rows, "k_bare");
    has_str(r, "occupancy_source", NULL);
    tt_near(num(r, "mean_blocks_per_sm"), 0); /* 11.1: missing counts as 0 */
    cJSON_Delete(rows);
    pr_trace_free(t);
}

/* Blocks per SM needs only the grid and numSms; occupancy also needs the
 * registers.  A trace without deviceProperties computes nothing. */
static void
test_partial_launch_and_no_device(void **state)
{
    struct pr_trace *t = pr_trace_new();
    struct pr_trace *u = pr_trace_new();
    cJSON *rows;
    const cJSON *r;

    (void)state;
    assert_non_null(t);
    assert_non_null(u);
    v100(t);
    tt_kernel(t, "k", 0, 10, 1);
    launch(t, 40, 256, -1, -1);
    rows = kernels_of(t);
    r = row_named(rows, "k");
    tt_near(num(r, "mean_blocks_per_sm"), 0.5); /* 40 / 80 */
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
        r, "mean_est_achieved_occupancy_pct")));
    has_str(r, "occupancy_source", "computed");
    cJSON_Delete(rows);

    tt_kernel(u, "k", 0, 10, 1);
    launch(u, 40, 256, 32, 0);
    rows = kernels_of(u);
    r = row_named(rows, "k");
    assert_true(cJSON_IsNull(
        cJSON_GetObjectItemCaseSensitive(r, "mean_blocks_per_sm")));
    has_str(r, "occupancy_source", NULL);
    cJSON_Delete(rows);
    pr_trace_free(t);
    pr_trace_free(u);
}

/* Few blocks: 40 blocks of 256 threads on 80 SMs is 0.5 a SM, so the
 * achieved figure is min(8 active, 0.5) * 256 / 2048 = 6.25 -> 6 %; the
 * duration weights 10 and 30 us average 6 and 6 to 6. */
static void
test_small_grid_limits_occupancy(void **state)
{
    struct pr_trace *t = pr_trace_new();
    cJSON *rows;
    const cJSON *r;

    (void)state;
    assert_non_null(t);
    v100(t);
    tt_kernel(t, "k", 0, 10, 1);
    launch(t, 40, 256, 32, 0);
    tt_kernel(t, "k", 20, 30, 2);
    launch(t, 40, 256, 32, 0);
    rows = kernels_of(t);
    r = row_named(rows, "k");
    tt_near(num(r, "mean_est_achieved_occupancy_pct"), 6);
    cJSON_Delete(rows);
    pr_trace_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_computed_when_args_absent),
        cmocka_unit_test(test_trace_args_win),
        cmocka_unit_test(test_partial_launch_and_no_device),
        cmocka_unit_test(test_small_grid_limits_occupancy),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
