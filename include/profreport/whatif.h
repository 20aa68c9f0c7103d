/* whatif.h - what a fix would save (issue #31): a step's graph
 * (critpath.h) replayed with a change applied, against the unchanged
 * replay (Daydream's method).  critpath.c runs the scenarios on each step
 * its replay reproduces and writes runs[].critical_path.what_if;
 * pr_whatif_recommend puts the gains onto the recommendations they back.
 * The scenarios that change named operators or kernels (memory-bound
 * ops, misaligned dims, low occupancy) take them from the rules that
 * named them (struct pr_whatif_in, filled by recommend.c). */
#ifndef PROFREPORT_WHATIF_H
#define PROFREPORT_WHATIF_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/critpath.h"
#include "profreport/error.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/trace.h"

/* The changes replayed; values index pr_whatif_acc's arrays.  Each backs
 * the recommendation of the same id (pr_whatif_id), except TF32, which
 * only the what-if list shows. */
enum pr_whatif {
    PR_WHATIF_LAUNCH = 0, /* launch_bound: CUDA graphs, launch cost gone */
    PR_WHATIF_DATALOADER, /* dataloader: its wait on the host gone */
    PR_WHATIF_SYNC,       /* host_sync: blocking synchronisation removed */
    PR_WHATIF_COPIES,     /* pageable_copies: pinned, non_blocking copies */
    PR_WHATIF_COMM,       /* communication: overlapped with compute */
    PR_WHATIF_AMP,        /* enable_amp: eligible fp32 GEMM/conv in fp16 on
                             tensor cores */
    PR_WHATIF_TF32,       /* tf32: the same kernels in TF32 */
    PR_WHATIF_BATCH,      /* low_gpu_utilization: twice the batch */
    PR_WHATIF_MEMBOUND,   /* memory_bound_ops: the ops at the memory roof */
    PR_WHATIF_ALIGN,      /* misaligned_dims: the ops on tensor cores */
    PR_WHATIF_OCCUPANCY,  /* low_occupancy: the kernels filling the GPU */
    PR_WHATIF_COLD,       /* cold_step: first-use costs of runtime calls
                             gone (the steady state's step) */
    PR_WHATIF_COPYBOUND,  /* copy_bound: host copies prefetched off the
                             step's path */
    PR_WHATIF_ACCUM,      /* communication: gradient accumulation over two
                             micro-batches (the collectives once) */
    PR_WHATIF_CASTS,      /* dtype_conversions: the casting kernels gone */
    PR_WHATIF_COMPILE,    /* op_compile: CANN's online operator compilation
                             gone (compiled operators cached) */
    PR_WHATIF_BLOCKDIM,   /* low_block_dim: the named Ascend operators'
                             tasks spread over every core */
    PR_WHATIF_DTOD,       /* device_copies: a CUDA-graphed compiled
                             function's input copies and output clones
                             gone (replays.c) */
    PR_WHATIF_DISPATCH,   /* slow_dispatch: trivial operators' host time
                             at a healthy dispatch's cost a call */
    PR_WHATIF_BUCKET,     /* small_allreduce: a step's small all-reduces
                             merged into DDP's 25 MB buckets */
    PR_WHATIF_ACLOP,      /* op_compile: aclop calls at the export's median
                             binary-kernel (aclnn) launch call */
    PR_WHATIF_COUNT
};

/* A recommendation fires only when its replay saves at least this share
 * of the step (a gain below it is no reason to act). */
#define PR_WHATIF_MIN_PCT 1.0

/* A step's replay must reproduce it within this share for its what-ifs
 * to count (issue #31's bound on the model). */
#define PR_WHATIF_MAX_ERROR_PCT 2.0

/* A runtime call holding the host at least this long is a first-use
 * cost (context creation, module loading), not the steady state's. */
#define PR_WHATIF_COLD_CALL_NS 1000000

/* A capture whose cold calls take this share of its steps is cold: the
 * other changes' gains would not be the steady state's, and are not
 * claimed (the recommendations say so in gain_note). */
#define PR_WHATIF_COLD_PCT PR_COLD_CAPTURE_PCT

/* The launch rule's evidence (recommend.c rule_launch_bound; the
 * verdict names the parts a run misses, whatif.c): this many launches,
 * this share of them kernels under PR_LAUNCH_SMALL_US, runtime calls this
 * share of the step and the device idle this share of its time waiting
 * for the host. */
#define PR_LAUNCH_MIN_CALLS 100.0
#define PR_LAUNCH_SMALL_US 10.0
#define PR_LAUNCH_SMALL_SHARE 0.5
#define PR_LAUNCH_RUNTIME_SHARE 0.10
#define PR_LAUNCH_HOST_WAIT_PCT 10.0

/* A finding the critical path alone drives (pathrules.c, and a capture's
 * first-use costs under PR_WHATIF_COLD_PCT) needs its replay to save this
 * share of the step: under it the rules on the run's aggregates speak. */
#define PR_WHATIF_PATH_PCT 5.0

/* An operator (name and input shapes, as operators_by_shape) or a kernel
 * (name) a rule names, and the factor its kernels' time gets in the
 * rule's scenario (0 < factor <= 1; NaN: the scenario's own, e.g. the
 * tensor-core ratio).  Strings borrowed (the trace's). */
struct pr_whatif_pick {
    enum pr_whatif s;
    const char *op, *shapes; /* an operator; NULL for a kernel */
    const char *kernel;      /* a kernel; NULL for an operator */
    double factor;
};

#define PR_WHATIF_MAX_PICKS 16

/* The room for a rule's missing parts (struct pr_whatif_in). */
#define PR_WHATIF_MISSES_CAP 400

/* An operator whose host time slow_dispatch's replay scales (factor: a
 * healthy call's time over its mean call's).  op borrowed. */
struct pr_whatif_dispatch {
    const char *op;
    double factor;
};

#define PR_WHATIF_MAX_DISPATCH 24

/* What the scenarios need from the other passes; NaN where unknown (the
 * scenario that needs it then changes nothing). */
struct pr_whatif_in {
    double link_gbps;   /* host link, one direction, for pinned copies */
    double peak_gbps;   /* the main device's memory roof */
    double amp_ratio;   /* fp32 CUDA-core peak / fp16 tensor-core peak */
    double tf32_ratio;  /* fp32 CUDA-core peak / TF32 tensor-core peak */
    int npu;            /* an Ascend device: the changes in its words */
    const char *vendor; /* the main device's ("amd", "meta"): graphs in its
                           words (review 28h #12); NULL NVIDIA's */
    int trains;         /* pr_run_trains: 0 an inference run, whose
                           collectives no optimizer consumes */
    int no_framework;   /* pr_run_no_framework: graphs without torch.compile */
    struct pr_whatif_pick picks[PR_WHATIF_MAX_PICKS];
    size_t n_picks;
    /* a rule that checked the trace and did not fire: the parts of its
       evidence that miss, each with its value and what it needs ("" when
       it fired or did not check); the verdict names them beside an
       unclaimed replay (pr_whatif_misses) */
    char misses[PR_WHATIF_COUNT][PR_WHATIF_MISSES_CAP];

    struct pr_whatif_dispatch dispatch[PR_WHATIF_MAX_DISPATCH];
    size_t n_dispatch; /* pr_path_dispatch_picks */
    /* the capture's start-up collective the communication finding leaves
       out (pr_producer_startup_coll's ev), which the overlap replay
       leaves as it is too; PR_CP_NONE when none */
    uint32_t startup_ev;
};

/* Set every figure of in to unknown and drop its picks. */
void pr_whatif_in_init(struct pr_whatif_in *in);

/* Add a rule's pick (ignored when full). */
void pr_whatif_in_pick(struct pr_whatif_in *in, enum pr_whatif s,
                       const char *op, const char *shapes, const char *kernel,
                       double factor);

/* A run's gains over the steps its replay reproduces (opaque). */
struct pr_whatif_acc;

/* NULL when out of memory. */
struct pr_whatif_acc *pr_whatif_acc_new(void);
void pr_whatif_acc_free(struct pr_whatif_acc *a); /* accepts NULL */

/* Count a step the what-ifs leave out (no path, or a replay that does
 * not reproduce it). */
void pr_whatif_skip(struct pr_whatif_acc *a);

/* Which optimizer the trace's optimizer steps (torch.optim's
 * "Optimizer.step#C.step" ranges) ran (critical_path.optimizer_impl), C
 * one of torch.optim's classes: "fused" where aten::_fused_* ran inside
 * every range, "foreach" where aten::_foreach_* did (torch.optim's
 * multi-tensor path), "single_tensor" where only aten::addcmul_ /
 * aten::addcdiv_ did (torch.optim's per-parameter loop, foreach=False,
 * or a hand-written class of the same form: transformers' old AdamW);
 * "own" where C is Adam, AdamW or RMSprop, whose torch.optim step always
 * runs one of those (torch/optim/adam.py, adamw.py, rmsprop.py), and its
 * ranges ran ATen operators but none of them: an optimizer of that name
 * written by hand (CS336's AdamW: aten::mul, aten::sub_, aten::sqrt,
 * aten::div); NULL otherwise (no range, another class, a compiled step,
 * ranges of different kinds); *ok set to 0 out of memory. */
const char *pr_whatif_optimizer_impl(const struct pr_trace *t, int *ok);

/* The state an optimizer's step sets up: torch.optim's Adam and AdamW
 * make exp_avg and exp_avg_sq with torch.zeros_like on a parameter's
 * first step (torch/optim/adam.py, _init_group), and later steps find
 * them made.  calls: the aten::zeros_like calls inside the trace's
 * "Optimizer.step#" ranges; kernels: the kernels launched inside them;
 * steps: the ranges of the class whose step ran the first of them, from
 * that one on (with no call, all the ranges: 0 where there is none);
 * first_only: 1 where that step ran them and the class's later steps none (the
 * capture holds the state's set-up), 0 where a later step ran them too, -1
 * where it cannot tell (one step, or no call); ranges: the ranges that ran
 * calls; step_kernels: the kernels launched inside those ranges; host_ns:
 * the calls' host time.  Issue #29 review: CS336's hand-written AdamW runs
 * 222 a step, 222 of the step's 1,776 kernels and 8.8 ms of its host time,
 * building zeros it discards (a state.get(key, torch.zeros_like(p))
 * default, which its op ids show: not its first step). */
struct pr_whatif_opt_state {
    long calls, kernels, steps, ranges, step_kernels;
    int64_t host_ns;
    int first_only;
};

/* Fill out (zeros and -1 where the trace has no such range); 0 out of
 * memory, with out zeroed too. */
int pr_whatif_optimizer_state(const struct pr_trace *t,
                              struct pr_whatif_opt_state *out);

/* The recommendation id a scenario backs ("launch_bound", ...). */
const char *pr_whatif_id(enum pr_whatif s);

/* A time in us as the verdict's cells say it: "42.24 s", "3.1 ms",
 * "850 us", "?" for NAN; into buf (cap bytes, NUL-terminated).  The
 * terminal rounds a finding's gain and bound the same way. */
void pr_whatif_fmt_us(double us, char *buf, size_t cap);

/* Replay g (replayed, its path marked on_path) under each change and add
 * the gains to a; g is left as it came.  lead_ns: a capture's lead-in the
 * path left out (capture_lead), taken off the base and each replay;
 * tail_ns: the step's unrecorded tail, after its last recorded event.
 * Neither is changed by a change: both stay in the window the gain's
 * share and step_us are of.  in may be NULL (nothing known). PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_whatif_step(const struct pr_trace *t, struct pr_cp_graph *g,
               const struct pr_whatif_in *in, struct pr_whatif_acc *a,
               int64_t lead_ns, int64_t tail_ns, struct pr_error *err);

/* critical_path.what_if: the scenarios with a gain, largest first, each
 * {id, change, step_us, gain_us, gain_pct (mean per step), evidence}, as
 * a new array the caller owns (its typed row's JSON field); NULL (null)
 * when no step could be replayed, or when out of memory (*ok 0: sticky
 * like the emit helpers).  *steps: critical_path.what_if_steps. */
cJSON *pr_whatif_rows(const struct pr_trace *t, struct pr_whatif_acc *a,
                      double *steps, int *ok);

/* Put gain_us, gain_pct and evidence onto run.recommendations backed by a
 * scenario, drop those whose replay saves less than PR_WHATIF_MIN_PCT
 * (or could not be replayed), and rank them by gain (the ones no
 * scenario backs after, in their order).  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_whatif_recommend(cJSON *run,
                                                struct pr_error *err);

/* Put each rule's missing parts (in->misses) onto the what_if row of
 * the change it backs, as rule_misses (after the replays, before
 * pr_whatif_recommend).  in may be NULL.  0: out of memory. */
int pr_whatif_misses(const struct pr_whatif_in *in, cJSON *run);

/* The findings the critical path drives (pathrules.c): a what-if of 5%
 * of the step or more whose aggregate rule did not fire (launches,
 * blocking syncs on the path) adds that rule's recommendation to recs in
 * the path's words, before the gains are put on.  0: out of memory. */
int pr_path_findings(const cJSON *run, cJSON *recs);

/* The path's top rows of one kind and name (critical_path cp's steps[].
 * top), summed over the steps with a path and given as a mean per step,
 * as by_kind_us is; 0 when no step's top lists it (pathrules.c). */
double pr_path_part_us(const cJSON *cp, const char *kind, const char *name);

/* The launch calls' share of the mean path (%), as the launch finding
 * counts them: the launch parts but the aclop calls (op_compile's) and
 * the tasks' launch-to-start delay (pathrules.c). */
double pr_path_launch_calls_pct(const cJSON *cp);

/* How to profile after warm-up, in the words of the run's profiler: a
 * sentence ("Profile after warm-up: ...") for the cold_step advice.
 * torch.profiler.schedule is the PyTorch profiler's; an Nsight Systems
 * capture (no framework, a GPU) starts its capture range later; another
 * run is told to start its capture after the first iterations.  capture:
 * the run has no steps (its unit is the iteration). */
const char *pr_whatif_warmup_advice(const cJSON *run, int capture);

/* slow_dispatch's operators (pathrules.c: PyTorch operators that compute
 * nothing, on a CUDA run whose calls of them are many and slow) into
 * in->dispatch, each with the factor that brings its mean call to a
 * healthy dispatch's time; from run.operators, before the replays. */
void pr_path_dispatch_picks(const cJSON *run, struct pr_whatif_in *in);

/* The replays of replays.c, run by pr_whatif_step: each edits g as its
 * fix would and says what it took off each node through ev (on_path:
 * the node is on the unchanged path).  1: g changed, 0: nothing to
 * change, -1: out of memory. */
typedef void (*pr_replay_ev_fn)(void *ctx, int on_path, uint32_t name,
                                int64_t ns);
struct pr_replay_cache; /* per trace: what the replays look up once */
struct pr_replay_cache *pr_replay_cache_new(void);
void pr_replay_cache_free(struct pr_replay_cache *c); /* accepts NULL */
int pr_replay_dtod(const struct pr_trace *t, struct pr_cp_graph *g,
                   struct pr_replay_cache *c, pr_replay_ev_fn ev, void *ctx);
int pr_replay_dispatch(const struct pr_trace *t, struct pr_cp_graph *g,
                       const struct pr_whatif_in *in, pr_replay_ev_fn ev,
                       void *ctx);
int pr_replay_bucket(const struct pr_trace *t, struct pr_cp_graph *g,
                     struct pr_replay_cache *c, pr_replay_ev_fn ev, void *ctx);
/* The aclop replay's floor in words ("; the floor here: ..."; "" none). */
void pr_replay_aclop_floor(const struct pr_replay_cache *c, char *buf,
                           size_t cap);
int pr_replay_aclop(const struct pr_trace *t, struct pr_cp_graph *g,
                    struct pr_replay_cache *c, pr_replay_ev_fn ev, void *ctx);

/* A run's verdict being made: its typed row (rows.def) and the text its
 * strings point into.  pr_whatif_verdict makes it, the passes that know
 * more than the path amend it (pr_producer_verdict,
 * pr_producer_split_verdict, pr_memtl_verdict, a laid-out run's), and
 * pr_whatif_verdict_put writes it once. */
struct pr_verdict {
    struct pr_row_verdict row; /* no_finding, basis NULL: not written */
    cJSON *findings;           /* owned; row.findings */
    char bound[32], text[2000], no_finding[2000], basis[256];
    char startup_note[600]; /* row.startup_note */
};

/* run.verdict (after pr_whatif_recommend): what bounds the steps, in
 * words, and the top recommendations by gain with their evidence, the
 * first thing the reports and the terminal show.  underused: the kind of
 * the Data quality row the low-utilization finding became (NULL: none),
 * which "No finding" points to when the largest replay is a larger
 * batch.  unlinked_wait: pr_critpath_fill's, the path's idle has a
 * likely cause (a stream-wait call linked to no stream), not none.  A new
 * verdict (pr_whatif_verdict_put or _free), NULL and PR_E_NOMEM in err
 * when out of memory. */
struct pr_verdict *pr_whatif_verdict(const cJSON *run, const char *underused,
                                     int unlinked_wait, struct pr_error *err);
/* The critical path's parts by kind (critical_path.by_kind_us or a copy)
 * in the verdict's words, largest first ("kernels 62%, host work 26%";
 * an NPU's, npu nonzero: "compute tasks 62%"), into buf; "" when the path
 * holds nothing. */
void pr_whatif_split_words(const cJSON *kinds, int npu, char *buf, size_t cap);
/* v's text, bound and bound_steps set (strings copied into v). */
void pr_whatif_verdict_set(struct pr_verdict *v, const char *text,
                           const char *bound, double bound_steps);
/* v written as run.verdict through the one writer, then freed.
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_whatif_verdict_put(cJSON *run, struct pr_verdict *v, struct pr_error *err);
void pr_whatif_verdict_free(struct pr_verdict *v);
/* After a recommendation's gain was set outside pr_whatif_recommend
 * (stages.c's pipeline model): the recommendations ranked again and the
 * verdict's rows made again from them, so the verdict reads the
 * recommendations, never a cell of its own.  PR_E_NOMEM. */
/* Recommendation r (a written row of run.recommendations) with no gain,
 * the most a stated model lets its change save a step (bound_us) and
 * why no estimate (note): read back as its typed row and written whole
 * in r's place through the one writer (stages.c's pipeline balance, whose
 * saving depends on the microbatches a step no export gives).  0: out of
 * memory. */
int pr_whatif_model_bound(cJSON *r, const char *note, double bound_us);

/* A finding's name as a user reads it, from its recommendation (or
 * observation) row: its id's, or the reading its text makes. */
const char *pr_whatif_title(const cJSON *r);

/* text into buf (cap bytes), cut back to a word with " …" where it does
 * not fit: the verdict's cells. */
void pr_whatif_clip(const char *text, char *buf, size_t cap);

PR_NODISCARD enum pr_status pr_whatif_verdict_rows(cJSON *run,
                                                   struct pr_error *err);

#endif
