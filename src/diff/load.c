/* load.c - turn one side of a diff (or one night of a trend) into a
 * summary tree: read a saved summary whole, or run the pipeline on
 * traces.  Deciding which is a cheap sniff of the first bytes, so a 2 GB
 * trace is never parsed as one JSON document. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "profreport/pipeline.h"
#include "profreport/saved.h"

const char *
pr_dbasename(const char *path)
{
    const char *slash = strrchr(path, '/');

    if (slash != NULL && slash[1] != '\0')
        return slash + 1;
    return path;
}

enum pr_status
pr_dload_summary(const char *const *paths, size_t n, int quiet,
                 uint64_t max_input, cJSON **out, struct pr_merge **m,
                 struct pr_error *err)
{
    *out = NULL;
    if (m != NULL)
        *m = NULL;
    if (n == 1 && pr_saved_sniff(paths[0]))
        return pr_saved_load(paths[0], pr_pipeline_saved_max(max_input), out,
                             err);
    if (m != NULL)
        return pr_pipeline_summary_merged(paths, n, quiet, max_input, out, m,
                                          err);
    return pr_pipeline_summary(paths, n, quiet, max_input, out, err);
}
