/* test_rules.c - the --fail-on grammar: accepted forms, unit conversion,
 * kernel names full of angle brackets, and a clear message for each kind
 * of malformed rule. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../analysis/cases.h"
#include "profreport/diff_rules.h"

static void
test_metric_rules(void **state)
{
    struct pr_rule r;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_rule_parse("step.mean>+3%", &r, &err), PR_OK);
    assert_int_equal(r.kind, PR_RULE_METRIC);
    assert_string_equal(r.name, "step.mean");
    assert_string_equal(r.text, "step.mean>+3%");
    assert_true(r.greater);
    assert_true(r.limit == 3.0 && r.unit == PR_RULE_PCT);
    assert_true(pr_rule_crossed(&r, 3.5));
    assert_false(pr_rule_crossed(&r, 3.0));
    assert_false(pr_rule_crossed(&r, NAN));
    pr_rule_free(&r);

    assert_int_equal(pr_rule_parse("memory.peak>+256MiB", &r, &err), PR_OK);
    assert_true(r.limit == 268435456.0 && r.unit == PR_RULE_BYTES);
    pr_rule_free(&r);

    assert_int_equal(pr_rule_parse("gpu.utilization<-5pp", &r, &err), PR_OK);
    assert_false(r.greater);
    assert_true(r.limit == -5.0 && r.unit == PR_RULE_PP);
    assert_true(pr_rule_crossed(&r, -6.0));
    assert_false(pr_rule_crossed(&r, -4.0));
    pr_rule_free(&r);

    assert_int_equal(pr_rule_parse("step.p90>2.5ms", &r, &err), PR_OK);
    assert_true(r.limit == 2500.0 && r.unit == PR_RULE_US);
    pr_rule_free(&r);
}

static void
test_table_rules(void **state)
{
    struct pr_rule r;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_rule_parse("op:aten::mm>+10%", &r, &err), PR_OK);
    assert_int_equal(r.kind, PR_RULE_OP);
    assert_string_equal(r.name, "aten::mm");
    assert_false(r.wildcard);
    pr_rule_free(&r);

    assert_int_equal(pr_rule_parse("kernel:*>+20%", &r, &err), PR_OK);
    assert_int_equal(r.kind, PR_RULE_KERNEL);
    assert_true(r.wildcard);
    pr_rule_free(&r);

    /* the comparator is the last angle bracket */
    assert_int_equal(pr_rule_parse("kernel:void f<128, 4>(int)>+1%", &r, &err),
                     PR_OK);
    assert_string_equal(r.name, "void f<128, 4>(int)");
    pr_rule_free(&r);

    assert_int_equal(pr_rule_parse("shape:aten::mm>500us", &r, &err), PR_OK);
    assert_int_equal(r.kind, PR_RULE_SHAPE);
    pr_rule_free(&r);
}

static void
expect_bad(const char *rule, const char *why)
{
    struct pr_rule r;
    struct pr_error err;

    pr_error_clear(&err);
    assert_int_equal(pr_rule_parse(rule, &r, &err), PR_E_USAGE);
    if (strstr(err.msg, why) == NULL || strstr(err.msg, "bad rule") == NULL)
        fail_msg("%s: message \"%s\" lacks \"%s\"", rule, err.msg, why);
    assert_null(r.name);
    assert_null(r.text);
}

/* Every case of tests/diff/rules.txt. */
static void
test_rule_cases(void **state)
{
    FILE *f = cases_open("tests/diff/rules.txt");
    struct tcase c;
    int n = 0;

    (void)state;
    memset(&c, 0, sizeof(c));
    while (cases_next(f, &c, 4)) {
        n++;
        if (strcmp(c.f[1], "bad") == 0) {
            expect_bad(c.f[3], c.f[2]);
        } else {
            struct pr_rule r;
            struct pr_error err;
            char unit[8], name[256];
            double limit;

            pr_error_clear(&err);
            if (pr_rule_parse(c.f[3], &r, &err) != PR_OK)
                fail_msg("%s: %s", c.f[0], err.msg);
            if (sscanf(c.f[2], "%lf %7s %255[^\n]", &limit, unit, name) != 3)
                fail_msg("%s: bad expectation \"%s\"", c.f[0], c.f[2]);
            if (r.limit != limit || strcmp(pr_rule_unit_str(r.unit), unit) ||
                strcmp(r.name, name))
                fail_msg("%s: got %g %s \"%s\", want %s", c.f[0], r.limit,
                         pr_rule_unit_str(r.unit), r.name, c.f[2]);
            pr_rule_free(&r);
        }
    }
    fclose(f);
    assert_true(n > 30);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metric_rules),
        cmocka_unit_test(test_table_rules),
        cmocka_unit_test(test_rule_cases),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
