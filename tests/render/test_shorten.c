/* test_shorten.c - the display forms of operator and kernel names, from
 * the data file tests/render/shorten_cases.txt (one named case a line),
 * plus the hostile inputs: unbalanced brackets, a 70,000-character name,
 * a buffer smaller than the width asks for. */
#include "config.h"

/* clang-format off: cmocka.h needs these three first */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/shorten.h"

static char *
trim(char *s)
{
    char *e;

    while (*s == ' ')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\n'))
        *--e = '\0';
    return s;
}

static void
test_cases_file(void **state)
{
    const char *src = getenv("PR_SRCDIR");
    char path[1024], line[4096], out[PR_SHORTEN_CAP(300)];
    FILE *f;
    int n = 0, bad = 0;
    (void)state;

    snprintf(path, sizeof(path), "%s/tests/render/shorten_cases.txt",
             src ? src : ".");
    f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof(line), f) != NULL) {
        char *a = line, *b, *c;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        b = strstr(a, " | ");
        c = b ? strstr(b + 3, " | ") : NULL;
        assert_non_null(c);
        *b = *c = '\0';
        pr_shorten(trim(a), (size_t)atoi(trim(b + 3)), out, sizeof(out));
        n++;
        if (strcmp(out, trim(c + 3)) != 0) {
            print_error("case %d (%s, %s): got \"%s\", want \"%s\"\n", n,
                        trim(b + 3), trim(a), out, trim(c + 3));
            bad++;
        }
        assert_true(pr_shorten_width(out) <= (size_t)atoi(trim(b + 3)));
    }
    fclose(f);
    assert_true(n >= 10);
    assert_int_equal(bad, 0);
}

static void
test_hostile(void **state)
{
    size_t n = 70000;
    char *big = malloc(n + 32), out[PR_SHORTEN_CAP(40)], small[16];
    (void)state;

    assert_non_null(big);
    memcpy(big, "void k_", 7);
    memset(big + 7, 'x', n);
    memcpy(big + 7 + n, "<float>(int)", 13);
    pr_shorten(big, 40, out, sizeof(out));
    assert_int_equal(pr_shorten_width(out), 40);
    assert_memory_equal(out, "k_xxx", 5);
    assert_non_null(strstr(out, "\xE2\x80\xA6"));
    free(big);
    /* unbalanced brackets fold to the end and stay valid */
    pr_shorten("void f<<<<a, b, c, d, e, f, g(int)", 10, out, sizeof(out));
    assert_true(pr_shorten_width(out) <= 10);
    pr_shorten("x>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>", 10, out,
               sizeof(out));
    assert_true(pr_shorten_width(out) <= 10);
    /* a small buffer gets a shorter cut, never an overflow */
    pr_shorten("sm80_xmma_wgrad_implicit_gemm_indexed_kernel", 40, small,
               sizeof(small));
    assert_true(strlen(small) < sizeof(small));
    /* the middle cut keeps both ends, whole code points */
    pr_shorten_middle("step.mean [w] +19.0% (+19 ms, 100 ms -> 119 ms): "
                      "within noise",
                      30, out, sizeof(out));
    assert_int_equal(pr_shorten_width(out), 30);
    assert_non_null(strstr(out, "within noise"));
    pr_shorten_middle("\xE2\x88\x91\xE2\x88\x91\xE2\x88\x91\xE2\x88\x91"
                      "\xE2\x88\x91\xE2\x88\x91\xE2\x88\x91\xE2\x88\x91"
                      "\xE2\x88\x91\xE2\x88\x91",
                      8, out, sizeof(out));
    assert_int_equal(pr_shorten_width(out), 8);
    assert_int_equal(strlen(out), 24);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases_file),
        cmocka_unit_test(test_hostile),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
