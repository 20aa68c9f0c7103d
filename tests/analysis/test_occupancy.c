/* test_occupancy.c - the occupancy calculator against hand-computed cases.
 * Each case spells out the arithmetic of cuda_occupancy.h's rules. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/occupancy.h"

/* A100 (sm80): 108 SMs, 2048 threads, 64K registers, 164 KiB shared memory
 * per SM, 48 KiB per block (163 KiB opt-in), 1 KiB reserved per block. */
static const struct pr_occupancy_dev A100 = {
    8, 0, 1024, 2048, 65536, 65536, 32, 108, 49152, 167936, 166912, 1024};
/* H100 SXM (sm90): 132 SMs, 228 KiB per SM. */
static const struct pr_occupancy_dev H100 = {
    9, 0, 1024, 2048, 65536, 65536, 32, 132, 49152, 233472, 232448, 1024};
/* T4 (sm75): 1024 threads and 64 KiB per SM, 16 blocks, nothing reserved. */
static const struct pr_occupancy_dev T4 = {7,  5,  1024,  1024,  65536, 65536,
                                           32, 40, 49152, 65536, 65536, 0};

static struct pr_occupancy
run(const struct pr_occupancy_dev *d, int threads, int regs, int64_t smem,
    int64_t dyn, int optin)
{
    struct pr_occupancy_launch l = {threads, regs, smem, dyn, optin};
    struct pr_occupancy o;
    struct pr_error err;

    pr_error_clear(&err);
    assert_int_equal(pr_occupancy_compute(d, &l, &o, &err), PR_OK);
    return o;
}

/* 256 threads, 32 regs, no smem on sm80:
 *   warps:  2048/32 = 64 warp slots; 256/32 = 8 warps per block -> 64/8 = 8
 *   regs:   32*32 = 1024 regs/warp (already a multiple of 256); 65536/4 =
 *           16384 per sub-partition -> 16 warps each, 64 per SM -> 64/8 = 8
 *   smem:   0 + 1024 reserved, rounded to 128 -> 1024 per block; carveout
 *           164 KiB = 167936 -> 167936/1024 = 164
 *   blocks: sm80 allows 32
 *   -> 8 blocks per SM, limited by warps and registers (100% occupancy). */
static void
test_a100_256_threads_32_regs(void **state)
{
    struct pr_occupancy o = run(&A100, 256, 32, 0, 0, 0);

    (void)state;
    assert_int_equal(o.active_blocks, 8);
    assert_int_equal(o.limit_warps, 8);
    assert_int_equal(o.limit_regs, 8);
    assert_int_equal(o.limit_smem, 164);
    assert_int_equal(o.limit_blocks, 32);
    assert_int_equal(o.limiting, PR_OCC_LIMIT_WARPS | PR_OCC_LIMIT_REGS);
    assert_int_equal(o.regs_per_block_alloc, 8192);
    assert_int_equal(o.smem_per_block_alloc, 1024);
}

/* 128 threads, 64 regs: 2048 regs/warp -> 16384/2048 = 8 warps per
 * sub-partition, 32 per SM; 4 warps per block -> 8 blocks (registers);
 * warps alone would allow 64/4 = 16. */
static void
test_a100_register_bound(void **state)
{
    struct pr_occupancy o = run(&A100, 128, 64, 0, 0, 0);

    (void)state;
    assert_int_equal(o.active_blocks, 8);
    assert_int_equal(o.limit_warps, 16);
    assert_int_equal(o.limiting, PR_OCC_LIMIT_REGS);
}

/* 48 KiB static smem: 49152 + 1024 = 50176 per block (a multiple of 128),
 * within the 48 KiB + 1 KiB per-block limit; 167936/50176 = 3.35 -> 3. */
static void
test_a100_smem_bound(void **state)
{
    struct pr_occupancy o = run(&A100, 256, 32, 49152, 0, 0);

    (void)state;
    assert_int_equal(o.active_blocks, 3);
    assert_int_equal(o.limit_smem, 3);
    assert_int_equal(o.limiting, PR_OCC_LIMIT_SMEM);
    assert_int_equal(o.smem_per_block_alloc, 50176);
}

/* 100 KiB dynamic smem: 102400 + 1024 = 103424 per block.  Without opt-in
 * the per-block limit is 50176 -> cannot run; with opt-in it is 166912 +
 * 1024 and 167936/103424 = 1.6 -> 1. */
static void
test_a100_optin(void **state)
{
    (void)state;
    assert_int_equal(run(&A100, 256, 32, 0, 102400, 0).active_blocks, 0);
    assert_int_equal(run(&A100, 256, 32, 0, 102400, 1).active_blocks, 1);
}

/* 64 threads, 16 regs on sm90: warps 64/2 = 32; regs 512/warp -> 32 warps
 * per sub-partition, 128 per SM -> 64; smem 233472/1024 = 228; the 32
 * block slots bind together with warps. */
static void
test_h100_small_blocks(void **state)
{
    struct pr_occupancy o = run(&H100, 64, 16, 0, 0, 0);

    (void)state;
    assert_int_equal(o.active_blocks, 32);
    assert_int_equal(o.limit_regs, 64);
    assert_int_equal(o.limit_smem, 228);
    assert_int_equal(o.limiting, PR_OCC_LIMIT_WARPS | PR_OCC_LIMIT_BLOCKS);
}

/* Turing: 1024 threads per SM -> 32 warp slots / 8 = 4 blocks; no reserved
 * smem and none used -> no smem limit. */
static void
test_t4_warp_bound(void **state)
{
    struct pr_occupancy o = run(&T4, 256, 32, 0, 0, 0);

    (void)state;
    assert_int_equal(o.active_blocks, 4);
    assert_int_equal(o.limiting, PR_OCC_LIMIT_WARPS);
}

static void
test_block_too_large(void **state)
{
    (void)state;
    assert_int_equal(run(&A100, 2048, 32, 0, 0, 0).active_blocks, 0);
    assert_int_equal(run(&A100, 256, 300, 0, 0, 0).active_blocks, 0);
}

/* §9.4: 1728 blocks on 108 SMs = 16 per SM, capped at 8 active ->
 * 8 * 256 / 2048 = 100 %; 54 blocks = 0.5 per SM -> 6.25 -> 6 %. */
static void
test_achieved(void **state)
{
    (void)state;
    assert_true(pr_occupancy_blocks_per_sm(1728, 108) == 16.0);
    assert_int_equal(pr_occupancy_achieved_pct(8, 16.0, 256, 2048), 100);
    assert_int_equal(pr_occupancy_achieved_pct(8, 0.5, 256, 2048), 6);
    assert_true(pr_occupancy_blocks_per_sm(10, 0) < 0);
    assert_int_equal(pr_occupancy_achieved_pct(8, -1.0, 256, 2048), -1);
}

static void
test_errors(void **state)
{
    struct pr_occupancy_dev old = A100;
    struct pr_occupancy_launch l = {0, 32, 0, 0, 0};
    struct pr_occupancy o;
    struct pr_error err;

    (void)state;
    old.cc_major = 2;
    pr_error_clear(&err);
    l.block_threads = 256;
    assert_int_equal(pr_occupancy_compute(&old, &l, &o, &err), PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "compute capability 2.0"));
    pr_error_clear(&err);
    l.block_threads = 0;
    assert_int_equal(pr_occupancy_compute(&A100, &l, &o, &err), PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "invalid"));
}

static void
test_limit_str(void **state)
{
    char buf[32];

    (void)state;
    pr_occupancy_limit_str(PR_OCC_LIMIT_REGS | PR_OCC_LIMIT_SMEM, buf,
                           sizeof(buf));
    assert_string_equal(buf, "REGS|SMEM");
    pr_occupancy_limit_str(0, buf, sizeof(buf));
    assert_string_equal(buf, "");
    pr_occupancy_limit_str(PR_OCC_LIMIT_WARPS | PR_OCC_LIMIT_BLOCKS, buf, 8);
    assert_string_equal(buf, "WARPS");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a100_256_threads_32_regs),
        cmocka_unit_test(test_a100_register_bound),
        cmocka_unit_test(test_a100_smem_bound),
        cmocka_unit_test(test_a100_optin),
        cmocka_unit_test(test_h100_small_blocks),
        cmocka_unit_test(test_t4_warp_bound),
        cmocka_unit_test(test_block_too_large),
        cmocka_unit_test(test_achieved),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_limit_str),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
