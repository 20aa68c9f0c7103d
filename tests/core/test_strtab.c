/* test_strtab.c - interning: ids are dense and stable, bytes are exact. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/strtab.h"

static void
test_empty_is_zero(void **state)
{
    struct pr_strtab *t = pr_strtab_new();

    (void)state;
    assert_non_null(t);
    assert_int_equal(pr_strtab_intern(t, "", 0), PR_STR_EMPTY);
    assert_string_equal(pr_strtab_get(t, PR_STR_EMPTY), "");
    assert_string_equal(pr_strtab_get(t, 12345), "");
    pr_strtab_free(t);
}

static void
test_same_string_same_id(void **state)
{
    struct pr_strtab *t = pr_strtab_new();
    uint32_t a = pr_strtab_intern(t, "aten::mm", 8);
    uint32_t b = pr_strtab_intern(t, "aten::mmXX", 8); /* only 8 bytes */
    uint32_t c = pr_strtab_intern(t, "aten::addmm", 11);

    (void)state;
    assert_int_equal(a, b);
    assert_int_not_equal(a, c);
    assert_string_equal(pr_strtab_get(t, c), "aten::addmm");
    assert_int_equal(pr_strtab_find(t, "aten::addmm", 11), c);
    assert_int_equal(pr_strtab_find(t, "nope", 4), PR_STR_NONE);
    pr_strtab_free(t);
}

static void
test_many_strings_survive_rehash(void **state)
{
    struct pr_strtab *t = pr_strtab_new();
    char buf[32];
    uint32_t ids[5000];
    int i;

    (void)state;
    for (i = 0; i < 5000; i++) {
        int n = snprintf(buf, sizeof(buf), "kernel_%d", i);
        ids[i] = pr_strtab_intern(t, buf, (size_t)n);
        assert_int_equal(ids[i], (uint32_t)i + 1);
    }
    for (i = 0; i < 5000; i++) {
        snprintf(buf, sizeof(buf), "kernel_%d", i);
        assert_string_equal(pr_strtab_get(t, ids[i]), buf);
    }
    assert_int_equal(pr_strtab_count(t), 5001);
    pr_strtab_free(t);
}

static void
test_embedded_nul_and_long(void **state)
{
    struct pr_strtab *t = pr_strtab_new();
    static char big[3 << 20];
    uint32_t a, b;

    (void)state;
    memset(big, 'x', sizeof(big) - 1);
    a = pr_strtab_intern(t, big, sizeof(big) - 1); /* larger than a chunk */
    b = pr_strtab_intern(t, "a\0b", 3);
    assert_int_equal(pr_strtab_len(t, a), sizeof(big) - 1);
    assert_int_equal(pr_strtab_len(t, b), 3);
    assert_int_not_equal(pr_strtab_intern(t, "a", 1), b);
    pr_strtab_free(t);
    pr_strtab_free(NULL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_is_zero),
        cmocka_unit_test(test_same_string_same_id),
        cmocka_unit_test(test_many_strings_survive_rehash),
        cmocka_unit_test(test_embedded_nul_and_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
