/* attribution.c - the share of kernel time that the op tree gives to a
 * PyTorch operator, and the reason when much of it stays unattributed.
 * The linking itself is tree.c's; this file only measures and reports. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/attribution.h"
#include "profreport/checked.h"
#include "profreport/devices.h"
#include "profreport/hints.h"
#include "profreport/keys.h"

#include "../internal.h"

/* Per node: the node or one of its ancestors is an operator (5.4).  The
 * reversed post-order visits parents before their children. */
static unsigned char *
under_operator(const struct pr_tree *tree)
{
    unsigned char *u = calloc(tree->n_nodes ? tree->n_nodes : 1, 1);
    struct pr_tree_walk w;
    uint32_t n;

    if (u == NULL || pr_tree_walk_init(&w, tree, 1, NULL) != PR_OK) {
        free(u);
        return NULL;
    }
    while ((n = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
        uint32_t p = tree->nodes[n].parent;

        u[n] = tree->nodes[n].is_operator || (p != PR_TREE_NONE && u[p] != 0);
    }
    pr_tree_walk_free(&w);
    return u;
}

/* Without memory for the per-node flags, only the launching node itself
 * is asked; the measure is then a lower bound. */
static int
reaches_op(const struct pr_tree *tree, const unsigned char *u, uint32_t node)
{
    if (node == PR_TREE_NONE)
        return 0;
    return u != NULL ? u[node] != 0 : tree->nodes[node].is_operator;
}

/* Add dur to name's unattributed time and keep the largest.  Short of
 * memory the name is left out: it only illustrates the reason. */
static void
note_missing(struct pr_attribution *a, struct pr_idmap *by_name, int *ok,
             uint32_t name, int64_t dur)
{
    size_t v;
    int64_t sum;

    if (!*ok)
        return;
    v = pr_idmap_get(by_name, name);
    sum = pr_sat_add_i64(v == PR_NONE ? 0 : (int64_t)v, dur);
    if (pr_idmap_put(by_name, name, (size_t)sum, NULL) != PR_OK) {
        *ok = 0;
        a->top_name = PR_STR_NONE;
        return;
    }
    if (sum > a->top_ns || (sum == a->top_ns && name < a->top_name)) {
        a->top_ns = sum;
        a->top_name = name;
    }
}

void
pr_attribution_measure(const struct pr_trace *t, const struct pr_tree *tree,
                       struct pr_attribution *a)
{
    unsigned char *u = under_operator(tree);
    struct pr_idmap by_name = {0};
    size_t i;
    int ok = 1;

    memset(a, 0, sizeof(*a));
    a->top_name = PR_STR_NONE;
    a->npu = pr_trace_is_npu(t);
    a->amd = !a->npu && pr_devices_vendor(t) != NULL &&
             strcmp(pr_devices_vendor(t), "amd") == 0;
    for (i = 0; i < tree->n_nodes; i++)
        a->n_ops += tree->nodes[i].is_operator && !tree->nodes[i].dropped;
    a->n_rt_by_id = tree->n_rt_by_id;
    a->n_rt_by_time = tree->n_rt_by_time;
    for (i = 0; i < tree->n_devs; i++) {
        const struct pr_tree_dev *d = &tree->devs[i];
        const struct pr_event *e = &t->events[d->ev];

        if (e->kind != PR_KIND_DEVICE_TASK)
            continue;
        a->n_kernels++;
        a->kernel_ns = pr_sat_add_i64(a->kernel_ns, e->dur_ns);
        if (d->rt == PR_TREE_NONE || tree->rts[d->rt].ev == PR_TREE_NONE) {
            a->n_no_launch++; /* no runtime, or the staled "dummy" */
            a->no_launch_ns = pr_sat_add_i64(a->no_launch_ns, e->dur_ns);
        } else if (reaches_op(tree, u, pr_tree_dev_node(tree, d))) {
            a->n_op++;
            a->op_ns = pr_sat_add_i64(a->op_ns, e->dur_ns);
            continue;
        } else {
            a->n_outside++;
            a->outside_ns = pr_sat_add_i64(a->outside_ns, e->dur_ns);
        }
        note_missing(a, &by_name, &ok, e->name, e->dur_ns);
    }
    pr_idmap_free(&by_name);
    free(u);
}

double
pr_attribution_pct(const struct pr_attribution *a)
{
    if (a->n_kernels == 0)
        return NAN;
    if (a->kernel_ns <= 0) /* only zero-length kernels: count them */
        return 100.0 * (double)a->n_op / (double)a->n_kernels;
    return 100.0 * (double)a->op_ns / (double)a->kernel_ns;
}

/* The cause with the larger share first, then the largest kernel; an
 * AMD run's graph replays are HIP graphs (hipGraphLaunch), as the
 * report's other words for it say. */
static size_t
explain(const struct pr_attribution *a, double miss, char *buf, size_t n)
{
    double no_launch = 100.0 * (double)a->no_launch_ns / (double)a->kernel_ns;
    double outside = 100.0 * (double)a->outside_ns / (double)a->kernel_ns;
    int len;

    if (a->n_ops == 0 && a->npu)
        len = snprintf(buf, n, "%.1f%% of " PR_HINT_NO_OPS_NPU, miss);
    else if (a->n_ops == 0 && a->amd)
        len = snprintf(buf, n, "%.1f%% of " PR_HINT_NO_OPS_AMD, miss);
    else if (a->n_ops == 0)
        len = snprintf(buf, n, "%.1f%% of " PR_HINT_NO_OPS, miss);
    else if (no_launch >= outside)
        len = snprintf(buf, n,
                       "%.1f%% of kernel time has no operator: %.1f%% has "
                       "no launch event with its correlation id (launched "
                       "before the profiler started, or runtime events "
                       "were left out of the trace)%s",
                       miss, no_launch,
                       outside > 0 ? ", the rest was launched outside "
                                     "every operator"
                                   : "");
    else
        len = snprintf(buf, n,
                       "%.1f%% of kernel time has no operator: %.1f%% was "
                       "launched outside every operator (from Python "
                       "directly, as Triton kernels and %s graph replays "
                       "are, or from a thread without operator events; a "
                       "record_function range around the launch names "
                       "it)%s",
                       miss, outside, a->amd ? "HIP" : "CUDA",
                       no_launch > 0 ? ", the rest has no launch event" : "");
    return len < 0 ? 0 : (size_t)len;
}

/* Bytes of s to show, at most max, cut on a UTF-8 character boundary. */
static int
cut_utf8(const char *s, size_t max)
{
    size_t n = strlen(s);

    if (n <= max)
        return (int)n;
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    return (int)max;
}

int
pr_attribution_reason(const struct pr_attribution *a, const char *top,
                      char *buf, size_t n)
{
    double pct = pr_attribution_pct(a);
    size_t len;

    if (!(pct < PR_ATTRIBUTION_MIN_PCT) || n == 0 || a->kernel_ns <= 0)
        return 0;
    len = explain(a, 100.0 - pct, buf, n);
    if (top != NULL && len < n)
        snprintf(buf + len, n - len,
                 "; the largest part is %.*s (%.1f%% of "
                 "kernel time)",
                 cut_utf8(top, 160), top,
                 100.0 * (double)a->top_ns / (double)a->kernel_ns);
    return 1;
}

/* The run's attribution row: times in ns, the share null without
 * kernels, the reason null where the kernels reach their operators. */
static struct pr_row_attribution
attribution_row(const struct pr_attribution *a, const char *why)
{
    struct pr_row_attribution r;

    memset(&r, 0, sizeof(r));
    r.kernel_ns = a->kernel_ns;
    r.operator_ns = a->op_ns;
    r.operator_pct = pr_attribution_pct(a);
    r.no_launch_ns = a->no_launch_ns;
    r.outside_ns = a->outside_ns;
    r.kernels = (int64_t)a->n_kernels;
    r.launches_by_id = (int64_t)a->n_rt_by_id;
    r.launches_by_time = (int64_t)a->n_rt_by_time;
    r.reason = why;
    return r;
}

enum pr_status
pr_attribution_fill(const struct pr_trace *t, const struct pr_tree *tree,
                    cJSON *run, struct pr_notes *notes, struct pr_error *err)
{
    struct pr_attribution a;
    char why[768];
    int has_why;
    double pct;
    struct pr_row_attribution row;

    pr_attribution_measure(t, tree, &a);
    has_why = pr_attribution_reason(
        &a, a.top_name == PR_STR_NONE ? NULL : pr_trace_str(t, a.top_name), why,
        sizeof(why));
    pct = pr_attribution_pct(&a);
    row = attribution_row(&a, has_why ? why : NULL);
    if (pr_emit_put(run, PR_K_ATTRIBUTION,
                    pr_rows_row(PR_RO_RUNS_ATTRIBUTION, &row), "attribution",
                    err) != PR_OK)
        return PR_E_NOMEM;
    pr_notes_count(notes, PR_K_KERNEL_TIME_WITHOUT_OPERATOR_PCT,
                   isnan(pct) ? NAN : 100.0 - pct);
    if (has_why)
        pr_notes_row(notes, "kernels_without_operator", a.n_kernels - a.n_op,
                     why);
    return PR_OK;
}
