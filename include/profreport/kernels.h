/* kernels.h - the kernel table of spec/tb-plugin-semantics.md 11.1: every
 * Kernel event grouped by name, with call count, time statistics,
 * duration-weighted blocks per SM and occupancy, tensor-core use (10.1)
 * and the operator that launched most of its time. */
#ifndef PROFREPORT_KERNELS_H
#define PROFREPORT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/kclass.h"
#include "profreport/trace.h"
#include "profreport/tree.h"

/* What later passes read of a kernel row (the roofline pass: tensor-core
 * time, the operator of an Ascend task; the recommendations: calls, means
 * and tensor cores, as the row writes them); strings borrowed from the
 * trace. */
struct pr_kernel_ref {
    const char *name;
    const char *op; /* launching op with most time; NULL */
    int64_t total_ns;
    int by_unit;      /* judged by the unit its producer named (Ascend) */
    int unit_tc;      /* then: most of its time ran on the matrix unit */
    int cube_unknown; /* then: whether the Cube did most of its work is
                         not known (MIX_AIC without PMU counters) */
    int comm;         /* then: a collective (HCCL): no compute, left out of the
                         matrix unit's share */
    int engine;       /* then: 1 an AI CPU task, 2 a DSA one (math "ai_cpu",
                         "dsa"); 0 neither */
    size_t calls;
    double mean_us;       /* mean_us */
    double blocks_per_sm; /* mean_blocks_per_sm; NaN: null */
    double occupancy_pct; /* mean_est_achieved_occupancy_pct; NaN: null */
    int tc_used;          /* tensor_cores_used */
    int plugin_tc;        /* the plugin's list says tensor cores too */
    int known;            /* a rule of the kernel table named it */
    int family, math, precision; /* kclass.h's enums, math made concrete
                                    for the devices' vendor */
    int mma_precision;           /* kclass.h's: the precision its matrix
                                    instruction ran in */
    int64_t conv_ns;             /* its time launched by convolution operators
                                    (pr_tensorcore_op_is_conv) */
};

struct pr_kernel_refs {
    struct pr_kernel_ref *v; /* owned; free() */
    size_t n;
};

/* Build the "kernels" array (new, owned by the caller), sorted by total_us
 * descending, then name (strcmp), and, when refs is not NULL, the same
 * rows in C.  PR_E_NOMEM on failure (*out NULL, refs empty). */
PR_NODISCARD enum pr_status pr_kernels_build(const struct pr_trace *t,
                                             const struct pr_tree *tree,
                                             cJSON **out,
                                             struct pr_kernel_refs *refs,
                                             struct pr_error *err);

/* The "kernel_classes" object (new, owned by the caller): kernel time by
 * the kernel table's family and by math unit, and the kernels neither the
 * table nor their producer can place (their share, the largest named), so
 * that the table's gaps are visible.  By family, a GEMM kernel's time that
 * convolution operators launched (cuDNN's implicit-GEMM convolutions) is
 * conv's, the kernel counted where most of its time went (conv_gemm says
 * how much moved); cuDNN's NCHW/NHWC layout transforms are summed apart
 * (layout_transforms).  untimed (kernel replay: data_quality's
 * replayed_kernels): the family and math rows keep their kernel counts,
 * their total_us and time_pct null.  PR_E_NOMEM on failure. */
PR_NODISCARD enum pr_status
pr_kernels_classes(const struct pr_kernel_refs *refs, int untimed, cJSON **out,
                   struct pr_error *err);

/* How the kernel table classified one kernel of a run (`table --why NAME
 * --input`): the same pass as the kernels array, so the same answer.
 * NAME is a kernel's full name, else what the tables print of one (review
 * 28h #13): a part of the name, case aside, or a shortened form whose
 * "…" (or "...") stands for what was cut and whose namespaces inside
 * template arguments may be left out; when that names several kernels,
 * found is 0 and alike lists them.  Strings are borrowed from t and
 * t->kclass (which must be set). */
struct pr_kernel_why {
    int found; /* a task of t has that name */
    int npu;   /* t's devices are NPUs */
    size_t calls;
    int64_t total_ns;
    struct pr_kclass kc;       /* the name's rule (index -1: none) */
    const char *family;        /* as the row writes it; NULL */
    const char *math;          /* likewise */
    const char *family_source; /* "rule", "producer" or NULL */
    const char *op_type;       /* the producer's operator type whose rule gave
                                  the family (family_source producer); NULL */
    struct pr_kclass type_kc;  /* that type's rule */
    const char *unit;          /* the unit its producer named (tensor_cores_rule
                                  "matrix", "vector" ...); NULL: none named */
    int tc;                    /* tensor_cores_used: 1, 0, -1 not known */
    /* where the PMU counters decided the Cube for most of its time: the
       first Cube counter (aic_mac_ratio ...) and its duration-weighted
       mean; NULL where they did not */
    const char *pmu_col;
    double pmu_val;
    const char *tc_source; /* tensor_cores_source */
    const char *name;      /* the kernel's full name (borrowed from t); NULL */
    /* the precision its row gives and where from (name, producer,
       producer_mixed: the calls state several, this one of most of its
       time); NULL when none */
    const char *precision, *precision_source;
    char precs[160];   /* the calls' stated precisions by time ("bf16 4
                          calls 104.2 µs, fp32 4 calls 6.0 µs"); "" */
    size_t prec_calls; /* calls whose producer states a precision */
    /* a NAME that is no kernel's full name but names several kernels
       (found 0): how many, and the first PR_KERNEL_WHY_ALIKE of them
       (borrowed from t) */
#define PR_KERNEL_WHY_ALIKE 8
    size_t n_alike;
    const char *alike[PR_KERNEL_WHY_ALIKE];
};

PR_NODISCARD enum pr_status pr_kernels_why(const struct pr_trace *t,
                                           const char *name,
                                           struct pr_kernel_why *out,
                                           struct pr_error *err);

/* 10.4: share of all kernel time spent in tensor-core kernels (0..1);
 * NaN when the trace has no kernel.  Cannot fail. */
double pr_kernels_tc_ratio(const struct pr_trace *t);

#endif
