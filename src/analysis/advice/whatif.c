/* whatif.c - what a fix would save (issue #31, Daydream's method): replay
 * a step's dependency graph (critpath.c) with a change applied and compare
 * the predicted step with the unchanged replay.  Each scenario edits the
 * graph's replay inputs (durations, edge weights), never its measured
 * values, and the graph is restored after it; the gains of a run's steps
 * are summed here, written beside the critical path and put onto the
 * recommendations they back (pr_whatif_recommend).  Which operators and
 * kernels a rule names is the rule's business (recommend.c fills struct
 * pr_whatif_in); this file only replays. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/checked.h"
#include "profreport/comm.h"
#include "profreport/critpath.h"
#include "profreport/dtype.h"
#include "profreport/flops.h"
#include "profreport/job.h"
#include "profreport/keys.h"
#include "profreport/producer.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/shapes.h"
#include "profreport/shorten.h"
#include "profreport/tensorcore.h"
#include "profreport/tree.h"
#include "profreport/whatif.h"

#include "../internal.h"

/* The verdict's rounding, one copy (whatif.h). */
static void
fmt_us(double us, char *buf, size_t cap)
{
    pr_whatif_fmt_us(us, buf, cap);
}

static const struct {
    const char *id;   /* the recommendation it backs */
    const char *what; /* the change, as the replay makes it */
    const char *npu;  /* the same in Ascend's words; NULL: what */
    const char *amd;  /* the same in ROCm's words (HIP graphs, matrix cores
                         (MFMA), workgroups on CUs); NULL: what */
    int bound;        /* its gain is an upper bound: it takes off all the
                         time the change could: bound_us, "<= X" */
} scen[PR_WHATIF_COUNT] = {
    {"launch_bound",
     "CUDA graphs (torch.compile mode=\"reduce-overhead\"): launch calls and "
     "the device's wait for each launch take no time; the host operators' "
     "own work stays",
     "graph mode (torch.compile with torchair's NPU backend): CANN launch "
     "calls and the NPU's wait for each launch take no time; the host "
     "operators' own work stays",
     "HIP graphs (torch.compile mode=\"reduce-overhead\"): launch calls and "
     "the device's wait for each launch take no time; the host operators' "
     "own work stays",
     0},
    {"dataloader",
     "the data loader's time on the host gone (its next() "
     "takes no time)",
     NULL, NULL, 0},
    {"host_sync",
     "no blocking synchronisation: the host no longer waits for "
     "the device in *Synchronize calls",
     NULL, NULL, 0},
    {"pageable_copies",
     "copies from pinned memory: host-to-device copies with "
     "non_blocking=True no longer block the host, and pageable copies run "
     "at the host link's speed",
     NULL, NULL, 0},
    {"communication",
     "communication overlapped with compute: no compute or host work waits "
     "for a collective but the work that starts after the last one ends, "
     "which consumes it (the optimizer after the gradients' all-reduce); "
     "the collectives still run, in order, and the step ends after them; "
     "an upper bound",
     NULL, NULL, 1},
    {"enable_amp",
     "automatic mixed precision: kernels of tensor-core eligible operators "
     "that ran without tensor cores take their time times the ratio of the "
     "fp32 peak to the fp16 tensor-core peak, never less than their "
     "operator's bytes (in fp16) at the memory roof; fp32 GEMM/conv "
     "kernels that no eligible operator launched (a compiled graph's), "
     "found by their names, take the ratio alone",
     NULL,
     "automatic mixed precision: kernels of eligible operators that ran "
     "without the matrix cores (MFMA) take their time times the ratio of "
     "the fp32 peak to the fp16 matrix-core peak, never less than their "
     "operator's bytes (in fp16) at the memory roof; fp32 GEMM/conv kernels "
     "that no eligible operator launched (a compiled graph's), found by "
     "their names, take the ratio alone",
     0},
    {"tf32",
     "TF32 (torch.backends.cuda.matmul.allow_tf32 = True): the same "
     "kernels times the ratio of the fp32 peak to the TF32 "
     "tensor-core peak, never less than their bytes at the memory "
     "roof",
     NULL,
     "TF32 (torch.backends.cuda.matmul.allow_tf32 = True): the same kernels "
     "times the ratio of the fp32 peak to the TF32 matrix-core peak, never "
     "less than their bytes at the memory roof",
     0},
    {"low_gpu_utilization",
     "twice the batch: every kernel and copy, the data loader and the "
     "host's Python outside operators take twice as long; communication "
     "and the operators' dispatch on the host stay; the gain is the time "
     "saved per step's worth of samples",
     NULL, NULL, 0},
    {"memory_bound_ops",
     "the named memory-bound operators' kernels at the memory roof (their "
     "bytes at the peak bandwidth); an upper bound on what fusing them "
     "saves; the rows of an attention computed unfused (on its score "
     "matrix) take none of their time: an upper bound on what fused "
     "attention saves",
     NULL, NULL, 1},
    {"misaligned_dims",
     "the named operators' kernels that ran without tensor cores on them "
     "(dims padded): their time times the ratio of the fp32 peak to the "
     "fp16 tensor-core peak, never less than their bytes at the memory "
     "roof",
     NULL,
     "the named operators' kernels that ran without the matrix cores (MFMA) "
     "on them (dims padded): their time times the ratio of the fp32 peak to "
     "the fp16 matrix-core peak, never less than their bytes at the memory "
     "roof",
     0},
    {"low_occupancy",
     "the named kernels filling the device: their time times their blocks "
     "per SM (a grid under one block per SM) or their occupancy over 25%; "
     "an upper bound",
     NULL,
     "the named kernels filling the device: their time times their "
     "workgroups per CU (a grid under one workgroup per CU) or their "
     "occupancy over 25%; an upper bound",
     1},
    {"cold_step",
     "the steady state: runtime calls that held the host 1 ms or more "
     "(first-use costs: context creation, module loading, JIT) take the "
     "step's median runtime call time; a one-time cost, not a saving per "
     "step of a long run",
     NULL, NULL, 0},
    {"copy_bound",
     "copies from the host prefetched: pinned, non_blocking copies on a "
     "side stream a step ahead, so no compute or host work waits for a "
     "host-to-device copy (the copies still run, and the step ends after "
     "them; a copy of 64 bytes or fewer, a scalar the step makes, stays); "
     "an upper bound",
     NULL, NULL, 1},
    {"gradient_accumulation",
     "gradient accumulation over two micro-batches (or twice the batch): "
     "every kernel, copy, host call and the host work between them happen "
     "twice, the collectives and the waits for peers once; the gain is "
     "the time saved per step's worth of samples",
     NULL, NULL, 0},
    {"dtype_conversions",
     "no dtype conversions: PyTorch's casting kernels a rule named "
     "(bfloat16_copy_kernel_cuda ...) take no time, as if their tensors "
     "were already in the dtype their consumers need; an upper bound",
     NULL, NULL, 1},
    {"op_compile",
     "no operator compilation: CANN's compile steps (the opCompile step "
     "inside each aclopCompileAndExecute, aclopCompile alone) take no time "
     "(aclopCompile calls: the step's median runtime call time), and the "
     "device idle the path shows during them goes; the rest of each "
     "aclopCompileAndExecute, the aclop path's execution, stays",
     NULL, NULL, 0},
    {"low_block_dim",
     "the named operators' tasks split across every core of their kind: "
     "each takes its time times its Block Dim over the core count; an "
     "estimate that assumes the work divides evenly and nothing else, "
     "such as memory bandwidth, limits the task (the model low_block_dim "
     "states where the core count is not known, at the run's usual Block "
     "Dim: one model, an estimate, review 8 #4)",
     NULL, NULL, 0},
    {"device_copies",
     "CUDA-graph trees (torch.compile mode=\"reduce-overhead\"): the "
     "copies a CUDA-graphed compiled function's wrapper makes into the "
     "graph's static inputs before each graph launch and the clones of its "
     "outputs after it take no time, with their aten::copy_ / aten::clone "
     "host work and copy calls; an upper bound: trees still copy the "
     "non-static inputs (neither a parameter or buffer, dynamo's "
     "static_input_idxs, nor an earlier graph's output, "
     "cudagraph_managed_idxs: the batch, the incoming gradients), in one "
     "torch._foreach_copy_, and the trace does not tell them apart",
     NULL, NULL, 1},
    {"slow_dispatch",
     "healthy dispatch: the named PyTorch operators that compute nothing "
     "(views, allocation, metadata) take 2 \xC2\xB5s of host time a call, "
     "their "
     "host time scaled from its mean a call to that",
     NULL, NULL, 0},
    {"small_allreduce",
     "gradients bucketed (DDP's bucket_cap_mb, 25 MB): a step's small "
     "NCCL all-reduces merged into one call per 25 MB in their order; the "
     "merged call takes one call's latency (the step's shortest "
     "all-reduce) plus its bytes at the bandwidth of the trace's largest "
     "all-reduces (their bytes over their time), or, where the calls' "
     "sizes are not recorded, plus the time each call took over that "
     "latency (one bucket a step), waiting after its launch as long as "
     "the bucket's first call did; the merged calls' launches and host "
     "work go",
     NULL, NULL, 0},
    {"aclop_binary",
     "binary kernels (torch_npu's jit_compile=False, the aclnn path): each "
     "aclopCompileAndExecute / aclopExecute call takes what the same "
     "export's binary kernels cost the host (its aclnn* calls), its task "
     "waits that much less, and the device's wait inside those calls "
     "goes",
     NULL, NULL, 0},
};

/* Replayed under a change that removes an edge. */
#define GONE PR_CP_GONE

/* Operator-level sums of one step (AMP, TF32, misaligned dims). */
struct opsum {
    int64_t ns;    /* its eligible kernels' time */
    double cap_ns; /* its bytes at the memory roof; NaN unknown, -1 not yet
                      computed */
};

#define PR_WHATIF_EV 4 /* evidence kept per scenario */

/* A host range of an optimizer's step (torch.optim's
 * "Optimizer.step#Adam.step" record_function), and the launch time the
 * launch_bound replay took off the path inside it. */
struct opt_span {
    int64_t s, e;
    uint32_t name, tid, pid; /* the range's name, thread and process */
    int64_t ns;              /* optimizer_spans: launch time inside it;
                                pr_whatif_optimizer_state: aten::zeros_like calls */
};

/* A node on the path and what the change took off it. */
struct pr_whatif_ev {
    uint32_t name; /* string id */
    int64_t ns;
};

struct pr_whatif_acc {
    size_t steps;   /* steps replayed */
    size_t skipped; /* steps left out */
    int64_t base_ns;
    int64_t lead_ns; /* capture lead-ins left out of base_ns: in the share */
    int64_t tail_ns; /* unrecorded tails, after base_ns ends: in the share */
    int64_t gain_ns[PR_WHATIF_COUNT];
    struct pr_whatif_ev ev[PR_WHATIF_COUNT][PR_WHATIF_EV];
    struct pr_cp_node *bak; /* the graph before a change */
    struct pr_cp_piece *bak_pc;
    int64_t *bak_end;
    struct pr_names names;  /* kernel classes (names.c), of names.t */
    struct pr_idmap ocache; /* operator name id -> 1 + eligible */
    struct pr_idmap gcache; /* operator event -> 1 + a GEMV (op_gemv) */
    struct pr_idmap opix;   /* per step: operator event -> index in ops */
    struct opsum *ops;
    size_t n_ops, cap_ops;
    struct pr_op_inputs *in; /* scratch of op_cost */
    int64_t *durs;           /* scratch of apply_cold */
    size_t cap_durs;
    struct pr_replay_cache *rc; /* replays.c's, per trace */
    int npu;            /* the steps ran on an NPU: the changes in its words */
    const char *vendor; /* pr_whatif_in's */
    int trains, no_framework; /* pr_whatif_in's */
    int startup;              /* a replayed step holds the capture's start-up
                                 collective (in->startup_ev) */
    int failed;               /* an allocation failed */
    /* launch_bound and dtype_conversions: the time the change took off
       the path (all_ns) and the part of it in a subset (sub_ns): launch
       calls the host issued inside an optimizer's step, casts whose
       output a GEMM or convolution consumes; sub_name: LAUNCH, the
       optimizer step's range with the most of it */
    int64_t all_ns[PR_WHATIF_COUNT], sub_ns[PR_WHATIF_COUNT];
    int64_t fusible_ns;    /* CASTS: casts whose next kernel is elementwise,
                              a reduction or a norm (fusible_fed_pct) */
    int64_t copy_ns;       /* CASTS: casts whose next kernel is a copy, which
                              reads the cast's output (copy_fed_pct) */
    int64_t fsdp_ns;       /* CASTS: those on the path an operator under an
                              FSDP pre-forward / pre-backward range launched
                              (fsdp_path_pct) */
    int64_t cast_ns;       /* CASTS: every cast's time, on the path or not */
    int64_t fsdp_all_ns;   /* CASTS: the part under FSDP's ranges (fsdp_pct) */
    int64_t fsdp_bwd_ns;   /* CASTS: the part under FSDP::pre_backward
                              (fsdp_backward_pct) */
    size_t fsdp_n;         /* CASTS: their number (fsdp_calls) */
    unsigned fsdp_kinds;   /* CASTS: the ranges they were in (FSDP_FWD...) */
    struct opt_span *fsdp; /* those ranges (fsdp_spans), once a trace */
    size_t n_fsdp;
    int fsdp_done;
    int64_t fsdp_max; /* the longest of them */
    uint32_t sub_name[PR_WHATIF_COUNT];
    struct opt_span *opt; /* the trace's optimizer steps, in time order */
    size_t n_opt;
    int opt_done; /* opt built */
    /* allocator churn (churn_of): the allocation or release call whose
       runtime calls of PR_WHATIF_COLD_CALL_NS or more recur in every
       iteration after the first, and those calls per iteration */
    int churn_done;
    uint32_t churn_name;
    double churn_per_iter;
    uint32_t *next; /* scratch of apply_picks: a task's next on its stream */
    size_t cap_next;
};

const char *
pr_whatif_id(enum pr_whatif s)
{
    return (unsigned)s < PR_WHATIF_COUNT ? scen[s].id : "";
}

/* 1 when the what-if wid's gain is an upper bound (scen[].bound). */
static int
scen_bound(const char *wid)
{
    size_t i;

    for (i = 0; wid != NULL && i < PR_WHATIF_COUNT; i++) {
        if (strcmp(scen[i].id, wid) == 0)
            return scen[i].bound;
    }
    return 0;
}

void
pr_whatif_in_init(struct pr_whatif_in *in)
{
    memset(in, 0, sizeof(*in));
    in->link_gbps = NAN;
    in->peak_gbps = NAN;
    in->amp_ratio = NAN;
    in->tf32_ratio = NAN;
    in->startup_ev = PR_CP_NONE;
    in->trains = -1;
}

void
pr_whatif_in_pick(struct pr_whatif_in *in, enum pr_whatif s, const char *op,
                  const char *shapes, const char *kernel, double factor)
{
    struct pr_whatif_pick *p;

    if (in == NULL || in->n_picks >= PR_WHATIF_MAX_PICKS)
        return;
    p = &in->picks[in->n_picks++];
    p->s = s;
    p->op = op;
    p->shapes = shapes;
    p->kernel = kernel;
    p->factor = factor;
}

struct pr_whatif_acc *
pr_whatif_acc_new(void)
{
    return calloc(1, sizeof(struct pr_whatif_acc));
}

void
pr_whatif_acc_free(struct pr_whatif_acc *a)
{
    if (a == NULL)
        return;
    free(a->bak);
    free(a->bak_pc);
    free(a->bak_end);
    pr_names_free(&a->names);
    pr_idmap_free(&a->ocache);
    pr_idmap_free(&a->gcache);
    pr_idmap_free(&a->opix);
    free(a->ops);
    free(a->in);
    free(a->durs);
    free(a->opt);
    free(a->fsdp);
    free(a->next);
    pr_replay_cache_free(a->rc);
    free(a);
}

static int
name_has_prefix(const char *name, const char *const *prefixes)
{
    size_t k;

    for (k = 0; prefixes[k] != NULL; k++)
        if (strncmp(name, prefixes[k], strlen(prefixes[k])) == 0)
            return 1;
    return 0;
}

/* Append e's span to *v (*n of *cap), *max the longest; 0 out of
 * memory. */
static int
push_span(const struct pr_trace *t, const struct pr_event *e,
          struct opt_span **v, size_t *n, size_t *cap, int64_t *max)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        struct opt_span *nv = realloc(*v, nc * sizeof(*nv));

        if (nv == NULL)
            return 0;
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] =
        (struct opt_span){e->ts_ns,           e->ts_ns + e->dur_ns, e->name,
                          pr_event_tid(t, e), pr_event_pid(t, e),   0};
    *max = e->dur_ns > *max ? e->dur_ns : *max;
    return 1;
}

/* The host ranges whose names start with one of prefixes (NULL-ended),
 * in file order, in *v / *n (empty on entry), the longest's length in
 * *max; 0 out of memory. */
static int
range_spans(const struct pr_trace *t, const char *const *prefixes,
            struct opt_span **v, size_t *n, int64_t *max)
{
    size_t i, cap = 0;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if ((e->kind != PR_KIND_ANNOTATION && e->kind != PR_KIND_HOST_OP) ||
            e->dur_ns <= 0 ||
            !name_has_prefix(pr_trace_str(t, e->name), prefixes))
            continue;
        if (!push_span(t, e, v, n, &cap, max))
            return 0;
    }
    return 1;
}

static int
cmp_span(const void *x, const void *y)
{
    const struct opt_span *a = x, *b = y;

    return a->s < b->s ? -1 : a->s > b->s;
}

/* The range of v (by start, n of them, the longest max long) on e's
 * thread that holds e's start, the latest to start; SIZE_MAX none. */
static size_t
span_holding(const struct pr_trace *t, const struct pr_event *e,
             const struct opt_span *v, size_t n, int64_t max)
{
    size_t lo = 0, hi = n, j;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (v[mid].s <= e->ts_ns)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (j = lo; j-- > 0 && v[j].s >= e->ts_ns - max;)
        if (e->ts_ns < v[j].e && pr_event_tid(t, e) == v[j].tid &&
            pr_event_pid(t, e) == v[j].pid)
            return j;
    return SIZE_MAX;
}

/* What ran inside an optimizer step's range, for
 * pr_whatif_optimizer_impl: its class's step always runs one of
 * torch.optim's own operators (own_class). */
struct impl_flags {
    int own_class, torch_class, torch_ops, compiled, aten;
    int fused, foreach; /* aten::_fused_* / aten::_foreach_* ran in it */
};

const char *
pr_whatif_optimizer_impl(const struct pr_trace *t, int *ok)
{
    /* torch.optim's classes whose every step runs addcmul_/addcdiv_,
       _foreach_* or _fused_* (issue #29 review: CS336's own AdamW was
       told to pass foreach=True) */
    static const char *const own_classes[] = {"Adam.", "AdamW.", "RMSprop.",
                                              NULL};
    /* torch.optim's classes (torch/optim/__init__.py): Shampoo's or an
       EMA wrapper's _foreach_ calls are not torch.optim's */
    static const char *const torch_classes[] = {
        "Adadelta.", "Adafactor.", "Adagrad.", "Adam.",  "AdamW.",
        "Adamax.",   "ASGD.",      "NAdam.",   "RAdam.", "RMSprop.",
        "Rprop.",    "SGD.",       NULL};
    static const char *const torch_ops[] = {"aten::_foreach_", "aten::_fused_",
                                            "aten::addcmul_", "aten::addcdiv_",
                                            NULL};
    /* a compiled step runs its own kernels: nothing to tell by */
    static const char *const compiled[] = {
        "Torch-Compiled Region", "CompiledFunction", "## Call CompiledFxGraph",
        "TorchDynamo Cache Lookup", NULL};
    static const char prefix[] = "Optimizer.step#";
    static const char *const steps[] = {prefix, NULL};
    struct opt_span *v = NULL;
    struct impl_flags *f;
    size_t i, n = 0, own = 0, torch = 0, fused = 0, foreach = 0;
    int64_t max = 0;

    if (!range_spans(t, steps, &v, &n, &max)) {
        free(v);
        *ok = 0;
        return NULL;
    }
    if (n == 0) {
        free(v);
        return NULL;
    }
    qsort(v, n, sizeof(*v), cmp_span);
    f = calloc(n, sizeof(*f));
    if (f == NULL) {
        free(v);
        *ok = 0;
        return NULL;
    }
    for (i = 0; i < n; i++) {
        const char *cls = pr_trace_str(t, v[i].name) + sizeof(prefix) - 1;

        f[i].own_class = name_has_prefix(cls, own_classes);
        f[i].torch_class = name_has_prefix(cls, torch_classes);
    }
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const char *name;
        size_t j;

        if (e->kind != PR_KIND_HOST_OP && e->kind != PR_KIND_ANNOTATION)
            continue;
        name = pr_trace_str(t, e->name);
        if (strncmp(name, prefix, sizeof(prefix) - 1) == 0 ||
            (j = span_holding(t, e, v, n, max)) == SIZE_MAX)
            continue;
        f[j].torch_ops |= name_has_prefix(name, torch_ops);
        f[j].fused |= strncmp(name, "aten::_fused_", 13) == 0;
        f[j].foreach |= strncmp(name, "aten::_foreach_", 15) == 0;
        f[j].compiled |= name_has_prefix(name, compiled);
        f[j].aten |= strncmp(name, "aten::", 6) == 0;
    }
    free(v);
    for (i = 0; i < n; i++) {
        if (f[i].torch_class && f[i].torch_ops) {
            torch++;
            fused += f[i].fused;
            foreach
                += f[i].foreach && !f[i].fused;
        }
        own += f[i].own_class && f[i].aten && !f[i].torch_ops && !f[i].compiled;
    }
    free(f);
    if (own > 0)
        return torch == 0 ? "own" : NULL;
    /* every range one path: the fused kernels, the multi-tensor calls,
       or the single-tensor loop, which a hand-written class of the same
       form runs too (issue #29 review: transformers' old AdamW, timm's) */
    return torch == 0             ? NULL
           : fused == torch       ? "fused"
           : foreach == torch     ? "foreach"
           : fused + foreach == 0 ? "single_tensor"
                                  : NULL;
}

int
pr_whatif_optimizer_state(const struct pr_trace *t,
                          struct pr_whatif_opt_state *out)
{
    static const char *const steps[] = {"Optimizer.step#", NULL};
    /* the ranges, their calls counted in ns; the calls */
    struct opt_span *v = NULL;
    struct opt_span *c = NULL;
    struct pr_idmap corr = {0};
    struct pr_error err = {0};
    size_t i, n = 0, nc = 0, cap_c = 0, first = SIZE_MAX;
    int64_t max = 0, max_c = 0;
    int ok = 0;

    *out = (struct pr_whatif_opt_state){0, 0, 0, 0, 0, 0, -1};
    if (!range_spans(t, steps, &v, &n, &max))
        goto done;
    if (n == 0) {
        ok = 1;
        goto done;
    }
    qsort(v, n, sizeof(*v), cmp_span);
    /* the calls (events are in time order, so the calls are too) */
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        size_t j;

        if (e->kind != PR_KIND_HOST_OP || e->dur_ns <= 0 ||
            strcmp(pr_trace_str(t, e->name), "aten::zeros_like") != 0 ||
            (j = span_holding(t, e, v, n, max)) == SIZE_MAX)
            continue;
        v[j].ns++;
        if (!push_span(t, e, &c, &nc, &cap_c, &max_c))
            goto done;
    }
    for (i = 0; i < n; i++) {
        out->calls += (long)v[i].ns;
        if (v[i].ns > 0 && first == SIZE_MAX)
            first = i;
    }
    if (first == SIZE_MAX) {
        out->steps = (long)n;
        ok = 1;
        goto done;
    }
    for (i = 0; i < nc; i++)
        out->host_ns += c[i].e - c[i].s;
    for (i = 0; i < n; i++)
        out->ranges += v[i].ns > 0;
    /* the launches made inside the steps that ran calls (1) and inside
       the calls (2), then their kernels */
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t id;
        size_t j;

        if (!pr_tree_is_launcher(e->kind) ||
            (id = pr_event_correlation(t, e)) == PR_NO_ID ||
            (j = span_holding(t, e, v, n, max)) == SIZE_MAX || v[j].ns == 0)
            continue;
        if (pr_idmap_put(&corr, id,
                         1 + (span_holding(t, e, c, nc, max_c) != SIZE_MAX),
                         &err) != PR_OK)
            goto done;
    }
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t id = pr_event_correlation(t, e);
        size_t in;

        if (e->kind != PR_KIND_DEVICE_TASK || id == PR_NO_ID ||
            (in = pr_idmap_get(&corr, id)) == PR_NONE)
            continue;
        out->step_kernels++;
        out->kernels += in == 2;
    }
    /* the class whose step ran them first: did its later steps too? */
    for (i = first + 1; i < n; i++) {
        if (v[i].name != v[first].name)
            continue;
        out->steps++;
        if (v[i].ns > 0)
            out->first_only = 0;
    }
    if (out->steps > 0 && out->first_only != 0)
        out->first_only = 1;
    out->steps++;
    ok = 1;
done:
    free(v);
    free(c);
    pr_idmap_free(&corr);
    if (!ok)
        *out = (struct pr_whatif_opt_state){0, 0, 0, 0, 0, 0, -1};
    return ok;
}

void
pr_whatif_skip(struct pr_whatif_acc *a)
{
    if (a != NULL)
        a->skipped++;
}

static int
has(const char *s, const char *sub)
{
    return strstr(s, sub) != NULL;
}

/* ------------------------------------------------------------ evidence */

/* The evidence name of the waits of tasks after their launch call ended
 * (the launch-to-start delay: the driver's submission, the queue ahead of
 * a task), apart from the calls' own time; no string id of a trace is
 * this large. */
#define LAUNCH_DELAY ((uint32_t)PR_STR_NONE - 1u)
#define LAUNCH_DELAY_NAME "(launch-to-start delay)"

/* Note that the change took ns off `name` where the unchanged path runs
 * (on_path): the evidence is what the path ran through. */
static void
evidence(struct pr_whatif_acc *a, enum pr_whatif s, int on_path, uint32_t name,
         int64_t ns)
{
    struct pr_whatif_ev *v = a->ev[s];
    size_t i, low = 0;

    if (!on_path || ns <= 0 || name == PR_STR_NONE)
        return;
    for (i = 0; i < PR_WHATIF_EV; i++) {
        if (v[i].ns > 0 && v[i].name == name) {
            v[i].ns = pr_sat_add_i64(v[i].ns, ns);
            return;
        }
        if (v[i].ns < v[low].ns)
            low = i;
    }
    if (ns > v[low].ns) {
        v[low].name = name;
        v[low].ns = ns;
    }
}

/* What a node is called in evidence: the operator it ran for, when it
 * has one (a user knows aten::item, not cudaStreamSynchronize), else its
 * own name. */
static uint32_t
ev_name(const struct pr_trace *t, const struct pr_cp_node *n)
{
    if (n->op_ev != PR_CP_NONE && n->op_ev < t->n_events)
        return t->events[n->op_ev].name;
    return n->name;
}

/* ------------------------------------------------- what nodes are */

static const char *
node_str(const struct pr_trace *t, const struct pr_cp_node *n)
{
    return n->name != PR_STR_NONE ? pr_trace_str(t, n->name) : "";
}

static int
is_task(const struct pr_cp_node *n)
{
    return n->type == PR_CP_N_TASK;
}

/* A kernel runs on tensor cores (by the kernel table, cached per name). */
static int
uses_tc(struct pr_whatif_acc *a, const struct pr_trace *t,
        const struct pr_cp_node *n, struct pr_error *err)
{
    (void)err;
    if (a->names.t != t) {
        pr_names_free(&a->names);
        pr_names_init(&a->names, t);
    }
    return (pr_names_get(&a->names, n->name) & PR_NAME_TC) != 0;
}

/* A kernel's operator may run on tensor cores (cached per op name). */
static int
op_eligible(struct pr_whatif_acc *a, const struct pr_trace *t,
            const struct pr_cp_node *n, struct pr_error *err)
{
    uint32_t name;
    size_t v;

    if (n->op_ev == PR_CP_NONE || n->op_ev >= t->n_events)
        return 0;
    name = t->events[n->op_ev].name;
    v = pr_idmap_get(&a->ocache, name);
    if (v == PR_NONE) {
        v = 1 + (pr_tensorcore_op_eligible(pr_trace_str(t, name), NULL) != 0);
        if (pr_idmap_put(&a->ocache, name, v, err) != PR_OK)
            a->failed = 1;
    }
    return v == 2;
}

/* An operator call's cost from its recorded inputs; 0 when none is known
 * (no recorded inputs, out of memory: a->failed, a text that did not
 * parse). */
static int
call_cost(struct pr_whatif_acc *a, const struct pr_trace *t, uint32_t op_ev,
          struct pr_op_cost *cost)
{
    const struct pr_event *e = &t->events[op_ev];
    struct pr_op_info buf;
    const struct pr_op_info *oi = pr_trace_op(t, e, &buf);
    struct pr_op_call call;
    struct pr_error err = {PR_OK, ""};

    if (oi == NULL)
        return 0;
    if (a->in == NULL)
        a->in = malloc(sizeof(*a->in));
    if (a->in == NULL) {
        a->failed = 1;
        return 0;
    }
    pr_shapes_get(t, oi->input_dims, oi->input_types, oi->concrete_inputs,
                  a->in);
    call.name = pr_trace_str(t, e->name);
    call.in = a->in;
    call.trace_flops = oi->flops;
    call.conv_grads = 0; /* no op tree here: a conv backward's both */
    return pr_flops_estimate(&call, cost, &err) == PR_OK;
}

/* An operator call's bytes and first input's dtype from its recorded
 * inputs; bytes < 0 when no formula knows them. */
static void
op_cost(struct pr_whatif_acc *a, const struct pr_trace *t, uint32_t op_ev,
        double *bytes, enum pr_dtype *dt)
{
    struct pr_op_cost cost;

    *bytes = -1;
    *dt = PR_DT_UNKNOWN;
    if (!call_cost(a, t, op_ev, &cost))
        return;
    *bytes = cost.bytes;
    *dt = cost.dtype;
}

/* A kernel's operator call is a matrix-vector product (aten::mv,
 * aten::addmv, a GEMM whose M or N is 1) or an outer product (K = 1):
 * memory-bound, no tensor-core path (cuBLAS runs gemv on CUDA cores), so
 * neither AMP nor TF32 speeds it: the tensor-core section's own test
 * (roofline.c, pr_tensorcore_op_gemv; issue #28 #1).  Cached per call. */
static int
op_gemv(struct pr_whatif_acc *a, const struct pr_trace *t,
        const struct pr_cp_node *n, struct pr_error *err)
{
    struct pr_op_cost cost;
    const char *name;
    size_t v;

    if (n->op_ev == PR_CP_NONE || n->op_ev >= t->n_events)
        return 0;
    v = pr_idmap_get(&a->gcache, n->op_ev);
    if (v != PR_NONE)
        return v == 2;
    name = pr_trace_str(t, t->events[n->op_ev].name);
    v = 1 + (pr_tensorcore_op_gemv(name, NULL) ||
             (call_cost(a, t, n->op_ev, &cost) &&
              pr_tensorcore_op_gemv(name, &cost)));
    if (pr_idmap_put(&a->gcache, n->op_ev, v, err) != PR_OK)
        a->failed = 1;
    return v == 2;
}

/* ---------------------------------------------------------- scenarios */

static int64_t host_median(struct pr_cp_graph *g, struct pr_whatif_acc *a);
static int cold_call(const struct pr_cp_node *c, int64_t median);

/* The trace's optimizer steps: host ranges named "Optimizer.step#..."
 * (torch.optim.Optimizer's profile hook, torch/optim/optimizer.py), once
 * a trace.  0 on out of memory (a->failed). */
static int
optimizer_spans(const struct pr_trace *t, struct pr_whatif_acc *a)
{
    static const char *const opt[] = {"Optimizer.step#", NULL};
    int64_t max = 0;

    if (a->opt_done)
        return 1;
    a->opt_done = 1;
    if (!range_spans(t, opt, &a->opt, &a->n_opt, &max)) {
        a->failed = 1;
        return 0;
    }
    return 1;
}

/* FSDP's range kinds, as under_fsdp's bits and fsdp_ranges' words */
static const char *const fsdp_kind[] = {"FSDP::pre_forward",
                                        "FSDP::pre_backward", NULL};
/* under_fsdp's bit for fsdp_kind[1], FSDP::pre_backward */
#define FSDP_BWD (1u << 1)

static int
fsdp_spans(const struct pr_trace *t, struct pr_whatif_acc *a)
{
    const char *const *fsdp = fsdp_kind;

    if (a->fsdp_done)
        return 1;
    a->fsdp_done = 1;
    if (!range_spans(t, fsdp, &a->fsdp, &a->n_fsdp, &a->fsdp_max)) {
        a->failed = 1;
        return 0;
    }
    if (a->n_fsdp > 1)
        qsort(a->fsdp, a->n_fsdp, sizeof(*a->fsdp), cmp_span);
    return 1;
}

/* Whether n's operator ran inside one of FSDP's ranges on its thread:
 * 0 if not, else a bit (1 << k, fsdp_kind[k]) for each kind of range
 * that holds it. */
static unsigned
under_fsdp(const struct pr_trace *t, const struct pr_cp_node *n,
           struct pr_whatif_acc *a)
{
    const struct pr_event *op;
    size_t i, lo, hi, k;
    unsigned kinds = 0;

    if (!fsdp_spans(t, a) || a->n_fsdp == 0 || n->op_ev == PR_CP_NONE ||
        n->op_ev >= t->n_events)
        return 0;
    op = &t->events[n->op_ev];
    /* the ranges by start: the last one starting at or before the
       operator, back to those that could still hold it (the longest
       range's span earlier) */
    lo = 0;
    hi = a->n_fsdp;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (a->fsdp[mid].s <= op->ts_ns)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (i = lo; i-- > 0 && a->fsdp[i].s >= op->ts_ns - a->fsdp_max;) {
        const char *name = pr_trace_str(t, a->fsdp[i].name);

        if (op->ts_ns >= a->fsdp[i].e ||
            pr_event_tid(t, op) != a->fsdp[i].tid ||
            pr_event_pid(t, op) != a->fsdp[i].pid)
            continue;
        for (k = 0; fsdp_kind[k] != NULL &&
                    strncmp(name, fsdp_kind[k], strlen(fsdp_kind[k])) != 0;
             k++)
            ;
        kinds |= fsdp_kind[k] != NULL ? 1u << k : 1u;
    }
    return kinds;
}

/* Count a launch call n on the path (all of its time taken off) in
 * all_ns, and in sub_ns when the host issued it inside an optimizer's
 * step: its operator's enqueue for a task queue's launch (torch_npu's:
 * the queue thread calls later, outside the range), else the call. */
static void
in_optimizer(const struct pr_trace *t, const struct pr_cp_graph *g,
             const struct pr_cp_node *n, struct pr_whatif_acc *a)
{
    int64_t at = n->s;
    size_t i, best = 0;

    a->all_ns[PR_WHATIF_LAUNCH] =
        pr_sat_add_i64(a->all_ns[PR_WHATIF_LAUNCH], n->dur);
    if (!optimizer_spans(t, a) || a->n_opt == 0)
        return;
    if (n->corr_task != PR_CP_NONE && n->corr_task < g->n &&
        g->v[n->corr_task].enq_s != INT64_MIN)
        at = g->v[n->corr_task].enq_s;
    for (i = 0; i < a->n_opt; i++) {
        if (at >= a->opt[i].s && at < a->opt[i].e) {
            a->opt[i].ns = pr_sat_add_i64(a->opt[i].ns, n->dur);
            a->sub_ns[PR_WHATIF_LAUNCH] =
                pr_sat_add_i64(a->sub_ns[PR_WHATIF_LAUNCH], n->dur);
            break;
        }
    }
    for (i = 1; i < a->n_opt; i++)
        if (a->opt[i].ns > a->opt[best].ns)
            best = i;
    if (a->opt[best].ns > 0)
        a->sub_name[PR_WHATIF_LAUNCH] = a->opt[best].name;
}

/* CUDA graphs: the calls that put work on a stream take no time, and no
 * task waits for its launch.  A launch that pays a first-use cost
 * (cold_call: lazy module loading, a context's set-up) keeps it: a graph
 * is captured after those, so that cost is cold_step's, not a launch's
 * (review-2 finding 1: nsys mock.sqlite's two first launches of 17.8 ms
 * read as launch-bound).  The evidence names the calls, and the waits of
 * tasks after their launch as LAUNCH_DELAY, never under a task's name. */
static int
apply_launch(const struct pr_trace *t, struct pr_cp_graph *g,
             struct pr_whatif_acc *a)
{
    int any = 0;
    size_t i;
    int64_t median = host_median(g, a);

    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];

        if (n->type == PR_CP_N_HOST &&
            (n->kind == PR_CP_COMPILE || n->dur_compile > 0 ||
             pr_cp_is_aclop(node_str(t, n))))
            continue; /* compilation, or the aclop path: op_compile's */
        if (n->type == PR_CP_N_HOST &&
            (n->corr_task != PR_CP_NONE || has(node_str(t, n), "EventRecord") ||
             has(node_str(t, n), "StreamWaitEvent"))) {
            if (cold_call(n, median))
                continue;
            evidence(a, PR_WHATIF_LAUNCH, n->on_path, n->name, n->dur);
            if (n->on_path && n->dur > 0)
                in_optimizer(t, g, n, a);
            any |= n->dur > 0;
            n->dur = 0;
        } else if (is_task(n) && n->w_kind == PR_CP_LAUNCH && n->w > 0) {
            /* the part before its call returned is the call's, in the
               call's evidence above; the delay counts from the return,
               as the path books it (nsys_mock: cudaMemcpyAsync 589.5 us
               and a delay of 609.9 us that held those 589.5 again) */
            evidence(a, PR_WHATIF_LAUNCH, n->on_path, LAUNCH_DELAY,
                     n->w - pr_cp_call_own(g, n));
            n->w = 0;
            any = 1;
        }
    }
    return any;
}

/* Scale the data loader's pieces of an edge by k (0: gone), and with
 * python 1 (twice the batch) the host's work outside operators too:
 * Python code of unknown cost per sample is taken to grow with the batch,
 * not to stay; python 2 (accumulation): every piece.  The change of the
 * edge's weight. */
static int64_t
scale_loader(struct pr_cp_graph *g, uint32_t first, uint32_t n, int k,
             int python, uint32_t *name)
{
    int64_t d = 0;
    uint32_t i;

    for (i = 0; i < n; i++) {
        struct pr_cp_piece *p = &g->pc[first + i];

        if (p->kind != PR_CP_DATALOADER && python != 2 &&
            !(python && p->kind == PR_CP_HOST_OP && p->name == PR_STR_NONE))
            continue;
        d += p->ns * (k - 1);
        p->ns *= k;
        if (p->kind == PR_CP_DATALOADER)
            *name = p->name;
    }
    return d;
}

/* Which host pieces a scenario scales with the data loader's. */
static int
python_of(enum pr_whatif s)
{
    return s == PR_WHATIF_BATCH ? 1 : s == PR_WHATIF_ACCUM ? 2 : 0;
}

static int
apply_loader(struct pr_cp_graph *g, struct pr_whatif_acc *a, enum pr_whatif s,
             int k)
{
    int any = 0;
    size_t i;

    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];
        uint32_t name = PR_STR_NONE;
        int64_t d;

        if ((n->type != PR_CP_N_HOST && n->type != PR_CP_N_SYNC) ||
            n->n_pred == 0)
            continue;
        d = scale_loader(g, n->pc_first, n->pc_n, k, python_of(s), &name);
        n->pw[0] += d;
        if (k == 0)
            evidence(a, s, n->on_path, name, -d);
        any |= d != 0;
    }
    for (i = 0; i < g->n_end; i++) {
        uint32_t name = PR_STR_NONE;
        int64_t d = scale_loader(g, g->end_pc_first[i], g->end_pc_n[i], k,
                                 python_of(s), &name);

        g->end_w[i] += d;
        if (k == 0)
            evidence(a, s, (uint32_t)i == g->end_bind, name, -d);
        any |= d != 0;
    }
    return any;
}

/* A copy between the host and pageable memory (CUPTI's "Memcpy HtoD
 * (Pageable -> Device)"). */
static int
pageable(const struct pr_trace *t, const struct pr_cp_node *n)
{
    return is_task(n) && n->kind == PR_CP_COPY &&
           has(node_str(t, n), "Pageable");
}

static int
host_to_device(const struct pr_trace *t, const struct pr_cp_node *n)
{
    struct pr_gpu_info gb;
    const struct pr_gpu_info *gi = pr_trace_gpu(t, &t->events[n->ev], &gb);

    if (gi != NULL && gi->copy_dir != PR_DIR_UNKNOWN)
        return gi->copy_dir == PR_DIR_H2D;
    return has(node_str(t, n), "HtoD");
}

/* A copy of a few bytes (64 or fewer, known): a scalar the step makes and
 * sends (a Python number, a loss scale), which no prefetch a step ahead
 * can send before it exists; copy_bound leaves it where it ran, the
 * host_sync finding speaks of it (review-2 finding 12: nsys mfu_2gpu's
 * 8-byte copies read "copies prefetched: 11.3%" from 11.8 us of copies). */
static int
scalar_copy(const struct pr_trace *t, const struct pr_cp_node *n)
{
    struct pr_gpu_info gb;
    const struct pr_gpu_info *gi = pr_trace_gpu(t, &t->events[n->ev], &gb);

    return gi != NULL && gi->bytes >= 0 && gi->bytes <= 64;
}

/* Pageable copies at the host link's speed (never slower than they ran):
 * the time pinned memory saves them. */
static int
copies_at_link(const struct pr_trace *t, struct pr_cp_graph *g,
               const struct pr_whatif_in *in)
{
    int any = 0;
    size_t i;

    if (in == NULL || !(in->link_gbps > 0))
        return 0;
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];
        struct pr_gpu_info gb;
        const struct pr_gpu_info *gi;
        double ns;

        if (!pageable(t, n))
            continue;
        gi = pr_trace_gpu(t, &t->events[n->ev], &gb);
        if (gi == NULL || gi->bytes <= 0)
            continue;
        ns = (double)gi->bytes / in->link_gbps; /* GB/s = bytes/ns */
        if (ns < (double)n->dur) {
            n->dur = (int64_t)ns;
            any = 1;
        }
    }
    return any;
}

/* Blocking calls no longer wait for the device: *Synchronize calls
 * (copies 0), or host-to-device copies (copies 1: pinned and
 * non_blocking; a copy to the host still blocks, its data is needed). */
static int
apply_unblock(const struct pr_trace *t, struct pr_cp_graph *g,
              const struct pr_whatif_in *in, struct pr_whatif_acc *a,
              enum pr_whatif s)
{
    int copies = s != PR_WHATIF_SYNC;
    int any = copies ? copies_at_link(t, g, in) : 0;
    size_t i;
    int j;

    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];
        int sync;

        if (n->type != PR_CP_N_SYNC || n->ev == PR_CP_NONE)
            continue;
        sync = has(node_str(t, n), "Synchroniz");
        if (sync == copies)
            continue;
        if (copies &&
            (n->corr_task == PR_CP_NONE ||
             !host_to_device(t, &g->v[n->corr_task]) ||
             (s == PR_WHATIF_COPYBOUND && scalar_copy(t, &g->v[n->corr_task]))))
            continue;
        for (j = 0; j < n->n_pred; j++) {
            if (!n->p_end[j] || n->pw[j] == GONE)
                continue;
            n->pw[j] = GONE;
            evidence(a, s, n->on_path, ev_name(t, n), n->e - n->s - n->dur);
            any = 1;
        }
    }
    return any;
}

static int
is_comm(const struct pr_cp_node *n)
{
    return (n->type == PR_CP_N_TASK || n->type == PR_CP_N_CARRY) &&
           n->kind == PR_CP_COMM;
}

/* A point-to-point transfer (NCCL's SendRecv, Send and Recv kernels,
 * HCCL's hcom_send and hcom_receive, MindSpore's Send and Receive ops):
 * pipeline stages' activations and gradients, data the next work needs,
 * and most of its time is waiting for the peer stage.  Overlapping it
 * with compute is not a change one rank can make; balancing the stages
 * is. */
static int
is_p2p(const struct pr_trace *t, const struct pr_cp_node *n)
{
    const char *s = node_str(t, n);

    return has(s, "SendRecv") || has(s, "Kernel_Send") ||
           has(s, "Kernel_Recv") || has(s, "hcom_send") ||
           has(s, "hcom_receive") || strncmp(s, "Send", 4) == 0 ||
           strncmp(s, "Receive", 7) == 0 || has(s, "/Send-op") ||
           has(s, "/Receive-op");
}

/* A collective the overlap leaves where it is: a point-to-point transfer
 * (is_p2p), or the capture's start-up collective that the communication
 * finding leaves out (recommend.c's rule_categories sets in->startup_ev
 * from pr_producer_startup_coll): a one-time wait for the peers to join,
 * which no overlap of this rank's compute shortens (review 24: on
 * kernel_details_910B_v1.csv the replay's "<= 152 ms" named
 * hcom_broadcast__445_0, 308.9 ms, first in its evidence; the gain itself
 * never held it: every later collective waits for it on its
 * communicator). */
static int
stays(const struct pr_trace *t, const struct pr_whatif_in *in,
      const struct pr_cp_node *n)
{
    return is_p2p(t, n) ||
           (in != NULL && n->ev != PR_CP_NONE && n->ev == in->startup_ev);
}

/* A task a change moves off its stream's order: a collective (comm,
 * point-to-point and the start-up collective apart: stays) or a copy
 * from the host (prefetch). */
static int
moved(const struct pr_trace *t, const struct pr_whatif_in *in,
      const struct pr_cp_node *n, enum pr_whatif s)
{
    if (s == PR_WHATIF_COMM)
        return is_comm(n) && !stays(t, in, n);
    return is_task(n) && n->kind == PR_CP_COPY && host_to_device(t, n) &&
           !scalar_copy(t, n);
}

/* Node n no longer waits for the moved task behind its edge j.  A task's
 * edge 0 from a task is its stream's order: it then waits for the last
 * task before the moved ones on its stream (the order of the work that
 * stays is kept; the moved work runs beside it); any other edge goes. */
static void
bypass(const struct pr_trace *t, const struct pr_whatif_in *in,
       struct pr_cp_graph *g, struct pr_cp_node *n, int j, enum pr_whatif s)
{
    uint32_t x = n->pred[j];

    if (j == 0 && is_task(n)) {
        while (moved(t, in, &g->v[x], s) && is_task(&g->v[x]) &&
               g->v[x].n_pred > 0 &&
               (is_task(&g->v[g->v[x].pred[0]]) ||
                g->v[g->v[x].pred[0]].type == PR_CP_N_CARRY))
            x = g->v[x].pred[0];
        if (!moved(t, in, &g->v[x], s)) {
            n->pred[j] = x;
            n->pw[j] = 0;
            return;
        }
        x = n->pred[j];
    }
    /* a moved collective that waited, collective after collective, for
       one that stays (a capture's start-up broadcast) passes that wait
       on: n still waits for the one that stays.  kernel_details_910B_v1:
       the compute after hcom_broadcast__445_0 waited for it through the
       63 us hcom_broadcast__445_1; freed from that, it replayed from 3 ms
       in beside the 309 ms broadcast whose parameters it needs, and the
       overlap's "at most 152 ms" was mostly the path's unexplained idle
       moved off it (114 of its 122.5 ms idle stay now: at most 42.7 ms,
       the steady collectives and the waits for them) */
    if (s == PR_WHATIF_COMM) {
        int hops = 0;

        while (moved(t, in, &g->v[x], s) && g->v[x].bind < g->v[x].n_pred &&
               !g->v[x].p_end[g->v[x].bind] &&
               g->v[x].pw[g->v[x].bind] != GONE && hops++ < 64 &&
               is_comm(&g->v[g->v[x].pred[g->v[x].bind]]))
            x = g->v[x].pred[g->v[x].bind];
        if (!moved(t, in, &g->v[x], s) && is_comm(&g->v[x]) &&
            stays(t, in, &g->v[x])) {
            n->pred[j] = x;
            n->pw[j] = 0;
            n->p_start[j] = 0;
            return;
        }
    }
    n->pw[j] = GONE;
}

/* Communication overlapped: nothing but communication waits for a
 * collective, and no task waits for peers; collectives keep their time
 * and their order.  Point-to-point transfers stay as they are (is_p2p).
 * The work that starts after the step's last collective has ended
 * consumes what the collectives produced (the optimizer after the
 * gradients' last all-reduce): it keeps waiting (review 7 finding 3: on
 * torch_npu's text_level1 the replay's 3.0 ms was the optimizer,
 * aclnnForeachAddList and ForeachMul, freed from the reduced gradients
 * it reads). */
static int
apply_comm(const struct pr_trace *t, struct pr_cp_graph *g,
           const struct pr_whatif_in *in, struct pr_whatif_acc *a)
{
    int any = 0;
    int64_t last = INT64_MIN; /* the last collective's measured end */
    size_t i;
    int j;

    for (i = 0; i < g->n; i++) {
        if (is_comm(&g->v[i]) && !stays(t, in, &g->v[i]) && g->v[i].e > last)
            last = g->v[i].e;
    }
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];

        if (is_comm(n)) {
            if (!stays(t, in, n))
                evidence(a, PR_WHATIF_COMM, n->on_path, n->name, n->dur);
            continue;
        }
        if (n->type != PR_CP_N_START && n->s >= last)
            continue; /* a consumer of the collectives' output */
        for (j = 0; j < n->n_pred; j++) {
            if (moved(t, in, &g->v[n->pred[j]], PR_WHATIF_COMM) &&
                n->pw[j] != GONE) {
                bypass(t, in, g, n, j, PR_WHATIF_COMM);
                any = 1;
            }
        }
        if (is_task(n) && n->w_kind == PR_CP_COMM && n->w > 0 &&
            !stays(t, in, n) &&
            !(n->bind < n->n_pred && stays(t, in, &g->v[n->pred[n->bind]]))) {
            evidence(a, PR_WHATIF_COMM, n->on_path, ev_name(t, n), n->w);
            n->w = 0;
            any = 1;
        }
    }
    return any;
}

/* Copies from the host prefetched (copy_bound): pinned and non_blocking
 * as pageable_copies, and on a side stream a step ahead, so nothing but
 * another copy waits for a host-to-device copy.  Evidence: the copies on
 * the path. */
static int
apply_prefetch(const struct pr_trace *t, struct pr_cp_graph *g,
               const struct pr_whatif_in *in, struct pr_whatif_acc *a)
{
    int any = apply_unblock(t, g, in, a, PR_WHATIF_COPYBOUND);
    size_t i;
    int j;

    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];

        if (is_task(n) && n->kind == PR_CP_COPY) {
            if (host_to_device(t, n) && !scalar_copy(t, n))
                evidence(a, PR_WHATIF_COPYBOUND, n->on_path, ev_name(t, n),
                         n->dur);
            continue;
        }
        for (j = 0; j < n->n_pred; j++) {
            if (moved(t, in, &g->v[n->pred[j]], PR_WHATIF_COPYBOUND) &&
                n->pw[j] != GONE) {
                bypass(t, in, g, n, j, PR_WHATIF_COPYBOUND);
                any = 1;
            }
        }
    }
    return any;
}

static int
cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

    return (a > b) - (a < b);
}

/* The lower median of the step's runtime call times (a warm call's), or
 * -1 when it has none (or out of memory: a->failed). */
static int64_t
host_median(struct pr_cp_graph *g, struct pr_whatif_acc *a)
{
    size_t i, n = 0;

    for (i = 0; i < g->n; i++)
        n += g->v[i].type == PR_CP_N_HOST;
    if (n == 0)
        return -1;
    if (n > a->cap_durs) {
        int64_t *v = realloc(a->durs, n * sizeof(*v));

        if (v == NULL) {
            a->failed = 1;
            return -1;
        }
        a->durs = v;
        a->cap_durs = n;
    }
    n = 0;
    for (i = 0; i < g->n; i++) {
        if (g->v[i].type == PR_CP_N_HOST)
            a->durs[n++] = g->v[i].dur;
    }
    qsort(a->durs, n, sizeof(*a->durs), cmp_i64);
    return a->durs[(n - 1) / 2];
}

/* A runtime call that pays a first-use cost: PR_WHATIF_COLD_CALL_NS or
 * more while the step's median call is under it (when every call is that
 * slow, none stands out as a first use). */
static int
cold_call(const struct pr_cp_node *c, int64_t median)
{
    return c->type == PR_CP_N_HOST && c->dur >= PR_WHATIF_COLD_CALL_NS &&
           median >= 0 && median < PR_WHATIF_COLD_CALL_NS;
}

/* Allocator churn (hunt30 #3): the release or allocation call (cudaFree,
 * hipFree, cudaMalloc, hipMalloc) with the most runtime calls of
 * PR_WHATIF_COLD_CALL_NS or more, when such calls fall in every
 * iteration after the first of three or more: the caching allocator
 * returns memory and takes it again every iteration
 * (PYTORCH_NO_CUDA_MEMORY_CACHING, empty_cache(), memory pressure;
 * c10/cuda/CUDACachingAllocator.cpp), not a first use.  Iterations end
 * where ProfilerStep ranges do, else torch.optim's Optimizer.step ranges.
 * a->churn_per_iter: those calls per iteration.  PR_STR_NONE: none. */
static uint32_t
churn_of(const struct pr_trace *t, struct pr_whatif_acc *a)
{
    static const char *const stepp[] = {"ProfilerStep#", NULL};
    struct opt_span *sp = NULL;
    size_t n_sp = 0, i, k, it, n_names = 0, calls = 0;
    uint32_t names[8];
    size_t counts[8] = {0};
    unsigned char *hit = NULL;
    int64_t max = 0;
    const struct opt_span *b;
    size_t nb;

    if (a->churn_done)
        return a->churn_name;
    a->churn_done = 1;
    a->churn_name = PR_STR_NONE;
    if (!range_spans(t, stepp, &sp, &n_sp, &max)) {
        free(sp);
        a->failed = 1;
        return PR_STR_NONE;
    }
    if (n_sp >= 3) {
        b = sp;
        nb = n_sp;
    } else if (optimizer_spans(t, a) && a->n_opt >= 3) {
        b = a->opt;
        nb = a->n_opt;
    } else {
        free(sp);
        return PR_STR_NONE;
    }
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const char *name = pr_trace_str(t, e->name);

        if (e->kind != PR_KIND_RUNTIME_CALL ||
            e->dur_ns < PR_WHATIF_COLD_CALL_NS ||
            (strstr(name, "Free") == NULL && strstr(name, "Malloc") == NULL))
            continue;
        for (k = 0; k < n_names && names[k] != e->name; k++)
            ;
        if (k == n_names && n_names < 8)
            names[n_names++] = e->name;
        if (k < n_names)
            counts[k]++;
    }
    for (i = k = 0; i < n_names; i++)
        if (counts[i] > counts[k])
            k = i;
    hit = n_names > 0 ? calloc(nb, 1) : NULL;
    if (n_names > 0 && hit == NULL)
        a->failed = 1;
    for (i = 0; hit != NULL && i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind != PR_KIND_RUNTIME_CALL || e->name != names[k] ||
            e->dur_ns < PR_WHATIF_COLD_CALL_NS)
            continue;
        for (it = 0; it < nb && e->ts_ns >= b[it].e; it++)
            ;
        if (it < nb) { /* not after the last iteration's end */
            hit[it] = 1;
            calls++;
        }
    }
    for (it = 1; hit != NULL && it < nb && hit[it]; it++)
        ;
    if (hit != NULL && it == nb) {
        a->churn_name = names[k];
        a->churn_per_iter = (double)calls / (double)nb;
    }
    free(hit);
    free(sp);
    return a->churn_name;
}

/* 1 when the trace records a CUDA/HIP stream capture (hunt30 #6): a
 * graph capture, one-time warm-up, whose batch replays would spread its
 * one-time work over twice the samples (hostdev.c's graph_captures). */
static int
captures_graphs(const struct pr_trace *t)
{
    size_t i;

    for (i = 0; i < t->n_events; i++)
        if ((t->events[i].kind == PR_KIND_RUNTIME_CALL ||
             t->events[i].kind == PR_KIND_DRIVER_CALL) &&
            strstr(pr_trace_str(t, t->events[i].name), "StreamBeginCapture") !=
                NULL)
            return 1;
    return 0;
}

/* 1 when the churn call is the cold_step replay's largest evidence. */
static int
churn_in_evidence(const struct pr_whatif_acc *a)
{
    size_t i, best = 0;

    for (i = 1; i < PR_WHATIF_EV; i++)
        if (a->ev[PR_WHATIF_COLD][i].ns > a->ev[PR_WHATIF_COLD][best].ns)
            best = i;
    return a->ev[PR_WHATIF_COLD][best].ns > 0 &&
           a->ev[PR_WHATIF_COLD][best].name == a->churn_name;
}

/* The steady state (cold_step): the cold calls take the step's median
 * runtime call time (their first-use cost gone), and the task such a
 * call launched waits that much less (at most its wait).  Evidence (ev
 * 1): the calls themselves; ev 0 where the warm step is only the base of
 * another change (twice the batch, accumulation: warm_first). */
static int
apply_cold(const struct pr_trace *t, struct pr_cp_graph *g,
           struct pr_whatif_acc *a, int ev)
{
    size_t i;
    int64_t median = host_median(g, a);
    int any = 0;

    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *c = &g->v[i];

        /* an aclop call is the aclop path's whether or not it compiled
           (op_compile's, as in apply_launch): on torch_npu's
           torch_npu_ascend_profiler_output a 1.1 ms aclopCompileAndExecute
           whose opCompile step is a 14 us lookup is no first-use cost */
        if (!cold_call(c, median) || c->kind == PR_CP_COMPILE ||
            c->dur_compile > 0 || pr_cp_is_aclop(node_str(t, c)))
            continue;
        /* allocator churn is no first use, but the steady state a caching
           allocator restores: the replay takes it off all the same, and
           the row says it recurs (recurring_calls) */
        if (!ev && churn_of(t, a) != PR_STR_NONE && c->name == a->churn_name)
            continue;
        /* as the base of a batch change (ev 0), a call that issued a copy
           is the copy's bytes (pageable staging), which grow with the
           batch, not a first use: tb_resnet50's input cudaMemcpyAsync,
           about 2 ms in every step */
        if (!ev && c->corr_task != PR_CP_NONE &&
            g->v[c->corr_task].kind == PR_CP_COPY)
            continue;
        if (ev)
            evidence(a, PR_WHATIF_COLD, c->on_path, c->name, c->dur - median);
        if (c->corr_task != PR_CP_NONE) {
            /* its task waited for the call to enqueue it, whatever edge
               binds the wait */
            struct pr_cp_node *k = &g->v[c->corr_task];

            k->w = k->w > c->dur - median ? k->w - (c->dur - median) : 0;
        }
        c->dur = median;
        any = 1;
    }
    return any;
}

/* Twice the batch and accumulation change the batch: a first-use cost
 * (cold_step's calls) is paid once, however many samples follow, so they
 * replay on the warm step, as they leave a capture's lead-in out (review
 * 27 #8: alexnet's "twice the batch saves 49.9%" was its 42.2 s of
 * cold start spread over twice the samples). */
static int
warm_first(int s)
{
    return s == PR_WHATIF_BATCH || s == PR_WHATIF_ACCUM;
}

/* CANN's online compilation (op_compile): the calls that compile an
 * operator for its shapes (aclopCompileAndExecute, aclopCompile) take the
 * step's median runtime call time, their tasks wait that much less, and a
 * task's wait no edge explains (idle) loses the part of it that falls
 * inside such a call: the device waited for the host to compile
 * (review-2 finding 4: torch_npu_ascend_profiler_output's 11 calls of
 * 6.6 ms, 5.0 ms of them in device-idle gaps the path called "no recorded
 * cause").  Evidence: the calls, by operator. */
static int
apply_compile(const struct pr_trace *t, struct pr_cp_graph *g,
              struct pr_whatif_acc *a)
{
    int64_t median = -1;
    size_t i, n = 0;
    int any = 0;

    for (i = 0; i < g->n; i++)
        n += g->v[i].type == PR_CP_N_HOST &&
             (g->v[i].kind == PR_CP_COMPILE || g->v[i].dur_compile > 0);
    if (n == 0)
        return 0;
    /* the opCompile steps inside aclop calls go; the rest of each call
       (the aclop execution path) stays: caching does not remove it
       (review-5 finding 2) */
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *c = &g->v[i];
        int64_t d = c->dur_compile;

        if (c->type != PR_CP_N_HOST || c->kind == PR_CP_COMPILE || d <= 0)
            continue;
        evidence(a, PR_WHATIF_COMPILE, c->on_path, ev_name(t, c), d);
        c->dur -= d; /* the device's wait in it: w_compile, below */
        c->dur_compile = 0;
        any = 1;
    }
    median = host_median(g, a);
    if (median < 0)
        return 0;
    /* the idle inside a compile step first (critpath.c's w_compile: a
       compile call, or an aclop call's opCompile step), while the calls
       keep their times */
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *q = &g->v[i];
        int64_t d;

        if (!is_task(q) || q->w_compile <= 0)
            continue; /* critpath.c's compile_waits found none inside */
        d = q->w_compile < q->w ? q->w_compile : q->w;
        evidence(a, PR_WHATIF_COMPILE, q->on_path, ev_name(t, q), d);
        q->w -= d;
        q->w_compile = 0;
        any |= d > 0;
    }
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *c = &g->v[i];
        int64_t d;

        if (c->type != PR_CP_N_HOST || c->kind != PR_CP_COMPILE ||
            c->dur <= median)
            continue;
        d = c->dur - median;
        evidence(a, PR_WHATIF_COMPILE, c->on_path, ev_name(t, c), d);
        if (c->corr_task != PR_CP_NONE) {
            struct pr_cp_node *q = &g->v[c->corr_task];

            q->w = q->w > d ? q->w - d : 0;
        }
        c->dur = median;
        any = 1;
    }
    return any;
}

/* The operator-level sum of kernel time of node n (added when absent). */
static struct opsum *
opsum_of(struct pr_whatif_acc *a, uint32_t op_ev, struct pr_error *err)
{
    size_t i = pr_idmap_get(&a->opix, op_ev);

    if (i != PR_NONE)
        return &a->ops[i];
    if (a->n_ops == a->cap_ops) {
        size_t c = a->cap_ops ? 2 * a->cap_ops : 64;
        struct opsum *v = realloc(a->ops, c * sizeof(*v));

        if (v == NULL) {
            a->failed = 1;
            return NULL;
        }
        a->ops = v;
        a->cap_ops = c;
    }
    if (pr_idmap_put(&a->opix, op_ev, a->n_ops, err) != PR_OK) {
        a->failed = 1;
        return NULL;
    }
    a->ops[a->n_ops].ns = 0;
    a->ops[a->n_ops].cap_ns = -1;
    return &a->ops[a->n_ops++];
}

/* Does a rule's pick name node n's operator (s: MEMBOUND, ALIGN) or the
 * kernel itself (OCCUPANCY, CASTS)?  Its factor, or 0 when it does not. */
static double
picked(const struct pr_trace *t, const struct pr_cp_node *n,
       const struct pr_whatif_in *in, enum pr_whatif s)
{
    size_t i;

    for (i = 0; in != NULL && i < in->n_picks; i++) {
        const struct pr_whatif_pick *p = &in->picks[i];

        if (p->s != s)
            continue;
        if (p->kernel != NULL) {
            if (strcmp(p->kernel, node_str(t, n)) == 0)
                return isnan(p->factor) ? 1.0 : p->factor;
            continue;
        }
        if (p->op != NULL && n->op_ev != PR_CP_NONE) {
            const struct pr_event *o = &t->events[n->op_ev];
            struct pr_op_info buf;
            const struct pr_op_info *oi = pr_trace_op(t, o, &buf);
            const char *dims = oi != NULL && oi->input_dims != PR_STR_NONE
                                   ? pr_trace_str(t, oi->input_dims)
                                   : "[]";

            if (strcmp(p->op, pr_trace_str(t, o->name)) == 0 &&
                (p->shapes == NULL || strcmp(p->shapes, dims) == 0))
                return isnan(p->factor) ? 1.0 : p->factor;
        }
    }
    return 0.0;
}

/* A GEMM or convolution kernel: by the kernel table, or by its name's
 * words where no rule names it (a library the table does not know). */
static int
gemm_or_conv(const struct pr_trace *t, const struct pr_cp_node *n)
{
    enum pr_cp_family f = (enum pr_cp_family)n->fam;

    if (f == PR_CP_FAM_UNKNOWN)
        f = pr_cp_family_of(node_str(t, n));
    return f == PR_CP_FAM_GEMM || f == PR_CP_FAM_CONV;
}

/* A kernel an operator not eligible launched (a torch.compile graph's
 * CompiledFunction) that the kernel table calls an fp32 GEMM or
 * convolution on CUDA cores (issue #28): AMP or TF32 moves it onto
 * tensor cores all the same. */
static int
by_name(struct pr_whatif_acc *a, const struct pr_trace *t,
        const struct pr_cp_node *n)
{
    if (a->names.t != t) {
        pr_names_free(&a->names);
        pr_names_init(&a->names, t);
    }
    return (pr_names_get(&a->names, n->name) & PR_NAME_GEMM_FP32_SIMT) != 0;
}

/* The kernels a tensor-core change applies to: GEMM or convolution
 * kernels off tensor cores of eligible operators in fp32 (AMP, TF32) that
 * are no GEMV (op_gemv),
 * or any kernel off tensor cores of the operators a rule named
 * (ALIGN). */
static int
tc_target(const struct pr_trace *t, struct pr_whatif_acc *a,
          const struct pr_cp_node *n, const struct pr_whatif_in *in,
          enum pr_whatif s, struct pr_error *err)
{
    if (!is_task(n) || n->kind != PR_CP_KERNEL || n->op_ev == PR_CP_NONE ||
        uses_tc(a, t, n, err))
        return 0;
    if (s == PR_WHATIF_ALIGN)
        return picked(t, n, in, s) > 0;
    return gemm_or_conv(t, n) && !op_gemv(a, t, n, err) &&
           (op_eligible(a, t, n, err) || by_name(a, t, n));
}

/* Tensor cores for the target kernels: each operator call's target
 * kernels take ratio of their time, never less than the call's bytes at
 * the memory roof (halved by AMP's fp16).  Operators whose inputs are not
 * fp32 are left alone by AMP and TF32 (already 16-bit: their reason lies
 * elsewhere). */
static int
apply_tc(const struct pr_trace *t, struct pr_cp_graph *g,
         const struct pr_whatif_in *in, struct pr_whatif_acc *a,
         enum pr_whatif s, struct pr_error *err)
{
    double ratio = in == NULL            ? NAN
                   : s == PR_WHATIF_TF32 ? in->tf32_ratio
                                         : in->amp_ratio;
    int any = 0;
    size_t i;

    if (!(ratio > 0 && ratio < 1))
        return 0;
    pr_idmap_free(&a->opix);
    a->n_ops = 0;
    for (i = 0; i < g->n && !a->failed; i++) {
        struct opsum *o;

        if (!tc_target(t, a, &g->v[i], in, s, err))
            continue;
        o = opsum_of(a, g->v[i].op_ev, err);
        if (o != NULL)
            o->ns += g->v[i].dur;
    }
    for (i = 0; i < g->n && !a->failed; i++) {
        struct pr_cp_node *n = &g->v[i];
        struct opsum *o;
        double f;
        int64_t was = n->dur;

        if (!tc_target(t, a, n, in, s, err))
            continue;
        o = opsum_of(a, n->op_ev, err);
        if (o == NULL || o->ns <= 0)
            continue;
        if (o->cap_ns < 0 && s != PR_WHATIF_ALIGN &&
            !op_eligible(a, t, n, err)) {
            /* eligible by the kernel's name: the kernel says fp32, and
               its operator's inputs (a compiled graph's) are not its
               bytes: the ratio alone */
            o->cap_ns = NAN;
        } else if (o->cap_ns < 0) {
            double bytes;
            enum pr_dtype dt;

            op_cost(a, t, n->op_ev, &bytes, &dt);
            if (s != PR_WHATIF_ALIGN && dt != PR_DT_FP32 &&
                dt != PR_DT_UNKNOWN) {
                o->cap_ns = INFINITY; /* not an fp32 op: no change */
            } else {
                if (s == PR_WHATIF_AMP && bytes > 0)
                    bytes /= 2; /* fp32 -> fp16 */
                o->cap_ns = bytes > 0 && in->peak_gbps > 0
                                ? bytes / in->peak_gbps
                                : NAN;
            }
        }
        f = ratio;
        if (isfinite(o->cap_ns) && o->cap_ns / (double)o->ns > f)
            f = o->cap_ns / (double)o->ns;
        if (isinf(o->cap_ns) || f >= 1.0)
            continue;
        n->dur = (int64_t)((double)n->dur * f);
        evidence(a, s, n->on_path, ev_name(t, n), was - n->dur);
        any = 1;
    }
    return any;
}

/* Whether the step's path waits for another rank (a collective whose
 * own Notify Wait tasks span most of it, critpath.c peer_waits).  Twice
 * the batch and gradient accumulation are not replayed on such a step
 * (review 8 #5): every rank makes them, the late one too, and how its
 * lateness changes with twice its work is not in this trace; keeping the
 * wait as measured would spread it over twice the samples (npu_text1
 * rank 0's 39.3% "per step's worth of samples" was mostly its 79 ms
 * wait halved), and dropping it would assume the late rank on time.
 * docs/critical-path.md states the one assumption for every lever. */
static int
waits_for_peer(const struct pr_cp_graph *g)
{
    size_t i;

    for (i = 0; i < g->n; i++) {
        if (g->v[i].peer && g->v[i].on_path)
            return 1;
    }
    return 0;
}

/* Twice the batch: device compute and copies, the data loader and the
 * host's work outside operators take twice as long; collectives
 * (gradients do not grow with the batch) and the operators' dispatch on
 * the host stay.  Evidence: the host work on the path that
 * the larger batch spreads over twice the samples. */
static int
apply_batch(const struct pr_trace *t, struct pr_cp_graph *g,
            struct pr_whatif_acc *a)
{
    int any = 0;
    int64_t fixed = 0; /* work on the path the batch does not grow */
    size_t i;
    uint32_t k;

    if (waits_for_peer(g))
        return 0;
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];

        /* a pipeline's point-to-point transfers carry activations: they
           grow with the batch, collectives of gradients do not */
        if (is_task(n) && (n->kind == PR_CP_KERNEL || n->kind == PR_CP_COPY ||
                           (is_comm(n) && is_p2p(t, n)))) {
            n->dur = pr_sat_add_i64(n->dur, n->dur);
            any = 1;
            continue;
        }
        if (!n->on_path)
            continue;
        if (is_comm(n) && n->dur > 0) {
            evidence(a, PR_WHATIF_BATCH, 1, n->name, n->dur);
            fixed += n->dur;
        } else if (n->type == PR_CP_N_HOST && n->n_pred > 0 && n->bind == 0) {
            /* the operators' dispatch before the call, and the call */
            for (k = 0; k < n->pc_n; k++) {
                const struct pr_cp_piece *p = &g->pc[n->pc_first + k];

                if (p->kind == PR_CP_HOST_OP && p->name != PR_STR_NONE) {
                    evidence(a, PR_WHATIF_BATCH, 1, p->name, p->ns);
                    fixed += p->ns;
                }
            }
            evidence(a, PR_WHATIF_BATCH, 1, ev_name(t, n), n->dur);
            fixed += n->dur;
        }
    }
    if (fixed <= 0)
        return 0; /* nothing on the path stays: no gain to claim */
    any |= apply_loader(g, a, PR_WHATIF_BATCH, 2);
    return any;
}

/* Gradient accumulation over two micro-batches: all the step's work
 * happens twice, point-to-point transfers and their waits for the peer
 * stage too (a pipeline sends each micro-batch, and its peer computes
 * twice), but its collectives; not on a step that waits for another
 * rank (waits_for_peer).  Evidence:
 * the collectives on the path, the work that stays once. */
static int
apply_accum(const struct pr_trace *t, struct pr_cp_graph *g,
            struct pr_whatif_acc *a)
{
    int64_t fixed = 0;
    size_t i;

    if (waits_for_peer(g))
        return 0;
    for (i = 0; i < g->n; i++) {
        const struct pr_cp_node *n = &g->v[i];

        if (is_comm(n) && !is_p2p(t, n) && n->on_path && n->dur > 0) {
            evidence(a, PR_WHATIF_ACCUM, 1, n->name, n->dur);
            fixed += n->dur;
        }
    }
    if (fixed <= 0)
        return 0; /* no collective on the path: nothing stays */
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];

        if (n->type == PR_CP_N_START || n->type == PR_CP_N_CARRY ||
            (is_comm(n) && !is_p2p(t, n)))
            continue;
        n->dur = pr_sat_add_i64(n->dur, n->dur);
        if (is_task(n) && n->w_kind == PR_CP_COMM &&
            (is_p2p(t, n) ||
             (n->bind < n->n_pred && is_p2p(t, &g->v[n->pred[n->bind]]))))
            n->w = pr_sat_add_i64(n->w, n->w);
    }
    (void)apply_loader(g, a, PR_WHATIF_ACCUM, 2);
    return 1;
}

/* a->next[i]: the task after task i on its stream (each task's first
 * edge is from the one before it on its stream, critpath.c add_task),
 * PR_CP_NONE at a stream's last.  0 on out of memory (a->failed). */
static int
next_on_stream(const struct pr_trace *t, const struct pr_cp_graph *g,
               struct pr_whatif_acc *a)
{
    size_t i;

    if (g->n > a->cap_next) {
        uint32_t *v = realloc(a->next, g->n * sizeof(*v));

        if (v == NULL) {
            a->failed = 1;
            return 0;
        }
        a->next = v;
        a->cap_next = g->n;
    }
    for (i = 0; i < g->n; i++)
        a->next[i] = PR_CP_NONE;
    for (i = 0; i < g->n; i++) {
        const struct pr_cp_node *n = &g->v[i], *p;

        if (n->type != PR_CP_N_TASK || n->ev == PR_CP_NONE || n->n_pred == 0 ||
            n->pred[0] >= g->n)
            continue;
        p = &g->v[n->pred[0]];
        if (p->type == PR_CP_N_TASK && p->ev != PR_CP_NONE &&
            pr_event_tid(t, &t->events[p->ev]) ==
                pr_event_tid(t, &t->events[n->ev]) &&
            pr_event_pid(t, &t->events[p->ev]) ==
                pr_event_pid(t, &t->events[n->ev]) &&
            p->s <= n->s)
            a->next[n->pred[0]] = (uint32_t)i;
    }
    return 1;
}

/* What cast i's output goes to, taking the next task on its stream
 * past a run of casts (autocast casts each weight right before the GEMM
 * that reads it) as its consumer: 1 a library kernel of the kernel
 * table's gemm, conv or attention family (cuBLAS, cuDNN, FlashAttention),
 * which takes no fused cast (review 11 #5); 2 an elementwise, reduction
 * or norm kernel, into which torch.compile can fuse the cast; 3 a copy
 * kernel, which reads it (nsys mfu_2gpu_before's FSDP::pre_forward casts
 * are each followed by direct_copy_kernel_cuda, the all-gather's copy-in
 * into its buffer: review 12 #2), which no fused cast fits in eager
 * code; 0 anything else, no consumer the stream shows (a fill, a
 * collective, the stream's end). */
static int
cast_consumer(const struct pr_trace *t, const struct pr_cp_graph *g,
              const struct pr_whatif_in *in, const struct pr_whatif_acc *a,
              uint32_t i)
{
    size_t hops;

    for (hops = 0; hops < 4096; hops++) {
        const struct pr_cp_node *n;

        i = a->next[i];
        if (i == PR_CP_NONE)
            return 0;
        n = &g->v[i];
        if (n->kind == PR_CP_KERNEL && picked(t, n, in, PR_WHATIF_CASTS) > 0)
            continue; /* a run of casts */
        if (n->fam == PR_CP_FAM_COPY &&
            (n->kind == PR_CP_KERNEL || n->kind == PR_CP_COPY) &&
            !has(node_str(t, n), "Memset"))
            return 3; /* a copy kernel or a device-to-device copy */
        if (n->kind != PR_CP_KERNEL)
            return 0;
        if (n->fam == PR_CP_FAM_GEMM || n->fam == PR_CP_FAM_CONV ||
            n->fam == PR_CP_FAM_ATTENTION)
            return 1;
        return n->fam == PR_CP_FAM_ELEMENTWISE ||
                       n->fam == PR_CP_FAM_REDUCTION || n->fam == PR_CP_FAM_NORM
                   ? 2
                   : 0;
    }
    return 0;
}

/* The kernels a rule named take its factor of their time (CASTS: none of
 * it). */
static int
apply_picks(const struct pr_trace *t, struct pr_cp_graph *g,
            const struct pr_whatif_in *in, struct pr_whatif_acc *a,
            enum pr_whatif s)
{
    int any = 0;
    size_t i;

    if (s == PR_WHATIF_CASTS && !next_on_stream(t, g, a))
        return 0;
    for (i = 0; i < g->n; i++) {
        struct pr_cp_node *n = &g->v[i];
        double f;
        int64_t was = n->dur;

        if (!is_task(n) || n->kind != PR_CP_KERNEL)
            continue;
        f = picked(t, n, in, s);
        if (!(f > 0 && f < 1) && !(s == PR_WHATIF_CASTS && f > 0))
            continue;
        if (s == PR_WHATIF_CASTS && n->on_path && was > 0) {
            a->all_ns[s] = pr_sat_add_i64(a->all_ns[s], was);
            int c = cast_consumer(t, g, in, a, (uint32_t)i);

            if (c == 1)
                a->sub_ns[s] = pr_sat_add_i64(a->sub_ns[s], was);
            else if (c == 2)
                a->fusible_ns = pr_sat_add_i64(a->fusible_ns, was);
            else if (c == 3)
                a->copy_ns = pr_sat_add_i64(a->copy_ns, was);
        }
        if (s == PR_WHATIF_CASTS && was > 0) {
            /* every cast of the replayed steps, on the path or not: whose
               operator ran under FSDP's ranges (review 12 #2) */
            unsigned fsdp = under_fsdp(t, n, a);

            a->cast_ns = pr_sat_add_i64(a->cast_ns, was);
            a->fsdp_kinds |= fsdp;
            if (fsdp) {
                a->fsdp_all_ns = pr_sat_add_i64(a->fsdp_all_ns, was);
                a->fsdp_n++;
            }
            if (fsdp & FSDP_BWD)
                a->fsdp_bwd_ns = pr_sat_add_i64(a->fsdp_bwd_ns, was);
            if (fsdp && n->on_path)
                a->fsdp_ns = pr_sat_add_i64(a->fsdp_ns, was);
        }
        n->dur = s == PR_WHATIF_CASTS ? 0 : (int64_t)((double)n->dur * f);
        evidence(a, s, n->on_path,
                 s == PR_WHATIF_OCCUPANCY || s == PR_WHATIF_CASTS ||
                         s == PR_WHATIF_BLOCKDIM
                     ? n->name
                     : ev_name(t, n),
                 was - n->dur);
        any = 1;
    }
    return any;
}

/* ------------------------------------------------------------- replay */

static int
save(struct pr_whatif_acc *a, const struct pr_cp_graph *g)
{
    struct pr_cp_node *v = realloc(a->bak, (g->n ? g->n : 1) * sizeof(*v));
    struct pr_cp_piece *pc;
    int64_t *ew;

    if (v == NULL)
        return 0;
    a->bak = v;
    pc = realloc(a->bak_pc, (g->n_pc ? g->n_pc : 1) * sizeof(*pc));
    if (pc == NULL)
        return 0;
    a->bak_pc = pc;
    ew = realloc(a->bak_end, (g->n_end ? g->n_end : 1) * sizeof(*ew));
    if (ew == NULL)
        return 0;
    a->bak_end = ew;
    /* (memcpy from NULL is undefined even for 0 bytes) */
    if (g->n)
        memcpy(v, g->v, g->n * sizeof(*v));
    if (g->n_pc)
        memcpy(pc, g->pc, g->n_pc * sizeof(*pc));
    if (g->n_end)
        memcpy(ew, g->end_w, g->n_end * sizeof(*ew));
    return 1;
}

static void
restore(const struct pr_whatif_acc *a, struct pr_cp_graph *g)
{
    if (g->n)
        memcpy(g->v, a->bak, g->n * sizeof(*g->v));
    if (g->n_pc)
        memcpy(g->pc, a->bak_pc, g->n_pc * sizeof(*g->pc));
    if (g->n_end)
        memcpy(g->end_w, a->bak_end, g->n_end * sizeof(*g->end_w));
}

/* replays.c's evidence: into the scenario's (struct replay_ev). */
struct replay_ev {
    struct pr_whatif_acc *a;
    enum pr_whatif s;
};

static void
replay_ev(void *ctx, int on_path, uint32_t name, int64_t ns)
{
    struct replay_ev *x = ctx;

    evidence(x->a, x->s, on_path, name, ns);
}

/* A replay of replays.c: its 1 or 0 (out of memory: a->failed). */
static int
apply_replay(const struct pr_trace *t, struct pr_cp_graph *g,
             const struct pr_whatif_in *in, struct pr_whatif_acc *a,
             enum pr_whatif s)
{
    struct replay_ev x = {a, s};
    int r = 0;

    if (a->rc == NULL && (a->rc = pr_replay_cache_new()) == NULL) {
        a->failed = 1;
        return 0;
    }
    if (s == PR_WHATIF_DTOD)
        r = pr_replay_dtod(t, g, a->rc, replay_ev, &x);
    else if (s == PR_WHATIF_DISPATCH)
        r = pr_replay_dispatch(t, g, in, replay_ev, &x);
    else if (s == PR_WHATIF_BUCKET)
        r = pr_replay_bucket(t, g, a->rc, replay_ev, &x);
    else if (s == PR_WHATIF_ACLOP)
        r = pr_replay_aclop(t, g, a->rc, replay_ev, &x);
    if (r < 0)
        a->failed = 1;
    return r > 0;
}

static int
apply(const struct pr_trace *t, struct pr_cp_graph *g,
      const struct pr_whatif_in *in, struct pr_whatif_acc *a, enum pr_whatif s,
      struct pr_error *err)
{
    switch (s) {
    case PR_WHATIF_LAUNCH:
        return apply_launch(t, g, a);
    case PR_WHATIF_DATALOADER:
        return apply_loader(g, a, s, 0);
    case PR_WHATIF_SYNC:
    case PR_WHATIF_COPIES:
        return apply_unblock(t, g, in, a, s);
    case PR_WHATIF_COPYBOUND:
        return apply_prefetch(t, g, in, a);
    case PR_WHATIF_COLD:
        return apply_cold(t, g, a, 1);
    case PR_WHATIF_COMPILE:
        return apply_compile(t, g, a);
    case PR_WHATIF_COMM:
        return apply_comm(t, g, in, a);
    case PR_WHATIF_AMP:
    case PR_WHATIF_TF32:
    case PR_WHATIF_ALIGN:
        return apply_tc(t, g, in, a, s, err);
    case PR_WHATIF_BATCH:
        return apply_batch(t, g, a);
    case PR_WHATIF_ACCUM:
        return apply_accum(t, g, a);
    case PR_WHATIF_MEMBOUND:
    case PR_WHATIF_OCCUPANCY:
    case PR_WHATIF_CASTS:
    case PR_WHATIF_BLOCKDIM:
        return apply_picks(t, g, in, a, s);
    case PR_WHATIF_DTOD:
    case PR_WHATIF_DISPATCH:
    case PR_WHATIF_BUCKET:
    case PR_WHATIF_ACLOP:
        return apply_replay(t, g, in, a, s);
    default:
        return 0;
    }
}

/* A step whose path is host work alone (a run of the host: a CPU-only
 * job, its collectives run by gloo on the host): the data loader's pieces
 * gone (dataloader), and gradient accumulation over two micro-batches
 * (the collectives once, the rest twice: half the collectives' time saved
 * per step's worth).  No other change acts on it.  0: nothing on the path
 * either change touches. */
static int
host_path(const struct pr_cp_graph *g, const struct pr_whatif_in *in,
          struct pr_whatif_acc *a, int64_t lead_ns, int64_t tail_ns)
{
    int64_t comm = 0, loader = 0;
    uint32_t e = g->end_bind, k;

    if (e == PR_CP_NONE)
        return 0;
    for (k = 0; k < g->end_pc_n[e]; k++) {
        const struct pr_cp_piece *p = &g->pc[g->end_pc_first[e] + k];

        if (p->kind == PR_CP_COMM)
            comm = pr_sat_add_i64(comm, p->ns);
        else if (p->kind == PR_CP_DATALOADER)
            loader = pr_sat_add_i64(loader, p->ns);
    }
    if (comm <= 0 && loader <= 0)
        return 0;
    a->steps++;
    a->npu = in != NULL && in->npu;
    a->vendor = in != NULL ? in->vendor : NULL;
    a->trains = in != NULL ? in->trains : -1;
    a->no_framework = in != NULL && in->no_framework;
    a->base_ns = pr_sat_add_i64(a->base_ns, g->rend - g->ws - lead_ns);
    a->lead_ns = pr_sat_add_i64(a->lead_ns, lead_ns);
    a->tail_ns = pr_sat_add_i64(a->tail_ns, tail_ns);
    a->gain_ns[PR_WHATIF_DATALOADER] =
        pr_sat_add_i64(a->gain_ns[PR_WHATIF_DATALOADER], loader);
    a->gain_ns[PR_WHATIF_ACCUM] =
        pr_sat_add_i64(a->gain_ns[PR_WHATIF_ACCUM], comm / 2);
    for (k = 0; k < g->end_pc_n[e]; k++) {
        const struct pr_cp_piece *p = &g->pc[g->end_pc_first[e] + k];

        if (p->kind == PR_CP_COMM)
            evidence(a, PR_WHATIF_ACCUM, 1, p->name, p->ns);
        else if (p->kind == PR_CP_DATALOADER)
            evidence(a, PR_WHATIF_DATALOADER, 1, p->name, p->ns);
    }
    return 1;
}

enum pr_status
pr_whatif_step(const struct pr_trace *t, struct pr_cp_graph *g,
               const struct pr_whatif_in *in, struct pr_whatif_acc *a,
               int64_t lead_ns, int64_t tail_ns, struct pr_error *err)
{
    /* over the recorded part: a capture's lead-in (lead_ns), time the
       trace records nothing in, is no work a change speeds up or a
       larger batch repeats (review26g #2: twice the batch doubled
       event_sync_multi's 42.5 ms of nothing) */
    int64_t base = g->rend - g->ws - lead_ns, warm = -1;
    int s;
    size_t i;

    /* a path through no node (the step's start to its end over host work
       the graph has no call in): only the changes to that host work */
    for (i = 0; i < g->n; i++) {
        if (g->v[i].on_path && g->v[i].type != PR_CP_N_START)
            break;
    }
    if (i == g->n) {
        if (!host_path(g, in, a, lead_ns, tail_ns))
            a->skipped++;
        return PR_OK;
    }
    if (!save(a, g))
        return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
    a->steps++;
    a->npu = in != NULL && in->npu;
    a->vendor = in != NULL ? in->vendor : NULL;
    a->trains = in != NULL ? in->trains : -1;
    a->no_framework = in != NULL && in->no_framework;
    a->base_ns = pr_sat_add_i64(a->base_ns, base);
    a->lead_ns = pr_sat_add_i64(a->lead_ns, lead_ns);
    a->tail_ns = pr_sat_add_i64(a->tail_ns, tail_ns);
    for (i = 0; in != NULL && in->startup_ev != PR_CP_NONE && i < g->n; i++)
        a->startup |= g->v[i].ev == in->startup_ev;
    /* the warm step (cold_step's change), the base of the levers that
       change the batch (warm_first), where the step has first-use costs */
    if (apply_cold(t, g, a, 0)) {
        pr_cp_replay(g);
        warm = g->rend - g->ws - lead_ns;
    }
    restore(a, g);
    for (s = 0; s < PR_WHATIF_COUNT && !a->failed; s++) {
        int64_t len, gain;
        int cold = warm >= 0 && warm_first(s);

        if (cold)
            (void)apply_cold(t, g, a, 0);
        if (!apply(t, g, in, a, (enum pr_whatif)s, err)) {
            restore(a, g);
            continue;
        }
        pr_cp_replay(g);
        /* the batch and accumulation levers double the unnamed host time
           the lead-in is kept in */
        len = g->rend - g->ws - (warm_first(s) ? 2 * lead_ns : lead_ns);
        /* twice the batch does twice the samples: per step's worth, of
           the warm step where it has first-use costs, which the larger
           batch pays once as before */
        gain = warm_first(s) ? (cold ? warm : base) - len / 2 : base - len;
        if (gain > 0)
            a->gain_ns[s] = pr_sat_add_i64(a->gain_ns[s], gain);
        restore(a, g);
    }
    pr_cp_replay(g); /* the binding edges of the unchanged graph back */
    if (a->failed)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
    return PR_OK;
}

/* ------------------------------------------------------------- output */

static int
cmp_ev(const void *x, const void *y)
{
    const struct pr_whatif_ev *a = x, *b = y;

    if (a->ns != b->ns)
        return a->ns > b->ns ? -1 : 1;
    return a->name < b->name ? -1 : (a->name > b->name);
}

static double
mean_us(int64_t ns, size_t n)
{
    return n ? (double)ns / 1000.0 / (double)n : NAN;
}

static const char *gain_basis_of(const char *whatif_id);

static void
emit_one(const struct pr_trace *t, struct pr_whatif_acc *a, int s, cJSON *arr,
         int *ok)
{
    double gain = mean_us(a->gain_ns[s], a->steps);
    double base = mean_us(a->base_ns, a->steps);
    /* a share of the whole window, lead-in, unrecorded tail and all, as
       "of the capture" says (alexnet's cold capture: 97.2%, not 97.3% of
       its recorded part), and the window after the change beside the
       measured one the page shows (review 27 #4: event_sync_multi's
       "Capture after 19.8 ms" of a 62.5 ms capture, saving 108 us) */
    double window =
        base + mean_us(a->lead_ns, a->steps) + mean_us(a->tail_ns, a->steps);
    double pct = window > 0 ? 100.0 * gain / window : 0;
    struct pr_row_whatif o = {0};
    struct pr_row_whatif_evidence e = {0};
    enum pr_rows_object ro = PR_RO_RUNS_CRITICAL_PATH_WHAT_IF;
    char change[1200], fl[600], fsdp_names[80];
    cJSON *ev;
    int i, churn;
    size_t fk, fn = 0;

    if (a->gain_ns[s] <= 0 || pct < 0.1)
        return; /* nothing on the path to speak of */
    /* allocator churn among the cold calls: per step, not one-time */
    churn = s == PR_WHATIF_COLD && churn_of(t, a) != PR_STR_NONE &&
            churn_in_evidence(a);
    o.id = scen[s].id;
    if (churn) {
        /* the calls recur every iteration (review31 #3: the row said
           "first-use ... a one-time cost" beside its own recurring_calls
           and gain_basis "step") */
        snprintf(change, sizeof(change),
                 "no allocator churn: the runtime calls that held the host "
                 "1 ms or more (%.80s, %.1f an iteration, memory freed and "
                 "allocated again, which recur every iteration) take the "
                 "step's median runtime call time, as a caching allocator "
                 "that keeps the freed blocks would; a saving per step",
                 pr_trace_str(t, a->churn_name), a->churn_per_iter);
        o.change = change;
    } else if (s == PR_WHATIF_ACLOP) {
        /* the floor it assumed, named (review 7 #4) */
        pr_replay_aclop_floor(a->rc, fl, sizeof(fl));
        snprintf(change, sizeof(change), "%s%s", scen[s].what, fl);
        o.change = change;
    } else if (!a->npu && scen[s].amd != NULL && pr_sget_is(a->vendor, "amd"))
        /* ROCm's graphs are HIP's (review 28h #12), its matrix units
           matrix cores (MFMA), not tensor cores, its blocks workgroups
           that run on CUs */
        o.change = scen[s].amd;
    else if (s == PR_WHATIF_LAUNCH && !a->npu && a->no_framework)
        /* a CUDA C++ or MPI program under Nsight Systems has no
           torch.compile (closing 'Left': saxpy, CloverLeaf) */
        o.change = "CUDA graphs (stream capture and cudaGraphLaunch; "
                   "torch.compile mode=\"reduce-overhead\" in PyTorch): "
                   "launch calls and the device's wait for each launch take "
                   "no time; the host work between them stays";
    else if (s == PR_WHATIF_COMM && a->trains == 0)
        /* an inference run has no optimizer that waits for gradients
           (closing 'Left': the change named it on vLLM's serving) */
        o.change = "communication overlapped with compute: no compute or "
                   "host work waits for a collective but the work that "
                   "starts after the last one ends, which consumes it; the "
                   "collectives still run, in order, and the step ends "
                   "after them; an upper bound";
    else if (s == PR_WHATIF_LAUNCH && !a->npu && pr_sget_is(a->vendor, "meta"))
        o.change = "graph capture, where the MTIA runtime offers one: launch "
                   "calls and the device's wait for each launch take no "
                   "time; the host operators' own work stays";
    else
        o.change = a->npu && scen[s].npu != NULL ? scen[s].npu : scen[s].what;
    o.step_us = window - gain;
    o.gain_us = gain;
    o.gain_pct = pct;
    o.gain_basis = gain_basis_of(o.id);
    /* a replay that takes off all the time the change could is a
       ceiling: the same figure as bound_us, the recommendations' shape,
       and the What-if table's "<=" (review 8 #8) */
    o.bound_us = scen[s].bound ? gain : NAN;
    /* rule_misses: the advice puts it on (pr_whatif_advise) */
    pr_rows_omit(ro, &o, PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_RULE_MISSES);
    /* the part of the time taken off the path in a subset (review 11 #4,
       #5): launch calls under an optimizer's step (only where the trace
       records one), casts feeding a GEMM or convolution */
    if (!(s == PR_WHATIF_LAUNCH && a->n_opt > 0 && a->all_ns[s] > 0)) {
        pr_rows_omit(ro, &o,
                     PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_OPTIMIZER_PCT);
        pr_rows_omit(ro, &o, PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_OPTIMIZER);
    } else {
        o.optimizer_pct = 100.0 * (double)a->sub_ns[s] / (double)a->all_ns[s];
        if (a->sub_name[s] != PR_STR_NONE && a->sub_ns[s] > 0)
            o.optimizer = pr_trace_str(t, a->sub_name[s]);
        else
            pr_rows_omit(ro, &o,
                         PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_OPTIMIZER);
    }
    if (!(s == PR_WHATIF_CASTS && a->all_ns[s] > 0)) {
        pr_rows_omit(ro, &o,
                     PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_GEMM_FED_PCT);
        pr_rows_omit(ro, &o,
                     PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_FUSIBLE_FED_PCT);
        pr_rows_omit(ro, &o,
                     PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_COPY_FED_PCT);
    } else {
        o.gemm_fed_pct = 100.0 * (double)a->sub_ns[s] / (double)a->all_ns[s];
        o.fusible_fed_pct =
            100.0 * (double)a->fusible_ns / (double)a->all_ns[s];
        o.copy_fed_pct = 100.0 * (double)a->copy_ns / (double)a->all_ns[s];
    }
    /* only where the trace records FSDP's pre-forward / pre-backward
       ranges (review 12 #2) */
    if (s == PR_WHATIF_CASTS && a->all_ns[s] > 0 && a->n_fsdp > 0 &&
        a->cast_ns > 0 && a->steps > 0) {
        o.fsdp_pct = 100.0 * (double)a->fsdp_all_ns / (double)a->cast_ns;
        /* issue #28 (review s20): with no backward pass in the trace
           (nsys mfu_2gpu_before: FSDP::pre_forward / post_forward
           ranges alone), backward's re-gather casts are unknown, not 0 */
        o.fsdp_backward_pct =
            pr_trace_has_backward(t)
                ? 100.0 * (double)a->fsdp_bwd_ns / (double)a->cast_ns
                : NAN;
        o.fsdp_path_pct = 100.0 * (double)a->fsdp_ns / (double)a->all_ns[s];
        o.fsdp_calls = (double)a->fsdp_n / (double)a->steps;
        /* the kinds of range the casts were in, not every kind looked
           for (review30g #7: nsys_before holds no FSDP::pre_backward
           range, and its text named one) */
        for (fk = 0; fsdp_kind[fk] != NULL; fk++)
            if (a->fsdp_kinds & (1u << fk))
                fn = pr_append(fsdp_names, sizeof(fsdp_names), fn, "%s%s",
                               fn ? ", " : "", fsdp_kind[fk]);
        if (fn > 0)
            o.fsdp_ranges = fsdp_names;
        else
            pr_rows_omit(ro, &o,
                         PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_FSDP_RANGES);
    } else {
        pr_rows_omit(ro, &o, PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_FSDP_PCT);
        pr_rows_omit(ro, &o,
                     PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_FSDP_BACKWARD_PCT);
        pr_rows_omit(ro, &o,
                     PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_FSDP_PATH_PCT);
        pr_rows_omit(ro, &o, PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_FSDP_CALLS);
        pr_rows_omit(ro, &o, PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_FSDP_RANGES);
    }
    if (churn) {
        o.recurring_calls = a->churn_per_iter;
        o.gain_basis = "step";
    } else
        pr_rows_omit(ro, &o,
                     PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_RECURRING_CALLS);
    qsort(a->ev[s], PR_WHATIF_EV, sizeof(a->ev[s][0]), cmp_ev);
    o.evidence = ev = cJSON_CreateArray();
    for (i = 0; ev != NULL && i < PR_WHATIF_EV && *ok; i++) {
        if (a->ev[s][i].ns <= 0)
            break;
        e.name = a->ev[s][i].name == LAUNCH_DELAY
                     ? LAUNCH_DELAY_NAME
                     : pr_trace_str(t, a->ev[s][i].name);
        e.us = mean_us(a->ev[s][i].ns, a->steps);
        if (!pr_rows_write(ev, PR_RO_RUNS_CRITICAL_PATH_WHAT_IF_EVIDENCE, &e,
                           1))
            *ok = 0;
    }
    if (*ok && (ev == NULL || !pr_rows_write(arr, ro, &o, 1)))
        *ok = 0;
    cJSON_Delete(ev);
}

cJSON *
pr_whatif_rows(const struct pr_trace *t, struct pr_whatif_acc *a, double *steps,
               int *ok)
{
    int order[PR_WHATIF_COUNT], s, k, cold;
    cJSON *arr;

    *steps = (double)a->steps;
    if (a->steps == 0)
        return NULL; /* no step to replay */
    for (s = 0; s < PR_WHATIF_COUNT; s++)
        order[s] = s;
    for (s = 1; s < PR_WHATIF_COUNT; s++) /* by gain, stable */
        for (k = s; k > 0 && a->gain_ns[order[k]] > a->gain_ns[order[k - 1]];
             k--) {
            int x = order[k];

            order[k] = order[k - 1];
            order[k - 1] = x;
        }
    /* a cold capture (cold_step's share PR_WHATIF_COLD_PCT or more) is
       not the steady state: the levers that change the batch would
       spread its one-time work over twice the samples, more than the
       first-use calls warm_first takes off (review 27 #8: alexnet's 2x
       batch, 49.9% with them, still 1.3% without, that of aten::uniform_'s
       weight initialisation and cuDNN's first convolutions), so they
       have no row; the What-if table says why.  Nor does a capture held
       up at start-up by one collective (the verdict's start-up note): its
       time before that collective ends is no steady state either, and the
       trace ties little of it to the collective (kernel_details_910B_v1:
       2x batch 45.4%, still 35.0% with the 309 ms broadcast's own time
       off, mostly a stream's 325 ms before its first task spread over
       twice the samples) */
    cold = a->startup || captures_graphs(t) ||
           (a->gain_ns[PR_WHATIF_COLD] > 0 &&
            100.0 * mean_us(a->gain_ns[PR_WHATIF_COLD], a->steps) /
                    (mean_us(a->base_ns, a->steps) +
                     mean_us(a->lead_ns, a->steps) +
                     mean_us(a->tail_ns, a->steps)) >=
                PR_WHATIF_COLD_PCT);
    arr = *ok ? cJSON_CreateArray() : NULL;
    *ok = *ok && arr != NULL;
    for (k = 0; k < PR_WHATIF_COUNT && *ok; k++)
        if (!(cold && warm_first(order[k])))
            emit_one(t, a, order[k], arr, ok);
    if (!*ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

/* ------------------------------------------------------ the advice */

/* What a replayed change's gain is per, its gain_basis: twice the batch
 * and gradient accumulation change the batch, so theirs is the time
 * saved per step's worth of samples; every other change does the same
 * work in a shorter step.  The one place that says so: the ranking, the
 * Saves cell, the terminal's line and the verdict's note read gain_basis
 * (review 6 #4). */
static const char *
gain_basis_of(const char *whatif_id)
{
    if (pr_sget_is(whatif_id, scen[PR_WHATIF_COLD].id))
        return PR_GAIN_ONE_TIME; /* paid once (review 27 #8) */
    return pr_sget_is(whatif_id, scen[PR_WHATIF_BATCH].id) ||
                   pr_sget_is(whatif_id, scen[PR_WHATIF_ACCUM].id)
               ? PR_GAIN_PER_SAMPLES
               : PR_GAIN_PER_STEP;
}

static void adopt(cJSON *r, cJSON *o);

/* What-if w (a written row) with rule_misses set: read back as its typed
 * row and written whole in w's place through the one writer (adopt).  0:
 * out of memory. */
static int
put_misses(cJSON *w, const char *misses)
{
    const enum pr_rows_object ro = PR_RO_RUNS_CRITICAL_PATH_WHAT_IF;
    const struct pr_rows_objinfo *oi = pr_rows_object(ro);
    struct pr_row_whatif row;
    struct pr_error e;
    cJSON *o;
    size_t k;

    if (pr_rows_read_one(w, PR_K_WHAT_IF, ro, &row, &e) != PR_OK)
        return 0;
    row.rule_misses = misses;
    for (k = 0; k < oi->n_fields && k < 64; k++)
        if (oi->fields[k].row ==
            PR_SR_RUNS_CRITICAL_PATH_WHAT_IF_PR_K_RULE_MISSES)
            row.absent &= ~((uint64_t)1 << k);
    o = pr_rows_row(ro, &row);
    if (o == NULL)
        return 0;
    adopt(w, o);
    return 1;
}

int
pr_whatif_misses(const struct pr_whatif_in *in, cJSON *run)
{
    cJSON *w;
    int s;

    if (in == NULL)
        return 1;
    cJSON_ArrayForEach(w,
                       pr_sget(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_WHAT_IF))
    {
        for (s = 0; s < PR_WHATIF_COUNT; s++) {
            const cJSON *r;
            int fired = 0;

            /* another rule made the advice (the plugin's from the run's
               figures): nothing misses */
            cJSON_ArrayForEach(r, pr_sget(run, PR_K_RECOMMENDATIONS))
            {
                fired |= pr_sget_is(pr_sget_str(r, PR_K_ID), scen[s].id);
            }
            if (fired || in->misses[s][0] == '\0' ||
                !pr_sget_is(pr_sget_str(w, PR_K_ID), scen[s].id) ||
                pr_sget(w, PR_K_RULE_MISSES) != NULL)
                continue;
            if (!put_misses(w, in->misses[s]))
                return 0;
        }
    }
    return 1;
}

/* The recommendation scenario s backs (its own id but for gradient
 * accumulation, one of the communication advice's fixes; TF32 backs
 * none: the AMP advice names it). */
static const char *
backs(int s)
{
    return s == PR_WHATIF_ACCUM   ? "communication"
           : s == PR_WHATIF_ACLOP ? "op_compile"
                                  : scen[s].id;
}

static int
backed(const char *id)
{
    int s;

    for (s = 0; s < PR_WHATIF_COUNT && id != NULL; s++) {
        if (strcmp(id, backs(s)) == 0)
            return 1;
    }
    return 0;
}

/* The what_if row with the largest gain among the scenarios that back
 * recommendation id; NULL when none has a row. */
static const cJSON *
best_whatif(const cJSON *whatif, const char *id)
{
    const cJSON *w, *best = NULL;
    int s;

    cJSON_ArrayForEach(w, whatif)
    {
        const char *wid = pr_sget_str(w, PR_K_ID);

        for (s = 0; s < PR_WHATIF_COUNT && wid != NULL; s++) {
            if (strcmp(wid, scen[s].id) == 0 && strcmp(backs(s), id) == 0 &&
                (best == NULL || pr_sget_num(w, PR_K_GAIN_US) >
                                     pr_sget_num(best, PR_K_GAIN_US)))
                best = w;
        }
    }
    return best;
}

/* The what_if row a recommendation's gain comes from: the largest of
 * the scenarios that back it, but for a communication advice that does
 * not recommend gradient accumulation (torch_npu's HCCL split, review
 * finding 10: it took 49% from accumulation while recommending none),
 * whose gain is the overlap replay's alone. */
static const cJSON *
backing_whatif(const cJSON *whatif, const cJSON *r, const char *id)
{
    const char *text = pr_sget_str_or(r, PR_K_TEXT, "");

    (void)text;
    if (pr_sget_is(id, PR_K_COMMUNICATION))
        return pr_sget_find(whatif, PR_K_ID, "communication");
    return best_whatif(whatif, id);
}

static int put_text(cJSON *r, const char *text);
static int put_note(cJSON *r, const char *note);

/* The twice-the-batch finding says why a larger batch helps here, from
 * its replay's evidence, and how its gain differs from the accumulation
 * that communication findings decline (review 7 #10: hta_nccl read only
 * TensorBoard's "You could try to increase batch size to improve", while
 * npu_text1 / npu_db1 / hta_cpu_only decline the same batch-changing
 * replay). 0: out of memory. */
static void fmt_us(double us, char *buf, size_t cap);

/* TensorBoard's advice after its "GPU 0 has low utilization." */
#define TB_BATCH ". You could try to increase batch size to improve."

static int
batch_why(cJSON *r, const cJSON *w, const char *win, const cJSON *run,
          const cJSON *whatif)
{
    const cJSON *ev = pr_sget(w, PR_K_EVIDENCE), *e;
    const cJSON *cp = pr_sget(run, PR_K_CRITICAL_PATH);
    const cJSON *aclop = pr_sget_find(whatif, PR_K_ID, "aclop_binary");
    const char *lead = pr_sget_str_or(r, PR_K_TEXT, "");
    char text[4096], names[400] = "", t[32], head[2048], rest[1200] = "";
    char a[32], b[32];
    size_t len = 0, rl = 0;
    int n = 0;
    double on_aclop = 0;
    /* collectives only where the run has some (review26a #3:
       npu_trace_view, one NPU, no collective, read "the collectives'
       latency stay the same" and "a communication finding declines") */
    int comm =
        pr_sget_len(pr_sget(pr_sget(run, PR_K_COMMUNICATION), PR_K_OPS)) > 0 ||
        pr_sget_num(pr_sget(cp, PR_K_BY_KIND_US), PR_K_COMMUNICATION) > 0;
    /* no backward pass: no learning rate, and no gradients to accumulate
       (hunt30 #5: inference captures were told to retune the learning
       rate) */
    int infer = pr_run_trains(run) == 0;

    cJSON_ArrayForEach(e, ev)
    {
        if (pr_cp_is_aclop(pr_sget_str_or(e, PR_K_NAME, "")) &&
            pr_sget_num(e, PR_K_US) > 0)
            on_aclop += pr_sget_num(e, PR_K_US);
    }
    /* the per-call work it spreads is the aclop calls op_compile's replay
       takes off: the gains overlap (review26a #3: npu_trace_view's
       AscendCL@aclopCompileAndExecute, 5.8 ms on the path here, 5.3 ms
       off in op_compile's replay) */
    if (on_aclop > 0 && pr_sget_num(aclop, PR_K_GAIN_US) > 0) {
        fmt_us(on_aclop, a, sizeof(a));
        fmt_us(pr_sget_num(aclop, PR_K_GAIN_US), b, sizeof(b));
        rl = pr_append(rest, sizeof(rest), rl,
                       " Of that per-call work, %s on the path is aclop "
                       "calls, which the op_compile finding's replay "
                       "shortens by %s (binary kernels, jit_compile=False): "
                       "the two gains overlap, and with binary kernels "
                       "twice the batch saves less.",
                       a, b);
    }
    /* whether twice the batch fits is a memory question the trace can
       only answer with a memory record (review26a #3) */
    if (!cJSON_IsObject(pr_sget(run, PR_K_MEMORY)))
        rl = pr_append(rest, sizeof(rest), rl,
                       " The trace holds no memory record "
                       "(profile_memory=True records one), so whether "
                       "twice the batch fits in device memory is not "
                       "known.");
    cJSON_ArrayForEach(e, ev)
    {
        if (n == 2)
            break;
        fmt_us(pr_sget_num(e, PR_K_US), t, sizeof(t));
        len = pr_append(names, sizeof(names), len, "%s%s %s", n ? ", " : "",
                        pr_sget_str_or(e, PR_K_NAME, "?"), t);
        n++;
    }
    fmt_us(pr_sget_num(w, PR_K_GAIN_US), t, sizeof(t));
    /* the finding says why a larger batch helps: TensorBoard's bare
       "You could try to increase batch size to improve." would open it
       with the same advice unexplained (review 8 #10) */
    if (strncmp(lead + strcspn(lead, "."), TB_BATCH, strlen(TB_BATCH)) == 0) {
        size_t cut = strcspn(lead, ".") + 1;

        snprintf(head, sizeof(head), "%.*s%s", (int)cut, lead,
                 lead + cut + strlen(TB_BATCH) - 1);
        lead = head;
    }
    snprintf(text, sizeof(text),
             "%s Here twice the batch replays to %s less per %s's worth "
             "of samples (%.1f%%) because much of the %s is paid per "
             "call, not per sample%s%s%s: the host's dispatch%s the same "
             "for twice the samples, so a larger batch spreads %s thinner."
             "%s The gain is per %s's "
             "worth of samples, at twice the batch, and %s%s",
             lead, t, win, pr_sget_num(w, PR_K_GAIN_PCT), win,
             !n ? ""
             : strcmp(win, "capture") == 0
                 ? " (it does not take the per-call work off the path: each "
                   "larger iteration still pays it once, spread over twice "
                   "the samples, so per capture's worth of samples these "
                   "cost less: "
                 : " (it does not take the per-call work off the path: each "
                   "larger step still pays it once, spread over twice the "
                   "samples, so per step's worth of samples these cost less: ",
             names, n ? ")" : "",
             comm ? " and the collectives' latency stay" : " stays",
             comm ? "them" : "it", rest, win,
             infer ? "each forward then takes longer: compare runs per "
                     "sample, and each request's latency against its "
                     "target."
                   : "it changes the effective batch: retune the learning "
                     "rate, and compare runs per sample.",
             comm && !infer
                 ? " Here the batch is the finding's own lever; a "
                   "communication finding declines the same kind of replay "
                   "(gradient accumulation) as its gain where its "
                   "collectives mostly idle or wait for peers, which a "
                   "larger batch does not shorten."
                 : "");
    return put_text(r, text);
}

/* The op_compile advice (recommend.c, written before the replays) says
 * how its gain is replayed; without a gain, why none is claimed: the
 * compile calls do not shorten the path (a rank whose step waits on its
 * peers, torch_npu text_level1).  0: out of memory. */
/* The columns of a recommendation the advice sets (struct rec_set's
 * cols): its gain's figures, why none, the bound, the replay and its
 * evidence, and its text. */
enum {
    RS_TEXT = 1 << 0,
    RS_NOTE = 1 << 1, /* gain_note */
    RS_WHAT_IF = 1 << 2,
    RS_GAIN = 1 << 3,    /* gain_us, gain_pct */
    RS_NO_GAIN = 1 << 4, /* gain_us, gain_pct null where no gain is set */
    RS_BASIS = 1 << 5,   /* gain_basis */
    RS_SOURCE = 1 << 6,  /* gain_source */
    RS_BOUND = 1 << 7,   /* bound_us */
    RS_EVIDENCE = 1 << 8
};

struct rec_set {
    unsigned cols;
    const char *text, *gain_note, *what_if, *gain_basis, *gain_source;
    double gain_us, gain_pct, bound_us;
    const cJSON *evidence;
};

/* r's members become o's (o freed): r keeps its place in its array and
 * the callers' pointer to it. */
static void
adopt(cJSON *r, cJSON *o)
{
    cJSON *c = r->child;

    r->child = o->child;
    o->child = c;
    cJSON_Delete(o);
}

/* Recommendation r (its rule's row, written) with the columns of s set:
 * read back as its typed row, those set, and the row written whole
 * through the one writer in r's place (its keys in rows order); r's
 * strings read before are gone then.  0: out of memory. */
static int
rec_put(cJSON *r, const struct rec_set *s)
{
    const enum pr_rows_object ro = PR_RO_RUNS_RECOMMENDATIONS;
    struct pr_row_recommendation row;
    struct pr_error e;
    cJSON *o;

    if (pr_rows_read_one(r, PR_K_RECOMMENDATIONS, ro, &row, &e) != PR_OK)
        return 0;
    if (s->cols & RS_TEXT)
        row.text = s->text;
    if (s->cols & RS_NOTE) {
        row.gain_note = s->gain_note;
        pr_rec_keep(&row, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_NOTE);
    }
    if (s->cols & RS_WHAT_IF) {
        row.what_if = s->what_if;
        pr_rec_keep(&row, PR_SR_RUNS_RECOMMENDATIONS_PR_K_WHAT_IF);
    }
    /* a gain a model already set stays (path_bound's low_block_dim) */
    if ((s->cols & RS_GAIN) ||
        ((s->cols & RS_NO_GAIN) &&
         !pr_rows_has(ro, &row, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_US))) {
        row.gain_us = s->cols & RS_GAIN ? s->gain_us : NAN;
        row.gain_pct = s->cols & RS_GAIN ? s->gain_pct : NAN;
        pr_rec_keep(&row, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_US);
        pr_rec_keep(&row, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_PCT);
    }
    if (s->cols & RS_BASIS) {
        row.gain_basis = s->gain_basis;
        pr_rec_keep(&row, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_BASIS);
    }
    if (s->cols & RS_SOURCE) {
        row.gain_source = s->gain_source;
        pr_rec_keep(&row, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_SOURCE);
    }
    if (s->cols & RS_BOUND) {
        row.bound_us = s->bound_us;
        pr_rec_keep(&row, PR_SR_RUNS_RECOMMENDATIONS_PR_K_BOUND_US);
    }
    if (s->cols & RS_EVIDENCE) {
        row.evidence = s->evidence;
        pr_rec_keep(&row, PR_SR_RUNS_RECOMMENDATIONS_PR_K_EVIDENCE);
    }
    o = pr_rows_row(ro, &row);
    if (o == NULL)
        return 0;
    adopt(r, o);
    return 1;
}

/* A recommendation without a gain: null gain_us and gain_pct, and why
 * (note; NULL: the rule's own gain_note, already on it). */
static int
no_gain(cJSON *r, const char *note)
{
    struct rec_set s = {0};

    s.cols = RS_NO_GAIN | (note != NULL ? RS_NOTE : 0u);
    s.gain_note = note;
    return rec_put(r, &s);
}

/* A stated model's estimate in place of a replay's figure: gain_us est a
 * step of `step`, gain_source model, why in note (and the text, where
 * not NULL). */
static int
model_gain(cJSON *r, const char *text, const char *note, double est,
           double step)
{
    struct rec_set s = {0};

    s.cols = RS_NOTE | RS_GAIN | RS_SOURCE | (text != NULL ? RS_TEXT : 0u);
    s.text = text;
    s.gain_note = note;
    s.gain_us = est;
    s.gain_pct = 100.0 * est / step;
    s.gain_source = PR_GAIN_MODEL;
    return rec_put(r, &s);
}

/* r's text (col RS_TEXT) or gain_note (RS_NOTE) set to v; 0: out of
 * memory. */
static int
put_str(cJSON *r, unsigned col, const char *v)
{
    struct rec_set s = {0};

    s.cols = col;
    s.text = s.gain_note = v;
    return rec_put(r, &s);
}

static int
put_text(cJSON *r, const char *text)
{
    return put_str(r, RS_TEXT, text);
}

static int
put_note(cJSON *r, const char *note)
{
    return put_str(r, RS_NOTE, note);
}

/* No gain, with a bound: the most the change can save (bound_us). */
static int
no_gain_bound(cJSON *r, const char *note, double bound_us)
{
    struct rec_set s = {0};

    s.cols = RS_NO_GAIN | RS_NOTE | RS_BOUND;
    s.gain_note = note;
    s.bound_us = bound_us;
    return rec_put(r, &s);
}

int
pr_whatif_model_bound(cJSON *r, const char *note, double bound_us)
{
    return no_gain_bound(r, note, bound_us);
}

static void fmt_us(double us, char *buf, size_t cap);

#define ACLOP_TOP_FULL 8 /* critpath.c's CP_TOP: a step's top at most */

/* The aclop calls' time on the critical path, a mean per step with a
 * path: the parts of the steps' tops that are aclop calls
 * (pr_cp_is_aclop; their compile steps are the op_compile kind, added
 * whole from by_kind_us).  -1 when the tops do not tell: the path holds
 * host calls, yet no top part names an aclop call (a top lists a step's
 * largest parts only; one shorter than ACLOP_TOP_FULL lists them all). */
static double
aclop_on_path(const cJSON *cp)
{
    const cJSON *kinds = pr_sget(cp, PR_K_BY_KIND_US), *s, *e;
    double compile = pr_sget_num(kinds, PR_K_OP_COMPILE), steps = 0, us = 0;
    double calls =
        pr_sget_num(kinds, PR_K_LAUNCH) + pr_sget_num(kinds, PR_K_HOST_OP);
    int full = 0; /* a step's top may leave a part out */

    compile = compile > 0 ? compile : 0;
    cJSON_ArrayForEach(s, pr_sget(cp, PR_K_STEPS))
    {
        if (pr_sget_str(s, PR_K_BOUND) == NULL)
            continue;
        steps++;
        full |= pr_sget_len(pr_sget(s, PR_K_TOP)) >= ACLOP_TOP_FULL;
        cJSON_ArrayForEach(e, pr_sget(s, PR_K_TOP))
        {
            double v = pr_sget_num(e, PR_K_US);

            if (!pr_sget_is(pr_sget_str(e, PR_K_KIND), PR_K_OP_COMPILE) &&
                pr_cp_is_aclop(pr_sget_str(e, PR_K_NAME)) && v > 0)
                us += v;
        }
    }
    if (!(steps > 0))
        return -1;
    us = us / steps + compile;
    /* a top shorter than critpath.c's 8 lists the whole path: it tells
       (review 8 #3: a path entered from a peer holds only the host work
       after the collective) */
    return us > 0 || !(calls > 0) || !full ? us : -1;
}

/* The path's largest kind: its by_kind_us key and its time a step. */
static const char *
path_top_kind(const cJSON *cp, double *us)
{
    const cJSON *k;
    const char *top = NULL;

    *us = 0;
    cJSON_ArrayForEach(k, pr_sget(cp, PR_K_BY_KIND_US))
    {
        if (cJSON_IsNumber(k) && k->valuedouble > *us) {
            *us = k->valuedouble;
            top = k->string;
        }
    }
    return top;
}

/* The finding's text with the sentence of its replay appended: "Replayed
 * <how>, the <win> is <gain> shorter (<pct>%)<tail>." (win: "step", or
 * "capture" for a run without steps)  0: out of memory. */
static int
put_replayed(cJSON *r, const cJSON *w, const char *win, const char *how,
             const char *tail)
{
    char text[4000], g[32];

    fmt_us(pr_sget_num(w, PR_K_GAIN_US), g, sizeof(g));
    snprintf(text, sizeof(text),
             "%s Replayed %s, the %s is %s shorter "
             "(%.1f%%)%s.",
             pr_sget_str_or(r, PR_K_TEXT, ""), how, win, g,
             pr_sget_num(w, PR_K_GAIN_PCT), tail);
    return put_text(r, text);
}

/* Whether the aclop finding claims w's gain: a replay that saves 1% or
 * more, or any saving of the binary-kernel replay (aclop_binary) - the
 * finding stands on its calls' share of the step, and the replay's figure
 * is then truer than their time on the path, which would say more (npu
 * db_level1 rank0: 1.1 ms replayed, 0.8%, against 6.5 ms on the path). */
static int
compile_claims(const cJSON *w)
{
    return pr_sget_num(w, PR_K_GAIN_PCT) >= PR_WHATIF_MIN_PCT ||
           (pr_sget_is(pr_sget_str(w, PR_K_ID), "aclop_binary") &&
            pr_sget_num(w, PR_K_GAIN_US) > 0);
}

static int
compile_gain(cJSON *r, const cJSON *w, const cJSON *cp, const cJSON *run)
{
    const cJSON *kinds = pr_sget(cp, PR_K_BY_KIND_US), *k;
    double on_path = pr_sget_num(kinds, PR_K_OP_COMPILE), path = 0;
    double aclop = aclop_on_path(cp), top_us;
    const char *top = path_top_kind(cp, &top_us);
    char text[2000], g[32], where[600] = "", c[32], a[32], note[400];
    char calls[160] = "";

    /* the path's own figure: the calls and the device's wait while the
       host compiled (critpath.c's op_compile kind, review-2 finding 4) */
    cJSON_ArrayForEach(k, kinds)
    {
        path += cJSON_IsNumber(k) && k->valuedouble > 0 ? k->valuedouble : 0;
    }
    if (aclop > 0 && path > 0) {
        fmt_us(aclop, g, sizeof(g));
        snprintf(calls, sizeof(calls),
                 "; with their compile steps, the aclop calls hold %s a "
                 "step of the path (%.1f%%)",
                 g, 100.0 * aclop / path);
    }
    if (on_path > 0 && path > 0) {
        fmt_us(on_path, c, sizeof(c));
        snprintf(where, sizeof(where),
                 " On the critical path, compilation (the compile steps, "
                 "and the NPU's wait during them) takes %s a step, %.1f%% "
                 "of the path; the rest of the calls is host work on the "
                 "aclop path, counted with the launches%s.",
                 c, 100.0 * on_path / path, calls);
    } else if (aclop == 0 && path > 0 && top != NULL) {
        /* review 6 #3: npu_db1's path is 98% hcom_allReduce; its calls
           run on the host beside it (text_level1 rank0: they end 56.8
           ms into the step, inside the 45.5-124.6 ms allReduce) */
        fmt_us(top_us, c, sizeof(c));
        fmt_us(path, a, sizeof(a));
        snprintf(where, sizeof(where),
                 " The step's critical path does not run through these "
                 "calls on this rank: it holds %s, and %s takes %s of its "
                 "%s a step "
                 "(%.0f%%); the calls run on the host beside it%s, so "
                 "binary kernels would not shorten this rank's step as "
                 "traced.",
                 /* host work after a collective a peer set (review 8
                    #3): what the path holds is not every call */
                 pr_sget_num(kinds, PR_K_LAUNCH) +
                             pr_sget_num(kinds, PR_K_HOST_OP) >
                         0
                     ? "none of them"
                     : "no launches, host operators or compilation",
                 /* the path's words for the kind, not its key (review
                    8 #3's peer_wait) */
                 strcmp(top, PR_K_PEER_WAIT) == 0 ? "set by another rank" : top,
                 c, a, 100.0 * top_us / path,
                 strcmp(top, PR_K_COMMUNICATION) == 0
                     ? ", hidden behind the collectives"
                 : strcmp(top, PR_K_PEER_WAIT) == 0
                     ? ", in the time the other rank sets"
                     : "");
    }
    if (where[0] != '\0') {
        snprintf(text, sizeof(text), "%s%s", pr_sget_str_or(r, PR_K_TEXT, ""),
                 where);
        if (!put_text(r, text))
            return 0;
    }
    if (compile_claims(w)) {
        /* binary kernels (aclop_binary, issue #31) or the compile steps
           alone (op_compile), whichever saves more */
        int binary = pr_sget_is(pr_sget_str(w, PR_K_ID), "aclop_binary");

        return put_replayed(
            r, w, pr_run_gain_window(run),
            binary ? "with each aclop call taking what a binary kernel of its "
                     "class costs the host in this export (the floor the gain "
                     "note names: its class's aclnn calls, else a matmul, "
                     "convolution or pooling kin's, else both aclnn phases' "
                     "medians) and the NPU's wait inside the aclop "
                     "calls gone"
                   : "without the compile steps (and the device idle that "
                     "falls inside them, since the device waited for the host "
                     "to compile)",
            binary ? "" : "; the aclop path's execution is kept");
    }
    if (aclop > 0 && path > 0 && pr_sget_str(cp, PR_K_PEER_WAIT_NOTE) != NULL) {
        /* review 7 #1: the calls run before a collective that waited for
           another rank; the replay keeps its end */
        fmt_us(aclop, a, sizeof(a));
        snprintf(note, sizeof(note),
                 "none on this rank: replayed as binary kernels, the step "
                 "is under 1%% shorter; the calls' %s a step on the path "
                 "run before a collective that waits for another rank "
                 "(HCCL's Notify Wait), whose wait grows by what they save "
                 "(see the critical path's peer note)",
                 a);
        return no_gain_bound(r, note, 0);
    }
    if (aclop > 0 && path > 0) {
        /* review 6 #2: the calls' time on the path bounds what binary
           kernels save (bound_us, ranked after the replayed gains) */
        fmt_us(aclop, a, sizeof(a));
        snprintf(note, sizeof(note),
                 "not replayed: how long these operators take as binary "
                 "kernels is not in the trace; their aclop calls' time on "
                 "the critical path, %s a step (%.1f%% of the path), is the "
                 "most running them as binary kernels can save",
                 a, 100.0 * aclop / path);
        return no_gain_bound(r, note, aclop);
    }
    if (aclop == 0 && path > 0) {
        /* issue #31: the aclop replay (aclop_binary) saves nothing here;
           the finding stays, last (bound 0), for the host time the calls
           hold beside the path */
        double host = pr_sget_num(pr_sget(run, PR_K_OP_COMPILE), PR_K_TOTAL_US),
               steps = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_COUNT);

        if (host > 0 && steps > 0) {
            fmt_us(host / steps, a, sizeof(a));
            snprintf(note, sizeof(note),
                     "none on this rank: binary kernels would not shorten "
                     "its step as traced, since the step's critical path "
                     "does not run through these calls (see the text); "
                     "still worth doing where the collectives stop "
                     "bounding the step: the calls hold the host %s a "
                     "step beside them",
                     a);
        } else
            snprintf(note, sizeof(note),
                     "none on this rank: the step's critical path does not "
                     "run through these calls (see the text)");
        return no_gain_bound(r, note, 0);
    }
    return no_gain(r, "no gain claimed: with the compile steps gone "
                      "the replayed step is under 1% shorter, and how "
                      "long these operators would take as binary "
                      "kernels off the aclop path is not in the trace");
}

/* Collectives whose messages are large (COMM_BIG_BYTES or more on
 * average) yet move under COMM_SLOW_GBPS of algorithm bandwidth: slower
 * than any datacenter link (10 GbE is 1.25 GB/s), so the transport is the
 * problem, not the step's shape (review-3 finding 4: HTA's cpu_only,
 * gloo:all_reduce 4.6 MiB each at 0.02 GB/s; the other shared samples'
 * large collectives move 2.3-84 GB/s). */
#define COMM_BIG_BYTES (1024.0 * 1024.0)
#define COMM_SLOW_GBPS 1.0

/* What a Gloo collective's backend advice rests on (issue #28 #4): a
 * CPU-only run (host_only: no device work in the trace) moves host
 * tensors, Gloo's place, so NCCL is no advice there; where the run has
 * device work, the trace does not say where the collectives' tensors
 * are (Gloo's ops record no device), so NCCL is advice only if on the
 * GPU.  "" for another backend.  `lead`: the words before (". "). */
static const char *
gloo_backend_words(const cJSON *run, const cJSON *o, char *buf, size_t cap,
                   const char *lead)
{
    const cJSON *k;
    double kernels = 0;

    if (strcmp(pr_sget_str_or(o, PR_K_BACKEND, ""), "gloo") != 0)
        return "";
    if (cJSON_IsTrue(pr_sget(run, PR_K_HOST_ONLY))) {
        snprintf(buf, cap,
                 "%sThe trace records no device work, so these collectives "
                 "move host tensors, for which Gloo is the backend (NCCL "
                 "carries GPU tensors only)",
                 lead);
        return buf;
    }
    cJSON_ArrayForEach(k, pr_sget(run, PR_K_KERNELS))
    {
        double c = pr_sget_num(k, PR_K_CALLS);

        kernels += c > 0 ? c : 0;
    }
    snprintf(buf, cap,
             "%sThe run has device work (%.0f kernel calls) but its "
             "collectives run through Gloo on the host, and the trace does "
             "not record which device their tensors are on: if on the GPU, "
             "the NCCL backend keeps them there, and its hierarchical "
             "(intra-node first) algorithms take fewer slow hops",
             lead, kernels);
    return buf;
}

/* Time that does not grow with size (comm.c's test, its size_note on
 * the op: HTA's cpu_only, gloo buckets of 1.29 MB and 8.33 MB both take
 * ~175 ms, so the per-call rates measure waiting, not the link, review-5
 * finding 3).  1: so, with the words in text. */
static int
flat_in_size(const cJSON *run, const cJSON *o, double group, char *text,
             size_t cap)
{
    char gloo[400];
    double sb = pr_sget_num(o, PR_K_SMALL_BYTES),
           lb = pr_sget_num(o, PR_K_LARGE_BYTES);
    double st = pr_sget_num(o, PR_K_SMALL_US),
           lt = pr_sget_num(o, PR_K_LARGE_US);
    const char *coll = pr_comm_collective(pr_sget_str_or(o, PR_K_NAME, ""));
    char hops[200] = "";

    if (pr_sget_str(o, PR_K_SIZE_NOTE) == NULL)
        return 0;
    if (group > 2 && coll != NULL && strcmp(coll, "all_reduce") == 0)
        snprintf(hops, sizeof(hops),
                 " (a ring all-reduce over %.0f ranks passes each call "
                 "through %.0f hops in sequence)",
                 group, 2 * (group - 1));
    else if (group > 2)
        snprintf(hops, sizeof(hops), " (over %.0f ranks)", group);
    snprintf(text, cap,
             " Time does not grow with size: its %.0f calls of %.2f MiB take "
             "%.1f ms on average and its %.0f calls of %.2f MiB take %.1f ms ("
             "%.1fx the bytes, %.2fx the time), so the link's bandwidth is "
             "not what limits them, and the bandwidth figures are each "
             "call's bytes over its time, not what the link can carry. A "
             "call that takes as long whatever it moves waits on per-hop "
             "latency%s or on peers that arrive late: look for stragglers "
             "among the ranks first, then use fewer, larger buckets "
             "(DistributedDataParallel's bucket_cap_mb) so the latency is "
             "paid fewer times%s.",
             /* MiB, as the report's byte figures (review 6 #9) */
             pr_sget_num(o, PR_K_SMALL_CALLS), sb / 1048576.0, st / 1000.0,
             pr_sget_num(o, PR_K_LARGE_CALLS), lb / 1048576.0, lt / 1000.0,
             lb / sb, lt / st, hops,
             gloo_backend_words(run, o, gloo, sizeof(gloo), ". "));
    return 1;
}

static size_t
slow_transport(const cJSON *run, char *text, size_t cap, size_t len)
{
    const cJSON *o;

    cJSON_ArrayForEach(o, pr_sget(pr_sget(run, PR_K_COMMUNICATION), PR_K_OPS))
    {
        double calls = pr_sget_num(o, PR_K_CALLS),
               b = pr_sget_num(o, PR_K_TOTAL_BYTES);
        double bw = pr_sget_num(o, PR_K_ALGBW_GBPS);
        double fly = pr_sget_num(o, PR_K_IN_FLIGHT_MAX);
        double wall = pr_sget_num(o, PR_K_WALL_GBPS);
        const char *be = pr_sget_str_or(o, PR_K_BACKEND, "");
        char both[200] = "", flat[1400], gloo[400];

        /* calls in flight together share the link: it carried their sum */
        if (fly > 1 && wall > bw) {
            snprintf(both, sizeof(both),
                     "; up to %.0f calls run at once, so the link carried "
                     "%.0f MB/s (their bytes over the time any was in "
                     "flight)",
                     fly, wall * 1000.0);
            bw = wall;
        }
        if (!(calls > 0) || !(b / calls >= COMM_BIG_BYTES) ||
            !(bw < COMM_SLOW_GBPS) || !(bw > 0))
            continue;
        if (flat_in_size(run, o, pr_sget_num(o, PR_K_GROUP_SIZE), flat,
                         sizeof(flat))) {
            if (fly > 1 && wall > 0)
                snprintf(both, sizeof(both),
                         "; up to %.0f calls in flight at once, their bytes "
                         "over the time any was in flight %.0f MB/s",
                         fly, wall * 1000.0);
            return pr_append(
                text, cap, len,
                " %.60s moves %.1f MiB a call on average at %.0f MB/s of "
                "algorithm bandwidth a call (nccl-tests' algBw: a call's "
                "bytes over its own time)%s.%s",
                pr_sget_str_or(o, PR_K_NAME, "?"), b / calls / 1048576.0,
                pr_sget_num(o, PR_K_ALGBW_GBPS) * 1000.0, both, flat);
        }
        return pr_append(
            text, cap, len,
            " %.60s moves %.1f MiB a call at %.0f MB/s of algorithm "
            "bandwidth a call (nccl-tests' algBw: a call's bytes over its "
            "own time)%s, slower than any datacenter link (10 GbE "
            "carries 1.25 GB/s): the transport is the problem before the "
            "step's shape. %s%s%s",
            pr_sget_str_or(o, PR_K_NAME, "?"), b / calls / 1048576.0,
            pr_sget_num(o, PR_K_ALGBW_GBPS) * 1000.0, both,
            strcmp(be, "gloo") == 0
                ? "Check the network interface Gloo uses (GLOO_SOCKET_IFNAME: "
                  "a management or loopback interface is a common mistake) "
                  "and what else shares the link"
            : strcmp(be, "nccl") == 0 || strcmp(be, "rccl") == 0
                ? "Check the interface and transport the backend chose "
                  "(its debug log: NCCL_DEBUG=INFO names them) and what "
                  "else shares the link."
                : "Check the interface and transport the backend chose "
                  "(its debug log names them) and what else shares the "
                  "link.",
            gloo_backend_words(run, o, gloo, sizeof(gloo), ". "),
            strcmp(be, "gloo") == 0 ? "." : "");
    }
    return len;
}

/* The communication advice names the accumulation replay with its
 * caveats, so a reader sees it and why it is not claimed (the plugin's
 * text recommends accumulation among others; torch_npu's does not), and
 * says when the transport itself is slow.  0: out of memory. */
static size_t accum_words(const cJSON *a, const char *t, const char *win,
                          int p2p, char *text, size_t cap, size_t len);

static int
accum_caveat(cJSON *r, const cJSON *whatif, const cJSON *run)
{
    const cJSON *a = pr_sget_find(whatif, PR_K_ID, "gradient_accumulation");
    const char *t = pr_sget_str_or(r, PR_K_TEXT, ""), *p2p;
    char text[2400];
    double p[4];
    size_t len;

    if (!pr_sget_is(pr_sget_str(r, PR_K_ID), PR_K_COMMUNICATION))
        return 1;
    len = pr_append(text, sizeof(text), 0, "%s", t);
    len = accum_words(a, t, pr_run_window(run),
                      pr_producer_p2p_waits(run, p, &p2p), text, sizeof(text),
                      len);
    len = slow_transport(run, text, sizeof(text), len);
    return strcmp(text, t) == 0 || put_text(r, text);
}

/* The accumulation replay's sentence (what-if a; t: the finding's text,
 * which may name accumulation already; win: the run's window, "step" or
 * "capture") appended to text at len. */
static size_t
accum_words(const cJSON *a, const char *t, const char *win, int p2p, char *text,
            size_t cap, size_t len)
{
    if (pr_sget_num(a, PR_K_GAIN_PCT) >= PR_WHATIF_MIN_PCT)
        len = pr_append(
            text, cap, len,
            " %s over two micro-batches (or twice the batch) replays to "
            "%.1f%% less time per %s's worth of samples; it is not "
            "claimed as this finding's gain: %s, which "
            "accumulation does not fix. Like a larger batch's gain, it "
            "would be per %s's worth of samples and change the "
            "effective batch (the learning rate may need retuning).",
            strstr(t, "ccumulation") != NULL ? "Of these, gradient accumulation"
                                             : "Gradient accumulation",
            pr_sget_num(a, PR_K_GAIN_PCT), win,
            p2p ? "most of the communication is point-to-point waiting, "
                  "the rank idle until its peer sends" PR_P2P_STAGE_HEDGE
                : "the finding is the collectives, and where most of their "
                  "time is idle or waiting, peers that arrive late (a "
                  "slower rank, a straggling data loader) are the first "
                  "thing to rule out",
            win);
    return len;
}

/* The communication advice's figure from the overlap replay (what-if
 * w): a bound (bound_us, shown "<="), not a gain.  The replay lets no
 * work but the collectives' consumers wait for a collective, which is
 * what buckets started during backward give at best: how much of each
 * bucket hides behind the backward compute that runs meanwhile depends
 * on the bucket sizes and when the gradients come, which the trace does
 * not say for a change.  0: out of memory. */
static int
comm_bound(cJSON *r, const cJSON *whatif, const cJSON *run, const cJSON *w)
{
    char note[900], b[32];
    struct rec_set s = {0};
    const char *p2p;
    double p[4];
    cJSON *ev = NULL;
    int ok;

    fmt_us(pr_sget_num(w, PR_K_GAIN_US), b, sizeof(b));
    if (pr_producer_p2p_waits(run, p, &p2p)) {
        /* mostly a stage waiting for its peer stage: that wait is the
           evidence, the bound is the collectives' alone (issue #30) */
        const cJSON *e;
        char nm[160];
        int n = 0;

        snprintf(note, sizeof(note),
                 "most of HCCL's %.1f ms a %s is point-to-point waiting, "
                 "not the collectives: %s Wait %.1f ms, Idle %.1f ms, "
                 "Transit %.1f ms (communication.json), the rank idle "
                 "until its peer sends (in a pipeline, the peer stage), "
                 "which msprof-"
                 "analyze's cluster analysis reads as a slow rank, not "
                 "bandwidth; the overlap replay leaves point-to-point as "
                 "it is, so its bound, %s, is the collectives' alone, and "
                 "neither it nor buckets overlapped with backward shorten "
                 "the wait: in a pipeline, balancing the stages does "
                 "(the Distributed section's pipeline view, where it "
                 "finds them unbalanced)",
                 p[3] / 1000.0, pr_run_window(run), p2p, p[0] / 1000.0,
                 p[1] / 1000.0, p[2] / 1000.0, b);
        ev = cJSON_CreateArray();
        ok = ev != NULL;
        snprintf(nm, sizeof(nm), "%s Wait (communication.json)", p2p);
        ok = ok && pr_emit_evidence(ev, nm, p[0], NAN);
        snprintf(nm, sizeof(nm), "%s Idle (communication.json)", p2p);
        ok = ok && pr_emit_evidence(ev, nm, p[1], NAN);
        cJSON_ArrayForEach(e, pr_sget(w, PR_K_EVIDENCE))
        {
            if (n++ == 2 || !ok)
                break;
            ok = pr_emit_evidence(ev, pr_sget_str_or(e, PR_K_NAME, "?"),
                                  pr_sget_num(e, PR_K_US), NAN);
        }
        s.cols = RS_WHAT_IF | RS_NO_GAIN | RS_NOTE | RS_BOUND | RS_EVIDENCE;
        s.what_if = pr_sget_str(w, PR_K_ID);
        s.gain_note = note;
        s.bound_us = pr_sget_num(w, PR_K_GAIN_US);
        s.evidence = ev;
        ok = ok && accum_caveat(r, whatif, run) && rec_put(r, &s);
        cJSON_Delete(ev);
        return ok;
    }
    if (pr_run_trains(run) == 0)
        /* no backward: no gradient buckets, no optimizer (review 28h #6:
           vLLM's tensor-parallel all-reduces) */
        snprintf(note, sizeof(note),
                 "an upper bound, not a replayed change: with no work but "
                 "the collectives' consumers waiting for a collective, the "
                 "%s is %s shorter; how much of that overlapping them with "
                 "independent compute achieves depends on the model's "
                 "dependencies, which the trace does not give",
                 pr_run_window(run), b);
    else
        snprintf(note, sizeof(note),
                 "an upper bound, not a replayed change: with no work but "
                 "the collectives' consumers (the work after the last one, "
                 "such as the optimizer) waiting for a collective, the %s is "
                 "%s shorter; how much of that overlapping the buckets with "
                 "backward achieves depends on bucket sizes the trace does "
                 "not give",
                 pr_run_window(run), b);
    s.cols = RS_WHAT_IF | RS_NO_GAIN | RS_NOTE | RS_BOUND | RS_EVIDENCE;
    s.what_if = pr_sget_str(w, PR_K_ID);
    s.gain_note = note;
    s.bound_us = pr_sget_num(w, PR_K_GAIN_US);
    s.evidence = pr_sget(w, PR_K_EVIDENCE);
    return accum_caveat(r, whatif, run) && s.evidence != NULL && rec_put(r, &s);
}

/* The collectives' time on the critical path outside their waits for
 * another rank, a step: what the levers on the collectives themselves
 * (buckets, bytes) can save once the late rank arrives on time (review
 * 8 #6: mindinsight_cann6 rank 0, AllReduce-op534_0's 41.53 ms less its
 * 38.43 ms of NOTIFY_WAIT, 3.1 ms).  Where by_kind_us's communication
 * holds the whole collectives, waits included (c >= w), it is c - w;
 * where the walk files the path up to the point it enters from the peer
 * under a kind of its own (communication then under the wait), it is c. */
static double
comm_outside_wait(const cJSON *cp)
{
    double c = pr_sget_num(pr_sget(cp, PR_K_BY_KIND_US), PR_K_COMMUNICATION);
    double w = pr_sget_num(cp, PR_K_PEER_WAIT_US);

    if (!isnan(pr_sget_num(cp, PR_K_PEER_CHAIN_COMM_US)))
        /* the path enters from the peer: the chain once it is on time
           (critpath.c), the collectives before the entry too */
        return pr_sget_num(cp, PR_K_PEER_CHAIN_COMM_US);
    if (isnan(c) || isnan(w))
        return NAN;
    return c >= w ? c - w : c;
}

/* What the late rank alone arriving on time saves this one (review 10
 * #1, issue #31): runs[].late_peer.alone_us, over every peer-bound
 * collective on its chain, each one's wait for that rank less the
 * next-latest rank's there (text_level1 rank0: 73.15 ms in _0_1, where it
 * also waits 5.62 ms for rank 1, and all of _3_1's 21.98 ms, where rank 5
 * alone is waited for).  The rest of the bound stays, the next-latest
 * rank's wait among it (review 9 #1: msprof_cann6 rank0 waits 32.75 ms
 * for rank 2 and 29.64 ms for rank 3).  NAN where no rank is named or it
 * saves nothing. */
static double
alone_us(const cJSON *run)
{
    double a = pr_sget_num(pr_sget(run, PR_K_LATE_PEER), PR_K_ALONE_US);

    return a > 0 ? a : NAN;
}

/* Whether the late rank's wait on the path is in a warm-up first step
 * (80% of it or more; critpath.c leaves that step out of late_peer's
 * per-step figures, as the verdict's shares do): hunt30 #2, mindinsight's
 * 10-iteration CANN 6 job, rank0's 32.75 ms wait for rank 2 in iteration
 * 1, no wait over 2.24 ms after it. */
static int warmup_first(const cJSON *run);

static int
peer_first_only(const cJSON *run)
{
    /* the verdict's shares leave that step out too (warmup_first) */
    return pr_sget_num(pr_sget(run, PR_K_LATE_PEER), PR_K_FIRST_STEP_PCT) >=
               80.0 &&
           warmup_first(run);
}

/* The Notify Wait a step on the path that bounds the finding: late_peer's
 * figure over the steps after a warm-up first step where critpath.c left
 * that step out (first_step_pct), as the verdict's shares do; else the
 * path's mean over every step. */
static double
peer_bound_us(const cJSON *run, const cJSON *cp)
{
    const cJSON *lp = pr_sget(run, PR_K_LATE_PEER);

    if (!isnan(pr_sget_num(lp, PR_K_FIRST_STEP_PCT)) && warmup_first(run))
        return pr_sget_num(lp, PR_K_PEER_WAIT_US);
    return pr_sget_num(cp, PR_K_PEER_WAIT_US);
}

/* The mean step the finding's share is of: the steps after a warm-up
 * first step where peer_bound_us leaves it out, else every step's. */
static double
peer_step_us(const cJSON *run, const cJSON *cp)
{
    const cJSON *ss = pr_sget(run, PR_K_STEP_SUMMARY);
    double mean = pr_sget_num(ss, PR_K_MEAN_US),
           n = pr_sget_num(ss, PR_K_COUNT),
           f = pr_sget_num(cJSON_GetArrayItem(pr_sget(cp, PR_K_STEPS), 0),
                           PR_K_MEASURED_US);

    if (!isnan(
            pr_sget_num(pr_sget(run, PR_K_LATE_PEER), PR_K_FIRST_STEP_PCT)) &&
        warmup_first(run) && n > 1 && !isnan(f) && mean * n > f)
        return (mean * n - f) / (n - 1);
    return mean;
}

/* The finding's estimate: alone_us, or where the next-latest rank came
 * close behind the late rank (late_peer.group_rank: alone on time it
 * saves less than half of what both save; review 11 #3, msprof_cann6's
 * ranks 2 and 3, 3.11 ms apart after 32.75 and 29.64 ms), the wait gone
 * with both on time, every other rank as measured (group_us); *group is
 * that rank, else NAN. */
static double
late_gain_us(const cJSON *run, double *group)
{
    const cJSON *lp = pr_sget(run, PR_K_LATE_PEER);
    double g = pr_sget_num(lp, PR_K_GROUP_US);

    *group = NAN;
    if (isnan(alone_us(run)) || !(g > 0))
        return alone_us(run);
    *group = pr_sget_num(lp, PR_K_GROUP_RANK);
    return g;
}

/* The sentence on it, after the peer note; the new length of text.  The
 * rule as the code computes it (review 11 #9: text_level1's _1_1, under
 * half wait, also waited last for rank 5 and is not counted): the
 * peer-bound collectives only. */
static size_t
alone_words(const cJSON *run, const cJSON *cp, char *text, size_t cap,
            size_t len)
{
    const cJSON *lp = pr_sget(run, PR_K_LATE_PEER);
    double late = pr_sget_num(lp, PR_K_RANK), nr,
           nw = pr_job_next_wait(run, late, &nr), a = alone_us(run), gr,
           g = late_gain_us(run, &gr),
           bound = pr_sget_num(cp, PR_K_PEER_WAIT_US);
    char rest[200] = "";

    if (isnan(a) || !(bound > 0))
        return len;
    if (!isnan(gr) && bound - g >= 10.0) {
        /* review 12 #3: the rest names its largest wait, as the one-rank
           sentence does (msprof_cann6 rank1: 9.93 ms of its 13.70 ms
           for rank 0, which is in the report) */
        double orank, ow = pr_job_wait_besides(run, late, gr, &orank);

        if (ow >= 1000.0)
            snprintf(rest, sizeof(rest),
                     ", its %.2f ms wait for rank %.0f in %s among them",
                     ow / 1e3, orank, pr_sget_str_or(lp, PR_K_NAME, "?"));
    }
    if (!isnan(gr)) {
        char tail[400];

        if (bound - g >= 10.0)
            snprintf(tail, sizeof(tail),
                     " The bound's other %.2f ms stay%s; the bound counts "
                     "every rank it waits for on time.",
                     (bound - g) / 1e3, rest);
        else
            snprintf(tail, sizeof(tail),
                     " The bound, %.2f ms, is all of it: the two are all it "
                     "waits for there.",
                     bound / 1e3);
        return pr_append(
            text, cap, len,
            " With ranks %.0f and %.0f on time, every other rank as "
            "measured, this rank saves about %.2f ms a step, the finding's "
            "estimate: in each collective on its chain that spent half its "
            "time or more in Notify Wait and whose last notify came from "
            "either, its wait less the latest wait for a rank outside the "
            "two. Rank %.0f alone on time saves only %.2f ms a step, as "
            "rank %.0f's %.2f ms wait in %s would then hold the transfers."
            "%s",
            late, gr, g / 1e3, late, a / 1e3, gr, nw / 1e3,
            pr_sget_str_or(lp, PR_K_NAME, "?"), tail);
    }
    if (nw >= 1000.0)
        snprintf(rest, sizeof(rest),
                 ", its %.2f ms wait for rank %.0f in %s "
                 "among them",
                 nw / 1e3, nr, pr_sget_str_or(lp, PR_K_NAME, "?"));
    return pr_append(
        text, cap, len,
        " With rank %.0f alone on time, every other rank as measured, this "
        "rank saves about %.2f ms a step, the finding's estimate: in each "
        "collective on its chain that spent half its time or more in "
        "Notify Wait and whose last notify came from rank %.0f, its wait "
        "for it less the next-latest rank's there. The bound's other "
        "%.2f ms stay%s; the bound (%.2f ms) counts every rank it waits for "
        "on time.",
        late, a / 1e3, late, (bound - a) / 1e3, rest, bound / 1e3);
}

/* The collectives' Notify Waits on the path (critical_path.
 * peer_wait_parts), the parts of the bound, as evidence rows: one
 * measure, the wait, each with its collective's whole time (review 10
 * #2: the cell mixed the longest wait, a collective's time outside its
 * wait, and CANN 6's whole collective).  NULL: out of memory. */
static cJSON *
peer_evidence(const cJSON *cp)
{
    cJSON *ev = cJSON_CreateArray();
    const cJSON *p;

    cJSON_ArrayForEach(p, pr_sget(cp, PR_K_PEER_WAIT_PARTS))
    {
        if (!pr_emit_evidence(ev, pr_sget_str_or(p, PR_K_NAME, "?"),
                              pr_sget_num(p, PR_K_US),
                              pr_sget_num(p, PR_K_TOTAL_US))) {
            cJSON_Delete(ev);
            return NULL;
        }
    }
    return ev;
}

/* The gain note: the estimate's model where a rank is named, else why
 * none (npu_text0: the export names no rank its waits are for). */
static void
peer_note(const cJSON *run, const cJSON *cp, char *note, size_t cap)
{
    double gr, a = late_gain_us(run, &gr), bound = peer_bound_us(run, cp);
    double late = pr_sget_num(pr_sget(run, PR_K_LATE_PEER), PR_K_RANK);
    char x[32], b[32], y[32], w[32];

    fmt_us(a, x, sizeof(x));
    fmt_us(bound, b, sizeof(b));
    fmt_us(alone_us(run), y, sizeof(y));
    /* review32a #1: the mean over every step is the path's, the evidence's
       (peer_bound_us is the steps' after the first) */
    fmt_us(pr_sget_num(cp, PR_K_PEER_WAIT_US), w, sizeof(w));
    if (pr_sget_run_first_iteration_only(run))
        snprintf(note, cap,
                 "no estimate: the %s holds only the program's first "
                 "iteration (%s), with HCCL's link setup and first-call "
                 "costs, so whether rank %.0f's lateness recurs in the "
                 "steps after it is not known. %s, the collectives' Notify "
                 "Wait on the path, is that step's",
                 pr_sget_str(run, PR_K_ITERATIONS_NOTE) != NULL
                     ? "timeline export"
                     : "capture",
                 pr_sget_str_or(cJSON_GetArrayItem(pr_sget(run, PR_K_STEPS), 0),
                                PR_K_NAME, "?"),
                 late, b);
    else if (peer_first_only(run))
        snprintf(note, cap,
                 "no estimate: rank %.0f's lateness is in the first step "
                 "only (%.0f%% of the Notify Wait for it on the path), a "
                 "warm-up left out of the steps' shares; in the steps after "
                 "it no collective on the path spends half its time or more "
                 "in Notify Wait. %s, the collectives' "
                 "Notify Wait on the path, is its mean over every step, the "
                 "first included",
                 late,
                 pr_sget_num(pr_sget(run, PR_K_LATE_PEER), PR_K_FIRST_STEP_PCT),
                 w);
    else if (!isnan(gr))
        snprintf(note, cap,
                 "estimate %s a step, a stated model, not a replay: ranks "
                 "%.0f and %.0f arrive on time and every other rank as "
                 "measured, so in each collective that spent half its time "
                 "or more in Notify Wait and whose last notify came from "
                 "either, the wait less the latest for a rank outside the "
                 "two goes (the waits begun before its first transfer, "
                 "HCCL's dst rank; rank %.0f alone on time: %s, the two "
                 "came that close); the bound, %s, is the collectives' "
                 "Notify Wait on the path, the most every rank it waits for "
                 "arriving on time would save this one",
                 x, late, gr, late, y, b);
    else if (!isnan(a))
        snprintf(note, cap,
                 "estimate %s a step, a stated model, not a replay: rank %.0f "
                 "arrives on time and every other rank as measured, so in "
                 "each collective that spent half its time or more in "
                 "Notify Wait and whose last notify came from rank %.0f, "
                 "the wait for it less the next-latest rank's goes (the waits "
                 "begun before its first transfer, HCCL's dst rank); the "
                 "bound, %s, is the collectives' Notify Wait on the path, "
                 "the most every rank it waits for arriving on time would "
                 "save this one",
                 x, late, late, b);
    else
        snprintf(note, cap,
                 "no estimate: %s; the bound, %s, is "
                 "the collectives' Notify Wait on the path, the most every "
                 "rank it waits for arriving on time would save this one",
                 isnan(late) ? "the export names no rank its Notify Waits "
                               "are for, which the model of one rank "
                               "arriving on time needs (torch_npu writes "
                               "HCCL's plane tasks, which name it, at "
                               "profiler_level Level1 and up, Level2 before "
                               "6.0.RC2)"
                             : "the late rank's own wait here is not "
                               "longer than the next-latest rank's",
                 b);
}

/* The communication advice where the path's collectives wait for a
 * peer rank (critical_path.peer_wait_note): one reading, the timeline's
 * (review 8 #1, #6).  The peer note leads; the producer's figures follow
 * read as that wait (no bandwidth figure, no lever stated as if the time
 * were transfer); the levers on the collectives come with what they can
 * save at most once the late rank is on time; the changes every rank
 * makes (accumulation, a larger batch) are not replayed on such a step
 * (docs/critical-path.md: how a change moves the late rank's arrival is
 * not in this trace).  The gain is a stated model's (alone_us: the late
 * rank on time, every other rank as measured); the bound is the wait.  The
 * op_compile finding, when it has no gain here, is folded in after
 * (fold_compile).  0: out of memory. */
static int
comm_peer(cJSON *r, const cJSON *whatif, const cJSON *cp, const cJSON *run)
{
    struct rec_set s = {0};
    cJSON *ev;
    int ok;
    double wait = pr_sget_num(cp, PR_K_PEER_WAIT_US);
    double rest = comm_outside_wait(cp), gr, a = late_gain_us(run, &gr);
    double step = peer_step_us(run, cp), bound = peer_bound_us(run, cp);
    char text[3200], base[1600], x[32], c[32], h[32], note[900];
    size_t len;

    (void)whatif;
    if (!pr_producer_comm_peer(run, wait / 1000.0, base, sizeof(base)))
        snprintf(base, sizeof(base), "%s", pr_sget_str_or(r, PR_K_TEXT, ""));
    len = pr_append(text, sizeof(text), 0, "%s",
                    pr_sget_str(cp, PR_K_PEER_WAIT_NOTE));
    if (!pr_sget_run_first_iteration_only(
            run)) /* no per-step estimate (peer_note) */
        len = alone_words(run, cp, text, sizeof(text), len);
    len = pr_append(text, sizeof(text), len, " %s", base);
    if (!isnan(rest)) {
        fmt_us(rest, x, sizeof(x));
        fmt_us(rest + wait, c, sizeof(c));
        fmt_us(wait, h, sizeof(h));
        len = pr_append(
            text, sizeof(text), len,
            " Once the late rank%s on time, the levers on the "
            "collectives themselves save at most %s a step on this rank: "
            "the collectives' own time outside that wait (%s of their %s; "
            "%s is the wait), %s: %s. Gradient accumulation and a "
            "larger batch, changes every rank makes, are not replayed on "
            "such a step: spread over twice the samples, the late rank's "
            "wait would look halved, which holds only if its lateness does "
            "not grow with its own work, and this trace, without that rank, "
            "cannot tell; once it is on time, accumulation over two "
            "micro-batches saves at most half of the %s per step's worth of "
            "samples (the collectives run once for both) and changes the "
            "effective batch.",
            isnan(gr) ? " arrives" : "s arrive", x, x, c, h,
            isnan(pr_sget_num(cp, PR_K_PEER_CHAIN_COMM_US))
                ? "on its critical path"
                : "on the chain its path takes once that rank is on time, "
                  "the collectives before the one it waits in included",
            pr_producer_comm_levers(run), x);
    }
    (void)len;
    peer_note(run, cp, note, sizeof(note));
    if (pr_sget_run_first_iteration_only(run) &&
        pr_sget_str(run, PR_K_ITERATIONS_NOTE) != NULL) {
        /* issue #30: the step trace times the later iterations */
        pr_append(text, sizeof(text), strlen(text),
                  " This timeline export holds only the program's first "
                  "iteration, which includes HCCL's link setup and "
                  "first-call costs: whether the wait recurs is not known. "
                  "%s Read that iteration before acting on it.",
                  pr_sget_str(run, PR_K_ITERATIONS_NOTE));
        bound = 0;
        a = NAN;
    } else if (pr_sget_run_first_iteration_only(run)) {
        /* one first iteration: no per-step figure (review 31 #6) */
        pr_append(text, sizeof(text), strlen(text),
                  " The capture holds only the program's first iteration, "
                  "which includes HCCL's link setup and first-call costs: "
                  "whether the wait recurs is not known. Profile iterations "
                  "after the first before acting on it.");
        bound = 0;
        a = NAN;
    } else if (peer_first_only(run)) {
        /* no bound a step either: the wait is the warm-up's */
        pr_append(text, sizeof(text), strlen(text),
                  " That wait is in the first step only, a warm-up: in the "
                  "steps after it no collective on the path waits for a "
                  "late rank.");
        bound = 0;
    }
    s.cols = RS_TEXT | RS_NO_GAIN | RS_NOTE | RS_EVIDENCE |
             (bound > 0 ? RS_BOUND : 0u);
    if (!isnan(a) && step > 0) {
        /* a stated model's estimate under the bound (issue #31) */
        s.cols |= RS_GAIN | RS_BASIS | RS_SOURCE;
        s.gain_us = a;
        s.gain_pct = 100.0 * a / step;
        s.gain_basis = PR_GAIN_PER_STEP;
        s.gain_source = PR_GAIN_MODEL;
    }
    s.text = text;
    s.gain_note = note;
    s.bound_us = bound;
    s.evidence = ev = peer_evidence(cp);
    ok = ev != NULL && rec_put(r, &s);
    cJSON_Delete(ev);
    return ok;
}

/* The communication finding where the late rank's wait is in a warm-up
 * first step only (peer_first_only; review32a #1: mindinsight's
 * 10-iteration job, rank 0's AllReduce-op534_0 38.43 of 41.53 ms Notify
 * Wait for rank 2 in step 1, then 9.2-10.2 ms of Memcpy and Reduce_Inline
 * after backward in steps 2-10, 61% of the step): the rule over the steps
 * after the warm-up, titled as the ordinary communication finding.  The
 * producer's "would measure the wait" reading stays only where those
 * steps' collectives still wait half their time or more (late_peer.
 * peer_wait_us, the steps after the warm-up).  Its bound: the
 * collectives' time on the critical path a step over those steps (the
 * path's per-step kinds), the levers' most; the overlap replay's figure,
 * over every step, is in its note.  No gain: no replay makes the levers
 * (bucket split, fewer bytes).  0: out of memory. */
#define STEADY_EV 4 /* evidence rows: the steady steps' collectives */

static int
comm_steady(cJSON *r, const cJSON *whatif, const cJSON *cp, const cJSON *run)
{
    const cJSON *lp = pr_sget(run, PR_K_LATE_PEER), *st, *top;
    const cJSON *w = pr_sget_find(whatif, PR_K_ID, "communication");
    double steady_wait = pr_sget_num(lp, PR_K_PEER_WAIT_US), on = 0, n = 0, c;
    double step = peer_step_us(run, cp);
    char text[3200], base[1600], note[900], b[32], sp[32], ov[32] = "";
    struct rec_set s = {0};
    cJSON *ev;
    const char *names[STEADY_EV];
    double sums[STEADY_EV] = {0}, cnt[STEADY_EV] = {0};
    int i, ok, nn = 0;

    cJSON_ArrayForEach(st, pr_sget(cp, PR_K_STEPS))
    {
        if (n++ == 0)
            continue; /* the warm-up */
        c = pr_sget_num(pr_sget(st, PR_K_BY_KIND_US), PR_K_COMMUNICATION);
        on += isnan(c) ? 0 : c;
    }
    on = n > 1 ? on / (n - 1) : NAN;
    /* where the steady steps wait too, the producer's reading of that */
    if (!(steady_wait > 0 &&
          pr_producer_comm_peer(run, steady_wait / 1000.0, base, sizeof(base))))
        snprintf(base, sizeof(base), "%s", pr_sget_str_or(r, PR_K_TEXT, ""));
    fmt_us(on, b, sizeof(b));
    fmt_us(step, sp, sizeof(sp));
    pr_append(text, sizeof(text), 0,
              "In the steps after the first, the collectives on this rank's "
              "critical path take %s of the %s mean step%s. Its collectives' "
              "wait for rank %.0f (HCCL's Notify Wait) is a warm-up's: %.0f%% "
              "of it on the path is in the first step, left out of the "
              "steps' shares. Over every step, the first included: %s The "
              "levers on the collectives themselves save at most %s a step "
              "on this rank in the steps after the first.",
              b, sp,
              steady_wait > 0 ? ""
                              : ", moving data, not waiting for a late "
                                "rank (on the timeline no collective there "
                                "spends half its time or more in HCCL's "
                                "Notify Wait tasks)",
              pr_sget_num(lp, PR_K_RANK), pr_sget_num(lp, PR_K_FIRST_STEP_PCT),
              base, b);
    if (!put_text(r, text))
        return 0;
    if (pr_sget_num(w, PR_K_GAIN_US) > 0)
        fmt_us(pr_sget_num(w, PR_K_GAIN_US), ov, sizeof(ov));
    snprintf(note, sizeof(note),
             "not claimed: the overlap replay, which keeps the collectives "
             "whole and in order and the work after the last one waiting "
             "for it, saves %s%s on the path; splitting them into groups "
             "that start while backward runs, or fewer bytes, is not "
             "replayed, as the trace does not give when each gradient is "
             "ready. The bound, %s, is the collectives' time on the critical "
             "path a step over the steps after the warm-up first step, the "
             "most faster or fully overlapped collectives could save",
             ov[0] != '\0' ? "at most " : "nothing", ov, b);
    /* evidence: the steady steps' collectives on the path, as the
       path's steps name them, each its mean over the steps it is in */
    i = 0;
    cJSON_ArrayForEach(st, pr_sget(cp, PR_K_STEPS))
    {
        if (i++ == 0)
            continue;
        cJSON_ArrayForEach(top, pr_sget(st, PR_K_TOP))
        {
            const char *nm = pr_sget_str(top, PR_K_NAME);
            int k;

            if (nm == NULL ||
                !pr_sget_is(pr_sget_str(top, PR_K_KIND), PR_K_COMMUNICATION))
                continue;
            for (k = 0; k < nn && strcmp(names[k], nm) != 0; k++)
                ;
            if (k == nn && nn == STEADY_EV)
                continue;
            if (k == nn)
                names[nn++] = nm;
            sums[k] += pr_sget_num(top, PR_K_US);
            cnt[k]++;
        }
    }
    ev = cJSON_CreateArray();
    for (i = 0; ev != NULL && i < nn; i++) {
        if (!pr_emit_evidence(ev, names[i], sums[i] / cnt[i], NAN)) {
            cJSON_Delete(ev);
            return 0;
        }
    }
    s.cols = RS_NO_GAIN | RS_NOTE | RS_EVIDENCE | (on > 0 ? RS_BOUND : 0u);
    s.gain_note = note;
    s.bound_us = on;
    s.evidence = ev;
    ok = ev != NULL && rec_put(r, &s);
    cJSON_Delete(ev);
    return ok;
}

/* On a rank whose path waits for another rank, an op_compile finding
 * with no gain (its calls run before that wait: review 8 #4, issue #31's
 * rule that a finding with no gain on the path does not fire ranked)
 * becomes the communication finding's next step: what binary kernels
 * save at most once the late rank is on time, the aclop calls' time on
 * this rank's path (else their host time a step).  The calls' figures
 * stay in summary.json's op_compile and the Host and device part.
 * 0: out of memory. */
static int
fold_compile(cJSON *run, cJSON *recs, const cJSON *cp)
{
    const char *note = pr_sget_str(cp, PR_K_PEER_WAIT_NOTE);
    const cJSON *oc = pr_sget(run, PR_K_OP_COMPILE), *o;
    cJSON *r, *comm = NULL, *compile = NULL;
    double steps = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_COUNT);
    double host = pr_sget_num(oc, PR_K_TOTAL_US),
           chain = pr_sget_num(cp, PR_K_PEER_CHAIN_ACLOP_US),
           /* the chain once the late rank is on time (critpath.c), the
              calls before the entry from the peer too */
        on = !isnan(chain) ? chain : aclop_on_path(cp);
    char text[4400], a[32], t[32], c[32], ops[300] = "";
    size_t len = 0;
    int n = 0;

    cJSON_ArrayForEach(r, recs)
    {
        if (pr_sget_is(pr_sget_str(r, PR_K_ID), PR_K_COMMUNICATION))
            comm = r;
        else if (pr_sget_is(pr_sget_str(r, PR_K_ID), PR_K_OP_COMPILE))
            compile = r;
    }
    if (note == NULL || comm == NULL || compile == NULL ||
        !isnan(pr_sget_num(compile, PR_K_GAIN_US)) ||
        strncmp(pr_sget_str_or(comm, PR_K_TEXT, ""), note, strlen(note)) != 0 ||
        !(host > 0) || !(steps > 0))
        return 1;
    cJSON_ArrayForEach(o, pr_sget(oc, PR_K_OPERATORS))
    {
        if (n == 3)
            break;
        fmt_us(pr_sget_num(o, PR_K_US) / steps, t, sizeof(t));
        len = pr_append(ops, sizeof(ops), len, "%s%s %s", n ? ", " : "",
                        pr_sget_str_or(o, PR_K_NAME, "?"), t);
        n++;
    }
    fmt_us(host / steps, t, sizeof(t));
    fmt_us(pr_sget_num(oc, PR_K_COMPILE_US) / steps, c, sizeof(c));
    fmt_us(on > 0 ? on : host / steps, a, sizeof(a));
    snprintf(text, sizeof(text),
             "%s Then the aclop calls: %.0f call%s of aclopCompileAndExecute "
             "take%s %s a step on the host%s%s%s, %s of it in their compile "
             "steps (a lookup that found the operator built), the rest "
             "executing operators on CANN's aclop path (summary.json's "
             "op_compile). Running them as binary kernels, "
             "torch_npu.npu.set_compile_mode(jit_compile=False) with CANN's "
             "binary operator package (a change every rank makes), saves "
             "at most %s a step once the late rank is on time: %s; no gain "
             "is claimed while it is late.",
             pr_sget_str_or(comm, PR_K_TEXT, ""),
             pr_sget_num(oc, PR_K_CALLS) / steps,
             pr_sget_num(oc, PR_K_CALLS) / steps == 1 ? "" : "s",
             pr_sget_num(oc, PR_K_CALLS) / steps == 1 ? "s" : "", t,
             n ? " (" : "", ops, n ? ")" : "", c, a,
             !isnan(chain) && on > 0
                 ? "the aclop calls' time on the chain this rank's path "
                   "takes once the late rank is on time, the calls before "
                   "the collective it waits in included"
             : on > 0 ? "the aclop calls' time on this rank's critical path"
                      : "the calls' time on the host");
    if (!put_text(comm, text))
        return 0;
    cJSON_Delete(cJSON_DetachItemViaPointer(recs, compile));
    return 1;
}

/* TensorBoard's sentence the plugin's communication advice opens with
 * (tb-plugin-semantics.md 7.5.4). */
static const char tb_comm_try[] = " You could try Gradient Compression or "
                                  "Gradient Accumulation or increase the "
                                  "batch size.";

/* Whether a collective of the run takes as long whatever it moves
 * (comm.c's size_note). */
static int
flat_any(const cJSON *run)
{
    const cJSON *o;

    cJSON_ArrayForEach(o, pr_sget(pr_sget(run, PR_K_COMMUNICATION), PR_K_OPS))
    {
        if (pr_sget_str(o, PR_K_SIZE_NOTE) != NULL)
            return 1;
    }
    return 0;
}

/* The run's collective library in words (hunt30 #9: an RCCL job read
 * "gloo's calls do not tell apart"): that of its communication op with
 * the most time (communication.ops[].backend; PyTorch's ProcessGroupNCCL
 * runs RCCL on ROCm, torch/csrc/distributed/c10d), and whose calls a
 * wait is not recorded in: the host call for gloo and MPI, the kernel
 * for NCCL and RCCL, which wait for peers inside it (critpath.c
 * peers_inside). */
struct backend_words {
    const char *calls; /* "gloo's calls", "RCCL's kernels" */
    const char *whose; /* " (gloo's, unlike HCCL's ...)", or "" */
};

static struct backend_words
comm_backend(const cJSON *run)
{
    const cJSON *o, *best = NULL, *d;
    const char *be;
    int amd = 0;

    cJSON_ArrayForEach(o, pr_sget(pr_sget(run, PR_K_COMMUNICATION), PR_K_OPS))
    {
        if (pr_sget_str(o, PR_K_BACKEND) != NULL &&
            (best == NULL ||
             pr_sget_num(o, PR_K_TOTAL_US) > pr_sget_num(best, PR_K_TOTAL_US)))
            best = o;
    }
    cJSON_ArrayForEach(d, pr_sget(run, PR_K_DEVICES))
    {
        amd |= pr_sget_is(pr_sget_str(d, PR_K_VENDOR), "amd");
    }
    be = pr_sget_str_or(best, PR_K_BACKEND, "");
    if (strcmp(be, "nccl") == 0)
        return amd ? (struct backend_words){"RCCL's kernels",
                                            " (RCCL's kernels wait for late "
                                            "peers inside their own time, "
                                            "unlike HCCL's separate Notify "
                                            "Wait tasks)"}
                   : (struct backend_words){"NCCL's kernels",
                                            " (NCCL's kernels wait for late "
                                            "peers inside their own time, "
                                            "unlike HCCL's separate Notify "
                                            "Wait tasks)"};
    if (strcmp(be, "gloo") == 0)
        return (struct backend_words){"gloo's calls",
                                      " (gloo's, unlike HCCL's Notify "
                                      "Wait tasks)"};
    if (strcmp(be, "mpi") == 0)
        return (struct backend_words){"MPI's calls",
                                      " (MPI's, unlike HCCL's Notify "
                                      "Wait tasks)"};
    return (struct backend_words){"the collectives' calls", ""};
}

/* The communication advice where overlapping saves nothing (nothing
 * computes meanwhile: a CPU-only step, hta cpu_only's gloo all-reduces)
 * and accumulation, the only replay with a gain, is not claimed: its
 * bound is the collectives' time on the path (review 8 #4: 178.8 ms a
 * step), and where their time does not grow with their bytes the text
 * leads with latency and late ranks, not with TensorBoard's compression
 * (docs/differences.md).  0: out of memory. */
static int
comm_host(cJSON *r, const cJSON *whatif, const cJSON *cp, const cJSON *run)
{
    struct rec_set s = {0};
    const cJSON *a = pr_sget_find(whatif, PR_K_ID, "gradient_accumulation");
    const char *t = pr_sget_str_or(r, PR_K_TEXT, ""),
               *tb = strstr(t, tb_comm_try);
    double on = pr_sget_num(pr_sget(cp, PR_K_BY_KIND_US), PR_K_COMMUNICATION);
    char text[3200], note[900], b[32];
    size_t len;
    struct backend_words be;

    if (tb != NULL && flat_any(run)) {
        len = pr_append(text, sizeof(text), 0, "%.*s%s", (int)(tb - t), t,
                        tb + strlen(tb_comm_try));
        len = slow_transport(run, text, sizeof(text), len);
        if (on > 0) {
            fmt_us(on, b, sizeof(b));
            len = pr_append(
                text, sizeof(text), len,
                " Together these save at most %s %s, the "
                "collectives' time on the critical path.",
                b, pr_sget_run_is_capture(run) ? "over the capture" : "a step");
        }
        len =
            accum_words(a, "", pr_run_window(run), 0, text, sizeof(text), len);
        (void)len;
        if (!put_text(r, text))
            return 0;
    } else if (!accum_caveat(r, whatif, run))
        return 0;
    fmt_us(on, b, sizeof(b));
    be = comm_backend(run);
    snprintf(note, sizeof(note),
             "not claimed: overlapping the collectives saves nothing on the "
             "path, and gradient accumulation, the only replay with a gain, "
             "changes the effective batch and saves what it replays only if "
             "the calls pay a latency, not late peers, which %s do not tell "
             "apart (no wait is recorded inside them); the text says "
             "more%s%s%s%s%s%s",
             be.calls, on > 0 ? "; at most " : "", on > 0 ? b : "",
             on > 0 ? (pr_sget_run_is_capture(run)
                           ? " over the capture: the collectives' time on the "
                             "critical path, "
                           : " a step: the collectives' time on the critical "
                             "path, ")
                    : "",
             on > 0 ? "all that faster or fewer calls, or every late rank "
                      "arriving on time, could save; no estimate of the "
                      "late ranks' part: the trace records no wait inside "
                      "the calls"
                    : "",
             on > 0 ? be.whose : "",
             on > 0 ? ", so how much of that time is waiting, and for "
                      "which rank, is not in it"
                    : "");
    s.cols = RS_NO_GAIN | RS_NOTE | RS_EVIDENCE | (on > 0 ? RS_BOUND : 0u);
    s.gain_note = note;
    s.bound_us = on;
    s.evidence = pr_sget(a, PR_K_EVIDENCE);
    return s.evidence != NULL && rec_put(r, &s);
}

/* A recommendation's rank: gains first (a replay's or a stated model's
 * estimate, gain_us), by gain, whether or not a bound stands beside it;
 * twice the batch's gains after them; then the findings with a bound
 * alone (bound_us: the most the change can save, no estimate), by their
 * bound, a ceiling, not a measured gain (review 5 #6, review 8 #9); then
 * the rest, in their order. */
static int
rank_tier(const cJSON *r, double *v)
{
    *v = pr_sget_num(r, PR_K_GAIN_US);
    /* twice the batch saves time per sample, not per step, and changes
       the training's batch: after the same-batch fixes (review 6 #4) */
    if (!isnan(*v) &&
        pr_sget_is(pr_sget_str(r, PR_K_GAIN_BASIS), PR_GAIN_PER_SAMPLES))
        return 2;
    if (!isnan(*v))
        return 3;
    *v = pr_sget_num(r, PR_K_BOUND_US);
    if (!isnan(*v))
        return *v > 0 ? 1 : -1; /* 0: the path holds none of it */
    *v = 0;
    return 0;
}

/* Does a rank above b? */
static int
ranks_above(const cJSON *a, const cJSON *b)
{
    double va, vb;
    int ta = rank_tier(a, &va), tb = rank_tier(b, &vb);

    return ta != tb ? ta > tb : va > vb;
}

/* Rank recs (rank_tier), largest first; ties keep their order
 * (insertion sort: a run has a dozen). */
static enum pr_status
rank(cJSON *recs, struct pr_error *err)
{
    size_t n = (size_t)cJSON_GetArraySize(recs), i, k;
    cJSON **v = malloc((n ? n : 1) * sizeof(*v));

    if (v == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
    for (i = 0; i < n; i++)
        v[i] = cJSON_DetachItemFromArray(recs, 0);
    for (i = 1; i < n; i++)
        for (k = i; k > 0 && ranks_above(v[k], v[k - 1]); k--) {
            cJSON *x = v[k];

            v[k] = v[k - 1];
            v[k - 1] = x;
        }
    for (i = 0; i < n; i++)
        cJSON_AddItemToArray(recs, v[i]);
    free(v);
    return PR_OK;
}

/* A host-only run whose trace names its devices (deviceProperties) yet
 * records none of their work (review22g item 9): "8 GPUs (NVIDIA
 * A100-PG509-200)" (the count of the run's devices, the first one's name)
 * into buf; 0 where the run names none or is not host-only. */
static int
unused_devices(const cJSON *run, char *buf, size_t cap)
{
    const cJSON *devs = pr_sget(run, PR_K_DEVICES);
    const char *name = pr_sget_str(pr_sget_first(run, PR_K_DEVICES), PR_K_NAME);
    size_t n = pr_sget_len(devs);

    if (!cJSON_IsTrue(pr_sget(run, PR_K_HOST_ONLY)) || n == 0 || name == NULL)
        return 0;
    snprintf(buf, cap, "%zu GPU%s (%.80s)", n, n == 1 ? "" : "s", name);
    return 1;
}

/* 1 where a step (not a capture) ends in an unrecorded tail over
 * PR_WHATIF_MAX_ERROR_PCT of it, which keeps it from the what-ifs
 * (critpath.c's gate). */
static int
unrecorded_steps(const cJSON *cp)
{
    const cJSON *s;

    cJSON_ArrayForEach(s, pr_sget(cp, PR_K_STEPS))
    {
        double m = pr_sget_num(s, PR_K_MEASURED_US);

        if (m > 0 && !pr_sget_is(pr_sget_str(s, PR_K_STEP), "capture") &&
            pr_sget_num(s, PR_K_UNRECORDED_TAIL_US) >
                PR_WHATIF_MAX_ERROR_PCT / 100.0 * m)
            return 1;
    }
    return 0;
}

/* A MindSpore export whose tasks are its communication operators alone
 * (step_trace.compute_tasks false, the no_compute_tasks note): the step
 * trace's FP+BP holds no task, the larger cause of a replay's failure
 * than any unrecorded tail (review30a #11: ms_ut's reason named the
 * tail).  1 with the reason in buf. */
static int
no_compute_tasks(const cJSON *run, char *buf, size_t cap)
{
    const cJSON *st = pr_sget(run, PR_K_STEP_TRACE),
                *m = pr_sget(st, PR_K_MEDIAN);
    double fp = pr_sget_num(m, PR_K_FP_AND_BP_US),
           ii = pr_sget_num(m, PR_K_ITERATION_INTERVAL_US),
           tail = pr_sget_num(m, PR_K_TAIL_US);

    if (!cJSON_IsFalse(pr_sget(st, PR_K_COMPUTE_TASKS)) || !(fp > 0))
        return 0;
    snprintf(buf, cap,
             "not replayed: the export holds no compute tasks (FP+BP "
             "%.1f ms of the step trace's %.1f ms step unrecorded), so a "
             "change's effect on the step is not known",
             fp / 1000.0,
             (fp + (isnan(ii) ? 0 : ii) + (isnan(tail) ? 0 : tail)) / 1000.0);
    return 1;
}

/* Why a run's recommendations carry no gain (in buf where the words are
 * the run's). */
static const char *
no_replay(const cJSON *run, const cJSON *cp, char *buf, size_t cap)
{
    double e = pr_sget_num(cp, PR_K_REPLAY_ERROR_PCT);
    char named[160];

    if (pr_sget_run_device_unrecorded(run) ||
        unused_devices(run, named, sizeof(named)))
        return "not replayed: the device side was not recorded, so no "
               "change to it can be replayed";
    if (cJSON_IsTrue(pr_sget(run, PR_K_HOST_ONLY)))
        return "not replayed: a CPU-only run, the trace records no device "
               "work for a change to act on";
    if (pr_sget_is(pr_sget_str(cp, PR_K_NO_PATH_REASON), "kernel_replay"))
        return "not replayed: the kernels were measured by CUPTI's range "
               "profiler, whose ranges carry no timing";
    if (pr_sget_is(pr_sget_str(cp, PR_K_NO_PATH_REASON), "task_list_extract"))
        return "not replayed: the task list is an extract, whose gaps hold "
               "the tasks it left out (see Data quality)";
    if (pr_sget_is(pr_sget_str(cp, PR_K_NO_PATH_REASON), "tasks_incomplete"))
        return "not replayed: the task list holds under half of the step "
               "table's device time, whose gaps hold the tasks it left out "
               "(see Data quality)";
    if (no_compute_tasks(run, buf, cap))
        return buf;
    if (e > PR_WHATIF_MAX_ERROR_PCT)
        return "not replayed: the step graph does not reproduce the "
               "measured steps within 2% (see critical_path.steps[]"
               ".replay_error_pct)";
    if (unrecorded_steps(cp))
        return "not replayed: the trace records nothing in the last 2% "
               "or more of the steps (see critical_path.steps[]"
               ".unrecorded_tail_us), time a change's effect on is not "
               "known";
    return "not replayed: the step graph holds no device work or runtime "
           "call on its path (host work the trace does not attribute)";
}

/* The share of the steps the cold calls take (their what-if's gain), or
 * 0: a capture over PR_WHATIF_COLD_PCT is cold, and the other changes'
 * gains on it are not claimed. */
static double
cold_pct(const cJSON *whatif)
{
    const cJSON *w = pr_sget_find(whatif, PR_K_ID, "cold_step");
    double p = pr_sget_num(w, PR_K_GAIN_PCT);

    /* allocator churn recurs: the capture is not cold */
    if (pr_sget(w, PR_K_RECURRING_CALLS) != NULL)
        return 0;
    return p >= PR_WHATIF_COLD_PCT ? p : 0;
}

/* The share of the steps allocator churn takes (cold_step's gain where
 * its row carries recurring_calls), or 0 under PR_WHATIF_COLD_PCT: the
 * capture is not cold, but the other changes' gains, replayed on steps
 * the churn dominates, are not claimed either (review31 #2: ddp_resnet18's
 * hipFree, 89% of the capture, left no observation standing). */
static double
churn_pct(const cJSON *whatif)
{
    const cJSON *w = pr_sget_find(whatif, PR_K_ID, "cold_step");
    double p = pr_sget_num(w, PR_K_GAIN_PCT);

    if (pr_sget(w, PR_K_RECURRING_CALLS) == NULL)
        return 0;
    return p >= PR_WHATIF_COLD_PCT ? p : 0;
}

/* The cold_step advice where its calls are allocator churn (hunt30 #3:
 * 1,360 hipFree through a 5-iteration ResNet-18 capture read as "a cold
 * start ... profile after warm-up"): the calls recur every iteration, so
 * warm-up does not remove them; a caching allocator does
 * (c10/cuda/CUDACachingAllocator.cpp: PYTORCH_NO_CUDA_MEMORY_CACHING turns
 * caching off, torch.cuda.empty_cache() returns the cached blocks). */
static int
churn_text(const cJSON *w, int capture, char *buf, size_t cap)
{
    const cJSON *e = pr_sget(w, PR_K_EVIDENCE);
    char t[32];
    int k;

    e = e != NULL ? e->child : NULL;
    fmt_us(pr_sget_num(e, PR_K_US), t, sizeof(t));
    k = snprintf(
        buf, cap,
        "Memory freed and allocated again every iteration (allocator "
        "churn): %.80s calls of 1 ms or more recur through the whole %s, "
        "%.1f an iteration, not only at its start (%.80s %s on the path); "
        "each waits for the device, and warm-up does not remove them. "
        "Without them %s would be %.0f%% shorter. PyTorch's caching "
        "allocator keeps freed blocks for reuse: check that it is on "
        "(PYTORCH_NO_CUDA_MEMORY_CACHING unset; ROCm builds use the same "
        "torch.cuda allocator), take "
        "torch.cuda.empty_cache() out of the loop, and lower the memory "
        "pressure that makes it return blocks (a smaller batch, "
        "expandable_segments:True in PYTORCH_CUDA_ALLOC_CONF; "
        "torch.cuda.memory_stats() counts num_alloc_retries).",
        pr_sget_str_or(e, PR_K_NAME, "?"), capture ? "capture" : "steps",
        pr_sget_num(w, PR_K_RECURRING_CALLS), pr_sget_str_or(e, PR_K_NAME, "?"),
        t, capture ? "the capture" : "its steps",
        pr_sget_num(w, PR_K_GAIN_PCT));
    return k >= 0 && (size_t)k < cap;
}

const char *
pr_whatif_warmup_advice(const cJSON *run, int capture)
{
    int npu = pr_run_on_npu(run);

    if (pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "pytorch"))
        return capture ? "Profile after warm-up: torch.profiler.schedule("
                         "wait=1, warmup=1, active=3) skips the first "
                         "iterations, with prof.step() called once an "
                         "iteration."
                       : "Profile after warm-up: torch.profiler.schedule("
                         "wait=1, warmup=1, active=3) skips the first steps.";
    /* an Nsight Systems export: its capture range, not PyTorch's
       profiler (s16 gpuleft #4: nsys mock.sqlite was told
       torch.profiler.schedule) */
    if (pr_sget_str(run, PR_K_FRAMEWORK) == NULL && !npu)
        return "Profile after warm-up: start the capture after the first "
               "iterations (nsys profile --capture-range=cudaProfilerApi, "
               "with cudaProfilerStart()/cudaProfilerStop(), "
               "torch.cuda.profiler.start()/stop() in PyTorch, around "
               "steady iterations; or --delay=SECONDS).";
    return "Profile after warm-up: start the capture after the first "
           "iterations.";
}

/* The cold_step advice in the words of its replay (review R2): every
 * runtime call of 1 ms or more, not only the slowest launch, and the
 * share the warm step saves.  The rule of recommend.c watches launches
 * alone (a cold capture's context creation sits in another call, such
 * as the first cudaDeviceGetStreamPriorityRange or cudaFree). */
static int
cold_text(const cJSON *run, const cJSON *w, int npu, int capture, char *buf,
          size_t cap)
{
    const cJSON *e;
    size_t len;
    int n = 0, k;

    k = snprintf(buf, cap, "%s: runtime calls held the host 1 ms or more (",
                 pr_sget_num(w, PR_K_GAIN_PCT) >= PR_WHATIF_COLD_PCT
                     ? "The capture is cold"
                     : "First-use costs in the capture");
    if (k < 0 || (size_t)k >= cap)
        return 0;
    len = (size_t)k;
    cJSON_ArrayForEach(e, pr_sget(w, PR_K_EVIDENCE))
    {
        char t[32];

        fmt_us(pr_sget_num(e, PR_K_US), t, sizeof(t));
        k = snprintf(buf + len, cap - len, "%s%.80s %s", n++ ? ", " : "",
                     pr_sget_str_or(e, PR_K_NAME, "?"), t);
        if (k < 0 || (size_t)k >= cap - len)
            return 0;
        len += (size_t)k;
    }
    k = snprintf(
        buf + len, cap - len,
        ") where a warm call takes microseconds; warm, %s would be "
        "%.0f%% shorter. These are one-time costs: the first runtime call "
        "creates the device context, first allocations reserve memory, the "
        "first launch of a kernel loads its code%s; so the other figures "
        "are not the steady state's. %s",
        capture ? "the capture" : "its steps", pr_sget_num(w, PR_K_GAIN_PCT),
        npu ? " (operator compilation on first use)"
            : " (lazy module loading, JIT compilation), and cuDNN/cuBLAS "
              "create their handles and search algorithms",
        pr_whatif_warmup_advice(run, capture));
    return k >= 0 && (size_t)k < cap - len;
}

/* A cold capture (cold_step's replay saves pct >= PR_WHATIF_COLD_PCT)
 * has the cold_step advice, in its replay's words, whether or not the
 * launch rule fired; a cold_step advice with a replay says what the
 * replay found. */
static int
cold_advice(cJSON *run, cJSON *recs, const cJSON *whatif, double cold)
{
    const cJSON *w = pr_sget_find(whatif, PR_K_ID, "cold_step");
    cJSON *r = NULL, *x;
    char text[1200];
    int npu = 0;

    cJSON_ArrayForEach(x, pr_sget(run, PR_K_DEVICES))
    {
        npu |= pr_sget_is(pr_sget_str(x, PR_K_KIND), "npu");
    }
    cJSON_ArrayForEach(x, recs)
    {
        if (pr_sget_is(pr_sget_str(x, PR_K_ID), "cold_step"))
            r = x;
    }
    /* first-use costs that save PR_WHATIF_PATH_PCT of the steps are a
       finding even when no single launch held its step 20% (recommend.c's
       rule): two first launches of 17.8 ms in nsys mock.sqlite's 213 ms
       capture, which the launch-bound replay leaves to this one */
    if (w == NULL || !(pr_sget_num(w, PR_K_GAIN_PCT) >= PR_WHATIF_MIN_PCT) ||
        (r == NULL && !(cold > 0) &&
         !(pr_sget_num(w, PR_K_GAIN_PCT) >= PR_WHATIF_PATH_PCT)))
        return 1;
    if (pr_sget(w, PR_K_RECURRING_CALLS) != NULL
            ? !churn_text(w, pr_sget_run_is_capture(run), text, sizeof(text))
            : !cold_text(run, w, npu, pr_sget_run_is_capture(run), text,
                         sizeof(text)))
        return 1; /* (cannot happen: the buffer holds 4 names of 80) */
    if (r == NULL) {
        return pr_emit_rec(recs, "cold_step", "warning", text, NULL, 0) != NULL;
    }
    return put_text(r, text);
}

/* What absorbs a precision change's cut (review 5 finding 5: AMP takes
 * 22 ms a step off hta trace_diff test's GEMMs on the path and the step
 * shortens by 3.0 ms, because the path then waits for the embedding
 * all_to_all on another stream, held at its recorded length).  Where the
 * cut is over twice the gain: the largest part of the path the change
 * does not touch, and for collectives the longest one and the range the
 * gain lies in when the peers speed up too. */
/* The peaks' ratio a precision replay assumed (scen: the fp32 peak over
 * the fp16 or TF32 tensor-core peak, inverted here: 8.0 on a V100), in
 * words, from the devices' peaks; "" when the devices disagree or hold
 * none.  Review 6 #6: the replay's kernels speed up by the peaks' ratio,
 * i.e. they run as close to the tensor-core peak as they ran to the fp32
 * one; no source gives the speed-up these GEMM shapes reach, so the text
 * names the assumption rather than a realistic figure. */
static void
peaks_ratio(const cJSON *run, const char *key, const char *what, char *buf,
            size_t cap)
{
    const cJSON *d;
    double ratio = NAN, f32 = NAN, tc = NAN;
    int amd = 0;

    buf[0] = '\0';
    cJSON_ArrayForEach(d, pr_sget(run, PR_K_DEVICES))
    {
        const cJSON *p = pr_sget(d, PR_K_PEAK_TFLOPS);

        amd |= pr_sget_is(pr_sget_str(d, PR_K_VENDOR), "amd");
        double a = pr_sget_num(p, PR_K_FP32), b = pr_sget_num(p, key);

        if (!(a > 0) || !(b > a))
            continue;
        if (!isnan(ratio) && fabs(b / a - ratio) > 1e-9)
            return; /* devices of two kinds: no one ratio */
        ratio = b / a;
        f32 = a;
        tc = b;
    }
    if (!isnan(ratio))
        snprintf(buf, cap,
                 " The upper end assumes these GEMMs speed up by the peaks' "
                 "ratio, %.1fx (the %s %s peak, %.4g TFLOPS, over the fp32 "
                 "peak, %.4g): that they run as close to the %s "
                 "peak as they ran to the fp32 one. How close these shapes "
                 "come is not in the trace; at a smaller speed-up the upper "
                 "end shrinks with it.",
                 ratio, what, amd ? "matrix-core" : "tensor-core", tc, f32,
                 amd ? "matrix-core" : "tensor-core");
}

static int
precision_cap(cJSON *r, const cJSON *w, const cJSON *cp, const cJSON *run)
{
    static const struct {
        const char *key, *words;
    } k[] = {
        {PR_K_COMMUNICATION, "collectives"},
        {PR_K_COPY, "copies"},
        {PR_K_IDLE, "device idle with no recorded cause"},
        {PR_K_HOST_OP, "host work"},
        {PR_K_LAUNCH, "launches"},
        {PR_K_SYNC_WAIT, "host syncs"},
        {PR_K_DATALOADER, "the data loader"},
    };
    const cJSON *e, *st, *top, *kinds = pr_sget(cp, PR_K_BY_KIND_US);
    double cut = 0, gain = pr_sget_num(w, PR_K_GAIN_US), most = 0, big = 0;
    const char *name = NULL;
    char text[4096], a[32], b[32], c[32], nm[128], peaks[400];
    size_t i, best = 0, len;

    cJSON_ArrayForEach(e, pr_sget(w, PR_K_EVIDENCE))
    {
        cut += pr_sget_num(e, PR_K_US) > 0 ? pr_sget_num(e, PR_K_US) : 0;
    }
    if (!(gain > 0) || !(cut > 2 * gain))
        return 1;
    for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
        if (pr_sget_num(kinds, k[i].key) > most) {
            most = pr_sget_num(kinds, k[i].key);
            best = i;
        }
    if (!(most > 0))
        return 1;
    if (best == 0) /* the longest collective on a step's path */
        cJSON_ArrayForEach(st, pr_sget(cp, PR_K_STEPS))
        {
            cJSON_ArrayForEach(top, pr_sget(st, PR_K_TOP))
            {
                if (pr_sget_is(pr_sget_str(top, PR_K_KIND), k[0].key) &&
                    pr_sget_num(top, PR_K_US) > big) {
                    big = pr_sget_num(top, PR_K_US);
                    name = pr_sget_str(top, PR_K_NAME);
                }
            }
        }
    snprintf(nm, sizeof(nm), "%s", name != NULL ? name : "");
    nm[strcspn(nm, "(<")] = '\0';
    fmt_us(cut, a, sizeof(a));
    fmt_us(gain, b, sizeof(b));
    fmt_us(most, c, sizeof(c));
    len = (size_t)snprintf(
        text, sizeof(text),
        "%s The replay takes %s a step off these kernels on the path, yet "
        "the step shortens by %s: the path then waits on what the change "
        "does not touch, the largest such part being %s (%s a step of "
        "the path",
        pr_sget_str_or(r, PR_K_TEXT, ""), a, b, k[best].words, c);
    if (len >= sizeof(text))
        return 1;
    peaks_ratio(run,
                pr_sget_is(pr_sget_str(w, PR_K_ID), "tf32") ? PR_K_TF32_TENSOR
                                                            : PR_K_FP16_TENSOR,
                pr_sget_is(pr_sget_str(w, PR_K_ID), "tf32") ? "TF32" : "fp16",
                peaks, sizeof(peaks));
    if (best == 0)
        snprintf(text + len, sizeof(text) - len,
                 "%s%s). The replay holds the collectives at their recorded "
                 "length, which includes waiting for the peers; where every "
                 "rank runs the change, they end earlier too, so the gain "
                 "lies between %s and %s a step.%s",
                 nm[0] ? "; the longest: " : "", nm, b, a, peaks);
    else
        snprintf(text + len, sizeof(text) - len, ").");
    return put_text(r, text);
}

/* The sentence a finding's text ends with where replays.c's replay gives
 * its gain: the change replayed, the gain and its limits, where the
 * reports show the finding (the gain_note is the JSON's).  0: out of
 * memory. */
static int
replay_text(cJSON *r, const cJSON *w, const char *win)
{
    /* each replay's change and what limits its gain; the sentence is one */
    static const struct {
        const char *id, *needs; /* needs: in the text, or NULL */
        const char *how, *tail;
    } said[] = {
        {"device_copies", NULL,
         "with the wrapper's copies and clones gone, as CUDA-graph trees "
         "run",
         ": an upper bound, since trees still copy the inputs that are "
         "neither a parameter, a buffer nor an earlier graph's output (the "
         "batch, the incoming gradients), in one torch._foreach_copy_ "
         "before each replay"},
        {"slow_dispatch", NULL,
         "with each of these calls at a healthy dispatch's 2 \xC2\xB5s of host "
         "time",
         ": their time on the critical path less 2 \xC2\xB5s a call"},
        {"small_allreduce", "KB each on average",
         "with the step's small all-reduces merged into 25 MB buckets, each "
         "bucket one call of one call's latency (the step's shortest "
         "all-reduce) plus its bytes at the bandwidth of the trace's "
         "largest all-reduces",
         ""},
        {"small_allreduce", NULL,
         "with the step's small all-reduces merged into one call (the trace "
         "records no message sizes, so one bucket a step, starting after "
         "its last gradient and keeping all of the calls' device time over "
         "one call's latency), with their launches and host work gone but "
         "one call's",
         ""},
    };
    const char *wid = pr_sget_str_or(w, PR_K_ID, ""),
               *t = pr_sget_str_or(r, PR_K_TEXT, "");
    size_t i;

    for (i = 0; i < sizeof(said) / sizeof(said[0]); i++)
        if (strcmp(wid, said[i].id) == 0 &&
            (said[i].needs == NULL || strstr(t, said[i].needs) != NULL))
            return put_replayed(r, w, win, said[i].how, said[i].tail);
    return 1;
}

/* The model behind a gain replays.c replayed (issue #31: the findings
 * that had a bound only), in gain_note: what the replay assumes and where
 * the fix may save less.  0: out of memory. */
static int
replay_note(cJSON *r, const cJSON *w, const char *win)
{
    const char *wid = pr_sget_str_or(w, PR_K_ID, ""), *note = NULL;
    char buf[1200];

    if (strcmp(wid, "device_copies") == 0)
        note = "replayed: the CUDA-graph wrapper's input copies and output "
               "clones (and their host calls) gone, as Inductor's CUDA-graph "
               "trees (torch/_inductor/cudagraph_trees.py) copy no "
               "parameter, buffer or earlier graph's output and clone no "
               "output; an upper bound: trees still copy the other inputs "
               "(non_static_input_idx: the batch, the incoming gradients) "
               "in one torch._foreach_copy_, which the trace does not tell "
               "apart from the rest";
    else if (strcmp(wid, "slow_dispatch") == 0)
        note =
            "replayed: each call of the named operators at a healthy "
            "dispatch's 2 \xC2\xB5s of host time; what reaches the step is the "
            "part of their time on the critical path";
    else if (strcmp(wid, "small_allreduce") == 0)
        note = "replayed: the step's small all-reduces merged in their order "
               "into 25 MB buckets (DDP's bucket_cap_mb), a bucket one call "
               "of one call's latency (the step's shortest all-reduce) plus "
               "its bytes at the bandwidth of the trace's largest "
               "all-reduces, or, where the calls' sizes are not recorded, "
               "plus all that each call took over that latency, waits for "
               "the peer included (then one bucket a step, starting after "
               "its last call: conservative on the device, where DDP's "
               "buckets start during backward); the merged calls' launches "
               "and their c10d / record_param_comms / nccl:all_reduce host "
               "work go";
    else if (strcmp(wid, "aclop_binary") == 0) {
        /* the floor it assumed, from the what-if's change (review 7 #4) */
        const char *fl =
            strstr(pr_sget_str_or(w, PR_K_CHANGE, ""), "; the floor here: ");

        snprintf(buf, sizeof(buf),
                 "replayed: each aclop call at what the export's binary "
                 "kernels cost the host (its aclnn* calls%s%s), and the "
                 "NPU's wait inside the aclop calls gone; how long these "
                 "operators' binary kernels run on the device is taken as "
                 "the aclop kernels' (their tasks stay)",
                 fl != NULL ? "; " : "", fl != NULL ? fl + 18 : "");
        note = buf;
    }
    return note == NULL || (put_note(r, note) && replay_text(r, w, win));
}

/* 1 when name is one of the tasks rule id names: low_block_dim's
 * operators (as rule_low_block_dim lists them: by time, those of 5% of
 * the low Block Dim time or more, at most 4), embedding's kernels (the
 * kernel family embedding). */
static const cJSON *
named_task(const cJSON *run, const char *id, const char *name)
{
    const cJSON *b = pr_sget(run, PR_K_BLOCK_DIM), *x;
    int n = 0;

    if (pr_sget_is(id, "low_block_dim")) {
        cJSON_ArrayForEach(x, pr_sget(b, PR_K_OPERATORS))
        {
            if (n == 4 || (n > 0 && pr_sget_num(x, PR_K_US) <
                                        0.05 * pr_sget_num(b, PR_K_LOW_US)))
                break;
            n++;
            if (pr_sget_is(pr_sget_str(x, PR_K_NAME), name))
                return x;
        }
        return NULL;
    }
    cJSON_ArrayForEach(x, pr_sget(run, PR_K_KERNELS))
    {
        if (pr_sget_is(pr_sget_str(x, PR_K_KFAMILY), PR_K_EMBEDDING) &&
            pr_sget_is(pr_sget_str(x, PR_K_NAME), name))
            return x;
    }
    return NULL;
}

/* The elements of the second tensor of "[[2, 4096], [4096, 9216]]" (a
 * MatMul's weight, K x N); NaN where there is none. */
static double
second_elems(const char *shapes)
{
    const char *p = shapes != NULL ? strstr(shapes, "], [") : NULL;
    double n = 1;
    char *end;

    if (p == NULL)
        return NAN;
    for (p += 4; *p != ']'; p = end + (*end == ',') + (end[1] == ' ')) {
        double d = strtod(p, &end);

        if (end == p || !(d > 0))
            return NAN;
        n *= d;
        if (*end != ',' && *end != ']')
            return NAN;
        if (*end == ']')
            break;
    }
    return n > 1 ? n : NAN;
}

/* The low_block_dim estimate under its bound (review 8 #4: ms_run2's
 * M=2 MatMuls at Block Dim 1, 20.1 ms of a 23.7 ms step): a stated model,
 * each named task at the run's usual Block Dim instead of its own, its
 * time scaled by its Block Dim over that (the same work split over as
 * many blocks, one core each); the export names no chip, so whether the
 * memory keeps up is said, not checked: the largest MatMul's weight
 * (K x N at 2 bytes, fp16) at its measured and at its modelled time.
 * save: what the model takes off the path a step; note: the model. */
static void
block_dim_model(const cJSON *run, const cJSON *op, double path_us, double *save,
                char *note, size_t cap)
{
    const cJSON *b = pr_sget(run, PR_K_BLOCK_DIM);
    double common = pr_sget_num(b, PR_K_COMMON_BLOCK_DIM);
    double lo = pr_sget_num(op, PR_K_MIN_BLOCK_DIM),
           hi = pr_sget_num(op, PR_K_MAX_BLOCK_DIM);
    double w = second_elems(pr_sget_str(op, PR_K_INPUT_SHAPES));
    double t = pr_sget_num(op, PR_K_US), c = pr_sget_num(op, PR_K_CALLS);

    if (!(common > 0) || !(lo > 0) || lo != hi || !(lo < common))
        return;
    *save += path_us * (1.0 - lo / common);
    if (note[0] != '\0' || !(w > 0) || !(t > 0) || !(c > 0))
        return; /* the weight's figures of the largest task only */
    snprintf(note, cap,
             "; the largest, %s, loads a %.0f-element weight a call (%.1f "
             "MB at 2 bytes, fp16: the export gives no dtype) at %.1f GB/s "
             "at Block Dim %.0f and would at %.0f GB/s at %.0f, which the "
             "model takes the memory to sustain (the export names no chip "
             "to check it against)",
             strrchr(pr_sget_str(op, PR_K_NAME), '/') != NULL
                 ? strrchr(pr_sget_str(op, PR_K_NAME), '/') + 1
                 : pr_sget_str(op, PR_K_NAME),
             w, 2 * w / 1e6, 2 * w * c / t / 1e3, lo,
             2 * w * c / (t * lo / common) / 1e3, common);
}

/* A rule that declines a gain (low_block_dim where the export gives no
 * core count, embedding) gets a bound: its named tasks' time on the
 * critical path, a mean over the steps with a path (review 7 #7: ms_run2's
 * MatMuls 20.1 ms of a 23.6 ms step at Block Dim 1, ms_run1's GatherV2 /
 * UnsortedSegmentSum 86.8 ms of 205 ms, shown "-"). Read from each
 * step's largest parts (critical_path.steps[].top), so a named task
 * outside them is not counted. 1: done (or nothing to add); 0: no
 * memory. */
static int
path_bound(const cJSON *run, const cJSON *cp, cJSON *r)
{
    const char *id = pr_sget_str(r, PR_K_ID);
    const cJSON *s, *e, *op;
    cJSON *ev, *y;
    struct rec_set rs = {0};
    double us = 0, steps = 0, save = 0, step;
    char note[1800], t[32], g[32], weight[500] = "";
    int ok;

    if (!(pr_sget_is(id, "low_block_dim") || pr_sget_is(id, PR_K_EMBEDDING)) ||
        !cJSON_IsString(pr_sget(r, PR_K_GAIN_NOTE)) ||
        !isnan(pr_sget_num(r, PR_K_GAIN_US)) ||
        !isnan(pr_sget_num(r, PR_K_BOUND_US)) ||
        pr_sget(r, PR_K_EVIDENCE) != NULL)
        return 1;
    ev = cJSON_CreateArray();
    if (ev == NULL)
        return 0;
    cJSON_ArrayForEach(s, pr_sget(cp, PR_K_STEPS))
    {
        if (pr_sget_str(s, PR_K_BOUND) == NULL)
            continue;
        steps++;
        cJSON_ArrayForEach(e, pr_sget(s, PR_K_TOP))
        {
            const char *name = pr_sget_str(e, PR_K_NAME), *sh;
            double v = pr_sget_num(e, PR_K_US);

            if (!(v > 0) || (op = named_task(run, id, name)) == NULL)
                continue;
            us += v;
            if (pr_sget_is(id, "low_block_dim"))
                block_dim_model(run, op, v, &save, weight, sizeof(weight));
            /* the evidence: the tasks, by their short name, summed over
               the steps (a mean once divided below) */
            sh = strrchr(name, '/') != NULL ? strrchr(name, '/') + 1 : name;
            cJSON_ArrayForEach(y, ev)
            {
                if (pr_sget_is(pr_sget_str(y, PR_K_NAME), sh))
                    break;
            }
            if (y != NULL)
                cJSON_SetNumberValue(
                    cJSON_GetObjectItemCaseSensitive(y, PR_K_US),
                    pr_sget_num(y, PR_K_US) + v);
            else if (cJSON_GetArraySize(ev) < PR_WHATIF_EV &&
                     !pr_emit_evidence(ev, sh, v, NAN)) {
                cJSON_Delete(ev);
                return 0;
            }
        }
    }
    if (!(steps > 0) || !(us > 0)) {
        cJSON_Delete(ev);
        return 1;
    }
    cJSON_ArrayForEach(y, ev)
    {
        cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(y, PR_K_US),
                             pr_sget_num(y, PR_K_US) / steps);
    }
    us /= steps;
    save /= steps;
    fmt_us(us, t, sizeof(t));
    fmt_us(save, g, sizeof(g));
    snprintf(note, sizeof(note),
             "%s; at most %s a step: the time these tasks take on the "
             "critical path (a mean over its %.0f step%s, from each step's "
             "largest parts), all that a change to them could save",
             pr_sget_str(r, PR_K_GAIN_NOTE), t, steps, steps == 1 ? "" : "s");
    if (save > 0)
        pr_append(
            note, sizeof(note), strlen(note),
            "; estimate %s a step, a stated model, not a replay: each "
            "task at the run's usual Block Dim (%.0f) instead of its "
            "own, its time scaled by its Block Dim over that (the same "
            "work split over as many blocks, one core each)%s",
            g, pr_sget_num(pr_sget(run, PR_K_BLOCK_DIM), PR_K_COMMON_BLOCK_DIM),
            weight);
    step = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
    rs.cols = RS_NOTE | RS_BOUND | RS_EVIDENCE;
    if (save > 0 && step > 0) {
        rs.cols |= RS_GAIN | RS_BASIS | RS_SOURCE;
        rs.gain_us = save;
        rs.gain_pct = 100.0 * save / step;
        rs.gain_basis = PR_GAIN_PER_STEP;
        rs.gain_source = PR_GAIN_MODEL;
    }
    rs.gain_note = note;
    rs.bound_us = us;
    rs.evidence = ev;
    ok = rec_put(r, &rs);
    cJSON_Delete(ev);
    return ok;
}

/* The share of a PyTorch casting kernel's time that fusing the cast into
 * the kernel consuming its output saves (torch.compile), where the cast
 * is memory-bound, as Copy.cu's elementwise casts are: the cast reads s
 * bytes an element and writes d, its consumer reads the d; fused, the
 * consumer reads the s bytes itself, so 2d of the s + d bytes go (fp32
 * to bf16 or fp16: 2/3), at most all of them (ROCm's bf16 / fp16 to
 * fp32: the consumer then reads less, which is not counted).  The source
 * dtype is Copy.cu's: float for bfloat16_ / float16_copy_kernel_cuda,
 * the lambda's parameter for float8_copy_kernel_cuda (float, Half or
 * BFloat16).  NAN where the name does not tell. */
static double
cast_fused_share(const char *name, int *src, int *dst)
{
    const char *l;
    char par[48];

    *src = 4;
    *dst = 2;
    if (strstr(name, "tofloat32_copy_kernel_cuda") != NULL) {
        *src = 2;
        *dst = 4;
    } else if (strstr(name, "float8_copy_kernel_cuda") != NULL) {
        *dst = 1;
        l = strstr(name, "lambda(");
        if (l == NULL)
            return NAN;
        snprintf(par, sizeof(par), "%.*s", (int)strcspn(l + 7, ")"), l + 7);
        if (strcmp(par, "float") == 0)
            *src = 4;
        else if (strstr(par, "Half") != NULL || strstr(par, "BFloat16") != NULL)
            *src = 2;
        else
            return NAN;
    } else if (strstr(name, "bfloat16_copy_kernel_cuda") == NULL &&
               strstr(name, "float16_copy_kernel_cuda") == NULL) {
        return NAN;
    }
    return 2.0 * *dst >= *src + *dst ? 1.0 : 2.0 * *dst / (*src + *dst);
}

/* Where casts were launched under FSDP's pre-forward / pre-backward
 * ranges (fsdp_pct: every cast of the replayed steps; fsdp_path_pct the
 * path's), the finding's cause names FSDP2's mixed precision beside
 * autocast (review 12 #2: nsys mfu_2gpu_before has no autocast range;
 * its FSDP::pre_forward casts are one per parameter, 20% of the casts'
 * time, almost none on the path: the path's casts are the model's
 * aten::to / aten::type_as), in PyTorch's own words
 * (fully_shard's MixedPrecisionPolicy: param_dtype is the dtype of the
 * unsharded parameter, for computation and the all-gather; the optimizer
 * step uses the sharded parameter in its original dtype;
 * reshard_after_forward=False keeps the unsharded parameters after
 * forward and avoids the all-gather in backward).  The autocast sentence
 * stays for the rest.  The reshard_after_forward sentence only where the
 * casts under FSDP::pre_backward (its backward re-gather: _fsdp_param.py's
 * all_gather_inputs casts the shard to param_dtype at every all-gather)
 * are FSDP_BWD_MIN_PCT of the casts' time or more: its basis is those
 * casts, and nsys mfu_2gpu_before has none (its 0% / 1% "of the casts'
 * time on the critical path" was all pre_forward).  Where the trace holds
 * no backward pass (fsdp_backward_pct null: nsys mfu_2gpu_before, a
 * forward-only capture) it says that backward cannot be judged instead
 * (issue #28, review s20).  0: out of memory. */
#define FSDP_BWD_MIN_PCT 5.0
static int
fsdp_cause(cJSON *r, const cJSON *w, const char *a_step)
{
    double fsdp = pr_sget_num(w, PR_K_FSDP_PCT);
    double bwd = pr_sget_num(w, PR_K_FSDP_BACKWARD_PCT);
    double path = pr_sget_num(w, PR_K_FSDP_PATH_PCT);
    double calls = pr_sget_num(w, PR_K_FSDP_CALLS);
    const char *kinds = pr_sget_str_or(w, PR_K_FSDP_RANGES, "FSDP::pre_*");
    const char *comma = strchr(kinds, ',');
    const char *text = pr_sget_str_or(r, PR_K_TEXT, "");
    const char *at = strstr(text, PR_CASTS_CAUSE);
    char out[4096];
    size_t len;

    if (at == NULL || !(fsdp >= 0.5) || isnan(path) || isnan(calls))
        return 1;
    len = pr_append(out, sizeof(out), 0, "%.*s", (int)(at - text), text);
    len = pr_append(
        out, sizeof(out), len,
        "FSDP's parameter hooks (its %.*s%s%s ranges) launched %.0f "
        "cast%s%s, %.0f%% of the casts' time (%.0f%% of their time on the "
        "critical path): FSDP's mixed precision (fully_shard's "
        "MixedPrecisionPolicy param_dtype) casting the sharded parameters "
        "to param_dtype for the all-gather, not "
        "autocast. FSDP keeps the sharded parameters in their own dtype for "
        "the optimizer step, so these casts are the price of computing in "
        "param_dtype, which is worth paying: computing in fp32 instead "
        "would cost far more than the casts.",
        (int)strcspn(kinds, ","), kinds, comma != NULL ? " and " : "",
        comma != NULL ? comma + strspn(comma, ", ") : "", calls,
        calls == 1 ? "" : "s", a_step, fsdp, path);
    if (bwd >= FSDP_BWD_MIN_PCT)
        len = pr_append(
            out, sizeof(out), len,
            " reshard_after_forward=False keeps the unsharded parameters "
            "after forward, at the cost of their memory, so backward does "
            "not all-gather and cast them again: the casts under "
            "FSDP::pre_backward, %.0f%% of the casts' time, would go. No "
            "gain is claimed for it: the replay does not model it.",
            bwd);
    else if (isnan(bwd))
        len = pr_append(out, sizeof(out), len,
                        " The capture holds no backward pass, so backward's "
                        "re-gather (the casts again, where "
                        "reshard_after_forward=True) cannot be judged: "
                        "capture a whole training iteration, forward and "
                        "backward.");
    if (fsdp < 99.5)
        len = pr_append(out, sizeof(out), len,
                        " The other casts usually come from %s",
                        at + strlen(PR_CASTS_CAUSE_HEAD));
    else
        len =
            pr_append(out, sizeof(out), len, "%s", at + strlen(PR_CASTS_CAUSE));
    (void)len;
    return put_text(r, out);
}

/* The dtype_conversions replay is a ceiling (the casts gone: tensors
 * already in their consumers' dtype, or cast once outside the loop);
 * its estimate beside it (issue #31: nsys mfu_2gpu_before carried a
 * bound alone), a stated model: each cast fused into its consumer
 * (cast_fused_share), the replay's bound times the casts' shares
 * weighted by their time on the path (the evidence), times the share of
 * that time whose next task on the stream is a kernel a cast can fuse
 * into (fusible_fed_pct: an elementwise, reduction or norm kernel; a
 * library GEMM takes no fused cast, and a copy or fill next shows no
 * consumer: review 11 #5).  No estimate where none is.  0: out of
 * memory; 1: done, or no estimate (a cast whose source dtype the name
 * does not tell, or no cast with a fusible consumer). */
static int
casts_model(cJSON *r, const cJSON *w, int capture)
{
    /* the figures' window: per step, or over a run's one capture */
    const char *a_step = capture ? " in the capture" : " a step";
    double bound = pr_sget_num(w, PR_K_GAIN_US);
    double step = pr_sget_num(w, PR_K_STEP_US) + bound;
    double gemm = pr_sget_num(w, PR_K_GEMM_FED_PCT);
    double fus = pr_sget_num(w, PR_K_FUSIBLE_FED_PCT);
    double copy = pr_sget_num(w, PR_K_COPY_FED_PCT);
    double sum = 0, saved = 0, est, f, rest;
    const cJSON *e;
    char note[2048], a[32], b[32], kinds[256] = "", split[640], text[3072];
    size_t len = 0;
    int s, d;

    if (!fsdp_cause(r, w, a_step))
        return 0;
    if (!(bound > 0) || !(step > 0))
        return 1;
    if (isnan(copy))
        copy = 0;
    cJSON_ArrayForEach(e, pr_sget(w, PR_K_EVIDENCE))
    {
        double us = pr_sget_num(e, PR_K_US);
        char k[64];

        f = cast_fused_share(pr_sget_str_or(e, PR_K_NAME, ""), &s, &d);
        if (isnan(f)) {
            snprintf(note, sizeof(note),
                     "replayed: the casting kernels gone (tensors already in "
                     "the dtype their consumers need, or cast once outside "
                     "the loop), an upper bound; no estimate under it: the "
                     "name of %.120s does not say the dtype it casts from, "
                     "so what fusing it into its consumer saves is not known",
                     pr_sget_str_or(e, PR_K_NAME, "a cast"));
            return put_note(r, note);
        }
        if (!(us > 0))
            continue;
        sum += us;
        saved += us * f;
        snprintf(k, sizeof(k), "%.0f%% of a %d-byte-to-%d-byte cast's time",
                 100.0 * f, s, d);
        if (strstr(kinds, k) == NULL)
            len = pr_append(kinds, sizeof(kinds), len, "%s%s",
                            len > 0 ? "; " : "", k);
    }
    if (!(sum > 0) || isnan(fus) || isnan(gemm))
        return 1;
    fmt_us(bound, b, sizeof(b));
    rest = fus + gemm + copy < 100 ? 100 - fus - gemm - copy : 0;
    snprintf(split, sizeof(split),
             "of the casts' time on the critical path, %.0f%% is followed on "
             "its stream (past a run of casts) by an elementwise, reduction "
             "or norm kernel, %.0f%% by a GEMM, convolution or attention "
             "kernel (a library kernel, which takes no fused cast), %.0f%% "
             "by a copy (a copy kernel or a device-to-device memcpy), which "
             "reads the cast's output and into which torch.compile does not "
             "fuse it, and %.0f%% by a fill, a collective or no task (no "
             "consumer the stream shows)",
             fus, gemm, copy, rest);
    if (!(fus >= 0.5)) {
        snprintf(text, sizeof(text),
                 "%s No estimate under the bound (%s%s, the casts "
                 "gone): under 1%% of the casts' time on the critical path is "
                 "followed "
                 "by a kernel a cast fuses into (%.0f%% by a GEMM, "
                 "convolution or attention kernel, %.0f%% by a copy "
                 "reading it, which takes no fused cast, %.0f%% by a fill, "
                 "a collective or no task).",
                 pr_sget_str_or(r, PR_K_TEXT, ""), b, a_step, gemm, copy, rest);
        if (!put_text(r, text))
            return 0;
        snprintf(note, sizeof(note),
                 "replayed: the casting kernels gone (tensors already in the "
                 "dtype their consumers need, or cast once outside the loop), "
                 "at most %s%s, an upper bound; no estimate under it: "
                 "fusing a cast into its consumer (torch.compile) needs a "
                 "consumer a cast can fuse into, and %s",
                 b, a_step, split);
        return put_note(r, note);
    }
    est = bound * saved / sum * fus / 100.0;
    fmt_us(est, a, sizeof(a));
    /* the finding names its model (the verdict's Evidence cell says so) */
    snprintf(text, sizeof(text),
             "%s Estimate %s%s (at most %s, the casts gone), a stated "
             "model: the casts whose next kernel on their stream, taken as "
             "the consumer, is one a cast fuses into (elementwise, "
             "reduction, norm: %.0f%% of the casts' time on the critical "
             "path) fused into it by torch.compile, saving 2d of a cast's "
             "s + d bytes (%s); the rest count nothing (%.0f%% followed by a "
             "GEMM, convolution or attention kernel, which takes no fused "
             "cast; %.0f%% by a copy reading it, into which "
             "torch.compile does not fuse the cast; %.0f%% by a fill, a "
             "collective or no task).",
             pr_sget_str_or(r, PR_K_TEXT, ""), a, a_step, b, fus, kinds, gemm,
             copy, rest);
    if (!put_text(r, text))
        return 0;
    snprintf(note, sizeof(note),
             "estimate %s%s, a stated model, not a replay: each cast "
             "whose next kernel on its stream (taken as its consumer) is an "
             "elementwise, reduction or norm kernel fused into it "
             "(torch.compile), which then reads the source tensor itself; a "
             "cast reading s bytes an element and writing d, its consumer "
             "reading the d, saves 2d of its s + d bytes, all of it at most "
             "(%s; Copy.cu's casts are memory-bound); %s, and only the first "
             "are counted; at most %s%s, the replay with the casting "
             "kernels gone (tensors already in the dtype their consumers "
             "need, or cast once outside the loop)",
             a, a_step, kinds, split, b, a_step);
    return model_gain(r, NULL, note, est, step);
}

/* The device_copies replay is a ceiling (trees still copy the inputs
 * that are neither a parameter, a buffer nor an earlier graph's output);
 * its estimate beside it (review 8 #9), a stated model from the
 * wrapper's own copies (copies.graph_wrapper, copy_ops.c): what trees
 * would still copy is at most the forward graph's input copies (the
 * batch, and any parameter the wrapper copied) and the backward's input
 * copies beyond the forward's output clones (its saved activations are
 * the forward's outputs, which trees do not copy: what remains is the
 * incoming gradients), at the wrapper copies' own bandwidth, all taken
 * as on the path; the estimate is the replay's bound less that.  Also
 * says what the evidence's copy time is beside the text's path time.
 * 0: out of memory; 1: done, or no estimate (no split, or it would be
 * none). */
static int
copies_model(cJSON *r, const cJSON *w, const cJSON *run)
{
    const cJSON *g = pr_sget(pr_sget(run, PR_K_COPIES), PR_K_GRAPH_WRAPPER);
    double steps = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_COUNT);
    double in = pr_sget_num(g, PR_K_INPUT_BYTES),
           out = pr_sget_num(g, PR_K_OUTPUT_BYTES),
           bin = pr_sget_num(g, PR_K_BACKWARD_INPUT_BYTES),
           bout = pr_sget_num(g, PR_K_BACKWARD_OUTPUT_BYTES),
           us = pr_sget_num(g, PR_K_INPUT_US) + pr_sget_num(g, PR_K_OUTPUT_US);
    double bound = pr_sget_num(w, PR_K_GAIN_US);
    double step = pr_sget_num(w, PR_K_STEP_US) + bound;
    double fin, fout, grads, kept, kept_us, est, ev = 0;
    const cJSON *e;
    char note[1800], text[8192], a[32], b[32], c[32], d[32];

    if (!(steps > 0) || !(us > 0) || !(in > 0) || isnan(bin) || isnan(bout) ||
        !(bound > 0) || !(step > 0))
        return 1;
    fin = (in - bin) / steps;
    fout = (out - bout) / steps;
    grads = bin / steps > fout ? bin / steps - fout : 0;
    kept = fin + grads;
    kept_us = kept / ((in + out) / us); /* bytes over bytes per us */
    est = bound - kept_us;
    if (!(est > 0))
        return 1;
    fmt_us(est, a, sizeof(a));
    fmt_us(bound, b, sizeof(b));
    fmt_us(kept_us, c, sizeof(c));
    snprintf(note, sizeof(note),
             "%s; estimate %s a step, a stated model: the replay's %s less "
             "what trees would still copy, %.2f GB a step at the wrapper "
             "copies' own %.0f GB/s (%s, all taken as on the path): the "
             "forward graph's input copies (%.2f GB: the batch, and any "
             "parameter the wrapper copied, so more than trees copy) and "
             "the backward's input copies beyond the forward's output "
             "clones (%.2f - %.2f GB: its saved activations are the "
             "forward's outputs, which trees keep in place; the rest, %.2f "
             "GB, the incoming gradients)",
             pr_sget_str_or(r, PR_K_GAIN_NOTE, "replayed"), a, b, kept / 1e9,
             (in + out) / us / 1e3, c, fin / 1e9, bin / steps / 1e9, fout / 1e9,
             grads / 1e9);
    cJSON_ArrayForEach(e, pr_sget(w, PR_K_EVIDENCE))
    {
        ev += pr_sget_num(e, PR_K_US);
    }
    fmt_us(ev, d, sizeof(d));
    snprintf(text, sizeof(text),
             "%s Trees would still copy about %.2f GB a step (the forward's "
             "inputs, the backward's incoming gradients: %s at these "
             "copies' bandwidth), so the estimate is %s a step, at most %s. "
             "Of the DtoD copies' time on the path given above, the replay "
             "takes %s a step off it (the wrapper's copies: the evidence's "
             "figure; the rest are not the wrapper's and stay), and the "
             "step shortens by less, as other work then sets the path.",
             pr_sget_str_or(r, PR_K_TEXT, ""), kept / 1e9, c, a, b, d);
    return model_gain(r, text, note, est, step);
}

/* Recommendation r (its rule's row, written) with the replay w that
 * backs it, in the one shape of a saving (docs/summary-json.md): what_if,
 * the replay's id; gain_us / gain_pct, the replay's estimate of what the
 * change saves; gain_basis, gain_source; bound_us, the most it can save;
 * evidence, the path's nodes it shortened.  A scenario whose replay takes
 * off all the time the change could (scen[].bound: device copies, dtype
 * conversions, the overlap) gives a bound and no gain (no_gain's); a rule
 * with a stated model may add its estimate later (pathrules.c's device
 * copies).  Set through the row (rec_put).  0: out of memory. */
static int
put_replay(cJSON *r, const cJSON *w)
{
    const char *wid = pr_sget_str(w, PR_K_ID);
    int le = scen_bound(wid);
    struct rec_set s = {0};

    s.cols = RS_WHAT_IF | RS_BASIS | RS_SOURCE | RS_EVIDENCE |
             (le ? RS_NO_GAIN | RS_BOUND : RS_GAIN);
    s.what_if = wid;
    s.gain_us = pr_sget_num(w, PR_K_GAIN_US);
    s.gain_pct = pr_sget_num(w, PR_K_GAIN_PCT);
    /* the row's own (allocator churn: per step, not one-time) */
    s.gain_basis = pr_sget_str(w, PR_K_GAIN_BASIS) != NULL
                       ? pr_sget_str(w, PR_K_GAIN_BASIS)
                       : gain_basis_of(wid);
    s.gain_source = PR_GAIN_REPLAY;
    s.bound_us = s.gain_us;
    s.evidence = pr_sget(w, PR_K_EVIDENCE);
    return s.evidence != NULL && rec_put(r, &s);
}

/* The stream captures the trace records (launches.graph_captures:
 * cudaStreamBeginCapture / hipStreamBeginCapture calls), 0 without. */
static double
graph_captures(const cJSON *run)
{
    double n = pr_sget_num(pr_sget(run, PR_K_LAUNCHES), PR_K_GRAPH_CAPTURES);

    return n > 0 ? n : 0;
}

/* The advice on a graph-capture trace (hunt30 #6: vLLM's piecewise
 * capture, 25 hipStreamBeginCapture ... hipStreamEndCapture and
 * hipGraphInstantiateWithFlags with 26 hipDeviceSynchronize, read "twice
 * the batch saves 50%"): recording CUDA/HIP graphs is a one-time warm-up
 * (torch/cuda/graphs.py's torch.cuda.graph: capture_begin/capture_end
 * around cudaStreamBeginCapture/EndCapture; vLLM's capture_model and
 * SGLang's cuda_graph_runner.py at start-up; torch/_inductor/
 * cudagraph_trees.py's recording); the kernels issued while capturing are
 * recorded, not run (CUDA's stream-capture mode), and its syncs,
 * allocations and instantiations are paid once.  As the cold_step
 * finding, no gain claimed. */
static int
graph_advice(cJSON *run, cJSON *recs, double captures)
{
    const cJSON *x, *sy = pr_sget(run, PR_K_SYNCHRONIZATION);
    cJSON *r = NULL, *next;
    char text[1200], syncs[300] = "";
    size_t len = 0;
    int n = 0, k;

    cJSON_ArrayForEach(x, pr_sget(sy, PR_K_CALLS))
    {
        char t[32];

        if (n == 3 || !(pr_sget_num(x, PR_K_COUNT) > 0))
            continue;
        fmt_us(pr_sget_num(x, PR_K_HOST_US), t, sizeof(t));
        k = snprintf(syncs + len, sizeof(syncs) - len, "%s%.60s x%.0f, %s",
                     n++ ? "; " : "", pr_sget_str_or(x, PR_K_NAME, "?"),
                     pr_sget_num(x, PR_K_COUNT), t);
        if (k < 0 || (size_t)k >= sizeof(syncs) - len)
            break;
        len += (size_t)k;
    }
    snprintf(
        text, sizeof(text),
        "A graph capture, a one-time warm-up, not a steady iteration: the "
        "trace records %.0f stream capture%s (cudaStreamBeginCapture or "
        "hipStreamBeginCapture ... EndCapture, then GraphInstantiate), as "
        "torch.cuda.graph, vLLM's and SGLang's start-up capture and "
        "torch.compile's CUDA-graph trees do once. Kernels issued while "
        "capturing are recorded into the graphs, not run, and the host's "
        "syncs%s%s%s, allocations and graph instantiations around them are "
        "paid once, so this capture's batch, sync and launch figures do "
        "not say what an iteration costs, and no batch or sync advice is "
        "given. Profile the graph replays (cudaGraphLaunch / "
        "hipGraphLaunch) after start-up for the steady state.",
        captures, captures == 1 ? "" : "s", n ? " (" : "", syncs, n ? ")" : "");
    cJSON_ArrayForEach(next, recs)
    {
        if (pr_sget_is(pr_sget_str(next, PR_K_ID), "cold_step"))
            r = next;
    }
    if (r != NULL) /* recommend.c's slow-launch rule: this one instead */
        cJSON_Delete(cJSON_DetachItemViaPointer(recs, r));
    for (r = recs->child; r != NULL; r = next) {
        next = r->next;
        /* no batch or sync advice on a one-time capture */
        if (pr_sget_is(pr_sget_str(r, PR_K_ID), "low_gpu_utilization") ||
            pr_sget_is(pr_sget_str(r, PR_K_ID), "host_sync"))
            cJSON_Delete(cJSON_DetachItemViaPointer(recs, r));
    }
    r = pr_emit_rec(recs, "cold_step", "warning", text,
                    "not claimed: a graph capture is paid once at start-up, "
                    "not per iteration",
                    1);
    /* first among the findings without a gain (rank keeps ties' order) */
    return r != NULL && cJSON_InsertItemInArray(
                            recs, 0, cJSON_DetachItemViaPointer(recs, r));
}

/* An Nsight Systems export whose host ran PyTorch's emit_nvtx densely:
 * at least NVTX_OPS_MIN operator ranges and NVTX_PER_KERNEL for each
 * kernel (hostcov.c's nvtx_ops, absent for other producers), so part of
 * its host time is the profiler's own (issue #29). */
#define NVTX_OPS_MIN 1000.0
#define NVTX_PER_KERNEL 2.0
static int
nvtx_dense(const cJSON *run)
{
    const cJSON *h = pr_sget(run, PR_K_HOST_COVERAGE);
    double ops = pr_sget_num(h, PR_K_NVTX_OPS);
    double k = pr_sget_num(h, PR_K_KERNEL_CALLS);

    return ops >= NVTX_OPS_MIN && k >= 1 && ops >= NVTX_PER_KERNEL * k;
}

/* The launch finding's gain over a dense emit_nvtx export (issue #29
 * review: CS336's 33.0 ms a capture replayed on a path whose host work
 * holds 13,851 emit_nvtx ranges): the ranges' own host work lies on the
 * path the replay shortened, and without it the host runs further ahead
 * of the device, so the launches may save less.  0 out of memory. */
static int
nvtx_launch(cJSON *r, const cJSON *run)
{
    const cJSON *h = pr_sget(run, PR_K_HOST_COVERAGE);
    double ops = pr_sget_num(h, PR_K_NVTX_OPS);
    double k = pr_sget_num(h, PR_K_KERNEL_CALLS);
    const char *text = pr_sget_str(r, PR_K_TEXT);
    char buf[6144];

    if (!nvtx_dense(run) || text == NULL)
        return 1;
    snprintf(buf, sizeof(buf),
             "%s The trace holds %.0f operator ranges from PyTorch's "
             "emit_nvtx (%.1f for each kernel), whose host work (an NVTX push "
             "and pop, its name formatted) lies on the path this replay "
             "shortened: without them the host runs further ahead of the "
             "device, so the launches may save less than replayed here. "
             "Profile without emit_nvtx (torch.profiler) to measure it.",
             text, ops, ops / k);
    return put_text(r, buf);
}

enum pr_status
pr_whatif_recommend(cJSON *run, struct pr_error *err)
{
    const cJSON *cp = pr_sget(run, PR_K_CRITICAL_PATH);
    const cJSON *whatif = pr_sget(cp, PR_K_WHAT_IF);
    cJSON *recs = cJSON_GetObjectItemCaseSensitive(run, PR_K_RECOMMENDATIONS);
    cJSON *r, *next;
    double cold = cold_pct(whatif), captures = graph_captures(run);
    int host_only = cJSON_IsTrue(pr_sget(run, PR_K_HOST_ONLY));
    char cold_note[320];

    if (!cJSON_IsArray(recs) || cp == NULL)
        return PR_OK; /* a run without a trace: nothing replayed */
    snprintf(cold_note, sizeof(cold_note),
             "not claimed: the capture is cold (runtime calls of 1 ms or "
             "more, first-use costs, take %.0f%% of its steps; see the "
             "what-if cold_step), so a change's gain replayed on it would "
             "not be the steady state's; profile after warm-up",
             cold);
    if (captures > 0) {
        /* a graph capture is one-time work whatever its share: read as
           a cold capture (its other gains not claimed) */
        snprintf(cold_note, sizeof(cold_note),
                 "not claimed: the trace records %.0f graph capture%s, a "
                 "one-time warm-up (see the cold_step finding), so a "
                 "change's gain replayed on it would not be an iteration's",
                 captures, captures == 1 ? "" : "s");
        cold = cold > 0 ? cold : 100.0;
    } else if (churn_pct(whatif) > 0) {
        /* allocator churn dominates the steps: the other rules' facts
           stand, as observations, their gains measured against steps the
           churn fills are not claimed (review31 #2) */
        snprintf(cold_note, sizeof(cold_note),
                 "not claimed: allocator churn (the what-if cold_step: "
                 "runtime calls of 1 ms or more that recur every iteration) "
                 "takes %.0f%% of the capture, so a change's gain replayed "
                 "on it is measured against steps the churn dominates; "
                 "remove the churn, then profile again",
                 churn_pct(whatif));
        cold = churn_pct(whatif);
    }
    if (!(captures > 0 ? graph_advice(run, recs, captures)
                       : cold_advice(run, recs, whatif, cold)) ||
        (!(cold > 0) && !pr_path_findings(run, recs)))
        return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
    for (r = recs->child; r != NULL; r = next) {
        /* a copy: rec_put writes r's members anew */
        char idb[96];
        const char *id = pr_sget_str(r, PR_K_ID);
        const cJSON *w = backing_whatif(whatif, r, id);

        if (id != NULL) {
            snprintf(idb, sizeof(idb), "%s", id);
            id = idb;
        }

        next = r->next;
        if (cold > 0 && pr_sget_is(id, "low_gpu_utilization")) {
            /* the device idles while the host pays first-use costs: a
               larger batch is not the lever, the cold_step advice says
               what is (review R3) */
            cJSON_Delete(cJSON_DetachItemViaPointer(recs, r));
            continue;
        }
        if (!(cold > 0) && !path_bound(run, cp, r))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
        if (!backed(id))
            continue;
        if (cJSON_IsString(pr_sget(r, PR_K_GAIN_NOTE))) {
            /* the rule itself says why no change of it can be replayed */
            if (!no_gain(r, NULL))
                return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
            continue;
        }
        if (!cJSON_IsArray(whatif) ||
            (host_only && strcmp(id, "dataloader") != 0 &&
             strcmp(id, "communication") != 0)) {
            /* no step could be replayed (a CPU-only run's host path
               replays only its data loader and its collectives): the rule
               stands on its figures, and the report says its gain is not
               known */
            char why[240];

            if (!no_gain(r, no_replay(run, cp, why, sizeof(why))))
                return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
            continue;
        }
        if (cold > 0 && strcmp(id, "cold_step") != 0) {
            if (!no_gain(r, cold_note))
                return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
            continue;
        }
        if (pr_sget_is(id, PR_K_OP_COMPILE) && !compile_gain(r, w, cp, run))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
        if (pr_sget_is(id, PR_K_OP_COMPILE) && !compile_claims(w))
            continue; /* it stands on its figures, no gain claimed */
        if (pr_sget_is(id, PR_K_COMMUNICATION) &&
            pr_sget_str(cp, PR_K_PEER_WAIT_NOTE) != NULL &&
            peer_first_only(run) && !pr_sget_run_first_iteration_only(run)) {
            /* the late rank's wait is the warm-up's only: the rule over
               the steps after it (review32a #1) */
            if (!comm_steady(r, whatif, cp, run))
                return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
            continue;
        }
        if (pr_sget_is(id, PR_K_COMMUNICATION) &&
            pr_sget_str(cp, PR_K_PEER_WAIT_NOTE) != NULL) {
            /* its collectives wait for another rank: the straggler
               reading leads (review 7 #1), whatever the overlap replay
               gives (a bound with the consumers freed, which no lever on
               this rank reaches while the peer is late: review 8 #5's
               one assumption) */
            if (!comm_peer(r, whatif, cp, run))
                return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
            continue;
        }
        if (pr_sget_is(id, PR_K_COMMUNICATION) &&
            !(pr_sget_num(w, PR_K_GAIN_PCT) >= PR_WHATIF_MIN_PCT) &&
            pr_sget_num(pr_sget_find(whatif, PR_K_ID, "gradient_accumulation"),
                        PR_K_GAIN_PCT) >= PR_WHATIF_MIN_PCT) {
            /* overlap saves nothing (nothing computes meanwhile: a
               CPU-only step) and accumulation is not claimed: the
               finding stands on its share, its text says why */
            if (!comm_host(r, whatif, cp, run))
                return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
            continue; /* its evidence: the collectives it names */
        }
        if (w == NULL ||
            !(pr_sget_num(w, PR_K_GAIN_PCT) >= PR_WHATIF_MIN_PCT ||
              (pr_sget_is(id, PR_K_OP_COMPILE) && compile_claims(w)))) {
            /* its change saves (next to) nothing on the path, or no step
               could be replayed: the rule does not fire; but where the
               host's lead may be emit_nvtx's own, the precision rules
               stand as observations (issue #29 review: CS336's fp32
               SGEMMs, 71% of the kernel time, off a path the profiler's
               ranges may have made) */
            if ((pr_sget_is(id, "enable_amp") || pr_sget_is(id, "tf32")) &&
                nvtx_dense(run) &&
                pr_sget_is(pr_sget_str(cp, PR_K_BOUND), "host")) {
                char note[400];
                int cap = pr_sget_run_is_capture(run);

                snprintf(note, sizeof(note),
                         "not claimed: replayed on this %s these kernels are "
                         "off the critical path, but the host work that "
                         "holds it includes emit_nvtx's ranges, and without "
                         "them the kernels may hold it%s; profile again "
                         "without emit_nvtx",
                         cap ? "capture" : "trace's steps",
                         cap ? " (the verdict gives the break-even)" : "");
                if (!no_gain(r, note))
                    return pr_error_set(err, PR_E_NOMEM,
                                        "out of memory (what-if)");
                continue;
            }
            cJSON_Delete(cJSON_DetachItemViaPointer(recs, r));
            continue;
        }
        if (pr_sget_is(id, PR_K_COMMUNICATION)) {
            /* the overlap replay frees every wait on a collective but its
               consumers': no one change makes it, a bound (review 7 #3) */
            if (!comm_bound(r, whatif, run, w))
                return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
            continue;
        }
        if (!accum_caveat(r, whatif, run) || !put_replay(r, w))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
        if (!replay_note(r, w, pr_run_gain_window(run)) ||
            (pr_sget_is(pr_sget_str(w, PR_K_ID), "device_copies") &&
             !copies_model(r, w, run)) ||
            (pr_sget_is(pr_sget_str(w, PR_K_ID), "dtype_conversions") &&
             !casts_model(r, w, pr_sget_run_is_capture(run))))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
        if (pr_sget_is(id, "launch_bound") && !nvtx_launch(r, run))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
        if (pr_sget_is(id, "low_gpu_utilization") &&
            pr_sget_is(gain_basis_of(pr_sget_str(w, PR_K_ID)),
                       PR_GAIN_PER_SAMPLES) &&
            !batch_why(r, w, pr_run_gain_window(run), run, whatif))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
        if ((pr_sget_is(id, "enable_amp") || pr_sget_is(id, "tf32")) &&
            !precision_cap(r, w, cp, run))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
    }
    if (!fold_compile(run, recs, cp))
        return pr_error_set(err, PR_E_NOMEM, "out of memory (what-if)");
    return rank(recs, err);
}

/* ------------------------------------------------------- the verdict */

void
pr_whatif_clip(const char *text, char *buf, size_t cap)
{
    size_t n = strlen(text), cut;

    if (cap == 0)
        return;
    if (n < cap) {
        memcpy(buf, text, n + 1);
        return;
    }
    /* room for " …" (4 bytes) and the NUL; back to a space, never into
       a UTF-8 sequence */
    if (cap < 6) {
        buf[0] = '\0';
        return;
    }
    cut = cap - 5;
    while (cut > 0 && text[cut] != ' ')
        cut--;
    while (cut > 0 && (text[cut - 1] == ' ' || text[cut - 1] == ',' ||
                       text[cut - 1] == ';' || text[cut - 1] == ':'))
        cut--;
    if (cut == 0) /* one long word: at a character */
        for (cut = cap - 5;
             cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80;)
            cut--;
    memcpy(buf, text, cut);
    snprintf(buf + cut, cap - cut, " \xE2\x80\xA6");
}

/* The launch finding's title by what its evidence is.  A run the path
 * does not call host-bound has launch gaps that idle the device (review
 * 25g #9: nsys_after's "Launch-bound" under a verdict "Bound by device
 * compute").  On a host-bound path the run is launch-bound only where
 * the launch calls are most of the path (pr_path_launch_calls_pct, as the
 * path's rule counts them); where they are a part of the host's work,
 * the title names them (hta_nccl: launch calls 7% of the path beside 93%
 * of host operators' work, its 24 cudaEventSynchronize calls idling the
 * device 26 us in all: "Launch calls on the critical path", not
 * "Launch-bound").  Without a path, the aggregate rule's evidence (the
 * device waiting for launches) says launch-bound.  A captured graph
 * cannot hold a synchronization, so with the host_sync finding only the
 * launches between syncs can be captured. */
static const char *
launch_title(const cJSON *run)
{
    /* [part][syncs][capture]: part 0 launch-bound, 1 launch calls on the
       path, 2 launch gaps */
    static const char *const t[3][2][2] = {
        {{"Launch-bound: capture the step in a graph",
          "Launch-bound: capture the launches in a graph"},
         {"Launch-bound: graph the step's launches between its syncs",
          "Launch-bound: graph the launches between the syncs"}},
        {{"Launch calls on the critical path: capture the step in a graph",
          "Launch calls on the critical path: capture the launches in a "
          "graph"},
         {"Launch calls on the critical path: graph the step's launches "
          "between its syncs",
          "Launch calls on the critical path: graph the launches between "
          "the syncs"}},
        {{"Launch gaps idle the device: capture the launches in a graph",
          "Launch gaps idle the device: capture the launches in a graph"},
         {"Launch gaps idle the device: graph the launches between its "
          "syncs",
          "Launch gaps idle the device: graph the launches between its "
          "syncs"}}};
    const cJSON *cp = pr_sget(run, PR_K_CRITICAL_PATH);
    const char *b = pr_sget_str(cp, PR_K_BOUND);
    const cJSON *r;
    int host = b == NULL || strcmp(b, "host") == 0, syncs = 0, part = 0;
    int path = 0;

    cJSON_ArrayForEach(r, pr_sget(run, PR_K_RECOMMENDATIONS)) syncs |=
        pr_sget_is(pr_sget_str(r, PR_K_ID), "host_sync");
    cJSON_ArrayForEach(r, pr_sget(cp, PR_K_BY_KIND_US)) path |=
        cJSON_IsNumber(r) && r->valuedouble > 0;
    if (!host)
        part = 2;
    else if (path && !(pr_path_launch_calls_pct(cp) >= 50))
        part = 1;
    return t[part][syncs][pr_sget_run_is_capture(run) != 0];
}

/* A share in percent as words that never read 100% (or 0%) for one that
 * is not: "over 99.9%" / "under 0.1%" where pr_pct_prec would need two
 * decimals or more, else with its decimals (ms_fixtures: 6 us of device
 * work in 4.47 s read "100% idle"). */
static const char *
pct_words(double pct, char *buf, size_t cap)
{
    int d = pr_pct_prec(pct);

    if (d >= 2)
        snprintf(buf, cap, "%s", pct < 50.0 ? "under 0.1%" : "over 99.9%");
    else
        snprintf(buf, cap, "%.*f%%", d, pct);
    return buf;
}

/* The path's device work (kernels, copies, collectives), as text in
 * buf: what a sparse capture's tasks take. */
static const char *
device_work(const cJSON *cp, char *buf, size_t cap)
{
    static const char *const dev[] = {PR_K_KERNEL, PR_K_COPY,
                                      PR_K_COMMUNICATION, PR_K_STREAM_WAIT,
                                      PR_K_PEER_WAIT};
    const cJSON *kinds = pr_sget(cp, PR_K_BY_KIND_US);
    double us = 0, v;
    size_t i;

    for (i = 0; i < sizeof(dev) / sizeof(dev[0]); i++) {
        v = pr_sget_num(kinds, dev[i]);
        us += v > 0 ? v : 0;
    }
    fmt_us(us, buf, cap);
    return buf;
}

/* Where only some of the path's idle gaps follow such a call (the idle
 * note's "the launches of 2 of the 3 (1.33 ms a step) followed a
 * stream-wait call"): how many (*k of *n) and their time (*ms, a step or,
 * on a capture, in all).  The rest have no recorded cause; these do. */
static int
unlinked_part(const cJSON *cp, size_t *k, size_t *n, double *ms)
{
    const char *idle = pr_sget_str_or(cp, PR_K_IDLE_NOTE, "");
    const char *p = strstr(idle, "; the launches of ");
    size_t skip = sizeof("; the launches of ") - 1;

    if (p == NULL) {
        p = strstr(idle, "; the launch of ");
        skip = sizeof("; the launch of ") - 1;
    }
    return p != NULL && strstr(p, ") followed a stream-wait call") != NULL &&
           sscanf(p + skip, "%zu of the %zu (%lf ms", k, n, ms) == 3 &&
           *k > 0 && *k < *n;
}

/* The verdict's evidence cell for a list of evidence, in bytes. */
#define EVIDENCE_CELL 400

/* A finding's name as a user reads it (the recommendation's id). */
static const char *
finding_title(const char *id)
{
    static const struct {
        const char *id, *title;
    } t[] = {
        {"launch_bound", "Launch-bound: capture the step in a graph"},
        {"dataloader", "Input loading on the critical path"},
        {"host_sync", "The host blocks on the device"},
        {"pageable_copies", "Blocking copies from pageable memory"},
        {"communication", "High communication time"},
        {"enable_amp", "Mixed precision (AMP) for fp32 GEMM/conv"},
        {"low_gpu_utilization", "Device underused"},
        {"memory_bound_ops", "Memory-bound operators far below the roof"},
        {"misaligned_dims", "Dims that keep GEMMs off tensor cores"},
        {"low_occupancy", "Kernels that leave the device idle"},
        {"cold_step", "A cold capture: first-use costs in the step"},
        {"cudnn_search", "cuDNN's algorithm search (once per shape)"},
        {"op_compile", "Operators on CANN's aclop path"},
        {"copy_bound", "Bound by copies from the host"},
        {"dtype_conversions", "Dtype conversions on the device"},
        {"host_ops", "Host operators bound the step"},
        {"small_allreduce", "Many small all-reduces: gradients not bucketed"},
        {"slow_dispatch", "Slow host dispatch"},
        {"low_block_dim", "Operators on few AI Cores (low Block Dim)"},
        {"scalar_bound", "Kernels bound by the Scalar unit"},
        {"pipeline_stage", "The slower pipeline stage"},
        {"step_interval", "Long step interval (data or host between steps)"},
        {"embedding", "Embedding lookups and their gradients"},
        {"device_copies", "Device-to-device copies on the critical path"},
    };
    size_t i;

    for (i = 0; id != NULL && i < sizeof(t) / sizeof(t[0]); i++) {
        if (strcmp(id, t[i].id) == 0)
            return t[i].title;
    }
    return id != NULL ? id : "";
}

/* A finding's title as the producer's tools name what it found: the
 * communication finding of a pipeline stage that waits alone in Receive
 * is a pipeline bubble (MindStudio Insight's and msprof-analyze's
 * "Bubble"), not high communication (issue #30 finding 6: cluster_4rank
 * ranks 0/1 wait 56 ms of 179 in Receive and compute 15 ms). */
const char *
pr_whatif_title(const cJSON *r)
{
    const char *id = pr_sget_str(r, PR_K_ID);

    if (pr_sget_is(id, PR_K_COMMUNICATION) &&
        strstr(pr_sget_str_or(r, PR_K_TEXT, ""), "pipeline bubble") != NULL)
        return "Pipeline bubble: the stage waits for the slower one";
    /* a peer-bound rank's: its step is set by a late rank (review 9) */
    if (pr_sget_is(id, PR_K_COMMUNICATION) &&
        strncmp(pr_sget_str_or(r, PR_K_TEXT, ""),
                "On the steps' binding chains", 28) == 0)
        /* two that came close together (critpath.c late_group) */
        return strstr(pr_sget_str(r, PR_K_TEXT), "The peers it waited for, ")
                   ? "Waiting for late ranks (HCCL Notify Wait)"
                   : "Waiting for a late rank (HCCL Notify Wait)";
    /* the same reading by the producer's own split, where no step
       replays (review 10 #5: npu_old2023, communication.json's Wait 116.6
       of 152.3 ms a step; producer.c's sentence) */
    if (pr_sget_is(id, PR_K_COMMUNICATION) &&
        strstr(pr_sget_str_or(r, PR_K_TEXT, ""),
               " Most of it is waiting for other ranks, not transfer") != NULL)
        return "Waiting for a late rank (HCCL Wait)";
    /* kernel replay's (recommend.c rule_cold_step, review31 #5) */
    if (pr_sget_is(id, "cold_step") &&
        strstr(pr_sget_str_or(r, PR_K_TEXT, ""),
               " stalls under kernel replay: ") != NULL)
        return "Kernel replay: host stalls while CUPTI replays kernels";
    /* cold_step's other readings (hunt30 #3, #6): graph_advice's and
       churn_text's */
    if (pr_sget_is(id, "cold_step") &&
        strncmp(pr_sget_str_or(r, PR_K_TEXT, ""), "A graph capture", 15) == 0)
        return "Graph capture: a one-time warm-up";
    if (pr_sget_is(id, "cold_step") &&
        strncmp(pr_sget_str_or(r, PR_K_TEXT, ""), "Memory freed and", 16) == 0)
        return "Allocator churn: memory freed every iteration";
    /* AMD's words, as the finding's text says them (rule_misaligned) */
    if (pr_sget_is(id, "misaligned_dims") &&
        strstr(pr_sget_str_or(r, PR_K_TEXT, ""), "matrix cores (MFMA)") != NULL)
        return "Dims that keep GEMMs off the matrix cores (MFMA)";
    /* a run without steps: its host work bounds the capture (the
       held-out B200 trace of wbing520/ai-performance-engineering, no
       ProfilerStep: "Host operators bound the step") */
    if (pr_sget_is(id, "host_ops") &&
        strstr(pr_sget_str_or(r, PR_K_TEXT, ""), " in the capture") != NULL)
        return "Host operators bound the capture";
    /* unsized all-reduces: many, how small not known (review 7 #6) */
    if (pr_sget_is(id, "small_allreduce") &&
        strncmp(pr_sget_str_or(r, PR_K_TEXT, ""), "Many all-reduces", 16) == 0)
        return "Many all-reduces a step: gradients not bucketed";
    return finding_title(id);
}

void
pr_whatif_fmt_us(double us, char *buf, size_t cap)
{
    if (!(us == us))
        snprintf(buf, cap, "?");
    else if (us >= 1e6)
        snprintf(buf, cap, "%.2f s", us / 1e6);
    else if (us >= 1000)
        snprintf(buf, cap, "%.1f ms", us / 1000);
    else
        snprintf(buf, cap, "%.0f \xC2\xB5s", us);
}

/* A communication-bound verdict whose collectives wait for a peer the
 * trace does not hold (critical_path.peer_wait_note) says so first
 * (review 7 finding 1): that peer, not this rank's work, sets the step. */
static void
peer_words(const cJSON *run, const cJSON *cp, const char *bound, char *text,
           size_t cap)
{
    size_t len = strlen(text);
    double gr = pr_sget_num(pr_sget(run, PR_K_LATE_PEER), PR_K_GROUP_RANK);

    if (pr_sget_str(cp, PR_K_PEER_WAIT_NOTE) == NULL || bound == NULL ||
        strcmp(bound, "communication") != 0 || len >= cap)
        return;
    double rank = pr_sget_num(cp, PR_K_PEER_WAIT_RANK);
    char who[64] = "the rank it waits for, which the export does not name";

    if (peer_first_only(run)) {
        /* hunt30 #2: the steady steps' shares hold no such wait */
        snprintf(text + len, cap - len,
                 " Its collectives waited in HCCL's Notify Wait for rank "
                 "%.0f in the first step only, a warm-up left out of the "
                 "shares: no late rank sets the steps after it.",
                 rank);
        return;
    }

    /* review 10 #6: npu_text0 read "that rank" with no rank before it */
    if (!isnan(rank) && rank >= 0 && !isnan(gr)) /* review 11 #3 */
        snprintf(who, sizeof(who), "ranks %.0f and %.0f, the ones it waits for",
                 rank, gr);
    else if (!isnan(rank) && rank >= 0) /* HCCL's dst rank (critpath.c) */
        snprintf(who, sizeof(who), "rank %.0f, the one it waits for", rank);
    if (pr_sget_run_first_iteration_only(run) &&
        pr_sget_str(run, PR_K_ITERATIONS_NOTE) != NULL) {
        /* issue #30: the producer's step trace times the iterations the
           timeline lacks; the note sets this one against them and names
           the export of another, instead of asking to profile them */
        snprintf(text + len, cap - len,
                 " Its collectives waited in HCCL's Notify Wait for %s in "
                 "the program's first iteration, the only one whose tasks "
                 "this timeline export holds, which includes HCCL's link "
                 "setup and first-call costs: whether a late rank sets the "
                 "iterations after it is not known. %s",
                 who, pr_sget_str(run, PR_K_ITERATIONS_NOTE));
        return;
    }
    if (pr_sget_run_first_iteration_only(run)) {
        /* review 31 #6: one first iteration cannot show recurrence */
        snprintf(text + len, cap - len,
                 " Its collectives waited in HCCL's Notify Wait for %s in "
                 "the program's first iteration, the only step captured, "
                 "which includes HCCL's link setup and first-call costs: "
                 "whether a late rank sets the steps after it is not known "
                 "(profile iterations after the first).",
                 who);
        return;
    }
    snprintf(text + len, cap - len,
             " Its collectives spend most of their time in HCCL's Notify "
             "Wait for %s: %s (%s), not this rank's work, set%s the step, so "
             "work saved on this rank before those collectives does not "
             "shorten it (see the communication finding).",
             isnan(gr) ? "another rank" : "other ranks", who,
             isnan(gr) ? "a slower step there, or its data loader"
                       : "slower steps there, or their data loaders",
             isnan(gr) ? "s" : "");
}

/* The step a bound's share is of: the run's mean step, but the median
 * step for the stages' balance and of MindSpore's step trace for
 * step_interval, whose bound, text and note are of that step (review 10 #7:
 * ms_fixtures' cell read
 * "<= 71.7%" of the 125.9 ms mean beside its text's 69% of the 130.4 ms
 * median). */
static double
share_step(const cJSON *run, const cJSON *r)
{
    const cJSON *m = pr_sget(pr_sget(run, PR_K_STEP_TRACE), PR_K_MEDIAN);
    double st = pr_sget_num(m, PR_K_ITERATION_INTERVAL_US) +
                pr_sget_num(m, PR_K_FP_AND_BP_US) +
                pr_sget_num(m, PR_K_TAIL_US);

    if (pr_sget_is(pr_sget_str(r, PR_K_ID), "step_interval") && st > 0)
        return st;
    /* the stages' balance is of the rank's median step, as its note says
       (issue #30 review: ms_cluster4 rank 2's "<= 9.4%" of a mean with
       its 2.16 s warm-up beside "at most 54.2 ms of its 178.9 ms median
       step") */
    if (pr_sget_is(pr_sget_str(r, PR_K_ID), "pipeline_stage") ||
        (pr_sget_is(pr_sget_str(r, PR_K_ID), PR_K_COMMUNICATION) &&
         strstr(pr_sget_str_or(r, PR_K_TEXT, ""), "pipeline bubble") != NULL))
        return pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEDIAN_US);
    return pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
}

/* A verdict finding's bound_us (the recommendation's, as it is) and its
 * Saves and Of step cells (review 5 #6, review 8 #9): "3.0 ms" for a
 * gain, "<= 7.6 ms" for a bound alone, "5.3 ms (<= 7.6 ms)" for a
 * gain with a bound above it, null for neither (a bound of 0: none of
 * the change's time is on the path). */
static void
saves_cell(struct pr_row_finding *o, const cJSON *run, const cJSON *r,
           char cell[96], char of[48])
{
    double g = pr_sget_num(r, PR_K_GAIN_US), b = pr_sget_num(r, PR_K_BOUND_US);
    double pct = pr_sget_num(r, PR_K_GAIN_PCT);
    double step = share_step(run, r);
    const char *x2 =
        pr_sget_is(pr_sget_str(r, PR_K_GAIN_BASIS), PR_GAIN_PER_SAMPLES)
            ? " at 2\xc3\x97 batch" /* twice the batch: per step's worth of
                                        samples */
            : "";
    char t[32], u[32];

    o->bound_us = b;
    /* the bound's share as a number, for a machine (review 30g #9: the
       findings CSV had "<= 34.3%" in no numeric column) */
    o->bound_pct = b > 0 && step > 0 ? 100.0 * b / step : NAN;
    if (!(b > 0) || (!isnan(g) && !(b > g)))
        b = NAN; /* no bound to show beside the gain */
    if (!isnan(g) && !isnan(b)) {
        fmt_us(g, t, sizeof(t));
        fmt_us(b, u, sizeof(u));
        snprintf(cell, 96, "%s (\xe2\x89\xa4 %s)%s", t, u, x2);
        o->saves = cell;
    } else if (!isnan(g) || !isnan(b)) {
        fmt_us(!isnan(g) ? g : b, t, sizeof(t));
        snprintf(cell, 96, "%s%s%s", isnan(g) ? "\xe2\x89\xa4 " : "", t, x2);
        o->saves = cell;
    } else {
        o->saves = NULL;
    }
    /* the Of step cell beside it (review 6 #8): the bound's share too */
    if (!isnan(g) && !isnan(pct) && !isnan(b) && step > 0) {
        /* "5.2-6.1%" (an en dash): the estimate's share to the bound's (the
           PDF's narrow cell) */
        snprintf(of, 48, "%.1f\xe2\x80\x93%.1f%%", pct, 100.0 * b / step);
        o->of_step = of;
    } else if (!isnan(g) && !isnan(pct)) {
        snprintf(of, 48, "%.1f%%", pct);
        o->of_step = of;
    } else if (isnan(g) && !isnan(b) && step > 0) {
        snprintf(of, 48, "\xe2\x89\xa4 %.1f%%", 100.0 * b / step);
        o->of_step = of;
    } else {
        o->of_step = NULL;
    }
}

/* Display forms of an evidence row's names (at most 3) into forms[]: the
 * reports' short form (shorten.h), told apart from the run's kernels as
 * the Kernels table tells them apart (review22g item 14: a cast kernel
 * cut to "...<(int)8, at::native::bfloat16_copy" mid-identifier, where
 * the table shows "vectorized_elementwise_kernel<...bfloat16_copy_kernel_
 * cuda(...)").  0, or -1 on out-of-memory (forms all NULL). */
static int
evidence_forms(const cJSON *run, const char *const *names, int n, char **forms)
{
    const cJSON *k, *kernels = pr_sget(run, PR_K_KERNELS);
    size_t cap = (size_t)n + pr_sget_len(kernels), m = 0;
    const char **all = malloc(cap * sizeof(*all));
    int rc;

    if (all == NULL) {
        forms[0] = forms[1] = forms[2] = NULL;
        return -1;
    }
    while (m < (size_t)n) {
        all[m] = names[m];
        m++;
    }
    cJSON_ArrayForEach(k, kernels)
    {
        const char *name = pr_sget_str(k, PR_K_NAME);

        if (name != NULL && m < cap)
            all[m++] = name;
    }
    rc = pr_shorten_names(all, m, (size_t)n, 80, forms, 1);
    free(all);
    return rc;
}

/* "aten::mm 937.5 us; cudaLaunchKernel 13 us" from evidence rows, the
 * names in the reports' short form (evidence_forms), after `label` when
 * given ("time on the critical path: "). */
static void
evidence_text(const cJSON *run, const cJSON *ev, const char *label,
              const char *tail, char *buf, size_t cap)
{
    const cJSON *e;
    const char *names[3];
    char *forms[3] = {NULL, NULL, NULL};
    size_t len = 0;
    int n = 0, i, shortened;

    buf[0] = '\0';
    cJSON_ArrayForEach(e, ev)
    {
        if (n == 3)
            break;
        names[n++] = pr_sget_str_or(e, PR_K_NAME, "?");
    }
    shortened = n > 0 && evidence_forms(run, names, n, forms) == 0;
    if (n > 0 && label != NULL)
        len = pr_append(buf, cap, 0, "%s", label);
    for (i = 0, e = ev ? ev->child : NULL; i < n && e && len < cap;
         i++, e = e->next) {
        char t[32];
        int w;

        fmt_us(pr_sget_num(e, PR_K_US), t, sizeof(t));
        w = snprintf(buf + len, cap - len, "%s%.320s %s", i ? "; " : "",
                     shortened ? forms[i] : names[i], t);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    if (shortened)
        pr_shorten_free(forms, (size_t)n);
    if (n > 0 && tail != NULL && len < cap)
        snprintf(buf + len, cap - len, "%s", tail);
}

/* A peer-bound rank's communication evidence in words (review 10 #2):
 * "Notify Wait (last notify rank 5's): hcom_allReduce__586_0_1 78.8 ms,
 * ..._3_1 22.0 ms", each collective's wait, the parts of the bound, with its
 * whole time where the wait is under 95% of it ("op534_0 38.4 ms (of 41.5
 * ms)").  0 where r's evidence is not that (no total_us). */
static int
peer_evidence_text(const cJSON *run, const cJSON *r, char *buf, size_t cap)
{
    const cJSON *e, *ev = pr_sget(r, PR_K_EVIDENCE);
    double late =
        pr_sget_num(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_PEER_WAIT_RANK);
    size_t len;
    int n = 0;

    if (!pr_sget_is(pr_sget_str(r, PR_K_ID), PR_K_COMMUNICATION) ||
        isnan(pr_sget_num(cJSON_GetArrayItem(ev, 0), PR_K_TOTAL_US)))
        return 0;
    double gr = pr_sget_num(pr_sget(run, PR_K_LATE_PEER), PR_K_GROUP_RANK);

    /* the wait is every rank's, the part begun after the first transfer
       too (review 11 #7: CANN 6's 38.4 ms holds 5.68 ms of such waits for
       ranks 1 to 4); the rank is whose notify came last before it */
    if (!isnan(late) && !isnan(gr))
        len = pr_append(
            buf, cap, 0,
            "Notify Wait (last notifies rank %.0f's and %.0f's): ", late, gr);
    else if (!isnan(late))
        len = pr_append(buf, cap, 0,
                        "Notify Wait (last notify rank %.0f's): ", late);
    else
        len = pr_append(buf, cap, 0, "Notify Wait for another rank: ");
    cJSON_ArrayForEach(e, ev)
    {
        double us = pr_sget_num(e, PR_K_US),
               tot = pr_sget_num(e, PR_K_TOTAL_US);
        char t[32], o[32];

        if (n == 3)
            break;
        fmt_us(us, t, sizeof(t));
        fmt_us(tot, o, sizeof(o));
        len = pr_append(buf, cap, len, "%s%.80s %s%s%s%s", n ? ", " : "",
                        pr_sget_str_or(e, PR_K_NAME, "?"), t,
                        us < 0.95 * tot ? " (of " : "",
                        us < 0.95 * tot ? o : "", us < 0.95 * tot ? ")" : "");
        n++;
    }
    if (!isnan(pr_sget_num(r, PR_K_GAIN_US)))
        len = pr_append(
            buf, cap, len,
            " (the bound's parts; the estimate: the finding's model)");
    (void)len;
    return 1;
}

static const char *
bound_words(const char *b)
{
    return b == NULL                         ? NULL
           : strcmp(b, "host") == 0          ? "the host"
           : strcmp(b, "device") == 0        ? "device compute"
           : strcmp(b, "copy") == 0          ? "copies"
           : strcmp(b, "communication") == 0 ? "communication"
                                             : b;
}

/* The critical path's split as "host work 57%, kernels 37%" (the kinds
 * over 5% of the mean path, largest first).  cold: the launch kind is
 * runtime calls (a cold capture, or set-up calls lead it: setup_leads).
 * Where the launch kind is
 * named as runtime calls (a cold capture, CANN's aclop calls), its
 * launch-to-start delay (delay, us), which is no call's time, is a part
 * of its own (review 10 #7: msprof_npu_out's "runtime calls 47%" held
 * its 1.52 ms of delay). */
static void
split_text(const cJSON *kinds, double delay, int cold, int ms, int aclop,
           int unrec, int npu, char *buf, size_t cap)
{
    static const struct {
        const char *key, *words;
    } k[] = {
        {PR_K_HOST_OP, "host work"},
        {PR_K_DATALOADER, "data loader"},
        {PR_K_LAUNCH, "launches"},
        {PR_K_KERNEL, "kernels"},
        {PR_K_COPY, "copies"},
        {PR_K_COMMUNICATION, "communication"},
        {PR_K_SYNC_WAIT, "host syncs"},
        /* a device stream's wait for another stream (issue #29) */
        {PR_K_STREAM_WAIT, "stream waits"},
        {PR_K_IDLE, "idle"},
        {PR_K_OP_COMPILE, "operator compilation"},
        /* the step up to where the path enters from a peer (critpath.c,
           review 8 #3) */
        {PR_K_PEER_WAIT, "set by another rank"},
        {PR_K_LAUNCH, "launch-to-start delay"}, /* last: the delay part */
    };
    enum { NK = sizeof(k) / sizeof(k[0]) };
    double v[NK], total = 0;
    int used[NK] = {0}, i, n = 0, calls = cold || aclop;
    size_t len = 0;

    buf[0] = '\0';
    for (i = 0; i < NK - 1; i++) {
        v[i] = pr_sget_num(kinds, k[i].key);
        total += v[i] > 0 ? v[i] : 0;
    }
    v[NK - 1] = 0;
    for (i = 0; calls && delay > 0 && i < NK - 1; i++) {
        if (strcmp(k[i].key, PR_K_LAUNCH) == 0 && v[i] >= delay) {
            v[i] -= delay;
            v[NK - 1] = delay;
        }
    }
    while (total > 0 && len < cap) {
        int best = -1, w;

        for (i = 0; i < NK; i++) {
            if (!used[i] && v[i] > 0.05 * total && (best < 0 || v[i] > v[best]))
                best = i;
        }
        if (best < 0)
            break;
        used[best] = 1;
        /* a cold capture's runtime calls are first-use costs (context
           creation, module loading), not launches (review-2 finding 16:
           alexnet's "launches 97%" was cudaDeviceGetStreamPriorityRange
           and cudaFree) */
        w = snprintf(
            buf + len, cap - len, "%s%s %.0f%%", n++ ? ", " : "",
            best == NK - 1                               ? k[best].words
            : cold && strcmp(k[best].key, "launch") == 0 ? "runtime calls"
            /* CANN's aclop calls are launches on the path, but
               mostly host work (review-5 finding 2); named as the
               chart's kind, Runtime calls (review 8 #10) */
            : aclop && strcmp(k[best].key, "launch") == 0
                ? "runtime calls (aclop calls among them)"
            : ms && strcmp(k[best].key, "dataloader") == 0
                ? "step interval" /* MindSpore's data-queue wait */
            /* the compute a pipeline stage's table measures and
               its export holds no task for (step_bound,
               critpath.c) */
            : unrec && strcmp(k[best].key, PR_K_IDLE) == 0
                ? "idle (compute the export holds no tasks for)"
            /* an NPU runs tasks (issue #30's words) */
            : npu && strcmp(k[best].key, PR_K_KERNEL) == 0 ? "compute tasks"
                                                           : k[best].words,
            100.0 * v[best] / total);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

#define VERDICT_FINDINGS 5

/* A cold capture: the cold_step what-if (runtime calls of 1 ms or more at
 * the step's median call) saves this share of the step or more, so its
 * runtime calls are first-use costs, not launch overhead.  A quarter: the
 * nsys CloverLeaf capture's one 234 ms cudaMalloc (context creation) is
 * 38% of it (review 28h #9); the warm captures of ../shared and the
 * held-out traces stay under 16% (saxpy's cudaHostRegister, nsys_mock). */
/* fewer device tasks than this in a run: a sparse capture (verdict) */
#define VERDICT_SPARSE_TASKS 10
#define VERDICT_COLD_PCT 25.0

/* The verdict's sentence on a cold capture (cold: the cold_step what-if's
 * gain, NaN when under VERDICT_COLD_PCT), in buf; "" otherwise.  churn:
 * the cold_step row where its calls are allocator churn (recurring_calls),
 * else NULL. */
static const char *
cold_words(double cold, const cJSON *churn, int capture, char *buf, size_t cap)
{
    const cJSON *e = pr_sget(churn, PR_K_EVIDENCE);

    if (churn != NULL && !isnan(cold)) {
        /* hunt30 #3: calls that recur every iteration are no cold start */
        snprintf(buf, cap,
                 " Allocator churn, not a cold start: %.80s calls of 1 ms "
                 "or more recur every iteration (%.1f an iteration); "
                 "without them the %s would be %.0f%% shorter. Memory is "
                 "freed and allocated again each iteration.",
                 pr_sget_str_or(e != NULL ? e->child : NULL, PR_K_NAME, "?"),
                 pr_sget_num(churn, PR_K_RECURRING_CALLS),
                 capture ? "capture" : "step", cold);
        return buf;
    }
    if (isnan(cold))
        return "";
    snprintf(buf, cap,
             " A cold start: first-use costs (context creation, lazy "
             "module loading, first allocations) in runtime calls, not "
             "launch overhead: without them the %s would be %.0f%% "
             "shorter; profile after warm-up.",
             capture ? "capture" : "step", cold);
    return buf;
}

/* 1 when a host-bound path's largest host part is CANN's online operator
 * compilation (critpath.c's op_compile kind): the verdict names it, since
 * the fix is compiling less, not launching less (review-2 finding 4). */
static int
compile_leads(const char *bound, const cJSON *kinds)
{
    static const char *const host[] = {"host_op", "dataloader", "launch",
                                       "sync_wait"};
    double cc = pr_sget_num(kinds, PR_K_OP_COMPILE);
    size_t i;

    if (bound == NULL || strcmp(bound, "host") != 0 || !(cc > 0))
        return 0;
    for (i = 0; i < sizeof(host) / sizeof(host[0]); i++) {
        if (pr_sget_num(kinds, host[i]) > cc)
            return 0;
    }
    return 1;
}

/* The idle share of the mean path (0-100) when idle with no recorded
 * cause outweighs each resource critpath.c's bound weighs (host work,
 * device compute, copies, communication), else NaN: such a path names
 * no bound (review finding 3: 82-100% idle read "device compute"). */
static double
idle_dominant_pct(const cJSON *kinds)
{
    static const char *const host[] = {"host_op", "dataloader", "launch",
                                       "sync_wait", "op_compile"};
    static const char *const rest[] = {PR_K_KERNEL, PR_K_COPY,
                                       PR_K_COMMUNICATION, PR_K_PEER_WAIT};
    double idle = pr_sget_num(kinds, PR_K_IDLE), h = 0, total, v;
    size_t i;

    if (!(idle > 0))
        return NAN;
    for (i = 0; i < sizeof(host) / sizeof(host[0]); i++) {
        v = pr_sget_num(kinds, host[i]);
        h += v > 0 ? v : 0;
    }
    total = idle + h;
    if (h >= idle)
        return NAN;
    for (i = 0; i < sizeof(rest) / sizeof(rest[0]); i++) {
        v = pr_sget_num(kinds, rest[i]);
        if (i == 0) {
            /* the device: its compute and its streams' waits for each
               other (critpath.c's bound_of, issue #29) */
            double sw = pr_sget_num(kinds, PR_K_STREAM_WAIT);

            v = (v > 0 ? v : 0) + (sw > 0 ? sw : 0);
        }
        if (v >= idle)
            return NAN;
        total += v > 0 ? v : 0;
    }
    return 100.0 * idle / total;
}

/* Why a replay that saves more than a finding gave none: its rule's own
 * evidence (recommend.c) is missing, and a replay alone makes a finding
 * only for the rules pathrules.c drives, from PR_WHATIF_PATH_PCT up. */
static const char *
unclaimed_why(const cJSON *w, const char *win, char *buf, size_t cap)
{
    const char *id = pr_sget_str_or(w, PR_K_ID, "");
    const char *miss = pr_sget_str(w, PR_K_RULE_MISSES);

    /* the rule wrote the parts it checked that miss (recommend.c, its
       what_if row's rule_misses), with their values */
    if (strcmp(id, "launch_bound") == 0) {
        snprintf(buf, cap,
                 "it is under the %.0f%% of the %s at which the path "
                 "alone makes a finding, and the launch rule's evidence "
                 "does not hold: %s",
                 PR_WHATIF_PATH_PCT, win,
                 miss != NULL ? miss : "see Host and device");
        return buf;
    }
    if (miss != NULL) {
        snprintf(buf, cap, "the %s rule's evidence does not hold: %s",
                 strcmp(id, "enable_amp") == 0 ? "AMP" : id, miss);
        return buf;
    }
    if (strcmp(id, "host_sync") == 0) {
        snprintf(buf, cap,
                 "it is under the %.0f%% of the %s at which the path "
                 "alone makes a finding, and blocking syncs idle the device "
                 "less than 2%% of %s",
                 PR_WHATIF_PATH_PCT, win,
                 strcmp(win, "step") == 0 ? "the steps" : "the capture");
        return buf;
    }
    return "the rule that gives this advice needs evidence this trace "
           "does not hold";
}

/* A replayed change that saves more than a finding shown in the verdict
 * but is no finding (review-3: nsys mfu_2gpu_before lists a 1.3% dtype
 * finding while its launches replay to 4.4%, below the 5% a path-driven
 * launch finding needs): the verdict names it after its text, so a
 * larger gain is never hidden behind a smaller one.  The batch-changing
 * replays (twice the batch, accumulation) are per-sample figures, not
 * fixes, and are left out. */
static void
unclaimed_replay(const cJSON *run, const cJSON *cp, char *text, size_t cap)
{
    const cJSON *r, *w, *big = NULL;
    double least = INFINITY;
    int shown = 0;

    cJSON_ArrayForEach(r, pr_sget(run, PR_K_RECOMMENDATIONS))
    {
        /* a finding's share: its gain's, or a replayed bound's (its
           what_if row's) */
        double p = pr_sget_num(r, PR_K_GAIN_PCT);

        if (isnan(p) && pr_sget_str(r, PR_K_WHAT_IF) != NULL)
            p = pr_sget_num(pr_sget_find(pr_sget(cp, PR_K_WHAT_IF), PR_K_ID,
                                         pr_sget_str(r, PR_K_WHAT_IF)),
                            PR_K_GAIN_PCT);
        if (shown++ == VERDICT_FINDINGS)
            break;
        if (p < least)
            least = p;
    }
    if (!isfinite(least))
        return; /* no finding with a gain to compare with */
    cJSON_ArrayForEach(w, pr_sget(cp, PR_K_WHAT_IF))
    {
        const char *id = pr_sget_str_or(w, PR_K_ID, "");
        int claimed = 0;

        if (strcmp(gain_basis_of(id), PR_GAIN_PER_SAMPLES) == 0 ||
            !(pr_sget_num(w, PR_K_GAIN_PCT) > least) ||
            !(pr_sget_num(w, PR_K_GAIN_PCT) >= PR_WHATIF_MIN_PCT))
            continue;
        cJSON_ArrayForEach(r, pr_sget(run, PR_K_RECOMMENDATIONS))
        {
            claimed |= pr_sget_is(pr_sget_str(r, PR_K_WHAT_IF), id) ||
                       pr_sget_is(pr_sget_str(r, PR_K_ID), id);
        }
        if (!claimed && (big == NULL || pr_sget_num(w, PR_K_GAIN_PCT) >
                                            pr_sget_num(big, PR_K_GAIN_PCT)))
            big = w;
    }
    if (big != NULL) {
        const char *ch = pr_sget_str_or(big, PR_K_CHANGE, "?");
        int cut = (int)strcspn(ch, ":");
        char why[600];

        pr_append(
            text, cap, strlen(text),
            " Also replayed, with no finding: %.*s, %.1f%% of the "
            "%s, more than a finding below saves; no finding, as %s "
            "(the Critical path part's What-if table lists every replay).",
            cut > 100 ? 100 : cut, ch, pr_sget_num(big, PR_K_GAIN_PCT),
            pr_sget_run_is_capture(run) ? "capture" : "step",
            unclaimed_why(big, pr_run_window(run), why, sizeof(why)));
    }
}

/* A step's replay that misses more than this share of the measured step
 * explains less of the step than it leaves out: whatever kind leads the
 * path, the unrecorded rest is larger than the whole path, so no bound is
 * named from it (review-2 finding 10: torch_npu old2023 rank1's 16.4 ms
 * path of a 294.6 ms step read "Bound by communication", HTA's
 * inference_rank_1 72.8 ms of 1,046 ms "Bound by the host"). */
/* A host-bound verdict over host time the trace does not explain
 * (hostcov.c's note: HTA's sampled_rank traces, 72% of a step's host time
 * inside no recorded operator, 1% of their events kept) says so: the
 * bound is the host's, but not its Python or its operators. */
static void
unrecorded_host(const cJSON *run, const char *bound, char *text, size_t cap)
{
    const cJSON *h = pr_sget(run, PR_K_HOST_COVERAGE);
    double pct = pr_sget_num(h, PR_K_UNRECORDED_PCT);
    double kept = pr_sget_num(h, PR_K_KEPT_EVENTS_PCT);
    size_t len = strlen(text);

    if (pr_sget_str(h, PR_K_NOTE) == NULL || !pr_sget_is(bound, "host"))
        return;
    len =
        pr_append(text, cap, len,
                  " But %.*f%% of %s host time is inside no recorded "
                  "operator or runtime call",
                  pr_pct_prec(pct), pct,
                  pr_sget_run_is_capture(run) ? "the capture's" : "the steps'");
    if (kept < 90.0)
        len = pr_append(text, cap, len,
                        " and the trace holds %.1f%% of the host events the "
                        "profiler numbered",
                        kept);
    /* the trace's Python frames name it (review 32g #2) */
    if (pr_sget_host_python(run, text, cap, len) > len) {
        len = pr_sget_host_python(run, text, cap, len);
        pr_append(text, cap, len,
                  ": the host was in those Python functions there, "
                  "outside any recorded operator (Data quality), not in "
                  "its operators.");
        return;
    }
    pr_append(text, cap, len,
              ": what the host did there is not in the trace (Data "
              "quality), so this is not a reading of its Python or its "
              "operators.");
}

/* A host-bound verdict over an Nsight Systems export whose host ran
 * PyTorch's emit_nvtx densely (nvtx_dense) says that part of the host
 * time is the instrumentation's (issue #29: a CS336 A100 export, 13,851
 * operator ranges over 1,905 kernels, "Bound by the host"). */
static void
nvtx_host(const cJSON *run, const char *bound, char *text, size_t cap)
{
    const cJSON *h = pr_sget(run, PR_K_HOST_COVERAGE), *d;
    double ops = pr_sget_num(h, PR_K_NVTX_OPS);
    double k = pr_sget_num(h, PR_K_KERNEL_CALLS), busy = 0;
    double win = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
    char w[48], b[48], x[48];
    size_t len;

    if (!pr_sget_is(bound, "host") || !nvtx_dense(run))
        return;
    len = pr_append(
        text, cap, strlen(text),
        " The %s holds %.0f operator ranges from PyTorch's emit_nvtx, "
        "%.1f for each kernel: each is host work of the profiler's "
        "own (an NVTX push and pop, its name formatted) that a run "
        "without emit_nvtx does not do, and the trace does not say "
        "how much of the host time that is",
        pr_sget_run_is_capture(run) ? "capture" : "trace", ops, ops / k);
    /* a capture's break-even (issue #29 review): the cost a range would
       need for the ranges alone to make up the capture's excess over its
       busiest device's work (temporal_breakdown: span less idle) */
    cJSON_ArrayForEach(d, pr_sget(run, PR_K_TEMPORAL_BREAKDOWN))
    {
        double u = pr_sget_num(d, PR_K_SPAN_US) - pr_sget_num(d, PR_K_IDLE_US);

        if (u > busy)
            busy = u;
    }
    if (pr_sget_run_is_capture(run) && win > busy && busy > 0) {
        fmt_us(win, w, sizeof(w));
        fmt_us(busy, b, sizeof(b));
        fmt_us(win - busy, x, sizeof(x));
        len = pr_append(text, cap, len,
                        ": at %.1f \xC2\xB5s of host time a range or more, "
                        "the ranges alone make up the %s by which the "
                        "capture (%s) exceeds its device's work (%s)",
                        (win - busy) / ops, x, w, b);
    }
    pr_append(text, cap, len,
              ". Profile without emit_nvtx before taking this bound as the "
              "model's.");
}

#define VERDICT_MAX_MISS_PCT 50.0

/* Whether the run's first step is a warm-up: over twice the median step,
 * 3 steps or more (critpath.c warmup_step, the late peer's figures).  No
 * bound on the mean: over many steps one warm-up moves it little, and the
 * rule is the same for every rank of a job (hunt30 #2: mindinsight's
 * 10-iteration CANN 6 job, rank0's 47.6 ms first step, median 15.4 ms,
 * mean 19.0 ms under 1.25 times it, stayed in the shares while rank1's
 * 57.5 ms, mean 20.4 ms, was left out). */
static int
warmup_first(const cJSON *run)
{
    const cJSON *ss = pr_sget(run, PR_K_STEP_SUMMARY);
    const cJSON *first = cJSON_GetArrayItem(
        pr_sget(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_STEPS), 0);
    double med = pr_sget_num(ss, PR_K_MEDIAN_US),
           f = pr_sget_num(first, PR_K_MEASURED_US);

    return med > 0 && f > 2.0 * med && pr_sget_num(ss, PR_K_COUNT) >= 3;
}

/* On torch_npu's device basis (step_summary.basis "npu_device") the mean
 * step is torch_npu's device step, while the critical path, its shares
 * and the findings' gains run over the host step, from its host start
 * (torch_npu's Preparing included; issue #30 review #1): appended to mean
 * ("11.5 ms"), the host step's mean says which figure the shares are of. */
static void
npu_device_words(const cJSON *run, char *mean, size_t cap)
{
    double host =
        pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_HOST_MEAN_US);
    size_t l = strlen(mean);
    char h[48];

    if (!pr_run_host_step(run) || l >= cap)
        return;
    fmt_us(host, h, sizeof(h));
    snprintf(mean + l, cap - l,
             " by torch_npu's rule (%s from the host step start, "
             "Preparing included, which the critical path and its gains "
             "use)",
             h);
}

/* A mean step that a warm-up first step inflates names it (review 7 #9:
 * ms_cluster4 rank2's "mean step 576.3 ms" beside its "178.9 ms median
 * step", its first step 2.16 s): appended to mean ("576.3 ms").  shares:
 * the verdict's path shares are the steady steps' (steady_kinds), which
 * the words say. */
static void
warmup_words(const cJSON *run, int shares, char *mean, size_t cap)
{
    const cJSON *ss = pr_sget(run, PR_K_STEP_SUMMARY);
    const cJSON *first = cJSON_GetArrayItem(
        pr_sget(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_STEPS), 0);
    char m[32], w[32];
    size_t len = strlen(mean);

    if (!warmup_first(run))
        return;
    fmt_us(pr_sget_num(ss, PR_K_MEDIAN_US), m, sizeof(m));
    fmt_us(pr_sget_num(first, PR_K_MEASURED_US), w, sizeof(w));
    snprintf(mean + len, cap - len, ", median %s: a %s warm-up first step%s", m,
             w, shares ? ", left out of the path's shares" : "");
}

/* The mean by_kind_us of the path's steps after a warm-up first step
 * (warmup_first), as a new object, or NULL (no warm-up, no other step
 * with a path, out of memory): the run's by_kind_us is the mean over
 * every step, which the warm-up outweighs (review 24 #1: ms_cluster4
 * rank 2's "communication 79%, idle 21%" was step 1's 2.04 s of
 * collective wait; steps 2-5 are 32-33% communication, 67-68% idle). */
static cJSON *
steady_kinds(const cJSON *run)
{
    const cJSON *steps = pr_sget(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_STEPS),
                *s, *k;
    cJSON *out, *v;
    size_t n = 0;

    if (!warmup_first(run) || (out = cJSON_CreateObject()) == NULL)
        return NULL;
    for (s = steps != NULL && steps->child != NULL ? steps->child->next : NULL;
         s != NULL; s = s->next) {
        if (pr_sget_str(s, PR_K_BOUND) == NULL)
            continue; /* no path */
        n++;
        cJSON_ArrayForEach(k, pr_sget(s, PR_K_BY_KIND_US))
        {
            if (!cJSON_IsNumber(k) || k->string == NULL)
                continue;
            v = cJSON_GetObjectItemCaseSensitive(out, k->string);
            if (v == NULL && cJSON_AddNumberToObject(out, k->string,
                                                     k->valuedouble) == NULL) {
                cJSON_Delete(out);
                return NULL;
            } else if (v != NULL)
                cJSON_SetNumberValue(v, v->valuedouble + k->valuedouble);
        }
    }
    if (n == 0) {
        cJSON_Delete(out);
        return NULL;
    }
    cJSON_ArrayForEach(v, out) cJSON_SetNumberValue(v, v->valuedouble / n);
    return out;
}

/* 1 on a kernel-replay capture: data_quality's replayed_kernels, or,
 * before data_quality is written, the attribution's times nulled with its
 * kernels counted (analysis.c replay_attribution). */
static int
kernel_replay(const cJSON *run)
{
    const cJSON *a = pr_sget(run, PR_K_ATTRIBUTION);

    return pr_sget_num(pr_sget(run, PR_K_DATA_QUALITY), PR_K_REPLAYED_KERNELS) >
               0 ||
           (cJSON_IsNull(pr_sget(a, PR_K_KERNEL_TIME_US)) &&
            pr_sget_num(a, PR_K_KERNELS) > 0);
}

/* The row after r (NULL: the first) of the recommendations recs, then of
 * the observations obs; *in_obs set once in obs. */
static const cJSON *
next_row(const cJSON *r, const cJSON *recs, const cJSON *obs, int *in_obs)
{
    if (r != NULL && r->next != NULL)
        return r->next;
    if (r == NULL && cJSON_IsArray(recs) && recs->child != NULL)
        return recs->child;
    if (*in_obs || !cJSON_IsArray(obs))
        return NULL;
    *in_obs = 1;
    return obs->child;
}

/* The verdict's rows (arr): the run's recommendations in their order,
 * then its observations where the run has them apart already, at most
 * VERDICT_FINDINGS, each read from its row alone (its figures, Saves
 * cell and evidence), so that a gain set after the verdict (stages.c's
 * pipeline model) is shown by making the rows again
 * (pr_whatif_verdict_rows).  Returns the rows made. */
static int
put_rows(cJSON *arr, const cJSON *run, int *okp)
{
    const cJSON *r;
    int rank = 0, ok = *okp, has_path = 0;
    int host_only = cJSON_IsTrue(pr_sget(run, PR_K_HOST_ONLY));
    const cJSON *recs = pr_sget(run, PR_K_RECOMMENDATIONS);
    const cJSON *obs = pr_sget(run, PR_K_OBSERVATIONS);
    int in_obs = 0;

    /* a step without a bound has no path (a rank of the step table
       alone, review 20 #4): the Critical path part shows none */
    cJSON_ArrayForEach(r, pr_sget(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_STEPS))
        has_path |= pr_sget_str(r, PR_K_BOUND) != NULL;

    /* the recommendations, then the observations (a run whose gains a
       job's stages set after its observations were made: stages.c) */
    for (r = next_row(NULL, recs, obs, &in_obs); r != NULL;
         r = next_row(r, recs, obs, &in_obs)) {
        struct pr_row_finding o = {0};
        char ev[700], why[320], cell[96], of[48];

        if (!ok || rank == VERDICT_FINDINGS)
            break;
        o.rank = ++rank;
        o.id = pr_sget_str_or(r, PR_K_ID, "");
        o.title = pr_whatif_title(r);
        /* without steps there is no "step" for the costs to be in
           (review 20 #8) */
        if (pr_sget_run_is_capture(run) && pr_sget_is(o.id, "cold_step"))
            o.title = "A cold capture: first-use costs";
        if (pr_sget_is(o.id, "cold_step") &&
            pr_sget(pr_sget_find(
                        pr_sget(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_WHAT_IF),
                        PR_K_ID, "cold_step"),
                    PR_K_RECURRING_CALLS) != NULL)
            o.title = "Allocator churn: memory freed every iteration";
        if (pr_sget_is(o.id, "cold_step") && graph_captures(run) > 0)
            o.title = "Graph capture: a one-time warm-up";
        /* under kernel replay the long runtime calls are the replay's
           stalls, not first use (review31 #5: cupti_range) */
        if (pr_sget_is(o.id, "cold_step") && kernel_replay(run))
            o.title = "Kernel replay: host stalls while CUPTI replays kernels";
        if (pr_sget_is(o.id, "launch_bound"))
            o.title = launch_title(run);
        o.gain_us = pr_sget_num(r, PR_K_GAIN_US);
        o.gain_pct = pr_sget_num(r, PR_K_GAIN_PCT);
        o.gain_basis = pr_sget_str(r, PR_K_GAIN_BASIS);
        o.gain_source = pr_sget_str(r, PR_K_GAIN_SOURCE);
        /* without a gain once every gain is set, the finding is an
           observation (pr_recommend_observe): the reports show it apart
           from the changes they rank (review 15 #2) */
        o.kind = isnan(o.gain_us) ? "observation" : "recommendation";
        saves_cell(&o, run, r, cell, of);
        /* host_sync's evidence is the time the host sat blocked in its
           syncs, beside the path (the device's work is on it meanwhile):
           said so, never read as path time (review-2 finding 12: "on the
           critical path: aten::copy_ 137.9 ms" on a 90 us sync wait) */
        /* a list of evidence keeps the cell's 400 bytes; a model's note
           below gets the whole buffer, so that its qualifier stays
           (review 25a #9: ms_cluster4's pipeline-bubble saving lost "is
           the least the model allows", cut at "so this ...") */
        if (!peer_evidence_text(run, r, ev, EVIDENCE_CELL))
            evidence_text(
                run, pr_sget(r, PR_K_EVIDENCE),
                /* with a bound beside it, each figure is the node's time
                   on the path, not the kernel's total nor the estimate
                   (review22g item 14: "bfloat16_copy 4.1 ms" beside a
                   4.1% share and an 11.1 ms kernel total); where a replay
                   gives the bound, what it took off the path, which can
                   be a part of the node's time there (hta_diff_test: the
                   CUDA-graph wrapper's DtoD copies, 10.3 of the 15.4 ms a
                   step of DtoD copies on the path) */
                pr_sget_is(pr_sget_str(r, PR_K_GAIN_SOURCE), PR_GAIN_MODEL) &&
                        !isnan(pr_sget_num(r, PR_K_GAIN_US)) &&
                        !isnan(pr_sget_num(r, PR_K_BOUND_US))
                    ? (pr_sget_str(r, PR_K_WHAT_IF) != NULL
                           ? "taken off the critical path: "
                           : "time on the critical path: ")
                /* twice the batch changes none of its evidence: it is the
                   per-call work the batch spreads (review26a #3:
                   npu_trace_view's aclop calls, 5.8 ms here beside
                   op_compile's 5.3 ms taken off) */
                : pr_sget_is(pr_sget_str(r, PR_K_GAIN_BASIS),
                             PR_GAIN_PER_SAMPLES)
                    ? "per-call work on the path it spreads: "
                    : NULL,
                pr_sget_is(pr_sget_str(r, PR_K_ID), "host_sync")
                    ? " (the host's time blocked in syncs, beside the "
                      "path)"
                /* a model's gain: its evidence is the work it rests
                   on, the model is its finding's (gain_note; review
                   8 #4) */
                : pr_sget_is(pr_sget_str(r, PR_K_GAIN_SOURCE), PR_GAIN_MODEL) &&
                        !isnan(pr_sget_num(r, PR_K_GAIN_US))
                    /* with a bound beside it, the evidence is the bound's
                       (review 11 #5: "bfloat16_copy 4.0 ms" read as the
                       2.7 ms estimate), whether a replay's take-off
                       (dtype_conversions, device_copies) or the path's
                       parts (low_block_dim) */
                    ? !isnan(pr_sget_num(r, PR_K_BOUND_US))
                          ? " (the bound's evidence; the estimate under "
                            "it is a stated model's: its finding names the "
                            "model)"
                          : " (a stated model's estimate: its finding "
                            "names the model)"
                    : NULL, /* a bound: its Saves cell (saves_cell) */
                ev, EVIDENCE_CELL);
        /* an observation's why no estimate, apart from its evidence
           (review 16 #4: the Not estimated table's "Why" showed the
           evidence) */
        if (isnan(o.gain_us) && pr_sget_str(r, PR_K_GAIN_NOTE) != NULL) {
            const char *gn = pr_sget_str(r, PR_K_GAIN_NOTE);
            const char *semi;
            static const char *const said[] = {
                "no estimate: ", "no change replayed: ", "not claimed: "};
            size_t k, cut;

            /* the column says "Why no estimate": not again; its reason is
               the note's first clause, before the bound it goes on to
               (review 17 #1) */
            for (k = 0; k < sizeof(said) / sizeof(said[0]); k++)
                if (strncmp(gn, said[k], strlen(said[k])) == 0)
                    gn += strlen(said[k]);
            semi = strstr(gn, "; ");
            cut = semi != NULL ? (size_t)(semi - gn) : strlen(gn);
            if (cut >= sizeof(why))
                pr_whatif_clip(gn, why, sizeof(why));
            else {
                memcpy(why, gn, cut);
                why[cut] = '\0';
            }
            if (why[0] >= 'a' && why[0] <= 'z')
                why[0] = (char)(why[0] - 'a' + 'A');
            o.reason = why;
        } else
            pr_rows_omit(PR_RO_RUNS_VERDICT_FINDINGS, &o,
                         PR_SR_RUNS_VERDICT_FINDINGS_PR_K_REASON);
        if (ev[0] == '\0' && o.reason == NULL &&
            pr_sget_str(r, PR_K_GAIN_NOTE) != NULL) {
            /* why no gain, as a sentence ("Not claimed: ..."), cut at a
               word with an ellipsis where it is longer than the cell
               (review 15 #5: "the wait for the next ba") */
            pr_whatif_clip(pr_sget_str(r, PR_K_GAIN_NOTE), ev, sizeof(ev));
            if (ev[0] >= 'a' && ev[0] <= 'z')
                ev[0] = (char)(ev[0] - 'a' + 'A');
        }
        o.evidence = ev;
        /* where the report holds its advice and its path (sec_verdict.c);
           a run with no step's path has no Critical path part to link to
           (review 15 #6) */
        o.href_finding = "#recommendations";
        o.href_evidence =
            host_only || !has_path ? "#recommendations" : "#critical-path";
        if (!pr_rows_write(arr, PR_RO_RUNS_VERDICT_FINDINGS, &o, 1))
            ok = 0;
    }
    *okp = ok;
    return rank;
}

/* After a recommendation's gain changed (stages.c): the run's
 * recommendations ranked again and the verdict's rows made again from
 * them.  PR_E_NOMEM. */
enum pr_status
pr_whatif_verdict_rows(cJSON *run, struct pr_error *err)
{
    cJSON *recs = cJSON_GetObjectItemCaseSensitive(run, PR_K_RECOMMENDATIONS);
    const cJSON *v = pr_sget(run, PR_K_VERDICT);
    struct pr_row_verdict row;
    cJSON *arr;
    int ok = 1;

    if (cJSON_IsArray(recs) && rank(recs, err) != PR_OK)
        return PR_E_NOMEM;
    if (!cJSON_IsObject(v) || !cJSON_IsArray(pr_sget(v, PR_K_FINDINGS)))
        return PR_OK;
    /* the written verdict read back as its row and written whole again
       with the new rows (its strings point into the old object, which
       pr_emit_one's copy outlives) */
    if (pr_rows_read_one(v, PR_K_VERDICT, PR_RO_RUNS_VERDICT, &row, err) !=
        PR_OK)
        return PR_E_FORMAT;
    arr = cJSON_CreateArray();
    if (arr == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (verdict)");
    put_rows(arr, run, &ok);
    row.findings = arr;
    if (ok)
        pr_emit_one(run, PR_K_VERDICT, PR_RO_RUNS_VERDICT, &row, &ok);
    cJSON_Delete(arr);
    return ok ? PR_OK
              : pr_error_set(err, PR_E_NOMEM, "out of memory (verdict)");
}

void
pr_whatif_split_words(const cJSON *kinds, int npu, char *buf, size_t cap)
{
    split_text(kinds, 0, 0, 0, 0, 0, npu, buf, cap);
}

void
pr_whatif_verdict_set(struct pr_verdict *v, const char *text, const char *bound,
                      double bound_steps)
{
    /* text or bound may be v's own (the row's, kept) */
    if (text != v->text)
        snprintf(v->text, sizeof(v->text), "%s", text);
    v->row.text = v->text;
    if (bound != NULL) {
        if (bound != v->bound)
            snprintf(v->bound, sizeof(v->bound), "%s", bound);
        v->row.bound = v->bound;
    } else
        v->row.bound = NULL;
    v->row.bound_steps = bound_steps;
}

void
pr_whatif_verdict_free(struct pr_verdict *v)
{
    if (v == NULL)
        return;
    cJSON_Delete(v->findings);
    free(v);
}

enum pr_status
pr_whatif_verdict_put(cJSON *run, struct pr_verdict *v, struct pr_error *err)
{
    int ok = 1;

    v->row.absent = 0;
    v->row.findings = v->findings;
    if (v->row.no_finding == NULL)
        pr_rows_omit(PR_RO_RUNS_VERDICT, &v->row,
                     PR_SR_RUNS_VERDICT_PR_K_NO_FINDING);
    if (v->row.basis == NULL)
        pr_rows_omit(PR_RO_RUNS_VERDICT, &v->row,
                     PR_SR_RUNS_VERDICT_PR_K_BASIS);
    if (v->row.startup_note == NULL)
        pr_rows_omit(PR_RO_RUNS_VERDICT, &v->row,
                     PR_SR_RUNS_VERDICT_PR_K_STARTUP_NOTE);
    pr_emit_one(run, PR_K_VERDICT, PR_RO_RUNS_VERDICT, &v->row, &ok);
    pr_whatif_verdict_free(v);
    return ok ? PR_OK
              : pr_error_set(err, PR_E_NOMEM, "out of memory (verdict)");
}

/* The first dimension list of a shape text ("[[123], [123], []]"): the
 * product of its sizes, or -1 where it holds none. */
static double
first_shape_elems(const char *shapes)
{
    const char *p = shapes != NULL ? strstr(shapes, "[[") : NULL;
    double e = 1;
    int any = 0;

    if (p == NULL)
        return -1;
    p += 2;
    while (*p != '\0' && *p != ']') {
        char *end;
        double d = strtod(p, &end);

        if (end == p)
            return -1;
        e *= d;
        any = 1;
        p = end;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return any ? e : -1;
}

/* Host calls that take microseconds unless they wait for the device: a
 * scalar read (.item(): aten::_local_scalar_dense) or a copy of at most
 * DEVICE_WAIT_MAX_BYTES per call, each taking DEVICE_WAIT_MIN_US or more
 * per call (review23g item 3: dist_unavail's 123-element aten::copy_ of
 * 4.9 ms, its .item() calls 4.8 ms).  Their names and times into buf, up
 * to three, largest first; their host time in *us; 0 where none. */
#define DEVICE_WAIT_MIN_US 100.0
#define DEVICE_WAIT_MAX_BYTES 65536.0
static size_t
device_waits(const cJSON *run, char *buf, size_t cap, double *us)
{
    const cJSON *o, *top[3] = {NULL, NULL, NULL};
    size_t n = 0, len = 0, i, j;

    *us = 0;
    if (cap > 0)
        buf[0] = '\0';
    cJSON_ArrayForEach(o, pr_sget(run, PR_K_OPERATORS_BY_SHAPE))
    {
        const char *name = pr_sget_str(o, PR_K_NAME);
        double calls = pr_sget_num(o, PR_K_CALLS),
               t = pr_sget_num(o, PR_K_HOST_SELF_US),
               b = pr_sget_num(o, PR_K_BYTES);
        int scalar = pr_sget_is(name, "aten::_local_scalar_dense"),
            copy = pr_sget_is(name, "aten::copy_");

        if (!(scalar || copy) || !(calls > 0) ||
            !(t / calls >= DEVICE_WAIT_MIN_US))
            continue;
        if (copy && !(b > 0 && b / calls <= DEVICE_WAIT_MAX_BYTES))
            continue;
        *us += t;
        n++;
        for (i = 0; i < 3; i++)
            if (top[i] == NULL || t > pr_sget_num(top[i], PR_K_HOST_SELF_US)) {
                for (j = 2; j > i; j--)
                    top[j] = top[j - 1];
                top[i] = o;
                break;
            }
    }
    for (i = 0; i < 3 && top[i] != NULL && len < cap; i++) {
        const char *name = pr_sget_str(top[i], PR_K_NAME);
        double calls = pr_sget_num(top[i], PR_K_CALLS),
               e = first_shape_elems(pr_sget_str(top[i], PR_K_INPUT_SHAPES));
        char t[64], what[120];

        fmt_us(pr_sget_num(top[i], PR_K_HOST_SELF_US), t, sizeof(t));
        if (pr_sget_is(name, "aten::copy_") && e >= 0)
            snprintf(what, sizeof(what), "aten::copy_ of %.0f element%s", e,
                     e == 1 ? "" : "s");
        else if (pr_sget_is(name, "aten::copy_"))
            snprintf(what, sizeof(what), "aten::copy_ of %.0f bytes",
                     pr_sget_num(top[i], PR_K_BYTES) / calls);
        else
            snprintf(what, sizeof(what), "aten::_local_scalar_dense (.item())");
        if (calls > 1)
            len +=
                (size_t)snprintf(buf + len, cap - len, "%s%s %s in %.0f calls",
                                 i ? ", " : "", what, t, calls);
        else
            len += (size_t)snprintf(buf + len, cap - len, "%s%s %s",
                                    i ? ", " : "", what, t);
    }
    return n;
}

/* The verdict of a host-only run whose device side was not recorded
 * (pr_sget_run_device_unrecorded): what names the device, that no bound is
 * named, and the host calls that waited on the unseen device. */
static void
device_unrecorded_words(const cJSON *run, int capture, size_t n,
                        const char *mean, char *text, size_t cap)
{
    int nccl = pr_sget_run_device_unrecorded(run) == 2;
    char named[160], coll[200] = "", waits[600], wt[64], what[400];
    const cJSON *o;
    double wus, calls = 0;
    size_t nw, kinds = 0, len;

    if (!unused_devices(run, named, sizeof(named)))
        named[0] = '\0';
    cJSON_ArrayForEach(o, pr_sget(pr_sget(run, PR_K_COMMUNICATION), PR_K_OPS))
    {
        if (!pr_sget_is(pr_sget_str(o, PR_K_BACKEND), "nccl"))
            continue;
        calls += pr_sget_num(o, PR_K_CALLS);
        if (kinds++ == 0)
            snprintf(coll, sizeof(coll), "%.120s",
                     pr_sget_str(o, PR_K_NAME) ? pr_sget_str(o, PR_K_NAME)
                                               : "nccl");
    }
    if (kinds > 1) {
        len = strlen(coll);
        snprintf(coll + len, sizeof(coll) - len, " and %zu other kind%s",
                 kinds - 1, kinds == 2 ? "" : "s");
    }
    if (named[0] && nccl)
        snprintf(what, sizeof(what),
                 "the trace names %s and holds %.0f NCCL collective "
                 "call%s (%s), which run as GPU kernels, but records no "
                 "device activity (no kernel, copy or runtime call; CUDA "
                 "activity not recorded: off in the profiler, or removed "
                 "from the file)",
                 named, calls, calls == 1 ? "" : "s", coll);
    else if (nccl)
        snprintf(what, sizeof(what),
                 "the trace holds %.0f NCCL collective call%s (%s), which "
                 "run as GPU kernels, but records no device activity (no "
                 "kernel, copy or runtime call; CUDA activity not recorded: "
                 "off in the profiler, or removed from the file)",
                 calls, calls == 1 ? "" : "s", coll);
    else
        snprintf(what, sizeof(what),
                 "the trace names %s but records no device activity (no "
                 "kernel, copy or runtime call; CUDA activity not recorded: "
                 "off in the profiler, removed from the file, or a process "
                 "that launched none)",
                 named);
    if (capture)
        len = (size_t)snprintf(
            text, cap,
            "The device side was not recorded (no steps; the capture, %s): "
            "%s, so what bounds the capture is not known: the host's time "
            "may hold waits on device work the trace does not show.",
            mean, what);
    else
        len = (size_t)snprintf(
            text, cap,
            "The device side was not recorded (%zu step%s, mean step %s): "
            "%s, so what bounds the step is not known: the host's time may "
            "hold waits on device work the trace does not show.",
            n, n == 1 ? "" : "s", mean, what);
    nw = device_waits(run, waits, sizeof(waits), &wus);
    if (nw > 0 && len < cap) {
        double m = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);

        fmt_us(wus, wt, sizeof(wt));
        if (m > 0 && !capture)
            snprintf(text + len, cap - len,
                     " Host calls that take microseconds unless they wait "
                     "for the GPU took %s here (%.0f%% of the mean step): "
                     "%s.",
                     wt, 100.0 * wus / m, waits);
        else
            snprintf(text + len, cap - len,
                     " Host calls that take microseconds unless they wait "
                     "for the GPU took %s here: %s.",
                     wt, waits);
    }
}

/* The share (0-100) of its steps' time the device is busy (kernels,
 * copies, fills, collectives: the steps' breakdown), over the steps with
 * a breakdown, and in *copy the part of it that is copies and fills; NaN
 * without one. */
static double
device_busy_pct(const cJSON *run, double *copy)
{
    static const char *const dev[] = {PR_K_KERNEL, PR_K_COMMUNICATION,
                                      PR_K_MEMCPY, PR_K_MEMSET};
    const cJSON *s;
    double busy = 0, moved = 0, total = 0;
    size_t i;

    cJSON_ArrayForEach(s, pr_sget(run, PR_K_STEPS))
    {
        const cJSON *b = pr_sget(s, PR_K_BREAKDOWN_US);
        double d = pr_sget_num(s, PR_K_DURATION_US), x = 0, v;

        if (!cJSON_IsObject(b) || !(d > 0))
            continue;
        for (i = 0; i < sizeof(dev) / sizeof(dev[0]); i++) {
            v = pr_sget_num(b, dev[i]) > 0 ? pr_sget_num(b, dev[i]) : 0;
            x += v;
            if (i >= 2)
                moved += v;
        }
        busy += x;
        total += d;
    }
    *copy = total > 0 ? 100.0 * moved / total : NAN;
    return total > 0 ? 100.0 * busy / total : NAN;
}

/* Where the path is mostly the host's but the device bounds the step
 * (critpath.c's device_busy_bound: the device busy nearly all of it),
 * a sentence that says why the host's share is not the bound, in buf;
 * "" otherwise (review 28h #1). */
static const char *
busy_words(const cJSON *run, const char *vb, int capture, char *buf, size_t cap)
{
    static const char *const host[] = {PR_K_HOST_OP, PR_K_DATALOADER,
                                       PR_K_LAUNCH, PR_K_SYNC_WAIT,
                                       PR_K_OP_COMPILE};
    const cJSON *k = pr_sget(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_BY_KIND_US);
    const cJSON *c;
    double h = 0, total = 0, copy, busy = device_busy_pct(run, &copy);
    char what[96];
    size_t i;

    buf[0] = '\0';
    if (vb == NULL || strcmp(vb, "host") == 0 || !(busy >= 90.0))
        return buf;
    cJSON_ArrayForEach(c, k) total += c->valuedouble > 0 ? c->valuedouble : 0;
    for (i = 0; i < sizeof(host) / sizeof(host[0]); i++)
        h += pr_sget_num(k, host[i]) > 0 ? pr_sget_num(k, host[i]) : 0;
    if (!(total > 0) || h <= 0.5 * total)
        return buf;
    /* copies and fills are device time too, but not compute: name their
       part where it shows at one decimal, so the figure is not read as
       the compute utilization beside it (review 29 #7: mtia_inf, busy
       91.9% of which DMA copies 1.7, utilization 90.2%) */
    if (copy >= 0.05)
        snprintf(what, sizeof(what),
                 "busy %.1f%% of the %s (of which copies and "
                 "fills %.1f points)",
                 busy, capture ? "capture" : "steps", copy);
    else
        snprintf(what, sizeof(what), "busy %.1f%% of the %s", busy,
                 capture ? "capture" : "steps");
    snprintf(buf, cap,
             " The device is %s, so the host's parts "
             "of the path (%.0f%%) run while the device works and are not "
             "what holds it back: a faster host would save at most the "
             "device's idle %.1f%%.",
             what, 100.0 * h / total, 100.0 - busy);
    return buf;
}

/* 1 when runtime call `name` is CUDA's or HIP's set-up, not a launch:
 * allocation, context, stream, event and module creation (CUDA context
 * creation lands in the first cudaMalloc or cudaFree). */
static int
setup_call(const char *name)
{
    static const char *const words[] = {
        "Malloc",       "Free",
        "Create",       "Destroy",
        "HostRegister", "HostAlloc",
        "ModuleLoad",   "SetDevice",
        "DeviceReset",  "GetStreamPriorityRange",
        "GetDevice",    "Attribute"};
    size_t i;

    if (strncmp(name, "cu", 2) != 0 && strncmp(name, "hip", 3) != 0)
        return 0; /* cuda*, cu* (driver), hip* */
    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        if (strstr(name, words[i]) != NULL)
            return 1;
    }
    return 0;
}

/* 1 when over half of the launch kind's time among the path's top items
 * is in set-up calls (setup_call), not launches: the verdict names the
 * kind "runtime calls" (review 28h #9: nsys CloverLeaf's "launches 41%"
 * was one 234 ms cudaMalloc, context creation, before the first
 * kernel). */
static int
setup_leads(const cJSON *cp)
{
    const cJSON *st, *it;
    double setup = 0, all = 0;

    cJSON_ArrayForEach(st, pr_sget(cp, PR_K_STEPS))
    {
        cJSON_ArrayForEach(it, pr_sget(st, PR_K_TOP))
        {
            const char *nm = pr_sget_str(it, PR_K_NAME);
            double us = pr_sget_num(it, PR_K_US);

            if (!pr_sget_is(pr_sget_str(it, PR_K_KIND), PR_K_LAUNCH) ||
                nm == NULL || !(us > 0))
                continue;
            all += us;
            setup += setup_call(nm) ? us : 0;
        }
    }
    return all > 0 && setup > 0.5 * all;
}

/* The verdict's shares of the path (split_text): of the steady steps
 * where steady (steady_kinds) is not NULL, else the mean of every step;
 * unrec: the idle is compute the export holds no tasks for. */
static void
verdict_split(const cJSON *run, const cJSON *steady, double cold, int unrec,
              char *split, size_t cap)
{
    const cJSON *cp = pr_sget(run, PR_K_CRITICAL_PATH);

    split_text(steady != NULL ? steady : pr_sget(cp, PR_K_BY_KIND_US),
               pr_path_part_us(cp, PR_K_LAUNCH, LAUNCH_DELAY_NAME),
               !isnan(cold) || setup_leads(cp),
               pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "mindspore"),
               pr_sget_num(pr_sget(run, PR_K_OP_COMPILE), PR_K_TOTAL_US) > 0,
               unrec, pr_run_on_npu(run), split, cap);
}

/* MindSpore's step trace where the export holds none of the device's
 * compute tasks (step_trace.compute_tasks false): the median FP+BP, in
 * us, into *fpbp and the tail into *tail; 0 when the trace does not time
 * them (review 28h #7: the legacy profiler's step_trace_raw + hccl_raw
 * read "idle 86% ... no cause" beside FP+BP 28.1 ms of each 33.6 ms
 * step). */
static int
step_trace_compute(const cJSON *run, double *fpbp, double *tail)
{
    const cJSON *st = pr_sget(run, PR_K_STEP_TRACE);
    const cJSON *m = pr_sget(st, PR_K_MEDIAN);

    if (!cJSON_IsFalse(pr_sget(st, PR_K_COMPUTE_TASKS)))
        return 0;
    *fpbp = pr_sget_num(m, PR_K_FP_AND_BP_US);
    *tail = pr_sget_num(m, PR_K_TAIL_US);
    return *fpbp > 0;
}

/* 1 when the run holds fewer than VERDICT_SPARSE_TASKS kernel calls
 * (*tasks) and its mean device step is under half its steps' mean host
 * interval (*host_mean, us): too few tasks to say what bounds a step. */
static int
sparse_tasks(const cJSON *run, double *tasks, double *host_mean)
{
    const cJSON *k, *s;
    double host = 0, n = 0,
           mean = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);

    *tasks = 0;
    cJSON_ArrayForEach(k, pr_sget(run, PR_K_KERNELS))
    {
        double c = pr_sget_num(k, PR_K_CALLS);

        *tasks += c > 0 ? c : 0;
    }
    if (!(*tasks > 0 && *tasks < VERDICT_SPARSE_TASKS))
        return 0;
    cJSON_ArrayForEach(s, pr_sget(run, PR_K_STEPS))
    {
        double h = pr_sget_num(s, PR_K_HOST_DURATION_US);

        if (h > 0) {
            host += h;
            n++;
        }
    }
    *host_mean = n > 0 ? host / n : NAN;
    return n > 0 && mean >= 0 && mean < 0.5 * *host_mean;
}

struct pr_verdict *
pr_whatif_verdict(const cJSON *run, const char *underused, int unlinked_wait,
                  struct pr_error *err)
{
    const cJSON *cp = pr_sget(run, PR_K_CRITICAL_PATH);
    const cJSON *steps = pr_sget(cp, PR_K_STEPS), *s;
    const char *bound = pr_sget_str(cp, PR_K_BOUND);
    int host_only = cJSON_IsTrue(pr_sget(run, PR_K_HOST_ONLY));
    struct pr_verdict *v = calloc(1, sizeof(*v));
    const char *vb = NULL; /* the verdict's bound */
    double vsteps = 0;     /* and its bound_steps */
    size_t n = 0, same = 0, n_idle = 0, n_miss = 0;
    int ok = v != NULL, rank = 0, stage = 0,
        capture = pr_sget_run_is_capture(run);
    double idle, miss = 0, cold, fpbp = NAN, tail = NAN, tasks = 0,
                 host_mean = NAN, ums = 0;
    size_t uk = 0, un = 0;
    char idle_steps[120];
    const cJSON *churn;
    char text[2000], split[240], mean[320], pipe[600], coldtxt[300],
        busytxt[300], idletxt[32];
    cJSON *steady;

    cJSON_ArrayForEach(s, steps)
    {
        const char *b = pr_sget_str(s, PR_K_BOUND);

        if (b == NULL)
            continue; /* no path: the trace records nothing in it */
        n++;
        same += bound != NULL && strcmp(b, bound) == 0;
        n_idle += !isnan(idle_dominant_pct(pr_sget(s, PR_K_BY_KIND_US)));
        if (pr_sget_num(s, PR_K_LENGTH_US) <
            (1.0 - VERDICT_MAX_MISS_PCT / 100.0) *
                pr_sget_num(s, PR_K_MEASURED_US)) {
            n_miss++;
            miss += 100.0 * (1.0 - pr_sget_num(s, PR_K_LENGTH_US) /
                                       pr_sget_num(s, PR_K_MEASURED_US));
        }
    }
    churn = pr_sget_find(pr_sget(cp, PR_K_WHAT_IF), PR_K_ID, "cold_step");
    cold = pr_sget_num(churn, PR_K_GAIN_PCT);
    cold = cold >= VERDICT_COLD_PCT ? cold : NAN;
    /* allocator churn recurs: no cold start (cold_words says which) */
    if (pr_sget(churn, PR_K_RECURRING_CALLS) == NULL)
        churn = NULL;
    /* a graph capture says so itself (below), not as a cold start */
    if (graph_captures(run) > 0) {
        cold = NAN;
        churn = NULL;
    }
    /* after a warm-up first step, the shares of the steps after it */
    steady = steady_kinds(run);
    verdict_split(run, steady, cold, 0, split, sizeof(split));
    fmt_us(pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US), mean,
           sizeof(mean));
    /* the device-unrecorded verdict quotes no shares */
    warmup_words(run,
                 steady != NULL && !(host_only && bound != NULL && n > 0 &&
                                     pr_sget_run_device_unrecorded(run)),
                 mean, sizeof(mean));
    npu_device_words(run, mean, sizeof(mean));
    if (host_only && bound != NULL && n > 0 &&
        pr_sget_run_device_unrecorded(run)) {
        /* the trace names its GPUs or holds NCCL collectives but records
           none of their work: not a CPU-only run, and the host's time
           holds waits on a device the trace does not show, so no bound is
           named (review22g item 9, review23g item 3) */
        vb = "unexplained";
        vsteps = (double)n;
        device_unrecorded_words(run, capture, n, mean, text, sizeof(text));
    } else if (host_only && bound != NULL && n > 0) {
        /* no device to weigh the host against: the path is the host's */
        vb = bound;
        vsteps = (double)same;
        if (capture)
            snprintf(text, sizeof(text),
                     "A CPU-only run (no steps; the capture, %s): the trace "
                     "records no device work, so its time is the host's. "
                     "Bound by %s over the capture (on the host's path: "
                     "%s).",
                     mean, bound_words(bound), split[0] ? split : "nothing");
        else
            snprintf(text, sizeof(text),
                     "A CPU-only run (%zu step%s, mean step %s): the trace "
                     "records no device work, so its steps are the host's. "
                     "Bound by %s in %zu of %zu step%s (on the host's path: "
                     "%s).",
                     n, n == 1 ? "" : "s", mean, bound_words(bound), same, n,
                     n == 1 ? "" : "s", split[0] ? split : "nothing");
    } else if (bound != NULL && n > 0 && n_miss == n) {
        /* every path leaves most of its step out: what the path holds is
           not what the step spent its time on */
        /* under 1%: a tenth (inference_rank_1's path, 1.6 ms of its
           1.05 s capture, is not "0%") */
        double cover = 100.0 - miss / (double)n_miss;

        vb = "unexplained";
        vsteps = (double)n_miss;
        if (capture)
            snprintf(text, sizeof(text),
                     "What bounds the capture is not known: the trace's "
                     "critical path covers only %.*f%% of it (no steps; the "
                     "capture, %s, %.*f%% of it unrecorded; on the path: %s). "
                     "The rest is time the trace records nothing for (a "
                     "profiler window wider than its events, or work the "
                     "profiler did not capture), so no resource is named as "
                     "the bound.",
                     cover < 1 ? 1 : 0, cover, mean, cover < 1 ? 1 : 0,
                     miss / (double)n_miss, split[0] ? split : "nothing");
        else
            snprintf(text, sizeof(text),
                     "What bounds the step is not known: the trace's critical "
                     "path covers only %.*f%% of the measured step (mean step "
                     "%s; %zu of %zu step%s %.0f%% unrecorded; on the path: "
                     "%s). The rest is time the trace records nothing for (a "
                     "step marker wider than its events, or work the profiler "
                     "did not capture), so no resource is named as the bound.",
                     cover < 1 ? 1 : 0, cover, mean, n_miss, n,
                     n == 1 ? "" : "s", miss / (double)n_miss,
                     split[0] ? split : "nothing");
    } else if (bound != NULL && n > 0 &&
               !isnan(idle_dominant_pct(pr_sget(cp, PR_K_BY_KIND_US))) &&
               step_trace_compute(run, &fpbp, &tail)) {
        /* the path's idle is the forward and backward pass the step
           trace times and the export holds no task of: the device
           computed, it did not wait (review 28h #7) */
        double m = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
        char a[48], b[48];

        vb = "device";
        vsteps = (double)n;
        fmt_us(fpbp, a, sizeof(a));
        fmt_us(tail, b, sizeof(b));
        snprintf(text, sizeof(text),
                 "Bound by the device's forward and backward pass, by "
                 "MindSpore's step trace: FP+BP takes %s of the %s mean step "
                 "(%.0f%%, median of %zu step%s), the tail after it %s. The "
                 "export holds none of the compute tasks (only communication "
                 "tasks), so which operators take that time is not known, "
                 "and the critical path, built from its tasks, does not "
                 "show it.",
                 a, mean, m > 0 ? 100.0 * fpbp / m : 0.0, n, n == 1 ? "" : "s",
                 isfinite(tail) ? b : "not timed");
    } else if (bound != NULL && n > 0 &&
               !isnan(idle = idle_dominant_pct(pr_sget(cp, PR_K_BY_KIND_US)))) {
        /* the device mostly waits and the trace says for nothing: no
           resource to name */
        (void)sparse_tasks(run, &tasks, &host_mean);
        vb = "idle";
        vsteps = (double)n_idle;
        snprintf(idle_steps, sizeof(idle_steps),
                 "; idle is the largest part in %zu of %zu step%s", n_idle, n,
                 n == 1 ? "" : "s");
        if (tasks > 0 && tasks < VERDICT_SPARSE_TASKS)
            /* review 12 #6: MindSpore fixtures' GPU timeline holds two
               tasks 4.47 s apart; that is a sparse capture, not a step
               whose device waited */
            /* what the trace records is those tasks' time; for the
               idle it records neither a task nor a wait (issue #28 #3:
               not "no cause": the capture's sparseness is one) */
            snprintf(text, sizeof(text),
                     "The capture holds only %.0f device task%s in %s, so "
                     "it shows no %s work: the path holds %s of device "
                     "work%s and is %s idle, time for which the trace "
                     "records neither a task nor a wait, so whether the "
                     "device idled or its work went unrecorded is not known "
                     "(on the path: %s). Too few tasks to name what bounds "
                     "%s.",
                     tasks, tasks == 1 ? "" : "s", mean,
                     capture ? "training loop's" : "step's",
                     device_work(cp, busytxt, sizeof(busytxt)),
                     capture ? "" : " a step",
                     pct_words(idle, idletxt, sizeof(idletxt)),
                     split[0] ? split : "nothing",
                     capture ? "the capture" : "a step");
        else if (unlinked_wait)
            /* the launch-wait note names a stream-wait call no device
               record ties to a stream (ROCm's hipStreamWaitEvent): not
               "no cause" */
            snprintf(
                text, sizeof(text),
                "The device is idle %.0f%% of the critical path (%s%s; on "
                "the path: %s), and the trace links the longest wait to no "
                "stream: its launch follows a stream-wait call that no "
                "device record ties to a stream (a ROCm trace records "
                "none), so most likely it waited for work on another "
                "stream, which the trace does not say. No resource is named "
                "as the bound.",
                idle, capture ? "no steps; over the capture, " : "mean step ",
                mean, split[0] ? split : "nothing");
        else if (unlinked_part(cp, &uk, &un, &ums))
            /* part of the idle follows an unlinked stream-wait call, the
               rest has no recorded cause: say which is which (issue #28
               #3) */
            snprintf(
                text, sizeof(text),
                "The device is idle %.0f%% of the critical path (%s%s%s; on "
                "the path: %s). The trace records a likely cause for part of "
                "it: %zu of the %zu tasks that started after an idle gap on "
                "the path "
                "(%.2f ms%s) %s launched just after a stream-wait call that "
                "no device record links to a stream (a ROCm trace records "
                "none), so most likely %s waited for work on another stream, "
                "which the trace does not say; for the other %zu it records "
                "no stream wait or event, so what kept the device waiting "
                "then (host work, a dependency or a peer) is not in the "
                "trace. No resource is named as the bound.",
                idle, capture ? "no steps; over the capture, " : "mean step ",
                mean, capture ? "" : idle_steps, split[0] ? split : "nothing",
                uk, un, ums, capture ? " in all" : " a step",
                uk == 1 ? "was" : "were", uk == 1 ? "it" : "they", un - uk);
        else if (capture)
            snprintf(text, sizeof(text),
                     "The device is idle %.0f%% of the critical path and the "
                     "trace records no cause (no steps; over the capture, "
                     "%s; on the path: %s). What kept it waiting (host work, "
                     "a dependency or a peer) is not in the trace, so no "
                     "resource is named as the bound.",
                     idle, mean, split[0] ? split : "nothing");
        else
            snprintf(
                text, sizeof(text),
                "The device is idle %.0f%% of the critical path and the "
                "trace records no cause (mean step %s; idle is the largest "
                "part in %zu of %zu step%s; on the path: %s). What kept it "
                "waiting (host work, a dependency or a peer) is not in the "
                "trace, so no resource is named as the bound.",
                idle, mean, n_idle, n, n == 1 ? "" : "s",
                split[0] ? split : "nothing");
    } else if (bound != NULL && n > 0 &&
               sparse_tasks(run, &tasks, &host_mean)) {
        /* a sparse capture whatever the path's bound: a few tasks whose
           device step is a sliver of its host step (review 30g #2: HTA's
           trace_compare test fragment read "Bound by device compute ...
           mean step 4 us" for a 100 ms ProfilerStep) */
        char hm[48];

        fmt_us(host_mean, hm, sizeof(hm));
        vb = "unexplained";
        vsteps = (double)n;
        snprintf(text, sizeof(text),
                 "The capture holds only %.0f device task%s, and its steps' "
                 "device work (mean step %s) fills under half of their host "
                 "interval (mean %s), so it shows no step's work (on the "
                 "path: %s). Too few tasks to name what bounds a step.",
                 tasks, tasks == 1 ? "" : "s", mean, hm,
                 split[0] ? split : "nothing");
    } else if (bound != NULL && n > 0 &&
               (stage = pr_producer_pipeline_note(run, pipe, sizeof(pipe)))) {
        /* a pipeline stage's own table says what the path cannot
           (MindSpore's cluster export holds only HCCL tasks), so it leads:
           the faster stage's communication is a bubble, waiting in Receive
           for the slower one; the slower stage computes for most of its
           step (device compute, whatever its export's path shows) */
        vb = stage == PR_PIPE_SLOW_STAGE ? "device" : bound;
        vsteps = (double)(stage == PR_PIPE_SLOW_STAGE ? n : same);
        /* the slower stage's idle on the path is the compute its table
           measures (step_bound, critpath.c) */
        if (stage == PR_PIPE_SLOW_STAGE)
            verdict_split(run, steady, cold, 1, split, sizeof(split));
        snprintf(text, sizeof(text),
                 "%s The critical path holds only the tasks the export "
                 "records (mean step %s; on it: %s).",
                 pipe + (pipe[0] == ' '), mean, split[0] ? split : "nothing");
    } else if (bound != NULL && n > 0) {
        vb = bound;
        vsteps = (double)same;
        /* steps whose tasks the export leaves out have no path (review
           15 #10: ms_run1 "in 14 of 14 steps" beside its 321) */
        double all = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_COUNT);
        char of[64] = "";
        int part = all > (double)n;

        if (part)
            snprintf(of, sizeof(of), "%.0f steps in all; ", all);
        if (capture)
            snprintf(text, sizeof(text),
                     "Bound by %s%s over the capture (%s, no steps; on "
                     "the critical path: %s).%s%s",
                     bound_words(bound),
                     compile_leads(bound, pr_sget(cp, PR_K_BY_KIND_US))
                         ? " (operator compilation)"
                         : "",
                     mean, split[0] ? split : "nothing",
                     busy_words(run, bound, 1, busytxt, sizeof(busytxt)),
                     cold_words(cold, churn, 1, coldtxt, sizeof(coldtxt)));
        else
            snprintf(
                text, sizeof(text),
                "Bound by %s%s in %zu of %s%zu step%s%s (%smean step %s; on "
                "the critical path: %s).%s%s",
                bound_words(bound),
                compile_leads(bound, pr_sget(cp, PR_K_BY_KIND_US))
                    ? " (operator compilation)"
                    : "",
                same, part ? "the " : "", n, n == 1 ? "" : "s",
                part ? " whose tasks the trace holds" : "", of, mean,
                split[0] ? split : "nothing",
                busy_words(run, bound, 0, busytxt, sizeof(busytxt)),
                cold_words(cold, churn, 0, coldtxt, sizeof(coldtxt)));
    } else if (pr_sget_is(pr_sget_str(cp, PR_K_NO_PATH_REASON),
                          "kernel_replay")) {
        snprintf(text, sizeof(text),
                 "What bounds the step is not known: the kernels were "
                 "measured by CUPTI's range profiler (kernel replay), whose "
                 "ranges carry counters but no timing, and replaying each "
                 "kernel stalls the host's launches, so no critical path or "
                 "what-if is computed. Read the counters here; profile "
                 "without the range profiler for times.");
    } else
        snprintf(text, sizeof(text),
                 "What bounds the step is not known: the trace has no step "
                 "with a critical path.");
    cJSON_Delete(steady);
    if (graph_captures(run) > 0 && bound != NULL && n > 0) {
        /* hunt30 #6: recording CUDA/HIP graphs is no steady iteration */
        size_t l = strlen(text);

        snprintf(text + l, sizeof(text) - l,
                 " A graph capture (%.0f stream capture%s, then graph "
                 "instantiation): a one-time warm-up, not a steady "
                 "iteration, so no batch or sync advice.",
                 graph_captures(run), graph_captures(run) == 1 ? "" : "s");
    }
    unclaimed_replay(run, cp, text, sizeof(text));
    peer_words(run, cp, vb, text, sizeof(text));
    unrecorded_host(run, vb, text, sizeof(text));
    nvtx_host(run, vb, text, sizeof(text));
    if (v != NULL) {
        pr_whatif_verdict_set(v, text, vb, vsteps);
        v->row.steps = (double)n;
        v->findings = cJSON_CreateArray();
        ok = ok && v->findings != NULL;
    }
    rank = ok ? put_rows(v->findings, run, &ok) : 0;
    if (rank == 0) {
        /* "No finding" must not stand beside a replay that saves 1% or
           more (review finding 1): say which, and that no rule's advice
           is that change here */
        const cJSON *w, *big = NULL;

        cJSON_ArrayForEach(w, pr_sget(cp, PR_K_WHAT_IF))
        {
            if (pr_sget_num(w, PR_K_GAIN_PCT) >= PR_WHATIF_MIN_PCT &&
                (big == NULL || pr_sget_num(w, PR_K_GAIN_PCT) >
                                    pr_sget_num(big, PR_K_GAIN_PCT)))
                big = w;
        }
        if (big == NULL && n == 0) /* no path: nothing was replayed
                                          (third review, finding 7) */
            snprintf(text, sizeof(text),
                     "No finding: no rule's advice fits what this trace "
                     "shows, and without a critical path no change could "
                     "be replayed.");
        else if (big == NULL && pr_sget_run_device_unrecorded(run))
            /* the path is the host's only: it cannot say what a change
               would save (review24 #2) */
            snprintf(text, sizeof(text),
                     "No finding: the device side is not in the trace, so "
                     "no change's effect on the %s can be replayed.",
                     capture ? "capture" : "step");
        else if (big == NULL)
            snprintf(text, sizeof(text),
                     "No finding: no rule's change shortens the critical "
                     "path by 1%% of the %s or more.",
                     capture ? "capture" : "step");
        else {
            /* the change in words: its text up to the first colon */
            const char *ch = pr_sget_str_or(big, PR_K_CHANGE, "?");
            int cut = (int)strcspn(ch, ":");

            int batch = strcmp(gain_basis_of(pr_sget_str(big, PR_K_ID)),
                               PR_GAIN_PER_SAMPLES) == 0;

            snprintf(text, sizeof(text),
                     "No finding: no rule's advice fits what this trace "
                     "shows, though the replays predict gains (the largest: "
                     "%.*s, %.1f%% of the %s%s; the Critical path "
                     "part's What-if table lists them). A replayed change is "
                     "a prediction, not "
                     "advice: no rule finds it the fix here%s%s%s",
                     cut > 100 ? 100 : cut, ch, pr_sget_num(big, PR_K_GAIN_PCT),
                     capture ? "capture" : "step",
                     !batch    ? ""
                     : capture ? " per capture's worth of samples"
                               : " per step's worth of samples",
                     batch && underused != NULL ? " (Data quality's row \""
                                                : ".",
                     batch && underused != NULL ? underused : "",
                     batch && underused != NULL
                         ? "\" says why a larger batch is not advised)."
                         : "");
        }
        if (ok) {
            snprintf(v->no_finding, sizeof(v->no_finding), "%s", text);
            v->row.no_finding = v->no_finding;
        }
    }
    if (!ok) {
        pr_whatif_verdict_free(v);
        pr_error_set(err, PR_E_NOMEM, "out of memory (verdict)");
        return NULL;
    }
    return v;
}
