/* pathrules.c - findings the critical path drives (review finding 1).
 * recommend.c's rules read a run's aggregates (the plugin's runtime share
 * of the step, the device idle a sync explains); a host-bound step can
 * miss them all while its own replay says launches are a quarter of the
 * path (HTA's trace_diff control: runtime 3% of the step, launch_bound
 * 15.6%) or that the host blocks in synchronising calls around tiny
 * copies (nsys mfu_2gpu_after: host_sync 11.3%).  Here, after the
 * replays, a what-if of PATH_MIN_PCT or more whose rule did not fire adds that
 * rule's finding in the path's words, naming what is on the path;
 * pr_whatif_recommend then gives it the same replay's gain.  Reads the
 * summary only. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "profreport/critpath.h"
#include "profreport/keys.h"
#include "profreport/sget.h"
#include "profreport/syncs.h"
#include "profreport/whatif.h"

#include "../internal.h"

#define PATH_TEXT 2400

/* A finding the path alone drives needs its replay to save this share of
 * the step: under it the rules on the run's aggregates speak (ResNet-50
 * of the TensorBoard plugin's sample: launches 3-4% of the path, data
 * loading 23-33%; the launch finding would be noise there). */
#define PATH_MIN_PCT PR_WHATIF_PATH_PCT

static int
has_id(const cJSON *recs, const char *id)
{
    return pr_sget_find(recs, PR_K_ID, id) != NULL;
}

static void
fmt_ms(double us, char *buf, size_t cap)
{
    if (us >= 1e6)
        snprintf(buf, cap, "%.2f s", us / 1e6);
    else if (us >= 1000)
        snprintf(buf, cap, "%.1f ms", us / 1000);
    else
        snprintf(buf, cap, "%.0f \xC2\xB5s", us);
}

/* A user's range around backward ("## backward ##", "backward"): PyTorch
 * runs a device's backward on autograd's worker thread for that device,
 * and the range's own time on the calling thread is its wait for it
 * (HTA's call_stack sample), not host work to cut.  The engine's own
 * records (autograd::..., CompiledFunctionBackward) are kept. */
static int
backward_wait(const char *name)
{
    return strstr(name, "backward") != NULL &&
           strncmp(name, "autograd::", 10) != 0 &&
           strncmp(name, "aten::", 6) != 0 &&
           strstr(name, "CompiledFunction") == NULL;
}

/* The path's largest parts of one kind, summed over the steps with a path
 * and given as a mean per step: "cudaLaunchKernel 23.4 ms, ..." (at most
 * 3 names, each a part of at least 2% of the mean path), and each as
 * {name, us} in ev (NULL: none).  The share of the mean path the kind
 * takes in *pct.  How many are named; SIZE_MAX: out of memory. */
struct part {
    const char *name;
    double us;
};

#define PARTS 32

/* A test of a part's name (NULL: every name). */
typedef int (*part_pred)(const char *name, const void *ctx);

static size_t path_parts_if(const cJSON *cp, const char *kind, part_pred pred,
                            char *buf, size_t cap, double *pct,
                            double *named_us, cJSON *ev);

static size_t
path_parts_ev(const cJSON *cp, const char *kind, char *buf, size_t cap,
              double *pct, double *named_us, cJSON *ev)
{
    return path_parts_if(cp, kind, NULL, buf, cap, pct, named_us, ev);
}

/* The named parts of one kind in the steps' tops whose name keep accepts
 * (with ctx), each summed over the steps with a path, into p[0..*n),
 * largest first (ties by name, never by address).  How many steps. */
static double
gather_parts(const cJSON *cp, const char *kind, part_pred keep, const void *ctx,
             struct part *p, size_t *n)
{
    const cJSON *s, *e;
    size_t i, k;
    double steps = 0, v;

    *n = 0;
    cJSON_ArrayForEach(s, pr_sget(cp, PR_K_STEPS))
    {
        if (pr_sget_str(s, PR_K_BOUND) == NULL)
            continue;
        steps++;
        cJSON_ArrayForEach(e, pr_sget(s, PR_K_TOP))
        {
            const char *name = pr_sget_str(e, PR_K_NAME);

            if (name == NULL || !pr_sget_is(pr_sget_str(e, PR_K_KIND), kind) ||
                name[0] == '(' || !keep(name, ctx))
                continue;
            for (i = 0; i < *n && strcmp(p[i].name, name) != 0; i++)
                ;
            if (i == *n) {
                if (*n == PARTS)
                    continue;
                p[*n].name = name;
                p[(*n)++].us = 0;
            }
            v = pr_sget_num(e, PR_K_US);
            p[i].us += v > 0 ? v : 0;
        }
    }
    for (i = 1; i < *n; i++)
        for (k = i; k > 0 && (p[k].us > p[k - 1].us ||
                              (p[k].us == p[k - 1].us &&
                               strcmp(p[k].name, p[k - 1].name) < 0));
             k--) {
            struct part x = p[k];

            p[k] = p[k - 1];
            p[k - 1] = x;
        }
    return steps;
}

/* path_parts_if's test: pred's, never a wait named for the backward */
static int
keep_pred(const char *name, const void *ctx)
{
    part_pred pred = *(const part_pred *)ctx;

    return !backward_wait(name) && (pred == NULL || pred(name, NULL));
}

/* path_parts_ev over the parts whose name pred accepts. */
static size_t
path_parts_if(const cJSON *cp, const char *kind, part_pred pred, char *buf,
              size_t cap, double *pct, double *named_us, cJSON *ev)
{
    struct part p[PARTS];
    const cJSON *e;
    size_t n = 0, i, len = 0, named = 0;
    double steps, total = 0, v;

    buf[0] = '\0';
    if (named_us != NULL)
        *named_us = 0;
    steps = gather_parts(cp, kind, keep_pred, &pred, p, &n);
    cJSON_ArrayForEach(e, pr_sget(cp, PR_K_BY_KIND_US))
    {
        if (cJSON_IsNumber(e) && e->valuedouble > 0)
            total += e->valuedouble;
    }
    v = pr_sget_num(pr_sget(cp, PR_K_BY_KIND_US), kind);
    *pct = total > 0 && v > 0 ? 100.0 * v / total : 0;
    if (!(steps > 0))
        return 0;
    for (i = 0; i < n && named < 3; i++) {
        char t[32];

        if (!(p[i].us / steps >= 0.02 * total))
            break;
        fmt_ms(p[i].us / steps, t, sizeof(t));
        len = pr_append(buf, cap, len, "%s%.80s %s", named ? ", " : "",
                        p[i].name, t);
        if (named_us != NULL)
            *named_us += p[i].us / steps;
        if (ev != NULL) {
            if (!pr_emit_evidence(ev, p[i].name, p[i].us / steps, NAN))
                return SIZE_MAX; /* out of memory */
        }
        named++;
    }
    return named;
}

/* path_parts_ev without the evidence: the names in buf alone. */
static size_t
path_parts(const cJSON *cp, const char *kind, char *buf, size_t cap,
           double *pct, double *named_us)
{
    return path_parts_ev(cp, kind, buf, cap, pct, named_us, NULL);
}

/* One part of the path's tops, as a mean per step with a path (0 when no
 * step's top lists it). */

/* The path's parts of one kind whose name pred accepts, summed over the
 * steps with a path and given as a mean per step. */
static double
parts_us(const cJSON *cp, const char *kind, part_pred pred, const void *ctx)
{
    const cJSON *s, *e;
    double steps = 0, us = 0, v;

    cJSON_ArrayForEach(s, pr_sget(cp, PR_K_STEPS))
    {
        if (pr_sget_str(s, PR_K_BOUND) == NULL)
            continue;
        steps++;
        cJSON_ArrayForEach(e, pr_sget(s, PR_K_TOP))
        {
            if (pr_sget_is(pr_sget_str(e, PR_K_KIND), kind) &&
                pred(pr_sget_str_or(e, PR_K_NAME, ""), ctx) &&
                (v = pr_sget_num(e, PR_K_US)) > 0)
                us += v;
        }
    }
    return steps > 0 ? us / steps : 0;
}

static int
name_is(const char *name, const void *want)
{
    return strcmp(name, (const char *)want) == 0;
}

static double
part_us(const cJSON *cp, const char *kind, const char *name)
{
    return parts_us(cp, kind, name_is, name);
}

double
pr_path_part_us(const cJSON *cp, const char *kind, const char *name)
{
    return part_us(cp, kind, name);
}

/* What replays a run's launches, in its device's words: ROCm's graphs
 * are HIP's, an MTIA's its runtime's (review 28h #12). */
static const char *
graphs_word(const cJSON *run)
{
    const char *v = pr_sget_str(pr_sget_first(run, PR_K_DEVICES), PR_K_VENDOR);

    return pr_sget_is(v, "amd")    ? "HIP graphs"
           : pr_sget_is(v, "meta") ? "graph capture"
                                   : "CUDA graphs";
}

static int
add(cJSON *recs, const char *id, const char *text)
{
    return pr_emit_rec(recs, id, "warning", text, NULL, 0) != NULL;
}

/* A finding no replay backs: null gain_us and gain_pct, and note says
 * why and what bounds the saving: bound (NAN: none) and the evidence ev
 * (NULL: none; the row holds a copy).  The new item; NULL: out of
 * memory. */
static cJSON *
add_no_gain(cJSON *recs, const char *id, const char *text, const char *note,
            double bound, const cJSON *ev)
{
    struct pr_row_recommendation r;

    pr_rec_init(&r, id, "warning", text);
    r.gain_note = note;
    pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_NOTE);
    pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_US);
    pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_PCT);
    r.bound_us = bound;
    if (!isnan(bound))
        pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_BOUND_US);
    r.evidence = ev;
    if (ev != NULL)
        pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_EVIDENCE);
    return pr_emit_rec_row(recs, &r);
}

/* The replay of a finding's change (replays.c) saves PR_WHATIF_MIN_PCT
 * of the step or more: the finding is added plain, and
 * pr_whatif_recommend puts that gain on it.  Else -1 when the run has
 * that replay's row below it or none (the change saves nothing on the
 * path: the finding does not fire), 0 when nothing was replayed. */
static int
replayed(const cJSON *cp, const char *id)
{
    const cJSON *w = pr_sget_find(pr_sget(cp, PR_K_WHAT_IF), PR_K_ID, id);

    if (!cJSON_IsArray(pr_sget(cp, PR_K_WHAT_IF)))
        return 0;
    return pr_sget_num(w, PR_K_GAIN_PCT) >= PR_WHATIF_MIN_PCT ? 1 : -1;
}

/* Whether a kernel of the run is Triton's (Inductor's generated kernels:
 * triton_poi_*, triton_red_*, triton_per_*, triton_tem_*, named so by
 * torch/_inductor/codegen/triton.py). */
static int
has_triton(const cJSON *run)
{
    const cJSON *k;

    cJSON_ArrayForEach(k, pr_sget(run, PR_K_KERNELS))
    {
        const char *name = pr_sget_str(k, PR_K_NAME);

        if (name != NULL && strncmp(name, "triton_", 7) == 0)
            return 1;
    }
    return 0;
}

/* Whether the run looks up embeddings (aten::embedding / embedding_bag,
 * FBGEMM's split_embedding TBE ops and their autograd nodes): the sparse
 * features whose varying sizes a graph must pad.  Without one the
 * launch advice does not speak of sparse features (review 28g #9:
 * nsys_after, hta_nccl, df_index have none). */
static int
has_embedding(const cJSON *run)
{
    static const char *const keys[] = {PR_K_OPERATORS, PR_K_KERNELS};
    size_t i;

    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        const cJSON *o;

        cJSON_ArrayForEach(o, pr_sget(run, keys[i]))
        {
            const char *name = pr_sget_str(o, PR_K_NAME);

            if (name != NULL && (strstr(name, "embedding") != NULL ||
                                 strstr(name, "Embedding") != NULL ||
                                 strstr(name, "SplitLookup") != NULL))
                return 1;
        }
    }
    return 0;
}

/* What the host operators on the path are, in an expert's words: the
 * optimizer's per-parameter loop, a compiled graph's own launches (or,
 * with no Triton kernel in the trace, its eager ATen operators). */
static size_t
host_op_advice(const cJSON *run, const char *ops, char *buf, size_t cap,
               size_t len, int optimizer_said)
{
    /* optimizer_said: the caller names the optimizer's own lever (its
       class's flag, or that it is not torch.optim's), so no AdamW here */
    if (!optimizer_said && (strstr(ops, "Optimizer.step#") != NULL ||
                            strstr(ops, "aten::_foreach_") != NULL))
        len = pr_append(buf, cap, len,
                        " The optimizer's step is on the path: a fused "
                        "optimizer (torch.optim.AdamW(..., fused=True)) or "
                        "torch.compile of the optimizer step runs it in a "
                        "few kernels instead of a loop of host calls.");
    if (strstr(ops, "CompiledFunction") != NULL && !has_triton(run))
        /* review-2 finding 2: hta df_index_resolver's graphs ran
           volta_sgemm and ATen's elementwise kernels, none Triton; inside
           CompiledFunctionBackward the host ran c10d::allreduce_,
           aten::clone, aten::sum ... */
        len = pr_append(
            buf, cap, len,
            " CompiledFunction/CompiledFunctionBackward are torch.compile's "
            "graphs, but no kernel in the trace is Triton's: the graphs run "
            "ATen operators one by one (a backend such as aot_eager, not "
            "Inductor), so their host time is those operators' dispatch and "
            "host work%s, not launches alone. Compiled with the default "
            "backend (inductor) their elementwise operators fuse into fewer "
            "kernels.",
            strstr(ops, "nccl:") != NULL || strstr(ops, "allreduce") != NULL
                ? " and, in backward, the collectives the graph issues"
                : "");
    else if (strstr(ops, "CompiledFunction") != NULL)
        len = pr_append(buf, cap, len,
                        " CompiledFunction/CompiledFunctionBackward are "
                        "torch.compile's graphs: their host time is their "
                        "kernels' launches, which mode=\"reduce-overhead\" "
                        "replays as a CUDA graph.");
    return len;
}

/* A launch part that is no aclop call (those are op_compile's, and the
 * launch_bound replay leaves them: whatif.c apply_launch). */
static int
not_aclop(const char *name, const void *ctx)
{
    (void)ctx;
    return !pr_cp_is_aclop(name);
}

static int
is_aclop(const char *name, const void *ctx)
{
    (void)ctx;
    return pr_cp_is_aclop(name);
}

/* The share of the mean path in aclop calls (launch parts). */
static double
aclop_pct(const cJSON *cp)
{
    struct part p[PARTS];
    const cJSON *e;
    size_t n = 0, i;
    double steps, total = 0, us = 0;

    steps = gather_parts(cp, "launch", is_aclop, NULL, p, &n);
    cJSON_ArrayForEach(e, pr_sget(cp, PR_K_BY_KIND_US))
    {
        if (cJSON_IsNumber(e) && e->valuedouble > 0)
            total += e->valuedouble;
    }
    for (i = 0; i < n; i++)
        us += p[i].us;
    return steps > 0 && total > 0 ? 100.0 * us / steps / total : 0;
}

double
pr_path_launch_calls_pct(const cJSON *cp)
{
    char calls[8];
    const cJSON *e;
    double pct, total = 0, delay_us;

    path_parts_if(cp, "launch", not_aclop, calls, sizeof(calls), &pct, NULL,
                  NULL);
    pct -= aclop_pct(cp);
    cJSON_ArrayForEach(e, pr_sget(cp, PR_K_BY_KIND_US))
    {
        if (cJSON_IsNumber(e) && e->valuedouble > 0)
            total += e->valuedouble;
    }
    delay_us = part_us(cp, "launch", "(launch-to-start delay)");
    if (total > 0 && delay_us > 0)
        pct -= 100.0 * delay_us / total;
    return pct;
}

/* The share of the launch calls' time the launch_bound replay took off
 * the path that the host issued inside an optimizer's step (what_if's
 * optimizer_pct) from which its multi-tensor path leads the advice, and
 * from which it is named after the graph's. */
#define OPT_LEAD_PCT 50
#define OPT_PART_PCT 10

/* torch.optim's optimizers with a foreach (multi-tensor) implementation
 * (torch/optim/: each takes foreach=), and those torch_npu.optim
 * has a fused form of (torch_npu/optim/__init__.py: NpuFusedSGD,
 * NpuFusedAdadelta, NpuFusedAdam, NpuFusedAdamW, NpuFusedRMSprop, beside
 * NpuFusedLamb, NpuFusedAdamP, NpuFusedBertAdam, NpuFusedRMSpropTF). */
static int
one_of(const char *cls, const char *const *names, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(cls, names[i]) == 0)
            return 1;
    return 0;
}

static int
torch_foreach(const char *cls)
{
    static const char *const f[] = {"Adam",     "AdamW",   "SGD",  "Adagrad",
                                    "Adadelta", "Adamax",  "ASGD", "NAdam",
                                    "RAdam",    "RMSprop", "Rprop"};

    return one_of(cls, f, sizeof(f) / sizeof(f[0]));
}

static int
npu_fused(const char *cls)
{
    static const char *const f[] = {"SGD", "Adadelta", "Adam", "AdamW",
                                    "RMSprop"};

    return one_of(cls, f, sizeof(f) / sizeof(f[0]));
}

static int torch_fused(const char *cls);

/* The event syncs of DDP's runtime-stats logging (hostdev.c's
 * ddp_logging): DDP reads its timers on its first 10 iterations, then
 * every 100th, so a profile of early steps holds them and a steady-state
 * loop does not. */
static size_t
ddp_logging_syncs(char *buf, size_t cap, size_t len, double n, double steps)
{
    len = pr_append(buf, cap, len,
                    " The %.0f event synchronization%s inside "
                    "DistributedDataParallel.forward",
                    n, n == 1 ? "" : "s");
    if (steps > 1 && fmod(n, steps) == 0)
        len = pr_append(buf, cap, len, " (%.0f a step)", n / steps);
    return pr_append(buf, cap, len,
                     " %s DDP's own runtime-stats logging (it reads its "
                     "timers on its first 10 iterations, then every 100th), "
                     "not the loop's: profile after iteration 10 to see the "
                     "steady state.",
                     n == 1 ? "is" : "are");
}

/* A captured CUDA graph cannot hold a synchronization (stream capture
 * forbids cudaStreamSynchronize, cudaDeviceSynchronize and a blocking
 * copy's wait): where the loop holds such calls, the launch advice says
 * that they go first, or only the launches between them are captured
 * (review 26g #4: nsys_after's "Capture each iteration in a CUDA graph"
 * beside 15 cudaStreamSynchronize calls a rank).  How many a step, and
 * how long the device idles after them (synchronization's gpu_idle_us)
 * beside what the launch replay saves (gain_us, a step): whether the syncs
 * or the launches make the gaps (hta_nccl: 24 cudaEventSynchronize, 8 a
 * step, the device idle 9 us a step after them, the replay 12.8 ms). */
static size_t
syncs_in_loop(const cJSON *run, int capture, double gain_us, char *buf,
              size_t cap, size_t len)
{
    const cJSON *sync = pr_sget(run, PR_K_SYNCHRONIZATION);
    const cJSON *calls = pr_sget(sync, PR_K_CALLS);
    const cJSON *c, *top = NULL;
    double n = 0, top_n = 0, ddp = 0,
           idle = pr_sget_num(sync, PR_K_GPU_IDLE_US);
    double steps =
        capture ? 1 : (double)cJSON_GetArraySize(pr_sget(run, PR_K_STEPS));
    char per[48] = "", t_idle[32], t_gain[32];
    int copies;

    /* the synchronizing calls (stream, device, event); a blocking copy
       only where the loop has none, since PyTorch follows its copies with
       a stream sync the table counts already (review 27 #5: "120 blocking
       calls" were 60 sync points of hta_diff_control) */
    for (copies = 0; copies < 2 && top == NULL; copies++) {
        cJSON_ArrayForEach(c, calls)
        {
            const char *kind = pr_sget_str(c, PR_K_KIND);
            double k = pr_sget_num(c, PR_K_COUNT) -
                       pr_sget_num(c, PR_K_OUTSIDE_STEPS_COUNT);
            double d = pr_sget_num(c, PR_K_DDP_LOGGING_COUNT);
            double dn = pr_sget_num(c, PR_K_CUDNN_SEARCH_COUNT);

            if (pr_sget_is(kind, pr_sync_kind_name(PR_SYNCK_STREAM_WAIT)) ||
                pr_sget_is(kind, "blocking_copy") != copies)
                continue;
            /* DDP's runtime-stats logging is not the user's to remove
               (review 28g #4): said apart */
            if (d > 0 && isfinite(d)) {
                ddp += d;
                k -= d;
            }
            /* nor cuDNN's algorithm search, once per shape (review 30g
               #2): the cudnn_search finding says it */
            if (dn > 0 && isfinite(dn))
                k -= dn;
            if (!(k > 0))
                continue;
            n += k;
            if (k > top_n) {
                top_n = k;
                top = c;
            }
        }
    }
    if (!(steps >= 1))
        steps = 1;
    if (top != NULL) {
        if (steps > 1)
            snprintf(per, sizeof(per), ", %.*f a step",
                     fmod(n, steps) == 0 ? 0 : 1, n / steps);
        len = pr_append(buf, cap, len,
                        " A captured graph cannot hold a synchronization, and "
                        "the %s holds %.0f synchronizing call%s (%s %.0f%s): "
                        "remove them first, or capture only the launches "
                        "between them.",
                        capture ? "capture" : "loop", n, n == 1 ? "" : "s",
                        pr_sget_str_or(top, PR_K_NAME, "?"), top_n, per);
    }
    if (top != NULL && idle >= 0 && gain_us > 0) {
        fmt_ms(idle / steps, t_idle, sizeof(t_idle));
        fmt_ms(gain_us, t_gain, sizeof(t_gain));
        len = pr_append(buf, cap, len,
                        " The device idles %s%s after them, against the %s%s "
                        "the launches' replay saves: %s",
                        t_idle, capture ? "" : " a step", t_gain,
                        capture ? "" : " a step",
                        idle / steps < 0.1 * gain_us
                            ? "the gaps are not the syncs'."
                            : "some of the gaps follow the syncs.");
    }
    if (ddp > 0)
        len = ddp_logging_syncs(buf, cap, len, ddp, capture ? 0 : steps);
    return len;
}

/* The launch advice's optimizer sentence: pct of the launch calls' time
 * the replay took off is under the optimizer's step range optim
 * ("Optimizer.step#Adam.step", torch.optim's record_function), its
 * per-parameter loop (the single-tensor implementation launches a few
 * operators a parameter: msprof torch_npu_ascend_profiler_output's
 * Adam.step, 10 parameters, aclnnInplaceAddcdiv / Addcmul / Divs / Sqrt
 * each); its multi-tensor or fused form launches a few per step. */
static size_t
optimizer_loop(char *buf, size_t cap, size_t len, const char *optim,
               const char *cls, double pct, int npu, const char *impl)
{
    len = pr_append(buf, cap, len,
                    " %.0f%% of the launch calls' time the replay takes off "
                    "is issued inside the optimizer's step (%s)",
                    pct, optim);
    /* a hand-written optimizer of a torch.optim name has no foreach or
       fused flag to pass (issue #29 review: CS336's own AdamW) */
    if (pr_sget_is(impl, "own"))
        return pr_append(
            buf, cap, len,
            ", a per-parameter loop of small operators: it is not "
            "torch.optim's %s (none of its aten::addcmul_, aten::addcdiv_, "
            "aten::_foreach_* or aten::_fused_* operators ran in it), so "
            "using torch.optim.%s(..., %s)%s%s in its place, or compiling "
            "the step%s, runs it in a few calls.",
            cls, cls, !npu && torch_fused(cls) ? "fused=True" : "foreach=True",
            npu && npu_fused(cls) ? " or torch_npu.optim.NpuFused" : "",
            npu && npu_fused(cls) ? cls : "",
            npu ? " (torch.compile with torchair's NPU backend)" : "");
    if (strncmp(cls, "Fused", 5) == 0 || strncmp(cls, "NpuFused", 8) == 0 ||
        !torch_foreach(cls) || pr_sget_is(impl, "fused"))
        return pr_append(buf, cap, len,
                         "%s: compile the step (torch.compile of a function "
                         "that calls opt.step()) to fuse it.",
                         pr_sget_is(impl, "fused")
                             ? ", which runs torch.optim's fused kernels "
                               "(aten::_fused_*) already"
                             : "");
    /* the multi-tensor path already: its flag is no lever (issue #29
       review), the fused kernels are */
    if (pr_sget_is(impl, "foreach"))
        return pr_append(
            buf, cap, len,
            ", which runs torch.optim's multi-tensor calls (aten::_foreach_*) "
            "already: %s%s%s",
            !npu && torch_fused(cls) ? "fused=True runs it in a few kernels."
            : npu && npu_fused(cls)  ? "torch_npu.optim.NpuFused"
                                     : "compile the step (torch.compile of "
                                       "a function that calls opt.step()) "
                                       "to fuse it.",
            npu && npu_fused(cls) ? cls : "",
            npu && npu_fused(cls) ? " runs it in a few kernels." : "");
    len = pr_append(buf, cap, len,
                    ", a per-parameter loop of small operators: "
                    "torch.optim.%s(..., foreach=True)%s%s%s launches it "
                    "for all parameters in a few calls.",
                    cls, !npu && torch_fused(cls) ? " or fused=True" : "",
                    npu && npu_fused(cls) ? " or torch_npu.optim.NpuFused" : "",
                    npu && npu_fused(cls) ? cls : "");
    /* the same operators from a hand-written class (issue #29 review:
       transformers' old AdamW, timm's): no flag to pass there */
    if (pr_sget_is(impl, "single_tensor"))
        len = pr_append(buf, cap, len,
                        " A hand-written %s of the same form (aten::addcmul_ "
                        "and aten::addcdiv_ a parameter) has no such flag: "
                        "use torch.optim.%s in its place.",
                        cls, cls);
    return len;
}

/* torch.optim's classes that make their state with torch.zeros_like,
 * only for a parameter without state (len(state) == 0 in _init_group:
 * torch/optim/adam.py, adamw.py, adamax.py, nadam.py, radam.py,
 * rmsprop.py, adadelta.py, rprop.py, asgd.py). */
static int
torch_zeros_state(const char *cls)
{
    static const char *const v[] = {"Adam",     "AdamW", "Adamax",
                                    "NAdam",    "RAdam", "RMSprop",
                                    "Adadelta", "Rprop", "ASGD"};

    return one_of(cls, v, sizeof(v) / sizeof(v[0]));
}

/* The optimizer's aten::zeros_like calls (critical_path.optimizer_state_*)
 * said as the trace allows (issue #29 review: CS336's hand-written AdamW
 * runs 222 a step, 222 of the step's 1,776 kernels and 8.8 ms of its host
 * time; its op ids show a state.get(key, torch.zeros_like(p)) default
 * built and discarded each step, not a first step).  torch.optim's
 * classes make their state that way only for a parameter without state,
 * so the calls mark its first step; of another optimizer the trace tells
 * only whether later steps ran them too. */
static size_t
optimizer_state(char *buf, size_t cap, size_t len, const cJSON *cp,
                const char *cls, int npu)
{
    double calls = pr_sget_num(cp, PR_K_OPTIMIZER_STATE_CALLS);
    double kernels = pr_sget_num(cp, PR_K_OPTIMIZER_STATE_KERNELS);
    double steps = pr_sget_num(cp, PR_K_OPTIMIZER_STATE_STEPS);
    double ranges = pr_sget_num(cp, PR_K_OPTIMIZER_STATE_RANGES);
    double all = pr_sget_num(cp, PR_K_OPTIMIZER_STATE_STEP_KERNELS);
    double host = pr_sget_num(cp, PR_K_OPTIMIZER_STATE_HOST_US);
    const cJSON *first = pr_sget(cp, PR_K_OPTIMIZER_STATE_FIRST);
    const char *impl = pr_sget_str(cp, PR_K_OPTIMIZER_IMPL);
    /* one of torch.optim's paths ran (a hand-written class of the
       single-tensor form, transformers' old AdamW, also makes its state
       only when len(state) == 0) */
    int torch = torch_zeros_state(cls) &&
                (pr_sget_is(impl, "fused") || pr_sget_is(impl, "foreach") ||
                 pr_sget_is(impl, "single_tensor"));
    char share[200], h[32], which[48];

    if (!(calls > 0) || !(steps >= 1) || !(ranges >= 1))
        return len;
    /* a step's figures: the totals over the steps that ran them */
    calls /= ranges;
    fmt_ms(host / ranges, h, sizeof(h));
    if (kernels > 0 && all >= kernels)
        snprintf(share, sizeof(share),
                 "%.0f of its %.0f %s, %s of host "
                 "time in them, their launches included",
                 kernels / ranges, all / ranges, npu ? "tasks" : "kernels", h);
    else
        snprintf(share, sizeof(share),
                 "%s of host time in them, their launches included", h);
    if (cJSON_IsTrue(first))
        return pr_append(
            buf, cap, len,
            " The first of its %.0f steps also ran %.0f aten::zeros_like "
            "calls (%s), and no later step did%s: the optimizer's state, made "
            "once. The later steps show the loop as it runs.",
            steps, calls, share,
            torch ? " (torch.optim makes its state that way for a parameter "
                    "that has none)"
                  : "");
    if (torch && !cJSON_IsFalse(first))
        return pr_append(
            buf, cap, len,
            " The step is the optimizer's first for these parameters: "
            "torch.optim's %s makes its state with torch.zeros_like only for "
            "a parameter that has none, and %.0f such calls ran in it (%s). "
            "Later steps do not pay them: profile a later step to see the "
            "loop as it runs.",
            cls, calls, share);
    if (torch)
        return len;
    if (cJSON_IsFalse(first)) {
        if (ranges == steps)
            snprintf(which, sizeof(which), "All %.0f", steps);
        else
            snprintf(which, sizeof(which), "%.0f of its %.0f", ranges, steps);
        return pr_append(
            buf, cap, len,
            " %s steps run aten::zeros_like, %.0f calls a step (%s). If these "
            "are defaults for state that already exists (state.get(key, "
            "torch.zeros_like(p))), each step allocates and zeroes tensors it "
            "then discards: make them only when the key is missing.",
            which, calls, share);
    }
    return pr_append(
        buf, cap, len,
        " The optimizer's step runs %.0f aten::zeros_like calls (%s). An "
        "optimizer that makes its state there only for a parameter that has "
        "none (as torch.optim's Adam family does) pays them once; one that "
        "builds them every step, as a state.get(key, torch.zeros_like(p)) "
        "default does, pays them each step and discards them: make them only "
        "when the key is missing. With one step captured, the trace cannot "
        "tell these apart: profile two or more steps; if every step runs "
        "them, they are per-step defaults.",
        calls, share);
}

/* The optimizer's sentences of the launch advice: its loop
 * (optimizer_loop), then its aten::zeros_like calls (optimizer_state);
 * nothing where optim names no class. */
static size_t
optimizer_launches(char *buf, size_t cap, size_t len, const char *optim,
                   double pct, int npu, const cJSON *cp)
{
    char cls[64];
    const char *c = optim + strlen("Optimizer.step#");
    size_t n = strcspn(c, ".");

    if (strncmp(optim, "Optimizer.step#", 15) != 0 || n == 0 ||
        n >= sizeof(cls))
        return len;
    snprintf(cls, sizeof(cls), "%.*s", (int)n, c);
    len = optimizer_loop(buf, cap, len, optim, cls, pct, npu,
                         pr_sget_str(cp, PR_K_OPTIMIZER_IMPL));
    return optimizer_state(buf, cap, len, cp, cls, npu);
}

/* Launches on the path (the launch_bound replay saves PATH_MIN_PCT or more)
 * while the aggregate rule, which needs runtime calls >= 10% of the step and
 * the device waiting for launches 10% of its time, did not fire. */
static int
launch_from_path(const cJSON *run, const cJSON *cp, cJSON *recs)
{
    const cJSON *w =
        pr_sget_find(pr_sget(cp, PR_K_WHAT_IF), PR_K_ID, "launch_bound");
    char text[PATH_TEXT], calls[300], ops[300], gain[32], delay[32], on[32];
    double launch_pct, host_pct, g = pr_sget_num(w, PR_K_GAIN_PCT), delay_us;
    double total = 0, opt_pct;
    const cJSON *e;
    const char *optim;
    char lever[600];
    int npu = pr_run_on_npu(run), graphs, capture = pr_sget_run_is_capture(run);
    int amd, mtia;
    size_t len;

    if (has_id(recs, "launch_bound") || !(g >= PATH_MIN_PCT) ||
        pr_run_graph_share(run) >= PR_GRAPHED_SHARE)
        return 1;
    graphs = pr_sget_true(pr_sget(run, PR_K_LAUNCHES), PR_K_CUDA_GRAPHS);
    /* the launches outside the aclop calls, which op_compile's finding
       covers (torch_npu_ascend_profiler_output: the queue thread's aclnn
       launches, beside 5.7 ms a step of aclopCompileAndExecute) */
    path_parts_if(cp, "launch", not_aclop, calls, sizeof(calls), &launch_pct,
                  NULL, NULL);
    path_parts(cp, "host_op", ops, sizeof(ops), &host_pct, NULL);
    fmt_ms(pr_sget_num(w, PR_K_GAIN_US), gain, sizeof(gain));
    delay_us = part_us(cp, "launch", "(launch-to-start delay)");
    fmt_ms(delay_us, delay, sizeof(delay));
    /* the calls' own time and the wait of the tasks after them apart
       (review-2 finding 3): a graph removes the calls, and shortens the
       launch-to-start delay without removing it, so a gain with a delay
       of 10% of it or more is an upper bound */
    /* one measure in the text, the calls' time on the path, said as
       such; the evidence is what the replay took off each call, less
       where other work then binds (review 11 #4: "(a step: X 378 us in
       the calls)" beside the evidence's 323 us) */
    cJSON_ArrayForEach(e, pr_sget(cp, PR_K_BY_KIND_US))
    {
        if (cJSON_IsNumber(e) && e->valuedouble > 0)
            total += e->valuedouble;
    }
    /* the calls alone: the tasks' wait after them is said apart */
    launch_pct = pr_path_launch_calls_pct(cp);
    fmt_ms(launch_pct * total / 100.0, on, sizeof(on));
    len = pr_append(
        text, sizeof(text), 0,
        "Launch calls take %s %s the critical path (%.0f%%%s%s%s)%s%s%s:"
        " the %s waits for the host to issue its %s one call at a time. "
        "Replayed with the launches taking no time%s the %s is %s shorter "
        "(%.1f%%)%s; the host operators' own work stays (the evidence: what "
        "the replay takes off each call, at most its time on the path, "
        "less where other work then sets the %s).",
        on, capture ? "on" : "a step on", launch_pct,
        calls[0] ? "; by call: " : "", calls,
        npu && aclop_pct(cp) > 0 ? "; the aclop calls apart, op_compile's" : "",
        delay_us > 0 ? ", and the tasks wait " : "", delay_us > 0 ? delay : "",
        delay_us > 0 ? (capture ? " from their launch to their start"
                                : " a step from their launch to their start")
                     : "",
        capture ? "work" : "step", npu ? "operators" : "kernels",
        delay_us > 0 ? " and no task waiting after its launch," : "",
        capture ? "capture" : pr_run_gain_window(run), gain, g,
        delay_us >= 0.1 * pr_sget_num(w, PR_K_GAIN_US)
            ? ", an upper bound: a graph removes the calls but only shortens "
              "each task's launch latency"
            : "",
        capture ? "capture's end" : "step");
    if (ops[0] != '\0' && host_pct >= 10) {
        len = pr_append(text, sizeof(text), len,
                        " Host work is %.0f%% of the path, led by %s "
                        "(each one's own time on it, not its children's).",
                        host_pct, ops);
        len = host_op_advice(run, ops, text, sizeof(text), len,
                             pr_sget_str(w, PR_K_OPTIMIZER) != NULL &&
                                 pr_sget_num(w, PR_K_OPTIMIZER_PCT) >=
                                     OPT_PART_PCT);
    }
    opt_pct = pr_sget_num(w, PR_K_OPTIMIZER_PCT);
    optim = pr_sget_str(w, PR_K_OPTIMIZER);
    if (optim != NULL && opt_pct >= OPT_LEAD_PCT)
        /* most of the launches are the optimizer's per-parameter loop:
           its multi-tensor path first, a graph after */
        len = optimizer_launches(text, sizeof(text), len, optim, opt_pct, npu,
                                 cp);
    /* without steps the loop's iteration is the unit a graph holds */
    amd = strcmp(graphs_word(run), "HIP graphs") == 0;
    mtia = strcmp(graphs_word(run), "graph capture") == 0;
    {
        const char *what = capture ? "each iteration" : "the step";
        const char *sparse =
            has_embedding(run) ? ", such as sparse features," : "";

        if (npu)
            snprintf(lever, sizeof(lever),
                     "Run %s as a graph (torch.compile with torchair's NPU "
                     "backend) and fuse small operators, so fewer of them "
                     "launch.",
                     what);
        else if (graphs)
            snprintf(lever, sizeof(lever),
                     "The run already replays CUDA graphs: capture more of %s "
                     "in them, and fuse small operators with torch.compile so "
                     "fewer kernels launch.",
                     what);
        else if (mtia) /* an MTIA's runtime, not CUDA's (review 28h #12) */
            snprintf(lever, sizeof(lever),
                     "Capture %s in a graph where the MTIA runtime offers one "
                     "(torch.compile(mode=\"reduce-overhead\")) so the "
                     "launches go (a graph replays fixed shapes: inputs whose "
                     "sizes vary%s need padding to a few sizes), and fuse "
                     "small operators with torch.compile so fewer kernels "
                     "launch.",
                     what, sparse);
        else if (amd)
            snprintf(lever, sizeof(lever),
                     "Capture %s in a HIP graph (torch.compile(mode="
                     "\"reduce-overhead\") or torch.cuda.CUDAGraph, HIP's "
                     "graphs on ROCm) so the launches go (a graph replays "
                     "fixed shapes: inputs whose sizes vary%s need padding to "
                     "a few sizes), and fuse small operators with "
                     "torch.compile so fewer kernels launch.",
                     what, sparse);
        else
            snprintf(lever, sizeof(lever),
                     "Capture %s in a CUDA graph (torch.compile(mode="
                     "\"reduce-overhead\") or torch.cuda.CUDAGraph) so the "
                     "launches go (a graph replays fixed shapes: inputs whose "
                     "sizes vary%s need padding to a few sizes), and fuse "
                     "small operators with torch.compile so fewer kernels "
                     "launch.",
                     what, sparse);
    }
    if (optim != NULL && opt_pct >= OPT_LEAD_PCT)
        len = pr_append(text, sizeof(text), len,
                        " Then, for the launches left: %c%s",
                        lever[0] - 'A' + 'a', lever + 1);
    else
        len = pr_append(text, sizeof(text), len, " %s", lever);
    if (!npu && !graphs)
        len = syncs_in_loop(run, capture, pr_sget_num(w, PR_K_GAIN_US), text,
                            sizeof(text), len);
    if (optim != NULL && opt_pct >= OPT_PART_PCT && opt_pct < OPT_LEAD_PCT)
        optimizer_launches(text, sizeof(text), strlen(text), optim, opt_pct,
                           npu, cp);
    return add(recs, "launch_bound", text);
}

/* The host blocked in synchronising calls on the path (the host_sync
 * replay saves PATH_MIN_PCT or more) while the idle-based rule did not fire:
 * the queue stays deep, so the device hardly idles, but the host stops running
 * ahead.  Tiny pageable host-to-device copies beside the syncs are scalars sent
 * to the device each step.  cudaMemcpyAsync from pageable memory to the device
 * only stages the bytes (CUDA's API synchronization behavior); the wait is
 * PyTorch's: a copy with non_blocking=False is cudaMemcpyAsync then
 * cudaStreamSynchronize (Copy.cu, at::cuda::memcpy_and_sync; review 13 #4).
 * The fix is not to send them, not to prefetch. */
static int
sync_from_path(const cJSON *run, const cJSON *cp, cJSON *recs)
{
    const cJSON *w = pr_sget_find(pr_sget(cp, PR_K_WHAT_IF), PR_K_ID,
                                  "host_sync"),
                *c;
    const cJSON *sync = pr_sget(run, PR_K_SYNCHRONIZATION);
    char text[PATH_TEXT], gain[32], t[32], calls[300];
    double g = pr_sget_num(w, PR_K_GAIN_PCT), h2d_n = 0, h2d_bytes = 0;
    size_t len = 0, n = 0;
    int npu = pr_run_on_npu(run);

    double mine = 0, dnn = 0;

    if (has_id(recs, "host_sync") || has_id(recs, "pageable_copies") ||
        !(g >= PATH_MIN_PCT))
        return 1;
    /* syncs that are cuDNN's algorithm search (its cudnn_search finding
       says them) are not the loop's to remove: where they are all there
       is, no host_sync advice (review 30g #2) */
    cJSON_ArrayForEach(c, pr_sget(sync, PR_K_CALLS))
    {
        double k = pr_sget_num(c, PR_K_CUDNN_SEARCH_COUNT);

        if (pr_sget_is(pr_sget_str(c, PR_K_KIND),
                       pr_sync_kind_name(PR_SYNCK_STREAM_WAIT)))
            continue;
        k = k > 0 ? k : 0;
        dnn += k;
        mine += pr_sget_num(c, PR_K_COUNT) - k;
    }
    if (dnn > 0 && !(mine > 0))
        return 1;
    calls[0] = '\0';
    cJSON_ArrayForEach(c, pr_sget(sync, PR_K_CALLS))
    {
        const char *kind = pr_sget_str(c, PR_K_KIND);

        if (n == 3 ||
            pr_sget_is(kind, pr_sync_kind_name(PR_SYNCK_STREAM_WAIT)) ||
            pr_sget_is(kind, "blocking_copy") ||
            !(pr_sget_num(c, PR_K_HOST_US) >= 1000))
            continue;
        fmt_ms(pr_sget_num(c, PR_K_HOST_US), t, sizeof(t));
        len = pr_append(calls, sizeof(calls), len, "%s%.60s x%.0f, %s",
                        n ? "; " : "", pr_sget_str_or(c, PR_K_NAME, "?"),
                        pr_sget_num(c, PR_K_COUNT), t);
        n++;
    }
    cJSON_ArrayForEach(c, pr_sget(pr_sget(run, PR_K_COPIES), PR_K_BY_KIND))
    {
        if (pr_sget_is(pr_sget_str(c, PR_K_DIRECTION), "HtoD") &&
            pr_sget_is(pr_sget_str(c, PR_K_HOST_MEMORY), "pageable")) {
            h2d_n +=
                pr_sget_num(c, PR_K_COUNT) > 0 ? pr_sget_num(c, PR_K_COUNT) : 0;
            h2d_bytes +=
                pr_sget_num(c, PR_K_BYTES) > 0 ? pr_sget_num(c, PR_K_BYTES) : 0;
        }
    }
    fmt_ms(pr_sget_num(w, PR_K_GAIN_US), gain, sizeof(gain));
    len = pr_append(
        text, sizeof(text), 0,
        "The host blocks on the %s inside the %s%s%s%s, on the critical "
        "path: while it waits it cannot queue the next work, so the %s's "
        "queue drains. Replayed without the blocking waits the %s is %s "
        "shorter (%.1f%%).",
        npu ? "NPU" : "GPU", pr_sget_run_is_capture(run) ? "capture" : "steps",
        n ? " (" : "", calls, n ? ")" : "", npu ? "NPU" : "GPU",
        pr_run_gain_window(run), gain, g);
    if (h2d_n >= 1 && h2d_bytes / h2d_n <= 64)
        pr_append(text, sizeof(text), len,
                  " Beside them the capture holds %.0f pageable host-to-device "
                  "copies of %.0f bytes in all (%.0f bytes each on average: "
                  "scalars): a Python number or a CPU tensor sent to the "
                  "device each %s (torch.tensor(x, device=...), "
                  "t.to(device), a scalar in an operator that needs a device "
                  "tensor). Such a copy does not wait by itself: "
                  "cudaMemcpyAsync from pageable memory stages the bytes and "
                  "returns. The wait is PyTorch's: with the default "
                  "non_blocking=False it follows the copy with "
                  "cudaStreamSynchronize, as .item() and .cpu() do, and the "
                  "host waits for the whole queue. Keep such values on the "
                  "device, or create them once before the loop (or send them "
                  "with non_blocking=True); read device values back (.item(), "
                  ".cpu(), .tolist()) only every N %s. Prefetching does "
                  "not help a copy of a few bytes: the wait is for the queue, "
                  "not the copy.",
                  h2d_n, h2d_bytes, h2d_bytes / h2d_n,
                  pr_sget_run_is_capture(run) ? "iteration" : "step",
                  pr_sget_run_is_capture(run) ? "iterations" : "steps");
    else if (pr_run_trains(run) == 0) /* inference (hunt30 #5) */
        pr_append(text, sizeof(text), len,
                  " Avoid .item(), .cpu(), .tolist(), print(tensor) and "
                  "%s inside the forward or the serving loop; read results "
                  "back once per batch, after its work is queued.",
                  npu ? "torch.npu.synchronize()" : "torch.cuda.synchronize()");
    else
        pr_append(text, sizeof(text), len,
                  " Avoid .item(), .cpu(), .tolist(), print(tensor) and "
                  "%s in the training step; keep metrics on the device and "
                  "read them every N steps.",
                  npu ? "torch.npu.synchronize()" : "torch.cuda.synchronize()");
    return add(recs, "host_sync", text);
}

/* The mean per step (over the steps with a path) of the path's parts
 * whose name starts with prefix, and in name (cap bytes) the largest
 * one's name; ties by name. */
static double
part_mean(const cJSON *cp, const char *kind, const char *prefix, char *name,
          size_t cap)
{
    const cJSON *s, *e;
    double steps = 0, sum = 0, best = -1;

    if (name != NULL)
        name[0] = '\0';
    cJSON_ArrayForEach(s, pr_sget(cp, PR_K_STEPS))
    {
        if (pr_sget_str(s, PR_K_BOUND) == NULL)
            continue;
        steps++;
        cJSON_ArrayForEach(e, pr_sget(s, PR_K_TOP))
        {
            const char *n = pr_sget_str(e, PR_K_NAME);
            double v = pr_sget_num(e, PR_K_US);

            if (n == NULL || !pr_sget_is(pr_sget_str(e, PR_K_KIND), kind) ||
                strncmp(n, prefix, strlen(prefix)) != 0 || !(v > 0))
                continue;
            sum += v;
            if (name != NULL &&
                (v > best || (v == best && strcmp(n, name) < 0))) {
                best = v;
                snprintf(name, cap, "%s", n);
            }
        }
    }
    return steps > 0 ? sum / steps : 0;
}

/* recommend.c's near-empty capture from the summary: under 64 kernel
 * calls in all and under 1 ms of device work (kernels, copies, sets) in
 * the mean step; a test program's handful of kernels says nothing of a
 * training step's host work. */
static int
near_empty(const cJSON *run)
{
    const cJSON *k,
        *b = pr_sget(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_BREAKDOWN_US);
    double calls = 0, dev = 0, v;

    cJSON_ArrayForEach(k, pr_sget(run, PR_K_KERNELS))
    {
        v = pr_sget_num(k, PR_K_CALLS);
        calls += v > 0 ? v : 0;
    }
    v = pr_sget_num(b, PR_K_KERNEL);
    dev += v > 0 ? v : 0;
    v = pr_sget_num(b, PR_K_MEMCPY);
    dev += v > 0 ? v : 0;
    v = pr_sget_num(b, PR_K_MEMSET);
    dev += v > 0 ? v : 0;
    return calls > 0 && calls < 64 && dev < 1000;
}

/* torch.optim's optimizers that take fused=True (their documentation's
 * "fused" argument, CUDA). */
static int
torch_fused(const char *cls)
{
    static const char *const fused[] = {"Adam", "AdamW", "SGD", "Adagrad"};

    return one_of(cls, fused, sizeof(fused) / sizeof(fused[0]));
}

/* An ATen operator that launched device work yet spent OPAQUE_CALL_US or
 * more a call in itself, with nothing recorded under it for 90% of its
 * time and under a tenth of it in device work, was not computing: an
 * operator on device tensors only dispatches kernels, so the host thread
 * was held elsewhere (a lock or the GIL, the OS) or the trace dropped the
 * events inside it (review-3 finding 3: HTA's sampled timeline_analysis
 * trace, aten::_foreach_mul_ 120 ms a call with 0.1% of it recorded
 * under it, 7 launches, 93 us of kernels).  Its time on the path is
 * summed in *opaque_us and the largest named in ex. */
#define OPAQUE_CALL_US 1000.0

static double
opaque_ops(const cJSON *run, const cJSON *cp, char *ex, size_t cap)
{
    const cJSON *o;
    double sum = 0, best = 0;
    /* the others, so that the sum the text gives is the operators it
       names (hta trace_filter: 140.3 ms a step, _foreach_mul_ 120.5 and
       _foreach_add_ 19.8) */
    char more[300] = "", bt[32];
    const char *bn = NULL;
    size_t ml = 0;
    int n = 0;

    ex[0] = '\0';
    cJSON_ArrayForEach(o, pr_sget(run, PR_K_OPERATORS))
    {
        const char *nm = pr_sget_str(o, PR_K_NAME);
        double calls = pr_sget_num(o, PR_K_CALLS),
               self = pr_sget_num(o, PR_K_HOST_SELF_US);
        double total = pr_sget_num(o, PR_K_HOST_TOTAL_US),
               dev = pr_sget_num(o, PR_K_DEVICE_TOTAL_US);
        double on;

        if (nm == NULL || strncmp(nm, "aten::", 6) != 0 || !(calls > 0) ||
            !(self / calls >= OPAQUE_CALL_US) || !(self >= 0.9 * total) ||
            !(dev > 0) || !(dev < 0.1 * self))
            continue;
        on = part_us(cp, PR_K_HOST_OP, nm);
        if (!(on > 0))
            continue; /* not on the path: no part of the sum */
        sum += on;
        n++;
        if (!(on > best)) {
            fmt_ms(on, bt, sizeof(bt));
            ml = pr_append(more, sizeof(more), ml, ", %s %s", nm, bt);
        } else {
            char t[32], d[32];

            if (bn != NULL) { /* the one it displaces */
                fmt_ms(best, bt, sizeof(bt));
                ml = pr_append(more, sizeof(more), ml, ", %s %s", bn, bt);
            }
            bn = nm;
            best = on;
            fmt_ms(self / calls, t, sizeof(t));
            fmt_ms(dev / calls, d, sizeof(d));
            snprintf(ex, cap,
                     "%s spends %s a call in itself, %.1f%% of its time with "
                     "nothing recorded under it, for %s of device work a call",
                     nm, t, 100.0 * self / total, d);
        }
    }
    if (n > 1)
        pr_append(ex, cap, strlen(ex),
                  " (the largest of %d such operators; the other%s: %s a "
                  "step on the path)",
                  n, n > 2 ? "s" : "", more + 2);
    return sum;
}

/* Host operators, not launches, are most of the critical path (HTA's
 * timeline_analysis sample: aten::_foreach_mul_, forward and
 * Optimizer.step#Shampoo.step 99% of it, launches 1%).  The launch
 * finding already names host operators where launches are on the path;
 * here the host's own work is the lever, so the text names what it is
 * and what an expert changes for it: the optimizer step (fused, or
 * compiled), foreach operators on PyTorch's per-tensor fallback, Python
 * between operators (torch.compile).  No replay models these changes:
 * they replace host calls by kernels whose time the trace does not hold,
 * so the gain is null and gain_note gives the bound the path allows (the
 * named operators' own time on it). */
#define HOST_OPS_PCT 50.0
/* the share of the named operators' path time that, opaque, leaves the
 * host's work unknown */
#define OPAQUE_SHARE 0.33

/* hostcov.c's caveat in a finding: how much of the steps' host time no
 * recorded call explains, and whether events were dropped. */
static size_t
unrecorded_words(const cJSON *run, char *text, size_t cap, size_t len)
{
    const cJSON *h = pr_sget(run, PR_K_HOST_COVERAGE);
    double kept = pr_sget_num(h, PR_K_KEPT_EVENTS_PCT);
    char t[32];

    fmt_ms(pr_sget_num(h, PR_K_UNRECORDED_US), t, sizeof(t));
    if (pr_sget_run_is_capture(run))
        len = pr_append(text, cap, len,
                        " By host coverage (Data quality), %.0f%% of the "
                        "capture's host time (%s, over every thread) is "
                        "inside no recorded operator or runtime call, "
                        "ranges' own time included",
                        pr_sget_num(h, PR_K_UNRECORDED_PCT), t);
    else
        len = pr_append(text, cap, len,
                        " By host coverage (Data quality), %.0f%% of the "
                        "steps' host time (%s a step, over every thread) is "
                        "inside no recorded operator or runtime call, "
                        "ranges' own time included",
                        pr_sget_num(h, PR_K_UNRECORDED_PCT), t);
    if (kept < 90.0)
        len = pr_append(text, cap, len,
                        ", with %.1f%% of the host events the profiler "
                        "numbered kept in the trace",
                        kept);
    /* the trace's Python frames name it (review 32g #2) */
    if (pr_sget_host_python(run, text, cap, len) > len)
        return pr_append(text, cap, pr_sget_host_python(run, text, cap, len),
                         ": the host was in those Python functions there, "
                         "outside any recorded operator (Data quality).");
    return pr_append(text, cap, len,
                     ": what the host did there is not in the trace, so it "
                     "is not read as Python or host work (Data quality).");
}

/* The host_ops finding, with "Device underused" after it: that one
 * defers to the cause it names, both claim no gain, and those keep their
 * order in the ranking.  bound: bound_us (NAN: none), in the row as it is
 * written. */
static int
add_host_ops(cJSON *recs, const char *text, const char *note, double bound,
             cJSON **ev)
{
    /* its evidence: the operators it names, a step's time on the path */
    cJSON *o = add_no_gain(recs, "host_ops", text, note, bound, *ev);
    int i;

    if (o == NULL)
        return 0;
    cJSON_Delete(*ev); /* the row holds its copy */
    *ev = NULL;
    for (i = 0; i + 1 < cJSON_GetArraySize(recs); i++) {
        cJSON *u = cJSON_GetArrayItem(recs, i);

        if (pr_sget_is(pr_sget_str(u, PR_K_ID), "low_gpu_utilization"))
            return cJSON_AddItemToArray(recs,
                                        cJSON_DetachItemViaPointer(recs, u));
    }
    return 1;
}

/* The host_ops finding where what the host did is not in the trace: an
 * opaque operator's own time (opaque > 0, ex its words), or most of the
 * steps' host time inside no recorded call (unrec, hostcov.c).  No advice
 * and no gain: what to change is not known.  Consumes *ev. */
static int
host_ops_caveat(const cJSON *run, cJSON *recs, char *text, size_t len,
                double opaque, const char *ex, double named_us, int unrec,
                cJSON **ev)
{
    char t[32], cap_t[32], note[600], pyw[8];
    const char *per =
        pr_sget_run_is_capture(run) ? " in the capture" : " a step";
    /* the trace's Python frames hold the unrecorded time (hostcov.c):
       the stacks are there already, so no profile again for them */
    int st, py = unrec && pr_sget_host_python(run, pyw, sizeof(pyw), 0) > 0;

    fmt_ms(opaque, t, sizeof(t));
    if (opaque > 0)
        len = pr_append(
            text, PATH_TEXT, len,
            " But %s%s of it is time the trace cannot attribute: %s. "
            "An operator on device tensors only dispatches kernels, so the "
            "host thread was held elsewhere (a lock or the GIL, the OS "
            "scheduler, memory pressure) or the trace dropped the events "
            "inside it (a sampled trace).",
            t, per, ex);
    if (unrec)
        len = unrecorded_words(run, text, PATH_TEXT, len);
    /* a program that is not PyTorch's has no with_stack or Python to
       sample (review 30g #7: saxpy, MPI C under nsys) */
    if (py)
        pr_append(text, PATH_TEXT, len,
                  " Those functions' own time is where to look: read what "
                  "they do each call, or sample the host with py-spy for "
                  "the lines and C code inside them, before changing the "
                  "code for it.");
    else if (pr_run_is_torch(run) || pr_run_on_npu(run))
        pr_append(text, PATH_TEXT, len,
                  " Profile the %s again (with_stack=True, every event kept), "
                  "or sample the host with py-spy or perf, before changing "
                  "the code for it.",
                  pr_sget_run_is_capture(run) ? "run" : "step");
    else
        pr_append(text, PATH_TEXT, len,
                  " Sample the host (nsys profile --sample=process-tree "
                  "--backtrace=dwarf, or perf record -g) before changing the "
                  "code for it.");
    fmt_ms(named_us, cap_t, sizeof(cap_t));
    /* a bound on what is recorded (review 8 #4: hta trace_filter's
       aten::_foreach_mul_ 120.5 + _foreach_add_ 19.8 ms a step): the
       named operators' time on the path is all that freeing what holds
       them can save; the host's unrecorded time gets none */
    if (py)
        snprintf(note, sizeof(note),
                 "no estimate: most of the host's time is in Python "
                 "functions outside any recorded operator (Data quality), "
                 "so no change to it can be replayed; at most %s%s for "
                 "the operators it names (their time on the path, the "
                 "evidence), all that freeing what holds them could save; "
                 "no bound is given for the Python time",
                 cap_t, per);
    else if (unrec)
        snprintf(note, sizeof(note),
                 "no estimate: the trace does not record what the host did "
                 "in most of its host time (Data quality), so no change to "
                 "it can be replayed; at most %s%s for the operators "
                 "it names (their time on the path, the evidence), all that "
                 "freeing what holds them could save; the rest of the "
                 "host's time on the path is not in the trace, and no bound "
                 "is given for it",
                 cap_t, per);
    else
        snprintf(note, sizeof(note),
                 "no estimate: the trace does not record what the host did "
                 "in %s of the operators' %s%s on the path; at most %s%s, "
                 "their time on the path (the evidence)",
                 t, cap_t, per, cap_t, per);
    /* the named operators' time on the path bounds it, in its row as it
       is written */
    st = add_host_ops(recs, text, note, named_us > 0 ? named_us : NAN, ev);
    cJSON_Delete(*ev);
    *ev = NULL;
    return st;
}

/* A record_function range, not an operator (review-5 finding 7): a
 * user's or a library's label around work ("forward", "## backward ##",
 * "Optimizer.step#Shampoo.step", "DistributedDataParallel.forward"),
 * which says where the time went, not what ran (hostcov.c).  Operators
 * are namespaced (aten::mul_, c10d::allreduce_, fbgemm::...), autograd's
 * Functions (CompiledFunction, MulBackward0) and collectives
 * (nccl:all_reduce) name what ran; "[param|...]" are an execution
 * trace's nodes. */
static int
host_range(const char *name, const void *ctx)
{
    (void)ctx;
    return strchr(name, ':') == NULL && name[0] != '[' &&
           strstr(name, "Backward") == NULL &&
           strncmp(name, "CompiledFunction", 16) != 0;
}

static int
host_operator(const char *name, const void *ctx)
{
    return !host_range(name, ctx);
}

static int
in_ev(const cJSON *ev, const char *name)
{
    const cJSON *o;

    cJSON_ArrayForEach(o, ev)
    {
        if (pr_sget_is(pr_sget_str(o, PR_K_NAME), name))
            return 1;
    }
    return 0;
}

/* A part none of the lists named (ctx: the two evidence arrays). */
static int
not_named(const char *name, const void *ctx)
{
    const cJSON *const *named = ctx;

    return !in_ev(named[0], name) && !in_ev(named[1], name);
}

/* The host work on the path the text names no part of (review 6 finding
 * 11: operators 140.3 + ranges 186.1 + unrecorded 197.5 ms of HTA's
 * trace_filter's 609.4 ms): the host_op time a step less the named
 * operators and ranges and the time outside every event; its two
 * largest parts among the steps' largest parts of the path ("## backward
 * ## 10.6 ms") in buf, where the top holds any. */
static double
host_rest(const cJSON *cp, const cJSON *ops, const cJSON *ranges, double named,
          double outside, char *buf, size_t cap)
{
    struct part p[PARTS];
    const cJSON *lists[2] = {ops, ranges};
    size_t n, i, len = 0;
    double steps = gather_parts(cp, PR_K_HOST_OP, not_named, lists, p, &n);

    buf[0] = '\0';
    for (i = 0; i < n && i < 2 && steps > 0; i++) {
        char t[32];

        fmt_ms(p[i].us / steps, t, sizeof(t));
        len =
            pr_append(buf, cap, len, "%s%.80s %s", i ? ", " : "", p[i].name, t);
    }
    return pr_sget_num(pr_sget(cp, PR_K_BY_KIND_US), PR_K_HOST_OP) - named -
           outside;
}

static int
host_ops_from_path(const cJSON *run, const cJSON *cp, cJSON *recs)
{
    char text[PATH_TEXT], ops[300], t[32], cap_t[32], optim[160], note[600];
    char ranges[300], r_t[32], top[300], rest_parts[220];
    double ranges_us, all_pct, rest;
    cJSON *rev;
    size_t n_ranges;
    char pct[48], ex[300];
    double host_pct, launch_pct, named_us, outside, step, opaque;
    const char *cls = NULL;
    size_t len, named;
    int npu = pr_run_on_npu(run), python, st, unrec;
    /* a capture without steps is one window, not a step (review 30g #7) */
    const char *per =
        pr_sget_run_is_capture(run) ? " in the capture" : " a step";
    cJSON *ev;

    if (has_id(recs, "launch_bound") || has_id(recs, "host_ops") ||
        !pr_sget_is(pr_sget_str(cp, PR_K_BOUND), "host") || near_empty(run))
        return 1;
    if ((ev = cJSON_CreateArray()) == NULL)
        return 0;
    if ((rev = cJSON_CreateArray()) == NULL) {
        cJSON_Delete(ev);
        return 0;
    }
    /* one taxonomy: the evidence names operators; the ranges with
       nothing recorded inside them are named apart, with no advice of
       their own (review-5 finding 7) */
    named = path_parts_if(cp, "host_op", host_operator, ops, sizeof(ops),
                          &host_pct, &named_us, ev);
    n_ranges = path_parts_if(cp, "host_op", host_range, ranges, sizeof(ranges),
                             &all_pct, &ranges_us, rev);
    /* what the advice acts on: the path's largest parts of either sort,
       as before the split */
    path_parts(cp, "host_op", top, sizeof(top), &all_pct, NULL);
    if (named == SIZE_MAX || n_ranges == SIZE_MAX || named + n_ranges == 0 ||
        !(host_pct >= HOST_OPS_PCT)) {
        cJSON_Delete(ev);
        cJSON_Delete(rev);
        return named != SIZE_MAX && n_ranges != SIZE_MAX;
    }
    path_parts(cp, "launch", t, sizeof(t), &launch_pct, NULL);
    outside = part_mean(cp, "host_op", "(host, outside operators)", NULL, 0);
    rest = host_rest(cp, ev, rev, named_us + ranges_us, outside, rest_parts,
                     sizeof(rest_parts));
    cJSON_Delete(rev);
    /* hostcov.c's note: the trace leaves most host time unexplained */
    unrec = pr_sget_str(pr_sget(run, PR_K_HOST_COVERAGE), PR_K_NOTE) != NULL;
    fmt_ms(pr_sget_num(pr_sget(cp, PR_K_BY_KIND_US), PR_K_HOST_OP), t,
           sizeof(t));
    len =
        pr_append(text, sizeof(text), 0,
                  "Host work is %.0f%% of the critical path (%s%s): "
                  "%s%s%s",
                  host_pct, t, per, named > 0 ? "operators " : "",
                  named > 0 ? ops : "no operator named", named > 0 ? per : "");
    if (n_ranges > 0) {
        fmt_ms(ranges_us, r_t, sizeof(r_t));
        len = pr_append(text, sizeof(text), len,
                        "; %s%s in %s ranges, their own "
                        "time outside any operator recorded in them (%s), "
                        "which say where the time went, not what ran",
                        r_t, per,
                        /* an nsys export of a program without PyTorch:
                           its ranges are NVTX's (review 28h #11) */
                        pr_run_is_torch(run) ? "record_function" : "NVTX",
                        ranges);
    }
    fmt_ms(outside, t, sizeof(t));
    if (outside >= 0.1 * (named_us + ranges_us))
        len = pr_append(text, sizeof(text), len,
                        unrec ? "; %s%s outside every recorded event"
                              : "; Python between operators %s%s",
                        t, unrec ? per : "");
    else if (outside >= 0.02 * (named_us + ranges_us + outside + rest))
        len = pr_append(text, sizeof(text), len, "; %s%s outside operators", t,
                        per);
    fmt_ms(rest, r_t, sizeof(r_t));
    if (rest >= 0.02 * (named_us + ranges_us + outside + rest))
        len = pr_append(text, sizeof(text), len,
                        "; %s%s in other operators and ranges%s%s%s", r_t, per,
                        rest_parts[0] ? " (" : "", rest_parts,
                        rest_parts[0] ? ", then smaller ones)" : "");
    len = pr_append(text, sizeof(text), len,
                    ". The %s waits for the host's own work, not for its "
                    "launches (%.0f%% of the path), so %s would save little.",
                    npu ? "NPU" : "GPU", launch_pct,
                    npu ? "graph mode" : graphs_word(run));
    opaque = opaque_ops(run, cp, ex, sizeof(ex));
    if (opaque >= OPAQUE_SHARE * named_us)
        return host_ops_caveat(run, recs, text, len, opaque, ex, named_us,
                               unrec, &ev);
    if (strstr(top, "Optimizer.step#") != NULL &&
        part_mean(cp, "host_op", "Optimizer.step#", optim, sizeof(optim)) > 0) {
        char *dot = strrchr(optim, '.');

        cls = optim + strlen("Optimizer.step#");
        if (dot != NULL && dot > cls)
            *dot = '\0';
        if (strncmp(cls, "Fused", 5) == 0)
            cls = NULL; /* apex's or DeepSpeed's: fused already */
    }
    python = strstr(top, "forward") != NULL ||
             outside >= 0.1 * (named_us + ranges_us);
    if (cls == NULL && strstr(top, "aten::_foreach_") == NULL && !python &&
        strstr(top, "CompiledFunction") == NULL) {
        cJSON_Delete(ev);
        return 1; /* nothing on the path this advice knows how to cut */
    }
    if (unrec) /* the host's time is not in the trace: no advice on it */
        return host_ops_caveat(run, recs, text, len, 0, NULL, named_us, unrec,
                               &ev);
    if (cls != NULL && pr_sget_is(pr_sget_str(cp, PR_K_OPTIMIZER_IMPL), "own"))
        /* a hand-written optimizer of a torch.optim name (issue #29
           review: CS336's AdamW ran aten::mul/sub_/sqrt/div a tensor) */
        len = pr_append(text, sizeof(text), len,
                        " The optimizer's step is on the path, and its %s is "
                        "not torch.optim's (none of its aten::addcmul_, "
                        "aten::addcdiv_, aten::_foreach_* or aten::_fused_* "
                        "operators ran in it): %s%s(...%s) in its place "
                        "updates every parameter in a few kernels; or "
                        "compile the step (torch.compile of a function that "
                        "calls opt.step()%s).",
                        cls,
                        npu && npu_fused(cls) ? "torch_npu.optim.NpuFused"
                                              : "torch.optim.",
                        cls,
                        npu && npu_fused(cls)      ? ""
                        : !npu && torch_fused(cls) ? ", fused=True"
                                                   : ", foreach=True",
                        npu ? ", with torchair's NPU backend" : "");
    else if (cls != NULL && torch_fused(cls))
        len = pr_append(
            text, sizeof(text), len,
            " The optimizer's step is on the path: "
            "torch.optim.%s(..., fused=True) updates every "
            "parameter in a few kernels instead of per-tensor "
            "host calls; or compile the step (torch.compile of a "
            "function that calls opt.step())%s",
            cls,
            /* the same operators from a hand-written class
               (issue #29 review): no flag to pass there */
            pr_sget_is(pr_sget_str(cp, PR_K_OPTIMIZER_IMPL), "single_tensor")
                ? ". A hand-written class of that name and form "
                  "(aten::addcmul_ and aten::addcdiv_ a "
                  "parameter) has no such flag: use torch.optim's "
                  "in its place."
                : ".");
    else if (cls != NULL)
        len = pr_append(text, sizeof(text), len,
                        " The optimizer's step is on the path (%s): it has no "
                        "fused form in torch.optim, so compile its step "
                        "(torch.compile of a function that calls opt.step(), "
                        "PyTorch's compiled-optimizer recipe), which fuses its "
                        "per-tensor arithmetic into a few kernels.",
                        cls);
    if (cls != NULL)
        len = optimizer_state(text, sizeof(text), len, cp, cls, npu);
    if (strstr(ops, "aten::_foreach_") != NULL)
        len = pr_append(text, sizeof(text), len,
                        " aten::_foreach_* operators are multi-tensor calls "
                        "that should cost the host little: this much host "
                        "time in them means very many tensors, or PyTorch's "
                        "per-tensor fallback (the fast path needs every "
                        "tensor of the lists on one device, of one dtype, "
                        "dense and strided; per-tensor aten::mul_/aten::add_ "
                        "under them in the trace show the fallback).");
    if (python)
        len = pr_append(text, sizeof(text), len,
                        " The forward pass and the Python between operators "
                        "are the interpreter's work: torch.compile(model) "
                        "runs the captured graph as fused kernels instead of "
                        "stepping through the Python each step.");
    if (strstr(ops, "CompiledFunction") != NULL)
        host_op_advice(run, ops, text, sizeof(text), len, 1);
    step = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
    named_us += ranges_us; /* the forward and the optimizer's step */
    if (python)
        named_us += outside;
    fmt_ms(named_us, cap_t, sizeof(cap_t));
    pct[0] = '\0';
    if (step > 0)
        snprintf(pct, sizeof(pct), " (%.0f%% of the %s)",
                 100.0 * named_us / step, pr_run_window(run));
    snprintf(note, sizeof(note),
             "no estimate: no replay models a fused or compiled optimizer or "
             "a compiled model (they replace host calls by kernels whose time "
             "this trace does not hold); the time on the path of the "
             "operators%s named%s, %s a step%s, is the most they can save",
             n_ranges > 0 ? " and ranges" : "",
             python ? " and of the Python between operators" : "", cap_t, pct);
    st = add_host_ops(recs, text, note, NAN, &ev);
    cJSON_Delete(ev);
    return st;
}

/* Gradients all-reduced one small message at a time (HTA's
 * df_index_resolver: 2,020 nccl:all_reduce in 5 steps, 177 us each).
 * DistributedDataParallel reduces gradients in buckets of bucket_cap_mb
 * (25 MB by default; its first bucket 1 MB), so a model of a few hundred
 * million fp32 parameters needs a few dozen all-reduces a step, each of
 * megabytes.  Many AND small per step is the sign of per-tensor
 * reduction (all_reduce in a hook or a loop, tiny buckets, or a compiled
 * graph's functional all-reduces): at least SMALL_AR_CALLS a step, with a
 * mean message under SMALL_AR_BYTES (DDP's smallest bucket); where the
 * trace records no sizes, the call pattern alone: each all-reduce its own
 * c10d::allreduce_ call (not the kernel's name: NCCL's generic kernels
 * carry _LL_ whatever protocol ran, review 7 #6).  Inside a compiled
 * backward (CompiledFunctionBackward, with an aten::clone a call: the
 * functional collectives' copy) the lever is the compiler's bucketing,
 * not DDP's wrapper.  PyTorch only (DDP's words); MindSpore fuses its
 * gradients by its own config. */
#define SMALL_AR_CALLS 32.0
#define SMALL_AR_BYTES (1024.0 * 1024.0)

/* The calls of the operator named name; 0 none. */
static double
op_calls(const cJSON *run, const char *name)
{
    const cJSON *o;

    cJSON_ArrayForEach(o, pr_sget(run, PR_K_OPERATORS))
    {
        if (pr_sget_is(pr_sget_str(o, PR_K_NAME), name))
            return pr_sget_num(o, PR_K_CALLS);
    }
    return 0;
}

static int
small_allreduce(const cJSON *run, const cJSON *cp, cJSON *recs)
{
    const cJSON *op, *ar = NULL;
    double steps = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_COUNT);
    double calls, bytes, mean_b = NAN, on_path, step, comm, ov, c10d;
    char text[PATH_TEXT], note[500], t[32], m[48] = "", pct[48] = "";
    int compiled;
    size_t len;

    if (has_id(recs, "small_allreduce") ||
        !pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "pytorch") ||
        !(steps > 0))
        return 1;
    cJSON_ArrayForEach(op, pr_sget(pr_sget(run, PR_K_COMMUNICATION), PR_K_OPS))
    {
        const char *n = pr_sget_str_or(op, PR_K_NAME, "");
        const char *c = strchr(n, ':');

        if (c != NULL && strcmp(c, ":all_reduce") == 0 &&
            (ar == NULL ||
             pr_sget_num(op, PR_K_CALLS) > pr_sget_num(ar, PR_K_CALLS)))
            ar = op;
    }
    calls = pr_sget_num(ar, PR_K_CALLS);
    if (ar == NULL || !(calls / steps >= SMALL_AR_CALLS))
        return 1;
    bytes = pr_sget_num(ar, PR_K_TOTAL_BYTES);
    if (bytes > 0)
        mean_b = bytes / calls;
    /* unsized: one c10d::allreduce_ a call, a call per tensor */
    c10d = op_calls(run, "c10d::allreduce_");
    if (!isnan(mean_b) ? !(mean_b < SMALL_AR_BYTES) : !(c10d >= calls))
        return 1;
    compiled = op_calls(run, "CompiledFunctionBackward") > 0 &&
               op_calls(run, "aten::clone") >= calls;
    fmt_ms(pr_sget_num(ar, PR_K_MEAN_US), t, sizeof(t));
    if (!isnan(mean_b))
        snprintf(m, sizeof(m), ", %.0f KB each on average", mean_b / 1024);
    comm = pr_sget_num(pr_sget(run, PR_K_COMMUNICATION), PR_K_COMMUNICATION_US);
    ov = pr_sget_num(pr_sget(run, PR_K_COMMUNICATION), PR_K_OVERLAP_US);
    len = pr_append(
        text, sizeof(text), 0,
        "Many %sall-reduces: %.0f %.60s calls in %.0f step%s (%.0f a "
        "step, %s of device time each on average%s%s). Gradients reduced "
        "this way are not bucketed: DistributedDataParallel reduces them in "
        "buckets of bucket_cap_mb (25 MB by default), one all-reduce per 25 "
        "MB of gradients, and each call pays NCCL's fixed latency and a host "
        "call.",
        isnan(mean_b) ? "" : "small ", calls,
        pr_sget_str_or(ar, PR_K_NAME, "?"), steps, steps == 1 ? "" : "s",
        calls / steps, t, m,
        isnan(mean_b) ? "; the trace records no sizes, so how small is not "
                        "known: the count and the calls' pattern, one "
                        "c10d::allreduce_ a call, are the sign"
                      : "");
    if (comm > 0 && ov >= 0)
        len = pr_append(text, sizeof(text), len,
                        " Communication overlaps computation %.0f%% of its "
                        "time a step (%.1f of %.1f ms), where DDP's buckets "
                        "run while backward computes the next ones.",
                        100.0 * ov / comm, ov / 1000, comm / 1000);
    if (compiled)
        /* torch/_dynamo/backends/distributed.py (DDPOptimizer),
           torch/_inductor/fx_passes/ddp_fusion.py (_fuse_ddp_communication)
        */
        pr_append(
            text, sizeof(text), len,
            " The calls run inside torch.compile's backward "
            "(CompiledFunctionBackward, %.0f calls) each after an aten::clone "
            "(%.0f calls): functional all-reduces traced into the compiled "
            "graph, one per gradient, which no DDP reducer buckets. Wrap the "
            "model in torch.nn.parallel.DistributedDataParallel before "
            "torch.compile, so that Dynamo's DDPOptimizer "
            "(torch._dynamo.config.optimize_ddp, on by default) splits the "
            "graph at DDP's buckets and DDP's reducer all-reduces each "
            "bucket while backward runs; with compiled autograd, "
            "optimize_ddp=\"python_reducer\" traces the reducer into the "
            "graph, and Inductor's torch._inductor.config."
            "_fuse_ddp_communication (a private flag; _fuse_ddp_bucket_size "
            "sets the bucket) fuses the graph's all-reduces into buckets.",
            op_calls(run, "CompiledFunctionBackward"),
            op_calls(run, "aten::clone"));
    else
        pr_append(
            text, sizeof(text), len,
            " Wrap the model in torch.nn.parallel.DistributedDataParallel "
            "instead of calling all_reduce per parameter (in a hook or a "
            "loop); if it is DDP already, check bucket_cap_mb is not set "
            "tiny. gradient_as_bucket_view=True saves the copy of each "
            "gradient into its bucket.");
    switch (replayed(cp, "small_allreduce")) {
    case 1: /* the bucketing replay's gain (pr_whatif_recommend) */
        return add(recs, "small_allreduce", text);
    case -1: /* merging them saves nothing on the path */
        return 1;
    default:
        break;
    }
    on_path =
        part_mean(cp, "host_op", pr_sget_str_or(ar, PR_K_NAME, "?"), NULL, 0) +
        part_mean(cp, "communication", pr_sget_str_or(ar, PR_K_NAME, "?"), NULL,
                  0);
    step = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
    fmt_ms(on_path, t, sizeof(t));
    if (step > 0)
        snprintf(pct, sizeof(pct), " (%.1f%% of the %s)",
                 100.0 * on_path / step, pr_run_window(run));
    if (on_path > 0)
        snprintf(note, sizeof(note),
                 "no estimate: no replay merges collectives (the merged "
                 "messages' time depends on the link and NCCL's protocol "
                 "choice); the %.60s calls' time on the critical path, %s a "
                 "step%s, is the most merging them can save there",
                 pr_sget_str_or(ar, PR_K_NAME, "?"), t, pct);
    else
        snprintf(note, sizeof(note),
                 "no estimate: no replay merges collectives, and the %.60s "
                 "calls are not on the critical path: merging them frees the "
                 "link and the device, not this step's path",
                 pr_sget_str_or(ar, PR_K_NAME, "?"));
    return add_no_gain(recs, "small_allreduce", text, note, NAN, NULL) != NULL;
}

/* ATen operators that compute nothing (views, metadata, allocation): the
 * host time of each is PyTorch's dispatch alone, 1-8 us a call on the
 * shared PyTorch 2.x traces (measured, mean over these operators:
 * trace_diff control 2.0 us over 16,575 calls, test 4.4, df_index_resolver
 * 7.4 over 21,010, the nsys exports 3.2-4.4) and 13-15 us on the 2021
 * ResNet-50 trace.  HTA's nccl_parser_config sample spends 29.1 us a call
 * over 4,857 (aten::empty 32.7, aten::view 24.0 us) on a path that is 93%
 * host work (review-3 finding 5): dispatch itself is slow there, which no
 * change to the model fixes.  Fires on a host-bound CUDA path where these
 * operators make SLOW_CALLS calls or more with a mean of SLOW_MEAN_US or
 * more; torch_npu's dispatch is slower by design (the shared torch_npu
 * traces: about 32 us over 133 calls) and is left out. */
#define SLOW_CALLS 1000.0
#define SLOW_MEAN_US 20.0
/* What such a call still costs where dispatch is healthy: the lowest
 * mean above (trace_diff control, 2.0 us).  The bound, the most a fix
 * can save, leaves it in every call (review 5 finding 6: 47.2 ms a step
 * read as all of the calls' time going away). */
#define SLOW_FLOOR_US 2.0

static const char *const trivial_ops[] = {
    "aten::view",         "aten::empty",   "aten::empty_strided",
    "aten::as_strided",   "aten::detach",  "aten::t",
    "aten::transpose",    "aten::reshape", "aten::expand",
    "aten::slice",        "aten::select",  "aten::unsqueeze",
    "aten::squeeze",      "aten::permute", "aten::alias",
    "aten::_unsafe_view", "aten::resize_",
};

static int
trivial_op(const char *n)
{
    size_t i;

    for (i = 0; n != NULL && i < sizeof(trivial_ops) / sizeof(trivial_ops[0]);
         i++) {
        if (strcmp(n, trivial_ops[i]) == 0)
            return 1;
    }
    return 0;
}

void
pr_path_dispatch_picks(const cJSON *run, struct pr_whatif_in *in)
{
    const cJSON *o;
    double calls = 0, self = 0;

    in->n_dispatch = 0;
    if (pr_run_on_npu(run))
        return;
    cJSON_ArrayForEach(o, pr_sget(run, PR_K_OPERATORS))
    {
        double c = pr_sget_num(o, PR_K_CALLS),
               h = pr_sget_num(o, PR_K_HOST_SELF_US);

        if (trivial_op(pr_sget_str(o, PR_K_NAME)) && c > 0 && h >= 0) {
            calls += c;
            self += h;
        }
    }
    /* the rule's own figures (slow_dispatch); its path condition is
       checked once the path is known */
    if (!(calls >= SLOW_CALLS) || !(self / calls >= SLOW_MEAN_US))
        return;
    cJSON_ArrayForEach(o, pr_sget(run, PR_K_OPERATORS))
    {
        double c = pr_sget_num(o, PR_K_CALLS),
               h = pr_sget_num(o, PR_K_HOST_SELF_US);

        if (!trivial_op(pr_sget_str(o, PR_K_NAME)) || !(c > 0) ||
            !(h / c > SLOW_FLOOR_US) ||
            in->n_dispatch >= PR_WHATIF_MAX_DISPATCH)
            continue;
        in->dispatch[in->n_dispatch].op = pr_sget_str(o, PR_K_NAME);
        in->dispatch[in->n_dispatch++].factor = SLOW_FLOOR_US / (h / c);
    }
}

/* The profiler options that add to every call, as far as the trace shows
 * them: shapes recorded (record_shapes), stacks (with_stack), memory events
 * (profile_memory).  Writes "record_shapes and with_stack" for those on
 * into on, those off into off (each of size bytes); returns how many were
 * on. */
static int
profiler_costs(const cJSON *run, char *on, char *off, size_t size)
{
    static const char *const names[3] = {"record_shapes", "with_stack",
                                         "profile_memory"};
    int flag[3] = {0, 0, 0}, n[2] = {0, 0}, k[2] = {0, 0}, i;
    size_t len[2] = {0, 0};
    char *out[2] = {off, on};
    const cJSON *o;

    cJSON_ArrayForEach(o, pr_sget(run, PR_K_OPERATORS_BY_SHAPE))
    {
        const char *sh = pr_sget_str(o, PR_K_INPUT_SHAPES);

        flag[0] |= sh != NULL && sh[0] != '\0' && strcmp(sh, "[]") != 0;
    }
    flag[1] = pr_sget_num(pr_sget(run, PR_K_SOURCE_VIEW),
                          PR_K_OPERATORS_WITH_STACK) > 0;
    o = pr_sget(run, PR_K_MEMORY);
    flag[2] = o != NULL && !cJSON_IsNull(o);
    for (i = 0; i < 3; i++)
        n[flag[i]]++;
    on[0] = off[0] = '\0';
    for (i = 0; i < 3; i++) {
        int w = flag[i];

        len[w] = pr_append(out[w], size, len[w], "%s%s",
                           k[w] == 0          ? ""
                           : k[w] == n[w] - 1 ? " and "
                                              : ", ",
                           names[i]);
        k[w]++;
    }
    return n[1];
}

static int
slow_dispatch(const cJSON *run, const cJSON *cp, cJSON *recs)
{
    const cJSON *o, *top[2] = {NULL, NULL};
    double calls = 0, self = 0, host_pct, steps;
    char text[PATH_TEXT], note[300], ops[300], t[32], bt[32], on[80], off[80];
    size_t len, i;
    int n_on;
    cJSON *r, *ev;

    if (has_id(recs, "slow_dispatch") || pr_run_on_npu(run) ||
        !pr_sget_is(pr_sget_str(cp, PR_K_BOUND), "host"))
        return 1;
    path_parts(cp, "host_op", ops, sizeof(ops), &host_pct, NULL);
    if (!(host_pct >= HOST_OPS_PCT))
        return 1;
    cJSON_ArrayForEach(o, pr_sget(run, PR_K_OPERATORS))
    {
        double c = pr_sget_num(o, PR_K_CALLS),
               h = pr_sget_num(o, PR_K_HOST_SELF_US);

        if (!trivial_op(pr_sget_str(o, PR_K_NAME)) || !(c > 0) || !(h >= 0))
            continue;
        calls += c;
        self += h;
        /* the two with the most calls, ties by name */
        for (i = 0; i < 2; i++) {
            if (top[i] == NULL || c > pr_sget_num(top[i], PR_K_CALLS) ||
                (c == pr_sget_num(top[i], PR_K_CALLS) &&
                 strcmp(pr_sget_str(o, PR_K_NAME),
                        pr_sget_str(top[i], PR_K_NAME)) < 0)) {
                if (i == 0)
                    top[1] = top[0];
                top[i] = o;
                break;
            }
        }
    }
    if (!(calls >= SLOW_CALLS) || !(self / calls >= SLOW_MEAN_US))
        return 1;
    steps = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_COUNT);
    steps = steps > 0 ? steps : 1; /* evidence and note: a step's time */
    len = pr_append(
        text, sizeof(text), 0,
        "Slow host dispatch: PyTorch operators that compute "
        "nothing (views, allocation, metadata) take %.1f \xC2\xB5s of "
        "host time a call on average over %.0f calls",
        self / calls, calls);
    for (i = 0; i < 2 && top[i] != NULL; i++)
        len = pr_append(text, sizeof(text), len, "%s%s %.1f \xC2\xB5s x %.0f",
                        i == 0 ? " (" : ", ", pr_sget_str(top[i], PR_K_NAME),
                        pr_sget_num(top[i], PR_K_HOST_SELF_US) /
                            pr_sget_num(top[i], PR_K_CALLS),
                        pr_sget_num(top[i], PR_K_CALLS));
    len = pr_append(
        text, sizeof(text), len,
        "%s, where PyTorch's dispatcher usually takes a few microseconds "
        "for such a call, on a critical path that is %.0f%% host work. The "
        "host "
        "runs PyTorch's dispatcher several times slower than it should: look "
        "for CPU contention (more busy threads than cores: data-loader "
        "workers, OMP_NUM_THREADS, other processes on the node), CPU "
        "frequency scaling or a throttled container",
        top[0] != NULL ? ")" : "", host_pct);
    /* the profiler's options cost only where the trace shows them on
       (review 13 #8) */
    n_on = profiler_costs(run, on, off, sizeof(on));
    if (n_on == 0)
        len = pr_append(text, sizeof(text), len,
                        " before changing the model. The profiler's per-call "
                        "options are ruled out: this trace recorded no "
                        "shapes, no stacks and no memory events (%s were "
                        "off).",
                        off);
    else
        len = pr_append(text, sizeof(text), len,
                        ", and the profiler's own cost (%s %s on in this "
                        "trace and add%s to every call: profile a step with "
                        "%s off to compare%s%s%s) before changing the model.",
                        on, n_on == 1 ? "was" : "were", n_on == 1 ? "s" : "",
                        n_on == 1 ? "it" : "them", n_on < 3 ? "; " : "", off,
                        n_on < 3 ? (n_on == 2 ? " was off" : " were off") : "");
    switch (replayed(cp, "slow_dispatch")) {
    case 1: /* the replay of 2 us a call (pr_whatif_recommend) */
        return add(recs, "slow_dispatch", text);
    case -1: /* their host time is off the path: nothing saved */
        return 1;
    default:
        break;
    }
    fmt_ms(self / steps, t, sizeof(t));
    fmt_ms((self - calls * SLOW_FLOOR_US) / steps, bt, sizeof(bt));
    snprintf(note, sizeof(note),
             "no estimate: the trace does not say why dispatch is slow; "
             "these operators hold %s of host time a step, and at most %s of "
             "it can go (each call keeps a healthy dispatch's %.0f \xC2\xB5s)",
             t, bt, SLOW_FLOOR_US);
    if ((ev = cJSON_CreateArray()) == NULL)
        return 0;
    for (i = 0; i < 2 && top[i] != NULL; i++) {
        if (!pr_emit_evidence(ev, pr_sget_str(top[i], PR_K_NAME),
                              pr_sget_num(top[i], PR_K_HOST_SELF_US) / steps,
                              NAN)) {
            cJSON_Delete(ev);
            return 0;
        }
    }
    r = add_no_gain(recs, "slow_dispatch", text, note,
                    (self - calls * SLOW_FLOOR_US) / steps, ev);
    cJSON_Delete(ev); /* the row holds its copy */
    return r != NULL;
}

/* Device-to-device copies on the critical path: this share of the mean
 * step or more fires the rule. */
#define DTOD_MIN_SHARE 0.05

/* The path's DtoD copies, as a mean per step with a path (the tops'
 * copy parts whose name says Device -> Device). */
static int
is_dtod(const char *name, const void *ctx)
{
    (void)ctx;
    return strstr(name, "DtoD") != NULL ||
           strstr(name, "Device -> Device") != NULL;
}

static double
dtod_on_path(const cJSON *cp)
{
    return parts_us(cp, PR_K_COPY, is_dtod, NULL);
}

/* "CompiledFunctionBackward > aten::copy_ (1.88 GB, 5.7 ms a step), ..."
 * from copies.dtod_by_operator into buf; the share of the DtoD copy time
 * (dur, the whole capture) those sources hold in *named_pct, and of it
 * inside a torch.compile graph (CompiledFunction, CompiledFunctionBackward)
 * in *compiled_pct.  0 when the run has no sources. */
static size_t
copy_sources(const cJSON *run, double steps, double dur, char *buf, size_t cap,
             double *named_pct, double *compiled_pct)
{
    const cJSON *o;
    double named = 0, compiled = 0;
    size_t len = 0;
    char t[32];

    buf[0] = '\0';
    cJSON_ArrayForEach(
        o, pr_sget(pr_sget(run, PR_K_COPIES), PR_K_DTOD_BY_OPERATOR))
    {
        const char *n = pr_sget_str_or(o, PR_K_NAME, "?");
        double us = pr_sget_num(o, PR_K_DURATION_US);

        if (!(us >= 0))
            continue;
        named += us;
        compiled += strstr(n, "CompiledFunction") != NULL ? us : 0;
        fmt_ms(us / steps, t, sizeof(t));
        len = pr_append(buf, cap, len, "%s%.120s (%.2f GB, %s a step)",
                        len ? ", " : "", n,
                        pr_sget_num(o, PR_K_BYTES) / steps / 1e9, t);
    }
    *named_pct = dur > 0 ? 100.0 * named / dur : 0;
    *compiled_pct = dur > 0 ? 100.0 * compiled / dur : 0;
    return len;
}

/* The sources as evidence: each chain with its copy time a step. */
static cJSON *
copy_evidence(const cJSON *run, double steps)
{
    const cJSON *o;
    cJSON *ev = cJSON_CreateArray();

    cJSON_ArrayForEach(
        o, pr_sget(pr_sget(run, PR_K_COPIES), PR_K_DTOD_BY_OPERATOR))
    {
        if (!pr_emit_evidence(ev, pr_sget_str_or(o, PR_K_NAME, "?"),
                              pr_sget_num(o, PR_K_DURATION_US) / steps, NAN)) {
            cJSON_Delete(ev);
            return NULL;
        }
    }
    return ev;
}

#define DTOD_EAGER                                                             \
    "They are copies the program makes on the device: .clone(), "              \
    ".contiguous() of a transposed or sliced view, torch.cat or stack, a "     \
    "same-device .to() or copy_(). Avoid the copy at its source: keep "        \
    "views, write into preallocated outputs (out=), concatenate once "         \
    "instead of per step."

/* Where most of the copy time is a compiled graph's own (review of hta
 * trace_diff test: 99% under CompiledFunction / CompiledFunctionBackward):
 * no eager line of code issues them, the graph AOT autograd built does. */
#define DTOD_COMPILED                                                          \
    "Most of them run inside torch.compile graphs (CompiledFunction and "      \
    "CompiledFunctionBackward are AOT autograd's forward and backward): "      \
    "the compiled graph issues these aten::copy_ and aten::clone calls, "      \
    "not a line of eager code. A compiled graph copies where the "             \
    "functionalized program must materialize a tensor: an input the model "    \
    "updates in place (copy_ writes the new value back into it), a clone "     \
    "of a value an output would alias, a view made contiguous. Read the "      \
    "graphs (TORCH_LOGS=\"aot_graphs\") for their copy_ and clone nodes, "     \
    "and avoid in-place updates of the compiled function's inputs and "        \
    ".clone()/.contiguous() inside the compiled region."

/* Where most of the copy time is a CUDA-graphed compiled function's
 * wrapper (review 5 finding 1: on hta trace_diff test each
 * CompiledFunction / CompiledFunctionBackward call is one cudaGraphLaunch
 * between ~200 aten::copy_ and ~200 aten::clone): the copies are the
 * wrapper's, not the functionalized graph's.  The "cudagraphs" backend
 * of torch 2.0 to 2.3 (torch/_dynamo/backends/cudagraphs.py,
 * CudaGraphModule.__call__) copies every input into its static inputs,
 * replays, and clones every output (gpu_a #4: not 2.0's alone: the class
 * is still there at 4af0e634bf, #121018, 2024-03, whose revert #121864
 * before the 2.3 cut left it the 2.3 backend; #122713 replaced it); Inductor's
 * CUDA-graph trees (torch/_inductor/cudagraph_trees.py,
 * _copy_inputs_and_remove_from_src over non_static_input_idx) copy only
 * the inputs that are not parameters or buffers and return outputs from
 * the graph's pool uncloned.  The "cudagraphs" backend itself runs on the
 * trees (cudagraphify_impl from cudagraph_trees) since pytorch/pytorch
 * #122713, merged 2024-03-27 after 2.3's branch cut (2024-03-15, #121974):
 * torch 2.4 and later (review 6 #14).  Checked (review 10 #7) against the
 * PR threads, not the tags (the repository's snapshot is too large to
 * fetch here): the first landing, #121019 ("Switch torch.compile(...,
 * backend="cudagraphs") to use cudagraph trees"), was reverted by #121864
 * (2024-03-14, compile time) before the 2.3 cut; the reapply #122713
 * landed before 2.4's cut (2024-06-12, #128514), no revert of it is on
 * record, and today's torch/_dynamo/backends/cudagraphs.py imports
 * cudagraphify_impl from torch._inductor.cudagraph_trees. */
static size_t
wrapper_text(const cJSON *w, double steps, double dur, char *buf, size_t cap,
             size_t len)
{
    double in_us = pr_sget_num(w, PR_K_INPUT_US),
           out_us = pr_sget_num(w, PR_K_OUTPUT_US);

    return pr_append(
        buf, cap, len,
        "They are the CUDA-graph wrapper's copies: CompiledFunction / "
        "CompiledFunctionBackward calls launch %.0f CUDA graphs a step "
        "(cudaGraphLaunch), and in the same calls %.0f copies a step "
        "(%.2f GB) run before the launch and %.0f (%.2f GB) after it, "
        "%.0f%% of the copy time. That is a CUDA-graphed compiled function "
        "copying its inputs (a module's parameters among them) into the "
        "graph's static input buffers before the replay and cloning its "
        "outputs after it (the \"cudagraphs\" backend of torch 2.0 to 2.3, "
        "CudaGraphModule in torch/_dynamo/backends/cudagraphs.py, copies "
        "every input and clones every output); the compiled graph itself "
        "does not issue them, so its graphs (TORCH_LOGS=\"aot_graphs\") "
        "will not show them. From torch 2.4 the same backend=\"cudagraphs\" "
        "runs on Inductor's CUDA-graph trees (torch/_inductor/"
        "cudagraph_trees.py), which keep parameters and buffers at static "
        "addresses and copy only the other inputs, and return outputs from "
        "the graph's memory pool without cloning them: upgrading torch, "
        "with the backend unchanged, is the lighter lever. "
        "torch.compile(mode=\"reduce-overhead\") runs on the same trees "
        "but also compiles the graph with Inductor (its own generated "
        "kernels), a larger change than the copies. Otherwise keep the "
        "inputs at stable addresses (fill static buffers yourself), so that "
        "fewer of them need a copy.",
        pr_sget_num(w, PR_K_GRAPH_LAUNCHES) / steps,
        pr_sget_num(w, PR_K_INPUT_COPIES) / steps,
        pr_sget_num(w, PR_K_INPUT_BYTES) / steps / 1e9,
        pr_sget_num(w, PR_K_OUTPUT_COPIES) / steps,
        pr_sget_num(w, PR_K_OUTPUT_BYTES) / steps / 1e9,
        dur > 0 ? 100.0 * (in_us + out_us) / dur : 0);
}

/* The wrapper's copies, where they are most of the DtoD copy time. */
static const cJSON *
graph_wrapper(const cJSON *run, double dur)
{
    const cJSON *w = pr_sget(pr_sget(run, PR_K_COPIES), PR_K_GRAPH_WRAPPER);
    double us = pr_sget_num(w, PR_K_INPUT_US) + pr_sget_num(w, PR_K_OUTPUT_US);

    return w != NULL && dur > 0 && us >= 0.5 * dur ? w : NULL;
}

/* Large device-to-device copies on the critical path (second review,
 * finding 16: HTA's trace_diff test moves 4.65 GB a step in 774 DtoD
 * copies, 15.2 ms of its path, and read "No finding").  Copies inside the
 * device's memory are the program's own (clone, contiguous, cat, a
 * same-device .to); no replay knows which it could avoid, so no gain is
 * claimed: their time on the path is the most avoiding them saves
 * (bound_us).  The operators that issue them (copies.dtod_by_operator)
 * are named, and the advice is a compiled graph's where most of their
 * time is under CompiledFunction / CompiledFunctionBackward. */
static int
device_copies(const cJSON *run, const cJSON *cp, cJSON *recs)
{
    const cJSON *k;
    double steps = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_COUNT);
    double step = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
    double n = 0, bytes = 0, dur = 0, on_path = dtod_on_path(cp);
    double named_pct, compiled_pct;
    char text[PATH_TEXT * 2], note[400], t[32], d[32], srcs[700];
    size_t len;
    cJSON *r, *ev;

    if (has_id(recs, "device_copies") || !(steps > 0) || !(step > 0) ||
        !(on_path >= DTOD_MIN_SHARE * step))
        return 1;
    cJSON_ArrayForEach(k, pr_sget(pr_sget(run, PR_K_COPIES), PR_K_BY_KIND))
    {
        if (!pr_sget_is(pr_sget_str(k, PR_K_DIRECTION), "DtoD"))
            continue;
        n += pr_sget_num(k, PR_K_COUNT);
        bytes += pr_sget_num(k, PR_K_BYTES);
        dur += pr_sget_num(k, PR_K_DURATION_US);
    }
    if (!(n > 0) || !(dur > 0))
        return 1;
    fmt_ms(on_path, t, sizeof(t));
    fmt_ms(dur / steps, d, sizeof(d));
    len = pr_append(text, sizeof(text), 0,
                    "Device-to-device copies on the critical path: %.0f a "
                    "step move %.2f GB in %s of copy time (%.0f GB/s, each "
                    "byte read and written in the device's memory), %s a "
                    "step of the path (%.1f%% of the step). ",
                    n / steps, bytes / steps / 1e9, d, bytes / dur / 1e3, t,
                    100.0 * on_path / step);
    if (copy_sources(run, steps, dur, srcs, sizeof(srcs), &named_pct,
                     &compiled_pct) > 0)
        len = pr_append(text, sizeof(text), len,
                        "The operators that issue them: %s; %.0f%% of the "
                        "copy time. ",
                        srcs, named_pct);
    else
        len = pr_append(text, sizeof(text), len,
                        "Find the operators that issue them (aten::copy_, "
                        "aten::clone, aten::contiguous, aten::cat in the "
                        "Operators section, by the line of code in Source). ");
    if (graph_wrapper(run, dur) != NULL)
        (void)wrapper_text(graph_wrapper(run, dur), steps, dur, text,
                           sizeof(text), len);
    else
        (void)pr_append(text, sizeof(text), len, "%s",
                        compiled_pct >= 50.0 ? DTOD_COMPILED : DTOD_EAGER);
    if (graph_wrapper(run, dur) != NULL) {
        /* the wrapper's copies: replayed as CUDA-graph trees make them
           (replays.c); no gain on the path, no finding */
        switch (replayed(cp, "device_copies")) {
        case 1:
            return add(recs, "device_copies", text);
        case -1:
            return 1;
        default:
            break;
        }
    }
    snprintf(note, sizeof(note),
             "no estimate: no replay knows which copies the program can "
             "do without; their time on the critical path, %s a step "
             "(%.1f%% of the step), is the most avoiding them can save",
             t, 100.0 * on_path / step);
    if ((ev = copy_evidence(run, steps)) == NULL)
        return 0;
    r = add_no_gain(recs, "device_copies", text, note, on_path, ev);
    cJSON_Delete(ev); /* the row holds its copy */
    return r != NULL;
}

int
pr_path_findings(const cJSON *run, cJSON *recs)
{
    const cJSON *cp = pr_sget(run, PR_K_CRITICAL_PATH);

    if (!cJSON_IsArray(pr_sget(cp, PR_K_WHAT_IF)) ||
        cJSON_IsTrue(pr_sget(run, PR_K_HOST_ONLY)))
        return 1;
    return launch_from_path(run, cp, recs) && sync_from_path(run, cp, recs) &&
           host_ops_from_path(run, cp, recs) && slow_dispatch(run, cp, recs) &&
           small_allreduce(run, cp, recs) && device_copies(run, cp, recs);
}
