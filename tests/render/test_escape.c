/* test_escape.c - HTML/SVG escaping of hostile trace strings and UTF-8
 * boundary helpers. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <string.h>

#include "profreport/escape.h"

static void
expect_escaped(const char *in, size_t len, const char *want)
{
    struct pr_buf b;

    pr_buf_init(&b, 0);
    assert_int_equal(pr_escape_html(&b, in, len), PR_OK);
    assert_string_equal(b.data ? b.data : "", want);
    pr_buf_free(&b);
}

static void
test_hostile_names(void **state)
{
    const char *s = "<script>alert(1)</script>";
    (void)state;

    expect_escaped(s, strlen(s), "&lt;script&gt;alert(1)&lt;/script&gt;");
    s = "\"onmouseover=\"alert(2)";
    expect_escaped(s, strlen(s), "&quot;onmouseover=&quot;alert(2)");
    s = "x' onclick='y";
    expect_escaped(s, strlen(s), "x&#39; onclick=&#39;y");
    s = "void f<float, 4>(at::Array<char*, 2>&)";
    expect_escaped(s, strlen(s),
                   "void f&lt;float, 4&gt;(at::Array&lt;char*, 2&gt;&amp;)");
}

static void
test_already_escaped_is_data(void **state)
{
    const char *s = "&amp;already&lt;T&gt;";
    (void)state;

    expect_escaped(s, strlen(s), "&amp;amp;already&amp;lt;T&amp;gt;");
}

static void
test_invalid_utf8(void **state)
{
    (void)state;
    /* lone continuation, truncated 3-byte sequence, overlong '<' */
    expect_escaped("a\x80z", 3, "a\xEF\xBF\xBDz");
    expect_escaped("a\xE2\x82", 3, "a\xEF\xBF\xBD\xEF\xBF\xBD");
    expect_escaped("\xC0\xBC", 2, "\xEF\xBF\xBD\xEF\xBF\xBD");
    /* surrogate encoded in UTF-8 */
    expect_escaped("\xED\xA0\x80", 3, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    /* valid multi-byte text passes through */
    expect_escaped("\xC2\xB5s \xE5\x90\x8D", 7, "\xC2\xB5s \xE5\x90\x8D");
    /* controls other than tab/newline, and an embedded NUL */
    expect_escaped("a\x01\tb\0c", 6,
                   "a\xEF\xBF\xBD\tb\xEF\xBF\xBD"
                   "c");
}

static void
test_utf8_boundaries(void **state)
{
    const char *s = "a\xC2\xB5\xE5\x90\x8D\xF0\x9F\x98\x80z"; /* a µ 名 😀 z */
    size_t len = strlen(s);
    uint32_t cp;
    (void)state;

    assert_int_equal(pr_escape_utf8_len(s, len), 5);
    assert_int_equal(pr_escape_utf8_prefix(s, len, 1), 1);
    assert_int_equal(pr_escape_utf8_prefix(s, len, 2), 3);
    assert_int_equal(pr_escape_utf8_prefix(s, len, 3), 6);
    assert_int_equal(pr_escape_utf8_prefix(s, len, 4), 10);
    assert_int_equal(pr_escape_utf8_prefix(s, len, 99), len);
    assert_int_equal(pr_escape_utf8_next(s + 6, len - 6, &cp), 4);
    assert_int_equal(cp, 0x1F600);
}

static void
test_truncate(void **state)
{
    struct pr_buf b;
    const char *s = "\xC2\xB5<\xC2\xB5\xC2\xB5\xC2\xB5";
    (void)state;

    pr_buf_init(&b, 0);
    assert_int_equal(pr_escape_html_trunc(&b, s, strlen(s), 3), PR_OK);
    assert_string_equal(b.data, "\xC2\xB5&lt;\xE2\x80\xA6");
    pr_buf_reset(&b);
    assert_int_equal(pr_escape_html_trunc(&b, s, strlen(s), 5), PR_OK);
    assert_string_equal(b.data, "\xC2\xB5&lt;\xC2\xB5\xC2\xB5\xC2\xB5");
    pr_buf_free(&b);
}

static void
test_buffer_limit(void **state)
{
    struct pr_buf b;
    (void)state;

    pr_buf_init(&b, 8);
    assert_int_equal(pr_escape_html(&b, "<<<<", 4), PR_E_LIMIT);
    pr_buf_free(&b);
}

static void
test_term(void **state)
{
    char a[] = "ab\x1b]52;c;aGk=\x07"
               "cd\tx\ny\x7f";
    char c1[] = "p\xc2\x9b"
                "2Jq"; /* U+009B, CSI */
    char bad[] = "n\xff\x9b"
                 "m";                                  /* not UTF-8 */
    char ok[] = "\xc2\xb5s \xef\xbf\xbd \xe2\x80\xa6"; /* µs, U+FFFD, … */
    size_t n;

    (void)state;
    n = pr_escape_term(a, strlen(a));
    assert_string_equal(a, "ab?]52;c;aGk=?cd\tx\ny?");
    assert_int_equal(n, strlen(a));
    n = pr_escape_term(c1, strlen(c1));
    assert_string_equal(c1, "p?2Jq");
    assert_int_equal(n, 5);
    pr_escape_term(bad, strlen(bad));
    assert_string_equal(bad, "n??m");
    n = pr_escape_term(ok, strlen(ok));
    assert_int_equal(n, strlen("\xc2\xb5s \xef\xbf\xbd \xe2\x80\xa6"));
    assert_string_equal(ok, "\xc2\xb5s \xef\xbf\xbd \xe2\x80\xa6");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile_names),
        cmocka_unit_test(test_already_escaped_is_data),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_utf8_boundaries),
        cmocka_unit_test(test_truncate),
        cmocka_unit_test(test_buffer_limit),
        cmocka_unit_test(test_term),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
