/* reader.c - placeholder */
#include "config.h"
#include <stddef.h>
#include "profreport/reader.h"
enum pr_status
pr_reader_load(const char *path, const struct pr_read_opts *opts,
               struct pr_trace **out, struct pr_error *err)
{
    (void)opts;
    *out = NULL;
    return pr_error_set(err, PR_E_IO, "%s: reader not implemented", path);
}
enum pr_status
pr_reader_load_mem(const char *name, const void *data, size_t len,
                   const struct pr_read_opts *opts, struct pr_trace **out,
                   struct pr_error *err)
{
    (void)data; (void)len; (void)opts;
    *out = NULL;
    return pr_error_set(err, PR_E_IO, "%s: reader not implemented", name);
}
