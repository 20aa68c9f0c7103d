/* recommend.c - every recommendation of a run: the plugin's rules (7.5)
 * and profreport's efficiency rules, in one ordered table.  Each rule
 * reads C values (struct pr_rec_facts: the passes' rows, as analysis.c
 * hands them over) and adds at most one entry; the analyses themselves
 * only measure. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/comm.h"
#include "profreport/dtype.h"
#include "profreport/flops.h"
#include "profreport/kclass.h"
#include "profreport/keys.h"
#include "profreport/producer.h"
#include "profreport/recommend.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/shapes.h"
#include "profreport/shorten.h"
#include "profreport/tensorcore.h"
#include "profreport/whatif.h"

#include "../internal.h"

#define REC_TEXT 2400

struct rctx {
    const struct pr_rec_facts *f;    /* borrowed; never NULL */
    const struct pr_rec_tables *tb;  /* f's */
    const struct pr_hostdev_out *hd; /* tb's */
    int npu;          /* an Ascend run: the advice names the NPU, CANN */
    const cJSON *run; /* the run being advised */
    cJSON *arr;       /* run's "recommendations" */
    int ok;           /* sticky: 0 after an allocation failure */
};

/* An MTIA run: its devices are Meta's alone (vendor "meta", as the
 * report's units, render/figures.c pr_fig_run_units). */
static int
mtia_run(const struct rctx *c)
{
    size_t i;
    int meta = 0;

    if (c->npu)
        return 0;
    for (i = 0; i < c->tb->n_devs; i++) {
        if (!pr_sget_is(c->tb->devs[i].vendor, "meta"))
            return 0;
        meta = 1;
    }
    return meta;
}

static const char *
dev_word(const struct rctx *c)
{
    return c->npu ? "NPU" : mtia_run(c) ? "MTIA" : "GPU";
}

/* An AMD GPU run: the texts say CU, workgroup, matrix cores (MFMA) and
 * HIP graphs, as the report's headings do (review 32g #8). */
static int
amd_run(const struct rctx *c)
{
    size_t i;

    if (c->npu)
        return 0;
    for (i = 0; i < c->tb->n_devs; i++)
        if (pr_sget_is(c->tb->devs[i].vendor, "amd"))
            return 1;
    return 0;
}

/* A kernel's name in a rule text: the display form the Kernels table's
 * cells print (96 code points, render/html.c NAME_CHARS), so that a
 * template name of thousands of characters leaves room for the figures
 * and the advice after it (review 32g #5). */
#define REC_KNAME_CHARS 96

static const char *
kname(const char *name, char *buf, size_t cap)
{
    return name != NULL ? pr_shorten(name, REC_KNAME_CHARS, buf, cap) : "?";
}

static int
has_rec(const cJSON *arr, const char *id)
{
    return pr_sget_find(arr, PR_K_ID, id) != NULL;
}

/* A share of the step in the dataloader category less MindSpore's step
 * interval, which pr_producer_step_interval puts there: rule_step_interval
 * judges the interval, in the step trace's words, and no DataLoader
 * advice is true of it (ms_fixtures: "Input loading on the critical
 * path" took the place of the step interval's finding); what is left is
 * the data-queue tasks' (GetNext in a step), as before.  The interval's
 * share is the step trace's median interval over the mean step. */
static double
loader_share(const struct rctx *c, double share)
{
    const cJSON *m = pr_sget(pr_sget(c->run, PR_K_STEP_TRACE), PR_K_MEDIAN);
    double iv = pr_sget_num(m, PR_K_ITERATION_INTERVAL_US);
    double mean = pr_sget_num(pr_sget(c->run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);

    if (!(iv > 0) || !(mean > 0) || isnan(share))
        return share;
    return share - iv / mean > 0 ? share - iv / mean : 0;
}

/* The recommendation added (NULL: one of its id is there already, or
 * memory ran out). */
/* A recommendation's typed row added (not when one of its id is there
 * already). */
static void
add_rec_row(struct rctx *c, const struct pr_row_recommendation *r)
{
    if (c->ok && !has_rec(c->arr, r->id) && pr_emit_rec_row(c->arr, r) == NULL)
        c->ok = 0;
}

static cJSON *
add_rec_note(struct rctx *c, const char *id, const char *severity,
             const char *text, const char *gain_note)
{
    cJSON *o;

    if (!c->ok || has_rec(c->arr, id))
        return NULL;
    o = pr_emit_rec(c->arr, id, severity, text, gain_note, 0);
    if (o == NULL)
        c->ok = 0;
    return o;
}

static cJSON *
add_rec(struct rctx *c, const char *id, const char *severity, const char *text)
{
    return add_rec_note(c, id, severity, text, NULL);
}

/* Mean step time and one mean breakdown category, as a share. */
static double
step_share(const struct rctx *c, enum pr_cat cat)
{
    double mean = c->tb->step_mean_us;

    return mean > 0 ? c->tb->step_cat_us[cat] / mean : NAN;
}

/* ------------------------------------------ who waits for whom (#29) */

/* Host copies keep a device busy this share of its span: the run is
 * bound by the host link. */
#define COPY_BOUND_PCT 50.0

static int
copy_bound(const struct rctx *c)
{
    return c->hd->copy_busy_pct >= COPY_BOUND_PCT;
}

/* The device starves for work from the host: most of its idle time
 * waits for a launch the host has not made (HTA's host wait), the
 * busiest stream's queue is near empty (at most one operation waiting, on
 * average over its span: a lone launch is queued from its call until it
 * starts, which is launch latency, not a backlog), and copies from the
 * host do not keep it busy.
 * Only then does more work per launch (a larger batch) help; with
 * hundreds of operations queued the device sets the pace. */
/* A capture of almost no device work (a test program's handful of
 * kernels, an inference call of four): under this many kernel calls in
 * all and this much device work per step, low utilization says nothing
 * about the batch (review R3); a training step launches hundreds. */
#define NEAR_EMPTY_CALLS 64.0
#define NEAR_EMPTY_US 1000.0

/* The run's kernel calls (the kernels rows: all of them, or the top rows
 * of a run with many more kinds than a near-empty one has). */
static double
kernel_calls(const struct rctx *c)
{
    double n = 0;
    size_t i;

    for (i = 0; i < c->tb->n_kernels; i++) {
        if (c->tb->kernels[i].calls > 0)
            n += c->tb->kernels[i].calls;
    }
    return n;
}

/* Device work of the mean step (kernels, copies, sets); NaN unknown. */
static double
step_device_us(const struct rctx *c)
{
    const double *u = c->tb->step_cat_us;

    return u[PR_CAT_KERNEL] + u[PR_CAT_MEMCPY] + u[PR_CAT_MEMSET];
}

static int
near_empty(const struct rctx *c)
{
    /* (a run without kernel rows says nothing of its kernels) */
    return c->tb->n_kernels > 0 && kernel_calls(c) < NEAR_EMPTY_CALLS &&
           step_device_us(c) < NEAR_EMPTY_US;
}

/* FP+BP of MindSpore's step trace, median; NaN without one. */
static double
step_fpbp_us(const struct rctx *c)
{
    return pr_sget_num(pr_sget(pr_sget(c->run, PR_K_STEP_TRACE), PR_K_MEDIAN),
                       PR_K_FP_AND_BP_US);
}

/* A near-empty task list whose step trace times ten times its device
 * work as FP+BP: the export lacks the device's tasks (MindSpore's
 * fixtures: 3 tasks, FP+BP 17.1 ms a step), not the capture its work. */
static int
tasks_lacking(const struct rctx *c)
{
    return near_empty(c) && step_fpbp_us(c) > 10.0 * step_device_us(c);
}

static int
host_starved(const struct rctx *c)
{
    return c->hd->idle_host_share >= 0.5 && !(c->hd->queue_mean > 1.0) &&
           !copy_bound(c) && !near_empty(c);
}

/* The trace times no launch: no launch calls, or only the zero-length ones
 * a reader puts at each task's start (MindSpore's and msprof's op tables,
 * an op_summary CSV: no call lasts, no task waits after one; torch_npu's
 * flow events last nothing but start well before their tasks): then no
 * idle time can be split by cause (review-2 finding 11: op_summary's
 * "100% has work queued that waits on events" where torch_npu old2023's
 * same kernels read "the trace cannot tell"). */
static int
no_launch_times(const struct rctx *c)
{
    const struct pr_hostdev_out *hd = c->hd;

    /* (zero measured, not unknown: NaN is a summary without the keys) */
    return !isfinite(hd->queue_mean) ||
           (hd->slow_launch_us == 0 && hd->delay_median_us == 0 &&
            !(hd->slow_launch_delay_us > 0));
}

/* Why a device idles when the host does not starve it, for the text:
 * the copies that keep it busy, else where its idle time goes (HTA's
 * causes) and how deep its queue runs. */
static void
idle_cause(const struct rctx *c, char *buf, size_t cap)
{
    const struct pr_hostdev_out *hd = c->hd;
    char host[200];
    double compile;
    size_t len;

    if (copy_bound(c)) {
        snprintf(buf, cap,
                 "copies between the host and the %s keep it busy %.0f%% of "
                 "its span (see copy_bound)",
                 dev_word(c), hd->copy_busy_pct);
        return;
    }
    if (!isfinite(hd->queue_mean) || !isfinite(hd->idle_host_share)) {
        snprintf(buf, cap, "the trace has no launch calls to say why");
        return;
    }
    /* on an NPU whose host compiles operators online the host wait is
       that compilation, not launching (issue #30 finding 4) */
    compile = pr_sget_num(pr_sget(c->run, PR_K_OP_COMPILE), PR_K_STEP_PCT);
    if (c->npu && compile >= 5.0)
        snprintf(host, sizeof(host),
                 "waits for the host, which runs operators on CANN's aclop "
                 "path (its aclopCompileAndExecute calls take %.1f%% of the "
                 "step: see op_compile)",
                 compile);
    else
        snprintf(host, sizeof(host), "waits for the host to launch work");
    len = pr_append(
        buf, cap, 0,
        "%.0f%% of its idle time %s, %.0f%% has work queued that waits on "
        "events or other streams",
        100.0 * hd->idle_host_share, host,
        isfinite(hd->idle_other_share) ? 100.0 * hd->idle_other_share : 0.0);
    if (hd->idle_sync_share > 0)
        len = pr_append(buf, cap, len, ", %.0f%% follows a blocking sync",
                        100.0 * hd->idle_sync_share);
    if (hd->queue_mean >= 1.0 && hd->idle_host_share >= 0.5)
        /* both at once read as a contradiction (review-2 #6, review-3):
           the host waits happen between bursts in which it runs ahead */
        pr_append(buf, cap, len,
                  "; the work comes in bursts in which the host runs ahead "
                  "(its busiest stream holds %.1f queued operations on "
                  "average over its span, up to %.0f), so the waits for the "
                  "host are stalls between bursts, not kernels too small to "
                  "keep it busy: see Host and device",
                  hd->queue_mean, hd->queue_max);
    else if (hd->queue_mean >= 1.0)
        pr_append(buf, cap, len,
                  ", and its busiest stream holds %.1f queued operations on "
                  "average (up to %.0f): see Host and device",
                  hd->queue_mean, hd->queue_max);
    else
        pr_append(buf, cap, len, ": see Host and device");
}

/* The plugin's low-utilization advice (7.5.5) when the host starves the
 * device; otherwise its cause, and no batch-size advice. */
static void
low_util_advice(const struct rctx *c, char *buf, size_t cap)
{
    char why[640];

    if (tasks_lacking(c)) {
        /* MindSpore's step trace times the device's forward and backward
           work that the task list lacks (the fixtures: FP+BP 17.1 ms a
           step, 3 tasks): the utilization is the list's, not the
           device's */
        char in[64] = "none of their time in the steps' breakdown";

        if (step_device_us(c) > 0)
            snprintf(in, sizeof(in), "%.0f \xC2\xB5s a step",
                     step_device_us(c));
        snprintf(buf, cap,
                 "The export holds almost none of the %s's tasks (%.0f kernel "
                 "call%s, %s) while MindSpore's step trace times FP+BP at "
                 "%.1f ms a step: the utilization is the task list's, not "
                 "the %s's.",
                 dev_word(c), kernel_calls(c), kernel_calls(c) == 1 ? "" : "s",
                 in, step_fpbp_us(c) / 1000.0, dev_word(c));
        return;
    }
    if (near_empty(c)) {
        snprintf(buf, cap,
                 "The capture holds almost no %s work (%.0f kernel call%s, "
                 "%.0f \xC2\xB5s of device work %s): too little to tell "
                 "whether a larger batch would help; profile %sthe "
                 "workload itself.",
                 dev_word(c), kernel_calls(c), kernel_calls(c) == 1 ? "" : "s",
                 step_device_us(c),
                 pr_sget_run_is_capture(c->run) ? "in all" : "per step",
                 pr_sget_run_is_capture(c->run) ? "" : "steps of ");
        return;
    }
    if (host_starved(c) && pr_run_no_framework(c->run)) {
        /* no framework, no batch: a CUDA program's own words (review 28h
           #8: an MPI saxpy was told of model convergence) */
        snprintf(buf, cap,
                 "The host does not keep the %s fed: give each launch more "
                 "work (a larger problem per kernel, fused kernels) or "
                 "overlap the host's own work with the device's.",
                 dev_word(c));
        return;
    }
    if (host_starved(c) && pr_run_trains(c->run) == 0) {
        /* no backward pass: no convergence to disturb; a server's batch
           is its concurrent requests (hunt30 #5: vLLM, xDiT and HF
           inference captures were told of model convergence) */
        snprintf(buf, cap,
                 "You could try to increase batch size to improve. The run "
                 "has no backward pass (inference): a larger batch is more "
                 "concurrent requests or more samples per forward, which "
                 "may lengthen each request's latency.");
        return;
    }
    if (host_starved(c)) {
        snprintf(buf, cap,
                 "You could try to increase batch size to improve. Note: "
                 "Increasing batch size may affect the speed and stability "
                 "of model convergence.");
        return;
    }
    if (!copy_bound(c) && no_launch_times(c)) {
        snprintf(buf, cap,
                 "Whether a larger batch would help, the trace cannot tell: "
                 "it has no launch calls to show whether the host keeps the "
                 "%s fed.",
                 dev_word(c));
        return;
    }
    if (!copy_bound(c) && !isfinite(c->hd->idle_host_share)) {
        snprintf(buf, cap,
                 "Whether a larger batch would help, the trace cannot tell: "
                 "the %s has no idle time between its first and last work "
                 "to split by cause (it idles before and after).",
                 dev_word(c));
        return;
    }
    if (!copy_bound(c) && pr_hostdev_skew_note(c->hd, why, sizeof(why))) {
        /* the idle split by cause reads launch times against device
           times: with the clocks apart it is no evidence (the B200
           trace's "0% waits for the host, 87% has work queued that waits
           on events or other streams" on one stream with no event) */
        snprintf(buf, cap,
                 "Whether a larger batch would help, the trace cannot tell: "
                 "%.0f of %.0f kernels and copies start before their launch "
                 "call begins, so its device and host clocks disagree and "
                 "its idle time cannot be split by cause (Data quality).",
                 c->hd->skew_early, c->hd->skew_work);
        return;
    }
    idle_cause(c, why, sizeof(why));
    snprintf(buf, cap, "A larger batch is not the fix here: %s.", why);
}

/* Why the low-utilization advice claims no gain when it is not the
 * advice of a larger batch (the replay is twice the batch); the three
 * notes also say which Data quality row it becomes (pr_recommend_demote). */
static const char low_util_empty[] =
    "no change replayed: the capture holds almost no device work (the text "
    "says so)";
static const char low_util_lacks[] =
    "no change replayed: the export holds almost none of the device's tasks "
    "(the text says so)";
static const char low_util_blind[] =
    "no change replayed: the trace cannot tell whether a larger batch would "
    "help (the text says why)";
static const char low_util_skew[] =
    "no change replayed: the trace's device and host clocks disagree, so it "
    "cannot tell whether a larger batch would help (the text says why)";
static const char low_util_other[] =
    "no change replayed: a larger batch is not the fix here (the text says "
    "why); the cause it names carries its own gain where its finding fires";

static const char *
low_util_note(const struct rctx *c)
{
    char why[400];

    if (tasks_lacking(c))
        return low_util_lacks;
    if (near_empty(c))
        return low_util_empty;
    if (!copy_bound(c) &&
        (no_launch_times(c) || !isfinite(c->hd->idle_host_share)))
        return low_util_blind;
    if (!copy_bound(c) && pr_hostdev_skew_note(c->hd, why, sizeof(why)))
        return low_util_skew;
    return low_util_other;
}

/* --------------------------------------------- the plugin's rules (7.5) */

/* The data-loader finding's text; lead, not NaN where the share counts
 * the host work before each step's first task too (rec_facts, on
 * torch_npu's device basis): the part of the loader's time there, in
 * torch_npu's Preparing, which by torch_npu's rule is not in the step
 * (issue #30 review #2: npu msprof_tv's DataLoader, 840-2142 us, all
 * before its step's first task at 2615 us).  Where the share is the device's
 * own waiting in a framework's data-queue tasks (the kernel table's input
 * family: MindSpore's GetNext in dataset sink mode), the run is
 * data-bound in MindSpore's words; else the plugin's DataLoader text. */
static void
dataloader_text(const struct rctx *c, double share, double lead, char *text,
                size_t cap)
{
    const cJSON *k;
    double in = 0;
    const char *top = NULL;
    double top_us = -1;
    char part[300] = "";

    cJSON_ArrayForEach(k, pr_sget(c->run, PR_K_KERNELS))
    {
        double us = pr_sget_num(k, PR_K_TOTAL_US);

        if (!pr_sget_is(pr_sget_str(k, PR_K_KFAMILY), "input") || !(us > 0))
            continue;
        in += us;
        if (us > top_us) {
            top_us = us;
            top = pr_sget_str(k, PR_K_NAME);
        }
    }
    if (in > 0 && top != NULL) {
        snprintf(text, cap,
                 "The run is data-bound: %.1f%% of the step time the %s "
                 "waits in the dataset queue's tasks (%s and the other "
                 "data-queue tasks of MindSpore's dataset sink mode), "
                 "i.e. for the input pipeline, not computing. Speed up the "
                 "dataset pipeline: raise num_parallel_workers of its map "
                 "and batch operations, move heavy transforms off the "
                 "critical path (cache or preprocess them), and check the "
                 "slowest operator in MindSpore's data-pipeline analysis "
                 "(minddata_pipeline_raw).",
                 100.0 * share, dev_word(c), top);
        return;
    }
    /* a lead known (NaN none): torch_npu's host step, and the loader's
       part in Preparing */
    if (lead >= 0.995)
        snprintf(part, sizeof(part),
                 " All of it runs in Preparing, before the step's first "
                 "NPU task: it delays the step's start, and by "
                 "torch_npu's rule it is not in the step.");
    else if (lead >= 0.005)
        snprintf(part, sizeof(part),
                 " %.0f%% of it runs in Preparing, before the step's "
                 "first NPU task: it delays the step's start, and by "
                 "torch_npu's rule that part is not in the step.",
                 100.0 * lead);
    snprintf(text, cap,
             "This run has high time cost on input data loading. %.1f%% "
             "of the %s is in DataLoader.%s You could try to set "
             "num_workers on DataLoader's construction and enable "
             "multi-processes on data loading.",
             100.0 * share,
             isnan(lead) ? "step time"
                         : "host step time (from each step's host start, "
                           "torch_npu's Preparing included)",
             part);
}

/* A pipeline finding's note until the stages' balance gives it a gain
 * (stages.c, over every rank of the cluster folder). */
#define PIPE_NO_GAIN                                                           \
    "no gain claimed: balancing the stages is a model over every pipeline "    \
    "stage's computation_time, and the ranks read here do not "                \
    "give two stages' figures, or balancing saves under 1% of the step"

/* An evidence label for one row of hccl.ops (an operation type in one
 * group, over its calls) and the figure of it given: "hcom_allReduce_
 * Wait (group 459, 1 call)" (issue #30 review: a bare
 * "hcom_allReduce_ 96.9 ms" read as every hcom_allReduce_'s, and
 * "the operation waiting longest" as one call). */
static void
op_label(const cJSON *op, const char *what, char *buf, size_t cap)
{
    double calls = pr_sget_num(op, PR_K_CALLS);
    const char *tag = pr_sget_str(op, PR_K_GROUP_TAG);

    snprintf(buf, cap, "%s %s (%s%s%s%.0f call%s)",
             pr_sget_str_or(op, PR_K_NAME, "?"), what, tag ? "group " : "",
             tag ? tag : "", tag ? ", " : "", calls, calls == 1 ? "" : "s");
}

/* A table-only communication finding's evidence: two named figures a
 * step (us), then the run's HCCL operation that waits longest, its
 * Elapse a step, labelled so (issue #30 review: "hcom_batchSendRecv_
 * 75.0 ms" beside Idle and Wait read as a third part of them). */
static void
table_evidence(struct rctx *c, cJSON **ev, const char *n0, double us0,
               const char *n1, double us1, int by_idle)
{
    const cJSON *top = pr_producer_comm_top(c->run), *op;
    /* where Idle leads the split, the operation idle longest (issue #30
       review: rank 3's 0.8 ms of Wait named hcom_batchSendRecv_ beside
       hcom_allReduce_'s 120.9 ms, nearly all Idle) */
    const cJSON *ops =
        by_idle ? pr_sget(pr_sget(c->run, PR_K_HCCL), PR_K_OPS) : NULL;
    char name[200];

    cJSON_ArrayForEach(op, ops)
    {
        if (top == NULL ||
            pr_sget_num(op, PR_K_IDLE_US) > pr_sget_num(top, PR_K_IDLE_US))
            top = op;
    }
    op_label(top, "Elapse", name, sizeof(name));
    *ev = cJSON_CreateArray();
    if (*ev == NULL || !pr_emit_evidence(*ev, n0, us0, NAN) ||
        !pr_emit_evidence(*ev, n1, us1, NAN) ||
        (top != NULL &&
         !pr_emit_evidence(
             *ev, name,
             pr_sget_num(top, PR_K_ELAPSE_US) /
                 pr_sget_num(pr_sget(c->run, PR_K_STEP_SUMMARY), PR_K_COUNT),
             NAN))) {
        cJSON_Delete(*ev);
        *ev = NULL;
        c->ok = 0;
    }
}

/* A run of the step table alone (no task in its files): its
 * communication finding's evidence is communication.json's split a step,
 * its Wait and Idle, and the operation that waits longest, its Elapse
 * (review 20 #4: its Evidence cell was empty, its reason "host work the
 * trace does not attribute"). */
static const char *
table_only_note(struct rctx *c, char *note, size_t cap, cJSON **ev)
{
    double t[5], p[4];
    const char *p2p;
    int idle_first;

    if (pr_producer_p2p_waits(c->run, p, &p2p)) {
        /* mostly a pipeline stage waiting for its peer stage: that wait
           is the evidence (issue #30: the CANN 8.3 job's rank 1, whose
           note named HCCL's Idle and Wait alone) */
        char w[160], i[160];

        snprintf(note, cap,
                 "no change replayed: most of HCCL's %.1f ms a %s is "
                 "point-to-point waiting, not the collectives: %s Wait "
                 "%.1f ms, Idle %.1f ms, Transit %.1f ms "
                 "(communication.json), the rank idle until its peer sends "
                 "(in a pipeline, the peer stage); no device task is in "
                 "these files to replay, only the producer's step table and "
                 "HCCL's operation totals; buckets overlapped with backward "
                 "do not shorten that wait: in a pipeline, balancing the "
                 "stages does (the Distributed section's pipeline view, "
                 "where it finds them unbalanced)",
                 p[3] / 1000.0, pr_run_window(c->run), p2p, p[0] / 1000.0,
                 p[1] / 1000.0, p[2] / 1000.0);
        snprintf(w, sizeof(w), "%s Wait (communication.json)", p2p);
        snprintf(i, sizeof(i), "%s Idle (communication.json)", p2p);
        table_evidence(c, ev, w, p[0], i, p[1], 0);
        return note;
    }
    if (!pr_producer_comm_split(c->run, t))
        return "no change replayed: no device tasks in these files, only "
               "the producer's step table; the finding stands on its "
               "Communication(Not Overlapped)";
    /* the larger of the two first */
    idle_first = t[4] > t[2];
    table_evidence(c, ev,
                   idle_first ? "HCCL Idle (communication.json)"
                              : "HCCL Wait (communication.json)",
                   t[idle_first ? 4 : 2] * 1000.0,
                   idle_first ? "HCCL Wait (communication.json)"
                              : "HCCL Idle (communication.json)",
                   t[idle_first ? 2 : 4] * 1000.0, idle_first);
    return "no change replayed: no device tasks in these files, only the "
           "producer's step table and HCCL's operation totals; the finding "
           "stands on the step table's Communication(Not Overlapped) and "
           "communication.json's split of it";
}

/* The note of a communication finding that stands on the step table
 * (the export's tasks too few to replay), and its bound where the
 * producer's split says most of HCCL's time waits for a late peer: that
 * Wait a step, every operation's (the most every rank it waits for arriving on
 * time would save, as text_level1's peer bound is its collectives' Notify
 * Wait on the path; review 8 #4: torch_npu old2023's 116.6 ms, 96.9 ms
 * of it one hcom_allReduce_). */
static const char *
table_note(struct rctx *c, char *note, size_t cap, double *bound, cJSON **ev)
{
    const char *name;
    double top, wait = pr_producer_comm_wait(c->run, &name, &top);
    int only = pr_producer_table_only(c->run);
    char label[200];

    *bound = NAN;
    *ev = NULL;
    if (!(wait > 0) && only)
        return table_only_note(c, note, cap, ev);
    if (!(wait > 0))
        return "no change replayed: the export's tasks hold too "
               "little of the step to replay (see Data quality); "
               "the finding stands on the step table's "
               "Communication(Not Overlapped)";
    snprintf(note, cap,
             "no change replayed: %s, and HCCL's Wait is not "
             "split by the rank waited for; the finding stands on the step "
             "table's Communication(Not Overlapped); at most %.1f ms a "
             "step, every rank it waits for arriving on time: HCCL's Wait in "
             "%s (the producer's Wait; %.1f ms of it in %s)",
             only ? "no device tasks in these files, only the producer's "
                    "step table"
                  : "the export's tasks hold too little of the step to "
                    "replay (see Data quality)",
             wait / 1000.0,
             pr_sget_str_or(pr_sget(c->run, PR_K_HCCL), PR_K_SOURCE,
                            "communication.json"),
             top / 1000.0, name != NULL ? name : "one operation");
    *bound = wait;
    /* its evidence: the Wait and the operation that holds most of it
       (review 17 #1: the verdict's Evidence cell was empty), that
       operation's figure named as its Wait (issue #30 review: a bare
       "hcom_batchSendRecv_ 158.0 ms" read as its time) */
    op_label(pr_producer_comm_top(c->run), "Wait", label, sizeof(label));
    *ev = cJSON_CreateArray();
    if (*ev == NULL ||
        !pr_emit_evidence(*ev, "HCCL Wait (communication.json)", wait, NAN) ||
        (name != NULL && top > 0 && !pr_emit_evidence(*ev, label, top, NAN))) {
        cJSON_Delete(*ev);
        *ev = NULL;
        c->ok = 0;
    }
    return note;
}

/* 7.5.1 and 7.5.4: a category's share of the kept steps.  Where the
 * export's task list is incomplete, communication's share is the
 * producer's step table's (pr_producer_table_comm_share), which the
 * tasks' breakdown would understate. */
static void
rule_categories(struct rctx *c)
{
    char text[REC_TEXT];
    double table = pr_producer_table_comm_share(c->run);
    double comm = isnan(table) ? c->f->comm_share : table;
    double cap_us =
        pr_sget_num(pr_sget(c->run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
    struct pr_startup_coll su;
    /* a run without steps held up by a start-up collective (the verdict
       names it): its share and advice leave that wait out, and no finding
       where the rest is under the threshold (review 22a #4:
       kernel_details_910B_v1.csv's 66.8% was 89% hcom_broadcast__445_0,
       DDP's parameter broadcast, which bucketing gradients cannot touch) */
    int startup =
        c->npu && pr_producer_startup_coll(c->f->t, c->run, &su) && cap_us > 0;

    if (!c->f->known)
        return;
    if (loader_share(c, c->f->dataloader_share) > 0.05) {
        dataloader_text(c, loader_share(c, c->f->dataloader_share),
                        c->f->dataloader_lead ? c->f->dataloader_lead_part
                                              : NAN,
                        text, sizeof(text));
        add_rec(c, "dataloader", "warning", text);
    }
    if (startup)
        comm =
            comm - su.alone_us / cap_us > 0 ? comm - su.alone_us / cap_us : 0;
    /* the overlap replay, which backs this finding, leaves it out too */
    if (startup && c->f->whatif != NULL && su.ev < PR_CP_NONE)
        c->f->whatif->startup_ev = (uint32_t)su.ev;
    if (comm > 0.1 && c->npu) {
        struct pr_row_recommendation r;
        char note[900];
        int said = !startup &&
                   pr_producer_comm_advice(c->run, comm, text, sizeof(text));

        if (startup)
            snprintf(text, sizeof(text),
                     "%.1f%% of the %s is HCCL communication not overlapped "
                     "with computation, leaving out %s (%.1f ms from %.1f ms "
                     "in), the one-time start-up wait the verdict names.",
                     100.0 * comm, pr_run_window(c->run), su.name,
                     su.dur_us / 1000.0, su.at_us / 1000.0);
        else if (!said && pr_producer_table_only(c->run))
            /* the step table alone: nothing says what the time was
               (review 20 #4) */
            snprintf(text, sizeof(text),
                     "%.1f%% of the step is HCCL communication not overlapped "
                     "with computation, by the producer's step table (%s). "
                     "These files hold no HCCL operation or task to say what "
                     "it was: profile with communication.json and the task "
                     "timeline (trace_view.json, kernel_details.csv).",
                     100.0 * comm,
                     pr_sget_str_or(pr_sget(c->run, PR_K_STEP_PHASES),
                                    PR_K_SOURCE, "?"));
        else if (!said)
            snprintf(text, sizeof(text),
                     "%.1f%% of the %s is HCCL communication not overlapped "
                     "with computation.",
                     100.0 * comm, pr_run_window(c->run));
        /* a pipeline bubble's fix is balancing the stages, which no
           replay models: its gain is the stages' balance (stages.c, once
           every rank is read), not the overlap replay's, which would
           claim what it does not recommend */
        pr_rec_init(&r, "communication", "warning", text);
        cJSON *ev = NULL;

        r.gain_note = strstr(text, "pipeline bubble") != NULL ? PIPE_NO_GAIN
                      : !isnan(table)
                          ? table_note(c, note, sizeof(note), &r.bound_us, &ev)
                          : NULL;
        /* a bubble's evidence: the cluster table's figures its text
           quotes (issue #30 review: ms_cluster4 ranks 0 and 1 showed none) */
        if (strstr(text, "pipeline bubble") != NULL) {
            const cJSON *m =
                pr_sget(pr_sget(c->run, PR_K_STEP_PHASES), PR_K_MEAN);

            ev = cJSON_CreateArray();
            if (ev == NULL ||
                !pr_emit_evidence(
                    ev, "receive_alone_time (MindSpore's cluster table)",
                    pr_sget_num(m, PR_K_BUBBLE_US), NAN) ||
                !pr_emit_evidence(
                    ev, "computation_time (MindSpore's cluster table)",
                    pr_sget_num(m, PR_K_COMPUTING_US), NAN))
                c->ok = 0;
        }
        if (r.gain_note != NULL)
            pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_NOTE);
        /* the table's bound where HCCL's Wait gives one */
        if (!isnan(r.bound_us))
            pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_BOUND_US);
        if (ev != NULL) {
            r.evidence = ev; /* the row holds its copy */
            pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_EVIDENCE);
        }
        add_rec_row(c, &r);
        cJSON_Delete(ev);
    } else if (!startup && c->f->comm_share > 0.1 &&
               pr_run_trains(c->run) == 0) {
        /* no backward pass, so no gradients to compress or accumulate:
           the collectives move activations (tensor or expert parallel
           inference, review 28h #6: vLLM on MI300X, TP4) */
        snprintf(text, sizeof(text),
                 "This run has high time cost on communication. %.1f%% of "
                 "the %s time is in communication. The run has no backward "
                 "pass, so its collectives move activations, not gradients "
                 "(tensor- or expert-parallel layers): fewer ranks per "
                 "model replica, more tokens or samples per collective, or "
                 "collectives overlapped with independent compute cut "
                 "their share.",
                 100.0 * c->f->comm_share, pr_run_window(c->run));
        add_rec(c, "communication", "warning", text);
    } else if (!startup && c->f->comm_share > 0.1) {
        snprintf(text, sizeof(text),
                 "This run has high time cost on communication. %.1f%% of "
                 "the step time is in communication. You could try Gradient "
                 "Compression or Gradient Accumulation or increase the batch "
                 "size.",
                 100.0 * c->f->comm_share);
        add_rec(c, "communication", "warning", text);
    }
}

/* MindSpore's step interval (its step trace's iteration_interval, the
 * previous step's end to this one's forward start: MindInsight's "Step
 * Interval") as a share of the median step, at or above which it is a
 * finding: the data pipeline or the host's work between steps holds the
 * device back (issue #30 finding 2: the fixtures' 90 of 130 ms had none). */
#define STEP_INTERVAL_MIN 0.10

/* The run reads its data from the device's queue (a kernel of the input
 * family: MindSpore's GetNext in dataset sink mode). */
static int
sink_mode(const struct rctx *c)
{
    const cJSON *k;

    cJSON_ArrayForEach(k, pr_sget(c->run, PR_K_KERNELS))
    {
        if (pr_sget_is(pr_sget_str(k, PR_K_KFAMILY), "input"))
            return 1;
    }
    return 0;
}

/* What MindSpore's data-pipeline files say of the interval
 * (run.data_pipeline, mindspore_minddata.c): the pipeline's wait
 * (queues empty), the host's own work (a batch always ready), both, or
 * two files that disagree; into text from len.  0 without the files. */
static int
pipeline_says(const cJSON *dp, char *text, size_t cap, size_t len, char *why,
              size_t wcap)
{
    const char *q = pr_sget_str(dp, PR_K_QUEUES),
               *rd = pr_sget_str(dp, PR_K_READING),
               *cf = pr_sget_str(dp, PR_K_CONFLICT),
               *bn = pr_sget_str(dp, PR_K_BOTTLENECK_NOTE);

    if (cf != NULL) {
        pr_append(text, cap, len,
                  " MindSpore's data-pipeline files of this rank cannot "
                  "split it: %s.",
                  cf);
        snprintf(why, wcap,
                 ", and the data-pipeline files that could split it "
                 "disagree (%s)",
                 pr_sget_str(dp, PR_K_SOURCE));
        return 1;
    }
    if (rd == NULL)
        return 0;
    len =
        pr_append(text, cap, len, " MindSpore's data-pipeline files %s: %s.",
                  q == NULL                ? "leave it open"
                  : pr_sget_is(q, "empty") ? "put it on the data pipeline"
                  : pr_sget_is(q, "ready") ? "put it on the host, not the data"
                                           : "split it between the data "
                                             "pipeline and the host",
                  rd);
    if (bn != NULL)
        pr_append(text, cap, len, " %s.", bn);
    snprintf(why, wcap,
             ", and MindSpore's data-pipeline files (%s) say %s but not how "
             "long the pipeline takes to make a batch, which a model of a "
             "faster one would need",
             pr_sget_str(dp, PR_K_SOURCE),
             q == NULL                ? "nothing of the wait"
             : pr_sget_is(q, "empty") ? "the wait is the pipeline's"
             : pr_sget_is(q, "ready") ? "a batch was always ready (the "
                                        "interval is the host's work, which "
                                        "a faster pipeline does not remove)"
                                      : "the pipeline kept up part of the "
                                        "time");
    return 1;
}

static void
rule_step_interval(struct rctx *c)
{
    const cJSON *m = pr_sget(pr_sget(c->run, PR_K_STEP_TRACE), PR_K_MEDIAN);
    const cJSON *dp = pr_sget(c->run, PR_K_DATA_PIPELINE);
    double iv = pr_sget_num(m, PR_K_ITERATION_INTERVAL_US);
    double fb = pr_sget_num(m, PR_K_FP_AND_BP_US),
           tl = pr_sget_num(m, PR_K_TAIL_US);
    double step = iv + fb + tl;
    char text[REC_TEXT], note[1400], why[600] = "";
    cJSON *ev;
    size_t len;
    /* all but the replay's what_if (its evidence kept below) */
    static const enum pr_schema_rowid keep[] = {
        PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_NOTE,
        PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_US,
        PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_PCT,
        PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_BASIS,
        PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_SOURCE,
        PR_SR_RUNS_RECOMMENDATIONS_PR_K_BOUND_US};
    struct pr_row_recommendation r;
    size_t i;

    if (!(step > 0) || !(iv / step >= STEP_INTERVAL_MIN) ||
        has_rec(c->arr, "dataloader"))
        return;
    len = pr_append(
        text, sizeof(text), 0,
        "The step interval takes %.1f of the median step's %.1f ms "
        "(%.0f%%) by MindSpore's step trace (step_trace_raw: from the "
        "end of one step to the next one's forward start), against "
        "FP+BP %.1f ms and tail %.1f ms. MindInsight reads a long step "
        "interval as the data pipeline not keeping up with training: "
        "the %s waits for the next batch, or for the host's work "
        "between steps.",
        iv / 1000.0, step / 1000.0, 100.0 * iv / step, fb / 1000.0, tl / 1000.0,
        dev_word(c));
    /* the files the text used to send the user to, read (review 15 #8) */
    if (!pipeline_says(dp, text, sizeof(text), len, why, sizeof(why)))
        pr_append(text, sizeof(text), len,
                  " Check MindSpore's data-pipeline analysis "
                  "(minddata_pipeline_raw: a device queue that is often "
                  "empty means the dataset is slow) and raise "
                  "num_parallel_workers of its slowest map and batch "
                  "operations%s",
                  sink_mode(c)
                      ? "; the run already reads its data from the device "
                        "queue (GetNext: dataset sink mode), where a long "
                        "interval is the queue running dry: the dataset "
                        "pipeline is the lever."
                      : ", or train in dataset sink mode so that several "
                        "steps' data go to the device at once.");
    /* the gain from the step trace's own split, not the graph's replay:
       the interval holds none of the step's device work (issue #31's
       "the data loader's wait gone") */
    /* why first, up to its ';' (the verdict's "Why no estimate") */
    snprintf(note, sizeof(note),
             "no estimate: the step trace gives the interval's length, not "
             "what fills it (the wait for the next batch, which a faster "
             "pipeline removes, or the host's own work between steps, which "
             "stays)%s; a bound from a model, not a replay: the step "
             "interval (%.1f ms of the %.1f ms median step, MindSpore's step "
             "trace) holds none of the step's device work, so a data "
             "pipeline that keeps up, with no host work between steps, "
             "takes it all out of the step: at most %.1f ms a step",
             why, iv / 1000.0, step / 1000.0, iv / 1000.0);
    /* a bound, no estimate: how much host work between steps stays is
       not in the step trace (bound_us, docs/summary-json.md) */
    pr_rec_init(&r, "step_interval", "warning", text);
    r.gain_note = note;
    r.gain_basis = PR_GAIN_PER_STEP;
    r.gain_source = PR_GAIN_MODEL;
    r.bound_us = iv;
    for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
        pr_rec_keep(&r, keep[i]);
    /* its evidence: the interval itself (review 17 #1) */
    ev = cJSON_CreateArray();
    if (ev == NULL ||
        !pr_emit_evidence(ev, "step interval (step_trace_raw, median)", iv,
                          NAN)) {
        cJSON_Delete(ev);
        c->ok = 0;
        return;
    }
    r.evidence = ev; /* the row holds its copy */
    pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_EVIDENCE);
    add_rec_row(c, &r);
    cJSON_Delete(ev);
}

/* Embedding lookups and their gradients at or above this share of the
 * kernel time are a finding (issue #30 finding 2: mindspore ascend_run1,
 * a Wide&Deep whose GatherV2 of a [184696, 8] table and its
 * UnsortedSegmentSum gradient hold 69% of the task time, had none).
 * Most of it: below, the embedding work is one part of the step among
 * others, and the path's findings say what bounds it (the HTA DLRM
 * samples' 15-23%, host-bound). */
#define EMBEDDING_MIN_PCT 50.0

/* A kernel's name for a sentence: a C++ kernel's function name without
 * its template and parameters ("void split_embedding_codegen_forward_
 * unweighted_kernel<...>(...)" -> "split_embedding_codegen_forward_
 * unweighted_kernel"), a MindSpore graph kernel's last scope part
 * (".../network-WideDeepModel/GatherV2-op55" -> "GatherV2-op55"). */
static void
short_kernel(const char *name, char *out, size_t cap)
{
    const char *s = name, *slash = strrchr(name, '/');
    size_t n;

    if (strncmp(s, "void ", 5) == 0)
        s += 5;
    if (slash != NULL && strchr(s, '<') == NULL && strchr(s, '(') == NULL)
        s = slash + 1;
    n = strcspn(s, "<(");
    snprintf(out, cap, "%.*s", (int)(n < 200 ? n : 200), s);
}

/* An embedding gather far below the memory roof moves small rows: its
 * time is per row, not per byte (review-5 finding 10: ascend_run1's
 * GatherV2-op55 gathers 4.99 M rows of 32 bytes a call at 7.6 GB/s).
 * Rows this small or smaller, and a rate under EMB_SLOW_FRAC of the
 * device's bandwidth (EMB_SLOW_GBPS where the trace names none: below
 * any HBM or GDDR device's), make the reading. */
#define EMB_SMALL_ROW 128.0
#define EMB_SLOW_FRAC 0.10
#define EMB_SLOW_GBPS 50.0

/* The per-row reading of embedding kernel k (a gather whose operator's
 * inputs are a 2-D table and its indices, with their dtypes) appended to
 * text; 1 when it applies. */
static int
gather_rate(const struct rctx *c, const cJSON *k, char *text, size_t cap)
{
    const struct pr_trace *t = c->f->t;
    const char *nm = pr_sget_str(k, PR_K_NAME), *dims, *types = NULL;
    struct pr_shape_list *sl;
    struct pr_dtype_list tl;
    struct pr_error err;
    double mean = pr_sget_num(k, PR_K_MEAN_US), peak = NAN, rows, row, bytes;
    double gbps;
    int elt, ielt, ok = 0;
    uint32_t id;
    char sname[208], where[200], idx[120];

    if (t == NULL || nm == NULL || !(mean > 0))
        return 0;
    id = pr_strtab_find(t->strs, nm, strlen(nm));
    dims = id != PR_STR_NONE ? pr_task_op_types(t, id, &types) : NULL;
    if (dims == NULL || types == NULL)
        return 0;
    sl = malloc(sizeof(*sl));
    if (sl == NULL)
        return 0;
    pr_error_clear(&err);
    if (pr_shapes_parse_dims(dims, sl, &err) != PR_OK ||
        pr_shapes_parse_types(types, &tl, &err) != PR_OK || sl->n < 2 ||
        tl.n < 2 || sl->arg[0].ndim != 2 || sl->arg[0].is_list ||
        (elt = pr_dtype_size(tl.t[0])) <= 0 || sl->arg[1].numel <= 0) {
        free(sl);
        return 0;
    }
    ielt = pr_dtype_size(tl.t[1]) > 0 ? pr_dtype_size(tl.t[1]) : 4;
    rows = (double)sl->arg[1].numel;
    row = (double)sl->arg[0].dims[1] * elt;
    /* each row read from the table and written out, each index read */
    bytes = rows * (2.0 * row + ielt);
    gbps = bytes / mean / 1000.0;
    peak = pr_sget_num(pr_sget_first(c->run, PR_K_DEVICES), PR_K_PEAK_GBPS);
    if (peak > 0)
        snprintf(where, sizeof(where), "%.1f%% of the %s's %.0f GB/s",
                 100.0 * gbps / peak, dev_word(c), peak);
    else
        snprintf(where, sizeof(where),
                 "far below any %s's memory bandwidth (the trace does not "
                 "name the device)",
                 dev_word(c));
    if (row <= EMB_SMALL_ROW &&
        (peak > 0 ? gbps < EMB_SLOW_FRAC * peak : gbps < EMB_SLOW_GBPS)) {
        int i, at = 0;

        for (i = 0; i < sl->arg[1].ndim && at < (int)sizeof(idx) - 24; i++)
            at += snprintf(idx + at, sizeof(idx) - (size_t)at, "%s%lld",
                           i ? ", " : "[", (long long)sl->arg[1].dims[i]);
        snprintf(idx + at, sizeof(idx) - (size_t)at, "]");
        short_kernel(nm, sname, sizeof(sname));
        snprintf(text, cap,
                 " %s gathers %.2f M rows of %.0f bytes a call (table "
                 "[%lld, %lld] %s, indices %s) in %.1f ms: %.1f GB/s of rows "
                 "read and written and indices read, %s. At that rate its "
                 "cost is "
                 "per row, not per byte, so narrower or lower-precision "
                 "tables would save little; fewer lookups are the lever: "
                 "de-duplicate the indices (gather each distinct row once, "
                 "then expand) or merge the lookups of tables that share "
                 "their ids.",
                 sname, rows / 1e6, row, (long long)sl->arg[0].dims[0],
                 (long long)sl->arg[0].dims[1], pr_dtype_name(tl.t[0]), idx,
                 mean / 1000.0, gbps, where);
        ok = 1;
    }
    free(sl);
    return ok;
}

static void
rule_embedding(struct rctx *c)
{
    const cJSON *f, *k;
    double pct = NAN;
    char text[REC_TEXT], top[700] = "", name[208], rate[1100] = "";
    size_t len = 0, n = 0;

    cJSON_ArrayForEach(
        f, pr_sget(pr_sget(c->run, PR_K_KERNEL_CLASSES), PR_K_BY_FAMILY))
    {
        if (pr_sget_is(pr_sget_str(f, PR_K_KFAMILY), PR_K_EMBEDDING))
            pct = pr_sget_num(f, PR_K_TIME_PCT);
    }
    if (!(pct >= EMBEDDING_MIN_PCT))
        return;
    cJSON_ArrayForEach(k, pr_sget(c->run, PR_K_KERNELS))
    {
        if (n == 3 || len >= sizeof(top))
            break;
        if (!pr_sget_is(pr_sget_str(k, PR_K_KFAMILY), PR_K_EMBEDDING))
            continue;
        short_kernel(pr_sget_str_or(k, PR_K_NAME, "?"), name, sizeof(name));
        len = pr_append(top, sizeof(top), len, "%s%s %.1f ms", n ? "; " : "",
                        name, pr_sget_num(k, PR_K_TOTAL_US) / 1000.0);
        n++;
    }
    cJSON_ArrayForEach(k, pr_sget(c->run, PR_K_KERNELS))
    {
        if (pr_sget_is(pr_sget_str(k, PR_K_KFAMILY), PR_K_EMBEDDING) &&
            gather_rate(c, k, rate, sizeof(rate)))
            break;
    }
    if (rate[0] != '\0')
        len = (size_t)snprintf(
            text, sizeof(text),
            "Embedding lookups and their gradients (row gathers from 2-D "
            "tables, the scatter-adds into them and the permutes of their "
            "inputs and outputs) take %.1f%% of the kernel time, most of "
            "it (their time in the whole capture): %s. They move rows, not "
            "arithmetic, and run off the %s.%s",
            pct, top,
            c->npu       ? "Cube"
            : amd_run(c) ? "matrix cores (MFMA)"
                         : "tensor cores",
            rate);
    else
        len = (size_t)snprintf(
            text, sizeof(text),
            "Embedding lookups and their gradients (row gathers from 2-D "
            "tables, the scatter-adds into them and the permutes of their "
            "inputs and outputs) take %.1f%% of the kernel time, most of "
            "it (their time in the whole capture): %s. They move rows, not "
            "arithmetic: memory-bound, "
            "not on the %s, so their time falls with the bytes they move "
            "(fewer or de-duplicated lookups, narrower or lower-precision "
            "tables).",
            pct, top,
            c->npu       ? "Cube"
            : amd_run(c) ? "matrix cores (MFMA)"
                         : "tensor cores");
    if (pr_sget_is(pr_sget_str(c->run, PR_K_FRAMEWORK), "mindspore") &&
        len < sizeof(text))
        snprintf(text + len, sizeof(text) - len,
                 " In MindSpore, nn.EmbeddingLookup with sparse=True "
                 "gathers with SparseGatherV2 and gives the table a sparse "
                 "(row) gradient instead of a dense UnsortedSegmentSum over "
                 "the whole table.");
    (void)add_rec_note(c, "embedding", "info", text,
                       /* the rate's text says the cost is per row (review 6
                          #7: ms_run1's note said "fewer bytes") */
                       rate[0] != '\0'
                           ? "no change replayed: the cost is per row looked "
                             "up, and how far fewer or de-duplicated lookups "
                             "shorten the step depends on the change, which no "
                             "replay models"
                           : "no change replayed: how far fewer bytes shorten "
                             "the lookups depends on the change, which no "
                             "replay models");
}

/* A device's utilization over the steps device activity covers, where
 * it covers only some (MindSpore caps its timeline: ascend_run1 has tasks
 * in 15 of 322 steps): the steps after have no device time, so the busy
 * time is the same over the shorter span (issue #30). */
static double
covered_util(const struct rctx *c, size_t i)
{
    /* gpu_metrics is over those steps already (analysis.c's window) */
    return c->tb->gpus[i].util_pct;
}

/* 7.5.5: GPUs busy less than half of the steps' span, listed together. */
static void
rule_low_util(struct rctx *c)
{
    const struct pr_rec_gpu *g = c->tb->gpus;
    struct pr_buf ids;
    char advice[800];
    size_t n = 0, k = 0, i;
    int fail = 0;

    /* a task list far short of the producer's step table: its busy
       share is the list's, not the device's (issue #30 finding 1); the
       step table's split carries the run's findings */
    if (!c->f->known || !isnan(pr_producer_table_comm_share(c->run)))
        return;
    for (i = 0; i < c->tb->n_gpus; i++)
        n += covered_util(c, i) < 50.0;
    if (n == 0)
        return;
    pr_buf_init(&ids, 4096);
    fail |=
        pr_buf_printf(&ids, "%s%s ", dev_word(c), n == 1 ? "" : "s") != PR_OK;
    for (i = 0; i < c->tb->n_gpus; i++) {
        if (!(covered_util(c, i) < 50.0) || isnan(g[i].device))
            continue;
        k++;
        fail |=
            pr_buf_printf(&ids, "%s%d", k == 1 ? "" : (k == n ? " and " : ", "),
                          (int)g[i].device) != PR_OK;
    }
    low_util_advice(c, advice, sizeof(advice));
    if (c->tb->covered_span_us > 0)
        fail |= pr_buf_printf(&ids,
                              " %s low utilization over the %zu steps that "
                              "have device activity. %s",
                              n == 1 ? "has" : "have", c->tb->covered_steps,
                              advice) != PR_OK;
    else
        fail |= pr_buf_printf(&ids, " %s low utilization. %s",
                              n == 1 ? "has" : "have", advice) != PR_OK;
    if (fail) {
        c->ok = 0;
    } else {
        /* its replay (whatif.c) is twice the batch: only the advice of a
           larger batch claims that gain */
        (void)add_rec_note(c, "low_gpu_utilization", "warning", ids.data,
                           !host_starved(c) ? low_util_note(c) : NULL);
    }
    pr_buf_free(&ids);
}

/* The AMP advice's text: the plugin's (FP16, its Volta-era default) on
 * compute capability 7.x; from 8.0 (Ampere) fp32 GEMMs reach tensor
 * cores by TF32 with one line, and AMP's dtype is bf16, which needs no
 * loss scaling (review R5).  pct: the eligible kernels' share. */
static void
amp_text(char *buf, size_t cap, double pct, int cc_major, int amd)
{
    /* one decimal, as the tensor-core figures show the same ratio */
    if (amd)
        /* HIP's 9.x is no CUDA capability, and ROCm's convolutions
           (MIOpen) have no cudnn.allow_tf32: bf16 autocast is the one
           line that moves fp32 GEMMs onto the matrix cores, at the fp16
           rate on CDNA 2 and 3 */
        snprintf(buf, cap,
                 "Kernels with %.1f%% time are launched by Tensor Cores "
                 "eligible operators (TensorBoard's list) and run in fp32 "
                 "off the matrix cores (MFMA). Use Automatic Mixed Precision "
                 "in bf16: torch.autocast(\"cuda\", dtype=torch.bfloat16) "
                 "(ROCm's PyTorch keeps the \"cuda\" device name), which "
                 "needs no gradient scaler.",
                 pct);
    else if (cc_major >= 8)
        snprintf(buf, cap,
                 "Kernels with %.1f%% time are launched by Tensor Cores "
                 "eligible operators and run in fp32 off the tensor cores. "
                 "On this GPU (compute capability %d.x) first allow TF32 for "
                 "matmuls: torch.backends.cuda.matmul.allow_tf32 = True, or "
                 "torch.set_float32_matmul_precision(\"high\") "
                 "(convolutions use TF32 by default through "
                 "torch.backends.cudnn.allow_tf32); then Automatic Mixed "
                 "Precision in bf16: torch.autocast(\"cuda\", "
                 "dtype=torch.bfloat16), which needs no gradient scaler.",
                 pct, cc_major);
    else
        snprintf(buf, cap,
                 "Kernels with %.1f%% time are launched by Tensor Cores "
                 "eligible operators. You could enable Automatic Mixed "
                 "Precision to speedup by using FP16.",
                 pct);
}

/* A torch.compile graph's autograd function (torch/_functorch/
 * _aot_autograd/runtime_wrappers.py: class CompiledFunction, whose
 * backward the autograd engine names CompiledFunctionBackward). */
static int
is_compiled_fn(const char *op)
{
    return strcmp(op, "CompiledFunction") == 0 ||
           strcmp(op, "CompiledFunctionBackward") == 0;
}

/* The fp32 GEMMs on CUDA cores eligible by their kernels' names (issue
 * #28), appended to the AMP advice: their share, a kernel, the operators
 * that launched them and the fix.  len: what buf holds already. */
static void
by_name_text(const struct pr_rec_facts *f, char *buf, size_t cap, int amd)
{
    size_t len = strlen(buf), i;
    int compiled = 1, n = 0, k;
    int64_t all = 0;

    for (i = 0; i < 3; i++) {
        all += f->by_name_op_ns[i];
        if (f->by_name_op_ns[i] > 0)
            compiled &= is_compiled_fn(pr_trace_str(f->t, f->by_name_op[i]));
    }
    k = snprintf(
        buf + len, cap - len,
        "%sKernels with %.1f%% time (%.1f of the %.1f ms of kernels "
        "that operators launch themselves%s) are fp32 "
        "GEMM/convolution kernels on %s (%.80s ...) that no "
        "Tensor Cores eligible operator launched: ",
        len ? " " : "", 100.0 * f->by_name_ratio, (double)f->by_name_ns / 1e6,
        (double)f->by_name_den / 1e6,
        len ? ", the basis of the share above too, so the two add" : "",
        amd ? "the vector ALUs" : "CUDA cores",
        f->by_name_kernel != PR_STR_NONE ? pr_trace_str(f->t, f->by_name_kernel)
                                         : "?");
    for (i = 0; i < 3 && k >= 0 && (size_t)k < cap - len; i++) {
        if (f->by_name_op_ns[i] <= 0)
            continue;
        len += (size_t)k;
        k = snprintf(buf + len, cap - len, "%s%.60s (%.0f%%)", n++ ? ", " : "",
                     pr_trace_str(f->t, f->by_name_op[i]),
                     all > 0 ? 100.0 * (double)f->by_name_op_ns[i] / (double)all
                             : 0.0);
    }
    if (k < 0 || (size_t)k >= cap - len)
        return;
    len += (size_t)k;
    snprintf(
        buf + len, cap - len, "%s%s",
        amd && compiled ? " launch them: fp32 GEMMs inside a compiled graph "
                          "(torch.compile's AOT autograd functions), with no "
                          "aten::mm/addmm/bmm above them; their names are "
                          "vector-ALU GEMM or convolution kernels'."
        : amd           ? " launch them; their names are vector-ALU GEMM or "
                          "convolution kernels'."
        : compiled      ? " launch them: fp32 GEMMs inside a compiled graph "
                          "(torch.compile's AOT autograd functions), with no "
                          "aten::mm/addmm/bmm above them; their names are cuBLAS, "
                          "cuDNN or CUTLASS CUDA-core kernels'."
                   : " launch them; their names are cuBLAS, cuDNN or CUTLASS "
                     "CUDA-core kernels'.",
        amd ? " Run the compiled model under torch.autocast(\"cuda\", "
              "dtype=torch.bfloat16)."
        : f->cc_major >= 8
            ? " Allow TF32 before compiling (torch.set_float32_matmul_"
              "precision(\"high\"): Inductor reads it when it compiles) "
              "or run the compiled model under torch.autocast(\"cuda\", "
              "dtype=torch.bfloat16)."
            : " Run the compiled model under torch.autocast(\"cuda\", "
              "dtype=torch.float16) with a GradScaler; TF32 needs compute "
              "capability 8.0, which this GPU does not have.");
}

/* The AMP rule's two conditions that miss, with their values, onto its
 * replay's row (whatif.h's misses): the AMP replay can still save time
 * where eligible operators ran fp32 kernels on CUDA cores beside others
 * on tensor cores (the bundled example: 14.6% of its step), which the
 * plugin's rule, written for a run with no tensor-core kernel at all,
 * does not cover; the verdict then says why no finding claims it. */
static void
amp_misses(struct rctx *c)
{
    char *buf;
    size_t len = 0;

    if (c->f->whatif == NULL)
        return;
    buf = c->f->whatif->misses[PR_WHATIF_AMP];
    if (c->f->tc_ratio > 0)
        len = pr_append(buf, PR_WHATIF_MISSES_CAP, len,
                        "%s already run %.1f%% of the kernel time "
                        "(TensorBoard's rule fires only when none does",
                        amd_run(c) ? "matrix cores (MFMA)" : "tensor cores",
                        100.0 * c->f->tc_ratio);
    else
        len = pr_append(buf, PR_WHATIF_MISSES_CAP, len,
                        "no kernel time is under Tensor Cores eligible "
                        "operators (TensorBoard's rule needs some");
    if (c->f->eligible_ratio > 0)
        len = pr_append(buf, PR_WHATIF_MISSES_CAP, len,
                        "; eligible operators' kernels are %.1f%% of it",
                        100.0 * c->f->eligible_ratio);
    pr_append(buf, PR_WHATIF_MISSES_CAP, len,
              "), and no fp32 GEMM/convolution kernel on %s runs "
              "outside an eligible operator (the rule by kernel names "
              "needs one); the eligible operators' fp32 kernels are in "
              "%s' findings",
              amd_run(c) ? "the vector ALUs" : "CUDA cores",
              amd_run(c) ? "Matrix cores (MFMA)" : "Tensor cores");
}

/* 7.5.6a: eligible operators launch kernels but none uses tensor cores;
 * and (issue #28) fp32 GEMMs that only their kernels' names show. */
static void
rule_amp(struct rctx *c)
{
    char text[REC_TEXT];
    int plugin, named;

    if (!c->f->known || c->f->cc_major < 7 || isnan(c->f->tc_ratio))
        return;
    plugin = c->f->tc_ratio == 0.0 && c->f->eligible_ratio > 0;
    named = c->f->by_name_ratio > 0 && c->f->t != NULL;
    if (!plugin && !named) {
        amp_misses(c);
        return;
    }
    text[0] = '\0';
    if (plugin)
        amp_text(text, sizeof(text), 100.0 * c->f->eligible_ratio,
                 c->f->cc_major, amd_run(c));
    if (named)
        by_name_text(c->f, text, sizeof(text), amd_run(c));
    add_rec(c, "enable_amp", "info", text);
}

/* The main device's compute major (-1 unknown): the busiest device's,
 * else the first device with one when no device is the busiest, else
 * the first device's. */
static int
main_cc_major(const struct pr_rec_tables *tb)
{
    size_t i;

    for (i = 0; i < tb->n_devs; i++) {
        const struct pr_rec_device *d = &tb->devs[i];

        if ((tb->main_device < 0 || d->id == tb->main_device) &&
            d->cc_major != -1)
            return d->cc_major;
    }
    return tb->n_devs > 0 ? tb->devs[0].cc_major : -1;
}

/* The plugin's rules from the rows' figures (the step summary's mean
 * breakdown, gpu_metrics, tensor_cores) rather than the exact facts,
 * only where the rules above did not add them. */
static void
rule_plugin_from_run(struct rctx *c)
{
    double dl = loader_share(c, step_share(c, PR_CAT_DATALOADER));
    double tcp = c->tb->tc_pct, elig = c->tb->eligible_pct;
    char text[REC_TEXT], advice[800];
    size_t i;

    if (dl > 0.05) {
        dataloader_text(c, dl, NAN, text, sizeof(text));
        add_rec(c, "dataloader", "warning", text);
    }
    for (i = 0; i < c->tb->n_gpus; i++) {
        double u = covered_util(c, i);

        if (u < 50.0 && !has_rec(c->arr, "low_gpu_utilization") &&
            isnan(pr_producer_table_comm_share(c->run))) {
            low_util_advice(c, advice, sizeof(advice));
            if (c->tb->covered_span_us > 0)
                snprintf(text, sizeof(text),
                         "%s %.0f has low utilization (%.1f%% over the %zu "
                         "steps that have device activity). %s",
                         dev_word(c), c->tb->gpus[i].device, u,
                         c->tb->covered_steps, advice);
            else
                snprintf(text, sizeof(text),
                         "%s %.0f has low utilization (%.1f%%). %s",
                         dev_word(c), c->tb->gpus[i].device, u, advice);
            add_rec(c, "low_gpu_utilization", "warning", text);
        }
    }
    if (main_cc_major(c->tb) >= 7 && tcp == 0.0 && elig > 0) {
        amp_text(text, sizeof(text), elig, main_cc_major(c->tb), amd_run(c));
        add_rec(c, "enable_amp", "info", text);
    }
}

/* ---------------------------------------------------- efficiency rules */

/* Many tiny kernels while the CPU side of the step is busy launching,
 * and the GPU idle waiting for launches (hostdev.c's host wait). */
static const char *
launch_advice(const struct rctx *c)
{
    /* without steps the loop's iteration is what a graph holds */
    if (pr_sget_run_is_capture(c->run) && amd_run(c))
        /* ROCm's PyTorch keeps the torch.cuda names; the runtime's graphs
           are HIP graphs (review 32g #8) */
        return c->hd->cuda_graphs
                   ? "The run already replays HIP graphs: capture more of "
                     "each iteration in them, fuse small ops with "
                     "torch.compile, or raise the batch size."
                   : "Capture each iteration in a HIP graph "
                     "(torch.compile(mode=\"reduce-overhead\") or "
                     "torch.cuda.CUDAGraph, which ROCm builds of PyTorch "
                     "run as HIP graphs), fuse small ops with "
                     "torch.compile, or raise the batch size.";
    if (mtia_run(c))
        /* PyTorch's torch.mtia.mtia_graph (MTIAGraph, graph), the
           backend's own out of tree */
        return c->hd->cuda_graphs
                   ? (pr_sget_run_is_capture(c->run)
                          ? "The run already replays MTIA graphs: capture "
                            "more of each iteration in them, fuse small ops "
                            "with torch.compile, or raise the batch size."
                          : "The run already replays MTIA graphs: capture "
                            "more of the step in them, fuse small ops with "
                            "torch.compile, or raise the batch size.")
               : pr_sget_run_is_capture(c->run)
                   ? "Capture each iteration in an MTIA graph "
                     "(torch.mtia.mtia_graph.graph), fuse small ops with "
                     "torch.compile, or raise the batch size."
                   : "Capture the step in an MTIA graph "
                     "(torch.mtia.mtia_graph.graph), fuse small ops with "
                     "torch.compile, or raise the batch size.";
    if (pr_sget_run_is_capture(c->run))
        return c->npu ? "Run each iteration as a graph (torch.compile with "
                        "torchair's NPU backend), fuse small ops, or raise "
                        "the batch size."
               : c->hd->cuda_graphs
                   ? "The run already replays CUDA graphs: capture more of "
                     "each iteration in them, fuse small ops with "
                     "torch.compile, or raise the batch size."
                   : "Capture each iteration in a CUDA graph "
                     "(torch.compile(mode=\"reduce-overhead\") or "
                     "torch.cuda.CUDAGraph), fuse small ops with "
                     "torch.compile, or raise the batch size.";
    if (c->npu)
        return "Run the step as a graph (torch.compile with torchair's "
               "NPU backend), fuse small ops, or raise the batch size.";
    if (amd_run(c))
        return c->hd->cuda_graphs
                   ? "The run already replays HIP graphs: capture more of "
                     "the step in them, fuse small ops with torch.compile, "
                     "or raise the batch size."
                   : "Capture the step in a HIP graph (torch.compile(mode="
                     "\"reduce-overhead\") or torch.cuda.CUDAGraph, which "
                     "ROCm builds of PyTorch run as HIP graphs), fuse small "
                     "ops with torch.compile, or raise the batch size.";
    return c->hd->cuda_graphs
               ? "The run already replays CUDA graphs: capture more of the "
                 "step in them, fuse small ops with torch.compile, or "
                 "raise the batch size."
               : "Capture the step in a CUDA graph (torch.compile(mode="
                 "\"reduce-overhead\") or torch.cuda.CUDAGraph), fuse "
                 "small ops with torch.compile, or raise the batch size.";
}

/* The share of the step CANN's online operator compilation takes
 * (runs[].op_compile, producer.c); 0 when the run has none. */
static double
op_compile_share(const struct rctx *c)
{
    double p = pr_sget_num(pr_sget(c->run, PR_K_OP_COMPILE), PR_K_STEP_PCT);

    return p > 0 ? p / 100.0 : 0.0;
}

/* Operators on CANN's aclop path (torch_npu's jit_compile=True): its
 * calls hold the host while the device waits, which is not launch
 * overhead.  Only their opCompile steps compile (runs[].op_compile's
 * compile_us); the rest is the path's execution (review-5 finding 2:
 * 156 us of 6.6 ms in torch_npu_ascend_profiler_output), so the lever is
 * the binary kernels, not a warm-up. */
static void
rule_op_compile(struct rctx *c)
{
    const cJSON *oc = pr_sget(c->run, PR_K_OP_COMPILE), *op;
    double share = op_compile_share(c), total, comp;
    char text[REC_TEXT], ops[400] = "", what[600];
    size_t len = 0, n = 0;

    if (!c->npu || !(share >= 0.05))
        return;
    cJSON_ArrayForEach(op, pr_sget(oc, PR_K_OPERATORS))
    {
        int w;

        if (n == 4 || len >= sizeof(ops))
            break;
        w = snprintf(ops + len, sizeof(ops) - len, "%s%s %.0f \xC2\xB5s",
                     n ? ", " : "", pr_sget_str_or(op, PR_K_NAME, "?"),
                     pr_sget_num(op, PR_K_US));
        if (w < 0)
            break;
        len += (size_t)w;
        n++;
    }
    total = pr_sget_num(oc, PR_K_TOTAL_US);
    comp = pr_sget_num(oc, PR_K_COMPILE_US);
    if (isnan(comp))
        snprintf(what, sizeof(what),
                 "The trace records no compile step (AscendCL@opCompile) "
                 "inside the calls, so how much of them is compilation and "
                 "how much the aclop path's execution is not known.");
    else
        snprintf(
            what, sizeof(what),
            "Compilation is not the cost: the calls' own compile steps "
            "(AscendCL@opCompile) take %.2f ms in all, %.0f \xC2\xB5s a call, "
            "a lookup that found the operator built (CANN looks it up "
            "by type, tensor descriptions and attributes before it "
            "compiles; a fresh build takes far longer). The other "
            "%.1f ms is the aclop "
            "path's execution on the host (finding the compiled "
            "operator, building its tensor descriptors and attributes, "
            "and the format conversions it needs, such as TransData), "
            "during which the operator's device tasks wait.",
            comp / 1000.0, comp / pr_sget_num(oc, PR_K_CALLS),
            (total - comp) / 1000.0);
    snprintf(text, sizeof(text),
             "%.0f call%s of aclopCompileAndExecute / aclopCompile take "
             "%.1f ms, %.1f%% of the step%s%s%s%s: these operators run on "
             "CANN's aclop path (torch_npu's jit_compile=True). %s Run them "
             "as prebuilt binary kernels, which skip the aclop path and its "
             "private-format conversions: "
             "torch_npu.npu.set_compile_mode(jit_compile=False) at the start "
             "of the script (CANN's binary operator package installed).",
             pr_sget_num(oc, PR_K_CALLS),
             pr_sget_num(oc, PR_K_CALLS) == 1 ? "" : "s", total / 1000.0,
             100.0 * share,
             pr_run_host_step(c->run) ? " by torch_npu's rule" : "",
             n ? " (" : "", ops, n ? ")" : "", what);
    add_rec(c, "op_compile", "warning", text);
}

/* The slower stage of a pipeline job (MindSpore's cluster table says
 * this rank computes most of its step, work its export holds no tasks
 * for): the verdict names it, and this finding gives it its own line with
 * the table's figures (second review, finding 8: rank2 read "No
 * finding").  Its gain is the stages' balance (stages.c: a 1F1B model
 * over every stage's computation_time), put on once every rank is read;
 * moving layers is no change the replay models (the export has no
 * compute tasks for the stage). */
static void
rule_pipeline_stage(struct rctx *c)
{
    const cJSON *m = pr_sget(pr_sget(c->run, PR_K_STEP_PHASES), PR_K_MEAN);
    double comp = pr_sget_num(m, PR_K_COMPUTING_US);
    double step =
        pr_sget_num(pr_sget(c->run, PR_K_STEP_SUMMARY), PR_K_MEDIAN_US);
    char note[320], text[REC_TEXT];
    struct pr_row_recommendation r;
    cJSON *ev;

    if (pr_producer_pipeline_note(c->run, note, sizeof(note)) !=
        PR_PIPE_SLOW_STAGE)
        return;
    snprintf(text, sizeof(text),
             "%s The faster stage's ranks wait "
             "for it in Receive (a pipeline bubble; the Distributed "
             "section's pipeline view has both stages' figures). Move "
             "layers from this stage to the faster one (the pipeline's "
             "layer split, each Cell's pipeline_stage) until the stages "
             "compute about as long.",
             note + (note[0] == ' '));
    ev = cJSON_CreateArray();
    if (!pr_emit_evidence(ev, "computation_time (MindSpore's cluster table)",
                          comp, NAN) ||
        !pr_emit_evidence(ev, "median step", step, NAN)) {
        cJSON_Delete(ev);
        c->ok = 0;
        return;
    }
    pr_rec_init(&r, "pipeline_stage", "warning", text);
    r.gain_note = PIPE_NO_GAIN;
    r.evidence = ev; /* the row holds its copy */
    pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_NOTE);
    pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_EVIDENCE);
    add_rec_row(c, &r);
    cJSON_Delete(ev);
}

/* The parts of the launch rule's evidence that miss, each with its value
 * and what the rule needs, onto its replay's row (whatif.h's misses: the
 * verdict names them beside an unclaimed launch replay, review-5 #12). */
static void
launch_misses(struct rctx *c, double calls, double small, double rt, double opc,
              double host_wait)
{
    char *buf;
    size_t cap = PR_WHATIF_MISSES_CAP, len = 0;
    int n = 0;

    if (c->f->whatif == NULL)
        return;
    buf = c->f->whatif->misses[PR_WHATIF_LAUNCH];
    buf[0] = '\0';
    if (opc > 0 && opc >= 0.5 * (rt + opc))
        len = pr_append(buf, cap, len,
                        "%saclop-path calls (aclop*: compile and execute) "
                        "are %.0f%% of the runtime calls' time (under half "
                        "needed)",
                        n++ ? ", " : "", 100.0 * opc / (rt + opc));
    if (calls < PR_LAUNCH_MIN_CALLS)
        len = pr_append(buf, cap, len, "%s%.0f kernel calls (%.0f needed)",
                        n++ ? ", " : "", calls, PR_LAUNCH_MIN_CALLS);
    else if (small / calls < PR_LAUNCH_SMALL_SHARE)
        len = pr_append(buf, cap, len,
                        "%s%.0f%% of %.0f kernel calls run under "
                        "%.0f \xC2\xB5s (half needed)",
                        n++ ? ", " : "", 100.0 * small / calls, calls,
                        PR_LAUNCH_SMALL_US);
    if (rt < PR_LAUNCH_RUNTIME_SHARE)
        len = pr_append(buf, cap, len,
                        "%sruntime calls are %.1f%% of the %s (%.0f%% "
                        "needed)",
                        n++ ? ", " : "", 100.0 * rt, pr_run_window(c->run),
                        100.0 * PR_LAUNCH_RUNTIME_SHARE);
    if (host_wait < PR_LAUNCH_HOST_WAIT_PCT)
        pr_append(buf, cap, len,
                  "%sthe device idles %.1f%% of its time waiting for the "
                  "host (%.0f%% needed)",
                  n++ ? ", " : "", host_wait, PR_LAUNCH_HOST_WAIT_PCT);
}

static void
rule_launch_bound(struct rctx *c)
{
    double calls = 0, small = 0, small_us = 0,
           rt = step_share(c, PR_CAT_RUNTIME), host_wait = c->hd->host_wait_pct;
    double opc = op_compile_share(c);
    char text[REC_TEXT];
    size_t i;

    for (i = 0; i < c->tb->n_kernels; i++) {
        double n = c->tb->kernels[i].calls, mean = c->tb->kernels[i].mean_us;

        if (!isfinite(n) || !isfinite(mean))
            continue;
        calls += n;
        small += mean < PR_LAUNCH_SMALL_US ? n : 0;
        small_us += mean < PR_LAUNCH_SMALL_US ? n * mean : 0;
    }
    /* evidence: the GPU idles while the CPU has not yet launched; CANN's
       online operator compilation is runtime time too, but no launch
       overhead (rule_op_compile): it does not count */
    launch_misses(c, calls, small, rt - opc, opc, host_wait);
    if (pr_run_graph_share(c->run) >= PR_GRAPHED_SHARE) {
        if (c->f->whatif != NULL) {
            char *buf = c->f->whatif->misses[PR_WHATIF_LAUNCH];
            size_t len = strlen(buf);

            pr_append(buf, PR_WHATIF_MISSES_CAP, len,
                      "%s%.0f%% of the kernels already come from graph "
                      "launches (under %.0f%% needed)",
                      len > 0 ? ", " : "", 100.0 * pr_run_graph_share(c->run),
                      100.0 * PR_GRAPHED_SHARE);
        }
        return;
    }
    if (opc >= 0.5 * rt)
        return;
    rt -= opc;
    if (calls < PR_LAUNCH_MIN_CALLS || small / calls < PR_LAUNCH_SMALL_SHARE ||
        !(rt >= PR_LAUNCH_RUNTIME_SHARE) ||
        !(host_wait >= PR_LAUNCH_HOST_WAIT_PCT))
        return;
    if (c->f->whatif != NULL) /* it fires: nothing misses */
        c->f->whatif->misses[PR_WHATIF_LAUNCH][0] = '\0';
    snprintf(
        text, sizeof(text),
        "%.0f%% of %.0f kernel launches are of kernels that average under "
        "10 \xC2\xB5s (%.1f \xC2\xB5s a launch among them) while %s "
        "runtime calls take %.1f%% of the %s, and the %s idles %.1f%% of its "
        "time waiting for the "
        "next launch (median launch delay %.1f \xC2\xB5s): the %s waits for "
        "the CPU to launch work. %s",
        100.0 * small / calls, calls, small_us / small,
        c->npu        ? "CANN"
        : amd_run(c)  ? "HIP"
        : mtia_run(c) ? "MTIA"
                      : "CUDA",
        100.0 * rt, pr_run_window(c->run), dev_word(c), host_wait,
        c->hd->delay_median_us, dev_word(c), launch_advice(c));
    add_rec(c, "launch_bound", "warning", text);
}

/* A launch call holding the host this long and this share of its step
 * loads code, not launches: module loading (lazy since CUDA 11.7), HIP
 * code objects, JIT compilation.  A warm launch takes microseconds. */
#define COLD_LAUNCH_US 1000.0
#define COLD_STEP_PCT 20.0
/* Any share: a call this long whose kernel then started at once (the
 * queue was empty, so the call did not wait for a slot in a full launch
 * queue) was loading code. */
#define COLD_LOAD_US 100000.0

/* A cold step: one kernel launch holds the host for a large share of its
 * step, or for over 100 ms with an empty queue, while the runtime loads
 * the kernel's code on its first use. */
static void
rule_cold_step(struct rctx *c)
{
    const struct pr_hostdev_out *hd = c->hd;
    int capture = strcmp(hd->slow_launch_step, PR_STEPS_CAPTURE_NAME) == 0;
    char text[REC_TEXT], where[96];
    int replay;

    if (!(hd->slow_launch_us >= COLD_LAUNCH_US) ||
        !(hd->slow_launch_step_pct >= COLD_STEP_PCT ||
          (hd->slow_launch_us >= COLD_LOAD_US &&
           hd->slow_launch_delay_us * 1000.0 <= PR_STEPS_QUEUED_NS)))
        return;
    if (capture || hd->slow_launch_step[0] == '\0')
        snprintf(where, sizeof(where), "The capture");
    else
        snprintf(where, sizeof(where), "Step %s", hd->slow_launch_step);
    /* kernel replay (the attribution's times nulled, its kernels
       counted: analysis.c replay_attribution): the long call is CUPTI
       replaying the kernel, not first use (review31 #5: cupti_range) */
    replay = cJSON_IsNull(pr_sget(pr_sget(c->run, PR_K_ATTRIBUTION),
                                  PR_K_KERNEL_TIME_US)) &&
             pr_sget_num(pr_sget(c->run, PR_K_ATTRIBUTION), PR_K_KERNELS) > 0;
    snprintf(text, sizeof(text), "%s %s: one %s call held the host %.1f ms",
             where, replay ? "stalls under kernel replay" : "is cold",
             hd->slow_launch_name[0] ? hd->slow_launch_name : "launch",
             hd->slow_launch_us / 1000.0);
    if (isfinite(hd->slow_launch_step_pct))
        snprintf(text + strlen(text), sizeof(text) - strlen(text),
                 ", %.0f%% of the %s host time", hd->slow_launch_step_pct,
                 capture ? "capture's" : "step's");
    if (replay)
        snprintf(text + strlen(text), sizeof(text) - strlen(text),
                 ", where a launch takes microseconds. Under kernel replay "
                 "(CUPTI's range profiler) the host stalls in its launches "
                 "while each kernel is replayed for its counters, so this "
                 "is the replay's cost, not first use, and no figure of "
                 "this capture is the program's steady state; profile "
                 "without the range profiler for times.");
    else
        snprintf(text + strlen(text), sizeof(text) - strlen(text),
                 ", where a launch takes microseconds. The first launch of a "
                 "kernel loads its code (lazy module loading, code objects, "
                 "JIT compilation), a one-time cost, so these figures are "
                 "not the steady state's. %s",
                 pr_whatif_warmup_advice(c->run, capture));
    add_rec(c, "cold_step", "warning", text);
}

/* A blocking copy of input to the device (cudaMemcpy HtoD, a pageable
 * cudaMemcpyAsync): pinned memory fixes it, not fewer .item() calls. */
static int
input_copy(const struct pr_hostdev_sync *r)
{
    return pr_sget_is(r->direction, "HtoD");
}

/* The device idle the blocking calls caused, input copies apart or only
 * they (want_copies). */
static double
sync_idle(const struct rctx *c, int want_copies)
{
    double idle = 0;
    size_t i;

    for (i = 0; i < c->hd->n_syncs; i++) {
        const struct pr_hostdev_sync *r = &c->hd->syncs[i];

        if (input_copy(r) == want_copies && isfinite(r->idle_us))
            idle += r->idle_us -
                    (isfinite(r->cudnn_idle_us) ? r->cudnn_idle_us : 0);
    }
    return idle;
}

/* The device idle after cuDNN's algorithm search (hostdev.c's cudnn_op),
 * and its calls in *n. */
static double
cudnn_idle(const struct rctx *c, double *n)
{
    double idle = 0;
    size_t i;

    *n = 0;
    for (i = 0; i < c->hd->n_syncs; i++) {
        const struct pr_hostdev_sync *r = &c->hd->syncs[i];

        if (isfinite(r->cudnn_idle_us) && r->cudnn_count > 0) {
            idle += r->cudnn_idle_us;
            *n += r->cudnn_count;
        }
    }
    return idle;
}

/* Up to three blocking calls that starved the device, for the text. */
static size_t
append_sync_calls(char *text, size_t cap, size_t len, const struct rctx *c,
                  const char *dev)
{
    double total = sync_idle(c, 0);
    size_t n = 0, i;

    for (i = 0; i < c->hd->n_syncs; i++) {
        const struct pr_hostdev_sync *r = &c->hd->syncs[i];

        double cnt = r->count - (r->cudnn_count > 0 ? r->cudnn_count : 0);
        double idle =
            r->idle_us - (isfinite(r->cudnn_idle_us) && r->cudnn_idle_us > 0
                              ? r->cudnn_idle_us
                              : 0);

        if (n == 3 || input_copy(r) || !(cnt > 0) || !(idle >= 0.01 * total))
            continue;
        len = pr_append(text, cap, len, "%s%s x%.0f (%.1f ms %s idle)",
                        n++ ? ", " : "", r->name, cnt, idle / 1000.0, dev);
    }
    return len;
}

/* Blocking host syncs inside the profiled steps that left the device idle
 * (hostdev.c); syncs outside the steps (profiler shutdown) are not the
 * user's and do not count, and blocking input copies are the pinned
 * memory advice's (rule_pageable_copies). */
static void
rule_host_sync(struct rctx *c)
{
    double span = c->tb->steps_span_us, idle = sync_idle(c, 0), dnn_n;
    double dnn = cudnn_idle(c, &dnn_n);
    const char *dev = dev_word(c);
    char text[REC_TEXT];
    size_t len;
    int capture = pr_sget_run_is_capture(c->run);

    /* cuDNN's algorithm search is not the loop's: said apart, as a
       one-time cost (review 30g #2: resnet50_autograd_api's 357
       cudaEventSynchronize, all inside cuDNN convolutions beside a
       cudaEventElapsedTime, were told to avoid .item()) */
    if (span > 0 && dnn / span >= 0.02)
        snprintf(text, sizeof(text),
                 "The host blocks on the %s in %.0f event synchronization%s "
                 "inside cuDNN convolutions, and the %s then idles %.1f ms "
                 "(%.1f%% of the %s): cuDNN's algorithm search "
                 "(torch.backends.cudnn.benchmark=True) times each candidate "
                 "algorithm between two events on a convolution shape's "
                 "first call, once per shape: a one-time cost, not the "
                 "loop's to remove. %s",
                 dev, dnn_n, dnn_n == 1 ? "" : "s", dev, dnn / 1000.0,
                 100.0 * dnn / span, capture ? "capture" : "profiled steps",
                 pr_whatif_warmup_advice(c->run, capture));
    if (span > 0 && dnn / span >= 0.02)
        (void)add_rec_note(c, "cudnn_search", "info", text,
                           "no change replayed: the search runs once per "
                           "convolution shape, so a warm capture holds "
                           "none of it (the cold-start reading's replay "
                           "counts its calls where they are long)");
    if (!(span > 0) || !(idle / span >= 0.02))
        return;

    len = pr_append(text, sizeof(text), 0,
                    "The host blocks on the %s %s and the %s then idles %.1f "
                    "ms (%.1f%% of the %s) until new work arrives: ",
                    dev, capture ? "in the capture" : "inside the steps", dev,
                    idle / 1000.0, 100.0 * idle / span,
                    capture ? "capture" : "profiled steps");
    len = append_sync_calls(text, sizeof(text), len, c, dev);
    /* a program that is not PyTorch's is told in its runtime's words
       (review 28h #11: a CUDA C++ code under nsys that syncs the device
       after each of its 1,312 kernels was told to avoid .item()) */
    if (!c->npu && !pr_run_is_torch(c->run)) {
        pr_append(text, sizeof(text), len,
                  ". Synchronize less: kernels on one stream already run in "
                  "order, so wait only where the host reads a result (on "
                  "that stream or an event, not the whole device), and "
                  "batch such reads every N iterations.");
        add_rec(c, "host_sync", "warning", text);
        return;
    }
    /* an inference run has no training step (hunt30 #5: an xDiT Flux
       capture was told "in the training step") */
    if (pr_run_trains(c->run) == 0)
        pr_append(text, sizeof(text), len,
                  ". Avoid .item(), .cpu(), .tolist(), print(tensor) and "
                  "%s inside the forward or the serving loop; read results "
                  "back once per batch, after its work is queued.",
                  c->npu ? "torch.npu.synchronize()"
                         : "torch.cuda.synchronize()");
    else
        pr_append(text, sizeof(text), len,
                  ". Avoid .item(), .cpu(), .tolist(), print(tensor) and "
                  "%s in the training step; keep metrics on the %s and read "
                  "them every N steps.",
                  c->npu ? "torch.npu.synchronize()"
                         : "torch.cuda.synchronize()",
                  dev);
    add_rec(c, "host_sync", "warning", text);
}

/* Pageable host copies: staged through a pinned buffer, blocking the
 * host; judged against the host link, never device memory. */
struct pageable {
    double n, n_dtoh, bytes, us, link_pct, link_gbps, top_us;
    const char *link;
};

static void
sum_pageable(const struct rctx *c, struct pageable *p)
{
    size_t i;

    memset(p, 0, sizeof(*p));
    p->link_pct = NAN;
    for (i = 0; i < c->hd->n_copies; i++) {
        const struct pr_hostdev_copy *r = &c->hd->copies[i];

        if (!pr_sget_is(r->host_memory, "pageable") || !isfinite(r->us))
            continue;
        p->n += r->count;
        if (pr_sget_is(r->direction, "DtoH"))
            p->n_dtoh += r->count;
        p->us += r->us;
        p->bytes += isfinite(r->bytes) ? r->bytes : 0;
        if (r->us > p->top_us && r->link != NULL) {
            p->top_us = r->us;
            p->link = r->link;
            p->link_pct = r->link_pct;
            p->link_gbps = r->link_gbps;
        }
    }
}

/* The blocking input copies' calls and their device idle, for the text. */
static size_t
append_input_copies(char *text, size_t cap, size_t len, const struct rctx *c)
{
    double n = 0, idle = sync_idle(c, 1);
    const char *name = NULL;
    size_t i;

    for (i = 0; i < c->hd->n_syncs; i++) {
        const struct pr_hostdev_sync *r = &c->hd->syncs[i];

        if (!input_copy(r) || !isfinite(r->count))
            continue;
        n += r->count;
        name = name != NULL ? name : r->name;
    }
    if (!(n > 0))
        return len;
    return pr_append(text, cap, len,
                     "%s%.0f blocking copies to the %s (%s%s) left it idle "
                     "%.1f ms while the host waited on each",
                     len > 0 ? "; " : "", n, dev_word(c), name,
                     n > 1 ? ", ..." : "", idle / 1000.0);
}

static void
rule_pageable_copies(struct rctx *c)
{
    struct pageable p;
    double span = c->tb->steps_span_us, input_idle = sync_idle(c, 1);
    char text[REC_TEXT];
    size_t len = 0, mark;
    int slow, to_dev, to_host;

    sum_pageable(c, &p);
    /* slow: under half the link, or a link we cannot judge */
    slow = span > 0 && p.us / span >= 0.01 && !(p.link_pct >= 50.0);
    if (!slow && !(span > 0 && input_idle / span >= 0.02))
        return;
    if (slow) {
        len = pr_append(text, sizeof(text), 0,
                        "%.0f copies %s the %s %s pageable host memory "
                        "move %.1f MB in %.1f ms (%.1f GB/s",
                        p.n, p.n_dtoh >= p.n ? "from" : "between", dev_word(c),
                        p.n_dtoh >= p.n ? "into" : "and", p.bytes / 1e6,
                        p.us / 1000.0, p.bytes / (p.us * 1000.0));
        if (p.link != NULL && isfinite(p.link_pct))
            len = pr_append(text, sizeof(text), len,
                            "; the busiest kind runs at %.0f%% of the %s link, "
                            "%.1f GB/s per direction",
                            p.link_pct, p.link, p.link_gbps);
        len = pr_append(text, sizeof(text), len, ")");
    }
    mark = len;
    len = append_input_copies(text, sizeof(text), len, c);
    /* advice by direction (issue #29 #1): pinning the loader's tensors
       fixes copies to the device; a copy into pageable host memory returns
       only once it is done, and no DataLoader option changes that */
    to_dev = (slow && p.n > p.n_dtoh) || len > mark;
    to_host = slow && p.n_dtoh > 0;
    if (!to_host) {
        pr_append(text, sizeof(text), len,
                  ": the driver stages pageable memory through a pinned "
                  "buffer and the host blocks until the copy is done. "
                  "Allocate host tensors pinned (DataLoader(pin_memory=True) "
                  "or tensor.pin_memory()) and copy with .to(device, "
                  "non_blocking=True).");
        add_rec(c, "pageable_copies", "warning", text);
        return;
    }
    len = pr_append(text, sizeof(text), len,
                    ": the driver stages pageable memory through a pinned "
                    "buffer, and a copy into pageable host memory returns "
                    "only once it is done, after the work queued before it");
    if (to_dev)
        len = pr_append(text, sizeof(text), len,
                        ". For the copies to the %s, allocate host tensors "
                        "pinned (DataLoader(pin_memory=True) or "
                        "tensor.pin_memory()) and copy with .to(device, "
                        "non_blocking=True); for the copies to the host,",
                        dev_word(c));
    else
        len = pr_append(text, sizeof(text), len,
                        ". DataLoader(pin_memory=True) does not help a read "
                        "back to the host:");
    pr_append(text, sizeof(text), len,
              " keep the values on the %s and read them "
              "back less often, or copy into a preallocated pinned buffer "
              "with non_blocking=True and synchronize once.",
              dev_word(c));
    add_rec(c, "pageable_copies", "warning", text);
}

/* The copies from or to the host of the largest kind, for copy_bound. */
static const struct pr_hostdev_copy *
top_host_copy(const struct rctx *c, double *call_us)
{
    const struct pr_hostdev_copy *top = NULL;
    size_t i;

    *call_us = 0;
    for (i = 0; i < c->hd->n_copies; i++) {
        const struct pr_hostdev_copy *r = &c->hd->copies[i];

        if (!pr_sget_is(r->direction, "HtoD") &&
            !pr_sget_is(r->direction, "DtoH"))
            continue;
        *call_us += isfinite(r->call_us) ? r->call_us : 0;
        if (top == NULL || r->us > top->us)
            top = r;
    }
    return top;
}

/* Copies between the host and a device keep it busy most of its span:
 * the host link, not compute, bounds the run. */
static void
rule_copy_bound(struct rctx *c)
{
    const struct pr_hostdev_copy *top;
    double call_us;
    char text[REC_TEXT];
    size_t len;
    int pageable, to_host;

    if (!copy_bound(c) || (top = top_host_copy(c, &call_us)) == NULL)
        return;
    pageable = pr_sget_is(top->host_memory, "pageable");
    to_host = pr_sget_is(top->direction, "DtoH");
    len = pr_append(text, sizeof(text), 0,
                    "Copies between the host and the %s keep it busy %.0f%% of "
                    "its span: the run is bound by the host link, not by "
                    "compute. The largest kind, %.0f %s copies %s %s memory, ",
                    dev_word(c), c->hd->copy_busy_pct, top->count,
                    top->direction, to_host ? "into" : "from",
                    top->host_memory ? top->host_memory : "host");
    if (top->bytes > 0)
        len = pr_append(text, sizeof(text), len, "moves %.1f MB in ",
                        top->bytes / 1e6);
    else
        len = pr_append(text, sizeof(text), len, "takes ");
    len = pr_append(text, sizeof(text), len, "%.1f ms", top->us / 1000.0);
    if (isfinite(top->gbps) && top->link != NULL && isfinite(top->link_pct))
        len = pr_append(text, sizeof(text), len,
                        " at %.1f GB/s (%.0f%% of the %s link, %.1f GB/s "
                        "per direction)",
                        top->gbps, top->link_pct, top->link, top->link_gbps);
    else if (isfinite(top->gbps))
        len = pr_append(text, sizeof(text), len, " at %.1f GB/s", top->gbps);
    len = pr_append(text, sizeof(text), len,
                    "; the host spends %.1f ms inside the calls that enqueue "
                    "copies",
                    call_us / 1000.0);
    if (to_host) {
        /* a read back (issue #29 #1): pinning the loader's tensors and
           smaller inputs fix copies to the device, not these */
        if (pageable)
            len = pr_append(text, sizeof(text), len,
                            ". A copy into pageable memory is staged by the "
                            "driver through a pinned buffer and returns only "
                            "once it is done, after the work queued before "
                            "it; DataLoader(pin_memory=True) does not help a "
                            "read back to the host");
        if (pr_sget_is(top->host_memory, "pinned"))
            pr_append(text, sizeof(text), len,
                      ". The copies go into pinned memory already: keep the "
                      "values on the %s and read them back less often (only "
                      "what the host needs, every N steps), with "
                      "non_blocking=True and one synchronize for them all.",
                      dev_word(c));
        else
            pr_append(text, sizeof(text), len,
                      ". Keep the values on the %s and read them back less "
                      "often (only what the host needs, every N steps), or "
                      "copy into a preallocated pinned buffer with "
                      "non_blocking=True and synchronize once.",
                      dev_word(c));
        add_rec(c, "copy_bound", "warning", text);
        return;
    }
    if (pageable)
        len = pr_append(
            text, sizeof(text), len,
            ". Pageable copies are staged by the driver through a pinned "
            "buffer and block the host: allocate the host tensors pinned "
            "(DataLoader(pin_memory=True) or tensor.pin_memory()) and copy "
            "with non_blocking=True on a side stream so the copies overlap "
            "compute");
    else if (pr_sget_is(top->host_memory, "pinned"))
        len = pr_append(text, sizeof(text), len,
                        ". The copies are pinned already: copy each batch "
                        "once with non_blocking=True on a side stream so it "
                        "overlaps compute");
    else
        len = pr_append(text, sizeof(text), len,
                        ". Copy each batch once from pinned memory with "
                        "non_blocking=True on a side stream so it overlaps "
                        "compute");
    pr_append(text, sizeof(text), len,
              "; keep data on the %s across steps, and send less (uint8 "
              "images, normalised on the %s).",
              dev_word(c), dev_word(c));
    add_rec(c, "copy_bound", "warning", text);
}

/* Memory bandwidth of the device with the most kernel time; NaN. */
static double
main_gbps(const struct pr_rec_tables *tb)
{
    double bw = NAN;
    size_t i;

    for (i = 0; i < tb->n_devs; i++) {
        if (isnan(bw) || tb->devs[i].id == tb->main_device)
            bw = tb->devs[i].peak_gbps;
    }
    return bw;
}

/* An op's device-memory rate, its copies from or to the host apart: those
 * cross the host link, never device memory, and their bytes are modelled
 * twice (read and write) but cross once.  *host_us gets the copies' time;
 * NaN when the rest cannot be judged. */
static double
device_gbps(const struct pr_rec_op *r, double *host_us)
{
    double hc = isfinite(r->host_copy_us) ? r->host_copy_us : 0;
    double hb = isfinite(r->host_copy_bytes) ? r->host_copy_bytes : 0;
    double bytes = r->bytes - 2 * hb, us = r->dev_total_us - hc;

    *host_us = hc;
    if (hc >= 0.5 * r->dev_self_us || !(bytes > 0) || !(us > 0))
        return NAN; /* a host copy: the copies' advice judges it */
    return bytes / (us * 1e-6) / 1e9;
}

/* An op whose calls each move so few bytes that the memory roof would
 * take under LATENCY_US to move them is bound by launch and ramp-up
 * latency, not bandwidth (review 28h #10: a 5x128 addmm, 70.7 KB a call
 * in a 17.6 us kernel on an MI250, was told it ran at 0% of 1,638 GB/s
 * and to fuse or use channels_last): its fix is more work per launch
 * (batching, fusing, graphs), the launch advice's, not bandwidth. */
#define LATENCY_US 2.0
/* ... and whose calls are short: a call of tens of microseconds over
 * such bytes is slow for another cause than latency (a misaligned fp16
 * GEMM off tensor cores), and stays in the finding */
#define LATENCY_CALL_US 25.0

static int
latency_bound(const struct pr_rec_op *r, double bw)
{
    return r->calls > 0 && bw > 0 &&
           r->bytes / r->calls < bw * 1e9 * LATENCY_US * 1e-6 &&
           r->dev_self_us / r->calls < LATENCY_CALL_US;
}

/* Whether an op name is a convolution's (aten::conv2d, convolution,
 * cudnn_convolution, conv_transpose2d, ...; "convert_element_type" is
 * not). */
static int
conv_name(const char *n)
{
    return n != NULL &&
           (strstr(n, "convolution") != NULL || strstr(n, "conv1d") != NULL ||
            strstr(n, "conv2d") != NULL || strstr(n, "conv3d") != NULL ||
            strstr(n, "conv_transpose") != NULL || strstr(n, "Conv") != NULL);
}

/* Whether the run spends convolution time (the channels_last clause's
 * evidence): convolution rows hold at least the share of device time
 * that makes a row hot here.  A ViT's or TimeSformer's one
 * patch-embedding convolution does not make it a convolutional net
 * (review 32g #1). */
static int
has_conv(const struct rctx *c)
{
    double conv = 0;
    size_t i;

    for (i = 0; i < c->tb->n_ops; i++)
        if (conv_name(c->tb->ops[i].name))
            conv += c->tb->ops[i].dev_self_us;
    return c->tb->ops_self_us > 0 && conv >= 0.03 * c->tb->ops_self_us;
}

/* An attention computed unfused (review 32g #1): a softmax over a score
 * matrix [.., Sq, Sk] that a batched matmul wrote (its output's last two
 * dims Sq x Sk: Q.K^T).  Fused attention (scaled_dot_product_attention,
 * FlashAttention) keeps that matrix on chip; eager attention writes it,
 * reads it in softmax, and reads it again in the matmul by V. */
struct score {
    int64_t sq, sk;
    double numel; /* of one call's score matrix */
};

/* A row's recorded input dims; 0 when absent or unparsed. */
static int
row_dims(const struct pr_rec_op *r, struct pr_shape_list *sl)
{
    struct pr_error err = {0};

    return r->shapes != NULL &&
           pr_shapes_parse_dims(r->shapes, sl, &err) == PR_OK;
}

/* Whether an op name is a batched matmul of the eager attention
 * (torch.matmul on 3-d and 4-d tensors records aten::matmul over
 * aten::bmm; some models call baddbmm); *first: its first operand. */
static int
is_bmm(const char *name, size_t *first)
{
    if (name == NULL)
        return 0;
    *first = strcmp(name, "aten::baddbmm") == 0 ? 1 : 0;
    return strcmp(name, "aten::bmm") == 0 ||
           strcmp(name, "aten::baddbmm") == 0 ||
           strcmp(name, "aten::matmul") == 0;
}

/* Whether a matmul row writes a [.., m, n] output. */
static int
mm_writes(const struct pr_shape_list *sl, size_t a, int64_t m, int64_t n)
{
    const struct pr_shape_arg *x, *y;

    if (a + 1 >= sl->n)
        return 0;
    x = &sl->arg[a];
    y = &sl->arg[a + 1];
    return x->ndim >= 3 && y->ndim >= 2 && x->dims[x->ndim - 2] == m &&
           y->dims[y->ndim - 1] == n &&
           x->dims[x->ndim - 1] == y->dims[y->ndim - 2];
}

/* Score matrices a run's eager attentions write (a TimeSformer has two:
 * space, 3137 x 3137, and time, 8 x 8), at most this many */
#define MAX_SCORES 4

/* The score matrices of the run's softmax rows that a matmul row wrote
 * (each size once); how many. */
static size_t
find_scores(const struct rctx *c, struct score *sc)
{
    struct pr_shape_list *sl = malloc(sizeof(*sl)), *ml = malloc(sizeof(*ml));
    size_t i, j, a, n = 0;

    for (i = 0; sl && ml && n < MAX_SCORES && i < c->tb->n_ops; i++) {
        const struct pr_rec_op *r = &c->tb->ops[i];
        const struct pr_shape_arg *x;
        struct score s;
        int found = 0;

        if (r->name == NULL ||
            !pr_sget_is(pr_flops_family_of(r->name), "softmax") ||
            strstr(r->name, "backward") != NULL || !row_dims(r, sl) ||
            sl->n < 1 || sl->arg[0].ndim < 3)
            continue;
        x = &sl->arg[0];
        s.sq = x->dims[x->ndim - 2];
        s.sk = x->dims[x->ndim - 1];
        s.numel = (double)x->numel;
        if (s.sq < 2 || s.sk < 2)
            continue;
        for (j = 0; j < n; j++)
            found |=
                sc[j].sq == s.sq && sc[j].sk == s.sk && sc[j].numel == s.numel;
        for (j = 0; !found && j < c->tb->n_ops; j++)
            found = is_bmm(c->tb->ops[j].name, &a) &&
                            row_dims(&c->tb->ops[j], ml) &&
                            mm_writes(ml, a, s.sq, s.sk)
                        ? 2
                        : 0;
        if (found == 2)
            sc[n++] = s;
    }
    free(sl);
    free(ml);
    return n;
}

/* Which of the n score matrices a row works on (its index), or -1: a
 * matmul that writes it (Q.K^T), or a row with an input of its size
 * whose last two dims are Sq x Sk (softmax, the matmul by V, scaling,
 * masking, dropout, their backward). */
static int
on_score(const struct pr_rec_op *r, const struct score *sc, size_t n)
{
    struct pr_shape_list *sl = malloc(sizeof(*sl));
    size_t i, j, a;
    int on = -1;

    if (sl == NULL || !row_dims(r, sl)) {
        free(sl);
        return -1;
    }
    for (j = 0; on < 0 && j < n; j++) {
        if (is_bmm(r->name, &a) && mm_writes(sl, a, sc[j].sq, sc[j].sk))
            on = (int)j;
        for (i = 0; on < 0 && i < sl->n; i++) {
            const struct pr_shape_arg *x = &sl->arg[i];

            if (!x->is_list && x->ndim >= 2 &&
                x->dims[x->ndim - 2] == sc[j].sq &&
                x->dims[x->ndim - 1] == sc[j].sk &&
                (double)x->numel == sc[j].numel)
                on = (int)j;
        }
    }
    free(sl);
    return on;
}

/* Hot memory-bound ops well under the bandwidth roof.  Fused attention
 * (FlashAttention, scaled_dot_product_attention: the "attention" formula
 * families) is none of them: it keeps the score tile on chip and its
 * time is set by the tensor cores and the softmax, not by its q/k/v/o
 * bytes, which the memory roof would move at an impossible rate (review
 * 32g #3).  Rows of an attention computed unfused get the attention's
 * advice, not elementwise fusion (review 32g #1).  The shares are of the
 * operators' device time, kernels and copies; where the run has copies
 * that time is not the Kernels table's, and the text says so (review
 * 32g #7c). */
static void
rule_memory_bound(struct rctx *c)
{
    const struct pr_rec_op *v = c->tb->ops;
    double bw = main_gbps(c->tb), total = c->tb->ops_self_us, kern = 0;
    char text[REC_TEXT];
    size_t i, len = 0, n = 0, n_attn = 0;
    struct score sc[MAX_SCORES];
    size_t n_sc = find_scores(c, sc);
    unsigned hit = 0; /* the score matrices the named rows work on */

    for (i = 0; i < c->tb->n_gpus; i++)
        if (isfinite(c->tb->gpus[i].kernel_us))
            kern += c->tb->gpus[i].kernel_us;
    for (i = 0; i < c->tb->n_ops && n < 3 && total > 0; i++) {
        double host_us, gbps = device_gbps(&v[i], &host_us);
        int attn, at;

        if (v[i].dev_self_us < 0.03 * total)
            break;
        if (!(bw > 0) || !(v[i].bytes > 0) ||
            !pr_sget_is(v[i].bound, PR_K_MEMORY) || !(gbps < 0.5 * bw) ||
            latency_bound(&v[i], bw) || pr_flops_fused_attention(v[i].name))
            continue;
        at = n_sc ? on_score(&v[i], sc, n_sc) : -1;
        attn = at >= 0;
        hit |= attn ? 1u << at : 0;
        len = pr_append(
            text, sizeof(text), len,
            "%s%s %s takes %.1f%% of %s "
            "time%s at %.0f GB/s (%.0f%% of %.0f GB/s)",
            n ? "; " : "", v[i].name ? v[i].name : "",
            v[i].shapes ? v[i].shapes : "", 100.0 * v[i].dev_self_us / total,
            dev_word(c),
            kern > 0 && total > 1.005 * kern ? " (kernels and copies)" : "",
            gbps, 100.0 * gbps / bw, bw);
        if (host_us > 0)
            len = pr_append(text, sizeof(text), len,
                            ", besides %.1f ms of copies from or to the host "
                            "(judged against the host link under Copies)",
                            host_us / 1000.0);
        /* its replay: the op's kernels at the roof; an unfused
           attention's rows none of their time (the fused kernel does
           their FLOPs in less: an upper bound) */
        pr_whatif_in_pick(c->f->whatif, PR_WHATIF_MEMBOUND, v[i].name,
                          v[i].shapes, NULL, attn ? 1e-9 : gbps / bw);
        n_attn += attn != 0;
        n++;
    }
    if (!n)
        return;
    if (n_attn) {
        int one = (hit & (hit - 1)) == 0; /* one score matrix */

        len = pr_append(text, sizeof(text), len, ". %s on %s",
                        n_attn == n
                            ? (n == 1 ? "This row works" : "These rows work")
                        : n_attn == 1 ? "Of these, one row works"
                                      : "Of these, the attention rows work",
                        one ? "a " : "score matrices of ");
        for (i = 0; i < n_sc; i++)
            if (hit & 1u << i) {
                hit &= ~(1u << i);
                len = pr_append(text, sizeof(text), len, "%s%lld x %lld",
                                text[len - 1] != ' ' ? (hit ? ", " : " and ")
                                                     : "",
                                (long long)sc[i].sq, (long long)sc[i].sk);
            }
        len = pr_append(
            text, sizeof(text), len,
            "%s: attention computed unfused (matmul, softmax, matmul), "
            "which writes the score matrix to memory and reads it back; "
            "torch.nn.functional.scaled_dot_product_attention (Hugging "
            "Face attn_implementation=\"sdpa\", or FlashAttention) "
            "computes it without writing that matrix",
            one ? " score matrix" : "");
    }
    if (n_attn < n)
        pr_append(text, sizeof(text), len,
                  ". %s memory-bound ops run far "
                  "below the bandwidth roof: fuse elementwise chains "
                  "(torch.compile), %savoid needless dtype conversions and "
                  "copies.",
                  n_attn ? "The other" : "These",
                  has_conv(c) ? "use channels_last for convolutional nets and "
                              : "");
    else
        pr_append(text, sizeof(text), len, ".");
    add_rec(c, "memory_bound_ops", "info", text);
}

/* A row's GEMM/conv dims, recomputed from its recorded shapes (parsed
 * at ingest when the trace is here). */
static int
row_misaligned(const struct rctx *c, const struct pr_rec_op *r,
               struct pr_op_cost *cost, struct pr_tc_diag *d)
{
    struct pr_op_inputs *in = malloc(sizeof(*in));
    struct pr_op_call call;
    struct pr_error err = {0};
    int bad = 0;

    if (in == NULL) {
        return 0;
    }
    pr_shapes_get_text(c->f->t, r->shapes, r->types, NULL, in);
    call.name = r->name;
    call.in = in;
    call.trace_flops = -1;
    call.conv_grads = 0; /* its dims, the same for either pass */
    if (r->name != NULL && pr_flops_estimate(&call, cost, &err) == PR_OK)
        bad = pr_tensorcore_misaligned(cost, d);
    free(in);
    return bad;
}

/* GEMM/conv/attention dims that keep 16/8-bit ops off tensor cores. */
static void
rule_misaligned(struct rctx *c)
{
    const struct pr_rec_op *v = c->tb->ops;
    char text[REC_TEXT];
    struct pr_op_cost cost;
    struct pr_tc_diag d;
    size_t i, len = 0, n = 0;

    for (i = 0; i < c->tb->n_ops && n < 3; i++) {
        if (v[i].dev_self_us <= 0 || !v[i].tc_eligible ||
            !row_misaligned(c, &v[i], &cost, &d))
            continue;
        len = pr_append(
            text, sizeof(text), len,
            "%s%s %s (%s, %.0f \xC2\xB5s): %s; "
            "%s",
            n ? ". " : "", v[i].name, v[i].shapes ? v[i].shapes : "",
            pr_dtype_name(cost.dtype), v[i].dev_self_us, d.text, d.advice);
        /* its replay: the op's kernels off tensor cores on them */
        pr_whatif_in_pick(c->f->whatif, PR_WHATIF_ALIGN, v[i].name, v[i].shapes,
                          NULL, NAN);
        n++;
    }
    if (!n)
        return;
    pr_append(text, sizeof(text), len, "%s",
              amd_run(c) ? ". The matrix cores (MFMA) run these dims best in "
                           "multiples of 8 (16 for int8/fp8)."
                         : ". Tensor cores need these dims in "
                           "multiples of 8 (16 for int8/fp8).");
    add_rec(c, "misaligned_dims", "info", text);
}

/* Kernels whose low occupancy is by design: collectives (a few blocks
 * move data while the rest of the GPU computes), tensor-core GEMMs, and
 * the GEMM, convolution and attention kernels of the libraries (cuBLAS,
 * cuDNN, CUTLASS, FlashAttention) with many blocks per SM: their tiles
 * (volta_sgemm_128x64_nn, cudnn ... 128x64_relu_xregs_large) trade
 * occupancy for registers per thread, 12-25% by the library's choice.
 * Such a kernel under one block per SM still leaves SMs idle: its grid is
 * too small for the device. */
static int
low_occupancy_by_design(const struct pr_rec_kernel *k)
{
    static const char *const tiled[] = {"gemm", "conv", "attention"};
    size_t i;

    if (k->name == NULL || k->tc_used ||
        (k->family != NULL && strcmp(k->family, "collective") == 0))
        return 1;
    for (i = 0; k->family != NULL && i < sizeof(tiled) / sizeof(tiled[0]); i++)
        if (strcmp(k->family, tiled[i]) == 0 && !(k->blocks_per_sm < 1.0))
            return 1;
    return 0;
}

/* The busiest device's utilization over the steps with device work
 * (covered_util); NaN when no row says. */
static double
busiest_util(const struct rctx *c)
{
    double best = NAN;
    size_t i;

    for (i = 0; i < c->tb->n_gpus; i++) {
        double u = covered_util(c, i);

        if (isfinite(u) && !(u <= best))
            best = u;
    }
    return best;
}

/* Below this utilization (%) the device idles nine tenths of the window:
 * what bounds the step is not how its few kernels fill it (a capture of
 * four kernels, a cold step, a torch.cuda._sleep). */
#define OCCUPANCY_MIN_UTIL 10.0

/* Hot kernels that leave SMs idle: a grid under one block per SM, or an
 * estimated occupancy under 25% (0 means "not measured" in Kineto). */
static void
rule_low_occupancy(struct rctx *c)
{
    const struct pr_rec_kernel *k = c->tb->kernels;
    double total = 0;
    char text[REC_TEXT], shown[PR_SHORTEN_CAP(REC_KNAME_CHARS)];
    int amd = amd_run(c);
    size_t len = 0, n = 0, grid = 0, i;

    if (busiest_util(c) < OCCUPANCY_MIN_UTIL)
        return;
    for (i = 0; i < c->tb->n_kernels; i++)
        total += isfinite(k[i].total_us) ? k[i].total_us : 0;
    for (i = 0; i < c->tb->n_kernels; i++) { /* sorted by total_us desc */
        double us = k[i].total_us, occ = k[i].occupancy_pct;
        double bps = k[i].blocks_per_sm;

        if (n == 3 || !(total > 0) || us < 0.05 * total)
            break;
        if ((!(bps < 1.0) && !(occ > 0 && occ < 25.0)) ||
            low_occupancy_by_design(&k[i]))
            continue;
        len = pr_append(text, sizeof(text), len, "%s%s: %.1f%% of kernel time",
                        n ? "; " : "", kname(k[i].name, shown, sizeof(shown)),
                        100.0 * us / total);
        /* a kernel the trace gives no occupancy for says none (not
           "nan%") */
        if (isfinite(occ))
            len = pr_append(text, sizeof(text), len,
                            ", estimated occupancy %.0f%%", occ);
        if (isfinite(bps))
            len = pr_append(text, sizeof(text), len, ", %.2f %s", bps,
                            amd ? "workgroups per CU" : "blocks per SM");
        /* its replay: the kernel filling the device, an upper bound
           (all SMs busy, or 25% occupancy) */
        pr_whatif_in_pick(c->f->whatif, PR_WHATIF_OCCUPANCY, NULL, NULL,
                          k[i].name, bps < 1.0 ? bps : occ / 25.0);
        grid += bps < 1.0;
        n++;
    }
    if (!n)
        return;
    /* only the cause that applies to the kernels named */
    if (grid > 0)
        len = pr_append(text, sizeof(text), len, "%s",
                        amd ? ". Under one workgroup per CU the grid leaves "
                              "CUs idle: raise the batch size or merge small "
                              "launches"
                            : ". Under one block per SM the grid leaves SMs "
                              "idle: raise the batch size or merge small "
                              "launches");
    if (grid < n)
        len = pr_append(text, sizeof(text), len, "%s",
                        amd ? ". Low occupancy with many workgroups per CU "
                              "means registers or LDS (shared memory) per "
                              "workgroup limit it: for custom kernels (HIP, "
                              "Triton), fewer registers per thread or smaller "
                              "tiles"
                            : ". Low occupancy with many blocks per SM means "
                              "registers or shared memory per block limit it: "
                              "for custom kernels (CUDA, Triton), fewer "
                              "registers per thread or smaller tiles");
    pr_append(text, sizeof(text), len, ".");
    add_rec(c, "low_occupancy", "info", text);
}

/* The Ascend tasks that ran on few cores (blockdim.c): at least this
 * share of the AI Core task time (%) in tasks of a Block Dim at most a
 * quarter of the cores of their kind. */
#define LOW_BLOCK_DIM_PCT 10.0

/* An operator's name as the text gives it: a MindSpore scope's last
 * part ("MatMul-op19" of "Default/.../fc3-Dense/MatMul-op19"). */
static const char *
short_op(const char *name)
{
    const char *s = strrchr(name, '/');

    return s != NULL && s[1] != '\0' ? s + 1 : name;
}

/* The k-th input's dims of a shape text, "[[2, 256, 6, 6], [4096, 9216],
 * [4096]]" (the plugin's Input Dims) or "2,256,6,6;4096,9216", as
 * "2,256,6,6" into out; 0 when there is no k-th. */
static int
input_dims(const char *s, int k, char *out, size_t cap)
{
    size_t len = 0;
    int nested = s[0] == '[' && strchr(s + 1, '[') != NULL, at = 0;

    if (nested)
        s++;
    while (*s) {
        if (nested) {
            s += strspn(s, " ,");
            if (*s != '[')
                return 0;
            s++;
        }
        if (at == k) {
            for (; *s && *s != (nested ? ']' : ';'); s++)
                if (*s != ' ' && len + 1 < cap)
                    out[len++] = *s;
            out[len] = '\0';
            return len > 0;
        }
        s += strcspn(s, nested ? "]" : ";");
        if (*s)
            s++;
        at++;
    }
    return 0;
}

/* A MatMul's M, the rows of its first input, where its inputs are known
 * (MindSpore's MatMul-op19: inputs 2,256,6,6 and 4096,9216, so M = 2,
 * the batch); the first two inputs as "2,256,6,6 x 4096,9216" into
 * shape.  0 when the operator is not a MatMul or gives no shapes. */
static double
matmul_m(const cJSON *op, char *shape, size_t cap)
{
    const char *s = pr_sget_str(op, PR_K_INPUT_SHAPES);
    const char *name = pr_sget_str_or(op, PR_K_NAME, "");
    const char *type = pr_sget_str_or(op, PR_K_OP_TYPE, "");
    char a[40], b[40], *end;
    const char *p;
    double m, k, b0, b1;

    if (s == NULL || (strstr(type, "MatMul") == NULL &&
                      strstr(short_op(name), "MatMul") == NULL))
        return 0;
    if (!input_dims(s, 0, a, sizeof(a)) || !input_dims(s, 1, b, sizeof(b)))
        return 0;
    m = strtod(a, &end);
    if (end == a || !(m > 0) || (*end != ',' && *end != '\0'))
        return 0;
    /* M only where the first input's other dims (K, flattened) are one
       of the second's two: A (M, K) times B (K, N) or B (N, K).  A
       weight gradient (A transposed: [2, 9216] x [2, 4096]) is not */
    k = 1;
    for (p = end; *p == ','; p = end) {
        double d = strtod(p + 1, &end);

        if (end == p + 1 || !(d > 0))
            return 0;
        k *= d;
    }
    b0 = strtod(b, &end);
    b1 = *end == ',' ? strtod(end + 1, NULL) : NAN;
    if (*end != ',' || strchr(end + 1, ',') != NULL || !(k > 1) ||
        (k != b0 && k != b1))
        return 0;
    snprintf(shape, cap, "%s x %s", a, b);
    return m;
}

/* Operators whose tasks' Block Dim leaves most of the NPU's cores idle
 * (review finding 7): CANN's tiling split them into few blocks. */
static void
rule_low_block_dim(struct rctx *c)
{
    const cJSON *b = pr_sget(c->run, PR_K_BLOCK_DIM), *op;
    double pct = pr_sget_num(b, PR_K_LOW_PCT),
           cores = pr_sget_num(b, PR_K_AI_CORES);
    double vcores = pr_sget_num(b, PR_K_VECTOR_CORES);
    int known = cores > 0;
    char text[REC_TEXT + 512], ops[520] = "", ref[200], vc[16] = "";
    char shape[100], lever[400] = "";
    size_t len = 0, n = 0;
    double m, small_m = 0;

    if (!c->npu || !(pct >= LOW_BLOCK_DIM_PCT))
        return;
    cJSON_ArrayForEach(op, pr_sget(b, PR_K_OPERATORS))
    {
        double lo = pr_sget_num(op, PR_K_MIN_BLOCK_DIM);
        double hi = pr_sget_num(op, PR_K_MAX_BLOCK_DIM);
        double f = pr_sget_num(op, PR_K_TIME_RATIO_ALL_CORES);
        const char *name = pr_sget_str(op, PR_K_NAME);

        if (name == NULL || n == 4 ||
            (n > 0 &&
             pr_sget_num(op, PR_K_US) < 0.05 * pr_sget_num(b, PR_K_LOW_US)))
            break; /* sorted by time: the rest is noise (the first stays) */
        m = matmul_m(op, shape, sizeof(shape));
        if (m > 0 && lo == hi) {
            /* the shape that explains it (third review, finding 11) */
            len = pr_append(ops, sizeof(ops), len,
                            "%s%s (Block Dim %.0f of %.0f, %.2f ms; inputs "
                            "%s: M=%.0f)",
                            n ? "; " : "", short_op(name), lo,
                            pr_sget_num(op, PR_K_CORES),
                            pr_sget_num(op, PR_K_US) / 1e3, shape, m);
            if (small_m == 0 || m < small_m)
                small_m = m;
        } else if (lo == hi)
            len = pr_append(ops, sizeof(ops), len,
                            "%s%s (Block Dim %.0f of %.0f, "
                            "%.2f ms)",
                            n ? "; " : "", short_op(name), lo,
                            pr_sget_num(op, PR_K_CORES),
                            pr_sget_num(op, PR_K_US) / 1e3);
        else
            len = pr_append(ops, sizeof(ops), len,
                            "%s%s (Block Dim %.0f to %.0f of %.0f, %.2f ms)",
                            n ? "; " : "", short_op(name), lo, hi,
                            pr_sget_num(op, PR_K_CORES),
                            pr_sget_num(op, PR_K_US) / 1e3);
        if (known && f > 0 && f < 1)
            pr_whatif_in_pick(c->f->whatif, PR_WHATIF_BLOCKDIM, NULL, NULL,
                              name, f);
        n++;
    }
    if (vcores > 0)
        snprintf(vc, sizeof(vc), "%.0f", vcores);
    if (known)
        snprintf(ref, sizeof(ref),
                 "the NPU's %.0f AI Cores%s%s (from %s%s%s%s)", cores,
                 vcores > 0 ? ", for Vector tasks its AI Vector cores: " : "",
                 vc, pr_sget_str_or(b, PR_K_CORES_SOURCE, "?"),
                 pr_sget_str(b, PR_K_DEVICE_ENTRY) ? ": " : "",
                 pr_sget_str_or(b, PR_K_DEVICE_ENTRY, ""),
                 pr_sget_true(b, PR_K_DEVICE_ENTRY_GUESS)
                     ? ", which names the family, not the variant"
                     : "");
    else
        snprintf(ref, sizeof(ref),
                 "the run's usual Block Dim (%.0f, the most frequent: this "
                 "export names no chip, so its AI Core count is unknown)",
                 pr_sget_num(b, PR_K_COMMON_BLOCK_DIM));
    if (small_m > 0 && small_m <= 16) /* under one Cube tile's rows */
        snprintf(lever, sizeof(lever),
                 " With M=%.0f (the batch's rows) a MatMul's cost is loading "
                 "its weight (K x N) on the one core that runs it: a larger "
                 "batch gives M to split, and a tiling that splits N across "
                 "cores (the operator's, which CANN chose for this shape) "
                 "would use the others.",
                 small_m);
    snprintf(text, sizeof(text),
             "%.1f%% of the AI Core task time (%.2f of %.2f ms) runs in tasks "
             "whose Block Dim is at most a quarter of %s: %s. Each block runs "
             "on one core, so the other cores idle while these tasks run. "
             "CANN's operators set their Block Dim in their tiling, from the "
             "shapes: a shape too small along the axes the operator splits "
             "(the batch, or M of a MatMul) gives few blocks.%s Give each "
             "call more work: a larger batch, or fewer, larger operators; in "
             "your own Ascend C operators, set the tiling's block count "
             "(SetBlockDim) to the core count (GetCoreNumAic, GetCoreNumAiv) "
             "and split along an axis large enough for every core.",
             pct, pr_sget_num(b, PR_K_LOW_US) / 1e3,
             pr_sget_num(b, PR_K_TASK_US) / 1e3, ref, ops, lever);
    (void)add_rec_note(c, "low_block_dim", pct >= 50 ? "warning" : "info", text,
                       known ? NULL
                             : "no change replayed: the export does not give "
                               "the NPU's AI Core count, so how far the tasks "
                               "could spread is not known");
}

/* A kernel whose PMU counters say its Scalar unit is busy this share of
 * its time or more (op_summary's aic_/aiv_scalar_ratio, as MindStudio
 * Insight's operator view shows them), holding SCALAR_MIN_SHARE of the
 * steps (or the capture) or more, is an observation (review32a #4:
 * amss_prof's main_kernel, 95% of the capture, aiv_scalar_ratio 0.999
 * with aiv_vec_ratio and aic_mac_ratio 0, read "bound by device compute,
 * no finding"). */
#define SCALAR_MIN_RATIO 0.8
#define SCALAR_MIN_SHARE 0.2

/* "aiv_scalar_ratio 0.999, aiv_vec_ratio 0.000" from a kernel's pmu: the
 * ratios that say what its units do, those it has.  The larger scalar
 * ratio, NaN when neither is there. */
static double
scalar_ratios(const cJSON *pmu, char *out, size_t cap)
{
    static const char *const keys[] = {"aiv_scalar_ratio", "aic_scalar_ratio",
                                       "aiv_vec_ratio", "aic_mac_ratio"};
    double best = NAN;
    size_t i, len = 0;

    out[0] = '\0';
    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        double v = pr_sget_num(pmu, keys[i]);

        if (!isfinite(v))
            continue;
        if (i < 2 && !(v <= best))
            best = v;
        len =
            pr_append(out, cap, len, "%s%s %.3f", len ? ", " : "", keys[i], v);
    }
    return best;
}

static void
rule_scalar_bound(struct rctx *c)
{
    const cJSON *ss = pr_sget(c->run, PR_K_STEP_SUMMARY), *k;
    double n = pr_sget_num(ss, PR_K_COUNT);
    double span = pr_sget_num(ss, PR_K_MEAN_US) * (n > 0 ? n : 1);
    int capture = pr_sget_run_is_capture(c->run);
    char text[REC_TEXT + 512], ks[700] = "", ratios[160];
    size_t len = 0, hits = 0;
    cJSON *ev, *o;

    if (!c->npu || !(span > 0))
        return;
    ev = cJSON_CreateArray();
    if (ev == NULL) {
        c->ok = 0;
        return;
    }
    cJSON_ArrayForEach(k, pr_sget(c->run, PR_K_KERNELS))
    {
        const char *name = pr_sget_str(k, PR_K_NAME);
        double us = pr_sget_num(k, PR_K_TOTAL_US);
        double r = scalar_ratios(pr_sget(k, PR_K_PMU), ratios, sizeof(ratios));

        if (name == NULL || hits == 3 || !(us >= SCALAR_MIN_SHARE * span) ||
            !(r >= SCALAR_MIN_RATIO) ||
            strncmp(pr_sget_str_or(k, PR_K_PMU_BOUND, ""), "Scalar-bound",
                    12) != 0)
            continue;
        len = pr_append(ks, sizeof(ks), len,
                        "%s%.80s, %.0f%% of the %s (%.1f of %.1f ms; %s)",
                        hits ? "; " : "", name, 100.0 * us / span,
                        capture ? "capture" : "steps' time", us / 1e3,
                        span / 1e3, ratios);
        if (!pr_emit_evidence(ev, name, us, span)) {
            cJSON_Delete(ev);
            c->ok = 0;
            return;
        }
        hits++;
    }
    if (hits == 0) {
        cJSON_Delete(ev);
        return;
    }
    snprintf(text, sizeof(text),
             "By %s PMU counters, %s mostly on the Scalar unit: %s. A core's "
             "Scalar unit issues one instruction at a time (address and "
             "loop-index arithmetic, element-by-element loads, or a spin on "
             "a flag) while its Vector and Cube units idle, so this time is "
             "not the device's vector or matrix compute. Vectorise the inner "
             "loop (whole-tile vector instructions, DataCopy in place of "
             "per-element scalar loads) and move index arithmetic off the "
             "Scalar unit (offsets computed once, in the tiling); MindStudio "
             "Insight's operator view shows the same aic_/aiv_*_ratio "
             "columns.",
             hits == 1 ? "its" : "their",
             hits == 1 ? "one kernel runs" : "these kernels run", ks);
    o = add_rec_note(c, "scalar_bound", "warning", text,
                     "no change replayed: the counters say which unit the "
                     "kernel keeps busy, not how fast a vectorised version "
                     "would run");
    if (o == NULL || !pr_sput(o, PR_K_EVIDENCE, ev)) {
        cJSON_Delete(ev);
        if (o != NULL)
            c->ok = 0;
    }
}

/* PyTorch's casting copies by name (aten/src/ATen/native/cuda/Copy.cu):
 * float to bf16 / fp16 (bfloat16_copy_kernel_cuda, float16_copy_kernel_
 * cuda), to fp8 (float8_copy_kernel_cuda), and ROCm's bf16 / fp16 to
 * float (bfloat16tofloat32_, float16tofloat32_copy_kernel_cuda).
 * direct_copy_kernel_cuda is not among them: it also makes tensors
 * contiguous without a cast. */
static const char *const cast_kernels[] = {
    "bfloat16_copy_kernel_cuda",         "float16_copy_kernel_cuda",
    "float8_copy_kernel_cuda",           "bfloat16tofloat32_copy_kernel_cuda",
    "float16tofloat32_copy_kernel_cuda",
};

static const char *
cast_of(const char *name)
{
    size_t i;

    for (i = 0;
         name != NULL && i < sizeof(cast_kernels) / sizeof(cast_kernels[0]);
         i++)
        if (strstr(name, cast_kernels[i]) != NULL)
            return cast_kernels[i];
    return NULL;
}

/* A share of kernel time (%) in conversions worth a finding. */
#define CONVERSION_MIN_PCT 5.0

/* Dtype conversions every step (review R18: nsys mfu_2gpu_before, 8% of
 * kernel time under aten::_to_copy): the casting kernels by name, and the
 * device time of aten::_to_copy (Tensor.to(dtype), autocast's casts) less
 * the host copies of aten::copy_ (Tensor.to(device) goes through it too),
 * whichever is larger; the evidence names both. */
static void
rule_dtype_conversions(struct rctx *c)
{
    const struct pr_rec_kernel *k = c->tb->kernels;
    double total = 0, cast = 0, to = 0, host = 0, conv;
    char text[REC_TEXT];
    size_t len, n = 0, i;

    for (i = 0; i < c->tb->n_kernels; i++) {
        double us = isfinite(k[i].total_us) ? k[i].total_us : 0;

        total += us;
        cast += cast_of(k[i].name) != NULL ? us : 0;
    }
    for (i = 0; i < c->tb->n_ops; i++) {
        const struct pr_rec_op *o = &c->tb->ops[i];

        if (o->name != NULL && strcmp(o->name, "aten::_to_copy") == 0 &&
            isfinite(o->dev_total_us))
            to += o->dev_total_us;
        /* .to(device) is aten::_to_copy too: its copies from or to the
           host (in aten::copy_) are transfers, not conversions; where
           they are not known, aten::_to_copy is no evidence */
        if (o->name != NULL && strcmp(o->name, "aten::copy_") == 0)
            host = isfinite(o->host_copy_us) ? host + o->host_copy_us
                   : o->dev_self_us > 0      ? NAN
                                             : host;
    }
    to = isfinite(host) && to > host ? to - host : 0;
    conv = cast > to ? cast : to;
    conv = conv < total ? conv : total;
    if (!(total > 0) || 100.0 * conv / total < CONVERSION_MIN_PCT)
        return;
    if (to > cast)
        /* the replay removes the casting kernels alone: the headline says
           which figure is the bound and which the replay counts (review
           finding 12: 22.3 ms headline, 11.1 ms replayed; its gain is
           whatif.c's casts_model, under the replay's bound) */
        len = pr_append(text, sizeof(text), 0,
                        "Dtype conversions take up to %.1f%% of kernel time "
                        "(%.3g ms, an upper bound: aten::_to_copy's device "
                        "time, which holds plain copies too); the casting "
                        "kernels by name take %.1f%% (%.3g ms), the part its "
                        "replay takes off:",
                        100.0 * conv / total, conv / 1000.0,
                        100.0 * cast / total, cast / 1000.0);
    else
        len =
            pr_append(text, sizeof(text), 0,
                      "Dtype conversions take %.1f%% of kernel time (%.3g ms):",
                      100.0 * conv / total, conv / 1000.0);
    if (to > 0 && !(to > cast))
        len =
            pr_append(text, sizeof(text), len,
                      " aten::to / aten::_to_copy hold %.3g ms of device time",
                      to / 1000.0);
    for (i = 0; i < c->tb->n_kernels; i++) {
        const char *what = cast_of(k[i].name);

        if (what == NULL || !(k[i].total_us > 0))
            continue;
        /* its replay: every casting kernel gone (the text names three) */
        pr_whatif_in_pick(c->f->whatif, PR_WHATIF_CASTS, NULL, NULL, k[i].name,
                          NAN);
        if (n == 3)
            continue;
        len = pr_append(text, sizeof(text), len, "%s%s %.1f%% (%.0f calls)",
                        n == 0 ? (to > 0 && !(to > cast) ? "; casting kernels: "
                                                         : " casting kernels: ")
                               : ", ",
                        what, 100.0 * k[i].total_us / total, k[i].calls);
        n++;
    }
    /* whatif.c's casts_model rewrites the cause where the casts run
       under FSDP's ranges */
    pr_append(text, sizeof(text), len, ". " PR_CASTS_CAUSE);
    add_rec(c, "dtype_conversions", "info", text);
}

/* ---------------------------------------------- the C inputs of rules */

/* The rows' total self time, summed in row order as before.  The rows
 * stay in the order ops.c wrote them: by device self time, descending,
 * then name and shapes; the rules stop at the first cold row. */
static void
total_ops(struct pr_rec_tables *tb)
{
    size_t i;

    tb->ops_self_us = 0;
    for (i = 0; i < tb->n_ops; i++)
        tb->ops_self_us += tb->ops[i].dev_self_us;
}

static void
tables_free(struct pr_rec_tables *tb)
{
    free(tb->devs);
    free(tb->ops);
    free(tb->kernels);
    free(tb->gpus);
    pr_hostdev_out_free(&tb->hostdev);
    memset(tb, 0, sizeof(*tb));
}

static void
dev_from_row(const struct pr_device_row *r, struct pr_rec_device *d)
{
    d->id = (double)r->id;
    d->npu = pr_sget_is(r->kind, "npu");
    d->vendor = r->vendor;
    d->cc_major = r->compute_capability != NULL
                      ? (int)strtol(r->compute_capability, NULL, 10)
                      : -1;
    /* as devices.c writes it: null unless known and finite */
    d->peak_gbps =
        r->has_peaks && isfinite(r->peaks.gbps) ? r->peaks.gbps : NAN;
    d->fp32_tflops = r->has_peaks ? r->peaks.tflops[PR_PEAK_FP32] : NAN;
    d->tf32_tflops = r->has_peaks ? r->peaks.tflops[PR_PEAK_TF32] : NAN;
    d->fp16_tflops = r->has_peaks ? r->peaks.tflops[PR_PEAK_FP16] : NAN;
}

/* As ops.c writes the row (rates null unless set and finite). */
static void
op_from_row(const struct pr_op_row *g, struct pr_rec_op *r)
{
    const struct pr_op_rate *rt = &g->rate;

    r->name = g->name;
    r->shapes = g->shapes;
    r->types = g->types;
    r->bound = rt->set ? rt->bound : "unknown";
    r->dev_self_us = (double)g->dev_self_ns / 1000.0;
    r->dev_total_us = (double)g->dev_total_ns / 1000.0;
    r->bytes = rt->set && isfinite(rt->bytes) ? rt->bytes : NAN;
    /* as ops.c writes them */
    r->host_copy_us = g->unknown & PR_OP_ROW_NO_DEVICE
                          ? NAN
                          : (double)g->host_copy_ns / 1000.0;
    r->host_copy_bytes =
        g->unknown & PR_OP_ROW_NO_DEVICE || g->host_copy_bytes < 0
            ? NAN
            : g->host_copy_bytes;
    r->calls = g->calls > 0 ? (double)g->calls : NAN;
    r->tc_eligible = g->tc_eligible != 0;
}

/* As kernels.c writes the row. */
static void
kernel_from_ref(const struct pr_kernel_ref *k, struct pr_rec_kernel *r)
{
    r->name = k->name;
    r->family = pr_kclass_family_name((enum pr_kfamily)k->family);
    r->calls = (double)k->calls;
    r->mean_us = k->mean_us;
    r->total_us = (double)k->total_ns / 1000.0;
    r->occupancy_pct = k->occupancy_pct;
    r->blocks_per_sm = k->blocks_per_sm;
    r->tc_used = k->tc_used;
}

/* As gpu_util.c writes the row. */
static void
gpu_from_row(const struct pr_gpu_row *g, struct pr_rec_gpu *r)
{
    r->device = (double)g->device;
    r->util_pct = isfinite(g->utilization_pct) ? g->utilization_pct : NAN;
    r->kernel_us = (double)g->kernel_ns / 1000.0; /* as pr_emit_us */
}

enum pr_status
pr_rec_tables_fill(struct pr_rec_facts *f, const struct pr_rec_rows *r,
                   struct pr_error *err)
{
    struct pr_rec_tables *tb = &f->tables;
    size_t i;

    free(tb->devs);
    free(tb->ops);
    free(tb->kernels);
    free(tb->gpus);
    tb->devs = calloc(r->devs->n ? r->devs->n : 1, sizeof(*tb->devs));
    tb->ops = calloc(r->by_shape->n ? r->by_shape->n : 1, sizeof(*tb->ops));
    tb->kernels =
        calloc(r->kernels->n ? r->kernels->n : 1, sizeof(*tb->kernels));
    tb->gpus = calloc(r->gpus->n ? r->gpus->n : 1, sizeof(*tb->gpus));
    if (tb->devs == NULL || tb->ops == NULL || tb->kernels == NULL ||
        tb->gpus == NULL) {
        tables_free(tb);
        return pr_error_set(err, PR_E_NOMEM, "out of memory (recommend)");
    }
    tb->n_devs = r->devs->n;
    for (i = 0; i < r->devs->n; i++)
        dev_from_row(&r->devs->v[i], &tb->devs[i]);
    tb->n_ops = r->by_shape->n;
    for (i = 0; i < r->by_shape->n; i++)
        op_from_row(&r->by_shape->v[i], &tb->ops[i]);
    tb->n_kernels = r->kernels->n;
    for (i = 0; i < r->kernels->n; i++)
        kernel_from_ref(&r->kernels->v[i], &tb->kernels[i]);
    tb->n_gpus = r->gpus->n;
    for (i = 0; i < r->gpus->n; i++)
        gpu_from_row(&r->gpus->v[i], &tb->gpus[i]);
    total_ops(tb);
    tb->main_device = r->main_device;
    tb->tc_pct = r->tc_kernel_pct;
    tb->eligible_pct = r->eligible_op_pct;
    return PR_OK;
}

void
pr_rec_facts_free(struct pr_rec_facts *f)
{
    tables_free(&f->tables);
}

/* ------------------------------------------------------------ the table */

static int
any_npu(const struct pr_rec_tables *tb)
{
    size_t i;

    for (i = 0; i < tb->n_devs; i++)
        if (tb->devs[i].npu)
            return 1;
    return 0;
}

cJSON *
pr_rec_array(cJSON *run)
{
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(run, PR_K_RECOMMENDATIONS);
    cJSON *a;

    if (cJSON_IsArray(arr))
        return arr;
    a = cJSON_CreateArray();
    if (!pr_sput(run, PR_K_RECOMMENDATIONS, a)) {
        cJSON_Delete(a);
        return NULL;
    }
    return a;
}

static void
run_rules(struct rctx *c)
{
    rule_categories(c);
    rule_low_util(c);
    rule_amp(c);
    rule_plugin_from_run(c);
    rule_cold_step(c);
    rule_op_compile(c);
    rule_step_interval(c);
    rule_embedding(c);
    rule_pipeline_stage(c);
    rule_launch_bound(c);
    rule_host_sync(c);
    rule_pageable_copies(c);
    rule_copy_bound(c);
    rule_memory_bound(c);
    rule_misaligned(c);
    rule_low_occupancy(c);
    rule_low_block_dim(c);
    rule_scalar_bound(c);
    rule_dtype_conversions(c);
}

/* Low utilization is a recommendation only as the advice of a larger
 * batch, which carries the replay's gain (the host starves the device).
 * Otherwise its text tells the user nothing to change: a capture of
 * almost no device work (HTA's call_stack, one kernel), a trace that
 * cannot say why the device idles (an op_summary CSV, no launch calls),
 * or idle time another cause holds (HTA's trace_filter: host stalls
 * between bursts of queued work, which host_ops names).  It then stands
 * in Data quality, in its own words, with why it is no finding (issue
 * #31: a rule with no gain on the critical path does not fire). */
int
pr_recommend_demote(cJSON *run, struct pr_notes *notes, const char **moved)
{
    cJSON *recs = cJSON_GetObjectItemCaseSensitive(run, PR_K_RECOMMENDATIONS);
    cJSON *r, *next;
    char text[REC_TEXT + 400];

    *moved = NULL;
    for (r = recs != NULL ? recs->child : NULL; r != NULL; r = next) {
        const char *note = pr_sget_str(r, PR_K_GAIN_NOTE), *kind, *why;

        next = r->next;
        if (pr_sget_is(pr_sget_str(r, PR_K_ID), "low_block_dim") &&
            isnan(pr_sget_num(r, PR_K_GAIN_US)) &&
            isnan(pr_sget_num(r, PR_K_BOUND_US)) &&
            pr_sget_len(
                pr_sget(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_STEPS)) == 0) {
            /* operator statistics with no step (review 8 #4: MindSpore
               fixtures rank1, 0.37 of 0.46 ms of AI Core time): nothing
               to weigh it against, no gain nor bound, so no ranked
               finding; the observation stands in Data quality */
            snprintf(text, sizeof(text),
                     "%s Not a recommendation: the export holds no step "
                     "(operator statistics only), so neither this time's "
                     "share of a step nor what a change would save is "
                     "known.",
                     pr_sget_str_or(r, PR_K_TEXT, ""));
            pr_notes_row(notes, "low_block_dim", 1, text);
            cJSON_Delete(cJSON_DetachItemViaPointer(recs, r));
            continue;
        }
        if (!pr_sget_is(pr_sget_str(r, PR_K_ID), "low_gpu_utilization") ||
            !isnan(pr_sget_num(r, PR_K_GAIN_US)) || note == NULL)
            continue;
        if (strcmp(note, low_util_empty) == 0) {
            /* "no_": the Recommendations part says checks could not run */
            kind = "no_workload";
            why = pr_sget_run_is_capture(run)
                      ? "what would raise it is not known until the workload "
                        "itself is profiled"
                      : "what would raise it is not known until steps of the "
                        "workload itself are profiled";
        } else if (strcmp(note, low_util_lacks) == 0) {
            kind = "no_device_tasks";
            why = "the export does not hold the device work to judge it by";
        } else if (strcmp(note, low_util_blind) == 0) {
            kind = "no_launch_calls";
            why = "what holds the device back is not in the trace";
        } else if (strcmp(note, low_util_skew) == 0) {
            kind = "low_utilization";
            why = "what holds the device back cannot be read from times "
                  "whose clocks disagree";
        } else if (strcmp(note, low_util_other) == 0) {
            kind = "low_utilization";
            why = "the cause it names is what to change, and its own "
                  "finding covers it where one fires";
        } else {
            continue;
        }
        snprintf(text, sizeof(text),
                 "%s Not a recommendation (no change to replay for a "
                 "gain): %s.",
                 pr_sget_str_or(r, PR_K_TEXT, ""), why);
        pr_notes_row(notes, kind, 1, text);
        *moved = kind; /* a literal */
        cJSON_Delete(cJSON_DetachItemViaPointer(recs, r));
    }
    return !notes->failed;
}

/* Row r's string field key as obs's field, or left out where r has none. */
static void
obs_str(struct pr_row_observation *o, const cJSON *r, const char *key,
        const char **field, enum pr_schema_rowid id)
{
    *field = pr_sget_str(r, key);
    if (*field == NULL)
        pr_rows_omit(PR_RO_RUNS_OBSERVATIONS, o, id);
}

/* A recommendation no replay or model put a gain on, as an observation:
 * its words, why no gain (gain_note), its bound and evidence where it has
 * them.  0 when out of memory. */
static int
observe(cJSON *obs, const cJSON *r)
{
    struct pr_row_observation o = {0};
    const cJSON *b = pr_sget(r, PR_K_BOUND_US), *ev = pr_sget(r, PR_K_EVIDENCE);

    o.id = pr_sget_str_or(r, PR_K_ID, "");
    o.title = pr_whatif_title(r);
    o.severity = pr_sget_str_or(r, PR_K_SEVERITY, "warning");
    o.text = pr_sget_str_or(r, PR_K_TEXT, "");
    obs_str(&o, r, PR_K_GAIN_NOTE, &o.gain_note,
            PR_SR_RUNS_OBSERVATIONS_PR_K_GAIN_NOTE);
    obs_str(&o, r, PR_K_GAIN_BASIS, &o.gain_basis,
            PR_SR_RUNS_OBSERVATIONS_PR_K_GAIN_BASIS);
    obs_str(&o, r, PR_K_GAIN_SOURCE, &o.gain_source,
            PR_SR_RUNS_OBSERVATIONS_PR_K_GAIN_SOURCE);
    o.gain_us = o.gain_pct = NAN; /* null: the row of a finding */
    o.bound_us = cJSON_IsNumber(b) ? b->valuedouble : NAN;
    if (b == NULL)
        pr_rows_omit(PR_RO_RUNS_OBSERVATIONS, &o,
                     PR_SR_RUNS_OBSERVATIONS_PR_K_BOUND_US);
    o.evidence = ev;
    if (!cJSON_IsArray(ev))
        pr_rows_omit(PR_RO_RUNS_OBSERVATIONS, &o,
                     PR_SR_RUNS_OBSERVATIONS_PR_K_EVIDENCE);
    return pr_rows_write(obs, PR_RO_RUNS_OBSERVATIONS, &o, 1);
}

/* The findings no replay or model puts a gain on, moved from
 * run.recommendations to run.observations (issue #31: a rule with no gain
 * on the critical path does not fire as a recommendation; what the trace
 * shows stays, with why no change of it can be costed and, where known,
 * the most one could save).  After every gain is set, stages.c's pipeline
 * model's included (summary.c, before a run is written, or after a
 * MindSpore cluster's last rank); a run read back from a summary has none
 * left to move.  0 when out of memory. */
int
pr_recommend_observe(cJSON *run)
{
    cJSON *recs = cJSON_GetObjectItemCaseSensitive(run, PR_K_RECOMMENDATIONS);
    cJSON *obs = cJSON_GetObjectItemCaseSensitive(run, PR_K_OBSERVATIONS);
    cJSON *r, *next;

    for (r = cJSON_IsArray(recs) ? recs->child : NULL; r != NULL; r = next) {
        next = r->next;
        if (cJSON_IsNumber(pr_sget(r, PR_K_GAIN_US)))
            continue;
        if (!cJSON_IsArray(obs)) {
            obs = cJSON_CreateArray();
            if (obs == NULL || !pr_sput(run, PR_K_OBSERVATIONS, obs)) {
                cJSON_Delete(obs);
                return 0;
            }
        }
        if (!observe(obs, r))
            return 0;
        cJSON_Delete(cJSON_DetachItemViaPointer(recs, r));
    }
    /* where they stand in the run is its writer's (summary.c) */
    return 1;
}

enum pr_status
pr_recommend_fill(const struct pr_rec_facts *f, cJSON *run,
                  struct pr_error *err)
{
    struct rctx c;

    c.f = f;
    c.ok = 1;
    c.run = run;
    c.arr = pr_rec_array(run);
    if (c.arr == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    c.tb = &f->tables;
    c.hd = &c.tb->hostdev;
    c.npu = any_npu(c.tb);
    run_rules(&c);
    if (f->whatif != NULL) /* slow_dispatch's replay (pathrules.c) */
        pr_path_dispatch_picks(run, f->whatif);
    return c.ok ? PR_OK
                : pr_error_set(err, PR_E_NOMEM, "out of memory (recommend)");
}
