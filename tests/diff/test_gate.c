/* test_gate.c - compare two summaries and gate them: the default gate
 * ignores noise and a single slow step, trips on a real slowdown, and the
 * --fail-on rules see operators, memory and new rows. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/diff.h"

#include "row_keys.h"

/* A one-run summary: n step durations, aten::mm and a tiny aten::fill_ at
 * the given device time per step, and a GPU0 memory peak. */
static cJSON *
summary(const double *steps, size_t n, double mm_us, double fill_us,
        double peak_bytes)
{
    cJSON *s = cJSON_CreateObject(), *runs, *run, *arr, *o, *mem, *dev;
    double sum = 0;
    size_t i;

    cJSON_AddNumberToObject(s, "schema_version", 1);
    runs = cJSON_AddArrayToObject(s, "runs");
    run = cJSON_CreateObject();
    cJSON_AddItemToArray(runs, run);
    cJSON_AddStringToObject(run, "worker", "worker0");
    cJSON_AddNullToObject(run, "rank");
    arr = cJSON_AddArrayToObject(run, "steps");
    for (i = 0; i < n; i++) {
        o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "duration_us", steps[i]);
        step_keys(o);
        cJSON_AddItemToArray(arr, o);
        sum += steps[i];
    }
    o = cJSON_AddObjectToObject(run, "step_summary");
    cJSON_AddNumberToObject(o, "count", (double)n);
    cJSON_AddNumberToObject(o, "mean_us", sum / (double)n);
    arr = cJSON_AddArrayToObject(run, "operators");
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", "aten::mm");
    cJSON_AddNumberToObject(o, "device_self_us", mm_us * (double)n);
    op_keys(o);
    cJSON_AddItemToArray(arr, o);
    if (fill_us > 0) {
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", "aten::fill_");
        cJSON_AddNumberToObject(o, "device_self_us", fill_us * (double)n);
        op_keys(o);
        cJSON_AddItemToArray(arr, o);
    }
    mem = cJSON_AddObjectToObject(run, "memory");
    arr = cJSON_AddArrayToObject(mem, "devices");
    dev = cJSON_CreateObject();
    cJSON_AddStringToObject(dev, "device", "GPU0");
    cJSON_AddNumberToObject(dev, "peak_allocated_bytes", peak_bytes);
    cJSON_AddItemToArray(arr, dev);
    return s;
}

/* Compare and gate under options o (NULL: the defaults); returns the
 * number of tripped gates and leaves the diff tree in *out (or deletes it
 * when out is NULL). */
static size_t
run_gate_opts(cJSON *b, cJSON *c, const char *const *rules, size_t n,
              const struct pr_diff_opts *opts, cJSON **out)
{
    struct pr_diff_opts o;
    struct pr_rule r[8];
    struct pr_error err;
    cJSON *diff = NULL;
    size_t i, failed = 0;

    pr_diff_opts_init(&o);
    if (opts != NULL)
        o = *opts;
    pr_error_clear(&err);
    for (i = 0; i < n; i++)
        assert_int_equal(pr_rule_parse(rules[i], &r[i], &err), PR_OK);
    assert_int_equal(pr_diff_compare(b, c, "b", "c", &o, &diff, &err), PR_OK);
    assert_int_equal(pr_diff_gate(diff, r, n, &o, &failed, &err), PR_OK);
    for (i = 0; i < n; i++)
        pr_rule_free(&r[i]);
    cJSON_Delete(b);
    cJSON_Delete(c);
    if (out != NULL)
        *out = diff;
    else
        cJSON_Delete(diff);
    return failed;
}

static size_t
run_gate(cJSON *b, cJSON *c, const char *const *rules, size_t n, cJSON **out)
{
    return run_gate_opts(b, c, rules, n, NULL, out);
}

static const char *
verdict(const cJSON *diff)
{
    return cJSON_GetObjectItem(diff, "verdict")->valuestring;
}

static const cJSON *
gate_at(const cJSON *diff, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(diff, "gates"), i);
}

static const char *
gate_str(const cJSON *diff, int i, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(gate_at(diff, i), key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const double base_steps[] = {100, 102, 99, 101, 98, 100, 103, 97};
static const double rerun_steps[] = {101, 99, 102, 100, 97, 103, 100, 99};
static const double slow_steps[] = {121, 119, 123, 120, 118, 122, 120, 121};
/* +7% mean from one hiccup: a threshold alone would trip */
static const double hiccup_steps[] = {100, 99, 101, 100, 98, 102, 100, 156};

static void
test_default_gate(void **state)
{
    cJSON *diff;
    const cJSON *g;

    (void)state;
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(base_steps, 8, 40, 0, 1e9), NULL, 0,
                              NULL),
                     0);
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(rerun_steps, 8, 41, 0, 1e9), NULL, 0,
                              NULL),
                     0);
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(slow_steps, 8, 40, 0, 1e9), NULL, 0,
                              &diff),
                     1);
    assert_string_equal(cJSON_GetObjectItem(diff, "verdict")->valuestring,
                        "fail");
    g = cJSON_GetArrayItem(cJSON_GetObjectItem(diff, "gates"), 0);
    assert_string_equal(cJSON_GetObjectItem(g, "rule")->valuestring,
                        "step.mean>+5%");
    assert_non_null(
        strstr(cJSON_GetObjectItem(g, "detail")->valuestring, "p = "));
    cJSON_Delete(diff);
}

static void
test_hiccup_is_noise(void **state)
{
    cJSON *diff;
    const cJSON *g;

    (void)state;
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(hiccup_steps, 8, 40, 0, 1e9), NULL, 0,
                              &diff),
                     0);
    g = cJSON_GetArrayItem(cJSON_GetObjectItem(diff, "gates"), 0);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(g, "within_noise")),
                     1);
    assert_non_null(strstr(cJSON_GetObjectItem(g, "detail")->valuestring,
                           "within step-to-step noise"));
    cJSON_Delete(diff);
}

static const cJSON *
metric_noise(const cJSON *diff, const char *name)
{
    const cJSON *m;

    cJSON_ArrayForEach(
        m, cJSON_GetObjectItem(
               cJSON_GetArrayItem(cJSON_GetObjectItem(diff, "runs"), 0),
               "metrics"))
    {
        if (strcmp(cJSON_GetObjectItem(m, "metric")->valuestring, name) == 0)
            return cJSON_GetObjectItem(m, "noise");
    }
    fail_msg("no metric %s", name);
    return NULL;
}

static double
noise_num(const cJSON *noise, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(noise, key);

    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

/* Each step row has the interval of its own statistic (issue #15): four
 * slow steps in forty move the mean and the p90, not the median, so the
 * median row's interval holds 0 and is narrow, unlike the mean's. */
static void
test_step_rows_own_interval(void **state)
{
    double even[40], tail[40];
    const cJSON *mean, *med, *p90;
    cJSON *diff;
    size_t i;

    (void)state;
    for (i = 0; i < 40; i++) {
        even[i] = 98 + (double)(i % 5);
        tail[i] = i % 10 == 9 ? 300 : even[i];
    }
    run_gate(summary(even, 40, 40, 0, 1e9), summary(tail, 40, 40, 0, 1e9), NULL,
             0, &diff);
    mean = metric_noise(diff, "step.mean");
    med = metric_noise(diff, "step.median");
    p90 = metric_noise(diff, "step.p90");
    assert_string_equal(cJSON_GetObjectItem(mean, "ci_of")->valuestring,
                        "mean");
    assert_string_equal(cJSON_GetObjectItem(med, "ci_of")->valuestring,
                        "median");
    assert_string_equal(cJSON_GetObjectItem(p90, "ci_of")->valuestring, "p90");
    assert_true(noise_num(mean, "ci_hi_pct") > 10);
    assert_true(noise_num(med, "ci_lo_pct") <= 0);
    assert_true(noise_num(med, "ci_hi_pct") >= 0);
    assert_true(noise_num(med, "ci_hi_pct") < 5);
    assert_true(noise_num(p90, "ci_hi_pct") > noise_num(mean, "ci_hi_pct"));
    cJSON_Delete(diff);
}

static void
test_single_step_uses_threshold(void **state)
{
    static const double one[] = {100}, one_slow[] = {110};

    (void)state;
    assert_int_equal(run_gate(summary(one, 1, 40, 0, 1e9),
                              summary(one_slow, 1, 40, 0, 1e9), NULL, 0, NULL),
                     1);
}

static void
test_rules(void **state)
{
    static const char *const op[] = {"op:aten::mm>+10%"};
    static const char *const glob[] = {"op:*>+50%"};
    static const char *const mem[] = {"memory.peak>+256MiB"};
    static const char *const abs_time[] = {"op:aten::mm>+5ms"};

    (void)state;
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(base_steps, 8, 45, 0, 1e9), op, 1, NULL),
                     1);
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(base_steps, 8, 43, 0, 1e9), op, 1, NULL),
                     0);
    /* aten::fill_ doubles but is 0.2% of the step: the glob skips it */
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0.2, 1e9),
                              summary(base_steps, 8, 40, 0.4, 1e9), glob, 1,
                              NULL),
                     0);
    /* a new operator above the share floor counts as growth */
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(base_steps, 8, 40, 5, 1e9), glob, 1,
                              NULL),
                     1);
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(base_steps, 8, 40, 0, 1.3e9), mem, 1,
                              NULL),
                     1);
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(base_steps, 8, 40, 0, 1.2e9), mem, 1,
                              NULL),
                     0);
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(base_steps, 8, 46000, 0, 1e9) /* us */,
                              abs_time, 1, NULL),
                     1);
}

static void
test_reports(void **state)
{
    cJSON *diff;
    struct pr_buf md, xml;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    run_gate(summary(base_steps, 8, 40, 0, 1e9),
             summary(slow_steps, 8, 40, 0, 1e9), NULL, 0, &diff);
    pr_buf_init(&md, 0);
    pr_buf_init(&xml, 0);
    assert_int_equal(pr_diff_markdown(diff, 10, &md, &err), PR_OK);
    assert_non_null(strstr(md.data, "REGRESSION"));
    assert_non_null(strstr(md.data, "### Method"));
    assert_int_equal(pr_diff_junit(diff, &xml, &err), PR_OK);
    assert_non_null(strstr(xml.data, "failures=\"1\""));
    assert_non_null(strstr(xml.data, "name=\"step.mean&gt;+5%\""));
    pr_buf_free(&md);
    pr_buf_free(&xml);
    cJSON_Delete(diff);
}

static void
test_no_runs(void **state)
{
    cJSON *b = cJSON_Parse("{\"schema_version\":1,\"runs\":[]}");
    struct pr_diff_opts o;
    struct pr_error err;
    cJSON *diff;

    (void)state;
    pr_diff_opts_init(&o);
    pr_error_clear(&err);
    assert_int_equal(
        pr_diff_compare(b, b, "old.json", "new.json", &o, &diff, &err),
        PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "old.json: summary has no runs"));
    cJSON_Delete(b);
}

/* Issue #32: rules about operators do not drop the step gate.  A 20%
 * slower step with an operator rule that holds still fails, through the
 * default gate, listed first. */
static void
test_rules_keep_default_gate(void **state)
{
    static const char *const op[] = {"op:aten::mm>+10%"};
    cJSON *diff;

    (void)state;
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(slow_steps, 8, 40, 0, 1e9), op, 1, &diff),
                     1);
    assert_string_equal(verdict(diff), "fail");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(diff, "gates")), 2);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(gate_at(diff, 0), "default")));
    assert_string_equal(gate_str(diff, 0, "result"), "fail");
    assert_string_equal(gate_str(diff, 1, "result"), "pass");
    cJSON_Delete(diff);
}

/* Rules that match nothing compare nothing: skipped, and with no other
 * gate the verdict is inconclusive, never a pass; beside a default gate
 * that compared, the verdict is the default gate's. */
static void
test_unmatched_is_not_a_pass(void **state)
{
    static const char *const typos[] = {"op:aten::mmm>+5%", "kernel:nope>+5%"};
    struct pr_diff_opts o;
    cJSON *diff;
    char hint[200];

    (void)state;
    pr_diff_opts_init(&o);
    o.no_default_gate = 1;
    assert_int_equal(run_gate_opts(summary(base_steps, 8, 40, 0, 1e9),
                                   summary(slow_steps, 8, 40, 0, 1e9), typos, 2,
                                   &o, &diff),
                     0);
    assert_string_equal(verdict(diff), "inconclusive");
    assert_string_equal(gate_str(diff, 0, "result"), "skipped");
    assert_string_equal(gate_str(diff, 0, "skip_reason"), "no_figure");
    assert_string_equal(pr_diff_unmatched_rule(diff, hint, sizeof(hint)),
                        "op:aten::mmm>+5%");
    assert_non_null(strstr(hint, "did you mean 'op:aten::mm'?"));
    cJSON_Delete(diff);
    /* the same rules beside the default gate on equal runs: a pass */
    assert_int_equal(run_gate(summary(base_steps, 8, 40, 0, 1e9),
                              summary(rerun_steps, 8, 40, 0, 1e9), typos, 2,
                              &diff),
                     0);
    assert_string_equal(verdict(diff), "pass");
    assert_string_equal(gate_str(diff, 1, "result"), "skipped");
    cJSON_Delete(diff);
}

/* --strict: a rule that matches no figure is a usage error naming it,
 * not a regression; a rule that matched passes the check. */
static void
test_strict_unmatched_is_usage(void **state)
{
    static const char *const typo[] = {"memory.peak>+1GiB", "op:aten::mn>+5%"};
    struct pr_error err;
    cJSON *diff;

    (void)state;
    pr_error_clear(&err);
    run_gate(summary(base_steps, 8, 40, 0, 1e9),
             summary(slow_steps, 8, 40, 0, 1e9), typo, 2, &diff);
    assert_int_equal(pr_diff_strict_check(diff, "diff", &err), PR_E_USAGE);
    assert_non_null(strstr(err.msg, "--fail-on 'op:aten::mn>+5%' matches no "
                                    "figure"));
    assert_non_null(strstr(err.msg, "did you mean 'op:aten::mm'"));
    cJSON_Delete(diff);
    pr_error_clear(&err);
    run_gate(summary(base_steps, 8, 40, 0, 1e9),
             summary(slow_steps, 8, 40, 0, 1e9), typo, 1, &diff);
    assert_int_equal(pr_diff_strict_check(diff, "diff", &err), PR_OK);
    cJSON_Delete(diff);
}

/* Three steps a side: the rank test cannot reach alpha, the bootstrap
 * interval decides, and the gate line says so instead of showing the
 * rank test's p beside "significant". */
static void
test_detail_names_deciding_test(void **state)
{
    static const double b3[] = {100, 101, 99}, c3[] = {130, 131, 129};
    const char *detail;
    cJSON *diff;

    (void)state;
    assert_int_equal(run_gate(summary(b3, 3, 40, 0, 1e9),
                              summary(c3, 3, 40, 0, 1e9), NULL, 0, &diff),
                     1);
    detail = gate_str(diff, 0, "detail");
    assert_non_null(strstr(detail, "95% CI +"));
    assert_non_null(strstr(detail, "(bootstrap)"));
    assert_null(strstr(detail, "p = "));
    cJSON_Delete(diff);
}

/* Two kernels of 3,000-character names that differ only deep inside:
 * the gate lines and JUnit stay short, and the two never read alike. */
static void
test_long_names_short_and_distinct(void **state)
{
    static const char *const rule[] = {"kernel:*>+10%"};
    char a[3100], b[3100];
    cJSON *sb = summary(base_steps, 8, 40, 0, 1e9);
    cJSON *sc = summary(base_steps, 8, 40, 0, 1e9);
    cJSON *diff, *k, *arr;
    const cJSON *off, *it;
    struct pr_buf xml;
    struct pr_error err;
    const char *s1, *s2;
    int side;

    (void)state;
    memset(a, 'x', 3000);
    memcpy(a, "void cutlass::Kernel<", 21);
    a[3000] = '\0';
    strcpy(b, a);
    a[1500] = '1';
    b[1500] = '2';
    for (side = 0; side < 2; side++) {
        arr = cJSON_AddArrayToObject(
            cJSON_GetArrayItem(cJSON_GetObjectItem(side ? sc : sb, "runs"), 0),
            "kernels");
        k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "name", a);
        cJSON_AddNumberToObject(k, "total_us", side ? 400 : 200);
        kernel_keys(k);
        cJSON_AddItemToArray(arr, k);
        k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "name", b);
        cJSON_AddNumberToObject(k, "total_us", side ? 300 : 100);
        kernel_keys(k);
        cJSON_AddItemToArray(arr, k);
    }
    assert_int_equal(run_gate(sb, sc, rule, 1, &diff), 1);
    off = cJSON_GetObjectItem(gate_at(diff, 1), "offenders");
    assert_int_equal(cJSON_GetArraySize(off), 2);
    s1 = cJSON_GetObjectItem(cJSON_GetArrayItem(off, 0), "short")->valuestring;
    s2 = cJSON_GetObjectItem(cJSON_GetArrayItem(off, 1), "short")->valuestring;
    assert_string_not_equal(s1, s2);
    assert_true(strlen(gate_str(diff, 1, "detail")) < 600);
    cJSON_ArrayForEach(it, off)
    {
        assert_int_equal(strlen(cJSON_GetObjectItem(it, "what")->valuestring),
                         3000);
    }
    pr_error_clear(&err);
    pr_buf_init(&xml, 0);
    assert_int_equal(pr_diff_junit(diff, &xml, &err), PR_OK);
    assert_true(xml.len < 4000);
    pr_buf_free(&xml);
    cJSON_Delete(diff);
}

/* A JUnit file of a run that compared nothing is not green: an error
 * test beside the skipped ones. */
static void
test_junit_inconclusive(void **state)
{
    static const char *const typo[] = {"op:nothing>+5%"};
    struct pr_diff_opts o;
    struct pr_buf xml;
    struct pr_error err;
    cJSON *diff;

    (void)state;
    pr_diff_opts_init(&o);
    o.no_default_gate = 1;
    run_gate_opts(summary(base_steps, 8, 40, 0, 1e9),
                  summary(base_steps, 8, 40, 0, 1e9), typo, 1, &o, &diff);
    pr_error_clear(&err);
    pr_buf_init(&xml, 0);
    assert_int_equal(pr_diff_junit(diff, &xml, &err), PR_OK);
    assert_non_null(strstr(xml.data, "errors=\"1\" skipped=\"1\""));
    assert_non_null(strstr(xml.data, "type=\"inconclusive\""));
    pr_buf_free(&xml);
    cJSON_Delete(diff);
}

/* diff reads the operator and step tables as typed rows (rows.h): a
 * value of the wrong type is refused with its path, not taken as 0. */
static void
test_tables_read_as_rows(void **state)
{
    struct pr_diff_opts o;
    struct pr_error err;
    cJSON *b = summary(base_steps, 8, 40, 0, 1e9);
    cJSON *c = summary(base_steps, 8, 40, 0, 1e9), *diff = NULL, *op, *st;

    (void)state;
    pr_diff_opts_init(&o);
    pr_error_clear(&err);
    op = cJSON_GetArrayItem(
        cJSON_GetObjectItem(
            cJSON_GetArrayItem(cJSON_GetObjectItem(c, "runs"), 0), "operators"),
        0);
    cJSON_ReplaceItemInObject(op, "device_self_us", cJSON_CreateString("320"));
    assert_int_equal(pr_diff_compare(b, c, "b", "c", &o, &diff, &err),
                     PR_E_FORMAT);
    if (strstr(err.msg, "operators[0].device_self_us: expected a number or "
                        "null, got a string") == NULL)
        fail_msg("got \"%s\"", err.msg);
    cJSON_Delete(diff);
    diff = NULL;
    cJSON_ReplaceItemInObject(op, "device_self_us", cJSON_CreateNumber(320));
    st = cJSON_GetArrayItem(
        cJSON_GetObjectItem(
            cJSON_GetArrayItem(cJSON_GetObjectItem(c, "runs"), 0), "steps"),
        3);
    cJSON_DeleteItemFromObject(st, "duration_us");
    pr_error_clear(&err);
    assert_int_equal(pr_diff_compare(b, c, "b", "c", &o, &diff, &err),
                     PR_E_FORMAT);
    if (strstr(err.msg, "steps[3].duration_us: missing") == NULL)
        fail_msg("got \"%s\"", err.msg);
    cJSON_Delete(diff);
    cJSON_Delete(b);
    cJSON_Delete(c);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_gate),
        cmocka_unit_test(test_hiccup_is_noise),
        cmocka_unit_test(test_step_rows_own_interval),
        cmocka_unit_test(test_single_step_uses_threshold),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_reports),
        cmocka_unit_test(test_no_runs),
        cmocka_unit_test(test_rules_keep_default_gate),
        cmocka_unit_test(test_unmatched_is_not_a_pass),
        cmocka_unit_test(test_strict_unmatched_is_usage),
        cmocka_unit_test(test_detail_names_deciding_test),
        cmocka_unit_test(test_long_names_short_and_distinct),
        cmocka_unit_test(test_tables_read_as_rows),
        cmocka_unit_test(test_junit_inconclusive),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
