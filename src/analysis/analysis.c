/* analysis.c - placeholder */
#include "config.h"
#include "profreport/analysis.h"
enum pr_status
pr_analysis_run(const struct pr_trace *t, const struct pr_analysis_opts *o,
                cJSON *run, struct pr_error *err)
{
    (void)t; (void)o; (void)run; (void)err;
    return PR_OK;
}
