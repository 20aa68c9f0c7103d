/* discover.c - input paths to trace files with worker and span names.
 * Reading the files is reader.c's job. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profreport/buf.h"
#include "profreport/discover.h"

#define MAX_DEPTH 16

static int
ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static char *
dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);

    if (p != NULL) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

int
pr_discover_name(const char *base, char **worker, char **span)
{
    static const char *const suffixes[] = {".pt.trace.json",
                                           ".pt.trace.json.gz"};
    static const char *const plain[] = {".json", ".json.gz"};
    size_t n = strlen(base), i, k;
    const char *dot;

    *worker = *span = NULL;
    for (k = 0; k < 2; k++) {
        if (!ends_with(base, suffixes[k]))
            continue;
        n -= strlen(suffixes[k]);
        /* lazy worker group: the span is a final ".<digits>" if present */
        dot = NULL;
        for (i = n; i > 0; i--) {
            if (base[i - 1] == '.') {
                dot = base + i - 1;
                break;
            }
            if (base[i - 1] < '0' || base[i - 1] > '9')
                break;
        }
        if (dot != NULL && (size_t)(dot - base) + 1 < n) {
            *worker = dup_n(base, (size_t)(dot - base));
            *span = dup_n(dot + 1, n - (size_t)(dot - base) - 1);
            if (*worker == NULL || *span == NULL)
                return -1;
        } else {
            *worker = dup_n(base, n);
            if (*worker == NULL)
                return -1;
        }
        return 1;
    }
    for (k = 0; k < 2; k++) {
        if (ends_with(base, plain[k])) {
            n -= strlen(plain[k]);
            break;
        }
    }
    *worker = dup_n(base, n);
    return *worker == NULL ? -1 : 0;
}

static int
is_trace_name(const char *base)
{
    return base[0] != '.' &&
           (ends_with(base, ".json") || ends_with(base, ".json.gz"));
}

static enum pr_status
add_file(struct pr_input_list *l, const char *path, int from_dir,
         struct pr_error *err)
{
    struct pr_input_file *f;
    const char *base = strrchr(path, '/');

    if (pr_grow((void **)&l->files, &l->cap, l->n + 1, sizeof(*f)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    f = &l->files[l->n];
    memset(f, 0, sizeof(*f));
    f->from_dir = from_dir;
    f->path = dup_n(path, strlen(path));
    base = base ? base + 1 : path;
    if (f->path == NULL || pr_discover_name(base, &f->worker, &f->span) < 0) {
        free(f->path);
        free(f->worker);
        free(f->span);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    l->n++;
    return PR_OK;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static enum pr_status scan_dir(const char *dir, int depth,
                               struct pr_input_list *l, struct pr_error *err);

static enum pr_status
scan_entry(const char *path, const char *name, int depth,
           struct pr_input_list *l, struct pr_error *err)
{
    struct stat st;

    if (stat(path, &st) != 0)
        return PR_OK; /* dangling link or vanished file: not ours */
    if (S_ISDIR(st.st_mode))
        return name[0] == '.' ? PR_OK : scan_dir(path, depth + 1, l, err);
    if (S_ISREG(st.st_mode) && is_trace_name(name))
        return add_file(l, path, 1, err);
    return PR_OK;
}

static enum pr_status
scan_dir(const char *dir, int depth, struct pr_input_list *l,
         struct pr_error *err)
{
    DIR *d;
    struct dirent *de;
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    enum pr_status st = PR_OK;
    struct pr_buf path;

    if (depth > MAX_DEPTH)
        return PR_OK;
    d = opendir(dir);
    if (d == NULL)
        return pr_error_set(err, PR_E_IO, "%s: cannot open folder: %s", dir,
                            strerror(errno));
    while (st == PR_OK && (de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (pr_grow((void **)&names, &cap, n + 1, sizeof(*names)) != PR_OK ||
            (names[n] = dup_n(de->d_name, strlen(de->d_name))) == NULL)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        else
            n++;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof(*names), cmp_str);
    pr_buf_init(&path, 0);
    for (i = 0; i < n && st == PR_OK; i++) {
        pr_buf_reset(&path);
        if (pr_buf_printf(&path, "%s%s%s", dir,
                          ends_with(dir, "/") ? "" : "/", names[i]) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        else
            st = scan_entry(path.data, names[i], depth, l, err);
    }
    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);
    pr_buf_free(&path);
    return st;
}

enum pr_status
pr_discover(const char *path, struct pr_input_list *out, struct pr_error *err)
{
    struct stat st;
    size_t before = out->n;
    enum pr_status rc;

    if (stat(path, &st) != 0)
        return pr_error_set(err, PR_E_IO, "%s: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return add_file(out, path, 0, err);
    rc = scan_dir(path, 0, out, err);
    if (rc == PR_OK && out->n == before)
        return pr_error_set(err, PR_E_IO,
                            "%s: no trace files (*.json, *.json.gz) in folder",
                            path);
    return rc;
}

void
pr_input_list_free(struct pr_input_list *l)
{
    size_t i;

    if (l == NULL)
        return;
    for (i = 0; i < l->n; i++) {
        free(l->files[i].path);
        free(l->files[i].worker);
        free(l->files[i].span);
    }
    free(l->files);
    l->files = NULL;
    l->n = l->cap = 0;
}
