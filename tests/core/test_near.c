/* test_near.c - edit distance and the nearest word for "did you mean". */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/near.h"

static void
test_distance(void **state)
{
    char long_word[300];

    (void)state;
    assert_int_equal(pr_edit_distance("", ""), 0);
    assert_int_equal(pr_edit_distance("input", "input"), 0);
    assert_int_equal(pr_edit_distance("", "abc"), 3);
    assert_int_equal(pr_edit_distance("kernal", "kernel"), 1); /* substitute */
    assert_int_equal(pr_edit_distance("inptu", "input"), 1);   /* swap */
    assert_int_equal(pr_edit_distance("tabel", "table"), 1);
    assert_int_equal(pr_edit_distance("treshold", "threshold"), 1); /* insert */
    assert_int_equal(pr_edit_distance("kitten", "sitting"), 3);
    assert_int_equal(pr_edit_distance("ca", "abc"), 3); /* OSA, not 2 */
    memset(long_word, 'a', sizeof(long_word) - 1);
    long_word[sizeof(long_word) - 1] = '\0';
    assert_true(pr_edit_distance(long_word, "a") == SIZE_MAX);
}

static void
test_nearest(void **state)
{
    static const char *const kinds[] = {"operators",    "kernels", NULL,
                                        "kernel-calls", "steps",   ""};

    (void)state;
    assert_string_equal(pr_nearest("kernal", kinds, 6, 3), "kernels");
    assert_string_equal(pr_nearest("step", kinds, 6, 3), "steps");
    /* a prefix of three or more bytes counts as one edit */
    assert_string_equal(pr_nearest("kernel-c", kinds, 6, 3), "kernel-calls");
    assert_null(pr_nearest("zz", kinds, 6, 3));
    assert_null(pr_nearest("memory", kinds, 6, 3));
    /* ties keep the first; the limit is exclusive */
    assert_string_equal(pr_nearest("kernel", kinds, 6, 3), "kernels");
    assert_null(pr_nearest("stepz", kinds, 6, 1));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_nearest),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
