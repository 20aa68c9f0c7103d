/* test_fields.c - the typed getters: numbers in strings, ranges, the one
 * us -> ns conversion, and the Python-style texts the model keeps. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/ingest/internal.h"

static void
test_us_to_ns(void **state)
{
    int64_t ns = 0;

    (void)state;
    assert_int_equal(pr_fld_us_to_ns(4458676522690.655, &ns), PR_FLD_OK);
    assert_true(ns == 4458676522690655LL);
    assert_int_equal(pr_fld_us_to_ns(1623142623460111.0, &ns), PR_FLD_OK);
    assert_true(ns == 1623142623460111000LL);
    assert_int_equal(pr_fld_us_to_ns(12.5, &ns), PR_FLD_OK);
    assert_true(ns == 12500);
    assert_int_equal(pr_fld_us_to_ns(-0.0004, &ns), PR_FLD_OK);
    assert_true(ns == 0);
    assert_int_equal(pr_fld_us_to_ns(0.0015, &ns), PR_FLD_OK);
    assert_true(ns == 2);
    assert_int_equal(pr_fld_us_to_ns(1e300, &ns), PR_FLD_RANGE);
    assert_int_equal(pr_fld_us_to_ns(INFINITY, &ns), PR_FLD_RANGE);
    assert_int_equal(pr_fld_us_to_ns(NAN, &ns), PR_FLD_RANGE);
}

static void
check_text_ns(const char *s, enum pr_fld want, int64_t want_ns)
{
    int64_t ns = 0;

    assert_int_equal(pr_fld_us_text_to_ns(s, strlen(s), &ns), want);
    if (want == PR_FLD_OK && ns != want_ns)
        fail_msg("%s: %lld ns, want %lld", s, (long long)ns,
                 (long long)want_ns);
}

static void
test_us_text_to_ns(void **state)
{
    (void)state;
    check_text_ns("4458676522690.655", PR_FLD_OK, 4458676522690655LL);
    check_text_ns("1623142623460111", PR_FLD_OK, 1623142623460111000LL);
    check_text_ns("0.0015", PR_FLD_OK, 2);
    check_text_ns("1.23456", PR_FLD_OK, 1235);
    check_text_ns("-2.5", PR_FLD_OK, -2500);
    check_text_ns("0", PR_FLD_OK, 0);
    check_text_ns("1e3", PR_FLD_BAD, 0);
    check_text_ns("01", PR_FLD_BAD, 0);
    check_text_ns("1.", PR_FLD_BAD, 0);
    check_text_ns("\"1\"", PR_FLD_BAD, 0);
    check_text_ns("12345678901234567", PR_FLD_RANGE, 0);
}

static void
test_parse_number(void **state)
{
    double d = 0;
    int64_t i = 0;

    (void)state;
    assert_true(pr_fld_parse_number("4.5", 3, &d) && d == 4.5);
    assert_true(pr_fld_parse_number("-1e3", 4, &d) && d == -1000);
    assert_false(pr_fld_parse_number("0x10", 4, &d));
    assert_false(pr_fld_parse_number("inf", 3, &d));
    assert_false(pr_fld_parse_number(" 1", 2, &d));
    assert_false(pr_fld_parse_number("1.", 2, &d));
    assert_false(pr_fld_parse_number("", 0, &d));
    assert_true(pr_fld_parse_int64("-9223372036854775808", 20, &i) &&
                i == INT64_MIN);
    assert_false(pr_fld_parse_int64("9223372036854775808", 19, &i));
    assert_false(pr_fld_parse_int64("12a", 3, &i));
}

static void
test_getters(void **state)
{
    cJSON *o = cJSON_Parse("{\"a\":\"123\",\"b\":4.5,\"c\":true,\"d\":null,"
                           "\"e\":\"x\",\"f\":1e400,\"g\":7}");
    double d = 0;
    int64_t i = 0;

    (void)state;
    assert_non_null(o);
    assert_int_equal(pr_fld_num(cJSON_GetObjectItem(o, "a"), &d), PR_FLD_OK);
    assert_true(d == 123);
    assert_int_equal(pr_fld_int(cJSON_GetObjectItem(o, "b"), 0, 10, &i),
                     PR_FLD_BAD);
    assert_int_equal(pr_fld_num(cJSON_GetObjectItem(o, "c"), &d), PR_FLD_BAD);
    assert_int_equal(pr_fld_num(cJSON_GetObjectItem(o, "d"), &d),
                     PR_FLD_ABSENT);
    assert_int_equal(pr_fld_num(NULL, &d), PR_FLD_ABSENT);
    assert_int_equal(pr_fld_num(cJSON_GetObjectItem(o, "e"), &d), PR_FLD_BAD);
    assert_int_equal(pr_fld_num(cJSON_GetObjectItem(o, "f"), &d), PR_FLD_RANGE);
    assert_int_equal(pr_fld_int(cJSON_GetObjectItem(o, "g"), 0, 5, &i),
                     PR_FLD_RANGE);
    assert_int_equal(pr_fld_int(cJSON_GetObjectItem(o, "g"), 0, 9, &i),
                     PR_FLD_OK);
    assert_true(i == 7);
    cJSON_Delete(o);
}

static void
check_id(const char *json, int absolute, const char *want)
{
    cJSON *v = cJSON_Parse(json);
    struct pr_buf b;

    pr_buf_init(&b, 0);
    assert_non_null(v);
    assert_true(pr_fld_id_text(v, absolute, &b));
    assert_string_equal(b.data, want);
    pr_buf_free(&b);
    cJSON_Delete(v);
}

static void
test_id_text(void **state)
{
    (void)state;
    check_id("25738", 0, "25738");
    check_id("\"25738\"", 0, "25738");
    check_id("-5", 1, "5");
    check_id("\"-5\"", 1, "5");
    check_id("-1", 0, "-1");
    check_id("\"stream 7\"", 1, "stream 7");
    check_id("\"\"", 0, "");
    check_id("1.5", 0, "1.5");
}

/* Python str() from a cJSON node and, where it applies, from raw text. */
static void
check_py(const char *json, const char *want, int raw_ok)
{
    cJSON *v = cJSON_Parse(json);
    struct pr_buf b;

    pr_buf_init(&b, 0);
    assert_non_null(v);
    assert_int_equal(pr_fld_py_str(v, &b), PR_OK);
    assert_string_equal(b.data, want);
    assert_int_equal(pr_fld_py_str_raw(json, strlen(json), &b), raw_ok);
    if (raw_ok)
        assert_string_equal(b.data, want);
    pr_buf_free(&b);
    cJSON_Delete(v);
}

static void
test_py_str(void **state)
{
    (void)state;
    check_py("[[32,3,224,224],[],[]]", "[[32, 3, 224, 224], [], []]", 1);
    check_py(" [ [ 1 , 2 ] ] ", "[[1, 2]]", 1);
    check_py("[]", "[]", 1);
    check_py("[\"float\", \"\", \"c10::Half\"]", "['float', '', 'c10::Half']",
             1);
    check_py("[\"it's\"]", "[\"it's\"]", 0);
    check_py("[\"a\\\\b\"]", "['a\\\\b']", 0);
    check_py("[1.5, 2.0, true, null]", "[1.5, 2, True, None]", 0);
    check_py("{\"k\": [1]}", "{'k': [1]}", 0);
    check_py("\"x\"", "'x'", 0);
}

static void
test_py_str_raw_rejects(void **state)
{
    struct pr_buf b;
    static const char *const bad[] = {"[1 2]", "[1,]",  "[,1]",   "[[1]",
                                      "[1]]",  "[1] x", "[01e2]", "["};
    size_t i;

    (void)state;
    pr_buf_init(&b, 0);
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (pr_fld_py_str_raw(bad[i], strlen(bad[i]), &b))
            fail_msg("accepted %s", bad[i]);
    }
    pr_buf_free(&b);
}

/* Compact JSON from raw text must match cJSON_PrintUnformatted. */
static void
check_json(const char *json, int raw_ok)
{
    cJSON *v = cJSON_Parse(json);
    char *want = cJSON_PrintUnformatted(v);
    struct pr_buf b;

    pr_buf_init(&b, 0);
    assert_non_null(want);
    assert_int_equal(pr_fld_json_raw(json, strlen(json), &b), raw_ok);
    if (raw_ok)
        assert_string_equal(b.data, want);
    pr_buf_free(&b);
    cJSON_free(want);
    cJSON_Delete(v);
}

static void
test_json_raw(void **state)
{
    (void)state;
    check_json("[\"\", \"0\", \"it's\"]", 1);
    check_json("[[\"1\", 2], [], -3]", 1);
    check_json("[\"a\\\"b\"]", 0);
    check_json("[1.5]", 0);
    check_json("[-0]", 0);
    check_json("[1234567890123456]", 0);
    check_json("[true]", 0);
}

static void
test_py_float(void **state)
{
    struct pr_buf b;

    (void)state;
    pr_buf_init(&b, 0);
    assert_int_equal(pr_fld_py_float(0.1, &b), PR_OK);
    assert_string_equal(b.data, "0.1");
    pr_buf_reset(&b);
    assert_int_equal(pr_fld_py_float(2.0, &b), PR_OK);
    assert_string_equal(b.data, "2.0");
    pr_buf_reset(&b);
    assert_int_equal(pr_fld_py_float(1e-05, &b), PR_OK);
    assert_string_equal(b.data, "1e-05");
    pr_buf_free(&b);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_us_to_ns),
        cmocka_unit_test(test_us_text_to_ns),
        cmocka_unit_test(test_parse_number),
        cmocka_unit_test(test_getters),
        cmocka_unit_test(test_id_text),
        cmocka_unit_test(test_py_str),
        cmocka_unit_test(test_py_str_raw_rejects),
        cmocka_unit_test(test_json_raw),
        cmocka_unit_test(test_py_float),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
