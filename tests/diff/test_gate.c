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
    cJSON_AddItemToArray(arr, o);
    if (fill_us > 0) {
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", "aten::fill_");
        cJSON_AddNumberToObject(o, "device_self_us", fill_us * (double)n);
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

/* Compare and gate; returns the number of tripped gates and leaves the
 * diff tree in *out (or deletes it when out is NULL). */
static size_t
run_gate(cJSON *b, cJSON *c, const char *const *rules, size_t n, cJSON **out)
{
    struct pr_diff_opts o;
    struct pr_rule r[8];
    struct pr_error err;
    cJSON *diff = NULL;
    size_t i, failed = 0;

    pr_diff_opts_init(&o);
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
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
