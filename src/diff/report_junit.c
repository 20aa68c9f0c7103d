/* report_junit.c - the gates as JUnit XML, one <testcase> per gate, so CI
 * systems list each gate as a test and show the tripped ones as failures
 * with the offending figures. */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/escape.h"
#include "profreport/sget.h"
#include "profreport/trend.h"

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

/* The comparability warnings after a failure's figures, in its message
 * and body: a CI page that shows only the failure still says the runs may
 * not be comparable (review 14 #1: an A100 baseline against a V100 run). */
static void
warnings_text(struct pr_buf *b, const cJSON *warnings, const char *lead,
              const char *sep)
{
    const cJSON *w;
    int first = 1;

    cJSON_ArrayForEach(w, warnings)
    {
        if (!cJSON_IsString(w))
            continue;
        pr_dadd(b, first ? lead : sep);
        pr_desc(b, w->valuestring);
        first = 0;
    }
}

/* The suite's properties: the verdict where a gate compared only some
 * runs, the builds that wrote the two summaries and,
 * for a side an older profreport wrote, the parts left out (review 18
 * #3: a CI page shows these, not the text report's notes). */
static void
properties(struct pr_buf *b, const cJSON *diff, const struct pr_dverdict *v)
{
    const cJSON *c = pr_sget(diff, "comparability");
    const cJSON *builds = pr_sget(c, "builds"), *w;
    static const char *const sides[] = {"baseline", "current"};
    size_t i;

    pr_dadd(b, "    <properties>\n");
    /* the verdict of a pass over some of the runs, as the other reports'
       headlines say it: a CI page shows the properties, not the counts */
    if (v->partial) {
        pr_dadd(b, "      <property name=\"verdict\" value=\"");
        pr_desc(b, v->word);
        pr_dadd(b, " (");
        pr_desc(b, v->counts);
        pr_dadd(b, ")\"/>\n");
    }
    for (i = 0; i < 2; i++) {
        pr_dadd(b, "      <property name=\"build.");
        pr_dadd(b, sides[i]);
        pr_dadd(b, "\" value=\"");
        pr_desc(b, pr_sget_str_or(builds, sides[i], "none recorded"));
        pr_dadd(b, "\"/>\n");
    }
    /* every comparability warning, where a CI page shows it (review 19
       #6) */
    cJSON_ArrayForEach(w, pr_sget(c, "warnings"))
    {
        pr_dadd(b, "      <property name=\"comparability\" value=\"");
        pr_desc(b, cJSON_IsString(w) ? w->valuestring : "?");
        pr_dadd(b, "\"/>\n");
    }
    cJSON_ArrayForEach(w, pr_sget(c, "older_summaries"))
    {
        pr_dadd(b, "      <property name=\"older_summary\" value=\"");
        pr_desc(b, cJSON_IsString(w) ? w->valuestring : "?");
        pr_dadd(b, "\"/>\n");
    }
    pr_dadd(b, "    </properties>\n");
}

/* One gate as a test of class `cls`, named by its rule (and `suffix`);
 * `warnings` the diff's comparability warnings (NULL: none). */
static void
testcase(struct pr_buf *b, const cJSON *g, const char *cls, const char *suffix,
         const cJSON *warnings)
{
    const char *res = pr_sget_str(g, "result");
    int failed = res != NULL && strcmp(res, "fail") == 0;

    pr_dadd(b, "    <testcase classname=\"");
    pr_dadd(b, cls);
    pr_dadd(b, "\" name=\"");
    pr_desc(b, pr_sget_str(g, PR_K_RULE));
    pr_dadd(b, suffix);
    pr_dadd(b, "\">\n");
    if (res != NULL && strcmp(res, "skipped") == 0) {
        pr_dadd(b, "      <skipped message=\"");
        pr_desc(b, pr_sget_str(g, "detail"));
        pr_dadd(b, "\"/>\n");
    }
    if (failed) {
        pr_dadd(b, "      <failure type=\"regression\" message=\"");
        pr_desc(b, pr_sget_str(g, "detail"));
        warnings_text(b, warnings, "; the runs may not be comparable: ", "; ");
        pr_dadd(b, "\">");
        offenders(b, g);
        warnings_text(b, warnings, "Warning: ", "\nWarning: ");
        if (cJSON_GetArraySize(warnings) > 0)
            pr_dadd(b, "\n");
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
inconclusive_case(struct pr_buf *b, const struct pr_dverdict *v,
                  const char *cls)
{
    pr_dadd(b, "    <testcase classname=\"");
    pr_dadd(b, cls);
    pr_dadd(b, "\" name=\"verdict\">\n      <error type=\"inconclusive\" "
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
    properties(out, diff, &v);
    if (errors > 0)
        inconclusive_case(out, &v, "profreport.diff");
    cJSON_ArrayForEach(g, pr_sget(diff, "gates"))
    {
        testcase(out, g, "profreport.diff", "",
                 pr_sget(pr_sget(diff, "comparability"), "warnings"));
    }
    pr_dadd(out, "  </testsuite>\n</testsuites>\n");
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "junit: out of memory");
    return PR_OK;
}

/* A night that could not be read: a skipped test naming it and why. */
static void
unreadable_case(struct pr_buf *b, const cJSON *u)
{
    pr_dadd(b, "    <testcase classname=\"profreport.trend\" name=\"night ");
    pr_desc(b, pr_sget_str_or(u, PR_K_PATH, "?"));
    pr_dadd(b, "\">\n      <skipped message=\"unreadable, left out: ");
    pr_desc(b, pr_sget_str_or(u, "error", "?"));
    pr_dadd(b, "\"/>\n    </testcase>\n");
}

enum pr_status
pr_trend_junit(const cJSON *trend, struct pr_buf *out, struct pr_error *err)
{
    const cJSON *nights = pr_sget(trend, "nights"), *g, *u;
    const cJSON *last = cJSON_GetArrayItem(nights, pr_sget_len(nights) - 1);
    const cJSON *bad = pr_sget(trend, "unreadable");
    struct pr_dverdict v;
    size_t errors, n;

    pr_dtrend_verdict(trend, &v);
    errors = pr_sget_is(v.cls, "inconclusive");
    n = v.total + errors + pr_sget_len(bad);
    if (pr_buf_printf(out,
                      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<testsuites name=\"profreport trend\" tests=\"%zu\" "
                      "failures=\"%zu\" errors=\"%zu\">\n"
                      "  <testsuite name=\"profreport.trend\" tests=\"%zu\" "
                      "failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
                      n, v.failed, errors, n, v.failed, errors,
                      v.skipped + pr_sget_len(bad)) != PR_OK)
        out->failed = 1;
    if (errors > 0)
        inconclusive_case(out, &v, "profreport.trend");
    cJSON_ArrayForEach(g, pr_sget(last, "gates"))
    {
        testcase(out, g, "profreport.trend", " (vs the night before)", NULL);
    }
    cJSON_ArrayForEach(g, pr_sget(last, "gates_vs_first"))
    {
        testcase(out, g, "profreport.trend", " (vs the first night)", NULL);
    }
    cJSON_ArrayForEach(u, bad)
    {
        unreadable_case(out, u);
    }
    pr_dadd(out, "  </testsuite>\n</testsuites>\n");
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "junit: out of memory");
    return PR_OK;
}
