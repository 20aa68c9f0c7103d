/* pdf.c - placeholder until the PDF renderer lands. */
#include "config.h"
#include "profreport/render.h"
enum pr_status
pr_pdf_render(const cJSON *summary, const struct pr_render_opts *o,
              const char *path, struct pr_error *err)
{
    (void)summary; (void)o; (void)path;
    return pr_error_set(err, PR_E_USAGE, "--pdf: not implemented yet");
}
