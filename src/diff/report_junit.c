/* report_junit.c - the gates as JUnit XML, one <testcase> per gate, so CI
 * systems list each gate as a test and show the tripped ones as failures
 * with the offending figures. */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/escape.h"
#include "profreport/sget.h"

/* Every offender on its own line in the failure body. */
static void
offenders(struct pr_buf *b, const cJSON *g)
{
    const cJSON *it;
    struct pr_buf line;

    pr_buf_init(&line, 0);
    cJSON_ArrayForEach(it, pr_sget(g, "offenders"))
    {
        pr_buf_reset(&line);
        if (pr_ddescribe(&line, it) != PR_OK || line.data == NULL) {
            b->failed = 1;
            break;
        }
        pr_desc(b, line.data);
        pr_dadd(b, "\n");
    }
    pr_buf_free(&line);
}

static void
testcase(struct pr_buf *b, const cJSON *g)
{
    const char *res = pr_sget_str(g, "result");
    int failed = res != NULL && strcmp(res, "fail") == 0;

    pr_dadd(b, "    <testcase classname=\"profreport.diff\" name=\"");
    pr_desc(b, pr_sget_str(g, "rule"));
    pr_dadd(b, "\">\n");
    if (res != NULL && strcmp(res, "skipped") == 0)
        pr_dadd(b, "      <skipped message=\"the rule matches no figure\"/>\n");
    if (failed) {
        pr_dadd(b, "      <failure type=\"regression\" message=\"");
        pr_desc(b, pr_sget_str(g, "detail"));
        pr_dadd(b, "\">");
        offenders(b, g);
        pr_dadd(b, "</failure>\n");
    }
    pr_dadd(b, "      <system-out>");
    pr_desc(b, pr_sget_str(g, "detail"));
    pr_dadd(b, "</system-out>\n    </testcase>\n");
}

enum pr_status
pr_diff_junit(const cJSON *diff, struct pr_buf *out, struct pr_error *err)
{
    const cJSON *gates = pr_sget(diff, "gates"), *g;
    int n = 0, failed = 0, skipped = 0;

    cJSON_ArrayForEach(g, gates)
    {
        const char *res = pr_sget_str(g, "result");
        n++;
        failed += res != NULL && strcmp(res, "fail") == 0;
        skipped += res != NULL && strcmp(res, "skipped") == 0;
    }
    if (pr_buf_printf(out,
                      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<testsuites name=\"profreport diff\" tests=\"%d\" "
                      "failures=\"%d\">\n"
                      "  <testsuite name=\"profreport.diff\" tests=\"%d\" "
                      "failures=\"%d\" errors=\"0\" skipped=\"%d\">\n",
                      n, failed, n, failed, skipped) != PR_OK)
        out->failed = 1;
    cJSON_ArrayForEach(g, gates)
    {
        testcase(out, g);
    }
    pr_dadd(out, "  </testsuite>\n</testsuites>\n");
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "junit: out of memory");
    return PR_OK;
}
