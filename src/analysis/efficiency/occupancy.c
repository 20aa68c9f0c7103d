/* occupancy.c - the CUDA occupancy rules (registers, shared memory, warps and
 * block slots per SM, by compute capability) reimplemented from the rules
 * documented in the toolkit's cuda_occupancy.h.  Pure arithmetic; the
 * per-architecture tables are the only data. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profreport/occupancy.h"

static int
div_up(int64_t x, int64_t y)
{
    return (int)((x + y - 1) / y);
}

static int64_t
round_up(int64_t x, int64_t y)
{
    return y * ((x + y - 1) / y);
}

static int
min_int(int a, int b)
{
    return a < b ? a : b;
}

static int
is_known(const struct pr_occupancy_dev *d)
{
    return d->cc_major == 3 || (d->cc_major >= 5 && d->cc_major <= 12);
}

/* Shared memory is handed out in 256-byte units before Ampere, 128 after. */
static int64_t
smem_granularity(const struct pr_occupancy_dev *d)
{
    return d->cc_major >= 8 ? 128 : 256;
}

static int
max_regs_per_thread(const struct pr_occupancy_dev *d)
{
    return d->cc_major >= 7 ? 256 : 255;
}

/* GP100 (6.0) splits an SM into 2 register partitions, the others into 4. */
static int
sub_partitions(const struct pr_occupancy_dev *d)
{
    return (d->cc_major == 6 && d->cc_minor == 0) ? 2 : 4;
}

static int
max_blocks_per_sm(const struct pr_occupancy_dev *d)
{
    switch (d->cc_major) {
    case 3:
        return 16;
    case 5:
    case 6:
    case 9:
        return 32;
    case 7:
        return d->cc_minor == 5 ? 16 : 32;
    case 8:
        return d->cc_minor == 0 ? 32 : d->cc_minor == 9 ? 24 : 16;
    case 10:
        return d->cc_minor == 1 ? 24 : 32;
    case 11:
        return d->cc_minor == 0 ? 24 : 32;
    default: /* 12 */
        return 24;
    }
}

/* Largest shared-memory carveout (KiB) of each Volta+ family; the carveout
 * steps below it are the same for all of them. */
static int
carveout_max_kib(const struct pr_occupancy_dev *d)
{
    switch (d->cc_major) {
    case 7:
        return d->cc_minor == 5 ? 64 : 96;
    case 8:
        return (d->cc_minor == 0 || d->cc_minor == 7) ? 164 : 100;
    case 9:
    case 10:
    case 11:
        return 228;
    default: /* 12 */
        return 100;
    }
}

/* Round `size` up to the next shared-memory carveout the SM supports (Volta
 * and later); -1 when it exceeds the largest one. */
static int64_t
align_carveout(const struct pr_occupancy_dev *d, int64_t size)
{
    static const int steps_kib[] = {0,   8,   16,  32,  64, 96,
                                    100, 132, 164, 196, 228};
    int max_kib = carveout_max_kib(d);
    size_t i;

    if (d->cc_major == 7 && d->cc_minor == 5) /* Turing: 32 or 64 KiB */
        return size <= 32 * 1024 ? 32 * 1024 : size <= 64 * 1024 ? 65536 : -1;
    for (i = 0; i < sizeof(steps_kib) / sizeof(steps_kib[0]); i++) {
        int kib = steps_kib[i];
        if (kib > max_kib)
            break;
        if (kib == 96 && d->cc_major != 7) /* only Volta has a 96 KiB step */
            continue;
        if (kib == 100 && d->cc_major == 7)
            continue;
        if (size <= (int64_t)kib * 1024)
            return (int64_t)kib * 1024;
    }
    return -1;
}

static int
warps_limit(const struct pr_occupancy_dev *d, int block_threads)
{
    if (block_threads > d->max_threads_per_block)
        return 0;
    return (d->max_threads_per_sm / d->warp_size) /
           div_up(block_threads, d->warp_size);
}

/* Registers go to warps in 256-register units, and a block's warps are
 * spread over the SM's sub-partitions. */
static int
regs_limit(const struct pr_occupancy_dev *d,
           const struct pr_occupancy_launch *l, int64_t *alloc_per_block)
{
    int warps = div_up(l->block_threads, d->warp_size);
    int parts = sub_partitions(d);
    int64_t per_warp =
        round_up((int64_t)l->regs_per_thread * d->warp_size, 256);
    int64_t assumed = per_warp * round_up(warps, parts);
    int warps_per_part;

    *alloc_per_block = per_warp * warps;
    if (d->regs_per_block < assumed || d->regs_per_block < *alloc_per_block ||
        l->regs_per_thread > max_regs_per_thread(d))
        return 0;
    if (per_warp == 0)
        return INT_MAX;
    warps_per_part = (int)((d->regs_per_sm / parts) / per_warp);
    return warps_per_part * parts / warps;
}

/* Per-block limit: the default one, or the opt-in one when the kernel opted
 * in and needs it; Ampere+ adds the driver's reserved bytes on top. */
static int64_t
smem_block_limit(const struct pr_occupancy_dev *d, int optin, int64_t need)
{
    int64_t limit = d->smem_per_block;

    if (d->cc_major >= 7 && optin && need > d->smem_per_block &&
        d->smem_per_block_optin > 0)
        limit = d->smem_per_block_optin;
    if (d->cc_major >= 8)
        limit += d->reserved_smem_per_block;
    return limit;
}

static int
smem_limit(const struct pr_occupancy_dev *d,
           const struct pr_occupancy_launch *l, int64_t *alloc_per_block)
{
    int64_t stat = l->static_smem + d->reserved_smem_per_block;
    int64_t alloc = round_up(stat + l->dynamic_smem, smem_granularity(d));
    int64_t per_sm = d->smem_per_sm;

    *alloc_per_block = alloc;
    if (alloc > smem_block_limit(d, l->smem_optin, stat + l->dynamic_smem))
        return 0;
    if (d->cc_major >= 7) {
        /* no carveout preference: the largest carveout the SM offers */
        int64_t pref = align_carveout(d, d->smem_per_sm);
        per_sm = pref >= alloc ? pref : align_carveout(d, alloc);
        if (per_sm < 0)
            return 0;
    }
    if (alloc == 0)
        return INT_MAX;
    return (int)(per_sm / alloc);
}

static int
is_valid(const struct pr_occupancy_dev *d, const struct pr_occupancy_launch *l)
{
    return d->warp_size > 0 && d->max_threads_per_sm > 0 &&
           d->max_threads_per_block > 0 && d->regs_per_sm > 0 &&
           d->regs_per_block > 0 && d->smem_per_sm >= 0 &&
           d->smem_per_block >= 0 && d->reserved_smem_per_block >= 0 &&
           l->block_threads > 0 && l->regs_per_thread >= 0 &&
           l->static_smem >= 0 && l->dynamic_smem >= 0 &&
           l->static_smem <= INT32_MAX && l->dynamic_smem <= INT32_MAX;
}

enum pr_status
pr_occupancy_compute(const struct pr_occupancy_dev *d,
                     const struct pr_occupancy_launch *l,
                     struct pr_occupancy *out, struct pr_error *err)
{
    struct pr_occupancy r;
    int lim;

    if (!is_known(d))
        return pr_error_set(err, PR_E_FORMAT,
                            "occupancy: unknown compute capability %d.%d",
                            d->cc_major, d->cc_minor);
    if (!is_valid(d, l))
        return pr_error_set(err, PR_E_FORMAT,
                            "occupancy: invalid device limits or launch "
                            "(block of %d threads)",
                            l->block_threads);
    memset(&r, 0, sizeof(r));
    r.limit_regs = regs_limit(d, l, &r.regs_per_block_alloc);
    r.limit_smem = smem_limit(d, l, &r.smem_per_block_alloc);
    r.limit_warps = warps_limit(d, l->block_threads);
    r.limit_blocks = max_blocks_per_sm(d);
    lim =
        min_int(r.limit_regs,
                min_int(r.limit_smem, min_int(r.limit_warps, r.limit_blocks)));
    r.limiting = (lim == r.limit_warps ? PR_OCC_LIMIT_WARPS : 0u) |
                 (lim == r.limit_regs ? PR_OCC_LIMIT_REGS : 0u) |
                 (lim == r.limit_smem ? PR_OCC_LIMIT_SMEM : 0u) |
                 (lim == r.limit_blocks ? PR_OCC_LIMIT_BLOCKS : 0u);
    r.active_blocks = lim;
    *out = r;
    return PR_OK;
}

double
pr_occupancy_blocks_per_sm(int64_t grid_blocks, int num_sms)
{
    if (num_sms <= 0 || grid_blocks < 0)
        return -1.0;
    return (double)grid_blocks / (double)num_sms;
}

int
pr_occupancy_achieved_pct(int active_blocks, double blocks_per_sm,
                          int block_threads, int max_threads_per_sm)
{
    double blocks = blocks_per_sm;

    if (active_blocks < 0 || !(blocks_per_sm >= 0.0) || block_threads <= 0 ||
        max_threads_per_sm <= 0)
        return -1;
    if ((double)active_blocks < blocks)
        blocks = (double)active_blocks;
    return (int)lround(100.0 * blocks * block_threads / max_threads_per_sm);
}

void
pr_occupancy_limit_str(unsigned limiting, char *buf, size_t n)
{
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {{PR_OCC_LIMIT_WARPS, "WARPS"},
                 {PR_OCC_LIMIT_REGS, "REGS"},
                 {PR_OCC_LIMIT_SMEM, "SMEM"},
                 {PR_OCC_LIMIT_BLOCKS, "BLOCKS"}};
    size_t i, used = 0;

    if (n == 0)
        return;
    buf[0] = '\0';
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        int w;
        if (!(limiting & names[i].bit))
            continue;
        w = snprintf(buf + used, n - used, "%s%s", used ? "|" : "",
                     names[i].name);
        if (w < 0 || (size_t)w >= n - used) {
            buf[used] = '\0'; /* truncated: keep whole names only */
            return;
        }
        used += (size_t)w;
    }
}
