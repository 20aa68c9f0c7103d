/* test_html.c - the HTML report of tests/data/summary_sample.json: its
 * structure (sections, CSP, no external URLs, no raw trace markup),
 * determinism, --top, empty sections, and template overrides. */
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

#include "profreport/figures.h"
#include "profreport/render.h"

static cJSON *
load_sample(void)
{
    const char *src = getenv("PR_SRCDIR");
    char path[4096];
    FILE *f;
    char *text;
    long n;
    cJSON *s;

    snprintf(path, sizeof(path), "%s/tests/data/summary_sample.json",
             src ? src : ".");
    f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    s = cJSON_Parse(text);
    free(text);
    return s;
}

static void
opts(struct pr_render_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->generated_at = 1767323045; /* 2026-01-02T03:04:05Z */
    o->version = "0.1.0-test";
}

static char *
render(const cJSON *s, const struct pr_render_opts *o)
{
    struct pr_buf out;
    struct pr_error err;

    pr_error_clear(&err);
    pr_buf_init(&out, 0);
    if (pr_html_render(s, o, &out, &err) != PR_OK) {
        fail_msg("render failed: %s", err.msg);
    }
    return pr_buf_take(&out, NULL);
}

static int
setup(void **state)
{
    *state = load_sample();
    return 0;
}

static int
teardown(void **state)
{
    cJSON_Delete(*state);
    return 0;
}

static size_t
count(const char *hay, const char *needle)
{
    size_t n = 0;

    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++) {
        n++;
    }
    return n;
}

static void
test_structure(void **state)
{
    static const char *const ids[] = {
        "id=\"overview\"",     "id=\"operators\"",       "id=\"kernels\"",
        "id=\"tensor-cores\"", "id=\"roofline\"",        "id=\"memory\"",
        "id=\"distributed\"",  "id=\"recommendations\"", "id=\"data-quality\""};
    struct pr_render_opts o;
    char *html;

    if (*state == NULL) {
        skip();
    }
    opts(&o);
    html = render(*state, &o);
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        if (strstr(html, ids[i]) == NULL) {
            fail_msg("missing section %s", ids[i]);
        }
    }
    assert_non_null(strstr(html, "<meta http-equiv=\"Content-Security-Policy\""
                                 " content=\"default-src 'none'; style-src "
                                 "'unsafe-inline'; script-src 'unsafe-inline';"
                                 " img-src data:\">"));
    assert_null(strstr(html, "http://"));
    assert_null(strstr(html, "https://"));
    assert_null(strstr(html, "<script>alert"));
    assert_null(strstr(html, "\"onmouseover="));
    assert_int_equal(count(html, "<script"), 1); /* only ours */
    assert_non_null(strstr(html, "my_ext::fused&lt;script&gt;alert(1)"));
    assert_non_null(strstr(html, "&amp;amp;already_escaped"));
    assert_non_null(strstr(html, "2026-01-02T03:04:05Z"));
    assert_non_null(strstr(html, "0.1.0-test"));
    assert_true(count(html, "<svg class=\"chart\"") >= 6);
    /* review 25u #13: each chart says its drawn width, and the page
       scales it between 0.9 and 1 of that (axis text 9.5 px or more at
       800 px, a donut not doubled) */
    assert_int_equal(count(html, "\" style=\"--w:"),
                     count(html, "<svg class=\"chart\""));
    assert_non_null(strstr(html, "style=\"--w:960px\""));
    assert_non_null(strstr(html, "svg.chart { min-width: calc(var(--w, 0px) "
                                 "* 0.9); max-width: var(--w, none); }"));
    assert_non_null(strstr(html, ">51.2 ms<"));
    /* worker0's timeline: the chart, its lanes, an escaped kernel name */
    assert_non_null(strstr(html, "<h4>Timeline of one step</h4>"));
    assert_non_null(strstr(html, "aria-label=\"Timeline of one step\""));
    assert_non_null(strstr(html, ">GPU0 stream 7<"));
    assert_non_null(strstr(html, "&lt;script&gt;alert(2)&lt;/script&gt;"));
    free(html);
}

static void
test_empty_sections_say_so(void **state)
{
    struct pr_render_opts o;
    char *html;

    if (*state == NULL) {
        skip();
    }
    opts(&o);
    html = render(*state, &o);
    /* worker1 has memory and tensor_cores null; the summary names no
       framework, so no profiler's switch is advised (review22g item 12:
       torch.profiler's profile_memory=True was told to nsys exports) */
    assert_non_null(strstr(html, "No memory events in this trace.<"));
    assert_non_null(strstr(html, "No tensor-core data in this trace"));
    assert_non_null(strstr(html, "No recommendations"));
    assert_non_null(strstr(html, "No GPU activity to show on a timeline."));
    free(html);
}

static void
test_deterministic_and_top(void **state)
{
    struct pr_render_opts o;
    char *a, *b;

    if (*state == NULL) {
        skip();
    }
    opts(&o);
    a = render(*state, &o);
    b = render(*state, &o);
    assert_string_equal(a, b);
    o.top = 3;
    free(b);
    b = render(*state, &o);
    assert_non_null(strstr(b, "Top 3 of 12, by device self time."));
    assert_null(strstr(b, "aten::relu_</td>"));
    free(a);
    free(b);
}

static void
test_minimal_summary(void **state)
{
    struct pr_render_opts o;
    cJSON *s = cJSON_Parse("{\"schema_version\":1,\"inputs\":[],\"runs\":[],"
                           "\"distributed\":null}");
    char *html;
    (void)state;

    opts(&o);
    html = render(s, &o);
    assert_non_null(strstr(html, "No runs in this summary"));
    assert_non_null(strstr(html, "Single process"));
    free(html);
    cJSON_Delete(s);
}

static void
write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void
test_template_dir(void **state)
{
    char dir[] = "/tmp/pr-html-XXXXXX", path[256];
    struct pr_render_opts o;
    struct pr_buf out;
    struct pr_error err;
    cJSON *s = cJSON_Parse("{\"runs\":[{\"worker\":\"<w>\"}]}");
    (void)state;

    assert_non_null(mkdtemp(dir));
    opts(&o);
    o.template_dir = dir;
    write_file(dir, "report.html", "[{{workers}}]");
    pr_buf_init(&out, 0);
    pr_error_clear(&err);
    assert_int_equal(pr_html_render(s, &o, &out, &err), PR_OK);
    assert_string_equal(out.data, "[&lt;w&gt;]");

    write_file(dir, "report.html", "ok\n{{#sections}}\n");
    pr_buf_reset(&out);
    assert_int_equal(pr_html_render(s, &o, &out, &err), PR_E_TEMPLATE);
    assert_non_null(strstr(err.msg, "report.html: line 2"));
    pr_buf_free(&out);
    snprintf(path, sizeof(path), "%s/report.html", dir);
    remove(path);
    rmdir(dir);
    cJSON_Delete(s);
}

/* The section table (sections.c) is the one list the HTML follows (issue
 * #10: a new section is one file and one row): every section of it that
 * the summary has is there, in the table's order, linked from the
 * navigation; every other one is left out. */
static void
test_sections_follow_the_table(void **state)
{
    struct pr_render_opts o;
    const char *at, *prev;
    char id[96], link[96];
    size_t i, shown = 0;
    char *html;

    if (*state == NULL) {
        skip();
    }
    opts(&o);
    html = render(*state, &o);
    prev = html;
    for (i = 0; i < pr_report_n_sections; i++) {
        const struct pr_section *s = pr_report_sections[i];
        snprintf(id, sizeof(id), "<section id=\"%s\">", s->id);
        snprintf(link, sizeof(link), "<a href=\"#%s\">", s->id);
        at = strstr(html, id);
        if (!pr_section_present(s, *state)) {
            assert_null(at);
            continue;
        }
        if (at == NULL || at < prev || strstr(html, link) == NULL) {
            fail_msg("section %s: missing, unlinked or out of the table's "
                     "order",
                     s->id);
        }
        prev = at;
        shown++;
    }
    assert_true(shown >= 8);
    free(html);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_sections_follow_the_table),
        cmocka_unit_test(test_empty_sections_say_so),
        cmocka_unit_test(test_deterministic_and_top),
        cmocka_unit_test(test_minimal_summary),
        cmocka_unit_test(test_template_dir),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
