/* saved.c - read a saved summary back (saved.h): a cheap sniff of the
 * first bytes, so that a 2 GB trace is never parsed as one document, then
 * a whole read, a parse and the contract check. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profreport/contract.h"
#include "profreport/parse.h"
#include "profreport/saved.h"

#define SNIFF_BYTES 4096

int
pr_saved_sniff(const char *path)
{
    char head[SNIFF_BYTES + 1];
    struct stat sb;
    size_t n = 0, i = 0;
    ssize_t got = 1;
    int fd;

    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return 0;
    /* non-blocking: a /proc entry that says "regular file" but would wait
     * (/proc/kmsg) is no summary, and must not hold us */
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    while (n < SNIFF_BYTES && got > 0) {
        got = read(fd, head + n, SNIFF_BYTES - n);
        if (got < 0 && errno == EINTR)
            got = 1;
        else if (got > 0)
            n += (size_t)got;
    }
    close(fd);
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

static int
cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
free_paths(char **v, size_t n)
{
    size_t i;

    for (i = 0; v != NULL && i < n; i++)
        free(v[i]);
    free(v);
}

int
pr_saved_dir(const char *dir, char ***paths, size_t *n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **v = NULL;
    size_t k = 0, cap = 0;
    int ok = d != NULL, oom = 0;

    *paths = NULL;
    *n = 0;
    while (ok && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        struct stat sb;
        char *p;
        if (e->d_name[0] == '.')
            continue;
        p = malloc(strlen(dir) + len + 2);
        if (p == NULL) {
            ok = 0;
            oom = 1;
            break;
        }
        snprintf(p, strlen(dir) + len + 2, "%s/%s", dir, e->d_name);
        if (stat(p, &sb) != 0 || S_ISDIR(sb.st_mode)) {
            free(p);
            ok = 0; /* a subfolder: a run folder, not one of summaries */
            break;
        }
        if (!S_ISREG(sb.st_mode) || len < 5 ||
            strcmp(e->d_name + len - 5, ".json") != 0) {
            free(p);
            continue;
        }
        if (!pr_saved_sniff(p)) {
            free(p);
            ok = 0;
            break;
        }
        if (k == cap) {
            char **nv = realloc(v, (cap ? cap * 2 : 8) * sizeof(*v));
            if (nv == NULL) {
                free(p);
                ok = 0;
                oom = 1;
                break;
            }
            v = nv;
            cap = cap ? cap * 2 : 8;
        }
        v[k++] = p;
    }
    if (d != NULL)
        closedir(d);
    if (!ok || k == 0) {
        free_paths(v, k);
        return oom ? -1 : 0;
    }
    qsort(v, k, sizeof(*v), cmp_path);
    *paths = v;
    *n = k;
    return 1;
}

static enum pr_status
read_whole(const char *path, uint64_t max, char **text, size_t *len,
           struct pr_error *err)
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
    /* refused before a byte is read: a summary's tree takes several
       times its text (issue #35: 3.46 GB for a 520 MB summary) */
    if (max > 0 && (unsigned long long)sb.st_size > max) {
        fclose(f);
        return pr_error_set(err, PR_E_LIMIT,
                            "%s: a saved summary of %llu bytes, larger than "
                            "the limit of %llu bytes (--max-input SIZE "
                            "sets it)",
                            path, (unsigned long long)sb.st_size,
                            (unsigned long long)max);
    }
    if ((unsigned long long)sb.st_size > PR_SAVED_MAX) {
        fclose(f);
        return pr_error_set(err, PR_E_LIMIT,
                            "%s: a saved summary of %llu bytes, larger than "
                            "the %zu MiB profreport reads",
                            path, (unsigned long long)sb.st_size,
                            PR_SAVED_MAX >> 20);
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
pr_saved_load(const char *path, uint64_t max, cJSON **out, struct pr_error *err)
{
    char *text = NULL;
    const char *end = NULL;
    size_t len = 0, nul;
    cJSON *doc;
    enum pr_status st;

    *out = NULL;
    st = read_whole(path, max, &text, &len, err);
    if (st != PR_OK)
        return st;
    /* cJSON would cut a name at a \u0000; a summary never holds one */
    if ((nul = pr_parse_json_nul(text, len)) != SIZE_MAX) {
        free(text);
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: byte %zu: a string holds \\u0000 (a NUL "
                            "character), which no summary holds: not read, "
                            "as the name would be cut there",
                            path, nul);
    }
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
    st = pr_contract_check_saved(doc, err);
    if (st != PR_OK) {
        cJSON_Delete(doc);
        pr_error_prefix(err, "%s: ", path);
        return st;
    }
    *out = doc;
    return PR_OK;
}
