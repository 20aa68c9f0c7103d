/* test_buf.c - capped buffers, typed growth, and the error record. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
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
    assert_true(strlen(err.msg) <= PR_ERROR_MSG_SIZE - 1);
    /* the reason after the prefix stays (issue #32) */
    assert_non_null(strstr(err.msg, "aaa: cannot read"));
}

/* A 3,000-character path in a message: its head, its file name and the
 * reason after it stay; its middle gives way to an ellipsis (issue #32:
 * the "no trace files" message lost its reason at 512 bytes). */
static void
test_error_long_path_keeps_its_end(void **state)
{
    struct pr_error err;
    char path[3100], spaced[2000], utf8[3000];
    size_t i, n = 0;

    (void)state;
    for (i = 0; n < 3000; i++)
        n += (size_t)snprintf(path + n, sizeof(path) - n,
                              "/d%03zu_abcdefghijklmnopqrstuvwxyz", i);
    snprintf(path + n, sizeof(path) - n, "/last_folder");
    assert_true(strlen(path) > 3000);
    pr_error_clear(&err);
    pr_error_set(&err, PR_E_IO,
                 "%s: no trace files in folder (none of its files is in a "
                 "format profreport reads: %s)",
                 path, "PyTorch/Kineto trace, Chrome trace");
    assert_true(strlen(err.msg) < PR_ERROR_MSG_SIZE);
    assert_memory_equal(err.msg, "/d000_abcdefghij", 16);
    assert_non_null(strstr(err.msg, "\xE2\x80\xA6"));
    assert_non_null(strstr(err.msg, "/last_folder: no trace files in folder "
                                    "(none of its files is in a format "
                                    "profreport reads: PyTorch/Kineto "
                                    "trace, Chrome trace)"));
    /* a long prefix: the same */
    pr_error_clear(&err);
    pr_error_set(&err, PR_E_FORMAT, "not a profiler trace");
    pr_error_prefix(&err, "%s/trace.json: ", path);
    assert_true(strlen(err.msg) < PR_ERROR_MSG_SIZE);
    assert_non_null(
        strstr(err.msg, "/last_folder/trace.json: not a profiler trace"));
    /* no word long enough: the message's middle, both ends kept */
    for (i = 0; i + 1 < sizeof(spaced); i++)
        spaced[i] = i % 4 == 3 ? ' ' : 'w';
    spaced[sizeof(spaced) - 1] = '\0';
    pr_error_clear(&err);
    pr_error_set(&err, PR_E_IO, "start %s end", spaced);
    assert_true(strlen(err.msg) < PR_ERROR_MSG_SIZE);
    assert_memory_equal(err.msg, "start ", 6);
    assert_string_equal(err.msg + strlen(err.msg) - 4, " end");
    /* a path of two-byte code points is cut between code points */
    for (i = 0; i + 2 < sizeof(utf8); i += 2)
        memcpy(utf8 + i, "\xC3\xA9", 2);
    utf8[i] = '\0';
    pr_error_clear(&err);
    pr_error_set(&err, PR_E_IO, "%s/x.json: gone", utf8);
    for (i = 0; err.msg[i] != '\0'; i++)
        if ((unsigned char)err.msg[i] == 0xC3)
            assert_true((unsigned char)err.msg[i + 1] == 0xA9);
        else if ((unsigned char)err.msg[i] == 0xA9)
            assert_true(i > 0 && ((unsigned char)err.msg[i - 1] == 0xC3 ||
                                  (unsigned char)err.msg[i - 1] == 0x80));
    assert_non_null(strstr(err.msg, "/x.json: gone"));
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
        cmocka_unit_test(test_error_long_path_keeps_its_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
