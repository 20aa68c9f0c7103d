/* report_junit.c - the gates as JUnit XML, one <testcase> per gate, so CI
 * systems list each gate as a test and show the tripped ones as failures
 * with the offending figures. */
#include "config.h"

#include <string.h>

#include "profreport/diff.h"
#include "profreport/escape.h"
#include "internal.h"

/* XML text and attribute values: the HTML escaper produces only entities
 * XML knows (&amp; &lt; &gt; &quot; &#39;) and drops control bytes. */
static void
esc(struct pr_buf *b, const char *s)
{
    if (s == NULL)
        s = "";
    if (pr_escape_html(b, s, strlen(s)) != PR_OK)
        b->failed = 1;
}

static void
add(struct pr_buf *b, const char *s)
{
    if (pr_buf_adds(b, s) != PR_OK)
        b->failed = 1;
}

/* Every offender on its own line in the failure body. */
static void
offenders(struct pr_buf *b, const cJSON *g)
{
    const cJSON *it;
    struct pr_buf line;

    pr_buf_init(&line, 0);
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(g, "offenders"))
    {
        pr_buf_reset(&line);
        if (pr_ddescribe(&line, it) != PR_OK || line.data == NULL) {
            b->failed = 1;
            break;
        }
        esc(b, line.data);
        add(b, "\n");
    }
    pr_buf_free(&line);
}

static void
testcase(struct pr_buf *b, const cJSON *g)
{
    const char *res = pr_dj_str(g, "result");
    int failed = res != NULL && strcmp(res, "fail") == 0;

    add(b, "    <testcase classname=\"profreport.diff\" name=\"");
    esc(b, pr_dj_str(g, "rule"));
    add(b, "\">\n");
    if (failed) {
        add(b, "      <failure type=\"regression\" message=\"");
        esc(b, pr_dj_str(g, "detail"));
        add(b, "\">");
        offenders(b, g);
        add(b, "</failure>\n");
    }
    add(b, "      <system-out>");
    esc(b, pr_dj_str(g, "detail"));
    add(b, "</system-out>\n    </testcase>\n");
}

enum pr_status
pr_diff_junit(const cJSON *diff, struct pr_buf *out, struct pr_error *err)
{
    const cJSON *gates = cJSON_GetObjectItemCaseSensitive(diff, "gates"), *g;
    int n = 0, failed = 0;

    cJSON_ArrayForEach(g, gates)
    {
        const char *res = pr_dj_str(g, "result");
        n++;
        failed += res != NULL && strcmp(res, "fail") == 0;
    }
    if (pr_buf_printf(out,
                      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<testsuites name=\"profreport diff\" tests=\"%d\" "
                      "failures=\"%d\">\n"
                      "  <testsuite name=\"profreport.diff\" tests=\"%d\" "
                      "failures=\"%d\" errors=\"0\" skipped=\"0\">\n",
                      n, failed, n, failed) != PR_OK)
        out->failed = 1;
    cJSON_ArrayForEach(g, gates)
    {
        testcase(out, g);
    }
    add(out, "  </testsuite>\n</testsuites>\n");
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "junit: out of memory");
    return PR_OK;
}
