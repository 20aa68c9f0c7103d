/* roofline.c - placeholder while the pass is written. */
#include "config.h"

#include "profreport/roofline.h"

enum pr_status
pr_roofline_fill(const struct pr_trace *t, const struct pr_analysis_opts *o,
                 cJSON *run, struct pr_error *err)
{
    (void)t;
    (void)o;
    (void)run;
    (void)err;
    return PR_OK;
}
