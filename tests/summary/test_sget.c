/* test_sget.c - null-safe reads of a summary tree: a saved summary is
 * input, so a number read back as an index never overflows a cast (the
 * fuzz finding of 2026-11-29: a NaN slowest_stage cast to int). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "profreport/sget.h"

static void
test_num(void **state)
{
    cJSON *o = cJSON_Parse("{\"a\":1.5,\"s\":\"x\",\"n\":null}");

    (void)state;
    assert_non_null(o);
    assert_true(pr_sget_num(o, "a") == 1.5);
    assert_true(isnan(pr_sget_num(o, "s")));
    assert_true(isnan(pr_sget_num(o, "n")));
    assert_true(isnan(pr_sget_num(o, "missing")));
    assert_true(isnan(pr_sget_num(NULL, "a")));
    cJSON_Delete(o);
}

static void
test_long(void **state)
{
    cJSON *o = cJSON_Parse("{\"i\":7,\"neg\":-3,\"frac\":2.5,"
                           "\"big\":1e300,\"edge\":2147483647,"
                           "\"over\":2147483648,\"low\":-2147483648,"
                           "\"under\":-2147483649,\"s\":\"3\"}");
    cJSON *inf = cJSON_CreateObject();

    (void)state;
    assert_non_null(o);
    assert_non_null(inf);
    /* cJSON writes no NaN or infinity, a tree built in memory can hold one */
    assert_non_null(cJSON_AddNumberToObject(inf, "nan", NAN));
    assert_non_null(cJSON_AddNumberToObject(inf, "inf", INFINITY));
    assert_int_equal(pr_sget_long(o, "i", -1), 7);
    assert_int_equal(pr_sget_long(o, "neg", -1), -3);
    assert_int_equal(pr_sget_long(o, "frac", -1), -1);
    assert_int_equal(pr_sget_long(o, "big", -1), -1);
    assert_int_equal(pr_sget_long(o, "edge", -1), 2147483647L);
    assert_int_equal(pr_sget_long(o, "over", -1), -1);
    assert_int_equal(pr_sget_long(o, "low", 0), -2147483647L - 1);
    assert_int_equal(pr_sget_long(o, "under", -1), -1);
    assert_int_equal(pr_sget_long(o, "s", -1), -1);
    assert_int_equal(pr_sget_long(o, "missing", 42), 42);
    assert_int_equal(pr_sget_long(inf, "nan", -1), -1);
    assert_int_equal(pr_sget_long(inf, "inf", -1), -1);
    assert_int_equal(pr_sget_long(NULL, "i", -5), -5);
    cJSON_Delete(inf);
    cJSON_Delete(o);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_num),
        cmocka_unit_test(test_long),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
