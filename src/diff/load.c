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

#include "profreport/pipeline.h"
#include "profreport/sink.h"
#include "internal.h"

#define SNIFF_BYTES 4096

const char *
pr_dbasename(const char *path)
{
    const char *slash = strrchr(path, '/');

    if (slash != NULL && slash[1] != '\0')
        return slash + 1;
    return path;
}

/* 1 when the file starts like a summary written by --json. */
static int
looks_like_summary(FILE *f)
{
    char head[SNIFF_BYTES + 1];
    size_t n = fread(head, 1, SNIFF_BYTES, f);

    head[n] = '\0';
    if (n >= 2 && (unsigned char)head[0] == 0x1f &&
        (unsigned char)head[1] == 0x8b)
        return 0; /* gzip: a compressed trace */
    return strstr(head, "\"schema_version\"") != NULL &&
           strstr(head, "\"traceEvents\"") == NULL;
}

static enum pr_status
read_whole(FILE *f, const char *path, char **text, size_t *len,
           struct pr_error *err)
{
    struct stat sb;
    size_t n;
    char *p;

    if (fstat(fileno(f), &sb) != 0 || sb.st_size < 0)
        return pr_error_set(err, PR_E_IO, "%s: cannot stat", path);
    if ((unsigned long long)sb.st_size > PR_DIFF_SUMMARY_MAX)
        return pr_error_set(err, PR_E_LIMIT, "%s: summary larger than %zu "
                            "bytes", path, PR_DIFF_SUMMARY_MAX);
    n = (size_t)sb.st_size;
    p = malloc(n + 1);
    if (p == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    rewind(f);
    if (fread(p, 1, n, f) != n) {
        free(p);
        return pr_error_set(err, PR_E_IO, "%s: read failed", path);
    }
    p[n] = '\0';
    *text = p;
    *len = n;
    return PR_OK;
}

static enum pr_status
parse_summary(const char *text, size_t len, const char *path, cJSON **out,
              struct pr_error *err)
{
    cJSON *doc = cJSON_ParseWithLength(text, len);
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");

    if (doc == NULL)
        return pr_error_set(err, PR_E_FORMAT, "%s: not valid JSON", path);
    if (!cJSON_IsNumber(ver) ||
        !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "runs"))) {
        cJSON_Delete(doc);
        return pr_error_set(err, PR_E_FORMAT, "%s: not a profreport summary "
                            "(needs schema_version and runs)", path);
    }
    if (ver->valuedouble != 1) {
        double v = ver->valuedouble;
        cJSON_Delete(doc);
        return pr_error_set(err, PR_E_FORMAT, "%s: unsupported "
                            "schema_version %g (this build reads 1)", path, v);
    }
    *out = doc;
    return PR_OK;
}

/* *handled = 0 when path is not a summary file (the caller then runs the
 * pipeline). */
static enum pr_status
try_summary(const char *path, int *handled, cJSON **out, struct pr_error *err)
{
    struct stat sb;
    FILE *f;
    char *text = NULL;
    size_t len = 0;
    enum pr_status st = PR_OK;

    *handled = 0;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return PR_OK; /* folders and missing files: the pipeline reports */
    f = fopen(path, "rb");
    if (f == NULL)
        return pr_error_set(err, PR_E_IO, "%s: %s", path, strerror(errno));
    if (looks_like_summary(f)) {
        *handled = 1;
        st = read_whole(f, path, &text, &len, err);
        if (st == PR_OK)
            st = parse_summary(text, len, path, out, err);
    }
    fclose(f);
    free(text);
    return st;
}

enum pr_status
pr_dload_summary(const char *const *paths, size_t n, int quiet, cJSON **out,
                 struct pr_error *err)
{
    int handled = 0;
    enum pr_status st;

    *out = NULL;
    if (n == 1) {
        st = try_summary(paths[0], &handled, out, err);
        if (st != PR_OK || handled)
            return st;
    }
    return pr_pipeline_summary(paths, n, quiet, out, err);
}
