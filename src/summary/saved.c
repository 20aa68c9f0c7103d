/* saved.c - read a saved summary back (saved.h): a cheap sniff of the
 * first bytes, so that a 2 GB trace is never parsed as one document, then
 * a whole read, a parse and the contract check. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profreport/contract.h"
#include "profreport/saved.h"

#define SNIFF_BYTES 4096

int
pr_saved_sniff(const char *path)
{
    char head[SNIFF_BYTES + 1];
    struct stat sb;
    size_t n, i = 0;
    FILE *f;

    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return 0;
    f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    n = fread(head, 1, SNIFF_BYTES, f);
    fclose(f);
    head[n] = '\0';
    if (n >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0)
        i = 3; /* a UTF-8 byte order mark */
    while (i < n && strchr(" \t\r\n", head[i]) != NULL)
        i++;
    if (i == n || head[i] != '{')
        return 0; /* gzip, arrays and text are no summary */
    return strstr(head, "\"schema_version\"") != NULL &&
           strstr(head, "\"traceEvents\"") == NULL;
}

static enum pr_status
read_whole(const char *path, char **text, size_t *len, struct pr_error *err)
{
    FILE *f = fopen(path, "rb");
    struct stat sb;
    size_t n;
    char *p;

    if (f == NULL)
        return pr_error_set(err, PR_E_IO, "%s: %s", path, strerror(errno));
    if (fstat(fileno(f), &sb) != 0 || sb.st_size < 0) {
        fclose(f);
        return pr_error_set(err, PR_E_IO, "%s: cannot stat", path);
    }
    if ((unsigned long long)sb.st_size > PR_SAVED_MAX) {
        fclose(f);
        return pr_error_set(err, PR_E_LIMIT,
                            "%s: summary larger than %zu bytes", path,
                            PR_SAVED_MAX);
    }
    n = (size_t)sb.st_size;
    p = malloc(n + 1);
    if (p == NULL || fread(p, 1, n, f) != n) {
        fclose(f);
        free(p);
        return p == NULL ? pr_error_set(err, PR_E_NOMEM, "out of memory")
                         : pr_error_set(err, PR_E_IO, "%s: read failed", path);
    }
    fclose(f);
    p[n] = '\0';
    *text = p;
    *len = n;
    return PR_OK;
}

enum pr_status
pr_saved_load(const char *path, cJSON **out, struct pr_error *err)
{
    char *text = NULL;
    const char *end = NULL;
    size_t len = 0;
    cJSON *doc;
    enum pr_status st;

    *out = NULL;
    st = read_whole(path, &text, &len, err);
    if (st != PR_OK)
        return st;
    errno = 0; /* a failed allocation, not bad text, when ENOMEM */
    doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (doc == NULL && errno == ENOMEM) {
        free(text);
        return pr_error_set(err, PR_E_NOMEM, "%s: out of memory", path);
    }
    if (doc == NULL) {
        size_t at = end != NULL && end >= text ? (size_t)(end - text) : 0;
        free(text);
        return pr_error_set(err, PR_E_FORMAT, "%s: byte %zu: not valid JSON",
                            path, at <= len ? at : len);
    }
    free(text);
    st = pr_contract_check(doc, err);
    if (st != PR_OK) {
        cJSON_Delete(doc);
        pr_error_prefix(err, "%s: ", path);
        return st;
    }
    *out = doc;
    return PR_OK;
}
