/* test_strtab.c - interning: ids are dense and stable, bytes are exact. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Issue #19: names must reach the summary as UTF-8.  Each ill-formed
 * part becomes one U+FFFD (Unicode's maximal-subpart practice); text that
 * is UTF-8 is kept as it is; distinct repaired entries are counted. */
#define FFFD "\xef\xbf\xbd"
static void
test_invalid_utf8_replaced(void **state)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"ok \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", NULL}, /* valid */
        {"a\xff"
         "b",
         "a" FFFD "b"},
        {"\xfe\xff", FFFD FFFD},
        {"cut \xe2\x82 x", "cut " FFFD " x"},        /* truncated 3-byte */
        {"end \xf0\x9f\x98", "end " FFFD},           /* truncated at the end */
        {"over \xc0\xaf", "over " FFFD FFFD},        /* overlong '/' */
        {"sur \xed\xa0\x80", "sur " FFFD FFFD FFFD}, /* a surrogate */
        {"big \xf4\x90\x80\x80", "big " FFFD FFFD FFFD FFFD}, /* > 10FFFF */
        {"lone \x80 cont", "lone " FFFD " cont"},
        {"long ascii run of sixteen+ bytes \xff",
         "long ascii run of sixteen+ bytes " FFFD},
    };
    struct pr_strtab *t = pr_strtab_new_text();
    size_t i, fixed = 0;

    (void)state;
    assert_non_null(t);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *want = cases[i].out ? cases[i].out : cases[i].in;
        uint32_t id = pr_strtab_intern(t, cases[i].in, strlen(cases[i].in));

        assert_int_not_equal(id, PR_STR_NONE);
        assert_string_equal(pr_strtab_get(t, id), want);
        assert_int_equal(pr_strtab_len(t, id), strlen(want));
        fixed += cases[i].out != NULL;
        assert_int_equal(pr_strtab_repaired(t), fixed);
        /* the same text again: the same entry, not counted twice */
        assert_int_equal(pr_strtab_intern(t, cases[i].in, strlen(cases[i].in)),
                         id);
        assert_int_equal(pr_strtab_repaired(t), fixed);
        /* lookups see the text as interning did */
        assert_int_equal(pr_strtab_find(t, cases[i].in, strlen(cases[i].in)),
                         id);
    }
    pr_strtab_free(t);
}

/* A plain table is a set of byte strings: the module and source views
 * intern binary keys (ids and module numbers) in one, and keys that
 * differ only in bytes that are not UTF-8 must stay apart.  Repairing
 * there merged 26 nn.Module rows of a real trace into 14. */
static void
test_bytes_are_kept_exactly(void **state)
{
    static const unsigned char keys[][8] = {
        {0x80, 0, 0, 0, 1, 0, 0, 0},
        {0x81, 0, 0, 0, 1, 0, 0, 0},
        {0xff, 0xfe, 0, 0, 1, 0, 0, 0},
        {0xc3, 0, 0, 0, 1, 0, 0, 0},
    };
    struct pr_strtab *t = pr_strtab_new();
    uint32_t id[4];
    size_t i, j;

    (void)state;
    assert_non_null(t);
    for (i = 0; i < 4; i++) {
        id[i] = pr_strtab_intern(t, (const char *)keys[i], 8);
        assert_int_not_equal(id[i], PR_STR_NONE);
        assert_int_equal(pr_strtab_len(t, id[i]), 8);
        assert_memory_equal(pr_strtab_get(t, id[i]), keys[i], 8);
        for (j = 0; j < i; j++)
            assert_int_not_equal(id[i], id[j]);
    }
    for (i = 0; i < 4; i++)
        assert_int_equal(pr_strtab_find(t, (const char *)keys[i], 8), id[i]);
    assert_int_equal(pr_strtab_repaired(t), 0);
    pr_strtab_free(t);
}

/* Text over PR_TEXT_MAX (a hostile 100 MB name, issue #35): a text table
 * keeps its first bytes, cut at a character's start, and the count cut;
 * it is looked up the same way and counted once; binary tables keep it. */
static void
test_long_text_cut(void **state)
{
    struct pr_strtab *t = pr_strtab_new_text(), *b = pr_strtab_new();
    size_t n = 3 * PR_TEXT_MAX, i, len;
    char *s = malloc(n), want[64];
    const char *got;
    uint32_t id, id2;

    (void)state;
    assert_non_null(t);
    assert_non_null(b);
    assert_non_null(s);
    s[0] = 'a'; /* then "é" (2 bytes) over and over, so that the cut's */
    for (i = 1; i + 2 < n; i += 2) { /* place falls inside a character */
        s[i] = (char)0xc3;
        s[i + 1] = (char)0xa9;
    }
    s[n - 2] = 'x';
    s[n - 1] = 'y';
    id = pr_strtab_intern(t, s, n);
    assert_int_not_equal(id, PR_STR_NONE);
    got = pr_strtab_get(t, id);
    len = pr_strtab_len(t, id);
    assert_true(len <= PR_TEXT_MAX);
    assert_int_equal(pr_strtab_repaired(t), 0); /* still UTF-8 */
    assert_int_equal(pr_strtab_cut(t), 1);
    snprintf(want, sizeof(want), "\xe2\x80\xa6 [%zu bytes cut]",
             n - (size_t)(strstr(got, "\xe2\x80\xa6") - got));
    assert_non_null(strstr(got, want));
    assert_int_equal(strlen(got), len);
    assert_memory_equal(got, s, (size_t)(strstr(got, "\xe2\x80\xa6") - got));
    assert_int_equal(pr_strtab_find(t, s, n), id);
    id2 = pr_strtab_intern(t, s, n);
    assert_int_equal(id2, id);
    assert_int_equal(pr_strtab_cut(t), 1); /* counted once */
    id = pr_strtab_intern(b, s, n);        /* binary keys: kept whole */
    assert_int_equal(pr_strtab_len(b, id), n);
    assert_int_equal(pr_strtab_cut(b), 0);
    free(s);
    pr_strtab_free(t);
    pr_strtab_free(b);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_is_zero),
        cmocka_unit_test(test_same_string_same_id),
        cmocka_unit_test(test_many_strings_survive_rehash),
        cmocka_unit_test(test_embedded_nul_and_long),
        cmocka_unit_test(test_invalid_utf8_replaced),
        cmocka_unit_test(test_bytes_are_kept_exactly),
        cmocka_unit_test(test_long_text_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
