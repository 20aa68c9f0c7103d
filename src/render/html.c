/* html.c - placeholder until the HTML renderer lands. */
#include "config.h"
#include "profreport/render.h"
enum pr_status
pr_html_render(const cJSON *summary, const struct pr_render_opts *o,
               struct pr_buf *out, struct pr_error *err)
{
    (void)summary; (void)o; (void)out;
    return pr_error_set(err, PR_E_USAGE, "--html: not implemented yet");
}
