/* test_tables.c - the diff and trend tables are built once (tables.c) and
 * the Markdown and HTML layouts (the HTML as the main report's figures)
 * show the same columns and cells: a figure
 * row carries its noise test, a change row its shapes after the name, a
 * gate its "(default)", an empty list says "none", and Markdown escapes a
 * glob rule's '*'. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/diff/internal.h"
#include "profreport/render.h"

static cJSON *
parse(const char *text)
{
    cJSON *j = cJSON_Parse(text);

    assert_non_null(j);
    return j;
}

static const char *
cell(const struct pr_dtable *t, int row, const char *key)
{
    const cJSON *r = cJSON_GetArrayItem(t->rows, row);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Lay a table out in Markdown and, as the diff's HTML page does, as a
 * figure of a section through the main report's layout (html.c's view,
 * templates/sections.mustache) into two strings (caller frees); the HTML
 * takes the rows over. */
static void
both(struct pr_dtable *t, struct pr_buf *md, struct pr_buf *html)
{
    struct pr_figs f;
    struct pr_html_view v;
    struct pr_error err;

    pr_buf_init(md, 0);
    pr_buf_init(html, 0);
    pr_dtable_md(md, t);
    assert_false(md->failed);
    pr_figs_init(&f, 15);
    pr_dfigs_table(&f, t, 0);
    assert_null(t->rows);
    assert_false(f.failed);
    assert_int_equal(pr_html_view_init(&v, &err), PR_OK);
    pr_html_view_section(&v, "t", "T", &f);
    assert_int_equal(
        pr_html_view_render(&v, "sections.mustache", NULL, html, &err), PR_OK);
    pr_html_view_free(&v);
    pr_figs_free(&f);
    assert_int_equal(pr_buf_addc(md, '\0'), PR_OK);
    assert_int_equal(pr_buf_addc(html, '\0'), PR_OK);
}

static void
test_gates(void **state)
{
    cJSON *d = parse("{\"gates\":[{\"rule\":\"op:*>+5%\",\"result\":"
                     "\"fail\",\"default\":true,\"detail\":\"grew\"},"
                     "{\"rule\":\"step.mean>+5%\",\"result\":\"skipped\"}]}");
    struct pr_dtable t;
    struct pr_buf md, html;

    (void)state;
    assert_int_equal(pr_dtable_gates(&t, d), 0);
    assert_int_equal(cJSON_GetArraySize(t.rows), 2);
    assert_string_equal(cell(&t, 0, "result"), "FAIL");
    assert_string_equal(cell(&t, 0, PR_DTABLE_SUB), "(default)");
    assert_string_equal(cell(&t, 1, "result"), "skipped");
    assert_null(cell(&t, 1, PR_DTABLE_SUB));
    both(&t, &md, &html);
    assert_non_null(strstr(md.data, "| **FAIL** | `op:*>+5%` `(default)` |"));
    assert_non_null(strstr(md.data, "| skipped | `step.mean>+5%` |"));
    assert_non_null(
        strstr(html.data, "<td class=\"verdict-cell fail\" data-v=\"FAIL\">"));
    assert_non_null(strstr(html.data, "<td class=\"verdict-cell skip\""));
    /* the muted "(default)" after the rule, in the rule's cell */
    assert_non_null(strstr(html.data, "<span class=\"sub\">(default)</span>"
                                      "</td><td"));
    pr_buf_free(&md);
    pr_buf_free(&html);
    pr_dtable_free(&t);
    cJSON_Delete(d);
}

static void
test_figures(void **state)
{
    cJSON *p = parse(
        "{\"metrics\":[{\"metric\":\"step.mean\",\"unit\":\"us\","
        "\"baseline\":1000,\"current\":1200,\"delta\":200,\"delta_pct\":20,"
        "\"noise\":{\"method\":\"mann-whitney-exact\",\"significant\":true,"
        "\"p_value\":0.002,\"ci_lo_pct\":10,\"ci_hi_pct\":30}},"
        "{\"metric\":\"memory.peak\",\"device\":\"GPU0\",\"unit\":\"bytes\","
        "\"baseline\":1024,\"current\":2048,\"delta\":1024,\"delta_pct\":100},"
        "{\"metric\":\"breakdown.memset\",\"unit\":\"us\",\"baseline\":0,"
        "\"current\":0}]}");
    struct pr_dtable t;
    struct pr_buf md, html;

    (void)state;
    assert_int_equal(pr_dtable_figures(&t, p, NULL), 0);
    /* a figure neither run has is left out */
    assert_int_equal(cJSON_GetArraySize(t.rows), 2);
    assert_string_equal(cell(&t, 0, "noise"), "significant (MWU exact)");
    assert_string_equal(cell(&t, 0, "ci"), "+10.0 to +30.0%");
    assert_string_equal(cell(&t, 1, "figure"), "memory.peak GPU0");
    /* no per-step samples: no test at all, not "too few steps" */
    assert_string_equal(cell(&t, 1, "noise"), "limit only");
    both(&t, &md, &html);
    assert_non_null(strstr(md.data, "| Figure | Baseline | Current | Change "
                                    "| p-value | 95% CI of the change | "
                                    "Noise test |\n|---|---:|---:|---:|---:|"
                                    "---:|---|\n"));
    assert_non_null(strstr(html.data, ">95% CI of the change</th>"));
    assert_non_null(strstr(html.data, "<td class=\"num up\""));
    /* the report's formatting: three significant digits */
    assert_non_null(strstr(html.data, ">1.00 ms</td>"));
    assert_non_null(strstr(html.data, ">+200 \xC2\xB5s +20.0%</td>"));
    pr_buf_free(&md);
    pr_buf_free(&html);
    pr_dtable_free(&t);
    cJSON_Delete(p);
}

static void
test_changes(void **state)
{
    cJSON *a = parse(
        "[{\"name\":\"aten::mm\",\"input_shapes\":\"[[2, 3]]\",\"status\":"
        "\"both\",\"baseline_us\":10,\"current_us\":20,\"delta_us\":10,"
        "\"delta_pct\":100},{\"name\":\"aten::add\",\"status\":\"new\","
        "\"baseline_us\":0,\"current_us\":5,\"delta_us\":5}]");
    struct pr_dtable t;
    struct pr_buf md, html;

    (void)state;
    assert_int_equal(pr_dtable_changes(&t, a, 1, 15, 1), 0);
    assert_int_equal(cJSON_GetArraySize(t.rows), 1);
    assert_string_equal(cell(&t, 0, PR_DTABLE_SUB), "[[2, 3]]");
    pr_dtable_free(&t);
    assert_int_equal(pr_dtable_changes(&t, a, 0, 15, 1), 0);
    assert_int_equal(cJSON_GetArraySize(t.rows), 1);
    assert_string_equal(cell(&t, 0, "status"), "new");
    assert_string_equal(t.cols[4].label, "Status");
    pr_dtable_free(&t);
    assert_int_equal(pr_dtable_changes(&t, a, -1, 15, 1), 0);
    both(&t, &md, &html);
    assert_non_null(strstr(md.data, "| (none) | | | | |\n"));
    assert_non_null(strstr(html.data, "<p class=\"empty\">None.</p>"));
    assert_null(strstr(html.data, "<table"));
    pr_buf_free(&md);
    pr_buf_free(&html);
    pr_dtable_free(&t);
    cJSON_Delete(a);
}

/* A change the diff did not compare is no top regression or improvement:
 * left out and counted in the table's note, which every layout shows
 * (review 20 #1); new and vanished rows stay. */
static void
test_not_compared(void **state)
{
    cJSON *a = parse(
        "[{\"name\":\"aten::mm\",\"status\":\"both\",\"baseline_us\":"
        "2400,\"current_us\":400,\"delta_us\":-2000,\"delta_pct\":-83.3,"
        "\"comparable\":false,\"not_comparable\":\"run r: the baseline has "
        "no step markers (its whole capture is one step), the current run 6 "
        "ProfilerSteps: a whole capture against a step is no step-time "
        "comparison\"},{\"name\":\"aten::add\",\"status\":\"both\","
        "\"baseline_us\":20,\"current_us\":10,\"delta_us\":-10,"
        "\"delta_pct\":-50},{\"name\":\"aten::relu\",\"status\":\"new\","
        "\"baseline_us\":0,\"current_us\":5,\"delta_us\":5,"
        "\"comparable\":false}]");
    struct pr_dtable t;
    struct pr_buf md, html;

    (void)state;
    assert_int_equal(pr_dtable_changes(&t, a, -1, 15, 1), 0);
    assert_int_equal(cJSON_GetArraySize(t.rows), 1);
    assert_string_equal(cell(&t, 0, PR_K_NAME), "aten::add");
    assert_string_equal(t.note, "1 row not compared (steps against a whole "
                                "capture) left out of this list; the JSON "
                                "diff keeps it.");
    both(&t, &md, &html);
    assert_null(strstr(md.data, "aten::mm"));
    assert_non_null(strstr(md.data, "_1 row not compared (steps against a "
                                    "whole capture) left out"));
    assert_null(strstr(html.data, "aten::mm"));
    assert_non_null(strstr(html.data, "1 row not compared (steps against a "
                                      "whole capture) left out"));
    pr_buf_free(&md);
    pr_buf_free(&html);
    pr_dtable_free(&t);
    /* nothing grew: no note under the regressions */
    assert_int_equal(pr_dtable_changes(&t, a, 1, 15, 1), 0);
    assert_int_equal(cJSON_GetArraySize(t.rows), 0);
    assert_string_equal(t.note, "");
    pr_dtable_free(&t);
    assert_int_equal(pr_dtable_changes(&t, a, 0, 15, 1), 0);
    assert_int_equal(cJSON_GetArraySize(t.rows), 1);
    assert_string_equal(cell(&t, 0, "status"), "new");
    pr_dtable_free(&t);
    cJSON_Delete(a);
}

static void
test_nights(void **state)
{
    cJSON *tr =
        parse("{\"nights\":[{\"label\":\"a.json\",\"step_mean_us\":100},"
              "{\"label\":\"b.json\",\"step_mean_us\":150,\"crossed\":true,"
              "\"gates\":[{\"rule\":\"step.mean>+5%\",\"result\":\"fail\","
              "\"detail\":\"+50%\"}]}]}");
    struct pr_dtable t;

    (void)state;
    assert_int_equal(pr_dtable_nights(&t, tr), 0);
    assert_string_equal(cell(&t, 0, "gates"), "first night");
    assert_string_equal(cell(&t, 0, "crossed"), "no");
    assert_string_equal(cell(&t, 1, "crossed"), "yes");
    assert_string_equal(cell(&t, 1, "gates"), "CROSSED step.mean>+5%: +50%");
    pr_dtable_free(&t);
    cJSON_Delete(tr);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gates),   cmocka_unit_test(test_figures),
        cmocka_unit_test(test_changes), cmocka_unit_test(test_not_compared),
        cmocka_unit_test(test_nights),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
