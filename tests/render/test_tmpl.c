/* test_tmpl.c - the Mustache engine against the official spec tests
 * (the JSON files of shared/spec/mustache, one cmocka test per case) plus our
 * own rules: truthiness, errors with line numbers, nesting limits, loading. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "profreport/buf.h"
#include "profreport/tmpl.h"

static const char *const spec_files[] = {
    "comments", "delimiters", "interpolation",
    "inverted", "partials",   "sections",
};

static char *
slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *data;
    long n;

    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc((size_t)n + 1);
    if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    if (data != NULL) {
        data[n] = '\0';
    }
    fclose(f);
    return data;
}

/* The spec folder: $PR_SHARED/spec/mustache or $PR_SRCDIR/../shared/... */
static int
spec_dir(char *out, size_t n)
{
    const char *shared = getenv("PR_SHARED");
    const char *src = getenv("PR_SRCDIR");
    char probe[4096];

    if (shared != NULL) {
        snprintf(out, n, "%s/spec/mustache", shared);
    } else if (src != NULL) {
        snprintf(out, n, "%s/../shared/spec/mustache", src);
    } else {
        return 0;
    }
    snprintf(probe, sizeof(probe), "%s/sections.json", out);
    return access(probe, R_OK) == 0;
}

static char *
spec_partial(const char *name, void *user)
{
    const cJSON *p =
        cJSON_GetObjectItemCaseSensitive((const cJSON *)user, "partials");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, name);

    if (!cJSON_IsString(v)) {
        return NULL;
    }
    return strdup(v->valuestring);
}

static void
run_case(void **state)
{
    cJSON *tc = *state;
    const char *tmpl =
        cJSON_GetObjectItemCaseSensitive(tc, "template")->valuestring;
    const char *want =
        cJSON_GetObjectItemCaseSensitive(tc, "expected")->valuestring;
    struct pr_buf out;
    struct pr_error err;
    enum pr_status st;

    pr_error_clear(&err);
    pr_buf_init(&out, 0);
    st = pr_tmpl_render(tmpl, strlen(tmpl),
                        cJSON_GetObjectItemCaseSensitive(tc, "data"),
                        spec_partial, tc, &out, &err);
    if (st != PR_OK) {
        print_error("error: %s\n", err.msg);
    }
    assert_int_equal(st, PR_OK);
    assert_string_equal(out.data ? out.data : "", want);
    pr_buf_free(&out);
}

static void
skip_spec(void **state)
{
    (void)state;
    print_message("mustache spec not found (set PR_SHARED); skipping\n");
    skip();
}

/* --- our own cases */

static char *
render(const char *tmpl, const char *json, struct pr_error *err,
       enum pr_status *st)
{
    cJSON *data = cJSON_Parse(json);
    struct pr_buf out;

    pr_error_clear(err);
    pr_buf_init(&out, 0);
    *st = pr_tmpl_render(tmpl, strlen(tmpl), data, NULL, NULL, &out, err);
    cJSON_Delete(data);
    if (out.data == NULL) {
        return strdup("");
    }
    return pr_buf_take(&out, NULL);
}

static void
expect(const char *tmpl, const char *json, const char *want)
{
    struct pr_error err;
    enum pr_status st;
    char *got = render(tmpl, json, &err, &st);

    assert_int_equal(st, PR_OK);
    assert_string_equal(got, want);
    free(got);
}

static void
expect_error(const char *tmpl, const char *msg_part)
{
    struct pr_error err;
    enum pr_status st;
    char *got = render(tmpl, "{}", &err, &st);

    free(got);
    assert_int_equal(st, PR_E_TEMPLATE);
    assert_int_equal(err.code, PR_E_TEMPLATE);
    if (strstr(err.msg, msg_part) == NULL) {
        fail_msg("message \"%s\" lacks \"%s\"", err.msg, msg_part);
    }
}

static void
test_truthiness(void **state)
{
    (void)state;
    expect("{{#z}}z{{/z}}{{^z}}!z{{/z}}", "{\"z\": 0}", "z");
    expect("{{#e}}e{{/e}}{{^e}}!e{{/e}}", "{\"e\": \"\"}", "!e");
    expect("{{#l}}l{{/l}}{{^l}}!l{{/l}}", "{\"l\": []}", "!l");
    expect("{{#o}}o{{/o}}", "{\"o\": {}}", "o");
    expect("{{#n}}n{{/n}}{{^n}}!n{{/n}}", "{\"n\": null}", "!n");
}

static void
test_escaping(void **state)
{
    (void)state;
    expect("{{x}}|{{{x}}}", "{\"x\": \"<script>'&\\\"\"}",
           "&lt;script&gt;&#39;&amp;&quot;|<script>'&\"");
    expect("{{x}}", "{\"x\": \"&amp;\"}", "&amp;amp;");
    expect("{{n}} {{m}}", "{\"n\": 1.5, \"m\": -3}", "1.5 -3");
}

static void
test_errors(void **state)
{
    (void)state;
    expect_error("a\nb\n{{#open}}\n", "line 3: section \"open\" is not "
                                      "closed");
    expect_error("{{#a}}\n{{/b}}", "line 2: section \"a\" closed by \"b\"");
    expect_error("x\n\n{{/a}}", "line 3: closing tag without");
    expect_error("one\n{{unclosed", "line 2: unclosed tag");
    expect_error("{{= a =}}", "bad set-delimiter");
    expect_error("{{=a b c=}}", "bad set-delimiter");
    expect_error("{{  }}", "empty tag name");
}

static void
test_nesting_limit(void **state)
{
    struct pr_buf t;
    (void)state;

    pr_buf_init(&t, 0);
    for (int i = 0; i < 10000; i++) {
        assert_int_equal(pr_buf_adds(&t, "{{#a}}"), PR_OK);
    }
    expect_error(t.data, "nested too deeply");
    pr_buf_free(&t);
}

static char *
self_partial(const char *name, void *user)
{
    (void)user;
    (void)name;
    return strdup("x{{>loop}}");
}

static void
test_partial_recursion_limit(void **state)
{
    struct pr_buf out;
    struct pr_error err;
    (void)state;

    pr_error_clear(&err);
    pr_buf_init(&out, 0);
    assert_int_equal(
        pr_tmpl_render("{{>loop}}", 9, NULL, self_partial, NULL, &out, &err),
        PR_E_TEMPLATE);
    assert_non_null(strstr(err.msg, "partials nested too deeply"));
    pr_buf_free(&out);
}

static void
test_load(void **state)
{
    char dir[] = "/tmp/pr-tmpl-XXXXXX";
    char path[64], *text = NULL;
    size_t len = 0;
    struct pr_error err;
    FILE *f;
    (void)state;

    pr_error_clear(&err);
    assert_int_equal(pr_tmpl_load("report.html", NULL, &text, &len, &err),
                     PR_OK);
    assert_true(len > 100);
    assert_non_null(strstr(text, "<html"));
    free(text);

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/report.html", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("mine", f);
    fclose(f);
    assert_int_equal(pr_tmpl_load("report.html", dir, &text, &len, &err),
                     PR_OK);
    assert_string_equal(text, "mine");
    free(text);
    remove(path);
    rmdir(dir);

    assert_int_equal(pr_tmpl_load("../etc/passwd", NULL, &text, &len, &err),
                     PR_E_TEMPLATE);
    pr_error_clear(&err);
    assert_int_equal(pr_tmpl_load("nope.html", NULL, &text, &len, &err),
                     PR_E_TEMPLATE);
    assert_non_null(strstr(err.msg, "nope.html"));
}

static const struct CMUnitTest own_tests[] = {
    cmocka_unit_test(test_truthiness),
    cmocka_unit_test(test_escaping),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_nesting_limit),
    cmocka_unit_test(test_partial_recursion_limit),
    cmocka_unit_test(test_load),
};

#define N_OWN (sizeof(own_tests) / sizeof(own_tests[0]))
#define N_FILES (sizeof(spec_files) / sizeof(spec_files[0]))
#define MAX_CASES 512

int
main(void)
{
    static struct CMUnitTest tests[N_OWN + MAX_CASES];
    static char names[MAX_CASES][160];
    cJSON *docs[N_FILES] = {NULL};
    char dir[4096];
    size_t n = 0;
    int rc;

    memcpy(tests, own_tests, sizeof(own_tests));
    n = N_OWN;
    if (!spec_dir(dir, sizeof(dir))) {
        tests[n++] =
            (struct CMUnitTest){"mustache spec", skip_spec, NULL, NULL, NULL};
    }
    for (size_t f = 0; f < N_FILES && spec_dir(dir, sizeof(dir)); f++) {
        char path[4200];
        char *text;
        cJSON *tc;

        snprintf(path, sizeof(path), "%s/%s.json", dir, spec_files[f]);
        text = slurp(path);
        docs[f] = text ? cJSON_Parse(text) : NULL;
        free(text);
        assert_non_null(docs[f]);
        cJSON_ArrayForEach(tc,
                           cJSON_GetObjectItemCaseSensitive(docs[f], "tests"))
        {
            if (n - N_OWN >= MAX_CASES) {
                break;
            }
            snprintf(names[n - N_OWN], sizeof(names[0]), "%s: %s",
                     spec_files[f],
                     cJSON_GetObjectItemCaseSensitive(tc, "name")->valuestring);
            tests[n] =
                (struct CMUnitTest){names[n - N_OWN], run_case, NULL, NULL, tc};
            n++;
        }
    }
    rc = _cmocka_run_group_tests("tmpl", tests, n, NULL, NULL);
    for (size_t f = 0; f < N_FILES; f++) {
        cJSON_Delete(docs[f]);
    }
    return rc;
}
