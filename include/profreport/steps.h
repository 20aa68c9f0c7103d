/* steps.h - step windows and the per-step time breakdown
 * (spec/tb-plugin-semantics.md sections 6 and 7.1): role ranges, device
 * aware step boundaries, tail trimming, no-step fallback, and the priority
 * split of each step into kernel, memcpy, ..., other.
 *
 * Ownership: struct pr_steps owns its arrays (pr_steps_free); it borrows
 * nothing after pr_steps_compute() returns. */
#ifndef PROFREPORT_STEPS_H
#define PROFREPORT_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"
#include "profreport/ranges.h"
#include "profreport/trace.h"
#include "profreport/tree.h"

/* Breakdown categories in priority order (7.1); OTHER is what is left. */
enum pr_cat {
    PR_CAT_KERNEL = 0,
    PR_CAT_MEMCPY,
    PR_CAT_MEMSET,
    PR_CAT_COMM,
    PR_CAT_RUNTIME,
    PR_CAT_DATALOADER,
    PR_CAT_CPU_EXEC,
    PR_CAT_OTHER,
    PR_CAT_COUNT
};

struct pr_step {
    uint32_t name;            /* string id of the step event; PR_STR_NONE
                                 for the capture of a run without steps */
    int64_t start_ns, end_ns; /* after 6.3 */
    int64_t host_start_ns, host_end_ns; /* the step event, clipped to the
                                           capture */
    size_t n_matched; /* device events launched inside (6.3) */
    int64_t breakdown_ns[PR_CAT_COUNT]; /* sums to end_ns - start_ns */
    /* On torch_npu's device basis (PR_STEPS_BASIS_NPU_DEVICE): the same
     * split of the host work before the step, from host_start_ns to
     * start_ns (torch_npu's "Preparing"); zero otherwise. */
    int64_t lead_ns[PR_CAT_COUNT];
    /* 13.2 over the same role ranges: computation (kernel time, or host
     * operator time in a run without kernels: pr_steps.comp_kernels),
     * the Communication role, and the time both cover. */
    int64_t comp_ns, comm_ns, both_ns;
};

/* What a step's start and end are (pr_steps.basis). */
enum pr_steps_basis {
    PR_STEPS_BASIS_HOST = 0,  /* the ProfilerStep intervals (no device work
                                 was launched in them) */
    PR_STEPS_BASIS_DEVICE,    /* 6.3: from the end of the previous step's
                                 device work (or its own host start) to the
                                 end of its own device work */
    PR_STEPS_BASIS_PRODUCER,  /* the producer's own device steps */
    PR_STEPS_BASIS_CAPTURE,   /* no steps: the whole capture, one window */
    PR_STEPS_BASIS_NPU_DEVICE /* torch_npu's device step, its rule where
                                 no step table gives it (steps.c
                                 npu_device_steps): from the first launch's
                                 first task to the last launch's last task
                                 end or the host end, whichever is later */
};

/* A launch that waited longer than this after its call returned was
 * queued behind other work (HTA's consecutive-kernel delay, the launch
 * overhead; hostdev.h). */
#define PR_STEPS_QUEUED_NS 30000

struct pr_steps {
    struct pr_step *v; /* owned, n kept steps in time order */
    size_t n, cap;
    enum pr_steps_basis basis;
    size_t clipped;     /* steps whose host end ran past the capture */
    size_t dropped;     /* steps that began after the capture ended */
    int64_t backlog_ns; /* the first step starts this much later: its
                           first work waited behind earlier work */
    /* The training loop, for what happens outside it (profiler start-up
     * and shutdown): from the first step event's host start to the end of
     * the last one or of the kept steps, whichever is later, before the
     * tail is trimmed (6.4); without steps, the host operators' extent
     * (or the capture, without host events). */
    int64_t loop_start_ns, loop_end_ns;
    int64_t global_start_ns, global_end_ns; /* 6.1 */
    int has_step_events; /* the trace has ProfilerStep events */
    int gpu_used;        /* some device event matched a step */
    int npu_device;      /* the steps are torch_npu's device steps */
    /* The 6.1 role ranges (a range per gap between events, 16 MiB at
     * 1 GB) are not kept past pr_steps_compute: the breakdown and the
     * 13.2 split per step are all that later passes read of them. */
    int comp_kernels; /* computation is kernel time: the run has kernels */
    int has_comm;     /* some event has the Communication role */
    /* Steps left out because the device record starts or ends inside
     * them (steps.c cut_partial): the first and the last step with
     * device work, at most; cut_last[i] says which. */
    size_t cut;
    struct pr_step cut_v[2];
    int cut_last[2];
};

/* Device work in a step: its kernels, copies and fills. */
int64_t pr_step_device_ns(const struct pr_step *p);

/* Where the host-side analyses (the critical path, the device's idle
 * and what it waits for) start step p: its start, or, on torch_npu's
 * device basis (PR_STEPS_BASIS_NPU_DEVICE), its host start where that is
 * earlier, so that the host work before the step's first NPU task (the
 * data loading, the first launches; torch_npu's "Preparing") stays in
 * them. */
int64_t pr_step_host_side_start(const struct pr_steps *s,
                                const struct pr_step *p);

/* Fill *s (zero-initialised by the call) from trace t and its op tree.
 * PR_E_NOMEM on allocation failure (then *s is already freed). */
PR_NODISCARD enum pr_status pr_steps_compute(const struct pr_trace *t,
                                             const struct pr_tree *tree,
                                             struct pr_steps *s,
                                             struct pr_error *err);

void pr_steps_free(struct pr_steps *s); /* accepts a zeroed struct */

/* The name of the one window of a run without steps. */
#define PR_STEPS_CAPTURE_NAME "capture"

/* A step's name as the summary writes it: its event's, or
 * PR_STEPS_CAPTURE_NAME; borrowed from t or static. */
const char *pr_steps_name(const struct pr_trace *t, const struct pr_step *st);

/* The summary's word for a basis ("host", "device", "producer",
 * "capture", "npu_device"). */
const char *pr_steps_basis_name(enum pr_steps_basis b);

/* Summary key of a category ("kernel", ..., "other"). */
const char *pr_steps_cat_key(enum pr_cat c);

#endif
