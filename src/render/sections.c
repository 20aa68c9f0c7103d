/* sections.c - what the main report shows, section by section, for both
 * the HTML and the PDF layout (figures.h).
 *
 * To add a section to the reports (issue #10: one file and one row):
 *
 *  1. Write src/render/sec_<name>.c defining
 *         const struct pr_section pr_section_<name> = {
 *             .id = "<anchor>", .title = "<Title>", .lede = "<or NULL>",
 *             .per_run = 1, .build = build, .present = present};
 *     build() reads the summary (sget.h, keys.h) and appends figures
 *     (pr_figs_*): once per run when per_run, else once with run NULL;
 *     present() (or NULL) says whether the summary has anything for it,
 *     so a section that does not apply is left out, heading and all.
 *  2. Add &pr_section_<name> to pr_report_sections[] below where it should
 *     appear (and its extern line), and the file to Makefile.am.
 *
 * Nothing else changes: the HTML navigation, the PDF bookmarks, the
 * per-run parts and the layouts follow the table.  Small sections may
 * live here as a compound literal row instead.
 *
 * Builders never fail outright (out-of-memory is sticky in the figures)
 * and say so in a note when the summary has nothing for them. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/tlview.h"

#define MAX_STEP_BARS 64
#define KERNEL_BARS 15
#define MAX_MEMORY_CHARTS 4
#define MAX_STRAGGLERS 8 /* callouts; the rest in one line */

/* ---- chart helpers ---------------------------------------------------- */

/* Labels and colours of a category table as the arrays chart.h takes,
 * kept in a chart's own buffers. */
static int
category_arrays(struct pr_fig_chart *ch, const struct pr_category *cats,
                size_t n, const char *const **names, const uint32_t **colors)
{
    const char **nm = calloc(n, sizeof(*nm));
    uint32_t *co = calloc(n, sizeof(*co));
    size_t k;

    ch->own[2] = (void *)nm;
    ch->own[3] = co;
    if (nm == NULL || co == NULL)
        return 0;
    for (k = 0; k < n; k++) {
        nm[k] = cats[k].label;
        co[k] = cats[k].color;
    }
    *names = nm;
    *colors = co;
    return 1;
}

/* ---- overview --------------------------------------------------------- */

/* "ProfilerStep#12" -> "#12"; other names as they are. */
static const char *
step_label(const char *name)
{
    const char *hash = name ? strrchr(name, '#') : NULL;

    return hash ? hash : (name ? name : "");
}

struct pr_fig_chart *
pr_sec_stacked_rows(const cJSON *rows, const char *name_key, const char *group,
                    const struct pr_category *cats, size_t n_cats,
                    const char *title, int steps)
{
    size_t n = pr_sget_len(rows), i = 0, k;
    struct pr_fig_chart *ch;
    const char **names;
    double *vals;
    const cJSON *row;

    if (n > MAX_STEP_BARS)
        n = MAX_STEP_BARS;
    ch = pr_fig_chart_new(pr_fig_draw_stacked, title, steps ? 600 : 960, 300,
                          steps ? 190 : 210);
    if (ch == NULL)
        return NULL;
    names = calloc(n ? n : 1, sizeof(*names));
    vals = calloc(n ? n * n_cats : 1, sizeof(*vals));
    ch->own[0] = (void *)names;
    ch->own[1] = vals;
    if (names == NULL || vals == NULL ||
        !category_arrays(ch, cats, n_cats, &ch->u.stacked.series,
                         &ch->u.stacked.colors)) {
        pr_fig_chart_free(ch);
        return NULL;
    }
    cJSON_ArrayForEach(row, rows)
    {
        const cJSON *seg = group ? pr_sget(row, group) : row;
        const char *name = pr_sget_str_or(row, name_key, "?");
        if (i == n)
            break;
        names[i] = steps ? step_label(name) : name;
        for (k = 0; k < n_cats; k++) {
            double v = pr_sget_num(seg, cats[k].key);
            vals[i * n_cats + k] = isnan(v) ? 0 : v;
        }
        i++;
    }
    ch->u.stacked.title = title;
    ch->u.stacked.categories = names;
    ch->u.stacked.n_categories = i;
    ch->u.stacked.n_series = n_cats;
    ch->u.stacked.values = vals;
    ch->u.stacked.unit = PR_UNIT_US;
    return ch;
}

/* A run without steps: its one window is the capture (steps.h). */
static int
no_steps(const cJSON *ss)
{
    return pr_sget_is(pr_sget_str(ss, PR_K_BASIS), "capture");
}

static struct pr_fig_chart *
donut(const cJSON *ss, const struct pr_category *cats, size_t n_cats)
{
    const cJSON *bd = pr_sget(ss, PR_K_BREAKDOWN_US);
    struct pr_fig_chart *ch = pr_fig_chart_new(
        pr_fig_draw_donut,
        no_steps(ss) ? "Capture breakdown" : "Mean step breakdown", 400, 300,
        170);
    double *vals = calloc(PR_N_BREAKDOWN, sizeof(*vals));
    size_t k;

    if (ch == NULL || vals == NULL) {
        free(vals);
        pr_fig_chart_free(ch);
        return NULL;
    }
    ch->own[0] = vals;
    if (!category_arrays(ch, cats, n_cats, &ch->u.donut.labels,
                         &ch->u.donut.colors)) {
        pr_fig_chart_free(ch);
        return NULL;
    }
    for (k = 0; k < n_cats; k++) {
        double v = pr_sget_num(bd, cats[k].key);
        vals[k] = isnan(v) ? 0 : v;
    }
    ch->u.donut.title = no_steps(ss) ? "The capture: where the time goes"
                                     : "Mean step: where the time goes";
    ch->u.donut.values = vals;
    ch->u.donut.n = n_cats;
    ch->u.donut.unit = PR_UNIT_US;
    pr_chart_format(pr_sget_num(ss, PR_K_MEAN_US), PR_UNIT_US, ch->title,
                    sizeof(ch->title));
    ch->u.donut.center_value = ch->title;
    ch->u.donut.center_label = no_steps(ss) ? "capture" : "mean step";
    return ch;
}

/* The representative step's lanes, or the line saying there are none. */
static void
timeline(struct pr_figs *f, const cJSON *tl, int capture)
{
    const char *title =
        capture ? "Timeline of the capture" : "Timeline of one step";
    struct pr_fig_chart *ch;
    struct pr_tlview *v = calloc(1, sizeof(*v));

    pr_figs_heading(f, title);
    if (v == NULL || pr_tlview_build(tl, v, NULL) != PR_OK) {
        free(v);
        pr_figs_nomem(f);
        return;
    }
    if (f->mindspore) { /* its step interval, not a DataLoader */
        const char *dl = pr_keys_category(PR_K_DATALOADER)->label;
        size_t k;

        for (k = 0; k < sizeof(v->legend) / sizeof(v->legend[0]); k++) {
            if (v->legend[k] != NULL && strcmp(v->legend[k], dl) == 0)
                v->legend[k] = pr_fig_label_mindspore(PR_K_DATALOADER, dl);
        }
    }
    if (v->chart.n_lanes == 0) {
        pr_tlview_free(v);
        free(v);
        pr_figs_note(f, f->npu ? "No NPU activity to show on a timeline."
                               : PR_TLVIEW_EMPTY);
        return;
    }
    ch = pr_fig_chart_new(pr_fig_draw_timeline, title, 1000,
                          pr_tlview_height(v), pr_tlview_height(v));
    if (ch != NULL) {
        ch->own[0] = v->lanes; /* the view's buffers move to the chart */
        ch->own[1] = v->spans;
        ch->own[2] = v;
        ch->u.timeline = v->chart;
    } else {
        pr_tlview_free(v);
        free(v);
    }
    pr_figs_chart(f, ch, 0);
}

static const struct pr_col step_summary_cols[] = {
    {"count", PR_K_COUNT, "Steps", PR_FMT_COUNT, 1, NULL, PR_COL_BOTH},
    {"mean", PR_K_MEAN_US, "Mean", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"median", PR_K_MEDIAN_US, "Median", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"p90", PR_K_P90_US, "p90", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"min", PR_K_MIN_US, "Min", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"max", PR_K_MAX_US, "Max", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"basis", PR_K_BASIS, "Basis", PR_FMT_TEXT, 1,
     "device: from the end of the previous step's device work to the end of "
     "its own; host: the ProfilerStep intervals; producer: the producer's "
     "own steps; capture: no steps, the whole capture",
     PR_COL_BOTH},
    {"host_mean", PR_K_HOST_MEAN_US, "Host mean", PR_FMT_US, 1,
     "Mean of the ProfilerStep intervals themselves", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* A run without steps: its one window, never "Steps 1 ... p90" of one
 * value (review 25u #13, nsys_mock and kd_910B_v1). */
static const struct pr_col capture_summary_cols[] = {
    {"capture", PR_K_MEAN_US, "Capture", PR_FMT_US, 1,
     "No steps: the whole capture, one window", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static const struct pr_col gpu_cols[] = {
    {"device", PR_K_DEVICE, "Device", PR_FMT_TEXT, 0.8, NULL, PR_COL_BOTH},
    {"util", PR_K_UTILIZATION_PCT, "GPU utilization", PR_FMT_PCT, 1.2,
     "Time with any kernel running", PR_COL_BOTH},
    {"sm", PR_K_EST_SM_EFFICIENCY_PCT, "Est. SM efficiency", PR_FMT_PCT, 1.2,
     "SMs busy over the steps, the device's idle time counted as none busy "
     "(TensorBoard's Est. SM Efficiency: kernels' blocks per SM, capped at "
     "1, weighted by their time, over the steps' time)",
     PR_COL_BOTH},
    {"occ", PR_K_EST_ACHIEVED_OCCUPANCY_PCT, "Est. achieved occupancy",
     PR_FMT_PCT, 1.5, "Warps resident / maximum", PR_COL_BOTH},
    {"kernel", PR_K_KERNEL_TIME_US, "Kernel time", PR_FMT_US, 1.1, NULL,
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* The same for an NPU: no SM or warp estimates. */
static const struct pr_col npu_cols[] = {
    {"device", PR_K_DEVICE, "Device", PR_FMT_TEXT, 0.8, NULL, PR_COL_BOTH},
    {"util", PR_K_UTILIZATION_PCT, "NPU utilization", PR_FMT_PCT, 1.2,
     "Time with any task running, HCCL tasks (Notify Wait too) included",
     PR_COL_BOTH},
    {"compute", PR_K_COMPUTE_UTILIZATION_PCT, "Computing", PR_FMT_PCT, 1,
     "Time with compute tasks running (MindStudio's Computing)", PR_COL_BOTH},
    {"kernel", PR_K_KERNEL_TIME_US, "Task time", PR_FMT_US, 1.1, NULL,
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

#define PEAK(k) PR_K_PEAK_TFLOPS "." k

static const struct pr_col device_cols[] = {
    {"id", PR_K_ID, "Id", PR_FMT_TEXT, 0.4, NULL, PR_COL_BOTH},
    /* the label: the trace's name, or what is known without one */
    {"name", PR_K_LABEL, "Name", PR_FMT_NAME, 2.4, NULL, PR_COL_BOTH},
    {"sms", PR_K_NUM_SMS, "SMs", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"arch", PR_K_ARCHITECTURE, "Arch", PR_FMT_TEXT, 0.6,
     "Architecture (sm_80, gfx90a)", PR_COL_BOTH},
    {"memory", PR_K_MEMORY_BYTES, "Memory", PR_FMT_BYTES, 0.9, NULL,
     PR_COL_BOTH},
    {"fp32", PEAK(PR_K_FP32), "FP32 peak", PR_FMT_TFLOPS, 1.1, NULL,
     PR_COL_BOTH},
    {"fp16", PEAK(PR_K_FP16_TENSOR), "FP16 TC peak", PR_FMT_TFLOPS, 1.1, NULL,
     PR_COL_BOTH},
    {"gbps", PR_K_PEAK_GBPS, "Bandwidth", PR_FMT_GBPS, 1, NULL, PR_COL_BOTH},
    {"source", PR_K_PEAK_SOURCE, "Peaks from", PR_FMT_TEXT, 0.8, NULL,
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* A guessed device fitted to what its export states (peaks.c's
 * fit_guess): how, so that "guess" in the table is not read as another
 * part's figures. */
static void
fit_notes(struct pr_figs *f, const cJSON *devices)
{
    const cJSON *d;
    char note[512];

    cJSON_ArrayForEach(d, devices)
    {
        double scale = pr_sget_num(d, PR_K_PEAK_SCALE);
        double sms = pr_sget_num(d, PR_K_NUM_SMS);
        double mhz = pr_sget_num(d, PR_K_CLOCK_MHZ);
        double gbps = pr_sget_num(d, PR_K_PEAK_GBPS);
        int half = pr_sget_true(d, PR_K_PEAK_HALF_RATE);
        int stated =
            pr_sget_is(pr_sget_str(d, PR_K_PEAK_GBPS_SOURCE), "export");
        const char *entry = pr_sget_str_or(d, PR_K_PEAK_DEVICE, "?");
        size_t at;

        if (isnan(scale) && !half && !stated)
            continue;
        at = (size_t)snprintf(note, sizeof(note),
                              "%.80s: ", pr_sget_str_or(d, PR_K_LABEL, "?"));
        if (!isnan(scale) && !isnan(sms) && !isnan(mhz))
            at += (size_t)snprintf(
                note + at, sizeof(note) - at,
                "compute peaks are a guess, %s's rate per SM and clock "
                "times the export's %.0f SMs at %.2f GHz (x%.2f)%s",
                entry, sms, mhz / 1000, scale,
                half ? ", tensor rates with FP32 accumulate halved as on "
                       "every GeForce part"
                     : "");
        else if (half)
            at += (size_t)snprintf(note + at, sizeof(note) - at,
                                   "compute peaks are a guess from %s, "
                                   "tensor rates with FP32 accumulate "
                                   "halved as on every GeForce part",
                                   entry);
        else
            at += (size_t)snprintf(note + at, sizeof(note) - at,
                                   "compute peaks are a guess from %s", entry);
        if (stated && at < sizeof(note))
            snprintf(note + at, sizeof(note) - at,
                     "; bandwidth %.0f GB/s from the export.", gbps);
        else if (at < sizeof(note))
            snprintf(note + at, sizeof(note) - at, ".");
        pr_figs_note(f, note);
    }
}

/* An Ascend run: its devices say kind "npu", and the report names them
 * NPUs and leaves out what only a CUDA GPU has (SMs, warps). */

/* Kernels whose occupancy the trace does not give (Kineto's 0 for
 * kernels over 48 KiB of shared memory, review25g #1): the card's short
 * words or the table's sentence; "" where there are none. */
static void
occ_unknown_note(const cJSON *gm, int card, char *buf, size_t cap)
{
    double n = pr_sget_num(gm, PR_K_OCCUPANCY_UNKNOWN_LAUNCHES);
    double pct = pr_sget_num(gm, PR_K_OCCUPANCY_UNKNOWN_KERNEL_PCT);
    int none = isnan(pr_sget_num(gm, PR_K_EST_ACHIEVED_OCCUPANCY_PCT));
    const char *s = n == 1 ? "" : "es";

    buf[0] = '\0';
    /* a sliver of kernel time moves the figure by less than its last
       digit: no words for it (the bundled example's 3 launches, 0.0%) */
    if (!(n > 0) || !(pct >= 0) || (!none && pct < 0.5))
        return;
    if (card && none)
        snprintf(buf, cap,
                 "not known: the trace gives no occupancy for its %.0f "
                 "kernel launch%s (over 48 KiB of shared memory)",
                 n, s);
    else if (none) /* no figure, so no lower bound (review 28g #5) */
        snprintf(buf, cap,
                 "Est. achieved occupancy is not known: the trace gives no "
                 "occupancy for its %.0f kernel launch%s (%.1f%% of kernel "
                 "time), each with more than 48 KiB of shared memory, for "
                 "which the profiler does not compute it; the Kernels table "
                 "shows %s as not known.",
                 n, s, pct, n == 1 ? "it" : "them");
    else if (card)
        snprintf(buf, cap,
                 "at least: %.0f launch%s (%.1f%% of kernel time) count as "
                 "the trace's 0 (not computed)",
                 n, s, pct);
    else
        snprintf(buf, cap,
                 "Est. achieved occupancy counts %.0f kernel launch%s (%.1f%% "
                 "of kernel time) at the 0 the trace writes for %s: the "
                 "profiler does not compute occupancy for kernels with more "
                 "than 48 KiB of shared memory, which run few blocks a SM, "
                 "so the figure is a lower bound (the PyTorch plugin's "
                 "figure counts them the same way); the Kernels table shows "
                 "them as not known.",
                 n, s, pct, n == 1 ? "it" : "them");
}

/* "GPU utilization", an NPU's or an MTIA's. */
static const char *
util_title(const cJSON *run)
{
    return pr_fig_run_is_npu(run)                   ? "NPU utilization"
           : pr_fig_run_units(run) == PR_UNITS_MTIA ? "MTIA utilization"
                                                    : "GPU utilization";
}

/* SM and warp figures: CUDA's, an AMD GPU's per CU; an NPU or an MTIA
 * has no such counters. */
static void
gpu_only_kpis(struct pr_figs *f, const cJSON *gm, int no_steps,
              enum pr_fig_units units)
{
    const char *sm = pr_fig_words(units)->sm;
    char title[64], busy[96];

    snprintf(title, sizeof(title), "Est. %s efficiency", sm);
    snprintf(busy, sizeof(busy), "%ss busy over the %s, idle time included", sm,
             no_steps ? "capture" : "steps");
    pr_figs_kpi(f, title, pr_sget_num(gm, PR_K_EST_SM_EFFICIENCY_PCT),
                PR_FMT_PCT, busy);
    char sub[160], resident[96];

    occ_unknown_note(gm, 1, sub, sizeof(sub));
    snprintf(resident, sizeof(resident),
             "%s resident / maximum, while kernels run",
             pr_fig_words(units)->warps);
    pr_figs_kpi(f, "Est. achieved occupancy",
                pr_sget_num(gm, PR_K_EST_ACHIEVED_OCCUPANCY_PCT), PR_FMT_PCT,
                sub[0] ? sub : resident);
}

/* A run on the host only: how much of the mean step its operators and
 * its DataLoader took, the shares a CPU run is judged by.  In operators
 * is the step's host time inside a recorded call (host_coverage: an
 * operator or a collective on any thread), not the breakdown's CPU exec,
 * which is the step less its other categories (review24 #7: hta_cpu_only
 * read "In operators 0.0%" with 85% of its step in gloo:all_reduce,
 * rank_non_gpu 98.7% with 63% of its step in no recorded call; now 85.1%
 * and 37.0%).  Without host coverage (a summary older than it) the card
 * is the breakdown's share, titled by what it is. */
static void
host_kpis(struct pr_figs *f, const cJSON *run, const cJSON *ss)
{
    const cJSON *bd = pr_sget(ss, PR_K_BREAKDOWN_US);
    double mean = pr_sget_num(ss, PR_K_MEAN_US);
    double unrec =
        pr_sget_num(pr_sget(run, PR_K_HOST_COVERAGE), PR_K_UNRECORDED_PCT);
    char sub[120];

    snprintf(sub, sizeof(sub),
             "of the %s host time inside a recorded operator or collective",
             pr_sget_run_is_capture(run)          ? "capture's"
             : pr_sget_num(ss, PR_K_COUNT) == 1.0 ? "step's"
                                                  : "steps'");
    if (!isnan(unrec))
        pr_figs_kpi(f, "In operators", 100.0 - unrec, PR_FMT_PCT, sub);
    else
        pr_figs_kpi(f, "CPU exec",
                    mean > 0 ? 100.0 * pr_sget_num(bd, PR_K_CPU_EXEC) / mean
                             : NAN,
                    PR_FMT_PCT,
                    "of the mean step: host time outside the data loader, "
                    "communication and Other");
    pr_figs_kpi(f, "In the DataLoader",
                mean > 0 ? 100.0 * pr_sget_num(bd, PR_K_DATALOADER) / mean
                         : NAN,
                PR_FMT_PCT, "of the mean step");
}

/* The utilization card: the plugin's figure, which counts communication
 * kernels (NCCL, HCCL) as busy, with what compute alone keeps busy beside
 * it when communication is a point or more of it. */
/* Where the verdict rests on the producer's step table (the export's
 * task list is incomplete: producer.c), the card is the table's busy
 * share, Computing + Communication(Not Overlapped) of the step, with the
 * tasks' figure beside it (issue #30 finding 1: torch_npu old2023's 21
 * tasks gave 12.8% of a step its table finds 76% busy).  1 when it drew
 * the card. */
/* The step table's busy share (Computing + Communication(Not
 * Overlapped) of the step) where the verdict rests on it, with the
 * table's name in *basis; NAN when it does not. */
static double
table_busy(const cJSON *run, const char **basis, double *comp, double *alone)
{
    const cJSON *m = pr_sget(pr_sget(run, PR_K_STEP_PHASES), PR_K_MEAN);
    double free_us = pr_sget_num(m, PR_K_FREE_US);
    double step = pr_sget_num(m, PR_K_STAGE_US);

    *basis = pr_sget_str(pr_sget(run, PR_K_VERDICT), PR_K_BASIS);
    *comp = pr_sget_num(m, PR_K_COMPUTING_US);
    *alone = pr_sget_num(m, PR_K_COMMUNICATION_NOT_OVERLAPPED_US);
    if (*basis == NULL || isnan(*comp) || isnan(*alone))
        return NAN;
    if (!(step > 0))
        step = *comp + *alone + (isnan(free_us) ? 0 : free_us);
    if (!(step > 0))
        return NAN;
    *comp = 100.0 * *comp / step;
    *alone = 100.0 * *alone / step;
    return *comp + *alone;
}

/* "NPU busy B% = Computing C% + Communication(Not Overlapped) A%" into
 * buf, each term with its own figure (review 16 #9: "NPU busy 77.7% =
 * Computing + Communication(Not Overlapped) 70.1%" read as if the sum
 * were 70.1%).  Each is rounded on its own, as the Distributed section
 * and the NPU metrics note print them, so the printed sum may be 0.1
 * off (old2023: 76.0 = 25.8 + 50.3). */
static const char *
busy_sum(char *buf, size_t cap, double busy, double comp)
{
    snprintf(buf, cap,
             "NPU busy %.1f%% = Computing %.1f%% + Communication(Not "
             "Overlapped) %.1f%%",
             busy, comp, busy - comp);
    return buf;
}

static int
table_util_kpi(struct pr_figs *f, const cJSON *run, double tasks_pct)
{
    const char *basis;
    double comp, alone, busy = table_busy(run, &basis, &comp, &alone);
    char sub[300], t[48];
    /* a rank of the step table alone: no task list to weigh (review 20
       #4: "the incomplete task list: –") */
    int none = isnan(tasks_pct) && pr_sget_len(pr_sget(run, PR_K_KERNELS)) == 0;
    const char *list = none ? "device tasks" : "the incomplete task list";

    if (isnan(busy))
        return 0;
    if (none)
        snprintf(t, sizeof(t), "none in these files");
    else
        pr_fig_format(tasks_pct, PR_FMT_PCT, t, sizeof(t));
    if (alone >= 1.0) { /* HCCL in the busy time: Computing heads it */
        char sum[120];

        snprintf(sub, sizeof(sub), "%s (%s); %s: %s",
                 busy_sum(sum, sizeof(sum), busy, comp), basis, list, t);
    } else
        snprintf(sub, sizeof(sub),
                 "Computing %.1f%% + Communication(Not Overlapped) %.1f%% "
                 "(%s); %s: %s",
                 comp, alone, basis, list, t);
    pr_figs_kpi(f, alone >= 1.0 ? "Computing" : "NPU busy",
                alone >= 1.0 ? comp : busy, PR_FMT_PCT, sub);
    return 1;
}

/* MindSpore's cluster table (ascend_cluster_analyse_*.csv) gives each
 * step's computation_time where the export holds HCCL tasks only: its
 * mean (the warm-up step left out) over the median step, the pairing
 * the verdict's "computes 123.2 ms of its 178.9 ms median step" uses
 * (review 16 #2: ms_cluster4's rank 2, 68.9%).  NAN without such a
 * table, or where its rows are not this run's steps (computation and
 * communication alone over twice the step: producer.c's
 * table_too_long, MindSpore's run_3 fixture). */
static double
cluster_computing(const cJSON *run, double *comp, double *step)
{
    const cJSON *ph = pr_sget(run, PR_K_STEP_PHASES);
    const cJSON *m = pr_sget(ph, PR_K_MEAN);
    double alone = pr_sget_num(m, PR_K_COMMUNICATION_NOT_OVERLAPPED_US);

    *comp = pr_sget_num(m, PR_K_COMPUTING_US);
    *step = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEDIAN_US);
    if (!pr_sget_is(pr_sget_str(ph, PR_K_SOURCE), "ascend_cluster_analyse") ||
        isnan(*comp) || !(*step > 0) || *comp > *step ||
        *comp + (isnan(alone) ? 0 : alone) > 2.0 * *step)
        return NAN;
    return 100.0 * *comp / *step;
}

/* An Ascend run whose busy time holds HCCL tasks: the card is the share
 * its compute tasks keep the NPU busy, MindStudio Insight's Computing,
 * with the busy share and the HCCL tasks' alone (its Communication(Not
 * Overlapped)) under it.  HCCL's Notify Wait is a task, so the busy
 * share of a rank that waits for a late peer is its wait (review 15 #9:
 * text0's 77.7% busy beside 7.6% Computing).  Where the export holds
 * HCCL tasks only, the card is the cluster table's computation_time if
 * it has one (review 16 #2), else not known (job_review2 #8).  1 when
 * it drew the card. */
static int
npu_compute_kpi(struct pr_figs *f, const cJSON *run, const char *win,
                double util, double compute, int unmeasured)
{
    char sub[240], sum[120];
    double comp_us, step_us, table = cluster_computing(run, &comp_us, &step_us);

    if (unmeasured && !isnan(table)) {
        /* the table's compute alone: the table has no idle column (a
           step is its computation and communication alone), and the
           export's HCCL-task busy share is over another window (the
           whole capture, its warm-up step most of it on ms_cluster4's
           rank 2: 78.9% beside 68.9%; review 17 #2), so no busy share */
        snprintf(sub, sizeof(sub),
                 "mean computation_time %.1f ms of the %.1f ms median step "
                 "(MindSpore's cluster table; the export holds HCCL tasks "
                 "only)",
                 comp_us / 1000.0, step_us / 1000.0);
        (void)util;
        compute = table;
    } else if (unmeasured)
        snprintf(sub, sizeof(sub),
                 "compute alone is not known: the trace records no "
                 "compute task; NPU busy %.1f%% over the %s, all HCCL "
                 "tasks",
                 util, win);
    else if (!isnan(util) && !isnan(compute) && util - compute >= 1.0)
        snprintf(sub, sizeof(sub), "%s, over the %s",
                 busy_sum(sum, sizeof(sum), util, compute), win);
    else
        return 0;
    pr_figs_kpi(f, "Computing", unmeasured && isnan(table) ? NAN : compute,
                PR_FMT_PCT, sub);
    return 1;
}

/* 1 when the run's task list is an extract (critpath.c: no path, its
 * utilization and idle not known). */
static int
run_is_extract(const cJSON *run)
{
    return pr_sget_is(
        pr_sget_str(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_NO_PATH_REASON),
        "task_list_extract");
}

/* 1 when the run's task list is incomplete by the producer's own step
 * table (diagnostic tasks_incomplete; old2023's ranks list 17% and 5% of
 * the table's device time) or an extract: a share of its tasks is not
 * the run's (review 28a #8). */
static int
run_tasks_partial(const cJSON *run)
{
    const cJSON *d;

    if (run_is_extract(run) ||
        pr_sget_is(
            pr_sget_str(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_NO_PATH_REASON),
            "tasks_incomplete"))
        return 1;
    cJSON_ArrayForEach(d, pr_sget(run, PR_K_DIAGNOSTICS))
    {
        if (pr_sget_is(pr_sget_str(d, PR_K_KIND), "tasks_incomplete"))
            return 1;
    }
    return 0;
}

/* 1 when the run records HCCL (communication) tasks: a kernel family
 * "collective" (kernel_classes covers every task), a kernels[] row whose
 * math is communication, or collectives in the communication or HCCL
 * tables.  The Cube cards say HCCL is left out only then (issue #30 #3:
 * ms_run1, one device and no HCCL task, read "HCCL tasks left out"). */
static int
run_has_hccl(const cJSON *run)
{
    const cJSON *x;

    cJSON_ArrayForEach(
        x, pr_sget(pr_sget(run, PR_K_KERNEL_CLASSES), PR_K_BY_FAMILY))
    {
        if (pr_sget_is(pr_sget_str(x, PR_K_KFAMILY), PR_K_COLLECTIVE) &&
            pr_sget_num(x, PR_K_KERNELS) > 0)
            return 1;
    }
    cJSON_ArrayForEach(x, pr_sget(run, PR_K_KERNELS))
    {
        if (pr_sget_is(pr_sget_str(x, PR_K_KMATH), PR_K_COMMUNICATION))
            return 1;
    }
    return pr_sget_len(pr_sget(pr_sget(run, PR_K_COMMUNICATION), PR_K_OPS)) >
               0 ||
           pr_sget_len(pr_sget(pr_sget(run, PR_K_HCCL), PR_K_OPS)) > 0;
}

/* Under the breakdown of an incomplete task list: what it rests on and
 * the step table's split of the same step (issue #30 finding 1: the
 * charts' "Other 87%" of old2023's 21 tasks beside a table that finds
 * the step 76% busy). */
static void
table_split_note(struct pr_figs *f, const cJSON *run)
{
    const char *basis = pr_sget_str(pr_sget(run, PR_K_VERDICT), PR_K_BASIS);
    const cJSON *m = pr_sget(pr_sget(run, PR_K_STEP_PHASES), PR_K_MEAN);
    char text[500], a[32], b[32], c[32];

    if (basis == NULL || !cJSON_IsObject(m)) {
        if (run_is_extract(run))
            pr_figs_note(f, "The file is an extract of the task list (see "
                            "Data quality): the breakdown above holds only "
                            "the tasks it lists, and \"Not covered\" is "
                            "time they do not cover, not idle: its shares "
                            "are not the run's.");
        return;
    }
    if (pr_fig_run_no_tasks(run)) {
        /* its steps are the table's own (issue #30 review) */
        snprintf(text, sizeof(text),
                 "No task of this rank is in its files (" PR_FIG_NO_TASK_FILES
                 "): the breakdown "
                 "above is the producer's step table (%s), Kernel its "
                 "Computing, Communication its Communication(Not "
                 "Overlapped), Other its Free, the NPU's idle time.",
                 basis);
        pr_figs_note(f, text);
        return;
    }
    snprintf(
        text, sizeof(text),
        "The breakdown above holds only the export's recorded tasks, "
        "an incomplete list (see Data quality): its %s is time they "
        "do not cover, not idle. The producer's step table (%s) splits "
        "the mean step into Computing %s, Communication(Not "
        "Overlapped) %s and Free %s (see Distributed).",
        run_tasks_partial(run) ? "\"Not covered\"" : "Other", basis,
        pr_fig_format(pr_sget_num(m, PR_K_COMPUTING_US), PR_FMT_US, a,
                      sizeof(a)),
        pr_fig_format(pr_sget_num(m, PR_K_COMMUNICATION_NOT_OVERLAPPED_US),
                      PR_FMT_US, b, sizeof(b)),
        pr_fig_format(pr_sget_num(m, PR_K_FREE_US), PR_FMT_US, c, sizeof(c)));
    pr_figs_note(f, text);
}

static void
util_kpi(struct pr_figs *f, const cJSON *run, const cJSON *gm, int capture)
{
    double util = pr_sget_num(gm, PR_K_UTILIZATION_PCT);
    double compute = pr_sget_num(gm, PR_K_COMPUTE_UTILIZATION_PCT);
    char sub[260], win[80], len[48];

    /* the capture's window by its length: Host and device gives each
       device's own span, which can differ (review 13 #11: nsys_before's
       290 ms capture beside device 0's 300 ms span) */
    if (capture)
        snprintf(win, sizeof(win), "capture (%s)",
                 pr_chart_format(
                     pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US),
                     PR_UNIT_US, len, sizeof(len)));
    else
        snprintf(win, sizeof(win), "steps");

    if (table_util_kpi(f, run, util))
        return;
    if (isnan(util) && pr_sget_str(gm, PR_K_NOTE) != NULL) {
        /* not known, and why (an extract, a range profiler's kernels);
           an extract's counts are Data quality's, a card cuts them
           before the reason (review23a #6) */
        pr_figs_kpi(f, util_title(run), util, PR_FMT_PCT,
                    run_is_extract(run)
                        ? "not known: the task list is an extract "
                          "(see Data quality)"
                        : pr_sget_str(gm, PR_K_NOTE));
        return;
    }
    if (pr_fig_run_is_npu(run) &&
        npu_compute_kpi(f, run, win, util, compute,
                        !isnan(util) && isnan(compute) && util > 0 &&
                            pr_sget_str(gm, PR_K_NOTE) != NULL))
        return;
    if (!isnan(util) && isnan(compute) && util > 0 &&
        pr_sget_str(gm, PR_K_NOTE) != NULL)
        /* no compute task in the record, computation in the step table
           (gpu_util.c): not known, not 0 */
        snprintf(sub, sizeof(sub),
                 "time with any %s running, over the %s; all of it %s: the "
                 "trace records no compute tasks, so compute alone is not "
                 "known",
                 pr_fig_run_is_npu(run) ? "task" : "kernel", win,
                 pr_fig_run_is_npu(run) ? "HCCL tasks"
                                        : "communication kernels");
    else if (!isnan(util) && !isnan(compute) && util - compute >= 1.0)
        snprintf(sub, sizeof(sub),
                 "time with any kernel running, over the %s; %.1f points "
                 "of it %s, compute alone %.1f%%",
                 win, util - compute,
                 pr_fig_run_is_npu(run) ? "HCCL tasks"
                                        : "communication kernels",
                 compute);
    else
        snprintf(sub, sizeof(sub), "time with any %s running, over the %s",
                 pr_fig_run_is_npu(run) ? "task" : "kernel", win);
    pr_figs_kpi(f, util_title(run), util, PR_FMT_PCT, sub);
}

/* A run whose steps are not torch.profiler's ProfilerStep: an NPU's, a
 * MindSpore one (its step trace), an Nsight Systems export (NVTX
 * ranges): "no step marks", never "no ProfilerStep" (review 17 #7). */
static int
no_profiler_steps(const struct pr_figs *f, const cJSON *run)
{
    return f->npu || !pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "pytorch");
}

/* The caption of the tensor-core share (base: what it is a share of),
 * with the share of the non-collective kernels' time where the summary
 * gives it (collectives 10% or more of kernel time: ds_train's 39.0% of
 * all kernel time is 72.6% of the compute kernels', DeepEP's 113.0 of
 * 244.0 ms being communication). */
static const char *
tc_compute_sub(const cJSON *tc, const char *base, char *buf, size_t n)
{
    double c = pr_sget_num(tc, PR_K_TC_COMPUTE_KERNEL_TIME_PCT);
    char v[32];

    /* none on tensor cores: 0.0% of either, said once */
    if (!isfinite(c) || !(c > pr_sget_num(tc, PR_K_TC_KERNEL_TIME_PCT)))
        return base;
    pr_fig_format(c, PR_FMT_PCT, v, sizeof(v));
    snprintf(buf, n, "%s; %s of the kernel time outside collectives", base, v);
    return buf;
}

static void
overview_kpis(struct pr_figs *f, const cJSON *run)
{
    const cJSON *ss = pr_sget(run, PR_K_STEP_SUMMARY);
    const cJSON *gm = pr_sget_first(run, PR_K_GPU_METRICS);
    const cJSON *tc = pr_sget(run, PR_K_TENSOR_CORES);
    char a[48], b[48], sub[160], tcsub[200];

    if (no_steps(ss) && pr_fig_row_step_words(run, a, sizeof(a))) {
        snprintf(sub, sizeof(sub),
                 "%s, whose bounds the file does not give: the whole "
                 "capture is one window",
                 a);
        pr_figs_kpi(f, "No step bounds", pr_sget_num(ss, PR_K_MEAN_US),
                    PR_FMT_US, sub);
    } else if (no_steps(ss)) {
        pr_figs_kpi(f, "No steps", pr_sget_num(ss, PR_K_MEAN_US), PR_FMT_US,
                    no_profiler_steps(f, run)
                        ? "no step marks: the whole capture is one window"
                        : "no ProfilerStep: the whole capture is one "
                          "window");
    } else if (cJSON_IsObject(ss)) {
        snprintf(sub, sizeof(sub),
                 "%s%s median %s \xC2\xB7 p90 %s \xC2\xB7 %.0f step%s",
                 pr_sget_str_or(ss, PR_K_BASIS, ""),
                 pr_sget_str(ss, PR_K_BASIS) != NULL ? " basis \xC2\xB7" : "",
                 pr_chart_format(pr_sget_num(ss, PR_K_MEDIAN_US), PR_UNIT_US, a,
                                 sizeof(a)),
                 pr_chart_format(pr_sget_num(ss, PR_K_P90_US), PR_UNIT_US, b,
                                 sizeof(b)),
                 pr_sget_num(ss, PR_K_COUNT),
                 pr_sget_num(ss, PR_K_COUNT) == 1.0 ? "" : "s");
        pr_figs_kpi(f, "Mean step time", pr_sget_num(ss, PR_K_MEAN_US),
                    PR_FMT_US, sub);
    }
    if (pr_fig_run_host_only(run)) {
        host_kpis(f, run, ss);
        return;
    }
    util_kpi(f, run, gm, no_steps(ss));
    if (!pr_fig_run_is_npu(run) && pr_fig_run_units(run) != PR_UNITS_MTIA)
        gpu_only_kpis(f, gm, no_steps(ss), pr_fig_run_units(run));
    if (cJSON_IsObject(tc) && pr_fig_run_is_npu(run) && run_tasks_partial(run))
        /* a share of an incomplete list is not the rank's: old2023's
           rank1 read "Cube share 0.0%" from 2 ms of its 75 ms computing
           (review 28a #8) */
        pr_figs_kpi(f, "Cube share", NAN, PR_FMT_PCT,
                    run_is_extract(run) ? "not known: the task list is an "
                                          "extract (see Data quality)"
                                        : "not known: the task list is "
                                          "incomplete (see Data quality)");
    else if (cJSON_IsObject(tc) && pr_fig_run_is_npu(run))
        pr_figs_kpi(f, "Cube share", pr_sget_num(tc, PR_K_TC_KERNEL_TIME_PCT),
                    PR_FMT_PCT,
                    run_has_hccl(run) ? "of compute task time on the AI Core "
                                        "Cube (HCCL tasks left out)"
                                      : "of compute task time on the AI Core "
                                        "Cube");
    else if (cJSON_IsObject(tc) && pr_fig_run_units(run) == PR_UNITS_AMD)
        pr_figs_kpi(f, "Matrix-core share",
                    pr_sget_num(tc, PR_K_TC_KERNEL_TIME_PCT), PR_FMT_PCT,
                    tc_compute_sub(tc,
                                   "of kernel time on the matrix cores (MFMA)",
                                   tcsub, sizeof(tcsub)));
    else if (cJSON_IsObject(tc) && pr_fig_run_units(run) != PR_UNITS_MTIA)
        pr_figs_kpi(f, "Tensor-core share",
                    pr_sget_num(tc, PR_K_TC_KERNEL_TIME_PCT), PR_FMT_PCT,
                    tc_compute_sub(tc, "of kernel time", tcsub, sizeof(tcsub)));
}

/* A MindSpore run whose step trace times FP+BP while the export records
 * no compute task in it: the breakdown's Other is that FP+BP (and the
 * tail's time outside the collectives), as MindInsight's step trace and
 * the verdict call it, not unexplained time (review32a #6: ms_ut's "Other
 * 86.4%" beside Distributed's "Computing 28.1 ms"). */
static int
ms_untasked_fpbp(const cJSON *run)
{
    const cJSON *st = pr_sget(run, PR_K_STEP_TRACE);

    const cJSON *bd =
        pr_sget(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_BREAKDOWN_US);

    /* no kernel time at all: ms_cluster4's ranks, whose step trace also
       says no compute task, hold 14.6 ms of kernels and HCCL tasks over
       their FP+BP, and their Other is 0.5 ms of gaps, not FP+BP */
    return pr_fig_run_is_mindspore(run) && cJSON_IsObject(st) &&
           cJSON_IsFalse(pr_sget(st, PR_K_COMPUTE_TASKS)) &&
           pr_sget_num(pr_sget(st, PR_K_MEDIAN), PR_K_FP_AND_BP_US) > 0 &&
           pr_sget_num(bd, PR_K_KERNEL) == 0;
}

/* Under the charts of such a run: its step trace's own split. */
static void
ms_fpbp_note(struct pr_figs *f, const cJSON *run)
{
    const cJSON *m = pr_sget(pr_sget(run, PR_K_STEP_TRACE), PR_K_MEDIAN);
    char text[420], a[32], b[32];

    if (!ms_untasked_fpbp(run))
        return;
    snprintf(
        text, sizeof(text),
        "The export records no compute task in its steps, so the "
        "breakdown's \"FP+BP and tail\" is the time MindSpore's step "
        "trace (step_trace_raw) puts in the forward and backward pass "
        "and in the tail outside the collectives; its median step: "
        "FP+BP %s, tail %s (see MindSpore's step split).",
        pr_fig_format(pr_sget_num(m, PR_K_FP_AND_BP_US), PR_FMT_US, a,
                      sizeof(a)),
        pr_fig_format(pr_sget_num(m, PR_K_TAIL_US), PR_FMT_US, b, sizeof(b)));
    pr_figs_note(f, text);
}

/* The breakdown categories a run's charts show: all of them, or on the
 * host only those a CPU run can have (communication when it has some:
 * Gloo), never kernels, copies, fills or device runtime.  Returns how
 * many are in cats. */
static size_t
breakdown_cats(const cJSON *run, struct pr_category *cats)
{
    const cJSON *steps = pr_sget(run, PR_K_STEPS), *st;
    size_t k, n = 0;
    int comm = 0;

    cJSON_ArrayForEach(st, steps)
    {
        comm |=
            pr_sget_num(pr_sget(st, PR_K_BREAKDOWN_US), PR_K_COMMUNICATION) > 0;
    }
    for (k = 0; k < PR_N_BREAKDOWN; k++) {
        const char *key = pr_keys_breakdown[k].key;
        double any = 0;

        /* a category no step has time in is left out of the legend
           (review 25u #13: kd_910B_v1's op-summary CSV, which records
           no copies, runtime, data loading or host work, listed Memcpy,
           Memset, Runtime, DataLoader and CPU exec) */
        cJSON_ArrayForEach(st, steps)
        {
            /* a step whose split is not known (null) adds nothing: one
               such step must not drop the category from every known step
               (review 28a #1: ms_run1's 307 steps without device tasks
               emptied the chart and donut of its 14 known ones) */
            double v = pr_sget_num(pr_sget(st, PR_K_BREAKDOWN_US), key);

            if (isfinite(v))
                any += fabs(v);
        }
        if (!(any > 0) && cJSON_IsArray(steps) && pr_sget_len(steps) > 0)
            continue;
        if (pr_fig_run_host_only(run) && strcmp(key, PR_K_DATALOADER) != 0 &&
            strcmp(key, PR_K_CPU_EXEC) != 0 && strcmp(key, PR_K_OTHER) != 0 &&
            !(comm && strcmp(key, PR_K_COMMUNICATION) == 0))
            continue;
        cats[n] = pr_keys_breakdown[k];
        if (pr_fig_run_is_mindspore(run)) /* its step interval */
            cats[n].label = pr_fig_label_mindspore(key, cats[n].label);
        /* an extract's Other is the time its listed tasks do not
           cover, not idle (review23a #1: "Other 99.7%" beside
           "utilization not known") */
        if (run_tasks_partial(run) && strcmp(key, PR_K_OTHER) == 0)
            cats[n].label = "Not covered";
        else if (ms_untasked_fpbp(run) && strcmp(key, PR_K_OTHER) == 0)
            cats[n].label = "FP+BP and tail";
        n++;
    }
    return n;
}

/* MindSpore's own split of the step (its step trace), as MindInsight
 * draws it: the median step's step interval (the file's
 * iteration_interval; MindInsight's "Step Interval", the one word the
 * report uses for it), FP+BP and tail, and how much of FP+BP and of the
 * tail the export's tasks cover (third review, findings 7 and 10). */
static const struct pr_col split_cols[] = {
    {"steps", PR_K_STEPS, "Steps", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"interval", PR_K_ITERATION_INTERVAL_US, "Step interval", PR_FMT_US, 1,
     "the previous step's end to FP start: data and host", PR_COL_BOTH},
    {"fpbp", PR_K_FP_AND_BP_US, "FP+BP", PR_FMT_US, 1,
     "forward start to backward end", PR_COL_BOTH},
    {"fpbp_tasks", PR_K_FP_AND_BP_TASKS_US, "FP+BP with tasks", PR_FMT_US, 1,
     "the export's device tasks inside FP+BP", PR_COL_BOTH},
    {"tail", PR_K_TAIL_US, "Tail", PR_FMT_US, 1,
     "backward end to the step's end: gradient reduction, optimizer",
     PR_COL_BOTH},
    {"tail_tasks", PR_K_TAIL_TASKS_US, "Tail with tasks", PR_FMT_US, 1,
     "the export's device tasks inside the tail", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static void
step_split(struct pr_figs *f, const cJSON *st)
{
    static const char *const no_tasks[] = {"fpbp_tasks", "tail_tasks", NULL};
    struct pr_fig_table t = {.cols = split_cols, .what = "steps", .limit = 1};
    cJSON *rows, *m;
    double with = pr_sget_num(st, PR_K_STEPS_WITH_TASKS);

    if (!cJSON_IsObject(st))
        return;
    rows = cJSON_CreateArray();
    m = cJSON_Duplicate(pr_sget(st, PR_K_MEDIAN), 1);
    if (rows == NULL || m == NULL || !cJSON_AddItemToArray(rows, m)) {
        cJSON_Delete(m);
        cJSON_Delete(rows);
        pr_figs_nomem(f);
        return;
    }
    if (!cJSON_AddNumberToObject(
            m, PR_K_STEPS,
            with > 0 ? with : (double)pr_sget_len(pr_sget(st, PR_K_STEPS)))) {
        cJSON_Delete(rows);
        pr_figs_nomem(f);
        return;
    }
    if (!cJSON_IsTrue(pr_sget(st, PR_K_TASKS)))
        t.hide = no_tasks;
    pr_figs_heading(f, "MindSpore's step split");
    pr_figs_note(f, cJSON_IsTrue(pr_sget(st, PR_K_TASKS)) &&
                            !cJSON_IsTrue(pr_sget(st, PR_K_COMPUTE_TASKS))
                        ? "The median step as MindSpore's step trace "
                          "(step_trace_raw) splits it, and how much of "
                          "FP+BP and of the tail the export's tasks cover: "
                          "they are communication tasks only, so the "
                          "compute of either is not in this export."
                    : cJSON_IsTrue(pr_sget(st, PR_K_TASKS))
                        ? "The median step as MindSpore's step trace "
                          "(step_trace_raw) splits it, over the steps with "
                          "tasks, and how much of FP+BP and of the tail "
                          "the export's tasks cover: the rest is work it "
                          "does not carry (AICPU, host) or idle."
                        : "The median step as MindSpore's step trace "
                          "(step_trace_raw) splits it; the export holds no "
                          "task, so the step is not split further.");
    pr_figs_table_own(f, &t, rows, NULL);
}

/* Under the step chart: the steps outside the device's record, whose
 * breakdown is null (analysis.c steps_json) and whose bars are empty
 * (review25a #7: ascend_run1's 307 steps after MindSpore's capped
 * timeline drawn as "Other 100%"). */
static void
unsplit_note(struct pr_figs *f, const cJSON *run, const cJSON *steps)
{
    const cJSON *s, *first = NULL, *last = NULL;
    size_t n = 0;
    char text[400];

    cJSON_ArrayForEach(s, steps)
    {
        if (!isnan(pr_sget_num(pr_sget(s, PR_K_BREAKDOWN_US), PR_K_KERNEL)))
            continue;
        first = first ? first : s;
        last = s;
        n++;
    }
    if (n == 0)
        return;
    if (pr_sget_num(pr_sget(run, PR_K_DATA_QUALITY), PR_K_REPLAYED_KERNELS) >
        0) {
        /* a kernel-replay capture (analysis.c steps_json, review30g #3) */
        pr_figs_note(f, "No split of the time: the kernels were measured by "
                        "CUPTI's range profiler, whose ranges all have one "
                        "made-up length, not the kernels' times, and each "
                        "part is the time the parts before it, kernels "
                        "first, leave (see Data quality).");
        return;
    }
    snprintf(text, sizeof(text),
             "%zu of %zu steps (%s%s%s) lie outside the device's record (see "
             "Data quality): their split is not known, so their bars are "
             "left empty.",
             n, pr_sget_len(steps), pr_sget_str_or(first, PR_K_NAME, "?"),
             n > 1 ? " to " : "",
             n > 1 ? pr_sget_str_or(last, PR_K_NAME, "?") : "");
    pr_figs_note(f, text);
}

/* A device whose record holds HCCL tasks only while the producer's step
 * table counts computation (gpu_util.c comm_note): its utilization is
 * the time inside HCCL tasks, waiting for a slower stage included, so the
 * NPU metrics table shows it as not known, as the Computing column does
 * (review25a #5: cluster_4rank_pipeline's bubble stage "96.7%" above the
 * computing stage's "78.9%"). */
static int
hccl_only(const cJSON *run, const cJSON *gm)
{
    double util = pr_sget_num(gm, PR_K_UTILIZATION_PCT);

    return pr_fig_run_is_npu(run) && !run_is_extract(run) && util > 0 &&
           isnan(pr_sget_num(gm, PR_K_COMPUTE_UTILIZATION_PCT)) &&
           pr_sget_str(gm, PR_K_NOTE) != NULL;
}

/* The metrics table's heading: a GPU's, an NPU's or an MTIA's. */
static const char *
metrics_title(const cJSON *run)
{
    return pr_fig_run_is_npu(run)                   ? "NPU metrics"
           : pr_fig_run_units(run) == PR_UNITS_MTIA ? "MTIA metrics"
                                                    : "GPU metrics";
}

/* The metrics table, its HCCL-only devices' utilization null (a copy:
 * the summary keeps the measured time). */
static void
metrics_table(struct pr_figs *f, const cJSON *run, const char *heading,
              const struct pr_fig_table *t)
{
    const cJSON *gm;
    cJSON *rows, *row;
    int any = 0;

    cJSON_ArrayForEach(gm, t->rows) any |= hccl_only(run, gm);
    if (!any) {
        pr_figs_table(f, heading, t, NULL);
        return;
    }
    rows = cJSON_Duplicate(t->rows, 1);
    cJSON_ArrayForEach(row, rows)
    {
        cJSON *nul;

        if (!hccl_only(run, row))
            continue;
        nul = cJSON_CreateNull();
        if (nul == NULL || !pr_sput(row, PR_K_UTILIZATION_PCT, nul)) {
            cJSON_Delete(nul);
            cJSON_Delete(rows);
            rows = NULL;
            break;
        }
    }
    pr_figs_heading(f, heading);
    pr_figs_table_own(f, t, rows, NULL);
}

/* Under the NPU metrics table: each device's caveat on its utilization
 * (gpu_metrics[].note: HCCL tasks counted as busy, no compute task
 * recorded, an incomplete task list), which the table's figure needs beside it
 * (review25a #5: written on 16 Ascend runs, rendered on none; a GPU's
 * is its utilization card's subtitle already). */
static void
metrics_notes(struct pr_figs *f, const cJSON *run, const cJSON *rows)
{
    const cJSON *gm;
    size_t n = pr_sget_len(rows);

    cJSON_ArrayForEach(gm, rows)
    {
        const char *note = pr_sget_str(gm, PR_K_NOTE);
        char text[600], dev[48], lead[64];

        /* an extract's counts are Data quality's (review23a #6) */
        if (note == NULL || note[0] == '\0' || run_is_extract(run))
            continue;
        if (hccl_only(run, gm))
            snprintf(lead, sizeof(lead),
                     "NPU utilization not known (HCCL tasks only): ");
        else
            lead[0] = '\0';
        if (n > 1)
            snprintf(text, sizeof(text), "NPU %s: %s%s.",
                     pr_fig_cell(gm, &npu_cols[0], dev, sizeof(dev)), lead,
                     note);
        else
            snprintf(text, sizeof(text), "%s%c%s.", lead,
                     lead[0] ? note[0] : (char)toupper((unsigned char)note[0]),
                     note + 1);
        pr_figs_note(f, text);
    }
}

static void
sec_overview(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    const cJSON *ss = pr_sget(run, PR_K_STEP_SUMMARY);
    const cJSON *steps = pr_sget(run, PR_K_STEPS);
    struct pr_fig_table t = {
        .cols = step_summary_cols, .rows = ss, .what = "steps", .limit = 1};
    struct pr_category cats[PR_N_BREAKDOWN];
    size_t n_cats = breakdown_cats(run, cats);

    (void)summary;
    if (pr_sget(run, PR_K_VERDICT) == NULL)
        pr_fig_older_note(f, run); /* the verdict shows it first */
    overview_kpis(f, run);
    if (pr_sget_len(steps) == 0) {
        pr_figs_note(f, no_profiler_steps(f, run)
                            ? "No steps in this trace: no step marks "
                              "and no events to count as one step."
                            : "No steps in this trace: no ProfilerStep "
                              "events and no events to count as one "
                              "step.");
    } else {
        char rows[64], text[240];

        if (no_steps(ss) && pr_fig_row_step_words(run, rows, sizeof(rows))) {
            snprintf(text, sizeof(text),
                     "No step bounds in this trace (%s, whose bounds the "
                     "file does not give): the figures below are the "
                     "whole capture's, one window, not a step.",
                     rows);
            pr_figs_note(f, text);
        } else if (no_steps(ss))
            pr_figs_note(f, no_profiler_steps(f, run)
                                ? "No steps in this trace (no step marks): "
                                  "the figures below are the whole "
                                  "capture's, one window, not a step."
                                : "No steps in this trace (no ProfilerStep "
                                  "events): the figures below are the "
                                  "whole capture's, one window, not a "
                                  "step.");
        pr_figs_chart(
            f,
            pr_sec_stacked_rows(
                steps, PR_K_NAME, PR_K_BREAKDOWN_US, cats, n_cats,
                no_steps(ss) ? "Capture time breakdown" : "Step time breakdown",
                1),
            0);
        if (cJSON_IsObject(ss))
            pr_figs_chart(f, donut(ss, cats, n_cats), 1);
        /* after both charts, so that they share one grid (review26a #2) */
        unsplit_note(f, run, steps);
        table_split_note(f, run);
        ms_fpbp_note(f, run);
    }
    if (no_steps(ss))
        t.cols = capture_summary_cols;
    pr_figs_table(f, no_steps(ss) ? "Capture time" : "Step time", &t, NULL);
    /* CPU Exec and Other are host time: say when the trace leaves most
       of it unexplained (hostcov.c) */
    if (pr_sget_str(pr_sget(run, PR_K_HOST_COVERAGE), PR_K_NOTE) != NULL) {
        char note[1200];
        size_t len, py;
        int capture = pr_sget_run_is_capture(run);

        len = (size_t)snprintf(
            note, sizeof(note),
            "CPU Exec and Other are the %s time without device work "
            "or a data loader; %.*f%% of %s host time is inside no "
            "recorded operator or runtime call",
            capture ? "capture's" : "step",
            pr_pct_prec(pr_sget_num(pr_sget(run, PR_K_HOST_COVERAGE),
                                    PR_K_UNRECORDED_PCT)),
            pr_sget_num(pr_sget(run, PR_K_HOST_COVERAGE), PR_K_UNRECORDED_PCT),
            capture ? "the capture's" : "the steps'");
        /* the trace's Python frames name it (review 32g #2) */
        py = len < sizeof(note)
                 ? pr_sget_host_python(run, note, sizeof(note), len)
                 : len;
        if (py > len)
            snprintf(note + py, sizeof(note) - py,
                     ": the host was in those Python functions there, "
                     "outside any recorded operator (Data quality).");
        else if (len < sizeof(note))
            snprintf(note + len, sizeof(note) - len,
                     ", so what the host did there is not in the trace "
                     "(Data quality).");
        pr_figs_note(f, note);
    }
    step_split(f, pr_sget(run, PR_K_STEP_TRACE));
    if (pr_fig_run_host_only(run))
        return; /* the timeline, metrics and devices are a device's */
    timeline(f, pr_sget(run, PR_K_TIMELINE), no_steps(ss));
    t = (struct pr_fig_table){.cols =
                                  pr_fig_run_is_npu(run) ? npu_cols : gpu_cols,
                              .rows = pr_sget(run, PR_K_GPU_METRICS),
                              .what = metrics_title(run)};
    {
        /* an incomplete task list's utilization is tagged as the
           Overview's card is (review-5 finding 13: old2023's 12.8% bare
           beside the table's 76.0%) */
        const char *basis;
        double comp, alone, busy = table_busy(run, &basis, &comp, &alone);
        char note[400];

        if (isnan(busy)) {
            const cJSON *gm;

            metrics_table(f, run, metrics_title(run), &t);
            cJSON_ArrayForEach(gm, pr_sget(run, PR_K_GPU_METRICS))
            {
                occ_unknown_note(gm, 0, note, sizeof(note));
                if (note[0])
                    pr_figs_note(f, note);
            }
        } else {
            int none = pr_fig_run_no_tasks(run);

            metrics_table(f, run,
                          none ? "NPU metrics (no task in the files)"
                               : "NPU metrics (incomplete task list)",
                          &t);
            if (none) /* issue #30 review: no task at all */
                snprintf(note, sizeof(note),
                         "No task of this rank is in its files "
                         "(" PR_FIG_NO_TASK_FILES "). The "
                         "producer's step table (%s) finds the NPU busy "
                         "%.1f%% of the step: Computing %.1f%% + "
                         "Communication(Not Overlapped) %.1f%%.",
                         basis, busy, comp, alone);
            else
                snprintf(note, sizeof(note),
                         "NPU utilization here is the time the export's "
                         "recorded tasks run, an incomplete list (see Data "
                         "quality). The producer's step table (%s) finds "
                         "the NPU busy %.1f%% of the step: Computing %.1f%% "
                         "+ Communication(Not Overlapped) %.1f%%.",
                         basis, busy, comp, alone);
            pr_figs_note(f, note);
        }
        if (pr_fig_run_is_npu(run))
            metrics_notes(f, run, t.rows);
    }
    t = (struct pr_fig_table){.cols = device_cols,
                              .rows = pr_sget(run, PR_K_DEVICES),
                              .what = "devices"};
    pr_figs_table(f, "Devices", &t, NULL);
    fit_notes(f, pr_sget(run, PR_K_DEVICES));
}

/* ---- operators -------------------------------------------------------- */

static const struct pr_col shape_cols[] = {
    {"name", PR_K_NAME, "Operator", PR_FMT_NAME, 2.2, NULL, PR_COL_BOTH},
    {"shape", PR_K_INPUT_SHAPES, "Input shapes", PR_FMT_NAME, 2.2, NULL,
     PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.7, NULL, PR_COL_BOTH},
    {"device_self", PR_K_DEVICE_SELF_US, "Device self", PR_FMT_US, 1, NULL,
     PR_COL_BOTH},
    {"device_total", PR_K_DEVICE_TOTAL_US, "Device total", PR_FMT_US, 1, NULL,
     PR_COL_BOTH},
    {"host_self", PR_K_HOST_SELF_US, "Host self", PR_FMT_US, 1, NULL,
     PR_COL_BOTH},
    {"tc_self", PR_K_TC_SELF_PCT, "TC self", PR_FMT_PCT, 0.7, NULL,
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* op_statistic.csv as the producer wrote it (operator_types). */
static const struct pr_col type_cols[] = {
    {"name", PR_K_NAME, "Operator type", PR_FMT_NAME, 2.2, NULL, PR_COL_BOTH},
    {"core", PR_K_CORE_TYPE, "Unit", PR_FMT_TEXT, 1.3, NULL, PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.7, NULL, PR_COL_BOTH},
    {"total", PR_K_TOTAL_US, "Total", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"mean", PR_K_MEAN_US, "Mean", PR_FMT_US, 0.9, NULL, PR_COL_BOTH},
    {"min", PR_K_MIN_US, "Min", PR_FMT_US, 0.9, NULL, PR_COL_BOTH},
    {"max", PR_K_MAX_US, "Max", PR_FMT_US, 0.9, NULL, PR_COL_BOTH},
    {"ratio", PR_K_RATIO_PCT, "Share", PR_FMT_PCT, 0.7, NULL, PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* Rows from a producer's table, not from operators on the timeline: the
 * reader is told. */
static void
table_note(struct pr_figs *f, const char *source)
{
    char note[400];

    snprintf(note, sizeof(note),
             "From the producer's %s: totals per operator without "
             "timestamps (the folder has no trace_view.json), so no "
             "operator is on the timeline and no kernel has a launching "
             "operator.",
             source);
    pr_figs_note(f, note);
}

/* t under heading, its rows ordered by the number at `key` (a host-only
 * run's tables by host time: the summary orders them by device time). */
static void
table_by(struct pr_figs *f, const char *heading, const struct pr_fig_table *t,
         const char *key, const char *empty)
{
    if (pr_sget_len(t->rows) == 0) {
        pr_figs_table(f, heading, t, empty);
        return;
    }
    pr_figs_heading(f, heading);
    pr_figs_table_own(f, t, pr_fig_rows_by(t->rows, key), empty);
}

/* The by-shape rows of a trace that recorded no input shape (torch_npu's
 * trace_view.json and Kineto traces without record_shapes: every row's
 * shapes "[]", review 22a #13): a copy of the by-name table, so NULL, and
 * the table says why instead; else the rows. */
static const cJSON *
shape_rows(const cJSON *rows)
{
    const cJSON *r;

    cJSON_ArrayForEach(r, rows)
    {
        const char *s = pr_sget_str(r, PR_K_INPUT_SHAPES);

        if (s != NULL && s[0] != '\0' && strcmp(s, "[]") != 0)
            return rows;
    }
    return NULL;
}

/* The by-shape table's note where no row has a shape: an Nsight Systems
 * export has them where PyTorch's emit_nvtx(record_shapes=True) wrote them
 * into its ranges; a PyTorch, torch_npu
 * profiler records them with record_shapes=True, MindSpore's in its
 * framework_raw_*.csv.  A run
 * without operators has no operator shapes to record (kernel_details.csv
 * or msprof's db alone: review30a #7, kd_910B_v1's tasks carry their own
 * Input Shapes, which only record_shapes=True writes); an Ascend run's
 * tasks state theirs, shown per call by kernel-calls; NULL: nothing
 * more to say. */
static const char *
no_shapes_note(const cJSON *summary, const cJSON *run)
{
    if (pr_sget_len(pr_sget(run, PR_K_OPERATORS)) <= 0)
        return pr_fig_run_is_npu(run) &&
                       pr_sget_len(pr_sget(run, PR_K_KERNELS)) > 0
                   ? "Its tasks state their own input shapes where the "
                     "export records them: profreport table --kind "
                     "kernel-calls -c kernel,shape,types lists them per "
                     "call."
                   : NULL; /* the line above says it has no operators */

    /* issue #28: PyTorch writes an operator's input sizes into its
       emit_nvtx range (", sizes = [[...]]", getNvtxStr in
       torch/csrc/profiler) under emit_nvtx(record_shapes=True) */
    if (pr_fig_run_is_nsys(summary, run))
        return "No input shapes in this trace (PyTorch writes them into "
               "its NVTX ranges only under "
               "torch.autograd.profiler.emit_nvtx(record_shapes=True)).";
    /* review32a #5: record_shapes=True is PyTorch's; MindSpore's
       profiler writes its shapes in framework_raw_*.csv (op_info), msprof
       in op_summary's Input Shapes, which the readers take where there */
    if (pr_fig_run_is_mindspore(run) && !pr_fig_run_is_npu(run))
        return "No input shapes in this MindSpore export.";
    if (pr_fig_run_is_mindspore(run))
        return "No input shapes in this export (MindSpore's profiler "
               "writes them in framework_raw_*.csv's op_info, msprof in "
               "op_summary's Input Shapes; profreport reads either where "
               "the export has it).";
    if (pr_fig_run_is_npu(run) && pr_sget_str(run, PR_K_FRAMEWORK) == NULL)
        return "No input shapes in this export (msprof writes them in "
               "op_summary's Input Shapes, which profreport reads where the "
               "export has it).";
    return "No input shapes in this trace (record_shapes=True records "
           "them).";
}

/* A run on the host only: the same tables by host time, without the
 * device and tensor-core columns. */
static void
host_operators(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    static const char *const by_name[] = {"name", "calls", "host_self",
                                          "host_total", NULL};
    static const char *const by_shape[] = {"name", "shape", "calls",
                                           "host_self", NULL};
    struct pr_fig_table t = {.cols = pr_fig_cols_operators,
                             .rows = pr_sget(run, PR_K_OPERATORS),
                             .what = "operators",
                             .order = "host self time",
                             .view = by_name};

    table_by(f, "By name", &t, PR_K_HOST_SELF_US,
             "No operator events in this trace.");
    t.cols = shape_cols;
    t.rows = shape_rows(pr_sget(run, PR_K_OPERATORS_BY_SHAPE));
    t.what = "operator shapes";
    t.view = by_shape;
    table_by(f, "By name and input shape", &t, PR_K_HOST_SELF_US,
             pr_fig_run_is_nsys(summary, run)
                 ? no_shapes_note(summary, run)
                 : "No input shapes in this trace (record_shapes=True "
                   "records them).");
}

/* The host columns rest on the events the trace kept (hostcov.c): where
 * it dropped some, or most host time is inside no recorded call, an
 * operator's host self time holds the time of what was not recorded
 * under it (HTA's sampled traces: "forward" 91% self). */
static void
host_basis(struct pr_figs *f, const cJSON *run)
{
    const cJSON *h = pr_sget(run, PR_K_HOST_COVERAGE);
    double kept = pr_sget_num(h, PR_K_KEPT_EVENTS_PCT);
    char note[600], k[120] = "";

    /* no operator table to qualify (an nsys export without NVTX) */
    if (pr_sget_str(h, PR_K_NOTE) == NULL ||
        cJSON_GetArraySize(pr_sget(run, PR_K_OPERATORS)) == 0)
        return;
    if (kept < 90.0)
        snprintf(k, sizeof(k),
                 "the trace holds %.1f%% of the host events the profiler "
                 "numbered, and ",
                 kept);
    snprintf(note, sizeof(note),
             "Host times rest on what the trace recorded: %s%.*f%% of %s "
             "host time is inside no recorded operator or runtime "
             "call, so a range's host self time (forward, an optimizer "
             "step, a user range) holds time whose work is %s (Data "
             "quality).",
             k, pr_pct_prec(pr_sget_num(h, PR_K_UNRECORDED_PCT)),
             pr_sget_num(h, PR_K_UNRECORDED_PCT),
             pr_sget_run_is_capture(run) ? "the capture's" : "the steps'",
             pr_sget_num(h, PR_K_PYTHON_PCT) >= 50.0
                 ? "in the trace's Python frames, not its operators"
                 : "not in the trace");
    pr_figs_note(f, note);
}

static void
sec_operators(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    struct pr_fig_table t = {.cols = pr_fig_cols_operators,
                             .rows = pr_sget(run, PR_K_OPERATORS),
                             .what = "operators",
                             .order = "device self time"};
    const char *source = pr_sget_str(run, PR_K_OPERATORS_SOURCE);

    (void)summary;
    if (source != NULL)
        table_note(f, source);
    host_basis(f, run);
    if (pr_fig_run_host_only(run)) {
        host_operators(f, summary, run);
        return;
    }
    pr_figs_table(f, "By name", &t, "No operator events in this trace.");
    t.cols = shape_cols;
    t.rows = shape_rows(pr_sget(run, PR_K_OPERATORS_BY_SHAPE));
    t.what = "operator shapes";
    pr_figs_table(f, "By name and input shape", &t,
                  no_shapes_note(summary, run));
    t.cols = type_cols;
    t.rows = pr_sget(run, PR_K_OPERATOR_TYPES);
    t.what = "operator types";
    t.order = "total device time";
    if (t.rows != NULL)
        pr_figs_table(f, "By operator type (op_statistic.csv)", &t, NULL);
}

/* ---- source ----------------------------------------------------------- */

static const struct pr_col source_cols[] = {
    {"location", PR_K_LOCATION, "Source location", PR_FMT_NAME, 2.6,
     "Innermost frame of your code (file:line (function))", PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"device_self", PR_K_DEVICE_SELF_US, "Device self", PR_FMT_US, 0.9,
     "Device time of the kernels its operators launched", PR_COL_BOTH},
    {"host_self", PR_K_HOST_SELF_US, "Host self", PR_FMT_US, 0.9, NULL,
     PR_COL_BOTH},
    {"bwd_device", PR_K_BACKWARD_DEVICE_SELF_US, "Backward device", PR_FMT_US,
     1, "Device time of the backward ops autograd ran for these operators",
     PR_COL_BOTH},
    {"bwd_host", PR_K_BACKWARD_HOST_SELF_US, "Backward host", PR_FMT_US, 0.9,
     NULL, PR_COL_REPORT},
    {"flops", PR_K_FLOPS, "FLOPs", PR_FMT_FLOPS, 0.8, NULL, PR_COL_BOTH},
    {"file", PR_K_FILE, "File", PR_FMT_TEXT, 2, NULL, 0},
    {"line", PR_K_LINE, "Line", PR_FMT_COUNT, 0.5, NULL, 0},
    {"function", PR_K_FUNCTION, "Function", PR_FMT_TEXT, 1, NULL, 0},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static const struct pr_col pair_cols[] = {
    {"forward", PR_K_FORWARD, "Forward operator", PR_FMT_NAME, 1.4, NULL,
     PR_COL_BOTH},
    {"backward", PR_K_BACKWARD, "Backward", PR_FMT_NAME, 1.6,
     "The autograd node run for it (same sequence number)", PR_COL_BOTH},
    {"location", PR_K_LOCATION, "Source location", PR_FMT_NAME, 1.8, NULL,
     PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"fwd_device", PR_K_FORWARD_DEVICE_US, "Forward device", PR_FMT_US, 0.9,
     NULL, PR_COL_BOTH},
    {"bwd_device", PR_K_BACKWARD_DEVICE_US, "Backward device", PR_FMT_US, 0.9,
     NULL, PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static const struct pr_col stack_cols[] = {
    {"stack", PR_K_STACK, "Call stack (your frames, innermost first)",
     PR_FMT_WRAP, 3.4, NULL, PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"device_self", PR_K_DEVICE_SELF_US, "Device self", PR_FMT_US, 0.9, NULL,
     PR_COL_BOTH},
    {"host_self", PR_K_HOST_SELF_US, "Host self", PR_FMT_US, 0.9, NULL,
     PR_COL_BOTH},
    {"bwd_device", PR_K_BACKWARD_DEVICE_SELF_US, "Backward device", PR_FMT_US,
     1, NULL, PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* ---- source paths: the folder the user's frames share, said once ---- */

/* The frames of a call stack cell, "path(line): function; ...": the
 * next frame's path from *at (its length in *n), *at past the frame; 0
 * at the end.  A frame not of that form has no path (*n 0). */
static int
next_frame(const char **at, const char **path, size_t *n)
{
    const char *s = *at, *e, *close;

    if (s == NULL || *s == '\0')
        return 0;
    e = strstr(s, "; ");
    *at = e != NULL ? e + 2 : s + strlen(s);
    if (e == NULL)
        e = s + strlen(s);
    *path = s;
    *n = 0;
    for (close = s; close + 2 < e; close++)
        if (close[0] == ')' && close[1] == ':' && close[2] == ' ')
            break;
    if (close + 2 >= e)
        return 1;
    while (close > s && *close != '(')
        close--;
    *n = (size_t)(close - s);
    return 1;
}

/* Narrow the common prefix (*pre, *n; *pre NULL: none yet) to path. */
static void
common_prefix(const char **pre, size_t *n, const char *path, size_t len)
{
    size_t i = 0;

    if (len == 0)
        return;
    if (*pre == NULL) {
        *pre = path;
        *n = len;
        return;
    }
    while (i < *n && i < len && (*pre)[i] == path[i])
        i++;
    *n = i;
}

/* The folder (ending in '/') that every file of the user's frames is in:
 * the sources' files and the call stacks' frames.  0 when they share
 * none below the root, or name no folder (Kineto's traces give a script
 * run from its folder as "resnet50_profiler_api.py"; torch_npu's give
 * the absolute path, "/home/<user>/imagenet_script/main.py", on every
 * row and frame: issue #30 #1). */
static size_t
frames_dir(const cJSON *run, const char **pre)
{
    const cJSON *r;
    const char *path, *at;
    size_t n = 0, len;

    *pre = NULL;
    cJSON_ArrayForEach(r, pr_sget(run, PR_K_SOURCES))
    {
        const char *file = pr_sget_str(r, PR_K_FILE);

        if (file != NULL)
            common_prefix(pre, &n, file, strlen(file));
    }
    cJSON_ArrayForEach(r, pr_sget(run, PR_K_SOURCE_STACKS))
    {
        at = pr_sget_str(r, PR_K_STACK);
        while (next_frame(&at, &path, &len))
            common_prefix(pre, &n, path, len);
    }
    while (n > 0 && (*pre)[n - 1] != '/' && (*pre)[n - 1] != '\\')
        n--;
    return n > 1 ? n : 0; /* "/" alone: no folder */
}

/* A copy of rows whose `key` cells drop the folder pre (n bytes) from
 * each location or frame that starts with it; NULL when out of memory.
 * The file cells keep it (the links to the files). */
static cJSON *
rows_relative(const cJSON *rows, const char *key, const char *pre, size_t n)
{
    cJSON *copy = cJSON_Duplicate(rows, 1), *r;

    if (copy == NULL)
        return NULL;
    cJSON_ArrayForEach(r, copy)
    {
        const char *v = pr_sget_str(r, key), *at, *path;
        char *out;
        size_t len, o = 0;
        cJSON *s;

        if (v == NULL)
            continue;
        out = malloc(strlen(v) + 1);
        if (out == NULL) {
            cJSON_Delete(copy);
            return NULL;
        }
        if (strcmp(key, PR_K_STACK) != 0) { /* a location: one frame */
            const char *rest = strncmp(v, pre, n) == 0 ? v + n : v;

            memcpy(out, rest, strlen(rest) + 1);
        } else {
            for (at = v; next_frame(&at, &path, &len);) {
                size_t skip = len > n && strncmp(path, pre, n) == 0 ? n : 0;
                size_t all = (size_t)(at - path);

                memcpy(out + o, path + skip, all - skip);
                o += all - skip;
            }
            out[o] = '\0';
        }
        s = cJSON_CreateString(out);
        free(out);
        if (s == NULL || !pr_sput(r, key, s)) {
            cJSON_Delete(s);
            cJSON_Delete(copy);
            return NULL;
        }
    }
    return copy;
}

/* t under heading, its `key` cells without the folder pre (n bytes; 0:
 * t as it is). */
static void
table_relative(struct pr_figs *f, const char *heading,
               const struct pr_fig_table *t, const char *key, const char *pre,
               size_t n)
{
    if (n == 0 || pr_sget_len(t->rows) == 0) {
        pr_figs_table(f, heading, t, NULL);
        return;
    }
    pr_figs_heading(f, heading);
    pr_figs_table_own(f, t, rows_relative(t->rows, key, pre, n), NULL);
}

/* The folder the tables' paths are relative to, said once. */
static void
frames_dir_note(struct pr_figs *f, const char *pre, size_t n)
{
    char text[600];

    if (n == 0)
        return;
    snprintf(text, sizeof(text),
             "Paths below are relative to %.*s, the folder all of your "
             "frames' files are in (the summary JSON keeps the full paths).",
             (int)(n < 400 ? n : 400), pre);
    pr_figs_note(f, text);
}

/* Which frames were passed over to find the user's line, in one line. */
static void
skipped_text(struct pr_figs *f, const cJSON *view)
{
    const cJSON *s;
    char text[1024];
    size_t n = 0;
    int w = 0;

    cJSON_ArrayForEach(s, pr_sget(view, PR_K_SKIPPED_FRAMES))
    {
        w = snprintf(
            text + n, sizeof(text) - n, "%s%s (%.0f distinct, e.g. %s)",
            n == 0 ? "Frames skipped to find your line: " : "; ",
            pr_sget_str_or(s, PR_K_RULE, "?"), pr_sget_num(s, PR_K_FRAMES),
            pr_sget_str_or(s, PR_K_EXAMPLE, "?"));
        if (w < 0 || (size_t)w >= sizeof(text) - n)
            break;
        n += (size_t)w;
    }
    if (n > 0)
        pr_figs_text(f, text);
}

/* Forward operators beside their backward ops; nothing without pairs
 * (no sequence numbers, or inference). */
static void
pairs_table(struct pr_figs *f, const cJSON *run, const char *pre, size_t n)
{
    struct pr_fig_table t = {.cols = pair_cols,
                             .rows = pr_sget(run, PR_K_FWD_BWD),
                             .what = "forward/backward pairs",
                             .order = "device time, forward + backward"};

    if (pr_sget_len(t.rows) > 0)
        table_relative(f, "Forward operators and their backward", &t,
                       PR_K_LOCATION, pre, n);
}

/* table_by of t under heading, its `key` cells without the folder pre
 * (n bytes; 0: t as it is). */
static void
table_by_relative(struct pr_figs *f, const char *heading,
                  struct pr_fig_table *t, const char *key, const char *pre,
                  size_t n)
{
    cJSON *rel = NULL;
    const cJSON *rows = t->rows;

    if (n > 0 && (rel = rows_relative(rows, key, pre, n)) == NULL)
        pr_figs_nomem(f);
    t->rows = rel != NULL ? rel : rows;
    table_by(f, heading, t, PR_K_HOST_SELF_US, NULL);
    t->rows = rows;
    cJSON_Delete(rel);
}

/* A run on the host only: its host time by line and by stack, paths
 * without the frames' folder pre (n bytes, frames_dir). */
static void
host_sources(struct pr_figs *f, const cJSON *run, const cJSON *view,
             const char *pre, size_t n)
{
    static const char *const by_line[] = {"location", "calls", "host_self",
                                          "bwd_host", NULL};
    static const char *const by_stack[] = {"stack", "calls", "host_self", NULL};
    double all = pr_sget_num(view, PR_K_OPERATORS_HOST_SELF_US);
    struct pr_fig_table t = {.cols = source_cols,
                             .rows = pr_sget(run, PR_K_SOURCES),
                             .what = "source locations",
                             .order = "host self time",
                             .view = by_line};

    pr_figs_kpi(f, "Host time with a source line",
                all > 0 ? 100.0 * pr_sget_num(view, PR_K_HOST_SELF_US) / all
                        : NAN,
                PR_FMT_PCT, "of operator host self time");
    pr_figs_kpi(
        f, "Backward time traced to a line",
        all > 0 ? 100.0 * pr_sget_num(view, PR_K_BACKWARD_HOST_SELF_US) / all
                : NAN,
        PR_FMT_PCT, "by the forward op's sequence number");
    skipped_text(f, view);
    frames_dir_note(f, pre, n);
    table_by_relative(f, "By source location", &t, PR_K_LOCATION, pre, n);
    t.cols = stack_cols;
    t.rows = pr_sget(run, PR_K_SOURCE_STACKS);
    t.what = "call stacks";
    t.view = by_stack;
    table_by_relative(f, "By call stack", &t, PR_K_STACK, pre, n);
}

static void
sec_sources(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    const cJSON *view = pr_sget(run, PR_K_SOURCE_VIEW);
    double all = pr_sget_num(view, PR_K_OPERATORS_DEVICE_SELF_US);
    struct pr_fig_table t = {.cols = source_cols,
                             .rows = pr_sget(run, PR_K_SOURCES),
                             .what = "source locations",
                             .order = "device time, forward + backward"};

    const char *pre;
    size_t n = frames_dir(run, &pre);

    (void)summary;
    if (!cJSON_IsObject(view)) {
        pr_figs_note(f, "No source view in this summary.");
        return;
    }
    if (pr_sget_str(view, PR_K_NOTE) != NULL) {
        pr_figs_note(f, pr_sget_str(view, PR_K_NOTE));
        if (!pr_fig_run_host_only(run))
            pairs_table(f, run, NULL, 0);
        return;
    }
    if (pr_fig_run_host_only(run)) {
        host_sources(f, run, view, pre, n);
        return;
    }
    pr_figs_kpi(f, "Device time with a source line",
                all > 0 ? 100.0 * pr_sget_num(view, PR_K_DEVICE_SELF_US) / all
                        : NAN,
                PR_FMT_PCT, "of operator device self time");
    pr_figs_kpi(
        f, "Backward time traced to a line",
        all > 0 ? 100.0 * pr_sget_num(view, PR_K_BACKWARD_DEVICE_SELF_US) / all
                : NAN,
        PR_FMT_PCT, "by the forward op's sequence number");
    skipped_text(f, view);
    frames_dir_note(f, pre, n);
    table_relative(f, "By source location", &t, PR_K_LOCATION, pre, n);
    t = (struct pr_fig_table){.cols = stack_cols,
                              .rows = pr_sget(run, PR_K_SOURCE_STACKS),
                              .what = "call stacks",
                              .order = "device time, forward + backward"};
    table_relative(f, "By call stack", &t, PR_K_STACK, pre, n);
    pairs_table(f, run, pre, n);
}

/* ---- modules ---------------------------------------------------------- */

static const struct pr_col module_type_cols[] = {
    {"name", PR_K_NAME, "Module type", PR_FMT_NAME, 2, NULL, PR_COL_BOTH},
    {"instances", PR_K_INSTANCES, "Instances", PR_FMT_COUNT, 0.8, NULL,
     PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"host_self", PR_K_HOST_SELF_US, "Host self", PR_FMT_US, 0.9, NULL,
     PR_COL_BOTH},
    {"device_self", PR_K_DEVICE_SELF_US, "Device self", PR_FMT_US, 0.9, NULL,
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* A run on the host only: the module tree and the types by host time,
 * without device columns. */
static void
host_modules(struct pr_figs *f, const cJSON *run, struct pr_fig_table *t)
{
    static const char *const tree[] = {"name",       "calls",     "operators",
                                       "host_total", "host_self", NULL};
    static const char *const types[] = {"name", "instances", "calls",
                                        "host_self", NULL};

    t->view = tree;
    pr_figs_table(f, "By module", t, NULL);
    *t = (struct pr_fig_table){.cols = module_type_cols,
                               .rows = pr_sget(run, PR_K_MODULE_TYPES),
                               .what = "module types",
                               .order = "host self time",
                               .view = types};
    table_by(f, "By module type", t, PR_K_HOST_SELF_US, NULL);
}

static void
sec_modules(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    const cJSON *view = pr_sget(run, PR_K_MODULE_VIEW);
    struct pr_fig_table t = {.cols = pr_fig_cols_modules,
                             .rows = pr_sget(run, PR_K_MODULES),
                             .what = "modules",
                             .order = "the module tree, a parent before its "
                                      "children",
                             .depth_key = PR_K_DEPTH};

    (void)summary;
    if (!cJSON_IsObject(view)) {
        pr_figs_note(f, "No module view in this summary.");
        return;
    }
    if (pr_sget_str(view, PR_K_NOTE) != NULL) {
        pr_figs_note(f, pr_sget_str(view, PR_K_NOTE));
        return;
    }
    if (pr_fig_run_host_only(run)) {
        host_modules(f, run, &t);
        return;
    }
    pr_figs_table(f, "By module", &t, NULL);
    t = (struct pr_fig_table){.cols = module_type_cols,
                              .rows = pr_sget(run, PR_K_MODULE_TYPES),
                              .what = "module types",
                              .order = "device self time"};
    pr_figs_table(f, "By module type", &t, NULL);
}

/* ---- kernels ---------------------------------------------------------- */

/* The kernels after the top ones whose names the bars' labels are told
 * apart from (hta_diff_control's "split_embedding_backward…_kernel_cta_
 * per_row_1<…>" hid the "unweighted" that tells it from the run's
 * weighted kernel, review 26g #8); at most this many, by time. */
#define BAR_OTHERS 64
/* The top-kernels chart's legend: the rest of the chip, then its matrix
 * units, in the device's words (review 28h #12). */
static const char *const cuda_legend[] = {"CUDA cores", "Tensor cores"};
static const char *const amd_legend[] = {"Vector ALUs", "Matrix cores (MFMA)"};
static const char *const mtia_legend[] = {"Unit not recorded", "Matrix units"};

static struct pr_fig_chart *
kernel_bars(const cJSON *kernels, int npu, enum pr_fig_units units)
{
    const char *const *legend = units == PR_UNITS_AMD    ? amd_legend
                                : units == PR_UNITS_MTIA ? mtia_legend
                                                         : cuda_legend;
    /* the last two only where a bar has them: HCCL's tasks, and tasks
       whose export names no unit (tensor_cores_used null, review25a #4) */
    const char **npu_legend;
    size_t n = pr_sget_len(kernels), i = 0, n_legend = 2, comm = 0, unrec = 0;
    size_t all = n < KERNEL_BARS + BAR_OTHERS ? n : KERNEL_BARS + BAR_OTHERS;
    size_t others = 0;
    struct pr_fig_chart *ch;
    int timed = 0;
    const char **labels;
    double *vals;
    size_t *idx;
    const cJSON *k;
    const char *title;

    cJSON_ArrayForEach(k, kernels)
    {
        timed |= cJSON_IsNumber(pr_sget(k, PR_K_TOTAL_US));
    }
    /* no times (a range profiler's kernels): the calls, in the table's
       order */
    title = timed ? "Top kernels by total time"
                  : "Top kernels by calls (the trace has no kernel times)";
    n = n < KERNEL_BARS ? n : KERNEL_BARS;
    ch = pr_fig_chart_new(pr_fig_draw_hbars, title, 960, 70 + 22 * (double)n,
                          70 + 16 * (double)n);
    if (ch == NULL)
        return NULL;
    labels = calloc(all + 1, sizeof(*labels)); /* the rest: told apart */
    vals = calloc(n + 1, sizeof(*vals));
    idx = calloc(n + 1, sizeof(*idx));
    npu_legend = calloc(4, sizeof(*npu_legend));
    ch->own[0] = (void *)labels;
    ch->own[1] = vals;
    ch->own[2] = idx;
    ch->own[3] = (void *)npu_legend;
    if (labels == NULL || vals == NULL || idx == NULL || npu_legend == NULL) {
        pr_fig_chart_free(ch);
        return NULL;
    }
    npu_legend[0] = "Vector and other units";
    npu_legend[1] = "Cube unit";
    cJSON_ArrayForEach(k, kernels)
    {
        if (i == n) { /* past the bars: their names, to tell them from */
            if (n + others < all)
                labels[n + others++] = pr_sget_str_or(k, PR_K_NAME, "?");
            continue;
        }
        labels[i] = pr_sget_str_or(k, PR_K_NAME, "?");
        vals[i] = !timed ? pr_sget_num(k, PR_K_CALLS)
                  : isnan(pr_sget_num(k, PR_K_TOTAL_US))
                      ? 0
                      : pr_sget_num(k, PR_K_TOTAL_US);
        /* an NPU's HCCL tasks apart: they compute on neither unit */
        if (npu && pr_sget_is(pr_sget_str(k, PR_K_KMATH), PR_K_COMMUNICATION)) {
            if (comm == 0) {
                npu_legend[n_legend] = "HCCL communication";
                comm = n_legend++;
            }
            idx[i] = comm;
        } else if (npu && cJSON_IsNull(pr_sget(k, PR_K_TENSOR_CORES_USED))) {
            if (unrec == 0) {
                npu_legend[n_legend] = "Unit not recorded";
                unrec = n_legend++;
            }
            idx[i] = unrec;
        } else
            idx[i] = (size_t)pr_sget_true(k, PR_K_TENSOR_CORES_USED);
        i++;
    }
    ch->u.hbars = (struct pr_chart_hbars){title,
                                          labels,
                                          vals,
                                          i,
                                          idx,
                                          timed ? PR_UNIT_US : PR_UNIT_COUNT,
                                          npu ? npu_legend : legend,
                                          npu ? n_legend : 2,
                                          i == n ? others : 0};
    return ch;
}

static const struct pr_col class_cols[] = {
    {"family", PR_K_KFAMILY, "Family", PR_FMT_TEXT, 1.2, NULL, PR_COL_BOTH},
    {"kernels", PR_K_KERNELS, "Kernels", PR_FMT_COUNT, 0.8, NULL, PR_COL_BOTH},
    {"total", PR_K_TOTAL_US, "Total", PR_FMT_US, 0.9, NULL, PR_COL_BOTH},
    {"share", PR_K_TIME_PCT, "Share", PR_FMT_PCT, 0.8, "Of all kernel time",
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* cuDNN's layout transforms: under this share of kernel time the
 * channels_last note is left out (tb_resnet50's 0.1%). */
#define LAYOUT_NOTE_PCT 1.0

/* What the family view changed by the launching operator (cuDNN's
 * GEMM convolutions counted as conv) and cuDNN's layout
 * transforms around convolutions, with the channels_last remedy
 * (review 13 #5). */
static void
conv_family_notes(struct pr_figs *f, const cJSON *run,
                  const struct pr_row_kernel_classes *kc)
{
    struct pr_row_kclass_conv_gemm g;
    struct pr_row_kclass_layout l;
    struct pr_error err = {PR_OK, ""};
    /* each null where the run has none (a saved summary's were read
       whole when loaded) */
    int hg = kc->conv_gemm != NULL &&
             pr_rows_read_one(kc->conv_gemm, PR_K_CONV_GEMM,
                              PR_RO_RUNS_KERNEL_CLASSES_CONV_GEMM, &g,
                              &err) == PR_OK;
    int hl = kc->layout_transforms != NULL &&
             pr_rows_read_one(kc->layout_transforms, PR_K_LAYOUT_TRANSFORMS,
                              PR_RO_RUNS_KERNEL_CLASSES_LAYOUT_TRANSFORMS, &l,
                              &err) == PR_OK;
    const cJSON *r;
    char a[48], b[48], both[256] = "", text[900];
    double by_family = 0, names = 0;

    /* every kernel counts once by math, and in each family it has time
       in: the difference is the GEMM kernels split between conv (the part
       convolutions launched) and gemm */
    cJSON_ArrayForEach(r, kc->by_family)
    {
        by_family += pr_sget_num(r, PR_K_KERNELS);
    }
    cJSON_ArrayForEach(r, kc->by_math)
    {
        names += pr_sget_num(r, PR_K_KERNELS);
    }
    if (by_family > names)
        snprintf(both, sizeof(both),
                 " %.0f of them also ran under %s and count%s in both conv "
                 "and gemm, so this table's Kernels column adds up to %.0f "
                 "for the run's %.0f kernels.",
                 by_family - names,
                 by_family - names == 1 ? "another operator"
                                        : "other operators",
                 by_family - names == 1 ? "s" : "", by_family, names);
    if (hg && g.total_ns > 0) {
        snprintf(text, sizeof(text),
                 "Conv includes %s (%.1f%% of kernel time) of %.0f GEMM "
                 "kernel%s that convolution operators launched: cuDNN computes "
                 "convolutions with GEMM kernels (its implicit-GEMM and GEMM "
                 "algorithms), so here the launching operator, not the "
                 "kernel's name, decides the family; the Kernels "
                 "table keeps each kernel's own family and math.%s",
                 pr_chart_format((double)g.total_ns / 1000.0, PR_UNIT_US, a,
                                 sizeof(a)),
                 g.time_pct, (double)g.kernels, g.kernels == 1 ? "" : "s",
                 both);
        pr_figs_text(f, text);
    }
    /* a share worth changing the memory format for */
    if (!hl || !(l.conv_ns > 0) || !(l.time_pct >= LAYOUT_NOTE_PCT))
        return;
    snprintf(
        text, sizeof(text),
        "cuDNN's layout transforms (nchwToNhwc / nhwcToNchw kernels) "
        "take %s (%.1f%% of kernel time, %.0f launches), %s of it "
        "launched by convolutions: cuDNN converts NCHW tensors to and "
        "from the NHWC layout its tensor-core kernels use. Running the "
        "model in channels_last, model.to(memory_format=torch."
        "channels_last) and the inputs likewise, lets cuDNN skip most of "
        "them. No gain "
        "is claimed: the critical-path replay has no what-if for a "
        "kernel that stops running%s.",
        pr_chart_format((double)l.total_ns / 1000.0, PR_UNIT_US, a, sizeof(a)),
        l.time_pct, (double)l.calls,
        pr_chart_format((double)l.conv_ns / 1000.0, PR_UNIT_US, b, sizeof(b)),
        pr_sget_is(pr_sget_str(pr_sget(run, PR_K_CRITICAL_PATH), PR_K_BOUND),
                   "host")
            ? (pr_sget_run_is_capture(run)
                   ? ", and this run's critical path is host-bound, so device "
                     "time saved would hardly shorten the capture"
                   : ", and this run's critical path is host-bound, so device "
                     "time saved would hardly shorten the step")
            : "");
    pr_figs_text(f, text);
}

/* Kernel time by the kernel table's family, and the kernels no rule
 * names, with their share: where the table has gaps, the report says so
 * rather than count them silently as compute. */
static void
kernel_classes(struct pr_figs *f, const cJSON *run)
{
    /* the typed row (rows.h); none where the run's is null (a rank
       form's) */
    struct pr_row_kernel_classes kc;
    struct pr_error err = {PR_OK, ""};
    const struct pr_row_kclass_unknown *u = &kc.unknown;
    struct pr_fig_table t = {
        .cols = class_cols, .what = "kernel families", .order = "total time"};
    const cJSON *k;
    char text[1024];
    size_t len = 0;
    int i = 0;

    if (pr_rows_read_one(pr_sget(run, PR_K_KERNEL_CLASSES), PR_K_KERNEL_CLASSES,
                         PR_RO_RUNS_KERNEL_CLASSES, &kc, &err) != PR_OK)
        return;
    t.rows = kc.by_family;
    if (pr_sget_len(t.rows) == 0)
        return;
    if (pr_sget_num(pr_sget(run, PR_K_DATA_QUALITY), PR_K_REPLAYED_KERNELS) >
        0) {
        /* kernel replay: the rows' times are null (kernels.c emit_sums,
           review31 #5), the order by kernels */
        t.order = "kernels";
        pr_figs_table(f, "Kernels by family (the kernel table's rules)", &t,
                      NULL);
        pr_figs_note(f, "Kernel time by family: time not known (kernel "
                        "replay): CUPTI's range profiler gives every "
                        "kernel's range one made-up length, so a family's "
                        "total would be its launches times that length; "
                        "the kernel counts stand.");
    } else {
        pr_figs_table(f, "Kernel time by family (the kernel table's rules)", &t,
                      NULL);
        conv_family_notes(f, run, &kc);
    }
    if (!(u->kernels > 0))
        return;
    len = (size_t)snprintf(
        text, sizeof(text),
        "%.0f %s%s (%.1f%% of %s time) %s no rule of the kernel "
        "table and %s counted as neither %s nor communication time:",
        (double)u->kernels, f->npu ? "task" : "kernel",
        u->kernels == 1 ? "" : "s", u->time_pct, f->npu ? "task" : "kernel",
        u->kernels == 1 ? "matches" : "match", u->kernels == 1 ? "is" : "are",
        f->npu ? "Cube" : pr_fig_words((enum pr_fig_units)f->units)->tc_adj);
    if (len >= sizeof(text))
        len = sizeof(text) - 1;
    cJSON_ArrayForEach(k, u->top)
    {
        const char *name = pr_sget_str_or(k, PR_K_NAME, "?");
        size_t n = strlen(name) > 60 ? 60 : strlen(name);

        while (n > 0 && ((unsigned char)name[n] & 0xC0) == 0x80)
            n--; /* cut on a UTF-8 boundary */
        if (i++ == 3 || len >= sizeof(text) - 1)
            break;
        len += (size_t)snprintf(text + len, sizeof(text) - len,
                                "%s %.*s%s (%.1f%%)", i > 1 ? ";" : "", (int)n,
                                name, n < strlen(name) ? "..." : "",
                                pr_sget_num(k, PR_K_TIME_PCT));
        if (len >= sizeof(text))
            len = sizeof(text) - 1;
    }
    if (len < sizeof(text) - 1)
        snprintf(text + len, sizeof(text) - len,
                 ". profreport table --kind kernels --why NAME explains a "
                 "name; --kernel-rules FILE adds rules.");
    pr_figs_note(f, text);
}

static void
sec_kernels(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    /* columns no row fills (an Nsight Systems export records no
       occupancy, a trace without ops no operator) leave room for the
       kernel table's class */
    static const char *const hide[4][4] = {
        {NULL},
        {"op", NULL},
        {"blocks_per_sm", "occupancy", NULL},
        {"op", "blocks_per_sm", "occupancy", NULL}};
    /* an Ascend run's: the report's columns of pr_fig_cols_kernels but
       the CUDA launch's (blocks per SM, occupancy: never known there), the
       precision where the producer states one, and the PMU's; the PDF's
       page leaves the wide ones out (Rule, AI Core use), which with
       eleven columns cut the times ("1.96 ..." for 1.96 ms) */
    static const char *const view_pmu[] = {
        "name", "op",   "calls",     "total",     "mean", "max",
        "math", "rule", "cube_util", "cube_busy", "pmu",  NULL};
    /* the same with the precision the producer's Input Data Types give
       (review28a #4: kd_910B_v2's bf16 MatMulV3 read "not known") */
    static const char *const view_pmu_prec[] = {
        "name",      "op",   "calls",     "total",     "mean", "max", "math",
        "precision", "rule", "cube_util", "cube_busy", "pmu",  NULL};
    /* of those, the PMU's columns no row fills (the AI Core use
       where the export has no cube_utilization(%), Cube busy where its
       PMU has no aic_mac_ratio); "op" as above */
    static const char *const hide_pmu[8][4] = {
        {NULL},
        {"op", NULL},
        {"cube_util", NULL},
        {"op", "cube_util", NULL},
        {"cube_busy", NULL},
        {"op", "cube_busy", NULL},
        {"cube_util", "cube_busy", NULL},
        {"op", "cube_util", "cube_busy", NULL}};
    const cJSON *kernels = pr_sget(run, PR_K_KERNELS);
    struct pr_fig_table t = {.cols = pr_fig_cols_kernels,
                             .rows = kernels,
                             .what = "kernels",
                             .order = "total time",
                             .hide = NULL};
    int no_op = !pr_fig_rows_have(kernels, PR_K_OPERATOR);
    int no_occ =
        !pr_fig_rows_have(kernels, PR_K_MEAN_BLOCKS_PER_SM) &&
        !pr_fig_rows_have(kernels, PR_K_MEAN_EST_ACHIEVED_OCCUPANCY_PCT);

    (void)summary;
    if (no_op || no_occ)
        t.hide = hide[no_op + 2 * no_occ];
    if (pr_fig_rows_have(kernels, PR_K_PMU_HINT) ||
        pr_fig_rows_have(kernels, PR_K_CUBE_UTILIZATION_PCT)) {
        t.view = pr_fig_rows_have(kernels, PR_K_KPRECISION) ? view_pmu_prec
                                                            : view_pmu;
        t.hide =
            hide_pmu[no_op +
                     2 * !pr_fig_rows_have(kernels, PR_K_CUBE_UTILIZATION_PCT) +
                     4 * !pr_fig_rows_have(kernels, PR_K_PMU ".aic_mac_ratio")];
    }
    if (pr_sget_len(kernels) == 0) {
        pr_figs_note(
            f, pr_fig_run_no_tasks(run) ? "No task is in this rank's files "
                                          "(" PR_FIG_NO_TASK_FILES ")."
               : pr_fig_run_is_npu(run) ? "No NPU tasks in this trace."
                                        : "No GPU kernels in this trace.");
        return;
    }
    pr_figs_chart(
        f, kernel_bars(kernels, pr_fig_run_is_npu(run), pr_fig_run_units(run)),
        0);
    kernel_classes(f, run);
    pr_figs_table(f, NULL, &t, NULL);
    /* task rows the table leaves out (a ragged CSV record) */
    if (pr_sget_str(run, PR_K_KERNELS_NOTE) != NULL)
        pr_figs_note(f, pr_sget_str(run, PR_K_KERNELS_NOTE));
}

/* ---- tensor cores ----------------------------------------------------- */

static const struct pr_col finding_cols[] = {
    {"op", PR_K_OPERATOR, "Operator", PR_FMT_NAME, 1.5, NULL, PR_COL_BOTH},
    {"shape", PR_K_INPUT_SHAPES, "Input shapes", PR_FMT_NAME, 1.6, NULL,
     PR_COL_BOTH},
    {"time", PR_K_DEVICE_US, "Device time", PR_FMT_US, 0.9, NULL, PR_COL_BOTH},
    {"reason", PR_K_REASON, "Why not on tensor cores", PR_FMT_WRAP, 2, NULL,
     PR_COL_BOTH},
    {"advice", PR_K_ADVICE, "Advice", PR_FMT_WRAP, 2, NULL, PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* An NPU run's Cube figures: the AI Core's matrix unit in place of tensor
 * cores (issue #30). */
/* A share of a task list that is an extract or incomplete is the listed
 * tasks', not the run's: "–" with the listed tasks' figure in words, the
 * Overview's Cube share card's test (review30a #2: kd_910B_v2's Cube and
 * Vector printed 98.6% under an Overview that says not known).  1 when
 * the card was written. */
static int
partial_share_kpi(struct pr_figs *f, const cJSON *run, const char *title,
                  double pct)
{
    char sub[200], v[32];

    if (!run_tasks_partial(run))
        return 0;
    pr_fig_format(pct, PR_FMT_PCT, v, sizeof(v));
    snprintf(sub, sizeof(sub),
             "not known: the task list is %s (see Data quality)%s%s",
             run_is_extract(run) ? "an extract" : "incomplete",
             isnan(pct) ? "" : "; of the listed tasks: ", isnan(pct) ? "" : v);
    pr_figs_kpi(f, title, NAN, PR_FMT_PCT, sub);
    return 1;
}

static void
npu_cube(struct pr_figs *f, const cJSON *run, const cJSON *tc, int no_ops,
         double eligible)
{
    const char *basis = pr_sget_str(tc, PR_K_ELIGIBLE_BASIS);
    int hccl = run_has_hccl(run);

    if (!partial_share_kpi(f, run, "Task time on the Cube",
                           pr_sget_num(tc, PR_K_TC_KERNEL_TIME_PCT)))
        pr_figs_kpi(f, "Task time on the Cube",
                    pr_sget_num(tc, PR_K_TC_KERNEL_TIME_PCT), PR_FMT_PCT,
                    hccl ? "of compute task time (HCCL tasks left out)"
                         : "of compute task time");
    if (pr_sget_str(tc, PR_K_NOTE) != NULL)
        pr_figs_note(f, pr_sget_str(tc, PR_K_NOTE));
    /* without operators the share is the tasks' own, by the operator
       type each task names (cube.c), and the label says so: "–" beside
       a measured "Eligible time on the Cube" read as 0/0 (review 22a
       #12: kd_910B_v2's 98.9% of task time MatMul and FlashAttention) */
    /* the basis said, as the analysis computed it: the tasks' share and
       the operators' (where tasks say not what they are) are two figures
       (review28a #9: npu_text0's 4.2% beside npu_text2's 32.0%) */
    char sub[240];

    if (partial_share_kpi(f, run,
                          no_ops || pr_sget_is(basis, PR_K_TASKS)
                              ? "Cube-eligible task time"
                              : "Cube-eligible operator time",
                          eligible))
        ;
    else if (no_ops || pr_sget_is(basis, PR_K_TASKS)) {
        snprintf(sub, sizeof(sub),
                 "of compute task time%s, in tasks whose operator type runs "
                 "on the Cube (MatMul, FlashAttention, Conv%s)",
                 hccl ? " (HCCL left out)" : "",
                 no_ops ? "; no operator events" : "");
        pr_figs_kpi(f, "Cube-eligible task time", eligible, PR_FMT_PCT, sub);
    } else if (pr_sget_is(basis, PR_K_OPERATORS)) {
        snprintf(sub, sizeof(sub),
                 "of the operators' device time%s, in matrix operators "
                 "(MatMul, FlashAttention, Conv) and all their tasks",
                 hccl ? " (HCCL's left out)" : "");
        pr_figs_kpi(f, "Cube-eligible operator time", eligible, PR_FMT_PCT,
                    sub);
    } else
        pr_figs_kpi(f, "Cube-eligible operator time", eligible, PR_FMT_PCT,
                    "device time of matrix operators (MatMul, "
                    "FlashAttention, Conv)");
    pr_figs_kpi(f, "Eligible time on the Cube",
                pr_sget_num(tc, PR_K_ELIGIBLE_ON_TC_PCT), PR_FMT_PCT,
                "of that eligible time");
}

static void
sec_tensor_cores(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    const cJSON *tc = pr_sget(run, PR_K_TENSOR_CORES);
    struct pr_fig_table t = {.cols = finding_cols,
                             .rows = pr_sget(tc, PR_K_FINDINGS),
                             .what = "findings",
                             .order = "device time"};
    int no_ops = pr_sget_len(pr_sget(run, PR_K_OPERATORS)) == 0;
    double eligible = pr_sget_num(tc, PR_K_ELIGIBLE_OP_TIME_PCT);
    enum pr_fig_units units = pr_fig_run_units(run);
    const struct pr_fig_words *w = pr_fig_words(units);
    char title[96], none[96], every[128], sub[200];

    (void)summary;
    if (!cJSON_IsObject(tc)) {
        pr_figs_note(f, "No tensor-core data in this trace (it needs GPU "
                        "kernels).");
        return;
    }
    if (pr_fig_run_is_npu(run)) {
        /* fp32-typed work no finding judged: "none ran" is not known
           (review25a #3) */
        double unjudged = pr_sget_num(tc, PR_K_FP32_HF32_UNKNOWN_US);
        char unjudged_text[320], took[32];

        pr_fig_format(unjudged, PR_FMT_US, took, sizeof(took));
        snprintf(unjudged_text, sizeof(unjudged_text),
                 "%s of matmul and convolution work is fp32 by the "
                 "export's data types, but the export records neither "
                 "HF32 nor the chip, so whether it ran without HF32 "
                 "(or whether the chip has HF32) is not known.",
                 took);
        npu_cube(f, run, tc, no_ops, eligible);
        /* an NPU's findings are its fp32 matrix work without HF32, on
           the Cube or not (each says where it ran and what bounds it) */
        /* where the export gives no matmul's data type, "none ran in
           fp32" is not known (third review, finding 11) */
        pr_figs_table(f, "fp32 matmul and convolution without HF32", &t,
                      no_ops ? "No operator events in this trace, so no "
                               "operator was checked."
                      : !(eligible > 0)
                          ? "No operator in this run could use the Cube."
                      : pr_sget_num(tc, PR_K_MATMUL_DTYPE_UNKNOWN_PCT) >= 99.5
                          ? "The export gives no data type for its matmul "
                            "and convolution work (no dtype column, or "
                            "UNKNOWN), so whether any ran in fp32 without "
                            "HF32 is not known."
                      : unjudged > 0 ? unjudged_text
                      /* the operators' own types say so: name the basis
                         (review26a #1: ms_run1's timeline types its 15
                         MatMuls' inputs FLOAT16; framework_raw's FLOAT32
                         MatMuls are another graph's, LeNet5's, not in the
                         timeline) */
                      : pr_sget_num(tc, PR_K_MATMUL_DTYPE_UNKNOWN_PCT) < 99.5
                          ? "No matmul or convolution took fp32 inputs by the "
                            "data types the export gives its operators, so "
                            "none ran in fp32 without HF32."
                          : "No fp32 matmul or convolution ran "
                            "without HF32.");
        return;
    }
    if (units == PR_UNITS_MTIA) {
        /* its trace names no unit a task ran on (review 28h #12) */
        pr_figs_note(f, "The MTIA trace does not say which tasks ran on the "
                        "accelerator's matrix units, so no share is given.");
        return;
    }
    snprintf(title, sizeof(title), "Kernel time on %s", w->tc);
    pr_figs_kpi(f, title, pr_sget_num(tc, PR_K_TC_KERNEL_TIME_PCT), PR_FMT_PCT,
                tc_compute_sub(tc, "of all kernel time", sub, sizeof(sub)));
    if (pr_sget_str(tc, PR_K_NOTE) != NULL)
        pr_figs_note(f, pr_sget_str(tc, PR_K_NOTE));
    pr_figs_kpi(f, "Eligible operator time", no_ops ? NAN : eligible,
                PR_FMT_PCT,
                no_ops ? "no operator events in this trace"
                       : "device time of ops that could use them");
    snprintf(title, sizeof(title), "Eligible time on %s", w->tc);
    pr_figs_kpi(f, title, pr_sget_num(tc, PR_K_ELIGIBLE_ON_TC_PCT), PR_FMT_PCT,
                "of that eligible time");
    /* "every eligible operator ran on tensor cores" only where there was
     * one: without operators, or without eligible ones, it would mislead */
    snprintf(title, sizeof(title), "Eligible operators not using %s", w->tc);
    snprintf(none, sizeof(none), "No operator in this run could use %s.",
             w->tc);
    snprintf(every, sizeof(every), "Every %s-eligible operator ran on %s.",
             w->tc_adj, w->tc);
    pr_figs_table(f, title, &t,
                  no_ops ? "No operator events in this trace, so no operator "
                           "was checked."
                  : !(eligible > 0) ? none
                                    : every);
}

/* ---- roofline --------------------------------------------------------- */

#define PR_MAX_ROOFS 8 /* one per peak kind */

size_t
pr_sec_roofs(const cJSON *run, struct pr_chart_roof *roofs, size_t cap)
{
    const cJSON *r;
    size_t n = 0;

    cJSON_ArrayForEach(r, pr_sget(pr_sget(run, PR_K_ROOFLINE), PR_K_ROOFS))
    {
        double t = pr_sget_num(r, PR_K_TFLOPS);
        if (n < cap && t > 0 && pr_sget_str(r, PR_K_LABEL)) {
            roofs[n].name = pr_sget_str(r, PR_K_LABEL);
            roofs[n++].tflops = t;
        }
    }
    return n;
}

/* An NPU operator the Cube ran (a matmul, convolution, attention) that no
 * roof bounds: its dtype's Cube peak is not known (fp32/HF32: none is
 * published), and the only fp32 roof is the Vector units'.  npu_db1's
 * aten::conv2d at 37.6 TFLOP/s sat 14x above "FP32 2.76" (review28a #5). */
static int
cube_no_roof(const cJSON *r)
{
    const cJSON *roof = pr_sget(r, PR_K_ROOF); /* a layer's */

    return (pr_sget_true(r, PR_K_TC_ELIGIBLE) || cJSON_IsNull(roof)) &&
           pr_sget_is(pr_sget_str(r, PR_K_BOUND), PR_K_UNKNOWN) &&
           isnan(pr_sget_num(r, PR_K_ROOFLINE_PCT));
}

/* Rows with an intensity and a rate, coloured by their bound, sized by
 * spec->weight_key and labelled by spec->label (or their name); on an NPU
 * (npu) the Cube's operators no roof bounds are left out (cube_no_roof). */
static size_t
roof_points(const cJSON *rows, const struct pr_sec_roofline *spec,
            struct pr_chart_point *pts, char *labels, size_t cap, int npu)
{
    const cJSON *r;
    size_t n = 0;

    cJSON_ArrayForEach(r, rows)
    {
        const char *b = pr_sget_str(r, PR_K_BOUND);
        double w = pr_sget_num(r, spec->weight_key);
        if (n == cap)
            break;
        if (npu && cube_no_roof(r))
            continue;
        pts[n].x = pr_sget_num(r, PR_K_ARITHMETIC_INTENSITY);
        pts[n].y = pr_sget_num(r, PR_K_ACHIEVED_TFLOPS);
        if (isnan(pts[n].x) || isnan(pts[n].y))
            continue;
        pts[n].label = spec->label != NULL
                           ? spec->label(r, labels + n * spec->label_chars,
                                         spec->label_chars)
                           : pr_sget_str_or(r, PR_K_NAME, "?");
        pts[n].weight = isnan(w) ? 0 : w;
        /* a point past its roof for a reason the row names (winograd:
           nominal FLOPs) is drawn apart, not as a compute-bound point
           over the peak (review25g #6, #12) */
        pts[n++].color_index = pr_sget_str(r, PR_K_ROOFLINE_MARK) != NULL ? 3
                               : pr_sget_is(b, "compute")                 ? 0
                               : pr_sget_is(b, PR_K_MEMORY)               ? 1
                                                                          : 2;
    }
    return n;
}

static int
any_marked(const struct pr_chart_point *pts, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (pts[i].color_index == 3)
            return 1;
    return 0;
}

struct pr_fig_chart *
pr_sec_roofline_chart(const cJSON *run, const cJSON *rows,
                      const struct pr_sec_roofline *spec, size_t *n_points)
{
    static const char *const legend[] = {
        "compute-bound", "memory-bound", "unknown",
        "over its roof for a known reason (its mark)"};
    size_t cap = pr_sget_len(rows) ? pr_sget_len(rows) : 1;
    struct pr_fig_chart *ch =
        pr_fig_chart_new(pr_fig_draw_roofline, spec->caption, 960, 440, 300);
    struct pr_chart_point *pts = calloc(cap, sizeof(*pts));
    struct pr_chart_roof *roofs = calloc(PR_MAX_ROOFS, sizeof(*roofs));
    char *labels = spec->label ? calloc(cap, spec->label_chars) : NULL;
    double gbps = pr_sget_num(pr_sget(run, PR_K_ROOFLINE), PR_K_PEAK_GBPS);

    if (ch == NULL || pts == NULL || roofs == NULL ||
        (spec->label != NULL && labels == NULL)) {
        free(pts);
        free(roofs);
        free(labels);
        pr_fig_chart_free(ch);
        return NULL;
    }
    ch->own[0] = pts;
    ch->own[1] = roofs;
    ch->own[2] = labels;
    *n_points =
        roof_points(rows, spec, pts, labels, cap, pr_fig_run_is_npu(run));
    ch->u.roofline =
        (struct pr_chart_roofline){spec->title,
                                   pts,
                                   *n_points,
                                   roofs,
                                   pr_sec_roofs(run, roofs, PR_MAX_ROOFS),
                                   isnan(gbps) ? 0 : gbps,
                                   spec->n_labels,
                                   legend,
                                   any_marked(pts, *n_points) ? 4 : 3};
    return ch;
}

/* The run's first device as a typed row (rows.h): 0, and every column
 * NULL or 0, where it has none or its table cannot be read (a saved
 * summary's was read whole when loaded); the columns a row leaves out are
 * NULL. */
static int
first_device(const cJSON *run, struct pr_row_device *d)
{
    void *v = NULL;
    size_t n = 0;
    struct pr_error err = {PR_OK, ""};
    int ok = pr_rows_load(pr_sget(run, PR_K_DEVICES), PR_K_DEVICES,
                          PR_RO_RUNS_DEVICES, &v, &n, &err) == PR_OK &&
             n > 0;

    if (ok)
        *d = *(const struct pr_row_device *)v;
    else
        memset(d, 0, sizeof(*d));
    free(v);
    return ok;
}

/* Where the roofs come from, said plainly: a guessed device is shown as
 * a guess. */
static void
roof_note(struct pr_figs *f, const struct pr_row_device *dev)
{
    const char *src = dev->peak_source;
    const char *entry = dev->peak_device;
    const char *arch = dev->architecture;
    char note[320];

    if (pr_sget_is(src, "guess") && entry && dev->name != NULL &&
        pr_sget_is(dev->peak_match, "guess"))
        snprintf(note, sizeof(note),
                 "Peaks are a guess: the device table has no entry for "
                 "\"%.80s\", so its %s entry for %s is used%s.",
                 dev->name, entry, arch ? arch : "its compute capability",
                 !isnan(dev->peak_scale)
                     ? (pr_sget_is(dev->vendor, "amd")
                            ? ", scaled to this part's CUs and clock (see "
                              "Devices)"
                            : ", scaled to this part's SMs and clock (see "
                              "Devices)")
                     : "");
    else if (pr_sget_is(src, "guess") && entry && dev->name != NULL &&
             strncasecmp(dev->name, "Ascend", 6) == 0)
        /* torch_npu names the family, not the variant (review 28a #14:
           npu_db1 "does not name its device (\"Ascend910B\")") */
        snprintf(note, sizeof(note),
                 "Peaks are a guess: the trace names only the device's "
                 "family (\"%.60s\"), not its variant, so the table's %s "
                 "entry is used.",
                 dev->name, entry);
    else if (pr_sget_is(src, "guess") && entry)
        snprintf(note, sizeof(note),
                 "Peaks are a guess: the trace does not name its device "
                 "(\"%s\"), so the table's %s entry for %s is used.",
                 dev->name != NULL ? dev->name : "?", entry,
                 arch ? arch : "its compute capability");
    else if (pr_sget_is(src, "table") && entry)
        snprintf(note, sizeof(note),
                 "Peaks: %s, from its datasheet (%s name match).", entry,
                 dev->peak_match != NULL ? dev->peak_match : "?");
    else if (pr_sget_is(src, "cli"))
        snprintf(note, sizeof(note), "Peaks from the command line.");
    else
        return;
    pr_figs_text(f, note);
}

/* No "bound" column: the chart colours it and the intensity against the
 * ridge says it; on a PDF page the figures need the width. */
static const char *const roof_view[] = {"name",      "flops",  "bytes",
                                        "intensity", "tflops", "gbps",
                                        "roofline",  "mark",   NULL};

const char *
pr_sec_roof_missing(const cJSON *summary, const cJSON *run, const char *what,
                    char *buf, size_t n)
{
    struct pr_row_device dev;
    const cJSON *o;
    int flops = 0, fops = 0;

    first_device(run, &dev);

    cJSON_ArrayForEach(o, pr_sget(run, PR_K_OPERATORS))
    {
        flops |= pr_sget_num(o, PR_K_FLOPS) > 0;
    }
    /* a task table without operators (kd_910B_v1: kernel_details.csv
       alone) may hold the tasks' measured FLOPs: the message names what
       is missing, not what was recorded (review28a #12) */
    cJSON_ArrayForEach(o, pr_sget(run, PR_K_KERNELS))
    {
        const cJSON *c;

        cJSON_ArrayForEach(c, pr_sget(o, PR_K_PMU))
        {
            size_t k = c->string != NULL ? strlen(c->string) : 0;

            fops |= k > 5 && strcmp(c->string + k - 5, "_fops") == 0 &&
                    cJSON_IsNumber(c) && c->valuedouble > 0;
        }
    }
    if (pr_sget_len(pr_sget(run, PR_K_OPERATORS)) == 0)
        snprintf(buf, n,
                 "%s: the roofline is per operator, and this trace records "
                 "no operator (%s)%s%s.",
                 what,
                 pr_fig_run_no_tasks(run)
                     ? "nor any device task: " PR_FIG_NO_TASK_FILES
                       " is in this rank's files"
                 /* issue #30 review: MindSpore's and msprof's exports
                    have neither file name */
                 : pr_fig_run_is_npu(run) &&
                         pr_sget_len(pr_sget(run, PR_K_KERNELS)) == 0
                     ? "nor any device task"
                 : pr_fig_run_is_npu(run) &&
                         pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "pytorch")
                     ? "its device tasks have no launching operator: the "
                       "export holds the tasks without the framework's "
                       "operator timeline, as kernel_details.csv without "
                       "trace_view.json"
                 : pr_fig_run_is_npu(run)
                     ? "its device tasks have no launching operator: the "
                       "export holds the tasks without the framework's "
                       "operator timeline"
                     : "its kernels have no launching operator",
                 fops ? "; the tasks' measured operation counts "
                        "(*_cube_fops, *_vector_fops) are in the Kernels "
                        "table's PMU column"
                      : "",
                 dev.name == NULL ? "; nor does it name its device, so its "
                                    "peaks are unknown"
                                  : "");
    else if (!flops && pr_fig_run_is_npu(run))
        snprintf(buf, n,
                 "%s: no operator has a FLOP count (none from its input "
                 "shapes, none from the tasks' PMU counters).",
                 what);
    else if (!flops && pr_fig_run_is_mindspore(run))
        snprintf(buf, n,
                 "%s: no operator has a FLOP count (they need input "
                 "shapes, which this MindSpore export does not record).",
                 what); /* review32a #5: not a PyTorch option */
    else if (!flops && pr_fig_run_is_nsys(summary, run))
        snprintf(buf, n,
                 "%s: no operator has a FLOP count (they need input "
                 "shapes, which PyTorch writes into its NVTX ranges only "
                 "under torch.autograd.profiler.emit_nvtx(record_shapes="
                 "True)).",
                 what); /* issue #28: not torch.profiler's option */
    else if (!flops)
        snprintf(buf, n,
                 "%s: no operator has a FLOP count (they need input "
                 "shapes: record_shapes=True).",
                 what);
    else if (dev.name == NULL)
        snprintf(buf, n,
                 "%s: the trace does not name its device, so its peaks "
                 "are unknown (--device-spec or --peak-tflops give them).",
                 what);
    else if (pr_sget_is(dev.peak_source, PR_K_UNKNOWN))
        snprintf(buf, n,
                 "%s: the peaks of %.80s are not known (--device-spec or "
                 "--peak-tflops give them).",
                 what, dev.name);
    else
        snprintf(buf, n,
                 "%s: %.80s has no peak for the data types the operators "
                 "ran in.",
                 what, dev.name);
    return buf;
}

/* Device total time, descending, then name: qsort's order of the
 * operators with FLOPs on a torch_npu run. */
static int
by_device_total(const void *a, const void *b)
{
    const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
    double u = pr_sget_num(x, PR_K_DEVICE_TOTAL_US);
    double v = pr_sget_num(y, PR_K_DEVICE_TOTAL_US);
    const char *m = pr_sget_str_or(x, PR_K_NAME, "");
    const char *n = pr_sget_str_or(y, PR_K_NAME, "");

    u = isnan(u) ? -1 : u;
    v = isnan(v) ? -1 : v;
    return u != v ? (u < v ? 1 : -1) : strcmp(m, n);
}

/* On an NPU run whose operators with FLOPs launch no task themselves
 * (torch_npu: aten::mm's task is its aclnnMm child's, so its device self
 * time is 0), the operators with FLOPs by device total time, as copies; 0
 * with *out NULL where the run is not such (the summary's order, device
 * self time, stands), -1 on out-of-memory.  Ordered by self time, all 0,
 * npu_db1's roofline kept and named the alphabetically first 20 of 30
 * (review28a #6). */
static int
npu_rows_by_total(const cJSON *run, cJSON **out)
{
    const cJSON *ops = pr_sget(run, PR_K_OPERATORS), *o;
    const cJSON **v;
    size_t n = 0, i;
    int zero_self = 0;

    *out = NULL;
    if (!pr_fig_run_is_npu(run))
        return 0;
    cJSON_ArrayForEach(o, ops)
    {
        if (isnan(pr_sget_num(o, PR_K_ARITHMETIC_INTENSITY)))
            continue;
        n++;
        zero_self |= !(pr_sget_num(o, PR_K_DEVICE_SELF_US) > 0) &&
                     pr_sget_num(o, PR_K_DEVICE_TOTAL_US) > 0;
    }
    if (!zero_self)
        return 0;
    if ((v = calloc(n, sizeof(*v))) == NULL ||
        (*out = cJSON_CreateArray()) == NULL) {
        free(v);
        return -1;
    }
    i = 0;
    cJSON_ArrayForEach(o, ops)
    {
        if (!isnan(pr_sget_num(o, PR_K_ARITHMETIC_INTENSITY)))
            v[i++] = o;
    }
    qsort(v, n, sizeof(*v), by_device_total);
    for (i = 0; i < n; i++) {
        cJSON *c = cJSON_Duplicate(v[i], 1);

        if (c == NULL || !cJSON_AddItemToArray(*out, c)) {
            cJSON_Delete(c);
            cJSON_Delete(*out);
            *out = NULL;
            free(v);
            return -1;
        }
    }
    free(v);
    return 1;
}

int
pr_sec_roof_unbounded(const cJSON *run, const cJSON *rows, const char *what,
                      int names, char *buf, size_t n)
{
    const cJSON *r;
    size_t k = 0, at, left;
    char rate[32];

    if (!pr_fig_run_is_npu(run))
        return 0;
    cJSON_ArrayForEach(r, rows)
    {
        k += !isnan(pr_sget_num(r, PR_K_ARITHMETIC_INTENSITY)) &&
             !isnan(pr_sget_num(r, PR_K_ACHIEVED_TFLOPS)) && cube_no_roof(r);
    }
    if (k == 0)
        return 0;
    left = k;
    at = (size_t)snprintf(
        buf, n,
        "Not drawn: %zu Cube %s%s with no roof at %s data type (the Cube's "
        "peak for it is not known: for fp32 and HF32 none is published, and "
        "an Ascend FP32 roof is the Vector units', not the Cube's)%s",
        k, what, k == 1 ? "" : "s", k == 1 ? "its" : "their", names ? ":" : "");
    k = 0;
    cJSON_ArrayForEach(r, rows)
    {
        if (isnan(pr_sget_num(r, PR_K_ARITHMETIC_INTENSITY)) ||
            isnan(pr_sget_num(r, PR_K_ACHIEVED_TFLOPS)) || !cube_no_roof(r))
            continue;
        if (at >= n || !names)
            break;
        if (k == 3) {
            at += (size_t)snprintf(buf + at, n - at, " and %zu more", left);
            break;
        }
        left--;
        pr_fig_format(pr_sget_num(r, PR_K_ACHIEVED_TFLOPS), PR_FMT_TFLOPS, rate,
                      sizeof(rate));
        at +=
            (size_t)snprintf(buf + at, n - at, "%s %.60s (%s)", k++ ? "," : "",
                             pr_sget_str_or(r, PR_K_NAME, "?"), rate);
    }
    if (at < n)
        snprintf(buf + at, n - at, ".");
    return 1;
}

static void
sec_roofline(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    size_t n_points = 0;
    static const struct pr_sec_roofline spec = {
        "Roofline of the operators",
        "Roofline (operators, first device's peaks)",
        PR_K_DEVICE_SELF_US,
        8,
        NULL,
        0};
    static const struct pr_sec_roofline spec_total = {
        "Roofline of the operators",
        "Roofline (operators, first device's peaks)",
        PR_K_DEVICE_TOTAL_US,
        8,
        NULL,
        0};
    cJSON *by_total = NULL;
    int r = npu_rows_by_total(run, &by_total);
    struct pr_fig_chart *ch =
        r < 0 ? NULL
              : pr_sec_roofline_chart(
                    run, by_total ? by_total : pr_sget(run, PR_K_OPERATORS),
                    by_total ? &spec_total : &spec, &n_points);
    struct pr_fig_table t;
    struct pr_row_device dev;
    char note[480];

    (void)summary;
    if (ch == NULL) {
        cJSON_Delete(by_total);
        pr_figs_nomem(f);
        return;
    }
    if (n_points == 0 || ch->u.roofline.n_roofs == 0) {
        cJSON_Delete(by_total);
        pr_fig_chart_free(ch);
        pr_figs_note(f, pr_sec_roof_missing(summary, run, "No roofline", note,
                                            sizeof(note)));
        return;
    }
    pr_figs_chart(f, ch, 0);
    if (first_device(run, &dev))
        roof_note(f, &dev);
    if (pr_sec_roof_unbounded(
            run, by_total ? by_total : pr_sget(run, PR_K_OPERATORS), "operator",
            1, note, sizeof(note)))
        pr_figs_text(f, note);
    memset(&t, 0, sizeof(t));
    t.view = roof_view;
    t.cols = pr_fig_cols_operators;
    t.rows = pr_sget(run, PR_K_OPERATORS);
    t.require = PR_K_ARITHMETIC_INTENSITY;
    t.what = "operators";
    t.order = "device self time";
    if (by_total == NULL) {
        pr_figs_table(f, "Operators with FLOP estimates", &t, NULL);
        return;
    }
    t.order = "device time (its own and its CANN operators')";
    pr_figs_heading(f, "Operators with FLOP estimates");
    pr_figs_table_own(f, &t, by_total, NULL);
}

/* ---- memory ----------------------------------------------------------- */

/* Copy up to n numbers of a JSON array (non-numbers as 0); NULL on
 * out-of-memory. */
static double *
numbers(const cJSON *a, size_t n)
{
    double *v = calloc(n ? n : 1, sizeof(*v));
    const cJSON *e;
    size_t i = 0;

    if (v == NULL)
        return NULL;
    cJSON_ArrayForEach(e, a)
    {
        if (i == n)
            break;
        v[i++] =
            cJSON_IsNumber(e) && isfinite(e->valuedouble) ? e->valuedouble : 0;
    }
    return v;
}

/* An allocator's name in torch_npu's memory tables, in words. */
static const char *
allocator_words(const char *name)
{
    return name == NULL               ? NULL
           : strcmp(name, "PTA") == 0 ? "PyTorch's caching allocator"
           : strcmp(name, "GE") == 0  ? "CANN's graph engine"
                                      : name;
}

/* Whether the device's peaks are another allocator's than its curve's
 * (memory_record.csv's PTA beside operator_memory.csv's GE rows). */
static int
peak_elsewhere(const cJSON *mdev)
{
    const char *c = pr_sget_str(mdev, PR_K_CURVE_ALLOCATOR);
    const char *p = pr_sget_str(mdev, PR_K_PEAK_ALLOCATOR);

    return c != NULL && p != NULL && strcmp(c, p) != 0;
}

/* A host memory curve whose every point is under this is not drawn. */
#define MEMORY_CURVE_MIN_BYTES (1024.0 * 1024.0)

/* Allocated and reserved memory over time for one device, the peak
 * marked; NULL when the curve has under two points, is a host curve of
 * under MEMORY_CURVE_MIN_BYTES, or on out-of-memory (*nomem set). */
static struct pr_fig_chart *
memory_curve(const cJSON *mdev, int *nomem)
{
    const cJSON *curve = pr_sget(mdev, PR_K_CURVE);
    size_t n = pr_sget_len(pr_sget(curve, PR_K_T_US)), i, peak = 0;
    size_t nr = pr_sget_len(pr_sget(curve, PR_K_RESERVED_BYTES)), reserved;
    double top;
    struct pr_fig_chart *ch;
    struct pr_chart_series *ser;
    double *t, *alloc, *resv;
    char val[48];

    if (pr_sget_len(pr_sget(curve, PR_K_ALLOCATED_BYTES)) < n)
        n = pr_sget_len(pr_sget(curve, PR_K_ALLOCATED_BYTES));
    if (n < 2)
        return NULL;
    ch = pr_fig_chart_new(pr_fig_draw_lines, "Memory over time", 960, 300, 200);
    ser = calloc(2, sizeof(*ser));
    t = numbers(pr_sget(curve, PR_K_T_US), n);
    alloc = numbers(pr_sget(curve, PR_K_ALLOCATED_BYTES), n);
    resv = numbers(pr_sget(curve, PR_K_RESERVED_BYTES), n);
    if (ch == NULL || ser == NULL || t == NULL || alloc == NULL ||
        resv == NULL) {
        free(ser);
        free(t);
        free(alloc);
        free(resv);
        pr_fig_chart_free(ch);
        *nomem = 1;
        return NULL;
    }
    ch->own[0] = ser;
    ch->own[1] = t;
    ch->own[2] = alloc;
    ch->own[3] = resv;
    for (i = 1; i < n; i++)
        if (alloc[i] > alloc[peak])
            peak = i;
    /* a reserve the trace never states draws no line: no legend entry
       for it (review 32g #9b: "Allocated / Reserved" over one line) */
    reserved = 0;
    if (nr >= n) {
        const cJSON *e;

        cJSON_ArrayForEach(e, pr_sget(curve, PR_K_RESERVED_BYTES))
        {
            reserved += cJSON_IsNumber(e);
        }
    }
    /* a host curve of a few bytes (two 8-byte scalars) is noise, not a
       chart (review 32g #9c: Qwen's 16 B CPU peak on a 0-20 B axis); the
       KPI above still gives its peak */
    for (i = 0, top = 0; i < n; i++)
        top = isfinite(alloc[i]) && fabs(alloc[i]) > top ? fabs(alloc[i]) : top;
    if (pr_sget_is(pr_sget_str(mdev, PR_K_DEVICE), "CPU") &&
        top < MEMORY_CURVE_MIN_BYTES) {
        pr_fig_chart_free(ch);
        return NULL;
    }
    ser[0] =
        (struct pr_chart_series){"Allocated", t, alloc, n, 0x0072B2, 1, 1, 0};
    ser[1] =
        (struct pr_chart_series){"Reserved", t, resv, n, 0xE69F00, 0, 1, 0};
    snprintf(ch->title, sizeof(ch->title), "%s%speak %s",
             peak_elsewhere(mdev) ? pr_sget_str(mdev, PR_K_CURVE_ALLOCATOR)
                                  : "",
             peak_elsewhere(mdev) ? " " : "",
             pr_chart_format(alloc[peak], PR_UNIT_BYTES, val, sizeof(val)));
    if (pr_sget_str(mdev, PR_K_CURVE_ALLOCATOR) != NULL)
        snprintf(ch->label, sizeof(ch->label), "Memory over time: %s, %s (%s)",
                 pr_sget_str_or(mdev, PR_K_DEVICE, "?"),
                 pr_sget_str(mdev, PR_K_CURVE_ALLOCATOR),
                 allocator_words(pr_sget_str(mdev, PR_K_CURVE_ALLOCATOR)));
    else
        snprintf(ch->label, sizeof(ch->label), "Memory over time: %s",
                 pr_sget_str_or(mdev, PR_K_DEVICE, "?"));
    ch->u.lines = (struct pr_chart_lines){ch->label,
                                          ser,
                                          reserved > 0 ? 2 : 1,
                                          PR_UNIT_US,
                                          PR_UNIT_BYTES,
                                          "time since the first event",
                                          "memory",
                                          0,
                                          t[peak],
                                          alloc[peak],
                                          ch->title,
                                          NULL,
                                          0};
    return ch;
}

static const struct pr_col live_cols[] = {
    {"name", PR_K_NAME, "Operator", PR_FMT_NAME, 3, NULL, PR_COL_BOTH},
    {"live", PR_K_LIVE_BYTES, "Live at the peak", PR_FMT_BYTES, 1,
     "Bytes of its tensors allocated and not yet freed at the peak",
     PR_COL_BOTH},
    {"tensors", PR_K_TENSORS, "Tensors", PR_FMT_COUNT, 0.7, NULL, PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* Which operators hold the memory at a device's peak, and how much of
 * the peak the trace cannot attribute (allocated before it began). */
static void
live_at_peak(struct pr_figs *f, const cJSON *dev)
{
    struct pr_fig_table t = {.cols = live_cols,
                             .rows = pr_sget(dev, PR_K_TOP_ALLOCATORS_AT_PEAK),
                             .what = "operators"};
    double untraced = pr_sget_num(dev, PR_K_LIVE_AT_PEAK_UNTRACED_BYTES);
    double outside =
        pr_sget_num(dev, PR_K_LIVE_AT_PEAK_OUTSIDE_OPERATORS_BYTES);
    char a[48], b[48], c[48], text[640], head[96], more[240] = "";
    char who[96] = "";

    if (!cJSON_IsArray(t.rows))
        return; /* a summary from before issue #11 */
    snprintf(head, sizeof(head), "Live at the %s peak",
             pr_sget_str_or(dev, PR_K_DEVICE, "?"));
    pr_figs_heading(f, head);
    if (pr_sget_str(dev, PR_K_TOP_ALLOCATORS_NOTE) != NULL &&
        pr_sget_len(t.rows) == 0) {
        pr_figs_note(f, pr_sget_str(dev, PR_K_TOP_ALLOCATORS_NOTE));
        return; /* unknown, not "nothing live" */
    }
    if (outside > 0)
        snprintf(more, sizeof(more),
                 " (%s of them allocated outside any operator)",
                 outside >= pr_sget_num(dev, PR_K_LIVE_AT_PEAK_BYTES)
                     ? "all"
                     : pr_chart_format(outside, PR_UNIT_BYTES, b, sizeof(b)));
    if (peak_elsewhere(dev))
        snprintf(who, sizeof(who), " of %s's allocations (%s)",
                 pr_sget_str(dev, PR_K_CURVE_ALLOCATOR),
                 allocator_words(pr_sget_str(dev, PR_K_CURVE_ALLOCATOR)));
    snprintf(text, sizeof(text),
             "At the peak%s%s%s, %s of the tensors the trace saw allocated "
             "are still live%s. %s",
             /* peak_step is then the peak allocator's, not the curve's */
             who,
             pr_sget_str(dev, PR_K_PEAK_STEP) && !peak_elsewhere(dev) ? " in "
                                                                      : "",
             peak_elsewhere(dev) ? "" : pr_sget_str_or(dev, PR_K_PEAK_STEP, ""),
             pr_chart_format(pr_sget_num(dev, PR_K_LIVE_AT_PEAK_BYTES),
                             PR_UNIT_BYTES, a, sizeof(a)),
             more,
             peak_elsewhere(dev) ? ""
             : isnan(untraced)   ? "The trace records no totals: what was "
                                   "allocated before it began is unknown."
             : untraced > 0      ? "The other "
                                 : "Nothing allocated before the trace "
                                   "adds to the peak.");
    if (peak_elsewhere(dev)) {
        size_t len = strlen(text);
        snprintf(text + len, sizeof(text) - len,
                 "The device's peaks above are %s's (%s, memory_record.csv), "
                 "whose allocations the trace does not itemize, so what "
                 "was allocated before it began is not known.",
                 pr_sget_str(dev, PR_K_PEAK_ALLOCATOR),
                 allocator_words(pr_sget_str(dev, PR_K_PEAK_ALLOCATOR)));
    } else if (!isnan(untraced) && untraced > 0) {
        size_t len = strlen(text);
        snprintf(text + len, sizeof(text) - len,
                 "%s was allocated before the trace began (weights, "
                 "optimizer state, data kept across training steps).",
                 pr_chart_format(untraced, PR_UNIT_BYTES, c, sizeof(c)));
    }
    pr_figs_text(f, text);
    if (pr_sget_str(dev, PR_K_TOP_ALLOCATORS_NOTE) != NULL)
        pr_figs_note(f, pr_sget_str(dev, PR_K_TOP_ALLOCATORS_NOTE));
    /* none in a table: live bytes outside every operator are not
       "nothing live" */
    pr_figs_table(f, NULL, &t,
                  pr_sget_num(dev, PR_K_LIVE_AT_PEAK_BYTES) > 0
                      ? "No operator holds any of them."
                      : "No tensor allocated in the trace is live at the "
                        "peak.");
}

/* The peaks of each memory component torch_npu's memory_record.csv
 * samples (run.npu_memory): the whole process (APP) beside PyTorch's
 * allocator (PTA) and CANN's graph engine (GE), in MindStudio Insight's
 * names. */
static void
npu_components(struct pr_figs *f, const cJSON *run)
{
    const cJSON *c;
    char text[1024], v[48];
    size_t len;

    if (pr_sget_len(pr_sget(pr_sget(run, PR_K_NPU_MEMORY), PR_K_COMPONENTS)) ==
        0)
        return;
    len = (size_t)snprintf(
        text, sizeof(text),
        "Peaks of each memory component (%s; APP: the whole process on "
        "the NPU, PTA: PyTorch's caching allocator, GE: CANN's graph "
        "engine):",
        pr_sget_str_or(pr_sget(run, PR_K_NPU_MEMORY), PR_K_SOURCE,
                       "memory_record.csv"));
    cJSON_ArrayForEach(c,
                       pr_sget(pr_sget(run, PR_K_NPU_MEMORY), PR_K_COMPONENTS))
    {
        double r = pr_sget_num(c, PR_K_PEAK_RESERVED_BYTES);
        double a = pr_sget_num(c, PR_K_PEAK_ALLOCATED_BYTES);

        if (len >= sizeof(text))
            break;
        len += (size_t)snprintf(
            text + len, sizeof(text) - len, "%s %s NPU %.0f %s %s",
            len > 0 && text[len - 1] == ':' ? "" : ";",
            pr_sget_str_or(c, PR_K_COMPONENT, "?"), pr_sget_num(c, PR_K_DEVICE),
            isnan(a) ? "reserved" : "allocated",
            pr_chart_format(isnan(a) ? r : a, PR_UNIT_BYTES, v, sizeof(v)));
        if (!isnan(a) && !isnan(r) && len < sizeof(text))
            len += (size_t)snprintf(
                text + len, sizeof(text) - len, ", reserved %s",
                pr_chart_format(r, PR_UNIT_BYTES, v, sizeof(v)));
    }
    if (len < sizeof(text) - 1)
        snprintf(text + len, sizeof(text) - len, ".");
    pr_figs_text(f, text);
}

/* A run's diagnostics as typed rows (rows.h), owned (free()); none where
 * the table cannot be read (a saved summary's was read whole when
 * loaded). */
static struct pr_row_diagnostic *
diagnostics(const cJSON *run, size_t *n)
{
    void *v = NULL;
    struct pr_error err = {PR_OK, ""};

    if (pr_rows_load(pr_sget(run, PR_K_DIAGNOSTICS), PR_K_DIAGNOSTICS,
                     PR_RO_RUNS_DIAGNOSTICS, &v, n, &err) != PR_OK) {
        *n = 0;
        return NULL;
    }
    return v;
}

/* The reader's own words where it left memory records out (an Ascend
 * db's NPU_OP_MEM rows or operator_memory.csv rows of another capture),
 * or NULL. */
static const char *
memory_outside(const cJSON *run)
{
    size_t n, i;
    struct pr_row_diagnostic *d = diagnostics(run, &n);
    const char *text = NULL;

    for (i = 0; i < n && text == NULL; i++)
        if (d[i].kind != NULL &&
            strcmp(d[i].kind, "npu_op_mem_outside_session") == 0)
            text = d[i].text; /* the tree's own string */
    free(d);
    return text;
}

/* Why a run has no memory view: the reader's own words where it left
 * memory records out (memory_outside) or says how its producer records
 * them (an Nsight Systems export's no_memory: nsys profile
 * --cuda-memory-usage=true), else that the trace has none and the run's
 * profiler's flag that records them (review22g item 12:
 * "profile_memory=True" is torch.profiler's, not nsys's). */
static const char *
memory_left_out(const cJSON *run, char *buf, size_t cap)
{
    size_t n, i;
    struct pr_row_diagnostic *d;
    const char *text = memory_outside(run), *own = NULL;
    const char *fw = pr_sget_str(run, PR_K_FRAMEWORK);

    d = diagnostics(run, &n);
    for (i = 0; i < n; i++)
        if (d[i].kind != NULL && strcmp(d[i].kind, "no_memory") == 0 &&
            d[i].text != NULL && d[i].text[0] != '\0')
            own = d[i].text;
    free(d);
    if (text == NULL && cJSON_IsObject(pr_sget(run, PR_K_MEMORY_TIMELINE)))
        text = "A raw memory timeline ties no allocation to an operator: "
               "its memory by category is in the Memory timeline section.";
    if (text != NULL)
        return text;
    if (own != NULL) {
        snprintf(buf, cap, "%s%s", own, own[strlen(own) - 1] == '.' ? "" : ".");
        if (buf[0] >= 'a' && buf[0] <= 'z')
            buf[0] = (char)(buf[0] - 'a' + 'A');
        return buf;
    }
    if (pr_sget_is(fw, "mindspore"))
        return "No memory events in this trace (MindSpore's Profiler "
               "records them with profile_memory=True).";
    if (pr_sget_is(fw, "pytorch") && pr_fig_run_is_npu(run))
        return "No memory events in this trace (torch_npu.profiler records "
               "them with profile_memory=True).";
    if (pr_sget_is(fw, "pytorch"))
        return "No memory events in this trace (profile_memory=True "
               "records them).";
    return "No memory events in this trace.";
}

static void
sec_memory(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    const cJSON *mem = pr_sget(run, PR_K_MEMORY), *dev;
    struct pr_fig_table t = {.cols = pr_fig_cols_memory,
                             .rows = pr_sget(mem, PR_K_OPERATORS),
                             .what = "operators",
                             .order = "size increase"};
    size_t n = 0;
    char label[96], left_out[512];
    int nomem = 0;

    (void)summary;
    if (!cJSON_IsObject(mem) &&
        pr_sget_len(pr_sget(pr_sget(run, PR_K_NPU_MEMORY), PR_K_COMPONENTS)) >
            0) {
        npu_components(f, run); /* the producer's totals, no allocations */
        if (memory_outside(run) != NULL)
            pr_figs_note(f, memory_outside(run));
        return;
    }
    if (!cJSON_IsObject(mem)) {
        pr_figs_note(f, memory_left_out(run, left_out, sizeof(left_out)));
        return;
    }
    cJSON_ArrayForEach(dev, pr_sget(mem, PR_K_DEVICES))
    {
        const char *name = pr_sget_str_or(dev, PR_K_DEVICE, "?");
        double alloc = pr_sget_num(dev, PR_K_PEAK_ALLOCATED_BYTES);
        double reserved = pr_sget_num(dev, PR_K_PEAK_RESERVED_BYTES);
        double rise = pr_sget_num(dev, PR_K_PEAK_INCREASE_BYTES);

        if (isnan(alloc) && isnan(reserved) && !isnan(rise)) {
            /* no allocator totals (the legacy autograd export): the
             * highest rise over the first record is what the trace allows */
            snprintf(label, sizeof(label), "%s peak increase", name);
            pr_figs_kpi(f, label, rise, PR_FMT_BYTES,
                        "over the first memory record; the trace records "
                        "no allocator totals");
        } else {
            const char *who = pr_sget_str(dev, PR_K_PEAK_ALLOCATOR);
            char note[160] = "";

            if (who != NULL)
                snprintf(note, sizeof(note), "%s: %s%s", who,
                         allocator_words(who),
                         peak_elsewhere(dev) ? " (memory_record.csv)" : "");
            snprintf(label, sizeof(label), "%s peak allocated", name);
            pr_figs_kpi(f, label, alloc, PR_FMT_BYTES, note[0] ? note : NULL);
            snprintf(label, sizeof(label), "%s peak reserved", name);
            pr_figs_kpi(f, label, reserved, PR_FMT_BYTES,
                        isnan(reserved) && !isnan(alloc)
                            ? "not recorded: every record's reserve is 0"
                        : note[0] ? note
                                  : NULL);
        }
        if (n++ < MAX_MEMORY_CHARTS) {
            struct pr_fig_chart *ch = memory_curve(dev, &nomem);
            if (ch != NULL || nomem)
                pr_figs_chart(f, ch, 0);
        }
    }
    npu_components(f, run);
    cJSON_ArrayForEach(dev, pr_sget(mem, PR_K_DEVICES))
    {
        live_at_peak(f, dev);
    }
    pr_figs_table(f, "Allocations by operator", &t, NULL);
}

/* ---- distributed ------------------------------------------------------ */

static const struct pr_col worker_cols[] = {
    {"worker", PR_K_WORKER, "Worker", PR_FMT_NAME, 2, NULL, PR_COL_BOTH},
    {"rank", PR_K_RANK, "Rank", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"computation", PR_K_COMPUTATION_US, "Computation", PR_FMT_US, 1, NULL,
     PR_COL_BOTH},
    {"overlap", PR_K_OVERLAP_US, "Overlap", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"communication", PR_K_COMMUNICATION_US, "Communication", PR_FMT_US, 1,
     NULL, PR_COL_BOTH},
    {"other", PR_K_OTHER_US, "Other", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"comm_overlap", PR_K_COMM_OVERLAP_PCT, "Comm. overlapped", PR_FMT_PCT, 1,
     "Of the communication time, the part computation overlaps: overlap / "
     "(overlap + communication), as HTA's get_comm_comp_overlap",
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static const struct pr_col comm_cols[] = {
    {"name", PR_K_NAME, "Collective", PR_FMT_NAME, 2, NULL, PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_FIGURE, 1.3,
     "Calls of the collective; \"66 (64 timed)\": 2 have no device time in "
     "the trace, and the total and mean time are over the 64",
     PR_COL_BOTH},
    {"bytes", PR_K_TOTAL_BYTES, "Total bytes", PR_FMT_FIGURE, 1.8,
     "The calls' message bytes; \"1.12 GiB (18 of 21 calls)\": the calls "
     "whose size the trace gives, and the bandwidth columns are over them",
     PR_COL_BOTH},
    {"total", PR_K_TOTAL_US, "Total time", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"mean", PR_K_MEAN_US, "Mean", PR_FMT_US, 0.9,
     "Total time over the timed calls", PR_COL_BOTH},
    {"algbw", PR_K_ALGBW_GBPS, "Algorithm bandwidth (per call)", PR_FMT_GBPS, 1,
     "A call's message bytes over its own time, its waits for the other "
     "ranks included: a call that waits for a late rank reads low (over "
     "the producer's transfer time instead where the note under the table "
     "says so: Ascend's Transit Time, MindSpore's communication_cost)",
     PR_COL_BOTH},
    {"busbw", PR_K_BUSBW_GBPS, "Bus bandwidth (per call)", PR_FMT_GBPS, 1,
     "The algorithm bandwidth times the collective's bus factor (2(n-1)/n "
     "for an all-reduce, (n-1)/n for an all-gather or reduce-scatter), "
     "over the call's time, waits included: not the links' transfer rate "
     "(over the producer's transfer time where the note under the table "
     "says so)",
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* distributed.comm_ops as the table's rows, the Calls and Total bytes
 * cells figures: "66 (64 timed)" where some calls have no time in the
 * trace, so that Calls x Mean gives the Total (review 22g #10:
 * nsys_before's 66 all_to_all calls beside a mean over 64), and "1.12 GiB
 * (18 of 21 calls)" where some have no size, the bandwidths then over the
 * calls both sized and timed (#4: HTA's trace_diff test).  NULL when out
 * of memory. */
static cJSON *
comm_rows(const cJSON *ops)
{
    cJSON *rows = cJSON_Duplicate(ops, 1), *o, *by;
    char cell[96], a[32], b[32];

    cJSON_ArrayForEach(o, rows)
    {
        double calls = pr_sget_num(o, PR_K_CALLS),
               timed = pr_sget_num(o, PR_K_TIMED_CALLS),
               sized = pr_sget_num(o, PR_K_SIZED_CALLS),
               bytes = pr_sget_num(o, PR_K_TOTAL_BYTES),
               some = pr_sget_num(o, PR_K_SIZED_BYTES);

        /* the cells' numbers, to sort by (the HTML's data-v) */
        by = cJSON_AddObjectToObject(o, PR_FIG_SORT_BY);
        if (by == NULL ||
            cJSON_AddNumberToObject(by, PR_K_CALLS, calls) == NULL ||
            (!isnan(isnan(bytes) ? some : bytes) &&
             cJSON_AddNumberToObject(by, PR_K_TOTAL_BYTES,
                                     isnan(bytes) ? some : bytes) == NULL))
            break;
        pr_fig_format(calls, PR_FMT_COUNT, a, sizeof(a));
        if (timed == 0 && calls > 0)
            snprintf(cell, sizeof(cell), "%s (none timed)", a);
        else if (!isnan(timed) && timed < calls)
            snprintf(cell, sizeof(cell), "%s (%s timed)", a,
                     pr_fig_format(timed, PR_FMT_COUNT, b, sizeof(b)));
        else
            snprintf(cell, sizeof(cell), "%s", a);
        if (!pr_sput_str(o, PR_K_CALLS, cell))
            break;
        pr_fig_format(isnan(bytes) ? some : bytes, PR_FMT_BYTES, b, sizeof(b));
        if (isnan(bytes) && sized > 0 && sized < calls && !isnan(some))
            snprintf(cell, sizeof(cell), "%s (%.0f of %.0f calls)", b, sized,
                     calls);
        else
            snprintf(cell, sizeof(cell), "%s", b);
        if (!pr_sput_str(o, PR_K_TOTAL_BYTES, cell))
            break;
    }
    if (o != NULL) {
        cJSON_Delete(rows);
        return NULL;
    }
    return rows;
}

/* The bandwidth columns are nccl-tests' per-call definitions (algBw: a
 * call's bytes over its own time; busBw: algBw times the collective's
 * factor).  Calls in flight together share the link (HTA's cpu_only: two
 * gloo buckets at once), so where a run's calls overlap a note gives
 * their bytes over the time any was in flight (communication.ops[]
 * wall_gbps), the rate the link carried. */
static void
in_flight(struct pr_figs *f, const cJSON *summary)
{
    const cJSON *r, *o;
    char text[800], b[32], w[32], g[32], a[32], s1[32], s2[32], t1[32], t2[32];
    size_t len;

    cJSON_ArrayForEach(r, pr_sget(summary, PR_K_RUNS))
    {
        cJSON_ArrayForEach(o, pr_sget(pr_sget(r, PR_K_COMMUNICATION), PR_K_OPS))
        {
            double n = pr_sget_num(o, PR_K_IN_FLIGHT_MAX);

            if (!(n > 1))
                continue;
            snprintf(text, sizeof(text),
                     "%s (%s): up to %.0f calls in flight at once. The "
                     "bandwidth columns are per call (nccl-tests' algBw, a "
                     "call's bytes over its own time: %s); together the "
                     "calls moved %s in %s of wall time, %s.",
                     pr_sget_str_or(o, PR_K_NAME, "?"),
                     pr_sget_str_or(r, PR_K_WORKER, "?"), n,
                     pr_fig_format(pr_sget_num(o, PR_K_ALGBW_GBPS), PR_FMT_GBPS,
                                   a, sizeof(a)),
                     pr_fig_format(pr_sget_num(o, PR_K_TOTAL_BYTES),
                                   PR_FMT_BYTES, b, sizeof(b)),
                     pr_fig_format(pr_sget_num(o, PR_K_WALL_US), PR_FMT_US, w,
                                   sizeof(w)),
                     pr_fig_format(pr_sget_num(o, PR_K_WALL_GBPS), PR_FMT_GBPS,
                                   g, sizeof(g)));
            /* time against size (review-5 finding 3): where the calls'
               time does not follow their bytes, no rate here is the
               link's; the Recommendations say so */
            len = strlen(text);
            if (pr_sget_num(o, PR_K_SMALL_CALLS) > 0 &&
                pr_sget_str(o, PR_K_SIZE_NOTE) == NULL)
                snprintf(
                    text + len, sizeof(text) - len,
                    " By size: %.0f calls of %s take %s on average and %.0f "
                    "calls "
                    "of %s take %s; a call whose time does not grow "
                    "with its bytes is not limited by the link's bandwidth.",
                    pr_sget_num(o, PR_K_SMALL_CALLS),
                    pr_fig_format(pr_sget_num(o, PR_K_SMALL_BYTES),
                                  PR_FMT_BYTES, s1, sizeof(s1)),
                    pr_fig_format(pr_sget_num(o, PR_K_SMALL_US), PR_FMT_US, t1,
                                  sizeof(t1)),
                    pr_sget_num(o, PR_K_LARGE_CALLS),
                    pr_fig_format(pr_sget_num(o, PR_K_LARGE_BYTES),
                                  PR_FMT_BYTES, s2, sizeof(s2)),
                    pr_fig_format(pr_sget_num(o, PR_K_LARGE_US), PR_FMT_US, t2,
                                  sizeof(t2)));
            pr_figs_note(f, text);
        }
    }
}

/* 1 when the "; "-separated clause [c, c + n) is one of note's. */
static int
has_clause(const char *note, const char *c, size_t n)
{
    const char *p = note;

    while (p != NULL && *p != '\0') {
        const char *end = strstr(p, "; ");
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);

        if (len == n && memcmp(p, c, n) == 0)
            return 1;
        p = end != NULL ? end + 2 : NULL;
    }
    return 0;
}

/* The communication note of an NPU run (its sizes read from link bytes,
 * what the rates are over, a task list shorter than the producer's), or
 * NULL. */
static const char *
npu_comm_note(const cJSON *r)
{
    const char *n = pr_sget_str(pr_sget(r, PR_K_COMMUNICATION), PR_K_NOTE);

    return pr_fig_run_is_npu(r) && n != NULL && n[0] != '\0' ? n : NULL;
}

/* The clauses of `note` that every other NPU run's note holds too
 * (common != 0), or that it alone holds (common == 0), joined by "; "
 * into a new string (NULL: none, or no memory).  A job's ranks read
 * their sizes alike: ms_cluster4's ~110-word note on HCCL's link sizes
 * was printed once a rank, three times, but for its counts (review32a
 * #8); said once, each rank keeps its own clauses. */
static char *
clauses(const cJSON *summary, const char *note, int common)
{
    size_t cap = strlen(note) + 1, len = 0;
    char *out = malloc(cap);
    const char *p = note;

    if (out == NULL)
        return NULL;
    out[0] = '\0';
    while (p != NULL && *p != '\0') {
        const char *end = strstr(p, "; ");
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        const cJSON *r;
        int all = 1;

        cJSON_ArrayForEach(r, pr_sget(summary, PR_K_RUNS))
        {
            const char *o = npu_comm_note(r);

            if (o != NULL && o != note && !has_clause(o, p, n))
                all = 0;
        }
        if (all == common && len + (len > 0 ? 2 : 0) + n + 1 <= cap) {
            if (len > 0) {
                memcpy(out + len, "; ", 2);
                len += 2;
            }
            memcpy(out + len, p, n);
            len += n;
            out[len] = '\0';
        }
        p = end != NULL ? end + 2 : NULL;
    }
    if (len == 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* `shared` (clauses()'s, common) with " on each rank" after each count
 * of calls ("2 call(s)", "of its 4 calls"): the ranks' notes hold the
 * clause alike, so its counts are each rank's, not the ranks' together
 * (issue #30: old2023's "rank0, rank1: ... 2 call(s) whose operation
 * sent under 1 MiB are not rated" beside a combined row of 4 calls); a
 * new string, NULL on no memory. */
static char *
each_rank(const char *shared)
{
    static const char on[] = " on each rank";
    static const char *const words[] = {" call(s)", " calls"};
    size_t cap = strlen(shared) + 1, n = 0, len = 0, k;
    const char *p;
    char *out;

    for (k = 0; k < 2; k++)
        for (p = strstr(shared, words[k]); p != NULL;
             p = strstr(p + 1, words[k]))
            n++;
    cap += n * (sizeof(on) - 1);
    out = malloc(cap);
    if (out == NULL)
        return NULL;
    for (p = shared; *p != '\0';) {
        size_t w = 0;

        for (k = 0; k < 2 && w == 0; k++)
            if (strncmp(p, words[k], strlen(words[k])) == 0 && p > shared &&
                isdigit((unsigned char)p[-1]))
                w = strlen(words[k]);
        if (w == 0) {
            out[len++] = *p++;
            continue;
        }
        memcpy(out + len, p, w);
        len += w;
        p += w;
        memcpy(out + len, on, sizeof(on) - 1);
        len += sizeof(on) - 1;
    }
    out[len] = '\0';
    return out;
}

/* A note of `who` (NULL: none): "who: Text." ("who: text." where
 * `upper` is 0: a clause that opens with an operation's name). */
static void
npu_note(struct pr_figs *f, const char *who, const char *n, int upper)
{
    size_t cap = (who ? strlen(who) : 0) + strlen(n) + 8;
    char *text = malloc(cap);

    if (text == NULL)
        return;
    snprintf(text, cap, "%s%s%c%s.", who ? who : "", who ? ": " : "",
             upper ? toupper((unsigned char)n[0]) : n[0], n + 1);
    pr_figs_note(f, text);
    free(text);
}

/* The collectives' readings beside their table (review 6 #5): where a
 * collective's time does not grow with its size (comm.c's size_note), and
 * once a run where its NCCL kernels are named for LL on large calls
 * (protocol_note); the terminal prints the same notes (pipeline.c).  An
 * NPU job's communication notes say what its ranks share once. */
static void
comm_readings(struct pr_figs *f, const cJSON *summary)
{
    const cJSON *r, *o, *c;
    char text[1200];
    int many = pr_sget_len(pr_sget(summary, PR_K_RUNS)) > 1;
    size_t noted = 0;
    char *shared = NULL;
    const char *first = NULL;

    /* the clauses every NPU rank's note holds, once, under their names */
    cJSON_ArrayForEach(r, pr_sget(summary, PR_K_RUNS))
    {
        if (npu_comm_note(r) != NULL && noted++ == 0)
            first = npu_comm_note(r);
    }
    if (many && noted > 1)
        shared = clauses(summary, first, 1);
    if (shared != NULL) {
        char *e = each_rank(shared);

        free(shared);
        shared = e;
    }
    if (shared != NULL) {
        size_t cap = 64, len = 0;
        char *who = malloc(cap);

        cJSON_ArrayForEach(r, pr_sget(summary, PR_K_RUNS))
        {
            const char *w = pr_sget_str_or(r, PR_K_WORKER, "?");

            if (who == NULL || npu_comm_note(r) == NULL)
                continue;
            if (len + strlen(w) + 3 > cap) {
                char *g = realloc(who, 2 * cap + strlen(w));

                if (g == NULL) {
                    free(who);
                    who = NULL;
                    continue;
                }
                who = g;
                cap = 2 * cap + strlen(w);
            }
            len += (size_t)snprintf(who + len, cap - len, "%s%s",
                                    len > 0 ? ", " : "", w);
        }
        if (who != NULL)
            npu_note(f, who, shared, 1);
        free(who);
    }
    cJSON_ArrayForEach(r, pr_sget(summary, PR_K_RUNS))
    {
        c = pr_sget(r, PR_K_COMMUNICATION);
        cJSON_ArrayForEach(o, pr_sget(c, PR_K_OPS))
        {
            /* some calls sized: which, and what the rates are over
               (review 22g #4) */
            if (pr_sget_str(o, PR_K_SIZED_NOTE) != NULL) {
                snprintf(text, sizeof(text), "%s%s%s",
                         many ? pr_sget_str_or(r, PR_K_WORKER, "?") : "",
                         many ? ", " : "", pr_sget_str(o, PR_K_SIZED_NOTE));
                pr_figs_note(f, text);
            }
            if (pr_sget_str(o, PR_K_SIZE_NOTE) == NULL)
                continue;
            snprintf(text, sizeof(text), "%s%s%s",
                     many ? pr_sget_str_or(r, PR_K_WORKER, "?") : "",
                     many ? ", " : "", pr_sget_str(o, PR_K_SIZE_NOTE));
            pr_figs_note(f, text);
        }
        /* an Ascend rank's: sizes from link bytes (review 20 #1), or a
           task list the producer's operation list shows incomplete (#3) */
        if (npu_comm_note(r) != NULL && shared == NULL)
            npu_note(f, many ? pr_sget_str_or(r, PR_K_WORKER, "?") : NULL,
                     npu_comm_note(r), 1);
        else if (npu_comm_note(r) != NULL) {
            char *own = clauses(summary, npu_comm_note(r), 0);

            /* capitalised but where it opens with an operation's name
               ("hccl:all_reduce: ..."): old2023's ranks differ from the
               first clause on, "rank0: The trace gives ..." */
            if (own != NULL)
                npu_note(f, pr_sget_str_or(r, PR_K_WORKER, "?"), own,
                         strcspn(own, ": ") == strcspn(own, " "));
            free(own);
        }
        if (pr_sget_str(c, PR_K_PROTOCOL_NOTE) != NULL) {
            snprintf(text, sizeof(text), "%s%s%s",
                     many ? pr_sget_str_or(r, PR_K_WORKER, "?") : "",
                     many ? ": " : "", pr_sget_str(c, PR_K_PROTOCOL_NOTE));
            pr_figs_note(f, text);
        }
    }
    free(shared);
}

/* {sev, title, text, code} callouts, one per element of `arr`; an NPU
 * run's ids in its words (pr_fig_id_npu). */
static cJSON *
items_of(const cJSON *arr, const char *title_prefix, const char *title_key,
         const char *text_key, const char *code_key, int npu)
{
    cJSON *items = cJSON_CreateArray();
    const cJSON *e;
    char title[300], id[128];

    cJSON_ArrayForEach(e, arr)
    {
        cJSON *o = cJSON_CreateObject();
        const char *sev = pr_sget_str(e, PR_K_SEVERITY);
        snprintf(title, sizeof(title), "%s%s", title_prefix,
                 title_key ? pr_sget_str_or(e, title_key, "?") : "");
        const char *code = code_key ? pr_sget_str_or(e, code_key, "") : "";

        if (npu)
            code = pr_fig_id_npu(code, id, sizeof(id));
        if (o == NULL || items == NULL || !cJSON_AddItemToArray(items, o) ||
            !cJSON_AddStringToObject(o, "sev", sev ? sev : "warning") ||
            !cJSON_AddStringToObject(o, PR_K_TITLE, title) ||
            !cJSON_AddStringToObject(o, PR_K_TEXT,
                                     pr_sget_str_or(e, text_key, "")) ||
            !cJSON_AddStringToObject(o, "code", code)) {
            cJSON_Delete(items);
            return NULL;
        }
    }
    return items;
}

/* The stragglers, worst first (distributed.c): the first
 * MAX_STRAGGLERS as callouts, the rest in one line, so that a job where
 * half the ranks compute more than the median (two kinds of rank) keeps
 * its report the same length at any world size. */
static void
stragglers(struct pr_figs *f, const cJSON *all)
{
    size_t n = pr_sget_len(all), i = 0;
    cJSON *shown = cJSON_CreateArray();
    const cJSON *e;
    char text[320];

    if (n == 0 || shown == NULL) {
        cJSON_Delete(shown);
        return;
    }
    cJSON_ArrayForEach(e, all)
    {
        if (i++ == MAX_STRAGGLERS)
            break;
        cJSON_AddItemReferenceToArray(shown, (cJSON *)(uintptr_t)e);
    }
    pr_figs_items(
        f, items_of(shown, "Straggler: ", PR_K_WORKER, PR_K_REASON, NULL, 0));
    cJSON_Delete(shown);
    if (n <= MAX_STRAGGLERS)
        return;
    snprintf(text, sizeof(text),
             "%zu more rank%s also compute%s at least 5%% above the median "
             "while the others wait: the summary's distributed.stragglers "
             "lists every one.",
             n - MAX_STRAGGLERS, n - MAX_STRAGGLERS == 1 ? "" : "s",
             n - MAX_STRAGGLERS == 1 ? "s" : "");
    pr_figs_text(f, text);
}

/* "World size 8." and where it comes from when it is a lower bound, or
 * that the traces do not say it. */
static void
world_text(const cJSON *d, int capture, int mixed, char *text, size_t cap)
{
    double w = pr_sget_num(d, PR_K_WORLD_SIZE);
    const char *src = pr_sget_str(d, PR_K_WORLD_SIZE_SOURCE);
    /* no rank has steps: each one's figures are its capture's (issue #29) */
    const char *times =
        capture ? " No rank has steps: times are over each rank's capture."
        : mixed ? " Times are per step, averaged over steps; a rank without "
                  "steps: over its capture."
                : " Times are per step, averaged over steps.";
    /* one rank: its own trace (old2023's rank 0 alone: at least 9) */
    int one = pr_sget_num(d, PR_K_RANKS_PRESENT) == 1;

    if (isnan(w) && pr_sget_num(d, PR_K_WORLD_SIZE_AT_LEAST) > 0)
        snprintf(text, cap,
                 "The %s the world size: at least %.0f, the ranks %s "
                 "communication links name.%s",
                 one ? "trace does not say" : "traces do not say",
                 pr_sget_num(d, PR_K_WORLD_SIZE_AT_LEAST),
                 one ? "its" : "their", times);
    else if (isnan(w))
        snprintf(text, cap, "The traces do not say the world size.%s", times);
    else if (src != NULL && strcmp(src, "communication groups") == 0)
        snprintf(text, cap,
                 "World size %.0f, from the communication groups (the "
                 "largest the ranks' files show: the job may hold more).%s",
                 w, times);
    else
        snprintf(text, cap, "World size %.0f.%s", w, times);
}

static void
sec_distributed(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    const cJSON *d = pr_sget(summary, PR_K_DISTRIBUTED);
    const cJSON *workers = pr_sget(d, PR_K_WORKERS);
    struct pr_fig_table t = {
        .cols = worker_cols, .rows = workers, .what = "workers"};
    char text[300], job[64];
    const cJSON *r;
    int npu = 0, capture = pr_fig_summary_is_capture(summary);
    int mixed = pr_fig_summary_is_mixed(summary);

    (void)run;
    cJSON_ArrayForEach(r, pr_sget(summary, PR_K_RUNS))
    {
        npu |= pr_fig_run_is_npu(r);
    }
    if (!cJSON_IsObject(d) && !pr_fig_summary_older(summary) &&
        pr_fig_job_without_view(summary, job, sizeof(job))) {
        /* a rank of a job of whose trace no collective was read
           (msprof_full_db: HCCL tasks to ranks 0 to 7, no rank, an empty
           COMMUNICATION_OP) */
        snprintf(text, sizeof(text),
                 "No distributed view: no collective call was read from "
                 "the trace (a producer's step table may give a "
                 "communication total, not split by collective), though "
                 "its runs are ranks of a job (%s).",
                 job);
        pr_figs_note(f, text);
        return;
    }
    if (!cJSON_IsObject(d) &&
        pr_fig_job_without_view(summary, job, sizeof(job))) {
        snprintf(text, sizeof(text),
                 "No distributed view in this summary, though its runs are "
                 "ranks of a job (%s): it was written by an older "
                 "profreport (Data quality says what it lacks); run "
                 "profreport on the traces again for the view.",
                 job);
        pr_figs_note(f, text);
        return;
    }
    if (!cJSON_IsObject(d) && pr_fig_world_unknown(summary)) {
        pr_figs_note(f, "Not known whether this was one process of a job: "
                        "the summary, written by an older profreport, "
                        "records no world size (Data quality says what it "
                        "lacks); run profreport on the traces again for "
                        "the view.");
        return;
    }
    if (!cJSON_IsObject(d)) {
        pr_figs_note(f, "Single process: no distributed data in this "
                        "trace.");
        return;
    }
    world_text(d, capture, mixed, text, sizeof(text));
    pr_figs_text(f, text);
    if (pr_sget_len(workers) > 0)
        pr_figs_chart(
            f,
            pr_sec_stacked_rows(
                workers, PR_K_WORKER, NULL,
                npu ? pr_sec_npu_overlap : pr_keys_overlap, PR_N_OVERLAP,
                npu && capture ? "Time over the capture by rank"
                : npu && mixed ? "Time per step (or over the capture) by "
                                 "rank"
                : npu          ? "Time per step by rank"
                : capture      ? "Time over the capture by worker"
                : mixed        ? "Time per step (or over the "
                                 "capture) by worker"
                               : "Time per step by worker",
                0),
            0);
    if (npu)
        pr_sec_npu_workers(f, workers, capture, mixed);
    else
        pr_figs_table(f, "Workers", &t, NULL);
    t = (struct pr_fig_table){.cols = comm_cols,
                              .rows = pr_sget(d, PR_K_COMM_OPS),
                              .what = "collectives",
                              .order = "total time"};
    /* every call the capture holds, inside the steps or not (HTA's
       cpu_only: 10 gloo calls, 2 of them in its one step): the title
       says so beside per-step figures (review finding 12); the rows sum
       the ranks' calls (distributed.c), which the caption says where
       there are several (issue #29 review: CS336's DDP export, "222
       calls" were 111 a rank) */
    if (pr_sget_len(pr_sget(d, PR_K_COMM_OPS)) > 0) {
        if (pr_sget_len(pr_sget(summary, PR_K_RUNS)) > 1)
            t.order = "total time; every rank's calls summed";
        pr_figs_heading(f, capture ? "Collectives over the whole capture"
                                   : "Collectives over the whole capture (not "
                                     "only the steps)");
        pr_figs_table_own(f, &t, comm_rows(pr_sget(d, PR_K_COMM_OPS)), NULL);
    }
    in_flight(f, summary);
    comm_readings(f, summary);
    pr_sec_links(f, d);
    if (npu)
        pr_sec_npu_comm(f, summary);
    stragglers(f, pr_sget(d, PR_K_STRAGGLERS));
}

/* ---- recommendations, data quality ------------------------------------ */

/* 1 when a diagnostic of the run says the trace lacks something a check
 * needs (kinds "no_...": no GPU info, no shapes, no steps ...), or that
 * the tasks it lists are not all the run's: an extract of the task list
 * (utilization, idle and the path not known), a task list that covers
 * part of the step table's device time, a record left unread. */
static int
lacks_data(const cJSON *run)
{
    size_t n, i;
    struct pr_row_diagnostic *d = diagnostics(run, &n);
    int lacks = 0;

    for (i = 0; i < n && !lacks; i++)
        lacks =
            d[i].kind != NULL && (strncmp(d[i].kind, "no_", 3) == 0 ||
                                  strcmp(d[i].kind, "task_list_extract") == 0 ||
                                  strcmp(d[i].kind, "tasks_incomplete") == 0 ||
                                  strcmp(d[i].kind, "csv_ragged_rows") == 0);
    free(d);
    return lacks;
}

/* The observations as items: each one's text, then why no gain is
 * estimated (its gain_note, as a sentence of its own). */
static cJSON *
observation_items(const cJSON *obs, int npu)
{
    cJSON *items = items_of(obs, "", PR_K_TITLE, PR_K_TEXT, PR_K_ID, npu), *it;
    const cJSON *o = obs != NULL ? obs->child : NULL;
    cJSON *v;
    char *text;

    cJSON_ArrayForEach(it, items)
    {
        const char *t = pr_sget_str_or(o, PR_K_TEXT, "");
        const char *why = pr_sget_str(o, PR_K_GAIN_NOTE);
        size_t n = strlen(t) + (why != NULL ? strlen(why) : 0) + 4;

        o = o->next;
        if (why == NULL || why[0] == '\0')
            continue;
        text = malloc(n);
        if (text == NULL) {
            cJSON_Delete(items);
            return NULL;
        }
        snprintf(text, n, "%s %s%s", t, why,
                 why[strlen(why) - 1] == '.' ? "" : ".");
        if (text[strlen(t) + 1] >= 'a' && text[strlen(t) + 1] <= 'z')
            text[strlen(t) + 1] = (char)(text[strlen(t) + 1] - 'a' + 'A');
        v = cJSON_CreateString(text);
        free(text);
        if (v == NULL || !pr_sput(it, PR_K_TEXT, v)) {
            cJSON_Delete(v);
            cJSON_Delete(items);
            return NULL;
        }
    }
    return items;
}

static void
sec_recommendations(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    const cJSON *recs = pr_sget(run, PR_K_RECOMMENDATIONS);
    const cJSON *obs = pr_sget(run, PR_K_OBSERVATIONS);

    (void)summary;
    /* "nothing stood out" only where the checks could run: a trace that
     * lacks what some need (an nsys export without GPU info or shapes)
     * says so instead of sounding clean */
    if (pr_sget_len(recs) == 0 && pr_sget_len(obs) == 0 && lacks_data(run)) {
        pr_figs_note(f, "No recommendation fired on what this trace records, "
                        "but some checks could not run: Data quality below "
                        "says what is missing and how to record it.");
        return;
    }
    if (pr_sget_len(recs) == 0 && pr_sget_len(obs) == 0) {
        pr_figs_note(f, "No recommendations: nothing stood out in this run.");
        return;
    }
    if (pr_sget_len(recs) > 0)
        pr_figs_items(f, items_of(recs, "", NULL, PR_K_TEXT, PR_K_ID, f->npu));
    else
        pr_figs_note(f, "Nothing to rank by gain: no replay or model puts a "
                        "saving on what this trace shows (below).");
    if (pr_sget_len(obs) == 0)
        return;
    /* findings without a gain (issue #31): apart from the ranked changes,
       each with why no saving is estimated and the most it could be */
    pr_figs_heading(f, "Not estimated");
    pr_figs_text(f, pr_sget_run_is_capture(run)
                        ? "Findings the trace shows, each with why no saving "
                          "is estimated and, where known, the most a change "
                          "could save over the capture."
                        : "Findings the trace shows, each with why no saving "
                          "is estimated and, where known, the most a change "
                          "could save a step.");
    pr_figs_items(f, observation_items(obs, f->npu));
}

static const struct pr_col input_cols[] = {
    {"file", PR_K_PATH, "File", PR_FMT_FILE, 3, NULL, PR_COL_BOTH},
    {"format", PR_K_FORMAT, "Format", PR_FMT_TEXT, 0.8, NULL, PR_COL_BOTH},
    {"worker", PR_K_WORKER, "Worker", PR_FMT_TEXT, 1.2, NULL, PR_COL_BOTH},
    {"bytes", PR_K_BYTES, "Parsed", PR_FMT_BYTES, 0.9, NULL, PR_COL_BOTH},
    {"events", PR_K_EVENTS, "Events", PR_FMT_COUNT, 0.9, NULL, PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static const struct pr_col diag_cols[] = {
    {"count", PR_K_COUNT, "Count", PR_FMT_RECORDS, 0.8,
     "Records the note concerns; whole input: the note is about the "
     "whole input",
     PR_COL_BOTH},
    {"kind", PR_K_KIND, "Kind", PR_FMT_TEXT, 1.4, NULL, PR_COL_BOTH},
    {"text", PR_K_TEXT, "What was skipped or guessed", PR_FMT_WRAP, 4, NULL,
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static void
sec_data_quality(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    const cJSON *runs = pr_sget(summary, PR_K_RUNS), *r;
    struct pr_fig_table t = {.cols = input_cols,
                             .rows = pr_sget(summary, PR_K_INPUTS),
                             .what = "input files"};
    char label[256];

    (void)run;
    pr_figs_table(f, "Inputs", &t, "No input files recorded in this summary.");
    cJSON_ArrayForEach(r, runs)
    {
        if (pr_sget_len(runs) > 1)
            pr_figs_part(f, pr_fig_run_label(r, label, sizeof(label)), NULL);
        t = (struct pr_fig_table){.cols = diag_cols,
                                  .rows = pr_sget(r, PR_K_DIAGNOSTICS),
                                  .what = "issues"};
        pr_figs_table(f, "Data-quality notes", &t,
                      "No data-quality issues recorded for this run.");
    }
}

/* ---- the table -------------------------------------------------------- */

/* Sections of files of their own (sec_*.c), one line each. */
extern const struct pr_section pr_section_job, pr_section_hostdev;
extern const struct pr_section pr_section_layers;
extern const struct pr_section pr_section_attribution;
extern const struct pr_section pr_section_critpath;
extern const struct pr_section pr_section_verdict;
extern const struct pr_section pr_section_memtl;

/* The report's sections in order: a row each, as a compound literal for
 * the sections of this file or a pointer to a file's own. */
const struct pr_section *const pr_report_sections[] = {
    &pr_section_verdict,
    &pr_section_job,
    &pr_section_memtl, /* a raw memory timeline: the whole of its run */
    &(const struct pr_section){"overview", "Overview", NULL, 1, sec_overview,
                               NULL, NULL},
    &pr_section_critpath,
    &(const struct pr_section){
        "operators", "Operators",
        "Top operators by device self time: the device time of kernels an "
        "operator launched itself.",
        1, sec_operators, NULL,
        "Top operators by host self time: the time an operator ran on the "
        "CPU itself, less the operators it called."},
    &(const struct pr_section){
        "source", "Source",
        "Operator time by the line of your code that called it: the innermost "
        "frame outside torch, site-packages and the standard library. "
        "Backward operators count for the forward line that made them.",
        1, sec_sources, NULL, NULL},
    &(const struct pr_section){
        "modules", "Modules",
        "Time per nn.Module instance, as the tree of modules that called each "
        "other (a submodule indented under its caller), and per module type.",
        1, sec_modules, NULL, NULL},
    &(const struct pr_section){"kernels", "Kernels", NULL, 1, sec_kernels,
                               pr_fig_has_device, NULL},
    &pr_section_attribution,
    &pr_section_hostdev,
    &(const struct pr_section){"tensor-cores", "Tensor cores", NULL, 1,
                               sec_tensor_cores, pr_fig_has_device, NULL},
    &(const struct pr_section){
        "roofline", "Roofline",
        "Achieved throughput against the device's peaks. Points under the "
        "slanted roof are limited by memory bandwidth, under the flat roofs by "
        "compute; the farther below a roof, the more headroom.",
        1, sec_roofline, pr_fig_has_device, NULL},
    &pr_section_layers,
    &(const struct pr_section){"memory", "Memory", NULL, 1, sec_memory, NULL,
                               NULL},
    &(const struct pr_section){"distributed", "Distributed", NULL, 0,
                               sec_distributed, NULL, NULL},
    &(const struct pr_section){"recommendations", "Recommendations", NULL, 1,
                               sec_recommendations, NULL, NULL},
    &(const struct pr_section){"data-quality", "Data quality", NULL, 0,
                               sec_data_quality, NULL, NULL},
};

const char *
pr_section_id(const struct pr_section *s, const cJSON *summary)
{
    if (strcmp(s->id, "tensor-cores") == 0 && pr_fig_summary_is_npu(summary))
        return "cube-vector";
    return s->id;
}

const char *
pr_section_title(const struct pr_section *s, const cJSON *summary)
{
    /* the tensor-core section of an NPU job is its Cube's (issue #30) */
    if (strcmp(s->id, "tensor-cores") == 0 && pr_fig_summary_is_npu(summary))
        return "Cube and Vector";
    /* an AMD or MTIA job's: its matrix units' (review 28h #12) */
    if (strcmp(s->id, "tensor-cores") == 0 &&
        pr_fig_summary_units(summary) != PR_UNITS_CUDA)
        return pr_fig_words(pr_fig_summary_units(summary))->tc_title;
    return s->title;
}

int
pr_fig_memtl_only(const cJSON *summary)
{
    const cJSON *run;
    int n = 0;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (!cJSON_IsObject(pr_sget(run, PR_K_MEMORY_TIMELINE)))
            return 0;
        n++;
    }
    return n > 0;
}

int
pr_section_present(const struct pr_section *s, const cJSON *summary)
{
    /* a raw memory timeline holds nothing the other sections read: they
       are left out, not shown empty or as zeros */
    if (pr_fig_memtl_only(summary))
        return strcmp(s->id, "memory_timeline") == 0 ||
               strcmp(s->id, "data-quality") == 0;
    return s->present == NULL || s->present(summary);
}

const size_t pr_report_n_sections =
    sizeof(pr_report_sections) / sizeof(pr_report_sections[0]);
