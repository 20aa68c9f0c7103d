/* report_html.c - placeholder until the HTML diff report lands. */
#include "config.h"

#include "profreport/diff.h"

enum pr_status
pr_diff_html(const cJSON *diff, size_t top, struct pr_buf *out,
             struct pr_error *err)
{
    (void)diff;
    (void)top;
    (void)out;
    return pr_error_set(err, PR_E_USAGE, "diff --html: not implemented yet");
}

enum pr_status
pr_diff_pdf(const cJSON *diff, size_t top, const char *path,
            struct pr_error *err)
{
    (void)diff;
    (void)top;
    (void)path;
    return pr_error_set(err, PR_E_USAGE, "diff --pdf: not implemented yet");
}
