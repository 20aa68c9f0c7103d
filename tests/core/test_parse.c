/* test_parse.c - the one number grammar of the command line (parse.h):
 * every case of tests/core/numbers.txt. */
#include "config.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../analysis/cases.h"
#include "profreport/parse.h"

/* "ok VALUE" -> 1 and the value text; "bad" -> 0. */
static int
want_ok(const struct tcase *c, const char **value)
{
    if (strcmp(c->f[2], "bad") == 0)
        return 0;
    if (strncmp(c->f[2], "ok ", 3) != 0)
        fail_msg("%s: expected \"ok VALUE\" or \"bad\"", c->f[0]);
    *value = c->f[2] + 3;
    return 1;
}

/* 1 when the parser accepted text; *got receives the value as text. */
static int
run_case(const char *kind, const char *text, char *got, size_t n)
{
    int64_t i;
    double d;
    uint64_t b;

    if (strcmp(kind, "int") == 0 &&
        pr_parse_int64(text, -1000000, 1000000, &i)) {
        snprintf(got, n, "%" PRId64, i);
        return 1;
    }
    if (strcmp(kind, "double") == 0 &&
        pr_parse_double(text, -1e300, 1e300, &d)) {
        snprintf(got, n, "%.17g", d);
        return 1;
    }
    if (strcmp(kind, "bytes") == 0 && pr_parse_bytes(text, 1, UINT64_MAX, &b)) {
        snprintf(got, n, "%" PRIu64, b);
        return 1;
    }
    if (strcmp(kind, "time") == 0 && pr_parse_time_us(text, 0, 1e18, &d)) {
        snprintf(got, n, "%.17g", d);
        return 1;
    }
    return 0;
}

static void
test_number_cases(void **state)
{
    FILE *f = cases_open("tests/core/numbers.txt");
    struct tcase c;
    int n = 0;

    (void)state;
    memset(&c, 0, sizeof(c));
    while (cases_next(f, &c, 4)) {
        const char *want = NULL, *text = c.f[3];
        char got[64];
        int ok;

        /* the case line is trimmed; a leading or trailing blank is part
           of some cases, so those are written out here */
        if (strcmp(text, "<empty>") == 0)
            text = "";
        else if (strcmp(c.f[0], "int-blank") == 0)
            text = " 5";
        else if (strcmp(c.f[0], "int-trailing") == 0 ||
                 strcmp(c.f[0], "time-space-alone") == 0)
            text = "5 ";
        else if (strcmp(c.f[0], "dbl-blank") == 0)
            text = " 1";
        n++;
        ok = run_case(c.f[1], text, got, sizeof(got));
        if (!want_ok(&c, &want)) {
            if (ok)
                fail_msg("%s: \"%s\" accepted as %s", c.f[0], text, got);
            continue;
        }
        if (!ok)
            fail_msg("%s: \"%s\" refused", c.f[0], text);
        if (strcmp(c.f[1], "double") == 0 || strcmp(c.f[1], "time") == 0
                ? strtod(got, NULL) != strtod(want, NULL)
                : strcmp(got, want) != 0)
            fail_msg("%s: \"%s\" read as %s, want %s", c.f[0], text, got, want);
    }
    fclose(f);
    assert_true(n > 40);
}

/* pr_parse_json_nul: where a \u0000 escape starts, escape pairs stepped
 * over whole, nothing read past the end. */
static void
test_json_nul(void **state)
{
    static const struct {
        const char *text;
        size_t at; /* SIZE_MAX: none */
    } cases[] = {
        {"{\"name\": \"a\\u0000b\"}", 11},
        {"\"\\u0000\"", 1},
        {"\"\\\\u0000\"", SIZE_MAX}, /* a backslash, then u0000 */
        {"\"\\\\\\u0000\"", 3},      /* a backslash, then a NUL */
        {"\"\\u0001\\u00000\"", 7},  /* after another escape */
        {"\"\\\"\\u0000\"", 3},      /* after an escaped quote */
        {"\"\\u000\"", SIZE_MAX},    /* cut short: not a NUL */
        {"\"\\u0041\"", SIZE_MAX},
        {"no escapes at all", SIZE_MAX},
        {"", SIZE_MAX},
        {"\\", SIZE_MAX},
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t got = pr_parse_json_nul(cases[i].text, strlen(cases[i].text));
        if (got != cases[i].at)
            fail_msg("%s: %zu, want %zu", cases[i].text, got, cases[i].at);
    }
    /* a text cut right after the backslash is not read past its end */
    assert_int_equal(pr_parse_json_nul("x\\u0000", 2), SIZE_MAX);
    assert_int_equal(pr_parse_json_nul("x\\u0000", 6), SIZE_MAX);
    assert_int_equal(pr_parse_json_nul("x\\u0000", 7), 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_number_cases),
        cmocka_unit_test(test_json_nul),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
