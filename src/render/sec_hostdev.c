/* sec_hostdev.c - the report's "Host and device" section (issue #11): how
 * each device spent its span (HTA's temporal breakdown) and why it was
 * idle, where the host blocked on the device, the copies by direction and
 * host memory kind judged against the host link, and the kernel launch
 * delay and queue length.  It reads what hostdev.c wrote into the run
 * (docs/summary-json.md); a number the trace does not allow is shown as
 * unknown with the reason, never as 0. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/sget.h"

#define MAX_CHARTS 2            /* devices drawn; the table lists every one */
#define SHARE_WORTH_SAYING 20.0 /* % of the span: a cause worth a line */
/* % of a device's idle inside the DataLoader's next(): its input, not
 * its launches, held it (loader_advice) */
#define LOADER_PCT 50.0

/* The span of a device in six parts that add up to it (a bar each, in
 * the palette's colours; short labels: the PDF's label column is narrow,
 * the table below spells them out). */
static const struct pr_category span_parts[] = {
    {PR_K_COMPUTE_US, "Compute", 0},
    {PR_K_COMMUNICATION_US, "Comm.", 0},
    {PR_K_MEMORY_US, "Copies", 0},
    {PR_K_IDLE_HOST_WAIT_US, "Idle host", 0},
    {PR_K_IDLE_KERNEL_WAIT_US, "Idle gaps", 0},
    {PR_K_IDLE_OTHER_US, "Idle other", 0},
};
#define N_PARTS (sizeof(span_parts) / sizeof(span_parts[0]))

/* ---- temporal breakdown ----------------------------------------------- */

static const struct pr_col temporal_cols[] = {
    {"device", PR_K_DEVICE, "Device", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"span", PR_K_SPAN_US, "Window", PR_FMT_US, 0.9,
     "The steps with device work (the window of the utilization figure); "
     "without steps, first to last work on the device (HTA's span)",
     PR_COL_BOTH},
    {"compute", PR_K_COMPUTE_PCT, "Compute", PR_FMT_PCT, 0.9, NULL,
     PR_COL_BOTH},
    {"comm", PR_K_COMMUNICATION_PCT, "Communication", PR_FMT_PCT, 1.35, NULL,
     PR_COL_BOTH},
    {"memory", PR_K_MEMORY_PCT, "Copies", PR_FMT_PCT, 0.8, NULL, PR_COL_BOTH},
    {"host_copy", PR_K_HOST_COPY_PCT, "Host copies", PR_FMT_PCT, 0.9,
     "Share of the span with a copy from or to the host running", PR_COL_BOTH},
    {"idle", PR_K_IDLE_PCT, "Idle", PR_FMT_PCT, 0.7, NULL, PR_COL_BOTH},
    {"host_wait", PR_K_IDLE_HOST_WAIT_US, "Idle: host", PR_FMT_US, 0.9,
     "The next launch call began after the device ran dry (HTA's host wait)",
     PR_COL_BOTH},
    {"kernel_wait", PR_K_IDLE_KERNEL_WAIT_US, "Idle: gaps", PR_FMT_US, 0.9,
     "Gaps under 30 \xC2\xB5s between back-to-back work (HTA's kernel wait)",
     PR_COL_BOTH},
    {"other", PR_K_IDLE_OTHER_US, "Idle: other", PR_FMT_US, 1.0,
     "Work already queued did not start: an event wait, another stream, "
     "work not in the trace (HTA's other)",
     PR_COL_BOTH},
    {"after_sync", PR_K_IDLE_AFTER_SYNC_US, "Of it after syncs", PR_FMT_US, 1.1,
     "Idle (of any kind) from a blocking host call until new work arrived",
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* An extract's tasks (review22a #2): their times, no share and no idle,
 * which the time between them does not measure. */
static const struct pr_col extract_cols[] = {
    {"device", PR_K_DEVICE, "Device", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"span", PR_K_SPAN_US, "First to last task", PR_FMT_US, 1.2,
     "From the first listed task's start to the last one's end", PR_COL_BOTH},
    {"compute", PR_K_COMPUTE_US, "Listed compute", PR_FMT_US, 1.1,
     "The listed compute tasks' time (union)", PR_COL_BOTH},
    {"comm", PR_K_COMMUNICATION_US, "Listed communication", PR_FMT_US, 1.3,
     "The listed collectives' time not under compute", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* Whether the device's figures are over the steps (else its span). */
static int
over_steps(const cJSON *dev)
{
    return pr_sget_is(pr_sget_str(dev, PR_K_WINDOW), PR_K_STEPS);
}

/* What window the figures cover, and HTA's over the device's span where
 * that differs: the two idle shares side by side, each with its window.
 * On torch_npu's device basis (pr_fig_run_host_step) the steps' window
 * starts at each host start, torch_npu's Preparing included, and is not
 * the device step the mean step and NPU utilization are over (issue #30
 * review #3: msprof_tv's 14.1 ms beside its 11.5 ms step). */
static void
window_note(struct pr_figs *f, const cJSON *dev, const cJSON *run)
{
    char a[48], b[48], text[400], win[160];
    double n = pr_sget_num(dev, PR_K_WINDOW_STEPS);

    if (!over_steps(dev))
        return;
    pr_chart_format(pr_sget_num(dev, PR_K_SPAN_US), PR_UNIT_US, a, sizeof(a));
    if (pr_fig_run_host_step(run))
        snprintf(win, sizeof(win),
                 "host step%s with device work, from each one's host start "
                 "(%s, torch_npu's Preparing included)",
                 n == 1 ? "" : "s", a);
    else
        snprintf(win, sizeof(win),
                 "step%s with device work (%s, the "
                 "window of %s utilization)",
                 n == 1 ? "" : "s", a,
                 f->npu                      ? "NPU"
                 : f->units == PR_UNITS_MTIA ? "MTIA"
                                             : "GPU");
    /* HTA's window is a GPU trace's: an NPU's span is named as itself */
    snprintf(text, sizeof(text),
             "Device %.0f over the %.0f %s: idle %.1f%%. Over its whole span, "
             "first to last work (%s%s): idle %.1f%%.",
             pr_sget_num(dev, PR_K_DEVICE), n, win,
             pr_sget_num(dev, PR_K_IDLE_PCT), f->npu ? "" : "HTA's window, ",
             pr_chart_format(pr_sget_num(dev, PR_K_DEVICE_SPAN_US), PR_UNIT_US,
                             b, sizeof(b)),
             pr_sget_num(dev, PR_K_DEVICE_SPAN_IDLE_PCT));
    pr_figs_text(f, text);
}

/* A device whose compute and idle are not known (its tasks are HCCL's
 * only, hostdev.c's note): what the export does hold, and the producer's
 * computation_time with its source, never "sat idle" (review 22a #3). */
static void
blind_note(struct pr_figs *f, const cJSON *dev, const cJSON *run)
{
    const cJSON *ph = pr_sget(run, PR_K_STEP_PHASES), *st;
    const char *src = pr_sget_str(ph, PR_K_SOURCE);
    double mean = pr_sget_num(pr_sget(ph, PR_K_MEAN), PR_K_COMPUTING_US);
    double n = pr_sget_num(dev, PR_K_WINDOW_STEPS), sum = 0;
    size_t k = 0;
    char a[48], b[48], c[48], table[160], of[200] = "";

    cJSON_ArrayForEach(st, pr_sget(ph, PR_K_STEPS))
    {
        double v = pr_sget_num(st, PR_K_COMPUTING_US);

        if (!isnan(v)) {
            sum += v;
            k++;
        }
    }
    double fpbp = pr_sget_num(
        pr_sget(pr_sget(run, PR_K_STEP_TRACE), PR_K_MEDIAN), PR_K_FP_AND_BP_US);

    if (k == 0 && isnan(mean) && fpbp > 0) {
        /* no step table: MindSpore's step trace times the forward and
           backward pass (review 28h #7) */
        snprintf(table, sizeof(table),
                 "MindSpore's step trace (step_trace_raw, its FP+BP)");
        snprintf(of, sizeof(of), "%s a step (median)",
                 pr_chart_format(fpbp, PR_UNIT_US, c, sizeof(c)));
    } else if (pr_sget_is(src, "ascend_cluster_analyse"))
        snprintf(table, sizeof(table),
                 "MindSpore's cluster table (ascend_cluster_analyse_*.csv, "
                 "column computation_time)");
    else
        snprintf(table, sizeof(table),
                 "the producer's step table (%s, its Computing)",
                 src != NULL ? src : "step table");
    if (k > 0 && over_steps(dev) && (double)k == n)
        snprintf(of, sizeof(of), "%s over these %.0f steps",
                 pr_chart_format(sum, PR_UNIT_US, b, sizeof(b)), n);
    else if (!isnan(mean))
        snprintf(of, sizeof(of), "%s a step (mean)",
                 pr_chart_format(mean, PR_UNIT_US, c, sizeof(c)));
    {
        char text[640];

        snprintf(text, sizeof(text),
                 "Device %.0f %s (%s): compute and idle are not known. Its "
                 "export holds HCCL tasks only (communication %.1f%% of the "
                 "window), no compute task, while %s counts computation "
                 "of %s: time without an HCCL task here is that "
                 "computation or idle, which the export does not tell "
                 "apart.",
                 pr_sget_num(dev, PR_K_DEVICE),
                 over_steps(dev) ? "over the steps" : "over its span",
                 pr_chart_format(pr_sget_num(dev, PR_K_SPAN_US), PR_UNIT_US, a,
                                 sizeof(a)),
                 pr_sget_num(dev, PR_K_COMMUNICATION_PCT), table,
                 of[0] != '\0' ? of : "some");
        pr_figs_text(f, text);
    }
}

/* A kernel-replay capture (CUPTI's range profiler, hostdev.c emit_tb):
 * its devices' busy and idle time are not known. */
static int
replay_run(const cJSON *run)
{
    return pr_sget_num(pr_sget(run, PR_K_DATA_QUALITY), PR_K_REPLAYED_KERNELS) >
           0;
}

static void
replay_note(struct pr_figs *f, const cJSON *dev)
{
    char text[400];
    const char *note = pr_sget_str_or(dev, PR_K_NOTE, "");

    snprintf(text, sizeof(text), "%c%s.", toupper((unsigned char)note[0]),
             note[0] ? note + 1 : "");
    pr_figs_note(f, text);
}

/* One device's span as bars of its six parts, its length in the title. */
static struct pr_fig_chart *
span_bars(const cJSON *dev, const cJSON *run)
{
    struct pr_fig_chart *ch;
    double *vals = calloc(N_PARTS, sizeof(*vals));
    const char **labels = calloc(N_PARTS, sizeof(*labels));
    size_t *idx = calloc(N_PARTS, sizeof(*idx));
    char span[48];
    size_t k, n = 0;

    ch = pr_fig_chart_new(pr_fig_draw_hbars, "Device span", 960,
                          70 + 22 * (double)N_PARTS, 70 + 16 * (double)N_PARTS);
    if (ch == NULL || vals == NULL || labels == NULL || idx == NULL) {
        free(vals);
        free(labels);
        free(idx);
        pr_fig_chart_free(ch);
        return NULL;
    }
    ch->own[0] = vals;
    ch->own[1] = (void *)labels;
    ch->own[2] = idx;
    for (k = 0; k < N_PARTS; k++) {
        double v = pr_sget_num(dev, span_parts[k].key);

        /* the host's share of the idle unmeasured without runtime
           calls: no bar, as the table's dash (issue #30 review) */
        if (strcmp(span_parts[k].key, PR_K_IDLE_HOST_WAIT_US) == 0 &&
            pr_sget_str(pr_sget(run, PR_K_LAUNCHES), PR_K_NOTE) != NULL)
            continue;
        vals[n] = isnan(v) ? 0 : v;
        labels[n] = span_parts[k].label;
        idx[n] = n;
        n++;
    }
    snprintf(ch->label, sizeof(ch->label), "Device %.0f: where its %s %s went",
             pr_sget_num(dev, PR_K_DEVICE),
             pr_chart_format(pr_sget_num(dev, PR_K_SPAN_US), PR_UNIT_US, span,
                             sizeof(span)),
             !over_steps(dev)            ? "span"
             : pr_fig_run_host_step(run) ? "over the host steps"
                                         : "over the steps");
    ch->u.hbars = (struct pr_chart_hbars){ch->label,  labels, vals, n, idx,
                                          PR_UNIT_US, NULL,   0,    0};
    return ch;
}

/* An Ascend device waiting for its host, in CANN's and torch_npu's
 * words (issue #30 finding 4: no CUDA advice on an NPU): where the host
 * compiles operators online (op_compile), that is the wait to remove
 * first; else the host does not dispatch fast enough, a "host bound"
 * step as MindStudio's tuning guide names it, whose torch_npu levers are
 * the operator delivery queue (TASK_QUEUE_ENABLE=2) and fewer, larger
 * operators. */
static void
npu_host_advice(struct pr_figs *f, const cJSON *dev, const cJSON *run,
                double pct, const char *of)
{
    double compile = pr_sget_num(pr_sget(run, PR_K_OP_COMPILE), PR_K_STEP_PCT);
    char text[640];

    if (compile >= 5.0)
        snprintf(text, sizeof(text),
                 "Device %.0f waited for the host %.0f%% %s, and the host "
                 "ran operators on CANN's aclop path (its "
                 "aclopCompileAndExecute calls) for %.1f%% of the step%s: "
                 "the wait to remove first (see the op_compile finding): "
                 "torch_npu.npu.set_compile_mode(jit_compile=False) with "
                 "CANN's binary operator package, so they run as binary "
                 "kernels off the aclop path.",
                 pr_sget_num(dev, PR_K_DEVICE), pct, of, compile,
                 pr_fig_run_host_step(run) ? " by torch_npu's rule" : "");
    else
        snprintf(text, sizeof(text),
                 "Device %.0f waited for the host %.0f%% %s: the host did "
                 "not dispatch operators fast enough (host bound, in "
                 "MindStudio's words: Python overhead, data loading, many "
                 "small operators). torch_npu's operator delivery queue at "
                 "level 2 (export TASK_QUEUE_ENABLE=2; it may raise peak "
                 "NPU memory) moves more of the dispatch off the Python "
                 "thread; fuse small operators; a slow input pipeline "
                 "wants more DataLoader workers.",
                 pr_sget_num(dev, PR_K_DEVICE), pct, of);
    pr_figs_text(f, text);
}

/* Whether the run has a finding of this id, ranked or observed. */
static int
has_finding(const cJSON *run, const char *id)
{
    return pr_sget_find(pr_sget(run, PR_K_RECOMMENDATIONS), PR_K_ID, id) !=
               NULL ||
           pr_sget_find(pr_sget(run, PR_K_OBSERVATIONS), PR_K_ID, id) != NULL;
}

/* What fuses launches on the run's device, in its words. */
static const char *
graphs_words(const cJSON *run)
{
    if (pr_fig_run_is_npu(run))
        return "graph mode";
    switch (pr_fig_run_units(run)) {
    case PR_UNITS_AMD:
        return "HIP graphs (mode=\"reduce-overhead\")";
    case PR_UNITS_MTIA:
        return "graph capture, where its runtime offers one";
    default:
        return "CUDA graphs (mode=\"reduce-overhead\")";
    }
}

/* A device whose idle lies mostly inside the DataLoader's next() (the
 * analysis' idle_dataloader_pct, hostdev.c) waits for its input, not
 * for launches (review 22g item 8: tb_plugin's resnet50_num_workers_0,
 * 77% of its idle): the input pipeline's levers, and the launch ones only
 * where the launch rule's own evidence holds (its launch_bound
 * finding). */
static void
loader_advice(struct pr_figs *f, const cJSON *dev, const cJSON *run, double pct,
              const char *of)
{
    char text[768], in[32], idle[32];
    size_t len;

    pr_chart_format(pr_sget_num(dev, PR_K_IDLE_DATALOADER_US), PR_UNIT_US, in,
                    sizeof(in));
    pr_chart_format(pr_sget_num(dev, PR_K_IDLE_US), PR_UNIT_US, idle,
                    sizeof(idle));
    snprintf(text, sizeof(text),
             "Device %.0f waited for the host %.0f%% %s, and %.0f%% of its "
             "idle time (%s of %s) lies inside the DataLoader's next(): it "
             "waited for its input, not for kernel launches. More DataLoader "
             "workers (num_workers) prepare the next batches while the "
             "device computes; pin_memory=True with .to(device, "
             "non_blocking=True) overlaps the copy to the device.",
             pr_sget_num(dev, PR_K_DEVICE), pct, of,
             pr_sget_num(dev, PR_K_IDLE_DATALOADER_PCT), in, idle);
    len = strlen(text);
    if (has_finding(run, "launch_bound"))
        snprintf(text + len, sizeof(text) - len,
                 " The launches are slow too (the launch_bound finding): "
                 "fused kernels (torch.compile) or %s cut that overhead.",
                 graphs_words(run));
    pr_figs_text(f, text);
}

/* The idle causes that matter, in words a user acts on. */
static void
idle_advice(struct pr_figs *f, const cJSON *dev, const cJSON *run)
{
    int npu = pr_fig_run_is_npu(run);
    int ms = pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "mindspore");
    double span = pr_sget_num(dev, PR_K_SPAN_US);
    double host = pr_sget_num(dev, PR_K_IDLE_HOST_WAIT_US);
    double other = pr_sget_num(dev, PR_K_IDLE_OTHER_US);
    double sync = pr_sget_num(dev, PR_K_IDLE_AFTER_SYNC_US);
    const char *of = !over_steps(dev)            ? "of its span"
                     : pr_fig_run_host_step(run) ? "of the host steps"
                                                 : "of the steps";
    char text[512];

    if (!(span > 0))
        return;
    /* idle after a sync is host wait too, but no launch overhead */
    host -= sync > 0 ? (sync < host ? sync : host) : 0;
    if (100 * host / span >= SHARE_WORTH_SAYING && ms) {
        /* MindSpore's words: no DataLoader, no torch.compile */
        snprintf(text, sizeof(text),
                 "Device %.0f had no task running or queued %.0f%% %s: it "
                 "waited for the host to send the next step or its data. "
                 "Speed up the dataset pipeline (num_parallel_workers of "
                 "its map and batch operations), send several steps at once "
                 "(dataset sink mode, dataset_sink_mode=True with a larger "
                 "sink_size), and run the network in GRAPH_MODE: PyNative "
                 "mode launches every operator from Python.",
                 pr_sget_num(dev, PR_K_DEVICE), 100 * host / span, of);
        pr_figs_text(f, text);
    } else if (100 * host / span >= SHARE_WORTH_SAYING &&
               pr_sget_num(dev, PR_K_IDLE_DATALOADER_PCT) >= LOADER_PCT) {
        loader_advice(f, dev, run, 100 * host / span, of);
    } else if (100 * host / span >= SHARE_WORTH_SAYING && npu) {
        npu_host_advice(f, dev, run, 100 * host / span, of);
    } else if (100 * host / span >= SHARE_WORTH_SAYING &&
               pr_sget_str(pr_sget(run, PR_K_HOST_COVERAGE), PR_K_NOTE) !=
                   NULL) {
        /* the trace does not record what held the host (hostcov.c):
           no cause named, no advice on it; or its Python frames name it
           (review 32g #2) */
        char py[1200];
        size_t len = (size_t)snprintf(
            py, sizeof(py),
            "Device %.0f waited for the host %.0f%% %s, but %.*f%% of "
            "%s host time is inside no recorded operator or "
            "runtime call",
            pr_sget_num(dev, PR_K_DEVICE), 100 * host / span, of,
            pr_pct_prec(pr_sget_num(pr_sget(run, PR_K_HOST_COVERAGE),
                                    PR_K_UNRECORDED_PCT)),
            pr_sget_num(pr_sget(run, PR_K_HOST_COVERAGE), PR_K_UNRECORDED_PCT),
            pr_sget_run_is_capture(run) ? "the capture's" : "the steps'");
        size_t at = len < sizeof(py)
                        ? pr_sget_host_python(run, py, sizeof(py), len)
                        : len;

        if (at > len)
            snprintf(py + at, sizeof(py) - at,
                     ": the host was in those Python functions there, "
                     "outside any recorded operator (Data quality).");
        else if (len < sizeof(py))
            snprintf(py + len, sizeof(py) - len,
                     " (Data quality): what held the host is not in the "
                     "trace.");
        pr_figs_text(f, py);
    } else if (100 * host / span >= SHARE_WORTH_SAYING) {
        snprintf(text, sizeof(text),
                 "Device %.0f waited for the host %.0f%% %s: the "
                 "CPU did not launch work fast enough (Python overhead, data "
                 "loading, many small kernels). Larger batches, fused "
                 "kernels (torch.compile) or %s cut the launch overhead; a "
                 "slow input pipeline wants more DataLoader workers.",
                 pr_sget_num(dev, PR_K_DEVICE), 100 * host / span, of,
                 graphs_words(run));
        pr_figs_text(f, text);
    }
    if (100 * other / span >= SHARE_WORTH_SAYING &&
        !(pr_sget_num(pr_sget(run, PR_K_LAUNCHES), PR_K_KERNELS_WITH_LAUNCH) >
          0)) {
        /* no launch linked to any work: "already launched" is unknown */
        snprintf(text, sizeof(text),
                 "Device %.0f sat idle %.0f%% %s. No launch call is linked to "
                 "its work in this trace, so what held it back (the host, "
                 "another stream or a peer) is not recorded.",
                 pr_sget_num(dev, PR_K_DEVICE), 100 * other / span, of);
        pr_figs_text(f, text);
    } else if (100 * other / span >= SHARE_WORTH_SAYING) {
        snprintf(text, sizeof(text),
                 "Device %.0f sat idle %.0f%% %s with its next work "
                 "already launched: it waited on an event of another stream, "
                 "or ran work the trace does not hold.",
                 pr_sget_num(dev, PR_K_DEVICE), 100 * other / span, of);
        pr_figs_text(f, text);
    }
    if (100 * sync / span >= SHARE_WORTH_SAYING) {
        snprintf(text, sizeof(text),
                 "Blocking host calls (synchronisations, blocking copies) "
                 "explain %.0f%% of device %.0f's %s: it ran dry while "
                 "the host waited in them (see the calls below).",
                 100 * sync / span, pr_sget_num(dev, PR_K_DEVICE),
                 over_steps(dev) ? "time over the steps" : "span");
        pr_figs_text(f, text);
    }
}

static void
temporal(struct pr_figs *f, const cJSON *run)
{
    const cJSON *tb = pr_sget(run, PR_K_TEMPORAL_BREAKDOWN), *dev;
    struct pr_fig_table t = {
        .cols = temporal_cols, .rows = tb, .what = "devices"};
    const char *basis = pr_sget_str(pr_sget(run, PR_K_VERDICT), PR_K_BASIS);
    char text[400];
    size_t n = 0;
    const char *why =
        pr_sget_str(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_NO_PATH_REASON);

    pr_figs_heading(f, "Device time: busy and idle");
    if (pr_sget_len(tb) == 0) {
        /* a rank whose files hold no task did device work (issue #30) */
        pr_figs_note(f, pr_fig_run_no_tasks(run)
                            ? "No device task is in this rank's files "
                              "(" PR_FIG_NO_TASK_FILES "): its "
                              "device time cannot be broken down; the step "
                              "table's split is in the verdict above."
                        : pr_fig_run_is_npu(run)
                            ? "No device task in this run: no device time to "
                              "break down."
                            : "No kernels, copies or memsets in this run: no "
                              "device time to break down.");
        return;
    }
    if (pr_sget_is(why, "task_list_extract") ||
        pr_sget_is(why, "tasks_incomplete")) {
        /* review22a #2, review23a #3: no idle to chart, no cause of it to
           name */
        pr_figs_note(f, pr_sget_is(why, "task_list_extract")
                            ? "The task list is an extract of the device's "
                              "tasks (see Data quality): the time between "
                              "its tasks holds tasks it left out, so the "
                              "shares of the span and the idle time are not "
                              "known; the table gives the listed tasks' time."
                            : "The task list holds under half of the device "
                              "time the producer's step table records a "
                              "step (see Data quality): the time between its "
                              "tasks holds tasks it left out, so the shares "
                              "of the span and the idle time are not known; "
                              "the table gives the listed tasks' time.");
        t.cols = extract_cols;
        pr_figs_table(f, NULL, &t, NULL);
        return;
    }
    cJSON_ArrayForEach(dev, tb)
    {
        /* no bars of compute and idle nobody measured */
        if (n < MAX_CHARTS && pr_sget_str(dev, PR_K_NOTE) == NULL)
            pr_figs_chart(f, span_bars(dev, run), 0);
        n++;
    }
    n = 0;
    cJSON_ArrayForEach(dev, tb)
    {
        if (replay_run(run)) {
            /* the note once, not per device (review30g #3) */
            if (n++ == 0)
                replay_note(f, dev);
            continue;
        }
        if (pr_sget_str(dev, PR_K_NOTE) != NULL) {
            blind_note(f, dev, run);
            continue;
        }
        if (n++ < MAX_CHARTS)
            window_note(f, dev, run);
        if (basis == NULL)
            idle_advice(f, dev, run);
    }
    if (basis != NULL) {
        /* an incomplete task list's idle is the time it does not cover
           (issue #30 finding 1): no cause of it to act on */
        snprintf(text, sizeof(text),
                 "These are the export's recorded tasks only, an incomplete "
                 "list (see Data quality): much of their idle is time the "
                 "producer's step table (%s) records as Computing or "
                 "Communication, so no cause of it is given here; the "
                 "table's split is in Distributed.",
                 basis);
        pr_figs_note(f, text);
    }
    {
        /* no runtime calls: the idle's split by what the host did is not
           measured, a dash, not 0 (issue #30 review: pp4 rank 0 and CANN
           6's "Idle: host 0" beside "launch delay cannot be measured") */
        const char *ln = pr_sget_str(pr_sget(run, PR_K_LAUNCHES), PR_K_NOTE);
        const char *sn =
            pr_sget_str(pr_sget(run, PR_K_SYNCHRONIZATION), PR_K_NOTE);
        cJSON *rows, *row;

        if (ln == NULL && sn == NULL) {
            pr_figs_table(f, NULL, &t, NULL);
            return;
        }
        rows = cJSON_Duplicate(tb, 1);
        if (rows == NULL) {
            pr_figs_nomem(f);
            return;
        }
        cJSON_ArrayForEach(row, rows)
        {
            /* a key left out reads as a dash */
            if (ln != NULL)
                cJSON_DeleteItemFromObjectCaseSensitive(row,
                                                        PR_K_IDLE_HOST_WAIT_US);
            if (sn != NULL)
                cJSON_DeleteItemFromObjectCaseSensitive(
                    row, PR_K_IDLE_AFTER_SYNC_US);
        }
        snprintf(text, sizeof(text), "%s not measured (a dash): %s.",
                 ln != NULL && sn != NULL ? "Idle: host and Of it after syncs "
                                            "are"
                 : ln != NULL             ? "Idle: host is"
                                          : "Of it after syncs is",
                 ln != NULL ? ln : sn);
        pr_figs_note(f, text);
        pr_figs_table_own(f, &t, rows, NULL);
    }
}

/* ---- synchronisation -------------------------------------------------- */

static const struct pr_col sync_cols[] = {
    {"name", PR_K_NAME, "Call", PR_FMT_NAME, 2.0, NULL, PR_COL_BOTH},
    {"kind", PR_K_KIND, "Kind", PR_FMT_TEXT, 1.0,
     "device | stream | event | blocking_copy | stream_wait", PR_COL_BOTH},
    {"count", PR_K_COUNT, "Calls in steps", PR_FMT_COUNT, 0.9, NULL,
     PR_COL_BOTH},
    {"host", PR_K_HOST_US, "Host blocked", PR_FMT_US, 1.0,
     "Host time inside the call, inside the steps", PR_COL_BOTH},
    {"gpu_idle", PR_K_GPU_IDLE_US, "Idle until new work", PR_FMT_US, 1.1,
     "Device dry from the call until new work reached it, at most the host's "
     "time blocked in the call: a floor on what the call costs, since the "
     "device then trails the host while it queues work again; none for a "
     "stream wait (a stream waits, not the host)",
     PR_COL_BOTH},
    {"outside", PR_K_OUTSIDE_STEPS_COUNT, "Outside steps", PR_FMT_COUNT, 0.9,
     "Before the first or after the last step (start-up, shutdown)",
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static void
sync_summary(struct pr_figs *f, const cJSON *run, const cJSON *s)
{
    char a[48], b[48], text[600];
    double out_n = pr_sget_num(s, PR_K_OUTSIDE_STEPS_COUNT);
    /* the host_sync finding's replayed gain: what the syncs cost with the
       refill after each, where the table's idle stops at the first new
       work (NAN without the finding) */
    double gain = pr_sget_num(
        pr_sget_find(pr_sget(run, PR_K_RECOMMENDATIONS), PR_K_ID, "host_sync"),
        PR_K_GAIN_US);
    double host = pr_sget_num(s, PR_K_HOST_US),
           idle = pr_sget_num(s, PR_K_GPU_IDLE_US);
    int len, capture = pr_sget_run_is_capture(run);

    /* the floor clause only where the calls blocked and left the device
       idle (review 14 #4: hta_df_index's stream waits block nothing) */
    len = snprintf(
        text, sizeof(text),
        "Inside the %s the host blocked %s in these calls, and they "
        "left the device idle %s until new work reached it (each call at "
        "most the time the host was blocked in it)%s.",
        capture ? "capture" : "steps",
        pr_chart_format(host, PR_UNIT_US, a, sizeof(a)),
        pr_chart_format(idle, PR_UNIT_US, b, sizeof(b)),
        host > 0 && idle > 0 ? ": a floor on their cost, since after each "
                               "call the device trails the host while it "
                               "queues work again"
                             : "");
    if (isfinite(gain) && gain > 0 && len > 0 && (size_t)len < sizeof(text))
        snprintf(text + len, sizeof(text) - (size_t)len,
                 " The critical-path replay with the syncs gone counts that "
                 "too: %s %s (finding host_sync).",
                 pr_chart_format(gain, PR_UNIT_US, a, sizeof(a)),
                 capture ? "in the capture" : "a step");
    pr_figs_text(f, text);
    if (out_n > 0) {
        snprintf(text, sizeof(text),
                 "%.0f call%s (%s) %s are left out: profiler start-up and "
                 "shutdown, not the training loop.",
                 out_n, out_n == 1 ? "" : "s",
                 pr_chart_format(pr_sget_num(s, PR_K_OUTSIDE_STEPS_HOST_US),
                                 PR_UNIT_US, a, sizeof(a)),
                 capture ? "outside the capture's window"
                         : "before the first or after the last step");
        pr_figs_text(f, text);
    }
}

static void
synchronization(struct pr_figs *f, const cJSON *run)
{
    const cJSON *s = pr_sget(run, PR_K_SYNCHRONIZATION);
    struct pr_fig_table t = {.cols = sync_cols,
                             .rows = pr_sget(s, PR_K_CALLS),
                             .what = "calls",
                             .order = "host time",
                             .capture = pr_sget_run_is_capture(run)};

    pr_figs_heading(f, "Host\xE2\x80\x93"
                       "device synchronisation");
    if (!cJSON_IsObject(s)) {
        pr_figs_note(f, "This summary has no synchronisation data.");
        return;
    }
    if (pr_sget_str(s, PR_K_NOTE) != NULL) {
        pr_figs_note(f, pr_sget_str(s, PR_K_NOTE));
        return;
    }
    if (pr_sget_len(t.rows) == 0) {
        pr_figs_note(f, "No synchronising call (a synchronize, a blocking "
                        "copy, a stream wait) in this run.");
        return;
    }
    sync_summary(f, run, s);
    pr_figs_table(f, NULL, &t, NULL);
    if (pr_sget_num(s, PR_K_HOST_US) > 0)
        pr_figs_text(f, pr_fig_run_is_npu(run)
                            ? "Usual sources of a sync inside a training "
                              "loop: tensor.item(), .cpu(), .tolist() or "
                              "printing a tensor, torch.npu.synchronize(), "
                              "and copies from pageable memory."
                            : "Usual sources of a sync inside a training "
                              "loop: tensor.item(), .cpu(), .tolist() or "
                              "printing a tensor, torch.cuda.synchronize(), "
                              "and copies with non_blocking=False, which "
                              "PyTorch follows with a stream sync.");
}

/* ---- copies ----------------------------------------------------------- */

static const struct pr_col copy_cols[] = {
    {"device", PR_K_DEVICE, "Device", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"direction", PR_K_DIRECTION, "Direction", PR_FMT_TEXT, 0.8,
     "HtoD host to device, DtoH, DtoD, PtoP peer to peer", PR_COL_BOTH},
    {"host_memory", PR_K_HOST_MEMORY, "Host memory", PR_FMT_TEXT, 0.9,
     "pageable: staged through a pinned buffer, blocks the host", PR_COL_BOTH},
    {"count", PR_K_COUNT, "Copies", PR_FMT_COUNT, 0.7, NULL, PR_COL_BOTH},
    {"bytes", PR_K_BYTES, "Bytes", PR_FMT_BYTES, 0.9, NULL, PR_COL_BOTH},
    {"time", PR_K_DURATION_US, "Time", PR_FMT_US, 0.8, NULL, PR_COL_BOTH},
    {"gbps", PR_K_GBPS, "Throughput", PR_FMT_GBPS, 0.9, "Bytes over copy time",
     PR_COL_BOTH},
    {"link", PR_K_LINK, "Host link", PR_FMT_TEXT, 1.0, NULL, PR_COL_BOTH},
    {"link_pct", PR_K_LINK_PCT, "Of link", PR_FMT_PCT, 0.7,
     "Throughput against the host link, never device memory", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* Pageable copies that are not all scalars, worded by direction (review
 * 25g #5): pinning and the DataLoader stage input batches going to the
 * device; they do nothing for a read of a result back to the host, whose
 * cost is the wait for the work queued before it. */
static void
pageable_by_direction(char *text, size_t size, const cJSON *by_kind)
{
    const cJSON *r;
    double n[2] = {0, 0}, us[2] = {0, 0}, once = 0;
    char a[48], part[2][360];
    int d;

    cJSON_ArrayForEach(r, by_kind)
    {
        if (!pr_sget_is(pr_sget_str(r, PR_K_HOST_MEMORY), "pageable"))
            continue;
        d = pr_sget_is(pr_sget_str(r, PR_K_DIRECTION), "DtoH") ? 1 : 0;
        n[d] += pr_sget_num(r, PR_K_COUNT);
        us[d] += pr_sget_num(r, PR_K_DURATION_US);
        if (d == 0 && pr_sget_num(r, PR_K_BEFORE_FIRST_KERNEL_COUNT) > 0)
            once += pr_sget_num(r, PR_K_BEFORE_FIRST_KERNEL_COUNT);
    }
    part[0][0] = part[1][0] = '\0';
    if (n[0] > 0 && once >= n[0])
        /* every one before the first kernel: the model's parameters or
           constants moved once (review 26g #3: alexnet's 16 copies under
           aten::to, 244 MB of AlexNet's weights), no input batch */
        snprintf(part[0], sizeof(part[0]),
                 "%.0f cop%s from pageable host memory to the device (%s), "
                 "all before the first kernel: a one-time move (the model's "
                 "parameters or constants, model.to(device)) that costs "
                 "this once; pin only the input batches a loop copies "
                 "each iteration (DataLoader(pin_memory=True)).",
                 n[0], n[0] == 1 ? "y" : "ies",
                 pr_chart_format(us[0], PR_UNIT_US, a, sizeof(a)));
    else if (n[0] > 0)
        snprintf(part[0], sizeof(part[0]),
                 "%.0f cop%s from pageable host memory to the device (%s): "
                 "each is staged through a pinned buffer. "
                 "DataLoader(pin_memory=True) and .to(device, "
                 "non_blocking=True) make them asynchronous and faster.",
                 n[0], n[0] == 1 ? "y" : "ies",
                 pr_chart_format(us[0], PR_UNIT_US, a, sizeof(a)));
    if (n[1] > 0)
        snprintf(part[1], sizeof(part[1]),
                 "%.0f cop%s into pageable host memory (%s): each returns "
                 "only once it is done, after the work queued before it, so "
                 "the host waits for the stream (see Synchronization). "
                 "DataLoader(pin_memory=True) does not help a read back to "
                 "the host: keep the values on the device, or copy into a "
                 "pinned buffer with non_blocking=True and synchronize once "
                 "per step.",
                 n[1], n[1] == 1 ? "y" : "ies",
                 pr_chart_format(us[1], PR_UNIT_US, a, sizeof(a)));
    snprintf(text, size, "%s%s%s", part[0], part[0][0] && part[1][0] ? " " : "",
             part[1]);
}

/* Pageable host copies: bytes and time, to say what pinning would fix.
 * CUDA's API synchronization behavior: cudaMemcpyAsync from pageable host
 * memory to the device stages the bytes and returns, with no device
 * synchronization; a copy to pageable host memory returns only once it is
 * done, after the work queued before it.  PyTorch's copy with
 * non_blocking=False (Copy.cu, at::cuda::memcpy_and_sync) syncs the stream
 * after either (review 13 #4). */
static void
pageable_advice(struct pr_figs *f, const cJSON *by_kind)
{
    const cJSON *r;
    double n = 0, us = 0, bytes = 0, b, to_host = 0;
    char a[48], text[800];

    cJSON_ArrayForEach(r, by_kind)
    {
        if (!pr_sget_is(pr_sget_str(r, PR_K_HOST_MEMORY), "pageable"))
            continue;
        n += pr_sget_num(r, PR_K_COUNT);
        us += pr_sget_num(r, PR_K_DURATION_US);
        b = pr_sget_num(r, PR_K_BYTES);
        bytes += b > 0 ? b : 0;
        if (pr_sget_is(pr_sget_str(r, PR_K_DIRECTION), "DtoH"))
            to_host += pr_sget_num(r, PR_K_COUNT);
    }
    if (!(n > 0))
        return;
    if (bytes > 0 && bytes / n <= 64)
        /* scalars (review-2 finding 12: nsys mfu_2gpu's 8-byte copies):
           the same words as the host_sync finding (pathrules.c), never
           pinning advice for them */
        snprintf(text, sizeof(text),
                 "%.0f cop%s from or to pageable host memory (%s, %.0f byte%s "
                 "each on average: scalars). %s PyTorch's .item(), and "
                 ".to(device) and .cpu() with the default non_blocking=False, "
                 "follow the copy with a stream sync (see Synchronization). "
                 "Pinning or "
                 "prefetching does not help a copy of a few bytes; keep such "
                 "values on the device or create them once before the loop "
                 "(see Recommendations).",
                 n, n == 1 ? "y" : "ies",
                 pr_chart_format(us, PR_UNIT_US, a, sizeof(a)), bytes / n,
                 bytes == n ? "" : "s",
                 to_host >= n ? "A copy into pageable host memory returns "
                                "only once it is done, after the work queued "
                                "before it: the host waits for the stream."
                 : to_host > 0
                     ? "A copy to the device stages its bytes and returns; "
                       "one into pageable host memory returns only once it "
                       "is done, after the work queued before it."
                     : "A copy to the device from pageable memory stages its "
                       "bytes and returns without waiting for the stream: "
                       "each costs a runtime call and a staging copy.");
    else
        pageable_by_direction(text, sizeof(text), by_kind);
    pr_figs_text(f, text);
}

static void
copies(struct pr_figs *f, const cJSON *run)
{
    const cJSON *c = pr_sget(run, PR_K_COPIES);
    const cJSON *ms = pr_sget(c, PR_K_MEMSET);
    struct pr_fig_table t = {.cols = copy_cols,
                             .rows = pr_sget(c, PR_K_BY_KIND),
                             .what = "kinds of copy"};
    char a[48], b[48], text[200];

    pr_figs_heading(f, "Copies by direction and host memory");
    if (!cJSON_IsObject(c)) {
        pr_figs_note(f, "This summary has no copy data.");
        return;
    }
    pr_figs_table(f, NULL, &t,
                  pr_fig_run_no_tasks(run)
                      ? "No copy task is in this rank's files "
                        "(" PR_FIG_NO_TASK_FILES "): its copies "
                        "are not known."
                      : "No memory copies in this run.");
    if (pr_sget_str(c, PR_K_NOTE) != NULL)
        pr_figs_note(f, pr_sget_str(c, PR_K_NOTE));
    pageable_advice(f, t.rows);
    if (pr_sget_num(ms, PR_K_COUNT) > 0) {
        snprintf(text, sizeof(text), "Memsets: %.0f, %s in %s.",
                 pr_sget_num(ms, PR_K_COUNT),
                 pr_chart_format(pr_sget_num(ms, PR_K_BYTES), PR_UNIT_BYTES, a,
                                 sizeof(a)),
                 pr_chart_format(pr_sget_num(ms, PR_K_DURATION_US), PR_UNIT_US,
                                 b, sizeof(b)));
        pr_figs_note(f, text);
    }
}

/* ---- launches --------------------------------------------------------- */

static const struct pr_col queue_cols[] = {
    {"device", PR_K_DEVICE, "Device", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"stream", PR_K_STREAM, "Stream", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"operations", PR_K_OPERATIONS, "Operations", PR_FMT_COUNT, 0.9,
     "Kernels, copies and memsets enqueued by a call in the trace "
     "(graph-launched kernels apart)",
     PR_COL_BOTH},
    {"kernels", PR_K_KERNELS, "Kernels", PR_FMT_COUNT, 0.8, NULL, PR_COL_BOTH},
    {"max", PR_K_MAX, "Max queue", PR_FMT_COUNT, 0.8,
     "Operations launched and not yet started, at most (HTA's queue length)",
     PR_COL_BOTH},
    {"mean", PR_K_MEAN, "Mean queue", PR_FMT_NUM, 0.8, "Over the stream's span",
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* A time in µs with its unit, 0 included ("0 µs", not a bare 0). */
static const char *
us_text(double v, char *buf, size_t n)
{
    if (v == 0)
        snprintf(buf, n, "0 µs");
    else
        pr_chart_format(v, PR_UNIT_US, buf, n);
    return buf;
}

static void
launch_kpis(struct pr_figs *f, const cJSON *l, int npu, enum pr_fig_units units)
{
    const cJSON *d = pr_sget(l, PR_K_LAUNCH_DELAY_US);
    const cJSON *q = pr_sget(l, PR_K_TASK_QUEUE_WAIT_US);
    int none = !cJSON_IsObject(d);
    double early = pr_sget_num(d, PR_K_STARTED_BEFORE_CALL_END);
    double all = pr_sget_num(l, PR_K_KERNELS_WITH_LAUNCH);
    char a[48], b[48], sub[320], before[160] = "";

    /* a 0 is the clamp of work that started before its launch call
       returned, not an instant launch: say so where 10% or more of the
       launches are (so that the p90 may read 0), with the unit
       (review26a #4: npu_trace_view "0 ... p90 0", 256 of 274 tasks) */
    if (early > 0 && all > 0 && early >= 0.1 * all) /* as p90 may read 0 */
        snprintf(before, sizeof(before),
                 "; %.0f of %.0f %s started before their launch call "
                 "returned, counted as 0 µs",
                 early, all, npu ? "tasks" : "kernels");
    if (none)
        snprintf(sub, sizeof(sub), "no kernel with a launch call");
    else
        snprintf(sub, sizeof(sub), "%s%s; p90 %s, max %s",
                 cJSON_IsObject(q)
                     ? "dequeue thread's launch call end to task start"
                     : "CPU call end to kernel start",
                 before, us_text(pr_sget_num(d, PR_K_P90), a, sizeof(a)),
                 us_text(pr_sget_num(d, PR_K_MAX), b, sizeof(b)));
    pr_figs_kpi(f, "Median launch delay", pr_sget_num(d, PR_K_MEDIAN),
                PR_FMT_US, sub);
    pr_figs_kpi(f, "Device idle waiting for the host",
                pr_sget_num(l, PR_K_GPU_IDLE_HOST_WAIT_PCT), PR_FMT_PCT,
                "of the devices' windows above");
    pr_figs_kpi(f,
                npu ? "Tasks with a launch call" : "Kernels with a launch call",
                pr_sget_num(l, PR_K_KERNELS_WITH_LAUNCH), PR_FMT_COUNT,
                npu                      ? "graph-launched tasks apart"
                : units == PR_UNITS_AMD  ? "HIP-graph kernels apart"
                : units == PR_UNITS_MTIA ? "graph-launched kernels apart"
                                         : "CUDA-graph kernels apart");
}

/* torch_npu's task queue (TASK_QUEUE_ENABLE), a host-side queue apart
 * from the device's: its wait, enqueue to launch (review 25a #1). */
static void
task_queue(struct pr_figs *f, const cJSON *q)
{
    char a[48], b[48], c[48], text[700];

    if (!cJSON_IsObject(q))
        return;
    snprintf(
        text, sizeof(text),
        "torch_npu's task queue (TASK_QUEUE_ENABLE) stands between the "
        "operators and the device: the Python thread enqueues each operator "
        "and a dequeue thread makes its CANN launch call. Operators waited a "
        "median %s in it, from their enqueue to that launch (p90 %s, max "
        "%s); the launch delay and the queues above count from the launch. "
        "A long wait in the task queue with a short device queue means the "
        "dequeue thread is slow (its CANN calls: see the critical path), "
        "not the device.",
        pr_chart_format(pr_sget_num(q, PR_K_MEDIAN), PR_UNIT_US, a, sizeof(a)),
        pr_chart_format(pr_sget_num(q, PR_K_P90), PR_UNIT_US, b, sizeof(b)),
        pr_chart_format(pr_sget_num(q, PR_K_MAX), PR_UNIT_US, c, sizeof(c)));
    pr_figs_text(f, text);
}

/* What the graph launches ran: graph_kernels counts every device
 * operation, the fills and copies among them (issue #29 #3: "12 graph
 * launches ran 5046 kernels" beside a stream whose kernels rose by 4,464:
 * 576 of them were memsets, 6 copies). */
static void
graph_words(struct pr_figs *f, const cJSON *run, const cJSON *l)
{
    double ops = pr_sget_num(l, PR_K_GRAPH_KERNELS),
           fills = pr_sget_num(l, PR_K_GRAPH_FILLS),
           copies = pr_sget_num(l, PR_K_GRAPH_COPIES);
    char text[300], a[32], b[32], c[32], n[32], o[32];
    double nl = pr_sget_num(l, PR_K_GRAPH_LAUNCHES);
    size_t len;

    fills = fills > 0 ? fills : 0;
    copies = copies > 0 ? copies : 0;
    /* every count with the same separators (issue #30 #5: "5046
       operations (4,464 kernels, ...)") */
    len = (size_t)snprintf(
        text, sizeof(text), "%s: %s graph launch%s ran ",
        pr_fig_run_units(run) == PR_UNITS_AMD    ? "HIP graphs"
        : pr_fig_run_units(run) == PR_UNITS_MTIA ? "Graphs"
                                                 : "CUDA graphs",
        pr_chart_format(nl, PR_UNIT_COUNT, n, sizeof(n)), nl == 1 ? "" : "es");
    pr_chart_format(ops, PR_UNIT_COUNT, o, sizeof(o));
    if (!(fills + copies > 0) || !(ops >= fills + copies))
        snprintf(text + len, sizeof(text) - len, "%s kernel%s.", o,
                 ops == 1 ? "" : "s");
    else
        snprintf(
            text + len, sizeof(text) - len,
            "%s operations (%s kernel%s, %s fill%s, %s cop%s).", o,
            pr_chart_format(ops - fills - copies, PR_UNIT_COUNT, a, sizeof(a)),
            ops - fills - copies == 1 ? "" : "s",
            pr_chart_format(fills, PR_UNIT_COUNT, b, sizeof(b)),
            fills == 1 ? "" : "s",
            pr_chart_format(copies, PR_UNIT_COUNT, c, sizeof(c)),
            copies == 1 ? "y" : "ies");
    pr_figs_text(f, text);
}

static void
launches(struct pr_figs *f, const cJSON *run)
{
    const cJSON *l = pr_sget(run, PR_K_LAUNCHES);
    struct pr_fig_table t = {.cols = queue_cols,
                             .rows = pr_sget(l, PR_K_QUEUE_LENGTH),
                             .what = "streams"};

    /* an NPU's operators launch tasks (issue #30's words) */
    pr_figs_heading(f, pr_fig_run_is_npu(run) ? "Task launches"
                                              : "Kernel launches");
    if (!cJSON_IsObject(l)) {
        pr_figs_note(f, "This summary has no launch data.");
        return;
    }
    if (pr_sget_str(l, PR_K_NOTE) != NULL) {
        pr_figs_note(f, pr_sget_str(l, PR_K_NOTE));
        return;
    }
    launch_kpis(f, l, pr_fig_run_is_npu(run), pr_fig_run_units(run));
    if (pr_sget_true(l, PR_K_CUDA_GRAPHS))
        graph_words(f, run, l);
    pr_figs_table(f, NULL, &t, "No kernels on any stream.");
    pr_figs_text(f, "A mean queue near 0 while the device waits for the host "
                    "means the run is launch-bound: the CPU is the "
                    "bottleneck. A long queue means the CPU runs ahead and "
                    "the device is the bottleneck while the queue holds "
                    "work; its idle then comes in a few long gaps (a data "
                    "loader, a sync), not between launches.");
    task_queue(f, pr_sget(l, PR_K_TASK_QUEUE_WAIT_US));
}

/* ---- host CPU (MindSpore's data-pipeline sampler) ---------------------- */

static const struct pr_col cpu_op_cols[] = {
    {"op", PR_K_OP_TYPE, "Operator", PR_FMT_TEXT, 1.4, NULL, PR_COL_BOTH},
    {"op_id", PR_K_OP_ID, "Id", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"workers", PR_K_WORKERS, "Workers", PR_FMT_COUNT, 0.7, NULL, PR_COL_BOTH},
    {"user", PR_K_USER_PCT, "User", PR_FMT_PCT, 0.7, "% of one core",
     PR_COL_BOTH},
    {"sys", PR_K_SYS_PCT, "Sys", PR_FMT_PCT, 0.7, "% of one core", PR_COL_BOTH},
    {"busy", PR_K_BUSY_PCT, "Busy", PR_FMT_PCT, 0.7,
     "User + sys, % of one core (200% = two cores)", PR_COL_BOTH},
    {"per_worker", PR_K_PER_WORKER_PCT, "Per worker", PR_FMT_PCT, 0.9,
     "Busy / workers: over 80% with CPUs to spare wants more workers",
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* What the card's numbers rest on, in the sampler's own terms
 * (MindSpore's minddata cpu_sampler.cc): /proc/stat for the machine,
 * /proc/<pid>/stat for the process (all its threads, not its child
 * processes), /proc/<pid>/task/<tid>/stat summed per data-pipeline
 * operator (and its Python worker processes), read every interval: a
 * sampled view, nothing between samples. */
static void
cpu_basis(struct pr_figs *f, const cJSON *h)
{
    double iv = pr_sget_num(h, PR_K_SAMPLING_INTERVAL_MS);
    double n = pr_sget_num(h, PR_K_SAMPLES);
    double w = pr_sget_num(h, PR_K_WINDOW_SAMPLES);
    char every[64], over[160], note[1000];

    if (iv > 0)
        snprintf(every, sizeof(every), "every %.0f ms", iv);
    else
        snprintf(every, sizeof(every), "at an interval the file does not give");
    if (w < n)
        snprintf(over, sizeof(over),
                 "the means are over the middle %.0f, as MindSpore's own "
                 "analysis takes them, start-up and shutdown left out",
                 w);
    else
        snprintf(over, sizeof(over),
                 "the means are over all of them: too few to leave start-up "
                 "and shutdown out");
    snprintf(note, sizeof(note),
             "What these numbers rest on: MindSpore's data-pipeline CPU "
             "sampler read /proc %s (%.0f samples; %s), so they are a "
             "sampled view with nothing between samples. Host CPUs busy and "
             "I/O wait are the "
             "whole machine's (/proc/stat: every process on it, not only "
             "this run). Training process is the process's own line "
             "(/proc/<pid>/stat): all of its threads (the pipeline's, the "
             "framework's, Python's), not its child processes. An operator "
             "row sums that data-pipeline operator's threads (and a Python "
             "operator's worker processes); the network's operators are not "
             "in it.",
             every, n, over);
    pr_figs_note(f, note);
}

static void
host_cpu(struct pr_figs *f, const cJSON *run)
{
    const cJSON *h = pr_sget(run, PR_K_HOST_CPU);
    const cJSON *m = pr_sget(h, PR_K_MACHINE);
    struct pr_fig_table t = {.cols = cpu_op_cols,
                             .rows = pr_sget(h, PR_K_OPS),
                             .what = "data-pipeline operators",
                             .order = "busy share"};
    double cpus = pr_sget_num(h, PR_K_CPUS);
    char sub[80];

    if (!cJSON_IsObject(h))
        return;
    pr_figs_heading(f, "Host CPU (data pipeline)");
    if (isnan(cpus))
        snprintf(sub, sizeof(sub), "user + sys of all CPUs");
    else
        snprintf(sub, sizeof(sub), "user + sys of all %.0f CPUs", cpus);
    pr_figs_kpi(f, "Host CPUs busy", pr_sget_num(m, PR_K_BUSY_PCT), PR_FMT_PCT,
                sub);
    pr_figs_kpi(f, "I/O wait", pr_sget_num(m, PR_K_IO_PCT), PR_FMT_PCT,
                "of all CPUs' time");
    pr_figs_kpi(f, "Training process",
                pr_sget_num(pr_sget(h, PR_K_PROCESS), PR_K_BUSY_PCT),
                PR_FMT_PCT, "user + sys, % of one core");
    if (pr_sget_str(h, PR_K_READING) != NULL)
        pr_figs_text(f, pr_sget_str(h, PR_K_READING));
    pr_figs_table(f, NULL, &t, "The sampler recorded no operator.");
    cpu_basis(f, h);
}

/* ---- the data pipeline's queues (MindSpore, review 15 #8) ------------- */

/* What MindSpore's data-pipeline files say of the wait for data
 * (run.data_pipeline): the nearest sampled queue to the device, the
 * device's GetNext where the run has it, the reading, or the two pipeline
 * files' disagreement, and MinddataProfilingAnalyzer's bottleneck. */
static void
data_pipeline(struct pr_figs *f, const cJSON *run)
{
    /* the typed row (rows.h); none where the run has no such files */
    struct pr_row_data_pipeline d;
    struct pr_error err = {PR_OK, ""};
    const char *rd, *cf, *bn, *op;
    double gn, ge;
    char sub[96], text[2400];

    if (pr_rows_read_one(pr_sget(run, PR_K_DATA_PIPELINE), PR_K_DATA_PIPELINE,
                         PR_RO_RUNS_DATA_PIPELINE, &d, &err) != PR_OK)
        return;
    rd = d.reading;
    cf = d.conflict;
    bn = d.bottleneck_note;
    op = d.feeding_op;
    gn = d.get_next_batches;
    ge = d.get_next_empty;
    if (rd == NULL && cf == NULL)
        return;
    pr_figs_heading(f, "Data pipeline queues");
    if (cf == NULL && op != NULL) {
        snprintf(sub, sizeof(sub), "%s's output queue, mean fill", op);
        pr_figs_kpi(f, "Nearest sampled queue", d.feeding_queue_usage_pct,
                    PR_FMT_PCT, sub);
        snprintf(sub, sizeof(sub), "of its %.0f samples",
                 d.feeding_queue_samples);
        pr_figs_kpi(f, "Found empty", d.feeding_queue_empty_pct, PR_FMT_PCT,
                    sub);
    }
    if (gn > 0 && !isnan(ge)) {
        snprintf(sub, sizeof(sub), "of its %.0f dequeues, no batch waiting",
                 gn);
        pr_figs_kpi(f, "Device's GetNext empty", ge, PR_FMT_COUNT, sub);
    }
    snprintf(text, sizeof(text), "%s.", cf != NULL ? cf : rd);
    pr_figs_text(f, text);
    if (cf == NULL && bn != NULL) {
        snprintf(text, sizeof(text), "%s.", bn);
        pr_figs_text(f, text);
    }
    pr_figs_note(f, "What this rests on: MindSpore's data-pipeline profiler "
                    "samples each operator's output queue (its size of its "
                    "capacity) and the device queue's depth when a batch is "
                    "sent; in dataset sink mode the device's GetNext records "
                    "the batches it found waiting (minddata_aicpu), which "
                    "decides whether the device waited: the host queues "
                    "drain into the device's channel, so a near-empty host "
                    "queue alone does not mean the device starves. A host "
                    "queue is read as empty (the device waits) only by "
                    "MindSpore's rule, empty in over 60% of its samples, "
                    "and not at all from fewer than 3 samples; the files "
                    "give no time per batch.");
}

/* ---- the section ------------------------------------------------------ */

static void
build(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    (void)summary;
    temporal(f, run);
    synchronization(f, run);
    copies(f, run);
    launches(f, run);
    host_cpu(f, run);
    data_pipeline(f, run);
}

static int
present(const cJSON *summary)
{
    const cJSON *run;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (pr_sget_len(pr_sget(run, PR_K_TEMPORAL_BREAKDOWN)) > 0 ||
            pr_sget_num(pr_sget(run, PR_K_COPIES), PR_K_COUNT) > 0 ||
            cJSON_IsObject(pr_sget(run, PR_K_HOST_CPU)) ||
            cJSON_IsObject(pr_sget(run, PR_K_DATA_PIPELINE)))
            return 1;
    }
    return 0;
}

/* The section: read by the table in sections.c. */
const struct pr_section pr_section_hostdev = {
    .id = "host-device",
    .title = "Host and device",
    .lede = "How each device spent the steps (without steps: its span from "
            "first to last work) in compute, communication, copies and idle, "
            "and why it was idle, where the host "
            "blocked on the device, how data moved between them, and how long "
            "kernels waited after their launch.",
    .per_run = 1,
    .build = build,
    .present = present};
