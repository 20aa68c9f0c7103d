/* mindspore_gpu.c - one rank of MindSpore's GPU profiler output (written
 * by DataSaver).  Not read yet: its files are named as skipped. */
#include "config.h"

#include "internal.h"
#include "mindspore.h"

enum pr_status
pr_ms_gpu_read(const struct pr_ms_unit *u, const struct pr_read_opts *o,
               struct pr_trace *t, struct pr_error *err)
{
    size_t k;

    (void)o;
    for (k = 0; k < PR_MS_KIND_COUNT; k++)
        if (u->by_kind[k] &&
            pr_trace_add_skip(t, u->by_kind[k]->path,
                              "MindSpore GPU profiler files are not read "
                              "yet") != PR_OK)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}
