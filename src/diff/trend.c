/* trend.c - a `profreport trend` run (trend.h): a series of nightly
 * summaries as line charts (step time, breakdown, memory peak, top
 * operators; without steps, the capture-safe device utilization and top
 * kernels' time per call instead of step time), each night compared with the
 * one before by the same gates as `diff`, and the nights that crossed a limit
 * marked.  The command line is src/cli/cmd_trend.c's. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/escape.h"
#include "profreport/parse.h"
#include "profreport/rows.h"
#include "profreport/saved.h"
#include "profreport/sget.h"
#include "profreport/sink.h"
#include "profreport/trend.h"

/* A night.  A saved summary is read twice, to order the nights and
 * then to chart and gate them, held only while it and the next night are
 * compared, so that many nights never hold every tree (issue #17); a
 * trace, whose summary costs a whole analysis, is held throughout. */
struct night {
    cJSON *sum;       /* owned; NULL while a saved one is not held */
    const char *path; /* borrowed */
    double stamp;     /* recorded time, NAN when unknown */
    size_t given;     /* position on the command line */
    int saved;        /* a saved summary: read again when needed */
    cJSON *top;       /* owned: its heaviest operators (top_operators) */
    cJSON *top_k;     /* owned: its heaviest kernels (top_kernels) */
};

/* The nights of a run: the readable ones, ordered, then those that could
 * not be read (reported and skipped, issue #32). */
struct nights {
    struct night *n; /* owned: n_ok readable nights */
    size_t n_ok;
    cJSON *unreadable; /* owned: [{"path", "error"}] */
};

/* Recorded time of a summary: the smallest numeric run span (Kineto
 * writes the capture time there), NAN when any run lacks one. */
static double
recorded_time(const cJSON *sum)
{
    const cJSON *r;
    double t = NAN;

    cJSON_ArrayForEach(r, pr_sget(sum, PR_K_RUNS))
    {
        const char *span = pr_dj_str(r, PR_K_SPAN);
        double v;
        if (span == NULL || !pr_parse_double(span, -DBL_MAX, DBL_MAX, &v))
            return NAN;
        t = isnan(t) ? v : fmin(t, v);
    }
    return t;
}

static int
cmp_night(const void *pa, const void *pb)
{
    const struct night *a = pa, *b = pb;

    if (a->stamp != b->stamp)
        return a->stamp < b->stamp ? -1 : 1;
    return (a->given > b->given) - (a->given < b->given);
}

static enum pr_status top_operators(const cJSON *sum, cJSON **out,
                                    struct pr_error *err);
static enum pr_status top_kernels(const cJSON *sum, cJSON **out,
                                  struct pr_error *err);

/* Read night n's summary (again) unless it is held. */
static enum pr_status
night_hold(struct night *n, const struct pr_gate_job *g, struct pr_error *err)
{
    if (n->sum != NULL)
        return PR_OK;
    return pr_dload_summary(&n->path, 1, g->quiet, g->max_input, &n->sum, NULL,
                            err);
}

/* Night n done with: a saved summary is let go, to be read again. */
static void
night_release(struct night *n)
{
    if (n->saved) {
        cJSON_Delete(n->sum);
        n->sum = NULL;
    }
}

/* A night that could not be read: reported on stderr and in the trend,
 * and skipped, so that one corrupt night does not lose the series. */
static enum pr_status
night_unreadable(const struct pr_trend_job *a, struct nights *ns,
                 const char *path, const struct pr_error *why,
                 struct pr_error *err)
{
    cJSON *o = cJSON_CreateObject();

    if (o == NULL || !cJSON_AddItemToArray(ns->unreadable, o)) {
        cJSON_Delete(o);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    if (cJSON_AddStringToObject(o, PR_K_PATH, path) == NULL ||
        cJSON_AddStringToObject(o, "error", why->msg) == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (!a->gate.quiet)
        pr_term_printf(stderr,
                       "profreport: warning: trend: night %s skipped: %s\n",
                       path, why->msg);
    return PR_OK;
}

/* Every night read once for what orders them (and the latest night's
 * heaviest operators), then ordered; a night that cannot be read is
 * reported and left out.  Fewer than two readable nights is an error. */
static enum pr_status
load_nights(const struct pr_trend_job *a, struct nights *ns,
            struct pr_error *err)
{
    struct night *n = ns->n;
    size_t i;
    int all_stamped = 1;

    for (i = 0; i < a->n_inputs; i++) {
        struct night *at = &n[ns->n_ok];
        struct pr_error why;
        enum pr_status st;
        at->path = a->inputs[i];
        at->given = i;
        at->saved = pr_saved_sniff(at->path);
        pr_error_clear(&why);
        st = night_hold(at, &a->gate, &why);
        if (st == PR_E_NOMEM)
            return pr_error_set(err, st, "%s", why.msg);
        if (st != PR_OK) {
            st = night_unreadable(a, ns, at->path, &why, err);
            if (st != PR_OK)
                return st;
            continue;
        }
        at->stamp = recorded_time(at->sum);
        all_stamped &= !isnan(at->stamp);
        st = top_operators(at->sum, &at->top, err);
        if (st == PR_OK)
            st = top_kernels(at->sum, &at->top_k, err);
        if (st != PR_OK)
            return st;
        night_release(at);
        ns->n_ok++;
    }
    if (ns->n_ok < 2) {
        const cJSON *u = cJSON_GetArrayItem(ns->unreadable, 0);
        const char *path = pr_dj_str(u, PR_K_PATH),
                   *why = pr_dj_str(u, "error");
        size_t lp = strlen(path);

        /* the reason most often names the file itself: once is enough */
        if (strncmp(why, path, lp) == 0 && strncmp(why + lp, ": ", 2) == 0)
            return pr_error_set(err, PR_E_FORMAT,
                                "trend: %zu of %zu nights could be read, two "
                                "are needed (%s)",
                                ns->n_ok, a->n_inputs, why);
        return pr_error_set(err, PR_E_FORMAT,
                            "trend: %zu of %zu nights could be read, two are "
                            "needed (%s: %s)",
                            ns->n_ok, a->n_inputs, path, why);
    }
    if (all_stamped && !a->keep_order)
        qsort(n, ns->n_ok, sizeof(*n), cmp_night);
    return PR_OK;
}

/* Mean over runs of a step_summary figure (or of a breakdown category). */
static double
run_mean(const cJSON *sum, const char *key, const char *cat)
{
    const cJSON *r;
    double t = 0, k = 0;

    cJSON_ArrayForEach(r, pr_sget(sum, PR_K_RUNS))
    {
        const cJSON *ss = pr_sget(r, PR_K_STEP_SUMMARY);
        double v = cat == NULL ? pr_dj_num(ss, key)
                               : pr_dj_num(cJSON_GetObjectItemCaseSensitive(
                                               ss, PR_K_BREAKDOWN_US),
                                           cat);
        if (isfinite(v)) {
            t += v;
            k++;
        }
    }
    return k > 0 ? t / k : NAN;
}

/* Largest allocated-memory peak of any device of any run. */
static double
memory_peak(const cJSON *sum)
{
    const cJSON *r, *d;
    double peak = NAN;

    cJSON_ArrayForEach(r, pr_sget(sum, PR_K_RUNS))
    {
        const cJSON *mem = pr_sget(r, PR_K_MEMORY);
        cJSON_ArrayForEach(d, pr_sget(mem, PR_K_DEVICES))
        {
            double v = pr_dj_num(d, PR_K_PEAK_ALLOCATED_BYTES);
            if (isfinite(v))
                peak = isnan(peak) ? v : fmax(peak, v);
        }
    }
    return peak;
}

/* A run's operators as typed rows (rows.h); *v owned (free()). */
static enum pr_status
run_ops(const cJSON *run, struct pr_row_operator **v, size_t *n,
        struct pr_error *err)
{
    void *rows = NULL;
    enum pr_status st =
        pr_rows_load(pr_sget(run, PR_K_OPERATORS), PR_K_OPERATORS,
                     PR_RO_RUNS_OPERATORS, &rows, n, err);

    *v = rows;
    return st;
}

/* Device self time per step of operator `name`, over all runs, into
 * *out. */
static enum pr_status
op_per_step(const cJSON *sum, const char *name, double *out,
            struct pr_error *err)
{
    const cJSON *r;
    double t = 0, steps = 0;

    cJSON_ArrayForEach(r, pr_sget(sum, PR_K_RUNS))
    {
        int k = cJSON_GetArraySize(pr_sget(r, PR_K_STEPS));
        struct pr_row_operator *v;
        size_t n, i;
        enum pr_status st = run_ops(r, &v, &n, err);

        if (st != PR_OK)
            return st;
        steps += k > 0 ? k : 1;
        for (i = 0; i < n; i++)
            if (strcmp(v[i].name, name) == 0 && isfinite(v[i].device_self_us))
                t += v[i].device_self_us;
        free(v);
    }
    *out = steps > 0 ? t / steps : NAN;
    return PR_OK;
}

#define N_TOP_OPS 5

/* Steps recorded over all runs of a summary, a run that is one capture
 * (an nsys export, an op-summary CSV: its one "step" is the profiler's
 * window, not a step) counting none, as `diff` reads it (review 25u #3). */
static double
steps_of(const cJSON *sum)
{
    const cJSON *r;
    double k = 0;

    cJSON_ArrayForEach(r, pr_sget(sum, PR_K_RUNS))
    {
        if (!pr_sget_run_is_capture(r))
            k += pr_sget_len(pr_sget(r, PR_K_STEPS));
    }
    return k;
}

/* Whether a run is an Ascend one (device_kind npu). */
static int
npu_run(const cJSON *run)
{
    return pr_sget_is(pr_sget_str(run, PR_K_DEVICE_KIND), "npu");
}

/* Each device's utilization (the share of the window it was busy) into
 * o: "GPU 0" ("NPU 0" on Ascend), the id alone so that a night whose
 * process ids changed still names the same device; a second run on the
 * same id is "GPU 0 #2" (by the runs' order).  A capture-safe figure: a
 * share of the window, not a time per window. */
static int
device_utilization(cJSON *o, const cJSON *sum)
{
    const cJSON *runs = pr_sget(sum, PR_K_RUNS), *r, *d;

    cJSON_ArrayForEach(r, runs)
    {
        char label[200], id[64];
        int k = 1;
        cJSON_ArrayForEach(d, pr_sget(r, PR_K_GPU_METRICS))
        {
            const cJSON *dev = pr_sget(d, PR_K_DEVICE);
            double v = pr_dj_num(d, PR_K_UTILIZATION_PCT);
            if (!isfinite(v))
                continue;
            if (cJSON_IsNumber(dev))
                snprintf(id, sizeof(id), "%s %d", npu_run(r) ? "NPU" : "GPU",
                         dev->valueint);
            else
                snprintf(id, sizeof(id), "%.60s",
                         cJSON_IsString(dev) ? dev->valuestring : "device");
            snprintf(label, sizeof(label), "%s", id);
            while (cJSON_GetObjectItemCaseSensitive(o, label) != NULL)
                snprintf(label, sizeof(label), "%s #%d", id, ++k);
            if (!pr_dj_add_num(o, label, v))
                return 0;
        }
    }
    return 1;
}

/* A run's kernels as typed rows (rows.h); *v owned (free()). */
static enum pr_status
run_kernels(const cJSON *run, struct pr_row_kernel **v, size_t *n,
            struct pr_error *err)
{
    void *rows = NULL;
    enum pr_status st = pr_rows_load(pr_sget(run, PR_K_KERNELS), PR_K_KERNELS,
                                     PR_RO_RUNS_KERNELS, &rows, n, err);

    *v = rows;
    return st;
}

/* Mean device time per call of each kernel of top (its total over its
 * calls, over all runs) into o[name], null where no run has it: a figure
 * that the capture's length does not scale, as `diff` compares kernels
 * of captures without steps.  Each run's table is read once. */
static enum pr_status
kernels_per_call(cJSON *o, const cJSON *sum, const cJSON *top,
                 struct pr_error *err)
{
    double t[N_TOP_OPS] = {0}, calls[N_TOP_OPS] = {0};
    const cJSON *r, *name;
    int k;

    cJSON_ArrayForEach(r, pr_sget(sum, PR_K_RUNS))
    {
        struct pr_row_kernel *v;
        size_t n, i;
        enum pr_status st = run_kernels(r, &v, &n, err);

        if (st != PR_OK)
            return st;
        for (i = 0; i < n; i++) {
            if (v[i].name == NULL || !isfinite(v[i].total_us) ||
                v[i].calls <= 0)
                continue;
            k = 0;
            cJSON_ArrayForEach(name, top)
            {
                if (k < N_TOP_OPS && pr_sget_is(name->valuestring, v[i].name)) {
                    t[k] += v[i].total_us;
                    calls[k] += (double)v[i].calls;
                }
                k++;
            }
        }
        free(v);
    }
    k = 0;
    cJSON_ArrayForEach(name, top)
    {
        if (k < N_TOP_OPS &&
            !pr_dj_add_num(o, name->valuestring,
                           calls[k] > 0 ? t[k] / calls[k] : NAN))
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        k++;
    }
    return PR_OK;
}

/* Compare night cur with night prev under the gates; their gates go to
 * out[key] and *failed counts those that tripped. */
static enum pr_status
gate_night(const struct pr_trend_job *a, const struct night *prev,
           const struct night *cur, cJSON *out, const char *key, size_t *failed,
           struct pr_error *err)
{
    cJSON *diff = NULL, *gates;
    enum pr_status st;

    *failed = 0;
    st = pr_diff_compare(prev->sum, cur->sum, pr_dbasename(prev->path),
                         pr_dbasename(cur->path), &a->gate.opts, &diff, err);
    if (st == PR_OK)
        st = pr_diff_gate(diff, a->gate.rules, a->gate.n_rules, &a->gate.opts,
                          failed, err);
    if (st == PR_OK) {
        cJSON *warn = cJSON_DetachItemFromObjectCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(diff, "comparability"),
            "warnings");
        char wkey[40];

        gates = cJSON_DetachItemFromObjectCaseSensitive(diff, "gates");
        cJSON_AddItemToObject(out, key, gates);
        /* the diff's comparability warnings go with the night's gates:
           a changed GPU model or world size is the commonest cause of a
           jump, and a gate that trips on it is the hardware's as much as
           the code's (review 30g #4) */
        snprintf(wkey, sizeof(wkey), "%s_warnings", key);
        if (cJSON_GetArraySize(warn) > 0)
            cJSON_AddItemToObject(out, wkey, warn);
        else
            cJSON_Delete(warn);
    }
    cJSON_Delete(diff);
    return st;
}

/* Gates of a night that compared something (not skipped). */
static size_t
gates_compared(const cJSON *gates)
{
    const cJSON *g;
    size_t n = 0;

    cJSON_ArrayForEach(g, gates)
    {
        n += !pr_sget_is(pr_dj_str(g, "result"), "skipped");
    }
    return n;
}

static enum pr_status
night_figures(cJSON *o, const struct night *n, const cJSON *top_ops,
              const cJSON *top_k, struct pr_error *err)
{
    cJSON *bd = cJSON_AddObjectToObject(o, PR_K_BREAKDOWN_US);
    cJSON *ops = cJSON_AddObjectToObject(o, "operators_us");
    cJSON *util = cJSON_AddObjectToObject(o, PR_K_UTILIZATION_PCT);
    cJSON *kpc = cJSON_AddObjectToObject(o, "kernels_us_per_call");
    const cJSON *name;
    size_t k;
    int ok = bd != NULL && ops != NULL && util != NULL && kpc != NULL;

    ok = ok && cJSON_AddStringToObject(o, PR_K_LABEL, pr_dbasename(n->path));
    ok = ok && pr_dj_add_num(o, "recorded", n->stamp);
    ok = ok && pr_dj_add_num(o, PR_K_STEPS, steps_of(n->sum));
    ok = ok && device_utilization(util, n->sum);
    ok = ok &&
         pr_dj_add_num(o, "step_mean_us", run_mean(n->sum, PR_K_MEAN_US, NULL));
    ok = ok &&
         pr_dj_add_num(o, "step_p90_us", run_mean(n->sum, PR_K_P90_US, NULL));
    ok = ok && pr_dj_add_num(o, "memory_peak_bytes", memory_peak(n->sum));
    for (k = 0; ok && k < PR_N_BREAKDOWN; k++)
        ok = pr_dj_add_num(bd, pr_keys_breakdown[k].key,
                           run_mean(n->sum, NULL, pr_keys_breakdown[k].key));
    cJSON_ArrayForEach(name, top_ops)
    {
        double v;
        enum pr_status st;

        if (!ok)
            break;
        st = op_per_step(n->sum, name->valuestring, &v, err);
        if (st != PR_OK)
            return st;
        ok = pr_dj_add_num(ops, name->valuestring, v);
    }
    if (!ok)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return kernels_per_call(kpc, n->sum, top_k, err);
}

/* The heaviest kernels of a night by total device time (first run) into
 * *out (owned): the latest night's are charted per call. */
static enum pr_status
top_kernels(const cJSON *sum, cJSON **out, struct pr_error *err)
{
    const cJSON *run = cJSON_GetArrayItem(pr_sget(sum, PR_K_RUNS), 0);
    struct pr_row_kernel *v = NULL;
    size_t n = 0, i, j;
    int k;
    enum pr_status st = run_kernels(run, &v, &n, err);

    *out = NULL;
    if (st != PR_OK)
        return st;
    *out = cJSON_CreateArray();
    for (k = 0; *out != NULL && k < N_TOP_OPS; k++) {
        size_t best = n;
        for (i = 0; i < n; i++) {
            int taken = 0;
            if (v[i].name == NULL || !(v[i].total_us > 0))
                continue;
            for (j = 0; j < (size_t)cJSON_GetArraySize(*out); j++)
                taken |= pr_sget_is(
                    cJSON_GetArrayItem(*out, (int)j)->valuestring, v[i].name);
            if (!taken && (best == n || v[i].total_us > v[best].total_us))
                best = i;
        }
        if (best == n)
            break;
        if (!cJSON_AddItemToArray(*out, cJSON_CreateString(v[best].name))) {
            cJSON_Delete(*out);
            *out = NULL;
        }
    }
    free(v);
    return *out != NULL ? PR_OK
                        : pr_error_set(err, PR_E_NOMEM, "out of memory");
}

/* The heaviest operators of a night (first run's table is sorted by
 * device_self_us) into *out (owned): the latest night's are charted. */
static enum pr_status
top_operators(const cJSON *sum, cJSON **out, struct pr_error *err)
{
    const cJSON *run = cJSON_GetArrayItem(pr_sget(sum, PR_K_RUNS), 0);
    struct pr_row_operator *v = NULL;
    size_t n = 0, i;
    int k = 0;
    enum pr_status st = run_ops(run, &v, &n, err);

    *out = NULL;
    if (st != PR_OK)
        return st;
    *out = cJSON_CreateArray();
    for (i = 0; *out != NULL && i < n && k < N_TOP_OPS; i++) {
        if (!(v[i].device_self_us > 0))
            continue;
        if (!cJSON_AddItemToArray(*out, cJSON_CreateString(v[i].name))) {
            cJSON_Delete(*out);
            *out = NULL;
        }
        k++;
    }
    free(v);
    return *out != NULL ? PR_OK
                        : pr_error_set(err, PR_E_NOMEM, "out of memory");
}

/* Night i charted and gated against night i - 1, and from the third
 * night on also against the first night of the window (so that a rise
 * spread over nights, or hidden by a missing night, still crosses);
 * night i - 1 is let go after, night 0 is held throughout. */
static enum pr_status
trend_night(const struct pr_trend_job *a, struct night *n, size_t i,
            cJSON *nights, const cJSON *top, const cJSON *top_k,
            struct pr_error *err)
{
    cJSON *o = cJSON_CreateObject();
    size_t failed = 0, failed_base = 0, compared;
    enum pr_status st = night_hold(&n[i], &a->gate, err);

    if (st != PR_OK) {
        cJSON_Delete(o);
        return st;
    }
    if (o == NULL || nights == NULL || !cJSON_AddItemToArray(nights, o)) {
        cJSON_Delete(o);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    st = night_figures(o, &n[i], top, top_k, err);
    if (st != PR_OK)
        return st;
    if (i == 0)
        return cJSON_AddBoolToObject(o, "crossed", 0) == NULL
                   ? pr_error_set(err, PR_E_NOMEM, "out of memory")
                   : PR_OK;
    st = gate_night(a, &n[i - 1], &n[i], o, "gates", &failed, err);
    if (st == PR_OK && i >= 2)
        st = night_hold(&n[0], &a->gate, err);
    if (st == PR_OK && i >= 2)
        st =
            gate_night(a, &n[0], &n[i], o, "gates_vs_first", &failed_base, err);
    if (i - 1 > 0)
        night_release(&n[i - 1]);
    if (st != PR_OK)
        return st;
    compared =
        gates_compared(cJSON_GetObjectItemCaseSensitive(o, "gates")) +
        gates_compared(cJSON_GetObjectItemCaseSensitive(o, "gates_vs_first"));
    if (cJSON_AddBoolToObject(o, "crossed", failed + failed_base > 0) == NULL ||
        cJSON_AddStringToObject(
            o, PR_K_VERDICT,
            pr_diff_verdict_of(failed + failed_base, compared)) == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

/* trend["verdict"] (the last night's: "fail", "pass" or "inconclusive"
 * when none of its gates compared anything) and "crossed_nights". */
static int
add_verdict(cJSON *t, const cJSON *nights)
{
    const cJSON *night,
        *last = cJSON_GetArrayItem(nights, cJSON_GetArraySize(nights) - 1);
    size_t crossed = 0;

    cJSON_ArrayForEach(night, nights)
    {
        crossed +=
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(night, "crossed"));
    }
    return cJSON_AddStringToObject(
               t, PR_K_VERDICT,
               pr_sget_str_or(last, PR_K_VERDICT, "inconclusive")) != NULL &&
           pr_dj_add_num(t, "crossed_nights", (double)crossed);
}

static enum pr_status
build_trend(const struct pr_trend_job *a, struct nights *ns, cJSON **out,
            struct pr_error *err)
{
    cJSON *t = cJSON_CreateObject(), *nights, *top, *top_k;
    const cJSON *night;
    size_t i;
    double steps = 0;
    enum pr_status st = PR_OK;

    top = cJSON_Duplicate(ns->n[ns->n_ok - 1].top, 1);
    top_k = cJSON_Duplicate(ns->n[ns->n_ok - 1].top_k, 1);
    if (t == NULL || top == NULL || top_k == NULL ||
        !pr_dj_add_num(t, "trend_version", 1)) {
        cJSON_Delete(t);
        cJSON_Delete(top);
        cJSON_Delete(top_k);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    cJSON_AddItemToObject(t, "top_operators", top);
    cJSON_AddItemToObject(t, "top_kernels", top_k);
    nights = cJSON_AddArrayToObject(t, "nights");
    for (i = 0; i < ns->n_ok && st == PR_OK; i++)
        st = trend_night(a, ns->n, i, nights, top, top_k, err);
    /* no night with steps: every figure is per capture, and the
       renderers say so rather than "step" (review 25u #3) */
    cJSON_ArrayForEach(night, nights)
    {
        double k = pr_sget_num(night, PR_K_STEPS);
        steps += isfinite(k) ? k : 0;
    }
    if (st == PR_OK && cJSON_AddBoolToObject(t, "no_steps", steps == 0) == NULL)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK) {
        cJSON_AddItemToObject(t, "unreadable", ns->unreadable);
        ns->unreadable = NULL;
        if (!add_verdict(t, nights))
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    if (st != PR_OK) {
        cJSON_Delete(t);
        return st;
    }
    *out = t;
    return PR_OK;
}

/* Under --strict, a --fail-on rule that matched no figure in any
 * comparison of the window is a usage error (as in `diff`). */
static enum pr_status
strict_check(const struct pr_trend_job *a, const cJSON *t, struct pr_error *err)
{
    const cJSON *night, *g;
    size_t r;

    if (!a->gate.opts.strict)
        return PR_OK;
    for (r = 0; r < a->gate.n_rules; r++) {
        const char *rule = a->gate.rules[r].text;
        int matched = 0;
        cJSON_ArrayForEach(night, cJSON_GetObjectItemCaseSensitive(t, "nights"))
        {
            cJSON_ArrayForEach(g,
                               cJSON_GetObjectItemCaseSensitive(night, "gates"))
            {
                matched |= pr_sget_is(pr_dj_str(g, PR_K_RULE), rule) &&
                           !cJSON_IsFalse(
                               cJSON_GetObjectItemCaseSensitive(g, "matched"));
            }
        }
        if (!matched)
            return pr_error_set(err, PR_E_USAGE,
                                "trend: --fail-on '%s' matches no figure of "
                                "any night (an error under --strict)",
                                rule);
    }
    return PR_OK;
}

static enum pr_status
trend_markdown(const cJSON *t, struct pr_buf *b, struct pr_error *err)
{
    struct pr_dtable tab;

    struct pr_dverdict v;
    const cJSON *u;

    pr_dtrend_verdict(t, &v);
    if (pr_buf_printf(b, "## profreport trend: %s (%s)\n\n", v.word,
                      v.counts) != PR_OK)
        b->failed = 1;
    cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(t, "unreadable"))
    {
        if (pr_buf_adds(b, "**Warning:** night ") != PR_OK ||
            pr_dmd_code(b, pr_sget_str_or(u, PR_K_PATH, "?"), 120) != PR_OK ||
            pr_buf_adds(b, " could not be read and is left out: ") != PR_OK ||
            pr_dmd_code(b, pr_sget_str_or(u, "error", "?"), 400) != PR_OK ||
            pr_buf_adds(b, "\n\n") != PR_OK)
            b->failed = 1;
    }
    pr_dtable_put(b, &tab, pr_dtable_nights(&tab, t), pr_dtable_md);
    if (b->failed)
        return pr_error_set(err, PR_E_NOMEM, "markdown: out of memory");
    return PR_OK;
}

/* Stage one text report (st: how rendering it into b went). */
static enum pr_status
stage_text(struct pr_outputs *set, const char *path, struct pr_buf *b,
           enum pr_status st, struct pr_error *err)
{
    const char *tmp;

    if (st == PR_OK)
        st = pr_outputs_stage(set, path, &tmp, err);
    if (st == PR_OK)
        st = pr_outputs_fill(tmp, path, b->data ? b->data : "", b->len, err);
    pr_buf_free(b);
    return st;
}

static enum pr_status
stage_json(struct pr_outputs *set, const char *path, const cJSON *t,
           struct pr_error *err)
{
    char *json = cJSON_Print(t);
    const char *tmp;
    enum pr_status st;

    if (json == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = pr_outputs_stage(set, path, &tmp, err);
    if (st == PR_OK)
        st = pr_outputs_fill(tmp, path, json, strlen(json), err);
    cJSON_free(json);
    return st;
}

/* Every report, committed together: all of them or none. */
static enum pr_status
write_reports(const struct pr_trend_job *a, const cJSON *t,
              struct pr_error *err)
{
    struct pr_outputs set;
    struct pr_buf b;
    const char *tmp;
    enum pr_status st = PR_OK;

    pr_outputs_init(&set);
    if (a->gate.json != NULL)
        st = stage_json(&set, a->gate.json, t, err);
    if (st == PR_OK && a->gate.markdown != NULL) {
        pr_buf_init(&b, 0);
        st = stage_text(&set, a->gate.markdown, &b, trend_markdown(t, &b, err),
                        err);
    }
    /* standard output, when no report file is asked for: the terminal's
       tables, or the Markdown (--format md) */
    if (st == PR_OK && a->gate.markdown == NULL && a->gate.html == NULL &&
        a->gate.json == NULL && a->gate.pdf == NULL) {
        pr_buf_init(&b, 0);
        st = stage_text(&set, "-", &b,
                        a->stdout_md ? trend_markdown(t, &b, err)
                                     : pr_trend_text(t, &b, err),
                        err);
    }
    if (st == PR_OK && a->gate.html != NULL) {
        pr_buf_init(&b, 0);
        st = stage_text(&set, a->gate.html, &b, pr_trend_html(t, &b, err), err);
    }
    if (st == PR_OK && a->junit != NULL) {
        pr_buf_init(&b, 0);
        st = stage_text(&set, a->junit, &b, pr_trend_junit(t, &b, err), err);
    }
    if (st == PR_OK && a->gate.pdf != NULL) {
        st = pr_outputs_stage(&set, a->gate.pdf, &tmp, err);
        if (st == PR_OK)
            st = pr_trend_pdf(t, tmp, err);
    }
    if (st == PR_OK)
        st = pr_outputs_commit(&set, err);
    pr_outputs_free(&set);
    return st;
}

enum pr_status
pr_trend_run(const struct pr_trend_job *a, const char **verdict,
             struct pr_error *err)
{
    static const char *const verdicts[] = {"pass", "fail", "inconclusive"};
    struct nights ns = {calloc(a->n_inputs, sizeof(struct night)), 0,
                        cJSON_CreateArray()};
    cJSON *t = NULL;
    size_t i;
    enum pr_status st = PR_OK;

    *verdict = NULL;
    if (ns.n == NULL || ns.unreadable == NULL)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK)
        st = load_nights(a, &ns, err);
    if (st == PR_OK)
        st = build_trend(a, &ns, &t, err);
    if (st == PR_OK)
        st = strict_check(a, t, err);
    if (st == PR_OK)
        st = write_reports(a, t, err);
    for (i = 0; st == PR_OK && i < 3; i++)
        if (pr_sget_is(pr_sget_str(t, PR_K_VERDICT), verdicts[i]))
            *verdict = verdicts[i];
    cJSON_Delete(t);
    cJSON_Delete(ns.unreadable);
    for (i = 0; ns.n != NULL && i < a->n_inputs; i++) {
        cJSON_Delete(ns.n[i].sum);
        cJSON_Delete(ns.n[i].top);
        cJSON_Delete(ns.n[i].top_k);
    }
    free(ns.n);
    return st;
}
