/* gate.c - evaluate the gates against a diff tree (diff.h): the default
 * step gate (unless --no-default-gate) and every `--fail-on` rule.  A
 * figure with per-step samples (step time, breakdown) trips a gate only
 * when its change crosses the limit AND the noise test found it
 * significant; figures without samples (memory, GPU metrics, operators,
 * kernels) are judged on the limit alone, and the report says so.  A
 * gate that compared nothing is "skipped", never a pass: when every gate
 * is, the verdict is "inconclusive" (issue #32). */
#include "config.h"

#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/near.h"

#define NOMEM(err) pr_error_set(err, PR_E_NOMEM, "out of memory")

struct gate {
    const struct pr_rule *rule;
    const struct pr_diff_opts *opts;
    cJSON *offenders;    /* borrowed from the gate object */
    cJSON *within_noise; /* borrowed */
    cJSON *worst;        /* owned until attached: largest change seen */
    double worst_d;
    size_t checked;
    const char *not_comparable; /* borrowed: why a matching figure could
                                   not be compared (the first seen) */
    size_t runs_matched;        /* runs with a figure the rule names */
    size_t runs_compared;       /* of them, runs where it was compared */
    int oom;
};

/* The change in the rule's unit.  A new row has no relative change; for
 * "grew by more than N%" it counts as an infinite growth. */
static double
rule_delta(const struct pr_rule *r, const cJSON *row, const char *status,
           const char *delta_key)
{
    if (r->unit != PR_RULE_PCT)
        return pr_dj_num(row, delta_key);
    if (status != NULL && strcmp(status, "new") == 0)
        return INFINITY;
    return pr_dj_num(row, "delta_pct");
}

static void
copy_num(struct gate *g, cJSON *to, const cJSON *from, const char *key,
         const char *as)
{
    if (!pr_dj_add_num(to, as != NULL ? as : key, pr_dj_num(from, key)))
        g->oom = 1;
}

static void
copy_str(struct gate *g, cJSON *to, const char *key, const char *s)
{
    cJSON *v = s != NULL ? cJSON_CreateString(s) : cJSON_CreateNull();

    if (v == NULL || !cJSON_AddItemToObject(to, key, v)) {
        cJSON_Delete(v);
        g->oom = 1;
    }
}

/* A description of one observed change, for the gate's lists. */
static cJSON *
make_item(struct gate *g, const char *what, const char *run, const cJSON *row,
          int is_table)
{
    cJSON *it = cJSON_CreateObject();
    const cJSON *noise = cJSON_GetObjectItemCaseSensitive(row, "noise");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(row, PR_K_DEVICE);

    if (it == NULL) {
        g->oom = 1;
        return NULL;
    }
    copy_str(g, it, "what", what);
    if (pr_dj_str(row, "short_name") != NULL)
        copy_str(g, it, "short", pr_dj_str(row, "short_name"));
    copy_str(g, it, "input_shapes", pr_dj_str(row, PR_K_INPUT_SHAPES));
    copy_str(g, it, "run", run);
    /* "NPU 0" on an Ascend pair (compat.c), for the describe line */
    if (pr_dj_str(row, "device_label") != NULL)
        copy_str(g, it, "device_label", pr_dj_str(row, "device_label"));
    if (!cJSON_AddItemToObject(it, PR_K_DEVICE,
                               dev ? cJSON_Duplicate(dev, 0)
                                   : cJSON_CreateNull()))
        g->oom = 1;
    if (cJSON_GetObjectItemCaseSensitive(row, "device_current") != NULL &&
        !cJSON_AddItemToObject(
            it, "device_current",
            cJSON_Duplicate(
                cJSON_GetObjectItemCaseSensitive(row, "device_current"), 0)))
        g->oom = 1;
    copy_str(g, it, "unit", is_table ? "us" : pr_dj_str(row, "unit"));
    copy_str(g, it, "status", pr_dj_str(row, "status"));
    copy_num(g, it, row, is_table ? "baseline_us" : "baseline", "baseline");
    copy_num(g, it, row, is_table ? "current_us" : "current", "current");
    copy_num(g, it, row, is_table ? "delta_us" : "delta", "delta");
    copy_num(g, it, row, "delta_pct", NULL);
    copy_str(g, it, "noise_method", pr_dj_str(noise, PR_K_METHOD));
    if (cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(noise, "significant")))
        copy_str(
            g, it, "noise_result",
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(noise, "significant"))
                ? "significant"
                : "within noise");
    copy_num(g, it, noise, "p_value", NULL);
    copy_num(g, it, noise, "ci_lo_pct", NULL);
    copy_num(g, it, noise, "ci_hi_pct", NULL);
    return it;
}

static void
push(struct gate *g, cJSON *list, cJSON *item)
{
    if (item != NULL && !cJSON_AddItemToArray(list, item)) {
        cJSON_Delete(item);
        g->oom = 1;
    }
}

/* Is d past the largest change so far, w, in the rule's direction?  By
 * more than a relative 1e-9: ranks whose changes differ in the last bit
 * (a summary prints 15 digits) keep the first as the largest, whether
 * they were read from their traces or from a merged summary. */
static int
beyond(const struct pr_rule *r, double d, double w)
{
    double tol = 1e-9 * fabs(w);

    if (isinf(d) || isinf(w))
        return r->greater ? d > w : d < w;
    return r->greater ? d > w + tol : d < w - tol;
}

/* Judge one row.  noise_aware rows carry a "noise" object. */
static void
judge(struct gate *g, const char *what, const char *run, const cJSON *row,
      int is_table)
{
    const struct pr_rule *r = g->rule;
    double d = rule_delta(r, row, pr_dj_str(row, "status"),
                          is_table ? "delta_us" : "delta");
    const cJSON *sig = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(row, "noise"), "significant");

    if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(row, "comparable"))) {
        if (g->not_comparable == NULL)
            g->not_comparable = pr_dj_str(row, "not_comparable");
        return; /* a whole capture against per-step means, say */
    }
    if (isnan(d))
        return;
    g->checked++;
    if (g->worst == NULL || beyond(r, d, g->worst_d)) {
        cJSON_Delete(g->worst);
        g->worst = make_item(g, what, run, row, is_table);
        g->worst_d = d;
    }
    if (!pr_rule_crossed(r, d))
        return;
    if (cJSON_IsFalse(sig))
        push(g, g->within_noise, make_item(g, what, run, row, is_table));
    else
        push(g, g->offenders, make_item(g, what, run, row, is_table));
}

static void
eval_metric(struct gate *g, const cJSON *diff)
{
    const cJSON *pair, *row;

    cJSON_ArrayForEach(pair, cJSON_GetObjectItemCaseSensitive(diff, PR_K_RUNS))
    {
        const char *run = pr_dj_str(pair, "current");
        int matched = 0, compared = 0;
        cJSON_ArrayForEach(row,
                           cJSON_GetObjectItemCaseSensitive(pair, "metrics"))
        {
            const char *m = pr_dj_str(row, "metric");
            if (m == NULL || strcmp(m, g->rule->name) != 0)
                continue;
            matched = 1;
            if (!cJSON_IsFalse(
                    cJSON_GetObjectItemCaseSensitive(row, "comparable")))
                compared = 1;
            judge(g, m, run, row, 0);
        }
        g->runs_matched += (size_t)matched;
        g->runs_compared += (size_t)compared;
    }
}

/* A kernel's name as a reader says it (review 23g #2): without "void "
 * and the namespaces before its own identifier, and, where it takes no
 * template list, without its arguments: "void flash::flash_fwd_kernel<
 * ...>(flash::Flash_fwd_params)" -> "flash_fwd_kernel<...>(flash::...)",
 * "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<...>)" ->
 * "ncclDevKernel_SendRecv".  "" when it is the name itself. */
static void
bare_name(const char *name, char *buf, size_t n)
{
    const char *p = name, *end, *at;
    size_t len;

    buf[0] = '\0';
    if (strncmp(p, "void ", 5) == 0)
        p += 5;
    end = p + strcspn(p, "<(");
    for (at = p; at + 1 < end; at++)
        if (at[0] == ':' && at[1] == ':')
            p = at + 2;
    len = *end == '(' ? (size_t)(end - p) : strlen(p);
    if (p == name && len == strlen(name))
        return;
    snprintf(buf, n, "%.*s", (int)len, p);
}

/* Whether the rule names the row: its full name, the short name the
 * reports print (short_name) or its bare name (bare_name). */
static int
name_is(const struct gate *g, const char *name)
{
    if (!g->rule->wildcard)
        return strcmp(name, g->rule->name) == 0;
    return fnmatch(g->rule->name, name, FNM_NOESCAPE) == 0;
}

static int
name_matches(const struct gate *g, const cJSON *row)
{
    const char *name = pr_dj_str(row, PR_K_NAME);
    const char *short_name = pr_dj_str(row, "short_name");
    double share = pr_dj_num(row, PR_K_SHARE_PCT);
    char bare[1024];

    if (name == NULL)
        return 0;
    /* a glob over hundreds of rows would flag noise in tiny ones */
    if (g->rule->wildcard && share < g->opts->min_share_pct)
        return 0;
    if (name_is(g, name) || (short_name != NULL && name_is(g, short_name)))
        return 1;
    bare_name(name, bare, sizeof(bare));
    return bare[0] != '\0' && name_is(g, bare);
}

static void
eval_table(struct gate *g, const cJSON *diff)
{
    const char *key = g->rule->kind == PR_RULE_OP      ? "operators"
                      : g->rule->kind == PR_RULE_SHAPE ? "operators_by_shape"
                                                       : "kernels";
    const cJSON *row;

    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(diff, key))
    {
        if (name_matches(g, row))
            judge(g, pr_dj_str(row, PR_K_NAME), NULL, row, 1);
    }
}

static enum pr_status
gate_detail(cJSON *gate, const struct gate *g, int capture, /* 1, 2 npu */
            struct pr_error *err)
{
    struct pr_buf b;
    int n_off = cJSON_GetArraySize(g->offenders);
    int n_noise = cJSON_GetArraySize(g->within_noise);
    enum pr_status st = PR_OK;
    cJSON *s;

    pr_buf_init(&b, 0); /* names are unbounded: no cap to trip over */
    if (n_off > 0) {
        st = pr_ddescribe(&b, cJSON_GetArrayItem(g->offenders, 0));
        if (st == PR_OK && n_off > 1)
            st = pr_buf_printf(&b, "; and %d more", n_off - 1);
    } else if (n_noise > 0) {
        st = pr_ddescribe(&b, cJSON_GetArrayItem(g->within_noise, 0));
        if (st == PR_OK)
            st = pr_buf_adds(&b, ": crosses the limit but is within "
                                 "step-to-step noise");
    } else if (g->worst != NULL) {
        st = pr_ddescribe(&b, g->worst);
    } else if (g->not_comparable != NULL) {
        st = pr_buf_printf(&b, "nothing compared: %s", g->not_comparable);
        /* review 23g #2: the remedy beside the reason */
        if (st == PR_OK && capture == 1)
            st = pr_buf_adds(&b, "; gate a diff of captures without steps "
                                 "with --fail-on 'rate.kernels<-5%' (kernels "
                                 "per second of capture), --fail-on "
                                 "'gpu.utilization<-5pp' or --fail-on "
                                 "'kernel:*>+10%' (per call)");
        /* an Ascend device's utilization counts HCCL tasks, waits for a
           late rank included, as busy (review 25u #4) */
        else if (st == PR_OK && capture == 2)
            st = pr_buf_adds(&b, "; gate a diff of captures without steps "
                                 "with --fail-on 'kernel:*>+10%' (per call; "
                                 "an NPU's utilization counts HCCL waits as "
                                 "busy, so it rises when a rank waits "
                                 "longer)");
    } else {
        st = pr_buf_adds(&b, "nothing compared: no figure of these runs "
                             "matches the rule");
    }
    /* a partial comparison says so: a regression confined to the runs
       not compared would pass unseen (review 19 #6) */
    if (st == PR_OK && g->runs_compared > 0 &&
        g->runs_compared < g->runs_matched)
        st = pr_buf_printf(&b, " (%zu of %zu runs compared: %s)",
                           g->runs_compared, g->runs_matched,
                           g->not_comparable != NULL ? g->not_comparable : "");
    if (st == PR_OK && b.failed)
        st = PR_E_LIMIT;
    s = st == PR_OK ? cJSON_CreateString(b.data ? b.data : "") : NULL;
    pr_buf_free(&b);
    if (s == NULL || !cJSON_AddItemToObject(gate, "detail", s)) {
        cJSON_Delete(s);
        return NOMEM(err);
    }
    return PR_OK;
}

/* The gate's own fields: its rule, its result and what it looked at. */
static void
gate_fields(cJSON *gate, struct gate *g, int is_default, int failed,
            int skipped)
{
    const struct pr_rule *r = g->rule;

    if (g->worst == NULL)
        g->worst = cJSON_CreateNull();
    if (g->worst == NULL || !cJSON_AddItemToObject(gate, "largest", g->worst))
        g->oom = 1;
    if (cJSON_AddStringToObject(gate, PR_K_RULE, r->text) == NULL ||
        cJSON_AddBoolToObject(gate, "default", is_default) == NULL ||
        cJSON_AddBoolToObject(gate, "noise_aware",
                              r->kind == PR_RULE_METRIC &&
                                  (strncmp(r->name, "step.", 5) == 0 ||
                                   strncmp(r->name, "breakdown.", 10) == 0)) ==
            NULL ||
        !pr_dj_add_num(gate, "checked", (double)g->checked) ||
        cJSON_AddStringToObject(gate, "result",
                                failed    ? "fail"
                                : skipped ? "skipped"
                                          : "pass") == NULL ||
        cJSON_AddBoolToObject(gate, "matched",
                              !skipped || g->not_comparable != NULL) == NULL)
        g->oom = 1;
    copy_str(g, gate, "skip_reason",
             !skipped                    ? NULL
             : g->not_comparable != NULL ? "not_comparable"
                                         : "no_figure");
    /* a partial comparison, for the verdict's headline (pr_dverdict):
       only where some runs were not compared, so that a diff whose runs
       all compared writes what it always wrote */
    if (g->runs_compared > 0 && g->runs_compared < g->runs_matched &&
        (!pr_dj_add_num(gate, "runs_compared", (double)g->runs_compared) ||
         !pr_dj_add_num(gate, "runs_matched", (double)g->runs_matched) ||
         cJSON_AddStringToObject(gate, "not_comparable",
                                 g->not_comparable != NULL ? g->not_comparable
                                                           : "") == NULL))
        g->oom = 1;
}

static enum pr_status
eval_rule(cJSON *gates, const cJSON *diff, const struct pr_rule *r,
          int is_default, const struct pr_diff_opts *o, int *failed,
          int *compared, struct pr_error *err)
{
    cJSON *gate = cJSON_CreateObject();
    struct gate g;
    enum pr_status st;
    int skipped;

    memset(&g, 0, sizeof(g));
    g.rule = r;
    g.opts = o;
    if (gate == NULL || !cJSON_AddItemToArray(gates, gate))
        return NOMEM(err);
    g.offenders = cJSON_AddArrayToObject(gate, "offenders");
    g.within_noise = cJSON_AddArrayToObject(gate, "within_noise");
    if (g.offenders == NULL || g.within_noise == NULL)
        return NOMEM(err);
    if (r->kind == PR_RULE_METRIC)
        eval_metric(&g, diff);
    else
        eval_table(&g, diff);
    *failed = cJSON_GetArraySize(g.offenders) > 0;
    /* a rule that compared nothing (a typo, a stray space, figures that
       cannot be compared) must not pass as if it had looked */
    skipped = g.checked == 0 && !*failed;
    *compared = !skipped;
    st = gate_detail(gate, &g,
                     r->kind == PR_RULE_METRIC && pr_dno_steps(diff)
                         ? (pr_dnpu_hccl(diff) ? 2 : 1)
                         : 0,
                     err);
    gate_fields(gate, &g, is_default, *failed, skipped);
    if (st == PR_OK && g.oom)
        st = NOMEM(err);
    return st;
}

const char *
pr_diff_verdict_of(size_t n_failed, size_t n_compared)
{
    return n_failed > 0 ? "fail" : n_compared > 0 ? "pass" : "inconclusive";
}

enum pr_status
pr_diff_gate(cJSON *diff, const struct pr_rule *rules, size_t n,
             const struct pr_diff_opts *o, size_t *n_failed,
             struct pr_error *err)
{
    cJSON *gates = cJSON_AddArrayToObject(diff, "gates");
    struct pr_rule def;
    char text[64], name[] = "step.mean";
    enum pr_status st = PR_OK;
    size_t i, n_compared = 0;
    int failed, compared;

    *n_failed = 0;
    if (gates == NULL)
        return NOMEM(err);
    /* the step gate stays on beside the rules: a rule about one operator
       must not silently drop the gate on the step time (issue #32) */
    if (!o->no_default_gate) {
        snprintf(text, sizeof(text), "step.mean>+%g%%", o->threshold_pct);
        memset(&def, 0, sizeof(def));
        def.text = text;
        def.kind = PR_RULE_METRIC;
        def.name = name;
        def.greater = 1;
        def.limit = o->threshold_pct;
        def.unit = PR_RULE_PCT;
        st = eval_rule(gates, diff, &def, 1, o, &failed, &compared, err);
        *n_failed += failed;
        n_compared += compared;
    }
    for (i = 0; i < n && st == PR_OK; i++) {
        st = eval_rule(gates, diff, &rules[i], 0, o, &failed, &compared, err);
        *n_failed += failed;
        n_compared += compared;
    }
    if (st == PR_OK && cJSON_AddStringToObject(
                           diff, PR_K_VERDICT,
                           pr_diff_verdict_of(*n_failed, n_compared)) == NULL)
        st = NOMEM(err);
    return st;
}

/* The name of the rows of `key` closest to `name` (within a third of its
 * length), or NULL. */
static const char *
closest_name(const cJSON *diff, const char *key, const char *name)
{
    const cJSON *row;
    const char *best = NULL;
    size_t best_d = strlen(name) / 3 + 1;

    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(diff, key))
    {
        const char *n = pr_dj_str(row, PR_K_NAME);
        size_t d = n != NULL ? pr_edit_distance(name, n) : SIZE_MAX;
        if (d < best_d) {
            best = n;
            best_d = d;
        }
    }
    return best;
}

static void
unmatched_hint(const cJSON *diff, const char *text, char *hint, size_t n)
{
    static const char *const keys[] = {"", "operators", "operators_by_shape",
                                       "kernels"};
    static const char *const prefix[] = {"", "op:", "shape:", "kernel:"};
    struct pr_rule r;
    struct pr_error ignored;
    const char *near;

    hint[0] = '\0';
    pr_error_clear(&ignored);
    if (pr_rule_parse(text, &r, &ignored) != PR_OK)
        return;
    if (r.kind == PR_RULE_METRIC)
        snprintf(hint, n, " (neither run has this figure)");
    else if (r.wildcard)
        snprintf(hint, n,
                 " (no name matches among the rows of at least %g%% of the "
                 "step time, --min-share)",
                 pr_dj_num(cJSON_GetObjectItemCaseSensitive(diff, PR_K_METHOD),
                           "min_share_pct"));
    else {
        near = closest_name(diff, keys[r.kind], r.name);
        if (near != NULL)
            snprintf(hint, n, " (did you mean '%s%s'?)", prefix[r.kind], near);
    }
    pr_rule_free(&r);
}

const char *
pr_diff_unmatched_rule(const cJSON *diff, char *hint, size_t n_hint)
{
    const cJSON *g;

    if (n_hint > 0)
        hint[0] = '\0';
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(diff, "gates"))
    {
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g, "default")) ||
            !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(g, "matched")))
            continue;
        if (n_hint > 0)
            unmatched_hint(diff, pr_dj_str(g, PR_K_RULE), hint, n_hint);
        return pr_dj_str(g, PR_K_RULE);
    }
    return NULL;
}

enum pr_status
pr_diff_strict_check(const cJSON *diff, const char *cmd, struct pr_error *err)
{
    char hint[400];
    const char *rule = pr_diff_unmatched_rule(diff, hint, sizeof(hint));

    if (rule == NULL)
        return PR_OK;
    return pr_error_set(err, PR_E_USAGE,
                        "%s: --fail-on '%s' matches no figure of these runs "
                        "(an error under --strict)%s",
                        cmd, rule, hint);
}
