/* test_buf.c - capped buffers, typed growth, and the error record. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/buf.h"
#include "profreport/error.h"

static void
test_append_and_take(void **state)
{
    struct pr_buf b;
    size_t len;
    char *p;

    (void)state;
    pr_buf_init(&b, 0);
    assert_int_equal(pr_buf_adds(&b, "step "), PR_OK);
    assert_int_equal(pr_buf_printf(&b, "%d of %s", 5, "six"), PR_OK);
    assert_string_equal(b.data, "step 5 of six");
    p = pr_buf_take(&b, &len);
    assert_int_equal(len, 13);
    assert_null(b.data);
    free(p);
    pr_buf_free(&b);
}

static void
test_cap_is_sticky_limit(void **state)
{
    struct pr_buf b;

    (void)state;
    pr_buf_init(&b, 8);
    assert_int_equal(pr_buf_adds(&b, "12345678"), PR_OK);
    assert_int_equal(pr_buf_addc(&b, '9'), PR_E_LIMIT);
    /* sticky: later writes fail too, and the content is unchanged */
    assert_int_not_equal(pr_buf_adds(&b, ""), PR_OK);
    assert_string_equal(b.data, "12345678");
    pr_buf_free(&b);
}

static void
test_grow_typed(void **state)
{
    int *v = NULL;
    size_t cap = 0, i;

    (void)state;
    for (i = 0; i < 1000; i++) {
        assert_int_equal(pr_grow((void **)&v, &cap, i + 1, sizeof(*v)), PR_OK);
        v[i] = (int)i;
    }
    assert_true(cap >= 1000);
    assert_int_equal(v[999], 999);
    assert_int_equal(pr_grow((void **)&v, &cap, (size_t)-1, 16), PR_E_NOMEM);
    free(v);
}

static void
test_error_first_wins_and_prefix(void **state)
{
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(
        pr_error_set(&err, PR_E_FORMAT, "event %d: dur is %s", 7, "negative"),
        PR_E_FORMAT);
    pr_error_set(&err, PR_E_IO, "later");
    pr_error_prefix(&err, "%s: ", "trace.json");
    assert_int_equal(err.code, PR_E_FORMAT);
    assert_string_equal(err.msg, "trace.json: event 7: dur is negative");
    assert_int_equal(pr_error_exit_status(PR_E_FORMAT), 2);
    assert_int_equal(pr_error_exit_status(PR_E_USAGE), 1);
    assert_int_equal(pr_error_exit_status(PR_OK), 0);
    assert_string_equal(pr_error_str(PR_E_NOMEM), "out of memory");
}

static void
test_error_prefix_truncates_safely(void **state)
{
    struct pr_error err;
    char longname[600];

    (void)state;
    memset(longname, 'a', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    pr_error_clear(&err);
    pr_error_set(&err, PR_E_IO, "cannot read");
    pr_error_prefix(&err, "%s: ", longname);
    assert_int_equal(strlen(err.msg), PR_ERROR_MSG_SIZE - 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_append_and_take),
        cmocka_unit_test(test_cap_is_sticky_limit),
        cmocka_unit_test(test_grow_typed),
        cmocka_unit_test(test_error_first_wins_and_prefix),
        cmocka_unit_test(test_error_prefix_truncates_safely),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
