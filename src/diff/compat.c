/* compat.c - whether two runs can be compared, said beside the figures
 * (issue #32): a run without step markers (its whole capture one "step")
 * against a per-step mean, a GPU run against a CPU-only run, operator and
 * kernel sets that barely overlap.  The step figures of a pair whose
 * steps were made differently are marked not comparable, so the gates
 * skip them instead of calling a +191% "regression"; the other mismatches
 * are warnings that mark the verdict.  Also the operators and kernels
 * added and deleted between the runs, as HTA's ops_diff lists them. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/contract.h"
#include "profreport/diff_match.h"
#include "profreport/sget.h"

static int ascend_run(const cJSON *run);

#define NOMEM(err) pr_error_set(err, PR_E_NOMEM, "out of memory")

/* Names in both runs under this share of all names (and of the time) is
 * "barely overlap": two builds of one model keep most of their operator
 * names even across a compiler change (HTA's control/test pair keeps
 * 85% of the operator names that have device time). */
#define OVERLAP_MIN_PCT 20.0

static int
add_warning(cJSON *list, const char *text)
{
    cJSON *s = cJSON_CreateString(text);

    if (s == NULL || !cJSON_AddItemToArray(list, s)) {
        cJSON_Delete(s);
        return 0;
    }
    return 1;
}

/* The run's devices in words: "NVIDIA A100-SXM4-40GB" (the first device
 * named, "+N more" after it), "a device" when none is named, or NULL for
 * a run that recorded no device work (no device, no kernel). */
static const char *
devices_text(const cJSON *run, char *buf, size_t n)
{
    const cJSON *devs = pr_sget(run, PR_K_DEVICES);
    const cJSON *first = cJSON_GetArrayItem(devs, 0);
    int k = cJSON_GetArraySize(devs);
    int kernels = cJSON_GetArraySize(pr_sget(run, PR_K_KERNELS));

    if (k == 0 && kernels == 0)
        return NULL;
    if (pr_dj_str(first, PR_K_NAME) == NULL) {
        snprintf(buf, n, "%s", k > 1 ? "several devices" : "a device");
        return buf;
    }
    if (k > 1)
        snprintf(buf, n, "%s (+%d more)", pr_dj_str(first, PR_K_NAME), k - 1);
    else
        snprintf(buf, n, "%s", pr_dj_str(first, PR_K_NAME));
    return buf;
}

/* "8 ProfilerSteps", "3 named steps", "no step markers (its whole
 * capture is one step)". */
static void
steps_text(enum pr_dstep_source s, size_t n, char *buf, size_t size)
{
    if (s == PR_DSTEPS_NONE)
        snprintf(buf, size, "no step markers (its whole capture is one step)");
    else
        snprintf(buf, size, "%zu %s%s", n, pr_dstep_source_text(s),
                 s == PR_DSTEPS_PROFILER && n != 1 ? "s" : "");
}

/* Whether a metric's denominator (or clip) is the run's window: the
 * step figures, the breakdown, and the per-device figures that divide by
 * the window (utilization, SM efficiency) or clip to it (occupancy,
 * tb-plugin-semantics.md 9.1-9.3) (review 19 #1). */
static int
window_metric(const char *m)
{
    return strncmp(m, "step.", 5) == 0 || strncmp(m, "breakdown.", 10) == 0 ||
           strncmp(m, "gpu.", 4) == 0;
}

/* The rows of a pair's metrics whose name starts with prefix (NULL: the
 * window's figures): not comparable, with the reason the gates report;
 * a row already marked keeps its first reason. */
static int
mark_rows(cJSON *metrics, const char *prefix, const char *why)
{
    cJSON *row;

    cJSON_ArrayForEach(row, metrics)
    {
        const char *m = pr_dj_str(row, "metric");
        if (m == NULL ||
            (prefix != NULL ? strncmp(m, prefix, strlen(prefix)) != 0
                            : !window_metric(m)) ||
            cJSON_GetObjectItemCaseSensitive(row, "comparable") != NULL)
            continue;
        if (cJSON_AddFalseToObject(row, "comparable") == NULL ||
            cJSON_AddStringToObject(row, "not_comparable", why) == NULL)
            return 0;
    }
    return 1;
}

/* pair["steps"]: how the steps of each run were made and which pair. */
static int
steps_object(cJSON *pair, const struct pr_dstep_pairs *sp, int comparable)
{
    cJSON *o = cJSON_AddObjectToObject(pair, PR_K_STEPS);
    int ok = o != NULL;

    ok =
        ok && cJSON_AddStringToObject(o, "baseline_source",
                                      pr_dstep_source_text(sp->src[0])) != NULL;
    ok =
        ok && cJSON_AddStringToObject(o, "current_source",
                                      pr_dstep_source_text(sp->src[1])) != NULL;
    ok = ok &&
         (sp->by_number ? cJSON_AddStringToObject(o, "paired_by",
                                                  "ProfilerStep number") != NULL
                        : cJSON_AddNullToObject(o, "paired_by") != NULL);
    ok = ok && pr_dj_add_num(o, "baseline", (double)sp->n[0]);
    ok = ok && pr_dj_add_num(o, "current", (double)sp->n[1]);
    ok = ok &&
         pr_dj_add_num(o, "paired", sp->by_number ? (double)sp->n_paired : NAN);
    ok = ok && cJSON_AddBoolToObject(o, "comparable", comparable) != NULL;
    return ok;
}

/* The window a run's step figures measure: its step_summary.basis
 * (summary-json.md), NULL for a summary an older profreport wrote. */
static const char *
basis_of(const cJSON *run)
{
    return pr_sget_str(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_BASIS);
}

/* Whether two runs' steps measure the same windows: the same basis, or
 * no basis on either side (two summaries of an older profreport), or an
 * older summary against a basis whose windows that build cut the same
 * way.  An older profreport cut a run without step events from its first
 * event to its last; "capture" is the profiler's whole capture (review
 * 18 #1: hta_cp_event_sync_ms 19.9 ms -> 62.5 ms, the 42.5 ms of profiler
 * start-up before the first operator). */
static int
same_basis(const char *b, const char *c)
{
    if (b != NULL && c != NULL)
        return strcmp(b, c) == 0;
    if (b == NULL && c == NULL)
        return 1;
    return !pr_sget_is(b != NULL ? b : c, "capture");
}

/* Both runs one window, from the same start for the same time (an older
 * build's first-to-last event that was the whole capture): the same
 * window whatever the bases say. */
static int
same_window(const cJSON *rb, const cJSON *rc)
{
    const cJSON *sb = pr_sget(rb, PR_K_STEPS), *sc = pr_sget(rc, PR_K_STEPS);
    const cJSON *b = cJSON_GetArrayItem(sb, 0), *c = cJSON_GetArrayItem(sc, 0);
    double b0 = pr_dj_num(b, PR_K_START_US), c0 = pr_dj_num(c, PR_K_START_US);
    double bd = pr_dj_num(b, PR_K_DURATION_US);
    double cd = pr_dj_num(c, PR_K_DURATION_US);

    return cJSON_GetArraySize(sb) == 1 && cJSON_GetArraySize(sc) == 1 &&
           isfinite(b0) && isfinite(bd) && b0 == c0 && bd == cd;
}

/* A run's step windows in words, for the reason a pair's steps are not
 * comparable: "its one window cut by an older profreport from first to
 * last event (42.5 ms to 62.5 ms)", "the profiler's whole capture as
 * one window (0 to 62.5 ms)", "6 steps measured on the device"; span is
 * the one window's " (start to end)" or "". */
static void
windows_text(const char *basis, size_t n, const char *span, char *buf,
             size_t size)
{
    if (basis == NULL && n == 1)
        snprintf(buf, size,
                 "one window cut by an older profreport from its first "
                 "event to its last%s",
                 span);
    else if (basis == NULL)
        snprintf(buf, size,
                 "%zu steps measured by an older profreport (no basis "
                 "recorded)",
                 n);
    else if (strcmp(basis, "capture") == 0)
        snprintf(buf, size, "the profiler's whole capture as one window%s",
                 span);
    else if (strcmp(basis, "device") == 0)
        snprintf(buf, size,
                 "%zu step%s measured on the device (from the end of the "
                 "previous step's device work to the end of its own)",
                 n, n == 1 ? "" : "s");
    else if (strcmp(basis, "npu_device") == 0)
        snprintf(buf, size,
                 "%zu step%s measured on the NPU by torch_npu's rule (from "
                 "the first launch's first task to the last launch's last "
                 "task end or the host step end, whichever is later)",
                 n, n == 1 ? "" : "s");
    else if (strcmp(basis, "host") == 0)
        snprintf(buf, size, "%zu step%s measured by their host step events", n,
                 n == 1 ? "" : "s");
    else if (strcmp(basis, "producer") == 0)
        snprintf(buf, size, "%zu step%s of the producer's own step table", n,
                 n == 1 ? "" : "s");
    else
        snprintf(buf, size, "%zu step%s on basis \"%s\"", n, n == 1 ? "" : "s",
                 basis);
}

/* The one window of each run as " (start to end)", with more digits
 * where the two would read alike (9.38 ms against 9.37 ms); "" for a
 * run of several steps. */
static void
spans(const cJSON *rb, const cJSON *rc, const struct pr_dstep_pairs *sp,
      char *sb, char *sc, size_t n)
{
    const cJSON *b = cJSON_GetArrayItem(pr_sget(rb, PR_K_STEPS), 0);
    const cJSON *c = cJSON_GetArrayItem(pr_sget(rc, PR_K_STEPS), 0);
    double b0 = pr_dj_num(b, PR_K_START_US), c0 = pr_dj_num(c, PR_K_START_US);
    double b1 = b0 + pr_dj_num(b, PR_K_DURATION_US);
    double c1 = c0 + pr_dj_num(c, PR_K_DURATION_US);
    char x0[64], y0[64], x1[64], y1[64];

    pr_dfmt_pair(b0, c0, "us", x0, y0, sizeof(x0));
    pr_dfmt_pair(b1, c1, "us", x1, y1, sizeof(x1));
    *sb = *sc = '\0';
    if (sp->n[0] == 1 && isfinite(b1))
        snprintf(sb, n, " (%s to %s)", x0, x1);
    if (sp->n[1] == 1 && isfinite(c1))
        snprintf(sc, n, " (%s to %s)", y0, y1);
}

/* Two runs without steps (step_summary.basis "capture" both): each one
 * "step" is the profiler's window, a length the user chose (nsys
 * --duration, a schedule's active span), so step.* compares two window
 * lengths and breakdown.* the time of each kind that fitted in them:
 * fewer calls in a fixed window reads as an "improvement" and is none
 * (review 22g #1: two 300 ms nsys windows, 34 -> 30 flash_fwd_kernel
 * calls of 4.00 -> 4.01 ms each, "-11.6%").  Those figures are not
 * compared (their gates skip: a diff with no other gate is INCONCLUSIVE,
 * exit 4), a note says so, and where every run of both sides is such a
 * capture the tables compare time per call (compare.c).  The per-device shares
 * of the window (gpu.*) stay compared: a share of a window is a rate. */
static int
capture_pair(cJSON *pair, cJSON *notes, const char *run, const cJSON *rb,
             const cJSON *rc)
{
    char why[600], x[64], y[64];
    cJSON *metrics = cJSON_GetObjectItemCaseSensitive(pair, "metrics");
    const cJSON *b = cJSON_GetArrayItem(pr_sget(rb, PR_K_STEPS), 0);
    const cJSON *c = cJSON_GetArrayItem(pr_sget(rc, PR_K_STEPS), 0);
    cJSON *yes = cJSON_CreateTrue();

    pr_dfmt_pair(pr_dj_num(b, PR_K_DURATION_US), pr_dj_num(c, PR_K_DURATION_US),
                 "us", x, y, sizeof(x));
    snprintf(why, sizeof(why),
             "run %s: no steps: each run is one capture (%s and %s), whose "
             "length is the profiler's window, not a speed: the step and "
             "breakdown figures, time per window, are not compared",
             run, x, y);
    if (!pr_sput(pair, "per_capture", yes)) {
        cJSON_Delete(yes);
        return 0;
    }
    return mark_rows(metrics, "step.", why) &&
           mark_rows(metrics, "breakdown.", why) && add_warning(notes, why);
}

/* The steps of a pair: paired by number (a note when some steps have no
 * partner), or not comparable at all (a warning): one run has step
 * markers and the other none, or their step figures measure different
 * windows (step_summary.basis). */
static int
check_steps(cJSON *pair, cJSON *warnings, cJSON *notes, const char *run,
            const struct pr_dstep_pairs *sp, const cJSON *rb, const cJSON *rc)
{
    char b[300], c[300], sb[160], sc[160], why[1400], db[160], dc[160];
    const char *devb = devices_text(rb, db, sizeof(db));
    const char *devc = devices_text(rc, dc, sizeof(dc));
    int markers =
        (sp->src[0] == PR_DSTEPS_NONE) == (sp->src[1] == PR_DSTEPS_NONE);
    int basis = same_basis(basis_of(rb), basis_of(rc)) || same_window(rb, rc);
    int comparable = markers && basis;

    if (!steps_object(pair, sp, comparable))
        return 0;
    if (comparable && sp->by_number &&
        (sp->n_paired < sp->n[0] || sp->n_paired < sp->n[1])) {
        snprintf(why, sizeof(why),
                 "run %s: of %zu ProfilerStep%s of the baseline and %zu of "
                 "the current run, %zu have a number both runs have; the "
                 "step figures compare those alone",
                 run, sp->n[0], sp->n[0] == 1 ? "" : "s", sp->n[1],
                 sp->n_paired);
        return add_warning(notes, why); /* like with like: not a warning */
    }
    if (comparable && pr_sget_run_is_capture(rb) && pr_sget_run_is_capture(rc))
        return capture_pair(pair, notes, run, rb, rc);
    if (comparable)
        return 1;
    if ((devb == NULL && devc != NULL &&
         cJSON_GetArraySize(pr_sget(rc, PR_K_KERNELS)) > 0) ||
        (devc == NULL && devb != NULL &&
         cJSON_GetArraySize(pr_sget(rb, PR_K_KERNELS)) > 0)) {
        /* the device vanished (or came): that is why the windows differ,
           and the runs did change (review 19 #6) */
        snprintf(why, sizeof(why),
                 "run %s: the %s run is CPU-only; the %s ran on %s: its step "
                 "and per-window figures are not compared (check the job's "
                 "device)",
                 run, devb == NULL ? "baseline" : "current",
                 devb == NULL ? "current run" : "baseline",
                 devb != NULL ? devb : devc);
    } else if (markers) {
        spans(rb, rc, sp, sb, sc, sizeof(sb));
        windows_text(basis_of(rb), sp->n[0], sb, b, sizeof(b));
        windows_text(basis_of(rc), sp->n[1], sc, c, sizeof(c));
        snprintf(why, sizeof(why),
                 "run %s: the step figures and the figures per window (%s) "
                 "measure different "
                 "windows: baseline: %s; current: %s; they move without the "
                 "trace changing, so they are not compared%s",
                 run,
                 ascend_run(rb) || ascend_run(rc)
                     ? "NPU utilization"
                     : "GPU utilization, SM efficiency, occupancy",
                 b, c,
                 basis_of(rb) == NULL
                     ? "; to compare them, regenerate the baseline's summary "
                       "with this profreport (`profreport --input <baseline "
                       "traces> --json baseline.json`)"
                     : "");
    } else {
        steps_text(sp->src[0], sp->n[0], b, sizeof(b));
        steps_text(sp->src[1], sp->n[1], c, sizeof(c));
        snprintf(why, sizeof(why),
                 "run %s: the baseline has %s, the current run %s: a whole "
                 "capture against a step is no step-time comparison",
                 run, b, c);
    }
    return add_warning(warnings, why) &&
           mark_rows(cJSON_GetObjectItemCaseSensitive(pair, "metrics"), NULL,
                     why);
}

/* A GPU run against one that recorded no device work, or two device
 * models: warnings that mark the verdict (a CI gate that trips on an A100
 * baseline against a V100 run says so; an upgrade compared on purpose
 * reads the warning as the upgrade's effect).  The step figures stay
 * gated: the times are real, only their cause is in doubt. */
static int
check_devices(cJSON *warnings, cJSON *notes, const char *run, const cJSON *rb,
              const cJSON *rc)
{
    char db[160], dc[160], text[400];
    int nb, nc;
    const char *b = devices_text(rb, db, sizeof(db));
    const char *c = devices_text(rc, dc, sizeof(dc));

    if (b == NULL && c == NULL)
        return 1;
    /* a device listed without a kernel is no device work either (a newer
       producer that lists the rank's NPU, an older one that did not:
       review 18 #2, ms_fixtures rank10) */
    if ((b == NULL && cJSON_GetArraySize(pr_sget(rc, PR_K_KERNELS)) == 0) ||
        (c == NULL && cJSON_GetArraySize(pr_sget(rb, PR_K_KERNELS)) == 0))
        return 1;
    if (b == NULL || c == NULL) {
        snprintf(text, sizeof(text),
                 "run %s: the %s run recorded device work (%s), the %s run "
                 "none: a CPU-only run compared with a device run",
                 run, b != NULL ? "baseline" : "current", b != NULL ? b : c,
                 b != NULL ? "current" : "baseline");
        return add_warning(warnings, text);
    }
    if (strcmp(b, c) == 0)
        return 1;
    /* a side whose summary names no device (name null, name_source
       "none": an older or newer producer that does not say) is unknown,
       not another device (review 18 #2: every Ascend run of an older
       summary against today's) */
    nb = pr_dj_str(cJSON_GetArrayItem(pr_sget(rb, PR_K_DEVICES), 0),
                   PR_K_NAME) == NULL;
    nc = pr_dj_str(cJSON_GetArrayItem(pr_sget(rc, PR_K_DEVICES), 0),
                   PR_K_NAME) == NULL;
    if (nb || nc) {
        snprintf(text, sizeof(text),
                 "run %s: device unknown: the %s names %s, the %s names "
                 "none, so whether the device changed is not known",
                 run, nb ? "current run" : "baseline", nb ? c : b,
                 nb ? "baseline's summary" : "current run's summary");
        return add_warning(notes, text);
    }
    snprintf(text, sizeof(text),
             "run %s: devices differ: %s (baseline), %s "
             "(current): the device change alone moves every time, so a "
             "change here is the hardware's as much as the code's",
             run, b, c);
    return add_warning(warnings, text);
}

/* Two runs of jobs of different world sizes (review 23g #4: rank 3 of 8
 * against rank 1 of 2): every collective changes size, algorithm (a ring
 * of 8 against one of 2) and bus-bandwidth factor, so the communication
 * and step times are not the code's change alone. */
static int
check_world(cJSON *warnings, const char *run, const cJSON *rb, const cJSON *rc)
{
    double wb = pr_sget_num(rb, PR_K_WORLD_SIZE);
    double wc = pr_sget_num(rc, PR_K_WORLD_SIZE);
    char text[400];

    if (!isfinite(wb) || !isfinite(wc) || wb == wc)
        return 1;
    snprintf(text, sizeof(text),
             "run %s: world size differs: %.0f (baseline), %.0f (current): "
             "collectives change size and algorithm, so the communication "
             "and step times are not the code's change alone",
             run, wb, wc);
    return add_warning(warnings, text);
}

/* One side records device tasks and the other none (review 30a #3: a
 * MindSpore AlexNet step against the same step's step_trace_raw alone
 * read "breakdown.kernel -100%", "other +3,711%" and every operator
 * "vanished"): nothing vanished, the export did not record it.  Its
 * step figures stay (the producer's step table gives them); the
 * breakdown, device, Cube and table rows are not compared, and the
 * tables list nothing as new or vanished. */
static int
check_tasks(cJSON *diff, cJSON *warnings, cJSON *pair, const char *run,
            const cJSON *rb, const cJSON *rc)
{
    int nb = cJSON_GetArraySize(pr_sget(rb, PR_K_KERNELS));
    int nc = cJSON_GetArraySize(pr_sget(rc, PR_K_KERNELS));
    static const char *const rows[] = {"breakdown.", "gpu.", "tc."};
    cJSON *metrics = cJSON_GetObjectItemCaseSensitive(pair, "metrics");
    char text[400];
    size_t i;

    /* a CPU-only side is check_devices' (the device that vanished) */
    if ((nb > 0) == (nc > 0) || cJSON_IsTrue(pr_sget(rb, PR_K_HOST_ONLY)) ||
        cJSON_IsTrue(pr_sget(rc, PR_K_HOST_ONLY)))
        return 1;
    snprintf(text, sizeof(text),
             "run %s: the %s records no device tasks (its export holds no "
             "task or kernel table), so its breakdown, device figures and "
             "operators are not known, not zero: only the step times are "
             "compared",
             run, nb > 0 ? "current" : "baseline");
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (!mark_rows(metrics, rows[i], PR_DNO_TASKS_WHY))
            return 0;
    if (cJSON_GetObjectItemCaseSensitive(diff, "no_tasks_side") == NULL &&
        cJSON_AddStringToObject(diff, "no_tasks_side",
                                nb > 0 ? "current" : "baseline") == NULL)
        return 0;
    return add_warning(warnings, text);
}

/* Whether a run's task list is a part of its tasks (an extract, or
 * fewer than the step table holds): its data quality says so. */
static int
tasks_partial(const cJSON *run)
{
    const cJSON *d;

    cJSON_ArrayForEach(d, pr_sget(run, PR_K_DIAGNOSTICS))
    {
        const char *k = pr_sget_str(d, PR_K_KIND);

        if (pr_sget_is(k, "task_list_extract") ||
            pr_sget_is(k, "tasks_incomplete"))
            return 1;
    }
    return 0;
}

/* A Cube (tensor-core) share of a task list that is an extract is a
 * share of an unknown whole (review 30a #2: kd_910B_v1 against the
 * 25 PMU-sampled heavy tasks of kd_910B_v2 read "tc.share +70.3 pp"):
 * not compared, with a note that says which side. */
static int
check_partial(cJSON *notes, cJSON *pair, const char *run, const cJSON *rb,
              const cJSON *rc)
{
    int pb = tasks_partial(rb), pc = tasks_partial(rc);
    char text[300];

    if (!pb && !pc)
        return 1;
    snprintf(text, sizeof(text),
             "run %s: the %s task list is a part of the run's tasks (an "
             "extract, or fewer than its step table holds): its Cube share "
             "is of an unknown whole, so tc.share is not compared",
             run,
             pb && pc ? "baseline's and the current's"
             : pb     ? "baseline's"
                      : "current's");
    if (!mark_rows(cJSON_GetObjectItemCaseSensitive(pair, "metrics"), "tc.",
                   "a task list is an extract"))
        return 0;
    return add_warning(notes, text);
}

/* Two torch_npu captures at different profiler levels (review 30a #4:
 * text_level0 against text_level2 of one job failed the step gate on
 * "runtime 0 -> 5.98 ms" and a CPU-exec drop): Level0 records no
 * AscendCL calls, no Accelerator Core and no HCCL plane tasks, so the
 * categories those fill move with the setting, not the code.  The host
 * breakdown's runtime and CPU rows and the Cube share are not compared. */
static int
check_level(cJSON *warnings, cJSON *pair, const char *run, const cJSON *rb,
            const cJSON *rc)
{
    const char *lb = pr_sget_str(rb, PR_K_PROFILER_LEVEL);
    const char *lc = pr_sget_str(rc, PR_K_PROFILER_LEVEL);
    static const char *const rows[] = {
        "breakdown.runtime", "breakdown.cpu_exec", "breakdown.other", "tc."};
    cJSON *metrics = cJSON_GetObjectItemCaseSensitive(pair, "metrics");
    char text[500];
    size_t i;

    if (lb == NULL || lc == NULL || strcmp(lb, lc) == 0)
        return 1;
    snprintf(text, sizeof(text),
             "run %s: captured at different torch_npu profiler levels (%s "
             "baseline, %s current): Level0 records no AscendCL calls, no "
             "Accelerator Core and no HCCL plane tasks, so the host "
             "breakdown's runtime and CPU figures and the Cube share move "
             "with the setting, not the code (not compared); profile both "
             "at one level",
             run, lb, lc);
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (!mark_rows(metrics, rows[i],
                       "captured at different torch_npu profiler levels"))
            return 0;
    return add_warning(warnings, text);
}

/* "GPU 3" ("NPU 3" on an Ascend run) or the device's own name (a string
 * id). */
static void
device_id_text(const cJSON *run, const cJSON *dev, char *buf, size_t n)
{
    if (cJSON_IsString(dev))
        snprintf(buf, n, "%s", dev->valuestring);
    else if (cJSON_IsNumber(dev))
        snprintf(buf, n, "%s %d", ascend_run(run) ? "NPU" : "GPU",
                 dev->valueint);
    else
        snprintf(buf, n, "a device");
}

/* One device a side with two ids (rank 3 on GPU 3 last night, rank 1 on
 * GPU 1 tonight): the per-device figures pair them (compare.c) and are
 * labelled by the metric alone, so this note names the pair. */
static int
check_device_ids(cJSON *notes, const char *run, const cJSON *rb,
                 const cJSON *rc)
{
    const cJSON *gb = pr_sget(rb, PR_K_GPU_METRICS);
    const cJSON *gc = pr_sget(rc, PR_K_GPU_METRICS);
    char a[80], b[80], text[300];

    if (cJSON_GetArraySize(gb) != 1 || cJSON_GetArraySize(gc) != 1)
        return 1;
    device_id_text(rb, pr_sget(cJSON_GetArrayItem(gb, 0), PR_K_DEVICE), a,
                   sizeof(a));
    device_id_text(rc, pr_sget(cJSON_GetArrayItem(gc, 0), PR_K_DEVICE), b,
                   sizeof(b));
    if (strcmp(a, b) == 0)
        return 1;
    snprintf(text, sizeof(text),
             "run %s: one device a side: the device figures (gpu.*) "
             "compare %s (baseline) with %s (current)",
             run, a, b);
    return add_warning(notes, text);
}

/* A side read from a summary an older profreport wrote: the parts of the
 * run it lacks were left out when it was read (contract.h), so their
 * figures are not compared; the run's own note says which. */
static int
check_older(cJSON *notes, const char *run, const cJSON *rb, const cJSON *rc)
{
    const cJSON *side[2] = {rb, rc};
    char text[4000];
    int i;

    for (i = 0; i < 2; i++) {
        const char *note = pr_sget_older_note(side[i]);

        if (note == NULL)
            continue;
        snprintf(text, sizeof(text), "run %s (%s): %s", run,
                 i == 0 ? "baseline" : "current", note);
        if (!add_warning(notes, text))
            return 0;
    }
    return 1;
}

/* diff["comparability"], made on first use; NULL on out-of-memory. */
static cJSON *
compat_obj(cJSON *diff)
{
    cJSON *c = cJSON_GetObjectItemCaseSensitive(diff, "comparability");

    if (c != NULL)
        return c;
    c = cJSON_AddObjectToObject(diff, "comparability");
    if (c == NULL || cJSON_AddArrayToObject(c, "warnings") == NULL ||
        cJSON_AddArrayToObject(c, "notes") == NULL)
        return NULL;
    return c;
}

/* One side's run holds only the program's first iteration (sget.c
 * pr_sget_run_first_iteration_only: its only step is MindSpore's Step 1,
 * ProfilerStep#0 or torch_npu's Step 0) and the other side leaves its first
 * step out as a warm-up (sp->drop_first): the window's figures (step,
 * breakdown, gpu: window_metric) and the collectives' would set that side's
 * steady steps against the other's warm-up, the very step left out (review32a
 * #2: mindinsight's 10-iteration job against the same job cut to its first
 * iteration, msprof_cann6, read "step.mean +200.9%, 15.8 -> 47.6 ms" while both
 * Step 1s are 47.6 ms). Those rows are not compared (their gates skip: a diff
 * with no other gate is INCONCLUSIVE, exit 4) and a warning says why. */
static int
check_first_only(cJSON *warnings, cJSON *pair, const char *run,
                 const struct pr_dstep_pairs *sp, const cJSON *rb,
                 const cJSON *rc)
{
    const cJSON *r[2] = {rb, rc};
    cJSON *metrics = cJSON_GetObjectItemCaseSensitive(pair, "metrics"), *row;
    char why[700];
    int k;

    for (k = 0; k < 2; k++) {
        if (sp->drop_first[1 - k] && pr_sget_run_first_iteration_only(r[k]))
            break;
    }
    if (k == 2)
        return 1;
    snprintf(why, sizeof(why),
             "run %s: the %s holds only the program's first iteration (%s), "
             "which the %s leaves out of its step figures as a warm-up: the "
             "step, breakdown, device and collective figures would set a "
             "warm-up against steady steps and are not compared; profile "
             "the same iterations on both sides",
             run, k == 0 ? "baseline" : "current",
             pr_sget_str_or(cJSON_GetArrayItem(pr_sget(r[k], PR_K_STEPS), 0),
                            PR_K_NAME, "?"),
             k == 0 ? "current" : "baseline");
    cJSON_ArrayForEach(row,
                       cJSON_GetObjectItemCaseSensitive(pair, "collectives"))
    {
        if (cJSON_GetObjectItemCaseSensitive(row, "comparable") != NULL)
            continue;
        if (cJSON_AddFalseToObject(row, "comparable") == NULL ||
            cJSON_AddStringToObject(row, "not_comparable", why) == NULL)
            return 0;
    }
    return mark_rows(metrics, NULL, why) && add_warning(warnings, why);
}

enum pr_status
pr_dcompat_pair(cJSON *diff, cJSON *pair, const cJSON *rb, const cJSON *rc,
                const struct pr_dstep_pairs *sp, struct pr_error *err)
{
    cJSON *c = compat_obj(diff);
    const char *run = pr_sget_str_or(pair, "current", "?");

    if (c == NULL)
        return NOMEM(err);
    if (!check_steps(pair, cJSON_GetObjectItemCaseSensitive(c, "warnings"),
                     cJSON_GetObjectItemCaseSensitive(c, "notes"), run, sp, rb,
                     rc) ||
        !check_devices(cJSON_GetObjectItemCaseSensitive(c, "warnings"),
                       cJSON_GetObjectItemCaseSensitive(c, "notes"), run, rb,
                       rc) ||
        !check_device_ids(cJSON_GetObjectItemCaseSensitive(c, "notes"), run, rb,
                          rc) ||
        !check_world(cJSON_GetObjectItemCaseSensitive(c, "warnings"), run, rb,
                     rc) ||
        !check_level(cJSON_GetObjectItemCaseSensitive(c, "warnings"), pair, run,
                     rb, rc) ||
        !check_tasks(diff, cJSON_GetObjectItemCaseSensitive(c, "warnings"),
                     pair, run, rb, rc) ||
        !check_partial(cJSON_GetObjectItemCaseSensitive(c, "notes"), pair, run,
                       rb, rc) ||
        !check_older(cJSON_GetObjectItemCaseSensitive(c, "notes"), run, rb,
                     rc) ||
        !check_first_only(cJSON_GetObjectItemCaseSensitive(c, "warnings"), pair,
                          run, sp, rb, rc))
        return NOMEM(err);
    return PR_OK;
}

/* ---- added and deleted, and the overlap of the names ------------------ */

struct listed {
    const struct pr_match_row *r;
    double us, calls; /* of the side it is on */
};

static int
cmp_listed(const void *pa, const void *pb)
{
    const struct listed *a = pa, *b = pb;

    if (a->us != b->us)
        return a->us > b->us ? -1 : 1;
    if (a->calls != b->calls)
        return a->calls > b->calls ? -1 : 1;
    return strcmp(a->r->name, b->r->name);
}

/* The rows on one side only (added: current only), sorted by time. */
static cJSON *
side_list(const struct pr_match_table *t, int added, const char *time_key)
{
    struct listed *v = calloc(t->n ? t->n : 1, sizeof(*v));
    cJSON *arr = cJSON_CreateArray();
    size_t i, k = 0;
    int ok = v != NULL && arr != NULL;

    for (i = 0; ok && i < t->n; i++) {
        const struct pr_match_row *r = &t->rows[i];
        if (added ? !(r->in_cur && !r->in_base) : !(r->in_base && !r->in_cur))
            continue;
        v[k].r = r;
        v[k].us = added ? r->cur : r->base;
        v[k++].calls = added ? r->calls_cur : r->calls_base;
    }
    if (ok)
        qsort(v, k, sizeof(*v), cmp_listed);
    for (i = 0; ok && i < k; i++) {
        cJSON *o = cJSON_CreateObject();
        ok = o != NULL && cJSON_AddItemToArray(arr, o);
        ok = ok && cJSON_AddStringToObject(o, PR_K_NAME, v[i].r->name) != NULL;
        ok = ok && pr_dj_add_num(o, "calls_per_step", v[i].calls);
        ok = ok && pr_dj_add_num(o, time_key, v[i].us);
    }
    free(v);
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

enum pr_status
pr_dcompat_table(cJSON *diff, const char *key, const char *noun,
                 const struct pr_match_table *t, struct pr_error *err)
{
    cJSON *ad = cJSON_GetObjectItemCaseSensitive(diff, "added_deleted");
    cJSON *o, *added, *deleted;
    size_t i, both = 0, names = t->n;
    double t_both = 0, t_all = 0;
    char text[300];
    int ok;

    if (ad == NULL &&
        (ad = cJSON_AddObjectToObject(diff, "added_deleted")) == NULL)
        return NOMEM(err);
    for (i = 0; i < t->n; i++) {
        const struct pr_match_row *r = &t->rows[i];
        both += r->in_base && r->in_cur;
        t_all += r->base + r->cur;
        t_both += r->in_base && r->in_cur ? r->base + r->cur : 0;
    }
    o = cJSON_AddObjectToObject(ad, key);
    added = side_list(t, 1, "device_us_per_step");
    deleted = side_list(t, 0, "device_us_per_step");
    ok = o != NULL && added != NULL && deleted != NULL;
    if (ok) {
        cJSON_AddItemToObject(o, "added", added);
        cJSON_AddItemToObject(o, "deleted", deleted);
        added = deleted = NULL;
    }
    cJSON_Delete(added);
    cJSON_Delete(deleted);
    ok = ok && pr_dj_add_num(o, "in_both", (double)both);
    ok = ok &&
         pr_dj_add_num(o, "in_both_pct",
                       names > 0 ? 100.0 * (double)both / (double)names : NAN);
    ok = ok && pr_dj_add_num(o, "time_in_both_pct",
                             t_all > 0 ? 100.0 * t_both / t_all : NAN);
    if (!ok)
        return NOMEM(err);
    /* both sides must have some to say they barely overlap */
    if (names == 0 || both == names ||
        100.0 * (double)both / (double)names >= OVERLAP_MIN_PCT ||
        (t_all > 0 && 100.0 * t_both / t_all >= OVERLAP_MIN_PCT) ||
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(o, "added")) == 0 ||
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(o, "deleted")) == 0)
        return PR_OK;
    snprintf(text, sizeof(text),
             "the runs barely overlap: %zu of %zu %s are in both (%.0f%% of "
             "their device time): are these runs of the same program?",
             both, names, noun, t_all > 0 ? 100.0 * t_both / t_all : 0.0);
    if (compat_obj(diff) == NULL ||
        !add_warning(
            cJSON_GetObjectItemCaseSensitive(compat_obj(diff), "warnings"),
            text))
        return NOMEM(err);
    return PR_OK;
}

/* The first reason a pair's steps are not comparable, or NULL. */
static const char *
steps_mismatch(const cJSON *diff)
{
    const cJSON *pair, *row;

    cJSON_ArrayForEach(pair, cJSON_GetObjectItemCaseSensitive(diff, PR_K_RUNS))
    {
        if (!cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(pair, PR_K_STEPS),
                "comparable")))
            continue;
        cJSON_ArrayForEach(row,
                           cJSON_GetObjectItemCaseSensitive(pair, "metrics"))
        {
            const char *why = pr_dj_str(row, "not_comparable");
            if (why != NULL)
                return why;
        }
    }
    return NULL;
}

/* Per-step rows of the tables when some pair's steps are not comparable:
 * a whole capture's operator time against one step's is no change
 * either. */
static int
mark_tables(cJSON *diff, const char *why)
{
    static const char *const keys[] = {"operators", "operators_by_shape",
                                       "kernels", "sources", "modules"};
    cJSON *row;
    size_t k;

    for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(diff, keys[k]))
        {
            if (cJSON_AddFalseToObject(row, "comparable") == NULL ||
                cJSON_AddStringToObject(row, "not_comparable", why) == NULL)
                return 0;
        }
    }
    return 1;
}

/* "d0c7422c", or "an older one that records no build". */
static const char *
build_text(const char *build)
{
    return build != NULL ? build : "an older one that records no build";
}

/* What changed at each version of the figures' definitions
 * (PR_DEFINITIONS, tool.definitions; a summary without it is version 1).
 * A figure whose definition changed between the two sides' versions is
 * not compared; prefix NULL is a change that marks no figure of its own
 * (the window's figures: the window rule decides them per run, from
 * step_summary.basis, as like with like is still possible there). */
struct def_change {
    int version;
    const char *prefix; /* the metrics it redefined, or NULL */
    int ascend;         /* only on Ascend runs */
    const char *what;
};

static const struct def_change def_changes[] = {
    {2, NULL, 0,
     "the window of a run without step events is its whole capture (its "
     "step, breakdown and per-window GPU figures)"},
    {2, "tc.share", 1, "the Cube share on Ascend counts fp32 Cube matmuls"},
    {2, NULL, 1, "Ascend devices are named by their device id"},
};

/* Whether a run is an Ascend run (an older summary names its devices
 * "Ascend NPU"; a newer one says device_kind npu). */
static int
ascend_run(const cJSON *run)
{
    const char *name =
        pr_dj_str(cJSON_GetArrayItem(pr_sget(run, PR_K_DEVICES), 0), PR_K_NAME);

    return pr_sget_is(pr_sget_str(run, PR_K_DEVICE_KIND), "npu") ||
           (name != NULL && strncmp(name, "Ascend", 6) == 0);
}

/* Whether a summary holds a run that `is`; with label, whether its run
 * of that name (a pair's "baseline"/"current") is one. */
static int
any_run(const cJSON *sum, const char *label, int (*is)(const cJSON *))
{
    const cJSON *runs = pr_sget(sum, PR_K_RUNS), *run;
    char name[256];

    cJSON_ArrayForEach(run, runs)
    {
        if (label != NULL &&
            strcmp(pr_sget_run_name(runs, run, name, sizeof(name)), label) != 0)
            continue;
        if (is(run))
            return 1;
    }
    return 0;
}

/* The same for an Ascend run. */
static int
has_ascend(const cJSON *sum, const char *label)
{
    return any_run(sum, label, ascend_run);
}

/* The version of the definitions that summaries wrote before they
 * recorded it (tool.definitions came at version 2). */
#define DEFS_BEFORE_KEY 2

/* "version 2", or "version unknown" for 0. */
static const char *
version_text(int v, char *buf, size_t n)
{
    if (v > 0)
        snprintf(buf, n, "version %d", v);
    else
        snprintf(buf, n,
                 "version unknown (the summary records none, and "
                 "its step basis does not tell)");
    return buf;
}

/* Whether the definition that change c made may differ between sides of
 * versions vb and vc.  An unknown side (0) wrote some version before
 * summaries recorded it: its windows are version 2's (it records a
 * basis), its Ascend definitions any version up to then. */
static int
may_differ(const struct def_change *c, int vb, int vc)
{
    int lo_u = c->ascend ? 1 : DEFS_BEFORE_KEY;
    int lo_b = vb > 0 ? vb : lo_u, hi_b = vb > 0 ? vb : DEFS_BEFORE_KEY;
    int lo_c = vc > 0 ? vc : lo_u, hi_c = vc > 0 ? vc : DEFS_BEFORE_KEY;
    int d = c->version;

    return !(lo_b >= d && lo_c >= d) && !(hi_b < d && hi_c < d);
}

/* Whether a pair's rows of metric `prefix` have a value on either side:
 * a changed definition of a figure neither run has changes nothing
 * (review 20: ms_fixtures' Ascend ranks have no Cube share on either
 * side). */
static int
has_value(const cJSON *pair, const char *prefix)
{
    const cJSON *row;

    cJSON_ArrayForEach(row, pr_sget(pair, "metrics"))
    {
        const char *m = pr_dj_str(row, "metric");
        if (m != NULL && strncmp(m, prefix, strlen(prefix)) == 0 &&
            (isfinite(pr_dj_num(row, "baseline")) ||
             isfinite(pr_dj_num(row, "current"))))
            return 1;
    }
    return 0;
}

/* Whether definition change d applies to a pair: an Ascend change to a
 * pair with an Ascend side (a GPU run beside Ascend ones keeps its
 * share: ms_fixtures), with a value of its figure on either side. */
static int
change_applies(const struct def_change *d, const cJSON *pair, const cJSON *base,
               const cJSON *cur)
{
    if (d->ascend && !has_ascend(base, pr_dj_str(pair, "baseline")) &&
        !has_ascend(cur, pr_dj_str(pair, "current")))
        return 0;
    return has_value(pair, d->prefix);
}

/* The figures whose definitions changed (or, a side's version unknown,
 * may have changed) between the two sides' versions: not compared, with
 * the reason (a warning: the verdict is marked), where a pair has a value
 * of the figure on either side; two builds with the same definitions are
 * a note, not a warning, so a nightly that rebuilds every night is not
 * "may not be comparable" every night (review 19 #2, #7). */
static int
check_definitions(cJSON *c, cJSON *diff, const cJSON *base, const cJSON *cur)
{
    const char *b = pr_sget_str(pr_sget(base, PR_K_TOOL), PR_K_BUILD);
    const char *k = pr_sget_str(pr_sget(cur, PR_K_TOOL), PR_K_BUILD);
    int vb = pr_contract_definitions(base), vc = pr_contract_definitions(cur);
    int lo = vb < vc ? vb : vc;
    int known = vb > 0 && vc > 0;
    int ascend = has_ascend(base, NULL) || has_ascend(cur, NULL);
    /* the older side is the one to regenerate: the lower or unknown */
    int old_base = vb == 0 || (vc > 0 && vb < vc);
    cJSON *o = cJSON_AddObjectToObject(c, "builds");
    cJSON *pair;
    char text[1200], tb[120], tc[120], nb[16], nc[16];
    size_t i;

    if (o == NULL ||
        (b != NULL ? cJSON_AddStringToObject(o, "baseline", b)
                   : cJSON_AddNullToObject(o, "baseline")) == NULL ||
        (k != NULL ? cJSON_AddStringToObject(o, "current", k)
                   : cJSON_AddNullToObject(o, "current")) == NULL ||
        !pr_dj_add_num(o, "baseline_definitions", vb > 0 ? (double)vb : NAN) ||
        !pr_dj_add_num(o, "current_definitions", vc > 0 ? (double)vc : NAN))
        return 0;
    version_text(vb, tb, sizeof(tb));
    version_text(vc, tc, sizeof(tc));
    snprintf(nb, sizeof(nb), "%d", vb);
    snprintf(nc, sizeof(nc), "%d", vc);
    if (known && vb == vc &&
        ((b != NULL && k != NULL && strcmp(b, k) != 0) ||
         (b == NULL) != (k == NULL))) {
        snprintf(text, sizeof(text),
                 "the summaries were written by different builds of "
                 "profreport (baseline: %s; current: %s) with the same "
                 "definitions of the figures (version %d)",
                 build_text(b), build_text(k), vb);
        return add_warning(cJSON_GetObjectItemCaseSensitive(c, "notes"), text);
    }
    if (vb != vc || !known) {
        size_t at = 0;
        at += (size_t)snprintf(
            text, sizeof(text),
            "the summaries %s definitions of the figures (baseline: %s, "
            "build %s; current: %s, build %s); changed since version %d:",
            known ? "follow different" : "may follow different", tb,
            build_text(b), tc, build_text(k), known ? lo : 1);
        for (i = 0; i < sizeof(def_changes) / sizeof(def_changes[0]); i++)
            if (may_differ(&def_changes[i], vb, vc) &&
                (ascend || !def_changes[i].ascend) && at < sizeof(text))
                at += (size_t)snprintf(text + at, sizeof(text) - at, "%s %s",
                                       at > 0 && text[at - 1] != ':' ? ";" : "",
                                       def_changes[i].what);
        /* no change between them applies (two unknowns of one kind) */
        if (text[at > 0 ? at - 1 : 0] != ':' &&
            !add_warning(cJSON_GetObjectItemCaseSensitive(c, "notes"), text))
            return 0;
    }
    for (i = 0; i < sizeof(def_changes) / sizeof(def_changes[0]); i++) {
        const struct def_change *d = &def_changes[i];
        int any = 0;
        if (!may_differ(d, vb, vc) || d->prefix == NULL ||
            (d->ascend && !ascend))
            continue;
        cJSON_ArrayForEach(pair,
                           cJSON_GetObjectItemCaseSensitive(diff, PR_K_RUNS))
        {
            any |= change_applies(d, pair, base, cur);
        }
        if (!any)
            continue; /* neither side of any pair has the figure */
        snprintf(text, sizeof(text),
                 "%s is not compared: its definition %s between the "
                 "summaries (baseline: definitions %s, build %s; current: "
                 "definitions %s, build %s): at version %d %s; to compare "
                 "it, regenerate the %s summary with this profreport "
                 "(`profreport --input <%s traces> --json %s.json`)",
                 d->prefix, known ? "changed" : "may have changed",
                 vb > 0 ? nb : "unknown", build_text(b),
                 vc > 0 ? nc : "unknown", build_text(k), d->version, d->what,
                 old_base ? "baseline's" : "current",
                 old_base ? "baseline" : "current",
                 old_base ? "baseline" : "current");
        if (!add_warning(cJSON_GetObjectItemCaseSensitive(c, "warnings"), text))
            return 0;
        cJSON_ArrayForEach(pair,
                           cJSON_GetObjectItemCaseSensitive(diff, PR_K_RUNS))
        {
            if (change_applies(d, pair, base, cur) &&
                !mark_rows(cJSON_GetObjectItemCaseSensitive(pair, "metrics"),
                           d->prefix, text))
                return 0;
        }
    }
    return 1;
}

/* "hta_nccl.old.json (baseline) was written by an older profreport: Keys
 * it did not write read as unknown: ... Left out ...: ..." for a side whose
 * runs have an older_summary diagnostic (contract.c): one line a side, for
 * stderr and the JUnit output, where a CI user looks (review 18 #3). */
static int
check_older_side(cJSON *list, const cJSON *diff, const cJSON *sum,
                 const char *side)
{
    const cJSON *run, *first_run = NULL;
    size_t runs = 0;
    const char *text = NULL, *note;
    char line[4000], first_label[256];

    cJSON_ArrayForEach(run, pr_sget(sum, PR_K_RUNS))
    {
        if ((note = pr_sget_older_note(run)) == NULL)
            continue;
        if (first_run == NULL) {
            first_run = run;
            text = note;
        }
        runs++;
    }
    if (first_run == NULL)
        return 1;
    /* the note without its first sentence, which the line says */
    if (strncmp(text, PR_SGET_OLDER_LEAD, sizeof(PR_SGET_OLDER_LEAD) - 1) == 0)
        text += sizeof(PR_SGET_OLDER_LEAD) - 1;
    while (*text == ' ')
        text++;
    pr_sget_run_name(pr_sget(sum, PR_K_RUNS), first_run, first_label,
                     sizeof(first_label));
    if (runs == 1)
        snprintf(line, sizeof(line),
                 "%s (%s) was written by an older profreport: %s",
                 pr_sget_str_or(pr_sget(diff, side), PR_K_LABEL, side), side,
                 text);
    else
        snprintf(line, sizeof(line),
                 "%s (%s) was written by an older profreport (%zu of its %zu "
                 "runs; run %s: %s)",
                 pr_sget_str_or(pr_sget(diff, side), PR_K_LABEL, side), side,
                 runs, pr_sget_len(pr_sget(sum, PR_K_RUNS)), first_label, text);
    return add_warning(list, line);
}

/* A MindSpore run, whose step breakdown's dataloader part is its step
 * interval (iteration_interval: the time between steps, not a
 * DataLoader). */
static int
mindspore_run(const cJSON *run)
{
    return pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "mindspore");
}

/* A run that holds collectives (communication.ops). */
static int
comm_run(const cJSON *run)
{
    return pr_sget_len(pr_sget(pr_sget(run, PR_K_COMMUNICATION), PR_K_OPS)) > 0;
}

/* The device words of the diff (review 25u #4): diff["device_kind"] is
 * "npu" when either side holds an Ascend run, else "gpu", and every
 * per-device figure row gets "device_label", "NPU 0" on a pair with an
 * Ascend side, "GPU 0" otherwise, so that no Ascend row reads "GPU" (and
 * an Ascend pair's tc.share row "(Cube share)"); the metric ids
 * (gpu.utilization, tc.share) stay device-neutral ids. */
static int
device_words(cJSON *diff, const cJSON *base, const cJSON *cur)
{
    const cJSON *pair;
    cJSON *row;
    int any = has_ascend(base, NULL) || has_ascend(cur, NULL);

    if (cJSON_AddStringToObject(diff, PR_K_DEVICE_KIND, any ? "npu" : "gpu") ==
        NULL)
        return 0;
    /* an NPU's utilization counts HCCL tasks as busy only where there are
       some: two HCCL-free captures get no such caveat (hunt31 #8) */
    if (any && cJSON_AddBoolToObject(diff, "npu_hccl",
                                     any_run(base, NULL, comm_run) ||
                                         any_run(cur, NULL, comm_run)) == NULL)
        return 0;
    cJSON_ArrayForEach(pair, pr_sget(diff, PR_K_RUNS))
    {
        int npu = any && (has_ascend(base, pr_dj_str(pair, "baseline")) ||
                          has_ascend(cur, pr_dj_str(pair, "current")));
        /* MindSpore's step interval is the run's own name for the
           breakdown's dataloader part (review 30a #11: the diff said
           "breakdown.dataloader" where the report says "Step interval") */
        int ms = npu &&
                 any_run(base, pr_dj_str(pair, "baseline"), mindspore_run) &&
                 any_run(cur, pr_dj_str(pair, "current"), mindspore_run);
        cJSON_ArrayForEach(row, pr_sget(pair, "metrics"))
        {
            const cJSON *dev = pr_sget(row, PR_K_DEVICE);
            char text[48];
            /* the tensor-core share is the Cube unit's on an NPU */
            if (npu && pr_sget_is(pr_dj_str(row, "metric"), "tc.share") &&
                cJSON_AddStringToObject(row, "device_label", "(Cube share)") ==
                    NULL)
                return 0;
            if (ms &&
                pr_sget_is(pr_dj_str(row, "metric"), "breakdown.dataloader") &&
                cJSON_AddStringToObject(row, "device_label",
                                        "(step interval)") == NULL)
                return 0;
            if (!cJSON_IsNumber(dev))
                continue;
            snprintf(text, sizeof(text), "%s %d", npu ? "NPU" : "GPU",
                     dev->valueint);
            if (cJSON_AddStringToObject(row, "device_label", text) == NULL)
                return 0;
        }
    }
    return 1;
}

enum pr_status
pr_dcompat_finish(cJSON *diff, const cJSON *base, const cJSON *cur,
                  struct pr_error *err)
{
    cJSON *c = compat_obj(diff);
    const char *why = steps_mismatch(diff);
    cJSON *older =
        c != NULL ? cJSON_AddArrayToObject(c, "older_summaries") : NULL;

    if (why != NULL && !mark_tables(diff, why))
        return NOMEM(err);
    if (cJSON_GetObjectItemCaseSensitive(diff, "no_tasks_side") != NULL &&
        !mark_tables(diff, PR_DNO_TASKS_WHY))
        return NOMEM(err);
    if (!device_words(diff, base, cur))
        return NOMEM(err);
    if (older == NULL || !check_definitions(c, diff, base, cur) ||
        !check_older_side(older, diff, base, "baseline") ||
        !check_older_side(older, diff, cur, "current"))
        return NOMEM(err);
    if (c == NULL || cJSON_AddBoolToObject(
                         c, "comparable",
                         cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
                             c, "warnings")) == 0) == NULL)
        return NOMEM(err);
    return PR_OK;
}
