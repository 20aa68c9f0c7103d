/* occupancy.h - the CUDA occupancy calculator (the rules of the toolkit's
 * cuda_occupancy.h) as plain C: how many blocks of a kernel launch fit on one
 * SM, and which resource limits them.  Used by `record` to write Kineto's
 * "blocks per SM" / "est. achieved occupancy %" kernel args, and usable by
 * analyses for traces that lack them.  Needs no CUDA.
 *
 * Defaults match what Kineto asks the calculator (no carveout preference,
 * partitioned global caching off, no barrier or virtual-resource limit). */
#ifndef PROFREPORT_OCCUPANCY_H
#define PROFREPORT_OCCUPANCY_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"

/* Device limits, as cudaDeviceProp / cuDeviceGetAttribute report them. */
struct pr_occupancy_dev {
    int cc_major, cc_minor;
    int max_threads_per_block;
    int max_threads_per_sm;
    int regs_per_block;
    int regs_per_sm;
    int warp_size;
    int num_sms;
    int64_t smem_per_block;          /* bytes, default per-block limit */
    int64_t smem_per_sm;             /* bytes */
    int64_t smem_per_block_optin;    /* bytes; 0 = same as smem_per_block */
    int64_t reserved_smem_per_block; /* bytes the driver keeps (sm80+: 1024) */
};

/* One launch configuration. */
struct pr_occupancy_launch {
    int block_threads; /* blockX * blockY * blockZ */
    int regs_per_thread;
    int64_t static_smem;  /* bytes */
    int64_t dynamic_smem; /* bytes */
    int smem_optin;       /* the kernel opted in to more than the default
                             per-block shared memory */
};

/* Limiting-factor bits (same values as cudaOccLimitingFactor). */
#define PR_OCC_LIMIT_WARPS 0x01u
#define PR_OCC_LIMIT_REGS 0x02u
#define PR_OCC_LIMIT_SMEM 0x04u
#define PR_OCC_LIMIT_BLOCKS 0x08u

struct pr_occupancy {
    int active_blocks; /* per SM; 0 = the launch cannot run */
    unsigned limiting; /* PR_OCC_LIMIT_* bits of the binding limits */
    int limit_regs, limit_smem, limit_warps, limit_blocks; /* INT_MAX = none */
    int64_t regs_per_block_alloc; /* registers allocated per block */
    int64_t smem_per_block_alloc; /* bytes allocated per block */
};

/* Active blocks per SM for `l` on `d`.  PR_E_FORMAT when the device is
 * unknown (compute capability outside 3.x-12.x) or the input is invalid
 * (non-positive block size, warp size, ...); `out` is untouched then. */
PR_NODISCARD enum pr_status
pr_occupancy_compute(const struct pr_occupancy_dev *d,
                     const struct pr_occupancy_launch *l,
                     struct pr_occupancy *out, struct pr_error *err);

/* Kineto's "blocks per SM": grid blocks / SMs (a float).  Returns a negative
 * value when num_sms <= 0 (Kineto writes "inf" there; we omit the arg). */
double pr_occupancy_blocks_per_sm(int64_t grid_blocks, int num_sms);

/* tb-plugin §9.4 "est. achieved occupancy %":
 * lround(100 * min(active_blocks, blocks_per_sm) * block_threads /
 * max_threads_per_sm).  Returns -1 when an input is unusable. */
int pr_occupancy_achieved_pct(int active_blocks, double blocks_per_sm,
                              int block_threads, int max_threads_per_sm);

/* "WARPS|REGS" style text of limiting bits into buf (always terminated). */
void pr_occupancy_limit_str(unsigned limiting, char *buf, size_t n);

#endif
