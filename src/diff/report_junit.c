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
    if (res != NULL && strcmp(res, "skipped") == 0) {
        pr_dadd(b, "      <skipped message=\"");
        pr_desc(b, pr_sget_str(g, "detail"));
        pr_dadd(b, "\"/>\n");
    }
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

/* A run whose every gate was skipped compared nothing: one more test,
 * in error, so that a CI page of skipped tests does not read as green
 * (issue #32). */
static void
inconclusive_case(struct pr_buf *b, const struct pr_dverdict *v)
{
    pr_dadd(b, "    <testcase classname=\"profreport.diff\" "
               "name=\"verdict\">\n      <error type=\"inconclusive\" "
               "message=\"");
    pr_desc(b, v->counts);
    pr_dadd(b, "\"/>\n    </testcase>\n");
}

enum pr_status
pr_diff_junit(const cJSON *diff, struct pr_buf *out, struct pr_error *err)
{
    const cJSON *g;
    struct pr_dverdict v;
    size_t errors, n;

    pr_dverdict(diff, &v);
    errors = pr_sget_is(v.cls, "inconclusive");
    n = v.total + errors;
    if (pr_buf_printf(out,
                      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<testsuites name=\"profreport diff\" tests=\"%zu\" "
                      "failures=\"%zu\" errors=\"%zu\">\n"
                      "  <testsuite name=\"profreport.diff\" tests=\"%zu\" "
                      "failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
                      n, v.failed, errors, n, v.failed, errors,
                      v.skipped) != PR_OK)
        out->failed = 1;
    if (errors > 0)
        inconclusive_case(out, &v);
    cJSON_ArrayForEach(g, pr_sget(diff, "gates"))
    {
        testcase(out, g);
    }
    pr_dadd(out, "  </testsuite>\n</testsuites>\n");
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "junit: out of memory");
    return PR_OK;
}
