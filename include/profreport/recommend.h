/* recommend.h - every recommendation of a run, in one place (issue #10):
 * the plugin's rules (spec/tb-plugin-semantics.md 7.5) and profreport's
 * own.  The rules read C values only, never the run's JSON: analysis.c
 * fills struct pr_rec_tables from the passes' C results (steps, devices,
 * operator, kernel and GPU rows, the tensor-core figures, hostdev.c's
 * syncs, copies and launches); tests hand the rules tables of their own
 * (tests/analysis/testrec.h).  The few facts a rule needs that the summary does
 * not carry (exact step shares, the 10.5 eligible-kernel ratio, the trace for
 * operator shapes) come in struct pr_rec_facts too. */
#ifndef PROFREPORT_RECOMMEND_H
#define PROFREPORT_RECOMMEND_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/devices.h"
#include "profreport/error.h"
#include "profreport/gpu_util.h"
#include "profreport/hostdev.h"
#include "profreport/kernels.h"
#include "profreport/ops.h"
#include "profreport/steps.h"
#include "profreport/trace.h"

struct pr_whatif_in; /* whatif.h */

/* One device: what the advice's wording and the main device's figures
 * need. */
struct pr_rec_device {
    double id;
    int npu;          /* kind "npu" (Ascend): advice names the NPU */
    int cc_major;     /* compute capability's major; -1 when none */
    double peak_gbps; /* NaN when unknown */
    /* dense peaks (10^12 FLOP/s; NaN unknown): fp32 on CUDA cores, TF32 and
     * fp16 on tensor cores */
    double fp32_tflops, tf32_tflops, fp16_tflops;
    const char *vendor; /* devices[].vendor ("nvidia", "amd", "meta"); NULL */
};

/* One operators_by_shape row (strings borrowed from the trace or run). */
struct pr_rec_op {
    const char *name, *shapes, *types, *bound; /* NULL when absent */
    double dev_self_us, dev_total_us;          /* self: 0 when absent */
    double bytes;                              /* NaN when unknown */
    /* of the device self time, copies from or to the host, and their
     * bytes (each once); NaN when unknown */
    double host_copy_us, host_copy_bytes;
    double calls; /* the row's calls; NaN when unknown */
    int tc_eligible;
};

/* One kernels row (kernels.c's struct pr_kernel_ref as the row writes
 * it; NaN where it writes null). */
struct pr_rec_kernel {
    const char *name;   /* NULL when absent */
    const char *family; /* the kernel table's family; NULL: unknown */
    double calls, mean_us, total_us, occupancy_pct, blocks_per_sm;
    int tc_used;
};

/* One gpu_metrics row (gpu_util.h's struct pr_gpu_row). */
struct pr_rec_gpu {
    double device, util_pct, kernel_us; /* NaN where the row has null */
};

/* What analysis.c knows as C rows. */
struct pr_rec_tables {
    double step_mean_us;              /* NaN without steps */
    double step_cat_us[PR_CAT_COUNT]; /* mean breakdown; NaN likewise */
    double steps_span_us;             /* first start to last end; NaN */
    /* device activity in only some steps (the "device_coverage" note):
       the first to the last of those, their span and count; 0 when it
       covers every step (or none) */
    double covered_span_us;
    size_t covered_steps;
    struct pr_rec_device *devs; /* owned */
    size_t n_devs;
    int main_device;       /* most kernel time (ties: lowest id); -1 none */
    struct pr_rec_op *ops; /* owned; by device self time, descending */
    size_t n_ops;
    double ops_self_us; /* sum of the rows' dev_self_us, in row order */
    struct pr_rec_kernel *kernels; /* owned; as the kernels rows */
    size_t n_kernels;
    struct pr_rec_gpu *gpus; /* owned; as the gpu_metrics rows */
    size_t n_gpus;
    /* tensor_cores' tc_kernel_time_pct and eligible_op_time_pct; NaN */
    double tc_pct, eligible_pct;
    struct pr_hostdev_out hostdev; /* synchronization, copies, launches */
};

struct pr_rec_facts {
    const struct pr_trace *t;    /* borrowed; NULL: no trace (tests) */
    int known;                   /* the numbers below were computed */
    double dataloader_share;     /* of the kept steps' time, 0..1 (7.5.1) */
    int dataloader_lead;         /* that time counts from each step's host start
                                    (torch_npu's device basis: pr_step.lead_ns) */
    double dataloader_lead_part; /* of the data loader's time, the part
                                    before each step's first task (in
                                    torch_npu's Preparing), 0..1; NaN none */
    double comm_share;           /* likewise, communication (7.5.4) */
    int cc_major;                /* deviceProperties[0] major; -1 none */
    double tc_ratio;             /* 10.4 over all kernels; NaN none */
    double eligible_ratio;       /* 10.5; NaN or 0 when none */
    /* GEMM/conv kernels eligible by their own names (ops.h struct
       pr_tc_share), fp32 on CUDA cores, over 10.5's denominator; NaN
       not computed.  Their longest kernel and top launchers (string ids
       of t, PR_STR_NONE / 0 ns unused) */
    double by_name_ratio;
    int64_t by_name_ns;  /* its numerator, ns */
    int64_t by_name_den; /* its denominator (10.5's), ns */
    uint32_t by_name_kernel;
    uint32_t by_name_op[3];
    int64_t by_name_op_ns[3];
    struct pr_rec_tables tables;
    /* borrowed, may be NULL: the rules that name operators or kernels
       add them here, for the what-if replays that back them (whatif.h) */
    struct pr_whatif_in *whatif;
};

/* The passes' C results pr_rec_tables_fill reads (borrowed). */
struct pr_rec_rows {
    const struct pr_device_rows *devs;     /* peaks complete */
    const struct pr_op_rows *by_shape;     /* roofline rates complete */
    const struct pr_kernel_refs *kernels;  /* kernels.c's rows */
    const struct pr_gpu_rows *gpus;        /* gpu_util.c's rows */
    int32_t main_device;                   /* pr_gpu_rows_busiest; -1 none */
    double tc_kernel_pct, eligible_op_pct; /* pr_roofline_out's */
};

/* Fill f->tables' devices, operator, kernel and GPU rows, the busiest
 * device and the tensor-core figures from r, as their passes write them,
 * and mark the tables known.  The step fields are analysis.c's, written
 * as it writes steps and step_summary; hostdev is hostdev.c's.  The rows'
 * strings must outlive f (the trace's).  PR_E_NOMEM on allocation
 * failure (tables freed). */
PR_NODISCARD enum pr_status pr_rec_tables_fill(struct pr_rec_facts *f,
                                               const struct pr_rec_rows *r,
                                               struct pr_error *err);

/* Free what pr_rec_tables_fill allocated (accepts a zeroed struct). */
void pr_rec_facts_free(struct pr_rec_facts *f);

/* Append the recommendations of run (its "recommendations" array, created
 * when absent or null) in rule order; a rule whose id is already present
 * adds nothing, so running twice adds nothing twice.  f: the facts and
 * the tables (pr_rec_tables_fill), never NULL.  PR_E_NOMEM on
 * allocation failure. */
PR_NODISCARD enum pr_status pr_recommend_fill(const struct pr_rec_facts *f,
                                              cJSON *run, struct pr_error *err);

#endif
